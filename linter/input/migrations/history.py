"""Migration directories: which files form one schema history, and in which order they run.

Why per directory: a directory of migrations is one database built step by step (a key added in
migration 7 repairs the table created in migration 3), while a directory of unrelated schema
files (a corpus, a folder of install scripts) holds independent databases that must never be
replayed into one model. Only a directory whose SQL files follow a migration format becomes a
history; anything else stays one unit per file. `[[tool.innolint.migrations]]` in the
configuration makes any directory a history (falling back to lexical order) and
`detect_migrations = false` turns the detection off.

Which format a directory is, and the order of its files, is each format's to say
(`linter.input.migrations.formats`, docs/migration-formats.md): `order` asks them, in the
registry's order, whether the directory is theirs (`Format.detect`) and then for its history
(`Format.order`); `plan` groups a run's files by the history root each belongs to (a directory,
or a root file such as a changelog: `Format.root_of`).

A schema dump beside a history that records which migrations it holds (a row of the tables the
tools record what ran in: `Format.record_tables`; in the directory, or where a framework writes
it: `Format.baseline_dumps`) is the history's baseline, as `php artisan migrate` and
`rails db:prepare` use it: it is replayed first, and the migrations it records are left out
(`_with_baseline`).

For `innolint fix --migration DIR` and other callers: `detect(directory)` is the format of a
directory and its files in order (and `linter.input.migrations.writing.new_migration` where a new
migration goes and what it holds in that format).

Changed-files mode (`--changed-only FILE...`, `--since GIT_REF`): a history holding a changed
file is replayed whole, but only findings and diagnostics located in the changed files are
reported (units without a changed file are not linted at all). Findings there on tables that
the changed statements created or altered keep their severity; findings on other (legacy)
tables drop one level, unless `legacy_downgrade = false`. `--changed-only` knows whole files, so
every table a changed file creates or alters is new; `--since` knows the changed lines, so in a
schema file edited in one place only the tables edited there are new.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Callable, Iterable

from linter.record import Record
from linter.input.migrations.formats import FALLBACK, FORMATS, named, of_family, record_tables
from linter.input.migrations.formats.base import Directory, History, HistoryNote, Session
from linter.input.migrations.files import classify, detected_root


class Group(Record):
    """What the engine replays into one model: one plain file, or one history."""

    __match_args__ = ("files", "history")
    files: list[str]
    history: History | None

    def __init__(self, files: list[str], history: History | None = None) -> None:
        self.files = files
        self.history = history


def order(
    root: str, files: Iterable[str], fmt: str = "auto", *, keep: Callable[[str], bool] = lambda path: True,
    inside: Callable[[str], bool] = lambda path: True, session: Session | None = None,
) -> tuple[History | None, list[str]]:
    """Split `files` of one directory into a history (ordered) and the files that are not part
    of it. `fmt` "auto" detects the format (the first of the registry whose `detect` says so); a
    configured format reads only its own files (lexical order takes every file).
    Returns (None, files) when nothing follows a format. For a format whose histories are rooted
    in a file (a Liquibase root changelog) `root` is that file (or a directory to find it in),
    and the history holds every file it reaches that passes `keep` and lies `inside` the tree,
    given or not. `session`: what the run read already (a Session of `inside`)."""
    files = list(files)
    session = session or Session(inside)
    directory = Directory(root, files, FORMATS, keep, session)
    if fmt == "auto":
        chosen = next((f for f in FORMATS if f.detect(directory)), None)
        if chosen is None:
            return None, files
    else:
        chosen = named(fmt)
    history, others = chosen.order(directory, fmt != "auto")
    if history is None:
        return None, files
    if chosen.baseline:
        history = _with_baseline(history, others, keep, inside)
        others = [p for p in others if p != history.baseline]
    return history, others


def history_root(path: str, session: Session) -> str | None:
    """The root file of the history that reaches `path` (a changelog), if a format roots its
    histories in files."""
    for fmt in FORMATS:
        root = fmt.root_of(path, session)
        if root is not None:
            return root
    return None


# --- a schema dump as the baseline of a history ------------------------------------------------

#: tables in which migration tools record what ran (`Format.record_tables`, every format's)
_RECORD_INSERT = re.compile(r"INSERT\s+INTO\s+[`\"]?(" + "|".join(record_tables()) + r")[`\"]?[\s(]", re.IGNORECASE)
_RECORD_VALUE = re.compile(r"'([^'\\]{1,512})'")
#: the most bytes of a dump scanned for migration records
_DUMP_SCAN = 256 << 20


def _dump_candidates(history: History, others: list[str]) -> list[str]:
    """Schema dumps that may be a history's baseline: other SQL files in its directory, and those
    a framework writes elsewhere (`Format.baseline_dumps`: a dump may come from the application's
    framework whichever tool runs its SQL)."""
    found = [p for p in others if p.lower().endswith((".sql", ".dump"))]
    for fmt in FORMATS:
        found += fmt.baseline_dumps(history.root)
    return found


def recorded_migrations(path: str, inside: Callable[[str], bool] = lambda path: True) -> set[str] | None:
    """The migrations a schema dump records as run (the quoted values of its INSERTs into a
    migration tool's table, over as many lines as they take: Laravel's names, Rails' and
    dbmate's versions ...), or None when it records none. Read line by line, at most `_DUMP_SCAN` bytes."""
    return _read_dump(path, inside)[0]


def _read_dump(path: str, inside: Callable[[str], bool]) -> tuple[set[str] | None, set[str]]:
    """What a schema dump records as run (`recorded_migrations`), and the lower-case names of
    the tables it creates (mysqldump writes each `CREATE TABLE` at the start of a line), in one
    pass."""
    from linter.input.file_access import FileRefused, open_inside

    found: set[str] | None = None
    tables: set[str] = set()
    inserting = False
    if not os.path.isfile(path):
        return None, tables
    try:
        with open_inside(path, inside, "schema dump") as handle:
            read = 0
            for raw in handle:
                read += len(raw)
                if read > _DUMP_SCAN:
                    break
                if not inserting:
                    head = raw[:6].upper()
                    if head == b"CREATE":
                        created = _CREATED.match(raw.decode("utf-8", "replace"))
                        if created is not None:
                            tables.add(_unquoted(created.group(1)))
                        continue
                    if head != b"INSERT":
                        continue
                    line = raw.decode("utf-8", "replace")
                    if _RECORD_INSERT.match(line) is None:
                        continue
                    found = found if found is not None else set()
                    inserting = True
                else:
                    line = raw.decode("utf-8", "replace")
                found.update(_RECORD_VALUE.findall(line))  # type: ignore[union-attr]
                if line.rstrip().endswith(";"):
                    inserting = False
    except (OSError, FileRefused):
        return None, tables
    return found, tables


#: the table a CREATE TABLE statement (or a dump's line) creates: group 1, quoted or not, without its database
_CREATED = re.compile(r"CREATE\s++(?:OR\s++REPLACE\s++)?TABLE\s++(?:IF\s++NOT\s++EXISTS\s++)?"
                      r"(?:(?:`(?:[^`]|``)*+`|[\w$]++)\s*+\.\s*+)?(`(?:[^`]|``)*+`|[\w$]++)", re.IGNORECASE)


def _unquoted(name: str) -> str:
    return (name[1:-1].replace("``", "`") if name.startswith("`") else name).lower()


def _created_tables(path: str, migration_format: str) -> list[tuple[str, int]]:
    """The tables a migration creates (lower case) and the lines of their CREATE TABLE, read as
    a run splits it (quotes and comments as the client reads them, the format's Down sections left out)."""
    from linter.input.source import InputError, read_statements

    found: list[tuple[str, int]] = []
    try:
        for statement in read_statements(path, migration_format=migration_format):
            created = _CREATED.match(statement.text)
            if created is not None:
                found.append((_unquoted(created.group(1)), statement.line))
    except InputError:
        pass
    return found


#: what a migration's name loses when its tool records it: the extension, then the formats' suffixes (`.up`)
_RECORDED_SUFFIXES = tuple(dict.fromkeys((".sql", *(s for f in FORMATS for s in f.recorded_suffixes))))


def _stem(path: str) -> tuple[str, str]:
    """A migration's name as migration tools record it (no extension, no .up; a migration in a
    directory of its own by the directory's name) and its version."""
    name = os.path.basename(path)
    if any(fmt.named_by_directory(name) for fmt in FORMATS):
        name = os.path.basename(os.path.dirname(path))
    for suffix in _RECORDED_SUFFIXES:
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    version = re.match(r"[Vv]?(\d+)", name)
    return name, version.group(1) if version else name


def _with_baseline(history: History, others: list[str], keep: Callable[[str], bool],
                   inside: Callable[[str], bool]) -> History:
    """Put a schema dump that records which migrations it holds in front of the history, and
    leave those migrations out (see the module docstring)."""
    for candidate in _dump_candidates(history, others):
        if not keep(candidate):
            continue
        recorded, dumped = _read_dump(candidate, inside)
        if recorded is None:
            continue
        kept = []
        for path in history.files:
            name, version = _stem(path)
            if name in recorded or version in recorded:
                history.ignored.append((path, f"recorded as run in the schema dump {os.path.basename(candidate)}"))
                _check_recorded(history, path, candidate, dumped)
            else:
                kept.append(path)
        history.files = [candidate, *kept]
        history.baseline = candidate
        break
    return history


def _check_recorded(history: History, path: str, dump: str, dumped: set[str]) -> None:
    """A migration the dump records as run is left out, as the framework leaves it out when it
    loads the dump; but a table it creates that the dump lacks says the record is not the dump's
    own (a row added by hand, or a dump older than its record): a database migrated before the dump
    runs that migration, and innolint would lint it nowhere. Said at its CREATE TABLE."""
    missing = [(table, line) for table, line in _created_tables(path, history.format) if table not in dumped]
    if not missing:
        return
    names = ", ".join(dict.fromkeys(table for table, _ in missing))
    history.notes.append(HistoryNote(
        path, missing[0][1], f"not linted: the schema dump {os.path.basename(dump)} records this migration as run, so "
        f"it is left out as the framework leaves it out when it loads the dump, but the dump has no table {names} "
        "that it creates: the record was added by hand or the dump is older than it, and a database migrated "
        "before the dump still runs this migration. Dump the schema again (php artisan schema:dump), or remove the "
        "record"))


def place_of(path: str, session: Session) -> tuple[str, bool]:
    """Where a file's history lies on disk, for reading it whole elsewhere (`linter.since` reads a
    git revision's copy): (directory, whether everything below it counts). A history rooted in a
    file (a changelog) is that file's directory and everything below it (its includes), any other
    the directory `detected_root` names."""
    root = history_root(path, session) if path.lower().endswith(".sql") else None
    if root is not None:
        return os.path.dirname(os.path.abspath(root)), True
    return detected_root(path), _spans_folders(path)


def _spans_folders(path: str) -> bool:
    """Whether the history of a file with that name is its root and every folder below it
    (`Format.folders`: a Flyway location)."""
    entry = classify(path)
    return entry is not None and of_family(entry.family).folders


def companion(path: str) -> bool:
    """Whether a file decides how the history beside it is read, though it is not SQL
    (`Format.companion`: an integrity file, a lock file, a schema, a changelog). Where a history is
    read from another copy (`linter.since`), these are copied with it."""
    name = os.path.basename(path).lower()
    return any(fmt.companion(name) for fmt in FORMATS)


def list_directory(root: str, *, recursive: bool) -> list[str]:
    """The SQL files of a history directory on disk (for --changed-only, which names only the
    changed files): direct children and the migrations of the directories that are one migration
    each (`Format.migration_directory`), or everything below."""
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
            if any(fmt.migration_directory(name) for fmt in FORMATS):
                try:
                    inner = sorted(os.listdir(path))
                except OSError:
                    continue
                found.extend(os.path.join(path, f) for f in inner if any(fmt.directory_file(f) for fmt in FORMATS))
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
    inside: Callable[[str], bool] = lambda path: True,
    locations: Callable[[str], list[str]] = lambda root: [root],
) -> list[Group]:
    """Group files into units.

    `configured(path)` gives the configured (root, format) a file falls under, if any;
    `detect(path)` says whether format detection applies to the file's directory. With `expand`
    (changed-files mode), a history containing a file for which `expand(path)` is true is read
    whole from disk (files passing `keep`), so the changed migrations are linted in context.
    `locations(root)`: the directories of a configured history (several for Flyway's
    `locations`), read whole in changed-files mode. `inside(path)` says whether a path lies in
    the tree being linted, without reporting anything: a Liquibase changelog is looked for, and followed, only there. Groups come in the
    order their first file was given; files that are not part of a history stay units of their
    own. A history whose files are all left out (a directory of migrations for another database) is a
    group without files, for its notes.
    """
    by_root: dict[tuple[str, str, bool], list[str]] = {}
    sequence: list[tuple[str, str, bool] | str] = []
    session = Session(inside)  # (it reads nothing until asked)
    for path in files:
        found = configured(path) if path != "-" else None
        if found is not None:
            key = (found[0], found[1], True)
        elif path != "-" and detect(path):
            root = history_root(path, session)
            key = (root, "auto", False) if root is not None else (detected_root(path), "auto", False)
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
        if expand is not None and any(expand(p) for p in given) and os.path.isdir(root):
            seen = {os.path.realpath(p) for p in given}
            # a history whose format scans folders is read with them (`Format.folders`)
            below = is_configured or any(_spans_folders(p) for p in given)
            on_disk = [p for directory in (locations(root) if is_configured else [root])
                       for p in list_directory(directory, recursive=below) if keep(p)]
            members = given + [p for p in on_disk if os.path.realpath(p) not in seen]
        if is_configured and fmt == "auto":
            history, others = order(root, members, "auto", keep=keep, inside=inside, session=session)
            if history is None:  # a configured directory whose names follow no format
                history, others = order(root, members, FALLBACK.name, keep=keep, inside=inside, session=session)
        else:
            history, others = order(root, members, fmt, keep=keep, inside=inside, session=session)
        if history is not None and (history.files or history.notes):
            groups.append(Group(history.files, history))
        # files that are not part of the history (and were named, not found by expanding)
        left = set(others)
        groups.extend(split_schemas([p for p in given if p in left], keep if expand is not None else None))
    baselines = {os.path.realpath(g.history.baseline) for g in groups if g.history is not None and g.history.baseline}
    # a dump replayed as a history's baseline is not linted again on its own
    return [g for g in groups if g.history is not None or os.path.realpath(g.files[0]) not in baselines]


