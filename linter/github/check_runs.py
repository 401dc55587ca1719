"""Publish a report to GitHub: a check run with annotations, the job summary, a PR comment.

This is what `innolint github REPORT.json` does (the action runs `innolint check --format json`
first, then this). It reads the report only, never the SQL.

- Check run (Checks API, through PyGithub): one run named `innolint` on the pull request's head
  commit (not `$GITHUB_SHA`, which on `pull_request` is a merge commit no one looks at). The API
  takes at most 50 annotations per request: the first 50 go with the create call, the rest in
  further updates (GitHub appends them), and the last request concludes the run with the full
  summary (sent once, not with every batch). At most `ANNOTATION_REQUESTS` requests carry
  annotations, the most severe findings first: GitHub allows 80 content-creating requests a minute
  and 500 an hour for everything an installation does (one tenant dump must not spend them), and
  the summary says how many findings were left without one and where every finding is.
- A check run is always concluded, even when the API fails midway or innolint meets a bug: a
  `finally` sends the conclusion with the reason in the summary. Requests are retried, paced and
  bounded as `linter.github.api` says (rate limits, 5xx, dropped connections).
- When the token cannot write checks (pull requests from forks get a read-only token and the API
  answers 403 "Resource not accessible by integration"), or GitHub's rate limit would need more
  waiting than innolint does, the most severe findings become workflow commands within their caps,
  a notice names the cause, and the job is not failed for it: the exit code still depends on the
  findings only.
- Job summary: Markdown appended to `$GITHUB_STEP_SUMMARY`, under GitHub's 1 MiB per step.
- PR comment (optional): one comment, found again by a hidden marker and edited in place, under
  GitHub's 65,536 characters. Anyone who can comment can paste the marker, and a token with
  `pull-requests: write` may edit others' comments: so only a comment written by the token's own
  identity is edited. A user's token names itself (`GET /user`); an installation token (the
  Actions GITHUB_TOKEN, a GitHub App's) cannot read /user and writes as `github-actions[bot]`
  (`--comment-author` names another App's bot).
- When `innolint check` left no report (it crashed, or a usage error before it could write one),
  `missing_report` makes one usage-error of its exit status and last output: the check run, the
  summary and an error annotation say why.

PyGithub's own throttle and retries are off (they sleep for real, unbounded); `linter.github.api`
does both with GitHub's documented rules. The base URL is configurable (`$GITHUB_API_URL`, set by
Actions on GitHub Enterprise Server too). The token is read from the environment only (never an
argument, which would show in process lists and logs), kept out of reprs, and scrubbed from any
error text printed.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from linter.rules.findings import Diagnostic, Finding, Report, at_or_above
from linter.github.api import ApiFailure, Calls
from linter.report import copies_text, human
from linter.report import summary as summary_report
from linter.report.github import escape_data, escape_property, render_commands, worst_first
from linter.report.location import is_url, repo_path
from linter.report.summary import md_text

if TYPE_CHECKING:
    from github import Github

CHECK_NAME = "innolint"
#: the Checks API's cap on annotations per create or update request
ANNOTATIONS_PER_REQUEST = 50
#: requests that carry annotations in one run: the 500 most severe findings
ANNOTATION_REQUESTS = 10
#: hidden in the PR comment so the next run finds and edits it instead of adding another
COMMENT_MARKER = "<!-- innolint:pull-request-report -->"
#: who an installation token (the Actions GITHUB_TOKEN) writes comments as
ACTIONS_BOT = "github-actions[bot]"
DEFAULT_API_URL = "https://api.github.com"
#: Checks API annotation levels for our severities
ANNOTATION_LEVEL = {"error": "failure", "warning": "warning", "info": "notice"}
_TEXT_CAP = 60_000  # annotation message and raw_details: 64 KB each upstream; keep a margin

Item = Finding | Diagnostic


@dataclass(frozen=True)
class GitHubEnvironment:
    """What a GitHub Actions step knows about where it runs, from its environment variables."""

    repository: str | None = None
    sha: str | None = None
    pr_number: int | None = None
    api_url: str = DEFAULT_API_URL
    server_url: str = "https://github.com"
    step_summary: str | None = None
    output: str | None = None
    workspace: str | None = None
    token: str | None = field(default=None, repr=False)
    #: `GITHUB_RUN_ID.GITHUB_RUN_ATTEMPT` and a random part: the check run's external_id, by which
    #: a create request whose answer was lost is found again
    run_key: str = field(default_factory=lambda: _random_key())

    @classmethod
    def from_environ(cls, environ: dict[str, str] | None = None) -> GitHubEnvironment:
        """Read `GITHUB_*`; on pull_request events take the head sha and number from the event file."""
        env = dict(os.environ if environ is None else environ)
        sha = env.get("GITHUB_SHA") or None
        pr_number: int | None = None
        event_path = env.get("GITHUB_EVENT_PATH")
        if event_path and os.path.isfile(event_path):
            try:
                with open(event_path, encoding="utf-8") as handle:
                    event = json.load(handle)
            except (OSError, ValueError):
                event = {}
            pull = event.get("pull_request") if isinstance(event, dict) else None
            if isinstance(pull, dict):
                sha = (pull.get("head") or {}).get("sha") or sha
                if isinstance(pull.get("number"), int):
                    pr_number = pull["number"]
        return cls(
            repository=env.get("GITHUB_REPOSITORY") or None,
            sha=sha,
            pr_number=pr_number,
            api_url=(env.get("GITHUB_API_URL") or DEFAULT_API_URL).rstrip("/"),
            server_url=(env.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/"),
            step_summary=env.get("GITHUB_STEP_SUMMARY") or None,
            output=env.get("GITHUB_OUTPUT") or None,
            workspace=env.get("GITHUB_WORKSPACE") or None,
            token=env.get("GITHUB_TOKEN") or env.get("INPUT_GITHUB_TOKEN") or None,
            run_key=".".join(p for p in (env.get("GITHUB_RUN_ID"), env.get("GITHUB_RUN_ATTEMPT")) if p) + "." + _random_key(),
        )

    @property
    def blob_url(self) -> str | None:
        """`https://github.com/o/r/blob/SHA`: where summary links to files point."""
        if self.repository and self.sha:
            return f"{self.server_url}/{self.repository}/blob/{self.sha}"
        return None

    def scrub(self, text: str) -> str:
        """`text` with the token replaced, for anything about to be printed."""
        return text.replace(self.token, "***") if self.token else text


def _random_key() -> str:
    import secrets

    return "innolint-" + secrets.token_hex(8)


@dataclass
class PublishOptions:
    """What to publish, as chosen on the command line or in the action's inputs."""

    #: None: what `innolint check` decided for each file's configuration (`check_status` 1), else warning
    fail_level: str | None = None
    annotations: str = "checks"  # checks | workflow-commands | none
    #: new: annotate what the change adds or makes worse (`Finding.new`; everything when the report
    #: compared nothing); all: every finding
    annotate: str = "new"
    #: the least severe finding annotated (info: every one the filter above keeps)
    annotation_level: str = "info"
    summary: bool = True
    comment: bool = False
    sarif_file: str | None = None
    check_name: str = CHECK_NAME
    #: whose comment to edit; None: the token's own identity (`token_identity`)
    comment_author: str | None = None
    #: the exit status of `innolint check` (the action passes it): 2 and more conclude failure
    check_status: int | None = None
    #: where every finding can be read when a summary or the annotations leave some out
    full_report: str = "The job summary, the SARIF file or `innolint check`"
    #: requests that may carry annotations (`ANNOTATION_REQUESTS`)
    annotation_requests: int = ANNOTATION_REQUESTS


