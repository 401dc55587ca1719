"""The model against InnoDB, class by class (issue 15): for each class of DDL where innolint's
model once parted from the server's, a generated set of CREATE/ALTER scripts (names, keyword
names, types, column order, keyword case and comments varied by a seeded generator) is loaded
into the test MariaDB and replayed by innolint. The server is the judge: innolint's tables
(engine, columns, keys with their names and prefixes, and the clustered index InnoDB chose) must
be the server's, and every statement must be understood where the server accepts it; where
innolint cannot tell what the server does, it must say so at that statement.

The comparison is tests/differential.py's (`ServerRunner` reads information_schema and InnoDB's
own SYS_INDEXES; `InnolintRunner` lints the same text). What the server answered where it
surprised us is written beside each class.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import pytest

from tests import differential as D
from tests.mariadb import MariaDB

#: scripts per class
VARIATIONS = 10
SEED = 15_000

#: column names: plain, mixed case, and keywords the server takes as names (sqlglot does not)
NAMES = ("a", "b2", "Item_Id", "exclude", "status", "period", "data", "`order`", "value", "col_x", "start", "end")
TABLES = ("t", "Orders", "link_x", "t_2", "`select`")
INTS = ("INT", "BIGINT", "SMALLINT UNSIGNED", "MEDIUMINT", "INT(11)", "TINYINT UNSIGNED", "INTEGER")


@dataclass
class Case:
    """One script: its statements, its class, and which statements innolint may answer with a
    diagnostic instead of a model (what it cannot tell; None: it must follow every one)."""

    kind: str
    statements: list[str]
    may_diagnose: set[int] = field(default_factory=set)
    noise: int = 0

    def text(self) -> tuple[str, list[tuple[int, int]]]:
        """The script, with comments and keyword case mixed in, and each statement's lines."""
        pieces: list[str] = []
        spans: list[tuple[int, int]] = []
        line = 1
        for n, statement in enumerate(self.statements):
            # (no line break before SYSTEM: the mysql client would read `system ...` as its shell command)
            noisy = self.noise and "SYSTEM" not in statement.upper()
            body = D.add_noise(statement, self.noise * 100 + n) if noisy else statement
            body += ";\n"
            spans.append((line, line + body.count("\n") - 1))
            line += body.count("\n")
            pieces.append(body)
        return "".join(pieces), spans


class Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, options: tuple[str, ...] | list[str]) -> str:
        return self.rng.choice(list(options))

    def names(self, k: int) -> list[str]:
        return self.rng.sample(list(NAMES), k)

    def table(self) -> str:
        return self.pick(TABLES)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def shuffled(self, items: list[str]) -> list[str]:
        items = list(items)
        self.rng.shuffle(items)
        return items

    def fillers(self) -> list[str]:
        """A few ordinary columns, to vary the column order around the ones a class is about."""
        return [f"f{n} {self.pick(('INT', 'VARCHAR(20)', 'DATE', 'TEXT'))}" for n in range(self.rng.randrange(0, 3))]


def _bare(name: str) -> str:
    return name.strip("`")


# --- the classes -----------------------------------------------------------------------------------


def auto_increment(g: Gen) -> Case:
    """AUTO_INCREMENT columns are NOT NULL on the server (`a INT NULL AUTO_INCREMENT` too), so a
    UNIQUE key on one clusters the table."""
    t, (a, b) = g.table(), g.names(2)
    null = g.pick(("", "NULL", ""))
    how = g.rng.randrange(3)
    if how == 0:
        cols = [f"{a} {g.pick(INTS)} {null} AUTO_INCREMENT", f"{b} INT"] + g.fillers()
        cols = g.shuffled(cols) + [f"UNIQUE {g.pick(('KEY', 'INDEX', ''))} ({a})"]
        return Case("auto-increment", [f"CREATE TABLE {t} ({', '.join(cols)})"])
    if how == 1:
        return Case("auto-increment", [f"CREATE TABLE {t} ({b} INT NOT NULL, {a} {g.pick(INTS)} {null} AUTO_INCREMENT UNIQUE)"])
    return Case("auto-increment", [
        f"CREATE TABLE {t} ({a} {g.pick(INTS)} NULL, {b} INT, UNIQUE KEY uk ({a}))",
        f"ALTER TABLE {t} MODIFY {a} BIGINT {null} AUTO_INCREMENT"])


