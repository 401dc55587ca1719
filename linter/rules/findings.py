"""Finding and Diagnostic: the one shape every reporter reads.

A finding is a design problem in the schema; a diagnostic is a problem with the input itself
(a statement that could not be understood, an unreadable file, an unused suppression). Both carry
file and line so that a person, an editor or GitHub can jump to the place.

Plain slotted records, not pydantic models: a run builds one per finding (a tenant dump checked
table by table once built 80,000), and a pre-commit run imports this module whatever it finds.
The JSON contract (`innolint check --format json`, read back by `innolint github`) is written by
`Report.to_json` and validated where it is read (`linter.report.contract`), the one boundary
that needs a schema.
"""

from __future__ import annotations

from typing import Any, Literal

from linter.record import FrozenRecord, Record

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)


class Finding(FrozenRecord):
    """One problem in the schema, where it was introduced, and the SQL that fixes it.

    `summary`: the message's point in one short sentence (names included), for one line of
    terminal output: `message` explains, with numbers and trade-offs; None: the text report cuts
    the message at its first sentence. `subject`: what the finding is about within the table (a
    column, a key): part of the baseline fingerprint, so edits above a statement do not change it.

    One problem, one finding (`linter.rules.copies`, `linter.rules.grouping`): in a
    schema-per-tenant layout the same table definition repeated in many tenant schemas has one
    problem, not one per tenant. `count`: how many tables this finding stands for (1: this table
    only). `schemas`: the tenant schemas holding them, in input order, this finding's own `schema`
    first, at most `GROUP_NAMES_KEPT` names (`count - len(schemas)` more are not named); empty when
    the table is not in a tenant schema. path, line, schema, table, message, evidence and fix are
    the first copy's: the fix names that schema and is to be run in each of the `count` schemas.
    Renderers say "and N more".

    `new`: in a run about a change (`--since`, `--changed-only` against git, a baseline), whether
    the change adds this finding or makes it worse (True), or it was there before at least as
    severe (False); None when the run compared nothing. The pull-request check annotates the new
    ones and counts the rest in its summary."""

    __slots__ = __match_args__ = (
        "rule", "severity", "path", "line", "column", "end_line", "schema", "table", "message", "summary",
        "evidence", "fix", "subject", "count", "schemas", "new",
    )
    rule: str
    severity: Severity
    path: str
    line: int
    column: int
    end_line: int
    schema: str | None
    table: str | None
    message: str
    summary: str | None
    evidence: str | None
    fix: str | None
    subject: str | None
    count: int
    schemas: tuple[str, ...]
    new: bool | None

    def __init__(
        self, *, rule: str, severity: Severity, path: str, line: int, message: str, column: int = 1,
        end_line: int = 0, schema: str | None = None, table: str | None = None, summary: str | None = None,
        evidence: str | None = None, fix: str | None = None, subject: str | None = None, count: int = 1,
        schemas: tuple[str, ...] = (), new: bool | None = None,
    ) -> None:
        if severity not in SEVERITY_RANK:
            raise ValueError(f"not a severity: {severity!r}")
        if count < 1:
            raise ValueError(f"a finding stands for at least one table, not {count}")
        _set(self, "rule", rule)
        _set(self, "severity", severity)
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "end_line", end_line)
        _set(self, "schema", schema)
        _set(self, "table", table)
        _set(self, "message", message)
        _set(self, "summary", summary)
        _set(self, "evidence", evidence)
        _set(self, "fix", fix)
        _set(self, "subject", subject)
        _set(self, "count", count)
        _set(self, "schemas", tuple(schemas))
        _set(self, "new", new)

    def replace(self, **changes: Any) -> Finding:
        """A copy with these fields changed."""
        values = dict(zip(self.__match_args__, self._values()))
        values.update(changes)
        return Finding(**values)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.rule)

    def to_json(self) -> dict[str, Any]:
        values = dict(zip(self.__match_args__, self._values()))
        values["schemas"] = list(self.schemas)
        return values


#: how many tenant schema names a grouped finding keeps (`Finding.schemas`); the rest are counted
GROUP_NAMES_KEPT = 20


class Diagnostic(FrozenRecord):
    """A problem with the input: parse errors, unreadable files, unused suppressions. `new` as
    for a Finding."""

    __slots__ = __match_args__ = ("rule", "severity", "path", "line", "column", "end_line", "message", "excerpt",
                                  "new")
    rule: str  # parse-error, replay-error, io-error, unused-suppression, usage-error, ...
    severity: Severity
    path: str
    line: int
    column: int
    end_line: int
    message: str
    excerpt: str | None
    new: bool | None

    def __init__(
        self, *, rule: str, path: str, message: str, severity: Severity = "warning", line: int = 0, column: int = 1,
        end_line: int = 0, excerpt: str | None = None, new: bool | None = None,
    ) -> None:
        if severity not in SEVERITY_RANK:
            raise ValueError(f"not a severity: {severity!r}")
        _set(self, "rule", rule)
        _set(self, "severity", severity)
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "column", column)
        _set(self, "end_line", end_line)
        _set(self, "message", message)
        _set(self, "excerpt", excerpt)
        _set(self, "new", new)

    def replace(self, **changes: Any) -> Diagnostic:
        """A copy with these fields changed."""
        values = dict(zip(self.__match_args__, self._values()))
        values.update(changes)
        return Diagnostic(**values)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.rule)

    def to_json(self) -> dict[str, Any]:
        return dict(zip(self.__match_args__, self._values()))


class RunStats(Record):
    __slots__ = __match_args__ = ("files", "statements", "tables", "bytes", "seconds")
    files: int
    statements: int
    tables: int
    bytes: int
    seconds: float

    def __init__(self, files: int = 0, statements: int = 0, tables: int = 0, bytes: int = 0,
                 seconds: float = 0.0) -> None:
        self.files = files
        self.statements = statements
        self.tables = tables
        self.bytes = bytes
        self.seconds = seconds

    def to_json(self) -> dict[str, Any]:
        return dict(zip(self.__match_args__, self._values()))


class Report(Record):
    """Everything one run produced: the JSON contract of `innolint check --format json`."""

    __slots__ = __match_args__ = ("version", "findings", "diagnostics", "stats")
    version: int
    findings: list[Finding]
    diagnostics: list[Diagnostic]
    stats: RunStats

    def __init__(
        self, findings: list[Finding] | None = None, diagnostics: list[Diagnostic] | None = None,
        stats: RunStats | None = None, version: int = 1,
    ) -> None:
        self.version = version
        self.findings = [] if findings is None else findings
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.stats = RunStats() if stats is None else stats

    def to_json(self) -> dict[str, Any]:
        """The report as the JSON contract spells it (`linter.report.contract` reads it back)."""
        return {
            "version": self.version,
            "findings": [f.to_json() for f in self.findings],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "stats": self.stats.to_json(),
        }


def at_or_above(severity: str, level: str) -> bool:
    return SEVERITY_RANK[severity] >= SEVERITY_RANK[level]
