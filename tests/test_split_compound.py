"""Compound statements under a DELIMITER: stored programs stay whole (and end where their body
ends, not at the delimiter), BEGIN is a transaction, and MariaDB's blocks outside stored programs
(BEGIN NOT ATOMIC, IF, CASE, LOOP, WHILE, REPEAT, FOR) run their DDL: the splitter gives each
statement of a block at its place, and says where what runs is uncertain. The server is the judge
of which tables a script creates."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from linter.input.splitter.compound import BLOCK, ROUTINE, Invalid, Structure, head
from tests.mariadb import MariaDB
from tests.splitting import client_tables, replay_text, split, texts


def items(text: str) -> list[tuple[str, str | None, bool]]:
    structure = Structure(head(text))  # type: ignore[arg-type]
    structure.feed(text, 0, final=True)
    assert structure.error is None, structure.error
    return [(text[i.start : i.end], i.why.format(at=i.at) if i.why else None, i.replay) for i in structure.items]


@pytest.mark.parametrize(("prefix", "expected"), [
    ("BEGIN", None), ("BEGIN WORK", None), ("begin", None), ("BEGIN NOT ATOMIC", BLOCK), ("if 1 then", BLOCK),
    ("CASE", BLOCK), ("LOOP", BLOCK), ("WHILE 1 DO", BLOCK), ("REPEAT", BLOCK), ("FOR i IN 1..2 DO", BLOCK),
    ("CREATE PROCEDURE p()", ROUTINE), ("CREATE DEFINER=`root`@`%` TRIGGER t", ROUTINE),
    ("CREATE OR REPLACE DEFINER = root@localhost SQL SECURITY INVOKER FUNCTION f()", ROUTINE),
    ("CREATE  /* c */ EVENT e", ROUTINE), ("ALTER EVENT e", ROUTINE), ("CREATE AGGREGATE FUNCTION f()", ROUTINE),
    ("CREATE TABLE t (a int)", None), ("CREATE DEFINER=root VIEW v", None), ("SELECT IF(1, 2, 3)", None),
    ("DROP TABLE IF EXISTS t", None), ("INSERT INTO t VALUES (1)", None),
])
def test_heads(prefix: str, expected: str | None) -> None:
    assert head(prefix) == expected


@pytest.mark.parametrize("prefix", ["BEGIN CREATE TABLE t (a int)", "lbl: BEGIN NOT ATOMIC", "l1: LOOP", "DECLARE x int"])
def test_heads_the_server_rejects_at_the_top_level(prefix: str) -> None:
    assert isinstance(head(prefix), Invalid)


def test_the_statements_of_a_block_and_why_they_may_not_run_as_written() -> None:
    text = ("BEGIN NOT ATOMIC\n DECLARE x INT DEFAULT 0;\n DECLARE CONTINUE HANDLER FOR SQLEXCEPTION, NOT FOUND, "
            "SQLSTATE VALUE '42000' CREATE TABLE h (i int);\n CREATE TABLE a (i int);\n"
            " IF x THEN CREATE TABLE b (i int); ELSEIF y THEN DROP TABLE c; ELSE DROP TABLE d; END IF;\n"
            " l1: LOOP CREATE TABLE e (i int); LEAVE l1; END LOOP l1;\n"
            " WHILE (SELECT CASE WHEN 1 THEN 0 END) DO CREATE TABLE w (i int); END WHILE;\n"
            " REPEAT CREATE TABLE r (i int); UNTIL 1 END REPEAT;\n"
            " CASE WHEN 1 THEN CREATE TABLE c1 (i int); WHEN 2 THEN CREATE TABLE c2 (i int); ELSE SELECT 3; END CASE;\n"
            " FOR i IN 1..3 DO CREATE TABLE f (i int); END FOR;\n BEGIN CREATE TABLE n (i int); END;\nEND")
    found = items(text)
    assert [(t, replay) for t, _, replay in found] == [
        ("DECLARE x INT DEFAULT 0", True), ("CREATE TABLE h (i int)", False), ("CREATE TABLE a (i int)", True),
        ("CREATE TABLE b (i int)", True), ("DROP TABLE c", False), ("DROP TABLE d", False),
        ("CREATE TABLE e (i int)", True), ("LEAVE l1", True), ("CREATE TABLE w (i int)", True),
        ("CREATE TABLE r (i int)", True), ("CREATE TABLE c1 (i int)", True), ("CREATE TABLE c2 (i int)", False),
        ("SELECT 3", False), ("CREATE TABLE f (i int)", True), ("CREATE TABLE n (i int)", True),
    ]
    why = dict((t, w) for t, w, _ in found)
    assert why["CREATE TABLE a (i int)"] is None and why["CREATE TABLE n (i int)"] is None
    assert why["CREATE TABLE b (i int)"].startswith("runs only if the condition of the IF")
    assert "later branch" in why["DROP TABLE d"] and "handler" in why["CREATE TABLE h (i int)"]
    assert "any number of times" in why["CREATE TABLE w (i int)"] and "at least once" in why["CREATE TABLE r (i int)"]


@pytest.mark.parametrize("chunk", [None, 1, 3, 64])
def test_a_block_becomes_its_statements_at_their_places(chunk: int | None) -> None:
    text = ("SELECT 1;\nDELIMITER //\nBEGIN NOT ATOMIC\n  -- innolint: ignore[no-primary-key] scratch\n"
            "  CREATE TABLE a (i int);\n  IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE "
            "column_name = 'j') THEN\n    ALTER TABLE a ADD COLUMN j int;\n  ELSE\n    DROP TABLE a;\n  END IF;\nEND//\n"
            "IF @ready THEN CREATE TABLE b (i int); END IF; CREATE TABLE c (i int)//\nDELIMITER ;\nCREATE TABLE d (i int);\n")
    statements, notes = split(text, chunk=chunk, target="mariadb-10.11")
    assert [(s.text, s.line, s.column, s.comments) for s in statements] == [
        ("SELECT 1", 1, 1, ()),
        ("CREATE TABLE a (i int)", 5, 3, ("innolint: ignore[no-primary-key] scratch",)),
        ("ALTER TABLE a ADD COLUMN j int", 7, 5, ()),
        ("CREATE TABLE b (i int)", 12, 16, ()),
        ("CREATE TABLE c (i int)", 12, 48, ()),
        ("CREATE TABLE d (i int)", 14, 1, ()),
    ]
    assert [(n.line, n.rule, n.message.split(":")[0]) for n in notes] == [
        (7, "replay-error", "runs only if the condition of the IF at line 6 holds; innolint replays it as if it ran once, so the schema after it is uncertain"),
        (9, "replay-error", "not replayed"),
        (12, "replay-error", "runs only if the condition of the IF at line 12 holds; innolint replays it as if it ran once, so the schema after it is uncertain"),
    ]


@pytest.mark.parametrize(("condition", "runs"), [
    ("1", "then"), ("0", "else"), ("TRUE", "then"), ("false", "else"), ("NULL", "else"), ("0 = 1", "else"),
    ("2 <> 3", "then"), ("NOT 0", "then"), ("(1 >= 2)", "else"), ("1 != 1", "else"),
])
def test_a_constant_condition_chooses_its_branch(mariadb: MariaDB, tmp_path: Path, condition: str, runs: str) -> None:
    """`IF 0 = 1 THEN ... ELSE ... END IF`: the server runs the branch a constant condition chooses,
    and so does innolint, as certain (no note); a branch that never runs is skipped as the server
    skips it. The mariadb client and server judge each."""
    text = ("CREATE TABLE keep (i int PRIMARY KEY);\nDELIMITER //\n"
            f"IF {condition} THEN CREATE TABLE then_t (i int PRIMARY KEY); DROP TABLE keep;\n"
            f"ELSEIF 1 THEN CREATE TABLE elseif_t (i int PRIMARY KEY);\nELSE CREATE TABLE else_t (i int PRIMARY KEY);\n"
            "END IF//\nDELIMITER ;\n")
    tables, diagnostics = replay_text(text, tmp_path, default_schema="t_a")
    assert tables == client_tables(mariadb, text)
    assert tables == ({"t_a.then_t"} if runs == "then" else {"t_a.keep", "t_a.elseif_t"})
    assert [d for d in diagnostics if d.rule == "replay-error"] == []


def test_begin_is_a_transaction() -> None:
    text = "DELIMITER //\nBEGIN; CREATE TABLE a (i int); COMMIT//\nBEGIN WORK;\nCREATE TABLE b (i int);\nROLLBACK//\n"
    assert texts(text, target="mariadb-10.11") == ["BEGIN", "CREATE TABLE a (i int)", "COMMIT", "BEGIN WORK",
                                                   "CREATE TABLE b (i int)", "ROLLBACK"]


@pytest.mark.parametrize("target", ["mysql-8.0", "mysql-5.7", "percona-8.0"])
def test_mysql_rejects_blocks_with_the_rest_of_their_packet(target: str) -> None:
    text = ("DELIMITER //\nIF 1 THEN CREATE TABLE a (i int); END IF; CREATE TABLE b (i int)//\n"
            "BEGIN NOT ATOMIC CREATE TABLE c (i int); END//\nCREATE TABLE d (i int)//\n")
    statements, notes = split(text, target=target)
    assert [s.text for s in statements] == ["CREATE TABLE d (i int)"]
    assert [(n.line, n.rule) for n in notes] == [(2, "parse-error"), (3, "parse-error")]


@pytest.mark.parametrize("text", [
    "DELIMITER //\nBEGIN\n  CREATE TABLE a (i int);\nEND//\nCREATE TABLE b (i int)//\n",
    "DELIMITER //\nlbl: BEGIN NOT ATOMIC CREATE TABLE a (i int); END lbl//\nCREATE TABLE b (i int)//\n",
    "DELIMITER //\nDECLARE x int; CREATE TABLE a (i int)//\nCREATE TABLE b (i int)//\n",
    "DELIMITER //\nIF 1 THEN CREATE TABLE a (i int); END WHILE; CREATE TABLE z (i int)//\nCREATE TABLE b (i int)//\n",
])
def test_what_the_server_rejects_is_reported_and_not_replayed(text: str) -> None:
    statements, notes = split(text, target="mariadb-10.11")
    assert [s.text for s in statements] == ["CREATE TABLE b (i int)"]
    assert [(n.line, n.rule) for n in notes] == [(2, "parse-error")]


def test_a_stored_program_ends_where_its_body_ends() -> None:
    text = ("DELIMITER //\nCREATE PROCEDURE p() SELECT 1; CREATE TABLE a (i int)//\n"
            "CREATE DEFINER=`root`@`%` PROCEDURE IF NOT EXISTS q(IN x INT) COMMENT 'c' BEGIN IF x THEN SELECT 1; END IF; "
            "END; CREATE TABLE b (i int)//\n"
            "CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW FOLLOWS t0 IF NEW.i THEN SET NEW.i = 1; END IF; "
            "CREATE TABLE c (i int)//\nCREATE FUNCTION f(a INT) RETURNS INT DETERMINISTIC RETURN a + 1; CREATE TABLE d (i int)//\n"
            "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO BEGIN DELETE FROM a; END//\n")
    assert texts(text) == [
        "CREATE PROCEDURE p() SELECT 1", "CREATE TABLE a (i int)",
        "CREATE DEFINER=`root`@`%` PROCEDURE IF NOT EXISTS q(IN x INT) COMMENT 'c' BEGIN IF x THEN SELECT 1; END IF; END",
        "CREATE TABLE b (i int)",
        "CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW FOLLOWS t0 IF NEW.i THEN SET NEW.i = 1; END IF",
        "CREATE TABLE c (i int)", "CREATE FUNCTION f(a INT) RETURNS INT DETERMINISTIC RETURN a + 1",
        "CREATE TABLE d (i int)", "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO BEGIN DELETE FROM a; END",
    ]


def test_goose_statement_blocks_are_split_when_they_hold_a_block() -> None:
    text = ("-- +goose Up\n-- +goose StatementBegin\nBEGIN NOT ATOMIC\n  CREATE TABLE a (i int);\n"
            "  CREATE TABLE b (i int);\nEND;\n-- +goose StatementEnd\n")
    assert [(s.text, s.line) for s in split(text, fmt="goose", target="mariadb-10.11")[0]] == [
        ("CREATE TABLE a (i int)", 4), ("CREATE TABLE b (i int)", 5)]


# --- the server is the judge ---------------------------------------------------------------------


CASES = [
    "DELIMITER //\nIF 1 THEN CREATE TABLE a (i int); END IF; CREATE TABLE b (i int)//\n",
    "DELIMITER //\nFOR i IN 1..1 DO CREATE TABLE IF NOT EXISTS a (i int); END FOR//\nCREATE TABLE b (i int)//\n",
    "DELIMITER //\nBEGIN\nCREATE TABLE a (i int); END//\nCREATE TABLE b (i int)//\n",
    "DELIMITER //\nDECLARE x int; CREATE TABLE a (i int)//\nCREATE TABLE b (i int)//\n",
    "DELIMITER //\nCASE WHEN 1 THEN CREATE TABLE a (i int); WHEN 1 THEN CREATE TABLE c (i int); "
    "ELSE CREATE TABLE d (i int); END CASE//\n",
    "DELIMITER //\nBEGIN; CREATE TABLE a (i int); COMMIT//\nBEGIN WORK; CREATE TABLE c (i int); ROLLBACK//\n",
    "DELIMITER //\nl1: LOOP CREATE TABLE a (i int); LEAVE l1; END LOOP l1//\nREPEAT CREATE TABLE d (i int); "
    "UNTIL 1 END REPEAT//\n",
    "DELIMITER //\nCREATE PROCEDURE p() SELECT 1; CREATE TABLE a (i int)//\n",
    "DELIMITER //\nCREATE TABLE base (i int)//\nCREATE TRIGGER tr BEFORE INSERT ON base FOR EACH ROW SET @x = 1; "
    "CREATE TABLE a (i int)//\n",
    "DELIMITER //\nBEGIN NOT ATOMIC CREATE TABLE a (i int); BEGIN CREATE TABLE c (i int); END; END//\n",
    "DELIMITER //\nBEGIN NOT ATOMIC l1: LOOP CREATE TABLE a (i int); LEAVE l1; END LOOP l1; END//\n",
    "DELIMITER //\nIF 1 THEN BEGIN NOT ATOMIC CREATE TABLE a (i int); END; END IF//\n",
    "DELIMITER ;;\nIF 1 THEN CREATE TABLE a (i int); END IF;;\n",
]


def unit(rng: random.Random, names: list[int], depth: int, in_block: bool) -> str:
    """One statement inside a compound body; every condition is true and every loop runs once,
    which is what innolint replays, so the tables must be the server's."""
    n = names[0] = names[0] + 1
    choice = rng.random() if depth < 3 else 0.0
    body = lambda: " ".join(unit(rng, names, depth + 1, in_block) for _ in range(rng.randint(1, 3)))  # noqa: E731
    if choice < 0.45:
        return f"CREATE TABLE t{n} (i int);"
    if choice < 0.55:
        return f"IF 1 THEN {body()} ELSE CREATE TABLE never{n} (i int); END IF;"
    if choice < 0.62:
        return f"CASE WHEN 1 THEN {body()} ELSE CREATE TABLE never{n} (i int); END CASE;"
    if choice < 0.7:
        return f"REPEAT {body()} UNTIL 1 END REPEAT;"
    if choice < 0.78:
        return f"FOR i{n} IN 1..1 DO {body()} END FOR;"
    if choice < 0.86 and in_block:
        return f"l{n}: LOOP {body()} LEAVE l{n}; END LOOP l{n};"
    if choice < 0.93:
        return f"BEGIN {body()} END;"
    return f"SELECT {n};"


