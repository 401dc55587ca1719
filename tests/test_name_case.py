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
from linter.parse.elements import Location
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
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


# --- database names ------------------------------------------------------------------------------
# A database name that differs only in case from one the input knows (created, used or holding
# tables) is another database where names are case-sensitive: `USE D2` fails (1049) and the client
# stays where it was, `D2.t` names no table. innolint does what the server does when that database
# does not exist, and says which database the name differs from.

DATABASE_SCRIPTS = {
    "use-then-create": "USE {OTHER};\nCREATE TABLE t4 (a INT);\n",
    "use-after-use": "USE {main};\nUSE {OTHER};\nCREATE TABLE t2 (b INT) ENGINE=MyISAM;\n",
    "use-back-in-another-case": "USE {other};\nCREATE TABLE t1 (a INT);\nUSE {MAIN};\nCREATE TABLE t2 (b INT);\n",
    "use-then-alter": "CREATE TABLE {other}.Orders (id INT);\nUSE {other};\nUSE {OTHER};\nALTER TABLE Orders ADD PRIMARY KEY (id);\n",
    "create-qualified": "CREATE TABLE {OTHER}.t3 (id INT PRIMARY KEY);\nCREATE TABLE {other}.t3 (id INT);\n",
    "alter-qualified": "CREATE TABLE {other}.Orders (id INT);\nALTER TABLE {OTHER}.Orders ADD b INT;\n",
    "select-from-qualified": "CREATE TABLE {other}.t1 (a INT);\nCREATE TABLE t2 AS SELECT * FROM {OTHER}.t1;\n",
    "select-from-table-in-another-case": "CREATE TABLE {other}.t1 (a INT);\nCREATE TABLE t3 AS SELECT * FROM {other}.T1;\n",
    "like-qualified": "CREATE TABLE {other}.t1 (a INT);\nCREATE TABLE t2 LIKE {OTHER}.t1;\n",
    "rename-into": "CREATE TABLE t1 (a INT);\nRENAME TABLE t1 TO {OTHER}.t1;\nALTER TABLE t1 RENAME TO {OTHER}.t9;\n",
    "drop-qualified": "CREATE TABLE {other}.t1 (a INT);\nDROP TABLE {OTHER}.t1;\nDROP TABLE IF EXISTS {OTHER}.t1;\n",
    "index-qualified": "CREATE TABLE {other}.t1 (a INT);\nCREATE INDEX ix ON {OTHER}.t1 (a);\n",
}


@pytest.fixture(scope="module")
def sides(mariadb: MariaDB):  # type: ignore[no-untyped-def]
    from tests import differential as D

    with D.judging_sides(mariadb, "dbcase") as pair:
        yield pair


@pytest.mark.parametrize("name", list(DATABASE_SCRIPTS))
def test_a_database_name_in_another_case_is_another_database(sides, name: str) -> None:  # type: ignore[no-untyped-def]
    """Loaded by MariaDB through the mysql client (the two databases exist, innolint is told so
    as a dump would say it); the tables must be the server's and innolint must report exactly the
    statements the server refuses, naming the database or table the name differs from."""
    from tests import differential as D

    judged = D.judge(*sides, DATABASE_SCRIPTS[name])
    assert judged.faithful(), f"{DATABASE_SCRIPTS[name]}\n{judged}"
    assert any("differs only in case" in message for message in judged.said.values()), judged


def _history(root: Path, layout: str, database: str, later_name: str) -> list[Path]:
    """A schema created in database `database`, and a later statement that USEs `later_name`."""
    first = (f"CREATE DATABASE /*!32312 IF NOT EXISTS*/ `{database}` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;\n"
             f"USE `{database}`;\nCREATE TABLE orders (id INT NOT NULL, note TEXT, PRIMARY KEY (id));\n")
    later = f"USE {later_name};\nALTER TABLE orders ADD COLUMN total INT;\n"
    if layout == "flyway":
        (root / "db").mkdir()
        (root / "db" / "V1__init.sql").write_text(first)
        (root / "db" / "V2__later.sql").write_text(later)
        return [root / "db"]
    (root / "dump.sql").write_text("-- MySQL dump 10.13\n" + first + later)
    return [root / "dump.sql"]


@pytest.mark.parametrize(("database", "later_name"), [("Shop", "shop"), ("billing", "BILLING"), ("app_DB", "App_db")])
@pytest.mark.parametrize("layout", ["flyway", "dump"])
def test_use_of_a_database_in_another_case_is_said_where_it_is(
    tmp_path: Path, layout: str, database: str, later_name: str
) -> None:
    report = _lint(_history(tmp_path, layout, database, later_name), None)
    (said,) = [d for d in report.diagnostics if d.rule == "replay-error"]
    assert said.line == (1 if layout == "flyway" else 5) and said.path.endswith("V2__later.sql" if layout == "flyway" else "dump.sql")
    assert f"database {database} (created at" in said.message and "1049" in said.message
    assert "stays in database " + database in said.message  # the ALTER then reaches the table
    assert [d.rule for d in report.diagnostics] == ["replay-error"]


@pytest.mark.parametrize("lower_case_table_names", [1, 2])
@pytest.mark.parametrize("layout", ["flyway", "dump"])
def test_where_names_fold_a_database_in_another_case_is_the_same(
    tmp_path: Path, layout: str, lower_case_table_names: int
) -> None:
    report = _lint(_history(tmp_path, layout, "Shop", "SHOP"), lower_case_table_names)
    assert [d.message for d in report.diagnostics] == []


def test_a_database_no_input_names_is_taken_to_exist(tmp_path: Path) -> None:
    """innolint cannot know every database of a server: one the input never names in any case is
    taken to exist (as the client's first database is), without a diagnostic."""
    (tmp_path / "m.sql").write_text("CREATE DATABASE app;\nUSE reporting;\nCREATE TABLE r (id INT PRIMARY KEY);\n"
                                    "CREATE TABLE app.s AS SELECT * FROM warehouse.facts;\n")
    report = _lint([tmp_path / "m.sql"], None)
    assert [d.message for d in report.diagnostics] == []


def test_many_databases_in_another_case_stay_linear() -> None:
    """Each look for a database in another case reads every database; after the first hundred the
    statement is taken as written, so n databases and n USEs of them in another case cost n."""

    def make(n: int):  # type: ignore[no-untyped-def]
        statements = [parse_statement(f"CREATE DATABASE Db{i}") for i in range(n)]
        statements += [parse_statement(f"USE db{i}") for i in range(n)]

        def replay() -> None:
            replayer = Replayer()
            for number, op in enumerate(statements, 1):
                replayer.apply(op, Location("many.sql", number))

        return replay

    assert_linear(make, 1000, what="USE of databases differing in case")
