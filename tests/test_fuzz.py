"""Property tests: no input crashes innolint, nothing is lost silently, every report stays valid.

The targets and their inputs live in tests/fuzzing.py (shared with scripts/fuzz.py, which runs
them with at least 100,000 examples). Here each runs with a small budget of examples drawn from
the run's seed (tests/sampling.py: the same all day, new each day, INNOLINT_SEED repeats a run),
so the file stays well under a minute; below them, one regression test for each
crash the long runs found, and the extreme inputs (10 MB on one line, nesting far past
Python's recursion limit).
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from linter.rules.checkapi import CheckContext
from linter.engine import Engine
from linter.rules.findings import Diagnostic, Finding, Report
from linter.parse.tokens import ParseFailure
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from linter.report import json as json_report
from linter.report import printable, valid_unicode
from linter.input.split import split_stream
from tests import fuzzing, sampling
from tests.complexity import assert_linear

#: examples per target in a run, drawn from the run's seed (scripts/fuzz.py runs thousands each;
#: INNOLINT_EXHAUSTIVE=1 twice these)
BUDGET = {
    "split": 100, "parse": 100, "pipeline": 60, "ddl": 60, "replay": 40, "files": 60, "reporters": 40, "cache": 30,
}


def ci_settings(examples: int, rotating: bool = True) -> settings:
    return settings(
        max_examples=sampling.size(examples, 2 * examples) if rotating else examples,
        # the examples follow the run's seed (tests/sampling.py: the same all day, new each day; with
        # @seed), or are the same in every run
        derandomize=not rotating,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def test_every_target_has_a_budget() -> None:
    assert set(BUDGET) == set(fuzzing.FUZZ_TARGETS)


@pytest.mark.parametrize("name", sorted(fuzzing.FUZZ_TARGETS))
def test_target(name: str) -> None:
    strategy, target = fuzzing.FUZZ_TARGETS[name]

    @seed(sampling.seed())
    @ci_settings(BUDGET[name])
    @given(strategy)
    def run(value: object) -> None:
        target(value)

    run()


# --- what the targets promise, on inputs picked by hand -----------------------------------------


def test_statements_joined_by_delimiters_split_back_whole() -> None:
    """Nothing is lost between statements: the soup's statements come back, in order."""

    from linter.input.splitter.client import CLIENT_COMMANDS
    from linter.input.splitter.compound import head as compound_head

    @ci_settings(100, rotating=False)  # hand-picked words: the same examples in every run
    @given(st.lists(st.sampled_from(fuzzing.WORDS[:60]), min_size=1, max_size=6).map(" ".join))
    def run(statement: str) -> None:
        if statement.split()[0].lower() in CLIENT_COMMANDS:
            return  # text the client takes for one of its commands (`charset x;`) it runs, not sends (issue 37)
        for delimiter_line, delimiter in (("", ";"), ("DELIMITER //\n", "//"), ("DELIMITER ;;\n", ";;")):
            if delimiter != ";" and compound_head(statement) is not None:
                continue  # under its own delimiter a compound statement (`IF ...`) ends where its structure does
            text = delimiter_line + f"{delimiter}\n".join([statement] * 3) + delimiter + "\n"
            assert [s.text for s in fuzzing.split(text)] == [statement] * 3

    run()


@pytest.mark.parametrize("sample", [fuzzing._FALLBACK_STATEMENTS[0], fuzzing._FALLBACK_STATEMENTS[2]])
def test_each_mutation_kind_keeps_the_properties(sample: str) -> None:
    for kind in fuzzing.MUTATION_KINDS:
        for position in (0.0, 0.3, 0.99, 1.0):
            text = fuzzing.Mutation(kind, position, 7).apply(sample)
            fuzzing.lint_text(text, CheckContext(), chunk=5)


# --- regressions: crashes and misplaced diagnostics the fuzzing found ----------------------------


@pytest.mark.parametrize("line_end", ["\r", "\r\r\n", "\n\r"])
def test_lone_carriage_returns_keep_diagnostics_inside_the_statement(line_end: str) -> None:
    """Found by the `parse` target: sqlglot counts a lone CR as a line break, the splitter counts
    LF only, so a parse error in an old Mac file was reported lines past the end of the file."""
    text = f"CREATE TABLE t ({line_end}  a int,{line_end}  b nonsense type,{line_end}  c int{line_end})"
    with pytest.raises(ParseFailure) as failure:
        parse_statement(text)
    assert 0 <= failure.value.line_offset <= text.count("\n")
    statements, diagnostics, _ = fuzzing.lint_text(text + ";\nCREATE TABLE ok (id int PRIMARY KEY);", CheckContext())
    (diagnostic,) = diagnostics
    assert diagnostic.line == 1 + text.count("\n", 0, text.index("b nonsense"))
    assert [s.text.split()[2] for s in statements] == ["t", "ok"]


