"""blocking-alter (checks/blocking_alter.py): what an ALTER TABLE without ALGORITHM= / LOCK= ends up
doing to a table that has rows, judged by MariaDB 10.11, and which tables and statements it speaks
of (those that existed before the change; with --since, the ALTERs the change adds).

The server says what a statement without clauses runs with: the first of ALGORITHM=INSTANT, NOCOPY,
INPLACE, COPY it accepts is the algorithm its ALGORITHM=DEFAULT picks (each refusal, 1845/1846,
leaves the table as it was), and the first of LOCK=NONE, SHARED, EXCLUSIVE it accepts with that
algorithm is the lock (for a copy, SHARED: the least it permits). innolint must report exactly the statements that copy (COPY), rebuild
(INPLACE where NOCOPY is refused) or need a lock, with the server's algorithm and lock.
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from linter.engine import lint_paths
from linter.parse import ops
from linter.parse.cache import ParseCache
from linter.rules.checkapi import CheckContext, TableStats
from linter.parse.elements import Location
from linter.schema.target import Target
from linter.server.replay import Replayer
from tests.helpers import lint_sql
from tests.test_online_alter import cases, sample

ALGORITHMS = ("INSTANT", "NOCOPY", "INPLACE", "COPY")
LOCKS = ("NONE", "SHARED", "EXCLUSIVE")


def _server_runs(cursor: Any, create: str, alter: str, table: str) -> tuple[str, str] | None:
    """(algorithm, lock) the server runs `alter` (without clauses) with after `create`; None when
    it refuses it for another reason than ALGORITHM= / LOCK=."""
    import pymysql

    def fresh() -> None:
        cursor.execute(f"DROP TABLE IF EXISTS `{table}`, `{table}_new`")
        cursor.execute(create)

    def accepted(clauses: str) -> bool | None:
        try:
            cursor.execute(f"{alter}, {clauses}")
            return True
        except pymysql.err.MySQLError as error:
            if error.args[0] in (1845, 1846):
                return False
            return None

    fresh()
    algorithm = None
    for name in ALGORITHMS:
        answer = accepted(f"ALGORITHM={name}")
        if answer is None:
            return None
        if answer:
            algorithm = name
            break
    if algorithm is None:
        return None
    if algorithm in ("INSTANT", "NOCOPY"):
        # MariaDB copies a table to another engine whatever INSTANT / NOCOPY say, refusing only
        # INPLACE (1845): what runs in place runs with INPLACE too
        fresh()
        if accepted("ALGORITHM=INPLACE") is False:
            algorithm = "COPY"
    if algorithm == "COPY":  # (a copy takes LOCK=SHARED: the least it permits, LOCK=NONE refused)
        cursor.execute(f"DROP TABLE IF EXISTS `{table}`, `{table}_new`")
        return algorithm, "SHARED"
    lock = None
    for name in LOCKS:
        fresh()
        answer = accepted(f"ALGORITHM={algorithm}, LOCK={name}")
        if answer is None:
            return None
        if answer:
            lock = name
            break
    cursor.execute(f"DROP TABLE IF EXISTS `{table}`, `{table}_new`")
    return (algorithm, lock) if lock is not None else None


def _without_clauses(alter: str) -> str:
    """The generated ALTER without its ALGORITHM= / LOCK= clauses and ONLINE."""
    return re.sub(r"(,\s*(?:ALGORITHM|LOCK)=\w+)+$", "", alter).replace("ALTER ONLINE TABLE", "ALTER TABLE")


def _innolint(create: str, alter: str, target: str = "mariadb-10.11") -> Any:
    """innolint's record of what `alter` does (None: it blocks nothing), and its message, if any."""
    replayer = Replayer(target=Target.parse(target))
    replayer.apply(ops.SchemaStatement("use", "db"), Location("s.sql", 1))
    cache = ParseCache()
    assert replayer.apply(cache.parse(create), Location("s.sql", 2)) is None, create
    said = replayer.apply(cache.parse(alter), Location("s.sql", 3))
    found = [a for a in replayer.model.alterations if a.where.line == 3 and a.operations]
    return (found[0] if found and found[0].blocks else None), said