def generated(count: int, seed: int = 4) -> list[str]:
    rng = random.Random(seed)
    scripts = []
    for _ in range(count):
        names = [0]
        packets = []
        for _ in range(rng.randint(1, 3)):
            kind = rng.random()
            if kind < 0.4:
                statements = " ".join(unit(rng, names, 0, True) for _ in range(rng.randint(1, 4)))
                handler = "DECLARE CONTINUE HANDLER FOR SQLEXCEPTION CREATE TABLE never_h (i int); " if rng.random() < 0.3 else ""
                packets.append(f"BEGIN NOT ATOMIC\n  {handler}{statements}\nEND")
            elif kind < 0.8:
                packets.append(unit(rng, names, 1, False).rstrip(";") + f"; CREATE TABLE after{names[0]} (i int)")
            else:
                names[0] += 1
                packets.append(f"CREATE TABLE plain{names[0]} (i int); SELECT 1")
        scripts.append("DELIMITER //\n" + "//\n".join(packets) + "//\nDELIMITER ;\n")
    return scripts


@pytest.mark.parametrize("script", CASES + generated(40), ids=lambda s: repr(s[13:53]))
def test_the_tables_are_the_servers(mariadb: MariaDB, tmp_path: Path, script: str) -> None:
    ours, _ = replay_text(script, tmp_path, default_schema="t_a")
    assert ours == client_tables(mariadb, script), script


def test_the_engine_reports_the_notes_and_a_directive_silences_one(tmp_path: Path) -> None:
    text = ("DELIMITER //\nBEGIN NOT ATOMIC\n  IF @a THEN\n    CREATE TABLE a (id int PRIMARY KEY);\n  END IF;\n"
            "  IF @b > 0 THEN\n    -- innolint: ignore[replay-error] created by the installer every time\n"
            "    CREATE TABLE b (id int PRIMARY KEY);\n  END IF;\nEND//\n")
    tables, diagnostics = replay_text(text, tmp_path)
    assert tables == {"a", "b"}
    assert [(d.rule, d.severity, d.line) for d in diagnostics] == [("replay-error", "warning", 4),
                                                                     ("replay-error", "warning", 8)]
    from linter.rules.checkapi import CheckContext
    from linter.engine import lint_paths
    from linter.schema.target import Target

    report = lint_paths([str(tmp_path / "schema.sql")], CheckContext(target=Target.parse("mariadb-10.11")))
    assert [(d.rule, d.line) for d in report.diagnostics] == [("replay-error", 4)]
