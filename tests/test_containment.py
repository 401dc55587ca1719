"""A pull request chooses file names, links and configuration: innolint reads nothing outside the
tree it lints, and nothing that is not a regular file of bounded size (linter/input/file_access.py).

Every case runs the command line (in-process, `linter.cli.main`, for speed; as a subprocess where
the process environment is the secret) in a temporary git repository, with secrets outside the
repository: a SQL file whose table name is the secret, and the environment. They must never show
in any output format, and a clear diagnostic takes their place.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
SECRET = "ghs_SECRET0123456789"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "INNOLINT_TEST_SECRET": SECRET}
TABLE = "CREATE TABLE kept (id BIGINT NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n"
FORMATS = ("text", "json", "sarif", "github")


def run(repo: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "linter.cli", *args], cwd=repo, env=ENV, capture_output=True,
                          text=True, timeout=timeout)


def run_here(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`innolint ARGS` in this process, in `repo`: the same result as `run`, without the start-up."""
    return run_cli(args, cwd=repo)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository `repo/` with db/V1__kept.sql, and beside it (outside) secret files."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.sql").write_text(f"CREATE TABLE {SECRET} (a INT);\n")
    (outside / "stats.json").write_text(json.dumps({"version": 1, "tables": []}))
    (outside / "more").mkdir()
    (outside / "more" / "deep.sql").write_text(f"CREATE TABLE {SECRET}_deep (a INT);\n")
    root = tmp_path / "repo"
    (root / "db").mkdir(parents=True)
    (root / "db" / "V1__kept.sql").write_text(TABLE)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def check_everywhere(repo: Path, paths: list[str], expected: list[str], *extra: str, fork: bool = False) -> None:
    """Every format: exit 2, an io-error naming each expected (path, reason), the secret nowhere."""
    for fmt in FORMATS:
        done = (run if fork else run_here)(repo, "check", "--format", fmt, *extra, "--", *paths)
        output = done.stdout + done.stderr
        assert done.returncode == 2, output
        assert SECRET not in output, f"{fmt}: the secret leaked:\n{output}"
        assert "Traceback" not in output
        if fmt == "json":
            diagnostics = json.loads(done.stdout)["diagnostics"]
            messages = [d["message"] for d in diagnostics if d["rule"] == "io-error"]
            for text in expected:
                assert any(text in m for m in messages), (text, messages)
            assert all("excerpt" not in d or not d["excerpt"] for d in diagnostics)


LINKS = {
    "file": lambda repo: (repo / "db" / "V2__x.sql", repo.parent / "outside" / "secret.sql"),
    "environ": lambda repo: (repo / "db" / "V2__env.sql", Path("/proc/self/environ")),
    "zero": lambda repo: (repo / "db" / "V2__zero.sql", Path("/dev/zero")),
    "dotdot": lambda repo: (repo / "db" / "V2__up.sql", Path("../../outside/secret.sql")),
    "absolute-dir": lambda repo: (repo / "db" / "linked", repo.parent / "outside" / "more"),
    "relative-dir": lambda repo: (repo / "db" / "linked2", Path("../../outside")),
}


@pytest.mark.parametrize("kind", sorted(LINKS))
def test_a_link_out_of_a_walked_directory_is_refused(repo: Path, kind: str) -> None:
    link, target = LINKS[kind](repo)
    link.symlink_to(target)
    reason = "symbolic link to a directory outside db" if "dir" in kind else "symbolic link to a file outside db"
    check_everywhere(repo, ["db"], [f"{os.path.join('db', link.name)}: {reason}"], fork=kind == "environ")
    # the rest of the directory is still linted
    report = json.loads(run_here(repo, "check", "--format", "json", "db").stdout)
    assert report["stats"]["files"] == 1 and report["stats"]["tables"] == 1


@pytest.mark.parametrize("kind", ["file", "environ", "zero", "dotdot"])
@pytest.mark.parametrize("mode", [[], ["--changed-only"]])
def test_a_link_out_of_the_repository_named_explicitly_is_refused(repo: Path, kind: str, mode: list[str]) -> None:
    """What pre-commit passes (`--changed-only NAME`) and what the action may name."""
    link, target = LINKS[kind](repo)
    link.symlink_to(target)
    name = os.path.join("db", link.name)
    check_everywhere(repo, [name], [f"{name}: symbolic link to a file outside the repository"], *mode,
                     fork=kind == "environ")