def _blocks(algorithm: str, lock: str) -> bool:
    return algorithm in ("INPLACE", "COPY") or (algorithm != "INSTANT" and lock != "NONE")


@pytest.mark.parametrize("seed", [5])
def test_what_an_alter_without_clauses_runs_with_is_the_servers(mariadb: Any, seed: int) -> None:
    """Generated tables and operations (tests/test_online_alter.py's shapes x operations, InnoDB and
    MyISAM, names and types drawn by the seed), each ALTER without its clauses: the statements
    innolint reports are those the server copies, rebuilds or locks for, each with the server's
    algorithm and lock; those where innolint says it cannot be sure stay few."""
    rng = random.Random(seed)
    batch = [case for case in cases(rng, sample(rng, ("InnoDB", "MyISAM"))) if rng.random() < 0.25]
    mariadb.sql("DROP DATABASE IF EXISTS blocking_oracle; CREATE DATABASE blocking_oracle")
    connection = mariadb.connect("blocking_oracle")
    wrong: list[str] = []
    unsure = judged = blocking = 0
    try:
        with connection.cursor() as cursor:
            for label, create, alter, table in batch:
                alter = _without_clauses(alter)
                server = _server_runs(cursor, create, alter, table)
                if server is None:
                    continue  # refused for another reason: refused-ddl's (tests/test_refused_ddl.py)
                judged += 1
                record, said = _innolint(create, alter)
                if said is not None and said.__class__.__name__ == "Refusal":
                    wrong.append(f"{label}: the server runs it {server}, innolint refuses it: {said}\n    {alter}")
                    continue
                blocks = _blocks(*server)
                blocking += blocks
                if record is not None and all(o.undecided for o in record.operations if o.blocks):
                    unsure += 1
                    continue
                if (record is not None) != blocks:
                    wrong.append(f"{label}: the server runs it with {server}, innolint "
                                 f"{'reports ' + record.algorithm + '/' + record.lock if record else 'says nothing'}"
                                 f"\n    {create}\n    {alter}")
                elif record is not None and (record.algorithm, record.lock) != server:
                    wrong.append(f"{label}: server {server}, innolint {(record.algorithm, record.lock)}\n    {alter}")
    finally:
        connection.close()
    print(f"\nblocking-alter seed {seed}: {judged} server-judged ALTERs, {blocking} blocking, {unsure} unsure")
    assert judged > 0.7 * len(batch) and blocking > judged // 5
    assert not wrong, f"{len(wrong)} of {judged} differ from the server:\n" + "\n".join(wrong[:30])
    assert unsure <= judged // 10


@pytest.mark.parametrize("names", [("customer", "a", "b"), ("Order Items", "Qty", "note"), ("t_1", "x", "Label")])
def test_the_pinned_fix_runs_online_on_the_server(mariadb: Any, tmp_path: Path, names: tuple[str, str, str]) -> None:
    """A rebuild that can run with LOCK=NONE gets that pinned: the server accepts the fix as
    written, and innolint has nothing more to say of it."""
    table, a, b = names
    quoted = f"`{table}`"
    create = (f"CREATE TABLE {quoted} (id INT NOT NULL PRIMARY KEY, `{a}` INT NULL, `{b}` VARCHAR(20)) "
              "ENGINE=InnoDB")
    alter = f"ALTER TABLE {quoted} MODIFY `{a}` INT NOT NULL"  # NULL -> NOT NULL: an INPLACE rebuild
    found = _migration(tmp_path, create, alter, "mariadb-10.11")
    (finding,) = found
    assert "ALGORITHM=INPLACE" in finding.message and finding.fix and finding.fix.endswith("LOCK=NONE;")
    mariadb.sql("DROP DATABASE IF EXISTS blocking_fix; CREATE DATABASE blocking_fix")
    mariadb.sql(create, "blocking_fix")
    mariadb.sql(finding.fix, "blocking_fix")  # accepted with LOCK=NONE
    assert not _migration(tmp_path / "again", create, finding.fix, "mariadb-10.11")


