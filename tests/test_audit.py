"""`innolint audit` against a real server: the model from SHOW CREATE TABLE, the workload and size
evidence, measured compression, the stats export, and that it only ever reads.

The schema `audit_shop` holds synthetic data of the kinds the advice is about: JSON order
documents, application log lines, random UUID keys, random bytes. Workload is driven for real
(rows inserted and fetched), so performance_schema's counters are the server's own.
"""

from __future__ import annotations

import io
import json
import random
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from linter.audit.connection import ReadOnlyConnection, WriteRefused, connect
from linter.audit.sampling import measure_values, page_ratio
from linter.audit.server import (
    Audit,
    AuditOptions,
    Progress,
    SchemaNotFound,
    detect_target,
    mariadb_json,
    read_server,
    run_checks,
)
from linter.rules.checkapi import CheckContext, TableStats
from linter.cli import main
from linter.engine import Engine
from linter.rules.findings import Finding, Report
from linter.schema.target import Target
from tests.helpers import lint_sql
from tests.mariadb import MariaDB

SCHEMA = "audit_shop"
TARGET = "mariadb-10.11"
HEAVY = 12_000  # inserts: above the default stats_min_inserts (10,000)
#: compression findings need a table size above min_size; these tables are a few MB
SMALL_TABLES = {"compression-candidate": {"min_size": "1MiB"}}

DDL = f"""
DROP DATABASE IF EXISTS {SCHEMA};
CREATE DATABASE {SCHEMA};
USE {SCHEMA};
CREATE TABLE order_event (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  payload JSON NOT NULL,
  created_at DATETIME NOT NULL
) ENGINE=InnoDB;
CREATE TABLE app_log (logged_at DATETIME(3) NOT NULL, message TEXT NOT NULL) ENGINE=InnoDB;
CREATE TABLE archive_note (noted_at DATETIME NOT NULL, body TEXT) ENGINE=InnoDB;
CREATE TABLE lookup_code (code VARCHAR(20) NOT NULL, label VARCHAR(100)) ENGINE=InnoDB;
CREATE TABLE session_token (
  id CHAR(36) NOT NULL PRIMARY KEY, user_id INT NOT NULL, created_at DATETIME NOT NULL
) ENGINE=InnoDB;
CREATE TABLE user_sessions (
  id CHAR(36) NOT NULL PRIMARY KEY, user_id INT NOT NULL, started_at DATETIME NOT NULL
) ENGINE=InnoDB;
CREATE TABLE attachment (id INT NOT NULL PRIMARY KEY, data MEDIUMBLOB NOT NULL) ENGINE=InnoDB;
CREATE TABLE legacy_counter (name VARCHAR(40) NOT NULL PRIMARY KEY, n INT) ENGINE=MyISAM;
CREATE VIEW recent_orders AS SELECT id, created_at FROM order_event;
"""


# --- synthetic data ------------------------------------------------------------------------------

CITIES = ["Berlin", "Lyon", "Porto", "Krakow", "Utrecht", "Malmo", "Bologna", "Graz", "Leeds", "Aarhus"]
PRODUCTS = ["trail running shoe", "merino base layer", "rain jacket", "daypack 24l", "trekking poles",
            "insulated bottle", "headlamp 400lm", "softshell trousers", "wool socks", "bivy bag"]
STATUSES = ["created", "paid", "packed", "shipped", "delivered", "returned"]


def order_documents(count: int, seed: int = 7) -> list[str]:
    """Order events as a shop logs them into a JSON column: the same keys in every document,
    values that vary (ids, times, amounts, addresses), 400 to 1,500 bytes."""
    rng = random.Random(seed)
    documents = []
    for n in range(count):
        lines: list[dict[str, Any]] = [
            {"sku": f"SKU-{rng.randint(10000, 99999)}", "name": rng.choice(PRODUCTS), "quantity": rng.randint(1, 4),
             "unit_price": {"amount": rng.randint(500, 25000), "currency": "EUR"}}
            for _ in range(rng.randint(1, 5))]
        documents.append(json.dumps({
            "event_type": "order." + rng.choice(STATUSES),
            "event_id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "occurred_at": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                           f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z",
            "order": {"id": 100000 + n, "channel": rng.choice(["web", "ios", "android"]),
                      "customer": {"id": rng.randint(1, 500000), "tier": rng.choice(["standard", "plus"]),
                                   "shipping_address": {"city": rng.choice(CITIES),
                                                        "postal_code": f"{rng.randint(1000, 99999)}",
                                                        "country": rng.choice(["DE", "FR", "PT", "PL", "NL"])}},
                      "lines": lines,
                      "totals": {"items": sum(line["unit_price"]["amount"] * line["quantity"] for line in lines),
                                 "shipping": rng.choice([0, 495, 995]), "currency": "EUR"}},
            "source": {"service": "checkout-api", "version": f"3.{rng.randint(0, 9)}.{rng.randint(0, 30)}",
                       "host": f"checkout-{rng.randint(1, 12)}.eu-west-1.internal"},
        }))
    return documents


