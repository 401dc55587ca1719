"""The schema model: plain typed objects that checks read.

Checks never see SQL text or sqlglot trees, only these objects. Every object remembers where it
was defined and where it was last changed, so a finding can point at the statement that caused it
(the CREATE TABLE, or the ALTER that dropped a key). InnoDB facts that several checks need live
here as properties, so that each check asks the same question the same way.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Literal

from linter.record import FrozenRecord, Record

IndexKind = Literal["primary", "unique", "index", "fulltext", "spatial"]

#: Types whose values InnoDB may store off-page: the columns compression can pay off on.
LARGE_TYPES = frozenset(
    {"TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT", "TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB", "JSON"}
)
#: Engines for which InnoDB's clustered-index rules apply. None means the server default (InnoDB).
INNODB_ENGINES = frozenset({"innodb", "xtradb"})

# Records (linter.record): the ==, repr and immutability of the dataclasses they were, without
# compiling generated methods at import. The classes that `dataclasses.replace`, `fields` or
# `astuple` are used on (Column, IndexColumn, Index, ForeignKey, TableOptions) stay dataclasses
# for that, with `init=False, repr=False, eq=False`: their methods are the record's and written
# here, so the decorator generates none.
_set = object.__setattr__


class Location(FrozenRecord):
    """Where something is in the input: 1-based line and column."""

    __slots__ = __match_args__ = ("path", "line", "column", "end_line")
    path: str
    line: int
    column: int
    end_line: int

    def __init__(self, path: str, line: int, column: int = 1, end_line: int = 0) -> None:
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "end_line", line if end_line < line else end_line)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Column(Record):
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
    #: CHECK constraints written on the column, as SQL: "CHECK (`a` > 0)", "CONSTRAINT `c` CHECK (...)".
    #: MariaDB keeps them on the column, so a MODIFY COLUMN that leaves them out drops them;
    #: MySQL makes them table constraints, which a MODIFY COLUMN keeps
    checks: tuple[str, ...] = ()
    #: ON UPDATE CURRENT_TIMESTAMP[(n)] as SQL ("CURRENT_TIMESTAMP()"), kept so that a MODIFY COLUMN
    #: written from the model does not drop it
    on_update: str | None = None
    #: the statement that last added or changed the column (ALTER TABLE ... ADD/MODIFY/CHANGE);
    #: None: the table's CREATE TABLE (`Table.place` answers either way)
    where: Location | None = None
    #: what == and repr compare: the definition, not where it was written
    __match_args__ = (
        "name", "type", "params", "unsigned", "nullable", "default", "auto_increment", "generated", "invisible",
        "compressed", "compression_dictionary", "comment", "charset", "collation", "binary", "srid", "checks",
        "on_update",
    )

    def __init__(
        self, name: str, type: str, params: tuple[str, ...] = (), unsigned: bool = False, nullable: bool = True,
        default: str | None = None, auto_increment: bool = False, generated: Literal["stored", "virtual"] | None = None,
        invisible: bool = False, compressed: str | None = None, compression_dictionary: str | None = None,
        comment: str | None = None, charset: str | None = None, collation: str | None = None, binary: bool = False,
        srid: int | None = None, checks: tuple[str, ...] = (), on_update: str | None = None,
        where: Location | None = None,
    ) -> None:
        self.name = name
        self.type = type
        self.params = params
        self.unsigned = unsigned
        self.nullable = nullable
        self.default = default
        self.auto_increment = auto_increment
        self.generated = generated
        self.invisible = invisible
        self.compressed = compressed
        self.compression_dictionary = compression_dictionary
        self.comment = comment
        self.charset = charset
        self.collation = collation
        self.binary = binary
        self.srid = srid
        self.checks = checks
        self.on_update = on_update
        self.where = where

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


@dataclass(init=False, repr=False, eq=False, slots=True)
class IndexColumn(FrozenRecord):  # frozen: FrozenRecord refuses assignment
    name: str
    prefix: int | None = None  # KEY (col(10)): a prefix index
    descending: bool = False
    expression: bool = False  # a functional key part: KEY ((lower(x)))

    def __init__(
        self, name: str, prefix: int | None = None, descending: bool = False, expression: bool = False,
    ) -> None:
        _set(self, "name", name)
        _set(self, "prefix", prefix)
        _set(self, "descending", descending)
        _set(self, "expression", expression)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Index(Record):
    #: the key's name; None only in an operation, for a key the DDL does not name: the model
    #: names it as the server does (`name_unnamed_keys`) when it is created or added
    name: str | None
    kind: IndexKind
    columns: tuple[IndexColumn, ...]
    #: INVISIBLE (MySQL 8) or IGNORED (MariaDB 10.6+): kept up to date, never used by the optimizer
    invisible: bool = False
    #: the statement that added the key (ALTER TABLE ... ADD, CREATE INDEX) or last changed its
    #: columns (a DROP COLUMN); None: the table's CREATE TABLE
    where: Location | None = None
    __match_args__ = ("name", "kind", "columns", "invisible")  # == and repr: the definition, not where

    def __init__(
        self, name: str | None, kind: IndexKind, columns: tuple[IndexColumn, ...], invisible: bool = False,
        where: Location | None = None,
    ) -> None:
        self.name = name
        self.kind = kind
        self.columns = columns
        self.invisible = invisible
        self.where = where

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


@dataclass(init=False, repr=False, eq=False, slots=True)
class ForeignKey(Record):
    #: None only in an operation, for a constraint the DDL does not name: replay names it as the
    #: server does (`generated_foreign_key_name`)
    name: str | None
    columns: tuple[str, ...]
    ref_schema: str | None
    ref_table: str
    ref_columns: tuple[str, ...]
    #: the referential actions as written, upper-case ("CASCADE", "SET NULL"); None: not given
    #: (RESTRICT). Kept so that a fix that drops and re-adds the constraint keeps them
    on_delete: str | None = None
    on_update: str | None = None
    #: the statement that added it (ALTER TABLE ... ADD); None: the table's CREATE TABLE
    where: Location | None = None
    #: == and repr: the definition, not where it was written
    __match_args__ = ("name", "columns", "ref_schema", "ref_table", "ref_columns", "on_delete", "on_update")

    def __init__(
        self, name: str | None, columns: tuple[str, ...], ref_schema: str | None, ref_table: str,
        ref_columns: tuple[str, ...], on_delete: str | None = None, on_update: str | None = None,
        where: Location | None = None,
    ) -> None:
        self.name = name
        self.columns = columns
        self.ref_schema = ref_schema
        self.ref_table = ref_table
        self.ref_columns = ref_columns
        self.on_delete = on_delete
        self.on_update = on_update
        self.where = where


@dataclass(init=False, repr=False, eq=False, slots=True)
class TableOptions(Record):
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

    def __init__(
        self, engine: str | None = None, row_format: str | None = None, key_block_size: int | None = None,
        compression: str | None = None, page_compressed: bool = False, tablespace: str | None = None,
        charset: str | None = None, collation: str | None = None, comment: str | None = None,
        partitioning: str | None = None, partition_names: tuple[str, ...] = (), auto_increment: int | None = None,
        other: dict[str, str] | None = None,
    ) -> None:
        self.engine = engine
        self.row_format = row_format
        self.key_block_size = key_block_size
        self.compression = compression
        self.page_compressed = page_compressed
        self.tablespace = tablespace
        self.charset = charset
        self.collation = collation
        self.comment = comment
        self.partitioning = partitioning
        self.partition_names = partition_names
        self.auto_increment = auto_increment
        self.other = {} if other is None else other


#: MySQL 8 names an unnamed key whose first part is an expression (a functional key part) this
_FUNCTIONAL_KEY_NAME = "functional_index"


def generated_key_name(first: IndexColumn, taken: Collection[str]) -> str:
    """The name the server gives a key the DDL does not name: its first column's name, or with
    `_2`, `_3` ... appended (the name cut to 61 characters first) while that is the name of a key
    defined before it, or PRIMARY (sql_table.cc, make_unique_key_name; case-insensitive).
    `taken`: the names of the keys defined before it (earlier in the CREATE TABLE, or the table's
    keys for an ALTER TABLE ... ADD). Checked against MariaDB 10.11 in tests/test_model_names.py."""
    return _generated_key_name(first, {name.lower() for name in taken})


def _generated_key_name(first: IndexColumn, used: set[str]) -> str:
    """`generated_key_name` with `used` already lower-case (a set kept across a statement's keys)."""
    base = _FUNCTIONAL_KEY_NAME if first.expression else first.name
    if base.lower() not in used and base.lower() != "primary":
        return base
    stem = base[:61]
    for n in range(2, 100):
        candidate = f"{stem}_{n}"
        if candidate.lower() not in used:
            return candidate
    return "not_specified"  # the server's own answer after 99 tries


def name_unnamed_keys(indexes: list[Index], taken: Collection[str] = ()) -> None:
    """Give every key of `indexes` that has no name (None) the name the server would, in order:
    the list is a CREATE TABLE's keys in declaration order, or the keys one ALTER adds, with
    `taken` the names the table already has."""
    used = {name.lower() for name in taken}
    for index in indexes:
        if index.name is None and index.columns:
            index.name = _generated_key_name(index.columns[0], used)
        if index.name is not None:
            used.add(index.name.lower())


def generated_foreign_key_name(table: str, taken: Collection[str]) -> str:
    """The name the server gives a foreign key the DDL does not name: `<table>_ibfk_<n>`, n one
    more than the highest n of the names in `taken` of that form. `taken`: for an ALTER TABLE
    ... ADD FOREIGN KEY, the table's constraints; for a CREATE TABLE, only the unnamed ones
    before it in the statement (MariaDB 10.11 numbers those 1, 2, ... even past a written
    `<table>_ibfk_5`: tests/test_model_names.py; MySQL's manual describes the same scheme)."""
    prefix = f"{table}_ibfk_".lower()
    highest = 0
    for name in taken:
        lowered = name.lower()
        if lowered.startswith(prefix) and lowered[len(prefix):].isdigit():
            highest = max(highest, int(lowered[len(prefix):]))
    return f"{table}_ibfk_{highest + 1}"


class TableBody(Record):
    """What a CREATE TABLE defines, apart from where. Shared between identical tables (tenant
    dumps repeat the same definition thousands of times), so it is copied before any change."""

    __slots__ = __match_args__ = ("columns", "indexes", "foreign_keys", "options", "checks")
    columns: dict[str, Column]  # keyed by lower-case name, in order
    indexes: list[Index]
    foreign_keys: list[ForeignKey]
    options: TableOptions
    checks: int  # number of CHECK constraints

    def __init__(
        self, columns: dict[str, Column] | None = None, indexes: list[Index] | None = None,
        foreign_keys: list[ForeignKey] | None = None, options: TableOptions | None = None, checks: int = 0,
    ) -> None:
        self.columns = {} if columns is None else columns
        self.indexes = [] if indexes is None else indexes
        self.foreign_keys = [] if foreign_keys is None else foreign_keys
        self.options = TableOptions() if options is None else options
        self.checks = checks

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


class Table(Record):
    __slots__ = __match_args__ = (
        "schema", "name", "body", "defined", "changed", "temporary", "origin", "key_dropped", "annotations",
        "view_standin", "_own_body",
    )
    schema: str | None
    name: str
    body: TableBody
    defined: Location
    changed: Location
    temporary: bool
    #: how the table came to be: a CREATE TABLE with columns, CREATE ... LIKE, or CREATE ... SELECT
    origin: Literal["create", "like", "select"]
    #: the statement that removed the primary key (ALTER TABLE ... DROP PRIMARY KEY), if it is gone
    key_dropped: Location | None
    #: directives from `-- innolint: ...` comments on the CREATE TABLE (e.g. "insert-heavy")
    annotations: frozenset[str]
    #: a mysqldump view stand-in (`/*!50001 CREATE TABLE`), replaced by a view later in the dump
    view_standin: bool
    _own_body: bool

    def __init__(
        self, schema: str | None, name: str, body: TableBody, defined: Location, changed: Location,
        temporary: bool = False, origin: Literal["create", "like", "select"] = "create",
        key_dropped: Location | None = None, annotations: frozenset[str] = frozenset(), view_standin: bool = False,
        _own_body: bool = False,
    ) -> None:
        self.schema = schema
        self.name = name
        self.body = body
        self.defined = defined
        self.changed = changed
        self.temporary = temporary
        self.origin = origin
        self.key_dropped = key_dropped
        self.annotations = annotations
        self.view_standin = view_standin
        self._own_body = _own_body

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

    def place(self, item: Column | Index | ForeignKey) -> Location:
        """Where a column, key or foreign key got its present form: the ALTER TABLE (or CREATE
        INDEX) that added or changed it, else the table's CREATE TABLE. A finding caused by the
        item belongs there (so `--changed-only` reports it with the migration that did it)."""
        return item.where or self.defined


class Tablespace(Record):
    __slots__ = __match_args__ = ("name", "datafile", "engine", "defined")
    name: str
    datafile: str | None
    engine: str | None
    defined: Location

    def __init__(self, name: str, datafile: str | None, engine: str | None, defined: Location) -> None:
        self.name = name
        self.datafile = datafile
        self.engine = engine
        self.defined = defined


class CompressionDictionary(Record):
    __slots__ = __match_args__ = ("name", "defined")
    name: str
    defined: Location

    def __init__(self, name: str, defined: Location) -> None:
        self.name = name
        self.defined = defined


class Schema(Record):
    __slots__ = __match_args__ = ("name", "tables", "defined", "charset", "collation")
    name: str | None  # None: tables whose database the input never names
    tables: dict[str, Table]  # keyed by lower-case table name
    defined: Location | None
    #: CREATE DATABASE ... DEFAULT CHARACTER SET / COLLATE as written (None: not given): the
    #: default of the tables that give none, before the server's own (linter.innodb_sizes)
    charset: str | None
    collation: str | None

    def __init__(
        self, name: str | None, tables: dict[str, Table] | None = None, defined: Location | None = None,
        charset: str | None = None, collation: str | None = None,
    ) -> None:
        self.name = name
        self.tables = {} if tables is None else tables
        self.defined = defined
        self.charset = charset
        self.collation = collation


class SchemaModel(Record):
    """Every schema, table, tablespace and compression dictionary after the whole input."""

    __slots__ = __match_args__ = ("schemas", "tablespaces", "dictionaries", "is_migration_history")
    schemas: dict[str | None, Schema]
    tablespaces: dict[str, Tablespace]  # lower-case name
    dictionaries: dict[str, CompressionDictionary]
    #: True when the input is a migration history (CREATE TABLESPACE is expected before use)
    is_migration_history: bool

    def __init__(
        self, schemas: dict[str | None, Schema] | None = None, tablespaces: dict[str, Tablespace] | None = None,
        dictionaries: dict[str, CompressionDictionary] | None = None, is_migration_history: bool = False,
    ) -> None:
        self.schemas = {} if schemas is None else schemas
        self.tablespaces = {} if tablespaces is None else tablespaces
        self.dictionaries = {} if dictionaries is None else dictionaries
        self.is_migration_history = is_migration_history

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
