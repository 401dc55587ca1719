"""Targets: the lines a user names, full versions mapped to their line, and what a release
decides within a line; the test MariaDB judges executable comments at its own version (issue 35)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from linter.schema import innodb_sizes
from linter.schema.target import TARGETS, Target
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("written", "line", "version", "release"), [
    ("mysql-8.0.36", "mysql-8.0", (8, 0), (8, 0, 36)),
    ("MySQL-8.0.4", "mysql-8.0", (8, 0), (8, 0, 4)),
    ("mysql-5.7.44", "mysql-5.7", (5, 7), (5, 7, 44)),
    ("mysql-8.4.3", "mysql-8.4", (8, 4), (8, 4, 3)),
    ("mysql-9.1.0", "mysql-9.x", (9, 1), (9, 1, 0)),
    ("mysql-9.x", "mysql-9.x", (9, 0), None),
    ("percona-8.0.35", "percona-8.0", (8, 0), (8, 0, 35)),
    ("percona-8.4.2", "percona-8.4", (8, 4), (8, 4, 2)),
    ("mariadb-10.4.34", "mariadb-10.4", (10, 4), (10, 4, 34)),
    ("mariadb-10.5", "mariadb-10.5", (10, 5), None),
    ("mariadb-10.6.12", "mariadb-10.6", (10, 6), (10, 6, 12)),
    ("mariadb-10.11.6", "mariadb-10.11", (10, 11), (10, 11, 6)),
    ("mariadb-11.4.2", "mariadb-11.x", (11, 4), (11, 4, 2)),
    ("mariadb-11.8", "mariadb-11.x", (11, 8), (11, 8, 99)),
])
def test_a_full_version_names_its_line(written: str, line: str, version: tuple[int, int],
                                      release: tuple[int, int, int] | None) -> None:
    target = Target.parse(written)
    assert (target.name, target.version, target.release) == (line, version, release)
    assert target.name in TARGETS


@pytest.mark.parametrize(("written", "why"), [
    ("mysql-8.2.0", "innovation releases"), ("mysql-8.3", "innovation releases"), ("mysql-5.6.51", "end of life"),
    ("mariadb-10.3.39", "before 10.4"), ("mariadb-10.8.1", "short-term releases"), ("mariadb-12.0.2", "not modelled"),
    ("percona-5.7.44", "name mysql-5.7"), ("mysql-10.0.0", "not modelled"), ("mysql-8.0.x", "expected one of"),
    ("postgres-16", "expected one of"), ("mysql-8.0.36-log", "expected one of"), ("mysql-" + "9" * 60, "expected one of"),
])
def test_a_version_no_line_stands_for_is_refused_with_the_reason(written: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Target.parse(written)


@pytest.mark.parametrize("line", TARGETS)
def test_every_line_has_what_the_checks_ask_of_it(line: str, tmp_path: Path) -> None:
    """A run on each line, from the command line and as a full version: the server's defaults, the
    checks' target-dependent advice and the label are there for all of them."""
    target = Target.parse(line)
    assert innodb_sizes.server_defaults(target).charset in ("latin1", "utf8mb4")
    sql = tmp_path / "s.sql"
    sql.write_text("CREATE TABLE t (id CHAR(36) NOT NULL PRIMARY KEY, d DATE DEFAULT '0000-00-00', "
                   "name VARCHAR(20) CHARACTER SET utf8) ENGINE=InnoDB;\n"
                   "CREATE TABLE u (id INT NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n"
                   "CREATE TABLE v (id INT NOT NULL PRIMARY KEY) ENGINE=MyISAM;\n")
    full = line.replace(".x", ".1") + ".5"
    for name in (line, full):
        done = run_cli(["check", "--format", "json", "--target", name, str(sql)], cwd=ROOT)
        assert done.returncode == 1, done.stderr
        assert {f["rule"] for f in json.loads(done.stdout)["findings"]} >= {"non-innodb-engine", "zero-date-default"}


@pytest.mark.parametrize(("written", "invisible", "gipk"), [
    ("mysql-8.0.22", False, False), ("mysql-8.0.23", True, False), ("mysql-8.0.29", True, False),
    ("mysql-8.0.30", True, True), ("mysql-8.0", True, True), ("mysql-8.4.0", True, True), ("mysql-5.7.44", False, False),
    ("mariadb-10.4.1", True, False),
])
def test_the_release_decides_what_came_within_a_line(written: str, invisible: bool, gipk: bool) -> None:
    target = Target.parse(written)
    assert (target.has_invisible_columns, target.has_gipk) == (invisible, gipk)


