"""Fuzzing targets shared by tests/test_fuzz.py (a small, deterministic budget in CI),
scripts/fuzz.py (the long run) and scripts/fuzz_atheris.py (coverage-guided, optional).

A *target* is a function of one generated input that raises AssertionError (or anything else)
when a property fails. The properties:

- the splitter never raises; every statement lies inside the input (1 <= line <= end_line <= the
  input's last line, column >= 1) and does not depend on where chunk boundaries fall; its fast
  lane for statements the engine skips (INSERT, SET ...) counts what it does not build, loses none;
- `parse_statement` raises nothing but ParseFailure, whose line lies inside its statement;
- the engine's parse cache answers what a fresh parse gives (tenant dumps' copies of one table
  with other AUTO_INCREMENT counters and tablespaces included);
- every statement is understood (an operation), skipped on purpose (`ops.Skipped`), or a
  `parse-error` diagnostic at a file:line inside the input; end to end, every statement read is
  counted and each one not understood is a diagnostic;
- the model builder (`Replayer.apply`) and every registered check never raise over what fuzzed
  SQL builds, in any order and with any workload evidence, and findings point inside the input;
- every reporter (text, json, sarif, github, the Markdown summary, Checks API annotations) renders
  any findings (arbitrary unicode, lone surrogates from file names, huge values) to text that
  encodes as UTF-8; json and sarif render valid JSON, the SARIF valid against its schema.

Inputs: random bytes (decoded as `linter.input.source` decodes files), SQL-like token soup, a grammar of
DDL over a few names (so statements refer to each other), and real corpus statements and file
slices mutated (truncated; quotes, comments, DELIMITER lines and executable comments inserted or
removed; huge identifiers; deep parentheses and nested calls; NUL bytes; invalid UTF-8; CRLF).
"""

from __future__ import annotations

import codecs
import inspect
import json
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache

from hypothesis import strategies as st

from linter.parse import ops
from linter.rules.checkapi import CheckContext, TableStats
from linter.engine import Engine
from linter.rules.findings import Diagnostic, Finding, Report, RunStats
from linter.report.contract import read_report
from linter.parse.elements import Location
from linter.schema.refused import CannotFollow, Refusal
from linter.parse.tokens import ParseFailure
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from linter.input.source import LATIN1_FALLBACK
from linter.input.statement import Statement
from linter.input.split import split_stream
from linter.schema.target import TARGETS, Target

from tests.shared import CORPUS, SHARED

PATH = "fuzz/input.sql"

# --- inputs ------------------------------------------------------------------------------------

#: used when the shared corpus is not there, so the targets still have real-looking DDL
_FALLBACK_STATEMENTS = (
    "CREATE TABLE `t` (\n  `id` int unsigned NOT NULL AUTO_INCREMENT,\n  `name` varchar(255) DEFAULT NULL,\n"
    "  PRIMARY KEY (`id`),\n  UNIQUE KEY `u` (`name`(10))\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
    "CREATE TABLE link (a int NOT NULL, b int NOT NULL, KEY (b), CONSTRAINT fk FOREIGN KEY (a) REFERENCES t (id))",
    "ALTER TABLE t ADD COLUMN c TEXT COMPRESSED=zlib AFTER name, DROP PRIMARY KEY, ADD UNIQUE KEY (c(20))",
    "CREATE TABLE p (id BINARY(16) NOT NULL PRIMARY KEY, g POINT NOT NULL SRID 4326) TABLESPACE ts "
    "PARTITION BY KEY (id) PARTITIONS 4",
    "/*!50001 CREATE TABLE v (x int) ENGINE=MyISAM */",
    "CREATE TABLESPACE ts ADD DATAFILE 'ts.ibd' ENGINE=InnoDB",
    "RENAME TABLE t TO t2, link TO link2",
    "CREATE UNIQUE INDEX ux ON t (name)",
    "INSERT INTO t VALUES (1, 'it''s; \\' here')",
    "CREATE PROCEDURE p() BEGIN SELECT 1; END",
)

_SQL_SUFFIXES = (".sql", ".txt", ".mysql", ".ddl", ".in", ".dump")


@lru_cache(maxsize=1)
def corpus_files() -> tuple[str, ...]:
    """The corpus files' text (latin-1 fallback, as innolint reads them), or a small stand-in."""
    texts: list[str] = []
    if CORPUS.is_dir():
        for path in sorted(CORPUS.rglob("*")):
            if path.is_file() and path.name.lower().endswith(_SQL_SUFFIXES):
                texts.append(path.read_bytes().decode("utf-8", LATIN1_FALLBACK))
    return tuple(texts) or (";\n".join(_FALLBACK_STATEMENTS) + ";\n",)


@lru_cache(maxsize=1)
def corpus_statements() -> tuple[str, ...]:
    """Every statement of the corpus up to 6,000 characters (the longer ones as their first 6,000)."""
    found = {s.text[:6000] for text in corpus_files() for s in split_stream([text], "corpus.sql")}
    return tuple(sorted(found)) or _FALLBACK_STATEMENTS


