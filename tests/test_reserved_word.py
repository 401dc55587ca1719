"""reserved-word (issue 34): names the target reserves, per target, judged by the test MariaDB.

The MariaDB list is the server's own: every word of it is refused as a bare table and column name
and taken quoted, and the MySQL words it does not reserve are taken bare. Generated tables mixing
reserved and plain names, bare and quoted, in several layouts: the server refuses exactly the
statements the rule gives an error for. The MySQL lists are checked against the manual's facts
(what 8.0 added to 5.7, what 8.4 changed) and for the levels: error on the target, warning on the
upgrade path or another configured target, info when quoted."""

from __future__ import annotations

import random
from pathlib import Path

import pymysql
import pytest

from linter.schema.reserved_words import MARIADB, MYSQL_57, MYSQL_80, MYSQL_84, reserved_words, upgrades
from linter.schema.target import TARGETS, Target
from tests.helpers import findings, lint_sql
from tests.mariadb import MariaDB

RULE = "reserved-word"
#: words innolint's parser reads as the start of a key, not a column: a parse error there as on the server
_KEY_STARTS = frozenset({"CONSTRAINT", "FOREIGN", "FULLTEXT", "INDEX", "KEY", "PRIMARY", "SPATIAL", "UNIQUE"})


def test_mysql_lists_hold_the_manuals_facts() -> None:
    added_in_80 = {"CUBE", "CUME_DIST", "DENSE_RANK", "EMPTY", "EXCEPT", "FIRST_VALUE", "FUNCTION", "GROUPING",
                   "GROUPS", "INTERSECT", "JSON_TABLE", "LAG", "LAST_VALUE", "LATERAL", "LEAD", "NTH_VALUE", "NTILE",
                   "OF", "OVER", "PERCENT_RANK", "RANK", "RECURSIVE", "ROW", "ROWS", "ROW_NUMBER", "SYSTEM", "WINDOW"}
    assert MYSQL_80 - MYSQL_57 == added_in_80 and MYSQL_57 <= MYSQL_80
    assert MYSQL_84 ^ MYSQL_80 == {"QUALIFY", "TABLESAMPLE", "MASTER_BIND", "MASTER_SSL_VERIFY_SERVER_CERT"}
    # nonreserved keywords (BEGIN, END, STATUS) and words that were reserved only in some 8.0 releases
    # (ADMIN before 8.0.12, ARRAY and MEMBER in 8.0.17-18, PERSIST before 8.0.16) are names
    assert not {"BEGIN", "END", "STATUS", "ADMIN", "ARRAY", "MEMBER", "PERSIST", "NAME", "TYPE"} & MYSQL_80
    assert [t.name for t in upgrades(Target.parse("mysql-5.7"))] == ["mysql-8.0", "mysql-8.4"]
    assert reserved_words(Target.parse("percona-8.0")) is MYSQL_80 and upgrades(Target.parse("mariadb-10.6")) == ()


def test_the_mariadb_list_is_the_servers(mariadb: MariaDB) -> None:
    mariadb.sql("DROP DATABASE IF EXISTS rw_words; CREATE DATABASE rw_words")
    connection = mariadb.connect("rw_words")
    wrong = []
    try:
        with connection.cursor() as cursor:
            def refused(ddl: str) -> bool:
                try:
                    cursor.execute(ddl)
                except pymysql.err.MySQLError as error:
                    assert error.args[0] == 1064, (ddl, error)
                    return True
                cursor.execute("DROP TABLE IF EXISTS `" + ddl.split()[2].strip("`") + "`")
                return False

            for word in sorted(MARIADB | MYSQL_84 | MYSQL_57):
                reserved = word in MARIADB
                if refused(f"CREATE TABLE t (id INT, {word} INT)") != reserved or (
                        refused(f"CREATE TABLE {word} (id INT)") != reserved):
                    wrong.append(word)
                if refused(f"CREATE TABLE t (id INT, `{word}` INT)") or refused(f"CREATE TABLE `{word}` (id INT)"):
                    wrong.append(f"`{word}`")
    finally:
        connection.close()
        mariadb.sql("DROP DATABASE IF EXISTS rw_words")
    assert not wrong, wrong


def _name(rng: random.Random, pool: list[str]) -> tuple[str, str, bool]:
    """(the name as written, the name, whether written bare)."""
    word = rng.choice(pool)
    word = rng.choice([word, word.lower(), word.capitalize()])
    bare = rng.random() < 0.6
    return (word if bare else f"`{word}`"), word, bare


