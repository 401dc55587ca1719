"""destructive-change (checks/destructive_change.py) and what a type change loses
(linter/schema/value_ranges.py), judged by MariaDB 10.11.

The oracle: a column of the old type holding its type's extreme values (the smallest and largest
number, the longest string of the widest characters of its character set, the latest date with
every fractional digit ...), then `ALTER TABLE ... MODIFY` to the new type in a session without
strict mode (so the server changes what does not fit instead of refusing), then the values read
back: a change loses values exactly when one of them comes back different. innolint must call
exactly those changes narrowing.
"""

from __future__ import annotations

import datetime
import decimal
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from linter.engine import lint_paths
from linter.parse import ops
from linter.parse.cache import ParseCache
from linter.rules.checkapi import CheckContext
from linter.parse.elements import Location
from linter.schema.target import Target
from linter.server.replay import Replayer
from tests.helpers import lint_sql

#: (definition, extreme values it holds as SQL literals)
INTEGERS = [(f"{kind}{' UNSIGNED' if unsigned else ''}",
             [str(0 if unsigned else -(2 ** (bits - 1))), str(2 ** bits - 1 if unsigned else 2 ** (bits - 1) - 1)])
            for kind, bits in (("TINYINT", 8), ("SMALLINT", 16), ("MEDIUMINT", 24), ("INT", 32), ("BIGINT", 64))
            for unsigned in (False, True)]
DECIMALS = [(f"DECIMAL({p},{s}){' UNSIGNED' if unsigned else ''}",
             [("9" * (p - s) or "0") + ("." + "9" * s if s else ""), "0" if unsigned else "-" + ("9" * (p - s) or "0")])
            for p, s in ((5, 2), (10, 0), (10, 2), (12, 4), (20, 0), (8, 0), (19, 0)) for unsigned in (False, True)]
FLOATS = [("FLOAT", ["3.40282e38", "-1.5", "0.000123457"]), ("DOUBLE", ["1.2345678901234567", "-2.5e300"])]
#: the widest character of each character set
WIDEST = {"utf8mb4": "😀", "utf8mb3": "中", "latin1": "é", "ascii": "a"}
STRINGS = [(f"{kind}({n}) CHARACTER SET {charset}", [f"'{WIDEST[charset] * n}'", "'ab'"])
           for kind in ("VARCHAR", "CHAR") for n in (5, 20, 100) for charset in ("utf8mb4", "utf8mb3", "latin1")]
TEXTS = [("TINYTEXT CHARACTER SET utf8mb4", [f"'{'😀' * 63}'"]), ("TEXT CHARACTER SET latin1", [f"'{'é' * 300}'"]),
         ("TEXT CHARACTER SET utf8mb4", [f"'{'😀' * 300}'"])]
BINARIES = [(f"VARBINARY({n})", [f"REPEAT('x', {n})"]) for n in (5, 40)] + [("BLOB", ["REPEAT('y', 300)"])]
TEMPORAL = [("DATETIME(6)", ["'9999-12-31 23:59:59.999999'", "'1000-01-01 10:11:12.123456'"]),
            ("DATETIME(3)", ["'9999-12-31 23:59:59.999'", "'1000-01-01 10:11:12.125'"]),
            ("DATETIME", ["'9999-12-31 23:59:59'", "'1000-01-01 10:11:12'"]),
            ("DATE", ["'9999-12-31'", "'1000-01-01'"]),
            ("TIMESTAMP", ["'2038-01-19 03:14:07'", "'1970-01-01 00:00:01'"]),
            ("TIME(6)", ["'838:59:59.000000'", "'12:00:00.123456'"]), ("TIME", ["'-838:59:59'", "'12:00:00'"])]
ENUMS = [("ENUM('a','b','c')", ["'a'", "'b'", "'c'"]), ("ENUM('a','b')", ["'a'", "'b'"]),
         ("ENUM('a','c','d')", ["'a'", "'c'", "'d'"])]

