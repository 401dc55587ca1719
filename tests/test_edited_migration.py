"""edited-migration (checks/edited_migration.py): with --since REF and in pre-commit (--changed-only,
against HEAD), an applied migration (one that exists at the ref) that the change edits, deletes
or renames; not a migration the change adds, a Flyway repeatable or a down migration, nor a rename
a version-only tool does not see."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from linter.cli import main

GOOD = "CREATE TABLE customer (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, email VARCHAR(100) NOT NULL);\n"
MORE = "CREATE TABLE orders (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, customer_id BIGINT NOT NULL);\n"


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
                          cwd=cwd, check=True, capture_output=True, text=True).stdout


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    _git("init", "-q", cwd=tmp_path)
    _git("add", "-A", cwd=tmp_path)
    _git("commit", "-qm", "base", cwd=tmp_path)
    return tmp_path


def _found(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[tuple[str, int, str]]]:
    code = main(["check", "--format", "json", *args])
    report = json.loads(capsys.readouterr().out)
    return code, [(os.path.basename(f["path"]), f["line"], f["subject"]) for f in report["findings"]
                  if f["rule"] == "edited-migration"]


FLYWAY = {"db/migration/V1__customer.sql": GOOD, "db/migration/V2__orders.sql": MORE}


@pytest.mark.parametrize("mode", ["since", "pre-commit"])
def test_an_applied_migration_edited_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    root = _repo(tmp_path, FLYWAY)
    monkeypatch.chdir(root)
    (root / "db/migration/V1__customer.sql").write_text(GOOD + "-- a comment\nCREATE INDEX k ON customer (email);\n")
    (root / "db/migration/V3__new.sql").write_text("ALTER TABLE orders ADD COLUMN note VARCHAR(20);\n")
    _git("add", "-A", cwd=root)
    args = ["--since", "HEAD", "db"] if mode == "since" else ["--changed-only", "db/migration/V1__customer.sql",
                                                              "db/migration/V3__new.sql"]
    code, found = _found(capsys, *args)
    line = 2 if mode == "since" else 1  # (git's diff says where; pre-commit names the file only)
    assert found == [("V1__customer.sql", line, "modified:V1__customer.sql")] and code == 1


def test_a_migration_the_change_adds_may_change_until_it_is_committed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repo(tmp_path, FLYWAY)
    monkeypatch.chdir(root)
    (root / "db/migration/V3__new.sql").write_text("ALTER TABLE orders ADD COLUMN note VARCHAR(20);\n")
    _git("add", "-A", cwd=root)
    (root / "db/migration/V3__new.sql").write_text("ALTER TABLE orders ADD COLUMN note VARCHAR(40);\n")
    _git("mv", "db/migration/V3__new.sql", "db/migration/V3__note.sql", cwd=root)  # renamed before it is applied
    assert _found(capsys, "--since", "HEAD", "db")[1] == []


def test_a_deleted_applied_migration(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repo(tmp_path, FLYWAY)
    monkeypatch.chdir(root)
    _git("rm", "-q", "db/migration/V2__orders.sql", cwd=root)
    code, found = _found(capsys, "--changed-only")  # what pre-commit runs when the commit only deletes
    assert found == [("V2__orders.sql", 1, "deleted:V2__orders.sql")] and code == 1


@pytest.mark.parametrize("files, old, new, reported", [
    # Flyway records the description: a rename fails `flyway validate`
    (FLYWAY, "db/migration/V2__orders.sql", "db/migration/V2__order_table.sql", True),
    # golang-migrate records the version only: the same version and content is the same migration
    ({"migrations/000001_customer.up.sql": GOOD, "migrations/000002_orders.up.sql": MORE},
     "migrations/000002_orders.up.sql", "migrations/000002_order_table.up.sql", False),
    # ... but not another version
    ({"migrations/000001_customer.up.sql": GOOD, "migrations/000002_orders.up.sql": MORE},
     "migrations/000002_orders.up.sql", "migrations/000003_orders.up.sql", True),
])
def test_renames(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                 files: dict[str, str], old: str, new: str, reported: bool) -> None:
    root = _repo(tmp_path, files)
    monkeypatch.chdir(root)
    _git("mv", old, new, cwd=root)
    found = _found(capsys, "--since", "HEAD", ".")[1]
    assert found == ([(os.path.basename(new), 1, f"renamed:{os.path.basename(old)}")] if reported else [])


def test_repeatable_and_down_migrations_are_meant_to_change(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repo(tmp_path, {**FLYWAY, "db/migration/R__views.sql": "CREATE OR REPLACE VIEW v AS SELECT 1 AS a;\n",
                            "db/migration/U2__orders.sql": "DROP TABLE orders;\n"})
    monkeypatch.chdir(root)
    (root / "db/migration/R__views.sql").write_text("CREATE OR REPLACE VIEW v AS SELECT 2 AS a;\n")
    (root / "db/migration/U2__orders.sql").write_text("DROP TABLE IF EXISTS orders;\n")
    assert _found(capsys, "--since", "HEAD", "db")[1] == []


def test_a_plain_schema_file_is_no_migration(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repo(tmp_path, {"schema.sql": GOOD})
    monkeypatch.chdir(root)
    (root / "schema.sql").write_text(GOOD + MORE)
    assert _found(capsys, "--since", "HEAD", ".")[1] == []


def test_without_a_change_there_is_nothing_to_say(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path, FLYWAY)
    (root / "db/migration/V1__customer.sql").write_text(GOOD + "-- edited\n")
    assert _found(capsys, str(root / "db"))[1] == []


def test_suppressed_in_the_file_with_a_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repo(tmp_path, FLYWAY)
    monkeypatch.chdir(root)
    (root / "db/migration/V1__customer.sql").write_text(
        "-- innolint: ignore-file[edited-migration] never released: main was reset\n" + GOOD)
    assert _found(capsys, "--since", "HEAD", "db")[1] == []
