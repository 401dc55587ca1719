"""Migration directories: format detection, ordering, units, replay in order, changed-files mode
and the legacy downgrade. Real directories from ../shared/corpus (read in place, never copied)
and hand-written ones for the rest."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from linter.input.git_changes import ChangeSet, downgrade, parse_diff
from linter.input.migrations.files import classify
from linter.input.migrations.history import order, plan
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
#: the subprocesses import this checkout whatever their working directory
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
needs_corpus = pytest.mark.needs_shared("corpus")

NO_PK = "CREATE TABLE {name} (a INT NOT NULL, b TEXT) ENGINE=InnoDB;\n"
WITH_PK = "CREATE TABLE {name} (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, b TEXT) ENGINE=InnoDB;\n"


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def names(paths: list[str]) -> list[str]:
    return [os.path.relpath(p, os.path.commonpath(paths)) if len(paths) > 1 else os.path.basename(p) for p in paths]


def lint(*paths: str | Path, **cli: str) -> dict:
    """Run `innolint check --format json` and return the parsed report (exit code under "_exit")."""
    cwd = cli.pop("cwd", str(ROOT))
    args = ["check", "--format", "json", "--fail-level", "none"]
    for flag, value in cli.items():
        args += [f"--{flag.replace('_', '-')}", value] if value != "" else [f"--{flag.replace('_', '-')}"]
    done = run_cli([*args, *map(str, paths)], cwd=cwd, env=ENV)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    report["_exit"] = done.returncode
    return report


# --- file names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "family", "ignored"),
    [
        ("V1__init.sql", "flyway", None),
        ("V1_2__more.sql", "flyway", None),
        ("V1.2__more.sql", "flyway", None),
        ("R__views.sql", "flyway", None),
        ("U2__undo.sql", "flyway", "undo migration"),
        ("V0001.Initial_Schema.up.sql", "authelia", None),
        ("V0001.Initial_Schema.down.sql", "authelia", "down migration"),
        ("0001_create.up.sql", "golang-migrate", None),
        ("0001_create.down.sql", "golang-migrate", "down migration"),
        ("20150100000001000000_identities.mysql.up.sql", "golang-migrate", None),
        ("20150100000001000000_identities.postgres.up.sql", "golang-migrate", "postgres migration"),
        ("20170506082420_create_table.sql", "numbered", None),
        ("2014_10_12_000000_create_users_table.sql", "numbered", None),
        ("001-create-schema.sql", "numbered", None),
        ("2018-01-14-171611_create_tables/up.sql", "diesel", None),
        ("2018-01-14-171611_create_tables/down.sql", "diesel", "down migration"),
        ("schema.sql", None, None),
        ("apolloconfigdb.sql", None, None),
        ("up.sql", None, None),
    ],
)
def test_classify(name: str, family: str | None, ignored: str | None) -> None:
    entry = classify(name)
    assert (entry.family if entry else None) == family
    assert (entry.ignored if entry else None) == ignored


def test_flyway_versions_compare_numerically_repeatables_last_undo_ignored(tmp_path: Path) -> None:
    files = [str(write(tmp_path / n)) for n in
             ("V10__ten.sql", "R__a_view.sql", "V2__two.sql", "V1_1__one_one.sql", "V1__one.sql", "U2__undo_two.sql",
              "V1.10__one_ten.sql", "V1.9__one_nine.sql")]
    history, others = order(str(tmp_path), files)
    assert history is not None and others == []
    assert history.format == "flyway"
    assert [os.path.basename(p) for p in history.files] == [
        "V1__one.sql", "V1_1__one_one.sql", "V1.9__one_nine.sql", "V1.10__one_ten.sql", "V2__two.sql",
        "V10__ten.sql", "R__a_view.sql",
    ]
    assert [os.path.basename(p) for p, _ in history.ignored] == ["U2__undo_two.sql"]


def test_golang_migrate_numeric_order_and_down_ignored(tmp_path: Path) -> None:
    files = [str(write(tmp_path / n)) for n in ("10_c.up.sql", "2_b.up.sql", "2_b.down.sql", "1_a.up.sql")]
    history, _ = order(str(tmp_path), files)
    assert history is not None and history.format == "golang-migrate"
    assert [os.path.basename(p) for p in history.files] == ["1_a.up.sql", "2_b.up.sql", "10_c.up.sql"]


def test_kratos_keeps_only_mysql_files(tmp_path: Path) -> None:
    files = [str(write(tmp_path / n)) for n in (
        "20200519101057_identities.mysql.up.sql", "20200519101057_identities.postgres.up.sql",
        "20200519101057_identities.sqlite3.up.sql", "20200519101058_more.up.sql")]
    history, _ = order(str(tmp_path), files)
    assert history is not None
    assert [os.path.basename(p) for p in history.files] == ["20200519101057_identities.mysql.up.sql", "20200519101058_more.up.sql"]


def test_goose_and_dbmate_are_told_apart_by_their_markers(tmp_path: Path) -> None:
    goose = tmp_path / "goose"
    files = [str(write(goose / "00002_b.sql", "-- +goose Up\nSELECT 1;\n")), str(write(goose / "00001_a.sql", "-- +goose Up\n"))]
    history, _ = order(str(goose), files)
    assert history is not None and history.format == "goose"
    assert [os.path.basename(p) for p in history.files] == ["00001_a.sql", "00002_b.sql"]
    dbmate = tmp_path / "dbmate"
    history, _ = order(str(dbmate), [str(write(dbmate / "20151129054053_x.sql", "-- migrate:up\n"))])
    assert history is not None and history.format == "dbmate"
    laravel = tmp_path / "laravel"
    files = [str(write(laravel / n, "CREATE TABLE t (id INT);\n")) for n in
             ("2014_10_12_100000_b.sql", "2014_10_12_000000_a.sql", "2019_08_19_000000_c.sql")]
    history, _ = order(str(laravel), files)
    assert history is not None and history.format == "timestamp"
    assert [os.path.basename(p) for p in history.files] == ["2014_10_12_000000_a.sql", "2014_10_12_100000_b.sql", "2019_08_19_000000_c.sql"]


def test_configured_lexical_takes_every_file_but_down_files(tmp_path: Path) -> None:
    files = [str(write(tmp_path / n)) for n in ("b.sql", "a.sql", "sub/c.sql", "x.down.sql")]
    history, others = order(str(tmp_path), files, "lexical")
    assert history is not None and others == []
    assert [os.path.relpath(p, tmp_path) for p in history.files] == ["a.sql", "b.sql", os.path.join("sub", "c.sql")]


def test_a_directory_of_unrelated_files_stays_one_unit_per_file(tmp_path: Path) -> None:
    files = [str(write(tmp_path / n)) for n in ("users.sql", "orders.sql")]
    groups = plan(files)
    assert [g.files for g in groups] == [[files[0]], [files[1]]]
    assert all(g.history is None for g in groups)


def test_files_that_do_not_follow_the_directory_format_stay_separate(tmp_path: Path) -> None:
    files = [str(write(tmp_path / n)) for n in ("V2__b.sql", "seed.sql", "V1__a.sql")]
    groups = plan(files)
    assert [names(g.files) for g in groups] == [["V1__a.sql", "V2__b.sql"], ["seed.sql"]]
    assert groups[0].history is not None and groups[1].history is None


def test_detection_can_be_turned_off_and_directories_configured() -> None:
    files = ["/x/db/V1__a.sql", "/x/db/V2__b.sql", "/x/other/a.sql", "/x/other/b.sql"]
    assert all(g.history is None for g in plan(files, detect=lambda p: False))
    groups = plan(files, configured=lambda p: ("/x/other", "lexical") if "/other/" in p else None)
    assert [len(g.files) for g in groups] == [2, 2]
    assert groups[1].history is not None and groups[1].history.format == "lexical"


@needs_corpus
def test_corpus_directories_become_histories_only_where_names_say_so() -> None:
    files = sorted(str(p) for p in CORPUS.rglob("*.sql"))
    groups = plan(files)
    histories = {os.path.basename(g.history.root): g for g in groups if g.history is not None and len(g.files) > 1}
    assert set(histories) == {"vaultwarden", "authelia"}
    assert histories["vaultwarden"].history.format == "diesel"  # type: ignore[union-attr]
    assert [os.path.basename(os.path.dirname(p)) for p in histories["vaultwarden"].files] == [
        "2018-01-14-171611_create_tables", "2018-02-17-205753_create_collections_and_orgs",
        "2018-05-08-161616_create_collection_cipher_map", "2020-08-02-025025_add_favorites_table",
        "2021-08-30-193501_create_emergency_access",
    ]
    assert [os.path.basename(p) for p in histories["authelia"].files] == [
        "V0001.Initial_Schema.up.sql", "V0004.OpenIDConnect.up.sql"]
    singles = {os.path.relpath(g.files[0], CORPUS) for g in groups if g.history is None}
    for unrelated in ("kamailio/icscf.sql", "kamailio/presence-create.sql", "apollo/apolloportaldb.sql",
                      "apollo/apolloconfigdb.sql", "activiti/activiti.mysql.create.engine.sql"):
        assert unrelated in singles
    golang = [g for g in groups if g.history is not None and os.path.basename(g.history.root) == "golang-migrate"]
    assert golang and golang[0].history.format == "golang-migrate"  # type: ignore[union-attr]
    # every file is linted exactly once
    assert sorted(p for g in groups for p in g.files) == files


# --- replay in order: findings where they were introduced -------------------------------------------


def test_key_added_later_gives_no_finding_and_order_is_numeric(tmp_path: Path) -> None:
    db = tmp_path / "db"
    write(db / "V3__create.sql", NO_PK.format(name="events"))
    write(db / "V10__key.sql", "ALTER TABLE events ADD COLUMN id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST;\n")
    # lexical order would run V10 before V3: the ALTER would come first and fail
    report = lint(db)
    # (adding the key rebuilds the table V3 made: blocking-alter's, not a key missing)
    assert [f["rule"] for f in report["findings"]] == ["blocking-alter"]
    assert not [d for d in report["diagnostics"] if d["rule"] == "replay-error"]


def test_key_dropped_later_is_reported_at_that_migration(tmp_path: Path) -> None:
    db = tmp_path / "db"
    write(db / "0001_create.up.sql", WITH_PK.format(name="events"))
    write(db / "0001_create.down.sql", "DROP TABLE events;\n")
    write(db / "0002_other.up.sql", "-- nothing about events\nCREATE TABLE other (id INT PRIMARY KEY);\n")
    write(db / "0009_drop_key.up.sql", "\n\nALTER TABLE events MODIFY id BIGINT NOT NULL, DROP PRIMARY KEY;\n")
    report = lint(db)
    [finding] = [f for f in report["findings"] if f["rule"] != "blocking-alter"]  # (the DROP copies the table too)
    assert finding["rule"] == "no-primary-key"
    assert finding["path"].endswith("0009_drop_key.up.sql") and finding["line"] == 3


def test_goose_down_sections_are_not_applied(tmp_path: Path) -> None:
    db = tmp_path / "db"
    write(db / "00001_create.sql", "-- +goose Up\n" + WITH_PK.format(name="events")
          + "-- +goose Down\nALTER TABLE events DROP PRIMARY KEY;\n")
    write(db / "00002_more.sql", "-- +goose Up\n-- +goose StatementBegin\n" + NO_PK.format(name="logs")
          + "-- +goose StatementEnd\n-- +goose Down\nDROP TABLE logs;\n")
    report = lint(db)
    assert [(f["table"], os.path.basename(f["path"]), f["line"]) for f in report["findings"]] == [("logs", "00002_more.sql", 3)]


def test_dbmate_down_sections_are_not_applied(tmp_path: Path) -> None:
    db = tmp_path / "db"
    write(db / "20200101000000_a.sql", "-- migrate:up\n" + WITH_PK.format(name="a")
          + "\n-- migrate:down\nALTER TABLE a DROP PRIMARY KEY;\n")
    assert lint(db)["findings"] == []


def test_diesel_down_sql_is_ignored(tmp_path: Path) -> None:
    db = tmp_path / "migrations"
    write(db / "2018-01-14-171611_create" / "up.sql", WITH_PK.format(name="a"))
    write(db / "2018-01-14-171611_create" / "down.sql", "ALTER TABLE a DROP PRIMARY KEY;\n")
    write(db / "2019-01-01-000000_more" / "up.sql", "ALTER TABLE a ADD COLUMN c INT;\n")
    report = lint(db)
    assert report["findings"] == [] and report["diagnostics"] == []


@needs_corpus
@pytest.mark.parametrize("directory", ["vaultwarden", "authelia", "golang-migrate"])
def test_real_migration_directories_replay_in_order(directory: str) -> None:
    report = lint(CORPUS / directory)
    assert not [d for d in report["diagnostics"] if d["rule"] in ("replay-error", "parse-error")], report["diagnostics"]
    for finding in report["findings"]:
        assert (CORPUS / directory) in Path(finding["path"]).resolve().parents


@needs_corpus
def test_vaultwarden_tables_from_every_migration_are_in_one_model() -> None:
    report = lint(CORPUS / "vaultwarden")
    # every vaultwarden table has a primary key; a later migration's reference to an earlier
    # table must not be a replay error (it would be if each file were its own unit)
    assert [f for f in report["findings"] if f["rule"] == "no-primary-key"] == []
    assert report["diagnostics"] == []
    assert report["stats"]["files"] == 5


@needs_corpus
def test_golang_migrate_example_has_a_table_without_key() -> None:
    [finding] = lint(CORPUS / "golang-migrate")["findings"]
    assert (finding["rule"], finding["table"], finding["line"]) == ("no-primary-key", "test", 1)


# --- changed-files mode -------------------------------------------------------------------------


def make_history(db: Path) -> None:
    write(db / "V1__legacy.sql", NO_PK.format(name="legacy") + WITH_PK.format(name="kept"))
    write(db / "V2__more.sql", NO_PK.format(name="old_log"))


def test_changed_only_replays_the_directory_but_reports_only_the_changed_file(tmp_path: Path) -> None:
    db = tmp_path / "db"
    make_history(db)
    changed = write(db / "V3__new.sql", "ALTER TABLE kept ADD COLUMN note TEXT;\n" + NO_PK.format(name="fresh"))
    report = lint(changed, changed_only="")
    # the ALTER of a table from V1 replays (no replay error), and only V3's finding is reported
    assert report["diagnostics"] == []
    assert [(f["table"], f["severity"]) for f in report["findings"]] == [("fresh", "warning")]
    assert report["stats"]["files"] == 3


def test_changed_only_on_a_plain_file(tmp_path: Path) -> None:
    plain = write(tmp_path / "schema.sql", NO_PK.format(name="a"))
    write(tmp_path / "other.sql", NO_PK.format(name="b"))
    report = lint(plain, changed_only="")
    assert [f["table"] for f in report["findings"]] == ["a"]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@x", "GIT_CONFIG_GLOBAL": os.devnull})


def test_since_takes_changed_files_and_lines_from_git_and_downgrades_legacy_tables(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    db = repo / "db"
    make_history(db)
    schema = write(repo / "schema.sql", NO_PK.format(name="one") + "\n" + NO_PK.format(name="two"))
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "tag", "base")
    write(db / "V3__new.sql", NO_PK.format(name="fresh"))
    # edit only table `two` in the schema file
    schema.write_text(NO_PK.format(name="one") + "\n" + NO_PK.format(name="two").replace("b TEXT", "b TEXT, c INT"))
    report = lint(".", since="base", cwd=str(repo))
    found = {(os.path.basename(f["path"]), f["table"], f["severity"]) for f in report["findings"]}
    assert found == {
        ("V3__new.sql", "fresh", "warning"),  # new table: keeps its severity
        ("schema.sql", "two", "warning"),  # edited in the change: keeps it
        ("schema.sql", "one", "info"),  # untouched legacy table in a changed file: one level down
    }


def test_legacy_downgrade_can_be_turned_off(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    schema = write(repo / "schema.sql", NO_PK.format(name="one") + "\n" + NO_PK.format(name="two"))
    write(repo / ".innolint.toml", "legacy_downgrade = false\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    schema.write_text(NO_PK.format(name="one") + "\n" + NO_PK.format(name="two").replace("b TEXT", "b TEXT, c INT"))
    report = lint(".", since="HEAD", cwd=str(repo))
    assert {(f["table"], f["severity"]) for f in report["findings"]} == {("one", "warning"), ("two", "warning")}


def test_a_legacy_table_altered_by_the_change_keeps_its_severity(tmp_path: Path) -> None:
    db = tmp_path / "db"
    # (not AUTO_INCREMENT: the server refuses to drop the only key of an AUTO_INCREMENT column, 1075)
    write(db / "V1__legacy.sql", "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, b TEXT) ENGINE=InnoDB;\n")
    changed = write(db / "V2__drop.sql", "ALTER TABLE t DROP PRIMARY KEY;\n")
    report = lint(changed, changed_only="")
    assert [(f["table"], f["severity"], os.path.basename(f["path"])) for f in report["findings"]
            if f["rule"] == "no-primary-key"] == [("t", "warning", "V2__drop.sql")]


def test_parse_diff_spans() -> None:
    diff = (
        "diff --git a/db/x.sql b/db/x.sql\n--- a/db/x.sql\n+++ b/db/x.sql\n"
        "@@ -3,0 +4,2 @@ x\n+a\n+b\n@@ -10 +12 @@\n-old\n+new\n@@ -20,3 +22,0 @@\n-gone\n"
    )
    spans = parse_diff(diff, "/repo")
    assert spans == {os.path.normcase(os.path.abspath("/repo/db/x.sql")): [(4, 5), (12, 12), (23, 22)]}
    changes = ChangeSet(spans)
    path = "/repo/db/x.sql"
    assert changes.statement_changed(path, 5, 8)
    assert not changes.statement_changed(path, 6, 11)
    assert changes.statement_changed(path, 20, 25)  # lines deleted between 22 and 23
    assert not changes.statement_changed(path, 23, 30)
    assert not changes.statement_changed("/repo/other.sql", 1, 100)


def test_since_with_an_unknown_ref_is_a_usage_error(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo / "a.sql", WITH_PK.format(name="a"))
    git(repo, "init", "-q")
    done = run_cli(["check", "--since", "no-such-ref", str(repo)], cwd=repo, env=ENV)
    assert done.returncode == 2 and "no-such-ref" in done.stderr and "Traceback" not in done.stderr


def test_downgrade() -> None:
    assert [downgrade(s) for s in ("error", "warning", "info")] == ["warning", "info", "info"]