FAMILIES = [INTEGERS + DECIMALS + FLOATS, STRINGS + TEXTS, BINARIES, TEMPORAL, ENUMS,
            # across families: numbers as text and text as numbers
            [("INT", ["-2147483648", "2147483647"]), ("VARCHAR(11) CHARACTER SET latin1", ["'-2147483648'", "'x'"]),
             ("VARCHAR(5) CHARACTER SET latin1", ["'12345'", "'a'"]), ("BIGINT UNSIGNED", ["0", "18446744073709551615"]),
             ("VARCHAR(20) CHARACTER SET utf8mb4", ["'18446744073709551615'"])]]


def _pairs(seed: int, share: float) -> list[tuple[str, list[str], str]]:
    rng = random.Random(seed)
    found = []
    for family in FAMILIES:
        for (old, values), (new, _) in itertools.permutations(family, 2):
            if rng.random() < share:
                found.append((old, values, new))
    return found


def _same(a: Any, b: Any, digits: int | None = None) -> bool:
    """The value read back is the value stored (as numbers, dates or text, whatever the types);
    `digits`: the significant digits the old type keeps (a FLOAT's 6: as a DOUBLE it shows more)."""
    def norm(value: Any) -> Any:
        if digits is not None and isinstance(value, (float, decimal.Decimal)):
            value = float(format(value, f".{digits}g"))
        if isinstance(value, (bytes, bytearray)):
            value = value.decode("utf-8", "replace")
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, (int, float, decimal.Decimal)):
            return decimal.Decimal(repr(value) if isinstance(value, float) else str(value)).normalize()
        if isinstance(value, datetime.datetime):
            return value
        if isinstance(value, datetime.date):
            return datetime.datetime(value.year, value.month, value.day)
        if isinstance(value, str):
            try:
                return decimal.Decimal(value).normalize()
            except decimal.InvalidOperation:
                return value.rstrip(" ")
        return value
    return norm(a) == norm(b)


def _server_loses(cursor: Any, old: str, values: list[str], new: str) -> bool | None:
    """Whether MariaDB changes a stored extreme value of `old` when the column becomes `new`; None
    when the old type does not take them (not this test's)."""
    import pymysql

    cursor.execute("DROP TABLE IF EXISTS t")
    cursor.execute(f"CREATE TABLE t (id INT PRIMARY KEY, c {old}) DEFAULT CHARSET=utf8mb4")
    try:
        for n, value in enumerate(values):
            cursor.execute("SET SESSION sql_mode = 'STRICT_ALL_TABLES'")
            cursor.execute(f"INSERT INTO t VALUES ({n}, {value})")
    except pymysql.err.MySQLError:
        return None
    cursor.execute("SELECT id, c FROM t ORDER BY id")
    before = cursor.fetchall()
    cursor.execute("SET SESSION sql_mode = ''")
    try:
        cursor.execute(f"ALTER TABLE t MODIFY c {new}")
    except pymysql.err.MySQLError:
        return True
    cursor.execute("SELECT id, c FROM t ORDER BY id")
    after = cursor.fetchall()
    digits = 6 if old == "FLOAT" else None
    return any(not _same(a[1], b[1], digits) for a, b in zip(before, after))


def _innolint_loses(old: str, new: str) -> str | None:
    replayer = Replayer(target=Target.parse("mariadb-10.11"))
    replayer.apply(ops.SchemaStatement("use", "db"), Location("s.sql", 1))
    cache = ParseCache()
    assert replayer.apply(cache.parse(f"CREATE TABLE t (id INT PRIMARY KEY, c {old}) DEFAULT CHARSET=utf8mb4"),
                          Location("s.sql", 2)) is None
    assert replayer.apply(cache.parse(f"ALTER TABLE t MODIFY c {new}"), Location("s.sql", 3)) is None, (old, new)
    changed = [change for a in replayer.model.alterations for change in a.changed]
    return changed[0].loss if changed else None