def conclusion(report: Report, fail_level: str | None, check_status: int | None = None) -> str:
    """failure: something at or above the fail level, or `innolint check` could not do its job
    (exit 2 or more: an input or usage error, a crash); neutral: findings below it; success: none.
    No `fail_level`: `innolint check`'s own exit status decides (1: something at or above the
    fail level of its file's configuration), else warning."""
    if check_status is not None and check_status >= 2:
        return "failure"
    items: list[Item] = [*report.findings, *report.diagnostics]
    if fail_level is None and check_status is not None:
        failed = check_status == 1
    else:
        level = fail_level or "warning"
        failed = level != "none" and any(at_or_above(item.severity, level) for item in items if item.rule != "baseline-gone")
    if failed:
        return "failure"
    return "neutral" if items else "success"


def to_annotate(items: Sequence[Item], options: PublishOptions) -> list[Item]:
    """The items the check run (or the workflow commands) annotate: with a file, at or above the
    annotation level, and (annotate new) what the change adds or makes worse: an item the report
    compared with nothing (`new` None) counts as new."""
    floor = options.annotation_level
    return [item for item in items if annotated(item) and at_or_above(item.severity, floor)
            and (options.annotate == "all" or item.new is not False)]


def left_unannotated(items: Sequence[Item], chosen: Sequence[Item], options: PublishOptions) -> str | None:
    """What the summary says about the findings that have a file and no annotation by choice."""
    taken = {id(item) for item in chosen}
    rest = [item for item in items if annotated(item) and id(item) not in taken]
    if not rest:
        return None
    old = sum(1 for item in rest if item.new is False and options.annotate != "all")
    low = len(rest) - old
    parts = []
    if old:
        parts.append(f"{old:,} already there before this change (annotate: all annotates them)")
    if low:
        parts.append(f"{low:,} below {options.annotation_level} (annotation-level)")
    return f"Not annotated, listed here: {'; '.join(parts)}."


