"""Atlas: a directory with atlas.sum is one history, its `*.sql` files in name order; atlas.sum
is checked as Atlas computes it (every edit of the history is reported where it is), checkpoints
start a new database, and `-- atlas:delimiter` splits a file. Histories are generated the way
`atlas migrate diff` writes them for MySQL (tests/histories.py)."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from linter.input.migrations.formats import atlas
from linter.rules.checkapi import CheckContext
from linter.engine import RunOptions, lint_paths
from linter.rules.findings import Report
from linter.input.git_changes import ChangeSet
from linter.input.migrations.history import detect, order
from linter.input.migrations.writing import new_migration
from linter.input.source import read_statements
from linter.schema.target import Target
from tests import histories as H
from tests.complexity import assert_linear

SEEDS = range(8)
PROBLEMS = ("parse-error", "replay-error", "io-error")

#: the tests' trees are all inside: the access check is tested in tests/test_containment.py
ANYWHERE = lambda path: True  # noqa: E731


def lint(*paths: Path, changed: list[Path] | None = None) -> Report:
    options = RunOptions(changes=ChangeSet.from_files(str(p) for p in changed)) if changed else None
    return lint_paths([str(p) for p in paths], CheckContext(target=Target.parse("mysql-8.0")), options=options)


def problems(report: Report) -> list[str]:
    return [f"{d.path}:{d.line}: {d.rule}: {d.message}" for d in report.diagnostics if d.rule in PROBLEMS]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_generated_atlas_history_replays_in_name_order_without_errors(tmp_path: Path, seed: int) -> None:
    evolution = H.evolve(seed)
    directory = tmp_path / "migrations"
    paths = H.write_atlas(directory, evolution, seed, named=seed % 2 == 0)
    assert atlas.verify(str(directory), [str(p) for p in paths], ANYWHERE) == []
    report = lint(tmp_path)
    assert problems(report) == [], problems(report)
    history, _ = order(str(directory), [str(p) for p in paths])
    assert history is not None and history.format == "atlas"
    assert history.files == [str(p) for p in paths]


@pytest.mark.mariadb
def test_the_replayed_atlas_history_is_what_mariadb_holds(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from linter.engine import Engine, units_for
    from tests import differential as D

    server = D.ServerRunner(mariadb, jobs=1, prefix="atlas")
    try:
        for seed in SEEDS:
            evolution = H.evolve(seed)
            paths = H.write_atlas(tmp_path / f"s{seed}", evolution, seed)
            (unit,) = units_for([str(p) for p in paths])
            result = Engine(D.innolint_context(), checks=[]).lint_unit(unit)
            assert [d.message for d in result.diagnostics if d.rule in PROBLEMS] == []
            # the server runs the very files, as `atlas migrate apply` does
            script = "".join(p.read_text() for p in paths)
            (loaded,) = server.load([lambda main, other, text=script: text])
            assert loaded.errors == []
            differences = D.compare(loaded.view, D.model_view(result.model, "main", "other"))
            assert differences == [], f"seed {seed}: " + "; ".join(map(str, differences))
    finally:
        server.close()


# --- atlas.sum ------------------------------------------------------------------------------------


def test_the_sum_is_atlas_chain_of_names_and_contents() -> None:
    files = [("1_a.sql", b"CREATE TABLE a (id int);\n"), ("2_b.sql", b"CREATE TABLE b (id int);\n")]
    state = hashlib.sha256()
    expected = []
    for name, content in files:
        state.update(name.encode())
        state.update(content)
        expected.append((name, base64.b64encode(state.copy().digest()).decode()))
    total = hashlib.sha256()
    for name, value in expected:
        total.update(name.encode())
        total.update(value.encode())
    text = atlas.sum_text(files)
    assert text.splitlines() == [f"h1:{base64.b64encode(total.digest()).decode()}",
                                 *(f"{n} h1:{v}" for n, v in expected)]
    # a file whose first line says `atlas:sum ignore` adds its name to the chain, not its content
    ignored = [files[0], ("1_b.sql", b"-- atlas:sum ignore\nSELECT 1;\n"), files[1]]
    names = [line.split(" ")[0] for line in atlas.sum_text(ignored).splitlines()[1:]]
    assert names == ["1_a.sql", "2_b.sql"]
    assert atlas.sum_text(ignored) != text  # the ignored file's name is in the chain


def _history(tmp_path: Path, seed: int = 3) -> tuple[Path, list[Path]]:
    directory = tmp_path / "migrations"
    return directory, H.write_atlas(directory, H.evolve(seed), seed)


def test_an_edited_migration_is_reported_at_that_file(tmp_path: Path) -> None:
    directory, paths = _history(tmp_path)
    paths[1].write_text(paths[1].read_text() + "-- a late edit\n")
    notes = atlas.verify(str(directory), [str(p) for p in paths], ANYWHERE)
    assert [(Path(n.path).name, n.line) for n in notes] == [(paths[1].name, 1)]
    assert "changed after atlas.sum was written" in notes[0].message
    report = lint(tmp_path)
    assert [d.path for d in report.diagnostics if "atlas.sum" in d.message] == [str(paths[1])]


def test_a_migration_added_without_rehashing_is_reported_at_it(tmp_path: Path) -> None:
    directory, paths = _history(tmp_path)
    extra = directory / "20991231000000_late.sql"
    extra.write_text("ALTER TABLE `nowhere` ADD COLUMN x INT;\n")
    notes = atlas.verify(str(directory), [str(p) for p in [*paths, extra]], ANYWHERE)
    assert [(Path(n.path).name, "not in atlas.sum" in n.message) for n in notes] == [(extra.name, True)]


def test_a_removed_migration_is_reported_at_its_atlas_sum_line(tmp_path: Path) -> None:
    directory, paths = _history(tmp_path)
    paths[2].unlink()
    notes = atlas.verify(str(directory), [str(p) for p in paths if p.exists()], ANYWHERE)
    assert [(Path(n.path).name, n.line) for n in notes] == [("atlas.sum", 4)]
    assert paths[2].name in notes[0].message


def test_a_hand_edited_sum_is_reported(tmp_path: Path) -> None:
    directory, paths = _history(tmp_path)
    lines = (directory / "atlas.sum").read_text().splitlines()
    (directory / "atlas.sum").write_text("\n".join(["h1:AAAA" + lines[0][7:], *lines[1:]]) + "\n")
    notes = atlas.verify(str(directory), [str(p) for p in paths], ANYWHERE)
    assert [(n.line, "edited by hand" in n.message) for n in notes] == [(1, True)]
    (directory / "atlas.sum").write_text("not a sum\n")
    assert "not in Atlas's format" in atlas.verify(str(directory), [str(p) for p in paths], ANYWHERE)[0].message


def test_a_changed_old_migration_is_reported_in_changed_files_mode(tmp_path: Path) -> None:
    directory, paths = _history(tmp_path)
    paths[0].write_text(paths[0].read_text().replace("NOT NULL", "NULL", 1))
    report = lint(paths[0], changed=[paths[0]])
    assert any("changed after atlas.sum" in d.message and d.path == str(paths[0]) for d in report.diagnostics)


# --- checkpoints and the delimiter directive ---------------------------------------------------------


def test_a_new_database_starts_at_the_last_checkpoint(tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    directory.mkdir()
    (directory / "20240101000000_a.sql").write_text("CREATE TABLE a (id INT PRIMARY KEY);\n")
    (directory / "20240102000000_b.sql").write_text("ALTER TABLE a ADD COLUMN b INT;\n")
    (directory / "20240103000000_checkpoint.sql").write_text(
        "-- atlas:checkpoint v2\n\n-- Create \"a\" table\nCREATE TABLE a (id INT PRIMARY KEY, b INT);\n")
    (directory / "20240104000000_c.sql").write_text("ALTER TABLE a ADD COLUMN c INT;\n")
    names = sorted(p.name for p in directory.iterdir())
    (directory / "atlas.sum").write_text(atlas.sum_text([(n, (directory / n).read_bytes()) for n in names]))
    history, _ = order(str(directory), [str(directory / n) for n in names])
    assert history is not None
    assert [Path(p).name for p in history.files] == ["20240103000000_checkpoint.sql", "20240104000000_c.sql"]
    assert [Path(p).name for p, _ in history.ignored] == ["20240101000000_a.sql", "20240102000000_b.sql"]
    assert problems(lint(tmp_path)) == []  # the checkpoint's CREATE TABLE meets no table a


@pytest.mark.parametrize(("directive", "separator"), [("-- end", "\n-- end\n"), ("\\n\\n\\n", "\n\n\n"), ("//", "\n//\n")])
def test_the_delimiter_directive_splits_the_file(tmp_path: Path, directive: str, separator: str) -> None:
    path = tmp_path / "20240101000000_procs.sql"
    body = ["CREATE PROCEDURE dorepeat(p1 INT)\nBEGIN\n  SET @x = 0;\n  REPEAT SET @x = @x + 1; UNTIL @x > p1 END REPEAT;\nEND",
            "CREATE TABLE t (id INT PRIMARY KEY)", "ALTER TABLE t ADD COLUMN n INT"]
    path.write_text(f"-- atlas:delimiter {directive}\n\n" + separator.join(body) + separator)
    statements = list(read_statements(str(path), migration_format="atlas"))
    assert [s.text.split("\n")[0] for s in statements] == [b.split("\n")[0] for b in body]
    assert statements[0].line == 3


def test_a_delimiter_directive_not_on_the_first_line_is_a_comment(tmp_path: Path) -> None:
    path = tmp_path / "1.sql"
    path.write_text("CREATE TABLE t (id INT PRIMARY KEY);\n-- atlas:delimiter //\nALTER TABLE t ADD n INT;\n")
    assert len(list(read_statements(str(path), migration_format="atlas"))) == 2


# --- a new migration ------------------------------------------------------------------------------------


@pytest.mark.parametrize("named", [True, False])
def test_a_new_migration_sorts_last_and_keeps_the_sum_valid(tmp_path: Path, named: bool) -> None:
    directory = tmp_path / "migrations"
    H.write_atlas(directory, H.evolve(1), 1, named=named)
    history = detect(str(directory))
    assert history is not None and history.format == "atlas"
    made = new_migration(history, "add owner index", "CREATE INDEX idx ON t (a);")
    assert made.note is None and made.replaces == ("atlas.sum",)
    for name, text in made.files.items():
        (directory / name).write_text(text)
    again = detect(str(directory))
    assert again is not None and again.notes == []
    assert Path(again.files[-1]).name in made.files and Path(again.files[-1]).name != "atlas.sum"


def test_the_sum_check_is_linear(tmp_path: Path) -> None:
    def verifying(n: int) -> Callable[[], object]:
        directory = tmp_path / f"d{n}"
        directory.mkdir()
        names = [f"{i:06d}_m.sql" for i in range(n)]
        for name in names:
            (directory / name).write_text(f"CREATE TABLE t{name[:6]} (id INT PRIMARY KEY);\n")
        (directory / "atlas.sum").write_text(atlas.sum_text([(n, (directory / n).read_bytes()) for n in names]))
        files = [str(directory / n) for n in names]
        assert atlas.verify(str(directory), files, ANYWHERE) == []
        return lambda: atlas.verify(str(directory), files, ANYWHERE)

    assert_linear(verifying, 40)
