"""auto-increment-capacity: the next AUTO_INCREMENT value against the column type's maximum,
only when a value is known and the table is not empty, with the MODIFY that widens the column
and the foreign keys that reference it. The server-side claims (the error at the maximum, the
refused MODIFY of a referenced column, the table copy) are checked on MariaDB at the end."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from checks.auto_increment_capacity import maximum
from linter.rules.checkapi import TableStats
from linter.rules.findings import Finding
from tests.helpers import clean_findings, findings

RULE = "auto-increment-capacity"


def found(sql: str, tmp_path: Path, target: str = "mariadb-10.11", **context: object) -> list[Finding]:
    return clean_findings(sql, tmp_path, RULE, target=target, **context)


@pytest.mark.parametrize(("type_sql", "type_name", "unsigned"), [
    ("TINYINT", "TINYINT", False), ("SMALLINT UNSIGNED", "SMALLINT", True), ("MEDIUMINT", "MEDIUMINT", False),
    ("INT(11)", "INT", False), ("INTEGER UNSIGNED", "INT", True), ("INT(10) UNSIGNED ZEROFILL", "INT", True),
    ("BIGINT(20)", "BIGINT", False),
])
@pytest.mark.parametrize(("share", "severity"), [(0.49, None), (0.5, "warning"), (0.84, "warning"), (0.85, "error"),
                                                 (1.0, "error")])
def test_thresholds_for_every_integer_type(type_sql: str, type_name: str, unsigned: bool, share: float,
                                           severity: str | None, tmp_path: Path) -> None:
    value = max(1, math.ceil(maximum(type_name, unsigned) * share))
    sql = f"CREATE TABLE t (id {type_sql} NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=InnoDB AUTO_INCREMENT={value};"
    result = found(sql, tmp_path)
    assert [f.severity for f in result] == ([severity] if severity else [])
    if result:
        assert f"{value:,}" in result[0].message and f"{maximum(type_name, unsigned):,}" in result[0].message


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT 2000000000",
    "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY); ALTER TABLE t AUTO_INCREMENT = 2000000000",
    "CREATE TABLE t (n INT NOT NULL AUTO_INCREMENT, UNIQUE KEY (n)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 "
    "AUTO_INCREMENT=2000000000 COMMENT='no primary key'",
    "CREATE TABLE `T` (`Id` int NOT NULL AUTO_INCREMENT, `a` int, PRIMARY KEY (`a`, `Id`), KEY (`Id`)) AUTO_INCREMENT=2000000000",
])
def test_value_written_in_every_form(sql: str, tmp_path: Path) -> None:
    [finding] = found(sql, tmp_path)
    assert finding.severity == "error" and "2,000,000,000" in finding.message


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT)",  # a fresh CREATE: no value
    "CREATE TABLE t (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=2000000000",
    "CREATE TABLE t (id INT PRIMARY KEY, n INT) AUTO_INCREMENT=2000000000",  # no AUTO_INCREMENT column
    "CREATE TABLE t (id DOUBLE AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=2000000000",  # not an integer type
])
def test_no_finding_without_a_value_or_with_room(sql: str, tmp_path: Path) -> None:
    assert found(sql, tmp_path) == []


def test_never_on_an_empty_table(tmp_path: Path) -> None:
    sql = "CREATE TABLE queue (id INT AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=2100000000"
    assert found(sql, tmp_path, stats={"queue": TableStats(rows=0, data_length=16384)}) == []
    assert len(found(sql, tmp_path, stats={"queue": TableStats(rows=3, data_length=16384)})) == 1


def test_the_server_value_from_stats(tmp_path: Path) -> None:
    sql = "CREATE TABLE orders (id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=100"
    stats = {"orders": TableStats(rows=3_500_000_000, data_length=300 << 30, index_length=50 << 30,
                                  auto_increment=3_900_000_000)}
    [finding] = found(sql, tmp_path, stats=stats)
    assert finding.severity == "error"
    assert "information_schema.TABLES.AUTO_INCREMENT" in (finding.evidence or "")
    assert "350.0 GiB with indexes, ~3,500,000,000 rows" in finding.message and "gh-ost" in finding.message
    assert found("CREATE TABLE orders (id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY)", tmp_path, stats=stats)


@pytest.mark.parametrize(("column", "value", "fixed"), [
    ("INT", 1_300_000_000, "`id` INT UNSIGNED NOT NULL AUTO_INCREMENT"),  # 60%: unsigned is 30%
    ("INT", 1_900_000_000, "`id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT"),  # 88%: unsigned would be 44%, an error
    ("INT UNSIGNED", 2_600_000_000, "`id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT"),
    ("SMALLINT", 30_000, "`id` MEDIUMINT UNSIGNED NOT NULL AUTO_INCREMENT"),
    ("TINYINT UNSIGNED", 250, "`id` SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT"),
    ("MEDIUMINT UNSIGNED", 10_000_000, "`id` INT UNSIGNED NOT NULL AUTO_INCREMENT"),
    ("BIGINT", 6_000_000_000_000_000_000, "`id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT"),
])
def test_the_fix_widens_or_makes_unsigned(column: str, value: int, fixed: str, tmp_path: Path) -> None:
    [finding] = found(f"CREATE TABLE t (id {column} NOT NULL AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT={value}", tmp_path)
    assert finding.fix == f"ALTER TABLE `t` MODIFY COLUMN {fixed};"


def test_bigint_unsigned_has_nothing_wider(tmp_path: Path) -> None:
    [finding] = found("CREATE TABLE t (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=10000000000000000000",
                      tmp_path)
    assert finding.fix is None and "explicit ids" in finding.message


def test_signed_types_waste_half_the_range(tmp_path: Path) -> None:
    [finding] = found("CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=1200000000", tmp_path)
    assert "only its positive half" in finding.message and "4,294,967,295" in finding.message
    [unsigned] = found("CREATE TABLE t (id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=2400000000", tmp_path)
    assert "positive half" not in unsigned.message


def test_options(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=800000000"  # 37%
    assert found(sql, tmp_path) == []
    options = {RULE: {"warning_share": 0.3, "error_share": 0.35}}
    [finding] = found(sql, tmp_path, options=options)
    assert finding.severity == "error"


def test_every_other_attribute_of_the_column_is_kept(tmp_path: Path) -> None:
    sql = ("CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT COMMENT 'row''s id' INVISIBLE, "
           "parent INT DEFAULT NULL CHECK (parent <> 0), v INT, PRIMARY KEY (id), FOREIGN KEY (parent) REFERENCES t (id)) "
           "AUTO_INCREMENT=1500000000")
    [mariadb] = found(sql, tmp_path)
    assert ("MODIFY COLUMN `id` INT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE COMMENT 'row''s id', "
            "MODIFY COLUMN `parent` INT UNSIGNED NULL DEFAULT NULL CHECK (parent <> 0);") in (mariadb.fix or "")
    [mysql] = found(sql, tmp_path, target="mysql-8.0")  # MySQL keeps the CHECK as a table constraint
    assert mysql.fix and "CHECK" not in mysql.fix


def test_foreign_keys_that_reference_the_column_change_with_it(tmp_path: Path) -> None:
    sql = """