def title(report: Report) -> str:
    """The check run's one-line title: counts by severity."""
    counts = Counter(f.severity for f in report.findings)
    if not report.findings:
        return "No findings" + (f" ({len(report.diagnostics)} diagnostics)" if report.diagnostics else "")
    parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 and s != 'info' else ''}" for s in ("error", "warning", "info") if counts[s]]
    return ", ".join(parts)


def annotation(item: Item, root: str | None = None) -> dict[str, Any]:
    """One Checks API annotation: path from the repository root, lines, level, message, the fix."""
    line = max(item.line, 1)
    message = human(item.message)  # GitHub shows it to people: see linter.report.human
    copies = copies_text(item) if isinstance(item, Finding) else None
    if copies:
        message += f"\n\n{human(copies)}"
    evidence = getattr(item, "evidence", None) or getattr(item, "excerpt", None)
    if evidence:
        message += f"\n\nEvidence: {human(evidence)}"
    result: dict[str, Any] = {
        "path": repo_path(item.path, root) if item.path != "-" else "stdin",
        "start_line": line,
        "end_line": max(item.end_line, line),
        "annotation_level": ANNOTATION_LEVEL[item.severity],
        "message": message[:_TEXT_CAP],
        "title": f"innolint [{item.rule}]",
    }
    fix = getattr(item, "fix", None)
    if fix:
        result["raw_details"] = ("Fix:\n" + human(fix.replace("\r\n", "\n"), keep="\n"))[:_TEXT_CAP]
    return result


def batches(items: Sequence[Any], size: int = ANNOTATIONS_PER_REQUEST) -> list[list[Any]]:
    """`items` in request-sized slices; one empty slice when there are none (the create still goes)."""
    return [list(items[i : i + size]) for i in range(0, len(items), size)] or [[]]


class _TokenScrubber(logging.Filter):
    """Masks the token in PyGithub's log records: its DEBUG log prints response bodies as they
    come, so a server or proxy that echoes the Authorization header would put the token there."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = message.replace(self.token, "***"), None
        return True


def _scrub_logs(token: str) -> None:
    # a filter on a logger sees only that logger's own records, not its children's
    for name in ("github", "github.Requester", "github.GithubRetry"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _TokenScrubber) and f.token == token for f in logger.filters):
            logger.addFilter(_TokenScrubber(token))


def make_client(env: GitHubEnvironment) -> Github:
    """A PyGithub client for `env`, with PyGithub's throttling and retries off (`linter.github.api`
    paces and retries with GitHub's rules, bounded) and the configured base URL."""
    from github import Auth, Github

    from linter import __version__

    if not env.token:
        raise ValueError("no token")
    _scrub_logs(env.token)
    return Github(
        auth=Auth.Token(env.token),
        base_url=env.api_url,
        user_agent=f"innolint/{__version__}",
        seconds_between_requests=None,
        seconds_between_writes=None,
        retry=None,
        lazy=True,
    )


