"""linter.schema.innodb_sizes against the documented numbers and against the test MariaDB.

The server is the oracle: character sets and collations are read from its information_schema,
the charset resolution chain from the columns it creates, and row and key sizes from what it
accepts and refuses at generated boundaries (for a random mix of column types, character sets,
row formats and keys, the largest table this module says the server takes must be taken, and
one column more must be refused with the error it predicts)."""

from __future__ import annotations

import random
from pathlib import Path

import pymysql
import pytest

from linter.schema import innodb_sizes as sizes
from linter.parse.elements import Location
from linter.schema.model import Table
from linter.parse.body import TableBody
from linter.parse.statement import parse_statement
from linter.schema.target import TARGETS, Target
from tests.helpers import lint_sql
from tests.mariadb import MariaDB

MARIADB = Target.parse("mariadb-10.11")
MYSQL8 = Target.parse("mysql-8.0")


def table_of(ddl: str) -> Table:
    """A model table from one CREATE TABLE, through the real parser."""
    op = parse_statement(ddl)
    assert not isinstance(op, Exception)
    return Table(op.name.schema, op.name.name, op.body, Location("t.sql", 1), Location("t.sql", 1))  # type: ignore[union-attr]


# --- documented numbers ------------------------------------------------------------------------

@pytest.mark.parametrize(("ddl", "row_bytes"), [
    ("a TINYINT", 1), ("a SMALLINT", 2), ("a MEDIUMINT", 3), ("a INT", 4), ("a BIGINT", 8),
    ("a FLOAT", 4), ("a FLOAT(30)", 8), ("a FLOAT(10,2)", 4), ("a DOUBLE", 8),
    ("a DECIMAL(10,2)", 5), ("a DECIMAL(18,9)", 8), ("a DECIMAL(20,5)", 10), ("a DECIMAL", 5),
    ("a BIT(1)", 1), ("a BIT(13)", 2), ("a DATE", 3), ("a YEAR", 1), ("a TIME", 3), ("a TIME(6)", 6),
    ("a DATETIME", 5), ("a DATETIME(3)", 7), ("a TIMESTAMP", 4), ("a TIMESTAMP(1)", 5),
    ("a ENUM('x','y')", 1), ("a SET('a','b','c','d','e','f','g','h','i')", 2),
    ("a CHAR(10) CHARACTER SET latin1", 10), ("a CHAR(10) CHARACTER SET utf8mb4", 40),
    ("a VARCHAR(255) CHARACTER SET latin1", 256), ("a VARCHAR(64) CHARACTER SET utf8mb4", 258), ("a VARCHAR(63) CHARACTER SET utf8mb4", 253),
    ("a VARCHAR(255) CHARACTER SET utf8mb4", 1022), ("a BINARY(16)", 16), ("a VARBINARY(300)", 302),
    ("a TINYTEXT", 9), ("a TEXT", 10), ("a MEDIUMBLOB", 11), ("a LONGTEXT", 12), ("a JSON", 12),
    ("a POINT", 12), ("a UUID", 16), ("a INET6", 16), ("a INET4", 4),
])
def test_column_row_bytes_follow_the_manual(ddl: str, row_bytes: int) -> None:
    """MySQL 8.0 manual 13.7 "Data Type Storage Requirements" (and MariaDB's own types)."""
    table = table_of(f"CREATE TABLE t ({ddl} NOT NULL) CHARSET latin1")
    column = next(iter(table.columns.values()))
    size = sizes.column_bytes(column, sizes.column_charset(column, table, MARIADB))
    assert size is not None and size.row_bytes == row_bytes


