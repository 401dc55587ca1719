"""Migration directories: which files form one schema history, and in which order they run.

Why per directory: a directory of migrations is one database built step by step (a key added in
migration 7 repairs the table created in migration 3), while a directory of unrelated schema
files (a corpus, a folder of install scripts) holds independent databases that must never be
replayed into one model. Only a directory whose SQL file names follow a migration tool's naming
becomes a history; anything else stays one unit per file. `[[tool.innolint.migrations]]` in the
configuration makes any directory a history (falling back to lexical order) and
`detect_migrations = false` turns the detection off.

Formats (names as in the configuration):
- flyway: `V1__x.sql`, `V1_2__x.sql`, `V1.2__x.sql`, versions compared numerically (V2 before
  V10); `R__x.sql` repeatables after every versioned one, by description; `U1__x.sql` undo ignored.
- authelia: `V0001.Name.up.sql`; `.down.sql` ignored.
- golang-migrate: `0001_x.up.sql`; `.down.sql` ignored. Kratos/pop's `..._x.mysql.up.sql` keeps
  the mysql/mariadb (or dialect-less) files and ignores the postgres/cockroach/sqlite ones.
- goose, dbmate, timestamp: `<number or timestamp>_x.sql` (goose, dbmate, Rails/Laravel/Kratos
  style timestamps, `001_init.sql`), by the numbers of the prefix; goose and dbmate are told
  apart by their `-- +goose Up` / `-- migrate:up` markers, whose Down sections the splitter skips
  (each format's own markers only: `-- migrate:down` is a plain comment in a goose or Flyway file).
- diesel: one directory per migration, `2018-01-14-171611_name/up.sql`; `down.sql` ignored.
- lexical: every SQL file under the directory in path order (only when configured, or as the
  fallback of a configured directory whose names follow no format).

Changed-files mode (`--changed-only FILE...`, `--since GIT_REF`): a history holding a changed
file is replayed whole, but only findings and diagnostics located in the changed files are
reported (units without a changed file are not linted at all). Findings there on tables that
the changed statements created or altered keep their severity; findings on other (legacy)
tables drop one level, unless `legacy_downgrade = false`. `--changed-only` knows whole files, so
every table a changed file creates or alters is new; `--since` knows the changed lines, so in a
schema file edited in one place only the tables edited there are new.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable

from linter.findings import Diagnostic, Finding
from linter.fingerprints import Known
from linter.model import SchemaModel, Table
from linter.record import FrozenRecord, Record

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

#: a version: numbers separated by `.`, `_` or `-`, each separator followed by a digit run that
#: ends at a separator (so `0001_2fa_codes` is version 1, name `2fa_codes`)
_VERSION = r"\d+(?:[._-]\d+(?=[._-]|$))*"
#: file-name patterns, left to `re.match` to compile on first use: a run meets few formats, and
#: compiling every pattern up front costs more than matching the names of a directory
_FLYWAY_VERSIONED = r"^[Vv](\d+(?:[._]\d+)*)__(.+)\.sql$"
_FLYWAY_UNDO = r"^[Uu](\d+(?:[._]\d+)*)__(.+)\.sql$"
_FLYWAY_REPEATABLE = r"^[Rr]__(.+)\.sql$"
_AUTHELIA = r"^V(\d+)\.(.+)\.(up|down)\.sql$"
_UP_DOWN = r"(?i)^(\d+)_(.+)\.(up|down)\.sql$"
_NUMBERED = rf"^({_VERSION})[_-](.+)\.sql$"
_DIESEL_DIR = rf"^({_VERSION})_(.+)$"
_DIESEL_FILES = ("up.sql", "down.sql")
#: Kratos/pop dialect tags in `<version>_<name>.<dialect>.up.sql`
_DIALECTS = frozenset({"mysql", "mariadb", "postgres", "postgresql", "cockroach", "crdb", "sqlite", "sqlite3", "mssql"})
_OUR_DIALECTS = frozenset({"mysql", "mariadb"})

#: detection order when a directory's names match several families equally often
_FAMILIES = ("flyway", "authelia", "golang-migrate", "diesel", "numbered")
#: configured format -> the file-name family it reads
_FAMILY_OF_FORMAT = {
    "flyway": "flyway", "authelia": "authelia", "golang-migrate": "golang-migrate", "diesel": "diesel",
    "goose": "numbered", "dbmate": "numbered", "timestamp": "numbered",
}


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


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.split(r"[._-]", version) if n)


def classify(path: str) -> Entry | None:
    """The migration family a file's name follows, or None (an ordinary SQL file)."""
    name = os.path.basename(path)
    parent = os.path.basename(os.path.dirname(path))
    if name.lower() in _DIESEL_FILES and re.match(_DIESEL_DIR, parent):
        match = re.match(_DIESEL_DIR, parent)
        assert match is not None
        ignored = "down migration" if name.lower() == "down.sql" else None
        return Entry(path, "diesel", (_numbers(match.group(1)), match.group(2)), ignored)
    if m := re.match(_FLYWAY_VERSIONED, name):
        return Entry(path, "flyway", (0, _numbers(m.group(1)), m.group(2)))
    if m := re.match(_FLYWAY_REPEATABLE, name):
        return Entry(path, "flyway", (1, (), m.group(1)))
    if m := re.match(_FLYWAY_UNDO, name):
        return Entry(path, "flyway", (0, _numbers(m.group(1)), m.group(2)), "undo migration")
    if m := re.match(_AUTHELIA, name):
        ignored = "down migration" if m.group(3) == "down" else None
        return Entry(path, "authelia", (_numbers(m.group(1)), m.group(2)), ignored)
    if m := re.match(_UP_DOWN, name):
        label, _, dialect = m.group(2).rpartition(".")
        ignored = "down migration" if m.group(3).lower() == "down" else None
        if label and dialect.lower() in _DIALECTS and dialect.lower() not in _OUR_DIALECTS:
            ignored = ignored or f"{dialect} migration"
        return Entry(path, "golang-migrate", (_numbers(m.group(1)), m.group(2)), ignored)
    if m := re.match(_NUMBERED, name):
        if name.lower().endswith(".down.sql"):
            return Entry(path, "numbered", (_numbers(m.group(1)), m.group(2)), "down migration")
        return Entry(path, "numbered", (_numbers(m.group(1)), m.group(2)))
    return None


