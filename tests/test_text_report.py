"""The terminal report: one line per finding, compiler style, short enough to read in a
pre-commit hook or a CI log; everything else behind --show-fixes, --verbose, --show-info and
`innolint explain`; colour on a terminal only (NO_COLOR, FORCE_COLOR, --color); --statistics and
--quiet as ruff has them."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from linter.cli import main
from linter.rules.findings import Diagnostic, Finding, Report, RunStats
from linter.report import text
from tests.cli_run import run_cli
from tests.complexity import assert_linear
from tests.helpers import ROOT, lint_sql

LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|info) \[(?P<rule>[a-z-]+)\] (?P<point>.+)$")
EXAMPLES = ROOT / "examples"


def innolint(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`innolint ARGS` in this process (tests/cli_run.py), without the user's colour settings."""
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment.update(env or {})
    return run_cli(args, cwd=cwd, env=environment)


def finding(rule: str = "no-primary-key", severity: str = "warning", line: int = 1, **fields: object) -> Finding:
    values: dict[str, object] = {"rule": rule, "severity": severity, "path": "db/schema.sql", "line": line,
                                 "table": "t", "message": f"t: a {rule} problem. More detail here.",
                                 "evidence": "what was seen", "fix": "ALTER TABLE `t` ADD PRIMARY KEY (`id`);"}
    values.update(fields)
    return Finding(**values)  # type: ignore[arg-type]


# --- the default: one line per finding -------------------------------------------------------------

def test_corpus_report_is_one_short_line_per_finding(corpus_run: tuple[dict, str]) -> None:
    """The measurement of the issue (shared/corpus: 1,802 lines, 485 KB before): now one line per
    warning or error, info counted in one line, no line over 200 characters (the counts: the
    session's JSON report of the corpus)."""
    short = innolint("check", "../shared/corpus")
    data = corpus_run[0]
    assert short.returncode == 1
    lines = short.stdout.splitlines()
    shown = [f for f in [*data["findings"], *data["diagnostics"]] if f["severity"] != "info"]
    info = len(data["findings"]) + len(data["diagnostics"]) - len(shown)
    assert len(lines) == len(shown) + 2
    assert max(len(line) for line in lines) <= text.LINE_WIDTH
    assert lines[-2].startswith(f"{info} info not shown (") and lines[-2].endswith("--show-info lists them")
    assert re.match(r"\d+ findings \(\d+ errors, \d+ warnings, \d+ info\)", lines[-1])
    parsed = [LINE.match(line) for line in lines[:-2]]
    assert all(parsed), [line for line, m in zip(lines, parsed) if not m][:3]
    assert all(len(m["point"]) <= text.SUMMARY_WIDTH for m in parsed if m)
    # --show-info lists every finding, still one line each
    every = innolint("check", "--show-info", "../shared/corpus").stdout.splitlines()
    assert len(every) == len(data["findings"]) + len(data["diagnostics"]) + 1
    assert max(len(line) for line in every) <= text.LINE_WIDTH


def test_every_finding_has_a_short_summary_and_json_keeps_the_message(corpus_run: tuple[dict, str]) -> None:
    """Each check says its point in one sentence: at most 100 characters besides the names it
    quotes (names are up to 64 characters each, and shown whole where the line has room); on the
    corpus (the session's JSON report of it) and the examples."""
    examples = json.loads(innolint("check", "--format", "json", "examples").stdout)
    found = [*corpus_run[0]["findings"], *examples["findings"]]  # type: ignore[misc]
    assert len({f["rule"] for f in found}) >= 10
    for item in found:
        summary = item["summary"]
        assert summary and "\n" not in summary and len(item["message"]) > len(summary), item
        bare = re.sub(r"`[^`]*`", "``", summary)
        for name in {item["table"], item["schema"]} - {None}:
            bare = bare.replace(name, "")
        bare = re.sub(r"\b\w+\.\w+\b", "", bare)  # table.column
        bare = re.sub(r"(?:[\w%$]+, )+[\w%$]+(?: and \d+ more)?", "", bare)  # a list of column names
        assert len(bare) <= 100, summary


def test_each_check_summary_is_its_point_and_the_line_its_place(tmp_path: Path) -> None:
    """Several variations of one problem, with names short and long: the line starts with the
    place, the summary names the table, and stays on one line within the width."""
    for name in ("t", "event_log", "a" * 64, "Ünïcødé_tåble"):
        report = lint_sql(f"CREATE TABLE `{name}` (created_at DATETIME NOT NULL, message TEXT);", tmp_path)
        out = text.render(report)
        first = out.splitlines()[0]
        m = LINE.match(first)
        assert m and m["rule"] == "no-primary-key" and m["line"] == "1" and m["severity"] == "warning"
        assert name in m["point"] or m["point"].endswith("...")
        assert len(first) <= text.LINE_WIDTH