@pytest.mark.parametrize(("written", "known"), [
    ("mariadb-10.11.6", False), ("mariadb-11.x", None), ("mariadb-11.4.4", False), ("mariadb-11.4.5", True),
    ("mariadb-11.4", True), ("mariadb-11.6.2", None), ("mariadb-11.8.1", True), ("mysql-8.0.36", True),
    ("mysql-5.7.44", False),
])
def test_mysql_0900_collations_on_a_release(written: str, known: bool | None) -> None:
    """MariaDB took the utf8mb4_0900_ names as aliases in 11.4.5: a named release decides what
    the 11.x line leaves open."""
    assert innodb_sizes.collation_known("utf8mb4_0900_ai_ci", Target.parse(written)) == known


def test_a_named_mariadb_11_release_before_11_6_defaults_to_latin1() -> None:
    assert innodb_sizes.server_defaults(Target.parse("mariadb-11.4.2")).charset == "latin1"
    assert innodb_sizes.server_defaults(Target.parse("mariadb-11.8.1")).charset == "utf8mb4"
    assert innodb_sizes.server_defaults(Target.parse("mariadb-11.x")).note  # the line says it depends


def test_the_configuration_and_every_command_take_a_full_version(tmp_path: Path) -> None:
    (tmp_path / ".innolint.toml").write_text('target = "mysql-8.0.20"\n')
    (tmp_path / "s.sql").write_text("CREATE TABLE t (id INT PRIMARY KEY, a INT /*!80023 INVISIBLE */) ENGINE=InnoDB;\n")
    shown = run_cli(["config", str(tmp_path)], cwd=ROOT)
    assert shown.returncode == 0 and re.search(r'^target = "mysql-8\.0\.20" +# .*\.innolint\.toml', shown.stdout, re.M)
    for command in (["check", "--target", "mariadb-10.6.12"], ["fix", "--dry-run", "--target", "mysql-8.0.36",
                                                                 "--migration"]):
        done = run_cli([*command, str(tmp_path)], cwd=ROOT)
        assert "unknown target" not in done.stderr and "invalid" not in done.stderr, done.stderr


@pytest.mark.mariadb
def test_executable_comments_run_as_the_server_of_that_release_runs_them(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The test MariaDB at its own full version (`mariadb-10.11.N`): `/*!NNNNNN` and
    `/*M!NNNNNN` comments one release below, at and above it run as the server runs them, which
    the line alone (10.11.99) cannot say."""
    from linter.engine import Engine, Unit
    from linter.rules.checkapi import CheckContext

    major, minor, patch = (int(n) for n in re.match(r"(\d+)\.(\d+)\.(\d+)", mariadb.version).groups())  # type: ignore[union-attr]
    number = major * 10000 + minor * 100 + patch
    columns = []
    for offset in (-1, 0, 1):
        for bang in ("!", "M!"):
            name = f"c_{'m' if bang == 'M!' else 'x'}_{offset + 1}"
            columns.append((name, f"/*{bang}{number + offset} , {name} INT */"))
    sql = "CREATE TABLE t (id INT PRIMARY KEY " + " ".join(text for _, text in columns) + ") ENGINE=InnoDB;\n"
    mariadb.sql("DROP DATABASE IF EXISTS targets_release; CREATE DATABASE targets_release")
    mariadb.sql(sql, "targets_release")
    server = {row[0] for row in mariadb.sql(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'targets_release'")}
    mariadb.sql("DROP DATABASE targets_release")
    path = tmp_path / "t.sql"
    path.write_text(sql)
    seen = {}
    for written in (f"mariadb-{major}.{minor}.{patch}", f"mariadb-{major}.{minor}"):
        target = Target.parse(written)
        engine = Engine(CheckContext(target=target))
        result = engine.lint_unit(Unit([str(path)]), CheckContext(target=target))
        seen[written] = set(result.model.tables()[0].columns)
    assert seen[f"mariadb-{major}.{minor}.{patch}"] == server, (server, seen)
    assert seen[f"mariadb-{major}.{minor}"] != server  # the line stands for 10.11.99: it runs the one above too