def long_unique(g: Gen) -> Case:
    """A UNIQUE key on a whole TEXT/BLOB/JSON column is MariaDB's hash-based long unique (InnoDB
    keeps the row id, or clusters on a later UNIQUE that can); on a geometry column it is stored
    as a prefix key (the server showed `a(8)` on GEOMETRY, `a(25)` on POINT); a PRIMARY KEY on a
    whole TEXT is refused (1170)."""
    t, (a, b) = g.table(), g.names(2)
    large = g.pick(("TEXT", "BLOB", "MEDIUMTEXT", "LONGBLOB", "TINYTEXT", "JSON", "GEOMETRY", "POINT", "POLYGON"))
    later = f", {b} INT NOT NULL, UNIQUE ({b})" if g.chance(0.4) else ""
    how = g.rng.randrange(4)
    if how == 0:
        return Case("long-unique", [f"CREATE TABLE {t} ({a} {large} NOT NULL, UNIQUE KEY ({a}){later})"])
    if how == 1:
        return Case("long-unique", [f"CREATE TABLE {t} ({a} {large} NOT NULL UNIQUE{later})"])
    if how == 2:
        return Case("long-unique", [f"CREATE TABLE {t} ({a} {large} NOT NULL{later})",
                                    f"ALTER TABLE {t} ADD UNIQUE ({a})"])
    return Case("long-unique", [f"CREATE TABLE {t} ({a} {g.pick(('TEXT', 'BLOB', 'MEDIUMTEXT'))}, PRIMARY KEY ({a}))"])


def full_length_prefix(g: Gen) -> Case:
    """A key prefix as long as the column is no prefix: the server drops it, and the UNIQUE key
    clusters the table."""
    t, (a, b) = g.table(), g.names(2)
    n = g.rng.randrange(2, 40)
    kind = g.pick(("CHAR", "VARCHAR", "BINARY", "VARBINARY"))
    prefix = n if g.chance(0.75) else n - 1
    key = f"({a}({prefix}))" if g.chance(0.6) else f"({b}, {a}({prefix}))"
    cols = g.shuffled([f"{a} {kind}({n}) NOT NULL", f"{b} INT NOT NULL"] + g.fillers())
    how = g.rng.randrange(3)
    if how == 0:
        return Case("full-length-prefix", [f"CREATE TABLE {t} ({', '.join(cols)}, UNIQUE KEY {key})"])
    if how == 1:
        return Case("full-length-prefix", [f"CREATE TABLE {t} ({', '.join(cols)})", f"ALTER TABLE {t} ADD UNIQUE {key}"])
    return Case("full-length-prefix", [f"CREATE TABLE {t} ({', '.join(cols)})", f"CREATE UNIQUE INDEX ux ON {t} {key}"])


def drop_constraint_primary(g: Gen) -> Case:
    """ALTER TABLE ... DROP CONSTRAINT PRIMARY KEY drops the primary key (MariaDB)."""
    t, (a, b) = g.table(), g.names(2)
    unique = f", UNIQUE ({b})" if g.chance(0.5) else ""
    more = g.pick(("", f", ADD UNIQUE KEY u ({a})", f", ADD COLUMN extra INT"))
    return Case("drop-constraint-primary", [
        f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT NOT NULL, PRIMARY KEY ({a}){unique})",
        f"ALTER TABLE {t} DROP CONSTRAINT PRIMARY KEY{more}"])


def drop_and_add_again(g: Gen) -> Case:
    """DROP COLUMN a, ADD COLUMN a in one ALTER (either order): the server finds key parts by
    name, so the keys stay on the new `a`, with the old key part's length: a longer VARCHAR
    becomes a prefix, a shorter one or another integer type is refused (1089), and a type of
    another kind is accepted only when its key length happens to match (INT and latin1 CHAR(4)):
    innolint says it cannot tell there."""
    t, (a, b) = g.table(), g.names(2)
    key = g.pick(("PRIMARY KEY", "UNIQUE KEY"))
    how = g.rng.randrange(4)
    old, new, may = {0: ("INT", "INT", False), 1: ("VARCHAR(10)", "VARCHAR(20)", False),
                     2: ("INT", "TINYINT", False), 3: ("INT", "CHAR(4)", True)}[how]
    null = g.pick(("NOT NULL", "NULL")) if key == "PRIMARY KEY" else "NOT NULL"
    actions = [f"DROP COLUMN {a}", f"ADD COLUMN {a} {new} {null}{g.pick(('', ' FIRST', f' AFTER {b}'))}"]
    return Case("drop-and-add-again", [
        f"CREATE TABLE {t} ({a} {old} NOT NULL, {b} INT, {key} ({a}))",
        f"ALTER TABLE {t} {', '.join(g.shuffled(actions))}"], may_diagnose={1} if may else set())


