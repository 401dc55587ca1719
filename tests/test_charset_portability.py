"""charset-portability: each MariaDB claim loaded into the test MariaDB (utf8mb3 refuses emoji,
MySQL's collations are unknown there, a table without a character set is latin1 there), each fix
run there and linted again; the per-target decisions for the named targets; and no finding for
what a dump states explicitly."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from linter.rules.findings import Finding
from tests.ddl_outcome import TableDDL, run
from tests.complexity import assert_linear
from tests.helpers import findings, lint_sql
from tests.mariadb import MariaDB

RULE = "charset-portability"
TARGET = "mariadb-10.11"
BOTH = {RULE: {"targets": ["mysql-8.0", "mariadb-10.11"]}}
EMOJI = "ok \U0001F600"


def lint(sql: str, tmp_path: Path, target: str = TARGET, **options: object) -> list[Finding]:
    context = {"options": options} if options else {}
    return findings(lint_sql(sql + ";\n", tmp_path, target=target, **context), RULE)  # type: ignore[arg-type]


def insert_emoji(server: MariaDB, database: str, column: str = "a") -> int:
    """0 when the 4-byte character is stored, else the server's error number."""
    import pymysql

    connection = server.connect(database)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO t (id, `{column}`) VALUES (7, %s)", (EMOJI,))
        return 0
    except pymysql.err.MySQLError as error:
        return int(error.args[0])
    finally:
        connection.close()


# --- utf8mb3 -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("columns", "options", "collation"), [
    ({"a": "VARCHAR(50)", "b": "TEXT"}, "DEFAULT CHARSET=utf8", "utf8mb4_general_ci"),
    ({"a": "VARCHAR(50)", "b": "CHAR(3)"}, "DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_bin", "utf8mb4_bin"),
    ({"a": "VARCHAR(50)", "b": "ENUM('x','y')"}, "CHARSET utf8 COLLATE utf8_unicode_ci", "utf8mb4_unicode_ci"),
    ({"a": "VARCHAR(50) CHARACTER SET utf8", "b": "VARCHAR(10)"}, "DEFAULT CHARSET=latin1", "utf8mb4_general_ci"),
    ({"a": "TEXT COLLATE utf8_spanish_ci", "b": "INT"}, "DEFAULT CHARSET=utf8mb4", "utf8mb4_spanish_ci"),
    ({"a": "NATIONAL VARCHAR(20)", "b": "VARCHAR(10) CHARACTER SET ascii"}, "DEFAULT CHARSET=latin1", "utf8mb4_general_ci"),
])
def test_utf8mb3_refuses_4_byte_characters_and_the_fix_takes_them(
        server: MariaDB, columns: dict[str, str], options: str, collation: str, tmp_path: Path) -> None:
    ddl = TableDDL("t", {"id": "INT NOT NULL", **columns}, {"PRIMARY": "PRIMARY KEY (`id`)"}, options)
    found = lint(ddl.sql(), tmp_path)
    assert [(f.severity, f.subject) for f in found] == [("warning", "utf8mb3")], found
    assert "ERROR 1366 (22007): Incorrect string value" in found[0].message
    assert "deprecated" not in found[0].message and "deprecated" in lint(ddl.sql(), tmp_path, "mysql-8.0")[0].message
    assert run(server, "cp_utf8", [ddl.sql()]).ok
    assert insert_emoji(server, "cp_utf8") == 1366  # as the finding says
    fix = found[0].fix or ""
    assert f"utf8mb4 COLLATE {collation}" in fix
    made = run(server, "cp_utf8", [ddl.sql(), fix], table="t")
    assert made.ok, (fix, made)
    assert insert_emoji(server, "cp_utf8") == 0
    assert lint(made.tables["t"], tmp_path) == []
    # what the fix was not meant to change: another character set's column stays as it was
    if "ascii" in str(columns) or "latin1" in options:
        assert "CONVERT TO" not in fix
        (kept,) = server.sql("SELECT CHARACTER_SET_NAME FROM information_schema.COLUMNS "
                             "WHERE TABLE_SCHEMA = 'cp_utf8' AND COLUMN_NAME = 'b'")
        assert kept[0] in ("latin1", "ascii")


