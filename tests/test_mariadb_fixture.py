"""The private MariaDB server fixture works as the other tests rely on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mariadb import MariaDB


def test_server_answers_with_its_version(mariadb: MariaDB) -> None:
    assert "MariaDB" in mariadb.version
    assert mariadb.sql("SELECT VERSION()") == [(mariadb.version,)]


def test_server_is_private_and_has_what_the_audit_reads(mariadb: MariaDB) -> None:
    rows = mariadb.sql("SELECT @@port, @@bind_address, @@performance_schema, @@default_storage_engine")
    assert rows == [(mariadb.port, "127.0.0.1", 1, "InnoDB")]


def test_sql_runs_a_script_and_returns_the_last_result(mariadb: MariaDB) -> None:
    rows = mariadb.sql("""
        CREATE DATABASE IF NOT EXISTS fixture_sql;
        CREATE OR REPLACE TABLE fixture_sql.t (id INT PRIMARY KEY, name VARCHAR(10));
        INSERT INTO fixture_sql.t VALUES (1, 'a'), (2, 'b');
        SELECT id, name FROM fixture_sql.t ORDER BY id;
        DO 1
    """)
    assert rows == [(1, "a"), (2, "b")]
    assert mariadb.sql("SELECT COUNT(*) FROM t", database="fixture_sql") == [(2,)]
    mariadb.sql("DROP DATABASE fixture_sql")


def test_load_file_understands_delimiter_and_counts_errors(mariadb: MariaDB, tmp_path: Path) -> None:
    dump = tmp_path / "dump.sql"
    dump.write_text("""
CREATE TABLE no_pk (a INT NOT NULL, b INT, UNIQUE KEY uk (a));
CREATE TABLE broken (a INT) THIS IS NOT SQL;
DELIMITER //
CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END //
DELIMITER ;
CREATE TABLE hidden (a INT);
""")
    assert mariadb.load_file(dump, "fixture_load") == 1
    tables = mariadb.sql("SELECT TABLE_NAME FROM information_schema.TABLES "
                         "WHERE TABLE_SCHEMA = 'fixture_load' ORDER BY 1")
    assert tables == [("hidden",), ("no_pk",)]
    assert mariadb.sql("SELECT COUNT(*) FROM information_schema.ROUTINES "
                       "WHERE ROUTINE_SCHEMA = 'fixture_load'") == [(1,)]
    mariadb.sql("DROP DATABASE fixture_load")


def test_tests_using_the_server_are_marked(request: pytest.FixtureRequest, mariadb: MariaDB) -> None:
    assert request.node.get_closest_marker("mariadb") is not None
