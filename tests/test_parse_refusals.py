"""Text the server's parser refuses (1064) that innolint read: a statement whose `;` was left out
before a non-DDL line (`FLUSH TABLES`, `DO 1`, `USE d2`, `SET @x = 1`, a DELIMITER line the mariadb
client sends as part of it), a word that is no table option, a quoted string where a name is
required (unless ANSI_QUOTES), and attributes the type SERIAL does not take. Each is judged by the
real `mariadb` client and server: innolint builds the server's tables and reports each refused
statement (parse-error) at its lines; the forms the server accepts stay accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.mariadb import MariaDB
from tests.splitting import client_tables, replay_text

#: (script, the first line of each statement the server refuses; a missing `;` is reported at the
#: line after it)
REFUSED = [
    # a `;` left out before a line the server then reads as part of the statement
    ("CREATE TABLE a1 (e INT NOT NULL) DEFAULT CHARACTER SET=utf8\nDO 1;\n", [1]),
    ("/*!50001 CREATE TABLE a2 (e INT NOT NULL) DEFAULT CHARACTER SET=utf8 */\nDO 1;\n", [1]),
    ("CREATE TABLE a3 (f INTEGER) ENGINE=innodb\nFLUSH TABLES;\n", [1]),
    ("CREATE TABLE a4 (a INT NOT NULL)\nUSE t_b;\nCREATE TABLE a5 (a int);\n", [1]),
    ("CREATE TABLE a6 (a INT) COMMENT 'x'\nSET @x = 1;\n", [1]),
    ("CREATE TABLE a7 (a INT)\nSET NAMES utf8mb4;\n", [1]),
    ("CREATE TABLE a8 (a INT) ENGINE=MyISAM\nSTART TRANSACTION;\n", [1]),
    ("CREATE TABLE a9 (a INT)\nCOMMIT;\n", [1]),
    ("CREATE TABLE b1 (`d` TEXT) ENGINE = Aria\nDELIMITER $$\nCREATE TABLE b2 (a int)$$\n", [1]),
    ("CREATE TABLE b3 (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY)\nDELIMITER //\n", [1]),
    ("CREATE TABLE b4 (a int);\nCREATE INDEX ix ON b4 (a)\nSELECT 1;\nALTER TABLE b4 ADD COLUMN b INT\nDO 1;\n", [2, 4]),
    ("CREATE TABLE b5 (a int);\nDROP TABLE IF EXISTS b5\nFLUSH TABLES;\nRENAME TABLE b5 TO b6\nUSE t_b;\n", [2, 4]),
    ("CREATE TABLE b7 (a int);\nALTER TABLE b7 ENGINE=InnoDB\nSET foreign_key_checks = 0;\n", [2]),
    ("CREATE TABLE b8 (a int) ENGINE=InnoDB DO 1;\n", [1]),
    # ... before a line of dynamic SQL or a CALL (found by the fuzz, seed 61)
    ("CREATE TABLE f1 (d VARCHAR(8));\n/*!50100 CREATE UNIQUE INDEX cx ON f1 (d) */\nEXECUTE IMMEDIATE 'DO 1';\n", [2]),
    ("CREATE TABLE f2 (a INT)\nCALL nothing();\n", [1]),
    ("CREATE TABLE f3 (a INT);\nALTER TABLE f3 ADD b INT\nPREPARE s FROM 'DO 1';\nDEALLOCATE PREPARE s;\n", [2]),
    ("CREATE TABLE f4 (a INT);\nDROP TABLE f4\n  DEALLOCATE PREPARE s;\nCREATE TABLE f5 (a INT)\nEXECUTE s;\n", [2, 4]),
    # ... with comments between the words that start the statement (found by the fuzz, seeds 101-102)
    ("CREATE TABLE g1 (a INT)\nCREATE # c\n TEMPORARY /* x */ TABLE g2 (b int);\n", [1]),
    ("CREATE TABLE g3 (id INT NOT NULL AUTO_INCREMENT, UNIQUE (id))\nSTART /* */ TRANSACTION;\n", [1]),
    ("CREATE TABLE g4 (h INT NOT NULL);\nALTER TABLE g4 ADD PRIMARY KEY (h)\nalter -- note ;\nTABLE g4 DROP INDEX ix;\n",
     [2]),
    # ... before a SELECT line, which goes on no ALTER, DROP or RENAME (found by the fuzz, seed 111)
    ("CREATE TABLE h1 (f INT NOT NULL);\nALTER TABLE h1 ADD UNIQUE (f)\nSELECT 1 FROM DUAL WHERE 1 = 0;\n", [2]),
    ("CREATE TABLE h2 (a int);\nRENAME TABLE h2 TO h3\n  select a FROM h3;\n", [2]),
    # ... before a line that starts a statement among a key's options (found by the fuzz, seed 203)
    ("CREATE TABLE i1 (c INT NOT NULL, KEY ix (c)) ENGINE=MEMORY;\nALTER TABLE i1 ADD UNIQUE KEY uk_b (c)\n"
     "DROP INDEX ix ON i1;\n", [2]),
    ("CREATE TABLE i2 (c INT, d INT);\nCREATE INDEX k ON i2 (c) COMMENT 'x'\n  drop index k ON i2;\n", [2]),
    ("CREATE TABLE i3 (c INT);\nALTER TABLE i3 ADD KEY k3 (c) INVISIBLE\nCREATE UNIQUE INDEX u ON i3 (c);\n", [2]),
    # ... before a second query's SELECT line after CREATE TABLE ... SELECT (found by the fuzz, seed 204)
    ("CREATE TABLE k1 (d BOOL NOT NULL);\nCREATE TABLE k2 AS SELECT * FROM k1\nSELECT 'x' AS s;\n", [2]),
    ("CREATE TABLE k3 (a INT);\nCREATE TABLE k4\n  SELECT a FROM k3 WHERE a IN (1, 2)\n  select 2;\n", [3]),
    ("CREATE TABLE k5 SELECT 1 AS `x`\nSELECT 2;\n", [1]),
    # an executable comment nested in a running one ends it: its last `*/` is text (found by the fuzz, seed 204)
    ("CREATE TABLE j1 (e INT NOT NULL);\n/*!50100 ALTER TABLE j1 MODIFY COLUMN e INT /*M!100301 UNSIGNED */, "
     "ADD CONSTRAINT uk_x UNIQUE (e) */;\n", [2]),
    ("CREATE TABLE j2 (e INT);\n/*!50100 ALTER TABLE j2 ADD COLUMN q INT /*!40101 NOT NULL */ */;\n", [2]),
    # a string where a name is required, without ANSI_QUOTES
    ("CREATE TABLE c1 (f CHAR(36) NOT NULL, b INT NOT NULL, KEY (\"b\", f));\n", [1]),
    ("CREATE TABLE c2 (\"c\" VARCHAR(8) NOT NULL) ENGINE=innodb;\n", [1]),
    ("CREATE TABLE c3 (a INT, KEY ('a'));\nCREATE TABLE \"c4\" (a int);\n", [1, 2]),
    ("CREATE TABLE c5 (a INT);\nALTER TABLE c5 ADD COLUMN \"b\" INT;\nALTER TABLE c5 ADD KEY \"k\" (a);\n"
     "CREATE INDEX \"i\" ON c5 (a);\n", [2, 3, 4]),
    ("SET sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES');\nSET sql_mode = DEFAULT;\nCREATE TABLE c6 (\"a\" INT);\n", [3]),
    # ... in the query of a CREATE TABLE ... SELECT or a CREATE VIEW (found by the fuzz, seed 351):
    # where a table, a qualified name, a table's alias or a list of names goes
    ("CREATE TABLE q1 (a INT);\nCREATE TABLE q2 AS SELECT * FROM t_a.\"q1\";\nCREATE TABLE q3 SELECT * FROM 'q1';\n",
     [2, 3]),
    ("CREATE TABLE q4 (x INT, y INT);\nCREATE TABLE q5\n  SELECT \"q4\".x FROM q4;\nCREATE TABLE q6 SELECT q4.\"y\" FROM q4;\n",
     [2, 3]),
    ("CREATE TABLE q7 (a INT);\nCREATE TABLE q8 SELECT * FROM q7 AS \"z\";\nCREATE TABLE q9 SELECT * FROM q7 'z';\n"
     "CREATE TABLE r1 SELECT * FROM (SELECT a FROM q7) 'dt';\nCREATE TABLE r2 SELECT * FROM (SELECT 1 AS a) dt (\"b\");\n",
     [2, 3, 4, 5]),
    ("CREATE TABLE s1 (k INT PRIMARY KEY, v TEXT);\nCREATE TABLE s2 SELECT s1.k FROM s1, \"s1\" x;\n"
     "CREATE TABLE s3 SELECT x.k FROM s1 x JOIN s1 AS y USING (\"k\");\nCREATE TABLE s4 SELECT x.k FROM s1 x\n"
     "  LEFT JOIN s1 y ON x.k = y.k, 's1';\nCREATE TABLE s5 SELECT * FROM s1 NATURAL JOIN \"s1\";\n", [2, 3, 5, 6]),
    ("CREATE TABLE u1 (n INT);\nCREATE TABLE u2 SELECT n FROM u1 WHERE n IN (SELECT n FROM \"u1\");\n"
     "CREATE TABLE u3 SELECT * FROM u1 PARTITION ('p0');\nCREATE TABLE u4 SELECT * FROM u1 FORCE INDEX (\"PRIMARY\");\n"
     "CREATE TABLE u5 WITH \"c\" AS (SELECT 1 AS n) SELECT * FROM c;\nCREATE TABLE u6 SELECT 1 AS n UNION SELECT n FROM 'u1';\n",
     [2, 3, 4, 5, 6]),
    ("CREATE TABLE v1 (a INT);\nCREATE VIEW w1 AS SELECT * FROM \"v1\";\nCREATE VIEW w2 (\"a\") AS SELECT a FROM v1;\n"
     "CREATE TABLE w1 (a INT);\nCREATE TABLE w2 (a INT);\n", [2, 3]),
    # ... before `ALTER ONLINE|OFFLINE|IGNORE TABLE` in an ALTER TABLE (found by the fuzz, seed 370)
    ("CREATE TABLE z1 (id INT, e DATETIME);\nALTER TABLE z1 ADD c VARCHAR(32), ALTER COLUMN e DROP DEFAULT\n"
     "ALTER ONLINE TABLE z1 ADD COLUMN f INT;\nCREATE TABLE z3 (a INT, b INT);\nALTER TABLE z3 DROP COLUMN b\n"
     "ALTER IGNORE TABLE z3 ADD d INT;\nALTER TABLE z3 ALTER a DROP DEFAULT\n  alter offline table z3 ADD e INT;\n",
     [2, 5, 7]),
    # attributes SERIAL does not take
    ("CREATE TABLE d1 (d INT UNSIGNED INVISIBLE, a DECIMAL(10,2), c SERIAL NULL, UNIQUE KEY uk_a (c), KEY (d));\n",
     [1]),
    ("CREATE TABLE d2 (c SERIAL DEFAULT 1);\nCREATE TABLE d3 (c SERIAL AUTO_INCREMENT);\n"
     "CREATE TABLE d4 (b SERIAL NOT NULL NULL);\nCREATE TABLE d5 (b SERIAL UNSIGNED);\n", [1, 2, 3, 4]),
    ("/*!40101 CREATE TABLE d6 (c SERIAL NULL) */;\nCREATE TABLE d7 (c SERIAL COMMENT 'x' NULL);\n", [1, 2]),
    ("CREATE TABLE d8 (a int);\nALTER TABLE d8 ADD COLUMN s SERIAL COLLATE latin1_bin;\n", [2]),
    # text after DROP PRIMARY KEY without a `,`; a skipped executable comment whose quote holds `/*`
    # between statements (the server's comment ends elsewhere: the next statement goes with it)
    ("CREATE TABLE r1 (id INT NOT NULL, PRIMARY KEY (id), UNIQUE (id));\nALTER TABLE r1 DROP PRIMARY KEY\n"
     "DROP INDEX uk_a ON `r2`;\nCREATE TABLE r3 (id INT, PRIMARY KEY (id));\nALTER TABLE r3 DROP PRIMARY KEY ADD KEY (id);\n",
     [2, 5]),
    ("CREATE TABLE r4 (e TEXT);\n/*!80023 CREATE TABLE r5 (b DATETIME COMMENT '/* x') */\nDROP TABLE r4;\n", [2]),
    ("/*!80023 CREATE TABLE r6 (d VARCHAR(8) DEFAULT '/* x') */\\g\nCREATE TABLE r7 (a INT);\n"
     "/*!80023 CREATE TABLE r8 (d VARCHAR(8) DEFAULT '/* x') */ \\c\nCREATE TABLE r9 (a INT);\n", []),
    # a key declared on a column takes no column list, and CONSTRAINT there names a CHECK or
    # REFERENCES only (often two elements a `,` left out glued together)
    ("CREATE TABLE k1 (a int COMMENT 'x' CONSTRAINT uk_b UNIQUE (`a`(5)));\nCREATE TABLE k2 (b INT UNIQUE (b));\n"
     "CREATE TABLE k3 (c INT NOT NULL PRIMARY KEY (c));\nCREATE TABLE k4 (d INT UNIQUE KEY (d));\n", [1, 2, 3, 4]),
    ("CREATE TABLE k5 (a INT CONSTRAINT uk UNIQUE);\nCREATE TABLE k6 (a INT CONSTRAINT PRIMARY KEY);\n"
     "CREATE TABLE k7 (a INT, b INT DEFAULT 1 CONSTRAINT);\nCREATE TABLE k8 (a INT NOT NULL CONSTRAINT `k` KEY);\n"
     "ALTER TABLE k9 ADD COLUMN z INT CONSTRAINT z_u UNIQUE (z);\n", [1, 2, 3, 4, 5]),
]

#: what the server accepts and innolint must keep reading
ACCEPTED = [
    "CREATE TABLE h6 (a INT);\nINSERT INTO h6\nSELECT 1;\nCREATE TABLE h7\n  SELECT a FROM h6;\n",
    "CREATE TABLE g5 (c INT, d INT);\nALTER TABLE g5 ADD e INT,\n  DROP -- why\n  COLUMN d,\n  ALTER /* x */ c SET DEFAULT 1;\n",
    "CREATE TABLE e1 (a INT) ENGINE InnoDB CHARSET latin1 ROW_FORMAT DYNAMIC AUTO_INCREMENT 5 COMMENT 'x';\n",
    "CREATE TABLE e2 (a INT) PAGE_COMPRESSED=1 STATS_PERSISTENT 1 MAX_ROWS 10;\n",
    "CREATE TABLE e3 (a INT)\nSELECT 1 AS b;\n",
    "CREATE TABLE e4 (a INT, b INT DEFAULT \"x\" COMMENT \"y\", c ENUM(\"p\", \"q\")) COMMENT \"z\";\n",
    "SET sql_mode = 'ANSI_QUOTES';\nCREATE TABLE \"e5\" (\"c\" INT, KEY (\"c\"));\nSET sql_mode = DEFAULT;\n",
    "CREATE TABLE e6 (c SERIAL NOT NULL PRIMARY KEY COMMENT 'x', d SERIAL INVISIBLE, e SERIAL UNIQUE KEY);\n",
    "CREATE TABLE e7 (d BIGINT NULL, c SERIAL KEY);\n",
    "CREATE TABLE e8 (a int, b int);\nALTER TABLE e8 ALTER COLUMN b\nSET DEFAULT 1;\n",
    "CREATE TABLE e9 (a int);\nCREATE TABLE f1 (a int) SELECT a FROM e9\nUSE INDEX ();\n",
    "CREATE TABLE f2 (a int);\nCREATE INDEX ix ON f2 (a) COMMENT 'select' ALGORITHM=INPLACE;\n",
    "CREATE TABLE f3 (a int);\nALTER TABLE f3 ADD KEY k (a) COMMENT 'drop',\n  DROP INDEX k, ADD KEY k2 (a) IGNORED;\n",
    "CREATE TABLE l1 (a INT);\nCREATE TABLE l2 AS SELECT a FROM l1\nUNION\nSELECT a FROM l1;\n",
    "CREATE TABLE l3 (a INT);\nCREATE TABLE l4 AS SELECT a FROM l3 WHERE a IN (\n  SELECT a FROM l3) UNION ALL\n"
    "SELECT 2;\nCREATE TABLE l5 (c INT COMMENT 'select')\nSELECT 1 AS c;\n",
    "CREATE TABLE l6 (a INT);\nCREATE TABLE l7 AS SELECT a FROM l6 -- the first\nSELECT 1;\n".replace(
        "SELECT 1;", "WHERE a > 0;"),
    "CREATE TABLE f4 (e INT);\n/*!50100 ALTER TABLE f4 MODIFY COLUMN e BIGINT /*M!100301 UNSIGNED */;\n",
    "CREATE TABLE f5 (e INT);\nALTER TABLE f5 ADD r INT /*!40101 NOT NULL */, ADD s INT /* c */;\n",
    "CREATE TABLE f6 (e INT);\n/*!40101 ALTER TABLE f6\n  ADD COLUMN q INT /* a note */\n  , ADD r INT */;\n",
    "CREATE TABLE n1 (a INT NOT NULL, PRIMARY KEY (a)) PARTITION BY HASH (a) PARTITIONS 2;\nALTER TABLE n1\n"
    "TRUNCATE PARTITION p0;\nALTER TABLE n1 -- x\n  TRUNCATE /* y */ PARTITION p1, p0;\n"
    "ALTER TABLE n1 ANALYZE PARTITION p0, p1;\nALTER TABLE n1 REBUILD PARTITION p0,\n  p1;\n",
    # strings where the query takes values, and a select item's alias
    "CREATE TABLE x1 (a INT, b VARCHAR(8));\nCREATE TABLE x2 SELECT a AS 'c', b \"d\", 'e' AS f FROM x1 WHERE b = \"x\"\n"
    "  GROUP BY a, 'g' HAVING a > '1' ORDER BY 'h';\nCREATE TABLE x3 SELECT TRIM(LEADING 'x' FROM x1.b) AS t,\n"
    "  EXTRACT(YEAR FROM '2020-01-01') AS y FROM x1 JOIN x2 ON x1.a = '1', x1 AS z WHERE z.a IN (SELECT '2');\n"
    "CREATE TABLE x4 WITH RECURSIVE c (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < '3') SELECT n FROM c;\n"
    "CREATE VIEW y1 (p, q) AS SELECT 'p', \"q\" FROM x1 AS `r` WHERE r.a = 's';\nCREATE TABLE y2 SELECT * FROM y1;\n"
    "DROP VIEW y1;\nCREATE TABLE x5 SELECT * FROM\n"
    "  JSON_TABLE('[1]', '$[*]' COLUMNS (a INT PATH '$')) AS jt;\n",
    # a column named online or ignore altered on a line of its own
    "CREATE TABLE z4 (a INT, online INT, `ignore` INT);\nALTER TABLE z4 ADD b INT,\nALTER online SET DEFAULT 1,\n"
    "  ALTER\n  `ignore` DROP DEFAULT;\n",
    # IF NOT EXISTS is judged on the table as it was
    "CREATE TABLE s1 (c INT, e INT);\nALTER TABLE s1 DROP COLUMN c, ADD COLUMN IF NOT EXISTS c INT FIRST;\n"
    "ALTER TABLE s1 ADD COLUMN IF NOT EXISTS f INT, DROP COLUMN e;\n",
    # a column named begin on a line of its own
    "CREATE TABLE bg1 (\n  id INT,\n  begin DATETIME,\n  `end` DATETIME\n);\nALTER TABLE bg1\n  ADD COLUMN x INT,\n"
    "  MODIFY\nbegin DATE;\n",
    # GRANT and REVOKE name privileges like statements, on lines of their own too
    "CREATE TABLE p1 (i int);\nGRANT SELECT, INSERT,\n  CREATE, ALTER ON t_a.* TO someone@localhost;\n"
    "REVOKE SELECT,\nDROP ON t_a.* FROM someone@localhost;\nCREATE TABLE p2 (i int);\n",
    "CREATE TABLE m1 (a INT KEY, b INT UNIQUE KEY, c INT UNIQUE, d INT NOT NULL PRIMARY KEY COMMENT 'key (x)',\n"
    "  e INT CHECK (e > 0) UNIQUE, f INT DEFAULT (1) KEY, `primary` INT, `constraint` INT);\n",
]


@pytest.mark.parametrize(("script", "refused"), REFUSED, ids=lambda c: repr(c)[:50] if isinstance(c, str) else "")
def test_refused_text_is_reported_and_not_replayed(
        mariadb: MariaDB, tmp_path: Path, script: str, refused: list[int]) -> None:
    ours, diagnostics = replay_text(script, tmp_path, default_schema="t_a")
    assert ours == client_tables(mariadb, script), script
    for line in refused:  # at the statement, or at the line a `;` is missing before
        assert any(d.rule == "parse-error" and d.line in (line, line + 1) for d in diagnostics), (line, diagnostics)


@pytest.mark.parametrize("script", ACCEPTED, ids=lambda s: repr(s)[:50])
def test_accepted_text_stays_read(mariadb: MariaDB, tmp_path: Path, script: str) -> None:
    ours, diagnostics = replay_text(script, tmp_path, default_schema="t_a")
    assert ours == client_tables(mariadb, script), script
    assert [d for d in diagnostics if d.rule == "parse-error"] == [], diagnostics


def test_the_glue_check_reads_each_comment_once() -> None:
    """Comments between a line's first words are read by one possessive pattern: an ALTER of n
    actions, each line `ALTER /* ... */ c` with a long comment, costs linear time."""
    from linter.parse.statement import parse_statement
    from tests.complexity import assert_linear

    def make(n: int) -> Callable[[], object]:
        lines = "".join(f",\n  ALTER /* {'x' * 50} */ -- why\n c{i % 7} SET DEFAULT {i}" for i in range(n))
        text = "ALTER TABLE t ADD z INT" + lines
        return lambda: parse_statement(text)

    assert_linear(make, 200, what="glued_statement over commented lines")


@pytest.mark.parametrize("text", ["CREATE VIEW v AS\nSELECT 1 AS x", "ALTER VIEW v AS\n  SELECT 2 AS x",
                                  "CREATE OR REPLACE VIEW v\nAS\nSELECT 3 AS x", "INSERT INTO t\nSELECT 1"])
def test_a_select_line_of_a_view_or_an_insert_is_no_glued_statement(text: str) -> None:
    from linter.parse.statement import parse_statement

    parse_statement(text)  # no ParseFailure: the SELECT belongs to the statement
