"""What every migration format is, and what the formats share.

A format (`Format`) is one migration tool's knowledge, behind one small interface that the rest
of innolint asks and never looks behind (`linter.input.migrations.formats` lists them):

- file names: which it claims and their sort key (`entry`, an `Entry`), the directory a history
  of its files is rooted in (`directory_root`), the files beside a history that decide how it
  is read (`companion`), and for a history rooted in a file (a changelog) the file that reaches
  a path (`root_of`, `root_in`);
- a directory: whether it is a history of this format (`detect`, asked of each format in the
  registry's order with a `Directory`) and its files in the order the tool runs them (`order`,
  a `History`);
- reading one file: the annotations the splitter obeys (`section`: which parts of a file run)
  and, for a tool that reads a file otherwise than as text to split, its reading (`read_chunks`);
  whether the mysql client runs the files (`client`: its commands and its `--` rule hold);
- the baseline: the tables the tool records what ran in (`record_tables`) and where a schema
  dump standing for the history may lie (`baseline_dumps`);
- writing: the next migration (`write`, given a `Draft`, answering a `NewMigration`).

Formats whose files are told by their names alone share `NamedFormat`: the family of names
they read (`family`), detection by the family most of a directory's files follow, order by
the names' sort keys. The naming helpers writers share (`next_version`, `versions`,
`sorting_after`) are here too.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from linter.record import FrozenRecord, Record
from linter.input.statement import Note, Segment

if TYPE_CHECKING:
    from linter.input.migrations.orm_evidence import AppEvidence
    from linter.schema.target import Target

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)
_T = TypeVar("_T")


# --- what a file's name says, and a history ------------------------------------------------------


class Entry(FrozenRecord):
    """One file's place in a history: the family its name follows, its sort key, and why it is
    not applied (a down or undo migration, another database's dialect), if so."""

    __slots__ = __match_args__ = ("path", "family", "key", "ignored")
    path: str
    family: str
    key: tuple[object, ...]
    ignored: str | None

    def __init__(self, path: str, family: str, key: tuple[object, ...], ignored: str | None = None) -> None:
        _set(self, "path", path)
        _set(self, "family", family)
        _set(self, "key", key)
        _set(self, "ignored", ignored)


class HistoryNote(NamedTuple):
    """Something to report about a history itself (an edited atlas.sum, an include that is not
    there, a lock file naming another database), at a file and line."""

    path: str
    line: int
    message: str
    rule: str = "parse-error"
    severity: str = "warning"


class History(Record):
    """A migration history: its files in the order they run, and the files left out (`ignored`,
    with why). `root` is the directory, or a root file (a Liquibase root changelog). `notes`: what
    is reported about the history; `segments`: how a file is split when the history says so
    (`linter.input.statement.Segment`, a changelog's settings for it); `baseline`: the schema dump
    replayed first, if any (it is `files[0]` then)."""

    __match_args__ = ("root", "format", "files", "ignored", "notes", "segments", "baseline")
    root: str
    format: str
    files: list[str]
    ignored: list[tuple[str, str]]  # (path, why)
    notes: list[HistoryNote]
    segments: dict[str, Segment]
    baseline: str | None

    def __init__(
        self, root: str, format: str, files: list[str], ignored: list[tuple[str, str]] | None = None,
        notes: list[HistoryNote] | None = None, segments: dict[str, Segment] | None = None, baseline: str | None = None,
    ) -> None:
        self.root = root
        self.format = format
        self.files = files
        self.ignored = [] if ignored is None else ignored
        self.notes = [] if notes is None else notes
        self.segments = {} if segments is None else segments
        self.baseline = baseline


# --- one run's reading, and one directory -------------------------------------------------------


class Session:
    """What the formats read during one run, kept for the run: each format's own state, made on
    first use (a changelog parsed once however many files ask which history they belong to).
    `inside(path)` says whether a path lies in the tree being linted, without reporting."""

    def __init__(self, inside: Callable[[str], bool] = lambda path: True) -> None:
        self.inside = inside
        self._states: dict[str, Any] = {}

    def state(self, owner: str, make: Callable[[], _T]) -> _T:
        found = self._states.get(owner)
        if found is None:
            found = self._states[owner] = make()
        return found  # type: ignore[no-any-return]


class Directory:
    """One directory's files as a format is detected and ordered: its `root` (a directory, or a
    root file), the `files` given, what may be read (`keep`, and the session's `inside`), and
    what the files' names say, asked once of the naming formats (`naming`: one per family, in the
    registry's order) and kept (`entries`, `counts`, `family`)."""

    def __init__(self, root: str, files: list[str], formats: Sequence[Format], keep: Callable[[str], bool],
                 session: Session) -> None:
        self.root = root
        self.files = files
        self.formats = formats
        self.naming = naming(formats)
        self.keep = keep
        self.session = session
        self._entries: dict[str, Entry | None] | None = None
        self._counts: Counter[str] | None = None
        self._memo: dict[str, Any] = {}

    @property
    def inside(self) -> Callable[[str], bool]:
        return self.session.inside

    @property
    def entries(self) -> dict[str, Entry | None]:
        """What each file's name says (`classify`), by path."""
        if self._entries is None:
            self._entries = {p: classify(p, self.naming) for p in self.files}
        return self._entries

    @property
    def counts(self) -> Counter[str]:
        """How many files follow each family."""
        if self._counts is None:
            self._counts = Counter(e.family for e in self.entries.values() if e is not None)
        return self._counts

    def family(self) -> str | None:
        """The family most files follow (on a tie, the first in the registry's order), or None."""
        counts = self.counts
        if not counts:
            return None
        families = [f.family for f in self.naming if f.family is not None]
        return max(families, key=lambda f: (counts[f], -families.index(f)))

    def applied(self, family: str) -> list[str]:
        """The files of `family` that run, in the order of their sort keys."""
        return self.memo(f"applied:{family}", lambda: [e.path for e in sorted(
            (e for e in self.entries.values() if e is not None and e.family == family and e.ignored is None),
            key=lambda e: (e.key, e.path))])

    def marked(self, family: str) -> Format | None:
        """The format of `family` whose `head_mark` comes first in the first of the family's
        files (in order) that holds one: a file may mention another tool's annotation in a comment
        after its own."""

        def find() -> Format | None:
            marked = [f for f in self.formats if f.family == family and f.head_mark]
            if not marked:
                return None
            for path in self.applied(family):
                text = head(path, self.inside)
                found = [(at, i) for i, f in enumerate(marked) if (at := text.find(f.head_mark)) >= 0]
                if found:
                    return marked[min(found)[1]]
            return None

        return self.memo(f"marked:{family}", find)

    def memo(self, key: str, make: Callable[[], _T]) -> _T:
        """A value a format computes once for this directory (its detection and its order may both need it)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]  # type: ignore[no-any-return]


def naming(formats: Iterable[Format]) -> list[Format]:
    """The first format of each family, in order: the one that reads the family's names."""
    found: dict[str, Format] = {}
    for fmt in formats:
        if fmt.family is not None:
            found.setdefault(fmt.family, fmt)
    return list(found.values())


def classify(path: str, naming: Iterable[Format]) -> Entry | None:
    """The family a file's name follows, or None (an ordinary SQL file): the first naming format
    that claims it."""
    for fmt in naming:
        found = fmt.entry(path)
        if found is not None:
            return found
    return None


# --- writing --------------------------------------------------------------------------------------


class WritingError(Exception):
    """No new migration can be named in this history (its files are not numbered, say)."""


class NewMigration(NamedTuple):
    """A migration to add to a history, in its format: the files to write, by their path relative
    to the history's directory, the new sub-directory they go in (one directory per migration),
    the files among them that exist and are replaced whole (an integrity file), and what else the
    user must do, if anything."""

    files: dict[str, str]
    directory: str | None = None
    replaces: tuple[str, ...] = ()
    note: str | None = None


class Draft(NamedTuple):
    """What a format's writer is asked for: the migration holding `up` (and `down`, where the
    format keeps one; both end with a line break) that runs after every migration of `history`,
    named after `label` (a slug), in `root` (the history's directory), whose every name is in
    `names` (down and undo files too). `now`: the time (seconds since the epoch) a timestamp
    version starts from; `inside`: where files beside it may be read
    (`linter.input.file_access.read_inside`); `spans(text)`: the first and last line of each
    statement of a text, as innolint's splitter reads it."""

    history: History
    root: str
    names: list[str]
    label: str
    up: str
    down: str | None
    now: float | None
    inside: Callable[[str], bool]
    spans: Callable[[str], list[tuple[int, int]]]


# --- the interface --------------------------------------------------------------------------------


class Format:
    """One migration tool's format (see the module docstring). The defaults are what a format
    without that part answers."""

    #: the name the configuration and `History.format` use
    name: str = ""
    #: how users write the tool's name, in messages and docs
    title: str = ""
    #: the family of file names `entry` reads (formats that read the same names share one); None:
    #: its files are not told by their names
    family: str | None = None
    #: whether the mysql client runs its files (its commands, `\\g`, `use db`, and its `--` rule
    #: hold); else the tool sends the text to the server itself
    client: bool = False
    #: whether the splitter obeys the format's annotations (`section`)
    sections: bool = False
    #: whether the format reads a file otherwise than as text to split (`read_chunks`)
    reads_itself: bool = False
    #: whether a schema dump beside the history that records what ran is its baseline
    baseline: bool = True
    #: the tables the tool records the migrations that ran in (a schema dump's rows of them)
    record_tables: tuple[str, ...] = ()
    #: suffixes of a migration's name that the tool leaves out when it records it (`.up`)
    recorded_suffixes: tuple[str, ...] = ()
    #: the text that opens a part of a file that runs, after a file that may end in one that does not
    opening: str = ""
    #: among formats of one family: a text whose first place in a file's head, before the other
    #: formats' texts, says the directory is this format's (the files' annotations)
    head_mark: str = ""
    #: the documentation: how the files are named and run, and what a new migration is
    doc: str = ""
    writes: str = ""
    #: what the tool does when a migration it ran has changed (edited-migration's message); ""
    #: when it never looks again (a database that ran it keeps what it did)
    on_edit: str = ""
    #: whether the tool checks the migrations it ran for edits itself and its files grow by new
    #: parts (a changelog's changesets): a changed file is no edited migration
    checks_its_edits: bool = False
    #: whether a history is the directory `directory_root` names and every folder below it, read
    #: whole where one of its files changed (Flyway scans a location's subfolders)
    folders: bool = False
    #: whether the tool records only a migration's version: a file renamed with its version and
    #: content kept is the same migration to it
    records_version_only: bool = False

    # -- file names ---------------------------------------------------------------------------------
    def entry(self, path: str) -> Entry | None:
        """What the file's name says in this format's family, or None."""
        return None

    def directory_root(self, path: str) -> str | None:
        """The directory a history holding the file is rooted in, when it is not the file's own
        (one directory per migration: the one above)."""
        return None

    def migration_directory(self, name: str) -> bool:
        """Whether a directory of that name inside a history is one migration (its files are the history's)."""
        return False

    def directory_file(self, name: str) -> bool:
        """Whether a file of that name in a migration's directory is one of its migrations."""
        return False

    def named_by_directory(self, name: str) -> bool:
        """Whether a migration in a file of that name is recorded under its directory's name."""
        return False

    def companion(self, name: str) -> bool:
        """Whether a file of that (lower-case) name decides how the history beside it is read,
        though it is not linted."""
        return False

    def walked(self, name: str) -> bool:
        """Whether a directory walk reads a file of that (lower-case) name, which is not SQL by its
        name, when its first bytes say it is this format's (`takes`)."""
        return False

    def takes(self, head: bytes) -> bool:
        """Whether a file `walked` takes is this format's, by its first 4 KiB."""
        return False

    def root_of(self, path: str, session: Session) -> str | None:
        """The root file of the history that reaches `path`, for a format whose histories are
        rooted in a file; None otherwise."""
        return None

    def root_in(self, directory: str, session: Session) -> str | None:
        """The root file of the history `directory` holds, for such a format."""
        return None

    def forget(self) -> None:
        """Start afresh: drop what the format remembers of directories it listed (a run begins
        with this, `files.forget_listings`)."""

    def meant_to_change(self, entry: Entry) -> bool:
        """Whether a migration is one the tool runs again whenever it changes (a repeatable one),
        so an edit is no change of what ran."""
        return False

    def version(self, entry: Entry) -> object:
        """The version the tool records a migration under (a rename that keeps it keeps the migration)."""
        return entry.key[0]

    # -- a directory --------------------------------------------------------------------------------
    def detect(self, directory: Directory) -> bool:
        """Whether the directory is a history of this format (asked only where nothing is configured)."""
        return False

    def order(self, directory: Directory, configured: bool) -> tuple[History | None, list[str]]:
        """The history the directory's files make in this format (`configured`: the configuration
        says so, else it was detected), and the files that are not part of it; (None, files)
        when none is."""
        raise NotImplementedError

    def baseline_dumps(self, root: str) -> list[str]:
        """Where a schema dump standing for the history rooted at `root` lies besides the
        history's own directory (a framework's schema directory)."""
        return []

    def evidence(self, history: History, inside: Callable[[str], bool], found: AppEvidence) -> None:
        """Add to `found` what the application's model files the format keeps beside its
        migrations say about keys (`linter.input.migrations.orm_evidence`)."""

    # -- one file -----------------------------------------------------------------------------------
    def section(self, text: str) -> str | None:
        """The annotation a `--` comment's text holds: "up", "down", "begin", "end", "ignore", or
        None (another tool's annotation is a plain comment)."""
        return None

    def read_chunks(self, chunks: Iterable[str], path: str, *, target: Target | None = None,
                    segment: Segment | None = None) -> Iterator[str | Segment | Note]:
        """A file as the tool reads it: the text with the `Segment`s of the parts it reads on
        their own and the `Note`s of what it reports (`reads_itself`)."""
        raise NotImplementedError

    # -- writing ------------------------------------------------------------------------------------
    def cannot_write(self, history: History) -> str | None:
        """Why no new migration can be added to the history, known before it is linted; None when one can."""
        return None

    def write(self, draft: Draft) -> NewMigration:
        """The next migration (see `Draft`); WritingError when no name is sure to run last."""
        raise NotImplementedError


class NamedFormat(Format):
    """A format whose files are told by their names (`entry`): a directory is one when the family
    most of its files follow is this format's (`Directory.family`), and its history is the
    family's files in the order of their sort keys; the others are left to other units."""

    def detect(self, directory: Directory) -> bool:
        return directory.family() == self.family

    def order(self, directory: Directory, configured: bool) -> tuple[History | None, list[str]]:
        family = self.family
        members = [e for e in directory.entries.values() if e is not None and e.family == family]
        if not members:
            return None, directory.files
        others = [p for p, e in directory.entries.items() if e is None or e.family != family]
        ignored = [(e.path, e.ignored) for e in members if e.ignored is not None]
        return History(directory.root, self.name, directory.applied(family), ignored), others  # type: ignore[arg-type]


# --- what formats share -------------------------------------------------------------------------


def head(path: str, inside: Callable[[str], bool], size: int = 65536) -> str:
    """The first `size` bytes of a regular file inside the tree, decoded, in lower case (a pipe is
    never read here: it can be read only once; `linter.input.file_access.head_inside`)."""
    return head_bytes(path, size, inside).decode("utf-8", "replace").lower()


def head_bytes(path: str, size: int, inside: Callable[[str], bool]) -> bytes:
    from linter.input.file_access import head_inside

    return head_inside(path, inside, size)


#: a version: numbers separated by `.`, `_` or `-`, each separator followed by a digit run that
#: ends at a separator (so `0001_2fa_codes` is version 1, name `2fa_codes`)
VERSION = r"\d+(?:[._-]\d+(?=[._-]|$))*"


def numbers(version: str) -> tuple[int, ...]:
    """A version's numbers, for comparing versions numerically (2 before 10)."""
    return tuple(int(n) for n in re.split(r"[._-]", version) if n)


_TIMESTAMP = re.compile(r"\d{14}")


def next_version(versions: Iterable[str], now: float | None = None) -> str:
    """The version after the highest of `versions`, written the same way: its last number plus
    one with the same width and separators; for 14-digit timestamps (YYYYMMDDhhmmss) the current
    UTC time when that is later."""
    written = list(versions)
    if not written:
        return "1"
    highest = max(written, key=lambda v: (numbers(v), v))
    if _TIMESTAMP.fullmatch(highest):
        stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime(now if now is not None else time.time()))
        return stamp if int(stamp) > int(highest) else str(int(highest) + 1)
    match = re.search(r"(\d+)$", highest)
    if match is None:
        return highest + "1"
    number = match.group(1)
    return highest[: match.start()] + str(int(number) + 1).zfill(len(number))


def versions(names: Iterable[str], pattern: str) -> list[str]:
    """Group 1 of `pattern` for each name it matches (the versions a directory's names hold)."""
    return [m.group(1) for n in names if (m := re.match(pattern, n))]


def sorting_after(candidate: str, names: list[str]) -> str:
    """`candidate`, or a name made from the last of `names` that sorts after all of them (byte
    order, as tools that run files by name sort them)."""
    if not names:
        return candidate
    last = max(names, key=lambda n: n.encode("utf-8", "surrogateescape"))
    if candidate.encode("utf-8", "surrogateescape") > last.encode("utf-8", "surrogateescape"):
        return candidate
    return f"{last.rsplit('.', 1)[0]}_{candidate}"