@dataclass
class CheckRunResult:
    """What publishing the check run did: how many annotations went, and what to print instead."""

    url: str | None = None
    annotations_sent: int = 0
    #: whether the check run was concluded (created completed, or completed by the last update)
    concluded: bool = False
    fallback_items: list[Item] = field(default_factory=list)
    note: str | None = None


def annotated(item: Item) -> bool:
    """Whether an item can be a Checks API annotation: it has a file (a usage error has none, an
    audit's `mysql://` table is none); the others are in the summary and the log."""
    return bool(item.path) and not is_url(item.path)


def _interim(total: int, sent: int) -> str:
    return (f"innolint is adding {total:,} annotations to this check run ({sent:,} so far); the summary "
            "comes with the last of them.")


def publish_check_run(
    client: Github, env: GitHubEnvironment, report: Report, options: PublishOptions, root: str | None = None,
    calls: Calls | None = None,
) -> CheckRunResult:
    """Create the check run with the first 50 annotations, add the rest 50 a request, conclude it.

    - At most `ANNOTATION_REQUESTS` requests carry annotations (the most severe findings): GitHub
      allows 500 content-creating requests an hour for everything the token's installation does,
      so a run of 2,000 findings must not spend 40 of them. The summary says how many findings
      have no annotation and where every one is.
    - The full summary (up to 65 KB) goes once, with the conclusion; the requests before it carry a
      one-line summary (`output.summary` is required in each).
    - The check run is always concluded: whatever happens after it was created (an API error, a
      bug), the last request completes it with its conclusion and, in the summary, the reason
      annotations are missing. Only when that request fails too does it stay in progress, and the
      returned note says so.
    - Never raises for GitHub's answers: a refusal (a read-only token, a rate limit innolint will
      not wait out, a server that keeps failing) comes back as `fallback_items` and a `note` naming
      the cause, for workflow commands.
    """
    calls = calls or Calls(scrub=env.scrub)
    items = worst_first([*report.findings, *report.diagnostics])
    wanted = to_annotate(items, options)
    cap = options.annotation_requests * ANNOTATIONS_PER_REQUEST
    chosen, unannotated = wanted[:cap], wanted[cap:]
    annotations = [annotation(item, root) for item in chosen]
    chunks = batches(annotations)
    outcome = conclusion(report, options.fail_level, options.check_status)
    run_title = title(report)
    result = CheckRunResult()
    notes: list[str] = [note for note in (left_unannotated(items, wanted, options),
                                          failing_on_old(report, options, outcome)) if note]
    if unannotated:
        notes.append(
            f"{len(unannotated):,} less severe finding{'s' if len(unannotated) != 1 else ''} have no annotation: "
            f"innolint annotates at most {cap:,} ({options.annotation_requests} requests of {ANNOTATIONS_PER_REQUEST}), as "
            "GitHub allows 500 content-creating requests an hour for the whole installation. "
            f"{options.full_report} lists every one."
        )

    def summary(extra: list[str]) -> str:
        return summary_report.render(
            report, limit=summary_report.CHECK_SUMMARY_LIMIT, fail_level=options.fail_level, blob_url=env.blob_url,
            root=root, notes=[md_text(n) for n in [*extra, *notes]], full_report=options.full_report,
        )

    repo = client.get_repo(env.repository or "")
    external_id = env.run_key
    run: Any = None
    sent = 0
    failure: str | None = None

    def find_created() -> Any:
        """The check run a lost create request made, found by its external_id."""
        for candidate in repo.get_commit(env.sha or "").get_check_runs(check_name=options.check_name):
            if candidate.external_id == external_id:
                return candidate
        return None

    def annotations_reached(count: int, done: bool = False) -> Callable[[], Any]:
        def settled() -> Any:
            current = repo.get_check_run(run.id)
            enough = int((current.output or {}).get("annotations_count", 0) if isinstance(current.output, dict)
                         else getattr(current.output, "annotations_count", 0) or 0) >= count
            return current if enough and (not done or current.status == "completed") else None
        return settled

    create: dict[str, Any] = {"name": options.check_name, "head_sha": env.sha or "", "external_id": external_id}
    try:
        if len(chunks) == 1:  # one request does it all
            create.update(status="completed", conclusion=outcome,
                          output=_output(run_title, summary([]), chunks[0]))
            run = calls.call("create check run", "POST", lambda: repo.create_check_run(**create), payload=create,
                             settled=find_created)
            result.concluded = True
            sent = len(chunks[0])
        else:
            create.update(status="in_progress", output=_output(run_title, _interim(len(annotations), 0), chunks[0]))
            run = calls.call("create check run", "POST", lambda: repo.create_check_run(**create), payload=create,
                             settled=find_created)
            sent = len(chunks[0])
            for chunk in chunks[1:-1]:
                update = {"output": _output(run_title, _interim(len(annotations), sent), chunk)}
                calls.call("add annotations", "PATCH", lambda update=update: run.edit(**update), payload=update,
                           settled=annotations_reached(sent + len(chunk)))
                sent += len(chunk)
    except ApiFailure as error:
        failure = error.reason
        if run is None:  # nothing was created: the log gets the findings, with the cause
            result.fallback_items = wanted
            result.note = (f"innolint could not create a check run: {error.reason}. "
                           f"{_advice(error.kind)}The most severe findings are annotated here instead.")
            return result
    except Exception as error:  # noqa: BLE001 - a bug must not leave the check run in progress
        failure = env.scrub(f"innolint stopped adding annotations ({type(error).__name__}: {error})")
        if run is None:
            result.fallback_items = wanted
            result.note = f"{failure}. The most severe findings are annotated here instead."
            return result
    finally:
        if run is not None and not result.concluded:
            last = chunks[-1] if failure is None else []
            extra = [] if failure is None else [
                f"innolint could add only {sent:,} of {len(annotations):,} annotations: {failure}. "
                "The job summary lists every finding."]
            final = {"status": "completed", "conclusion": outcome, "output": _output(run_title, summary(extra), last)}
            try:
                calls.call("conclude check run", "PATCH", lambda: run.edit(**final), payload=final,
                           settled=annotations_reached(sent + len(last), done=True), final=True)
                result.concluded = True
                sent += len(last)
            except ApiFailure as error:
                result.note = (f"innolint could not conclude its check run: {error.reason}. The check run has the "
                               f"first {sent:,} annotations and stays in progress; the job summary and this log have "
                               f"every finding. {_advice(error.kind)}")
                failure = failure or error.reason
    result.url = getattr(run, "html_url", None)
    result.annotations_sent = sent
    if failure is not None:
        annotated_ids = {id(item) for item in chosen[:sent]}
        result.fallback_items = [item for item in wanted if id(item) not in annotated_ids]
        if result.note is None:
            result.note = (f"innolint added {sent:,} of {len(annotations):,} annotations: {failure}. "
                           f"The check run has the first {sent:,} annotations and is concluded.")
    return result


