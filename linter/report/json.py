"""`--format json`: the contract a scoring tool and other programs read (keep the names)."""

from __future__ import annotations

from linter.rules.findings import Report
from linter.report import valid_unicode


def render(report: Report) -> str:
    return valid_unicode(report).model_dump_json(by_alias=True, indent=1) + "\n"
