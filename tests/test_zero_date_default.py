"""zero-date-default: for every form of zero and zero-in-date default on each temporal type, what
the finding says each target does is what the test MariaDB does, with its default sql_mode and
with MySQL's (MySQL 8.0 manual 7.1.11: STRICT_TRANS_TABLES, NO_ZERO_IN_DATE, NO_ZERO_DATE ...);
the fix runs and the finding is gone."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest

from linter.rules.zero_dates import zero_parts
from linter.rules.findings import Finding
from tests.ddl_outcome import MYSQL_SQL_MODE, TableDDL, run
from tests.complexity import assert_linear
from tests.helpers import findings, lint_sql
from tests.mariadb import MariaDB

RULE = "zero-date-default"
TYPES = ["DATE", "DATETIME(6)", "TIMESTAMP"]
ZERO = ["'0000-00-00'", "'0000-00-00 00:00:00'", "0", "'00000000'", "'0000-00-00 00:00:00.000000'",
        "'0000/00/00'", "'0000-00-00 10:30:00'"]
ZERO_IN_DATE = ["'2020-00-15'", "'2020-01-00'", "'1999-00-00'", "'20200015'"]
FINE = ["'2020-01-01'", "'0000-01-01'", "'1970-01-01 00:00:01'", "NULL", "CURRENT_TIMESTAMP", "'1000-01-01'"]


def lint(ddl: str, tmp_path: Path, target: str) -> list[Finding]:
    return findings(lint_sql(ddl + ";\n", tmp_path, target=target), RULE)


def column_table(kind: str, default: str, *, null: str = "NOT NULL", extra: str = "") -> TableDDL:
    return TableDDL("t", {"id": "INT NOT NULL", "d": f"{kind} {null} DEFAULT {default}{extra}"}, {"PRIMARY": "PRIMARY KEY (`id`)"})


def test_zero_parts_reads_the_servers_formats() -> None:
    assert [zero_parts(d) for d in ZERO] == [(0, 0, 0)] * len(ZERO)
    assert [zero_parts(d) for d in ZERO_IN_DATE] == [(2020, 0, 15), (2020, 1, 0), (1999, 0, 0), (2020, 0, 15)]
    assert [zero_parts(d) for d in FINE] == [None] * len(FINE)
    assert zero_parts("('0000-00-00')") == (0, 0, 0) and zero_parts("'x'") is None and zero_parts(None) is None


@pytest.mark.parametrize(("kind", "default"), list(itertools.product(TYPES, ZERO + ZERO_IN_DATE + FINE[:3])))
def test_every_form_on_every_type(server: MariaDB, kind: str, default: str, tmp_path: Path) -> None:
    """Each default loaded twice: with MariaDB's default sql_mode and with MySQL's. A finding that
    says the target refuses it is an error quoting the refusal the server gives; one that says
    MariaDB takes it is a warning, and MariaDB takes it."""
    if kind.startswith("TIMESTAMP") and default in ("'0000-01-01'", "'1000-01-01'"):
        return  # out of TIMESTAMP's range, another problem than a zero date
    ddl = column_table(kind, default)
    maria = run(server, "zd_forms", [ddl.sql()])
    mysql_like = run(server, "zd_forms", [ddl.sql()], session=f"SET SESSION sql_mode='{MYSQL_SQL_MODE}'")
    on_maria, on_mysql = lint(ddl.sql(), tmp_path, "mariadb-10.11"), lint(ddl.sql(), tmp_path, "mysql-8.0")
    if zero_parts(default) is None:
        assert maria.ok and mysql_like.ok and on_maria == on_mysql == []
        return
    assert not mysql_like.ok and mysql_like.code == 1067  # MySQL's sql_mode refuses every zero form
    assert [f.severity for f in on_mysql] == ["error"]
    assert f"ERROR 1067 (42000): {mysql_like.message}" in on_mysql[0].message
    assert [f.severity for f in on_maria] == (["warning"] if maria.ok else ["error"]), (ddl.sql(), maria)
    if not maria.ok:  # a zero-in-date TIMESTAMP: out of range on MariaDB too
        assert f"ERROR 1067 (42000): {maria.message}" in on_maria[0].message
        return
    made = run(server, "zd_forms", [ddl.sql(), "INSERT INTO t (id) VALUES (1)", *on_maria[0].fix.split("\n")], table="t")
    assert made.ok, (on_maria[0].fix, made)
    assert lint(made.tables["t"], tmp_path, "mariadb-10.11") == [] and lint(made.tables["t"], tmp_path, "mysql-8.0") == []
    assert server.sql("SELECT d FROM zd_forms.t") == [(None,)]  # the zero row holds NULL now


def test_the_fix_keeps_on_update_comment_and_nullability(server: MariaDB, tmp_path: Path) -> None:
    ddl = TableDDL("t", {"id": "INT NOT NULL",
                         "updated": "TIMESTAMP NOT NULL DEFAULT '0000-00-00 00:00:00' ON UPDATE CURRENT_TIMESTAMP COMMENT 'last change'",
                         "paid": "DATE NULL DEFAULT '0000-00-00'"}, {"PRIMARY": "PRIMARY KEY (`id`)"})
    found = lint(ddl.sql(), tmp_path, "mariadb-10.11")
    assert sorted(f.subject for f in found) == ["default:paid", "default:updated"]
    fixes = [line for f in found for line in (f.fix or "").split("\n")]
    assert "ALTER TABLE `t` ALTER COLUMN `paid` SET DEFAULT NULL;" in fixes  # nullable: nothing else to change
    made = run(server, "zd_keep", [ddl.sql(), *fixes], table="t")
    assert made.ok, made
    assert "`updated` timestamp NULL DEFAULT NULL ON UPDATE current_timestamp() COMMENT 'last change'" in made.tables["t"]
    assert lint(made.tables["t"], tmp_path, "mysql-8.0") == []


@pytest.mark.parametrize(("target", "session", "expected"), [
    ("mysql-5.7", f"SET SESSION explicit_defaults_for_timestamp=0, sql_mode='{MYSQL_SQL_MODE},NO_AUTO_CREATE_USER'",
     "error"),
    ("mariadb-10.6", "SET SESSION explicit_defaults_for_timestamp=0", "warning"),
    ("mariadb-10.11", "", None), ("mysql-8.0", "", None), ("mariadb-11.x", "", None),
])
def test_implicit_zero_timestamp(server: MariaDB, target: str, session: str, expected: str | None, tmp_path: Path) -> None:
    """explicit_defaults_for_timestamp=OFF (MySQL 5.7's default, MariaDB's before 10.10) gives a
    TIMESTAMP NOT NULL without DEFAULT, after the first, DEFAULT '0000-00-00 00:00:00'. The test
    server is 10.11 (ON): the older targets are emulated with the session variables."""
    for first in ("created TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP", "created TIMESTAMP NOT NULL", "n INT"):
        name, definition = first.split(" ", 1)
        ddl = TableDDL("t", {"id": "INT NOT NULL", name: definition, "seen": "TIMESTAMP NOT NULL"},
                       {"PRIMARY": "PRIMARY KEY (`id`)"})
        found = lint(ddl.sql(), tmp_path, target)
        made = run(server, "zd_implicit", [ddl.sql()], session=session, table="t")
        if expected is None or name == "n":  # with ON, or when `seen` is the table's first TIMESTAMP
            assert found == [], (first, found)
            continue
        assert [(f.severity, f.subject) for f in found] == [(expected, "default:seen")]
        if expected == "error":
            assert not made.ok and f"ERROR 1067 (42000): {made.message}" in found[0].message
        else:
            assert made.ok and "`seen` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00'" in made.tables["t"]
            fixed = run(server, "zd_implicit", [ddl.sql(), *(found[0].fix or "").split("\n")], session=session, table="t")
            assert fixed.ok and "`seen` timestamp NULL DEFAULT NULL" in fixed.tables["t"]


def test_on_update_takes_no_zero_date(server: MariaDB) -> None:
    """Only DEFAULT can hold a zero date: ON UPDATE takes CURRENT_TIMESTAMP alone."""
    refused = run(server, "zd_on_update", ["CREATE TABLE t (d DATETIME ON UPDATE '0000-00-00')"])
    assert not refused.ok and refused.code == 1064


def test_a_default_set_by_a_later_alter(tmp_path: Path) -> None:
    sql = ("CREATE TABLE t (id INT PRIMARY KEY, d DATE NOT NULL);\n"
           "ALTER TABLE t ALTER COLUMN d SET DEFAULT '0000-00-00';\n"
           "CREATE TABLE u (id INT PRIMARY KEY, d DATE NOT NULL DEFAULT '0000-00-00');\n"
           "ALTER TABLE u ALTER COLUMN d SET DEFAULT '2020-01-01';\n")
    found = lint(sql, tmp_path, "mysql-8.0")
    assert [(f.table, f.subject) for f in found] == [("t", "default:d")]


def test_time_grows_linearly_with_the_columns(tmp_path: Path) -> None:
    """Many TIMESTAMP NOT NULL columns (each an implicit zero default on MySQL 5.7): 10x the
    columns take at most ~15x the time (tests/complexity.py)."""

    def linting(n: int) -> Callable[[], object]:
        columns = ", ".join(f"t{i} TIMESTAMP NOT NULL" for i in range(n))
        sql = f"CREATE TABLE t (id INT PRIMARY KEY, first TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, {columns})"

        def work() -> None:
            assert len(lint(sql, tmp_path, "mysql-5.7")) == n

        return work

    assert_linear(linting, 100)
