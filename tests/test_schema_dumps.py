"""Framework schema dumps: Rails' db/structure.sql and Laravel's database/schema/mysql-schema.sql are
found by a directory walk and linted as the mysqldump output they are; a dump beside later
migrations that records which migrations it holds (Laravel's squash) is replayed first, and the
migrations it records are left out. Laravel's model classes are read as evidence of how ids are
made (HasUuids: time-ordered)."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.rules.checkapi import CheckContext
from linter.engine import lint_paths
from linter.rules.findings import Report
from linter.input.migrations.laravel_models import default_table, read_model
from linter.input.migrations.history import order, plan, recorded_migrations
from linter.schema.target import Target

PROBLEMS = ("parse-error", "replay-error", "io-error")

_HEAD = """/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!50503 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;
"""
_TAIL = """/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;
/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;
/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;
/*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;
/*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;
/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;
"""


def _table(name: str, body: str, collation: str = "utf8mb4_unicode_ci") -> str:
    return (f"DROP TABLE IF EXISTS `{name}`;\n/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"
            f"/*!50503 SET character_set_client = utf8mb4 */;\nCREATE TABLE `{name}` (\n{body}\n) ENGINE=InnoDB "
            f"DEFAULT CHARSET=utf8mb4 COLLATE={collation};\n/*!40101 SET character_set_client = @saved_cs_client */;\n")


USERS = ("  `id` bigint unsigned NOT NULL AUTO_INCREMENT,\n  `name` varchar(255) NOT NULL,\n"
         "  `email` varchar(255) NOT NULL,\n  `created_at` timestamp NULL DEFAULT NULL,\n"
         "  `updated_at` timestamp NULL DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `users_email_unique` (`email`)")
FAILED_JOBS = ("  `id` bigint unsigned NOT NULL AUTO_INCREMENT,\n  `uuid` varchar(255) NOT NULL,\n"
               "  `payload` longtext NOT NULL,\n  `failed_at` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,\n"
               "  PRIMARY KEY (`id`),\n  UNIQUE KEY `failed_jobs_uuid_unique` (`uuid`)")
ORDERS = ("  `id` char(36) NOT NULL,\n  `user_id` bigint unsigned NOT NULL,\n  `total` decimal(10,2) NOT NULL,\n"
          "  `created_at` timestamp NULL DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  KEY `orders_user_id_foreign` (`user_id`),\n"
          "  CONSTRAINT `orders_user_id_foreign` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`)")
EVENTS = ("  `id` char(36) NOT NULL,\n  `kind` varchar(40) NOT NULL,\n  `created_at` timestamp NULL DEFAULT NULL,\n"
          "  PRIMARY KEY (`id`)")


def laravel_dump(recorded: list[str], tables: dict[str, str] | None = None) -> str:
    tables = tables or {"failed_jobs": FAILED_JOBS, "users": USERS}
    migrations = ("  `id` int unsigned NOT NULL AUTO_INCREMENT,\n  `migration` varchar(255) NOT NULL,\n"
                  "  `batch` int NOT NULL,\n  PRIMARY KEY (`id`)")
    body = _HEAD + "".join(_table(n, b) for n, b in sorted({**tables, "migrations": migrations}.items())) + _TAIL
    rows = "".join(f"INSERT INTO `migrations` VALUES ({n},'{name}',1);\n" for n, name in enumerate(recorded, start=1))
    return body + rows


def rails_structure(versions: list[str]) -> str:
    meta = ("  `key` varchar(255) NOT NULL,\n  `value` varchar(255) DEFAULT NULL,\n  `created_at` datetime(6) NOT NULL,\n"
            "  `updated_at` datetime(6) NOT NULL,\n  PRIMARY KEY (`key`)")
    schema = "  `version` varchar(255) NOT NULL,\n  PRIMARY KEY (`version`)"
    users = USERS.replace("timestamp NULL DEFAULT NULL", "datetime(6) NOT NULL")
    body = _HEAD + "".join(_table(n, b, "utf8mb4_0900_ai_ci") for n, b in
                           (("ar_internal_metadata", meta), ("schema_migrations", schema), ("users", users))) + _TAIL
    return body + "\nINSERT INTO `schema_migrations` (version) VALUES\n" + ",\n".join(f"('{v}')" for v in versions) + ";\n\n\n"


def lint(*paths: Path, target: str = "mysql-8.0") -> Report:
    return lint_paths([str(p) for p in paths], CheckContext(target=Target.parse(target)))


def problems(report: Report) -> list[str]:
    return [f"{d.path}:{d.line}: {d.rule}: {d.message}" for d in report.diagnostics if d.rule in PROBLEMS]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- dumps found and linted -------------------------------------------------------------------------


