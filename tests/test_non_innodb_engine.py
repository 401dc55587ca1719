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
    # 5 of the 6 user tables of `app` (ROCKSDB is transactional), both of `legacy`: applications written for
    # these engines, one finding each for the schema, at its first such table; `mysql` is the server's own
    assert sorted((f.schema, f.table, f.severity, f.subject) for f in found) == [
        ("app", "log", "warning", "schema-engines"), ("legacy", "a", "warning", "schema-engines")]
    app, legacy = sorted(found, key=lambda f: f.schema or "")
    assert app.summary == "5 of the 6 tables of schema app are MyISAM (2), MEMORY (1), Aria (1), ARCHIVE (1): no transactions"
    assert app.evidence and app.evidence.startswith("MyISAM (2), MEMORY (1), Aria (1), ARCHIVE (1) (log, cache, hist, arch, later)")
    assert [line.split()[2] for line in (app.fix or "").splitlines()] == ["`app`.`log`", "`app`.`cache`", "`app`.`hist`",
                                                                         "`app`.`arch`", "`app`.`later`"]
    assert legacy.message.startswith("All 2 tables of schema legacy are MyISAM, without transactions: MyISAM has no ")


def test_a_table_made_myisam_by_an_alter_among_innodb_ones(tmp_path: Path) -> None:
    sql = "\n".join(["CREATE TABLE a (id INT PRIMARY KEY);", "CREATE TABLE b (id INT PRIMARY KEY);",
                     "CREATE TABLE later (id INT PRIMARY KEY);", "ALTER TABLE later ENGINE=MyISAM"])
    [later] = lint(sql, tmp_path)
    assert (later.table, later.severity, later.subject, later.line) == ("later", "warning", "engine:MyISAM", 4)


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


# -- a table with no key InnoDB could cluster on (issue 34): the fix gives it one, and says so -------------------
KEYLESS = [
    # (columns and keys, engine, the key the fix gives)
    ("a INT, b VARCHAR(20)", "MyISAM", "ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY FIRST"),
    ("id INT, name VARCHAR(20), KEY (id)", "Aria", "ADD COLUMN `row_id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY FIRST"),
    ("code CHAR(3), UNIQUE KEY uc (code)", "MEMORY", "DROP INDEX `uc`, ADD PRIMARY KEY (`code`)"),  # nullable: NOT NULL
    ("seq INT NOT NULL AUTO_INCREMENT, v TEXT, KEY (seq)", "MyISAM", "ADD PRIMARY KEY (`seq`)"),
    ("log_time DATETIME, msg VARCHAR(200)", "CSV", "ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY FIRST"),
]


@pytest.mark.parametrize(("body", "engine", "key"), KEYLESS)
def test_a_table_without_a_key_gets_one_in_the_conversion(server: MariaDB, tmp_path: Path, body: str, engine: str,
                                                          key: str) -> None:
    if engine == "CSV":  # CSV takes no NULL and no key
        body = "log_time DATETIME NOT NULL, msg VARCHAR(200) NOT NULL"
    table = f"CREATE TABLE t ({body}) ENGINE={engine}"
    [found] = lint(f"{INNODB_NEIGHBOUR};\n{table}", tmp_path)
    assert found.fix and key in found.fix, found.fix
    assert "ENGINE=InnoDB alone would cluster it on InnoDB's hidden row id" in found.message
    assert f"a primary key too ({key}" in found.message
    if "UNIQUE" in body:
        assert "makes code NOT NULL and fails while any row holds NULL" in found.message
    plain = run(server, "ne_key", [INNODB_NEIGHBOUR, table, "ALTER TABLE t ENGINE=InnoDB"], table="t")
    assert plain.ok and "PRIMARY KEY" not in plain.tables["t"]  # what the plain conversion leaves: the hidden row id
    made = run(server, "ne_key", [INNODB_NEIGHBOUR, table, found.fix], table="t")
    assert made.ok and "ENGINE=InnoDB" in made.tables["t"] and "PRIMARY KEY" in made.tables["t"], (found.fix, made)
    assert lint(INNODB_NEIGHBOUR + ";\n" + made.tables["t"], tmp_path, rules=("no-primary-key", RULE)) == []


