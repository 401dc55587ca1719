"""Temporary tables against the real server: a TEMPORARY table lives in a namespace of its own,
hides the permanent table of its name from the statements that follow (LIKE, SELECT, ALTER,
CREATE INDEX, RENAME, DROP without TEMPORARY), and one statement may not name one table twice
(`CREATE TABLE t LIKE t`, `DROP TABLE t, t`: error 1066, whatever exists, IF [NOT] EXISTS and
TEMPORARY included; MySQL 8.0 gives 1066 too).

Each script is loaded by MariaDB (lower_case_table_names=0) through the mysql client and linted
by innolint (tests/differential.py, `judge`): the permanent tables must be the server's, and
innolint must report exactly the statements the server refuses, at their lines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import differential as D
from tests.mariadb import MariaDB

SCRIPTS = {
    # a table named twice in one statement
    "like-itself-over-a-temporary": "CREATE TEMPORARY TABLE t2 (e INT);\nCREATE TABLE IF NOT EXISTS t2 LIKE t2;\n",
    "temporary-like-itself": "CREATE TABLE Orders (id INT PRIMARY KEY);\nCREATE TEMPORARY TABLE Orders LIKE Orders;\n",
    "like-itself-nothing-exists": "CREATE TABLE ghost LIKE ghost;\nCREATE TABLE real_one (a INT);\n",
    "like-itself-qualified": "CREATE TABLE {other}.t1 (a INT);\nCREATE TABLE {other}.t1 LIKE {other}.t1;\n",
    "like-itself-known-database": "USE {other};\nCREATE TABLE t5 (a INT);\nCREATE TABLE {other}.t5 LIKE t5;\n",
    "like-other-case": "CREATE TABLE acct (a INT);\nCREATE TABLE Acct LIKE acct;\n",
    "drop-twice-temporary-and-permanent": "CREATE TABLE t1 (a INT);\nCREATE TEMPORARY TABLE t1 (b INT);\n"
                                          "DROP TABLE t1, t1;\n",
    "drop-if-exists-twice": "CREATE TABLE t3 (a INT);\nDROP TABLE IF EXISTS t3, t3;\n",
    "drop-temporary-twice": "CREATE TEMPORARY TABLE tt (a INT);\nCREATE TABLE keep (a INT) AS SELECT * FROM tt;\n"
                            "DROP TEMPORARY TABLE IF EXISTS tt, tt;\nDROP TABLE tt;\n",
    # the temporary table hides the permanent one
    "like-copies-the-temporary": "CREATE TABLE src (a INT);\nCREATE TEMPORARY TABLE src (e INT, KEY (e));\n"
                                 "CREATE TABLE copy LIKE src;\n",
    "select-reads-the-temporary": "CREATE TABLE src (a INT);\nCREATE TEMPORARY TABLE src (e INT NOT NULL);\n"
                                  "CREATE TABLE copy AS SELECT * FROM src;\n",
    "permanent-from-its-temporary": "CREATE TEMPORARY TABLE t2 (e INT);\nCREATE TABLE t2 AS SELECT * FROM t2;\n",
    "temporary-as-select-itself": "CREATE TEMPORARY TABLE t11 (a INT);\nCREATE TEMPORARY TABLE t11 AS SELECT * FROM t11;\n"
                                  "CREATE TABLE t11 LIKE t12;\n",
    "alter-changes-the-temporary": "CREATE TABLE t2 (a INT);\nCREATE TEMPORARY TABLE t2 (e INT);\n"
                                   "ALTER TABLE t2 ADD COLUMN z INT, ADD PRIMARY KEY (e);\nCREATE INDEX ix ON t2 (z);\n",
    "rename-renames-the-temporary": "CREATE TABLE t2 (a INT);\nCREATE TEMPORARY TABLE t2 (e INT);\n"
                                    "RENAME TABLE t2 TO t3;\nALTER TABLE t2 RENAME TO t4;\n",
    "temporary-renamed-onto-a-permanent-name": "CREATE TABLE t2 (a INT);\nCREATE TEMPORARY TABLE t3 (e INT);\n"
                                               "ALTER TABLE t3 RENAME TO t2;\nDROP TABLE t2;\nDROP TABLE t2;\n",
    "drop-drops-the-temporary-first": "CREATE TABLE t2 (a INT);\nCREATE TEMPORARY TABLE t2 (e INT);\n"
                                      "DROP TABLE t2;\nALTER TABLE t2 ADD b INT;\n",
    "drop-temporary-spares-the-permanent": "CREATE TABLE t2 (a INT);\nDROP TEMPORARY TABLE t2;\n"
                                           "DROP TEMPORARY TABLE IF EXISTS t2;\n",
    "permanent-beside-a-temporary": "CREATE TEMPORARY TABLE t6 (e INT);\nCREATE TABLE t6 (a INT);\n"
                                    "CREATE TABLE IF NOT EXISTS t6 (b INT);\nCREATE TABLE t6 (c INT);\n",
}


@pytest.fixture(scope="module")
def sides(mariadb: MariaDB) -> Iterator[tuple[D.ServerRunner, D.InnolintRunner]]:
    with D.judging_sides(mariadb, "tmpns") as pair:
        yield pair


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_temporary_tables_follow_the_server(sides: tuple[D.ServerRunner, D.InnolintRunner], name: str) -> None:
    judged = D.judge(*sides, SCRIPTS[name])
    assert judged.faithful(), f"{SCRIPTS[name]}\n{judged}"


def test_a_table_named_twice_is_refused_before_anything_exists(sides: tuple[D.ServerRunner, D.InnolintRunner]) -> None:
    """The message says what the server says: a name given twice, not a missing table."""
    judged = D.judge(*sides, SCRIPTS["like-itself-nothing-exists"])
    assert judged.refused == {1: 1066}
    assert "1066" in judged.said[1] and "twice" in judged.said[1]


#: RENAME TABLE binds its names to the temporary tables before it runs, each to the first name
RENAME_SCRIPTS = {
    "new-name-takes-the-temporary": "CREATE TEMPORARY TABLE t3 (b INT);\nCREATE TABLE t4 (a INT);\n"
                                    "RENAME TABLE t4 TO t3, t3 TO t1;\nALTER TABLE t3 ADD c INT;\n",
    "same-name-twice": "CREATE TABLE x (a INT);\nCREATE TEMPORARY TABLE x (b INT);\nRENAME TABLE x TO y, x TO z;\n"
                       "ALTER TABLE y ADD c INT;\n",
    "temporary-chain": "CREATE TEMPORARY TABLE d (x INT);\nRENAME TABLE d TO d2, d2 TO d3;\nCREATE TABLE keep AS SELECT * FROM d3;\n",
    "temporary-round-trip": "CREATE TEMPORARY TABLE s (x INT);\nRENAME TABLE s TO s2, s2 TO s;\nCREATE TABLE s2 LIKE s;\n",
    "temporary-into-a-freed-name": "CREATE TEMPORARY TABLE u (x INT);\nCREATE TABLE w (y INT);\n"
                                   "RENAME TABLE w TO w2, u TO w;\nCREATE TABLE copy LIKE w;\n",
    "swap-over-a-temporary": "CREATE TEMPORARY TABLE n (x INT);\nCREATE TABLE o (y INT);\nRENAME TABLE o TO n, n TO o;\n"
                             "CREATE TABLE copy LIKE n;\n",
    "temporary-onto-a-temporary": "CREATE TEMPORARY TABLE a1 (x INT);\nCREATE TEMPORARY TABLE a2 (y INT);\n"
                                  "RENAME TABLE a1 TO a2;\nCREATE TABLE copy LIKE a1;\n",
    "other-database": "CREATE TEMPORARY TABLE {other}.q (x INT);\nCREATE TABLE {other}.r (y INT);\n"
                      "RENAME TABLE {other}.r TO {other}.q, {other}.q TO {other}.p;\n",
}


@pytest.mark.parametrize("name", list(RENAME_SCRIPTS))
def test_rename_binds_temporary_tables_as_the_server(sides: tuple[D.ServerRunner, D.InnolintRunner], name: str) -> None:
    judged = D.judge(*sides, RENAME_SCRIPTS[name])
    assert judged.faithful(), f"{RENAME_SCRIPTS[name]}\n{judged}"


#: a refused ALTER ... CHANGE / RENAME COLUMN of a temporary table hides it from RENAME TABLE
#: until a statement opens it again (MariaDB 10.11): (script, the line of the RENAME said so, or 0)
HIDDEN_SCRIPTS = [
    ("CREATE TEMPORARY TABLE t3 (e CHAR(36));\nCREATE TABLE t3 (d TEXT NOT NULL);\nALTER TABLE t3 CHANGE f g INT;\n"
     "RENAME TABLE t3 TO t1;\n", 4),
    ("CREATE TABLE Hx (a INT);\nCREATE TEMPORARY TABLE Hx (b INT);\nALTER TABLE Hx RENAME COLUMN b TO c, ADD KEY (q);\n"
     "RENAME TABLE Hx TO Hy, Hy TO Hz;\n", 4),
    ("CREATE TEMPORARY TABLE t3 (e CHAR(36));\nCREATE TABLE t3 (d TEXT NOT NULL);\n"
     "ALTER TABLE t3 CHANGE e e INT NOT NULL DEFAULT 'x';\nRENAME TABLE t3 TO t7;\nRENAME TABLE t3 TO t1;\n", 4),
    ("CREATE TEMPORARY TABLE t3 (e CHAR(36));\nCREATE TABLE t3 (d TEXT NOT NULL);\nALTER TABLE t3 CHANGE f g INT;\n"
     "ALTER TABLE t3 ADD z INT;\nRENAME TABLE t3 TO t1;\n", 0),
    ("CREATE TEMPORARY TABLE t3 (e CHAR(36));\nCREATE TABLE t3 (d TEXT NOT NULL);\nALTER TABLE t3 MODIFY f INT;\n"
     "RENAME TABLE t3 TO t1;\n", 0),
    ("CREATE TEMPORARY TABLE t3 (e CHAR(36));\nCREATE TABLE t3 (d TEXT NOT NULL);\nALTER TABLE t3 CHANGE f g INT;\n"
     "CREATE INDEX ix ON t3 (nocol);\nRENAME TABLE t3 TO t1;\n", 0),
    # a RENAME COLUMN of a column the table does not have is refused before: nothing hidden (fuzz seed 364)
    ("CREATE TEMPORARY TABLE t1 (id BIGINT NOT NULL, PRIMARY KEY (id));\nALTER TABLE `t1` RENAME COLUMN h TO h;\n"
     "RENAME TABLE `t1` TO t3;\nCREATE TABLE IF NOT EXISTS t1 (c VARCHAR(191));\nDROP TABLE IF EXISTS `t1`;\n", 0),
    ("CREATE TABLE Ord (q INT);\nCREATE TEMPORARY TABLE Ord (k INT, v INT);\n"
     "ALTER TABLE Ord CHANGE k k2 INT, RENAME COLUMN missing TO x;\nRENAME TABLE Ord TO Ord2;\n", 0),
    ("CREATE TEMPORARY TABLE m (k INT);\nALTER TABLE m RENAME COLUMN IF EXISTS zz TO y, ADD KEY (nocol);\n"
     "RENAME TABLE m TO m2;\n", 0),
]


@pytest.mark.parametrize(("script", "said_at"), HIDDEN_SCRIPTS, ids=lambda c: repr(c)[:40] if isinstance(c, str) else "")
def test_a_refused_change_hides_the_temporary_table_from_rename(
        sides: tuple[D.ServerRunner, D.InnolintRunner], script: str, said_at: int) -> None:
    judged = D.judge(*sides, script)
    assert not judged.differences, f"{script}\n{judged}"
    noted = {line for line, message in judged.said.items() if "cannot tell" in message and "RENAME" in message}
    assert noted == ({said_at} if said_at else set()), f"{script}\n{judged}"
