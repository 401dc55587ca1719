"""What a statement the target runs does to a table that has rows (`linter.schema.refused.Alteration`):
the algorithm and lock an ALTER TABLE runs with (`online_alter.cost`), the columns it drops, the
column changes that lose values (`linter.schema.value_ranges.loss`), and the tables a DROP TABLE
drops. Kept in `SchemaModel.alterations` only when the statement blocks or loses something, for
blocking-alter and destructive-change; the checks decide whether the table had rows.

Costs what the statement names: the online cost reads the plan's operations and the table's keys
(at most 64), and only a CONVERT TO reads every column.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from linter.parse import ops
from linter.schema.innodb_sizes import column_charset
from linter.schema.refused import Alteration, ColumnChange, Operation
from linter.schema.value_ranges import loss
from linter.server.online_alter import Request, cost

if TYPE_CHECKING:
    from linter.parse.elements import Column, Index, Location
    from linter.schema.model import Table
    from linter.schema.target import Target

#: ALGORITHM= / LOCK= written inside a part without a comma (`ENGINE=InnoDB ALGORITHM=INPLACE`)
_CLAUSE = re.compile(r"\s+(?:ALGORITHM|LOCK)\s*=?\s*\w+", re.IGNORECASE)


def written_actions(op: object) -> tuple[str, ...]:
    """The statement's parts as SQL for a fix, without ALGORITHM= and LOCK=: an ALTER TABLE's as
    written, a CREATE / DROP INDEX's as the ALTER TABLE action it is."""
    if isinstance(op, ops.AlterTable):
        return tuple(_CLAUSE.sub("", text) for text in op.texts)
    if isinstance(op, ops.CreateIndex):
        return (f"ADD {index_sql(op.index)}",)
    if isinstance(op, ops.DropIndexStatement):
        return (f"DROP INDEX {_quote(op.name)}",)
    return ()


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def index_sql(index: Index) -> str:
    """`KEY name (parts)` as an ALTER TABLE ... ADD writes it."""
    parts = []
    for part in index.columns:
        text = (part.name if part.name.startswith("(") else f"({part.name})") if part.expression else (
            _quote(part.name) + (f"({part.prefix})" if part.prefix is not None else ""))
        parts.append(text + (" DESC" if part.descending else ""))
    head = {"primary": "PRIMARY KEY", "unique": "UNIQUE KEY", "index": "KEY", "fulltext": "FULLTEXT KEY",
            "spatial": "SPATIAL KEY"}[index.kind]
    name = f" {_quote(index.name)}" if index.name and index.kind != "primary" else ""
    return f"{head}{name} ({', '.join(parts)})"


class Before:
    """What an ALTER TABLE's record needs of the table before it is applied: its cost, the columns
    it drops, and the columns it redefines with their character sets (`capture`); the changes are
    judged once the new columns exist (`record`)."""

    __slots__ = ("cost", "dropped", "changed", "foreign_keys", "defined", "schema", "name", "parts")

    def __init__(self, cost: tuple[str, str, list[Operation]] | None, dropped: tuple[Column, ...],
                 changed: list[tuple[Column, str | None, str]], table: Table, foreign_keys: bool,
                 parts: tuple[tuple[str, tuple[str, str] | None], ...] = ()) -> None:
        self.cost = cost
        self.parts = parts
        self.dropped = dropped
        self.changed = changed  # (old column, its character set, its new name)
        self.foreign_keys = foreign_keys
        self.defined = table.defined
        self.schema = table.schema
        self.name = table.name


#: the cost of some of a statement's actions run alone on the table as it is (None: refused alone)
PartCost = Callable[[tuple[ops.AlterAction, ...], Request], "tuple[str, str, list[Operation]] | None"]


