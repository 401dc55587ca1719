"""What the server refuses in a table's definition although the grammar allows it: the checks the
replay (`linter.server.replay`) runs on a CREATE TABLE's body and on what an ALTER TABLE adds, so that a
statement the server refuses changes nothing in the model and is reported at its line.

Each rule was asked of MariaDB 10.11 (tests/test_replay_refusals.py runs every case on the server
and on innolint and compares; the differential test, tests/test_differential.py, found them):

- 1067: a default the column cannot hold: NULL in a NOT NULL column, a string that is not a number for a numeric column, an
  integer out of the type's range, a string longer than a CHAR/VARCHAR/BINARY/VARBINARY, an ENUM
  value not in its list, a date that has no digit or a number that spells no date or time
  (`linter.server.temporal_numbers`), any default on an AUTO_INCREMENT column;
- 1075: one AUTO_INCREMENT column at most, and it is the first part of a key (any part of a key
  for MyISAM and Aria);
- 4169 (MariaDB): an AUTO_INCREMENT column in a UNIQUE key MariaDB keeps as a hash (judged where the
  keys' sizes are known: `key_parts.long_unique_problem`, from the replay);
- 1113: a table needs a visible column; 4108: an INVISIBLE NOT NULL column needs a default (one in the
  PRIMARY KEY is NOT NULL whatever it says);
- 1089: a prefix on a part that is not a string, or longer than the column, or in a SPATIAL key;
  1391: a prefix of 0;
- not here for InnoDB tables: a key over a whole TEXT/BLOB column (1170) or too long (1071, 1709): the
  index-key-length check reports those, with the server's error and a fix, on the table the model
  keeps; for the other engines, which that check does not judge, `lob_key_problem` refuses what
  is certain (a PRIMARY KEY over a whole TEXT/BLOB column, 1170; on MariaDB a key of several parts
  with one, and an Aria UNIQUE key with one, 1071; on MySQL any such key, 1170);
- 1283: a FULLTEXT key on a column that is not CHAR, VARCHAR or TEXT;
- 1163 / 1214: a MEMORY table holds no TEXT/BLOB column and no FULLTEXT key;
- 1064: `TYPE=` instead of ENGINE= (gone from both servers since 5.5);
- 1072 in CREATE TABLE ... SELECT: a key names a column neither the definition nor the SELECT
  gives (`SelectedColumns`); where innolint cannot tell the SELECT's columns it says so.

Only what is certain is refused: a default written as an expression, a type innolint does not
size, a charset it would have to guess, are left to the server.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from linter.parse.elements import LARGE_TYPES, Column, Index, IndexColumn, Location
from linter.parse.body import DATE_TYPES, INT_BITS, NO_PREFIX_TYPES, NUMERIC_TYPES, stored_key_bytes
from linter.schema.key_facts import SIZED_STRING_TYPES
from linter.parse.body import TableBody
from linter.schema.model import is_innodb_engine
from linter.server.temporal_numbers import number_default_refused

if TYPE_CHECKING:
    from linter.parse import ops
    from linter.schema.innodb_sizes import KeyPartWidth
    from linter.schema.model import Schema, Table
    from linter.schema.target import Target

#: the types a FULLTEXT key indexes (not BLOB: error 1283)
FULLTEXT_TYPES = frozenset({"CHAR", "VARCHAR", "TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT", "JSON"})
_MEMORY_ENGINES = frozenset({"memory", "heap"})
#: engines whose AUTO_INCREMENT column may be any part of a key, not only the first
_ANY_PART_AUTO = frozenset({"myisam", "aria"})

_STRING = re.compile(r"(?:_\w+\s*)?'((?:[^']|'')*)'", re.DOTALL)
_NUMBER = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*")
_INTEGER = re.compile(r"[+-]?\d+")


def _literal(default: str) -> tuple[str, str] | None:
    """("string", value) or ("number", text) for a literal default; None for NULL, an expression,
    a function or anything else. A comment the parser left after it (`'x' /* c */`) is not part of it."""
    default = default.strip()
    while default.endswith("*/") and "/*" in default:
        default = default[:default.rfind("/*")].rstrip()
    found = _STRING.fullmatch(default)
    if found is not None:
        return "string", found.group(1).replace("''", "'")
    if _NUMBER.fullmatch(default):
        return "number", default.strip()
    return None


def column_problem(column: Column, *, in_primary_key: bool = False, mariadb: bool = False,
                   copied: bool = False) -> str | None:
    """Why the server refuses this column's definition, or None. `in_primary_key`: the column is
    NOT NULL because a CREATE TABLE's PRIMARY KEY names it, which innolint cannot tell from a
    column declared NOT NULL (`a INT DEFAULT NULL, PRIMARY KEY (a)` is taken). `mariadb`: the
    target is MariaDB, whose grammar refuses some definitions MySQL takes (`Column.mariadb_refuses`).
    `copied`: CREATE TABLE ... LIKE copied it from a table, so it has what the server keeps
    there (an AUTO_INCREMENT column the default an ALTER COLUMN ... SET DEFAULT gave it)."""
    if mariadb and column.mariadb_refuses:
        return f"column {column.name}: {column.mariadb_refuses}: a syntax error on MariaDB (1064)"
    if column.invisible and (not column.nullable or in_primary_key) and column.default is None \
            and not column.auto_increment and column.generated is None:
        return f"invisible column {column.name} must have a default value (error 4108)"
    if column.default is None:
        return None
    if in_primary_key and column.altered_null_default:  # (a copy CREATE ... SELECT or LIKE made: MariaDB 10.11)
        return (f"invalid default value for {column.name} (error 1067): an ALTER gave it DEFAULT NULL, which the "
                "server keeps on a TEXT/BLOB, and the PRIMARY KEY makes it NOT NULL")
    if column.default.upper() == "NULL":
        if not column.nullable and not in_primary_key:
            return f"invalid default value for {column.name}: NULL in a NOT NULL column (error 1067)"
        return None
    if column.auto_increment and not copied:
        return f"invalid default value for {column.name}: an AUTO_INCREMENT column has none (error 1067)"
    literal = _literal(column.default)
    if literal is None:
        return None
    what, value = literal
    kind = column.type.upper()
    bad = f"invalid default value for {column.name} (error 1067)"
    if kind in NUMERIC_TYPES:
        if what == "string" and not _NUMBER.fullmatch(value):
            return bad
        bits = INT_BITS.get(kind)
        if bits is not None and _INTEGER.fullmatch(value.strip()):
            number = int(value.strip())
            low, high = (0, 2**bits - 1) if column.unsigned or kind == "SERIAL" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
            if not low <= number <= high:
                return bad
        return None
    if kind in SIZED_STRING_TYPES and what == "string":
        length = column.length if column.length is not None else (1 if kind in ("CHAR", "BINARY") else None)
        if length is not None and len(value) > length:
            return bad
        return None
    if kind == "ENUM" and what == "string":
        values = {v[1:-1].replace("''", "'").lower() for v in column.params if len(v) >= 2 and v[0] == v[-1] == "'"}
        if values and value.lower() not in values:
            return bad
        return None
    if kind in DATE_TYPES and what == "string" and not any(ch.isdigit() for ch in value):
        return bad
    if kind in DATE_TYPES and what == "number" and number_default_refused(kind, value):
        return bad
    return None


def key_part_problem(index: Index, part: IndexColumn, column: Column | None, *, mariadb: bool) -> str | None:
    """Why the server refuses this key part on this column (None: the column is unknown or fine)."""
    if part.prefix == 0 and not part.expression:
        return f"key part {part.name} length cannot be 0 (error 1391)"
    if column is None or part.expression:
        return None
    if index.kind == "spatial" and part.prefix is not None:
        return f"incorrect prefix key: a SPATIAL key takes no prefix ({column.name}({part.prefix})) (error 1089)"
    kind = column.type.upper()
    if index.kind == "fulltext" and kind not in FULLTEXT_TYPES:  # (ALTER ... ADD FULLTEXT, CREATE FULLTEXT INDEX too)
        return f"column {column.name} cannot be part of a FULLTEXT key (error 1283)"
    if part.prefix is not None:
        if kind in NO_PREFIX_TYPES:
            # a prefix as long as the value's bytes is dropped (DATE d(3)); any other is refused
            size = stored_key_bytes(column)
            if size is not None and part.prefix != size:
                return f"incorrect prefix key: column {column.name} is not a string (error 1089)"
            return None
        if kind in SIZED_STRING_TYPES and column.length is not None and part.prefix > column.length:
            return f"incorrect prefix key: {column.name}({part.prefix}) is longer than the column (error 1089)"
        return None
    # a key over a whole TEXT/BLOB column that the server refuses (1170), or one too long (1071, 1709),
    # is left to the index-key-length check: it reports the table with the server's error and a fix
    return None


#: TEXT/BLOB types longer than any engine's key (TINYTEXT/TINYBLOB, 255 bytes, may fit in one)
_LONG_LOBS = frozenset({"TEXT", "MEDIUMTEXT", "LONGTEXT", "BLOB", "MEDIUMBLOB", "LONGBLOB", "JSON"})


def lob_key_problem(index: Index, column_of: Callable[[str], Column | None], engine: str | None, *,
                    mariadb: bool) -> str | None:
    """Why the server refuses a key over a whole TEXT/BLOB column in a table of another engine than
    InnoDB (whose keys the index-key-length check judges) or MEMORY (which holds no TEXT/BLOB: 1163).
    Asked of MariaDB 10.11 (tests/test_replay_refusals.py): a PRIMARY KEY over one is refused (1170);
    a UNIQUE key over one is a hash in MyISAM (unless written USING BTREE) and refused in Aria (1071); a plain key of one part is
    cut to a prefix, of several parts refused (1071). MySQL refuses every such key (1170)."""
    kind = (engine or "innodb").lower()
    if is_innodb_engine(engine) or kind in _MEMORY_ENGINES or index.kind in ("fulltext", "spatial"):
        return None
    whole = [column for column in (column_of(p.name.lower()) for p in index.columns if not p.expression and p.prefix is None)
             if column is not None and column.type.upper() in LARGE_TYPES]
    if not whole:
        return None
    column = whole[0]
    if index.kind == "primary" or not mariadb:
        return f"BLOB/TEXT column {column.name} used in key specification without a key length (error 1170)"
    long = [c for c in whole if c.type.upper() in _LONG_LOBS]
    if (index.kind == "unique" and (kind == "aria" or index.btree)) or (
            index.kind == "index" and long and len(index.columns) > 1):
        return (f"the key over the whole TEXT/BLOB column {(long or whole)[0].name} is longer than {engine} allows "
                "(specified key was too long: error 1071)")
    return None


#: the longest key MyISAM, Aria and MEMORY take, in bytes (MariaDB 10.11: "max key length is 1000 / 2300 /
#: 3072 bytes"; a long UNIQUE key in MEMORY is 1910, `key_parts.long_unique_problem`)
_ENGINE_KEY_BYTES = {"myisam": 1000, "aria": 2300, "memory": 3072, "heap": 3072}
_NOWHERE = Location("", 0)


def _engine_key_bytes(table: Table, index: Index, parts: Sequence[KeyPartWidth]) -> int | None:
    """The key's bytes as MyISAM and Aria count them: a whole TINYTEXT or TINYBLOB part as its
    255 characters (bytes) at the most bytes a character of its character set takes (asked of
    MariaDB 10.11: KEY (VARCHAR(100) latin1, TINYTEXT utf8mb4, TINYTEXT utf8mb4) is 2,140 bytes,
    taken by Aria; (INT, TINYBLOB, TINYTEXT utf8mb4) 1,279, refused by MyISAM). None: a part of
    unknown size, or a whole longer TEXT/BLOB."""
    total = 0
    for width, part in zip(parts, index.columns):
        if width.bytes is not None:
            total += width.bytes
            continue
        column = None if part.expression or part.prefix is not None else table.column(part.name)
        if column is None or column.type.upper() not in ("TINYTEXT", "TINYBLOB"):
            return None
        charset = width.charset
        total += 255 * ((charset.maxlen or 1) if charset is not None and charset.charset != "binary" else 1)
    return total


def engine_key_length_problem(body: TableBody, target: Target, schema: Schema | None,
                              indexes: Iterable[Index] | None = None) -> str | None:
    """A key longer than MyISAM (1,000 bytes), Aria (2,300) or MEMORY (3,072) take, which the server refuses (1071):
    a PRIMARY KEY, an Aria UNIQUE key (a MyISAM one becomes a hash on MariaDB, unless written USING BTREE) or a key of several
    parts (one part alone is cut to a prefix on MariaDB); on MySQL any key. Counted as the
    index-key-length check counts InnoDB's (bytes of the columns' character sets, no length bytes),
    so a key at most a few length bytes over is left alone. `indexes`: those to judge (all)."""
    engine = (body.options.engine or "").lower()
    limit = _ENGINE_KEY_BYTES.get(engine)
    if limit is None:
        return None
    from linter.schema.innodb_sizes import key_width
    from linter.schema.model import Table

    table = Table(schema=None, name="", body=body, defined=_NOWHERE, changed=_NOWHERE)
    for index in body.indexes if indexes is None else indexes:
        if index.kind not in ("primary", "unique", "index"):
            continue
        total = _engine_key_bytes(table, index, key_width(table, index, target, schema).parts)
        if total is None:
            continue  # unknown, or a whole TEXT/BLOB longer than TINYTEXT (lob_key_problem's)
        if total > limit and (not target.is_mariadb or index.kind == "primary" or (
                index.kind == "unique" and (engine == "aria" or index.btree)) or (index.kind == "index" and len(index.columns) > 1)):
            name = "PRIMARY KEY" if index.kind == "primary" else f"key {index.name or index.columns[0].name}"
            return (f"the {name} takes {total:,} bytes, over the {limit:,} {body.options.engine} takes (specified "
                    "key was too long: error 1071)")
    return None


def engine_problem(engine: str | None, columns: Iterable[Column], indexes: Iterable[Index]) -> str | None:
    """What the engine cannot hold: TEXT/BLOB columns (1163) and FULLTEXT keys (1214) in MEMORY."""
    if (engine or "").lower() not in _MEMORY_ENGINES:
        return None
    for column in columns:
        if column.type.upper() in LARGE_TYPES:
            return f"the MEMORY engine does not support BLOB/TEXT columns such as {column.name} (error 1163)"
    for index in indexes:
        if index.kind == "fulltext":
            return "the MEMORY engine does not support FULLTEXT keys (error 1214)"
    return None


def options_problem(pairs: Iterable[tuple[str, str | None]]) -> str | None:
    """Table options the server does not read: `TYPE=` (error 1064)."""
    for key, _ in pairs:
        if key.upper() == "TYPE":
            return "TYPE= is not a table option since MySQL 5.5, ENGINE= is (error 1064)"
    return None


def repeated_key_column(index: Index) -> str | None:
    """A key that names one column twice, whatever its kind and prefixes (column names compare
    without case): the server refuses it (error 1060, MariaDB 10.11 and MySQL alike)."""
    seen: set[str] = set()
    for part in index.columns:
        if not part.expression:
            name = part.name.lower()
            if name in seen:
                key = f"the key {index.name}" if index.name else "a key"
                return f"{key} names column {part.name} twice (error 1060: duplicate column name)"
            seen.add(name)
    return None


def temporary_key_problem(index: Index, engine: str | None) -> str | None:
    """A FULLTEXT key in a temporary InnoDB table (CREATE TEMPORARY TABLE, ALTER, CREATE INDEX):
    InnoDB refuses it (error 1796); MyISAM and Aria temporary tables take it."""
    if index.kind == "fulltext" and is_innodb_engine(engine):
        return "a temporary InnoDB table cannot have a FULLTEXT key (error 1796)"
    return None


def auto_increment_key_problem(autos: list[str], indexes: list[Index], engine: str | None) -> str | None:
    """One AUTO_INCREMENT column at most (`autos`: lower-case names), the first column of a key (in
    MyISAM and Aria: any column of one): error 1075."""
    if len(autos) > 1:
        return "there can be only one AUTO_INCREMENT column (error 1075)"
    if autos:
        any_part = (engine or "").lower() in _ANY_PART_AUTO
        keyed = any((index.columns[0].name.lower() == autos[0] if not any_part else
                     any(p.name.lower() == autos[0] for p in index.columns))
                    for index in indexes if index.columns and index.kind not in ("fulltext", "spatial"))
        if not keyed:
            return f"the AUTO_INCREMENT column {autos[0]} must be the first column of a key (error 1075)"
    return None


def definition_problem(columns: dict[str, Column], indexes: list[Index], engine: str | None, *, mariadb: bool,
                       copied: bool = False) -> str | None:
    """Why the server refuses a CREATE TABLE with these columns and keys, or None. `columns` by
    lower-case name; `copied`: CREATE TABLE ... LIKE copied them (`column_problem`)."""
    if not columns or all(c.invisible for c in columns.values()):
        return "a table must have at least one visible column (error 1113)"
    autos = []
    primary = next((index for index in indexes if index.kind == "primary"), None)
    in_primary = {p.name.lower() for p in primary.columns} if primary is not None else set()
    for column in columns.values():
        problem = column_problem(column, in_primary_key=column.name.lower() in in_primary, mariadb=mariadb,
                                 copied=copied)
        if problem:
            return problem
        if column.auto_increment:
            autos.append(column.name.lower())
    for index in indexes:
        problem = lob_key_problem(index, columns.get, engine, mariadb=mariadb)
        if problem:
            return problem
        for part in index.columns:
            column = columns.get(part.name.lower())
            if index.kind == "fulltext" and column is not None and column.type.upper() not in FULLTEXT_TYPES:
                return f"column {column.name} cannot be part of a FULLTEXT key (error 1283)"
            problem = key_part_problem(index, part, column, mariadb=mariadb)
            if problem:
                return problem
        problem = repeated_key_column(index)
        if problem:
            return problem
    problem = auto_increment_key_problem(autos, indexes, engine)
    if problem:
        return problem
    return engine_problem(engine, columns.values(), indexes)


class SelectedColumns:
    """The columns of the tables CREATE TABLE ... SELECT made, where innolint can tell them: the
    model keeps only the columns such a statement defines, so those only the SELECT gave are
    remembered here (by table), for a later SELECT * from it: the table's columns are then the
    model's (as later ALTERs left them) and those.

    The server makes the table's columns from the definition and the SELECT's result, then
    checks its keys: a key naming a column neither gives is refused (error 1072, MariaDB 10.11 and
    MySQL alike). innolint knows the SELECT's columns when its select list is names (`a`, `t.b`,
    `x AS c`), or `*` over one table the model has with known columns."""

    def __init__(self) -> None:
        self._tables: dict[int, tuple[Table, frozenset[str]]] = {}

    def of(self, table: Table) -> frozenset[str] | None:
        """The (lower-case) column names of a table, None when innolint cannot tell them."""
        if table.origin != "select":
            return frozenset(table.columns)
        known = self._tables.get(id(table))
        if known is None or known[0] is not table:
            return None
        return known[1] | frozenset(table.columns)

    def given(self, op: ops.CreateTable, source: Table | None) -> frozenset[str] | None:
        """The columns the statement's table has: its definition's and its SELECT's (None: unknown)."""
        names = op.select_columns
        if names is None:
            return None
        given = {name.lower() for name in names if name != "*"} | set(op.body.columns)
        if "*" in names:
            star = self.of(source) if source is not None else None
            if star is None:
                return None
            given |= star
        return frozenset(given)

    def untold_refusal(self, table: Table, statement: str, problem: str) -> str | None:
        """The message for a statement refused for a column (or key column) the table does not have
        (1054, 1072, 1091), on a CREATE ... SELECT table whose columns innolint cannot all tell
        (an expression's, or a join's): it may be one of those, so innolint cannot tell whether the
        server refuses it. None when the table's columns are all known."""
        if table.origin != "select" or not any(f"(error {code})" in problem for code in (1054, 1072, 1091)):
            return None
        known = self.of(table)
        if known is not None and known == frozenset(table.columns):
            return None
        return (f"{statement}: {problem.split(' (error ')[0]} in innolint's model, but CREATE TABLE ... SELECT made "
                f"{table.name} (at {table.defined.path}:{table.defined.line}) with columns innolint cannot tell (an "
                "expression's or a join's), so it cannot tell whether the server refuses this statement; it applies "
                "none of it, and the table may differ on the server from here on")

    def remember(self, table: Table, given: frozenset[str] | None) -> None:
        if given is not None:
            if len(self._tables) >= 100_000:
                self._tables.clear()
            self._tables[id(table)] = (table, given - frozenset(table.columns))