def failing_on_old(report: Report, options: PublishOptions, outcome: str) -> str | None:
    """Why a check about a change fails when nothing it adds is at or above the fail level: the
    findings already there in the files it edits. Says how to accept them (a baseline)."""
    if outcome != "failure" or (options.check_status or 0) >= 2:
        return None
    items: list[Item] = [*report.findings, *report.diagnostics]
    if not any(item.new is False for item in items):
        return None
    level = options.fail_level or "warning"
    if any(item.new is not False and at_or_above(item.severity, level) for item in items if item.rule != "baseline-gone"):
        return None
    return ("This change adds nothing at or above the fail level: the check fails on findings already there in the "
            "files it edits. To accept today's findings, record a baseline (`innolint check --write-baseline "
            ".innolint-baseline.json`, then `baseline = \".innolint-baseline.json\"` in the configuration, or the "
            "action's `baseline` input): only what a change adds fails after that.")


def _output(run_title: str, summary: str, chunk: list[dict[str, Any]]) -> dict[str, Any]:
    output: dict[str, Any] = {"title": run_title, "summary": summary}
    if chunk:
        output["annotations"] = chunk
    return output


def _advice(kind: str) -> str:
    if kind == "read-only-token":
        return "Pull requests from forks get a read-only token: this is expected there. "
    if kind == "rate-limit":
        return "GitHub's rate limit is shared by every workflow of this repository; re-run the job later. "
    return ""


