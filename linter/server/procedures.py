"""Stored procedures and dynamic SQL run against the model, as the server runs them.

Migrations guard DDL with the server's catalogue (Netflix Conductor, Tencent bk-job, Apache
Fineract, OTOBO): a procedure `IF NOT EXISTS (SELECT ... FROM information_schema.statistics WHERE
...) THEN ALTER ...; END IF`, CALLed and dropped, or `SET @s = (SELECT IF((SELECT COUNT(*) FROM
information_schema.columns WHERE ...) > 0, 'SELECT 1', CONCAT('ALTER TABLE ...')))` then PREPARE
and EXECUTE. `Routines` keeps what the session holds (the procedures the input created, user
variables, prepared statements) and runs a CALL's body or an EXECUTE's text: conditions on
information_schema are answered from the model (`Catalogue`), the DDL they guard is replayed
through the `Replayer` like any other statement (so what it makes is in the model, and what the
server refuses is refused, at the CALL or EXECUTE), and innolint says it cannot follow only where
what runs depends on what the model does not hold: a table's rows, a system variable, a loop, a
function it does not know.

The body is read when a CALL runs it (`linter.parse.routines`), once per procedure. Values are
the server's: NULL is None, numbers int or Decimal, strings str; `Unknown` carries why innolint
cannot tell one, and spreads through what reads it. Strings compare as information_schema's
utf8 general collation compares them (case-insensitively), names of databases and tables as the
server's lower_case_table_names compares them (tests/test_procedures.py asks MariaDB).
"""

from __future__ import annotations

import decimal
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from linter.parse import ops
from linter.parse import routines as r
from linter.parse.statement import parse_statement
from linter.parse.tokens import ParseFailure
from linter.record import FrozenRecord
from linter.parse.elements import Column as ElementColumn
from linter.parse.elements import ForeignKey, Index
from linter.parse.body import TableBody
from linter.schema.refused import CannotFollow, Refusal
from linter.server.outcome import LostTrack, Missing

if TYPE_CHECKING:
    from linter.parse.elements import Column, Location
    from linter.schema.model import Table
    from linter.server.replay import Replayer

__all__ = ["UNFOLLOWED_PER_FILE", "UNNAMED_DATABASE", "Routines", "Unknown"]

#: statements innolint cannot follow (CALL, EXECUTE ...) reported per file and kind: each one, up to
#: this many (a generated file of thousands says it once per statement no more)
UNFOLLOWED_PER_FILE = 50
#: how deep CALLs nest before innolint stops following (the server's max_sp_recursion_depth is 0:
#: a procedure never calls itself; nested calls of others are rare)
_MAX_DEPTH = 16
#: DATABASE() where the input never chose one (no USE): a name no input spells, taken out of dynamic
#: SQL again before it is parsed, so `CONCAT(DATABASE(), '.', t)` names the table the input means
UNNAMED_DATABASE = "innolint_current_database_0f3c"
_unnamed = re.compile(rf"`?{UNNAMED_DATABASE}`?[ \t\r\n]*\.[ \t\r\n]*")


class Unknown(NamedTuple):
    """A value innolint cannot tell, and why."""

    why: str


class _Stop(Exception):
    """The procedure ends here: an error no handler takes (`record`), or innolint lost track (`why`)."""

    def __init__(self, record: Refusal | CannotFollow | None = None, why: str | None = None) -> None:
        super().__init__(why or "")
        self.record = record
        self.why = why


class _Leave(Exception):
    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.label = label.lower()


class _Scope:
    """A block's local variables and condition handlers, inside its caller's."""

    def __init__(self, parent: _Scope | None = None) -> None:
        self.parent = parent
        self.values: dict[str, object] = {}
        self.handlers: list[r.Handler] = []

    def find(self, name: str) -> _Scope | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.values:
                return scope
            scope = scope.parent
        return None


def _text(value: object) -> str | None | Unknown:
    """A value as the string the server makes of it (CONCAT's arguments)."""
    if value is None or value.__class__ is Unknown:
        return value  # type: ignore[return-value]
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _number(value: object) -> decimal.Decimal | None:
    """A value as a number (a string's leading number, as the server reads it: 'abc' is 0)."""
    if value is None:
        return None
    if isinstance(value, (int, decimal.Decimal)):
        return decimal.Decimal(value)
    if isinstance(value, float):
        return decimal.Decimal(repr(value))
    found = re.match(r"[ \t\n]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)", str(value))
    return decimal.Decimal(found.group(1)) if found else decimal.Decimal(0)


def _truth(value: object) -> object:
    """1, 0, None (NULL) or an Unknown: what IF and WHERE see."""
    if value is None or value.__class__ is Unknown:
        return value
    number = _number(value)
    return 1 if number else 0


def _compare(left: object, right: object) -> int | None:
    """-1, 0, 1, or None for NULL: strings case-insensitively (utf8 general), else as numbers."""
    if left is None or right is None:
        return None
    if isinstance(left, str) and isinstance(right, str):
        a, b = left.casefold().rstrip(" "), right.casefold().rstrip(" ")
    else:
        a, b = _number(left), _number(right)  # type: ignore[assignment]
    return (a > b) - (a < b)  # type: ignore[operator]


