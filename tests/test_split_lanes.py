"""The splitter's fast lane and its skipped statements agree with the general scanner.

The fast lane (`linter.input.splitter.fast_lane._FastLane`) takes whole statements one regex match each and hands
anything unusual to the general scanner; skipping (`skip_words`) counts statements instead of
building them. Neither may change a single statement, position or comment: these tests split the
real corpus and generated text both ways and compare.
"""

from __future__ import annotations

from collections.abc import Iterator
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import linter.input.split as split_module
import linter.input.splitter.fast_lane as fast_lane_module
import linter.input.splitter.span_memory as span_memory_module
from linter.parse import ops
from linter.parse.statement import parse_statement
from linter.parse.cache import SKIP_PATTERN, SPLIT_SKIP_WORDS
from linter.input.statement import Statement
from linter.input.split import split_stream
from linter.schema.target import Target

from tests import sampling
from tests.shared import SHARED
DIRECTIVE = "innolint:"


def chunked(text: str, size: int | None) -> list[str]:
    return [text] if size is None else [text[i : i + size] for i in range(0, len(text), size)]


def run(text: str, *, fast: bool, chunk: int | None = None, markers: bool = False,
        skip: frozenset[str] | None = None, target: str | None = None) -> tuple[list[Statement], int]:
    """Split `text`; with `skip`, also counting the statements SKIP_PATTERN matches, as the engine
    does. `markers`: as a goose migration (its annotations obeyed), else a plain file; `target`:
    the server whose version executable comments are read for (None: all run)."""
    old = split_module.Splitter.fast_lane
    split_module.Splitter.fast_lane = fast
    try:
        stream = split_stream(chunked(text, chunk), "f.sql", migration_format="goose" if markers else None, skip_words=skip,
                              skip_pattern=SKIP_PATTERN if skip else "", unless=DIRECTIVE,
                              target=Target.parse(target) if target else None)
        return list(stream), stream.skipped
    finally:
        split_module.Splitter.fast_lane = old


def directives(text: str, *, fast: bool, chunk: int | None = None, markers: bool = False,
               skip: frozenset[str] | None = None, target: str | None = None) -> list[tuple[int, str]]:
    """The comment lines holding a directive that `run` reads between statements, with their lines."""
    old = split_module.Splitter.fast_lane
    split_module.Splitter.fast_lane = fast
    try:
        stream = split_stream(chunked(text, chunk), "f.sql", migration_format="goose" if markers else None, skip_words=skip,
                              skip_pattern=SKIP_PATTERN if skip else "", unless=DIRECTIVE,
                              target=Target.parse(target) if target else None)
        for _ in stream:
            pass
        return list(stream.directives)
    finally:
        split_module.Splitter.fast_lane = old


def first_word(statement: Statement) -> str:
    word = ""
    for ch in statement.text:
        if not (ch.isascii() and (ch.isalpha() or ch == "_")):
            break
        word += ch
    return word.upper()


def assert_same(text: str, chunk: int | None = None, markers: bool = False, target: str | None = None) -> None:
    slow, _ = run(text, fast=False, chunk=chunk, markers=markers, target=target)
    fast, none_skipped = run(text, fast=True, chunk=chunk, markers=markers, target=target)
    assert none_skipped == 0
    assert fast == slow
    kept, skipped = run(text, fast=True, chunk=chunk, markers=markers, skip=SPLIT_SKIP_WORDS, target=target)
    assert len(kept) + skipped == len(slow)
    # what is kept is the whole list minus some statements the caller said it skips
    rest = iter(kept)
    expected = next(rest, None)
    for statement in slow:
        if statement == expected:
            expected = next(rest, None)
            continue
        assert first_word(statement) in SPLIT_SKIP_WORDS or re.fullmatch(SKIP_PATTERN, statement.text), statement
        assert isinstance(parse_statement(statement.text), ops.Skipped), statement
        assert DIRECTIVE not in statement.text and not any(DIRECTIVE in c for c in statement.comments), statement
    assert expected is None, f"kept statement not in order: {expected}"
    # the directives between statements, where an ignore-file may stand: the same in every lane
    options = {"chunk": chunk, "markers": markers, "target": target}
    general = directives(text, fast=False, **options)  # type: ignore[arg-type]
    assert directives(text, fast=True, **options) == general  # type: ignore[arg-type]
    assert directives(text, fast=True, skip=SPLIT_SKIP_WORDS, **options) == general  # type: ignore[arg-type]


