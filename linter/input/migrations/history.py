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
- prisma: `prisma/migrations/<timestamp>_<name>/migration.sql`, by the directory's name (as
  Prisma sorts them), with `migration_lock.toml` beside: a provider other than mysql (Prisma
  writes another database's SQL) leaves the whole directory out, reported at the lock file.
  Other files in a migration's directory are not run by Prisma and are left out.
- atlas: a directory holding `atlas.sum`: every `*.sql` file directly in it, by name in byte
  order, from the last checkpoint on; `atlas.sum` is checked (`linter.input.migrations.atlas`) and every
  difference is reported: the history was edited.
- liquibase: a root changelog (XML, YAML, JSON) and what it reaches (`linter.input.migrations.liquibase`), found
  from a SQL file by looking for changelogs in its directory and up to `_LIQUIBASE_LEVELS`
  above; without a changelog, the formatted SQL files (`--liquibase formatted sql`) of a
  directory in path order (what includeAll would run).
- lexical: every SQL file under the directory in path order (only when configured, or as the
  fallback of a configured directory whose names follow no format).

A schema dump beside a history that records which migrations it holds (Laravel's
`database/schema/mysql-schema.sql` or `schema.sql` in the directory, with the rows of the
`migrations` table; Rails' `schema_migrations`; goose's, dbmate's, Flyway's tables) is the
history's baseline, as `php artisan migrate` and `rails db:prepare` use it: it is replayed
first, and the migrations it records are left out (`_baseline`).

For `innolint fix --migration DIR` and other callers: `detect(directory)` is the format of a
directory and its files in order, and `new_migration(history, name, sql)` where a new migration
goes and what it holds in that format.

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

from linter.record import Record
from linter.input.statement import Segment
from linter.input.migrations.files import (
    ATLAS_SUM,
    HistoryNote,
    PRISMA_FILE,
    PRISMA_LOCK,
    _DIESEL_DIR,
    _DIESEL_FILES,
    _PRISMA_DIR,
    _is_down,
    classify,
    detected_root,
)

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)


#: how many directories above a SQL file are searched for a Liquibase changelog that includes it
_LIQUIBASE_LEVELS = 4
#: how many changelog candidates of one directory are looked at
_LIQUIBASE_CANDIDATES = 64

#: detection order when a directory's names match several families equally often
_FAMILIES = ("flyway", "authelia", "golang-migrate", "diesel", "prisma", "numbered")
#: configured format -> the file-name family it reads
_FAMILY_OF_FORMAT = {
    "flyway": "flyway", "authelia": "authelia", "golang-migrate": "golang-migrate", "diesel": "diesel",
    "goose": "numbered", "dbmate": "numbered", "timestamp": "numbered", "prisma": "prisma", "atlas": "numbered",
}
#: every format a history may have (what `[[migrations]] format` may name, besides "auto")
FORMATS = ("flyway", "golang-migrate", "authelia", "goose", "dbmate", "timestamp", "diesel", "prisma", "atlas",
           "liquibase", "lexical")


