"""redundant-index: a secondary index that another index of the table makes useless.

InnoDB writes every secondary index on every INSERT and DELETE (and on UPDATEs of its columns)
and keeps its pages in the buffer pool; an index whose every lookup another index already serves
is pure cost. The check compares indexes as InnoDB stores them: a secondary index ends with the
clustered key's columns, so `KEY (a, id)` with `PRIMARY KEY (id)` is the index `KEY (a)` is.
Other engines' indexes (MyISAM, Aria, MEMORY) are judged as well, as written: they hold no such
suffix, and MEMORY's are hashes unless written USING BTREE. It never calls the PRIMARY KEY or a UNIQUE key redundant because a longer index starts with it
(they enforce something), only an exact duplicate of another UNIQUE/PRIMARY; and it keeps an
index a foreign key needs unless the covering index serves that foreign key too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from linter.rules.copies import judged_once
from linter.rules.checkapi import (
    Check, CheckContext, RuleDoc, foreign_keys_by_parent, latest_place, qualified, quote, table_key,
)
from linter.rules.findings import Finding
from linter.parse.elements import Index, IndexColumn
from linter.schema.model import SchemaModel, Table
from linter.record import FrozenRecord
from linter.schema.target import Target

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

#: string types whose key parts may be prefixes: a prefix as long as the column is the whole column
_PREFIXABLE = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})
#: which kinds can stand in for each other: B-tree keys among themselves, FULLTEXT and SPATIAL alone
_FAMILY = {"primary": "btree", "unique": "btree", "index": "btree", "fulltext": "fulltext", "spatial": "spatial"}
_KIND_RANK = {"primary": 0, "unique": 1, "index": 2, "fulltext": 2, "spatial": 2}
#: the most keys a table can have on any server (MySQL 64; MariaDB 64, or up to 128 when built so)
MAX_KEYS = 128


class Part(FrozenRecord):
    """One key part as the comparison sees it: the column (lower-case) or the expression's text,
    the prefix length (None: the whole column) and the direction the server keeps."""

    __slots__ = __match_args__ = ("column", "prefix", "descending")
    column: str
    prefix: int | None
    descending: bool

    def __init__(self, column: str, prefix: int | None, descending: bool) -> None:
        _set(self, "column", column)
        _set(self, "prefix", prefix)
        _set(self, "descending", descending)


class Key(FrozenRecord):
    """An index with its parts as written (`parts`) and as InnoDB stores them (`stored`: a
    secondary index's parts followed by the clustered key's columns it does not hold whole)."""

    __slots__ = __match_args__ = ("index", "position", "parts", "stored", "family")
    index: Index
    position: int
    parts: tuple[Part, ...]
    stored: tuple[Part, ...]
    #: which keys can stand in for it: "btree", "hash" (MEMORY's default), "fulltext", "spatial"
    family: str

    def __init__(self, index: Index, position: int, parts: tuple[Part, ...], stored: tuple[Part, ...],
                 family: str | None = None) -> None:
        _set(self, "index", index)
        _set(self, "position", position)
        _set(self, "parts", parts)
        _set(self, "stored", stored)
        _set(self, "family", family if family is not None else _FAMILY[index.kind])

    @property
    def strength(self) -> tuple[int, int, float, bool, int]:
        """The order in which keys are kept: PRIMARY, UNIQUE, then plain; longer first (a longer
        last prefix counts as longer); visible before invisible; then as defined."""
        last = self.parts[-1].prefix if self.parts else None
        return (_KIND_RANK[self.index.kind], -len(self.parts), -(last or float("inf")), self.index.invisible,
                self.position)


class Verdict(FrozenRecord):
    """Why `redundant` is redundant: the key that `covered_by` it and how ("duplicate": the same
    as stored; "prefix": a left prefix of it)."""

    __slots__ = __match_args__ = ("redundant", "covered_by", "how")
    redundant: Key
    covered_by: Key
    how: str

    def __init__(self, redundant: Key, covered_by: Key, how: str) -> None:
        _set(self, "redundant", redundant)
        _set(self, "covered_by", covered_by)
        _set(self, "how", how)


def honours_descending(target: Target) -> bool:
    """Whether the server keeps DESC key parts: MySQL 8.0+ and MariaDB 10.8+; older servers parse
    and ignore it, so `KEY (a DESC)` is `KEY (a)` there."""
    return target.is_mysql8 or (target.is_mariadb and target.version >= (10, 8))


#: engines whose keys are hashes unless written USING BTREE (MEMORY): a hash serves only lookups of
#: its whole key, so it is a left prefix of nothing, and only a hash of the same parts duplicates it
_HASH_ENGINES = frozenset({"memory", "heap"})


def keys_of(table: Table, target: Target) -> list[Key]:
    """The table's indexes as the comparison sees them. An InnoDB table's secondary indexes end
    with the clustered key's columns; another engine's (MyISAM, Aria, MEMORY ...) point at rows by
    position and hold only their own parts. MEMORY's keys are hashes unless written USING BTREE."""
    descending = honours_descending(target)
    clustered = table.clustered_index if table.is_innodb else None
    clustered_parts = _parts(table, clustered, descending) if clustered is not None else ()
    hashes = (table.engine or "").lower() in _HASH_ENGINES
    keys = []
    for position, index in enumerate(table.indexes):
        parts = _parts(table, index, descending)
        stored = parts
        if _FAMILY[index.kind] == "btree" and index is not clustered and clustered is not None:
            whole = {p.column for p in parts if p.prefix is None}
            stored = parts + tuple(Part(p.column, None, False) for p in clustered_parts if p.column not in whole)
        family = "hash" if hashes and _FAMILY[index.kind] == "btree" and not index.btree else _FAMILY[index.kind]
        keys.append(Key(index, position, parts, stored, family))
    return keys


