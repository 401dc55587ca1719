"""Every rule's documented examples run, as sqlfluff runs its rules' YAML fixtures: the bad SQL of a
check's RuleDoc (docs/rules/RULE.md, `innolint explain RULE`) must give that rule's finding, and its
good SQL must not, on every target the rule judges, through the whole pipeline (split, parse,
replay, checks) and without a parse or replay diagnostic (so a missing finding means the rule said
nothing, not that the table was lost).

How an example is read: as one file, `schema.sql`, unless its first line is a comment naming the
file (`-- V2__orders.sql, a Flyway migration`): a migration's name makes the file a migration
history, which some rules need (undefined-tablespace: a lone schema file may be a dump). Each
further line that begins with such a comment starts the next file: a history whose later files
change tables an earlier one made (blocking-alter, destructive-change judge tables that existed
before the change, and each file of a run is one change). A rule about what a change does to git
(edited-migration) runs with `--since` in a repository whose commit holds the good example without
its last file: the bad example edits a file of that commit, the good one adds its last.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from checks import ALL_CHECKS
from linter.cli import main
from linter.engine import lint_paths
from linter.rules.checkapi import Check, CheckContext
from linter.rules.findings import Report
from linter.schema.target import TARGETS, Target

#: the rules that judge only targets with general tablespaces (MariaDB accepts TABLESPACE and
#: ignores it: tenant-tablespace says so there as info, on the good example as on the bad)
_TABLESPACE_RULES = {"tenant-tablespace", "cross-tenant-tablespace", "undefined-tablespace"}
_FILE_NAME = re.compile(r"(?m)^--\s+([\w.-]+\.sql)\b")
#: the rules whose examples are written in MySQL's words (MariaDB reserves neither RANK nor
#: GROUPS; tests/test_reserved_word.py has MariaDB's)
_MYSQL_RULES = {"reserved-word"}
#: the rules about what a change does to git's history
_GIT_RULES = {"edited-migration"}


def _targets(check: Check) -> list[str]:
    """The targets the rule's examples are written for."""
    if check.id in _TABLESPACE_RULES:
        return [t for t in TARGETS if Target.parse(t).has_general_tablespaces]
    if check.id in _MYSQL_RULES:
        return [t for t in TARGETS if not Target.parse(t).is_mariadb]
    return list(TARGETS)


def _files(sql: str) -> list[tuple[str, str]]:
    """The example's files, (name, text) in order."""
    starts = [m for m in _FILE_NAME.finditer(sql)]
    if not starts or starts[0].start() != 0:
        return [("schema.sql", sql + "\n")]
    ends = [m.start() for m in starts[1:]] + [len(sql)]
    return [(m.group(1), sql[m.start():end].rstrip("\n") + "\n") for m, end in zip(starts, ends)]


def _write(files: list[tuple[str, str]], root: Path) -> Path:
    for name, text in files:
        (root / "db").mkdir(parents=True, exist_ok=True)
        (root / "db" / name).write_text(text, encoding="utf-8")
    return root / "db"


def _lint(sql: str, tmp_path: Path, target: str) -> Report:
    directory = _write(_files(sql), tmp_path)
    report = lint_paths([str(directory)], CheckContext(target=Target.parse(target)))
    lost = [f"{d.rule}: {d.line}: {d.message}" for d in report.diagnostics if d.rule in ("parse-error", "replay-error")]
    assert not lost, f"the example does not replay on {target}:\n" + "\n".join(lost)
    return report


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
                   cwd=root, check=True, capture_output=True)


def _lint_change(check: Check, sql: str, tmp_path: Path, target: str, monkeypatch: pytest.MonkeyPatch,
                 capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The rule's findings for the example as a change against a commit of the good example
    without its last file (`--since HEAD`)."""
    _write(_files(check.doc.good)[:-1], tmp_path)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "applied")
    _write(_files(sql), tmp_path)
    monkeypatch.chdir(tmp_path)
    main(["check", "--format", "json", "--target", target, "--since", "HEAD", "db"])
    report = json.loads(capsys.readouterr().out)
    lost = [f"{d['rule']}: {d['line']}: {d['message']}" for d in report["diagnostics"]
            if d["rule"] in ("parse-error", "replay-error")]
    assert not lost, f"the example does not replay on {target}:\n" + "\n".join(lost)
    return [f"{f['line']}: {f['message']}" for f in report["findings"] if f["rule"] == check.id]


CASES = [pytest.param(check, target, id=f"{check.id}-{target}") for check in ALL_CHECKS for target in _targets(check)]


@pytest.mark.parametrize("check, target", CASES)
def test_the_bad_example_gives_the_rules_finding(check: Check, target: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    if check.id in _GIT_RULES:
        assert _lint_change(check, check.doc.bad, tmp_path, target, monkeypatch, capsys), \
            f"{check.id}'s bad example gives no {check.id} finding on {target}"
        return
    report = _lint(check.doc.bad, tmp_path, target)
    found = sorted({f.rule for f in report.findings})
    assert check.id in found, f"{check.id}'s bad example gives no {check.id} finding on {target} (only {found})"


@pytest.mark.parametrize("check, target", CASES)
def test_the_good_example_does_not(check: Check, target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    if check.id in _GIT_RULES:
        own = _lint_change(check, check.doc.good, tmp_path, target, monkeypatch, capsys)
        assert not own, f"{check.id}'s good example gives its finding on {target}:\n" + "\n".join(own)
        return
    report = _lint(check.doc.good, tmp_path, target)
    own = [f"{f.line}: {f.message}" for f in report.findings if f.rule == check.id]
    assert not own, f"{check.id}'s good example gives its finding on {target}:\n" + "\n".join(own)


def test_every_rule_is_judged_on_a_target() -> None:
    assert {c.id for c in ALL_CHECKS} == {p.values[0].id for p in CASES}  # type: ignore[union-attr]
