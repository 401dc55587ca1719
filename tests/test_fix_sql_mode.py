"""`innolint fix --migration` under the target's default sql_mode, judged by the real MariaDB.

The server judges the whole table at every ALTER: under MySQL 5.7+'s default sql_mode
(STRICT_TRANS_TABLES, NO_ZERO_DATE, NO_ZERO_IN_DATE) an ALTER of a table that keeps a zero-date
default anywhere fails with 1067 for that column, whatever the ALTER changes. So a table's fixes
go in one ALTER, and a fix that alters a table whose zero dates the migration does not repair is
listed, not applied (its file must not say it was replayed and its finding is gone).

Each case is a legacy history (created where zero dates were accepted: the test MariaDB's own
sql_mode), with rows holding zero dates and real ones; the written migration is then run through
the real `mariadb` client with MySQL 8.0's default sql_mode set in the session, and must run; the
tables then hold no zero-date default, the zero values are NULL, the real ones kept; the down runs
under the same sql_mode and gives the tables back.
"""

from __future__ import annotations

import io
import random
import re
import subprocess
from pathlib import Path

import pytest

from linter.audit.connection import connect
from linter.audit.server import AuditOptions, read_server, run_checks
from linter.cli import main
from linter.rules.checkapi import CheckContext
from linter.schema.target import Target
from tests.ddl_outcome import MYSQL_SQL_MODE, first_error
from tests.mariadb import MariaDB
from tests.test_fix_migration import load, snapshot

#: a session of the server the target stands for: MySQL 8.0's default sql_mode
MYSQL_SESSION = f"SET SESSION sql_mode = '{MYSQL_SQL_MODE}';\n"

#: a zero-date column of each type: (type, default, a zero value, a real value)
ZERO = {
    "DATE": ("DATE", "'0000-00-00'", "'0000-00-00'", "'2021-03-04'"),
    "DATETIME": ("DATETIME", "'0000-00-00 00:00:00'", "'0000-00-00 00:00:00'", "'2021-03-04 05:06:07'"),
    "TIMESTAMP": ("TIMESTAMP", "'0000-00-00 00:00:00'", "'0000-00-00 00:00:00'", "'2021-03-04 05:06:07'"),
    "DATE-IN": ("DATE", "'2020-00-15'", "'2020-00-15'", "'2021-03-04'"),  # a zero-in-date
}


def _table(rng: random.Random, kinds: list[str], *, keyed: bool = True, redundant: bool = False
           ) -> tuple[str, str, list[str], str]:
    """A table with a zero-date column of each kind in `kinds`, in a random order among other
    columns: (name, CREATE TABLE, the zero-date columns, INSERT of a row of zeros and a real row)."""
    name = f"{rng.choice(['invoice', 'audit', 'shipment', 'event'])}_{rng.randint(1, 999)}"
    columns = [(f"{rng.choice(['paid', 'sent', 'seen', 'due'])}_{i}_{rng.randint(1, 99)}", kind)
               for i, kind in enumerate(kinds)]
    others = [("note", "VARCHAR(20)"), ("amount", "INT NOT NULL DEFAULT 0")]
    body = [(n, f"{ZERO[k][0]} NOT NULL DEFAULT {ZERO[k][1]}") for n, k in columns] + others
    rng.shuffle(body)
    lines = ([("id", "INT NOT NULL PRIMARY KEY")] if keyed else []) + body
    keys = ["KEY by_note (note)", "KEY by_note_again (note)"] if redundant else []
    create = (f"CREATE TABLE {name} (\n  " + ",\n  ".join([f"{n} {t}" for n, t in lines] + keys) + "\n)")
    order = [n for n, _ in lines]
    zero_row = {**{n: ZERO[k][2] for n, k in columns}, "id": "1", "note": "'zero'", "amount": "1"}
    real_row = {**{n: ZERO[k][3] for n, k in columns}, "id": "2", "note": "'real'", "amount": "2"}
    insert = (f"INSERT INTO {name} ({', '.join(order)}) VALUES "
              f"({', '.join(zero_row[n] for n in order)}), ({', '.join(real_row[n] for n in order)})")
    return name, create, [n for n, _ in columns], insert