class History(Record):
    """A migration history: its files in the order they run, and the files left out (`ignored`,
    with why). `root` is the directory, or for Liquibase the root changelog. `notes`: what is
    reported about the history; `segments`: how a file is split when the history says so
    (`linter.input.statement.Segment`, a Liquibase `sqlFile`'s settings); `baseline`: the schema dump
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


class Group(Record):
    """What the engine replays into one model: one plain file, or one history."""

    __match_args__ = ("files", "history")
    files: list[str]
    history: History | None

    def __init__(self, files: list[str], history: History | None = None) -> None:
        self.files = files
        self.history = history


def _label(family: str, files: list[str], inside: Callable[[str], bool]) -> str:
    """The format name of a detected family; for numbered files, goose/dbmate by their markers."""
    if family != "numbered":
        return family
    for path in files:
        head = _head(path, inside)
        # the first annotation decides: a dbmate file may mention goose's in a comment, and the reverse
        goose, dbmate = head.find("+goose "), head.find("migrate:up")
        if goose >= 0 and (dbmate < 0 or goose < dbmate):
            return "goose"
        if dbmate >= 0:
            return "dbmate"
    return "timestamp"


def _head(path: str, inside: Callable[[str], bool], size: int = 65536) -> str:
    return _head_bytes(path, size, inside).decode("utf-8", "replace").lower()


def order(
    root: str, files: Iterable[str], fmt: str = "auto", *, keep: Callable[[str], bool] = lambda path: True,
    inside: Callable[[str], bool] = lambda path: True, finder: LiquibaseFinder | None = None,
) -> tuple[History | None, list[str]]:
    """Split `files` of one directory into a history (ordered) and the files that are not part
    of it. `fmt` "auto" detects the family; a configured format reads only its own names, and a
    configured "lexical" takes every file. Returns (None, files) when nothing follows a format.
    For Liquibase `root` is the root changelog (or a directory to find it in), and the history
    holds every file it reaches that passes `keep` and lies `inside` the tree, given or not."""
    files = list(files)
    if fmt == "liquibase" or (fmt == "auto" and _is_changelog(root, inside)):
        return _liquibase_order(root, files, keep, finder or LiquibaseFinder(inside))
    if fmt == "lexical":
        forward = sorted((p for p in files if not _is_down(p)), key=lambda p: os.path.relpath(p, root))
        history = History(root, "lexical", forward, [(p, "down migration") for p in files if _is_down(p)])
        return _with_baseline(history, [], keep, inside), []
    entries = {p: classify(p) for p in files}
    family_counts = Counter(e.family for e in entries.values() if e is not None)
    if fmt == "atlas" or (fmt == "auto" and set(family_counts) <= {"numbered"} and os.path.isfile(
            os.path.join(root, ATLAS_SUM))):
        return _atlas_order(root, files, keep, inside)
    if fmt == "auto":
        formatted = [p for p, e in entries.items() if (e is None or e.family == "numbered") and _is_formatted(p, inside)]
        if formatted:  # Liquibase formatted SQL without a changelog: what includeAll would run
            history = History(root, "liquibase", sorted(formatted, key=lambda p: os.path.relpath(p, root)))
            taken = set(formatted)
            return history, [p for p in files if p not in taken]
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
    label = fmt if fmt != "auto" else _label(family, paths, inside)
    history = History(root, label, paths, ignored)
    if family == "prisma":
        others = _prisma(history, others, inside)
    return _with_baseline(history, others, keep, inside), [p for p in others if p != history.baseline]


def _is_changelog(path: str, inside: Callable[[str], bool]) -> bool:
    """Whether `path` is a Liquibase changelog: an XML/YAML/JSON file that names Liquibase's root
    element. Any other file, `.json` included, is read as SQL when it is named (a file named
    explicitly is always read): never a changelog that quietly holds nothing."""
    from linter.input.migrations.liquibase_changelog import looks_like_changelog

    return path.lower().endswith(_changelog_suffixes()) and looks_like_changelog(_head_bytes(path, 4096, inside))


def _changelog_suffixes() -> tuple[str, ...]:
    from linter.input.migrations.liquibase import CHANGELOG_SUFFIXES

    return CHANGELOG_SUFFIXES


def _is_formatted(path: str, inside: Callable[[str], bool]) -> bool:
    from linter.input.migrations.liquibase_sql import is_formatted_sql

    return is_formatted_sql(_head(path, inside, 4096))


def _prisma(history: History, others: list[str], inside: Callable[[str], bool]) -> list[str]:
    """Prisma's lock file decides whether the directory is MySQL's; files in a migration's
    directory other than migration.sql are not run by Prisma. Returns the other files left."""
    lock = os.path.join(history.root, PRISMA_LOCK)
    if os.path.isfile(lock):
        provider, line, refused = _prisma_provider(lock, inside)
        if refused is not None:
            history.notes.append(HistoryNote(lock, 1, f"{refused}: innolint takes the migrations for MySQL's"))
        elif provider is None:
            history.notes.append(HistoryNote(lock, line, "migration_lock.toml names no provider: innolint takes the "
                                             "migrations for MySQL's", "parse-error", "info"))
        elif provider.lower() != "mysql":
            history.notes.append(HistoryNote(lock, line, f"provider = {provider!r}: these Prisma migrations are written "
                                             "for another database (Prisma writes MySQL and MariaDB migrations under "
                                             "provider \"mysql\"); not linted", "parse-error", "info"))
            history.ignored.extend((p, f"prisma provider {provider}") for p in history.files)
            history.files = []
    beside = [p for p in others if os.path.dirname(os.path.dirname(os.path.abspath(p))) == os.path.abspath(history.root)
              and re.match(_PRISMA_DIR, os.path.basename(os.path.dirname(p)))]
    history.ignored.extend((p, "not run by prisma migrate (only migration.sql is)") for p in beside)
    left_out = set(beside)
    return [p for p in others if p not in left_out]


def _prisma_provider(lock: str, inside: Callable[[str], bool]) -> tuple[str | None, int, str | None]:
    """The `provider` of a migration_lock.toml and its line, or why the file was not read (a link
    to a file outside the tree: `linter.input.file_access.read_inside`)."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    from linter.input.file_access import CONFIG_FILE_CAP, FileRefused, read_inside

    try:
        text = read_inside(lock, inside, CONFIG_FILE_CAP, "lock file").decode("utf-8")
        data = tomllib.loads(text)
    except FileRefused as error:
        return None, 1, str(error)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None, 1, None
    provider = data.get("provider")
    line = next((n for n, line in enumerate(text.split("\n"), start=1) if "provider" in line), 1)
    return (provider if isinstance(provider, str) else None), line, None


