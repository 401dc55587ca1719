"""`--since REF` with the formats whose history is more than its SQL files: the files that decide how
a history is read (atlas.sum, a Liquibase changelog, Prisma's lock and schema.prisma) are read at
REF too, so nothing is reported as new that was there already, and what a change makes worse is."""

from __future__ import annotations

from pathlib import Path

from tests import histories as H
from tests.test_since import found, git, since


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("app\n")
    return repo


def _commit(repo: Path) -> None:
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "feature")


def test_a_new_prisma_migration_reports_only_what_it_adds(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    evolution = H.evolve(2)  # string ids: schema.prisma's uuid() makes the owner table a finding
    assert evolution.string_ids
    migrations = H.write_prisma(repo, evolution, 2)
    _commit(repo)
    code, report = since(repo, "main", "prisma")
    assert code == 0 and report["findings"] == []
    folder = migrations / "29990101000000_audit"
    folder.mkdir()
    (folder / "migration.sql").write_text(
        "-- CreateTable\nCREATE TABLE `AuditLog` (\n    `createdAt` DATETIME(3) NOT NULL,\n    `message` VARCHAR(191) NOT NULL\n"
        ") DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n")
    _, report = since(repo, "main", "prisma")
    assert found(report) == [("no-primary-key", "migration.sql", "AuditLog")]


def test_a_new_liquibase_changeset_reports_only_what_it_adds(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    evolution = H.evolve(3)
    changelog, files = H.write_liquibase(repo, evolution, 3, master="xml", include="all")
    _commit(repo)
    assert since(repo, "main", "src")[1]["findings"] == []
    new = files[0].parent / "999-audit.sql"
    new.write_text("--liquibase formatted sql\n--changeset eve:999\nCREATE TABLE audit_log (at DATETIME NOT NULL) ENGINE=InnoDB;\n")
    _, report = since(repo, "main", "src")
    assert found(report) == [("no-primary-key", "999-audit.sql", "audit_log")]
    assert [d for d in report["diagnostics"] if d["rule"] in ("replay-error", "parse-error")] == []


def test_an_edited_atlas_migration_is_reported_once(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    directory = repo / "migrations"
    paths = H.write_atlas(directory, H.evolve(2), 2)
    _commit(repo)
    assert since(repo, "main", "migrations")[1]["diagnostics"] == []
    paths[1].write_text(paths[1].read_text() + "-- edited\n")
    _, report = since(repo, "main", "migrations")
    assert [(Path(d["path"]).name, "changed after atlas.sum" in d["message"]) for d in report["diagnostics"]] == [
        (paths[1].name, True)]


def test_a_liquibase_history_spanning_directories_is_read_whole_at_ref(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    db = repo / "db"
    (db / "tables").mkdir(parents=True)
    (db / "alters").mkdir()
    (db / "changelog.yaml").write_text(
        "databaseChangeLog:\n  - include:\n      file: tables/001-tables.sql\n      relativeToChangelogFile: true\n"
        "  - include:\n      file: alters/002-alters.sql\n      relativeToChangelogFile: true\n")
    (db / "tables" / "001-tables.sql").write_text(
        "--liquibase formatted sql\n--changeset a:1\nCREATE TABLE event_log (at DATETIME NOT NULL) ENGINE=InnoDB;\n")
    (db / "alters" / "002-alters.sql").write_text(
        "--liquibase formatted sql\n--changeset a:2\nALTER TABLE event_log ADD COLUMN message TEXT;\n")
    _commit(repo)
    (db / "alters" / "002-alters.sql").write_text(
        "--liquibase formatted sql\n--changeset a:2\nALTER TABLE event_log ADD COLUMN message TEXT;\n"
        "--changeset a:3\nALTER TABLE event_log ADD COLUMN level INT;\n")
    _, report = since(repo, "main", "db")
    assert report["findings"] == [] and report["diagnostics"] == []


def test_a_sum_already_wrong_at_ref_is_not_new(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    directory = repo / "migrations"
    paths = H.write_atlas(directory, H.evolve(2), 2)
    paths[0].write_text(paths[0].read_text() + "-- edited before the branch\n")
    _commit(repo)
    paths[-1].write_text(paths[-1].read_text() + "-- and now\n")
    _, report = since(repo, "main", "migrations")
    assert [d["message"] for d in report["diagnostics"]] == []  # the first edit is not new; the chain breaks there already
