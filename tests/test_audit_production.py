"""`innolint audit` as a cautious DBA points it at production (issue 36, and issue 37's bounded
sampling reads), against the real MariaDB:

- a table another session keeps locked (LOCK TABLES ... WRITE; an open transaction with an ALTER
  waiting behind it) costs at most one lock_wait_timeout and is reported skipped with the reason;
  the session's statement timeout stops a statement that runs too long;
- users with the minimal grants run the audit, and it says which feature a missing grant turned
  off;
- every sampling read is bounded in the rows it examines (the session's Handler_read_* counters),
  the same at n and 10n rows: a mostly-NULL column and a prefix primary key included;
- the audit sends one statement per table plus a fixed handful, and --max-queries-per-second
  spaces them out.
"""

from __future__ import annotations

import io
import random
import re
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from linter.audit.connection import AuditQueryError, ReadOnlyConnection, SessionLimits, connect
from linter.audit.coverage import Coverage
from linter.audit.key_sampling import RANGES, key_column, sample_keys, sample_queries
from linter.audit.sampling import EXAMINED_PER_VALUE, sample_columns
from linter.audit.server import Audit, AuditOptions, read_server, run_checks
from linter.cli import main
from linter.engine import Engine
from linter.rules.checkapi import CheckContext
from linter.schema.target import Target
from tests.complexity import assert_linear
from tests.mariadb import MariaDB

SCHEMA = "audit_prod"
TARGET = Target.parse("mariadb-10.11")
#: sample every candidate column, whatever its table's size
SAMPLE_ALL = {"compression-candidate": {"min_size": 0}}
LIMITS = SessionLimits(lock_wait_timeout=1, statement_timeout=10)


def _engine() -> Engine:
    return Engine(CheckContext(target=TARGET, options=SAMPLE_ALL))


def _docs_in(server: MariaDB, schema: str, table: str, rows: int, rng: random.Random) -> None:
    """A table keyed by random UUIDs with a JSON document: a candidate of both samples."""
    server.sql(f"CREATE TABLE {schema}.{table} (id CHAR(36) NOT NULL PRIMARY KEY, doc JSON) ENGINE=InnoDB")
    values = ", ".join(f"('{uuid.UUID(int=rng.getrandbits(128), version=4)}', "
                       f"'{{\"n\": {n}, \"kind\": \"order\", \"note\": \"{'x' * (n % 40)}\"}}')" for n in range(rows))
    server.sql(f"INSERT INTO {schema}.{table} VALUES {values}")


def _docs(server: MariaDB, table: str, rows: int, rng: random.Random) -> None:
    _docs_in(server, SCHEMA, table, rows, rng)


@pytest.fixture(scope="module")
def server(mariadb: MariaDB) -> Iterator[MariaDB]:
    mariadb.sql(f"DROP DATABASE IF EXISTS {SCHEMA}; CREATE DATABASE {SCHEMA}")
    rng = random.Random(36)
    for table in ("locked_docs", "ddl_docs", "free_docs"):
        _docs(mariadb, table, 60, rng)
    mariadb.sql(f"CREATE TABLE {SCHEMA}.no_key_log (logged_at DATETIME NOT NULL, message TEXT) ENGINE=InnoDB; "
                f"INSERT INTO {SCHEMA}.no_key_log SELECT NOW(), CONCAT('line ', seq) FROM seq_1_to_6000", SCHEMA)
    yield mariadb
    mariadb.sql(f"DROP DATABASE IF EXISTS {SCHEMA}")


def _connect(server: MariaDB, limits: SessionLimits = LIMITS) -> ReadOnlyConnection:
    return connect(f"mysql://root@/?socket={server.socket}&schemas={SCHEMA}", limits=limits)


def _audit(server: MariaDB, limits: SessionLimits = LIMITS, sample: int = 20) -> tuple[Audit, float]:
    """The audit, run in a thread so that a hang fails the test (after 60 s) instead of the run."""
    result: dict[str, Any] = {}

    def run() -> None:
        started = time.monotonic()
        with _connect(server, limits) as connection:
            result["audit"] = read_server(connection, [SCHEMA], AuditOptions(sample=sample), _engine(),
                                          stderr=io.StringIO())
        result["seconds"] = time.monotonic() - started

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "the audit was still waiting after 60 s"
    return result["audit"], result["seconds"]


