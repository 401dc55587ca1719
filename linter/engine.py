"""The run: inputs -> statements -> operations -> model -> checks -> one Report.

Streaming and per statement: a file is read in chunks, split into statements as they complete,
each statement parsed on its own (identical statements once, through a cache keyed by their
text: a tenant dump repeats each CREATE TABLE thousands of times) and applied to the model. Only
the model is kept, never the file. Checks run once a unit of input (a file, or one migration
history) has been replayed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from linter import ops
from linter.checkapi import Check, CheckContext
from linter.directives import annotations, comments_in_text, parse_directives
from linter.findings import Diagnostic, Finding, Report, RunStats
from linter.model import Location, SchemaModel
from linter.parse import ParseFailure, parse_statement
from linter.replay import Replayer
from linter.source import InputError, discover, read_statements
from linter.split import Statement

# AUTO_INCREMENT=N differs between otherwise identical tables of a dump: not part of the cache key
_AUTO_INCREMENT_OPTION = re.compile(r"\bAUTO_INCREMENT\s*=\s*\d+", re.IGNORECASE)
_CACHE_LIMIT = 20_000


@dataclass
class Unit:
    """Files replayed into one model: a single file, or a migration directory in order."""

    files: list[str]
    migration_markers: bool = False
    is_migration_history: bool = False


@dataclass
class UnitResult:
    model: SchemaModel
    findings: list[Finding] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    statements: int = 0


class Engine:
    """Parses, replays and checks. One engine can lint many units and shares its parse cache."""

    def __init__(self, context: CheckContext, checks: Sequence[Check] | None = None) -> None:
        if checks is None:
            from checks import ALL_CHECKS

            checks = ALL_CHECKS
        self.context = context
        self.checks = list(checks)
        self._cache: dict[str, ops.Operation | ParseFailure] = {}

    # -- parsing with a cache ---------------------------------------------------------------
    def parse(self, text: str) -> ops.Operation | ParseFailure:
        key = _AUTO_INCREMENT_OPTION.sub("", text) if "AUTO_INCREMENT" in text or "auto_increment" in text else text
        found = self._cache.get(key)
        if found is None:
            try:
                found = parse_statement(text)
            except ParseFailure as failure:
                found = failure
            except RecursionError:
                found = ParseFailure("statement nested too deeply to parse")
            if isinstance(found, ops.Skipped):
                return found  # not worth keeping: dumps hold millions of distinct INSERTs
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[key] = found
        return found

    # -- one unit ---------------------------------------------------------------------------
    def lint_unit(self, unit: Unit) -> UnitResult:
        replayer = Replayer()
        replayer.model.is_migration_history = unit.is_migration_history
        result = UnitResult(replayer.model)
        for path in unit.files:
            try:
                for statement in read_statements(path, migration_markers=unit.migration_markers):
                    result.statements += 1
                    self._apply(replayer, statement, result.diagnostics)
            except InputError as error:
                result.diagnostics.append(Diagnostic(rule="io-error", severity="error", path=path, message=str(error)))
        result.findings = self.run_checks(replayer.model)
        return result

    def _apply(self, replayer: Replayer, statement: Statement, diagnostics: list[Diagnostic]) -> None:
        op = self.parse(statement.text)
        if isinstance(op, ParseFailure):
            line = statement.line + op.line_offset
            diagnostics.append(
                Diagnostic(
                    rule="parse-error", path=statement.path, line=line, column=statement.column if not op.line_offset else 1,
                    end_line=statement.end_line, message=f"statement not understood: {op.reason}",
                    excerpt=_excerpt(statement.text),
                )
            )
            return
        where = Location(statement.path, statement.line, statement.column, statement.end_line)
        tags: frozenset[str] = frozenset()
        if isinstance(op, ops.CreateTable) and (statement.comments or "innolint:" in statement.text):
            tags = annotations(parse_directives([*statement.comments, *comments_in_text(statement.text)]))
        problem = replayer.apply(op, where, annotations=tags, executable=statement.executable)
        if problem:
            diagnostics.append(
                Diagnostic(rule="replay-error", severity="info", path=statement.path, line=statement.line,
                           column=statement.column, end_line=statement.end_line, message=problem,
                           excerpt=_excerpt(statement.text))
            )

    def run_checks(self, model: SchemaModel) -> list[Finding]:
        findings: list[Finding] = []
        for check in self.checks:
            findings.extend(check.run(model, self.context))
        return findings


def _excerpt(text: str, width: int = 100) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= width else first[: width - 3] + "..."


def units_for(files: Iterable[str]) -> list[Unit]:
    """Each file is its own unit. (Migration directories become one unit each: linter.migrations.)"""
    return [Unit([path]) for path in files]


def lint_paths(paths: list[str], context: CheckContext, checks: Sequence[Check] | None = None) -> Report:
    """Lint files, directories and `-` (standard input): the whole run, as one Report."""
    started = time.perf_counter()
    engine = Engine(context, checks)
    files, errors = discover(paths)
    report = Report()
    for path, message in errors:
        report.diagnostics.append(Diagnostic(rule="io-error", severity="error", path=path, message=message))
    stats = RunStats()
    for unit in units_for(files):
        result = engine.lint_unit(unit)
        report.findings.extend(result.findings)
        report.diagnostics.extend(result.diagnostics)
        stats.files += len(unit.files)
        stats.statements += result.statements
        stats.tables += len(result.model.tables())
    report.findings.sort(key=Finding.sort_key)
    report.diagnostics.sort(key=Diagnostic.sort_key)
    stats.seconds = round(time.perf_counter() - started, 3)
    report.stats = stats
    return report
