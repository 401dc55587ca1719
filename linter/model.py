"""The schema model: plain typed objects that checks read.

Checks never see SQL text or sqlglot trees, only these objects. Every object remembers where it
was defined and where it was last changed, so a finding can point at the statement that caused it
(the CREATE TABLE, or the ALTER that dropped a key). InnoDB facts that several checks need live
here as properties, so that each check asks the same question the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

IndexKind = Literal["primary", "unique", "index", "fulltext", "spatial"]

#: Types whose values InnoDB may store off-page: the columns compression can pay off on.
LARGE_TYPES = frozenset(
    {"TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT", "TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB", "JSON"}
)
#: Engines for which InnoDB's clustered-index rules apply. None means the server default (InnoDB).
INNODB_ENGINES = frozenset({"innodb", "xtradb"})


@dataclass(frozen=True, slots=True)
class Location:
    """Where something is in the input: 1-based line and column."""

    path: str
    line: int
    column: int = 1
    end_line: int = 0

    def __post_init__(self) -> None:
        if self.end_line < self.line:
            object.__setattr__(self, "end_line", self.line)


@dataclass(slots=True)
class Column:
    name: str
    type: str  # upper-case base type as written: CHAR, VARCHAR, BIGINT, JSON, UUID, POINT ...
    params: tuple[str, ...] = ()  # type parameters: ("36",), ("10", "2"), enum values
    unsigned: bool = False
    nullable: bool = True
    default: str | None = None  # the default expression as SQL text, e.g. "(UUID())" or "'0'"
    auto_increment: bool = False
    generated: Literal["stored", "virtual"] | None = None
    invisible: bool = False
    #: column-level compression: "zlib" for MariaDB COMPRESSED / Percona COLUMN_FORMAT COMPRESSED
    compressed: str | None = None
    compression_dictionary: str | None = None
    comment: str | None = None
    charset: str | None = None
    collation: str | None = None
    binary: bool = False  # the BINARY attribute: the binary (_bin) collation of its charset
    srid: int | None = None

    @property
    def length(self) -> int | None:
        """The first numeric type parameter: CHAR(36) -> 36."""
        if self.params and self.params[0].isdigit():
            return int(self.params[0])
        return None

    @property
    def is_large(self) -> bool:
        """TEXT/BLOB/JSON family: stored off-page when long."""
        return self.type in LARGE_TYPES


@dataclass(frozen=True, slots=True)
class IndexColumn:
    name: str
    prefix: int | None = None  # KEY (col(10)): a prefix index
    descending: bool = False
    expression: bool = False  # a functional key part: KEY ((lower(x)))


@dataclass(slots=True)
class Index:
    name: str | None
    kind: IndexKind
    columns: tuple[IndexColumn, ...]
    invisible: bool = False

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


@dataclass(slots=True)
class ForeignKey:
    name: str | None
    columns: tuple[str, ...]
    ref_schema: str | None
    ref_table: str
    ref_columns: tuple[str, ...]


@dataclass(slots=True)
class TableOptions:
    """Table options as written (values keep their case, without quotes)."""

    engine: str | None = None
    row_format: str | None = None
    key_block_size: int | None = None
    compression: str | None = None  # MySQL page compression: COMPRESSION='zlib'|'lz4'|'none'
    page_compressed: bool = False  # MariaDB PAGE_COMPRESSED=1
    tablespace: str | None = None
    charset: str | None = None
    collation: str | None = None
    comment: str | None = None
    partitioning: str | None = None  # the PARTITION BY clause as written
    #: the names the PARTITION BY / SUBPARTITION BY expressions use (function names left out)
    partition_names: tuple[str, ...] = ()
    auto_increment: int | None = None
    other: dict[str, str] = field(default_factory=dict)  # every other option, upper-case key


@dataclass(slots=True)
class TableBody:
    """What a CREATE TABLE defines, apart from where. Shared between identical tables (tenant
    dumps repeat the same definition thousands of times), so it is copied before any change."""

    columns: dict[str, Column] = field(default_factory=dict)  # keyed by lower-case name, in order
    indexes: list[Index] = field(default_factory=list)
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    options: TableOptions = field(default_factory=TableOptions)
    checks: int = 0  # number of CHECK constraints

    @property
    def definition_id(self) -> int:
        """The same number for bodies made from one parsed definition: the copies of a CREATE TABLE
        repeated across tenant schemas share its columns, keys and foreign keys, each with options
        of its own when its AUTO_INCREMENT or TABLESPACE differs (linter.parse_cache), and a table
        that an ALTER changes gets copies of its own first (`Table.writable`). Equal ids mean equal
        columns, keys, foreign keys and checks, and options equal but for auto_increment and
        tablespace: a key for doing per-definition work once over a finished model."""
        return id(self.columns)

    def copy(self) -> TableBody:
        return TableBody(
            columns={k: replace(c) for k, c in self.columns.items()},
            indexes=[replace(i) for i in self.indexes],
            foreign_keys=[replace(f) for f in self.foreign_keys],
            options=replace(self.options, other=dict(self.options.other)),
            checks=self.checks,
        )


@dataclass(slots=True)
class Table:
    schema: str | None
    name: str
    body: TableBody
    defined: Location
    changed: Location
    temporary: bool = False
    #: how the table came to be: a CREATE TABLE with columns, CREATE ... LIKE, or CREATE ... SELECT
    origin: Literal["create", "like", "select"] = "create"
    #: the statement that removed the primary key (ALTER TABLE ... DROP PRIMARY KEY), if it is gone
    key_dropped: Location | None = None
    #: directives from `-- innolint: ...` comments on the CREATE TABLE (e.g. "insert-heavy")
    annotations: frozenset[str] = frozenset()
    #: a mysqldump view stand-in (`/*!50001 CREATE TABLE`), replaced by a view later in the dump
    view_standin: bool = False
    _own_body: bool = False

    # -- mutation: copy-on-write of the shared body -------------------------------------------
    def writable(self) -> TableBody:
        """The body, copied first if it may be shared with other tables."""
        if not self._own_body:
            self.body = self.body.copy()
            self._own_body = True
        return self.body

    # -- read access --------------------------------------------------------------------------
    @property
    def qualified_name(self) -> str:
        return f"{self.schema}.{self.name}" if self.schema else self.name

    @property
    def columns(self) -> dict[str, Column]:
        return self.body.columns

    @property
    def indexes(self) -> list[Index]:
        return self.body.indexes

    @property
    def foreign_keys(self) -> list[ForeignKey]:
        return self.body.foreign_keys

    @property
    def options(self) -> TableOptions:
        return self.body.options

    def column(self, name: str) -> Column | None:
        return self.body.columns.get(name.lower())

    @property
    def engine(self) -> str | None:
        return self.body.options.engine

    @property
    def is_innodb(self) -> bool:
        """ENGINE=InnoDB, or no engine given (the server default since MySQL 5.5)."""
        engine = self.body.options.engine
        return engine is None or engine.lower() in INNODB_ENGINES

    @property
    def partition_columns(self) -> list[str]:
        """The columns the partitioning uses: MySQL and MariaDB require every unique key, the
        primary key included, to contain them all (error 1503)."""
        found: list[str] = []
        for name in self.body.options.partition_names:
            column = self.column(name)
            if column is not None and column.name not in found:
                found.append(column.name)
        return found

    @property
    def primary_key(self) -> Index | None:
        for index in self.body.indexes:
            if index.kind == "primary":
                return index
        return None

    def can_cluster(self, index: Index) -> bool:
        """Whether InnoDB could use this UNIQUE key as the clustered index: every key part a
        whole (not prefix), NOT NULL, stored (not virtual) column."""
        if index.kind not in ("unique", "primary") or not index.columns:
            return False
        for part in index.columns:
            if part.prefix is not None or part.expression:
                return False
            column = self.column(part.name)
            if column is None or column.nullable or column.generated == "virtual":
                return False
        return True

    @property
    def clustered_index(self) -> Index | None:
        """The index InnoDB clusters the rows on: the PRIMARY KEY, else the first UNIQUE key
        that can cluster, else None (the hidden 6-byte DB_ROW_ID)."""
        primary = self.primary_key
        if primary is not None:
            return primary
        for index in self.body.indexes:
            if index.kind == "unique" and self.can_cluster(index):
                return index
        return None

    @property
    def where(self) -> Location:
        """Where a finding about this table belongs: the statement that last shaped its key."""
        return self.key_dropped or self.defined


@dataclass(slots=True)
class Tablespace:
    name: str
    datafile: str | None
    engine: str | None
    defined: Location


@dataclass(slots=True)
class CompressionDictionary:
    name: str
    defined: Location


@dataclass(slots=True)
class Schema:
    name: str | None  # None: tables whose database the input never names
    tables: dict[str, Table] = field(default_factory=dict)  # keyed by lower-case table name
    defined: Location | None = None


@dataclass(slots=True)
class SchemaModel:
    """Every schema, table, tablespace and compression dictionary after the whole input."""

    schemas: dict[str | None, Schema] = field(default_factory=dict)
    tablespaces: dict[str, Tablespace] = field(default_factory=dict)  # lower-case name
    dictionaries: dict[str, CompressionDictionary] = field(default_factory=dict)
    #: True when the input is a migration history (CREATE TABLESPACE is expected before use)
    is_migration_history: bool = False

    def schema(self, name: str | None) -> Schema:
        key = name.lower() if name else None
        found = self.schemas.get(key)
        if found is None:
            found = self.schemas[key] = Schema(name)
        return found

    def tables(self) -> list[Table]:
        return [t for s in self.schemas.values() for t in s.tables.values()]

    def find_table(self, schema: str | None, name: str) -> Table | None:
        found = self.schemas.get(schema.lower() if schema else None)
        return found.tables.get(name.lower()) if found else None
