"""Configuration: `[tool.innolint]` in pyproject.toml, or `.innolint.toml`, validated by pydantic.

Why per file: monorepos hold several services, each with its own server version and its own
debt, so the configuration that applies to a linted file is the nearest one above it (no merging
across levels: what you read in that one file is what applies). `--config FILE` replaces the
search for every file, and `--target` / `--fail-level` on the command line beat any file.

`.innolint.toml` holds the keys at its top level (or, equally, under `[tool.innolint]`);
pyproject.toml holds them under `[tool.innolint]`, and a pyproject.toml without that table does
not count as a configuration (the search goes on upward). When both files sit in one directory,
`.innolint.toml` wins.

The model of `[tool.innolint.rules]` is built from the registered checks (one table per rule id,
with the options each check documents in its RuleDoc), so an unknown rule or a misspelt option is
an error that lists what is allowed, and the published JSON Schema (docs/config.schema.json)
completes rule ids and option names in editors.
"""

from __future__ import annotations

import difflib
import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from linter.target import DEFAULT_TARGET, TARGETS, Target

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

CONFIG_FILE = ".innolint.toml"
PYPROJECT = "pyproject.toml"

TargetName = Literal[TARGETS]  # type: ignore[valid-type]
FailLevel = Literal["error", "warning", "info", "none"]
SeverityName = Literal["error", "warning", "info"]
#: migration directory formats; "auto" detects one from the file names (linter.migrations)
MigrationFormat = Literal[
    "auto", "flyway", "golang-migrate", "authelia", "goose", "dbmate", "timestamp", "diesel", "lexical"
]


class ConfigError(Exception):
    """A configuration that cannot be used: the message is for people (file, key, what is allowed)."""


class MigrationDir(BaseModel):
    """A directory that is one schema history, and the naming format of its files."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(description="directory, relative to the configuration file")
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
    """The keys of `[tool.innolint]`. `rules` is added per registry by `config_model()`."""

    model_config = ConfigDict(extra="forbid")

    target: TargetName = Field(default=DEFAULT_TARGET, description="server the schema runs on")  # type: ignore[valid-type]
    fail_level: FailLevel = Field(
        default="warning", description="exit 1 when a finding is at or above this severity (none: never)"
    )
    include: list[str] = Field(
        default_factory=list,
        description="globs (relative to this file) a file found in a directory must match to be linted; empty: every *.sql",
    )
    exclude: list[str] = Field(
        default_factory=list,
        description="globs (relative to this file) of files never linted, even when named on the command line; "
        "a pattern without / matches a file or directory name at any depth",
    )
    migrations: list[MigrationDir] = Field(
        default_factory=list,
        description="directories that are one schema history each: [[tool.innolint.migrations]] path, format",
    )
    detect_migrations: bool = Field(
        default=True, description="treat directories whose file names follow a migration format as one history"
    )
    insert_heavy: list[str] = Field(
        default_factory=list, description="glob patterns (table or schema.table) of insert-heavy tables"
    )
    tenant_schema_pattern: str | None = Field(
        default=None, description="regular expression matching the names of per-tenant schemas"
    )
    stats: str | None = Field(
        default=None, description="workload statistics file (relative to this file) that checks may use"
    )
    require_suppression_reason: bool = Field(
        default=True, description="an `innolint: ignore[...]` comment without a reason is not honoured"
    )
    legacy_downgrade: bool = Field(
        default=True,
        description="in --changed-only/--since runs, findings on tables the change did not create or alter "
        "drop one severity level",
    )

    @field_validator("tenant_schema_pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as error:
                raise ValueError(f"not a regular expression: {error}") from None
        return value


def rule_ids() -> dict[str, str]:
    """Every configurable rule id -> one line about it: the checks, then the engine's own rules."""
    from checks import ALL_CHECKS, ENGINE_RULES

    found = {check.id: check.title for check in ALL_CHECKS}
    for rule, text in ENGINE_RULES.items():
        found.setdefault(rule, text)
    return found


def _field_name(rule: str) -> str:
    return re.sub(r"\W", "_", rule)


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
                    option_fields[_field_name(option)] = (
                        base.annotation, Field(default=base.default, alias=option, description=text)
                    )
                else:
                    option_fields[_field_name(option)] = (Any, Field(default=None, alias=option, description=text))
        model = create_model(  # type: ignore[call-overload]
            "Rule_" + _field_name(rule), __base__=RuleSettings, __doc__=title, **option_fields
        )
        rule_fields[_field_name(rule)] = (model, Field(default_factory=model, alias=rule, description=title))
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


# --- loading and error messages ----------------------------------------------------------------


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not a configuration file: TOML nested too deeply") from None


def _section(path: Path, data: dict[str, Any], *, explicit: bool) -> tuple[dict[str, Any], str] | None:
    """The innolint table of a parsed file and how to name it in messages, or None (no table)."""
    tool = data.get("tool")
    if isinstance(tool, dict) and "innolint" in tool:
        section = tool["innolint"]
        if not isinstance(section, dict):
            raise ConfigError(f"{path}: [tool.innolint] must be a table")
        return section, "[tool.innolint] "
    if path.name == PYPROJECT:
        if explicit:
            raise ConfigError(f"{path}: has no [tool.innolint] table")
        return None
    return data, ""