def _atlas_order(root: str, files: list[str], keep: Callable[[str], bool],
                 inside: Callable[[str], bool]) -> tuple[History | None, list[str]]:
    """Atlas: the `*.sql` files directly in `root` by name (byte order), from the last
    checkpoint on, and atlas.sum checked against the directory as it is on disk."""
    from linter.input.migrations import atlas

    directory = os.path.abspath(root)
    here = {os.path.basename(p): p for p in files
            if os.path.dirname(os.path.abspath(p)) == directory and os.path.basename(p).endswith(".sql")}
    taken = set(here.values())
    others = [p for p in files if p not in taken]
    if not here:
        return None, files
    ordered = [here[name] for name in atlas.sorted_names(here)]
    history = History(root, "atlas", ordered)
    try:
        names = [n for n in os.listdir(root) if n.endswith(".sql") and os.path.isfile(os.path.join(root, n))]
    except OSError:
        names = list(here)
    on_disk = [here.get(n, os.path.join(root, n)) for n in atlas.sorted_names(names)]
    history.notes.extend(HistoryNote(n.path, n.line, n.message) for n in atlas.verify(root, [p for p in on_disk if keep(p)],
                                                                                     inside))
    start = atlas.checkpoint_start([_head(p, inside, 4096) for p in ordered])
    if start:
        checkpoint = os.path.basename(ordered[start])
        history.ignored.extend((p, f"before the last checkpoint ({checkpoint}): a new database starts there")
                               for p in ordered[:start])
        history.files = ordered[start:]
    return _with_baseline(history, others, keep, inside), [p for p in others if p != history.baseline]


def _liquibase_order(root: str, files: list[str], keep: Callable[[str], bool],
                     finder: LiquibaseFinder) -> tuple[History | None, list[str]]:
    """A Liquibase history: what the root changelog reaches (a configured directory: its root
    changelog, else its formatted SQL files in path order), read through the run's `finder`
    (each changelog parsed once)."""
    changelog = root
    if os.path.isdir(root):
        roots = finder.roots_in(root)
        if not roots:
            forward = sorted(files, key=lambda p: os.path.relpath(p, root))
            return History(root, "liquibase", forward), []
        changelog = roots[0]
    reach = finder.walker.history(changelog, _search_path(changelog))
    given = {os.path.realpath(p): p for p in files}
    history = History(changelog, "liquibase", [], notes=list(reach.notes))
    for member in reach.members:
        path = given.get(os.path.realpath(member.path), member.path)
        if path not in given.values() and not keep(path):
            continue
        history.files.append(path)
        if member.segment is not None:
            history.segments[path] = member.segment
    # the changelogs it reads are its own too, holding SQL or not (a master of includes)
    reached = {os.path.realpath(p) for p in [*history.files, *reach.changelogs]}
    return history, [p for p in files if os.path.realpath(p) not in reached]


def _search_path(changelog: str, levels: int = 6) -> list[str]:
    """Where Liquibase looks up a path not relative to its changelog (the classpath): the
    changelog's directory and those above it, nearest first (`src/main/resources` is usually
    two above `db/changelog/`)."""
    found = []
    directory = os.path.dirname(os.path.abspath(changelog))
    for _ in range(levels):
        found.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return found