class History(Record):
    """A migration directory: its files in the order they run, and the files left out."""

    __match_args__ = ("root", "format", "files", "ignored")
    root: str
    format: str
    files: list[str]
    ignored: list[tuple[str, str]]  # (path, why)

    def __init__(self, root: str, format: str, files: list[str], ignored: list[tuple[str, str]] | None = None) -> None:
        self.root = root
        self.format = format
        self.files = files
        self.ignored = [] if ignored is None else ignored


class Group(Record):
    """What the engine replays into one model: one plain file, or one history."""

    __match_args__ = ("files", "history")
    files: list[str]
    history: History | None

    def __init__(self, files: list[str], history: History | None = None) -> None:
        self.files = files
        self.history = history


def _label(family: str, files: list[str]) -> str:
    """The format name of a detected family; for numbered files, goose/dbmate by their markers."""
    if family != "numbered":
        return family
    for path in files:
        head = _head(path)
        # the first annotation decides: a dbmate file may mention goose's in a comment, and the reverse
        goose, dbmate = head.find("+goose "), head.find("migrate:up")
        if goose >= 0 and (dbmate < 0 or goose < dbmate):
            return "goose"
        if dbmate >= 0:
            return "dbmate"
    return "timestamp"


def _head(path: str, size: int = 65536) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(size).decode("utf-8", "replace").lower()
    except OSError:
        return ""


