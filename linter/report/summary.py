"""A Markdown summary of a run: the job summary, the check run's summary and the PR comment.

One renderer serves three places with different caps: `$GITHUB_STEP_SUMMARY` (1 MiB per step;
GitHub refuses the whole summary past it: "upload aborted, supports content up to a size of
1024k"), a check run's `output.summary` (65,535 characters) and an issue comment (65,536). The
caller passes the cap; sections are added worst first while they fit, and what did not fit is
counted in a closing note, so the output is always under the cap and never cut mid-row.

Everything that comes from the schema (table names, messages, paths) is text, not Markdown: a
table called `<script>`, `a|b` or ``x`y`` must show as written and must not break the table or
inject HTML. `md_text` escapes it; fixes go in fenced blocks whose fence is longer than any run
of backticks inside.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence
from urllib.parse import quote

from linter.rules.findings import Diagnostic, Finding, Report
from linter.report import human, valid_unicode
from linter.report.github import worst_first
from linter.report.location import repo_path

#: $GITHUB_STEP_SUMMARY's cap per step, in bytes
STEP_SUMMARY_LIMIT = 1024 * 1024
#: a check run's output.summary cap (characters; bytes are never fewer, so a byte budget is safe)
CHECK_SUMMARY_LIMIT = 65_535
#: an issue or pull-request comment's cap
COMMENT_LIMIT = 65_536

SEVERITY_LABEL = {"error": "error", "warning": "warning", "info": "info"}


def _count(n: int, severity: str) -> str:
    """`1 error`, `2 errors`, `3 info`."""
    return f"{n} {severity}{'s' if n != 1 and severity != 'info' else ''}"
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]()|~!#])")
#: what GitHub's Markdown turns into links by itself (GFM's autolink extension): `scheme://`
#: (it looks back from the `:` for http, https or ftp) and `www.`; escaping that `:` or `.`
#: leaves the text as written and stops the link
_AUTOLINK = re.compile(r"(?i)(?<=[a-z]):(?=//)|(?<![a-z0-9])(www)\.")
#: `#123`: GitHub links it to an issue and notes the reference there
_ISSUE_REFERENCE = re.compile(r"#(?=\d)")


def md_text(text: str) -> str:
    """Plain text made safe inside Markdown (and inside a table cell).

    Line breaks become spaces (a table row is one line), other hidden characters are shown as
    escapes (`linter.report.human`), Markdown punctuation is backslash-escaped, `&`, `<` and `>`
    become entities (so no HTML gets through), bare URLs and `www.` names are kept from
    becoming links, and `@` and `#` before a digit are followed by a zero-width space so that a
    name like `@org/team` notifies no one and `#12` references no issue.
    """
    text = human(" ".join(text.splitlines()))
    escaped = _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)
    escaped = _AUTOLINK.sub(lambda m: "\\:" if m.group(1) is None else m.group(1) + "\\.", escaped)
    escaped = escaped.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _no_mentions(escaped)


def _no_mentions(text: str) -> str:
    """A zero-width space after `@` (mentions) and after `#` before a digit (issue references):
    GitHub finds both in the rendered text, where escapes no longer count."""
    return _ISSUE_REFERENCE.sub("#\u200b", text.replace("@", "@\u200b"))


def html_text(text: str) -> str:
    """Plain text made safe inside HTML (the `<summary>` of a fix): hidden characters shown,
    markup escaped, no mentions, issue references or links (a zero-width space after the `:` of
    `scheme://` and after `www`: Markdown's backslash escapes do not work in HTML)."""
    escaped = html.escape(human(" ".join(text.splitlines())))
    escaped = _AUTOLINK.sub(lambda m: ":\u200b" if m.group(1) is None else m.group(1) + "\u200b.", escaped)
    return _no_mentions(escaped)


def md_code_block(code: str, language: str = "sql") -> str:
    """A fenced block that `code` cannot close early: the fence outgrows any backtick run inside."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code.rstrip()}\n{fence}"


class _Budget:
    """Appends parts while they fit in `limit` UTF-8 bytes, keeping `reserve` for the closing note."""

    def __init__(self, limit: int, reserve: int) -> None:
        self.parts: list[str] = []
        self.used = 0
        self.limit = limit
        self.reserve = reserve

    def add(self, text: str, *, force: bool = False) -> bool:
        size = len(text.encode("utf-8"))
        if not force and self.used + size > self.limit - self.reserve:
            return False
        self.parts.append(text)
        self.used += size
        return True


def render(
    report: Report,
    *,
    limit: int = STEP_SUMMARY_LIMIT,
    title: str = "innolint",
    fail_level: str | None = None,
    blob_url: str | None = None,
    root: str | None = None,
    max_rows: int = 100,
    max_fixes: int = 20,
    header: str = "",
    notes: Sequence[str] = (),
    full_report: str = "`innolint check` or the SARIF file",
    existing_rows: bool = True,
) -> str:
    """The summary as Markdown, at most `limit` UTF-8 bytes.

    Short rows (severity, location, rule, table, the message's first sentence), then one
    explanation per rule with a link to its page, then each fix behind a `<details>`: the long
    explanation a finding's message carries is on the rule's page, not repeated in every row.
    `blob_url` (`https://github.com/o/r/blob/SHA`) turns locations into links; `header` is put
    first verbatim (the PR comment's hidden marker); `notes` (Markdown, already escaped) follow
    the headline (what the publisher could not do, and why); `full_report` says where every
    finding is when this summary leaves some out.

    A report about a change (items with `new` set: `--since`, a baseline) is about what the change
    adds or makes worse: those come first, with their rows, rules and fixes; what was there before
    follows in a section of its own, counted by rule, and its rows only with `existing_rows` (the
    PR comment leaves them to the job summary: a one-line edit to a legacy dump must not post a
    comment about 2,000 findings on tables it did not touch).
    """
    report = valid_unicode(report)
    everything = worst_first(report.findings)
    about_change = any(item.new is not None for item in [*report.findings, *report.diagnostics])
    findings = [f for f in everything if f.new is not False]
    existing = [f for f in everything if f.new is False]
    all_diagnostics: list[Diagnostic] = sorted(report.diagnostics, key=lambda d: d.sort_key())
    diagnostics = [d for d in all_diagnostics if d.new is not False]
    old_diagnostics = [d for d in all_diagnostics if d.new is False]
    note_reserve = 400
    quoted = [f"\n> {_bounded(note, 2000)}\n" for note in notes]  # forced in: kept out of the budget
    budget = _Budget(limit, note_reserve + len(header.encode("utf-8")) + sum(len(q.encode("utf-8")) for q in quoted))
    if header:
        budget.add(header, force=True)
    if about_change:
        budget.add(_change_headline(report, title, fail_level, findings, existing, old_diagnostics), force=True)
    else:
        budget.add(_headline(report, title, fail_level), force=True)
    for note in quoted:
        budget.add(note, force=True)
    if findings:
        budget.add(_rule_table(findings))

    left_out: Counter[str] = Counter()
    shown_findings: list[Finding] = []
    if findings:
        heading = "What this change adds or makes worse" if about_change else "Worst findings"
        if budget.add(f"\n### {heading}\n\n| Severity | Location | Rule | Table | Message |\n| --- | --- | --- | --- | --- |\n"):
            for finding in findings[:max_rows]:
                if not budget.add(_finding_row(finding, blob_url, root)):
                    break
                shown_findings.append(finding)
        left_out["findings"] = len(findings) - len(shown_findings)

    explained = list(dict.fromkeys(f.rule for f in shown_findings))
    if explained and budget.add("\n### Rules\n\n"):
        for rule in explained:
            if not budget.add(_rule_explanation(rule)):
                break

    with_fix = [f for f in shown_findings if f.fix][:max_fixes]
    fixes_shown = 0
    if with_fix and budget.add("\n### Fixes\n"):
        for finding in with_fix:
            if not budget.add(_fix_block(finding, root)):
                break
            fixes_shown += 1
    left_out["fixes"] = sum(1 for f in findings if f.fix) - fixes_shown

    shown_diagnostics = 0
    if diagnostics and budget.add(
        "\n### Diagnostics\n\nStatements or inputs innolint could not use; nothing was dropped silently.\n\n"
        "| Severity | Location | Rule | Message |\n| --- | --- | --- | --- |\n"
    ):
        for diagnostic in diagnostics[:max_rows]:
            if not budget.add(_diagnostic_row(diagnostic, blob_url, root)):
                break
            shown_diagnostics += 1
    left_out["diagnostics"] = len(diagnostics) - shown_diagnostics

    if existing or old_diagnostics:
        shown_existing = 0
        what = ", ".join(p for p in (_counted(len(existing), "finding"), _counted(len(old_diagnostics), "diagnostic"))
                         if p)
        if budget.add(f"\n### Already there before this change\n\n{what} in the files this change edits "
                      "predate it (findings on tables it did not create or alter are one level down); they are "
                      "not annotated.\n"):
            if existing:
                budget.add(_rule_table(existing))
            if existing_rows and existing and budget.add(
                    "\n| Severity | Location | Rule | Table | Message |\n| --- | --- | --- | --- | --- |\n"):
                for finding in existing[:max_rows]:
                    if not budget.add(_finding_row(finding, blob_url, root)):
                        break
                    shown_existing += 1
        if existing_rows:
            left_out["findings already there"] = len(existing) - shown_existing

    omitted = [f"{n} {kind}" for kind, n in left_out.items() if n > 0]
    if omitted:
        budget.add(
            f"\n_Not shown here: {', '.join(omitted)} (this summary is kept short for GitHub). "
            f"{full_report} lists every one._\n",
            force=True,
        )
    return "".join(budget.parts)


def _counted(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' if n != 1 else ''}" if n else ""


def _headline(report: Report, title: str, fail_level: str | None) -> str:
    counts = Counter(f.severity for f in report.findings)
    total = len(report.findings)
    files = len({f.path for f in report.findings})
    if total:
        parts = ", ".join(_count(counts[s], s) for s in ("error", "warning", "info") if counts[s])
        line = f"## {md_text(title)}: {total} finding{'s' if total != 1 else ''} ({parts}) in {files} file{'s' if files != 1 else ''}\n"
    else:
        line = f"## {md_text(title)}: no findings\n"
    return line + _detail(report, fail_level)


def _detail(report: Report, fail_level: str | None) -> str:
    stats = report.stats
    detail = (
        f"\n{stats.files} file{'s' if stats.files != 1 else ''}, {stats.statements} statements, "
        f"{stats.tables} tables linted; {len(report.diagnostics)} diagnostic{'s' if len(report.diagnostics) != 1 else ''}"
    )
    if fail_level:
        detail += f"; fails at `{fail_level}`" if fail_level != "none" else "; never fails"
    return detail + ".\n"


def _change_headline(report: Report, title: str, fail_level: str | None, added: Sequence[Finding],
                     existing: Sequence[Finding], old_diagnostics: Sequence[Diagnostic]) -> str:
    counts = Counter(f.severity for f in added)
    if added:
        parts = ", ".join(_count(counts[s], s) for s in ("error", "warning", "info") if counts[s])
        line = (f"## {md_text(title)}: {len(added):,} finding{'s' if len(added) != 1 else ''} this change adds or "
                f"makes worse ({parts})")
    else:
        line = f"## {md_text(title)}: nothing new in this change"
    before = len(existing) + len(old_diagnostics)
    if before:
        line += f"; {before:,} already there"
    return line + "\n" + _detail(report, fail_level)


def _rule_table(findings: Sequence[Finding]) -> str:
    by_rule: dict[str, Counter[str]] = {}
    for finding in findings:
        by_rule.setdefault(finding.rule, Counter())[finding.severity] += 1
    rows = ["\n| Rule | Errors | Warnings | Info | Total |", "| --- | ---: | ---: | ---: | ---: |"]
    ordered = sorted(by_rule.items(), key=lambda kv: (-kv[1]["error"], -kv[1]["warning"], -sum(kv[1].values()), kv[0]))
    for rule, counts in ordered:
        rows.append(
            f"| {md_text(rule)} | {counts['error']} | {counts['warning']} | {counts['info']} | {sum(counts.values())} |"
        )
    return "\n".join(rows) + "\n"


def _location(item: Finding | Diagnostic, blob_url: str | None, root: str | None) -> str:
    path = repo_path(item.path, root)
    if not path:
        return "-"  # about the run, not a file (a usage error)
    text = md_text(f"{path}:{item.line}" if item.line >= 1 else path)
    if blob_url and path and path != "-" and not path.startswith("/"):
        anchor = f"#L{item.line}" if item.line >= 1 else ""
        return f"[{text}]({blob_url.rstrip('/')}/{quote(path)}{anchor})"
    return text


#: the longest message a row shows; the rest is on the rule's page and in the annotation
ROW_MESSAGE_CHARS = 160
_SENTENCE_END = re.compile(r"[.;](?=\s)")


def one_line(message: str, width: int = ROW_MESSAGE_CHARS) -> str:
    """A message's first sentence (to its first `.` or `;` before a space), at most `width`
    characters, cut at a word with `…` when longer."""
    text = " ".join(message.split())
    end = _SENTENCE_END.search(text)
    if end is not None:
        text = text[: end.start() + 1].rstrip(";") + ("" if text[end.start()] == "." else " …")
    if len(text) <= width:
        return text
    cut = text.rfind(" ", 0, width - 1)
    return text[: cut if cut > width // 2 else width - 1].rstrip(" ,:;") + "…"


def _bounded(text: str, width: int) -> str:
    """`text` on one line, cut at `width` characters with `…` (a diagnostic says its reason whole)."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _rule_cell(rule: str) -> str:
    from linter.rules.docs import rule_page_url

    page = rule_page_url(rule)
    return f"[{md_text(rule)}]({page})" if page else md_text(rule)


def _finding_row(finding: Finding, blob_url: str | None, root: str | None) -> str:
    table = ".".join(p for p in (finding.schema, finding.table) if p) or ""
    if finding.count > 1:
        table += f" (+{finding.count - 1:,} tenant schemas)"
    return (
        f"| {SEVERITY_LABEL[finding.severity]} | {_location(finding, blob_url, root)} | {_rule_cell(finding.rule)} | "
        f"{md_text(table)} | {md_text(one_line(finding.message))} |\n"
    )


def _diagnostic_row(diagnostic: Diagnostic, blob_url: str | None, root: str | None) -> str:
    return (
        f"| {SEVERITY_LABEL[diagnostic.severity]} | {_location(diagnostic, blob_url, root)} | "
        f"{md_text(diagnostic.rule)} | {md_text(_bounded(diagnostic.message, 600))} |\n"
    )


def _rule_explanation(rule: str) -> str:
    """One paragraph for a rule: its title, why it matters (first sentence), where to read more."""
    from checks import ENGINE_RULES, check_by_id
    from linter.rules.docs import rule_page_url

    check = check_by_id(rule)
    if check is not None:
        text = f"{check.title}. {one_line(check.doc.why, 300)}"
    else:
        text = ENGINE_RULES.get(rule, rule)
    page = rule_page_url(rule)
    more = f" [Rule page]({page})" if page else f" `innolint explain {md_text(rule)}` says more."
    return f"- **{md_text(rule)}**: {md_text(text)}{more}\n"


def _fix_block(finding: Finding, root: str | None) -> str:
    place = f"{repo_path(finding.path, root)}:{finding.line}"
    table = ".".join(p for p in (finding.schema, finding.table) if p)
    if finding.count > 1:
        table += f" and {finding.count - 1:,} more tenant schemas"
    label = html_text(f"{finding.rule} — {table} ({place})" if table else f"{finding.rule} ({place})")
    code = human((finding.fix or "").replace("\r\n", "\n"), keep="\n")  # shown, not run: no hidden characters
    return f"\n<details><summary>{label}</summary>\n\n{md_code_block(code)}\n\n</details>\n"
