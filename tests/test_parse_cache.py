"""The parse cache (linter.parse.cache) and the parser's fast paths: each distinct statement is
parsed once, copies of one CREATE TABLE share its structure with their own AUTO_INCREMENT and
TABLESPACE, copy-on-write keeps tenants apart, and nothing read through a shortcut differs from
what the full parser reads."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from linter.parse import ops
from linter.parse import statement as parse_module
from linter.rules.checkapi import CheckContext
from linter.engine import Engine, RunOptions, Unit, lint_paths
from linter.parse.elements import Location
from linter.parse.tokens import ParseFailure
from linter.parse.statement import parse_statement
from linter.parse.cache import ParseCache
from linter.server.replay import Replayer
from linter.input.source import read_statements

from tests import sampling
from tests.shared import SHARED, need

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
    assert [t.auto_increment for t in tables] == counters  # type: ignore[union-attr]
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
        assert table.auto_increment == (n * 3 if n % 2 else None)
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
    assert (a.auto_increment, b.auto_increment, c.auto_increment) == (5, 6, None)
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
        assert cache.parse(f"set sql_notes = {n}") == ops.Skipped("SET")
        # a user variable dynamic SQL may read: kept for the replay, still not parsed here
        assert cache.parse(f"set @x = {n}") == ops.Dynamic("SET", f"set @x = {n}")
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

    # the generator's own text, without comments (the server keeps none in a default)
    saved = _replace({"_sql": lambda node: node.sql(dialect="mysql", comments=False)})
    try:
        reference = parse_statement(text)
    finally:
        _restore(saved)
    assert op == reference
    assert isinstance(exp.Literal, type)


#: the parser's shortcuts, and what each is replaced by to take the full path
_SHORTCUTS = {
    "_simple_statement": lambda _text: None,  # statements of mysqldump's exact form
    "_plain_body": lambda _text, _start: None,  # a CREATE TABLE body read from its text
    "_plain_column": lambda _match: None,  # a column read from its text (in a body, or in an ALTER)
    "plain_options": lambda _text, _start: None,  # table options read from their text
    "_sql": lambda node: node.sql(dialect="mysql", comments=False),  # literals written directly
}


def _full_path(text: str) -> object:
    """What parse_statement reads without any of its shortcuts: every element of a CREATE TABLE
    read from its tokens, and every column through sqlglot."""
    saved = _replace(_SHORTCUTS)
    try:
        return _outcome(text)
    finally:
        _restore(saved)


def _parse_modules() -> list[ModuleType]:
    """The parser's modules: linter.parse.statement, and after the parser is split by what it
    parses (issue 19) the modules it is split into; a name is replaced wherever it is bound."""
    return [module for name, module in sorted(sys.modules.items())
            if name.startswith("linter.parse.") and module is not None]


def _parser(name: str) -> Any:
    """A name of the parser, from the module that defines it."""
    return next(getattr(m, name) for m in _parse_modules() if name in vars(m))


def _replace(replacements: dict[str, object]) -> list[tuple[ModuleType, str, object]]:
    saved = []
    for module in _parse_modules():
        for name, replacement in replacements.items():
            if name in vars(module):
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, replacement)
    assert {name for _, name, _ in saved} == set(replacements), "a shortcut is not where the parser reads it"
    return saved


def _restore(saved: list[tuple[ModuleType, str, object]]) -> None:
    for module, name, original in saved:
        setattr(module, name, original)


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


@pytest.mark.needs_shared("corpus")
def test_the_shortcuts_read_the_corpus_as_the_full_path_does() -> None:
    texts = _corpus_statements()
    assert len(texts) > 1000
    for text in texts:
        assert _outcome(text) == _full_path(text), text


SPACES = [" ", "  ", "\n", "\t", "\r\n", "\n    "]
#: what may come before an element of a body: whitespace, and comments on the line of the `,` or `(`
#: before it or on lines of their own; the odd ones (`--x` is no comment, `/* */` is not read) are
#: not plain
GAPS = (["\n  ", "\n  ", " ", "\n  -- c\n  ", " -- c, d\n  ", " # c\n  ", "\n-- c\n-- 'd\n  ", "\r\n  --\r\n  ",
         "\n  --\tc\n  ", " #\n  "],
        ["\n  --c\n  ", " /* c */ ", "\n  /* c\n */\n  ", "\n  -- c /* d\n  "])


def _spaced(rng: random.Random, *pieces: str) -> str:
    """The non-empty pieces joined by random whitespace (spaces, tabs, newlines)."""
    return "".join(piece + rng.choice(SPACES) for piece in pieces if piece).rstrip(" \t\r\n")


def _pick(rng: random.Random, odd: bool, plain: list[str], others: list[str]) -> str:
    """One of the plain forms, or when `odd` one of either list."""
    return rng.choice(plain + others if odd else plain)


def _read_as_the_full_path(texts: list[str]) -> int:
    """Assert each statement reads as the full path reads it; how many a shortcut read whole."""
    plain = 0
    for text in texts:
        assert _outcome(text) == _full_path(text), text
        plain += _parser("plain_create_table")(text) is not None
    return plain


def test_the_column_reader_agrees_with_sqlglot_on_generated_columns() -> None:
    rng = random.Random(20240611)  # the first cases of the stream (INNOLINT_EXHAUSTIVE: all)
    plain_types = ["int", "INT(11)", "bigint(20) unsigned", "varchar(255)", "char(36)", "decimal(10,2)",
                   "decimal( 10 , 2 )", "datetime", "timestamp", "text", "json", "tinyint(1)", "float(7,4)",
                   "double(1.5)", "enum('a','b')", "ENUM( 'a' , 'b,c' )", "set('x','y')", "bit(1)", "year(4)",
                   "varbinary(16)", "time(6)", "nvarchar(10)", "bool", "int4", "real", "fixed(5,1)", "character(3)",
                   "int unsigned zerofill", "char(10) binary", "INT(10)UNSIGNED", "int signed"]
    odd_types = ["json(5)", "enum('it''s')", "enum('a\\\\b')", "enum()", "set", "int('a')", "serial", "point", "int(x)",
                 "varchar()", "national char(5)", "double precision", "char varying(5)", "long varchar",
                 "integer unsigned", "long", "uuid", "geometry"]
    plain_attributes = [
        "NOT NULL", "NULL", "not\nnull", "DEFAULT '0'", "DEFAULT ''", "DEFAULT NULL", "default null", "DEFAULT 0",
        "DEFAULT 1.5", "DEFAULT -1", "DEFAULT -0.5", "DEFAULT CURRENT_TIMESTAMP", "DEFAULT current_timestamp()",
        "DEFAULT CURRENT_TIMESTAMP(3)", "DEFAULT CURRENT_TIMESTAMP ( 6 )", "DEFAULT TRUE", "DEFAULT false",
        "DEFAULT b'0'", "DEFAULT B'101'", "DEFAULT b''", "AUTO_INCREMENT", "auto_increment", "COMMENT 'x'",
        "COMMENT 'a''b'", "COMMENT'x'", "COMMENT ''", "CHARACTER SET utf8mb4", "CHARSET latin1", "character set ascii",
        "COLLATE utf8mb4_bin", "PRIMARY KEY", "primary  key", "UNIQUE", "UNIQUE KEY", "unique\nkey",
        "ON UPDATE CURRENT_TIMESTAMP", "ON UPDATE CURRENT_TIMESTAMP(6)", "on update current_timestamp()", "UNSIGNED",
        "SIGNED", "ZEROFILL", "BINARY", "binary"]
    odd_attributes = [
        "DEFAULT 'it''s'", "DEFAULT 'a\\\\b'", "DEFAULT - 1", "DEFAULT 1e3", "DEFAULT 0x1F", "DEFAULT now()",
        "DEFAULT x'1F'", "DEFAULT 'x' COLLATE utf8_bin", "DEFAULT", "COMMENT 'a\\\\b'", "COMMENT 'a\\'b'", "COMMENT",
        "CHARACTER SET 'utf8'", "CHARSET binary", "COLLATE 'x'", "COLLATE binary", "KEY", "ON UPDATE", "INVISIBLE",
        "VISIBLE", "REFERENCES p(id)", "CHECK (a > 0)", "AS (a+1) STORED", "/* c */", "-- c\n", "# c\n", ",", "(", ")",
        "COMPRESSED", "SRID 0", "STORAGE DISK", "COLUMN_FORMAT DYNAMIC"]
    plain_names = ["a", "`b`", "`select`", "id", "`a b`", "`a``b`", "_x", "`x,y`", "`(`"]
    odd_names = ["key", "uuid", "time", "date", "primary", "a$b", "1a", "character", "null", "default", "period",
                 "constraint", "exclude", "bucket"]
    texts = []
    for _ in range(sampling.size(500, 1500)):
        odd = rng.random() < 0.3  # else only plain forms, so that whole statements take the shortcut
        columns = [_spaced(rng, _pick(rng, odd, plain_names, odd_names), _pick(rng, odd, plain_types, odd_types),
                           *(_pick(rng, odd, plain_attributes, odd_attributes) for _ in range(rng.randint(0, 4))))
                   for _ in range(rng.randint(1, 4))]
        gaps = [_pick(rng, odd, *GAPS) for _ in columns]  # comments before a column, or whitespace
        texts.append("CREATE TABLE t (" + ",".join(gap + column for gap, column in zip(gaps, columns)) + "\n) ENGINE=InnoDB")
    assert _read_as_the_full_path(texts) > len(texts) // 8  # random attributes repeat, or follow DEFAULT where sqlglot reads on
    # and in ALTER TABLE, where each column is read from its tokens' text
    alters = [f"ALTER TABLE t {verb} {column}" for verb in ("ADD COLUMN", "MODIFY", "CHANGE x")
              for column in ("`a` int NOT NULL DEFAULT 0 -- c\n", "a int DEFAULT 0 /* c */ NOT NULL",
                             "a varchar(5) BINARY NOT NULL AFTER b", "a int FIRST", "a enum('x') DEFAULT 'x'")]
    _read_as_the_full_path(alters)


def test_each_plain_type_word_reads_as_the_full_path() -> None:
    texts = [f"CREATE TABLE t (`a` {word.lower()}{params} NOT NULL, b {word} DEFAULT NULL, PRIMARY KEY (a))"
             for word in _parser("_PLAIN_TYPES") for params in ("", "(5)", "(10,2)", "('x','y')")]
    assert _read_as_the_full_path(texts) >= len(_parser("_PLAIN_TYPES"))


def test_keywords_as_bare_column_names_read_as_the_full_path() -> None:
    """A bare name the tokenizer reads as a keyword, or sqlglot's parser as the start of a constraint
    (`exclude`), is left to sqlglot; each gives what sqlglot gives."""
    keywords = [*_parser("TOKENIZER").KEYWORDS, *_parser("PARSER").SCHEMA_UNNAMED_CONSTRAINTS]
    words = sorted({word for keyword in keywords for word in keyword.split() if word.replace("_", "").isalpha()})
    texts = [f"CREATE TABLE t ({word.lower()} int NOT NULL DEFAULT 0, `b` int)" for word in words]
    _read_as_the_full_path(texts)


def test_the_key_reader_agrees_with_the_token_path_on_generated_keys() -> None:
    rng = random.Random(20240612)  # the first cases of the stream (INNOLINT_EXHAUSTIVE: all)
    constraints = (["", "", "", "CONSTRAINT", "CONSTRAINT `c`", "constraint c1", "CONSTRAINT `a b`", "CONSTRAINT `primary`"],
                   ["CONSTRAINT unique", "CONSTRAINT primary", "CONSTRAINT check", "CONSTRAINT /* c */ x",
                    "CONSTRAINT index", "CONSTRAINT key"])
    kinds = (["PRIMARY KEY", "primary\n key", "KEY", "INDEX", "index", "UNIQUE", "UNIQUE KEY", "unique index",
              "FULLTEXT", "FULLTEXT KEY", "fulltext index", "SPATIAL INDEX", "spatial", "UNIQUE KEY KEY"],
             ["CHECK", "PERIOD FOR p", "KEY IF NOT EXISTS", "FOREIGN KEY"])
    names = (["", "", "`k`", "k", "`a b`", "`a``b`", "`using`", "if", "key", "`select`", "`k,1`"],
             ["using", "%P%k", "k$", "-- c\n k", "1k"])
    usings = (["", "", "USING BTREE", "using hash"], ["USING RTREE", "USING"])
    part_forms = (["`a`", "a", "`a`(10)", "a (10)", "a( 10 )", "a DESC", "`b` asc", "`b`(5) desc", "`a,b`", "date",
                   "`key`", "a(010)"],
                  ["(lower(a))", "a(x)", "`a``b`", "a /* c */", "-- c\n a", "a 'x'", "1a", "a$"])
    suffixes = (["", "", "USING BTREE", "COMMENT 'x'", "COMMENT 'it''s'", "COMMENT 'x' USING HASH"],
                ["COMMENT 'a\\\\b'", "INVISIBLE", "KEY_BLOCK_SIZE=8", "/* c */", "VISIBLE", "WITH PARSER ngram"])
    texts = []
    for _ in range(sampling.size(500, 1500)):
        odd = rng.random() < 0.3
        parts = [_pick(rng, odd, *part_forms) for _ in range(rng.randint(1, 3))]
        key = _spaced(rng, _pick(rng, odd, *constraints), _pick(rng, odd, *kinds), _pick(rng, odd, *names),
                      _pick(rng, odd, *usings), "(" + rng.choice([",", " , ", ",\n"]).join(parts) + ")",
                      _pick(rng, odd, *suffixes))
        texts.append(f"CREATE TABLE t ({_pick(rng, odd, *GAPS)}`a` int NOT NULL,{_pick(rng, odd, *GAPS)}{key}\n) ENGINE=InnoDB")
    assert _read_as_the_full_path(texts) > len(texts) // 3


def test_the_foreign_key_reader_agrees_with_the_token_path_on_generated_keys() -> None:
    rng = random.Random(20240613)  # the first cases of the stream (INNOLINT_EXHAUSTIVE: all)
    constraints = (["", "CONSTRAINT", "CONSTRAINT `fk`", "constraint fk_1", "CONSTRAINT `a b`", "CONSTRAINT `foreign`"],
                   ["CONSTRAINT foreign", "CONSTRAINT check", "CONSTRAINT unique"])
    names = (["", "", "`i`", "i", "if"], ["IF NOT EXISTS i", "/* c */ i"])
    columns = (["(`a`)", "(a)", "(`a`, `b`)", "( a ,b )", "(`a`(10))", "(a DESC)"], ["()", "(`a``b`)", "((a))"])
    targets = (["`t`", "t", "`s`.`t`", "s.t", "`a b`", "user", "t1"], ["`s`. `t`", "s .t", "%P%t"])
    references = (["(`id`)", "(id)", "(`id`, `x`)", " (id)"], ["", "(`i``d`)", "(id) MATCH FULL"])
    actions = (["", "ON DELETE CASCADE", "on delete set null", "ON UPDATE CASCADE",
                "ON DELETE RESTRICT ON UPDATE NO ACTION", "ON DELETE SET DEFAULT"],
               ["MATCH FULL", "ON DELETE CASCADE /* c */", "ON DELETE"])
    texts = []
    for _ in range(sampling.size(300, 800)):
        odd = rng.random() < 0.3
        key = _spaced(rng, _pick(rng, odd, *constraints), "FOREIGN KEY", _pick(rng, odd, *names),
                      _pick(rng, odd, *columns), "REFERENCES",
                      _pick(rng, odd, *targets) + _pick(rng, odd, *references), _pick(rng, odd, *actions))
        texts.append(f"CREATE TABLE t (\n  `a` int NOT NULL,\n  {key},\n  KEY (a)\n) ENGINE=InnoDB")
    assert _read_as_the_full_path(texts) > len(texts) * 3 // 8


def test_the_options_reader_agrees_with_the_token_path_on_generated_options() -> None:
    rng = random.Random(20240614)  # the first cases of the stream (INNOLINT_EXHAUSTIVE: all)
    options = ["ENGINE=InnoDB", "engine = MyISAM", "ENGINE InnoDB", "ENGINE=`InnoDB`", "ENGINE='InnoDB'",
               "DEFAULT CHARSET=utf8mb4", "CHARACTER SET = utf8", "DEFAULT CHARACTER SET utf8", "CHARSET 'latin1'",
               "CHARSET=binary", "default charset=utf8", "COLLATE=utf8mb4_bin", "DEFAULT COLLATE utf8_bin",
               "AUTO_INCREMENT=5", "auto_increment = 100", "AUTO_INCREMENT=x", "COMMENT='x'", "COMMENT 'it''s'",
               "COMMENT='a\\'b'", "COMMENT='a\\\\b'", "COMMENT=''", "COMMENT='a' 'b'", "COMMENT='-- x'",
               "ROW_FORMAT=DYNAMIC", "ROW_FORMAT=DEFAULT", "row_format=compressed", "KEY_BLOCK_SIZE=8",
               "TABLESPACE `ts`", "TABLESPACE ts", "TABLESPACE ts STORAGE DISK", "TABLESPACE=ts", "CHECKSUM=1",
               "`PAGE_COMPRESSED`=1", "PAGE_COMPRESSED='ON'", "DATA DIRECTORY='/x'", "INDEX DIRECTORY = '/y'",
               "STATS_PERSISTENT=0", "PARTITION BY HASH(id) PARTITIONS 4", "/* c */", "-- c\n", "# c\n", ",",
               "UNION=(a,b)", "DEFAULT=5", "START TRANSACTION", "WITH SYSTEM VERSIONING", "COMPRESSION='zlib'",
               "ENGINE=InnoDB,", "ENGINE=InnoDB'x'", "ENGINE=", "MAX_ROWS=1e3", "AVG_ROW_LENGTH=1.5",
               "ENGINE=Inno$DB", "DEFAULT", "PRIMARY=1", "ORDER=by", "ENGINE=order", "comment=primary",
               "AS SELECT 1", "SELECT 1", "IGNORE SELECT 1", "ENGINE=InnoDB SELECT 1"]
    texts = []
    for _ in range(sampling.size(500, 1500)):
        tail = rng.choice(["", " ", "\n", ","]).join(rng.choice(options) for _ in range(rng.randint(0, 5)))
        texts.append(f"CREATE TABLE t (\n  `a` int NOT NULL,\n  PRIMARY KEY (`a`)\n){rng.choice(SPACES)}{tail}")
    assert _read_as_the_full_path(texts) > len(texts) // 5


def test_the_statement_head_reads_as_the_token_path_reads_it() -> None:
    rng = random.Random(20240615)
    heads = ["CREATE TABLE", "create table", "CREATE\nTABLE", "CREATE TABLE IF NOT EXISTS", "create table if not exists",
             "CREATE TEMPORARY TABLE", "CREATE OR REPLACE TABLE", "CREATE TABLE IF EXISTS"]
    names = ["t", "`t`", "`s`.`t`", "s.t", "`a b`", "`a``b`", "if", "like", "select", "%P%t", "t$", "`s`.t"]
    bodies = ["(`a` int)", "(a int, KEY (a))", "( `a` int )", "(LIKE x)", "(SELECT 1)", "()", "(`a` int) LIKE x",
              "LIKE x", "AS SELECT 1", "(`a` int) SELECT 1"]
    texts = [_spaced(rng, rng.choice(heads), rng.choice(names), rng.choice(bodies)) for _ in range(400)]
    texts += [f"{head} {name}(`a` int)" for head in heads for name in names]
    assert _read_as_the_full_path(texts) > 50


def test_the_shortcuts_read_plain_dumps_whole() -> None:
    """mysqldump's own forms and the common hand-written ones take the shortcuts (they are what makes
    parsing fast; the tests above show they agree with the full path)."""
    plain = [
        table_text(), table_text(7, "ts"),
        "CREATE TABLE IF NOT EXISTS `s`.`t` (\n  `id` bigint unsigned NOT NULL AUTO_INCREMENT,\n"
        "  `uid` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,\n"
        "  `state` enum('new','done') NOT NULL DEFAULT 'new' COMMENT 'it''s',\n"
        "  `flag` bit(1) NOT NULL DEFAULT b'0',\n  `doc` json DEFAULT NULL,\n"
        "  `at` timestamp(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),\n"
        "  PRIMARY KEY (`id`) USING BTREE,\n  UNIQUE KEY `uid` (`uid`),\n  KEY `ix` (`state`,`doc`(10) DESC),\n"
        "  CONSTRAINT `fk` FOREIGN KEY (`uid`) REFERENCES `o`.`u` (`uid`) ON DELETE CASCADE ON UPDATE NO ACTION\n"
        ") ENGINE=InnoDB AUTO_INCREMENT=42 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci COMMENT='x'",
        "create table orders (\n  id int(11) not null auto_increment primary key,\n  total decimal(10,2) default '0.00' not null,\n"
        "  index (total)\n) engine = innodb default character set = utf8",
    ]
    for text in plain:
        op = _parser("plain_create_table")(text)
        assert op is not None, text
        assert op == _full_path(text)


# --- end to end ----------------------------------------------------------------------------------


def make_tenants(tmp_path: Path, n: int, *extra: str) -> Path:
    out = tmp_path / f"tenants{'_'.join(extra)}.sql"
    subprocess.run([sys.executable, str(need("corpus", "_scale", "make_tenants.py")), "-n", str(n), "-o", str(out), *extra], check=True,
                   capture_output=True)
    return out


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
    assert {(t.schema, t.name): (t.auto_increment, t.options.tablespace) for t in tables} == written
    assert len({t.body.definition_id for t in tables}) <= 2 * 12
    counters = {t.auto_increment for t in tables}
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