def _parts(table: Table, index: Index, descending: bool) -> tuple[Part, ...]:
    return tuple(_part(table, part, descending) for part in index.columns)


def _part(table: Table, part: IndexColumn, descending: bool) -> Part:
    if part.expression:  # a functional key part: equal only to the same expression
        return Part(" ".join(part.name.lower().split()), None, part.descending and descending)
    prefix = part.prefix
    column = table.column(part.name)
    if prefix is not None and column is not None and column.type in _PREFIXABLE and column.length is not None \
            and prefix >= column.length:
        prefix = None  # a "prefix" as long as the column is the whole column
    return Part(part.name.lower(), prefix, part.descending and descending)


def is_left_prefix(short: Sequence[Part], long: Sequence[Part]) -> bool:
    """Whether every lookup `short` serves, `long` serves: `short`'s parts are `long`'s first
    parts, the last of them possibly a shorter prefix of the same column (`a(10)` of `a(20)` or
    of `a`), the directions all the same or all reversed (the index is read backwards)."""
    if not short or len(short) > len(long):
        return False
    for n, (s, k) in enumerate(zip(short, long)):
        if s.column != k.column:
            return False
        if s.prefix != k.prefix:
            if n < len(short) - 1:  # before the last part, a prefix changes the order of what follows
                return False
            if k.prefix is not None and (s.prefix is None or s.prefix > k.prefix):
                return False
    same = [s.descending == k.descending for s, k in zip(short, long)]
    return all(same) or not any(same)