def test_line_width_is_kept_whatever_the_summary(tmp_path: Path) -> None:
    long_summary = "word " * 80
    report = Report(findings=[finding(summary=long_summary.strip()), finding(line=2, summary=None,
                                                                             message="x" * 400 + ". Then more.")])
    lines = text.render(report).splitlines()
    assert all(len(line) <= text.LINE_WIDTH for line in lines)
    assert lines[0].endswith("...") and lines[1].endswith("...")
    # a path is never cut: the summary keeps its floor
    deep = Report(findings=[finding(path="d/" * 100 + "x.sql", summary="short point")])
    assert text.render(deep).splitlines()[0].endswith("short point")


@pytest.mark.parametrize(("message", "first"), [
    ("t: it has no key. InnoDB clusters it.", "t: it has no key."),
    ("v2.0 of t is big (8.4 to 3.9 GB. really). Next.", "v2.0 of t is big (8.4 to 3.9 GB. really)."),
    ("`a. b` is a name. More.", "`a. b` is a name."),
    ("'x. y' and \"p. q\" stay. More.", "'x. y' and \"p. q\" stay."),
    ("no end at all", "no end at all"),
    ("ends here.", "ends here."),
    ("unbalanced) paren. More.", "unbalanced) paren."),
])
def test_first_sentence_is_cut_outside_names_and_numbers(message: str, first: str) -> None:
    assert text.first_sentence(message) == first
    assert text.headline(finding(message=message)) == first
    assert text.headline(finding(message=message, summary="own")) == "own"


def test_first_sentence_is_linear() -> None:
    def cutting(n: int) -> Callable[[], object]:
        text_in = "(`" * n + "x" * n
        return lambda: text.first_sentence(text_in)

    assert_linear(cutting, 20_000)


# --- info findings -------------------------------------------------------------------------------

def test_info_findings_are_counted_unless_asked_for() -> None:
    report = Report(findings=[finding(), finding(rule="compression-candidate", severity="info", line=2),
                              finding(rule="compression-candidate", severity="info", line=3)],
                    diagnostics=[Diagnostic(rule="replay-error", severity="info", path="db/schema.sql", line=4,
                                            message="no such table")])
    lines = text.render(report).splitlines()
    assert len(lines) == 3 and "[no-primary-key]" in lines[0]
    assert lines[1] == "3 info not shown (compression-candidate 2, replay-error 1): --show-info lists them"
    shown = text.render(report, text.TextOptions(show_info=True)).splitlines()
    assert len(shown) == 5 and "info not shown" not in "\n".join(shown)


def test_fail_level_info_lists_info_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sql = tmp_path / "s.sql"
    sql.write_text("CREATE TABLE coupon (code CHAR(8) NOT NULL, UNIQUE KEY uq (code));\n")
    assert main(["check", str(sql)]) == 0
    assert "info not shown" in capsys.readouterr().out
    assert main(["check", "--fail-level", "info", str(sql)]) == 1
    out = capsys.readouterr().out
    assert "info [no-primary-key]" in out and "not shown" not in out
    (tmp_path / ".innolint.toml").write_text('fail_level = "info"\n')
    assert main(["check", str(sql)]) == 1
    assert "info [no-primary-key]" in capsys.readouterr().out


# --- more on demand -----------------------------------------------------------------------------

