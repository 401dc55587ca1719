"""A directory walk skips what git ignores; a file or directory named on the command line is read.

In a git work tree git itself answers; elsewhere innolint's own small matcher reads the
.gitignore files, and a generated differential test holds it to git's answers on random trees and
rules."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from linter.input.gitignore import GitignoreRules, parse_rules
from linter.input.source import discover

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SQL = "CREATE TABLE t (id INT PRIMARY KEY);\n"


def make(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True, env=env).stdout


def found(top: Path, *named: str) -> list[str]:
    files, errors = discover([str(top / n) for n in named] if named else [str(top)], repository=str(top))
    assert errors == [] or all("no SQL files" in message for _, message in errors), errors
    return sorted(os.path.relpath(f, top).replace(os.sep, "/") for f in files)


CASES = [
    # (files, expected found by a walk of the root)
    ({".gitignore": "vendor/\n", "db/a.sql": SQL, "vendor/b.sql": SQL, "vendor/deep/c.sql": SQL, "db/vendor/d.sql": SQL},
     ["db/a.sql"]),
    ({".gitignore": "*.sql\n!keep.sql\n", "a.sql": SQL, "keep.sql": SQL, "db/keep.sql": SQL, "db/x.sql": SQL},
     ["db/keep.sql", "keep.sql"]),
    ({".gitignore": "# comment\n\n/build\n", "build/a.sql": SQL, "db/build/b.sql": SQL, "c.sql": SQL},
     ["c.sql", "db/build/b.sql"]),
    ({"db/.gitignore": "/local.sql\ngen/\n", "db/local.sql": SQL, "db/sub/local.sql": SQL, "db/gen/x.sql": SQL,
      "local.sql": SQL, "db/ok.sql": SQL},
     ["db/ok.sql", "db/sub/local.sql", "local.sql"]),
    ({".gitignore": "**/generated/*.sql\n", "a/generated/x.sql": SQL, "generated/y.sql": SQL,
      "a/generated/deeper/z.sql": SQL, "a/b.sql": SQL},
     ["a/b.sql", "a/generated/deeper/z.sql"]),
    ({".gitignore": "dir/\n!dir/keep.sql\n", "dir/keep.sql": SQL, "other.sql": SQL},  # no re-include inside
     ["other.sql"]),
    ({".gitignore": "dump?.sql   \n[ab].sql\n", "dump1.sql": SQL, "dump12.sql": SQL, "a.sql": SQL, "c.sql": SQL},
     ["c.sql", "dump12.sql"]),
    ({".gitignore": "*.sql\n", "sub/.gitignore": "!*.sql\n", "a.sql": SQL, "sub/b.sql": SQL},  # deeper file wins
     ["sub/b.sql"]),
    ({".gitignore": "logs/**\n", "logs/a.sql": SQL, "logs/x/b.sql": SQL, "x/logs/c.sql": SQL},
     ["x/logs/c.sql"]),
]


@pytest.mark.parametrize("git_tree", [False, True], ids=["no-git", "git"])
@pytest.mark.parametrize(("files", "expected"), CASES)
def test_walk_skips_what_git_ignores(tmp_path: Path, files: dict[str, str], expected: list[str], git_tree: bool) -> None:
    make(tmp_path, files)
    if git_tree:
        git(tmp_path, "init", "-q", ".")
    assert found(tmp_path) == expected


def test_a_named_file_is_always_read_and_a_named_ignored_directory_walked(tmp_path: Path) -> None:
    make(tmp_path, {".gitignore": "vendor/\n*.gen.sql\n", "vendor/a.sql": SQL, "vendor/sub/b.sql": SQL,
                    "db/x.gen.sql": SQL, "db/y.sql": SQL})
    git(tmp_path, "init", "-q", ".")
    assert found(tmp_path) == ["db/y.sql"]
    assert found(tmp_path, "db/x.gen.sql") == ["db/x.gen.sql"]
    assert found(tmp_path, "vendor") == ["vendor/a.sql", "vendor/sub/b.sql"]
    assert found(tmp_path, "db") == ["db/y.sql"]


def test_tracked_files_are_never_ignored(tmp_path: Path) -> None:
    make(tmp_path, {".gitignore": "*.sql\n", "schema.sql": SQL, "scratch.sql": SQL})
    git(tmp_path, "init", "-q", ".")
    git(tmp_path, "add", "-f", "schema.sql")
    assert found(tmp_path) == ["schema.sql"]


def test_git_exclude_file_and_names_git_must_not_read_as_options(tmp_path: Path) -> None:
    make(tmp_path, {"--output=x.sql": SQL, "-n.sql": SQL, "private.sql": SQL, "a b.sql": SQL, "ü.sql": SQL})
    git(tmp_path, "init", "-q", ".")
    (tmp_path / ".git" / "info" / "exclude").write_text("private.sql\n-n.sql\n")
    assert found(tmp_path) == ["--output=x.sql", "a b.sql", "ü.sql"]


def test_a_gitignore_linking_out_of_the_tree_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    make(outside, {"rules": "*.sql\n"})
    top = tmp_path / "top"
    make(top, {"a.sql": SQL})
    (top / ".gitignore").symlink_to(outside / "rules")
    assert found(top) == ["a.sql"]


def test_everything_ignored_is_no_sql_files(tmp_path: Path) -> None:
    make(tmp_path, {".gitignore": "*.sql\n", "a.sql": SQL})
    files, errors = discover([str(tmp_path)], repository=str(tmp_path))
    assert files == [] and len(errors) == 1 and "no SQL files" in errors[0][1]


def test_rules_parse() -> None:
    rules = parse_rules("# c\n\n\\#hash.sql\n\\!bang.sql\n!neg\ntrail\\ \nspaces   \n/\n", "sub")
    assert [(r.negated, r.dir_only, r.anchored, r.base) for r in rules] == [
        (False, False, False, "sub"), (False, False, False, "sub"), (True, False, False, "sub"),
        (False, False, False, "sub"), (False, False, False, "sub")]
    assert rules[0].glob.match("#hash.sql") and rules[1].glob.match("!bang.sql")
    assert rules[3].glob.match("trail ") and rules[4].glob.match("spaces")


# --- differential: innolint's matcher against git on generated trees ---------------------------------

NAMES = ["a.sql", "b.sql", "ab.sql", "x.txt", "keep.sql"]
DIRS = ["", "d1", "d2", "d1/d3", "d2/d1", "vendor", "vendor/d1"]
PATTERNS = ["*.sql", "a*", "/d1", "d1/", "d1", "!a.sql", "!keep.sql", "d1/*.sql", "**/b.sql", "d?", "[ab].sql",
            "vendor/", "!vendor/", "/*.sql", "d1/**", "**/d1/a.sql", "!d1/", "*b*", "?.sql", "!*.sql", "d3/"]


def _random_tree(rng: random.Random) -> dict[str, str]:
    files: dict[str, str] = {}
    for directory in DIRS:
        for name in rng.sample(NAMES, rng.randint(1, 3)):
            files[f"{directory}/{name}".lstrip("/")] = SQL
    for directory in rng.sample(DIRS, rng.randint(1, 3)):
        files[f"{directory}/.gitignore".lstrip("/")] = "\n".join(rng.sample(PATTERNS, rng.randint(1, 4))) + "\n"
    return files


def test_own_matcher_agrees_with_git_on_generated_trees(tmp_path: Path) -> None:
    rng = random.Random(18)
    disagreements = []
    for case in range(120):
        root = tmp_path / f"c{case}"
        files = _random_tree(rng)
        make(root, files)
        git(root, "init", "-q", ".")
        listed = git(root, "ls-files", "-z", "--others", "--exclude-standard").split("\0")
        by_git = sorted(p for p in listed if p.endswith(".sql"))
        ignored = GitignoreRules(os.path.realpath(root))
        mine = []
        for dirpath, dirnames, filenames in os.walk(root):
            relative = os.path.relpath(dirpath, root).replace(os.sep, "/")
            ignored.enter(dirpath, relative)
            prefix = "" if relative == "." else relative + "/"
            dirnames[:] = sorted(d for d in dirnames if d != ".git" and not ignored.directory(prefix + d))
            mine.extend(prefix + f for f in filenames if f.endswith(".sql") and not ignored.file(prefix + f))
        if sorted(mine) != by_git:
            disagreements.append((files, sorted(set(mine) ^ set(by_git))))
    assert disagreements == []
