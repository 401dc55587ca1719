"""foreign-key-mismatch: what the rule says a server refuses is what MariaDB 10.11 refuses (a
generated matrix of column type pairs, character sets and collations, and referenced keys, each
created on the test server and linted), the MySQL-only rules per target, the accepted mismatches
as warnings, the fixes, and where the finding sits."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.helpers import findings, lint_sql

RULE = "foreign-key-mismatch"


def found(sql: str, tmp_path: Path, target: str = "mariadb-10.11") -> list:  # type: ignore[type-arg]
    report = lint_sql(sql, tmp_path, target=target)
    assert not [d for d in report.diagnostics if d.rule == "parse-error"], report.diagnostics
    return findings(report, RULE)


def pair(parent_type: str, child_type: str, parent_table: str = "", child_table: str = "") -> str:
    return (f"CREATE TABLE p (id {parent_type} NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB {parent_table};\n"
            f"CREATE TABLE c (x {child_type}, KEY (x), FOREIGN KEY (x) REFERENCES p (id)) ENGINE=InnoDB {child_table};\n")


# -- refused on every target ------------------------------------------------------------------------
@pytest.mark.parametrize(("parent", "child"), [
    ("INT", "BIGINT"), ("INT UNSIGNED", "INT"), ("BIGINT", "BIGINT UNSIGNED"), ("TINYINT", "SMALLINT"),
    ("INT ZEROFILL", "INT"), ("INT", "VARCHAR(10)"), ("BIGINT", "DECIMAL(20,0)"), ("FLOAT", "DOUBLE"),
    ("VARCHAR(16)", "VARBINARY(16)"), ("DATE", "DATETIME"), ("CHAR(36)", "BINARY(36)"),
    ("VARCHAR(10) CHARACTER SET latin1", "VARCHAR(10) CHARACTER SET utf8mb4"),
    ("VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci", "VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"),
    ("VARCHAR(10) CHARACTER SET utf8mb3", "VARCHAR(10) CHARACTER SET utf8mb4"),
    ("VARCHAR(10)", "VARCHAR(10) BINARY"),
])
@pytest.mark.parametrize("target", ["mariadb-10.11", "mysql-8.0", "mysql-5.7"])
def test_refused_everywhere(parent: str, child: str, target: str, tmp_path: Path) -> None:
    [finding] = found(pair(parent, child), tmp_path, target)
    assert finding.severity == "error" and "refuses it" in finding.message
    assert finding.fix and "MODIFY COLUMN `x`" in finding.fix


def test_the_error_each_target_gives(tmp_path: Path) -> None:
    sql = pair("INT UNSIGNED", "INT")
    assert "errno 150" in found(sql, tmp_path, "mariadb-10.6")[0].message
    assert "ERROR 3780" in found(sql, tmp_path, "mysql-8.4")[0].message
    assert "ERROR 1215" in found(sql, tmp_path, "mysql-5.7")[0].message


@pytest.mark.parametrize(("table_options", "column", "refused"), [
    # CHARACTER SET without COLLATE takes the set's default collation, not the table's
    ("DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci", "VARCHAR(10) CHARACTER SET utf8mb4", True),
    ("DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci", "VARCHAR(10)", False),
    ("DEFAULT CHARSET=utf8mb4", "VARCHAR(10) CHARACTER SET utf8mb4", False),
    ("DEFAULT CHARSET=latin1", "VARCHAR(10) COLLATE latin1_bin", True),
    ("", "VARCHAR(10) CHARACTER SET latin1", False),  # the server's default is latin1 on MariaDB 10.11
])
def test_character_sets_resolve_as_the_server_does(table_options: str, column: str, refused: bool,
                                                   tmp_path: Path) -> None:
    sql = (f"CREATE TABLE p (id VARCHAR(10) NOT NULL PRIMARY KEY) {table_options};\n"
           f"CREATE TABLE c (x {column}, FOREIGN KEY (x) REFERENCES p (id)) {table_options};\n")
    result = found(sql, tmp_path)
    assert bool(result) == refused, result


def test_a_schema_default_counts(tmp_path: Path) -> None:
    sql = ("CREATE DATABASE app DEFAULT CHARACTER SET utf8mb4; USE app;\n"
           "CREATE TABLE p (code VARCHAR(8) NOT NULL PRIMARY KEY);\n"
           "CREATE TABLE c (code VARCHAR(8) CHARACTER SET latin1, FOREIGN KEY (code) REFERENCES p (code));\n")
    [finding] = found(sql, tmp_path)
    assert "latin1_swedish_ci and utf8mb4_general_ci differ" in finding.message
    assert "CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci" in (finding.fix or "")


# -- accepted: per target, and as warnings -----------------------------------------------------------
@pytest.mark.parametrize(("parent", "child"), [
    ("INT(11)", "INT(10)"), ("VARCHAR(10)", "VARCHAR(20)"), ("CHAR(10)", "VARCHAR(10)"), ("VARCHAR(10)", "CHAR(10)"),
    ("BINARY(16)", "VARBINARY(16)"), ("DECIMAL(10,2)", "DECIMAL(10,2)"), ("ENUM('a','b')", "ENUM('A','B')"),
    ("DATETIME(3)", "DATETIME(6)"), ("BIGINT UNSIGNED", "BIGINT UNSIGNED"),
])
def test_no_finding_where_nothing_is_lost(parent: str, child: str, tmp_path: Path) -> None:
    assert found(pair(parent, child), tmp_path) == []
    assert found(pair(parent, child), tmp_path, "mysql-8.0") == []


@pytest.mark.parametrize(("parent", "child", "said"), [
    ("VARCHAR(20)", "VARCHAR(10)", "shorter than"),
    ("VARBINARY(32)", "BINARY(16)", "shorter than"),
    ("DATETIME", "TIMESTAMP", "different types"),
    ("DATETIME(3)", "DATETIME", "fractional seconds"),
    ("ENUM('a','b')", "ENUM('b','a')", "members differ"),
    ("DECIMAL(12,2)", "DECIMAL(10,2)", "cannot hold"),
])
def test_accepted_mismatches_that_lose_values_are_warnings(parent: str, child: str, said: str, tmp_path: Path) -> None:
    [finding] = found(pair(parent, child), tmp_path)
    assert finding.severity == "warning" and said in finding.message and "refuses" not in finding.message


def test_decimal_is_refused_by_mysql_and_accepted_by_mariadb(tmp_path: Path) -> None:
    sql = pair("DECIMAL(10,2)", "DECIMAL(12,2)")
    assert found(sql, tmp_path, "mariadb-10.11") == []  # the child holds every parent value
    [mysql] = found(sql, tmp_path, "mysql-8.0")
    assert mysql.severity == "error" and "precision or scale" in mysql.message


# -- the referenced key --------------------------------------------------------------------------------
PARENT = ("CREATE TABLE p (a INT NOT NULL, b INT NOT NULL, c INT, d INT, e INT, v VARCHAR(100), "
          "PRIMARY KEY (a, b), KEY (c), UNIQUE KEY (d, e), KEY (v(10)));\n")


@pytest.mark.parametrize(("columns", "references", "mariadb", "mysql84", "mysql80"), [
    ("x INT, y INT", "(x, y) REFERENCES p (a, b)", None, None, None),
    ("x INT", "(x) REFERENCES p (a)", "warning", "error", "warning"),  # part of the primary key
    ("x INT", "(x) REFERENCES p (c)", "warning", "error", "warning"),  # a non-unique key
    ("x INT", "(x) REFERENCES p (d)", "warning", "error", "warning"),  # part of a unique key
    ("x INT", "(x) REFERENCES p (b)", "error", "error", "error"),  # not the first column of any index
    ("x INT, y INT", "(x, y) REFERENCES p (c, a)", "warning", "error", "warning"),  # KEY (c) is stored (c, a, b)
    ("x INT, y INT", "(x, y) REFERENCES p (b, a)", "error", "error", "error"),  # order
    ("x VARCHAR(100)", "(x) REFERENCES p (v)", "error", "error", "error"),  # a prefix index
    ("x INT, y INT", "(x, y) REFERENCES p (d, e)", None, None, None),
])
def test_referenced_columns_need_a_key(columns: str, references: str, mariadb: str | None, mysql84: str | None,
                                       mysql80: str | None, tmp_path: Path) -> None:
    sql = PARENT + f"CREATE TABLE c ({columns}, FOREIGN KEY {references});\n"
    for target, expected in (("mariadb-10.11", mariadb), ("mysql-8.4", mysql84), ("mysql-8.0", mysql80)):
        result = found(sql, tmp_path, target)
        assert [f.severity for f in result] == ([expected] if expected else []), (target, result)
        if expected:
            assert "ADD UNIQUE KEY" in (result[0].fix or "") and "HAVING COUNT(*) > 1" in result[0].message


def test_a_different_number_of_columns(tmp_path: Path) -> None:
    [finding] = found(PARENT + "CREATE TABLE c (x INT, y INT, FOREIGN KEY (x, y) REFERENCES p (a));\n", tmp_path)
    assert "ERROR 1239" in finding.message


@pytest.mark.parametrize("sql", [  # (a parent that does not exist: test_a_foreign_key_to_a_table_that_does_not_exist)
    "CREATE TABLE p (id INT PRIMARY KEY) ENGINE=MyISAM; CREATE TABLE c (x BIGINT, FOREIGN KEY (x) REFERENCES p (id));",
    "CREATE TABLE p (id INT PRIMARY KEY); CREATE TABLE c (x BIGINT, FOREIGN KEY (x) REFERENCES p (id)) ENGINE=MyISAM;",
])
def test_only_when_both_tables_are_innodb(sql: str, tmp_path: Path) -> None:
    assert found(sql, tmp_path) == []


# -- fixes and blame -----------------------------------------------------------------------------------
def test_the_fix_keeps_the_column_and_the_constraint(tmp_path: Path) -> None:
    sql = ("CREATE DATABASE shop; USE shop;\n"
           "CREATE TABLE customer (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY);\n"
           "CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL DEFAULT 0 COMMENT 'buyer',\n"
           "  CONSTRAINT fk_buyer FOREIGN KEY (customer_id) REFERENCES customer (id) ON DELETE CASCADE ON UPDATE SET NULL);\n")
    [finding] = found(sql, tmp_path)
    assert finding.fix == (
        "ALTER TABLE `shop`.`orders` DROP FOREIGN KEY `fk_buyer`;\n"
        "ALTER TABLE `shop`.`orders` MODIFY COLUMN `customer_id` BIGINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'buyer', "
        "ADD CONSTRAINT `fk_buyer` FOREIGN KEY (`customer_id`) REFERENCES `customer` (`id`) ON DELETE CASCADE "
        "ON UPDATE SET NULL;")


def test_a_self_reference_is_added_back_on_its_own(tmp_path: Path) -> None:
    sql = "CREATE TABLE node (id INT UNSIGNED PRIMARY KEY, parent INT, FOREIGN KEY (parent) REFERENCES node (id));"
    [finding] = found(sql, tmp_path)
    assert finding.fix == ("ALTER TABLE `node` DROP FOREIGN KEY `node_ibfk_1`;\n"
                           "ALTER TABLE `node` MODIFY COLUMN `parent` INT UNSIGNED NULL;\n"
                           "ALTER TABLE `node` ADD CONSTRAINT `node_ibfk_1` FOREIGN KEY (`parent`) REFERENCES `node` (`id`);")


def test_columns_that_reference_the_changed_column_change_with_it(tmp_path: Path) -> None:
    """The corpus's ambari case: widening viewinstance.view_name to its parent's length must widen
    viewentity.view_name, which references it, or the servers refuse (ERROR 1833)."""
    sql = ("CREATE TABLE viewmain (view_name VARCHAR(255) NOT NULL PRIMARY KEY);\n"
           "CREATE TABLE viewinstance (view_name VARCHAR(100) NOT NULL, name VARCHAR(100) NOT NULL, "
           "PRIMARY KEY (view_name, name), CONSTRAINT fk_vi FOREIGN KEY (view_name) REFERENCES viewmain (view_name));\n"
           "CREATE TABLE viewentity (id INT PRIMARY KEY, view_name VARCHAR(100) NOT NULL, instance VARCHAR(100) NOT NULL, "
           "CONSTRAINT fk_ve FOREIGN KEY (view_name, instance) REFERENCES viewinstance (view_name, name) ON DELETE CASCADE);\n")
    [finding] = [f for f in found(sql, tmp_path) if f.table == "viewinstance"]
    assert "viewentity.view_name" in finding.message
    assert finding.fix == (
        "ALTER TABLE `viewinstance` DROP FOREIGN KEY `fk_vi`;\n"
        "ALTER TABLE `viewentity` DROP FOREIGN KEY `fk_ve`;\n"
        "ALTER TABLE `viewinstance` MODIFY COLUMN `view_name` VARCHAR(255) NOT NULL, ADD CONSTRAINT `fk_vi` FOREIGN KEY "
        "(`view_name`) REFERENCES `viewmain` (`view_name`);\n"
        "ALTER TABLE `viewentity` MODIFY COLUMN `view_name` VARCHAR(255) NOT NULL, ADD CONSTRAINT `fk_ve` FOREIGN KEY "
        "(`view_name`, `instance`) REFERENCES `viewinstance` (`view_name`, `name`) ON DELETE CASCADE;")


def test_the_finding_sits_on_the_statement_that_made_the_mismatch(tmp_path: Path) -> None:
    history = tmp_path / "db"
    history.mkdir()
    (history / "V1__users.sql").write_text("CREATE TABLE users (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY);\n")
    (history / "V2__posts.sql").write_text("CREATE TABLE posts (id INT PRIMARY KEY, user_id INT);\n")
    (history / "V10__fk.sql").write_text("-- link posts to users\n\nALTER TABLE posts\n  ADD CONSTRAINT fk_user "
                                         "FOREIGN KEY (user_id) REFERENCES users (id);\n")
    (history / "V11__widen.sql").write_text("ALTER TABLE users MODIFY id BIGINT NOT NULL AUTO_INCREMENT;\n")
    from linter.rules.checkapi import CheckContext
    from linter.engine import lint_paths
    from linter.schema.target import Target

    report = lint_paths([str(history)], CheckContext(target=Target.parse("mariadb-10.11")))
    [finding] = findings(report, RULE)
    assert Path(finding.path).name == "V11__widen.sql" and finding.line == 1
    (history / "V11__widen.sql").unlink()
    assert findings(lint_paths([str(history)], CheckContext(target=Target.parse("mariadb-10.11"))), RULE) == []


# -- MariaDB as the oracle ---------------------------------------------------------------------------
TYPES = [
    "TINYINT", "TINYINT UNSIGNED", "SMALLINT", "INT", "INT UNSIGNED", "INT(10) UNSIGNED ZEROFILL", "BIGINT",
    "BIGINT UNSIGNED", "MEDIUMINT", "YEAR", "DECIMAL(10,2)", "DECIMAL(12,2)", "DECIMAL(10,3)", "FLOAT", "DOUBLE",
    "CHAR(10)", "VARCHAR(10)", "VARCHAR(20)", "VARCHAR(10) CHARACTER SET utf8mb4",
    "VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", "VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
    "VARCHAR(10) CHARACTER SET utf8mb3", "VARCHAR(10) CHARACTER SET ascii", "CHAR(10) BINARY",
    "VARCHAR(10) COLLATE latin1_bin", "BINARY(16)", "VARBINARY(16)", "VARBINARY(32)", "DATE", "DATETIME",
    "DATETIME(3)", "TIMESTAMP", "TIME", "BIT(8)", "ENUM('a','b')", "ENUM('b','a','c')", "UUID", "INET6",
]
TABLE_CHARSETS = ["", "DEFAULT CHARSET=utf8mb4", "DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci",
                  "DEFAULT CHARSET=latin1"]


def test_what_the_rule_says_mariadb_refuses_is_what_it_refuses(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Random type pairs with random table charsets: each parent and child created on the test
    MariaDB (parent first, foreign_key_checks=1) and linted for mariadb-10.11. The rule says
    "refuses it" exactly when the server refused the CREATE."""
    import pymysql

    rng = random.Random(20)
    schema = "fk_oracle"
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    disagreements, refused, accepted = [], 0, 0
    cases = [(rng.choice(TYPES), rng.choice(TYPES), rng.choice(TABLE_CHARSETS), rng.choice(TABLE_CHARSETS))
             for _ in range(220)]
    cases += [(t, t, "", "") for t in TYPES[:5]]
    try:
        for n, (parent_type, child_type, parent_options, child_options) in enumerate(cases):
            parent = f"CREATE TABLE p{n} (id {parent_type} NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB {parent_options}"
            child = (f"CREATE TABLE c{n} (x {child_type}, KEY (x), FOREIGN KEY (x) REFERENCES p{n} (id)) "
                     f"ENGINE=InnoDB {child_options}")
            mariadb.sql(parent, database=schema)
            try:
                mariadb.sql(child, database=schema)
                server_refused = False
                accepted += 1
            except pymysql.err.MySQLError as error:
                assert error.args[0] == 1005 and "errno: 150" in error.args[1], error
                server_refused = True
                refused += 1
            result = found(f"{parent};\n{child};\n", tmp_path)
            says_refused = any("MariaDB 10.11 refuses it" in f.message and f.severity == "error" for f in result)
            if says_refused != server_refused:
                disagreements.append(f"{parent_type} [{parent_options}] <- {child_type} [{child_options}]: server "
                                     f"{'refused' if server_refused else 'accepted'}, innolint {[f.message for f in result]}")
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")
    assert disagreements == [], "\n".join(disagreements)
    assert refused > 50 and accepted > 30, (refused, accepted)