def log_lines(count: int, seed: int = 11) -> list[str]:
    """Application log lines, 100 to 250 bytes: a fixed layout around varying values."""
    rng = random.Random(seed)
    paths = ["/api/orders", "/api/orders/{id}", "/api/cart", "/api/products/{id}", "/api/checkout"]
    return [
        f"2024-05-{rng.randint(1, 31):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
        f"{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z {rng.choice(['INFO', 'INFO', 'INFO', 'WARN'])} "
        f"[http-nio-8080-exec-{rng.randint(1, 40)}] c.e.shop.web.RequestLoggingFilter - "
        f"{rng.choice(['GET', 'GET', 'POST', 'PUT'])} "
        f"{rng.choice(paths).replace('{id}', str(rng.randint(1, 99999)))} status={rng.choice([200, 200, 201, 404])} "
        f"duration_ms={rng.randint(1, 900)} user_id={rng.randint(1, 500000)} "
        f"trace_id={rng.getrandbits(64):016x}"
        for _ in range(count)
    ]


@dataclass(frozen=True)
class Shop:
    server: MariaDB
    documents: list[str]
    logs: list[str]


def _insert(server: MariaDB, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """``sql`` is `INSERT INTO t VALUES (%s, NOW())`-like: sent as multi-row INSERTs of 1,000 rows
    (one commit each; row by row would take a minute of fsyncs)."""
    head, _, row = sql.partition(" VALUES ")
    connection = server.connect(SCHEMA)
    try:
        with connection.cursor() as cursor:
            for start in range(0, len(rows), 1000):
                values = ", ".join(cursor.mogrify(row, args) for args in rows[start:start + 1000])
                cursor.execute(f"{head} VALUES {values}")
    finally:
        connection.close()


def _fetch(server: MariaDB, sql: str, times: int) -> None:
    connection = server.connect(SCHEMA)
    try:
        with connection.cursor() as cursor:
            for _ in range(times):
                cursor.execute(sql)
                cursor.fetchall()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def shop(mariadb: MariaDB) -> Iterator[Shop]:
    """The schema, its data and its workload; dropped at the end (its counters go with it)."""
    mariadb.sql(DDL)
    rng = random.Random(3)
    documents, logs = order_documents(2000), log_lines(HEAVY)
    _insert(mariadb, "INSERT INTO order_event (payload, created_at) VALUES (%s, NOW())", [(d,) for d in documents])
    _insert(mariadb, "INSERT INTO app_log VALUES (NOW(3), %s)", [(line,) for line in logs])  # insert-heavy
    _insert(mariadb, "INSERT INTO lookup_code VALUES (%s, %s)", [(f"C{n}", f"code {n}") for n in range(200)])
    _fetch(mariadb, "SELECT * FROM lookup_code", 25)  # 5,000 fetched: read-mostly
    _insert(mariadb, "INSERT INTO session_token VALUES (%s, %s, NOW())",  # insert-heavy, random keys
            [(str(uuid.UUID(int=rng.getrandbits(128), version=4)), n) for n in range(HEAVY)])
    _insert(mariadb, "INSERT INTO user_sessions VALUES (%s, %s, NOW())",
            [(str(uuid.UUID(int=rng.getrandbits(128), version=4)), n) for n in range(300)])
    _fetch(mariadb, "SELECT * FROM user_sessions", 10)  # 3,000 fetched for 300 inserted: read-mostly
    _insert(mariadb, "INSERT INTO attachment VALUES (%s, %s)", [(n, rng.randbytes(3000)) for n in range(300)])
    mariadb.sql(f"ANALYZE TABLE {SCHEMA}.order_event, {SCHEMA}.app_log, {SCHEMA}.lookup_code, "
                f"{SCHEMA}.session_token, {SCHEMA}.user_sessions, {SCHEMA}.attachment")
    yield Shop(mariadb, documents, logs)
    mariadb.sql(f"DROP DATABASE IF EXISTS {SCHEMA}; DROP USER IF EXISTS auditor@localhost, auditor@'127.0.0.1'")


def _connect(server: MariaDB) -> ReadOnlyConnection:
    return connect(f"mysql://root@/?socket={server.socket}&schemas={SCHEMA}")


def _engine() -> Engine:
    """An engine whose compression-candidate min_size (1 MiB) lets the shop's tables be sampled."""
    return Engine(CheckContext(target=Target.parse(TARGET), options=SMALL_TABLES))


@pytest.fixture(scope="module")
def audit(shop: Shop) -> Audit:
    with _connect(shop.server) as connection:
        return read_server(connection, [SCHEMA], AuditOptions(sample=600), _engine(), stderr=io.StringIO())


def _report(audit: Audit, **options: dict[str, Any]) -> Report:
    return run_checks(audit, CheckContext(target=Target.parse(TARGET), options={**SMALL_TABLES, **options}))


def _by_table(report: Report, rule: str) -> dict[str, Finding]:
    return {f.table or "": f for f in report.findings if f.rule == rule}


# --- the model -------------------------------------------------------------------------------------

def test_model_has_every_base_table_with_its_schema(audit: Audit) -> None:
    names = sorted((t.schema, t.name) for t in audit.model.tables())
    assert names == [(SCHEMA, n) for n in ["app_log", "archive_note", "attachment", "legacy_counter",
                                           "lookup_code", "order_event", "session_token", "user_sessions"]]
    assert audit.diagnostics == []  # no view, no parse error
    order_event = audit.model.find_table(SCHEMA, "order_event")
    assert order_event is not None and order_event.column("payload").type == "JSON"  # type: ignore[union-attr]
    legacy = audit.model.find_table(SCHEMA, "legacy_counter")
    assert legacy is not None and not legacy.is_innodb


def test_findings_point_at_the_server_table(audit: Audit) -> None:
    finding = _by_table(_report(audit), "no-primary-key")["app_log"]
    assert finding.path == f"mysql://localhost/{SCHEMA}/app_log" and finding.line == 1
    assert finding.schema == SCHEMA
    assert finding.fix == f"ALTER TABLE `{SCHEMA}`.`app_log` ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT " \
                          "INVISIBLE PRIMARY KEY FIRST;"


# --- workload and size ----------------------------------------------------------------------------

def test_sizes_come_from_information_schema(audit: Audit, shop: Shop) -> None:
    tables = {t.name: t for t in audit.tables}
    truth = shop.server.sql(
        "SELECT TABLE_NAME, TABLE_ROWS, DATA_LENGTH, INDEX_LENGTH, AVG_ROW_LENGTH FROM information_schema.TABLES "
        f"WHERE TABLE_SCHEMA = '{SCHEMA}' AND TABLE_TYPE = 'BASE TABLE'")
    assert {name: (t.rows, t.data_length, t.index_length, t.avg_row_length) for name, t in tables.items()} == \
        {name: (rows, data, index, avg) for name, rows, data, index, avg in truth}
    assert tables["order_event"].data_length > 1_500_000  # type: ignore[operator]  # 2,000 documents of ~800 bytes
    assert 0.8 * HEAVY <= tables["app_log"].rows <= 1.2 * HEAVY  # type: ignore[operator]  # InnoDB's estimate
    assert tables["archive_note"].rows == 0
    assert tables["legacy_counter"].engine == "MyISAM"


def test_workload_counts_what_was_driven(audit: Audit) -> None:
    counts = audit.workload.counts
    assert audit.workload.note is None
    assert counts[(SCHEMA, "app_log")].insert == HEAVY
    assert counts[(SCHEMA, "session_token")].insert == HEAVY
    assert counts[(SCHEMA, "lookup_code")].insert == 200 and counts[(SCHEMA, "lookup_code")].fetch == 5000
    assert counts[(SCHEMA, "user_sessions")].insert == 300 and counts[(SCHEMA, "user_sessions")].fetch == 3000
    assert counts[(SCHEMA, "archive_note")].insert == 0
    # read before sampling: the sample's own SELECTs are not in the counters it reports
    assert counts[(SCHEMA, "order_event")].fetch == 0


def test_no_primary_key_severity_follows_inserts_and_size(audit: Audit) -> None:
    found = _by_table(_report(audit), "no-primary-key")
    assert found["app_log"].severity == "error"  # 12,000 inserts, none fetched
    assert "insert-heavy (12,000 rows inserted and 0 fetched" in found["app_log"].message
    assert found["archive_note"].severity == "info"  # empty, no inserts
    assert "empty and no inserts" in found["archive_note"].message
    assert found["lookup_code"].severity == "warning"  # 200 inserts, 5,000 fetches: the rule's own
    assert "200 rows inserted and 5,000 fetched" in found["lookup_code"].message
    # and what would have made it insert-heavy, with the options that say so (issue 36)
    assert ("not insert-heavy, fewer than stats_min_inserts 10,000 inserts and fewer than stats_insert_ratio 0.1 "
            "inserts per fetch.") in found["lookup_code"].message
    assert "legacy_counter" not in found  # MyISAM


@pytest.mark.parametrize(("stats", "severity", "says"), [
    (TableStats(rows=400_000_000, data_length=50 << 30, count_insert=90_000_000, count_fetch=2_000_000), "error",
     "insert-heavy (90,000,000 rows inserted and 2,000,000 fetched since start-up; ~400,000,000 rows, "
     "50.0 GiB clustered index)"),
    (TableStats(rows=0, data_length=16384, count_insert=0, count_fetch=0), "info", "empty and no inserts"),
    (TableStats(rows=0, data_length=16384), "info", "Size: empty"),
    (TableStats(rows=5000, data_length=1 << 20, count_insert=50, count_fetch=80_000), "warning",
     "50 rows inserted and 80,000 fetched"),
    (None, "warning", "DB_ROW_ID"),
])
def test_no_primary_key_severity_from_a_stats_file(tmp_path: Path, stats: TableStats | None, severity: str,
                                                   says: str) -> None:
    """The same rule offline (`check --stats`): a 50 GB insert-heavy table without a key is an
    error, an empty one is info."""
    report = lint_sql("USE shop; CREATE TABLE event_log (created_at DATETIME NOT NULL, message TEXT);", tmp_path,
                      stats={"shop.event_log": stats} if stats else {})
    (finding,) = [f for f in report.findings if f.rule == "no-primary-key"]
    assert finding.severity == severity and says in finding.message


def test_uuid_primary_key_is_classified_by_inserts_against_fetches(audit: Audit) -> None:
    found = _by_table(_report(audit), "uuid-primary-key")
    assert found["session_token"].severity == "error"
    # the evidence is named as the user gave it: the server's counters, not a stats file
    assert "insert-heavy by the server's counters: 12,000 rows inserted" in found["session_token"].message
    # the name says "sessions" (a hint), the counters say read-mostly (info from them alone), and the
    # sampled values are measured random version 4 keys: a warning that names both (issue 15)
    assert found["user_sessions"].severity == "warning"
    assert "not insert-heavy by the server's counters: 300 rows inserted, 3,000 fetched, 0.10 inserts per fetch" in \
        found["user_sessions"].message
    assert "clustered index (fewer than stats_min_inserts 10,000 inserts)" in found["user_sessions"].message
    assert "version 4 (random): random in key order as text" in found["user_sessions"].message
    unsampled = _by_table(_report(replace(audit, key_samples={})), "uuid-primary-key")
    assert unsampled["user_sessions"].severity == "info"
    # the thresholds are the rule's options
    strict = _by_table(_report(audit, **{"uuid-primary-key": {"stats_insert_ratio": 0.05,
                                                               "stats_min_inserts": 100}}), "uuid-primary-key")
    assert strict["user_sessions"].severity == "error"


# --- measured compression --------------------------------------------------------------------------

def test_sample_measures_json_documents_better_than_percona_published(audit: Audit) -> None:
    measured = audit.measurements[f"{SCHEMA}.order_event.payload"]
    assert measured.sampled == 600 and measured.measured == 300
    assert measured.share_too_small == 0.0
    assert 1900 <= len(measured.dictionary) <= 2048
    # Percona: 0.82 without a dictionary, 0.57 with a 2 KB one on JSON. Ours on order documents:
    assert measured.ratio_dict < 0.57
    assert measured.ratio_dict < measured.ratio_plain - 0.15
    rows = next(t.rows for t in audit.tables if t.name == "order_event")
    assert measured.table_rows == rows and measured.column_bytes == int(rows * measured.avg_bytes)  # type: ignore[operator]
    assert measured.saved(True) > measured.saved(False) > 0  # type: ignore[operator]


def test_sample_measures_log_lines_and_random_bytes(audit: Audit) -> None:
    logs = audit.measurements[f"{SCHEMA}.app_log.message"]
    assert logs.ratio_dict < 0.5 < logs.ratio_plain  # short lines: the dictionary is what makes them pay
    attachment = audit.measurements[f"{SCHEMA}.attachment.data"]
    assert attachment.ratio_plain > 1.0 and attachment.ratio_dict > 0.99  # random: nothing to gain
    assert attachment.saved(False) == 0  # the server keeps an incompressible value as it is


def test_sample_reads_only_candidate_columns(audit: Audit) -> None:
    # archive_note.body is a candidate too, but the table is empty (16 KiB): under min_size, and said
    assert set(audit.measurements) == {f"{SCHEMA}.order_event.payload", f"{SCHEMA}.app_log.message",
                                       f"{SCHEMA}.attachment.data"}
    (left,) = [note for note in audit.notes if note.startswith("--sample (compression-candidate)")]
    assert left == ("--sample (compression-candidate): not read for 1: the table is under compression-candidate's "
                    f"min_size (1 MiB), below which it reports nothing (a lower [rules.compression-candidate] min_size measures them): "
                    f"{SCHEMA}.archive_note.body")
    assert "--sample 600: compression measured on 3 columns, UUID versions read from 2 keys" in audit.notes


def test_compression_advice_quotes_and_follows_the_measurement(audit: Audit) -> None:
    found = _by_table(_report(audit), "compression-candidate")
    assert "attachment" not in found  # random bytes measured incompressible: no advice
    order = found["order_event"]
    assert "Measured on 300 of 600 sampled values of payload" in order.message
    measured = audit.measurements[f"{SCHEMA}.order_event.payload"]
    assert (f"zlib value by value keeps {measured.ratio_plain:.2f} of the bytes, with a "
            f"{len(measured.dictionary):,}-byte dictionary trained on them {measured.ratio_dict:.2f}") in order.message
    # MariaDB has no column dictionaries: pages keep clearly less than column COMPRESSED, so pages
    assert order.fix == f"ALTER TABLE `{SCHEMA}`.`order_event` PAGE_COMPRESSED=1;"
    assert "measured, pages keep about" in order.message
    percona = _by_table(run_checks(audit, CheckContext(target=Target.parse("percona-8.0"), options=SMALL_TABLES)),
                        "compression-candidate")["order_event"]
    trained = audit.measurements[f"{SCHEMA}.order_event.payload"].dictionary
    assert percona.fix is not None and percona.fix.startswith("CREATE COMPRESSION_DICTIONARY `order_event_payload` ('")
    assert trained[-40:].decode().replace("'", "''") in percona.fix  # the trained bytes themselves
    assert "GROUP_CONCAT" not in percona.fix


def test_page_ratio_rounds_to_punched_blocks() -> None:
    assert page_ratio([b"a" * 16384]) == 4096 / 16384  # compresses to a few bytes: one 4 KiB block stays
    assert page_ratio([random.Random(1).randbytes(16384)]) == 1.0  # incompressible: the page stays whole
    assert page_ratio([]) == 1.0


def test_measure_values_holds_out_what_it_trained_on() -> None:
    values = [f'{{"kind": "a", "n": {n}, "text": "{"x" * (n % 50)}"}}'.encode() for n in range(40)]
    measured = measure_values(values)
    assert measured is not None and measured.sampled == 40 and measured.measured == 20
    assert measure_values(values[:3]) is None  # too few to say anything


# --- the stats file --------------------------------------------------------------------------------

def test_exported_stats_give_check_the_same_evidence(audit: Audit, shop: Shop, tmp_path: Path) -> None:
    """`audit --export-stats` then `check --stats` on a dump of the same schema: the same
    severities as the audit itself, without a server."""
    stats = tmp_path / "stats.json"
    stats.write_text(audit.stats_file().to_json(), encoding="utf-8")
    dump = tmp_path / "dump.sql"
    ddl = [f"USE `{SCHEMA}`;"] + [shop.server.sql(f"SHOW CREATE TABLE {SCHEMA}.{t.name}")[0][1] + ";"
                                  for t in audit.tables]
    dump.write_text("\n".join(ddl), encoding="utf-8")
    from linter.engine import lint_paths
    from linter.schema.stats import load_stats

    context = CheckContext(target=Target.parse(TARGET), stats=load_stats(stats), options=SMALL_TABLES)
    offline = lint_paths([str(dump)], context)
    live = _report(replace(audit, key_samples={}))  # the stats file carries counters and sizes, not key samples
    for rule in ("no-primary-key", "uuid-primary-key"):
        assert {t: f.severity for t, f in _by_table(offline, rule).items()} == \
            {t: f.severity for t, f in _by_table(live, rule).items()}
    # each names the evidence it was given
    assert "by the stats file" in _by_table(offline, "uuid-primary-key")["session_token"].message
    assert "stats file" not in " ".join(f.message + (f.evidence or "") for f in live.findings)


# --- the command line, least privilege, read-only --------------------------------------------------

@pytest.fixture(scope="module")
def auditor(shop: Shop) -> str:
    """A user with the grants docs/audit.md names, nothing more: SELECT on the audited schema and
    on performance_schema's table of I/O counters; over TCP; its password is returned."""
    password = "Aud1t-" + uuid.uuid4().hex
    shop.server.sql(f"CREATE USER auditor@'127.0.0.1' IDENTIFIED BY '{password}'; "
                    f"GRANT SELECT ON `{SCHEMA}`.* TO auditor@'127.0.0.1'; "
                    "GRANT SELECT ON performance_schema.table_io_waits_summary_by_table TO auditor@'127.0.0.1'")
    grants = {row[0].split(" IDENTIFIED BY")[0] for row in shop.server.sql("SHOW GRANTS FOR auditor@'127.0.0.1'")}
    assert grants == {"GRANT USAGE ON *.* TO `auditor`@`127.0.0.1`",
                      f"GRANT SELECT ON `{SCHEMA}`.* TO `auditor`@`127.0.0.1`",
                      "GRANT SELECT ON `performance_schema`.`table_io_waits_summary_by_table` TO `auditor`@`127.0.0.1`"}
    return password


def test_cli_audit_as_least_privileged_user(shop: Shop, auditor: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("AUDIT_PW", auditor)
    monkeypatch.delenv("MYSQL_PWD", raising=False)
    monkeypatch.chdir(tmp_path)  # no configuration file around
    stats = tmp_path / "stats.json"
    code = main(["audit", "--dsn", f"mysql://auditor@127.0.0.1:{shop.server.port}/?schemas={SCHEMA}",
                 "--password-env", "AUDIT_PW", "--format", "json", "--export-stats", str(stats), "--sample", "200"])
    out, err = capsys.readouterr()
    assert code == 1, err  # errors found
    report = json.loads(out)
    rules = {(f["rule"], f["table"], f["severity"]) for f in report["findings"]}
    assert {("no-primary-key", "app_log", "error"), ("uuid-primary-key", "session_token", "error"),
            ("no-primary-key", "archive_note", "info")} <= rules
    assert report["stats"]["tables"] == 8
    assert auditor not in out + err  # the password is never printed
    # not a terminal: no progress bar; performance_schema is readable: no note of it; only what
    # --sample read and left out (the shop's tables are under the default min_size, 1 GiB)
    lines = err.splitlines()
    assert lines[0] == "innolint: --sample 200: compression measured on 0 columns, UUID versions read from 2 keys"
    assert lines[1].startswith("innolint: --sample (compression-candidate): not read for 4: the table is under "
                               "compression-candidate's min_size (1 GiB), below which it reports nothing")
    assert len(lines) == 2, err
    exported = json.loads(stats.read_text())
    assert exported["version"] == 1 and "MariaDB" in exported["server"]
    by_name = {row["table"]: row for row in exported["tables"]}
    assert by_name["app_log"]["count_insert"] == HEAVY and by_name["archive_note"]["table_rows"] == 0


def test_cli_target_is_detected_from_the_server(shop: Shop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    # the whole messages and fixes are shown with --verbose (and info findings with --show-info)
    code = main(["audit", "--dsn", f"mysql://root@/?socket={shop.server.socket}&schemas={SCHEMA}", "--verbose",
                 "--show-info"])
    out, _ = capsys.readouterr()
    assert code == 1
    # advice for the server it read (its release: issue 35), not the mysql-8.0 default
    assert re.search(r"Fix \(MariaDB 10\.11\.\d+\)", out), out
    code = main(["audit", "--dsn", f"mysql://root@/?socket={shop.server.socket}&schemas={SCHEMA}",
                 "--target", "mysql-8.0", "--fail-level", "none", "--show-fixes", "--show-info"])
    out, _ = capsys.readouterr()
    assert code == 0 and "UUID_TO_BIN(UUID(), 1)" in out


def test_cli_wrong_password_is_a_usage_error_without_the_password(shop: Shop, auditor: str,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("AUDIT_PW", auditor + "-wrong")
    code = main(["audit", "--dsn", f"mysql://auditor@127.0.0.1:{shop.server.port}/?schemas={SCHEMA}",
                 "--password-env", "AUDIT_PW"])
    _, err = capsys.readouterr()
    assert code == 2 and "cannot connect" in err and auditor not in err
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    assert main(["audit", "--dsn", "mysql://auditor@127.0.0.1/", "--password-env", "NOT_SET_ANYWHERE"]) == 2


def test_a_write_through_the_connection_is_refused_before_it_reaches_the_server(shop: Shop, auditor: str) -> None:
    def deletes() -> int:
        return int(shop.server.sql("SHOW GLOBAL STATUS LIKE 'Com_delete'")[0][1])

    before_rows = shop.server.sql(f"SELECT COUNT(*) FROM {SCHEMA}.lookup_code")
    before = deletes()
    for dsn, password in ((f"mysql://auditor@127.0.0.1:{shop.server.port}/", auditor),
                          (f"mysql://root@/?socket={shop.server.socket}", None)):  # even as root
        with connect(dsn, password) as connection:
            with pytest.raises(WriteRefused):
                connection.query(f"DELETE FROM {SCHEMA}.lookup_code")
            with pytest.raises(WriteRefused):
                connection.query(f"SELECT 1; DELETE FROM {SCHEMA}.lookup_code")
            assert connection.session_read_only()
    assert deletes() == before  # the server never saw a DELETE
    assert shop.server.sql(f"SELECT COUNT(*) FROM {SCHEMA}.lookup_code") == before_rows


def test_the_audit_sends_only_reads(shop: Shop) -> None:
    """Every statement the audit runs, sampling included, passes the read-only guard: counted on
    the server's side by its Com_* counters for this one session."""
    with _connect(shop.server) as connection:
        read_server(connection, [SCHEMA], AuditOptions(sample=50), stderr=io.StringIO())
        status = dict(connection.query("SHOW SESSION STATUS LIKE 'Com\\_%%'"))
    writes = {name: int(value) for name, value in status.items()
              if int(value) and not name.startswith(("Com_select", "Com_show", "Com_set_option"))}
    assert writes == {}
    assert int(status["Com_select"]) > 0 and int(status["Com_show_create_table"]) == 8


def test_progress_on_a_terminal_and_an_empty_schema(shop: Shop) -> None:
    shop.server.sql("CREATE DATABASE IF NOT EXISTS audit_empty")
    terminal = _Terminal()
    with _connect(shop.server) as connection:
        found = read_server(connection, [SCHEMA, "audit_empty"], AuditOptions(progress=True), stderr=terminal)
    assert terminal.getvalue().endswith("] 8/8 tables\n")
    assert [(d.rule, d.path) for d in found.diagnostics] == [("io-error", "mysql://localhost/audit_empty")]
    assert "no base table this user can see" in found.diagnostics[0].message


@pytest.mark.parametrize(("schemas", "says"), [
    (["no_such_schema"], "no schema no_such_schema on this server"),
    ([SCHEMA, "audit_shp"], f"no schema audit_shp (did you mean '{SCHEMA}'?) on this server"),
    (["a", "b"], "no schema a, b on this server"),
])
def test_a_missing_schema_is_a_usage_error(shop: Shop, schemas: list[str], says: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with _connect(shop.server) as connection, pytest.raises(SchemaNotFound, match=re.escape(says)):
        read_server(connection, schemas, AuditOptions(), stderr=io.StringIO())
    code = main(["audit", "--dsn", f"mysql://root@/?socket={shop.server.socket}&schemas={','.join(schemas)}"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and says in err


def test_a_schema_without_privilege_is_missing_for_that_user(shop: Shop, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    shop.server.sql("CREATE DATABASE IF NOT EXISTS audit_private; CREATE TABLE IF NOT EXISTS audit_private.t (id INT); "
                    "CREATE USER IF NOT EXISTS narrow@'127.0.0.1' IDENTIFIED BY 'n4rrow-pw'; "
                    f"GRANT SELECT ON `{SCHEMA}`.* TO narrow@'127.0.0.1'")
    monkeypatch.setenv("NARROW_PW", "n4rrow-pw")
    dsn = f"mysql://narrow@127.0.0.1:{shop.server.port}/?schemas=audit_private"
    assert main(["audit", "--dsn", dsn, "--password-env", "NARROW_PW"]) == 2
    err = capsys.readouterr().err
    assert "no schema audit_private" in err and "on this server (or no privilege on it)" in err


def test_audit_text_speaks_of_schemas_not_files(shop: Shop, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    main(["audit", "--dsn", f"mysql://root@/?socket={shop.server.socket}&schemas={SCHEMA}", "--verbose",
          "--show-info"])
    out = capsys.readouterr().out
    assert "; 1 schema, 8 statements, 8 tables in " in out.splitlines()[-1]
    assert " file" not in out.replace("file-per-table", "").replace("innodb_file_per_table", "")
    assert "--stats" not in out

# --- small pieces ----------------------------------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    terminal, pipe = _Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        progress = Progress(3, stream)
        for _ in range(3):
            progress.step()
        progress.close()
    assert pipe.getvalue() == ""
    assert terminal.getvalue().endswith("3/3 tables\n") and "\raudit: [" in terminal.getvalue()


@pytest.mark.parametrize(("version", "comment", "target"), [
    # the full version where a line stands for it (issue 35: the release decides what came within a line)
    ("10.11.19-MariaDB-0+deb12u1", "Debian 12", "mariadb-10.11.19"),
    ("10.6.16-MariaDB", "MariaDB Server", "mariadb-10.6.16"),
    ("10.5.23-MariaDB-0+deb11u1", "Debian 11", "mariadb-10.5.23"),
    ("11.4.2-MariaDB", "", "mariadb-11.4.2"),
    ("8.0.36", "MySQL Community Server - GPL", "mysql-8.0.36"),
    ("8.4.0", "MySQL Community Server - GPL", "mysql-8.4.0"),
    ("9.1.0", "MySQL Community Server - GPL", "mysql-9.1.0"),
    ("8.0.35-27", "Percona Server (GPL), Release 27", "percona-8.0.35"),
    ("5.7.44-log", "MySQL Community Server (GPL)", "mysql-5.7.44"),
    # else the closest line
    ("10.3.39-MariaDB", "", "mariadb-10.4"),
    ("10.8.8-MariaDB", "", "mariadb-10.6"),
    ("8.2.0", "MySQL Community Server - GPL", "mysql-8.0"),
    ("garbage", "", None),
])
def test_detect_target(version: str, comment: str, target: str | None) -> None:
    assert detect_target(version, comment) == target


def test_mariadb_json_columns_read_back_as_json() -> None:
    ddl = ("CREATE TABLE `j` (\n  `doc` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '{}' "
           "CHECK (json_valid(`doc`)),\n  `c` longtext /*M!100301 COMPRESSED*/ CHARACTER SET utf8mb4 COLLATE "
           "utf8mb4_bin DEFAULT NULL CHECK (json_valid(`c`)),\n  `other` longtext CHARACTER SET utf8mb4 COLLATE "
           "utf8mb4_bin CHECK (json_valid(`doc`))\n) ENGINE=InnoDB")
    assert mariadb_json(ddl) == (
        "CREATE TABLE `j` (\n  `doc` json NOT NULL DEFAULT '{}',\n  `c` json /*M!100301 COMPRESSED*/ DEFAULT NULL,\n"
        "  `other` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin CHECK (json_valid(`doc`))\n) ENGINE=InnoDB")