def corpus_files() -> Iterator[Path]:
    for root in (SHARED / "corpus", SHARED / "peer-suites"):
        if root.is_dir():
            yield from sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in (".sql", ".txt"))


@pytest.mark.needs_shared("corpus")
def test_fast_lane_and_skipping_agree_with_the_general_scanner_on_the_corpus() -> None:
    files = list(corpus_files())
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for chunk in (None, 4093):
            assert_same(text, chunk=chunk)


DUMP = """-- MySQL dump 10.13
/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40103 SET TIME_ZONE='+00:00' */;

--
-- Current Database: `t1`
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ `t1` /*!40100 DEFAULT CHARACTER SET utf8mb4 */ /*!80016 DEFAULT ENCRYPTION='N' */;

USE `t1`;

--
-- Table structure for table `a`
--

DROP TABLE IF EXISTS `a`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
CREATE TABLE `a` (
  `id` int NOT NULL AUTO_INCREMENT,
  `s` varchar(10) DEFAULT 'x;y' COMMENT 'it''s -- not a comment',
  PRIMARY KEY (`id`)
) /*!50100 TABLESPACE `t1` */ ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `a`
--

LOCK TABLES `a` WRITE;
/*!40000 ALTER TABLE `a` DISABLE KEYS */;
INSERT INTO `a` VALUES (1,'a;b'),(2,'-- c'),(3,'/* d */');
/*!40000 ALTER TABLE `a` ENABLE KEYS */;
UNLOCK TABLES;
-- innolint: ignore[no-primary-key] kept on purpose
SET @x = 1;
SET @y = 'innolint: inside';
"""


@pytest.mark.parametrize("chunk", [None, 1, 7, 64, 4093, 1 << 20])
def test_a_mysqldump_splits_the_same_in_every_lane(chunk: int | None) -> None:
    assert_same(DUMP, chunk=chunk)
    if chunk is not None and chunk < len(DUMP):
        return  # statements cut by a chunk boundary go through the general scanner: fewer are skipped
    kept, skipped = run(DUMP, fast=True, chunk=chunk, skip=SPLIT_SKIP_WORDS)
    # the SETs, LOCK, INSERT, DISABLE KEYS, ENABLE KEYS and UNLOCK without a directive: the SETs
    # mysqldump writes (system variables, or a user variable saving one) are SKIP_PATTERN's, which
    # the fast lane takes in its runs, quotes and all; a SET of a user variable from anything else
    # is kept (dynamic SQL may read it), as is what holds a directive
    assert skipped == 10
    assert [s.text for s in kept if s.text.startswith("ALTER")] == []
    assert [s.text for s in kept if s.text.startswith("SET")] == ["SET @x = 1", "SET @y = 'innolint: inside'"]
    create = next(s for s in kept if s.text.startswith("CREATE TABLE"))
    assert "/*!50100" not in create.text and "TABLESPACE `t1`" in create.text
    assert (create.line, create.column, create.end_line) == (20, 1, 24)
    assert create.comments == ()  # the comments before DROP TABLE are DROP TABLE's
    drop = next(s for s in kept if s.text.startswith("DROP"))
    assert drop.comments == ("Table structure for table `a`",)


