"""What the audit did not read, and why: said once per reason, never dropped in silence.

Why: an audit that quietly reads less than asked (a table locked by another session, a grant
missing, a column left out because its table is too small to matter) reports fewer findings, and
the user cannot tell a clean server from an unread one. Each thing left out is recorded with its
feature (the DDL, the workload counters, `--sample`'s compression or key reads) and a reason;
the audit prints one note per (feature, reason) naming the tables, and a table that could not be
read in time or without a grant also gets a diagnostic at its path (in every output format).

The reasons come from the server's error codes: 1205 (lock_wait_timeout: another session holds
a lock), 1969/3024 (MariaDB's max_statement_time, MySQL's max_execution_time), 1142/1143/1044
(no privilege), and what the audit chose not to read (a table under compression-candidate's
min_size, an empty table, a read the rows-examined bound stopped).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from linter.audit.connection import AuditQueryError, SessionLimits
from linter.rules.checkapi import quote
from linter.rules.findings import Diagnostic

__all__ = ["COMPRESSION", "DDL", "KEYS", "Coverage", "reason_of"]

#: the features, as the notes name them
DDL = "SHOW CREATE TABLE"
COMPRESSION = "--sample (compression-candidate)"
KEYS = "--sample (uuid-primary-key)"

_LOCK_WAIT = 1205  # ER_LOCK_WAIT_TIMEOUT
_STATEMENT_TIMEOUT = frozenset({1969, 3024})  # MariaDB ER_STATEMENT_TIMEOUT, MySQL ER_QUERY_TIMEOUT
_PRIVILEGE = frozenset({1142, 1143, 1044, 1227})  # table, column, database, specific access denied
#: names a note lists before "and N more"
_SHOWN = 10


def reason_of(error: AuditQueryError, limits: SessionLimits, schema: str | None = None) -> tuple[str, str]:
    """(kind, sentence) for a read the server refused or stopped: kind is "lock", "timeout",
    "privilege" or "error"."""
    if error.code == _LOCK_WAIT:
        return "lock", (f"another session holds a lock on it (LOCK TABLES, an open transaction or a waiting "
                        f"ALTER): not released within lock_wait_timeout ({limits.lock_wait_timeout} s)")
    if error.code in _STATEMENT_TIMEOUT:
        return "timeout", (f"not done within the statement timeout ({limits.statement_timeout:g} s; waiting for a "
                           "lock counts)")
    if error.code in _PRIVILEGE:
        grant = f"GRANT SELECT ON {quote(schema)}.* TO the audit user" if schema else "a SELECT grant"
        return "privilege", f"no SELECT privilege ({grant} turns it on)"
    return "error", str(error)


@dataclass
class Coverage:
    """The ledger of one audit: what was left out, by feature and reason."""

    origin: str
    limits: SessionLimits = field(default_factory=SessionLimits)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _left: dict[tuple[str, str], list[str]] = field(default_factory=dict, init=False, repr=False)
    #: tables a read waited on until a timeout, with why: the audit's other reads of them are
    #: skipped instead of waiting again (one lock costs one lock_wait_timeout, not one per read)
    _blocked: dict[tuple[str, str], str] = field(default_factory=dict, init=False, repr=False)

    def left_out(self, feature: str, name: str, why: str) -> None:
        """``name`` (schema.table or schema.table.column) was not read for ``feature``, by the
        audit's choice or for lack of data: a line in the feature's note."""
        self._left.setdefault((feature, why), []).append(name)

    def could_not(self, feature: str, schema: str, table: str, error: AuditQueryError, *,
                  column: str | None = None, severity: str = "info") -> None:
        """The server refused or stopped a read of ``schema.table``: a diagnostic at the table
        and a line in the feature's note."""
        kind, why = reason_of(error, self.limits, schema)
        if kind in ("lock", "timeout"):
            self._blocked[(schema.lower(), table.lower())] = why
        name = f"{schema}.{table}" + (f".{column}" if column else "")
        self.left_out(feature, name, why)
        what = f"{feature} of column {column}" if column else feature
        self.diagnostics.append(Diagnostic(rule="io-error", severity=severity,  # type: ignore[arg-type]
                                           path=f"{self.origin}/{schema}/{table}", message=f"{what} skipped: {why}"))

    def blocked(self, schema: str, table: str) -> bool:
        """A read of the table waited until a timeout."""
        return (schema.lower(), table.lower()) in self._blocked

    def skip_blocked(self, feature: str, schema: str, table: str) -> bool:
        """True (and the table left out of ``feature`` for the same reason) when an earlier read
        of the table timed out: reading it again would wait as long for the same lock."""
        why = self._blocked.get((schema.lower(), table.lower()))
        if why is None:
            return False
        self.left_out(feature, f"{schema}.{table}", why)
        return True

    def notes(self) -> list[str]:
        """One sentence per (feature, reason), the names in the order met."""
        said = []
        for (feature, why), names in self._left.items():
            unique = list(dict.fromkeys(names))
            shown = ", ".join(unique[:_SHOWN]) + (f" and {len(unique) - _SHOWN:,} more" if len(unique) > _SHOWN else "")
            said.append(f"{feature}: not read for {len(unique):,}: {why}: {shown}")
        return said
