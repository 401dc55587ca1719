"""The schema model: plain typed objects that checks read.

Checks never see SQL text or sqlglot trees, only these objects. Every object remembers where it
was defined and where it was last changed, so a finding can point at the statement that caused it
(the CREATE TABLE, or the ALTER that dropped a key). InnoDB facts that several checks need live
here as properties, so that each check asks the same question the same way.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from linter.record import Record
from linter.schema.target import stored_table_name, table_name_key
from linter.schema.elements import Column, ForeignKey, Index, IndexColumn, LARGE_TYPES, Location, TableOptions

if TYPE_CHECKING:
    from linter.schema.refused import RefusedKey, RefusedLength


#: Spatial types: a UNIQUE key on one is stored as a prefix key (MariaDB 10.11: `a(8)` on GEOMETRY,
#: `a(25)` on POINT), so it never clusters the table (tests/test_model_oracle.py).
SPATIAL_TYPES = frozenset(
    {"GEOMETRY", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON",
     "GEOMETRYCOLLECTION"}
)
#: Types whose key prefix counts characters (or bytes) of the column's declared length: a prefix
#: as long as the column is the whole column, and the server drops it (`whole_column_prefixes`).
PREFIX_LENGTH_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})
#: Engines for which InnoDB's clustered-index rules apply. None means the server default (InnoDB).
INNODB_ENGINES = frozenset({"innodb", "xtradb"})

# Records (linter.record): the ==, repr and immutability of the dataclasses they were, without
# compiling generated methods at import. The classes that `dataclasses.replace`, `fields` or
# `astuple` are used on (Column, IndexColumn, Index, ForeignKey, TableOptions) stay dataclasses
# for that, with `init=False, repr=False, eq=False`: their methods are the record's and written
# here, so the decorator generates none.
_set = object.__setattr__


#: MySQL 8 names an unnamed key whose first part is an expression (a functional key part) this
_FUNCTIONAL_KEY_NAME = "functional_index"


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


def whole_column_prefixes(
    indexes: list[Index], column: Callable[[str], Column | None],
    whole: Callable[[int, Column], bool] = is_whole_column,
) -> None:
    """Drop, in place, the prefix of every key part that covers its whole column (`whole`: by
    default `is_whole_column`; `linter.schema.key_parts.drop_whole_prefixes` adds the fixed-size
    types), as the server does when it creates the key. `column`: the table's column of a name."""
    for index in indexes:
        if any(p.prefix is not None for p in index.columns):
            parts = tuple(
                IndexColumn(p.name, None, p.descending) if p.prefix is not None and not p.expression
                and (found := column(p.name)) is not None and whole(p.prefix, found) else p
                for p in index.columns
            )
            if parts != index.columns:
                index.columns = parts


def _generated_prefix(a: Index, b: Index) -> bool:
    """The server's foreign_key_prefix, negated: whether one of `a`, `b` is a generated key whose
    parts begin the other's (column names case-insensitively, prefix lengths alike); of two
    generated keys, the shorter."""
    if a.generated:
        if b.generated and len(a.columns) > len(b.columns):
            a, b = b, a
    elif not b.generated:
        return False
    else:
        a, b = b, a
    if len(a.columns) > len(b.columns):
        return False
    return all(x.name.lower() == y.name.lower() and x.prefix == y.prefix and x.expression == y.expression
               for x, y in zip(a.columns, b.columns))


#: past this many keys (four times the 64 a table may have) no pair is compared: the cost stays linear
_MOST_KEYS_COMPARED = 256


def without_redundant_generated_keys(keys: list[Index]) -> list[Index]:
    """The keys the server keeps of `keys` (in the order the server lists them while creating the
    table: a CREATE TABLE's in declaration order; an ALTER's, the table's then the added ones): a
    key it generated for a foreign key goes when another key begins with its columns, or its
    columns begin a longer generated one (sql_table.cc, mysql_prepare_create_table and
    foreign_key_prefix; MariaDB 10.11: tests/test_model_oracle.py). Quadratic in the keys, which
    are at most MAX_KEYS."""
    if len(keys) > _MOST_KEYS_COMPARED or not any(k.generated for k in keys):
        return keys  # (so many keys that the server refuses the table anyway: error 1069)
    ignored: set[int] = set()
    for i, key in enumerate(keys):
        for j in range(i):
            other = keys[j]
            if j in ignored or not _generated_prefix(key, other):
                continue
            if not other.generated or (key.generated and len(key.columns) < len(other.columns)):
                ignored.add(i)
            else:
                ignored.add(j)
            break
    return [k for n, k in enumerate(keys) if n not in ignored]


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


