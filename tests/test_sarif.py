"""`--format sarif`: valid SARIF 2.1.0 (the official OASIS schema, errata01) with what GitHub reads."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft4Validator

from checks import ALL_CHECKS
from linter.rules.findings import Diagnostic, Finding, Report
from linter.report import sarif
from linter.rules.docs import render_rule
from tests.cli_run import run_cli
from tests.shared import need

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def validator() -> Draft4Validator:
    return Draft4Validator(json.loads(need("schemas", "sarif-schema-2.1.0.json").read_text()))


def errors(validator: Draft4Validator, log: dict) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(log)]


def sample(root: Path) -> Report:
    return Report(
        findings=[
            Finding(rule="no-primary-key", severity="warning", path=str(root / "db" / "V1__init.sql"), line=4, column=1,
                    end_line=8, schema="shop", table="page_view", message="page_view has no primary key",
                    evidence="no PRIMARY KEY and no UNIQUE key",
                    fix="ALTER TABLE `shop`.`page_view` ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST;",
                    subject="row-id"),
            Finding(rule="no-primary-key", severity="info", path="db/with space.sql", line=2, column=3, end_line=2,
                    table="coupon", message="clustered on UNIQUE code", subject="unique-clustered"),
            Finding(rule="no-primary-key", severity="error", path="-", line=1, table="t", message="from stdin",
                    fix="ALTER TABLE t ADD PRIMARY KEY (id);"),
            Finding(rule="not-a-registered-check", severity="warning", path="/elsewhere/dump.sql", line=0,
                    message="a rule the registry does not know"),
        ],
        diagnostics=[
            Diagnostic(rule="parse-error", path="db/V2__bad.sql", line=3, message="cannot parse", excerpt="CREATE TABEL x"),
            Diagnostic(rule="unused-suppression", severity="info", path="db/V1__init.sql", line=1, message="unused"),
        ],
    )


def test_log_is_valid_sarif_2_1_0(validator, tmp_path) -> None:
    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    assert errors(validator, log) == []
    assert log["version"] == "2.1.0"
    # and the text written by render is that log
    assert json.loads(sarif.render(sample(tmp_path), root=str(tmp_path))) == log


def test_the_schema_is_really_checked(validator, tmp_path) -> None:
    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert errors(validator, log)


def test_rules_carry_the_checks_documentation(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("INNOLINT_RULES_URL", "https://github.example/acme/innolint/blob/main/docs/rules/")
    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "innolint"
    rules = {rule["id"]: rule for rule in driver["rules"]}
    for check in ALL_CHECKS:
        rule = rules[check.id]
        assert rule["shortDescription"]["text"] == check.title
        assert rule["fullDescription"]["text"] == check.doc.why
        assert rule["help"]["markdown"] == render_rule(check)
        assert check.doc.bad in rule["help"]["text"] and check.doc.good in rule["help"]["text"]
        assert rule["helpUri"] == f"https://github.example/acme/innolint/blob/main/docs/rules/{check.id}.md"
        assert rule["defaultConfiguration"]["level"] == sarif.LEVEL[check.severity]
    assert rules["no-primary-key"]["name"] == "NoPrimaryKey"
    # a rule no check registers still gets a descriptor, so every ruleIndex points somewhere
    assert "not-a-registered-check" in rules
    for result in log["runs"][0]["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]


def test_results_locations_levels_and_order(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # relative paths in a report are relative to where innolint ran
    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    results = log["runs"][0]["results"]
    # worst first: GitHub keeps only the first 5,000 of a run
    assert [r["level"] for r in results] == ["error", "warning", "warning", "note"]
    stdin, absolute_elsewhere, migration, spaced = results[0], results[1], results[2], results[3]

    location = migration["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "db/V1__init.sql", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 4, "startColumn": 1, "endLine": 8}
    assert migration["locations"][0]["logicalLocations"] == [{"name": "page_view", "fullyQualifiedName": "shop.page_view"}]
    assert migration["message"]["text"].startswith("page_view has no primary key\n\nFix:\nALTER TABLE")
    assert migration["properties"]["evidence"] == "no PRIMARY KEY and no UNIQUE key"

    assert spaced["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "db/with%20space.sql"
    assert spaced["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 3}
    assert absolute_elsewhere["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "file:///elsewhere/dump.sql"}
    assert "region" not in absolute_elsewhere["locations"][0]["physicalLocation"]
    assert "fixes" not in stdin  # no file to change
    assert stdin["properties"]["fix"] == "ALTER TABLE t ADD PRIMARY KEY (id);"
    root_uri = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert root_uri == tmp_path.as_uri() + "/"


def test_fix_inserts_the_sql_after_the_statement(tmp_path) -> None:
    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    migration = log["runs"][0]["results"][2]
    (fix,) = migration["fixes"]
    assert "new migration" in fix["description"]["text"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "db/V1__init.sql", "uriBaseId": "%SRCROOT%"}
    (replacement,) = change["replacements"]
    # a zero-length region at the start of the line after the statement's last line (8)
    assert replacement["deletedRegion"] == {"startLine": 9, "startColumn": 1, "endLine": 9, "endColumn": 1}
    assert replacement["insertedContent"]["text"] == (
        "ALTER TABLE `shop`.`page_view` ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST;\n"
    )


def test_fingerprint_ignores_the_line() -> None:
    one = Finding(rule="no-primary-key", severity="warning", path="a.sql", line=3, table="T", schema="s",
                  message="m", subject="row-id")
    moved = one.replace(line=30, message="reworded")
    other = one.replace(table="u")
    assert sarif.fingerprint(one) == sarif.fingerprint(moved)
    assert sarif.fingerprint(one) != sarif.fingerprint(other)


def test_diagnostics_are_tool_notifications(tmp_path) -> None:
    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    run = log["runs"][0]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is True
    unused, parse_error = invocation["toolExecutionNotifications"]  # by path: db/V1 before db/V2
    descriptors = run["tool"]["driver"]["notifications"]
    assert descriptors[parse_error["descriptor"]["index"]]["id"] == "parse-error"
    assert parse_error["level"] == "warning"
    assert parse_error["message"]["text"] == "cannot parse\nStatement: CREATE TABEL x"
    assert parse_error["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    assert unused["level"] == "note" and unused["descriptor"]["id"] == "unused-suppression"
    assert all(r["ruleId"] not in ("parse-error", "unused-suppression") for r in run["results"])


def test_io_error_marks_the_execution_unsuccessful(validator) -> None:
    report = Report(diagnostics=[Diagnostic(rule="io-error", severity="error", path="missing.sql", message="no such file")])
    log = sarif.build(report)
    assert errors(validator, log) == []
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_max_results_keeps_the_worst_and_says_so(validator, tmp_path) -> None:
    report = Report(findings=[
        Finding(rule="no-primary-key", severity="error" if i == 7 else "info", path="a.sql", line=i + 1, message=f"m{i}")
        for i in range(10)
    ])
    log = sarif.build(report, root=str(tmp_path), max_results=3)
    assert errors(validator, log) == []
    results = log["runs"][0]["results"]
    assert [r["message"]["text"] for r in results] == ["m7", "m0", "m1"]
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes[-1]["message"]["text"].startswith("7 less severe results were left out")


def test_check_format_sarif_end_to_end(validator, tmp_path) -> None:
    sql = tmp_path / "schema.sql"
    sql.write_text(
        "CREATE TABLE ok_table (id INT NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n"
        "\n"
        "CREATE TABLE event_log (\n"
        "  created_at DATETIME NOT NULL,\n"
        "  message VARCHAR(200) NOT NULL\n"
        ") ENGINE=InnoDB;\n"
    )
    result = run_cli(["check", "--format", "sarif", "schema.sql"], cwd=tmp_path,
                     env={**__import__("os").environ, "GITHUB_WORKSPACE": str(tmp_path)})
    assert result.returncode == 1, result.stderr
    log = json.loads(result.stdout)
    assert errors(validator, log) == []
    (finding,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "no-primary-key"]
    assert finding["level"] == "warning"
    location = finding["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "schema.sql"
    assert location["region"]["startLine"] == 3
    assert location["region"].get("endLine") == 6
    assert "ADD COLUMN" in finding["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"]


# --- GitHub's limits and reading of SARIF (issue 16) -------------------------------------------------


def test_at_most_25000_results_per_run_the_worst_kept(validator, tmp_path) -> None:
    """GitHub code scanning takes at most 25,000 results per run (and shows the 5,000 most
    severe): a 26,002-finding report keeps the 25,000 worst and says how many were left out."""
    made = [Finding(rule="no-primary-key", severity=("error", "warning", "info")[i % 3], path="dump.sql", line=i + 1,
                    table=f"t{i}", message=f"t{i} has no primary key") for i in range(26_002)]
    log = sarif.build(Report(findings=made), root=str(tmp_path), max_results=sarif.GITHUB_RESULT_LIMIT)
    results = log["runs"][0]["results"]
    assert sarif.GITHUB_RESULT_LIMIT == 25_000 and len(results) == 25_000
    levels = [r["level"] for r in results]
    assert levels.count("error") == 8_668 and levels.count("warning") == 8_667 and levels.count("note") == 7_665
    assert levels == sorted(levels, key=["error", "warning", "note"].index)  # the 1,002 left out are all info
    (omitted,) = [n for n in log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
                  if n["descriptor"]["id"] == "results-omitted"]
    assert omitted["message"]["text"].startswith("1002 less severe results were left out")
    assert "lists every one" in omitted["message"]["text"]
    small = dict(log, runs=[dict(log["runs"][0], results=results[:50])])  # the schema check, on a slice
    assert errors(validator, small) == []


def test_problem_severity_takes_githubs_words(tmp_path) -> None:
    from checks import ALL_CHECKS

    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    for check in ALL_CHECKS:
        severity = rules[check.id]["properties"]["problem.severity"]
        assert severity in ("error", "warning", "recommendation")
        assert severity == {"info": "recommendation"}.get(check.severity, check.severity)
    assert rules["compression-candidate"]["properties"]["problem.severity"] == "recommendation"


def test_default_level_is_the_severity_without_evidence(tmp_path) -> None:
    """uuid-primary-key without evidence of many inserts is info: SARIF's default says note, and
    `innolint rules` prints info with what raises it."""
    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["uuid-primary-key"]["defaultConfiguration"]["level"] == "note"
    from tests.helpers import findings, lint_sql

    plain = findings(lint_sql("CREATE TABLE payment (id CHAR(36) NOT NULL PRIMARY KEY, amount INT);", tmp_path),
                     "uuid-primary-key")
    assert [f.severity for f in plain] == ["info"]
    listed = run_cli(["rules"], cwd=tmp_path)
    line = next(row for row in listed.stdout.splitlines() if row.startswith("uuid-primary-key "))
    assert line.split()[1] == "info" and "error when" in line
    for row in listed.stdout.splitlines():
        assert row.split()[1] in ("error", "warning", "info"), row  # engine rules too


@pytest.mark.parametrize(("environ", "expected"), [
    ({"INNOLINT_ACTION_REPOSITORY": "acme/innolint", "INNOLINT_ACTION_REF": "v1.2.0"},
     "https://github.com/acme/innolint/blob/v1.2.0/docs/rules"),
    ({"GITHUB_ACTION_REPOSITORY": "acme/innolint", "GITHUB_ACTION_REF": "0123abcd", "GITHUB_SERVER_URL": "https://ghe.example"},
     "https://ghe.example/acme/innolint/blob/0123abcd/docs/rules"),
    ({"INNOLINT_ACTION_PATH": "/home/runner/work/_actions/acme/innolint/main"},
     "https://github.com/acme/innolint/blob/main/docs/rules"),
    ({"INNOLINT_ACTION_PATH": "/home/runner/work/app/app/.github/actions/lint"}, None),  # a local action: unknown
    ({"INNOLINT_ACTION_REPOSITORY": "../../evil", "INNOLINT_ACTION_REF": "main"}, None),
    ({"INNOLINT_RULES_URL": "https://mirror.example/innolint/rules/"}, "https://mirror.example/innolint/rules"),
])
def test_rule_pages_come_from_one_place(environ, expected, tmp_path) -> None:
    from linter.rules.docs import _from_package, rule_page_url, rules_base_url

    # without an action's repository, the installed package's Repository URL (pyproject's
    # [project.urls]; none for an install from before it had one)
    expected = expected or _from_package()
    assert rules_base_url(environ) == expected
    if expected:
        assert rule_page_url("no-primary-key", environ) == f"{expected}/no-primary-key.md"
        assert rule_page_url("parse-error", environ) == f"{expected}/README.md"  # engine rules: the list
    else:
        assert rule_page_url("no-primary-key", environ) is None


def test_help_and_information_uris_from_the_action(validator, tmp_path, monkeypatch) -> None:
    for name in ("INNOLINT_RULES_URL", "GITHUB_ACTION_REPOSITORY", "GITHUB_ACTION_REF", "INNOLINT_ACTION_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INNOLINT_ACTION_REPOSITORY", "acme/innolint")
    monkeypatch.setenv("INNOLINT_ACTION_REF", "v2")
    log = sarif.build(sample(tmp_path), root=str(tmp_path))
    assert errors(validator, log) == []
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://github.com/acme/innolint"
    rules = {r["id"]: r for r in driver["rules"]}
    assert rules["redundant-index"]["helpUri"] == "https://github.com/acme/innolint/blob/v2/docs/rules/redundant-index.md"
    for page in (REPO_ROOT / "docs" / "rules").glob("*.md"):  # every address points at a page that exists
        assert page.name == "README.md" or page.stem in rules


def test_audit_locations_stay_server_uris(validator, tmp_path) -> None:
    """An audit's finding is at mysql://host/schema/table: no repository path, no %SRCROOT%, no fix to a file."""
    report = Report(findings=[Finding(rule="no-primary-key", severity="warning", path="mysql://db1:3306/shop/app_log",
                                      line=1, schema="shop", table="app_log", message="no key",
                                      fix="ALTER TABLE `shop`.`app_log` ADD COLUMN id INT;"),
                              Finding(rule="no-primary-key", severity="warning", path="mysql://localhost/shop/a b",
                                      line=1, schema="shop", table="a b", message="no key")])
    log = sarif.build(report, root=str(tmp_path))
    assert errors(validator, log) == []
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]]
    assert uris == [{"uri": "mysql://db1:3306/shop/app_log"}, {"uri": "mysql://localhost/shop/a%20b"}]
    assert all("fixes" not in r for r in log["runs"][0]["results"])
    assert log["runs"][0]["results"][0]["properties"]["fix"].startswith("ALTER TABLE")


