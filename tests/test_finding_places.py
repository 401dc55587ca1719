"""Every finding points at the element that causes it (issue 34): the column's or key's own line and
column, in the statement that made it so, whatever the layout: one element a line, several on a
line, comments and blank lines between them, a statement starting in the middle of a line, CRLF
line ends, a later ALTER TABLE, a tenant dump's copies (which share their template's elements).

The schemas are generated: each table is a list of elements, a layout writes them, and the test
knows where each element starts because it wrote it there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from linter.rules.checkapi import CheckContext
from linter.engine import lint_paths
from linter.rules.findings import Finding
from linter.schema.target import Target

#: (table, its elements, the options after its body); the element each rule's finding is about is
#: named in EXPECTED
TABLES: list[tuple[str, list[str], str]] = [
    ("users", ["id INT UNSIGNED NOT NULL AUTO_INCREMENT", "name VARCHAR(100)", "PRIMARY KEY (id)"], "ENGINE=InnoDB"),
    ("teams", ["id INT UNSIGNED NOT NULL AUTO_INCREMENT", "PRIMARY KEY (id)"], "ENGINE=InnoDB"),
    ("members", [
        "id INT UNSIGNED NOT NULL AUTO_INCREMENT",
        "user_id INT UNSIGNED NOT NULL",
        "team_id BIGINT NOT NULL",
        "created DATETIME NOT NULL DEFAULT '0000-00-00 00:00:00'",
        "PRIMARY KEY (id)",
        "KEY by_user (user_id)",
        "KEY by_user_again (user_id)",
        "UNIQUE KEY pair (user_id, team_id)",
        "CONSTRAINT to_user FOREIGN KEY (user_id) REFERENCES users (id)",
        "CONSTRAINT to_team FOREIGN KEY (team_id) REFERENCES teams (id)",
    ], "ENGINE=InnoDB AUTO_INCREMENT=4100000000"),
    ("sessions", ["sid CHAR(36) NOT NULL", "payload LONGTEXT", "PRIMARY KEY (sid)"], "ENGINE=InnoDB"),
    ("events", ["at DATETIME NOT NULL", "what VARCHAR(20) NOT NULL"], "ENGINE=InnoDB"),
]
#: rule -> (table, the element its finding must point at: the start of that element's text)
EXPECTED: dict[str, tuple[str, str]] = {
    "zero-date-default": ("members", "created DATETIME"),
    "redundant-index": ("members", "KEY by_user_again"),
    "foreign-key-mismatch": ("members", "CONSTRAINT to_team"),
    "auto-increment-capacity": ("members", "id INT UNSIGNED"),
    "link-table-primary-key": ("members", "PRIMARY KEY (id)"),
    "uuid-primary-key": ("sessions", "PRIMARY KEY (sid)"),
    "compression-candidate": ("sessions", "payload LONGTEXT"),
    "no-primary-key": ("events", "CREATE TABLE"),  # about the whole table: its CREATE TABLE
}

Layout = Callable[[str, list[str], str], str]


def one_per_line(name: str, elements: list[str], options: str) -> str:
    return f"CREATE TABLE {name} (\n  " + ",\n  ".join(elements) + f"\n) {options};\n"


def packed(name: str, elements: list[str], options: str) -> str:
    """Three elements a line, the first on the CREATE TABLE's own line."""
    lines = [", ".join(elements[i:i + 3]) for i in range(0, len(elements), 3)]
    return f"CREATE TABLE {name} (" + ",\n    ".join(lines) + f") {options};\n"


def commented(name: str, elements: list[str], options: str) -> str:
    """Comments and blank lines between the elements, as hand-written install scripts have them."""
    parts = []
    for n, element in enumerate(elements):
        note = ["-- the next one matters\n", "/* a block\n   comment */ ", "\n", "# hash comment\n"][n % 4]
        parts.append(f"  {note}  {element}")
    return f"-- table {name}\nCREATE TABLE\n  `{name}`\n(\n" + ",\n".join(parts) + f"\n)\n{options}\n;\n\n"


def mid_line(name: str, elements: list[str], options: str) -> str:
    """The CREATE TABLE starts after another statement on the same line."""
    return f"SET @x = 1; CREATE TABLE {name} (" + ", ".join(elements[:2]) + (",\n" if elements[2:] else "") + \
        ",\n".join(f"      {e}" for e in elements[2:]) + f") {options};\n"


LAYOUTS: dict[str, Layout] = {"one per line": one_per_line, "packed": packed, "commented": commented,
                              "mid-line": mid_line}


def place_of(text: str, table: str, element: str) -> tuple[int, int]:
    """(line, column), 1-based, of `element`'s text within the CREATE TABLE of `table`."""
    start = text.index(f"CREATE TABLE {table} (") if f"CREATE TABLE {table} (" in text else text.index(f"`{table}`")
    if element == "CREATE TABLE":
        at = text.rfind("CREATE TABLE", 0, start + 13)
    else:
        at = text.index(element, start)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def lint(text: str, tmp_path: Path, name: str = "schema.sql", target: str = "mysql-8.0",
         newline: str = "\n") -> list[Finding]:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode())
    return lint_paths([str(path)], CheckContext(target=Target.parse(target))).findings


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_each_rule_points_at_its_element(tmp_path: Path, layout: str, newline: str) -> None:
    text = "".join(LAYOUTS[layout](name, elements, options) for name, elements, options in TABLES)
    found = {f.rule: f for f in lint(text, tmp_path, newline=newline) if f.rule in EXPECTED}
    assert set(found) == set(EXPECTED), sorted(found)
    for rule, (table, element) in EXPECTED.items():
        finding = found[rule]
        assert finding.table == table
        line, column = place_of(text, table, element)
        assert (finding.line, finding.column) == (line, column), (rule, layout, text.splitlines()[line - 1])
        assert finding.end_line in (line, finding.end_line) and finding.end_line >= line