def token_identity(client: Github, calls: Calls | None = None) -> str:
    """The login the token writes as: a user's token names itself (`GET /user`); an installation
    token gets 403 there (or 401/404 on some servers) and writes as github-actions[bot]."""
    calls = calls or Calls()
    try:
        return str(calls.call("who is the token", "GET", lambda: client.get_user().login))
    except ApiFailure as error:
        if error.status in (401, 403, 404):
            return ACTIONS_BOT
        raise


def upsert_comment(client: Github, env: GitHubEnvironment, body: str, author: str | None = None,
                   calls: Calls | None = None) -> str | None:
    """Edit the pull request's innolint comment, or add one. Returns its URL.

    The comment is ours when it holds the marker and `author` (default: `token_identity`) wrote
    it; a marker in anyone else's comment is ignored (GitHub logins compare without case)."""
    calls = calls or Calls(scrub=env.scrub)
    author = (author or token_identity(client, calls)).lower()
    issue = client.get_repo(env.repository or "").get_issue(env.pr_number or 0)

    def ours() -> Any:
        for comment in issue.get_comments():
            user = comment.user
            if COMMENT_MARKER in (comment.body or "") and user is not None and (user.login or "").lower() == author:
                return comment
        return None

    found = calls.call("find the comment", "GET", ours)
    payload = {"body": body}
    if found is not None:
        calls.call("edit the comment", "PATCH", lambda: found.edit(body), payload=payload)
        return found.html_url
    created = calls.call("add the comment", "POST", lambda: issue.create_comment(body), payload=payload,
                         settled=lambda: (c if (c := ours()) is not None and c.body == body else None))
    return created.html_url


def write_step_summary(path: str, markdown_for: Callable[[int], str]) -> None:
    """Append to `$GITHUB_STEP_SUMMARY` what fits beside what earlier commands of the step wrote."""
    try:
        existing = os.path.getsize(path)
    except OSError:
        existing = 0
    room = summary_report.STEP_SUMMARY_LIMIT - existing - 1024
    if room < 2048:
        return
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(markdown_for(room))


def set_outputs(path: str, values: dict[str, str]) -> None:
    """Step outputs through `$GITHUB_OUTPUT` (single-line values only)."""
    with open(path, "a", encoding="utf-8") as handle:
        for name, value in values.items():
            handle.write(f"{name}={value}\n")


def missing_report(status: int | None, log_path: str | None, problem: str, env: GitHubEnvironment) -> Report:
    """The report to publish when `innolint check` left none (it crashed, or could not start):
    one usage-error holding its exit status and its last words (the end of what it printed on
    standard error, e.g. the exception or argparse's complaint), so the check run, the job summary
    and an error annotation all say why."""
    lines: list[str] = []
    if log_path:
        try:
            with open(log_path, encoding="utf-8", errors="replace") as handle:
                lines = [line.rstrip() for line in handle.read()[-20_000:].splitlines() if line.strip()]
        except OSError:
            lines = []
    status_text = f"exit {status}" if status is not None else "no exit status"
    last = env.scrub(lines[-1].strip()) if lines else "it printed nothing"
    message = f"innolint check stopped ({status_text}) without writing its report: {last}"
    excerpt = env.scrub(" | ".join(lines[-6:]))[:2000] if lines else problem
    return Report(diagnostics=[Diagnostic(rule="usage-error", severity="error", path="", message=message,
                                          excerpt=excerpt)])


