"""Table names whose case differs between the migrations of one history (`User` created, `user`
altered later). On a Linux server (lower_case_table_names=0, the default target) they are two
tables: the later statement fails there, and innolint says so at that statement, naming the table
that differs only in case. With lower_case_table_names = 1 or 2 in the configuration the history
replays as such a server runs it, without a diagnostic.

Generated: several name pairs (case of any letter, not one habit), every statement kind that
names an existing table, three layouts (Prisma directories, a Flyway directory, one file); the
test MariaDB (lower_case_table_names=0) is asked whether the statement fails."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from linter.rules.checkapi import CheckContext
from linter.config.settings import ConfigResolver
from linter.engine import RunOptions, lint_paths
from linter.rules.findings import Report
from linter.schema.model import Location
from linter.parse.statement import parse_statement
from linter.schema.replay import Replayer
from linter.schema.target import Target
from tests.complexity import assert_linear
from tests.mariadb import MariaDB

#: (the name CREATE TABLE wrote, the name a later migration writes)
PAIRS = [("User", "user"), ("order_items", "ORDER_ITEMS"), ("PostTag", "posttag"), ("acct2", "Acct2"),
         ("x_Y_z", "X_y_Z")]

#: statement kinds that name an existing table: (later statement, whether a key is added there)
LATER = {
    "alter": "ALTER TABLE `{ref}` ADD PRIMARY KEY (id);",
    "create index": "CREATE INDEX ix_note ON `{ref}` (note);",
    "drop index": "DROP INDEX ix_first ON `{ref}`;",
    "rename": "RENAME TABLE `{ref}` TO `renamed_{n}`;",
    "like": "CREATE TABLE `copy_{n}` LIKE `{ref}`;",
}

FIRST = "CREATE TABLE `{name}` (id INT NOT NULL, note VARCHAR(20), KEY ix_first (note));\n"


def _write(root: Path, layout: str, first: str, later: str) -> list[Path]:
    """The two migrations in `layout`; returns what to lint."""
    if layout == "prisma":
        migrations = root / "prisma" / "migrations"
        for stamp, text in (("20240101000000_init", first), ("20240202000000_later", later)):
            (migrations / stamp).mkdir(parents=True)
            (migrations / stamp / "migration.sql").write_text(text)
        (migrations / "migration_lock.toml").write_text('provider = "mysql"\n')
        return [root]
    if layout == "flyway":
        (root / "db").mkdir()
        (root / "db" / "V1__init.sql").write_text(first)
        (root / "db" / "V2__later.sql").write_text(later)
        return [root / "db"]
    (root / "schema.sql").write_text(first + later)
    return [root / "schema.sql"]


def _lint(paths: list[Path], lower_case_table_names: int | None) -> Report:
    if lower_case_table_names is None:
        return lint_paths([str(p) for p in paths], CheckContext(target=Target.parse("mysql-8.0")))
    config = paths[0] if paths[0].is_dir() else paths[0].parent
    (config / ".innolint.toml").write_text(f"lower_case_table_names = {lower_case_table_names}\n")
    return lint_paths([str(p) for p in paths], options=RunOptions(config=ConfigResolver(search=True)))


CASES = [(pair, kind, layout) for (pair, kind), layout in zip(
    itertools.product(PAIRS, LATER), itertools.cycle(["prisma", "flyway", "file"]))]


@pytest.mark.parametrize(("pair", "kind", "layout"), CASES, ids=[f"{p[0]}-{k}-{lay}" for p, k, lay in CASES])
def test_on_a_case_sensitive_server_the_later_statement_fails_and_says_why(
    tmp_path: Path, pair: tuple[str, str], kind: str, layout: str
) -> None:
    name, ref = pair
    later = LATER[kind].format(ref=ref, n=len(name))
    report = _lint(_write(tmp_path, layout, FIRST.format(name=name), later), None)
    said = [d for d in report.diagnostics if d.rule == "replay-error"]
    assert len(said) == 1, [d.message for d in report.diagnostics]
    assert said[0].line == (1 if layout != "file" else 2)
    assert f"table {name} (created at" in said[0].message and "differs only in case" in said[0].message
    assert "lower_case_table_names" in said[0].message


@pytest.mark.parametrize("lower_case_table_names", [1, 2])
@pytest.mark.parametrize(("pair", "layout"), list(zip(PAIRS, itertools.cycle(["prisma", "flyway", "file"]))))
def test_where_names_fold_the_history_replays_as_written(
    tmp_path: Path, pair: tuple[str, str], layout: str, lower_case_table_names: int
) -> None:
    """`ALTER TABLE user ADD PRIMARY KEY` reaches `User`: no replay error, and no no-primary-key."""
    name, ref = pair
    report = _lint(_write(tmp_path, layout, FIRST.format(name=name), LATER["alter"].format(ref=ref)),
                   lower_case_table_names)
    assert [d.message for d in report.diagnostics] == []
    assert [f for f in report.findings if f.rule == "no-primary-key"] == []


def test_a_name_no_table_has_in_any_case_is_not_given_a_hint(tmp_path: Path) -> None:
    report = _lint(_write(tmp_path, "file", FIRST.format(name="User"), "ALTER TABLE `Users` ADD PRIMARY KEY (id);"),
                   None)
    (said,) = [d for d in report.diagnostics if d.rule == "replay-error"]
    assert "differs only in case" not in said.message


def test_the_server_with_case_sensitive_names_refuses_each_later_statement(mariadb: MariaDB) -> None:
    """The test server has lower_case_table_names=0, as the default target: each later statement
    that innolint reports fails there too."""
    assert mariadb.sql("SELECT @@lower_case_table_names")[0][0] == 0
    import pymysql

    for number, ((name, ref), (kind, later)) in enumerate(itertools.product(PAIRS, LATER.items())):
        database = f"case_{number}"
        mariadb.sql(f"CREATE DATABASE `{database}`; USE `{database}`; " + FIRST.format(name=name))
        with pytest.raises(pymysql.err.MySQLError) as refused:
            mariadb.sql(later.format(ref=ref, n=len(name)), database)
        assert refused.value.args[0] in (1146, 1051), (kind, refused.value.args)
        mariadb.sql(f"DROP DATABASE `{database}`")


def test_many_missing_names_stay_linear() -> None:
    """Each hint reads the whole schema; after the first hundred the plain message is given, so
    replaying n tables and n statements on missing names costs n, not n squared (replay alone is
    timed: parsing would hide the square)."""

    def make(n: int):  # type: ignore[no-untyped-def]
        statements = [parse_statement(f"CREATE TABLE T{i} (id int PRIMARY KEY)") for i in range(n)]
        statements += [parse_statement(f"ALTER TABLE t{i} ADD COLUMN c int") for i in range(n)]

        def replay() -> None:
            replayer = Replayer()
            for number, op in enumerate(statements, 1):
                replayer.apply(op, Location("many.sql", number))

        return replay

    assert_linear(make, 1000, what="missing names with a table differing in case")