def test_rails_structure_sql_is_found_and_linted_as_a_dump(tmp_path: Path) -> None:
    write(tmp_path / "db" / "structure.sql", rails_structure(["20240101000000", "20240301000000"]))
    write(tmp_path / "db" / "migrate" / "20240101000000_create_users.rb", "class CreateUsers < ActiveRecord::Migration[7.1]\nend\n")
    write(tmp_path / "app" / "models" / "user.rb", "class User < ApplicationRecord\nend\n")
    report = lint(tmp_path)
    assert problems(report) == [] and report.stats.files == 1 and report.stats.tables == 3


@pytest.mark.parametrize("name", ["mysql-schema.sql", "mariadb-schema.sql", "mysql-schema.dump"])
def test_laravel_schema_dump_is_found_and_linted_as_a_dump(tmp_path: Path, name: str) -> None:
    write(tmp_path / "database" / "schema" / name, laravel_dump(["2014_10_12_000000_create_users_table"]))
    write(tmp_path / "database" / "migrations" / "2014_10_12_000000_create_users_table.php", "<?php\n")
    report = lint(tmp_path)
    assert problems(report) == [] and report.stats.files == 1 and report.stats.tables == 3


# --- a dump as a history's baseline -------------------------------------------------------------------


@pytest.mark.parametrize("pruned", [False, True])
@pytest.mark.parametrize("name", ["mysql-schema.sql", "mariadb-schema.sql"])
def test_a_laravel_squash_replays_the_dump_first_and_skips_what_it_records(tmp_path: Path, pruned: bool,
                                                                          name: str) -> None:
    recorded = ["2014_10_12_000000_create_users_table", "2019_08_19_000000_create_failed_jobs_table"]
    dump = write(tmp_path / "database" / "schema" / name, laravel_dump(recorded))
    migrations = tmp_path / "database" / "migrations"
    if not pruned:  # `schema:dump` without --prune keeps the migrations the dump holds
        write(migrations / f"{recorded[0]}.sql", "CREATE TABLE users (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY);\n")
        write(migrations / f"{recorded[1]}.sql", "CREATE TABLE failed_jobs (id BIGINT UNSIGNED NOT NULL PRIMARY KEY);\n")
    later = [write(migrations / "2024_05_01_120000_add_phone_to_users.sql",
                   "ALTER TABLE `users` ADD COLUMN `phone` varchar(32) NULL AFTER `email`;\n"),
             write(migrations / "2024_05_02_093000_create_orders_table.sql",
                   f"CREATE TABLE `orders` (\n{ORDERS}\n) ENGINE=InnoDB;\nCREATE INDEX `orders_created_at_index` ON `orders` (`created_at`);\n")]
    report = lint(tmp_path)
    assert problems(report) == [], problems(report)
    files = sorted(str(p) for p in tmp_path.rglob("*.sql"))
    (group,) = plan(files)
    assert group.files == [str(dump), *map(str, later)]
    assert group.history is not None and group.history.baseline == str(dump)
    assert sorted(p for p, _ in group.history.ignored) == ([] if pruned else sorted(str(migrations / f"{r}.sql") for r in recorded))


def test_a_rails_style_dump_in_the_migrations_directory_goes_first(tmp_path: Path) -> None:
    versions = ["20240101000000", "20240301000000"]
    dump = write(tmp_path / "sql" / "schema.sql", rails_structure(versions))
    write(tmp_path / "sql" / "20240101000000_create_users.sql", "CREATE TABLE users (id BIGINT PRIMARY KEY);\n")
    write(tmp_path / "sql" / "20240301000000_add_x.sql", "ALTER TABLE users ADD COLUMN x INT;\n")
    late = write(tmp_path / "sql" / "20240401000000_add_y.sql", "ALTER TABLE users ADD COLUMN y INT;\n")
    assert recorded_migrations(str(dump)) == set(versions)
    report = lint(tmp_path)
    assert problems(report) == []
    history, others = order(str(tmp_path / "sql"), [str(p) for p in (tmp_path / "sql").iterdir()])
    assert history is not None and history.files == [str(dump), str(late)] and others == []


def test_a_schema_file_that_records_nothing_stays_its_own_unit(tmp_path: Path) -> None:
    write(tmp_path / "db" / "schema.sql", "CREATE TABLE unrelated (id INT PRIMARY KEY);\n")
    write(tmp_path / "db" / "001_init.sql", "CREATE TABLE a (id INT PRIMARY KEY);\n")
    write(tmp_path / "db" / "002_more.sql", "ALTER TABLE a ADD COLUMN b INT;\n")
    groups = plan(sorted(str(p) for p in (tmp_path / "db").iterdir()))
    assert sorted(len(g.files) for g in groups) == [1, 2]


# --- Laravel's models as evidence -----------------------------------------------------------------------

