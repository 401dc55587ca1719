"""A dump's repeated schema blocks replayed once (`linter.input.tenant_blocks`,
`linter.input.splitter.repeats`, `linter.server.block_replay`) give the report that reading every
statement gives: generated dumps with the blocks a real or hostile dump may hold (names inside
table names and comments, counters missing or in comments, DELIMITER and sql_mode changes inside
a block, a database named twice, ALTERs, view stand-ins, foreign keys to another schema,
suppressions), read in chunks of several sizes, compared with the same run with every repeat
refused (each block read statement by statement)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from linter.engine import lint_paths
from linter.input import source
from linter.rules.checkapi import CheckContext
from linter.server import block_replay
from linter.schema.target import Target
from tests.complexity import assert_linear

HEADER = ("-- MySQL dump 10.13\n/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n"
          "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;\n"
          "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;\n")

TABLES = [
    ("users", "CREATE TABLE `users` (\n  `id` int unsigned NOT NULL AUTO_INCREMENT,\n  `email` varchar(255) NOT NULL,\n"
              "  `created` datetime NOT NULL DEFAULT '0000-00-00 00:00:00',\n  PRIMARY KEY (`id`),\n"
              "  KEY `e` (`email`), KEY `e2` (`email`)\n) ENGINE=InnoDB{ai} DEFAULT CHARSET=utf8mb4;"),
    ("user_groups", "CREATE TABLE `user_groups` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `user_id` int unsigned NOT NULL,\n"
                    "  `group_id` int NOT NULL,\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `pair` (`user_id`,`group_id`),\n"
                    "  CONSTRAINT `fk_u` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`)\n) ENGINE=InnoDB{ai};"),
    ("log", "CREATE TABLE `log` (\n  `at` datetime NOT NULL,\n  `body` longtext COMMENT 'AUTO_INCREMENT=5 in a comment',\n"
            "  `doc` json DEFAULT NULL\n) ENGINE=MyISAM DEFAULT CHARSET=utf8;"),
    ("groups", "CREATE TABLE `groups` (\n  `id` int NOT NULL,\n  `title` varchar(3000) NOT NULL,\n  PRIMARY KEY (`id`),\n"
               "  KEY `t` (`title`)\n) ENGINE=InnoDB DEFAULT CHARSET=latin1{ai};"),
]

#: things a block may hold besides its tables, each making the block unlike a plain one
ODDITIES = {
    "comment naming the schema": "CREATE TABLE `about` (`id` int PRIMARY KEY) COMMENT 'the {name} shop';",
    "qualified foreign key": "CREATE TABLE `refs` (`id` int PRIMARY KEY, `u` int unsigned,"
                             " FOREIGN KEY (`u`) REFERENCES `shared`.`users` (`id`));",
    "alter": "ALTER TABLE `users` ADD COLUMN `n` int;",
    "drop": "DROP TABLE `log`;",
    "delimiter": "DELIMITER ;;\nCREATE PROCEDURE p() BEGIN SELECT 1; END ;;\nDELIMITER ;",
    "sql_mode": "/*!40101 SET SQL_MODE='ANSI_QUOTES' */;\nCREATE TABLE \"quoted\" (\"id\" int PRIMARY KEY);\n"
                "/*!40101 SET SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;",
    "view stand-in": "/*!50001 CREATE TABLE `v` (`id` tinyint NOT NULL) ENGINE=MyISAM */;",
    "suppression": "-- innolint: ignore[no-primary-key] kept\nCREATE TABLE `nokey` (`a` int);",
    "temporary": "CREATE TEMPORARY TABLE `tmp` (`a` int);",
    "insert": "INSERT INTO `users` VALUES (1,'a@b','2020-01-01 00:00:00');",
}


def tenant_dump(seed: int, tenants: int) -> str:
    rng = random.Random(seed)
    names = rng.choice([["tenant_{:05d}"], ["wp{}"], ["users"], ["Shop{}db", "shop{}db"], ["t{}", "t{}0"]])
    out = [HEADER]
    seen: list[str] = []
    for n in range(tenants):
        name = rng.choice(names).format(n) if "{" in names[0] else names[0] + (str(n) if n else "")
        if seen and rng.random() < 0.05:
            name = rng.choice(seen)  # a database named again: its block is no new tenant
        seen.append(name)
        out.append(f"\n--\n-- Current Database: `{name}`\n--\n\n")
        if rng.random() < 0.95:
            out.append(f"CREATE DATABASE /*!32312 IF NOT EXISTS*/ `{name}` /*!40100 DEFAULT CHARACTER SET "
                       f"{'latin1' if rng.random() < 0.1 else 'utf8mb4'} */;\n\n")
        out.append(f"USE `{name}`;\n")
        for table, text in TABLES:
            ai = f" AUTO_INCREMENT={rng.randint(1, 5 * 10**9)}" if rng.random() < 0.7 else ""
            out.append(f"\n--\n-- Table structure for table `{table}`\n--\n\nDROP TABLE IF EXISTS `{table}`;\n"
                       "/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"
                       f"{text.format(ai=ai)}\n/*!40101 SET character_set_client = @saved_cs_client */;\n"
                       f"\nLOCK TABLES `{table}` WRITE;\nUNLOCK TABLES;\n")
        if rng.random() < 0.15:
            out.append(rng.choice(list(ODDITIES.values())).format(name=name) + "\n")
    out.append("/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;\n-- Dump completed\n")
    return "".join(out)


def _report(path: Path, target: str) -> dict[str, object]:
    report = lint_paths([str(path)], CheckContext(target=Target.parse(target))).to_json()
    report["stats"].pop("seconds")  # type: ignore[attr-defined]
    return report


def _read_in(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    chunks = source.iter_chunks
    monkeypatch.setattr(source, "iter_chunks", lambda path, chunk_size=size, on_read=None: chunks(path, size, on_read))


@pytest.mark.parametrize("seed", range(10))
def test_a_repeated_block_replays_as_its_statements_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          seed: int) -> None:
    path = tmp_path / "dump.sql"
    path.write_text(tenant_dump(seed, 30), encoding="utf-8")
    target = ["mysql-8.0", "mariadb-10.11"][seed % 2]
    repeats = []
    replay = block_replay.Templates.repeat

    def counted(self: block_replay.Templates, mark: object) -> object:
        repeats.append(mark)
        return replay(self, mark)  # type: ignore[arg-type]

    monkeypatch.setattr(block_replay.Templates, "repeat", counted)
    _read_in(monkeypatch, [7, 333, 1 << 20][seed % 3])
    once = _report(path, target)
    assert repeats, "the dump has repeated blocks: else this compares nothing"
    monkeypatch.setattr(block_replay.Templates, "accepts", lambda self, block: False)
    every = _report(path, target)
    assert once == every


@pytest.mark.parametrize("oddity", sorted(ODDITIES))
def test_each_kind_of_odd_block_replays_as_its_statements_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                oddity: str) -> None:
    """Every tenant's block holds the oddity (a template of its own kind, recorded or refused)."""
    text = tenant_dump(5, 12).replace("UNLOCK TABLES;\n\n--\n-- Current Database",
                                      "UNLOCK TABLES;\n" + ODDITIES[oddity].format(name="tenant") + "\n\n--\n-- Current Database")
    path = tmp_path / "dump.sql"
    path.write_text(text, encoding="utf-8")
    once = _report(path, "mariadb-10.11")
    monkeypatch.setattr(block_replay.Templates, "accepts", lambda self, block: False)
    assert once == _report(path, "mariadb-10.11")


