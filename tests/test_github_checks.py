"""The Checks API publisher against a local stand-in for GitHub, through the real PyGithub client.

Every request body is validated against GitHub's own request schemas (checks create and update,
from github/rest-api-description, kept in ../shared/schemas), and the tests assert the exact
requests: batches of 50 annotations, the conclusion on the last one, the head sha of the pull
request, the fallback to workflow commands on a 403, and that the token is printed nowhere.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from jsonschema import Draft4Validator

from linter.report import json as json_report
from linter.rules.findings import Diagnostic, Finding, Report
from linter.github.check_runs import (
    COMMENT_MARKER,
    GitHubEnvironment,
    PublishOptions,
    conclusion,
    make_client,
    run,
)
from tests.fake_github import FakeGitHub
from tests.shared import need

REPO_ROOT = Path(__file__).resolve().parent.parent
TOKEN = "ghs_SECRETtoken0123456789abcdefSECRET"
HEAD_SHA = "0123456789abcdef0123456789abcdef01234567"
MERGE_SHA = "fedcba9876543210fedcba9876543210fedcba98"


@pytest.fixture(scope="module")
def create_schema() -> Draft4Validator:
    return Draft4Validator(json.loads(need("schemas", "github-checks-create.request.json").read_text()))


@pytest.fixture(scope="module")
def update_schema() -> Draft4Validator:
    return Draft4Validator(json.loads(need("schemas", "github-checks-update.request.json").read_text()))


@pytest.fixture
def api() -> Iterator[FakeGitHub]:
    server = FakeGitHub().start()
    yield server
    server.stop()


def environment(api: FakeGitHub, tmp_path: Path, *, pr_number: int | None = 42) -> GitHubEnvironment:
    return GitHubEnvironment(
        repository="acme/shop",
        sha=HEAD_SHA,
        pr_number=pr_number,
        api_url=api.api_url,
        step_summary=str(tmp_path / "summary.md"),
        output=str(tmp_path / "output.txt"),
        workspace=str(tmp_path),
        token=TOKEN,
    )


def findings(n: int, tmp_path: Path) -> list[Finding]:
    """`n` findings: every third an error, the others warnings, spread over three files."""
    made = []
    for i in range(n):
        made.append(
            Finding(
                rule="no-primary-key",
                severity="error" if i % 3 == 0 else "warning",
                path=str(tmp_path / "db" / f"V{i % 3}__init.sql"),
                line=i + 1,
                end_line=i + 3,
                schema="shop",
                table=f"t{i}",
                message=f"t{i} has no primary key",
                fix=f"ALTER TABLE `t{i}` ADD PRIMARY KEY (`id`);",
            )
        )
    return made


class _SleepRecorder:
    """The `time` module as PyGithub's Requester sees it, with `sleep` recorded instead of slept."""

    def __init__(self) -> None:
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)


