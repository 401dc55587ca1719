"""Measure the load `innolint audit` puts on a server: statements per table, rows read by
`--sample N`, seconds for 1,000 tables. The numbers in docs/audit.md come from it.

It starts a private MariaDB (tests/mariadb.py), makes SCHEMAS x TABLES tables of four kinds
(an AUTO_INCREMENT key with a JSON document, a CHAR(36) UUID key, a log table without a key and
a TEXT column, a lookup table) with ROWS rows each, then audits them as a user would, counting
on the server's side (the session's Questions and Handler_read_* status of the audit's own
connection, read before it closes):

    PYTHONPATH=$PWD python3 scripts/audit_load.py [--schemas 10 --tables 100 --rows 200 --sample 100]
"""

from __future__ import annotations

import argparse
import io
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from linter.audit.connection import ReadOnlyConnection, SessionLimits, connect  # noqa: E402
from linter.audit.server import AuditOptions, read_server, run_checks  # noqa: E402
from linter.engine import Engine  # noqa: E402
from linter.rules.checkapi import CheckContext  # noqa: E402
from linter.schema.target import Target  # noqa: E402
from tests.mariadb import MariaDB, _stop, find_server_binary, start_server  # noqa: E402

KINDS = (
    "CREATE TABLE {t} (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, payload JSON NOT NULL, "
    "created_at DATETIME NOT NULL) ENGINE=InnoDB",
    "CREATE TABLE {t} (id CHAR(36) NOT NULL PRIMARY KEY, user_id INT NOT NULL, created_at DATETIME NOT NULL) "
    "ENGINE=InnoDB",
    "CREATE TABLE {t} (logged_at DATETIME(3) NOT NULL, message TEXT NOT NULL) ENGINE=InnoDB",
    "CREATE TABLE {t} (code VARCHAR(20) NOT NULL PRIMARY KEY, label VARCHAR(100)) ENGINE=InnoDB",
)


def _rows(kind: int, rows: int, rng: random.Random) -> str:
    if kind == 0:
        return ", ".join(f"(NULL, '{{\"n\": {n}, \"kind\": \"order\", \"total\": {rng.randint(1, 9999)}}}', NOW())"
                         for n in range(rows))
    if kind == 1:
        return ", ".join(f"('{uuid.UUID(int=rng.getrandbits(128), version=4)}', {n}, NOW())" for n in range(rows))
    if kind == 2:
        return ", ".join(f"(NOW(3), 'GET /api/orders/{rng.randint(1, 99999)} status=200 duration_ms={n}')"
                         for n in range(rows))
    return ", ".join(f"('C{n}', 'code {n}')" for n in range(rows))


def populate(server: MariaDB, schemas: int, tables: int, rows: int) -> list[str]:
    rng = random.Random(36)
    names = [f"load_{s:03d}" for s in range(schemas)]
    for name in names:
        statements = [f"CREATE DATABASE {name}"]
        for n in range(tables):
            table = f"{name}.t{n:04d}"
            statements.append(KINDS[n % 4].format(t=table))
            statements.append(f"INSERT INTO {table} VALUES {_rows(n % 4, rows, rng)}")
        server.sql("; ".join(statements))
    return names


def _status(connection: ReadOnlyConnection) -> dict[str, int]:
    return {str(name): int(value) for name, value in connection.query(
        "SHOW SESSION STATUS WHERE Variable_name = 'Questions' OR Variable_name LIKE 'Handler\\_read\\_%%'")}


def measure(server: MariaDB, schemas: list[str], sample: int, qps: float | None = None) -> dict[str, float]:
    context = CheckContext(target=Target.parse("mariadb-10.11"), options={"compression-candidate": {"min_size": 0}})
    engine = Engine(context)
    started = time.perf_counter()
    with connect(f"mysql://root@/?socket={server.socket}",
                 limits=SessionLimits(max_queries_per_second=qps)) as connection:
        before = _status(connection)
        audit = read_server(connection, schemas, AuditOptions(sample=sample), engine, stderr=io.StringIO())
        after = _status(connection)
        statements = connection.statements
    read_seconds = time.perf_counter() - started
    run_checks(audit, context, engine=engine)
    rows_read = sum(after[k] - before[k] for k in after if k.startswith("Handler_read") and k != "Handler_read_retry")
    return {"tables": len(audit.tables), "statements": statements, "questions": after["Questions"] - before["Questions"],
            "rows_read": rows_read, "read_seconds": read_seconds, "seconds": time.perf_counter() - started,
            "measured": len(audit.measurements), "keys": len(audit.key_samples)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schemas", type=int, default=10)
    parser.add_argument("--tables", type=int, default=100, help="tables per schema")
    parser.add_argument("--rows", type=int, default=200, help="rows per table")
    parser.add_argument("--sample", type=int, default=100)
    parser.add_argument("--qps", type=float, default=500.0, help="the --max-queries-per-second of the third run")
    args = parser.parse_args()
    mariadbd = find_server_binary()
    if mariadbd is None:
        print("mariadbd not found: run .ci/install-mariadb", file=sys.stderr)
        return 2
    base = Path(tempfile.mkdtemp(prefix="innolint-load-"))
    process, server = start_server(mariadbd, base)
    try:
        began = time.perf_counter()
        schemas = populate(server, args.schemas, args.tables, args.rows)
        print(f"{server.version}: {args.schemas} schemas x {args.tables} tables x {args.rows} rows "
              f"made in {time.perf_counter() - began:.1f} s", file=sys.stderr)
        print("| run | tables | statements | per table | rows read (Handler_read_*) | read s | total s |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        said = ""
        for sample, qps in ((0, None), (args.sample, None), (0, args.qps)):
            m = measure(server, schemas, sample, qps)
            label = "audit" if not sample else f"audit --sample {sample} (min_size 0: every candidate)"
            label += f" --max-queries-per-second {qps:g}" if qps else ""
            print(f"| {label} | {m['tables']:,.0f} | {m['statements']:,.0f} | {m['statements'] / m['tables']:.2f} | "
                  f"{m['rows_read']:,.0f} | {m['read_seconds']:.2f} | {m['seconds']:.2f} |")
            if sample:
                said = (f"--sample {sample}: {m['measured']:,.0f} columns measured, {m['keys']:,.0f} keys read, "
                        f"{m['rows_read'] / max(m['measured'] + m['keys'], 1):,.0f} rows read per sampled column or key")
        print(f"\n{said}")
    finally:
        _stop(process)
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
