"""Every check, registered in one list: the engine runs what is here and knows none by name."""

from __future__ import annotations

from checks.auto_increment_capacity import AutoIncrementCapacity
from checks.blocking_alter import BlockingAlter
from checks.charset_portability import CharsetPortability
from checks.compression_candidate import CompressionCandidate
from checks.destructive_change import DestructiveChange
from checks.edited_migration import EditedMigration
from checks.foreign_key_mismatch import ForeignKeyMismatch
from checks.index_key_length import IndexKeyLength
from checks.link_table_primary_key import LinkTablePrimaryKey
from checks.no_primary_key import NoPrimaryKey
from checks.non_innodb_engine import NonInnodbEngine
from checks.redundant_index import RedundantIndex
from checks.reserved_word import ReservedWord
from checks.refused_ddl import RefusedDdl
from checks.row_size_limit import RowSizeLimit
from checks.tenant_tablespace import CrossTenantTablespace, TenantTablespace, UndefinedTablespace
from checks.uuid_primary_key import UuidPrimaryKey
from checks.wide_primary_key import WidePrimaryKey
from checks.zero_date_default import ZeroDateDefault
from linter.rules.checkapi import Check
from linter.rules.failures import DESCRIPTION as INTERNAL_ERROR_TEXT, RULE as INTERNAL_ERROR, SEVERITY as INTERNAL_SEVERITY

ALL_CHECKS: tuple[Check, ...] = (
    NoPrimaryKey(),
    UuidPrimaryKey(),
    LinkTablePrimaryKey(),
    TenantTablespace(),
    CrossTenantTablespace(),
    UndefinedTablespace(),
    CompressionCandidate(),
    RedundantIndex(),
    WidePrimaryKey(),
    AutoIncrementCapacity(),
    ForeignKeyMismatch(),
    RowSizeLimit(),
    IndexKeyLength(),
    ZeroDateDefault(),
    CharsetPortability(),
    NonInnodbEngine(),
    ReservedWord(),
    RefusedDdl(),
    BlockingAlter(),
    DestructiveChange(),
    EditedMigration(),
)

#: rule ids that are not checks but diagnostics from the engine itself (configurable like checks)
ENGINE_RULES: dict[str, str] = {
    "parse-error": "A statement that innolint could not understand, or input it cannot follow as the server would "
                   "(an unterminated quote, a statement over the size cap, a `;` left out between two statements, "
                   "`source file`): reported, never dropped.",
    "replay-error": "A statement innolint cannot follow or judge as the server would: one whose effect it cannot "
                    "follow (dynamic SQL, CALL), one naming a table the input never defined (a partial input), one it "
                    "cannot tell the server's answer to, and what follows those (info); DDL run only under a "
                    "condition, in a loop or a handler, after which the schema is uncertain (warning). A statement "
                    "the target refuses is refused-ddl's.",
    "io-error": "A path that could not be read: missing, unreadable, binary, a symlink loop.",
    INTERNAL_ERROR: INTERNAL_ERROR_TEXT,
    # reported by linter.rules.suppressions (not imported here: it reaches the configuration, which
    # reads this registry)
    "unused-suppression": "An `innolint: ignore[...]` comment that matched no finding.",
    "invalid-suppression": "An `innolint: ignore[...]` comment without a reason (when reasons are required) "
    "or naming an unknown rule.",
    # reported by linter.rules.baseline, which is not imported here: its pydantic models are built only
    # when a baseline is read or written (it takes this text as its BASELINE_RULES)
    "baseline-gone": "A finding recorded in the baseline that is no longer found: the baseline can shrink.",
}

#: reported when a run cannot start (it ends with exit 2 and a report holding only this): not configurable
USAGE_ERROR: dict[str, str] = {
    "usage-error": "The run could not start: a configuration, baseline, git ref or option innolint could not use.",
}

#: the severity each engine rule is reported with (`innolint rules` prints it); io-error is a warning
#: or info in an audit (a table the server would not show), usage-error always ends the run (exit 2)
ENGINE_SEVERITY: dict[str, str] = {
    "parse-error": "warning", "replay-error": "info", "io-error": "error", "unused-suppression": "info",
    "invalid-suppression": "warning", "baseline-gone": "info", "usage-error": "error", INTERNAL_ERROR: INTERNAL_SEVERITY,
}


def check_by_id(rule: str) -> Check | None:
    return next((c for c in ALL_CHECKS if c.id == rule), None)
