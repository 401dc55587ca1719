"""Rule documentation: docs/rules/RULE.md are generated from each check's RuleDoc and must be
current; `innolint explain RULE` prints the same text."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from checks import ALL_CHECKS
from linter.cli import main
from linter.rules.docs import render_rule
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "run `python scripts/gen_docs.py` and commit docs/ (a check or its RuleDoc changed)"


def gen_docs():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_docs_are_current() -> None:
    stale = gen_docs().stale(ROOT)
    assert not stale, f"stale generated docs: {', '.join(stale)}; {REGENERATE}"


@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda c: c.id)
def test_every_check_has_its_page_and_explain_prints_the_same(check, capsys) -> None:  # type: ignore[no-untyped-def]
    page = ROOT / "docs" / "rules" / f"{check.id}.md"
    assert page.is_file(), f"docs/rules/{check.id}.md is missing; {REGENERATE}"
    body = render_rule(check)
    assert page.read_text(encoding="utf-8").endswith(body), f"docs/rules/{check.id}.md is stale; {REGENERATE}"
    assert main(["explain", check.id]) == 0  # the command's own code, in this process (the next test: a real one)
    assert capsys.readouterr().out.strip() == body.strip()


def test_explain_through_the_command_line() -> None:
    check = ALL_CHECKS[0]
    explained = run_cli(["explain", check.id], cwd=ROOT)
    assert explained.returncode == 0
    assert explained.stdout.strip() == render_rule(check).strip()


@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda c: c.id)
def test_every_page_has_why_evidence_examples_and_fix(check) -> None:  # type: ignore[no-untyped-def]
    doc = check.doc
    assert doc.why.strip() and doc.evidence.strip() and doc.fix.strip()
    assert doc.bad.strip() and doc.good.strip() and doc.bad.strip() != doc.good.strip()
    text = render_rule(check)
    for heading in ("## Why", "## Evidence", "## Bad", "## Good", "## Fix"):
        assert heading in text
    if doc.options:
        assert "## Options" in text and all(f"`{name}`" in text for name in doc.options)


def test_index_links_every_check() -> None:
    index = (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    for check in ALL_CHECKS:
        assert f"]({check.id}.md)" in index, f"docs/rules/README.md does not link {check.id}; {REGENERATE}"


def test_stale_detection_notices_an_edit(tmp_path: Path) -> None:
    module = gen_docs()
    module.write(tmp_path)
    assert module.stale(tmp_path) == []
    page = tmp_path / "docs" / "rules" / f"{ALL_CHECKS[0].id}.md"
    page.write_text(page.read_text() + "hand edit\n")
    (tmp_path / "docs" / "rules" / "removed-check.md").write_text("old")
    assert module.stale(tmp_path) == [f"docs/rules/{ALL_CHECKS[0].id}.md", "docs/rules/removed-check.md (no such check)"]