def validate(data: dict[str, Any], source: str, prefix: str = "") -> ConfigBase:
    """Validate one configuration table; errors become one ConfigError for people."""
    model = config_model()
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ConfigError(render_errors(error, source, prefix)) from None


def render_errors(error: ValidationError, source: str, prefix: str = "") -> str:
    """pydantic's errors, one line each: the file, the key (dotted, as written) and what is allowed."""
    lines = []
    model = config_model()
    for item in error.errors():
        loc = [str(part) for part in item["loc"]]
        key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in item["loc"]).lstrip(".") or "(top level)"
        if item["type"] == "extra_forbidden":
            allowed = _allowed_keys(model, loc[:-1])
            what = "rule" if loc[:-1] == ["rules"] else "key"
            message = f"unknown {what} {loc[-1]!r}"
            close = difflib.get_close_matches(loc[-1], allowed, n=1)
            if close:
                message += f" (did you mean {close[0]!r}?)"
            message += f"; allowed: {', '.join(allowed)}"
            if what == "rule":
                message += " (`innolint rules` lists them)"
        else:
            message = item["msg"].removeprefix("Value error, ")
            if item["type"] not in ("missing",) and "input" in item:
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


# --- the configuration that applies to a file --------------------------------------------------


@dataclass
class LoadedConfig:
    """One validated configuration, where it came from, and what it means for the files it covers."""

    config: ConfigBase
    #: the file it was read from (None: defaults, no file found)
    source: Path | None
    #: relative paths and globs in the file are relative to this directory
    base: Path
    #: command-line values that beat the file: key -> (value, flag)
    overrides: dict[str, tuple[Any, str]] = field(default_factory=dict)
    _context: Any = field(default=None, repr=False)

    @property
    def source_label(self) -> str:
        if self.source is None:
            return "default"
        return f"{self.source} [tool.innolint]" if self.source.name == PYPROJECT else str(self.source)

    # -- values, with command-line overrides applied -------------------------------------------
    @property
    def target(self) -> str:
        return str(self.overrides["target"][0]) if "target" in self.overrides else str(self.config.target)

    @property
    def fail_level(self) -> str:
        return str(self.overrides["fail_level"][0]) if "fail_level" in self.overrides else str(self.config.fail_level)

    def rule(self, rule: str) -> RuleSettings | None:
        rules = self.config.rules  # type: ignore[attr-defined]
        return getattr(rules, _field_name(rule), None)

    def disabled_rules(self) -> frozenset[str]:
        return frozenset(rule for rule in rule_ids() if (s := self.rule(rule)) is not None and not s.enabled)

    def severity_overrides(self) -> dict[str, str]:
        """rule -> severity, for rules whose check does not take `severity` as its own option
        (a check that documents a `severity` option decides which of its findings it applies to)."""
        from checks import check_by_id

        found: dict[str, str] = {}
        for rule in rule_ids():
            settings = self.rule(rule)
            if settings is None or settings.severity is None:
                continue
            check = check_by_id(rule)
            if check is not None and "severity" in check.doc.options:
                continue
            found[rule] = settings.severity
        return found

    def rule_options(self) -> dict[str, dict[str, Any]]:
        """rule -> option -> value, only the options set in the file (checks keep their defaults)."""
        from checks import ALL_CHECKS

        options: dict[str, dict[str, Any]] = {}
        for check in ALL_CHECKS:
            settings = self.rule(check.id)
            if settings is None:
                continue
            values = {
                name: getattr(settings, _field_name(name))
                for name in check.doc.options
                if _field_name(name) in settings.model_fields_set
            }
            if values:
                options[check.id] = values
        return options

    def context(self) -> Any:
        """The CheckContext for units covered by this configuration (built once: the stats file
        is read once however many units it covers)."""
        if self._context is None:
            from linter.checkapi import CheckContext

            self._context = CheckContext(
                target=Target.parse(self.target),
                options=self.rule_options(),
                insert_heavy=tuple(self.config.insert_heavy),
                tenant_schema_pattern=self.config.tenant_schema_pattern,
                stats=self._load_stats(),
            )
        return self._context

    def _load_stats(self) -> dict[str, Any]:
        path = self.stats_path
        if path is None:
            return {}
        from linter.stats import StatsError, load_stats

        try:
            return load_stats(path)
        except StatsError as error:
            where = self.overrides["stats"][1] if "stats" in self.overrides else f"{self.source_label}: stats"
            raise ConfigError(f"{where}: {error}") from None

    @property
    def stats_path(self) -> Path | None:
        """The stats file: `--stats` (relative to the current directory), else the file's `stats`
        (relative to the configuration file)."""
        if "stats" in self.overrides:
            return Path(str(self.overrides["stats"][0]))
        return (self.base / self.config.stats) if self.config.stats else None

    # -- files -----------------------------------------------------------------------------------
    def _relative(self, path: str) -> str | None:
        try:
            return Path(os.path.realpath(path)).relative_to(self.base.resolve()).as_posix()
        except ValueError:
            return None

    def is_excluded(self, path: str, *, named: bool) -> bool:
        """Whether a file is left out: it matches `exclude`, or (found by walking a directory, not
        named on the command line) `include` is set and it matches none of it."""
        if path == "-":
            return False
        relative = self._relative(path)
        if relative is None:  # outside this configuration's directory (only with --config)
            relative = Path(os.path.abspath(path)).as_posix()
        if any(glob_match(pattern, relative) for pattern in self.config.exclude):
            return True
        if not named and self.config.include:
            return not any(glob_match(pattern, relative) for pattern in self.config.include)
        return False

    def migration_dirs(self) -> list[tuple[str, str]]:
        """Configured migration directories as (absolute path, format)."""
        return [(os.path.realpath(self.base / m.path), m.format) for m in self.config.migrations]

    # -- `innolint config` -------------------------------------------------------------------
    def explain(self) -> list[tuple[str, Any, str]]:
        """(key, effective value, where it came from) for every key, rules last."""
        rows: list[tuple[str, Any, str]] = []
        data = self.config.model_dump(by_alias=True, mode="json")
        set_here = self.config.model_fields_set
        for key in ConfigBase.model_fields:
            if key in self.overrides:
                rows.append((key, self.overrides[key][0], self.overrides[key][1]))
            else:
                rows.append((key, data[key], self.source_label if key in set_here else "default"))
        rules = self.config.rules  # type: ignore[attr-defined]
        for rule in rule_ids():
            settings = getattr(rules, _field_name(rule))
            explicit = rule in rules.model_fields_set or _field_name(rule) in rules.model_fields_set
            for name, info in type(settings).model_fields.items():
                alias = info.alias or name
                where = self.source_label if explicit and name in settings.model_fields_set else "default"
                rows.append((f"rules.{rule}.{alias}", settings.model_dump(mode="json")[name], where))
        return rows