def split_schemas(files: list[str], on_disk: Callable[[str], bool] | None = None) -> list[Group]:
    """Plain files (no history), each a unit of its own, except a directory that splits one schema
    across files by table: `llx_user.sql` with its table and `llx_user.key.sql` with the keys and
    foreign keys it ALTERs in (Dolibarr). Such a directory is one schema, as Skeema reads a
    directory: its files in one unit, the tables first (the files another file's name extends),
    then the rest, each by name. Only such a pair makes a directory one: a directory of unrelated
    dumps (each creating its own `users`) stays a file per unit, so that no dump's tables meet
    another's. With `on_disk` (changed-files mode) the directory's other files are read from
    disk (those `on_disk` keeps), so a changed key file is replayed after its table."""
    by_directory: dict[str, list[str]] = {}
    for path in files:
        by_directory.setdefault(os.path.dirname(path) if path != "-" else "-", []).append(path)
    groups: dict[str, Group] = {}
    for directory, members in by_directory.items():
        if directory == "-":
            continue
        names = {os.path.basename(p).lower() for p in members}
        if on_disk is not None and os.path.isdir(directory or "."):
            known = {os.path.realpath(p) for p in members}
            found = [p for p in list_directory(directory or ".", recursive=False)
                     if on_disk(p) and os.path.realpath(p) not in known]
            disk_names = names | {os.path.basename(p).lower() for p in found}
            if _extending(disk_names):
                members = members + found
                names = disk_names
        extending = _extending(names)
        if not extending:
            continue
        ordered = sorted(members, key=lambda p: (os.path.basename(p).lower() in extending, os.path.basename(p)))
        groups[directory] = Group(ordered)
    out: list[Group] = []
    emitted: set[str] = set()
    for path in files:
        directory = os.path.dirname(path) if path != "-" else "-"
        if directory not in groups:
            out.append(Group([path]))
        elif directory not in emitted:  # the directory's unit, where its first file was given
            emitted.add(directory)
            out.append(groups[directory])
    return out