def test_key_width_of_the_documented_examples() -> None:
    """The issue's numbers: a VARCHAR(255) utf8mb4 key is up to 1,022 bytes in a secondary index
    (1,020 counted against the limit), BIGINT 8; CHAR in utf8mb4 is variable-length in DYNAMIC."""
    table = table_of("CREATE TABLE t (a VARCHAR(255) NOT NULL, b BIGINT NOT NULL, c CHAR(10) NOT NULL, "
                     "d CHAR(10) CHARACTER SET latin1 NOT NULL, e TEXT, PRIMARY KEY (a), KEY (b), KEY (c), KEY (d), "
                     "KEY (e(100))) CHARSET utf8mb4")
    widths = {index.column_names[0]: sizes.key_width(table, index, MARIADB) for index in table.indexes}
    assert (widths["a"].bytes, widths["a"].stored_bytes) == (1020, 1022)
    assert (widths["b"].bytes, widths["b"].stored_bytes) == (8, 8)
    assert (widths["c"].bytes, widths["c"].stored_bytes) == (40, 41)  # variable-length in DYNAMIC
    assert (widths["d"].bytes, widths["d"].stored_bytes) == (10, 10)
    assert (widths["e"].bytes, widths["e"].stored_bytes) == (400, 402)
    assert widths["a"].explain() == "a VARCHAR(255) x 4 bytes (utf8mb4, the table's default) = 1,020 bytes"
    redundant = table_of("CREATE TABLE t (c CHAR(10) NOT NULL PRIMARY KEY) CHARSET utf8mb4 ROW_FORMAT=REDUNDANT")
    assert sizes.key_width(redundant, redundant.indexes[0], MARIADB).stored_bytes == 40  # fixed there


def test_unknown_parts_are_unknown_not_zero() -> None:
    table = table_of("CREATE TABLE t (a TEXT, b INT, KEY k1 (a), KEY k2 ((b + 1)), KEY k3 (nope))")
    for index in table.indexes:
        assert not sizes.key_width(table, index, MARIADB).known


def test_row_format_as_written_or_implied() -> None:
    assert sizes.row_format(table_of("CREATE TABLE t (a INT)")) == "dynamic"
    assert sizes.row_format(table_of("CREATE TABLE t (a INT) ROW_FORMAT=COMPACT")) == "compact"
    assert sizes.row_format(table_of("CREATE TABLE t (a INT) KEY_BLOCK_SIZE=8")) == "compressed"
    assert sizes.row_format(table_of("CREATE TABLE t (a INT) ROW_FORMAT=DEFAULT")) == "dynamic"
    assert sizes.key_part_limit("compact") == 767 and sizes.key_part_limit("dynamic") == 3072


# --- the resolution chain: column -> table -> schema -> server default --------------------------

def _resolved(sql: str, tmp_path: Path, target: str, table: str, column: str) -> sizes.ResolvedCharset | None:
    from linter.engine import Engine, Unit
    from linter.rules.checkapi import CheckContext

    path = tmp_path / "chain.sql"
    path.write_text(sql, encoding="utf-8")
    context = CheckContext(target=Target.parse(target))
    model = Engine(context).lint_unit(Unit([str(path)]), context).model
    found = next(t for t in model.tables() if t.name == table)
    return sizes.column_charset(found.columns[column], found, context.target, sizes.schema_of(model, found))


@pytest.mark.parametrize("target", TARGETS)
def test_chain_ends_at_the_targets_default(target: str, tmp_path: Path) -> None:
    resolved = _resolved("CREATE TABLE t (a VARCHAR(10));", tmp_path, target, "t", "a")
    defaults = sizes.server_defaults(Target.parse(target))
    assert resolved is not None and resolved.source == "server default"
    assert (resolved.charset, resolved.collation) == (defaults.charset, defaults.collation)
    assert resolved.charset == ("latin1" if target in ("mysql-5.7", "mariadb-10.4", "mariadb-10.5", "mariadb-10.6",
                                                       "mariadb-10.11") else "utf8mb4")


