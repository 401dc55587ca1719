"""What a key part stores of a column, as the server counts it when it builds the key: the bytes
a value of a fixed-size type takes in a key (a "prefix" of that length on such a column is the
whole column: `KEY (a(4))` on an INT is `KEY (a)`), and the prefixes the server drops because they
cover their whole column (`drop_whole_prefixes`: at CREATE TABLE, ADD KEY, CREATE INDEX). Facts of
the model's elements: the parser applies them to what it reads, the server emulator
(`linter.server`) to what it builds, and they are the same whoever asks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from linter.parse.body import stored_key_bytes
from linter.parse.elements import LARGE_TYPES, SPATIAL_TYPES, Index, IndexColumn

SIZED_STRING_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})


def as_written(index: Index) -> Index:
    """The key as its DDL wrote it: parts the server cut (`server_keys`) given back their
    written prefix (None: the whole column)."""
    if not any(part.server_cut for part in index.columns):
        return index
    return replace(index, columns=tuple(
        IndexColumn(p.name, p.written_prefix, p.descending, p.expression) if p.server_cut else p for p in index.columns))


#: the most bytes a character takes in any character set, a key part takes in any row format
#: (COMPACT and REDUNDANT: 767), and a key takes (3,072)
_MAX_CHAR_BYTES, _SAFE_PART_BYTES, _SAFE_KEY_BYTES = 4, 767, 3072
_STRING_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})


def may_be_too_long(index: Index, column_of: Callable[[str], Any]) -> bool:
    """False for a key no server refuses, cuts or hashes for its size, whatever the character sets
    and row format (each part a type of known fixed size or a string of at most 191 characters,
    3,072 bytes in all, counting 4 bytes a character): a cheap screen before measuring every part
    (`linter.rules.key_length.key_problem`, which the replay asks of every key a dump creates).
    `column_of`: a column of the table by lower-case name."""
    total = 0
    for part in index.columns:
        column = None if part.expression else column_of(part.name.lower())
        if column is None:
            return True
        kind = column.type.upper()
        if kind in LARGE_TYPES or kind in SPATIAL_TYPES:
            return True
        if kind in _STRING_TYPES:
            chars = part.prefix if part.prefix is not None else column.length
            if chars is None or chars * _MAX_CHAR_BYTES > _SAFE_PART_BYTES:
                return True
            total += chars * _MAX_CHAR_BYTES
        else:
            fixed = stored_key_bytes(column)  # (None: a type innolint does not know the size of)
            if fixed is None:
                return True
            total += fixed
    return total > _SAFE_KEY_BYTES
