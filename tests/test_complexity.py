"""Every cost linear in the input: each generator of work that once blew up (and each regular
expression applied to input text in parse, replay, directives and suppressions) runs at n and at
10n in the same run, and the time may grow at most 15x (no absolute limits: the machine's speed
drifts). Each was quadratic or worse before (the numbers are in the commit messages):

- replay: ALTERs of one table (MODIFY / RENAME COLUMN rebuilt the column dict, DROP INDEX /
  FOREIGN KEY filtered the whole list);
- suppressions: every finding was matched against every suppression;
- partition clauses: an unclosed `SUBPARTITION BY HASH(` rescanned the rest for each match;
- directives: a comment opener on a long line was tried once per opener, and a rule list
  without `]` read to the end of the comment for each directive;
- the `ignore-file` scan counted lines from the start of its buffer for each directive.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from linter.rules import suppressions
from linter.rules.directives import comments_in_text, parse_directives
from linter.rules.findings import Diagnostic, Finding
from linter.parse.elements import Location
from linter.parse.tokens import ParseFailure
from linter.parse.statement import glued_statement, parse_statement
from linter.parse.options import partition_names
from linter.parse.cache import ParseCache
from linter.server.replay import Replayer
from tests.complexity import assert_linear


# -- replay ------------------------------------------------------------------------------------
def _alters(n: int) -> Callable[[], object]:
    """n ALTERs of one table: n/5 add a column (AFTER the last) and a foreign key each (and a key,
    the first 60: the server allows 64), then four passes over those columns with each kind of
    action that rebuilt or scanned the table: MODIFY; RENAME COLUMN (and RENAME INDEX); CHANGE ...
    FIRST; DROP / ADD FOREIGN KEY (and DROP / ADD INDEX). (A foreign key on a column no key begins
    with gets a key of its own, so past the first 60 they reference through `id`, the primary key.)"""
    texts = ["CREATE TABLE t (id int NOT NULL PRIMARY KEY, c0 int)"]
    width = max(1, n // 5)

    def key(i: int, action: str) -> str:
        return action.format(i=i) if i < 60 else ""

    def fk_column(i: int) -> str:
        return f"c{i}" if i < 60 else "id"

    for i in range(width):
        texts.append(f"ALTER TABLE t ADD COLUMN c{i + 1} int AFTER c{i}{key(i, ', ADD KEY k{i} (c{i})')}, "
                     f"ADD CONSTRAINT f{i} FOREIGN KEY ({fk_column(i)}) REFERENCES p (id)")
    for i in range(width):
        texts.append(f"ALTER TABLE t MODIFY COLUMN c{i} bigint")
    for i in range(width):
        texts.append(f"ALTER TABLE t RENAME COLUMN c{i} TO x{i}{key(i, ', RENAME INDEX k{i} TO y{i}')}")
    for i in range(width):
        texts.append(f"ALTER TABLE t CHANGE x{i} c{i} int FIRST{key(i, ', RENAME INDEX y{i} TO k{i}')}")
    for i in range(width):
        texts.append(f"ALTER TABLE t DROP FOREIGN KEY f{i}, ADD CONSTRAINT f{i} FOREIGN KEY ({fk_column(i)}) "
                     "REFERENCES p (id)"
                     + key(i, ", DROP INDEX k{i}, ADD KEY k{i} (c{i})"))
    statements = [parse_statement(text) for text in texts]

    def run() -> None:
        replayer = Replayer()
        for line, op in enumerate(statements, start=1):
            problem = replayer.apply(op, Location("t.sql", line))
            assert problem is None, (texts[line - 1], problem)
        table = replayer.model.find_table(None, "t")
        assert table is not None and len(table.columns) == width + 2 and len(table.foreign_keys) == width

    return run


def test_replay_of_alters_on_one_table_is_linear() -> None:
    assert_linear(_alters, 200)  # 10n: ~1 s a run


def _drops(n: int) -> Callable[[], object]:
    """n columns and keys added, then dropped one by one (and tables created and dropped)."""
    texts = ["CREATE TABLE t (id int)"]
    texts += [f"ALTER TABLE t ADD c{i} int" + (f", ADD KEY k{i} (c{i})" if i < 60 else "") for i in range(n)]
    texts += [f"ALTER TABLE t DROP COLUMN c{i}" for i in range(n)]
    texts += [f"CREATE TEMPORARY TABLE t{i} (a int)" for i in range(n)] + [f"DROP TABLE t{i}" for i in range(n)]
    statements = [parse_statement(text) for text in texts]

    def run() -> None:
        replayer = Replayer()
        for op in statements:
            replayer.apply(op, Location("t.sql", 1))
        assert not replayer.model.find_table(None, "t").indexes  # type: ignore[union-attr]

    return run


def test_replay_of_drops_is_linear() -> None:
    assert_linear(_drops, 200)


# -- suppressions ------------------------------------------------------------------------------
def _suppressed(n: int) -> Callable[[], object]:
    """n findings and diagnostics, n suppressions over them (statement and file-wide, named
    rules and every rule), several per statement."""
    sups = []
    for i in range(n):
        sups.append(suppressions.Suppression("a.sql", 3 * i + 1, ("no-primary-key",), "why", False, 3 * i + 2))
        if i % 3 == 0:
            sups.append(suppressions.Suppression("a.sql", 3 * i + 1, (), "why", False, 3 * i + 1))
    sups.append(suppressions.Suppression("b.sql", 1, ("parse-error",), "why", True))
    findings = [Finding(rule="no-primary-key", severity="warning", path="a.sql", line=3 * i + 2, message="m")
                for i in range(n)]
    diagnostics = [Diagnostic(rule="parse-error", path="b.sql", line=i, message="m") for i in range(n)]

    def run() -> None:
        for s in sups:
            s.used.clear()
        outcome = suppressions.apply(findings, diagnostics, sups, known_rules=["no-primary-key", "parse-error"])
        assert not outcome.findings

    return run


def test_suppressions_are_matched_in_linear_time() -> None:
    assert_linear(_suppressed, 2000)


def _ignore_file(tmp_path: Path) -> Callable[[int], Callable[[], object]]:
    def make(n: int) -> Callable[[], object]:
        path = tmp_path / f"f{n}.sql"
        path.write_text("".join(f"-- innolint: ignore-file[no-primary-key] legacy {i}\nSELECT 1;\n" for i in range(n)))

        def run() -> None:
            assert len(suppressions.from_file(str(path))) == n

        return run

    return make


def test_ignore_file_scan_is_linear(tmp_path: Path) -> None:
    assert_linear(_ignore_file(tmp_path), 2000)


# -- partition clauses, directives, glued statements: text scans ---------------------------------
@pytest.mark.parametrize("unit", ["SUBPARTITION BY HASH(", "PARTITION BY KEY (a, `b", "(`x``", "a(b(", "( "])
def test_partition_clause_scan_is_linear(unit: str) -> None:
    def make(n: int) -> Callable[[], object]:
        text = "CREATE TABLE t (a int) PARTITION BY HASH(a) " + unit * n
        return lambda: partition_names(text)

    assert_linear(make, 2000)


def test_a_partition_clause_repeated_in_a_statement_is_linear() -> None:
    def make(n: int) -> Callable[[], object]:
        text = "CREATE TABLE t (a int) PARTITION BY HASH(a) " + "SUBPARTITION BY HASH(" * n

        def run() -> None:
            try:
                parse_statement(text)
            except ParseFailure:
                pass

        return run

    assert_linear(make, 1000)


@pytest.mark.parametrize("line", [
    "# -- /* " * 2 + "x", "#" * 8, "-- " * 4, "/*" * 4, "innolint:" * 3,
])
@pytest.mark.parametrize("where", ["same line", "next line"])
def test_directive_comments_in_a_long_line_are_linear(line: str, where: str) -> None:
    def make(n: int) -> Callable[[], object]:
        text = "CREATE TABLE t (a int) " + line * n + (" " if where == "same line" else "\n") + "-- innolint: ignore[x] why"
        return lambda: parse_directives(comments_in_text(text))

    assert_linear(make, 5000)


@pytest.mark.parametrize("comment", [
    "-- innolint: ignore[a, b\n", "innolint: x[" , "innolint:   \n", "# innolint: ignore[\n",
])
def test_directives_without_a_closing_bracket_are_linear(comment: str) -> None:
    def make(n: int) -> Callable[[], object]:
        text = "/* " + comment * n + " */"
        return lambda: parse_directives([text])

    assert_linear(make, 5000)


@pytest.mark.parametrize("unit", ["'", "''", "`", "\\'", "'a',", "/* x */", "-- c\n", "#\n", "\n  ", "\nDROP INDEX i"])
def test_the_missing_semicolon_scan_is_linear(unit: str) -> None:
    def make(n: int) -> Callable[[], object]:
        text = "ALTER TABLE t ADD a int " + unit * n + "\nCREATE TABLE u (a int)"
        return lambda: glued_statement(text, alter=True)

    assert_linear(make, 5000)


# -- statements through the parser and its cache ------------------------------------------------
@pytest.mark.parametrize("template", [
    "CREATE TABLE t ({body}) ENGINE=InnoDB AUTO_INCREMENT=7",
    "CREATE TABLE t ({body}, KEY k (c0))\nINSERT INTO t VALUES (1)",
    "ALTER TABLE t {actions}",
    "SET @x = 1{lines}\nCREATE TABLE u (a int)",
])
def test_statements_of_many_elements_parse_in_linear_time(template: str) -> None:
    def make(n: int) -> Callable[[], object]:
        text = template.format(
            body=",\n".join(f"  `c{i}` varchar(10) NOT NULL DEFAULT 'x' COMMENT 'it''s {i}'" for i in range(n)),
            actions=",\n".join(f"ADD COLUMN c{i} int AFTER c{i - 1}" for i in range(n)),
            lines="".join(f"\n, @y{i} = 'CREATE TABLE v (a int)'" for i in range(n)),
        )

        def run() -> None:
            op = ParseCache().parse(text)
            assert op is not None

        return run

    assert_linear(make, 200)