@pytest.mark.parametrize(("sql", "expected"), [
    # the schema's default, mysqldump's form (executable comments) and a plain one
    ("CREATE DATABASE /*!32312 IF NOT EXISTS*/ `d` /*!40100 DEFAULT CHARACTER SET utf8mb4 */; USE `d`; "
     "CREATE TABLE t (a VARCHAR(10));", ("utf8mb4", None, "schema")),
    ("CREATE DATABASE d DEFAULT CHARSET = 'utf8' COLLATE utf8_bin; USE d; CREATE TABLE t (a VARCHAR(10));",
     ("utf8mb3", "utf8mb3_bin", "schema")),
    ("CREATE SCHEMA IF NOT EXISTS d COLLATE latin2_czech_cs; CREATE TABLE d.t (a CHAR(1));",
     ("latin2", "latin2_czech_cs", "schema")),
    # the table's default beats the schema's; a table COLLATE alone names its character set
    ("CREATE DATABASE d CHARACTER SET latin1; USE d; CREATE TABLE t (a TEXT) DEFAULT CHARSET=utf8mb4;",
     ("utf8mb4", None, "table")),
    ("CREATE DATABASE d CHARACTER SET latin1; USE d; CREATE TABLE t (a TEXT) COLLATE=ucs2_bin;",
     ("ucs2", "ucs2_bin", "table")),
    # the column's beats both
    ("CREATE DATABASE d CHARACTER SET latin1; USE d; CREATE TABLE t (a TEXT COLLATE utf16_bin) CHARSET=ascii;",
     ("utf16", "utf16_bin", "column")),
    ("CREATE TABLE t (a NATIONAL VARCHAR(5)) CHARSET=latin1;", ("utf8mb3", None, "column")),
    # a second CREATE DATABASE IF NOT EXISTS changes nothing; DROP DATABASE forgets it
    ("CREATE DATABASE d CHARSET ucs2; CREATE DATABASE IF NOT EXISTS d CHARSET latin1; USE d; "
     "CREATE TABLE t (a CHAR(2));", ("ucs2", None, "schema")),
    ("CREATE DATABASE d CHARSET ucs2; DROP DATABASE d; CREATE DATABASE d; USE d; CREATE TABLE t (a CHAR(2));",
     ("latin1", "latin1_swedish_ci", "server default")),
    # binary types have no character set; numbers have none at all
    ("CREATE TABLE t (a VARBINARY(10)) CHARSET utf8mb4;", ("binary", "binary", "binary type")),
])
def test_chain_through_the_pipeline(sql: str, expected: tuple[str, str | None, str], tmp_path: Path) -> None:
    resolved = _resolved(sql, tmp_path, "mariadb-10.11", "t", "a")
    assert resolved is not None and (resolved.charset, resolved.collation, resolved.source) == expected


def test_numbers_have_no_charset() -> None:
    table = table_of("CREATE TABLE t (a INT) CHARSET utf8mb4")
    assert sizes.column_charset(table.columns["a"], table, MARIADB) is None


def test_collation_families_per_target() -> None:
    mysql57, mysql84, maria106, maria11 = (Target.parse(n) for n in ("mysql-5.7", "mysql-8.4", "mariadb-10.6", "mariadb-11.x"))
    assert sizes.collation_known("utf8mb4_0900_ai_ci", MYSQL8) and sizes.collation_known("utf8mb4_0900_ai_ci", mysql84)
    assert sizes.collation_known("utf8mb4_0900_ai_ci", mysql57) is False
    assert sizes.collation_known("utf8mb4_0900_ai_ci", MARIADB) is False
    assert sizes.collation_known("utf8mb4_0900_ai_ci", maria11) is None  # an alias from 11.4.5
    assert sizes.collation_known("utf8mb4_uca1400_ai_ci", MARIADB) and not sizes.collation_known("utf8mb4_uca1400_ai_ci", maria106)
    assert sizes.collation_known("utf8mb4_uca1400_ai_ci", MYSQL8) is False
    assert sizes.collation_known("utf8mb4_unicode_nopad_ci", MYSQL8) is False
    assert sizes.collation_known("utf8mb4_unicode_520_ci", MYSQL8) and sizes.collation_known("latin1_swedish_ci", mysql57)
    assert sizes.collation_known("utf8_general_ci", MYSQL8) and sizes.normalize_collation("utf8_bin") == "utf8mb3_bin"
    assert not sizes.charset_known("gb18030", MARIADB) and sizes.charset_known("gb18030", MYSQL8)


# --- the test MariaDB as the oracle ---------------------------------------------------------------

def test_charsets_and_collations_match_the_server(mariadb: MariaDB) -> None:
    """Every character set the server has: its MAXLEN; every collation: its character set, and
    that the target mariadb-10.11 is said to have it."""
    charsets = dict(mariadb.sql("SELECT CHARACTER_SET_NAME, MAXLEN FROM information_schema.CHARACTER_SETS"))
    assert len(charsets) > 30
    assert {name: sizes.CHARSET_MAXLEN.get(name) for name in charsets} == charsets
    collations = mariadb.sql("SELECT COLLATION_NAME, CHARACTER_SET_NAME FROM information_schema.COLLATIONS")
    assert len(collations) > 300
    assert [(c, s) for c, s in collations if sizes.charset_of_collation(c) != s] == []
    assert [c for c, _ in collations if not sizes.collation_known(c, MARIADB)] == []
    assert "gb18030" not in charsets


