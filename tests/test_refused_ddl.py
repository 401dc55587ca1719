"""refused-ddl (checks/refused_ddl.py): the statements the target refuses, with the server's own
error number, judged by MariaDB 10.11; never a statement innolint cannot judge (after a CALL or
dynamic SQL, after a statement the server may stop its packet at, DDL run under a condition, a
table the input never defined).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from linter.cli import main
from linter.engine import lint_paths
from linter.rules.checkapi import CheckContext
from linter.schema.target import Target
from tests.helpers import lint_sql

#: statements (one a line, {t} {u} {a} {b} {k} for names) the server refuses or runs, in order: a
#: history of mistakes; the server decides which and with what error
SCRIPT = [
    "CREATE TABLE {t} (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, {a} INT NOT NULL, {b} VARCHAR(20), KEY {k} ({a})) ENGINE=InnoDB",
    "ALTER TABLE {t} DROP PRIMARY KEY",  # 1075
    "ALTER TABLE {t} MODIFY {a} BIGINT NOT NULL, ALGORITHM=INPLACE, LOCK=NONE",  # 1846
    "ALTER TABLE {t} ADD COLUMN {b} INT",  # 1060
    "ALTER TABLE {t} ADD KEY {k} ({b})",  # 1061
    "ALTER TABLE {t} ADD PRIMARY KEY ({a})",  # 1068
    "ALTER TABLE {t} DROP COLUMN nowhere",  # 1091
    "ALTER TABLE {t} MODIFY nowhere INT",  # 1054
    "ALTER TABLE {t} ADD KEY k2 (nowhere)",  # 1072
    "CREATE TABLE {t} (x INT)",  # 1050
    "CREATE TABLE {u} (x INT NOT NULL DEFAULT NULL)",  # 1067
    "CREATE TABLE {u} (x INT AUTO_INCREMENT, y INT)",  # 1075
    "CREATE TABLE {u} (x INT, y INT) ENGINE=MyISAM",
    "ALTER TABLE {u} ADD KEY (y), LOCK=NONE",  # 1845
    "ALTER TABLE {u} DROP COLUMN x, DROP COLUMN y",  # 1090
    "RENAME TABLE {u} TO {t}",  # 1050
    "ALTER TABLE {t} MODIFY {a} BIGINT NOT NULL",  # runs
    "DROP TABLE {u}, nowhere_at_all",  # 1051: a table the input never defined: a diagnostic, not refused-ddl
]
NAMES = [dict(t="customer", u="log", a="a", b="b", k="k_a"),
         dict(t="`Order Item`", u="`tmp-2`", a="`Qty`", b="Note", k="`ix a`"),
         dict(t="t_1", u="U2", a="amount", b="LABEL", k="K1")]


def _server_errors(mariadb: Any, statements: list[str]) -> dict[int, int]:
    import pymysql

    mariadb.sql("DROP DATABASE IF EXISTS refused_oracle; CREATE DATABASE refused_oracle")
    connection = mariadb.connect("refused_oracle")
    errors = {}
    try:
        with connection.cursor() as cursor:
            for line, statement in enumerate(statements, start=1):
                try:
                    cursor.execute(statement)
                except pymysql.err.MySQLError as error:
                    errors[line] = error.args[0]
    finally:
        connection.close()
    return errors


@pytest.mark.parametrize("names", NAMES)
def test_each_refusal_is_the_servers_with_its_error_number(mariadb: Any, tmp_path: Path, names: dict[str, str]) -> None:
    statements = [s.format(**names) for s in SCRIPT]
    server = _server_errors(mariadb, statements)
    report = lint_sql("".join(s + ";\n" for s in statements), tmp_path, target="mariadb-10.11")
    said = {f.line: int(re.search(r"error (\d+)", f.evidence or "").group(1))  # type: ignore[union-attr]
            for f in report.findings if f.rule == "refused-ddl"}
    undefined = {d.line for d in report.diagnostics if d.rule == "replay-error"}
    assert set(server) == set(said) | undefined, (server, said, report.diagnostics)
    assert said == {line: code for line, code in server.items() if line not in undefined}
    assert undefined == {len(SCRIPT)}  # the DROP of a table the input never defined: a partial input maybe
    assert all(f.severity == "error" and "MariaDB 10.11" in f.summary for f in report.findings if f.rule == "refused-ddl")


FIVE = """ALTER TABLE customer DROP PRIMARY KEY;
ALTER TABLE customer MODIFY a BIGINT NOT NULL, ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE customer ADD COLUMN b INT;
ALTER TABLE customer MODIFY a BIGINT NOT NULL;
ALTER TABLE customer ADD FULLTEXT KEY ft (b);
"""
CUSTOMER = "CREATE TABLE customer (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL, b VARCHAR(20)) ENGINE=InnoDB;\n"


def test_the_issues_five_statements(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32's migration: three refusals (1075, 1846, 1060), a copy and a rebuild under
    LOCK=SHARED; the check fails (exit 1)."""
    history = tmp_path / "db" / "migration"
    history.mkdir(parents=True)
    (history / "V1__customer.sql").write_text(CUSTOMER)
    (history / "V2__change.sql").write_text(FIVE)
    code = main(["check", "--target", "mariadb-10.11", "--format", "json", str(history)])
    report = json.loads(capsys.readouterr().out)
    said = [(f["rule"], f["line"]) for f in report["findings"]]
    assert said == [("refused-ddl", 1), ("refused-ddl", 2), ("refused-ddl", 3), ("blocking-alter", 4),
                    ("blocking-alter", 5)]
    assert [f["evidence"].split(" (")[0] for f in report["findings"][:3]] == ["error 1075", "error 1846", "error 1060"]
    assert report["diagnostics"] == [] and code == 1


