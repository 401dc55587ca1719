"""The four key checks stay linear in their input: n and 10n tables (each with duplicate and
prefix keys, foreign keys with mismatches, wide keys, counters near their limit), and one hostile
table with thousands of keys all starting with the same column, in the same run. Time may grow at
most ~15x for 10x the input (the brief's bound)."""

from __future__ import annotations

from collections.abc import Callable

from checks import check_by_id
from linter.rules.checkapi import CheckContext
from linter.parse.elements import Location
from linter.schema.model import SchemaModel
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from tests.complexity import assert_linear

RULES = ("redundant-index", "foreign-key-mismatch", "auto-increment-capacity", "wide-primary-key")


def _model(tables: int, keys_on_one_table: int) -> SchemaModel:
    replayer = Replayer()
    statements = []
    for n in range(tables):
        statements.append(
            f"CREATE TABLE parent{n} (code VARCHAR(120) NOT NULL, n INT, m INT, PRIMARY KEY (code), KEY (n), KEY (n, m), "
            f"KEY (m)) DEFAULT CHARSET=utf8mb4 AUTO_INCREMENT=1")
        statements.append(
            f"CREATE TABLE child{n} (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, p VARCHAR(100) CHARACTER SET latin1, "
            f"q INT, KEY (p), KEY (p, q), FOREIGN KEY (p) REFERENCES parent{n} (code), "
            f"FOREIGN KEY (q) REFERENCES parent{n} (n)) AUTO_INCREMENT=2000000000")
    hostile = ", ".join(f"KEY (a, c{i})" for i in range(keys_on_one_table))
    columns = ", ".join(f"c{i} INT" for i in range(keys_on_one_table))
    statements.append(f"CREATE TABLE hostile (a INT, {columns}, {hostile})")
    for line, statement in enumerate(statements, 1):
        replayer.apply(parse_statement(statement), Location("scale.sql", line))
    return replayer.model


def _checking(tables: int) -> Callable[[], object]:
    """The four checks over a model of `tables` table pairs and a hostile table of 1.5x as many keys."""
    model = _model(tables, tables * 3 // 2)
    context = CheckContext()

    def run() -> None:
        for rule in RULES:
            check = check_by_id(rule)
            assert check is not None
            assert list(check.run(model, context))

    return run


def test_the_key_checks_grow_linearly() -> None:
    assert_linear(_checking, 50)
