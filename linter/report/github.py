"""`--format github`: GitHub Actions workflow commands (`::error file=...,line=...::message`).

The runner turns each command into an annotation on the run and, for files in the pull request,
on the diff. It shows only a few of them: at most 10 error, 10 warning and 10 notice annotations
per step and 50 per job (actions/toolkit docs/problem-matchers.md, "Limitations"); the rest are
dropped without a word. So the most severe findings go first, within those caps, and when some do
not fit one notice says how many and the log lists every one of them as plain text (inside
`::stop-commands::`, so text from a schema can never be read as a command). The Checks API
publisher (`linter.github.check_runs`) has no such caps and uses this module only as its fallback.

Escaping follows the runner's own rules (actions/toolkit `command.ts`): in the message `%`, CR and
LF become `%25`, `%0D`, `%0A`; in properties `:` and `,` become `%3A` and `%2C` as well, since
they separate the properties.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TypeVar

from linter.rules.findings import SEVERITY_RANK, Diagnostic, Finding, Report
from linter.report import copies_text, human, safe_line, valid_unicode
from linter.report.location import repo_path

#: annotations GitHub shows per step for each of error, warning and notice
PER_STEP_PER_LEVEL = 10
#: annotations GitHub shows per job, all steps and levels together
PER_JOB = 50
#: workflow command for each severity
COMMAND = {"error": "error", "warning": "warning", "info": "notice"}

Item = Finding | Diagnostic
AnyItem = TypeVar("AnyItem", Finding, Diagnostic, Finding | Diagnostic)


def escape_data(text: str) -> str:
    """Escape a command's message (after `::`): `%`, CR, LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (`file=`, `title=`): also `:` and `,`, which delimit properties."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def worst_first(items: Iterable[AnyItem]) -> list[AnyItem]:
    """Most severe first, then by place: the order in which annotations are worth GitHub's caps."""
    return sorted(items, key=lambda item: (-SEVERITY_RANK[item.severity], *item.sort_key()))


def annotation_message(item: Item) -> str:
    """The annotation's text: the message, then the evidence and the fixing SQL when there are
    (each through `human`: GitHub shows it to people)."""
    # CR and LF stay: `escape_data` writes them as %0D and %0A, and the annotation shows them as
    # line breaks, where they start no command
    breaks = "\r\n"
    parts = [human(item.message, keep=breaks)]
    copies = copies_text(item) if isinstance(item, Finding) else None
    if copies:
        parts.append(human(copies, keep=breaks))
    evidence = getattr(item, "evidence", None)
    if evidence:
        parts.append("Evidence: " + human(evidence, keep=breaks))
    fix = getattr(item, "fix", None)
    if fix:
        parts.append("Fix:\n" + human(fix, keep=breaks))
    excerpt = getattr(item, "excerpt", None)
    if excerpt:
        parts.append("Statement: " + human(excerpt, keep=breaks))
    return "\n\n".join(parts)


def annotation_command(item: Item, *, root: str | None = None) -> str:
    """One workflow command for one finding or diagnostic."""
    properties: list[tuple[str, str]] = []
    if item.path and item.path != "-":
        properties.append(("file", human(repo_path(item.path, root))))
        if item.line >= 1:
            properties.append(("line", str(item.line)))
            if item.end_line > item.line:
                properties.append(("endLine", str(item.end_line)))
            elif item.column >= 1:
                properties.append(("col", str(item.column)))
    properties.append(("title", f"innolint [{item.rule}]"))
    rendered = ",".join(f"{name}={escape_property(value)}" for name, value in properties)
    return f"::{COMMAND[item.severity]} {rendered}::{escape_data(annotation_message(item))}"


def choose_annotated(
    items: Sequence[Item], *, per_step: int = PER_STEP_PER_LEVEL, per_job: int = PER_JOB
) -> tuple[list[Item], list[Item]]:
    """Split `items` (worst first) into those GitHub will show and those it would drop.

    When something is left over, one notice slot and one job slot are kept free for the notice
    that says so, so that the notice itself is never the annotation GitHub drops.
    """

    def pick(notice_cap: int, job_cap: int) -> tuple[list[Item], list[Item]]:
        used: Counter[str] = Counter()
        shown: list[Item] = []
        dropped: list[Item] = []
        for item in items:
            command = COMMAND[item.severity]
            cap = notice_cap if command == "notice" else per_step
            if used[command] < cap and len(shown) < job_cap:
                used[command] += 1
                shown.append(item)
            else:
                dropped.append(item)
        return shown, dropped

    shown, dropped = pick(per_step, per_job)
    if dropped:
        shown, dropped = pick(per_step - 1, per_job - 1)
    return shown, dropped


def render_commands(
    items: Iterable[Item],
    *,
    root: str | None = None,
    per_step: int = PER_STEP_PER_LEVEL,
    per_job: int = PER_JOB,
    note: str | None = None,
) -> str:
    """Workflow commands for the worst items within the caps, a notice for the rest, and the rest.

    `note` is said first, in the notice, when there is a reason these are workflow commands at all
    (the Checks API refused).
    """
    ordered = worst_first(items)
    shown, dropped = choose_annotated(ordered, per_step=per_step, per_job=per_job)
    lines = [annotation_command(item, root=root) for item in shown]
    if dropped:
        counts = Counter(item.severity for item in dropped)
        kinds = ", ".join(f"{counts[s]} {s}" for s in ("error", "warning", "info") if counts[s])
        text = (
            f"{len(dropped)} more finding{'s' if len(dropped) != 1 else ''} ({kinds}) not annotated: GitHub shows "
            f"at most {per_step} error, {per_step} warning and {per_step} notice annotations per step and "
            f"{per_job} per job. The log below and the job summary list every one."
        )
        if note:
            text = f"{note} {text}"
        lines.append(f"::notice title={escape_property('innolint')}::{escape_data(text)}")
        lines.extend(_plain_listing(dropped, root=root))
    elif note:
        lines.append(f"::notice title={escape_property('innolint')}::{escape_data(note)}")
    return "\n".join(lines) + ("\n" if lines else "")


def _plain_listing(items: Sequence[Item], *, root: str | None) -> list[str]:
    """Items as plain log lines, with command processing stopped so no text can act as a command."""
    token = secrets.token_hex(16)
    lines = [f"::stop-commands::{token}"]
    for item in items:
        place = f"{human(repo_path(item.path, root))}:{item.line}:{item.column}"
        message = item.message.replace("\r", " ").replace("\n", " ")
        lines.append(safe_line(f"{place}: {item.severity} [{item.rule}] {human(message)}"))
    lines.append(f"::{token}::")
    return lines


def render(report: Report) -> str:
    """`innolint check --format github`: the commands, then the one-line summary as plain text."""
    from linter.report.text import summary_line

    report = valid_unicode(report)
    commands = render_commands([*report.findings, *report.diagnostics])
    return commands + summary_line(report) + "\n"