def name_unnamed_keys(indexes: list[Index], taken: Collection[str] = ()) -> str | None:
    """Give every key of `indexes` that has no name (None) the name the server would, in order:
    the list is a CREATE TABLE's keys in declaration order, with `taken` the names the table
    already has (none for a CREATE). Returns why the server refuses such keys, or None: a name
    given to a key before (a generated one included: `KEY (a), KEY a (b)`, error 1061), a
    second primary key (error 1068)."""
    used = {name.lower() for name in taken}
    problem = None
    for index in indexes:
        if index.kind == "primary":
            if "primary" in used and problem is None:
                problem = "multiple primary key defined (error 1068)"
            used.add("primary")
            continue
        if index.name is None:
            if index.columns:
                index.name = _generated_key_name(index.columns[0], used)
        elif index.name.lower() in used and problem is None:
            problem = f"duplicate key name {index.name} (error 1061)"
        if index.name is not None:
            used.add(index.name.lower())
    return problem


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


class TableBody(Record):
    """What a CREATE TABLE defines, apart from where. Shared between identical tables (tenant
    dumps repeat the same definition thousands of times), so it is copied before any change.

    Readers see `columns` (an ordered dict by lower-case name), `indexes` and `foreign_keys` (lists).
    The replay edits a body through its `draft()` instead: an ALTER then costs what it changes, not
    the size of the table (renaming a column of a dict keyed by name, or dropping a key from a
    list, rebuilds or scans the whole of it). The three views are rebuilt from the draft when read
    after a change, once per read-after-change."""

    __slots__ = ("_columns", "_indexes", "_foreign_keys", "options", "checks", "primary_forced", "_draft", "_stale")
    __match_args__ = ("columns", "indexes", "foreign_keys", "options", "checks")
    options: TableOptions
    checks: int  # number of CHECK constraints
    #: as a CREATE TABLE was parsed, its keys in the order written: the lower-case names of the
    #: columns only its PRIMARY KEY makes NOT NULL. The server sorts the keys written before the
    #: PRIMARY KEY with those columns still nullable (`linter.schema.key_order.creation_order`)
    primary_forced: frozenset[str]

    def __init__(
        self, columns: dict[str, Column] | None = None, indexes: list[Index] | None = None,
        foreign_keys: list[ForeignKey] | None = None, options: TableOptions | None = None, checks: int = 0,
        primary_forced: frozenset[str] = frozenset(),
    ) -> None:
        self._columns = {} if columns is None else columns
        self._indexes = [] if indexes is None else indexes
        self._foreign_keys = [] if foreign_keys is None else foreign_keys
        self.options = TableOptions() if options is None else options
        self.checks = checks
        self.primary_forced = primary_forced
        self._draft: BodyDraft | None = None
        self._stale = False

    # -- the views readers see (rebuilt from the draft after a change) --------------------------
    @property
    def columns(self) -> dict[str, Column]:
        """Keyed by lower-case name (column names are case-insensitive), in table order."""
        if self._stale:
            self._settle()
        return self._columns

    @columns.setter
    def columns(self, value: dict[str, Column]) -> None:
        self._settle()
        self._columns = value
        self._draft = None

    @property
    def indexes(self) -> list[Index]:
        """The primary key first, then the others in the order they were created."""
        if self._stale:
            self._settle()
        return self._indexes

    @indexes.setter
    def indexes(self, value: list[Index]) -> None:
        self._settle()
        self._indexes = value
        self._draft = None

    @property
    def foreign_keys(self) -> list[ForeignKey]:
        if self._stale:
            self._settle()
        return self._foreign_keys

    @foreign_keys.setter
    def foreign_keys(self, value: list[ForeignKey]) -> None:
        self._settle()
        self._foreign_keys = value
        self._draft = None

    def _settle(self) -> None:
        if self._stale:
            self._columns, self._indexes, self._foreign_keys = self._draft.views()  # type: ignore[union-attr]
            self._stale = False

    def draft(self, table: str) -> BodyDraft:
        """The editable form of this body (built once, O(size); the body must be the table's
        own: `Table.writable`). Every change through it marks the views for rebuilding.
        `table`: the table's name, for the names the server gives unnamed foreign keys."""
        if self._draft is None:
            self._settle()
            self._draft = BodyDraft(self, table)
        elif self._draft.table != table:  # renamed since: its `<table>_ibfk_<n>` names were renamed with it
            self._draft.rename_table(table)
        self._stale = True
        return self._draft

    @property
    def definition_id(self) -> int:
        """The same number for bodies made from one parsed definition: the copies of a CREATE TABLE
        repeated across tenant schemas share its columns, keys and foreign keys, each with options
        of its own when its AUTO_INCREMENT or TABLESPACE differs (linter.parse.cache), and a table
        that an ALTER changes gets copies of its own first (`Table.writable`). Equal ids mean equal
        columns, keys, foreign keys and checks, and options equal but for auto_increment and
        tablespace: a key for doing per-definition work once over a finished model."""
        return id(self.columns)

    def with_indexes(self, indexes: list[Index]) -> TableBody:
        """A body sharing this one's columns, foreign keys and options, with these keys (for a
        table that does not own it: `Table.writable` copies it before any change)."""
        return TableBody(self.columns, indexes, self.foreign_keys, self.options, self.checks)

    def copy(self) -> TableBody:
        return TableBody(
            columns={k: replace(c) for k, c in self.columns.items()},
            indexes=[replace(i) for i in self.indexes],
            foreign_keys=[replace(f) for f in self.foreign_keys],
            options=replace(self.options, other=dict(self.options.other)),
            checks=self.checks,
        )


