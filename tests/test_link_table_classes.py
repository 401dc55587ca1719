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
from linter.parse.elements import Location
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


# -- issue 34: the classes missed on real schemas, each in several generated variations -----------------------
#: (entity table, its natural key column, the link's column naming it by that key)
NATURAL = [("users", "user_name", "user_name"), ("users", "username", "username"), ("orgs", "code", "org_code"),
           ("projects", "code", "project_code"), ("stores", "store_code", "store_code")]
STYLES = ["plain", "dump", "reversed"]


def natural_entity(table: str, key: str, key_type: str = "VARCHAR(64)") -> str:
    return f"CREATE TABLE {table} (id INT PRIMARY KEY, {key} {key_type} NOT NULL, UNIQUE KEY ({key}))"


def written(name: str, columns: list[str], keys: list[str], style: str,
            surrogate: str = "id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY") -> str:
    """One link table, in a style: plain, as mysqldump writes it (backquotes, keys after the columns,
    ENGINE and CHARSET), or with its columns in the other order."""
    if style == "reversed":
        columns = list(reversed(columns))
    if style == "dump":
        quoted = [f"`{c.split()[0]}` {' '.join(c.split()[1:])}" for c in columns]
        return (f"CREATE TABLE `{name}` (\n  `id` bigint NOT NULL AUTO_INCREMENT,\n  " + ",\n  ".join(quoted)
                + ",\n  PRIMARY KEY (`id`)" + "".join(f",\n  {k}" for k in keys)
                + "\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4")
    return f"CREATE TABLE {name} ({surrogate}, {', '.join(columns + keys)})"


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("entity", "key", "column"), NATURAL)
def test_a_unique_pair_with_a_name_or_code_for_one_side(entity: str, key: str, column: str, style: str) -> None:
    """`UNIQUE (group_id, user_name)`: the pair identifies the row, one side named by its natural key."""
    ents = ("CREATE TABLE `groups` (id INT PRIMARY KEY)", natural_entity(entity, key))
    sql = written("member_of", ["group_id INT NOT NULL", f"{column} VARCHAR(64) NOT NULL"],
                  [f"UNIQUE KEY pair (group_id, {column})"], style)
    [finding] = run(*ents, sql)
    assert pair_of(finding) == ("group_id", column)
    assert f"{column} -> {entity} (name, a natural key)" in (finding.evidence or "")


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("a", "b"), [("org_code", "dc_code"), ("project_code", "worker_group_name"),
                                      ("OrgCode", "DcCode"), ("src_key", "dst_key")])
def test_a_unique_pair_of_codes_whose_tables_are_not_in_the_input(a: str, b: str, style: str) -> None:
    sql = written("code_pairs", [f"{a} VARCHAR(32) NOT NULL", f"{b} VARCHAR(64) NOT NULL"], [f"UNIQUE KEY u ({a}, {b})"],
                  style)
    [finding] = run(sql)
    assert set(pair_of(finding)) == {a, b}
    # alone, without the UNIQUE key pairing them, two codes say nothing
    assert run(written("code_pairs", [f"{a} VARCHAR(32) NOT NULL", f"{b} VARCHAR(64) NOT NULL"], [], style)) == []


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("qualifier", ["DeletedAt BIGINT NOT NULL DEFAULT 0", "deleted_at DATETIME NOT NULL",
                                       "is_deleted TINYINT(1) NOT NULL DEFAULT 0", "type TINYINT NOT NULL",
                                       "kind CHAR(1) NOT NULL", "object_type VARCHAR(20) NOT NULL"])
def test_a_unique_pair_with_a_soft_delete_type_or_kind_beside_it(qualifier: str, style: str) -> None:
    ents = entities("users", "roles")
    name = qualifier.split()[0]
    sql = written("user_roles", ["user_id INT NOT NULL", "role_id INT NOT NULL", qualifier],
                  [f"UNIQUE KEY u (user_id, role_id, {name})"], style)
    [finding] = run(*ents, sql)
    assert pair_of(finding) == ("user_id", "role_id")
    assert f"ADD PRIMARY KEY (`user_id`, `role_id`, `{name}`)" in (finding.fix or "")