@pytest.mark.parametrize("before", [
    "CALL add_columns();",
    "EXECUTE stmt;",
    "PREPARE s FROM @sql;\nEXECUTE s;",
    "CALL `setup`.`migrate`(1);",
])
def test_nothing_after_what_innolint_cannot_follow_is_called_refused(tmp_path: Path, before: str) -> None:
    """A procedure may have added column b already: the ADD COLUMN after it is not claimed refused,
    and innolint says why at it (and at the CALL)."""
    report = lint_sql(CUSTOMER + before + "\n" + "ALTER TABLE customer ADD COLUMN b INT;\n", tmp_path)
    assert not [f for f in report.findings if f.rule == "refused-ddl"]
    lines = before.count("\n") + 1
    said = {d.line: d.message for d in report.diagnostics if d.rule == "replay-error"}
    assert lines + 2 in said and "does not call it refused" in said[lines + 2] and "error 1060" in said[lines + 2]


def test_a_refusal_before_it_is_still_one(tmp_path: Path) -> None:
    report = lint_sql(CUSTOMER + "ALTER TABLE customer ADD COLUMN b INT;\nCALL p();\n", tmp_path)
    assert [f.line for f in report.findings if f.rule == "refused-ddl"] == [2]


def test_a_table_the_input_never_defined_is_a_partial_input_not_a_refusal(tmp_path: Path) -> None:
    report = lint_sql("ALTER TABLE elsewhere ADD COLUMN b INT;\nCREATE INDEX k ON elsewhere (b);\n", tmp_path)
    assert not [f for f in report.findings if f.rule == "refused-ddl"]
    assert [d.line for d in report.diagnostics if d.rule == "replay-error"] == [1, 2]


def test_after_a_statement_that_may_stop_its_packet_nothing_is_called_refused(tmp_path: Path) -> None:
    """Under DELIMITER // the client sends `a; b; c` as one packet: the server runs b and c only if
    the INSERT succeeds, which innolint does not run."""
    sql = (CUSTOMER + "DELIMITER //\nINSERT INTO elsewhere VALUES (1);\nALTER TABLE customer ADD COLUMN b INT;\n"
           "ALTER TABLE customer ADD COLUMN c INT;\n//\nDELIMITER ;\n")
    report = lint_sql(sql, tmp_path)
    assert not [f for f in report.findings if f.rule == "refused-ddl"], report.findings


