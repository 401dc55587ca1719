"""Configuration: `[tool.innolint]` in pyproject.toml, or `.innolint.toml`, validated by pydantic.

Why per file: monorepos hold several services, each with its own server version and its own
debt, so the configuration that applies to a linted file is the nearest one above it (no merging
across levels: what you read in that one file is what applies). `--config FILE` replaces the
search for every file, and `--target` / `--fail-level` on the command line beat any file.

`.innolint.toml` holds the keys at its top level (or, equally, under `[tool.innolint]`);
pyproject.toml holds them under `[tool.innolint]`, and a pyproject.toml without that table does
not count as a configuration (the search goes on upward). When both files sit in one directory,
`.innolint.toml` wins.

The pydantic model (`linter.config.model`) is built only when a configuration file is read or
the model itself is asked for: without a file, `LoadedConfig` answers from `DEFAULTS`, so a
pre-commit run in a repository without configuration does not pay for building it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from linter.input.globs import GlobSet, path_match
from linter.schema.target import Target

if TYPE_CHECKING:
    from pydantic import ValidationError

    from linter.config.model import ConfigBase, RuleSettings
from linter.config.defaults import ConfigError, DEFAULTS, field_name, read_toml, rule_ids

CONFIG_FILE = ".innolint.toml"
PYPROJECT = "pyproject.toml"


def config_model() -> type[ConfigBase]:
    """The full configuration model for the checks registered now (see `linter.config.model`)."""
    from linter.config import model as config_model  # pydantic models: built only when a model is needed

    return config_model.config_model()


def json_schema() -> dict[str, Any]:
    """The JSON Schema published as docs/config.schema.json (editors complete keys from it)."""
    from linter.config import model as config_model  # pydantic models: built only when a model is needed

    return config_model.json_schema()


def validate(data: dict[str, Any], source: str, prefix: str = "") -> ConfigBase:
    """Validate one configuration table; errors become one ConfigError for people."""
    from linter.config import model as config_model  # pydantic models: built only when a file is read

    return config_model.validate(data, source, prefix)


def render_errors(error: ValidationError, source: str, prefix: str = "") -> str:
    """pydantic's errors, one line each: the file, the key (dotted, as written) and what is allowed."""
    from linter.config import model as config_model  # pydantic models: built only when a file is read

    return config_model.render_errors(error, source, prefix)


# --- loading -----------------------------------------------------------------------------------


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


# --- extend: a shared base configuration ------------------------------------------------------

#: how many configurations one may extend, one through the next (a chain longer than this is a cycle
#: or a mistake)
EXTEND_DEPTH = 8


def _extended(path: Path, data: dict[str, Any], prefix: str, chain: list[Path]) -> tuple[dict[str, Any], dict[str, str]]:
    """`data` (the table of the file at `path`) on top of the configuration its `extend` names, as
    ruff's `extend` does: a key the file sets replaces the base's, a rule's table is merged option
    by option. Returns the merged table and, for each key taken from a base (`rules.<id>.<option>`
    for rule options), the base it came from.

    The base may lie outside the repository (an organisation's shared file, checked out beside
    it), so it is read as a configuration and nothing else: a `.toml` file, regular, at most 1 MiB
    (`read_toml`), its errors naming its keys but never its values when it lies outside (a pull
    request chooses `extend`). Relative paths and globs in a base are relative to the configuration
    that extends it: a base is written for every repository that uses it."""
    from linter.input.file_access import lexically_within, repository_root, within

    extend = data.get("extend")
    if not isinstance(extend, str) or not extend.strip() or "\0" in extend:
        raise ConfigError(f"{path}: {prefix}extend: the path of a configuration file to build on (a string)")
    base_path = (path.parent / extend).resolve()
    if base_path.suffix.lower() != ".toml":
        raise ConfigError(f"{path}: {prefix}extend: {extend!r} is not a .toml file (.innolint.toml, pyproject.toml or "
                          "another TOML file with innolint's keys)")
    if base_path in chain:
        cycle = " -> ".join(str(p) for p in [*chain[chain.index(base_path):], base_path])
        raise ConfigError(f"{path}: {prefix}extend: a cycle: {cycle}")
    if len(chain) > EXTEND_DEPTH:
        raise ConfigError(f"{path}: {prefix}extend: more than {EXTEND_DEPTH} configurations extend one another")
    if not base_path.is_file():
        raise ConfigError(f"{path}: {prefix}extend: {extend!r}: configuration file not found")
    repository = repository_root(str(path.parent))
    outside = not (lexically_within(str(base_path), repository) and within(os.path.realpath(base_path), repository))
    raw = read_toml(base_path)
    if not (isinstance(raw.get("tool"), dict) and "innolint" in raw["tool"]) and base_path.name == PYPROJECT:
        raise ConfigError(f"{base_path}: has no [tool.innolint] table (extended by {path})")
    found = _section(base_path, raw, explicit=True)
    assert found is not None
    base, base_prefix = found
    from linter.config import model as config_model

    config_model.validate(base, str(base_path), base_prefix, values=not outside)
    origins: dict[str, str] = {}
    label = f"{base_path} [tool.innolint]" if base_path.name == PYPROJECT else str(base_path)
    if "extend" in base:
        base, origins = _extended(base_path, base, base_prefix, [*chain, base_path])
    merged = {key: value for key, value in base.items() if key != "extend"}
    for key in merged:
        if key != "rules":
            origins.setdefault(key, label)
    base_rules = merged.get("rules") if isinstance(merged.get("rules"), dict) else {}
    for rule, table in (base_rules or {}).items():
        for option in (table if isinstance(table, dict) else {}):
            origins.setdefault(f"rules.{rule}.{option}", label)
    for key, value in data.items():
        if key == "rules" and isinstance(value, dict) and isinstance(merged.get("rules"), dict):
            rules = {rule: dict(table) if isinstance(table, dict) else table for rule, table in merged["rules"].items()}
            for rule, table in value.items():
                if isinstance(table, dict) and isinstance(rules.get(rule), dict):
                    rules[rule].update(table)
                else:
                    rules[rule] = table
                for option in (table if isinstance(table, dict) else {}):
                    origins.pop(f"rules.{rule}.{option}", None)
            merged["rules"] = rules
        else:
            merged[key] = value
            origins.pop(key, None)
    return merged, origins


