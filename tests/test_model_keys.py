"""Keys the server builds otherwise than written, class by class (issue 14's differential classes
identical-keys-merged, blob-key-without-length, prefix-after-column-change and
alter-reads-the-original-table), each with seeded variations loaded into the test MariaDB and
replayed by innolint: the tables (columns, keys with names and prefixes, the clustered index) must
be the server's, a statement the server refuses must be reported at its line, and one it accepts
must not be (tests/test_model_oracle.py's judge).

What the server answered (MariaDB 10.11):
- one key per column from its own attributes: `a INT UNIQUE UNIQUE` and `f SERIAL UNIQUE` are one
  UNIQUE key, `a INT PRIMARY KEY UNIQUE` the PRIMARY KEY alone; `UNIQUE (a)` written apart is a
  key of its own (`a`, `a_2`) (linter.parse.columns._one_key_per_column);
- a non-unique KEY part longer than the engine takes is cut to a prefix (TEXT `KEY (t)`: t(3072)
  latin1, t(768) utf8mb4, t(1024) utf8mb3, t(1536) ucs2; TINYTEXT t(255); MyISAM 1000 bytes,
  Aria 2300; a VARCHAR(1000) utf8mb4 a(768); a prefix written longer, too), also by ADD KEY,
  CREATE INDEX and a MODIFY of a keyed column (linter.server.key_parts);
- a "prefix" as long as a fixed-size value (`INT` 4, `BIGINT` 8, `DATE` 3, `DECIMAL(10,2)` 5) is
  accepted and no prefix; any other is 1089;
- one ALTER's key actions are read against the table as it was, its adds appended after its drops
  and renames (linter.server.alter_keys).
MySQL cuts no key part: the model keeps the key as written there, and index-key-length reports
the server's refusal (1170) (`test_mysql_keeps_the_key_as_written`).
"""

from __future__ import annotations

import pytest

from tests.mariadb import MariaDB
from tests.test_model_oracle import Case, Gen, Outcome, generate_cases, judge_cases

VARIATIONS = 12
SEED = 14_140

NAMES = ("a", "b2", "Item_Id", "status", "`order`", "value", "col_x", "data")
TABLES = ("t", "Orders", "link_x", "`select`")


def _names(g: Gen, k: int) -> list[str]:
    return g.rng.sample(list(NAMES), k)


def column_keys(g: Gen) -> Case:
    """A column's own key attributes, repeated or mixed, with keys written apart beside them."""
    t, (a, b) = g.pick(TABLES), _names(g, 2)
    attributes = g.pick(("UNIQUE UNIQUE", "UNIQUE KEY UNIQUE", "PRIMARY KEY UNIQUE", "UNIQUE PRIMARY KEY",
                         "KEY UNIQUE", "UNIQUE", "NOT NULL UNIQUE UNIQUE KEY"))
    serial = g.chance(0.4)
    definition = f"{a} SERIAL {'UNIQUE' if g.chance(0.6) else attributes}" if serial else f"{a} INT {attributes}"
    apart = [f"UNIQUE ({a})", f"KEY ({a})", f"UNIQUE KEY u_{g.rng.randrange(9)} ({a})"]
    cols = g.shuffled([definition, f"{b} INT"] + g.fillers())
    if g.chance(0.5):
        cols.append(g.pick(apart))
    if g.chance(0.3):
        return Case("column-keys", [f"CREATE TABLE {t} ({b} INT)", f"ALTER TABLE {t} ADD COLUMN {definition}"])
    return Case("column-keys", [f"CREATE TABLE {t} ({', '.join(cols)})"])


LONG_TYPES = ("TEXT", "BLOB", "MEDIUMTEXT", "LONGBLOB", "TINYTEXT", "TINYBLOB", "JSON", "VARCHAR(1000)",
              "VARCHAR(3100)", "VARBINARY(4000)", "GEOMETRY", "POINT")
