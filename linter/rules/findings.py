"""Finding and Diagnostic: the one shape every reporter reads.

A finding is a design problem in the schema; a diagnostic is a problem with the input itself
(a statement that could not be understood, an unreadable file, an unused suppression). Both carry
file and line so that a person, an editor or GitHub can jump to the place.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}


class Finding(BaseModel):
    """One problem in the schema, where it was introduced, and the SQL that fixes it."""

    model_config = ConfigDict(populate_by_name=True, frozen=True)

    rule: str
    severity: Severity
    path: str
    line: int
    column: int = 1
    end_line: int = 0
    schema_: str | None = Field(default=None, alias="schema")
    table: str | None = None
    message: str
    #: the message's point in one short sentence (names included), for one line of terminal
    #: output: `message` explains, with numbers and trade-offs; None: the text report cuts the
    #: message at its first sentence
    summary: str | None = None
    evidence: str | None = None
    fix: str | None = None
    #: what the finding is about within the table (a column, a key): part of the baseline
    #: fingerprint, so edits above a statement do not change it
    subject: str | None = None
    #: One problem, one finding (`linter.rules.grouping`): in a schema-per-tenant layout the same table
    #: definition repeated in many tenant schemas has one problem, not one per tenant, so the
    #: copies that share rule, severity, subject and definition become ONE finding.
    #: `count`: how many tables this finding stands for (1: this table only).
    #: `schemas`: the tenant schemas holding them, in input order, this finding's own `schema`
    #: first, at most `GROUP_NAMES_KEPT` names (`count - len(schemas)` more are not named); empty
    #: when the table is not in a tenant schema (a tenant table with no copy has its own name).
    #: path, line, schema, table, message, evidence and fix are the first copy's: the fix names
    #: that schema and is to be run in each of the `count` schemas. Renderers say "and N more".
    count: int = Field(default=1, ge=1)
    schemas: tuple[str, ...] = ()

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.rule)


#: how many tenant schema names a grouped finding keeps (`Finding.schemas`); the rest are counted
GROUP_NAMES_KEPT = 20


class Diagnostic(BaseModel):
    """A problem with the input: parse errors, unreadable files, unused suppressions."""

    model_config = ConfigDict(frozen=True)

    rule: str  # parse-error, replay-error, io-error, unused-suppression, usage-error, ...
    severity: Severity = "warning"
    path: str
    line: int = 0
    column: int = 1
    end_line: int = 0
    message: str
    excerpt: str | None = None

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.rule)


class RunStats(BaseModel):
    files: int = 0
    statements: int = 0
    tables: int = 0
    bytes: int = 0
    seconds: float = 0.0


def _empty_list() -> list[Any]:
    """A default factory; not `list` itself: pydantic reads a factory's signature, and for a
    builtin that compiles the tokenizer's regular expressions (~15 ms of a short run)."""
    return []


class Report(BaseModel):
    """Everything one run produced: the JSON contract of `innolint check --format json`."""

    version: int = 1
    findings: list[Finding] = Field(default_factory=_empty_list)
    diagnostics: list[Diagnostic] = Field(default_factory=_empty_list)
    stats: RunStats = Field(default_factory=RunStats)


def at_or_above(severity: str, level: str) -> bool:
    return SEVERITY_RANK[severity] >= SEVERITY_RANK[level]