def _like(value: object, pattern: object) -> object:
    if value is None or pattern is None:
        return None
    out = []
    chars = iter(str(pattern))
    for char in chars:
        if char == "\\":
            out.append(re.escape(next(chars, "\\")))
        elif char == "%":
            out.append(".*")
        elif char == "_":
            out.append(".")
        else:
            out.append(re.escape(char))
    return 1 if re.fullmatch("".join(out), str(value), re.IGNORECASE | re.DOTALL) else 0


_AGGREGATES = frozenset({"COUNT", "MAX", "MIN", "SUM"})


def _aggregates(items: tuple[r.Expr, ...]) -> bool:
    return any(item.__class__ is r.Call and item.name in _AGGREGATES for item in items)  # type: ignore[union-attr]


class Routines:
    """The session's procedures, user variables and prepared statements, for one replay; `apply`
    runs a CALL, CREATE/DROP PROCEDURE, SET @v, PREPARE, EXECUTE or DEALLOCATE."""

    def __init__(self, replayer: Replayer) -> None:
        self.replayer = replayer
        #: (folded database, lower-case name) -> the CREATE PROCEDURE, where, its body once read
        self.procedures: dict[tuple[str | None, str], tuple[ops.CreateProcedure, Location, r.Procedure | str | None]] = {}
        self.variables: dict[str, object] = {}
        self.prepared: dict[str, object] = {}
        self.catalogue = Catalogue(replayer)
        #: the steps of the session statements read so far, by text (a dump repeats the same SETs)
        self._steps: dict[str, r.Step] = {}
        self._unfollowed: dict[tuple[str, str], int] = {}

    # -- the statements ---------------------------------------------------------------------
    def apply(self, op: ops.Operation, where: Location) -> Refusal | CannotFollow | None:
        kind = op.__class__
        if kind is ops.CreateProcedure:
            return self._create(op, where)  # type: ignore[arg-type]
        if kind is ops.DropProcedure:
            return self._drop(op, where)  # type: ignore[arg-type]
        assert kind is ops.Dynamic
        step = self._steps.get(op.text)  # type: ignore[attr-defined]
        if step is None:
            step = r.session_step(op.text)  # type: ignore[attr-defined]
            if len(self._steps) < 4096:
                self._steps[op.text] = step  # type: ignore[attr-defined]
        run = _Run(self, where, op, None, 0)
        try:
            run.step(step, _Scope())
        except _Stop as stop:
            if stop.record is not None:
                return stop.record
            return self._lost(op, where, stop.why or "")
        except _Leave:
            pass
        except RecursionError:
            return self._lost(op, where, "its blocks nest too deeply")
        except Exception as error:  # noqa: BLE001 - innolint's own failure on one statement: said there, the run goes on
            return self._lost(op, where, f"innolint failed running it: {type(error).__name__}: {error}")
        return run.result()

    def _lost(self, op: ops.Dynamic, where: Location, why: str) -> CannotFollow | None:
        seen = (where.path, op.kind)
        count = self._unfollowed[seen] = self._unfollowed.get(seen, 0) + 1
        if count > UNFOLLOWED_PER_FILE:
            self.replayer.outcomes.lose_track(where, op.kind)
            return None
        more = (f" (the last said of this file's {op.kind} statements: {UNFOLLOWED_PER_FILE} are enough to show it)"
                if count == UNFOLLOWED_PER_FILE else "")
        what = "a stored procedure" if op.kind == "CALL" else "dynamic SQL"
        said = LostTrack(f"{op.kind}: innolint cannot follow what {what} runs ({why}), so the schema after this "
                         f"statement may differ from the server's{more}")
        return self.replayer.outcomes.of(said, op, where, self.replayer.current_schema)  # type: ignore[return-value]

    def _key(self, name: ops.Name) -> tuple[str | None, str]:
        schema = name.schema if name.schema is not None else self.replayer.current_schema
        return (self.replayer.model.key(schema) if schema is not None else None, name.name.lower())

    def _create(self, op: ops.CreateProcedure, where: Location) -> Refusal | CannotFollow | None:
        key = self._key(op.name)
        if key in self.procedures and not op.or_replace:
            if op.if_not_exists:
                return None
            return self.replayer.outcomes.of(f"PROCEDURE {op.name.name} already exists (error 1304)", op, where,
                                             self.replayer.current_schema)
        self.procedures[key] = (op, where, None)
        return None

    def _drop(self, op: ops.DropProcedure, where: Location) -> Refusal | CannotFollow | None:
        if self.procedures.pop(self._key(op.name), None) is None and not op.if_exists:
            return self.replayer.outcomes.of(Missing(
                f"DROP PROCEDURE {op.name.name}: a procedure the input never created (the server refuses it with "
                "error 1305 unless it has it)"), op, where, self.replayer.current_schema)
        return None

    def body(self, database: str | None, name: str) -> tuple[r.Procedure | str, Location] | None:
        """The procedure CALL `database.name` runs (read once), or why it cannot be read; None: the
        input never created it."""
        schema = database if database is not None else self.replayer.current_schema
        key = (self.replayer.model.key(schema) if schema is not None else None, name.lower())
        found = self.procedures.get(key)
        if found is None:
            return None
        op, defined, program = found
        if program is None:
            try:
                program = r.procedure(op.text)
            except ParseFailure as failure:
                program = f"innolint cannot read the procedure's body: {failure.reason}"
            except RecursionError:
                program = "the procedure's body is nested too deeply"
            self.procedures[key] = (op, defined, program)
        return program, defined