# --- a held lock ------------------------------------------------------------------------------------


def test_a_write_locked_table_is_skipped_with_the_reason_and_the_audit_finishes(server: MariaDB) -> None:
    holder = server.connect()
    try:
        with holder.cursor() as cursor:
            cursor.execute(f"LOCK TABLES {SCHEMA}.locked_docs WRITE")
        audit, seconds = _audit(server)
    finally:
        holder.close()  # the lock goes with the session
    # the DDL is still read (SHOW CREATE TABLE takes a lock LOCK TABLES ... WRITE does not block)
    assert audit.model.find_table(SCHEMA, "locked_docs") is not None
    skipped = [d for d in audit.diagnostics if d.path.endswith("/locked_docs")]
    assert len(skipped) == 1 and skipped[0].rule == "io-error"
    assert "--sample (compression-candidate) of column doc skipped: another session holds a lock on it" in \
        skipped[0].message and "lock_wait_timeout (1 s)" in skipped[0].message
    # one wait for the table, not one per read of it: its key sample is skipped for the same reason
    (keys,) = [n for n in audit.notes if n.startswith("--sample (uuid-primary-key): not read for 1: another session")]
    assert keys.endswith(f": {SCHEMA}.locked_docs")
    assert seconds < 1 + 8  # one lock_wait_timeout and the rest of a small audit
    # the other tables were sampled
    assert f"{SCHEMA}.free_docs.doc" in audit.measurements and f"{SCHEMA}.free_docs.id" in audit.key_samples
    assert f"{SCHEMA}.locked_docs.id" not in audit.key_samples


def test_a_table_behind_a_waiting_alter_is_skipped(server: MariaDB) -> None:
    """The production pile-up: a transaction holds a table's metadata lock, an ALTER waits for it,
    and every new reader queues behind the ALTER. The audit waits one lock_wait_timeout, skips the
    table, and goes on; SHOW CREATE TABLE, a high-priority metadata read, does not queue."""
    reader = server.connect()
    alter = threading.Thread(target=lambda: server.sql(f"ALTER TABLE {SCHEMA}.ddl_docs ADD COLUMN extra INT"))
    try:
        with reader.cursor() as cursor:
            cursor.execute("BEGIN")
            cursor.execute(f"SELECT id FROM {SCHEMA}.ddl_docs LIMIT 1")
            cursor.fetchall()
        alter.start()
        deadline = time.monotonic() + 10
        while not server.sql("SELECT ID FROM information_schema.PROCESSLIST WHERE STATE = 'Waiting for table "
                             "metadata lock' AND INFO LIKE 'ALTER TABLE%'"):
            assert time.monotonic() < deadline, "the ALTER never waited"
            time.sleep(0.05)
        audit, seconds = _audit(server)
    finally:
        reader.commit()
        reader.close()
        alter.join(30)
    assert audit.model.find_table(SCHEMA, "ddl_docs") is not None
    assert any(d.path.endswith("/ddl_docs") and "not released within lock_wait_timeout (1 s)" in d.message
               for d in audit.diagnostics)
    assert seconds < 1 + 8
    server.sql(f"ALTER TABLE {SCHEMA}.ddl_docs DROP COLUMN extra")


def test_the_session_limits_are_set_and_stop_a_long_statement(server: MariaDB) -> None:
    limits = SessionLimits(lock_wait_timeout=2, statement_timeout=0.5)
    with _connect(server, limits) as connection:
        assert connection.query("SELECT @@session.lock_wait_timeout, @@session.max_statement_time") == [(2, 0.5)]
        assert connection.statement_timeout_variable == "max_statement_time"
        assert connection._raw._read_timeout == limits.read_timeout == 32.0  # the driver's last resort
        started = time.monotonic()
        with pytest.raises(AuditQueryError) as stopped:
            connection.query("SELECT SLEEP(5)")
        assert stopped.value.code == 1969 and time.monotonic() - started < 4  # stopped by the server
        assert connection.query("SELECT 1") == [(1,)]  # and the session goes on
    with _connect(server, SessionLimits(statement_timeout=0)) as connection:  # 0: no statement timeout
        assert connection.query("SELECT @@session.max_statement_time") == [(0.0,)]


