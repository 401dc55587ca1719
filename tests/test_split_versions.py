"""Executable comments run only on servers whose version is at least theirs, read as the target
server reads them; the real MariaDB is the judge of what MariaDB does.

What MariaDB 10.11 does (checked below on the test server): `/*!NNNNN` and `/*!NNNNNN` run when
the number is at most the server's version, except MySQL's numbers 50700 to 99999, which MariaDB
skips (`/*!80023 ...*/` and `/*!99999 ...*/` do not run); `/*M!NNNNNN` runs by the same rule
without the exception; fewer than five digits are not a version (the digits are text), and a
seventh digit is text too. MySQL reads five digits (six from 8.1) and skips `/*M!` as a comment.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from linter.input.splitter.lexis import executable_reading
from linter.schema.target import Target
from tests.mariadb import MariaDB
from tests.splitting import client_tables, replay_text, split, texts


def reading(target: str, opening: str) -> tuple[str, bool]:
    bang = "M!" if opening.startswith("M") else "!"
    return executable_reading(Target.parse(target), bang, opening[len(bang) :])


@pytest.mark.parametrize(("target", "opening", "expected"), [
    ("mysql-8.0", "!40101", ("40101", True)),
    ("mysql-8.0", "!80023", ("80023", True)),
    ("mysql-8.0", "!80099", ("80099", True)),  # a target is the newest release of its line
    ("mysql-8.0", "!80100", ("80100", False)),
    ("mysql-8.0", "!99999", ("99999", False)),
    ("mysql-8.0", "!100100", ("10010", True)),  # five digits: the sixth is text
    ("mysql-8.4", "!100100", ("100100", False)),  # MySQL 8.1 and later read six
    ("mysql-8.4", "!80400", ("80400", True)),
    ("mysql-5.7", "!50720", ("50720", True)),
    ("mysql-5.7", "!80000", ("80000", False)),
    ("percona-8.0", "!80013", ("80013", True)),
    ("mysql-8.0", "M!100100", ("100100", False)),  # MariaDB's own: a comment to MySQL
    ("mysql-8.0", "M!", ("", False)),
    ("mysql-8.0", "M!1234", ("1234", False)),
    ("mysql-8.0", "!", ("", True)),
    ("mysql-8.0", "!1234", ("", True)),  # not a version: text
    ("mariadb-10.11", "!50699", ("50699", True)),
    ("mariadb-10.11", "!50700", ("50700", False)),  # MySQL 5.7+ numbers are skipped by MariaDB
    ("mariadb-10.11", "!80023", ("80023", False)),
    ("mariadb-10.11", "!99999", ("99999", False)),
    ("mariadb-10.11", "!100100", ("100100", True)),
    ("mariadb-10.11", "!101199", ("101199", True)),
    ("mariadb-10.11", "!110000", ("110000", False)),
    ("mariadb-10.6", "M!100700", ("100700", False)),
    ("mariadb-10.6", "M!50700", ("50700", True)),
    ("mariadb-11.x", "M!110800", ("110800", True)),
    ("mariadb-10.11", "M!", ("", True)),
    ("mariadb-10.11", "M!999999", ("999999", False)),
])
def test_how_a_target_reads_an_executable_comment(target: str, opening: str, expected: tuple[str, bool]) -> None:
    assert reading(target, opening) == expected


@pytest.mark.parametrize("chunk", [None, 1, 5, 64])
def test_a_comment_that_does_not_run_is_a_comment(chunk: int | None) -> None:
    text = ("/*!99999 DROP TABLE t1 */;\n/*!80023 CREATE TABLE t2 (a int) */;\nCREATE TABLE t3 (a int /*!99999 , b int */"
            " /*!50100 , c int */);\n/*M!100100 CREATE TABLE t4 (a int) */;\n")
    # a comment that does not run becomes blanks, an unwrapped one loses its markers: columns stay
    t3 = "CREATE TABLE t3 (a int " + " " * len("/*!99999 , b int */") + " " + " " * len("/*!50100") + " , c int   )"
    assert texts(text, chunk=chunk, target="mysql-8.0") == ["CREATE TABLE t2 (a int)", t3]
    assert texts(text, chunk=chunk, target="mariadb-10.11") == [t3, "CREATE TABLE t4 (a int)"]
    assert len(texts(text, chunk=chunk)) == 4  # no target: every one runs


def test_a_skipped_comment_keeps_lines_and_columns_and_takes_one_nested_comment() -> None:
    text = "CREATE TABLE t (\n  a int /*!99999 ,\n  b /* nested */ int */,\n  c int\n);\nSELECT 2;"
    (create, select), _ = split(text, target="mysql-8.0")
    assert create.text == "CREATE TABLE t (\n  a int " + " " * len("/*!99999 ,") + "\n" + " " * len("  b /* nested */ int */") \
        + ",\n  c int\n)"
    assert (create.line, create.end_line, select.line) == (1, 5, 6)
    # between statements too, with a nested comment, over any chunking
    gap = "/*!99999 SELECT 1 /* x; */ + 2 */;\nSELECT 3;\n"
    for chunk in (None, 1, 3):
        assert [(s.text, s.line) for s in split(gap, chunk=chunk, target="mysql-8.0")[0]] == [("SELECT 3", 2)]
    # the client cuts at a `;` in it: the server refuses `/*!99999 SELECT 1` (1064), runs
    # ` /* x */ SELECT 2` and refuses `*/ SELECT 3` (tests/test_split_exec_delimiter.py)
    gap = "/*!99999 SELECT 1; /* x */ SELECT 2; */\nSELECT 3;\n"
    for chunk in (None, 1, 3):
        statements, notes = split(gap, chunk=chunk, target="mysql-8.0")
        assert [(s.text, s.line) for s in statements] == [("SELECT 2", 1)]
        assert [(n.line, n.column, n.rule) for n in notes] == [(1, 38, "parse-error")]


def test_mysql_reads_a_mariadb_comment_as_an_ordinary_one() -> None:
    # an ordinary comment ends at its first `*/`, nested or not: what follows is SQL to MySQL
    text = "/*M!100100 SELECT 1 /* x */ SELECT 2;\n"
    assert texts(text, target="mysql-8.0") == ["SELECT 2"]
    # to MariaDB it runs, and the client drops `/* x */ SELECT 2;` (a comment on the line of an
    # executable comment, up to the next `*/`): the server gets it unclosed and refuses it
    assert texts(text, target="mariadb-10.11") == []


def test_an_unclosed_comment_that_does_not_run_is_reported_where_it_starts() -> None:
    statements, notes = split("SELECT 1;\n  /*!99999 CREATE TABLE t (a int COMMENT 'x;y')\nCREATE TABLE u (a int)\n",
                              target="mysql-8.0")
    assert [s.text for s in statements] == ["SELECT 1"]
    assert [(n.line, n.column, n.rule) for n in notes] == [(2, 3, "parse-error")]
    # the client cuts at its delimiter in the comment: the rest is outside it for the server
    statements, notes = split("SELECT 1;\n  /*!99999 CREATE TABLE t (a int);\nCREATE TABLE u (a int);\n", target="mysql-8.0")
    assert [s.text for s in statements] == ["SELECT 1", "CREATE TABLE u (a int)"]
    assert notes == []  # the comment alone between statements: refused, and nothing of it runs anyway


@pytest.mark.parametrize("chunk", [None, 7, 4093])
def test_the_fast_lane_reads_versions_as_the_general_scanner_does(chunk: int | None) -> None:
    import linter.input.split as split_module

    dump = ("/*!40101 SET @a = 1 */;\n/*!80000 SET @b = 2 */;\nDROP TABLE IF EXISTS `t`;\n"
            "CREATE TABLE `t` (\n  `a` int\n) /*!50100 TABLESPACE `x` */ /*!80023 ENGINE=MyISAM */ ENGINE=InnoDB;\n"
            "/*!100100 CREATE TABLE six (a int) */;\n") * 3
    for target in ("mysql-8.0", "mysql-8.4", "mariadb-10.11", "mariadb-10.6"):
        fast = split(dump, chunk=chunk, target=target)
        fast_skipped = split(dump, chunk=chunk, target=target, skip=True)[0]
        old = split_module.Splitter.fast_lane
        split_module.Splitter.fast_lane = False
        try:
            slow = split(dump, chunk=chunk, target=target)
        finally:
            split_module.Splitter.fast_lane = old
        assert fast == slow
        # skipping may count a SET instead of building it, and changes nothing else
        assert [s for s in slow[0] if not s.text.startswith("SET")] == [s for s in fast_skipped if not s.text.startswith("SET")]


# --- the server is the judge ---------------------------------------------------------------------

#: versions around MariaDB's rules (the server's own patch level is left out: a target is the newest
#: release of its line, so 10.11.x ran by innolint may be newer than the test server)
VERSIONS = ["", "1234", "32302", "40101", "50001", "50699", "50700", "80023", "99999", "100100", "100599",
            "101100", "110000", "999999", "1001000"]


def oracle_script() -> str:
    lines = []
    for n, version in enumerate(VERSIONS):
        lines.append(f"/*!{version} CREATE TABLE x_{n} (a int) */;")
        lines.append(f"/*M!{version} CREATE TABLE m_{n} (a int) */;")
        lines.append(f"CREATE TABLE c_{n} (a int /*!{version} , b int */);")
        lines.append(f"CREATE TABLE d_{n} (a int) /*M!{version} COMMENT 'v' */;")
    lines.append("/*!50001 CREATE TABLE stand_in (a int) */;")
    return "\n".join(lines) + "\n"


def test_executable_comments_run_as_on_mariadb(mariadb: MariaDB, tmp_path: Path) -> None:
    script = oracle_script()
    server_tables = client_tables(mariadb, script)
    ours, _ = replay_text(script, tmp_path, target="mariadb-10.11", default_schema="t_a")
    assert ours == server_tables
    # the columns of the tables that ran: where `/*!V , b int */` ran, b exists
    rows = mariadb.sql("SELECT table_name, GROUP_CONCAT(column_name ORDER BY ordinal_position) FROM "
                       "information_schema.columns WHERE table_schema = 't_a' AND table_name LIKE 'c\\_%' GROUP BY table_name")
    server_columns = {name: columns for name, columns in rows}
    from linter.rules.checkapi import CheckContext
    from linter.engine import Engine, Unit

    path = tmp_path / "schema.sql"
    model = Engine(CheckContext(target=Target.parse("mariadb-10.11"))).lint_unit(Unit([str(path)])).model
    ours_columns = {t.name: ",".join(c.name for c in t.columns.values()) for t in model.tables() if t.name.startswith("c_")}
    assert ours_columns == server_columns


def _same_line_script(rng: random.Random, n: int) -> str:
    """Lines holding a statement and, after it on the same line, one-line executable comments
    (`/*!40101 SET ... */;`, `/*!50001 CREATE TABLE ...*/;`, versions that run and that do not),
    further statements and trailing comments, in random order: mysqldump writes one per line,
    hand-edited files and other tools do not."""
    def plain(i: int) -> str:
        return rng.choice([f"CREATE TABLE p{i} (id INT PRIMARY KEY)", f"DROP TABLE IF EXISTS gone{i}",
                           f"create table `P{i}x` (a int)", f"SET @v{i} = {i}", f"CREATE TABLE q{i} LIKE p0"])

    def executable(i: int) -> str:
        opening = rng.choice(["/*!40101", "/*!50001", "/*!50100", "/*M!100301", "/*!99999", "/*!", "/*!80023"])
        body = rng.choice([f"CREATE TABLE e{i} (id INT PRIMARY KEY)", "SET @x = 1", f"CREATE TABLE `E{i}y` (b int)"])
        return f"{opening} {body} */;"

    lines = ["CREATE TABLE p0 (id INT PRIMARY KEY);"]
    for i in range(1, n):
        parts = [plain(i) + ";"]
        parts += [executable(i * 10 + k) if rng.random() < 0.7 else plain(i * 10 + k) + ";" for k in range(rng.randint(1, 3))]
        if rng.random() < 0.3:
            parts.append(rng.choice(["-- trailing", "# trailing", "/* trailing */"]))
        lines.append(rng.choice([" ", "  ", "\t"]).join(parts))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(6))
def test_statements_before_an_executable_comment_on_their_line_are_kept(mariadb: MariaDB, tmp_path: Path, seed: int) -> None:
    """Found by review: `DROP TABLE IF EXISTS d; /*!50001 CREATE VIEW ...*/;` on one line lost the
    DROP (the one-line executable comment took the place of the statement waiting for a trailing
    comment). The client is the judge of which tables the text makes, in every chunking."""
    script = _same_line_script(random.Random(seed), 12)
    server_tables = client_tables(mariadb, script)
    ours, diagnostics = replay_text(script, tmp_path, target="mariadb-10.11", default_schema="t_a")
    assert ours == server_tables, script
    assert not diagnostics, script
    for chunk in (5, 64):
        assert texts(script, chunk=chunk) == texts(script), (chunk, script)
