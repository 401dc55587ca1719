"""What a statement's replay comes back with: the one place the server emulator's messages become
typed records (`linter.schema.refused`).

Inside the emulator a statement's handler says what happens as a message: a plain string for a
statement the target refuses (its text names the server's error, `(error 1060)`), a `Doubt` where
innolint cannot tell what the server does (an ALTER whose ALGORITHM= it cannot judge, a CREATE ...
SELECT whose columns it cannot tell), a `LostTrack` where it cannot follow the server at all
(dynamic SQL, CALL: the schema after it is unknown), a `Missing` for a statement naming a table
the input never defined (a partial input: the server may have it), and a `CheckedRefusal` for a
refusal a check reports itself (a key too long, a column or row too long), with the table as the
statement would have left it. `Outcomes.of` turns each into a `Refusal` (kept in
`SchemaModel.refusals`) or a `CannotFollow` (reported by the engine as a diagnostic).

Nothing downstream of what innolint could not follow is called refused: after a `LostTrack` (or
the engine's `lose_track`, a packet the server may stop half-way) every refusal of the unit, and
after a `Doubt` every refusal of a statement naming the same table, becomes a `CannotFollow`
("unjudged") that says why.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from linter.parse import ops
from linter.schema.refused import CannotFollow, Refusal

if TYPE_CHECKING:
    from linter.parse.elements import Index, Location
    from linter.schema.model import SchemaModel, Table
    from linter.schema.target import Target

__all__ = ["KINDS", "CheckedRefusal", "Doubt", "LostTrack", "Missing", "Outcomes", "errno_of", "statement_head"]


class Doubt(str):
    """innolint cannot tell what the server does with this statement, or leaves of its table."""

    __slots__ = ()


class LostTrack(Doubt):
    """innolint cannot follow the server from here on (dynamic SQL, CALL ...)."""

    __slots__ = ()


class Missing(str):
    """The statement names a table (or view, or database) the input never defined."""

    __slots__ = ()


class CheckedRefusal(str):
    """A refusal a check reports itself: `kind` ("key-length", "row-size"), the table as the
    statement would have left it, the key, and what the deciding check made of it (`detail`)."""

    def __new__(cls, message: str, kind: str, table: Table | None = None, index: Index | None = None,
                detail: object | None = None) -> CheckedRefusal:
        made = super().__new__(cls, message)
        made.kind, made.table, made.index, made.detail = kind, table, index, detail
        return made

    kind: str
    table: Table | None
    index: Index | None
    detail: object | None


#: what a refusal is about, by the server's error number (any other: "definition")
KINDS: dict[int, str] = {
    **dict.fromkeys((1845, 1846, 1800, 1801), "online-ddl"),  # ALGORITHM= / LOCK= the target cannot honour
    **dict.fromkeys((1050, 1060, 1061, 1068, 1826, 1007, 1022), "exists"),  # a name given twice
    **dict.fromkeys((1054, 1091, 1072, 1146, 1049, 1176, 1051, 1347, 1965, 1505, 1025, 1450), "unknown"),
    **dict.fromkeys((1071, 1709, 1170, 1089, 1167, 1252), "key-length"),  # keys the server cannot build
    **dict.fromkeys((1074, 1118, 1117), "row-size"),  # a column or row too long
    **dict.fromkeys((1067, 1364, 1101), "default"),  # a default the column cannot hold
    1064: "syntax",  # a syntax the target lacks
}

_ERRNO = re.compile(r"\berror (\d{3,4})\b", re.IGNORECASE)


def errno_of(message: str) -> int | None:
    """The server's error number a refusal's message names (the first it names)."""
    found = _ERRNO.search(message)
    return int(found.group(1)) if found else None


def _label(name: ops.Name) -> str:
    return f"{name.schema}.{name.name}" if name.schema is not None else name.name


def statement_head(op: object) -> str:
    """The statement as messages name it: `ALTER TABLE db.t`, `DROP TABLE a, b` ..."""
    kind = op.__class__
    if kind is ops.CreateTable:
        return f"CREATE TABLE {_label(op.name)}"  # type: ignore[attr-defined]
    if kind is ops.AlterTable:
        return f"ALTER TABLE {_label(op.name)}"  # type: ignore[attr-defined]
    if kind is ops.CreateIndex:
        return f"CREATE INDEX {op.index.name or ''} ON {_label(op.table)}".replace("INDEX  ON", "INDEX ON")  # type: ignore[attr-defined]
    if kind is ops.DropIndexStatement:
        return f"DROP INDEX {op.name} ON {_label(op.table)}"  # type: ignore[attr-defined]
    if kind is ops.DropTable:
        return f"DROP TABLE {', '.join(_label(n) for n in op.names)}"  # type: ignore[attr-defined]
    if kind is ops.RenameTable:
        return "RENAME TABLE " + ", ".join(f"{_label(a)} TO {_label(b)}" for a, b in op.pairs)  # type: ignore[attr-defined]
    if kind is ops.SchemaStatement:
        return f"{op.action.upper()} DATABASE {op.name or ''}".strip() if op.action != "use" else f"USE {op.name}"  # type: ignore[attr-defined]
    if kind in (ops.CreateView, ops.DropView):
        names = [op.name] if kind is ops.CreateView else op.names  # type: ignore[attr-defined]
        return f"{'CREATE' if kind is ops.CreateView else 'DROP'} VIEW {', '.join(_label(n) for n in names)}"
    if kind is ops.Dynamic:
        return op.kind  # type: ignore[attr-defined]
    if kind in (ops.CreateProcedure, ops.DropProcedure):
        return f"{'CREATE' if kind is ops.CreateProcedure else 'DROP'} PROCEDURE {_label(op.name)}"  # type: ignore[attr-defined]
    return kind.__name__


def _names(op: object) -> list[ops.Name]:
    """The tables a statement names (the first: the one it is about)."""
    kind = op.__class__
    if kind in (ops.CreateTable, ops.AlterTable):
        names = [op.name]  # type: ignore[attr-defined]
        if kind is ops.CreateTable and op.like is not None:  # type: ignore[attr-defined]
            names.append(op.like)  # type: ignore[attr-defined]
        if kind is ops.AlterTable:
            names.extend(a.target for a in op.actions if isinstance(a, ops.RenameTo))  # type: ignore[attr-defined]
        return names
    if kind in (ops.CreateIndex, ops.DropIndexStatement):
        return [op.table]  # type: ignore[attr-defined]
    if kind is ops.DropTable:
        return list(op.names)  # type: ignore[attr-defined]
    if kind is ops.RenameTable:
        return [name for pair in op.pairs for name in pair]  # type: ignore[attr-defined]
    return []


class Outcomes:
    """Turns what the emulator said of each statement into records, for one replay (one unit).
    `claims`: kind -> the rule that reports refusals of that kind itself (the engine gives the
    rules that run), for a `CheckedRefusal`."""

    def __init__(self, model: SchemaModel, target: Target, claims: dict[str, str] | None = None) -> None:
        self.model = model
        self.target = target
        self.claims = claims or {}
        #: where innolint lost track of the server (None: it has not), and what it was
        self.lost: tuple[Location, str] | None = None
        #: tables a statement innolint could not judge named, (folded database, folded table) -> where
        self.doubted: dict[tuple[str | None, str], Location] = {}

    def lose_track(self, where: Location, what: str) -> None:
        """From here on innolint cannot tell the schema the server has (`what`: the statement)."""
        if self.lost is None:
            self.lost = (where, what)

    def withdraw(self, since: Location, what: str) -> list[CannotFollow]:
        """The refusals of `since`'s file from its line on, taken back: innolint learnt afterwards
        that it could not follow the server there (`what`, e.g. DDL run only under a condition). They
        leave the model's refusals and come back as what to say instead; none after is claimed."""
        self.lose_track(since, what)
        refusals = self.model.refusals
        taken: list[CannotFollow] = []
        while refusals and refusals[-1].where.path == since.path and refusals[-1].where.line >= since.line:
            refusal = refusals.pop()
            taken.append(CannotFollow("unjudged", f"{refusal.message}; innolint does not call it refused: it could not "
                                                  f"follow the server at {since.at} ({what})", refusal.where))
        return taken[::-1]

    def _keys(self, op: object, current: str | None) -> list[tuple[str | None, str]]:
        fold = self.model.key
        return [(fold(n.schema) if n.schema is not None else (fold(current) if current else None), fold(n.name))
                for n in _names(op)]

    def of(self, said: str, op: object, where: Location, current: str | None) -> Refusal | CannotFollow:
        kind = said.__class__
        if kind is LostTrack:
            self.lose_track(where, statement_head(op))
            return CannotFollow("unfollowed", said, where)
        if kind is Doubt:
            for key in self._keys(op, current):
                self.doubted.setdefault(key, where)
            return CannotFollow("uncertain", said, where)
        if kind is Missing:
            return CannotFollow("undefined", said, where)
        message = str(said)
        keys = self._keys(op, current)
        since = self.lost[0] if self.lost is not None else next(
            (self.doubted[key] for key in keys if key in self.doubted), None) if self.doubted else None
        if since is not None:
            return CannotFollow("unjudged", f"{message}; innolint does not call it refused: it could not follow the "
                                            f"server at {since.at}, so the schema here may differ from its model", where)
        errno = errno_of(message)
        names = _names(op)
        first = names[0] if names else None
        schema = (first.schema if first.schema is not None else current) if first is not None else None
        if kind is CheckedRefusal:
            refusal = Refusal(errno, said.kind, message, where, self.target.label, statement_head(op), schema,  # type: ignore[attr-defined]
                              first.name if first is not None else None, said.table, said.index, said.detail,  # type: ignore[attr-defined]
                              self.claims.get(said.kind))  # type: ignore[attr-defined]
        else:
            refusal = Refusal(errno, KINDS.get(errno, "definition") if errno is not None else "definition", message,
                              where, self.target.label, statement_head(op), schema,
                              first.name if first is not None else None)
        self.model.refusals.append(refusal)
        return refusal
