"""row-size-limit: what it says the server does with a table is what the test MariaDB does.

Generated tables at the server's boundaries (types, lengths, character sets, row formats): one
column past the boundary is refused with the very error the finding quotes; the fix, written
into the CREATE TABLE (or run as the ALTER on a table created with innodb_strict_mode=OFF),
loads and lints clean. Rows InnoDB's count lets through but cannot store are inserted to show
the INSERT fails as the warning says."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from linter.rules.row_size import row_problem
from linter.rules.findings import Finding
from linter.schema.innodb_sizes import row_size
from linter.schema.target import Target
from tests.ddl_outcome import MYSQL_SQL_MODE, TableDDL, run
from tests.complexity import assert_linear
from tests.helpers import findings, lint_sql
from tests.mariadb import MariaDB
from tests.test_innodb_sizes import table_of

RULE = "row-size-limit"
TARGET = "mariadb-10.11"


def lint(ddl: str, tmp_path: Path, target: str = TARGET) -> list[Finding]:
    return findings(lint_sql(ddl + ";\n", tmp_path, target=target), RULE)


def table(columns: list[str], n: int, *, charset: str, options: str = "", key: str = "id INT NOT NULL") -> TableDDL:
    defs = {"id": key.split(" ", 1)[1]}
    defs.update({f"c{i}": columns[i % len(columns)] for i in range(n)})
    return TableDDL("t", defs, {"PRIMARY": "PRIMARY KEY (`id`)"}, f"DEFAULT CHARSET={charset}{options}")


# --- the model alone: what each target is told -----------------------------------------------------

def test_within_the_limits_nothing(tmp_path: Path) -> None:
    ddl = table(["VARCHAR(255)", "TEXT", "INT", "DATETIME(6)", "CHAR(40)"], 30, charset="utf8mb4").sql()
    for target in ("mysql-5.7", "mysql-8.0", "mariadb-10.6", "mariadb-11.x"):
        assert lint(ddl, tmp_path, target) == []


@pytest.mark.parametrize(("columns", "count"), [(["TEXT"], 150), (["MEDIUMBLOB"], 150), (["JSON"], 150),
                                              (["VARCHAR(300)"], 150), (["VARBINARY(1000)"], 60),
                                              (["VARCHAR(2000)", "LONGTEXT"], 60)])
def test_off_page_columns_are_not_counted_whole(columns: list[str], count: int, tmp_path: Path) -> None:
    """The false positive to avoid: long columns are 20-byte references in DYNAMIC rows (and the
    server's 65,535 bytes hold 9-12 per TEXT/BLOB)."""
    assert [f for f in lint(table(columns, count, charset="latin1").sql(), tmp_path) if f.severity == "error"] == []


def test_mysql_and_mariadb_count_short_varchars_differently(tmp_path: Path) -> None:
    """90 VARCHAR(100) latin1: MariaDB counts 101 bytes each and refuses; MySQL's CREATE check counts
    41 each and accepts, and a row of full values fails at INSERT (dict_index_too_big_for_tree)."""
    ddl = table(["VARCHAR(100) NOT NULL"], 90, charset="latin1").sql()
    maria, mysql = lint(ddl, tmp_path, "mariadb-10.11"), lint(ddl, tmp_path, "mysql-8.0")
    assert [(f.severity, f.subject) for f in maria] == [("error", "innodb-create")]
    assert [(f.severity, f.subject) for f in mysql] == [("warning", "innodb-rows")]
    assert "MySQL's count takes 41 bytes" in mysql[0].message


def test_the_finding_goes_to_the_statement_that_made_the_row_too_large(tmp_path: Path) -> None:
    """A migration that adds the column is where the finding is (--changed-only reports it there)."""
    history = tmp_path / "migrations"
    history.mkdir()
    create = table(["VARCHAR(255)"], 8, charset="utf8mb4", options=" ROW_FORMAT=COMPACT").sql()
    (history / "V1__create.sql").write_text(create + ";\n")
    (history / "V2__more.sql").write_text("\n".join(f"ALTER TABLE t ADD COLUMN d{i} VARCHAR(255);" for i in range(4)) + "\n")
    from linter.rules.checkapi import CheckContext
    from linter.engine import Engine, Unit
    from linter.schema.target import Target

    context = CheckContext(target=Target.parse(TARGET))
    unit = Unit([str(history / "V1__create.sql"), str(history / "V2__more.sql")], migration_format="flyway",
                is_migration_history=True)
    found = [f for f in Engine(context).lint_unit(unit, context).findings if f.rule == RULE]
    assert [(Path(f.path).name, f.line) for f in found] == [("V2__more.sql", 4)]
    # one file: the CREATE TABLE, even when an ALTER at its end touched the table last
    same = lint(create + ";\nALTER TABLE t ADD COLUMN d0 VARCHAR(255), ADD COLUMN d1 VARCHAR(255), "
                "ADD COLUMN d2 VARCHAR(255), ADD COLUMN d3 VARCHAR(255)", tmp_path)
    assert [f.line for f in same] == [1]


def test_system_and_unknown_tables_are_left_alone_and_a_standin_only_once_its_view_comes(tmp_path: Path) -> None:
    """A mysqldump stand-in its view replaces is no table; one no view replaces stays a table on
    the server (issue 14), and is judged like any other."""
    wide = ", ".join(f"c{i} CHAR(255)" for i in range(40))
    standin = f"/*!50001 CREATE TABLE v ({wide}) CHARSET latin1 */;\n"
    view = "/*!50001 DROP TABLE IF EXISTS v*/;\n/*!50001 CREATE VIEW v AS SELECT 1 AS x */;\n"
    sql = (f"CREATE DATABASE mysql; USE mysql; CREATE TABLE big ({wide}) CHARSET latin1;\n"
           f"CREATE DATABASE app; USE app; {standin}CREATE TABLE copy LIKE nowhere;\n")
    assert findings(lint_sql(sql + view, tmp_path, target=TARGET), RULE) == []
    assert [(f.table, f.line) for f in findings(lint_sql(sql, tmp_path, target=TARGET), RULE)] == [("v", 2)]


def test_tenant_copies_are_decided_per_character_set(tmp_path: Path) -> None:
    """One definition in schemas of different default character sets: decided for each."""
    body = ", ".join(f"c{i} VARCHAR(200)" for i in range(12))
    sql = "".join(f"CREATE DATABASE s{n} CHARACTER SET {cs}; USE s{n}; CREATE TABLE t (id INT PRIMARY KEY, {body}) "
                  "ROW_FORMAT=COMPACT;\n" for n, cs in enumerate(("latin1", "utf8mb4", "latin1", "utf8mb4")))
    found = findings(lint_sql(sql, tmp_path, target=TARGET), RULE)
    assert sorted(f.schema for f in found) == ["s1", "s3"]  # 12 x 790 in utf8mb4; 12 x 201 in latin1


# --- the server as the oracle ------------------------------------------------------------------------
_TYPES = ["VARCHAR({n})", "VARCHAR({n}) NOT NULL", "CHAR({n})", "CHAR({n}) NOT NULL", "VARBINARY({n})", "BINARY({n})",
          "TEXT", "INT", "BIGINT NOT NULL", "DECIMAL(30,10)", "DATETIME(6)", "TIMESTAMP NULL", "ENUM('a','b')",
          "CHAR({n}) CHARACTER SET latin1", "VARCHAR({n}) CHARACTER SET utf8mb4", "MEDIUMBLOB", "UUID"]
_LENGTHS = [10, 40, 60, 100, 200, 255]
_CHARSETS = ["latin1", "utf8mb3", "utf8mb4", "ucs2", "utf16", "big5", "ujis"]
_FORMATS = ["", " ROW_FORMAT=DYNAMIC", " ROW_FORMAT=COMPACT", " ROW_FORMAT=REDUNDANT", " ROW_FORMAT=COMPRESSED"]


def _refused(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.severity == "error"]


def test_generated_tables_at_the_boundary(server: MariaDB, tmp_path: Path) -> None:
    """12 generated tables: the largest the rule passes is loaded, one column more is refused
    with the error text the finding quotes; that table's fix (written into the CREATE TABLE, and
    for InnoDB's strict-mode refusal also run as the ALTER on the table created with
    innodb_strict_mode=OFF) loads and lints clean."""
    rng = random.Random(8126)
    target = Target.parse(TARGET)
    kinds: set[str | None] = set()
    checked = 0
    while checked < 12:
        columns = [rng.choice(_TYPES).format(n=rng.choice(_LENGTHS)) for _ in range(rng.randint(1, 3))]
        charset, options = rng.choice(_CHARSETS), rng.choice(_FORMATS)
        lo, hi = 0, 400
        while lo < hi:  # the most columns the rule's decision passes (then the whole rule is asked)
            mid = (lo + hi + 1) // 2
            problem = row_problem(table_of(table(columns, mid, charset=charset, options=options).sql()), target)
            lo, hi = (mid, hi) if problem is None or problem.severity != "error" else (lo, mid - 1)
        if lo in (0, 400):
            continue
        good, bad = (table(columns, m, charset=charset, options=options) for m in (lo, lo + 1))
        assert _refused(lint(good.sql(), tmp_path)) == []
        assert run(server, "rs_gen", [good.sql()]).ok, good.sql()
        found = _refused(lint(bad.sql(), tmp_path))
        assert len(found) == 1, found
        refused = run(server, "rs_gen", [bad.sql()])
        assert not refused.ok and refused.code == 1118, (bad.sql(), refused)
        assert f"ERROR 1118 (42000): {refused.message}" in found[0].message, (found[0].message, refused.message)
        kinds.add(found[0].subject)
        if found[0].fix:
            fixed = bad.with_fix(found[0].fix)
            loaded = run(server, "rs_gen", [fixed.sql()])
            assert loaded.ok, (found[0].fix, fixed.sql(), loaded)
            assert _refused(lint(fixed.sql(), tmp_path)) == []
            if found[0].subject == "innodb-create":  # the ALTER itself, on the table strict mode would refuse
                made = run(server, "rs_gen", ["SET SESSION innodb_strict_mode=OFF", bad.sql(),
                                               "SET SESSION innodb_strict_mode=ON", found[0].fix], table="t")
                assert made.ok, (found[0].fix, made)
                assert [n for n in made.notes if n[1] == 139]  # created with the warning the finding names
                assert _refused(lint(made.tables["t"], tmp_path)) == []
        checked += 1
    assert kinds == {"innodb-create", "server-row"}


def test_the_screen_never_skips_a_row_over_a_limit() -> None:
    """The decision measures a table's row only when it may be too big
    (`innodb_sizes.row_may_be_too_big`): over generated tables (types, lengths, character sets of
    the table and the columns, row formats, engines, prefix keys, targets), every table whose
    measured row is over the server's or InnoDB's limit, or with a column longer than its type
    allows, on any target, passes the screen; and most small tables do not."""
    from linter.schema import innodb_sizes as sizes

    rng = random.Random(65_535)
    types = ("INT", "BIGINT", "DECIMAL(65,30)", "DATETIME(6)", "CHAR({n})", "VARCHAR({n})", "VARCHAR({n})",
             "VARBINARY({n})", "BINARY({b})", "TEXT", "MEDIUMBLOB", "JSON", "ENUM('a','b')", "BIT(64)",
             "VARCHAR({n}) CHARACTER SET utf32", "CHAR({b}) CHARACTER SET ucs2", "VARCHAR({n}) CHARACTER SET latin1",
             "TEXT({n})", "DOUBLE", "POINT")
    charsets = ("", " DEFAULT CHARSET=utf8mb4", " DEFAULT CHARSET=latin1", " DEFAULT CHARSET=utf8mb3",
                " DEFAULT CHARSET=utf32")
    formats = ("", " ROW_FORMAT=COMPACT", " ROW_FORMAT=REDUNDANT", " ROW_FORMAT=DYNAMIC", " ENGINE=MyISAM")
    targets = [Target.parse(name) for name in ("mysql-8.0", "mysql-5.7", "mysql-8.4", "mariadb-10.11")]
    over = passed = checked = tables = 0
    for n in range(400):
        count = rng.choice((1, 2, 4, 8, 16, 40))
        columns = [f"c{k} " + rng.choice(types).format(n=rng.choice((10, 50, 191, 255, 300, 1000, 5000, 16383, 16384)),
                                                         b=rng.choice((1, 20, 255, 256)))
                   + rng.choice(("", " NOT NULL")) for k in range(count)]
        key = rng.choice(("", ", PRIMARY KEY (c0)", ", PRIMARY KEY (c0(100))"))
        try:
            table = table_of(f"CREATE TABLE t{n} ({', '.join(columns)}{key}){rng.choice(charsets)}{rng.choice(formats)}")
        except Exception:  # noqa: BLE001 - a prefix the type takes none of: no table to measure
            continue
        passes = sizes.row_may_be_too_big(table)
        passed += passes
        tables += 1
        for target in targets:
            checked += 1
            size = row_size(table, target)
            too_long = any((limit := sizes.column_length_limit(c, sizes.column_charset(c, table, target), target))
                           is not None and c.length is not None and c.length > limit for c in table.columns.values())
            if too_long or size.server_bytes > sizes.MAX_ROW_BYTES or size.create_check_bytes >= size.record_limit \
                    or size.worst_bytes >= size.record_limit:
                over += 1
                assert passes, (target, table.columns, size)
            if row_problem(table, target, innodb=True) is not None:
                assert passes, (target, table.columns)
    assert checked > 1200 and over > 300 and tables - passed > 100, (checked, over, tables, passed)


@pytest.mark.parametrize(("column", "charset", "limit"), [
    ("VARCHAR(20000)", "utf8mb4", 16383), ("VARCHAR(21845)", "utf8mb3", 21844), ("VARCHAR(32767)", "ucs2", 32766),
    ("CHAR(300)", "latin1", 255), ("BINARY(256)", "utf8mb4", 255), ("VARCHAR(65533)", "latin1", 65532),
    ("VARBINARY(65533)", "utf8mb4", 65532),
])
def test_a_column_longer_than_its_type(server: MariaDB, column: str, charset: str, limit: int, tmp_path: Path) -> None:
    bad = TableDDL("t", {"id": "INT NOT NULL", "c": column}, {"PRIMARY": "PRIMARY KEY (`id`)"}, f"CHARSET={charset}")
    found = lint(bad.sql(), tmp_path)
    refused = run(server, "rs_len", [bad.sql()])
    assert not refused.ok and refused.code == 1074
    assert [f.subject for f in found] == ["column-length:c"]
    assert f"ERROR 1074 (42000): {refused.message}" in found[0].message and f"max = {limit}" in found[0].message
    assert found[0].fix
    fixed = bad.with_fix(found[0].fix)
    assert run(server, "rs_len", [fixed.sql()]).ok, fixed.sql()
    assert lint(fixed.sql(), tmp_path) == []
    # without strict sql_mode the server makes a VARCHAR a LOB type with a Note, as the message says;
    # a CHAR or BINARY it refuses whatever the sql_mode
    lenient = run(server, "rs_len", [bad.sql()], session="SET SESSION sql_mode=''", table="t")
    if column.startswith("VAR"):
        assert "Note 1246" in found[0].message
        assert lenient.ok and [n for n in lenient.notes if n[1] == 1246]
        assert "text" in lenient.tables["t"] or "blob" in lenient.tables["t"]
    else:
        assert "whatever the sql_mode" in found[0].message and lenient.code == 1074


@pytest.mark.parametrize(("alter", "subject", "code"), [
    ("ADD c VARCHAR(70000)", "column-length:c", 1074), ("MODIFY name CHAR(256)", "column-length:name", 1074),
    ("CHANGE name title VARBINARY(70000)", "column-length:title", 1074),
    ("CONVERT TO CHARACTER SET utf8mb4", "column-length:note", 1074),
    ("DEFAULT CHARSET=utf8mb4, ADD d VARCHAR(20000)", "column-length:d", 1074),
    ("ADD c VARCHAR(40000)", "server-row", 1118), ("MODIFY name VARCHAR(12000) CHARSET utf8mb3", "server-row", 1118),
    ("MODIFY note VARCHAR(21000) CHARSET utf8mb3, ADD x VARCHAR(1000), DEFAULT CHARSET=utf8mb3", "server-row", 1118),
])
def test_an_alter_the_server_refuses_for_a_column_or_row_length(server: MariaDB, alter: str, subject: str, code: int,
                                                                 tmp_path: Path) -> None:
    """The replay refuses the ALTER (the table stays as it was: tests/test_alter_charsets.py
    compares it with the server's) and the check reports it at the ALTER, once, with the change
    to write instead."""
    create = ("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), note VARCHAR(30000), body TEXT) ENGINE=MyISAM "
              "DEFAULT CHARSET=latin1")
    statements = [create, f"ALTER TABLE t {alter}", "ALTER TABLE t ADD e INT"]
    refused = run(server, "rs_alter", statements[:2])
    assert not refused.ok and refused.code == code, refused
    loaded = run(server, "rs_alter", [create, statements[2]], table="t")
    found = lint(";\n".join(statements), tmp_path)
    assert [(f.line, f.subject) for f in found] == [(2, subject)]
    assert f"ERROR {code}" in found[0].message and "write the fix's changes into it" in found[0].message
    report = lint_sql(";\n".join(statements) + ";\n", tmp_path, target=TARGET)
    assert not [d for d in report.diagnostics if d.rule == "replay-error"]  # (the check said it: nothing twice)
    assert "`e` int" in loaded.tables["t"]


@pytest.mark.parametrize(("columns", "charset"), [
    (["TEXT"], "latin1"), (["VARCHAR(300)"], "latin1"), (["MEDIUMBLOB", "TEXT"], "utf8mb4"),
    (["VARBINARY(300)"], "latin1"), (["TEXT", "VARCHAR(300)", "INT"], "latin1"), (["VARCHAR(100)", "JSON"], "utf8mb4"),
])
def test_rows_that_fit_the_create_but_not_the_page(server: MariaDB, columns: list[str], charset: str,
                                                    tmp_path: Path) -> None:
    """MariaDB counts each long column as its 20-byte reference at CREATE, but a value of up to
    40 bytes stays in the row. At the first column count where such a row can exceed the page,
    the table loads, a row of 40-byte values fails with ERROR 1118 as the warning says, and
    41-byte values (which go off-page) are stored; one column fewer, the 40-byte row is stored
    and there is no finding."""
    target = Target.parse(TARGET)
    count = next(n for n in range(10, 1000)
                 if (size := row_size(table_of(table(columns, n, charset=charset).sql()), target)).worst_bytes >= size.record_limit)
    ddl, fewer = table(columns, count, charset=charset), table(columns, count - 1, charset=charset)
    found = lint(ddl.sql(), tmp_path)
    assert [(f.severity, f.subject) for f in found] == [("warning", "innodb-rows")], found

    def insert(made: TableDDL, n: int) -> str:
        """A row whose every text/blob value is n bytes long."""
        def value(definition: str) -> str:
            if "INT" in definition:
                return "1"
            if definition == "JSON":  # a JSON string of n bytes
                return f"CONCAT('\"', REPEAT('x', {n - 2}), '\"')"
            return f"REPEAT('x', {n})"

        values = [value(definition) for definition in made.columns.values()]
        return f"INSERT INTO t ({', '.join(made.columns)}) VALUES ({', '.join(values)})"

    short = run(server, "rs_rows", [ddl.sql(), insert(ddl, 40)])
    assert not short.ok and short.code == 1118 and f"ERROR 1118 (42000): {short.message}" in found[0].message
    assert run(server, "rs_rows", [ddl.sql(), insert(ddl, 41)]).ok
    assert lint(fewer.sql(), tmp_path) == []
    assert run(server, "rs_rows", [fewer.sql(), insert(fewer, 40)]).ok


def test_compact_rows_fixed_by_dynamic(server: MariaDB, tmp_path: Path) -> None:
    """COMPACT keeps 768 bytes of each long column in the row; DYNAMIC only the reference."""
    for n, charset in ((11, "utf8mb4"), (11, "utf8mb3"), (16, "ucs2"), (11, "utf16")):
        bad = table(["VARCHAR(255)"], n, charset=charset, options=" ROW_FORMAT=COMPACT")
        found = lint(bad.sql(), tmp_path)
        assert [f.fix for f in found] == ["ALTER TABLE `t` ROW_FORMAT=DYNAMIC;"], found
        assert not run(server, "rs_compact", [bad.sql()]).ok
        made = run(server, "rs_compact", ["SET SESSION innodb_strict_mode=OFF", bad.sql(),
                                           "SET SESSION innodb_strict_mode=ON", found[0].fix or ""], table="t")
        assert made.ok and lint(made.tables["t"], tmp_path) == []


def test_the_65535_limit_holds_for_every_engine(server: MariaDB, tmp_path: Path) -> None:
    bad = TableDDL("t", {"a": "VARCHAR(32765)", "b": "VARCHAR(32766)"}, {}, "ENGINE=MyISAM CHARSET=latin1")
    found = lint(bad.sql(), tmp_path)
    refused = run(server, "rs_myisam", [bad.sql()])
    assert not refused.ok and refused.code == 1118 and f"ERROR 1118 (42000): {refused.message}" in found[0].message
    assert run(server, "rs_myisam", [bad.with_fix(found[0].fix or "").sql()]).ok
    # a MyISAM row over InnoDB's page is MyISAM's business
    wide = table(["CHAR(255) NOT NULL"], 40, charset="latin1", options=" ENGINE=MyISAM")
    assert lint(wide.sql(), tmp_path) == [] and run(server, "rs_myisam", [wide.sql()]).ok


def test_mysql_sql_mode_refuses_the_same(server: MariaDB, tmp_path: Path) -> None:
    """The limits are not sql_mode's: with MySQL's default sql_mode MariaDB refuses the same tables."""
    bad = table(["CHAR(255) NOT NULL"], 40, charset="latin1")
    refused = run(server, "rs_mode", [bad.sql()], session=f"SET SESSION sql_mode='{MYSQL_SQL_MODE}'")
    assert not refused.ok and refused.code == 1118
    assert [f.severity for f in lint(bad.sql(), tmp_path, "mysql-8.0")] == ["error"]


def test_time_grows_linearly_with_the_columns(tmp_path: Path) -> None:
    """A table that needs many columns moved off-page: the fix's search is a bisection, not a
    column-at-a-time loop, so 10x the columns (34 and 340) take at most ~15x the time
    (tests/complexity.py). 340 columns is about the most InnoDB can hold as TEXT (21 bytes each)."""

    def linting(n: int) -> Callable[[], object]:
        ddl = table(["VARCHAR(60) NOT NULL", "CHAR(60)"], n, charset="utf8mb4").sql()  # 241 bytes each in the row

        def work() -> None:
            found = lint(ddl, tmp_path)
            assert found and found[0].fix and "MODIFY COLUMN" in found[0].fix

        return work

    assert_linear(linting, 34)


# --- ALTERs refused one after another (issue 37) ----------------------------------------------------

def _wide(n: int, refused: int, *, added: list[str] | None = None) -> str:
    """A table of n columns whose row is near the server's limit, then `refused` ALTERs that each
    add a column it refuses the row for (the columns of `added`, in turn)."""
    width = 64_900 // n
    body = ", ".join(["id INT NOT NULL PRIMARY KEY"] + [f"c{i} VARCHAR({width}) NOT NULL" for i in range(n)])
    kinds = added or ["VARCHAR(6000) NOT NULL"]
    alters = [f"ALTER TABLE t ADD COLUMN x{i} {kinds[i % len(kinds)]}" for i in range(refused)]
    return ";\n".join([f"CREATE TABLE t ({body}) ENGINE=InnoDB DEFAULT CHARSET=latin1", *alters]) + ";\n"


def test_refused_alters_of_a_wide_table_are_linear(tmp_path: Path) -> None:
    """n refused ALTERs of an n-column table: each kept a copy of the table and the check worked
    each copy whole (1,001 columns and 1,000 ALTERs: 94 s; 10,000 ALTERs > 300 s at 1 GB). Now the
    row of an ALTER that only adds columns is the table's, counted once, plus theirs, and past the
    first three refused on the table as it stands a refusal keeps only its own columns."""
    def make(n: int) -> Callable[[], object]:
        path = tmp_path / f"wide{n}.sql"
        path.write_text(_wide(n, n))

        def run_it() -> None:
            from linter.engine import lint_paths
            from linter.rules.checkapi import CheckContext

            report = lint_paths([str(path)], CheckContext(target=Target.parse(TARGET)))
            assert len([f for f in report.findings if f.rule == RULE and f.line > 1]) == n

        return run_it

    assert_linear(make, 60)


@pytest.mark.parametrize("added", [["VARCHAR(6000) NOT NULL"], ["VARCHAR(2000) NULL", "CHAR(200) CHARACTER SET utf8mb4",
                                                                  "VARCHAR(300) CHARACTER SET utf8mb4 NULL",
                                                                  "CHAR(255) CHARACTER SET utf8mb4", "VARBINARY(3000)",
                                                                  "VARCHAR(700) NOT NULL"]])
def test_a_repeated_refusal_says_its_own_row_and_where_the_first_is(tmp_path: Path, added: list[str]) -> None:
    """Past the first three ALTERs refused on the table as it stands, a refusal is reported with its
    row's bytes and the line of the first one (whose finding has the fix); the bytes are the ones a
    whole count of the ALTER's row gives (the same ALTER alone after the CREATE: analysed whole)."""
    refused = 8
    found = lint(_wide(50, refused, added=added).rstrip(";\n"), tmp_path)
    assert [f.line for f in found] == list(range(2, 2 + refused))
    full, repeats = found[:3], found[3:]
    assert all("is as it was at line" not in f.message for f in full)
    for i, repeat in enumerate(repeats, start=3):
        assert repeat.severity == "error" and repeat.subject == "server-row"
        assert "ERROR 1118" in repeat.message and "the table is as it was at line 2," in repeat.message
        alone = _wide(50, 0).rstrip(";\n") + f";\nALTER TABLE t ADD COLUMN x{i} {added[i % len(added)]}"
        [whole] = lint(alone, tmp_path)
        assert whole.message.split(" bytes")[0] == repeat.message.split(" bytes")[0], (whole.message, repeat.message)


def test_after_a_change_the_next_refusals_are_analysed_whole_again(tmp_path: Path) -> None:
    statements = _wide(50, 4).rstrip(";\n").split(";\n")  # lines 2-5 refused: 5 repeats 2
    statements += ["ALTER TABLE t DROP COLUMN c0"]  # line 6, accepted: the table changes
    statements += ["ALTER TABLE t ADD COLUMN y VARCHAR(9000) NOT NULL"] * 4  # lines 7-10: 10 repeats 7
    found = lint(";\n".join(statements), tmp_path)
    assert [f.line for f in found] == [2, 3, 4, 5, 7, 8, 9, 10]
    assert [f.line for f in found if "is as it was at line" in f.message] == [5, 10]
    assert "as it was at line 7," in found[-1].message
