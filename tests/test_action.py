"""The GitHub Action: linted as CI lints it, its inputs wired through env:, its script run for real."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.fake_github import FakeGitHub

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest itself depends on tomli there
    import tomli as tomllib

REPO_ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO_ROOT / "action.yml").read_text())
STEPS = {step.get("id"): step for step in ACTION["runs"]["steps"]}
BAD_SQL = "CREATE TABLE event_log (\n  created_at DATETIME NOT NULL,\n  message VARCHAR(200) NOT NULL\n) ENGINE=InnoDB;\n"


def _go_bin() -> str | None:
    if shutil.which("go") is None:
        return None
    out = subprocess.run(["go", "env", "GOBIN", "GOPATH"], capture_output=True, text=True, check=False).stdout.split("\n")
    return out[0] or os.path.join(out[1], "bin")


def test_check_action_script_passes() -> None:
    """actionlint + check-jsonschema on action.yml and docs/github-workflow.yml (.ci/check-action)."""
    go_bin = _go_bin()
    have_actionlint = shutil.which("actionlint") or (go_bin and os.path.exists(os.path.join(go_bin, "actionlint")))
    if not have_actionlint and go_bin is None:
        pytest.skip("actionlint is not installed and go is not there to install it (CI has go)")
    result = subprocess.run(["bash", str(REPO_ROOT / ".ci" / "check-action")], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "check-action: ok" in result.stdout


def test_inputs_and_outputs_are_the_documented_ones() -> None:
    assert set(ACTION["inputs"]) == {
        "paths", "config", "target", "fail-on", "only-changed", "annotations", "github-token",
        "sarif-file", "summary", "comment", "python-version",
    }
    defaults = {name: spec.get("default") for name, spec in ACTION["inputs"].items()}
    assert defaults["annotations"] == "checks"
    assert defaults["github-token"] == "${{ github.token }}"
    assert (defaults["summary"], defaults["comment"], defaults["only-changed"]) == ("true", "false", "auto")
    assert set(ACTION["outputs"]) == {"findings", "sarif-file"}
    assert ACTION["runs"]["using"] == "composite"


def test_every_input_reaches_the_shell_through_env_only() -> None:
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), f"expression inside run: in step {step.get('name')}"
    passed = " ".join(str(v) for step in ACTION["runs"]["steps"] for v in (step.get("env") or {}).values())
    passed += " ".join(str(v) for step in ACTION["runs"]["steps"] for v in (step.get("with") or {}).values())
    for name in ACTION["inputs"]:
        assert f"inputs.{name} }}}}" in passed, f"input {name} is not used"


def test_installs_from_its_own_checkout_into_its_own_venv() -> None:
    install = STEPS["install"]
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert '-m venv "$venv"' in install["run"]
    assert '"${ACTION_PATH}[github]"' in install["run"]
    assert STEPS["python"]["with"]["update-environment"] is False  # the job's own Python stays as it was
    # the [github] extra the action installs must exist and bring PyGithub
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.lower().startswith("pygithub") for req in extras.get("github", [])), "pyproject needs a `github` extra with PyGithub"


def _run_lint_step(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the action's "Run innolint" and "Publish" scripts with bash, as the runner would, against
    this checkout: each with only its own `env:` (the check step never sees the token), the second
    only when the first succeeded, with the first's `status` output. Their output together."""
    wrapper = tmp_path / "innolint"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="{REPO_ROOT}" exec "{sys.executable}" -m linter.cli "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    values = {
        "INNOLINT": str(wrapper), "INNOLINT_PATHS": "db", "INNOLINT_CONFIG": "", "INNOLINT_TARGET": "",
        "INNOLINT_FAIL_ON": "warning", "INNOLINT_ONLY_CHANGED": "auto", "INNOLINT_ANNOTATIONS": "workflow-commands",
        "INNOLINT_SARIF_FILE": "", "INNOLINT_SUMMARY": "true", "INNOLINT_COMMENT": "false", "GITHUB_TOKEN": "",
    }
    values.update({k: v for k, v in env.items() if k in values})
    step_env = set(STEPS["lint"]["env"]) | set(STEPS["publish"]["env"])
    assert set(values) | {"INNOLINT_STATUS"} == step_env, "the test's environment is out of step with action.yml"
    (tmp_path / "runner").mkdir(exist_ok=True)
    for name in ("output", "summary"):
        (tmp_path / name).write_text("")
    base = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")},
        "RUNNER_TEMP": str(tmp_path / "runner"), "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"), "GITHUB_EVENT_NAME": "push",
        "GITHUB_WORKSPACE": str(tmp_path / "work"),
        **{k: v for k, v in env.items() if k not in values},  # the runner's own GITHUB_* variables
    }
    base.pop("GITHUB_TOKEN", None)

    def step(name: str, extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
        own = {key: values[key] for key in STEPS[name]["env"] if key in values}
        return subprocess.run(["bash", "-c", STEPS[name]["run"]], cwd=tmp_path / "work", env={**base, **own, **extra},
                              capture_output=True, text=True, timeout=300)

    lint = step("lint", {})
    if lint.returncode != 0:
        return lint
    outputs = dict(line.split("=", 1) for line in (tmp_path / "output").read_text().splitlines() if "=" in line)
    publish = step("publish", {"INNOLINT_STATUS": outputs["status"]})
    return subprocess.CompletedProcess(publish.args, publish.returncode, lint.stdout + publish.stdout,
                                       lint.stderr + publish.stderr)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "work" / "db").mkdir(parents=True)
    (tmp_path / "work" / "db" / "V1__events.sql").write_text(BAD_SQL)
    return tmp_path


