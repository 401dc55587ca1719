"""The stats file: its model, its loader's keys and errors, and the documented query that makes it."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from linter.rules.checkapi import CheckContext, TableStats
from linter.schema.stats import StatsError, StatsFile, TableStatsRow, index_stats, load_stats, parse_stats
from tests.cli_run import run_cli
from tests.mariadb import MariaDB

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "stats.md"


def write(tmp_path: Path, data: object, name: str = "stats.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def row(schema: str, table: str, **numbers: int | None) -> dict[str, object]:
    return {"schema": schema, "table": table, **numbers}


def documented_query() -> str:
    text = DOC.read_text(encoding="utf-8")
    [query] = re.findall(r"```sql\n(.*?)```", text, re.S)
    return query


# -- loading -------------------------------------------------------------------------------------
def test_load_keys_by_schema_table_and_bare_name_lower_case(tmp_path: Path) -> None:
    path = write(tmp_path, {"version": 1, "tables": [
        row("Shop", "Audit_Event", table_rows=3_100_000, data_length=2**30, index_length=2**28, avg_row_length=346,
            count_insert=2_900_000, count_fetch=410_000, count_update=0, count_delete=0),
    ]})
    stats = load_stats(path)
    expected = TableStats(rows=3_100_000, data_length=2**30, index_length=2**28, avg_row_length=346,
                          count_insert=2_900_000, count_fetch=410_000, count_update=0, count_delete=0)
    assert stats == {"shop.audit_event": expected, "audit_event": expected}


def test_context_finds_the_table_by_schema_then_by_bare_name(tmp_path: Path) -> None:
    from linter.parse.elements import Location
    from linter.schema.model import Table
    from linter.parse.body import TableBody

    stats = load_stats(write(tmp_path, {"version": 1, "tables": [
        row("shop", "orders", count_insert=1), row("billing", "orders", count_insert=2),
    ]}))
    context = CheckContext(stats=stats)
    where = Location("t.sql", 1)
    assert context.table_stats(Table("billing", "ORDERS", TableBody(), where, where)) == TableStats(count_insert=2)
    unqualified = context.table_stats(Table(None, "orders", TableBody(), where, where))
    assert unqualified is not None and unqualified.count_insert == 3


def test_a_bare_name_sums_every_schema_and_recomputes_the_average_row(tmp_path: Path) -> None:
    stats = index_stats([
        TableStatsRow.model_validate(row("tenant_1", "orders", table_rows=100, data_length=10_000, avg_row_length=100,
                                         count_insert=5, count_fetch=None)),
        TableStatsRow.model_validate(row("tenant_2", "orders", table_rows=300, data_length=50_000, avg_row_length=166,
                                         count_insert=7, count_fetch=None)),
    ])
    assert stats["orders"] == TableStats(rows=400, data_length=60_000, avg_row_length=150, count_insert=12)
    assert stats["tenant_2.orders"].avg_row_length == 166


def test_nulls_and_optional_header_fields_are_allowed(tmp_path: Path) -> None:
    stats = load_stats(write(tmp_path, {
        "version": 1, "server": "10.11.6-MariaDB", "exported_at": "2024-05-01T12:00:00Z", "uptime_seconds": 60,
        "tables": [row("s", "t", table_rows=None, count_insert=None)],
    }))
    assert stats["s.t"] == TableStats()
    assert load_stats(write(tmp_path, {"version": 1, "tables": []})) == {}


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"version": 1, "tables": [row("s", "t")]}).encode())
    assert "s.t" in load_stats(path)


def test_round_trip_through_the_model_is_the_same_file(tmp_path: Path) -> None:
    original = StatsFile(server="8.0.36", tables=[TableStatsRow.model_validate(row("s", "t", count_insert=3))])
    text = original.to_json()
    assert json.loads(text)["tables"][0]["schema"] == "s"
    assert parse_stats(text) == original
    assert load_stats(write(tmp_path, text))["s.t"].count_insert == 3


# -- errors: each names the file and what is wrong ---------------------------------------------------
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
        ("[]", 'expected a JSON object with "version" and "tables", got list'),
        ({"tables": []}, 'missing "version" (this innolint reads version 1)'),
        ({"version": 2, "tables": []}, "stats format version 2 is not supported (this innolint reads version 1)"),
        ({"version": 1, "tables": [row("shop", "orders", count_insert=-1)]},
         "tables[0] (shop.orders).count_insert: Input should be greater than or equal to 0"),
        ({"version": 1, "tables": [row("shop", "orders", count_inserts=5)]},
         "tables[0] (shop.orders).count_inserts: Extra inputs are not permitted"),
        ({"version": 1, "tables": [row("shop", "orders", table_rows="many")]},  # type: ignore[arg-type]
         "tables[0] (shop.orders).table_rows: Input should be a valid integer, unable to parse string as an integer"),
        ({"version": 1, "tables": [{"schema": "shop"}]}, "tables[0].table: Field required"),
        ({"version": 1, "tables": {"shop.orders": {}}}, "tables: Input should be a valid list"),
        ({"version": 1, "tables": [], "extra": 1}, "extra: Extra inputs are not permitted"),
    ],
)
def test_bad_content_is_a_clear_error_naming_the_file(tmp_path: Path, content: object, expected: str) -> None:
    path = write(tmp_path, content)
    with pytest.raises(StatsError) as raised:
        load_stats(path)
    assert str(raised.value) == f"{path}: {expected}"


def test_missing_directory_and_binary_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(StatsError, match=r"missing\.json: stats file not found$"):
        load_stats(tmp_path / "missing.json")
    with pytest.raises(StatsError, match=r": is a directory, expected a stats JSON file$"):
        load_stats(tmp_path)
    binary = tmp_path / "stats.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(StatsError, match=r"stats\.bin: not UTF-8 text"):
        load_stats(binary)


# -- the documented query is the format ------------------------------------------------------------
def test_documented_query_writes_exactly_the_fields_of_the_model() -> None:
    query = documented_query()
    header = set(re.findall(r"^\s*'(\w+)',", query.split("'tables'")[0], re.M)) | {"tables"}
    per_table = set(re.findall(r"^\s*'(\w+)', [tw]\.", query, re.M))
    assert header == {"version", "server", "exported_at", "uptime_seconds", "tables"}
    assert header == {f.alias or name for name, f in StatsFile.model_fields.items()}
    assert per_table == {f.alias or name for name, f in TableStatsRow.model_fields.items()}
    assert "performance_schema.table_io_waits_summary_by_table" in query
    assert "information_schema.TABLES" in query


def test_documented_example_file_is_valid() -> None:
    text = DOC.read_text(encoding="utf-8")
    [example] = re.findall(r"```json\n(.*?)```", text, re.S)
    parsed = parse_stats(example, "docs/stats.md")
    assert parsed.tables[0].count_insert == 2_900_000


def test_documented_query_runs_and_its_output_loads(mariadb: MariaDB, tmp_path: Path) -> None:
    """The query from docs/stats.md on a real server: the counters it reports are the rows the
    test inserted and read, and its one-row result is a valid stats file."""
    mariadb.sql("""
        CREATE DATABASE IF NOT EXISTS stats_doc;
        CREATE OR REPLACE TABLE stats_doc.event_log (id CHAR(36) NOT NULL PRIMARY KEY, at DATETIME NOT NULL);
        CREATE OR REPLACE TABLE stats_doc.`quoted "name"` (id INT PRIMARY KEY);
        TRUNCATE TABLE performance_schema.table_io_waits_summary_by_table;
        INSERT INTO stats_doc.event_log SELECT UUID(), NOW() FROM stats_doc.seq_1_to_50;
        SELECT COUNT(*) FROM stats_doc.event_log WHERE at <= NOW();
    """)
    [(text,)] = mariadb.sql(documented_query())
    path = write(tmp_path, text)
    stats = load_stats(path)
    mariadb.sql("DROP DATABASE stats_doc")
    log = stats["stats_doc.event_log"]
    assert log.count_insert == 50 and log.count_fetch is not None and log.count_fetch >= 50
    assert log.data_length is not None and log.data_length > 0
    assert 'quoted "name"' in stats
    assert parse_stats(text).server == mariadb.version


# -- the command line: `innolint check --stats FILE` ---------------------------------------------------
def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(args, cwd=ROOT)


def test_cli_stats_make_an_insert_heavy_table_an_error(tmp_path: Path) -> None:
    schema = tmp_path / "schema.sql"
    schema.write_text("CREATE TABLE event_log (id CHAR(36) NOT NULL PRIMARY KEY);\n", encoding="utf-8")
    stats = write(tmp_path, {"version": 1, "tables": [row("prod", "event_log", count_insert=30_000, count_fetch=100)]})
    run = _cli("check", "--format", "json", "--stats", str(stats), str(schema))
    assert run.returncode == 1, run.stderr
    [finding] = [f for f in json.loads(run.stdout)["findings"] if f["rule"] == "uuid-primary-key"]
    assert finding["severity"] == "error"
    assert "insert-heavy by the stats file: 30,000 rows inserted, 100 fetched" in finding["message"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [(None, "stats file not found"), ("{", "not valid JSON"), ({"version": 1, "tables": [row("s", "t", count_fetch=-1)]},
                                                               "tables[0] (s.t).count_fetch: Input should be greater")],
)
def test_cli_bad_stats_file_is_a_clear_message_and_exit_2(tmp_path: Path, content: object, expected: str) -> None:
    schema = tmp_path / "schema.sql"
    schema.write_text("CREATE TABLE t (id INT PRIMARY KEY);\n", encoding="utf-8")
    stats = tmp_path / "stats.json" if content is None else write(tmp_path, content)
    run = _cli("check", "--stats", str(stats), str(schema))
    assert run.returncode == 2
    assert f"{stats}: {expected}" in run.stderr