def test_120_findings_give_one_create_and_two_updates(api, tmp_path, create_schema, update_schema, monkeypatch) -> None:
    import github.Requester

    report = Report(findings=findings(120, tmp_path))
    env = environment(api, tmp_path)
    out = io.StringIO()
    pygithub_time = _SleepRecorder()
    monkeypatch.setattr(github.Requester, "time", pygithub_time)

    code = run(report, PublishOptions(fail_level="warning"), env, out=out, err=io.StringIO())

    writes = api.writes()
    assert [(r.method, r.path) for r in writes] == [
        ("POST", "/api/v3/repos/acme/shop/check-runs"),
        ("PATCH", "/api/v3/repos/acme/shop/check-runs/7"),
        ("PATCH", "/api/v3/repos/acme/shop/check-runs/7"),
    ]
    create, first_update, last_update = (r.body for r in writes)
    assert list(create_schema.iter_errors(create)) == []
    assert list(update_schema.iter_errors(first_update)) == []
    assert list(update_schema.iter_errors(last_update)) == []

    assert create["name"] == "innolint"
    assert create["head_sha"] == HEAD_SHA
    assert create["status"] == "in_progress" and "conclusion" not in create
    assert "conclusion" not in first_update
    assert last_update["status"] == "completed" and last_update["conclusion"] == "failure"
    assert [len(b["output"]["annotations"]) for b in (create, first_update, last_update)] == [50, 50, 20]

    sent = [a for b in (create, first_update, last_update) for a in b["output"]["annotations"]]
    # worst first: the 40 errors, then the 80 warnings, each group by path and line
    assert [a["annotation_level"] for a in sent] == ["failure"] * 40 + ["warning"] * 80
    assert sent[0] == {
        "path": "db/V0__init.sql",
        "start_line": 1,
        "end_line": 3,
        "annotation_level": "failure",
        "message": "t0 has no primary key",
        "title": "innolint [no-primary-key]",
        "raw_details": "Fix:\nALTER TABLE `t0` ADD PRIMARY KEY (`id`);",
    }
    by_table = {a["message"].split()[0]: a for a in sent}
    assert len(by_table) == 120
    assert by_table["t119"]["path"] == "db/V2__init.sql" and by_table["t119"]["start_line"] == 120
    assert by_table["t119"]["annotation_level"] == "warning"
    # the title goes with every request; the full summary only with the conclusion (update
    # requires output.summary: the others carry one line, not the 65 KB summary again)
    assert create["output"]["title"] == "40 errors, 80 warnings"
    assert "| no-primary-key | 40 | 80 | 0 | 120 |" in last_update["output"]["summary"]
    assert len(create["output"]["summary"]) < 200 and len(first_update["output"]["summary"]) < 200
    assert "| no-primary-key |" not in create["output"]["summary"] + first_update["output"]["summary"]

    assert code == 1
    assert "check run https://github.example/acme/shop/runs/7 with 120 annotations (failure)" in out.getvalue()
    # PyGithub's default throttle waits 1 s between writes (>= 2 s for three); it is off
    assert pygithub_time.slept == []


def test_authorization_reaches_the_api(api, tmp_path) -> None:
    run(Report(findings=findings(1, tmp_path)), PublishOptions(), environment(api, tmp_path), out=io.StringIO())
    post = api.writes()[0]
    assert post.headers.get("Authorization") in (f"token {TOKEN}", f"Bearer {TOKEN}")


def test_few_findings_complete_in_the_create_call(api, tmp_path, create_schema) -> None:
    report = Report(findings=[f.replace(severity="info") for f in findings(3, tmp_path)])
    code = run(report, PublishOptions(fail_level="warning"), environment(api, tmp_path), out=io.StringIO())
    (create,) = [r.body for r in api.writes()]
    assert list(create_schema.iter_errors(create)) == []
    assert create["status"] == "completed" and create["conclusion"] == "neutral"
    assert [a["annotation_level"] for a in create["output"]["annotations"]] == ["notice"] * 3
    assert code == 0


def test_no_findings_is_success_without_annotations(api, tmp_path, create_schema) -> None:
    code = run(Report(), PublishOptions(), environment(api, tmp_path), out=io.StringIO())
    (create,) = [r.body for r in api.writes()]
    assert list(create_schema.iter_errors(create)) == []
    assert create["conclusion"] == "success"
    assert "annotations" not in create["output"]
    assert create["output"]["title"] == "No findings"
    assert code == 0


@pytest.mark.parametrize(
    ("severities", "fail_level", "expected"),
    [
        ((), "warning", "success"),
        (("info",), "warning", "neutral"),
        (("warning",), "warning", "failure"),
        (("warning",), "error", "neutral"),
        (("error",), "none", "neutral"),
    ],
)
def test_conclusion_follows_the_fail_level(severities, fail_level, expected) -> None:
    report = Report(findings=[Finding(rule="r", severity=s, path="a.sql", line=1, message="m") for s in severities])
    assert conclusion(report, fail_level) == expected


def test_diagnostics_count_toward_the_conclusion() -> None:
    report = Report(diagnostics=[Diagnostic(rule="parse-error", path="a.sql", line=2, message="cannot parse")])
    assert conclusion(report, "warning") == "failure"


