"""Whole runs at n and 10n (tests/complexity.py): every rule runs inside them, so a rule whose cost
grows with the number of schemas, tables, files, ALTERs, findings or suppressions faster than the
input fails here, not in a user's 10,000-tenant audit. The inputs give most rules something to
say (each kind of table below has findings), so the rules' reporting paths are timed too."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from linter.engine import lint_paths
from tests.complexity import assert_linear

#: one tenant's tables: findings for no-primary-key, uuid-primary-key, link-table-primary-key,
#: redundant-index, wide-primary-key, auto-increment-capacity, foreign-key-mismatch,
#: zero-date-default, charset-portability, non-innodb-engine, compression-candidate, index-key-length
TENANT_TABLES = [
    "CREATE TABLE `events` (`created` datetime NOT NULL, `body` longtext, `doc` json) ENGINE=InnoDB;",
    "CREATE TABLE `sessions` (`id` char(36) NOT NULL, `data` text, PRIMARY KEY (`id`)) ENGINE=InnoDB;",
    "CREATE TABLE `users` (`id` int unsigned NOT NULL AUTO_INCREMENT, `email` varchar(255) NOT NULL,"
    " `paid_on` date NOT NULL DEFAULT '0000-00-00', PRIMARY KEY (`id`), KEY `e` (`email`), KEY `e2` (`email`))"
    " ENGINE=InnoDB AUTO_INCREMENT=4000000000 DEFAULT CHARSET=utf8;",
    "CREATE TABLE `groups` (`id` int NOT NULL AUTO_INCREMENT, `name` varchar(100), PRIMARY KEY (`id`))"
    " ENGINE=InnoDB;",
    "CREATE TABLE `user_groups` (`id` int NOT NULL AUTO_INCREMENT, `user_id` int NOT NULL, `group_id` int NOT NULL,"
    " PRIMARY KEY (`id`), UNIQUE KEY `pair` (`user_id`,`group_id`),"
    " CONSTRAINT `fk_u` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`),"
    " CONSTRAINT `fk_g` FOREIGN KEY (`group_id`) REFERENCES `groups` (`id`)) ENGINE=InnoDB;",
    "CREATE TABLE `codes` (`code` varchar(200) NOT NULL, `note` varchar(10), PRIMARY KEY (`code`),"
    " KEY `n` (`note`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;",
    "CREATE TABLE `cache` (`k` varchar(100) NOT NULL, `v` blob, PRIMARY KEY (`k`)) ENGINE=MyISAM;",
    "CREATE TABLE `docs` (`id` int NOT NULL, `title` varchar(1000) NOT NULL, PRIMARY KEY (`id`), KEY `t` (`title`))"
    " ENGINE=InnoDB ROW_FORMAT=COMPACT DEFAULT CHARSET=utf8mb4;",
]


def mysqldump_tenants(n: int) -> str:
    """A mysqldump of n tenant schemas (its blocks repeat: `linter.input.tenant_blocks`)."""
    out = ["/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;\n"]
    for t in range(n):
        out.append(f"\n--\n-- Current Database: `tenant_{t:05d}`\n--\n\nCREATE DATABASE /*!32312 IF NOT EXISTS*/ "
                   f"`tenant_{t:05d}` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;\n\nUSE `tenant_{t:05d}`;\n")
        for table in TENANT_TABLES:
            out.append(f"DROP TABLE IF EXISTS {table.split()[2]};\n{table}\n")
    return "".join(out)


def plain_tenants(n: int) -> str:
    """The same schemas written by hand: qualified names, no USE lines (each statement replayed)."""
    out = []
    for t in range(n):
        out.append(f"CREATE DATABASE shop_{t};\n")
        for table in TENANT_TABLES:
            out.append(table.replace("CREATE TABLE `", f"CREATE TABLE `shop_{t}`.`", 1)
                       .replace("REFERENCES `", f"REFERENCES `shop_{t}`.`") + "\n")
    return "".join(out)


def distinct_tables(n: int) -> str:
    """n tables of their own (names, widths and keys differ), each with findings."""
    out = []
    for i in range(n):
        out.append(f"CREATE TABLE t{i} (c{i} int, name_{i} varchar({20 + i % 300}), u{i} char(36) NOT NULL,"
                   f" created_{i} datetime DEFAULT '0000-00-00 00:00:00', payload_{i} json,"
                   f" KEY k{i} (name_{i}), KEY k{i}b (name_{i}), UNIQUE KEY uu{i} (u{i})) ENGINE=InnoDB;\n")
    return "".join(out)


def alters(n: int) -> str:
    out = ["CREATE TABLE big (id int NOT NULL AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB;\n"]
    for i in range(n):
        out.append(f"ALTER TABLE big ADD COLUMN c{i} varchar(20), ADD KEY k{i} (c{i}), ADD KEY k{i}_again (c{i});\n"
                   if i % 3 else f"ALTER TABLE big ADD COLUMN c{i} date NOT NULL DEFAULT '0000-00-00';\n")
    return "".join(out)


def guarded(n: int) -> str:
    """n tables, each given its keys by a procedure's guarded ALTER and a prepared statement built
    from information_schema (Conductor's and OTOBO's forms: `linter.server.procedures`)."""
    out = ["CREATE TABLE parent (id int PRIMARY KEY) ENGINE=InnoDB;\nDELIMITER //\n"
           "CREATE PROCEDURE add_pk(IN t VARCHAR(64)) BEGIN IF NOT EXISTS (SELECT 1 FROM information_schema.statistics "
           "WHERE table_schema = DATABASE() AND table_name = t AND index_name = 'PRIMARY') THEN "
           "SET @ddl = CONCAT('ALTER TABLE ', t, ' ADD PRIMARY KEY (id)'); PREPARE s FROM @ddl; EXECUTE s; "
           "DEALLOCATE PREPARE s; END IF; END //\nDELIMITER ;\n"]
    for i in range(n):
        out.append(f"CREATE TABLE g{i} (id int NOT NULL, p int, name varchar(20), KEY k{i} (name), KEY k{i}b (name));\n"
                   f"CALL add_pk('g{i}');\nCALL add_pk('g{i}');\n"
                   f"SET @s = (SELECT IF((SELECT COUNT(*) FROM information_schema.table_constraints WHERE "
                   f"table_schema = DATABASE() AND table_name = 'g{i}' AND constraint_name = 'fk_g{i}') > 0, 'SELECT 1', "
                   f"'ALTER TABLE g{i} ADD CONSTRAINT fk_g{i} FOREIGN KEY (p) REFERENCES parent (id)'));\n"
                   "PREPARE st FROM @s;\nEXECUTE st;\nDEALLOCATE PREPARE st;\n")
    return "".join(out)


def suppressed(n: int) -> str:
    """n tables, each with findings, each finding of one rule suppressed where it is."""
    return "".join(f"-- innolint: ignore[no-primary-key] legacy table {i}\nCREATE TABLE log{i} (at datetime,"
                   f" msg varchar(100), d date NOT NULL DEFAULT '0000-00-00');\n" for i in range(n))


def _run(tmp_path: Path, write: Callable[[int], str]) -> Callable[[int], Callable[[], object]]:
    def make(n: int) -> Callable[[], object]:
        path = tmp_path / f"input_{n}.sql"
        path.write_text(write(n), encoding="utf-8")
        return lambda: lint_paths([str(path)])

    return make


@pytest.mark.parametrize(("write", "n", "rules"), [
    (mysqldump_tenants, 100, 8), (plain_tenants, 10, 8), (distinct_tables, 50, 5), (alters, 200, 2), (suppressed, 100, 1),
    (guarded, 30, 1),
], ids=["mysqldump-tenants", "plain-tenants", "distinct-tables", "alters-of-one-table", "findings-and-suppressions",
        "guarded-changes"])
def test_a_whole_run_grows_linearly(tmp_path: Path, write: Callable[[int], str], n: int, rules: int) -> None:
    report = lint_paths([str(_file(tmp_path, write(n)))])
    found = sorted({f.rule for f in report.findings})
    assert len(found) >= rules, found  # the rules have something to say: their reporting is timed too
    if write is guarded:  # (the procedure gave every table its primary key, EXECUTE its foreign key)
        assert "no-primary-key" not in found and not report.diagnostics, report.diagnostics
    if write is suppressed:
        assert "no-primary-key" not in found and not [d for d in report.diagnostics if d.rule == "unused-suppression"]
    assert_linear(_run(tmp_path, write), n, what=write.__name__)


def test_migration_files_grow_linearly(tmp_path: Path) -> None:
    """A Flyway directory of n and 10n migrations (each creates a table and alters an earlier one)."""
    def make(n: int) -> Callable[[], object]:
        directory = tmp_path / f"db{n}" / "migration"
        directory.mkdir(parents=True)
        for i in range(1, n + 1):
            alter = f"ALTER TABLE t{i - 1} ADD COLUMN later int;\n" if i > 1 else ""
            (directory / f"V{i}__t{i}.sql").write_text(
                f"CREATE TABLE t{i} (id int, v varchar(20), created datetime DEFAULT '0000-00-00 00:00:00');\n{alter}",
                encoding="utf-8")
        return lambda: lint_paths([str(directory)])

    assert_linear(make, 20, what="migration files")


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "probe.sql"
    path.write_text(text, encoding="utf-8")
    return path
