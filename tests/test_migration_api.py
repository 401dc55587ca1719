"""The format-detection API other commands use (`innolint fix --migration DIR`): `detect` gives a
directory's format and files in order, `new_migration` where a new migration goes in that format
and what it holds; a new migration is detected again as the last of its history. And the
configuration's list of formats is the list linter.input.migrations.history knows."""

from __future__ import annotations

import datetime
import typing
from pathlib import Path

import pytest

from linter.config.model import MigrationFormat
from linter.input.migrations.formats import NAMES as FORMATS
from linter.input.migrations.history import detect, plan
from linter.input.migrations.writing import directory_of, new_migration, utc
from tests import histories as H

NOW = datetime.datetime(2031, 5, 6, 7, 8, 9)

LAYOUTS: dict[str, dict[str, str]] = {
    "flyway": {"V1__init.sql": "CREATE TABLE a (id INT PRIMARY KEY);", "V2__more.sql": "ALTER TABLE a ADD b INT;",
               "V10__late.sql": "ALTER TABLE a ADD c INT;"},
    "golang-migrate": {"000001_init.up.sql": "CREATE TABLE a (id INT PRIMARY KEY);", "000001_init.down.sql": "DROP TABLE a;",
                       "000002_more.up.sql": "ALTER TABLE a ADD b INT;"},
    "goose": {"00001_init.sql": "-- +goose Up\nCREATE TABLE a (id INT PRIMARY KEY);\n-- +goose Down\nDROP TABLE a;\n",
              "00002_more.sql": "-- +goose Up\nALTER TABLE a ADD b INT;\n"},
    "dbmate": {"20240101000000_init.sql": "-- migrate:up\nCREATE TABLE a (id INT PRIMARY KEY);\n-- migrate:down\n"},
    "timestamp": {"2024_01_01_000000_create_a.sql": "CREATE TABLE a (id INT PRIMARY KEY);"},
    "authelia": {"V0001.Initial.up.sql": "CREATE TABLE a (id INT PRIMARY KEY);", "V0001.Initial.down.sql": "DROP TABLE a;"},
    "diesel": {"2024-01-01-000000_init/up.sql": "CREATE TABLE a (id INT PRIMARY KEY);",
               "2024-01-01-000000_init/down.sql": "DROP TABLE a;"},
}


def test_the_configuration_names_every_format() -> None:
    assert set(typing.get_args(MigrationFormat)) == {"auto", *FORMATS}


@pytest.mark.parametrize("fmt", sorted(LAYOUTS))
def test_a_new_migration_is_the_last_of_its_history(tmp_path: Path, fmt: str) -> None:
    for name, text in LAYOUTS[fmt].items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text + "\n")
    history = detect(str(tmp_path))
    assert history is not None and history.format == fmt
    made = new_migration(history, "Add index on b!", "CREATE INDEX ix_b ON a (b);", now=utc(NOW))
    ups = {name: text for name, text in made.files.items() if "down" not in name}
    ((relative, text),) = ups.items()
    assert "ix_b" in text and ("add_index_on_b" in relative or "AddIndexOnB" in relative)
    path = str(Path(directory_of(history)) / relative)
    if fmt == "goose":
        assert text.startswith("-- +goose Up\n")
    if fmt == "dbmate":
        assert text.startswith("-- migrate:up\n")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text)
    again = detect(str(tmp_path))
    assert again is not None and again.format == fmt and again.files[-1] == path


def test_flyway_and_numbered_versions_keep_their_spelling(tmp_path: Path) -> None:
    for name in ("V001__a.sql", "V002__b.sql"):
        (tmp_path / name).write_text("SELECT 1;\n")
    history = detect(str(tmp_path))
    assert history is not None
    assert next(iter(new_migration(history, "c", "SELECT 2;", now=utc(NOW)).files)) == "V003__c.sql"


@pytest.mark.parametrize("fmt", ["prisma", "atlas", "liquibase"])
def test_a_configured_format_reads_its_directory(tmp_path: Path, fmt: str) -> None:
    evolution = H.evolve(5)
    if fmt == "prisma":
        root = H.write_prisma(tmp_path, evolution, 5)
        files = sorted(str(p) for p in root.rglob("*.sql"))
    elif fmt == "atlas":
        root = tmp_path / "m"
        files = [str(p) for p in H.write_atlas(root, evolution, 5)]
    else:
        changelog, written = H.write_liquibase(tmp_path, evolution, 5, master="xml")
        root = changelog.parent  # type: ignore[union-attr]
        files = [str(p) for p in written]
    groups = plan(files, configured=lambda path: (str(root), fmt))
    histories = [g.history for g in groups if g.history is not None]
    assert len(histories) == 1 and histories[0].format == fmt
    assert len(histories[0].files) == len(evolution.migrations)
