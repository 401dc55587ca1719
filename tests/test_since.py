"""`--since REF`: what a change makes worse, in real git repositories.

The change a pull request makes is not only the files it touches: deleting (or editing) the
migration that fixed something makes a finding appear in a file it never touched. innolint
replays the affected units at REF (read from git, never checked out) and in the working tree,
and reports every finding new at HEAD wherever it is, besides those in the changed files; and
nothing that was already there.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=GIT_ENV).stdout


def since(repo: Path, ref: str = "main", *paths: str, codes: tuple[int, ...] = (0, 1)) -> tuple[int, dict]:
    done = run_cli(["check", "--format", "json", "--since", ref, *(paths or ("db",))], cwd=repo, env=GIT_ENV)
    assert done.returncode in codes, done.stderr
    return done.returncode, json.loads(done.stdout)


def found(report: dict) -> list[tuple[str, str, str]]:
    return sorted((f["rule"], os.path.basename(f["path"]), f["table"] or "") for f in report["findings"])


#: histories where the last migration fixes what an earlier one left: (files, the fix's file, the finding)
HISTORIES = {
    "key added later": ({
        "V1__customers.sql": "CREATE TABLE customer (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, email VARCHAR(255) NOT NULL) ENGINE=InnoDB;\n",
        "V2__events.sql": "CREATE TABLE event_log (\n  created_at DATETIME NOT NULL,\n  message VARCHAR(200) NOT NULL\n) ENGINE=InnoDB;\n",
        "V3__events_key.sql": "ALTER TABLE event_log ADD COLUMN id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST;\n",
    }, "V3__events_key.sql", ("no-primary-key", "V2__events.sql", "event_log")),
    "redundant index dropped later": ({
        "0001_init.up.sql": "CREATE TABLE `orders` (`id` INT NOT NULL PRIMARY KEY, `cust` INT NOT NULL, `at` DATE,\n"
                            "  KEY `by_cust` (`cust`), KEY `by_cust_at` (`cust`, `at`)) ENGINE=InnoDB;\n",
        "0002_note.up.sql": "ALTER TABLE `orders` ADD COLUMN `note` TEXT;\n",
        "0003_drop_dup.up.sql": "ALTER TABLE `orders` DROP INDEX `by_cust`;\n",
    }, "0003_drop_dup.up.sql", ("redundant-index", "0001_init.up.sql", "orders")),
    "uuid key replaced later": ({
        "20240101000000_sessions.sql": "CREATE TABLE session_events (\n  id CHAR(36) NOT NULL,\n  created_at DATETIME NOT NULL,\n"
                                       "  PRIMARY KEY (id)\n) ENGINE=InnoDB;\n",
        "20240202000000_other.sql": "CREATE TABLE lookup (code INT NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n",
        "20240303000000_ordered.sql": "ALTER TABLE session_events DROP PRIMARY KEY, ADD COLUMN seq BIGINT NOT NULL AUTO_INCREMENT FIRST, ADD PRIMARY KEY (seq), ADD UNIQUE KEY (id);\n",
    }, "20240303000000_ordered.sql", ("uuid-primary-key", "20240101000000_sessions.sql", "session_events")),
}


def make_repo(tmp_path: Path, files: dict[str, str], directory: str = "db/migrations") -> Path:
    repo = tmp_path / "repo"
    (repo / directory).mkdir(parents=True)
    for name, text in files.items():
        (repo / directory / name).write_text(text)
    (repo / "README.md").write_text("app\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "feature")
    return repo


@pytest.mark.parametrize("history", sorted(HISTORIES))
def test_deleting_the_fix_is_reported_where_the_problem_is(tmp_path: Path, history: str) -> None:
    files, fix, expected = HISTORIES[history]
    repo = make_repo(tmp_path, files)
    assert since(repo)[0] == 0  # nothing changed yet
    git(repo, "rm", "-q", f"db/migrations/{fix}")
    code, report = since(repo)
    assert expected in found(report), found(report)
    assert code == 1 or expected[0] == "uuid-primary-key"  # uuid without evidence of inserts is info


@pytest.mark.parametrize("history", sorted(HISTORIES))
def test_editing_the_fix_away_is_reported_too(tmp_path: Path, history: str) -> None:
    files, fix, expected = HISTORIES[history]
    repo = make_repo(tmp_path, files)
    (repo / "db" / "migrations" / fix).write_text("-- reverted: the fix broke the deploy\nSELECT 1;\n")
    git(repo, "commit", "-q", "-am", "revert the fix")
    assert expected in found(since(repo)[1])


def test_a_deletion_committed_on_the_branch_and_a_rename_elsewhere(tmp_path: Path) -> None:
    """The PR's commits (not the working tree) delete the fix; a plain schema file with an old
    problem is moved: that problem is not new, and is not reported as new."""
    files, fix, expected = HISTORIES["key added later"]
    repo = make_repo(tmp_path, files)
    (repo / "db" / "legacy.sql").write_text("CREATE TABLE legacy_audit (at DATETIME, what TEXT) ENGINE=InnoDB;\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "legacy file")
    git(repo, "branch", "-f", "main")  # the base has the legacy file
    git(repo, "rm", "-q", f"db/migrations/{fix}")
    (repo / "db" / "archive").mkdir()
    git(repo, "mv", "db/legacy.sql", "db/archive/legacy.sql")
    git(repo, "commit", "-q", "-m", "drop V3, move legacy")
    code, report = since(repo)
    by_table = {f["table"]: f for f in report["findings"]}
    assert by_table["event_log"]["severity"] == "warning"  # new: full severity
    assert by_table.get("legacy_audit", {"severity": "info"})["severity"] == "info"  # moved, not new: legacy
    assert code == 1


def test_an_added_migration_does_not_make_old_problems_new(tmp_path: Path) -> None:
    """A PR that adds V4 to a history whose V2 has always lacked a key: V2's finding is not new
    (it is at REF too), so the PR passes at fail level warning; V4's own finding is reported."""
    files = {k: v for k, v in HISTORIES["key added later"][0].items() if not k.startswith("V3")}
    repo = make_repo(tmp_path, files)
    (repo / "db" / "migrations" / "V4__keyed.sql").write_text("CREATE TABLE settings (k VARCHAR(40) NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n")
    code, report = since(repo)
    assert found(report) == [] and code == 0
    (repo / "db" / "migrations" / "V5__unkeyed.sql").write_text("CREATE TABLE audit_trail (at DATETIME) ENGINE=InnoDB;\n")
    code, report = since(repo)
    assert found(report) == [("no-primary-key", "V5__unkeyed.sql", "audit_trail")] and code == 1


