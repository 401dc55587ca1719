"""wide-primary-key judges a declared width against what the ORM stores in it (issue 35).

Prisma's quick-start model (`id String @id @default(cuid())`) is VARCHAR(191) in the MySQL
migration Prisma writes: declared 766 bytes in utf8mb4, and a warning with exit 1 while every id is
25 ASCII characters, 26 bytes in a secondary index entry. With the schema beside the migrations,
the key is counted as its values take it (cuid 25, cuid2 24, nanoid 21 or n, ULID 26, UUID 36:
linter.input.migrations.formats.prisma), the declaration is an info with the fix in Prisma's terms
(`@db.VarChar(25)` / `@db.Char(36)` on the field, never an ALTER that the next `prisma migrate`
undoes), and a key that is wide whatever the values gets a surrogate key in the model. The server
judges the storage claim: a secondary index over VARCHAR(191) holding 25-character ids is the size
of one over VARCHAR(25), and a CHAR(191) utf8mb4 key is not.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.engine import lint_paths
from linter.rules.checkapi import CheckContext
from linter.rules.findings import Finding, Report
from linter.schema.innodb_sizes import holding_values, key_width
from linter.schema.target import Target
from tests import histories as H
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
UTF8MB4 = ") DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n"


def _project(tmp_path: Path, models: str, sql: str) -> Path:
    return H.write_prisma_project(tmp_path, models, sql)


def _lint(path: Path, target: str = "mysql-8.0", **options: dict[str, object]) -> Report:
    return lint_paths([str(path)], CheckContext(target=Target.parse(target), options=dict(options)))


def _wide(report: Report) -> list[Finding]:
    return [f for f in report.findings if f.rule == "wide-primary-key"]


# Prisma's quick start (prisma.io/docs getting started, with cuid ids), as `prisma migrate dev`
# writes it for MySQL
QUICK_START_MODELS = """model User {
  id    String  @id @default(cuid())
  email String  @unique
  name  String?
  posts Post[]
}

