"""A column's length as the server takes it when a statement defines the column: CREATE TABLE,
and ALTER TABLE's ADD, MODIFY, CHANGE and CONVERT TO CHARACTER SET.

- TEXT(n) and BLOB(n) are not types of their own: the server stores the smallest of TINYTEXT,
  TEXT, MEDIUMTEXT and LONGTEXT (TINYBLOB ... LONGBLOB) that holds n characters in the column's
  character set (n bytes for BLOB), and SHOW CREATE TABLE writes that type (`stored`). Keys,
  row sizes and a later CONVERT TO then see the stored type, as on the server.
- A row over the server's 65,535 bytes (TEXT and BLOB count 9 to 12) is refused whatever the
  engine: ERROR 1118 (`row_refusal`). Counting a row reads every column in its character set, so
  the replay keeps an upper bound instead (`row_bound`, no character set needed) and counts only
  a row whose bound passes the limit: an ALTER then costs what it changes.
- A CHAR or BINARY over 255, a VARBINARY over 65,532 bytes (65,535 on MySQL) and a VARCHAR whose
  characters take more bytes than that in its character set are refused: ERROR 1074 "Column
  length too big" under strict sql_mode, the default everywhere (`too_long`; the limit is
  `innodb_sizes.column_length_limit`, the one the row-size-limit check reports with a fix).

Both depend on the column's character set, known only once the table's default is: the replay
asks `needs_settling` (no character set needed, so a tenant dump's thousand copies of a table
cost one pass over names) and settles only the columns it names. Verified on MariaDB 10.11 by
tests/test_alter_charsets.py, which generates the definitions and compares the server's tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from linter.schema.model import Table
from linter.parse.body import TableBody
from linter.schema.refused import RowRepeat
from linter.server.outcome import CheckedRefusal

from linter.schema.innodb_sizes import MAX_ROW_BYTES, MAX_VARCHAR_BYTES_MARIADB, ResolvedCharset, column_bytes, column_charset, column_length_limit, text_type_for

if TYPE_CHECKING:
    from linter.parse.elements import Column, Location
    from linter.schema.model import Schema, SchemaModel
    from linter.schema.target import Target

#: the types the server stores as a TEXT or BLOB type chosen by their length
_SIZED_LOBS = frozenset({"TEXT", "BLOB"})
#: the most characters of each type no character set and no server refuses (4 bytes a character)
_SAFE_LENGTH = {"CHAR": 255, "BINARY": 255, "VARCHAR": MAX_VARCHAR_BYTES_MARIADB // 4,
                "VARBINARY": MAX_VARCHAR_BYTES_MARIADB}


def needs_settling(column: Column) -> bool:
    """A TEXT(n)/BLOB(n) to store as its type, or a string long enough that the server may refuse
    it in some character set: the columns `stored` and `too_long` are to be asked of."""
    kind = column.type.upper()
    if kind in _SIZED_LOBS:
        return bool(column.params)
    safe = _SAFE_LENGTH.get(kind)
    length = column.length if safe is not None else None
    return length is not None and length > safe  # type: ignore[operator]


def stored(column: Column, charset: ResolvedCharset | None) -> Column:
    """The column with the type the server stores for a TEXT(n) or BLOB(n) (the column itself
    for any other)."""
    kind = column.type.upper()
    if kind not in _SIZED_LOBS or not column.params:
        return column
    length = int(column.params[0]) if column.params[0].isdigit() else 0
    per_character = (charset.maxlen or 1) if kind == "TEXT" and charset is not None else 1
    return replace(column, type=text_type_for(kind, length * per_character), params=())


def too_long(column: Column, charset: ResolvedCharset | None, target: Target) -> str | None:
    """Why the server refuses the column's length (error 1074), or None."""
    limit = column_length_limit(column, charset, target)
    length = column.length
    if limit is None or length is None or length <= limit:
        return None
    unit = "characters" if column.type.upper() in ("CHAR", "VARCHAR") else "bytes"
    where = f" in {charset.charset}" if column.type.upper() == "VARCHAR" and charset is not None else ""
    return (f"column {column.name} {column.type}({length}) is longer than the type allows ({limit:,} {unit}{where}): "
            f"column length too big (max = {limit}), use BLOB or TEXT instead (error 1074)")


def settle_lengths(body: TableBody, keys: tuple[str, ...], target: Target,
                   charset_of: Callable[[Column], ResolvedCharset | None]) -> TableBody | str:
    """A CREATE TABLE's columns `keys` (lower-case names `needs_settling` chose) as the server
    takes them: why it refuses one (error 1074), else the body with each TEXT(n)/BLOB(n) stored
    as its type (a new body sharing the rest: the parsed one may be shared by other tables).
    `charset_of`: a column's character set in the table being made."""
    columns = dict(body.columns)
    for key in keys:
        column = columns[key]
        charset = charset_of(column)
        problem = too_long(column, charset, target)
        if problem:
            return problem
        columns[key] = stored(column, charset)
    return TableBody(columns, body.indexes, body.foreign_keys, body.options, body.checks, body.primary_forced)