def select_key_problem(body: TableBody, given: frozenset[str] | None) -> str | None:
    """The key columns of a CREATE TABLE ... SELECT's definition that neither the definition nor
    the SELECT gives (`given`: all the table's columns, None when innolint cannot tell)."""
    columns = given if given is not None else frozenset(body.columns)
    missing = sorted({part.name for index in body.indexes for part in index.columns
                      if not part.expression and part.name.lower() not in columns}
                     | {name for fk in body.foreign_keys for name in fk.columns if name.lower() not in columns})
    if not missing:
        return None
    named = ", ".join(missing)
    if given is not None:
        return (f"a key names column{'s' if len(missing) > 1 else ''} {named}, which neither the definition nor "
                "the SELECT gives (error 1072)")
    return (f"a key names column{'s' if len(missing) > 1 else ''} {named}, which the definition does not have; "
            "innolint cannot tell the columns the SELECT gives, so it cannot tell whether the server makes this "
            "table (if the SELECT gives no such column it refuses the statement: error 1072); innolint keeps the "
            "table as defined")


def missing_key_columns(body: object) -> str | None:
    """A key or foreign key on a column the table lacks: the server refuses such a CREATE (error 1072)."""
    columns = body.columns  # type: ignore[attr-defined]
    if not columns:  # LIKE of an unknown table, or CREATE ... SELECT: columns unknown
        return None
    missing = [
        f"key {index.name} names column {part.name}, which the table does not have"
        for index in body.indexes  # type: ignore[attr-defined]
        for part in index.columns
        if not part.expression and part.name.lower() not in columns
    ]
    missing += [
        f"foreign key {fk.name or ''} names column {name}, which the table does not have".replace("key  names", "key names")
        for fk in body.foreign_keys  # type: ignore[attr-defined]
        for name in fk.columns
        if name.lower() not in columns
    ]
    return "; ".join(missing) or None


