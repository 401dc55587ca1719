"""Helpers for tests: lint SQL text through the real pipeline (split, parse, replay, checks)."""

from __future__ import annotations

from pathlib import Path

from linter.rules.checkapi import CheckContext
from linter.engine import lint_paths
from linter.rules.findings import Finding, Report
from linter.schema.target import Target

from tests.shared import CORPUS, SHARED  # noqa: F401  (the tests' names for ../shared: tests/shared.py)

ROOT = Path(__file__).resolve().parents[1]


def lint_sql(sql: str, tmp_path: Path, *, target: str = "mysql-8.0", name: str = "schema.sql", **context: object) -> Report:
    path = tmp_path / name
    path.write_text(sql, encoding="utf-8")
    return lint_paths([str(path)], CheckContext(target=Target.parse(target), **context))  # type: ignore[arg-type]


def findings(report: Report, rule: str) -> list[Finding]:
    return [f for f in report.findings if f.rule == rule]


def clean_findings(sql: str, tmp_path: Path, rule: str, *, target: str = "mariadb-10.11", **context: object) -> list[Finding]:
    """`rule`'s findings on `sql`, which must parse and replay without a diagnostic (so that an
    absent finding means the rule said nothing, not that the table was lost)."""
    report = lint_sql(sql, tmp_path, target=target, **context)
    assert not [d for d in report.diagnostics if d.rule in ("parse-error", "replay-error")], report.diagnostics
    return findings(report, rule)