#: the most bytes a column that is not a CHAR, VARCHAR, BINARY or VARBINARY takes in the server's
#: row (DECIMAL(65,30) 30; TEXT/BLOB/JSON/GEOMETRY 9 to 12: their pointer), with its NULL flag
_OTHER_ROW_BYTES = 32


def row_bound(columns: Iterable[Column]) -> int:
    """At least the bytes the columns take in the server's row, in any character set (4 bytes a
    character, 2 length bytes and a NULL flag each): a row whose bound is within 65,535 bytes is
    never counted (`server_row_bytes` counts every column in its character set)."""
    total = 0
    for column in columns:
        length = column.length if column.type.upper() in _SAFE_LENGTH else None
        total += length * 4 + 3 if length is not None else _OTHER_ROW_BYTES
    return total


#: id(column) -> (the column, the defaults its character set came from, its bytes in the server's
#: row, whether it packs): what `server_row_bytes` counted, for the columns a later statement keeps
ColumnMemo = dict[int, tuple["Column", tuple[object, ...], int, bool, bool]]


def server_row_bytes(table: Table, target: Target, schema: Schema | None, memo: ColumnMemo | None = None) -> int:
    """The table's row as the server counts it for its 65,535-byte limit: the count
    `innodb_sizes.row_size` gives (`server_bytes`, which the row-size-limit check reports), of
    the row alone. With `memo`, each column is counted once for the defaults it is read in: the
    ALTERs of a wide table keep most of its columns (the same objects)."""
    return _row_bytes(row_parts(table.columns.values(), table, target, schema, memo))


def row_parts(columns: Iterable[Column], table: Table, target: Target, schema: Schema | None,
              memo: ColumnMemo | None = None) -> tuple[int, int, bool]:
    """(bytes, nullable columns, whether one packs) of `columns` of `table` in the server's row:
    parts that add up (`_row_bytes` makes a row of them)."""
    defaults = (table.options.charset, table.options.collation, None if schema is None else schema.charset,
                None if schema is None else schema.collation)
    server = nullable = 0
    packs = False
    for column in columns:
        known = memo.get(id(column)) if memo is not None else None
        if known is not None and known[0] is column and known[1] == defaults:
            _, _, nbytes, counted, column_packs = known
        else:
            size = column_bytes(column, column_charset(column, table, target, schema))
            counted = size is not None
            nbytes, column_packs = (size.row_bytes, size.packs) if size is not None else (0, False)
            if memo is not None:
                memo[id(column)] = (column, defaults, nbytes, counted, column_packs)
        if not counted:
            continue
        server += nbytes
        packs = packs or column_packs
        nullable += column.nullable
    return server, nullable, packs


def _row_bytes(parts: tuple[int, int, bool]) -> int:
    """The row of those parts: the columns' bytes and the NULL flags (a table of fixed-length rows
    keeps a "deleted" bit too), as `innodb_sizes.row_size` counts them."""
    server, nullable, packs = parts
    return server + (nullable + (0 if packs else 1) + 7) // 8


def row_refusal(server_bytes: int) -> str | None:
    """Why the server refuses a row of `server_bytes`, whatever the engine (error 1118), or None."""
    if server_bytes <= MAX_ROW_BYTES:
        return None
    return (f"the row takes {server_bytes:,} bytes, over the server's 65,535-byte row limit whatever the engine: "
            "row size too large (error 1118)")


#: ALTERs refused for the row of one table as it stands that the check analyses whole (`_refused_row`)
_FULL_ROW_REFUSALS = 3


def refused_length(table: Table, where: Location, message: str, *, row_bytes: int = 0,
                   like: Location | None = None) -> CheckedRefusal:
    """A statement refused for a column too long for its type or a row too long for the server
    (`column_lengths`): a refusal of kind "row-size" with `table` as it would have been, for
    the row-size-limit check to report with its fix; a repeat (`like`, see
    `CheckedRefusals._refused_row`) with only the statement's columns, and the row's bytes (`RowRepeat`)."""
    return CheckedRefusal(message, "row-size", table, detail=RowRepeat(row_bytes, like) if like is not None else None)