class BodyDraft:
    """A table body in a form every ALTER action edits in time proportional to what it changes.

    Columns are a doubly linked list of ids (FIRST / AFTER move or insert in O(1); a rename changes
    one name entry, not the order), keys and foreign keys dicts by id in creation order, each with
    a map from lower-case name to id (names of columns, keys and constraints are case-insensitive),
    and a map from each column to the keys and foreign keys that use it (a renamed or dropped
    column updates those alone). Foreign keys carry the names the server gave those created
    without one (`<table>_ibfk_<n>`: the replay names them, `generated_foreign_key_name`); the
    numbers in use are kept for the next one. The body's views are rebuilt from this when read.

    Edits are applied by `linter.schema.replay` after it has checked the whole ALTER against the table:
    the methods here assume what they are told exists and never fail.
    """

    __slots__ = (
        "columns", "column_ids", "after", "before", "indexes", "index_ids", "primary", "uses",
        "foreign_keys", "fk_ids", "fk_names", "fk_uses", "fk_numbers", "fk_heap", "table", "checked_columns", "_next",
    )

    def __init__(self, body: TableBody, table: str) -> None:
        self._next = 1  # ids: 0 is the head and tail of the column list
        self.table = table
        self.checked_columns = 0  # columns with CHECK constraints of their own
        self.columns: dict[int, Column] = {}
        self.column_ids: dict[str, int] = {}
        self.after: dict[int, int] = {0: 0}  # id -> the next column's id (0: the end)
        self.before: dict[int, int] = {0: 0}
        for key, column in body._columns.items():
            self.insert_column(column, self.before[0], key)
        self.indexes: dict[int, Index] = {}
        self.index_ids: dict[str, int] = {}
        self.primary = 0  # the primary key's id, 0: none
        self.uses: dict[str, dict[int, None]] = {}  # lower-case column -> ids of keys on it
        for index in body._indexes:
            self.add_index(index)
        self.foreign_keys: dict[int, ForeignKey] = {}
        self.fk_ids: dict[str, int] = {}
        self.fk_names: dict[int, str] = {}  # id -> its lower-case name, given or generated
        self.fk_uses: dict[str, dict[int, None]] = {}
        self.fk_numbers: dict[int, int] = {}  # n of the `_ibfk_<n>` names in use -> how many
        self.fk_heap: list[int] = []  # those n, negated (a max-heap; entries of gone names linger)
        for fk in body._foreign_keys:
            self.add_foreign_key(fk)

    def _id(self) -> int:
        self._next += 1
        return self._next

    def views(self) -> tuple[dict[str, Column], list[Index], list[ForeignKey]]:
        columns, after = self.columns, self.after
        ordered: dict[str, Column] = {}
        at = after[0]
        while at:
            column = columns[at]
            ordered[column.name.lower()] = column
            at = after[at]
        indexes = list(self.indexes.values())
        if self.primary and indexes[0] is not self.indexes[self.primary]:
            primary = self.indexes[self.primary]
            indexes = [primary, *(i for i in indexes if i is not primary)]
        return ordered, indexes, list(self.foreign_keys.values())

    # -- columns ---------------------------------------------------------------------------
    def column(self, key: str) -> Column | None:
        at = self.column_ids.get(key)
        return self.columns[at] if at is not None else None

    def column_by_name(self, name: str) -> Column | None:
        """The column of this name, in any case."""
        return self.column(name.lower())

    def insert_column(self, column: Column, previous: int, key: str | None = None) -> int:
        """Add a column after the column with id `previous` (0: first); its id."""
        at = self._id()
        self.columns[at] = column
        self.column_ids[key or column.name.lower()] = at
        self.checked_columns += bool(column.checks)
        self._link(at, previous)
        return at

    def _link(self, at: int, previous: int) -> None:
        following = self.after[previous]
        self.after[previous] = at
        self.after[at] = following
        self.before[following] = at
        self.before[at] = previous

    def _unlink(self, at: int) -> None:
        previous, following = self.before.pop(at), self.after.pop(at)
        self.after[previous] = following
        self.before[following] = previous

    def last_column(self) -> int:
        return self.before[0]

    def move_column(self, at: int, previous: int) -> None:
        if at != previous:
            self._unlink(at)
            self._link(at, previous)

    def detach_column(self, key: str) -> int:
        """Take a column's name away (it is dropped, or renamed: `attach_column` gives it one)."""
        return self.column_ids.pop(key)

    def attach_columns(self, changed: list[tuple[int, str, Column]]) -> None:
        """Each detached column (id, old key) becomes its new definition, maybe with a new name;
        the keys and foreign keys on the renamed ones follow, all renames at once (two columns
        may swap names)."""
        renamed = {old: column.name for at, old, column in changed if column.name != self.columns[at].name}
        uses = {old: self.uses.pop(old, {}) for old in renamed}
        fk_uses = {old: self.fk_uses.pop(old, {}) for old in renamed}
        for at, old, column in changed:
            if column.checks or self.columns[at].checks:
                self.checked_columns += bool(column.checks) - bool(self.columns[at].checks)
            self.columns[at] = column
            self.column_ids[column.name.lower()] = at
        indexes: dict[int, None] = {}
        foreign_keys: dict[int, None] = {}
        for old, name in renamed.items():
            key = name.lower()
            self.uses.setdefault(key, {}).update(uses[old])
            self.fk_uses.setdefault(key, {}).update(fk_uses[old])
            indexes.update(uses[old])
            foreign_keys.update(fk_uses[old])
        for index_id in indexes:
            index = self.indexes[index_id]
            index.columns = tuple(
                replace(p, name=renamed[p.name.lower()]) if not p.expression and p.name.lower() in renamed else p
                for p in index.columns
            )
        for fk_id in foreign_keys:
            fk = self.foreign_keys[fk_id]
            fk.columns = tuple(renamed.get(c.lower(), c) for c in fk.columns)

    def remove_column(self, at: int, old_key: str, where: Location, keep_keys: bool = False) -> list[Index]:
        """Drop a detached column; it leaves every key on it (which `where`, the statement, then
        changed: `Index.where`), and a key left with no column goes (returned). `keep_keys`: a
        column of the same name is added by the same statement, and the keys stay on that name
        (the server finds key parts by column name)."""
        self.checked_columns -= bool(self.columns.pop(at).checks)
        self._unlink(at)
        emptied: list[Index] = []
        if keep_keys:
            for index_id in self.uses.get(old_key, {}):
                self.indexes[index_id].where = where
            return emptied
        for index_id in self.uses.pop(old_key, {}):
            index = self.indexes[index_id]
            index.columns = tuple(p for p in index.columns if p.expression or p.name.lower() != old_key)
            index.where = where
            if not index.columns:
                emptied.append(index)
                self.remove_index(index_id)
        return emptied

    # -- keys ------------------------------------------------------------------------------
    def add_index(self, index: Index) -> int:
        at = self._id()
        self.indexes[at] = index
        self.index_ids[(index.name or "").lower()] = at
        if index.kind == "primary":
            self.primary = at
        for part in index.columns:
            if not part.expression:
                self.uses.setdefault(part.name.lower(), {})[at] = None
        return at

    def remove_index(self, at: int) -> Index:
        index = self.indexes.pop(at)
        key = (index.name or "").lower()
        if self.index_ids.get(key) == at:
            del self.index_ids[key]
        if self.primary == at:
            self.primary = 0
        for part in index.columns:
            used = self.uses.get(part.name.lower())
            if used is not None:
                used.pop(at, None)
        return index

    def clustered(self) -> Index | None:
        """The key the table is clustered on (`Table.clustered_index`), read from the draft."""
        if self.primary:
            return self.indexes[self.primary]
        first = next(iter(self.indexes.values()), None)
        return first if first is not None and first.kind == "unique" and can_cluster(first, self.column) else None

    def nullable_primary_columns(self) -> frozenset[str]:
        """The lower-case names of the primary key's columns that are nullable as defined."""
        return frozenset(part.name.lower() for part in self.indexes[self.primary].columns
                         if (column := self.column(part.name.lower())) is not None and column.nullable)

    def sort_keys(self, rank: Callable[[int, Index], tuple[int, ...]]) -> None:
        """Put the keys in the order of `rank` (of a key's id and the key; lower first), keeping
        the order of equals."""
        items = list(self.indexes.items())
        ranks = [rank(at, index) for at, index in items]
        if any(a > b for a, b in zip(ranks, ranks[1:])):
            self.indexes = {items[n][0]: items[n][1] for n in sorted(range(len(items)), key=ranks.__getitem__)}

    def rename_index(self, at: int, name: str) -> None:
        index = self.indexes[at]
        key = (index.name or "").lower()
        if self.index_ids.get(key) == at:
            del self.index_ids[key]
        index.name = name
        self.index_ids[name.lower()] = at

    # -- foreign keys ------------------------------------------------------------------------
    # The server names a foreign key added without a name `<table>_ibfk_<n>` (n: one more than
    # the highest in use: `next_fk_number`), and renames every `<old>_ibfk_...` with its table
    # (linter.schema.replay renames them in the model). Names of that form are kept here by their number
    # (`_IBFK` + n), which a max-heap finds the highest of.
    def fk_key(self, name: str) -> str:
        """The key a foreign key of this name has in `fk_ids`."""
        number = foreign_key_number(self.table, name)
        return name.lower() if number is None else _IBFK + str(number)

    def rename_table(self, table: str) -> None:
        """The table now has this name (its foreign keys' names already follow it): key them anew."""
        self.table = table
        foreign_keys = list(self.foreign_keys.items())
        self.foreign_keys, self.fk_ids, self.fk_names, self.fk_numbers, self.fk_heap = {}, {}, {}, {}, []
        self.fk_uses = {}
        for _, fk in foreign_keys:
            self.add_foreign_key(fk)

    def next_fk_number(self) -> int:
        """The n of the name the server gives the next foreign key added without one."""
        numbers, heap = self.fk_numbers, self.fk_heap
        while heap and -heap[0] not in numbers:
            heapq.heappop(heap)
        return 1 - heap[0] if heap else 1

    def add_foreign_key(self, fk: ForeignKey, key: str | None = None) -> int:
        """Add a foreign key (named: the model holds the server's names) under `key` (default: its name's)."""
        at = self._id()
        self.foreign_keys[at] = fk
        if key is None:
            key = self.fk_key(fk.name or "")
        if key.startswith(_IBFK):
            number = int(key[len(_IBFK):])
            self.fk_numbers[number] = self.fk_numbers.get(number, 0) + 1
            heapq.heappush(self.fk_heap, -number)
        self.fk_ids[key] = at
        self.fk_names[at] = key
        for column in fk.columns:
            self.fk_uses.setdefault(column.lower(), {})[at] = None
        return at

    def remove_foreign_key(self, at: int) -> None:
        fk = self.foreign_keys.pop(at)
        key = self.fk_names.pop(at)
        if self.fk_ids.get(key) == at:
            del self.fk_ids[key]
        if key.startswith(_IBFK):
            number = int(key[len(_IBFK):])
            left = self.fk_numbers.pop(number) - 1
            if left:
                self.fk_numbers[number] = left
        for column in fk.columns:
            used = self.fk_uses.get(column.lower())
            if used is not None:
                used.pop(at, None)