def order(root: str, files: Iterable[str], fmt: str = "auto") -> tuple[History | None, list[str]]:
    """Split `files` of one directory into a history (ordered) and the files that are not part
    of it. `fmt` "auto" detects the family; a configured format reads only its own names, and a
    configured "lexical" takes every file. Returns (None, files) when nothing follows a format."""
    files = list(files)
    if fmt == "lexical":
        forward = sorted((p for p in files if not _is_down(p)), key=lambda p: os.path.relpath(p, root))
        return History(root, "lexical", forward, [(p, "down migration") for p in files if _is_down(p)]), []
    entries = {p: classify(p) for p in files}
    family_counts = Counter(e.family for e in entries.values() if e is not None)
    if fmt == "auto":
        if not family_counts:
            return None, files
        family = max(_FAMILIES, key=lambda f: (family_counts[f], -_FAMILIES.index(f)))
    else:
        family = _FAMILY_OF_FORMAT[fmt]
    members = [e for e in entries.values() if e is not None and e.family == family]
    others = [p for p, e in entries.items() if e is None or e.family != family]
    if not members:
        return None, files
    applied = sorted((e for e in members if e.ignored is None), key=lambda e: (e.key, e.path))
    ignored = [(e.path, e.ignored) for e in members if e.ignored is not None]
    paths = [e.path for e in applied]
    label = fmt if fmt != "auto" else _label(family, paths)
    return History(root, label, paths, ignored), others


def _is_down(path: str) -> bool:
    name = os.path.basename(path).lower()
    return name.endswith(".down.sql") or name == "down.sql"


def detected_root(path: str) -> str:
    """The directory whose history a file would belong to: its own directory, or for diesel's
    `<version>_<name>/up.sql` the directory above."""
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path).lower() in _DIESEL_FILES and re.match(_DIESEL_DIR, os.path.basename(directory)):
        return os.path.dirname(directory)
    return directory


def list_directory(root: str, *, recursive: bool) -> list[str]:
    """The SQL files of a history directory on disk (for --changed-only, which names only the
    changed files): direct children and diesel migration directories, or everything below."""
    found: list[str] = []
    if recursive:
        for parent, dirs, names in os.walk(root):
            dirs.sort()
            found.extend(os.path.join(parent, n) for n in sorted(names) if n.lower().endswith(".sql"))
        return found
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return found
    for name in names:
        path = os.path.join(root, name)
        if os.path.isdir(path):
            if re.match(_DIESEL_DIR, name):
                found.extend(os.path.join(path, f) for f in sorted(os.listdir(path)) if f.lower() in _DIESEL_FILES)
        elif name.lower().endswith(".sql"):
            found.append(path)
    return found


def plan(
    files: list[str],
    *,
    configured: Callable[[str], tuple[str, str] | None] = lambda path: None,
    detect: Callable[[str], bool] = lambda path: True,
    expand: Callable[[str], bool] | None = None,
    keep: Callable[[str], bool] = lambda path: True,
) -> list[Group]:
    """Group files into units.

    `configured(path)` gives the configured (root, format) a file falls under, if any;
    `detect(path)` says whether format detection applies to the file's directory. With `expand`
    (changed-files mode), a history containing a file for which `expand(path)` is true is read
    whole from disk (files passing `keep`), so the changed migrations are linted in context.
    Groups come in the order their first file was given; files that are not part of a history
    stay units of their own.
    """
    by_root: dict[tuple[str, str, bool], list[str]] = {}
    sequence: list[tuple[str, str, bool] | str] = []
    for path in files:
        found = configured(path) if path != "-" else None
        if found is not None:
            key = (found[0], found[1], True)
        elif path != "-" and detect(path):
            key = (detected_root(path), "auto", False)
        else:
            sequence.append(path)
            continue
        if key not in by_root:
            by_root[key] = []
            sequence.append(key)
        by_root[key].append(path)

    groups: list[Group] = []
    for item in sequence:
        if isinstance(item, str):
            groups.append(Group([item]))
            continue
        root, fmt, is_configured = item
        given = by_root[item]
        members = given
        if expand is not None and any(expand(p) for p in given):
            seen = {os.path.realpath(p) for p in given}
            on_disk = [p for p in list_directory(root, recursive=is_configured) if keep(p)]
            members = given + [p for p in on_disk if os.path.realpath(p) not in seen]
        if is_configured and fmt == "auto":
            history, others = order(root, members, "auto")
            if history is None:  # a configured directory whose names follow no format
                history, others = order(root, members, "lexical")
        else:
            history, others = order(root, members, fmt)
        if history is not None and history.files:
            groups.append(Group(history.files, history))
        # files that are not part of the history (and were named, not found by expanding)
        groups.extend(Group([p]) for p in given if p in set(others))
    return groups