ORDER_MODEL = """<?php

namespace App\\Models;

use Illuminate\\Database\\Eloquent\\Concerns\\{trait_import};
use Illuminate\\Database\\Eloquent\\Factories\\HasFactory;
use Illuminate\\Database\\Eloquent\\Model;

class {name} extends Model
{{
    use HasFactory, {trait};
{body}
}}
"""


def _laravel_project(tmp_path: Path, models: dict[str, str]) -> Report:
    write(tmp_path / "database" / "schema" / "mysql-schema.sql",
          laravel_dump(["2014_10_12_000000_create_users_table"], {"users": USERS, "orders": ORDERS, "events": EVENTS}))
    for name, text in models.items():
        write(tmp_path / "app" / "Models" / f"{name}.php", text)
    return lint(tmp_path)


def _uuid_findings(report: Report) -> dict[str, str]:
    return {f.table: f.message for f in report.findings if f.rule == "uuid-primary-key"}  # type: ignore[misc]


@pytest.mark.parametrize("trait", ["HasUuids", "HasVersion4Uuids", "HasUlids"])
def test_laravel_ordered_id_traits_clear_a_char_36_key(tmp_path: Path, trait: str) -> None:
    model = ORDER_MODEL.format(trait_import=trait, name="Order", trait=trait, body="")
    assert "orders" not in _uuid_findings(_laravel_project(tmp_path, {"Order": model}))


def test_without_models_a_char_36_key_is_judged_by_the_ddl(tmp_path: Path) -> None:
    assert set(_uuid_findings(_laravel_project(tmp_path, {}))) == {"orders", "events"}


def test_a_model_that_makes_random_uuids_is_named_in_the_finding(tmp_path: Path) -> None:
    body = ("    protected $table = 'events';\n\n    public function newUniqueId(): string\n    {\n"
            "        return (string) Str::uuid();\n    }")
    model = ORDER_MODEL.format(trait_import="HasUuids", name="AuditEvent", trait="HasUuids", body=body)
    found = _uuid_findings(_laravel_project(tmp_path, {"AuditEvent": model}))
    assert "AuditEvent.php:14 (laravel model AuditEvent) `newUniqueId() returning Str::uuid()`: random UUIDv4" in found["events"]


def test_an_application_trait_of_the_same_name_is_not_laravels(tmp_path: Path) -> None:
    model = ORDER_MODEL.format(trait_import="HasUuids", name="Order", trait="HasUuids", body="").replace(
        "Illuminate\\Database\\Eloquent\\Concerns\\HasUuids", "App\\Concerns\\HasUuids")
    assert "orders" in _uuid_findings(_laravel_project(tmp_path, {"Order": model}))


def test_model_reading_names_and_tables() -> None:
    key = read_model(ORDER_MODEL.format(trait_import="HasUlids", name="OrderLine", trait="HasUlids",
                                        body="    // use HasUuids;\n    protected $primaryKey = 'line_id';"))
    assert key is not None and (key.trait, key.key, key.ordered, key.line) == ("HasUlids", "line_id", True, 11)
    assert read_model("<?php\nclass NotAModel extends Controller {}\n") is None
    assert [default_table(n) for n in ("Order", "OrderLine", "Category", "Person", "Status", "Box")] == [
        "orders", "order_lines", "categories", "people", "statuses", "boxes"]


@pytest.mark.parametrize("quoted", [True, False])
def test_a_recorded_migration_whose_table_the_dump_lacks_is_reported(tmp_path: Path, quoted: bool) -> None:
    """A migration the dump records as run is left out (the framework skips it when it loads the
    dump); one whose table the dump does not hold is a record a pull request can add to switch
    the migration's findings off: it is said at its CREATE TABLE, not skipped silently."""
    recorded = ["2014_10_12_000000_create_users_table", "2024_06_01_000000_create_audit_table"]
    write(tmp_path / "database" / "schema" / "mysql-schema.sql", laravel_dump(recorded))
    migrations = tmp_path / "database" / "migrations"
    write(migrations / f"{recorded[0]}.sql", "CREATE TABLE users (id BIGINT UNSIGNED NOT NULL PRIMARY KEY);\n")
    name = "`app`.`audit_log`" if quoted else "audit_log"
    write(migrations / f"{recorded[1]}.sql", f"-- the audit trail\n\nCREATE TABLE IF NOT EXISTS {name} (note TEXT);\n")
    report = lint(tmp_path)
    [note] = [d for d in report.diagnostics if "records this migration as run" in d.message]
    assert (Path(note.path).name, note.line, note.severity) == (f"{recorded[1]}.sql", 3, "warning")
    assert "no table audit_log" in note.message
    # the users migration, whose table the dump holds, is left out without a word
    assert not [d for d in report.diagnostics if Path(d.path).name == f"{recorded[0]}.sql"]
