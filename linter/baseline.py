"""The baseline: accept the findings a project already has, report only new ones.

Why a fingerprint without line numbers: a baseline that breaks whenever someone adds a line above
a statement is deleted within a week. A finding is known by rule + schema + table + subject (what
it is about within the table: a column, a key), compared case-insensitively. Several findings can
share a fingerprint (two services with a `users` table and no schema), so the file records how
many of each there were; a run with more reports the extra ones as new.

Findings that have gone away are reported as `baseline-gone` diagnostics (info, at the path where
the finding was when the baseline was written, line 0), one per fingerprint, saying how to shrink
the file (write it again), and counted on standard error. They never make the run fail: the CLI
leaves them out of the fail level, since fixing debt must not break a build. Only entries of files
the run linted can be gone: a run on part of the tree, or a changed-files run, says nothing about
the rest.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from checks import ENGINE_RULES
from linter.findings import Diagnostic, Finding

#: the diagnostics this module reports; the text lives with the engine's rules (`checks.ENGINE_RULES`)
#: so that a run without a baseline does not import this module
BASELINE_RULES: dict[str, str] = {"baseline-gone": ENGINE_RULES["baseline-gone"]}
BASELINE_VERSION = 1

Fingerprint = tuple[str, str, str, str]


class BaselineError(Exception):
    """A baseline file that cannot be read: the message is for people."""


class BaselineEntry(BaseModel):
    """One fingerprint; `path` and `message` are there for the people reading the file in review."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    rule: str
    schema_: str | None = Field(default=None, alias="schema")
    table: str | None = None
    subject: str | None = None
    count: int = Field(default=1, ge=1)
    path: str = ""
    message: str = ""

    @property
    def fingerprint(self) -> Fingerprint:
        return _key(self.rule, self.schema_, self.table, self.subject)


class BaselineFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = BASELINE_VERSION
    tool: str = "innolint"
    findings: list[BaselineEntry] = Field(default_factory=lambda: [])  # not `list`: see findings._empty_list


def _key(rule: str, schema: str | None, table: str | None, subject: str | None) -> Fingerprint:
    return (rule, (schema or "").lower(), (table or "").lower(), (subject or "").lower())


def fingerprint(finding: Finding) -> Fingerprint:
    return _key(finding.rule, finding.schema_, finding.table, finding.subject)


def build(findings: Iterable[Finding]) -> BaselineFile:
    """The baseline of these findings, sorted so the file diffs well in review."""
    counts: Counter[Fingerprint] = Counter()
    first: dict[Fingerprint, Finding] = {}
    for finding in sorted(findings, key=Finding.sort_key):
        key = fingerprint(finding)
        counts[key] += 1
        first.setdefault(key, finding)
    entries = [
        BaselineEntry(
            rule=f.rule, schema=f.schema_, table=f.table, subject=f.subject, count=counts[key],
            path=f.path, message=f.message,
        )
        for key, f in first.items()
    ]
    entries.sort(key=lambda e: (e.rule, e.fingerprint, e.path))
    return BaselineFile(findings=entries)


def write(path: str, findings: Iterable[Finding]) -> int:
    """Write the baseline file; returns the number of findings it records."""
    baseline = build(findings)
    text = json.dumps(baseline.model_dump(by_alias=True, mode="json"), indent=2, ensure_ascii=False) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise BaselineError(f"{path}: cannot write the baseline: {error.strerror or error}") from None
    return sum(e.count for e in baseline.findings)


def load(path: str) -> BaselineFile:
    """Read a baseline: a regular file of at most `linter.file_access.BASELINE_FILE_CAP` bytes."""
    from linter.file_access import BASELINE_FILE_CAP, FileRefused, read_capped

    if not Path(path).exists():
        raise BaselineError(f"{path}: cannot read the baseline: no such file")
    try:
        text = read_capped(path, BASELINE_FILE_CAP, "baseline").decode("utf-8")
    except FileRefused as error:
        raise BaselineError(str(error)) from None
    except UnicodeDecodeError:
        raise BaselineError(f"{path}: not an innolint baseline: not UTF-8 text") from None
    try:
        baseline = BaselineFile.model_validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise BaselineError(f"{path}: not an innolint baseline: {where}: {first['msg']}") from None
    if baseline.version != BASELINE_VERSION:
        raise BaselineError(f"{path}: baseline version {baseline.version}; this innolint reads version {BASELINE_VERSION}")
    return baseline


@dataclass
class Comparison:
    new: list[Finding]  # findings the baseline does not know: reported
    known: int  # findings hidden by the baseline
    gone: list[Diagnostic]  # baseline entries no longer found


def compare(
    findings: Iterable[Finding], baseline: BaselineFile, baseline_path: str,
    in_scope: Callable[[str], bool] = lambda path: True,
) -> Comparison:
    """Split findings into new ones and known ones; list what the baseline has that is gone.

    `in_scope(path)`: whether this run linted the file an entry was recorded at; entries of files
    the run did not look at (a run on one directory, a changed-files run) are not called gone."""
    remaining: Counter[Fingerprint] = Counter()
    entries: dict[Fingerprint, BaselineEntry] = {}
    for entry in baseline.findings:
        remaining[entry.fingerprint] += entry.count
        entries.setdefault(entry.fingerprint, entry)
    new: list[Finding] = []
    known = 0
    for finding in sorted(findings, key=Finding.sort_key):
        key = fingerprint(finding)
        if remaining[key] > 0:
            remaining[key] -= 1
            known += 1
        else:
            new.append(finding)
    gone = []
    for key, count in remaining.items():
        entry = entries[key]
        if count <= 0 or not in_scope(entry.path):
            continue
        table = ".".join(p for p in (entry.schema_, entry.table) if p) or "-"
        about = f" ({entry.subject})" if entry.subject else ""
        times = f" {count} times" if count > 1 else ""
        gone.append(Diagnostic(
            rule="baseline-gone", severity="info", path=entry.path or baseline_path,
            message=f"baseline entry no longer found{times}: [{entry.rule}] {table}{about}; "
            f"write the baseline again (--write-baseline {baseline_path}) to drop it",
        ))
    return Comparison(new, known, gone)
