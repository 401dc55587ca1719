"""Blame: every finding sits at the statement that caused it (issue 15).

For each registered rule, a migration history where migration 1 creates a clean schema and a
later migration (an ALTER, CREATE INDEX, DROP ...) causes the finding. The finding must be located
at that later statement, and `innolint check --changed-only` limited to that migration must report
it, limited to migration 1 must not (pre-commit on the offending migration is where it is seen).

A rule that no later statement can cause is listed in NO_LATER_CAUSE with the reason; a rule that
is in neither table fails `test_every_rule_is_covered`, so a new rule must come with its history.
Histories are written in three layouts (flyway V<n>__, numbered files, Rails-style timestamps) so
the order is the migration tool's, not the file system's.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from checks import ALL_CHECKS
from linter.rules.checkapi import CheckContext
from linter.engine import RunOptions, lint_paths
from linter.rules.findings import Finding
from linter.schema.target import Target


class Cause(NamedTuple):
    """A history: `clean` (migration 1) has no finding of the rule; `cause` (migration 2, its
    first statement the one to blame) makes one. `target`: the server the run assumes."""

    clean: str
    cause: str
    target: str = "mysql-8.0"


ENTITIES = (
    "CREATE TABLE users (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100)) ENGINE=InnoDB;\n"
    "CREATE TABLE teams (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100)) ENGINE=InnoDB;\n"
)
TENANTS = ("acme", "globex", "initech")


def _tenants(clause: str) -> str:
    return "".join(
        f"CREATE DATABASE {t};\nCREATE TABLE {t}.orders (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, total INT) "
        f"{clause.format(t=t)}ENGINE=InnoDB;\nCREATE TABLE {t}.users (id BIGINT NOT NULL PRIMARY KEY, email VARCHAR(100)) "
        f"{clause.format(t=t)}ENGINE=InnoDB;\n"
        for t in TENANTS
    )


def _tablespaces() -> str:
    return "".join(f"CREATE TABLESPACE {t} ADD DATAFILE '{t}.ibd' ENGINE=InnoDB;\n" for t in TENANTS)


#: rule -> histories whose second migration causes a finding of the rule (several where the
#: cause can take several forms)
CAUSES: dict[str, list[Cause]] = {
    "no-primary-key": [
        Cause("CREATE TABLE t (id INT NOT NULL, v INT, PRIMARY KEY (id)) ENGINE=InnoDB;\n",
              "ALTER TABLE t DROP PRIMARY KEY;\n"),
        Cause("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v INT) ENGINE=InnoDB;\n",
              "ALTER TABLE t DROP PRIMARY KEY, ADD COLUMN w INT;\n"),
        # dropping the key's only column drops the key
        Cause("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v INT) ENGINE=InnoDB;\n", "ALTER TABLE t DROP COLUMN id;\n"),
    ],
    "uuid-primary-key": [
        Cause("CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=InnoDB;\n",
              "ALTER TABLE t DROP PRIMARY KEY, MODIFY id BIGINT NOT NULL, "
              "ADD COLUMN uuid CHAR(36) NOT NULL DEFAULT (UUID()), ADD PRIMARY KEY (uuid);\n"),
        Cause("CREATE TABLE t (a INT NOT NULL, b INT NOT NULL, guid CHAR(36) NOT NULL, PRIMARY KEY (a, b)) ENGINE=InnoDB;\n",
              "ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (guid);\n"),
    ],
    "link-table-primary-key": [
        Cause(ENTITIES + "CREATE TABLE user_team (user_id INT UNSIGNED NOT NULL, team_id INT UNSIGNED NOT NULL, "
                         "PRIMARY KEY (user_id, team_id), FOREIGN KEY (user_id) REFERENCES users (id), "
                         "FOREIGN KEY (team_id) REFERENCES teams (id)) ENGINE=InnoDB;\n",
              "ALTER TABLE user_team DROP PRIMARY KEY, ADD COLUMN id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST, "
              "ADD UNIQUE KEY pair (user_id, team_id);\n"),
        # the ADD COLUMN that made a one-sided table a link table
        Cause(ENTITIES + "CREATE TABLE membership (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, "
                         "user_id INT UNSIGNED NOT NULL, FOREIGN KEY (user_id) REFERENCES users (id)) ENGINE=InnoDB;\n",
              "ALTER TABLE membership ADD COLUMN team_id INT UNSIGNED NOT NULL, "
              "ADD FOREIGN KEY (team_id) REFERENCES teams (id);\n"),
    ],
    "tenant-tablespace": [
        Cause(_tablespaces() + _tenants("TABLESPACE {t} "),
              "".join(f"CREATE TABLE {t}.invoices (id BIGINT NOT NULL PRIMARY KEY, total INT) ENGINE=InnoDB;\n"
                      for t in TENANTS)),
    ],
    "cross-tenant-tablespace": [
        Cause(_tablespaces() + _tenants("TABLESPACE {t} "), "ALTER TABLE globex.orders TABLESPACE acme;\n"),
    ],
    "undefined-tablespace": [
        Cause("CREATE TABLE a (id INT PRIMARY KEY) ENGINE=InnoDB;\n", "ALTER TABLE a TABLESPACE ts_a;\n"),
    ],
    "compression-candidate": [
        Cause("CREATE TABLE article (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, title VARCHAR(200)) ENGINE=InnoDB;\n",
              "ALTER TABLE article ADD COLUMN body LONGTEXT NOT NULL, ADD COLUMN payload JSON;\n"),
    ],
    "redundant-index": [
        Cause("CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY ab (a, b)) ENGINE=InnoDB;\n",
              "CREATE INDEX a_only ON t (a);\n"),
        Cause("CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY a_only (a)) ENGINE=InnoDB;\n",
              "ALTER TABLE t ADD KEY ab (a, b);\n"),
    ],
    "wide-primary-key": [
        Cause("CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, email VARCHAR(255) NOT NULL, a INT, b INT, "
              "KEY (a), KEY (b)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n",
              "ALTER TABLE t DROP PRIMARY KEY, MODIFY id BIGINT NOT NULL, ADD PRIMARY KEY (email);\n"),
    ],
    "auto-increment-capacity": [
        Cause("CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=InnoDB AUTO_INCREMENT=120;\n",
              "ALTER TABLE t MODIFY id TINYINT NOT NULL AUTO_INCREMENT;\n"),
        Cause("CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=InnoDB;\n",
              "ALTER TABLE t AUTO_INCREMENT = 2000000000;\n"),
    ],
    "foreign-key-mismatch": [
        Cause("CREATE TABLE p (id BIGINT UNSIGNED NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n"
              "CREATE TABLE c (id INT PRIMARY KEY, pid INT, KEY (pid)) ENGINE=InnoDB;\n",
              "ALTER TABLE c ADD CONSTRAINT c_p FOREIGN KEY (pid) REFERENCES p (id);\n"),
    ],
    "row-size-limit": [
        Cause("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10)) ENGINE=InnoDB DEFAULT CHARSET=latin1;\n",
              "ALTER TABLE t " + ", ".join(f"ADD COLUMN c{n} CHAR(255)" for n in range(40)) + ";\n"),
    ],
    "index-key-length": [
        Cause("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(1000)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n",
              "CREATE INDEX v ON t (v);\n"),
    ],
    "zero-date-default": [
        Cause("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB;\n",
              "ALTER TABLE t ADD COLUMN d DATETIME NOT NULL DEFAULT '0000-00-00 00:00:00';\n"),
    ],
    "charset-portability": [
        Cause("CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(10)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n",
              "ALTER TABLE t MODIFY s VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci;\n",
              target="mariadb-10.11"),
    ],
    "non-innodb-engine": [
        Cause("CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;\n"
              "CREATE TABLE u (id INT PRIMARY KEY) ENGINE=InnoDB;\n", "ALTER TABLE t ENGINE=MyISAM;\n"),
    ],
    "reserved-word": [
        Cause("CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;\n", "ALTER TABLE t ADD COLUMN rank INT;\n"),
        Cause("CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;\n", "ALTER TABLE t CHANGE v `lead` INT;\n"),
        Cause("CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;\n", "ALTER TABLE t ADD COLUMN offset INT;\n",
              target="mariadb-10.11"),
    ],
}

CAUSES.update({
    "refused-ddl": [
        Cause("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v INT) ENGINE=InnoDB;\n", "ALTER TABLE t ADD COLUMN v INT;\n"),
        Cause("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v INT) ENGINE=InnoDB;\n", "ALTER TABLE t DROP COLUMN w;\n",
              target="mariadb-10.11"),
    ],
    "blocking-alter": [
        Cause("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v INT) ENGINE=InnoDB;\n", "ALTER TABLE t MODIFY v BIGINT;\n"),
        Cause("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(20)) ENGINE=InnoDB;\n",
              "ALTER TABLE t ADD FULLTEXT KEY ft (v);\n", target="mariadb-10.11"),
    ],
    "destructive-change": [
        Cause("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v INT) ENGINE=InnoDB;\n", "ALTER TABLE t DROP COLUMN v;\n"),
        Cause("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(200)) ENGINE=InnoDB;\n",
              "ALTER TABLE t MODIFY v VARCHAR(20);\n"),
    ],
})

#: rules no later statement of a history can cause, and why
NO_LATER_CAUSE: dict[str, str] = {
    "edited-migration": "it is about a file git holds at the ref and the change edits, not a statement's effect "
                        "(tests/test_edited_migration.py points at the file and the first line the change touches)",
}

LAYOUTS = {
    "flyway": ("V1__init.sql", "V2__change.sql"),
    "numbered": ("001_init.sql", "002_change.sql"),
    "rails": ("20240101000000_init.sql", "20240202000000_change.sql"),
}


def test_every_rule_is_covered() -> None:
    """A new rule fails here until it has a history in CAUSES or a reason in NO_LATER_CAUSE."""
    rules = {check.id for check in ALL_CHECKS}
    assert rules - set(CAUSES) - set(NO_LATER_CAUSE) == set()
    assert set(CAUSES) | set(NO_LATER_CAUSE) <= rules
    assert not set(CAUSES) & set(NO_LATER_CAUSE)


def _history(tmp_path: Path, layout: str, cause: Cause) -> tuple[Path, Path]:
    directory = tmp_path / "migrations"
    directory.mkdir()
    first, second = (directory / name for name in LAYOUTS[layout])
    first.write_text(cause.clean, encoding="utf-8")
    second.write_text("-- the change\n" + cause.cause, encoding="utf-8")
    return first, second


def _run(paths: list[Path], rule: str, target: str, *, changed_only: bool) -> list[Finding]:
    report = lint_paths([str(p) for p in paths], CheckContext(target=Target.parse(target)),
                        options=RunOptions(changed_only=changed_only))
    return [f for f in report.findings if f.rule == rule]


CASES = [(rule, n, layout) for rule, causes in CAUSES.items() for n in range(len(causes)) for layout in LAYOUTS]


@pytest.mark.parametrize(("rule", "n", "layout"), CASES, ids=[f"{r}-{n}-{lay}" for r, n, lay in CASES])
def test_the_finding_is_at_the_statement_that_caused_it(tmp_path: Path, rule: str, n: int, layout: str) -> None:
    cause = CAUSES[rule][n]
    first, second = _history(tmp_path, layout, cause)
    # migration 1 alone is clean: the finding is the change's doing
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / first.name).write_text(cause.clean, encoding="utf-8")
    assert _run([alone], rule, cause.target, changed_only=False) == []
    found = _run([first.parent], rule, cause.target, changed_only=False)
    assert found, f"{rule}: the history gives no finding"
    for finding in found:
        assert (Path(finding.path).name, finding.line) == (second.name, 2), finding.message
    changed = _run([second], rule, cause.target, changed_only=True)
    assert changed and {(Path(f.path).name, f.line) for f in changed} == {(second.name, 2)}
    assert _run([first], rule, cause.target, changed_only=True) == []


#: rules whose finding is about the whole table as it is now, so that any later ALTER of it may be
#: the cause (a column added makes the row longer): the unrelated-ALTER test leaves them out
WHOLE_TABLE: dict[str, str] = {
    "row-size-limit": "every column counts toward the row size: the table's last ALTER may be what made it too long",
    "charset-portability": "the table's character set and each column's count: its last ALTER in a later file is "
                           "where the finding goes (linter/rules/scope.py)",
}
LATER = [(rule, n) for rule, causes in CAUSES.items() if rule not in WHOLE_TABLE for n in range(len(causes))]


@pytest.mark.parametrize(("rule", "n"), LATER, ids=[f"{r}-{n}" for r, n in LATER])
def test_a_later_unrelated_change_does_not_take_the_blame(tmp_path: Path, rule: str, n: int) -> None:
    """Migration 3 changes something else (a new table, a comment on every table the change
    touched): the finding stays with migration 2, and `--changed-only` on migration 3 reports nothing."""
    cause = CAUSES[rule][n]
    first, second = _history(tmp_path, "flyway", cause)
    touched = sorted({word.strip("`;(") for line in cause.cause.splitlines()
                      for word in line.split()[2:3] if line.upper().startswith("ALTER TABLE")})
    third = first.parent / "V3__other.sql"
    third.write_text("CREATE TABLE unrelated_v3 (id INT PRIMARY KEY);\n"
                     + "".join(f"ALTER TABLE {name} COMMENT 'checked';\n" for name in touched), encoding="utf-8")
    found = _run([first.parent], rule, cause.target, changed_only=False)
    assert found and {(Path(f.path).name, f.line) for f in found} == {(second.name, 2)}
    assert _run([third], rule, cause.target, changed_only=True) == []
