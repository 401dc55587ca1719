"""What a whole ALTER TABLE statement may not leave behind, as the server checks it before it
changes anything: keys of a column dropped and added again (1089), FULLTEXT on a column changed to
a type it cannot index (1283), the AUTO_INCREMENT column outside a key (1075), what a MEMORY table
cannot hold (1163, 1214). `linter.schema.replay._Alter` plans the statement and asks these; each
rule was checked against MariaDB 10.11 (tests/test_replay_refusals.py, tests/test_model_oracle.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from linter.schema.model import PREFIX_LENGTH_TYPES, BodyDraft, Column, Index
from linter.schema.online_alter import Request, Verdict, verdict
from linter.schema.refusals import FULLTEXT_TYPES, engine_problem

if TYPE_CHECKING:
    from linter.parse import ops
    from linter.schema.model import Table
    from linter.schema.target import Target


class AlterRefusals:
    """The statement-wide checks of `_Alter`, which holds the plan they read: the table and its
    draft, the columns changed, added (`steps`) and dropped, the keys dropped and added."""

    table: Table
    draft: BodyDraft | None
    changes: list[tuple[str, Column, bool]]
    steps: list[tuple[bool, str, Column, ops.Position]]  # (added, key, column, position)
    drops: list[str]
    consumed: set[str]
    readded: set[str]
    readded_prefixes: list[tuple[int, str, int | None]]
    index_gone: set[int]
    index_drops: list[int]
    index_adds: list[Index]
    options: list[tuple[tuple[str, str | None], ...]]

    _new_column: Callable[[str], Column | None]  # `_Alter`'s: the column of this name after the statement

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
                if index_id in self.index_gone:
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
                    return (f"column {new.name} is dropped and added again as {new.type}, where a key keeps the "
                            f"old {old.type}'s key part length: the server refuses the statement unless the two "
                            "have the same key length (error 1089), which innolint cannot tell")
        return None

    def _changed_key_problem(self) -> str | None:
        """A column under a FULLTEXT key redefined to a type FULLTEXT does not index (1283). (TEXT/BLOB
        under a key without a prefix, 1170, is the index-key-length check's.)"""
        draft = self.draft
        if draft is None or not self.changes:
            return None
        for old, column, defines in self.changes:
            if not defines:
                continue
            for at in draft.uses.get(old, ()):
                index = draft.indexes.get(at)
                if index is None or at in self.index_gone:
                    continue
                if index.kind == "fulltext" and column.type.upper() not in FULLTEXT_TYPES:
                    return f"column {column.name} cannot be part of a FULLTEXT key (error 1283)"
        return None

    def _auto_increment_problem(self) -> str | None:
        """The AUTO_INCREMENT column stays the first column of a key (1075; any column of one in
        MyISAM and Aria): checked when the statement drops a key on it or makes a column one."""
        draft = self.draft
        if draft is None:
            return None
        added = [column for is_add, _, column, _ in self.steps if is_add and column.auto_increment]
        made = added + [column for _, column, _ in self.changes if column.auto_increment]
        if made:  # (rare: only then are the table's columns read)
            kept = [c for c in draft.columns.values() if c.auto_increment and c.name.lower() not in self.consumed]
            if len(kept) + len(made) > 1:
                return "there can be only one AUTO_INCREMENT column (error 1075)"
        if not (self.index_drops or self.changes):
            return None
        suspects: set[str] = set()
        for at in self.index_drops:
            for part in draft.indexes[at].columns:
                column = self._new_column(part.name.lower()) if not part.expression else None
                if column is not None and column.auto_increment:
                    suspects.add(column.name.lower())
        suspects.update(column.name.lower() for _, column, _ in self.changes if column.auto_increment)
        if not suspects:
            return None
        any_part = (self.table.body.options.engine or "").lower() in ("myisam", "aria")
        indexes = [index for at, index in draft.indexes.items() if at not in self.index_gone] + self.index_adds
        renamed = {old: column.name.lower() for old, column, _ in self.changes}
        for name in suspects:
            keyed = False
            for index in indexes:
                parts = [renamed.get(p.name.lower(), p.name.lower()) for p in index.columns if not p.expression]
                if index.kind not in ("fulltext", "spatial") and parts and (
                        parts[0] == name if not any_part else name in parts):
                    keyed = True
                    break
            if not keyed:
                return f"the AUTO_INCREMENT column {name} must be the first column of a key (error 1075)"
        return None

    def _engine_problem(self) -> str | None:
        """A MEMORY table after the statement holding what MEMORY cannot (1163, 1214): checked
        when the statement makes the table MEMORY or adds columns or keys to one."""
        engine = self.table.body.options.engine
        for pairs in self.options:
            for key, value in pairs:
                if key == "ENGINE":
                    engine = value
        if (engine or "").lower() not in ("memory", "heap"):
            return None
        if self.draft is None:
            return engine_problem(engine, self.table.columns.values(), self.table.indexes)
        draft = self.draft
        columns = [c for c in draft.columns.values() if c.name.lower() not in self.consumed]
        columns += [c for _, c, _ in self.changes] + [c for is_add, _, c, _ in self.steps if is_add]
        kept = [index for at, index in draft.indexes.items() if at not in self.index_gone]
        return engine_problem(engine, columns, kept + self.index_adds)

    def _online_verdict(self, request: Request, target: Target) -> Verdict | None:
        """ALGORITHM= / LOCK= / ALTER ONLINE that the server cannot honour for this statement's
        operations on this engine and target (1845, 1846), or innolint cannot tell:
        linter.schema.online_alter."""
        return verdict(self, request, target)
