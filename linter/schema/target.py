"""Target servers and what each one can do: advice depends on the server the schema runs on."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from linter.record import FrozenRecord

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

Flavor = Literal["mysql", "percona", "mariadb"]

#: The server lines a user can name, in config (`target = "mysql-8.0"`) or with `--target`; a full
#: version (`mysql-8.0.36`, `mariadb-10.6.12`) names its line and the release within it
#: (`Target.parse`). Why these: the releases their vendors support or that distributions still
#: ship (MariaDB 10.4 and 10.5, past their end of life, are Debian 11's and RHEL 8's), each with
#: the behaviour innolint's advice depends on (docs/targets.md says what changes per line).
TARGETS: tuple[str, ...] = (
    "mysql-5.7", "mysql-8.0", "mysql-8.4", "mysql-9.x", "percona-8.0", "percona-8.4",
    "mariadb-10.4", "mariadb-10.5", "mariadb-10.6", "mariadb-10.11", "mariadb-11.x",
)
DEFAULT_TARGET = "mysql-8.0"
#: the patch (or minor, for a `.x` line) a target stands for when none is named: its newest
NEWEST = 99
#: a target as written: a line, or a full version (`flavor-major.minor.patch`, a suffix such as
#: `-log` or `-MariaDB-1:10.11.6+maria~ubu2204` dropped by `Target.parse`)
TARGET_PATTERN = r"^(mysql|percona|mariadb)-(\d+)\.(\d+|x)(?:\.(\d+))?$"
#: versions no line stands for, and what to name instead
_NOT_A_LINE: tuple[tuple[str, tuple[int, int], tuple[int, int], str], ...] = (
    ("mysql", (0, 0), (5, 6), "MySQL before 5.7 is past its end of life and innolint does not model it"),
    ("mysql", (8, 1), (8, 3), "MySQL 8.1 to 8.3 were innovation releases, no longer supported: name mysql-8.4 (the "
                              "LTS they led to) or mysql-8.0"),
    ("percona", (0, 0), (7, 99), "Percona Server before 8.0 is past its end of life: name mysql-5.7 for 5.7"),
    ("percona", (8, 1), (8, 3), "Percona Server 8.1 to 8.3 were innovation releases: name percona-8.4 or percona-8.0"),
    ("percona", (8, 5), (99, 99), "Percona Server after 8.4 is not modelled yet: name percona-8.4"),
    ("mariadb", (0, 0), (10, 3), "MariaDB before 10.4 is past its end of life and innolint does not model it"),
    ("mariadb", (10, 7), (10, 10), "MariaDB 10.7 to 10.10 were short-term releases, past their end of life: name "
                                   "mariadb-10.6 or mariadb-10.11"),
    ("mariadb", (12, 0), (99, 99), "MariaDB 12 and later are not modelled yet: name mariadb-11.x"),
    ("mysql", (10, 0), (99, 99), "MySQL after 9.x is not modelled yet: name mysql-9.x"),
)


def line_of(flavor: str, major: int, minor: int) -> str | None:
    """The line a release belongs to (`mysql-8.0` for 8.0.36, `mysql-9.x` for 9.1), or None."""
    for name in TARGETS:
        line_flavor, _, version = name.partition("-")
        line_major, _, line_minor = version.partition(".")
        if line_flavor == flavor and int(line_major) == major and (line_minor == "x" or int(line_minor) == minor):
            return name
    return None


#: the server variable lower_case_table_names: how database and table names are stored and compared.
#: 0: as written, case-sensitive (the default on Linux, where names are file names on a
#: case-sensitive file system); 1: stored and compared in lower case (Windows' default);
#: 2: stored as written, compared in lower case (macOS' default). Column, key and constraint
#: names are case-insensitive whatever it is.
LOWER_CASE_TABLE_NAMES = (0, 1, 2)
DEFAULT_LOWER_CASE_TABLE_NAMES = 0


class Target(FrozenRecord):
    """A server: its flavour, the version it is judged as (`version`: major and minor; a `.x` line
    counts as its first release, 11.0), the line it belongs to (`name`, one of `TARGETS`) and, when
    a full version was named, the release (`release`: major, minor, patch), which decides what
    came within a line (MySQL 8.0.23's invisible columns, 8.0.30's generated invisible primary
    keys, which executable comments run). A line stands for its newest release."""

    __match_args__ = ("flavor", "version", "name", "lower_case_table_names", "release")
    #: the hash, computed once: every cached InnoDB size and character set is keyed by the target
    __slots__ = (*__match_args__, "_hash")
    flavor: Flavor
    version: tuple[int, int]
    name: str
    #: the server's lower_case_table_names (`table_name_key`)
    lower_case_table_names: int
    #: the full version, when one was named (None: the newest release of the line)
    release: tuple[int, int, int] | None

    def __init__(
        self, flavor: Flavor, version: tuple[int, int], name: str,
        lower_case_table_names: int = DEFAULT_LOWER_CASE_TABLE_NAMES, release: tuple[int, int, int] | None = None,
    ) -> None:
        _set(self, "flavor", flavor)
        _set(self, "version", version)
        _set(self, "name", name)
        _set(self, "lower_case_table_names", lower_case_table_names)
        _set(self, "release", release)
        _set(self, "_hash", hash((flavor, version, name, lower_case_table_names, release)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        # the same target is mostly the same object; a different hash settles most of the rest
        if other is self:
            return True
        if other.__class__ is not Target:
            return NotImplemented
        return self._hash == other._hash and self._values() == other._values()  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, name: str, lower_case_table_names: int = DEFAULT_LOWER_CASE_TABLE_NAMES) -> Target:
        """'mysql-8.0' -> Target('mysql', (8, 0)); 'mariadb-11.x' counts as 11.0 and later; a full
        version ('mysql-8.0.36', 'mariadb-10.6.12', 'mysql-9.1.0', 'mariadb-11.4.2') names its line
        and its release. ValueError for a name no line stands for, saying why and what to name.
        One name gives one object: the caches keyed by target (character sets, sizes) then match
        on identity, not by comparing fields (a run's context and its replay parse the default
        apart; 21,000 comparisons on 2,000 tables)."""
        return _parsed(cls, name, lower_case_table_names)

    @classmethod
    def _parse(cls, name: str, lower_case_table_names: int) -> Target:
        import re

        if lower_case_table_names not in LOWER_CASE_TABLE_NAMES:
            raise ValueError(f"lower_case_table_names must be 0, 1 or 2, not {lower_case_table_names!r}")
        written = name.strip().lower()
        match = re.match(TARGET_PATTERN, written) if len(written) <= 40 else None
        if match is None:
            raise ValueError(f"unknown target {name!r}; expected one of: {', '.join(TARGETS)}, or a full version such "
                             "as mysql-8.0.36 or mariadb-10.6.12")
        flavor, major_text, minor_text, patch_text = match.groups()
        major = int(major_text)
        if minor_text == "x":
            line = written if written in TARGETS and patch_text is None else None
            if line is None:
                raise ValueError(f"unknown target {name!r}; expected one of: {', '.join(TARGETS)}")
            return cls(flavor, (major, 0), line, lower_case_table_names)  # type: ignore[arg-type]
        minor = int(minor_text)
        line = line_of(flavor, major, minor)
        if line is None:
            why = next((text for f, low, high, text in _NOT_A_LINE if f == flavor and low <= (major, minor) <= high),
                       f"no line of {flavor} {major}.{minor} is modelled")
            raise ValueError(f"unknown target {name!r}: {why}; innolint knows {', '.join(TARGETS)} "
                             "(docs/targets.md says why)")
        if patch_text is None:
            if written == line:
                return cls(flavor, (major, minor), line, lower_case_table_names)  # type: ignore[arg-type]
            if not line.endswith(".x"):
                raise ValueError(f"unknown target {name!r}; expected one of: {', '.join(TARGETS)}")
            # `mariadb-11.4`: the newest release of 11.4 in the 11.x line
            return cls(flavor, (major, minor), line, lower_case_table_names, (major, minor, NEWEST))  # type: ignore[arg-type]
        return cls(flavor, (major, minor), line, lower_case_table_names, (major, minor, int(patch_text)))  # type: ignore[arg-type]

    @property
    def newest(self) -> tuple[int, int, int]:
        """The release judged: the one named, else the newest of the line (mysql-8.0: 8.0.99,
        mariadb-11.x: 11.99.99)."""
        if self.release is not None:
            return self.release
        return (self.version[0], NEWEST if self.name.endswith(".x") else self.version[1], NEWEST)

    def at_least(self, major: int, minor: int, patch: int) -> bool:
        """Whether the release judged (`newest`) is at least major.minor.patch."""
        return self.newest >= (major, minor, patch)

    @property
    def has_atomic_drop_table(self) -> bool:
        """MySQL 8 (atomic DDL): a DROP TABLE naming a missing table (without IF EXISTS) drops
        none of them. MySQL 5.7 and MariaDB drop the others and report the missing ones."""
        return self.is_mysql8

    @property
    def explicit_defaults_for_timestamp(self) -> bool:
        """The variable's default: ON in MySQL 8 and MariaDB 10.10 and later. OFF (MySQL 5.7,
        MariaDB 10.6), a TIMESTAMP NOT NULL without DEFAULT gets one: the table's first
        CURRENT_TIMESTAMP, the others the zero date."""
        return self.is_mysql8 or (self.is_mariadb and self.version >= (10, 10))

    @property
    def is_mariadb(self) -> bool:
        return self.flavor == "mariadb"

    @property
    def is_mysql8(self) -> bool:
        """MySQL or Percona 8.x: UUID_TO_BIN, INVISIBLE columns, functional defaults."""
        return self.flavor != "mariadb" and self.version >= (8, 0)

    @property
    def has_gipk(self) -> bool:
        """sql_generate_invisible_primary_key exists from MySQL 8.0.30 (8.4 has it from the start)."""
        return self.is_mysql8 and self.at_least(8, 0, 30)

    @property
    def has_invisible_columns(self) -> bool:
        """INVISIBLE columns: MySQL 8.0.23 and later, MariaDB 10.3 and later."""
        return (self.is_mysql8 and self.at_least(8, 0, 23)) or self.is_mariadb

    @property
    def has_column_compression(self) -> bool:
        """Percona's COLUMN_FORMAT COMPRESSED and MariaDB's COMPRESSED column attribute."""
        return self.flavor in ("percona", "mariadb")

    @property
    def has_general_tablespaces(self) -> bool:
        """MariaDB accepts TABLESPACE and silently ignores it; MySQL and Percona have them."""
        return self.flavor != "mariadb"

    @property
    def label(self) -> str:
        names = {"mysql": "MySQL", "percona": "Percona Server", "mariadb": "MariaDB"}
        return f"{names[self.flavor]} {self.spelled.partition('-')[2]}"

    @property
    def spelled(self) -> str:
        """The target as it was named: the line, `mariadb-11.4`, or the full version."""
        if self.release is None:
            return self.name
        major, minor, patch = self.release
        return f"{self.flavor}-{major}.{minor}" + ("" if patch == NEWEST else f".{patch}")


@lru_cache(maxsize=256)
def _parsed(cls: type[Target], name: str, lower_case_table_names: int) -> Target:
    """`Target.parse`, one object per name (bounded: a configuration names a handful)."""
    return cls._parse(name, lower_case_table_names)
