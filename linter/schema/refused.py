"""The statements the replay refuses for what a check reports, kept with the table as the
statement would have left it: they change nothing in the model, and the check (index-key-length
for a key, row-size-limit for a column's or the row's length) reports each at its statement
(`SchemaModel.refused_keys`, `SchemaModel.refused_lengths`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from linter.record import Record

if TYPE_CHECKING:
    from linter.schema.elements import Index, Location
    from linter.schema.model import Table


class RefusedKey(Record):
    """A key the server cannot build, and so the statement it refuses (`SchemaModel.refused_keys`)."""

    __slots__ = __match_args__ = ("table", "index", "where")
    table: Table  # as the statement would have left it
    index: Index
    where: Location  # the statement

    def __init__(self, table: Table, index: Index, where: Location) -> None:
        self.table = table
        self.index = index
        self.where = where


class RefusedLength(Record):
    """A column too long for its type (error 1074) or a row too long for the server (1118), and so
    the statement the server refuses (`SchemaModel.refused_lengths`)."""

    __slots__ = __match_args__ = ("table", "where", "row_bytes", "like")
    #: the table as the statement would have left it, for the row-size-limit check to report (an
    #: ALTER TABLE refused for a column: that column alone, with the table's options)
    table: Table
    where: Location  # the statement
    #: a repeat: one more ALTER refused for the row of a table that has not changed since the one
    #: at `like` (`CheckedRefusals._refused_row`): `table` holds only the statement's columns, and
    #: `row_bytes` is the row it would have made
    row_bytes: int
    like: Location | None

    def __init__(self, table: Table, where: Location, row_bytes: int = 0, like: Location | None = None) -> None:
        self.table = table
        self.where = where
        self.row_bytes = row_bytes
        self.like = like