PIECES = [
    "SELECT 1", "SET @a = 1", "INSERT INTO t VALUES (1)", "LOCK TABLES t WRITE", "CREATE TABLE t (a int)",
    "DROP TABLE IF EXISTS `t`", "ALTER TABLE `t` DISABLE KEYS", "delimiter", "DELIMITER ;;", "DELIMITER ;",
    ";", ";;", "\n", "\r\n", " ", "\t", "'", '"', "`", "'a;b'", '"x\\"y"', "`q;`", "--", "-- c\n", "--x", "#",
    "# h\n", "/*", "*/", "/* c */", "/*!50100 ", "/*!40101 SET x=1 */;", "/*M!100301 ", "*", "/", "-", "\\",
    "CREATE PROCEDURE p() BEGIN SELECT 1; END", "BEGIN", "END", "innolint:", "-- innolint: ignore\n", "d", "D",
    "DELETE", "UNLOCK TABLES", "\ufeff", "é", "\x00",
    # client commands, and executable comments that do not run on the target the client holds for
    # the next statement (after one, a command by name is no command: fuzz seed 401)
    "use db", "exit", "\\u db ", "\\c", "\\g", "/*!99999 x */", "/*M!999999 DROP TABLE t */", "/*!80023 y */",
]


@pytest.mark.parametrize("text", [
    "/*!80023 DROP TABLE x */\nCREATE TABLE a (i int);\nuse db\nSET @a = 1;\n",
    "/*!99999 x */\nSET @a = 1;\nexit\nCREATE TABLE c (i int);\n",
    "/*M!999999 x */\nCREATE TABLE a (i int);\nDELIMITER //\nCREATE TABLE b (i int)//\n",
    "CREATE TABLE a (i int) /* x /*!32312 y */ z */;\nCREATE TABLE b (i int);\n",
    "/* x /*!40101 y */;\nCREATE TABLE b (i int);\nCREATE TABLE c (i int) */;\nSET @a = 1;\n",
    "SET @a = 1 /* /*!1 */ /*!2 */ */ ;\nINSERT INTO t VALUES (1) /* x\n /*!3 */ ; */;\nCREATE TABLE b (i int);\n",
])
def test_what_the_client_holds_goes_with_the_next_statement_in_every_lane(text: str) -> None:
    for chunk in (None, 1, 7):
        assert_same(text, chunk=chunk, target="mariadb-10.11")


@seed(sampling.seed())  # the run's seed: new texts each day, INNOLINT_SEED repeats a run (tests/sampling.py)
@settings(max_examples=sampling.size(150, 400), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), st.sampled_from([None, 1, 3, 16]),
       st.booleans(), st.sampled_from([None, "mariadb-10.11", "mysql-8.0"]))
def test_fast_lane_and_skipping_agree_on_generated_text(text: str, chunk: int | None, markers: bool,
                                                         target: str | None) -> None:
    assert_same(text, chunk=chunk, markers=markers, target=target)


def test_runs_of_skipped_lines_are_counted_and_leave_the_next_statement_its_comments() -> None:
    block = (
        "/*!40101 SET character_set_client = @saved_cs_client */;\n\n--\n-- Dumping data for table `a`\n--\n\n"
        "LOCK TABLES `a` WRITE;\n/*!40000 ALTER TABLE `a` DISABLE KEYS */;\n"
        "/*!40000 ALTER TABLE `a` ENABLE KEYS */;\nUNLOCK TABLES;\n\n--\n-- Table structure for table `b`\n--\n\n"
        "DROP TABLE IF EXISTS `b`;\n/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"
        "CREATE TABLE `b` (\n  `id` int NOT NULL\n);\n"
    )
    assert_same(block * 3)
    kept, skipped = run(block * 3, fast=True, skip=SPLIT_SKIP_WORDS)
    assert skipped == 6 * 3
    assert [(s.text.split()[0], s.line, s.comments) for s in kept[:2]] == [
        ("DROP", 16, ("Table structure for table `b`",)), ("CREATE", 18, ()),
    ]
    assert [s.line for s in kept[2:]] == [16 + 20, 18 + 20, 16 + 40, 18 + 40]


def run_without_memory(text: str, chunk: int | None, skip: frozenset[str] | None) -> tuple[list[Statement], int]:
    old = split_module.Splitter.span_memory
    split_module.Splitter.span_memory = False
    try:
        return run(text, fast=True, chunk=chunk, skip=skip)
    finally:
        split_module.Splitter.span_memory = old


