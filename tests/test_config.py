"""Configuration: discovery (nearest file wins, nesting, --config), validation errors for people,
the effective configuration with its sources, the CheckContext it makes, the published schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from linter.config.defaults import ConfigError
from linter.config.settings import ConfigResolver, glob_match, json_schema, validate
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- discovery ---------------------------------------------------------------------------------


def test_nearest_configuration_above_each_file_wins(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.innolint]\ntarget = "mysql-5.7"\nfail_level = "error"\n')
    write(tmp_path / "services" / "billing" / ".innolint.toml", 'target = "mariadb-10.11"\n')
    top = write(tmp_path / "schema" / "a.sql", "")
    nested = write(tmp_path / "services" / "billing" / "db" / "b.sql", "")
    resolver = ConfigResolver()
    assert resolver.for_path(str(top)).target == "mysql-5.7"
    assert resolver.for_path(str(top)).fail_level == "error"
    billing = resolver.for_path(str(nested))
    assert billing.target == "mariadb-10.11"
    # no merging across levels: the nearer file's defaults apply, not the outer file's values
    assert billing.fail_level == "warning"
    assert billing.source == (tmp_path / "services" / "billing" / ".innolint.toml").resolve()


def test_pyproject_without_innolint_table_is_skipped(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", 'target = "percona-8.0"\n')
    write(tmp_path / "app" / "pyproject.toml", '[tool.black]\nline-length = 100\n')
    sql = write(tmp_path / "app" / "x.sql", "")
    assert ConfigResolver().for_path(str(sql)).target == "percona-8.0"


def test_innolint_toml_beats_pyproject_in_the_same_directory(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.innolint]\ntarget = "mysql-5.7"\n')
    write(tmp_path / ".innolint.toml", 'target = "mysql-8.4"\n')
    assert ConfigResolver().for_path(str(write(tmp_path / "x.sql", ""))).target == "mysql-8.4"


def test_innolint_toml_may_use_a_tool_innolint_table(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", '[tool.innolint]\ntarget = "mysql-8.4"\n')
    assert ConfigResolver().for_path(str(write(tmp_path / "x.sql", ""))).target == "mysql-8.4"


def test_explicit_config_overrides_discovery(tmp_path: Path) -> None:
    write(tmp_path / "a" / ".innolint.toml", 'target = "mysql-5.7"\n')
    explicit = write(tmp_path / "ci.toml", 'target = "mariadb-10.6"\n')
    sql = write(tmp_path / "a" / "x.sql", "")
    assert ConfigResolver(str(explicit)).for_path(str(sql)).target == "mariadb-10.6"


def test_command_line_beats_the_file(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", 'target = "mysql-5.7"\nfail_level = "info"\n')
    resolver = ConfigResolver(overrides={"target": ("mysql-8.4", "--target")})
    loaded = resolver.for_path(str(write(tmp_path / "x.sql", "")))
    assert (loaded.target, loaded.fail_level) == ("mysql-8.4", "info")
    sources = {key: source for key, _, source in loaded.explain()}
    assert sources["target"] == "--target"
    assert sources["fail_level"] == str((tmp_path / ".innolint.toml").resolve())
    assert sources["exclude"] == "default"


def test_no_configuration_anywhere_gives_defaults(tmp_path: Path) -> None:
    loaded = ConfigResolver(search=False).for_path(str(tmp_path))
    assert loaded.source is None and loaded.target == "mysql-8.0" and loaded.fail_level == "warning"


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('targt = "mysql-8.0"', ["targt", "unknown key", "did you mean 'target'", "allowed: target, fail_level"]),
        ('target = "mysql-8.2"', ["target", "mysql-8.0", "mariadb-11.x", "innovation releases", "mysql-8.2"]),
        ('target = "mariadb-10.3.39"', ["target", "MariaDB before 10.4 is past its end of life"]),
        ('fail_level = "fatal"', ["fail_level", "'error', 'warning', 'info' or 'none'"]),
        ("[rules.no-primay-key]\nenabled = false", ["rules.no-primay-key", "unknown rule", "did you mean 'no-primary-key'"]),
        ("[rules.no-primary-key]\nsevrity = 'error'", ["rules.no-primary-key.sevrity", "allowed: enabled, severity"]),
        ("[rules.no-primary-key]\nseverity = 'fatal'", ["rules.no-primary-key.severity", "'error', 'warning' or 'info'"]),
        ("[[migrations]]\npath = 'db'\nformat = 'rails'", ["migrations[0].format", "'flyway'", "'diesel'", "rails"]),
        ("[[migrations]]\nformat = 'flyway'", ["migrations[0].path", "Field required"]),
        ("tenant_schema_pattern = '(tenant'", ["tenant_schema_pattern", "not a regular expression"]),
        ("legacy_downgrade = 'maybe'", ["legacy_downgrade", "valid boolean"]),
        ("include = 'db/*.sql'", ["include", "valid list"]),
        # each check's own options have types: a bad value is an error here, not a crash or a silent default
        ("[rules.compression-candidate]\nmin_size = 'big'", ["rules.compression-candidate.min_size", "not a size"]),
        ("[rules.compression-candidate]\nmin_varchar_length = 0", ["min_varchar_length", "greater than or equal to 1"]),
        ("[rules.uuid-primary-key]\ntime_ordered_columns = 5", ["rules.uuid-primary-key.time_ordered_columns", "valid list"]),
        ("[rules.uuid-primary-key]\ntime_ordered_columns = ['id', 3]", ["time_ordered_columns[1]", "valid string"]),
        ("[rules.no-primary-key]\nstats_min_inserts = 'lots'", ["rules.no-primary-key.stats_min_inserts", "valid integer"]),
        ("[rules.tenant-tablespace]\nsimilarity = 1.5", ["rules.tenant-tablespace.similarity", "less than or equal to 1"]),
        ("[rules.tenant-tablespace]\nmin_schemas = 1", ["rules.tenant-tablespace.min_schemas", "greater than or equal to 2"]),
    ],
)
def test_errors_name_file_key_and_what_is_allowed(tmp_path: Path, text: str, expected: list[str]) -> None:
    config = write(tmp_path / ".innolint.toml", text + "\n")
    with pytest.raises(ConfigError) as caught:
        ConfigResolver().for_path(str(write(tmp_path / "x.sql", "")))
    message = str(caught.value)
    assert message.startswith(f"{config.resolve()}: ")
    for part in expected:
        assert part in message


def test_errors_in_pyproject_name_the_table(tmp_path: Path) -> None:
    config = write(tmp_path / "pyproject.toml", "[tool.innolint]\ntarget = 'x'\n[tool.innolint.rules.nope]\n")
    with pytest.raises(ConfigError) as caught:
        ConfigResolver().for_path(str(write(tmp_path / "x.sql", "")))
    lines = str(caught.value).splitlines()
    assert len(lines) == 2  # every error, one line each
    assert lines[0].startswith(f"{config.resolve()}: [tool.innolint] target: ")
    assert lines[1].startswith(f"{config.resolve()}: [tool.innolint] rules.nope: unknown rule 'nope'")


def test_invalid_toml_is_a_config_error(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", 'target = "mysql-8.0\n')
    with pytest.raises(ConfigError, match=r"\.innolint\.toml: not valid TOML"):
        ConfigResolver().for_path(str(write(tmp_path / "x.sql", "")))


def test_explicit_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="configuration file not found"):
        ConfigResolver(str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match=r"has no \[tool.innolint\] table"):
        ConfigResolver(str(write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n")))


def test_stats_file_problems_are_config_errors(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", 'stats = "missing-stats.json"\n')
    loaded = ConfigResolver().for_path(str(write(tmp_path / "x.sql", "")))
    with pytest.raises(ConfigError, match="missing-stats.json: stats file not found"):
        loaded.context()


def test_cli_reports_config_errors_without_traceback(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", "[rules.no-such-rule]\nenabled = false\n")
    sql = write(tmp_path / "x.sql", "CREATE TABLE t (id INT PRIMARY KEY);\n")
    done = run_cli(["check", str(sql)], cwd=ROOT)
    assert done.returncode == 2
    assert "unknown rule 'no-such-rule'" in done.stderr
    assert "Traceback" not in done.stderr


# --- what a configuration means ---------------------------------------------------------------


def test_context_carries_target_options_patterns_and_stats(tmp_path: Path) -> None:
    write(tmp_path / "stats.json", json.dumps({"version": 1, "tables": [
        {"schema": "shop", "table": "orders", "table_rows": 10, "count_insert": 5}]}))
    write(tmp_path / ".innolint.toml", "\n".join([
        'target = "mariadb-10.11"',
        'insert_heavy = ["*.event_log", "audit_*"]',
        'tenant_schema_pattern = "^tenant_[0-9]+$"',
        'stats = "stats.json"',
        "[rules.no-primary-key]",
        'severity = "error"',
    ]) + "\n")
    loaded = ConfigResolver().for_path(str(write(tmp_path / "db" / "x.sql", "")))
    context = loaded.context()
    assert context.target.name == "mariadb-10.11"
    # no-primary-key documents its own `severity` option: it goes to the check, not a blanket override
    assert context.option("no-primary-key", "severity", "warning") == "error"
    assert "no-primary-key" not in loaded.severity_overrides()
    assert context.insert_heavy == ("*.event_log", "audit_*")
    assert context.tenant_schema_pattern == "^tenant_[0-9]+$"
    assert context.stats["shop.orders"].count_insert == 5


def test_typed_options_reach_the_checks_as_their_type(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", "\n".join([
        "[rules.compression-candidate]", 'min_size = "512MiB"', "min_varchar_length = 2000",
        "[rules.uuid-primary-key]", 'time_ordered_columns = ["*.event_id"]', "stats_insert_ratio = 1",
    ]) + "\n")
    options = ConfigResolver().for_path(str(write(tmp_path / "x.sql", ""))).context().options
    assert options["compression-candidate"] == {"min_size": 512 << 20, "min_varchar_length": 2000}
    assert options["uuid-primary-key"] == {"time_ordered_columns": ["*.event_id"], "stats_insert_ratio": 1.0}


def test_a_check_cannot_document_an_option_without_its_type() -> None:
    from linter.rules.checkapi import RuleDoc

    with pytest.raises(ValueError, match="limit"):
        RuleDoc("why", "evidence", "bad", "good", "fix", options={"limit": "how many (default 3)"})
    with pytest.raises(ValueError, match="ghost"):
        RuleDoc("why", "evidence", "bad", "good", "fix", options={}, option_types={"ghost": int})
    RuleDoc("why", "evidence", "bad", "good", "fix", options={"severity": "its own severity"})  # typed by every rule


def test_unset_options_are_not_passed_to_checks(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", "[rules.no-primary-key]\nenabled = true\n")
    loaded = ConfigResolver().for_path(str(write(tmp_path / "x.sql", "")))
    assert loaded.context().options == {}
    assert loaded.disabled_rules() == frozenset()


def test_disabled_rules_and_severity_of_engine_rules(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", "[rules.no-primary-key]\nenabled = false\n[rules.parse-error]\nseverity = 'error'\n")
    loaded = ConfigResolver().for_path(str(write(tmp_path / "x.sql", "")))
    assert loaded.disabled_rules() == frozenset({"no-primary-key"})
    assert loaded.severity_overrides() == {"parse-error": "error"}


def test_migration_paths_are_relative_to_the_file(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", 'migrations = [{path = "db/migrate"}, {path = "db/flyway", format = "flyway"}]\n')
    loaded = ConfigResolver().for_path(str(write(tmp_path / "x.sql", "")))
    migrate, flyway = str(tmp_path.resolve() / "db" / "migrate"), str(tmp_path.resolve() / "db" / "flyway")
    assert loaded.migration_dirs() == [(migrate, "auto", migrate), (flyway, "flyway", flyway)]


def test_include_and_exclude(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", 'include = ["db/**/*.sql"]\nexclude = ["vendor", "db/legacy/**", "*.down.sql"]\n')
    loaded = ConfigResolver().for_path(str(tmp_path / "x.sql"))
    assert not loaded.is_excluded(str(tmp_path / "db" / "a.sql"), named=False)
    assert not loaded.is_excluded(str(tmp_path / "db" / "x" / "a.sql"), named=False)
    assert loaded.is_excluded(str(tmp_path / "other" / "a.sql"), named=False)  # not included
    assert not loaded.is_excluded(str(tmp_path / "other" / "a.sql"), named=True)  # named: include does not apply
    assert loaded.is_excluded(str(tmp_path / "db" / "legacy" / "old.sql"), named=True)  # exclude always does
    assert loaded.is_excluded(str(tmp_path / "db" / "vendor" / "x.sql"), named=False)
    assert loaded.is_excluded(str(tmp_path / "db" / "0001_x.down.sql"), named=False)


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.sql", "a/b/c.sql", True),
        ("db/*.sql", "db/a.sql", True),
        ("db/*.sql", "db/x/a.sql", False),
        ("db/**/*.sql", "db/x/y/a.sql", True),
        ("db/**/*.sql", "db/a.sql", True),
        ("/db", "db/x.sql", True),
        ("db", "src/db/x.sql", True),
        ("legacy/", "legacy/x.sql", True),
        ("db/legacy", "db/legacy2/x.sql", False),
    ],
)
def test_glob_match(pattern: str, path: str, matches: bool) -> None:
    assert glob_match(pattern, path) is matches


def test_config_command_prints_values_and_sources(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.innolint]\ntarget = "mysql-5.7"\n[tool.innolint.rules.no-primary-key]\nseverity = "error"\n')
    done = run_cli(["config", str(tmp_path), "--fail-level", "error"], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    source = f"{(tmp_path / 'pyproject.toml').resolve()} [tool.innolint]"
    assert any(line.startswith('target = "mysql-5.7"') and line.endswith(f"# {source}") for line in lines)
    assert any(line.startswith('fail_level = "error"') and line.endswith("# --fail-level") for line in lines)
    assert any(line.startswith('rules.no-primary-key.severity = "error"') and line.endswith(f"# {source}") for line in lines)
    assert any(line.startswith("rules.no-primary-key.enabled = true") and line.endswith("# default") for line in lines)


def test_valid_configuration_round_trips_through_validate() -> None:
    config = validate({"target": "mariadb-11.x", "rules": {"no-primary-key": {"enabled": False}}}, "x")
    assert config.target == "mariadb-11.x"
    assert config.rules.no_primary_key.enabled is False  # type: ignore[attr-defined]


# --- the published JSON Schema ------------------------------------------------------------------


def test_json_schema_in_the_repository_is_current() -> None:
    published = ROOT / "docs" / "config.schema.json"
    assert published.is_file(), "docs/config.schema.json is missing: run `python scripts/gen_docs.py`"
    assert json.loads(published.read_text(encoding="utf-8")) == json_schema(), (
        "docs/config.schema.json is stale (a configuration key or a check's options changed): "
        "run `python scripts/gen_docs.py` and commit the result"
    )


def test_json_schema_accepts_a_real_configuration_and_rejects_typos() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json_schema()
    good = {"target": "mysql-8.4", "migrations": [{"path": "db", "format": "flyway"}],
            "rules": {"no-primary-key": {"severity": "error"}}}
    jsonschema.validate(good, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"rules": {"no-primary-key": {"sevrity": "error"}}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"target": "mysql-9"}, schema)


# --- end to end through `innolint check` ---------------------------------------------------------

NO_PK = "CREATE TABLE {name} (a INT NOT NULL, b TEXT) ENGINE=InnoDB;\n"


def check(*args: str, cwd: Path = ROOT) -> tuple[int, dict]:
    done = run_cli(["check", "--format", "json", *args], cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def test_configured_directory_is_one_history_in_lexical_order(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", '[[migrations]]\npath = "db"\n')
    write(tmp_path / "db" / "a_create.sql", NO_PK.format(name="t"))
    write(tmp_path / "db" / "b_key.sql", "ALTER TABLE t ADD PRIMARY KEY (a);\n")
    _, report = check(str(tmp_path / "db"))
    # one history: the key is added (a rebuild of the table a_create.sql made, which blocking-alter says)
    assert [f["rule"] for f in report["findings"]] == ["blocking-alter"] and report["diagnostics"] == []
    # without the configuration the two files are unrelated: the table has no key, the ALTER no table
    (tmp_path / ".innolint.toml").write_text("detect_migrations = true\n")
    _, report = check(str(tmp_path / "db"))
    assert [f["rule"] for f in report["findings"]] == ["no-primary-key"]
    assert [d["rule"] for d in report["diagnostics"]] == ["replay-error"]


def test_exclude_disable_and_severity_from_the_file(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", "\n".join([
        'exclude = ["vendor"]',
        "[rules.no-primary-key]", "enabled = false",
        "[rules.parse-error]", 'severity = "error"',
    ]) + "\n")
    write(tmp_path / "vendor" / "x.sql", "CREATE TABLE ((( broken;\n")
    write(tmp_path / "schema.sql", NO_PK.format(name="t") + "CREATE TABLE ((( broken;\n")
    code, report = check(str(tmp_path))
    assert report["findings"] == []
    assert [(d["rule"], d["severity"], Path(d["path"]).name) for d in report["diagnostics"]] == [
        ("parse-error", "error", "schema.sql")]
    assert report["stats"]["files"] == 1 and code == 1


def test_each_file_fails_by_its_own_configuration(tmp_path: Path) -> None:
    write(tmp_path / "legacy" / ".innolint.toml", 'fail_level = "none"\n')
    write(tmp_path / "legacy" / "old.sql", NO_PK.format(name="old"))
    write(tmp_path / "new" / "fresh.sql", "CREATE TABLE fresh (id INT PRIMARY KEY);\n")
    code, report = check(str(tmp_path))
    assert [f["table"] for f in report["findings"]] == ["old"] and code == 0
    write(tmp_path / "new" / "fresh.sql", NO_PK.format(name="fresh"))
    code, _ = check(str(tmp_path))
    assert code == 1
    code, _ = check("--fail-level", "none", str(tmp_path))
    assert code == 0


def test_target_from_the_nearest_file_reaches_the_checks(tmp_path: Path) -> None:
    # the no-primary-key fix uses INVISIBLE where the target has invisible columns (not MySQL 5.7)
    write(tmp_path / "old" / ".innolint.toml", 'target = "mysql-5.7"\n')
    write(tmp_path / "old" / "a.sql", NO_PK.format(name="a"))
    write(tmp_path / "new" / "b.sql", NO_PK.format(name="b"))
    _, report = check(str(tmp_path))
    fixes = {f["table"]: f["fix"] for f in report["findings"] if f["rule"] == "no-primary-key"}
    assert "INVISIBLE" not in fixes["a"] and "INVISIBLE" in fixes["b"]


# --- `innolint config` prints TOML that reads back --------------------------------------------------

def _config_toml(*args: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    done = run_cli(["config", *args], cwd=cwd)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("files", [
    {},
    {".innolint.toml": 'target = "mariadb-10.11"\nexclude = ["vendor/**", "a\\"b\\\\c"]\n'
                       'tenant_schema_pattern = "tenant_[0-9]+"\n[rules.compression-candidate]\nmin_size = "512MiB"\n'},
    {"pyproject.toml": '[tool.innolint]\nfail_level = "error"\ninsert_heavy = ["*_log", "shop.events"]\n'
                       '[[tool.innolint.migrations]]\npath = "db"\nformat = "flyway"\n'
                       '[tool.innolint.rules.no-primary-key]\nseverity = "error"\nstats_min_inserts = 5\n'
                       '[tool.innolint.rules.uuid-primary-key]\ntime_ordered_columns = ["id_v7", "tab\\tname"]\n'
                       '[tool.innolint.rules.parse-error]\nenabled = false\n'},
])
def test_config_prints_valid_toml_with_effective_values(tmp_path: Path, files: dict[str, str]) -> None:
    import tomllib

    from linter.config.model import validate as validate_model

    for name, text in files.items():
        write(tmp_path / name, text)
    (tmp_path / "db").mkdir()
    code, out, err = _config_toml(str(tmp_path))
    assert code == 0, err
    parsed = tomllib.loads(out)["tool"]["innolint"]
    assert "null" not in out
    validate_model(parsed, "printed")  # every printed key and value is one the configuration accepts
    expected = ConfigResolver().for_path(str(tmp_path)).explain()
    printed = dict(parsed)
    rules = printed.pop("rules")
    for key, value, _ in expected:
        if key.startswith("rules."):
            _, rule, option = key.split(".")
            got = rules[rule].get(option)
        else:
            got = printed.get(key)
        assert got == (list(value) if isinstance(value, tuple) else value), key
    # defaults are values, not null: the rule's severity and the checks' option defaults
    assert rules["no-primary-key"]["enabled"] in (True, False)
    assert rules["wide-primary-key"]["max_key_bytes"] == 100
    assert rules["redundant-index"]["severity"] == "warning" and rules["io-error"]["severity"] == "error"
    assert rules["compression-candidate"]["min_size"] in ("1GiB", 512 << 20)
    # and the file it came from is named in the comment of each value it sets
    if files:
        name = next(iter(files))
        assert any(line.split(" = ")[0] in ("target", "fail_level") and name in line.split("#")[-1]
                   for line in out.splitlines())


def test_config_printed_is_a_configuration_that_gives_the_same(tmp_path: Path) -> None:
    write(tmp_path / ".innolint.toml", 'target = "mysql-5.7"\n[rules.wide-primary-key]\nmax_key_bytes = 200\n')
    code, out, _ = _config_toml(str(tmp_path), "--select", "no,wide", "--ignore", "wide-primary-key")
    assert code == 0
    saved = write(tmp_path / "copy" / "printed.toml", out)
    again = ConfigResolver(str(saved)).for_path(str(tmp_path))
    assert again.target == "mysql-5.7" and again.rule("wide-primary-key").max_key_bytes == 200  # type: ignore[union-attr]
    assert again.disabled_rules() == ConfigResolver(
        overrides={"selection": (__import__("linter.rules.selection").rules.selection.RuleSelection(["no", "wide"], (), ["wide-primary-key"]), "--select")}
    ).for_path(str(tmp_path)).disabled_rules()
    lines = out.splitlines()
    assert any(line.startswith("rules.wide-primary-key.enabled = false") and "# --select/--ignore" in line
               for line in lines)
    assert any(line.startswith("rules.no-primary-key.enabled = true") and line.endswith("# default") for line in lines)


def test_config_escapes_what_toml_cannot_hold(tmp_path: Path) -> None:
    import tomllib

    write(tmp_path / ".innolint.toml", 'exclude = ["a\\u001bb\\u007f", "emoji \U0001F600", "new\\nline"]\n')
    code, out, _ = _config_toml(str(tmp_path))
    assert code == 0
    assert tomllib.loads(out)["tool"]["innolint"]["exclude"] == ["a\x1bb\x7f", "emoji \U0001F600", "new\nline"]
    assert "\x1b" not in out and "\x7f" not in out


@pytest.mark.parametrize("path", ["no/such/dir", "missing.sql", "--"])
def test_config_on_a_missing_path_is_a_usage_error(tmp_path: Path, path: str) -> None:
    args = ("--", "--x.sql") if path == "--" else (path,)
    code, out, err = _config_toml(*args, cwd=tmp_path)
    assert code == 2 and out == ""
    assert f"innolint: {args[-1]}: no such file or directory" in err


def test_config_with_an_unknown_rule_selected(tmp_path: Path) -> None:
    code, _, err = _config_toml(str(tmp_path), "--select", "no-primary-ky")
    assert code == 2 and "did you mean 'no-primary-key'?" in err


# --- extend: a shared base for many repositories (issue 35) ---------------------------------------

def _org(tmp_path: Path) -> tuple[Path, Path]:
    """An organisation's shared base beside a service repository that extends it."""
    base = write(tmp_path / "org" / "innolint.toml", "\n".join([
        'target = "mariadb-10.11"', 'fail_level = "error"', 'exclude = ["db/legacy/**"]',
        "[rules.no-primary-key]", 'severity = "error"',
        "[rules.compression-candidate]", 'min_size = "512MiB"', ""]))
    service = tmp_path / "svc"
    (service / ".git").mkdir(parents=True)
    write(service / ".innolint.toml", "\n".join([
        'extend = "../org/innolint.toml"', 'fail_level = "warning"',
        "[rules.compression-candidate]", "enabled = false", ""]))
    return base, service


