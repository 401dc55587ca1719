"""Database and table names in checks are compared as the model compares them
(`SchemaModel.key`: the server's lower_case_table_names, 0 by default, so `t1` and `T1` are two
tables), never lower-cased by hand: a schema written in mixed case is found again, a foreign key
to `P` is not one to `p` unless the server folds names, tenants are told apart the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.rules.checkapi import foreign_keys_by_parent, table_key
from linter.parse.elements import Location
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from linter.schema.target import Target
from linter.schema.tenants import detect_tenants
from tests.helpers import findings, lint_sql


def _model(statements: list[str], lower_case_table_names: int = 0) -> tuple[Replayer, list[str | None]]:
    replayer = Replayer(target=Target.parse("mysql-8.0", lower_case_table_names))
    problems = [replayer.apply(parse_statement(s), Location("f.sql", n)) for n, s in enumerate(statements, 1)]
    return replayer, problems


@pytest.mark.parametrize("schema", ["Shop", "SHOP", "shop_Eu"])
def test_a_schema_in_mixed_case_is_found_by_the_checks(schema: str, tmp_path: Path) -> None:
    """non-innodb-engine groups tables by schema and looks the schema up again; the character set
    of CREATE DATABASE is each table's default (linter.schema.innodb_sizes.schema_of)."""
    sql = (f"CREATE DATABASE {schema} CHARACTER SET latin1; USE {schema};\n"
           "CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(1000), KEY (note));\n"
           "CREATE TABLE log (id INT PRIMARY KEY) ENGINE=MyISAM;\n")
    report = lint_sql(sql, tmp_path, target="mysql-8.0")
    assert [f.table for f in findings(report, "non-innodb-engine")] == ["log"]
    # 1,000 latin1 characters are 1,000 bytes: within InnoDB's 3,072 (utf8mb4, the server's
    # default, would make 4,000)
    assert findings(report, "index-key-length") == []


@pytest.mark.parametrize(("lower_case_table_names", "parent"), [(0, "P"), (1, "p"), (2, "p")])
def test_foreign_keys_by_parent_follow_the_name_folding(lower_case_table_names: int, parent: str) -> None:
    replayer, problems = _model([
        "CREATE TABLE p (id INT PRIMARY KEY)",
        "CREATE TABLE P (id INT PRIMARY KEY)",  # a second table on Linux, refused where names fold
        "CREATE TABLE c (x INT, KEY (x), FOREIGN KEY (x) REFERENCES P (id))",
    ], lower_case_table_names)
    model = replayer.model
    assert (problems[1] is None) == (lower_case_table_names == 0)
    by_parent = foreign_keys_by_parent(model)
    assert [child.name for child, _ in by_parent[table_key(model, None, parent)]] == ["c"]
    if lower_case_table_names == 0:
        assert table_key(model, None, "p") not in by_parent
    else:  # any spelling finds it
        assert table_key(model, None, "P") == table_key(model, None, "p")


@pytest.mark.parametrize(("lower_case_table_names", "tenant"), [(0, False), (1, True), (2, True)])
def test_tenant_schemas_follow_the_name_folding(lower_case_table_names: int, tenant: bool) -> None:
    statements = []
    for n in range(3):
        statements += [f"CREATE DATABASE tenant_{n}", f"USE tenant_{n}", "CREATE TABLE a (id INT PRIMARY KEY)",
                       "CREATE TABLE b (id INT PRIMARY KEY)"]
    replayer, _ = _model(statements, lower_case_table_names)
    layout = detect_tenants(replayer.model)
    assert layout is not None and layout.is_tenant("tenant_1")
    assert layout.is_tenant("TENANT_1") is tenant  # another database on Linux
