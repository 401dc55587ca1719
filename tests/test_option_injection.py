"""File names never become options: `innolint check -- NAMES` reads every name after `--` as a
path, whatever it looks like (pre-commit and the action pass names that way; tests/test_precommit.py
and tests/test_action.py run them for real)."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from linter.cli import main

BAD = "CREATE TABLE event_log (created_at DATETIME NOT NULL) ENGINE=InnoDB;\n"
NAMES = ["--output=schema.sql", "--write-baseline=baseline.json", "--config=config.toml", "--stats=stats.json",
         "--baseline=x.json", "-o.sql", "--format=sarif", "--fail-level=none", "-", "--"]


def run(cwd: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("mode", [[], ["--changed-only"]])
def test_names_after_double_dash_are_files(tmp_path: Path, mode: list[str]) -> None:
    names = [n for n in NAMES if n not in ("-", "--")]
    for name in names:
        (tmp_path / name).write_text(BAD)
    (tmp_path / "schema.sql").write_text("-- the file --output= would overwrite\n")
    code, out, err = run(tmp_path, "check", "--format", "json", *mode, "--", *names)
    assert code == 1, err
    report = json.loads(out)
    assert sorted(f["path"] for f in report["findings"]) == sorted(names)
    assert (tmp_path / "schema.sql").read_text() == "-- the file --output= would overwrite\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names, "schema.sql"])


def test_a_dash_and_a_double_dash_after_the_separator(tmp_path: Path) -> None:
    """After `--`, `--` is a file name; `-` stays standard input (name `./-` for a file called -)."""
    (tmp_path / "--").write_text(BAD)
    (tmp_path / "-").write_text(BAD)
    code, out, _ = run(tmp_path, "check", "--format", "json", "--", "--", "./-")
    assert code == 1 and sorted(f["path"] for f in json.loads(out)["findings"]) == ["--", "./-"]


def test_the_github_report_name_after_double_dash(tmp_path: Path) -> None:
    report = tmp_path / "--sarif-file=x.json"
    report.write_text(json.dumps({"version": 1, "findings": [], "diagnostics": []}))
    code, out, err = run(tmp_path, "github", "--annotations", "none", "--no-summary", "--", report.name)
    assert code == 0, err
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("options", [
    [],
    ["--fail-level=none"],
    ["--fail-level", "none"],
    ["--format=json", "--fail-level", "error"],
])
def test_changed_only_takes_trailing_existing_names_as_files(tmp_path: Path, options: list[str]) -> None:
    """pre-commit appends names after the user's args with no `--`: the trailing arguments that
    name existing files are files, whatever they look like; the options before them still work.
    (A file named exactly like the user's own option would take that option's place as a file
    name: the run is then stricter, never redirected; such names are left out here.)"""
    names = [n for n in NAMES if n not in ("-", "--") and n not in options]
    for name in names:
        (tmp_path / name).write_text(BAD)
    (tmp_path / "schema.sql").write_text("-- the file --output= would overwrite\n")
    code, out, err = run(tmp_path, "check", "--changed-only", *options, *names, "schema.sql")
    assert (tmp_path / "schema.sql").read_text() == "-- the file --output= would overwrite\n"
    assert not (tmp_path / "baseline.json").exists()
    for name in names:
        assert name in out, (out, err)
    # the findings are warnings: exit 1 unless the fail level given is above them
    assert code == (0 if {"none", "error", "--fail-level=none"} & set(options) else 1), err


def test_option_value_that_names_a_file_stays_a_value(tmp_path: Path) -> None:
    """`--config FILE` before the names: FILE exists, but it is the option's value, not a name."""
    (tmp_path / "c.toml").write_text('[tool.innolint]\nfail_level = "none"\n')
    (tmp_path / "a.sql").write_text(BAD)
    from linter.cli import build_parser, files_last

    argv = ["check", "--changed-only", "--config", "c.toml", "a.sql"]
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert files_last(build_parser(), argv) == ["check", "--changed-only", "--config", "c.toml", "--", "a.sql"]
        assert files_last(build_parser(), ["check", "a.sql"]) == ["check", "a.sql"]  # not the hook's mode
        assert files_last(build_parser(), [*argv[:4], "--", "a.sql"]) == [*argv[:4], "--", "a.sql"]
    finally:
        os.chdir(here)
