"""What a whole ALTER TABLE statement may not leave behind, as the server checks it before it
changes anything: FULLTEXT on a column changed to a type it cannot index (1283), the
AUTO_INCREMENT column outside a key (1075), what a MEMORY table cannot hold (1163, 1214), `ADD
period` / `DROP system` on MariaDB (1064), and what `after_problem` checks of the table it builds:
no visible column (1113), FULLTEXT on a column it cannot index (1283), an AUTO_INCREMENT column in
a hash key (4169), a column dropped out of a UNIQUE key that stays (1072).

`linter.server.alter_table.TableAlter` plans the statement and asks these, each a function given
the plan, which it reads and never changes (the checks that complete the plan, a column dropped
and added again, ALTER COLUMN ... SET DEFAULT, are the plan's own). Each rule was checked against
MariaDB 10.11 (tests/test_replay_refusals.py, tests/test_alter_refusals.py,
tests/test_model_oracle.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from linter.parse.elements import Column
from linter.parse.body import TableBody
from linter.schema.model import is_innodb_engine
from linter.server.key_parts import as_stored, long_unique_problem
from linter.server.refusals import (
    FULLTEXT_TYPES, column_problem, engine_key_length_problem, engine_problem, lob_key_problem,
)

if TYPE_CHECKING:
    from linter.schema.target import Target
    from linter.server.alter_table import TableAlter


def versioning_word_problem(target: Target, verb: str, name: str, bare_word: bool) -> str | None:
    """`ADD period ...`, `DROP system`: a syntax error on MariaDB 10.3 and later (`ops.VERSIONING_WORDS`)."""
    if not bare_word or not target.is_mariadb or target.version < (10, 3):
        return None
    return (f"{target.label} reads `{verb} {name}` as the start of {verb} PERIOD FOR / {verb} SYSTEM VERSIONING and "
            f"refuses the statement (syntax error, 1064): write {verb} COLUMN {name}")


def changed_key_problem(alter: TableAlter) -> str | None:
    """A column under a FULLTEXT key redefined, or converted (CONVERT TO CHARACTER SET binary
    makes VARBINARY and BLOBs: fuzz seed 390), to a type FULLTEXT does not index (1283), as the
    statement leaves it (`TableAlter.new_column_of`). (TEXT/BLOB under a key without a
    prefix, 1170, is the index-key-length check's.)"""
    draft = alter.draft
    if draft is None or not (alter.changes or alter.charsets.convert is not None):
        return None
    view: Callable[[str], Column | None] = alter.new_column_of
    names = [old for old, _, defines in alter.changes if defines]
    if alter.charsets.convert is not None:  # (every text column moves)
        names += [p.name.lower() for i in draft.indexes.values() if i.kind == "fulltext" for p in i.columns
                  if not p.expression]
    for old in names:
        for at in draft.uses.get(old, ()):
            index = draft.indexes.get(at)
            if index is None or at in alter.keys.index_drops or index.kind != "fulltext":
                continue
            column = view(old)
            if column is not None and column.type.upper() not in FULLTEXT_TYPES:
                return f"column {column.name} cannot be part of a FULLTEXT key (error 1283)"
    return None


def auto_increment_problem(alter: TableAlter) -> str | None:
    """The AUTO_INCREMENT column stays the first column of a key (1075; any column of one in
    MyISAM and Aria): checked when the statement drops a key on it or makes a column one."""
    draft = alter.draft
    if draft is None:
        return None
    added = [column for is_add, _, column, _ in alter.steps if is_add and column.auto_increment]
    made = added + [column for _, column, _ in alter.changes if column.auto_increment]
    if made:  # (rare: only then are the table's columns read)
        kept = [c for c in draft.columns.values() if c.auto_increment and c.name.lower() not in alter.consumed]
        if len(kept) + len(made) > 1:
            return "there can be only one AUTO_INCREMENT column (error 1075)"
    if not (alter.keys.index_drops or alter.changes):
        return None
    suspects: set[str] = set()
    for at in alter.keys.index_drops:
        for part in draft.indexes[at].columns:
            column = (alter.table.column if alter.draft is None else alter.new_column)(part.name.lower()) \
                if not part.expression else None
            if column is not None and column.auto_increment:
                suspects.add(column.name.lower())
    suspects.update(column.name.lower() for _, column, _ in alter.changes if column.auto_increment)
    if not suspects:
        return None
    any_part = (alter.table.body.options.engine or "").lower() in ("myisam", "aria")
    indexes = [index for at, index in draft.indexes.items() if at not in alter.keys.index_drops] + alter.keys.index_adds
    renamed = {old: column.name.lower() for old, column, _ in alter.changes}
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


def memory_engine_problem(alter: TableAlter) -> str | None:
    """A MEMORY table after the statement holding what MEMORY cannot (1163, 1214): checked
    when the statement makes the table MEMORY or adds columns or keys to one."""
    engine = alter.new_engine()
    if (engine or "").lower() not in ("memory", "heap"):
        return None
    if alter.draft is None:
        return engine_problem(engine, alter.table.columns.values(), alter.table.indexes)
    draft = alter.draft
    columns = [c for c in draft.columns.values() if c.name.lower() not in alter.consumed]
    columns += [c for _, c, _ in alter.changes] + [c for is_add, _, c, _ in alter.steps if is_add]
    kept = [index for at, index in draft.indexes.items() if at not in alter.keys.index_drops]
    return engine_problem(engine, columns, kept + alter.keys.index_adds)


def after_problem(alter: TableAlter) -> str | None:
    """What the server checks of the table a whole ALTER TABLE builds, before it changes anything
    (asked of MariaDB 10.11; tests/test_alter_refusals.py runs each case on the server); the first
    of these refusals the statement meets, or None (only what it touches is read):

    - 1113: at least one visible column stays (MODIFY ... INVISIBLE of the last visible one, DROP of it);
    - 1283: a FULLTEXT key added (ALTER, CREATE FULLTEXT INDEX) indexes CHAR, VARCHAR and TEXT only;
    - 4169 (MariaDB): the AUTO_INCREMENT column in a UNIQUE key over a whole TEXT/BLOB column (a hash
      key), whether the key, the TEXT column or the AUTO_INCREMENT is what the statement adds;
    - 1072 (MariaDB, since 10.2.8): DROP COLUMN of a column of a UNIQUE key or PRIMARY KEY of several
      columns that the statement keeps ("Key column 'c' doesn't exist in table"); MySQL takes the
      column out of the key instead (its manual: "the columns are also removed from any index of
      which they are a part"), so there it is not refused.
    """
    mariadb = alter.target.is_mariadb
    if alter.draft is None:  # (only table options: an ENGINE= may meet the keys the table has)
        return _lob_key_after(alter, mariadb) or (_engine_hash_problem(alter) if mariadb else None) \
            if alter.options else None
    return (_visible_problem(alter) or _invisible_key_problem(alter) or _null_default_key_problem(alter)
            or _fulltext_added_problem(alter)
            or (_hash_key_auto_problem(alter) if mariadb else None)
            or (_dropped_from_unique_problem(alter) if mariadb else None) or _lob_key_after(alter, mariadb))


def _lob_key_after(alter: TableAlter, mariadb: bool) -> str | None:
    """A key over a whole TEXT/BLOB column that a table of another engine than InnoDB cannot
    have (`lob_key_problem`): a key added, a column under a key changed, or the engine changed."""
    before = alter.table.body.options.engine
    engine = alter.new_engine()
    if is_innodb_engine(engine):
        return None
    renamed = {old: column.name.lower() for old, column, _ in alter.changes} if alter.draft is not None else {}
    if alter.draft is None:  # (only table options: the keys the table has, in the new engine)
        indexes = [as_stored(index) for index in alter.table.indexes] \
            if (engine or "").lower() != (before or "").lower() else []
    else:
        indexes = list(alter.keys.index_adds)
    converts = alter.charsets.convert is not None  # (every text column moves: every key is built again, as stored)
    if alter.draft is not None and (engine != before or renamed or converts):
        indexes += [as_stored(index) if converts else index for at, index in alter.draft.indexes.items()
                    if at not in alter.keys.index_drops and (
                        engine != before or converts or any(p.name.lower() in renamed for p in index.columns))]
    column_of = alter.table.column if alter.draft is None else (lambda name: alter.new_column(renamed.get(name, name)))
    for index in indexes:
        problem = lob_key_problem(index, column_of, engine, mariadb=mariadb)
        if problem:
            return problem
    if not indexes:
        return None
    # the keys' lengths in the table the statement builds (its columns, its options)
    keys = [replace(index, columns=tuple(replace(p, name=renamed.get(p.name.lower(), p.name))
                                         if not p.expression else p for p in index.columns)) for index in indexes]
    columns = {}  # the keys' columns only: what their widths read
    for index in keys:
        for part in index.columns:
            column = (alter.table.column if alter.draft is None else alter.new_column)(part.name.lower()) \
                if not part.expression else None
            if column is not None:
                columns[part.name.lower()] = column
    body = TableBody(columns, [], [], replace(alter.table.body.options, engine=engine))
    schema = alter.schema
    return engine_key_length_problem(body, alter.target, schema, keys)


def _visible_problem(alter: TableAlter) -> str | None:
    """Costs what the statement names: the table's columns are read only until a visible one
    it keeps is found (the first, nearly always)."""
    made = [c for _, c, _ in alter.changes] + [c for a, _, c, _ in alter.steps if a]
    if not (alter.drops or any(c.invisible for c in made)) or any(not c.invisible for c in made):
        return None
    draft = alter.draft
    assert draft is not None
    for column in draft.columns.values():
        if not column.invisible and column.name.lower() not in alter.consumed:
            return None
    if made or len(draft.columns) > len(alter.consumed):
        return ("a table must have at least one visible column, and this statement leaves none (error 1113; "
                "MySQL: 4028)")
    return None


def _invisible_key_problem(alter: TableAlter) -> str | None:
    """An INVISIBLE column without a default that the PRIMARY KEY makes NOT NULL (4108), whether
    the statement makes it invisible or puts it in the key."""
    made = [c for _, c, _ in alter.changes] + [c for a, _, c, _ in alter.steps if a]
    if not (any(c.invisible for c in made) or alter.keys.adds_primary):
        return None
    draft = alter.draft
    assert draft is not None
    renamed = {old: column.name.lower() for old, column, _ in alter.changes}
    primary = [index for index in alter.keys.index_adds if index.kind == "primary"]
    if not primary and draft.primary and draft.primary not in alter.keys.index_drops:
        primary = [draft.indexes[draft.primary]]
    for index in primary:
        for part in index.columns:
            column = alter.new_column(renamed.get(part.name.lower(), part.name.lower())) if not part.expression else None
            if column is not None and column.invisible and column.default is None and not column.auto_increment \
                    and column.generated is None:
                return f"invisible column {column.name} must have a default value: the PRIMARY KEY makes it NOT NULL (error 4108)"
    return None


def _null_default_key_problem(alter: TableAlter) -> str | None:
    """A PRIMARY KEY the statement adds over a TEXT/BLOB that an earlier ALTER gave DEFAULT NULL
    and nothing has redefined since (`Column.altered_null_default`): the key makes it NOT NULL,
    which that default is invalid for (1067, MariaDB 10.11)."""
    if not alter.keys.adds_primary:
        return None
    for index in alter.keys.index_adds:
        for part in index.columns if index.kind == "primary" else ():
            column = None if part.expression else alter.new_column(part.name.lower())
            if column is not None and column.altered_null_default:
                return (f"invalid default value for {column.name} (error 1067): an ALTER gave it DEFAULT NULL, "
                        "which the server keeps on a TEXT/BLOB, and the PRIMARY KEY makes it NOT NULL")
    return None


def _fulltext_added_problem(alter: TableAlter) -> str | None:
    for index in alter.keys.index_adds:
        if index.kind != "fulltext":
            continue
        for part in index.columns:
            column = (alter.table.column if alter.draft is None else alter.new_column)(part.name.lower()) \
                if not part.expression else None
            if column is not None and column.type.upper() not in FULLTEXT_TYPES:
                return f"column {column.name} cannot be part of a FULLTEXT key (error 1283)"
    return None


def _hash_key_auto_problem(alter: TableAlter) -> str | None:
    """A UNIQUE key MariaDB keeps as a hash takes no AUTO_INCREMENT column
    (`key_parts.long_unique_problem`): judged on the keys the statement builds."""
    draft = alter.draft
    assert draft is not None
    built = alter.keys_built()
    if (alter.new_engine() or "").lower() != (alter.table.body.options.engine or "").lower():
        built = [*alter.keys.index_adds, *alter.kept_keys().values()]
    if not built:
        return None
    renamed = {old: column.name.lower() for old, column, _ in alter.changes}
    return long_unique_problem(
        alter.table, built, lambda key: alter.new_column(renamed.get(key, key)), alter.new_engine(),
        alter.target, alter.schema)


def _engine_hash_problem(alter: TableAlter) -> str | None:
    """The table's UNIQUE keys in the engine an ALTER with only table options moves it to
    (`key_parts.long_unique_problem`: MEMORY keeps no hash of a long one)."""
    engine = alter.new_engine()
    if (engine or "").lower() == (alter.table.body.options.engine or "").lower():
        return None
    return long_unique_problem(alter.table, alter.table.indexes, alter.table.column, engine, alter.target,
                               alter.schema)


def _dropped_from_unique_problem(alter: TableAlter) -> str | None:
    draft = alter.draft
    assert draft is not None
    for key in alter.drops:
        if key in alter.readded:
            continue
        for at in draft.uses.get(key, ()):
            index = draft.indexes.get(at)
            if index is None or at in alter.keys.index_drops or index.kind not in ("unique", "primary"):
                continue
            if any(p.expression or p.name.lower() not in alter.drops for p in index.columns):
                name = "the PRIMARY KEY" if index.kind == "primary" else f"UNIQUE key {index.name}"
                column = draft.column(key)
                key = column.name if column is not None else key
                return (f"column {key} is dropped out of {name}, which keeps other columns: MariaDB refuses to "
                        f"change a UNIQUE key that way (\"Key column '{key}' doesn't exist in table\", error 1072)")
    return None


def is_null(default: str | None) -> bool:
    """Whether a default's text is NULL (`NULL`, `(NULL)`, any case)."""
    return default is not None and default.strip("() \t\r\n").upper() == "NULL"


def default_problem(column: Column) -> str | None:
    """Why the server refuses the default ALTER COLUMN ... SET DEFAULT gave `column`: judged as any
    column's, also on an AUTO_INCREMENT column (whose definition may not have one: error 1067)."""
    return column_problem(replace(column, auto_increment=False) if column.auto_increment else column)
