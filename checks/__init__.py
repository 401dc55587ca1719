"""Every check, registered in one list: the engine runs what is here and knows none by name."""

from __future__ import annotations

from checks.no_primary_key import NoPrimaryKey
from linter.checkapi import Check

ALL_CHECKS: tuple[Check, ...] = (
    NoPrimaryKey(),
)

#: rule ids that are not checks but come from the engine itself
ENGINE_RULES: dict[str, str] = {
    "parse-error": "A statement that innolint could not understand (reported, never dropped).",
    "unused-suppression": "An `innolint: ignore[...]` comment that matched no finding.",
}


def check_by_id(rule: str) -> Check | None:
    return next((c for c in ALL_CHECKS if c.id == rule), None)
