"""The pre-commit hook, through real `pre-commit try-repo` from a temporary git repository.

`pre-commit try-repo REPO` clones REPO at its HEAD plus its tracked changes (`git add -u`), not its
untracked files. So that this test checks the working tree as it is (new files included, which is
what CI's fresh clone has committed anyway), it runs try-repo against a snapshot of this checkout:
every file git would track here (`git ls-files --cached --others --exclude-standard`) committed
into a temporary repository. pre-commit then builds the hook's virtualenv from it (`language:
python`: pip installs innolint and its dependencies) and runs `innolint check --changed-only` on
the files given.

try-repo builds that virtualenv again on every call (it keeps its store in a temporary directory),
~10 CPU seconds each, so one test uses it and the others run the hook as users do, `pre-commit run`
with a `.pre-commit-config.yaml` naming the snapshot at its release tag: they share one store
(PRE_COMMIT_HOME, for the module), where the virtualenv is built once.

Skipped only when pre-commit is missing and cannot be installed with pip, and the skip says so.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from linter import __version__

REPO_ROOT = Path(__file__).resolve().parent.parent
#: the tag the hook snapshot gets, as a release would (the README's `rev`)
RELEASE_TAG = f"v{__version__}"
GIT_IDENTITY = ["-c", "user.name=innolint tests", "-c", "user.email=tests@innolint.invalid", "-c", "commit.gpgsign=false"]

GOOD = """CREATE TABLE customer (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  email VARCHAR(255) NOT NULL
) ENGINE=InnoDB;
"""
BAD = """-- a log table someone forgot to key
CREATE TABLE event_log (
  created_at DATETIME NOT NULL,
  message VARCHAR(200) NOT NULL
) ENGINE=InnoDB;
"""


@functools.lru_cache(maxsize=None)
def _pre_commit() -> tuple[str, ...]:
    """The pre-commit command, installing it with pip when it is missing (asked once a session)."""
    probe = subprocess.run([sys.executable, "-m", "pre_commit", "--version"], capture_output=True, text=True)
    if probe.returncode != 0:
        install = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pre-commit"],
                                 capture_output=True, text=True, timeout=600)
        if install.returncode != 0:
            pytest.skip(f"pre-commit is not installed and pip could not install it: {install.stderr.strip()[-500:]}")
    return (sys.executable, "-m", "pre_commit")


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store of every `pre-commit run` here (not the user's ~/.cache/pre-commit)."""
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def hook_env(pre_commit_home: Path) -> dict[str, str]:
    """The environment of a pre-commit command (or a `git commit` running the installed hook)."""
    return {**os.environ, "PRE_COMMIT_HOME": str(pre_commit_home), "PRE_COMMIT_COLOR": "never"}


def _use_hook(hook_repo: Path, project: Path, args: str = "") -> None:
    """`project`'s .pre-commit-config.yaml: the snapshot's innolint hook at its release tag, staged
    (every config names the same rev, so pre-commit builds the hook's virtualenv once a module)."""
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {RELEASE_TAG}\n    hooks:\n      - id: innolint\n{args}")
    _git("add", "-A", cwd=project)


def _run_hook(project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*_pre_commit(), "run", "--verbose", "--color", "never", *args], cwd=project,
                          capture_output=True, text=True, timeout=900, env=env)


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *GIT_IDENTITY, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository holding this checkout's files as they are now, committed."""
    snapshot = tmp_path_factory.mktemp("innolint-hook-repo")
    listed = _git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=REPO_ROOT)
    for name in filter(None, listed.split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    _git("init", "-q", cwd=snapshot)
    _git("add", "-A", cwd=snapshot)
    _git("commit", "-q", "-m", "snapshot", cwd=snapshot)
    _git("tag", RELEASE_TAG, cwd=snapshot)  # as a release tags it: the README's `rev`
    return snapshot


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's repository with a migration directory: one good migration, one without a key."""
    root = tmp_path_factory.mktemp("project")
    migrations = root / "db" / "migrations"
    migrations.mkdir(parents=True)
    (migrations / "V1__customers.sql").write_text(GOOD)
    (migrations / "V2__events.sql").write_text(BAD)
    _git("init", "-q", cwd=root)
    _git("add", "-A", cwd=root)
    return root


def _try_repo(hook_repo: Path, project: Path, *files: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_pre_commit(), "try-repo", str(hook_repo), "innolint", "--verbose", "--color", "never", "--files", *files],
        cwd=project, capture_output=True, text=True, timeout=900,
    )


