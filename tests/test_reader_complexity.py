"""Every reader a pull request feeds is linear in what it reads (issue 37's hostile review): the
same work at n and at 10n in the same run through tests/complexity.py, the time growing at most
15x. Each of these was super-linear before (the numbers are in the commit messages):

- Liquibase: includes followed along every path (each changelog including the next twice doubled
  the cost per level), includeAll re-walking its directory per entry, the include graph walked once
  per candidate root and again per question;
- `--since`: the history found again for every changed file;
- schema.prisma: a string looked for again from every quote; a field's model looked up by
  scanning every model;
- Laravel models: a comment left open read to the end of the file from every opener;
- configuration globs (`exclude`, `insert_heavy`): each pattern matched against every file or table.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from linter.config.settings import ConfigResolver
from linter.engine import lint_paths
from linter.input.git_changes import ChangeSet
from linter.input.migrations.laravel_models import read_model
from linter.input.migrations.formats.prisma import schema_evidence as _prisma
from linter.input.migrations.orm_evidence import AppEvidence
from linter.input.migrations.formats.prisma import schema as prisma_schema
from linter.rules.checkapi import CheckContext
from linter.schema.model import Table
from tests.complexity import assert_linear

_XML = ('<?xml version="1.0"?>\n<databaseChangeLog xmlns="http://www.liquibase.org/xml/ns/dbchangelog">\n'
        "{body}</databaseChangeLog>\n")
_SQL_CHANGESET = '  <changeSet id="{i}" author="a"><sql>CREATE TABLE t{i} (id INT PRIMARY KEY);</sql></changeSet>\n'


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _lints(directory: Path, tables: int) -> Callable[[], object]:
    def run() -> None:
        report = lint_paths([str(directory)])
        assert report.stats.tables == tables, (report.stats, report.diagnostics[:3])

    return run


# --- Liquibase ------------------------------------------------------------------------------------


def test_a_changelog_included_along_many_paths_is_read_once(tmp_path: Path) -> None:
    """Each of n changelogs includes the next one twice: 2^n paths to the last (19 levels took
    more than 120 s)."""
    def make(n: int) -> Callable[[], object]:
        directory = tmp_path / f"double{n}"
        for i in range(n):
            _write(directory / f"c{i}.xml", _XML.format(
                body=f'  <include file="c{i + 1}.xml" relativeToChangelogFile="true"/>\n' * 2 + _SQL_CHANGESET.format(i=i)))
        _write(directory / f"c{n}.xml", _XML.format(body=_SQL_CHANGESET.format(i=n)))
        return _lints(directory, n + 1)

    assert_linear(make, 5)


def test_include_all_entries_and_roots_are_linear(tmp_path: Path) -> None:
    """n changelogs beside each other, each with n includeAll entries of one directory of n
    changelogs: every candidate root, every entry and every file is read once (K = M = 300 took
    56 s)."""
    def make(n: int) -> Callable[[], object]:
        directory = tmp_path / f"all{n}" / "db"
        entries = '  <includeAll path="changes/" relativeToChangelogFile="true"/>\n' * n
        _write(directory / "master.xml", _XML.format(body=entries))
        for k in range(3):  # other roots beside it, reaching the same files (each a history of its own)
            _write(directory / f"other{k}.xml", _XML.format(body=entries))
        for j in range(n):
            _write(directory / "changes" / f"{j:05d}.xml", _XML.format(body=_SQL_CHANGESET.format(i=j)))
        return _lints(directory, 4 * n)

    assert_linear(make, 20)


def _since_places(tmp_path: Path, kind: str) -> Callable[[int], Callable[[], object]]:
    from linter import since

    def make(n: int) -> Callable[[], object]:
        directory = tmp_path / f"{kind}{n}" / "db"
        paths = []
        if kind == "liquibase":
            _write(directory / "master.xml", _XML.format(
                body='  <includeAll path="changes/" relativeToChangelogFile="true"/>\n'))
            for i in range(n):
                path = directory / "changes" / f"{i:05d}.sql"
                _write(path, f"--liquibase formatted sql\n--changeset a:{i}\nCREATE TABLE t{i} (id INT PRIMARY KEY);\n")
                paths.append(str(path))
        else:
            for i in range(n):
                path = directory / f"V{i + 1}__m.sql"
                _write(path, f"CREATE TABLE t{i} (id INT PRIMARY KEY);\n")
                paths.append(str(path))
        changes = ChangeSet.from_files(paths)

        def run() -> None:
            places, recursive, _ = since._directories(changes, None)
            assert places == [str(directory.resolve())]
            assert recursive == {str(directory.resolve())}  # a changelog's includes, a Flyway location's folders

        return run

    return make


def test_since_finds_each_history_once_for_all_changed_files(tmp_path: Path) -> None:
    """`--since` on a pull request adding n migrations: the history of each changed file was
    found again for each (1,000 Liquibase migrations: > 300 s, against 3.1 s without --since)."""
    assert_linear(_since_places(tmp_path, "liquibase"), 40)
    assert_linear(_since_places(tmp_path, "flyway"), 100)


# --- application models ---------------------------------------------------------------------------


def test_a_prisma_string_left_open_is_read_once() -> None:
    """A datasource value of escaped quotes that never closes (one 80 KB line took 44 s)."""
    def make(n: int) -> Callable[[], object]:
        text = 'datasource db {\n  provider = ' + '"\\' * n + '\n}\nmodel M {\n  id String @id\n}\n'

        def run() -> None:
            schema = prisma_schema.parse(text)
            assert schema.provider is None and [m.name for m in schema.models] == ["M"]

        return run

    assert_linear(make, 2000)


def test_prisma_models_are_looked_up_by_name(tmp_path: Path) -> None:
    """n models, each with relations to two others and a list field back: each field's model was
    found by scanning every model (10x the models: 10.8 s against 0.17 s)."""
    def make(n: int) -> Callable[[], object]:
        root = tmp_path / f"prisma{n}" / "prisma"
        parts = ['datasource db {\n  provider = "mysql"\n}\n']
        for i in range(n):
            parts.append(f"model M{i} {{\n  id String @id @default(uuid())\n"
                         f"  a M{(i + 1) % n} @relation(\"a{i}\", fields: [aid], references: [id])\n  aid String\n"
                         f"  b M{(i + 2) % n} @relation(\"b{i}\", fields: [bid], references: [id])\n  bid String\n"
                         f"  tags M{(i + 3) % n}[] @relation(\"m{i}\")\n  back M{(i - 3) % n}[] @relation(\"m{(i - 3) % n}\")\n}}\n")
        _write(root / "schema.prisma", "".join(parts))
        (root / "migrations").mkdir()

        def run() -> None:
            found = AppEvidence()
            _prisma(str(root / "migrations"), lambda path: True, found)
            assert len(found.keys) == n and len(found.links) == 2 * n

        return run

    assert_linear(make, 100)


def test_a_laravel_model_scan_is_linear() -> None:
    """`/* a` repeated (80 KB took 43 s; the cap is 4 MiB), and a method name repeated without its `)`."""
    for unit in ("/* a", "function newUniqueId(", "// '", "'/*"):
        def make(n: int, unit: str = unit) -> Callable[[], object]:
            text = "<?php\nclass Order extends Model\n{\n    use HasUuids;\n" + unit * n + "\n}\n"
            return lambda: read_model(text)

        assert_linear(make, 2000, what=unit)


# --- configuration globs -------------------------------------------------------------------------


def test_exclude_patterns_are_matched_in_one_pass(tmp_path: Path) -> None:
    """n exclude patterns of each kind (a directory, a name at any depth, a wildcard first) and n
    files: each pattern was matched against every file (1,000 x 1,000 took 237 s)."""
    def make(n: int) -> Callable[[], object]:
        root = tmp_path / f"exclude{n}"
        patterns = [p for i in range(n) for p in (f"db/legacy{i}/**", f"tmp{i}_*.sql", f"**/*.bak{i}")]
        patterns += ["**/vendor/**", "*generated*"]
        root.mkdir()
        (root / ".innolint.toml").write_text("exclude = [" + ", ".join(f'"{p}"' for p in patterns) + "]\n")
        files = [str(root / "db" / f"s{i}.sql") for i in range(n)] + [str(root / "db" / f"legacy{n - 1}" / "x.sql"),
                                                                      str(root / "a" / "vendor" / "y.sql")]
        settings = ConfigResolver().for_path(str(root / "db" / "s0.sql"))

        def run() -> None:
            settings._globs.clear()  # compiled once per run: the compiling is part of the work
            assert [settings.is_excluded(f, named=False) for f in files] == [False] * n + [True, True]

        return run

    assert_linear(make, 100)


def _table(schema: str | None, name: str) -> Table:
    from linter.parse.elements import Location
    from linter.parse.body import TableBody

    here = Location("t.sql", 1)
    return Table(schema, name, TableBody(), here, here)


def test_insert_heavy_patterns_are_matched_in_one_pass() -> None:
    def make(n: int) -> Callable[[], object]:
        patterns = tuple(p for i in range(n) for p in (f"events_{i}*", f"*_log{i}", f"app.audit{i}"))
        tables = [_table(None, f"t{i}") for i in range(n)] + [_table(None, f"x_log{n - 1}"), _table("app", "audit0")]

        def run() -> None:
            context = CheckContext(insert_heavy=patterns)  # (compiled on first use)
            found = [context.is_configured_insert_heavy(t) for t in tables]
            assert found == [None] * n + [f"*_log{n - 1}", "app.audit0"]

        return run

    assert_linear(make, 300)
