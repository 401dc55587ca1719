"""wide-primary-key: the clustered key's bytes for the table's character sets, what each secondary
index copies of it, the surrogate-key fix with its trade, and the keys that must stay (link tables,
child tables clustered by their parent). On MariaDB: the fix runs, and the secondary index it was
about really shrinks (InnoDB's own page counts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.rules.checkapi import TableStats
from linter.rules.findings import Finding
from tests.helpers import clean_findings, findings, lint_sql

RULE = "wide-primary-key"


def found(sql: str, tmp_path: Path, target: str = "mariadb-10.11", **context: object) -> list[Finding]:
    return clean_findings(sql, tmp_path, RULE, target=target, **context)


@pytest.mark.parametrize(("key", "table_options", "width"), [
    ("email VARCHAR(255) NOT NULL", "DEFAULT CHARSET=utf8mb4", 1022),
    ("email VARCHAR(255) NOT NULL", "DEFAULT CHARSET=latin1", 256),
    ("code VARCHAR(40) CHARACTER SET utf8mb4 NOT NULL", "DEFAULT CHARSET=latin1", 161),
    ("name VARCHAR(64) NOT NULL", "DEFAULT CHARSET=utf8mb3", 193),
    ("`Key` CHAR(50) NOT NULL", "DEFAULT CHARSET=utf8mb4", 201),
    ("h VARBINARY(200) NOT NULL", "", 201),
])
def test_the_width_follows_the_character_set(key: str, table_options: str, width: int, tmp_path: Path) -> None:
    name = key.split()[0]
    sql = f"CREATE TABLE t ({key}, a INT, b DATE, PRIMARY KEY ({name}), KEY (a), KEY (b)) {table_options};"
    [finding] = found(sql, tmp_path)
    assert f"up to {width:,} bytes" in finding.message
    assert f"up to {2 * width:,} bytes of it per row" in finding.message
    assert finding.fix and f"ADD UNIQUE KEY ({name if name.startswith('`') else f'`{name}`'})" in finding.fix


def test_the_server_default_decides_without_a_charset(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (code VARCHAR(30) NOT NULL PRIMARY KEY, a INT, KEY (a));"
    assert found(sql, tmp_path, "mariadb-10.11") == []  # latin1 by default: 31 bytes
    [mysql] = found(sql, tmp_path, "mysql-8.0")  # utf8mb4 by default: 121 bytes
    assert "up to 121 bytes" in mysql.message


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t (id BIGINT PRIMARY KEY, a VARCHAR(255), KEY (a)) DEFAULT CHARSET=utf8mb4;",  # narrow
    "CREATE TABLE t (email VARCHAR(255) NOT NULL PRIMARY KEY, n INT) DEFAULT CHARSET=utf8mb4;",  # no secondary index
    "CREATE TABLE t (email VARCHAR(255) NOT NULL PRIMARY KEY, body TEXT, FULLTEXT KEY (body)) DEFAULT CHARSET=utf8mb4;",
    "CREATE TABLE t (email VARCHAR(255) NOT NULL PRIMARY KEY, n INT, KEY (email, n)) DEFAULT CHARSET=utf8mb4;",  # holds it
    "CREATE TABLE t (a VARCHAR(255), b INT, KEY (a), KEY (b)) DEFAULT CHARSET=utf8mb4;",  # the hidden row id: 6 bytes
    "CREATE TABLE t (email VARCHAR(255) NOT NULL PRIMARY KEY, n INT, KEY (n)) ENGINE=MyISAM DEFAULT CHARSET=latin1;",  # utf8mb4: over MyISAM's 1,000 bytes
])
def test_no_finding(sql: str, tmp_path: Path) -> None:
    assert found(sql, tmp_path) == []


def test_an_index_that_holds_part_of_the_key_copies_the_rest(tmp_path: Path) -> None:
    sql = ("CREATE TABLE t (tenant CHAR(20) NOT NULL, email VARCHAR(200) NOT NULL, n INT, PRIMARY KEY (tenant, email), "
           "KEY (n), KEY (tenant, n), KEY (email(10))) DEFAULT CHARSET=utf8mb4;")
    [finding] = found(sql, tmp_path)
    # the whole key 81 + 802; (tenant, n) copies email only; email(10) is a prefix: the whole email is appended
    assert "`n` 883, `tenant` 802, `email` 883" in finding.message


def test_clustered_on_a_unique_key(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (code VARCHAR(100) NOT NULL, a INT, UNIQUE KEY uq (code), KEY (a)) DEFAULT CHARSET=utf8mb4;"
    [finding] = found(sql, tmp_path)
    assert "UNIQUE key `uq` (it has no PRIMARY KEY)" in finding.message
    assert finding.fix == "ALTER TABLE `t` ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE FIRST, " \
                          "ADD PRIMARY KEY (`id`);"


@pytest.mark.parametrize(("target", "invisible"), [("mysql-8.0", True), ("mariadb-10.6", True), ("mysql-5.7", False)])
def test_the_fix_and_the_trade(target: str, invisible: bool, tmp_path: Path) -> None:
    sql = ("CREATE TABLE account (id VARCHAR(80) NOT NULL, email VARCHAR(255), PRIMARY KEY (id), KEY (email)) "
           "DEFAULT CHARSET=utf8mb4;")
    [finding] = found(sql, tmp_path, target)
    assert finding.fix == ("ALTER TABLE `account` DROP PRIMARY KEY, ADD COLUMN `row_id` BIGINT UNSIGNED NOT NULL "
                           f"AUTO_INCREMENT{' INVISIBLE' if invisible else ''} FIRST, ADD PRIMARY KEY (`row_id`), "
                           "ADD UNIQUE KEY (`id`);")
    assert "one more B-tree descent" in finding.message and "insertion order" in finding.message


def test_an_auto_increment_column_becomes_the_key_and_partitioning_columns_join_it(tmp_path: Path) -> None:
    sql = ("CREATE TABLE ev (region VARCHAR(60) NOT NULL, n BIGINT NOT NULL AUTO_INCREMENT, t INT, "
           "PRIMARY KEY (region, n), KEY (n), KEY (t)) DEFAULT CHARSET=utf8mb4 PARTITION BY KEY (region) PARTITIONS 4;")
    [finding] = found(sql, tmp_path)
    assert finding.fix == "ALTER TABLE `ev` DROP PRIMARY KEY, ADD PRIMARY KEY (`n`, `region`), ADD UNIQUE KEY (`region`, `n`);"


@pytest.mark.parametrize("sql", [
    # names matched to tables
    ("CREATE TABLE users (id CHAR(40) PRIMARY KEY); CREATE TABLE roles (id CHAR(40) PRIMARY KEY); "
     "CREATE TABLE user_roles (user_id VARCHAR(40) NOT NULL, role_id VARCHAR(40) NOT NULL, "
     "PRIMARY KEY (user_id, role_id), KEY (role_id)) DEFAULT CHARSET=utf8mb4"),
    # foreign keys
    ("CREATE TABLE a (k VARCHAR(60) PRIMARY KEY); CREATE TABLE b (k VARCHAR(60) PRIMARY KEY); "
     "CREATE TABLE ab (x VARCHAR(60) NOT NULL, y VARCHAR(60) NOT NULL, PRIMARY KEY (x, y), KEY (y), "
     "FOREIGN KEY (x) REFERENCES a (k), FOREIGN KEY (y) REFERENCES b (k)) DEFAULT CHARSET=utf8mb4"),
    # what link-table-primary-key's fix leaves: a soft-delete stamp in the key, the old id kept with a key of its own
    ("CREATE TABLE Users (Id INT PRIMARY KEY); CREATE TABLE App (Id INT PRIMARY KEY); "
     "CREATE TABLE Favorite (Id INT UNSIGNED NOT NULL AUTO_INCREMENT, UserId VARCHAR(64) NOT NULL, "
     "AppId VARCHAR(64) NOT NULL, DeletedAt BIGINT NOT NULL DEFAULT 0, LastTime TIMESTAMP NULL, "
     "PRIMARY KEY (UserId, AppId, DeletedAt), KEY (AppId), KEY (LastTime), KEY (Id)) DEFAULT CHARSET=utf8mb4"),
])
def test_a_link_table_clustered_on_its_pair_is_left_alone(sql: str, tmp_path: Path) -> None:
    """The pair clustered is what a link table looked up by one side wants: no surrogate advice (which
    link-table-primary-key would then undo); its own finding weighs the width when it proposes the pair."""
    assert found(sql, tmp_path) == []


def test_a_child_table_clustered_by_its_parent_keeps_its_key(tmp_path: Path) -> None:
    sql = ("CREATE TABLE orders (id INT PRIMARY KEY); CREATE TABLE order_note (order_id INT NOT NULL, "
           "note_key VARCHAR(100) NOT NULL, body TEXT, created DATE, PRIMARY KEY (order_id, note_key), KEY (created)) "
           "DEFAULT CHARSET=utf8mb4")
    [finding] = found(sql, tmp_path)
    assert finding.severity == "info" and finding.fix is None and "a reference to another table" in finding.message


def test_a_composite_key_that_is_no_link_identity_still_gets_the_surrogate(tmp_path: Path) -> None:
    """Clustered by a date first, or a log unique by its time: no link's identity, the usual advice."""
    for sql in (("CREATE TABLE admin (admin_name VARCHAR(44) PRIMARY KEY); CREATE TABLE expired_tokens (admin_name "
                 "VARCHAR(44) NOT NULL, otp_code VARCHAR(32) NOT NULL, used_date TIMESTAMP NOT NULL, PRIMARY KEY "
                 "(used_date, otp_code, admin_name), KEY (admin_name, otp_code), KEY (otp_code)) DEFAULT CHARSET=utf8mb4"),
                ("CREATE TABLE users (id INT PRIMARY KEY); CREATE TABLE user_log (username VARCHAR(50) NOT NULL, "
                 "user_id INT NOT NULL, time TIMESTAMP NOT NULL, result TINYINT, PRIMARY KEY (username, user_id, time), "
                 "KEY (user_id), KEY (result)) DEFAULT CHARSET=utf8mb4")):
        [finding] = found(sql, tmp_path)
        assert finding.severity == "warning" and finding.fix and "ADD PRIMARY KEY (`id`)" in finding.fix


