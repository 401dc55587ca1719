"""The schema model: plain typed objects that checks read.

Checks never see SQL text or sqlglot trees, only these objects. Every object remembers where it
was defined and where it was last changed, so a finding can point at the statement that caused it
(the CREATE TABLE, or the ALTER that dropped a key). InnoDB facts that several checks need live
here as properties, so that each check asks the same question the same way.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from linter.record import FrozenRecord, Record
from linter.parse.body import stored_table_name, table_name_key
from linter.parse.elements import (  # (the facts of keys and columns that the model and its draft share)
    Column, ForeignKey, Index, IndexColumn, Location, TableOptions,
    can_cluster, foreign_key_number,
)
from linter.parse.body import TableBody, generated_key_name_in

if TYPE_CHECKING:
    from linter.schema.refused import Alteration, Refusal


#: Engines for which InnoDB's clustered-index rules apply. None means the server default (InnoDB).
INNODB_ENGINES = frozenset({"innodb", "xtradb"})
#: an engine an install script leaves to its installer: `@ZM_MYSQL_ENGINE@` (ZoneMinder's CMake
#: fills in InnoDB), `%ENGINE%`, `{engine}`, `${ENGINE}`, `$engine`. The server refuses it as written
#: (unknown storage engine); what the installer fills in is InnoDB unless configured otherwise, and
#: innolint reads it so, in the replay and in every rule (`is_innodb_engine`), and says so once
_ENGINE_PLACEHOLDER = re.compile(r"@[A-Za-z0-9_]+@|%[A-Za-z0-9_]+%|\{\$?[A-Za-z0-9_]+\}|\$\{[A-Za-z0-9_]+\}|\$[A-Za-z_][A-Za-z0-9_]*")


def is_engine_placeholder(engine: str | None) -> bool:
    """Whether ENGINE= names a template placeholder rather than an engine (`_ENGINE_PLACEHOLDER`)."""
    return engine is not None and _ENGINE_PLACEHOLDER.fullmatch(engine) is not None


def is_innodb_engine(engine: str | None) -> bool:
    """Whether a table of this ENGINE= is InnoDB: InnoDB or XtraDB, none given (the server's
    default since MySQL 5.5), or a template placeholder (`is_engine_placeholder`)."""
    return engine is None or engine.lower() in INNODB_ENGINES or is_engine_placeholder(engine)

# Records (linter.record): the ==, repr and immutability of the dataclasses they were, without
# compiling generated methods at import. The classes that `dataclasses.replace`, `fields` or
# `astuple` are used on (Column, IndexColumn, Index, ForeignKey, TableOptions) stay dataclasses
# for that, with `init=False, repr=False, eq=False`: their methods are the record's and written
# here, so the decorator generates none.
_set = object.__setattr__


def generated_key_name(first: IndexColumn, taken: Collection[str]) -> str:
    """The name the server gives a key the DDL does not name: its first column's name, or with
    `_2`, `_3` ... appended (the name cut to 61 characters first) while that is the name of a key
    defined before it, or PRIMARY (sql_table.cc, make_unique_key_name; case-insensitive).
    `taken`: the names of the keys defined before it (earlier in the CREATE TABLE, or the table's
    keys for an ALTER TABLE ... ADD). Checked against MariaDB 10.11 in tests/test_model_names.py."""
    return generated_key_name_in(first, {name.lower() for name in taken})


def generated_foreign_key_name(table: str, taken: Collection[str]) -> str:
    """The name the server gives a foreign key the DDL does not name: `<table>_ibfk_<n>`, n one
    more than the highest n of the names in `taken` of that form. `taken`: for an ALTER TABLE
    ... ADD FOREIGN KEY, the table's constraints; for a CREATE TABLE, only the unnamed ones
    before it in the statement (MariaDB 10.11 numbers those 1, 2, ... even past a written
    `<table>_ibfk_5`: tests/test_model_names.py; MySQL's manual describes the same scheme)."""
    highest = 0
    for name in taken:
        number = foreign_key_number(table, name)
        if number is not None and number > highest:
            highest = number
    return foreign_key_name(table, highest + 1)


def foreign_key_name(table: str, number: int) -> str:
    """The name the server gives the foreign key of `table` it numbers `number`: `<table>_ibfk_<n>`."""
    return f"{table}_ibfk_{number}"


#: `Table`'s counter when it is the one its body's options hold
AS_BODY = -1
#: the options_where of a table no ALTER has set an option of (shared: a tenant dump has 100K tables)
_NO_PLACES: Mapping[str, Location] = MappingProxyType({})


class _Traits(FrozenRecord):
    """What a table was created as and keeps (`Table.temporary`, `origin`, `annotations`,
    `view_standin`, `bare_name`), one shared record for every table alike (`_traits`): a 1 GB
    tenant dump holds 830,000 tables, and each field a table holds itself costs 6.6 MB there."""

    __slots__ = __match_args__ = ("temporary", "origin", "annotations", "view_standin", "bare_name")
    temporary: bool
    origin: Literal["create", "like", "select"]
    annotations: frozenset[str]
    view_standin: bool
    bare_name: bool

    def __init__(self, temporary: bool, origin: Literal["create", "like", "select"], annotations: frozenset[str],
                 view_standin: bool, bare_name: bool) -> None:
        _set = object.__setattr__
        _set(self, "temporary", temporary)
        _set(self, "origin", origin)
        _set(self, "annotations", annotations)
        _set(self, "view_standin", view_standin)
        _set(self, "bare_name", bare_name)


#: the traits in use, each kept once (a few combinations: most tables are created plain), by their
#: values (a tuple hashes in C: the record's own hash is Python, once per table made)
_TRAITS: dict[tuple[bool, str, frozenset[str], bool, bool], _Traits] = {}


def _traits(temporary: bool, origin: Literal["create", "like", "select"], annotations: frozenset[str],
            view_standin: bool, bare_name: bool) -> _Traits:
    key = (temporary, origin, annotations, view_standin, bare_name)
    found = _TRAITS.get(key)
    if found is None:
        found = _Traits(temporary, origin, annotations, view_standin, bare_name)
        if len(_TRAITS) < 4096:
            _TRAITS[key] = found
    return found


class Table(Record):
    __match_args__ = (
        "schema", "name", "body", "defined", "changed", "temporary", "origin", "key_dropped", "annotations",
        "view_standin", "_own_body", "options_where", "_counter",
    )
    __slots__ = (
        "schema", "name", "body", "_defined", "_shift", "_changed", "_traits", "key_dropped", "_own_body",
        "options_where", "_counter",
    )
    schema: str | None
    name: str
    body: TableBody
    #: where it was defined: `_defined` moved down `_shift` lines (a tenant's copy of a table keeps
    #: its template's place and the lines its block is moved by, both shared with the other tables
    #: of its block: `linter.server.block_replay`), and where it last changed when not there
    _defined: Location
    _shift: int
    _changed: Location | None
    #: temporary, origin, annotations, view_standin, bare_name (shared: see `_Traits`)
    _traits: _Traits
    #: the statement that removed the primary key (ALTER TABLE ... DROP PRIMARY KEY), if it is gone
    key_dropped: Location | None
    _own_body: bool
    #: table option (a TableOptions field name: "engine", "tablespace", "auto_increment" ..., or
    #: the upper-case key of another option) -> the ALTER TABLE that last set it; an option not
    #: here is as the CREATE TABLE wrote it (`option_place` answers either way)
    options_where: Mapping[str, Location]
    #: the table's AUTO_INCREMENT counter where it is not its body's (`AS_BODY`): a tenant's copy of
    #: a table shares the body of every other copy but for this (`auto_increment` reads it)
    _counter: int | None

    def __init__(
        self, schema: str | None, name: str, body: TableBody, defined: Location, changed: Location,
        temporary: bool = False, origin: Literal["create", "like", "select"] = "create",
        key_dropped: Location | None = None, annotations: frozenset[str] = frozenset(), view_standin: bool = False,
        _own_body: bool = False, options_where: dict[str, Location] | None = None, counter: int | None = AS_BODY,
        shift: int = 0, bare_name: bool = False,
    ) -> None:
        self.schema = schema
        self.name = name
        self.body = body
        self._defined = defined
        self._shift = shift
        self._changed = None if changed is defined else changed
        self._traits = _traits(temporary, origin, annotations, view_standin, bare_name)
        self.key_dropped = key_dropped
        self._own_body = _own_body
        self.options_where = _NO_PLACES if options_where is None else options_where
        self._counter = counter

    def copy_in(self, schema: str | None, shift: int, counter: int | None) -> Table:
        """This table as a tenant's copy of it in `schema`, `shift` lines further down, with its
        own counter: everything else shared (`linter.server.block_replay`). The table was just
        created, unaltered, and its body is shared (`share_body`)."""
        copy = object.__new__(Table)
        copy.schema, copy.name, copy.body = schema, self.name, self.body
        copy._defined, copy._shift, copy._changed = self._defined, shift, None
        traits = self._traits
        if traits.temporary or traits.view_standin:
            traits = _traits(False, traits.origin, traits.annotations, False, traits.bare_name)
        copy._traits, copy.key_dropped = traits, None
        copy._own_body, copy.options_where, copy._counter = False, _NO_PLACES, counter
        return copy

    # -- what it was created as (`_Traits`) -----------------------------------------------------
    @property
    def temporary(self) -> bool:
        return self._traits.temporary

    @property
    def origin(self) -> Literal["create", "like", "select"]:
        """How the table came to be: a CREATE TABLE with columns, CREATE ... LIKE, or CREATE ... SELECT."""
        return self._traits.origin

    @property
    def annotations(self) -> frozenset[str]:
        """Directives from `-- innolint: ...` comments on the CREATE TABLE (e.g. "insert-heavy")."""
        return self._traits.annotations

    @property
    def view_standin(self) -> bool:
        """A mysqldump view stand-in (`/*!50001 CREATE TABLE`), replaced by a view later in the dump."""
        return self._traits.view_standin

    @property
    def bare_name(self) -> bool:
        """The statement that named it (CREATE TABLE, RENAME) wrote the name unquoted and unqualified
        (`ops.Name.bare`): a reserved word so written is refused (reserved-word)."""
        return self._traits.bare_name

    @bare_name.setter
    def bare_name(self, bare: bool) -> None:
        traits = self._traits
        self._traits = _traits(traits.temporary, traits.origin, traits.annotations, traits.view_standin, bare)

    @property
    def defined(self) -> Location:
        """Where the table was defined: its CREATE TABLE."""
        shift = self._shift
        if not shift:
            return self._defined
        place = self._defined
        return Location(place.path, place.line + shift, place.column, place.end_line + shift)

    @property
    def changed(self) -> Location:
        """Where it was last changed: the latest ALTER TABLE, CREATE INDEX or RENAME, else its CREATE TABLE."""
        return self._changed if self._changed is not None else self.defined

    @changed.setter
    def changed(self, where: Location) -> None:
        self._changed = where

    # -- mutation: copy-on-write of the shared body -------------------------------------------
    def share_keys(self, indexes: list[Index]) -> None:
        """The body with these keys instead, which other tables may share (copied before a change)."""
        self.body = self.body.with_indexes(indexes)
        self._own_body = False

    def share_body(self) -> None:
        """Let other tables share this one's body: it is copied before this table changes it."""
        self._own_body = False

    def writable(self) -> TableBody:
        """The body, copied first if it may be shared with other tables (with the table's own
        counter in its options)."""
        if not self._own_body:
            self.body = self.body.copy()
            self._own_body = True
            if self._counter != AS_BODY:
                self.body.options.auto_increment = self._counter
                self._counter = AS_BODY
        return self.body

    def body_copy(self) -> TableBody:
        """A copy of the body of its own (for another table), with this table's counter in its options."""
        body = self.body.copy()
        if self._counter != AS_BODY:
            body.options.auto_increment = self._counter
        return body

    @property
    def auto_increment(self) -> int | None:
        """The table's AUTO_INCREMENT counter as the input gives it (`AUTO_INCREMENT=N`), None when none."""
        counter = self._counter
        return self.body.options.auto_increment if counter == AS_BODY else counter

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
        """ENGINE=InnoDB, no engine given (the server default since MySQL 5.5), or a template
        placeholder an installer fills in (`is_innodb_engine`)."""
        return is_innodb_engine(self.body.options.engine)

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
        """Whether InnoDB could use this UNIQUE key as the clustered index (`can_cluster`)."""
        return can_cluster(index, self.column)

    @property
    def clustered_index(self) -> Index | None:
        """The index InnoDB clusters the rows on: the PRIMARY KEY, else the table's first key when
        it is a UNIQUE key that can cluster, else None (the hidden 6-byte DB_ROW_ID). The server
        looks at the first key alone; the replay keeps the keys in the server's order
        (`linter.server.key_order`), so a NOT NULL UNIQUE key behind a nullable one clusters
        nothing."""
        primary = self.primary_key
        if primary is not None:
            return primary
        indexes = self.body.indexes
        first = indexes[0] if indexes else None
        if first is not None and first.kind == "unique" and self.can_cluster(first):
            return first
        return None

    @property
    def where(self) -> Location:
        """Where a finding about this table belongs: the statement that last shaped its key."""
        return self.key_dropped or self.defined

    def place(self, item: Column | Index | ForeignKey) -> Location:
        """Where a column, key or foreign key got its present form: its own line and column in the
        ALTER TABLE (or CREATE INDEX) that added or changed it, else in the table's CREATE TABLE.
        A finding caused by the item points there (so an editor jumps to the element, and
        `--changed-only` reports it with the migration that did it). The element keeps its place
        relative to its statement (`Column.offset` ...): a tenant's copy of a table, which shares
        its template's elements, gets its own statement's lines."""
        return (item.where or self.defined).moved(item.offset)

    def statement_place(self, item: Column | Index | ForeignKey) -> Location:
        """The statement that gave the item its present form (`place` is the item's own spot in it)."""
        return item.where or self.defined

    def set_option_place(self, option: str, where: Location) -> None:
        """`where` set the table option `option` (a TableOptions field name)."""
        if self.options_where is _NO_PLACES:
            self.options_where = {}
        self.options_where[option] = where  # type: ignore[index]

    def option_place(self, option: str) -> Location:
        """Where a table option (a TableOptions field name: "engine", "tablespace" ...) got its
        present value: the ALTER TABLE that set it, else the table's CREATE TABLE."""
        return self.options_where.get(option) or self.defined


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
    __slots__ = __match_args__ = ("name", "tables", "defined", "charset", "collation", "temporary")
    name: str | None  # None: tables whose database the input never names
    tables: dict[str, Table]  # keyed by `SchemaModel.key` of the table's name
    defined: Location | None
    #: CREATE DATABASE ... DEFAULT CHARACTER SET / COLLATE as written (None: not given): the
    #: default of the tables that give none, before the server's own (linter.schema.innodb_sizes)
    charset: str | None
    collation: str | None
    #: TEMPORARY tables, a namespace of their own: one may have the name of a table in `tables`,
    #: and then hides it from the statements that follow. They vanish when the session ends, so
    #: they are not part of the schema that checks see (`SchemaModel.tables`)
    temporary: dict[str, Table]

    def __init__(
        self, name: str | None, tables: dict[str, Table] | None = None, defined: Location | None = None,
        charset: str | None = None, collation: str | None = None, temporary: dict[str, Table] | None = None,
    ) -> None:
        self.name = name
        self.tables = {} if tables is None else tables
        self.defined = defined
        self.charset = charset
        self.collation = collation
        self.temporary = {} if temporary is None else temporary


class SchemaModel(Record):
    """Every schema, table, tablespace and compression dictionary after the whole input.

    Database and table names are compared as the server's `lower_case_table_names` says
    (`linter.parse.body.table_name_key`): by default (0, Linux) as written, so `t1` and `T1` are two
    tables. Column, key and constraint names are always case-insensitive."""

    __match_args__ = (
        "schemas", "tablespaces", "dictionaries", "is_migration_history", "lower_case_table_names", "refusals",
        "alterations",
    )
    __slots__ = (*__match_args__, "derived")
    schemas: dict[str | None, Schema]  # keyed by `key` of the schema's name
    tablespaces: dict[str, Tablespace]  # lower-case name
    dictionaries: dict[str, CompressionDictionary]
    #: True when the input is a migration history (CREATE TABLESPACE is expected before use)
    is_migration_history: bool
    #: the server's lower_case_table_names: 0 (names as written), 1 (stored in lower case), 2
    #: (stored as written, compared in lower case)
    lower_case_table_names: int
    #: the statements the target refuses, in input order (`linter.schema.refused.Refusal`): they
    #: change nothing here; refused-ddl reports them, or the check whose kind of refusal it is
    #: (a key too long: index-key-length, a column or row too long: row-size-limit), which finds
    #: the table as the statement would have left it in the record
    refusals: list[Refusal]
    #: statements that copy, rebuild or lock a table, or lose columns or tables, in input order
    #: (`linter.schema.refused.Alteration`): blocking-alter and destructive-change judge them; the
    #: engine has the replay keep those they may report (`Replayer.alterations`)
    alterations: list[Alteration]
    derived: dict[str, object]

    def __init__(
        self, schemas: dict[str | None, Schema] | None = None, tablespaces: dict[str, Tablespace] | None = None,
        dictionaries: dict[str, CompressionDictionary] | None = None, is_migration_history: bool = False,
        lower_case_table_names: int = 0,
    ) -> None:
        self.schemas = {} if schemas is None else schemas
        self.tablespaces = {} if tablespaces is None else tablespaces
        self.dictionaries = {} if dictionaries is None else dictionaries
        self.is_migration_history = is_migration_history
        self.lower_case_table_names = lower_case_table_names
        self.refusals = []
        self.alterations = []
        #: facts the checks derive from the finished model, computed once and shared by every rule
        #: (`linter.rules.copies.decided_once`); the replay never reads it
        self.derived: dict[str, object] = {}

    def key(self, name: str) -> str:
        """How database and table names are looked up (`linter.parse.body.table_name_key`)."""
        return table_name_key(name, self.lower_case_table_names)

    def stored(self, name: str) -> str:
        """The name the server keeps for a database or table created as `name`."""
        return stored_table_name(name, self.lower_case_table_names)

    def schema(self, name: str | None) -> Schema:
        """The schema of this name, made if it is not there yet."""
        key = table_name_key(name, self.lower_case_table_names) if name else None
        found = self.schemas.get(key)
        if found is None:
            found = self.schemas[key] = Schema(stored_table_name(name, self.lower_case_table_names) if name else None)
        return found

    def find_schema(self, name: str | None) -> Schema | None:
        return self.schemas.get(table_name_key(name, self.lower_case_table_names) if name else None)

    def tables(self) -> list[Table]:
        """Every (not temporary) table."""
        return [t for s in self.schemas.values() for t in s.tables.values()]

    def contents(self) -> dict[str | None, int]:
        """Schema key -> a number shared by the schemas that hold the same tables (each name with
        the same definition, `TableBody.definition_id`): what is decided from a schema's tables
        alone is decided once per number (a tenant dump's 10,000 schemas have one or two). For the
        finished model: computed once, kept in `derived`."""
        found = self.derived.get("contents")
        if found is None:
            numbers: dict[tuple[tuple[str, int], ...], int] = {}
            found = self.derived["contents"] = {
                key: numbers.setdefault(tuple(sorted((t.name, id(t.body.columns)) for t in schema.tables.values())),
                                        len(numbers))
                for key, schema in self.schemas.items()
            }
        return found  # type: ignore[return-value]

    def find_table(self, schema: str | None, name: str) -> Table | None:
        """The (not temporary) table of this name."""
        lctn = self.lower_case_table_names
        found = self.schemas.get(table_name_key(schema, lctn) if schema else None)
        return found.tables.get(table_name_key(name, lctn)) if found else None


def name_created_foreign_keys(table: Table) -> None:
    """Give the unnamed foreign keys of a CREATE TABLE the server's names (`<table>_ibfk_1`, 2 ...).
    The body may be shared (a parsed statement's), so it is copied first."""
    generated: list[str] = []
    for foreign_key in table.writable().foreign_keys:
        if foreign_key.name is None:
            foreign_key.name = generated_foreign_key_name(table.name, generated)
            generated.append(foreign_key.name)


def rename_generated_foreign_keys(table: Table, new_name: str) -> None:
    """RENAME TABLE renames the constraints named `<old>_ibfk_<n>` to `<new>_ibfk_<n>` (MariaDB
    10.11, tests/test_model_names.py; MySQL's manual says the same), and the table."""
    prefix = f"{table.name}_ibfk_".lower()
    if any((f.name or "").lower().startswith(prefix) for f in table.foreign_keys):
        for foreign_key in table.writable().foreign_keys:
            name = foreign_key.name or ""
            if name.lower().startswith(prefix):
                foreign_key.name = f"{new_name}_ibfk_{name[len(prefix):]}"
    table.name = new_name
