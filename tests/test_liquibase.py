"""Liquibase: formatted SQL read as Liquibase reads it, and XML/YAML/JSON changelogs followed
through include, includeAll and sqlFile. Histories are generated the way Spring Boot projects keep
them (tests/histories.py): one formatted SQL file per migration, rollbacks as lines and blocks,
metadata lines, and a master changelog in each format and include style; the replay is compared
with MariaDB running the same statements."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from linter.report import json as json_report
from linter.input.migrations.formats.liquibase import changelog as liquibase_changelog, sql as liquibase_sql
from linter.input.migrations.history import detect, order, plan
from linter.input.migrations.writing import new_migration
from linter.input.source import read_statements
from linter.schema.target import Target
from tests import histories as H
from tests.complexity import assert_linear

SEEDS = range(6)
lint, problems, PROBLEMS = H.lint, H.problems, H.PROBLEMS


def statements(path: Path, target: str | None = None, **kwargs: object) -> tuple[list[tuple[int, str]], list]:  # type: ignore[type-arg]
    stream = read_statements(str(path), migration_format="liquibase",
                             target=Target.parse(target) if target else None, **kwargs)  # type: ignore[arg-type]
    found = [(s.line, s.text) for s in stream]
    return found, stream.notes


# --- generated histories ---------------------------------------------------------------------------


@pytest.mark.parametrize("master", ["xml", "yaml", "json"])
@pytest.mark.parametrize("include", ["all", "each"])
@pytest.mark.parametrize("relative", [False, True])
def test_a_generated_history_replays_without_errors(tmp_path: Path, master: str, include: str, relative: bool) -> None:
    seed = hash((master, include, relative)) % 1000
    evolution = H.evolve(seed)
    changelog, files = H.write_liquibase(tmp_path, evolution, seed, master=master, include=include, relative=relative)
    report = lint(tmp_path)
    assert problems(report) == [], problems(report)
    assert report.stats.files == len(files) + 1 or report.stats.files == len(files)
    history, _ = order(str(changelog), [])
    assert history is not None and history.format == "liquibase"
    assert history.files == [str(p) for p in files]


@pytest.mark.mariadb
def test_the_replayed_history_is_what_mariadb_holds(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from linter.engine import Engine, units_for
    from tests import differential as D

    server = D.ServerRunner(mariadb, jobs=1, prefix="lb")
    try:
        for seed in SEEDS:
            evolution = H.evolve(seed)
            H.write_liquibase(tmp_path / f"s{seed}", evolution, seed, master="yaml")
            files = sorted(str(p) for p in (tmp_path / f"s{seed}").rglob("*.sql"))
            (unit,) = units_for(files)
            result = Engine(D.innolint_context(), checks=[]).lint_unit(unit)
            assert [d.message for d in result.diagnostics if d.rule in PROBLEMS] == []
            (loaded,) = server.load([lambda main, other, e=evolution: H.truth(e)])
            assert loaded.errors == []
            differences = D.compare(loaded.view, D.model_view(result.model, "main", "other"))
            # the plain script adds foreign keys by ALTER; MySQL's own index for one is a replay matter
            differences = [d for d in differences if not _only_foreign_key_indexes(d)]
            assert differences == [], f"seed {seed}: " + "; ".join(map(str, differences))
    finally:
        server.close()


def _only_foreign_key_indexes(difference) -> bool:  # type: ignore[no-untyped-def]
    if difference.kind != "indexes":
        return False
    server = {i for i in difference.server.indexes if not (i.name or "").endswith("_fkey")}
    return server == set(difference.innolint.indexes)


def test_formatted_files_without_a_changelog_run_in_path_order(tmp_path: Path) -> None:
    evolution = H.evolve(9)
    _, files = H.write_liquibase(tmp_path, evolution, 9, master=None)
    report = lint(tmp_path)
    assert problems(report) == []
    history, _ = order(str(files[0].parent), [str(p) for p in reversed(files)])
    assert history is not None and history.format == "liquibase" and history.files == [str(p) for p in files]


def test_include_all_runs_in_alphabetical_order_as_liquibase_does(tmp_path: Path) -> None:
    changes = tmp_path / "db" / "changes"
    changes.mkdir(parents=True)
    (tmp_path / "db" / "master.xml").write_text(
        '<databaseChangeLog xmlns="http://www.liquibase.org/xml/ns/dbchangelog">\n'
        '  <includeAll path="changes/" relativeToChangelogFile="true"/>\n</databaseChangeLog>\n')
    for name in ("9_b.sql", "10_c.sql", "1_a.sql", "sub/2_d.sql"):
        (changes / name).parent.mkdir(exist_ok=True)
        (changes / name).write_text(f"--liquibase formatted sql\n--changeset x:{name}\nSELECT 1;\n")
    history, _ = order(str(tmp_path / "db" / "master.xml"), [])
    assert history is not None
    assert [os.path.relpath(p, changes) for p in history.files] == ["10_c.sql", "1_a.sql", "9_b.sql", "sub/2_d.sql"]


def test_a_changed_file_is_linted_in_the_whole_history(tmp_path: Path) -> None:
    evolution = H.evolve(7)
    _, files = H.write_liquibase(tmp_path, evolution, 7, master="xml")
    report = lint(files[-1], changed=[files[-1]])
    assert problems(report) == []
    assert all(x.path == str(files[-1]) for x in report.findings + report.diagnostics)
    (group,) = plan([str(files[-1])], expand=lambda p: True)
    assert group.files == [str(p) for p in files]


def test_a_sql_file_included_by_a_master_two_directories_up_belongs_to_its_history(tmp_path: Path) -> None:
    evolution = H.evolve(8)
    changelog, files = H.write_liquibase(tmp_path, evolution, 8, master="yaml", include="each")
    groups = plan([str(files[1]), str(files[0])])
    assert len(groups) == 1 and groups[0].history is not None and groups[0].history.root == str(changelog)


# --- formatted SQL, directive by directive -----------------------------------------------------------


def _file(tmp_path: Path, text: str, name: str = "changes.sql") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_directives_rollbacks_and_metadata_are_not_sql(tmp_path: Path) -> None:
    path = _file(tmp_path, (
        "--liquibase formatted sql\n"
        "--property name:engine value:InnoDB\n"
        "\n"
        "--changeset alice:1 labels:v1 context:prod runOnChange:true\n"
        "--comment: users\n"
        "--validCheckSum: ANY\n"
        "CREATE TABLE users (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY) ENGINE=${engine};\n"
        "--rollback DROP TABLE users;\n"
        "\n"
        "-- changeset \"Bob Smith\":\"2\"\n"
        "ALTER TABLE users ADD COLUMN email VARCHAR(255) NOT NULL\n"  # no `;`: the changeset ends it
        "/* liquibase rollback\n"
        "ALTER TABLE users DROP COLUMN email;\n"
        "*/\n"
        "--changeset carol:3\n"
        "--preconditions onFail:MARK_RAN\n"
        "--precondition-sql-check expectedResult:0 SELECT COUNT(*) FROM information_schema.statistics WHERE index_name='ix'\n"
        "CREATE INDEX ix ON users (email);\n"
        "--ignoreLines:start\n"
        "this is not SQL;\n"
        "--ignoreLines:end\n"
        "--ignoreLines:1\n"
        "neither is this;\n"
        "-- an ordinary comment inside a changeset is SQL's\n"
        "ALTER TABLE users ADD COLUMN name VARCHAR(100);\n"))
    found, notes = statements(path)
    assert found == [(7, "CREATE TABLE users (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB"),
                     (11, "ALTER TABLE users ADD COLUMN email VARCHAR(255) NOT NULL"),
                     (18, "CREATE INDEX ix ON users (email)"),
                     (25, "ALTER TABLE users ADD COLUMN name VARCHAR(100)")]
    assert [(n.line, "precondition" in n.message) for n in notes] == [(16, True)]
    assert [p.split(": ", 1)[0] for p in problems(lint(path))] == [f"{path}:16"]  # that note, nothing else


@pytest.mark.parametrize(("attribute", "target", "runs"), [
    ("dbms:postgresql", "mysql-8.0", False), ("dbms:mysql", "mysql-8.0", True), ("dbms:mysql", "mariadb-10.11", False),
    ("dbms:mysql,mariadb", "mariadb-10.11", True), ("dbms:!postgresql", "mysql-8.0", True),
    ("dbms:!mariadb", "mariadb-10.11", False), ("dbms:all", "mysql-8.4", True), ("dbms:none", "mysql-8.0", False),
    ("ignore:true", "mysql-8.0", False), ("dbms:h2, oracle", "percona-8.0", False),
])
def test_a_changeset_runs_only_on_the_servers_it_names(tmp_path: Path, attribute: str, target: str, runs: bool) -> None:
    path = _file(tmp_path, "--liquibase formatted sql\n--changeset a:1\nCREATE TABLE t (id INT PRIMARY KEY);\n"
                           f"--changeset a:2 {attribute}\nCREATE TABLE pg_only (id SERIAL PRIMARY KEY, x JSONB);\n")
    found, notes = statements(path, target)
    assert [line for line, _ in found] == ([1 + 2, 5] if runs else [3])
    skipped = [n for n in notes if "does not run" in n.message]
    assert len(skipped) == (0 if runs or attribute.startswith("ignore") else 1)
    if skipped:
        assert skipped[0].line == 4
        if target.startswith("mariadb") and "mysql" in attribute:
            assert "`mariadb`" in skipped[0].message


def test_split_statements_false_end_delimiter_and_compound_statements(tmp_path: Path) -> None:
    path = _file(tmp_path, (
        "--liquibase formatted sql\n"
        "--changeset a:1 splitStatements:false\n"
        "CREATE PROCEDURE p1() BEGIN SELECT 1; SELECT 2; END;\n"
        "--changeset a:2 endDelimiter://\n"
        "CREATE TABLE t (id INT PRIMARY KEY)//\n"
        "CREATE PROCEDURE p2() BEGIN SELECT 1; END//\n"
        "--changeset a:3\n"
        "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.id = 1; SET @n = 2; END;\n"
        "ALTER TABLE t ADD COLUMN n INT;\n"))
    found, notes = statements(path)
    assert [line for line, _ in found] == [3, 5, 6, 8, 9]
    assert found[0][1].endswith("END") and found[3][1].endswith("SET @n = 2; END")
    assert notes == []


def test_sql_outside_changesets_and_unknown_properties_are_reported(tmp_path: Path) -> None:
    path = _file(tmp_path, "--liquibase formatted sql\nCREATE TABLE before_any (id INT);\n--changeset a:1\n"
                           "CREATE TABLE ${prefix}t (id INT PRIMARY KEY);\n--changeset\nSELECT 1;\n")
    found, notes = statements(path)
    assert [n.line for n in notes] == [2, 4, 5]
    assert "outside any changeset" in notes[0].message and "${prefix}" in notes[1].message
    assert "author:id" in notes[2].message
    assert [line for line, _ in found] == [4]


def test_a_plain_sql_file_in_a_history_is_one_changeset(tmp_path: Path) -> None:
    path = _file(tmp_path, "CREATE TABLE t (id INT PRIMARY KEY);\nCREATE PROCEDURE p() BEGIN SELECT 1; END;\n")
    found, _ = statements(path)
    assert [line for line, _ in found] == [1, 2]


def test_long_lines_and_the_reading_is_linear(tmp_path: Path) -> None:
    long = "-- " + "x" * (liquibase_sql._LINE_HEAD * 2) + "\n"
    path = _file(tmp_path, "--liquibase formatted sql\n--changeset a:1\n" + long + "CREATE TABLE t (id INT PRIMARY KEY);\n")
    assert [line for line, _ in statements(path)[0]] == [4]

    def reading(n: int) -> Callable[[], object]:
        text = "--liquibase formatted sql\n" + "".join(
            f"--changeset a:{i}\n--comment: c\nCREATE TABLE t{i} (id INT PRIMARY KEY);\n--rollback DROP TABLE t{i};\n"
            f"/* liquibase rollback\nx\n*/\n" for i in range(n))
        target = _file(tmp_path, text, f"n{n}.sql")
        return lambda: list(read_statements(str(target), migration_format="liquibase"))

    assert_linear(reading, 200)


# --- changelogs -------------------------------------------------------------------------------------


def test_inline_sql_is_read_at_its_lines_and_other_change_types_are_reported(tmp_path: Path) -> None:
    changelog = _file(tmp_path, (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<databaseChangeLog xmlns="http://www.liquibase.org/xml/ns/dbchangelog">\n'
        '  <property name="engine" value="InnoDB"/>\n'
        '  <changeSet id="1" author="a">\n'
        '    <sql>\n'
        '      CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, note TEXT) ENGINE=${engine};\n'
        '      CREATE INDEX idx_note ON orders (note(20));\n'
        '    </sql>\n'
        '    <rollback><sql>DROP TABLE orders;</sql></rollback>\n'
        '  </changeSet>\n'
        '  <changeSet id="2" author="a" dbms="postgresql">\n'
        '    <sql>CREATE TABLE pg (id serial);</sql>\n'
        '  </changeSet>\n'
        '  <changeSet id="3" author="a">\n'
        '    <createTable tableName="customers"><column name="id" type="bigint"/></createTable>\n'
        '    <sql splitStatements="false"><![CDATA[CREATE PROCEDURE p() BEGIN SELECT 1; END]]></sql>\n'
        '    <mergeColumns tableName="customers" column1Name="a" column2Name="b" finalColumnName="c"/>\n'
        '  </changeSet>\n'
        '</databaseChangeLog>\n'), "master.xml")
    found, notes = statements(changelog)
    assert [(line, text.split(" (")[0]) for line, text in found] == [
        (6, "CREATE TABLE orders"), (7, "CREATE INDEX idx_note ON orders"), (15, "CREATE TABLE `customers`"),
        (16, "CREATE PROCEDURE p() BEGIN SELECT 1; END")]
    assert "ENGINE=InnoDB" in found[0][1]
    assert sorted((n.line, "mergeColumns" in n.message or "does not run" in n.message) for n in notes) == [
        (11, True), (14, True)]


def test_sql_files_and_their_settings_come_from_the_changelog(tmp_path: Path) -> None:
    (tmp_path / "procs.sql").write_text("CREATE TABLE a (id INT PRIMARY KEY)//\nCREATE PROCEDURE p() BEGIN SELECT 1; END//\n")
    (tmp_path / "pg.sql").write_text("CREATE TABLE pg (id serial);\n")
    changelog = _file(tmp_path, (
        "databaseChangeLog:\n"
        "  - changeSet:\n      id: 1\n      author: a\n      changes:\n"
        "        - sqlFile:\n            path: procs.sql\n            relativeToChangelogFile: true\n"
        "            endDelimiter: //\n"
        "  - changeSet:\n      id: 2\n      author: a\n      dbms: postgresql\n      changes:\n"
        "        - sqlFile:\n            path: pg.sql\n            relativeToChangelogFile: true\n"
        "  - changeSet:\n      id: 3\n      author: a\n      changes:\n"
        "        - sql:\n            sql: |-\n              ALTER TABLE a ADD COLUMN n INT;\n"
        "              CREATE INDEX ix_n ON a (n);\n"), "master.yaml")
    history, _ = order(str(changelog), [])
    assert history is not None
    assert [Path(p).name for p in history.files] == ["procs.sql", "pg.sql", "master.yaml"]
    report = lint(tmp_path)
    skipped = [d for d in report.diagnostics if "does not run" in d.message]
    assert problems(report) == [f"{d.path}:{d.line}: {d.rule}: {d.message}" for d in skipped]
    assert [(Path(d.path).name, d.line) for d in skipped] == [("pg.sql", 1)]
    inline, _ = statements(changelog)
    assert [line for line, _ in inline] == [24, 25]  # the block scalar starts on the line after `sql: |-`


def test_a_doctype_or_entity_is_refused_and_nothing_is_expanded_or_fetched(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN=abc123")
    bombs = {
        "external": f'<!DOCTYPE d [<!ENTITY x SYSTEM "file://{secret}">]>\n<databaseChangeLog><changeSet id="1" '
                    'author="a"><sql>CREATE TABLE t (c TEXT DEFAULT \'&x;\');</sql></changeSet></databaseChangeLog>',
        "laughs": '<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
                  '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>\n'
                  '<databaseChangeLog><changeSet id="1" author="a"><sql>SELECT \'&d;&d;&d;\';</sql></changeSet>'
                  '</databaseChangeLog>',
    }
    for name, text in bombs.items():
        path = _file(tmp_path, text, f"{name}.xml")
        found, notes = statements(path)
        assert found == [] and len(notes) == 1 and "DOCTYPE" in notes[0].message
        report = lint(path)
        assert "abc123" not in json_report.render(report)


def _alias_bomb(levels: int) -> bytes:
    """YAML of `levels` aliases, each a list of ten of the one before: 10**levels nodes expanded."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels)]
    lines.append(f"databaseChangeLog: [*a{levels - 1}]")
    return ("\n".join(lines) + "\n").encode()