@pytest.mark.parametrize("seed", range(3))
def test_generated_tables_the_server_refuses_are_the_errors(mariadb: MariaDB, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    reserved = sorted((MARIADB - _KEY_STARTS) | (MYSQL_84 - MARIADB - _KEY_STARTS))
    plain = ["amount", "title", "user_id", "created", "notes", "position", "kind", "label"]
    pool = reserved + plain * 8
    statements = []
    for n in range(40):
        table, table_name, _ = _name(rng, pool) if rng.random() < 0.3 else (f"t{n}", f"t{n}", True)
        columns = [_name(rng, pool) for _ in range(rng.randint(1, 4))]
        seen = {c[1].lower() for c in columns}
        if len(seen) < len(columns) or table_name.lower() in {s[1].lower() for s in statements}:
            continue
        layout = rng.choice([",\n  ", ", ", ",\n  -- note\n  "])
        body = layout.join(f"{written} INT" for written, _, _ in columns)
        statements.append((f"CREATE TABLE {table} (\n  id INT PRIMARY KEY{layout}{body}\n);\n", table_name, columns))
    text = "".join(s for s, _, _ in statements)
    report = lint_sql(text, tmp_path, target="mariadb-10.11")
    errors = {f.table for f in findings(report, RULE) if f.severity == "error"}
    # a bare USE or RENAME starting a line reads as a statement glued on without its `;`: innolint says
    # so at the statement (a parse error), and the server refuses it as well
    starts, line = [], 1
    for ddl, table_name, _ in statements:
        starts.append((line, line + ddl.count("\n") - 1, table_name))
        line += ddl.count("\n")
    errors |= {name for d in report.diagnostics if d.rule == "parse-error"
               for first, last, name in starts if first <= d.line <= last}
    mariadb.sql("DROP DATABASE IF EXISTS rw_gen; CREATE DATABASE rw_gen")
    connection = mariadb.connect("rw_gen")
    disagree = []
    try:
        with connection.cursor() as cursor:
            for ddl, table_name, _ in statements:
                try:
                    cursor.execute(ddl)
                    refused = False
                except pymysql.err.MySQLError as error:
                    assert error.args[0] == 1064, (ddl, error)
                    refused = True
                if refused != (table_name in errors):
                    disagree.append(ddl)
    finally:
        connection.close()
        mariadb.sql("DROP DATABASE IF EXISTS rw_gen")
    assert not disagree, disagree
    assert errors  # the generator made some


@pytest.mark.parametrize(("target", "word", "levels"), [
    # a word 8.0 reserved: error on 8.0 and 8.4, warning on 5.7 (its upgrade), a name on MariaDB
    ("mysql-5.7", "rank", ("warning", "info")), ("mysql-8.0", "rank", ("error", "info")),
    ("mysql-8.4", "groups", ("error", "info")), ("mariadb-10.11", "rank", (None, None)),
    # reserved everywhere
    ("mysql-5.7", "order", ("error", "info")), ("mariadb-10.6", "order", ("error", "info")),
    # MariaDB's own; 8.4's new ones
    ("mariadb-11.x", "returning", ("error", "info")), ("mysql-8.0", "returning", (None, None)),
    ("mysql-8.0", "qualify", ("warning", "info")), ("mysql-8.4", "tablesample", ("error", "info")),
    ("mysql-8.4", "master_bind", (None, None)),
])
def test_levels_per_target(tmp_path: Path, target: str, word: str, levels: tuple[str | None, str | None]) -> None:
    for written, level in ((word, levels[0]), (f"`{word}`", levels[1])):
        sql = f"CREATE TABLE scores (id INT PRIMARY KEY, {written} INT);\n"
        found = findings(lint_sql(sql, tmp_path, target=target), RULE)
        assert [f.severity for f in found] == ([level] if level else []), (written, found)
        if found:
            assert found[0].subject == f"column:{word}" and (found[0].line, found[0].column) == (1, sql.index(written) + 1)


def test_another_target_and_a_table_name(tmp_path: Path) -> None:
    sql = "CREATE TABLE offset (id INT PRIMARY KEY);\nCREATE TABLE db1.offset2 (system INT);\n"
    options = {"options": {RULE: {"targets": ["mariadb-10.11"]}}}
    found = findings(lint_sql(sql, tmp_path, target="mysql-8.0", **options), RULE)  # type: ignore[arg-type]
    assert [(f.table, f.subject, f.severity) for f in found] == [("offset", "table", "warning"),
                                                                  ("offset2", "column:system", "error")]
    assert "MariaDB 10.11" in found[0].message and found[0].line == 1


def test_a_name_after_a_period_needs_no_quotes(tmp_path: Path) -> None:
    sql = "CREATE DATABASE app;\nCREATE TABLE app.rank (id INT PRIMARY KEY, t.lead INT);\n"
    found = findings(lint_sql(sql, tmp_path, target="mysql-8.0"), RULE)
    assert [f.severity for f in found] == ["info", "info"]


def test_renamed_and_altered_names(tmp_path: Path) -> None:
    sql = ("CREATE TABLE a (id INT PRIMARY KEY);\nRENAME TABLE a TO `window`;\n"
           "ALTER TABLE `window` ADD COLUMN lead INT,\n  ADD COLUMN `over` INT;\n")
    found = findings(lint_sql(sql, tmp_path, target="mysql-8.0"), RULE)
    assert sorted((f.subject, f.severity, f.line) for f in found) == [
        ("column:lead", "error", 3), ("column:over", "info", 4), ("table", "info", 1)]


@pytest.mark.parametrize("target", TARGETS)
def test_time_is_a_set_lookup_per_name(tmp_path: Path, target: str) -> None:
    """Thousands of columns, a few reserved: one finding each, nothing for the rest."""
    columns = ", ".join(f"c{n} INT" for n in range(3000)) + ", `key` INT, `select` INT"
    found = findings(lint_sql(f"CREATE TABLE t (id INT PRIMARY KEY, {columns});\n", tmp_path, target=target), RULE)
    assert sorted(f.subject for f in found) == ["column:key", "column:select"]