def glob_match(pattern: str, relative: str) -> bool:
    """gitignore-like globs: `*` and `?` stay within a path segment, `**` crosses them; a pattern
    without `/` matches a file or directory name at any depth; a leading `/` anchors only."""
    pattern = pattern.strip()
    if not pattern:
        return False
    if "/" not in pattern.strip("/"):
        parts = relative.split("/")
        return any(fnmatch.fnmatchcase(part, pattern.strip("/")) for part in parts)
    return _glob_regex(pattern.lstrip("/").rstrip("/")).fullmatch(relative) is not None or (
        # a directory pattern covers everything below it
        _glob_regex(pattern.lstrip("/").rstrip("/") + "/**").fullmatch(relative) is not None
    )


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


class ConfigResolver:
    """Finds, loads and caches the configuration for each linted file.

    `explicit` (--config) replaces the search; `overrides` are command-line values
    (key -> (value, flag)); `search=False` uses the defaults for every file (library use, tests).
    """

    def __init__(
        self, explicit: str | None = None, *, overrides: dict[str, tuple[Any, str]] | None = None, search: bool = True
    ) -> None:
        self.overrides = dict(overrides or {})
        self.search = search
        self._by_dir: dict[str, LoadedConfig] = {}
        self._by_file: dict[Path, LoadedConfig | None] = {}
        self._explicit: LoadedConfig | None = None
        if explicit is not None:
            path = Path(explicit)
            if not path.is_file():
                raise ConfigError(f"{explicit}: configuration file not found")
            loaded = self._load(path.resolve(), explicit=True)
            assert loaded is not None
            self._explicit = loaded

    def _load(self, path: Path, *, explicit: bool) -> LoadedConfig | None:
        if path in self._by_file:
            return self._by_file[path]
        found = _section(path, _read_toml(path), explicit=explicit)
        loaded = None
        if found is not None:
            data, prefix = found
            loaded = LoadedConfig(validate(data, str(path), prefix), path, path.parent, self.overrides)
        self._by_file[path] = loaded
        return loaded

    def default(self) -> LoadedConfig:
        return LoadedConfig(config_model()(), None, Path(os.getcwd()).resolve(), self.overrides)

    def for_path(self, path: str) -> LoadedConfig:
        """The configuration for a file or directory (`-`: the current directory)."""
        if self._explicit is not None:
            return self._explicit
        if not self.search:
            return self._by_dir.setdefault("", self.default())
        start = Path(os.getcwd()) if path == "-" else Path(os.path.abspath(path))
        directory = start if start.is_dir() else start.parent
        return self._for_dir(directory)

    def _for_dir(self, directory: Path) -> LoadedConfig:
        key = str(directory)
        cached = self._by_dir.get(key)
        if cached is not None:
            return cached
        loaded: LoadedConfig | None = None
        for name in (CONFIG_FILE, PYPROJECT):
            candidate = directory / name
            if candidate.is_file():
                loaded = self._load(candidate.resolve(), explicit=False)
                if loaded is not None:
                    break
        if loaded is None:
            loaded = self.default() if directory.parent == directory else self._for_dir(directory.parent)
        self._by_dir[key] = loaded
        return loaded
