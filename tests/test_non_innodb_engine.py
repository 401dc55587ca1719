"""non-innodb-engine: which tables it flags, and its fix run on the test MariaDB: the plain
ALTER TABLE ... ENGINE=InnoDB fails or changes the table exactly where the finding says it
would, the fix (with what InnoDB needs besides) loads, and the table lints clean as InnoDB."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.rules.findings import Finding
from tests.ddl_outcome import TableDDL, run
from tests.helpers import lint_sql
from tests.mariadb import MariaDB

RULE = "non-innodb-engine"
TARGET = "mariadb-10.11"
INNODB_NEIGHBOUR = "CREATE TABLE orders (id INT PRIMARY KEY) ENGINE=InnoDB"
DDL_RULES = ("row-size-limit", "index-key-length", RULE)


def lint(sql: str, tmp_path: Path, target: str = TARGET, rules: tuple[str, ...] = (RULE,)) -> list[Finding]:
    report = lint_sql(sql + ";\n", tmp_path, target=target)
    return [f for f in report.findings if f.rule in rules]


def test_which_tables(tmp_path: Path) -> None:
    sql = "\n".join([
        "CREATE DATABASE app; USE app;",
        "CREATE TABLE orders (id INT PRIMARY KEY);",  # no ENGINE: InnoDB
        "CREATE TABLE log (id INT PRIMARY KEY) ENGINE=MyISAM;",
        "CREATE TABLE cache (k INT PRIMARY KEY) ENGINE=MEMORY;",
        "CREATE TABLE hist (id INT PRIMARY KEY) ENGINE=Aria;",
        "CREATE TABLE arch (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY) ENGINE=ARCHIVE;",
        "CREATE TABLE later (id INT PRIMARY KEY); ALTER TABLE later ENGINE=MyISAM;",
        "CREATE TEMPORARY TABLE scratch (id INT) ENGINE=MEMORY;",  # a session's scratch table
        "/*!50001 CREATE TABLE v (id INT) ENGINE=MyISAM */;",  # a view stand-in, replaced below
        "/*!50001 DROP TABLE IF EXISTS v*/;", "/*!50001 CREATE VIEW v AS SELECT 1 AS id */;",  # as mysqldump writes them
        "CREATE TABLE ndb (id INT PRIMARY KEY) ENGINE=ROCKSDB;",  # transactional
        "CREATE DATABASE legacy; USE legacy;",  # no InnoDB table at all: a MyISAM application
        "CREATE TABLE a (id INT PRIMARY KEY) ENGINE=MyISAM; CREATE TABLE b (id INT PRIMARY KEY) ENGINE=MyISAM;",
        "CREATE DATABASE mysql; USE mysql;",  # the server's own
        "CREATE TABLE user2 (id INT PRIMARY KEY) ENGINE=InnoDB; CREATE TABLE general_log2 (id INT) ENGINE=CSV;",
    ])
    found = lint(sql, tmp_path)
    assert sorted((f.table, f.severity, f.subject) for f in found) == [
        ("arch", "info", "engine:ARCHIVE"), ("cache", "info", "engine:MEMORY"), ("hist", "info", "engine:Aria"),
        ("later", "info", "engine:MyISAM"), ("log", "info", "engine:MyISAM")]  # 5 of 8 tables: info
    later = next(f for f in found if f.table == "later")
    assert later.line == 7  # the ALTER that made it MyISAM is on the CREATE's line here


def test_a_lone_table_among_innodb_ones_is_a_warning(tmp_path: Path) -> None:
    sql = "\n".join(f"CREATE TABLE t{n} (id INT PRIMARY KEY);" for n in range(5)) + "\nCREATE TABLE m (id INT) ENGINE=MyISAM"
    found = lint(sql, tmp_path)
    assert [(f.table, f.severity) for f in found] == [("m", "warning")]
    assert "no PRIMARY KEY" in found[0].message


def test_foreign_keys_are_dropped_by_myisam(server: MariaDB, tmp_path: Path) -> None:
    sql = (INNODB_NEIGHBOUR + ";\nCREATE TABLE order_log (id INT PRIMARY KEY, order_id INT NOT NULL, "
           "FOREIGN KEY (order_id) REFERENCES orders (id)) ENGINE=MyISAM")
    found = lint(sql, tmp_path)
    assert "FOREIGN KEY clause was dropped by MyISAM" in found[0].message
    made = run(server, "ne_fk", sql.split(";\n"), table="order_log")
    assert made.ok and "FOREIGN KEY" not in made.tables["order_log"]  # as the finding says
    fixed = run(server, "ne_fk", [*sql.split(";\n"), found[0].fix or ""], table="order_log")
    assert fixed.ok and "ENGINE=InnoDB" in fixed.tables["order_log"]


# (definition, options, what a plain ENGINE=InnoDB does on MariaDB, a piece the fix must have)
CONVERSIONS = [
    # ROW_FORMAT=FIXED (MyISAM) and PAGE (Aria): errno 140 "Wrong create options"
    ({"id": "INT NOT NULL", "b": "VARCHAR(10)"}, {"PRIMARY": "PRIMARY KEY (`id`)"}, "ENGINE=MyISAM ROW_FORMAT=FIXED",
     1005, "ROW_FORMAT=DYNAMIC"),
    ({"id": "INT NOT NULL"}, {"PRIMARY": "PRIMARY KEY (`id`)"}, "ENGINE=Aria ROW_FORMAT=PAGE", 1005, "ROW_FORMAT=DYNAMIC"),
    # MyISAM's AUTO_INCREMENT as the second key part: ERROR 1075
    ({"grp": "INT NOT NULL", "id": "INT NOT NULL AUTO_INCREMENT"}, {"PRIMARY": "PRIMARY KEY (`grp`, `id`)"},
     "ENGINE=MyISAM", 1075, "ADD KEY `id` (`id`)"),
    # a 1,000-byte MyISAM key in a COMPACT table: InnoDB's 767-byte key part (ERROR 1709)
    ({"id": "INT NOT NULL", "u": "VARCHAR(250)"}, {"PRIMARY": "PRIMARY KEY (`id`)", "u": "UNIQUE KEY `u` (`u`)"},
     "ENGINE=MyISAM DEFAULT CHARSET=utf8mb4 ROW_FORMAT=COMPACT", 1709, "ROW_FORMAT=DYNAMIC"),
    # a 10,200-byte MyISAM row: over InnoDB's 8,126-byte record (ERROR 1118)
    ({"id": "INT NOT NULL", **{f"c{i}": "CHAR(255)" for i in range(40)}}, {"PRIMARY": "PRIMARY KEY (`id`)"},
     "ENGINE=MyISAM DEFAULT CHARSET=latin1", 1118, "MODIFY COLUMN `c0` TEXT"),
    # MEMORY's fixed-length rows: a row of VARCHARs MEMORY takes, InnoDB does not
    ({"id": "INT NOT NULL", **{f"v{i}": "VARCHAR(200)" for i in range(45)}}, {"PRIMARY": "PRIMARY KEY (`id`)"},
     "ENGINE=MEMORY DEFAULT CHARSET=latin1", 1118, "TEXT"),
]


@pytest.mark.parametrize(("columns", "keys", "options", "refusal", "needed"), CONVERSIONS)
def test_the_fix_adds_what_innodb_needs(server: MariaDB, columns: dict[str, str], keys: dict[str, str], options: str,
                                        refusal: int, needed: str, tmp_path: Path) -> None:
    table = TableDDL("t", columns, keys, options)
    sql = INNODB_NEIGHBOUR + ";\n" + table.sql()
    found = lint(sql, tmp_path)
    assert len(found) == 1 and found[0].fix and needed in found[0].fix, found
    plain = run(server, "ne_conv", [INNODB_NEIGHBOUR, table.sql(), "ALTER TABLE t ENGINE=InnoDB"])
    assert not plain.ok and plain.code == refusal, plain
    if refusal in (1118, 1709):  # the message says InnoDB would refuse it, with the server's own text
        assert f"ERROR {refusal} (42000): {plain.message}" in found[0].message, (found[0].message, plain.message)
    made = run(server, "ne_conv", [INNODB_NEIGHBOUR, table.sql(), found[0].fix], table="t")
    assert made.ok, (found[0].fix, made)
    assert "ENGINE=InnoDB" in made.tables["t"]
    assert lint(INNODB_NEIGHBOUR + ";\n" + made.tables["t"], tmp_path, rules=DDL_RULES) == []


def test_a_myisam_key_block_size_would_compress_the_innodb_table(server: MariaDB, tmp_path: Path) -> None:
    table = TableDDL("t", {"id": "INT NOT NULL", "b": "VARCHAR(10)"}, {"PRIMARY": "PRIMARY KEY (`id`)"},
                     "ENGINE=MyISAM KEY_BLOCK_SIZE=4")
    found = lint(INNODB_NEIGHBOUR + ";\n" + table.sql(), tmp_path)
    assert found[0].fix == "ALTER TABLE `t` ENGINE=InnoDB, KEY_BLOCK_SIZE=0;"
    format_of = "SELECT ROW_FORMAT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ne_kbs' AND TABLE_NAME = 't'"
    assert run(server, "ne_kbs", [INNODB_NEIGHBOUR, table.sql(), "ALTER TABLE t ENGINE=InnoDB"]).ok
    assert server.sql(format_of) == [("Compressed",)]
    assert run(server, "ne_kbs", [INNODB_NEIGHBOUR, table.sql(), found[0].fix or ""]).ok
    assert server.sql(format_of) == [("Dynamic",)]


@pytest.mark.parametrize("engine", ["MyISAM", "Aria", "MEMORY", "CSV"])  # the engines the test server has
def test_each_engine_converts(server: MariaDB, engine: str, tmp_path: Path) -> None:
    keys = {} if engine in ("CSV",) else {"PRIMARY": "PRIMARY KEY (`id`)"}
    columns = {"id": "INT NOT NULL", "name": "VARCHAR(40) NOT NULL"}
    table = TableDDL("t", columns, keys, f"ENGINE={engine}")
    found = lint(INNODB_NEIGHBOUR + ";\n" + table.sql(), tmp_path)
    assert [f.subject for f in found] == [f"engine:{engine}"]
    made = run(server, "ne_each", [INNODB_NEIGHBOUR, table.sql(), found[0].fix or ""], table="t")
    assert made.ok and "ENGINE=InnoDB" in made.tables["t"]
