"""The baseline: accept the findings a project already has, report only new ones.

Why a fingerprint without line numbers: a baseline that breaks whenever someone adds a line above
a statement is deleted within a week. A finding is known by rule + schema + table + subject (what
it is about within the table: a column, a key), compared case-insensitively, **in its file**: two
services whose schema files both have a `users` table without a key are two problems, and fixing
one must not hide the other. A file of a migration history counts as its history's directory
(`linter.input.migrations.files.detected_root`): a finding moves between migrations as they are added (an
ALTER in V9 changes where a key finding is located) and is still the same finding. Several
findings can share a fingerprint, so the file records how many of each there were; a run with more
reports the extra ones as new. Paths are written relative to the baseline file's directory, so
the baseline holds wherever innolint runs from.

What is recorded, so that `--baseline` right after `--write-baseline` exits 0:
- every finding; a finding standing for tenant copies (`Finding.count`, `linter.rules.grouping`) by its
  table with the schema written `{tenant}`, so it does not depend on which tenant comes first and
  a tenant added later with the same problem is known;
- every diagnostic a run reports and can be accepted (parse-error, replay-error, suppression
  problems), by its rule, file and the statement it is about (`excerpt`, else the message):
  not `io-error` (a file that cannot be read stops the run, exit 2) nor `baseline-gone`.

Entries that have gone away are reported as `baseline-gone` diagnostics (info, at the path where
the entry was recorded, line 0), one per fingerprint, saying how to shrink the file (write it
again), and counted on standard error. They never make the run fail: the CLI leaves them out of
the fail level, since fixing debt must not break a build. Only entries of files the run linted can
be gone: a run on part of the tree, or a changed-files run, says nothing about the rest.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from checks import ENGINE_RULES
from linter.rules import fingerprints
from linter.rules.findings import Diagnostic, Finding
from linter.rules.fingerprints import TENANTS, BaselineError, Fingerprint, Key, Known, place

#: the diagnostics this module reports; the text lives with the engine's rules (`checks.ENGINE_RULES`)
#: so that a run without a baseline does not import this module
BASELINE_RULES: dict[str, str] = {"baseline-gone": ENGINE_RULES["baseline-gone"]}
BASELINE_VERSION = 1
#: diagnostics a baseline does not accept: a run with them stops (exit 2) or they come from it
NOT_RECORDED = fingerprints.NOT_MATCHED


class BaselineEntry(BaseModel):
    """One fingerprint in one file; `message` is there for the people reading the file in review."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    rule: str
    schema_: str | None = Field(default=None, alias="schema")
    table: str | None = None
    subject: str | None = None
    count: int = Field(default=1, ge=1)
    #: the file, relative to the baseline's directory (absolute when it lies on another drive);
    #: "" in baselines written before entries carried their file: those match in any file
    path: str = ""
    message: str = ""

    @property
    def fingerprint(self) -> Fingerprint:
        return fingerprints.make(self.rule, self.schema_, self.table, self.subject)


class BaselineFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = BASELINE_VERSION
    tool: str = "innolint"
    findings: list[BaselineEntry] = Field(default_factory=lambda: [])  # not `list`: see findings._empty_list
    #: accepted diagnostics (parse errors and the like): `subject` holds the statement
    diagnostics: list[BaselineEntry] = Field(default_factory=lambda: [])


#: what a finding is about (`linter.rules.fingerprints`), kept under the names tests and callers use
fingerprint = fingerprints.of_finding
diagnostic_fingerprint = fingerprints.of_diagnostic


def _stored(path: str, base: str | None) -> str:
    """`path` as the baseline writes it: relative to `base` with `/` separators."""
    if not path or path == "-" or "://" in path or base is None:
        return path
    try:
        return os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")
    except ValueError:  # another drive
        return os.path.abspath(path)


def _resolved(entry: BaselineEntry, base: str) -> str:
    """The entry's file as a path this process can use (relative to the baseline's directory)."""
    if not entry.path or entry.path == "-" or "://" in entry.path:
        return entry.path
    return os.path.normpath(os.path.join(base, entry.path))


