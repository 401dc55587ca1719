"""link-table-primary-key on inputs it was not written from (issue 15): each class of link table
(and of look-alike that is not one) in several independent variations: names, types, column
order, formats (a dump, a migration history, a flyway directory). The server judges the fix.

A link table is a table whose identity is the pair of references it links, whose other columns
describe the pair, clustered on a surrogate. These tests state that idea, not one schema's names.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from checks.link_table_primary_key import LinkTablePrimaryKey
from linter.rules.checkapi import CheckContext
from linter.engine import lint_paths
from linter.rules.findings import Finding
from linter.schema.elements import Location
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from tests.mariadb import MariaDB

RULE = "link-table-primary-key"
#: entity pairs: (table of side a, its column stem, table of side b, its column stem)
PAIRS = [("users", "user", "groups", "group"), ("product", "product", "categories", "category"),
         ("film", "film", "actors", "actor")]
TYPES = ["INT UNSIGNED", "BIGINT", "INT(11)", "CHAR(36)"]


def run(*statements: str) -> list[Finding]:
    replayer = Replayer()
    for n, text in enumerate(statements, start=1):
        problem = replayer.apply(parse_statement(text), Location("t.sql", n))
        assert problem is None, problem
    return list(LinkTablePrimaryKey().run(replayer.model, CheckContext()))


def entities(a: str, b: str, key_type: str = "INT UNSIGNED") -> tuple[str, str]:
    return (f"CREATE TABLE `{a}` (id {key_type} NOT NULL PRIMARY KEY, name VARCHAR(100))",
            f"CREATE TABLE `{b}` (id {key_type} NOT NULL PRIMARY KEY, name VARCHAR(100))")


def style(stem: str, how: str) -> str:
    camel = "".join(w.capitalize() for w in stem.split("_"))
    return {"suffix": f"{stem}_id", "prefix": f"id_{stem}", "glued": f"{stem}id", "ID": f"{camel}ID",
            "Id": f"{camel}Id", "camel": f"{camel[0].lower()}{camel[1:]}Id"}[how]


def pair_of(finding: Finding) -> tuple[str, ...]:
    return tuple((finding.subject or "").split(","))


# -- link columns however they are named ------------------------------------------------------------
@pytest.mark.parametrize(("pair", "how", "key_type", "swap"), [
    (p, h, t, s) for (p, h), t, s in zip(itertools.product(PAIRS, ["suffix", "prefix", "glued", "ID", "Id", "camel"]),
                                          itertools.cycle(TYPES), itertools.cycle([False, True, True]))
])
def test_link_columns_named_after_their_entities(pair: tuple[str, str, str, str], how: str, key_type: str, swap: bool) -> None:
    a, a_stem, b, b_stem = pair
    ca, cb = style(a_stem, how), style(b_stem, how)
    columns = [f"`{ca}` {key_type} NOT NULL", f"`{cb}` {key_type} NOT NULL"]
    if swap:
        columns.reverse()
    sql = f"CREATE TABLE link_{a_stem}_{b_stem} (pk BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, {', '.join(columns)}, KEY ({ca}), KEY ({cb}))"
    [finding] = run(*entities(a, b, key_type), sql)
    assert set(pair_of(finding)) == {ca, cb}
    assert f"{ca} -> {a} (name)" in (finding.evidence or "") and f"{cb} -> {b} (name)" in (finding.evidence or "")


@pytest.mark.parametrize(("columns", "targets"), [
    ("owner_user_id INT NOT NULL, team_id INT NOT NULL", ("users", "teams")),
    ("team_id INT NOT NULL, member_user_id INT NOT NULL", ("teams", "users")),
    ("category_id INT NOT NULL, parent_category_id INT NOT NULL", ("categories", "categories")),
    ("source_team_id BIGINT NOT NULL, target_team_id BIGINT NOT NULL", ("teams", "teams")),
])
def test_a_qualifier_before_the_entity(columns: str, targets: tuple[str, str]) -> None:
    names = [c.split()[0] for c in columns.split(", ")]
    sql = f"CREATE TABLE edges (id INT AUTO_INCREMENT PRIMARY KEY, {columns}, UNIQUE KEY pair ({names[0]}, {names[1]}))"
    [finding] = run("CREATE TABLE users (id INT PRIMARY KEY)", "CREATE TABLE teams (id INT PRIMARY KEY)",
                    "CREATE TABLE categories (id INT PRIMARY KEY)", sql)
    assert pair_of(finding) == tuple(names)
    for name, target in zip(names, targets):
        assert f"{name} -> {target}" in (finding.evidence or "")


@pytest.mark.parametrize(("name", "keys"), [
    ("usr_grp", "UNIQUE KEY u (user_id, group_id)"),
    ("ug", "UNIQUE KEY (group_id, user_id)"),
    ("x_rel", "KEY (user_id), KEY (group_id)"),
    ("map1", "KEY both (user_id, group_id), KEY (group_id)"),
])
def test_entity_tables_absent_and_no_foreign_key_the_keys_decide(name: str, keys: str) -> None:
    """Neither entity is in the input (another file, another repository) and no FOREIGN KEY says
    anything: a UNIQUE key on the pair, or both columns indexed, does."""
    [finding] = run(f"CREATE TABLE {name} (id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, "
                    f"group_id BIGINT NOT NULL, {keys})")
    assert set(pair_of(finding)) == {"user_id", "group_id"}
    assert "The pair is the table's identity:" in finding.message


@pytest.mark.parametrize("columns", [
    "user_id BIGINT NOT NULL, group_id BIGINT NOT NULL",  # nothing says they are a pair
    "user_id BIGINT NOT NULL, group_id BIGINT NOT NULL, KEY (user_id)",  # one side indexed
])
def test_unknown_names_without_keys_are_not_enough(columns: str) -> None:
    assert run(f"CREATE TABLE t (id BIGINT AUTO_INCREMENT PRIMARY KEY, {columns})") == []


def test_the_entity_in_an_earlier_migration_file(tmp_path: Path) -> None:
    for layout, (first, second) in {"flyway": ("V1__users.sql", "V2__links.sql"),
                                      "numbered": ("0001_users.sql", "0002_links.sql")}.items():
        directory = tmp_path / layout
        directory.mkdir()
        (directory / first).write_text("CREATE TABLE accounts (id INT PRIMARY KEY);\nCREATE TABLE roles (id INT PRIMARY KEY);\n")
        (directory / second).write_text("CREATE TABLE account_roles (id INT AUTO_INCREMENT PRIMARY KEY,\n"
                                        "  account_id INT NOT NULL, role_id INT NOT NULL);\n")
        [finding] = [f for f in lint_paths([str(directory)]).findings if f.rule == RULE]
        assert finding.path.endswith(second) and pair_of(finding) == ("account_id", "role_id")


# -- columns that describe the pair ----------------------------------------------------------------
FK = ("user_id INT UNSIGNED NOT NULL, group_id INT UNSIGNED NOT NULL, FOREIGN KEY (user_id) REFERENCES users (id), "
      "FOREIGN KEY (group_id) REFERENCES `groups` (id)")


@pytest.mark.parametrize("extra", [
    "max_uses INT NOT NULL DEFAULT 0", "download_count INT UNSIGNED", "quota_limit BIGINT", "remaining SMALLINT",
    "location VARCHAR(100)", "latitude DECIMAL(9,6), longitude DECIMAL(9,6)", "percentage DECIMAL(5,2)",
    "share_ratio FLOAT", "weight DOUBLE", "title VARCHAR(200)", "server_id INT NOT NULL", "node_id SMALLINT",
    "guid CHAR(36) NOT NULL", "user_name VARCHAR(100)", "group_title VARCHAR(120)",
    "created_by INT UNSIGNED REFERENCES users (id), updated_by INT UNSIGNED REFERENCES users (id)",
    "CreatedBy INT, ModifiedBy INT",
])
@pytest.mark.parametrize("unique", [False, True])
def test_columns_that_describe_the_pair(extra: str, unique: bool) -> None:
    keys = ", UNIQUE KEY pair (user_id, group_id)" if unique else ""
    [finding] = run(*entities("users", "groups"),
                    f"CREATE TABLE memberships (id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY, {FK}, {extra}{keys})")
    assert pair_of(finding) == ("user_id", "group_id")
    for column in extra.split(", "):
        assert column.split()[0] in finding.message  # the message names what the other columns are


@pytest.mark.parametrize("extra", [
    "name VARCHAR(255) NOT NULL", "description TEXT", "value VARCHAR(255)", "body LONGTEXT", "settings JSON",
    "token_hash CHAR(64) NOT NULL", "price DECIMAL(10,2), quantity INT",
    "code VARCHAR(20) NOT NULL, KEY (code)",  # looked up by a column of its own
])
def test_content_makes_it_an_entity_even_with_a_unique_pair(extra: str) -> None:
    assert run(*entities("users", "groups"), f"CREATE TABLE memberships (id INT AUTO_INCREMENT PRIMARY KEY, {FK}, "
                                             f"{extra}, UNIQUE KEY pair (user_id, group_id))") == []


# -- the key and the columns' form -----------------------------------------------------------------
@pytest.mark.parametrize(("surrogate", "keyed_by_primary"), [
    ("id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY", True),
    ("id SERIAL", False),  # BIGINT UNSIGNED AUTO_INCREMENT UNIQUE, no PRIMARY KEY: clustered on the UNIQUE
    ("id SERIAL PRIMARY KEY", True),
    ("link_id BIGINT NOT NULL PRIMARY KEY", True),  # assigned by the application from an id table
    ("row_id BIGINT UNSIGNED NOT NULL, UNIQUE KEY row_id (row_id)", False),
])
def test_surrogates_of_every_kind(surrogate: str, keyed_by_primary: bool) -> None:
    [finding] = run(*entities("users", "groups"), f"CREATE TABLE user_groups ({surrogate}, {FK})")
    assert finding.fix is not None
    assert finding.fix.startswith("ALTER TABLE `user_groups` DROP PRIMARY KEY") == keyed_by_primary
    assert ("it has no PRIMARY KEY" in finding.message) == (not keyed_by_primary)


@pytest.mark.parametrize("nullable", [("group_id",), ("user_id", "group_id")])
def test_nullable_link_columns_are_made_not_null_after_counting_the_nulls(nullable: tuple[str, ...]) -> None:
    columns = ", ".join(f"{c} INT UNSIGNED {'NULL' if c in nullable else 'NOT NULL'}" for c in ("user_id", "group_id"))
    [finding] = run(*entities("users", "groups"), f"CREATE TABLE ug (id INT AUTO_INCREMENT PRIMARY KEY, {columns}, "
                                                  "FOREIGN KEY (user_id) REFERENCES users (id), "
                                                  "FOREIGN KEY (group_id) REFERENCES `groups` (id))")
    condition = " OR ".join(f"`{c}` IS NULL" for c in nullable)
    assert f"SELECT COUNT(*) FROM `ug` WHERE {condition};" in finding.message
    for column in nullable:
        assert f"MODIFY COLUMN `{column}` INT UNSIGNED NOT NULL" in (finding.fix or "")


@pytest.mark.parametrize("length", [100, 191, 255])
def test_string_link_columns_longer_than_64(length: int) -> None:
    [finding] = run(f"CREATE TABLE app_user (uid INT AUTO_INCREMENT PRIMARY KEY, user_id VARCHAR({length}) NOT NULL, "
                    f"app_id VARCHAR({length}) NOT NULL, UNIQUE KEY (user_id, app_id))")
    assert pair_of(finding) == ("user_id", "app_id")


@pytest.mark.parametrize("name", ["user_group_history", "membership_log", "role_audit"])
def test_a_history_word_in_the_name_yields_to_a_unique_pair(name: str) -> None:
    sql = f"CREATE TABLE {name} (id INT AUTO_INCREMENT PRIMARY KEY, {FK}, viewed_at DATETIME{{}})"
    assert run(*entities("users", "groups"), sql.format("")) == []  # a log: the pair repeats
    assert run(*entities("users", "groups"), sql.format(", UNIQUE KEY (user_id, group_id)"))


# -- look-alikes that are not many-to-many ----------------------------------------------------------
@pytest.mark.parametrize(("other", "one"), [
    ("environment_id", "app_id"), ("tenant_id", "instance_id"), ("instance_id", "device_id"), ("env_id", "service_id"),
])
def test_one_row_per_object_is_not_many_to_many(other: str, one: str) -> None:
    """A UNIQUE key on one reference alone: each row belongs to one object, whatever the other column is."""
    ents = (f"CREATE TABLE {one[:-3]}s (id INT PRIMARY KEY)", f"CREATE TABLE {other[:-3]}s (id INT PRIMARY KEY)")
    for order in ((one, other), (other, one)):
        sql = (f"CREATE TABLE config (id INT AUTO_INCREMENT PRIMARY KEY, {order[0]} INT NOT NULL, {order[1]} INT NOT NULL, "
               f"UNIQUE KEY ({one}), KEY ({other}))")
        assert run(*ents, sql) == []
        assert run(*ents, sql.replace(f"UNIQUE KEY ({one})", f"KEY ({one})"))  # without it: a link


@pytest.mark.parametrize("db", ["forum", "wiki", "shop"])
def test_entities_are_matched_in_the_tables_own_schema_first(db: str) -> None:
    """A multi-database dump: `user_id` in one application's schema is no reference to another's users."""
    other = ("CREATE DATABASE crm", "USE crm", "CREATE TABLE users (id INT PRIMARY KEY)", "CREATE TABLE teams (id INT PRIMARY KEY)")
    link = f"CREATE TABLE sessions (id INT AUTO_INCREMENT PRIMARY KEY, user_id INT NOT NULL, team_id INT NOT NULL)"
    assert run(*other, f"CREATE DATABASE {db}", f"USE {db}", link) == []
    own = (f"CREATE TABLE users (id INT PRIMARY KEY)", "CREATE TABLE teams (id INT PRIMARY KEY)")
    [finding] = run(*other, f"CREATE DATABASE {db}", f"USE {db}", *own, link)
    assert finding.schema == db and "user_id -> users (name)" in (finding.evidence or "")


# -- formats ----------------------------------------------------------------------------------------
def test_the_same_link_in_a_dump_a_history_and_a_flyway_directory(tmp_path: Path) -> None:
    create = ("CREATE TABLE `tag_post` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `TagID` int NOT NULL,\n"
              "  `PostID` int NOT NULL,\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `tp` (`TagID`,`PostID`)\n) ENGINE=InnoDB;\n")
    dump = tmp_path / "dump.sql"
    dump.write_text("-- MySQL dump 10.13\n/*!40101 SET NAMES utf8mb4 */;\n" + create)
    history = tmp_path / "history"
    history.mkdir()
    (history / "V1__tags.sql").write_text("CREATE TABLE tags (id int PRIMARY KEY);\n")
    (history / "V2__posts.sql").write_text("CREATE TABLE posts (id int PRIMARY KEY);\n" + create)
    for path in (dump, history):
        [finding] = [f for f in lint_paths([str(path)]).findings if f.rule == RULE]
        assert pair_of(finding) == ("TagID", "PostID")


# -- the server judges the fix ----------------------------------------------------------------------
@pytest.mark.parametrize(("surrogate", "columns"), [
    ("id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY", "user_id INT UNSIGNED NULL, group_id INT UNSIGNED NOT NULL"),
    ("id SERIAL", "user_id BIGINT UNSIGNED NOT NULL, group_id BIGINT UNSIGNED NULL DEFAULT NULL"),
    ("id BIGINT NOT NULL PRIMARY KEY", "id_user INT NOT NULL, id_group INT NOT NULL, UNIQUE KEY p (id_user, id_group)"),
])
def test_the_fix_is_accepted_and_clusters_on_the_pair(mariadb: MariaDB, surrogate: str, columns: str) -> None:
    create = f"CREATE TABLE ug ({surrogate}, {columns}, KEY (group_id))".replace(
        "KEY (group_id)", "KEY (id_group)" if "id_group" in columns else "KEY (group_id)")
    ents = entities("user", "group")
    [finding] = run(*ents, create)
    assert finding.fix is not None
    db = "link_fix"
    mariadb.sql(f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}")
    try:
        mariadb.sql(";".join((*ents, create)), database=db)
        mariadb.sql(finding.fix, database=db)
        rows = mariadb.sql(
            "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX), GROUP_CONCAT(NULLABLE) FROM information_schema.STATISTICS "
            f"WHERE TABLE_SCHEMA = '{db}' AND TABLE_NAME = 'ug' AND INDEX_NAME = 'PRIMARY'")
    finally:
        mariadb.sql(f"DROP DATABASE {db}")
    assert rows[0][0] == ",".join(pair_of(finding)) and "YES" not in (rows[0][1] or "")
