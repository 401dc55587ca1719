"""tenant-tablespace, cross-tenant-tablespace, undefined-tablespace, and the tenant-layout
detection they share (linter.schema.tenants). Everything goes through the real pipeline."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from linter.parse import ops
from linter.rules.checkapi import CheckContext
from linter.engine import Engine, Unit
from linter.parse.elements import Location
from linter.schema.model import SchemaModel
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from linter.schema.target import Target
from linter.schema.tenants import detect_tenants, group_by_definition, schema_regexp
from tests.helpers import findings, lint_sql
from tests.shared import need

TENANT = "tenant-tablespace"
CROSS = "cross-tenant-tablespace"
UNDEFINED = "undefined-tablespace"


def tenant_sql(
    names: list[str], tablespace: Callable[[str], str] = lambda name: "", *, extra: dict[str, str] | None = None
) -> str:
    """A dump-like schema per tenant: two tables each, AUTO_INCREMENT differing per tenant."""
    parts = []
    for n, name in enumerate(names, start=1):
        clause = tablespace(name)
        parts.append(
            f"CREATE DATABASE `{name}`;\nUSE `{name}`;\n"
            f"CREATE TABLE `orders` (\n  `id` bigint NOT NULL AUTO_INCREMENT,\n  `total` int NOT NULL,\n"
            f"  PRIMARY KEY (`id`)\n) {clause}ENGINE=InnoDB AUTO_INCREMENT={n * 100} DEFAULT CHARSET=utf8mb4;\n"
            f"CREATE TABLE `users` (\n  `id` bigint NOT NULL,\n  `email` varchar(255) NOT NULL,\n"
            f"  PRIMARY KEY (`id`)\n) {clause}ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n"
            + (extra or {}).get(name, "")
        )
    return "\n".join(parts)


def model_of(*statements: str, migration: bool = False) -> SchemaModel:
    replayer = Replayer()
    replayer.model.is_migration_history = migration
    for n, text in enumerate(statements, start=1):
        replayer.apply(parse_statement(text), Location("m.sql", n))
    return replayer.model


# --- tenant layout detection ------------------------------------------------------------------------
def test_layout_needs_three_schemas_with_the_same_tables_by_default() -> None:
    three = model_of(*[s for name in ("a", "b", "c") for s in (f"CREATE TABLE {name}.t1 (id int)", f"CREATE TABLE {name}.t2 (id int)")])
    layout = detect_tenants(three)
    assert layout is not None and layout.schemas == ("a", "b", "c")
    assert "3 schemas with the same 2 tables (all identical)" in layout.how
    two = model_of(*[s for name in ("a", "b") for s in (f"CREATE TABLE {name}.t1 (id int)", f"CREATE TABLE {name}.t2 (id int)")])
    assert detect_tenants(two) is None
    assert detect_tenants(two, min_schemas=2) is not None


def test_layout_accepts_drift_up_to_the_similarity() -> None:
    tables = ["t1", "t2", "t3", "t4"]
    statements = [f"CREATE TABLE {s}.{t} (id int)" for s in ("a", "b", "c") for t in tables]
    statements.append("CREATE TABLE c.t5 (id int)")  # an upgraded tenant: 4 of 5 tables shared (0.8)
    layout = detect_tenants(model_of(*statements))
    assert layout is not None and layout.schemas == ("a", "b", "c")
    assert "(2 identical, 1 nearly)" in layout.how
    assert detect_tenants(model_of(*statements), similarity=0.9) is None


def test_layout_ignores_unrelated_schemas_and_one_table_schemas() -> None:
    statements = [f"CREATE TABLE {s}.{t} (id int)" for s in ("a", "b", "c") for t in ("t1", "t2")]
    statements += ["CREATE TABLE app.x (id int)", "CREATE TABLE app.y (id int)", "CREATE TABLE app.z (id int)"]
    statements += [f"CREATE TABLE {s}.only (id int)" for s in ("p", "q", "r")]
    layout = detect_tenants(model_of(*statements))
    assert layout is not None and layout.schemas == ("a", "b", "c")


def test_layout_from_the_configured_pattern_matches_whole_names() -> None:
    statements = [f"CREATE TABLE {s}.t1 (id int)" for s in ("cust_1", "cust_2", "cust_1_old", "main")]
    layout = detect_tenants(model_of(*statements), pattern=r"cust_\d+")
    assert layout is not None and layout.schemas == ("cust_1", "cust_2")
    assert layout.pattern == r"cust_\d+"
    assert schema_regexp(layout.schemas, layout.pattern) == r"^(cust_\d+)$"


def test_schema_regexp_generalises_digits_else_lists_names() -> None:
    assert schema_regexp(["tenant_00001", "tenant_00002", "tenant_00100"]) == "^tenant_[0-9]+$"
    assert schema_regexp(["acme", "globex", "initech.eu"]) == r"^(acme|globex|initech\.eu)$"


def test_group_by_definition_ignores_auto_increment_and_schema() -> None:
    model = model_of(
        "CREATE TABLE a.t (id int AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=5",
        "CREATE TABLE b.t (id  int AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=99",  # another statement, same structure
        "CREATE TABLE c.t (id bigint AUTO_INCREMENT PRIMARY KEY)",  # a different definition
        "CREATE TABLE a.fk (id int, t_id int, FOREIGN KEY (t_id) REFERENCES a.t (id))",
        "CREATE TABLE b.fk (id int, t_id int, FOREIGN KEY (t_id) REFERENCES b.t (id))",  # own schema: same
        "CREATE TABLE c.fk (id int, t_id int, FOREIGN KEY (t_id) REFERENCES a.t (id))",  # another schema: differs
    )
    groups = group_by_definition(model, model.tables())
    assert [[t.qualified_name for t in g] for g in groups] == [["a.t", "b.t"], ["a.fk", "b.fk"], ["c.t"], ["c.fk"]]


# --- tenant-tablespace ------------------------------------------------------------------------------
def test_one_finding_per_definition_with_counts_names_files_and_fix(tmp_path: Path) -> None:
    report = lint_sql(tenant_sql(["acme", "globex", "initech"]), tmp_path)
    found = findings(report, TENANT)
    assert [(f.schema, f.table, f.severity, f.line) for f in found] == [
        ("acme", "orders", "warning", 3), ("acme", "users", "warning", 8)
    ]
    orders = found[0]
    assert "3 tenant schemas (acme, globex, initech) hold this table with no TABLESPACE clause" in orders.message
    assert "6 such tables in 3 tenant schemas: 6 .ibd files" in orders.message
    assert "makes it 3 files" in orders.message and "650K files" in orders.message
    assert orders.fix == "\n".join([
        "-- one tenant (acme); the CREATE once per tenant:",
        "CREATE TABLESPACE `acme` ADD DATAFILE 'acme.ibd' ENGINE=InnoDB;",
        "ALTER TABLE `acme`.`orders` TABLESPACE `acme`;",
        "-- every tenant: these queries print the statements; run what they print",
        "SELECT CONCAT('CREATE TABLESPACE `', SCHEMA_NAME, '` ADD DATAFILE ''', SCHEMA_NAME, '.ibd'' ENGINE=InnoDB;') "
        "FROM information_schema.SCHEMATA WHERE SCHEMA_NAME REGEXP '^(acme|globex|initech)$' "
        "AND SCHEMA_NAME NOT IN (SELECT NAME FROM information_schema.INNODB_TABLESPACES);",
        "SELECT CONCAT('ALTER TABLE `', TABLE_SCHEMA, '`.`', TABLE_NAME, '` TABLESPACE `', TABLE_SCHEMA, '`;') "
        "FROM information_schema.TABLES WHERE TABLE_SCHEMA REGEXP '^(acme|globex|initech)$' AND TABLE_NAME = 'orders';",
    ])


def test_fix_statements_parse_as_what_they_claim(tmp_path: Path) -> None:
    [finding, _] = findings(lint_sql(tenant_sql(["acme", "globex", "initech"]), tmp_path), TENANT)
    statements = [line for line in (finding.fix or "").splitlines() if not line.startswith("--")]
    parsed = [parse_statement(s.rstrip(";")) for s in statements]
    assert isinstance(parsed[0], ops.CreateTablespace) and parsed[0].datafile == "acme.ibd"
    assert isinstance(parsed[1], ops.AlterTable) and parsed[1].actions == (ops.SetOptions((("TABLESPACE", "acme"),)),)
    assert all(isinstance(p, ops.Skipped) for p in parsed[2:])  # the generating SELECTs


def test_explicit_innodb_file_per_table_is_flagged_too(tmp_path: Path) -> None:
    sql = tenant_sql(["t1", "t2", "t3"], lambda name: "TABLESPACE `innodb_file_per_table` ")
    found = findings(lint_sql(sql, tmp_path), TENANT)
    assert len(found) == 2
    assert "with TABLESPACE innodb_file_per_table" in found[0].message


def test_general_tablespace_per_tenant_is_fine(tmp_path: Path) -> None:
    sql = tenant_sql(["t1", "t2", "t3"], lambda name: f"/*!50100 TABLESPACE `{name}` */ ")
    report = lint_sql(sql, tmp_path)
    assert findings(report, TENANT) == [] and findings(report, CROSS) == []


def test_not_a_tenant_layout_means_no_finding(tmp_path: Path) -> None:
    assert findings(lint_sql(tenant_sql(["t1", "t2"]), tmp_path), TENANT) == []


def test_configured_pattern_makes_two_schemas_tenants(tmp_path: Path) -> None:
    report = lint_sql(tenant_sql(["cust_1", "cust_2"]), tmp_path, tenant_schema_pattern=r"cust_\d+")
    found = findings(report, TENANT)
    assert len(found) == 2 and "2 tenant schemas (cust_1, cust_2)" in found[0].message
    assert "REGEXP '^(cust_\\\\d+)$'" in (found[0].fix or "")  # the pattern, as a MySQL string literal


def test_min_schemas_option(tmp_path: Path) -> None:
    report = lint_sql(tenant_sql(["t1", "t2", "t3"]), tmp_path, options={TENANT: {"min_schemas": 4}})
    assert findings(report, TENANT) == []


def test_non_innodb_and_single_table_tenants_are_not_counted(tmp_path: Path) -> None:
    cache = "CREATE TABLE `cache` (`k` int) ENGINE=MEMORY;\n"
    sql = tenant_sql(["t1", "t2", "t3"], extra={"t1": cache, "t2": cache, "t3": cache})
    sql += "CREATE DATABASE t4;\nCREATE TABLE t4.orders (id bigint PRIMARY KEY);\n"  # one table: one file already
    found = findings(lint_sql(sql, tmp_path, tenant_schema_pattern=r"t\d"), TENANT)
    assert [f.table for f in found] == ["orders", "users"]
    assert "3 tenant schemas (t1, t2, t3)" in found[0].message and "6 such tables" in found[0].message


def test_distinct_definitions_get_their_own_finding(tmp_path: Path) -> None:
    sql = tenant_sql(["t1", "t2", "t3"]).replace(
        "USE `t3`;\nCREATE TABLE `orders` (\n  `id` bigint", "USE `t3`;\nCREATE TABLE `orders` (\n  `id` int"
    )
    found = findings(lint_sql(sql, tmp_path), TENANT)
    assert [(f.schema, f.table) for f in found] == [("t1", "orders"), ("t1", "users"), ("t3", "orders")]
    assert "2 tenant schemas (t1, t2)" in found[0].message and "1 tenant schema (t3)" in found[2].message


def test_mysql57_counts_frm_files_and_reads_innodb_sys_tablespaces(tmp_path: Path) -> None:
    found = findings(lint_sql(tenant_sql(["t1", "t2", "t3"]), tmp_path, target="mysql-5.7"), TENANT)
    assert "12 files with the .frm files, where one general tablespace per tenant makes it 9" in found[0].message
    assert "information_schema.INNODB_SYS_TABLESPACES" in (found[0].fix or "")


def test_percona_gets_the_same_advice(tmp_path: Path) -> None:
    found = findings(lint_sql(tenant_sql(["t1", "t2", "t3"]), tmp_path, target="percona-8.0"), TENANT)
    assert len(found) == 2 and found[0].severity == "warning"


@pytest.mark.parametrize("target", ["mariadb-10.6", "mariadb-10.11", "mariadb-11.x"])
def test_mariadb_says_general_tablespaces_do_not_exist(tmp_path: Path, target: str) -> None:
    sql = tenant_sql(["t1", "t2", "t3"], lambda name: "TABLESPACE `shared` " if name == "t3" else "")
    report = lint_sql(sql, tmp_path, target=target)
    [finding] = findings(report, TENANT)
    assert finding.severity == "info" and finding.fix is None
    assert "no general tablespaces" in finding.message and "silently ignores it" in finding.message
    assert "CREATE TABLESPACE" not in finding.message
    assert "2 tenant tables name a general tablespace (e.g. `shared` on t3.orders): ignored by MariaDB" in finding.message
    assert findings(report, CROSS) == []


def test_partitioned_tenant_table_gets_info_without_a_tablespace_fix(tmp_path: Path) -> None:
    sql = tenant_sql(["t1", "t2", "t3"]).replace(
        "DEFAULT CHARSET=utf8mb4;\nCREATE TABLE `users`", "DEFAULT CHARSET=utf8mb4 PARTITION BY HASH (id) PARTITIONS 4;\nCREATE TABLE `users`"
    )
    found = {f.table: f for f in findings(lint_sql(sql, tmp_path), TENANT)}
    assert found["orders"].severity == "info" and found["orders"].fix is None
    assert "cannot place partitions in a general tablespace" in found["orders"].message
    assert found["users"].severity == "warning"


def test_existing_naming_convention_is_followed_in_the_fix(tmp_path: Path) -> None:
    extra = {"t3": "CREATE TABLE `invoices` (`id` int PRIMARY KEY) TABLESPACE `ts_t3` ENGINE=InnoDB;\n"}
    found = findings(lint_sql(tenant_sql(["t1", "t2", "t3"], extra=extra), tmp_path, tenant_schema_pattern="t[0-9]"), TENANT)
    fix = found[0].fix or ""
    assert "CREATE TABLESPACE `ts_t1` ADD DATAFILE 'ts_t1.ibd' ENGINE=InnoDB;" in fix
    assert "CONCAT('ts_', SCHEMA_NAME, '')" in fix


# --- the generated tenant dump ------------------------------------------------------------------------
def make_tenants(tmp_path: Path, *args: str) -> tuple[Path, dict[str, object]]:
    out, summary = tmp_path / "tenants.sql", tmp_path / "summary.json"
    subprocess.run([sys.executable, str(need("corpus", "_scale", "make_tenants.py")), "-n", "100", "-o", str(out), "--summary", str(summary), *args],
                   check=True, capture_output=True)
    return out, json.loads(summary.read_text())


def lint_dump(path: Path, target: str = "mysql-8.0") -> tuple[SchemaModel, list]:  # type: ignore[type-arg]
    result = Engine(CheckContext(target=Target.parse(target))).lint_unit(Unit([str(path)]))
    assert not [d for d in result.diagnostics if d.rule == "parse-error"]
    return result.model, result.findings


def test_tenant_dump_gives_one_finding_per_definition(tmp_path: Path) -> None:
    path, summary = make_tenants(tmp_path)
    model, found = lint_dump(path)
    tenant = [f for f in found if f.rule == TENANT]
    drifted = summary["schemas_with_drift"]
    assert isinstance(drifted, list) and 0 < len(drifted) < 100
    template = ["wp_commentmeta", "wp_comments", "wp_links", "wp_options", "wp_postmeta", "wp_posts",
                "wp_term_relationships", "wp_term_taxonomy", "wp_terms", "wp_usermeta", "wp_users"]
    assert [f.table for f in tenant] == [*template, "wp_termmeta"]
    for finding in tenant[:-1]:
        assert finding.message.startswith(f"{finding.table}: 100 tenant schemas (tenant_00001, tenant_00002, "
                                          "tenant_00003 and 97 more)")
        assert finding.schema == "tenant_00001"
    termmeta = tenant[-1]
    assert termmeta.message.startswith(f"wp_termmeta: {len(drifted)} tenant schemas ({drifted[0]}, ")
    assert termmeta.schema == drifted[0]
    tables = summary["create_table_total"]
    assert f"{tables:,} such tables in 100 tenant schemas: {tables:,} .ibd files" in tenant[0].message
    assert "REGEXP '^tenant_[0-9]+$'" in (tenant[0].fix or "")
    assert len(model.tables()) == tables


@pytest.mark.parametrize("create", [False, True], ids=["dump", "with-create-tablespaces"])
def test_tenant_dump_with_a_tablespace_per_tenant_gives_none(tmp_path: Path, create: bool) -> None:
    path, _ = make_tenants(tmp_path, "--tablespace", "general:{tenant}", *(["--create-tablespaces"] if create else []))
    model, found = lint_dump(path)
    assert model.find_table("tenant_00042", "wp_posts").options.tablespace == "tenant_00042"  # type: ignore[union-attr]
    assert len(model.tablespaces) == (100 if create else 0)
    assert [f for f in found if f.rule in (TENANT, CROSS, UNDEFINED)] == []


def test_tenant_dump_with_explicit_file_per_table_is_flagged(tmp_path: Path) -> None:
    path, _ = make_tenants(tmp_path, "--tablespace", "file_per_table")
    _, found = lint_dump(path)
    assert len([f for f in found if f.rule == TENANT]) == 12


# --- cross-tenant-tablespace ------------------------------------------------------------------------
def test_table_in_a_tablespace_named_after_another_tenant_is_an_error(tmp_path: Path) -> None:
    sql = tenant_sql(["acme", "globex", "initech"], lambda name: f"TABLESPACE `{name}` ")
    sql = sql.replace("USE `globex`;\nCREATE TABLE `orders` (\n  `id` bigint NOT NULL AUTO_INCREMENT,\n"
                      "  `total` int NOT NULL,\n  PRIMARY KEY (`id`)\n) TABLESPACE `globex`",
                      "USE `globex`;\nCREATE TABLE `orders` (\n  `id` bigint NOT NULL AUTO_INCREMENT,\n"
                      "  `total` int NOT NULL,\n  PRIMARY KEY (`id`)\n) TABLESPACE `acme`")
    report = lint_sql(sql, tmp_path)
    [finding] = findings(report, CROSS)
    assert (finding.severity, finding.schema, finding.table) == ("error", "globex", "orders")
    assert "tablespace `acme` is named after tenant acme and holding 2 of its tables" in finding.message
    assert "1 table of tenant globex (orders) is in it" in finding.message
    assert finding.fix == "ALTER TABLE `globex`.`orders` TABLESPACE `globex`;"  # globex's own tablespace exists
    assert findings(report, TENANT) == []


def test_shared_tablespace_named_after_no_tenant(tmp_path: Path) -> None:
    sql = tenant_sql(["t1", "t2", "t3"], lambda name: "TABLESPACE `pool` ")
    [finding] = findings(lint_sql(sql, tmp_path), CROSS)
    assert finding.schema == "t2"
    assert "tablespace `pool` holds tables of 3 tenant schemas (t1, t2, t3), first of t1" in finding.message
    assert finding.fix == "\n".join([
        "CREATE TABLESPACE `t2` ADD DATAFILE 't2.ibd' ENGINE=InnoDB;",
        "ALTER TABLE `t2`.`orders` TABLESPACE `t2`;",
        "ALTER TABLE `t2`.`users` TABLESPACE `t2`;",
        "-- likewise for the other 1 tenants in `pool`",
    ])


def test_naming_convention_decides_who_a_tablespace_belongs_to(tmp_path: Path) -> None:
    sql = tenant_sql(["t1", "t2", "t3"], lambda name: f"TABLESPACE `ts_{name}` ")
    sql = sql.replace("USE `t3`;\nCREATE TABLE `orders` (\n  `id` bigint NOT NULL AUTO_INCREMENT,\n"
                      "  `total` int NOT NULL,\n  PRIMARY KEY (`id`)\n) TABLESPACE `ts_t3`",
                      "USE `t3`;\nCREATE TABLE `orders` (\n  `id` bigint NOT NULL AUTO_INCREMENT,\n"
                      "  `total` int NOT NULL,\n  PRIMARY KEY (`id`)\n) TABLESPACE `ts_t1`")
    [finding] = findings(lint_sql(sql, tmp_path), CROSS)
    assert finding.schema == "t3" and "named after tenant t1" in finding.message
    assert finding.fix == "ALTER TABLE `t3`.`orders` TABLESPACE `ts_t3`;"


def test_tablespace_named_after_a_tenant_that_does_not_use_it(tmp_path: Path) -> None:
    sql = tenant_sql(["t1", "t2", "t3"], lambda name: "TABLESPACE `t2` " if name == "t1" else "")
    report = lint_sql(sql, tmp_path)
    [finding] = findings(report, CROSS)
    assert finding.schema == "t1" and "tablespace `t2` is named after tenant t2," in finding.message
    assert finding.fix == "\n".join([
        "CREATE TABLESPACE `t1` ADD DATAFILE 't1.ibd' ENGINE=InnoDB;",
        "ALTER TABLE `t1`.`orders` TABLESPACE `t1`;",
        "ALTER TABLE `t1`.`users` TABLESPACE `t1`;",
    ])


# --- undefined-tablespace -------------------------------------------------------------------------
def migrations(tmp_path: Path, files: dict[str, str]) -> Path:
    directory = tmp_path / "migrations"
    directory.mkdir()
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory


def lint_dir(directory: Path, target: str = "mysql-8.0") -> list:  # type: ignore[type-arg]
    from linter.engine import lint_paths

    return findings(lint_paths([str(directory)], CheckContext(target=Target.parse(target))), UNDEFINED)


def test_migration_using_a_tablespace_never_created(tmp_path: Path) -> None:
    directory = migrations(tmp_path, {
        "V1__init.sql": "CREATE TABLE a (id int PRIMARY KEY) TABLESPACE ts_a;\n",
        "V2__b.sql": "CREATE TABLE b (id int PRIMARY KEY) TABLESPACE = `innodb_system`;\n"
                     "CREATE TABLE c (id int PRIMARY KEY) TABLESPACE innodb_file_per_table;\n",
    })
    [finding] = lint_dir(directory)
    assert (finding.table, finding.severity, finding.line) == ("a", "warning", 1)
    assert finding.path.endswith("V1__init.sql")
    assert "TABLESPACE `ts_a` names a general tablespace that no earlier CREATE TABLESPACE" in finding.message
    assert finding.fix == "CREATE TABLESPACE `ts_a` ADD DATAFILE 'ts_a.ibd' ENGINE=InnoDB;"


def test_tablespace_created_in_an_earlier_migration(tmp_path: Path) -> None:
    directory = migrations(tmp_path, {
        "V1__ts.sql": "CREATE TABLESPACE ts_a ADD DATAFILE 'ts_a.ibd' ENGINE=InnoDB;\n",
        "V2__a.sql": "CREATE TABLE a (id int PRIMARY KEY) TABLESPACE ts_a;\nALTER TABLE a TABLESPACE `TS_A`;\n",
    })
    assert lint_dir(directory) == []


def test_tablespace_created_after_its_use_in_the_same_file(tmp_path: Path) -> None:
    directory = migrations(tmp_path, {
        "V1__init.sql": "CREATE TABLE a (id int PRIMARY KEY) TABLESPACE ts_a;\n"
                        "CREATE TABLESPACE ts_a ADD DATAFILE 'ts_a.ibd' ENGINE=InnoDB;\n",
    })
    [finding] = lint_dir(directory)
    assert "(CREATE TABLESPACE comes later, at line 2)" in finding.message


def test_undefined_tablespace_not_for_dumps_or_mariadb(tmp_path: Path) -> None:
    sql = "CREATE TABLE a (id int PRIMARY KEY) /*!50100 TABLESPACE `ts_a` */ ENGINE=InnoDB;\n"
    assert findings(lint_sql(sql, tmp_path), UNDEFINED) == []
    directory = migrations(tmp_path, {"V1__init.sql": sql})
    assert len(lint_dir(directory)) == 1
    assert lint_dir(directory, target="mariadb-10.11") == []


def test_undefined_tablespace_check_reads_the_model_flag() -> None:
    from checks.tenant_tablespace import UndefinedTablespace

    statements = ("CREATE TABLE a (id int) TABLESPACE ts_a", "DROP TABLESPACE ts_a")
    context = CheckContext()
    assert list(UndefinedTablespace().run(model_of(*statements), context)) == []
    assert [f.table for f in UndefinedTablespace().run(model_of(*statements, migration=True), context)] == ["a"]
