"""RENAME TABLE, and the renaming ALTER TABLE ... RENAME does (`TableRenames`, a mixin of
`linter.server.replay.Replayer`, whose state it reads).

The server renames the pairs in order and, if one fails, none of them: a name taken in the
renamed table's namespace (1050; views share the permanent tables' one), an unknown database
(1025), a table that is not there. Each old name is bound to the temporary tables first, as
`linter.server.namespaces.bind_temporaries` says, and a temporary table hidden by a refused ALTER
... CHANGE is not seen (`RenameBlindness`). RENAME TABLE renames views too, within their
database (1450), and the foreign keys named after the table (`<old>_ibfk_<n>`). A table moved to
another database keeps the default character set it was made with (the server wrote it on the
table when it was created), where the new database's differs.
"""

from __future__ import annotations

from collections.abc import Callable

from linter.parse import ops
from linter.server.alter_charsets import keep_copied_charset
from linter.parse.elements import Location
from linter.schema.model import Schema, SchemaModel, Table, rename_generated_foreign_keys
from linter.server.namespaces import CaseLookup, RenameBlindness, bind_temporaries
from linter.server.outcome import Missing
from linter.schema.target import Target


class TableRenames:
    """RENAME TABLE and `_rename` (see the module's docstring)."""

    model: SchemaModel
    target: Target
    current_schema: str | None
    _views: set[tuple[str | None, str]]
    _cases: CaseLookup
    _temporaries: RenameBlindness
    _view_key: Callable[[ops.Name], tuple[str | None, str]]
    _taken: Callable[[ops.Name, bool], Table | None]
    _label: Callable[[ops.Name], str]
    _case_hint: Callable[[ops.Name], str]
    _remove: Callable[[Table], None]
    _put: Callable[[Table], None]
    _schema: Callable[[ops.Name], Schema | None]

    def _RenameTable(self, op: ops.RenameTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        done: list[tuple[Table, str | None, str]] = []
        views_done: list[tuple[ops.Name, ops.Name]] = []
        problem = None
        renamed: set[int] = set()  # temporary tables this statement renamed: a later pair may name them
        seen = self._temporaries.seen_by_rename
        sources = bind_temporaries([name for pair in op.pairs for name in pair], lambda n: seen(self._taken(n, True)))[::2]
        for (old, new), table in zip(op.pairs, sources):
            if table is None:
                table = self._taken(old, True)
                table = table if table is not None and id(table) in renamed else self._taken(old, False)
            if table is None and self._views and self._view_key(old) in self._views:  # RENAME TABLE renames views too
                if self._taken(new, False) is not None or self._view_key(new) in self._views:
                    problem = f"table {self._label(new)} already exists (error 1050)"
                    break
                if self._view_key(new)[0] != self._view_key(old)[0]:
                    problem = f"view {self._label(old)} cannot move to another database (error 1450)"
                    break
                self._views.discard(self._view_key(old))
                self._views.add(self._view_key(new))
                views_done.append((old, new))
                continue
            if table is None:
                if op.if_exists:
                    continue
                problem = Missing(f"table {self._label(old)} is not defined earlier in the input{self._case_hint(old)}")
                break
            problem = self._rename_problem(table, new, itself=False)
            if problem is not None:
                break
            done.append((table, table.schema, table.name, table.changed))
            self._rename(table, new, where)
            if table.temporary:
                renamed.add(id(table))
        if problem is None:
            return self._temporaries.unseen_note(op.pairs, lambda n: self._taken(n, True))
        for old, new in reversed(views_done):
            self._views.discard(self._view_key(new))
            self._views.add(self._view_key(old))
        for table, schema, name, changed in reversed(done):
            self._remove(table)
            table.schema, table.changed = schema, changed
            rename_generated_foreign_keys(table, name)
            self._put(table)
        said = f"RENAME TABLE: {problem}; the server renames none of the tables"
        return Missing(said) if isinstance(problem, Missing) else said

    def _rename_problem(self, table: Table, new: ops.Name, itself: bool) -> str | None:
        """Why `table` may not take the name `new` (RENAME TABLE, ALTER TABLE ... RENAME): a table of
        its namespace has it (RENAME TABLE t TO t too; `itself`: ALTER TABLE t RENAME t is a no-op),
        a view has it (views share the permanent tables' namespace), or it names a database that
        differs only in case from one the input knows."""
        taken = self._taken(new, table.temporary)
        if taken is not None and (taken is not table or not itself):
            return f"table {self._label(new)} already exists (created at {taken.defined.at}; error 1050)"
        if not table.temporary and self._views and self._view_key(new) in self._views:
            return f"a view {self._label(new)} exists (error 1050)"
        if new.schema is not None and self.model.find_schema(new.schema) is None:
            return self._cases.unknown_database(new.schema, f"rename to {self._label(new)}", 1025, "nothing is renamed")
        return None

    def _rename(self, table: Table, new: ops.Name, where: Location) -> None:
        self._remove(table)
        schema = self.model.schema(new.schema if new.schema is not None else self.current_schema)
        if schema.name != table.schema:  # (it keeps the default character set it was made with: fuzz seed 369)
            keep_copied_charset(table.writable(), table, self.target, self.model.find_schema(table.schema), schema)
        table.schema = schema.name
        table.bare_name = new.bare
        rename_generated_foreign_keys(table, self.model.stored(new.name))
        table.changed = where
        self._put(table)