def test_server_defaults_are_the_targets(mariadb: MariaDB) -> None:
    """The fixture's server runs with --no-defaults: its character set is the compiled-in one."""
    (charset, collation, utf8mb4), = mariadb.sql(
        "SELECT @@character_set_server, @@collation_server, "
        "(SELECT COLLATION_NAME FROM information_schema.COLLATIONS WHERE CHARACTER_SET_NAME = 'utf8mb4' "
        "AND IS_DEFAULT = 'Yes')")
    defaults = sizes.server_defaults(MARIADB)
    assert (charset, collation, utf8mb4) == (defaults.charset, defaults.collation, defaults.utf8mb4_collation)


def test_unknown_collations_are_refused(mariadb: MariaDB) -> None:
    """ERROR 1273 (HY000): Unknown collation, for MySQL's UCA 9.0.0 collations on MariaDB 10.11."""
    for collation in ("utf8mb4_0900_ai_ci", "utf8mb4_0900_as_cs", "utf8mb4_0900_bin", "utf8mb4_de_pb_0900_ai_ci"):
        assert sizes.collation_known(collation, MARIADB) is False
        with pytest.raises(pymysql.err.MySQLError) as refused:
            mariadb.sql(f"CREATE TEMPORARY TABLE x (a VARCHAR(1)) COLLATE {collation}", database="mysql")
        assert refused.value.args[0] == 1273


_CHAIN_CHARSETS = ("latin1", "utf8mb4", "utf8", "ucs2", "ascii", None)


def test_the_chain_is_the_servers(mariadb: MariaDB, tmp_path: Path) -> None:
    """For generated combinations of schema, table and column character sets and collations, the
    character set and collation the server gives the column are the ones the chain resolves
    (a collation None in the chain is the character set's default: the server's IS_DEFAULT one)."""
    rng = random.Random(21)
    defaults = dict(mariadb.sql("SELECT CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLLATIONS "
                                "WHERE IS_DEFAULT = 'Yes'"))
    collations = {"latin1": "latin1_bin", "utf8mb4": "utf8mb4_unicode_ci", "utf8": "utf8_bin", "ucs2": "ucs2_bin",
                  "ascii": "ascii_bin"}

    def clause(charset: str | None, with_collation: bool) -> str:
        if charset is None:
            return ""
        return f" CHARACTER SET {charset}" + (f" COLLATE {collations[charset]}" if with_collation else "")

    cases = []
    for n in range(40):
        schema, table, column = (rng.choice(_CHAIN_CHARSETS) for _ in range(3))
        with_collation = [rng.random() < 0.4 for _ in range(3)]
        ddl = (f"DROP DATABASE IF EXISTS chain{n}; CREATE DATABASE chain{n}{clause(schema, with_collation[0])}; "
               f"CREATE TABLE chain{n}.t (a VARCHAR(5){clause(column, with_collation[2])}, b INT)"
               f"{clause(table, with_collation[1])};")
        mariadb.sql(ddl)
        cases.append(ddl)
    try:
        for n, ddl in enumerate(cases):
            resolved = _resolved(ddl, tmp_path, "mariadb-10.11", "t", "a")
            (charset, collation), = mariadb.sql("SELECT CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS "
                                                f"WHERE TABLE_SCHEMA = 'chain{n}' AND COLUMN_NAME = 'a'")
            assert resolved is not None and resolved.charset == charset, ddl
            assert (resolved.collation or defaults[resolved.charset]) == collation, ddl
    finally:
        mariadb.sql("; ".join(f"DROP DATABASE chain{n}" for n in range(len(cases))))