def verdict(r: Key, k: Key) -> str | None:
    """Why index `r` is redundant next to index `k`, or None. The decision, in order:
    - the PRIMARY KEY never is; an invisible (IGNORED) `k` serves no query, so it covers nothing;
    - only keys of one family stand in for each other (B-tree; hash; FULLTEXT; SPATIAL);
    - hash, FULLTEXT and SPATIAL: only the same columns in the same order;
    - a UNIQUE key: only a duplicate of another UNIQUE or the PRIMARY (the same constraint);
    - a plain key the same as `k` as InnoDB stores them (primary key suffix included): a duplicate,
      the weaker of the two (`Key.strength`) being the redundant one;
    - a plain key whose parts are a left prefix of `k`'s (`is_left_prefix`)."""
    index, other = r.index, k.index
    if index is other or index.kind == "primary" or other.invisible or r.family != k.family or not r.parts:
        return None
    weaker = k.strength < r.strength
    if r.family != "btree":
        return "duplicate" if r.parts == k.parts and weaker else None
    if index.kind == "unique":
        return "duplicate" if other.kind in ("unique", "primary") and r.parts == k.parts and weaker else None
    if r.stored == k.stored:
        return "duplicate" if weaker else None
    return "prefix" if is_left_prefix(r.parts, k.parts) else None


def serves(key: Key, columns: Sequence[str]) -> bool:
    """Whether a foreign key on `columns` (or one referencing them) can use this index: InnoDB
    needs them as the index's first columns, in order, whole."""
    if len(columns) > len(key.parts) or key.family != "btree":
        return False
    return all(p.column == c.lower() and p.prefix is None for p, c in zip(key.parts, columns))


def redundant_keys(table: Table, target: Target, foreign_keys: Sequence[tuple[str, Sequence[str]]]) -> list[Verdict]:
    """The redundant indexes of `table`, each with the kept index that covers it. Keys are decided
    strongest first (`Key.strength`), each against the keys kept so far, so a set of duplicates
    keeps exactly one and a redundant key is always named with one that stays. `foreign_keys`:
    (label, columns) of the foreign keys that need an index of this table (its own, and those of
    other tables that reference it): a key serving one is redundant only next to a key that
    serves it too."""
    kept: list[Key] = []
    found: list[Verdict] = []
    # keys are compared pairwise: bounded by what a server takes (64 keys a table; MariaDB built
    # with MAX_INDEXES up to 128), so hostile input cannot make this quadratic in its size
    for key in sorted(keys_of(table, target)[:MAX_KEYS], key=lambda k: k.strength):
        needs = [columns for _, columns in foreign_keys if serves(key, columns)]
        covers = [Verdict(key, other, how) for other in kept
                  if (how := verdict(key, other)) is not None and all(serves(other, columns) for columns in needs)]
        if covers:  # named with a duplicate when there is one: nothing to weigh then
            found.append(next((v for v in covers if v.how == "duplicate"), covers[0]))
        else:
            kept.append(key)
    return sorted(found, key=lambda v: v.redundant.position)


