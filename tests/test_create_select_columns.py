"""The columns of a CREATE TABLE ... SELECT table (linter/server/create_select.py), judged by
MariaDB: generated source tables and select lists, then the ALTERs migrations write next
(`ADD PRIMARY KEY (id)`, MODIFY, DROP COLUMN). Found by review: innolint kept only the
definition's columns, so `CREATE TABLE t AS SELECT * FROM src; ALTER TABLE t ADD PRIMARY KEY (id)`
was reported as refused (1072) and t as a table without a primary key."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from linter.rules.checkapi import CheckContext
from linter.engine import Engine, Unit
from linter.schema.target import Target
from tests.mariadb import MariaDB

DATABASE = "t_create_select"

#: (definition, server data type, nullable) of the source's columns
SOURCE_COLUMNS = [
    ("INT NOT NULL AUTO_INCREMENT", "int", False),
    ("VARCHAR(20) CHARACTER SET latin1 NOT NULL DEFAULT 'n' COMMENT 'c'", "varchar", False),
    ("BIGINT UNSIGNED DEFAULT 5", "bigint", True),
    ("INT AS (1) VIRTUAL", "int", True),
    ("CHAR(36) NOT NULL", "char", False),
    ("TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP", "timestamp", False),
    ("DECIMAL(10,2)", "decimal", True),
    ("TEXT", "text", True),
    ("INT INVISIBLE", "int", True),
]


def _script(rng: random.Random) -> tuple[str, list[str]]:
    """A source table, a CREATE TABLE ... SELECT from it and an ALTER of the copy; the copy's name."""
    picked = rng.sample(range(1, len(SOURCE_COLUMNS)), rng.randint(2, 5))
    names = ["id"] + [f"c{i}" for i in picked]
    columns = [f"id {SOURCE_COLUMNS[0][0]}"] + [f"c{i} {SOURCE_COLUMNS[i][0]}" for i in picked]
    source = f"CREATE TABLE src ({', '.join(columns)}, PRIMARY KEY (id));"
    visible = [n for n, i in zip(names, [0] + picked) if "INVISIBLE" not in SOURCE_COLUMNS[i][0]]
    items = rng.choice([
        ["*"],
        [rng.choice(["id", "src.id", "id AS id"])] + [n for n in names[1:] if rng.random() < 0.7],
        ["id"] + [f"{n} AS {n}_copy" for n in names[1:] if rng.random() < 0.7],
    ])
    definition = rng.choice(["", "(extra INT NOT NULL DEFAULT 0) ", f"({visible[-1]} VARCHAR(99)) ", "(PRIMARY KEY (id)) "])
    copy = f"CREATE TABLE cp {definition}AS SELECT {', '.join(items)} FROM src;"
    given = visible if items == ["*"] else [i.split(" AS ")[-1].split(".")[-1] for i in items]
    alters = []
    if "PRIMARY" not in definition:
        alters.append(rng.choice(["ALTER TABLE cp ADD PRIMARY KEY (id);", "ALTER TABLE cp ADD UNIQUE KEY u (id);",
                                  "ALTER TABLE cp MODIFY id BIGINT NOT NULL, ADD PRIMARY KEY (id);"]))
    if len(given) > 1:
        alters.append(rng.choice([f"ALTER TABLE cp DROP COLUMN {given[-1]};", f"ALTER TABLE cp MODIFY {given[-1]} INT;",
                                  f"ALTER TABLE cp ADD KEY k ({given[-1]}(4));" if "text" in copy.lower() else
                                  f"ALTER TABLE cp RENAME COLUMN {given[-1]} TO renamed;"]))
    return "\n".join([source, copy, *alters]) + "\n", given


def _server_view(server: MariaDB) -> tuple[list[tuple[str, str, bool]], list[tuple[str, str]]]:
    columns = server.sql(f"SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA "
                         f"= '{DATABASE}' AND TABLE_NAME = 'cp' ORDER BY ORDINAL_POSITION")
    keys = server.sql(f"SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = "
                      f"'{DATABASE}' AND TABLE_NAME = 'cp' ORDER BY INDEX_NAME, SEQ_IN_INDEX")
    return ([(str(n).lower(), str(t).lower(), v == "YES") for n, t, v in columns],
            [(str(i).lower(), str(c).lower()) for i, c in keys])


_TYPES = {"integer": "int", "bool": "tinyint", "boolean": "tinyint"}


@pytest.mark.parametrize("seed", range(24))
def test_the_copy_has_the_servers_columns_and_the_alters_after_it_apply(mariadb: MariaDB, tmp_path: Path,
                                                                         seed: int) -> None:
    script, _ = _script(random.Random(seed))
    mariadb.sql(f"DROP DATABASE IF EXISTS {DATABASE}; CREATE DATABASE {DATABASE} DEFAULT CHARACTER SET utf8mb4")
    for statement in filter(None, (s.strip() for s in script.split(";\n"))):
        mariadb.sql(statement, DATABASE)  # every statement is accepted: an error fails the test here
    columns, keys = _server_view(mariadb)
    path = tmp_path / "copy.sql"
    path.write_text(script, encoding="utf-8")
    result = Engine(CheckContext(target=Target.parse("mariadb-10.11"))).lint_unit(Unit([str(path)]))
    assert [d.message for d in result.diagnostics] == [], script
    (table,) = [t for t in result.model.tables() if t.name == "cp"]
    ours = [(c.name.lower(), _TYPES.get(c.type.lower(), c.type.lower()), bool(c.nullable)) for c in table.columns.values()]
    assert ours == columns, script
    ours_keys = sorted((("primary" if i.kind == "primary" else i.name.lower()), p.name.lower())
                       for i in table.indexes for p in i.columns)
    assert ours_keys == sorted(keys), script


