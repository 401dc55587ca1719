"""The pydantic model of `[tool.innolint]`: validation, errors for people, the published JSON Schema.

Kept apart from `linter.config.settings` so that a run without a configuration file never builds it
(`LoadedConfig` answers from `linter.config.defaults.DEFAULTS` then): building these models costs more than
linting a small migration. `linter.config.settings` imports this module where a model is needed.

The model of `[tool.innolint.rules]` is built from the registered checks (one table per rule id,
with the options each check documents in its RuleDoc), so an unknown rule or a misspelt option is
an error that lists what is allowed, and the published JSON Schema (docs/config.schema.json)
completes rule ids and option names in editors.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from linter.config.defaults import DEFAULTS, ConfigError, field_name, rule_ids
from linter.config.option_types import TargetName, annotation
from linter.input.migrations.formats import NAMES as FORMAT_NAMES
from linter.suggest import did_you_mean
from linter.schema.target import DEFAULT_LOWER_CASE_TABLE_NAMES

FailLevel = Literal["error", "warning", "info", "none"]
SeverityName = Literal["error", "warning", "info"]
#: migration directory formats, as the registry lists them (linter.input.migrations.formats); "auto"
#: detects one from the files
MigrationFormat = Literal[("auto", *FORMAT_NAMES)]  # type: ignore[valid-type]


def _empty_list() -> list[Any]:
    """A default factory; not `list` itself: pydantic reads a factory's signature, and for a
    builtin that compiles the tokenizer's regular expressions (~15 ms)."""
    return []


class MigrationDir(BaseModel):
    """A directory that is one schema history, and the naming format of its files."""

    model_config = ConfigDict(extra="forbid")

    path: str | list[str] = Field(
        description="directory, relative to the configuration file; or several (a tool's `locations`), which "
        "are one history: their migrations run in version order together, new ones go in the first")

    @field_validator("path")
    @classmethod
    def _some(cls, value: str | list[str]) -> str | list[str]:
        if isinstance(value, list) and not value:
            raise ValueError("name at least one directory")
        return value

    @property
    def locations(self) -> list[str]:
        return [self.path] if isinstance(self.path, str) else list(self.path)
    format: MigrationFormat = Field(
        default="auto",
        description="file naming and order; auto detects it from the names and falls back to lexical order",
    )


