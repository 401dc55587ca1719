"""The replay against the real server: each script runs statement by statement on the test
MariaDB (one session, so TEMPORARY tables live as they do in a migration) and through innolint's
parser and replayer; the server's refusals must be innolint's diagnostics, statement for
statement, and the tables left (permanent and temporary: columns in order, NULL-ness, keys with
their names and columns) must be the model's.

Each class of statement (temporary tables, statements the server refuses, ALTER TABLE as one
unit, key names, name case) has scripts of its own, each run with several spellings of its names
(lower case, mixed case, quoted with a space and a hyphen) and of its keywords.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from linter.parse import ops
from linter.parse.elements import Location
from linter.schema.model import Table
from linter.parse.tokens import ParseFailure
from linter.parse.cache import ParseCache
from linter.server.replay import Replayer
from linter.schema.target import Target

# -- the scripts -------------------------------------------------------------------------------
# {t} {u} {v}: table names; {a} {b} {c}: column names; {k} {j}: key names (filled per variant)
SCRIPTS: dict[str, list[str]] = {
    # -- TEMPORARY tables: their own namespace, hiding the permanent table of their name
    "temporary hides the permanent table": [
        "CREATE TABLE {t} ({a} int NOT NULL, {b} int, PRIMARY KEY ({a}))",
        "CREATE TEMPORARY TABLE {t} ({c} varchar(10))",
        "ALTER TABLE {t} ADD {b} int",  # the temporary one
        "CREATE INDEX {k} ON {t} ({b})",
        "DROP TABLE {t}",  # drops the temporary one
        "ALTER TABLE {t} ADD {c} int FIRST",  # the permanent one again
        "DROP TABLE {t}",
        "DROP TABLE {t}",  # nothing left
    ],
    "drop temporary never drops the permanent table": [
        "CREATE TABLE {t} ({a} int)",
        "DROP TEMPORARY TABLE {t}",
        "DROP TEMPORARY TABLE IF EXISTS {t}",
        "CREATE TEMPORARY TABLE {t} ({b} int)",
        "DROP TEMPORARY TABLE {t}",
        "ALTER TABLE {t} ADD {b} int",
    ],
    "temporary renamed, copied and created twice": [
        "CREATE TEMPORARY TABLE {t} ({a} int, {b} int)",
        "CREATE INDEX {k} ON {t} ({a})",
        "RENAME TABLE {t} TO {u}",
        "CREATE TABLE {v} LIKE {u}",  # a permanent table from the temporary one
        "CREATE TEMPORARY TABLE IF NOT EXISTS {u} ({c} int)",
        "CREATE TEMPORARY TABLE {u} ({c} int)",
        "CREATE TABLE {u} ({c} int)",  # a permanent table beside the temporary one
        "ALTER TABLE {u} RENAME TO {t}",  # renames the temporary one
        "DROP TABLE {u}",
    ],
    # -- statements the server refuses change nothing
    "a second create table keeps the first": [
        "CREATE TABLE {t} ({a} int NOT NULL PRIMARY KEY)",
        "CREATE TABLE {t} ({b} int)",
        "CREATE TABLE IF NOT EXISTS {t} ({c} int)",
        "CREATE TABLE {u} LIKE {t}",
        "CREATE TABLE {u} LIKE {t}",
        "CREATE OR REPLACE TABLE {u} ({b} int, UNIQUE KEY ({b}))",
    ],
    "create table the server refuses": [
        "CREATE TABLE {t} ({a} int, {b} int, {A} int)",
        "CREATE TABLE {t} ({a} int, {b} int, KEY {k} ({a}), KEY {K} ({b}))",
        "CREATE TABLE {t} ({a} int, KEY ({a}), KEY {a} ({a}))",
        "CREATE TABLE {t} ({a} int PRIMARY KEY, {b} int, PRIMARY KEY ({b}))",
        "CREATE TABLE {t} ({a} int, KEY {k} ({c}))",
        "CREATE TABLE {t} ({a} int, {b} int, KEY ({a}), KEY ({a}, {b}), UNIQUE ({a}))",
    ],
    "alter table is all or nothing": [
        "CREATE TABLE {t} ({a} int NOT NULL, {b} int, KEY {k} ({b}), PRIMARY KEY ({a}))",
        "ALTER TABLE {t} ADD {c} int, ADD {B} int",
        "ALTER TABLE {t} ADD {c} int, DROP INDEX {j}",
        "ALTER TABLE {t} ADD {c} int, ADD KEY {K} ({a})",
        "ALTER TABLE {t} DROP COLUMN {c}, ADD {c} int",
        "ALTER TABLE {t} ADD PRIMARY KEY ({b})",
        "ALTER TABLE {t} MODIFY {b} bigint, MODIFY {b} int",
        "ALTER TABLE {t} CHANGE {b} {c} int, ADD KEY {j} ({b})",
        "ALTER TABLE {t} ADD {c} int AFTER {v}",
        "ALTER TABLE {t} DROP COLUMN {a}, DROP COLUMN {b}",
        "ALTER TABLE {t} DROP FOREIGN KEY {j}",
        "ALTER TABLE {t} RENAME INDEX {j} TO {k}",
        "ALTER TABLE {t} ADD {c} int, RENAME TO {t}",
    ],
    "alter table reads old names and builds new ones": [
        "CREATE TABLE {t} ({a} int, {b} int, KEY {k} ({a}), KEY {j} ({a}, {b}))",
        "ALTER TABLE {t} RENAME COLUMN {a} TO {b}, RENAME COLUMN {b} TO {a}",  # a swap
        "ALTER TABLE {t} ADD KEY {K}2 ({c}), ADD {c} int FIRST",
        "ALTER TABLE {t} CHANGE {a} {d} bigint NOT NULL AFTER {c}, ADD {e} int AFTER {d}",
        "ALTER TABLE {t} DROP KEY {k}, ADD KEY {k} ({b})",
        "ALTER TABLE {t} DROP COLUMN {b}",  # leaves both keys on it
        "ALTER TABLE {t} ADD PRIMARY KEY ({d}), ADD UNIQUE ({e}), ADD KEY ({e})",
        "ALTER TABLE {t} DROP PRIMARY KEY, DROP PRIMARY KEY",
        "ALTER TABLE {t} DROP COLUMN IF EXISTS {b}, ADD COLUMN IF NOT EXISTS {c} int, ADD KEY IF NOT EXISTS {k} ({c})",
        "ALTER TABLE {t} MODIFY {d} int NULL",
    ],
    "foreign keys named by the server": [
        "CREATE TABLE {u} ({a} int NOT NULL PRIMARY KEY, {b} int, KEY ({b}))",
        "CREATE TABLE {t} ({a} int, {b} int, KEY ({a}), KEY ({b}), FOREIGN KEY ({a}) REFERENCES {u} ({a}),"
        " CONSTRAINT {k} FOREIGN KEY ({b}) REFERENCES {u} ({a}), FOREIGN KEY ({b}) REFERENCES {u} ({b}))",
        "RENAME TABLE {t} TO {v}",
        "ALTER TABLE {v} DROP FOREIGN KEY {t}_ibfk_1",
        "ALTER TABLE {v} DROP FOREIGN KEY {v}_IBFK_1",
        "ALTER TABLE {v} ADD FOREIGN KEY ({a}) REFERENCES {u} ({a}), DROP FOREIGN KEY {v}_ibfk_2",
        "ALTER TABLE {v} DROP FOREIGN KEY {v}_ibfk_3, DROP CONSTRAINT {k}",
        "ALTER TABLE {v} DROP CONSTRAINT {k}",
    ],
    "rename and drop table": [
        "CREATE TABLE {t} ({a} int)",
        "CREATE TABLE {u} ({b} int)",
        "RENAME TABLE {t} TO {u}",
        "RENAME TABLE {t} TO {v}, {c} TO {t}",  # all or none
        "RENAME TABLE {t} TO {v}, {u} TO {t}, {v} TO {u}",  # a swap
        "DROP TABLE {t}, {c}, {u}",  # MariaDB drops the two that are there
        "ALTER TABLE {u} ADD {c} int",
        "RENAME TABLE IF EXISTS {c} TO {v}",
    ],
    # -- name case: database and table names as written (lower_case_table_names=0 on Linux)
    "table name case": [
        "CREATE TABLE {t} ({a} int)",
        "CREATE TABLE {T} ({b} int)",
        "ALTER TABLE {T} ADD {c} int",
        "DROP TABLE {t}",
        "ALTER TABLE {t} ADD {c} int",
        "ALTER TABLE {T} DROP COLUMN {C}, ADD KEY {k} ({A_b})",
        "ALTER TABLE {T} DROP INDEX {K}",
    ],
    # -- a `;` left out: the server refuses the text, nothing of it runs
    "glued statements": [
        "CREATE TABLE {t} ({a} varchar(100))",
        "DROP TABLE IF EXISTS {t}\nCREATE TABLE {t} ({b} int)",
        "SET @x = 1\nCREATE TABLE {u} ({a} int)",
        "INSERT INTO {t} VALUES (1)\nDROP TABLE {t}",
        "CREATE TABLE {u} ({a} int)\nALTER TABLE {t} ADD {b} int",
        "INSERT INTO {t} VALUES ('x\nCREATE TABLE {v} (a int)')",
        "ALTER TABLE {t}\n  ADD {c} int,\n  DROP COLUMN {a}",
    ],
}

#: spellings of the names: (t, u, v, a, b, c, d, e, k, j) unquoted; a variant quotes them when needed
_NAMES = [
    ("t1", "t2", "t3", "a", "b", "c", "d", "e", "k1", "k2"),
    ("Orders", "Order_Items", "Customers", "Id", "Total", "Created_At", "Note", "Rank_", "Idx_Total", "FK_x"),
    ("order items", "x-y", "tbl.3", "col a", "col-b", "Col C", "d d", "e-e", "key 1", "key-2"),
]


def _quote(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else "`" + name.replace("`", "``") + "`"


def _fill(statement: str, names: tuple[str, ...], lower_keywords: bool) -> str:
    t, u, v, a, b, c, d, e, k, j = names
    values = {"t": t, "u": u, "v": v, "a": a, "b": b, "c": c, "d": d, "e": e, "k": k, "j": j,
              "T": t.upper() if t.upper() != t else t.title(), "A": a.upper(), "B": b.upper(), "C": c.upper(),
              "K": k.upper(), "A_b": b}

    def name(m: re.Match[str]) -> str:
        key, tail = m.group(1), m.group(2) or ""
        return _quote(values[key] + tail)

    filled = re.sub(r"\{(\w+?)\}((?:_ibfk_|_IBFK_)\d+|2)?", name, statement)
    if lower_keywords:  # keywords in lower case (names are quoted or written as they are)
        filled = re.sub(r"\b(CREATE|TABLE|ALTER|ADD|DROP|INDEX|KEY|PRIMARY|TEMPORARY|RENAME|COLUMN|UNIQUE)\b",
                        lambda m: m.group(1).lower(), filled)
    return filled


VARIANTS = [(names, lower) for names, lower in itertools.product(_NAMES, (False, True)) if not (lower and names is _NAMES[2])]


# -- the server's side -------------------------------------------------------------------------
def _server(mariadb: Any, database: str, statements: list[str]) -> tuple[set[int], dict[str, Any], dict[str, Any]]:
    """Run the statements in one session: (indexes of the refused ones, permanent tables,
    temporary tables), tables as `_shape` gives them."""
    import pymysql

    mariadb.sql(f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
    connection = mariadb.connect(database)
    refused: set[int] = set()
    temporary: dict[str, Any] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET SESSION foreign_key_checks = 0")
            for n, statement in enumerate(statements):
                try:
                    cursor.execute(statement)
                except pymysql.err.MySQLError:
                    refused.add(n)
            names = _names_in(statements)
            for name in names:  # which of them are temporary tables in this session
                try:
                    cursor.execute(f"SHOW CREATE TABLE {_quote(name)}")
                except pymysql.err.MySQLError:
                    continue
                if cursor.fetchone()[1].startswith("CREATE TEMPORARY TABLE"):
                    cursor.execute(f"SHOW COLUMNS FROM {_quote(name)}")
                    columns = [(row[0], row[2] == "YES") for row in cursor.fetchall()]
                    cursor.execute(f"SHOW INDEX FROM {_quote(name)}")
                    temporary[name] = _shape(columns, [(row[2], row[3], row[4], not row[1]) for row in cursor.fetchall()], 0)
    finally:
        connection.close()
    permanent: dict[str, Any] = {}
    rows = mariadb.sql(
        "SELECT TABLE_NAME, COLUMN_NAME, IS_NULLABLE FROM information_schema.COLUMNS "
        f"WHERE TABLE_SCHEMA = '{database}' ORDER BY TABLE_NAME, ORDINAL_POSITION")
    columns_of: dict[str, list[tuple[str, bool]]] = {}
    for table, column, nullable in rows:
        columns_of.setdefault(table, []).append((column, nullable == "YES"))
    keys = mariadb.sql(
        "SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE = 0 FROM information_schema.STATISTICS "
        f"WHERE TABLE_SCHEMA = '{database}'")
    fks = mariadb.sql(
        "SELECT TABLE_NAME, COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS "
        f"WHERE CONSTRAINT_SCHEMA = '{database}' GROUP BY TABLE_NAME")
    fk_count = dict(fks)
    for table, columns in columns_of.items():
        permanent[table] = _shape(columns, [k[1:] for k in keys if k[0] == table], fk_count.get(table, 0))
    return refused, permanent, temporary


def _names_in(statements: list[str]) -> list[str]:
    found: dict[str, None] = {}
    for statement in statements:
        for m in re.finditer(r"`((?:[^`]|``)+)`|\b([A-Za-z_][A-Za-z0-9_]*)\b", statement):
            found[(m.group(1) or "").replace("``", "`") or m.group(2)] = None
    return list(found)


def _shape(columns: list[tuple[str, bool]], keys: list[tuple[str, int, str, bool]], foreign_keys: int) -> dict[str, Any]:
    parts: dict[str, list[tuple[int, str]]] = {}
    unique: dict[str, bool] = {}
    for name, seq, column, is_unique in keys:
        parts.setdefault(name, []).append((int(seq), column))
        unique[name] = bool(is_unique)
    return {
        "columns": columns,
        "keys": sorted((name, unique[name], tuple(c for _, c in sorted(cols))) for name, cols in parts.items()),
        "foreign keys": foreign_keys,
    }


# -- innolint's side ---------------------------------------------------------------------------
def _innolint(statements: list[str], target: str = "mariadb-10.11", lctn: int = 0,
              database: str = "db") -> tuple[set[int], dict[str, Any], dict[str, Any], list[str]]:
    replayer = Replayer(target=Target.parse(target, lctn))
    replayer.apply(ops.SchemaStatement("use", database), Location("s.sql", 1))
    cache = ParseCache()
    reported: set[int] = set()
    messages: list[str] = []
    for n, statement in enumerate(statements):
        op = cache.parse(statement)
        if isinstance(op, ParseFailure):
            reported.add(n)
            messages.append(f"{n}: parse-error: {op.reason}")
            continue
        problem = replayer.apply(op, Location("s.sql", n + 2))
        if problem:
            reported.add(n)
            messages.append(f"{n}: {problem}")
    schema = replayer.model.find_schema(database)
    assert schema is not None
    return reported, _model(schema.tables), _model(schema.temporary), messages


def _model(tables: dict[str, Table]) -> dict[str, Any]:
    return {
        table.name: _shape(
            [(c.name, c.nullable) for c in table.columns.values()],
            [(i.name or "", n, part, i.kind in ("primary", "unique"))
             for i in table.indexes for n, part in enumerate(i.column_names, start=1)],
            len(table.foreign_keys),
        )
        for table in tables.values()
    }


def _names_of(statements: list[str]) -> str:
    return "\n".join(f"{n}: {s}" for n, s in enumerate(statements))


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_replay_does_what_mariadb_does(mariadb: Any, script: str, variant: int) -> None:
    names, lower = VARIANTS[variant]
    statements = [_fill(s, names, lower) for s in SCRIPTS[script]]
    refused, permanent, temporary = _server(mariadb, "replay_oracle", statements)
    reported, model_permanent, model_temporary, messages = _innolint(statements, database="replay_oracle")
    context = f"{_names_of(statements)}\ninnolint said:\n" + "\n".join(messages)
    assert reported == refused, context
    assert model_permanent == permanent, context
    assert model_temporary == temporary, context


# -- lower_case_table_names --------------------------------------------------------------------
CASE_SCRIPT = [
    "CREATE TABLE {T} ({a} int)",
    "CREATE TABLE {t} ({b} int)",  # the same table when names are folded
    "ALTER TABLE {t} ADD {c} int",
    "RENAME TABLE {T} TO {U}",
    "CREATE TABLE {t} ({b} int)",
    "DROP TABLE {u}",
    "CREATE TEMPORARY TABLE {U} ({a} int)",
    "ALTER TABLE {u} ADD {b} int",
]


def _fill_case(statement: str, names: tuple[str, ...]) -> str:
    t, u, a, b, c = names
    values = {"t": t, "T": t.upper(), "u": u, "U": u.upper(), "a": a, "b": b, "c": c}
    return re.sub(r"\{(\w)\}", lambda m: _quote(values[m.group(1)]), statement)


CASE_NAMES = [("t1", "t2", "a", "b", "c"), ("Orders", "Items", "Id", "Total", "Note"), ("order items", "x-y", "a a", "b-b", "c")]


@pytest.fixture(scope="module")
def mariadb_folding() -> Any:
    """A second private server with lower_case_table_names=1 (Windows' setting), started for
    this module only."""
    import shutil
    import tempfile
    from pathlib import Path

    from tests.mariadb import _server_binary_or_skip, _stop, start_server

    mariadbd = _server_binary_or_skip()
    base = Path(tempfile.mkdtemp(prefix="innolint-lctn-"))
    process, server = start_server(mariadbd, base, ("--lower-case-table-names=1",))
    try:
        assert server.sql("SELECT @@lower_case_table_names") == [(1,)]
        yield server
    finally:
        _stop(process)
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.mariadb
@pytest.mark.parametrize("names", CASE_NAMES)
def test_folded_table_names_as_the_server_folds_them(mariadb_folding: Any, names: tuple[str, ...]) -> None:
    statements = [_fill_case(s, names) for s in CASE_SCRIPT]
    refused, permanent, temporary = _server(mariadb_folding, "Case_Db", statements)
    reported, model_permanent, model_temporary, messages = _innolint(statements, lctn=1, database="Case_Db")
    context = f"{_names_of(statements)}\ninnolint said:\n" + "\n".join(messages)
    assert reported == refused == {1}, context
    assert model_permanent == permanent, context  # names stored in lower case
    assert set(model_temporary) == {n.lower() for n in temporary} == {names[1].lower()}, context
    assert all(model_temporary[n.lower()] == shape for n, shape in temporary.items()), context


@pytest.mark.parametrize("names", CASE_NAMES)
def test_names_as_written_on_linux(mariadb: Any, names: tuple[str, ...]) -> None:
    statements = [_fill_case(s, names) for s in CASE_SCRIPT]
    refused, permanent, temporary = _server(mariadb, "Case_Db", statements)
    reported, model_permanent, model_temporary, messages = _innolint(statements, lctn=0, database="Case_Db")
    context = f"{_names_of(statements)}\ninnolint said:\n" + "\n".join(messages)
    assert reported == refused, context
    assert (model_permanent, model_temporary) == (permanent, temporary), context
    assert len(model_permanent) == 2  # t and T are two tables


@pytest.mark.parametrize("lctn", [0, 1, 2])
def test_database_and_table_names_fold_in_one_place(lctn: int) -> None:
    replayer = Replayer(target=Target.parse("mysql-8.0", lctn))
    # (CREATE DATABASE shop: with lower_case_table_names=0 a database that differs only in case from
    # one the input knows is taken not to exist, tests/test_name_case.py)
    for n, text in enumerate(["USE Shop", "CREATE TABLE Orders (id int)", "CREATE DATABASE shop",
                              "CREATE TABLE shop.orders (id int)"]):
        replayer.apply(ParseCache().parse(text), Location("s.sql", n + 1))  # type: ignore[arg-type]
    model = replayer.model
    folded = lctn != 0
    assert (model.find_table("SHOP", "ORDERS") is not None) == folded
    assert len(model.tables()) == (1 if folded else 2)
    stored = {(t.schema, t.name) for t in model.tables()}
    assert stored == {0: {("Shop", "Orders"), ("shop", "orders")}, 1: {("shop", "orders")}, 2: {("Shop", "Orders")}}[lctn]
    assert model.key("Orders") == ("Orders" if lctn == 0 else "orders")


def test_column_key_and_constraint_names_are_case_insensitive_whatever_the_setting() -> None:
    replayer = Replayer()
    texts = ["CREATE TABLE t (Id int, Total int, KEY Idx (Total), CONSTRAINT Fk FOREIGN KEY (Id) REFERENCES p (id))",
             "ALTER TABLE t MODIFY ID bigint, DROP INDEX IDX, DROP FOREIGN KEY fK, ADD KEY idx2 (TOTAL)",
             "ALTER TABLE t RENAME COLUMN total TO Sum, ADD tOtAl int"]
    for n, text in enumerate(texts):
        assert replayer.apply(ParseCache().parse(text), Location("s.sql", n + 1)) is None  # type: ignore[arg-type]
    table = replayer.model.find_table(None, "t")
    assert table is not None
    assert [c.name for c in table.columns.values()] == ["ID", "Sum", "tOtAl"]
    # the key the server made for the foreign key (named after its constraint) outlives it
    assert [(i.name, i.column_names) for i in table.indexes] == [("Fk", ("ID",)), ("idx2", ("Sum",))]
    assert table.foreign_keys == [] and table.column("id").type == "BIGINT"  # type: ignore[union-attr]


def test_lower_case_table_names_is_a_configuration_key(tmp_path: Any) -> None:
    from linter.config.defaults import ConfigError
    from linter.config.settings import ConfigResolver
    from linter.engine import RunOptions, lint_paths

    sql = tmp_path / "schema.sql"
    sql.write_text("CREATE TABLE Orders (id int PRIMARY KEY);\nCREATE TABLE orders (id int PRIMARY KEY);\n")
    for value, tables, refused in ((0, 2, 0), (1, 1, 1), (2, 1, 1)):
        (tmp_path / ".innolint.toml").write_text(f"lower_case_table_names = {value}\n")
        report = lint_paths([str(sql)], options=RunOptions(config=ConfigResolver()))
        said = [f for f in report.findings if f.rule == "refused-ddl"]
        assert (report.stats.tables, len(said), report.diagnostics) == (tables, refused, []), value
        if refused:
            [finding] = said
            assert finding.line == 2 and "already exists (created at" in finding.message and ":1; error 1050" in finding.message
    (tmp_path / ".innolint.toml").write_text("lower_case_table_names = 3\n")
    with pytest.raises(ConfigError, match="lower_case_table_names"):
        lint_paths([str(sql)], options=RunOptions(config=ConfigResolver()))


# -- what checks see, what is reported -----------------------------------------------------------
def test_temporary_tables_are_not_linted_and_do_not_replace_the_schema_table(tmp_path: Any) -> None:
    from tests.helpers import lint_sql

    report = lint_sql(
        "CREATE TABLE t (a int);\n"  # no primary key: flagged
        "CREATE TEMPORARY TABLE t (a int PRIMARY KEY);\n"  # hides it, but vanishes with the session
        "CREATE TEMPORARY TABLE scratch (a int);\n"
        "ALTER TABLE t ADD b int;\n",  # the temporary one
        tmp_path,
    )
    assert [(f.rule, f.table, f.line) for f in report.findings if f.rule == "no-primary-key"] == [("no-primary-key", "t", 1)]
    assert report.stats.tables == 1 and not report.diagnostics


@pytest.mark.parametrize(("text", "line", "starts"), [
    ("DROP TABLE IF EXISTS t1\nCREATE TABLE t1 (id int PRIMARY KEY);", 2, "CREATE TABLE"),
    ("SET FOREIGN_KEY_CHECKS = 0\n\n  create table t1 (id int);", 3, "CREATE TABLE"),
    ("INSERT INTO t VALUES (1),\n(2)\nDROP TABLE t1;", 3, "DROP TABLE"),
    ("CREATE TABLE t1 (id int)\nALTER TABLE t1 ADD b int;", 2, "ALTER TABLE"),
    ("ALTER TABLE t1 ADD b int\nRENAME TABLE t1 TO t2;", 2, "RENAME TABLE"),
    ("CREATE INDEX i ON t1 (a)\nCREATE TABLE t2 (a int);", 2, "CREATE TABLE"),
    ("LOCK TABLES t1 WRITE\nTRUNCATE TABLE t1;", 2, "TRUNCATE"),
])
def test_a_missing_semicolon_is_a_parse_error_where_the_second_statement_starts(
        tmp_path: Any, text: str, line: int, starts: str) -> None:
    from tests.helpers import lint_sql

    report = lint_sql("CREATE TABLE t1 (x int PRIMARY KEY);\n" + text + "\n", tmp_path)
    [diagnostic] = [d for d in report.diagnostics if d.rule == "parse-error"]
    assert diagnostic.line == line + 1 and f"`;` seems to be missing before `{starts}" in diagnostic.message
    assert report.stats.tables == 1  # nothing of the glued text ran


@pytest.mark.parametrize("text", [
    "ALTER TABLE t1\n  DROP COLUMN b,\n  ALTER COLUMN a SET DEFAULT 1,\n  RENAME TO t2;",
    "INSERT INTO t1 VALUES ('a\nCREATE TABLE x (a int)');",
    "CREATE TABLE t2 (a int) -- comment\n-- DROP TABLE t1\n;",
    "CREATE TABLE t2 (\n  `drop` int,\n  `create` int\n)\nENGINE=InnoDB;",
    "CREATE TRIGGER tr BEFORE INSERT ON t1 FOR EACH ROW\nINSERT INTO log VALUES (1);",
    "UPDATE t1\nSET b = 1;",
])
def test_statements_over_several_lines_are_not_taken_for_glued_ones(tmp_path: Any, text: str) -> None:
    from tests.helpers import lint_sql

    report = lint_sql("CREATE TABLE t1 (a int PRIMARY KEY, b int);\n" + text + "\n", tmp_path)
    assert not [d for d in report.diagnostics if d.rule == "parse-error"], report.diagnostics


def test_dynamic_sql_is_reported_at_each_statement_up_to_a_cap_per_kind_and_file(tmp_path: Any) -> None:
    """Each EXECUTE / EXECUTE IMMEDIATE / CALL whose SQL innolint cannot compute (here: a table's
    rows, a procedure the input does not create) may change the schema: each is said where it is (a
    second CALL may run what the first did not), up to UNFOLLOWED_PER_FILE per kind and file."""
    from linter.server.procedures import UNFOLLOWED_PER_FILE
    from tests.helpers import lint_sql

    many = "".join(f"CALL step({i});\n" for i in range(UNFOLLOWED_PER_FILE + 5))
    report = lint_sql(
        "CREATE TABLE t (id int PRIMARY KEY);\n"
        "SET @s = (SELECT ddl FROM pending_changes LIMIT 1);\n"
        "PREPARE stmt FROM @s;\n"
        "EXECUTE stmt;\n"
        "EXECUTE stmt;\n"
        "DEALLOCATE PREPARE stmt;\n"
        "execute immediate @s;\n" + many,
        tmp_path,
    )
    said = [(d.rule, d.line, d.message.split(":")[0]) for d in report.diagnostics]
    calls = [("replay-error", 8 + i, "CALL") for i in range(UNFOLLOWED_PER_FILE)]
    assert said == [("replay-error", 4, "EXECUTE"), ("replay-error", 5, "EXECUTE"),
                    ("replay-error", 7, "EXECUTE IMMEDIATE"), *calls]
    assert "reads the rows of pending_changes" in report.diagnostics[0].message
    assert "are enough to show it" in report.diagnostics[-1].message
    assert all("schema after this statement may differ" in d.message for d in report.diagnostics)


def test_dynamic_sql_innolint_can_compute_is_run(tmp_path: Any) -> None:
    """A string, a CONCAT of strings, EXECUTE IMMEDIATE: run as the server runs them (the second
    EXECUTE of a DROP PRIMARY KEY is refused: 1091), and nothing is said of the schema after."""
    from tests.helpers import lint_sql

    report = lint_sql(
        "CREATE TABLE t (id int PRIMARY KEY, b int);\n"
        "SET @s = CONCAT('ALTER TABLE t ', 'DROP PRIMARY KEY');\n"
        "PREPARE stmt FROM @s;\nEXECUTE stmt;\nEXECUTE stmt;\nDEALLOCATE PREPARE stmt;\n"
        "execute immediate 'CREATE TABLE u (a int)';\n", tmp_path, target="mariadb-10.11")
    assert not report.diagnostics, report.diagnostics
    assert [(f.rule, f.line) for f in report.findings if f.rule in ("refused-ddl", "no-primary-key")] == [
        ("no-primary-key", 4), ("refused-ddl", 5), ("no-primary-key", 7)], report.findings  # (4: the EXECUTE dropped it)