WORDS = (
    "CREATE ALTER DROP RENAME TABLE TABLES TEMPORARY IF NOT EXISTS LIKE AS SELECT FROM WHERE INDEX KEY "
    "UNIQUE PRIMARY FULLTEXT SPATIAL FOREIGN REFERENCES CONSTRAINT CHECK ON DELETE CASCADE ADD COLUMN "
    "MODIFY CHANGE AFTER FIRST TO DEFAULT NULL AUTO_INCREMENT UNSIGNED ZEROFILL SIGNED BINARY NATIONAL "
    "CHARACTER SET CHARSET COLLATE COMMENT ENGINE InnoDB MyISAM ROW_FORMAT COMPRESSED DYNAMIC "
    "KEY_BLOCK_SIZE COMPRESSION PAGE_COMPRESSED TABLESPACE STORAGE DISK DATA DIRECTORY PARTITION BY "
    "RANGE LIST HASH LINEAR COLUMNS PARTITIONS VALUES LESS THAN MAXVALUE GENERATED ALWAYS VIRTUAL "
    "STORED PERSISTENT INVISIBLE VISIBLE SRID COLUMN_FORMAT WITH WITHOUT SYSTEM VERSIONING "
    "COMPRESSION_DICTIONARY DATABASE SCHEMA USE VIEW PROCEDURE FUNCTION TRIGGER EVENT BEGIN END "
    "DECLARE DELIMITER INSERT INTO SET LOCK UNLOCK GRANT USING BTREE ASC DESC ALGORITHM DEFINER "
    "CURRENT_USER SQL SECURITY INT BIGINT TINYINT VARCHAR CHAR TEXT LONGTEXT BLOB JSON UUID DECIMAL "
    "FLOAT DOUBLE DATETIME TIMESTAMP POINT GEOMETRY INET6 SERIAL LONG ENUM CURRENT_TIMESTAMP "
    "UNDO DATAFILE ONLINE IGNORE WAIT NOWAIT CONVERT ENGINE_ATTRIBUTE t t2 id a b c `t` `a b` "
    "@ZM_MYSQL_ENGINE@ %TABLE_PREFIX% {$db_prefix} /*_*/"
).split()
PUNCTUATION = (
    "(", ")", ",", ";", ".", "=", "'", '"', "`", "\\", "@", "%", "*", "/", "-", "+", "#", "--", "-- ",
    "/*", "*/", "/*!", "/*!50100 ", "/*!50001 ", "/*M!100301 ", "*/;", ";;", "//", "$$", "'x'", '"y"',
    "`z`", "1", "0", "36", "-1", "18446744073709551616", "0x1F", "b'01'", "_utf8mb4'x'", "N'x'",
    "\n", "\r\n", "\t", " ", "\x00", "\ufeff", "é", "€", "\u2028", "\U0001f600",
)
#: whole lines that change how the rest of the text is read
CONTROL_LINES = (
    "\nDELIMITER ;;\n", "\nDELIMITER //\n", "\ndelimiter $$\n", "\nDELIMITER ;\n", "\nDELIMITER\n",
    "\nDELIMITER DELIMITER\n", "\n-- +goose Up\n", "\n-- +goose Down\n", "\n-- +goose StatementBegin\n",
    "\n-- +goose StatementEnd\n", "\n-- migrate:up\n", "\n-- migrate:down\n", "\n-- innolint: ignore\n",
    "\n-- innolint: ignore-file[no-primary-key] reason\n", "\n-- innolint: insert-heavy\n", "\nsource x.sql\n",
)
#: what the mutations insert
INSERTS = PUNCTUATION + CONTROL_LINES + (
    "/*!50001 CREATE TABLE", "*/", "/*M!100301 COMPRESSED */", "/*!40101 SET x=1 */;", "-- comment\n",
    "# comment\n", "/* comment */", "'unterminated", '"unterminated', "`unterminated", "/* unterminated",
    " PRIMARY KEY (id)", " DROP PRIMARY KEY", " ENGINE=MyISAM", " ENGINE=InnoDB", " AS SELECT 1",
    "-- innolint: ignore[\n", "-- innolint: ignore[no-primary-key,,] why\n", "/* innolint: insert-heavy */",
    "-- innolint:\n", "-- innolint: bogus-verb[x] y\n", "# innolint: ignore-file\n", "-- innolint: time-ordered\n",
)


def token_soup() -> st.SearchStrategy[str]:
    """Keywords, names, punctuation, quotes, comments and DELIMITER lines in any order."""
    piece = st.one_of(st.sampled_from(WORDS), st.sampled_from(PUNCTUATION), st.sampled_from(CONTROL_LINES))
    space = st.sampled_from(("", " ", " ", "\n", "  "))
    return st.lists(st.tuples(piece, space), max_size=80).map(lambda parts: "".join(p + s for p, s in parts))


def random_text(data: bytes) -> str:
    """Bytes decoded as `linter.input.source` decodes a file: UTF-8 (BOM dropped), latin-1 for what is not."""
    return codecs.decode(data, "utf-8-sig", LATIN1_FALLBACK) if data[:3] == codecs.BOM_UTF8 else data.decode(
        "utf-8", LATIN1_FALLBACK
    )