def test_a_link_inside_the_repository_is_followed(repo: Path) -> None:
    (repo / "shared").mkdir()
    (repo / "shared" / "t.sql").write_text("CREATE TABLE shared_t (a INT) ENGINE=InnoDB;\n")
    (repo / "db" / "V2__shared.sql").symlink_to(Path("../shared/t.sql"))
    named = json.loads(run_here(repo, "check", "--format", "json", "--", "db/V2__shared.sql").stdout)
    assert named["diagnostics"] == [] and [f["table"] for f in named["findings"]] == ["shared_t"]
    # walking db/ stays inside db/: the same link is outside the walked directory
    walked = json.loads(run_here(repo, "check", "--format", "json", "db").stdout)
    assert [d["message"].split(": ", 1)[1] for d in walked["diagnostics"]] == [
        "symbolic link to a file outside db; not read (innolint reads only files inside the tree it lints; "
        "name the target itself to lint it)"]


def test_a_path_named_outside_the_repository_is_the_users_choice(repo: Path) -> None:
    outside = repo.parent / "outside" / "secret.sql"
    for name in (str(outside), "../outside/secret.sql", "db/../../outside/secret.sql"):
        report = json.loads(run_here(repo, "check", "--format", "json", "--fail-level", "none", "--", name).stdout)
        assert report["diagnostics"] == [] and report["stats"]["tables"] == 1, name


def test_a_linked_repository_directory_named_on_the_command_line_is_refused(repo: Path) -> None:
    (repo / "vendor").symlink_to(repo.parent / "outside")
    check_everywhere(repo, ["vendor"], ["vendor: symbolic link to a directory outside the repository"])


def test_changed_only_does_not_read_links_out_of_the_migration_directory(repo: Path) -> None:
    """pre-commit names one changed migration; its directory is read for context, links out of
    the repository in it are not."""
    (repo / "db" / "V0__leak.sql").symlink_to(repo.parent / "outside" / "secret.sql")
    (repo / "db" / "V2__new.sql").write_text(TABLE.replace("kept", "fresh"))
    check_everywhere(repo, ["db/V2__new.sql"], ["V0__leak.sql: outside the repository"], "--changed-only")


def test_a_fifo_beside_a_changed_migration_is_not_waited_on(repo: Path) -> None:
    os.mkfifo(repo / "db" / "V0__pipe.sql")
    (repo / "db" / "V2__new.sql").write_text(TABLE.replace("kept", "fresh"))
    done = run(repo, "check", "--format", "json", "--changed-only", "--", "db/V2__new.sql", timeout=30)
    messages = [d["message"] for d in json.loads(done.stdout)["diagnostics"]]
    assert done.returncode == 2 and any("V0__pipe.sql: not a regular file (is a named pipe (FIFO))" in m for m in messages)


# --- files named by configuration ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("stats", "reason"),
    [
        ("/dev/zero", "/dev/zero: the stats file must lie inside"),
        ("../outside/stats.json", "the stats file must lie inside"),
        ("link.json", "link.json: the stats file must lie inside"),
        ("fifo.json", "fifo.json: is a named pipe (FIFO), expected a stats JSON file"),
        ("db", "db: is a directory, expected a stats JSON file"),
        ("big.json", "big.json: the stats file is 134,217,729 bytes, more than the 128 MiB innolint reads"),
    ],
)
def test_a_stats_file_from_the_configuration_must_be_a_small_regular_file_in_the_repository(
        repo: Path, stats: str, reason: str) -> None:
    (repo / "link.json").symlink_to(repo.parent / "outside" / "stats.json")
    os.mkfifo(repo / "fifo.json")
    with open(repo / "big.json", "wb") as big:
        big.truncate((128 << 20) + 1)  # sparse: no disk used
    (repo / ".innolint.toml").write_text(f"stats = {json.dumps(stats)}\n")
    done = run_here(repo, "check", "db")  # the FIFO is refused before it is opened (else: a hang)
    assert done.returncode == 2, done.stdout + done.stderr
    assert reason in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("option", ["--stats", "--baseline", "--config"])