def test_schema_level_utf8mb3(tmp_path: Path) -> None:
    sql = ("CREATE DATABASE d CHARACTER SET utf8; USE d;\nCREATE TABLE t (id INT PRIMARY KEY, a TEXT);\n"
           "CREATE TABLE u (id INT PRIMARY KEY, a TEXT) CHARSET utf8mb4;\nCREATE TABLE v (id INT PRIMARY KEY);\n")
    found = lint(sql, tmp_path)
    # u names utf8mb4; v holds no text yet, but the next text column added to it takes the schema's utf8mb3
    assert [(f.table, f.subject) for f in found] == [("t", "utf8mb3"), ("v", "utf8mb3-default")]
    assert "the schema's default" in (found[0].evidence or "")
    assert "ALTER DATABASE `d` CHARACTER SET utf8mb4" in found[1].message


# a table whose default is utf8mb3 with no utf8mb3 text column yet (issue 34): latent, the next ADD COLUMN is utf8mb3
LATENT = [
    ({"id": "INT NOT NULL", "n": "BIGINT"}, "DEFAULT CHARSET=utf8", "utf8mb4_general_ci"),
    ({"id": "INT NOT NULL", "d": "DATETIME", "b": "BLOB"}, "CHARSET=utf8mb3 COLLATE=utf8mb3_unicode_ci", "utf8mb4_unicode_ci"),
    ({"id": "INT NOT NULL", "a": "VARCHAR(20) CHARACTER SET latin1"}, "DEFAULT CHARACTER SET utf8 COLLATE utf8_bin", "utf8mb4_bin"),
    ({"id": "INT NOT NULL", "a": "TEXT CHARACTER SET utf8mb4"}, "ENGINE=InnoDB DEFAULT CHARSET=utf8", "utf8mb4_general_ci"),
]


@pytest.mark.parametrize(("columns", "options", "collation"), LATENT)
def test_a_utf8mb3_default_without_text_in_it_yet(server: MariaDB, columns: dict[str, str], options: str,
                                                  collation: str, tmp_path: Path) -> None:
    ddl = TableDDL("t", columns, {"PRIMARY": "PRIMARY KEY (`id`)"}, options)
    [found] = lint(ddl.sql(), tmp_path)
    assert (found.severity, found.subject) == ("warning", "utf8mb3-default")
    assert found.fix == f"ALTER TABLE `t` DEFAULT CHARACTER SET utf8mb4 COLLATE {collation};"
    added = "ALTER TABLE t ADD COLUMN later VARCHAR(20)"
    assert run(server, "cp_latent", [ddl.sql(), added]).ok
    assert insert_emoji(server, "cp_latent", "later") == 1366  # what the finding foresees
    made = run(server, "cp_latent", [ddl.sql(), found.fix, added], table="t")
    assert made.ok and insert_emoji(server, "cp_latent", "later") == 0
    assert lint(made.tables["t"], tmp_path) == []


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t (id INT PRIMARY KEY, n INT) DEFAULT CHARSET=utf8mb4",
    "CREATE TABLE t (id INT PRIMARY KEY, n INT) DEFAULT CHARSET=latin1",
    "CREATE TABLE t (id INT PRIMARY KEY, a TEXT) DEFAULT CHARSET=utf8",  # the utf8mb3 finding says it (one per table)
])
def test_no_latent_finding_beside_utf8mb3_text_or_another_default(sql: str, tmp_path: Path) -> None:
    assert "utf8mb3-default" not in {f.subject for f in lint(sql, tmp_path)}


