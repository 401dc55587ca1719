"""What the configuration's loading (`settings`) and its pydantic model (`model`) share: the
default of every key, the error for people, the configurable rule ids, TOML reading. Kept apart so
that `settings` imports `model` (lazily, only when a file is read) and `model` never imports
`settings` back."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from linter.schema.target import DEFAULT_LOWER_CASE_TABLE_NAMES, DEFAULT_TARGET


#: the value of every top-level key when no file sets it (lists as empty tuples: read-only here);
#: `linter.config.model.ConfigBase` takes its defaults from here
DEFAULTS: dict[str, Any] = {
    "target": DEFAULT_TARGET,
    "lower_case_table_names": DEFAULT_LOWER_CASE_TABLE_NAMES,
    "fail_level": "warning",
    "include": (),
    "exclude": (),
    "migrations": (),
    "detect_migrations": True,
    "insert_heavy": (),
    "tenant_schema_pattern": None,
    "stats": None,
    "baseline": None,
    "require_suppression_reason": True,
    "legacy_downgrade": True,
    "extend": None,
}


class ConfigError(Exception):
    """A configuration that cannot be used: the message is for people (file, key, what is allowed)."""


def rule_ids() -> dict[str, str]:
    """Every configurable rule id -> one line about it: the checks, then the engine's own rules."""
    from checks import ALL_CHECKS, ENGINE_RULES

    found = {check.id: check.title for check in ALL_CHECKS}
    for rule, text in ENGINE_RULES.items():
        found.setdefault(rule, text)
    return found


def field_name(rule: str) -> str:
    return re.sub(r"\W", "_", rule)


def read_toml(path: Path) -> dict[str, Any]:
    # imported here: only a run that finds a configuration file reads TOML
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    from linter.input.file_access import CONFIG_FILE_CAP, FileRefused, read_capped

    try:
        raw = read_capped(str(path), CONFIG_FILE_CAP, "configuration file")
    except FileRefused as error:
        raise ConfigError(str(error)) from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a configuration file: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not a configuration file: TOML nested too deeply") from None