def test_what_the_rule_says_about_referenced_keys_is_what_mariadb_does(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import pymysql

    schema = "fk_keys_oracle"
    references = ["(a)", "(b)", "(a, b)", "(b, a)", "(c)", "(d)", "(e)", "(d, e)", "(v)", "(a, c)", "(c, a)", "(e, d)"]
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    disagreements = []
    try:
        mariadb.sql(PARENT, database=schema)
        for n, ref in enumerate(references):
            count = ref.count(",") + 1
            columns = ", ".join(f"x{i} {'VARCHAR(100)' if ref == '(v)' else 'INT'}" for i in range(count))
            child = f"CREATE TABLE c{n} ({columns}, FOREIGN KEY ({', '.join(f'x{i}' for i in range(count))}) REFERENCES p {ref})"
            try:
                mariadb.sql(child, database=schema)
                server_refused = False
            except pymysql.err.MySQLError:
                server_refused = True
            says = any("MariaDB 10.11 refuses it" in f.message for f in found(PARENT + child + ";\n", tmp_path))
            if says != server_refused:
                disagreements.append(f"p {ref}: server {'refused' if server_refused else 'accepted'}")
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")
    assert disagreements == [], disagreements


def test_a_dump_loads_a_mismatched_key_and_then_every_insert_fails(mariadb) -> None:  # type: ignore[no-untyped-def]
    """What the message says of dumps: the child first with foreign_key_checks=0 (mysqldump's way)
    is accepted, and inserting a child of an existing parent then fails with ERROR 1452."""
    import pymysql

    schema = "fk_dump"
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    try:
        mariadb.sql("SET foreign_key_checks = 0; CREATE TABLE c (x BIGINT, KEY (x), FOREIGN KEY (x) REFERENCES p (id)); "
                    "CREATE TABLE p (id INT PRIMARY KEY)", database=schema)
        mariadb.sql("INSERT INTO p VALUES (5)", database=schema)
        with pytest.raises(pymysql.err.MySQLError) as refused:
            mariadb.sql("INSERT INTO c VALUES (5)", database=schema)
        assert refused.value.args[0] == 1452
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")


# -- a parent the input never creates (issue 34) ----------------------------------------------------------
MISSING = [
    # (the input, the finding's table and the foreign key's own line, a near name the message offers)
    ("CREATE TABLE users (id INT PRIMARY KEY);\nCREATE TABLE orders (id INT PRIMARY KEY, user_id INT,\n"
     "  FOREIGN KEY (user_id) REFERENCES user (id));\n", ("orders", 3), "users"),
    ("SET FOREIGN_KEY_CHECKS=0;\nCREATE TABLE `order_item` (\n  `id` int NOT NULL,\n  `order_id` int DEFAULT NULL,\n"
     "  PRIMARY KEY (`id`),\n  KEY `o` (`order_id`),\n  CONSTRAINT `fk_o` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`)\n"
     ") ENGINE=InnoDB;\n", ("order_item", 7), None),
    ("CREATE TABLE a (id INT PRIMARY KEY, b_id INT REFERENCES b (id));\n", ("a", 1), None),
    ("CREATE TABLE a (id INT PRIMARY KEY, x INT);\nALTER TABLE a\n  ADD CONSTRAINT fx FOREIGN KEY (x) REFERENCES gone (id);\n",
     ("a", 3), None),
    ("CREATE TABLE p (id INT PRIMARY KEY);\nCREATE TABLE c (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES p (id));\n"
     "DROP TABLE p;\n", ("c", 2), None),
    ("CREATE DATABASE app;\nUSE app;\nCREATE TABLE c (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES app.parents (id));\n",
     ("c", 3), None),
]


@pytest.mark.parametrize(("sql", "where", "near"), MISSING)
@pytest.mark.parametrize("target", ["mariadb-10.11", "mysql-8.0", "mysql-5.7"])
def test_a_foreign_key_to_a_table_that_does_not_exist(sql: str, where: tuple[str, int], near: str | None, target: str,
                                                      tmp_path: Path) -> None:
    [finding] = found(sql, tmp_path, target)
    assert (finding.table, finding.line) == where and finding.severity == "error"
    assert "a table the input never creates" in finding.message and "ERROR 1452" in finding.message
    error = {"mariadb-10.11": "errno 150", "mysql-8.0": "ERROR 1824", "mysql-5.7": "ERROR 1215"}[target]
    assert error in finding.message
    assert ("Did you mean" in finding.message) == (near is not None)
    if near:
        assert f"Did you mean {near}?" in finding.message


@pytest.mark.parametrize("patterns", [["user"], ["USER"], ["us*"], ["shop.user"], ["*.user"]])
def test_a_parent_outside_the_input_by_configuration(tmp_path: Path, patterns: list[str]) -> None:
    sql = ("CREATE DATABASE shop;\nUSE shop;\nCREATE TABLE orders (id INT PRIMARY KEY, user_id INT,\n"
           "  FOREIGN KEY (user_id) REFERENCES user (id));\n")
    report = lint_sql(sql, tmp_path, target="mariadb-10.11", options={RULE: {"external_tables": patterns}})
    assert findings(report, RULE) == []
    other = lint_sql(sql, tmp_path, target="mariadb-10.11", options={RULE: {"external_tables": ["customers"]}})
    assert len(findings(other, RULE)) == 1


def test_a_database_the_input_never_names_is_outside_it(tmp_path: Path) -> None:
    sql = "CREATE TABLE orders (id INT PRIMARY KEY, user_id INT, FOREIGN KEY (user_id) REFERENCES auth.users (id));\n"
    assert found(sql, tmp_path) == []


def test_a_parent_whose_create_the_server_refuses(tmp_path: Path) -> None:
    sql = ("CREATE TABLE p (id INT PRIMARY KEY, a VARCHAR(2000), b VARCHAR(2000), KEY (a, b)) DEFAULT CHARSET=utf8mb4;\n"
           "CREATE TABLE c (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES p (id));\n")
    [finding] = found(sql, tmp_path, "mysql-8.0")
    assert "its CREATE TABLE is one the server refuses" in finding.message


def test_mariadb_refuses_it_and_with_checks_off_every_insert_fails(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import pymysql

    child = "CREATE TABLE c (id INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES nothere (id))"
    [finding] = found(child + ";\n", tmp_path)
    mariadb.sql("DROP DATABASE IF EXISTS fk_missing; CREATE DATABASE fk_missing")
    try:
        with pytest.raises(pymysql.err.MySQLError) as refused:
            mariadb.sql(child, "fk_missing")
        assert refused.value.args[0] == 1005 and "errno: 150" in refused.value.args[1]
        assert "errno 150" in finding.message
        mariadb.sql(f"SET SESSION foreign_key_checks=0; {child}", "fk_missing")
        mariadb.sql("INSERT INTO c VALUES (1, NULL)", "fk_missing")  # NULL references nothing: taken
        with pytest.raises(pymysql.err.MySQLError) as failed:
            mariadb.sql("INSERT INTO c VALUES (2, 7)", "fk_missing")
        assert failed.value.args[0] == 1452
    finally:
        mariadb.sql("DROP DATABASE IF EXISTS fk_missing")