# --- rows and keys at the server's boundaries -----------------------------------------------------
_TYPES = (
    "INT", "BIGINT NOT NULL", "TINYINT", "DECIMAL(20,5)", "DATETIME(3)", "TIMESTAMP NULL", "DATE", "TIME(6)", "YEAR",
    "BIT(13)", "ENUM('a','b')", "SET('a','b','c','d','e','f','g','h','i')", "FLOAT(30)", "DOUBLE", "CHAR({n})",
    "CHAR({n}) NOT NULL", "VARCHAR({n})", "VARCHAR({n}) NOT NULL", "BINARY({n})", "VARBINARY({n})", "TEXT", "TINYTEXT",
    "MEDIUMBLOB NOT NULL", "JSON", "TEXT(300)", "UUID", "INET6", "VARCHAR({n}) AS ('x') VIRTUAL", "INT AS (1) VIRTUAL",
    "CHAR({n}) CHARACTER SET latin1", "VARCHAR({n}) CHARACTER SET utf8mb4 NOT NULL", "POINT", "MEDIUMTEXT", "TEXT(40)",
    "BLOB(70000)",
)
_LENGTHS = (1, 10, 40, 41, 60, 63, 64, 85, 100, 127, 128, 200, 255)
_CHARSETS = ("latin1", "utf8mb3", "utf8mb4", "ucs2", "utf16", "utf32", "big5", "ujis", "ascii", "utf8", "eucjpms",
             "cp932", "utf16le", "gbk")
_FORMATS = ("", " ROW_FORMAT=DYNAMIC", " ROW_FORMAT=COMPACT", " ROW_FORMAT=REDUNDANT", " ROW_FORMAT=COMPRESSED",
            " ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4", " KEY_BLOCK_SIZE=2", " ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=16")
_KEYS = ("", "id INT PRIMARY KEY", "k VARCHAR(100) NOT NULL PRIMARY KEY",
         "a BIGINT NOT NULL, b CHAR(20) NOT NULL, PRIMARY KEY (a, b)", "u INT NOT NULL, UNIQUE KEY (u)",
         "v VARCHAR(200) NOT NULL, w INT NOT NULL, UNIQUE KEY (w, v)", "x CHAR(30) NULL, UNIQUE KEY (x)",
         "p VARCHAR(500) NOT NULL, PRIMARY KEY (p(50))")


def _row_table(columns: list[str], n: int, key: str, charset: str, options: str) -> str:
    body = [f"c{i} {columns[i % len(columns)]}" for i in range(n)]
    return f"CREATE TABLE r ({', '.join(([key] if key else []) + body)}) CHARSET {charset}{options}"


def _row_outcome(table: Table) -> str:
    """What innolint says MariaDB does with this CREATE TABLE (innodb_strict_mode, strict sql_mode)."""
    for column in table.columns.values():
        limit = sizes.column_length_limit(column, sizes.column_charset(column, table, MARIADB), MARIADB)
        if limit is not None and (column.length or 0) > limit:
            return "1074"
    fmt = sizes.row_format(table)
    for index in table.indexes:  # a key InnoDB refuses in this row format: not a row-size case
        width = sizes.key_width(table, index, MARIADB)
        if width.bytes > sizes.MAX_KEY_BYTES or any((p.bytes or 0) > sizes.key_part_limit(fmt) for p in width.parts):
            return "key"
    size = sizes.row_size(table, MARIADB)
    if size.server_bytes > sizes.MAX_ROW_BYTES:
        return "1118 65535"
    if size.create_check_bytes >= size.record_limit:
        return f"1118 > {size.record_limit if size.row_format != 'compressed' else ''}".rstrip()
    return "ok"


def _first_columns(table: Table, n: int, keep: int) -> Table:
    """The table with its `keep` key columns and the first n generated ones (c0 .. c<n-1>)."""
    columns = dict(list(table.columns.items())[: keep + n])
    body = TableBody(columns, table.indexes, table.foreign_keys, table.options)
    return Table(None, table.name, body, table.defined, table.changed)


def _server_outcome(connection: object, ddl: str) -> str:
    with connection.cursor() as cursor:  # type: ignore[attr-defined]
        cursor.execute("DROP TABLE IF EXISTS r")
        try:
            cursor.execute(ddl)
        except pymysql.err.MySQLError as error:
            code, message = error.args[0], str(error.args[1])
            if code == 1118:
                return "1118 65535" if "65535" in message else f"1118 > {message.split('(> ')[1].split(')')[0]}"
            return str(code)
    return "ok"


