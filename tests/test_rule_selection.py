"""--select, --extend-select and --ignore as ruff has them: rule ids or prefixes, comma-separated
or repeated, beating the configuration; unknown names are usage errors with a did-you-mean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.cli import main
from linter.config.defaults import ConfigError, rule_ids
from linter.rules.selection import RuleSelection, matching
from tests.helpers import ROOT

EXAMPLES = str(ROOT / "examples")
EVERY = set(rule_ids())


def rules_found(capsys: pytest.CaptureFixture[str], *args: str) -> set[str]:
    code = main(["check", "--format", "json", *args])
    assert code in (0, 1), capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    return {item["rule"] for item in [*data["findings"], *data["diagnostics"]]}


def test_examples_find_many_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(rules_found(capsys, EXAMPLES)) >= 10


@pytest.mark.parametrize(("args", "expected"), [
    (["--select", "no-primary-key"], {"no-primary-key"}),
    (["--select", "uuid"], {"uuid-primary-key"}),
    (["--select", "tenant,cross-tenant"], {"tenant-tablespace", "cross-tenant-tablespace"}),
    (["--select", "tenant", "--select", "redundant-index"], {"tenant-tablespace", "redundant-index"}),
    (["--select", "NO-PRIMARY-KEY"], {"no-primary-key"}),
    (["--select", "ALL", "--ignore", "wide-primary-key,compression"],
     None),  # every rule found but those two
    (["--select", "no-primary-key", "--extend-select", "link-table-primary-key"],
     {"no-primary-key", "link-table-primary-key"}),
    (["--select", "no-primary-key,uuid", "--ignore", "uuid"], {"no-primary-key"}),
])
def test_selection_on_the_command_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                       expected: set[str] | None) -> None:
    everything = rules_found(capsys, EXAMPLES)
    found = rules_found(capsys, *args, EXAMPLES)
    if expected is None:
        expected = everything - {"wide-primary-key", "compression-candidate"}
    # a statement the server refuses for a key index-key-length would report stays said when that rule
    # does not run (examples/shop.sql's landing_page): a refused-ddl finding, or a replay-error where
    # refused-ddl does not run either: never silent
    assert found - {"replay-error", "refused-ddl"} == expected - {"replay-error", "refused-ddl"}
    assert bool({"replay-error", "refused-ddl"} & found) == (
        bool({"replay-error", "refused-ddl"} & expected) or "index-key-length" not in found)


def test_ignore_alone_and_the_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sql = tmp_path / "s.sql"
    sql.write_text("CREATE TABLE a (x INT);\nCREATE TABLE b (id CHAR(36) NOT NULL DEFAULT (UUID()) PRIMARY KEY);\n")
    assert rules_found(capsys, str(sql)) == {"no-primary-key", "uuid-primary-key"}
    assert rules_found(capsys, "--ignore", "no-primary-key", str(sql)) == {"uuid-primary-key"}
    (tmp_path / ".innolint.toml").write_text("[rules.no-primary-key]\nenabled = false\n")
    assert rules_found(capsys, str(sql)) == {"uuid-primary-key"}
    # the command line beats the file: --select and --extend-select run a rule the file disables
    assert rules_found(capsys, "--select", "no-primary-key", str(sql)) == {"no-primary-key"}
    assert rules_found(capsys, "--extend-select", "no", str(sql)) == {"no-primary-key", "uuid-primary-key"}


def test_parse_errors_stay_whatever_is_selected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sql = tmp_path / "s.sql"
    sql.write_text("CREATE TABLE a (x INT);\nCREATE TABLE b (;\nALTER TABLE nowhere ADD COLUMN y INT;\n")
    found = rules_found(capsys, "--select", "uuid", "--show-info", str(sql))
    assert found == {"parse-error", "replay-error"}
    assert rules_found(capsys, "--select", "uuid", "--ignore", "parse-error,replay-error", str(sql)) == set()


def test_suppressions_of_unselected_rules_are_not_unused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sql = tmp_path / "s.sql"
    sql.write_text("-- innolint: ignore[uuid-primary-key] legacy ids\n"
                   "CREATE TABLE b (id CHAR(36) NOT NULL DEFAULT (UUID()) PRIMARY KEY, payload JSON);\n")
    assert rules_found(capsys, "--show-info", str(sql)) == {"compression-candidate"}
    assert rules_found(capsys, "--show-info", "--select", "compression", str(sql)) == {"compression-candidate"}


@pytest.mark.parametrize(("flag", "value", "hint"), [
    ("--select", "no-primary-ky", "did you mean 'no-primary-key'?"),
    ("--ignore", "uuid-primry", "did you mean 'uuid-primary-key'?"),
    ("--extend-select", "redundant-indexes", "did you mean 'redundant-index'?"),
    ("--select", "re", None),  # half a word is no prefix
    ("--select", "tenant_tablespace", "did you mean 'tenant-tablespace'?"),
    ("--select", "x" * 5000, None),
])
def test_unknown_rules_are_usage_errors(capsys: pytest.CaptureFixture[str], flag: str, value: str,
                                        hint: str | None) -> None:
    assert main(["check", flag, value, EXAMPLES]) == 2
    err = capsys.readouterr().err
    assert f"innolint: {flag} {value[:50]}" in err and "`innolint rules` lists them" in err
    if hint is not None:
        assert hint in err
    else:
        assert "did you mean" not in err


def test_matching_is_by_whole_segments() -> None:
    known = sorted(EVERY)
    assert matching("no", known) == {"no-primary-key"}
    assert matching("no-", known) == {"no-primary-key"}
    assert matching("primary", known) == set()
    assert matching("all", known) == EVERY
    assert matching("", known) == set()
    assert matching("invalid-suppression", known) == {"invalid-suppression"}


def test_selection_disables_what_it_leaves_out() -> None:
    selection = RuleSelection(select=["uuid"], extend=["redundant"], ignore=["io-error"])
    disabled = selection.disabled(frozenset({"redundant-index", "parse-error"}))
    assert EVERY - disabled == {"uuid-primary-key", "redundant-index", "replay-error"}
    with pytest.raises(ConfigError, match="--ignore nope"):
        RuleSelection(ignore=["nope"])