# --- changed-files mode --------------------------------------------------------------------------


class ChangeError(Exception):
    """Changed files that cannot be determined (not a git repository, an unknown ref)."""


#: a span of changed lines in the new file; start > end marks a deletion between end and start
Span = tuple[int, int]


class ChangeSet(Record):
    """The files a change touches, and within them the changed lines when known; the files it
    deletes; and, when git can tell, what the tree looked like before (`before`).

    `--changed-only FILE...` knows only files (every line counts as changed); `--since REF` also
    knows the lines from `git diff`, so in a schema file edited in one place only the table
    edited there counts as new, and the other tables in that file are legacy.

    "What the change makes worse": a change can make a finding appear in a file it did not touch
    (deleting the migration that added the key V2 lacked; editing it). So a unit is linted when
    it holds a changed file or lies in the directory of a deleted one (`affects`), and when
    `before` holds the findings of the same units at REF (`linter.since`), every finding new
    against them is reported wherever it is, besides those located in the changed files
    (`select`).
    """

    __match_args__ = ("files", "root")
    files: dict[str, list[Span] | None]  # absolute path -> spans (None: all)
    #: the repository's top directory (real path), when git told it (`--since`)
    root: str | None
    #: files the change deletes (or renames away), absolute
    deleted: list[str]
    #: renamed files: absolute old path -> absolute new path
    renamed: dict[str, str]
    #: the git revision the change is against (`--since REF`; HEAD for a commit), when known
    ref: str | None
    #: findings and diagnostics of the affected units at `ref` (`linter.since`), when computed
    before: Known | None
    #: report every finding of the affected units (the run that computes `before`)
    report_all: bool
    #: directories whose units are affected besides those holding a changed file
    directories: set[str]

    def __init__(self, files: dict[str, list[Span] | None] | None = None, root: str | None = None) -> None:
        self.files = {} if files is None else files
        self.root = root
        self.deleted = []
        self.renamed = {}
        self.ref = None
        self.before = None
        self.report_all = False
        self.directories = set()

    @classmethod
    def from_files(cls, paths: Iterable[str]) -> ChangeSet:
        return cls({_absolute(p): None for p in paths})

    def contains(self, path: str) -> bool:
        return _absolute(path) in self.files

    def affects(self, files: Iterable[str]) -> bool:
        """Whether a unit (its files) is linted: it holds a changed file, or one of its files lies
        in the history directory of a deleted file (or of any changed one, for `report_all`)."""
        listed = list(files)
        if any(self.contains(p) for p in listed):
            return True
        return bool(self.directories) and any(p != "-" and _absolute(detected_root(p)) in self.directories
                                              for p in listed)

    def select(
        self, findings: list[Finding], diagnostics: list[Diagnostic], legacy: Callable[[Finding], bool] | None = None,
    ) -> tuple[list[Finding], list[Diagnostic]]:
        """What an affected unit reports: the findings and diagnostics located in changed files,
        and with `before` every one new against it, wherever it is. A finding in a changed file
        on a table the change did not touch (`legacy`) drops one level, unless it is new."""
        if self.report_all:
            return findings, diagnostics
        from linter import fingerprints

        before = self.before
        kept: list[Finding] = []
        for finding in findings:
            new = before is not None and before.covers(finding.path) and not before.take(finding)
            if new:
                kept.append(finding)
            elif self.contains(finding.path):
                old = legacy is not None and legacy(finding)
                kept.append(finding.model_copy(update={"severity": downgrade(finding.severity)}) if old else finding)
        kept_diagnostics = [
            d for d in diagnostics
            if self.contains(d.path) or (before is not None and d.rule not in fingerprints.NOT_MATCHED
                                         and before.covers(d.path) and not before.take(d))
        ]
        return kept, kept_diagnostics

    def statement_changed(self, path: str, line: int, end_line: int) -> bool:
        """Whether a change touches the statement on lines line..end_line of path."""
        spans = self.files.get(_absolute(path), ())
        if spans is None:
            return True
        end_line = max(end_line, line)
        return any(line <= end and end_line >= start for start, end in spans)

    @classmethod
    def from_git(cls, ref: str, cwd: str | None = None) -> ChangeSet:
        """Files changed between `ref` and the working tree (plus untracked files), with their
        changed lines.

        Names come from git's NUL-separated formats (`--name-status -z`, `ls-files -z`), never
        from the patch text, so every name works: spaces (git ends a `+++` line of such a name
        with a tab), tabs, newlines, quotes, leading dashes, bytes that are not UTF-8. The lines
        come from the `-U0` patch of the same diff, whose files are in the same order. `ref` is
        given after `--end-of-options` and paths after `--`: no name or ref becomes an option.
        """
        top = os.fsdecode(_git(["rev-parse", "--show-toplevel"], cwd)).rstrip("\n")
        diff = ["-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "--no-textconv",
                "--diff-filter=ACMR", "-M"]
        listing = _git([*diff, "-z", "--name-status", "--end-of-options", ref, "--"], cwd)
        patch = _git([*diff, "--src-prefix=a/", "--dst-prefix=b/", "-U0", "--end-of-options", ref, "--"], cwd)
        names = _name_status_targets(listing)
        changes = cls(parse_diff(patch.decode("latin-1"), top, names), root=os.path.realpath(top))
        untracked = _git(["ls-files", "--others", "--exclude-standard", "-z", "--"], top)
        for name in untracked.split(b"\0"):
            if name:
                changes.files[_absolute(os.path.join(top, os.fsdecode(name)))] = None
        gone = _git(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-z", "--name-status", "--diff-filter=DR",
                     "-M", "--end-of-options", ref, "--"], cwd)
        changes._note_deletions(gone, top)
        changes.ref = ref
        return changes

    @classmethod
    def for_commit(cls, paths: Iterable[str], cwd: str | None = None) -> ChangeSet:
        """`--changed-only FILE...` (what pre-commit runs): the named files, plus the files the
        commit deletes, which pre-commit never names (`git diff --cached`: staged deletions and
        the old names of staged renames), against HEAD. Outside a repository, or before its
        first commit, the named files only. A named directory stands for every file a walk of it
        finds."""
        from linter.source import discover

        named: list[str] = []
        for path in paths:
            named.extend(discover([path])[0] if os.path.isdir(path) else [path])
        changes = cls.from_files(named)
        try:
            top = os.fsdecode(_git(["rev-parse", "--show-toplevel"], cwd)).rstrip("\n")
            _git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], top)
        except ChangeError:
            return changes
        gone = _git(["diff", "--cached", "--no-color", "--no-ext-diff", "--no-textconv", "-z", "--name-status",
                     "--diff-filter=DR", "-M", "HEAD", "--"], top)
        changes.root = os.path.realpath(top)
        changes._note_deletions(gone, top)
        changes.ref = "HEAD"
        return changes

    def _note_deletions(self, listing: bytes, top: str) -> None:
        """Record `git diff -z --name-status --diff-filter=DR` (D path; R old new)."""
        fields = listing.split(b"\0")
        i = 0
        while i < len(fields) and fields[i]:
            status = fields[i][:1]
            old = os.path.join(top, os.fsdecode(fields[i + 1]))
            if status == b"R":
                self.renamed[_absolute(old)] = _absolute(os.path.join(top, os.fsdecode(fields[i + 2])))
                i += 3
            else:
                i += 2
            self.deleted.append(os.path.abspath(old))
            self.directories.add(_absolute(detected_root(old)))

    @property
    def places(self) -> list[str]:
        """The history directories (or files) whose units the change affects, absolute: what
        `linter.since` reads at REF."""
        found = {_absolute(detected_root(p)) for p in self.files if p != "-"} | set(self.directories)
        return sorted(found)


