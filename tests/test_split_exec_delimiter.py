"""The client's delimiter in executable comments, judged by the real `mariadb` client and server.

The mysql client looks for its delimiter everywhere but in quotes and plain comments, executable
comments included, whether the server runs them or not: `/*!50100 ENGINE=MyISAM; */` is cut at its
`;`, and under `DELIMITER //` the `/` of the `*/` that closes one may begin the delimiter
(`/*!50100 ENGINE=MyISAM *///`, the end of the comment one character early). The server then gets
the comment unclosed and refuses the statement (1064); the rest goes on outside the comment, its
`*/` text the server refuses too. A plain comment on the line of an open `/*!` makes the client drop
the text up to the next `*/` (MariaDB 10.11's client/mysql.cc, `add_line`: `ss_comment` is per
line). innolint must build the tables the server has and report each refused statement at its line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.mariadb import MariaDB
from tests.splitting import client_tables, replay_text, split

#: (script, the lines innolint must report as refused)
CASES = [
    # `*///` under `DELIMITER //` and `\d //`: the statement is cut at `*`, `/` glues to the next one
    ("DELIMITER //\nCREATE TABLE t3 (b TEXT) /*!50100 ROW_FORMAT=DYNAMIC *///\nCREATE TABLE t4 (a int)//\n", [2]),
    ("\\d //\nCREATE TABLE t_b.t1 (e INT NOT NULL) /*!50100 ENGINE=MyISAM *///\n", [2]),
    ("DELIMITER //\nCREATE TABLE s1 (e INT) /*!99999 ENGINE=MyISAM *///\nCREATE TABLE s2 (a int)//\n", [2]),
    ("DELIMITER //\n/*!50100 CREATE TABLE k1 (a int) *///\nCREATE TABLE k2 (a int)//\n"
     "CREATE TABLE k3 (a int) /*!50100 ENGINE=InnoDB */ //\nCREATE TABLE k4 (a int) /* plain *///\n", [2]),
    # the `/` left of `*///` begins the next packet, a DELIMITER line in it included (the mariadb
    # client sends it as text): the server refuses its first statement and runs none after it
    ("\\d //\n/*!40101 DROP TABLE t2 *///\nDELIMITER ;;\nCREATE TABLE t_b.`T1` (d CHAR(36) NOT NULL) CHARSET latin1;;\n",
     [2]),
    ("DELIMITER $$\nCREATE TABLE m1 (a int) /*M!100301 ENGINE=Aria *///$$\nCREATE TABLE m2 (a int) /*!40101 *//$$\n", []),
    # the delimiter inside an executable comment, run or skipped; what follows is outside it
    ("CREATE TABLE u1 (e INT) /*!50100 ENGINE=MyISAM; */\nCREATE TABLE u2 (a int);\nCREATE TABLE u3 (a int);\n", [1]),
    ("CREATE TABLE v1 (e INT) /*!99999 ENGINE=MyISAM; */\nCREATE TABLE v2 (a int);\nCREATE TABLE v3 (a int);\n", [1]),
    ("CREATE TABLE w1 (e INT) /*M!999999 COMMENT 'x'; */ ;\nCREATE TABLE w2 (a int);\n", [1]),
    ("/*!40101 CREATE TABLE x1 (a int); CREATE TABLE x2 (b int) */;\nCREATE TABLE x3 (a int);\n", [1]),
    ("/*!99999 CREATE TABLE y1 (a int); */\nCREATE TABLE y2 (a int);\nCREATE TABLE y3 (a int);\n", []),
    # quotes hide the delimiter, in a comment that runs and in one that does not
    ("CREATE TABLE q1 (a int) /*!99999 COMMENT 'x;y' */;\nCREATE TABLE q2 (a int) /*!50100 COMMENT 'x;y' */;\n"
     "/*!99999 CREATE TABLE q3 (a int COMMENT 'a;b') */;\nCREATE TABLE q4 (a int);\n", []),
    ("DELIMITER //\nCREATE TABLE r1 (a int) /*!99999 COMMENT 'x//y' */ //\nCREATE TABLE r2 (a int)//\n", []),
    # a plain comment on the line that opens an executable comment; on a later line it is plain
    ("CREATE TABLE n1 (a int) /*!50100 /* c */ ENGINE=InnoDB */;\nCREATE TABLE n2 (a int) /*!50100\n/* c */ "
     "ENGINE=InnoDB */;\nCREATE TABLE n3 (\n a int /*!99999 ,\n b /* nested */ int */,\n c int\n);\n", [1]),
    ("CREATE TABLE n4 (a int) /*!50100 /* c */ ENGINE=InnoDB */ */;\nCREATE TABLE n5 (a int) /*M!100301 /* c */ "
     "ENGINE=Aria */;\n", []),
    # the server reads no quotes in a comment it skips: `/*` or `*/` in one moves its end
    ("CREATE TABLE p1 (a int) /*!80023 COMMENT '/* not a comment' */;\nCREATE TABLE p2 (a int) /*!99999 COMMENT "
     "'a*/b' */;\nCREATE TABLE p3 (a int) /*!50100 COMMENT '/* it runs */' */;\n", [1, 2]),
    # ... but reads one comment nested in it, whatever it is: a `/*` in a quote and the `*/` of an
    # executable comment nested in the skipped one end where the client's comment ends (fuzz seed 379)
    ("CREATE TABLE q0 (id INT);\nRENAME TABLE q0 TO q1\n/*!50717 CREATE TABLE q2 (f CHAR(4) DEFAULT '/* x') "
     "ENGINE = MyISAM /*!50100 ENGINE=MyISAM */ */;\nCREATE TABLE q3 (a int) /*!99999 x /*!50100 y */ z */;\n"
     "CREATE TABLE q4 (a int) /*!99999 COMMENT '/* q' /*!50100 y */ */;\nCREATE TABLE q5 (a int) /*!99999 COMMENT "
     "'/* q' */;\nCREATE TABLE q6 (a int) /*!99999 COMMENT '/* q' /*M!100301 y */ */;\n"
     "CREATE TABLE q7 (a int) /*!99999 COMMENT '*/ q' */;\n", [6, 8]),
    ("/*!80023 CREATE TABLE p4 (f TEXT COMMENT '/* not a comment') */;\nCREATE TABLE p5 (a int);\n"
     "/*M!999999 CREATE TABLE p6 (b CHAR(4) DEFAULT '/* x') */;\nCREATE TABLE p7 (a int);\n", []),
    # a plain comment off the `/*!` line (or after a nested executable one closed it) is one the
    # client drops: the server never sees it, so it balances no `/*` in a quote (fuzz seed 399)
    ("CREATE TABLE a1 (i int) /*!99999 COMMENT '/* q'\n /* c */ */;\nCREATE TABLE a3 (i int) /*!99999 x\n /* c */ */;\n"
     "CREATE TABLE a6 (i int) /*!99999 a '/* q'\n /* c\n d */ e  */;\nCREATE TABLE a7 (i int) /*!99999 a /*!50100 b */ "
     "'/* q' /* c */ */;\nCREATE TABLE a9 (i int) /*!99999 a '/* q'\n /*!50100 c */ */;\n", [1, 5, 8]),
    # the `*/` of a comment skipped inside a running one ends the client's executable comment: a
    # plain comment after it on that line is an ordinary one; a running one nested ends the outer
    ("/*!40101 CREATE TABLE IF NOT EXISTS j1 (`b` INT /*!80023 UNSIGNED */, c TIMESTAMP, f /* a;b 'q' */ BIGINT NOT "
     "/* c */ NULL # it's\n/*M!999999 , UNIQUE KEY uk_v (f) */) ENGINE=MyISAM */;\n"
     "/*!40101 CREATE TABLE j2 (a INT /*!50100 UNSIGNED */, b int) */;\nCREATE TABLE j3 (a int);\n", [3]),
    # a running comment nested in a running one ends both: the `*/` left is text, whose `/` may begin
    # the delimiter (`*///`: the next packet begins with `/`, refused too)
    ("DELIMITER //\n/*!CREATE TABLE g1 (f INT) /*!50100 ROW_FORMAT=DYNAMIC */ *///\nCREATE TABLE g2 (id INT)//\n"
     "CREATE TABLE g3 (id INT)//\n", [2]),
    ("\\d $$\n/*M!100301 DROP TABLE /*!32312 IF EXISTS*/ g4 */$$\nCREATE TABLE g5 (a INT) /*!40101 x /*!50100 y */ "
     "*/$$\nCREATE TABLE g6 (a INT)$$\n", [2, 3]),
    # ... and the packet it begins holds what follows up to the next delimiter, a DELIMITER line and
    # what a `\d` makes the delimiter included: the server runs none of it (found by the fuzz, seed 377)
    ("\\d //\nCREATE TABLE `g7` (b TIMESTAMP NOT NULL) /*!50100 ENGINE=MyISAM *///\nDELIMITER ;\n\\d ;\n"
     "CREATE TABLE g8 (a BIGINT NOT NULL);\nCREATE TABLE g9 (a INT);\n", [2]),
    ("DELIMITER $$\nCREATE TABLE g10 (a INT) /*!40101 ENGINE=InnoDB *$$/\nDELIMITER ;\nCREATE TABLE g11 (a INT)$$\n"
     "\\d ;\nCREATE TABLE g12 (a INT);\n", [2]),
    # the `*/` of a comment nested in a skipped one ends the client's executable comment on that
    # line: a plain comment after it is an ordinary one to the client, its `;` no delimiter
    ("CREATE TABLE f1 (d INT NOT NULL)\n/*!99999 CREATE TABLE f2 (a INT /*M!100301 UNSIGNED */, b INT) /* a;b 'q' */ */;\n"
     "CREATE TABLE f3 (a int) /*!99999 x /*!50100 y */ /**/ */;\nRENAME TABLE f3 TO f4\n/*!99999 CREATE TABLE f5 "
     "(e INT /*M!100301 INVISIBLE */) /**/ */;\n", []),
    # `#` and `-- ` comments in one: the client drops them with the rest of their line, unseen by the server
    ("/*!99999 CREATE TABLE h1 (e INT NOT NULL /*M!100301 INVISIBLE */, PRIMARY\nKey # it's\n(e)) CHARSET latin1 */;\n"
     "CREATE TABLE h2 (a int) /*!99999 COMMENT 'x' # */\n */;\nCREATE TABLE h3 (a int) /*!99999 -- it's; \n */;\n"
     "CREATE TABLE h4 (a int) /*!99999 --x; */;\n", []),
    # a `/*!` in a plain comment the client drops marks the rest of its line: the next `*/` there
    # ends the mark, not the comment (not `/*M!`; fuzz seed 405)
    ("CREATE TABLE a (i int) /* x /*!32312 y */ z */;\nCREATE TABLE b (i int);\n", []),
    ("CREATE TABLE a (i int) /* x /*!32312 y */;\nCREATE TABLE b (i int);\nCREATE TABLE c (i int) /* */;\n", []),
    ("CREATE TABLE a (i int) /* x /*!32312 y\n */;\nCREATE TABLE b (i int);\n", []),
    ("/* x /*!40101 y */;\nCREATE TABLE b (i int);\nCREATE TABLE c (i int) */;\n", []),
    ("CREATE TABLE a (i int) /* x /*M!100301 y */ ;\nCREATE TABLE b (i int); */\nCREATE TABLE c (i int);\n", []),
    ("CREATE TABLE a (i int) /* x\n /*!32312 y */ ; */\nCREATE TABLE b (i int);\n", []),
    ("CREATE TABLE a (i int) /* /*!1 */ /*!2 */ */ ;\nCREATE TABLE b (i int);\n */ CREATE TABLE c (i int);\n", []),
    ("DELIMITER //\nCREATE TABLE a (i int) /* x /*!32312 y */ //\nCREATE TABLE b (i int)//\n */ //\nCREATE TABLE c (i int)//\n",
     []),
    # an executable comment open at the end of the file: refused; a plain comment: dropped by the client
    ("CREATE TABLE o1 (a int) /*!50100 ENGINE=InnoDB\n", [1]),
    ("CREATE TABLE o2 (a int) /*!99999 ENGINE=InnoDB", [1]),
    ("CREATE TABLE o3 (a int) /* x\n", []),
]


@pytest.mark.parametrize(("script", "refused"), CASES, ids=lambda c: repr(c)[:50] if isinstance(c, str) else "")
def test_the_tables_are_the_servers_and_refusals_are_reported(
        mariadb: MariaDB, tmp_path: Path, script: str, refused: list[int]) -> None:
    ours, diagnostics = replay_text(script, tmp_path, default_schema="t_a")
    assert ours == client_tables(mariadb, script), script
    reported = {d.line for d in diagnostics if d.rule == "parse-error" and "1064" in d.message}
    assert set(refused) <= reported, (script, diagnostics)


def generated(count: int, seed: int = 31) -> list[str]:
    """Scripts of CREATE TABLEs whose options sit in executable comments of every kind, with the
    delimiter, quotes and comments where the client reads them differently from the server."""
    rng = random.Random(seed)
    scripts = []
    for _ in range(count):
        delimiter = rng.choice([";", "//", "$$"])
        parts = [] if delimiter == ";" else [rng.choice(["DELIMITER ", "\\d "]) + delimiter + "\n"]
        for n in range(rng.randint(2, 6)):
            version = rng.choice(["/*!", "/*!50100 ", "/*!99999 ", "/*M!100301 ", "/*M!999999 ", "/*!80023 "])
            inside = rng.choice(["ENGINE=InnoDB", "COMMENT 'a;b'", "COMMENT 'x//y'", "ENGINE=MyISAM" + delimiter,
                                 "/* c */ ENGINE=Aria", "COMMENT \"q;\"", "ROW_FORMAT=DYNAMIC"])
            close = rng.choice([" */", " *", "\n*/"])
            end = rng.choice([delimiter, delimiter, "\n", " " + delimiter])
            parts.append(f"CREATE TABLE g{n} (a int) {version}{inside}{close}{end}\n")
        scripts.append("".join(parts))
    return scripts


@pytest.mark.parametrize("script", generated(40), ids=lambda s: repr(s[:40]))
def test_generated_scripts_build_the_servers_tables(mariadb: MariaDB, tmp_path: Path, script: str) -> None:
    ours, _ = replay_text(script, tmp_path, default_schema="t_a")
    assert ours == client_tables(mariadb, script), script


@pytest.mark.parametrize("chunk", [None, 1, 2, 5])
def test_chunks_change_nothing(chunk: int | None) -> None:
    for script, _ in CASES:
        whole = split(script, target="mariadb-10.11")
        assert split(script, chunk=chunk, target="mariadb-10.11") == whole, script