#: the SQLSTATE of the errors DDL in a procedure meets, by error number (for a handler FOR SQLSTATE)
_SQLSTATES = {1050: "42S01", 1051: "42S02", 1054: "42S22", 1060: "42S21", 1061: "42000", 1062: "23000",
              1068: "42000", 1091: "42000", 1146: "42S02", 1826: "HY000", 1022: "23000", 1072: "42000",
              1005: "HY000", 1215: "HY000", 1452: "23000", 1007: "HY000", 1049: "42000"}


class _Run:
    """One CALL's (or session statement's) run: its records, and how deep it is."""

    def __init__(self, routines: Routines, where: Location, op: ops.Dynamic, procedure: str | None, depth: int) -> None:
        self.routines = routines
        self.replayer = routines.replayer
        self.where = where
        self.op = op
        self.procedure = procedure
        self.depth = depth
        #: what the run's statements said that is not an error that ends it (a table the input
        #: never defined, an ALTER innolint cannot judge): said at the CALL, together
        self.said: list[CannotFollow] = []

    def result(self) -> CannotFollow | None:
        if not self.said:
            return None
        first = self.said[0]
        if len(self.said) == 1:
            return first
        return CannotFollow(first.kind, "; ".join(s.message for s in self.said[:5]) + (
            f"; and {len(self.said) - 5} more" if len(self.said) > 5 else ""), first.where)

    # -- steps --------------------------------------------------------------------------------
    def step(self, step: r.Step, scope: _Scope) -> None:
        kind = step.__class__
        if kind is r.Block:
            inner = _Scope(scope)
            try:
                for item in step.steps:  # type: ignore[union-attr]
                    self.guarded(item, inner)
            except _Leave as leave:
                label = step.label  # type: ignore[union-attr]
                if leave.label != f"\x00{id(inner)}" and (label is None or leave.label != label.lower()):
                    raise
        elif kind is r.Declare:
            default = self.value(step.default, scope) if step.default is not None else None  # type: ignore[union-attr]
            for name in step.names:  # type: ignore[union-attr]
                scope.values[name.lower()] = default
        elif kind is r.Handler:
            scope.handlers.append(step)  # type: ignore[arg-type]
        elif kind is r.IfStep:
            for condition, branch in step.branches:  # type: ignore[union-attr]
                truth = _truth(self.value(condition, scope))
                if truth.__class__ is Unknown:
                    raise _Stop(why=f"innolint cannot tell an IF's condition: {truth.why}")  # type: ignore[union-attr]
                if truth:
                    self.step(branch, scope)
                    return
            if step.otherwise is not None:  # type: ignore[union-attr]
                self.step(step.otherwise, scope)  # type: ignore[union-attr]
        elif kind is r.Assign:
            for target, expression in step.pairs:  # type: ignore[union-attr]
                if target is None:
                    continue  # a system variable (SET autocommit = 0): the schema does not change
                value = self.value(expression, scope)
                self.assign(target, value, scope)
        elif kind is r.SelectStep:
            select = step.select  # type: ignore[union-attr]
            if select.__class__ is r.Opaque:
                raise _Stop(why=select.why)  # type: ignore[union-attr]
            row = self.select(select, scope)  # type: ignore[arg-type]
            if select.into:  # type: ignore[union-attr]
                if row.__class__ is Unknown:
                    for target in select.into:  # type: ignore[union-attr]
                        self.assign(target, row, scope)
                elif row is not None:
                    for target, value in zip(select.into, row):  # type: ignore[union-attr, arg-type]
                        self.assign(target, value, scope)
        elif kind is r.SqlStep:
            self.sql(step.text, scope)  # type: ignore[union-attr]
        elif kind is r.Prepare:
            value = self.value(step.source, scope)  # type: ignore[union-attr]
            self.routines.prepared[step.name.lower()] = value  # type: ignore[union-attr]
        elif kind is r.Execute:
            if step.source is not None:  # type: ignore[union-attr]
                text = self.value(step.source, scope)  # type: ignore[union-attr]
            else:
                name = step.name or ""  # type: ignore[union-attr]
                if name.lower() not in self.routines.prepared:
                    raise _Stop(why=f"EXECUTE of {name}, a statement this input did not PREPARE")
                text = self.routines.prepared[name.lower()]
            if text.__class__ is Unknown:
                raise _Stop(why=f"the statement it runs is not known: {text.why}")  # type: ignore[union-attr]
            if not isinstance(text, str):
                raise _Stop(why="the statement it runs is not a string")
            self.sql(_unnamed.sub("", text), scope, dynamic=True)
        elif kind is r.Deallocate:
            self.routines.prepared.pop(step.name.lower(), None)  # type: ignore[union-attr]
        elif kind is r.CallStep:
            self.call(step, scope)  # type: ignore[arg-type]
        elif kind is r.Leave:
            raise _Leave(step.label)  # type: ignore[union-attr]
        else:
            raise _Stop(why=step.why)  # type: ignore[union-attr]

    def guarded(self, step: r.Step, scope: _Scope) -> None:
        """A block's step, with the block's handlers: an error one of them takes is the handler's."""
        try:
            self.step(step, scope)
        except _Stop as stop:
            record = stop.record
            if record.__class__ is not Refusal:
                raise
            found = self.handler(record, scope)  # type: ignore[arg-type]
            if found is None:
                raise
            handler, owner = found
            refusals = self.replayer.model.refusals
            if refusals and refusals[-1] is record:
                refusals.pop()  # the server took the error: nothing refused
            if handler.body is not None:
                self.step(handler.body, scope)
            if handler.action == "EXIT":  # leaves the block that declared the handler
                raise _Leave(f"\x00{id(owner)}") from None

    def handler(self, refusal: Refusal, scope: _Scope | None) -> tuple[r.Handler, _Scope] | None:
        errno = refusal.errno
        state = _SQLSTATES.get(errno or 0)
        while scope is not None:
            for handler in scope.handlers:
                for condition in handler.conditions:
                    if condition == "SQLEXCEPTION" or condition == str(errno):
                        return handler, scope
                    if condition.startswith("SQLSTATE "):
                        if state is None:
                            raise _Stop(why=f"a handler FOR {condition}: innolint does not know the SQLSTATE of "
                                            f"error {errno}")
                        if condition.split(" ", 1)[1].strip("'\"") == state:
                            return handler, scope
            scope = scope.parent
        return None

    def assign(self, target: r.Local | r.UserVar, value: object, scope: _Scope) -> None:
        if target.__class__ is r.UserVar:
            self.routines.variables[target.name.lower()] = value
            return
        found = scope.find(target.name.lower())
        if found is None:
            return  # not a local variable: a system variable (SET autocommit = 0)
        found.values[target.name.lower()] = value

    def sql(self, text: str, scope: _Scope, dynamic: bool = False) -> None:
        """One statement of the body (or an EXECUTE's text) through the replay."""
        word = text.lstrip()[:10].split(None, 1)[0].upper() if text.strip() else ""
        if dynamic and word in ("SET", "PREPARE", "EXECUTE", "DEALLOCATE", "CALL", "SELECT"):
            self.step(r.session_step(text), scope)
            return
        try:
            op = parse_statement(text)
        except ParseFailure as failure:
            if failure.refused:
                record = self.replayer.outcomes.of(f"{_excerpt(text)}: {failure.reason}", self.op,
                                                   self.where, self.replayer.current_schema)
                raise _Stop(record=self.named(record)) from None
            raise _Stop(why=f"innolint cannot read `{_excerpt(text)}`: {failure.reason}") from None
        kind = op.__class__
        if kind is ops.Skipped:
            return  # INSERT, UPDATE, COMMIT ...: the schema does not change
        if kind in (ops.Dynamic, ops.CreateProcedure, ops.DropProcedure):
            raise _Stop(why=f"`{_excerpt(text)}` in a procedure")
        _at_the_call(op)
        record = self.replayer.apply(op, self.where)
        if record is None:
            return
        record = self.named(record)
        if record.__class__ is Refusal:
            raise _Stop(record=record)
        if record.kind == "unfollowed":  # type: ignore[union-attr]
            raise _Stop(record=record)
        if record.kind == "undefined" and self.procedure is not None:  # type: ignore[union-attr]
            # a table the input never defined: where the server has none either, the error ends
            # the procedure, so what the rest of the body does is not known
            self.replayer.outcomes.lose_track(self.where, self.procedure)
            record.message += ("; innolint does not follow the rest of the procedure, which the server stops here if "
                               "it has no such table")
            raise _Stop(record=record)
        self.said.append(record)  # type: ignore[arg-type]

    def named(self, record: Refusal | CannotFollow) -> Refusal | CannotFollow:
        """The record, saying which CALL or EXECUTE ran the statement."""
        if self.procedure is not None:
            record.message = f"{record.message} (run by {self.procedure})"
        elif self.op.kind in ("EXECUTE", "EXECUTE IMMEDIATE"):
            record.message = f"{record.message} (run by {self.op.kind})"
        return record

    def call(self, step: r.CallStep, scope: _Scope) -> None:
        found = self.routines.body(step.database, step.name)
        label = f"{step.database}.{step.name}" if step.database else step.name
        if found is None:
            raise _Stop(why=f"{label}, a procedure the input does not create")
        program, defined = found
        if isinstance(program, str):
            raise _Stop(why=program)
        if self.depth >= _MAX_DEPTH:
            raise _Stop(why=f"CALLs nested more than {_MAX_DEPTH} deep")
        params = program.params
        if len(params) != len(step.args):
            record = self.replayer.outcomes.of(
                f"CALL {label}: the procedure takes {len(params)} arguments, not {len(step.args)} (error 1318)",
                self.op, self.where, self.replayer.current_schema)
            raise _Stop(record=record)
        frame = _Scope()
        for (mode, param), arg in zip(params, step.args):
            frame.values[param.lower()] = self.value(arg, scope) if mode != "OUT" else None
        run = _Run(self.routines, self.where, self.op, f"CALL {label}, the procedure created at {defined.at}",
                   self.depth + 1)
        try:
            run.step(program.body, frame)
        except _Leave:
            pass
        finally:
            self.said.extend(run.said)

    # -- values -------------------------------------------------------------------------------
    def value(self, expr: r.Expr, scope: _Scope, row: dict[str, object] | None = None) -> object:
        kind = expr.__class__
        if kind is r.Const:
            return expr.value  # type: ignore[union-attr]
        if kind is r.Local:
            name = expr.name.lower()  # type: ignore[union-attr]
            found = scope.find(name)
            if found is not None:
                return found.values[name]
            if row is not None and name in row:
                return row[name]
            return Unknown(f"{expr.name}, a name innolint cannot tell the value of")  # type: ignore[union-attr]
        if kind is r.Column:
            name = expr.name.lower()  # type: ignore[union-attr]
            if row is not None and name in row:
                return row[name]
            return Unknown(f"the column {expr.name}")  # type: ignore[union-attr]
        if kind is r.UserVar:
            return self.routines.variables.get(expr.name.lower())  # type: ignore[union-attr]  # (unset: NULL)
        if kind is r.Opaque:
            return Unknown(expr.why)  # type: ignore[union-attr]
        if kind is r.Query:
            return self.query(expr, scope)  # type: ignore[arg-type]
        if kind is r.Op:
            return self.operator(expr, scope, row)  # type: ignore[arg-type]
        return self.function(expr, scope, row)  # type: ignore[arg-type]

    def operator(self, expr: r.Op, scope: _Scope, row: dict[str, object] | None) -> object:
        op = expr.op
        if op in ("AND", "OR"):
            left = _truth(self.value(expr.args[0], scope, row))
            if op == "AND" and left == 0 or op == "OR" and left == 1:
                return left
            right = _truth(self.value(expr.args[1], scope, row))
            if op == "AND" and right == 0 or op == "OR" and right == 1:
                return right
            for side in (left, right):
                if side.__class__ is Unknown:
                    return side
            return None if left is None or right is None else left
        values = [self.value(a, scope, row) for a in expr.args]
        for value in values:
            if value.__class__ is Unknown:
                return value
        if op == "NOT":
            truth = _truth(values[0])
            return None if truth is None else 1 - truth  # type: ignore[operator]
        if op == "IS NULL":
            return 1 if values[0] is None else 0
        if op == "<=>":
            if values[0] is None or values[1] is None:
                return 1 if values[0] is None and values[1] is None else 0
            return 1 if _compare(values[0], values[1]) == 0 else 0
        if op == "IN":
            if values[0] is None:
                return None
            found = [_compare(values[0], v) for v in values[1:]]
            return 1 if 0 in found else None if None in found else 0
        if op == "LIKE":
            return _like(values[0], values[1])
        if op == "XOR":
            a, b = _truth(values[0]), _truth(values[1])
            return None if a is None or b is None else a ^ b  # type: ignore[operator]
        if op in ("+", "-", "*", "/", "NEG"):
            numbers = [_number(v) for v in values]
            if None in numbers:
                return None
            if op == "NEG":
                return -numbers[0]  # type: ignore[operator]
            a, b = numbers
            if op == "/":
                return None if not b else a / b  # type: ignore[operator]
            return a + b if op == "+" else a - b if op == "-" else a * b  # type: ignore[operator]
        compared = _compare(values[0], values[1])
        if compared is None:
            return None
        return 1 if {"=": compared == 0, "<>": compared != 0, "<": compared < 0, "<=": compared <= 0,
                     ">": compared > 0, ">=": compared >= 0}[op] else 0

    def function(self, expr: r.Call, scope: _Scope, row: dict[str, object] | None) -> object:
        name = expr.name
        if name == "DATABASE" or name == "SCHEMA":
            current = self.replayer.current_schema
            return current if current is not None else UNNAMED_DATABASE
        if name == "IF":
            truth = _truth(self.value(expr.args[0], scope, row))
            if truth.__class__ is Unknown:
                return truth
            return self.value(expr.args[1] if truth else expr.args[2], scope, row)
        if name in ("IFNULL", "COALESCE"):
            for arg in expr.args:
                value = self.value(arg, scope, row)
                if value is not None:
                    return value
            return None
        if name in _AGGREGATES:
            return Unknown(f"{name}() outside a query of information_schema")
        values = [self.value(a, scope, row) for a in expr.args]
        for value in values:
            if value.__class__ is Unknown:
                return value
        if name == "CONCAT":
            texts = [_text(v) for v in values]
            return None if None in texts else "".join(texts)  # type: ignore[arg-type]
        if name == "CONCAT_WS":
            if not values or values[0] is None:
                return None
            return str(_text(values[0])).join(str(_text(v)) for v in values[1:] if v is not None)
        if name in ("LOWER", "LCASE", "UPPER", "UCASE", "TRIM", "LTRIM", "RTRIM") and len(values) == 1:
            text = _text(values[0])
            if text is None:
                return None
            return {"LOWER": str.lower, "LCASE": str.lower, "UPPER": str.upper, "UCASE": str.upper, "TRIM": str.strip,
                    "LTRIM": str.lstrip, "RTRIM": str.rstrip}[name](text)  # type: ignore[arg-type]
        if name == "NULLIF" and len(values) == 2:
            return None if _compare(values[0], values[1]) == 0 else values[0]
        if name in ("LENGTH", "CHAR_LENGTH", "CHARACTER_LENGTH") and len(values) == 1:
            text = _text(values[0])
            return None if text is None else len(text.encode() if name == "LENGTH" else text)  # type: ignore[union-attr]
        if name == "REPLACE" and len(values) == 3:
            texts = [_text(v) for v in values]
            return None if None in texts else texts[0].replace(texts[1], texts[2])  # type: ignore[union-attr, arg-type]
        return Unknown(f"the function {name}(), which innolint does not evaluate")

    # -- queries ------------------------------------------------------------------------------
    def query(self, expr: r.Query, scope: _Scope) -> object:
        if expr.mode == "exists":
            rows = self.rows(expr.select, scope)
            if rows.__class__ is Unknown:
                return rows
            return 1 if next(iter(rows), None) is not None else 0  # type: ignore[call-overload]
        row = self.select(expr.select, scope)
        if row is None or row.__class__ is Unknown:
            return row
        return row[0]  # type: ignore[index]

    def rows(self, select: r.Select, scope: _Scope) -> Iterator[dict[str, object] | None] | Unknown:
        """The rows a query's WHERE keeps (each a dict of its columns, None for a query of no table)."""
        if select.source is None:
            if select.where is None:
                return iter((None,))
            truth = _truth(self.value(select.where, scope))
            if truth.__class__ is Unknown:
                return truth  # type: ignore[return-value]
            return iter((None,) if truth else ())
        database, table = select.source
        if database is None or database.lower() != "information_schema":
            named = f"{database}.{table}" if database else table
            return Unknown(f"it reads the rows of {named}, which innolint does not have")
        source = self.routines.catalogue.table(table.lower())
        if source is None:
            return Unknown(f"information_schema.{table}, which innolint does not model")
        pins = self.pins(select.where, scope)
        named = pins.pop("\x00databases", ())
        model = self.replayer.model
        unnamed = model.find_schema(None)
        if unnamed is not None and unnamed.tables:
            for database in named:  # type: ignore[attr-defined]
                known = model.find_schema(database) if database != UNNAMED_DATABASE else unnamed
                if known is None or not known.tables and database != self.replayer.current_schema:
                    return Unknown(f"it asks information_schema about the database {database}, which may be the one "
                                   "the input's tables without a database are in (the input names none)")
        kept: list[dict[str, object]] = []
        for row in source(pins.get("table_schema"), pins.get("table_name")):
            if select.where is not None:
                truth = _truth(self.value(select.where, scope, row))
                if truth.__class__ is Unknown:
                    return truth  # type: ignore[return-value]
                if not truth:
                    continue
            kept.append(row)
        return iter(kept)

    def pins(self, where: r.Expr | None, scope: _Scope) -> dict[str, object]:
        """The table_schema and table_name a WHERE's ANDed equalities fix (so a query reads one table's
        rows), and under "\x00databases" the databases its ANDed conditions name."""
        pins: dict[str, object] = {}
        databases: list[str] = []  # the databases it names (a literal may be the input's unnamed one)
        stack = [where] if where is not None else []
        while stack:
            expr = stack.pop()
            if expr.__class__ is not r.Op:
                continue
            if expr.op == "AND":  # type: ignore[union-attr]
                stack.extend(expr.args)  # type: ignore[union-attr]
            elif expr.op in ("=", "LIKE"):  # type: ignore[union-attr]
                for column, other in (expr.args, expr.args[::-1]):  # type: ignore[union-attr]
                    if column.__class__ not in (r.Local, r.Column):
                        continue
                    name = column.name.lower()  # type: ignore[union-attr]
                    if column.__class__ is r.Local and scope.find(name) is not None:
                        continue  # a local variable of that name, not the column
                    if name.endswith("_schema") or name == "schema_name":
                        value = self.value(other, scope)
                        if isinstance(value, str):
                            databases.append(value)
                    if expr.op == "=" and name in ("table_schema", "table_name"):  # type: ignore[union-attr]
                        value = self.value(other, scope)
                        if isinstance(value, str):
                            pins[name] = value
        pins["\x00databases"] = tuple(databases)
        return pins

    def select(self, select: r.Select, scope: _Scope) -> tuple[object, ...] | None | Unknown:
        """The first row a SELECT gives (None: none), or an Unknown."""
        rows = self.rows(select, scope)
        if rows.__class__ is Unknown:
            return rows  # type: ignore[return-value]
        if _aggregates(select.items):
            kept = list(rows)  # type: ignore[arg-type]
            return tuple(self.aggregate(item, kept, scope) for item in select.items)
        for row in rows:  # type: ignore[union-attr]
            values = tuple(self.value(item, scope, row) for item in select.items)
            for value in values:
                if value.__class__ is Unknown:
                    return value  # type: ignore[return-value]
            return values
        return None

    def aggregate(self, item: r.Expr, rows: list[dict[str, object] | None], scope: _Scope) -> object:
        if item.__class__ is not r.Call or item.name not in _AGGREGATES:  # type: ignore[union-attr]
            return self.value(item, scope, rows[0]) if rows else None
        name = item.name  # type: ignore[union-attr]
        if name == "COUNT" and not item.args:  # type: ignore[union-attr]
            return len(rows)
        values = [self.value(item.args[0], scope, row) for row in rows] if item.args else []  # type: ignore[union-attr]
        for value in values:
            if value.__class__ is Unknown:
                return value
        present = [v for v in values if v is not None]
        if name == "COUNT":
            return len(present)
        if not present:
            return None
        if name == "SUM":
            return sum(_number(v) for v in present)  # type: ignore[misc]
        best = present[0]
        for value in present[1:]:
            compared = _compare(value, best)
            if compared is not None and (compared > 0 if name == "MAX" else compared < 0):
                best = value
        return best