def _name_status_targets(listing: bytes) -> list[str]:
    """The new-side names of `git diff -z --name-status`, in order: `STATUS NUL path NUL`, and
    for renames and copies `STATUS NUL old NUL new NUL`."""
    fields = listing.split(b"\0")
    names: list[str] = []
    i = 0
    while i < len(fields) and fields[i]:
        status = fields[i][:1]
        if status in (b"R", b"C"):
            names.append(os.fsdecode(fields[i + 2]))
            i += 3
        else:
            names.append(os.fsdecode(fields[i + 1]))
            i += 2
    return names


#: a hunk header of `git diff -U0`: the new side's first line and count
_HUNK = re.compile(r"@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def parse_diff(diff: str, top: str, names: list[str] | None = None) -> dict[str, list[Span] | None]:
    """`git diff -U0` output -> absolute path of each new-side file -> changed line spans.

    `names`: the new-side names of the diff's files in its order (`_name_status_targets`); each
    `diff --git` section takes the next one. Without them, names are read from the `+++` lines
    (a name with a space ends in a tab there, which is dropped). If the sections and the names do
    not pair up, every named file counts as changed throughout (never a change lost). Lines are
    split on "\n" only: a line break of another kind inside a changed line (U+2028, \x85) must
    not start a fake hunk header.
    """
    files: dict[str, list[Span] | None] = {}
    sections: list[list[Span]] = []
    header_names: list[str | None] = []
    current: list[Span] | None = None
    for line in diff.split("\n"):
        if line.startswith("diff --git "):
            current = []
            sections.append(current)
            header_names.append(None)
        elif line.startswith("+++ ") and current is not None and not current:
            header_names[-1] = _header_name(line[4:])
        elif line.startswith("@@ ") and current is not None:
            match = _HUNK.match(line)
            if match:
                start, count = int(match.group(1)), int(match.group(2) or 1)
                current.append((start, start + count - 1) if count else (start + 1, start))
    if names is not None and len(names) != len(sections):
        return {_absolute(os.path.join(top, name)): None for name in names}
    for spans, name in zip(sections, names if names is not None else header_names):
        if name is not None:
            files.setdefault(_absolute(os.path.join(top, name)), []).extend(spans)  # type: ignore[union-attr]
    return files


def _header_name(name: str) -> str | None:
    """The path of a `+++ b/path` header (None for /dev/null): C-quoted names unquoted, the tab
    git appends to a name with a space dropped."""
    if name.endswith("\t"):
        name = name[:-1]
    if name == "/dev/null":
        return None
    if name.startswith('"') and name.endswith('"'):
        name = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape").encode(
            "latin-1"
        ).decode("utf-8", "replace")
    return name[2:] if name.startswith("b/") else name