@pytest.mark.parametrize("value", ["'ANSI_QUOTES'", "'ANSI'", "CONCAT('ANSI', '_QUOTES')"])
def test_a_variable_a_block_gives_sql_mode_is_part_of_the_state_it_is_read_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """A block that sets sql_mode from a user variable another block changed reads as the variable
    says, as when every block is read statement by statement (under ANSI_QUOTES `"q"` names a
    table; without, it is a string and the CREATE TABLE a syntax error)."""

    def block(name: str, before: str = "") -> str:
        return (f"\n--\n-- Current Database: `{name}`\n--\n\nCREATE DATABASE `{name}`;\n\nUSE `{name}`;\n{before}"
                "CREATE TABLE `t` (`id` int PRIMARY KEY);\nSET sql_mode = @m;\n"
                "CREATE TABLE \"q\" (\"id\" int PRIMARY KEY);\nSET sql_mode = 'NO_AUTO_VALUE_ON_ZERO';\n")

    text = HEADER + "SET @m = '';\n" + block("a1") + block("a2") + block("a3", f"SET @m = {value};\n") + block("a4")
    path = tmp_path / "dump.sql"
    path.write_text(text + block("a5"), encoding="utf-8")
    once = _report(path, "mysql-8.0")
    monkeypatch.setattr(block_replay.Templates, "accepts", lambda self, block: False)
    every = _report(path, "mysql-8.0")
    assert once == every
    assert once["stats"]["tables"] == 8  # type: ignore[index]  # (`t` in each, `q` in the last three)


def test_blocks_cost_what_the_dump_is_long(tmp_path: Path) -> None:
    """n and 10n tenants: linear (the templates are few; each repeat costs its own length)."""
    paths = {}
    for n in (20, 200):
        paths[n] = tmp_path / f"d{n}.sql"
        paths[n].write_text(tenant_dump(3, n), encoding="utf-8")

    def make(size: int) -> object:
        path = paths[20 * size]
        return lambda: lint_paths([str(path)])

    assert_linear(make, 1, what="tenant blocks")  # type: ignore[arg-type]
