"""A directory that splits one schema across files by table (Dolibarr: `llx_T.sql` creates the
table, `llx_T.key.sql` ALTERs its keys and foreign keys in) is one schema, as Skeema reads a
directory: tables first, then the files extending them (issue 34). A directory of unrelated dumps
stays a file per unit, and a migration history keeps its own order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from linter.engine import lint_paths, units_for
from linter.input.migrations.history import split_schemas
from linter.rules.checkapi import CheckContext
from linter.schema.target import Target
from tests import differential as D


def _context() -> CheckContext:
    return CheckContext(target=Target.parse("mariadb-10.11"))


def _write_split_schema(root: Path, seed: int) -> dict[str, tuple[str, ...]]:
    """Tables and their key files, names and forms varied; returns each table's expected key names."""
    rng = random.Random(seed)
    prefix = rng.choice(("llx_", "", "app_", "X"))
    suffix = rng.choice((".key", ".keys", ".fk"))
    module = rng.choice(("", "", "-accounting"))  # Dolibarr's module tables: t-mod.sql, t-mod.key.sql or t.key-mod.sql
    tables = [f"{prefix}{name}" for name in rng.sample(["user", "societe", "facture", "product", "stock", "Entity"], 4)]
    expected: dict[str, tuple[str, ...]] = {}
    for n, table in enumerate(tables):
        # (the parent's primary key in its table file, as Dolibarr writes it: a foreign key needs
        # it, whichever key file the server reads first; another table's maybe in its key file)
        in_key_file = n > 0 and rng.random() < 0.5
        (root / f"{table}{module}.sql").write_text(
            f"-- table {table}\ncreate table {table}\n(\n  rowid integer NOT NULL"
            f"{'' if in_key_file else ' AUTO_INCREMENT PRIMARY KEY'},\n  fk_parent integer,\n"
            f"  ref varchar(30) NOT NULL\n) ENGINE=innodb;\n")
        keys = [f"ALTER TABLE {table} ADD PRIMARY KEY pk_{table} (rowid);"] if in_key_file else []
        names = ["PRIMARY"]
        if rng.random() < 0.8:
            keys.append(f"ALTER TABLE {table} ADD UNIQUE INDEX uk_{table}_ref (ref);")
            names.append(f"uk_{table}_ref")
        if n and rng.random() < 0.7:
            parent = tables[0]
            keys.append(f"ALTER TABLE {table} ADD INDEX idx_{table}_fk_parent (fk_parent);")
            keys.append(f"ALTER TABLE {table} ADD CONSTRAINT fk_{table}_parent FOREIGN KEY (fk_parent) "
                        f"REFERENCES {parent} (rowid);")
            names.append(f"idx_{table}_fk_parent")
        if in_key_file or n == 0 or rng.random() < 0.8:
            name = rng.choice((f"{table}{module}{suffix}.sql", f"{table}{suffix}{module}.sql"))
            (root / name).write_text("\n".join(keys or ["-- no keys yet"]) + "\n")
        expected[table] = tuple(names)
    return expected


@pytest.mark.parametrize("seed", range(12))
def test_a_directory_split_by_table_is_one_schema(tmp_path: Path, seed: int) -> None:
    expected = _write_split_schema(tmp_path, seed)
    units = units_for([str(p) for p in sorted(tmp_path.iterdir(), key=lambda p: random.Random(seed).random())])
    assert len(units) == 1
    names = [Path(f).name for f in units[0].files]
    tables_first = [not any(part in n for part in (".key", ".fk")) for n in names]
    assert tables_first == sorted(tables_first, reverse=True), names
    report = lint_paths([str(tmp_path)], _context())
    assert not [d for d in report.diagnostics if d.rule in ("replay-error", "parse-error")], report.diagnostics
    assert not [f for f in report.findings if f.rule == "refused-ddl"], report.findings
    keyless = [f for f in report.findings if f.rule == "no-primary-key"]
    assert keyless == [], (expected, keyless)


def test_each_file_alone_was_the_issue(tmp_path: Path) -> None:
    """Without the grouping the key file's ALTERs name a table its unit never defined."""
    _write_split_schema(tmp_path, 0)
    groups = [[str(p)] for p in sorted(tmp_path.iterdir())]
    assert len(split_schemas([g[0] for g in groups])) == 1
    assert all(len(g.files) == 1 for g in split_schemas([g[0] for g in groups if ".key" not in g[0]
                                                         and ".fk" not in g[0]]))


@pytest.mark.parametrize("names", [("a.sql", "b.sql"), ("users.sql", "users_v2.sql"), ("dump.2024.sql", "dump.2025.sql"),
                                   ("schema.sql", "schema.backup.sql"), ("dump.sql", "dump.2024.sql")])
