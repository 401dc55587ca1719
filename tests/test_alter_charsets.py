"""Character sets through ALTER TABLE and ALTER DATABASE (linter/server/alter_charsets.py), judged
by MariaDB 10.11: generated scripts of tables with text columns of every kind (their own character
set or collation or none, keyed or not, in three engines), then new table defaults, CONVERT TO
CHARACTER SET (to a wider, a narrower, the same, the database's and the binary character set),
columns added and redefined in the same statement, and ALTER DATABASE before tables are made.
Each column's type and character set, each key's parts and prefixes, and the statements refused
must be the server's (tests/differential.py compares them)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests import differential as D

_TYPES = ("VARCHAR(10)", "VARCHAR(191)", "VARCHAR(255)", "VARCHAR(700)", "VARCHAR(1000)", "CHAR(20)", "TINYTEXT",
          "TEXT", "MEDIUMTEXT", "ENUM('a','b')", "JSON", "INT", "TEXT(100)", "VARCHAR(20000)", "TEXT(0)", "TEXT(70)",
          "TEXT(70000)", "BLOB(300)", "TINYBLOB", "CHAR(255)", "VARBINARY(300)")
_OWN = ("", "", "", " CHARACTER SET latin1", " CHARSET utf8mb4", " COLLATE latin1_bin", " CHARSET utf8 COLLATE utf8_bin",
        " BINARY")
_DEFAULTS = ("", " DEFAULT CHARSET=latin1", " CHARSET utf8mb4", " CHARACTER SET utf8mb3", " COLLATE=utf8mb4_bin",
             " CHARSET binary")
_ENGINES = ("InnoDB", "InnoDB", "MyISAM", "Aria")
_CHANGES = (
    "DEFAULT CHARSET=utf8mb4", "CHARACTER SET latin1", "COLLATE utf8mb4_unicode_ci", "DEFAULT CHARSET utf8mb3 COLLATE utf8mb3_bin",
    "CONVERT TO CHARACTER SET utf8mb4", "CONVERT TO CHARACTER SET latin1", "CONVERT TO CHARSET utf8",
    "CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", "CONVERT TO CHARACTER SET DEFAULT",
    "CONVERT TO CHARACTER SET binary", "CONVERT TO CHARACTER SET utf8mb4, DEFAULT CHARSET latin1",
    "DEFAULT CHARSET utf8mb4, CONVERT TO CHARACTER SET utf8mb3",
)


def _column(rng: random.Random, name: str) -> str:
    kind = rng.choice(_TYPES)
    own = rng.choice(_OWN) if kind not in ("INT", "JSON") and "BIN" not in kind and "BLOB" not in kind else ""
    return f"{name} {kind}{own}"


def _key(rng: random.Random, names: list[str]) -> str:
    first = rng.choice(names)
    kind = rng.choice(("KEY", "KEY", "UNIQUE KEY"))
    prefix = rng.choice(("", "", "(100)"))
    parts = [f"{first}{prefix}"] + ([rng.choice(names)] if rng.random() < 0.3 else [])
    return f"{kind} ({', '.join(dict.fromkeys(parts))})"


def script(seed: int) -> str:
    """One script: tables, then changes of their character sets."""
    rng = random.Random(seed)
    lines = ["CREATE DATABASE IF NOT EXISTS {main};", "USE {main};"]
    tables: dict[str, list[str]] = {}
    for n in range(rng.randint(1, 3)):
        if rng.random() < 0.25:
            lines.append(f"ALTER DATABASE {rng.choice(('{main} ', ''))}{rng.choice(('CHARACTER SET utf8mb4', 'COLLATE latin1_bin', 'DEFAULT CHARSET utf8mb3'))};")
        names = [f"c{i}" for i in range(rng.randint(1, 4))]
        columns = [_column(rng, name) for name in names]
        keys = [_key(rng, names) for _ in range(rng.randint(0, 2))]
        table = f"t{n}"
        tables[table] = names
        lines.append(f"CREATE TABLE {table} ({', '.join(columns + keys)}) ENGINE={rng.choice(_ENGINES)}"
                     f"{rng.choice(_DEFAULTS)};")
    for _ in range(rng.randint(1, 4)):
        table = rng.choice(list(tables))
        actions = [rng.choice(_CHANGES)]
        roll = rng.random()
        if roll < 0.25:
            actions.append(f"ADD {_column(rng, 'n' + str(len(tables[table])))}")
            tables[table].append("n" + str(len(tables[table])))
        elif roll < 0.45:
            actions.append(f"MODIFY {_column(rng, rng.choice(tables[table]))}")
        elif roll < 0.55:
            actions.append(f"ENGINE={rng.choice(_ENGINES)}")
        elif roll < 0.7:  # a column only renamed or given a default keeps its character set (fuzz seed 364)
            column = rng.choice(tables[table])
            if rng.random() < 0.5:
                actions.append(f"ALTER {column} SET DEFAULT NULL")
            else:
                renamed = column + "r"
                actions.append(f"RENAME COLUMN {column} TO {renamed}")
                tables[table][tables[table].index(column)] = renamed
        if rng.random() < 0.3:
            actions.append(f"ADD {_key(rng, tables[table])}")
        rng.shuffle(actions)
        lines.append(f"ALTER TABLE {table} {', '.join(actions)};")
        if rng.random() < 0.2:
            lines.append(f"ALTER DATABASE {rng.choice(('{main} ', ''))}{rng.choice(('CHARSET latin1', 'CHARACTER SET utf8mb4', 'CHARSET binary'))};")
            lines.append(f"CREATE TABLE after{len(lines)} ({_column(rng, 'a')}, {_column(rng, 'b')});")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def sides(mariadb: Any) -> Iterator[tuple[D.ServerRunner, D.InnolintRunner]]:
    with D.judging_sides(mariadb, "cs") as pair:
        yield pair


@pytest.mark.parametrize("block", range(3))
def test_charset_changes_as_mariadb_makes_them(sides: tuple[D.ServerRunner, D.InnolintRunner], block: int) -> None:
    server, lint = sides
    wrong = []
    refused = 0
    for seed in range(block * 40, block * 40 + 40):
        text = script(seed)
        judged = D.judge(server, lint, text)
        refused += len(judged.refused)
        if not judged.faithful():
            wrong.append(f"--- seed {seed}\n{text}{judged}")
    assert not wrong, f"{len(wrong)} of 40 scripts differ from the server:\n" + "\n".join(wrong[:5])
    assert refused > 0  # (the scripts do meet what the server refuses: 1074, 1071, 4169 ...)


@pytest.mark.parametrize("text, charset, collation", [
    ("ALTER DATABASE d CHARACTER SET utf8mb4", "utf8mb4", None),
    ("ALTER SCHEMA DEFAULT COLLATE = latin1_bin", None, "latin1_bin"),
    ("alter database `D` default character set = 'latin1' collate latin1_bin", "latin1", "latin1_bin"),
])
def test_alter_database_is_read(text: str, charset: str | None, collation: str | None) -> None:
    from linter.parse import ops
    from linter.parse.cache import ParseCache

    op = ParseCache().parse(text)
    assert isinstance(op, ops.SchemaStatement) and op.action == "alter"
    assert (op.charset, op.collation) == (charset, collation)


def test_create_like_in_another_database_keeps_the_sources_default(sides: tuple[D.ServerRunner, D.InnolintRunner]) -> None:
    """CREATE TABLE ... LIKE copies the table's default character set as the source holds it (its
    own database's), not the new database's (fuzz seed 354)."""
    server, lint = sides
    text = ("CREATE DATABASE IF NOT EXISTS {main};\nUSE {main};\nALTER DATABASE {other} CHARACTER SET utf8mb4;\n"
            "CREATE TABLE {other}.t4 (e CHAR(4) NOT NULL, f TEXT);\nCREATE TABLE t4 LIKE {other}.t4;\n"
            "CREATE TABLE t5 (e CHAR(4)) CHARSET utf8mb3;\nCREATE TABLE {other}.t5 LIKE t5;\n"
            "CREATE TABLE t6 (e CHAR(4));\nCREATE TABLE {other}.t6 LIKE t6;\nALTER DATABASE {main} CHARSET utf8mb3;\n"
            "CREATE TABLE t7 LIKE t6;\nCREATE TABLE {other}.t7 LIKE {other}.t6;\n")
    judged = D.judge(server, lint, text)
    assert judged.faithful(), str(judged)


@pytest.mark.parametrize("move", ["RENAME TABLE {a} TO {b}", "ALTER TABLE {a} RENAME TO {b}",
                                  "RENAME TABLE {a} TO x_tmp, x_tmp TO {b}"])
def test_a_table_moved_to_another_database_keeps_its_default(sides: tuple[D.ServerRunner, D.InnolintRunner],
                                                             move: str) -> None:
    """A table keeps the default character set it was made with (the server wrote it on the table)
    when RENAME TABLE or ALTER TABLE ... RENAME moves it to a database whose default differs, its
    columns too, and the columns added later take it (fuzz seed 369)."""
    server, lint = sides
    lines = ["CREATE DATABASE IF NOT EXISTS {main};", "USE {main};", "ALTER SCHEMA COLLATE utf8mb4_bin;",
             "CREATE TABLE m1 (c TEXT NOT NULL, d VARCHAR(8));", "CREATE TABLE {other}.o1 (id INT, e CHAR(3));",
             "CREATE TABLE m2 (c TEXT) CHARSET utf8mb3;",
             move.format(a="m1", b="{other}.m1") + ";", move.format(a="{other}.o1", b="o1") + ";",
             move.format(a="m2", b="{other}.m2") + ";",
             "ALTER TABLE {other}.m1 ADD f VARCHAR(4);", "ALTER TABLE o1 ADD g TEXT;"]
    judged = D.judge(server, lint, "\n".join(lines) + "\n")
    assert judged.faithful(), str(judged)