#: what the dotted part of a file that adds a table's keys begins with (`t.key.sql`, `t.fk.sql`)
_KEY_PARTS = frozenset({"key", "keys", "fk", "fks", "pk", "foreign", "foreign_keys", "index", "indexes", "indices",
                        "constraint", "constraints"})


def _extending(names: set[str]) -> set[str]:
    """The file names (lower case) that extend another's with its keys: `t.key.sql` beside `t.sql`,
    and the forms Dolibarr's modules give them, `t-mod.key.sql` and `t.key-mod.sql` beside
    `t-mod.sql` (a dotted part naming keys, its first part beginning another file's name). A
    dotted name of another kind (`schema.backup.sql`) is another dump of a schema, never its keys."""
    stems = sorted(name[:-4] for name in names if name.endswith(".sql") and "." not in name[:-4])
    extending = set()
    for name in names:
        stem = name[:-4] if name.endswith(".sql") else None
        if stem is None or "." not in stem:
            continue
        first, rest = stem.split(".", 1)
        if re.match(r"[a-z_]+", rest) is None or re.match(r"[a-z_]+", rest).group() not in _KEY_PARTS:  # type: ignore[union-attr]
            continue  # `schema.backup.sql`, `dump.2024.sql`: another dump of the schema, not its keys
        at = bisect.bisect_left(stems, first)
        if at < len(stems) and stems[at].startswith(first):
            extending.add(name)
    return extending


# --- one directory's format, and a new migration in it (`innolint fix --migration DIR`) ------------


def detect(directory: str, *, inside: Callable[[str], bool] = lambda path: True) -> History | None:
    """The migration history `directory` holds as a run would detect it: its format
    (`History.format`) and its files in the order they run, from disk; None when its files follow
    no format. A history rooted in a file is found through that file in the directory
    (`Format.root_in`: a root changelog); `inside` says where such files may be followed."""
    directory = os.path.abspath(directory)
    session = Session(inside)
    for fmt in FORMATS:
        root = fmt.root_in(directory, session)
        if root is not None:
            history, _ = order(root, [], fmt.name, inside=inside, session=session)
            return history
    history, _ = order(directory, list_directory(directory, recursive=False), "auto", inside=inside, session=session)
    return history
