"""ALGORITHM= / LOCK= / ALTER ONLINE (linter/server/online_alter.py) judged by MariaDB 10.11:
generated cases (every kind of operation x ALGORITHM x LOCK x engine, over tables of several
shapes, names and types) run on the server and through innolint's replay. Where innolint decides,
it must decide as the server did (refused with 1845/1846 or run); where it says it cannot tell,
that counts as undecided, and undecided cases must stay few. A refused statement leaves the
table as it was in both.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from linter.parse import ops
from linter.parse.cache import ParseCache
from linter.parse.tokens import ParseFailure
from linter.parse.elements import Location
from linter.server.replay import Replayer
from linter.schema.target import Target
from tests import sampling
from tests.sampling import spread

#: (name, CREATE TABLE body with {a} {b} {c} {d} {id} for the column names, {e} for the engine);
#: MEMORY takes no TEXT column, so `d` is a VARCHAR there
SHAPES = (
    ("pk", "({id} INT NOT NULL, {a} INT, {b} VARCHAR(20), {c} CHAR(36) NOT NULL, {d} {text}, PRIMARY KEY ({id}), "
           "KEY k_{a} ({a}))"),
    ("no-pk", "({id} BIGINT NOT NULL, {a} INT, {b} VARCHAR(40) CHARACTER SET utf8mb4, {c} CHAR(10) NOT NULL, "
              "{d} {text}, KEY k_{a} ({a}, {b}))"),
    ("unique", "({id} INT UNSIGNED NOT NULL AUTO_INCREMENT, {a} SMALLINT NOT NULL, {b} VARCHAR(200), "
               "{c} VARCHAR(36) NOT NULL DEFAULT '', {d} {text}, PRIMARY KEY ({id}, {a}), UNIQUE KEY u_{c} ({c}))"),
    ("fulltext", "({id} INT NOT NULL, {a} INT, {b} VARCHAR(20), {c} CHAR(36) NOT NULL, {d} {text}, PRIMARY KEY ({id}), "
                 "KEY k_{a} ({a}), FULLTEXT KEY ft_{d} ({d}))"),
    # no PRIMARY KEY: InnoDB clusters by the UNIQUE NOT NULL key (dropping it rebuilds by copying)
    ("clustered-unique", "({id} INT UNSIGNED NOT NULL, {a} INT, {b} VARCHAR(20), {c} CHAR(36) NOT NULL, {d} {text}, "
                         "UNIQUE KEY k_{a} ({id}), KEY k2 ({a}))"),
    # two UNIQUE NOT NULL keys: InnoDB clusters by the first; dropping it, its column, or making
    # that NULL hands the table to the other (a primary key changed, not dropped: LOCK=NONE runs)
    ("two-unique", "({id} INT NOT NULL, {a} INT, {b} VARCHAR(20), {c} CHAR(36) NOT NULL, {d} {text}, "
                   "UNIQUE KEY k_{a} ({c}), UNIQUE KEY u_{id} ({id}))"),
    # a nullable TIMESTAMP: MariaDB copies the table to make it NOT NULL (MODIFY, or a PRIMARY KEY
    # over it), whatever its default; a DATETIME it converts in place
    ("timestamp", "({id} INT NOT NULL, {a} {atype}, {b} VARCHAR(20), {c} CHAR(36) NOT NULL, {d} {text}, "
                  "KEY k_{a} ({a}))"),
    # a UNIQUE key over a whole TEXT column: MariaDB keeps it as a hidden hash column
    ("hash-unique", "({id} BIGINT NOT NULL AUTO_INCREMENT, {a} INT, {b} VARCHAR(20), {c} CHAR(36) NOT NULL, "
                    "{d} {text} UNIQUE, PRIMARY KEY ({id}), KEY k_{a} ({a}))"),
    # ... or over more bytes than a B-tree key takes, one VARCHAR or several parts (fuzz seeds 363-364)
    ("wide-unique", "({id} INT NOT NULL, {a} INT, {b} VARCHAR(800) CHARACTER SET utf8mb4, {c} CHAR(36) NOT NULL, "
                    "{d} {text}, PRIMARY KEY ({id}), UNIQUE KEY u_{b} ({b}), KEY k_{a} ({a}))"),
    ("wide-unique-parts", "({id} INT NOT NULL, {a} INT, {b} VARCHAR(3000), {c} CHAR(100) NOT NULL, {d} {text}, "
                          "PRIMARY KEY ({id}), UNIQUE KEY u_{b} ({c}, {b}), KEY k_{a} ({a}))"),
)

#: operation kinds: (name, ALTER actions) on the columns above; {x} a new column's name
OPERATIONS = (
    ("add-column", "ADD COLUMN {x} INT"),
    ("add-column-first", "ADD {x} VARCHAR(10) FIRST"),
    ("add-column-after", "ADD COLUMN {x} INT NOT NULL DEFAULT 3 AFTER {a}"),
    ("add-two-columns", "ADD COLUMN {x} INT, ADD COLUMN {x}2 DATE"),
    ("add-auto-increment", "ADD COLUMN {x} BIGINT NOT NULL AUTO_INCREMENT, ADD KEY ({x})"),
    ("add-column-and-key", "ADD COLUMN {x} INT, ADD KEY ({x})"),
    ("add-column-unique", "ADD COLUMN {x} INT UNIQUE"),
    ("add-wide-unique", "ADD COLUMN {x} VARCHAR(3100), ADD UNIQUE ({x})"),
    ("drop-column", "DROP COLUMN {d}"),
    ("drop-keyed-column", "DROP COLUMN {a}"),
    ("drop-column-add-key", "DROP COLUMN {d}, ADD KEY ({b})"),
    ("rename-column", "RENAME COLUMN {b} TO {x}"),
    ("change-name", "CHANGE {c} {x} {ctype}"),
    ("modify-same", "MODIFY {c} {ctype} COMMENT 'c'"),
    ("modify-first", "MODIFY {c} {ctype} FIRST"),
    ("modify-after", "MODIFY COLUMN {b} {btype} AFTER {c}"),
    ("modify-int-bigint", "MODIFY {a} BIGINT"),
    ("modify-unsigned", "MODIFY {a} INT UNSIGNED"),
    ("modify-varchar-longer", "MODIFY {b} {blonger}"),
    ("modify-varchar-shorter", "MODIFY {b} VARCHAR(5)"),
    ("modify-not-null", "MODIFY {d} {text} NOT NULL"),
    ("modify-null", "MODIFY {c} {ctype} NULL"),
    ("modify-a-not-null", "MODIFY {a} {atype} NOT NULL"),
    ("add-primary-a", "ADD PRIMARY KEY ({a})"),
    ("set-default", "ALTER COLUMN {c} SET DEFAULT 'x'"),
    ("drop-default", "ALTER {b} DROP DEFAULT"),
    ("add-index", "ADD INDEX k_x ({c})"),
    ("add-unique", "ADD UNIQUE ({b})"),
    ("add-fulltext", "ADD FULLTEXT KEY f_x ({b})"),
    ("drop-index", "DROP INDEX {key}"),
    ("rename-index", "RENAME INDEX {key} TO k_renamed"),
    ("add-index-drop-index", "DROP INDEX {key}, ADD INDEX k_y ({c}, {b})"),
    ("drop-primary", "DROP PRIMARY KEY"),
    ("add-primary", "ADD PRIMARY KEY ({c})"),
    ("replace-primary", "DROP PRIMARY KEY, ADD PRIMARY KEY ({c})"),
    ("engine-same", "ENGINE={e}"),
    ("engine-other", "ENGINE={other}"),
    ("row-format", "ROW_FORMAT={rowformat}"),
    ("comment", "COMMENT='{x}'"),
    ("auto-increment", "AUTO_INCREMENT=1000"),
    ("default-charset", "DEFAULT CHARSET=utf8mb4"),
    ("force", "FORCE"),
    ("rename-table", "RENAME TO {table}_new"),
    ("rename-table-and-column", "RENAME TO {table}_new, RENAME COLUMN {b} TO {x}"),
    ("rename-index-and-add-column", "RENAME INDEX {key} TO k_renamed, ADD COLUMN {x} INT"),
    # a renamed key is kept: the FULLTEXT, clustering or hash key it names still decides (fuzz seed 395)
    ("rename-shape-key-drop-column", "RENAME INDEX {shape_key} TO k_renamed, DROP COLUMN {b}"),
    ("rename-shape-key-modify-null", "RENAME KEY {shape_key} TO k_renamed, MODIFY {c} {ctype} NULL"),
    ("rename-shape-key-drop-primary", "DROP PRIMARY KEY, RENAME KEY {shape_key} TO k_renamed"),
    # a key or column renamed, or a VARCHAR made longer, with a table option: NOCOPY on MariaDB,
    # unless a column is added, dropped or moved too (fuzz seed 403)
    ("rename-index-and-comment", "RENAME INDEX {key} TO k_renamed, COMMENT='{x}'"),
    ("rename-column-and-auto-increment", "RENAME COLUMN {b} TO {x}, AUTO_INCREMENT=50"),
    ("change-name-and-stats", "CHANGE {c} {x} {ctype}, STATS_PERSISTENT=0"),
    ("varchar-longer-and-comment", "MODIFY {b} {blonger}, COMMENT='{x}'"),
    ("default-rename-index-charset", "ALTER {b} SET DEFAULT 'q', RENAME KEY {key} TO k_renamed, DEFAULT CHARSET=latin1"),
    ("rename-index-add-column-comment", "RENAME INDEX {key} TO k_renamed, ADD COLUMN {x} INT, COMMENT='{x}'"),
    ("move-rename-column-options", "MODIFY {c} {ctype} FIRST, RENAME COLUMN {b} TO {x}, PACK_KEYS=1"),
    ("default-and-comment", "ALTER {c} SET DEFAULT 'x', COMMENT='{x}'"),
)

#: the key that gives each shape its character (else the plain key k_{a})
SHAPE_KEYS = {"unique": "u_{c}", "fulltext": "ft_{d}", "two-unique": "k_{a}", "hash-unique": "{d}",
              "wide-unique": "u_{b}", "wide-unique-parts": "u_{b}"}

CLAUSES = (
    ("ONLINE", ""), ("", "ALGORITHM=INPLACE"), ("", "ALGORITHM=NOCOPY"), ("", "ALGORITHM=INSTANT"),
    ("", "ALGORITHM=COPY"), ("", "LOCK=NONE"), ("", "LOCK=SHARED"), ("", "LOCK=EXCLUSIVE"),
    ("", "ALGORITHM=INPLACE, LOCK=NONE"), ("", "LOCK=SHARED, ALGORITHM=INPLACE"), ("", "ALGORITHM=NOCOPY, LOCK=NONE"),
    ("", "ALGORITHM=INSTANT, LOCK=NONE"), ("", "ALGORITHM=COPY, LOCK=NONE"), ("ONLINE", "ALGORITHM=INPLACE"),
    ("", "ALGORITHM=DEFAULT, LOCK=DEFAULT"),
)

ENGINES = ("InnoDB", "MyISAM", "Aria", "MEMORY")


def _names(rng: random.Random) -> dict[str, str]:
    pool = rng.choice((("id", "a", "b", "c", "d"), ("uid", "Qty", "label", "Token", "body"),
                       ("pk_col", "amount", "title", "ref", "notes")))
    return dict(zip(("id", "a", "b", "c", "d"), pool))


#: one case of the matrix: (label, CREATE TABLE, ALTER TABLE, table name)
Case = tuple[str, str, str, str]
#: the classes of one case: (engine, shape, operation, (online, clause))
Classes = tuple[str, str, str, tuple[str, str]]


def matrix(engines: tuple[str, ...] = ENGINES) -> list[Classes]:
    """Every case's classes: engine x shape x operation x clause (INNOLINT_EXHAUSTIVE runs them all)."""
    return [(engine, shape, operation, clause) for engine in engines for shape, _ in SHAPES
            for operation, _ in OPERATIONS for clause in CLAUSES]