@pytest.mark.parametrize(
    "template",
    [
        "CREATE TABLE t (a int DEFAULT (CONCAT({open}1{close})))",  # parses, then recurses in .sql()
        "CREATE TABLE t (a json DEFAULT (JSON_ARRAY({open}{close})))",
        "CREATE TABLE t (a int DEFAULT {parens})",
        "CREATE TABLE t (a int AS {parens} STORED, PRIMARY KEY (a))",
        "ALTER TABLE t ADD COLUMN b int DEFAULT {parens}",
        "CREATE TABLE t (a int CHECK {parens})",
        "CREATE TABLE t {parens}",
        "CREATE TABLE t (a int, KEY k {parens})",
    ],
)
@pytest.mark.parametrize("depth", [400, 3_000])
def test_deep_nesting_is_a_parse_failure_not_a_recursion_error(template: str, depth: int) -> None:
    """Found by probing depths: `CONCAT(CONCAT(...))` 330 deep parses in sqlglot but its SQL
    generator then recursed past the limit, so RecursionError escaped parse_statement."""
    text = template.format(open="CONCAT(" * depth if "CONCAT" in template else "JSON_ARRAY(" * depth,
                           close=")" * depth, parens="(" * depth + "1" + ")" * depth)
    try:
        parse_statement(text)
    except ParseFailure as failure:
        assert failure.line_offset == 0
    # the engine makes it a parse-error diagnostic and goes on
    engine = Engine(CheckContext())
    diagnostics: list[Diagnostic] = []
    replayer = Replayer()
    for statement in split_stream([text + ";\nCREATE TABLE after_it (id int PRIMARY KEY);"], "deep.sql"):
        engine._apply(replayer, statement, diagnostics)
    assert replayer.model.find_table(None, "after_it") is not None
    assert all(d.rule in ("parse-error", "replay-error") and d.line == 1 for d in diagnostics)  # no table t


def test_deep_nesting_reason_says_so() -> None:
    for text in ("CREATE TABLE t (a int DEFAULT (" + "CONCAT(" * 2000 + "1" + ")" * 2001 + ")",
                 "CREATE TABLE t (a int DEFAULT " + "(" * 50_000 + "1" + ")" * 50_000 + ")"):
        with pytest.raises(ParseFailure) as failure:
            parse_statement(text)
        assert "nested too deeply" in failure.value.reason


def _deep_parentheses(depth: int) -> str:
    return f"CREATE TABLE t (a int DEFAULT {'(' * depth}1);\nSELECT 1;"


def _split_and_parse(text: str) -> None:
    statements = fuzzing.split(text, chunk=65_536)
    assert [s.line for s in statements] == [1, 2]
    with pytest.raises(ParseFailure, match="unbalanced parentheses"):
        parse_statement(statements[0].text)


def test_deep_parentheses_in_the_splitter_and_our_token_cursor() -> None:
    """No recursion in our own code: a million parentheses split and fail to parse (no
    RecursionError), and the cost grows linearly with the depth."""
    _split_and_parse(_deep_parentheses(1_000_000))
    assert_linear(lambda n: lambda: _split_and_parse(_deep_parentheses(n)), 20_000, what="deep parentheses")


def test_file_names_that_are_not_utf8_do_not_break_any_report(tmp_path) -> None:
    """Found by the `reporters` target, then end to end: a file name with a byte that is not UTF-8
    reaches Python as a lone surrogate; `--format json` crashed (PydanticSerializationError), text,
    sarif and github output could not be written (UnicodeEncodeError)."""
    assert printable("db/\udcff.sql") == "db/\\xff.sql"
    assert printable("\udcc3\udca9.sql") == "é.sql"  # bytes that are UTF-8 together read as text
    assert printable("\ud800") == "\\ud800"  # a surrogate that stands for no byte
    assert printable("plain é") == "plain é"

    finding = Finding(rule="no-primary-key", severity="warning", path="db/\udcff.sql", line=1, table="t",
                      message="t in db/\udcff.sql", fix="ALTER TABLE t ADD PRIMARY KEY (id);")
    diagnostic = Diagnostic(rule="io-error", severity="error", path="\udcffx.sql", message="\udcffx.sql: no such file")
    report = Report(findings=[finding], diagnostics=[diagnostic])
    clean = valid_unicode(report)
    assert clean.findings[0].path == "db/\\xff.sql" and clean.findings[0].message == "t in db/\\xff.sql"
    assert clean.diagnostics[0].path == "\\xffx.sql"
    assert clean.findings[0].fix == finding.fix and clean.findings[0].schema is None
    fine = Report(findings=[Finding(rule="r", severity="info", path="é.sql", line=1, message="m")])
    assert valid_unicode(fine) is fine  # nothing to repair: the same object, no copy
    fuzzing.check_reporters(report, str(tmp_path), validate_sarif=True)
    assert json.loads(json_report.render(report))["findings"][0]["path"] == "db/\\xff.sql"


