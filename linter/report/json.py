"""`--format json`: the contract a scoring tool and other programs read (keep the names)."""

from __future__ import annotations

import json

from linter.rules.findings import Report
from linter.report import valid_unicode


def render(report: Report) -> str:
    return json.dumps(valid_unicode(report).to_json(), indent=1, ensure_ascii=False) + "\n"
