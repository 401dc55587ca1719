"""`innolint fix --migration` in a git repository: it adds a migration after migrations that
ran, so it refuses to stack one on a migration that is not committed (untracked, staged, modified
or deleted: it has run nowhere, and is fixed in place), as `cargo fix` refuses a dirty tree;
`--allow-dirty` writes anyway and `--dry-run` shows the files with a note. On an Atlas directory
the migration comes with atlas.sum written again: the next `innolint check` (plain, `--since`,
the pre-commit hook's `--changed-only`) reports no edited history and no wrong sum.

Real git, real repositories in scratch directories; the CLI as a process."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.cli_run import run_cli

ROOT = Path(__file__).parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
NO_KEY = "CREATE TABLE {t} (a INT, b VARCHAR(20));\n"
KEYED = "CREATE TABLE {t} (id INT NOT NULL PRIMARY KEY, a INT, KEY k (a), KEY k_again (a));\n"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=repo,
                          capture_output=True, text=True, env=ENV, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def innolint(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(args, cwd=repo, env=ENV)


def repo_with(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "history")
    return repo


FLYWAY = {"db/V1__init.sql": NO_KEY.format(t="t1"), "db/V2__more.sql": KEYED.format(t="t2")}
GOLANG = {"db/000001_init.up.sql": NO_KEY.format(t="t1"), "db/000001_init.down.sql": "DROP TABLE t1;\n",
          "db/000002_more.up.sql": KEYED.format(t="t2"), "db/000002_more.down.sql": "DROP TABLE t2;\n"}


def _dirty(repo: Path, how: str, layout: dict[str, str]) -> str:
    """Make one migration not committed, `how`; the name said in the refusal."""
    names = sorted(layout)
    if how == "untracked":
        name = "db/V3__new.sql" if "V1" in names[0] else "db/000003_new.up.sql"
        (repo / name).write_text(KEYED.format(t="t3"))
    elif how == "staged":
        name = "db/V3__new.sql" if "V1" in names[0] else "db/000003_new.up.sql"
        (repo / name).write_text(KEYED.format(t="t3"))
        git(repo, "add", name)
    elif how == "staged-edit":
        name = names[-1]
        (repo / name).write_text((repo / name).read_text() + "ALTER TABLE t2 ADD COLUMN c INT;\n")
        git(repo, "add", name)
    elif how == "modified":
        name = names[0]
        (repo / name).write_text((repo / name).read_text() + "ALTER TABLE t1 ADD COLUMN c INT;\n")
    elif how == "down-untracked":  # a down file is the history's too
        name = "db/000003_new.down.sql"
        (repo / "db/000003_new.up.sql").write_text(KEYED.format(t="t3"))
        git(repo, "add", "db/000003_new.up.sql")
        git(repo, "commit", "-q", "-m", "three")
        (repo / name).write_text("DROP TABLE t3;\n")
    else:
        assert how == "deleted"
        name = names[-1]
        (repo / name).unlink()
    return Path(name).name


DIRTY = [(name, layout, how) for name, layout in (("flyway", FLYWAY), ("golang-migrate", GOLANG))
         for how in ("untracked", "staged", "staged-edit", "modified", "deleted", "down-untracked")
         if how != "down-untracked" or layout is GOLANG]  # (Flyway's history here keeps no undo files)


@pytest.mark.parametrize("layout, how", [case[1:] for case in DIRTY], ids=[f"{c[0]}-{c[2]}" for c in DIRTY])
def test_a_migration_not_committed_is_not_stacked_on(tmp_path: Path, layout: dict[str, str], how: str) -> None:
    repo = repo_with(tmp_path, layout)
    name = _dirty(repo, how, layout)
    state = {"staged": "added", "staged-edit": "staged", "down-untracked": "untracked"}.get(how, how)
    before = sorted(p.name for p in (repo / "db").iterdir())
    refused = innolint(repo, "fix", "--migration", "db")
    assert refused.returncode == 2, refused.stderr
    assert f"{name} ({state})" in refused.stderr and "--allow-dirty" in refused.stderr, refused.stderr
    assert "fix it in place" in refused.stderr
    assert sorted(p.name for p in (repo / "db").iterdir()) == before  # nothing written

    shown = innolint(repo, "fix", "--migration", "db", "--dry-run")
    assert shown.returncode in (0, 1) and "==> " in shown.stdout, shown.stderr
    assert "not committed" in shown.stderr and sorted(p.name for p in (repo / "db").iterdir()) == before

    allowed = innolint(repo, "fix", "--migration", "db", "--allow-dirty")
    assert allowed.returncode in (0, 1), allowed.stderr
    assert len(sorted(p.name for p in (repo / "db").iterdir())) > len(before)


@pytest.mark.parametrize("layout", [FLYWAY, GOLANG], ids=["flyway", "golang-migrate"])
def test_a_committed_history_gets_its_next_migration(tmp_path: Path, layout: dict[str, str]) -> None:
    """Committed, with other changes in the repository (a file outside the migrations, an
    untracked note beside them that is no migration): written."""
    repo = repo_with(tmp_path, {**layout, "README.md": "x\n"})
    (repo / "README.md").write_text("changed\n")
    (repo / "db" / "notes.txt").write_text("not a migration\n")
    done = innolint(repo, "fix", "--migration", "db")
    assert done.returncode in (0, 1), done.stderr
    assert "wrote" in done.stderr


def test_outside_a_git_repository_nothing_is_asked(tmp_path: Path) -> None:
    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "V1__init.sql").write_text(NO_KEY.format(t="t1"))
    done = run_cli(["fix", "--migration", str(directory)], cwd=tmp_path,
                   env={**ENV, "GIT_CEILING_DIRECTORIES": str(tmp_path.parent)})
    assert done.returncode in (0, 1), done.stderr
    assert (directory / "V2__innolint_fixes.sql").is_file()


# --- Atlas: atlas.sum written with the migration --------------------------------------------------

def _atlas_repo(tmp_path: Path, files: dict[str, str]) -> Path:
    from linter.input.migrations.formats import atlas

    names = sorted(files)
    sum_file = atlas.sum_text([(n, files[n].encode()) for n in names])
    return repo_with(tmp_path, {**{f"migrations/{n}": t for n, t in files.items()}, "migrations/atlas.sum": sum_file})


def _report(repo: Path, *args: str) -> dict:
    done = innolint(repo, "check", "--format", "json", "--fail-level", "none", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _about_history(report: dict) -> list[str]:
    """What a report says of the history itself: an edit of a migration that ran, a wrong sum,
    a file read as SQL that is none."""
    return [f"{f['rule']}: {f['message']}" for f in report["findings"] if f["rule"] == "edited-migration"] + \
        [f"{d['rule']}: {d['message']}" for d in report["diagnostics"]
         if d["rule"] in ("parse-error", "io-error") or "atlas.sum" in d["message"]]


@pytest.mark.parametrize("files", [
    {"20240101120000_init.sql": NO_KEY.format(t="t1"), "20240102120000_more.sql": KEYED.format(t="t2")},
    {"1_init.sql": KEYED.format(t="t1"), "2_more.sql": NO_KEY.format(t="t2") + KEYED.format(t="t3"),
     "3_alter.sql": "ALTER TABLE t1 ADD COLUMN c INT;\n"},
    {"20240101120000_init.sql": "-- atlas:delimiter -- end\nCREATE TABLE t1 (a INT, KEY k (a), KEY k2 (a))\n-- end\n"},
], ids=["timestamps", "numbers", "delimiter"])
def test_atlas_sum_is_written_with_the_migration(tmp_path: Path, files: dict[str, str]) -> None:
    repo = _atlas_repo(tmp_path, files)
    assert _about_history(_report(repo, "migrations")) == []
    fixed_before = {(f["rule"], f["table"]) for f in _report(repo, "migrations")["findings"]
                    if f["rule"] in ("no-primary-key", "redundant-index")}
    assert fixed_before
    done = innolint(repo, "fix", "--migration", "migrations")
    assert done.returncode in (0, 1), done.stderr
    status = git(repo, "status", "--porcelain=v1", "--untracked-files=all").splitlines()
    assert " M migrations/atlas.sum" in status and len(status) == 2, status
    new = next(line[3:] for line in status if line.startswith("??"))

    # the next runs: plain, against HEAD, the hook with the staged files, after the commit
    plain = _report(repo, "migrations")
    assert _about_history(plain) == []
    assert not fixed_before & {(f["rule"], f["table"]) for f in plain["findings"]}
    assert _about_history(_report(repo, "--since", "HEAD", "migrations")) == []
    git(repo, "add", "-A")
    staged = [n for n in git(repo, "diff", "--cached", "--name-only").split() if n.endswith(".sql")]
    assert staged == [new]
    assert _about_history(_report(repo, "--changed-only", *staged)) == []
    git(repo, "commit", "-q", "-m", "fixes")
    assert _about_history(_report(repo, "--since", "HEAD~1", "migrations")) == []
    # and the sum is the one atlas migrate hash writes for the directory now
    from linter.input.migrations.formats import atlas

    names = atlas.sorted_names(p.name for p in (repo / "migrations").glob("*.sql"))
    assert (repo / "migrations" / "atlas.sum").read_text() == atlas.sum_text(
        [(n, (repo / "migrations" / n).read_bytes()) for n in names])


def test_atlas_sum_left_as_it_was_is_reported(tmp_path: Path) -> None:
    """The control: a migration added without its sum is what the check reports (so the test
    above would see a writer that forgot atlas.sum)."""
    repo = _atlas_repo(tmp_path, {"20240101120000_init.sql": NO_KEY.format(t="t1")})
    (repo / "migrations" / "20240102120000_fix.sql").write_text("ALTER TABLE t1 ADD PRIMARY KEY (a);\n")
    assert any("atlas.sum" in line for line in _about_history(_report(repo, "migrations")))


@pytest.mark.parametrize("stage", [False, True], ids=["untracked", "added"])
def test_allowed_a_new_migrations_tables_are_fixed_in_their_create(tmp_path: Path, stage: bool) -> None:
    """With --allow-dirty, the findings on tables the new migration creates (a zero-date default
    MySQL 8.0 refuses, so the table is never created there, and no primary key) are listed with
    the corrected CREATE TABLE to put in that migration, not applied as ALTERs after it; the
    committed tables' findings are applied."""
    repo = repo_with(tmp_path, FLYWAY)
    (repo / "db" / "V3__new.sql").write_text(
        "CREATE TABLE fresh (a INT, paid_on DATE NOT NULL DEFAULT '0000-00-00', b VARCHAR(10));\n")
    if stage:
        git(repo, "add", "db/V3__new.sql")
    done = innolint(repo, "fix", "--migration", "db", "--allow-dirty", "--target", "mysql-8.0")
    assert done.returncode == 1, done.stderr  # (some listed)
    up = (repo / "db" / "V4__innolint_fixes.sql").read_text()
    applied, listed = up.split("-- Not applied", 1)
    assert "ALTER TABLE `t1`" in applied and "fresh" not in applied, up
    assert listed.count("V3__new.sql, which is not committed: correct that CREATE TABLE") == 2, listed
    assert "--   CREATE TABLE `fresh` (" in listed and "`paid_on` DATE NULL DEFAULT NULL" in listed, listed
