"""A rule failing on one table is an internal-error diagnostic, and the run goes on (issue 34).

Two things: the containment (a rule that raises on one table, in the judgement of one table or
outside it, loses only its findings there: every other table and every other rule is still
reported, and the diagnostic names the rule and the table), and the class of failure MariaDB's
own test suite found (innodb-32k's table of 197 TEXT columns and no key made row-size-limit index
an empty list of columns). For the class, wide tables of every column type, row format, key and
engine are generated for every target and run through every rule: none may fail, and where the
test MariaDB can judge (it refuses a row or a key, or takes it), innolint's errors say what it does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pymysql
import pytest

from checks import ALL_CHECKS
from linter.engine import lint_paths
from linter.rules.checkapi import Check, CheckContext, RuleDoc
from linter.rules.copies import judged_once
from linter.rules.findings import Finding
from linter.schema.model import SchemaModel, Table
from linter.schema.target import TARGETS
from tests.helpers import lint_sql
from tests.mariadb import MariaDB

_DOC = RuleDoc(why="-", evidence="-", bad="-", good="-", fix="-")


class _FailsOn(Check):
    """A rule that raises on the tables named `bad` and reports every other table: what a bug in a
    real rule does on the input it was not written for."""

    id = "fails-on"
    title = "test rule"
    severity = "warning"
    doc = _DOC

    def __init__(self, bad: str, *, outside: bool = False) -> None:
        self.bad = bad
        self.outside = outside

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        def judge(table: Table) -> Iterator[Finding]:
            yield self.finding(table, f"seen {table.name}", subject="seen")
            if table.name == self.bad:
                raise IndexError("tuple index out of range")

        yield from judged_once(model, context, judge)
        if self.outside:
            raise KeyError("after every table")


SCHEMA = """CREATE TABLE a (id INT);
CREATE TABLE bad (id INT);
CREATE TABLE c (id INT);
"""


@pytest.mark.parametrize("order", [("a", "bad", "c"), ("bad", "c", "a"), ("c", "a", "bad")])
def test_a_failure_on_one_table_is_a_diagnostic_and_the_rest_is_reported(tmp_path: Path, order: tuple[str, ...]) -> None:
    path = tmp_path / "schema.sql"
    path.write_text("".join(f"CREATE TABLE {name} (id INT);\n" for name in order))
    report = lint_paths([str(path)], checks=[_FailsOn("bad"), *ALL_CHECKS])
    [failure] = [d for d in report.diagnostics if d.rule == "internal-error"]
    assert failure.severity == "error" and failure.line == order.index("bad") + 1
    assert "fails-on failed on table bad" in failure.message and "IndexError: tuple index out of range" in failure.message
    assert "tests/test_check_failures.py:" in failure.message  # where in the code it failed
    seen = sorted(f.table for f in report.findings if f.rule == "fails-on")
    assert seen == ["a", "bad", "c"]  # what it said of `bad` before failing is kept, and the others are judged
    # every other rule ran on every table: no-primary-key on each of the three
    assert sorted(f.table for f in report.findings if f.rule == "no-primary-key") == ["a", "bad", "c"]


def test_a_failure_outside_any_table_keeps_what_the_rule_said_and_the_other_rules(tmp_path: Path) -> None:
    path = tmp_path / "schema.sql"
    path.write_text(SCHEMA)
    report = lint_paths([str(path)], checks=[_FailsOn("none", outside=True), *ALL_CHECKS])
    [failure] = [d for d in report.diagnostics if d.rule == "internal-error"]
    assert "fails-on failed on the schema as a whole: KeyError" in failure.message
    assert failure.path == str(path)
    assert len([f for f in report.findings if f.rule == "fails-on"]) == 3
    assert len([f for f in report.findings if f.rule == "no-primary-key"]) == 3


def test_tenant_copies_fail_once_and_say_how_many(tmp_path: Path) -> None:
    dump = "".join(f"-- Current Database: `t{n}`\n\nCREATE DATABASE `t{n}`;\nUSE `t{n}`;\n\n"
                   "CREATE TABLE `bad` (`id` int NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;\n"
                   "CREATE TABLE `ok` (`id` int NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;\n\n" for n in range(5))
    path = tmp_path / "tenants.sql"
    path.write_text(dump)
    report = lint_paths([str(path)], checks=[_FailsOn("bad")], context=CheckContext(tenant_schema_pattern=r"t\d+"))
    [failure] = [d for d in report.diagnostics if d.rule == "internal-error"]
    assert "on table t0.bad (and the 4 copies judged with it)" in failure.message
    [ok] = [f for f in report.findings if f.table == "ok"]
    assert ok.count == 5


def test_without_a_place_for_failures_a_direct_call_raises(tmp_path: Path) -> None:
    """A test calling a check directly sees the exception (nothing to report it to)."""
    from linter.engine import Engine
    from linter.parse.statement import parse_statement
    from linter.parse.elements import Location
    from linter.server.replay import Replayer

    replayer = Replayer()
    replayer.apply(parse_statement("CREATE TABLE bad (id INT)"), Location("t.sql", 1))
    with pytest.raises(IndexError):
        Engine(CheckContext(), [_FailsOn("bad")]).run_checks(replayer.model)


# -- the class: innodb-32k's table, and wide tables of every type --------------------------------------
def innodb_32k_t2() -> str:
    """MariaDB's mysql-test/suite/innodb/t/innodb-32k.test, table t2: 197 TEXT columns, no key,
    `row_format=dynamic,ENGINE=INNODB` (options separated by a comma)."""
    columns = ",\n".join(f"COL{n} TEXT" for n in range(1, 198))
    return f"CREATE TABLE t2({columns})\nrow_format=dynamic,ENGINE=INNODB;\n"


@pytest.mark.parametrize("target", TARGETS)
def test_the_innodb_32k_table_is_reported_not_a_crash(tmp_path: Path, target: str) -> None:
    report = lint_sql(innodb_32k_t2(), tmp_path, target=target)
    assert not [d for d in report.diagnostics if d.rule == "internal-error"], report.diagnostics
    [row] = [f for f in report.findings if f.rule == "row-size-limit"]
    assert row.summary and row.summary.startswith("t2: ") and "no column it can move off-page" in row.message
    assert [f.table for f in report.findings if f.rule == "no-primary-key"] == ["t2"]


_TYPES = [
    "TINYINT", "INT UNSIGNED", "BIGINT", "DECIMAL(65,30)", "FLOAT", "DOUBLE", "BIT(64)", "CHAR(255)",
    "CHAR(1) CHARACTER SET latin1", "VARCHAR(255)", "VARCHAR(1000) CHARACTER SET latin1", "VARCHAR(16383)",
    "VARCHAR(21844) CHARACTER SET utf8mb3", "BINARY(255)", "VARBINARY(3000)", "TINYTEXT", "TEXT", "MEDIUMTEXT",
    "LONGTEXT", "TINYBLOB", "BLOB", "LONGBLOB", "JSON", "ENUM('a','b')", "SET('a','b')", "DATE", "DATETIME(6)",
    "TIMESTAMP NULL", "TIME(3)", "YEAR", "GEOMETRY", "POINT",
]
_ROW_FORMATS = ["", " ROW_FORMAT=DYNAMIC", " ROW_FORMAT=COMPACT", " ROW_FORMAT=REDUNDANT", " ROW_FORMAT=COMPRESSED"]
_KEYS = ["none", "primary", "unique", "prefix", "all"]
_ENGINES = ["InnoDB", "MyISAM", "Aria", "@ZM_MYSQL_ENGINE@"]


def wide_table(rng: random.Random, n: int, *, engines: list[str] = _ENGINES) -> str:
    """One generated table: 1 to 300 columns of one or a few types, a row format, some keys, an engine."""
    types = rng.sample(_TYPES, rng.choice([1, 1, 2, 4]))
    width = rng.choice([1, 2, 40, 197, 300])
    columns = [f"c{i} {types[i % len(types)]}" for i in range(width)]
    keys = rng.choice(_KEYS)
    indexed = [f"c{i}" for i in range(min(width, 3)) if not any(w in types[i % len(types)] for w in ("GEOMETRY", "POINT"))]
    if keys in ("primary", "all"):
        columns.insert(0, "id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY")
    if keys in ("unique", "all") and indexed:
        columns.append(f"UNIQUE KEY u ({indexed[0]}(100))" if any(
            w in types[0] for w in ("TEXT", "BLOB", "JSON")) else f"UNIQUE KEY u ({indexed[0]})")
    if keys in ("prefix", "all") and indexed:
        columns.append("KEY k (" + ", ".join(f"{c}(20)" if any(w in types[i % len(types)] for w in (
            "CHAR", "TEXT", "BLOB", "BINARY")) else c for i, c in enumerate(indexed)) + ")")
    engine = rng.choice(engines)
    charset = rng.choice(["", " DEFAULT CHARSET=latin1", " DEFAULT CHARSET=utf8mb4", " CHARSET=utf8mb3"])
    return (f"CREATE TABLE w{n} (\n  " + ",\n  ".join(columns) + f"\n) ENGINE={engine}{rng.choice(_ROW_FORMATS)}"
            f"{charset};\n")


def later_changes(rng: random.Random, n: int) -> str:
    """What a history does to a table after it: columns added and changed, keys, a foreign key to
    an earlier table, the engine or row format changed."""
    changes = rng.sample([
        f"ADD COLUMN x{n} {rng.choice(_TYPES)}", f"ADD COLUMN y{n} VARCHAR(5000) CHARACTER SET utf8mb4",
        "MODIFY COLUMN c0 TEXT", f"ADD KEY kx{n} (c0(10))", "ENGINE=InnoDB", "ROW_FORMAT=COMPACT",
        f"ADD COLUMN p{n} BIGINT, ADD CONSTRAINT f{n} FOREIGN KEY (p{n}) REFERENCES w0 (id)", "DROP PRIMARY KEY",
        "CONVERT TO CHARACTER SET utf8mb4",
    ], rng.choice([1, 2]))
    return f"ALTER TABLE w{n} {', '.join(changes)};\n"


@pytest.mark.parametrize("target", TARGETS)
def test_wide_tables_of_every_type_fail_no_rule(tmp_path: Path, target: str) -> None:
    rng = random.Random(f"wide-{target}")
    sql = ("CREATE TABLE w0 (id BIGINT PRIMARY KEY);\n" + "".join(wide_table(rng, n) for n in range(1, 60))
           + "".join(later_changes(rng, n) for n in range(1, 60, 3)) + innodb_32k_t2())
    report = lint_sql(sql, tmp_path, target=target)
    failures = [d.message for d in report.diagnostics if d.rule == "internal-error"]
    assert not failures, failures[:3]
    assert len({f.table for f in report.findings}) > 20  # the tables were judged, not lost


#: the rules whose error findings say the server refuses the table as written
_REFUSAL_RULES = ("row-size-limit", "index-key-length")


def test_wide_tables_on_mariadb_errors_follow_the_server(tmp_path: Path, mariadb: MariaDB) -> None:
    """Each generated InnoDB table on the test MariaDB (strict sql_mode, innodb_strict_mode ON, its
    defaults): refused with 1118/1074/1071/1170 exactly where innolint's row-size-limit or
    index-key-length give an error; taken where they give none."""
    rng = random.Random("wide-mariadb")
    statements = [wide_table(rng, n, engines=["InnoDB"]) for n in range(40)] + [innodb_32k_t2()]
    report = lint_sql("".join(statements), tmp_path, target="mariadb-10.11")
    assert not [d for d in report.diagnostics if d.rule == "internal-error"]
    refused_by_innolint = {f.table for f in report.findings if f.rule in _REFUSAL_RULES and f.severity == "error"}
    mariadb.sql("DROP DATABASE IF EXISTS wide_fuzz; CREATE DATABASE wide_fuzz")
    connection = mariadb.connect("wide_fuzz")
    disagree = []
    try:
        with connection.cursor() as cursor:
            for ddl in statements:
                name = ddl.split()[2].split("(")[0]
                try:
                    cursor.execute(ddl)
                    refused = False
                except pymysql.err.MySQLError as error:
                    assert error.args[0] in (1118, 1074, 1071, 1170, 1163), (name, error)
                    refused = True
                if refused != (name in refused_by_innolint):
                    disagree.append((name, refused))
    finally:
        connection.close()
        mariadb.sql("DROP DATABASE IF EXISTS wide_fuzz")
    assert not disagree, disagree
