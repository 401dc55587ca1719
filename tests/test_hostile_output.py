"""Names from a pull request through every reporter: text for people never carries a control
character, a hidden format character, a live GitHub workflow command, markup or a link that the
name brought; JSON and SARIF keep every name exactly.

The hostile names are generated: each payload (a workflow command after a line break, terminal
escapes, bidi overrides, invisible characters, Markdown and HTML, URLs, mentions) is put in every
field that comes from input (path, table, message, evidence, fix, excerpt), alone and with
prefixes that hide it differently.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import re
import unicodedata
from pathlib import Path

import pytest

from linter.rules.findings import Diagnostic, Finding, Report, RunStats
from linter.github.check_runs import annotation
from linter.report import github, human, safe_line, sarif, summary, text
from linter.report import json as json_report

PAYLOADS = [
    "\n::error file=x.sql,line=1::pwned",
    "\r::warning::pwned",
    "\r\n  ::notice::pwned",
    "::error::pwned",
    "  ::stop-commands::x",
    "\u00a0::add-mask::x",
    "x##[error]pwned",
    "##[set-output name=findings;]0",
    "\x1b[2J\x1b[31mred",
    "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\",
    "\x9b31m",  # C1 CSI
    "\x85next line",  # NEL
    "\u2028line sep\u2029para sep",
    "\x7f\x00\x07\x08\x0b\x0c",
    "admin\u202e\u2066lqs.txt\u2069",
    "\u202a\u202b\u202c\u202d\u2067\u2068",
    "zero\u200bwidth\u200c\u200d\u2060\ufeff\u00ad",
    "tag\U000e0041\U000e007f",
    "| a | b |",
    "<script>alert(1)</script><img src=x onerror=alert(1)>",
    "`code` ```fence```",
    "**bold** [link](http://evil.example) ![i](http://evil.example/i.png)",
    "see http://evil.example/x, https://evil.example and HTTPS://EVIL.EXAMPLE",
    "www.evil.example WWW.Evil.Example",
    "mailto:a@evil.example xmpp:b@evil.example",
    "@octocat @org/team",
    "#1 #12 GH-3",
    "</details></summary><details open>",
    "\udcff\udc80 not UTF-8",
]
PREFIXES = ["", "t", "db/"]


def hostile_names() -> list[str]:
    return [prefix + payload for payload, prefix in itertools.product(PAYLOADS, PREFIXES)]


def hostile_report(name: str) -> Report:
    return Report(
        findings=[Finding(rule="no-primary-key", severity="error", path=name, line=1, column=1, end_line=2,
                          schema=name, table=name, message=f"{name}: it has no PRIMARY KEY", evidence=f"evidence {name}",
                          fix=f"ALTER TABLE `{name}` ADD PRIMARY KEY (id);\n-- {name}", subject=name)],
        diagnostics=[Diagnostic(rule="parse-error", path=name, line=3, message=f"not understood: {name}",
                                excerpt=f"CREATE TABLE {name}")],
        stats=RunStats(files=1, statements=2, tables=1),
    )


def hidden_characters(output: str, allowed: str = "\n") -> list[str]:
    return [c for c in output if c not in allowed and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs")]


def runner_command(line: str) -> str | None:
    """What GitHub's runner reads in one log line (actions/runner ActionCommand): a V2 command
    (`::name ...::` after leading whitespace), else a legacy `##[name ...]` anywhere."""
    stripped = line.lstrip()
    if stripped.startswith("::") and stripped.find("::", 2) > 0:
        return stripped[2 : stripped.find("::", 2)].split(" ")[0]
    if "##[" in line and "]" in line[line.index("##[") :]:
        return line[line.index("##[") + 3 : line.index("]", line.index("##["))].split(" ")[0]
    return None


@pytest.mark.parametrize("name", hostile_names(), ids=lambda n: repr(n)[:40])
def test_text_output_has_no_hidden_characters_and_no_commands(name: str) -> None:
    # --verbose shows every field (message, evidence, fix, statement); --color adds our own escapes only
    output = text.render(hostile_report(name), text.TextOptions(verbose=True))
    assert hidden_characters(output) == []
    assert [line for line in output.splitlines() if runner_command(line)] == []
    # a name starts no line of its own: only a fix keeps its line breaks (it is SQL to copy, and
    # a quoted name may hold one), and its lines are indented under `fix:`
    lines = output.splitlines()
    top = [line for line in lines if not line.startswith("    ")]
    assert len(top) == 3 and top[0].startswith(human(name) + ":1:1: error") and top[1].startswith(human(name) + ":3:1:")
    assert len([line for line in lines if line.startswith("    fix: ")]) == 1
    assert len([line for line in lines if line.startswith("         ")]) == 1 + name.count("\n") * 2
    # the default: one line per item and the summary, whatever the name holds
    short = text.render(hostile_report(name)).splitlines()
    assert [line.split(": ")[0] for line in short[:2]] == [human(name) + ":1:1", human(name) + ":3:1"]
    assert len(short) == 3 and not [line for line in short if runner_command(line)]
    coloured = text.render(hostile_report(name), text.TextOptions(verbose=True, colour=True))
    assert hidden_characters(coloured.replace("\x1b", "")) == []
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == output


@pytest.mark.parametrize("name", hostile_names(), ids=lambda n: repr(n)[:40])
def test_workflow_commands_are_only_ours(name: str) -> None:
    report = hostile_report(name)
    items = [*report.findings, *report.diagnostics] * 12  # past the caps: the plain listing too
    output = github.render_commands(items) + github.render(report)
    assert hidden_characters(output) == []
    stopped = None
    for line in output.splitlines():
        if stopped is not None:
            if line == f"::{stopped}::":
                stopped = None
            continue
        command = runner_command(line)
        if command == "stop-commands":
            stopped = line.split("::")[2]
            continue
        assert command in (None, "error", "warning", "notice"), line
        if command is not None:
            assert line.startswith(f"::{command} "), line  # ours: at the line start, one command per line
            assert "##[" not in line
    assert stopped is None


@pytest.mark.parametrize("name", hostile_names(), ids=lambda n: repr(n)[:40])
def test_markdown_has_no_markup_links_or_mentions_from_names(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INNOLINT_RULES_URL", "https://rules.example/docs/rules")
    rendered = summary.render(hostile_report(name))
    assert "](https://rules.example/docs/rules/no-primary-key.md)" in rendered  # our own links are there
    rendered = re.sub(r"\]\(https://rules\.example/docs/rules/[a-z-]+\.md\)", "]", rendered)  # and only ours
    assert hidden_characters(rendered, allowed="\n\u200b") == []
    fences = re.findall(r"^(`{3,})", rendered, re.MULTILINE)
    assert len(fences) == 2 and fences[0] == fences[1]  # the fix cannot close its block early
    # inside the fenced block the fix is code: no markup, link or mention is rendered there
    output = re.sub(r"^(`{3,})sql\n.*?^\1$", "", rendered, flags=re.MULTILINE | re.DOTALL)
    assert all(output[i - 1] in "@#:" or output[i - 3 : i].lower() == "www"
               for i, c in enumerate(output) if c == "\u200b")  # only ours
    tags = re.findall(r"<[^>]*>", output)
    assert set(tags) <= {"<details>", "</details>", "<summary>", "</summary>"}, tags
    assert output.count("<details>") == output.count("</details>") == 1
    assert not re.search(r"(?i)(?:https?|ftp)://", output), output  # `\://` in Markdown, `:\u200b//` in HTML
    assert not re.search(r"(?i)(?<![a-z0-9])www\.", output)  # `www\.`, `www\u200b.` (GFM links www. only at a word start)
    assert not re.search(r"@(?!\u200b)", output) and not re.search(r"#\d", output)
    for row in output.splitlines():
        if row.startswith("| error |") or row.startswith("| warning |"):
            cells = re.split(r"(?<!\\)\|", row)
            assert len(cells) in (6, 7), row  # diagnostics have 4 cells, findings 5


@pytest.mark.parametrize("name", hostile_names(), ids=lambda n: repr(n)[:40])
def test_check_run_annotations_show_names_as_text(name: str) -> None:
    report = hostile_report(name)
    for item in [*report.findings, *report.diagnostics]:
        sent = annotation(item)
        for key in ("message", "raw_details", "title"):
            assert hidden_characters(sent.get(key, "")) == [], key


@pytest.mark.parametrize("name", hostile_names(), ids=lambda n: repr(n)[:40])
def test_json_and_sarif_keep_names_exactly(name: str) -> None:
    report = hostile_report(name)
    exact = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")  # as valid_unicode shows it
    data = json.loads(json_report.render(report))
    assert data["findings"][0]["table"] == exact and data["diagnostics"][0]["excerpt"] == f"CREATE TABLE {exact}"
    log = json.loads(sarif.render(report))
    messages = [result["message"]["text"] for result in log["runs"][0]["results"]]
    assert any(exact in m for m in messages)


def test_human_escapes_each_class_visibly() -> None:
    assert human("a\nb\rc\td\x1be\x7ff\x85g\x9bh") == "a\\nb\\rc\\td\\x1be\\x7ff\\x85g\\x9bh"
    assert human("\u202eabc\u2066\u200b\ufeff\U000e0041") == "\\u202eabc\\u2066\\u200b\\ufeff\\U000e0041"
    assert human("::error::x") == "\\x3a:error::x" and human("\u00a0 ::x::") == "\u00a0 \\x3a:x::"
    assert human(" \t::x::") == " \\t::x::"  # the tab is shown as `\t`: the line no longer starts with `::`
    assert human("a##[error]b") == "a##\\x5berror]b"
    assert human("fix\n::error::x", keep="\n") == "fix\n\\x3a:error::x"
    assert human("café 東京 \u00a0") == "café 東京 \u00a0"  # visible text stays as it is
    assert safe_line(":" + ":1:1: error") == "\\x3a:1:1: error"


def test_a_hostile_table_name_through_the_command_line(tmp_path: Path) -> None:
    """End to end: SQL whose table name holds a line break and a workflow command, in a file
    whose name does too; the text format (what pre-commit prints in CI) prints no command."""
    from linter.cli import main

    name = "evil\n::error file=README.md,line=1::pwned\x1b[2J"
    quoted = name.replace("`", "``")
    path = tmp_path / "x\n::warning::y.sql"
    path.write_text(f"CREATE TABLE `{quoted}` (a INT NOT NULL) ENGINE=InnoDB;\n", encoding="utf-8")
    for fmt in ("text", "github"):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", "--format", fmt, "--", str(path)])
        assert code == 1, err.getvalue()
        lines = out.getvalue().splitlines()
        assert [line for line in lines if runner_command(line) not in (None, "warning") or
                (runner_command(line) == "warning" and not line.startswith("::warning file="))] == []
        assert hidden_characters(out.getvalue()) == []
    json_out = io.StringIO()
    with contextlib.redirect_stdout(json_out):
        main(["check", "--format", "json", "--", str(path)])
    assert json.loads(json_out.getvalue())["findings"][0]["table"] == name


def test_messages_on_standard_error_are_shown_safely(tmp_path: Path) -> None:
    from linter.cli import main

    (tmp_path / ".innolint.toml").write_text('target = "x\\n::error::pwned ##[error]y"\n')
    err = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["check", "--", "."])
    finally:
        os.chdir(cwd)
    assert code == 2
    assert [line for line in err.getvalue().splitlines() if runner_command(line)] == []