def sample(rng: random.Random, engines: tuple[str, ...] = ENGINES, pairwise: str | None = "InnoDB") -> list[Classes]:
    """A sample in which every class is: on the `pairwise` engine every shape x operation pair,
    on each other engine every operation once, over shapes spread evenly; the clauses spread
    evenly over each engine's cases (each engine has more cases than there are clauses)."""
    chosen: list[Classes] = []
    for engine in engines:
        if engine == pairwise:
            pairs = [(shape, operation) for shape, _ in SHAPES for operation, _ in OPERATIONS]
        else:
            shapes = spread(rng, [shape for shape, _ in SHAPES], len(OPERATIONS))
            pairs = list(zip(shapes, (operation for operation, _ in OPERATIONS)))
        clauses = spread(rng, CLAUSES, len(pairs))
        chosen.extend((engine, shape, operation, clause) for (shape, operation), clause in zip(pairs, clauses))
    return chosen


def cases(rng: random.Random, chosen: list[Classes], temporary: bool = False) -> list[Case]:
    """(label, create, alter, table) for each chosen case; names and some types vary with `rng`."""
    bodies, actions = dict(SHAPES), dict(OPERATIONS)
    found = []
    for n, (engine, shape, operation, (online, clause)) in enumerate(chosen, 1):
        names = _names(rng)
        table = f"t{n}"
        values = dict(names, e=engine, x=rng.choice(("x", "extra", "Added")),
                      text="VARCHAR(100)" if engine == "MEMORY" else rng.choice(("TEXT", "MEDIUMTEXT")),
                      other="MyISAM" if engine != "MyISAM" else "InnoDB", table=table,
                      rowformat=rng.choice(("DYNAMIC", "COMPACT")),
                      key=("u_" + names["c"]) if shape == "unique" else f"k_{names['a']}",
                      shape_key=SHAPE_KEYS.get(shape, "k_{a}").format(**names))
        shape_of = shape if shape in ("pk", "no-pk", "unique") else "pk"
        values["ctype"] = {"pk": "CHAR(36) NOT NULL", "no-pk": "CHAR(10) NOT NULL",
                           "unique": "VARCHAR(36) NOT NULL DEFAULT ''"}[shape_of]
        values["atype"] = (rng.choice(("TIMESTAMP NULL", "TIMESTAMP NULL DEFAULT '2020-01-01 00:00:00'",
                                       "DATETIME NULL DEFAULT CURRENT_TIMESTAMP", "TIMESTAMP NULL DEFAULT NULL"))
                           if shape == "timestamp" else "SMALLINT" if shape == "unique" else "INT")
        values["btype"] = {"pk": "VARCHAR(20)", "no-pk": "VARCHAR(40) CHARACTER SET utf8mb4",
                           "unique": "VARCHAR(200)"}[shape_of]
        values["blonger"] = {"pk": rng.choice(("VARCHAR(30)", "VARCHAR(60)")),
                             "no-pk": "VARCHAR(50) CHARACTER SET utf8mb4",
                             "unique": "VARCHAR(250)"}[shape_of]
        create = (f"CREATE {'TEMPORARY ' if temporary else ''}TABLE {table} "
                  + bodies[shape].format(**values) + f" ENGINE={engine}")
        if engine == "MEMORY":
            create = create.replace(f"KEY k_{names['a']} ({names['a']}, {names['b']})",
                                    f"KEY k_{names['a']} ({names['a']})")
        alter = (f"ALTER {online + ' ' if online else ''}TABLE {table} {actions[operation].format(**values)}"
                 + (f", {clause}" if clause else ""))
        found.append((f"{engine} {shape} {operation} {online} {clause}", create, alter, table))
    return found