CHARSETS = ("", " CHARACTER SET utf8mb4", " CHARACTER SET utf8mb3", " CHARACTER SET ucs2", " CHARACTER SET latin1")
ENGINES = ("", " ENGINE=InnoDB", " ENGINE=MyISAM", " ENGINE=Aria", " DEFAULT CHARSET=utf8mb4")


def long_key_parts(g: Gen) -> Case:
    """A non-unique key on a long column (whole, or a prefix written too long), made by CREATE
    TABLE, ADD KEY, CREATE INDEX, by redefining a keyed column or by a change of engine, in several
    charsets and engines."""
    t, (a, b) = g.pick(TABLES), _names(g, 2)
    kind = g.pick(LONG_TYPES)
    text = kind.startswith(("TEXT", "MEDIUMTEXT", "TINYTEXT", "VARCHAR"))
    charset = g.pick(CHARSETS) if text else ""
    engine = g.pick(ENGINES) if kind not in ("GEOMETRY", "POINT") else ""
    part = f"{a}({g.pick(('900', '2000', '5000'))})" if kind.endswith("TEXT") and g.chance(0.3) else a
    column = f"{a} {kind}{charset} NOT NULL"
    key = f"KEY {g.pick(('ix', 'k_' + b, ''))} ({part})".replace("  ", " ")
    how = g.rng.randrange(5)
    cols = g.shuffled([column, f"{b} INT"] + g.fillers())
    if how == 4 and kind not in ("GEOMETRY", "POINT"):  # the new engine's limits
        return Case("long-key-parts", [f"CREATE TABLE {t} ({', '.join(cols + [key])}){engine}",
                                       f"ALTER TABLE {t} {g.pick(('ENGINE=Aria', 'ENGINE=MyISAM', 'ENGINE=InnoDB'))}"])
    if how == 0:
        return Case("long-key-parts", [f"CREATE TABLE {t} ({', '.join(cols + [key])}){engine}"])
    if how == 1:
        return Case("long-key-parts", [f"CREATE TABLE {t} ({', '.join(cols)}){engine}", f"ALTER TABLE {t} ADD {key}"])
    if how == 2:
        return Case("long-key-parts", [f"CREATE TABLE {t} ({', '.join(cols)}){engine}",
                                       f"CREATE INDEX ix_{g.rng.randrange(9)} ON {t} ({part})"])
    short = f"{a} VARCHAR({g.rng.randrange(5, 60)}) NOT NULL"
    return Case("long-key-parts", [f"CREATE TABLE {t} ({short}, {b} INT, KEY ({a})){engine}",
                                   f"ALTER TABLE {t} MODIFY {column}"])


FIXED = (("INT", 4), ("BIGINT", 8), ("SMALLINT UNSIGNED", 2), ("TINYINT", 1), ("MEDIUMINT", 3), ("DATE", 3),
         ("DATETIME", 5), ("TIMESTAMP", 4), ("YEAR", 1), ("DECIMAL(10,2)", 5), ("DOUBLE", 8), ("ENUM('x','y')", 1))


def fixed_size_prefix(g: Gen) -> Case:
    """`KEY (a(n))` on a fixed-size type: n the value's bytes is no prefix; another n is 1089."""
    t, (a, b) = g.pick(TABLES), _names(g, 2)
    kind, size = g.pick(FIXED)
    n = size if g.chance(0.8) else size + 1
    primary = g.pick(("", " KEY", " PRIMARY KEY", " UNIQUE", " NOT NULL"))
    key = f"KEY ix_{b.strip('`')} ({a}({n}){', ' + b if g.chance(0.4) else ''})"
    cols = g.shuffled([f"{a} {kind}{primary}", f"{b} VARCHAR(20)"] + g.fillers())
    if g.chance(0.6):
        return Case("fixed-size-prefix", [f"CREATE TABLE {t} ({', '.join(cols + [key])})"])
    return Case("fixed-size-prefix", [f"CREATE TABLE {t} ({', '.join(cols)})", f"ALTER TABLE {t} ADD {key}"])


