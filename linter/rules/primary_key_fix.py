"""The ALTER TABLE clauses that give a table a primary key: the one way innolint writes them.

no-primary-key gives them to an InnoDB table clustered on the hidden row id; non-innodb-engine adds
them to the ENGINE=InnoDB of a MyISAM (Aria, MEMORY ...) table that has no key InnoDB could cluster
on, which would otherwise move to InnoDB onto the hidden row id without a word. Both must write the
same key for the same table, so it lives here, beside the rule API, not in either rule.
"""

from __future__ import annotations

from linter.rules.checkapi import quote
from linter.parse.elements import LARGE_TYPES, SPATIAL_TYPES, Index
from linter.schema.model import Table
from linter.schema.target import Target


def promotable_key(table: Table) -> tuple[Index, str] | None:
    """A key that could become the primary key: a unique key on whole stored columns (its nullable
    columns become NOT NULL; one that could cluster the table first), else a key on the
    AUTO_INCREMENT column; with the note the message gives (the NULLs that make it fail)."""
    clustering = [index for index in table.indexes if table.can_cluster(index)]
    for index in [*clustering, *(index for index in table.indexes if index not in clustering)]:
        if index.kind != "unique" or (index.long_hash and index.using != "HASH"):
            continue  # (a key too wide for a B-tree is too wide for a PRIMARY KEY: error 1071)
        parts_ok = all(p.prefix is None and not p.expression for p in index.columns)
        columns = [table.column(p.name) for p in index.columns]
        # a whole TEXT/BLOB/JSON or spatial column cannot be a PRIMARY KEY part (error 1170)
        if parts_ok and all(c is not None and c.generated != "virtual" and c.type not in LARGE_TYPES
                            and c.type not in SPATIAL_TYPES for c in columns):
            nullable = [c.name for c in columns if c is not None and c.nullable]
            note = (
                f"ADD PRIMARY KEY makes {', '.join(nullable)} NOT NULL and fails while any row holds NULL there."
                if nullable else ""
            )
            return index, note
    for column in table.columns.values():
        if column.auto_increment:
            for index in table.indexes:
                if index.column_names[:1] == (column.name,) and len(index.columns) == 1:
                    return index, ""
    return None


def primary_key_clauses(table: Table, target: Target) -> tuple[list[str], str]:
    """The clauses of an ALTER TABLE that give `table` a primary key, and a note for the message:
    an existing unique key (or the AUTO_INCREMENT column's key) promoted, else a new
    `BIGINT UNSIGNED AUTO_INCREMENT` column, INVISIBLE where the target has invisible columns; the
    partitioning columns joined to the key (every unique key must hold them: error 1503)."""
    partitioning = table.partition_columns
    promotable = promotable_key(table)
    if promotable is not None:
        index, note = promotable
        names = [*index.column_names, *(c for c in partitioning if c.lower() not in {k.lower() for k in index.column_names})]
        columns = ", ".join(quote(c) for c in names)
        clauses = [f"DROP INDEX {quote(index.name)}"] if index.name and index.kind == "unique" else []
        return [*clauses, f"ADD PRIMARY KEY ({columns})"], note
    column = "id"
    n = 1
    while table.column(column) is not None:
        column = f"id{n}" if column != "id" else "row_id"
        n += 1
    invisible = " INVISIBLE" if target.has_invisible_columns else ""
    if not partitioning:
        return [f"ADD COLUMN {quote(column)} BIGINT UNSIGNED NOT NULL AUTO_INCREMENT{invisible} PRIMARY KEY FIRST"], ""
    key = ", ".join(quote(c) for c in [column, *partitioning])
    return ([f"ADD COLUMN {quote(column)} BIGINT UNSIGNED NOT NULL AUTO_INCREMENT{invisible} FIRST",
             f"ADD PRIMARY KEY ({key})"],
            f"The table is partitioned, so the key also holds the partitioning column"
            f"{'s' if len(partitioning) > 1 else ''} {', '.join(partitioning)}.")
