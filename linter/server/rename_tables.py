"""RENAME TABLE, and the renaming ALTER TABLE ... RENAME does (`TableRenames`, over the names of
`linter.server.namespaces.Namespace`; the Replayer and an ALTER's `TableAlter` call it).

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

from linter.parse import ops
from linter.server.alter_charsets import keep_copied_charset
from linter.parse.elements import Location
from linter.schema.model import Table, rename_generated_foreign_keys
from linter.server.namespaces import Namespace, RenameBlindness, bind_temporaries
from linter.server.outcome import Missing
from linter.schema.target import Target


class TableRenames:
    """RENAME TABLE, and the rename an ALTER TABLE ... RENAME does (see the module's docstring),
    over the names of `names`; `temporaries`: the temporary tables a refused ALTER hid from
    RENAME TABLE."""

    def __init__(self, names: Namespace, target: Target, temporaries: RenameBlindness) -> None:
        self.names = names
        self.model = names.model
        self.target = target
        self.temporaries = temporaries

    def rename_table(self, op: ops.RenameTable, where: Location) -> str | None:
        names = self.names
        done: list[tuple[Table, str | None, str]] = []
        views_done: list[tuple[ops.Name, ops.Name]] = []
        problem = None
        renamed: set[int] = set()  # temporary tables this statement renamed: a later pair may name them
        seen = self.temporaries.seen_by_rename
        sources = bind_temporaries([name for pair in op.pairs for name in pair], lambda n: seen(names.taken(n, True)))[::2]
        for (old, new), table in zip(op.pairs, sources):
            if table is None:
                table = names.taken(old, True)
                table = table if table is not None and id(table) in renamed else names.taken(old, False)
            if table is None and names.views and names.view_key(old) in names.views:  # RENAME TABLE renames views too
                if names.taken(new, False) is not None or names.view_key(new) in names.views:
                    problem = f"table {names.label(new)} already exists (error 1050)"
                    break
                if names.view_key(new)[0] != names.view_key(old)[0]:
                    problem = f"view {names.label(old)} cannot move to another database (error 1450)"
                    break
                names.views.discard(names.view_key(old))
                names.views.add(names.view_key(new))
                views_done.append((old, new))
                continue
            if table is None:
                if op.if_exists:
                    continue
                problem = Missing(f"table {names.label(old)} is not defined earlier in the input{names.case_hint(old)}")
                break
            problem = self.problem(table, new, itself=False)
            if problem is not None:
                break
            done.append((table, table.schema, table.name, table.changed))
            self.rename(table, new, where)
            if table.temporary:
                renamed.add(id(table))
        if problem is None:
            return self.temporaries.unseen_note(op.pairs, lambda n: names.taken(n, True))
        for old, new in reversed(views_done):
            names.views.discard(names.view_key(new))
            names.views.add(names.view_key(old))
        for table, schema, name, changed in reversed(done):
            names.remove(table)
            table.schema, table.changed = schema, changed
            rename_generated_foreign_keys(table, name)
            names.put(table)
        said = f"RENAME TABLE: {problem}; the server renames none of the tables"
        return Missing(said) if isinstance(problem, Missing) else said

    def problem(self, table: Table, new: ops.Name, itself: bool) -> str | None:
        """Why `table` may not take the name `new` (RENAME TABLE, ALTER TABLE ... RENAME): a table of
        its namespace has it (RENAME TABLE t TO t too; `itself`: ALTER TABLE t RENAME t is a no-op),
        a view has it (views share the permanent tables' namespace), or it names a database that
        differs only in case from one the input knows."""
        names = self.names
        taken = names.taken(new, table.temporary)
        if taken is not None and (taken is not table or not itself):
            return f"table {names.label(new)} already exists (created at {taken.defined.at}; error 1050)"
        if not table.temporary and names.views and names.view_key(new) in names.views:
            return f"a view {names.label(new)} exists (error 1050)"
        if new.schema is not None and self.model.find_schema(new.schema) is None:
            return names.cases.unknown_database(new.schema, f"rename to {names.label(new)}", 1025, "nothing is renamed")
        return None

    def rename(self, table: Table, new: ops.Name, where: Location) -> None:
        names = self.names
        names.remove(table)
        schema = self.model.schema(new.schema if new.schema is not None else names.current_schema)
        if schema.name != table.schema:  # (it keeps the default character set it was made with: fuzz seed 369)
            keep_copied_charset(table.writable(), table, self.target, self.model.find_schema(table.schema), schema)
        table.schema = schema.name
        table.bare_name = new.bare
        rename_generated_foreign_keys(table, self.model.stored(new.name))
        table.changed = where
        names.put(table)