class CheckedRefusals:
    """Refuses an ALTER TABLE for what a check reports (a key, a column's or the row's length),
    and keeps each altered table's row bound, for one replay: the Replayer asks `checked` of
    each ALTER it has planned (`linter.server.alter_table.TableAlter`) and `remember`s the bound
    of those it applies."""

    def __init__(self, model: SchemaModel, target: Target) -> None:
        self.model = model
        self.target = target
        #: id(table) -> (table, its `changed` then, at least the bytes of its row) for tables an
        #: ALTER changed the columns of or was planned for (`_row_upper`); the table is kept so the
        #: id stays its own
        self.row_uppers: dict[int, tuple[Table, Location, int]] = {}
        #: the columns counted for the row (`server_row_bytes`)
        self._column_bytes: ColumnMemo = {}
        #: id(table) -> (table, its `changed` then, the parts of its row: `row_parts`)
        self._table_rows: dict[int, tuple[Table, Location, tuple[int, int, bool]]] = {}
        #: id(table) -> (table, its `changed` then, the first ALTER refused for its row, how many were)
        self._row_refusals: dict[int, tuple[Table, Location, Location, int]] = {}

    def remember(self, table: Table, row_upper: int) -> None:
        """`table` was altered as planned: `row_upper` is at least the bytes of its row now."""
        self.row_uppers[id(table)] = (table, table.changed, row_upper)

    def _row_upper(self, table: Table, alter: Any) -> int | None:
        """At least the bytes of the row an ALTER TABLE leaves, without counting the columns it
        keeps again (`column_lengths.row_bound`): the table's last known upper bound plus the
        bound of the columns the statement defines. None: it changes no column. A CONVERT TO
        moves every column: counted from them all. The table's bound is kept for the table as it
        stands: n refused ALTERs of an n-column table counted its columns n times."""
        if alter.draft is None or not (alter.changes or alter.steps or alter.charsets.convert is not None):
            return None
        if alter.charsets.convert is not None:
            return row_bound(alter.draft.columns.values()) + row_bound(alter.defined_columns())
        known = self.row_uppers.get(id(table))
        if known is None or known[0] is not table or known[1] != table.changed:
            # (the draft's columns: `table.columns` would settle the draft)
            known = self.row_uppers[id(table)] = (table, table.changed, row_bound(alter.draft.columns.values()))
        return known[2] + row_bound(alter.defined_columns())

    def _altered_row_bytes(self, table: Table, alter: Any) -> int:
        """The row an ALTER TABLE would leave, as the server counts it. One that only adds columns
        (no other change of column, character set or engine) adds their count to the table's,
        known once for the table as it stands; any other counts the row it builds, each column
        kept from the table counted once (`_column_bytes`)."""
        schema = self.model.find_schema(table.schema)
        draft = alter.draft
        adds_only = (not alter.changes and alter.charsets.convert is None and not alter.consumed
                     and all(step[0] for step in alter.steps) and alter.charsets.plan() is None)
        if not adds_only:
            return server_row_bytes(alter.built(), self.target, schema, self._column_bytes)
        known = self._table_rows.get(id(table))
        if known is None or known[0] is not table or known[1] != table.changed:
            # (the draft's columns, the table's as it stands: `table.columns` would settle the draft)
            known = self._table_rows[id(table)] = (table, table.changed, row_parts(
                draft.columns.values(), table, self.target, schema, self._column_bytes))
        base = known[2]
        added = row_parts(alter.defined_columns(), table, self.target, schema, self._column_bytes)
        return _row_bytes((base[0] + added[0], base[1] + added[1], base[2] or added[2]))

    def _refused_row(self, table: Table, alter: Any, where: Location, row_bytes: int, message: str) -> str:
        """An ALTER TABLE refused for its row. The first `_FULL_ROW_REFUSALS` refused on one table
        as it stands keep the table as the statement would have left it, for the check's whole
        analysis (the columns to move off-page); after them, the table being still the same, a
        refusal keeps only its own columns, the row's bytes and where the first was: 10,000 such
        ALTERs of a 1,001-column table kept 10,000 copies of it (1 GB) and the check worked each."""
        version = (table, table.changed)
        known = self._row_refusals.get(id(table))
        if known is None or known[0] is not table or known[1] != table.changed:
            known = self._row_refusals[id(table)] = (*version, where, 0)
        _, _, first, count = known
        self._row_refusals[id(table)] = (*version, first, count + 1)
        if count < _FULL_ROW_REFUSALS:
            return refused_length(alter.built(), where, message)
        columns = alter.defined_columns()
        own = Table(schema=table.schema, name=table.name, body=TableBody({c.name.lower(): c for c in columns}, [], [],
                                                                          table.options), defined=where, changed=where)
        return refused_length(own, where, message, row_bytes=row_bytes, like=first)

    def checked(self, table: Table, alter: Any, where: Location, statement: str) -> tuple[str | None, int | None]:
        """The refusal of an ALTER TABLE for what a check reports (a column or the row too long,
        a key the server cannot build), and the bound of the row it leaves (`_row_upper`)."""
        if (too_long := alter.too_long_column()) is not None:
            column, why = too_long
            made = Table(schema=table.schema, name=table.name, body=TableBody({column.name.lower(): column}, [], [],
                                                                               table.options), defined=where, changed=where)
            return refused_length(made, where, f"{statement}: {why}; the server refuses the whole statement, so "
                                                    "none of it is applied"), None
        if refused := alter.refused_key(where, statement):
            return refused, None
        row_upper = self._row_upper(table, alter)
        if row_upper is not None and row_upper > MAX_ROW_BYTES:  # (the bound passes the limit: the row is counted)
            row_upper = self._altered_row_bytes(table, alter)
            if too_long := row_refusal(row_upper):
                return self._refused_row(table, alter, where, row_upper, f"{statement}: {too_long}; the server "
                                         "refuses the whole statement, so none of it is applied"), None
        return None, row_upper
