"""The check run against a GitHub that misbehaves: rate limits (with retry-after, with
x-ratelimit-reset, without either), 5xx, dropped connections before and after a request took
effect, a read-only token, and a bug in the middle. Through the real PyGithub client and the
stand-in API; the clock is the test's own, so hours of GitHub's waiting take no time.

Whatever happens, the check run is concluded (or innolint says loudly that it could not be), no
annotation or comment is sent twice, the cause is named, GitHub's documented ceilings (80
content-creating requests a minute, 500 an hour) hold, and the summary goes once.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from jsonschema import Draft4Validator

import linter.github.check_runs as github_checks
from linter.rules.findings import Finding, Report
from linter.github.api import ApiFailure, Calls, Policy
from linter.github.check_runs import GitHubEnvironment, PublishOptions, run
from linter.report import summary as summary_report
from tests.fake_github import SECONDARY, Fault, FakeGitHub
from tests.shared import need

HEAD_SHA = "0123456789abcdef0123456789abcdef01234567"
EPOCH = 1_800_000_000.0


class Clock:
    """Monotonic and wall time that move only when innolint sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.slept.append(seconds)
        self.now += seconds

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> float:
        return EPOCH + self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def api(clock: Clock) -> Iterator[FakeGitHub]:
    server = FakeGitHub(clock=clock.monotonic).start()
    yield server
    server.stop()


def calls_for(clock: Clock, **policy: float) -> Calls:
    return Calls(Policy(sleep=clock.sleep, clock=clock.monotonic, wall=clock.wall, **policy))  # type: ignore[arg-type]


def environment(api: FakeGitHub, tmp_path: Path) -> GitHubEnvironment:
    return GitHubEnvironment(repository="acme/shop", sha=HEAD_SHA, pr_number=42, api_url=api.api_url,
                             step_summary=str(tmp_path / "summary.md"), workspace=str(tmp_path),
                             token="ghs_resilience0123456789")


def findings(n: int, tmp_path: Path, message: str = "{t} has no primary key") -> list[Finding]:
    return [Finding(rule="no-primary-key", severity=("error", "warning", "info")[i % 3],
                    path=str(tmp_path / "db" / f"V{i % 7}__init.sql"), line=i + 1, end_line=i + 3, schema="shop",
                    table=f"t{i}", message=message.format(t=f"t{i}"), fix=f"ALTER TABLE `t{i}` ADD PRIMARY KEY (`id`);")
            for i in range(n)]


def publish(api: FakeGitHub, tmp_path: Path, clock: Clock, n: int = 170, *, options: PublishOptions | None = None,
            **policy: float) -> tuple[int, str, Calls]:
    out = io.StringIO()
    calls = calls_for(clock, **policy)
    code = run(Report(findings=findings(n, tmp_path)), options or PublishOptions(), environment(api, tmp_path),
               out=out, err=io.StringIO(), calls=calls)
    return code, out.getvalue(), calls


def the_run(api: FakeGitHub) -> dict:
    (only,) = api.runs.values()
    return only


def sent_annotations(api: FakeGitHub) -> list[tuple[str, int]]:
    return [(a["path"], a["start_line"]) for a in the_run(api)["annotations"]]


# --- rate limits ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("fault", "waits"), [
    (Fault(403, SECONDARY, {"retry-after": "30"}), [30.0]),
    (Fault(429, "Too many requests", {"retry-after": "7"}), [7.0]),
    (Fault(403, "API rate limit exceeded for installation", {"x-ratelimit-remaining": "0",
                                                              "x-ratelimit-reset": str(int(EPOCH) + 90)}), [91.0]),
    (Fault(403, SECONDARY, {}), [60.0]),  # no header: at least a minute (GitHub's advice)
    (Fault(429, "", {}), [60.0]),
])
@pytest.mark.parametrize("route", ["create-check", "update-check"])
def test_rate_limits_are_waited_out_as_github_says(api, tmp_path, clock, fault, waits, route) -> None:
    api.fault(route, fault)
    code, out, calls = publish(api, tmp_path, clock)
    assert clock.slept == waits
    run_ = the_run(api)
    assert run_["status"] == "completed" and run_["conclusion"] == "failure"
    assert len(sent_annotations(api)) == 170 == len(set(sent_annotations(api)))  # none lost, none twice
    assert code == 1 and "(failure)" in out
    assert f"waited {waits[0]:,.0f} s" in out


def test_repeated_secondary_limits_wait_exponentially_longer(api, tmp_path, clock) -> None:
    api.fault("update-check", *[Fault(403, SECONDARY, {}) for _ in range(3)])
    publish(api, tmp_path, clock)
    assert clock.slept == [60.0, 120.0, 240.0][: len(clock.slept)]
    assert the_run(api)["status"] == "completed"


