"""The names the server gives what the DDL leaves unnamed, as the model computes them, against
MariaDB 10.11: generated scripts of CREATE TABLE and ALTER TABLE with unnamed keys (inline
`UNIQUE`, `KEY (a)` twice, a second key on a column after an explicit `a_2`), loaded into the
test server; the model's key names and columns must be the server's. A fix that drops a key by
name (redundant-index) depends on this: the wrong name drops the wrong index.

Foreign keys are left out of the generated scripts: an unindexed one makes the server add a key
the model does not have (and rename it later); their constraint names (`<table>_ibfk_<n>`) are
checked on their own below.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pymysql
import pytest

from linter.parse.elements import IndexColumn, Location
from linter.schema.model import Table, generated_key_name
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from tests.mariadb import MariaDB

SCRIPTS = 80
SEED = 20


def _model(statements: list[str]) -> Replayer:
    replayer = Replayer()
    for n, statement in enumerate(statements, 1):
        problem = replayer.apply(parse_statement(statement), Location("gen.sql", n))
        assert problem is None, (problem, statement)
    return replayer


def _server_keys(server: MariaDB, schema: str, table: str) -> dict[str, tuple[str, ...]]:
    rows = server.sql(
        "SELECT INDEX_NAME, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS "
        f"WHERE TABLE_SCHEMA = '{schema}' AND TABLE_NAME = '{table}' GROUP BY INDEX_NAME")
    return {str(name).lower(): tuple(str(columns).split(",")) for name, columns in rows}


def _model_keys(table: Table) -> dict[str, tuple[str, ...]]:
    return {(index.name or "?").lower(): index.column_names for index in table.indexes}


def _script(rng: random.Random, n: int) -> list[str]:
    """A CREATE TABLE whose elements come in random order (columns with inline UNIQUE, unnamed
    and named keys, names that look generated), then ALTERs adding unnamed keys, dropping one,
    CREATE INDEX."""
    columns = ["a", "b", "Cc", "primary_x", "d"]
    elements = [f"`{c}` INT{' UNIQUE' if rng.random() < 0.25 else ''}" for c in columns]
    for _ in range(rng.randint(1, 6)):
        kind = rng.choice(["KEY", "INDEX", "UNIQUE KEY", "UNIQUE"])
        parts = ", ".join(f"`{c}`" for c in rng.sample(columns, rng.randint(1, 2)))
        name = rng.choice(["", "", "", "a_2", "A_3", "k1", "b_2"])
        elements.append(f"{kind} {f'`{name}` ' if name else ''}({parts})")
    if rng.random() < 0.5:
        elements.append("PRIMARY KEY (`d`)" if rng.random() < 0.5 else "`id` INT PRIMARY KEY")
    rng.shuffle(elements)
    table = f"t{n}"
    statements = [f"CREATE TABLE `{table}` ({', '.join(elements)}) ENGINE=InnoDB"]
    for _ in range(rng.randint(0, 3)):
        parts = ", ".join(f"`{c}`" for c in rng.sample(columns, rng.randint(1, 2)))
        statements.append(rng.choice([
            f"ALTER TABLE `{table}` ADD KEY ({parts})",
            f"ALTER TABLE `{table}` ADD UNIQUE ({parts}), ADD INDEX ({parts})",
            f"ALTER TABLE `{table}` ADD COLUMN `e{len(statements)}` INT UNIQUE",
            f"CREATE INDEX `a` ON `{table}` ({parts})",
        ]))
    return statements


def _scripts() -> Iterator[tuple[int, list[str]]]:
    rng = random.Random(SEED)
    for n in range(SCRIPTS):
        yield n, _script(rng, n)


def test_generated_key_names_follow_the_server(mariadb: MariaDB) -> None:
    schema = "names_keys"
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    compared = refused = 0
    mismatches: list[str] = []
    try:
        for n, statements in _scripts():
            ran: list[str] = []
            for statement in statements:
                try:
                    mariadb.sql(statement, database=schema)
                except pymysql.err.MySQLError:  # a duplicate key name the script chose: not a case
                    refused += 1
                    break
                ran.append(statement)
            if not ran:
                continue
            table = _model(ran).model.find_table(None, f"t{n}")
            assert table is not None
            server, model = _server_keys(mariadb, schema, f"t{n}"), _model_keys(table)
            compared += 1
            if server != model:
                mismatches.append(f"{ran}\n  server {server}\n  model  {model}")
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")
    assert mismatches == [], "\n".join(mismatches)
    assert compared >= SCRIPTS * 0.6, (compared, refused)


def test_generated_foreign_key_names_follow_the_server(mariadb: MariaDB) -> None:
    """Unnamed constraints of a CREATE TABLE are numbered from 1 even past a written
    `<table>_ibfk_5`; one an ALTER adds takes the highest number plus one, also after the
    highest was dropped; RENAME TABLE renames them; a generated name can be dropped."""
    schema = "names_fks"
    statements = [
        "CREATE TABLE p (id INT PRIMARY KEY, u INT UNIQUE)",
        "CREATE TABLE c (x INT, y INT, z INT, KEY (x), KEY (y), KEY (z), "
        "CONSTRAINT c_ibfk_5 FOREIGN KEY (z) REFERENCES p (id), FOREIGN KEY (x) REFERENCES p (id), "
        "CONSTRAINT named FOREIGN KEY (y) REFERENCES p (u), FOREIGN KEY (y) REFERENCES p (id))",
        "ALTER TABLE c ADD FOREIGN KEY (x) REFERENCES p (u)",
        "ALTER TABLE c DROP FOREIGN KEY c_ibfk_5, ADD FOREIGN KEY (z) REFERENCES p (u)",
        "CREATE TABLE d0 (x INT, y INT, KEY (x), KEY (y), FOREIGN KEY (x) REFERENCES p (id), "
        "FOREIGN KEY (y) REFERENCES p (id))",
        "ALTER TABLE d0 DROP FOREIGN KEY d0_ibfk_1",
        "RENAME TABLE d0 TO d",
        "ALTER TABLE d ADD FOREIGN KEY (x) REFERENCES p (u)",
    ]
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    try:
        for statement in statements:
            mariadb.sql(statement, database=schema)
        rows = mariadb.sql(
            "SELECT TABLE_NAME, CONSTRAINT_NAME, GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION), "
            "REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = "
            f"'{schema}' AND REFERENCED_TABLE_NAME IS NOT NULL GROUP BY TABLE_NAME, CONSTRAINT_NAME")
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")
    server = {(str(t), str(name), str(cols), str(ref)) for t, name, cols, ref in rows}
    model = _model(statements).model
    named = set()
    for table_name in ("c", "d"):
        table = model.find_table(None, table_name)
        assert table is not None
        for fk in table.foreign_keys:
            named.add((table.name, fk.name, ",".join(fk.columns), fk.ref_columns[0]))
    assert named == server
    assert ("c", "c_ibfk_1", "x", "id") in server and ("c", "c_ibfk_7", "z", "u") in server
    assert ("d", "d_ibfk_2", "y", "id") in server and ("d", "d_ibfk_3", "x", "u") in server


@pytest.mark.parametrize(("first", "taken", "expected"), [
    (IndexColumn("a"), [], "a"),
    (IndexColumn("a"), ["A"], "a_2"),
    (IndexColumn("a"), ["a", "a_2", "A_3"], "a_4"),
    (IndexColumn("primary"), [], "primary_2"),
    (IndexColumn("x" * 64), ["x" * 64], "x" * 61 + "_2"),
    (IndexColumn("(lower(a))", expression=True), ["functional_index"], "functional_index_2"),
])
def test_generated_key_name(first: IndexColumn, taken: list[str], expected: str) -> None:
    assert generated_key_name(first, taken) == expected