TENANT = DUMP.replace("`t1`", "`{tenant}`").replace("AUTO_INCREMENT=5", "AUTO_INCREMENT={auto}")


def tenant_dump(tenants: int) -> str:
    return "".join(TENANT.format(tenant=f"t{i}", auto=i * 7 + 1) for i in range(tenants))


@pytest.mark.parametrize("chunk", [None, 5, 4093])
def test_a_repeated_tenant_block_is_read_from_memory_and_splits_the_same(
    chunk: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = tenant_dump(40)
    matches = tails = 0
    lane = fast_lane_module._fast_lane(SPLIT_SKIP_WORDS, SKIP_PATTERN)
    regex, tail = lane.match, fast_lane_module._tail

    def counted_match(buf: str, pos: int):  # type: ignore[no-untyped-def]
        nonlocal matches
        matches += 1
        return regex(buf, pos)

    def counted_tail(buf: str, pos: int):  # type: ignore[no-untyped-def]
        nonlocal tails
        tails += 1
        return tail(buf, pos)

    monkeypatch.setattr(lane, "match", counted_match)
    monkeypatch.setattr(fast_lane_module, "_tail", counted_tail)
    kept, skipped = run(text, fast=True, chunk=chunk, skip=SPLIT_SKIP_WORDS)
    matched, resumed = matches, tails
    assert (kept, skipped) == run_without_memory(text, chunk, SPLIT_SKIP_WORDS)
    assert_same(text, chunk=chunk)
    creates = [s for s in kept if s.text.startswith("CREATE TABLE")]
    assert [s.line for s in creates] == [20 + TENANT.count("\n") * i for i in range(40)]
    assert creates[-1].text.endswith(f"AUTO_INCREMENT={39 * 7 + 1} DEFAULT CHARSET=utf8mb4")
    if chunk is None:
        # the CREATE TABLEs after the first differ only on their last line: read from there on
        assert resumed == 39
        # the regex runs for what differs per tenant (CREATE DATABASE, USE, the directive's
        # surroundings), not for the spans that repeat
        assert matched < 8 * 40, matched


@seed(sampling.seed())
@settings(max_examples=sampling.size(80, 300), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.floats(0, 1), st.sampled_from([*PIECES, "", "", ""])), min_size=2, max_size=5),
    st.sampled_from([None, 3, 64]),
)
def test_repeats_with_any_change_split_the_same_with_memory(
    changes: list[tuple[float, str]], chunk: int | None
) -> None:
    """Copies of one block, each with one piece put anywhere (a quote, a DELIMITER line, a
    directive, a comment opener ...): the memory must never carry a span over a change."""
    block = TENANT.format(tenant="t", auto=1)
    text = "".join(block[: int(at * len(block))] + piece + block[int(at * len(block)) :] for at, piece in changes)
    for skip in (None, SPLIT_SKIP_WORDS):
        assert run(text, fast=True, chunk=chunk, skip=skip) == run_without_memory(text, chunk, skip)
    assert_same(text, chunk=chunk)


def test_after_a_long_stretch_of_text_that_never_repeats_repeats_are_still_found(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `_SPAN_TRIES` spans never met again, only a sample is remembered: that must still be
    enough to find the tenants that follow, and change nothing."""
    distinct = "".join(f"CREATE TABLE `d{i}` (\n  `id` int NOT NULL\n) ENGINE=InnoDB;\n"
                       for i in range(span_memory_module.SPAN_TRIES + 100))
    text = distinct + tenant_dump(30)
    tails = 0
    tail = fast_lane_module._tail

    def counted_tail(buf: str, pos: int):  # type: ignore[no-untyped-def]
        nonlocal tails
        tails += 1
        return tail(buf, pos)

    monkeypatch.setattr(fast_lane_module, "_tail", counted_tail)
    kept, skipped = run(text, fast=True, skip=SPLIT_SKIP_WORDS)
    assert tails >= 20
    assert (kept, skipped) == run_without_memory(text, None, SPLIT_SKIP_WORDS)
