"""The order of a table's keys, and so the index InnoDB clusters it on, against MariaDB
(linter/server/key_order.py). The server looks at the FIRST key alone: CREATE TABLE sorts the
keys, MariaDB's ALTER TABLE sorts them again only when it adds a key or changes the clustered
one, and a UNIQUE key MariaDB keeps as a hash (USING HASH, or wider than a B-tree key) never
clusters. Generated scripts - tables of several UNIQUE keys over nullable and NOT NULL columns,
then ALTERs that change nullability, add, drop and rename keys, drop columns, rebuild - are loaded
into the test MariaDB and replayed by innolint; the clustered index and the keys must be the
server's (tests/test_model_oracle.py's judge). The server showed, before this was modelled:

- `UNIQUE ub (b), UNIQUE ua (a)` both nullable, then `MODIFY a INT NOT NULL` (also with FORCE or
  ALGORITHM=COPY): still the hidden row id; a later `ADD KEY k (b)` clusters it on ua;
- the same with a PRIMARY KEY dropped by a later ALTER: the row id;
- `MODIFY` making the clustered UNIQUE key's column nullable, or `DROP COLUMN` of one of its
  columns, sorts the keys again (`UNIQUE ua (a) ... UNIQUE uc (c)`, c made NOT NULL, then a
  dropped: clustered on uc);
- `UNIQUE (a) USING HASH` on an INT NOT NULL, and a UNIQUE key over 700 + 69 utf8mb4 characters:
  the row id (700 + 68, 3,072 bytes, is a B-tree and clusters).
"""

from __future__ import annotations

import pytest

from tests import test_model_oracle as O
from tests.mariadb import MariaDB

#: scripts; each is judged whole by the server
SCRIPTS = 80
SEED = 19_000

#: VARCHAR(800) is a hash key in utf8mb4 (3,200 bytes), a B-tree in latin1; VARCHAR(700) a B-tree in both
WIDE = ("VARCHAR(700)", "VARCHAR(800)")
TYPES = ("INT", "BIGINT", "VARCHAR(20)", "CHAR(8)", *WIDE, "DATE")


class _Table:
    """What the generator knows of its table: the columns (name -> type) and the key names."""

    def __init__(self, g: O.Gen) -> None:
        self.g = g
        self.columns: dict[str, str] = {}
        self.keys: list[str] = []
        self.numbered = 0

    def key_name(self) -> str:
        self.numbered += 1
        return self.g.pick((f"uk_{self.numbered}", f"Key{self.numbered}", f"`k {self.numbered}`"))

    def column(self) -> str:
        return self.g.pick(list(self.columns))


def key_order(g: O.Gen) -> O.Case:
    t = _Table(g)
    name = g.table()
    for column in g.names(g.rng.randrange(2, 5)):
        t.columns[column] = g.pick(TYPES)
    elements = [f"{c} {kind}{g.pick((' NOT NULL', '', '', ' NULL'))}" for c, kind in t.columns.items()]
    elements += g.fillers()
    keys: list[str] = []
    for column in g.rng.sample(list(t.columns), g.rng.randrange(1, len(t.columns) + 1)):
        key = t.key_name()
        t.keys.append(key)
        how = g.rng.randrange(6)
        if how == 0:
            keys.append(f"KEY {key} ({column})")
        elif how == 1:
            keys.append(f"UNIQUE {key} ({column}) USING HASH")
        else:
            keys.append(f"UNIQUE {g.pick(('KEY ', 'INDEX ', ''))}{key} ({column})")
    if g.chance(0.3) and len(t.columns) > 1:
        first, second = g.rng.sample(list(t.columns), 2)
        key = t.key_name()
        t.keys.append(key)
        keys.append(f"UNIQUE {key} ({first}, {second})")
    if g.chance(0.2):  # (on a wide VARCHAR the server refuses it, 1071: index-key-length says so)
        keys.append(f"PRIMARY KEY ({t.column()})")
        t.keys.append("PRIMARY")
    body = g.shuffled(elements) + g.shuffled(keys)
    charset = g.pick((" DEFAULT CHARSET=utf8mb4", "", " DEFAULT CHARSET=latin1"))
    statements = [f"CREATE TABLE {name} ({', '.join(body)}){charset}"]
    for _ in range(g.rng.randrange(1, 5)):
        statements.append(_alter(g, t, name))
    return O.Case("key-order", statements)


def _alter(g: O.Gen, t: _Table, name: str) -> str:
    """One ALTER (or CREATE/DROP INDEX) of the table; the server may refuse some (a key on a
    dropped column, a PRIMARY KEY over NULLs is fine on an empty table): innolint must too. One
    in seven ALTERs does two or three things at once (`DROP INDEX ua, DROP a`: a key dropped with
    its column does not make the server sort the others again; `DROP a` alone does)."""
    how = g.rng.randrange(14)
    if how == 4:
        key = t.key_name()
        t.keys.append(key)
        return f"CREATE {g.pick(('', 'UNIQUE '))}INDEX {key} ON {name} ({t.column()})"
    if how == 7:
        rebuild = g.pick(("FORCE", "ENGINE=InnoDB", "ALGORITHM=COPY, FORCE", "COMMENT = 'x'"))
        return f"ALTER TABLE {name} {rebuild}"
    if how >= 12:
        clauses = [_clause(g, t, g.pick((0, 3, 5, 5, 6, 6, 8, 9))) for _ in range(g.rng.randrange(2, 4))]
        return f"ALTER TABLE {name} " + ", ".join(clauses)
    return f"ALTER TABLE {name} " + _clause(g, t, how)


