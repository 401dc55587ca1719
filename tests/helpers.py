"""Helpers for tests: lint SQL text through the real pipeline (split, parse, replay, checks)."""

from __future__ import annotations

from pathlib import Path

from linter.rules.checkapi import CheckContext
from linter.engine import lint_paths
from linter.rules.findings import Finding, Report
from linter.schema.target import Target

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / ".." / "shared"
CORPUS = SHARED / "corpus"


def lint_sql(sql: str, tmp_path: Path, *, target: str = "mysql-8.0", name: str = "schema.sql", **context: object) -> Report:
    path = tmp_path / name
    path.write_text(sql, encoding="utf-8")
    return lint_paths([str(path)], CheckContext(target=Target.parse(target), **context))  # type: ignore[arg-type]


def findings(report: Report, rule: str) -> list[Finding]:
    return [f for f in report.findings if f.rule == rule]