def capture(plan: Any, request: Request | None, target: Target, op: object = None,
            part_cost: PartCost | None = None) -> Before | None:
    """The record's parts of `plan` (`linter.server.alter_table.TableAlter`, checked and not yet applied);
    `op`, `part_cost`: for a statement that blocks, what each of its written parts needs alone."""
    table = plan.table
    if table.temporary:
        return None
    found = cost(plan, request or Request(), target)
    draft = plan.draft
    dropped: tuple[Column, ...] = ()
    changed: list[tuple[Column, str | None, str]] = []
    if draft is not None:
        dropped = tuple(c for key in plan.drops if key not in plan.readded and (c := draft.column(key)) is not None)
        schema = plan.schema
        for old, column, defines in plan.changes:
            before = draft.column(old)
            if before is not None and defines:
                changed.append((before, _charset_name(before, table, target, schema), column.name))
        if plan.charsets.convert is not None:
            redefined = {old for old, _, defines in plan.changes if defines}
            for key, column in list(draft.column_ids.items()):
                before = draft.column(key)
                if before is not None and key not in redefined and key not in plan.drops:
                    charset = _charset_name(before, table, target, schema)
                    if charset is not None:
                        changed.append((before, charset, before.name))
    blocks = found is not None and any(o.blocks for o in found[2])
    if not (blocks or dropped or changed):
        return None
    parts: tuple[tuple[str, tuple[str, str] | None], ...] = ()
    if blocks and part_cost is not None and isinstance(op, ops.AlterTable) and len(op.texts) > 1:
        parts = _parts(op, part_cost)
        if draft is not None:  # (a part without a draft of its own read the table's views: they follow the draft again)
            table.writable().draft(table.name)
    # (the draft's, not the table's: reading a view while a draft is open settles it before the statement)
    foreign_keys = bool(draft.foreign_keys) if draft is not None else bool(table.body.foreign_keys)
    return Before(found, dropped, changed, table, foreign_keys, parts)


def _parts(op: ops.AlterTable, part_cost: PartCost) -> tuple[tuple[str, tuple[str, str] | None], ...]:
    """Each written part of the statement with the algorithm and lock it needs alone."""
    words = iter(word for word in op.unmodelled if word != "CONVERT TO")
    found = []
    for number, text in enumerate(written_actions(op)):
        actions = tuple(a for a, part in zip(op.actions, op.parts) if part == number)
        unmodelled = () if actions else tuple(w for w in [next(words, None)] if w is not None)
        alone = part_cost(actions, Request(unmodelled=unmodelled)) if actions or unmodelled else None
        found.append((text, (alone[0], alone[1]) if alone is not None else None))
    return tuple(found)


def record(before: Before, table: Table, target: Target, schema: Any, where: Location, statement: str,
           actions: tuple[str, ...], request: Request | None) -> Alteration | None:
    """The statement's record, `table` as it left it; None when it neither blocks nor loses."""
    losses = []
    for old, old_charset, name in before.changed:
        new = table.column(name)
        if new is None:
            continue
        new_charset = _charset_name(new, table, target, schema)
        lost = loss(old, new, old_charset, new_charset)
        if lost is not None:
            losses.append(ColumnChange(old, new, lost))
    algorithm, lock, operations = before.cost if before.cost is not None else ("INSTANT", "NONE", [])
    if not (before.dropped or losses or any(o.blocks for o in operations)):
        return None
    return Alteration(where, before.schema, before.name, before.defined, statement, actions,
                      _requested(request),
                      algorithm, lock, tuple(operations), before.dropped, tuple(losses),
                      foreign_keys=before.foreign_keys, parts=before.parts)


def _requested(request: Request | None) -> tuple[str | None, str | None]:
    """The ALGORITHM= and LOCK= asked for (MariaDB's ALTER ONLINE is LOCK=NONE)."""
    if request is None:
        return None, None
    lock = "NONE" if request.online and request.lock in (None, "DEFAULT") else request.lock
    return request.algorithm, lock


def dropped_table(table: Table, where: Location, statement: str) -> Alteration:
    """A DROP TABLE of a table the model has."""
    return Alteration(where, table.schema, table.name, table.defined, statement, drops_table=True,
                      foreign_keys=bool(table.foreign_keys))


def _charset_name(column: Column, table: Table, target: Target, schema: Any) -> str | None:
    found = column_charset(column, table, target, schema)
    return found.charset if found is not None else None