TENANTS = ["tenant_id", "workspace_id", "org_id", "account_id"]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("scope", TENANTS)
@pytest.mark.parametrize("unique", [False, True])
def test_a_tenant_or_workspace_both_sides_belong_to_is_the_scope_not_a_side(scope: str, unique: bool, style: str) -> None:
    """The scope's name is in both sides' tables too: it is where the pair lives. With a UNIQUE key
    leading with it, the key the fix gives leads with it too (rows of a tenant, then of a user)."""
    ents = (f"CREATE TABLE {scope[:-3]}s (id INT PRIMARY KEY)",
            f"CREATE TABLE users (id INT PRIMARY KEY, {scope} INT NOT NULL)",
            f"CREATE TABLE teams (id INT PRIMARY KEY, {scope} INT NOT NULL)")
    keys = [f"UNIQUE KEY u ({scope}, user_id, team_id)"] if unique else ["KEY (user_id)", "KEY (team_id)"]
    sql = written("team_members", [f"{scope} INT NOT NULL", "user_id INT NOT NULL", "team_id INT NOT NULL"], keys, style)
    [finding] = run(*ents, sql)
    assert set(pair_of(finding)) == {"user_id", "team_id"}
    assert f"{scope} (the scope both sides belong to)" in finding.message
    if unique:
        assert f"ADD PRIMARY KEY (`{scope}`, `user_id`, `team_id`)" in (finding.fix or "")
    else:
        assert f"`{scope}`" not in (finding.fix or "").split("ADD PRIMARY KEY")[1].split(")")[0]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("a", "b"), [("fk_user", "fk_group"), ("fk_user_id", "fk_group_id"), ("ref_user", "ref_group"),
                                      ("FkUser", "FkGroup")])
def test_references_named_by_a_foreign_key_prefix(a: str, b: str, style: str) -> None:
    sql = written("ug", [f"{a} INT NOT NULL", f"{b} INT NOT NULL"], [f"KEY ({a})", f"KEY ({b})"], style)
    [finding] = run(*entities("users", "groups"), sql)
    assert set(pair_of(finding)) == {a, b}


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("column", "key_type"), [("user_code", "VARCHAR(20)"), ("user_no", "INT"),
                                                  ("user_number", "BIGINT"), ("UserCode", "CHAR(8)")])
def test_references_named_by_the_entitys_code(column: str, key_type: str, style: str) -> None:
    """`user_code` names users when users has that code as a UNIQUE key (of the same kind of type: a
    number may name the integer PRIMARY KEY, a string only a string key)."""
    key = {"user_code": "code", "user_no": "user_no", "user_number": "number", "UserCode": "code"}[column]
    ents = (natural_entity("users", key, key_type), "CREATE TABLE `groups` (id INT PRIMARY KEY)")
    sql = written("ug", [f"{column} {key_type} NOT NULL", "group_id INT NOT NULL"], [f"KEY ({column})", "KEY (group_id)"],
                  style)
    [finding] = run(*ents, sql)
    assert set(pair_of(finding)) == {column, "group_id"}
    if "INT" not in key_type:  # without a text key of users it could name, it is a column of its own
        assert run(*entities("users", "groups"), sql) == []


@pytest.mark.parametrize("prefix", ["linkis_ps_bml", "acme_app_core", "x_y_z"])
def test_a_three_word_table_prefix(prefix: str) -> None:
    ents = [f"CREATE TABLE {prefix}_{t} (id INT PRIMARY KEY)" for t in ("resources", "tasks", "versions")]
    [finding] = run(*ents, f"CREATE TABLE {prefix}_resource_task (id INT AUTO_INCREMENT PRIMARY KEY, "
                           "resource_id INT NOT NULL, task_id INT NOT NULL)")
    assert f"resource_id -> {prefix}_resources (name)" in (finding.evidence or "")


@pytest.mark.parametrize("column", ["frequency_number INT", "times SMALLINT", "retries TINYINT UNSIGNED",
                                    "interval_num INT NOT NULL DEFAULT 1", "user_name VARCHAR(64)",
                                    "member_name VARCHAR(100)"])
def test_columns_that_describe_the_pair_by_structure(column: str) -> None:
    """A count of how often, and a copy of a linked entity's name (by the table it names, whatever
    the side's own column is called)."""
    ents = (natural_entity("users", "user_name"), "CREATE TABLE members (id INT PRIMARY KEY, member_name VARCHAR(100), "
            "UNIQUE KEY (member_name))", "CREATE TABLE `groups` (id INT PRIMARY KEY)")
    side = "member_id" if column.startswith("member") else "uid"
    target = "members" if side == "member_id" else "users"
    sql = (f"CREATE TABLE ug (id INT AUTO_INCREMENT PRIMARY KEY, {side} INT NOT NULL, group_id INT NOT NULL, {column}, "
           f"FOREIGN KEY ({side}) REFERENCES {target} (id), FOREIGN KEY (group_id) REFERENCES `groups` (id))")
    [finding] = run(*ents, sql)
    assert column.split()[0] in finding.message


