"""Every check, registered in one list: the engine runs what is here and knows none by name."""

from __future__ import annotations

from checks.compression_candidate import CompressionCandidate
from checks.link_table_primary_key import LinkTablePrimaryKey
from checks.no_primary_key import NoPrimaryKey
from checks.tenant_tablespace import CrossTenantTablespace, TenantTablespace, UndefinedTablespace
from checks.uuid_primary_key import UuidPrimaryKey
from linter.checkapi import Check
from linter.suppressions import SUPPRESSION_RULES

ALL_CHECKS: tuple[Check, ...] = (
    NoPrimaryKey(),
    UuidPrimaryKey(),
    LinkTablePrimaryKey(),
    TenantTablespace(),
    CrossTenantTablespace(),
    UndefinedTablespace(),
    CompressionCandidate(),
)

#: rule ids that are not checks but diagnostics from the engine itself (configurable like checks)
ENGINE_RULES: dict[str, str] = {
    "parse-error": "A statement that innolint could not understand (reported, never dropped).",
    "replay-error": "A statement the server would refuse given the schema so far (a table, column or key never "
    "defined, or defined twice: the model keeps what the server keeps), or one whose effect innolint cannot follow "
    "(dynamic SQL, CALL) (info).",
    "io-error": "A path that could not be read: missing, unreadable, binary, a symlink loop.",
    **SUPPRESSION_RULES,
    # reported by linter.baseline, which is not imported here: its pydantic models are built only
    # when a baseline is read or written (it takes this text as its BASELINE_RULES)
    "baseline-gone": "A finding recorded in the baseline that is no longer found: the baseline can shrink.",
}


def check_by_id(rule: str) -> Check | None:
    return next((c for c in ALL_CHECKS if c.id == rule), None)
