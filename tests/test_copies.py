"""Judging a definition once (`linter.rules.copies`) says what judging every copy would: generated
schema-per-tenant dumps with drift (an upgraded tenant's extra table and foreign key, a copy an
ALTER changes, a copy a comment suppresses, a tenant with another default character set, a table
with statistics of its own), linted as the engine does and with every table judged alone (the
reference: each copy's findings, folded by grouping afterwards), must give the same report."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from linter.config.settings import ConfigResolver
from linter.engine import RunOptions, lint_paths
from linter.rules import copies
from linter.rules.checkapi import CheckContext, TableStats
from linter.rules.findings import Report

#: tables with something for most rules to say, each a format string of the tenant's values
TABLES = [
    "CREATE TABLE `events` (`created` DATETIME NOT NULL, `body` TEXT, `paid_on` DATE NOT NULL DEFAULT '0000-00-00')"
    " ENGINE=InnoDB;",
    "CREATE TABLE `customer` (`id` CHAR(36) NOT NULL, `email` VARCHAR(255) NOT NULL, `doc` JSON,"
    " PRIMARY KEY (`id`), KEY `e` (`email`), KEY `e2` (`email`)) ENGINE=InnoDB{ai};",
    "CREATE TABLE `orders` (`id` BIGINT NOT NULL AUTO_INCREMENT, `customer_id` CHAR(36) NOT NULL,"
    " PRIMARY KEY (`id`), KEY `by_customer` (`customer_id`),"
    " CONSTRAINT `fk_c` FOREIGN KEY (`customer_id`) REFERENCES `customer` (`id`)) ENGINE=InnoDB{ai};",
    "CREATE TABLE `user_groups` (`id` INT NOT NULL AUTO_INCREMENT, `user_id` INT NOT NULL, `group_id` INT NOT NULL,"
    " PRIMARY KEY (`id`), UNIQUE KEY `pair` (`user_id`, `group_id`)) ENGINE=InnoDB{ai};",
    "CREATE TABLE `users` (`id` INT NOT NULL AUTO_INCREMENT, `name` VARCHAR(100), PRIMARY KEY (`id`))"
    " ENGINE=MyISAM DEFAULT CHARSET=utf8{ai};",
    "CREATE TABLE `groups` (`id` INT NOT NULL, `title` VARCHAR(3000) NOT NULL, PRIMARY KEY (`id`),"
    " KEY `t` (`title`)) ENGINE=InnoDB DEFAULT CHARSET=latin1;",
]
#: an upgraded tenant's extra table: another foreign key to customer, a reference to orders
EXTRA = ("CREATE TABLE `refunds` (`id` INT NOT NULL AUTO_INCREMENT, `order_id` BIGINT NOT NULL,"
         " `customer_id` CHAR(36) NOT NULL, PRIMARY KEY (`id`), KEY (`customer_id`),"
         " CONSTRAINT `fk_r` FOREIGN KEY (`customer_id`) REFERENCES `customer` (`id`)) ENGINE=InnoDB;")


def tenant_dump(seed: int) -> tuple[str, dict[str, TableStats]]:
    """A dump of 4-12 tenants with seeded drift, and stats for one table of one tenant."""
    rng = random.Random(seed)
    tenants = rng.randint(4, 12)
    lines: list[str] = []
    stats: dict[str, TableStats] = {}
    for n in range(tenants):
        name = rng.choice(["tenant_{:03d}", "shop{}", "Cust_{}_db"]).format(n)
        charset = " DEFAULT CHARACTER SET latin1" if rng.random() < 0.15 else ""
        lines += [f"CREATE DATABASE `{name}`{charset};", f"USE `{name}`;"]
        order = list(TABLES)
        if rng.random() < 0.3:
            order.append(EXTRA)
        for table in order:
            ai = f" AUTO_INCREMENT={rng.randint(1, 10**6)}" if rng.random() < 0.6 else ""
            if rng.random() < 0.1:
                lines.append("-- innolint: ignore[zero-date-default,redundant-index,uuid-primary-key] kept on purpose")
            lines.append(table.format(ai=ai))
        if rng.random() < 0.2:
            lines.append("ALTER TABLE `orders` ADD KEY `by_customer2` (`customer_id`);")
        if rng.random() < 0.15:
            stats[f"{name}.customer".lower()] = TableStats(rows=10**7, data_length=5 << 30, count_insert=10**6)
    return "\n".join(lines) + "\n", stats


def _report(path: Path, stats: dict[str, TableStats]) -> dict[str, object]:
    context = CheckContext(stats=stats, stats_source="file")
    report: Report = lint_paths([str(path)], context, options=RunOptions(ConfigResolver(search=False)))
    found = report.to_json()
    found["stats"].pop("seconds")  # type: ignore[attr-defined]
    found["findings"].sort(key=json.dumps)  # type: ignore[attr-defined]
    return found


def _every_table_alone(model: object, context: object) -> object:
    """The reference: every table its own definition, judged alone (grouping folds the copies)."""
    definitions, rank = copies._group(model, context)  # type: ignore[arg-type]
    alone = [copies.Definition([copies.Part([table])], False) for d in definitions for part in d.parts
             for table in part.tables]
    return alone, rank


@pytest.mark.parametrize("seed", range(12))
def test_judged_once_says_what_judging_every_copy_says(tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text, stats = tenant_dump(seed)
    path = tmp_path / "tenants.sql"
    path.write_text(text, encoding="utf-8")
    once = _report(path, stats)
    monkeypatch.setattr(copies, "decided_once", _every_table_alone)
    reference = _report(path, stats)
    assert once == reference
    grouped = [f for f in once["findings"] if f["count"] > 1]  # type: ignore[index, union-attr]
    assert grouped, "the dump has copies with findings: the test compares nothing otherwise"