# --- least privilege ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def grants(server: MariaDB) -> Iterator[str]:
    """Three users over TCP: SELECT on the schema only; that and performance_schema's I/O
    counters (what docs/audit.md names); SELECT on some tables and some columns only."""
    password = "Gr4nts-" + uuid.uuid4().hex[:8]
    server.sql(f"""
        CREATE USER g_schema@'127.0.0.1' IDENTIFIED BY '{password}';
        GRANT SELECT ON `{SCHEMA}`.* TO g_schema@'127.0.0.1';
        CREATE USER g_full@'127.0.0.1' IDENTIFIED BY '{password}';
        GRANT SELECT ON `{SCHEMA}`.* TO g_full@'127.0.0.1';
        GRANT SELECT ON performance_schema.table_io_waits_summary_by_table TO g_full@'127.0.0.1';
        CREATE USER g_columns@'127.0.0.1' IDENTIFIED BY '{password}';
        GRANT SELECT ON `{SCHEMA}`.free_docs TO g_columns@'127.0.0.1';
        GRANT SELECT (id) ON `{SCHEMA}`.ddl_docs TO g_columns@'127.0.0.1';
    """)
    yield password
    server.sql("DROP USER IF EXISTS g_schema@'127.0.0.1', g_full@'127.0.0.1', g_columns@'127.0.0.1'")


def _as(server: MariaDB, user: str, password: str) -> Audit:
    with connect(f"mysql://{user}@127.0.0.1:{server.port}/?schemas={SCHEMA}", password, limits=LIMITS) as connection:
        return read_server(connection, [SCHEMA], AuditOptions(sample=20), _engine(), stderr=io.StringIO())


def test_select_on_the_schema_alone_runs_the_audit_and_says_the_counters_are_off(server: MariaDB, grants: str) -> None:
    audit = _as(server, "g_schema", grants)
    assert {t.name for t in audit.model.tables()} == {"locked_docs", "ddl_docs", "free_docs", "no_key_log"}
    assert audit.diagnostics == []
    (note,) = [n for n in audit.notes if n.startswith("workload counters off")]
    assert "GRANT SELECT ON performance_schema.table_io_waits_summary_by_table TO the audit user turns them on" in note
    assert "no-primary-key and uuid-primary-key fall back to the DDL and the sizes" in note
    assert audit.workload.counts == {} and f"{SCHEMA}.free_docs.doc" in audit.measurements
    report = run_checks(audit, CheckContext(target=TARGET))
    (no_key,) = [f for f in report.findings if f.rule == "no-primary-key"]
    assert "rows inserted" not in no_key.message  # no counters: sizes only


def test_select_on_the_schema_and_the_io_counters_is_all_it_needs(server: MariaDB, grants: str) -> None:
    audit = _as(server, "g_full", grants)
    assert audit.diagnostics == [] and audit.workload.note is None
    assert audit.workload.counts[(SCHEMA, "no_key_log")].insert == 6000
    assert not [n for n in audit.notes if "privilege" in n or "counters off" in n]
    assert audit.uptime_seconds is not None  # SHOW GLOBAL STATUS needs no grant
    # 6,000 rows inserted (and what the other tests' samples fetched): the message says what
    # insert-heavy would take
    (no_key,) = [f for f in run_checks(audit, CheckContext(target=TARGET)).findings if f.rule == "no-primary-key"]
    assert re.search(r"6,000 rows inserted and [0-9,]+ fetched since start-up", no_key.message), no_key.message
    assert "not insert-heavy, fewer than stats_min_inserts 10,000 inserts." in no_key.message


