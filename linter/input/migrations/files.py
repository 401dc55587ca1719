"""What a migration file's name says: the tool whose naming it follows (Flyway, golang-migrate,
Authelia, goose/dbmate/timestamps, diesel, Prisma), its sort key, whether it is applied (a down or
undo migration, another database's dialect is not), and the directory its history is rooted in.
Read by `history` (which files form a history, in which order), by the fingerprints of the
baseline and by `linter.since`; it reads names only, never a file's text, except for Prisma's
lock file's presence."""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from linter.record import FrozenRecord

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