class RuleSettings(BaseModel):
    """What every rule accepts; each check's own options are added to a subclass per rule."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    enabled: bool = Field(default=True, description="run this rule (false: never report it)")
    severity: SeverityName | None = Field(
        default=None, description="report this rule's findings at this severity instead of the rule's own"
    )


class ConfigBase(BaseModel):
    """The keys of `[tool.innolint]`. `rules` is added per registry by `config_model()`.

    Defaults come from `linter.config.defaults.DEFAULTS` (lists there as empty tuples), which answers for
    runs without a configuration file."""

    model_config = ConfigDict(extra="forbid")

    target: TargetName = Field(default=DEFAULTS["target"], description="server the schema runs on")  # type: ignore[valid-type]
    fail_level: FailLevel = Field(
        default=DEFAULTS["fail_level"], description="exit 1 when a finding is at or above this severity (none: never)"
    )
    include: list[str] = Field(
        default_factory=_empty_list,
        description="globs (relative to this file) a file found in a directory must match to be linted; empty: every *.sql",
    )
    exclude: list[str] = Field(
        default_factory=_empty_list,
        description="globs (relative to this file) of files never linted, even when named on the command line; "
        "a pattern without / matches a file or directory name at any depth",
    )
    migrations: list[MigrationDir] = Field(
        default_factory=_empty_list,
        description="directories that are one schema history each: [[tool.innolint.migrations]] path, format",
    )
    detect_migrations: bool = Field(
        default=DEFAULTS["detect_migrations"],
        description="treat directories whose file names follow a migration format as one history",
    )
    insert_heavy: list[str] = Field(
        default_factory=_empty_list, description="glob patterns (table or schema.table) of insert-heavy tables"
    )
    tenant_schema_pattern: str | None = Field(
        default=DEFAULTS["tenant_schema_pattern"], description="regular expression matching the names of per-tenant schemas"
    )
    stats: str | None = Field(
        default=DEFAULTS["stats"], description="workload statistics file (relative to this file) that checks may use"
    )
    baseline: str | None = Field(
        default=DEFAULTS["baseline"],
        description="baseline file (relative to this file) whose findings are hidden, as --baseline: what a "
        "legacy repository accepts (`innolint check --write-baseline FILE` records it)",
    )
    require_suppression_reason: bool = Field(
        default=DEFAULTS["require_suppression_reason"],
        description="an `innolint: ignore[...]` comment without a reason is not honoured",
    )
    legacy_downgrade: bool = Field(
        default=DEFAULTS["legacy_downgrade"],
        description="in --changed-only/--since runs, findings on tables the change did not create or alter "
        "drop one severity level",
    )
    lower_case_table_names: Literal[0, 1, 2] = Field(
        default=DEFAULT_LOWER_CASE_TABLE_NAMES,
        description="the server's lower_case_table_names: 0 (Linux's default) compares database and table names "
        "as written, so t1 and T1 are two tables; 1 (Windows) stores and compares them in lower case; 2 (macOS) "
        "stores them as written and compares them in lower case",
    )

    extend: str | None = Field(
        default=None,
        description="a configuration file (relative to this one; outside the repository too) whose keys apply "
        "where this file sets none: a base shared by many repositories, as ruff's extend; its relative paths "
        "and globs are relative to this file",
    )

    @field_validator("tenant_schema_pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        """Compiled by `linter.config.user_regex` (linear time): a pattern it cannot run is refused here,
        with the reason, instead of hanging a run."""
        if value is not None:
            from linter.config.user_regex import compile_user_regex

            compile_user_regex(value)  # UnsafeRegex is a ValueError: pydantic reports it on the key
        return value


@lru_cache(maxsize=1)
def config_model() -> type[ConfigBase]:
    """The full configuration model for the checks registered now (cached: the registry is fixed
    for a process). Each rule gets a table with `enabled`, `severity` and its documented options."""
    from checks import ALL_CHECKS

    docs = {check.id: check for check in ALL_CHECKS}
    rule_fields: dict[str, Any] = {}
    for rule, title in rule_ids().items():
        check = docs.get(rule)
        option_fields: dict[str, Any] = {}
        if check is not None:
            for option, text in check.doc.options.items():
                if option in RuleSettings.model_fields:  # e.g. a check's own `severity`: keep the type
                    base = RuleSettings.model_fields[option]
                    option_fields[field_name(option)] = (
                        base.annotation, Field(default=base.default, alias=option, description=text)
                    )
                else:
                    option_fields[field_name(option)] = (
                        Optional[annotation(check.doc.option_types[option])],  # noqa: UP007 - a runtime value, not an annotation
                        Field(default=None, alias=option, description=text),
                    )
        model = create_model(  # type: ignore[call-overload]
            "Rule_" + field_name(rule), __base__=RuleSettings, __doc__=title, **option_fields
        )
        rule_fields[field_name(rule)] = (model, Field(default_factory=model, alias=rule, description=title))
    rules = create_model(  # type: ignore[call-overload]
        "Rules", __config__=ConfigDict(extra="forbid", populate_by_name=True),
        __doc__="Per-rule settings: [tool.innolint.rules.<rule-id>]", **rule_fields,
    )
    return create_model(  # type: ignore[call-overload,no-any-return]
        "InnolintConfig", __base__=ConfigBase, __doc__="The [tool.innolint] table of pyproject.toml, or .innolint.toml",
        rules=(rules, Field(default_factory=rules, description="per-rule settings, one table per rule id")),
    )


def json_schema() -> dict[str, Any]:
    """The JSON Schema published as docs/config.schema.json (editors complete keys from it)."""
    schema = config_model().model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "innolint configuration ([tool.innolint] in pyproject.toml, or .innolint.toml)"
    return schema


def validate(data: dict[str, Any], source: str, prefix: str = "", *, values: bool = True) -> ConfigBase:
    """Validate one configuration table; errors become one ConfigError for people (`values`
    False: without the values they got, for a file outside the repository)."""
    model = config_model()
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ConfigError(render_errors(error, source, prefix, values=values)) from None


def render_errors(error: ValidationError, source: str, prefix: str = "", *, values: bool = True) -> str:
    """pydantic's errors, one line each: the file, the key (dotted, as written) and what is allowed
    (and the value given, unless `values` is False)."""
    lines = []
    model = config_model()
    for item in error.errors():
        loc = [str(part) for part in item["loc"]]
        key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in item["loc"]).lstrip(".") or "(top level)"
        if item["type"] == "extra_forbidden":
            allowed = _allowed_keys(model, loc[:-1])
            what = "rule" if loc[:-1] == ["rules"] else "key"
            message = f"unknown {what} {loc[-1]!r}"
            message += did_you_mean(loc[-1], allowed)
            message += f"; allowed: {', '.join(allowed)}"
            if what == "rule":
                message += " (`innolint rules` lists them)"
        else:
            message = item["msg"].removeprefix("Value error, ")
            if not values and item["type"] == "value_error":  # innolint's own checks quote what they got
                message = "not a value innolint accepts here (not shown: the file lies outside the repository)"
            if values and item["type"] not in ("missing",) and "input" in item:
                message += f" (got {item['input']!r})"
        lines.append(f"{source}: {prefix}{key}: {message}")
    return "\n".join(lines)


def _allowed_keys(model: type[BaseModel], loc: list[str]) -> list[str]:
    """The keys the table at `loc` accepts (aliases, as a person writes them)."""
    current: Any = model
    for part in loc:
        if part.isdigit():  # a list index: the list's element model was taken already
            continue
        fields = {(f.alias or name): f for name, f in current.model_fields.items()}
        annotation = fields[part].annotation
        args = getattr(annotation, "__args__", ())
        if getattr(annotation, "__origin__", None) is list and args:
            annotation = args[0]
        current = annotation
    return [(f.alias or name) for name, f in current.model_fields.items()]