def test_403_on_create_falls_back_to_workflow_commands(api, tmp_path, caplog, capsys) -> None:
    api.deny.add("create-check")
    report = Report(findings=findings(120, tmp_path))  # 40 errors, 80 warnings
    out, err = io.StringIO(), io.StringIO()
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="github")

    code = run(report, PublishOptions(fail_level="warning"), environment(api, tmp_path), out=out, err=err)

    assert [(r.method, r.path) for r in api.writes()] == [("POST", "/api/v3/repos/acme/shop/check-runs")]
    lines = out.getvalue().splitlines()
    commands = [line for line in lines if re.match(r"::(error|warning|notice) ", line)]
    errors = [c for c in commands if c.startswith("::error ")]
    warnings = [c for c in commands if c.startswith("::warning ")]
    notices = [c for c in commands if c.startswith("::notice ")]
    # GitHub's caps: 10 per level per step, 50 per job; the most severe go first
    assert len(errors) == 10 and len(warnings) == 10 and len(notices) == 1
    assert errors[0].startswith("::error file=db/V0__init.sql,line=1,endLine=3,title=innolint [no-primary-key]::t0 has no")
    assert "100 more findings (30 error, 70 warning) not annotated" in notices[0]
    assert "HTTP 403" in notices[0] and "Resource not accessible by integration" in notices[0]
    # the rest are listed as plain text with command processing stopped around them
    stop = next(i for i, line in enumerate(lines) if line.startswith("::stop-commands::"))
    token = lines[stop].split("::")[2]
    resume = lines.index(f"::{token}::")
    assert resume - stop - 1 == 100
    # the findings decide the exit code: warnings at fail level warning fail the job ...
    assert code == 1
    # ... the missing permission does not: the same refusal with nothing at the fail level passes
    api.requests.clear()
    assert run(report, PublishOptions(fail_level="none"), environment(api, tmp_path), out=io.StringIO()) == 0

    captured = capsys.readouterr()
    everything = out.getvalue() + err.getvalue() + captured.out + captured.err + caplog.text
    everything += (tmp_path / "summary.md").read_text() + (tmp_path / "output.txt").read_text()
    assert TOKEN not in everything


def test_403_on_a_later_update_keeps_what_was_sent(api, tmp_path) -> None:
    api.deny.add("update-check")
    out = io.StringIO()
    run(Report(findings=findings(60, tmp_path)), PublishOptions(), environment(api, tmp_path), out=out)
    assert [r.method for r in api.writes()] == ["POST", "PATCH"]
    text = out.getvalue()
    assert "The check run has the first 50 annotations" in text
    # the 10 not sent (all warnings: 20 errors went first) are annotated as workflow commands
    assert len(re.findall(r"^::warning file=", text, flags=re.MULTILINE)) == 10


def test_token_appears_nowhere(api, tmp_path, caplog, capsys) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="github")  # PyGithub's own logger is held at INFO otherwise
    out, err = io.StringIO(), io.StringIO()
    env = environment(api, tmp_path)
    run(Report(findings=findings(70, tmp_path)), PublishOptions(comment=True, sarif_file=str(tmp_path / "r.sarif")),
        env, out=out, err=err)
    assert api.writes(), "nothing was published"
    captured = capsys.readouterr()
    texts = [out.getvalue(), err.getvalue(), captured.out, captured.err, caplog.text, repr(env)]
    texts += [p.read_text() for p in tmp_path.iterdir() if p.is_file()]
    assert all(TOKEN not in text for text in texts)
    # PyGithub logged every request, headers included (with the token masked)
    assert "check-runs" in caplog.text and "Authorization" in caplog.text


def test_pull_request_comment_is_found_again_and_edited(api, tmp_path) -> None:
    env = environment(api, tmp_path)
    options = PublishOptions(annotations="none", comment=True)
    run(Report(findings=findings(2, tmp_path)), options, env, out=io.StringIO())
    run(Report(findings=findings(5, tmp_path)), options, env, out=io.StringIO())

    writes = [(r.method, r.path) for r in api.writes()]
    assert writes == [
        ("POST", "/api/v3/repos/acme/shop/issues/42/comments"),
        ("PATCH", "/api/v3/repos/acme/shop/issues/comments/500"),
    ]
    (comment,) = api.comments.values()
    assert comment["body"].startswith(COMMENT_MARKER)
    assert "5 findings" in comment["body"]
    assert len(comment["body"]) < 65_536


def test_comment_stays_under_githubs_cap(api, tmp_path) -> None:
    many = [f.replace(message="x" * 2000) for f in findings(400, tmp_path)]
    run(Report(findings=many), PublishOptions(annotations="none", comment=True), environment(api, tmp_path), out=io.StringIO())
    (comment,) = api.comments.values()
    assert len(comment["body"]) <= 65_536
    assert "Not shown here" in comment["body"]


