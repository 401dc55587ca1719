"""A dump's repeated schema blocks replayed once: what a template did, done again for each repeat.

In a schema-per-tenant dump each tenant's block (`linter.input.tenant_blocks`) is the same text
but for the schema's name and its tables' counters, and the splitter hands a repeat on as one
`BlockMark` instead of its statements (`linter.input.splitter.repeats`). Replaying a template
block leaves a schema made of nothing but what its text says; a repeat leaves the same schema
under its own name, with its own counters, its statements on lines shifted by as many. So the
template's effect is recorded (`Templates.end`) and for a repeat the schema and its tables are
made directly (`Templates.repeat`): the tables share the template tables' definitions, as the
parse cache makes them share one already, and each gets its own place and counter.

Only where that is exactly what the statements would do. A template is recorded when its block
is nothing but mysqldump's schema header and table structure:
- `CREATE DATABASE name` then `USE name`, its name, for a database the input did not have yet,
  and no other statement naming it;
- otherwise CREATE TABLE (no TEMPORARY, LIKE, SELECT, schema-qualified name or foreign key to
  another database, no view stand-in) and DROP TABLE IF EXISTS of unqualified names, and
  statements innolint skips (SET, LOCK, INSERT ...);
- every statement replayed without a word (no diagnostic, no refusal kept, no tablespace, view
  or other side effect), no suppression, and the schema holding exactly the tables it created,
  each with one counter per `AUTO_INCREMENT=` the block has.
A repeat is replayed so only for a database the input does not have yet (`accepts`); the
splitter splits any other block, and the engine replays its statements one by one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from linter.parse import ops
from linter.parse.elements import Location
from linter.schema.model import AS_BODY, Table
from linter.schema.refused import CannotFollow, Refusal
from linter.server.replay import Replayer
from linter.input.statement import BlockMark, Statement, TenantBlock


class _Effect:
    """What a template block did: its header's places and database options, and its tables in
    order, each with the index of its counter among the block's counters (None: none)."""

    __slots__ = ("line", "header", "tables", "statements")

    def __init__(self, line: int, header: list[tuple[Statement, ops.SchemaStatement]],
                 tables: list[tuple[str, Table, int | None]], statements: int) -> None:
        self.line = line
        self.header = header  # CREATE DATABASE, USE
        self.tables = tables
        self.statements = statements


class Templates:
    """The templates of one file's blocks (see the module docstring), for one replayer."""

    def __init__(self, replayer: Replayer, path: str) -> None:
        self.replayer = replayer
        self.path = path
        self.effects: dict[int, _Effect] = {}
        #: the block being recorded: (its start mark, whether its database was new, the replayer's
        #: side effects then), and the statements replayed since with their operations
        self._open: tuple[BlockMark, bool, tuple[int, ...]] | None = None
        self.recorded: list[tuple[Statement, object]] = []

    @property
    def recording(self) -> bool:
        return self._open is not None

    def start(self, mark: BlockMark) -> None:
        self._open = (mark, self.replayer.model.find_schema(mark.name) is None, self.replayer.side_effects())
        self.recorded = []

    def end(self, mark: BlockMark, quiet: bool) -> None:
        """The template's statements were replayed (`quiet`: without a diagnostic or a
        suppression): record what they did, when it is what the module docstring says."""
        opened, self._open = self._open, None
        recorded, self.recorded = self.recorded, []
        if opened is None or opened[0].template != mark.template or not (mark.ok and quiet and opened[1]):
            return
        if self.replayer.side_effects() != opened[2]:
            return
        effect = self._effect(mark, recorded)
        if effect is not None:
            self.effects[mark.template] = effect

    def accepts(self, block: TenantBlock) -> bool:
        """Whether a repeat of a recorded template can be replayed as one (its database is new)."""
        return block.template in self.effects and self.replayer.model.find_schema(block.name) is None

    def repeat(self, mark: BlockMark) -> list[tuple[Statement, Refusal | CannotFollow]]:
        """Replay a repeat: its database and tables made as the template made its own. Returns what
        the replay said of its header's statements (nothing: `accepts` made sure the database is new)."""
        effect = self.effects[mark.template]
        shift = mark.line - effect.line
        replayer = self.replayer
        name = mark.name
        said: list[tuple[Statement, Refusal | CannotFollow]] = []
        for statement, op in effect.header:
            moved = Location(self.path, statement.line + shift, statement.column, statement.end_line + shift)
            problem = replayer.apply(ops.SchemaStatement(op.action, name, op.charset, op.collation), moved)
            if problem is not None:
                said.append((statement._replace(line=moved.line, end_line=moved.end_line), problem))
        schema = replayer.model.schema(name)
        tables = schema.tables
        counters = mark.counters
        stored = schema.name
        for key, template, counter in effect.tables:
            tables[key] = template.copy_in(stored, shift, AS_BODY if counter is None else counters[counter])
        return said

    def _effect(self, mark: BlockMark, recorded: list[tuple[Statement, object]]) -> _Effect | None:
        name = mark.name
        header: list[tuple[Statement, ops.SchemaStatement]] = []
        created: list[str] = []
        named = re.compile(rf"(?<![A-Za-z0-9_$]){re.escape(name)}(?![A-Za-z0-9_$])").search
        for statement, op in recorded:
            kind = op.__class__
            if kind is ops.Skipped or kind is ops.Dynamic and op.kind == "SET":  # type: ignore[attr-defined]
                continue  # (mysqldump's `SET @saved_cs_client = @@character_set_client` of each table)
            if kind is ops.SchemaStatement:
                if len(header) > 1 or created or op.name != name or op.action != ("use" if header else "create"):  # type: ignore[attr-defined]
                    return None
                header.append((statement, op))  # type: ignore[arg-type]
                continue
            if len(header) < 2 or statement.packet or named(statement.text):
                return None
            if kind is ops.CreateTable:
                if (op.temporary or op.like is not None or op.as_select or op.name.schema is not None  # type: ignore[attr-defined]
                        or op.refused is not None or op.or_replace or statement.executable == "50001"  # type: ignore[attr-defined]
                        or any(fk.ref_schema is not None for fk in op.body.foreign_keys)):  # type: ignore[attr-defined]
                    return None  # (a foreign key to another database: what that holds may change)
                created.append(op.name.name)  # type: ignore[attr-defined]
            elif kind is ops.DropTable:
                if op.temporary or not op.if_exists or any(n.schema is not None for n in op.names):  # type: ignore[attr-defined]
                    return None
            else:
                return None
        schema = self.replayer.model.find_schema(name)
        if len(header) != 2 or schema is None or schema.temporary or len(schema.tables) != len(created):
            return None
        tables: list[tuple[str, Table, int | None]] = []
        counters = 0
        for (key, table), written in zip(schema.tables.items(), created):
            if table.name != written or not _plain(table):
                return None
            counter = None
            if table.auto_increment is not None:
                if counters >= len(mark.counters) or mark.counters[counters] != table.auto_increment:
                    return None
                counter, counters = counters, counters + 1
            table.share_body()  # the template's tables and every copy share it: copied before a change
            tables.append((key, table, counter))
        if counters != len(mark.counters):
            return None
        return _Effect(mark.line, header, tables, len(recorded))


def _plain(table: Table) -> bool:
    """Nothing of the table was placed anywhere but at its CREATE TABLE."""
    if table.temporary or table.view_standin or table.key_dropped is not None or table.options_where:
        return False
    if table.changed != table.defined:
        return False
    body = table.body
    parts: Sequence[object] = (*body.columns.values(), *body.indexes, *body.foreign_keys)
    return all(getattr(part, "where", None) is None for part in parts)