def test_random_uuid_keys_are_left_to_uuid_primary_key(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (id CHAR(36) NOT NULL PRIMARY KEY, n INT, KEY (n)) DEFAULT CHARSET=utf8mb4;"
    report = lint_sql(sql, tmp_path, target="mariadb-10.11")
    assert findings(report, RULE) == [] and findings(report, "uuid-primary-key")
    options = {"uuid-primary-key": {"time_ordered_columns": ["id"]}}  # time-ordered: not uuid's, so ours
    assert found(sql, tmp_path, options=options)


def test_options_and_stats(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (code CHAR(20) NOT NULL PRIMARY KEY, a INT, KEY (a)) DEFAULT CHARSET=utf8mb4;"  # 81 bytes
    assert found(sql, tmp_path) == []
    [finding] = found(sql, tmp_path, options={RULE: {"max_key_bytes": 40}},
                      stats={"t": TableStats(rows=10_000_000, index_length=2 << 30)})
    assert "At ~10,000,000 rows that is up to 772.5 MiB of secondary index space (the indexes take 2.0 GiB now)" \
        in finding.message


def test_the_finding_sits_on_the_statement_that_made_it_worse(tmp_path: Path) -> None:
    history = tmp_path / "db"
    history.mkdir()
    (history / "V1__t.sql").write_text("CREATE TABLE t (code VARCHAR(200) NOT NULL PRIMARY KEY, a INT) "
                                       "DEFAULT CHARSET=utf8mb4;\n")
    (history / "V2__index.sql").write_text("\nCREATE INDEX t_a ON t (a);\n")
    from linter.rules.checkapi import CheckContext
    from linter.engine import lint_paths

    [finding] = findings(lint_paths([str(history)], CheckContext()), RULE)
    assert Path(finding.path).name == "V2__index.sql" and finding.line == 2


def test_the_copies_shrink_on_mariadb(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The claim measured: InnoDB's page count of a secondary index (mysql.innodb_index_stats) on
    a table keyed by 200-character utf8mb4 values, before and after the fix."""
    schema = "wide_pk"
    ddl = ("CREATE TABLE member (email VARCHAR(255) NOT NULL, n INT NOT NULL, PRIMARY KEY (email), KEY by_n (n)) "
           "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 STATS_PERSISTENT=1")
    [finding] = found(ddl + ";", tmp_path)
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    try:
        mariadb.sql(ddl, database=schema)
        mariadb.sql("INSERT INTO member SELECT CONCAT(LPAD(seq, 10, '0'), REPEAT('x', 190)), seq FROM seq_1_to_4000",
                    database=schema)

        def pages() -> int:
            mariadb.sql("ANALYZE TABLE member", database=schema)
            return int(mariadb.sql("SELECT stat_value FROM mysql.innodb_index_stats WHERE database_name = %r AND "
                                   "table_name = 'member' AND index_name = 'by_n' AND stat_name = 'size'" % schema)[0][0])

        before = pages()
        mariadb.sql(finding.fix, database=schema)
        mariadb.sql("OPTIMIZE TABLE member", database=schema)
        after = pages()
        assert after * 8 < before, (before, after)
        show = mariadb.sql(f"SHOW CREATE TABLE {schema}.member")[0][1]
        assert "UNIQUE KEY `email` (`email`)" in show and "PRIMARY KEY (`id`)" in show
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")
