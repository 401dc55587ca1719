"""`--format github` and the fallback: workflow commands, their escaping, and GitHub's caps."""

from __future__ import annotations

import re

from linter.rules.findings import Diagnostic, Finding, Report
from linter.report import github
from tests.cli_run import run_cli


def finding(severity: str = "warning", **changes) -> Finding:
    values = dict(rule="no-primary-key", severity=severity, path="db/a.sql", line=3, end_line=5, table="t", message="no key")
    values.update(changes)
    return Finding(**values)


def unescape_data(text: str) -> str:
    """The runner's own unescaping (actions/runner ActionCommand): the reverse of escape_data."""
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(text: str) -> str:
    return unescape_data(text.replace("%3A", ":").replace("%2C", ","))


def parse(command: str) -> tuple[str, dict[str, str], str]:
    """Split `::name k=v,k=v::data` the way the runner does: properties at `,` then `=`."""
    match = re.fullmatch(r"::(\w[\w-]*)(?: ([^:]*))?::(.*)", command)
    assert match, command
    name, props, data = match.groups()
    properties = {}
    for pair in (props or "").split(","):
        if pair:
            key, _, value = pair.partition("=")
            properties[key] = unescape_property(value)
    return name, properties, unescape_data(data)


def test_escaping_round_trips_every_special_character() -> None:
    nasty = "100% sure:\r\nline two, with ::error::inside and a,comma"
    item = finding(path="db/we,ird:name%.sql", message=nasty, fix="ALTER TABLE `a,b` ADD PRIMARY KEY (id);")
    command = github.annotation_command(item)
    assert "\n" not in command and "\r" not in command
    name, properties, data = parse(command)
    assert name == "warning"
    assert properties == {"file": "db/we,ird:name%.sql", "line": "3", "endLine": "5", "title": "innolint [no-primary-key]"}
    assert data == nasty + "\n\nFix:\nALTER TABLE `a,b` ADD PRIMARY KEY (id);"


def test_escape_functions() -> None:
    assert github.escape_data("a%b\rc\nd:e,f") == "a%25b%0Dc%0Ad:e,f"
    assert github.escape_property("a%b\rc\nd:e,f") == "a%25b%0Dc%0Ad%3Ae%2Cf"


def test_levels_and_single_line_column() -> None:
    assert github.annotation_command(finding("error")).startswith("::error ")
    assert github.annotation_command(finding("info")).startswith("::notice ")
    one_line = github.annotation_command(finding(line=7, end_line=7, column=4))
    assert one_line.startswith("::warning file=db/a.sql,line=7,col=4,title=")
    no_line = github.annotation_command(Diagnostic(rule="io-error", severity="error", path="gone.sql", message="missing"))
    assert no_line.startswith("::error file=gone.sql,title=innolint [io-error]::missing")


def test_paths_are_relative_to_the_workspace(tmp_path) -> None:
    item = finding(path=str(tmp_path / "db" / "b.sql"))
    assert "file=db/b.sql," in github.annotation_command(item, root=str(tmp_path))


def test_caps_keep_the_most_severe() -> None:
    items = [finding("info", line=i, end_line=i) for i in range(1, 31)]
    items += [finding("warning", line=i, end_line=i) for i in range(1, 31)]
    items += [finding("error", line=i, end_line=i) for i in range(1, 31)]
    output = github.render_commands(items)
    lines = output.splitlines()
    commands = [parse(line) for line in lines if re.match(r"::(error|warning|notice) ", line)]
    kinds = [name for name, _, _ in commands]
    assert kinds.count("error") == 10 and kinds.count("warning") == 10
    # 9 info notices and the one that says how many more: never more than 10 notices
    assert kinds.count("notice") == 10
    assert kinds[:10] == ["error"] * 10
    assert [int(p["line"]) for n, p, _ in commands[:10]] == list(range(1, 11))
    assert commands[-1][2].startswith("61 more findings (20 error, 20 warning, 21 info) not annotated")
    assert len(commands) <= github.PER_JOB


def test_job_cap_of_50_holds_with_a_smaller_step_budget_too() -> None:
    items = [finding("error", line=i) for i in range(100)]
    shown, dropped = github.choose_annotated(items, per_step=80, per_job=50)
    assert len(shown) == 49 and len(dropped) == 51  # one slot kept for the notice


def test_nothing_dropped_means_no_notice() -> None:
    output = github.render_commands([finding("error"), finding("warning")])
    assert output.count("\n") == 2
    assert "::notice" not in output and "stop-commands" not in output


def test_the_rest_is_listed_with_commands_stopped() -> None:
    items = [finding("error", line=i, message=f"m{i}") for i in range(12)]
    items.append(finding("error", line=99, message="evil\n::error::injected"))
    lines = github.render_commands(items).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("::stop-commands::"))
    token = lines[start][len("::stop-commands::"):]
    assert re.fullmatch(r"[0-9a-f]{32}", token)
    end = lines.index(f"::{token}::")
    listed = lines[start + 1 : end]
    assert len(listed) == 3
    assert listed[-1] == "db/a.sql:99:1: error [no-primary-key] evil ::error::injected"


def test_format_github_renders_report_with_summary_line() -> None:
    report = Report(findings=[finding("error")], diagnostics=[Diagnostic(rule="parse-error", path="b.sql", line=2, message="bad")])
    output = github.render(report)
    lines = output.splitlines()
    assert lines[0].startswith("::error file=db/a.sql,line=3,endLine=5,")
    assert lines[1].startswith("::warning file=b.sql,line=2,col=1,title=innolint [parse-error]::bad")
    assert lines[-1].startswith("1 finding (1 error, 0 warnings, 0 info), 1 diagnostic")


def test_note_is_said_even_when_everything_fits() -> None:
    output = github.render_commands([finding()], note="innolint could not create a check run.")
    assert output.splitlines()[-1] == "::notice title=innolint::innolint could not create a check run."


def test_check_format_github_end_to_end(tmp_path) -> None:
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "a.sql").write_text("CREATE TABLE t (\n  a INT NOT NULL\n) ENGINE=InnoDB;\n")
    result = run_cli(["check", "--format", "github", "db"], cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("::warning file=db/a.sql,line=1,endLine=3,title=innolint [no-primary-key]::t: ")
    assert result.stdout.splitlines()[-1].startswith("1 finding")