class LiquibaseFinder:
    """Finds the root changelog that reaches a SQL file, looking in its directory and up to
    `_LIQUIBASE_LEVELS` above, within the tree (`inside`); what it reads is cached for the run."""

    def __init__(self, inside: Callable[[str], bool]) -> None:
        from linter.input.migrations.liquibase import Walker

        self.inside = inside
        self.walker = Walker(inside)
        self._roots: dict[str, list[str]] = {}
        self._owner: dict[str, dict[str, int]] = {}

    def roots_in(self, directory: str) -> list[str]:
        """The root changelogs of a directory: changelog files there that no other one includes."""
        found = self._roots.get(directory)
        if found is None:
            from linter.input.migrations.liquibase import CHANGELOG_SUFFIXES, find_roots
            from linter.input.migrations.liquibase_changelog import looks_like_changelog

            candidates = []
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                names = []
            for name in names:
                if len(candidates) >= _LIQUIBASE_CANDIDATES:
                    break
                path = os.path.join(directory, name)
                if name.lower().endswith(CHANGELOG_SUFFIXES) and os.path.isfile(path) and self.inside(path):
                    if looks_like_changelog(_head_bytes(path, 4096, self.inside)):
                        candidates.append(path)
            found = self._roots[directory] = find_roots(candidates, self.walker) if candidates else []
        return found

    def _owners(self, directory: str) -> dict[str, int]:
        """For each file the roots of `directory` reach, the index of the first of them that does."""
        found = self._owner.get(directory)
        if found is None:
            roots = self.roots_in(directory)
            found = self._owner[directory] = self.walker.first_reaching(roots, _search_path(roots[0])) if roots else {}
        return found

    def root_of(self, path: str) -> str | None:
        """The outermost root changelog (within the levels searched) that reaches `path`; a
        changelog that none reaches is a root of its own."""
        real = self.walker.real(path)
        directory = os.path.dirname(os.path.abspath(path))
        best = path if path.lower().endswith(_changelog_suffixes()) else None
        for _ in range(_LIQUIBASE_LEVELS + 1):
            if not self.inside(directory):
                break
            owners = self._owners(directory)
            if owners:
                found = [owners[r] for r in (real, self.walker.real(best) if best is not None else None) if r in owners]
                if found:
                    best = self.roots_in(directory)[min(found)]
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
        return best


def _head_bytes(path: str, size: int, inside: Callable[[str], bool]) -> bytes:
    """The first bytes of a regular file inside the tree (a pipe is never read here: it can be
    read only once; `linter.input.file_access.head_inside`)."""
    from linter.input.file_access import head_inside

    return head_inside(path, inside, size)


# --- a schema dump as the baseline of a history ------------------------------------------------

#: tables in which migration tools record what ran: Laravel, Rails/dbmate/golang-migrate, goose, Flyway
_RECORD_TABLES = ("migrations", "schema_migrations", "goose_db_version", "flyway_schema_history")
_RECORD_INSERT = re.compile(r"INSERT\s+INTO\s+[`\"]?(" + "|".join(_RECORD_TABLES) + r")[`\"]?[\s(]", re.IGNORECASE)
_RECORD_VALUE = re.compile(r"'([^'\\]{1,512})'")
#: the most bytes of a dump scanned for migration records
_DUMP_SCAN = 256 << 20


def _dump_candidates(history: History, others: list[str]) -> list[str]:
    """Schema dumps that may be a history's baseline: other SQL files in its directory, and
    Laravel's `database/schema/<connection>-schema.sql` for `database/migrations`."""
    found = [p for p in others if p.lower().endswith((".sql", ".dump"))]
    root = os.path.abspath(history.root)
    if os.path.basename(root) == "migrations" and os.path.isdir(root):
        schema = os.path.join(os.path.dirname(root), "schema")
        try:
            names = sorted(os.listdir(schema))
        except OSError:
            names = []
        found += [os.path.join(schema, n) for n in names if n.endswith(("-schema.sql", "-schema.dump"))]
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


def _stem(path: str) -> tuple[str, str]:
    """A migration's name as migration tools record it (no extension, no .up) and its version."""
    name = os.path.basename(os.path.dirname(path)) if os.path.basename(path) in (PRISMA_FILE, "up.sql") else os.path.basename(path)
    for suffix in (".sql", ".up", ".mysql", ".mariadb"):
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