@pytest.mark.parametrize("body", ["id INT NOT NULL, UNIQUE KEY (id)", "id INT NOT NULL PRIMARY KEY",
                                  "a INT NOT NULL, b INT NOT NULL, UNIQUE KEY ab (a, b), KEY (b)"])
def test_a_table_innodb_would_cluster_on_its_own_key_gets_no_new_one(tmp_path: Path, body: str) -> None:
    [found] = lint(f"{INNODB_NEIGHBOUR};\nCREATE TABLE t ({body}) ENGINE=MyISAM", tmp_path)
    assert found.fix == "ALTER TABLE `t` ENGINE=InnoDB;" and "hidden row id" not in found.message


# -- schemas written for engines without transactions: one finding each ------------------------------------------
def _schema(name: str, tables: list[tuple[str, str, str]], dump: bool) -> str:
    """A schema of (table, body, engine), as mysqldump writes it or as a hand-written script."""
    head = (f"--\n-- Current Database: `{name}`\n--\n\nCREATE DATABASE /*!32312 IF NOT EXISTS*/ `{name}`;\n\nUSE `{name}`;\n"
            if dump else f"CREATE DATABASE {name};\nUSE {name};\n")
    return head + "".join(f"CREATE TABLE `{t}` (\n  {body}\n) ENGINE={engine} DEFAULT CHARSET=utf8mb4;\n"
                          for t, body, engine in tables)


@pytest.mark.parametrize("dump", [True, False])
@pytest.mark.parametrize("engines", [("MyISAM",), ("MyISAM", "MEMORY"), ("Aria", "MyISAM", "InnoDB")])
def test_an_application_of_myisam_tables_gets_one_finding_whose_fix_converts_it(
        server: MariaDB, tmp_path: Path, dump: bool, engines: tuple[str, ...]) -> None:
    tables = [(f"t{n}", "id INT NOT NULL PRIMARY KEY, v VARCHAR(30)" if n % 3 else "a INT, b VARCHAR(100)",
               engines[n % len(engines)]) for n in range(7)]
    sql = _schema("app1", tables, dump) + _schema("app2", tables[:3], dump)
    report = lint_sql(sql, tmp_path, target=TARGET)
    found = sorted((f for f in report.findings if f.rule == RULE), key=lambda f: f.schema or "")
    assert [(f.schema, f.table, f.subject) for f in found] == [("app1", "t0", "schema-engines"),
                                                              ("app2", "t0", "schema-engines")]
    others = [t for t, _, engine in tables if engine != "InnoDB"]
    assert [line.split()[2] for line in (found[0].fix or "").splitlines() if line.startswith("ALTER")] == [
        f"`app1`.`{t}`" for t in others]
    keyless = sum(1 for t, body, engine in tables if engine != "InnoDB" and "PRIMARY" not in body)
    assert f"{keyless} of them have no PRIMARY KEY" in found[0].message
    server.sql("DROP DATABASE IF EXISTS app1; CREATE DATABASE app1")
    for t, body, engine in tables:
        server.sql(f"CREATE TABLE `{t}` ({body}) ENGINE={engine}", "app1")
    server.sql(found[0].fix or "", "app1")
    made = server.sql("SELECT TABLE_NAME, ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'app1'")
    keys = server.sql("SELECT DISTINCT TABLE_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'app1' "
                      "AND INDEX_NAME = 'PRIMARY'")
    server.sql("DROP DATABASE app1")
    assert {engine for _, engine in made} == {"InnoDB"} and len(keys) == len(tables)


def test_tenant_schemas_of_myisam_tables_get_one_finding_for_all(tmp_path: Path) -> None:
    tables = [("posts", "id INT NOT NULL PRIMARY KEY, body TEXT", "MyISAM"), ("meta", "k VARCHAR(20), v TEXT", "MyISAM")]
    sql = "".join(_schema(f"tenant_{n}", tables, True) for n in range(30))
    report = lint_sql(sql, tmp_path, target=TARGET)
    [found] = [f for f in report.findings if f.rule == RULE]
    assert found.count == 30 and found.subject == "schema-engines" and found.table == "posts"
