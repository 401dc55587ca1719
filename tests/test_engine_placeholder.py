"""A template placeholder engine (`ENGINE=@ZM_MYSQL_ENGINE@`) is read as the InnoDB it stands for, by
the replay and every rule, and said once (issue 34: ZoneMinder's 48 tables were skipped by every
InnoDB check). The oracle: the same schema written with ENGINE=InnoDB gives the same findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import lint_sql

PLACEHOLDERS = ["@ZM_MYSQL_ENGINE@", "%ENGINE%", "{$engine}", "${DB_ENGINE}", "$engine"]

#: tables that give findings of most rules when InnoDB
SCHEMA = """CREATE TABLE users (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100)) ENGINE={e};
CREATE TABLE `groups` (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100)) ENGINE={e};
CREATE TABLE user_groups (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id INT UNSIGNED NOT NULL,
  group_id INT UNSIGNED NOT NULL, UNIQUE KEY ug (user_id, group_id), KEY u (user_id),
  FOREIGN KEY (user_id) REFERENCES users (id), FOREIGN KEY (group_id) REFERENCES `groups` (id)) ENGINE={e};
CREATE TABLE events (created_at DATETIME NOT NULL, message TEXT) ENGINE={e};
CREATE TABLE sessions (id CHAR(36) NOT NULL PRIMARY KEY, data LONGTEXT) ENGINE={e};
CREATE TABLE wide (id INT PRIMARY KEY, {wide}) ENGINE={e} ROW_FORMAT=COMPACT DEFAULT CHARSET=utf8mb4;
CREATE TABLE keyed (id INT PRIMARY KEY, a VARCHAR(800), b VARCHAR(800), KEY ab (a, b)) ENGINE={e} DEFAULT CHARSET=utf8mb4;
CREATE TABLE child (id INT PRIMARY KEY, user_id BIGINT, FOREIGN KEY (user_id) REFERENCES users (id)) ENGINE={e};
CREATE TABLE docs (id INT PRIMARY KEY, title VARCHAR(200), body LONGTEXT, meta JSON) ENGINE={e};
CREATE TABLE legacy (id INT PRIMARY KEY) ENGINE=MyISAM;
"""


def schema(engine: str) -> str:
    return SCHEMA.replace("{e}", engine).replace("{wide}", ", ".join(f"q{n} VARCHAR(255)" for n in range(12)))


def outcome(sql: str, tmp_path: Path, target: str) -> set[tuple[str, str | None, str, str | None]]:
    report = lint_sql(sql, tmp_path, target=target)
    return {(f.rule, f.table, f.severity, f.subject) for f in report.findings}


@pytest.mark.parametrize("target", ["mysql-8.0", "mariadb-10.11", "mysql-5.7"])
@pytest.mark.parametrize("placeholder", PLACEHOLDERS)
def test_every_rule_reads_a_placeholder_as_innodb(tmp_path: Path, placeholder: str, target: str) -> None:
    as_innodb = outcome(schema("InnoDB"), tmp_path, target)
    rules = {rule for rule, *_ in as_innodb}
    assert {"no-primary-key", "uuid-primary-key", "link-table-primary-key", "row-size-limit", "redundant-index",
            "foreign-key-mismatch", "non-innodb-engine"} <= rules  # the schema exercises them
    assert outcome(schema(placeholder), tmp_path, target) == as_innodb


@pytest.mark.parametrize("placeholder", PLACEHOLDERS[:2])
def test_said_once_at_the_first_table(tmp_path: Path, placeholder: str) -> None:
    report = lint_sql(schema(placeholder), tmp_path)
    said = [d for d in report.diagnostics if "template placeholder" in d.message]
    assert len(said) == 1 and said[0].line == 1 and said[0].severity == "info"
    assert f"ENGINE={placeholder} is a template placeholder" in said[0].message
    assert "for the 8 tables that have it" in said[0].message  # (`keyed` is refused: index-key-length)
    assert not [d for d in lint_sql(schema("InnoDB"), tmp_path).diagnostics if "placeholder" in d.message]


def test_an_alter_to_a_placeholder_and_keys_the_replay_judges_as_innodb(tmp_path: Path) -> None:
    """The replay: a whole TEXT column in a key is InnoDB's business (index-key-length), not the
    refusal a MyISAM table would get; an ALTER that sets the placeholder keeps the table InnoDB."""
    sql = ("CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(2000)) ENGINE=MyISAM DEFAULT CHARSET=utf8mb4;\n"
           "ALTER TABLE t ENGINE=@ZM_MYSQL_ENGINE@;\nCREATE INDEX ks ON t (s);\n")
    report = lint_sql(sql, tmp_path, target="mysql-8.0")
    rules = {f.rule for f in report.findings}
    assert "index-key-length" in rules and "non-innodb-engine" not in rules
