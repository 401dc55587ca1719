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


class Target(FrozenRecord):
    __slots__ = __match_args__ = ("flavor", "version", "name")
    flavor: Flavor
    version: tuple[int, int]
    name: str

    def __init__(self, flavor: Flavor, version: tuple[int, int], name: str) -> None:
        _set(self, "flavor", flavor)
        _set(self, "version", version)
        _set(self, "name", name)

    @classmethod
    def parse(cls, name: str) -> Target:
        """'mysql-8.0' -> Target('mysql', (8, 0)); 'mariadb-11.x' counts as 11.0 and later."""
        if name not in TARGETS:
            raise ValueError(f"unknown target {name!r}; expected one of: {', '.join(TARGETS)}")
        flavor, _, version = name.partition("-")
        major, _, minor = version.partition(".")
        return cls(flavor, (int(major), 0 if minor == "x" else int(minor)), name)  # type: ignore[arg-type]

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
