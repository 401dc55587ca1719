"""A check's documentation as Markdown: `innolint explain RULE` and docs/rules/RULE.md."""

from __future__ import annotations

from linter.checkapi import Check


def render_rule(check: Check) -> str:
    doc = check.doc
    parts = [
        f"# {check.id}: {check.title}",
        f"Default severity: **{check.severity}**",
        "## Why",
        doc.why,
        "## Evidence",
        doc.evidence,
        "## Bad",
        f"```sql\n{doc.bad}\n```",
        "## Good",
        f"```sql\n{doc.good}\n```",
        "## Fix",
        doc.fix,
    ]
    if doc.options:
        parts.append("## Options")
        parts.extend(f"- `{name}`: {text}" for name, text in doc.options.items())
    return "\n\n".join(parts) + "\n"