def redefine_added(g: Gen) -> Case:
    """ADD COLUMN z, then MODIFY z or CHANGE <any name> z in the same ALTER: the server finds the
    column added earlier by the NEW name, takes it out and puts the new definition where the
    MODIFY says (the end without FIRST/AFTER), so columns added between move before it; a MODIFY
    before the ADD, or a CHANGE z y, is refused (1054)."""
    t, (a, b, z, w) = g.table(), g.names(4)
    ztype, wtype = g.pick(("INT", "VARCHAR(10)", "DATE")), g.pick(("INT", "CHAR(3)"))
    add = f"ADD {g.pick(('COLUMN ', ''))}{z} {ztype}{g.pick(('', ' NOT NULL', ' FIRST', f' AFTER {a}', ' UNIQUE'))}"
    other = f"ADD {w} {wtype}{g.pick(('', f' AFTER {z}', ' FIRST'))}"
    redefine = g.pick((f"MODIFY {z}", f"CHANGE {z} {z}", f"CHANGE {z.upper()} {z}", f"CHANGE nowhere {z}",
                       f"CHANGE {z} renamed"))
    redefine += f" {g.pick(('BIGINT', 'VARCHAR(40)', 'BIGINT NOT NULL'))}{g.pick(('', '', ' FIRST', f' AFTER {b}'))}"
    actions = [add, other, redefine] if g.chance(0.8) else [redefine, add, other]
    if g.chance(0.3):
        actions.insert(g.rng.randrange(len(actions) + 1), f"ADD KEY ({z})")
    return Case("redefine-added", [
        f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT, PRIMARY KEY ({a}))",
        f"ALTER TABLE {t} {', '.join(actions)}"])


def drop_key_with_its_column(g: Gen) -> Case:
    """A key whose every column an ALTER drops goes with them before the server checks the new
    keys: `DROP COLUMN a, ADD PRIMARY KEY (b)` replaces a PRIMARY KEY (a), and a DROP INDEX of
    it in the same statement names the key as it was. A key over several columns of which one is
    dropped is refused when UNIQUE (1072)."""
    t, (a, b, c) = g.table(), g.names(3)
    key = g.pick(("PRIMARY KEY", "UNIQUE KEY ka"))
    parts = g.pick((a, f"{a}, {c}"))
    actions = [f"DROP COLUMN {a}", g.pick((f"ADD PRIMARY KEY ({b})", f"ADD UNIQUE KEY ka ({b})",
                                           "DROP PRIMARY KEY" if key == "PRIMARY KEY" else "DROP INDEX ka",
                                           f"ADD KEY ({c})"))]
    return Case("drop-key-with-its-column", [
        f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT NOT NULL, {c} INT NOT NULL, {key} ({parts}))",
        f"ALTER TABLE {t} {', '.join(g.shuffled(actions))}"])


def swap_columns(g: Gen) -> Case:
    """CHANGE / RENAME COLUMN a->b and b->a in one ALTER swap the names; the keys follow the columns."""
    t, (a, b) = g.table(), g.names(2)
    if g.chance(0.5):
        actions = [f"CHANGE {a} {b} INT NOT NULL", f"CHANGE {b} {a} BIGINT NOT NULL"]
    else:
        actions = [f"RENAME COLUMN {a} TO {b}", f"RENAME COLUMN {b} TO {a}"]
    return Case("swap-columns", [
        f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT NOT NULL, c TEXT, PRIMARY KEY ({a}), UNIQUE KEY ub ({b}, c(5)))",
        f"ALTER TABLE {t} {', '.join(g.shuffled(actions))}"])