def _git(args: list[str], cwd: str | None) -> bytes:
    """The standard output of `git ARGS` as bytes (names are decoded by the caller with the
    file system's encoding); ChangeError when git cannot run or fails."""
    import subprocess

    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as error:
        raise ChangeError(f"cannot run git: {error}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip()
        raise ChangeError(f"git {' '.join(args)}: {said or 'failed'}")
    return done.stdout


def _absolute(path: str) -> str:
    """One spelling per file (symlinks resolved), so a path from git, from the command line and
    from a directory listing compare equal. Standard input stays `-`."""
    return path if path == "-" else os.path.normcase(os.path.realpath(path))


def downgrade(severity: str) -> str:
    """One level down: error -> warning -> info (info stays info)."""
    return {"error": "warning", "warning": "info"}.get(severity, "info")


def tables_named_by(op: object, model: SchemaModel, current_schema: str | None) -> list[Table]:
    """The tables of the model that an operation names (to know which tables a change created or
    altered). Called before and after the operation is applied: before finds a table that an
    ALTER or RENAME is about to rename, after finds the table a CREATE made."""
    from linter import ops

    names: list[ops.Name] = []
    if isinstance(op, (ops.CreateTable, ops.AlterTable)):
        names.append(op.name)
        if isinstance(op, ops.AlterTable):
            names.extend(a.target for a in op.actions if isinstance(a, ops.RenameTo))
    elif isinstance(op, (ops.CreateIndex, ops.DropIndexStatement)):
        names.append(op.table)
    elif isinstance(op, ops.RenameTable):
        names.extend(name for pair in op.pairs for name in pair)
    found = []
    for name in names:
        table = model.find_table(name.schema if name.schema is not None else current_schema, name.name)
        if table is not None:
            found.append(table)
    return found
