"""The keys of one ALTER TABLE, in the server's order of evaluation (`AlterKeys`, a collaborator of
`linter.server.alter_table.TableAlter`).

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
  leaves the keys on the new `b`; with the new `b` last they follow `g` (`shadowed_changes`).

MySQL 8.0 builds the key list the same way (its mysql_prepare_alter_table is the same code's
descendant; not run here).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from linter.parse.keys import MAX_KEYS
from linter.parse.body_draft import BodyDraft
from linter.parse.body import name_unnamed_keys, without_redundant_generated_keys
from linter.parse.elements import Column, Index
from linter.server.key_parts import as_stored
from linter.server.outcome import Doubt

if TYPE_CHECKING:
    from linter.parse import ops


class AlterKeys:
    """The keys one ALTER TABLE drops, renames and adds: each action checked against the table as
    it was (its `draft`, given to each call) while the statement is read (`add`, `drop`,
    `rename`), the names checked and given once all are read (`names_problem`, from
    `TableAlter.check`)."""

    __slots__ = ("index_gone", "index_names", "index_drops", "index_renames", "index_adds", "adds_primary")

    def __init__(self) -> None:
        self.index_gone: set[int] = set()  # dropped or renamed: the names taken away (a renamed key stays)
        self.index_names: set[str] = set()  # the names the statement gives keys (lower case)
        self.index_drops: list[int] = []
        self.index_renames: list[tuple[int, str]] = []
        self.index_adds: list[Index] = []
        self.adds_primary = False

    def add(self, action: ops.AddIndex, draft: BodyDraft) -> str | None:
        index = action.index
        if index.kind == "primary":
            if action.if_not_exists and (draft.primary or self.adds_primary):
                return None
            self.adds_primary = True
            self.index_adds.append(index)
            return None
        if index.generated and any(
                without_redundant_generated_keys([kept, index]) == [kept] for kept in self._kept_indexes(draft)):
            return None  # a key begins with the foreign key's columns: the server makes none for it
        if index.name is None:
            if not index.columns:
                return "a key needs at least one column"
        elif action.if_not_exists and (index.name.lower() in draft.index_ids or index.name.lower() in self.index_names):
            return None
        else:
            self.index_names.add(index.name.lower())
        self.index_adds.append(index)
        return None

    def kept(self, draft: BodyDraft) -> dict[int, Index]:
        """The table's keys the statement keeps, by id: all but those it drops. A renamed key is
        kept: RENAME INDEX takes its old name away (`index_gone`), not the key (fuzz seed 395)."""
        dropped = set(self.index_drops)
        return {at: index for at, index in draft.indexes.items() if at not in dropped}

    def _kept_indexes(self, draft: BodyDraft) -> list[Index]:
        """The keys the new table has so far: the table's not dropped, and those added."""
        return [*self.kept(draft).values(), *self.index_adds]

    def drop(self, action: ops.DropIndex, draft: BodyDraft) -> str | None:
        key = action.name.lower()
        at = draft.primary if key == "primary" else draft.index_ids.get(key, 0)
        if not at or at in self.index_gone:
            return None if action.if_exists else f"cannot drop index {action.name}: it does not exist (error 1091)"
        self.index_gone.add(at)
        self.index_drops.append(at)
        return None

    def rename(self, action: ops.RenameIndex, draft: BodyDraft) -> str | None:
        at = draft.index_ids.get(action.old_name.lower())
        if at is None or at in self.index_gone:
            return None if action.if_exists else f"key {action.old_name} does not exist (error 1176)"
        self.index_gone.add(at)
        self.index_names.add(action.new_name.lower())
        self.index_renames.append((at, action.new_name))
        return None

    def names_problem(self, draft: BodyDraft, gone: set[str]) -> str | None:
        """The new table's key names, as the server gives and checks them once every action is
        read: the kept keys', the renamed ones', then the added ones' in order (unnamed ones named
        after their first column, `_2`, `_3` ...). `gone`: the columns the statement drops and
        adds no column of that name again. Names `index_adds`; returns why the server refuses the
        statement (1061, 1068, 1069), or None."""
        emptied = _emptied_keys(draft, gone)
        taken = [index.name for at, index in draft.indexes.items()
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

    def built(self, draft: BodyDraft, changes: list[tuple[str, Column, bool]], *, converts: bool) -> list[Index]:
        """The keys the statement builds: those it adds, and the table's kept keys on columns it
        redefines (`changes`: (old key, column, defines)); `converts`: a CONVERT TO CHARACTER SET
        moves every text column, so every key is built again, as stored."""
        if converts:
            return [*self.index_adds, *(as_stored(index) for index in self.kept(draft).values())]
        uses = draft.uses
        ats = dict.fromkeys(at for old, _, defines in changes if defines for at in uses.get(old, ()))
        kept = self.kept(draft)
        return [*self.index_adds, *(kept[at] for at in ats if at in kept)]


def _emptied_keys(draft: BodyDraft, gone: set[str]) -> set[int]:
    """The table's keys whose every column the statement drops (`gone`: and adds no column of
    that name again): the server leaves them out of the new table before it checks the names, so
    `DROP COLUMN a, ADD PRIMARY KEY (b)` replaces a PRIMARY KEY (a) (MariaDB 10.11)."""
    if not gone:
        return set()
    return {at for at, index in draft.indexes.items()
            if index.columns and all(not p.expression and p.name.lower() in gone for p in index.columns)}


Steps = list[tuple[bool, str, "Column", "ops.Position"]]  # (added, key, column, position)


def shadowed_changes(draft: BodyDraft, changes: list[tuple[str, Column, bool]], steps: Steps,
                     consumed: set[str]) -> tuple[str | None, set[str]]:
    """A column changed or renamed away from its name while a column of that name is added: the
    keys on it go to whichever of the two comes first in the new table. Returns why innolint
    cannot follow the statement (or None), and the old names whose keys stay with the added
    column (it comes first). The added column then takes the old key part's length; innolint
    follows that only where the two columns have the same type (the length the same)."""
    shadowed: set[str] = set()
    added = {key: column for is_add, key, column, _ in steps if is_add}
    renamed = {old: column for old, column, _ in changes if column.name.lower() != old and old in added}
    if not renamed or not any(draft.uses.get(old) for old in renamed):
        return None, shadowed
    order = _new_order(draft, changes, steps, consumed)
    for old, column in renamed.items():
        if not draft.uses.get(old) or order.index(("new", old)) > order.index(("old", old)):
            continue
        new, was = added[old], draft.column(old)
        if was is None or (new.type, new.params) != (was.type, was.params):
            return Doubt(f"column {old} is changed to {column.name} and a column {new.name} is added before it: "
                         f"the server moves the keys on {old} to the added column with the old key part's length, "
                         "which innolint cannot follow for another type (the server refuses it, error 1089, or "
                         "keeps a prefix)"), shadowed
        shadowed.add(old)
    return None, shadowed


def _new_order(draft: BodyDraft, changes: list[tuple[str, Column, bool]], steps: Steps,
               consumed: set[str]) -> list[tuple[str, str]]:
    """The new table's columns in order, each ("old", its old name) or ("new", its name), as
    `TableAlter.apply` will place them (rare: only for `shadowed_changes`)."""
    names = {column.name.lower(): old for old, column, _ in changes}  # new name -> old name
    order: list[tuple[str, str]] = []
    at = draft.after[0]
    while at:
        key = draft.columns[at].name.lower()
        if key not in consumed or any(old == key for old, _, _ in changes):
            order.append(("old", key))
        at = draft.after[at]
    for is_add, key, _, position in steps:
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
                                                      and (after in names or name not in consumed))), len(order) - 1)
            order.insert(spot + 1, entry)
    return order