def engines(g: Gen) -> Case:
    """ENGINE given only on the partitions, or after WITH SYSTEM VERSIONING, is the table's; a
    system-versioned table is no CREATE ... SELECT. (A system-versioned table is TABLE_TYPE
    'SYSTEM VERSIONED' in information_schema, and its explicit ROW END column ends its unique
    keys: `PRIMARY (a, e)`.)"""
    t, (a, b) = g.table(), g.names(2)
    engine = g.pick(("MyISAM", "Aria", "InnoDB", "MEMORY"))
    how = g.rng.randrange(4)
    if how == 0:
        storage = g.pick(("ENGINE = ", "STORAGE ENGINE=", "ENGINE "))
        parts = ", ".join(f"PARTITION p{n} {storage}{engine}" for n in range(2))
        return Case("engines", [f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT, PRIMARY KEY ({a})) "
                                f"PARTITION BY {g.pick(('HASH', 'KEY'))} ({a}) ({parts})"])
    if how == 1:
        return Case("engines", [f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT, UNIQUE KEY ({a})) WITH SYSTEM VERSIONING "
                                f"ENGINE={engine if engine != 'MEMORY' else 'MyISAM'}"])
    if how == 2:
        return Case("engines", [f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT NOT NULL, UNIQUE ({b})) WITH SYSTEM VERSIONING"])
    row = g.pick(("TIMESTAMP(6) GENERATED ALWAYS AS ROW", "BIGINT UNSIGNED AS ROW", "TIMESTAMP(6) AS ROW"))
    return Case("engines", [f"CREATE TABLE {t} ({a} INT NOT NULL, s {row} START, e {row} END{g.pick(('', ' INVISIBLE'))}, "
                            f"PERIOD FOR SYSTEM_TIME (s, e), {g.pick(('PRIMARY KEY', 'UNIQUE KEY'))} ({a})) "
                            f"WITH SYSTEM VERSIONING"])


def key_names(g: Gen) -> Case:
    """Unnamed keys are named as the server names them: a second key on `a` is `a_2`, SERIAL's
    UNIQUE is named in declaration order (`KEY (id), id SERIAL`: the KEY is `id`, the UNIQUE
    `id_2`); a later DROP INDEX of a generated name drops that key and no other."""
    t, (a, b) = g.table(), g.names(2)
    elements = [f"KEY ({a})", f"UNIQUE ({a}, {b})", f"KEY ({a}, {b})", f"{a} {g.pick(('SERIAL', 'INT NOT NULL'))}",
                f"{b} INT NOT NULL", f"UNIQUE KEY ({b})"]
    elements = g.shuffled(elements)
    first = next(n for n, e in enumerate(elements) if not e.startswith(("KEY", "UNIQUE")))
    elements.insert(0, elements.pop(first))  # a column first
    drop = g.pick((f"{_bare(a)}_2", _bare(a), f"{_bare(b)}", f"{_bare(a)}_3"))
    return Case("key-names", [f"CREATE TABLE {t} ({', '.join(elements)})",
                              f"ALTER TABLE {t} DROP INDEX IF EXISTS `{drop}`",
                              f"ALTER TABLE {t} ADD KEY ({a}), ADD UNIQUE ({b}, {a})"])


def foreign_keys(g: Gen) -> Case:
    """A foreign key without a name is `<table>_ibfk_<n>`; one whose columns no key begins with
    gets a key, named after its constraint, else its FOREIGN KEY index name (`CONSTRAINT c FOREIGN
    KEY i`: the key is `c`), else as an unnamed key; a later key beginning with its columns replaces it (the server drops it); it
    outlives DROP FOREIGN KEY, and DROP INDEX of it replays."""
    t, (a, b) = g.table(), g.names(2)
    child = _bare(t)
    name = g.pick(("", "CONSTRAINT fk_x ", "CONSTRAINT "))
    index = g.pick(("", " ix_y"))
    existing = g.pick(("", f", KEY ({a})", f", KEY ({b}, {a})", f", KEY ({a}, {b})", f", UNIQUE ({a})"))
    inline = g.chance(0.25)  # `a INT REFERENCES parent (id)`: MariaDB makes it a foreign key too
    if inline:
        name = index = ""
    statements = [
        "CREATE TABLE parent (id INT NOT NULL PRIMARY KEY, k2 INT NOT NULL, UNIQUE (id, k2))",
        f"CREATE TABLE {t} (id INT NOT NULL PRIMARY KEY, {a} INT{' REFERENCES parent (id)' if inline else ''}, "
        f"{b} INT{existing}" + ("" if inline else f", {name}FOREIGN KEY{index} ({a}) REFERENCES parent (id)") + ")",
    ]
    how = g.rng.randrange(4)
    # the constraint's name: CONSTRAINT's, else the FOREIGN KEY index name, else generated
    fk = "fk_x" if "fk_x" in name else "ix_y" if index else f"{child}_ibfk_1"
    generated = fk if fk != f"{child}_ibfk_1" else _bare(a)
    if how == 0:
        statements.append(f"ALTER TABLE {t} DROP FOREIGN KEY `{fk}`")
        if not existing:
            statements.append(f"ALTER TABLE {t} DROP INDEX `{generated}`")
    elif how == 1:
        statements.append(f"ALTER TABLE {t} ADD KEY k_more ({a}, id)")
    elif how == 2:
        statements.append(f"ALTER TABLE {t} ADD FOREIGN KEY ({a}, {b}) REFERENCES parent (id, k2), "
                          f"ADD CONSTRAINT c2 FOREIGN KEY ({b}) REFERENCES parent (id)")
        statements.append(f"ALTER TABLE {t} DROP FOREIGN KEY `{child}_ibfk_{2 if fk.endswith('_ibfk_1') else 1}`")
    else:
        statements.append(f"ALTER TABLE {t} DROP FOREIGN KEY IF EXISTS nope, DROP INDEX IF EXISTS nope, "
                          f"DROP COLUMN IF EXISTS nope, RENAME KEY IF EXISTS nope TO nope2, "
                          f"RENAME COLUMN IF EXISTS nope TO nope3, ADD COLUMN IF NOT EXISTS {b} INT")
    return Case("foreign-keys", statements)


def if_exists(g: Gen) -> Case:
    """MariaDB's IF EXISTS / IF NOT EXISTS clauses: a missing name is left out, not an error."""
    t, (a, b) = g.table(), g.names(2)
    real = g.pick(("k", "nope"))
    actions = g.shuffled([f"RENAME KEY IF EXISTS {real} TO k2", f"DROP COLUMN IF EXISTS {g.pick((b, 'gone'))}",
                          f"RENAME COLUMN IF EXISTS {g.pick((a, 'gone2'))} TO renamed",
                          f"ADD KEY IF NOT EXISTS k ({a})", f"DROP FOREIGN KEY IF EXISTS fk9",
                          f"MODIFY COLUMN IF EXISTS gone3 INT", f"CHANGE COLUMN IF EXISTS gone4 gone5 INT"])
    return Case("if-exists", [f"CREATE TABLE {t} (id INT NOT NULL, {a} INT, {b} INT, KEY k ({a}), UNIQUE (id))",
                              f"ALTER TABLE {t} {', '.join(actions[:g.rng.randrange(2, len(actions))])}",
                              f"DROP INDEX IF EXISTS {g.pick(('k', 'k2', 'nope'))} ON {t}"])


#: column definitions the server accepts that sqlglot alone does not read: (definition of a
#: column `c`, the server's type) — the class's key is on another column
_PARSE_GAP_COLUMNS = (
    "c VARCHAR(10) CHARACTER SET binary", "c CHAR(3) COLLATE binary", "c TEXT CHARSET binary", "c INT1", "c INT2",
    "c INT3", "c INT4", "c INT8", "c MIDDLEINT", "c LONG BYTE", "c LONG VARBINARY", "c LONG VARCHAR", "c LONG",
    "c NCHAR VARCHAR(10)", "c NATIONAL CHAR(3)", "c NCHAR VARYING(5)", "c NATIONAL CHAR VARYING(4)",
    "c mariadb_schema.DATE", "c oracle_schema.DATE", "c mariadb_schema.VARCHAR(3)",
    "c INET6 DEFAULT CAST('::1' AS INET6)", "c VARCHAR(39) DEFAULT (CAST('::1' AS INET6))",
)


def parse_gaps(g: Gen) -> Case:
    """DDL the server accepts that innolint once did not read: type synonyms and schema-qualified
    types, CHARACTER SET binary (the server makes VARCHAR a VARBINARY), CAST(... AS INET6),
    qualified column names, keywords as names, PERIOD ... WITHOUT OVERLAPS (the key's parts are
    the period's end and start columns), CHECK with DEFAULT(col), CREATE TABLE ... VALUES."""
    t, (a, b) = g.table(), g.names(2)
    how = g.rng.randrange(6)
    key = g.pick((f"UNIQUE KEY ({a})", f"PRIMARY KEY ({a})", f"KEY ({a})"))
    if how <= 1:
        column = g.pick(_PARSE_GAP_COLUMNS)
        cols = g.shuffled([f"{a} INT NOT NULL", column, f"{b} INT"])
        return Case("parse-gaps", [f"CREATE TABLE {t} ({', '.join(cols)}, {key})"])
    if how == 2:
        qualifier = g.pick((f"{t}.", "{main}." + t + "."))
        return Case("parse-gaps", [f"CREATE TABLE {t} ({qualifier}{a} INT NOT NULL, {qualifier}{b} INT, {key})"])
    if how == 3:
        kind = g.pick(("PRIMARY KEY", "UNIQUE"))
        return Case("parse-gaps", [f"CREATE TABLE {t} ({a} INT NOT NULL, s DATE NOT NULL, e DATE NOT NULL, "
                                   f"PERIOD FOR p (s, e), {kind} ({a}, p WITHOUT OVERLAPS))"])
    if how == 4:
        return Case("parse-gaps", [f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT DEFAULT 3, {key}, "
                                   f"CHECK ({b} >= DEFAULT({b})))"])
    return Case("parse-gaps", [f"CREATE TABLE {t} ({a} INT, {b} INT) {g.pick(('', 'AS '))}VALUES (1, 2), (3, 4)"])


def partition_maintenance(g: Gen) -> Case:
    """Partition maintenance ALTERs change no key; CONVERT PARTITION ... TO TABLE makes a table of
    the partitioned one's columns and keys (not partitioned), CONVERT TABLE ... TO PARTITION takes
    a table in."""
    t, (a, b) = g.table(), g.names(2)
    statements = [f"CREATE TABLE {t} ({a} INT NOT NULL, {b} INT, PRIMARY KEY ({a}), KEY ({b})) "
                  f"PARTITION BY RANGE ({a}) (PARTITION p0 VALUES LESS THAN (10), PARTITION p1 VALUES LESS THAN (20))"]
    actions = [f"ALTER TABLE {t} {g.pick(('CHECK', 'REPAIR', 'OPTIMIZE', 'ANALYZE', 'REBUILD', 'TRUNCATE'))} PARTITION p0",
               f"ALTER TABLE {t} ORDER BY {b}", f"ALTER TABLE {t} FORCE",
               f"ALTER TABLE {t} REORGANIZE PARTITION p0 INTO (PARTITION p0a VALUES LESS THAN (5), "
               "PARTITION p0b VALUES LESS THAN (10))",
               f"ALTER TABLE {t} CONVERT PARTITION p1 TO TABLE {g.pick(('t_old', 'archive'))}",
               f"CREATE TABLE incoming ({a} INT NOT NULL, {b} INT, PRIMARY KEY ({a}), KEY ({b}))",
               f"ALTER TABLE {t} CONVERT TABLE incoming TO PARTITION p9 VALUES LESS THAN (100)"]
    statements += [s for s in actions if g.chance(0.7) or "incoming" in s]
    return Case("partition-maintenance", statements)


CLASSES: tuple[Callable[[Gen], Case], ...] = (
    auto_increment, long_unique, full_length_prefix, drop_constraint_primary, drop_and_add_again, redefine_added,
    drop_key_with_its_column, swap_columns, engines, key_names, foreign_keys, if_exists, parse_gaps, partition_maintenance,
)


def generate() -> list[Case]:
    return generate_cases(CLASSES, VARIATIONS, SEED, noise=0.5)


def generate_cases(classes: Sequence[Callable[[Gen], Case]], variations: int, seed: int, *, noise: float) -> list[Case]:
    """`variations` seeded cases of each class; a share `noise` of them with unrelated statements mixed in."""
    cases = []
    for n, make in enumerate(classes):
        for k in range(variations):
            g = Gen(seed + n * 1000 + k)
            case = make(g)
            case.noise = seed + n * 1000 + k if g.chance(noise) else 0
            cases.append(case)
    return cases


# --- the comparison ----------------------------------------------------------------------------------


def _spatial_prefixes_dropped(view: D.View) -> D.View:
    """The server stores a UNIQUE key on a geometry column as a prefix of its own choosing (8 on
    GEOMETRY, 25 on POINT); innolint keeps the key whole and knows it cannot cluster (compared)."""
    spatial = {"geometry", "point", "polygon", "linestring", "multipoint", "multipolygon", "geometrycollection"}
    out: D.View = {}
    for key, facts in view.items():
        types = {c.name.lower(): c.type for c in facts.columns}
        indexes = tuple(D.IndexFacts(i.name, i.kind, tuple((c, None if types.get(c) in spatial else p) for c, p in i.parts))
                        for i in facts.indexes)
        out[key] = D.TableFacts(facts.engine, facts.columns, indexes, facts.clustered, facts.partial)
    return out


@dataclass
class Outcome:
    case: Case
    text: str
    problems: list[str]
    refused: list[int]  # the server's error codes


def _judge(case: Case, text: str, spans: list[tuple[int, int]], loaded: D.Loaded, linted: D.Linted,
           refused_keys: list[int], *, spatial_prefixes: bool = False) -> Outcome:
    """`refused_keys`: lines where index-key-length says the server refuses a key (a refusal that
    check reports, as a finding, rather than the replay). `spatial_prefixes`: compare the prefixes
    the server gives keys on geometry columns too (else left out: `_spatial_prefixes_dropped`)."""
    def statement_at(line: int) -> int | None:
        return next((n for n, (first, last) in enumerate(spans) if first <= line <= last), None)

    rejected = {statement_at(line): code for line, code in loaded.errors}
    diagnosed: dict[int | None, list[str]] = {}
    for line, end_line, rule, message in linted.diagnostics:
        diagnosed.setdefault(statement_at(line), []).append(f"{rule}: {message}")
    refused_key = {statement_at(line) for line in refused_keys}
    problems: list[str] = []
    for n in range(len(case.statements)):
        if n in rejected and n not in diagnosed and n not in refused_key:
            problems.append(f"statement {n + 1}: the server refuses it (error {rejected[n]}), innolint applies it")
        if n not in rejected and n in diagnosed and n not in case.may_diagnose:
            problems.append(f"statement {n + 1}: the server accepts it, innolint says {diagnosed[n]}")
    differences = D.compare(loaded.view if spatial_prefixes else _spatial_prefixes_dropped(loaded.view), linted.view)
    if differences and not (case.may_diagnose & set(diagnosed)):
        problems += [str(d) for d in differences]
    values = any("VALUES" in s for s in case.statements)
    problems += [f"{'.'.join(key)}: innolint does not claim its columns (taken for CREATE ... SELECT)"
                 for key, facts in linted.view.items() if facts.partial and not values]
    return Outcome(case, text, problems, [code for _, code in loaded.errors])


@pytest.fixture(scope="module")
def outcomes(mariadb: MariaDB) -> list[Outcome]:
    return judge_cases(mariadb, generate(), "mo")


def judge_cases(mariadb: MariaDB, cases: list[Case], prefix: str, *, spatial_prefixes: bool = False) -> list[Outcome]:
    """Each case loaded by MariaDB and replayed by innolint, judged by `_judge`; the
    index-key-length check's refusals count as said (the replay refused the statement for it)."""
    from checks.index_key_length import IndexKeyLength

    texts = [case.text() for case in cases]
    server = D.ServerRunner(mariadb, jobs=4, prefix=prefix)
    lint = D.InnolintRunner(server.lower_case_table_names)
    key_check = IndexKeyLength()
    try:
        loaded = server.load([lambda main, other, text=text: text.replace("{main}", main) for text, _ in texts])
        results = []
        for case, (text, spans), on_server in zip(cases, texts, loaded):
            linted = lint.lint(text.replace("{main}", "d1"), "d1", "d2")
            refused = [f.line for f in key_check.run(_model_of(lint, text), lint.context) if f.subject.startswith("refused")]
            results.append(_judge(case, text, spans, on_server, linted, refused, spatial_prefixes=spatial_prefixes))
    finally:
        server.close()
        lint.close()
    return results


def _model_of(lint: D.InnolintRunner, text: str) -> object:
    """innolint's model of a script (the runner's engine, no checks)."""
    from linter.engine import Unit

    path = f"{lint._dir}/model.sql"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text.replace("{main}", "d1"))
    return lint.engine.lint_unit(Unit([path]), lint.context).model