def test_comment_refused_does_not_fail(api, tmp_path) -> None:
    api.deny.add("comment")
    out = io.StringIO()
    code = run(Report(), PublishOptions(annotations="none", comment=True), environment(api, tmp_path), out=out)
    assert code == 0
    assert "::warning title=innolint::Could not write the pull-request comment (HTTP 403)" in out.getvalue()


def test_step_summary_and_outputs(api, tmp_path) -> None:
    env = environment(api, tmp_path)
    sarif_path = str(tmp_path / "x.sarif")
    run(Report(findings=findings(4, tmp_path)), PublishOptions(annotations="none", sarif_file=sarif_path), env,
        out=io.StringIO())
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith("## innolint: 4 findings (2 errors, 2 warnings) in 3 files")
    assert f"[db/V0\\_\\_init.sql:1](https://github.com/acme/shop/blob/{HEAD_SHA}/db/V0__init.sql#L1)" in summary
    assert (tmp_path / "output.txt").read_text() == f"findings=4\nconclusion=failure\nsarif-file={sarif_path}\n"


def test_no_token_falls_back_without_failing(tmp_path) -> None:
    env = GitHubEnvironment(repository="acme/shop", sha=HEAD_SHA, workspace=str(tmp_path))
    out = io.StringIO()
    code = run(Report(findings=findings(3, tmp_path)), PublishOptions(fail_level="none"), env, out=out)
    assert code == 0
    assert "GITHUB_TOKEN not set" in out.getvalue()
    assert out.getvalue().count("::error file=") == 1


def test_environment_takes_the_pull_requests_head_sha(tmp_path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 9, "head": {"sha": HEAD_SHA}}}))
    env = GitHubEnvironment.from_environ({
        "GITHUB_SHA": MERGE_SHA, "GITHUB_EVENT_PATH": str(event), "GITHUB_REPOSITORY": "acme/shop",
        "GITHUB_API_URL": "https://ghe.example.com/api/v3/", "GITHUB_TOKEN": TOKEN,
    })
    assert (env.sha, env.pr_number, env.api_url) == (HEAD_SHA, 9, "https://ghe.example.com/api/v3")
    assert TOKEN not in repr(env)
    push = GitHubEnvironment.from_environ({"GITHUB_SHA": MERGE_SHA})
    assert (push.sha, push.pr_number, push.api_url) == (MERGE_SHA, None, "https://api.github.com")


def test_client_has_write_throttling_off(api, tmp_path) -> None:
    client = make_client(environment(api, tmp_path))
    settings = client.requester.kwargs  # what PyGithub would need to recreate this client
    assert settings["seconds_between_requests"] in (None, 0)
    assert settings["seconds_between_writes"] in (None, 0)
    assert settings["base_url"] == api.api_url


def test_innolint_github_command_end_to_end(api, tmp_path) -> None:
    """`innolint github REPORT` as the action runs it: environment in, check run and files out."""
    report = Report(findings=findings(55, tmp_path))
    report_path = tmp_path / "report.json"
    report_path.write_text(json_report.render(report))
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 3, "head": {"sha": HEAD_SHA}}}))
    (tmp_path / "summary.md").write_text("")
    env = {
        **os.environ,
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_REPOSITORY": "acme/shop",
        "GITHUB_SHA": MERGE_SHA,
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_API_URL": api.api_url,
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
        "GITHUB_WORKSPACE": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "-m", "linter.cli", "github", str(report_path), "--fail-level", "error",
         "--sarif-file", str(tmp_path / "out.sarif")],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1, result.stderr
    writes = api.writes()
    assert [r.method for r in writes] == ["POST", "PATCH"]
    assert writes[0].body["head_sha"] == HEAD_SHA
    assert writes[1].body["conclusion"] == "failure"
    assert "findings=55" in (tmp_path / "output.txt").read_text()
    assert "## innolint: 55 findings" in (tmp_path / "summary.md").read_text()
    assert json.loads((tmp_path / "out.sarif").read_text())["version"] == "2.1.0"
    assert TOKEN not in result.stdout + result.stderr


# --- the PR comment is ours only when we wrote it ------------------------------------------------


def _publish_comment(api: FakeGitHub, tmp_path: Path, author: str | None = None) -> str:
    out = io.StringIO()
    run(Report(findings=findings(3, tmp_path)), PublishOptions(annotations="none", comment=True, comment_author=author),
        environment(api, tmp_path), out=out)
    return out.getvalue()