@dataclass(frozen=True)
class Mutation:
    """One edit: what it does at `position` (a fraction of the text's length) and its argument."""

    kind: str
    position: float
    argument: int

    def apply(self, text: str) -> str:
        at = int(self.position * len(text))
        arg = self.argument
        if self.kind == "truncate":
            return text[:at]
        if self.kind == "insert":
            return text[:at] + INSERTS[arg % len(INSERTS)] + text[at:]
        if self.kind == "delete":
            return text[:at] + text[at + 1 + arg % 40 :]
        if self.kind == "remove-special":  # drop the next quote, comment marker or delimiter
            for i in range(at, len(text)):
                for special in ("/*!", "*/", "/*", "--", "'", '"', "`", ";", "DELIMITER", "("):
                    if text.startswith(special, i):
                        return text[:i] + text[i + len(special) :]
            return text
        if self.kind == "huge-identifier":
            name = "x" * (1000 + arg * 100)
            return text[:at] + (f"`{name}`" if arg % 2 else name) + text[at:]
        if self.kind == "deep-parens":
            depth = 50 + arg * 40
            return text[:at] + "(" * depth + "1" + ")" * (depth - arg % 2) + text[at:]
        if self.kind == "deep-calls":  # sqlglot parses these, then recurses generating their SQL
            depth = 50 + arg * 10
            return text[:at] + "CONCAT(" * depth + "1" + ")" * depth + text[at:]
        if self.kind == "nul":
            return text[:at] + "\x00" * (1 + arg % 3) + text[at:]
        if self.kind == "invalid-utf8":  # bytes no UTF-8 decoder takes, read as innolint reads them
            raw = bytes([0x80 + arg % 128, 0xFF, 0xC3])
            return text[:at] + random_text(raw) + text[at:]
        if self.kind == "crlf":
            return text.replace("\n", "\r\n")
        if self.kind == "duplicate":
            return text[:at] + text[: 1 + arg * 10] + text[at:]
        raise AssertionError(self.kind)


MUTATION_KINDS = (
    "truncate", "insert", "insert", "insert", "delete", "remove-special", "remove-special", "huge-identifier",
    "deep-parens", "deep-calls", "nul", "invalid-utf8", "crlf", "duplicate",
)
mutations = st.builds(
    Mutation, st.sampled_from(MUTATION_KINDS), st.floats(0, 1), st.integers(0, 60)
)