def run(
    report: Report,
    options: PublishOptions,
    env: GitHubEnvironment | None = None,
    *,
    client_factory: Callable[[GitHubEnvironment], Github] = make_client,
    out: TextIO | None = None,
    err: TextIO | None = None,
    calls: Calls | None = None,
) -> int:
    """Everything `innolint github` does; returns the exit code (1 when the conclusion is failure).

    Problems with GitHub itself (no token, 403, rate limits, network) are reported, with their
    cause, and never change the exit code: only the findings do (and `check_status`, the exit
    status of `innolint check`: 2 and more make the conclusion failure).
    """
    out = out or sys.stdout
    err = err or sys.stderr
    env = env or GitHubEnvironment.from_environ()
    calls = calls or Calls(scrub=env.scrub)
    root = env.workspace
    outcome = conclusion(report, options.fail_level, options.check_status)
    items: list[Item] = [*report.findings, *report.diagnostics]

    if options.sarif_file:
        from linter.report import sarif

        with open(options.sarif_file, "w", encoding="utf-8") as handle:
            handle.write(sarif.render(report, root=root, max_results=sarif.GITHUB_RESULT_LIMIT))

    # what has no file to annotate (a run that could not start) is an error annotation of the job
    for item in items:
        if not annotated(item) and item.severity == "error":
            out.write(f"::error title={escape_property('innolint [' + item.rule + ']')}::"
                      f"{escape_data(human(item.message, keep=chr(10)))}\n")

    client: Github | None = None
    needs_api = options.annotations == "checks" or options.comment
    missing = [name for name, value in (("GITHUB_TOKEN", env.token), ("GITHUB_REPOSITORY", env.repository)) if not value]
    if needs_api and not missing:
        try:
            client = client_factory(env)
        except Exception as error:  # noqa: BLE001 - PyGithub missing or a bad URL: fall back, say why
            err.write(env.scrub(f"innolint: cannot use the GitHub API ({type(error).__name__}: {error})\n"))

    file_items = to_annotate(worst_first(items), options)
    if options.annotations == "checks":
        if client is None or not env.sha:
            if missing or not env.sha:
                why = f"{', '.join(missing) or 'GITHUB_SHA'} not set"
            else:
                why = "no GitHub API client; is PyGithub installed?"
            note = f"innolint could not create a check run ({why}), so the most severe findings are annotated here instead."
            out.write(render_commands(file_items, root=root, note=note))
        else:
            published = publish_check_run(client, env, report, options, root, calls)
            if published.url:
                state = outcome if published.concluded else "in progress"
                out.write(f"innolint: check run {published.url} with {published.annotations_sent} annotations ({state})\n")
            if published.fallback_items or published.note:
                out.write(render_commands([i for i in published.fallback_items if annotated(i)], root=root,
                                          note=published.note))
            if published.url and not published.concluded:
                out.write(f"::error title=innolint::{escape_data(published.note or 'the check run was not concluded')}\n")
    elif options.annotations == "workflow-commands":
        out.write(render_commands(file_items, root=root))

    old_note = failing_on_old(report, options, outcome)
    if options.summary and env.step_summary:
        write_step_summary(
            env.step_summary,
            lambda room: summary_report.render(report, limit=room, fail_level=options.fail_level, blob_url=env.blob_url,
                                               root=root, notes=[md_text(old_note)] if old_note else ()),
        )

    if options.comment:
        if client is None or env.pr_number is None:
            out.write("::notice title=innolint::No pull-request comment: not a pull_request event, or no token.\n")
        else:
            body = summary_report.render(
                report,
                limit=summary_report.COMMENT_LIMIT - 64,
                fail_level=options.fail_level,
                blob_url=env.blob_url,
                root=root,
                header=COMMENT_MARKER + "\n",
                full_report=options.full_report,
                notes=[md_text(old_note)] if old_note else (),
                existing_rows=False,
            )
            try:
                url = upsert_comment(client, env, body, options.comment_author, calls)
                out.write(f"innolint: pull-request comment {url}\n")
            except ApiFailure as error:
                text = f"Could not write the pull-request comment: {error.reason}."
                if error.kind == "read-only-token" or error.status == 403:
                    text = (f"Could not write the pull-request comment (HTTP {error.status}); it needs "
                            f"`permissions: pull-requests: write`. {error.reason}.")
                out.write(f"::warning title=innolint::{escape_data(env.scrub(text))}\n")
            except Exception as error:  # noqa: BLE001 - a comment is a courtesy: never fail the job for it
                text = f"Could not write the pull-request comment ({type(error).__name__})."
                out.write(f"::warning title=innolint::{escape_data(env.scrub(text))}\n")

    if calls.log:
        out.write(f"innolint: GitHub API: {calls.describe()}\n")
    if env.output:
        outputs = {"findings": str(len(report.findings)), "conclusion": outcome}
        if options.sarif_file:
            outputs["sarif-file"] = options.sarif_file
        set_outputs(env.output, outputs)
    return 1 if outcome == "failure" else 0