def test_extend_takes_the_bases_keys_where_the_file_sets_none(tmp_path: Path) -> None:
    base, service = _org(tmp_path)
    loaded = ConfigResolver().for_path(str(write(service / "db" / "a.sql", "")))
    assert (loaded.target, loaded.fail_level) == ("mariadb-10.11", "warning")
    assert loaded.rule("no-primary-key").severity == "error"  # type: ignore[union-attr]
    rule = loaded.rule("compression-candidate")
    assert rule is not None and rule.enabled is False and rule.min_size == 512 * 1024 * 1024  # type: ignore[attr-defined]
    # the base's exclude is relative to the service, where it applies
    assert loaded.is_excluded(str(write(service / "db" / "legacy" / "old.sql", "")), named=False)
    assert not loaded.is_excluded(str(service / "db" / "a.sql"), named=False)
    sources = {key: source for key, _, source in loaded.explain()}
    assert sources["target"] == str(base.resolve()) and sources["fail_level"] == str((service / ".innolint.toml").resolve())
    assert sources["rules.compression-candidate.min_size"] == str(base.resolve())
    assert sources["rules.compression-candidate.enabled"] == str((service / ".innolint.toml").resolve())


def test_a_base_may_extend_another_and_be_a_pyproject(tmp_path: Path) -> None:
    write(tmp_path / "org" / "pyproject.toml", '[tool.innolint]\ntarget = "mysql-8.4"\ninsert_heavy = ["*_log"]\n')
    write(tmp_path / "org" / "team.toml", 'extend = "pyproject.toml"\ntarget = "percona-8.0"\n')
    write(tmp_path / "svc" / ".innolint.toml", 'extend = "../org/team.toml"\n')
    loaded = ConfigResolver().for_path(str(write(tmp_path / "svc" / "a.sql", "")))
    assert loaded.target == "percona-8.0" and list(loaded.value("insert_heavy")) == ["*_log"]


