"""Apply DDL operations to the schema model, in input order, so the model is the schema after
the whole input, as the server would have it.

The replay does what the server does with each statement, refusals included: a statement the
server refuses changes nothing, and comes back as a `Refusal` record (kept in
`SchemaModel.refusals`, which the refused-ddl check reports), one innolint cannot follow or judge
as a `CannotFollow` (the caller reports it at that statement: replay-error); `linter.server.outcome`
makes both from what the handlers say. So a second CREATE TABLE of a name keeps the first table; an ALTER
TABLE applies all of its actions or none (`_Alter` checks the whole statement against the table
first, as the server does); RENAME TABLE renames all its pairs or none; a DROP of a table, column
or key that is not there drops nothing. Names follow the server: database and table names as
`lower_case_table_names` says (`SchemaModel.key`), column, key and constraint names case-insensitively,
and TEMPORARY tables in a namespace of their own that hides the permanent table of the same name.
The checks against MariaDB 10.11 that decided each rule are in tests/test_replay.py.

Messages never stop the replay. Each operation costs what it changes: a table's body is edited
through its `BodyDraft`, never rebuilt whole for one column or key.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sys
from dataclasses import replace

from linter.parse import ops
from linter.parse.body_draft import BodyDraft
from linter.parse.body import without_redundant_generated_keys
from linter.parse.elements import Column, ForeignKey, Index, Location
from linter.schema.model import (
    CompressionDictionary, SchemaModel, Table, Tablespace, foreign_key_name, name_created_foreign_keys,
)
from linter.parse.options import apply_options
from linter.parse.statement import option_field
from linter.server.alter_keys import AlterKeys
from linter.server.alter_charsets import in_binary_default, AlterCharsets, keep_copied_charset
from linter.schema.innodb_sizes import MAX_ROW_BYTES, column_charset, table_charset
from linter.server.alter_refusals import TableAfterAlter
from linter.server import create_select
from linter.parse.body import drop_whole_prefixes
from linter.server.key_order import alter_sorts_keys, key_rank
from linter.server.key_parts import (
    long_unique_problem,
    ServerKeys, cut_changed_keys, drop_outgrown_prefixes, rewrite_hash_keys, server_keys,
)
from linter.server.column_lengths import CheckedRefusals, needs_settling, refused_length, row_bound, row_refusal, server_row_bytes, settle_lengths
from linter.server.key_refusals import KeyJudge
from linter.server.outcome import Doubt, LostTrack, Missing, Outcomes
from linter.schema.refused import CannotFollow, Refusal
from linter.server.namespaces import Namespace, RenameBlindness, named_twice
from linter.server.rename_tables import TableRenames
from linter.server.online_alter import Request, cost
from linter.server.procedures import Routines
from linter.server.alterations import capture, dropped_table, record, written_actions
from linter.server.refusals import (
    SelectedColumns, column_problem, create_problem, key_part_problem, options_problem, repeated_key_column,
    select_key_problem, temporary_key_problem,
)
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
    """Holds the model and the current database (USE) while statements are applied.

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
        return None if said is None else self.outcomes.of(said, op, where, self.current_schema)

    def lose_track(self, where: Location, what: str) -> None:
        """innolint cannot tell the schema the server has from `where` on (a packet the server may
        stop half-way): no later statement is called refused (`outcome.Outcomes`)."""
        self.outcomes.lose_track(where, what)

    # -- statements -----------------------------------------------------------------------
    def _CreateTable(self, op: ops.CreateTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        name = op.name
        if op.refused is not None:
            return f"CREATE TABLE {self.names.label(name)}: {op.refused}; the server refuses this statement"
        if op.like is not None and named_twice((name, op.like), self.names.key, self.current_schema):
            return (f"CREATE TABLE {self.names.label(name)} LIKE {self.names.label(op.like)}: the statement names one table "
                    "twice (error 1066: not unique table/alias); the server refuses it whatever exists")
        if name.schema is not None and self.model.find_schema(name.schema) is None:
            problem = self.names.cases.unknown_database(name.schema, f"CREATE TABLE {self.names.label(name)}", 1049,
                                                   "innolint makes no table")
            if problem:
                return problem
        schema_name = name.schema if name.schema is not None else self.current_schema
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
        alter = _Alter(self, table)
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
        alter = _Alter(self, table)
        problem = alter.plan(actions)
        if problem is None:
            problem = alter.check()
        online = alter._online_verdict(request, self.target) if problem is None and request is not None else None
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
        twice = named_twice(op.names, self.names.key, self.current_schema)
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
                                                   + (f"database {self.current_schema}" if self.current_schema else "its database"))
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
        name = op.name or self.current_schema
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
        if op.name and self.current_schema is None:
            return LostTrack(f"ALTER DATABASE {op.name}: innolint cannot tell whether it is the database the input's tables "
                    "without a database name are in (the input has no USE): if it is, the tables created from here on "
                    "take its new character set, which innolint does not give them, and the schema after this "
                    "statement may differ from the server's")
        return None

    def _Skipped(self, op: ops.Skipped, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        return None


class _Alter(AlterKeys, TableAfterAlter, AlterCharsets):
    """One ALTER TABLE (or CREATE / DROP INDEX), checked whole against the table before any of
    it is applied, with the server's rules (MariaDB 10.11 and MySQL agree on them):

    - DROP / CHANGE / MODIFY / RENAME / ALTER COLUMN name columns of the table as it was: each
      such column at most once, never one the same statement adds;
    - names a statement gives (added columns, new names) may not clash with the columns the
      table keeps, nor with each other; a table keeps at least one column;
    - FIRST / AFTER are applied in statement order, AFTER naming a column of the new table;
    - keys and foreign keys name columns of the new table; DROP / RENAME INDEX name keys of the
      table as it was, and the keys added come after the table's kept ones whatever the order
      written (`alter_keys.AlterKeys`); a key without a name gets its first column's, made unique
      with `_2`, `_3` ... (and a foreign key `<table>_ibfk_<n>`); one primary key at most;
    - MariaDB's IF [NOT] EXISTS leaves out an action the table makes void.

    Checking costs what the statement names; `apply` then edits the body's draft."""

    def __init__(self, replayer: Replayer, table: Table) -> None:
        self.replayer = replayer
        self.table = table
        self.draft: BodyDraft | None = None
        # columns: old keys consumed (dropped or changed), the new names, and what to do in order
        self.consumed: set[str] = set()
        self.new_names: list[str] = []  # the names it gives columns, in order (checked once all are known)
        self.new_columns: set[str] = set()
        self.drops: list[str] = []
        #: (old key, new definition, whether the statement re-defines it: `Column.where`)
        self.changes: list[tuple[str, Column, bool]] = []
        self.steps: list[tuple[bool, str, Column, ops.Position]] = []  # (added, key, column, position)
        # keys and foreign keys: ids consumed, names given, what to add
        self.index_gone: set[int] = set()
        self.index_names: set[str] = set()
        self.index_drops: list[int] = []
        self.index_renames: list[tuple[int, str]] = []
        self.index_adds: list[Index] = []
        self.adds_primary = False
        self.fk_gone: set[int] = set()
        self.fk_keys: set[str] = set()
        self.fk_drops: list[int] = []
        self.fk_adds: list[tuple[ForeignKey, str]] = []
        self.fk_number = 0  # the next generated foreign key number (0: not computed yet)
        self.options: list[tuple[tuple[str, str | None], ...]] = []
        self.rename_to: ops.Name | None = None
        #: CONVERT PARTITION ... TO TABLE: the tables made; CONVERT TABLE ... TO PARTITION: those taken in
        self.partition_tables: list[ops.Name] = []
        self.partition_sources: list[Table] = []
        #: columns dropped and added again by name in this statement: key parts stay on the name,
        #: with the prefix the new column needs (index id, column key, prefix)
        self.readded: set[str] = set()
        self.shadowed: set[str] = set()
        self.readded_prefixes: list[tuple[int, str, int | None]] = []
        self.defaults: list[ops.SetColumnDefault] = []  # ALTER COLUMN ... SET / DROP DEFAULT
        self.convert: ops.ConvertCharset | None = None

    # -- reading the statement ------------------------------------------------------------
    def plan(self, actions: tuple[ops.AlterAction, ...]) -> str | None:
        """Take each action in order; the first problem found, or None."""
        for action in actions:
            if self.draft is None and isinstance(action, _BODY_ACTIONS):
                self.draft = self.table.writable().draft(self.table.name)
            problem = getattr(self, "_" + type(action).__name__)(action)
            if problem is not None:
                return problem
        return None

    def _column_kept(self, key: str) -> bool:
        """Whether the table has a column of this name that this statement does not drop or change."""
        assert self.draft is not None
        return key in self.draft.column_ids and key not in self.consumed

    def _in_new_table(self, key: str) -> bool:
        assert self.draft is not None
        return key in self.new_columns or (key in self.draft.column_ids and key not in self.consumed)

    def _old_column(self, name: str) -> Column | None:
        """A column of the table as it was, not yet dropped or changed by this statement."""
        assert self.draft is not None
        key = name.lower()
        return None if key in self.consumed else self.draft.column(key)

    def _AddColumn(self, action: ops.AddColumn) -> str | None:
        problem = self._versioning_word_problem("ADD", action.column.name, action.bare_word)
        if problem:
            return problem
        key = action.column.name.lower()
        assert self.draft is not None  # (IF NOT EXISTS: judged on the table as it was, `DROP c, ADD IF NOT EXISTS c`)
        if action.if_not_exists and (key in self.draft.column_ids or key in self.new_columns):
            return None
        problem = column_problem(action.column, mariadb=self.replayer.target.is_mariadb)
        if problem:
            return problem
        self.new_names.append(action.column.name)
        self.new_columns.add(key)
        self.steps.append((True, key, action.column, action.position))
        return None

    def _change(
        self, old_name: str, column: Column, position: ops.Position, if_exists: bool, defines: bool = True,
    ) -> str | None:
        """`defines`: the action writes the column's definition (MODIFY / CHANGE), not only its
        name or default: the column's `where` becomes this statement."""
        if self._old_column(old_name) is None:
            if if_exists:
                return None
            return self._redefine_added(old_name, column, position) if defines else f"unknown column {old_name} (error 1054)"
        problem = column_problem(column, mariadb=self.replayer.target.is_mariadb) if defines else None
        if problem:
            return problem
        old = old_name.lower()
        self.consumed.add(old)
        key = column.name.lower()
        self.new_names.append(column.name)
        self.new_columns.add(key)
        self.changes.append((old, column, defines))
        if position is not None:
            self.steps.append((False, key, column, position))
        return None

    def _ChangeColumn(self, action: ops.ChangeColumn) -> str | None:
        return self._change(action.old_name, action.column, action.position, action.if_exists)

    def _RenameColumn(self, action: ops.RenameColumn) -> str | None:
        column = self._old_column(action.old_name)
        if column is None:
            return None if action.if_exists else f"unknown column {action.old_name} (error 1054)"
        return self._change(action.old_name, replace(column, name=action.new_name), None, False, defines=False)

    def _SetColumnDefault(self, action: ops.SetColumnDefault) -> str | None:
        self.defaults.append(action)  # (judged once every action is read: `_defaults_problem`)
        return None

    def _DropColumn(self, action: ops.DropColumn) -> str | None:
        problem = self._versioning_word_problem("DROP", action.name, action.bare_word)
        if problem:
            return problem
        key = action.name.lower()
        if self.draft is not None and self.draft.column(key) is not None and any(old == key for old, _, _ in self.changes):
            return f"unknown column {action.name} (error 1054): the statement both changes and drops it"
        if self._old_column(action.name) is None:
            return None if action.if_exists else f"cannot drop column {action.name}: it does not exist (error 1091)"
        self.consumed.add(key)
        self.drops.append(key)
        return None

    def _AddForeignKey(self, action: ops.AddForeignKey) -> str | None:
        draft = self.draft
        assert draft is not None
        fk = action.foreign_key
        if fk.name is None:  # numbered on from the highest number the table had before this statement
            if not self.fk_number:
                self.fk_number = draft.next_fk_number()
            fk = replace(fk, name=foreign_key_name(draft.table, self.fk_number))
            self.fk_number += 1
        key = draft.fk_key(fk.name)  # type: ignore[arg-type]
        at = draft.fk_ids.get(key)
        if (at is not None and at not in self.fk_gone) or key in self.fk_keys:
            if action.if_not_exists:
                return None
            return f"duplicate foreign key constraint name {fk.name} (error 1826)"
        self.fk_keys.add(key)
        self.fk_adds.append((fk, key))
        return None

    def _DropForeignKey(self, action: ops.DropForeignKey) -> str | None:
        assert self.draft is not None
        at = self.draft.fk_ids.get(self.draft.fk_key(action.name))
        if at is None or at in self.fk_gone:
            return None if action.if_exists else f"cannot drop foreign key {action.name}: it does not exist (error 1091)"
        self.fk_gone.add(at)
        self.fk_drops.append(at)
        return None

    def _DropConstraint(self, action: ops.DropConstraint) -> str | None:
        assert self.draft is not None
        at = self.draft.fk_ids.get(self.draft.fk_key(action.name))
        if at is not None and at not in self.fk_gone:
            return self._DropForeignKey(ops.DropForeignKey(action.name))
        at = self.draft.index_ids.get(action.name.lower())
        if at is not None and at not in self.index_gone and self.draft.indexes[at].kind in ("unique", "primary"):
            return self._DropIndex(ops.DropIndex(action.name))
        # else a CHECK constraint: the model keeps CHECK constraints by count, not by name, so
        # a name it cannot find is taken for one when the table has any
        if self.table.body.checks or self.draft.checked_columns or action.if_exists:
            return None
        return f"cannot drop constraint {action.name}: it does not exist (error 1091)"

    def _SetOptions(self, action: ops.SetOptions) -> str | None:
        problem = options_problem(action.options)
        if problem:
            return problem
        self.options.append(action.options)
        return None

    def _RenameTo(self, action: ops.RenameTo) -> str | None:
        self.rename_to = action.target
        return None

    def _PartitionToTable(self, action: ops.PartitionToTable) -> str | None:
        if not self.table.options.partitioning:
            return "the table is not partitioned (error 1505)"
        taken = self.replayer.names.taken(action.target, False)
        if taken is not None:
            return f"table {self.replayer.names.label(action.target)} already exists (created at {taken.defined.at}) (error 1050)"
        self.partition_tables.append(action.target)
        return None

    def _TableToPartition(self, action: ops.TableToPartition) -> str | None:
        source = self.replayer.names.find(action.source)
        if source is None:
            return Missing(f"table {self.replayer.names.label(action.source)} is not defined earlier in the input (error 1146)")
        self.partition_sources.append(source)
        return None

    # -- checking the whole -----------------------------------------------------------------
    def check(self) -> str | None:
        """What the server checks once it has read every action: the table the statement builds."""
        draft = self.draft
        if draft is not None:
            problem = self._defaults_problem()
            if problem:
                return problem
            given: set[str] = set()
            for name in self.new_names:  # a swap of two names is fine, a name kept or given twice is not
                key = name.lower()
                if key in given or self._column_kept(key):
                    return f"duplicate column name {name} (error 1060)"
                given.add(key)
            if self.drops and len(draft.column_ids) - len(self.drops) + sum(1 for s in self.steps if s[0]) <= 0:
                return "a table keeps at least one column: use DROP TABLE (error 1090)"
            added: set[str] = set()
            changed = {column.name.lower() for _, column, _ in self.changes}
            for is_add, key, _, position in self.steps:
                if isinstance(position, tuple):
                    after = position[1].lower()
                    if after == key or not (
                            (after in draft.column_ids and after not in self.consumed) or after in changed or after in added):
                        return f"unknown column {position[1]} in AFTER (error 1054)"
                if is_add:
                    added.add(key)
            problem = self.key_names_problem()
            if problem is not None:
                return problem
            mariadb = self.replayer.target.is_mariadb
            for index in self.index_adds:
                for part in index.columns:
                    if not part.expression and not self._in_new_table(part.name.lower()):
                        return f"key column {part.name} does not exist in the table (error 1072)"
                    problem = key_part_problem(index, part, self._new_column(part.name.lower()), mariadb=mariadb)
                    if problem:
                        return problem
                problem = repeated_key_column(index) or (
                    temporary_key_problem(index, self._new_engine()) if self.table.temporary else None)
                if problem:
                    return problem
            problem = self._readded_columns() or self.shadowed_changes_problem()
            if problem is not None:
                return problem
            for fk, _ in self.fk_adds:
                for name in fk.columns:
                    if not self._in_new_table(name.lower()):
                        return f"key column {name} does not exist in the table (error 1072)"
        problem = (self._engine_problem() or self._changed_key_problem() or self._auto_increment_problem()
                   or self._after_problem())
        if problem:
            return problem
        if self.rename_to is not None:
            return self.replayer.renames.problem(self.table, self.rename_to, itself=True)
        return None

    # -- applying it ------------------------------------------------------------------------
    def _sorts_keys(self, draft: BodyDraft) -> bool:
        """Whether the server sorts the table's keys again (`key_order.alter_sorts_keys`)."""
        mariadb = self.replayer.target.is_mariadb
        adds_key = bool(self.index_adds or self.fk_adds)
        if mariadb and not adds_key and not self.drops and not self.changes:
            return False
        clustered = draft.clustered()
        return alter_sorts_keys(mariadb=mariadb, adds_key=adds_key, clustered=clustered,
                                clustered_dropped=any(draft.indexes[at] is clustered for at in self.index_drops),
                                dropped=self.drops, made_nullable=[old for old, column, _ in self.changes if column.nullable])

    def changes_anything(self) -> bool:
        """Whether the statement has an action left to do (not only a RENAME TO, nor IF [NOT]
        EXISTS actions the table made void)."""
        return bool(self.drops or self.changes or self.steps or self.index_drops or self.index_renames
                    or self.index_adds or self.fk_drops or self.fk_adds or self.options or self.partition_tables
                    or self.partition_sources or self.convert)

    def apply(self, where: Location, *, rebuilds: bool = True) -> None:
        """`rebuilds`: the server writes the table's definition anew (`rewrite_hash_keys`)."""
        table = self.table
        self.apply_charsets(where)  # first: the columns defined below take the new engine's limits and charset
        for pairs in self.options:
            apply_options(table.writable().options, pairs)
            for key, _ in pairs:
                table.set_option_place(option_field(key), where)
        draft = self.draft
        if draft is not None:
            sorts_keys = self._sorts_keys(draft)  # (judged on the table as it was)
            for at in self.index_drops:  # first: a column dropped below may empty the same key
                if at == draft.primary:
                    table.key_dropped = where
                draft.remove_index(at)
            for key in self.drops:
                for emptied in draft.remove_column(draft.detach_column(key), key, where, key in self.readded):
                    if emptied.kind == "primary":
                        table.key_dropped = where
            shadowed = {old: draft.uses.pop(old, {}) for old in self.shadowed}  # keys staying on the old name
            if self.changes:
                draft.attach_columns([
                    (draft.detach_column(old), old,
                     self.written_view(replace(column, where=where)) if defines else replace(column))
                    for old, column, defines in self.changes
                ])
                if self.replayer.target.is_mariadb:
                    drop_outgrown_prefixes(draft, [column for _, column, defines in self.changes if defines])
                    cut_changed_keys(table, draft, [column for _, column, defines in self.changes if defines],
                                      self.replayer.target, self.replayer.model.find_schema(table.schema))
            for is_add, key, column, position in self.steps:
                if position is None:
                    previous = draft.last_column()
                elif position == "FIRST":
                    previous = 0
                else:
                    previous = draft.column_ids[position[1].lower()]  # type: ignore[index]
                if is_add:
                    draft.insert_column(self.written_view(replace(column, where=where)), previous)
                else:
                    draft.move_column(draft.column_ids[key], previous)
            for old, uses in shadowed.items():
                draft.uses[old] = uses
            for index_id, key, prefix in self.readded_prefixes:
                index = draft.indexes[index_id]
                index.columns = tuple(replace(p, prefix=prefix) if not p.expression and p.name.lower() == key else p
                                      for p in index.columns)
            for at, name in self.index_renames:
                if at in draft.indexes:  # (not emptied by a column dropped above)
                    draft.rename_index(at, name)
            schema = self.replayer.model.find_schema(table.schema)
            for index in self.index_adds:
                added = replace(index, where=where)
                drop_whole_prefixes([added], draft.column_by_name)
                cut = server_keys(table, [added], draft.column, self.replayer.target, schema)
                draft.add_index(added if cut is None else cut[0])
                if index.kind == "primary":
                    table.key_dropped = None
            if self.index_adds and any(index.generated for index in draft.indexes.values()):
                kept = {id(index) for index in without_redundant_generated_keys(list(draft.indexes.values()))}
                for at in [at for at, index in draft.indexes.items() if id(index) not in kept]:
                    draft.remove_index(at)
            # columns only the added PRIMARY KEY makes NOT NULL: still nullable for the keys the
            # server reads before it (the table's own, then those added, in the order written)
            forced = draft.nullable_primary_columns() if self.adds_primary else frozenset()
            if self.changes or self.adds_primary or self.readded:
                _keep_primary_not_null(draft)
            for at in self.fk_drops:
                draft.remove_foreign_key(at)
            for fk, key in self.fk_adds:
                draft.add_foreign_key(replace(fk, where=where), key)
            if rebuilds and self.replayer.target.is_mariadb:  # (before the sort: it sorts the keys as rewritten)
                rewrite_hash_keys(table, draft, self.replayer.target, schema)
            if sorts_keys:
                before_primary = set(itertools.takewhile(lambda at: at != draft.primary, draft.indexes)) if forced else set()
                draft.sort_keys(lambda at, index: key_rank(index, draft.column, forced if at in before_primary else ()))
        if any(key == "ENGINE" for pairs in self.options for key, _ in pairs):  # the new engine's limits
            body = table.writable()
            cut = server_keys(table, body.indexes, body.columns.get, self.replayer.target,
                              self.replayer.model.find_schema(table.schema))
            if cut is not None:
                body.indexes = cut
        for source in self.partition_sources:
            self.replayer.names.remove(source)
        for target in self.partition_tables:
            body = table.body_copy()
            body.foreign_keys = []
            body.defined_here()  # (made by this statement)
            body.options = replace(body.options, partitioning=None, partition_names=())
            schema = self.replayer.model.schema(target.schema if target.schema is not None else self.replayer.current_schema)
            self.replayer.names.put(Table(schema=schema.name, name=self.replayer.model.stored(target.name), body=body,
                                     defined=where, changed=where, _own_body=True))
        if rebuilds and draft is None and self.replayer.target.is_mariadb:
            rewrite_hash_keys(table, None, self.replayer.target, self.replayer.model.find_schema(table.schema))
        if self.rename_to is not None:
            self.replayer.renames.rename(table, self.rename_to, where)
        table.changed = where


def _keep_primary_not_null(draft: BodyDraft) -> None:
    """The primary key's columns are NOT NULL, whatever a MODIFY says."""
    if not draft.primary:
        return
    for part in draft.indexes[draft.primary].columns:
        column = draft.column(part.name.lower())
        if column is not None:
            column.nullable = False
