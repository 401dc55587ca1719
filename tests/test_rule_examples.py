"""Every rule's documented examples run, as sqlfluff runs its rules' YAML fixtures: the bad SQL of a
check's RuleDoc (docs/rules/RULE.md, `innolint explain RULE`) must give that rule's finding, and its
good SQL must not, on every target the rule judges, through the whole pipeline (split, parse,
replay, checks) and without a parse or replay diagnostic (so a missing finding means the rule said
nothing, not that the table was lost).

How an example is read: as one file, `schema.sql`, unless its first line is a comment naming the
file (`-- V2__orders.sql, a Flyway migration`): a migration's name makes the file a migration
history, which some rules need (undefined-tablespace: a lone schema file may be a dump).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checks import ALL_CHECKS
from linter.engine import lint_paths
from linter.rules.checkapi import Check, CheckContext
from linter.rules.findings import Report
from linter.schema.target import TARGETS, Target

#: the rules that judge only targets with general tablespaces (MariaDB accepts TABLESPACE and
#: ignores it: tenant-tablespace says so there as info, on the good example as on the bad)
_TABLESPACE_RULES = {"tenant-tablespace", "cross-tenant-tablespace", "undefined-tablespace"}
_FILE_NAME = re.compile(r"--\s+([\w.-]+\.sql)\b")


def _targets(check: Check) -> list[str]:
    """The targets the rule's examples are written for."""
    if check.id in _TABLESPACE_RULES:
        return [t for t in TARGETS if Target.parse(t).has_general_tablespaces]
    return list(TARGETS)


def _lint(sql: str, tmp_path: Path, target: str) -> Report:
    first = _FILE_NAME.match(sql)
    path = tmp_path / "db" / (first.group(1) if first else "schema.sql")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(sql + "\n", encoding="utf-8")
    report = lint_paths([str(path.parent)], CheckContext(target=Target.parse(target)))
    lost = [f"{d.rule}: {d.line}: {d.message}" for d in report.diagnostics if d.rule in ("parse-error", "replay-error")]
    assert not lost, f"the example does not replay on {target}:\n" + "\n".join(lost)
    return report


CASES = [pytest.param(check, target, id=f"{check.id}-{target}") for check in ALL_CHECKS for target in _targets(check)]


@pytest.mark.parametrize("check, target", CASES)
def test_the_bad_example_gives_the_rules_finding(check: Check, target: str, tmp_path: Path) -> None:
    report = _lint(check.doc.bad, tmp_path, target)
    found = sorted({f.rule for f in report.findings})
    assert check.id in found, f"{check.id}'s bad example gives no {check.id} finding on {target} (only {found})"


@pytest.mark.parametrize("check, target", CASES)
def test_the_good_example_does_not(check: Check, target: str, tmp_path: Path) -> None:
    report = _lint(check.doc.good, tmp_path, target)
    own = [f"{f.line}: {f.message}" for f in report.findings if f.rule == check.id]
    assert not own, f"{check.id}'s good example gives its finding on {target}:\n" + "\n".join(own)


def test_every_rule_is_judged_on_a_target() -> None:
    assert {c.id for c in ALL_CHECKS} == {p.values[0].id for p in CASES}  # type: ignore[union-attr]