def test_ref_is_read_from_git_never_checked_out(tmp_path: Path) -> None:
    """REF's files come from git's objects: a symbolic link at REF to a file outside the
    repository is not read, a link to a file inside is followed, and nothing is written in the
    working tree or run (no hook)."""
    outside = tmp_path / "outside.sql"
    outside.write_text("CREATE TABLE secret_outside (a INT) ENGINE=InnoDB;\n")
    files = dict(HISTORIES["key added later"][0])
    repo = make_repo(tmp_path, files)
    git(repo, "checkout", "-q", "main")
    (repo / "db" / "migrations" / "V4__link_out.sql").symlink_to(outside)
    (repo / "db" / "migrations" / "V5__link_in.sql").symlink_to("V2__events.sql")
    hooks = repo / ".git" / "hooks"
    (hooks / "post-checkout").write_text("#!/bin/sh\ntouch \"$GIT_DIR/../pwned\"\n")
    (hooks / "post-checkout").chmod(0o755)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "links")
    git(repo, "checkout", "-q", "feature")
    git(repo, "reset", "-q", "--hard", "main")
    (repo / "pwned").unlink(missing_ok=True)
    before = sorted(p.name for p in (repo / "db" / "migrations").iterdir())
    git(repo, "rm", "-q", "db/migrations/V3__events_key.sql")
    code, report = since(repo, codes=(2,))  # the working tree's link out is refused there, as always
    assert [d["rule"] for d in report["diagnostics"]] == ["io-error"]
    assert not (repo / "pwned").exists()
    assert sorted(p.name for p in (repo / "db" / "migrations").iterdir()) == sorted(set(before) - {"V3__events_key.sql"})
    assert "secret_outside" not in json.dumps(report)
    assert ("no-primary-key", "V2__events.sql", "event_log") in found(report)


@pytest.mark.parametrize("name", ["--output=x.sql", "spaced name.sql", "caf\u00e9.sql", "-leading.sql"])
def test_deleted_files_with_odd_names(tmp_path: Path, name: str) -> None:
    """A plain schema file (not a migration) with an odd name is deleted: its directory's other
    files are compared at REF and HEAD; a table that file defined twice over does not count."""
    repo = make_repo(tmp_path, {}, directory="db")
    (repo / "db" / "base.sql").write_text("CREATE TABLE kept (a INT) ENGINE=InnoDB;\n")
    (repo / "db" / name).write_text("CREATE TABLE gone (a INT) ENGINE=InnoDB;\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two files")
    git(repo, "branch", "-f", "main")
    git(repo, "rm", "-q", "--", f"db/{name}")
    code, report = since(repo)
    assert (code, found(report)) == (0, []), report  # kept's finding is old; gone's is gone
    assert (repo / "db" / "base.sql").exists()


def test_each_finding_says_whether_the_change_adds_it_or_makes_it_worse(tmp_path: Path) -> None:
    """`new` in the JSON report: what the change adds (a new table without a key, a finding the
    change raises from info to error) is true, what was there as severe before is false; the
    pull-request check annotates the first and counts the second (issue 35)."""
    repo = make_repo(tmp_path, {
        "V1__init.sql": "CREATE TABLE old_log (\n  created_at DATETIME NOT NULL\n) ENGINE=InnoDB;\n"
                        "CREATE TABLE sessions (\n  id CHAR(36) NOT NULL PRIMARY KEY,\n  at DATETIME\n) ENGINE=InnoDB;\n",
    })
    (repo / "db/migrations/V2__more.sql").write_text(
        "CREATE TABLE new_log (\n  created_at DATETIME NOT NULL\n) ENGINE=InnoDB;\n")
    _, report = since(repo)
    flags = {(f["rule"], f["table"]): f["new"] for f in report["findings"]}
    assert flags == {("no-primary-key", "new_log"): True}, flags  # V1's findings are in no changed file
    # the same file edited: the old table's finding is there, not new; the sessions table's key is
    # declared insert-heavy, which raises uuid-primary-key to error: worse, so new
    (repo / "db/migrations/V1__init.sql").write_text(
        (repo / "db/migrations/V1__init.sql").read_text().replace(
            "CREATE TABLE sessions", "-- innolint: insert-heavy\nCREATE TABLE sessions"))
    _, report = since(repo)
    flags = {(f["rule"], f["table"]): (f["new"], f["severity"]) for f in report["findings"]}
    assert flags[("no-primary-key", "new_log")] == (True, "warning")
    assert flags[("no-primary-key", "old_log")] == (False, "info")  # legacy: one level down
    assert flags[("uuid-primary-key", "sessions")] == (True, "error"), flags
    done = run_cli(["check", "--format", "json", "db"], cwd=repo, env=GIT_ENV)
    assert {f["new"] for f in json.loads(done.stdout)["findings"]} == {None}  # compared with nothing
