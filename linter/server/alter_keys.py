"""The keys of one ALTER TABLE, in the server's order of evaluation (`AlterKeys`, a part of
`linter.server.replay._Alter`).

The server does not apply an ALTER's actions one after the other: mysql_prepare_alter_table
(sql_table.cc) reads every action first, then builds the new table's key list from the table as
it was - its keys less those the statement drops (DROP INDEX / PRIMARY KEY / CONSTRAINT, each
naming a key of the table as it was: 1091 otherwise), renamed as RENAME INDEX says (again a key
of the table as it was: 1176 otherwise, so `RENAME KEY a TO b, RENAME KEY b TO c` fails) - and
appends the keys it adds, in statement order; mysql_prepare_create_table then names the unnamed
ones and refuses duplicates (1061) and a second primary key (1068) over that list. So, whatever
the order written (MariaDB 10.11, tests/test_model_keys.py):

- `ADD KEY ka (b), DROP KEY ka` and `ADD PRIMARY KEY (b), DROP PRIMARY KEY` replace the old key;
- `ADD KEY (a), DROP KEY a` names the new key `a`, and `ADD KEY (a), DROP KEY a, ADD KEY a (b)`
  fails (1061: the first took `a`);
- `ADD KEY (b), RENAME KEY a TO b`: the renamed key is `b`, the added one `b_2`;
- `RENAME KEY a TO b, DROP KEY b` gives the old `b`'s name to `a`;
- IF NOT EXISTS is decided against the table as it was and the keys added before it (MariaDB's
  handle_if_exists_options runs before all this);
- a key part names a column of the table as it was, and the server finds it in the new table by
  walking the new columns in order: the first that was that column (changed or renamed) or is
  added under that name takes it. So `CHANGE b g INT, ADD b INT AFTER a` (the new `b` before `g`)
  leaves the keys on the new `b`; with the new `b` last they follow `g` (`_shadowed_changes`).

MySQL 8.0 builds the key list the same way (its mysql_prepare_alter_table is the same code's
descendant; not run here).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from linter.parse.keys import MAX_KEYS
from linter.parse.body_draft import BodyDraft
from linter.parse.body import name_unnamed_keys, without_redundant_generated_keys
from linter.parse.elements import Index, Location
from linter.server.key_parts import as_stored
from linter.server.outcome import Doubt

if TYPE_CHECKING:
    from linter.parse import ops


class AlterKeys:
    """ADD / DROP / RENAME INDEX of `_Alter`: each action checked against the table as it was
    while the statement is read (`plan`), the names checked and given once all are read
    (`key_names_problem`, from `_Alter.check`)."""

    draft: BodyDraft | None
    index_gone: set[int]
    index_names: set[str]
    index_drops: list[int]
    index_renames: list[tuple[int, str]]
    index_adds: list[Index]
    adds_primary: bool
    changes: list[tuple[str, Any, bool]]  # (old key, new Column, defines)
    steps: list[tuple[bool, str, Any, Any]]  # (added, key, Column, position)
    consumed: set[str]
    drops: list[str]  # the columns dropped (lower-case names)
    replayer: Any  # `_Alter`'s Replayer: its key judge and model
    table: Any
    new_column_of: Any  # `_Alter.new_column_of`
    #: old column names changed to another name whose keys stay on a column added under the old
    #: name, which comes first in the new table (`_shadowed_changes`)
    shadowed: set[str]
    convert: Any  # `AlterCharsets.convert`: a CONVERT TO CHARACTER SET

    def _AddIndex(self, action: ops.AddIndex) -> str | None:
        assert self.draft is not None
        index = action.index
        if index.kind == "primary":
            if action.if_not_exists and (self.draft.primary or self.adds_primary):
                return None
            self.adds_primary = True
            self.index_adds.append(index)
            return None
        if index.generated and any(
                without_redundant_generated_keys([kept, index]) == [kept] for kept in self._kept_indexes()):
            return None  # a key begins with the foreign key's columns: the server makes none for it
        if index.name is None:
            if not index.columns:
                return "a key needs at least one column"
        elif action.if_not_exists and (index.name.lower() in self.draft.index_ids or index.name.lower() in self.index_names):
            return None
        else:
            self.index_names.add(index.name.lower())
        self.index_adds.append(index)
        return None

    def kept_keys(self) -> dict[int, Index]:
        """The table's keys the statement keeps, by id: all but those it drops. A renamed key is
        kept: RENAME INDEX takes its old name away (`index_gone`), not the key (fuzz seed 395)."""
        assert self.draft is not None
        dropped = set(self.index_drops)
        return {at: index for at, index in self.draft.indexes.items() if at not in dropped}

    def _kept_indexes(self) -> list[Index]:
        """The keys the new table has so far: the table's not dropped, and those added."""
        return [*self.kept_keys().values(), *self.index_adds]

    def _DropIndex(self, action: ops.DropIndex) -> str | None:
        assert self.draft is not None
        key = action.name.lower()
        at = self.draft.primary if key == "primary" else self.draft.index_ids.get(key, 0)
        if not at or at in self.index_gone:
            return None if action.if_exists else f"cannot drop index {action.name}: it does not exist (error 1091)"
        self.index_gone.add(at)
        self.index_drops.append(at)
        return None

    def _RenameIndex(self, action: ops.RenameIndex) -> str | None:
        assert self.draft is not None
        at = self.draft.index_ids.get(action.old_name.lower())
        if at is None or at in self.index_gone:
            return None if action.if_exists else f"key {action.old_name} does not exist (error 1176)"
        self.index_gone.add(at)
        self.index_names.add(action.new_name.lower())
        self.index_renames.append((at, action.new_name))
        return None

    def key_names_problem(self) -> str | None:
        """The new table's key names, as the server gives and checks them once every action is
        read: the kept keys', the renamed ones', then the added ones' in order (unnamed ones named
        after their first column, `_2`, `_3` ...). Names `index_adds`; returns why the server
        refuses the statement (1061, 1068, 1069), or None."""
        assert self.draft is not None
        emptied = self._emptied_keys()
        taken = [index.name for at, index in self.draft.indexes.items()
                 if at not in self.index_gone and at not in emptied and index.name]
        if len(taken) + len(self.index_renames) + len(self.index_adds) > MAX_KEYS:
            return f"too many keys: the server allows {MAX_KEYS} (error 1069)"
        used = {name.lower() for name in taken}
        for _, name in self.index_renames:
            if name.lower() in used:
                return f"duplicate key name {name} (error 1061)"
            used.add(name.lower())
        self.index_adds = [replace(index) for index in self.index_adds]  # (the operation's keys may be shared)
        return name_unnamed_keys(self.index_adds, used)

    def _emptied_keys(self) -> set[int]:
        """The table's keys whose every column the statement drops (and adds no column of that
        name again): the server leaves them out of the new table before it checks the names, so
        `DROP COLUMN a, ADD PRIMARY KEY (b)` replaces a PRIMARY KEY (a) (MariaDB 10.11)."""
        assert self.draft is not None
        gone = set(self.drops).difference(key for is_add, key, _, _ in self.steps if is_add)
        if not gone:
            return set()
        return {at for at, index in self.draft.indexes.items()
                if index.columns and all(not p.expression and p.name.lower() in gone for p in index.columns)}

    def shadowed_changes_problem(self) -> str | None:
        """A column changed or renamed away from its name while a column of that name is added: the
        keys on it go to whichever of the two comes first in the new table (`shadowed` when the
        added one does). The added column then takes the old key part's length; innolint follows
        that only where the two columns have the same type (the length the same)."""
        assert self.draft is not None
        added = {key: column for is_add, key, column, _ in self.steps if is_add}
        renamed = {old: column for old, column, _ in self.changes if column.name.lower() != old and old in added}
        if not renamed or not any(self.draft.uses.get(old) for old in renamed):
            return None
        order = self._new_order()
        for old, column in renamed.items():
            if not self.draft.uses.get(old) or order.index(("new", old)) > order.index(("old", old)):
                continue
            new, was = added[old], self.draft.column(old)
            if was is None or (new.type, new.params) != (was.type, was.params):
                return Doubt(f"column {old} is changed to {column.name} and a column {new.name} is added before it: "
                             f"the server moves the keys on {old} to the added column with the old key part's length, "
                             "which innolint cannot follow for another type (the server refuses it, error 1089, or "
                             "keeps a prefix)")
            self.shadowed.add(old)
        return None

    def _new_order(self) -> list[tuple[str, str]]:
        """The new table's columns in order, each ("old", its old name) or ("new", its name), as
        `_Alter.apply` will place them (rare: only for `shadowed_changes_problem`)."""
        assert self.draft is not None
        draft = self.draft
        names = {column.name.lower(): old for old, column, _ in self.changes}  # new name -> old name
        order: list[tuple[str, str]] = []
        at = draft.after[0]
        while at:
            key = draft.columns[at].name.lower()
            if key not in self.consumed or any(old == key for old, _, _ in self.changes):
                order.append(("old", key))
            at = draft.after[at]
        for is_add, key, _, position in self.steps:
            entry = ("new", key) if is_add or ("new", key) in order else ("old", names.get(key, key))
            if not is_add and entry in order:
                order.remove(entry)
            if position is None:
                order.append(entry)
            elif position == "FIRST":
                order.insert(0, entry)
            else:
                after = position[1].lower()
                spot = next((n for n, (kind, name) in enumerate(order) if (
                    kind == "new" and name == after) or (kind == "old" and name == names.get(after, after)
                                                          and (after in names or name not in self.consumed))), len(order) - 1)
                order.insert(spot + 1, entry)
        return order

    def refused_key(self, where: Location, statement: str) -> str | None:
        """The refusal of a key the statement builds that the server cannot (`key_refusals`)."""
        judge, model = self.replayer.key_judge, self.replayer.model
        if judge is None or self.draft is None:
            return None
        options = self.table.body.options
        engine = self._new_engine()  # type: ignore[attr-defined]
        keys = self.keys_built()
        if (engine or "").lower() != (options.engine or "").lower():  # every key built again, in the new engine
            options = replace(options, engine=engine)
            keys = [*self.index_adds, *self.kept_keys().values()]
        return judge.alter(self.table, keys, self.new_column_of, model.find_schema(self.table.schema),
                           where, statement, options)

    def keys_built(self) -> list[Index]:
        """The keys the statement builds: those it adds, and the table's kept keys on columns it
        redefines."""
        assert self.draft is not None
        uses = self.draft.uses
        if self.convert is not None:  # every text column moves: every key is built again, as stored
            return [*self.index_adds, *(as_stored(index) for index in self.kept_keys().values())]
        else:
            ats = dict.fromkeys(at for old, _, defines in self.changes if defines for at in uses.get(old, ()))
        kept = self.kept_keys()
        return [*self.index_adds, *(kept[at] for at in ats if at in kept)]
