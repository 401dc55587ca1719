"""What the server checks of the table a whole ALTER TABLE (or CREATE INDEX) builds
(linter/server/alter_refusals.py, `after_problem`): each case runs on MariaDB 10.11 and through
innolint's replay, statement by statement; the statements the server refuses must be those
innolint reports, and the tables left must be the same. Several independent variations per rule:
names, types, engines, the order of the actions, ALTER and CREATE INDEX.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_replay import _innolint, _server

CASES: dict[str, list[str]] = {
    "a visible column stays (1113)": [
        "CREATE TABLE t1 (e DECIMAL(10,2) NOT NULL)",
        "ALTER TABLE t1 MODIFY e INT INVISIBLE",
        "ALTER TABLE t1 ADD f INT INVISIBLE, MODIFY e INT INVISIBLE",
        "ALTER TABLE t1 ADD f INT, MODIFY e INT INVISIBLE",  # f stays visible
        "ALTER TABLE t1 ADD `G` VARCHAR(3) INVISIBLE",
        "ALTER TABLE t1 DROP COLUMN f",  # e and G are invisible
        "CREATE TABLE `Orders` (a INT, b TEXT) ENGINE=MyISAM",
        "ALTER TABLE `Orders` CHANGE a a2 INT INVISIBLE, MODIFY b TEXT INVISIBLE",
        "ALTER TABLE `Orders` CHANGE b b2 TEXT INVISIBLE",
    ],
    "FULLTEXT added on a column it cannot index (1283)": [
        "CREATE TABLE t1 (d BLOB NOT NULL, v VARCHAR(10), n INT)",
        "ALTER TABLE t1 ADD FULLTEXT KEY ix_b (d)",
        "CREATE FULLTEXT INDEX ix_c ON t1 (v, d)",
        "ALTER TABLE t1 ADD FULLTEXT (v)",
        "ALTER TABLE t1 ADD COLUMN w LONGBLOB, ADD FULLTEXT fw (w)",
        "ALTER TABLE t1 ADD FULLTEXT fn (n)",
        "CREATE TABLE t2 (body MEDIUMTEXT, img TINYBLOB) ENGINE=Aria",
        "ALTER TABLE t2 ADD FULLTEXT (img, body)",
        "ALTER TABLE t2 MODIFY img TINYTEXT, ADD FULLTEXT (img, body)",
    ],
    "AUTO_INCREMENT in a hash key (4169)": [
        "CREATE TABLE t1 (id INT NOT NULL AUTO_INCREMENT, b INT NOT NULL, PRIMARY KEY (id), UNIQUE KEY uk_b (id, b)) ENGINE=MyISAM",
        "ALTER TABLE t1 DROP PRIMARY KEY, CHANGE b d TEXT NOT NULL",
        "ALTER TABLE t1 CHANGE b d TEXT NOT NULL",
        "ALTER TABLE t1 CHANGE b d VARCHAR(20) NOT NULL",
        "CREATE TABLE t2 (id BIGINT NOT NULL AUTO_INCREMENT, body BLOB NOT NULL, PRIMARY KEY (id))",
        "ALTER TABLE t2 ADD UNIQUE (body, id)",
        "ALTER TABLE t2 ADD UNIQUE (body(10), id)",
        "ALTER TABLE t2 ADD UNIQUE u2 (body)",
        "CREATE TABLE t3 (n INT NOT NULL, txt TEXT NOT NULL, PRIMARY KEY (n), UNIQUE (n, txt)) ENGINE=MyISAM",
        "ALTER TABLE t3 MODIFY n INT NOT NULL AUTO_INCREMENT",
        "CREATE UNIQUE INDEX u ON t2 (id, body)",
    ],
    "a column dropped out of a UNIQUE key that stays (1072)": [
        "CREATE TABLE t1 (id BIGINT NOT NULL AUTO_INCREMENT, c DATETIME NOT NULL, PRIMARY KEY (id), UNIQUE KEY uk_a (id, c))",
        "ALTER TABLE t1 ADD UNIQUE KEY uk_a5 (id), DROP PRIMARY KEY, DROP COLUMN c",
        "ALTER TABLE t1 DROP COLUMN c",
        "ALTER TABLE t1 DROP COLUMN c, DROP KEY uk_a",  # the key goes with it: taken
        "CREATE TABLE t2 (a INT, b INT, c INT, KEY k (a, b), PRIMARY KEY (a, c)) ENGINE=MyISAM",
        "ALTER TABLE t2 DROP COLUMN b",  # a plain key: the column leaves it
        "ALTER TABLE t2 DROP COLUMN c",
        "CREATE TABLE t3 (a INT, b INT, c INT, UNIQUE k (a))",
        "ALTER TABLE t3 DROP COLUMN a",  # the whole key goes
        "CREATE TABLE t4 (x INT, `Y` INT, z INT, UNIQUE k (x, `Y`))",
        "ALTER TABLE t4 DROP COLUMN x, DROP COLUMN y",  # every column of it: the key goes
        "CREATE TABLE t5 (x INT, y INT, z INT, UNIQUE k (z, y))",
        "ALTER TABLE t5 DROP COLUMN y, ADD COLUMN y INT",  # added again: the key stays on it
        "ALTER TABLE t5 DROP y",
        # a renamed key stays: the column cannot leave it
        "CREATE TABLE t6 (a TINYINT(1), d VARCHAR(255) NOT NULL, UNIQUE INDEX uk_c (`d`(127), `a`), UNIQUE (d))",
        "ALTER TABLE t6 RENAME KEY uk_c TO rx_a, DROP COLUMN d",
        "ALTER TABLE t6 RENAME INDEX uk_c TO rx_a, DROP COLUMN a",
    ],
    "a renamed key is still there": [
        "CREATE TABLE t1 (id INT NOT NULL AUTO_INCREMENT, b TEXT, KEY k (id)) ENGINE=Aria",
        "ALTER TABLE t1 RENAME KEY k TO k2, MODIFY id BIGINT NOT NULL AUTO_INCREMENT",  # still a key: taken
        "ALTER TABLE t1 RENAME KEY k2 TO k3, ENGINE=MEMORY",  # 1163: b is TEXT
        "CREATE TABLE t2 (a VARCHAR(20), b TEXT, FULLTEXT KEY ft (a, b))",
        "ALTER TABLE t2 RENAME KEY ft TO ft2, MODIFY a INT",  # 1283 on the renamed key
        "ALTER TABLE t2 RENAME KEY ft TO ft3, MODIFY a CHAR(9)",
    ],
    "a column one ALTER both changes and drops (1054)": [
        "CREATE TABLE r1 (a INT, b INT DEFAULT 1, c VARCHAR(4), KEY (a))",
        "ALTER TABLE r1 ALTER b DROP DEFAULT, DROP b",
        "ALTER TABLE r1 DROP b, ALTER b SET DEFAULT 2",
        "ALTER TABLE r1 MODIFY b BIGINT, DROP b",
        "ALTER TABLE r1 DROP b, MODIFY b BIGINT",
        "ALTER TABLE r1 CHANGE b d INT, DROP COLUMN b",
        "ALTER TABLE r1 RENAME COLUMN b TO d, DROP b",
        "ALTER TABLE r1 ALTER a SET DEFAULT 4, DROP IF EXISTS a",
        "ALTER TABLE r1 CHANGE c `C` VARCHAR(8), DROP IF EXISTS `c`, ADD KEY (a)",
        "ALTER TABLE r1 MODIFY c VARCHAR(9), DROP b",
    ],
    "ALTER COLUMN ... SET DEFAULT beside a MODIFY, CHANGE or ADD of its column (1054, 1067)": [
        "CREATE TABLE t1 (id INT, f TEXT NOT NULL, z INT)",
        "ALTER TABLE t1 ALTER f SET DEFAULT NULL, MODIFY f CHAR(36)",  # changed in place: unknown to it
        "ALTER TABLE t1 MODIFY f CHAR(36) FIRST, ALTER f SET DEFAULT 'y'",  # moved: the new f takes it
        "ALTER TABLE t1 ALTER COLUMN z SET DEFAULT 3, MODIFY z BIGINT NOT NULL AFTER f",
        "ALTER TABLE t1 ALTER f SET DEFAULT 'y', CHANGE f g CHAR(36) AFTER z",  # by its old name: refused
        "ALTER TABLE t1 ALTER g SET DEFAULT 'w', CHANGE f g VARCHAR(36) AFTER z",
        "ALTER TABLE t1 ALTER g SET DEFAULT NULL, MODIFY g CHAR(36) NOT NULL FIRST",  # NULL in NOT NULL: 1067
        "ALTER TABLE t1 ALTER q SET DEFAULT 1, ADD q INT NOT NULL",  # an added column takes it too
        "ALTER TABLE t1 ADD `Q2` DATE, ALTER q2 DROP DEFAULT",
        "ALTER TABLE t1 ALTER z SET DEFAULT 3, ALTER z SET DEFAULT 4",  # twice: refused
        "ALTER TABLE t1 ALTER id SET DEFAULT 7, DROP id",
    ],
}


@pytest.mark.parametrize("case", CASES)
def test_refused_as_mariadb_refuses(mariadb: Any, case: str) -> None:
    statements = CASES[case]
    refused, permanent, _ = _server(mariadb, "alter_refusals_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="alter_refusals_oracle")
    context = "\n".join(f"{n}: {s}" for n, s in enumerate(statements)) + "\ninnolint said:\n" + "\n".join(messages)
    assert refused, "the case shows nothing the server refuses"
    assert reported == refused, context
    assert model == permanent, context


def test_mysql_takes_a_dropped_column_out_of_a_unique_key() -> None:
    """MySQL removes a dropped column from the keys it is part of, UNIQUE ones too (its manual,
    ALTER TABLE: "the columns are also removed from any index of which they are a part"); only
    MariaDB (10.2.8 and later) refuses it."""
    statements = ["CREATE TABLE t1 (a INT, b INT, UNIQUE KEY u (a, b))", "ALTER TABLE t1 DROP COLUMN b"]
    reported, model, _, messages = _innolint(statements, target="mysql-8.0")
    assert reported == set(), messages
    assert model["t1"] is not None
    reported, _, _, messages = _innolint(statements, target="mariadb-10.6")
    assert reported == {1}, messages