def create_problem(body: TableBody, as_select: bool, origin: str, given: frozenset[str] | None, target: Target,
                   schema: Schema | None) -> str | None:
    """Why the server refuses a CREATE TABLE's columns and keys as defined (the replay caches it
    per parsed definition: a tenant dump repeats each one). `origin`: "select" for CREATE ...
    SELECT, whose columns are judged only where `given` names them all; its options always are
    (fuzz seed 411: `... TYPE=InnoDB SELECT ...` is 1064)."""
    if problem := options_problem((key, None) for key in body.options.other):
        return problem
    if not as_select and (problem := missing_key_columns(body)):
        return problem + " (error 1072)"
    if origin != "select" or (given is not None and given <= body.columns.keys()):  # (else: columns untold)
        return definition_problem(body.columns, body.indexes, body.options.engine, mariadb=target.is_mariadb,
                                  copied=origin == "like") or engine_key_length_problem(body, target, schema)
    # the SELECT's columns are untold; those the statement defines keep their type, so a key part on
    # one is judged (fuzz seed 346: `CREATE TABLE t (a INT, KEY (a(8))) SELECT 1` is 1089), and what
    # the engine cannot hold (fuzz seed 373: a TEXT column in MEMORY is 1163)
    return next(filter(None, (key_part_problem(index, part, body.columns.get(part.name.lower()), mariadb=target.is_mariadb)
                              for index in body.indexes for part in index.columns)), None) \
        or engine_problem(body.options.engine, body.columns.values(), body.indexes)