def _migration(tmp_path: Path, create: str, alter: str, target: str, **context: Any) -> list[Any]:
    """blocking-alter's findings for a Flyway history: V1 creates the table, V2 alters it."""
    directory = tmp_path / "db" / "migration"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "V1__create.sql").write_text(create + ";\n")
    (directory / "V2__change.sql").write_text(alter + ";\n")
    report = lint_paths([str(directory)], CheckContext(target=Target.parse(target), **context))
    assert not [d for d in report.diagnostics if d.rule in ("parse-error", "replay-error")], report.diagnostics
    return [f for f in report.findings if f.rule == "blocking-alter"]


CUSTOMER = "CREATE TABLE customer (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL, b VARCHAR(20)) ENGINE=InnoDB"


@pytest.mark.parametrize("target", ["mariadb-10.11", "mysql-8.0", "mysql-8.4", "mysql-5.7"])
def test_a_type_change_copies_everywhere_with_a_tool_to_run_it(tmp_path: Path, target: str) -> None:
    (finding,) = _migration(tmp_path, CUSTOMER, "ALTER TABLE customer MODIFY a BIGINT NOT NULL", target)
    assert finding.severity == "warning" and finding.line == 1 and finding.path.endswith("V2__change.sql")
    assert "ALGORITHM=COPY" in finding.message and "LOCK=SHARED" in finding.message and target.split("-")[0] in \
        finding.message.lower()
    assert "pt-online-schema-change --alter 'MODIFY a BIGINT NOT NULL' 'D=<database>,t=customer' --execute" in finding.fix
    assert ("gh-ost" in finding.fix) == target.startswith("mysql")  # (gh-ost does not support MariaDB)


def test_the_same_file_is_a_new_table_and_an_earlier_file_an_existing_one(tmp_path: Path) -> None:
    """A plain file (a dump, an install script adding keys by ALTER after its CREATEs): the table is
    new, nothing to say; the same ALTER in a later migration of a history: reported."""
    sql = f"{CUSTOMER};\nALTER TABLE customer MODIFY a BIGINT NOT NULL;\nALTER TABLE customer ADD FULLTEXT KEY ft (b);\n"
    report = lint_sql(sql, tmp_path, target="mariadb-10.11")
    assert not [f for f in report.findings if f.rule == "blocking-alter"]
    history = tmp_path / "migrations"
    history.mkdir()
    (history / "V1__a.sql").write_text(f"{CUSTOMER};\nALTER TABLE customer ADD FULLTEXT KEY ft (b);\n")
    (history / "V2__b.sql").write_text("ALTER TABLE customer MODIFY a BIGINT NOT NULL;\n")
    report = lint_paths([str(history)], CheckContext(target=Target.parse("mariadb-10.11")))
    said = [(Path(f.path).name, f.line) for f in report.findings if f.rule == "blocking-alter"]
    assert said == [("V2__b.sql", 1)]


@pytest.mark.parametrize("stats, severity", [
    ({"customer": TableStats(rows=5_000_000, data_length=10, index_length=0)}, "error"),
    ({"customer": TableStats(rows=10, data_length=2 << 30, index_length=0)}, "error"),
    ({"customer": TableStats(rows=1000, data_length=1 << 20, index_length=0)}, "warning"),
    ({}, "warning"),
])
def test_a_large_table_per_stats_makes_it_an_error(tmp_path: Path, stats: dict[str, TableStats], severity: str) -> None:
    (finding,) = _migration(tmp_path, CUSTOMER, "ALTER TABLE customer ADD FULLTEXT KEY ft (b)", "mariadb-10.11",
                            stats=stats)
    assert finding.severity == severity
    assert (" rows and " in finding.message) == bool(stats)