@pytest.mark.parametrize(("setup", "expected"), [
    ({"svc/.innolint.toml": 'extend = "../org/missing.toml"\n'}, "configuration file not found"),
    ({"svc/.innolint.toml": 'extend = "../org/base.json"\n', "org/base.json": "{}"}, "is not a .toml file"),
    ({"svc/.innolint.toml": 'extend = "../org/a.toml"\n', "org/a.toml": 'extend = "b.toml"\n',
      "org/b.toml": 'extend = "a.toml"\n'}, "a cycle"),
    ({"svc/.innolint.toml": "extend = 3\n"}, "extend"),
    ({"svc/.innolint.toml": 'extend = "../org/pyproject.toml"\n', "org/pyproject.toml": "[tool.black]\n"},
     "has no [tool.innolint] table"),
])
def test_extend_errors_name_the_file_and_the_problem(tmp_path: Path, setup: dict[str, str], expected: str) -> None:
    for name, text in setup.items():
        write(tmp_path / name, text)
    with pytest.raises(ConfigError, match=re.escape(expected)):
        ConfigResolver().for_path(str(write(tmp_path / "svc" / "a.sql", "")))


def test_a_chain_of_bases_is_bounded(tmp_path: Path) -> None:
    for number in range(12):
        write(tmp_path / "org" / f"b{number}.toml", f'extend = "b{number + 1}.toml"\n' if number < 11 else "")
    write(tmp_path / "svc" / ".innolint.toml", 'extend = "../org/b0.toml"\n')
    with pytest.raises(ConfigError, match="more than 8 configurations extend one another"):
        ConfigResolver().for_path(str(write(tmp_path / "svc" / "a.sql", "")))