CREATE DATABASE shop; USE shop;
CREATE TABLE users (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, manager_id INT NULL,
  CONSTRAINT fk_manager FOREIGN KEY (manager_id) REFERENCES users (id) ON DELETE SET NULL) AUTO_INCREMENT=2000000000;
CREATE TABLE doc (id INT PRIMARY KEY, created_by INT NOT NULL, updated_by INT DEFAULT NULL COMMENT 'editor',
  FOREIGN KEY (created_by) REFERENCES users (id), CONSTRAINT fk_upd FOREIGN KEY (updated_by) REFERENCES shop.users (id)
  ON UPDATE CASCADE);
CREATE DATABASE billing; USE billing;
CREATE TABLE invoice (id INT PRIMARY KEY, user_id INT, CONSTRAINT fk_inv_user FOREIGN KEY (user_id)
  REFERENCES shop.users (id) ON DELETE CASCADE ON UPDATE RESTRICT);
CREATE TABLE unrelated (id INT PRIMARY KEY, user_id INT);
"""
    [finding] = found(sql, tmp_path)
    assert finding.fix == "\n".join([
        "ALTER TABLE `shop`.`users` DROP FOREIGN KEY `fk_manager`;",
        "ALTER TABLE `shop`.`doc` DROP FOREIGN KEY `doc_ibfk_1`, DROP FOREIGN KEY `fk_upd`;",
        "ALTER TABLE `billing`.`invoice` DROP FOREIGN KEY `fk_inv_user`;",
        "ALTER TABLE `shop`.`users` MODIFY COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT, "
        "MODIFY COLUMN `manager_id` BIGINT UNSIGNED NULL;",
        "ALTER TABLE `shop`.`doc` MODIFY COLUMN `created_by` BIGINT UNSIGNED NOT NULL, MODIFY COLUMN `updated_by` "
        "BIGINT UNSIGNED NULL DEFAULT NULL COMMENT 'editor', ADD CONSTRAINT `doc_ibfk_1` FOREIGN KEY (`created_by`) "
        "REFERENCES `users` (`id`), ADD CONSTRAINT `fk_upd` FOREIGN KEY (`updated_by`) REFERENCES `users` (`id`) "
        "ON UPDATE CASCADE;",
        "ALTER TABLE `billing`.`invoice` MODIFY COLUMN `user_id` BIGINT UNSIGNED NULL, ADD CONSTRAINT `fk_inv_user` "
        "FOREIGN KEY (`user_id`) REFERENCES `shop`.`users` (`id`) ON DELETE CASCADE ON UPDATE RESTRICT;",
        "ALTER TABLE `shop`.`users` ADD CONSTRAINT `fk_manager` FOREIGN KEY (`manager_id`) REFERENCES `users` (`id`) "
        "ON DELETE SET NULL;",  # a self-reference: added back on its own, after its columns changed
    ])
    assert "users.manager_id, doc.created_by, doc.updated_by, invoice.user_id" in finding.message


def test_the_finding_sits_on_the_statement_that_gave_the_column_its_type(tmp_path: Path) -> None:
    sql = ("CREATE TABLE t (id BIGINT AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=2000000000;\n\n"
           "ALTER TABLE t MODIFY id INT NOT NULL AUTO_INCREMENT;\n")
    [finding] = found(sql, tmp_path)
    assert finding.line == 3


# -- the server's side of the claims --------------------------------------------------------------------
def test_what_the_finding_says_the_server_does(mariadb) -> None:  # type: ignore[no-untyped-def]
    """At the maximum the next insert fails with ERROR 167; a referenced column's type cannot be
    changed even with foreign_key_checks=0 (1833); the MODIFY cannot be done in place; an
    AUTO_INCREMENT=N above the maximum is kept as written."""
    import pymysql

    schema = "ai_claims"
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    try:
        mariadb.sql("CREATE TABLE t (id TINYINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT) AUTO_INCREMENT=127; "
                    "INSERT INTO t (v) VALUES (1)", database=schema)
        with pytest.raises(pymysql.err.MySQLError) as full:
            mariadb.sql("INSERT INTO t (v) VALUES (2)", database=schema)
        assert full.value.args[0] == 167 and "Out of range value" in full.value.args[1]
        mariadb.sql("CREATE TABLE c (x TINYINT, FOREIGN KEY (x) REFERENCES t (id))", database=schema)
        with pytest.raises(pymysql.err.MySQLError) as referenced:
            mariadb.sql("SET foreign_key_checks = 0; ALTER TABLE t MODIFY id SMALLINT NOT NULL AUTO_INCREMENT",
                        database=schema)
        assert referenced.value.args[0] == 1833
        with pytest.raises(pymysql.err.MySQLError) as in_place:
            mariadb.sql("ALTER TABLE c MODIFY x SMALLINT, ALGORITHM=INPLACE", database=schema)
        assert in_place.value.args[0] in (1846, 1832)
        mariadb.sql("CREATE TABLE big (id TINYINT UNSIGNED AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=300",
                    database=schema)
        assert "AUTO_INCREMENT=300" in mariadb.sql(f"SHOW CREATE TABLE {schema}.big")[0][1]
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")


def test_the_audit_reads_the_counter_and_skips_empty_tables(mariadb) -> None:  # type: ignore[no-untyped-def]
    """`innolint audit`: information_schema.TABLES.AUTO_INCREMENT lands in the stats (and the
    stats file it exports); a full table gets the finding, an empty one with the same counter none."""
    import io

    from linter.audit.connection import connect
    from linter.audit.server import AuditOptions, read_server, run_checks
    from linter.rules.checkapi import CheckContext
    from linter.schema.target import Target

    schema = "ai_audit"
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    try:
        mariadb.sql("CREATE TABLE busy (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT) AUTO_INCREMENT=1900000000; "
                    "INSERT INTO busy (v) VALUES (1), (2), (3); ANALYZE TABLE busy; "
                    "CREATE TABLE drained (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT) AUTO_INCREMENT=1900000000; "
                    "ANALYZE TABLE drained", database=schema)
        with connect(f"mysql://root@/?socket={mariadb.socket}") as connection:
            audited = read_server(connection, [schema], AuditOptions(), stderr=io.StringIO())
        rows = {row.table: row for row in audited.stats_file().tables}
        assert rows["busy"].auto_increment == 1_900_000_003 and rows["drained"].table_rows == 0
        report = run_checks(audited, CheckContext(target=Target.parse("mariadb-10.11")))
        result = findings(report, RULE)
        assert [(f.table, f.severity) for f in result] == [("busy", "error")]
        assert "1,900,000,003" in result[0].message
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")
