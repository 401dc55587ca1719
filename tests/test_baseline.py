"""The baseline: fingerprints without line numbers, the round trip, new and gone findings."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from linter.rules.baseline import BaselineError, build, compare, fingerprint, load, write
from linter.rules.findings import Finding
from tests.cli_run import run_cli
from tests.shared import need

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
    # issue 16: entries carry their file, so the same table in two services is two entries (it
    # was one entry counting 2, and a third `users` anywhere matched it)
    baseline = build([finding("users", 1, path="svc-a.sql"), finding("users", 1, path="svc-b.sql"),
                      finding("users", 3, path="a.sql"), finding("users", 7, path="a.sql")])
    assert [(e.path, e.count) for e in baseline.findings] == [("a.sql", 2), ("svc-a.sql", 1), ("svc-b.sql", 1)]
    result = compare([finding("users", 1), finding("users", 5), finding("users", 9)], baseline, "bl.json")
    assert result.known == 2 and [f.line for f in result.new] == [9]
    moved = compare([finding("users", 1, path="svc-c.sql")], baseline, "bl.json")
    assert moved.known == 0 and len(moved.new) == 1


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
    """The CLI of this checkout, from any directory, in this process (tests/cli_run.py)."""
    return run_cli(args, cwd=cwd)


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


# --- issue 16: a baseline that holds -------------------------------------------------------------



@pytest.mark.parametrize("inputs", [
    ["zoneminder"],  # a parse error (a comment holding `*/`)
    ["kanboard", "phpbb", "roundcube"],
    ["authelia", "golang-migrate", "dolphinscheduler"],
])
def test_write_then_check_exits_0(tmp_path: Path, inputs: list[str]) -> None:
    """Right after --write-baseline, --baseline finds nothing new: findings, tenant groups and
    diagnostics (parse errors, replay errors) are all recorded."""
    paths = [str(need("corpus", name)) for name in inputs]
    baseline = tmp_path / "bl.json"
    first = run("check", "--format", "json", *paths)
    assert first.returncode in (0, 1)
    written = run("check", "--write-baseline", str(baseline), *paths)
    assert written.returncode == 0, written.stderr
    again = run("check", "--format", "json", "--fail-level", "info", "--baseline", str(baseline), *paths)
    report = json.loads(again.stdout)
    assert (report["findings"], report["diagnostics"], again.returncode) == ([], [], 0), again.stderr


def test_parse_errors_are_recorded_and_a_new_one_is_reported(tmp_path: Path) -> None:
    schema = tmp_path / "schema.sql"
    schema.write_text(NO_PK.format(name="a") + "CREATE TABEL broken (x INT);\n")
    baseline = tmp_path / "bl.json"
    assert run("check", "--write-baseline", str(baseline), str(schema)).returncode == 0
    data = json.loads(baseline.read_text())
    assert [(e["rule"], e["path"]) for e in data["diagnostics"]] == [("parse-error", "schema.sql")]
    assert run("check", "--baseline", str(baseline), str(schema)).returncode == 0
    schema.write_text("-- moved down\n" + NO_PK.format(name="a") + "CREATE TABEL broken (x INT);\nCREATE TABEL other (y INT);\n")
    again = run("check", "--format", "json", "--baseline", str(baseline), str(schema))
    report = json.loads(again.stdout)
    assert again.returncode == 1
    assert [(d["rule"], d["line"]) for d in report["diagnostics"]] == [("parse-error", 4)]


def test_same_named_tables_in_different_files_do_not_collide(tmp_path: Path) -> None:
    (tmp_path / "billing").mkdir()
    (tmp_path / "shop").mkdir()
    (tmp_path / "billing" / "schema.sql").write_text(NO_PK.format(name="users"))
    (tmp_path / "shop" / "schema.sql").write_text("CREATE TABLE users (id INT PRIMARY KEY) ENGINE=InnoDB;\n")
    baseline = tmp_path / "bl.json"
    assert run("check", "--write-baseline", str(baseline), str(tmp_path)).returncode == 0
    (tmp_path / "shop" / "schema.sql").write_text(NO_PK.format(name="users"))  # shop's users loses its key
    done = run("check", "--format", "json", "--baseline", str(baseline), str(tmp_path))
    assert done.returncode == 1
    assert [(f["path"].rsplit("/", 2)[-2], f["table"]) for f in json.loads(done.stdout)["findings"]] == [("shop", "users")]


def test_a_subset_from_anywhere_reports_no_other_entry_as_gone(tmp_path: Path) -> None:
    """The baseline written at the repository root over two directories; then one file linted
    from a subdirectory, by a relative path, plain and in changed-files mode: nothing is gone,
    nothing is new, exit 0. Paths in the file are relative to the baseline's directory."""
    for part, name in (("db", "orders"), ("legacy", "events")):
        (tmp_path / part).mkdir()
        (tmp_path / part / "schema.sql").write_text(NO_PK.format(name=name))
    baseline = tmp_path / ".innolint-baseline.json"
    assert run("check", "--write-baseline", ".innolint-baseline.json", "db", "legacy", cwd=tmp_path).returncode == 0
    assert sorted(e["path"] for e in json.loads(baseline.read_text())["findings"]) == ["db/schema.sql", "legacy/schema.sql"]
    for extra in ([], ["--changed-only"]):
        done = run("check", "--format", "json", *extra, "--baseline", "../.innolint-baseline.json", "schema.sql",
                   cwd=tmp_path / "db")
        report = json.loads(done.stdout)
        assert (report["findings"], report["diagnostics"], done.returncode) == ([], [], 0), (extra, done.stderr)
    (tmp_path / "db" / "schema.sql").write_text("CREATE TABLE orders (id INT PRIMARY KEY);\n")
    fixed = run("check", "--format", "json", "--baseline", "../.innolint-baseline.json", "schema.sql", cwd=tmp_path / "db")
    gone = json.loads(fixed.stdout)["diagnostics"]
    assert [(d["rule"], d["path"]) for d in gone] == [("baseline-gone", "schema.sql")]  # db's only, not legacy's


