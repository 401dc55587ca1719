"""The parse cache (linter.parse_cache) and the parser's fast paths: each distinct statement is
parsed once, copies of one CREATE TABLE share its structure with their own AUTO_INCREMENT and
TABLESPACE, copy-on-write keeps tenants apart, and nothing read through a shortcut differs from
what the full parser reads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from linter import ops
from linter import parse as parse_module
from linter.checkapi import CheckContext
from linter.engine import Engine, RunOptions, Unit, lint_paths
from linter.model import Location
from linter.parse import ParseFailure, parse_statement
from linter.parse_cache import ParseCache
from linter.replay import Replayer
from linter.source import read_statements

SHARED = Path(__file__).parents[1] / ".." / "shared"
MAKE_TENANTS = SHARED / "corpus" / "_scale" / "make_tenants.py"

TABLE = """CREATE TABLE `wp_posts` (
  `ID` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `post_title` text COLLATE utf8mb4_unicode_ci NOT NULL,
  `post_status` varchar(20) COLLATE utf8mb4_unicode_ci NOT NULL DEFAULT 'publish',
  PRIMARY KEY (`ID`),
  KEY `post_status` (`post_status`)
) {tablespace}ENGINE=InnoDB{counter} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci"""


def table_text(counter: int | None = None, tablespace: str | None = None) -> str:
    return TABLE.format(
        counter=f" AUTO_INCREMENT={counter}" if counter is not None else "",
        tablespace=f"  TABLESPACE `{tablespace}`    " if tablespace is not None else "",
    )


def replay(cache: ParseCache, statements: list[str]) -> Replayer:
    replayer = Replayer()
    for n, text in enumerate(statements, 1):
        op = cache.parse(text)
        assert not isinstance(op, ParseFailure), op.reason
        replayer.apply(op, Location("t.sql", n))
    return replayer


# --- AUTO_INCREMENT and TABLESPACE variants -----------------------------------------------------


def test_counter_variants_are_parsed_once_and_keep_their_own_counter() -> None:
    cache = ParseCache()
    statements = []
    counters = [None, 5, 7, None, 2_000_000, 5]
    for n, counter in enumerate(counters):
        statements += [f"USE `tenant_{n}`", table_text(counter)]
    replayer = replay(cache, statements)
    tables = [replayer.model.find_table(f"tenant_{n}", "wp_posts") for n in range(len(counters))]
    assert [t.options.auto_increment for t in tables] == counters  # type: ignore[union-attr]
    # one parse for the definition, one to trust the counter's place, none for USE beyond its own
    assert cache.parsed - len(counters) == 2
    assert len({t.body.definition_id for t in tables}) <= 2  # type: ignore[union-attr]
    first = tables[0]
    assert first is not None and list(first.columns) == ["id", "post_title", "post_status"]
    for table in tables:
        assert table is not None
        assert table.columns == first.columns and table.indexes == first.indexes
        assert table.options.engine == "InnoDB" and table.options.collation == "utf8mb4_unicode_ci"


def test_a_table_with_and_without_a_counter_share_one_entry() -> None:
    cache = ParseCache()
    plain = cache.parse(table_text())
    counted = cache.parse(table_text(42))  # trusted after one parse: the counter's place is new
    again = cache.parse(table_text(43))
    assert cache.parsed == 2
    assert isinstance(plain, ops.CreateTable) and isinstance(counted, ops.CreateTable)
    assert isinstance(again, ops.CreateTable)
    assert (plain.body.options.auto_increment, counted.body.options.auto_increment) == (None, 42)
    assert again.body.options.auto_increment == 43
    assert again.body.columns is plain.body.columns and again.body.indexes is plain.body.indexes
    assert again.body.options is not plain.body.options
    # and in the other order
    cache = ParseCache()
    cache.parse(table_text(9))
    bare = cache.parse(table_text())
    assert cache.parsed == 1 and isinstance(bare, ops.CreateTable) and bare.body.options.auto_increment is None


def test_a_general_tablespace_per_tenant_hits_the_cache_with_its_own_tablespace() -> None:
    cache = ParseCache()
    statements = []
    for n in range(50):
        statements += [f"USE `tenant_{n:05d}`", table_text(n * 3 if n % 2 else None, f"tenant_{n:05d}")]
    replayer = replay(cache, statements)
    assert cache.parsed - 50 <= 2  # the 50 USE statements, and the definition (and its counter's place)
    for n in range(50):
        table = replayer.model.find_table(f"tenant_{n:05d}", "wp_posts")
        assert table is not None
        assert table.options.tablespace == f"tenant_{n:05d}"
        assert table.options.auto_increment == (n * 3 if n % 2 else None)
        assert table.column("post_status") is not None and table.primary_key is not None


def test_copy_on_write_keeps_each_tenants_table_its_own() -> None:
    cache = ParseCache()
    replayer = replay(cache, [
        "USE `a`", table_text(5, "a"),
        "USE `b`", table_text(6, "b"),
        "USE `c`", table_text(None, "c"),
        "USE `a`",
        "ALTER TABLE `wp_posts` ADD COLUMN `extra` json, DROP INDEX `post_status`, ENGINE=MyISAM, CHECKSUM=1, "
        "TABLESPACE `other`",
        "USE `b`",
        "ALTER TABLE `wp_posts` MODIFY `post_title` text NULL",
    ])
    a, b, c = (replayer.model.find_table(s, "wp_posts") for s in "abc")
    assert a is not None and b is not None and c is not None
    assert "extra" in a.columns and "extra" not in b.columns and "extra" not in c.columns
    assert [i.name for i in a.indexes] == ["PRIMARY"] and [i.name for i in c.indexes] == ["PRIMARY", "post_status"]
    assert (a.options.engine, b.options.engine, c.options.engine) == ("MyISAM", "InnoDB", "InnoDB")
    assert a.options.other == {"CHECKSUM": "1"} and b.options.other == {} and c.options.other == {}
    assert (a.options.tablespace, b.options.tablespace, c.options.tablespace) == ("other", "b", "c")
    assert (a.options.auto_increment, b.options.auto_increment, c.options.auto_increment) == (5, 6, None)
    assert b.column("post_title").nullable and not c.column("post_title").nullable  # type: ignore[union-attr]
    # the cached definition itself is untouched: the next tenant gets the original
    d = replay(cache, ["USE `d`", table_text(1, "d")]).model.find_table("d", "wp_posts")
    assert d is not None and "extra" not in d.columns and d.column("post_title").nullable is False  # type: ignore[union-attr]
    assert [i.name for i in d.indexes] == ["PRIMARY", "post_status"] and d.options.other == {}


@pytest.mark.parametrize("text", [
    # a counter inside a string: not the table option, or not only
    TABLE.format(counter=" COMMENT='AUTO_INCREMENT=5'", tablespace=""),
    TABLE.format(counter=" AUTO_INCREMENT=3 COMMENT='AUTO_INCREMENT=5'", tablespace=""),
    TABLE.format(counter=" COMMENT='AUTO_INCREMENT=5' AUTO_INCREMENT 3", tablespace=""),
    TABLE.format(counter=" COMMENT='TABLESPACE `x`'", tablespace=""),
    TABLE.format(counter=" COMMENT='TABLESPACE `x`'", tablespace="  TABLESPACE `y` "),
])
def test_text_that_only_looks_like_a_counter_or_a_tablespace_is_never_cut(text: str) -> None:
    expected = parse_statement(text)
    cache = ParseCache()
    assert cache.parse(text) == expected
    # a statement that differs only where the cut would be still reads as itself
    variant = text.replace("=5", "=6").replace("`x`", "`z`")
    assert cache.parse(variant) == parse_statement(variant)
    assert cache.parse(text) == expected


def test_schema_statements_are_not_cached_and_the_caches_are_bounded() -> None:
    cache = ParseCache(table_size=2, ddl_size=2)
    for n in range(100):
        assert cache.parse(f"USE `t{n}`") == ops.SchemaStatement("use", f"t{n}")
        assert cache.parse(f"CREATE DATABASE `t{n}`") == ops.SchemaStatement("create", f"t{n}")
    assert len(cache._ddl) == 0 and len(cache._tables) == 0
    texts = [f"CREATE TABLE t{n} (id int PRIMARY KEY) AUTO_INCREMENT={n + 1}" for n in range(5)]
    for text in texts * 2:
        op = cache.parse(text)
        assert isinstance(op, ops.CreateTable) and op == parse_statement(text)
    assert len(cache._tables) == 2
    for n in range(5):
        assert cache.parse(f"DROP TABLE IF EXISTS `t{n}`") == parse_statement(f"DROP TABLE IF EXISTS `t{n}`")
    assert len(cache._ddl) == 2


def test_statements_skipped_by_their_first_word_are_not_parsed() -> None:
    cache = ParseCache()
    for n in range(1000):
        assert cache.parse(f"INSERT INTO t VALUES ({n})") == ops.Skipped("INSERT")
        assert cache.parse(f"set @x = {n}") == ops.Skipped("SET")
    assert cache.parsed == 0


def test_failures_are_cached_as_failures() -> None:
    cache = ParseCache()
    for text in ("CREATE TABLE t (a int DEFAULT) AUTO_INCREMENT=3", "ALTER TABLE t ADD COLUMN"):
        first = cache.parse(text)
        assert isinstance(first, ParseFailure)
        assert cache.parse(text) is first
    assert cache.parsed == 2


# --- the parser's shortcuts agree with the token path --------------------------------------------

SIMPLE = [
    "USE `tenant_00001`", "use `x`", "USE `a.b`", "USE\t`x`\r\n",
    "CREATE DATABASE   IF NOT EXISTS   `tenant_00001`           DEFAULT CHARACTER SET utf8mb4 COLLATE "
    "utf8mb4_unicode_ci               DEFAULT ENCRYPTION='N'",
    "create schema `s`", "CREATE DATABASE `d` CHARSET=utf8", "CREATE DATABASE IF NOT EXISTS `d`",
    "DROP TABLE IF EXISTS `wp_posts`", "drop table `a`, `b`.`c`", "DROP TABLE `x`.`y`",
    "ALTER TABLE `wp_posts` DISABLE KEYS", "alter table `s`.`t` enable keys",
]
ODD_NAMES = ["a b", "a\\b", "ñ", "a\nb", "1", "select", "a'b", 'a"b', "a;b", "%PRE%x", "{$p}t", "@E@", "x--y"]


def _token_path(text: str) -> object:
    original = parse_module._simple_statement
    parse_module._simple_statement = lambda _text: None
    try:
        return parse_statement(text)
    except ParseFailure as failure:
        return ("failure", failure.reason, failure.line_offset)
    finally:
        parse_module._simple_statement = original


def test_the_simple_statement_shortcut_reads_what_the_token_path_reads() -> None:
    texts = SIMPLE + [
        template.format(name, name)
        for name in ODD_NAMES
        for template in ("USE `{}`", "CREATE DATABASE `{}`", "DROP TABLE IF EXISTS `{}`", "DROP TABLE `s`.`{}`, `{}`",
                         "ALTER TABLE `{}` DISABLE KEYS")
    ]
    taken = 0
    for text in texts:
        fast = parse_module._simple_statement(text)
        if fast is not None:
            taken += 1
            assert fast == _token_path(text), text
    assert taken >= len(SIMPLE)


@pytest.mark.parametrize("default", ["'0'", "''", "'it''s'", "'a\\\\b'", "'0000-00-00 00:00:00'", "NULL", "0", "1.50",
                                     "-1", "1e3", "CURRENT_TIMESTAMP", "(uuid())", "b'0'", "0x1F", "'x' /* c */",
                                     "NULL /* annotations:reserved-word */"])
def test_defaults_written_directly_read_as_the_generator_writes_them(default: str) -> None:
    text = f"CREATE TABLE t (a varchar(20) DEFAULT {default})"
    op = parse_statement(text)
    assert isinstance(op, ops.CreateTable)
    from sqlglot import exp

    original = parse_module._sql
    parse_module._sql = lambda node: node.sql(dialect="mysql")
    try:
        reference = parse_statement(text)
    finally:
        parse_module._sql = original
    assert op == reference
    assert isinstance(exp.Literal, type)


def _full_path(text: str) -> object:
    """What parse_statement reads without any of its shortcuts (simple statements, columns read
    from their tokens, literals written directly)."""
    saved = parse_module._simple_statement, parse_module._simple_column, parse_module._sql
    parse_module._simple_statement = lambda _text: None
    parse_module._simple_column = lambda *_args: None
    parse_module._sql = lambda node: node.sql(dialect="mysql")
    try:
        return _outcome(text)
    finally:
        parse_module._simple_statement, parse_module._simple_column, parse_module._sql = saved


def _outcome(text: str) -> object:
    try:
        return parse_statement(text)
    except ParseFailure as failure:
        return ("failure", failure.reason, failure.line_offset)


def _corpus_statements() -> list[str]:
    texts: dict[str, None] = {}
    for path in sorted((SHARED / "corpus").rglob("*.sql")):
        if "_scale" not in path.parts:
            for statement in read_statements(str(path)):
                if statement.text[:6].upper() in ("CREATE", "ALTER ", "DROP T"):
                    texts[statement.text] = None
    return list(texts)


@pytest.mark.skipif(not (SHARED / "corpus").is_dir(), reason="shared corpus not present")
def test_the_shortcuts_read_the_corpus_as_the_full_path_does() -> None:
    texts = _corpus_statements()
    assert len(texts) > 1000
    for text in texts:
        assert _outcome(text) == _full_path(text), text


def test_the_column_reader_agrees_with_sqlglot_on_generated_columns() -> None:
    import random

    rng = random.Random(20240611)
    types = ["int", "INT(11)", "bigint(20) unsigned", "varchar(255)", "char(36)", "decimal(10,2)", "datetime",
             "timestamp", "text", "json", "json(5)", "tinyint(1)", "float(7,4)", "enum('a','b')", "bit(1)", "year(4)",
             "varbinary(16)", "time(6)", "nvarchar(10)", "serial", "point", "bool", "int(x)", "varchar()",
             "int zerofill", "char(10) binary", "national char(5)"]
    attributes = ["NOT NULL", "NULL", "DEFAULT '0'", "DEFAULT ''", "DEFAULT 'it''s'", "DEFAULT 'a\\\\b'", "DEFAULT NULL",
                  "DEFAULT 0", "DEFAULT 1.5", "DEFAULT -1", "DEFAULT CURRENT_TIMESTAMP", "DEFAULT", "AUTO_INCREMENT",
                  "COMMENT 'x'", "COMMENT 'a''b'", "COMMENT", "CHARACTER SET utf8mb4", "CHARSET latin1",
                  "CHARACTER SET 'utf8'", "COLLATE utf8mb4_bin", "COLLATE 'x'", "PRIMARY KEY", "UNIQUE", "UNIQUE KEY",
                  "KEY", "ON UPDATE CURRENT_TIMESTAMP", "ON UPDATE CURRENT_TIMESTAMP(6)", "ON UPDATE", "INVISIBLE",
                  "REFERENCES p(id)", "CHECK (a > 0)", "AS (a+1) STORED", "/* c */", ",", "(", ")", "UNSIGNED"]
    names = ["a", "`b`", "`select`", "key", "id", "`a b`"]
    for _ in range(600):
        columns = [" ".join([rng.choice(names), rng.choice(types)] + [rng.choice(attributes) for _ in range(rng.randint(0, 4))])
                   for _ in range(rng.randint(1, 4))]
        text = "CREATE TABLE t (\n  " + ",\n  ".join(columns) + "\n) ENGINE=InnoDB"
        assert _outcome(text) == _full_path(text), text


# --- end to end ----------------------------------------------------------------------------------


def make_tenants(tmp_path: Path, n: int, *extra: str) -> Path:
    out = tmp_path / f"tenants{'_'.join(extra)}.sql"
    subprocess.run([sys.executable, str(MAKE_TENANTS), "-n", str(n), "-o", str(out), *extra], check=True,
                   capture_output=True)
    return out


@pytest.mark.skipif(not MAKE_TENANTS.exists(), reason="shared corpus not present")
@pytest.mark.parametrize("extra", [(), ("--tablespace", "general:ts_{tenant}")])
def test_a_tenant_dump_is_parsed_once_per_definition_and_every_table_is_its_own(tmp_path: Path, extra: tuple) -> None:
    path = make_tenants(tmp_path, 40, *extra)
    engine = Engine(CheckContext(), checks=[])
    result = engine.lint_unit(Unit([str(path)]))
    assert not result.diagnostics
    # per tenant: USE and CREATE DATABASE; per table name: DROP TABLE and the two ALTER TABLE ...
    # KEYS; then each definition once, and the place of its counter once
    assert engine._cache.parsed <= 2 * 40 + 3 * 12 + 2 * 12
    # every table's counter and tablespace are those its own statement says
    written: dict[tuple[str, str], tuple[int | None, str | None]] = {}
    schema = None
    for statement in read_statements(str(path)):
        op = parse_statement(statement.text)
        if isinstance(op, ops.SchemaStatement) and op.action == "use":
            schema = op.name
        elif isinstance(op, ops.CreateTable):
            written[(schema, op.name.name)] = (op.body.options.auto_increment, op.body.options.tablespace)  # type: ignore[index]
    tables = result.model.tables()
    assert len(tables) == len(written) > 400
    assert {(t.schema, t.name): (t.options.auto_increment, t.options.tablespace) for t in tables} == written
    assert len({t.body.definition_id for t in tables}) <= 2 * 12
    counters = {t.options.auto_increment for t in tables}
    assert len(counters) > 20  # the dump's counters differ, and each table kept its own


def test_run_statistics_count_bytes_and_progress_is_told(tmp_path: Path) -> None:
    path = tmp_path / "a.sql"
    path.write_text("CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1);\n" * 3, encoding="utf-8")
    seen: list[tuple] = []

    class Recorder:
        def start(self, files: int, total_bytes: int) -> None:
            seen.append(("start", files, total_bytes))

        def read(self, nbytes: int, tables: int) -> None:
            seen.append(("read", nbytes))

        def file_done(self) -> None:
            seen.append(("done",))

        def finish(self) -> None:
            seen.append(("finish",))

    report = lint_paths([str(path)], options=RunOptions(progress=Recorder()))
    size = path.stat().st_size
    assert report.stats.bytes == size and report.stats.statements == 6 and report.stats.tables == 1
    assert seen[0] == ("start", 1, size) and seen[-1] == ("finish",) and ("done",) in seen
    assert sum(item[1] for item in seen if item[0] == "read") == size


def test_the_progress_bar_stays_off_without_a_terminal_and_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    from linter import cli

    class Tty:
        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> None:
            pass

        def flush(self) -> None:
            pass

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(sys, "stderr", Tty())
    monkeypatch.setenv("TERM", "xterm")
    assert cli._ProgressBar.for_stderr() is not None
    monkeypatch.setenv("CI", "true")
    assert cli._ProgressBar.for_stderr() is None
    monkeypatch.delenv("CI")
    monkeypatch.setattr(sys, "stderr", open(__file__))  # noqa: SIM115 - not a terminal
    assert cli._ProgressBar.for_stderr() is None