# --- the configuration that applies to a file --------------------------------------------------


class LoadedConfig:
    """One validated configuration, where it came from, and what it means for the files it covers.

    `config` None: no file, the defaults. Then the values come from `DEFAULTS` and the pydantic
    model is built only if something asks for `.config` itself (`innolint config`, `rule()`)."""

    def __init__(
        self, config: ConfigBase | None, source: Path | None, base: Path,
        overrides: dict[str, tuple[Any, str]] | None = None,
    ) -> None:
        self._config = config
        #: the file it was read from (None: defaults, no file found)
        self.source = source
        #: relative paths and globs in the file are relative to this directory
        self.base = base
        #: command-line values that beat the file: key -> (value, flag)
        self.overrides: dict[str, tuple[Any, str]] = {} if overrides is None else overrides
        self._context: Any = None
        self._globs: dict[str, GlobSet] = {}  # `exclude`, `include`: compiled once (`_glob_set`)
        self._baseline: Path | None = None  # `baseline_path`, checked once
        #: key (`rules.<id>.<option>` for a rule's) -> the base configuration it came from (`extend`)
        self.origins: dict[str, str] = {}

    @property
    def config(self) -> ConfigBase:
        """The validated configuration (for the defaults, built on first use)."""
        if self._config is None:
            self._config = config_model()()
        return self._config

    def value(self, key: str) -> Any:
        """A top-level key as the file sets it, or its default; never builds the model for the
        defaults (lists may then be empty tuples)."""
        return DEFAULTS[key] if self._config is None else getattr(self._config, key)

    @property
    def source_label(self) -> str:
        if self.source is None:
            return "default"
        return f"{self.source} [tool.innolint]" if self.source.name == PYPROJECT else str(self.source)

    # -- values, with command-line overrides applied -------------------------------------------
    @property
    def target(self) -> str:
        return str(self.overrides["target"][0]) if "target" in self.overrides else str(self.value("target"))

    @property
    def fail_level(self) -> str:
        return str(self.overrides["fail_level"][0]) if "fail_level" in self.overrides else str(self.value("fail_level"))

    def rule(self, rule: str) -> RuleSettings | None:
        rules = self.config.rules  # type: ignore[attr-defined]
        return getattr(rules, field_name(rule), None)

    def disabled_rules(self) -> frozenset[str]:
        """The rules not to run: those the file disables, then --select/--extend-select/--ignore
        (`linter.rules.selection`), which beat it."""
        if self._config is None:
            configured: frozenset[str] = frozenset()  # the defaults enable every rule
        else:
            configured = frozenset(rule for rule in rule_ids() if (s := self.rule(rule)) is not None and not s.enabled)
        selection = self.overrides.get("selection")
        return configured if selection is None else selection[0].disabled(configured)

    def severity_overrides(self) -> dict[str, str]:
        """rule -> severity, for rules whose check does not take `severity` as its own option
        (a check that documents a `severity` option decides which of its findings it applies to)."""
        if self._config is None:
            return {}  # the defaults set no severity
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
        if self._config is None:
            return {}  # the defaults set no option
        from checks import ALL_CHECKS

        options: dict[str, dict[str, Any]] = {}
        for check in ALL_CHECKS:
            settings = self.rule(check.id)
            if settings is None:
                continue
            values = {
                name: getattr(settings, field_name(name))
                for name in check.doc.options
                if field_name(name) in settings.model_fields_set
            }
            if values:
                options[check.id] = values
        return options

    def context(self) -> Any:
        """The CheckContext for units covered by this configuration (built once: the stats file
        is read once however many units it covers)."""
        if self._context is None:
            from linter.rules.checkapi import CheckContext

            self._context = CheckContext(
                target=Target.parse(self.target, self.value("lower_case_table_names")),
                options=self.rule_options(),
                insert_heavy=tuple(self.value("insert_heavy")),
                tenant_schema_pattern=self.value("tenant_schema_pattern"),
                stats=self._load_stats(),
            )
        return self._context

    def _load_stats(self) -> dict[str, Any]:
        path = self.stats_path
        if path is None:
            return {}
        from linter.input.file_access import repository_root
        from linter.schema.stats import StatsError, load_stats

        # a file the configuration names stays inside the configuration's repository; --stats
        # is the user's own choice
        inside = None if "stats" in self.overrides else repository_root(str(self.base))
        try:
            return load_stats(path, inside=inside)
        except StatsError as error:
            where = self.overrides["stats"][1] if "stats" in self.overrides else f"{self.source_label}: stats"
            raise ConfigError(f"{where}: {error}") from None

    @property
    def stats_path(self) -> Path | None:
        """The stats file: `--stats` (relative to the current directory), else the file's `stats`
        (relative to the configuration file)."""
        if "stats" in self.overrides:
            return Path(str(self.overrides["stats"][0]))
        stats = self.value("stats")
        return (self.base / stats) if stats else None

    @property
    def baseline_path(self) -> Path | None:
        """The configuration's baseline file (relative to the configuration file), or None; one a
        file names must lie inside the configuration's repository (ConfigError otherwise)."""
        baseline = self.value("baseline")
        if not baseline:
            return None
        if self._baseline is None:
            from linter.input.file_access import repository_root, within

            path = self.base / baseline
            repository = repository_root(str(self.base))
            if "\0" in baseline or not within(os.path.realpath(path), repository):
                raise ConfigError(f"{self.source_label}: baseline: {baseline!r} lies outside the repository "
                                  f"({repository}); innolint reads only inside it")
            self._baseline = path
        return self._baseline

    # -- files -----------------------------------------------------------------------------------
    def _relative(self, path: str) -> str | None:
        try:
            return Path(os.path.realpath(path)).relative_to(self.base.resolve()).as_posix()
        except ValueError:
            return None

    def is_excluded(self, path: str, *, named: bool) -> bool:
        """Whether a file is left out: it matches `exclude`, or (found by walking a directory, not
        named on the command line) `include` is set and it matches none of it."""
        exclude, include = self.value("exclude"), self.value("include")
        if path == "-" or not (exclude or (include and not named)):
            return False
        relative = self._relative(path)
        if relative is None:  # outside this configuration's directory (only with --config)
            relative = Path(os.path.abspath(path)).as_posix()
        if exclude and self._glob_set("exclude").first(relative) is not None:
            return True
        if not named and include:
            return self._glob_set("include").first(relative) is None
        return False

    def _glob_set(self, key: str) -> GlobSet:
        """The patterns of `exclude` or `include` compiled once for every file asked about: a
        thousand patterns against a thousand files cost a pass over each path, not a match per
        pattern (`linter.input.globs.GlobSet`)."""
        found = self._globs.get(key)
        if found is None:
            found = self._globs[key] = GlobSet(list(self.value(key)), path=True)
        return found

    def migration_dirs(self) -> list[tuple[str, str, str]]:
        """Configured migration directories as (absolute path, format, the history's root): a
        history of several directories (`path = [...]`, Flyway's locations) lists each of them
        with its first as the root."""
        found = []
        for entry in self.value("migrations"):
            locations = [os.path.realpath(self.base / location) for location in entry.locations]
            found.extend((location, entry.format, locations[0]) for location in locations)
        return found

    # -- `innolint config` -------------------------------------------------------------------
    def explain(self) -> list[tuple[str, Any, str]]:
        """(key, effective value, where it came from) for every key, rules last (dotted keys:
        `rules.no-primary-key.severity`). Values the configuration leaves unset are what applies
        then: a rule's own severity, a check's option defaults (`RuleDoc.option_defaults`). None:
        the key has no value (`stats` without a stats file)."""
        from checks import ENGINE_SEVERITY, check_by_id
        from linter.config.model import ConfigBase  # the model: `innolint config` only

        rows: list[tuple[str, Any, str]] = []
        data = self.config.model_dump(by_alias=True, mode="json")
        set_here = self.config.model_fields_set
        for key in ConfigBase.model_fields:
            if key in self.overrides:
                rows.append((key, self.overrides[key][0], self.overrides[key][1]))
            else:
                rows.append((key, data[key], self.origins.get(key, self.source_label) if key in set_here else "default"))
        rules = self.config.rules  # type: ignore[attr-defined]
        disabled = self.disabled_rules()
        selection = self.overrides.get("selection")
        for rule in rule_ids():
            settings = getattr(rules, field_name(rule))
            explicit = rule in rules.model_fields_set or field_name(rule) in rules.model_fields_set
            check = check_by_id(rule)
            values = settings.model_dump(mode="json")
            for name, info in type(settings).model_fields.items():
                alias = info.alias or name
                configured = explicit and name in settings.model_fields_set
                where = self.origins.get(f"rules.{rule}.{alias}", self.source_label) if configured else "default"
                value = values[name]
                if alias == "enabled" and (rule not in disabled) != value:
                    value, where = rule not in disabled, selection[1] if selection else where
                elif value is None and not configured:
                    if alias == "severity":
                        value = check.severity if check is not None else ENGINE_SEVERITY.get(rule)
                    elif check is not None:
                        value = check.doc.option_defaults.get(alias)
                rows.append((f"rules.{rule}.{alias}", value, where))
        return rows


