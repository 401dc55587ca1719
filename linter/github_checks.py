"""Publish a report to GitHub: a check run with every annotation, the job summary, a PR comment.

This is what `innolint github REPORT.json` does (the action runs `innolint check --format json`
first, then this). It reads the report only, never the SQL.

- Check run (Checks API, through PyGithub): one run named `innolint` on the pull request's head
  commit (not `$GITHUB_SHA`, which on `pull_request` is a merge commit no one looks at). The API
  takes at most 50 annotations per request, so the first 50 go with the create call and the rest
  in further updates of the same run, which GitHub appends; the run is completed, with its
  conclusion, by the last request. This is how every finding gets an annotation, past the 10 per
  step and 50 per job that workflow commands are held to.
- When the token cannot write checks (pull requests from forks get a read-only token and the API
  answers 403), the most severe findings become workflow commands within those caps, a notice says
  how many more there are, and the job is not failed for the missing permission: the exit code
  still depends on the findings only.
- Job summary: Markdown appended to `$GITHUB_STEP_SUMMARY`, under GitHub's 1 MiB per step.
- PR comment (optional): one comment, found again by a hidden marker and edited in place, under
  GitHub's 65,536 characters. Anyone who can comment can paste the marker, and a token with
  `pull-requests: write` may edit others' comments: so only a comment written by the token's own
  identity is edited. A user's token names itself (`GET /user`); an installation token (the
  Actions GITHUB_TOKEN, a GitHub App's) cannot read /user and writes as `github-actions[bot]`
  (`--comment-author` names another App's bot).

PyGithub waits about a second between writes by default (`seconds_between_writes=1.0`) to be kind
to the secondary rate limits; three or four writes per run do not need that, so the client is made
with both throttles off. The base URL is configurable (`$GITHUB_API_URL`, set by Actions on GitHub
Enterprise Server too). The token is read from the environment only (never an argument, which
would show in process lists and logs), kept out of reprs, and scrubbed from any error text printed.
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

from linter.findings import Diagnostic, Finding, Report, at_or_above
from linter.report import human
from linter.report import summary as summary_report
from linter.report.github import escape_data, render_commands, worst_first
from linter.report.location import repo_path

if TYPE_CHECKING:
    from github import Github

CHECK_NAME = "innolint"
#: the Checks API's cap on annotations per create or update request
ANNOTATIONS_PER_REQUEST = 50
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


@dataclass
class PublishOptions:
    """What to publish, as chosen on the command line or in the action's inputs."""

    fail_level: str = "warning"
    annotations: str = "checks"  # checks | workflow-commands | none
    summary: bool = True
    comment: bool = False
    sarif_file: str | None = None
    check_name: str = CHECK_NAME
    #: whose comment to edit; None: the token's own identity (`token_identity`)
    comment_author: str | None = None


def conclusion(report: Report, fail_level: str) -> str:
    """failure: something at or above the fail level; neutral: findings below it; success: none."""
    items: list[Item] = [*report.findings, *report.diagnostics]
    if fail_level != "none" and any(at_or_above(item.severity, fail_level) for item in items):
        return "failure"
    return "neutral" if items else "success"


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
    """A PyGithub client for `env`, with write throttling off and the configured base URL."""
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
        lazy=True,
    )


@dataclass
class CheckRunResult:
    """What publishing the check run did: how many annotations went, and what to print instead."""

    url: str | None = None
    annotations_sent: int = 0
    requests: int = 0
    fallback_items: list[Item] = field(default_factory=list)
    note: str | None = None


def publish_check_run(
    client: Github, env: GitHubEnvironment, report: Report, options: PublishOptions, root: str | None = None
) -> CheckRunResult:
    """Create the check run with the first 50 annotations, then update it with the rest.

    Never raises for GitHub's answers: a refusal (403 from a read-only token, or anything else)
    comes back as `fallback_items` and a `note` saying why, for workflow commands.
    """
    from github import GithubException

    everything: list[Item] = [*report.findings, *report.diagnostics]
    items = worst_first(everything)
    annotations = [annotation(item, root) for item in items]
    chunks = batches(annotations)
    outcome = conclusion(report, options.fail_level)
    output = {
        "title": title(report),
        "summary": summary_report.render(
            report, limit=summary_report.CHECK_SUMMARY_LIMIT, fail_level=options.fail_level, blob_url=env.blob_url, root=root
        ),
    }
    result = CheckRunResult()

    def with_annotations(chunk: list[dict[str, Any]]) -> dict[str, Any]:
        return {**output, "annotations": chunk} if chunk else dict(output)

    create: dict[str, Any] = {"name": options.check_name, "head_sha": env.sha or "", "output": with_annotations(chunks[0])}
    if len(chunks) == 1:
        create.update(status="completed", conclusion=outcome)
    else:
        create.update(status="in_progress")
    try:
        repo = client.get_repo(env.repository or "")
        run = repo.create_check_run(**create)
    except GithubException as error:
        result.fallback_items = items
        result.note = env.scrub(_refusal("create a check run", error))
        return result
    except Exception as error:  # network trouble: say so, never fail the job for it  # noqa: BLE001
        result.fallback_items = items
        result.note = env.scrub(f"innolint could not reach the GitHub API to create a check run ({type(error).__name__}).")
        return result
    result.requests = 1
    result.annotations_sent = len(chunks[0])
    result.url = getattr(run, "html_url", None)
    for number, chunk in enumerate(chunks[1:], start=2):
        update: dict[str, Any] = {"output": with_annotations(chunk)}
        if number == len(chunks):
            update.update(status="completed", conclusion=outcome)
        try:
            run.edit(**update)
        except Exception as error:  # noqa: BLE001
            result.fallback_items = items[result.annotations_sent :]
            reason = _refusal("update the check run", error) if isinstance(error, GithubException) else (
                f"innolint could not reach the GitHub API to update the check run ({type(error).__name__})."
            )
            result.note = env.scrub(f"{reason} The check run has the first {result.annotations_sent} annotations.")
            return result
        result.requests += 1
        result.annotations_sent += len(chunk)
    return result