@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "directory"])
def test_files_named_by_options_must_be_regular(repo: Path, option: str, target: str) -> None:
    os.mkfifo(repo / "fifo")
    (repo / "directory").mkdir()
    done = run_here(repo, "check", option, target, "db")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    kind = {"/dev/zero": "is a device", "fifo": "is a named pipe (FIFO)", "directory": "is a directory"}[target]
    assert f"{target}: {kind}" in done.stderr


def test_an_unreadable_baseline_is_a_usage_error_not_a_traceback(repo: Path) -> None:
    (repo / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    done = run_here(repo, "check", "--baseline", "binary.json", "db")
    assert done.returncode == 2 and "binary.json: not an innolint baseline: not UTF-8 text" in done.stderr


def test_the_github_report_must_be_a_regular_file(repo: Path) -> None:
    done = run(repo, "github", "--no-summary", "--annotations", "none", "--", "/dev/zero", timeout=30)
    assert done.returncode == 2 and "/dev/zero: is a device, expected a JSON report" in done.stderr


def test_a_configuration_file_linked_out_of_the_repository_is_refused(repo: Path) -> None:
    (repo.parent / "outside" / "cfg.toml").write_text('target = "mysql-5.7"\n')
    (repo / ".innolint.toml").symlink_to(repo.parent / "outside" / "cfg.toml")
    done = run_here(repo, "check", "db")
    assert done.returncode == 2 and "symbolic link to a file outside the repository" in done.stderr
    (repo / ".innolint.toml").unlink()
    (repo / ".innolint.toml").symlink_to("/dev/zero")
    done = run(repo, "check", "db", timeout=30)
    assert done.returncode == 2 and "Traceback" not in done.stderr


@pytest.mark.parametrize("path", ["../outside", "/", "../../../../../.."])
def test_a_migration_directory_outside_the_repository_is_a_configuration_error(repo: Path, path: str) -> None:
    (repo / ".innolint.toml").write_text(f"[[migrations]]\npath = {json.dumps(path)}\n")
    done = run_here(repo, "check", "--changed-only", "--", "db/V1__kept.sql")
    assert done.returncode == 2 and "migrations[0].path" in done.stderr and "lies outside the repository" in done.stderr


@pytest.mark.parametrize(("setting", "reason"), [('stats = "a\\u0000b"', "invalid file name (a NUL character)"),
                                                 ('[[migrations]]\npath = "a\\u0000b"', "invalid (a NUL character)")])
def test_a_nul_in_a_configured_path_is_a_configuration_error(repo: Path, setting: str, reason: str) -> None:
    (repo / ".innolint.toml").write_text(setting + "\n")
    done = run_here(repo, "check", "--changed-only", "--", "db/V1__kept.sql")
    assert done.returncode == 2 and reason in done.stderr


# --- what the readers open beside the linted files (issue 37) ---------------------------------------

_ORDERS = "CREATE TABLE orders (id CHAR(36) NOT NULL PRIMARY KEY, total INT) ENGINE=InnoDB;\n"
_CHANGELOG = ('<?xml version="1.0"?>\n<databaseChangeLog xmlns="http://www.liquibase.org/xml/ns/dbchangelog">\n'
              "{body}</databaseChangeLog>\n")


def _place(link: Path, target: Path, text: str, how: str) -> None:
    """`text` at `target` outside, and `link` inside: a link to it, or (the control) a copy."""
    target.write_text(text)
    link.parent.mkdir(parents=True, exist_ok=True)
    if how == "link":
        link.symlink_to(target)
    else:
        link.write_text(text)


def _prisma_lock(repo: Path, how: str) -> None:
    migration = repo / "prisma" / "migrations" / "20240101000000_init" / "migration.sql"
    migration.parent.mkdir(parents=True)
    migration.write_text(_ORDERS)
    _place(repo / "prisma" / "migrations" / "migration_lock.toml", repo.parent / "outside" / "lock.toml",
           f'provider = "{SECRET}"\n', how)


def _atlas_sum(repo: Path, how: str) -> None:
    (repo / "atlas").mkdir()
    (repo / "atlas" / "20240101000000_init.sql").write_text(_ORDERS)
    _place(repo / "atlas" / "atlas.sum", repo.parent / "outside" / "atlas.sum",
           f"h1:{SECRET}=\n20240101000000_init.sql h1:{SECRET}=\n", how)


def _liquibase_include(repo: Path, how: str) -> None:
    (repo / "lb" / "sql").mkdir(parents=True)
    (repo / "lb" / "sql" / "001.sql").write_text("--liquibase formatted sql\n--changeset a:1\n" + _ORDERS)
    (repo / "lb" / "master.xml").write_text(_CHANGELOG.format(
        body='  <include file="part.xml" relativeToChangelogFile="true"/>\n'
             '  <includeAll path="more/" relativeToChangelogFile="true"/>\n'
             '  <include file="sql/001.sql" relativeToChangelogFile="true"/>\n'))
    secret = _CHANGELOG.format(body=f'  <changeSet id="1" author="a"><sql>CREATE TABLE {SECRET} (a INT);</sql></changeSet>\n')
    _place(repo / "lb" / "part.xml", repo.parent / "outside" / "part.xml", secret, how)
    _place(repo / "lb" / "more" / "002.xml", repo.parent / "outside" / "more.xml", secret, how)


def _prisma_schema(repo: Path, how: str) -> None:
    migration = repo / "prisma" / "migrations" / "20240101000000_init" / "migration.sql"
    migration.parent.mkdir(parents=True)
    migration.write_text(_ORDERS)
    _place(repo / "prisma" / "schema.prisma", repo.parent / "outside" / "schema.prisma",
           f'model {SECRET} {{\n  id String @id @default(uuid()) @db.Char(36)\n  total Int\n  @@map("orders")\n}}\n', how)


def _laravel_model(repo: Path, how: str) -> None:
    (repo / "database" / "migrations").mkdir(parents=True)
    (repo / "database" / "migrations" / "2024_01_01_000000_create_orders_table.sql").write_text(_ORDERS)
    _place(repo / "app" / "Models" / "Order.php", repo.parent / "outside" / "Order.php",
           f"<?php\nnamespace App\\Models;\nuse Illuminate\\Database\\Eloquent\\Model;\n"
           f"class {SECRET} extends Model\n{{\n    protected $table = 'orders';\n    public function newUniqueId(): string\n"
           "    {\n        return (string) Str::uuid();\n    }\n}\n", how)


#: each reader, the directory to lint, what a run says in place of the linked file, and what it
#: says when the same file is copied into the tree (it read it)
READERS = {
    "prisma lock file": (_prisma_lock, "prisma", "migration_lock.toml: symbolic link to a file outside the tree", SECRET),
    "atlas.sum": (_atlas_sum, "atlas", "atlas.sum: symbolic link to a file outside the tree", "Atlas refuses the directory"),
    "liquibase include": (_liquibase_include, "lb", "is outside the tree innolint lints: not read", SECRET),
    "prisma schema": (_prisma_schema, "prisma", None, SECRET),
    "laravel model": (_laravel_model, "database", None, SECRET),
}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_no_reader_opens_a_link_out_of_the_tree(repo: Path, reader: str) -> None:
    """A lock file, atlas.sum, a changelog, a schema or model file linked to a file elsewhere is not
    read: its text shows in no output, a note says so where the reader would have used it, and the
    history is still linted (as MySQL's, with the DDL's evidence). The control: the same file
    copied into the tree is read, and its text shows."""
    make, directory, note, read = READERS[reader]
    make(repo, "link")
    for fmt in FORMATS:
        done = run_here(repo, "check", "--format", fmt, "--fail-level", "none", directory)
        assert SECRET not in done.stdout + done.stderr, f"{fmt}: the linked file was read:\n{done.stdout}"
        assert "Traceback" not in done.stderr
    report = json.loads(run_here(repo, "check", "--format", "json", "--fail-level", "none", directory).stdout)
    assert report["stats"]["tables"] >= 1, report
    if note is not None:
        assert any(note in d["message"] for d in report["diagnostics"]), report["diagnostics"]
    copy = repo.parent / "copy" / "repo"
    copy.mkdir(parents=True)
    (copy.parent / "outside").mkdir()
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    make(copy, "copy")
    control = run_here(copy, "check", "--format", "json", "--fail-level", "none", directory)
    assert read in control.stdout, f"the control did not read the file:\n{control.stdout}"