def test_a_yaml_alias_bomb_stops_at_the_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _file(tmp_path, _alias_bomb(12).decode(), "bomb.yaml")
    changelog = liquibase_changelog.read_changelog(str(path), path.read_bytes())
    assert changelog.error is not None and "nodes" in str(changelog.error)
    # the walk ends at the budget, whatever the expansion (10**120 nodes here): a count, not a time
    monkeypatch.setattr(liquibase_changelog, "_NODE_BUDGET", 1000)
    changelog = liquibase_changelog.read_changelog(str(path), _alias_bomb(120))
    assert changelog.error is not None and "more than 1,000 nodes" in str(changelog.error)


def test_include_cycles_and_missing_files_are_reported_once(tmp_path: Path) -> None:
    _file(tmp_path, '<databaseChangeLog><include file="b.xml" relativeToChangelogFile="true"/>'
                    '<include file="gone.sql" relativeToChangelogFile="true"/></databaseChangeLog>', "a.xml")
    _file(tmp_path, '<databaseChangeLog><include file="a.xml" relativeToChangelogFile="true"/>'
                    '<changeSet id="1" author="a"><sql>CREATE TABLE t (id INT PRIMARY KEY);</sql></changeSet>'
                    '</databaseChangeLog>', "b.xml")
    history, _ = order(str(tmp_path / "a.xml"), [])
    assert history is not None
    messages = [n.message for n in history.notes]
    assert sum("include cycle" in m for m in messages) == 1 and sum("no such file" in m for m in messages) == 1
    assert [Path(p).name for p in history.files] == ["b.xml"]


