"""no-primary-key: flagged exactly when InnoDB must cluster on the hidden DB_ROW_ID."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import findings, lint_sql

RULE = "no-primary-key"


def severities(sql: str, tmp_path: Path, **kwargs: object) -> dict[str, str]:
    report = lint_sql(sql, tmp_path, **kwargs)
    assert not [d for d in report.diagnostics if d.rule == "parse-error"], report.diagnostics
    return {f.table or "": f.severity for f in findings(report, RULE)}


def test_table_without_any_key_is_a_warning_with_concrete_fix(tmp_path: Path) -> None:
    report = lint_sql("CREATE TABLE log (\n  at datetime NOT NULL,\n  msg text\n) ENGINE=InnoDB;\n", tmp_path)
    [finding] = findings(report, RULE)
    assert (finding.severity, finding.line, finding.column, finding.end_line) == ("warning", 1, 1, 4)
    assert "DB_ROW_ID" in finding.message and "dict_sys" in finding.message
    assert finding.fix == "ALTER TABLE `log` ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY FIRST;"
    assert "sql_generate_invisible_primary_key" in finding.message


def test_mysql57_target_has_no_invisible_columns_or_gipk(tmp_path: Path) -> None:
    report = lint_sql("CREATE TABLE log (id int, msg text);", tmp_path, target="mysql-5.7")
    [finding] = findings(report, RULE)
    assert finding.fix == "ALTER TABLE `log` ADD COLUMN `row_id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST;"
    assert "sql_generate_invisible_primary_key" not in finding.message


def test_primary_key_means_no_finding(tmp_path: Path) -> None:
    assert severities("CREATE TABLE t (id int PRIMARY KEY);CREATE TABLE u (id int, PRIMARY KEY (id));", tmp_path) == {}


def test_not_null_unique_key_clusters_and_gets_info_only(tmp_path: Path) -> None:
    report = lint_sql("CREATE TABLE t (a int NOT NULL, b int NOT NULL, UNIQUE KEY ab (a, b));", tmp_path)
    [finding] = findings(report, RULE)
    assert finding.severity == "info"
    assert finding.fix == "ALTER TABLE `t` DROP INDEX `ab`, ADD PRIMARY KEY (`a`, `b`);"


@pytest.mark.parametrize(
    ("definition", "why"),
    [
        ("a int, UNIQUE KEY ua (a)", "a is nullable"),
        ("a varchar(200) NOT NULL, UNIQUE KEY ua (a(20))", "a(20) is a prefix"),
        ("a int NOT NULL, v int AS (a + 1) VIRTUAL NOT NULL, UNIQUE KEY uv (v)", "v is a virtual column"),
    ],
)
def test_unique_keys_that_cannot_cluster(tmp_path: Path, definition: str, why: str) -> None:
    report = lint_sql(f"CREATE TABLE t ({definition});", tmp_path)
    [finding] = findings(report, RULE)
    assert finding.severity == "warning"
    assert why in (finding.evidence or "")


def test_nullable_unique_key_is_promoted_with_a_note(tmp_path: Path) -> None:
    report = lint_sql("CREATE TABLE t (a int, UNIQUE KEY ua (a));", tmp_path)
    [finding] = findings(report, RULE)
    assert finding.fix == "ALTER TABLE `t` DROP INDEX `ua`, ADD PRIMARY KEY (`a`);"
    assert "makes a NOT NULL" in finding.message


def test_stored_generated_unique_key_clusters(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (a int NOT NULL, s int AS (a + 1) STORED NOT NULL, UNIQUE KEY us (s));"
    assert severities(sql, tmp_path) == {"t": "info"}


def test_alter_add_primary_key_later_clears_it(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (id int NOT NULL);\nALTER TABLE t ADD PRIMARY KEY (id);\n"
    assert severities(sql, tmp_path) == {}


def test_alter_drop_primary_key_is_flagged_at_the_alter(tmp_path: Path) -> None:
    report = lint_sql("CREATE TABLE t (id int PRIMARY KEY);\n\nALTER TABLE t DROP PRIMARY KEY;\n", tmp_path)
    [finding] = findings(report, RULE)
    assert finding.line == 3 and "dropped its PRIMARY KEY" in finding.message


def test_create_unique_index_later_clusters(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (a int NOT NULL);\nCREATE UNIQUE INDEX ua ON t (a);\n"
    assert severities(sql, tmp_path) == {"t": "info"}
    sql = "CREATE TABLE t (a varchar(100) NOT NULL);\nCREATE UNIQUE INDEX ua ON t (a(10));\n"
    assert severities(sql, tmp_path) == {"t": "warning"}


def test_ctas_without_key_is_flagged_at_that_statement(tmp_path: Path) -> None:
    report = lint_sql("CREATE TABLE a (id int PRIMARY KEY);\nCREATE TABLE b AS SELECT * FROM a;\n", tmp_path)
    [finding] = findings(report, RULE)
    assert (finding.table, finding.line) == ("b", 2) and "SELECT copies no keys" in finding.message


def test_like_copies_the_key(tmp_path: Path) -> None:
    assert severities("CREATE TABLE a (id int PRIMARY KEY);CREATE TABLE b LIKE a;", tmp_path) == {}
    assert severities("CREATE TABLE a (id int);CREATE TABLE b LIKE a;", tmp_path) == {"a": "warning", "b": "warning"}


@pytest.mark.parametrize("engine", ["MyISAM", "MEMORY", "CSV", "ARCHIVE", "Aria"])
def test_non_innodb_tables_are_not_flagged(tmp_path: Path, engine: str) -> None:
    assert severities(f"CREATE TABLE t (a int) ENGINE={engine};", tmp_path) == {}


def test_engine_converted_to_innodb_later_is_flagged(tmp_path: Path) -> None:
    assert severities("CREATE TABLE t (a int) ENGINE=MyISAM;\nALTER TABLE t ENGINE=InnoDB;", tmp_path) == {"t": "warning"}


def test_view_standin_is_not_linted_once_its_view_replaces_it(tmp_path: Path) -> None:
    sql = (
        "/*!50001 CREATE TABLE `v` (\n  `a` int\n) ENGINE=MyISAM */;\n"
        "/*!50001 CREATE TABLE `w` (\n  `a` int\n) */;\n"
        "/*!50001 DROP TABLE IF EXISTS `v`*/;\n/*!50001 CREATE VIEW `v` AS select 1 AS `a` */;\n"
        "/*!50001 DROP TABLE IF EXISTS `w`*/;\n/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50001 VIEW `w` AS select 1 AS `a` */;\n"
    )
    assert severities(sql, tmp_path) == {}


def test_a_view_standin_not_dropped_before_its_view_stays_a_table(tmp_path: Path) -> None:
    """A dump that lost the DROP before the view (old mysqldump --skip-add-drop-table): the server
    refuses the view (1050) and keeps the stand-in, an InnoDB table without a key: innolint lints
    it and says at the view why it failed (tests/test_view_namespace.py asks MariaDB)."""
    sql = "/*!50001 CREATE TABLE `w` (\n  `a` int\n) */;\n/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50001 VIEW `w` AS select 1 AS `a` */;\n"
    assert severities(sql, tmp_path) == {"w": "warning"}
    (said,) = [f for f in lint_sql(sql, tmp_path).findings if f.rule == "refused-ddl"]
    assert said.line == 4 and "stand-in" in said.message and "1050" in said.message


def test_a_view_standin_no_view_replaces_is_a_table(tmp_path: Path) -> None:
    # issue 14: the server has this table (InnoDB by default), so it is linted like any other
    sql = "/*!50001 CREATE TABLE `w` (\n  `a` int\n) */;\n/*!50001 CREATE TABLE `m` (\n  `a` int\n) ENGINE=MyISAM */;\n"
    assert severities(sql, tmp_path) == {"w": "warning"}


def test_schema_is_reported(tmp_path: Path) -> None:
    report = lint_sql("USE shop;\nCREATE TABLE t (a int);\n", tmp_path)
    [finding] = findings(report, RULE)
    assert (finding.schema, finding.table) == ("shop", "t")
    assert finding.fix is not None and finding.fix.startswith("ALTER TABLE `shop`.`t` ")


@pytest.mark.parametrize(("script", "behind", "first"), [
    # MariaDB keeps the keys' order through an ALTER that adds no key (tests/test_key_order.py)
    ("CREATE TABLE t (a int, b int, UNIQUE ub (b), UNIQUE ua (a));\nALTER TABLE t MODIFY a int NOT NULL;", "ua", "ub"),
    ("CREATE TABLE t (code char(8), n bigint, email varchar(90), UNIQUE u_mail (email), UNIQUE u_code (code));\n"
     "ALTER TABLE t CHANGE code code char(8) NOT NULL, FORCE;", "u_code", "u_mail"),
    ("CREATE TABLE t (x int, y int, UNIQUE kx (x), UNIQUE ky (y), PRIMARY KEY (y));\nALTER TABLE t DROP PRIMARY KEY;",
     "ky", "kx"),
])
def test_a_not_null_unique_key_behind_the_first_key_clusters_nothing(
        tmp_path: Path, script: str, behind: str, first: str) -> None:
    report = lint_sql(script, tmp_path, target="mariadb-10.11")
    [finding] = findings(report, RULE)
    assert finding.severity == "warning"
    assert f"UNIQUE {behind} could cluster but is not the table's first key ({first} is)" in (finding.evidence or "")
    if "DROP PRIMARY KEY" in script:  # said as the ALTER that dropped it, at that ALTER
        assert finding.line == 2 and "dropped its PRIMARY KEY" in finding.message
    else:  # on the row id since the CREATE TABLE
        assert finding.line == 1
        assert f"UNIQUE key {behind} of NOT NULL columns is not its first key ({first} is)" in finding.message
    assert finding.fix is not None and f"DROP INDEX `{behind}`, ADD PRIMARY KEY" in finding.fix


def test_mysql_sorts_the_keys_at_every_alter(tmp_path: Path) -> None:
    report = lint_sql("CREATE TABLE t (a int, b int, UNIQUE ub (b), UNIQUE ua (a));\nALTER TABLE t MODIFY a int NOT NULL;",
                      tmp_path, target="mysql-8.0")
    [finding] = findings(report, RULE)
    assert finding.severity == "info" and "clusters it on UNIQUE key ua" in finding.message


@pytest.mark.parametrize(("statement", "why"), [
    ("CREATE TABLE t (a int NOT NULL, UNIQUE KEY ua (a) USING HASH);", "written USING HASH"),
    ("CREATE TABLE t (a varchar(1000) NOT NULL, UNIQUE KEY ua (a)) DEFAULT CHARSET=utf8mb4;",
     "wider than a B-tree key takes"),
    ("CREATE TABLE t (a varchar(700) NOT NULL, b varchar(69) NOT NULL, UNIQUE KEY ua (a, b)) CHARSET utf8mb4;",
     "wider than"),
])
def test_a_unique_key_mariadb_keeps_as_a_hash_clusters_nothing(tmp_path: Path, statement: str, why: str) -> None:
    report = lint_sql(statement, tmp_path, target="mariadb-10.11")
    [finding] = findings(report, RULE)
    assert finding.severity == "warning" and "as a hash over a hidden column" in finding.message
    assert why in finding.message
    on_mysql = lint_sql(statement, tmp_path, target="mysql-8.0")
    assert [f.severity for f in findings(on_mysql, RULE)] in (["info"], [])  # a B-tree, or a key MySQL refuses


def test_an_alter_makes_a_short_hash_key_a_b_tree(tmp_path: Path) -> None:
    script = "CREATE TABLE t (a int NOT NULL, UNIQUE KEY ua (a) USING HASH);\nALTER TABLE t COMMENT = 'rebuilt';"
    [finding] = findings(lint_sql(script, tmp_path, target="mariadb-10.11"), RULE)
    assert finding.severity == "info" and "clusters it on UNIQUE key ua" in finding.message
