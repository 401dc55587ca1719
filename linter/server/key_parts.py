"""Key parts as the server stores them, where that differs from what the DDL wrote.

Two rules, both from the server's mysql_prepare_create_table (sql_table.cc), which CREATE TABLE,
ALTER TABLE ... ADD KEY, CREATE INDEX and an ALTER that redefines a keyed column all run:

- `linter.parse.body.drop_whole_prefixes`: a prefix that covers its whole column is no prefix. For CHAR/VARCHAR/
  BINARY/VARBINARY that is a prefix as long as the column (`model.is_whole_column`); for a type
  that takes no prefix (a number, a date, ENUM, SET, BIT) a "prefix" equal to the bytes its value
  takes in a key (`INT` 4, `DATE` 3, `DECIMAL(10,2)` 5): the server accepts `KEY (a(4))` on an INT
  and keeps `KEY (a)`; any other length there is refused (1089, `refusals.key_part_problem`).
  Target-independent: the refusal rule both follow lets only the whole length through.
- `server_keys` (MariaDB only): a part of a non-unique KEY longer than the engine takes in
  one key part - a TEXT/BLOB/JSON/GEOMETRY column without a length, a VARCHAR(1000) in utf8mb4, or
  a prefix written longer than that - is cut to the longest prefix that fits, with only a Note 1071
  (MariaDB 10.11, tests/test_model_keys.py): the part's bytes become the engine's limit less its
  remainder by the character set's bytes per character, shown in characters. So `KEY (t)` on a
  TEXT is `t(3072)` in latin1, `t(768)` in utf8mb4, `t(1024)` in utf8mb3, `t(1536)` in ucs2; on a
  TINYTEXT/TINYBLOB `t(255)` (the whole column is 255 characters' bytes); in MyISAM (1000 bytes)
  `t(1000)`/`t(250)`, in Aria (2300 bytes) `t(2300)`/`t(575)`. A UNIQUE key is not cut: it
  becomes a hash key (`is_long_unique`, `Index.long_hash`); nor is a PRIMARY KEY (refused: 1170 /
  1071), nor FULLTEXT/SPATIAL. A key whose total is then over the limit is refused (1071): the
  index-key-length check says so on the key as written. MySQL (5.7, 8.0, 8.4) cuts nothing under its default strict sql_mode: it refuses any
  key on a whole TEXT/BLOB (1170) or a part over the limit (1071), which the index-key-length
  check reports, so for MySQL targets the model keeps the key as written.

A cut part keeps what the DDL wrote (`IndexColumn.server_cut`, `written_prefix`): `as_written`
gives the key back as written, for the checks that judge the DDL (index-key-length)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from linter.schema.innodb_sizes import column_charset
from linter.parse.elements import LARGE_TYPES, Column, Index, IndexColumn
from linter.server.key_order import creation_order
from linter.parse.body_draft import BodyDraft
from linter.parse.elements import SPATIAL_TYPES
from linter.schema.model import Schema, Table, is_innodb_engine
from linter.parse.body import NO_PREFIX_TYPES, stored_key_bytes
from linter.schema.key_facts import SIZED_STRING_TYPES
from linter.schema.target import Target

#: the most bytes one key part may take, by engine (the server's max_key_part_length; MariaDB
#: 10.11, verified: InnoDB 3072 in every row format - COMPACT/REDUNDANT then refuse over 767 with
#: 1709 -, MyISAM 1000, Aria 2300, MEMORY 3072). None: the server default, InnoDB
_KEY_PART_BYTES = {None: 3072, "innodb": 3072, "xtradb": 3072, "myisam": 1000, "aria": 2300, "memory": 3072,
                   "heap": 3072}
#: types whose value may be longer than a key part takes (a number or date never is)
_CUTTABLE = LARGE_TYPES | SPATIAL_TYPES | {"CHAR", "VARCHAR", "BINARY", "VARBINARY"}
#: types whose key bytes are their length in characters times the character set's bytes
_CHARACTER_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})
#: TINYTEXT/TINYBLOB hold at most 255 bytes: their whole column is a 255-character prefix
_TINY = frozenset({"TINYTEXT", "TINYBLOB"})
#: POINT: the server takes 25 bytes of a non-spatial key on it (MAX_LEN_GEOM_POINT_FIELD)
_POINT_BYTES = 25


def server_keys(
    table: Table, indexes: list[Index], column: Callable[[str], Column | None], target: Target, schema: Schema | None,
) -> list[Index] | None:
    """The keys of `indexes` (the table's, or those an ALTER adds or changes) as MariaDB stores
    them, as new Index objects: long non-unique key parts cut (the module's docstring) and each UNIQUE key marked a hash key or not (`Index.long_hash`, `is_long_unique`);
    None when that changes none of them (the caller changes nothing). `column`: the table's
    column of a name (the ALTER's draft while it is applied); `table` gives the character sets
    around the columns' (table, schema, server default) and the engine."""
    if not target.is_mariadb:
        return None
    written = table.body.options.engine
    engine = "innodb" if is_innodb_engine(written) else (written or "").lower()  # (a placeholder: InnoDB)
    limit = _KEY_PART_BYTES.get(engine)
    if limit is None:
        return None  # an engine innolint does not know the limits of: left as written
    out: list[Index] | None = None
    for n, index in enumerate(indexes):
        stored = None
        if index.kind == "index":
            parts = _cut_parts(table, index, column, limit, target, schema)
            if parts is not None:
                stored = replace(index, columns=parts)
        elif index.kind == "unique":
            long_hash = is_long_unique(table, index, column, limit, engine, target, schema)
            if long_hash != index.long_hash:
                stored = replace(index, long_hash=long_hash)
        if stored is not None:
            if out is None:
                out = list(indexes)
            out[n] = stored
    return out


def long_unique_problem(
    table: Table, indexes: list[Index], column_of: Callable[[str], Column | None], engine: str | None,
    target: Target, schema: Schema | None,
) -> str | None:
    """Why MariaDB refuses a UNIQUE key it would keep as a hash (`is_long_unique`: over a whole
    TEXT/BLOB column, longer than the engine's key, or written USING HASH): one with an
    AUTO_INCREMENT column (error 4169; 1901 for USING HASH), or any in a MEMORY table, which
    holds no hidden generated column (1910; asked of MariaDB 10.11: UNIQUE (VARCHAR(800) utf8mb4)
    is refused, the same USING HASH is MEMORY's own hash, KEY (the same) is cut to 768 characters). `column_of`: the columns as the statement
    leaves them, in the character set they hold."""
    if not target.is_mariadb:
        return None
    engine = "innodb" if is_innodb_engine(engine) else (engine or "").lower()  # (a placeholder: InnoDB)
    limit = _KEY_PART_BYTES.get(engine)
    if limit is None:
        return None
    for index in indexes:
        if index.kind != "unique":
            continue
        if engine in ("memory", "heap") and index.using != "HASH" and is_long_unique(table, index, column_of, limit, engine, target, schema):
            return (f"UNIQUE key {index.name or '(unnamed)'} is longer than the {limit:,} bytes of a MEMORY key, and MEMORY "
                    "keeps no hash of it: the MEMORY storage engine does not support generated columns (error 1910)")
        auto = next((column for part in index.columns if not part.expression
                     and (column := column_of(part.name.lower())) is not None and column.auto_increment), None)
        if auto is not None and is_long_unique(table, index, column_of, limit, engine, target, schema):
            return (f"the AUTO_INCREMENT column {auto.name} cannot be part of UNIQUE key {index.name or '(unnamed)'}, "
                    f"which MariaDB keeps as a hash: over a whole TEXT/BLOB column, longer than the {limit:,} bytes "
                    f"of a key, or USING HASH (error {1901 if index.using == 'HASH' else 4169})")
    return None


def is_long_unique(
    table: Table, index: Index, column_of: Callable[[str], Column | None], limit: int, engine: str | None,
    target: Target, schema: Schema | None,
) -> bool:
    """Whether MariaDB keeps this UNIQUE key as a hash over a hidden column (a "long unique"):
    written USING HASH (but in MEMORY, whose hash keys are its own), a TEXT/BLOB/JSON part
    without a prefix (TINYTEXT too), or parts that take more than the engine's `limit` bytes
    together (each CHAR/VARCHAR its characters times its character set's bytes per character:
    700 + 68 utf8mb4 characters are 3,072 bytes and a B-tree, 700 + 69 a hash; MariaDB 10.11).
    A part whose size innolint does not know counts as small."""
    if index.using == "HASH" and engine not in ("memory", "heap"):
        return True
    total = 0
    for part in index.columns:
        column = None if part.expression else column_of(part.name.lower())
        if column is None:
            continue
        kind = column.type.upper()
        if kind in SPATIAL_TYPES:
            continue  # stored as a prefix of a few bytes, never a hash
        if kind in LARGE_TYPES and part.prefix is None:
            return True
        if kind in LARGE_TYPES or kind in _CHARACTER_TYPES:
            chars = part.prefix if part.prefix is not None else column.length
            charset = column_charset(column, table, target, schema)
            maxlen = 1 if charset is None or charset.charset == "binary" else charset.maxlen
            total += (chars or 0) * (maxlen or 1)
        else:
            total += stored_key_bytes(column) or 0
    return total > limit


class ServerKeys:
    """A new table's keys as the server stores them: `server_keys` (MariaDB) and the server's
    order (`linter.server.key_order.creation_order`). The body may be shared (tenant dumps repeat
    each definition thousands of times, linter.parse.cache): the answer for one definition, in
    the same character sets and engine, is worked out once, and the tables that need other keys
    than the parse gave share one list of them."""

    #: the most definitions remembered (then forgotten all at once: memory stays bounded)
    MOST = 100_000

    def __init__(self) -> None:
        #: (id of the keys, engine, charsets and collations, what was done) -> (those keys, the server's)
        self._known: dict[tuple[object, ...], tuple[object, list[Index]]] = {}

    def apply(self, table: Table, schema: Schema, target: Target, *, stored: bool, sort: bool) -> None:
        """`stored`: apply `server_keys`; `sort`: put the keys in the server's order (not for keys
        read as a server shows them: SHOW CREATE TABLE lists them in the order it keeps, which an
        ALTER may have left unsorted)."""
        body = table.body
        options = body.options
        seen = (id(body.indexes), options.engine, options.charset, options.collation, schema.charset, schema.collation,
                stored, sort)
        known = self._known.get(seen)
        if known is None or known[0] is not body.indexes:
            keys = (server_keys(table, body.indexes, body.columns.get, target, schema) if stored else None) or body.indexes
            ordered = creation_order(keys, body.columns.get, body.primary_forced) if sort else None
            if len(self._known) >= self.MOST:
                self._known.clear()
            known = self._known[seen] = (body.indexes, ordered or keys)
        if known[1] is not body.indexes:
            table.share_keys(known[1])  # (with the other tables made the same way)


def _cut_parts(
    table: Table, index: Index, column_of: Callable[[str], Column | None], limit: int, target: Target,
    schema: Schema | None,
) -> tuple[IndexColumn, ...] | None:
    parts: list[IndexColumn] | None = None
    for n, part in enumerate(index.columns):
        if part.expression:
            continue
        column = column_of(part.name.lower())
        if column is None or column.type.upper() not in _CUTTABLE:
            continue
        cut = _cut(column, part.prefix, limit, table, target, schema)
        if cut is not None and cut != part.prefix:
            if parts is None:
                parts = list(index.columns)
            parts[n] = IndexColumn(part.name, cut, part.descending, False, True, part.prefix)
    return None if parts is None else tuple(parts)


def _cut(column: Column, prefix: int | None, limit: int, table: Table, target: Target, schema: Schema | None) -> int | None:
    """The prefix (characters) the server keeps of this part, or None when it keeps it as written."""
    kind = column.type.upper()
    if kind == "POINT":  # any prefix, or none, is the server's 25 bytes
        return _POINT_BYTES
    if kind not in LARGE_TYPES and kind not in SPATIAL_TYPES or prefix is not None:
        known = prefix if prefix is not None else column.length
        if known is None or known * 4 <= limit:  # (4: the most bytes a character takes) fits in any charset
            return None
    charset = column_charset(column, table, target, schema)
    maxlen = 1 if charset is None or charset.charset == "binary" else charset.maxlen
    if maxlen is None:
        return None  # a character set innolint does not know
    whole = None  # the prefix the whole column is, where it is one (TINYTEXT/TINYBLOB: 255)
    if prefix is None:
        if kind in _TINY:
            wanted, whole = 255 * maxlen, 255
        elif kind in LARGE_TYPES or kind in SPATIAL_TYPES:
            wanted = None  # unbounded: over any limit
        else:
            length = column.length
            if length is None:
                return None
            wanted = length * maxlen
    else:
        wanted = prefix * maxlen
    if wanted is not None and wanted <= limit:
        return whole
    return (limit - limit % maxlen) // maxlen


def drop_outgrown_prefixes(draft: BodyDraft, columns: list[Column]) -> None:
    """MariaDB drops a key's prefix on a column redefined to a type that takes none (a number, a
    date) or to a length no longer than the prefix: the key part becomes the whole column."""
    for column in columns:
        key = column.name.lower()
        kind = column.type.upper()
        length = column.length
        for at in draft.uses.get(key, ()):
            index = draft.indexes[at]
            if any(p.prefix is not None and not p.expression and p.name.lower() == key and (
                    kind in NO_PREFIX_TYPES or (kind in SIZED_STRING_TYPES and length is not None and length <= p.prefix))
                   for p in index.columns):
                index.columns = tuple(
                    replace(p, prefix=None) if not p.expression and p.name.lower() == key else p for p in index.columns)


def cut_changed_keys(table: Table, draft: BodyDraft, columns: list[Column], target: Target, schema: Schema | None) -> None:
    """MariaDB cuts a non-unique key part on a column redefined longer than the engine takes (a
    VARCHAR(100) under `KEY (a)` made TEXT is `a(3072)` in latin1), and makes a UNIQUE key on one a
    hash key (`server_keys`)."""
    for column in columns:
        for at in list(draft.uses.get(column.name.lower(), ())):
            stored = server_keys(table, [draft.indexes[at]], draft.column, target, schema)
            if stored is not None:
                draft.indexes[at].columns = stored[0].columns
                draft.indexes[at].long_hash = stored[0].long_hash


def rewrite_hash_keys(table: Table, draft: BodyDraft | None, target: Target, schema: Schema | None) -> None:
    """MariaDB keeps a UNIQUE key written USING HASH a hash only until an ALTER writes the table's
    definition anew (any action, `COMMENT='x'` or FORCE too; not a bare ALTER, a RENAME TO, nor IF
    [NOT] EXISTS actions made void): then the key is a B-tree unless it is too wide for one, and
    SHOW CREATE TABLE no longer says USING HASH. The keys keep their order (MariaDB 10.11, tests/
    test_key_order.py)."""
    keys = list(draft.indexes.values()) if draft is not None else table.body.indexes
    if not any(index.kind == "unique" and index.using == "HASH" for index in keys):
        return
    if draft is None:
        keys = table.writable().indexes
    column = draft.column if draft is not None else table.writable().columns.get
    for index in keys:
        if index.kind == "unique" and index.using == "HASH":
            index.using = None
            stored = server_keys(table, [index], column, target, schema)
            index.long_hash = stored[0].long_hash if stored is not None else index.long_hash


def as_stored(index: Index) -> Index:
    """The key as the server stored it, each part it cut now a prefix of its own: what a later
    ALTER TABLE that rebuilds the key (a CONVERT TO CHARACTER SET) starts from (asked of MariaDB
    10.11: `KEY (c1, c0)` on a latin1 TINYTEXT, stored as `c1(255)`, converted to utf8mb4 keeps
    `c1(255)` on the TEXT it becomes)."""
    if not any(part.server_cut for part in index.columns):
        return index
    return replace(index, columns=tuple(
        IndexColumn(p.name, p.prefix, p.descending, p.expression) if p.server_cut else p for p in index.columns))