def test_ddl_run_under_a_condition_is_not_called_refused(tmp_path: Path) -> None:
    """MariaDB runs a compound statement outside a program: an installer's guarded ALTER adds the
    column only when it is missing."""
    sql = (CUSTOMER + "DELIMITER //\nBEGIN NOT ATOMIC\n  IF (SELECT COUNT(*) FROM information_schema.COLUMNS WHERE "
           "COLUMN_NAME = 'b') = 0 THEN\n    ALTER TABLE customer ADD COLUMN b INT;\n  END IF;\nEND//\nDELIMITER ;\n"
           "ALTER TABLE customer ADD COLUMN a INT;\n")
    report = lint_sql(sql, tmp_path, target="mariadb-10.11")
    assert not [f for f in report.findings if f.rule == "refused-ddl"], report.findings
    assert [d for d in report.diagnostics if d.rule == "replay-error" and "does not call it refused" in d.message]


def test_a_refused_statement_in_every_tenant_is_one_finding(tmp_path: Path) -> None:
    blocks = "".join(f"CREATE DATABASE tenant_{n};\nUSE tenant_{n};\n{CUSTOMER}CREATE TABLE orders (id INT PRIMARY KEY);\n"
                     "ALTER TABLE customer ADD COLUMN a INT;\n" for n in range(30))
    report = lint_sql(blocks, tmp_path)
    (finding,) = [f for f in report.findings if f.rule == "refused-ddl"]
    assert finding.count == 30 and finding.schemas[:2] == ("tenant_0", "tenant_1")


def test_a_key_refusal_is_index_key_lengths_while_it_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sql"
    path.write_text("CREATE TABLE notes (body MEDIUMTEXT NOT NULL, PRIMARY KEY (body));\n")
    assert main(["check", "--format", "json", str(path)]) == 1
    assert [f["rule"] for f in json.loads(capsys.readouterr().out)["findings"]] == ["index-key-length"]
    assert main(["check", "--format", "json", "--ignore", "index-key-length", str(path)]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert finding["rule"] == "refused-ddl" and "error 1170" in finding["evidence"]
    # and with neither rule, it is still said: a replay-error, never silent
    assert main(["check", "--format", "json", "--show-info", "--ignore", "index-key-length,refused-ddl", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["findings"] == [] and [d["rule"] for d in report["diagnostics"]] == ["replay-error"]


def test_it_is_suppressible_with_a_reason(tmp_path: Path) -> None:
    sql = CUSTOMER + "-- innolint: ignore[refused-ddl] the column is added by the installer on old versions only\n" \
                     "ALTER TABLE customer ADD COLUMN b INT;\n"
    report = lint_sql(sql, tmp_path)
    assert not report.findings and not [d for d in report.diagnostics if d.rule != "unused-suppression"]


@pytest.mark.parametrize("target, refused", [("mysql-8.0", True), ("mysql-8.4", True), ("mariadb-10.11", False)])
def test_per_target(tmp_path: Path, target: str, refused: bool) -> None:
    """MySQL has no NOCOPY (1800: unknown algorithm); MariaDB runs it."""
    sql = CUSTOMER + "ALTER TABLE customer ADD KEY k_b (b), ALGORITHM=NOCOPY;\n"
    history = tmp_path / "m"
    history.mkdir()
    (history / "schema.sql").write_text(sql)
    report = lint_paths([str(history / "schema.sql")], CheckContext(target=Target.parse(target)))
    said = [f for f in report.findings if f.rule == "refused-ddl"]
    assert bool(said) == refused
    if refused:
        assert "error 1800" in said[0].evidence and target.replace("mysql-", "MySQL ") in said[0].message