def alter_key_order(g: Gen) -> Case:
    """One ALTER's key actions in any order: ADD / DROP / RENAME KEY on names the table has or the
    statement gives, ADD / DROP PRIMARY KEY, unnamed keys named after the drops."""
    t = g.pick(TABLES)
    a, b, c = _names(g, 3)
    old = ["ka", "kb", f"`{a.strip('`')}`"]
    create = f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT NOT NULL, {c} INT, KEY ka ({a}), KEY kb ({b}), " \
             f"KEY {a} ({c}){', PRIMARY KEY (' + a + ')' if g.chance(0.5) else ''})"
    names = old + ["kc", "kd"]
    pool = [
        lambda: f"ADD KEY {g.pick(names)} ({g.pick((a, b, c))})",
        lambda: f"ADD KEY ({g.pick((a, b, c))})",
        lambda: f"DROP KEY {g.pick(names)}",
        lambda: f"RENAME KEY {g.pick(names)} TO {g.pick(names)}",
        lambda: f"ADD PRIMARY KEY ({g.pick((a, b))})",
        lambda: "DROP PRIMARY KEY",
        lambda: f"ADD UNIQUE {g.pick(names)} ({g.pick((a, b, c))})",
        lambda: f"ADD KEY IF NOT EXISTS {g.pick(names)} ({g.pick((a, b))})",
    ]
    named = g.pick(names)
    # a pair whose outcome depends on reading the table as it was (added before dropped or renamed)
    pairs = [
        [f"ADD KEY {named} ({g.pick((a, b, c))})", f"DROP KEY {named}"],
        [f"ADD KEY ({a})", f"DROP KEY {old[2]}"],
        [f"ADD PRIMARY KEY ({g.pick((a, b))})", "DROP PRIMARY KEY"],
        [f"RENAME KEY ka TO {named}", f"RENAME KEY {named} TO kd"],
        [f"ADD KEY ({b})", f"RENAME KEY ka TO {b}"],
        ["RENAME KEY ka TO kb", "DROP KEY kb"],
        [f"ADD UNIQUE kb ({c})", "DROP KEY kb"],
    ]
    actions = g.pick(pairs) + [g.pick(pool)() for _ in range(g.rng.randrange(0, 2))]
    if g.chance(0.3):
        actions = g.shuffled(actions)
    return Case("alter-key-order", [create, f"ALTER TABLE {t} {', '.join(actions)}"])


def alter_column_names(g: Gen) -> Case:
    """A keyed column changed or renamed away from its name while a column of that name is added,
    before or after it (FIRST / AFTER / last): the key goes to the first of them in the new table."""
    t = g.pick(TABLES)
    a, b, c = _names(g, 3)
    kind = g.pick(("INT", "BIGINT", "VARCHAR(10)"))
    create = f"CREATE TABLE {t} ({a} INT NOT NULL, {b} {kind}, {c} INT, {g.pick(('UNIQUE', 'KEY k'))} ({b}, {c}))"
    away = g.pick((f"CHANGE {b} x_{c.strip('`')} {kind}", f"RENAME COLUMN {b} TO y_1", f"CHANGE {b} z {kind} FIRST"))
    where = g.pick(("", " FIRST", f" AFTER {a}", f" AFTER {c}"))
    add = f"ADD COLUMN {b} {kind}{where}"
    actions = [away, add] if g.chance(0.6) else [add, away]
    return Case("alter-column-names", [create, f"ALTER TABLE {t} {', '.join(actions)}"])


CLASSES = (column_keys, long_key_parts, fixed_size_prefix, alter_key_order, alter_column_names)


def generate() -> list[Case]:
    return generate_cases(CLASSES, VARIATIONS, SEED, noise=0.4)


@pytest.fixture(scope="module")
def outcomes(mariadb: MariaDB) -> list[Outcome]:
    return judge_cases(mariadb, generate(), "mk", spatial_prefixes=True)


@pytest.mark.parametrize("kind", [make.__name__.replace("_", "-") for make in CLASSES])
def test_the_model_is_the_servers(outcomes: list[Outcome], kind: str) -> None:
    mine = [o for o in outcomes if o.case.kind == kind]
    assert len(mine) == VARIATIONS
    assert len({o.text for o in mine}) >= VARIATIONS - 2, "the variations repeat themselves"
    failed = [f"--- {o.text}" + "\n".join(o.problems) for o in mine if o.problems]
    assert failed == [], "\n\n".join(failed)


