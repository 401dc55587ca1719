"""CREATE TABLE ... SELECT whose keys name columns (linter/server/refusals.py, `SelectedColumns`):
the server makes the columns from the definition and the SELECT, then refuses a key on a column
neither gives (1072). Each case runs on MariaDB 10.11 and through innolint's replay; where innolint
cannot tell the SELECT's columns it must say so at the statement, never refuse or accept silently.
"""

from __future__ import annotations

from typing import Any

import pytest

from linter.parse.cache import ParseCache
from linter.parse import ops
from linter.parse.elements import Location
from linter.server.replay import Replayer
from linter.schema.target import Target
from tests.test_replay import _innolint, _server

CASES: dict[str, list[str]] = {
    "SELECT * from a table of the input": [
        "CREATE TABLE t1 (e TEXT) ENGINE=InnoDB",
        "CREATE TABLE t2 (PRIMARY KEY (id)) AS SELECT * FROM t1",  # 1072
        "CREATE TABLE `Src` (id INT NOT NULL, e2 INT) ENGINE=MyISAM",
        "CREATE TABLE t3 (PRIMARY KEY (id)) AS SELECT * FROM `Src`",  # the SELECT gives id
        "CREATE TABLE t4 (x INT, PRIMARY KEY (id)) SELECT * FROM `Src`",  # was refused by innolint before
        "CREATE TABLE t5 (UNIQUE KEY (x)) AS SELECT * FROM t3",  # t3 is itself made by a SELECT
        "CREATE TABLE t6 (KEY k (e2, id)) ENGINE=Aria AS SELECT * FROM t3",
        "CREATE TABLE t7 (x INT, KEY (x, nope)) AS SELECT * FROM t4",
        "ALTER TABLE t4 ADD COLUMN added INT, CHANGE x renamed INT",  # the SELECT's columns stay known
        "RENAME TABLE t4 TO t4b",
        "CREATE TABLE t8 (KEY (renamed, added, e2, id)) AS SELECT * FROM t4b",
        "CREATE TABLE t9 (KEY (x)) AS SELECT * FROM t4b",  # renamed: 1072
    ],
    "named columns": [
        "CREATE TABLE t1 (id BIGINT NOT NULL, b VARCHAR(9), c DATE)",
        "CREATE TABLE t2 (UNIQUE KEY (c2)) AS SELECT id, b, c AS c2 FROM t1",
        "CREATE TABLE t3 (UNIQUE KEY (c)) AS SELECT id, c AS c2 FROM t1",  # 1072: c is named c2
        "CREATE TABLE t4 (PRIMARY KEY (b)) SELECT t1.b FROM t1 WHERE b IS NOT NULL",
        "CREATE TABLE t5 (KEY (x)) SELECT `id` FROM t1",  # 1072
        "CREATE TABLE t6 (y INT, KEY (y, id)) AS SELECT 1 AS id",
    ],
}