def test_a_base_outside_the_repository_is_read_but_its_values_are_never_echoed(tmp_path: Path) -> None:
    """A pull request chooses `extend`: a base outside the repository is read as a configuration
    only (a .toml file, regular, capped), and its errors name the file and the key, never the
    value it holds; inside the repository the value is said, as for any configuration."""
    _, service = _org(tmp_path)
    write(tmp_path / "org" / "innolint.toml", 'target = "s3cr3t-value"\n')
    with pytest.raises(ConfigError) as caught:
        ConfigResolver().for_path(str(write(service / "a.sql", "")))
    assert "innolint.toml: target:" in str(caught.value) and "s3cr3t" not in str(caught.value)
    write(service / "inside.toml", 'target = "s3cr3t-value"\n')
    write(service / ".innolint.toml", 'extend = "inside.toml"\n')
    with pytest.raises(ConfigError, match="s3cr3t-value"):
        ConfigResolver().for_path(str(write(service / "b.sql", "")))


def test_extend_end_to_end_with_innolint_config(tmp_path: Path) -> None:
    _, service = _org(tmp_path)
    write(service / "db" / "a.sql", "CREATE TABLE t (a INT);\n")
    done = run_cli(["check", "db"], cwd=service)
    assert done.returncode == 1 and "error [no-primary-key]" in done.stdout, done.stdout + done.stderr
    shown = run_cli(["config", "."], cwd=service)
    assert re.search(r'^target = "mariadb-10\.11" +# .*org/innolint\.toml$', shown.stdout, re.M), shown.stdout
    assert re.search(r'^extend = "\.\./org/innolint\.toml"', shown.stdout, re.M)