model Post {
  id        String   @id @default(cuid())
  createdAt DateTime @default(now())
  title     String
  published Boolean  @default(false)
  author    User     @relation(fields: [authorId], references: [id])
  authorId  String
}
"""
QUICK_START_SQL = (
    "-- CreateTable\nCREATE TABLE `User` (\n    `id` VARCHAR(191) NOT NULL,\n    `email` VARCHAR(191) NOT NULL,\n"
    "    `name` VARCHAR(191) NULL,\n\n    UNIQUE INDEX `User_email_key`(`email`),\n    PRIMARY KEY (`id`)\n" + UTF8MB4
    + "\n-- CreateTable\nCREATE TABLE `Post` (\n    `id` VARCHAR(191) NOT NULL,\n    `createdAt` DATETIME(3) NOT NULL "
    "DEFAULT CURRENT_TIMESTAMP(3),\n    `title` VARCHAR(191) NOT NULL,\n    `published` BOOLEAN NOT NULL DEFAULT false,\n"
    "    `authorId` VARCHAR(191) NOT NULL,\n\n    PRIMARY KEY (`id`)\n" + UTF8MB4
    + "\n-- AddForeignKey\nALTER TABLE `Post` ADD CONSTRAINT `Post_authorId_fkey` FOREIGN KEY (`authorId`) "
    "REFERENCES `User`(`id`) ON DELETE RESTRICT ON UPDATE CASCADE;\n")


def test_the_prisma_quick_start_passes_the_check_with_the_declaration_advised_in_prisma_terms(tmp_path: Path) -> None:
    project = _project(tmp_path, QUICK_START_MODELS, QUICK_START_SQL)
    run = run_cli(["check", "--format", "json", str(project)], cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    findings = [f for f in json.loads(run.stdout)["findings"] if f["rule"] == "wide-primary-key"]
    assert sorted(f["table"] for f in findings) == ["Post", "User"]
    for finding in findings:
        assert finding["severity"] == "info" and finding.get("fix") is None
        assert "declared up to 766 bytes" in finding["message"]
        assert "holds 26 bytes of it" in finding["message"] and "25 + 1 length byte" in finding["message"]
        assert "add `@db.VarChar(25)` on the field id" in finding["message"]
        assert "prisma migrate dev" in finding["message"]
    # without the schema the DDL is all there is: the declared 766 bytes, the warning, the ALTER
    (project / "prisma" / "schema.prisma").unlink()
    bare = _wide(_lint(project))
    assert [f.severity for f in bare] == ["warning", "warning"] and all("ALTER TABLE" in (f.fix or "") for f in bare)


@pytest.mark.parametrize(("default", "chars", "native"), [
    ("cuid()", 25, "VarChar"), ("cuid(1)", 25, "VarChar"), ("ulid()", 26, "Char"), ("uuid(7)", 36, "Char"),
])
@pytest.mark.parametrize("target", ["mysql-8.0", "mariadb-10.11"])
def test_each_ordered_generator_is_counted_at_its_length(tmp_path: Path, default: str, chars: int, native: str,
                                                         target: str) -> None:
    models = (f"model Account {{\n  accountRef String @id @default({default}) @map(\"account_ref\")\n"
              "  handle String @unique\n  region String\n\n  @@index([region])\n  @@map(\"accounts\")\n}\n")
    sql = ("CREATE TABLE `accounts` (\n    `account_ref` VARCHAR(191) NOT NULL,\n    `handle` VARCHAR(191) NOT NULL,\n"
           "    `region` VARCHAR(191) NOT NULL,\n\n    UNIQUE INDEX `accounts_handle_key`(`handle`),\n"
           "    INDEX `accounts_region_idx`(`region`),\n    PRIMARY KEY (`account_ref`)\n" + UTF8MB4)
    (finding,) = _wide(_lint(_project(tmp_path, models, sql), target))
    assert finding.severity == "info" and finding.fix is None and finding.table == "accounts"
    assert f"holds {chars + 1} bytes of it" in finding.message and f"{chars}-character values" in finding.message
    assert f"add `@db.{native}({chars})` on the field accountRef" in finding.message
    assert "schema.prisma:7" in finding.message  # the field's line, where the attribute goes
    # the MEMORY engine's fixed-length rows are the declaration's cost on MariaDB, not on MySQL 8.0
    assert ("in-memory temporary tables" in finding.message) == target.startswith("mariadb")


@pytest.mark.parametrize("default", ["uuid()", "cuid(2)", "nanoid()", "nanoid(12)"])
def test_random_generators_are_left_to_uuid_primary_key(tmp_path: Path, default: str) -> None:
    models = f"model Token {{\n  id String @id @default({default})\n  owner String\n\n  @@index([owner])\n}}\n"
    sql = ("CREATE TABLE `Token` (\n    `id` VARCHAR(191) NOT NULL,\n    `owner` VARCHAR(191) NOT NULL,\n\n"
           "    INDEX `Token_owner_idx`(`owner`),\n    PRIMARY KEY (`id`)\n" + UTF8MB4)
    report = _lint(_project(tmp_path, models, sql))
    assert _wide(report) == []
    assert [f.table for f in report.findings if f.rule == "uuid-primary-key"] == ["Token"]


def test_a_field_declared_as_wide_as_its_values_is_quiet_and_a_wider_one_is_told_what_to_replace(tmp_path: Path) -> None:
    def run(root: Path, attribute: str, written: str) -> list[Finding]:
        models = f"model Order {{\n  id String @id @default(cuid()) {attribute}\n  placedBy String\n\n  @@index([placedBy])\n}}\n"
        sql = (f"CREATE TABLE `Order` (\n    `id` {written} NOT NULL,\n    `placedBy` VARCHAR(64) NOT NULL,\n\n"
               "    INDEX `Order_placedBy_idx`(`placedBy`),\n    PRIMARY KEY (`id`)\n" + UTF8MB4)
        return _wide(_lint(_project(root, models, sql)))

    # VARCHAR(25) utf8mb4 is declared 101 bytes, over the default 100; the values take 26
    assert run(tmp_path / "exact", "@db.VarChar(25)", "VARCHAR(25)") == []
    (wider,) = run(tmp_path / "wider", "@db.VarChar(64)", "VARCHAR(64)")
    assert wider.severity == "info" and "replace `@db.VarChar(64)` with `@db.VarChar(25)`" in wider.message
    # CHAR in utf8mb4 holds at least its length in bytes (space-padded): CHAR(191) is wide whatever
    # the values, and the fix is in the model, not an ALTER
    (padded,) = run(tmp_path / "char", "@db.Char(191)", "CHAR(191)")
    assert padded.severity == "warning" and padded.fix is None
    assert "193 bytes" in padded.message and "id CHAR(191) holding 25-character values" in padded.message
    assert "`rowId BigInt @id @default(autoincrement())`" in padded.message and "`@unique` on id" in padded.message
    assert "replace `@db.Char(191)` with `@db.VarChar(25)`" in padded.message


def test_a_key_the_application_assigns_keeps_its_warning_with_the_fix_in_the_model(tmp_path: Path) -> None:
    models = ("model Document {\n  slug String @id\n  title String\n  folder String\n\n  @@index([folder])\n}\n\n"
              "model Shelf {\n  region String\n  code String\n  label String\n\n  @@id([region, code])\n"
              "  @@index([label])\n}\n")
    sql = ("CREATE TABLE `Document` (\n    `slug` VARCHAR(191) NOT NULL,\n    `title` VARCHAR(191) NOT NULL,\n"
           "    `folder` VARCHAR(191) NOT NULL,\n\n    INDEX `Document_folder_idx`(`folder`),\n    PRIMARY KEY (`slug`)\n"
           + UTF8MB4 + "\nCREATE TABLE `Shelf` (\n    `region` VARCHAR(191) NOT NULL,\n    `code` VARCHAR(191) NOT NULL,\n"
           "    `label` VARCHAR(191) NOT NULL,\n\n    INDEX `Shelf_label_idx`(`label`),\n    PRIMARY KEY (`region`, `code`)\n"
           + UTF8MB4)
    found = {f.table: f for f in _wide(_lint(_project(tmp_path, models, sql)))}
    document, shelf = found["Document"], found["Shelf"]
    for finding in (document, shelf):
        assert finding.severity == "warning" and finding.fix is None
        assert "Fix in the application's model, not with an ALTER" in finding.message
        assert "`id BigInt @id @default(autoincrement())`" in finding.message
    assert "766 bytes" in document.message and "`@unique` on slug" in document.message
    assert "add `@db.VarChar(n)` (n: the longest id the application assigns)" in document.message
    assert "1,532 bytes" in shelf.message and "`@@unique([region, code])`" in shelf.message


def test_ids_narrow_in_values_can_still_be_over_a_lower_limit(tmp_path: Path) -> None:
    models = QUICK_START_MODELS
    report = _lint(_project(tmp_path, models, QUICK_START_SQL), **{"wide-primary-key": {"max_key_bytes": 20}})
    found = {f.table: f for f in _wide(report)}
    assert sorted(found) == ["Post", "User"]
    for finding in found.values():
        assert finding.severity == "warning" and finding.fix is None
        assert "up to 26 bytes" in finding.message and "a cuid is 25 characters" in finding.message
        assert "Or, where the key should stay, in the model" in finding.message and "@db.VarChar(25)" in finding.message


# --- Laravel: what its key traits store -----------------------------------------------------------------

_LARAVEL_MODEL = """<?php