def test_an_expression_the_server_types_is_not_claimed(tmp_path: Path) -> None:
    """`id + 1 AS e`: the server computes e's type; innolint keeps the columns it can tell and
    does not invent e (an ALTER naming e is then not judged as if e were known)."""
    script = ("CREATE TABLE src (id INT NOT NULL PRIMARY KEY, a VARCHAR(9));\n"
              "CREATE TABLE cp AS SELECT id, id + 1 AS e, a FROM src;\n")
    path = tmp_path / "copy.sql"
    path.write_text(script, encoding="utf-8")
    result = Engine(CheckContext(target=Target.parse("mariadb-10.11"))).lint_unit(Unit([str(path)]))
    (table,) = [t for t in result.model.tables() if t.name == "cp"]
    assert list(table.columns) == ["id", "a"]
    assert table.columns["id"].auto_increment is False


@pytest.mark.parametrize(("select", "alter", "told"), [
    ("SELECT id, id + 1 AS e, a FROM src", "ALTER TABLE cp ADD KEY (e)", False),
    ("SELECT id, id + 1 AS e, a FROM src", "ALTER TABLE cp MODIFY e BIGINT", False),
    ("SELECT s.id FROM src s JOIN src t USING (id)", "ALTER TABLE cp ADD PRIMARY KEY (id)", False),
    ("SELECT id, CONCAT(a, 'x') AS e FROM src", "ALTER TABLE cp DROP COLUMN e", False),
    ("SELECT * FROM src", "ALTER TABLE cp DROP COLUMN nothere", True),
    ("SELECT id, a AS b FROM src", "ALTER TABLE cp ADD KEY (a)", True),
])
def test_a_refusal_for_a_column_only_the_select_knows_is_not_claimed(
        mariadb: MariaDB, tmp_path: Path, select: str, alter: str, told: bool) -> None:
    """Where innolint can tell every column the SELECT gives, a missing column is the server's
    refusal; where it cannot (an expression, a join), it says it cannot tell, never "refused"."""
    script = f"CREATE TABLE src (id INT NOT NULL PRIMARY KEY, a VARCHAR(9));\nCREATE TABLE cp AS {select};\n{alter};\n"
    mariadb.sql(f"DROP DATABASE IF EXISTS {DATABASE}; CREATE DATABASE {DATABASE}")
    refused = False
    for statement in filter(None, (s.strip() for s in script.split(";\n"))):
        try:
            mariadb.sql(statement, DATABASE)
        except Exception:  # noqa: BLE001 - the server's refusal is what is judged
            refused = True
    path = tmp_path / "copy.sql"
    path.write_text(script, encoding="utf-8")
    result = Engine(CheckContext(target=Target.parse("mariadb-10.11"))).lint_unit(Unit([str(path)]))
    # told: a refused-ddl error; else a replay-error diagnostic that says it cannot tell
    (message,) = [d.message for d in [*result.diagnostics, *result.findings]
                  if d.line == 3 and d.rule in ("replay-error", "refused-ddl")]
    assert refused == told
    assert ("the server refuses the whole statement" in message) == told, message
    assert ("cannot tell whether the server refuses" in message) == (not told), message


def test_a_copied_column_keeps_the_character_set_of_the_source_database(mariadb: MariaDB, tmp_path: Path) -> None:
    """The source's default character set, not the new table's database's, is the copy's."""
    script = ("CREATE DATABASE cs_src DEFAULT CHARACTER SET latin1;\nCREATE DATABASE cs_dst DEFAULT CHARACTER SET utf8mb4;\n"
              "CREATE TABLE cs_src.src (id INT NOT NULL PRIMARY KEY, name VARCHAR(20), note TEXT);\n"
              "CREATE TABLE cs_dst.cp AS SELECT * FROM cs_src.src;\n")
    mariadb.sql("DROP DATABASE IF EXISTS cs_src; DROP DATABASE IF EXISTS cs_dst")
    for statement in filter(None, (s.strip() for s in script.split(";\n"))):
        mariadb.sql(statement)
    server = dict(mariadb.sql("SELECT COLUMN_NAME, CHARACTER_SET_NAME FROM information_schema.COLUMNS WHERE "
                              "TABLE_SCHEMA = 'cs_dst' AND TABLE_NAME = 'cp' AND CHARACTER_SET_NAME IS NOT NULL"))
    mariadb.sql("DROP DATABASE cs_src; DROP DATABASE cs_dst")
    path = tmp_path / "copy.sql"
    path.write_text(script, encoding="utf-8")
    result = Engine(CheckContext(target=Target.parse("mariadb-10.11"))).lint_unit(Unit([str(path)]))
    (table,) = [t for t in result.model.tables() if t.name == "cp"]
    assert server == {"name": "latin1", "note": "latin1"}
    assert {c.name: c.charset for c in table.columns.values() if c.charset} == server