#: the key of a foreign key named as the server names unnamed ones (`BodyDraft.fk_key`)
_IBFK = "\0ibfk_"


#: `Table`'s counter when it is the one its body's options hold
AS_BODY = -1


class Table(Record):
    __slots__ = __match_args__ = (
        "schema", "name", "body", "defined", "changed", "temporary", "origin", "key_dropped", "annotations",
        "view_standin", "_own_body", "options_where", "_counter",
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
    #: table option (a TableOptions field name: "engine", "tablespace", "auto_increment" ..., or
    #: the upper-case key of another option) -> the ALTER TABLE that last set it; an option not
    #: here is as the CREATE TABLE wrote it (`option_place` answers either way)
    options_where: dict[str, Location]
    #: the table's AUTO_INCREMENT counter where it is not its body's (`AS_BODY`): a tenant's copy of
    #: a table shares the body of every other copy but for this (`auto_increment` reads it)
    _counter: int | None

    def __init__(
        self, schema: str | None, name: str, body: TableBody, defined: Location, changed: Location,
        temporary: bool = False, origin: Literal["create", "like", "select"] = "create",
        key_dropped: Location | None = None, annotations: frozenset[str] = frozenset(), view_standin: bool = False,
        _own_body: bool = False, options_where: dict[str, Location] | None = None, counter: int | None = AS_BODY,
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
        self.options_where = {} if options_where is None else options_where
        self._counter = counter

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
        """Whether InnoDB could use this UNIQUE key as the clustered index (`can_cluster`)."""
        return can_cluster(index, self.column)

    @property
    def clustered_index(self) -> Index | None:
        """The index InnoDB clusters the rows on: the PRIMARY KEY, else the table's first key when
        it is a UNIQUE key that can cluster, else None (the hidden 6-byte DB_ROW_ID). The server
        looks at the first key alone; the replay keeps the keys in the server's order
        (`linter.schema.key_order`), so a NOT NULL UNIQUE key behind a nullable one clusters
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
        """Where a column, key or foreign key got its present form: the ALTER TABLE (or CREATE
        INDEX) that added or changed it, else the table's CREATE TABLE. A finding caused by the
        item belongs there (so `--changed-only` reports it with the migration that did it)."""
        return item.where or self.defined

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
    (`linter.schema.target.table_name_key`): by default (0, Linux) as written, so `t1` and `T1` are two
    tables. Column, key and constraint names are always case-insensitive."""

    __match_args__ = (
        "schemas", "tablespaces", "dictionaries", "is_migration_history", "lower_case_table_names", "refused_keys",
        "refused_lengths",
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
    #: statements the server refuses for a key it cannot build (a key too long, a TEXT without a
    #: prefix: the index-key-length check's decision, which the engine hands the replay), each
    #: with the table as the statement would have left it: they change nothing here, and the
    #: check reports them
    refused_keys: list[RefusedKey]
    #: statements the server refuses for a column too long for its type (replay's
    #: `column_lengths`), reported by the row-size-limit check
    refused_lengths: list[RefusedLength]
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
        self.refused_keys = []
        self.refused_lengths = []
        #: facts the checks derive from the finished model, computed once and shared by every rule
        #: (`linter.rules.copies.decided_once`); the replay never reads it
        self.derived: dict[str, object] = {}

    def key(self, name: str) -> str:
        """How database and table names are looked up (`linter.schema.target.table_name_key`)."""
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