def test_manifest_is_valid() -> None:
    result = subprocess.run([*_pre_commit(), "validate-manifest", str(REPO_ROOT / ".pre-commit-hooks.yaml")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_bad_migration_fails_with_file_line_and_rule(hook_repo: Path, project: Path) -> None:
    result = _try_repo(hook_repo, project, "db/migrations/V2__events.sql")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "innolint" in output and "Failed" in output
    assert "db/migrations/V2__events.sql:2:" in output
    assert "[no-primary-key]" in output


def test_good_migration_passes_in_its_directory(hook_repo: Path, project: Path, tmp_path: Path,
                                                hook_env: dict[str, str]) -> None:
    # V2 beside it has no key, but changed-only mode reports only what is in the files given
    project = Path(shutil.copytree(project, tmp_path / "project"))
    _use_hook(hook_repo, project)
    result = _run_hook(project, hook_env, "--files", "db/migrations/V1__customers.sql")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Passed" in output
    assert "no-primary-key" not in output


#: file names that are options of `innolint check` (each would write or read a file of its choice)
OPTION_NAMES = ["--output=schema.sql", "--write-baseline=baseline.sql", "--config=config.sql", "--stats=stats.sql",
                "-o.sql"]


@pytest.fixture(scope="module")
def hostile_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose committed SQL files are named like innolint's options, beside the
    schema.sql the first would overwrite."""
    root = tmp_path_factory.mktemp("hostile")
    (root / "schema.sql").write_text(GOOD)
    for name in OPTION_NAMES:
        (root / name).write_text(BAD)
    _git("init", "-q", cwd=root)
    _git("add", "-A", cwd=root)
    return root


def test_file_names_like_options_stay_file_names(hook_repo: Path, hostile_project: Path, tmp_path: Path,
                                                 hook_env: dict[str, str]) -> None:
    project = Path(shutil.copytree(hostile_project, tmp_path / "project"))
    _use_hook(hook_repo, project)
    result = _run_hook(project, hook_env, "--all-files")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    for name in OPTION_NAMES:  # each file was linted, as a file
        assert f"{name}:2:1: warning [no-primary-key]" in output, output
    assert (project / "schema.sql").read_text() == GOOD  # not overwritten with a report
    assert sorted(p.name for p in project.iterdir() if p.name != ".git") == sorted(
        [*OPTION_NAMES, "schema.sql", ".pre-commit-config.yaml"])


def test_user_args_stay_options_beside_hostile_names(hook_repo: Path, hostile_project: Path,
                                                     tmp_path: Path, hook_env: dict[str, str]) -> None:
    """The user's `args:` come before the staged names and stay options (here --fail-level=none
    turns the failure off), while the names that look like options stay files."""
    project = Path(shutil.copytree(hostile_project, tmp_path / "project"))
    _use_hook(hook_repo, project, "        args: [--fail-level=none, --format, text]\n")
    result = _run_hook(project, hook_env, "--all-files")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output  # the option was obeyed
    for name in OPTION_NAMES:
        assert f"{name}:2:1: warning [no-primary-key]" in output, output
    assert (project / "schema.sql").read_text() == GOOD  # --output=schema.sql was a file, not an option
    assert not (project / "baseline.sql").exists()


# --- issue 16: the files innolint reads, and a commit that deletes the fix --------------------------

def _project_with_hook(hook_repo: Path, root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    _git("init", "-q", cwd=root)
    _use_hook(hook_repo, root)
    _git("commit", "-q", "-m", "base", cwd=root)
    return root


KEY_LATER = {
    "db/migrations/V1__customers.sql": GOOD,
    "db/migrations/V2__events.sql": BAD,
    "db/migrations/V3__events_key.sql": "ALTER TABLE event_log ADD COLUMN id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST;\n",
}


def test_a_commit_that_only_deletes_the_fix_is_stopped(hook_repo: Path, tmp_path: Path, hook_env: dict[str, str]) -> None:
    """The only staged change deletes V3, which added the key V2 lacked: pre-commit passes no file
    name for a deletion, yet the hook runs (always_run), asks git what the commit deletes, and
    fails at V2, where the problem now is. The commit does not happen."""
    project = _project_with_hook(hook_repo, tmp_path / "project", KEY_LATER)
    subprocess.run([*_pre_commit(), "install"], cwd=project, check=True, capture_output=True, text=True, timeout=300,
                   env=hook_env)
    _git("rm", "-q", "db/migrations/V3__events_key.sql", cwd=project)
    done = subprocess.run(["git", *GIT_IDENTITY, "commit", "-m", "drop V3"], cwd=project, capture_output=True, text=True,
                          timeout=900, env=hook_env)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "db/migrations/V2__events.sql:2:1: warning [no-primary-key]" in output, output
    assert _git("log", "--oneline", cwd=project).count("\n") == 1  # still only the base commit
    # a commit that keeps V3 as it was applied and adds a migration passes (an edit of V3 would be
    # edited-migration's error: it ran already)
    _git("reset", "-q", "HEAD", "--", "db/migrations/V3__events_key.sql", cwd=project)
    _git("checkout", "HEAD", "--", "db/migrations/V3__events_key.sql", cwd=project)
    (project / "db" / "migrations" / "V4__supplier.sql").write_text(GOOD.replace("customer", "supplier"))
    _git("add", "-A", cwd=project)
    again = subprocess.run(["git", *GIT_IDENTITY, "commit", "-q", "-m", "keep V3, add V4"], cwd=project,
                           capture_output=True, text=True, timeout=900, env=hook_env)
    assert again.returncode == 0, again.stdout + again.stderr


def test_an_edit_that_removes_the_fix_is_stopped_and_others_pass(hook_repo: Path, tmp_path: Path,
                                                                  hook_env: dict[str, str]) -> None:
    project = _project_with_hook(hook_repo, tmp_path / "project", KEY_LATER)
    (project / "README.md").write_text("docs only\n")
    _git("add", "-A", cwd=project)
    docs = subprocess.run([*_pre_commit(), "run", "--color", "never"], cwd=project, capture_output=True, text=True,
                          timeout=900, env=hook_env)
    assert docs.returncode == 0, docs.stdout + docs.stderr  # nothing SQL staged: the hook passes
    (project / "db" / "migrations" / "V3__events_key.sql").write_text("-- the key broke the deploy\nSELECT 1;\n")
    _git("add", "-A", cwd=project)
    edited = subprocess.run([*_pre_commit(), "run", "--color", "never"], cwd=project, capture_output=True, text=True,
                            timeout=900, env=hook_env)
    output = edited.stdout + edited.stderr
    assert edited.returncode == 1, output
    assert "V2__events.sql:2:1: warning [no-primary-key]" in output


@pytest.mark.parametrize("names", [
    ("schema.ddl", "dump/all.mysql", "zm_create.sql.in", "backup/mysql-schema.dump", "LEGACY.SQL"),
    ("a/b/c/deep.Ddl", "x.MySQL", "templates/t.SQL.IN"),
])
def test_the_hook_reads_every_name_innolint_reads(hook_repo: Path, tmp_path: Path, names: tuple[str, ...],
                                                  hook_env: dict[str, str]) -> None:
    files = {name: BAD for name in names}
    files["notes.txt"] = BAD  # not a SQL name for a hook (a .txt is SQL only when it starts like a dump)
    files["README.md"] = "CREATE TABLE not_sql (a INT);\n"
    project = _project_with_hook(hook_repo, tmp_path / "project", files)
    done = _run_hook(project, hook_env, "--all-files")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    for name in names:
        assert f"{name}:2:1: warning [no-primary-key]" in output, (name, output)
    assert "notes.txt" not in output and "README.md:" not in output


def test_the_hooks_file_pattern_is_the_clis() -> None:
    """The manifest's `files` matches exactly the names a directory walk reads as SQL, on
    generated names; and it is linear (a long name costs what its length does)."""
    import random
    import re

    import yaml

    from linter.input.source import SQL_SUFFIXES
    from tests.complexity import assert_linear

    (hook,) = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text())
    assert "types" not in hook or hook["types"] == ["file"]
    assert hook["always_run"] is True
    pattern = re.compile(hook["files"])
    rng = random.Random(16)
    pieces = ["sql", "SQL", "in", "ddl", "mysql", "dump", "txt", "sql.in", "bak", "Sql", "my", "d"]
    for _ in range(3000):
        name = "/".join(rng.choice(["db", "x.sql", "a.b"]) for _ in range(rng.randint(0, 2)))
        name += ("/" if name else "") + "f" + "".join("." + rng.choice(pieces) for _ in range(rng.randint(0, 3)))
        assert bool(pattern.search(name)) == name.lower().endswith(SQL_SUFFIXES), name

    def searching(n: int) -> Callable[[], object]:
        name = "a." * n + "sqlx"
        return lambda: pattern.search(name)

    assert_linear(searching, 20_000)


def test_the_readme_snippet_works_as_it_says(hook_repo: Path, tmp_path: Path, hook_env: dict[str, str]) -> None:
    """The README's pre-commit snippet (and docs/pre-commit.md's), as written but for the
    repository: its `rev` is the release tag of this version, given to the snapshot of this
    checkout as a release would tag it, and pre-commit installs the hook from that tag."""
    import re

    for page, title in ((REPO_ROOT / "README.md", "## pre-commit\n"), (REPO_ROOT / "docs" / "pre-commit.md", "# ")):
        text = page.read_text()
        snippet = re.search(r"```yaml\n(.*?)```", text[text.index(title):], re.S).group(1)  # type: ignore[union-attr]
        assert re.search(r"repo: https://github.com/[\w<>-]+/innolint", snippet)
        assert f"rev: v{__version__}\n" in snippet, page
    assert RELEASE_TAG == f"v{__version__}" and RELEASE_TAG in _git("tag", "--list", cwd=hook_repo).split()
    config = re.sub(r"repo: \S+", f"repo: {hook_repo}", snippet)
    project = tmp_path / "project"
    (project / "db").mkdir(parents=True)
    (project / "db" / "V1__init.sql").write_text(BAD)
    (project / ".pre-commit-config.yaml").write_text(config)
    _git("init", "-q", cwd=project)
    _git("add", "-A", cwd=project)
    done = subprocess.run([*_pre_commit(), "run", "--color", "never"], cwd=project, capture_output=True, text=True,
                          timeout=900, env=hook_env)
    output = done.stdout + done.stderr
    assert done.returncode == 1 and "db/V1__init.sql:2:1: warning [no-primary-key]" in output, output


# --- issue 32: a migration that will fail or lock production fails the hook ---------------------------

ISSUE_32 = {
    "db/migrations/V1__customer.sql": "CREATE TABLE customer (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL, "
                                      "b VARCHAR(20)) ENGINE=InnoDB;\n",
}
ISSUE_32_CHANGE = """ALTER TABLE customer DROP PRIMARY KEY;
ALTER TABLE customer MODIFY a BIGINT NOT NULL, ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE customer ADD COLUMN b INT;
ALTER TABLE customer MODIFY a BIGINT NOT NULL;
ALTER TABLE customer ADD FULLTEXT KEY ft (b);
"""


def test_refused_and_blocking_alters_fail_the_commit(hook_repo: Path, tmp_path: Path, hook_env: dict[str, str]) -> None:
    """Issue 32's five statements, committed as a new migration on a table an applied one made, with
    `--target mariadb-10.11` in the hook's args: three refused-ddl errors (1075, 1846, 1060) and
    two blocking-alter warnings (a copy, a rebuild under LOCK=SHARED); the commit does not happen."""
    project = _project_with_hook(hook_repo, tmp_path / "project", ISSUE_32)
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {RELEASE_TAG}\n    hooks:\n      - id: innolint\n"
        "        args: [--target, mariadb-10.11]\n")
    _git("add", "-A", cwd=project)
    _git("commit", "-q", "-m", "the hook's target", cwd=project)
    subprocess.run([*_pre_commit(), "install"], cwd=project, check=True, capture_output=True, text=True, timeout=300,
                   env=hook_env)
    (project / "db/migrations/V2__change.sql").write_text(ISSUE_32_CHANGE)
    _git("add", "db/migrations/V2__change.sql", cwd=project)
    done = subprocess.run(["git", *GIT_IDENTITY, "commit", "-m", "widen a"], cwd=project, capture_output=True, text=True,
                          timeout=900, env=hook_env)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    said = [line.split(" ", 3)[:3] for line in output.splitlines() if line.startswith("db/migrations/V2__change.sql:")]
    assert said == [["db/migrations/V2__change.sql:1:1:", "error", "[refused-ddl]"],
                    ["db/migrations/V2__change.sql:2:1:", "error", "[refused-ddl]"],
                    ["db/migrations/V2__change.sql:3:1:", "error", "[refused-ddl]"],
                    ["db/migrations/V2__change.sql:4:1:", "warning", "[blocking-alter]"],
                    ["db/migrations/V2__change.sql:5:1:", "warning", "[blocking-alter]"]], output
    assert "(error 1075)" in output and "(error 1846)" in output and "(error 1060)" in output
    assert "5 findings (3 errors, 2 warnings" in output
    assert _git("rev-list", "--count", "HEAD", cwd=project).strip() == "2"  # the commit did not happen


def test_a_commit_without_sql_imports_nothing_of_the_linter(hook_repo: Path, tmp_path: Path,
                                                            hook_env: dict[str, str]) -> None:
    """The hook runs on every commit (always_run). With nothing it reads staged and nothing deleted
    it exits before importing the engine (it took about a second on every commit): the real
    pre-commit, with Python's import log, shows neither sqlglot nor linter.engine; staging a
    migration (the control) imports both."""
    project = _project_with_hook(hook_repo, tmp_path / "project", KEY_LATER)
    env = {**hook_env, "PYTHONPROFILEIMPORTTIME": "1"}
    (project / "README.md").write_text("docs only\n")
    _git("add", "-A", cwd=project)
    docs = subprocess.run([*_pre_commit(), "run", "--verbose", "--color", "never"], cwd=project, capture_output=True,
                          text=True, timeout=900, env=env)
    output = docs.stdout + docs.stderr
    assert docs.returncode == 0, output
    assert "import time:" in output and "linter.cli" in output, output[-3000:]  # the log is there
    assert "sqlglot" not in output and "linter.engine" not in output, output[-3000:]
    (project / "db" / "migrations" / "V4__more.sql").write_text(GOOD.replace("customer", "supplier"))
    _git("add", "-A", cwd=project)
    sql = subprocess.run([*_pre_commit(), "run", "--verbose", "--color", "never"], cwd=project, capture_output=True,
                         text=True, timeout=900, env=env)
    assert sql.returncode == 0, sql.stdout + sql.stderr
    assert "sqlglot" in sql.stdout + sql.stderr and "linter.engine" in sql.stdout + sql.stderr