def glob_match(pattern: str, relative: str) -> bool:
    """gitignore-like globs: `*` and `?` stay within a path segment, `**` crosses them; a pattern
    without `/` matches a file or directory name at any depth; a leading `/` anchors only.
    Matched by `linter.input.globs` in time linear in the path (a pattern from a pull request cannot
    make it backtrack)."""
    return path_match(pattern, relative)


def _check_migration_dirs(loaded: LoadedConfig, prefix: str) -> None:
    """A configured migration directory must lie inside the configuration's repository: a
    pull request's `path = "../../.."` would otherwise make a changed-files run walk, and read,
    the whole machine."""
    from linter.input.file_access import repository_root, within

    migrations = loaded.value("migrations")
    if not migrations:
        return
    repository = repository_root(str(loaded.base))
    for number, entry in enumerate(migrations):
        for location in entry.locations:
            if "\0" in location:
                raise ConfigError(f"{loaded.source}: {prefix}migrations[{number}].path: invalid (a NUL character)")
            if not within(os.path.realpath(loaded.base / location), repository):
                raise ConfigError(f"{loaded.source}: {prefix}migrations[{number}].path: {location!r} lies outside the "
                                  f"repository ({repository}); innolint reads only inside it")


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
        self._repository: str | None = None
        if explicit is not None:
            path = Path(explicit)
            if not path.exists():
                raise ConfigError(f"{explicit}: configuration file not found")
            loaded = self._load(path.resolve(), explicit=True)
            assert loaded is not None
            self._explicit = loaded

    def _load(self, path: Path, *, explicit: bool) -> LoadedConfig | None:
        if path in self._by_file:
            return self._by_file[path]
        found = _section(path, read_toml(path), explicit=explicit)
        loaded = None
        if found is not None:
            data, prefix = found
            origins: dict[str, str] = {}
            if "extend" in data:
                validate(data, str(path), prefix)  # the file's own keys, named in its own errors
                data, origins = _extended(path, data, prefix, [path.resolve()])
            loaded = LoadedConfig(validate(data, str(path), prefix), path, path.parent, self.overrides)
            loaded.origins = origins
            _check_migration_dirs(loaded, prefix)
        self._by_file[path] = loaded
        return loaded

    def _refuse_outside(self, candidate: Path) -> None:
        """A configuration file found in the repository (where a pull request puts files) must
        not be a link to a file outside it; above the repository, it is the user's own."""
        from linter.input.file_access import lexically_within, repository_root, within

        if self._repository is None:
            self._repository = repository_root()
        if lexically_within(str(candidate), self._repository) and not within(
            os.path.realpath(candidate), self._repository
        ):
            raise ConfigError(f"{candidate}: symbolic link to a file outside the repository ({self._repository}); not read")

    def default(self) -> LoadedConfig:
        return LoadedConfig(None, None, Path(os.getcwd()).resolve(), self.overrides)

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
            try:
                present = candidate.is_file() or candidate.is_symlink()  # a link to a device is refused, not passed over
            except OSError:  # a directory innolint may not read holds no configuration it can use
                present = False
            if present:
                self._refuse_outside(candidate)
                loaded = self._load(candidate.resolve(), explicit=False)
                if loaded is not None:
                    break
        if loaded is None:
            loaded = self.default() if directory.parent == directory else self._for_dir(directory.parent)
        self._by_dir[key] = loaded
        return loaded