def test_an_element_a_later_alter_adds_points_into_the_alter(tmp_path: Path) -> None:
    history = tmp_path / "migrations"
    history.mkdir()
    (history / "V1__users.sql").write_text(one_per_line(*TABLES[0]) + one_per_line(*TABLES[1]))
    (history / "V2__members.sql").write_text(
        "CREATE TABLE members (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id INT UNSIGNED NOT NULL,\n"
        "  KEY by_user (user_id));\n")
    alter = ("-- V3: more\nALTER TABLE members\n  ADD COLUMN team_id BIGINT NOT NULL,\n"
             "  ADD COLUMN created DATETIME NOT NULL DEFAULT '0000-00-00 00:00:00', ADD KEY by_user_again (user_id),\n"
             "  ADD CONSTRAINT to_team FOREIGN KEY (team_id) REFERENCES teams (id);\n")
    (history / "V3__more.sql").write_text(alter)
    found = {f.rule: f for f in lint_paths([str(history)], CheckContext()).findings}
    # a column an ALTER adds: its definition (its name); a key or foreign key: its ADD clause
    for rule, element in [("zero-date-default", "created DATETIME"), ("redundant-index", "ADD KEY by_user_again"),
                          ("foreign-key-mismatch", "ADD CONSTRAINT to_team")]:
        finding = found[rule]
        at = alter.index(element)
        expected = (alter.count("\n", 0, at) + 1, at - alter.rfind("\n", 0, at))
        assert finding.path.endswith("V3__more.sql") and (finding.line, finding.column) == expected, (rule, finding)


def test_tenant_copies_share_their_elements_and_each_points_into_its_own_statement(tmp_path: Path) -> None:
    """A schema-per-tenant dump: the copies of a CREATE TABLE share one body (and its elements'
    places relative to the statement), and a copy judged alone (its own suppression) points into
    its own CREATE TABLE."""
    block = ("--\n-- Current Database: `{db}`\n--\n\nCREATE DATABASE `{db}`;\n\nUSE `{db}`;\n\n"
             "CREATE TABLE `sessions` (\n  `sid` char(36) NOT NULL,\n  `payload` longtext,\n  PRIMARY KEY (`sid`)\n"
             ") ENGINE=InnoDB;\n\n")
    text = "".join(block.format(db=f"tenant_{n}") for n in range(6))
    lines = text.splitlines()
    keys = [n + 1 for n, line in enumerate(lines) if line == "  PRIMARY KEY (`sid`)"]
    each = [f for f in lint(text, tmp_path) if f.rule == "uuid-primary-key"]
    assert [(f.schema, f.line, f.column) for f in each] == [(f"tenant_{n}", keys[n], 3) for n in range(6)]
    path = tmp_path / "tenants.sql"
    path.write_text(text)
    grouped = [f for f in lint_paths([str(path)], CheckContext(tenant_schema_pattern=r"tenant_\d+")).findings
               if f.rule == "uuid-primary-key"]
    assert [(f.count, f.line, f.column) for f in grouped] == [(6, keys[0], 3)]
    from linter.server.replay import Replayer
    from linter.parse.statement import parse_statement
    from linter.parse.elements import Location

    replayer = Replayer()
    statement = "CREATE TABLE `sessions` (\n  `sid` char(36) NOT NULL,\n  PRIMARY KEY (`sid`)\n)"
    op = parse_statement(statement)
    for n, line in enumerate((10, 110)):
        replayer.apply(parse_statement(f"CREATE DATABASE d{n}"), Location("t.sql", line - 1))
        replayer.apply(parse_statement(f"USE d{n}"), Location("t.sql", line - 1))
        replayer.apply(op, Location("t.sql", line))
    first, second = (replayer.model.find_table(f"d{n}", "sessions") for n in range(2))
    assert first is not None and second is not None
    assert first.body.columns is second.body.columns or first.primary_key == second.primary_key
    assert first.place(first.primary_key).line == 12 and second.place(second.primary_key).line == 112  # type: ignore[arg-type]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_key_rules_point_at_the_key(tmp_path: Path, layout: str) -> None:
    """wide-primary-key at the PRIMARY KEY, index-key-length (MariaDB cuts a long plain key to a
    prefix) at the key it cuts, reserved-word at the column."""
    tables = [("codes", ["code VARCHAR(255) NOT NULL", "a INT", "b INT", "`offset` INT", "PRIMARY KEY (code)",
                         "KEY by_a (a)", "KEY by_b (b)"], "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"),
              ("notes", ["id INT NOT NULL", "body VARCHAR(2000)", "PRIMARY KEY (id)", "KEY by_body (body)"],
               "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4")]
    text = "".join(LAYOUTS[layout](name, elements, options) for name, elements, options in tables)
    found = {f.rule: f for f in lint(text, tmp_path, target="mariadb-10.11")}
    for rule, table, element in [("wide-primary-key", "codes", "PRIMARY KEY (code)"),
                                 ("index-key-length", "notes", "KEY by_body"),
                                 ("reserved-word", "codes", "`offset` INT")]:
        assert (found[rule].line, found[rule].column) == place_of(text, table, element), (rule, layout)
