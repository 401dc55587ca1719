"""The order the server keeps a table's keys in, which decides the index InnoDB clusters on.

InnoDB clusters a table without a PRIMARY KEY on its FIRST key when that key is UNIQUE over
whole NOT NULL columns (not a hash key), else on the hidden 6-byte row id (GEN_CLUST_INDEX):
the server looks at key 0 alone (table.cc, init_from_binary_frm_image), so a NOT NULL UNIQUE key
further down the list clusters nothing. Which key is first follows from two rules, both of
mysql_prepare_create_table (sql_table.cc):

- `creation_order`: CREATE TABLE sorts the keys (sort_keys): UNIQUE keys first - hash ("long
  unique") keys last of those, in the order read; of the others, keys without a nullable part
  first, the PRIMARY KEY first of those, then keys without a prefix part before keys with one -
  then the other keys, FULLTEXT last; keys of one class keep the order read. The server reads
  the keys in the order written (a key declared on a column where the column is) and takes
  NULL-ness from the column definitions, where a column only the PRIMARY KEY makes NOT NULL is
  still nullable for the keys read before it.
- `alter_sorts_keys`: MariaDB's ALTER TABLE sorts again only when it adds a key (ADD KEY, UNIQUE,
  PRIMARY KEY or FOREIGN KEY, a key declared on an added or changed column, CREATE INDEX) or
  changes the key the table is clustered on (drops one of its columns, or makes one of the implicit
  one's nullable) without dropping that key itself (DROP PRIMARY KEY, DROP INDEX: the server
  leaves a dropped key out before it looks at its columns): MDEV-25803's HA_SKIP_KEY_SORT. Else the keys keep the order they were sorted in,
  whatever the ALTER did to their columns (even with FORCE or ALGORITHM=COPY). The old keys come
  first, the added ones after them, and the sort keeps that order among equals. MySQL's
  sql_table.cc has no such skip: its ALTER sorts every time, so its first key is the best one
  (from its source; no MySQL server judges this here).

An ALTER also makes a UNIQUE key written USING HASH a B-tree when it fits one
(`linter.server.key_parts.rewrite_hash_keys`), before it sorts.

So `CREATE TABLE t (a INT, b INT, UNIQUE ub (b), UNIQUE ua (a))` then `MODIFY a INT NOT NULL`
stays on the row id on MariaDB, and a later `ADD KEY` clusters it on ua (MariaDB 10.11,
INNODB_SYS_INDEXES; tests/test_key_order.py asks the server about generated scripts).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from linter.parse.elements import Column, Index
from linter.parse.elements import SPATIAL_TYPES

__all__ = ["alter_sorts_keys", "creation_order", "key_rank"]

ColumnOf = Callable[[str], Column | None]


def key_rank(index: Index, column_of: ColumnOf, forced_later: Collection[str] = ()) -> tuple[int, ...]:
    """The key's place in the server's sort (lower first); keys of equal rank keep their order.
    `column_of`: the table's column of a lower-case name (None: unknown, counted as nullable);
    `forced_later`: lower-case names of columns only a PRIMARY KEY the server reads after this key
    makes NOT NULL (still nullable when this key is read). Hash keys (`Index.long_hash`) keep the
    order they are in among themselves."""
    if index.kind not in ("primary", "unique"):
        return (1, index.kind == "fulltext")
    if index.long_hash:
        return (0, 1)
    nullable = partial = False
    for part in index.columns:
        column = None if part.expression else column_of(part.name.lower())
        if column is None or column.nullable or part.name.lower() in forced_later:
            nullable = True
        # a prefix left by the parse and the replay is shorter than its column (whole ones are
        # dropped); a spatial column's UNIQUE key is stored as a prefix
        if part.prefix is not None or (column is not None and column.type.upper() in SPATIAL_TYPES):
            partial = True
    return (0, 0, nullable, index.kind != "primary", partial)


def creation_order(indexes: Sequence[Index], column_of: ColumnOf, primary_forced: Collection[str] = ()
                   ) -> list[Index] | None:
    """The keys of a CREATE TABLE, given in the order the server reads them (as written, a key
    declared on a column where the column is; for LIKE, the source's), in the order it keeps
    them; None when that is the order given. `primary_forced`: the columns only the PRIMARY KEY
    makes NOT NULL (`TableBody.primary_forced`): still nullable for the keys read before it
    (MariaDB 10.11: `UNIQUE uc (c), UNIQUE ua (a), PRIMARY KEY (a)` keeps uc first, so a later
    DROP PRIMARY KEY leaves the row id; with the PRIMARY KEY written first, ua is first)."""
    ranks = []
    before_primary = bool(primary_forced)
    for index in indexes:
        before_primary = before_primary and index.kind != "primary"
        ranks.append(key_rank(index, column_of, primary_forced if before_primary else ()))
    if all(a <= b for a, b in zip(ranks, ranks[1:])):
        return None
    order = sorted(range(len(indexes)), key=ranks.__getitem__)  # stable: equals keep their order
    return [indexes[n] for n in order]


def alter_sorts_keys(*, mariadb: bool, adds_key: bool, clustered: Index | None, clustered_dropped: bool,
                     dropped: Sequence[str], made_nullable: Sequence[str]) -> bool:
    """Whether an ALTER TABLE sorts the table's keys again (see the module's docstring).
    `clustered`: the key the table was clustered on before it (None: the row id);
    `clustered_dropped`: the statement drops that key (DROP PRIMARY KEY, DROP INDEX); `dropped`:
    the lower-case names of the columns it drops; `made_nullable`: those of the columns it
    redefines as nullable (their old names). MariaDB 10.11: with keys ua (a), ub (b, nullable),
    uc (c), `DROP a` sorts (uc clusters), `DROP INDEX ua, DROP a` does not (the row id)."""
    if not mariadb or adds_key:
        return True
    if clustered is None or clustered_dropped:
        return False
    columns = {part.name.lower() for part in clustered.columns if not part.expression}
    if columns.intersection(dropped):
        return True
    return clustered.kind == "unique" and bool(columns.intersection(made_nullable))
