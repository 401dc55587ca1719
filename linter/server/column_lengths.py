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

from linter.server.key_refusals import CheckedRefusal
from linter.schema.model import Table, TableBody
from linter.schema.refused import RefusedLength

from linter.schema.innodb_sizes import (
    MAX_ROW_BYTES, MAX_VARCHAR_BYTES_MARIADB, ResolvedCharset, column_length_limit, row_size, text_type_for,
)

if TYPE_CHECKING:
    from linter.schema.elements import Column, Location
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


def server_row_bytes(table: Table, target: Target, schema: Schema | None) -> int:
    """The table's row as the server counts it for its 65,535-byte limit (`innodb_sizes.row_size`,
    the count the row-size-limit check reports)."""
    return row_size(table, target, schema).server_bytes


def row_refusal(server_bytes: int) -> str | None:
    """Why the server refuses a row of `server_bytes`, whatever the engine (error 1118), or None."""
    if server_bytes <= MAX_ROW_BYTES:
        return None
    return (f"the row takes {server_bytes:,} bytes, over the server's 65,535-byte row limit whatever the engine: "
            "row size too large (error 1118)")


class CheckedRefusals:
    """The part of the Replayer that refuses an ALTER TABLE for what a check reports (a key, a
    column's or the row's length), keeps those refused for a length (`RefusedLength`), and each
    altered table's row bound."""

    model: SchemaModel
    target: Target
    #: the row-size-limit check reports the statements refused for a length (`refused_length`)
    lengths_reported: bool
    #: id(table) -> (table, at least the bytes of its row) for tables an ALTER changed the
    #: columns of (`_row_upper`); the table is kept so the id stays its own
    _row_uppers: dict[int, tuple[Table, int]]

    def _row_upper(self, table: Table, alter: Any) -> int | None:
        """At least the bytes of the row an ALTER TABLE leaves, without counting the columns it
        keeps again (`column_lengths.row_bound`): the table's last known upper bound plus the
        bound of the columns the statement defines. None: it changes no column. A CONVERT TO
        moves every column: counted from them all."""
        if alter.draft is None or not (alter.changes or alter.steps or alter.convert is not None):
            return None
        known = self._row_uppers.get(id(table))
        if known is None or known[0] is not table or alter.convert is not None:
            known = (table, row_bound(alter.draft.columns.values()))  # (not `table.columns`: it would settle the draft)
        return known[1] + row_bound(alter.defined_columns())

    def refused_length(self, table: Table, where: Location, message: str) -> str:
        """A statement refused for a column too long for its type or a row too long for the server
        (`column_lengths`), kept in
        `SchemaModel.refused_lengths` with `table` as it would have been, for the row-size-limit
        check to report with its fix (the message is then a `CheckedRefusal`)."""
        self.model.refused_lengths.append(RefusedLength(table, where))
        return CheckedRefusal(message) if self.lengths_reported else message

    def _checked_refusal(self, table: Table, alter: Any, where: Location, statement: str) -> tuple[str | None, int | None]:
        """The refusal of an ALTER TABLE for what a check reports (a column or the row too long,
        a key the server cannot build), and the bound of the row it leaves (`_row_upper`)."""
        if (too_long := alter.too_long_column()) is not None:
            column, why = too_long
            made = Table(schema=table.schema, name=table.name, body=TableBody({column.name.lower(): column}, [], [],
                                                                               table.options), defined=where, changed=where)
            return self.refused_length(made, where, f"{statement}: {why}; the server refuses the whole statement, so "
                                                    "none of it is applied"), None
        if refused := alter.refused_key(where, statement):
            return refused, None
        row_upper = self._row_upper(table, alter)
        if row_upper is not None and row_upper > MAX_ROW_BYTES:  # (the bound passes the limit: the row is counted)
            built = alter.built()
            row_upper = server_row_bytes(built, self.target, self.model.find_schema(table.schema))
            if too_long := row_refusal(row_upper):
                return self.refused_length(built, where, f"{statement}: {too_long}; the server refuses the whole "
                                                         "statement, so none of it is applied"), None
        return None, row_upper
