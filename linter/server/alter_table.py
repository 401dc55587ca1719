"""One ALTER TABLE (or CREATE / DROP INDEX) over one table's working copy: `TableAlter` reads
every action, checks the whole statement as the server does before it changes anything, and
applies it, or the Replayer says why the server refuses it and nothing is applied.

It owns the plan of the columns (dropped, changed, added, moved), of the foreign keys, the table
options, RENAME TO and the partition exchanges, and the body's draft it edits. Its collaborators
own their parts and are called with what they need: `alter_keys.AlterKeys` the keys the
statement drops, renames and adds; `alter_charsets.AlterCharsets` the character sets (a
CONVERT TO, a new default) and the columns as they leave them; `alter_refusals` judges the whole
statement (read-only); `rename_tables.TableRenames` and `namespaces.Namespace` the table's name.
The online cost (`online_alter`) and the record (`alterations`) read the plan, as the server
reads a statement it has prepared.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING

from linter.parse import ops
from linter.parse.options import apply_options
from linter.parse.statement import option_field
from linter.parse.body_draft import BodyDraft
from linter.parse.elements import PREFIX_LENGTH_TYPES, Column, ForeignKey, Index, Location
from linter.parse.body import drop_whole_prefixes
from linter.schema.model import Table, foreign_key_name
from linter.parse.body import TableBody, without_redundant_generated_keys
from linter.server.alter_charsets import AlterCharsets
from linter.server.alter_keys import AlterKeys, shadowed_changes
from linter.server.alter_refusals import (
    after_problem, auto_increment_problem, changed_key_problem, default_problem, is_null, memory_engine_problem,
    versioning_word_problem,
)
from linter.server.column_lengths import needs_settling, too_long
from linter.server.key_order import alter_sorts_keys, key_rank
from linter.server.key_parts import cut_changed_keys, drop_outgrown_prefixes, rewrite_hash_keys, server_keys
from linter.server.outcome import Doubt, Missing
from linter.server.refusals import (
    column_problem, key_part_problem, options_problem, repeated_key_column, temporary_key_problem,
)

if TYPE_CHECKING:
    from linter.schema.target import Target
    from linter.server.key_refusals import KeyJudge
    from linter.server.namespaces import Namespace
    from linter.server.rename_tables import TableRenames

#: ALTER actions that need the body's draft (the others change options or the table's name)
_BODY_ACTIONS = (
    ops.AddColumn, ops.ChangeColumn, ops.RenameColumn, ops.DropColumn, ops.SetColumnDefault, ops.AddIndex,
    ops.DropIndex, ops.RenameIndex, ops.AddForeignKey, ops.DropForeignKey, ops.DropConstraint, ops.ConvertCharset,
)


class TableAlter:
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

    def __init__(self, table: Table, target: Target, names: Namespace, renames: TableRenames,
                 key_judge: KeyJudge | None = None) -> None:
        self.table = table
        self.target = target
        self.names = names  # the tables by name: RENAME TO, the partition exchanges
        self.renames = renames
        self.key_judge = key_judge  # the keys the server cannot build (`key_refusals`)
        self.schema = names.model.find_schema(table.schema)  # the table's database
        self.draft: BodyDraft | None = None
        # columns: old keys consumed (dropped or changed), the new names, and what to do in order
        self.consumed: set[str] = set()
        self.new_names: list[str] = []  # the names it gives columns, in order (checked once all are known)
        self.new_columns: set[str] = set()
        self.drops: list[str] = []
        #: (old key, new definition, whether the statement re-defines it: `Column.where`)
        self.changes: list[tuple[str, Column, bool]] = []
        self.steps: list[tuple[bool, str, Column, ops.Position]] = []  # (added, key, column, position)
        #: the keys dropped, renamed and added
        self.keys = AlterKeys()
        # foreign keys: ids consumed, names given, what to add
        self.fk_gone: set[int] = set()
        self.fk_keys: set[str] = set()
        self.fk_drops: list[int] = []
        self.fk_adds: list[tuple[ForeignKey, str]] = []
        self.fk_number = 0  # the next generated foreign key number (0: not computed yet)
        self.options: list[tuple[tuple[str, str | None], ...]] = []
        #: the character sets the statement's options and CONVERT TO give the columns
        self.charsets = AlterCharsets(table, target, self.schema, self.options)
        self.rename_to: ops.Name | None = None
        #: CONVERT PARTITION ... TO TABLE: the tables made; CONVERT TABLE ... TO PARTITION: those taken in
        self.partition_tables: list[ops.Name] = []
        self.partition_sources: list[Table] = []
        #: columns dropped and added again by name in this statement: key parts stay on the name,
        #: with the prefix the new column needs (index id, column key, prefix)
        self.readded: set[str] = set()
        #: old column names changed to another name whose keys stay on a column added under the old
        #: name, which comes first in the new table (`alter_keys.shadowed_changes`)
        self.shadowed: set[str] = set()
        self.readded_prefixes: list[tuple[int, str, int | None]] = []
        self.defaults: list[ops.SetColumnDefault] = []  # ALTER COLUMN ... SET / DROP DEFAULT

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
        problem = versioning_word_problem(self.target, "ADD", action.column.name, action.bare_word)
        if problem:
            return problem
        key = action.column.name.lower()
        assert self.draft is not None  # (IF NOT EXISTS: judged on the table as it was, `DROP c, ADD IF NOT EXISTS c`)
        if action.if_not_exists and (key in self.draft.column_ids or key in self.new_columns):
            return None
        problem = column_problem(action.column, mariadb=self.target.is_mariadb)
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
        problem = column_problem(column, mariadb=self.target.is_mariadb) if defines else None
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
        problem = versioning_word_problem(self.target, "DROP", action.name, action.bare_word)
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
        if at is not None and at not in self.keys.index_gone and self.draft.indexes[at].kind in ("unique", "primary"):
            return self._DropIndex(ops.DropIndex(action.name))
        # else a CHECK constraint: the model keeps CHECK constraints by count, not by name, so
        # a name it cannot find is taken for one when the table has any
        if self.table.body.checks or self.draft.checked_columns or action.if_exists:
            return None
        return f"cannot drop constraint {action.name}: it does not exist (error 1091)"

    def _AddIndex(self, action: ops.AddIndex) -> str | None:
        assert self.draft is not None
        return self.keys.add(action, self.draft)

    def _DropIndex(self, action: ops.DropIndex) -> str | None:
        assert self.draft is not None
        return self.keys.drop(action, self.draft)

    def _RenameIndex(self, action: ops.RenameIndex) -> str | None:
        assert self.draft is not None
        return self.keys.rename(action, self.draft)

    def _ConvertCharset(self, action: ops.ConvertCharset) -> str | None:
        self.charsets.convert = action  # (two of them are one: the parser refuses two that differ)
        return None

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
        taken = self.names.taken(action.target, False)
        if taken is not None:
            return f"table {self.names.label(action.target)} already exists (created at {taken.defined.at}) (error 1050)"
        self.partition_tables.append(action.target)
        return None

    def _TableToPartition(self, action: ops.TableToPartition) -> str | None:
        source = self.names.find(action.source)
        if source is None:
            return Missing(f"table {self.names.label(action.source)} is not defined earlier in the input (error 1146)")
        self.partition_sources.append(source)
        return None

    def _redefine_added(self, old_name: str, column: Column, position: ops.Position) -> str | None:
        """A MODIFY or CHANGE of a column the table does not have: the server looks for a column
        added earlier in the statement under the NEW name (whatever the old name says), takes it
        out and puts this definition in its place at this action's position (the end without
        FIRST / AFTER); without one it is error 1054. MariaDB 10.11: `ADD z INT, ADD w INT, MODIFY
        z BIGINT` gives ..., w, z BIGINT; `ADD z INT, CHANGE q z BIGINT` works; `MODIFY z BIGINT,
        ADD z INT` and `ADD z INT, CHANGE z y BIGINT` are refused."""
        key = column.name.lower()
        at = next((n for n in range(len(self.steps) - 1, -1, -1) if self.steps[n][0] and self.steps[n][1] == key), None)
        if at is None:
            return f"unknown column {old_name} (error 1054)"
        problem = column_problem(column, mariadb=self.target.is_mariadb)
        if problem:
            return problem
        self.steps[at] = (True, key, column, self.steps[at][3])
        self.steps.append((False, key, column, position))  # (no position: moved to the end)
        named = max(n for n, name in enumerate(self.new_names) if name.lower() == key)
        self.new_names[named] = column.name
        return None

    # -- the table the statement builds ---------------------------------------------------
    def new_engine(self) -> str | None:
        """The table's engine after the statement (its last ENGINE=, else the table's)."""
        engine = self.table.body.options.engine
        for pairs in self.options:
            for key, value in pairs:
                if key == "ENGINE":
                    engine = value
        return engine

    def new_column_of(self, key: str) -> Column | None:
        """A column of the table the statement builds, by lower-case name; a column it redefines
        by its old name too (the keys on it still name that)."""
        for old, column, defines in self.changes:
            if old == key:
                return self.charsets.defined_view(column) if defines else self.charsets.kept_view(column)
        return self.new_column(key)

    def new_column(self, key: str) -> Column | None:
        """The column of this name in the table the statement builds (None: not there), in the
        character set it leaves it (`AlterCharsets`)."""
        charsets = self.charsets
        for _, column, defines in reversed(self.changes):
            if column.name.lower() == key:
                return charsets.defined_view(column) if defines else charsets.kept_view(column)
        for is_add, added, column, _ in self.steps:
            if is_add and added == key:
                return charsets.defined_view(column)
        old = self._old_column(key)
        return charsets.kept_view(old) if old is not None else None

    def kept_keys(self) -> dict[int, Index]:
        """The table's keys the statement keeps, by id (`AlterKeys.kept`)."""
        assert self.draft is not None
        return self.keys.kept(self.draft)

    def keys_built(self) -> list[Index]:
        """The keys the statement builds (`AlterKeys.built`)."""
        assert self.draft is not None
        return self.keys.built(self.draft, self.changes, converts=self.charsets.convert is not None)

    def too_long_column(self) -> tuple[Column, str] | None:
        """A column the statement leaves longer than its type allows (error 1074), as it leaves it,
        and why: one it defines, or a VARCHAR a CONVERT TO makes take more bytes than a VARCHAR
        holds."""
        if self.draft is None:  # (only table options)
            return None
        charsets = self.charsets
        defined = [column for _, column, defines in self.changes if defines]
        defined += [column for is_add, _, column, _ in self.steps if is_add]
        views = [charsets.defined_view(column) for column in defined if needs_settling(column)]
        if charsets.convert is not None:
            views += [charsets.kept_view(column) for column in self.draft.columns.values()
                      if column.name.lower() not in self.consumed]
        for view in views:
            why = too_long(view, charsets.charset_of(view), self.target) if needs_settling(view) else None
            if why:
                return view, why
        return None

    def defined_columns(self) -> list[Column]:
        """The columns the statement defines or renames, as it leaves them (costs what it names)."""
        charsets = self.charsets
        columns = [charsets.defined_view(c) if defines else charsets.kept_view(c) for _, c, defines in self.changes]
        return columns + [charsets.defined_view(c) for is_add, _, c, _ in self.steps if is_add]

    def built(self) -> Table:
        """The table the statement builds: its columns as it leaves them (no keys), its options."""
        assert self.draft is not None
        kept_view = self.charsets.kept_view
        columns = [kept_view(c) for c in self.draft.columns.values() if c.name.lower() not in self.consumed]
        columns += self.defined_columns()
        table = self.table
        return Table(schema=table.schema, name=table.name, body=TableBody({c.name.lower(): c for c in columns}, [], [],
                     table.options), defined=table.defined, changed=table.changed)

    def refused_key(self, where: Location, statement: str) -> str | None:
        """The refusal of a key the statement builds that the server cannot (`key_refusals`)."""
        judge = self.key_judge
        if judge is None or self.draft is None:
            return None
        options = self.table.body.options
        engine = self.new_engine()
        keys = self.keys_built()
        if (engine or "").lower() != (options.engine or "").lower():  # every key built again, in the new engine
            options = replace(options, engine=engine)
            keys = [*self.keys.index_adds, *self.kept_keys().values()]
        return judge.alter(self.table, keys, self.new_column_of, self.schema, where, statement, options)

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
            gone = set(self.drops).difference(key for is_add, key, _, _ in self.steps if is_add)
            problem = self.keys.names_problem(draft, gone)
            if problem is not None:
                return problem
            mariadb = self.target.is_mariadb
            for index in self.keys.index_adds:
                for part in index.columns:
                    if not part.expression and not self._in_new_table(part.name.lower()):
                        return f"key column {part.name} does not exist in the table (error 1072)"
                    problem = key_part_problem(index, part, self.new_column(part.name.lower()), mariadb=mariadb)
                    if problem:
                        return problem
                problem = repeated_key_column(index) or (
                    temporary_key_problem(index, self.new_engine()) if self.table.temporary else None)
                if problem:
                    return problem
            problem = self._readded_columns()
            if problem is not None:
                return problem
            problem, self.shadowed = shadowed_changes(draft, self.changes, self.steps, self.consumed)
            if problem is not None:
                return problem
            for fk, _ in self.fk_adds:
                for name in fk.columns:
                    if not self._in_new_table(name.lower()):
                        return f"key column {name} does not exist in the table (error 1072)"
        problem = (memory_engine_problem(self) or changed_key_problem(self) or auto_increment_problem(self)
                   or after_problem(self))
        if problem:
            return problem
        if self.rename_to is not None:
            return self.renames.problem(self.table, self.rename_to, itself=True)
        return None

    def _readded_columns(self) -> str | None:
        """DROP COLUMN a, ADD COLUMN a in one statement: the server finds key parts by column name,
        so the keys on the old `a` stay on the new one, with the old key part's length: a longer
        CHAR/VARCHAR becomes a prefix of the old length, a shorter one or another type of another
        length is refused (error 1089; MariaDB 10.11, tests/test_model_oracle.py)."""
        assert self.draft is not None
        added = {key: column for is_add, key, column, _ in self.steps if is_add}
        for key in self.drops:
            new = added.get(key)
            old = self.draft.column(key)
            if new is None or old is None or not self.draft.uses.get(key):
                continue
            self.readded.add(key)
            for index_id in self.draft.uses[key]:
                if index_id in self.keys.index_drops:
                    continue
                for part in self.draft.indexes[index_id].columns:
                    if part.expression or part.name.lower() != key:
                        continue
                    same = (old.type == new.type and old.params == new.params) or (
                        old.type == new.type and not old.params and not new.params)
                    if same:
                        continue
                    if old.type in PREFIX_LENGTH_TYPES and new.type == old.type and old.length and new.length \
                            and (old.charset or "").lower() == (new.charset or "").lower():
                        length = part.prefix if part.prefix is not None else old.length
                        if new.length > length:
                            self.readded_prefixes.append((index_id, key, length))
                            continue
                        if new.length == length:
                            self.readded_prefixes.append((index_id, key, None))
                            continue
                        return (f"column {new.name} is dropped and added again shorter than the key part on it "
                                f"({length}): incorrect prefix key (error 1089)")
                    return Doubt(f"column {new.name} is dropped and added again as {new.type}, where a key keeps the "
                                 f"old {old.type}'s key part length: the server refuses the statement unless the two "
                                 "have the same key length (error 1089), which innolint cannot tell")
        return None

    def _defaults_problem(self) -> str | None:
        """ALTER COLUMN ... SET / DROP DEFAULT, once every action is read. It names a column of the
        table as it was, which the statement does not change; or, on MariaDB, a column a MODIFY or
        CHANGE with FIRST / AFTER redefines, by its new name, or one the statement adds, whose
        definition then takes the default whatever the order written. A column changed in place is unknown to it (error
        1054; MariaDB 10.11: `ALTER f SET DEFAULT 'y', MODIFY f CHAR(36)` is refused, the same with
        `FIRST` gives f DEFAULT 'y'; MySQL is taken to do the same). An AUTO_INCREMENT column takes
        a default this way, judged as any column's, which the server keeps unused while it is
        AUTO_INCREMENT and a CREATE ... SELECT copy shows (MariaDB 10.11, fuzz seed 406)."""
        moved = {key for is_add, key, _, _ in self.steps if not is_add}
        for action in self.defaults:
            key = action.name.lower()
            if is_null(action.default) and any(
                    index.kind == "primary" and any(p.name.lower() == key for p in index.columns)
                    for index in self.keys.index_adds):  # (MariaDB 10.11; a MODIFY ... DEFAULT NULL is taken)
                return f"invalid default value for {action.name} (error 1067): the PRIMARY KEY added makes it NOT NULL"
            at = next((n for n, (_, column, _) in enumerate(self.changes) if column.name.lower() == key), None)
            if at is not None and key in moved:
                old, column, defines = self.changes[at]
                changed = self._defaulted(column, action.default)
                problem = default_problem(changed)
                if problem:
                    return problem
                self.changes[at] = (old, changed, defines)
                continue
            added = next((n for n, (is_add, name, _, _) in enumerate(self.steps) if is_add and name == key), None)
            if added is not None:  # (a column the statement adds takes it too)
                _, name, column, position = self.steps[added]
                changed = self._defaulted(column, action.default)
                problem = default_problem(changed)
                if problem:
                    return problem
                self.steps[added] = (True, name, changed, position)
                continue
            column = self._old_column(action.name)
            if column is None:
                return f"unknown column {action.name} (error 1054)"
            changed = self._defaulted(column, action.default)
            problem = default_problem(changed) or self._change(action.name, changed, None, False, defines=False)
            if problem:
                return problem
        return None

    def _defaulted(self, column: Column, default: str | None) -> Column:
        """`column` with the default ALTER COLUMN ... SET / DROP DEFAULT gives it: on MariaDB a
        TEXT/BLOB given DEFAULT NULL keeps it as a value (`Column.altered_null_default`)."""
        kept = is_null(default) and column.is_large and self.target.is_mariadb
        return replace(column, default=default, altered_null_default=kept)

    def _apply_charsets(self, where: Location) -> None:
        """Before the options and the statement's own columns are applied: the table's new default
        character set, and the columns it had moved as a CONVERT TO moves them (`AlterCharsets.apply`)."""
        plan = self.charsets.plan()
        if plan is None:
            return
        if self.draft is None:
            self.draft = self.table.writable().draft(self.table.name)
        self.charsets.apply(plan, self.draft, self.changes, where)

    # -- applying it ------------------------------------------------------------------------
    def sorts_keys(self, draft: BodyDraft) -> bool:
        """Whether the server sorts the table's keys again (`key_order.alter_sorts_keys`)."""
        mariadb = self.target.is_mariadb
        adds_key = bool(self.keys.index_adds or self.fk_adds)
        if mariadb and not adds_key and not self.drops and not self.changes:
            return False
        clustered = draft.clustered()
        return alter_sorts_keys(mariadb=mariadb, adds_key=adds_key, clustered=clustered,
                                clustered_dropped=any(draft.indexes[at] is clustered for at in self.keys.index_drops),
                                dropped=self.drops, made_nullable=[old for old, column, _ in self.changes if column.nullable])

    def changes_anything(self) -> bool:
        """Whether the statement has an action left to do (not only a RENAME TO, nor IF [NOT]
        EXISTS actions the table made void)."""
        return bool(self.drops or self.changes or self.steps or self.keys.index_drops or self.keys.index_renames
                    or self.keys.index_adds or self.fk_drops or self.fk_adds or self.options or self.partition_tables
                    or self.partition_sources or self.charsets.convert)

    def apply(self, where: Location, *, rebuilds: bool = True) -> None:
        """`rebuilds`: the server writes the table's definition anew (`rewrite_hash_keys`)."""
        table = self.table
        self._apply_charsets(where)  # first: the columns defined below take the new engine's limits and charset
        for pairs in self.options:
            apply_options(table.writable().options, pairs)
            for key, _ in pairs:
                table.set_option_place(option_field(key), where)
        draft = self.draft
        if draft is not None:
            sorts_keys = self.sorts_keys(draft)  # (judged on the table as it was)
            for at in self.keys.index_drops:  # first: a column dropped below may empty the same key
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
                     self.charsets.written_view(replace(column, where=where)) if defines else replace(column))
                    for old, column, defines in self.changes
                ])
                if self.target.is_mariadb:
                    drop_outgrown_prefixes(draft, [column for _, column, defines in self.changes if defines])
                    cut_changed_keys(table, draft, [column for _, column, defines in self.changes if defines],
                                      self.target, self.schema)
            for is_add, key, column, position in self.steps:
                if position is None:
                    previous = draft.last_column()
                elif position == "FIRST":
                    previous = 0
                else:
                    previous = draft.column_ids[position[1].lower()]  # type: ignore[index]
                if is_add:
                    draft.insert_column(self.charsets.written_view(replace(column, where=where)), previous)
                else:
                    draft.move_column(draft.column_ids[key], previous)
            for old, uses in shadowed.items():
                draft.uses[old] = uses
            for index_id, key, prefix in self.readded_prefixes:
                index = draft.indexes[index_id]
                index.columns = tuple(replace(p, prefix=prefix) if not p.expression and p.name.lower() == key else p
                                      for p in index.columns)
            for at, name in self.keys.index_renames:
                if at in draft.indexes:  # (not emptied by a column dropped above)
                    draft.rename_index(at, name)
            schema = self.schema
            for index in self.keys.index_adds:
                added = replace(index, where=where)
                drop_whole_prefixes([added], draft.column_by_name)
                cut = server_keys(table, [added], draft.column, self.target, schema)
                draft.add_index(added if cut is None else cut[0])
                if index.kind == "primary":
                    table.key_dropped = None
            if self.keys.index_adds and any(index.generated for index in draft.indexes.values()):
                kept = {id(index) for index in without_redundant_generated_keys(list(draft.indexes.values()))}
                for at in [at for at, index in draft.indexes.items() if id(index) not in kept]:
                    draft.remove_index(at)
            # columns only the added PRIMARY KEY makes NOT NULL: still nullable for the keys the
            # server reads before it (the table's own, then those added, in the order written)
            forced = draft.nullable_primary_columns() if self.keys.adds_primary else frozenset()
            if self.changes or self.keys.adds_primary or self.readded:
                _keep_primary_not_null(draft)
            for at in self.fk_drops:
                draft.remove_foreign_key(at)
            for fk, key in self.fk_adds:
                draft.add_foreign_key(replace(fk, where=where), key)
            if rebuilds and self.target.is_mariadb:  # (before the sort: it sorts the keys as rewritten)
                rewrite_hash_keys(table, draft, self.target, schema)
            if sorts_keys:
                before_primary = set(itertools.takewhile(lambda at: at != draft.primary, draft.indexes)) if forced else set()
                draft.sort_keys(lambda at, index: key_rank(index, draft.column, forced if at in before_primary else ()))
        if any(key == "ENGINE" for pairs in self.options for key, _ in pairs):  # the new engine's limits
            body = table.writable()
            cut = server_keys(table, body.indexes, body.columns.get, self.target,
                              self.schema)
            if cut is not None:
                body.indexes = cut
        for source in self.partition_sources:
            self.names.remove(source)
        for target in self.partition_tables:
            body = table.body_copy()
            body.foreign_keys = []
            body.defined_here()  # (made by this statement)
            body.options = replace(body.options, partitioning=None, partition_names=())
            schema = self.names.model.schema(target.schema if target.schema is not None else self.names.current_schema)
            self.names.put(Table(schema=schema.name, name=self.names.model.stored(target.name), body=body,
                                     defined=where, changed=where, _own_body=True))
        if rebuilds and draft is None and self.target.is_mariadb:
            rewrite_hash_keys(table, None, self.target, self.schema)
        if self.rename_to is not None:
            self.renames.rename(table, self.rename_to, where)
        table.changed = where


def _keep_primary_not_null(draft: BodyDraft) -> None:
    """The primary key's columns are NOT NULL, whatever a MODIFY says."""
    if not draft.primary:
        return
    for part in draft.indexes[draft.primary].columns:
        column = draft.column(part.name.lower())
        if column is not None:
            column.nullable = False