def test_nothing_outside_the_tree_is_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.sql").write_text("CREATE TABLE leaked (id INT PRIMARY KEY);\n")
    project = tmp_path / "project"
    (project / "db").mkdir(parents=True)
    (project / "db" / "master.xml").write_text(
        '<databaseChangeLog><include file="../../outside/leak.sql" relativeToChangelogFile="true"/>'
        '<includeAll path="../../outside/" relativeToChangelogFile="true"/></databaseChangeLog>')
    (project / "db" / "own.sql").write_text("--liquibase formatted sql\n--changeset a:1\nCREATE TABLE own (id INT PRIMARY KEY);\n")
    inside = str(project)
    history, _ = order(str(project / "db" / "master.xml"), [], inside=lambda p: os.path.realpath(p).startswith(inside))
    assert history is not None and history.files == []
    assert sum("outside the tree" in n.message for n in history.notes) == 2


def test_classpath_includes_resolve_from_the_resources_root(tmp_path: Path) -> None:
    evolution = H.evolve(4)
    changelog, files = H.write_liquibase(tmp_path, evolution, 4, master="xml", include="each", relative=False)
    assert 'file="db/changelog/changes/' in changelog.read_text()  # type: ignore[union-attr]
    history = detect(str(changelog.parent))  # type: ignore[union-attr]
    assert history is not None and history.files == [str(p) for p in files]