def _clause(g: O.Gen, t: _Table, how: int) -> str:
    """One action of an ALTER TABLE, the generator's table changed as the server would if it runs."""
    column = t.column()
    if how <= 2:
        return f"MODIFY {column} {t.columns[column]} {g.pick(('NOT NULL', 'NULL', 'NOT NULL'))}"
    if how == 3:
        key = t.key_name()
        t.keys.append(key)
        return f"ADD {g.pick(('KEY', 'UNIQUE', 'UNIQUE KEY', 'INDEX'))} {key} ({column})"
    if how == 5 and t.keys:
        key = g.pick(t.keys)
        t.keys.remove(key)
        return "DROP PRIMARY KEY" if key == "PRIMARY" else f"DROP INDEX {key}"
    if how == 6 and len(t.columns) > 1:
        del t.columns[column]
        return f"DROP COLUMN {column}"
    if how == 8:
        t.keys.append("PRIMARY")
        return f"ADD PRIMARY KEY ({column})"
    if how == 9:
        added = g.pick(("z1", "z2", "`z 3`"))
        if added in t.columns:
            return f"MODIFY {added} INT NULL"
        t.columns[added] = "INT"
        return f"ADD {added} INT {g.pick(('NOT NULL', 'NULL', 'NOT NULL UNIQUE'))}"
    new = g.pick(("renamed", "c2", "`new name`"))
    if new in t.columns:
        return f"MODIFY {new} {t.columns[new]} NOT NULL"
    t.columns[new] = t.columns.pop(column)
    return f"CHANGE {column} {new} {t.columns[new]}{g.pick((' NOT NULL', ''))}"


@pytest.fixture(scope="module")
def outcomes(mariadb: MariaDB) -> list[O.Outcome]:
    cases = O.generate_cases((key_order,), SCRIPTS, SEED, noise=0.3)
    return O.judge_cases(mariadb, cases, "ko")


def test_the_clustered_index_is_the_servers(outcomes: list[O.Outcome]) -> None:
    failed = [f"--- {o.text}" + "\n".join(o.problems) for o in outcomes if o.problems]
    assert failed == [], "\n\n".join(failed)


def test_the_scripts_reach_each_outcome(outcomes: list[O.Outcome]) -> None:
    """The scripts are no toy: some end on the row id with a NOT NULL UNIQUE key behind the first
    key, some cluster on a UNIQUE key after an ALTER, some the server refuses in part."""
    texts = [o.text for o in outcomes]
    assert len(set(texts)) == len(texts) == SCRIPTS
    assert sum(bool(o.refused) for o in outcomes) >= 3
    assert sum("USING HASH" in t for t in texts) >= 10


#: tables whose keys an ALTER left out of the sorted order, or whose UNIQUE key is a hash
AUDITED = (
    "CREATE TABLE frozen (a INT, b INT, UNIQUE ub (b), UNIQUE ua (a)); ALTER TABLE frozen MODIFY a INT NOT NULL",
    "CREATE TABLE resorted (a INT, b INT, UNIQUE ub (b), UNIQUE ua (a)); ALTER TABLE resorted MODIFY a INT NOT NULL; "
    "ALTER TABLE resorted ADD KEY k (b)",
    "CREATE TABLE dropped_pk (c INT, a INT, UNIQUE uc (c), UNIQUE ua (a), PRIMARY KEY (a)); "
    "ALTER TABLE dropped_pk DROP PRIMARY KEY",
    "CREATE TABLE hashed (a INT NOT NULL, n INT, UNIQUE ka (a) USING HASH, UNIQUE kn (n))",
    "CREATE TABLE wide (w VARCHAR(800) NOT NULL, UNIQUE kw (w)) DEFAULT CHARSET=utf8mb4",
    "CREATE TABLE plain (x CHAR(4) NOT NULL, y INT, KEY ky (y), UNIQUE kx (x))",
)


def test_the_audit_reads_the_order_the_server_keeps(mariadb: MariaDB) -> None:
    """SHOW CREATE TABLE lists the keys in the server's order, which an ALTER may have left
    unsorted: the audit keeps it (it does not sort them as a CREATE TABLE would), so its clustered
    index is InnoDB's for every table."""
    import io

    from linter.audit.connection import connect
    from linter.audit.server import AuditOptions, read_server
    from linter.engine import Engine
    from linter.rules.checkapi import CheckContext
    from linter.schema.target import Target

    schema = "ko_audit"
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    try:
        for script in AUDITED:
            mariadb.sql(script, schema)
        truth = dict(mariadb.sql(
            "SELECT SUBSTRING_INDEX(t.NAME, '/', -1), i.NAME FROM information_schema.INNODB_SYS_TABLES t "
            f"JOIN information_schema.INNODB_SYS_INDEXES i ON i.TABLE_ID = t.TABLE_ID WHERE t.NAME LIKE '{schema}/%' "
            "AND i.TYPE & 1"))
        engine = Engine(CheckContext(target=Target.parse("mariadb-10.11")))
        with connect(f"mysql://root@/?socket={mariadb.socket}&schemas={schema}") as connection:
            audit = read_server(connection, [schema], AuditOptions(), engine, stderr=io.StringIO())
        model = {t.name: (t.clustered_index.name if t.clustered_index else "GEN_CLUST_INDEX")
                 for t in audit.model.tables()}
        assert model == truth
        assert sorted(set(truth.values())) == ["GEN_CLUST_INDEX", "kx", "ua"]  # (the cases differ)
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")
