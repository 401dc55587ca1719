"""Apply DDL operations to the schema model, in input order, so the model is the schema after
the whole input, as the server would have it.

The replay does what the server does with each statement, refusals included: a statement the
server refuses changes nothing, and comes back as a `Refusal` record (kept in
`SchemaModel.refusals`, which the refused-ddl check reports), one innolint cannot follow or judge
as a `CannotFollow` (the caller reports it at that statement: replay-error); `linter.server.outcome`
makes both from what the handlers say. So a second CREATE TABLE of a name keeps the first table; an ALTER
TABLE applies all of its actions or none (`alter_table.TableAlter` checks the whole statement against the table
first, as the server does); RENAME TABLE renames all its pairs or none; a DROP of a table, column
or key that is not there drops nothing. Names follow the server: database and table names as
`lower_case_table_names` says (`SchemaModel.key`), column, key and constraint names case-insensitively,
and TEMPORARY tables in a namespace of their own that hides the permanent table of the same name.
The checks against MariaDB 10.11 that decided each rule are in tests/test_replay.py.

Messages never stop the replay. Each operation costs what it changes: a table's body is edited
through its `BodyDraft`, never rebuilt whole for one column or key.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from linter.parse import ops
from linter.parse.elements import Location
from linter.schema.innodb_sizes import MAX_ROW_BYTES, column_charset, table_charset
from linter.schema.model import CompressionDictionary, SchemaModel, Table, Tablespace, name_created_foreign_keys
from linter.schema.refused import CannotFollow, Refusal
from linter.server import create_select
from linter.server.alter_charsets import in_binary_default, keep_copied_charset
from linter.server.alter_table import TableAlter
from linter.server.procedures import Routines
from linter.server.alterations import capture, dropped_table, record, written_actions
from linter.server.column_lengths import (
    CheckedRefusals, needs_settling, refused_length, row_bound, row_refusal, server_row_bytes, settle_lengths,
)
from linter.server.key_parts import ServerKeys, long_unique_problem
from linter.server.key_refusals import KeyJudge
from linter.server.namespaces import Namespace, RenameBlindness, named_twice
from linter.server.online_alter import Request, cost, verdict
from linter.server.outcome import Doubt, LostTrack, Missing, Outcomes
from linter.server.refusals import SelectedColumns, create_problem, select_key_problem, temporary_key_problem
from linter.server.rename_tables import TableRenames
from linter.schema.target import DEFAULT_TARGET, Target

#: ALTER actions that need the body's draft (the others change options or the table's name)
_BODY_ACTIONS = (
    ops.AddColumn, ops.ChangeColumn, ops.RenameColumn, ops.DropColumn, ops.SetColumnDefault, ops.AddIndex,
    ops.DropIndex, ops.RenameIndex, ops.AddForeignKey, ops.DropForeignKey, ops.DropConstraint, ops.ConvertCharset,
)


#: what the session runs: procedures and dynamic SQL (`linter.server.procedures`)
_ROUTINE_OPS = (ops.Dynamic, ops.CreateProcedure, ops.DropProcedure)
_SYSTEM_SCHEMAS = frozenset({"information_schema", "mysql", "performance_schema", "sys"})


class Replayer:
    """Owns the model while statements are applied, and dispatches each to its handler (`apply`).
    Its parts own their state: `names` (the tables, views and current database by name, as the
    server resolves them), `renames` (RENAME TABLE), `lengths` (the ALTERs refused for a column's
    or the row's length); each ALTER TABLE is a `TableAlter` of its own, planned, checked and
    applied over the table's working copy.

    `target`: the server the input runs on (its lower_case_table_names, and whether its DROP
    TABLE is atomic); the default target when None. A `model` given keeps its own
    lower_case_table_names. `key_judge`: the keys the server cannot build (`key_refusals`);
    `claims`: the kinds of refusal a check reports itself, and the check (`outcome.Outcomes`);
    `alterations`: which statements' `Alteration` to keep, by where the table was created and where
    the statement is (the engine's: those a check may report; None: every one)."""

    def __init__(self, model: SchemaModel | None = None, *, target: Target | None = None,
                 keys_as_shown: bool = False, key_judge: KeyJudge | None = None,
                 claims: dict[str, str] | None = None,
                 alterations: Callable[[Location, Location], bool] | None = None) -> None:
        self.target = target if target is not None else Target.parse(DEFAULT_TARGET)
        self.key_judge = key_judge  # the keys the server cannot build (`key_refusals`)
        self.alterations = alterations
        #: CREATE TABLE is SHOW CREATE TABLE's (the audit): keys in the server's order (`key_order`)
        self.keys_as_shown = keys_as_shown
        self.model = model if model is not None else SchemaModel(lower_case_table_names=self.target.lower_case_table_names)
        #: what the handlers say, made records (`linter.server.outcome`)
        self.outcomes = Outcomes(self.model, self.target, claims)
        #: databases, tables and views by name, and the current database (USE)
        self.names = Namespace(self.model)
        self._handlers: dict[type, Callable[..., str | None]] = {}
        #: what a CREATE TABLE's definition asks, per shared definition (tenant dumps create each one
        #: thousands of times): id(columns) -> (columns, indexes, the columns to settle
        #: (`column_lengths`), whether the row may pass the server's limit, why the server refuses
        #: it); the objects are kept so ids stay theirs
        self._key_checks: dict[int, tuple[object, object, tuple[str, ...], bool, str | None]] = {}
        #: ALTERs refused for a column's or the row's length, and the altered tables' row bounds
        self.lengths = CheckedRefusals(self.model, self.target)
        #: keys as the server stores them (MariaDB's cuts and hash keys) and in its order
        self._server_keys = ServerKeys()
        #: the session's procedures, user variables and prepared statements (CALL, EXECUTE run them)
        self.routines = Routines(self)
        #: the columns CREATE TABLE ... SELECT gave the tables it made, where innolint can tell them
        self._selected = SelectedColumns()
        #: temporary tables a refused ALTER ... CHANGE hid from RENAME TABLE (MariaDB)
        self._temporaries = RenameBlindness()
        self.renames = TableRenames(self.names, self.target, self._temporaries)

    @property
    def current_schema(self) -> str | None:
        """The client's database (USE; None: the one it started in, which the input never names)."""
        return self.names.current_schema

    def side_effects(self) -> tuple[int, ...]:
        """How much the replay keeps besides the schemas' tables: refusals the checks report,
        tablespaces, compression dictionaries, views, view stand-ins (statements that change none of
        these made or changed tables only, or nothing)."""
        model = self.model
        return (len(model.refusals), len(model.alterations), len(model.tablespaces), len(model.dictionaries),
                len(self.names.views), len(self.names.standins), len(self.lengths.row_uppers))

    def apply(
        self, op: ops.Operation, where: Location, *, annotations: frozenset[str] = frozenset(), executable: str | None = None
    ) -> Refusal | CannotFollow | None:
        """Apply one operation. Returns the `Refusal` when the server refuses it (the model keeps
        nothing of it, and the refusal in `SchemaModel.refusals`), a `CannotFollow` when innolint
        cannot follow or judge it (the caller reports it as a diagnostic), else None."""
        if op.__class__ in _ROUTINE_OPS:
            return self.routines.apply(op, where)
        handler = self._handlers.get(op.__class__)
        if handler is None:
            handler = self._handlers[op.__class__] = getattr(self, "_" + type(op).__name__)
        said = handler(op, where, annotations, executable)  # type: ignore[operator]
        return None if said is None else self.outcomes.of(said, op, where, self.names.current_schema)

    def lose_track(self, where: Location, what: str) -> None:
        """innolint cannot tell the schema the server has from `where` on (a packet the server may
        stop half-way): no later statement is called refused (`outcome.Outcomes`)."""
        self.outcomes.lose_track(where, what)

    # -- statements -----------------------------------------------------------------------
    def _CreateTable(self, op: ops.CreateTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        name = op.name
        if op.refused is not None:
            return f"CREATE TABLE {self.names.label(name)}: {op.refused}; the server refuses this statement"
        if op.like is not None and named_twice((name, op.like), self.names.key, self.names.current_schema):
            return (f"CREATE TABLE {self.names.label(name)} LIKE {self.names.label(op.like)}: the statement names one table "
                    "twice (error 1066: not unique table/alias); the server refuses it whatever exists")
        if name.schema is not None and self.model.find_schema(name.schema) is None:
            problem = self.names.cases.unknown_database(name.schema, f"CREATE TABLE {self.names.label(name)}", 1049,
                                                   "innolint makes no table")
            if problem:
                return problem
        schema_name = name.schema if name.schema is not None else self.names.current_schema
        schema = self.model.schema(schema_name)
        key = name.name.lower() if self.names.fold else name.name
        space = schema.temporary if op.temporary else schema.tables
        existing = space.get(key)
        if existing is None and not op.temporary and self.names.is_view(name):
            if op.if_not_exists:
                return None  # the server says so in a note, and makes no table
            return (f"CREATE TABLE {self.names.label(name)}: a view of that name exists (error 1050); the server refuses "
                    "this statement")
        if existing is not None:
            if op.if_not_exists:
                return None  # the server keeps the table and says so in a note: dumps say this on purpose
            if not op.or_replace:
                return (f"CREATE TABLE {self.names.label(name)}: table {existing.name} already exists (created at "
                        f"{existing.defined.at}; error 1050); the server refuses this statement and keeps that table")
        body = op.body
        origin = "create"
        own = False
        given: frozenset[str] | None = None
        read: Table | None = None  # the table a CREATE ... SELECT reads
        unsure = None  # why innolint cannot tell whether the server makes this table
        if op.like is not None:
            source = self.names.find(op.like)
            if source is None:
                return Missing(f"CREATE TABLE {name.name} LIKE {op.like.name}: table {op.like.name} is not defined "
                               f"earlier in the input{self.names.case_hint(op.like)}")
            body = source.body_copy()  # LIKE copies columns, keys and options, not foreign keys
            body.foreign_keys = []
            body.defined_here()  # (what the source's CREATE TABLE defined is this statement's now)
            keep_copied_charset(body, source, self.target, self.model.find_schema(source.schema), schema)
            # a copy of a CREATE ... SELECT table: its columns are not known either
            origin, own = "select" if source.origin == "select" else "like", True
        elif op.as_select:
            origin = "select"
            source = op.select_from
            if source is not None and self.names.missing_source(source):
                return Missing(f"CREATE TABLE {self.names.label(name)} ... SELECT: table {self.names.label(source)} is not "
                               f"defined earlier in the input (error 1146); the server refuses this statement"
                               f"{self.names.case_hint(source)}")
            read = self.names.find(source) if source is not None else None
            given = self._selected.given(op, read)
            copied = create_select.selected_body(op, read, self.target, self.model.find_schema(read.schema) if read else None)  # the columns the SELECT copies
            if copied is not None:
                body, own = copied, True
            unsure = select_key_problem(body, given)
            if unsure is not None and given is not None:
                return f"CREATE TABLE {self.names.label(name)} ... SELECT: {unsure}; the server refuses this statement"
        binary = in_binary_default(body, self.target, schema)  # (text columns of a binary default: binary types)
        if binary is not body:
            body, own = binary, True
        columns, indexes = body.columns, body.indexes
        known = self._key_checks.get(id(columns))
        if known is None or known[0] is not columns or known[1] is not indexes:
            unsettled = tuple(key for key, column in columns.items() if needs_settling(column))
            known = (columns, indexes, unsettled, row_bound(columns.values()) > MAX_ROW_BYTES,
                     None if unsettled else create_problem(body, op.as_select, origin, given, self.target, schema))
            if len(self._key_checks) >= 100_000:
                self._key_checks.clear()
            self._key_checks[id(columns)] = known
        problem = known[4]
        if known[2]:  # TEXT(n), or a length the server may refuse: judged in the table's character sets
            made = Table(schema=schema.name, name=name.name, body=body, defined=where, changed=where)
            settled = settle_lengths(body, known[2], self.target,
                                     lambda column: column_charset(column, made, self.target, schema))
            if isinstance(settled, str):
                return refused_length(made, where, f"CREATE TABLE {name.name}: {settled}; the server refuses this "
                                                        "statement")
            body, own = settled, False  # (its keys are the parsed body's: copied before any change)
            indexes = body.indexes
            problem = create_problem(body, op.as_select, origin, given, self.target, schema)
        if not problem and op.temporary:
            problem = next(filter(None, (temporary_key_problem(i, body.options.engine) for i in indexes)), None)
        if not problem and op.as_select:
            problem = create_select.definition_problem(op, read,
                                                       explicit_timestamps=self.target.explicit_defaults_for_timestamp)
        if problem:
            return f"CREATE TABLE {name.name}: {problem}; the server refuses this statement"
        table = Table(
            schema=schema.name, name=self.model.stored(name.name), body=body, defined=where, changed=where,
            temporary=op.temporary,
            # a mysqldump view stand-in (`/*!50001 CREATE TABLE`) is a table until DROP TABLE makes way for
            # its view; one never dropped is a table the server keeps (it refuses the view), and is linted
            origin=origin, annotations=annotations, _own_body=own,  # type: ignore[arg-type]
            bare_name=name.bare,
        )
        # (a CREATE ... SELECT's copied columns may be untold: no cut is judged on them)
        self._server_keys.apply(table, schema, self.target, stored=origin != "select", sort=not self.keys_as_shown)
        problem = long_unique_problem(table, table.indexes, table.columns.get, table.options.engine, self.target,
                                              schema) if self.target.is_mariadb and origin != "select" else None
        if problem:
            return f"CREATE TABLE {name.name}: {problem}; the server refuses this statement"
        if self.key_judge and (refused := self.key_judge.create(table, schema, where, f"CREATE TABLE {self.names.label(name)}")):
            return refused
        if known[3] and (too_long := row_refusal(server_row_bytes(table, self.target, schema))):
            return refused_length(table, where, f"CREATE TABLE {name.name}: {too_long}; the server refuses this "
                                                     "statement")
        if existing is not None:  # CREATE OR REPLACE
            del space[key]
        space[sys.intern(key)] = table
        if any(foreign_key.name is None for foreign_key in body.foreign_keys):
            name_created_foreign_keys(table)
        if executable == "50001" and not op.temporary:  # a mysqldump view stand-in: said so if its view fails
            self.names.standins[id(table)] = table
        if op.as_select:
            self._selected.remember(table, given)
            unsure = unsure or create_select.untold_value(
                op, read, explicit_timestamps=self.target.explicit_defaults_for_timestamp)
            if unsure is not None:
                return Doubt(f"CREATE TABLE {self.names.label(name)} ... SELECT: {unsure}")
        return None

    def _AlterTable(self, op: ops.AlterTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        table = self.names.find(op.name)
        if table is None:
            if self.names.is_view(op.name):  # (IF EXISTS too: fuzz seed 355)
                return f"ALTER TABLE {self.names.label(op.name)}: a view, not a BASE TABLE (error 1347); the server refuses it"
            if op.if_exists:
                return None
            return Missing(f"ALTER TABLE {self.names.label(op.name)}: table is not defined earlier in the input"
                           f"{self.names.case_hint(op.name)}")
        return self._alter(table, op.actions, where, f"ALTER TABLE {self.names.label(op.name)}",
                           Request(op.algorithm, op.lock, op.online, op.unmodelled), written_actions(op), op)

    def _part_cost(self, table: Table, actions: tuple[ops.AlterAction, ...], request: Request) -> tuple[str, str, list] | None:
        """What some of an ALTER's actions need run alone on `table` as it is (None: the server
        refuses them alone), for a fix that splits the statement (`alterations`)."""
        alter = TableAlter(table, self.target, self.names, self.renames, self.key_judge)
        if alter.plan(actions) is not None or alter.check() is not None:
            return None
        return cost(alter, request, self.target)

    def _alter(
        self, table: Table, actions: tuple[ops.AlterAction, ...], where: Location, statement: str,
        request: Request | None = None, written: tuple[str, ...] = (), op: object = None,
    ) -> str | None:
        """`request`: the statement's ALGORITHM= / LOCK= / ONLINE, which the server may not honour;
        `written`: its actions as SQL (`alterations.written_actions`), for the record of what it
        does to the table's rows (`alterations`)."""
        alter = TableAlter(table, self.target, self.names, self.renames, self.key_judge)
        problem = alter.plan(actions)
        if problem is None:
            problem = alter.check()
        online = verdict(alter, request, self.target) if problem is None and request is not None else None
        if online is not None and online.refused:
            problem = online.message
        refusal, row_upper = self.lengths.checked(table, alter, where, statement) if problem is None else (None, None)
        if table.temporary and self.target.is_mariadb:
            self._temporaries.altered(table, where, actions, refused=problem is not None or refusal is not None)
        if refusal is not None:
            return refusal
        if problem is not None:
            untold = self._selected.untold_refusal(table, statement, problem)
            if untold is not None:
                return Doubt(untold)
            said = f"{statement}: {problem}; the server refuses the whole statement, so none of it is applied"
            return problem.__class__(said) if isinstance(problem, (Doubt, Missing)) else said
        before = capture(alter, request, self.target, op, lambda part, asked: self._part_cost(table, part, asked)) \
            if self.alterations is None or self.alterations(table.defined, where) else None
        alter.apply(where, rebuilds=alter.changes_anything() or bool(request is not None and request.unmodelled))
        if before is not None:
            made = record(before, table, self.target, self.model.find_schema(table.schema), where, statement, written,
                          request)
            if made is not None:
                self.model.alterations.append(made)
        if row_upper is not None:
            self.lengths.remember(table, row_upper)
        return Doubt(f"{statement}: {online.message}") if online is not None else None

    def _DropTable(self, op: ops.DropTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        twice = named_twice(op.names, self.names.key, self.names.current_schema)
        if twice is not None:
            return (f"DROP {'TEMPORARY ' if op.temporary else ''}TABLE: table {twice} is named twice (error 1066: not "
                    "unique table/alias); the server drops none of the tables")
        dropped: list[Table] = []
        missing: list[str] = []
        hint = ""
        for name in op.names:
            if op.temporary:
                schema = self.names.schema(name)
                table = schema.temporary.get(self.names.key(name.name)) if schema is not None else None
            else:
                table = self.names.find(name)  # a temporary table of that name is dropped first
            if table is None:  # (a view is no table either: error 1965)
                view = " (a view)" if not op.temporary and self.names.is_view(name) else ""
                hint = hint or view or (self.names.case_hint(name) if not missing else "")
                missing.append(self.names.label(name))
                continue
            self.names.remove(table)
            dropped.append(table)
        if not missing or op.if_exists:
            if not op.temporary and dropped:
                head = f"DROP TABLE {', '.join(self.names.label(n) for n in op.names)}"
                self.model.alterations.extend(dropped_table(table, where, head) for table in dropped if not table.temporary
                                              and (self.alterations is None or self.alterations(table.defined, where)))
            return None  # DROP TABLE IF EXISTS before CREATE is the norm in dumps: not a problem
        what = (f"DROP {'TEMPORARY ' if op.temporary else ''}TABLE: unknown table {', '.join(missing)} "
                f"(not defined earlier in the input as a table){hint}")
        if self.target.has_atomic_drop_table:
            for table in dropped:
                self.names.put(table)
            return Missing(f"{what}; {self.target.label} drops none of the tables it names")
        return Missing(what + (f"; the server drops the others ({', '.join(t.name for t in dropped)})" if dropped else ""))

    def _CreateIndex(self, op: ops.CreateIndex, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        table = self.names.find(op.table)
        if table is None:
            return Missing(f"CREATE INDEX {op.index.name} ON {self.names.label(op.table)}: table is not defined earlier in "
                           f"the input{self.names.case_hint(op.table)}")
        return self._alter(table, (ops.AddIndex(op.index, op.if_not_exists),), where,
                           f"CREATE INDEX {op.index.name} ON {self.names.label(op.table)}", Request(op.algorithm, op.lock),
                           written_actions(op))

    def _DropIndexStatement(self, op: ops.DropIndexStatement, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        table = self.names.find(op.table)
        if table is None:
            return Missing(f"DROP INDEX {op.name} ON {self.names.label(op.table)}: table is not defined earlier in the "
                           f"input{self.names.case_hint(op.table)}")
        statement = f"DROP INDEX {op.name} ON {self.names.label(op.table)}"
        if (op.algorithm or op.lock) and self.target.is_mariadb:
            return (f"{statement}: MariaDB accepts no ALGORITHM= or LOCK= in DROP INDEX (a syntax error, 1064, on "
                    f"MariaDB 10.11): write ALTER TABLE ... DROP INDEX {op.name}, ALGORITHM=...; the server refuses the whole "
                    "statement, so none of it is applied")
        return self._alter(table, (ops.DropIndex(op.name, op.if_exists),), where, statement,
                           Request(op.algorithm, op.lock), written_actions(op))

    def _CreateView(self, op: ops.CreateView, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        return self.names.create_view(op)

    def _DropView(self, op: ops.DropView, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        return self.names.drop_view(op)

    def _RenameTable(self, op: ops.RenameTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        return self.renames.rename_table(op, where)

    def _CreateTablespace(self, op: ops.CreateTablespace, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        self.model.tablespaces[op.name.lower()] = Tablespace(op.name, op.datafile, op.engine, where)
        return None

    def _DropTablespace(self, op: ops.DropTablespace, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        self.model.tablespaces.pop(op.name.lower(), None)
        return None

    def _CreateCompressionDictionary(self, op: ops.CreateCompressionDictionary, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        self.model.dictionaries[op.name.lower()] = CompressionDictionary(op.name, where)
        return None

    def _SchemaStatement(self, op: ops.SchemaStatement, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        if op.action == "use":
            problem = self.names.cases.unknown_database(op.name, f"USE {op.name}", 1049, "the client stays in "
                                                   + (f"database {self.names.current_schema}" if self.names.current_schema else "its database"))
            if problem:
                return problem
            self.names.current_schema = op.name
            self.model.schema(op.name)
        elif op.action == "create":
            schema = self.model.schema(op.name)
            if schema.defined is None:  # CREATE DATABASE IF NOT EXISTS of an existing one changes nothing
                schema.charset, schema.collation = op.charset, op.collation
            schema.defined = schema.defined or where
        elif op.action == "alter":
            return self._alter_database(op)
        else:
            self.model.schemas.pop(self.model.key(op.name), None)
        return None

    def _alter_database(self, op: ops.SchemaStatement) -> str | None:
        """A new default character set or collation for the tables created from now on: those
        the database has keep theirs (the server wrote it into each), so they are given it.
        Without a name: the client's database (the one the input never names, when it has no USE)."""
        name = op.name or self.names.current_schema
        if name is not None:
            problem = self.names.cases.unknown_database(name, f"ALTER DATABASE {name}", 1, "changes nothing")
            if problem:
                return problem
        schema = self.model.schema(name)
        for table in [*schema.tables.values(), *schema.temporary.values()]:
            if table.options.charset is None and table.options.collation is None:
                kept = table_charset(table, self.target, schema)
                options = table.writable().options
                options.charset, options.collation = kept.charset, kept.collation
        schema.charset, schema.collation = op.charset, op.collation
        if op.name and self.names.current_schema is None:
            return LostTrack(f"ALTER DATABASE {op.name}: innolint cannot tell whether it is the database the input's tables "
                    "without a database name are in (the input has no USE): if it is, the tables created from here on "
                    "take its new character set, which innolint does not give them, and the schema after this "
                    "statement may differ from the server's")
        return None

    def _Skipped(self, op: ops.Skipped, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        return None