def _largest(table: Table, keep: int) -> int:
    """The most generated columns innolint says the table takes (0 to 1000)."""
    lo, hi = 0, 1000
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _row_outcome(_first_columns(table, mid, keep)) == "ok":
            lo = mid
        else:
            hi = mid - 1
    return lo


def test_row_size_boundaries_are_the_servers(mariadb: MariaDB) -> None:
    """For 24 generated tables (column types, lengths, character sets, row formats, keys): the
    table with the most columns innolint says MariaDB takes is taken, one more column is refused,
    with the error innolint predicts (ERROR 1118 for the 65,535-byte row or InnoDB's 8,126-byte
    record, 1074 for a column too long)."""
    rng = random.Random(1118)
    mariadb.sql("CREATE DATABASE IF NOT EXISTS sizes_rows")
    connection = mariadb.connect("sizes_rows")
    checked = 0
    refusals: set[str] = set()
    try:
        while checked < 24:
            columns = [rng.choice(_TYPES).format(n=rng.choice(_LENGTHS)) for _ in range(rng.randint(1, 4))]
            key, charset, options = rng.choice(_KEYS), rng.choice(_CHARSETS), rng.choice(_FORMATS)
            whole = table_of(_row_table(columns, 1001, key, charset, options))
            n = _largest(whole, len(whole.columns) - 1001)
            if n in (0, 1000):  # not a row-size boundary (a column too long, or 1,017 columns first)
                continue
            accepted, refused = (_row_table(columns, m, key, charset, options) for m in (n, n + 1))
            assert _server_outcome(connection, accepted) == "ok", accepted
            predicted = _row_outcome(table_of(refused))
            outcome = _server_outcome(connection, refused)
            assert outcome.startswith(predicted), (refused, predicted, outcome)
            refusals.add(predicted.split(" >")[0] if "65535" not in predicted else predicted)
            checked += 1
    finally:
        connection.close()
        mariadb.sql("DROP DATABASE sizes_rows")
    assert refusals == {"1118 65535", "1118"}  # both limits were reached


@pytest.mark.parametrize(("ddl", "server_bytes", "check"), [
    # the manual's example: two VARCHARs filling the 65,535 bytes; a NULL flag more is too many
    ("CREATE TABLE t (c1 VARCHAR(32765) NOT NULL, c2 VARCHAR(32766) NOT NULL) CHARSET latin1", 65_535, None),
    ("CREATE TABLE t (c1 VARCHAR(32765), c2 VARCHAR(32766)) CHARSET latin1", 65_536, None),
    # TEXT off-page in DYNAMIC: 21 bytes counted; in COMPACT the 768-byte prefix (790)
    ("CREATE TABLE t (" + ", ".join(f"c{i} TEXT" for i in range(10)) + ") CHARSET latin1 ROW_FORMAT=COMPACT",
     None, 5 + 2 + 19 + 10 * 790),
    ("CREATE TABLE t (" + ", ".join(f"c{i} TEXT" for i in range(10)) + ") CHARSET latin1", None, 5 + 2 + 19 + 10 * 21),
    # VARCHAR up to 255 bytes stays in the row; utf8mb4 CHAR is variable-length (1 length byte)
    ("CREATE TABLE t (a VARCHAR(255) NOT NULL, b CHAR(60) NOT NULL) CHARSET latin1", None, 5 + 19 + 256 + 60),
    ("CREATE TABLE t (a VARCHAR(255) NOT NULL, b CHAR(60) NOT NULL) CHARSET utf8mb4", None, 5 + 19 + 21 + 241),
])
def test_row_size_examples(ddl: str, server_bytes: int | None, check: int | None) -> None:
    size = sizes.row_size(table_of(ddl), MARIADB)
    if server_bytes is not None:
        assert size.server_bytes == server_bytes
    if check is not None:
        assert size.create_check_bytes == check


