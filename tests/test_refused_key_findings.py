"""A key the server refuses in an InnoDB table (1071, 1170, 1709): the replay refuses the
statement as the server does (linter/server/key_refusals.py, with the index-key-length check's
decision), and the check reports it with a fix at that statement (the CREATE TABLE, the ALTER
that adds the key or changes a column under it, the CREATE INDEX), which is where the
differential test (tests/differential.py, `refused_keys`) looks for it. Each script runs on
MariaDB 10.11, statement by statement; the lines of the statements it refuses with those errors
must be the lines of the findings that say it refuses them, and innolint's tables the server's
(a later statement on a refused table, a DROP TABLE of it included, meets what the server has).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential import InnolintRunner

_KEY_ERRORS = (1071, 1170, 1709)

SCRIPTS: dict[str, list[str]] = {
    "CREATE TABLE": [
        "CREATE TABLE t1 (e TEXT NOT NULL, PRIMARY KEY (e))",
        "CREATE TABLE `T2` (a BLOB NOT NULL, d TEXT NOT NULL, KEY ix_c (a(10), d))",
        "CREATE TABLE t3 (f TEXT NOT NULL, UNIQUE KEY uk_x USING BTREE (f))",  # no hash under USING BTREE
        "CREATE TABLE t4 (f TEXT NOT NULL, UNIQUE KEY uk_x (f))",  # a hash: taken
        "CREATE TABLE t5 (c INT, d TEXT, KEY (c, d)) ENGINE=InnoDB",
        "CREATE TABLE t6 (d VARCHAR(1000), KEY (d)) ROW_FORMAT=COMPACT DEFAULT CHARSET=utf8mb4",
    ],
    "ALTER and CREATE INDEX": [
        "CREATE TABLE t1 (id INT NOT NULL PRIMARY KEY, b VARCHAR(10), c INT)",
        "ALTER TABLE t1 MODIFY id TEXT NOT NULL",  # the key is the CREATE's; the ALTER is refused
        "CREATE TABLE t2 (b VARCHAR(10), c INT)",
        "ALTER TABLE t2 ADD KEY (c, b), MODIFY b MEDIUMTEXT",
        "CREATE TABLE t3 (a CHAR(36), b TEXT) ENGINE=InnoDB",
        "ALTER TABLE t3 ADD PRIMARY KEY (a, b)",
        "CREATE TABLE t4 (b TEXT, c INT)",
        "ALTER TABLE t4 ADD UNIQUE u (b) USING BTREE",
        "CREATE TABLE t5 (b LONGBLOB, c INT)",
        "CREATE UNIQUE INDEX u2 USING BTREE ON t5 (b)",
        "CREATE TABLE t6 (b MEDIUMTEXT, c INT)",
        "CREATE INDEX k3 ON t6 (c, b)",
        "CREATE TABLE t7 (c INT, d VARCHAR(1000)) ROW_FORMAT=REDUNDANT DEFAULT CHARSET=utf8mb4",
        "CREATE INDEX k ON t7 (d)",
        "CREATE TABLE t8 (c INT, d VARCHAR(1000)) ROW_FORMAT=REDUNDANT DEFAULT CHARSET=utf8mb4",
        "ALTER TABLE t8 ADD UNIQUE (d)",  # a hash
        "CREATE TABLE t9 (c TEXT, d VARCHAR(8))",
        "CREATE INDEX k9 ON t9 (c, d)",
        "ALTER TABLE t9 MODIFY d INT NOT NULL",  # a narrow column of the refused key: not the place
    ],
    "later statements meet the server's tables": [
        "CREATE TABLE t1 (e MEDIUMTEXT NOT NULL, n INT, PRIMARY KEY (e))",
        "CREATE TABLE IF NOT EXISTS t1 (n INT PRIMARY KEY)",  # t1 is not there: made
        "CREATE TABLE `Keys` (b VARCHAR(900), c INT, UNIQUE KEY ub (b) USING BTREE) CHARSET utf8mb4",
        "CREATE TABLE `Keys` (b VARCHAR(900), c INT) CHARSET utf8mb4",
        "ALTER TABLE `Keys` ADD KEY kc (c), ADD PRIMARY KEY (b, c), ADD d INT",  # refused whole: no kc, no d
        "ALTER TABLE `Keys` ADD KEY kc (c)",
        "CREATE TEMPORARY TABLE tmp (g TEXT NOT NULL, PRIMARY KEY (g)) ENGINE=InnoDB",  # judged too
    ],
}


@pytest.mark.parametrize("script", SCRIPTS)
def test_refused_keys_are_reported_at_the_refused_statement(mariadb: Any, script: str) -> None:
    import pymysql

    statements = SCRIPTS[script]
    mariadb.sql("DROP DATABASE IF EXISTS refused_keys; CREATE DATABASE refused_keys")
    connection = mariadb.connect("refused_keys")
    refused: set[int] = set()
    try:
        with connection.cursor() as cursor:
            for line, statement in enumerate(statements, start=1):
                try:
                    cursor.execute(statement)
                except pymysql.err.MySQLError as error:
                    assert error.args[0] in _KEY_ERRORS, (statement, error)
                    refused.add(line)
    finally:
        connection.close()
    runner = InnolintRunner()
    try:
        linted = runner.lint("".join(s + ";\n" for s in statements))
    finally:
        runner.close()
    said = {line for line, _, rule, _ in linted.diagnostics if rule == "index-key-length"}
    assert refused, "the script shows nothing the server refuses"
    assert said == refused, linted.diagnostics
    assert not [d for d in linted.diagnostics if d[2] == "replay-error"], linted.diagnostics
    assert {name for (_, name) in linted.view} == {row[0] for row in mariadb.sql("SHOW TABLES", "refused_keys")}
    for (_, name), facts in linted.view.items():  # the refused ALTER of `Keys` added no column d
        assert name != "Keys" or {c.name for c in facts.columns} == {"b", "c"}, facts
