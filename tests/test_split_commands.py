"""Client commands as the mysql/mariadb client reads them: `\\g` and `\\G` end a statement, `\\c`
throws away the one being typed, `\\u db` and `use db` change the database like USE, `\\d` the
delimiter, `\\q`/`exit` stop the client; the others (`\\W`, `\\p`, `\\t` ...) are not SQL and never
glue themselves to a statement. The real `mariadb` client is the judge (tests at the end)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from linter.input.splitter import output
from tests.mariadb import MariaDB
from tests.splitting import client_tables, replay_text, split, texts

B = "\\"


@pytest.mark.parametrize("chunk", [None, 1, 2, 5, 64])
def test_go_ego_and_the_commands_without_argument(chunk: int | None) -> None:
    text = (f"CREATE TABLE a (i int){B}g\nCREATE TABLE b (i int) {B}G CREATE TABLE c (i int){B}g\n{B}W\n{B}w\n"
            f"CREATE {B}p TABLE d (i int);\n{B}t\n{B}n {B}s\n{B}# CREATE TABLE e (i int);\n")
    assert [(s.text, s.line) for s in split(text, chunk=chunk)[0]] == [
        ("CREATE TABLE a (i int)", 1), ("CREATE TABLE b (i int)", 2), ("CREATE TABLE c (i int)", 2),
        ("CREATE  TABLE d (i int)", 5), ("CREATE TABLE e (i int)", 8),
    ]


@pytest.mark.parametrize("chunk", [None, 1, 3, 64])
def test_clear_throws_away_the_statement_typed_so_far(chunk: int | None) -> None:
    text = f"CREATE TABLE a (\n  i int) {B}c CREATE TABLE b (i int);\n{B}c\nCREATE TABLE c (i int) /* {B}c */;\n"
    assert texts(text, chunk=chunk) == ["CREATE TABLE b (i int)", "CREATE TABLE c (i int) /* \\c */"]


@pytest.mark.parametrize("chunk", [None, 1, 4, 64])
def test_use_by_letter_and_by_name(chunk: int | None) -> None:
    text = (f"{B}u db1\nCREATE TABLE a (i int);\n  USE   db2  \nCREATE TABLE b (i int);\n{B}u `my db` extra; "
            f"CREATE TABLE c (i int);\nCREATE TABLE d (i int) {B}u db3\n;\nuse 'db4'\nuse db5; CREATE TABLE e (i int);\n")
    assert [(s.text, s.line, s.column) for s in split(text, chunk=chunk)[0]] == [
        ("USE `db1`", 1, 1), ("CREATE TABLE a (i int)", 2, 1), ("USE `db2`", 3, 3), ("CREATE TABLE b (i int)", 4, 1),
        ("USE `my db`", 5, 1), ("CREATE TABLE c (i int)", 5, 19),
        # a command inside a statement runs at once, before the statement is sent
        ("USE `db3`", 6, 24), ("CREATE TABLE d (i int)", 6, 1),
        ("USE `db4`", 8, 1), ("use db5", 9, 1), ("CREATE TABLE e (i int)", 9, 10),
    ]


def test_delimiter_by_letter_takes_the_rest_of_the_line_up_to_the_new_delimiter() -> None:
    text = f"{B}d //\nCREATE TABLE a (i int)//\n{B}d ;; CREATE TABLE b (i int);;\n{B}d\nCREATE TABLE c (i int);;\n"
    assert texts(text) == ["CREATE TABLE a (i int)", "CREATE TABLE b (i int)", "CREATE TABLE c (i int)"]
    # inside a statement the delimiter changes at once, and the statement goes on
    assert texts(f"CREATE TABLE a (i int) {B}d //\nCREATE TABLE b (i int)//\n") == [
        "CREATE TABLE a (i int) \nCREATE TABLE b (i int)"]


@pytest.mark.parametrize("stop", [f"{B}q", "exit", "quit", "  QUIT  ", f"CREATE TABLE q (i int) {B}q"])
def test_quit_stops_reading_and_says_so(stop: str) -> None:
    text = f"CREATE TABLE a (i int);\n{stop}\nCREATE TABLE b (i int);\nCREATE TABLE c (i int);\n"
    statements, notes = split(text, chunk=3)
    expected = ["CREATE TABLE a (i int)"] + (["CREATE TABLE q (i int)"] if "CREATE" in stop else [])
    assert [s.text for s in statements] == expected
    (note,) = notes
    assert note.line == 2 and "stops reading here" in note.message and "2 more lines" in note.message


@pytest.mark.parametrize(("line", "expected"), [
    ("quit now", ["quit now\nCREATE TABLE a (i int)"]),  # quit takes no argument: SQL
    ("go on", ["go on\nCREATE TABLE a (i int)"]),
    ("statusx", ["statusx\nCREATE TABLE a (i int)"]),
    ("exit;", ["exit"]),  # a line with the delimiter is SQL, sent; `exit` alone then quits the client
    ("use x; ", ["use x", "CREATE TABLE a (i int)"]),
    ("use", ["CREATE TABLE a (i int)"]),  # a command without its argument: the client says so, nothing runs
    ("source", ["CREATE TABLE a (i int)"]),
])
def test_a_command_name_is_a_command_only_alone_on_its_line(line: str, expected: list[str]) -> None:
    assert texts(f"{line}\nCREATE TABLE a (i int);\n") == expected


@pytest.mark.parametrize("use", ["DELIMITER $$\nUSE t_b;\n", f"{B}u t_b;\n", "DELIMITER //\nuse t_b;//\n"])
def test_a_database_name_with_the_semicolon_is_the_clients_and_reported(use: str) -> None:
    statements, notes = split(use + "CREATE TABLE a (i int);\n", target="mariadb-10.11")
    assert [s.text for s in statements] == ["CREATE TABLE a (i int)"]  # (the USE fails: checked by the client in
    assert any("with its `;`" in n.message and "from here on" in n.message for n in notes), notes  # ..._clients)


def test_commands_innolint_cannot_follow_are_reported() -> None:
    text = f"source other.sql\n{B}. more.sql\nsystem rm -rf x\n{B}! ls\n{B}r db9 host\nCREATE TABLE a (i int);\n"
    statements, notes = split(text)
    assert [s.text for s in statements] == ["USE `db9`", "CREATE TABLE a (i int)"]
    assert [(n.line, n.severity) for n in notes] == [(1, "warning"), (2, "warning"), (3, "warning"), (4, "warning"),
                                                    (5, "info")]


def test_backslashes_in_quotes_comments_and_other_formats_are_not_commands() -> None:
    text = f"CREATE TABLE a (s varchar(9) DEFAULT '{B}c', `x{B}g` int) -- {B}c\n;\n"
    assert texts(text) == [f"CREATE TABLE a (s varchar(9) DEFAULT '{B}c', `x{B}g` int) -- {B}c"]
    assert texts(f"CREATE TABLE a (i int){B}g\nSELECT 2;", fmt="flyway") == [f"CREATE TABLE a (i int){B}g\nSELECT 2"]


# --- the client is the judge ---------------------------------------------------------------------


CASES = [
    f"CREATE TABLE a (i int){B}g\nCREATE TABLE b (i int){B}G\n{B}W\nCREATE TABLE c (i int);\n{B}u t_b\n"
    f"CREATE TABLE d (i int);\n{B}d //\nCREATE TABLE e (i int)//\n{B}d ;\nCREATE TABLE f (i int) {B}c\n"
    f"CREATE TABLE g (i int);\n{B}p\nCREATE TABLE h (i int);\n{B}t\nCREATE TABLE i1 (i int);\n",
    f"use t_b\nCREATE TABLE a (i int);\n  USE   t_a  \nCREATE TABLE b (i int);\n",
    f"{B}u t_b extra; CREATE TABLE z (i int);\n",
    f"CREATE TABLE a (i int) {B}u t_b\n;CREATE TABLE b (i int);\n",
    f"CREATE TABLE a (i int) {B}q\nCREATE TABLE b (i int);\n",
    "CREATE TABLE a (i int);\nexit\nCREATE TABLE b (i int);\n",
    "CREATE TABLE a (i int);\nquit now\n;CREATE TABLE b (i int);\n",
    f"CREATE TABLE a (i int) {B}d //\nCREATE TABLE b (i int)//\n",
    f"{B}d // CREATE TABLE a (i int)//\n",
    f"{B}d\nCREATE TABLE a (i int);\n",
    f"CREATE TABLE a (i int) /* {B}c */;\nCREATE TABLE b (i int) -- {B}c\n;",
    f"CREATE TABLE a (i int)\\g CREATE TABLE b (i int)\\G\n",
    f"{B}- CREATE TABLE a (i int);\n",
    f"CREATE TABLE a (i int) {B}\nCREATE TABLE b (i int);\n",
    f"CREATE TABLE a (s varchar(9) DEFAULT '{B}c');\nCREATE TABLE b (i int);\n",
    f"{B}u `t_b`\nCREATE TABLE a (i int);\n{B}u t_a\nCREATE TABLE b (i int);\n",
    "DELIMITER // junk\nCREATE TABLE b (i int)//\n",
    "DELIMITER '//'\nCREATE TABLE b (i int)//\nDELIMITER ;\nCREATE TABLE c (i int);\n",
    # a command while a statement is open: `\d` changes the delimiter and the statement takes the
    # text up to the new one; the mariadb client sends a DELIMITER line as text. The server refuses
    # the glued statement and runs nothing after it in its packet
    f"CREATE TABLE a (i int);\n{B}d //\nCREATE INDEX ix ON a (i)\nDELIMITER ;;\nCREATE TABLE b (i int);;\n",
    f"SET @a := 1\n{B}d ;;\nBEGIN; CREATE TABLE c (i int); COMMIT;;\nCREATE TABLE c2 (i int);;\n",
    f"CREATE TABLE a2 (i int);\nALTER TABLE a2 ADD b INT FIRST\n{B}d //\nBEGIN; DROP TABLE a2; COMMIT//\n",
    f"DO 1\n{B}d $$\nSTART TRANSACTION; DROP TABLE IF EXISTS a; CREATE TABLE d (i int); COMMIT$$\n",
    f"CREATE TABLE a (i int);\nINSERT INTO a VALUES (1)\n{B}d //\nCOMMIT; CREATE TABLE e (i int)//\n",
    # an executable comment between statements is text the client keeps (a plain one it drops):
    # a DELIMITER line or a command by name after it is no command to the mariadb client
    "/*!80023 CREATE TABLE f (i int) */\nDELIMITER $$\nCREATE TABLE g (i int)$$\n",
    "/*!99999 x */\nDELIMITER //\nCREATE TABLE h (i int);\n",
    "/* plain */\nDELIMITER //\nCREATE TABLE i2 (i int)//\n",
    "/*M!100301 SELECT 1 */\nDELIMITER //\nCREATE TABLE j (i int);\nCREATE TABLE k (i int)//\n",
    "/*!40101 SET @x = 1 */;\nDELIMITER //\nCREATE TABLE m (i int)//\n",
    "/*!99999 x */\nuse t_b\nCREATE TABLE n (i int);\n",
    # a packet not sent yet (statements up to a `;` under another delimiter): `\c` throws all of
    # it away, `\u` changes the database before any of it runs, `\d ;` leaves it open up to the
    # next `;`, where an error stops the rest (fuzz seed 396)
    f"DELIMITER //\nCREATE TABLE a (i int); CREATE TABLE b (i int) {B}c\nCREATE TABLE c (i int)//\n",
    f"DELIMITER $$\nCREATE TABLE a (i int);\nCREATE TABLE a (i int);\nCREATE TABLE b (i int) {B}c\n"
    "CREATE TABLE c (i int)$$\n",
    f"{B}d //\nCREATE TABLE a (i int); CREATE TABLE b (i int);\n{B}d ;\nCREATE TABLE c (i int) {B}c\n"
    "CREATE TABLE d (i int);\n",
    f"{B}d //\nCREATE TABLE a (i int); CREATE TABLE a (j int);\n{B}d ;\nCREATE TABLE b (i int);\nCREATE TABLE c (i int);\n",
    f"{B}d $$\nDROP TABLE nope;\n{B}d ;\n/*!50001 CREATE TABLE a (i int) ROW_FORMAT=COMPACT */;\nCREATE TABLE b (i int);\n",
    f"{B}d $$\nUSE t_b$$\nALTER TABLE t_b.x DROP PRIMARY KEY\nDELIMITER ;;\n{B}d ;\nCREATE TABLE T2 (i int);\n",
    f"DELIMITER //\nCREATE TABLE a (i int); {B}u t_b\nCREATE TABLE b (i int)//\nDELIMITER ;\nCREATE TABLE c (i int);\n",
    f"DELIMITER ;;\nCREATE TABLE a (i int);\n{B}u t_b\nCREATE TABLE b (i int);\n{B}c\n{B}u t_a\nCREATE TABLE c (i int);;\n"
    f"CREATE TABLE d (i int);\n{B}g\n",
    f"DELIMITER //\nCREATE TABLE a (i int);\nBEGIN NOT ATOMIC CREATE TABLE b (i int); END;\n{B}c\nCREATE TABLE c (i int)//\n",
    f"DELIMITER //\nCREATE TABLE a (i int);\n/*!40101 SET sql_mode=ANSI_QUOTES */;\n{B}c CREATE TABLE \"b\" (i int)//\n"
    "CREATE TABLE c (i int)//\n",
    f"DELIMITER //\nCREATE TABLE a (i int); {B}G\nCREATE TABLE b (i int); {B}c CREATE TABLE c (i int);//\n",
    # an empty statement in a packet (blanks, comments, an executable comment that does not run)
    # is refused with the rest of the packet when more follows it; at the packet's end it is not
    "DELIMITER //\nCREATE TABLE a (i int);;\nCREATE TABLE b (i int);//\nCREATE TABLE c (i int); ;\n#x\n;//\n",
    "DELIMITER //\n/* plain */;\nCREATE TABLE a (i int)//\nCREATE TABLE b (i int);\n/* c */; /* d */\n//\n",
    "DELIMITER $$\n/*!99999 x */;\nCREATE TABLE a (i int)$$\nCREATE TABLE b (i int);\n/*M!999999 x */;$$\n",
    "DELIMITER //\nCREATE TABLE a (i int); ; /*!40101 */ ;//\nCREATE TABLE b (i int)//\n",
    f"{B}d ;;\nCREATE TABLE a (i int);\n  -- c\n;CREATE TABLE b (i int);;\n",
    # an executable comment the server skips goes with the next statement, whichever lane reads it:
    # a command by name after that statement is one again (fuzz seed 401)
    "/*!80023 DROP TABLE x */\nCREATE TABLE a (i int);\nuse t_b\nCREATE TABLE b (i int);\n",
    "/*!99999 x */\nSET @a = 1;\nexit\nCREATE TABLE c (i int);\n",
    "/*M!999999 x */\nCREATE TABLE a (i int);\nDELIMITER //\nCREATE TABLE b (i int)//\n",
    # `exit` or `quit` sent alone: the server refuses it, then the client quits; `exit now` it only sends
    "CREATE TABLE a (i int);\nexit;\nCREATE TABLE b (i int);\n",
    "CREATE TABLE a (i int); QUIT /* c */;\nCREATE TABLE b (i int);\n",
    "CREATE TABLE a (i int);\nexit now;\nCREATE TABLE b (i int);\n",
    "DELIMITER $$\nCREATE TABLE a (i int)$$\nexit$$\nCREATE TABLE b (i int)$$\n",
    "DELIMITER $$\nexit;$$\nCREATE TABLE b (i int)$$\n",
    # `use db;` alone at another delimiter: the client's `use`, whose argument keeps the `;`
    "DELIMITER $$\nuse t_b;$$\nCREATE TABLE a (i int)$$\nuse t_b ;$$\nCREATE TABLE b (i int)$$\n",
    "DELIMITER $$\nUSE t_b;\nCREATE TABLE a (i int)$$\nSELECT 1;\nuse t_b;\nCREATE TABLE b (i int)$$\n",
    # `?` is `help` (issue 37: alone on a line it swallowed the next CREATE TABLE); a command named at
    # the delimiter is the client's too (`connect t_b;` reconnects into t_b: issue 37), not SQL
    "CREATE TABLE a (i int);\n?\nCREATE TABLE b (i int);\n",
    "?\nCREATE TABLE b (i int);\n",
    "? contents\nCREATE TABLE b (i int);\n",
    "?;\nCREATE TABLE b (i int);\n",
    "help contents;\nCREATE TABLE b (i int);\n",
    "connect t_b;\nCREATE TABLE c (i int);\n",
    "connect t_b\nCREATE TABLE c (i int);\n",
    f"{B}r t_b\nCREATE TABLE c (i int);\n",
    "use t_b;\nconnect;\nCREATE TABLE d (i int);\n",
    "CONNECT t_b ;\nCREATE TABLE c (i int);\n",
    "connect\nt_b;\nCREATE TABLE c (i int);\n",
    "status;\nCREATE TABLE e (i int);\n",
    "warnings;\nnowarning;\ncharset utf8mb4;\nCREATE TABLE f (i int);\n",
    "CREATE TABLE a (i int);\nclear;\nCREATE TABLE e (i int);\n",
    "DELIMITER //\nconnect t_b//\nCREATE TABLE c (i int)//\n",
    "CREATE TABLE a (i int); connect t_b;\nCREATE TABLE c (i int);\n",
    "connect t_b; CREATE TABLE c (i int);\n",
    # a DELIMITER line longer than innolint reads of it (`COMMAND_LINE`): the rest of the line is the command's
    "DELIMITER //" + " " * 4100 + "CREATE TABLE z (i int)//\nCREATE TABLE a (i int)//\nDELIMITER ;\nCREATE TABLE b (i int);\n",
    "\nDELIMITER ;;" + " " * 5000 + ";; CREATE TABLE z (i int);;\nCREATE TABLE c (i int);;\n",
]

#: what generated scripts are made of: statements with their end, and client commands between them
#: (none that writes files, pages, edits or runs a shell). Under `//` a `;` leaves the packet open
#: for what follows (a `\\c`, a `\\u`, a `\\d ;`, a second CREATE of the same table that stops it)
ENDS = {";": [";", f"{B}g", f"{B}G", f" {B}c", f" {B}q", ";"],
        "//": ["//", f"{B}g", "; CREATE TABLE u{n} (i int)//", ";", "; CREATE TABLE t{n} (j int);", f" {B}c",
               "; CREATE TABLE u{n} (i int);", ";;", "; /* c */;\n"]}
COMMANDS = [f"{B}W", f"{B}w", f"{B}p", f"{B}t", f"{B}n", f"{B}#", f"{B}s", f"{B}u t_b ", f"{B}u t_a ", "\nuse t_b\n",
            "\nuse t_a\n", "\nexit\n", "\n", " ", "-- c\n", "/* x */", "\n  USE t_b\n", f"{B}-"]
SWITCHES = {";": [f"{B}d // ", "\nDELIMITER //\n"], "//": [f"{B}d ; ", "\nDELIMITER ;\n"]}


def generated(count: int, seed: int = 14) -> list[str]:
    rng = random.Random(seed)
    scripts = []
    for _ in range(count):
        delimiter = ";"
        parts = []
        for n in range(rng.randint(2, 10)):
            kind = rng.random()
            if kind < 0.5:
                parts.append(f"CREATE TABLE t{n} (i int)" + rng.choice(ENDS[delimiter]).format(n=n))
            elif kind < 0.85:
                parts.append(rng.choice(COMMANDS))
            else:
                parts.append(rng.choice(SWITCHES[delimiter]))
                delimiter = "//" if delimiter == ";" else ";"
        scripts.append("".join(parts) + "\n")
    return scripts


@pytest.mark.parametrize("script", CASES + generated(60), ids=lambda s: repr(s[:40]))
def test_the_tables_are_the_clients(mariadb: MariaDB, tmp_path: Path, script: str) -> None:
    ours, _ = replay_text(script, tmp_path, default_schema="t_a")
    assert ours == client_tables(mariadb, script), script


@pytest.mark.parametrize("chunk", [1, 2, 5, 64])
def test_an_open_packet_is_held_the_same_in_any_chunks(chunk: int) -> None:
    for script in CASES:
        assert split(script, chunk=chunk, target="mariadb-10.11") == split(script, target="mariadb-10.11"), script


def test_a_packet_too_big_to_hold_is_let_go_and_clearing_it_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output, "_HELD_CHARS", 200)
    script = "DELIMITER //\n" + "".join(f"CREATE TABLE t{n} (i int);\n" for n in range(20)) + f"{B}c\nCREATE TABLE z (i int)//\n"
    statements, notes = split(script, chunk=16, target="mariadb-10.11")
    assert [s.text for s in statements][-1] == "CREATE TABLE z (i int)"
    assert len(statements) == 21  # let go: innolint has replayed them ...
    assert [(n.line, "already replayed" in n.message) for n in notes] == [(22, True)]  # ... and says so at the `\c`
    small = "DELIMITER //\n" + "".join(f"CREATE TABLE t{n} (i int);\n" for n in range(3)) + f"{B}c\nCREATE TABLE z (i int)//\n"
    statements, notes = split(small, chunk=16, target="mariadb-10.11")
    assert [s.text for s in statements] == ["CREATE TABLE z (i int)"] and notes == []
