"""ANSI_QUOTES and NO_BACKSLASH_ESCAPES change how text is read from the SET that turns them on:
the splitter follows `SET sql_mode` (every spelling mysqldump and people use), splits with the
mode's quoting, and hands the parser the statement in the default quoting. The server is the
judge of where statements end and what they create."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from linter.input.splitter.sqlmode import ANSI_QUOTES, NO_BACKSLASH_ESCAPES, Modes, normalize
from tests.mariadb import MariaDB
from tests.splitting import client_tables, replay_text, split

B = "\\"


@pytest.mark.parametrize(("statements", "flags"), [
    (["SET sql_mode = 'ANSI_QUOTES'"], {ANSI_QUOTES}),
    (["SET SESSION sql_mode='NO_BACKSLASH_ESCAPES,STRICT_TRANS_TABLES'"], {NO_BACKSLASH_ESCAPES}),
    (["SET @@sql_mode := 'ansi'"], {ANSI_QUOTES}),
    (["SET @@SESSION.sql_mode = \"ORACLE\""], {ANSI_QUOTES}),
    (["SET LOCAL sql_mode = ANSI_QUOTES"], {ANSI_QUOTES}),
    (["SET GLOBAL sql_mode = 'ANSI_QUOTES'"], set()),  # not this session's
    (["SET @@global.sql_mode = 'ANSI_QUOTES'", "SET sql_mode = @@global.sql_mode"], set()),
    (["SET GLOBAL max_connections = 10, SESSION sql_mode = 'ANSI'"], {ANSI_QUOTES}),
    (["SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO,NO_BACKSLASH_ESCAPES'",
      "SET SQL_MODE=@OLD_SQL_MODE"], set()),
    (["SET sql_mode = 'ANSI_QUOTES'", "SET @saved = @@sql_mode", "SET sql_mode = ''", "SET sql_mode = @saved"],
     {ANSI_QUOTES}),
    (["SET sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')"], {NO_BACKSLASH_ESCAPES}),
    (["SET sql_mode = 'ANSI_QUOTES'", "SET sql_mode = (SELECT REPLACE(@@sql_mode, 'ANSI_QUOTES', ''))"], set()),
    (["SET sql_mode = 'ANSI_QUOTES'", "SET sql_mode = DEFAULT"], set()),
    (["SET STATEMENT sql_mode = 'ANSI_QUOTES' FOR SELECT 1"], set()),
    (["SET NAMES utf8mb4"], set()),
])
def test_following_sql_mode(statements: list[str], flags: set[str]) -> None:
    modes = Modes()
    for statement in statements:
        assert modes.apply_set(statement) is None
    assert modes.flags == flags


def test_an_expression_innolint_cannot_evaluate_is_reported_and_changes_nothing() -> None:
    text = f"SET sql_mode = 'NO_BACKSLASH_ESCAPES';\nSET sql_mode = LOWER(@x);\nSELECT 'a{B}';\nSELECT 2;\n"
    statements, notes = split(text)
    assert [s.line for s in statements] == [1, 2, 3, 4]  # still read without backslash escapes
    assert [(n.line, n.column) for n in notes] == [(2, 1)]


@pytest.mark.parametrize("chunk", [None, 1, 3, 17])
@pytest.mark.parametrize("skip", [False, True])
def test_splitting_follows_the_mode(chunk: int | None, skip: bool) -> None:
    text = (f"CREATE TABLE a (s varchar(5) DEFAULT 'x{B}'');\nSET sql_mode='NO_BACKSLASH_ESCAPES';\n"
            f"CREATE TABLE b (s varchar(5) DEFAULT 'y{B}');\nCREATE TABLE c (s varchar(5) DEFAULT \"z{B}\");\n"
            f"/*!40101 SET SQL_MODE='ANSI_QUOTES' */;\nCREATE TABLE \"d{B}\" (\"e\"\"f\" int, `g` int);\n"
            "SET sql_mode = DEFAULT;\nCREATE TABLE \"h\" (i int);\n")
    statements, _ = split(text, chunk=chunk, skip=skip)
    created = [(s.text, s.line) for s in statements if s.text.startswith("CREATE")]
    assert created == [
        (f"CREATE TABLE a (s varchar(5) DEFAULT 'x{B}'')", 1),
        (f"CREATE TABLE b (s varchar(5) DEFAULT 'y{B}{B}')", 3),  # the parser reads the default quoting
        (f"CREATE TABLE c (s varchar(5) DEFAULT \"z{B}{B}\")", 4),
        (f"CREATE TABLE `d{B}` (`e\"f` int, `g` int)", 6),
        ("CREATE TABLE \"h\" (i int)", 8),
    ]


def test_normalize_leaves_comments_and_other_quotes_alone() -> None:
    flags = frozenset({ANSI_QUOTES, NO_BACKSLASH_ESCAPES})
    text = f"SELECT \"a`b\", 'c{B}', `d\"e` -- \"f\"\n/* \"g\" */ # 'h{B}\n"
    assert normalize(text, flags) == f"SELECT `a``b`, 'c{B}{B}', `d\"e` -- \"f\"\n/* \"g\" */ # 'h{B}\n"
    assert normalize(text, frozenset()) == text


# --- the server is the judge ---------------------------------------------------------------------

NAMES = ["t", "t_x", "a b", "q'q", "q\"q", "bs" + B, "dollar$"]
MODE_SETS = ["SET sql_mode='ANSI_QUOTES';", "SET sql_mode='NO_BACKSLASH_ESCAPES';", "SET sql_mode='';",
             "SET SESSION sql_mode='ANSI,NO_BACKSLASH_ESCAPES';", "/*!40101 SET SQL_MODE='ANSI_QUOTES' */;",
             "SET @@sql_mode := CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES');", "SET sql_mode=DEFAULT;"]


def quote_identifier(name: str, ansi: bool, rng: random.Random) -> str:
    if ansi and rng.random() < 0.7:
        return '"' + name.replace('"', '""') + '"'
    return "`" + name.replace("`", "``") + "`"


def quote_string(value: str, nbe: bool) -> str:
    return "'" + (value.replace("'", "''") if nbe else value.replace("\\", "\\\\").replace("'", "\\'")) + "'"


def generated(count: int, seed: int = 6) -> list[str]:
    """Scripts that switch modes and create tables whose names and defaults need the right quoting."""
    rng = random.Random(seed)
    scripts = []
    for _ in range(count):
        modes = Modes()
        lines = []
        for n in range(rng.randint(2, 6)):
            if rng.random() < 0.4:
                statement = rng.choice(MODE_SETS)
                lines.append(statement)
                modes.apply_set(statement.replace("/*!40101 ", "").replace(" */", "").rstrip(";"))
            ansi, nbe = ANSI_QUOTES in modes.flags, NO_BACKSLASH_ESCAPES in modes.flags
            name = quote_identifier(rng.choice(NAMES) + str(n), ansi, rng)
            column = quote_identifier(rng.choice(NAMES), ansi, rng)
            default = quote_string(rng.choice(["x", "a;b", B, "it's", "q\"", "-- c"]), nbe)
            lines.append(f"CREATE TABLE {name} ({column} varchar(20) DEFAULT {default});")
        scripts.append("\n".join(lines) + "\n")
    return scripts


CASES = [
    f"SET sql_mode='ANSI_QUOTES';\nCREATE TABLE \"a{B}\" (i int);\nCREATE TABLE b (i int);\n",
    f"SET sql_mode='NO_BACKSLASH_ESCAPES';\nCREATE TABLE a (s varchar(5) DEFAULT 'y{B}');\nCREATE TABLE c (i int);\n",
    f"CREATE TABLE a (s varchar(5) DEFAULT 'y{B}');\nCREATE TABLE c (i int);\nCREATE TABLE d (s varchar(5) DEFAULT 'z');\n",
    "SET sql_mode='ANSI';\nCREATE TABLE \"a\"\"b\" (i int);\nCREATE TABLE c (\"x\" int);\n",
    "DELIMITER //\nSET sql_mode='ANSI_QUOTES'; CREATE TABLE \"a\" (i int)//\n",
]


@pytest.mark.parametrize("script", CASES + generated(40), ids=lambda s: repr(s[:40]))
def test_the_tables_are_the_servers(mariadb: MariaDB, tmp_path: Path, script: str) -> None:
    ours, _ = replay_text(script, tmp_path, default_schema="t_a")
    assert ours == client_tables(mariadb, script), script