@pytest.mark.parametrize("alter", [
    "ALTER TABLE customer MODIFY a INT NOT NULL COMMENT 'x', ALGORITHM=INSTANT",
    "ALTER TABLE customer ADD COLUMN c INT",  # instant
    "ALTER TABLE customer ADD KEY k_b (b)",  # in place, no rebuild, no lock
    "ALTER TABLE customer MODIFY b VARCHAR(20) NOT NULL, ALGORITHM=INPLACE, LOCK=NONE",  # a rebuild pinned online
    "ALTER ONLINE TABLE customer MODIFY b VARCHAR(20) NOT NULL",
    "ALTER TABLE customer RENAME TO client",  # an exclusive lock, for a rename's moment only
    "CREATE INDEX k_b ON customer (b)",
])
def test_what_runs_online_is_not_reported(tmp_path: Path, alter: str) -> None:
    assert _migration(tmp_path, CUSTOMER, alter, "mariadb-10.11") == []


def test_a_statement_is_split_so_the_copy_runs_alone(tmp_path: Path) -> None:
    (finding,) = _migration(tmp_path, CUSTOMER, "ALTER TABLE customer ADD COLUMN c INT, MODIFY a BIGINT NOT NULL, "
                                                "ADD KEY k_b (b)", "mariadb-10.11")
    first, *rest = finding.fix.splitlines()
    assert first == "ALTER TABLE `customer` ADD COLUMN c INT, ADD KEY k_b (b), ALGORITHM=INPLACE, LOCK=NONE;"
    assert any("--alter 'MODIFY a BIGINT NOT NULL'" in line for line in rest)


def test_the_tool_command_is_quoted_for_the_shell(tmp_path: Path) -> None:
    create = "CREATE TABLE `it's $x` (id INT NOT NULL PRIMARY KEY, `a\"b` INT) ENGINE=InnoDB"
    (finding,) = _migration(tmp_path, create, "ALTER TABLE `it's $x` MODIFY `a\"b` BIGINT", "mysql-8.0")
    command = next(line for line in finding.fix.splitlines() if line.startswith("pt-online-schema-change"))
    import shlex

    words = shlex.split(command)
    assert words[1:3] == ["--alter", 'MODIFY `a"b` BIGINT'] and words[3] == "D=<database>,t=it's $x"


def test_with_foreign_keys_pt_osc_updates_the_children_and_gh_ost_is_not_offered(tmp_path: Path) -> None:
    create = (f"{CUSTOMER};\nCREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, "
              "FOREIGN KEY (customer_id) REFERENCES customer (id)) ENGINE=InnoDB")
    (finding,) = _migration(tmp_path, create, "ALTER TABLE customer MODIFY a BIGINT NOT NULL", "mysql-8.0")
    assert "--alter-foreign-keys-method=auto" in finding.fix and "gh-ost" not in finding.fix


def test_add_foreign_key_copies_unless_the_checks_are_off(tmp_path: Path) -> None:
    create = f"{CUSTOMER};\nCREATE TABLE orders (id INT PRIMARY KEY, customer_id INT) ENGINE=InnoDB"
    (finding,) = _migration(tmp_path, create, "ALTER TABLE orders ADD FOREIGN KEY (customer_id) REFERENCES customer (id)",
                            "mariadb-10.11")
    assert "ALGORITHM=COPY" in finding.message and "foreign_key_checks=0" in finding.message


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
                   cwd=cwd, check=True, capture_output=True)


