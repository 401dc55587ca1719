"""Definitions the server refuses although the grammar allows them (linter/server/refusals.py): each
case runs on MariaDB 10.11 and through innolint's replay, statement by statement; the statements
the server refuses must be those innolint reports, and the tables left must be the same.

The cases come in several independent variations each (names, types, engines, order, CREATE and
ALTER), so that a rule fitted to one example fails here. A key over a whole TEXT/BLOB column that
the server refuses (1170) in an InnoDB table is the index-key-length check's
(tests/test_index_key_length.py), as is a key too long (1071, 1709): the model keeps such a table,
and the check reports it with a fix; in other engines, which that check does not judge, the
replay refuses it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import tests.differential as D

from linter.parse import ops
from linter.parse.elements import Location
from linter.parse.cache import ParseCache
from linter.server.replay import Replayer
from linter.schema.target import Target
from linter.server.temporal_numbers import number_default_refused
from tests.test_replay import _innolint, _server

CASES: dict[str, list[str]] = {
    "invalid defaults": [
        "CREATE TABLE t1 (a INT DEFAULT 'x')",
        "CREATE TABLE t2 (a INT DEFAULT '12', b BIGINT UNSIGNED DEFAULT '0')",
        "CREATE TABLE t3 (a VARCHAR(4) DEFAULT 'abcde')",
        "CREATE TABLE t4 (a VARCHAR(5) DEFAULT 'abcde', b CHAR(2) DEFAULT 'it''')",
        "CREATE TABLE t5 (a CHAR(4) DEFAULT \"double;quoted\")",
        "CREATE TABLE t6 (a TEXT DEFAULT 'x', b BLOB DEFAULT 'long enough to be long')",
        "CREATE TABLE t7 (a DATETIME DEFAULT 'never')",
        "CREATE TABLE t8 (a DATE DEFAULT '2020-01-01', b DATETIME DEFAULT CURRENT_TIMESTAMP)",
        "CREATE TABLE t9 (a ENUM('x','y') DEFAULT 'z')",
        "CREATE TABLE t10 (a ENUM('x','y') DEFAULT 'Y', b INT DEFAULT NULL, c INT DEFAULT (1 + 2))",
        "CREATE TABLE t11 (a TINYINT(1) DEFAULT 300)",
        "CREATE TABLE t12 (a TINYINT UNSIGNED DEFAULT 255, b SMALLINT DEFAULT -32768)",
        "CREATE TABLE t13 (a TINYINT UNSIGNED DEFAULT -1)",
        "CREATE TABLE t14 (a DECIMAL(10,2) DEFAULT 'a;b')",
        "CREATE TABLE t15 (a DECIMAL(10,2) DEFAULT '1.5', b DOUBLE DEFAULT 2e3)",
        "CREATE TABLE t16 (id INT NOT NULL AUTO_INCREMENT DEFAULT 1, PRIMARY KEY (id))",
        "CREATE TABLE t17 (a INT)",
        "ALTER TABLE t17 ADD COLUMN b INT DEFAULT 'no'",
        "ALTER TABLE t17 ADD COLUMN c VARCHAR(2) DEFAULT 'abc', ADD d INT",
        "ALTER TABLE t17 MODIFY a VARCHAR(3) DEFAULT 'toolong'",
        "ALTER TABLE t17 CHANGE a a2 SMALLINT DEFAULT 99999",
        "ALTER TABLE t17 ADD COLUMN e VARCHAR(3) DEFAULT 'abc', CHANGE a a3 BIGINT DEFAULT '7'",
        # NULL in a NOT NULL column, but for one a PRIMARY KEY made NOT NULL
        "CREATE TABLE t18 (a INT DEFAULT NULL, PRIMARY KEY (a))",
        "CREATE TABLE t19 (a TIMESTAMP NOT NULL DEFAULT NULL)",
        "CREATE TABLE t20 (a INT NOT NULL, b INT, c VARCHAR(3) NOT NULL DEFAULT 'x')",
        "ALTER TABLE t20 ALTER a SET DEFAULT NULL",
        "ALTER TABLE t20 ADD PRIMARY KEY (b)",
        "ALTER TABLE t20 ALTER COLUMN b SET DEFAULT NULL",
        "ALTER TABLE t20 ALTER c SET DEFAULT 'long'",
        "ALTER TABLE t20 ALTER c SET DEFAULT 'abc', MODIFY b INT NOT NULL DEFAULT NULL",
        "ALTER TABLE t20 MODIFY a INT NULL DEFAULT NULL",
    ],
    "auto increment must be a key": [
        "CREATE TABLE t1 (a BIGINT NOT NULL AUTO_INCREMENT)",
        "CREATE TABLE t2 (a INT NOT NULL AUTO_INCREMENT, b INT, KEY (b, a))",
        "CREATE TABLE t3 (a INT NOT NULL AUTO_INCREMENT, b INT, KEY (b, a)) ENGINE=MyISAM",
        "CREATE TABLE t4 (a INT NOT NULL AUTO_INCREMENT, b INT, UNIQUE (a))",
        "CREATE TABLE t5 (a INT NOT NULL AUTO_INCREMENT, b INT, KEY k (a, b)) ENGINE=Aria",
        "CREATE TABLE t6 (a INT NOT NULL AUTO_INCREMENT PRIMARY KEY, b INT NOT NULL AUTO_INCREMENT)",
        "CREATE TABLE t7 (id SERIAL, b INT)",
        "CREATE TABLE t8 (b INT, `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT, PRIMARY KEY (b, `Id`))",
        # a UNIQUE key over a whole TEXT/BLOB column is a hash key: no AUTO_INCREMENT column in it (4169)
        "CREATE TABLE t9 (id INT NOT NULL AUTO_INCREMENT, f TEXT NOT NULL, UNIQUE (id, f)) ENGINE=Aria",
        "CREATE TABLE t10 (id INT NOT NULL AUTO_INCREMENT, b BLOB NOT NULL, PRIMARY KEY (id), UNIQUE KEY (b, id))",
        "CREATE TABLE t11 (id INT NOT NULL AUTO_INCREMENT, b BLOB NOT NULL, PRIMARY KEY (id), UNIQUE KEY (b(10), id))",
        "CREATE TABLE t12 (id INT NOT NULL AUTO_INCREMENT, b BLOB NOT NULL, PRIMARY KEY (id), UNIQUE KEY (b))",
    ],
    "visible columns": [
        "CREATE TABLE t1 (f BLOB NOT NULL INVISIBLE)",
        "CREATE TABLE t2 (f INT INVISIBLE, g INT)",
        "CREATE TABLE t3 (f INT NOT NULL INVISIBLE, g INT)",
        "CREATE TABLE t4 (f INT NOT NULL DEFAULT 0 INVISIBLE, g INT)",
        "CREATE TABLE t5 (f INT INVISIBLE, g INT INVISIBLE)",
        "CREATE TABLE t6 (a INT)",
        "ALTER TABLE t6 ADD COLUMN b INT NOT NULL INVISIBLE",
        "ALTER TABLE t6 ADD COLUMN c INT NOT NULL DEFAULT 1 INVISIBLE",
        # the PRIMARY KEY makes a column NOT NULL: an INVISIBLE one needs a default (4108)
        "CREATE TABLE t7 (c CHAR(36) NOT NULL, d VARCHAR(8) NOT NULL, PRIMARY KEY (d, c)) ENGINE=Aria",
        "ALTER TABLE t7 MODIFY COLUMN c INT NULL INVISIBLE FIRST",
        "ALTER TABLE t7 MODIFY COLUMN c INT NULL DEFAULT 3 INVISIBLE",
        "ALTER TABLE t7 ADD COLUMN e INT INVISIBLE, DROP PRIMARY KEY, ADD PRIMARY KEY (e)",
        "CREATE TABLE t8 (a INT INVISIBLE, b INT, PRIMARY KEY (a))",
        "CREATE TABLE t9 (a INT, b INT, PRIMARY KEY (a))",
        "ALTER TABLE t9 DROP PRIMARY KEY, ADD PRIMARY KEY (a, b), MODIFY b INT INVISIBLE",
        "ALTER TABLE t9 CHANGE a a2 BIGINT INVISIBLE",
        "ALTER TABLE t9 CHANGE a a2 BIGINT INVISIBLE DEFAULT 0",
    ],
    "prefixes and TEXT keys": [
        "CREATE TABLE t1 (c INT, UNIQUE KEY (c(16)))",
        "CREATE TABLE t2 (c VARCHAR(8), KEY (c(9)))",
        "CREATE TABLE t3 (c VARCHAR(8), d DATETIME, KEY (c(4), d(2)))",
        "CREATE TABLE t4 (c VARBINARY(10), e TEXT, KEY (c(10)), KEY (e(100)))",
        "CREATE TABLE t7 (a MEDIUMTEXT, UNIQUE KEY (a))",
        "CREATE TABLE t8 (a INT, b VARCHAR(20), c TEXT)",
        "ALTER TABLE t8 ADD KEY (a(2))",
        "CREATE INDEX k ON t8 (b(21))",
        "CREATE INDEX k ON t8 (b(20), c(5))",
        "ALTER TABLE t8 ADD COLUMN d DATE, ADD KEY (d(2))",
        "ALTER TABLE t8 MODIFY b INT, ADD KEY kb (b(3))",
        # a prefix on a number or a date is refused unless it is the value's whole size (then dropped)
        "CREATE TABLE t9 (d DATE, KEY (d(3)))",
        "CREATE TABLE t10 (d DATE, KEY (d(2)))",
        "CREATE TABLE t11 (d TIME, e YEAR, KEY (d(1)), KEY (e(1)))",
        "CREATE TABLE t12 (d DECIMAL(10,2), KEY (d(3)))",
        "CREATE TABLE t13 (d ENUM('a','b'), s SET('a'), b BIT(8), KEY (d(1)), KEY (s(1)), KEY (b(1)))",
        "CREATE TABLE t14 (d BIGINT, KEY (d(8)))",
        "CREATE TABLE t15 (d DOUBLE, KEY (d(1)))",
        # no prefix in a SPATIAL key (1089); no prefix of 0 (1391)
        "CREATE TABLE t16 (g GEOMETRY NOT NULL, SPATIAL KEY (g(10)))",
        "CREATE TABLE t17 (g POINT NOT NULL, SPATIAL KEY (g(32))) ENGINE=MyISAM",
        "CREATE TABLE t18 (g POINT NOT NULL, SPATIAL KEY (g), b TEXT, FULLTEXT KEY (b(10)))",
        "CREATE TABLE t19 (a TEXT, KEY (a(0)))",
        "CREATE TABLE t20 (a INT, KEY (a(0)))",
        "ALTER TABLE t8 ADD KEY (c(0))",
        "ALTER TABLE t8 MODIFY b VARCHAR(5), ADD KEY (b(10))",
        "ALTER TABLE t8 ADD COLUMN e CHAR(4), ADD KEY (e(5))",
    ],
    "MEMORY tables": [
        "CREATE TABLE t1 (f TEXT) ENGINE=MEMORY",
        "CREATE TABLE t2 (f VARCHAR(9), FULLTEXT KEY (f)) ENGINE=MEMORY",
        "CREATE TABLE t3 (f VARCHAR(9), g TEXT) ENGINE=MyISAM",
        "CREATE TABLE t4 (f VARCHAR(9)) ENGINE=HEAP",
        "ALTER TABLE t4 ADD COLUMN g BLOB",
        "ALTER TABLE t4 ADD FULLTEXT KEY (f)",
        "ALTER TABLE t3 ENGINE=MEMORY",
        "ALTER TABLE t3 DROP COLUMN g, ENGINE=MEMORY",
        "CREATE TABLE t5 (a INT, b LONGTEXT)",
        "ALTER TABLE t5 ENGINE=MEMORY",
    ],
    "auto increment stays a key": [
        "CREATE TABLE t1 (id INT NOT NULL AUTO_INCREMENT, b INT, PRIMARY KEY (id), KEY (b, id))",
        "ALTER TABLE t1 DROP PRIMARY KEY",
        "ALTER TABLE t1 DROP PRIMARY KEY, ADD KEY (id)",
        "CREATE TABLE t2 (`Id` BIGINT NOT NULL AUTO_INCREMENT, b INT, UNIQUE KEY u (`Id`))",
        "ALTER TABLE t2 DROP KEY u",
        "ALTER TABLE t2 DROP KEY u, ADD PRIMARY KEY (b, `Id`)",
        "ALTER TABLE t2 DROP KEY u, ADD PRIMARY KEY (`Id`, b)",
        "CREATE TABLE t3 (a INT NOT NULL, b INT, KEY (b, a)) ENGINE=MyISAM",
        "ALTER TABLE t3 MODIFY a INT NOT NULL AUTO_INCREMENT",
        "CREATE TABLE t4 (a INT NOT NULL, b INT, KEY (b, a))",
        "ALTER TABLE t4 MODIFY a INT NOT NULL AUTO_INCREMENT",
        "ALTER TABLE t4 CHANGE b b INT NOT NULL AUTO_INCREMENT",
        "CREATE TABLE t5 (id INT NOT NULL AUTO_INCREMENT, PRIMARY KEY (id)) ENGINE=MyISAM",
        "ALTER TABLE t5 ADD COLUMN h SERIAL FIRST",  # a second one
        "ALTER TABLE t5 ADD COLUMN h BIGINT NOT NULL AUTO_INCREMENT, ADD KEY (h)",
        "ALTER TABLE t5 MODIFY id INT NOT NULL, ADD COLUMN h SERIAL",  # the first one is no longer one
    ],
    "a changed column and the keys on it": [
        "CREATE TABLE t1 (a VARCHAR(20), b INT, KEY (a(10)), UNIQUE KEY u (a(12)))",
        "ALTER TABLE t1 MODIFY a VARCHAR(5)",  # shorter than the prefixes: they go
        "CREATE TABLE t2 (a VARCHAR(20), KEY (a(10)))",
        "ALTER TABLE t2 MODIFY a INT",  # a number: the prefix goes
        "CREATE TABLE t3 (a VARCHAR(20) NOT NULL, PRIMARY KEY (a(10)))",
        "ALTER TABLE t3 MODIFY a TEXT NOT NULL",  # the prefix stays
        "CREATE TABLE t6 (a VARCHAR(20), b TEXT, FULLTEXT KEY (a, b))",
        "ALTER TABLE t6 MODIFY a INT",
        "ALTER TABLE t6 CHANGE b c DATE",
        "ALTER TABLE t6 MODIFY a CHAR(4), MODIFY b LONGTEXT",
        "CREATE TABLE t7 (a INT, b INT)",
        "ALTER TABLE t7 MODIFY a INT AFTER a",
        "ALTER TABLE t7 CHANGE a c INT AFTER c",
        "ALTER TABLE t7 MODIFY a INT AFTER b",
    ],
    "keys over a whole TEXT/BLOB column in other engines than InnoDB": [
        "CREATE TABLE a1 (c TEXT UNIQUE) ENGINE=Aria",  # Aria makes no hash of it: 1071
        "CREATE TABLE a2 (c TEXT UNIQUE) ENGINE=MyISAM",  # MyISAM does
        "CREATE TABLE a3 (c BLOB, UNIQUE KEY (c)) ENGINE=Aria",
        "CREATE TABLE a4 (c TEXT, KEY (c)) ENGINE=Aria",  # one part: cut to a prefix
        "CREATE TABLE a5 (c INT, d TEXT, KEY (c, d)) ENGINE=Aria",  # several: 1071
        "CREATE TABLE a6 (a INT, d TEXT NOT NULL, UNIQUE KEY ix_c (a, d)) ENGINE=Aria",
        "CREATE TABLE `B1` (c INT, d MEDIUMBLOB, KEY (c, d)) ENGINE=MyISAM",
        "CREATE TABLE b2 (c INT, d LONGTEXT, UNIQUE (c, d)) ENGINE=MyISAM",
        "CREATE TABLE b3 (d TEXT, PRIMARY KEY (d)) ENGINE=MyISAM",  # 1170
        "CREATE TABLE b4 (d TEXT, e TEXT, KEY (d(10), e)) ENGINE=MyISAM",
        "CREATE TABLE b5 (d TINYTEXT, UNIQUE (d)) ENGINE=Aria",
        "CREATE TABLE b6 (c INT, d TINYTEXT, KEY (c, d)) ENGINE=Aria",  # TINYTEXT fits
        "CREATE TABLE b7 (c INT NOT NULL, a TEXT NOT NULL, PRIMARY KEY (c, a)) ENGINE = Aria",
        "CREATE TABLE e1 (c INT, d TEXT) ENGINE=Aria",
        "ALTER TABLE e1 ADD KEY (c, d)",
        "ALTER TABLE e1 ADD UNIQUE (d)",
        "ALTER TABLE e1 ADD KEY (d)",
        "CREATE INDEX k2 ON e1 (d, c)",
        "CREATE TABLE e2 (c INT, d VARCHAR(10), KEY (c, d)) ENGINE=MyISAM",
        "ALTER TABLE e2 MODIFY d LONGTEXT",
        "ALTER TABLE e2 ENGINE=InnoDB",
        "CREATE TABLE e3 (c INT, d TEXT, UNIQUE (d)) ENGINE=MyISAM",
        "ALTER TABLE e3 ENGINE=Aria",
        "ALTER TABLE e3 ENGINE=InnoDB",
    ],
    "keys longer than MyISAM (1,000 bytes) and Aria (2,300) take": [
        'CREATE TABLE k1 (a VARCHAR(1200), PRIMARY KEY (a)) ENGINE=MyISAM',
        'CREATE TABLE k2 (a INT, b VARCHAR(1000), KEY (a, b)) ENGINE=MyISAM',
        'CREATE TABLE k3 (a INT, b VARCHAR(994), KEY (a, b)) ENGINE=MyISAM',
        'CREATE TABLE k4 (a VARCHAR(1200), UNIQUE (a)) ENGINE=MyISAM',
        'CREATE TABLE k5 (a VARCHAR(2400), PRIMARY KEY (a)) ENGINE=Aria',
        'CREATE TABLE k6 (a VARCHAR(2400), UNIQUE (a)) ENGINE=Aria',
        'CREATE TABLE k7 (b DATETIME NOT NULL, d VARCHAR(255) NOT NULL, PRIMARY KEY (b, d)) ENGINE = MyISAM DEFAULT CHARSET=utf8mb4',
        'CREATE TABLE k8 (a VARCHAR(1200), KEY (a)) ENGINE=Aria',
        'CREATE TABLE k9 (a INT, b VARCHAR(2400), KEY (a, b)) ENGINE=Aria',
        'CREATE TABLE k10 (a CHAR(250) NOT NULL, b CHAR(250) NOT NULL, c CHAR(250) NOT NULL, d CHAR(250) NOT NULL, PRIMARY KEY (a,b,c,d)) ENGINE=MyISAM',
        'CREATE TABLE k11 (a CHAR(250) NOT NULL, b CHAR(250) NOT NULL, c CHAR(250) NOT NULL, d CHAR(251) NOT NULL, PRIMARY KEY (a,b,c,d)) ENGINE=MyISAM',
        'CREATE TABLE m1 (a INT, b VARCHAR(500)) ENGINE=MyISAM DEFAULT CHARSET=utf8mb4',
        'ALTER TABLE m1 ADD KEY (a, b)',
        'ALTER TABLE m1 ADD KEY (b)',
        'ALTER TABLE m1 MODIFY b VARCHAR(200), ADD KEY kab (a, b)',
        'ALTER TABLE m1 MODIFY b VARCHAR(300)',
        'CREATE TABLE m2 (a INT, b VARCHAR(900), KEY (a, b)) ENGINE=InnoDB',
        'ALTER TABLE m2 ENGINE=MyISAM',
        'ALTER TABLE m2 ENGINE=Aria',
        "ALTER TABLE m2 ENGINE=MyISAM, MODIFY b VARCHAR(1000)",
        # USING BTREE: MyISAM makes no hash of a long UNIQUE key either
        "CREATE TABLE u1 (f VARCHAR(255), c INT, UNIQUE KEY uk_c USING BTREE (f(255), `c`)) ENGINE=Aria "
        "DEFAULT CHARSET=utf8mb4 ENGINE=MyISAM",
        "CREATE TABLE u2 (f VARCHAR(255), c INT, UNIQUE KEY uk_c (f(255), `c`)) ENGINE=MyISAM DEFAULT CHARSET=utf8mb4",
        "CREATE TABLE u3 (f TEXT, UNIQUE KEY u USING BTREE (f)) ENGINE=MyISAM",
        "CREATE TABLE u4 (f TEXT, UNIQUE KEY u (f) USING HASH) ENGINE=MyISAM",
        "ALTER TABLE u4 ADD UNIQUE u5 (f) USING BTREE",
    ],
    "FULLTEXT on a type it cannot index, added by ALTER or CREATE INDEX": [
        "CREATE TABLE t1 (b BLOB NOT NULL, c VARCHAR(10)) ENGINE=InnoDB",
        "ALTER TABLE t1 ADD FULLTEXT KEY ix_c (b)",
        "ALTER TABLE t1 ADD FULLTEXT (c), ADD FULLTEXT f2 (b)",
        "CREATE FULLTEXT INDEX fx ON t1 (c, b)",
        "CREATE TABLE T2 (`Body` MEDIUMBLOB, n INT, t TEXT) ENGINE=MyISAM",
        "ALTER TABLE T2 ADD FULLTEXT (`n`)",
        "CREATE FULLTEXT INDEX ok ON T2 (t)",
        "ALTER TABLE T2 ADD FULLTEXT INDEX (Body)",
    ],
    "a key naming one column twice (1060)": [
        "CREATE TABLE a1 (b INT NOT NULL, PRIMARY KEY (b, b))",
        "CREATE TABLE a2 (b INT, c INT, KEY (c, b))",
        "CREATE TABLE a3 (b INT, c INT, KEY (c, b, c))",
        "CREATE TABLE a4 (b INT NOT NULL, c INT)",
        "ALTER TABLE a4 ADD UNIQUE (b, c, b)",
        "CREATE INDEX i ON a4 (b, `B`)",
        "ALTER TABLE a4 ADD KEY (`c`, c), ADD COLUMN d INT",
        "CREATE TABLE a5 (b VARCHAR(10), KEY (b(2), b(3)))",
        "CREATE TABLE a6 (b VARCHAR(10), FULLTEXT KEY (b, B)) ENGINE=MyISAM",
        "CREATE TABLE a7 (b VARCHAR(10), c INT, UNIQUE KEY u (c, b(4)), KEY (b, c))",
    ],
    "FULLTEXT in a temporary InnoDB table (1796)": [
        "CREATE TEMPORARY TABLE t1 (c VARCHAR(10), FULLTEXT KEY (c)) ENGINE=InnoDB",
        "CREATE TEMPORARY TABLE t2 (c VARCHAR(10), FULLTEXT KEY (c)) ENGINE=MyISAM",
        "CREATE TEMPORARY TABLE t3 (c VARCHAR(10), d TEXT)",
        "ALTER TABLE t3 ADD FULLTEXT (c)",
        "CREATE FULLTEXT INDEX f ON t3 (d, c)",
        "ALTER TABLE t3 ADD KEY (c)",
        "CREATE TEMPORARY TABLE t4 (c TEXT) ENGINE=Aria",
        "ALTER TABLE t4 ADD FULLTEXT (c)",
        "CREATE TABLE t5 (c VARCHAR(10), FULLTEXT (c))",
        "CREATE TEMPORARY TABLE t6 (c TEXT, FULLTEXT f (c))",
    ],
    "CREATE ... SELECT: a NOT NULL column the SELECT leaves empty (1364), AUTO_INCREMENT outside a key (1075)": [
        "CREATE TABLE src (a INT NOT NULL, b INT, c INT INVISIBLE)",
        "CREATE TABLE s1 (a INT NOT NULL) SELECT 1 AS b",
        "CREATE TABLE s2 (a INT NOT NULL DEFAULT 1) SELECT b FROM src",
        "CREATE TABLE s3 (a INT NOT NULL) SELECT a FROM src",
        "CREATE TABLE s4 (a INT NOT NULL AUTO_INCREMENT) SELECT 1 AS b",
        "CREATE TABLE s5 (a INT NOT NULL AUTO_INCREMENT, KEY (a)) SELECT b FROM src",
        "CREATE TABLE s6 (a TEXT NOT NULL) SELECT 1 AS b FROM DUAL WHERE 0",
        "CREATE TABLE s7 (a INT NOT NULL) SELECT * FROM src",
        "CREATE TABLE s8 (`C` VARCHAR(3) NOT NULL) SELECT * FROM src",
        "CREATE TABLE s9 (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY) AS SELECT a FROM src",
        "CREATE TABLE s10 (e ENUM('x') NOT NULL, b INT NOT NULL) SELECT b AS e, a FROM src",
        "CREATE TABLE s11 (f INT NOT NULL) SELECT a AS b FROM src",
        "CREATE TABLE s12 (g INT NOT NULL AUTO_INCREMENT, h INT AUTO_INCREMENT, KEY (g)) SELECT a FROM src",
    ],
    "ADD period, DROP system: MariaDB reads PERIOD FOR / SYSTEM VERSIONING": [
        "CREATE TABLE v1 (a INT NOT NULL PRIMARY KEY, period INT, `system` INT, versioning INT)",
        "ALTER TABLE v1 ADD period2 INT, DROP period",  # 1064
        "ALTER TABLE v1 ADD system INT",  # 1064
        "ALTER TABLE v1 ADD COLUMN `Period` INT",  # 1060: a column of that name exists
        "ALTER TABLE v1 DROP COLUMN period, DROP `system`, DROP versioning",
        "ALTER TABLE v1 ADD IF NOT EXISTS period INT, ADD COLUMN system INT",
        "ALTER TABLE v1 DROP IF EXISTS period, ADD `Period` BIGINT",
    ],
    "SET DEFAULT NULL on a column a PRIMARY KEY makes NOT NULL": [
        "CREATE TABLE w1 (d VARCHAR(191), f VARCHAR(32), c INT)",
        "ALTER TABLE w1 ALTER COLUMN f SET DEFAULT NULL, ADD PRIMARY KEY (d(191), f(32))",  # 1067
        "ALTER TABLE w1 ADD PRIMARY KEY (c), ALTER c SET DEFAULT NULL",  # 1067
        "ALTER TABLE w1 MODIFY c INT DEFAULT NULL, ADD PRIMARY KEY (c)",
        "ALTER TABLE w1 ALTER c SET DEFAULT NULL",  # 1067: c is NOT NULL now
        "ALTER TABLE w1 ALTER d SET DEFAULT NULL, ADD UNIQUE (d)",
    ],
    "a long UNIQUE key in MEMORY (no hash: 1910)": [
        "CREATE TABLE m1 (f DATETIME, d VARCHAR(800) CHARSET utf8mb4, UNIQUE KEY uk (f, d(800))) ENGINE=MEMORY",  # 1910
        "CREATE TABLE m2 (d VARCHAR(800) CHARSET latin1, UNIQUE KEY (d)) ENGINE=MEMORY",
        "CREATE TABLE m3 (d VARCHAR(800) CHARSET utf8mb4, KEY (d)) ENGINE=HEAP",  # cut to d(768)
        "CREATE TABLE m4 (d TEXT, UNIQUE KEY (d)) ENGINE=InnoDB",  # a hash
        "ALTER TABLE m4 ENGINE=MEMORY",  # 1910 (1163 too: MEMORY holds no TEXT)
        "CREATE TABLE m5 (d VARCHAR(800) CHARSET utf8mb4, UNIQUE KEY (d)) ENGINE=Aria",
        "ALTER TABLE m5 ENGINE=MEMORY",  # 1910
        "ALTER TABLE m3 ADD UNIQUE (d)",  # 1910
        "ALTER TABLE m2 MODIFY d VARCHAR(800) CHARSET utf8mb4",  # 1910
        "CREATE TABLE m6 (d VARCHAR(800) CHARSET utf8mb4, UNIQUE KEY (d) USING HASH) ENGINE=MEMORY",  # its own hash
        "ALTER TABLE m2 ENGINE=InnoDB, MODIFY d VARCHAR(800) CHARSET utf8mb4",
    ],
    "a key part on a column CREATE ... SELECT defines": [
        "CREATE TABLE s1 (a INT, KEY (a(8))) SELECT 1 AS b",  # 1089: a prefix on a number
        "CREATE TABLE s3 (a VARCHAR(4), KEY (a(8))) SELECT 2 AS a",  # 1089: longer than the column
        "CREATE TABLE s4 (a VARCHAR(9), UNIQUE (a(0))) SELECT 'q' AS b",  # 1391
        "CREATE TABLE s5 (a VARCHAR(9), KEY (a(4))) SELECT 'q' AS a",
        # ... and what the engine cannot hold (fuzz seed 373)
        "CREATE TABLE s6 (f TEXT) ENGINE=MEMORY SELECT 'a;b' AS s",  # 1163
        "CREATE TABLE s7 (n INT, FULLTEXT KEY (g)) ENGINE=HEAP SELECT 'x' AS g",  # 1214
        "CREATE TABLE s8 (n INT, v VARCHAR(9)) ENGINE=MEMORY SELECT 1 AS n, 'x' AS v",
    ],
    "MEMORY's key length, and an ENGINE= meeting the keys the table has": [
        "CREATE TABLE e1 (c VARCHAR(20000) NOT NULL, a VARCHAR(8) NOT NULL, PRIMARY KEY (a(4), c(20000))) ENGINE=MEMORY",
        "CREATE TABLE e2 (id INT NOT NULL, a VARCHAR(800) NOT NULL, PRIMARY KEY (id)) ENGINE=MyISAM CHARSET=utf8mb4",
        "ALTER TABLE e2 ENGINE=MEMORY",
        "ALTER TABLE IF EXISTS e2 ADD KEY (id, a)",  # 1071: 3,204 bytes
        "CREATE TABLE e3 (a JSON NOT NULL, d VARCHAR(255) CHARSET utf8mb4 NOT NULL, PRIMARY KEY (d, a(8)))",
        "ALTER TABLE e3 ENGINE=MyISAM",  # 1071: 1,052 bytes
        "CREATE TABLE e4 (d VARCHAR(2000) CHARSET utf8mb4, KEY (d)) ENGINE=HEAP",  # cut
        "CREATE TABLE e5 (d VARCHAR(700) CHARSET utf8mb4, e INT, KEY (d, e)) ENGINE=MEMORY",  # 2,804 bytes
        "CREATE TABLE e6 (d VARCHAR(300) CHARSET utf8mb4, e VARCHAR(300) CHARSET utf8mb4, KEY (d, e))",
        "ALTER TABLE e6 ENGINE=MyISAM",  # 1071
    ],
    # MariaDB keeps a DEFAULT NULL an ALTER gave a TEXT/BLOB as a value, which a PRIMARY KEY added later
    # (it makes the column NOT NULL) is refused over, through renames, copies and rebuilds; one written
    # in a definition, and any such default on other types, is not (fuzz seed 352)
    "a DEFAULT NULL an ALTER gave a TEXT/BLOB, then a PRIMARY KEY over it": [
        "CREATE TABLE n1 (body MEDIUMTEXT, k INT)",
        "ALTER TABLE n1 ALTER COLUMN body SET DEFAULT NULL",
        "ALTER TABLE n1 ADD COLUMN z INT",
        "ALTER TABLE n1 ADD PRIMARY KEY (k, body(10))",  # 1067
        "CREATE TABLE n2 LIKE n1",
        "ALTER TABLE n2 RENAME COLUMN body TO doc, CONVERT TO CHARACTER SET utf8mb4",
        "ALTER TABLE n2 ADD CONSTRAINT PRIMARY KEY (doc(4))",  # 1067
        "CREATE TABLE n3 (PRIMARY KEY (body(6))) SELECT body FROM n1",  # 1067
        "CREATE TABLE n4 (body TEXT, PRIMARY KEY (body(6))) SELECT * FROM n1",  # the definition's column
        "CREATE TABLE n5 (j JSON, b TINYBLOB, v VARCHAR(9), t TEXT DEFAULT NULL)",
        "ALTER TABLE n5 ALTER j SET DEFAULT (NULL), ALTER v SET DEFAULT NULL, ALTER b SET DEFAULT null",
        "ALTER TABLE n5 ADD PRIMARY KEY (v, t(3))",  # a VARCHAR, and a TEXT DEFAULT NULL as defined
        "ALTER TABLE n5 DROP PRIMARY KEY, ADD PRIMARY KEY (j(5))",  # 1067
        "ALTER TABLE n5 DROP PRIMARY KEY, ADD PRIMARY KEY (b(5)), ALTER b DROP DEFAULT",  # the default gone
        "CREATE TABLE n6 (c LONGBLOB, d LONGTEXT, e BLOB)",
        "ALTER TABLE n6 ALTER c SET DEFAULT NULL, ALTER d SET DEFAULT NULL, ALTER e SET DEFAULT NULL",
        "ALTER TABLE n6 ALTER c SET DEFAULT 'x', MODIFY d LONGTEXT",
        "ALTER TABLE n6 ADD PRIMARY KEY (c(2), d(2))",  # both redefined since
        "ALTER TABLE n6 DROP PRIMARY KEY, ADD UNIQUE (e(3))",
        "ALTER TABLE n6 ADD PRIMARY KEY (e(3))",  # 1067
    ],
    # an AUTO_INCREMENT column takes a default from ALTER COLUMN ... SET DEFAULT (judged as any column's),
    # which the server keeps unused and a CREATE ... SELECT copy shows; its definition may not have one
    # (fuzz seed 406)
    "ALTER COLUMN ... SET DEFAULT of an AUTO_INCREMENT column": [
        "CREATE TABLE a1 (id BIGINT NOT NULL AUTO_INCREMENT, d TINYINT(1), PRIMARY KEY (id))",
        "ALTER TABLE a1 ALTER id SET DEFAULT 1",
        "ALTER TABLE a1 ALTER COLUMN id SET DEFAULT 7, CHANGE d f SMALLINT FIRST",
        "ALTER TABLE a1 ALTER id SET DEFAULT NULL",  # 1067: NULL in a NOT NULL column
        "ALTER TABLE a1 ALTER id SET DEFAULT 'abc'",  # 1067
        "ALTER TABLE a1 ALTER id SET DEFAULT 99999999999999999999999",  # 1067
        "CREATE TABLE a2 SELECT * FROM a1",  # id BIGINT NOT NULL DEFAULT 7
        "ALTER TABLE a1 MODIFY id BIGINT NOT NULL AUTO_INCREMENT DEFAULT 2",  # 1067
        "CREATE TABLE a3 (Seq INT UNSIGNED AUTO_INCREMENT UNIQUE, note VARCHAR(10))",
        "ALTER TABLE a3 MODIFY Seq INT UNSIGNED NOT NULL AUTO_INCREMENT FIRST, ALTER Seq SET DEFAULT 3",
        "ALTER TABLE a3 ALTER Seq SET DEFAULT -1",  # 1067: out of range
        "ALTER TABLE a3 RENAME COLUMN Seq TO seq2",
        "CREATE TABLE a4 LIKE a3",
        "CREATE TABLE a5 AS SELECT * FROM a4",
        "ALTER TABLE a5 ADD PRIMARY KEY (seq2)",
        "CREATE TABLE a6 (k INT PRIMARY KEY)",
        "ALTER TABLE a6 ADD COLUMN x INT NOT NULL AUTO_INCREMENT UNIQUE, ALTER x SET DEFAULT 3",
        "ALTER TABLE a6 ALTER x DROP DEFAULT",
        "CREATE TABLE a7 (id INT AUTO_INCREMENT PRIMARY KEY DEFAULT 1)",  # 1067
    ],
    # MariaDB's grammar for a column: its CHECK (one, with no CONSTRAINT before it) comes last, then at
    # most one REFERENCES clause, which ends it; MySQL 8.0.16+ takes any order, and CONSTRAINT
    "a column's CHECK and REFERENCES come last on MariaDB": [
        "CREATE TABLE h0 (id INT PRIMARY KEY)",
        "CREATE TABLE h1 (qty INT CONSTRAINT CHECK (qty > 0))",  # 1064
        "CREATE TABLE h2 (id INT PRIMARY KEY, price DECIMAL(8,2) NOT NULL\n  CONSTRAINT `ck_price` CHECK (price >= 0))",  # 1064
        "CREATE TABLE h3 (n INT CHECK (n > 0) CHECK (n < 9))",  # 1064
        "CREATE TABLE h4 (r INT CONSTRAINT fk_r REFERENCES h0 (id), s INT COMMENT 'constraint' CHECK (s <> 1),"
        " CONSTRAINT ck_s CHECK (s < 10))",
        "ALTER TABLE h4 MODIFY s INT CONSTRAINT CHECK (s > 2)",  # 1064
        "ALTER TABLE h4 ADD COLUMN t VARCHAR(3) CONSTRAINT ck_t CHECK (t <> 'x')",  # 1064
        "ALTER TABLE h4 CHANGE r r2 INT CHECK (r2 > 0), ADD u INT CHECK (u > 0) FIRST",
        "CREATE TABLE h5 (v VARCHAR(5) CHECK (v <> '') COLLATE latin1_bin)",  # 1064
        "CREATE TABLE h6 (w INT CHECK (w >= 0) NOT NULL DEFAULT 0)",  # 1064
        "CREATE TABLE h7 (x INT REFERENCES h0 (id) ON DELETE CASCADE COMMENT 'parent')",  # 1064
        "CREATE TABLE h8 (y INT REFERENCES h0 (id) CHECK (y > 0))",  # 1064
        "CREATE TABLE h9 (z INT NOT NULL DEFAULT 1 COMMENT 'z' CHECK (z > 0) REFERENCES h0 (id) MATCH FULL\n"
        "  ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY (z))",
        "ALTER TABLE h9 ADD COLUMN k INT CHECK (k > 0) UNIQUE",  # 1064
        "ALTER TABLE h4 ADD COLUMN m INT REFERENCES h0 (id) AFTER s",
    ],
    # a FULLTEXT key on a column the binary character set makes VARBINARY or a BLOB (fuzz seed 390)
    "FULLTEXT on a column the binary character set makes binary": [
        "CREATE TABLE f4 (d VARCHAR(32), FULLTEXT KEY ix_a (d)) ENGINE=InnoDB DEFAULT CHARACTER SET=utf8",
        "ALTER TABLE f4 CONVERT TO CHARACTER SET binary",  # 1283
        "CREATE TABLE f5 (d TEXT, e CHAR(3), FULLTEXT KEY (e, d)) ENGINE=MyISAM",
        "ALTER TABLE f5 CONVERT TO CHARACTER SET binary, ADD x INT",  # 1283
        "ALTER TABLE f5 CONVERT TO CHARACTER SET utf8mb4",
        "CREATE TABLE f6 (d TEXT, FULLTEXT KEY (d)) CHARSET binary",  # 1283
        "CREATE TABLE f7 (d TEXT, q INT, FULLTEXT KEY (d))",
        "ALTER TABLE f7 MODIFY d TEXT, DEFAULT CHARSET binary",  # 1283
        "ALTER TABLE f7 CONVERT TO CHARACTER SET binary, DROP INDEX d",
    ],
    "TYPE= is not ENGINE=": [
        "CREATE TABLE t1 (d INT) TYPE=InnoDB",
        "CREATE TABLE t2 (d INT) ENGINE=MyISAM",
        "ALTER TABLE t2 TYPE=InnoDB",
        # ... also where a SELECT gives the columns (fuzz seed 411: a `;` missing before a SELECT)
        "CREATE TABLE t3 (a INT NOT NULL DEFAULT 0) TYPE=InnoDB\nSELECT '/* not a comment' AS s",
        "CREATE TABLE t4 type = MyISAM SELECT 1 AS one",
        "CREATE TABLE t5 ENGINE=InnoDB AS SELECT d FROM t2",
    ],
}


@pytest.mark.parametrize("case", CASES)
def test_refused_as_mariadb_refuses(mariadb: Any, case: str) -> None:
    statements = CASES[case]
    refused, permanent, _ = _server(mariadb, "refusals_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="refusals_oracle")
    context = "\n".join(f"{n}: {s}" for n, s in enumerate(statements)) + "\ninnolint said:\n" + "\n".join(messages)
    assert refused, "the case shows nothing the server refuses"
    assert reported == refused, context
    assert model == permanent, context


def test_create_select_from_a_table_that_is_not_there(mariadb: Any) -> None:
    """CREATE TABLE ... SELECT reads its first table: when the input never made it (nor a view of
    that name), the server refuses it (1146)."""
    statements = ["CREATE TABLE t1 AS SELECT * FROM t3", "CREATE TABLE t2 (a INT)",
                  "CREATE TABLE t4 SELECT a FROM t2 WHERE a > 0", "CREATE TABLE `T5` (PRIMARY KEY (a)) AS SELECT * FROM T2",
                  "CREATE VIEW v1 AS SELECT 1 AS x", "CREATE TABLE t6 AS SELECT * FROM v1",
                  "CREATE TABLE t7 AS SELECT 1 AS x", "CREATE TABLE t8 IGNORE SELECT x FROM (SELECT 1 AS x) d",
                  "CREATE TABLE t9 AS SELECT TABLE_NAME FROM information_schema.TABLES LIMIT 1"]
    refused, permanent, _ = _server(mariadb, "refusals_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="refusals_oracle")
    assert refused == {0, 3}
    assert reported == refused, messages
    assert set(model) == set(permanent) - {"v1"}  # (the server lists the view with the tables)


def test_alter_table_of_a_view_is_refused_if_exists_or_not(mariadb: Any) -> None:
    """ALTER TABLE [IF EXISTS] of a view: 1347 (fuzz seed 355)."""
    statements = ["CREATE VIEW v1 AS SELECT 1 AS x", "ALTER TABLE IF EXISTS v1 ADD KEY (x)", "ALTER TABLE v1 ENGINE=InnoDB",
                  "ALTER TABLE IF EXISTS v2 ADD KEY (x)", "CREATE TABLE t1 (x INT)"]
    refused, permanent, _ = _server(mariadb, "refusals_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="refusals_oracle")
    assert refused == {1, 2}
    assert reported == refused, messages
    assert set(model) == set(permanent) - {"v1"}  # (the server lists the view with the tables)


def test_more_definitions_the_server_refuses(mariadb: Any) -> None:
    statements = [
        "CREATE TABLE t1 (PRIMARY KEY (id))",  # no column at all (1113)
        "CREATE TABLE t2 (UNIQUE (`id`)) ENGINE=Aria",
        "CREATE TABLE t3 (d INT, FULLTEXT KEY ix (d)) ENGINE=InnoDB",  # 1283
        "CREATE TABLE t4 (a BLOB, FULLTEXT KEY (a))",
        "CREATE TABLE t5 (a TEXT, b VARCHAR(9), FULLTEXT KEY (b, a)) ENGINE=MyISAM",
        "CREATE TABLE t6 (d VARCHAR(8) DEFAULT '/* not a comment' /* it's */)",  # 1067, a comment after it
        "CREATE TABLE t7 (d VARCHAR(8) DEFAULT 'short' -- it's\n)",
        "CREATE TABLE t8 AS SELECT * FROM t7", "CREATE TABLE t9 LIKE t8",
    ]
    refused, permanent, _ = _server(mariadb, "refusals_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="refusals_oracle")
    assert refused == {0, 1, 2, 3, 5}
    assert reported == refused, messages
    assert set(model) == set(permanent)


@pytest.mark.parametrize("names", [("v1", "t1", "t2"), ("Orders", "order_items", "x")])
def test_views_and_tables_share_one_namespace(mariadb: Any, names: tuple[str, str, str]) -> None:
    v, t, u = names
    statements = [
        f"CREATE TABLE {t} (a INT)", f"CREATE VIEW {t} AS SELECT 1 AS x",  # a table has the name
        f"CREATE VIEW {v} AS SELECT 1 AS x", f"CREATE TABLE {v} (a INT)", f"CREATE TABLE IF NOT EXISTS {v} (a INT)",
        f"CREATE VIEW {v} AS SELECT 2 AS x", f"CREATE OR REPLACE VIEW {v} AS SELECT 2 AS x",
        f"RENAME TABLE {t} TO {v}", f"RENAME TABLE {v} TO {u}", f"CREATE TABLE {v} (b INT)",
        f"DROP VIEW IF EXISTS {u}", f"CREATE TABLE {u} (c INT)", f"DROP VIEW {u}",
    ]
    refused, permanent, _ = _server(mariadb, "refusals_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="refusals_oracle")
    assert refused == {1, 3, 5, 7, 12}
    assert reported == refused, messages
    assert model == permanent


def test_a_mysqldump_view_stand_in_not_dropped_stays_a_table() -> None:
    """mysqldump's stand-in (`/*!50001 CREATE TABLE v`) is dropped before its view is made; in a
    dump that lost the DROP (--skip-add-drop-table) the server refuses the view (1050) and keeps
    the stand-in: innolint does the same and says why at the view (tests/test_view_namespace.py
    asks MariaDB)."""
    replayer = Replayer(target=Target.parse("mariadb-10.11"))
    replayer.apply(ops.SchemaStatement("use", "db"), Location("s.sql", 1))
    cache = ParseCache()
    assert replayer.apply(cache.parse("CREATE TABLE v (a int)"), Location("s.sql", 2), executable="50001") is None
    message = replayer.apply(cache.parse("CREATE VIEW v AS SELECT 1 AS a"), Location("s.sql", 3))
    assert message is not None and "stand-in" in message.message and message.errno == 1050 and "s.sql:2" in message.message
    assert list(replayer.model.find_schema("db").tables) == ["v"]  # type: ignore[union-attr]


def _temporal_numbers(rng: random.Random) -> list[str]:
    """Numbers as a schema writes them for a temporal default: the date and time shapes the
    server reads (YYMMDD, YYYYMMDD, YYMMDDhhmmss, YYYYMMDDhhmmss, HHMMSS), their borders, and
    digits that fit none; some with a fraction, a sign or an exponent."""
    shapes = ["{y2:02}{m:02}{d:02}", "{y4:04}{m:02}{d:02}", "{y2:02}{m:02}{d:02}{h:02}{i:02}{s:02}",
              "{y4:04}{m:02}{d:02}{h:02}{i:02}{s:02}", "{h}{i:02}{s:02}", "{i}{s:02}", "{s}", "{y4}"]
    numbers = ["0", "101", "100", "691231", "700101", "991231", "1000000", "10000101", "99991231",
               "101000000", "8385959", "8385960", "19700101000001", "20380119031407", "99999999999999",
               "100000000000000", "1901", "2155", "2156", "99", "-0"]
    for _ in range(150):
        fields = {"y2": rng.randrange(100), "y4": rng.choice([rng.randrange(10000), rng.randrange(1960, 2050)]),
                  "m": rng.choice([rng.randrange(13), rng.randrange(32)]),
                  "d": rng.choice([rng.randrange(1, 29), rng.randrange(32), 29, 30, 31]),
                  "h": rng.choice([rng.randrange(24), rng.randrange(100)]),
                  "i": rng.randrange(61), "s": rng.randrange(61)}
        number = rng.choice(shapes).format(**fields).lstrip("0") or "0"
        decoration = rng.random()
        if decoration < 0.15:
            number += f".{rng.randrange(10)}"
        elif decoration < 0.2:
            number = "-" + number
        elif decoration < 0.25:
            number = f"{number}e0"
        numbers.append(number)
    return numbers


@pytest.mark.parametrize("seed", [1, 2])
def test_numbers_as_temporal_defaults_as_mariadb_reads_them(mariadb: Any, seed: int) -> None:
    """A number is read as a date or time by its digits' places (linter/server/temporal_numbers.py):
    generated numbers for each temporal type, in CREATE TABLE and in ALTER ... SET DEFAULT (where
    the fuzz found it). What innolint refuses, the server refuses; what the server refuses and
    innolint keeps is only what innolint says it does not judge (a TIMESTAMP in 1970 or 2038, a
    TIME the servers read differently)."""
    rng = random.Random(seed)
    kinds = ("DATE", "DATETIME", "TIMESTAMP", "TIME", "YEAR", "DATETIME(3)")
    statements = [f"CREATE TABLE base (id INT PRIMARY KEY, {', '.join(f'c{n} {k} NULL' for n, k in enumerate(kinds))})"]
    cases: list[tuple[str, str]] = []
    for number in _temporal_numbers(rng):
        n = rng.randrange(len(kinds))
        kind = kinds[n]
        cases.append((kind.split("(")[0], number))
        if rng.random() < 0.5:
            statements.append(f"CREATE TABLE t{len(statements)} (a INT, b {kind} DEFAULT {number})")
        else:
            statements.append(f"ALTER TABLE base ALTER c{n} SET DEFAULT {number}")
    refused, permanent, _ = _server(mariadb, "refusals_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="refusals_oracle")
    context = "\n".join(f"{n}: {s}" for n, s in enumerate(statements) if n in refused ^ reported)
    assert reported <= refused, context
    unjudged = {n for n, (kind, number) in enumerate(cases, start=1) if number_default_refused(kind, number) is None}
    assert refused - reported <= unjudged, context
    assert len(refused) > len(statements) // 4 and len(unjudged) < len(statements) // 20
    assert set(model) == set(permanent)


#: an ALTER that changes the engine builds every key again, in the new engine (fuzz seed 364); the
#: refusals of InnoDB's key length are the index-key-length check's, so the whole engine judges
ENGINE_MOVES = """CREATE TABLE g1 (b BIGINT NOT NULL, PRIMARY KEY (b)) ENGINE=Aria;
ALTER TABLE g1 ENGINE=InnoDB, MODIFY b TEXT;
CREATE TABLE g2 (c VARCHAR(8) NOT NULL, b BIGINT NOT NULL, PRIMARY KEY (b), KEY ix (c(4))) ENGINE=MyISAM;
ALTER TABLE g2 DROP c, ENGINE=InnoDB, CHANGE COLUMN b b MEDIUMTEXT COMMENT 'x';
CREATE TABLE g3 (id INT NOT NULL, v VARCHAR(300) CHARSET utf8mb4 NOT NULL, PRIMARY KEY (id, v));
ALTER TABLE g3 ENGINE=MyISAM, ADD COLUMN z INT;
ALTER TABLE g3 ADD COLUMN w INT, ENGINE=Aria;
CREATE TABLE g4 (b BIGINT NOT NULL, PRIMARY KEY (b)) ENGINE=MyISAM;
ALTER TABLE g4 ENGINE=InnoDB, MODIFY b VARCHAR(100) NOT NULL;
CREATE TABLE g5 (k VARCHAR(20) NOT NULL, UNIQUE KEY uk (k)) ENGINE=Aria;
ALTER TABLE g5 MODIFY k VARCHAR(1100) CHARSET utf8mb4 NOT NULL, ENGINE=InnoDB;
"""


def test_keys_are_judged_in_the_engine_an_alter_moves_the_table_to(mariadb: Any) -> None:
    with D.judging_sides(mariadb, "engine_moves") as sides:
        judged = D.judge(*sides, ENGINE_MOVES)
    assert not judged.differences, judged
    assert set(judged.refused) == {2, 4, 6}, judged
    assert set(judged.said) >= {2, 4, 6}, judged
