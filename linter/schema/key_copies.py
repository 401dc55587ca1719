"""What InnoDB's secondary indexes carry of a table's clustered key, per row.

A secondary index record holds the clustered key's columns (the PRIMARY KEY, else the UNIQUE key
the table is clustered on) so that a lookup can go on to the row; InnoDB appends only the key
columns the index does not already hold whole. So a wide clustered key costs its width once per
secondary index and row. wide-primary-key weighs a table's key with it, and link-table-primary-key
the key its fix gives a link table (the pair, in the indexes the table has after the fix), so both
count alike. Widths are the table's character sets on the target (`linter.schema.innodb_sizes`).
"""

from __future__ import annotations

from collections.abc import Iterable

from linter.record import FrozenRecord
from linter.parse.elements import Index
from linter.schema.innodb_sizes import KeyWidth, holding_values, key_width, schema_of
from linter.schema.model import SchemaModel, Table
from linter.schema.target import Target

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)


class Copies(FrozenRecord):
    """The clustered key's width and what the secondary indexes carry of it per row."""

    __slots__ = __match_args__ = ("key", "width", "per_index", "total")
    key: Index
    width: KeyWidth
    per_index: tuple[tuple[Index, int], ...]  # each secondary index and the key bytes it holds
    total: int

    def __init__(self, key: Index, width: KeyWidth, per_index: tuple[tuple[Index, int], ...]) -> None:
        _set(self, "key", key)
        _set(self, "width", width)
        _set(self, "per_index", per_index)
        _set(self, "total", sum(n for _, n in per_index))


def copies(table: Table, target: Target, model: SchemaModel, values: int | None = None) -> Copies | None:
    """The clustered key's bytes as a secondary index record holds them (with the length bytes of
    variable-length parts; `KeyWidth.stored_bytes`), and for each B-tree or SPATIAL secondary
    index the bytes of it that index carries. None for a table on the hidden row id (6 bytes;
    no-primary-key's business) or a key of unknown width. `values`: the length in characters of
    every value of a one-column key, as the application's model says its generator makes them: the
    key is counted as those values take it (`holding_values`), not as declared."""
    key = table.clustered_index
    if key is None:
        return None
    return copies_of(table, key, (i for i in table.indexes if i is not key), target, model, values)


def copies_of(table: Table, key: Index, indexes: Iterable[Index], target: Target, model: SchemaModel,
              values: int | None = None) -> Copies | None:
    """What `indexes` would carry of `key` were the table clustered on it: for a key a fix proposes,
    in the indexes the table would have then. InnoDB appends only the key columns an index does not
    hold whole itself; FULLTEXT indexes carry FTS_DOC_ID instead. None for a key of unknown width
    (an expression)."""
    width = key_width(table, key, target, schema_of(model, table))
    if not width.known:
        return None
    column = table.column(key.columns[0].name) if values is not None and len(key.columns) == 1 else None
    if column is not None and values is not None:
        width = KeyWidth((holding_values(width.parts[0], column, values),))
    per_index = []
    for index in indexes:
        if index.kind == "fulltext":
            continue
        whole = {p.name.lower() for p in index.columns if p.prefix is None and not p.expression}
        carried = sum((w.bytes or 0) + w.length_bytes for p, w in zip(key.columns, width.parts)
                      if p.name.lower() not in whole)
        per_index.append((index, carried))
    return Copies(key, width, tuple(per_index))