def _by_kind() -> Iterator[str]:
    yield from dict.fromkeys(make.__name__.replace("_", "-") for make in CLASSES)


@pytest.mark.parametrize("kind", list(_by_kind()))
def test_the_model_is_the_servers(outcomes: list[Outcome], kind: str) -> None:
    mine = [o for o in outcomes if o.case.kind == kind]
    assert len(mine) == VARIATIONS
    failed = [f"--- {o.text}" + "\n".join(o.problems) for o in mine if o.problems]
    assert failed == [], "\n\n".join(failed)


def test_the_scripts_vary(outcomes: list[Outcome]) -> None:
    """Each class's scripts differ from each other, and some carry comments and mixed keyword case."""
    for kind in _by_kind():
        texts = [o.text for o in outcomes if o.case.kind == kind]
        assert len(set(texts)) >= VARIATIONS - 2, kind
    assert any(o.case.noise for o in outcomes) and any(not o.case.noise for o in outcomes)


def test_the_server_refused_what_the_classes_say_it_refuses(outcomes: list[Outcome]) -> None:
    """The refusals this test relies on happen: a PRIMARY KEY on a whole TEXT (1170), a column
    dropped and added again shorter or as a smaller integer (1089)."""
    codes = {code for o in outcomes for code in o.refused}
    assert {1170, 1089} <= codes
    assert {code for o in outcomes if o.case.kind == "long-unique" for code in o.refused} == {1170}
    # (those 1170s are index-key-length's "refused" findings in innolint: `_judge`)


