"""Flyway's locations: a location's folders are one history (Flyway scans them recursively), and
a history may span several configured locations (`path = ["db/migration", "db/vendor/mysql"]`),
in a full run, in changed-files mode, against a git ref and for `innolint fix --migration`
(issue 35)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from linter.engine import lint_paths
from linter.input.migrations.files import detected_root
from linter.input.migrations.formats.flyway import location as flyway_location
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x",
       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": os.devnull,
       "GIT_CONFIG_NOSYSTEM": "1"}
NO_KEY = "CREATE TABLE {t} (id INT NOT NULL, v INT) ENGINE=InnoDB;\n"
ADD_KEY = "ALTER TABLE {t} ADD PRIMARY KEY (id);\n"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def findings(*paths: Path) -> list[tuple[str, str]]:
    report = lint_paths([str(p) for p in paths])
    return sorted((f.rule, f.table or "") for f in report.findings if f.rule == "no-primary-key") + sorted(
        (d.rule, os.path.basename(d.path)) for d in report.diagnostics if d.rule in ("replay-error", "parse-error"))


#: layouts of one Flyway location with folders: the key added in a folder's later version
LAYOUTS = {
    "a folder below the location's own files": {
        "db/migration/V1__init.sql": NO_KEY.format(t="t"),
        "db/migration/release2/V5__key.sql": ADD_KEY.format(t="t"),
    },
    "folders only, versions apart": {
        "db/migration/release1/V1__init.sql": NO_KEY.format(t="t"),
        "db/migration/release2/V2__key.sql": ADD_KEY.format(t="t"),
    },
    "two levels down, out of name order": {
        "db/migration/V1__init.sql": NO_KEY.format(t="t"),
        "db/migration/2023/q4/V3__key.sql": ADD_KEY.format(t="t"),
        "db/migration/2023/q1/V2__other.sql": NO_KEY.format(t="other") + ADD_KEY.format(t="other"),
    },
    "a repeatable in a folder runs after every version": {
        "db/migration/V1__init.sql": NO_KEY.format(t="t"),
        "db/migration/views/R__key.sql": ADD_KEY.format(t="t"),
        "db/migration/V9__later.sql": "ALTER TABLE t ADD COLUMN w INT;\n",
    },
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_locations_folders_are_one_history(tmp_path: Path, layout: str) -> None:
    """The key a later version adds in a folder counts for the table V1 created (it was a false
    no-primary-key at V1: the folder was a unit of its own)."""
    (tmp_path / ".git").mkdir()
    write(tmp_path, LAYOUTS[layout])
    assert findings(tmp_path / "db") == []
    first = next(name for name in LAYOUTS[layout] if "V1__" in name)
    assert detected_root(str(tmp_path / first)) == str(tmp_path / "db" / "migration")
    assert {detected_root(str(tmp_path / name)) for name in LAYOUTS[layout]} == {str(tmp_path / "db" / "migration")}


def test_folders_whose_versions_collide_are_separate_histories(tmp_path: Path) -> None:
    """`db/mysql/V1__` and `db/h2/V1__` are two databases' histories (Flyway would refuse them as
    one), and two services' `db/migration` never join."""
    (tmp_path / ".git").mkdir()
    write(tmp_path, {
        "db/mysql/V1__init.sql": NO_KEY.format(t="t") + ADD_KEY.format(t="t"),
        "db/h2/V1__init.sql": NO_KEY.format(t="t"),
        "services/a/db/migration/V1__a.sql": NO_KEY.format(t="a"),
        "services/b/db/migration/V2__b.sql": ADD_KEY.format(t="a"),
    })
    assert flyway_location(str(tmp_path / "db" / "mysql")) == str(tmp_path / "db" / "mysql")
    assert flyway_location(str(tmp_path / "services" / "a" / "db" / "migration")) == \
        str(tmp_path / "services" / "a" / "db" / "migration")
    assert findings(tmp_path / "db", tmp_path / "services") == [
        ("no-primary-key", "a"), ("no-primary-key", "t"), ("replay-error", "V2__b.sql")]


def test_the_climb_stops_at_the_repository(tmp_path: Path) -> None:
    write(tmp_path, {"V1__outside.sql": NO_KEY.format(t="x"), "repo/V2__in.sql": ADD_KEY.format(t="x")})
    (tmp_path / "repo" / ".git").mkdir()
    assert flyway_location(str(tmp_path / "repo")) == str(tmp_path / "repo")