namespace App\\Models;

use Illuminate\\Database\\Eloquent\\Concerns\\{trait};
use Illuminate\\Database\\Eloquent\\Model;

class Invoice extends Model
{{
    use {trait};
}}
"""


@pytest.mark.parametrize("key", ["id", "invoice_ulid"])
def test_laravel_has_ulids_counts_a_char_26_key_as_its_values_take_it(tmp_path: Path, key: str) -> None:
    schema = tmp_path / "database" / "schema"
    schema.mkdir(parents=True)
    (schema / "mysql-schema.sql").write_text(
        f"CREATE TABLE `invoices` (\n  `{key}` char(26) COLLATE utf8mb4_unicode_ci NOT NULL,\n"
        "  `customer` varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL,\n"
        "  `issued_at` timestamp NULL DEFAULT NULL,\n  PRIMARY KEY (`" + key + "`),\n"
        "  KEY `invoices_customer_index` (`customer`),\n  KEY `invoices_issued_at_index` (`issued_at`)\n"
        ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;\n")
    (bare,) = _wide(_lint(tmp_path))  # char(26) utf8mb4 as declared: 104 + 1 bytes
    assert bare.severity == "warning" and "105 bytes" in bare.message
    models = tmp_path / "app" / "Models"
    models.mkdir(parents=True)
    primary = "" if key == "id" else f"\n    protected $primaryKey = '{key}';"
    (models / "Invoice.php").write_text(_LARAVEL_MODEL.format(trait="HasUlids").replace(
        "use HasUlids;", "use HasUlids;" + primary))
    assert _wide(_lint(tmp_path)) == []  # ULIDs: 26 + 1 bytes; Laravel's own migration already says char(26)


# --- what a key part holds, and the server's word on it ---------------------------------------------------


MARIADB = Target.parse("mariadb-10.11")


def _held(column_sql: str, chars: int, table_options: str = "DEFAULT CHARSET=utf8mb4") -> tuple[int, int, int]:
    """(declared stored bytes, held bytes, held length bytes) of a one-column key holding
    `chars`-character values."""
    table = table_of(f"CREATE TABLE t (k {column_sql} NOT NULL, v INT, PRIMARY KEY (k), KEY (v)) {table_options}")
    declared = key_width(table, table.indexes[0], MARIADB)
    column = table.column("k")
    assert column is not None
    part = holding_values(declared.parts[0], column, chars)
    return declared.stored_bytes, part.bytes or 0, part.length_bytes


@pytest.mark.parametrize(("column", "chars", "options", "held"), [
    ("VARCHAR(191)", 25, "DEFAULT CHARSET=utf8mb4", (766, 25, 1)),
    ("VARCHAR(191)", 36, "DEFAULT CHARSET=utf8mb3", (575, 36, 1)),
    ("VARCHAR(191)", 25, "DEFAULT CHARSET=latin1", (192, 25, 1)),
    ("VARCHAR(191)", 25, "DEFAULT CHARSET=ucs2", (384, 50, 1)),  # an ASCII character is 2 bytes in ucs2
    ("VARCHAR(300)", 200, "DEFAULT CHARSET=utf8mb4", (1202, 200, 2)),  # 200 bytes of a column over 255: 2
    ("VARCHAR(20)", 36, "DEFAULT CHARSET=utf8mb4", (81, 20, 1)),  # never more than the column holds
    ("CHAR(191)", 25, "DEFAULT CHARSET=utf8mb4", (766, 191, 2)),  # space-padded to its length in bytes
    ("CHAR(36)", 36, "DEFAULT CHARSET=utf8mb4", (145, 36, 1)),
    ("CHAR(191)", 25, "DEFAULT CHARSET=latin1", (191, 191, 0)),  # fixed-length: the declaration
    ("CHAR(36)", 36, "DEFAULT CHARSET=utf8mb4 ROW_FORMAT=REDUNDANT", (144, 144, 0)),  # REDUNDANT's CHAR is fixed
    ("VARBINARY(64)", 26, "", (65, 26, 1)),
    ("BINARY(16)", 26, "", (16, 16, 0)),
])
def test_a_key_part_holding_values_takes_the_values_bytes(column: str, chars: int, options: str,
                                                          held: tuple[int, int, int]) -> None:
    assert _held(column, chars, options) == held


def table_of(ddl: str):  # type: ignore[no-untyped-def]
    from linter.parse.statement import parse_statement
    from linter.parse.elements import Location
    from linter.schema.model import Table

    op = parse_statement(ddl)
    assert not isinstance(op, Exception)
    return Table(op.name.schema, op.name.name, op.body, Location("t.sql", 1), Location("t.sql", 1))  # type: ignore[union-attr]


@pytest.mark.mariadb
def test_the_server_stores_what_the_values_take_not_the_declaration(mariadb) -> None:  # type: ignore[no-untyped-def]
    """30,000 rows of 25-character cuid-shaped ids: the secondary index over VARCHAR(191) utf8mb4 is
    the size of the one over VARCHAR(25) (each entry holds the value and its length), and over
    CHAR(191) utf8mb4 it is several times larger (each entry holds 191 padded bytes), as
    holding_values counts them."""
    database = "orm_key_widths"
    mariadb.sql(f"DROP DATABASE IF EXISTS {database}; CREATE DATABASE {database}")
    rows = 30_000
    columns = {"v191": "VARCHAR(191)", "v25": "VARCHAR(25)", "c191": "CHAR(191)"}
    try:
        for name, written in columns.items():
            mariadb.sql(
                f"CREATE TABLE {name} (id {written} NOT NULL, n INT NOT NULL, PRIMARY KEY (id), KEY by_n (n)) "
                "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE utf8mb4_unicode_ci STATS_PERSISTENT=1;"
                f"INSERT INTO {name} SELECT CONCAT('c', LPAD(CONV(1700000000000 + seq, 10, 36), 8, '0'), "
                "LPAD(CONV(seq % 1679616, 10, 36), 4, '0'), 'h7k2', LPAD(CONV(seq * 7919 % 2821109907456, 10, 36), "
                f"8, '0')), seq FROM seq_1_to_{rows}; ANALYZE TABLE {name}", database)
        lengths = mariadb.sql("SELECT MIN(CHAR_LENGTH(id)), MAX(CHAR_LENGTH(id)) FROM v191", database)
        assert lengths == [(25, 25)]
        pages = dict(mariadb.sql(
            f"SELECT table_name, stat_value FROM mysql.innodb_index_stats WHERE database_name = '{database}' "
            "AND index_name = 'by_n' AND stat_name = 'size'"))
        assert abs(pages["v191"] - pages["v25"]) <= max(2, pages["v25"] // 20)
        assert pages["c191"] > 3 * pages["v191"]
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {database}")
    held = {name: _held(written, 25) for name, written in columns.items()}
    assert held["v191"][1:] == held["v25"][1:] == (25, 1) and held["c191"][1:] == (191, 2)
