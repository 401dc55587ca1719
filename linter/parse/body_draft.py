"""A table body in the form an ALTER TABLE edits: each action costs what it changes.

`TableBody` (linter.schema.model) keeps columns as a dict by name and keys and foreign keys as
lists, which readers want; renaming a column in such a dict, or dropping a key from such a list,
rebuilds or scans the whole of it. The replay edits a body through its `BodyDraft` instead
(`TableBody.draft`), and the body's views are rebuilt from the draft when read after a change.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from linter.parse.elements import Column, ForeignKey, Index, Location, can_cluster, foreign_key_number

if TYPE_CHECKING:
    from linter.parse.body import TableBody


class BodyDraft:
    """A table body in a form every ALTER action edits in time proportional to what it changes.

    Columns are a doubly linked list of ids (FIRST / AFTER move or insert in O(1); a rename changes
    one name entry, not the order), keys and foreign keys dicts by id in creation order, each with
    a map from lower-case name to id (names of columns, keys and constraints are case-insensitive),
    and a map from each column to the keys and foreign keys that use it (a renamed or dropped
    column updates those alone). Foreign keys carry the names the server gave those created
    without one (`<table>_ibfk_<n>`: the replay names them, `generated_foreign_key_name`); the
    numbers in use are kept for the next one. The body's views are rebuilt from this when read.

    Edits are applied by `linter.server.replay` after it has checked the whole ALTER against the table:
    the methods here assume what they are told exists and never fail.
    """

    __slots__ = (
        "columns", "column_ids", "after", "before", "indexes", "index_ids", "primary", "uses",
        "foreign_keys", "fk_ids", "fk_names", "fk_uses", "fk_numbers", "fk_heap", "table", "checked_columns", "_next",
    )

    def __init__(self, body: TableBody, table: str) -> None:
        self._next = 1  # ids: 0 is the head and tail of the column list
        self.table = table
        self.checked_columns = 0  # columns with CHECK constraints of their own
        self.columns: dict[int, Column] = {}
        self.column_ids: dict[str, int] = {}
        self.after: dict[int, int] = {0: 0}  # id -> the next column's id (0: the end)
        self.before: dict[int, int] = {0: 0}
        for key, column in body._columns.items():
            self.insert_column(column, self.before[0], key)
        self.indexes: dict[int, Index] = {}
        self.index_ids: dict[str, int] = {}
        self.primary = 0  # the primary key's id, 0: none
        self.uses: dict[str, dict[int, None]] = {}  # lower-case column -> ids of keys on it
        for index in body._indexes:
            self.add_index(index)
        self.foreign_keys: dict[int, ForeignKey] = {}
        self.fk_ids: dict[str, int] = {}
        self.fk_names: dict[int, str] = {}  # id -> its lower-case name, given or generated
        self.fk_uses: dict[str, dict[int, None]] = {}
        self.fk_numbers: dict[int, int] = {}  # n of the `_ibfk_<n>` names in use -> how many
        self.fk_heap: list[int] = []  # those n, negated (a max-heap; entries of gone names linger)
        for fk in body._foreign_keys:
            self.add_foreign_key(fk)

    def _id(self) -> int:
        self._next += 1
        return self._next

    def views(self) -> tuple[dict[str, Column], list[Index], list[ForeignKey]]:
        columns, after = self.columns, self.after
        ordered: dict[str, Column] = {}
        at = after[0]
        while at:
            column = columns[at]
            ordered[column.name.lower()] = column
            at = after[at]
        indexes = list(self.indexes.values())
        if self.primary and indexes[0] is not self.indexes[self.primary]:
            primary = self.indexes[self.primary]
            indexes = [primary, *(i for i in indexes if i is not primary)]
        return ordered, indexes, list(self.foreign_keys.values())

    # -- columns ---------------------------------------------------------------------------
    def column(self, key: str) -> Column | None:
        at = self.column_ids.get(key)
        return self.columns[at] if at is not None else None

    def column_by_name(self, name: str) -> Column | None:
        """The column of this name, in any case."""
        return self.column(name.lower())

    def insert_column(self, column: Column, previous: int, key: str | None = None) -> int:
        """Add a column after the column with id `previous` (0: first); its id."""
        at = self._id()
        self.columns[at] = column
        self.column_ids[key or column.name.lower()] = at
        self.checked_columns += bool(column.checks)
        self._link(at, previous)
        return at

    def _link(self, at: int, previous: int) -> None:
        following = self.after[previous]
        self.after[previous] = at
        self.after[at] = following
        self.before[following] = at
        self.before[at] = previous

    def _unlink(self, at: int) -> None:
        previous, following = self.before.pop(at), self.after.pop(at)
        self.after[previous] = following
        self.before[following] = previous

    def last_column(self) -> int:
        return self.before[0]

    def move_column(self, at: int, previous: int) -> None:
        if at != previous:
            self._unlink(at)
            self._link(at, previous)

    def detach_column(self, key: str) -> int:
        """Take a column's name away (it is dropped, or renamed: `attach_column` gives it one)."""
        return self.column_ids.pop(key)

    def attach_columns(self, changed: list[tuple[int, str, Column]]) -> None:
        """Each detached column (id, old key) becomes its new definition, maybe with a new name;
        the keys and foreign keys on the renamed ones follow, all renames at once (two columns
        may swap names)."""
        renamed = {old: column.name for at, old, column in changed if column.name != self.columns[at].name}
        uses = {old: self.uses.pop(old, {}) for old in renamed}
        fk_uses = {old: self.fk_uses.pop(old, {}) for old in renamed}
        for at, old, column in changed:
            if column.checks or self.columns[at].checks:
                self.checked_columns += bool(column.checks) - bool(self.columns[at].checks)
            self.columns[at] = column
            self.column_ids[column.name.lower()] = at
        indexes: dict[int, None] = {}
        foreign_keys: dict[int, None] = {}
        for old, name in renamed.items():
            key = name.lower()
            self.uses.setdefault(key, {}).update(uses[old])
            self.fk_uses.setdefault(key, {}).update(fk_uses[old])
            indexes.update(uses[old])
            foreign_keys.update(fk_uses[old])
        for index_id in indexes:
            index = self.indexes[index_id]
            index.columns = tuple(
                replace(p, name=renamed[p.name.lower()]) if not p.expression and p.name.lower() in renamed else p
                for p in index.columns
            )
        for fk_id in foreign_keys:
            fk = self.foreign_keys[fk_id]
            fk.columns = tuple(renamed.get(c.lower(), c) for c in fk.columns)

    def remove_column(self, at: int, old_key: str, where: Location, keep_keys: bool = False) -> list[Index]:
        """Drop a detached column; it leaves every key on it (which `where`, the statement, then
        changed: `Index.where`), and a key left with no column goes (returned). `keep_keys`: a
        column of the same name is added by the same statement, and the keys stay on that name
        (the server finds key parts by column name)."""
        self.checked_columns -= bool(self.columns.pop(at).checks)
        self._unlink(at)
        emptied: list[Index] = []
        if keep_keys:
            for index_id in self.uses.get(old_key, {}):
                self.indexes[index_id].where = where
                self.indexes[index_id].offset = 0  # (the statement changed it: its own start)
            return emptied
        for index_id in self.uses.pop(old_key, {}):
            index = self.indexes[index_id]
            index.columns = tuple(p for p in index.columns if p.expression or p.name.lower() != old_key)
            index.where = where
            index.offset = 0  # (the statement changed it: its own start)
            if not index.columns:
                emptied.append(index)
                self.remove_index(index_id)
        return emptied

    # -- keys ------------------------------------------------------------------------------
    def add_index(self, index: Index) -> int:
        at = self._id()
        self.indexes[at] = index
        self.index_ids[(index.name or "").lower()] = at
        if index.kind == "primary":
            self.primary = at
        for part in index.columns:
            if not part.expression:
                self.uses.setdefault(part.name.lower(), {})[at] = None
        return at

    def remove_index(self, at: int) -> Index:
        index = self.indexes.pop(at)
        key = (index.name or "").lower()
        if self.index_ids.get(key) == at:
            del self.index_ids[key]
        if self.primary == at:
            self.primary = 0
        for part in index.columns:
            used = self.uses.get(part.name.lower())
            if used is not None:
                used.pop(at, None)
        return index

    def clustered(self) -> Index | None:
        """The key the table is clustered on (`Table.clustered_index`), read from the draft."""
        if self.primary:
            return self.indexes[self.primary]
        first = next(iter(self.indexes.values()), None)
        return first if first is not None and first.kind == "unique" and can_cluster(first, self.column) else None

    def nullable_primary_columns(self) -> frozenset[str]:
        """The lower-case names of the primary key's columns that are nullable as defined."""
        return frozenset(part.name.lower() for part in self.indexes[self.primary].columns
                         if (column := self.column(part.name.lower())) is not None and column.nullable)

    def sort_keys(self, rank: Callable[[int, Index], tuple[int, ...]]) -> None:
        """Put the keys in the order of `rank` (of a key's id and the key; lower first), keeping
        the order of equals."""
        items = list(self.indexes.items())
        ranks = [rank(at, index) for at, index in items]
        if any(a > b for a, b in zip(ranks, ranks[1:])):
            self.indexes = {items[n][0]: items[n][1] for n in sorted(range(len(items)), key=ranks.__getitem__)}

    def rename_index(self, at: int, name: str) -> None:
        index = self.indexes[at]
        key = (index.name or "").lower()
        if self.index_ids.get(key) == at:
            del self.index_ids[key]
        index.name = name
        self.index_ids[name.lower()] = at

    # -- foreign keys ------------------------------------------------------------------------
    # The server names a foreign key added without a name `<table>_ibfk_<n>` (n: one more than
    # the highest in use: `next_fk_number`), and renames every `<old>_ibfk_...` with its table
    # (linter.server.replay renames them in the model). Names of that form are kept here by their number
    # (`_IBFK` + n), which a max-heap finds the highest of.
    def fk_key(self, name: str) -> str:
        """The key a foreign key of this name has in `fk_ids`."""
        number = foreign_key_number(self.table, name)
        return name.lower() if number is None else _IBFK + str(number)

    def rename_table(self, table: str) -> None:
        """The table now has this name (its foreign keys' names already follow it): key them anew."""
        self.table = table
        foreign_keys = list(self.foreign_keys.items())
        self.foreign_keys, self.fk_ids, self.fk_names, self.fk_numbers, self.fk_heap = {}, {}, {}, {}, []
        self.fk_uses = {}
        for _, fk in foreign_keys:
            self.add_foreign_key(fk)

    def next_fk_number(self) -> int:
        """The n of the name the server gives the next foreign key added without one."""
        numbers, heap = self.fk_numbers, self.fk_heap
        while heap and -heap[0] not in numbers:
            heapq.heappop(heap)
        return 1 - heap[0] if heap else 1

    def add_foreign_key(self, fk: ForeignKey, key: str | None = None) -> int:
        """Add a foreign key (named: the model holds the server's names) under `key` (default: its name's)."""
        at = self._id()
        self.foreign_keys[at] = fk
        if key is None:
            key = self.fk_key(fk.name or "")
        if key.startswith(_IBFK):
            number = int(key[len(_IBFK):])
            self.fk_numbers[number] = self.fk_numbers.get(number, 0) + 1
            heapq.heappush(self.fk_heap, -number)
        self.fk_ids[key] = at
        self.fk_names[at] = key
        for column in fk.columns:
            self.fk_uses.setdefault(column.lower(), {})[at] = None
        return at

    def remove_foreign_key(self, at: int) -> None:
        fk = self.foreign_keys.pop(at)
        key = self.fk_names.pop(at)
        if self.fk_ids.get(key) == at:
            del self.fk_ids[key]
        if key.startswith(_IBFK):
            number = int(key[len(_IBFK):])
            left = self.fk_numbers.pop(number) - 1
            if left:
                self.fk_numbers[number] = left
        for column in fk.columns:
            used = self.fk_uses.get(column.lower())
            if used is not None:
                used.pop(at, None)


#: the key of a foreign key named as the server names unnamed ones (`BodyDraft.fk_key`)
_IBFK = "\0ibfk_"