def _locations(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir(exist_ok=True)
    write(tmp_path, {
        ".innolint.toml": '[[migrations]]\npath = ["db/migration", "db/vendor/mysql"]\nformat = "flyway"\n',
        "db/migration/V1__init.sql": NO_KEY.format(t="t"),
        "db/migration/V2__u.sql": NO_KEY.format(t="u"),
        "db/vendor/mysql/V3__keys.sql": ADD_KEY.format(t="t") + ADD_KEY.format(t="u"),
    })
    return tmp_path


def test_configured_locations_are_one_history(tmp_path: Path) -> None:
    root = _locations(tmp_path)
    from linter.config.settings import ConfigResolver
    from linter.engine import RunOptions

    report = lint_paths([str(root / "db")], options=RunOptions(ConfigResolver()))
    # (blocking-alter reports V3's ADD PRIMARY KEY on t, which V1 made: a table that existed before)
    assert [f.rule for f in report.findings if f.rule != "blocking-alter"] == [] and report.diagnostics == []
    # without the configuration: the vendor location is a history of its own
    (root / ".innolint.toml").unlink()
    assert ("no-primary-key", "t") in findings(root / "db")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=ENV)


def _check(root: Path, *args: str) -> dict:
    done = run_cli(["check", "--format", "json", *args], cwd=root, env=ENV)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("mode", ["--changed-only", "--since"])
def test_a_change_in_one_location_is_linted_with_the_others(tmp_path: Path, mode: str) -> None:
    """Deleting the vendor location's key migration makes V1's table keyless again: reported at
    V1, in the first location, which the change did not touch; an edit there that changes no
    statement reports no design finding (no-primary-key is the rule asked: editing an applied
    migration is edited-migration's)."""
    root = tmp_path / "repo"
    root.mkdir()
    _locations(root)
    shutil_rmtree(root / ".git")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    vendor = root / "db" / "vendor" / "mysql" / "V3__keys.sql"
    vendor.write_text(vendor.read_text() + "-- reviewed\n")
    _git(root, "add", "-A")
    args = ["--select", "no-primary-key", *(["--since", "HEAD", "db"] if mode == "--since"
                                            else ["--changed-only", str(vendor.relative_to(root))])]
    assert _check(root, *args)["findings"] == []
    vendor.write_text(ADD_KEY.format(t="u"))  # the key of t is gone
    _git(root, "add", "-A")
    report = _check(root, *args)
    assert [(f["rule"], f["table"], Path(f["path"]).name, f["new"]) for f in report["findings"]] == [
        ("no-primary-key", "t", "V1__init.sql", True)]


def shutil_rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path)


def test_fix_writes_the_next_version_above_every_location_and_folder(tmp_path: Path) -> None:
    """`fix --migration` names the version after the highest of the whole history: a folder's V5
    and another location's V7 count (V3 beside V1 and V2 would run before them, and collide)."""
    (tmp_path / ".git").mkdir()
    write(tmp_path, {
        ".innolint.toml": '[[migrations]]\npath = ["db/migration", "db/vendor/mysql"]\nformat = "flyway"\n',
        "db/migration/V1__init.sql": NO_KEY.format(t="t"),
        "db/migration/V2__u.sql": "CREATE TABLE u (id INT NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n",
        "db/migration/release2/V5__more.sql": "ALTER TABLE u ADD COLUMN w INT;\n",
        "db/vendor/mysql/V7__vendor.sql": "ALTER TABLE u ADD COLUMN z INT;\n",
    })
    done = run_cli(["fix", "--migration", "db/migration"], cwd=tmp_path, env=ENV)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "db" / "migration" / "V8__innolint_fixes.sql").is_file(), sorted(
        p.name for p in (tmp_path / "db" / "migration").iterdir())
    again = _check(tmp_path, "db")
    assert [f["rule"] for f in again["findings"] if f["rule"] == "no-primary-key"] == []


def test_locations_configured_outside_the_repository_are_refused(tmp_path: Path) -> None:
    from linter.config.defaults import ConfigError
    from linter.config.settings import ConfigResolver

    (tmp_path / "repo" / ".git").mkdir(parents=True)
    write(tmp_path / "repo", {".innolint.toml": '[[migrations]]\npath = ["db", "../elsewhere"]\n', "a.sql": ""})
    with pytest.raises(ConfigError, match=r"migrations\[0\]\.path: '\.\./elsewhere' lies outside the repository"):
        ConfigResolver().for_path(str(tmp_path / "repo" / "a.sql"))
    write(tmp_path / "repo", {".innolint.toml": "[[migrations]]\npath = []\n"})
    with pytest.raises(ConfigError, match="name at least one directory"):
        ConfigResolver().for_path(str(tmp_path / "repo" / "a.sql"))


def test_a_location_of_many_folders_is_read_in_linear_time(tmp_path: Path) -> None:
    """Each directory is listed once per run: 10x the folders cost ~10x."""
    from tests.complexity import assert_linear

    def setup(n: int):  # type: ignore[no-untyped-def]
        base = tmp_path / f"n{n}"
        (base / ".git").mkdir(parents=True)
        for i in range(n):
            write(base, {f"db/migration/f{i:05d}/V{i + 1}__m.sql": f"CREATE TABLE t{i} (id INT PRIMARY KEY);\n"})

        def work() -> None:
            from linter.input.migrations.files import forget_listings

            forget_listings()
            roots = {detected_root(str(p)) for p in (base / "db" / "migration").rglob("*.sql")}
            assert roots == {str(base / "db" / "migration")}
        return work

    assert_linear(setup, 40)
