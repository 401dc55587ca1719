"""What a finding is, apart from its line: the key the baseline and `--since` match findings by.

A finding is known by rule + schema + table + subject (what it is about within the table: a
column, a key), compared case-insensitively, in its place: its file, or for a file of a migration
history the history's directory (a finding moves between the migrations of one history as they
are added and stays the same finding). A finding standing for tenant copies (`Finding.count`)
has the schema `{tenant}`: it does not depend on which tenant comes first. A diagnostic is known
by its rule and the statement it is about (its first line), not its line.

Kept apart from `linter.rules.baseline` (pydantic models, imported only with a baseline) so that a
pre-commit run, which compares with HEAD, stays light.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable

from linter.rules.findings import SEVERITY_RANK, Diagnostic, Finding

class BaselineError(Exception):
    """A baseline file that cannot be read or written (`linter.rules.baseline`): the message is for
    people. Here so that a run can catch it without importing the baseline's pydantic models."""


#: diagnostics never matched: a run with them stops (exit 2), or the baseline itself made them,
#: or their message holds a path (an unreadable file)
NOT_MATCHED = frozenset({"io-error", "usage-error", "baseline-gone"})
#: the schema of a finding that stands for tenant copies
TENANTS = "{tenant}"

Fingerprint = tuple[str, str, str, str]
#: (place: the absolute file or history directory, fingerprint)
Key = tuple[str, Fingerprint]


def make(rule: str, schema: str | None, table: str | None, subject: str | None) -> Fingerprint:
    return (rule, (schema or "").lower(), (table or "").lower(), (subject or "").lower())


def of_finding(finding: Finding) -> Fingerprint:
    """What a finding is about, not where: rule, schema (`{tenant}` for a tenant table), table, subject."""
    return make(finding.rule, TENANTS if finding.schemas else finding.schema, finding.table, finding.subject)


def of_diagnostic(diagnostic: Diagnostic) -> Fingerprint:
    """A diagnostic by its rule and the statement it is about (its first line), not its line."""
    return make(diagnostic.rule, None, None, statement_of(diagnostic))


def statement_of(diagnostic: Diagnostic) -> str:
    return " ".join((diagnostic.excerpt or diagnostic.message).split())


def of(item: Finding | Diagnostic) -> Fingerprint:
    return of_finding(item) if isinstance(item, Finding) else of_diagnostic(item)


def place(path: str) -> str:
    """Where a finding is, for matching: the absolute file, or for a migration the history's
    directory (`linter.input.migrations.files.detected_root`)."""
    from linter.input.migrations.files import classify, detected_root

    if not path or path == "-" or "://" in path:
        return path
    return detected_root(path) if classify(path) is not None else os.path.abspath(path)


def key(item: Finding | Diagnostic, path: str | None = None) -> Key:
    """The item's key; `path`: where it is, when not its own path (a tree replayed elsewhere)."""
    return (place(item.path if path is None else path), of(item))


def copies(item: Finding | Diagnostic) -> int:
    return item.count if isinstance(item, Finding) else 1


class Known:
    """Keys with how many findings each stood for; `take` says whether an item is one of them.

    Several findings can share a key (two same-named tables of one file), so counts are kept and
    a run with more reports the extra ones. A tenant group is known when its key is known at all:
    a tenant added since with the same problem is the same problem. The most severe level a key
    was seen at is kept too (`was_at_least`): a finding a change raises from warning to error is
    one the change makes worse."""

    def __init__(self, covers: Callable[[str], bool] = lambda path: True) -> None:
        self.remaining: Counter[Key] = Counter()
        #: key -> the highest severity rank seen (`SEVERITY_RANK`)
        self.worst: dict[Key, int] = {}
        #: whether the items of a file were looked at (only those can be new against this)
        self.covers = covers

    def add(self, item_key: Key, count: int = 1, severity: str | None = None) -> None:
        self.remaining[item_key] += count
        if severity is not None:
            rank = SEVERITY_RANK[severity]
            if rank > self.worst.get(item_key, -1):
                self.worst[item_key] = rank

    def take(self, item: Finding | Diagnostic, item_key: Key | None = None) -> bool:
        slot = item_key if item_key is not None else key(item)
        if self.remaining[slot] <= 0:
            return False
        grouped = isinstance(item, Finding) and bool(item.schemas)
        self.remaining[slot] = 0 if grouped else self.remaining[slot] - copies(item)
        return True

    def was_at_least(self, item: Finding | Diagnostic, severity: str) -> bool:
        """Whether the item's key was seen at `severity` or above (True when no severity was kept)."""
        worst = self.worst.get(key(item))
        return worst is None or worst >= SEVERITY_RANK[severity]
