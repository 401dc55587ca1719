"""The JSON report as another program hands it back: `innolint github --report FILE` reads what
`innolint check --format json` wrote (`Report.to_json`), possibly from another machine or
version. The one place the report crosses a boundary inward, so the one place it is validated
(pydantic, imported only here): a field of the wrong type is an error naming it, never a crash in
the middle of publishing."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from linter.rules.findings import Diagnostic, Finding, Report, RunStats

_Severity = Literal["error", "warning", "info"]


class _FindingIn(BaseModel):
    model_config = ConfigDict(populate_by_name=True, frozen=True)

    rule: str
    severity: _Severity
    path: str
    line: int
    column: int = 1
    end_line: int = 0
    schema_: str | None = Field(default=None, alias="schema")
    table: str | None = None
    message: str
    summary: str | None = None
    evidence: str | None = None
    fix: str | None = None
    subject: str | None = None
    count: int = Field(default=1, ge=1)
    schemas: tuple[str, ...] = ()
    new: bool | None = None


class _DiagnosticIn(BaseModel):
    rule: str
    severity: _Severity = "warning"
    path: str
    line: int = 0
    column: int = 1
    end_line: int = 0
    message: str
    excerpt: str | None = None
    new: bool | None = None


class _StatsIn(BaseModel):
    files: int = 0
    statements: int = 0
    tables: int = 0
    bytes: int = 0
    seconds: float = 0.0


class _ReportIn(BaseModel):
    version: int = 1
    findings: list[_FindingIn] = Field(default_factory=list)
    diagnostics: list[_DiagnosticIn] = Field(default_factory=list)
    stats: _StatsIn = Field(default_factory=_StatsIn)


def read_report(text: str) -> Report:
    """The report in `text` (JSON); raises pydantic.ValidationError naming what is wrong."""
    given = _ReportIn.model_validate_json(text)
    findings = [
        Finding(rule=f.rule, severity=f.severity, path=f.path, line=f.line, column=f.column, end_line=f.end_line,
                schema=f.schema_, table=f.table, message=f.message, summary=f.summary, evidence=f.evidence, fix=f.fix,
                subject=f.subject, count=f.count, schemas=f.schemas, new=f.new)
        for f in given.findings
    ]
    diagnostics = [
        Diagnostic(rule=d.rule, severity=d.severity, path=d.path, line=d.line, column=d.column, end_line=d.end_line,
                   message=d.message, excerpt=d.excerpt, new=d.new)
        for d in given.diagnostics
    ]
    stats = given.stats
    return Report(findings, diagnostics, RunStats(stats.files, stats.statements, stats.tables, stats.bytes,
                                                  stats.seconds), version=given.version)