def _server(mariadb: Any, database: str, batch: list[Case]) -> list[int | None]:
    """The server's answer to each ALTER (its error code, None: ran); None for a case whose CREATE failed too."""
    import pymysql

    mariadb.sql(f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
    connection = mariadb.connect(database)
    answers: list[int | None] = []
    try:
        with connection.cursor() as cursor:
            for _, create, alter, table in batch:
                try:
                    cursor.execute(create)
                except pymysql.err.MySQLError as error:
                    answers.append(-error.args[0])
                    continue
                try:
                    cursor.execute(alter)
                    answers.append(None)
                except pymysql.err.MySQLError as error:
                    answers.append(error.args[0])
                cursor.execute(f"DROP TABLE IF EXISTS {table}, {table}_new")
    finally:
        connection.close()
    return answers


def _shape(create: str, alter: str | None, target: str = "mariadb-10.11") -> Any:
    """The table innolint has after the CREATE and the ALTER (columns, keys, engine), or None."""
    replayer = Replayer(target=Target.parse(target))
    replayer.apply(ops.SchemaStatement("use", "db"), Location("s.sql", 1))
    cache = ParseCache()
    replayer.apply(cache.parse(create), Location("s.sql", 2))
    if alter is not None:
        replayer.apply(cache.parse(alter), Location("s.sql", 3))
    schema = replayer.model.find_schema("db")
    return sorted((t.name, t.options.engine, [(c.name, c.type, c.params, c.nullable) for c in t.columns.values()],
                   [(i.name, i.kind, i.column_names) for i in t.indexes])
                  for t in list(schema.tables.values()) + list(schema.temporary.values()))


def _without_clauses(alter: str) -> str:
    """The ALTER as it would be without ONLINE, ALGORITHM= and LOCK=."""
    for online, clause in CLAUSES:
        if clause and alter.endswith(", " + clause):
            alter = alter[: -len(clause) - 2]
            break
    return alter.replace("ALTER ONLINE TABLE", "ALTER TABLE")


def _innolint(create: str, alter: str, target: str = "mariadb-10.11") -> tuple[str, str | None]:
    """("refused" | "undecided" | "ran" | "other", message) for the ALTER after the CREATE."""
    replayer = Replayer(target=Target.parse(target))
    replayer.apply(ops.SchemaStatement("use", "db"), Location("s.sql", 1))
    cache = ParseCache()
    created = cache.parse(create)
    assert not isinstance(created, ParseFailure), created
    assert replayer.apply(created, Location("s.sql", 2)) is None, create
    op = cache.parse(alter)
    assert not isinstance(op, ParseFailure), (alter, op)
    said = replayer.apply(op, Location("s.sql", 3))
    if said is None:
        return "ran", None
    message = said.message
    if "cannot tell" in message:
        return "undecided", message
    if "error 1845" in message or "error 1846" in message:
        return "refused", message
    return "other", message


def _judge(mariadb: Any, batch: list[Case], database: str) -> tuple[int, list[str], list[str]]:
    answers = _server(mariadb, database, batch)
    judged = 0
    wrong: list[str] = []
    undecided: list[str] = []
    for (label, create, alter, _), answer in zip(batch, answers):
        if answer is not None and answer < 0:
            continue  # the server refused the CREATE (not this test's)
        if answer is not None and answer not in (1845, 1846):
            continue  # refused for another reason (a duplicate key, ...): other tests' concern
        judged += 1
        verdict, message = _innolint(create, alter)
        if verdict == "undecided":
            undecided.append(f"{label}: {message}")
            continue
        server = "refused" if answer is not None else "ran"
        if verdict == "ran" and _shape(create, alter) != _shape(create, _without_clauses(alter)):
            wrong.append(f"{label}: ran, but innolint's table differs from the same ALTER without its clauses\n    {alter}")
            continue
        if verdict == "refused" and _shape(create, alter) != _shape(create, None):
            wrong.append(f"{label}: refused, but innolint changed the table\n    {alter}")
            continue
        if verdict == "other" and server == "refused":
            verdict = "refused"  # refused for another reason first (1068 ...): the table stays as it was in both
        if verdict != server:
            wrong.append(f"{label}: server {answer or 'ran'}, innolint {verdict}: {message}\n    {alter}")
    return judged, wrong, undecided


@pytest.mark.parametrize("temporary", [False, True], ids=["tables", "temporary-tables"])
def test_online_alter_as_the_server_decides(mariadb: Any, temporary: bool) -> None:
    """A sample of the matrix in which every operation, engine, shape and clause is, rotating with
    the seed (tests/sampling.py); INNOLINT_EXHAUSTIVE=1 judges the whole matrix (docs/testing.md
    gives its counts). Temporary tables: InnoDB and MyISAM, every operation once on each (the
    shape x operation pairs are the plain tables' sample)."""
    engines = ENGINES if not temporary else ("InnoDB", "MyISAM")
    rng = sampling.rng(f"online-alter-{temporary}")
    chosen = matrix(engines) if sampling.exhaustive() else sample(rng, engines, pairwise=None if temporary else "InnoDB")
    batch = cases(rng, chosen, temporary)
    judged, wrong, undecided = _judge(mariadb, batch, f"online_{'temporary' if temporary else 'tables'}")
    print(f"\nonline alter ({sampling.rerun()}): {len(batch)} cases, {judged} server-judged, {len(undecided)} undecided")
    assert judged > 0.7 * len(batch)  # (MEMORY takes no FULLTEXT key; a few fail for other reasons)
    assert not wrong, (f"{len(wrong)} of {judged} cases differ from the server ({sampling.rerun()}):\n"
                       + "\n".join(wrong[:40]))
    assert len(undecided) <= judged // 10, f"{sampling.rerun()}\n" + "\n".join(undecided[:20])


@pytest.mark.parametrize("seed", range(5))
def test_every_class_is_in_every_sample(seed: int) -> None:
    """The sample leaves no class out, whatever the seed: each engine has every operation, shape and
    clause, and InnoDB every shape x operation pair; each case once."""
    chosen = sample(random.Random(seed))
    for engine in ENGINES:
        own = [c for c in chosen if c[0] == engine]
        assert {c[1] for c in own} == {shape for shape, _ in SHAPES}
        assert {c[2] for c in own} == {operation for operation, _ in OPERATIONS}
        assert {c[3] for c in own} == set(CLAUSES)
    assert {(c[1], c[2]) for c in chosen if c[0] == "InnoDB"} == {(s, o) for s, _ in SHAPES for o, _ in OPERATIONS}
    assert len(set(chosen)) == len(chosen) and set(chosen) <= set(matrix())
    temporary = sample(random.Random(seed), ("InnoDB", "MyISAM"), pairwise=None)
    for engine in ("InnoDB", "MyISAM"):
        own = [c for c in temporary if c[0] == engine]
        assert len(own) == len(OPERATIONS) and {c[2] for c in own} == {operation for operation, _ in OPERATIONS}
        assert {c[1] for c in own} == {shape for shape, _ in SHAPES} and {c[3] for c in own} == set(CLAUSES)
    batch = cases(random.Random(seed), chosen)
    assert len({table for *_, table in batch}) == len(batch)


# -- without a server: the clauses as parsed, and the targets MariaDB 10.11 cannot judge ------------
@pytest.mark.parametrize("text, algorithm, lock, online, unmodelled", [
    ("ALTER ONLINE TABLE t2 ADD UNIQUE (f)", None, None, True, ()),
    ("ALTER TABLE t ADD x INT, ALGORITHM = INPLACE, LOCK=NONE", "INPLACE", "NONE", False, ()),
    ("alter table `db`.`T` lock none, algorithm instant, add column y int", "INSTANT", "NONE", False, ()),
    ("ALTER TABLE t ENGINE=InnoDB ALGORITHM=NOCOPY", "NOCOPY", None, False, ()),
    ("ALTER TABLE t ALGORITHM=COPY, FORCE, ALGORITHM=INPLACE", "INPLACE", None, False, ("FORCE",)),
    ("ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4, LOCK=SHARED", None, "SHARED", False, ("CONVERT TO",)),
    ("ALTER TABLE t ORDER BY a, LOCK=EXCLUSIVE", None, "EXCLUSIVE", False, ("ORDER BY",)),
    ("ALTER OFFLINE TABLE t ADD KEY (a)", None, None, False, ()),
])
def test_clauses_are_parsed(text: str, algorithm: str | None, lock: str | None, online: bool,
                            unmodelled: tuple[str, ...]) -> None:
    op = ParseCache().parse(text)
    assert isinstance(op, ops.AlterTable)
    assert (op.algorithm, op.lock, op.online, op.unmodelled) == (algorithm, lock, online, unmodelled)
    assert not any(isinstance(a, ops.SetOptions) and any(k in ("ALGORITHM", "LOCK") for k, _ in a.options)
                   for a in op.actions)


@pytest.mark.parametrize("text, algorithm, lock", [
    ("CREATE INDEX i ON t (a) LOCK=NONE ALGORITHM=NOCOPY", "NOCOPY", "NONE"),
    ("CREATE UNIQUE INDEX i ON t (a, b) INVISIBLE ALGORITHM INPLACE", "INPLACE", None),
    ("create index `Ix` on t (a(10)) comment 'x' lock = shared", None, "SHARED"),
])
def test_create_index_clauses(text: str, algorithm: str | None, lock: str | None) -> None:
    op = ParseCache().parse(text)
    assert isinstance(op, ops.CreateIndex)
    assert (op.algorithm, op.lock) == (algorithm, lock)


INNODB = "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b VARCHAR(20), KEY k (a)) ENGINE=InnoDB"
MYISAM = INNODB.replace("InnoDB", "MyISAM")


@pytest.mark.parametrize("target, create, alter, expected", [
    # MySQL has no ALTER ONLINE and no NOCOPY; 5.7 no INSTANT
    ("mysql-8.0", INNODB, "ALTER ONLINE TABLE t ADD KEY (b)", "refused"),
    ("mysql-8.4", INNODB, "ALTER TABLE t ADD KEY (b), ALGORITHM=NOCOPY", "refused"),
    ("mysql-5.7", INNODB, "ALTER TABLE t ADD c INT, ALGORITHM=INSTANT", "refused"),
    ("mysql-5.7", INNODB, "ALTER TABLE t ADD c INT, ALGORITHM=INPLACE, LOCK=NONE", "ran"),
    # INSTANT ADD COLUMN: last position from 8.0.12, any from 8.0.29 (8.4 has it)
    ("mysql-8.0", INNODB, "ALTER TABLE t ADD c INT, ALGORITHM=INSTANT", "ran"),
    ("mysql-8.0", INNODB, "ALTER TABLE t ADD c INT FIRST, ALGORITHM=INSTANT", "undecided"),
    ("mysql-8.4", INNODB, "ALTER TABLE t ADD c INT AFTER id, ALGORITHM=INSTANT", "ran"),
    ("mariadb-10.6", INNODB, "ALTER TABLE t ADD c INT FIRST, ALGORITHM=INSTANT", "ran"),
    # secondary keys: in place, never instant
    ("mysql-8.0", INNODB, "ALTER TABLE t ADD KEY (b), ALGORITHM=INSTANT", "refused"),
    ("mysql-8.0", INNODB, "CREATE INDEX kb ON t (b) ALGORITHM=INPLACE LOCK=NONE", "ran"),
    ("mysql-8.4", INNODB, "ALTER TABLE t DROP KEY k, ALGORITHM=INPLACE, LOCK=NONE", "ran"),
    # a type change copies everywhere; a reorder is instant in MariaDB only
    ("mysql-8.4", INNODB, "ALTER TABLE t MODIFY a BIGINT, LOCK=NONE", "refused"),
    ("mysql-8.4", INNODB, "ALTER TABLE t MODIFY a INT FIRST, ALGORITHM=INSTANT", "refused"),
    ("mariadb-11.x", INNODB, "ALTER TABLE t MODIFY a INT FIRST, ALGORITHM=INSTANT", "ran"),
    # RENAME TO alone: MySQL permits concurrent DML, MariaDB takes an exclusive lock
    ("mysql-8.0", INNODB, "ALTER TABLE t RENAME TO t2, LOCK=NONE", "ran"),
    ("mariadb-10.11", INNODB, "ALTER TABLE t RENAME TO t2, LOCK=NONE", "refused"),
    # MyISAM copies what changes rows, whatever the target
    ("mysql-8.0", MYISAM, "ALTER TABLE t ADD KEY (b), LOCK=NONE", "refused"),
    ("mysql-8.0", MYISAM, "ALTER TABLE t RENAME COLUMN b TO c, LOCK=NONE", "ran"),
    # DROP INDEX ... ON t with ALGORITHM/LOCK: MySQL's syntax; MariaDB 10.11 refuses it (1064)
    ("mysql-8.0", INNODB, "DROP INDEX k ON t ALGORITHM=INPLACE LOCK=NONE", "ran"),
    ("mysql-8.0", INNODB, "DROP INDEX k ON t ALGORITHM=INSTANT", "refused"),
    ("mariadb-10.11", INNODB, "DROP INDEX k ON t LOCK=NONE", "refused"),
    ("mariadb-10.11", INNODB, "DROP INDEX k ON t", "ran"),
    # ADD FOREIGN KEY in place depends on the session's foreign_key_checks
    ("mariadb-10.11", INNODB, "ALTER TABLE t ADD FOREIGN KEY (a) REFERENCES t (id), ALGORITHM=INPLACE", "undecided"),
])
def test_targets(target: str, create: str, alter: str, expected: str) -> None:
    verdict, message = _innolint(create, alter, target)
    if verdict == "other" and message is not None and "none of it is applied" in message:
        verdict = "refused"  # a syntax the target lacks (1064, 1800)
    assert verdict == expected, message


def test_refusal_keeps_the_table_and_says_why() -> None:
    """The reported example: MyISAM, ALTER ONLINE ... ADD UNIQUE: 1845, the table unchanged."""
    replayer = Replayer(target=Target.parse("mariadb-10.11"))
    replayer.apply(ops.SchemaStatement("use", "d2"), Location("m.sql", 1))
    cache = ParseCache()
    assert replayer.apply(cache.parse("CREATE TABLE d2.t2 (f CHAR(36) NOT NULL) ENGINE=MyISAM"), Location("m.sql", 2)) is None
    said = replayer.apply(cache.parse("ALTER ONLINE TABLE t2 ADD UNIQUE (f)"), Location("m.sql", 3))
    assert said is not None and said.errno == 1845 and said.kind == "online-ddl"
    message = said.message
    assert "error 1845" in message and "LOCK=NONE" in message and "LOCK=SHARED" in message
    assert "none of it is applied" in message
    table = replayer.model.find_schema("d2").tables["t2"]
    assert table.indexes == []


def _both_judge(mariadb: Any, database: str, setup: tuple[str, ...], statement: str) -> tuple[str, str]:
    """("ran" | "refused") from the server and from innolint for `statement` after `setup`; the
    server may refuse it only with 1845/1846."""
    import pymysql

    mariadb.sql(f"DROP DATABASE IF EXISTS {database}; CREATE DATABASE {database}")
    for text in setup:
        mariadb.sql(text, database)
    try:
        mariadb.sql(statement, database)
        server = "ran"
    except pymysql.err.MySQLError as error:
        assert error.args[0] in (1845, 1846), error
        server = "refused"
    replayer = Replayer(target=Target.parse("mariadb-10.11"))
    replayer.apply(ops.SchemaStatement("use", "db"), Location("s.sql", 1))
    cache = ParseCache()
    for line, text in enumerate(setup, start=2):
        assert replayer.apply(cache.parse(text), Location("s.sql", line)) is None, text
    said = replayer.apply(cache.parse(statement), Location("s.sql", len(setup) + 2))
    innolint = "ran" if said is None else "refused" if said.errno in (1845, 1846) else said.message
    return server, innolint


@pytest.mark.parametrize("names", [("child", "fk_parent", "k_a"), ("Orders", "FK_Orders_Customer", "IX_Total")])
@pytest.mark.parametrize("alter", [
    "DROP FOREIGN KEY {fk}, COMMENT='x', ALGORITHM=INSTANT",
    "DROP FOREIGN KEY {fk}, AUTO_INCREMENT=9, ALGORITHM=NOCOPY",
    "DROP FOREIGN KEY {fk}, ALGORITHM=INSTANT",
    "DROP FOREIGN KEY {fk}, ADD COLUMN z INT, STATS_PERSISTENT=1, ALGORITHM=INSTANT",
    "RENAME INDEX {k} TO k_new, DROP FOREIGN KEY {fk}, ALGORITHM=INSTANT",
    "RENAME INDEX {k} TO k_new, CHECKSUM=1, ALGORITHM=INSTANT, LOCK=NONE",
    "RENAME COLUMN a TO a2, MIN_ROWS=10, ALGORITHM=INSTANT",
    "RENAME COLUMN a TO a2, DROP COLUMN b, COMMENT='y', ALGORITHM=INSTANT",
])
def test_dictionary_change_with_table_option(mariadb: Any, names: tuple[str, str, str], alter: str) -> None:
    """A foreign key dropped (or a key or column renamed) is instant, and so is a table option,
    but not both in one statement on MariaDB 10.11 (1846 "Reason: DROP INDEX") unless a column is
    added or dropped with them (fuzz seed 403). The server's answer is innolint's."""
    table, fk, key = names
    setup = ("CREATE TABLE parent_t (id INT PRIMARY KEY) ENGINE=InnoDB",
             f"CREATE TABLE {table} (id INT PRIMARY KEY, a INT, b INT, p INT, KEY {key} (a), "
             f"CONSTRAINT {fk} FOREIGN KEY (p) REFERENCES parent_t (id)) ENGINE=InnoDB")
    statement = f"ALTER TABLE {table} " + alter.format(fk=fk, k=key)
    server, innolint = _both_judge(mariadb, "online_fk", setup, statement)
    assert innolint == server, statement


@pytest.mark.parametrize("unique", ["UNIQUE KEY uk (e)", "UNIQUE KEY uk USING BTREE (e)", "UNIQUE uk (e) USING BTREE",
                                    "CONSTRAINT uk UNIQUE (e)"])
@pytest.mark.parametrize("primary", ["PRIMARY KEY (e)", "PRIMARY KEY USING BTREE (e)", "PRIMARY KEY (e) USING HASH"])
@pytest.mark.parametrize("fulltext", [False, True])
def test_primary_key_over_the_clustering_unique_key(mariadb: Any, unique: str, primary: str, fulltext: bool) -> None:
    """ADD PRIMARY KEY over the columns of the UNIQUE NOT NULL key InnoDB clusters by keeps that
    index (NOCOPY) only when both are written with the same USING (or none); else the table is
    rebuilt, which with a FULLTEXT key takes LOCK=SHARED (fuzz seed 423)."""
    create = (f"CREATE TABLE Item (e VARCHAR(40) NOT NULL, f INT, {unique}"
              + (", FULLTEXT KEY ft (e)" if fulltext else "") + ") ENGINE=InnoDB")
    for clause in ("ALGORITHM=NOCOPY", "LOCK=NONE"):
        statement = f"ALTER TABLE Item ADD {primary}, {clause}"
        server, innolint = _both_judge(mariadb, "online_pk", (create,), statement)
        assert innolint == server, (create, statement)


@pytest.mark.parametrize("drop", [
    "DROP INDEX {k} ON {t} ALGORITHM=INPLACE", "DROP INDEX {k} ON {t} LOCK=NONE",
    "drop index `{k}` on `{t}` algorithm inplace lock shared", "DROP INDEX IF EXISTS {k} ON {t} LOCK = EXCLUSIVE",
])
@pytest.mark.parametrize("names", [("t_drop", "k1"), ("Orders", "ix_Customer")])
def test_drop_index_clauses_on_mariadb(mariadb: Any, drop: str, names: tuple[str, str]) -> None:
    """MySQL's `DROP INDEX ... ON t ALGORITHM=... LOCK=...` is a syntax error on MariaDB 10.11;
    innolint refuses it there and keeps the key."""
    import pymysql

    table, key = names
    create = f"CREATE TABLE {table} (id INT PRIMARY KEY, a INT, KEY {key} (a)) ENGINE=InnoDB"
    statement = drop.format(t=table, k=key)
    mariadb.sql("DROP DATABASE IF EXISTS online_drop; CREATE DATABASE online_drop")
    mariadb.sql(create, "online_drop")
    with pytest.raises(pymysql.err.MySQLError):
        mariadb.sql(statement, "online_drop")
    verdict, message = _innolint(create, statement)
    assert verdict == "other" and message is not None and "1064" in message and "none of it is applied" in message