def _refusal(action: str, error: Any) -> str:
    status = getattr(error, "status", None)
    data = getattr(error, "data", None)
    said = data.get("message") if isinstance(data, dict) else None
    if status == 403:
        why = "the token may not write checks (pull requests from forks get a read-only token; the workflow needs `permissions: checks: write`)"
    elif status == 404:
        why = "the repository or commit was not found with this token"
    else:
        why = "GitHub refused"
    return f"innolint could not {action} (HTTP {status}{': ' + said if said else ''}; {why}), so the most severe findings are annotated here instead."


def token_identity(client: Github) -> str:
    """The login the token writes as: a user's token names itself (`GET /user`); an installation
    token gets 403 there (or 401/404 on some servers) and writes as github-actions[bot]."""
    from github import GithubException

    try:
        return str(client.get_user().login)
    except GithubException as error:
        if error.status in (401, 403, 404):
            return ACTIONS_BOT
        raise


def upsert_comment(client: Github, env: GitHubEnvironment, body: str, author: str | None = None) -> str | None:
    """Edit the pull request's innolint comment, or add one. Returns its URL.

    The comment is ours when it holds the marker and `author` (default: `token_identity`) wrote
    it; a marker in anyone else's comment is ignored (GitHub logins compare without case)."""
    author = (author or token_identity(client)).lower()
    repo = client.get_repo(env.repository or "")
    issue = repo.get_issue(env.pr_number or 0)
    for comment in issue.get_comments():
        user = comment.user
        if COMMENT_MARKER in (comment.body or "") and user is not None and (user.login or "").lower() == author:
            comment.edit(body)
            return comment.html_url
    return issue.create_comment(body).html_url


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


def run(
    report: Report,
    options: PublishOptions,
    env: GitHubEnvironment | None = None,
    *,
    client_factory: Callable[[GitHubEnvironment], Github] = make_client,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Everything `innolint github` does; returns the exit code (1 when the conclusion is failure).

    Problems with GitHub itself (no token, 403, network) are reported and never change the exit
    code: only the findings do.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    env = env or GitHubEnvironment.from_environ()
    root = env.workspace
    outcome = conclusion(report, options.fail_level)
    items: list[Item] = [*report.findings, *report.diagnostics]

    if options.sarif_file:
        from linter.report import sarif

        with open(options.sarif_file, "w", encoding="utf-8") as handle:
            handle.write(sarif.render(report, root=root, max_results=sarif.GITHUB_RESULT_LIMIT))

    client: Github | None = None
    needs_api = options.annotations == "checks" or options.comment
    missing = [name for name, value in (("GITHUB_TOKEN", env.token), ("GITHUB_REPOSITORY", env.repository)) if not value]
    if needs_api and not missing:
        try:
            client = client_factory(env)
        except Exception as error:  # noqa: BLE001 - PyGithub missing or a bad URL: fall back, say why
            err.write(env.scrub(f"innolint: cannot use the GitHub API ({type(error).__name__}: {error})\n"))

    if options.annotations == "checks":
        if client is None or not env.sha:
            if missing or not env.sha:
                why = f"{', '.join(missing) or 'GITHUB_SHA'} not set"
            else:
                why = "no GitHub API client; is PyGithub installed?"
            note = f"innolint could not create a check run ({why}), so the most severe findings are annotated here instead."
            out.write(render_commands(items, root=root, note=note))
        else:
            published = publish_check_run(client, env, report, options, root)
            if published.url:
                out.write(f"innolint: check run {published.url} with {published.annotations_sent} annotations ({outcome})\n")
            if published.fallback_items or published.note:
                out.write(render_commands(published.fallback_items, root=root, note=published.note))
    elif options.annotations == "workflow-commands":
        out.write(render_commands(items, root=root))

    if options.summary and env.step_summary:
        write_step_summary(
            env.step_summary,
            lambda room: summary_report.render(report, limit=room, fail_level=options.fail_level, blob_url=env.blob_url, root=root),
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
            )
            try:
                url = upsert_comment(client, env, body, options.comment_author)
                out.write(f"innolint: pull-request comment {url}\n")
            except Exception as error:  # noqa: BLE001 - a read-only token cannot comment either
                status = getattr(error, "status", None)
                text = f"Could not write the pull-request comment (HTTP {status}); it needs `permissions: pull-requests: write`."
                out.write(f"::warning title=innolint::{escape_data(env.scrub(text))}\n")

    if env.output:
        outputs = {"findings": str(len(report.findings)), "conclusion": outcome}
        if options.sarif_file:
            outputs["sarif-file"] = options.sarif_file
        set_outputs(env.output, outputs)
    return 1 if outcome == "failure" else 0

