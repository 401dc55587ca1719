"""Prisma: `prisma/migrations/<timestamp>_<name>/migration.sql` read as one history in the order
of the directory names, the lock file's provider obeyed, and schema.prisma read as evidence of how
ids are made. Histories are generated the way `prisma migrate dev` writes them for MySQL
(tests/histories.py), several migrations each, with ALTERs and index changes across files and the
down.sql files some teams keep beside them; the replayed model is compared with what MariaDB holds
after the same changes."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from linter.rules.findings import Report
from linter.input.migrations.history import order, plan
from linter.input.migrations.formats.prisma.schema import implicit_links, parse
from tests import histories as H
from tests.complexity import assert_linear

SEEDS = range(8)
lint, problems, PROBLEMS = H.lint, H.problems, H.PROBLEMS


def rules(report: Report, rule: str) -> list:  # type: ignore[type-arg]
    return [f for f in report.findings if f.rule == rule]


# --- the history -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_generated_prisma_history_replays_in_order_without_errors(tmp_path: Path, seed: int) -> None:
    evolution = H.evolve(seed)
    migrations = H.write_prisma(tmp_path, evolution, seed)
    report = lint(tmp_path)
    assert problems(report) == []
    assert report.stats.files == len(evolution.migrations)  # down.sql files are not Prisma's to run
    assert not [x for x in report.findings + report.diagnostics if x.path.endswith("down.sql")]
    history, others = order(str(migrations), [str(p) for p in migrations.rglob("*.sql")])
    assert history is not None and history.format == "prisma"
    assert [Path(p).parent.name for p in history.files] == sorted(p.parent.name for p in migrations.glob("*/migration.sql"))
    assert {os.path.basename(p) for p, _ in history.ignored} == {"down.sql"} or not list(migrations.rglob("down.sql"))
    assert others == []


@pytest.mark.mariadb
def test_the_replayed_prisma_history_is_what_mariadb_holds(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from linter.engine import Engine, units_for
    from tests import differential as D

    server = D.ServerRunner(mariadb, jobs=1, prefix="prisma")
    try:
        for seed in SEEDS:
            evolution = H.evolve(seed)
            root = tmp_path / f"s{seed}"
            migrations = H.write_prisma(root, evolution, seed)
            files = sorted(str(p) for p in migrations.rglob("*.sql"))
            (unit,) = units_for(files)
            result = Engine(D.innolint_context(), checks=[]).lint_unit(unit)
            assert [d.message for d in result.diagnostics if d.rule in PROBLEMS] == []
            # the server runs the very files in their order, as `prisma migrate deploy` does
            script = "".join(open(p, encoding="utf-8").read() for p in unit.files)
            (loaded,) = server.load([lambda main, other, text=script: text])
            assert loaded.errors == [], f"seed {seed}: the server refused a migration"
            differences = D.compare(loaded.view, D.model_view(result.model, "main", "other"))
            assert differences == [], f"seed {seed}: " + "; ".join(map(str, differences))
    finally:
        server.close()


def test_the_baseline_directory_0_init_runs_first(tmp_path: Path) -> None:
    evolution = H.evolve(11)
    migrations = H.write_prisma(tmp_path, evolution, 11, baseline_name=True)
    assert (migrations / "0_init").is_dir()
    history, _ = order(str(migrations), [str(p) for p in migrations.rglob("migration.sql")])
    assert history is not None and Path(history.files[0]).parent.name == "0_init"
    assert problems(lint(tmp_path)) == []


@pytest.mark.parametrize("layout", ["prisma", "apps/api/prisma", "packages/db/prisma"])
def test_layouts_a_monorepo_puts_prisma_anywhere(tmp_path: Path, layout: str) -> None:
    evolution = H.evolve(5)
    base = tmp_path / layout
    H.write_prisma(base.parent, evolution, 5)
    if base.parent != tmp_path:
        assert (base / "migrations").is_dir()
    report = lint(tmp_path)
    assert problems(report) == []
    assert report.stats.files == len(evolution.migrations)


@pytest.mark.parametrize("provider", ["postgresql", "sqlite", "sqlserver", "cockroachdb"])
def test_another_databases_migrations_are_left_out_and_said_at_the_lock_file(tmp_path: Path, provider: str) -> None:
    evolution = H.evolve(2)
    migrations = H.write_prisma(tmp_path, evolution, 2, provider=provider)
    report = lint(tmp_path)
    lock = [d for d in report.diagnostics if d.path.endswith("migration_lock.toml")]
    assert len(lock) == 1 and provider in lock[0].message and lock[0].line == 3 and lock[0].severity == "info"
    assert report.findings == [] and [d for d in report.diagnostics if d is not lock[0]] == []
    history, _ = order(str(migrations), [str(p) for p in migrations.rglob("migration.sql")])
    assert history is not None and history.files == [] and len(history.ignored) == len(evolution.migrations)


def test_mysql_provider_and_no_lock_file_both_run(tmp_path: Path) -> None:
    evolution = H.evolve(4)
    migrations = H.write_prisma(tmp_path, evolution, 4)
    (migrations / "migration_lock.toml").unlink()
    report = lint(tmp_path)
    assert problems(report) == [] and report.stats.files == len(evolution.migrations)


def test_a_changed_migration_is_linted_in_its_history(tmp_path: Path) -> None:
    evolution = H.evolve(6)
    migrations = H.write_prisma(tmp_path, evolution, 6)
    last = sorted(migrations.glob("*/migration.sql"))[-1]
    report = lint(last, changed=[last])
    assert problems(report) == []
    assert all(f.path == str(last) for f in report.findings + report.diagnostics)
    units = plan([str(last)], expand=lambda p: True)
    assert len(units) == 1 and len(units[0].files) == len(evolution.migrations)


# --- schema.prisma as evidence ---------------------------------------------------------------------


def _one_model(tmp_path: Path, field: str, column: str, extra_sql: str = "", name: str = "Session") -> Report:
    H.write_prisma_project(
        tmp_path, f"model {name} {{\n  {field}\n  createdAt DateTime @default(now())\n  payload String? @db.Text\n}}\n",
        f"-- CreateTable\nCREATE TABLE `{name}` (\n    {column},\n    `createdAt` DATETIME(3) NOT NULL DEFAULT "
        "CURRENT_TIMESTAMP(3),\n    `payload` TEXT NULL,\n\n    PRIMARY KEY (`id`)\n) DEFAULT CHARACTER SET utf8mb4 "
        f"COLLATE utf8mb4_unicode_ci;\n{extra_sql}", folder="20240301101500_init")
    return lint(tmp_path)


@pytest.mark.parametrize(("default", "kind"), [
    ("uuid()", "random UUIDv4"), ("uuid(4)", "random UUIDv4"), ("cuid(2)", "random cuid2"), ("nanoid()", "random nanoid"),
    ("nanoid(16)", "random nanoid"), ("uuid( )", "random UUIDv4"),
])
def test_a_random_prisma_default_makes_a_varchar_191_id_a_finding_that_names_the_schema_line(
        tmp_path: Path, default: str, kind: str) -> None:
    report = _one_model(tmp_path, f"id String @id @default({default})", "`id` VARCHAR(191) NOT NULL")
    (finding,) = rules(report, "uuid-primary-key")
    assert f"schema.prisma:7 (prisma model Session) `@default({default})`: {kind}" in finding.message
    assert finding.fix is None and "prisma migrate dev" in finding.message
    assert "schema.prisma:7" in (finding.evidence or "")


@pytest.mark.parametrize("default", ["uuid(7)", "cuid()", "ulid()", "autoincrement()"])
def test_an_ordered_prisma_default_clears_even_a_char_36_id(tmp_path: Path, default: str) -> None:
    column = "`id` INTEGER NOT NULL AUTO_INCREMENT" if default == "autoincrement()" else "`id` CHAR(36) NOT NULL"
    field = "id Int @id @default(autoincrement())" if default == "autoincrement()" else \
        f"id String @id @default({default}) @db.Char(36)"
    assert rules(_one_model(tmp_path, field, column), "uuid-primary-key") == []


def test_without_the_schema_file_a_char_36_id_is_judged_by_the_ddl(tmp_path: Path) -> None:
    report = _one_model(tmp_path, "id String @id @default(uuid(7)) @db.Char(36)", "`id` CHAR(36) NOT NULL")
    assert rules(report, "uuid-primary-key") == []
    (tmp_path / "prisma" / "schema.prisma").unlink()
    assert len(rules(lint(tmp_path), "uuid-primary-key")) == 1


@pytest.mark.parametrize("field", ["id String @id", 'id String @id @default(dbgenerated("(uuid())"))'])
def test_an_id_the_application_or_the_database_fills_is_left_to_the_ddl(tmp_path: Path, field: str) -> None:
    assert rules(_one_model(tmp_path, field, "`id` VARCHAR(191) NOT NULL"), "uuid-primary-key") == []


def test_mapped_names_are_the_sql_names(tmp_path: Path) -> None:
    prisma = tmp_path / "prisma"
    folder = prisma / "migrations" / "20240301101500_init"
    folder.mkdir(parents=True)
    (prisma / "schema.prisma").write_text(
        'datasource db {\n  provider = "mysql"\n  url = env("DATABASE_URL")\n}\n\n'
        'model AuditEvent {\n  eventId String @id @default(uuid()) @map("event_id") @db.VarChar(36)\n'
        '  occurredAt DateTime @map("occurred_at")\n\n  @@map("audit_events")\n}\n')
    (folder / "migration.sql").write_text(
        "-- CreateTable\nCREATE TABLE `audit_events` (\n    `event_id` VARCHAR(36) NOT NULL,\n    `occurred_at` "
        "DATETIME(3) NOT NULL,\n\n    PRIMARY KEY (`event_id`)\n) DEFAULT CHARACTER SET utf8mb4 COLLATE "
        "utf8mb4_unicode_ci;\n")
    (finding,) = rules(lint(tmp_path), "uuid-primary-key")
    assert finding.table == "audit_events" and "schema.prisma:7 (prisma model AuditEvent)" in finding.message


def _relation_project(tmp_path: Path, *, relation_name: str | None = None, explicit: bool = False,
                      foreign_keys: bool = True) -> Path:
    prisma = tmp_path / "prisma"
    folder = prisma / "migrations" / "20240102030405_init"
    folder.mkdir(parents=True)
    mode = "" if foreign_keys else '\n  relationMode = "prisma"'
    named = f'@relation("{relation_name}")' if relation_name else ""
    if explicit:
        models = ("model Post {\n  id Int @id @default(autoincrement())\n  title String\n  tags PostTag[]\n}\n\n"
                  "model Tag {\n  id Int @id @default(autoincrement())\n  name String @unique\n  posts PostTag[]\n}\n\n"
                  "model PostTag {\n  id Int @id @default(autoincrement())\n  post Post @relation(fields: [postId], "
                  "references: [id])\n  postId Int\n  tag Tag @relation(fields: [tagId], references: [id])\n"
                  "  tagId Int\n  assignedAt DateTime @default(now())\n\n  @@unique([postId, tagId])\n"
                  "  @@index([tagId])\n}\n")
        link_sql = ("CREATE TABLE `PostTag` (\n    `id` INTEGER NOT NULL AUTO_INCREMENT,\n    `postId` INTEGER NOT NULL,\n"
                    "    `tagId` INTEGER NOT NULL,\n    `assignedAt` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),\n\n"
                    "    INDEX `PostTag_tagId_idx`(`tagId`),\n    UNIQUE INDEX `PostTag_postId_tagId_key`(`postId`, `tagId`),\n"
                    "    PRIMARY KEY (`id`)\n) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n")
        fks = [("PostTag", "PostTag_postId_fkey", "postId", "Post"), ("PostTag", "PostTag_tagId_fkey", "tagId", "Tag")]
    else:
        models = (f"model Post {{\n  id Int @id @default(autoincrement())\n  title String\n  tags Tag[] {named}\n}}\n\n"
                  f"model Tag {{\n  id Int @id @default(autoincrement())\n  name String @unique\n  posts Post[] {named}\n}}\n")
        table = f"_{relation_name}" if relation_name else "_PostToTag"
        link_sql = (f"CREATE TABLE `{table}` (\n    `A` INTEGER NOT NULL,\n    `B` INTEGER NOT NULL,\n\n"
                    f"    UNIQUE INDEX `{table}_AB_unique`(`A`, `B`),\n    INDEX `{table}_B_index`(`B`)\n"
                    ") DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n")
        fks = [(table, f"{table}_A_fkey", "A", "Post"), (table, f"{table}_B_fkey", "B", "Tag")]
    (prisma / "schema.prisma").write_text(
        f'datasource db {{\n  provider = "mysql"\n  url = env("DATABASE_URL"){mode}\n}}\n\n{models}')
    sql = ("CREATE TABLE `Post` (\n    `id` INTEGER NOT NULL AUTO_INCREMENT,\n    `title` VARCHAR(191) NOT NULL,\n\n"
           "    PRIMARY KEY (`id`)\n) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n\n"
           "CREATE TABLE `Tag` (\n    `id` INTEGER NOT NULL AUTO_INCREMENT,\n    `name` VARCHAR(191) NOT NULL,\n\n"
           "    UNIQUE INDEX `Tag_name_key`(`name`),\n    PRIMARY KEY (`id`)\n) DEFAULT CHARACTER SET utf8mb4 "
           "COLLATE utf8mb4_unicode_ci;\n\n" + link_sql)
    if foreign_keys:
        sql += "".join(f"\nALTER TABLE `{t}` ADD CONSTRAINT `{n}` FOREIGN KEY (`{c}`) REFERENCES `{r}`(`id`) "
                       "ON DELETE CASCADE ON UPDATE CASCADE;\n" for t, n, c, r in fks)
    (folder / "migration.sql").write_text(sql)
    return tmp_path


@pytest.mark.parametrize("relation_name", [None, "PostTags"])
def test_an_implicit_many_to_many_table_gets_prisma_advice_and_no_alter(tmp_path: Path, relation_name: str | None) -> None:
    report = lint(_relation_project(tmp_path, relation_name=relation_name))
    assert problems(report) == []
    (finding,) = rules(report, "no-primary-key")
    assert finding.table == (f"_{relation_name}" if relation_name else "_PostToTag")
    assert finding.fix is None and "Prisma's implicit many-to-many table for Post and Tag" in finding.message
    assert re.search(r"schema\.prisma:\d+", finding.message)
    assert rules(report, "link-table-primary-key") == []


@pytest.mark.parametrize("foreign_keys", [True, False])
def test_a_relation_model_with_its_own_id_is_a_link_table_even_without_foreign_keys(
        tmp_path: Path, foreign_keys: bool) -> None:
    report = lint(_relation_project(tmp_path, explicit=True, foreign_keys=foreign_keys))
    assert problems(report) == []
    (finding,) = rules(report, "link-table-primary-key")
    assert finding.table == "PostTag" and "@@id([postId, tagId])" in finding.message
    assert "schema.prisma:" in finding.message


# --- the schema scanner ---------------------------------------------------------------------------


def test_the_scanner_reads_comments_strings_multiline_attributes_and_block_ids() -> None:
    schema = parse(
        '// a model } in a comment\n'
        'model Membership {\n'
        '  orgId  String @map("org_id") // the org\n'
        '  userId String @map("user_id")\n'
        '  note   String @default("a } and an @id in a string")\n'
        '  role   Role   @default(MEMBER)\n'
        '  @@id(\n    [orgId, userId]\n  )\n'
        '  @@map("memberships")\n'
        '}\n'
        'enum Role {\n  MEMBER\n  ADMIN\n}\n')
    (model,) = schema.models
    assert model.table == "memberships"
    assert [f.column for f in model.id_fields()] == ["org_id", "user_id"]
    assert model.attribute("id").line == 7  # type: ignore[union-attr]
    assert "Role" in schema.enums and model.field("note").attribute("id") is None  # type: ignore[union-attr]


def test_implicit_self_relations_and_named_relations() -> None:
    schema = parse(
        'model User {\n  id Int @id\n  followers User[] @relation("Follows")\n  following User[] @relation("Follows")\n'
        '  groups Group[]\n}\nmodel Group {\n  id Int @id\n  members User[]\n}\n')
    tables = sorted(t for t, *_ in implicit_links(schema))
    assert tables == ["_Follows", "_GroupToUser"]


def test_the_scanner_is_linear() -> None:
    def parsing(n: int) -> Callable[[], object]:
        text = "".join(f'model M{i} {{\n  id String @id @default(uuid()) // "x\n  s String @default("}} @id")\n}}\n'
                       for i in range(n)) + "(" * n + '"' * n
        return lambda: parse(text)

    assert_linear(parsing, 300)