def test_a_finding_that_moves_between_migrations_stays_known(tmp_path: Path) -> None:
    history = tmp_path / "migrations"
    history.mkdir()
    (history / "V1__init.sql").write_text(
        "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b INT, c INT, KEY ka (a), KEY kab (a, b)) ENGINE=InnoDB;\n")
    baseline = tmp_path / "bl.json"
    assert run("check", "--write-baseline", str(baseline), str(history)).returncode == 0
    (history / "V2__widen.sql").write_text("ALTER TABLE t DROP INDEX kab, ADD INDEX kab (a, b, c);\n")
    moved = run("check", "--format", "json", str(history))
    assert [f["path"].rsplit("/", 1)[-1] for f in json.loads(moved.stdout)["findings"]] == ["V2__widen.sql"]
    done = run("check", "--format", "json", "--baseline", str(baseline), str(history))
    assert (json.loads(done.stdout)["findings"], done.returncode) == ([], 0), done.stdout


def test_tenant_groups_are_recorded_by_definition(tmp_path: Path) -> None:
    from tests.test_grouping import TENANT, dump

    sql = tmp_path / "tenants.sql"
    sql.write_text(dump([f"tenant_{n}" for n in range(1, 6)]))
    baseline = tmp_path / "bl.json"
    assert run("check", "--write-baseline", str(baseline), str(sql)).returncode == 0
    entries = json.loads(baseline.read_text())["findings"]
    nopk = [e for e in entries if e["rule"] == "no-primary-key"]
    assert [(e["schema"], e["table"], e["count"]) for e in nopk] == [("{tenant}", "audit_log", 5)]
    # two tenants more (and the first one dropped): the same problem, known
    sql.write_text(dump([f"tenant_{n}" for n in range(2, 9)]))
    grown = run("check", "--format", "json", "--baseline", str(baseline), str(sql))
    assert (json.loads(grown.stdout)["findings"], grown.returncode) == ([], 0), grown.stdout
    # a new table without a key in every tenant: new
    sql.write_text(dump([f"tenant_{n}" for n in range(2, 9)]).replace(
        TENANT.splitlines()[2], TENANT.splitlines()[2] + "\nCREATE TABLE `extra_log` (`a` INT) ENGINE=InnoDB;"))
    more = run("check", "--format", "json", "--baseline", str(baseline), str(sql))
    assert [(f["table"], f["count"]) for f in json.loads(more.stdout)["findings"] if f["rule"] == "no-primary-key"] \
        == [("extra_log", 7)]
    assert more.returncode == 1


# --- `baseline` in the configuration (issue 35) ----------------------------------------------------

def _service(root: Path, name: str, tables: list[str]) -> Path:
    service = root / name
    (service / "db").mkdir(parents=True)
    (service / "db" / "schema.sql").write_text("".join(NO_PK.format(name=t) for t in tables))
    (service / ".innolint.toml").write_text('baseline = ".innolint-baseline.json"\n')
    return service


def test_each_services_configuration_names_its_own_baseline(tmp_path: Path) -> None:
    """A monorepo of two services, each with `baseline = ...` in its configuration: one run reads
    both, each hiding its own service's findings only; the pre-commit hook and the action read
    the same key."""
    (tmp_path / ".git").mkdir()
    a = _service(tmp_path, "svc-a", ["users", "orders"])
    b = _service(tmp_path, "svc-b", ["users"])
    missing = run("check", "svc-a", "svc-b", cwd=tmp_path)
    assert missing.returncode == 1
    assert "does not exist yet, so nothing is hidden" in missing.stderr and "--write-baseline" in missing.stderr
    for service in (a, b):
        done = run("check", "--quiet", "--write-baseline", ".innolint-baseline.json", "db", cwd=service)
        assert done.returncode == 0, done.stderr
    clean = run("check", "svc-a", "svc-b", cwd=tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "3 known findings hidden by the baseline, 0 gone" in clean.stderr
    # a new finding in one service is new there only, at full severity; b's baseline knows `users`, not `orders`
    (b / "db" / "schema.sql").write_text(NO_PK.format(name="users") + NO_PK.format(name="orders"))
    report = json.loads(run("check", "--format", "json", "svc-a", "svc-b", cwd=tmp_path).stdout)
    assert [(f["table"], Path(f["path"]).parts[0], f["new"]) for f in report["findings"]] == [("orders", "svc-b", True)]
    # --baseline FILE beats the configuration for every file
    flag = run("check", "--baseline", str(a / ".innolint-baseline.json"), "svc-a", "svc-b", cwd=tmp_path)
    assert flag.returncode == 1 and "svc-b" in flag.stdout


def test_a_configured_baseline_outside_the_repository_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "a.sql").write_text(NO_PK.format(name="t"))
    (tmp_path / "elsewhere.json").write_text("{}")
    (repo / ".innolint.toml").write_text('baseline = "../elsewhere.json"\n')
    done = run("check", "a.sql", cwd=repo)
    assert done.returncode == 2 and "baseline: '../elsewhere.json' lies outside the repository" in done.stderr