def test_a_conversion_that_needs_dynamic_rows(server: MariaDB, tmp_path: Path) -> None:
    """A UNIQUE VARCHAR(255) in utf8mb3 is 765 bytes, under COMPACT's 767; in utf8mb4 1,020 is not:
    the plain conversion is refused (ERROR 1709), the fix adds ROW_FORMAT=DYNAMIC."""
    ddl = TableDDL("t", {"id": "INT NOT NULL", "a": "VARCHAR(255)"},
                   {"PRIMARY": "PRIMARY KEY (`id`)", "a": "UNIQUE KEY `a` (`a`)"}, "CHARSET=utf8 ROW_FORMAT=COMPACT")
    found = lint(ddl.sql(), tmp_path)
    assert found[0].fix == "ALTER TABLE `t` CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci, ROW_FORMAT=DYNAMIC;"
    plain = run(server, "cp_dyn", [ddl.sql(), "ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4"])
    assert not plain.ok and plain.code == 1709
    made = run(server, "cp_dyn", [ddl.sql(), found[0].fix], table="t")
    assert made.ok and lint(made.tables["t"], tmp_path) == []


def test_a_conversion_the_server_refuses_gets_no_fix(server: MariaDB, tmp_path: Path) -> None:
    """VARCHAR(20000) utf8mb3 (60,000 bytes) cannot be utf8mb4 (80,000): MariaDB refuses the
    conversion (ERROR 1074); the finding says why instead of a fix that fails."""
    ddl = TableDDL("t", {"id": "INT NOT NULL", "a": "VARCHAR(20000)"}, {"PRIMARY": "PRIMARY KEY (`id`)"}, "CHARSET=utf8")
    found = lint(ddl.sql(), tmp_path)
    assert found[0].fix is None and "Converting it would not load" in found[0].message and "ERROR 1074" in found[0].message
    refused = run(server, "cp_refused", [ddl.sql(), "ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4"])
    assert not refused.ok and refused.code == 1074


def test_columns_a_foreign_key_joins_get_no_conversion(server: MariaDB, tmp_path: Path) -> None:
    """MariaDB refuses to change the character set of a column a foreign key joins, on either side
    and even with foreign_key_checks=0 (ERROR 1832/1833): the finding says what to do instead."""
    parent = "CREATE TABLE p (code VARCHAR(20) NOT NULL PRIMARY KEY, note TEXT) CHARSET=utf8"
    child = ("CREATE TABLE c (id INT PRIMARY KEY, code VARCHAR(20), FOREIGN KEY (code) REFERENCES p (code)) "
             "CHARSET=utf8")
    found = {f.table: f for f in lint(parent + ";\n" + child, tmp_path)}
    assert set(found) == {"p", "c"}
    for finding in found.values():
        assert finding.fix is None and "drop those foreign keys, convert every table they join" in finding.message
    for table, code in (("c", 1832), ("p", 1833)):
        refused = run(server, "cp_fk", [parent, child, "SET SESSION foreign_key_checks=0",
                                        f"ALTER TABLE {table} CONVERT TO CHARACTER SET utf8mb4"])
        assert not refused.ok and refused.code == code, refused
    # a table whose joined columns are not text converts as usual
    other = ("CREATE TABLE o (id INT PRIMARY KEY, pid INT, body TEXT, FOREIGN KEY (pid) REFERENCES o (id)) "
             "CHARSET=utf8")
    assert lint(other, tmp_path)[0].fix == "ALTER TABLE `o` CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;"
    assert run(server, "cp_fk", [other, lint(other, tmp_path)[0].fix or ""]).ok


# --- collations and character sets a target does not have -----------------------------------------