def test_a_new_migration_lands_in_the_include_all_directory_and_runs_last(tmp_path: Path) -> None:
    evolution = H.evolve(2)
    changelog, files = H.write_liquibase(tmp_path, evolution, 2, master="yaml")
    history = detect(str(changelog.parent))  # type: ignore[union-attr]
    assert history is not None
    made = new_migration(history, "index owner", "CREATE INDEX ix ON t (a);", "DROP INDEX ix ON t;")
    (relative, text), = made.files.items()
    path = str(changelog.parent / relative)  # type: ignore[union-attr]
    assert made.note is None and Path(path).parent == files[0].parent
    assert text.endswith("CREATE INDEX ix ON t (a);\n--rollback DROP INDEX ix ON t;\n")
    Path(path).write_text(text)
    again = detect(str(changelog.parent))  # type: ignore[union-attr]
    assert again is not None and again.files[-1] == path


# --- change types ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_changelog_of_change_types_replays_without_errors(tmp_path: Path, seed: int) -> None:
    evolution = H.evolve(seed)
    H.write_liquibase_xml(tmp_path / "liquibase", evolution, seed)
    report = lint(tmp_path)
    assert problems(report) == [], problems(report)
    assert report.stats.tables == len({op.table for ops in evolution.migrations for op in ops if op.kind == "create"})