def test_with_since_only_the_alters_the_change_adds(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """V2 (committed) already copies the table: the PR's V3 is what it reports; a table the PR
    creates and alters is empty."""
    from linter.cli import main

    history = tmp_path / "db" / "migration"
    history.mkdir(parents=True)
    (history / "V1__create.sql").write_text(f"{CUSTOMER};\n")
    (history / "V2__old.sql").write_text("ALTER TABLE customer MODIFY a BIGINT NOT NULL;\n")
    _git("init", "-q", cwd=tmp_path)
    _git("add", "-A", cwd=tmp_path)
    _git("commit", "-qm", "base", cwd=tmp_path)
    (history / "V3__new.sql").write_text(
        "ALTER TABLE customer ADD FULLTEXT KEY ft (b);\n"
        "CREATE TABLE fresh (id INT PRIMARY KEY, c INT);\nALTER TABLE fresh MODIFY c BIGINT;\n")
    monkeypatch.chdir(tmp_path)
    code = main(["check", "--target", "mariadb-10.11", "--since", "HEAD", "--format", "json", "db"])
    import json

    report = json.loads(capsys.readouterr().out)
    said = [(Path(f["path"]).name, f["line"]) for f in report["findings"] if f["rule"] == "blocking-alter"]
    assert said == [("V3__new.sql", 1)] and code == 1


# -- MySQL 8.0 / 8.4 / 5.7, from the manual's "Online DDL Operations" tables (no server here judges them)
T = ("CREATE TABLE customer (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL, b VARCHAR(20), c INT NULL, "
     "p INT, KEY k_a (a), CONSTRAINT fk_p FOREIGN KEY (p) REFERENCES customer (id)) ENGINE=InnoDB")


@pytest.mark.parametrize("target, alter, expected", [
    # instant (8.0.12+ last, 8.0.29+ any position; 8.4 any): nothing to say
    ("mysql-8.0", "ALTER TABLE customer ADD COLUMN d INT", None),
    ("mysql-8.4", "ALTER TABLE customer ADD COLUMN d INT AFTER a", None),
    ("mysql-8.4", "ALTER TABLE customer RENAME COLUMN b TO label", None),
    ("mysql-8.0", "ALTER TABLE customer ALTER COLUMN b SET DEFAULT 'x'", None),
    # in place without a rebuild, writes go on: a secondary key, a longer VARCHAR, a foreign key
    # dropped, AUTO_INCREMENT=, a key renamed or dropped
    ("mysql-8.0", "ALTER TABLE customer ADD KEY k_b (b)", None),
    ("mysql-8.0", "ALTER TABLE customer MODIFY b VARCHAR(40)", None),
    ("mysql-8.4", "ALTER TABLE customer DROP FOREIGN KEY fk_p", None),
    ("mysql-8.0", "ALTER TABLE customer AUTO_INCREMENT = 1000", None),
    ("mysql-8.0", "ALTER TABLE customer RENAME INDEX k_a TO k_a2", None),
    ("mysql-8.4", "DROP INDEX k_a ON customer", None),
    # a rebuild in place (writes go on): NULL / NOT NULL, a reordered column, ENGINE=InnoDB, ROW_FORMAT=
    ("mysql-8.0", "ALTER TABLE customer MODIFY c INT NOT NULL", ("INPLACE", "NONE")),
    ("mysql-8.4", "ALTER TABLE customer MODIFY b VARCHAR(20) FIRST", ("INPLACE", "NONE")),
    ("mysql-8.0", "ALTER TABLE customer ENGINE=InnoDB", ("INPLACE", "NONE")),
    ("mysql-8.4", "ALTER TABLE customer ROW_FORMAT=COMPRESSED", ("INPLACE", "NONE")),
    # 5.7 has no INSTANT: a column added rebuilds the table
    ("mysql-5.7", "ALTER TABLE customer ADD COLUMN d INT", ("INPLACE", "NONE")),
    # locks: a FULLTEXT key (the first rebuilds), a SPATIAL one
    ("mysql-8.0", "ALTER TABLE customer ADD FULLTEXT KEY ft (b)", ("INPLACE", "SHARED")),
    # copies: a type change, DROP PRIMARY KEY, ADD FOREIGN KEY (foreign_key_checks on), CONVERT TO
    ("mysql-8.0", "ALTER TABLE customer MODIFY a BIGINT NOT NULL", ("COPY", "SHARED")),
    ("mysql-8.4", "ALTER TABLE customer MODIFY id INT NOT NULL, DROP PRIMARY KEY", ("COPY", "SHARED")),
    ("mysql-8.0", "ALTER TABLE customer ADD FOREIGN KEY (c) REFERENCES customer (id)", ("COPY", "SHARED")),
    ("mysql-8.4", "ALTER TABLE customer CONVERT TO CHARACTER SET latin1", ("COPY", "SHARED")),
])
def test_mysql_as_its_manual_says(tmp_path: Path, target: str, alter: str, expected: tuple[str, str] | None) -> None:
    found = _migration(tmp_path, T, alter, target)
    assert [f.subject.split(":")[:2] for f in found] == ([list(expected)] if expected else []), [f.message for f in found]
