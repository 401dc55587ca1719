"""Terminal output: one line per finding, `path:line:col: severity [rule] message`, the fix below."""

from __future__ import annotations

from collections import Counter

from linter.findings import Finding, Report
from linter.report import copies_text, human, safe_line, valid_unicode


def render(report: Report, *, show_info: bool = True) -> str:
    """Every field from input goes through `human` (a table named "x\\n::error ..." must not
    print a live workflow command when pre-commit runs in CI), every line through `safe_line`."""
    report = valid_unicode(report)
    lines: list[str] = []
    items = sorted([*report.findings, *report.diagnostics], key=lambda item: item.sort_key())
    for item in items:
        if item.severity == "info" and not show_info:
            continue
        lines.append(f"{human(item.path)}:{item.line}:{item.column}: {item.severity} [{item.rule}] {human(item.message)}")
        copies = copies_text(item) if isinstance(item, Finding) else None
        if copies:
            lines.append(f"    copies: {human(copies)}")
        evidence = getattr(item, "evidence", None)
        if evidence:
            lines.append(f"    evidence: {human(evidence)}")
        fix = getattr(item, "fix", None)
        if fix:
            fix_lines = human(fix.replace("\r\n", "\n"), keep="\n").split("\n")
            lines.append(f"    fix: {fix_lines[0]}")
            lines.extend(f"         {line}" for line in fix_lines[1:])
        excerpt = getattr(item, "excerpt", None)
        if excerpt:
            lines.append(f"    statement: {human(excerpt)}")
    lines.append(summary_line(report))
    return "\n".join(safe_line(line) for line in lines) + "\n"


def summary_line(report: Report) -> str:
    by_severity = Counter(f.severity for f in report.findings)
    stats = report.stats
    parts = [f"{by_severity[s]} {s}{'s' if by_severity[s] != 1 and s != 'info' else ''}" for s in ("error", "warning", "info")]
    found = len(report.findings)
    return (
        f"{found} finding{'s' if found != 1 else ''} ({', '.join(parts)}), "
        f"{len(report.diagnostics)} diagnostic{'s' if len(report.diagnostics) != 1 else ''}; "
        f"{stats.files} file{'s' if stats.files != 1 else ''}, {stats.statements} statements, "
        f"{stats.tables} tables in {stats.seconds:.2f}s"
    )