@pytest.mark.mariadb
def test_change_types_replay_as_mariadb_runs_the_same_changes(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from linter.engine import Engine, units_for
    from tests import differential as D

    server = D.ServerRunner(mariadb, jobs=1, prefix="lbx")
    try:
        for seed in SEEDS:
            evolution = H.evolve(seed)
            master = H.write_liquibase_xml(tmp_path / f"s{seed}", evolution, seed)
            files = sorted(str(p) for p in master.parent.rglob("*.xml"))
            (unit,) = units_for(files)
            result = Engine(D.innolint_context(), checks=[]).lint_unit(unit)
            assert [d.message for d in result.diagnostics if d.rule in PROBLEMS] == []
            (loaded,) = server.load([lambda main, other, e=evolution: H.truth(e)])
            assert loaded.errors == []
            # (the XML change types carry no table options: the history's DEFAULT CHARACTER SET is not in them)
            differences = [d for d in D.compare(D.without_charsets(loaded.view),
                                                D.without_charsets(D.model_view(result.model, "main", "other")))
                           if not _only_foreign_key_indexes(d)]
            assert differences == [], f"seed {seed}: " + "; ".join(map(str, differences))
    finally:
        server.close()


@pytest.mark.parametrize(("change", "expected"), [
    ('<createTable tableName="t"><column name="id" type="uuid"><constraints primaryKey="true"/></column>'
     '<column name="ok" type="boolean" defaultValueBoolean="true"/><column name="body" type="clob"/>'
     '<column name="amount" type="currency"/><column name="n" type="java.sql.Types.BIGINT"/></createTable>',
     "CREATE TABLE `t` (`id` CHAR(36) NOT NULL, `ok` BIT(1) DEFAULT 1, `body` LONGTEXT, `amount` DECIMAL(19, 4), "
     "`n` BIGINT, PRIMARY KEY (`id`));"),
    ('<addColumn tableName="t"><column name="a" type="varchar(20)" afterColumn="id"><constraints nullable="false" '
     'unique="true" uniqueConstraintName="ux_a"/></column></addColumn>',
     "ALTER TABLE `t` ADD `a` VARCHAR(20) NOT NULL AFTER `id`; ALTER TABLE `t` ADD CONSTRAINT `ux_a` UNIQUE (`a`);"),
    ('<createTable tableName="c"><column name="p_id" type="bigint"><constraints nullable="false" '
     'foreignKeyName="fk_c_p" references="p(id)" deleteCascade="true"/></column></createTable>',
     "CREATE TABLE `c` (`p_id` BIGINT NOT NULL, CONSTRAINT `fk_c_p` FOREIGN KEY (`p_id`) REFERENCES `p` (`id`) "
     "ON DELETE CASCADE);"),
    ('<renameColumn tableName="t" oldColumnName="a" newColumnName="b" columnDataType="int"/>',
     "ALTER TABLE `t` CHANGE `a` `b` INT;"),
])
def test_change_types_render_as_liquibase_writes_them_for_mysql(tmp_path: Path, change: str, expected: str) -> None:
    path = _file(tmp_path, f'<databaseChangeLog><changeSet id="1" author="a">{change}</changeSet></databaseChangeLog>',
                 "c.xml")
    found, notes = statements(path)
    assert notes == [] and "; ".join(text for _, text in found) + ";" == expected


def test_a_change_mysql_refuses_is_said_and_not_replayed(tmp_path: Path) -> None:
    path = _file(tmp_path, '<databaseChangeLog><changeSet id="1" author="a">\n'
                           '<renameColumn tableName="t" oldColumnName="a" newColumnName="b"/>\n'
                           '<addNotNullConstraint tableName="t" columnName="b"/>\n</changeSet></databaseChangeLog>', "c.xml")
    found, notes = statements(path)
    assert found == [] and [(n.line, "columnDataType" in n.message) for n in notes] == [(2, True), (3, True)]


def test_changelog_parameters_of_the_master_reach_the_included_files(tmp_path: Path) -> None:
    (tmp_path / "master.xml").write_text(
        '<databaseChangeLog>\n  <property name="idType" value="varchar(36)" dbms="mysql, mariadb"/>\n'
        '  <property name="idType" value="uuid" dbms="postgresql"/>\n'
        '  <include file="one.xml" relativeToChangelogFile="true"/>\n'
        '  <include file="two.sql" relativeToChangelogFile="true"/>\n</databaseChangeLog>\n')
    (tmp_path / "one.xml").write_text('<databaseChangeLog><changeSet id="1" author="a"><createTable tableName="t">'
                                      '<column name="id" type="${idType}"/></createTable></changeSet></databaseChangeLog>')
    (tmp_path / "two.sql").write_text("--liquibase formatted sql\n--changeset a:2\nCREATE TABLE u (id ${idType});\n")
    report = lint(tmp_path)
    assert problems(report) == []
    history, _ = order(str(tmp_path / "master.xml"), [])
    assert history is not None
    texts = [text for path in history.files for _, text in statements(Path(path), segment=history.segments.get(path))[0]]
    assert texts == ["CREATE TABLE `t` (`id` VARCHAR(36))", "CREATE TABLE u (id varchar(36))"]


@pytest.mark.parametrize("name", ["schema.json", "tables.xml", "ddl.yaml", "--stats=stats.json", "x.YML"])
def test_a_named_file_with_a_changelog_suffix_that_is_not_one_is_read_as_sql(tmp_path: Path, name: str) -> None:
    """Only a file naming `databaseChangeLog` is a changelog; any other file named on the command
    line is read as SQL (a file named explicitly is always read), never taken as an empty history."""
    path = tmp_path / name
    path.write_text("CREATE TABLE t_no_key (a int);\nCREATE TABLE t_keyed (a int PRIMARY KEY);\n")
    report = lint(path)
    assert [(f.rule, f.table, f.line) for f in report.findings] == [("no-primary-key", "t_no_key", 1)]
