"""`--` without a space after it, as the mysql client reads it (issue 34).

The server takes `--` as a comment only when whitespace or the end of the line follows (MySQL
manual, 11.7 "Comments"; 1.7.2.4 "'--' as the Start of a Comment"). The client (client/mysql.cc,
add_line, the same condition in MariaDB's and MySQL's) also drops the rest of a line from a `--`
when it holds nothing of a statement yet: its buffer is empty (no earlier line of a statement, no
packet it has not sent under another delimiter, no executable comment it keeps) and nothing of
the line is kept (leading blanks, a `;` and what came before it, a plain `/* */` comment are not).
So `--DROP TABLE t;` alone on a line is never sent, while inside a statement it is. Migration tools
that send a file's text themselves (Flyway, golang-migrate, goose ...) follow the server, not the
client. The real `mariadb` client is the judge here, on hand-written and generated scripts.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.mariadb import MariaDB
from tests.splitting import client_tables, replay_text, split, texts

B = "\\"
A = "CREATE TABLE a (i int);"


@pytest.mark.parametrize(("text", "expected"), [
    (f"--DROP TABLE x;\n{A}\n", ["CREATE TABLE a (i int)"]),
    (f"  --x\n{A}\n", ["CREATE TABLE a (i int)"]),
    (f"\t--x\n{A}\n", ["CREATE TABLE a (i int)"]),
    (f"--x;{A}\n", []),  # the whole line is the comment, the CREATE on it too
    (f"CREATE TABLE b (i int); --x; {A}\n", ["CREATE TABLE b (i int)"]),
    (f"CREATE TABLE b (i int);--x\n{A}\n", ["CREATE TABLE b (i int)", "CREATE TABLE a (i int)"]),
    (f"/* c */--x;{A}\n", []),
    (f"/* c\n*/ --x;{A}\n", []),
    (f"--x\r\n{A}\r\n", ["CREATE TABLE a (i int)"]),
    (f"{A}\n--x", ["CREATE TABLE a (i int)"]),
    (f"DELIMITER //\n--x//\nCREATE TABLE a (i int)//\n", ["CREATE TABLE a (i int)"]),
    (f"CREATE TABLE b (i int) {B}g--x; {A}\n", ["CREATE TABLE b (i int)"]),
])
def test_where_the_client_holds_nothing_a_double_dash_is_a_comment(text: str, expected: list[str]) -> None:
    for chunk in (None, 1, 2, 3, 7):
        assert texts(text, chunk=chunk) == expected, (text, chunk)


@pytest.mark.parametrize(("text", "expected"), [
    ("CREATE TABLE a (\n--x\ni int);\n", ["CREATE TABLE a (\n--x\ni int)"]),
    ("CREATE TABLE b (i int)\n--x;\n", ["CREATE TABLE b (i int)\n--x"]),
    ("SET @s = 'a\n--x';\n", ["SET @s = 'a\n--x'"]),
    ("CREATE TABLE b (i int)\n-----\n;\n", ["CREATE TABLE b (i int)\n-----"]),  # minus signs to the server
    # a packet not sent yet under another delimiter: the client's buffer holds it
    ("DELIMITER //\nCREATE TABLE b (i int);\n--x\nCREATE TABLE a (i int)//\n",
     ["CREATE TABLE b (i int)", "--x\nCREATE TABLE a (i int)"]),
])
def test_where_the_client_holds_a_statement_a_double_dash_is_sent(text: str, expected: list[str]) -> None:
    for chunk in (None, 1, 2, 5):
        assert texts(text, chunk=chunk) == expected, (text, chunk)


@pytest.mark.parametrize("fmt", ["flyway", "golang-migrate", "goose", "dbmate"])
def test_tools_that_send_the_text_themselves_follow_the_server(fmt: str) -> None:
    assert texts(f"--x\n{A}\n", fmt=fmt) == ["--x\nCREATE TABLE a (i int)"]
    assert texts(f"-- x\n{A}\n", fmt=fmt) == ["CREATE TABLE a (i int)"]


def test_a_directive_after_a_double_dash_without_space_is_a_comment_the_splitter_reads() -> None:
    statements, _ = split(f"--innolint: ignore-file\n{A}\n", skip=True)
    assert [s.text for s in statements] == ["CREATE TABLE a (i int)"]
    assert statements[0].comments == ("innolint: ignore-file",)


# --- the client is the judge ---------------------------------------------------------------------

CASES = [
    f"--x\n{A}\n", f"  --x\n{A}\n", f"\t--x\n{A}\n", f"\f--x\n{A}\n", f"\u00a0--x\n{A}\n", f"\ufeff--x\n{A}\n",
    f"CREATE TABLE b (i int); --x\n{A}\n", f"CREATE TABLE b (i int);--x\n{A}\n",
    "CREATE TABLE a (\n--x\ni int);\n", f"/* c */--x\n{A}\n", f"/* c\n*/--x\n{A}\n", f"/*!99999 x */\n--x\n{A}\n",
    f"/*M!999999 x */\n--x\n{A}\n", f"/*!99999 x */;\n--x\n{A}\n",
    "CREATE TABLE a (s varchar(9) DEFAULT 'x\n--y');\n", "CREATE TABLE `q\n--x` (i int);\nCREATE TABLE c (i int);\n",
    "DELIMITER //\n--x\nCREATE TABLE a (i int)//\n",
    "DELIMITER //\nCREATE TABLE b (i int);\n--x\nCREATE TABLE a (i int)//\n",
    "DELIMITER //\nCREATE TABLE b (i int)// --x\nCREATE TABLE a (i int)//\n",
    f"--x;{A}\n", f"--x -- y\n{A}\n", f"SET @a=1\n--x\n;{A}\n", f"CREATE TABLE b (i int) {B}c --x;{A}\n",
    f"CREATE TABLE b (i int) {B}g--x; CREATE TABLE c (i int);\n{A}\n", f"{A}\n--", f"---x\n{A}\n",
    "CREATE TABLE a (i int)\n-----------\n;\n", f"--x\r\n{A}\r\n", f"{A} /* c */ --x;CREATE TABLE b (i int);\n",
    f"# c\n--x\n{A}\n", f"CREATE TABLE b (i int);\n\n  \n--x\n{A}\n", f"CREATE TABLE b (i int)\n/* c */ --x;\n{A}\n",
    f"/*!40101 SET @x=1 */;--x; CREATE TABLE b (i int);\n{A}\n", "DELIMITER ;;\n--x;;\nCREATE TABLE a (i int);;\n",
    "DELIMITER ;;\nCREATE TABLE b (i int);\n--x\nCREATE TABLE a (i int);;\n",
    f"--x\n  CREATE TABLE b (i int)\n--y\n;\n{A}\n", f"/*!40101 CREATE TABLE b (i int);\n--x\nCREATE TABLE a (i int) */;\n",
    f"use t_b\n--x\n{A}\n", f"{B}u t_b --x\n{A}\n", f"SET @s = 'a\n--x';\n{A}\n",
    "DELIMITER //\nCREATE PROCEDURE p() BEGIN\n--x\nSELECT 1; END//\nDELIMITER ;\n--y\nCREATE TABLE a (i int);\n",
]

#: what generated scripts are made of: statements on one line or several, and the places a `--x`
#: line may stand (alone, indented, after a statement's delimiter, after a comment, inside a statement)
DASHES = ["--x", "--DROP TABLE t{m};", f"--{A}", "---", f"--\t{A}", "-- x"]
PREFIXES = ["", "  ", "\t", "/* c */", "/* c */ ", "; ", "/*!99999 k */ "]


def generated(count: int, seed: int = 34) -> list[str]:
    rng = random.Random(seed)
    scripts = []
    for _ in range(count):
        delimiter = ";"
        lines = []
        for n in range(rng.randint(3, 9)):
            kind = rng.random()
            dash = rng.choice(DASHES).format(m=rng.randint(0, n))
            if kind < 0.35:
                lines.append(f"CREATE TABLE t{n} (i int){delimiter}")
            elif kind < 0.55:  # a statement over lines with a dash line inside
                lines += [f"CREATE TABLE t{n} (", rng.choice(["  i int", dash, f"  {dash}"]), f"){delimiter}"]
            elif kind < 0.9:
                lines.append(rng.choice(PREFIXES) + dash)
            elif delimiter == ";":
                lines.append("DELIMITER //")
                delimiter = "//"
            else:
                lines += [f"CREATE TABLE u{n} (i int);", rng.choice([dash, "SELECT 1"]), "//", "DELIMITER ;"]
                delimiter = ";"
        scripts.append("\n".join(lines) + "\n")
    return scripts


@pytest.mark.parametrize("script", CASES + generated(40), ids=lambda s: repr(s[:40]))
def test_the_tables_are_the_clients(mariadb: MariaDB, tmp_path: Path, script: str) -> None:
    ours, _ = replay_text(script, tmp_path, default_schema="t_a")
    assert ours == client_tables(mariadb, script), script


@pytest.mark.parametrize("chunk", [1, 2, 3, 64])
def test_any_chunks_split_the_same(chunk: int) -> None:
    for script in CASES + generated(40):
        assert split(script, chunk=chunk) == split(script), script
