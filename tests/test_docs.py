"""The README is short and every page says what the code does (issue 35).

The README holds what innolint is, the quick start, the install from a tag, the three integrations
in about ten lines each, adopting it on a legacy repository and links; the rest is in docs/. What
a page states that the code also knows is checked against the code, so the two cannot disagree:
every rule table (severities as `innolint rules` prints them), the action's inputs and defaults
(action.yml), the example output (a real run on examples/), the links, and the legacy adoption's
three commands, run as written. The generated pages (docs/rules/, docs/targets.md,
docs/migration-formats.md, docs/config.schema.json) are tests/test_rule_docs.py's."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "ARCHITECTURE.md", *(ROOT / "docs").rglob("*.md")])
SEVERITIES = {"error", "warning", "info"}


def _section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def _innolint(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run_cli(args, cwd=cwd, env={**os.environ, "NO_COLOR": "1"})


def test_the_readme_is_short_and_holds_the_quick_start_the_integrations_and_links() -> None:
    words = len(re.findall(r"\S+", README))
    assert words < 1_200, f"the README has {words} words: move the detail to docs/"
    titles = re.findall(r"(?m)^## (.+)$", README)
    assert titles[:2] == ["Quick start", "Install"]
    for title in ("pre-commit", "GitHub pull-request check", "Audit a live server",
                  "Adopting innolint on a legacy repository", "Documentation"):
        assert title in titles
    for title in ("pre-commit", "GitHub pull-request check", "Audit a live server"):
        body = [line for line in _section(README, title).splitlines()[2:] if line.strip()]
        assert len(body) <= 16, f"README's {title} is {len(body)} lines: about ten, the rest in docs/"
    quick = re.search(r"```sh\n(.*?)```", _section(README, "Quick start"), re.S).group(1)  # type: ignore[union-attr]
    assert quick.splitlines() == ["pip install . && innolint check --fail-level none examples/",
                                  "pip install -e '.[test]' && python3 -m pytest"]
    assert "python3 -m pytest" in (ROOT / ".ci" / "run").read_text()  # CI runs the README's test command


def test_the_quick_start_check_passes_on_the_bundled_examples() -> None:
    done = _innolint("check", "--fail-level", "none", "examples/")
    assert done.returncode == 0 and re.search(r"^\d+ findings .* 3 files", done.stdout, re.M), done.stdout + done.stderr
    assert _innolint("check", "examples/").returncode == 1  # without --fail-level none: findings fail the run


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_names_a_file_of_the_repository(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        assert path.exists() and str(path).startswith(str(ROOT)), f"{page.relative_to(ROOT)} links {target}: no such file"


def _listed_rules() -> dict[str, str]:
    """`innolint rules`: each rule's default severity, as the tool prints it (the truth)."""
    done = _innolint("rules")
    assert done.returncode == 0, done.stderr
    return {row.split()[0]: row.split()[1] for row in done.stdout.splitlines() if row.strip()}


def test_every_rule_table_says_the_severity_innolint_rules_prints() -> None:
    listed = _listed_rules()
    row = re.compile(r"^\| *(?:\[([a-z-]+)\]\([^)]*\)|`([a-z-]+)`) *\| *([a-z, ]+?) *\|")
    seen: dict[str, set[str]] = {}
    for page in PAGES:
        for line in page.read_text(encoding="utf-8").splitlines():
            match = row.match(line)
            if match is None:
                continue
            rule, severity = match.group(1) or match.group(2), match.group(3)
            if rule not in listed or not set(severity.replace(",", " ").split()) <= SEVERITIES:
                continue
            assert severity == listed[rule], (f"{page.relative_to(ROOT)} says {rule} defaults to {severity}; "
                                              f"`innolint rules` says {listed[rule]}")
            seen.setdefault(rule, set()).add(str(page.relative_to(ROOT)))
    index = {rule for rule, pages in seen.items() if "docs/rules/README.md" in pages}
    assert index == set(listed), f"docs/rules/README.md lacks {sorted(set(listed) - index)}"


def test_the_action_page_lists_every_input_with_its_default() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    page = (ROOT / "docs" / "github.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"(?m)^\| `([a-z-]+)` \| ([^|]+?) \|", _section(page, "Inputs")))
    assert set(table) == set(action["inputs"])
    for name, spec in action["inputs"].items():
        default = str(spec.get("default", ""))
        assert table[name] == (f"`{default}`" if default else "(empty)"), name
    outputs = re.search(r"Outputs: (.*)", page).group(1)  # type: ignore[union-attr]
    assert set(re.findall(r"`([a-z-]+)`", outputs)) == set(action["outputs"])


def test_the_example_output_is_what_innolint_prints_on_the_examples() -> None:
    page = (ROOT / "docs" / "output.md").read_text(encoding="utf-8")
    shown = re.search(r"```\n\$ innolint check examples/\n(.*?)```", page, re.S).group(1).splitlines()  # type: ignore[union-attr]
    printed = _innolint("check", "examples/").stdout.splitlines()

    def timeless(line: str) -> str:
        return re.sub(r" in \d+\.\d+s$", " in Ns", line)

    assert len(shown) >= 5
    for line in shown:
        if line != "...":
            assert timeless(line) in map(timeless, printed), f"docs/output.md shows a line innolint does not print: {line}"


def test_the_three_legacy_commands_accept_todays_findings_and_fail_on_new_ones(tmp_path: Path) -> None:
    commands = re.search(r"```sh\n(.*?)```", _section(README, "Adopting innolint on a legacy repository"),
                         re.S).group(1).strip().splitlines()  # type: ignore[union-attr]
    assert len(commands) == 3
    repo = tmp_path / "service"
    (repo / "db" / "migrations").mkdir(parents=True)
    (repo / "db" / "migrations" / "V1__legacy.sql").write_text(
        "CREATE TABLE audit_log (happened DATETIME, what TEXT);\n"
        "CREATE TABLE invoice (id INT NOT NULL PRIMARY KEY, paid_on DATE DEFAULT '0000-00-00');\n")
    git = ["git", "-c", "user.email=dev@example.org", "-c", "user.name=dev"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "legacy"], cwd=repo, check=True)
    assert _innolint("check", ".", cwd=repo).returncode == 1
    innolint = f"{shlex.quote(sys.executable)} -m linter.cli"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GIT_AUTHOR_NAME": "dev", "GIT_AUTHOR_EMAIL": "dev@example.org",
           "GIT_COMMITTER_NAME": "dev", "GIT_COMMITTER_EMAIL": "dev@example.org"}
    for command in commands:
        run = re.sub(r"(^|&& )innolint ", lambda m: f"{m.group(1)}{innolint} ", command)
        done = subprocess.run(["bash", "-eo", "pipefail", "-c", run], cwd=repo, env=env, capture_output=True,
                              text=True, check=False, timeout=300)
        assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    assert subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True,
                          check=True).stdout == ""  # all of it committed
    accepted = _innolint("check", ".", cwd=repo)
    assert accepted.returncode == 0 and "known findings hidden by the baseline" in accepted.stderr, accepted.stdout
    (repo / "db" / "migrations" / "V2__new.sql").write_text("CREATE TABLE webhook_event (payload TEXT);\n")
    new = _innolint("check", ".", cwd=repo)
    assert new.returncode == 1 and "V2__new.sql:1:1: warning [no-primary-key]" in new.stdout
    assert "V1__legacy.sql" not in new.stdout