@pytest.mark.parametrize("seed", [1])
def test_a_change_loses_values_exactly_where_the_server_changes_them(mariadb: Any, seed: int) -> None:
    pairs = _pairs(seed, 0.35)  # (a third of the ~1,150 pairs: the whole matrix agreed when this was written)
    mariadb.sql("DROP DATABASE IF EXISTS narrowing; CREATE DATABASE narrowing")
    connection = mariadb.connect("narrowing")
    wrong, judged, losing = [], 0, 0
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET SESSION time_zone = '+00:00'")
            for old, values, new in pairs:
                server = _server_loses(cursor, old, values, new)
                if server is None:
                    continue
                judged += 1
                losing += server
                said = _innolint_loses(old, new)
                if (said is not None) != server:
                    wrong.append(f"{old} -> {new}: the server {'changes' if server else 'keeps'} the values, "
                                 f"innolint says {said!r}")
    finally:
        connection.close()
    print(f"\nnarrowing seed {seed}: {judged} changes judged, {losing} lose values")
    assert judged > 0.9 * len(pairs) and losing > judged // 4 and judged - losing > judged // 5
    assert not wrong, f"{len(wrong)} of {judged}:\n" + "\n".join(wrong[:40])


def _history(tmp_path: Path, first: str, second: str, target: str = "mysql-8.0") -> list[Any]:
    directory = tmp_path / "migrations"
    directory.mkdir(exist_ok=True)
    (directory / "V1__create.sql").write_text(first)
    (directory / "V2__change.sql").write_text(second)
    report = lint_paths([str(directory)], CheckContext(target=Target.parse(target)))
    assert not [d for d in report.diagnostics if d.rule in ("parse-error", "replay-error")], report.diagnostics
    return [f for f in report.findings if f.rule == "destructive-change"]


CREATE = ("CREATE TABLE customer (id INT PRIMARY KEY, name VARCHAR(200), note TEXT, score INT) "
          "DEFAULT CHARSET=utf8mb4;\nCREATE TABLE audit_log (id INT PRIMARY KEY);\n")


@pytest.mark.parametrize("change, subjects", [
    ("DROP TABLE audit_log;", ["drop-table"]),
    ("DROP TABLE IF EXISTS audit_log, customer;", ["drop-table", "drop-table"]),
    ("ALTER TABLE customer DROP COLUMN note;", ["drop-column:note"]),
    ("ALTER TABLE customer MODIFY name VARCHAR(50), DROP note;", ["drop-column:note", "narrowing:name"]),
    ("ALTER TABLE customer CHANGE score points SMALLINT;", ["narrowing:score"]),
    ("ALTER TABLE customer CONVERT TO CHARACTER SET utf8mb3;", ["narrowing:name", "narrowing:note"]),
    ("ALTER TABLE customer MODIFY name VARCHAR(400), MODIFY score BIGINT;", []),
    ("ALTER TABLE customer RENAME COLUMN note TO remark, ADD COLUMN c INT;", []),
    ("DROP TABLE IF EXISTS never_made;", []),
])
def test_destructive_statements_on_tables_from_an_earlier_migration(tmp_path: Path, change: str,
                                                                    subjects: list[str]) -> None:
    found = _history(tmp_path, CREATE, change)
    assert sorted(f.subject for f in found) == sorted(subjects), [f.message for f in found]
    assert all(f.path.endswith("V2__change.sql") and f.severity == "warning" for f in found)


def test_a_table_the_same_file_created_loses_nothing(tmp_path: Path) -> None:
    """A dump's `DROP TABLE IF EXISTS t; CREATE TABLE t`, an install script that drops and makes a
    table again: nothing the input had is lost."""
    sql = (CREATE + "ALTER TABLE customer DROP COLUMN note, MODIFY name VARCHAR(10);\n"
           "DROP TABLE IF EXISTS audit_log;\nCREATE TABLE audit_log (id INT PRIMARY KEY);\n")
    assert not [f for f in lint_sql(sql, tmp_path).findings if f.rule == "destructive-change"]


def test_the_fix_counts_what_would_be_cut(tmp_path: Path) -> None:
    (finding,) = _history(tmp_path, CREATE, "ALTER TABLE customer MODIFY name VARCHAR(50);")
    assert "SELECT COUNT(*) FROM `customer` WHERE CHAR_LENGTH(`name`) > 50;" in finding.fix


def test_it_is_suppressible_with_a_reason(tmp_path: Path) -> None:
    found = _history(tmp_path, CREATE, "-- innolint: ignore[destructive-change] moved to audit_archive first\n"
                                       "DROP TABLE audit_log;")
    assert found == []
