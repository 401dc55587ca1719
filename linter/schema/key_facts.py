"""What a key part stores of a column, as the server counts it when it builds the key: the bytes
a value of a fixed-size type takes in a key (a "prefix" of that length on such a column is the
whole column: `KEY (a(4))` on an INT is `KEY (a)`), and the prefixes the server drops because they
cover their whole column (`drop_whole_prefixes`: at CREATE TABLE, ADD KEY, CREATE INDEX). Facts of
the model's elements: the parser applies them to what it reads, the server emulator
(`linter.server`) to what it builds, and they are the same whoever asks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from linter.schema.elements import Column, Index, IndexColumn, is_whole_column
from linter.schema.innodb_sizes import decimal_bytes
from linter.schema.model import whole_column_prefixes

#: integer types and their signed ranges' bit widths
INT_BITS = {"TINYINT": 8, "BOOL": 8, "BOOLEAN": 8, "SMALLINT": 16, "MEDIUMINT": 24, "INT": 32, "INTEGER": 32,
             "BIGINT": 64, "SERIAL": 64}
NUMERIC_TYPES = frozenset(INT_BITS) | {"DECIMAL", "DEC", "NUMERIC", "FIXED", "FLOAT", "DOUBLE", "REAL"}
DATE_TYPES = frozenset({"DATE", "DATETIME", "TIMESTAMP", "TIME", "YEAR"})
SIZED_STRING_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})
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


def as_written(index: Index) -> Index:
    """The key as its DDL wrote it: parts the server cut (`server_keys`) given back their
    written prefix (None: the whole column)."""
    if not any(part.server_cut for part in index.columns):
        return index
    return replace(index, columns=tuple(
        IndexColumn(p.name, p.written_prefix, p.descending, p.expression) if p.server_cut else p for p in index.columns))