def test_the_classes_reach_what_they_are_about(outcomes: list[Outcome]) -> None:
    """The variations meet the server's answers the classes are about: keys it accepted and cut or
    merged, refusals of a prefix on a fixed-size value (1089), of a key named twice (1061, 1068 or
    1176 in an ALTER)."""
    refused = {o.case.kind: set() for o in outcomes}
    for o in outcomes:
        refused[o.case.kind].update(o.refused)
    assert 1089 in refused["fixed-size-prefix"]
    assert refused["alter-key-order"] & {1061, 1068, 1176, 1091}
    accepted = [o for o in outcomes if o.case.kind == "alter-key-order" and not o.refused]
    assert len(accepted) >= 3


def _replay(text: str, target: str) -> object:
    from linter.parse.statement import parse_statement
    from linter.parse.elements import Location
    from linter.server.replay import Replayer
    from linter.schema.target import Target

    replayer = Replayer(target=Target.parse(target))
    for n, statement in enumerate(s for s in text.split(";") if s.strip()):
        assert replayer.apply(parse_statement(statement), Location("t.sql", n + 1)) is None
    return replayer.model


@pytest.mark.parametrize("definition, written, cut", [
    ("body TEXT, KEY (body)", None, 3072),
    ("body MEDIUMTEXT CHARACTER SET utf8mb4, KEY k (body)", None, 768),
    ("url VARCHAR(1000) CHARACTER SET utf8mb4, KEY (url)", None, 768),
    ("b BLOB, KEY (b(5000))", 5000, 3072),
])
def test_mysql_keeps_the_key_as_written(definition: str, written: int | None, cut: int) -> None:
    """MySQL (5.7, 8.0, 8.4) refuses a key part over the limit (1071) or a whole TEXT/BLOB (1170)
    under its default strict sql_mode and cuts nothing (MySQL 8.0 manual 15.1.15 "CREATE INDEX
    Statement": "prefixes ... must be specified for BLOB and TEXT key parts"; 17.22 "InnoDB
    Limits"): the model keeps the key as written for MySQL, and cuts it as MariaDB does for
    MariaDB; index-key-length judges the key as written on both (refused on MySQL, cut on MariaDB)."""
    from checks.index_key_length import IndexKeyLength
    from linter.rules.checkapi import CheckContext
    from linter.schema.target import Target

    for target, expected in (("mysql-8.0", written), ("mysql-8.4", written), ("mariadb-10.11", cut), ("mariadb-10.6", cut)):
        model = _replay(f"CREATE TABLE t ({definition})", target)
        table = next(iter(model.tables()))
        part = table.indexes[0].columns[0]
        assert part.prefix == expected, (target, definition)
        findings = list(IndexKeyLength().run(model, CheckContext(target=Target.parse(target))))
        assert len(findings) == 1, (target, findings)
        kind = "refused" if target.startswith("mysql") else "truncated"
        assert findings[0].subject.startswith(kind), (target, findings[0].subject)


def test_a_cut_key_is_cut_once_per_copy() -> None:
    """The parsed definition may be shared by many tables (a tenant dump): the cut is made on each
    table's own copy, never on the shared keys."""
    from linter.parse.statement import parse_statement
    from linter.parse.elements import Location
    from linter.server.replay import Replayer
    from linter.schema.target import Target

    replayer = Replayer(target=Target.parse("mariadb-10.11"))
    op = parse_statement("CREATE TABLE t (a TEXT, KEY (a))")
    for schema in ("s1", "s2"):
        replayer.apply(parse_statement(f"USE {schema}"), Location("t.sql", 1))
        replayer.apply(op, Location("t.sql", 2))
    assert op.body.indexes[0].columns[0].prefix is None
    assert [t.indexes[0].columns[0].prefix for t in replayer.model.tables()] == [3072, 3072]