def test_a_reset_an_hour_away_is_not_waited_for(api, tmp_path, clock) -> None:
    """The limit is used up for 55 minutes: innolint does not sit in the job for that. It stops
    adding annotations, concludes the run saying why (rate limit, not a fork's token), and lists
    the rest in the log."""
    reset = str(int(EPOCH) + 3300)
    api.fault("update-check", Fault(403, "API rate limit exceeded", {"x-ratelimit-remaining": "0", "x-ratelimit-reset": reset}))
    code, out, calls = publish(api, tmp_path, clock)
    assert clock.slept == []  # more than the budget: not started
    run_ = the_run(api)
    assert run_["status"] == "completed" and run_["conclusion"] == "failure"
    summary = run_["output"]["summary"]
    assert "could add only 50 of 170 annotations" in summary and "rate limit" in summary
    assert "x-ratelimit-reset" in summary and "3,301 s" in summary
    assert "fork" not in summary
    assert "innolint added 50 of 170 annotations" in out  # the log says it too, with the rest as commands
    assert code == 1


def test_the_run_paces_itself_under_80_a_minute(api, tmp_path, clock) -> None:
    """5,000 findings with room for 100 annotation requests: past 80 content-creating requests in
    a minute innolint waits for the window, so the stand-in (which counts as GitHub does) never
    has to refuse one."""
    code, out, calls = publish(api, tmp_path, clock, 5000, options=PublishOptions(annotation_requests=100))
    refused = [r for r in api.requests if r.answer == "403"]
    assert refused == []
    assert calls.content_requests == 100 and len(sent_annotations(api)) == 5000
    assert clock.slept and sum(clock.slept) <= 60
    times = sorted(api._content_times)
    assert all(sum(1 for t in times if s <= t < s + 60) <= 80 for s in times)


# --- servers in trouble, connections that drop ------------------------------------------------------

def test_5xx_are_retried_with_backoff(api, tmp_path, clock) -> None:
    api.fault("update-check", Fault(502, "Bad Gateway"), Fault(503, "Unavailable"))
    publish(api, tmp_path, clock)
    assert clock.slept == [2.0, 4.0]
    assert len(sent_annotations(api)) == 170 == len(set(sent_annotations(api)))
    assert the_run(api)["status"] == "completed"


@pytest.mark.parametrize("route", ["create-check", "update-check"])
@pytest.mark.parametrize("when", ["before", "after"])
def test_a_dropped_connection_sends_nothing_twice(api, tmp_path, clock, route, when) -> None:
    """A connection reset before the request took effect: sent again. After it took effect (the
    answer lost): GitHub is asked (the run by its external_id, the annotation count) and nothing
    is created or appended twice."""
    api.fault(route, Fault(drop=when))
    code, out, calls = publish(api, tmp_path, clock)
    assert len(api.runs) == 1
    assert len(sent_annotations(api)) == 170 == len(set(sent_annotations(api)))
    assert the_run(api)["status"] == "completed" and the_run(api)["conclusion"] == "failure"
    assert any(s.outcome not in ("ok",) and not s.outcome.isdigit() for s in calls.log)  # the drop was met


def test_a_dropped_conclusion_is_found_concluded(api, tmp_path, clock) -> None:
    api.fault("update-check", Fault(), Fault(), Fault(drop="after"))  # 170 findings: create + 2 PATCH + conclude
    code, out, calls = publish(api, tmp_path, clock)
    assert the_run(api)["status"] == "completed"
    patches = [r for r in api.requests if r.method == "PATCH"]
    assert len(patches) == 3  # the lost conclusion was not sent again: GitHub said it was done
    assert "(failure)" in out


def test_a_server_that_keeps_failing_still_gets_a_conclusion(api, tmp_path, clock) -> None:
    api.fault("update-check", *[Fault(502, "Bad Gateway") for _ in range(5)])
    code, out, calls = publish(api, tmp_path, clock)
    run_ = the_run(api)
    assert run_["status"] == "completed" and run_["conclusion"] == "failure"
    assert "could add only 50 of 170 annotations: GitHub answered HTTP 502 (Bad Gateway), 5 times in a row" \
        in run_["output"]["summary"].replace("\\", "")
    assert len(sent_annotations(api)) == 50
    assert "innolint added 50 of 170 annotations" in out
    assert sum(clock.slept) == 2 + 4 + 8 + 16


def test_a_bug_midway_still_concludes_the_run(api, tmp_path, clock, monkeypatch) -> None:
    original = github_checks._interim
    seen: list[int] = []

    def broken(total: int, sent: int) -> str:
        seen.append(sent)
        if len(seen) == 2:
            raise RuntimeError("a bug in the middle")
        return original(total, sent)

    monkeypatch.setattr(github_checks, "_interim", broken)
    code, out, calls = publish(api, tmp_path, clock)
    run_ = the_run(api)
    assert run_["status"] == "completed" and run_["conclusion"] == "failure"
    assert "RuntimeError: a bug in the middle" in run_["output"]["summary"]
    assert code == 1


