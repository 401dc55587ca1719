"""The splitter's parts, each against its own contract (the splitter as a whole: test_split*.py).

- the span memory (`linter.input.splitter.span_memory.SpanMemory`): what it keeps of a span, and
  within which bounds;
- the fast lane (`linter.input.splitter.fast_lane`): its regex never fails, takes one whole
  statement per match, counts runs of skipped statements, and hands anything it cannot take whole
  to the general scanner; executable comments are unwrapped in place;
- the general scanner (`linter.input.splitter.scanner.Splitter` with the fast lane off): chunk
  boundaries change nothing, positions are the file's, delimiters and client commands are the
  client's;
- the client's argument reading (`linter.input.splitter.client.client_argument`) and what it
  takes for a command (`delimiter_line`, `named_command`, `backslash_command`,
  `command_at_delimiter`): a command, not one, or more text needed, wherever the text is cut;
- a skipped executable comment's reading (`linter.input.splitter.skipped.Skipped.read`).
"""

from __future__ import annotations

import random

import pytest

from linter.input.splitter import fast_lane, span_memory
from linter.input.splitter import skipped
from linter.input.splitter.client import (
    BACKSLASH_EOL,
    BACKSLASH_TEXT,
    Command,
    DelimiterLine,
    backslash_command,
    client_argument,
    command_at_delimiter,
    delimiter_line,
    named_command,
)
from linter.input.splitter.lexis import BODIES, CLIENT_DASH_FOLLOW
from linter.input.splitter.lexis import executable_reading
from linter.input.splitter.scanner import Splitter
from linter.input.splitter.span_memory import SpanMemory
from linter.input.statement import Statement
from linter.schema.target import Target
from tests.splitting import split

SKIP = frozenset({"INSERT", "SET", "LOCK", "UNLOCK"})


# --- the span memory ---------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "-- lead\n", "SET x = 1;\n\n"])
@pytest.mark.parametrize("body", ["CREATE TABLE t (a int);\n", "CREATE TABLE `x y` (\n  a int,\n  b int\n) ENGINE=InnoDB;\n"])
def test_span_memory_keeps_the_span_cut_at_the_statements_last_line(prefix: str, body: str) -> None:
    buf = "junk" + prefix + body + "after"
    at, end = 4, 4 + len(prefix) + len(body)
    start = at + len(prefix)
    last = buf.rfind("\n", start, end - 1)
    cut = last + 1 if last >= start else end
    memory = SpanMemory()
    memory.remember("k", buf, at, cut, end, 0, body.rstrip(";\n"), start, False, (), None, body.count("\n") - 1)
    head, rest, counted, text, offset, after_run, found, executable, lines, nl_before, column, nl_span, resume = \
        memory.spans["k"]
    assert head + rest == buf[at:end] and head == buf[at:cut]
    assert offset == len(prefix) and nl_before == prefix.count("\n") and nl_span == (prefix + body).count("\n")
    assert column == (1 if nl_before else 0)
    assert resume is (None if cut < end else False)
    assert memory.chars == end - at