@pytest.mark.parametrize("intruder", [("mallory", "User"), ("some-app[bot]", "Bot"), ("GITHUB-ACTIONS", "User")])
def test_a_marker_in_someone_elses_comment_is_never_edited(api, tmp_path, intruder) -> None:
    """Anyone may paste the marker; with an installation token (GET /user refused) only a comment
    by github-actions[bot] is ours."""
    login, kind = intruder
    theirs = api.add_comment(f"{COMMENT_MARKER}\nplease edit me", login, kind)
    _publish_comment(api, tmp_path)
    assert api.comments[theirs]["body"] == f"{COMMENT_MARKER}\nplease edit me"
    assert [(r.method, r.path) for r in api.writes()] == [("POST", "/api/v3/repos/acme/shop/issues/42/comments")]
    ours = max(api.comments)
    assert api.comments[ours]["user"]["login"] == "github-actions[bot]"
    _publish_comment(api, tmp_path)  # the next run finds its own, after the intruder's
    assert [r.method for r in api.writes()] == ["POST", "PATCH"]
    assert api.writes()[-1].path.endswith(f"/issues/comments/{ours}")
    assert ("GET", "/api/v3/user") in [(r.method, r.path) for r in api.requests]


def test_a_users_token_edits_only_that_users_comment(api, tmp_path) -> None:
    api.identity = "alice"
    bot = api.add_comment(f"{COMMENT_MARKER}\nfrom the Actions bot", "github-actions[bot]", "Bot")
    alices = api.add_comment(f"{COMMENT_MARKER}\nold", "Alice")  # logins compare without case
    _publish_comment(api, tmp_path)
    assert api.comments[bot]["body"].endswith("from the Actions bot")
    assert "3 findings" in api.comments[alices]["body"]
    assert [(r.method, r.path.rsplit("/issues/", 1)[1]) for r in api.writes()] == [("PATCH", f"comments/{alices}")]


def test_comment_author_names_an_apps_bot(api, tmp_path) -> None:
    mine = api.add_comment(f"{COMMENT_MARKER}\nold", "innolint-app[bot]", "Bot")
    api.add_comment(f"{COMMENT_MARKER}\nnot mine", "github-actions[bot]", "Bot")
    _publish_comment(api, tmp_path, author="innolint-app[bot]")
    assert [(r.method, r.path.rsplit("/issues/", 1)[1]) for r in api.writes()] == [("PATCH", f"comments/{mine}")]
    assert not any(r.path == "/api/v3/user" for r in api.requests)  # no need to ask who the token is


def test_what_is_annotated_follows_annotate_and_annotation_level(tmp_path) -> None:
    from linter.github.check_runs import PublishOptions, left_unannotated, to_annotate

    def item(severity: str, new: bool | None) -> Finding:
        return Finding(rule="no-primary-key", severity=severity, path=str(tmp_path / "a.sql"), line=1, table="t",
                       message="m", new=new)

    items = [item("error", True), item("warning", False), item("info", True), item("warning", None),
             Diagnostic(rule="usage-error", severity="error", path="", message="no file")]
    chosen = to_annotate(items, PublishOptions())
    assert chosen == [items[0], items[2], items[3]]  # new, and compared with nothing; never one without a file
    assert left_unannotated(items, chosen, PublishOptions()) == \
        "Not annotated, listed here: 1 already there before this change (annotate: all annotates them)."
    level = PublishOptions(annotation_level="warning")
    assert to_annotate(items, level) == [items[0], items[3]]
    assert "1 below warning (annotation-level)" in left_unannotated(items, to_annotate(items, level), level)
    assert to_annotate(items, PublishOptions(annotate="all")) == items[:4]


@pytest.mark.parametrize(("status", "expected"), [(0, "neutral"), (1, "failure"), (2, "failure")])
def test_without_a_fail_level_the_checks_own_exit_decides(status: int, expected: str) -> None:
    """The action passes no --fail-level unless its input sets one: `innolint check` exited 1 for
    what is at or above its files' configured fail level, and that is the conclusion."""
    from linter.github.check_runs import conclusion

    report = Report(findings=[Finding(rule="r", severity="error", path="a.sql", line=1, message="m")])
    assert conclusion(report, None, status) == expected
    assert conclusion(report, None, None) == "failure"  # by hand, no status: warning