def test_a_conclusion_that_cannot_be_sent_is_said_loudly(api, tmp_path, clock) -> None:
    api.fault("update-check", Fault(), Fault(), *[Fault(500, "boom") for _ in range(5)])
    code, out, calls = publish(api, tmp_path, clock)
    assert the_run(api)["status"] == "in_progress"
    assert "::error title=innolint::innolint could not conclude its check run" in out
    assert "(in progress)" in out


# --- the cause, named -----------------------------------------------------------------------------

def test_a_forks_read_only_token_is_named_as_such(api, tmp_path, clock) -> None:
    api.deny.add("create-check")
    code, out, calls = publish(api, tmp_path, clock)
    assert "HTTP 403 (Resource not accessible by integration)" in out
    assert "read-only token" in out and "fork" in out and "rate limit" not in out
    assert clock.slept == [] and calls.requests == 1  # not retried: waiting cannot mend it


def test_a_rate_limit_on_create_is_named_as_such(api, tmp_path, clock) -> None:
    api.fault("create-check", Fault(403, SECONDARY, {"retry-after": "3600"}))
    code, out, calls = publish(api, tmp_path, clock)
    assert api.runs == {}
    assert "rate limit" in out and "retry-after" in out and "fork" not in out
    assert code == 1  # the findings still decide


def test_the_budget_bounds_all_waiting_together(api, tmp_path, clock) -> None:
    api.fault("update-check", *[Fault(429, "slow down", {"retry-after": "100"}) for _ in range(4)])
    publish(api, tmp_path, clock)
    assert sum(clock.slept) <= Policy().max_wait + Policy().reserve
    assert the_run(api)["status"] == "completed"


def test_comment_is_not_added_twice_after_a_dropped_answer(api, tmp_path, clock) -> None:
    api.fault("comment", Fault(drop="after"))
    publish(api, tmp_path, clock, 5, options=PublishOptions(annotations="none", comment=True))
    assert len(api.comments) == 1


def test_apifailure_carries_the_status() -> None:
    failure = ApiFailure("refused", "GitHub answered HTTP 422", 422)
    assert (failure.kind, failure.status, str(failure)) == ("refused", 422, "GitHub answered HTTP 422")


# --- what a 2,000-finding report costs ----------------------------------------------------------------

def test_a_2000_finding_report_stays_within_githubs_limits(api, tmp_path, clock, capsys) -> None:
    """2,000 distinct findings: 10 content-creating requests (the 500 most severe annotated, the
    rest counted in the summary), every body valid against GitHub's schemas, the summary sent
    once, the comment under 65,536 characters. The numbers are printed for the closing note."""
    create_schema = Draft4Validator(json.loads(need("schemas", "github-checks-create.request.json").read_text()))
    update_schema = Draft4Validator(json.loads(need("schemas", "github-checks-update.request.json").read_text()))
    long = ("{t}: it has no PRIMARY KEY and no UNIQUE key of NOT NULL columns, so InnoDB clusters it on a hidden "
            "6-byte DB_ROW_ID taken from one server-wide counter under the dict_sys mutex; inserts into all such "
            "tables contend on it (Percona: at most 87% of the insert throughput of keyed tables).")
    report = Report(findings=findings(2000, tmp_path, long))
    calls = calls_for(clock)
    out = io.StringIO()
    run(report, PublishOptions(comment=True, sarif_file=str(tmp_path / "r.sarif")), environment(api, tmp_path),
        out=out, err=io.StringIO(), calls=calls)
    writes = api.writes()
    checks = [r for r in writes if "/check-runs" in r.path]
    assert [r.method for r in checks] == ["POST"] + ["PATCH"] * 9
    assert calls.content_requests == 11  # 10 for the check run, 1 for the comment
    assert list(create_schema.iter_errors(checks[0].body)) == []
    assert all(list(update_schema.iter_errors(r.body)) == [] for r in checks[1:])
    assert len(sent_annotations(api)) == 500
    levels = [a["annotation_level"] for a in the_run(api)["annotations"]]
    assert levels == ["failure"] * 500  # the 667 errors come first
    big = [r for r in checks if len(r.body["output"]["summary"]) > 1000]
    assert big == [checks[-1]]  # the full summary once, with the conclusion
    summary = checks[-1].body["output"]["summary"]
    assert len(summary) <= summary_report.CHECK_SUMMARY_LIMIT
    assert "1,500 less severe findings have no annotation" in summary
    (comment,) = api.comments.values()
    assert len(comment["body"]) <= 65_536
    sizes = [r.size for r in writes]
    with capsys.disabled():
        print(f"\n2,000-finding report: {calls.describe()}; request bodies {min(sizes):,}-{max(sizes):,} bytes "
              f"(check run {sum(r.size for r in checks):,} bytes in {len(checks)} requests, summary "
              f"{len(summary.encode()):,} bytes once, comment {len(comment['body'].encode()):,} bytes); "
              f"SARIF {(tmp_path / 'r.sarif').stat().st_size:,} bytes")
    assert "innolint: GitHub API: 13 requests (11 content-creating: 2 POST, 9 PATCH)" in out.getvalue()
