"""Which database or table a statement means, as the server resolves names, for the replay
(`linter.server.replay.Replayer`) to ask before it changes anything: `Namespace` holds them.

- Database names follow `lower_case_table_names` as table names do. Where they are case-sensitive
  (0, Linux's default), `USE D2` after `CREATE DATABASE d2` fails (error 1049: unknown database)
  and the client stays in its database; `CREATE TABLE D2.t` fails the same way, and `D2.t` names
  no table. innolint cannot know every database a server has, but it knows those the input
  created, used or put tables in: a name that differs from one of them only in case is almost
  surely that one, mistyped. The replay then does what the server does when no such database
  exists (refuses the statement) and says which database the name differs from, and on which
  servers the statement runs as written (lower_case_table_names = 1 or 2). MySQL's manual
  describes the same folding; only MariaDB was asked here.
- RENAME TABLE binds its names, in order (old, new, old, new ...), to the temporary tables that
  exist before it, each temporary table to the first name that has it: `RENAME TABLE t4 TO t3,
  t3 TO t1` with a temporary t3 renames the permanent t4 twice (the new name t3 took the temporary
  one), and `x TO y, x TO z` renames the temporary x, then the permanent x. A name bound to none
  means a temporary table an earlier pair renamed to it (`d TO d2, d2 TO d3`), else the permanent
  table (MariaDB 10.11, tests/test_temporary_namespace.py; the rule is MariaDB's, followed for
  every target: what MySQL's RENAME TABLE does with temporary tables was not checked here).
- After MariaDB refuses an ALTER TABLE of a temporary table that CHANGEs or RENAMEs a column, its
  RENAME TABLE does not see that temporary table until a statement opens it again (any ALTER,
  CREATE INDEX, SELECT or INSERT on it): it renames the permanent table of that name, or finds
  none (MariaDB 10.11, tests/test_temporary_namespace.py; MODIFY does not do this, nor an ALTER
  refused because a RENAME COLUMN names a column the table does not have, which the server finds
  before it opens the table for the change).
  `RenameBlindness` follows that, and says innolint cannot tell it for the statements it skips.
- One statement may not name one table twice: `CREATE TABLE t LIKE t` and `DROP TABLE t, t`
  fail with error 1066 (not unique table/alias) whatever exists, IF [NOT] EXISTS or TEMPORARY
  included (MariaDB 10.11, tests/test_temporary_namespace.py; MySQL has the same error, not
  checked here).
- A view over a table's name (`view_over_table`) is refused and the table kept, a mysqldump
  stand-in that was not dropped first included (tests/test_view_namespace.py).

Looking a name up in another case reads every database (or every table of one), so each
`CaseLookup` answers at most `LOOKS` such questions: a file of thousands of missing names stays
linear, and the first ones, which are the ones a user reads, are explained.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from linter.parse import ops
from linter.parse.elements import Location
from linter.schema.model import Schema, SchemaModel, Table
from linter.server.outcome import Doubt, Missing

#: how many names one replay looks up in another case
LOOKS = 100

_LCTN_0 = "with lower_case_table_names=0 (Linux's default) they are two {kind} and this statement fails"
_AS_WRITTEN = ("the history runs as written only where names are case-insensitive (lower_case_table_names = 1 or 2 "
               "in the configuration, if that is the server it runs on)")


def _at(location: Location | None) -> str:
    return f"{location.path}:{location.line}" if location is not None else "earlier in the input"


class CaseLookup:
    """Names that differ only in case from a database or table the model has, on a server where
    names are case-sensitive (`lower_case_table_names` 0); never anything where they fold."""

    def __init__(self, model: SchemaModel) -> None:
        self.model = model
        self.sensitive = model.lower_case_table_names == 0
        self.looks = LOOKS

    def _look(self) -> bool:
        if not self.sensitive or self.looks <= 0:
            return False
        self.looks -= 1
        return True

    def database(self, name: str) -> Schema | None:
        """The database the input knows whose name differs from `name` only in case, when the
        input knows none named exactly `name`."""
        if not self.sensitive or self.model.find_schema(name) is not None or not self._look():
            return None
        folded = name.lower()
        return next((s for s in self.model.schemas.values() if s.name is not None and s.name.lower() == folded), None)

    def table(self, schema: Schema, name: str) -> Table | None:
        """A table of `schema` whose name differs from `name` only in case."""
        if not self._look():
            return None
        folded = name.lower()
        return next((t for t in schema.tables.values() if t.name.lower() == folded), None)

    # -- what to say ----------------------------------------------------------------------
    def unknown_database(self, name: str, statement: str, error: int, outcome: str) -> str | None:
        """The message for a statement naming database `name`, which the input does not know
        while it knows one that differs only in case (None: no such database)."""
        other = self.database(name)
        if other is None:
            return None
        return Missing(f"{statement}: database {name} is not defined earlier in the input; database {other.name} "
                f"({_known_at(other)}) differs only in case: {_LCTN_0.format(kind='databases')} (error {error}) and "
                f"{outcome}; {_AS_WRITTEN}")

    def hint(self, name: ops.Name, schema: Schema | None) -> str:
        """What to add when `name` names no table: the table (or the database) it differs from
        only in case."""
        if schema is None:
            other = self.database(name.schema) if name.schema is not None else None
            if other is None:
                return ""
            return (f"; database {other.name} ({_known_at(other)}) differs only in case from {name.schema}: "
                    f"{_LCTN_0.format(kind='databases')}; {_AS_WRITTEN}")
        other_table = self.table(schema, name.name)
        if other_table is None:
            return ""
        return (f"; table {other_table.name} (created at {_at(other_table.defined)}) differs only in case: "
                f"{_LCTN_0.format(kind='tables')}; {_AS_WRITTEN}")


def _known_at(schema: Schema) -> str:
    if schema.defined is not None:
        return f"created at {_at(schema.defined)}"
    return "named earlier in the input"


def named_twice(names: Iterable[ops.Name], key: object, current: str | None) -> str | None:
    """A table one statement names twice (error 1066), as written: `key` folds a name as the
    server compares it. A qualified and an unqualified name are compared only when the current
    database is known (a client's starting database is not)."""
    seen: set[tuple[object, object]] = set()
    for name in names:
        schema = name.schema if name.schema is not None else current
        identity = (key(schema) if schema is not None else None, key(name.name))  # type: ignore[operator]
        if identity in seen:
            return name.name
        seen.add(identity)
    return None


def bind_temporaries(names: list[ops.Name], temporary: Callable[[ops.Name], Table | None]) -> list[Table | None]:
    """For each name of a RENAME TABLE, in order, the temporary table it is bound to before the
    statement runs (None: none): each temporary table goes to the first name that has it."""
    taken: set[int] = set()
    bound: list[Table | None] = []
    for name in names:
        table = temporary(name)
        if table is not None and id(table) in taken:
            table = None
        if table is not None:
            taken.add(id(table))
        bound.append(table)
    return bound


def view_over_table(statement: str, table: Table, standin: bool, or_replace: bool) -> str:
    """CREATE [OR REPLACE] VIEW on a table's name: the server refuses it (1050; OR REPLACE
    replaces only a view: 1347) and keeps the table, a mysqldump stand-in (`standin`) included."""
    error = "1347: not a view" if or_replace else "1050"
    if standin:
        return (f"{statement}: mysqldump's stand-in table {table.name} (at {_at(table.defined)}) was not dropped "
                "before the view (the `DROP TABLE IF EXISTS` a dump writes there, left out by --skip-add-drop-table "
                f"or lost): the server refuses the view (error {error}) and keeps the stand-in as a table, which "
                "innolint lints as it does")
    return (f"{statement}: table {table.name} already exists (created at {_at(table.defined)}; error {error}); the "
            "server refuses this statement and keeps the table")


#: the server's own databases: a SELECT may read their tables, which the input never creates
SYSTEM_SCHEMAS = frozenset({"information_schema", "mysql", "performance_schema", "sys"})


class Namespace:
    """The names a statement resolves, as the server resolves them: databases and tables of the
    model (`lower_case_table_names`), the current database (USE), TEMPORARY tables in a namespace
    of their own that hides the permanent table of the same name, and the views the input
    created, which share the permanent tables' namespace. CREATE VIEW and DROP VIEW are its own:
    a view over a table's name is refused (1050, or 1347 with OR REPLACE), a mysqldump stand-in
    the dump never dropped included (`view_over_table`)."""

    def __init__(self, model: SchemaModel) -> None:
        self.model = model
        #: database and table names are folded to lower case to compare (lower_case_table_names 1, 2)
        self.fold = model.lower_case_table_names != 0
        self.current_schema: str | None = None
        #: names that differ only in case from a database or table the input knows (a bounded
        #: number of looks: a file of missing names stays linear)
        self.cases = CaseLookup(model)
        #: views the input created, (database, folded name): a SELECT may read them
        self.views: set[tuple[str | None, str]] = set()
        #: tables mysqldump made as stand-ins for views (`/*!50001 CREATE TABLE`), by id: for the message
        #: when the view meets one that was not dropped
        self.standins: dict[int, Table] = {}

    # -- names ----------------------------------------------------------------------------
    def key(self, name: str) -> str:
        return name.lower() if self.fold else name

    def schema(self, name: ops.Name) -> Schema | None:
        """The database `name` is in (the current one when it names none), None when the model has none."""
        schema = name.schema if name.schema is not None else self.current_schema
        return self.model.schemas.get((schema.lower() if self.fold else schema) if schema else None)

    def find(self, name: ops.Name) -> Table | None:
        """The table a statement means by `name`: a TEMPORARY table of that name first."""
        schema = self.schema(name)
        if schema is None:
            return None
        key = name.name.lower() if self.fold else name.name
        if schema.temporary:
            found = schema.temporary.get(key)
            if found is not None:
                return found
        return schema.tables.get(key)

    def case_hint(self, name: ops.Name) -> str:
        """What to add when `name` names no table: the table or database it differs from only in
        case, where names are case-sensitive (`CaseLookup.hint`)."""
        return self.cases.hint(name, self.schema(name))

    def taken(self, name: ops.Name, temporary: bool) -> Table | None:
        """The table already holding `name` in the namespace of a new (temporary or not) table."""
        schema = self.schema(name)
        if schema is None:
            return None
        return (schema.temporary if temporary else schema.tables).get(self.key(name.name))

    def put(self, table: Table) -> None:
        # interned: a tenant dump puts the same few names in every schema (one key string each,
        # not one per table: ~90 bytes of every table's memory)
        schema = self.model.schema(table.schema)
        space = schema.temporary if table.temporary else schema.tables
        space[sys.intern(self.key(table.name))] = table

    def remove(self, table: Table) -> None:
        schema = self.model.find_schema(table.schema)
        if schema is not None:
            space = schema.temporary if table.temporary else schema.tables
            key = self.key(table.name)
            if space.get(key) is table:
                del space[key]

    def missing_source(self, name: ops.Name) -> bool:
        """A table a SELECT reads that is certainly not there: not a table or view of the input, in
        a database the input has (the server's own, information_schema, mysql ..., are not)."""
        if name.name.upper() == "DUAL" or self.find(name) is not None:
            return False
        if name.schema is not None and (name.schema.lower() in SYSTEM_SCHEMAS or self.schema(name) is None):
            # a database the input never named: the server's own, or one innolint does not see and
            # takes to hold the table, as it takes the client's first database to exist; unless it
            # differs only in case from one the input knows (then it is that one, mistyped)
            return self.cases.database(name.schema) is not None
        return self.view_key(name) not in self.views

    @staticmethod
    def label(name: ops.Name) -> str:
        return f"{name.schema}.{name.name}" if name.schema is not None else name.name

    # -- views ----------------------------------------------------------------------------
    def view_key(self, name: ops.Name) -> tuple[str | None, str]:
        schema = name.schema if name.schema is not None else self.current_schema
        return (self.key(schema) if schema is not None else None, self.key(name.name))

    def is_view(self, name: ops.Name) -> bool:
        """Whether `name` names a view the input created."""
        return bool(self.views) and self.view_key(name) in self.views

    def create_view(self, op: ops.CreateView) -> str | None:
        schema = self.schema(op.name)
        table = schema.tables.get(self.key(op.name.name)) if schema is not None else None
        key = self.view_key(op.name)
        if table is not None:  # the server keeps the table, a mysqldump stand-in of this view too
            return view_over_table(f"CREATE VIEW {self.label(op.name)}", table, self.standins.get(id(table)) is table,
                                   op.or_replace)
        elif key in self.views and not op.or_replace:
            if op.if_not_exists:
                return None
            return f"CREATE VIEW {self.label(op.name)}: the view already exists (error 1050); the server refuses this statement"
        self.views.add(key)
        return None

    def drop_view(self, op: ops.DropView) -> str | None:
        missing = []
        for name in op.names:
            key = self.view_key(name)
            if key in self.views:
                self.views.discard(key)
            else:
                missing.append(self.label(name))
        if missing and not op.if_exists:
            return Missing(f"DROP VIEW: unknown view {', '.join(missing)} (not defined earlier in the input); the server "
                           "drops the others")
        return None


class RenameBlindness:
    """The temporary tables a refused ALTER ... CHANGE / RENAME COLUMN hid from RENAME TABLE
    (see the module's docstring), with where that ALTER was."""

    def __init__(self) -> None:
        self._hidden: dict[int, tuple[Table, Location]] = {}

    def altered(self, table: Table, where: Location, actions: tuple[ops.AlterAction, ...], *, refused: bool) -> None:
        """An ALTER TABLE (or CREATE / DROP INDEX) of the temporary `table`, refused or not."""
        if refused and any(isinstance(a, ops.RenameColumn) or isinstance(a, ops.ChangeColumn) and a.change
                           for a in actions) and not any(
                isinstance(a, ops.RenameColumn) and not a.if_exists and table.column(a.old_name) is None
                for a in actions):  # (a RENAME COLUMN of a column not there is refused before: fuzz seed 364)
            self._hidden[id(table)] = (table, where)
        elif self._hidden:
            self._hidden.pop(id(table), None)

    def seen_by_rename(self, table: Table | None) -> Table | None:
        """`table` (a temporary table or None) as RENAME TABLE sees it: None when hidden."""
        if table is not None and self._hidden and self._hidden.get(id(table), (None,))[0] is table:
            return None
        return table

    def unseen_note(self, pairs: tuple[tuple[ops.Name, ops.Name], ...], temporary: Callable[[ops.Name], Table | None]
                    ) -> str | None:
        """What to say of a RENAME TABLE that went past a hidden temporary table, or None."""
        if not self._hidden:
            return None
        for old, _ in pairs:
            table = temporary(old)
            if table is not None and self.seen_by_rename(table) is None:
                line = self._hidden[id(table)][1].line
                return Doubt(f"RENAME TABLE: MariaDB renames the permanent {old.name}, not the temporary one: after the "
                        f"ALTER TABLE at line {line} it refused (a CHANGE or RENAME COLUMN), its RENAME TABLE does not "
                        "see the temporary table until a statement opens it; innolint cannot tell whether a SELECT or "
                        "INSERT it skips did")
        return None
