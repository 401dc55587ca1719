"""What a key part stores of a column, as the server counts it when it builds the key: the bytes
a value of a fixed-size type takes in a key (a "prefix" of that length on such a column is the
whole column: `KEY (a(4))` on an INT is `KEY (a)`), and the prefixes the server drops because they
cover their whole column (`drop_whole_prefixes`: at CREATE TABLE, ADD KEY, CREATE INDEX). Facts of
the model's elements: the parser applies them to what it reads, the server emulator
(`linter.server`) to what it builds, and they are the same whoever asks."""

from __future__ import annotations

from dataclasses import replace

from linter.parse.elements import Index, IndexColumn

SIZED_STRING_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})


def as_written(index: Index) -> Index:
    """The key as its DDL wrote it: parts the server cut (`server_keys`) given back their
    written prefix (None: the whole column)."""
    if not any(part.server_cut for part in index.columns):
        return index
    return replace(index, columns=tuple(
        IndexColumn(p.name, p.written_prefix, p.descending, p.expression) if p.server_cut else p for p in index.columns))
