"""The baseline: fingerprints without line numbers, the round trip, new and gone findings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from linter.baseline import BaselineError, build, compare, fingerprint, load, write
from linter.findings import Finding

ROOT = Path(__file__).resolve().parents[1]
NO_PK = "CREATE TABLE {name} (a INT NOT NULL, b TEXT) ENGINE=InnoDB;\n"


def finding(table: str, line: int = 1, *, rule: str = "no-primary-key", schema: str | None = None,
            subject: str | None = "row-id", path: str = "a.sql") -> Finding:
    return Finding(rule=rule, severity="warning", path=path, line=line, schema=schema, table=table, message="m",
                   subject=subject)


def test_fingerprint_ignores_lines_and_paths_and_case() -> None:
    assert fingerprint(finding("Orders", 3)) == fingerprint(finding("orders", 90, path="b.sql"))
    assert fingerprint(finding("orders")) != fingerprint(finding("orders", schema="shop"))
    assert fingerprint(finding("orders")) != fingerprint(finding("orders", subject="unique-clustered"))
    assert fingerprint(finding("orders")) != fingerprint(finding("orders", rule="other-rule"))


def test_counts_tell_new_duplicates_apart(tmp_path: Path) -> None:
    baseline = build([finding("users", 1, path="svc-a.sql"), finding("users", 1, path="svc-b.sql")])
    assert [e.count for e in baseline.findings] == [2]
    result = compare([finding("users", 1), finding("users", 5), finding("users", 9)], baseline, "bl.json")
    assert result.known == 2 and [f.line for f in result.new] == [9]


def test_gone_entries_are_info_diagnostics(tmp_path: Path) -> None:
    baseline = build([finding("users"), finding("orders", schema="shop", path="db/shop.sql")])
    result = compare([finding("users", 40)], baseline, "bl.json")
    assert result.new == [] and result.known == 1
    [gone] = result.gone
    assert (gone.rule, gone.severity, gone.path) == ("baseline-gone", "info", "db/shop.sql")
    assert "shop.orders" in gone.message and "--write-baseline bl.json" in gone.message


def test_write_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "bl.json"
    assert write(str(path), [finding("b"), finding("a"), finding("a", 7)]) == 3
    data = json.loads(path.read_text())
    assert data["version"] == 1 and [e["table"] for e in data["findings"]] == ["a", "b"]
    assert "line" not in data["findings"][0]
    loaded = load(str(path))
    assert compare([finding("a", 70), finding("a", 80), finding("b", 1)], loaded, str(path)).new == []


def test_bad_baseline_files(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="cannot read"):
        load(str(tmp_path / "missing.json"))
    (tmp_path / "bad.json").write_text('{"version": 1, "findings": [{"table": "x"}]}')
    with pytest.raises(BaselineError, match=r"not an innolint baseline: findings\.0\.rule"):
        load(str(tmp_path / "bad.json"))
    (tmp_path / "v2.json").write_text('{"version": 2, "findings": []}')
    with pytest.raises(BaselineError, match="version 2"):
        load(str(tmp_path / "v2.json"))


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "linter.cli", *args], capture_output=True, text=True, cwd=cwd)


def test_round_trip_through_the_cli(tmp_path: Path) -> None:
    schema = tmp_path / "schema.sql"
    schema.write_text(NO_PK.format(name="legacy_a") + NO_PK.format(name="legacy_b"))
    baseline = tmp_path / ".innolint-baseline.json"
    written = run("check", "--write-baseline", str(baseline), str(schema))
    assert written.returncode == 0, written.stderr
    assert "2 findings" in written.stderr
    assert json.loads(baseline.read_text())["findings"][0]["table"] == "legacy_a"

    # edits above the statements move every line: the baseline still holds
    schema.write_text("-- a new header\n\n" + NO_PK.format(name="legacy_a") + NO_PK.format(name="legacy_b"))
    clean = run("check", "--format", "json", "--baseline", str(baseline), str(schema))
    assert clean.returncode == 0, clean.stdout
    assert json.loads(clean.stdout)["findings"] == []
    assert "2 known findings hidden by the baseline" in clean.stderr

    # a new table is reported; a fixed one is listed as gone and does not fail the run
    schema.write_text(NO_PK.format(name="legacy_a") + "CREATE TABLE legacy_b (id INT PRIMARY KEY);\n" + NO_PK.format(name="fresh"))
    mixed = run("check", "--format", "json", "--baseline", str(baseline), str(schema))
    report = json.loads(mixed.stdout)
    assert mixed.returncode == 1
    assert [f["table"] for f in report["findings"]] == ["fresh"]
    assert [(d["rule"], d["severity"]) for d in report["diagnostics"]] == [("baseline-gone", "info")]
    assert "legacy_b" in report["diagnostics"][0]["message"]
    gone_only = run("check", "--format", "json", "--fail-level", "info", "--baseline", str(baseline), str(schema))
    assert gone_only.returncode == 1  # `fresh` still fails; the gone entry alone would not

    schema.write_text(NO_PK.format(name="legacy_a"))
    only_gone = run("check", "--fail-level", "info", "--baseline", str(baseline), str(schema))
    assert only_gone.returncode == 0, only_gone.stdout


def test_unreadable_baseline_is_a_usage_error(tmp_path: Path) -> None:
    schema = tmp_path / "schema.sql"
    schema.write_text(NO_PK.format(name="a"))
    done = run("check", "--baseline", str(tmp_path / "nope.json"), str(schema))
    assert done.returncode == 2 and "nope.json" in done.stderr and "Traceback" not in done.stderr


def test_gone_is_only_said_of_files_the_run_linted(tmp_path: Path) -> None:
    a = tmp_path / "a" / "schema.sql"
    b = tmp_path / "b" / "schema.sql"
    for path, name in ((a, "in_a"), (b, "in_b")):
        path.parent.mkdir()
        path.write_text(NO_PK.format(name=name))
    baseline = tmp_path / "bl.json"
    assert run("check", "--write-baseline", str(baseline), str(tmp_path)).returncode == 0
    # a run on directory a only: b's entry is not "gone", it was not looked at
    partial = run("check", "--format", "json", "--baseline", str(baseline), str(tmp_path / "a"))
    assert json.loads(partial.stdout)["diagnostics"] == [] and partial.returncode == 0
    # changed-files mode on a: nothing about b either
    changed = run("check", "--format", "json", "--changed-only", "--baseline", str(baseline), str(a))
    assert json.loads(changed.stdout)["diagnostics"] == [] and changed.returncode == 0
    a.write_text("CREATE TABLE in_a (id INT PRIMARY KEY);\n")
    fixed = run("check", "--format", "json", "--changed-only", "--baseline", str(baseline), str(a))
    assert [d["rule"] for d in json.loads(fixed.stdout)["diagnostics"]] == ["baseline-gone"]


def test_write_baseline_needs_a_full_run(tmp_path: Path) -> None:
    schema = tmp_path / "schema.sql"
    schema.write_text(NO_PK.format(name="a"))
    done = run("check", "--changed-only", "--write-baseline", str(tmp_path / "bl.json"), str(schema))
    assert done.returncode == 2 and "without --changed-only" in done.stderr
