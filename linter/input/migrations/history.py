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

import datetime
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import NamedTuple

from linter.rules.findings import Diagnostic, Finding
from linter.rules.fingerprints import Known
from linter.schema.model import SchemaModel, Table
from linter.record import FrozenRecord, Record
from linter.input.split import Segment

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

#: Prisma: `<version>_<name>/migration.sql` (`0_init` is what Prisma's baselining guide names the first)
_PRISMA_DIR = r"^\d+_"
PRISMA_FILE = "migration.sql"
PRISMA_LOCK = "migration_lock.toml"
#: Atlas's integrity file (`linter.input.migrations.atlas`)
ATLAS_SUM = "atlas.sum"
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
    if name == PRISMA_FILE and (re.match(_PRISMA_DIR, parent) or _has_prisma_lock(os.path.dirname(os.path.dirname(path)))):
        return Entry(path, "prisma", (parent.encode("utf-8", "surrogateescape"),))
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


def _has_prisma_lock(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, PRISMA_LOCK))


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
    with why). `root` is the directory, or for Liquibase the root changelog. `notes`: what is
    reported about the history; `segments`: how a file is split when the history says so
    (`linter.input.split.Segment`, a Liquibase `sqlFile`'s settings); `baseline`: the schema dump
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
    return _head_bytes(path, size).decode("utf-8", "replace").lower()


def order(
    root: str, files: Iterable[str], fmt: str = "auto", *, keep: Callable[[str], bool] = lambda path: True,
    inside: Callable[[str], bool] = lambda path: True,
) -> tuple[History | None, list[str]]:
    """Split `files` of one directory into a history (ordered) and the files that are not part
    of it. `fmt` "auto" detects the family; a configured format reads only its own names, and a
    configured "lexical" takes every file. Returns (None, files) when nothing follows a format.
    For Liquibase `root` is the root changelog (or a directory to find it in), and the history
    holds every file it reaches that passes `keep` and lies `inside` the tree, given or not."""
    files = list(files)
    if fmt == "liquibase" or (fmt == "auto" and root.lower().endswith(_changelog_suffixes())):
        return _liquibase_order(root, files, keep, inside)
    if fmt == "lexical":
        forward = sorted((p for p in files if not _is_down(p)), key=lambda p: os.path.relpath(p, root))
        history = History(root, "lexical", forward, [(p, "down migration") for p in files if _is_down(p)])
        return _with_baseline(history, [], keep), []
    entries = {p: classify(p) for p in files}
    family_counts = Counter(e.family for e in entries.values() if e is not None)
    if fmt == "atlas" or (fmt == "auto" and set(family_counts) <= {"numbered"} and os.path.isfile(
            os.path.join(root, ATLAS_SUM))):
        return _atlas_order(root, files, keep)
    if fmt == "auto":
        formatted = [p for p, e in entries.items() if (e is None or e.family == "numbered") and _is_formatted(p)]
        if formatted:  # Liquibase formatted SQL without a changelog: what includeAll would run
            history = History(root, "liquibase", sorted(formatted, key=lambda p: os.path.relpath(p, root)))
            return history, [p for p in files if p not in set(formatted)]
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
    history = History(root, label, paths, ignored)
    if family == "prisma":
        others = _prisma(history, others)
    return _with_baseline(history, others, keep), [p for p in others if p != history.baseline]


def _changelog_suffixes() -> tuple[str, ...]:
    from linter.input.migrations.liquibase import CHANGELOG_SUFFIXES

    return CHANGELOG_SUFFIXES


def _is_formatted(path: str) -> bool:
    from linter.input.migrations.liquibase import is_formatted_sql

    return is_formatted_sql(_head(path, 4096))


def _prisma(history: History, others: list[str]) -> list[str]:
    """Prisma's lock file decides whether the directory is MySQL's; files in a migration's
    directory other than migration.sql are not run by Prisma. Returns the other files left."""
    lock = os.path.join(history.root, PRISMA_LOCK)
    if os.path.isfile(lock):
        provider, line = _prisma_provider(lock)
        if provider is None:
            history.notes.append(HistoryNote(lock, line, "migration_lock.toml names no provider: innolint takes the "
                                             "migrations for MySQL's", "parse-error", "info"))
        elif provider.lower() != "mysql":
            history.notes.append(HistoryNote(lock, line, f"provider = {provider!r}: these Prisma migrations are written "
                                             "for another database (Prisma writes MySQL and MariaDB migrations under "
                                             "provider \"mysql\"); not linted", "parse-error", "info"))
            history.ignored.extend((p, f"prisma provider {provider}") for p in history.files)
            history.files = []
    inside = [p for p in others if os.path.dirname(os.path.dirname(os.path.abspath(p))) == os.path.abspath(history.root)
              and re.match(_PRISMA_DIR, os.path.basename(os.path.dirname(p)))]
    history.ignored.extend((p, "not run by prisma migrate (only migration.sql is)") for p in inside)
    return [p for p in others if p not in set(inside)]


def _prisma_provider(lock: str) -> tuple[str | None, int]:
    """The `provider` of a migration_lock.toml and its line."""
    from linter.config.settings import ConfigError, _read_toml

    try:
        data = _read_toml(__import__("pathlib").Path(lock))
    except (ConfigError, OSError):
        return None, 1
    provider = data.get("provider")
    line = next((n for n, text in enumerate(_head(lock, 4096).split("\n"), start=1) if "provider" in text), 1)
    return (provider if isinstance(provider, str) else None), line


def _atlas_order(root: str, files: list[str], keep: Callable[[str], bool]) -> tuple[History | None, list[str]]:
    """Atlas: the `*.sql` files directly in `root` by name (byte order), from the last
    checkpoint on, and atlas.sum checked against the directory as it is on disk."""
    from linter.input.migrations import atlas

    directory = os.path.abspath(root)
    here = {os.path.basename(p): p for p in files
            if os.path.dirname(os.path.abspath(p)) == directory and os.path.basename(p).endswith(".sql")}
    others = [p for p in files if p not in set(here.values())]
    if not here:
        return None, files
    ordered = [here[name] for name in atlas.sorted_names(here)]
    history = History(root, "atlas", ordered)
    try:
        names = [n for n in os.listdir(root) if n.endswith(".sql") and os.path.isfile(os.path.join(root, n))]
    except OSError:
        names = list(here)
    on_disk = [here.get(n, os.path.join(root, n)) for n in atlas.sorted_names(names)]
    history.notes.extend(HistoryNote(n.path, n.line, n.message) for n in atlas.verify(root, [p for p in on_disk if keep(p)]))
    start = atlas.checkpoint_start([_head(p, 4096) for p in ordered])
    if start:
        checkpoint = os.path.basename(ordered[start])
        history.ignored.extend((p, f"before the last checkpoint ({checkpoint}): a new database starts there")
                               for p in ordered[:start])
        history.files = ordered[start:]
    return _with_baseline(history, others, keep), [p for p in others if p != history.baseline]


def _liquibase_order(root: str, files: list[str], keep: Callable[[str], bool],
                     inside: Callable[[str], bool]) -> tuple[History | None, list[str]]:
    """A Liquibase history: what the root changelog reaches (a configured directory: its root
    changelog, else its formatted SQL files in path order)."""
    from linter.input.migrations.liquibase import Walker

    changelog = root
    if os.path.isdir(root):
        roots = _LiquibaseFinder(inside).roots_in(root)
        if not roots:
            forward = sorted(files, key=lambda p: os.path.relpath(p, root))
            return History(root, "liquibase", forward), []
        changelog = roots[0]
    walker = Walker(inside)
    reach = walker.history(changelog, _search_path(changelog))
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


class _LiquibaseFinder:
    """Finds the root changelog that reaches a SQL file, looking in its directory and up to
    `_LIQUIBASE_LEVELS` above, within the tree (`inside`); what it reads is cached for the run."""

    def __init__(self, inside: Callable[[str], bool]) -> None:
        from linter.input.migrations.liquibase import Walker

        self.inside = inside
        self.walker = Walker(inside)
        self._roots: dict[str, list[str]] = {}
        self._reach: dict[str, set[str]] = {}

    def roots_in(self, directory: str) -> list[str]:
        """The root changelogs of a directory: changelog files there that no other one includes."""
        found = self._roots.get(directory)
        if found is None:
            from linter.input.migrations.liquibase import CHANGELOG_SUFFIXES, find_roots, looks_like_changelog

            candidates = []
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                names = []
            for name in names:
                path = os.path.join(directory, name)
                if len(candidates) >= _LIQUIBASE_CANDIDATES:
                    break
                if name.lower().endswith(CHANGELOG_SUFFIXES) and os.path.isfile(path) and self.inside(path):
                    if looks_like_changelog(_head_bytes(path, 4096)):
                        candidates.append(path)
            found = self._roots[directory] = find_roots(candidates, self.walker) if candidates else []
        return found

    def reach(self, changelog: str) -> set[str]:
        found = self._reach.get(changelog)
        if found is None:
            history = self.walker.history(changelog, _search_path(changelog))
            found = self._reach[changelog] = {os.path.realpath(m.path) for m in history.members} | {
                os.path.realpath(p) for p in history.changelogs}
        return found

    def root_of(self, path: str) -> str | None:
        """The outermost root changelog (within the levels searched) that reaches `path`; a
        changelog that none reaches is a root of its own."""
        real = os.path.realpath(path)
        directory = os.path.dirname(os.path.abspath(path))
        best = path if path.lower().endswith(_changelog_suffixes()) else None
        for _ in range(_LIQUIBASE_LEVELS + 1):
            if not self.inside(directory):
                break
            for changelog in self.roots_in(directory):
                if real in self.reach(changelog) or (best is not None and os.path.realpath(best) in self.reach(changelog)):
                    best = changelog
                    break
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
        return best


def _head_bytes(path: str, size: int) -> bytes:
    """The first bytes of a regular file (a pipe is never read here: it can be read only once)."""
    try:
        if not os.path.isfile(path):
            return b""
        with open(path, "rb") as handle:
            return handle.read(size)
    except (OSError, ValueError):
        return b""


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


def recorded_migrations(path: str) -> set[str] | None:
    """The migrations a schema dump records as run (the quoted values of its INSERTs into a
    migration tool's table, over as many lines as they take: Laravel's names, Rails' and
    dbmate's versions ...), or None when it records none. Read line by line, at most `_DUMP_SCAN` bytes."""
    found: set[str] | None = None
    inserting = False
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as handle:
            read = 0
            for raw in handle:
                read += len(raw)
                if read > _DUMP_SCAN:
                    break
                if not inserting:
                    if raw[:6].upper() != b"INSERT":
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
    except OSError:
        return None
    return found


def _stem(path: str) -> tuple[str, str]:
    """A migration's name as migration tools record it (no extension, no .up) and its version."""
    name = os.path.basename(os.path.dirname(path)) if os.path.basename(path) in (PRISMA_FILE, "up.sql") else os.path.basename(path)
    for suffix in (".sql", ".up", ".mysql", ".mariadb"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    version = re.match(r"[Vv]?(\d+)", name)
    return name, version.group(1) if version else name


def _with_baseline(history: History, others: list[str], keep: Callable[[str], bool]) -> History:
    """Put a schema dump that records which migrations it holds in front of the history, and
    leave those migrations out (see the module docstring)."""
    for candidate in _dump_candidates(history, others):
        if not keep(candidate):
            continue
        recorded = recorded_migrations(candidate)
        if recorded is None:
            continue
        kept = []
        for path in history.files:
            name, version = _stem(path)
            if name in recorded or version in recorded:
                history.ignored.append((path, f"recorded as run in the schema dump {os.path.basename(candidate)}"))
            else:
                kept.append(path)
        history.files = [candidate, *kept]
        history.baseline = candidate
        break
    return history


def _is_down(path: str) -> bool:
    name = os.path.basename(path).lower()
    return name.endswith(".down.sql") or name == "down.sql"


def detected_root(path: str) -> str:
    """The directory whose history a file would belong to: its own directory, or for diesel's
    `<version>_<name>/up.sql` and Prisma's `<version>_<name>/migration.sql` the directory above.
    (A Liquibase history's root, a changelog, is found by `plan`.)"""
    directory = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    if name.lower() in _DIESEL_FILES and re.match(_DIESEL_DIR, os.path.basename(directory)):
        return os.path.dirname(directory)
    if name == PRISMA_FILE and (re.match(_PRISMA_DIR, os.path.basename(directory))
                                or _has_prisma_lock(os.path.dirname(directory))):
        return os.path.dirname(directory)
    return directory


def place_of(path: str, inside: Callable[[str], bool] = lambda path: True) -> tuple[str, bool]:
    """Where a file's history lies on disk, for reading it whole elsewhere (`linter.since` reads a
    git revision's copy): (directory, whether everything below it counts). A Liquibase history is
    the root changelog's directory and everything below it (its includes), any other the
    directory `detected_root` names."""
    changelog = _LiquibaseFinder(inside).root_of(path) if path.lower().endswith(".sql") else None
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
    finder: _LiquibaseFinder | None = None
    for path in files:
        found = configured(path) if path != "-" else None
        if found is not None:
            key = (found[0], found[1], True)
        elif path != "-" and detect(path):
            finder = finder or _LiquibaseFinder(inside)
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
            history, others = order(root, members, "auto", keep=keep, inside=inside)
            if history is None:  # a configured directory whose names follow no format
                history, others = order(root, members, "lexical", keep=keep, inside=inside)
        else:
            history, others = order(root, members, fmt, keep=keep, inside=inside)
        if history is not None and (history.files or history.notes):
            groups.append(Group(history.files, history))
        # files that are not part of the history (and were named, not found by expanding)
        groups.extend(Group([p]) for p in given if p in set(others))
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
    finder = _LiquibaseFinder(inside)
    roots = finder.roots_in(directory)
    if roots:
        history, _ = order(roots[0], [], "liquibase", inside=inside)
        return history
    history, _ = order(directory, list_directory(directory, recursive=False), "auto", inside=inside)
    return history


class NewMigration(NamedTuple):
    """A migration to add to a history, in its format: the files to write (path -> text: the
    migration, and for Atlas the new atlas.sum) and what else the user must do, if anything."""

    files: dict[str, str]
    note: str | None


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "innolint_fix"


def _next_version(last: str | None, now: datetime.datetime) -> str:
    """The version after `last` written the same way: a timestamp (`20240101120000`, Laravel's
    `2024_01_01_120000`, diesel's `2024-01-01-120000`) becomes now's, a number the next one with
    its zero padding, dotted or underscored versions their last part plus one."""
    if last is None:
        return now.strftime("%Y%m%d%H%M%S")
    if re.fullmatch(r"\d{14}", last):
        return max(now.strftime("%Y%m%d%H%M%S"), str(int(last) + 1))
    if re.fullmatch(r"\d{4}_\d{2}_\d{2}_\d{6}", last):
        return max(now.strftime("%Y_%m_%d_%H%M%S"), last)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}-\d{6}", last):
        return max(now.strftime("%Y-%m-%d-%H%M%S"), last)
    match = re.fullmatch(r"(.*?)(\d+)", last)
    if match is None:
        return now.strftime("%Y%m%d%H%M%S")
    head, number = match.groups()
    return head + str(int(number) + 1).zfill(len(number))


def _sorting_after(candidate: str, names: list[str]) -> str:
    """`candidate`, or a name made from the last of `names` that sorts after all of them (for
    formats that run files in name order: a timestamp sorts before `2_x.sql`, `20240101_x.sql`
    before `a.sql`)."""
    if not names:
        return candidate
    last = max(names, key=lambda n: n.encode("utf-8", "surrogateescape"))
    if candidate.encode("utf-8", "surrogateescape") > last.encode("utf-8", "surrogateescape"):
        return candidate
    stem = last.rsplit(".", 1)[0]
    return f"{stem}_{candidate}"


def new_migration(history: History, name: str, sql: str, *, now: datetime.datetime | None = None) -> NewMigration:
    """Where a new migration holding `sql` goes in `history`, named after `name`, and its text in
    the history's format (goose and dbmate markers, a Liquibase changeset, a Prisma or diesel
    directory). For Atlas the new atlas.sum is written too when the present one matches the
    directory (else the note says to run `atlas migrate hash`)."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    slug = _slug(name)
    body = sql.rstrip() + "\n"
    fmt = history.format
    root = history.root if os.path.isdir(history.root) else os.path.dirname(history.root)
    files = [p for p in history.files if p != history.baseline]
    last = os.path.basename(files[-1]) if files else None
    if fmt == "flyway":
        versioned = [classify(p) for p in files]
        numbers = [e for e in versioned if e is not None and e.key[0] == 0]
        last_version = re.match(r"[Vv]([\d._]+)__", os.path.basename(numbers[-1].path)) if numbers else None
        version = _next_version(last_version.group(1) if last_version else "0", now)
        return NewMigration({os.path.join(root, f"V{version}__{slug}.sql"): body}, None)
    if fmt in ("prisma", "diesel"):
        leaf = os.path.basename(os.path.dirname(files[-1])) if files else None
        version = _next_version(re.match(r"[\d_-]+?(?=_[^\d])|\d+", leaf).group() if leaf and re.match(r"\d", leaf)
                                else None, now)
        if fmt == "diesel" and re.fullmatch(r"\d{14}", version):
            version = now.strftime("%Y-%m-%d-%H%M%S")
        file = PRISMA_FILE if fmt == "prisma" else "up.sql"
        note = None if fmt == "prisma" else "diesel also wants a down.sql beside up.sql"
        leaves = [os.path.basename(os.path.dirname(p)) for p in files]
        folder = _sorting_after(f"{version}_{slug}", leaves) if fmt == "prisma" else f"{version}_{slug}"
        return NewMigration({os.path.join(root, folder, file): body}, note)
    prefix = re.match(r"[Vv]?(\d+(?:[._-]\d+)*)", last) if last else None
    version = _next_version(prefix.group(1) if prefix else None, now)
    if fmt == "authelia":
        return NewMigration({os.path.join(root, f"V{version}.{slug}.up.sql"): body}, None)
    if fmt == "golang-migrate":
        return NewMigration({os.path.join(root, f"{version}_{slug}.up.sql"): body},
                            "golang-migrate also wants a .down.sql of the same version")
    if fmt == "goose":
        return NewMigration({os.path.join(root, f"{version}_{slug}.sql"): f"-- +goose Up\n{body}\n-- +goose Down\n"}, None)
    if fmt == "dbmate":
        return NewMigration({os.path.join(root, f"{version}_{slug}.sql"): f"-- migrate:up\n{body}\n-- migrate:down\n"},
                            None)
    if fmt == "atlas":
        names = [os.path.basename(p) for p in files]
        return _new_atlas(history, root, _sorting_after(f"{version}_{slug}.sql", names), body)
    if fmt == "lexical":
        names = [os.path.relpath(p, root) for p in files]
        return NewMigration({os.path.join(root, _sorting_after(f"{version}_{slug}.sql", names)): body}, None)
    if fmt == "liquibase":
        # into the directory the root changelog includes whole (nothing to edit), else beside the last SQL file
        every = _include_all_directories(history.root) if os.path.isfile(history.root) else []
        sql_files = [p for p in files if not p.lower().endswith(_changelog_suffixes())]
        directory = every[-1] if every else os.path.dirname(sql_files[-1]) if sql_files else root
        in_directory = sorted(os.path.basename(p) for p in sql_files if os.path.dirname(p) == directory)
        prefix = re.match(r"(\d+(?:[._-]\d+)*)", in_directory[-1]) if in_directory else None
        version = _next_version(prefix.group(1) if prefix else None, now)
        path = os.path.join(directory, _sorting_after(f"{version}_{slug}.sql", in_directory))
        text = f"--liquibase formatted sql\n\n--changeset innolint:{version}-{slug}\n{body}"
        note = None
        if os.path.isfile(history.root) and not every:
            note = f"include {os.path.relpath(path, os.path.dirname(history.root))} in {os.path.basename(history.root)}"
        return NewMigration({path: text}, note)
    return NewMigration({os.path.join(root, f"{version}_{slug}.sql"): body}, None)


def _include_all_directories(changelog: str) -> list[str]:
    """The directories a Liquibase root changelog takes whole (its includeAll entries), in order."""
    from linter.input.migrations.liquibase import Walker

    walker = Walker(lambda path: True)
    walker.search = _search_path(changelog)
    found = []
    for entry in walker.changelog(changelog).entries:
        if entry.tag == "includeAll":
            target = walker.resolve(changelog, entry.attr("path") or "", entry.flag("relativeToChangelogFile"))
            if target is not None and os.path.isdir(target):
                found.append(target)
    return found


def _new_atlas(history: History, root: str, name: str, body: str) -> NewMigration:
    from linter.input.migrations import atlas

    path = os.path.join(root, name)
    files: dict[str, str] = {path: body}
    on_disk = [os.path.join(root, n) for n in atlas.sorted_names(n for n in os.listdir(root) if n.endswith(".sql"))]
    if atlas.verify(root, on_disk):
        return NewMigration(files, "atlas.sum does not match the directory already: run `atlas migrate hash`")
    contents = []
    for file in [*on_disk, path]:
        if file == path:
            contents.append((name, body.encode("utf-8")))
        else:
            with open(file, "rb") as handle:
                contents.append((os.path.basename(file), handle.read()))
    contents = [c for n in atlas.sorted_names(c[0] for c in contents) for c in contents if c[0] == n]
    files[os.path.join(root, ATLAS_SUM)] = atlas.sum_text(contents)
    return NewMigration(files, None)


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
        from linter.rules import fingerprints

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
        from linter.input.source import discover

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
    from linter.parse import ops

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