def _run(mariadb: MariaDB, tmp_path: Path, database: str, tables: list[tuple[str, str, list[str], str]],
         capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The history in a Flyway directory and on the server (its own sql_mode: the legacy server
    that took the zero dates), rows in it, then `fix --migration --target mysql-8.0`: the up and
    down SQL written."""
    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "V1__legacy.sql").write_text(";\n".join(create for _, create, _, _ in tables) + ";\n")
    mariadb.sql(f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
    load(mariadb, database, (directory / "V1__legacy.sql").read_text())
    load(mariadb, database, ";\n".join(insert for *_, insert in tables) + ";\n")
    code = main(["fix", "--migration", str(directory), "--target", "mysql-8.0", *args])
    err = capsys.readouterr().err
    assert code in (0, 1), err
    return (directory / "V2__innolint_fixes.sql").read_text()


def _applied(up: str) -> list[str]:
    return re.findall(r"^-- \[([a-z-]+)\]", up.split("-- Not applied")[0], re.MULTILINE)


def _listed(up: str) -> str:
    return up.split("-- Not applied", 1)[1] if "-- Not applied" in up else ""


def _check_fixed(mariadb: MariaDB, database: str, tables: list[tuple[str, str, list[str], str]]) -> None:
    """No zero-date default is left, the zero values are NULL and the real ones kept, and the
    audit of the server for MySQL 8.0 has no zero-date-default finding."""
    for name, _, columns, _ in tables:
        text = str(mariadb.sql(f"SHOW CREATE TABLE `{database}`.`{name}`")[0][1])
        assert "0000-00-00" not in text and "-00-" not in text, text
        for column in columns:
            rows = dict(mariadb.sql(f"SELECT note, CAST(`{column}` AS CHAR) FROM `{database}`.`{name}`"))
            assert rows["zero"] is None and rows["real"] is not None and rows["real"].startswith("2021-03-04"), rows
    with connect(f"mysql://root@/?socket={mariadb.socket}") as connection:
        live = read_server(connection, [database], AuditOptions(), stderr=io.StringIO())
    audited = run_checks(live, CheckContext(target=Target.parse("mysql-8.0")))
    assert [f for f in audited.findings if f.rule == "zero-date-default"] == []


# (case id, the zero-date kinds of each table, whether it has a primary key and redundant keys)
CASES = [
    ("two-columns", [["DATE", "DATETIME"]], True, False),
    ("three-columns", [["DATE", "DATETIME", "TIMESTAMP"]], True, False),
    ("datetime-and-timestamp", [["DATETIME", "TIMESTAMP"]], True, False),
    ("zero-in-date-and-zero", [["DATE-IN", "DATETIME"]], True, False),
    ("other-fixes-same-table", [["DATE", "TIMESTAMP"]], False, True),
    ("two-tables", [["DATE", "DATETIME"], ["TIMESTAMP", "DATE", "DATETIME"]], True, False),
]


@pytest.mark.parametrize("case, kinds, keyed, redundant", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_tables_fixes_run_as_one_alter_under_mysql_sql_mode(
        mariadb: MariaDB, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, kinds: list[list[str]],
        keyed: bool, redundant: bool, seed: int) -> None:
    rng = random.Random(f"{case}-{seed}")
    tables = [_table(rng, k, keyed=keyed, redundant=redundant) for k in kinds]
    database = f"fsm_{case.replace('-', '_')}_{seed}"
    up = _run(mariadb, tmp_path, database, tables, capsys)
    # the premise, asked of the server: an ALTER of one of the columns alone (what innolint wrote
    # before) is refused for the table's other zero date
    name, _, columns, _ = tables[0]
    alone = f"ALTER TABLE `{name}` MODIFY COLUMN `{columns[0]}` {ZERO[kinds[0][0]][0]} NULL DEFAULT NULL"
    assert first_error(mariadb, database, [alone], MYSQL_SQL_MODE) == 1067
    expected = sum(len(k) for k in kinds) + (0 if keyed else len(tables)) + (len(tables) if redundant else 0)
    assert len(_applied(up)) == expected and not _listed(up), up
    # one ALTER per table
    alters = re.findall(r"^ALTER TABLE `([^`]+)`", up, re.MULTILINE)
    assert sorted(alters) == sorted(name for name, *_ in tables), up
    load(mariadb, database, MYSQL_SESSION + up)
    _check_fixed(mariadb, database, tables)
    if not keyed:  # the other fixes of the table ran in the same ALTER
        for name, *_ in tables:
            text = str(mariadb.sql(f"SHOW CREATE TABLE `{database}`.`{name}`")[0][1])
            assert "PRIMARY KEY" in text and "by_note_again" not in text, text


def test_the_down_restores_zero_dates_under_mysql_sql_mode(mariadb: MariaDB, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """golang-migrate keeps a down: it runs under MySQL 8.0's sql_mode too, and gives the zero
    defaults back (allowing them for its own statements only)."""
    rng = random.Random("down")
    tables = [_table(rng, ["DATE", "TIMESTAMP", "DATETIME"]), _table(rng, ["DATETIME", "DATE"])]
    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "000001_legacy.up.sql").write_text(";\n".join(create for _, create, _, _ in tables) + ";\n")
    (directory / "000001_legacy.down.sql").write_text("-- down\n")
    database = "fsm_down"
    mariadb.sql(f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
    load(mariadb, database, (directory / "000001_legacy.up.sql").read_text())
    load(mariadb, database, ";\n".join(insert for *_, insert in tables) + ";\n")
    before = snapshot(mariadb, database)
    assert main(["fix", "--migration", str(directory), "--target", "mysql-8.0"]) in (0, 1), capsys.readouterr().err
    up = (directory / "000002_innolint_fixes.up.sql").read_text()
    down = (directory / "000002_innolint_fixes.down.sql").read_text()
    load(mariadb, database, MYSQL_SESSION + up)
    _check_fixed(mariadb, database, tables)
    mode = subprocess.run(["mariadb", "--no-defaults", "-N", "-u", "root", "-S", mariadb.socket, database],
                          input=(MYSQL_SESSION + down + "SELECT @@SESSION.sql_mode;\n").encode(), capture_output=True,
                          timeout=120, check=False)
    assert mode.returncode == 0, mode.stderr.decode(errors="replace")
    assert mode.stdout.decode().split() == [MYSQL_SQL_MODE]  # the session's mode is MySQL's again after it
    assert snapshot(mariadb, database) == before


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fix_the_sql_mode_refuses_is_listed_not_claimed(mariadb: MariaDB, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str], seed: int) -> None:
    """With zero-date-default not selected, the other fixes of a table that keeps its zero dates
    would fail (1067): they are listed with why, not applied, and the file does not say they were
    replayed; another table's fix is applied; the migration runs under MySQL 8.0's sql_mode."""
    rng = random.Random(f"listed-{seed}")
    dated = _table(rng, rng.sample(["DATE", "DATETIME", "TIMESTAMP"], rng.randint(1, 2)), keyed=False, redundant=True)
    clean = _table(rng, [], redundant=True)
    database = f"fsm_listed_{seed}"
    up = _run(mariadb, tmp_path, database, [dated, clean], capsys, "--select", "no-primary-key,redundant-index")
    assert _applied(up) == ["redundant-index"], up
    listed = _listed(up)
    assert sorted(re.findall(r"^-- \[([a-z-]+)\]", listed, re.MULTILINE)) == ["no-primary-key", "redundant-index"], up
    assert listed.count("error 1067") == 2 and f"ALTER of {dated[0]}" in listed, listed
    # the server agrees: each listed ALTER is refused under MySQL 8.0's sql_mode
    for statement in re.findall(r"^--   (ALTER TABLE .*);$", listed, re.MULTILINE):
        assert first_error(mariadb, database, [statement], MYSQL_SQL_MODE) == 1067, statement
    load(mariadb, database, MYSQL_SESSION + up)
    assert "by_note_again" not in str(mariadb.sql(f"SHOW CREATE TABLE `{database}`.`{clean[0]}`")[0][1])


def test_a_combined_alter_the_replay_refuses_drops_the_fix_it_fails_at(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """One of a table's fixes fails (here: made to drop a key that is not there): the combined
    ALTER is refused, the fixes are replayed one ALTER each to find which, that one is listed
    with the replay's reason and the others are combined again (the zero-date MODIFY still goes
    with the table's other change, so the ALTER passes MySQL's sql_mode)."""
    from linter import fix_migration
    from linter.config.settings import ConfigResolver

    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "V1__legacy.sql").write_text(
        "CREATE TABLE t (id INT PRIMARY KEY, a INT, d DATE NOT NULL DEFAULT '0000-00-00', "
        "KEY k (a), KEY k2 (a), KEY k3 (a));\n")
    real = fix_migration.classify

    def classify(finding):  # type: ignore[no-untyped-def]
        made = real(finding)
        if finding.rule == "redundant-index" and "k3" in (finding.subject or "") + finding.message:
            return fix_migration.Fix(finding, ["ALTER TABLE `t` DROP INDEX `not_there`"])
        return made

    monkeypatch.setattr(fix_migration, "classify", classify)
    plan = fix_migration.build(str(directory), ConfigResolver(overrides={"target": ("mysql-8.0", "--target")}))
    rules = sorted(f.finding.rule for f in plan.applied)
    assert rules == ["redundant-index", "zero-date-default"], [(f.finding.rule, f.advice) for f in plan.fixes]
    [listed] = plan.listed
    assert "not_there" in listed.advice and "1091" in listed.advice, listed.advice
    [step] = plan.steps
    assert step.statements[0].startswith("ALTER TABLE `t` MODIFY COLUMN `d` DATE NULL DEFAULT NULL, DROP INDEX"), step