def place_of(path: str, finder: LiquibaseFinder) -> tuple[str, bool]:
    """Where a file's history lies on disk, for reading it whole elsewhere (`linter.since` reads a
    git revision's copy): (directory, whether everything below it counts). A Liquibase history is
    the root changelog's directory and everything below it (its includes), any other the
    directory `detected_root` names."""
    changelog = finder.root_of(path) if path.lower().endswith(".sql") else None
    if changelog is not None:
        return os.path.dirname(os.path.abspath(changelog)), True
    return detected_root(path), False


#: names of files that are not linted but decide how a history is read
_COMPANIONS = (ATLAS_SUM, PRISMA_LOCK)


def companion(path: str) -> bool:
    """Whether a file decides how the history beside it is read, though it is not SQL: atlas.sum,
    Prisma's lock file and schema (`*.prisma`, in the migrations' directory or the one above),
    Liquibase changelogs. Where a history is read from another copy (`linter.since`), these are
    copied with it."""
    name = os.path.basename(path).lower()
    return name in _COMPANIONS or name.endswith(".prisma") or name.endswith(_changelog_suffixes())


def list_directory(root: str, *, recursive: bool) -> list[str]:
    """The SQL files of a history directory on disk (for --changed-only, which names only the
    changed files): direct children, diesel and Prisma migration directories, or everything below."""
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
            if re.match(_DIESEL_DIR, name) or re.match(_PRISMA_DIR, name):
                try:
                    inner = sorted(os.listdir(path))
                except OSError:
                    continue
                found.extend(os.path.join(path, f) for f in inner if f.lower() in _DIESEL_FILES or f == PRISMA_FILE)
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
) -> list[Group]:
    """Group files into units.

    `configured(path)` gives the configured (root, format) a file falls under, if any;
    `detect(path)` says whether format detection applies to the file's directory. With `expand`
    (changed-files mode), a history containing a file for which `expand(path)` is true is read
    whole from disk (files passing `keep`), so the changed migrations are linted in context.
    `inside(path)` says whether a path lies in the tree being linted, without reporting
    anything: a Liquibase changelog is looked for, and followed, only there. Groups come in the
    order their first file was given; files that are not part of a history stay units of their
    own. A history whose files are all left out (a Prisma directory for another database) is a
    group without files, for its notes.
    """
    by_root: dict[tuple[str, str, bool], list[str]] = {}
    sequence: list[tuple[str, str, bool] | str] = []
    finder = LiquibaseFinder(inside)  # (it reads nothing until asked)
    for path in files:
        found = configured(path) if path != "-" else None
        if found is not None:
            key = (found[0], found[1], True)
        elif path != "-" and detect(path):
            changelog = finder.root_of(path)
            key = (changelog, "auto", False) if changelog is not None else (detected_root(path), "auto", False)
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
            on_disk = [p for p in list_directory(root, recursive=is_configured) if keep(p)]
            members = given + [p for p in on_disk if os.path.realpath(p) not in seen]
        if is_configured and fmt == "auto":
            history, others = order(root, members, "auto", keep=keep, inside=inside, finder=finder)
            if history is None:  # a configured directory whose names follow no format
                history, others = order(root, members, "lexical", keep=keep, inside=inside, finder=finder)
        else:
            history, others = order(root, members, fmt, keep=keep, inside=inside, finder=finder)
        if history is not None and (history.files or history.notes):
            groups.append(Group(history.files, history))
        # files that are not part of the history (and were named, not found by expanding)
        left = set(others)
        groups.extend(Group([p]) for p in given if p in left)
    baselines = {os.path.realpath(g.history.baseline) for g in groups if g.history is not None and g.history.baseline}
    # a dump replayed as a history's baseline is not linted again on its own
    return [g for g in groups if g.history is not None or os.path.realpath(g.files[0]) not in baselines]


# --- one directory's format, and a new migration in it (`innolint fix --migration DIR`) ------------


def detect(directory: str, *, inside: Callable[[str], bool] = lambda path: True) -> History | None:
    """The migration history `directory` holds as a run would detect it: its format
    (`History.format`) and its files in the order they run, from disk; None when its files follow
    no format. A Liquibase history is found through a root changelog in the directory (or its
    formatted SQL files); `inside` says where changelogs may be followed."""
    directory = os.path.abspath(directory)
    finder = LiquibaseFinder(inside)
    roots = finder.roots_in(directory)
    if roots:
        history, _ = order(roots[0], [], "liquibase", inside=inside, finder=finder)
        return history
    history, _ = order(directory, list_directory(directory, recursive=False), "auto", inside=inside)
    return history


# --- changed-files mode --------------------------------------------------------------------------