@pytest.mark.parametrize("where", ["table", "column"])
@pytest.mark.parametrize("collation", ["utf8mb4_0900_ai_ci", "utf8mb4_0900_as_cs", "utf8mb4_0900_bin"])
def test_mysql_collations_on_mariadb(server: MariaDB, collation: str, where: str, tmp_path: Path) -> None:
    columns = {"id": "INT NOT NULL", "a": "VARCHAR(20)" + (f" COLLATE {collation}" if where == "column" else "")}
    ddl = TableDDL("t", columns, {"PRIMARY": "PRIMARY KEY (`id`)"},
                   "DEFAULT CHARSET=utf8mb4" + (f" COLLATE={collation}" if where == "table" else ""))
    found = [f for f in lint(ddl.sql(), tmp_path) if f.subject == "unknown-collation"]
    refused = run(server, "cp_coll", [ddl.sql()])
    assert not refused.ok and refused.code == 1273
    assert [f.severity for f in found] == ["error"] and f"ERROR 1273 (HY000): {refused.message}" in found[0].message
    assert lint(ddl.sql(), tmp_path, "mysql-8.0") == []  # MySQL 8.0's own
    assert [f.severity for f in lint(ddl.sql(), tmp_path, "mysql-5.7") if f.subject == "unknown-collation"] == ["error"]
    assert [f.severity for f in lint(ddl.sql(), tmp_path, "mariadb-11.x")] == ["warning"]  # 11.4.5+: an alias
    fixed = ddl.with_fix(found[0].fix or "")
    made = run(server, "cp_coll", [fixed.sql()], table="t")
    assert made.ok and lint(made.tables["t"], tmp_path) == []


def test_mariadb_collations_on_mysql(server: MariaDB, tmp_path: Path) -> None:
    """MariaDB's uca1400 and NO PAD collations load on MariaDB 10.11 (the server's list is checked
    whole in test_innodb_sizes) and are errors for a MySQL target or MariaDB 10.6."""
    for collation in ("utf8mb4_uca1400_ai_ci", "utf8mb4_unicode_nopad_ci", "utf8mb4_general_nopad_ci"):
        ddl = TableDDL("t", {"id": "INT NOT NULL", "a": "TEXT"}, {"PRIMARY": "PRIMARY KEY (`id`)"},
                       f"DEFAULT CHARSET=utf8mb4 COLLATE={collation}")
        assert run(server, "cp_maria", [ddl.sql()]).ok
        assert lint(ddl.sql(), tmp_path) == []
        for target in ("mysql-8.0", "mysql-5.7", "percona-8.0"):
            assert [f.severity for f in lint(ddl.sql(), tmp_path, target)] == ["error"]
        both = lint(ddl.sql(), tmp_path, TARGET, **BOTH)
        assert [f.subject for f in both] == ["unknown-collation"] and "MySQL 8.0" in both[0].message


# --- character sets left to the server's default ---------------------------------------------------

def test_a_table_without_a_character_set_differs_between_the_targets(server: MariaDB, tmp_path: Path) -> None:
    ddl = TableDDL("t", {"id": "INT NOT NULL", "a": "VARCHAR(100)", "b": "TEXT"}, {"PRIMARY": "PRIMARY KEY (`id`)"})
    assert lint(ddl.sql(), tmp_path) == []  # one target: its default is what the table gets
    found = lint(ddl.sql(), tmp_path, TARGET, **BOTH)
    assert [(f.severity, f.subject) for f in found] == [("warning", "implicit-charset")]
    assert "MySQL 8.0: utf8mb4 (utf8mb4_0900_ai_ci)" in found[0].message
    assert "MariaDB 10.11: latin1 (latin1_swedish_ci)" in found[0].message
    made = run(server, "cp_implicit", [ddl.sql()], table="t")
    assert made.ok and "DEFAULT CHARSET=latin1" in made.tables["t"]  # MariaDB's side, on the server
    # the configured target's utf8mb4 collation when every target has it, else one they all have
    assert found[0].fix == "ALTER TABLE `t` CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;"
    from_mysql = lint(ddl.sql(), tmp_path, "mysql-8.0", **{RULE: {"targets": ["mariadb-10.11"]}})
    assert from_mysql[0].fix == "ALTER TABLE `t` CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci;"
    for fix in (found[0].fix, from_mysql[0].fix):
        fixed = run(server, "cp_implicit", [ddl.sql(), fix], table="t")
        assert fixed.ok and lint(fixed.tables["t"], tmp_path, TARGET, **BOTH) == []
    # MariaDB 11.x alone: 11.0-11.5 latin1, 11.6+ utf8mb4
    assert [f.subject for f in lint(ddl.sql(), tmp_path, "mariadb-11.x")] == ["implicit-charset"]


