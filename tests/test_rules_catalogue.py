"""`innolint rules --format json` for tools, and `innolint explain` for people, with a
did-you-mean for a misspelt rule."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from checks import ALL_CHECKS, ENGINE_RULES
from linter.cli import main
from linter.config.defaults import rule_ids


def catalogue(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["rules", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_rule_with_its_defaults_types_and_page(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    data = catalogue(capsys)
    assert data["version"] == 1
    by_id = {rule["id"]: rule for rule in data["rules"]}
    assert list(by_id) == list(rule_ids())
    for check in ALL_CHECKS:
        rule = by_id[check.id]
        assert (rule["kind"], rule["title"], rule["default_severity"]) == ("check", check.title, check.severity)
        assert rule["severity"] == check.severity and rule["enabled"] is True
        assert rule["docs"] == f"docs/rules/{check.id}.md" and Path(__file__).parents[1].joinpath(rule["docs"]).is_file()
        assert [o["name"] for o in rule["options"]] == list(check.doc.options)
        for option in rule["options"]:
            jsonschema.Draft202012Validator.check_schema(option["type"])
            assert option["default"] is not None and option["value"] == option["default"]
            # the default is a value of the option's type
            jsonschema.validate(option["default"], option["type"])
    for engine in ENGINE_RULES:
        assert by_id[engine]["kind"] == "engine" and by_id[engine]["options"] == []
        assert by_id[engine]["docs"] == "docs/rules/README.md"
    assert by_id["io-error"]["default_severity"] == "error" and by_id["replay-error"]["default_severity"] == "info"


def test_values_as_the_configuration_sets_them(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".innolint.toml").write_text(
        '[rules.redundant-index]\nseverity = "error"\n[rules.wide-primary-key]\nmax_key_bytes = 300\n'
        '[rules.no-primary-key]\nenabled = false\nseverity = "error"\n[rules.parse-error]\nseverity = "info"\n')
    monkeypatch.chdir(tmp_path)
    by_id = {rule["id"]: rule for rule in catalogue(capsys)["rules"]}
    assert by_id["redundant-index"]["severity"] == "error" and by_id["redundant-index"]["default_severity"] == "warning"
    [width] = [o for o in by_id["wide-primary-key"]["options"] if o["name"] == "max_key_bytes"]
    assert (width["default"], width["value"]) == (100, 300)
    assert by_id["no-primary-key"]["enabled"] is False
    [severity] = [o for o in by_id["no-primary-key"]["options"] if o["name"] == "severity"]
    assert severity["value"] == "error"
    assert by_id["parse-error"]["severity"] == "info"
    other = tmp_path / "elsewhere.toml"
    other.write_text('[rules.redundant-index]\nenabled = false\n')
    assert {r["id"]: r for r in catalogue(capsys, "--config", str(other))["rules"]}["redundant-index"]["enabled"] is False


def test_docs_url_when_the_project_url_is_known(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INNOLINT_RULES_URL", "https://example.org/docs/rules")
    by_id = {rule["id"]: rule for rule in catalogue(capsys)["rules"]}
    assert by_id["uuid-primary-key"]["docs_url"] == "https://example.org/docs/rules/uuid-primary-key.md"
    assert by_id["parse-error"]["docs_url"] == "https://example.org/docs/rules/README.md"


def test_rules_text_lists_every_rule_with_its_severity(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [*rule_ids(), "usage-error"]
    assert all(line.split()[1] in ("error", "warning", "info") for line in lines)


@pytest.mark.parametrize(("typed", "suggested"), [
    ("no-primary-ky", "no-primary-key"),
    ("uuid_primary_key", "uuid-primary-key"),
    ("redundant-indexes", "redundant-index"),
    ("parse-errors", "parse-error"),
    ("nothing-like-it-at-all", None),
])
def test_explain_suggests_the_closest_rule(capsys: pytest.CaptureFixture[str], typed: str,
                                           suggested: str | None) -> None:
    assert main(["explain", typed]) == 2
    err = capsys.readouterr().err
    assert f"unknown rule {typed!r}" in err and "`innolint rules` lists them" in err
    assert (f"did you mean {suggested!r}?" in err) if suggested else ("did you mean" not in err)


def test_explain_a_check_and_an_engine_rule(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["explain", "wide-primary-key"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# wide-primary-key:") and "## Fix" in out and "Online:" not in out
    monkeypatch.setenv("INNOLINT_RULES_URL", "https://example.org/docs/rules")
    assert main(["explain", "wide-primary-key"]) == 0
    assert "Online: https://example.org/docs/rules/wide-primary-key.md" in capsys.readouterr().out
    assert main(["explain", "replay-error"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# replay-error") and "Default severity: **info**" in out


@pytest.mark.parametrize(("typed", "pages"), [
    ("uuid", ["uuid-primary-key"]),
    ("UUID-Primary", ["uuid-primary-key"]),
    ("no-primary-key", ["no-primary-key"]),
    ("tenant", ["tenant-tablespace"]),
    ("parse", ["parse-error"]),
    ("usage-error", ["usage-error"]),
])
def test_explain_resolves_a_rule_as_select_does(capsys: pytest.CaptureFixture[str], typed: str,
                                               pages: list[str]) -> None:
    """`innolint explain uuid` said "unknown rule" while `--select uuid` took the prefix: one
    resolution (`linter.rules.selection.matching`) for both."""
    from linter.config.defaults import rule_ids
    from linter.rules.selection import RuleSelection

    assert main(["explain", typed]) == 0
    out = capsys.readouterr().out
    assert [line.split(":")[0].removeprefix("# ") for line in out.splitlines() if line.startswith("# ")] == pages
    if typed != "usage-error":  # (not a rule a run can select: it is the run's own failure)
        assert set(RuleSelection(select=[typed]).select or ()) == set(pages) & set(rule_ids())


def test_explain_of_a_prefix_naming_several_rules_prints_each(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "unused"]) == 0
    assert main(["explain", "ALL"]) == 0
    out = capsys.readouterr().out
    from linter.config.defaults import rule_ids

    titles = [line.split(":")[0].removeprefix("# ").split()[0] for line in out.splitlines() if line.startswith("# ")]
    assert titles[0] == "unused-suppression"
    assert set(titles[1:]) >= set(rule_ids())