def test_mysql_counts_41_bytes_for_long_variable_columns() -> None:
    """MySQL's dict_index_too_big_for_tree: any variable-length column over 40 bytes counts 41 at
    CREATE, whatever can really go off-page: 90 VARCHAR(100) latin1 pass MySQL's check but a row
    of full values needs 90 x 101 bytes (MariaDB counts that and refuses)."""
    table = table_of("CREATE TABLE t (" + ", ".join(f"c{i} VARCHAR(100) NOT NULL" for i in range(90)) + ") CHARSET latin1")
    mysql, maria = sizes.row_size(table, MYSQL8), sizes.row_size(table, MARIADB)
    assert mysql.create_check_bytes == 5 + 19 + 90 * 41 < mysql.record_limit
    assert mysql.worst_bytes == maria.create_check_bytes == 5 + 19 + 90 * 101 > maria.record_limit


def _key_table(parts: list[str], charset: str, options: str) -> str:
    columns = ", ".join(f"k{i} {part.split('|')[0]} NOT NULL" for i, part in enumerate(parts))
    key = ", ".join(f"k{i}" + (f"({part.split('|')[1]})" if "|" in part else "") for i, part in enumerate(parts))
    return f"CREATE TABLE r ({columns}, PRIMARY KEY ({key})) CHARSET {charset}{options}"


_KEY_TYPES = ("INT", "BIGINT", "DECIMAL(30,4)", "DATETIME(6)", "CHAR({n})", "BINARY({n})", "VARBINARY({n})",
              "VARCHAR({n})", "VARCHAR(2000)|{n}", "TEXT|{n}", "BLOB|{n}", "CHAR({n}) CHARACTER SET latin1",
              "VARCHAR({n}) CHARACTER SET utf8mb4", "ENUM('a','b')", "DATE", "UUID")


def test_key_widths_at_the_servers_boundary(mariadb: MariaDB) -> None:
    """A PRIMARY KEY is taken when its parts' bytes add up to 3,072 at most (and, in COMPACT and
    REDUNDANT, each part is 767 at most), refused one character more: for 40 generated keys of
    1-4 parts, the last part's length is set to the largest innolint allows, then one more."""
    rng = random.Random(1071)
    mariadb.sql("CREATE DATABASE IF NOT EXISTS sizes_keys")
    connection = mariadb.connect("sizes_keys")
    checked = 0
    try:
        while checked < 40:
            head = [rng.choice(_KEY_TYPES).format(n=rng.choice((1, 10, 50, 100, 191, 200, 255))) for _ in range(rng.randint(0, 3))]
            last = rng.choice(("VARCHAR({n})", "VARCHAR(3000)|{n}", "TEXT|{n}", "VARBINARY({n})", "CHAR({n})"))
            charset, options = rng.choice(_CHARSETS), rng.choice(_FORMATS[:4])
            def fits(n: int) -> bool:
                table = table_of(_key_table([*head, last.format(n=n)], charset, options))
                width = sizes.key_width(table, table.indexes[0], MARIADB)
                limit = sizes.key_part_limit(sizes.row_format(table))
                return width.bytes <= sizes.MAX_KEY_BYTES and all((p.bytes or 0) <= limit for p in width.parts)

            lo, hi = 0, 255 if last.startswith("CHAR(") else 3000
            while lo < hi:
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
            if lo in (0, 255, 3000):  # the key is too long already, or the type's length ends first
                continue
            n = lo
            accepted = _key_table([*head, last.format(n=n)], charset, options)
            refused = _key_table([*head, last.format(n=n + 1)], charset, options)
            assert _server_outcome(connection, accepted) == "ok", accepted
            assert _server_outcome(connection, refused) in ("1071", "1709"), refused
            checked += 1
    finally:
        connection.close()
        mariadb.sql("DROP DATABASE sizes_keys")


def test_schema_charset_reaches_the_model_through_both_parse_paths(tmp_path: Path) -> None:
    """mysqldump's CREATE DATABASE takes the parser's fast path, other spellings the token path:
    both keep the character set and collation."""
    report = lint_sql("CREATE DATABASE `a` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;\n"
                      "CREATE DATABASE b /* x */ CHARACTER SET = 'latin2';\n", tmp_path)
    assert not report.diagnostics
    for text, expected in (("CREATE DATABASE `a` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", ("utf8mb4", "utf8mb4_bin")),
                           ("CREATE DATABASE b CHARACTER SET = 'latin2'", ("latin2", None)),
                           ("CREATE DATABASE IF NOT EXISTS `c`", (None, None))):
        op = parse_statement(text)
        assert (op.charset, op.collation) == expected  # type: ignore[union-attr]