@pytest.mark.skipif(os.name != "posix", reason="file names are bytes on POSIX only")
def test_lint_paths_with_a_file_name_that_is_not_utf8(tmp_path) -> None:
    from linter.engine import lint_paths

    directory = os.fsencode(tmp_path)
    with open(os.path.join(directory, b"\xffbad.sql"), "wb") as handle:
        handle.write(b"CREATE TABLE t (a int);\n")
    report = lint_paths([str(tmp_path)], CheckContext())
    assert [f.rule for f in report.findings] == ["no-primary-key"]
    rendered = json.loads(json_report.render(report))
    assert rendered["findings"][0]["path"].endswith("\\xffbad.sql")


# --- extremes --------------------------------------------------------------------------------


TEN_MB = 10 * 1024 * 1024


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("insert", "INSERT INTO t VALUES " + ",".join(["(1,'a;b')"] * (TEN_MB // 10))),
        ("comment", "CREATE TABLE t (a int) COMMENT='" + "x" * TEN_MB + "'"),
        ("identifier", "CREATE TABLE `" + "x" * TEN_MB + "` (a int)"),
        ("soup", ("CREATE TABLE t ( a int , ' x ; -- " * (TEN_MB // 35))[:TEN_MB] + "'"),
        # the quote never closes: the rest of the file is in it, and the report says so
        ("unterminated quote", "CREATE TABLE t (a int) COMMENT='" + "x" * TEN_MB),
    ],
)
def test_a_10_mb_single_line(name: str, text: str) -> None:
    """A statement longer than the splitter's cap (MAX_STATEMENT_CHARS, issue 14) is neither held
    nor parsed: it is reported at its line with its size, and the statement after it is read as usual."""
    line = text + ";\nCREATE TABLE after_it (id int PRIMARY KEY);\n"
    stream = split_stream(fuzzing.chunked(line, 1 << 20), fuzzing.PATH)
    statements = list(stream)
    if name == "unterminated quote":
        assert statements == []
        assert sorted((n.line, n.end_line, n.message.split()[0]) for n in stream.notes) == [(1, 2, "statement"), (1, 2, "string")]
    else:
        assert statements[-1].text.startswith("CREATE TABLE after_it") and statements[-1].line == 2
        assert all(s.line == 1 for s in statements[:-1])
    if name != "soup":  # the soup is many short statements (its `;`s are outside its quotes)
        (note,) = [n for n in stream.notes if n.message.startswith("statement of ")]
        assert (note.line, note.rule) == (1, "parse-error")
        assert "longer than the 1,048,576 characters innolint reads" in note.message


# --- Markdown: schema text renders as text, whatever it holds --------------------------------------


@seed(sampling.seed())
@ci_settings(150)
@given(table=fuzzing.tricky_text, message=fuzzing.tricky_text, path=fuzzing.paths, rule=fuzzing.tricky_text,
       fix=fuzzing.optional_text)
def test_summary_renders_any_schema_text_as_text(table: str, message: str, path: str, rule: str,
                                                 fix: str | None) -> None:
    """tests/test_summary.py shows `<script>`, pipes and backticks by example; here any text: each
    row keeps its five cells, no HTML tag but the summary's own gets through, and a fix's fence
    is never closed early."""
    import re

    from linter.report import summary

    finding = Finding(rule=rule, severity="error", path=path, line=3, table=table, message=message, fix=fix)
    diagnostic = Diagnostic(rule=rule, path=path, line=4, message=message)
    text = summary.render(Report(findings=[finding], diagnostics=[diagnostic]), limit=10_000_000, max_fixes=5)
    rows = [line for line in text.split("\n") if line.startswith("| error |") or line.startswith("| warning |")]
    assert [len(re.split(r"(?<!\\)\|", row)) for row in rows] == [7, 6]  # 5 and 4 cells between the pipes
    # outside fenced code, the only tags are the summary's own
    outside = re.sub(r"(?ms)^(`{3,})sql\n.*?\n\1$", "", text)
    assert not re.findall(r"<(?!/?(?:details|summary)>)", outside), outside
    if fix and fix.strip():
        fence = re.search(r"(?m)^(`{3,})sql$", text)
        assert fence is not None and fence.group(1) not in fix