@pytest.mark.parametrize(("column", "entity"), [("order_number VARCHAR(20)", "orders"), ("order_no CHAR(12)", "orders"),
                                                ("invoice_number VARCHAR(32)", "invoices")])
def test_a_number_of_a_third_entity_is_no_sort_column(column: str, entity: str) -> None:
    """`order_number` beside two sides: the row belongs to an order too (or is content of its own),
    not a link with a sort column (the false positive)."""
    ents = (natural_entity(entity, column.split()[0].replace(entity[:-1] + "_", "") if False else column.split()[0],
                           column.split()[1]),
            "CREATE TABLE products (id INT PRIMARY KEY)", "CREATE TABLE shipments (id INT PRIMARY KEY)")
    sql = (f"CREATE TABLE shipment_items (id INT AUTO_INCREMENT PRIMARY KEY, shipment_id INT NOT NULL, "
           f"product_id INT NOT NULL, {column}, FOREIGN KEY (shipment_id) REFERENCES shipments (id), "
           "FOREIGN KEY (product_id) REFERENCES products (id))")
    assert run(*ents, sql) == []
    assert run(*ents[1:], sql) == []  # and with no such entity in the input: content of its own
    assert run(*ents[1:], sql.replace(column, "sort_order INT"))  # a number that orders the links: a link


@pytest.mark.parametrize("extra", ["", ", type VARCHAR(10) NOT NULL", ", DeletedAt BIGINT NOT NULL DEFAULT 0"])
def test_three_nullable_references_a_unique_key_makes_a_triple(extra: str) -> None:
    ents = entities("users", "roles") + ("CREATE TABLE resources (id INT PRIMARY KEY)",)
    names = ", ".join(["user_id", "role_id", "resource_id"] + ([extra.split()[1]] if extra else []))
    sql = (f"CREATE TABLE acl (id INT AUTO_INCREMENT PRIMARY KEY, user_id INT NULL, role_id INT NULL, resource_id INT NULL"
           f"{extra}, UNIQUE KEY t ({names}))")
    [finding] = run(*ents, sql)
    assert pair_of(finding) == ("user_id", "role_id", "resource_id")
    # without it, and each on its own: an exclusive arc (a row refers to one of the three)
    assert run(*ents, sql.split(", UNIQUE KEY")[0] + ", KEY (user_id), KEY (role_id), KEY (resource_id))") == []


@pytest.mark.parametrize("case", ["name side", "qualifier", "scope"])
def test_the_new_kinds_fix_runs_on_mariadb_and_clusters_on_the_key(mariadb: MariaDB, case: str) -> None:
    statements = {
        "name side": ("CREATE TABLE `groups` (id INT PRIMARY KEY)", natural_entity("users", "user_name"),
                      "CREATE TABLE gm (id INT AUTO_INCREMENT PRIMARY KEY, group_id INT NOT NULL, "
                      "user_name VARCHAR(64) NULL, UNIQUE KEY u (group_id, user_name))"),
        "qualifier": (*entities("users", "roles"),
                      "CREATE TABLE gm (id INT AUTO_INCREMENT PRIMARY KEY, user_id INT NOT NULL, role_id INT NOT NULL, "
                      "DeletedAt BIGINT NOT NULL DEFAULT 0, UNIQUE KEY u (user_id, role_id, DeletedAt))"),
        "scope": ("CREATE TABLE tenants (id INT PRIMARY KEY)",
                  "CREATE TABLE users (id INT PRIMARY KEY, tenant_id INT NOT NULL)",
                  "CREATE TABLE teams (id INT PRIMARY KEY, tenant_id INT NOT NULL)",
                  "CREATE TABLE gm (id INT AUTO_INCREMENT PRIMARY KEY, tenant_id INT NOT NULL, user_id INT NOT NULL, "
                  "team_id INT NOT NULL, UNIQUE KEY u (tenant_id, user_id, team_id))"),
    }[case]
    [finding] = run(*statements)
    db = "link_fix_34"
    mariadb.sql(f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}")
    try:
        mariadb.sql(";".join(statements), database=db)
        mariadb.sql(finding.fix or "", database=db)
        rows = mariadb.sql(
            "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS "
            f"WHERE TABLE_SCHEMA = '{db}' AND TABLE_NAME = 'gm' AND INDEX_NAME = 'PRIMARY'")
    finally:
        mariadb.sql(f"DROP DATABASE {db}")
    key = (finding.fix or "").split("ADD PRIMARY KEY (")[1].split(")")[0].replace("`", "").replace(" ", "")
    assert rows[0][0] == key and set(pair_of(finding)) <= set(key.split(","))