def test_show_fixes_and_verbose(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sql = tmp_path / "s.sql"
    sql.write_text("CREATE TABLE event_log (created_at DATETIME NOT NULL, message VARCHAR(200));\nCREATE TABLE x (;\n")
    main(["check", str(sql)])
    default = capsys.readouterr().out.splitlines()
    assert len(default) == 3 and not any(line.startswith("    ") for line in default)
    main(["check", "--show-fixes", str(sql)])
    fixes = capsys.readouterr().out.splitlines()
    assert fixes[1].startswith("    fix: ALTER TABLE `event_log` ADD COLUMN `id`") and len(fixes) == 4
    main(["check", "--verbose", str(sql)])
    verbose = capsys.readouterr().out
    assert "DB_ROW_ID taken from one server-wide counter" in verbose  # the whole message
    assert "    evidence: no PRIMARY KEY and no UNIQUE key" in verbose
    assert "    fix: ALTER TABLE" in verbose and "    statement: CREATE TABLE x (" in verbose
    assert f"    rule: {text.rule_link('no-primary-key')}" in verbose and f"    rule: {text.rule_link('parse-error')}" in verbose
    wrapped = [line for line in verbose.splitlines() if line.startswith("    ") and not line.startswith(("    fix:", "         "))]
    assert len(wrapped) > 4 and all(len(line) <= 104 for line in wrapped if "statement:" not in line)


def test_verbose_links_the_rule_page_when_the_url_is_known(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INNOLINT_RULES_URL", "https://example.org/innolint/docs/rules/")
    assert text.rule_link("no-primary-key") == "https://example.org/innolint/docs/rules/no-primary-key.md"
    assert text.rule_link("parse-error") == "https://example.org/innolint/docs/rules/README.md"  # the engine's list
    monkeypatch.delenv("INNOLINT_RULES_URL")
    for name in ("INNOLINT_ACTION_REPOSITORY", "GITHUB_ACTION_REPOSITORY", "INNOLINT_ACTION_PATH", "GITHUB_ACTION_PATH"):
        monkeypatch.delenv(name, raising=False)
    if text.rule_link("no-primary-key").startswith("innolint"):  # no project URL installed: the command
        assert text.rule_link("parse-error") == "innolint explain parse-error"
    monkeypatch.setenv("INNOLINT_RULES_URL", "https://example.org/innolint/docs/rules/")
    out = text.render(Report(findings=[finding()]), text.TextOptions(verbose=True))
    assert "    rule: https://example.org/innolint/docs/rules/no-primary-key.md" in out


def test_statistics_and_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json", str(EXAMPLES)]) == 1
    data = json.loads(capsys.readouterr().out)
    items = [*data["findings"], *data["diagnostics"]]
    expected: dict[str, int] = {}
    for item in items:
        expected[item["rule"]] = expected.get(item["rule"], 0) + 1
    assert main(["check", "--statistics", str(EXAMPLES)]) == 1
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines[:-1]]
    counts = {row[1]: int(row[0]) for row in rows}
    assert counts == expected and len(counts) >= 10
    assert [int(r[0]) for r in rows] == sorted((int(r[0]) for r in rows), reverse=True)
    assert lines[-1].startswith(f"{len(data['findings'])} findings")
    [npk] = [line for line in lines if " no-primary-key " in line]
    assert npk.split(None, 2)[2] == "2 warning, 1 info"
    assert main(["check", "--statistics", "--format", "json", str(EXAMPLES)]) == 1
    rows_json = json.loads(capsys.readouterr().out)
    assert {row["rule"]: row["count"] for row in rows_json} == expected
    assert next(r for r in rows_json if r["rule"] == "no-primary-key")["severities"] == {"warning": 2, "info": 1}
    assert main(["check", "--statistics", "--format", "sarif", str(EXAMPLES)]) == 2
    capsys.readouterr()
    assert main(["check", "--quiet", str(EXAMPLES)]) == 1
    quiet = capsys.readouterr().out.splitlines()
    assert all(LINE.match(line) for line in quiet)
    assert len(quiet) == len([i for i in items if i["severity"] != "info"])
    clean = tmp_path / "ok.sql"
    clean.write_text("CREATE TABLE t (id INT PRIMARY KEY);\n")
    assert main(["check", "-q", str(clean)]) == 0
    assert capsys.readouterr() == ("", "")


# --- colour --------------------------------------------------------------------------------------

class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("env", "tty", "choice", "expected"), [
    ({}, True, "auto", True),
    ({}, False, "auto", False),
    ({"NO_COLOR": "1"}, True, "auto", False),
    ({"NO_COLOR": ""}, True, "auto", True),  # empty: not set
    ({"FORCE_COLOR": "1"}, False, "auto", True),
    ({"FORCE_COLOR": "true"}, False, "auto", True),
    ({"FORCE_COLOR": "0"}, True, "auto", False),
    ({"FORCE_COLOR": ""}, False, "auto", False),
    ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, "auto", False),
    ({"TERM": "dumb"}, True, "auto", False),
    ({"NO_COLOR": "1"}, False, "always", True),
    ({"FORCE_COLOR": "1"}, True, "never", False),
])
def test_colour_decision(env: dict[str, str], tty: bool, choice: str, expected: bool) -> None:
    assert text.use_colour(_Stream(tty), choice, env) is expected


def test_colour_on_a_terminal_never_in_a_file(tmp_path: Path) -> None:
    sql = EXAMPLES / "shop.sql"

    def on_terminal(env: dict[str, str]) -> str:
        primary, secondary = pty.openpty()
        environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
        environment.update(env, PYTHONPATH=str(ROOT), TERM="xterm")
        with os.fdopen(primary, "rb", buffering=0) as reader:
            process = subprocess.Popen([sys.executable, "-m", "linter.cli", "check", str(sql)], cwd=ROOT,
                                       stdout=secondary, stderr=subprocess.DEVNULL, env=environment)
            os.close(secondary)
            chunks = []
            while True:
                try:
                    data = reader.read(65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            process.wait(timeout=60)
        return b"".join(chunks).decode()

    assert "\x1b[1;33mwarning\x1b[0m" in on_terminal({})
    assert "\x1b[" not in on_terminal({"NO_COLOR": "1"})
    forced = innolint("check", str(sql), env={"FORCE_COLOR": "1"})
    assert "\x1b[1;31merror\x1b[0m" in forced.stdout
    plain = innolint("check", str(sql))
    assert "\x1b" not in plain.stdout
    assert re.sub(r"\x1b\[[0-9;]*m", "", forced.stdout).splitlines()[:-1] == plain.stdout.splitlines()[:-1]
    out = tmp_path / "report.txt"
    written = innolint("check", "--color", "always", "--output", str(out), str(sql), env={"FORCE_COLOR": "1"})
    assert written.stdout == "" and "\x1b" not in out.read_text()


def test_summary_line_names_schemas_for_an_audit() -> None:
    report = Report(stats=RunStats(files=2, statements=3, tables=3))
    assert "2 schemas, 3 statements" in text.summary_line(report, "schema")
    assert "2 files, 3 statements" in text.summary_line(report)