def test_a_grouped_finding_is_one_result_with_its_copies(validator, tmp_path) -> None:
    names = tuple(f"tenant_{n:05d}" for n in range(1, 21))
    grouped = Finding(rule="no-primary-key", severity="warning", path=str(tmp_path / "dump.sql"), line=40,
                      schema=names[0], table="audit_log", message="audit_log has no primary key", count=2000,
                      schemas=names, fix="-- for each ...\nALTER TABLE x;")
    log = sarif.build(Report(findings=[grouped]), root=str(tmp_path))
    assert errors(validator, log) == []
    (result,) = log["runs"][0]["results"]
    assert result["properties"]["count"] == 2000 and result["properties"]["schemas"] == list(names)
    assert "The same in 2,000 tenant schemas (tenant_00001, tenant_00002, tenant_00003 and 1,997 more)." in result["message"]["text"]


@pytest.mark.parametrize("fmt", ["sarif", "json"])
@pytest.mark.parametrize("bad", [["--config", "missing.toml"], ["--since", "no-such-ref"], ["--baseline", "nope.json"]])
def test_a_run_that_cannot_start_still_writes_its_report(validator, tmp_path, fmt, bad) -> None:
    """A usage error (configuration, git ref, baseline) exits 2 and still writes the report, with
    one usage-error saying why: what reads the report (the action, code scanning) has a reason."""
    (tmp_path / "schema.sql").write_text("CREATE TABLE t (a INT);\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)  # a repository without that ref
    out = tmp_path / f"report.{fmt}"
    done = run_cli(["check", "--format", fmt, "--output", str(out), *bad, "schema.sql"], cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    data = json.loads(out.read_text())
    if fmt == "sarif":
        assert errors(validator, data) == []
        (note,) = data["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        assert note["descriptor"]["id"] == "usage-error" and note["level"] == "error"
        assert data["runs"][0]["invocations"][0]["executionSuccessful"] is False
        text = note["message"]["text"]
    else:
        (diagnostic,) = data["diagnostics"]
        assert diagnostic["rule"] == "usage-error" and diagnostic["severity"] == "error"
        text = diagnostic["message"]
    assert bad[1] in text
    assert text in done.stderr


def test_a_run_about_a_change_says_each_results_baseline_state(validator, tmp_path) -> None:
    """A finding the change adds is `baselineState: new`, one that was there `unchanged`
    (SARIF's own words); a run that compared nothing has none."""
    findings = [Finding(rule="no-primary-key", severity="warning", path=str(tmp_path / "a.sql"), line=1, table="t",
                        message="t has no primary key", new=new) for new in (True, False, None)]
    log = json.loads(sarif.render(Report(findings=findings), root=str(tmp_path)))
    assert errors(validator, log) == []
    assert [r.get("baselineState") for r in log["runs"][0]["results"]] == ["new", "unchanged", None]
