"""Target servers and what each one can do: advice depends on the server the schema runs on."""

from __future__ import annotations

from typing import Literal

from linter.record import FrozenRecord

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

Flavor = Literal["mysql", "percona", "mariadb"]

#: The targets a user can name, in config (`target = "mysql-8.0"`) or with `--target`.
TARGETS: tuple[str, ...] = (
    "mysql-5.7", "mysql-8.0", "mysql-8.4", "percona-8.0", "mariadb-10.6", "mariadb-10.11", "mariadb-11.x",
)
DEFAULT_TARGET = "mysql-8.0"

#: the server variable lower_case_table_names: how database and table names are stored and compared.
#: 0: as written, case-sensitive (the default on Linux, where names are file names on a
#: case-sensitive file system); 1: stored and compared in lower case (Windows' default);
#: 2: stored as written, compared in lower case (macOS' default). Column, key and constraint
#: names are case-insensitive whatever it is.
LOWER_CASE_TABLE_NAMES = (0, 1, 2)
DEFAULT_LOWER_CASE_TABLE_NAMES = 0


def table_name_key(name: str, lower_case_table_names: int) -> str:
    """What the server compares a database or table name by: the one place that folds them."""
    return name if lower_case_table_names == 0 else name.lower()


def stored_table_name(name: str, lower_case_table_names: int) -> str:
    """The name the server keeps for a database or table created as `name`."""
    return name.lower() if lower_case_table_names == 1 else name


class Target(FrozenRecord):
    __slots__ = __match_args__ = ("flavor", "version", "name", "lower_case_table_names")
    flavor: Flavor
    version: tuple[int, int]
    name: str
    #: the server's lower_case_table_names (`table_name_key`)
    lower_case_table_names: int

    def __init__(
        self, flavor: Flavor, version: tuple[int, int], name: str,
        lower_case_table_names: int = DEFAULT_LOWER_CASE_TABLE_NAMES,
    ) -> None:
        _set(self, "flavor", flavor)
        _set(self, "version", version)
        _set(self, "name", name)
        _set(self, "lower_case_table_names", lower_case_table_names)

    @classmethod
    def parse(cls, name: str, lower_case_table_names: int = DEFAULT_LOWER_CASE_TABLE_NAMES) -> Target:
        """'mysql-8.0' -> Target('mysql', (8, 0)); 'mariadb-11.x' counts as 11.0 and later."""
        if name not in TARGETS:
            raise ValueError(f"unknown target {name!r}; expected one of: {', '.join(TARGETS)}")
        if lower_case_table_names not in LOWER_CASE_TABLE_NAMES:
            raise ValueError(f"lower_case_table_names must be 0, 1 or 2, not {lower_case_table_names!r}")
        flavor, _, version = name.partition("-")
        major, _, minor = version.partition(".")
        return cls(flavor, (int(major), 0 if minor == "x" else int(minor)), name, lower_case_table_names)  # type: ignore[arg-type]

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
        return self.is_mysql8

    @property
    def has_invisible_columns(self) -> bool:
        """INVISIBLE columns: MySQL 8.0.23 and later, MariaDB 10.3 and later."""
        return self.is_mysql8 or self.is_mariadb

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
        minor = "x" if self.name.endswith(".x") else str(self.version[1])
        return f"{names[self.flavor]} {self.version[0]}.{minor}"
