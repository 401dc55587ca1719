"""`innolint rules --format json`: every rule as data, for editors, dashboards and CI tools.

One object per rule, checks first, then the engine's own diagnostics:
`id`, `title`, `kind` ("check" or "engine"), `default_severity` (the rule's own),
`severity` (as used: what the configuration for the current directory, or `--config`, sets),
`severity_note` (when evidence raises it, or null), `enabled` (as used), `options` (each with
`name`, `description`, `type` as JSON Schema, `default` and `value` as used; a check's `severity`
option takes the severities), `docs` (the page in innolint's repository: docs/rules/RULE.md, the
engine's rules on docs/rules/README.md) and `docs_url` (that page on the web,
`linter.rules.docs.rule_page_url`, or null when innolint does not know where it is).
"""

from __future__ import annotations

from typing import Any

from linter.config.settings import LoadedConfig
from linter.config.defaults import rule_ids

#: the catalogue's format; a change that removes or renames a key bumps it
CATALOGUE_VERSION = 1


def catalogue(loaded: LoadedConfig) -> dict[str, Any]:
    from checks import ENGINE_RULES, ENGINE_SEVERITY, check_by_id
    from linter.rules.docs import RULES_DIR, rule_page_url

    disabled = loaded.disabled_rules()
    overrides = loaded.severity_overrides()
    rules = []
    for rule, title in rule_ids().items():
        check = check_by_id(rule)
        settings = loaded.rule(rule)
        default = check.severity if check is not None else ENGINE_SEVERITY[rule]
        entry: dict[str, Any] = {
            "id": rule,
            "title": check.title if check is not None else ENGINE_RULES[rule],
            "kind": "check" if check is not None else "engine",
            "default_severity": default,
            "severity": overrides.get(rule) or (getattr(settings, "severity", None) or default),
            "severity_note": check.severity_note if check is not None and check.severity_note else None,
            "enabled": rule not in disabled,
            "options": _options(check, settings) if check is not None else [],
            "docs": f"{RULES_DIR}/{rule if check is not None else 'README'}.md",
            "docs_url": rule_page_url(rule),
        }
        rules.append(entry)
    return {"version": CATALOGUE_VERSION, "rules": rules}


def _options(check: Any, settings: Any) -> list[dict[str, Any]]:
    from pydantic import TypeAdapter

    from linter.config.model import SeverityName
    from linter.config.option_types import annotation

    found = []
    for name, text in check.doc.options.items():
        kind = SeverityName if name == "severity" else annotation(check.doc.option_types[name])
        default = check.severity if name == "severity" else check.doc.option_defaults.get(name)
        configured = getattr(settings, name.replace("-", "_"), None) if settings is not None else None
        found.append({
            "name": name,
            "description": text,
            "type": TypeAdapter(kind).json_schema(),
            "default": default,
            "value": configured if configured is not None else default,
        })
    return found
