"""What a whole ALTER TABLE statement may not leave behind, as the server checks it before it
changes anything: keys of a column dropped and added again (1089), FULLTEXT on a column changed to
a type it cannot index (1283), the AUTO_INCREMENT column outside a key (1075), what a MEMORY table
cannot hold (1163, 1214), a MODIFY or CHANGE of a column added earlier in the statement (taken
out and put back, `_redefine_added`), `ADD period` / `DROP system` on MariaDB (1064), and what `TableAfterAlter` checks of the table it builds: no visible
column (1113), FULLTEXT on a column it cannot index (1283), an AUTO_INCREMENT column in a hash key
(4169), a column dropped out of a UNIQUE key that stays (1072). `linter.server.replay._Alter` plans the statement and asks these; each
rule was checked against MariaDB 10.11 (tests/test_replay_refusals.py, tests/test_model_oracle.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from linter.parse.elements import Column, Index
from linter.parse.body_draft import BodyDraft
from linter.parse.elements import PREFIX_LENGTH_TYPES
from linter.parse.body import TableBody
from linter.schema.model import is_innodb_engine
from linter.server.key_parts import as_stored, long_unique_problem
from linter.server.online_alter import Request, Verdict, verdict
from linter.server.outcome import Doubt
from linter.server.refusals import (
    FULLTEXT_TYPES, column_problem, engine_key_length_problem, engine_problem, lob_key_problem,
)

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
    defaults: list[ops.SetColumnDefault]
    convert: ops.ConvertCharset | None
    _old_column: Callable[[str], Column | None]
    _change: Callable[..., str | None]
    index_gone: set[int]  # dropped or renamed: the names taken away (a renamed key stays: not `index_drops`)
    index_drops: list[int]
    index_adds: list[Index]
    options: list[tuple[tuple[str, str | None], ...]]
    new_names: list[str]
    replayer: Any  # `_Alter`'s Replayer: its target

    _new_column: Callable[[str], Column | None]  # `_Alter`'s: the column of this name after the statement
    keys_built: Callable[[], list[Index]]  # `AlterKeys.keys_built`: the keys the statement builds
    kept_keys: Callable[[], dict[int, Index]]  # `AlterKeys.kept_keys`: the table's keys not dropped

    def _versioning_word_problem(self, verb: str, name: str, bare_word: bool) -> str | None:
        """`ADD period ...`, `DROP system`: a syntax error on MariaDB 10.3 and later (`ops.VERSIONING_WORDS`)."""
        target = self.replayer.target
        if not bare_word or not target.is_mariadb or target.version < (10, 3):
            return None
        return (f"{target.label} reads `{verb} {name}` as the start of {verb} PERIOD FOR / {verb} SYSTEM VERSIONING and "
                f"refuses the statement (syntax error, 1064): write {verb} COLUMN {name}")

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
        problem = column_problem(column, mariadb=self.replayer.target.is_mariadb)
        if problem:
            return problem
        self.steps[at] = (True, key, column, self.steps[at][3])
        self.steps.append((False, key, column, position))  # (no position: moved to the end)
        named = max(n for n, name in enumerate(self.new_names) if name.lower() == key)
        self.new_names[named] = column.name
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
                if index_id in self.index_drops:
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

    def _changed_key_problem(self) -> str | None:
        """A column under a FULLTEXT key redefined, or converted (CONVERT TO CHARACTER SET binary
        makes VARBINARY and BLOBs: fuzz seed 390), to a type FULLTEXT does not index (1283), as the
        statement leaves it (`AlterCharsets.new_column_of`). (TEXT/BLOB under a key without a
        prefix, 1170, is the index-key-length check's.)"""
        draft = self.draft
        if draft is None or not (self.changes or self.convert is not None):
            return None
        view: Callable[[str], Column | None] = self.new_column_of  # type: ignore[attr-defined]
        names = [old for old, _, defines in self.changes if defines]
        if self.convert is not None:  # (every text column moves)
            names += [p.name.lower() for i in draft.indexes.values() if i.kind == "fulltext" for p in i.columns
                      if not p.expression]
        for old in names:
            for at in draft.uses.get(old, ()):
                index = draft.indexes.get(at)
                if index is None or at in self.index_drops or index.kind != "fulltext":
                    continue
                column = view(old)
                if column is not None and column.type.upper() not in FULLTEXT_TYPES:
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
                column = (self.table.column if self.draft is None else self._new_column)(part.name.lower()) \
                    if not part.expression else None
                if column is not None and column.auto_increment:
                    suspects.add(column.name.lower())
        suspects.update(column.name.lower() for _, column, _ in self.changes if column.auto_increment)
        if not suspects:
            return None
        any_part = (self.table.body.options.engine or "").lower() in ("myisam", "aria")
        indexes = [index for at, index in draft.indexes.items() if at not in self.index_drops] + self.index_adds
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

    def _new_engine(self) -> str | None:
        """The table's engine after the statement (its last ENGINE=, else the table's)."""
        engine = self.table.body.options.engine
        for pairs in self.options:
            for key, value in pairs:
                if key == "ENGINE":
                    engine = value
        return engine

    def _engine_problem(self) -> str | None:
        """A MEMORY table after the statement holding what MEMORY cannot (1163, 1214): checked
        when the statement makes the table MEMORY or adds columns or keys to one."""
        engine = self._new_engine()
        if (engine or "").lower() not in ("memory", "heap"):
            return None
        if self.draft is None:
            return engine_problem(engine, self.table.columns.values(), self.table.indexes)
        draft = self.draft
        columns = [c for c in draft.columns.values() if c.name.lower() not in self.consumed]
        columns += [c for _, c, _ in self.changes] + [c for is_add, _, c, _ in self.steps if is_add]
        kept = [index for at, index in draft.indexes.items() if at not in self.index_drops]
        return engine_problem(engine, columns, kept + self.index_adds)

    def _online_verdict(self, request: Request, target: Target) -> Verdict | None:
        """ALGORITHM= / LOCK= / ALTER ONLINE that the server cannot honour for this statement's
        operations on this engine and target (1845, 1846), or innolint cannot tell:
        linter.server.online_alter."""
        return verdict(self, request, target)

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
            if _is_null(action.default) and any(
                    index.kind == "primary" and any(p.name.lower() == key for p in index.columns)
                    for index in self.index_adds):  # (MariaDB 10.11; a MODIFY ... DEFAULT NULL is taken)
                return f"invalid default value for {action.name} (error 1067): the PRIMARY KEY added makes it NOT NULL"
            at = next((n for n, (_, column, _) in enumerate(self.changes) if column.name.lower() == key), None)
            if at is not None and key in moved:
                old, column, defines = self.changes[at]
                changed = self._defaulted(column, action.default)
                problem = _default_problem(changed)
                if problem:
                    return problem
                self.changes[at] = (old, changed, defines)
                continue
            added = next((n for n, (is_add, name, _, _) in enumerate(self.steps) if is_add and name == key), None)
            if added is not None:  # (a column the statement adds takes it too)
                _, name, column, position = self.steps[added]
                changed = self._defaulted(column, action.default)
                problem = _default_problem(changed)
                if problem:
                    return problem
                self.steps[added] = (True, name, changed, position)
                continue
            column = self._old_column(action.name)
            if column is None:
                return f"unknown column {action.name} (error 1054)"
            changed = self._defaulted(column, action.default)
            problem = _default_problem(changed) or self._change(action.name, changed, None, False, defines=False)
            if problem:
                return problem
        return None

    def _defaulted(self, column: Column, default: str | None) -> Column:
        """`column` with the default ALTER COLUMN ... SET / DROP DEFAULT gives it: on MariaDB a
        TEXT/BLOB given DEFAULT NULL keeps it as a value (`Column.altered_null_default`)."""
        kept = _is_null(default) and column.is_large and self.replayer.target.is_mariadb
        return replace(column, default=default, altered_null_default=kept)


class TableAfterAlter(AlterRefusals):
    """What the server checks of the table a whole ALTER TABLE builds, before it changes anything
    (asked of MariaDB 10.11; tests/test_alter_refusals.py runs each case on the server):

    - 1113: at least one visible column stays (MODIFY ... INVISIBLE of the last visible one, DROP of it);
    - 1283: a FULLTEXT key added (ALTER, CREATE FULLTEXT INDEX) indexes CHAR, VARCHAR and TEXT only;
    - 4169 (MariaDB): the AUTO_INCREMENT column in a UNIQUE key over a whole TEXT/BLOB column (a hash
      key), whether the key, the TEXT column or the AUTO_INCREMENT is what the statement adds;
    - 1072 (MariaDB, since 10.2.8): DROP COLUMN of a column of a UNIQUE key or PRIMARY KEY of several
      columns that the statement keeps ("Key column 'c' doesn't exist in table"); MySQL takes the
      column out of the key instead (its manual: "the columns are also removed from any index of
      which they are a part"), so there it is not refused.
    """

    replayer: object  # `_Alter`'s Replayer: its target

    def _after_problem(self) -> str | None:
        """The first of these refusals the statement meets, or None (only what it touches is read)."""
        mariadb = getattr(getattr(self.replayer, "target", None), "is_mariadb", False)
        if self.draft is None:  # (only table options: an ENGINE= may meet the keys the table has)
            return self._lob_key_after(mariadb) or (self._engine_hash_problem() if mariadb else None) \
                if self.options else None
        return (self._visible_problem() or self._invisible_key_problem() or self._null_default_key_problem()
                or self._fulltext_added_problem()
                or (self._hash_key_auto_problem() if mariadb else None)
                or (self._dropped_from_unique_problem() if mariadb else None) or self._lob_key_after(mariadb))

    def _lob_key_after(self, mariadb: bool) -> str | None:
        """A key over a whole TEXT/BLOB column that a table of another engine than InnoDB cannot
        have (`lob_key_problem`): a key added, a column under a key changed, or the engine changed."""
        before = self.table.body.options.engine
        engine = self._new_engine()
        if is_innodb_engine(engine):
            return None
        renamed = {old: column.name.lower() for old, column, _ in self.changes} if self.draft is not None else {}
        if self.draft is None:  # (only table options: the keys the table has, in the new engine)
            indexes = [as_stored(index) for index in self.table.indexes] \
                if (engine or "").lower() != (before or "").lower() else []
        else:
            indexes = list(self.index_adds)
        converts = self.convert is not None  # (every text column moves: every key is built again, as stored)
        if self.draft is not None and (engine != before or renamed or converts):
            indexes += [as_stored(index) if converts else index for at, index in self.draft.indexes.items()
                        if at not in self.index_drops and (
                            engine != before or converts or any(p.name.lower() in renamed for p in index.columns))]
        column_of = self.table.column if self.draft is None else (lambda name: self._new_column(renamed.get(name, name)))
        for index in indexes:
            problem = lob_key_problem(index, column_of, engine, mariadb=mariadb)
            if problem:
                return problem
        if not indexes:
            return None
        # the keys' lengths in the table the statement builds (its columns, its options)
        replayer = self.replayer
        keys = [replace(index, columns=tuple(replace(p, name=renamed.get(p.name.lower(), p.name))
                                             if not p.expression else p for p in index.columns)) for index in indexes]
        columns = {}  # the keys' columns only: what their widths read
        for index in keys:
            for part in index.columns:
                column = (self.table.column if self.draft is None else self._new_column)(part.name.lower()) \
                    if not part.expression else None
                if column is not None:
                    columns[part.name.lower()] = column
        body = TableBody(columns, [], [], replace(self.table.body.options, engine=engine))
        schema = replayer.model.find_schema(self.table.schema)  # type: ignore[attr-defined]
        return engine_key_length_problem(body, replayer.target, schema, keys)  # type: ignore[attr-defined]

    def _visible_problem(self) -> str | None:
        """Costs what the statement names: the table's columns are read only until a visible one
        it keeps is found (the first, nearly always)."""
        made = [c for _, c, _ in self.changes] + [c for a, _, c, _ in self.steps if a]
        if not (self.drops or any(c.invisible for c in made)) or any(not c.invisible for c in made):
            return None
        draft = self.draft
        assert draft is not None
        for column in draft.columns.values():
            if not column.invisible and column.name.lower() not in self.consumed:
                return None
        if made or len(draft.columns) > len(self.consumed):
            return ("a table must have at least one visible column, and this statement leaves none (error 1113; "
                    "MySQL: 4028)")
        return None

    def _invisible_key_problem(self) -> str | None:
        """An INVISIBLE column without a default that the PRIMARY KEY makes NOT NULL (4108), whether
        the statement makes it invisible or puts it in the key."""
        made = [c for _, c, _ in self.changes] + [c for a, _, c, _ in self.steps if a]
        if not (any(c.invisible for c in made) or self.adds_primary):
            return None
        draft = self.draft
        assert draft is not None
        renamed = {old: column.name.lower() for old, column, _ in self.changes}
        primary = [index for index in self.index_adds if index.kind == "primary"]
        if not primary and draft.primary and draft.primary not in self.index_drops:
            primary = [draft.indexes[draft.primary]]
        for index in primary:
            for part in index.columns:
                column = self._new_column(renamed.get(part.name.lower(), part.name.lower())) if not part.expression else None
                if column is not None and column.invisible and column.default is None and not column.auto_increment \
                        and column.generated is None:
                    return f"invisible column {column.name} must have a default value: the PRIMARY KEY makes it NOT NULL (error 4108)"
        return None

    def _null_default_key_problem(self) -> str | None:
        """A PRIMARY KEY the statement adds over a TEXT/BLOB that an earlier ALTER gave DEFAULT NULL
        and nothing has redefined since (`Column.altered_null_default`): the key makes it NOT NULL,
        which that default is invalid for (1067, MariaDB 10.11)."""
        if not self.adds_primary:
            return None
        for index in self.index_adds:
            for part in index.columns if index.kind == "primary" else ():
                column = None if part.expression else self._new_column(part.name.lower())
                if column is not None and column.altered_null_default:
                    return (f"invalid default value for {column.name} (error 1067): an ALTER gave it DEFAULT NULL, "
                            "which the server keeps on a TEXT/BLOB, and the PRIMARY KEY makes it NOT NULL")
        return None

    def _fulltext_added_problem(self) -> str | None:
        for index in self.index_adds:
            if index.kind != "fulltext":
                continue
            for part in index.columns:
                column = (self.table.column if self.draft is None else self._new_column)(part.name.lower()) \
                    if not part.expression else None
                if column is not None and column.type.upper() not in FULLTEXT_TYPES:
                    return f"column {column.name} cannot be part of a FULLTEXT key (error 1283)"
        return None

    def _hash_key_auto_problem(self) -> str | None:
        """A UNIQUE key MariaDB keeps as a hash takes no AUTO_INCREMENT column
        (`key_parts.long_unique_problem`): judged on the keys the statement builds."""
        draft = self.draft
        assert draft is not None
        built = self.keys_built()
        if (self._new_engine() or "").lower() != (self.table.body.options.engine or "").lower():
            built = [*self.index_adds, *self.kept_keys().values()]
        if not built:
            return None
        renamed = {old: column.name.lower() for old, column, _ in self.changes}
        return long_unique_problem(
            self.table, built, lambda key: self._new_column(renamed.get(key, key)), self._new_engine(),
            self.replayer.target, self.replayer.model.find_schema(self.table.schema))  # type: ignore[attr-defined]

    def _engine_hash_problem(self) -> str | None:
        """The table's UNIQUE keys in the engine an ALTER with only table options moves it to
        (`key_parts.long_unique_problem`: MEMORY keeps no hash of a long one)."""
        engine = self._new_engine()
        if (engine or "").lower() == (self.table.body.options.engine or "").lower():
            return None
        return long_unique_problem(self.table, self.table.indexes, self.table.column, engine, self.replayer.target,  # type: ignore[attr-defined]
                                   self.replayer.model.find_schema(self.table.schema))  # type: ignore[attr-defined]

    def _dropped_from_unique_problem(self) -> str | None:
        draft = self.draft
        assert draft is not None
        for key in self.drops:
            if key in self.readded:
                continue
            for at in draft.uses.get(key, ()):
                index = draft.indexes.get(at)
                if index is None or at in self.index_drops or index.kind not in ("unique", "primary"):
                    continue
                if any(p.expression or p.name.lower() not in self.drops for p in index.columns):
                    name = "the PRIMARY KEY" if index.kind == "primary" else f"UNIQUE key {index.name}"
                    column = draft.column(key)
                    key = column.name if column is not None else key
                    return (f"column {key} is dropped out of {name}, which keeps other columns: MariaDB refuses to "
                            f"change a UNIQUE key that way (\"Key column '{key}' doesn't exist in table\", error 1072)")
        return None


def _is_null(default: str | None) -> bool:
    """Whether a default's text is NULL (`NULL`, `(NULL)`, any case)."""
    return default is not None and default.strip("() \t\r\n").upper() == "NULL"


def _default_problem(column: Column) -> str | None:
    """Why the server refuses the default ALTER COLUMN ... SET DEFAULT gave `column`: judged as any
    column's, also on an AUTO_INCREMENT column (whose definition may not have one: error 1067)."""
    return column_problem(replace(column, auto_increment=False) if column.auto_increment else column)