def test_lint_step_with_workflow_commands(workspace: Path) -> None:
    result = _run_lint_step(workspace, {"INNOLINT_SARIF_FILE": "innolint.sarif"})
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("::warning file=db/V1__events.sql,line=1,endLine=4,title=innolint [no-primary-key]::")
    outputs = (workspace / "output").read_text()
    assert "findings=1\n" in outputs and "sarif-file=innolint.sarif\n" in outputs
    assert (workspace / "summary").read_text().startswith("## innolint: 1 finding (1 warning) in 1 file")
    log = json.loads((workspace / "work" / "innolint.sarif").read_text())
    assert log["runs"][0]["results"][0]["ruleId"] == "no-primary-key"


def test_lint_step_fail_on_error_passes_with_warnings(workspace: Path) -> None:
    result = _run_lint_step(workspace, {"INNOLINT_FAIL_ON": "error", "INNOLINT_SUMMARY": "false"})
    assert result.returncode == 0, result.stderr
    assert (workspace / "summary").read_text() == ""


def test_lint_step_missing_path_is_an_input_error(workspace: Path) -> None:
    result = _run_lint_step(workspace, {"INNOLINT_PATHS": "db\nnot-there", "INNOLINT_FAIL_ON": "none"})
    assert result.returncode == 2, result.stdout + result.stderr


def test_lint_step_publishes_a_check_run(workspace: Path) -> None:
    api = FakeGitHub().start()
    try:
        event = workspace / "event.json"
        event.write_text(json.dumps({"pull_request": {"number": 5, "head": {"sha": "a" * 40}}}))
        result = _run_lint_step(workspace, {
            "INNOLINT_ANNOTATIONS": "checks", "INNOLINT_ONLY_CHANGED": "false", "INNOLINT_COMMENT": "true",
            "GITHUB_TOKEN": "ghs_not_a_real_token_0123456789", "GITHUB_REPOSITORY": "acme/shop",
            "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event), "GITHUB_API_URL": api.api_url,
            "GITHUB_SHA": "b" * 40,
        })
    finally:
        api.stop()
    assert result.returncode == 1, result.stdout + result.stderr
    writes = [(r.method, re.sub(r"\d+", "N", r.path)) for r in api.writes()]
    assert writes == [("POST", "/api/vN/repos/acme/shop/check-runs"), ("POST", "/api/vN/repos/acme/shop/issues/N/comments")]
    create = api.writes()[0].body
    assert create["head_sha"] == "a" * 40 and create["conclusion"] == "failure"
    assert create["output"]["annotations"][0]["path"] == "db/V1__events.sql"
    assert "ghs_not_a_real_token" not in result.stdout + result.stderr


def test_the_token_never_reaches_the_check_step() -> None:
    """`innolint check` reads the pull request's files: it must not have the token to leak."""
    assert "GITHUB_TOKEN" not in STEPS["lint"]["env"]
    assert "github-token" not in str(STEPS["lint"]) and "INNOLINT" + "_TOKEN" not in str(STEPS["lint"])
    assert STEPS["publish"]["env"]["GITHUB_TOKEN"] == "${{ inputs.github-token }}"
    assert '"$INNOLINT" check ' in STEPS["lint"]["run"] and '"$INNOLINT" github ' not in STEPS["lint"]["run"]
    assert '"$INNOLINT" check ' not in STEPS["publish"]["run"]
    assert ACTION["outputs"]["findings"]["value"] == "${{ steps.publish.outputs.findings }}"


def test_the_check_step_runs_without_a_token_in_its_environment(workspace: Path) -> None:
    """The token given to the action is absent from the environment `innolint check` runs in: a
    spy in front of innolint records it."""
    spy = workspace / "spy.sh"
    spy.write_text(f'#!/bin/sh\nenv > "{workspace}/env-$1.txt"\nPYTHONPATH="{REPO_ROOT}" exec "{sys.executable}" -m linter.cli "$@"\n')
    spy.chmod(0o755)
    token = "ghs_spy_token_0123456789"
    result = _run_lint_step(workspace, {"INNOLINT": str(spy), "INNOLINT_SUMMARY": "false", "GITHUB_TOKEN": token})
    assert result.returncode == 1, result.stdout + result.stderr
    assert token not in (workspace / "env-check.txt").read_text()
    assert token in (workspace / "env-github.txt").read_text()


@pytest.mark.parametrize("name", ["--output=db/V1__events.sql", "-o.sql", "--config=x.sql"])
def test_paths_that_look_like_options_stay_paths(workspace: Path, name: str) -> None:
    target = workspace / "work" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(BAD_SQL)
    before = (workspace / "work" / "db" / "V1__events.sql").read_text()
    result = _run_lint_step(workspace, {"INNOLINT_PATHS": f"db {name}", "INNOLINT_SUMMARY": "false"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"file={name.replace(':', '%3A').replace(',', '%2C')},line=1" in result.stdout
    assert (workspace / "work" / "db" / "V1__events.sql").read_text() == before


@pytest.mark.parametrize(("key", "value", "flag"), [("INNOLINT_CONFIG", "-x.toml", "--config"),
                                                    ("INNOLINT_SARIF_FILE", "-out.sarif", "--sarif-file")])
def test_input_values_that_start_with_a_dash_stay_values(workspace: Path, key: str, value: str, flag: str) -> None:
    if key == "INNOLINT_CONFIG":
        (workspace / "work" / value).write_text('[rules.no-primary-key]\nenabled = false\n')
    result = _run_lint_step(workspace, {key: value, "INNOLINT_SUMMARY": "false"})
    output = result.stdout + result.stderr
    assert "expected one argument" not in output, output
    if key == "INNOLINT_CONFIG":
        assert result.returncode == 0, output  # the configuration was read: the rule is off
    else:
        assert (workspace / "work" / value).is_file()