@pytest.mark.parametrize("sql", [
    "CREATE DATABASE d CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; USE d; CREATE TABLE t (id INT, a TEXT)",
    "CREATE TABLE t (id INT, a TEXT) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci",
    "CREATE TABLE t (id INT, a TEXT CHARACTER SET latin1 COLLATE latin1_bin, b INT)",
    "CREATE TABLE t (id INT, b INT, c BLOB, d VARBINARY(10))",
    # mysqldump of a MySQL 8 server: every table states its character set and collation
    "/*!40101 SET character_set_client = utf8mb4 */;\nCREATE TABLE `t` (\n  `id` int NOT NULL,\n  `a` varchar(20) "
    "COLLATE utf8mb4_unicode_520_ci DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 "
    "COLLATE=utf8mb4_unicode_520_ci",
])
def test_what_the_ddl_states_is_not_flagged(sql: str, tmp_path: Path) -> None:
    assert lint(sql, tmp_path, TARGET, **BOTH) == []
    assert lint(sql, tmp_path, "mysql-8.0", **{RULE: {"targets": ["mysql-5.7", "mariadb-10.6"]}}) == []


def test_a_character_set_without_its_collation(tmp_path: Path) -> None:
    """utf8mb4 without COLLATE: utf8mb4_0900_ai_ci on MySQL 8, utf8mb4_general_ci on MariaDB 10.x."""
    sql = "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10)) DEFAULT CHARSET=utf8mb4"
    found = lint(sql, tmp_path, TARGET, **BOTH)
    assert [(f.severity, f.subject) for f in found] == [("info", "implicit-collation")]
    assert "utf8mb4_0900_ai_ci" in found[0].message and "utf8mb4_general_ci" in found[0].message
    assert lint(sql, tmp_path, "mysql-8.0", **{RULE: {"targets": ["mysql-8.4", "percona-8.0"]}}) == []


def test_targets_come_from_the_configuration(tmp_path: Path) -> None:
    from linter.config.defaults import ConfigError
    from linter.config.settings import ConfigResolver
    from linter.engine import RunOptions, lint_paths

    (tmp_path / "t.sql").write_text("CREATE TABLE t (id INT PRIMARY KEY, a TEXT);\n")
    (tmp_path / ".innolint.toml").write_text(
        'target = "mariadb-10.11"\n[rules.charset-portability]\ntargets = ["mysql-8.0"]\n')
    report = lint_paths([str(tmp_path / "t.sql")], options=RunOptions(config=ConfigResolver()))
    assert [f.subject for f in report.findings if f.rule == RULE] == ["implicit-charset"]
    (tmp_path / ".innolint.toml").write_text('[rules.charset-portability]\ntargets = ["mysql-8.2"]\n')
    with pytest.raises(ConfigError, match="targets"):
        lint_paths([str(tmp_path / "t.sql")], options=RunOptions(config=ConfigResolver()))


def test_time_grows_linearly_with_the_columns(tmp_path: Path) -> None:
    """Half the text columns utf8mb3 in a latin1 table (a MODIFY each): 10x the columns take at most
    ~15x the time (tests/complexity.py)."""

    def linting(n: int) -> Callable[[], object]:
        columns = ", ".join(f"c{i} VARCHAR(2)" + (" CHARACTER SET utf8" if i % 2 else "") for i in range(n))
        sql = f"CREATE TABLE t (id INT PRIMARY KEY, {columns}) CHARSET latin1"

        def work() -> None:
            found = lint(sql, tmp_path, TARGET, **BOTH)
            assert [f.subject for f in found] == ["utf8mb3"] and found[0].fix

        return work

    assert_linear(linting, 90)