def test_a_table_without_select_is_said_with_the_grant_that_would_read_it(server: MariaDB, grants: str) -> None:
    """A column grant lists the table but lets no SHOW CREATE TABLE through: the table is a
    diagnostic naming the grant, not a silent gap."""
    audit = _as(server, "g_columns", grants)
    assert {t.name for t in audit.model.tables()} == {"free_docs"}
    (ddl,) = [d for d in audit.diagnostics if d.path.endswith("/ddl_docs")]
    assert ddl.severity == "warning" and ddl.message == (
        f"SHOW CREATE TABLE skipped: no SELECT privilege (GRANT SELECT ON `{SCHEMA}`.* TO the audit user turns it on)")


# --- bounded sampling reads ---------------------------------------------------------------------------


def _rows_read(connection: ReadOnlyConnection) -> int:
    status = dict(connection.query("SHOW SESSION STATUS LIKE 'Handler\\_read\\_%%'"))
    return sum(int(value) for name, value in status.items() if name != "Handler_read_retry")


@pytest.fixture(scope="module")
def bounded(server: MariaDB) -> Iterator[MariaDB]:
    """At n and 10n rows: a JSON column NULL but in 2 rows (issue 37: a million rows examined for
    nothing sent), and a PRIMARY KEY on an 8-character prefix of a UUID (a filesort per range)."""
    rng = random.Random(37)
    for rows, suffix in ((3_000, "n"), (30_000, "10n")):
        server.sql(f"CREATE TABLE {SCHEMA}.sparse_{suffix} (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, doc JSON) "
                   f"ENGINE=InnoDB; INSERT INTO {SCHEMA}.sparse_{suffix} (doc) SELECT IF(seq % {rows // 2} = 0, "
                   f"'{{\"a\": 1}}', NULL) FROM seq_1_to_{rows}", SCHEMA)
        keys: dict[str, str] = {}
        while len(keys) < rows:
            value = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            keys.setdefault(value[:8], value)
        server.sql(f"CREATE TABLE {SCHEMA}.prefix_{suffix} (id CHAR(36) NOT NULL, pad CHAR(20), "
                   f"PRIMARY KEY (id(8))) ENGINE=InnoDB")
        values = list(keys.values())
        for start in range(0, rows, 5000):
            server.sql(f"INSERT INTO {SCHEMA}.prefix_{suffix} VALUES "
                       + ", ".join(f"('{v}', 'x')" for v in values[start:start + 5000]))
    yield server
    server.sql(f"DROP TABLE {SCHEMA}.sparse_n, {SCHEMA}.sparse_10n, {SCHEMA}.prefix_n, {SCHEMA}.prefix_10n")


def _model_of(server: MariaDB, table: str) -> Any:
    with _connect(server) as connection:
        audit = read_server(connection, [SCHEMA], AuditOptions(), stderr=io.StringIO())
    found = audit.model.find_table(SCHEMA, table)
    assert found is not None
    return audit.model, found


@pytest.mark.parametrize("sample", [20, 200])
def test_a_mostly_null_column_is_read_to_the_rows_examined_bound_at_any_size(bounded: MariaDB, sample: int) -> None:
    read: dict[str, int] = {}
    for suffix in ("n", "10n"):
        model, table = _model_of(bounded, f"sparse_{suffix}")
        coverage = Coverage("mysql://localhost", LIMITS)
        with _connect(bounded) as connection:
            before = _rows_read(connection)
            measured = sample_columns(connection, model, sample, coverage=coverage, tables=[table])
            read[suffix] = _rows_read(connection) - before - 1  # less the SHOW WARNINGS' own row
        assert measured == {}
        assert read[suffix] <= EXAMINED_PER_VALUE * sample + 1, read  # an unbounded read: 3,000 and 30,000
        (note,) = coverage.notes()
        assert note == (f"--sample (compression-candidate): not read for 1: fewer than 4 non-NULL values in the first "
                        f"{EXAMINED_PER_VALUE * sample:,} rows read (the rows-examined bound): nothing to measure: "
                        f"{SCHEMA}.sparse_{suffix}.doc")
    # the bound, whatever the table's size (an unbounded read scans all 3,000 or 30,000 rows)
    assert read["n"] == read["10n"] and read["n"] <= EXAMINED_PER_VALUE * sample + 1, read


