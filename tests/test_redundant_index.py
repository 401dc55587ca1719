"""redundant-index: duplicates and left prefixes as InnoDB stores indexes, and never the keys
peers get wrong (a UNIQUE or the PRIMARY KEY because a longer index starts with it, an index a
foreign key needs, a FULLTEXT next to a B-tree). Each class with several independent variations:
names, types, column order, how the DDL is written (CREATE, ALTER, CREATE INDEX, inline)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import findings, lint_sql

RULE = "redundant-index"


def flagged(sql: str, tmp_path: Path, target: str = "mysql-8.0") -> dict[str, str]:
    """redundant index name -> the fix, for every finding of the rule."""
    report = lint_sql(sql, tmp_path, target=target)
    assert not [d for d in report.diagnostics if d.rule in ("parse-error", "replay-error")], report.diagnostics
    return {f.subject or "": f.fix or "" for f in findings(report, RULE)}


# -- left prefixes -------------------------------------------------------------------------------
@pytest.mark.parametrize("sql", [
    "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT, created_at DATETIME, "
    "KEY idx_c (customer_id), KEY idx_c_created (customer_id, created_at))",
    "CREATE TABLE `Post` (`PostId` int NOT NULL AUTO_INCREMENT, `Author` varchar(40), `Title` varchar(90), "
    "INDEX `idx_c` (`Author`), INDEX `by_author_title` (`Author`, `Title`), PRIMARY KEY (`PostId`))",
    "CREATE TABLE m (k CHAR(8) NOT NULL PRIMARY KEY, x INT, y INT, z INT, KEY idx_c (x, y), KEY xyz (x, y, z))",
    "CREATE TABLE s (u INT PRIMARY KEY, a DATE, b INT); CREATE INDEX idx_c ON s (a); CREATE INDEX ab ON s (a, b)",
])
def test_left_prefix_of_a_longer_key(sql: str, tmp_path: Path) -> None:
    found = flagged(sql, tmp_path)
    assert list(found) == ["idx_c"], found
    assert found["idx_c"].endswith("DROP INDEX `idx_c`;")


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t (a INT NOT NULL, b INT NOT NULL, c INT, PRIMARY KEY (a, b), KEY idx_c (a))",
    "CREATE TABLE t (id INT PRIMARY KEY, email VARCHAR(90), tenant INT, UNIQUE KEY uq (email, tenant), KEY idx_c (email))",
    "CREATE TABLE t (a INT, b INT, c INT, UNIQUE (c, a), UNIQUE (a, b, c), INDEX idx_c (a, b))",
])
def test_plain_key_covered_by_a_unique_or_the_primary_key(sql: str, tmp_path: Path) -> None:
    assert list(flagged(sql, tmp_path)) == ["idx_c"]


@pytest.mark.parametrize("sql", [
    # never a UNIQUE or the PRIMARY KEY because a longer index starts with it: they enforce something
    "CREATE TABLE t (id INT PRIMARY KEY, email VARCHAR(90), KEY (email, id), UNIQUE KEY uq_email (email), KEY e (email, id))",
    "CREATE TABLE t (a INT, b INT, UNIQUE KEY ua (a), UNIQUE KEY uab (a, b))",
    "CREATE TABLE t (a INT NOT NULL PRIMARY KEY, b INT, KEY ab (a, b))",
    "CREATE TABLE t (a INT NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b), KEY ab (a, b, id2), id2 INT)",
    "CREATE TABLE t (tenant INT NOT NULL, code CHAR(3) NOT NULL, UNIQUE (tenant), KEY (tenant, code), UNIQUE (code))",
])
def test_unique_and_primary_keys_are_never_prefix_redundant(sql: str, tmp_path: Path) -> None:
    found = flagged(sql, tmp_path)
    assert not any(name.startswith(("uq", "ua", "primary", "tenant")) for name in found), found
    assert "primary" not in found


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t (a INT, b INT, c INT, KEY ab (a, b), KEY ac (a, c))",
    "CREATE TABLE t (a INT, b INT, KEY ab (a, b), KEY ba (b, a))",
    "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY a_id (a, id), KEY ab (a, b))",  # a_id keeps id order in a
    "CREATE TABLE t (a VARCHAR(50), KEY a10 (a(10)), KEY a5b (a(5), b), b INT)",
    "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY b_a (b, a), KEY a (a))",
])
def test_different_orders_are_not_redundant(sql: str, tmp_path: Path) -> None:
    assert flagged(sql, tmp_path) == {}


# -- duplicates, with InnoDB's primary key suffix --------------------------------------------------
@pytest.mark.parametrize(("sql", "name", "said"), [
    ("CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY ka (a), KEY ka_id (a, id))", "ka", "ends with the clustered key"),
    ("CREATE TABLE t (order_no BIGINT NOT NULL, line SMALLINT NOT NULL, sku CHAR(9), PRIMARY KEY (order_no, line), "
     "KEY by_sku (sku, order_no, line), KEY sku (sku))", "sku", "ends with the clustered key"),
    ("CREATE TABLE t (uid INT NOT NULL, v INT, UNIQUE KEY u (uid), KEY v_uid (v, uid), KEY v (v))", "v", "clustered key"),
    ("CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT, PRIMARY KEY (id), KEY id (id))", "id", "repeats the PRIMARY KEY"),
    ("CREATE TABLE t (a INT, b INT, KEY x (a, b), KEY y (a, b))", "y", "duplicates KEY `x`"),
    ("CREATE TABLE t (email VARCHAR(90), UNIQUE KEY e (email), KEY e2 (email))", "e2", "duplicates UNIQUE KEY `e`"),
])
def test_duplicates(sql: str, name: str, said: str, tmp_path: Path) -> None:
    report = lint_sql(sql, tmp_path)
    [finding] = findings(report, RULE)
    assert finding.subject == name and said in finding.message, finding.message


@pytest.mark.parametrize(("columns", "said"), [
    ("id INT", "left prefix"),  # clustered on the hidden row id: no suffix
    ("id INT UNIQUE", "left prefix"),  # a nullable UNIQUE does not cluster
    ("id INT NOT NULL UNIQUE", "same index"),  # it does: (a) is stored as (a, id)
    ("id INT NOT NULL AUTO_INCREMENT PRIMARY KEY", "same index"),
])
def test_the_suffix_is_the_clustered_key(columns: str, said: str, tmp_path: Path) -> None:
    report = lint_sql(f"CREATE TABLE t ({columns}, a INT, KEY a_id (a, id), KEY a (a))", tmp_path)
    [finding] = findings(report, RULE)
    assert finding.subject == "a" and said in finding.message


@pytest.mark.parametrize(("sql", "name"), [
    ("CREATE TABLE t (id INT PRIMARY KEY, e VARCHAR(9), UNIQUE KEY a (e), UNIQUE KEY b (e))", "b"),
    ("CREATE TABLE t (id INT, UNIQUE KEY uid (id), PRIMARY KEY (id))", "uid"),
    ("CREATE TABLE t (k INT NOT NULL, v INT, UNIQUE (k), UNIQUE (k)) ENGINE=InnoDB", "k_2"),
])
def test_a_unique_key_that_duplicates_another_unique_is_redundant(sql: str, name: str, tmp_path: Path) -> None:
    assert list(flagged(sql, tmp_path)) == [name]


def test_three_duplicates_keep_one_and_name_it(tmp_path: Path) -> None:
    report = lint_sql("CREATE TABLE t (a INT, KEY k1 (a), KEY k2 (a), KEY k3 (a))", tmp_path)
    found = findings(report, RULE)
    assert sorted(f.subject or "" for f in found) == ["k2", "k3"]
    assert all("KEY `k1`" in f.message for f in found)


# -- prefix lengths, directions, functional parts ------------------------------------------------
@pytest.mark.parametrize(("keys", "name"), [
    ("KEY s (a(10)), KEY l (a(20))", "s"),
    ("KEY l (a(20)), KEY s (a(10))", "s"),
    ("KEY s (a(10)), KEY w (a)", "s"),
    ("KEY w (a), KEY s (a(10))", "s"),
    ("KEY s (a(10)), KEY l (a(20), b)", "s"),
    ("KEY full (a(100)), KEY w (a)", "w"),  # a prefix as long as the column is the whole column: duplicates
])
def test_prefix_lengths(keys: str, name: str, tmp_path: Path) -> None:
    assert list(flagged(f"CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(100), b INT, {keys})", tmp_path)) == [name]


def test_a_shorter_prefix_before_the_last_part_is_not_covered(tmp_path: Path) -> None:
    assert flagged("CREATE TABLE t (a VARCHAR(100), b INT, KEY x (a(10), b), KEY y (a(20), b))", tmp_path) == {}


@pytest.mark.parametrize(("keys", "on_mysql8", "on_mysql57"), [
    ("KEY r (a DESC), KEY k (a, b)", ["r"], ["r"]),
    ("KEY r (a, b DESC), KEY k (a, b, c)", [], ["r"]),
    ("KEY r (a DESC, b DESC), KEY k (a, b, c)", ["r"], ["r"]),
    ("KEY r (a DESC, b), KEY k (a, b)", [], ["k"]),  # duplicates where DESC is ignored: the later goes
])
def test_directions_follow_the_target(keys: str, on_mysql8: list[str], on_mysql57: list[str], tmp_path: Path) -> None:
    sql = f"CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, c INT, {keys})"
    assert list(flagged(sql, tmp_path, target="mysql-8.0")) == on_mysql8
    assert list(flagged(sql, tmp_path, target="mysql-5.7")) == on_mysql57
    assert list(flagged(sql, tmp_path, target="mariadb-10.11")) == on_mysql8  # 10.8+ keeps DESC
    assert list(flagged(sql, tmp_path, target="mariadb-10.6")) == on_mysql57


def test_functional_key_parts_match_only_the_same_expression(tmp_path: Path) -> None:
    sql = ("CREATE TABLE t (id INT PRIMARY KEY, email VARCHAR(90), n INT, KEY f ((lower(email))), "
           "KEY fn ((LOWER(email)), n), KEY e (email))")
    assert list(flagged(sql, tmp_path)) == ["f"]


# -- kinds, visibility ---------------------------------------------------------------------------
@pytest.mark.parametrize(("sql", "expected"), [
    ("CREATE TABLE t (id INT PRIMARY KEY, body TEXT, title VARCHAR(90), FULLTEXT KEY fb (body), "
     "FULLTEXT KEY fbt (body, title))", []),
    ("CREATE TABLE t (id INT PRIMARY KEY, title VARCHAR(90), FULLTEXT KEY ft (title), KEY bt (title))", []),
    ("CREATE TABLE t (id INT PRIMARY KEY, title VARCHAR(90), KEY bt (title), FULLTEXT KEY ft (title, id2), id2 VARCHAR(20))", []),
    ("CREATE TABLE t (id INT PRIMARY KEY, body TEXT, FULLTEXT KEY f1 (body), FULLTEXT KEY f2 (body))", ["f2"]),
    ("CREATE TABLE t (id INT PRIMARY KEY, g POINT NOT NULL, SPATIAL KEY s1 (g), SPATIAL KEY s2 (g))", ["s2"]),
])
def test_fulltext_and_spatial_only_duplicate_their_own_kind(sql: str, expected: list[str], tmp_path: Path) -> None:
    assert list(flagged(sql, tmp_path)) == expected


def test_an_invisible_index_covers_nothing_but_can_be_redundant(tmp_path: Path) -> None:
    hidden_long = "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY a (a), KEY ab (a, b) INVISIBLE)"
    assert flagged(hidden_long, tmp_path) == {}
    ignored_long = "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY a (a), KEY ab (a, b) IGNORED)"
    assert flagged(ignored_long, tmp_path, target="mariadb-10.11") == {}
    report = lint_sql("CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY a (a) IGNORED, KEY ab (a, b))", tmp_path,
                      target="mariadb-10.11")
    [finding] = findings(report, RULE)
    assert finding.subject == "a" and "invisible to the optimizer" in finding.message
    assert "ALTER INDEX" not in finding.message  # already hidden: the fix is the drop


# -- foreign keys --------------------------------------------------------------------------------
def test_a_covering_key_that_serves_the_foreign_key(tmp_path: Path) -> None:
    sql = ("CREATE TABLE customer (id INT PRIMARY KEY); CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, "
           "d DATE, KEY fk_customer (customer_id), KEY cd (customer_id, d), "
           "CONSTRAINT fk_customer FOREIGN KEY (customer_id) REFERENCES customer (id))")
    report = lint_sql(sql, tmp_path)
    [finding] = findings(report, RULE)
    assert finding.subject == "fk_customer" and "also serves foreign key `fk_customer`" in finding.message


@pytest.mark.parametrize("sql", [
    # the child's composite foreign key needs (a, id) as written; UNIQUE (a) is (a, id) only as stored
    "CREATE TABLE p (a INT, id INT, PRIMARY KEY (a, id)); CREATE TABLE c (id INT PRIMARY KEY, a INT, "
    "UNIQUE KEY ua (a), KEY a_id (a, id), FOREIGN KEY (a, id) REFERENCES p (a, id))",
    # the parent's index another table's foreign key references
    "CREATE TABLE p (id INT PRIMARY KEY, code INT, UNIQUE KEY uc (code), KEY code_id (code, id)); "
    "CREATE TABLE c (x INT, y INT, FOREIGN KEY (x, y) REFERENCES p (code, id))",
])
def test_an_index_a_foreign_key_needs_stays_when_nothing_else_serves_it(sql: str, tmp_path: Path) -> None:
    assert flagged(sql, tmp_path, target="mariadb-10.11") == {}


def test_the_parent_side_is_served_by_the_covering_key(tmp_path: Path) -> None:
    sql = ("CREATE TABLE p (id INT PRIMARY KEY, code INT, name VARCHAR(9), KEY code (code), KEY cn (code, name)); "
           "CREATE TABLE c (x INT, FOREIGN KEY (x) REFERENCES p (code))")
    report = lint_sql(sql, tmp_path, target="mariadb-10.11")
    [finding] = findings(report, RULE)
    assert finding.subject == "code" and "foreign key `c_ibfk_1` of c" in finding.message


# -- the names the server gives and where the finding sits ----------------------------------------
@pytest.mark.parametrize(("sql", "dropped"), [
    ("CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY (a, b), KEY (a))", "a_2"),
    ("CREATE TABLE t (id INT PRIMARY KEY, email VARCHAR(90) UNIQUE, KEY (email))", "email_2"),
    ("CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY (b), KEY (a), KEY (a, b))", "a"),
    ("CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY a_2 (b), KEY (a, b)); ALTER TABLE t ADD KEY (a)", "a_3"),
])
def test_the_fix_drops_the_index_by_the_name_the_server_gave_it(sql: str, dropped: str, tmp_path: Path) -> None:
    found = flagged(sql, tmp_path)
    assert found == {dropped: f"ALTER TABLE `t` DROP INDEX `{dropped}`;"}


def test_the_finding_sits_on_the_statement_that_made_the_index_redundant(tmp_path: Path) -> None:
    history = tmp_path / "migrations"
    history.mkdir()
    (history / "V1__orders.sql").write_text(
        "CREATE TABLE orders (\n  id INT PRIMARY KEY,\n  customer_id INT,\n  KEY idx_customer (customer_id)\n);\n")
    (history / "V2__other.sql").write_text("CREATE TABLE other (id INT PRIMARY KEY);\n")
    (history / "V10__reporting.sql").write_text(
        "-- reporting\nALTER TABLE orders ADD COLUMN placed DATE,\n  ADD KEY idx_customer_placed (customer_id, placed);\n")
    from linter.rules.checkapi import CheckContext
    from linter.engine import lint_paths

    report = lint_paths([str(history)], CheckContext())
    [finding] = findings(report, RULE)
    assert finding.path.endswith("V10__reporting.sql") and finding.line == 3  # the ADD KEY's own line
    assert finding.fix == "ALTER TABLE `orders` DROP INDEX `idx_customer`;"
    (history / "V11__again.sql").write_text("CREATE INDEX idx_customer_again ON orders (customer_id);\n")
    found = findings(lint_paths([str(history)], CheckContext()), RULE)
    assert {(f.subject, Path(f.path).name) for f in found} == {
        ("idx_customer", "V10__reporting.sql"), ("idx_customer_again", "V11__again.sql")}


def test_single_keys_are_left_alone(tmp_path: Path) -> None:
    assert flagged("CREATE TABLE t (id INT PRIMARY KEY)", tmp_path) == {}
    assert flagged("CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY (a)) ENGINE=MyISAM", tmp_path) == {}


@pytest.mark.parametrize("engine", ["MyISAM", "Aria", "MEMORY", "@ZM_MYSQL_ENGINE@", "InnoDB"])
def test_every_engine_is_judged(tmp_path: Path, engine: str) -> None:
    """Issue 34: a redundant key costs every engine's writes. A MEMORY key is a hash unless written
    USING BTREE: a hash is a prefix of nothing (it serves lookups of its whole key alone)."""
    def redundant(sql: str) -> set[str]:
        return {f.subject or "" for f in findings(lint_sql(sql + ";\n", tmp_path), RULE)}

    sql = f"CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b INT, KEY a (a), KEY ab (a, b), KEY a2 (a)) ENGINE={engine}"
    assert redundant(sql) == ({"a2"} if engine == "MEMORY" else {"a", "a2"})
    btree = ("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, b INT, KEY a (a) USING BTREE, "
             f"KEY ab (a, b) USING BTREE) ENGINE={engine}")
    assert redundant(btree) == {"a"}


@pytest.mark.parametrize("engine", ["MyISAM", "Aria"])
def test_no_primary_key_suffix_outside_innodb(tmp_path: Path, engine: str) -> None:
    """InnoDB's `KEY (a, id)` is `KEY (a)` with PRIMARY KEY (id); a MyISAM or Aria index points at
    rows by position: `KEY (a)` is a left prefix of `KEY (a, id)`, not the same index."""
    sql = f"CREATE TABLE t (id INT NOT NULL PRIMARY KEY, a INT, KEY a (a), KEY aid (a, id)) ENGINE={engine}"
    [finding] = findings(lint_sql(sql + ";\n", tmp_path), RULE)
    assert finding.subject == "a" and "left prefix of" in finding.message and "as InnoDB stores" not in finding.message
    assert f"{engine} maintains it" in finding.message
    [innodb] = findings(lint_sql(sql.replace(engine, "InnoDB") + ";\n", tmp_path), RULE)
    assert "as InnoDB stores them" in innodb.message


# -- the server as the oracle -----------------------------------------------------------------------
def _generated_tables(seed: int, count: int, engines: tuple[str, ...] = ("InnoDB",)) -> list[str]:
    """CREATE TABLE statements with random keys over a few columns: duplicates, prefixes, the
    primary key suffix, prefix lengths, unnamed keys, a FULLTEXT, a child table whose foreign key
    a declared key serves (an unserved one makes the server add a key the DDL does not have)."""
    import random

    rng = random.Random(seed)
    keys = ["KEY{n} (a)", "KEY{n} (a, b)", "KEY{n} (a, {pk})", "UNIQUE KEY{n} (a)", "UNIQUE KEY{n} (a, b)",
            "KEY{n} (s(10))", "KEY{n} (s)", "KEY{n} (b, a)", "KEY{n} (b)", "KEY{n} ({pk})", "FULLTEXT KEY{n} (s)",
            "KEY{n} (a DESC)", "UNIQUE KEY{n} ({pk})", "KEY{n} (a, b, c)", "KEY{n} (s(20), a)"]
    tables = []
    for n in range(count):
        pk = rng.choice(["id", "c"])
        head = rng.choice([f"PRIMARY KEY ({pk})", f"UNIQUE KEY ({pk})", f"PRIMARY KEY ({pk}, a)"])
        chosen = [rng.choice(keys).format(n=rng.choice(["", "", f" k{i}"]), pk=pk) for i in range(rng.randint(2, 6))]
        engine = engines[n % len(engines)]
        if engine == "MEMORY":  # no FULLTEXT there; its keys are hashes unless written USING BTREE
            chosen = [k.replace("FULLTEXT KEY", "KEY") + rng.choice(["", " USING BTREE", " USING HASH"]) for k in chosen]
        tables.append(f"CREATE TABLE g{n} (id INT NOT NULL, a INT NOT NULL, b INT, c INT NOT NULL, s VARCHAR(50), "
                      f"{head}, {', '.join(chosen)}) ENGINE={engine}")
        served = [k for k in chosen if k.split("(", 1)[1].startswith("a") and "FULLTEXT" not in k]
        if served and rng.random() < 0.5 and engine == "InnoDB":
            tables.append(f"CREATE TABLE g{n}_child (x INT PRIMARY KEY, a INT NOT NULL, KEY (a), "
                          f"FOREIGN KEY (a) REFERENCES g{n} (a)) ENGINE=InnoDB")
    return tables


@pytest.mark.parametrize("engines", [("InnoDB",), ("MyISAM", "Aria", "MEMORY", "InnoDB")])
def test_every_fix_drops_the_index_the_model_means_on_mariadb(mariadb, tmp_path: Path, engines) -> None:  # type: ignore[no-untyped-def]
    """Lint generated DDL as a file (the model names unnamed keys), load it into MariaDB, and for
    every finding: the index the fix names must be, on the server, the index the finding is about
    (same columns), the fix must run, and auditing the server afterwards finds none left."""
    import io

    import pymysql

    from linter.audit.connection import connect
    from linter.audit.server import AuditOptions, read_server, run_checks
    from linter.rules.checkapi import CheckContext
    from linter.schema.target import Target

    schema = "redundant_gen"
    statements = _generated_tables(seed=20, count=40, engines=engines)
    report = lint_sql(";\n".join(statements) + ";\n", tmp_path, target="mariadb-10.11")
    assert not report.diagnostics, report.diagnostics
    found = findings(report, RULE)
    mariadb.sql(f"DROP DATABASE IF EXISTS {schema}; CREATE DATABASE {schema}")
    try:
        for statement in statements:
            mariadb.sql(statement, database=schema)
        server_keys = {
            (str(t), str(i)): str(cols) for t, i, cols in mariadb.sql(
                "SELECT TABLE_NAME, INDEX_NAME, GROUP_CONCAT(CONCAT(COLUMN_NAME, IFNULL(CONCAT('(', SUB_PART, ')'), ''))"
                " ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS "
                f"WHERE TABLE_SCHEMA = '{schema}' GROUP BY TABLE_NAME, INDEX_NAME")}
        failures = []
        for finding in found:
            written = (finding.evidence or "").split(";")[0]
            columns = written[written.index("(") + 1: written.rindex(")")].replace("`", "").replace(" DESC", "")
            on_server = server_keys.get((finding.table or "", finding.subject or ""))
            if on_server != columns.replace(" ", ""):
                failures.append(f"{finding.table}.{finding.subject}: model ({columns}) server ({on_server})")
                continue
            try:
                mariadb.sql(finding.fix or "", database=schema)
            except pymysql.err.MySQLError as error:
                failures.append(f"{finding.fix}: {error}")
        assert failures == [], "\n".join(failures)
        with connect(f"mysql://root@/?socket={mariadb.socket}") as connection:
            audited = read_server(connection, [schema], AuditOptions(), stderr=io.StringIO())
        after = run_checks(audited, CheckContext(target=Target.parse("mariadb-10.11")))
        assert findings(after, RULE) == []
    finally:
        mariadb.sql(f"DROP DATABASE IF EXISTS {schema}")
    assert len(found) >= 40, len(found)  # the generator makes many: the test must have compared them