@pytest.mark.parametrize("case", CASES)
def test_refused_as_mariadb_refuses(mariadb: Any, case: str) -> None:
    statements = CASES[case]
    refused, permanent, _ = _server(mariadb, "select_refusals_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="select_refusals_oracle")
    context = "\n".join(f"{n}: {s}" for n, s in enumerate(statements)) + "\ninnolint said:\n" + "\n".join(messages)
    assert refused, "the case shows nothing the server refuses"
    assert reported == refused, context
    assert set(model) == set(permanent), context


@pytest.mark.parametrize("select", [
    "SELECT 1 + 1 FROM t1",  # an expression without an alias
    "SELECT * FROM t1 JOIN t1 AS b USING (a)",  # a join: * is both tables'
    "SELECT * FROM t4",  # t4 is a copy (LIKE) of a table a SELECT made
    "SELECT * FROM v1",  # a view
])
def test_columns_it_cannot_tell_are_said_at_the_statement(select: str) -> None:
    """Where the SELECT's columns are unknown, a key on a column the definition lacks may or may
    not be refused: innolint says so at the statement and keeps the table as defined."""
    replayer = Replayer(target=Target.parse("mariadb-10.11"))
    replayer.apply(ops.SchemaStatement("use", "db"), Location("s.sql", 1))
    cache = ParseCache()
    for n, text in enumerate(["CREATE TABLE t1 (a INT)", "CREATE TABLE t2 AS SELECT * FROM t1",
                              "CREATE TABLE t4 LIKE t2", "CREATE VIEW v1 AS SELECT 1 AS x"], start=2):
        assert replayer.apply(cache.parse(text), Location("s.sql", n)) is None
    said = replayer.apply(cache.parse(f"CREATE TABLE t3 (PRIMARY KEY (id)) AS {select}"), Location("s.sql", 9))
    assert said is not None and "cannot tell" in said.message and "error 1072" in said.message
    assert "t3" in replayer.model.find_schema("db").tables  # type: ignore[union-attr]


@pytest.mark.parametrize(("definition", "select", "target", "said"), [
    # a NOT NULL column without a default the SELECT may not give (MariaDB 10.11: 1364, rows or not)
    ("c SMALLINT NOT NULL", "SELECT 1 FROM DUAL WHERE 1 = 0", "mariadb-10.11", True),
    ("e TIMESTAMP NOT NULL, id INT", "SELECT id + 0 FROM t1", "mariadb-10.11", True),
    # the server names an unaliased expression by its text: `(a)` and the string 'a' are `a`
    ("a INT NOT NULL", "SELECT (a) FROM t1", "mariadb-10.11", True),
    ("b INT NULL, c INT NOT NULL DEFAULT 0", "SELECT 1", "mariadb-10.11", False),
    ("a INT NOT NULL AUTO_INCREMENT, KEY (a)", "SELECT 1", "mariadb-10.11", False),
    # explicit_defaults_for_timestamp OFF (MariaDB 10.6): a TIMESTAMP NOT NULL gets a default
    ("e TIMESTAMP NOT NULL", "SELECT 1", "mariadb-10.6", False),
    ("e TIMESTAMP NOT NULL", "SELECT 1", "mysql-8.0", True),
])
def test_a_column_the_select_may_not_fill_is_said(definition: str, select: str, target: str, said: bool) -> None:
    """Where innolint cannot tell the SELECT's columns, a definition column a row must be given
    a value may make the server refuse the statement (1364): innolint says it cannot tell."""
    replayer = Replayer(target=Target.parse(target))
    replayer.apply(ops.SchemaStatement("use", "db"), Location("s.sql", 1))
    cache = ParseCache()
    assert replayer.apply(cache.parse("CREATE TABLE t1 (a INT, id INT)"), Location("s.sql", 2)) is None
    message = replayer.apply(cache.parse(f"CREATE TABLE t3 ({definition}) {select}"), Location("s.sql", 3))
    assert (message is not None and "cannot tell" in message.message and "1364" in message.message) == said, message
    assert "t3" in replayer.model.find_schema("db").tables  # type: ignore[union-attr]


def test_a_timestamp_the_select_does_not_fill_is_refused_where_its_default_is_explicit(mariadb: Any) -> None:
    """MariaDB 10.11 (explicit_defaults_for_timestamp ON) refuses a TIMESTAMP NOT NULL the SELECT
    does not fill (1364), as innolint does when it can tell the SELECT's columns."""
    statements = ["CREATE TABLE t1 (a INT)", "CREATE TABLE t2 (e TIMESTAMP NOT NULL, KEY (a)) SELECT a FROM t1"]
    refused, permanent, _ = _server(mariadb, "select_timestamp_oracle", statements)
    reported, model, _, messages = _innolint(statements, database="select_timestamp_oracle")
    assert refused and reported == refused, messages
    assert set(model) == set(permanent)