def test_a_prefix_primary_key_is_read_in_its_own_order_without_a_sort(bounded: MariaDB) -> None:
    read: dict[str, int] = {}
    for suffix in ("n", "10n"):
        model, table = _model_of(bounded, f"prefix_{suffix}")
        key = key_column(table)
        assert key is not None and key.prefix == 8 and key.index == "PRIMARY"
        for sql in sample_queries(table, key, 40, mariadb=True):
            assert "ORDER BY" not in sql and "FORCE INDEX (`PRIMARY`)" in sql and sql.endswith("ROWS EXAMINED 100")
            plan = bounded.sql(f"EXPLAIN {sql.rsplit(' ROWS EXAMINED', 1)[0]}")
            assert plan[0][5] == "PRIMARY" and "filesort" not in (plan[0][9] or ""), plan
        with _connect(bounded) as connection:
            before = _rows_read(connection)
            samples = sample_keys(connection, model, 40, tables=[table])
            read[suffix] = _rows_read(connection) - before
        assert samples[f"{SCHEMA}.prefix_{suffix}.id"].counts == {"v4": 40}
        assert "8-character prefix key" in samples[f"{SCHEMA}.prefix_{suffix}.id"].how
    # 4 ranges of 10 rows (40 measured); ORDER BY id read and sorted every row past each start
    assert read["n"] == read["10n"] and read["n"] <= RANGES * (40 // RANGES + 1), read


# --- load: statements per table, the throttle -----------------------------------------------------------


def test_one_statement_per_table_and_a_fixed_handful_per_run(server: MariaDB) -> None:
    counts = {}
    for tables in (5, 15):
        name = f"audit_load_{tables}"
        server.sql(f"DROP DATABASE IF EXISTS {name}; CREATE DATABASE {name}; "
                   + "; ".join(f"CREATE TABLE {name}.t{n} (id INT PRIMARY KEY, v INT)" for n in range(tables)))
        with connect(f"mysql://root@/?socket={server.socket}&schemas={name}") as connection:
            read_server(connection, [name], AuditOptions(), stderr=io.StringIO())
            counts[tables] = connection.statements
        server.sql(f"DROP DATABASE {name}")
    assert counts[15] - counts[5] == 10  # SHOW CREATE TABLE, one per table
    assert counts[5] - 5 <= 12  # the rest: limits, read-only check, version, listing, counters, uptime


def test_max_queries_per_second_spaces_the_statements_out(server: MariaDB, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with _connect(server, SessionLimits(max_queries_per_second=20)) as connection:
        started = time.monotonic()
        for _ in range(11):
            connection.query("SELECT 1")
        assert time.monotonic() - started >= 10 / 20 * 0.95  # ten gaps of 1/20 s at the least
        assert connection.throttled_seconds > 0.3
    assert main(["audit", "--dsn", f"mysql://root@/?socket={server.socket}&schemas={SCHEMA}",
                 "--max-queries-per-second", "0"]) == 2
    assert "max_queries_per_second must be more than 0" in capsys.readouterr().err


def test_the_audits_own_work_grows_linearly_with_the_tables(server: MariaDB) -> None:
    """The audit's processor time in this process (reading, parsing, replaying, sampling,
    measuring, the coverage notes) at n and 10n tables, through tests/complexity.py; what the
    server does is bounded per table by the tests above."""
    rng = random.Random(3)
    made: list[str] = []
    connections: list[ReadOnlyConnection] = []

    def make(tables: int) -> Any:
        name = f"audit_scale_{tables}"
        server.sql(f"DROP DATABASE IF EXISTS {name}; CREATE DATABASE {name}")
        for n in range(tables):
            _docs_in(server, name, f"t{n}", 12, rng)
        made.append(name)
        connection = _connect(server)
        connections.append(connection)
        engine = _engine()

        def audit() -> object:
            return read_server(connection, [name], AuditOptions(sample=8), engine, stderr=io.StringIO())

        return audit

    try:
        assert_linear(make, 8, what="audit of n tables with --sample")
    finally:
        for connection in connections:
            connection.close()
        for name in made:
            server.sql(f"DROP DATABASE IF EXISTS {name}")
