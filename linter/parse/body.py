"""What a CREATE TABLE defines, apart from where (`TableBody`), and how the server settles a
definition as it creates it: the keys it names (`name_unnamed_keys`), the prefixes it drops
because they cover their whole column (`whole_column_prefixes`, `drop_whole_prefixes`), the
generated keys it does not keep twice, and how it folds and stores a table's name under
lower_case_table_names. The parser builds a CREATE TABLE's body with these, so that the body is
the table's, shared by its tenant copies; the model (`linter.schema.model.Table`) holds a body and
the replay edits it through a draft (`linter.parse.body_draft`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING
from dataclasses import replace
from linter.record import Record
from linter.parse.elements import (  # (the facts of keys and columns that the model and its draft share)
    Column, ForeignKey, Index, IndexColumn, TableOptions,
    is_whole_column,
)

if TYPE_CHECKING:
    from linter.parse.body_draft import BodyDraft


#: MySQL 8 names an unnamed key whose first part is an expression (a functional key part) this
_FUNCTIONAL_KEY_NAME = "functional_index"


def whole_column_prefixes(
    indexes: list[Index], column: Callable[[str], Column | None],
    whole: Callable[[int, Column], bool] = is_whole_column,
) -> None:
    """Drop, in place, the prefix of every key part that covers its whole column (`whole`: by
    default `is_whole_column`; `linter.parse.body.drop_whole_prefixes` adds the fixed-size
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


def generated_key_name_in(first: IndexColumn, used: set[str]) -> str:
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
                index.name = generated_key_name_in(index.columns[0], used)
        elif index.name.lower() in used and problem is None:
            problem = f"duplicate key name {index.name} (error 1061)"
        if index.name is not None:
            used.add(index.name.lower())
    return problem


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
    #: PRIMARY KEY with those columns still nullable (`linter.server.key_order.creation_order`)
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
            from linter.parse.body_draft import BodyDraft

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

    def defined_here(self) -> None:
        """A copy of another table's body made by one statement (CREATE TABLE ... LIKE, a partition
        made a table): what that table's CREATE TABLE defined (`where` None) now starts at this
        statement, with no place of its own in it (`offset` 0). A body of its own only."""
        for column in self.columns.values():
            if column.where is None:
                column.offset = 0
        for index in self.indexes:
            if index.where is None:
                index.offset = 0
        for fk in self.foreign_keys:
            if fk.where is None:
                fk.offset = 0

    def copy(self) -> TableBody:
        return TableBody(
            columns={k: replace(c) for k, c in self.columns.items()},
            indexes=[replace(i) for i in self.indexes],
            foreign_keys=[replace(f) for f in self.foreign_keys],
            options=replace(self.options, other=dict(self.options.other)),
            checks=self.checks,
        )


#: integer types and their signed ranges' bit widths
INT_BITS = {"TINYINT": 8, "BOOL": 8, "BOOLEAN": 8, "SMALLINT": 16, "MEDIUMINT": 24, "INT": 32, "INTEGER": 32,
             "BIGINT": 64, "SERIAL": 64}


NUMERIC_TYPES = frozenset(INT_BITS) | {"DECIMAL", "DEC", "NUMERIC", "FIXED", "FLOAT", "DOUBLE", "REAL"}


DATE_TYPES = frozenset({"DATE", "DATETIME", "TIMESTAMP", "TIME", "YEAR"})


#: types a key prefix may not be given to (error 1089)
NO_PREFIX_TYPES = NUMERIC_TYPES | DATE_TYPES | {"BIT", "ENUM", "SET"}


_FIXED_BYTES = {"TINYINT": 1, "BOOL": 1, "BOOLEAN": 1, "SMALLINT": 2, "MEDIUMINT": 3, "INT": 4, "INTEGER": 4,
                "BIGINT": 8, "SERIAL": 8, "FLOAT": 4, "DOUBLE": 8, "REAL": 8, "DATE": 3, "YEAR": 1}


#: temporal types without fractional seconds (MariaDB's sizes)
_TEMPORAL_BYTES = {"TIME": 3, "DATETIME": 5, "TIMESTAMP": 4}


def stored_key_bytes(column: Column) -> int | None:
    """The bytes a value of a non-string column takes in a key, where innolint is sure (None: not)."""
    kind = column.type.upper()
    if kind in _FIXED_BYTES:
        return _FIXED_BYTES[kind]
    if kind in _TEMPORAL_BYTES:
        return _TEMPORAL_BYTES[kind] if not column.params or column.params == ("0",) else None
    if kind == "ENUM":
        return 1 if len(column.params) < 256 else 2
    if kind == "SET":
        size = (len(column.params) + 7) // 8
        return 8 if size > 4 else size
    if kind == "BIT":
        bits = column.length if column.length is not None else 1
        return (bits + 7) // 8
    if kind in ("DECIMAL", "DEC", "NUMERIC", "FIXED"):
        precision = int(column.params[0]) if column.params and column.params[0].isdigit() else 10
        scale = int(column.params[1]) if len(column.params) > 1 and column.params[1].isdigit() else 0
        return decimal_bytes(precision, scale)
    return None


def is_whole_key_part(prefix: int, column: Column) -> bool:
    """Whether a key prefix of `prefix` covers the whole of `column` (the server keeps no prefix):
    a CHAR/VARCHAR/BINARY/VARBINARY of that length, or a fixed-size type whose value takes that
    many bytes in a key."""
    if is_whole_column(prefix, column):
        return True
    return column.type.upper() in NO_PREFIX_TYPES and stored_key_bytes(column) == prefix


def drop_whole_prefixes(indexes: list[Index], column: Callable[[str], Column | None]) -> None:
    """Drop, in place, every prefix that covers its whole column (`is_whole_key_part`)."""
    whole_column_prefixes(indexes, column, is_whole_key_part)


def table_name_key(name: str, lower_case_table_names: int) -> str:
    """What the server compares a database or table name by: the one place that folds them."""
    return name if lower_case_table_names == 0 else name.lower()


def stored_table_name(name: str, lower_case_table_names: int) -> str:
    """The name the server keeps for a database or table created as `name`."""
    return name.lower() if lower_case_table_names == 1 else name


_DECIMAL_DIGIT_BYTES = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)  # bytes for 0..9 leftover digits (manual 13.7)


def decimal_bytes(precision: int, scale: int) -> int:
    """DECIMAL(M,D): nine digits in four bytes on each side of the point, the leftover digits in
    0-4 bytes (MySQL 8.0 manual 13.7, "Decimal values are stored using a binary format")."""
    whole, fraction = precision - scale, scale
    return (whole // 9 * 4 + _DECIMAL_DIGIT_BYTES[whole % 9]
            + fraction // 9 * 4 + _DECIMAL_DIGIT_BYTES[fraction % 9])