def test_a_directory_of_unrelated_dumps_stays_a_file_per_unit(tmp_path: Path, names: tuple[str, str]) -> None:
    for name in names:
        (tmp_path / name).write_text("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(20));\n")
    units = units_for([str(tmp_path / n) for n in names])
    assert [len(u.files) for u in units] == [1, 1]
    report = lint_paths([str(tmp_path)], _context())
    assert not [f for f in report.findings if f.rule == "refused-ddl"], report.findings


def test_a_migration_history_keeps_its_order(tmp_path: Path) -> None:
    (tmp_path / "V1__init.sql").write_text("CREATE TABLE t (id INT PRIMARY KEY);\n")
    (tmp_path / "V2__more.sql").write_text("ALTER TABLE t ADD COLUMN b INT;\n")
    (tmp_path / "V2__more.key.sql").write_text("ALTER TABLE t ADD INDEX ib (b);\n")
    units = units_for([str(p) for p in sorted(tmp_path.iterdir())])
    assert units[0].is_migration_history


@pytest.fixture(scope="module")
def sides(mariadb: Any) -> Iterator[tuple[D.ServerRunner, D.InnolintRunner]]:
    with D.judging_sides(mariadb, "split") as pair:
        yield pair


@pytest.mark.parametrize("seed", range(4))
def test_the_unit_is_the_schema_mariadb_builds_from_the_directory(
        tmp_path: Path, sides: tuple[D.ServerRunner, D.InnolintRunner], seed: int) -> None:
    """MariaDB loads the directory's files in the unit's order (a key file before its table's, or
    a foreign key before its parent's table, would be refused): the tables, keys and foreign keys
    innolint's model of the unit holds are the server's."""
    from linter.engine import Unit as LintUnit

    server, lint = sides
    _write_split_schema(tmp_path, seed)
    (unit,) = units_for([str(p) for p in sorted(tmp_path.iterdir())])
    text = "".join(Path(f).read_text() for f in unit.files)
    (loaded,) = server.load([lambda main, other: text])
    assert loaded.errors == []
    result = lint.engine.lint_unit(LintUnit(unit.files), lint.context)
    assert D.compare(loaded.view, D.model_view(result.model, "d1", "d2")) == []
    assert not result.diagnostics


def test_a_split_schema_is_one_change(tmp_path: Path) -> None:
    """Its tables are new to its key files' ALTERs (an install schema: no rows yet), as in one
    file: no blocking-alter for a foreign key or index the key file adds; a history's later file
    does alter a table with rows."""
    (tmp_path / "c.sql").write_text("CREATE TABLE p (id INT PRIMARY KEY);\nCREATE TABLE c (id INT PRIMARY KEY, p INT);\n")
    (tmp_path / "c.key.sql").write_text("ALTER TABLE c ADD CONSTRAINT f FOREIGN KEY (p) REFERENCES p (id);\n"
                                        "ALTER TABLE c ADD INDEX ip (p);\n")
    report = lint_paths([str(tmp_path)], _context())
    assert not [f for f in report.findings if f.rule in ("blocking-alter", "destructive-change")], report.findings
    history = tmp_path / "db" / "migration"
    history.mkdir(parents=True)
    (history / "V1__c.sql").write_text((tmp_path / "c.sql").read_text())
    (history / "V2__keys.sql").write_text((tmp_path / "c.key.sql").read_text())
    report = lint_paths([str(history)], _context())
    assert [f.rule for f in report.findings if f.rule == "blocking-alter"], report.findings


def test_a_key_files_foreign_key_to_a_table_elsewhere_is_a_finding_not_a_failure(tmp_path: Path) -> None:
    """Dolibarr's llx_adherent.key.sql references llx_societe, another directory's table here."""
    (tmp_path / "llx_adherent.sql").write_text("create table llx_adherent (rowid integer AUTO_INCREMENT PRIMARY KEY, "
                                               "fk_soc integer NULL) ENGINE=innodb;\n")
    (tmp_path / "llx_adherent.key.sql").write_text(
        "ALTER TABLE llx_adherent ADD CONSTRAINT adherent_fk_soc FOREIGN KEY (fk_soc) REFERENCES llx_societe (rowid);\n")
    report = lint_paths([str(tmp_path)], _context())
    assert not [d for d in report.diagnostics if d.rule == "internal-error"], report.diagnostics
    assert [(Path(f.path).name, f.line) for f in report.findings if f.rule == "foreign-key-mismatch"] == [
        ("llx_adherent.key.sql", 1)]