class RedundantIndex(Check):
    id = "redundant-index"
    title = "Secondary index another index makes redundant"
    severity = "warning"
    doc = RuleDoc(
        why=(
            "InnoDB writes every secondary index on every INSERT and DELETE and on UPDATEs of its columns, and keeps "
            "its pages in the buffer pool. An index whose every lookup another index already serves costs those "
            "writes and that memory and buys nothing; the optimizer also has one more plan to weigh. InnoDB stores "
            "the clustered key (the PRIMARY KEY) at the end of every secondary index, so `KEY (a, id)` with "
            "`PRIMARY KEY (id)` is the same index as `KEY (a)`, and `KEY (id)` repeats the primary key."
        ),
        evidence=(
            "The table's final keys, compared as its engine stores them: InnoDB's secondary indexes with the "
            "primary key suffix, every other engine's (MyISAM, Aria, MEMORY ...) as written, MEMORY's keys as the "
            "hashes they are unless written USING BTREE (a hash is a prefix of nothing). Redundant: an exact "
            "duplicate (the same parts, or on InnoDB the same once the primary key suffix is appended), or a plain KEY whose parts are a left "
            "prefix of another B-tree index's (`KEY (a)` next to `KEY (a, b)`, `UNIQUE (a, b)` or `PRIMARY KEY "
            "(a, b)`; `KEY (a(10))` next to `KEY (a(20))` or `KEY (a)`, never the reverse). Directions must all "
            "match or all be reversed (DESC counts on MySQL 8.0+ and MariaDB 10.8+ only; older servers ignore "
            "it); functional key parts match only the same expression. Never redundant: the PRIMARY KEY; a "
            "UNIQUE key, unless it duplicates another UNIQUE or the PRIMARY KEY (a longer index that starts with "
            "it does not enforce its constraint); a key of another kind (FULLTEXT and SPATIAL only duplicate "
            "their own kind). An INVISIBLE (MySQL) or IGNORED (MariaDB) index serves no query, so it makes "
            "nothing redundant, but it can be redundant itself. An index a foreign key needs (the foreign key's "
            "columns first, whole, in order; on either side of the foreign key) counts as redundant only when the "
            "covering index serves that foreign key too. `KEY (a, id)` is not redundant next to `KEY (a, b)`: it "
            "keeps the rows of one `a` in `id` order. The finding names the index that stays, and sits on the "
            "statement that added the later of the two."
        ),
        bad=(
            "CREATE TABLE orders (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
            "  customer_id BIGINT UNSIGNED NOT NULL,\n  created_at DATETIME NOT NULL,\n"
            "  KEY idx_customer (customer_id),\n  KEY idx_customer_created (customer_id, created_at),\n"
            "  KEY idx_customer_id (customer_id, id)\n) ENGINE=InnoDB;"
        ),
        good=(
            "CREATE TABLE orders (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
            "  customer_id BIGINT UNSIGNED NOT NULL,\n  created_at DATETIME NOT NULL,\n"
            "  KEY idx_customer_id (customer_id, id),\n  KEY idx_customer_created (customer_id, created_at)\n"
            ") ENGINE=InnoDB;"
        ),
        fix=(
            "`ALTER TABLE t DROP INDEX redundant_index;` (an in-place, metadata-only change on MySQL 8 and "
            "MariaDB). Queries that name the index (FORCE INDEX, USE INDEX) fail once it is gone: search for its "
            "name first. To try before dropping, make it INVISIBLE (MySQL 8.0: `ALTER TABLE t ALTER INDEX x "
            "INVISIBLE`) or IGNORED (MariaDB 10.6+: `ALTER TABLE t ALTER INDEX x IGNORED`) and watch the slow log. "
            "What a prefix-redundant `KEY (a)` gives that `KEY (a, b)` does not: the rows of one `a` in primary "
            "key order (`WHERE a = ? ORDER BY id`) without a sort."
        ),
        options={"severity": "severity of a redundant index (default warning)"},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        referencing = foreign_keys_by_parent(model)

        def judge(table: Table) -> Iterator[Finding]:
            if not _two_keys_start_alike(table.indexes):
                return  # a duplicate or a prefix starts with the same column as the key it repeats
            needs = [(f"foreign key {quote(fk.name or '')}", fk.columns) for fk in table.foreign_keys]
            for child, fk in referencing.get(table_key(model, table.schema, table.name), ()):
                needs.append((f"foreign key {quote(fk.name or '')} of {child.name}", fk.ref_columns))
            for verdict_ in redundant_keys(table, context.target, needs):
                yield self._finding(table, verdict_, needs, context.target)

        return judged_once(model, context, judge)

    def _finding(self, table: Table, found: Verdict, needs: list[tuple[str, Sequence[str]]], target: Target) -> Finding:
        r, k = found.redundant.index, found.covered_by.index
        name, other = _describe(r), _describe(k)
        clustered = table.clustered_index
        clustered_columns = ", ".join(quote(c) for c in clustered.column_names) if clustered is not None else ""
        redundant, covering = quote(r.name or ""), "PRIMARY KEY" if k.kind == "primary" else quote(k.name or "")
        if found.how == "prefix":
            summary = f"{table.name}: index {redundant} is a left prefix of {covering}"
        elif found.redundant.parts == found.covered_by.parts:
            summary = f"{table.name}: index {redundant} duplicates {covering}"
        else:
            summary = f"{table.name}: index {redundant} is the same as {covering} as InnoDB stores it"
        if found.how == "prefix":
            message = (f"{table.name}: {name} is a left prefix of {other}: every lookup and range scan it serves, "
                       f"{quote(k.name or '')} serves too.")
            length = len(found.redundant.parts)
            if clustered is not None and table.is_innodb and found.redundant.stored[length:] != found.covered_by.stored[length:]:
                message += (f" (The one thing it gives that {quote(k.name or '')} does not: the rows of one value in "
                            f"primary key order, WHERE ... ORDER BY {clustered_columns}, without a sort.)")
        elif k.kind == "primary" and found.redundant.parts == found.covered_by.parts:
            message = f"{table.name}: {name} repeats the PRIMARY KEY: the clustered index already finds rows by it."
        elif r.kind == "unique":
            message = f"{table.name}: {name} enforces the same constraint as {other} and is the same index."
        elif found.redundant.parts == found.covered_by.parts:
            message = f"{table.name}: {name} duplicates {other}."
        else:
            message = (f"{table.name}: {name} is the same index as {other} as InnoDB stores them: every secondary "
                       f"index ends with the clustered key ({clustered_columns}).")
        engine = "InnoDB" if table.is_innodb else table.engine
        message += (f" {engine} maintains it on every INSERT and DELETE and on updates of its columns, and caches its "
                    "pages, for no lookup the other cannot do.")
        if r.invisible:
            message += " It is already invisible to the optimizer (INVISIBLE/IGNORED) and still costs every write."
        served = [label for label, columns in needs if serves(found.redundant, columns)]
        if served:
            message += f" {quote(k.name or '')} also serves {', '.join(served)}."
        hide = "INVISIBLE" if target.is_mysql8 else "IGNORED" if target.is_mariadb and target.version >= (10, 6) else ""
        if hide and not r.invisible:
            message += (f" To try it first: ALTER TABLE {qualified(table)} ALTER INDEX {quote(r.name or '')} {hide}, "
                        "and drop it once no query missed it.")
        evidence = f"{_written(found.redundant)}; {_written(found.covered_by)}"
        if found.redundant.parts != found.covered_by.parts:
            evidence += "; as InnoDB stores them: " + "; ".join(
                f"{quote(key.index.name or '')} ({', '.join(_part_sql(p) for p in key.stored)})"
                for key in (found.redundant, found.covered_by))
        return self.finding(
            table, message, where=latest_place([(table, r), (table, k)]), evidence=evidence,
            fix=f"ALTER TABLE {qualified(table)} DROP INDEX {quote(r.name or '')};", subject=(r.name or "").lower(),
            summary=summary,
        )


def _two_keys_start_alike(indexes: Sequence[Index]) -> bool:
    """Whether two keys start with the same column (or expression): a redundant key always does."""
    firsts = [index.columns[0].name.lower() for index in indexes if index.columns]
    return len(set(firsts)) < len(firsts)


def _kind_sql(index: Index) -> str:
    return {"primary": "PRIMARY KEY", "unique": "UNIQUE KEY", "index": "KEY", "fulltext": "FULLTEXT KEY",
            "spatial": "SPATIAL KEY"}[index.kind]


def _describe(index: Index) -> str:
    parts = ", ".join(_column_sql(p) for p in index.columns)
    if index.kind == "primary":
        return f"PRIMARY KEY ({parts})"
    return f"{_kind_sql(index)} {quote(index.name or '')} ({parts})"


def _column_sql(part: IndexColumn) -> str:
    if part.expression:
        return part.name
    text = quote(part.name) + (f"({part.prefix})" if part.prefix is not None else "")
    return text + (" DESC" if part.descending else "")


def _part_sql(part: Part) -> str:
    return part.column + (f"({part.prefix})" if part.prefix is not None else "") + (" DESC" if part.descending else "")


def _written(key: Key) -> str:
    invisible = " INVISIBLE" if key.index.invisible else ""
    return f"{_describe(key.index)}{invisible}"
