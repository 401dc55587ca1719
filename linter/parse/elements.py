"""The elements of a table in the model: `Column`, `Index` with its `IndexColumn`s,
`ForeignKey`, `TableOptions`, and the `Location` each was defined and last changed at. Plain
records (`linter.record`): built per statement, compared by value. The tables, schemas and the
model that hold them are `linter.schema.model`."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Literal

from linter.record import FrozenRecord, Record

# Records (linter.record): the ==, repr and immutability of the dataclasses they were, without
# compiling generated methods at import. The classes that `dataclasses.replace`, `fields` or
# `astuple` are used on (Column, IndexColumn, Index, ForeignKey, TableOptions) stay dataclasses
# for that, with `init=False, repr=False, eq=False`: their methods are the record's and written
# here, so the decorator generates none.
_set = object.__setattr__


IndexKind = Literal["primary", "unique", "index", "fulltext", "spatial"]

#: Types whose values InnoDB may store off-page: the columns compression can pay off on.
LARGE_TYPES = frozenset(
    {"TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT", "TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB", "JSON"}
)


class Location(FrozenRecord):
    """Where something is in the input: 1-based line and column, and the last line. (The last
    line is kept as the lines it spans: a small number, where a dump's line numbers are each an
    object of their own, and a tenant dump has a Location per table.)"""

    __slots__ = ("path", "line", "column", "_span")
    __match_args__ = ("path", "line", "column", "end_line")
    path: str
    line: int
    column: int

    def __init__(self, path: str, line: int, column: int = 1, end_line: int = 0) -> None:
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "_span", end_line - line if end_line > line else 0)

    @property
    def end_line(self) -> int:
        return self.line + self._span

    @property
    def at(self) -> str:
        """`path:line`, as messages name a statement."""
        return f"{self.path}:{self.line}"

    def moved(self, offset: int) -> Location:
        """The place `offset` (`element_offset`: lines and column within the statement that starts
        here) points at, one line long; this place itself for 0 (no offset known)."""
        if not offset:
            return self
        lines, column = offset >> _COLUMN_BITS, offset & _COLUMN_MASK
        line = self.line + lines
        return Location(self.path, line, self.column + column - 1 if not lines else column, line)


#: an element's place within its statement, packed into one int (`element_offset`): a CREATE TABLE's
#: columns and keys are shared by a tenant dump's copies of it, and each copy's place is its own
#: statement's: the offset is relative to the statement, so shared bodies still share
_COLUMN_BITS = 24
_COLUMN_MASK = (1 << _COLUMN_BITS) - 1


def element_offset(lines: int, column: int) -> int:
    """The offset of an element `lines` lines below its statement's first line, at 1-based
    `column` of that line (0: none known). Columns past 16M characters are clamped."""
    return (lines << _COLUMN_BITS) | min(max(column, 1), _COLUMN_MASK)


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
    #: MariaDB: a TEXT/BLOB/JSON column whose DEFAULT NULL an `ALTER TABLE ... ALTER COLUMN c SET
    #: DEFAULT NULL` gave. The server keeps that as a default value, which a PRIMARY KEY added
    #: later (it makes the column NOT NULL) is refused over (1067), through renames, copies (LIKE,
    #: CREATE ... SELECT) and rebuilds; a DEFAULT NULL written in a definition is none (MariaDB
    #: 10.11, tests/test_replay_refusals.py). Not compared: SHOW CREATE TABLE shows neither.
    altered_null_default: bool = False
    #: why MariaDB's grammar refuses the definition as written, which MySQL 8.0.16+ takes (the
    #: parse knows no target: the replay judges it, `linter.parse.columns._mariadb_column_grammar`)
    mariadb_refuses: str | None = None
    #: the statement that last added or changed the column (ALTER TABLE ... ADD/MODIFY/CHANGE);
    #: None: the table's CREATE TABLE (`Table.place` answers either way)
    where: Location | None = None
    #: where in that statement its definition starts (`element_offset`; 0: the statement's start)
    offset: int = 0
    #: its name was written unquoted (a reserved word so written is refused: reserved-word)
    bare: bool = False
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
        altered_null_default: bool = False, mariadb_refuses: str | None = None, where: Location | None = None,
        offset: int = 0, bare: bool = False,
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
        self.altered_null_default = altered_null_default
        self.mariadb_refuses = mariadb_refuses
        self.where = where
        self.offset = offset
        self.bare = bare

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
    #: the server chose `prefix`, not the DDL: MariaDB cut a non-unique key part longer than the
    #: engine takes (`linter.server.key_parts.server_keys`); the DDL wrote `written_prefix`
    #: (None: the whole column). Not part of == (the key is the server's); the index-key-length
    #: check reads the key as written (`key_parts.as_written`)
    server_cut: bool = False
    written_prefix: int | None = None
    __match_args__ = ("name", "prefix", "descending", "expression")

    def __init__(
        self, name: str, prefix: int | None = None, descending: bool = False, expression: bool = False,
        server_cut: bool = False, written_prefix: int | None = None,
    ) -> None:
        _set(self, "name", name)
        _set(self, "prefix", prefix)
        _set(self, "descending", descending)
        _set(self, "expression", expression)
        _set(self, "server_cut", server_cut)
        _set(self, "written_prefix", written_prefix)


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
    #: the server made this key for a foreign key whose columns no key began with; it drops it
    #: again when a later key begins with its columns (`without_redundant_generated_keys`)
    generated: bool = False
    #: the index type written (`USING BTREE` / `USING HASH`, upper-case), None: none. MariaDB makes
    #: no hash of a UNIQUE key written USING BTREE that is too long for a B-tree (it refuses it:
    #: error 1071), and keeps a UNIQUE key written USING HASH as a hash; MySQL's InnoDB ignores it
    using: str | None = None
    #: the server keeps this UNIQUE key as a hash over a hidden column (MariaDB's "long unique":
    #: USING HASH written, a whole TEXT/BLOB, or wider than the engine's key), set by the replay
    #: (`linter.server.key_parts.server_keys`): such a key never clusters an InnoDB table and sorts
    #: after every other UNIQUE key (`linter.server.key_order`)
    long_hash: bool = False
    #: where in `where` (else the CREATE TABLE) the key's definition starts (`element_offset`)
    offset: int = 0
    __match_args__ = ("name", "kind", "columns", "invisible")  # == and repr: the definition, not where

    def __init__(
        self, name: str | None, kind: IndexKind, columns: tuple[IndexColumn, ...], invisible: bool = False,
        where: Location | None = None, generated: bool = False, using: str | None = None, long_hash: bool = False,
        offset: int = 0,
    ) -> None:
        self.name = name
        self.kind = kind
        self.columns = columns
        self.invisible = invisible
        self.where = where
        self.offset = offset
        self.generated = generated
        self.using = using
        self.long_hash = long_hash

    @property
    def btree(self) -> bool:
        """`USING BTREE` was written."""
        return self.using == "BTREE"

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
    #: where in that statement its definition starts (`element_offset`; 0: the statement's start)
    offset: int = 0
    #: == and repr: the definition, not where it was written
    __match_args__ = ("name", "columns", "ref_schema", "ref_table", "ref_columns", "on_delete", "on_update")

    def __init__(
        self, name: str | None, columns: tuple[str, ...], ref_schema: str | None, ref_table: str,
        ref_columns: tuple[str, ...], on_delete: str | None = None, on_update: str | None = None,
        where: Location | None = None, offset: int = 0,
    ) -> None:
        self.name = name
        self.columns = columns
        self.ref_schema = ref_schema
        self.ref_table = ref_table
        self.ref_columns = ref_columns
        self.on_delete = on_delete
        self.on_update = on_update
        self.where = where
        self.offset = offset


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


#: Spatial types: a UNIQUE key on one is stored as a prefix key (MariaDB 10.11: `a(8)` on GEOMETRY,
#: `a(25)` on POINT), so it never clusters the table (tests/test_model_oracle.py).
SPATIAL_TYPES = frozenset(
    {"GEOMETRY", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON",
     "GEOMETRYCOLLECTION"}
)
#: Types whose key prefix counts characters (or bytes) of the column's declared length: a prefix
#: as long as the column is the whole column, and the server drops it (`whole_column_prefixes`).
PREFIX_LENGTH_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})


def is_whole_column(prefix: int, column: Column) -> bool:
    """Whether a key prefix of `prefix` covers the whole of `column`: CHAR/VARCHAR/BINARY/VARBINARY
    of exactly that length. The server then drops the prefix (SHOW CREATE TABLE and
    information_schema.STATISTICS show none), and such a UNIQUE key can cluster the table."""
    return column.type in PREFIX_LENGTH_TYPES and column.length == prefix


def can_cluster(index: Index, column_of: Callable[[str], Column | None]) -> bool:
    """Whether InnoDB could use this UNIQUE key as the clustered index: every key part a whole
    (not prefix), NOT NULL, stored (not virtual) column, and the key no hash. A whole TEXT/BLOB/
    JSON column is no such part: MariaDB enforces that UNIQUE through a hidden hash column (a
    "long unique", USING HASH: `Index.long_hash`) and InnoDB keeps the row id (MySQL refuses the
    key: error 1170); nor is a spatial column, whose UNIQUE key the server stores as a prefix key.
    `column_of`: the table's column of a name."""
    if index.kind not in ("unique", "primary") or not index.columns or index.long_hash:
        return False
    for part in index.columns:
        if part.expression:
            return False
        column = column_of(part.name.lower())
        if column is None or column.nullable or column.generated == "virtual":
            return False
        if part.prefix is not None and not is_whole_column(part.prefix, column):
            return False
        if column.type in LARGE_TYPES or column.type in SPATIAL_TYPES:
            return False
    return True


def foreign_key_number(table: str, name: str) -> int | None:
    """n when `name` has the form `<table>_ibfk_<n>` (case-insensitive), else None. (Numbers of
    19 digits and more are left out: no server numbers that far, and reading a very long one
    costs more than linear time.)"""
    lowered = name.lower()
    prefix = table.lower() + "_ibfk_"
    number = lowered[len(prefix):]
    if lowered.startswith(prefix) and number.isascii() and number.isdigit() and len(number) < 19:
        return int(number)
    return None