def _at_the_call(op: object) -> None:
    """The columns, keys and foreign keys a statement run by a CALL or EXECUTE defines point at the
    CALL or EXECUTE, not at an offset within the text it ran (which that statement does not hold:
    an offset read there named a column past its line's end, a line past the file's)."""
    stack: list[object] = [op]
    while stack:
        item = stack.pop()
        kind = item.__class__
        if kind in (ElementColumn, Index, ForeignKey):
            item.offset = 0  # type: ignore[attr-defined]
        elif kind is TableBody:
            stack.extend(item.columns.values())  # type: ignore[attr-defined]
            stack.extend(item.indexes)  # type: ignore[attr-defined]
            stack.extend(item.foreign_keys)  # type: ignore[attr-defined]
        elif kind in (tuple, list):
            stack.extend(item)  # type: ignore[arg-type]
        elif isinstance(item, FrozenRecord) and kind is not ops.Name:
            stack.extend(getattr(item, name) for name in item.__slots__ if hasattr(item, name))


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 80 else flat[:77] + "..."


#: information_schema's views a query may read, each a function of (database, table) pinned
_Source = Callable[[object, object], Iterator[dict[str, object]]]


class Catalogue:
    """information_schema's tables over the model: TABLES, COLUMNS, STATISTICS, TABLE_CONSTRAINTS,
    KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS, SCHEMATA. A query whose WHERE fixes table_schema or
    table_name reads that database's or table's rows only."""

    def __init__(self, replayer: Replayer) -> None:
        self.replayer = replayer

    def table(self, name: str) -> _Source | None:
        return {"tables": self._tables, "columns": self._columns, "statistics": self._statistics,
                "table_constraints": self._constraints, "key_column_usage": self._key_columns,
                "referential_constraints": self._references, "schemata": self._schemata}.get(name)

    def _each(self, database: object, table: object) -> Iterator[tuple[str, Table]]:
        """(the database's name as information_schema shows it, table) for the tables pinned."""
        model = self.replayer.model
        if isinstance(database, str):
            wanted = None if database == UNNAMED_DATABASE else database
            schema = model.find_schema(wanted)
            schemas = [schema] if schema is not None else []
        else:
            schemas = list(model.schemas.values())
        for schema in schemas:
            shown = schema.name if schema.name is not None else UNNAMED_DATABASE
            if isinstance(table, str):
                found = schema.tables.get(model.key(table))
                if found is not None:
                    yield shown, found
            else:
                for found in schema.tables.values():
                    yield shown, found

    def _schemata(self, database: object, table: object) -> Iterator[dict[str, object]]:
        for schema in self.replayer.model.schemas.values():
            yield {"catalog_name": "def", "schema_name": schema.name if schema.name is not None else UNNAMED_DATABASE,
                   "default_character_set_name": schema.charset, "default_collation_name": schema.collation}

    def _tables(self, database: object, table: object) -> Iterator[dict[str, object]]:
        for shown, found in self._each(database, table):
            options = found.options
            yield {"table_catalog": "def", "table_schema": shown, "table_name": found.name,
                   "table_type": "BASE TABLE", "engine": options.engine or "InnoDB",
                   "row_format": options.row_format, "table_collation": options.collation,
                   "auto_increment": options.auto_increment, "table_comment": options.comment or "",
                   "create_options": ""}

    def _columns(self, database: object, table: object) -> Iterator[dict[str, object]]:
        for shown, found in self._each(database, table):
            keyed = _column_keys(found)
            for position, column in enumerate(found.columns.values(), 1):
                base = column.type.lower()
                params = f"({','.join(column.params)})" if column.params else ""
                yield {"table_catalog": "def", "table_schema": shown, "table_name": found.name,
                       "column_name": column.name, "ordinal_position": position,
                       "column_default": column.default, "is_nullable": "YES" if column.nullable else "NO",
                       "data_type": base, "column_type": base + params + (" unsigned" if column.unsigned else ""),
                       "character_maximum_length": _length(column),
                       "character_set_name": column.charset, "collation_name": column.collation,
                       "column_key": keyed.get(column.name.lower(), ""),
                       "extra": "auto_increment" if column.auto_increment else "",
                       "column_comment": column.comment or "", "generation_expression": None}

    def _statistics(self, database: object, table: object) -> Iterator[dict[str, object]]:
        for shown, found in self._each(database, table):
            for index in found.indexes:
                name = "PRIMARY" if index.kind == "primary" else index.name
                for seq, part in enumerate(index.columns, 1):
                    column = found.column(part.name)
                    yield {"table_catalog": "def", "table_schema": shown, "table_name": found.name,
                           "non_unique": 0 if index.kind in ("primary", "unique") else 1, "index_schema": shown,
                           "index_name": name, "seq_in_index": seq, "column_name": part.name,
                           "sub_part": part.prefix, "nullable": "YES" if column is not None and column.nullable else "",
                           "index_type": {"fulltext": "FULLTEXT", "spatial": "SPATIAL"}.get(index.kind, "BTREE"),
                           "comment": "", "index_comment": ""}

    def _constraints(self, database: object, table: object) -> Iterator[dict[str, object]]:
        for shown, found in self._each(database, table):
            base = {"constraint_catalog": "def", "constraint_schema": shown, "table_schema": shown,
                    "table_name": found.name}
            for index in found.indexes:
                if index.kind == "primary":
                    yield {**base, "constraint_name": "PRIMARY", "constraint_type": "PRIMARY KEY"}
                elif index.kind == "unique":
                    yield {**base, "constraint_name": index.name, "constraint_type": "UNIQUE"}
            for key in found.foreign_keys:
                yield {**base, "constraint_name": key.name, "constraint_type": "FOREIGN KEY"}

    def _key_columns(self, database: object, table: object) -> Iterator[dict[str, object]]:
        for shown, found in self._each(database, table):
            base = {"constraint_catalog": "def", "constraint_schema": shown, "table_catalog": "def",
                    "table_schema": shown, "table_name": found.name}
            for index in found.indexes:
                if index.kind in ("primary", "unique"):
                    for seq, part in enumerate(index.columns, 1):
                        yield {**base, "constraint_name": "PRIMARY" if index.kind == "primary" else index.name,
                               "column_name": part.name, "ordinal_position": seq,
                               "position_in_unique_constraint": None, "referenced_table_schema": None,
                               "referenced_table_name": None, "referenced_column_name": None}
            for key in found.foreign_keys:
                for seq, (column, referenced) in enumerate(zip(key.columns, key.ref_columns), 1):
                    yield {**base, "constraint_name": key.name, "column_name": column, "ordinal_position": seq,
                           "position_in_unique_constraint": seq,
                           "referenced_table_schema": key.ref_schema or shown,
                           "referenced_table_name": key.ref_table, "referenced_column_name": referenced}

    def _references(self, database: object, table: object) -> Iterator[dict[str, object]]:
        for shown, found in self._each(database, table):
            for key in found.foreign_keys:
                yield {"constraint_catalog": "def", "constraint_schema": shown, "constraint_name": key.name,
                       "unique_constraint_schema": key.ref_schema or shown, "table_name": found.name,
                       "referenced_table_name": key.ref_table, "update_rule": key.on_update or "RESTRICT",
                       "delete_rule": key.on_delete or "RESTRICT"}


def _length(column: Column) -> int | None:
    """CHARACTER_MAXIMUM_LENGTH: a CHAR, VARCHAR, BINARY or VARBINARY column's length (CHAR alone: 1)."""
    if column.type not in ("CHAR", "VARCHAR", "BINARY", "VARBINARY"):
        return None
    if not column.params:
        return 1
    return int(column.params[0]) if column.params[0].isdigit() else None


def _column_keys(table: Table) -> dict[str, str]:
    """COLUMN_KEY of each column (lower-case name): PRI, UNI (a one-column unique key's), MUL (the
    first column of a non-unique key)."""
    keys: dict[str, str] = {}
    for index in table.indexes:
        if not index.columns:
            continue
        first = index.columns[0].name.lower()
        if index.kind == "primary":
            for part in index.columns:
                keys[part.name.lower()] = "PRI"
        elif index.kind == "unique" and len(index.columns) == 1:
            keys.setdefault(first, "UNI")
        else:
            keys.setdefault(first, "MUL")
    return keys
