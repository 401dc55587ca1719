"""Keys the server cannot build, judged while replaying, so that the statement that asks for one
changes nothing, as on the server.

The decision (a key too long for InnoDB, a TEXT/BLOB part without a prefix, a JSON part on
MySQL ...) is the index-key-length check's (`checks.index_key_length.key_problem`): the engine
hands it to the replay (`KeyJudge`), which then refuses the CREATE TABLE, ALTER TABLE or CREATE
INDEX: its message is a `CheckedRefusal` (kind "key-length") holding the table as it would have
been, the key and the check's decision, which `linter.server.outcome` keeps in the model's refusal
record, where the check finds it and reports it with its fix (refused-ddl when the check does not
run). Before, the model kept the refused key, and the finding went with the table when a later
statement dropped it (the differential's refused-key-finding-lost).
"""

from __future__ import annotations

from dataclasses import replace

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from linter.schema.model import Schema, Table
from linter.parse.body import TableBody
from linter.schema.key_facts import may_be_too_long
from linter.server.outcome import CheckedRefusal

if TYPE_CHECKING:
    from linter.parse.elements import Index, Location, TableOptions

__all__ = ["KeyJudge"]

#: the refusal of a key on a table by the index-key-length check (its decision: an object whose
#: `message` says why), else None
Decide = Callable[[Table, "Index", "Schema | None"], Any]


class KeyJudge:
    """`decide` for each key a statement makes. A definition repeated in many tables (tenant
    dumps) is judged once for its character sets, engine and row format."""

    #: the most definitions remembered (then forgotten all at once: memory stays bounded)
    MOST = 100_000

    def __init__(self, decide: Decide) -> None:
        self.decide = decide
        self._known: dict[tuple[object, ...], tuple[object, int | None]] = {}

    def create(self, table: Table, schema: Schema | None, where: Location, statement: str) -> CheckedRefusal | None:
        """Why the server refuses the table a CREATE TABLE makes for one of its keys, or None."""
        body = table.body
        options = body.options
        seen = (id(body.indexes), id(body.columns), options.engine, options.charset, options.collation,
                options.row_format, schema.charset if schema else None, schema.collation if schema else None)
        known = self._known.get(seen)
        if known is None or known[0] is not body.indexes:
            # (the decision screens each key first: `key_facts.may_be_too_long` on the key as written)
            refused = next((n for n, index in enumerate(body.indexes) if self.decide(table, index, schema)), None)
            if len(self._known) >= self.MOST:
                self._known.clear()
            known = self._known[seen] = (body.indexes, refused)
        if known[1] is None:
            return None
        return self._refuse(table, body.indexes[known[1]], schema, statement)

    def alter(self, table: Table, keys: list[Index], column_of: Callable[[str], Any], schema: Schema | None,
              where: Location, statement: str, options: TableOptions | None = None) -> CheckedRefusal | None:
        """Why the server refuses an ALTER TABLE (or CREATE INDEX) for one of the `keys` it adds or
        changes, or None; `column_of`: a column of the table the statement builds, by lower-case
        name; `options`: the table's options after it (its new engine; None: as they are). Each key
        is judged on a table of its own columns (the cost of what it names)."""
        for index in keys:
            columns = {}
            parts = []
            for part in index.columns:
                column = None if part.expression else column_of(part.name.lower())
                if column is not None:  # (a key on a column CHANGEd names it by its old name: judged by its new one)
                    columns[column.name.lower()] = column
                    part = part if part.name == column.name else replace(part, name=column.name)
                parts.append(part)
            if tuple(parts) != tuple(index.columns):
                index = replace(index, columns=tuple(parts))
            if not may_be_too_long(index, columns.get):
                continue  # (before the table of its columns is built for the decision, which screens it again)
            built = Table(schema=table.schema, name=table.name, body=TableBody(columns, [index], [], options or table.body.options),
                          defined=table.defined, changed=where, temporary=table.temporary)
            if self.decide(built, index, schema):
                return self._refuse(built, index, schema, statement)
        return None

    def _refuse(self, table: Table, index: Index, schema: Schema | None, statement: str) -> CheckedRefusal:
        decision = self.decide(table, index, schema)
        return CheckedRefusal(f"{statement}: {decision.message}; the server refuses the whole statement", "key-length",
                              table, index, decision)