def test_span_memory_refuses_a_long_span_and_starts_again_past_its_budget() -> None:
    memory = SpanMemory()
    long = "x" * (span_memory._SPAN_MAX + 1)
    memory.remember("long", long, 0, len(long), len(long), 1, None, 0, False, (), None, 0)
    assert memory.spans == {} and memory.chars == 0
    piece = "y" * span_memory._SPAN_MAX
    kept = 0
    for i in range(span_memory._SPAN_BUDGET // span_memory._SPAN_MAX + 2):
        memory.remember(f"k{i}", piece, 0, len(piece), len(piece), 1, None, 0, False, (), None, 0)
        kept += 1
        assert memory.chars <= span_memory._SPAN_BUDGET
        assert memory.chars == len(memory.spans) * len(piece)
    assert len(memory.spans) < kept  # emptied once on the way


def _split(text: str, *, fast: bool = True, memory: bool = True, chunk: int | None = None,
           skip: frozenset[str] | None = SKIP) -> tuple[list[Statement], int]:
    old = Splitter.fast_lane, Splitter.span_memory
    Splitter.fast_lane, Splitter.span_memory = fast, memory
    try:
        splitter = Splitter("f.sql", None, skip)
        chunks = [text] if chunk is None else [text[i : i + chunk] for i in range(0, len(text), chunk)]
        return list(splitter.run(chunks)), splitter.skipped
    finally:
        Splitter.fast_lane, Splitter.span_memory = old


def _tenant(i: int) -> str:
    return (f"-- Table structure for table `t`\nDROP TABLE IF EXISTS `t`;\nSET @saved = @@x;\n"
            f"CREATE TABLE `t` (\n  `id` int NOT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB AUTO_INCREMENT={i};\n"
            f"INSERT INTO `t` VALUES ({i});\nUSE `tenant_{i}`;\n")


@pytest.mark.parametrize("tenants", [3, 40])
def test_span_memory_replays_repeats_as_the_lane_reads_them(tenants: int) -> None:
    """Repeats differing only in the last line (AUTO_INCREMENT=) are replayed from the memory and
    give what reading them again gives."""
    text = "".join(_tenant(i) for i in range(tenants))
    with_memory, skipped = _split(text)
    without, skipped_without = _split(text, memory=False)
    assert with_memory == without and skipped == skipped_without
    creates = [s for s in with_memory if s.text.startswith("CREATE")]
    assert [s.text.rsplit("=", 1)[1] for s in creates] == [str(i) for i in range(tenants)]
    assert [s.line for s in creates] == [4 + 9 * i for i in range(tenants)]


# --- the fast lane -----------------------------------------------------------------------------


def test_the_lane_regex_never_fails_and_reads_forward() -> None:
    lane = fast_lane._fast_lane(SKIP, "")
    rng = random.Random(19)
    alphabet = list("abc ;'\"`-#/*\n\\!{}()=") + ["--", "/*!50100", "*/", "DELIMITER ", "SET ", "INSERT "]
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        for pos in range(len(text) + 1):
            m = lane.match(text, pos)
            assert m is not None and m.start() == pos


@pytest.mark.parametrize("statement, word", [
    ("CREATE TABLE t (a int)", "CREATE"), ("alter table `a;b` add column c int", "alter"),
    ("CREATE TABLE t (s varchar(9) DEFAULT 'x;y')", "CREATE"), ('DROP TABLE "q"', "DROP"),
])
def test_the_lane_takes_one_whole_statement_per_match(statement: str, word: str) -> None:
    lane = fast_lane._fast_lane(None, "")
    text = f"  -- note\n{statement};\nNEXT;\n"
    m = lane.match(text)
    assert m.group("s") == statement and m.group("w") == word and m.group("semi") == ";"
    assert m.group("lead") == "-- note\n"
    assert text[m.end():] == "NEXT;\n"


def test_the_lane_counts_a_run_of_skipped_lines_and_stops_where_the_scanner_must_read() -> None:
    lane = fast_lane._fast_lane(SKIP, "")
    run = "SET a=1;\nLOCK TABLES `t` WRITE;\n/*!40101 SET b=2 */;\nUNLOCK TABLES;\n"
    m = lane.match(run + "CREATE TABLE t (a int);\n")
    assert m.group("run") == run and m.group("s") == "CREATE TABLE t (a int)"
    for stop in ["DELIMITER //\n", "CREATE TABLE t (a /* c */ int);\n", "\\g\n"]:
        m = lane.match(stop)
        assert m.group("s") is None or m.group("semi") is None  # not a whole statement: the scanner's


@pytest.mark.parametrize("version", ["!50100", "!40101", "M!100301"])
def test_unwrapped_executable_comments_keep_the_statements_length(version: str) -> None:
    statement = f"CREATE TABLE t (a int) /*{version} TABLESPACE `x` */ ENGINE=InnoDB"
    buf = statement + ";"
    ex = buf.index("/*")
    text = fast_lane._unwrapped(buf, 0, len(statement), ex, buf.index("*/") + 2, {}, lambda opening: True)
    assert text is not None and len(text) == len(statement)
    assert "/*" not in text and "*/" not in text and "TABLESPACE `x`" in text
    assert fast_lane._unwrapped(buf, 0, len(statement), ex, buf.index("*/") + 2, {}, lambda opening: False) is None


# --- the general scanner -----------------------------------------------------------------------


TEXTS = [
    "CREATE TABLE a (x int);\n-- c\nCREATE TABLE b (y int); # tail\n",
    "DELIMITER //\nCREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END//\nDELIMITER ;\nCREATE TABLE c (z int);\n",
    "/*!40101 SET NAMES utf8 */;\nCREATE TABLE `d;` (\n  `v` varchar(3) DEFAULT ';'\n) /*!50100 TABLESPACE t */;\n",
    "SET sql_mode = 'ANSI_QUOTES';\nCREATE TABLE \"e\" (\"a\" int);\nINSERT INTO e VALUES (1);\n",
    "CREATE TABLE f (a int)\\g\nuse db2\nCREATE TABLE g (b int);\n",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("chunk", [1, 2, 7, 64])
def test_the_general_scanner_is_indifferent_to_chunk_boundaries(text: str, chunk: int) -> None:
    whole, skipped = _split(text, fast=False)
    assert whole
    assert _split(text, fast=False, chunk=chunk) == (whole, skipped)


@pytest.mark.parametrize("text", TEXTS)
def test_the_general_scanner_and_the_fast_lane_agree(text: str) -> None:
    """On what is built: a statement the caller skips may be counted instead (`skipped`)."""
    def built(found: tuple[list[Statement], int]) -> tuple[list[Statement], int]:
        kept = [s for s in found[0] if s.text.split(None, 1)[0].upper() not in SKIP]
        return kept, len(found[0]) - len(kept) + found[1]

    assert built(_split(text, fast=False)) == built(_split(text))


def test_the_general_scanner_places_statements_where_the_file_has_them() -> None:
    text = "\n\n  -- lead\n   CREATE TABLE a (\n x int);  CREATE TABLE b (y int);\n"
    (a, b), _ = _split(text, fast=False)
    assert (a.line, a.column, a.end_line) == (4, 4, 5)
    assert (b.line, b.column, b.end_line) == (5, 11, 5)
    assert a.comments == ("-- lead",) or a.comments == ("lead",)


@pytest.mark.parametrize("opening", ["'", '"', "`", "/*"])
def test_the_general_scanner_reports_what_is_left_open(opening: str) -> None:
    splitter = Splitter("f.sql", None)
    statements = list(splitter.run([f"CREATE TABLE t (a int) COMMENT {opening}never closed\nCREATE TABLE u (b int);\n"]))
    assert len(statements) == 1  # the rest is inside it
    assert any("not closed" in note.message for note in splitter.notes)


# --- client commands and executable comments ------------------------------------------------------


@pytest.mark.parametrize("line, short, expected", [
    ("\\u db1", True, "db1"), ("\\u `my db`", True, "my db"), ("\\d //", True, "//"),
    ("use db2", False, "db2"), ("use   'a''b'", False, "a'b"), ("use", False, None), ("\\u 'open", True, None),
])
def test_client_arguments_are_read_as_the_client_reads_them(line: str, short: bool, expected: str | None) -> None:
    assert client_argument(line, short) == expected


@pytest.mark.parametrize("text, found", [
    ("DELIMITER //\nx", DelimiterLine(0, 12, "//", False)), ("  delimiter $$ rest\n", DelimiterLine(2, 19, "$$", False)),
    ("DELIMITER '; x'\n", DelimiterLine(0, 15, "; x", False)), ("DELIMITER\t;;\n", DelimiterLine(0, 12, ";;", False)),
    ("DELIMITERS //\n", False), ("DELETE FROM t;\n", False), ("delimiter\n", False), ("DELIMITER \n", None),
    ("DELIMITER " + "x" * 5000 + "\n", DelimiterLine(0, 4096, "x" * 245, True)),
])
def test_a_delimiter_line_is_read_as_the_client_reads_it(text: str, found: object) -> None:
    whole = delimiter_line(text, 0, True, True)
    assert (whole if found is not None else whole.argument) == found  # type: ignore[union-attr]
    assert delimiter_line(text, 0, True, False) is False or found is False
    for cut in range(1, min(text.find("\n"), 30)):  # a cut line is undecided, or already known not to be one
        assert delimiter_line(text[:cut], 0, False, True) in (None, False if found is False else None)


@pytest.mark.parametrize("tail", ["", "`;;\nSELECT 1;\n", "x" * 5000 + ";;\nSELECT 1;\n"])
def test_a_delimiter_line_longer_than_is_read_splits_the_same_in_any_chunks(tail: str) -> None:
    """Found by scripts/fuzz.py (seed 1204): a DELIMITER line whose first `COMMAND_LINE`
    characters end exactly where a chunk ends was taken for a whole line, its rest for SQL."""
    text = "\nDELIMITER ;`" + "x" * 4100 + tail
    whole = split(text)
    for size in (1, 2, 3, 7, 64, 4095, 4096, 4097, 4107, 4108):
        assert split(text, chunk=size) == whole, size


@pytest.mark.parametrize("text, delimiter, found", [
    ("use db1\n", ";", Command("u", "db1", "use", 7)), ("exit\n", ";", Command("q", None, "exit", 4)),
    ("source f.sql\nx", ";", Command(".", "f.sql", "source", 12)), ("quit now\n", ";", False),
    ("use db1;\n", ";", False), ("use db1 \\g\n", ";", False), ("update t set a = 1\n", ";", False),
    ("status\n", "//", Command("s", None, "status", 6)),
])
def test_a_command_by_name_fills_its_line(text: str, delimiter: str, found: object) -> None:
    assert named_command(text, 0, True, delimiter) == found
    assert named_command(text.split("\n")[0], 0, False, delimiter) is None  # its line may go on


@pytest.mark.parametrize("text, found", [
    ("\\g x", Command("g", None, "\\g", 2)), ("\\u db2\n", Command("u", "db2", "\\u", 2)),
    ("\\d //\n", Command("d", "//", "\\d", 2)), ("\\N", BACKSLASH_TEXT), ("\\z", BACKSLASH_TEXT),
    ("\\\n", BACKSLASH_EOL), ("\\\r\n", BACKSLASH_EOL), ("\\c", Command("c", None, "\\c", 2)),
])
def test_a_backslash_is_a_command_or_text(text: str, found: object) -> None:
    assert backslash_command(text, 0, True) == found
    assert backslash_command("\\", 0, False) is None and backslash_command("\\", 0, True) == BACKSLASH_TEXT
    if isinstance(found, Command) and found.argument:
        assert backslash_command(text.rstrip("\n"), 0, False) is None  # its argument may go on


@pytest.mark.parametrize("raw, delimiter, found", [
    ("status", "//", Command("s", None, "status", 0)), ("connect t_b", ";", Command("r", "t_b", "connect", 0)),
    ("use db;", "//", Command("u", "db;", "use", 0)), ("use db", ";", None), ("use db", "//", None),
    ("go", "//", None), ("exit", ";", None), ("status now", ";", None), ("select 1", ";", None),
])
def test_a_command_sent_at_the_delimiter_is_run_by_the_client(raw: str, delimiter: str, found: object) -> None:
    assert command_at_delimiter(raw, delimiter) == found


@pytest.mark.parametrize("text, delimiter, met, at", [
    ("a b */ c", ";", skipped.CLOSED, 6), ("a ';' b */", ";", skipped.CLOSED, 10), ("a; b */", ";", skipped.CUT_INSIDE, 1),
    ("a */// b", "//", skipped.CUT_AT_CLOSE, 3), ("a /* c */ b */ d", ";", skipped.CLOSED, 14),
    ("a -- x */\n b */", ";", skipped.CLOSED, 15), ("a 'x", ";", skipped.MORE, 4), ("a /* b", ";", skipped.DROP, 2),
])
def test_a_skipped_comment_is_read_to_what_ends_it(text: str, delimiter: str, met: int, at: int) -> None:
    skip = skipped.Skipped()
    skip.start("99999", False, (1, 1))
    line = 1 if met == skipped.DROP else 2  # a plain comment on the `/*!` line: the client drops it
    assert skip.read(text, 0, True, delimiter, CLIENT_DASH_FOLLOW, BODIES[0], lambda i: (line, 1)) == (at, met)


def test_a_quote_holding_a_comment_mark_parts_the_client_and_the_server() -> None:
    skip = skipped.Skipped()
    skip.start("99999", False, (1, 1))
    assert skip.read("'/* q' */", 0, True, ";", CLIENT_DASH_FOLLOW, BODIES[0], lambda i: (2, 1)) == (9, skipped.CLOSED)
    assert skip.parted  # the server's comment goes on past the client's `*/`


@pytest.mark.parametrize("target, bang, digits, runs", [
    ("mysql-8.0", "!", "80023", True), ("mysql-5.7", "!", "80023", False), ("mariadb-10.11", "!", "80023", False),
    ("mariadb-10.11", "M!", "100301", True), ("mysql-8.0", "M!", "100301", False), ("mysql-8.0", "!", "", True),
])
def test_executable_comments_run_where_the_target_runs_them(target: str, bang: str, digits: str, runs: bool) -> None:
    assert executable_reading(Target.parse(target), bang, digits)[1] is runs