@pytest.mark.parametrize("definition", [
    "body TEXT NOT NULL, title VARCHAR(20), UNIQUE KEY (body)",
    "g POINT NOT NULL, UNIQUE KEY ug (g)",
    "blob_data LONGBLOB NOT NULL UNIQUE, n INT",
    "doc JSON NOT NULL, UNIQUE (doc)",
    "code VARCHAR(8) NOT NULL, UNIQUE (code(8)), other TEXT",
])
def test_no_primary_keys_fix_runs_and_clusters_the_table(mariadb: MariaDB, definition: str) -> None:
    """no-primary-key's fix for a table whose UNIQUE key cannot be its PRIMARY KEY (a whole
    TEXT/BLOB/JSON or spatial column: the server refuses that, error 1170) adds a key column
    instead; the fix runs on the server and InnoDB then clusters the table on PRIMARY."""
    from checks.no_primary_key import NoPrimaryKey
    from linter.parse.elements import Location
    from linter.parse.statement import parse_statement
    from linter.server.replay import Replayer

    text = f"CREATE TABLE t ({definition})"
    replayer = Replayer(target=D.innolint_context().target)
    assert replayer.apply(parse_statement(text), Location("t.sql", 1)) is None
    findings = [f for f in NoPrimaryKey().run(replayer.model, D.innolint_context()) if f.fix]
    database = "mo_fix"
    mariadb.sql(f"DROP DATABASE IF EXISTS {database}; CREATE DATABASE {database}")
    try:
        mariadb.sql(text, database)
        if "code(8)" in definition:  # a whole-length prefix is no prefix: InnoDB clusters on it already
            assert findings == [] or all(f.subject != "row-id" for f in findings)
            return
        assert len(findings) == 1 and "ADD COLUMN" in (findings[0].fix or ""), findings
        mariadb.sql(findings[0].fix or "", database)
        clustered = mariadb.sql(
            "SELECT i.NAME FROM information_schema.INNODB_SYS_TABLES t JOIN information_schema.INNODB_SYS_INDEXES i "
            f"ON i.TABLE_ID = t.TABLE_ID WHERE t.NAME = '{database}/t' AND i.TYPE & 1")
        assert clustered == [("PRIMARY",)]
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {database}")