def build(findings: Iterable[Finding], diagnostics: Iterable[Diagnostic] = (), base: str | None = None) -> BaselineFile:
    """The baseline of these findings and diagnostics, sorted so the file diffs well in review.
    `base`: the directory the paths are written relative to (the baseline file's)."""

    def entries(items: Sequence[Finding | Diagnostic]) -> list[BaselineEntry]:
        counts: Counter[Key] = Counter()
        first: dict[Key, Finding | Diagnostic] = {}
        for item in items:
            key = fingerprints.key(item)
            counts[key] += item.count if isinstance(item, Finding) else 1
            first.setdefault(key, item)
        made = []
        for key, item in first.items():
            rule = key[1][0]
            original = (item.schema if not item.schemas else TENANTS, item.table, item.subject) \
                if isinstance(item, Finding) else (None, None, fingerprints.statement_of(item))
            made.append(BaselineEntry(rule=rule, schema=original[0], table=original[1], subject=original[2],
                                      count=counts[key], path=_stored(item.path, base), message=item.message))
        made.sort(key=lambda e: (e.rule, e.path, e.fingerprint))
        return made

    ordered_findings = sorted(findings, key=Finding.sort_key)
    kept = sorted((d for d in diagnostics if d.rule not in NOT_RECORDED), key=Diagnostic.sort_key)
    return BaselineFile(findings=entries(ordered_findings), diagnostics=entries(kept))


def write(path: str, findings: Iterable[Finding], diagnostics: Iterable[Diagnostic] = ()) -> int:
    """Write the baseline file; returns the number of findings and diagnostics it records."""
    baseline = build(findings, diagnostics, base=os.path.dirname(os.path.abspath(path)))
    text = json.dumps(baseline.model_dump(by_alias=True, mode="json"), indent=2, ensure_ascii=False) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise BaselineError(f"{path}: cannot write the baseline: {error.strerror or error}") from None
    return sum(e.count for e in [*baseline.findings, *baseline.diagnostics])


def load(path: str) -> BaselineFile:
    """Read a baseline: a regular file of at most `linter.input.file_access.BASELINE_FILE_CAP` bytes."""
    from linter.input.file_access import BASELINE_FILE_CAP, FileRefused, read_capped

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
    known: int  # findings and diagnostics hidden by the baseline
    gone: list[Diagnostic]  # baseline entries no longer found
    #: diagnostics the baseline does not know (those it knows are hidden; unrecordable ones stay)
    new_diagnostics: list[Diagnostic]


def compare(
    findings: Iterable[Finding], baseline: BaselineFile, baseline_path: str,
    in_scope: Callable[[str], bool] = lambda path: True, diagnostics: Iterable[Diagnostic] = (),
) -> Comparison:
    """Split findings (and diagnostics) into new ones and known ones; list what the baseline has
    that is gone.

    `in_scope(path)`: whether this run linted the file an entry was recorded at; entries of files
    the run did not look at (a run on one directory, a changed-files run) are not called gone."""
    base = os.path.dirname(os.path.abspath(baseline_path))
    recorded = Known()
    anywhere = Known()  # entries written before entries carried their file: matched in any file
    entries: dict[Key, BaselineEntry] = {}
    for entry in [*baseline.findings, *baseline.diagnostics]:
        if not entry.path:
            anywhere.add(("", entry.fingerprint), entry.count)
            continue
        key = (place(_resolved(entry, base)), entry.fingerprint)
        recorded.add(key, entry.count)
        entries.setdefault(key, entry)
    known = 0

    def accepted(item: Finding | Diagnostic) -> bool:
        nonlocal known
        item_key = fingerprints.key(item)
        if recorded.take(item, item_key) or anywhere.take(item, ("", item_key[1])):
            known += 1
            return True
        return False

    new = [f for f in sorted(findings, key=Finding.sort_key) if not accepted(f)]
    new_diagnostics = [d for d in sorted(diagnostics, key=Diagnostic.sort_key)
                       if d.rule in NOT_RECORDED or not accepted(d)]
    remaining = recorded.remaining
    gone = []
    for key, count in remaining.items():
        entry = entries[key]
        where = _resolved(entry, base)
        if count <= 0 or not in_scope(where):
            continue
        table = ".".join(p for p in (entry.schema_, entry.table) if p) or "-"
        about = f" ({entry.subject})" if entry.subject else ""
        times = f" {count} times" if count > 1 else ""
        gone.append(Diagnostic(
            rule="baseline-gone", severity="info", path=_shown(where),
            message=f"baseline entry no longer found{times}: [{entry.rule}] {table}{about}; "
            f"write the baseline again (--write-baseline {baseline_path}) to drop it",
        ))
    return Comparison(new, known, gone, new_diagnostics)


def _shown(path: str) -> str:
    """A path as reports show it: relative to the current directory when it lies below it."""
    if not path or "://" in path or not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return path if relative.startswith(os.pardir) else relative
