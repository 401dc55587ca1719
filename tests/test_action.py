"""The GitHub Action: linted as CI lints it, its inputs wired through env:, its script run for real."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests import cli_forkserver
from tests.cli_run import run_cli
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
        "paths", "config", "target", "fail-level", "fail-on", "baseline", "only-changed", "annotations", "annotate",
        "annotation-level", "github-token", "sarif-file", "summary", "comment", "python-version",
    }
    defaults = {name: spec.get("default") for name, spec in ACTION["inputs"].items()}
    assert defaults["annotations"] == "checks"
    assert (defaults["annotate"], defaults["annotation-level"], defaults["fail-level"], defaults["baseline"]) == \
        ("new", "info", "", "")
    # the old name still works, and GitHub says it is deprecated when a workflow sets it
    assert "fail-level" in ACTION["inputs"]["fail-on"]["deprecationMessage"] and defaults["fail-on"] == ""
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
    assert '-m venv --without-pip "$venv"' in install["run"] and '-m venv "$venv"' in install["run"]  # (pip < 22.3)
    assert '-m pip --python "$bin/python" install' in install["run"]
    assert '"${ACTION_PATH}[github]"' in install["run"]
    assert STEPS["python"]["with"]["update-environment"] is False  # the job's own Python stays as it was
    # the [github] extra the action installs must exist and bring PyGithub
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.lower().startswith("pygithub") for req in extras.get("github", [])), "pyproject needs a `github` extra with PyGithub"


#: the inputs as the steps' env names them (`INNOLINT_PATHS: ${{ inputs.paths }}` -> INNOLINT_PATHS: paths)
INPUT_OF_ENV = {
    name: re.fullmatch(r"\$\{\{ inputs\.([\w-]+) \}\}", value).group(1)  # type: ignore[union-attr]
    for step in ACTION["runs"]["steps"] for name, value in (step.get("env") or {}).items()
    if re.fullmatch(r"\$\{\{ inputs\.([\w-]+) \}\}", str(value))
}


def _wrapper(tmp_path: Path) -> Path:
    """The `innolint` the install step would give: this checkout's CLI, in a process of its own
    forked from a pre-imported interpreter (tests/cli_forkserver.py: the same process to the step,
    without 0.5 s of imports a run)."""
    return cli_forkserver.command(tmp_path)


def run_action(tmp_path: Path, env: dict[str, str], *, install: bool = False) -> subprocess.CompletedProcess[str]:
    """Run action.yml's steps in order as GitHub's runner does, against this checkout.

    Each `run:` step is written to a file and run with `bash --noprofile --norc -eo pipefail FILE`
    (what `shell: bash` means on GitHub), with only its own `env:` (expressions evaluated: inputs,
    earlier steps' outputs, github.action_path, runner.temp), in the workspace, with its own
    `GITHUB_OUTPUT` file; the next step runs only when it succeeded (composite steps have no
    `if:`). `uses:` steps are stood in for: setup-python gives this Python, actions/cache restores
    nothing. The install step runs for real only with `install=True` (pip, slow); otherwise its
    output points at a wrapper that runs this checkout. `env`: overrides of the inputs by the env
    name a step gives them (INNOLINT_PATHS), `INNOLINT` for the innolint command, and the runner's
    own variables (GITHUB_*). Returns every step's output together, with the last step's status."""
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    inputs.update({"paths": "db", "annotations": "workflow-commands", "github-token": ""})
    for name, value in env.items():
        if name in INPUT_OF_ENV:
            inputs[INPUT_OF_ENV[name]] = value
    runner = tmp_path / "runner"
    runner.mkdir(exist_ok=True)
    (tmp_path / "summary").touch()
    outputs: dict[str, dict[str, str]] = {
        "python": {"python-path": sys.executable, "python-version": "3.11.7"},
        "install": {"innolint": env.get("INNOLINT") or str(_wrapper(tmp_path))},
    }
    context = {
        "github.action_path": str(REPO_ROOT), "github.action_repository": "", "github.action_ref": "",
        "runner.temp": str(runner), "github.token": "",
    }

    def evaluate(value: str) -> str:
        def one(match: re.Match[str]) -> str:
            expression = match.group(1)
            if expression.startswith("inputs."):
                return inputs[expression[len("inputs."):]]
            if m := re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression):
                return outputs.get(m.group(1), {}).get(m.group(2), "")
            assert expression in context, f"the emulator does not know ${{{{ {expression} }}}}"
            return context[expression]
        return re.sub(r"\$\{\{ ([^}]+?) \}\}", one, str(value))

    base = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")},
        "RUNNER_TEMP": str(runner), "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"), "GITHUB_EVENT_NAME": "push",
        "GITHUB_WORKSPACE": str(tmp_path / "work"),
        **{k: v for k, v in env.items() if k not in INPUT_OF_ENV and k != "INNOLINT"},  # the runner's own variables
    }
    base.pop("GITHUB_TOKEN", None)
    stdout, stderr, code = "", "", 0
    for number, step in enumerate(ACTION["runs"]["steps"]):
        step_id = step.get("id") or f"step{number}"
        if "uses" in step or (step_id == "install" and not install):
            continue
        script = tmp_path / f"step-{step_id}.sh"
        script.write_text(step["run"])
        output_file = tmp_path / f"output-{step_id}"
        output_file.write_text("")
        own = {name: evaluate(value) for name, value in (step.get("env") or {}).items()}
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=tmp_path / "work",
                              env={**base, **own, "GITHUB_OUTPUT": str(output_file)}, capture_output=True, text=True,
                              timeout=600)
        stdout, stderr, code = stdout + done.stdout, stderr + done.stderr, done.returncode
        outputs[step_id] = dict(line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line)
        with open(tmp_path / "output", "a", encoding="utf-8") as handle:
            handle.write(output_file.read_text())
        if done.returncode != 0:
            break
    return subprocess.CompletedProcess(["action.yml"], code, stdout, stderr)


#: the old name, for the tests written before the emulator ran every step
_run_lint_step = run_action


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


def test_lint_step_fail_level_error_passes_with_warnings(workspace: Path) -> None:
    result = _run_lint_step(workspace, {"INNOLINT_FAIL_LEVEL": "error", "INNOLINT_SUMMARY": "false"})
    assert result.returncode == 0, result.stderr
    assert (workspace / "summary").read_text() == ""


def test_lint_step_missing_path_is_an_input_error(workspace: Path) -> None:
    result = _run_lint_step(workspace, {"INNOLINT_PATHS": "db\nnot-there", "INNOLINT_FAIL_LEVEL": "none"})
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


# --- every failure leaves a visible reason (bash -eo pipefail, as GitHub runs `shell: bash`) ------

def _crashing_innolint(tmp_path: Path) -> Path:
    """innolint whose `check` dies with a traceback (exit 1, no report); `github` is the real one."""
    spy = tmp_path / "crashing-innolint"
    spy.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = check ]; then exec "{sys.executable}" -c "raise RuntimeError(\'boom inside check\')"; fi\n'
        f'PYTHONPATH="{REPO_ROOT}" exec "{sys.executable}" -m linter.cli "$@"\n')
    spy.chmod(0o755)
    return spy


def _prepare(case: str, workspace: Path) -> dict[str, str]:
    work = workspace / "work"
    if case == "missing path":
        return {"INNOLINT_PATHS": "db\nnot-there"}
    if case == "empty directory":
        (work / "empty" / "nested").mkdir(parents=True)
        (work / "empty" / "README.md").write_text("no SQL here\n")
        return {"INNOLINT_PATHS": "empty"}
    if case == "binary file":
        (work / "db" / "V2__blob.sql").write_bytes(b"\x00\x01\x02\xff" * 512)
        return {}
    if case == "configuration file not found":
        return {"INNOLINT_CONFIG": "missing.toml"}
    if case == "configuration that does not validate":
        (work / ".innolint.toml").write_text('fail_level = "sometimes"\n')
        return {}
    if case == "unknown target":
        return {"INNOLINT_TARGET": "mysql-8.2"}
    if case == "crash":
        return {"INNOLINT": str(_crashing_innolint(workspace))}
    if case == "base branch not fetched":
        return {"INNOLINT_ONLY_CHANGED": "true", "GITHUB_BASE_REF": "main", "GITHUB_EVENT_NAME": "pull_request"}
    raise AssertionError(case)


FAILURES = {
    "missing path": (2, "not-there: no such file or directory"),
    "empty directory": (2, "no SQL files in this directory"),
    "binary file": (2, "binary file, not SQL"),
    "configuration file not found": (2, "missing.toml: configuration file not found"),
    "configuration that does not validate": (2, "fail_level"),
    "unknown target": (2, "unknown target 'mysql-8.2': MySQL 8.1 to 8.3 were innovation releases"),
    "crash": (1, "RuntimeError: boom inside check"),
    "base branch not fetched": (2, "could not fetch the base branch main"),
}


@pytest.mark.parametrize("fail_level", ["warning", "none"])
@pytest.mark.parametrize("case", sorted(FAILURES))
def test_every_failure_is_visible(workspace: Path, case: str, fail_level: str) -> None:
    """The job fails, the check run is concluded failure with the reason in its summary, the job
    summary says it, and an error annotation (a check-run annotation on the file, or an ::error
    line) carries it: never an empty log. `fail-level: none` does not hide a run that could not lint."""
    expected_status, reason = FAILURES[case]
    env = _prepare(case, workspace)
    api = FakeGitHub().start()
    try:
        event = workspace / "event.json"
        event.write_text(json.dumps({"pull_request": {"number": 5, "head": {"sha": "a" * 40}}}))
        result = run_action(workspace, {
            "INNOLINT_ANNOTATIONS": "checks", "INNOLINT_FAIL_LEVEL": fail_level, "GITHUB_TOKEN": "ghs_not_a_real_token_0123",
            "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": str(event), "GITHUB_API_URL": api.api_url,
            "GITHUB_SHA": "b" * 40, "INNOLINT_ONLY_CHANGED": "false", **env,
        })
    finally:
        api.stop()
    log = result.stdout + result.stderr
    assert result.returncode == expected_status, log
    (run,) = api.runs.values()
    assert run["status"] == "completed" and run["conclusion"] == "failure", run
    assert reason in run["output"]["summary"].replace("\\", ""), run["output"]["summary"]
    assert reason in (workspace / "summary").read_text().replace("\\", "")
    annotated = [a["message"] for a in run["annotations"] if a["annotation_level"] == "failure"]
    commands = [line for line in result.stdout.splitlines() if line.startswith("::error")]
    assert any(reason in text for text in annotated) or any(reason in line for line in commands), log
    assert reason in log  # and the step log itself


def test_the_environment_key_follows_the_actions_sources(tmp_path: Path) -> None:
    """The cache key hashes what pip installs: the same sources give the same key, a changed
    check gives a new one (a moved tag or branch never reuses a stale environment)."""
    copy = tmp_path / "action"
    for part in ("linter", "checks"):
        shutil.copytree(REPO_ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(REPO_ROOT / "pyproject.toml", copy / "pyproject.toml")
    script = tmp_path / "version.sh"
    script.write_text(STEPS["version"]["run"])

    def key() -> str:
        out = tmp_path / "out"
        out.write_text("")
        subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], check=True,
                       env={**os.environ, "ACTION_PATH": str(copy), "PYTHON": sys.executable, "PYTHON_VERSION": "3.12.7",
                            "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "GITHUB_OUTPUT": str(out)})
        (line,) = out.read_text().splitlines()
        assert line.startswith("key=innolint-venv-Linux-X64-py3.12.7-")
        return line

    first = key()
    assert key() == first
    (copy / "checks" / "no_primary_key.py").write_text((copy / "checks" / "no_primary_key.py").read_text() + "\n# changed\n")
    assert key() != first
    cache = next(step for step in ACTION["runs"]["steps"] if str(step.get("uses", "")).startswith("actions/cache@"))
    assert cache["with"]["key"] == "${{ steps.version.outputs.key }}"
    assert cache["with"]["path"] == "${{ runner.temp }}/innolint-venv" == STEPS["install"]["env"]["INNOLINT_VENV"]


def test_install_reuses_a_restored_environment(tmp_path: Path) -> None:
    """With the cache restored (a venv whose innolint answers --version), the install step installs
    nothing; with a broken one it installs again (here into a venv that can import this checkout:
    pip is pointed at an empty index so a real install would fail, which the ERR trap reports)."""
    venv = tmp_path / "runner" / "innolint-venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    innolint = venv / "bin" / "innolint"
    innolint.write_text(f'#!/bin/sh\nPYTHONPATH="{REPO_ROOT}" exec "{sys.executable}" -m linter.cli "$@"\n')
    innolint.chmod(0o755)
    script = tmp_path / "install.sh"
    script.write_text(STEPS["install"]["run"])
    (tmp_path / "summary").write_text("")

    def install(extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
        (tmp_path / "out").write_text("")
        return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], capture_output=True,
                              text=True, timeout=300,
                              env={**os.environ, "ACTION_PATH": str(tmp_path / "no-such-action"), "PYTHON": sys.executable,
                                   "INNOLINT_VENV": str(venv), "GITHUB_OUTPUT": str(tmp_path / "out"),
                                   "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"), "PIP_NO_INDEX": "1", **extra})

    cached = install({})
    assert cached.returncode == 0, cached.stderr
    assert "the cached environment has innolint" in cached.stdout
    assert (tmp_path / "out").read_text() == f"innolint={venv}/bin/innolint\n"
    innolint.write_text("#!/bin/sh\nexit 1\n")  # a broken cache: installed again, and that fails visibly here
    broken = install({})
    assert broken.returncode != 0
    assert "::error title=innolint::Installing innolint from" in broken.stdout
    assert "Installing innolint failed" in (tmp_path / "summary").read_text()
    assert not (venv / "bin" / "pip").exists()  # setup-python's pip installs into the environment
    # a pip older than 22.3 (no --python): the environment gets a pip of its own, which installs
    # (this stand-in makes it without one, to keep ensurepip's seconds out of the test: its pip fails)
    old_pip = tmp_path / "old-python"
    old_pip.write_text(f'#!/bin/bash\ncase " $* " in *" --python "*) echo "no such option: --python" >&2; exit 2;; esac\n'
                       f'if [ "$1 $2" = "-m venv" ]; then shift 2; exec "{sys.executable}" -m venv --without-pip "$@"; fi\n'
                       f'exec "{sys.executable}" "$@"\n')
    old_pip.chmod(0o755)
    (tmp_path / "summary").write_text("")
    older = install({"PYTHON": str(old_pip)})
    assert older.returncode != 0 and "No module named pip" in older.stderr, older.stderr
    assert "Installing innolint failed" in (tmp_path / "summary").read_text()


def test_the_readme_and_example_pin_a_commit(tmp_path: Path) -> None:
    """The README's `uses:`, docs/github.md's and the example workflow's pin a full commit sha
    (a sha cannot be moved; the README's and the page's name the release tag in a comment), and
    the README's steps are a valid workflow (actionlint)."""
    from linter import __version__

    pages = [(REPO_ROOT / "README.md").read_text(), (REPO_ROOT / "docs" / "github.md").read_text()]
    for text in pages:
        snippet = re.search(r"```yaml\n(.*?)```", text[text.index("GitHub pull-request check\n"):], re.S).group(1)  # type: ignore[union-attr]
        assert re.search(rf"innolint@[0-9a-f]{{40}} +# v{re.escape(__version__)}\n", snippet)
        steps = yaml.safe_load(snippet.replace("<owner>", "acme"))
        (innolint,) = [s for s in steps if "innolint@" in s.get("uses", "")]
        assert re.fullmatch(r"[\w-]+/innolint@[0-9a-f]{40}", innolint["uses"])
        assert set(innolint["with"]) <= set(ACTION["inputs"])
    snippet = re.search(r"```yaml\n(.*?)```", pages[0][pages[0].index("## GitHub pull-request check\n"):], re.S).group(1)  # type: ignore[union-attr]
    steps = yaml.safe_load(snippet)
    example = yaml.safe_load((REPO_ROOT / "docs" / "github-workflow.yml").read_text())
    uses = [s["uses"] for s in example["jobs"]["innolint"]["steps"] if "innolint@" in s.get("uses", "")]
    assert len(uses) == 1 and re.fullmatch(r"[\w-]+/innolint@[0-9a-f]{40}", uses[0])
    go_bin = _go_bin()
    actionlint = shutil.which("actionlint") or (go_bin and os.path.join(go_bin, "actionlint"))
    if not actionlint or not os.path.exists(actionlint):
        pytest.skip("actionlint is not installed")
    workflow = tmp_path / ".github" / "workflows" / "readme.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(yaml.safe_dump({"name": "readme", "on": {"pull_request": {}},
                                        "jobs": {"lint": {"runs-on": "ubuntu-latest", "steps": steps}}}))
    done = subprocess.run([actionlint, str(workflow)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


# --- a pull request on a legacy repository: about what the change adds (issue 35) ------------------

def _legacy_table(number: int) -> str:
    """A legacy table with two findings: no primary key (warning) and a zero-date default (error)."""
    return (f"CREATE TABLE `legacy_{number:04d}` (\n  `a` int NOT NULL,\n  `d` date NOT NULL DEFAULT '0000-00-00',\n"
            f"  `note` varchar(40) DEFAULT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n\n")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=ci@example.org", "-c", "user.name=ci", *args], cwd=cwd, check=True,
                   capture_output=True)


#: one-line edits of a legacy dump: (the line replaced in the edited table's CREATE (0500, or the
#: last of a smaller dump), its replacement or a line appended), and the findings the change adds:
#: (rule, table), and whether it makes a finding go
ONE_LINE_CHANGES = {
    "a plain column": ("  `a` int NOT NULL,\n", "  `a` int NOT NULL,\n  `b` int DEFAULT NULL,\n", [], False),
    "a zero-date column": ("  `a` int NOT NULL,\n", "  `a` int NOT NULL,\n  `e` date NOT NULL DEFAULT '0000-00-00',\n",
                           [("zero-date-default", "{edited}")], False),
    "a primary key that fixes one": ("  `a` int NOT NULL,\n", "  `a` int NOT NULL PRIMARY KEY,\n", [], True),
    # (a MyISAM table is no InnoDB table without a key: that finding goes; the ALTER copies a table
    # that existed before the change: blocking-alter's "On MySQL 8.0, ALTER TABLE ... copies")
    "an engine change": (None, "ALTER TABLE `legacy_0002` ENGINE=MyISAM;\n",
                         [("blocking-alter", "On"), ("non-innodb-engine", "legacy_0002")], True),
}


def _legacy_pull_request(tmp_path: Path, tables: int, change: str, *, baseline: bool = False) -> Path:
    """A repository whose main branch holds a legacy dump of `tables` tables (two findings each),
    pushed to an `origin`, and a pull request branch with a one-line change; returns the workspace
    (tmp_path/work)."""
    work = tmp_path / "work"
    (work / "db").mkdir(parents=True)
    dump = work / "db" / "schema.sql"
    dump.write_text("-- MySQL dump 10.13\n" + "".join(_legacy_table(n) for n in range(tables)))
    _git(tmp_path, "init", "-q", "--bare", "origin.git")
    _git(work, "init", "-q", "-b", "main")
    if baseline:
        (work / ".innolint.toml").write_text('baseline = ".innolint-baseline.json"\n')
        done = run_cli(["check", "--quiet", "--format", "json", "--output", os.devnull, "--write-baseline",
                        ".innolint-baseline.json", "db"], cwd=work)
        assert done.returncode == 0, done.stderr
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", "legacy")
    _git(work, "remote", "add", "origin", str(tmp_path / "origin.git"))
    _git(work, "push", "-q", "origin", "main")
    _git(work, "checkout", "-q", "-b", "feature")
    old, new, _, _ = ONE_LINE_CHANGES[change]
    text = dump.read_text()
    if old is None:
        text += new
    else:
        head = "CREATE TABLE `legacy_0500` (\n" if tables > 500 else f"CREATE TABLE `legacy_{tables - 1:04d}` (\n"
        at = text.index(head) + len(head)
        assert text.startswith(old, at)
        text = text[:at] + new + text[at + len(old):]
    dump.write_text(text)
    _git(work, "commit", "-qam", change)
    return work


def _pull_request_check(tmp_path: Path, inputs: dict[str, str] | None = None) -> tuple[
        subprocess.CompletedProcess[str], dict, list[dict]]:
    """The action on a pull_request event against the stand-in API: (result, the check run, the comments)."""
    api = FakeGitHub().start()
    try:
        event = tmp_path / "event.json"
        event.write_text(json.dumps({"pull_request": {"number": 5, "head": {"sha": "a" * 40}}}))
        result = run_action(tmp_path, {
            "INNOLINT_ANNOTATIONS": "checks", "INNOLINT_COMMENT": "true", "INNOLINT_PATHS": "db",
            "GITHUB_TOKEN": "ghs_not_a_real_token_0123456789", "GITHUB_REPOSITORY": "acme/shop",
            "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event), "GITHUB_API_URL": api.api_url,
            "GITHUB_SHA": "b" * 40, "GITHUB_BASE_REF": "main", **(inputs or {})})
    finally:
        api.stop()
    (run,) = api.runs.values()
    return result, run, list(api.comments.values())


def test_a_one_line_change_to_a_2000_finding_legacy_dump(tmp_path: Path) -> None:
    """The numbers of the closing note: a 2,000-finding legacy dump, a one-line change that adds
    nothing: no annotation, a comment of a few hundred bytes that counts what was there (it
    gave 500 annotations and a 28 KB comment about tables the change did not touch); the check
    fails on the legacy errors and says how to accept them (a baseline)."""
    _legacy_pull_request(tmp_path, 1000, "a plain column")
    result, run, comments = _pull_request_check(tmp_path)
    log = result.stdout + result.stderr
    assert result.returncode == 1, log
    assert run["annotations"] == [] and run["conclusion"] == "failure", run["output"]["summary"][:2000]
    (comment,) = comments
    size = len(comment["body"].encode("utf-8"))
    assert size < 1500, comment["body"]
    assert "nothing new in this change; 2,000 already there" in comment["body"]
    assert "record a baseline" in comment["body"]
    assert "| zero-date-default | 1 | 999 | 0 | 1000 |" in comment["body"]  # the touched table keeps its error
    assert "| legacy" not in comment["body"]  # no row about a table: those are in the job summary
    summary = (tmp_path / "summary").read_text()
    assert "### Already there before this change" in summary and "legacy\\_0000" in summary
    print(f"\n2,000-finding legacy dump, one-line change: {len(run['annotations'])} annotations, "
          f"a {size:,}-byte comment, {len(run['output']['summary'].encode()):,}-byte check summary, "
          f"{len(summary.encode()):,}-byte job summary")


@pytest.mark.parametrize("change", sorted(ONE_LINE_CHANGES))
@pytest.mark.parametrize("baseline", [False, True], ids=["no-baseline", "baseline"])
def test_a_pull_request_annotates_what_it_adds(tmp_path: Path, change: str, baseline: bool) -> None:
    """Whatever the one-line change, the annotations are exactly the findings it adds (at their
    full severity), the rest is counted in the summary; with the repository's baseline (the
    configuration's `baseline`, committed on main) only what the change adds can fail the check."""
    _legacy_pull_request(tmp_path, 60, change, baseline=baseline)
    result, run, comments = _pull_request_check(tmp_path)
    log = result.stdout + result.stderr
    expected = ONE_LINE_CHANGES[change][2]
    annotated = sorted((a["title"].removeprefix("innolint [").rstrip("]"), re.match(r"\w+", a["message"]).group())
                       for a in run["annotations"])
    # a change that fixes a finding the baseline accepted is told to shrink it, on the file
    gone = [item for item in annotated if item[0] == "baseline-gone"]
    assert len(gone) == (baseline and ONE_LINE_CHANGES[change][3]), annotated
    annotated = [item for item in annotated if item[0] != "baseline-gone"]
    assert [rule for rule, _ in annotated] == [rule for rule, _ in expected], (annotated, log)
    edited = f"legacy_{min(500, 59):04d}"
    assert [message for _, message in annotated] == [table.format(edited=edited) for _, table in expected]
    (comment,) = comments
    # about the change: a few KB per finding it adds (its row, its rule's page, its fix), whatever the legacy
    assert len(comment["body"].encode("utf-8")) < 3000 * max(1, len(expected)), comment["body"]
    if baseline:
        failing = any(rule == "zero-date-default" for rule, _ in expected)  # an error; the engine change warns
        assert run["conclusion"] == ("failure" if expected else "neutral" if gone else "success"), log
        assert result.returncode == (1 if expected else 0), log
        assert "already there" not in comment["body"], comment["body"]
        assert "record a baseline" not in comment["body"]
        assert failing or not expected or run["annotations"][0]["annotation_level"] == "warning"
    else:
        assert run["conclusion"] == "failure" and result.returncode == 1
        assert "already there" in comment["body"]
        assert ("record a baseline" in comment["body"]) == (not expected)


@pytest.mark.parametrize(("inputs", "levels"), [
    ({}, ["failure", "warning", "warning"]),
    ({"INNOLINT_ANNOTATION_LEVEL": "error"}, ["failure"]),
    ({"INNOLINT_ANNOTATE": "all"}, None),
])
def test_annotate_and_annotation_level_inputs(tmp_path: Path, inputs: dict[str, str], levels: list[str] | None) -> None:
    """A change that adds an error (zero date) and two warnings (MyISAM, and the copy its ALTER
    makes of a table that existed): all annotated by default, the error only at `annotation-level:
    error`; `annotate: all` annotates the legacy findings too."""
    work = _legacy_pull_request(tmp_path, 40, "a zero-date column")
    with open(work / "db" / "schema.sql", "a") as handle:
        handle.write("ALTER TABLE `legacy_0002` ENGINE=MyISAM;\n")
    _git(work, "commit", "-qam", "and an engine")
    _, run, _ = _pull_request_check(tmp_path, inputs)
    found = sorted(a["annotation_level"] for a in run["annotations"])
    if levels is not None:
        assert found == levels, found
        if "INNOLINT_ANNOTATION_LEVEL" in inputs:
            assert "2 below error \\(annotation-level\\)" in run["output"]["summary"]
    else:  # every finding: the legacy ones (but the MyISAM table's no-primary-key) and the three new ones
        assert len(found) == 40 * 2 - 1 + 3, found


def test_fail_level_comes_from_the_configuration_unless_the_input_sets_it(workspace: Path) -> None:
    """One name, one value: the configuration's fail_level decides the check run when the
    action's `fail-level` is empty; the input beats it; the old `fail-on` still works, said
    deprecated."""
    (workspace / "work" / ".innolint.toml").write_text('fail_level = "error"\n')
    result = run_action(workspace, {"INNOLINT_SUMMARY": "false"})  # a warning only: passes at error
    assert result.returncode == 0, result.stdout + result.stderr
    result = run_action(workspace, {"INNOLINT_SUMMARY": "false", "INNOLINT_FAIL_LEVEL": "warning"})
    assert result.returncode == 1, result.stdout + result.stderr
    (workspace / "work" / ".innolint.toml").unlink()
    result = run_action(workspace, {"INNOLINT_SUMMARY": "false"})  # the default: warning
    assert result.returncode == 1, result.stdout + result.stderr
    result = run_action(workspace, {"INNOLINT_SUMMARY": "false", "INNOLINT_FAIL_ON": "error"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "the fail-on input is deprecated: it is now fail-level" in result.stderr


def test_the_baseline_input(workspace: Path) -> None:
    """`baseline:` names a baseline the configuration does not: its findings are accepted."""
    work = workspace / "work"
    done = run_cli(["check", "--quiet", "--format", "json", "--output", os.devnull, "--write-baseline", "accepted.json",
                    "db"], cwd=work)
    assert done.returncode == 0, done.stderr
    result = run_action(workspace, {"INNOLINT_BASELINE": "accepted.json"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 known finding hidden by the baseline" in result.stderr
    (work / "db" / "V2__more.sql").write_text(BAD_SQL.replace("event_log", "audit_log"))
    result = run_action(workspace, {"INNOLINT_BASELINE": "accepted.json"})
    assert result.returncode == 1 and "audit_log" in result.stdout, result.stdout + result.stderr
    assert "event_log" not in result.stdout
