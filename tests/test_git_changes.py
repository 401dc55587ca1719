"""`--since REF`: changed files and lines from git's machine formats, so that any file name works.

git writes a name with a space as `+++ b/a b.sql<TAB>`, quotes names with tabs, newlines, quotes
or bytes that are not UTF-8, and a name may start with a dash. Each such name is changed in a
real repository; the change set must hold exactly that file with exactly the changed lines, and
`innolint check --since` must report the finding there.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from linter.input.git_changes import ChangeError, ChangeSet, comparable_path, parse_diff
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
KEYED = "CREATE TABLE t{n} (id INT NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n"
UNKEYED = "CREATE TABLE t{n} (a INT NOT NULL) ENGINE=InnoDB;\n"

#: names git writes differently in its text formats (raw bytes: some are not UTF-8)
ODD_NAMES = [
    b"with space.sql",
    b"two  spaces .sql",
    b"tab\there.sql",
    b"new\nline.sql",
    b'quote"d.sql',
    b"back\\slash.sql",
    b"-leading-dash.sql",
    b"--output=x.sql",
    b"caf\xc3\xa9.sql",  # UTF-8
    b"latin\xe9.sql",  # not UTF-8
    b"\xe2\x80\xaebidi.sql",
    b"plain.sql",
]


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=GIT_ENV)


def five_tables() -> str:
    return "".join(KEYED.format(n=n) for n in range(1, 6))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "db").mkdir(parents=True)
    for name in ODD_NAMES:
        with open(os.path.join(os.fsencode(root / "db"), name), "w", encoding="utf-8") as handle:
            handle.write(five_tables())
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    return root


def path_of(repo: Path, name: bytes) -> str:
    return os.fsdecode(os.path.join(os.fsencode(repo / "db"), name))


def test_every_name_keeps_its_changed_lines(repo: Path) -> None:
    for number, name in enumerate(ODD_NAMES):
        lines = five_tables().splitlines(keepends=True)
        line = number % 5  # each file changes a different line
        lines[line] = UNKEYED.format(n=line + 1)
        Path(path_of(repo, name)).write_text("".join(lines), encoding="utf-8")
    changes = ChangeSet.from_git("HEAD", cwd=str(repo))
    expected = {comparable_path(path_of(repo, name)): [(n % 5 + 1, n % 5 + 1)] for n, name in enumerate(ODD_NAMES)}
    assert changes.files == expected
    assert changes.root == os.path.realpath(repo)


def test_untracked_and_renamed_files_with_odd_names(repo: Path) -> None:
    new = path_of(repo, b"new \t\"file\".sql")
    Path(new).write_text(UNKEYED.format(n=9), encoding="utf-8")
    git(repo, "mv", "--", os.fsdecode(b"db/with space.sql"), os.fsdecode(b"db/moved here.sql"))
    moved = path_of(repo, b"moved here.sql")
    with open(moved, "a", encoding="utf-8") as handle:
        handle.write(UNKEYED.format(n=6))
    changes = ChangeSet.from_git("HEAD", cwd=str(repo))
    assert changes.files[comparable_path(new)] is None  # untracked: every line is new
    assert changes.files[comparable_path(moved)] == [(6, 6)]
    assert comparable_path(path_of(repo, b"with space.sql")) not in changes.files


def test_since_reports_the_finding_in_a_file_with_a_space(repo: Path) -> None:
    name = path_of(repo, b"with space.sql")
    Path(name).write_text(five_tables() + UNKEYED.format(n=6), encoding="utf-8")
    done = run_cli(["check", "--format", "json", "--since", "HEAD", "db"], cwd=repo, env=GIT_ENV)
    report = json.loads(done.stdout)
    assert [(os.path.basename(f["path"]), f["table"], f["line"]) for f in report["findings"]] == [
        ("with space.sql", "t6", 6)]


@pytest.mark.parametrize("ref", ["--output=OUT", "-p", "--exec=touch pwned"])
def test_a_ref_is_never_read_as_an_option(repo: Path, ref: str) -> None:
    """`git diff --output=FILE` would write the diff to FILE (it did, before --end-of-options)."""
    out = repo.parent / "diff-output"
    with pytest.raises(ChangeError, match="bad revision|unknown revision|ambiguous argument"):
        ChangeSet.from_git(ref.replace("OUT", str(out)), cwd=str(repo))
    assert not out.exists() and not (repo / "pwned").exists()


def test_a_line_break_of_another_kind_cannot_fake_a_hunk() -> None:
    """Only \\n ends a line of git's output: a changed line holding U+2028 or \\x85 followed by
    `@@ ... @@` text is content, not a header."""
    diff = ("diff --git a/x.sql b/x.sql\n--- a/x.sql\n+++ b/x.sql\n@@ -1 +1 @@\n-a\n+b\u2028@@ -1 +1,999 @@\n"
            "@@ -5 +5 @@\n-c\n+d\x85@@ -1 +1,999 @@\n")
    assert parse_diff(diff, "/repo", ["x.sql"]) == {comparable_path("/repo/x.sql"): [(1, 1), (5, 5)]}


def test_sections_and_names_that_do_not_pair_count_whole_files() -> None:
    diff = "diff --git a/x.sql b/x.sql\n@@ -1 +1 @@\n"
    assert parse_diff(diff, "/repo", ["x.sql", "y.sql"]) == {comparable_path("/repo/x.sql"): None, comparable_path("/repo/y.sql"): None}


def test_a_plus_line_with_a_trailing_tab_is_read_without_it() -> None:
    diff = "diff --git a/a b.sql b/a b.sql\n--- a/a b.sql\t\n+++ b/a b.sql\t\n@@ -2 +2 @@\n-x\n+y\n"
    assert parse_diff(diff, "/repo") == {comparable_path("/repo/a b.sql"): [(2, 2)]}