def mutated(base: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    def apply(args: tuple[str, list[Mutation]]) -> str:
        text, edits = args
        for edit in edits:
            text = edit.apply(text)
        return text

    return st.tuples(base, st.lists(mutations, max_size=6)).map(apply)


@st.composite
def file_slice(draw: st.DrawFn) -> str:
    """Up to 20,000 characters of a corpus file, from a random place."""
    text = draw(st.sampled_from(corpus_files()))
    start = draw(st.integers(0, max(0, len(text) - 1)))
    return text[start : start + draw(st.integers(0, 20_000))]


# A grammar of DDL over a few names, so statements refer to each other: keys on columns that
# exist or not, ALTERs of tables created earlier or never, renames onto existing names, LIKE of
# itself, views replacing tables... the model builder and the checks see everything they can.
TABLE_NAMES = ("t", "T", "t2", "`t 3`", "db.t", "`db`.`t2`", "other.t", "link", "`é`", "`select`")
COLUMN_NAMES = ("id", "ID", "a", "b", "`c d`", "uuid", "t2_id", "link_id", "`é`")
TYPES = (
    "INT", "int(11) unsigned", "BIGINT UNSIGNED", "TINYINT(1)", "SERIAL", "DECIMAL(10,2) UNSIGNED", "FLOAT",
    "CHAR(36)", "VARCHAR(255)", "VARCHAR(36) CHARACTER SET ascii", "BINARY(16)", "VARBINARY(16)", "UUID",
    "TEXT", "LONGTEXT", "MEDIUMBLOB", "JSON", "ENUM('a','b')", "SET('x')", "DATETIME(6)", "TIMESTAMP",
    "POINT", "GEOMETRY", "INET6", "NATIONAL VARCHAR(10)", "LONG VARBINARY", "BIT(1)", "YEAR", "NONSENSE",
)
LITERALS = ("1", "0", "-1", "NULL", "'x'", "''", "CURRENT_TIMESTAMP", "a", "b", "0x0F", "1.5e3", "TRUE")
FUNCTIONS = ("UUID", "UUID_TO_BIN", "CONCAT", "COALESCE", "JSON_ARRAY", "NOW", "LOWER", "IF", "MD5")


def _expressions() -> st.SearchStrategy[str]:
    return st.recursive(
        st.sampled_from(LITERALS),
        lambda inner: st.one_of(
            inner.map(lambda x: f"({x})"),
            st.tuples(inner, st.sampled_from(("+", "-", "*", "AND", "OR", "=", "<>", "||")), inner).map(" ".join),
            st.tuples(st.sampled_from(FUNCTIONS), st.lists(inner, max_size=3)).map(lambda f: f"{f[0]}({', '.join(f[1])})"),
            inner.map(lambda x: f"NOT {x}"),
            st.tuples(inner, inner).map(lambda x: f"CASE WHEN {x[0]} THEN {x[1]} END"),
        ),
        max_leaves=12,
    )


expressions = _expressions()
column_attributes = st.one_of(
    st.sampled_from((
        "NOT NULL", "NULL", "AUTO_INCREMENT", "UNIQUE", "UNIQUE KEY", "PRIMARY KEY", "KEY", "COMMENT 'c'",
        "INVISIBLE", "VISIBLE", "COMPRESSED", "COMPRESSED=zlib", "COLUMN_FORMAT COMPRESSED",
        "COLUMN_FORMAT COMPRESSED WITH COMPRESSION_DICTIONARY d", "SRID 4326", "COLLATE utf8mb4_bin",
        "CHARACTER SET latin1", "ZEROFILL", "UNSIGNED", "SIGNED", "BINARY", "ON UPDATE CURRENT_TIMESTAMP",
        "STORAGE DISK", "ENGINE_ATTRIBUTE='{}'", "REFERENCES t (id)", "REFERENCES db.t2 (a) ON DELETE CASCADE",
        "WITH SYSTEM VERSIONING", "STORED", "VIRTUAL", "PERSISTENT", "DEFAULT",
    )),
    expressions.map(lambda e: f"DEFAULT ({e})"),
    st.sampled_from(LITERALS).map(lambda e: f"DEFAULT {e}"),
    st.tuples(expressions, st.sampled_from(("", " STORED", " VIRTUAL", " PERSISTENT"))).map(
        lambda g: f"GENERATED ALWAYS AS ({g[0]}){g[1]}"),
    expressions.map(lambda e: f"AS ({e})"),
    expressions.map(lambda e: f"CHECK ({e})"),
)
column_definitions = st.tuples(
    st.sampled_from(COLUMN_NAMES), st.sampled_from(TYPES), st.lists(column_attributes, max_size=4)
).map(lambda c: " ".join([c[0], c[1], *c[2]]))
key_parts = st.lists(
    st.tuples(st.sampled_from(COLUMN_NAMES), st.sampled_from(("", "(10)", "(0)", " DESC", "(255) ASC"))).map("".join),
    min_size=1, max_size=3,
).map(lambda parts: "(" + ", ".join(parts) + ")")
key_definitions = st.one_of(
    st.tuples(
        st.sampled_from(("PRIMARY KEY", "UNIQUE KEY", "UNIQUE", "KEY", "INDEX", "FULLTEXT KEY", "SPATIAL INDEX",
                         "CONSTRAINT pk PRIMARY KEY", "CONSTRAINT `u` UNIQUE", "UNIQUE INDEX IF NOT EXISTS")),
        st.sampled_from(("", " k", " `k 2`", " k USING BTREE", " USING HASH")),
        key_parts,
        st.sampled_from(("", " INVISIBLE", " COMMENT 'x'", " KEY_BLOCK_SIZE=8")),
    ).map("".join),
    st.tuples(st.sampled_from(("FOREIGN KEY", "CONSTRAINT fk FOREIGN KEY", "FOREIGN KEY fk_name")), key_parts,
              st.sampled_from(TABLE_NAMES), key_parts).map(lambda f: f"{f[0]} {f[1]} REFERENCES {f[2]} {f[3]}"),
    expressions.map(lambda e: f"CONSTRAINT c CHECK ({e})"),
    key_parts.map(lambda parts: f"KEY (({parts[1:-1]}))"),  # a functional key part
)
table_options = st.lists(
    st.sampled_from((
        "ENGINE=InnoDB", "ENGINE = MyISAM", "ENGINE=MEMORY", "TYPE=InnoDB", "ROW_FORMAT=COMPRESSED",
        "KEY_BLOCK_SIZE=8", "KEY_BLOCK_SIZE=x", "COMPRESSION='zlib'", "PAGE_COMPRESSED=1", "TABLESPACE ts",
        "TABLESPACE=`t_1` STORAGE DISK", "DEFAULT CHARSET=utf8mb4", "COLLATE=utf8mb4_bin", "COMMENT='x'",
        "AUTO_INCREMENT=5", "CHECKSUM=1", "DATA DIRECTORY='/d'", "UNION=(a,b)", "WITH SYSTEM VERSIONING",
        "PARTITION BY HASH (id) PARTITIONS 4", "PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN MAXVALUE)",
        "AS SELECT 1", "SELECT * FROM t", ",", "=",
    )),
    max_size=4,
).map(" ".join)


@st.composite
def ddl_statement(draw: st.DrawFn) -> str:
    table = draw(st.sampled_from(TABLE_NAMES))
    kind = draw(st.sampled_from(("create", "create", "alter", "alter", "index", "drop", "rename", "other")))
    if kind == "create":
        head = draw(st.sampled_from(("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", "CREATE TEMPORARY TABLE",
                                     "/*!50001 CREATE TABLE", "CREATE OR REPLACE TABLE")))
        if draw(st.integers(0, 9)) == 0:
            return f"{head} {table} LIKE {draw(st.sampled_from(TABLE_NAMES))}"
        elements = draw(st.lists(column_definitions, max_size=5)) + draw(st.lists(key_definitions, max_size=3))
        tail = " */" if head.startswith("/*!") else ""
        return f"{head} {table} ({', '.join(elements)}) {draw(table_options)}{tail}"
    if kind == "alter":
        actions = st.one_of(
            column_definitions.map(lambda c: "ADD COLUMN " + c),
            column_definitions.map(lambda c: "ADD " + c + " AFTER a"),
            column_definitions.map(lambda c: "MODIFY " + c + " FIRST"),
            st.tuples(st.sampled_from(COLUMN_NAMES), column_definitions).map(lambda c: f"CHANGE {c[0]} {c[1]}"),
            key_definitions.map(lambda k: "ADD " + k),
            st.sampled_from(COLUMN_NAMES).map(lambda c: "DROP COLUMN " + c),
            st.sampled_from(COLUMN_NAMES).map(lambda c: f"RENAME COLUMN {c} TO z"),
            st.sampled_from(COLUMN_NAMES).map(lambda c: f"ALTER COLUMN {c} SET DEFAULT 1"),
            st.sampled_from(COLUMN_NAMES).map(lambda c: f"ALTER {c} DROP DEFAULT"),
            st.sampled_from(TABLE_NAMES).map(lambda t: "RENAME TO " + t),
            st.sampled_from((
                "DROP PRIMARY KEY", "DROP INDEX k", "DROP KEY `k 2`", "DROP FOREIGN KEY fk", "DROP CONSTRAINT u",
                "DROP CONSTRAINT c", "RENAME INDEX k TO k3", "ENGINE=MyISAM", "ENGINE=InnoDB", "TABLESPACE ts",
                "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4", "CONVERT TO CHARACTER SET utf8mb4", "FORCE",
                "ALGORITHM=INPLACE", "LOCK=NONE", "ADD PARTITION (PARTITION p1 VALUES LESS THAN (10))",
                "PARTITION BY KEY (id) PARTITIONS 2", "REMOVE PARTITIONING", "DROP CHECK c", "ORDER BY a",
            )),
        )
        return f"ALTER TABLE {table} " + ", ".join(draw(st.lists(actions, min_size=1, max_size=4)))
    if kind == "index":
        head = draw(st.sampled_from(("CREATE INDEX", "CREATE UNIQUE INDEX", "CREATE FULLTEXT INDEX", "DROP INDEX")))
        if head == "DROP INDEX":
            return f"DROP INDEX {draw(st.sampled_from(('k', 'u', 'PRIMARY', '`k 2`')))} ON {table}"
        return f"{head} {draw(st.sampled_from(('k', 'u', 'PRIMARY')))} ON {table} {draw(key_parts)}"
    if kind == "drop":
        return f"DROP TABLE IF EXISTS {table}, {draw(st.sampled_from(TABLE_NAMES))}"
    if kind == "rename":
        return f"RENAME TABLE {table} TO {draw(st.sampled_from(TABLE_NAMES))}"
    return draw(st.sampled_from((
        "USE db", "USE other", "CREATE DATABASE db", "DROP DATABASE other", "CREATE TABLESPACE ts ADD DATAFILE 'ts.ibd'",
        "DROP TABLESPACE ts", "CREATE COMPRESSION_DICTIONARY d ('abc')", f"CREATE VIEW {table} AS SELECT 1",
        f"CREATE ALGORITHM=UNDEFINED DEFINER=`u`@`%` SQL SECURITY DEFINER VIEW {table} AS SELECT 1",
        f"INSERT INTO {table} VALUES (1)", "SET NAMES utf8mb4", "CREATE UNDO TABLESPACE u ADD DATAFILE 'u.ibu'",
    )))


ddl_scripts = st.lists(ddl_statement(), min_size=1, max_size=12).map(lambda stmts: ";\n".join(stmts) + ";\n")


def sql_inputs() -> st.SearchStrategy[str]:
    """Every kind of input: token soup, random bytes, mutated corpus statements and file slices."""
    return st.one_of(
        token_soup(),
        st.binary(max_size=800).map(random_text),
        mutated(st.sampled_from(corpus_statements())),
        mutated(st.sampled_from(corpus_statements()).flatmap(
            lambda first: st.sampled_from(corpus_statements()).map(lambda second: f"{first};\n{second};\n"))),
        mutated(file_slice()),
        mutated(token_soup()),
        ddl_scripts,
        mutated(ddl_scripts),
    )


chunk_sizes = st.sampled_from((None, 1, 2, 3, 7, 13, 64, 1000, 4096))


def chunked(text: str, size: int | None) -> list[str]:
    if size is None:
        return [text]
    return [text[i : i + size] for i in range(0, len(text), size)]


def last_line(text: str) -> int:
    """The input's last line number (lines are counted on `\\n`)."""
    return text.count("\n") + 1


# --- targets: splitter, parser, model, checks --------------------------------------------------


def split(text: str, chunk: int | None = None, markers: bool = False) -> list[Statement]:
    return list(split_stream(chunked(text, chunk), PATH, migration_format=_format(markers)))


def _format(markers: bool) -> str | None:
    """A migration format whose annotations the splitter obeys (goose), or a plain file."""
    return "goose" if markers else None


def check_split(text: str, chunk: int | None, markers: bool) -> list[Statement]:
    """The splitter never raises, places every statement inside the input, and gives the same
    statements whatever the chunking."""
    whole = split(text, None, markers)
    end = last_line(text)
    for s in whole:
        assert s.text and s.text == s.text.strip(" \t\n\r\f\v"), s
        assert 1 <= s.line <= s.end_line <= end, (s.line, s.end_line, end)
        assert s.column >= 1
        assert s.path == PATH
    if chunk is not None:
        assert split(text, chunk, markers) == whole, f"chunks of {chunk} split differently"
    if _HAS_SKIP_LANES:
        check_skip_lanes(text, chunk, markers, whole)
    return whole


_HAS_SKIP_LANES = "skip_words" in inspect.signature(split_stream).parameters
_FIRST_WORD = re.compile(r"[A-Za-z_]+")


def check_skip_lanes(text: str, chunk: int | None, markers: bool, whole: list[Statement]) -> None:
    """With `skip_words` (the engine's fast lane for INSERT, SET ...) the splitter may count a
    statement instead of building it, but loses none: what it yields is what a full split gives
    minus statements that start with a skip word and do not hold `unless`, and it counts those."""
    from linter.parse.statement import SKIP_FIRST_WORDS

    stream = split_stream(chunked(text, chunk), PATH, migration_format=_format(markers), skip_words=SKIP_FIRST_WORDS,
                          unless="innolint:")
    built = list(stream)
    assert len(built) + stream.skipped == len(whole), (len(built), stream.skipped, len(whole))
    remaining = iter(whole)
    for statement in built:  # in order, each one of the full split's
        for candidate in remaining:
            if candidate == statement:
                break
            word = _FIRST_WORD.match(candidate.text)
            assert word is not None and word.group().upper() in SKIP_FIRST_WORDS, candidate
            assert "innolint:" not in candidate.text and not any("innolint:" in c for c in candidate.comments)
        else:
            raise AssertionError(f"the fast lane built a statement the full split does not have: {statement}")


def check_parse(text: str) -> ops.Operation | ParseFailure:
    """parse_statement returns an operation or raises ParseFailure, with a line inside the statement."""
    try:
        op = parse_statement(text)
    except ParseFailure as failure:
        assert isinstance(failure.reason, str) and failure.reason
        assert 0 <= failure.line_offset <= text.count("\n"), (failure.line_offset, text.count("\n"))
        return failure
    assert isinstance(op, OPERATION_TYPES), type(op)
    return op


OPERATION_TYPES = (
    ops.CreateTable, ops.AlterTable, ops.DropTable, ops.RenameTable, ops.CreateIndex, ops.DropIndexStatement,
    ops.CreateTablespace, ops.DropTablespace, ops.CreateCompressionDictionary, ops.SchemaStatement,
    ops.CreateView, ops.Skipped, ops.Dynamic, ops.CreateProcedure, ops.DropProcedure,
)


def contexts() -> st.SearchStrategy[CheckContext]:
    """Check contexts: any target, tenant patterns, insert-heavy globs, per-rule options."""
    options = st.fixed_dictionaries(
        {},
        optional={
            "no-primary-key": st.fixed_dictionaries({"severity": st.sampled_from(("warning", "error"))}),
        },
    )
    return st.builds(
        CheckContext,
        target=st.sampled_from(TARGETS).map(Target.parse),
        insert_heavy=st.lists(st.sampled_from(("*", "t", "*.t*", "log*", "")), max_size=2).map(tuple),
        tenant_schema_pattern=st.sampled_from((None, r"^t_\d+$", r"tenant", r".*", r"^$")),
        options=options,
    )


_STAT_NUMBERS = st.one_of(st.none(), st.sampled_from((0, 1, 10_000, 2**63 - 1)), st.integers(0, 10**7))
table_stats = st.builds(
    TableStats,
    **{f.name: _STAT_NUMBERS for f in fields(TableStats)},
)


def lint_text(
    text: str, context: CheckContext, chunk: int | None = None, markers: bool = False,
    stats: TableStats | None = None,
) -> tuple[list[Statement], list[Diagnostic], list[Finding]]:
    """Split, parse (fresh and through the engine's cache), replay and check `text`, asserting the
    properties on the way. Only public interfaces: the engine's own statement loop is covered end to
    end by `check_lint_file`."""
    statements = check_split(text, chunk, markers)
    engine = Engine(context)
    replayer = Replayer()
    diagnostics: list[Diagnostic] = []
    end = last_line(text)
    for statement in statements:
        op = check_parse(statement.text)
        assert_same_parse(engine.parse(statement.text), op, statement.text)
        if isinstance(op, ParseFailure):
            # not understood: a parse-error at a line of the statement
            line = statement.line + op.line_offset
            assert statement.line <= line <= statement.end_line <= end, (line, statement)
            diagnostics.append(Diagnostic(rule="parse-error", path=PATH, line=line, message=op.reason))
            continue
        where = Location(PATH, statement.line, statement.column, statement.end_line)
        problem = replayer.apply(op, where, executable=statement.executable)
        assert problem is None or isinstance(problem, (Refusal, CannotFollow))
        if problem is not None:
            diagnostics.append(Diagnostic(rule="replay-error" if isinstance(problem, CannotFollow) else "refused-ddl",
                                          path=PATH, line=statement.line, message=problem.message))
    if stats is not None:  # the same evidence for every table: every stats path of every check runs
        for table in replayer.model.tables():
            context.stats[table.name.lower()] = stats
    findings = engine.run_checks(replayer.model)
    for finding in findings:
        assert isinstance(finding, Finding)
        assert finding.path == PATH and 1 <= finding.line <= end, (finding, end)
    return statements, diagnostics, findings


def assert_same_parse(cached: object, fresh: object, text: str) -> None:
    """What the engine's parse cache answers is what parsing the statement gives."""
    if isinstance(fresh, ParseFailure):
        assert isinstance(cached, ParseFailure), (cached, text[:300])
        assert (cached.reason, cached.line_offset) == (fresh.reason, fresh.line_offset), text[:300]
    else:
        assert cached == fresh, f"the parse cache answered differently for {text[:300]!r}"


def _variant(args: tuple[str, int, int, str]) -> str:
    """A copy of a CREATE TABLE as a dump prints it for another table: its AUTO_INCREMENT counter,
    tablespace or spacing changed, or the words put where cutting them out would change the meaning."""
    text, n, where, how = args
    close = text.rfind(")")
    cut = close + 1 if close > 0 else len(text)
    piece = {
        "counter": f" AUTO_INCREMENT={n}",
        "counter-lower": f" auto_increment = {n}",
        "tablespace": f" /*!50100 TABLESPACE `t_{n}` */",
        "tablespace-bare": f" TABLESPACE `t_{n}`",
        "both": f" AUTO_INCREMENT={n} /*!50100 TABLESPACE `t_{n}` */",
        "in-comment": f" COMMENT='AUTO_INCREMENT={n} TABLESPACE `t_{n}`'",
        "in-default": "",
        "twice": f" AUTO_INCREMENT={n} AUTO_INCREMENT={n + 1}",
        "none": "",
    }[how]
    if how == "in-default":
        opened = text.find("(")
        if opened < 0:
            return text
        return text[: opened + 1] + f"c{n} varchar(9) DEFAULT 'AUTO_INCREMENT={n}', " + text[opened + 1 :]
    at = cut if where == 0 else min(len(text), cut + where)
    return text[:at] + piece + text[at:]


def cache_sequences() -> st.SearchStrategy[list[str]]:
    """The same CREATE TABLE again and again as tenant dumps print it, with other statements between."""
    creates = st.one_of(
        st.sampled_from([s for s in corpus_statements() if s[:12].upper() == "CREATE TABLE"] or list(_FALLBACK_STATEMENTS[:1])),
        ddl_statement().filter(lambda s: s.startswith("CREATE TABLE")),
    )
    hows = st.sampled_from(("counter", "counter-lower", "tablespace", "tablespace-bare", "both", "in-comment",
                            "in-default", "twice", "none"))
    return creates.flatmap(lambda base: st.lists(
        st.one_of(
            st.tuples(st.just(base), st.integers(0, 10**12), st.integers(0, 40), hows).map(_variant),
            ddl_statement(),
        ),
        min_size=2, max_size=12,
    ))


def check_cache(texts: list[str]) -> None:
    engine = Engine(CheckContext())
    for text in texts:
        assert_same_parse(engine.parse(text), check_parse(text), text)


def check_replay_any_order(texts: list[str]) -> None:
    """Operations applied in any order, to a model that may hold anything: Replayer.apply never raises."""
    replayer = Replayer()
    for n, text in enumerate(texts):
        try:
            op = parse_statement(text)
        except ParseFailure:
            continue
        problem = replayer.apply(op, Location(PATH, n + 1), annotations=frozenset({"insert-heavy"}),
                                 executable="50001" if n % 3 == 0 else None)
        assert problem is None or isinstance(problem, (Refusal, CannotFollow))


# --- targets: reporters ------------------------------------------------------------------------

#: any unicode, lone surrogates included (file names that are not UTF-8 reach reports as those)
any_text = st.text(st.characters(exclude_categories=()), max_size=60)
tricky_text = st.one_of(
    any_text,
    st.sampled_from((
        "<script>alert(1)</script>", "a|b", "x`y", "```", "::error::x", "%0A", "\r\n::warning::injected",
        "@octocat", "[x](javascript:alert(1))", "\x00", "\udcff.sql", "é\udce9", "../../etc/passwd", "-", "",
        " ", "\\", "C:\\x.sql", "%SRCROOT%", "\u202e", "x" * 70_000,
    )),
)
paths = st.one_of(
    st.sampled_from(("db/a.sql", "-", "", "./x.sql", "/abs/path.sql", "../outside.sql", "a b/c%20d.sql",
                     "db/\udcff.sql", "\udcff", "db/é.sql")),
    any_text,
)
big_int = st.one_of(st.integers(-2, 5), st.integers(-(2**63), 2**63 - 1))
severities = st.sampled_from(("error", "warning", "info"))
optional_text = st.one_of(st.none(), tricky_text)


def _rules() -> st.SearchStrategy[str]:
    from checks import ALL_CHECKS, ENGINE_RULES

    known = [c.id for c in ALL_CHECKS] + list(ENGINE_RULES)
    return st.one_of(st.sampled_from(known), tricky_text)


findings = st.builds(
    Finding,
    rule=st.deferred(_rules), severity=severities, path=paths, line=big_int, column=big_int, end_line=big_int,
    schema=optional_text, table=optional_text, message=tricky_text, evidence=optional_text, fix=optional_text,
    subject=optional_text,
)
diagnostics = st.builds(
    Diagnostic,
    rule=st.deferred(_rules), severity=severities, path=paths, line=big_int, column=big_int, end_line=big_int,
    message=tricky_text, excerpt=optional_text,
)
reports = st.builds(
    Report,
    findings=st.lists(findings, max_size=8),
    diagnostics=st.lists(diagnostics, max_size=5),
    stats=st.builds(RunStats, files=big_int, statements=big_int, tables=big_int),
)


def _utf8(text: str, what: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise AssertionError(f"{what} output cannot be written as UTF-8: {error}") from None


_SARIF_VALIDATOR = None


def sarif_validator():  # type: ignore[no-untyped-def]
    global _SARIF_VALIDATOR
    if _SARIF_VALIDATOR is None:
        schema_path = SHARED / "schemas" / "sarif-schema-2.1.0.json"
        if not schema_path.is_file():  # checked where it is there (tests/shared.py: always under CI)
            if os.environ.get("CI"):
                raise AssertionError(f"{schema_path} is missing; CI is set, so the SARIF output must be validated")
            return None
        import jsonschema

        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        cls = jsonschema.validators.validator_for(schema)
        _SARIF_VALIDATOR = cls(schema, format_checker=cls.FORMAT_CHECKER)
    return _SARIF_VALIDATOR


def check_reporters(report: Report, root: str, *, validate_sarif: bool = False) -> None:
    """Every reporter renders the report to UTF-8 text; json and sarif to valid JSON."""
    from linter.github import check_runs as github_checks
    from linter.report import github, sarif, summary, valid_unicode
    from linter.report import json as json_report
    from linter.report import text as text_report

    out = text_report.render(report)
    _utf8(out, "text")
    assert out.endswith("\n")

    out = json_report.render(report)
    _utf8(out, "json")
    loaded = json.loads(out)
    assert len(loaded["findings"]) == len(report.findings)
    assert len(loaded["diagnostics"]) == len(report.diagnostics)
    assert len(read_report(out).findings) == len(report.findings)  # `innolint github` reads it back

    out = sarif.render(report, root=root)
    _utf8(out, "sarif")
    log = json.loads(out)
    assert len(log["runs"][0]["results"]) == len(report.findings)
    if validate_sarif and (validator := sarif_validator()) is not None:
        errors = sorted(validator.iter_errors(log), key=str)
        assert not errors, errors[0].message

    out = github.render(report)
    _utf8(out, "github")
    for line in out.split("\n")[:-2]:  # every line but the summary is a command or inside stop-commands (the runner splits on \n and \r, which are escaped)
        assert line.startswith("::") or ":" in line, line

    for limit in (summary.COMMENT_LIMIT, 3000):
        out = summary.render(report, limit=limit, blob_url="https://github.com/o/r/blob/abc", root=root)
        _utf8(out, "summary")
        assert len(out.encode("utf-8")) <= limit

    # `innolint github` reads reports back from JSON, which holds no lone surrogates
    clean = valid_unicode(report)
    for item in [*clean.findings, *clean.diagnostics]:
        annotation = github_checks.annotation(item, root)
        _utf8(json.dumps(annotation, ensure_ascii=False), "annotation")
        assert annotation["start_line"] >= 1 and annotation["end_line"] >= annotation["start_line"]


# --- end to end through the files ---------------------------------------------------------------


class Workdir:
    """A temporary directory reused across examples (hypothesis and pytest's function fixtures do
    not mix)."""

    def __init__(self) -> None:
        self.path = tempfile.mkdtemp(prefix="innolint-fuzz-")

    def write(self, name: str, data: bytes) -> str:
        path = os.path.join(self.path, name)
        with open(path, "wb") as handle:
            handle.write(data)
        return path


def check_lint_file(workdir: Workdir, data: bytes) -> Report:
    """`lint_paths` on a file holding `data`: a report, never an exception; diagnostics inside it."""
    from linter.engine import lint_paths

    path = workdir.write("input.sql", data)
    report = lint_paths([path], CheckContext())
    lines = data.count(b"\n") + 1
    for item in [*report.findings, *report.diagnostics]:
        assert item.path == path
        if item.rule != "io-error":
            assert 1 <= item.line <= lines, (item, lines)
    if not any(d.rule == "io-error" for d in report.diagnostics):
        # every statement read was counted, and each not understood is a diagnostic
        from linter.input.source import read_statements

        stream = read_statements(path, target=CheckContext().target)
        statements = list(stream)
        assert report.stats.statements == len(statements)
        # (a statement after a refused one in the same packet is never read by the server: "not run")
        not_run = {d.line for d in report.diagnostics if d.rule == "replay-error" and d.message.startswith("not run:")}
        failed = sum(1 for s in statements if isinstance(check_parse(s.text), ParseFailure) and s.line not in not_run)
        failed += sum(1 for note in stream.notes if note.rule == "parse-error")  # what the splitter reports itself
        parse_errors = [d for d in report.diagnostics if d.rule == "parse-error"]
        if b"innolint" not in data.lower():  # else an `innolint: ignore` may hide some, on purpose
            assert len(parse_errors) == failed, (parse_errors, failed)
    return report


def encoded(text: str) -> st.SearchStrategy[bytes]:
    return st.sampled_from(("utf-8", "latin-1", "utf-16", "utf-8-sig")).map(
        lambda codec: text.encode(codec, "surrogatepass" if codec.startswith("utf") else "replace"))


file_bytes = st.one_of(st.binary(max_size=2000), sql_inputs().flatmap(encoded))


# --- the registry ------------------------------------------------------------------------------


def _parse_all(text: str) -> None:
    check_parse(text)
    for statement in split(text):
        check_parse(statement.text)


def _pipeline(args: tuple[str, CheckContext, int | None, bool, TableStats | None]) -> None:
    text, context, chunk, markers, stats = args
    lint_text(text, context, chunk, markers, stats)


_workdir: Workdir | None = None


def _lint_file(data: bytes) -> None:
    global _workdir
    if _workdir is None:
        _workdir = Workdir()
    check_lint_file(_workdir, data)


#: name -> (strategy of one input, the target run on it); scripts/fuzz.py runs each with a large budget
FUZZ_TARGETS: dict[str, tuple[st.SearchStrategy, Callable[[object], object]]] = {
    "split": (st.tuples(sql_inputs(), chunk_sizes, st.booleans()), lambda args: check_split(*args)),
    "parse": (sql_inputs(), _parse_all),
    "pipeline": (
        st.tuples(sql_inputs(), contexts(), chunk_sizes, st.booleans(), st.one_of(st.none(), table_stats)),
        _pipeline,
    ),
    "replay": (
        st.lists(st.one_of(ddl_statement(), mutated(st.sampled_from(corpus_statements()))), max_size=12),
        check_replay_any_order,
    ),
    "cache": (cache_sequences(), check_cache),
    "ddl": (st.tuples(ddl_scripts, contexts(), st.one_of(st.none(), table_stats)),
            lambda args: lint_text(args[0], args[1], stats=args[2])),
    "reporters": (reports, lambda report: check_reporters(report, os.getcwd(), validate_sarif=True)),
    "files": (file_bytes, _lint_file),
}
