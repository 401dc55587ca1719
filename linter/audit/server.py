"""`innolint audit`: lint a running server's schema, weighed by what the server knows.

Why: a dump shows how tables are declared; the server also knows which tables take the inserts
(performance_schema), how big they are (information_schema) and what their data compresses to.
The audit reads all of that once, read-only, and runs the same checks as `innolint check`.

How, in order:

1. list the base tables of the chosen schemas with their sizes and AUTO_INCREMENT counters
   (information_schema.TABLES);
2. read each one's `SHOW CREATE TABLE` and send it through the same path as a file's statements:
   the splitter (it unwraps the `/*!50100 ... */` comments MySQL prints), `parse_statement` and
   the `Replayer`, with a `USE schema` before each schema's tables so every table gets its schema;
3. read the workload counters (performance_schema.table_io_waits_summary_by_table) BEFORE any
   sampling, whose own reads would count as fetches;
4. with `--sample N`, measure the compression candidate columns (linter.audit.sampling) and
   read the UUID-like leading keys (linter.audit.key_sampling), every read bounded;
5. run the checks with that evidence in CheckContext.stats and CheckContext.measurements.

Every query goes through `ReadOnlyConnection`, which refuses anything but SELECT and SHOW, under
the session's lock wait and statement timeouts. The queries are one per table (SHOW CREATE
TABLE) plus a handful per run, so servers with 10K schemas work; a progress bar on stderr (only
when it is a terminal) says how far it got. Whatever could not be read (a lock, a timeout, a
missing grant) or was left out on purpose is said (linter.audit.coverage): the run goes on.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TextIO

from linter.audit.connection import AuditQueryError, ReadOnlyConnection
from linter.audit.coverage import DDL, Coverage, reason_of
from linter.rules.checkapi import CheckContext, ColumnMeasurement, KeySample, quote
from linter.rules.findings import Diagnostic, Finding, Report, RunStats
from linter.rules.grouping import group_copies
from linter.parse.elements import Location
from linter.schema.model import SchemaModel
from linter.parse.tokens import ParseFailure
from linter.server.replay import Replayer
from linter.input.split import split_stream
from linter.schema.stats import StatsFile, TableStatsRow, index_stats

if TYPE_CHECKING:
    from linter.engine import Engine

__all__ = [
    "SYSTEM_SCHEMAS",
    "Audit",
    "AuditOptions",
    "ServerTable",
    "Workload",
    "detect_target",
    "list_tables",
    "read_server",
    "read_workload",
    "run_checks",
]

#: never audited unless named explicitly: the server's own schemas
SYSTEM_SCHEMAS = frozenset({"mysql", "sys", "performance_schema", "information_schema"})
#: information_schema.TABLES.TABLE_TYPE of tables that have a SHOW CREATE TABLE worth linting
#: (views, sequences and system views are not tables of the schema's design)
_BASE_TABLE_TYPES = ("BASE TABLE", "SYSTEM VERSIONED")


@dataclass(frozen=True, slots=True)
class ServerTable:
    """A base table as information_schema.TABLES lists it, with its size."""

    schema: str
    name: str
    engine: str | None = None
    rows: int | None = None
    data_length: int | None = None
    index_length: int | None = None
    avg_row_length: int | None = None
    auto_increment: int | None = None


@dataclass(frozen=True, slots=True)
class Counts:
    """Rows inserted, fetched, updated and deleted since the server started."""

    insert: int | None = None
    fetch: int | None = None
    update: int | None = None
    delete: int | None = None


@dataclass
class Workload:
    """performance_schema's counters per (schema, table), lower-case; `note` says why there are
    none (performance_schema off, no grant), once."""

    counts: dict[tuple[str, str], Counts] = field(default_factory=dict)
    note: str | None = None


@dataclass(frozen=True)
class AuditOptions:
    """`sample`: at most this many values per candidate column (0: do not sample);
    `progress`: draw a progress bar (None: when the stream is a terminal)."""

    sample: int = 0
    progress: bool | None = None


@dataclass
class Audit:
    """Everything read from the server: the model built from its DDL and the evidence."""

    origin: str  # "mysql://host:port": where findings point (path = origin/schema/table)
    version: str
    model: SchemaModel
    tables: list[ServerTable]
    workload: Workload
    measurements: dict[str, ColumnMeasurement] = field(default_factory=dict)
    #: UUID versions of leading key columns (--sample), as CheckContext.key_samples holds them
    key_samples: dict[str, KeySample] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    statements: int = 0
    uptime_seconds: int | None = None
    exported_at: str = ""

    def stats_file(self) -> StatsFile:
        """The evidence in the stats file format that `innolint check --stats` reads."""
        rows = []
        for table in self.tables:
            counts = self.workload.counts.get((table.schema.lower(), table.name.lower()), Counts())
            rows.append(TableStatsRow(
                schema=table.schema, table=table.name, table_rows=table.rows,
                data_length=table.data_length, index_length=table.index_length,
                avg_row_length=table.avg_row_length, count_insert=counts.insert,
                count_fetch=counts.fetch, count_update=counts.update, count_delete=counts.delete,
                auto_increment=table.auto_increment))
        return StatsFile(server=self.version, exported_at=self.exported_at,
                         uptime_seconds=self.uptime_seconds, tables=rows)

    def context(self, base: CheckContext) -> CheckContext:
        """`base` (target, options from the configuration) with this server's evidence."""
        return replace(base, stats=index_stats(self.stats_file().tables),
                       measurements=dict(self.measurements), stats_source="server",
                       key_samples=dict(self.key_samples))


# --- reading ---------------------------------------------------------------------------------


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _in_list(names: Sequence[str]) -> str:
    """`IN (%s, %s)` for PyMySQL parameters (the connection checks the query with them)."""
    return "(" + ", ".join(["%s"] * len(names)) + ")"


def list_tables(connection: ReadOnlyConnection, schemas: Sequence[str]) -> list[ServerTable]:
    """The base tables of ``schemas`` (all but the system schemas when empty) with their sizes,
    ordered by schema and name. information_schema lists only what the user may see."""
    sql = ("SELECT TABLE_SCHEMA, TABLE_NAME, ENGINE, TABLE_ROWS, DATA_LENGTH, INDEX_LENGTH, "
           "AVG_ROW_LENGTH, AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_TYPE IN "
           + _in_list(_BASE_TABLE_TYPES))
    args: list[str] = list(_BASE_TABLE_TYPES)
    if schemas:
        sql += " AND TABLE_SCHEMA IN " + _in_list(schemas)
        args += list(schemas)
    else:
        sql += " AND TABLE_SCHEMA NOT IN " + _in_list(sorted(SYSTEM_SCHEMAS))
        args += sorted(SYSTEM_SCHEMAS)
    sql += " ORDER BY TABLE_SCHEMA, TABLE_NAME"
    try:
        listed = connection.query(sql, args)
    except AuditQueryError as error:
        kind, why = reason_of(error, connection.limits)
        if kind != "timeout":
            raise
        # one statement for every table of the server: a very large one may need more time
        raise AuditQueryError(error.code, f"listing the tables (information_schema.TABLES): {why}; a server "
                                          "this large needs a longer --statement-timeout") from None
    return [ServerTable(str(schema), str(name), engine, _int(rows), _int(data), _int(index), _int(avg), _int(auto))
            for schema, name, engine, rows, data, index, avg, auto in listed]


class SchemaNotFound(Exception):
    """A schema named in the DSN that the server does not have (or does not show this user): a
    usage error, like a file named on the command line that does not exist."""


def check_schemas_exist(connection: ReadOnlyConnection, schemas: Sequence[str], origin: str) -> None:
    """Raise SchemaNotFound for the named schemas information_schema.SCHEMATA does not list (it
    lists the schemas the user has any privilege on), with the closest existing name."""
    if not schemas:
        return
    from linter.suggest import did_you_mean

    existing = [str(row[0]) for row in connection.query("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA")]
    known = {name.lower() for name in existing}
    missing = [name for name in schemas if name.lower() not in known]
    if missing:
        named = ", ".join(name + did_you_mean(name, existing) for name in missing)
        raise SchemaNotFound(f"{origin}: no schema {named} on this server (or no privilege on it)")


def read_workload(connection: ReadOnlyConnection, schemas: Sequence[str]) -> Workload:
    """Rows inserted, fetched, updated and deleted per table since start-up. When
    performance_schema is off (MariaDB's default) or cannot be read, the note says so and the
    counts stay unknown: checks then fall back to their heuristics."""
    try:
        enabled = int(connection.query("SELECT @@performance_schema")[0][0])
    except AuditQueryError:
        enabled = 0
    if not enabled:
        return Workload(note="performance_schema is off on this server: no workload counters "
                             "(rows inserted/fetched per table); checks fall back to their "
                             "heuristics. Start the server with performance_schema=ON to have them.")
    sql = ("SELECT OBJECT_SCHEMA, OBJECT_NAME, COUNT_INSERT, COUNT_FETCH, COUNT_UPDATE, "
           "COUNT_DELETE FROM performance_schema.table_io_waits_summary_by_table "
           "WHERE OBJECT_TYPE = 'TABLE'")
    args: list[str] = []
    if schemas:
        sql += " AND OBJECT_SCHEMA IN " + _in_list(schemas)
        args = list(schemas)
    try:
        rows = connection.query(sql, args or None)
    except AuditQueryError as error:
        kind, why = reason_of(error, connection.limits)
        if kind == "privilege":
            why = ("no SELECT privilege on it (GRANT SELECT ON performance_schema.table_io_waits_summary_by_table "
                   "TO the audit user turns them on)")
        return Workload(note=f"workload counters off: cannot read performance_schema.table_io_waits_summary_by_table, "
                             f"{why}; no-primary-key and uuid-primary-key fall back to the DDL and the sizes.")
    counts = {(str(schema).lower(), str(name).lower()): Counts(_int(i), _int(f), _int(u), _int(d))
              for schema, name, i, f, u, d in rows}
    return Workload(counts=counts)


def _uptime(connection: ReadOnlyConnection) -> int | None:
    try:
        rows = connection.query("SHOW GLOBAL STATUS LIKE 'Uptime'")
    except AuditQueryError:
        return None
    return int(rows[0][1]) if rows else None


_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def detect_target(version: str, comment: str = "") -> str | None:
    """The innolint target of a server's VERSION() and @@version_comment: its full version when a
    line stands for it (`mysql-8.0.36`, `mariadb-10.11.6`), else the closest line; None when the
    version cannot be read."""
    from linter.schema.target import Target

    match = _VERSION.search(version)
    if match is None:
        return None
    major, minor = int(match.group(1)), int(match.group(2))
    if "mariadb" in version.lower() or "mariadb" in comment.lower():
        flavor = "mariadb"
    elif "percona" in comment.lower() or "percona" in version.lower():
        flavor = "percona"
    else:
        flavor = "mysql"
    if match.group(3) is not None:
        full = f"{flavor}-{major}.{minor}.{int(match.group(3))}"
        try:
            Target.parse(full)
            return full
        except ValueError:
            pass
    if flavor == "mariadb":
        if major >= 11:
            return "mariadb-11.x"
        if (major, minor) >= (10, 11):
            return "mariadb-10.11"
        return "mariadb-10.6" if (major, minor) >= (10, 6) else "mariadb-10.4"
    if major < 8:
        return "mysql-5.7"
    if flavor == "percona":
        return "percona-8.4" if (major, minor) >= (8, 4) else "percona-8.0"
    if major >= 9:
        return "mysql-9.x"
    return "mysql-8.4" if (major, minor) >= (8, 4) else "mysql-8.0"


def origin_of(connection: ReadOnlyConnection) -> str:
    """`mysql://host:port` (or `mysql://localhost` for a socket): the prefix of the paths findings
    carry, so they read `mysql://db1:3306/shop/orders:1:1: warning [...]`."""
    dsn = connection.dsn
    return "mysql://localhost" if dsn.socket is not None else f"mysql://{dsn.address}"


class Progress:
    """`audit: [#####.....] 120/650 tables` on a terminal, redrawn at most ten times a second;
    nothing at all on a pipe or file (CI logs would fill with carriage returns)."""

    def __init__(self, total: int, stream: TextIO, enabled: bool | None = None) -> None:
        self.total, self.stream, self.done = total, stream, 0
        self.enabled = stream.isatty() if enabled is None else enabled
        self._drawn = 0.0

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.enabled and (now - self._drawn >= 0.1 or self.done == self.total):
            self._drawn = now
            width = 30
            filled = width * self.done // max(self.total, 1)
            self.stream.write(f"\raudit: [{'#' * filled}{'.' * (width - filled)}] "
                              f"{self.done}/{self.total} tables")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.done:
            self.stream.write("\n")
            self.stream.flush()


#: a MariaDB JSON column as SHOW CREATE TABLE prints it: JSON is an alias there for LONGTEXT
#: utf8mb4_bin with a json_valid() CHECK on the column
_MARIADB_JSON = re.compile(
    r"^(\s*(`(?:[^`]|``)+`) )longtext( /\*M!\d+ COMPRESSED\*/)? CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
    r"( .*?)? CHECK \(json_valid\(\2\)\)(,?)$", re.MULTILINE)


def mariadb_json(ddl: str) -> str:
    """Write MariaDB's spelled-out JSON columns back as JSON. Why: the model keeps no column CHECK,
    so a fix that rewrites the column (`MODIFY COLUMN ... COMPRESSED`) from the LONGTEXT form would
    silently drop the json_valid() check; as JSON, MariaDB adds it back. It also lets the checks
    see a JSON column as what it was declared."""
    if "json_valid" not in ddl:
        return ddl
    return _MARIADB_JSON.sub(lambda m: f"{m.group(1)}json{m.group(3) or ''}{m.group(4) or ''}{m.group(5)}", ddl)


def _build_model(connection: ReadOnlyConnection, tables: Sequence[ServerTable], origin: str,
                 engine: Engine, progress: Progress, coverage: Coverage) -> tuple[SchemaModel, list[Diagnostic], int]:
    """SHOW CREATE TABLE of each table, through the splitter, the parser and the replayer (for the
    audit's target, keeping the keys in the order shown: the server's, which decides the index
    an InnoDB table is clustered on)."""
    replayer = Replayer(target=engine.context.target, keys_as_shown=True)
    diagnostics: list[Diagnostic] = []
    statements = 0
    schema: str | None = None
    for table in tables:
        path = f"{origin}/{table.schema}/{table.name}"
        if table.schema != schema:
            schema = table.schema
            use = engine.parse(f"USE {quote(schema)}")  # as a dump would say it: tables get their schema
            if not isinstance(use, ParseFailure):
                replayer.apply(use, Location(path, 1))
        try:
            rows = connection.query(f"SHOW CREATE TABLE {quote(table.schema)}.{quote(table.name)}")
        except AuditQueryError as error:  # dropped meanwhile, locked, no grant, a broken table
            coverage.could_not(DDL, table.schema, table.name, error, severity="warning")
            progress.step()
            continue
        for statement in split_stream([mariadb_json(str(rows[0][1]))], path):
            statements += 1
            op = engine.parse(statement.text)
            if isinstance(op, ParseFailure):
                diagnostics.append(Diagnostic(
                    rule="parse-error", path=path, line=statement.line + op.line_offset,
                    message=f"statement not understood: {op.reason}",
                    excerpt=statement.text.splitlines()[0][:100]))
                continue
            where = Location(path, statement.line, statement.column, statement.end_line)
            problem = replayer.apply(op, where, executable=statement.executable)
            if problem:
                diagnostics.append(Diagnostic(rule="replay-error", severity="info", path=path,
                                              line=statement.line, message=problem))
        progress.step()
    progress.close()
    return replayer.model, diagnostics, statements


def _unflagged_keys(samples: dict[str, KeySample]) -> str | None:
    """One note for the UUID-like keys whose sampled values cleared them (time-ordered, or not
    UUIDs), so a key the DDL made look random is not silently dropped from the report."""
    from linter.rules.uuid_keys import sampled_order

    cleared = []
    for name, sample in sorted(samples.items()):
        read = sampled_order(sample)
        if read is not None and read.kind != "random":
            cleared.append(f"{name} ({read.evidence})")
    if not cleared:
        return None
    shown = "; ".join(cleared[:10]) + (f"; and {len(cleared) - 10} more" if len(cleared) > 10 else "")
    return f"uuid-primary-key: not flagged, the sampled values are time-ordered or not UUIDs: {shown}"


def read_server(connection: ReadOnlyConnection, schemas: Sequence[str] = (),
                options: AuditOptions = AuditOptions(), engine: Engine | None = None,
                stderr: TextIO | None = None) -> Audit:
    """Read everything the audit needs from the server (see the module's docstring for the
    order and why). ``engine``: a linter.engine.Engine whose parse cache to use (tenant servers
    repeat one CREATE TABLE thousands of times); ``stderr``: where notes and the progress bar go."""
    if engine is None:
        from linter.engine import Engine

        engine = Engine(CheckContext())
    err = sys.stderr if stderr is None else stderr
    origin = origin_of(connection)
    version = connection.server_version()
    notes: list[str] = []
    check_schemas_exist(connection, schemas, origin)
    tables = list_tables(connection, schemas)
    diagnostics: list[Diagnostic] = []
    seen = {t.schema.lower() for t in tables}
    for name in schemas:
        if name.lower() not in seen:
            diagnostics.append(Diagnostic(
                rule="io-error", severity="warning", path=f"{origin}/{name}",
                message=f"schema {name} has no base table this user can see (empty, or no SELECT grant on "
                        "its tables)"))
    coverage = Coverage(origin, connection.limits)
    model, read_problems, statements = _build_model(
        connection, tables, origin, engine, Progress(len(tables), err, options.progress), coverage)
    diagnostics += read_problems
    workload = read_workload(connection, schemas)
    if workload.note:
        notes.append(workload.note)
    measurements: dict[str, ColumnMeasurement] = {}
    key_samples: dict[str, KeySample] = {}
    if options.sample > 0:
        from checks import check_by_id
        from linter.rules.options import parse_size, size_bytes
        from linter.audit.key_sampling import sample_keys
        from linter.audit.sampling import sample_columns

        listed = {(t.schema.lower(), t.name.lower()): t for t in tables}

        def listing(table: Any) -> ServerTable | None:
            return listed.get(((table.schema or "").lower(), table.name.lower()))

        default_size = size_bytes(check_by_id("compression-candidate").doc.option_defaults["min_size"])
        min_size = parse_size(engine.context.option("compression-candidate", "min_size", default_size), default_size)
        measurements = sample_columns(
            connection, model, options.sample,
            rows=lambda t: getattr(listing(t), "rows", None),
            size=lambda t: getattr(listing(t), "data_length", None), min_size=min_size, coverage=coverage)
        key_samples = sample_keys(connection, model, options.sample, coverage=coverage)
        note = _unflagged_keys(key_samples)
        if note:
            notes.append(note)
        notes.append(f"--sample {options.sample:,}: compression measured on {len(measurements):,} column"
                     f"{'s' if len(measurements) != 1 else ''}, UUID versions read from {len(key_samples):,} key"
                     f"{'s' if len(key_samples) != 1 else ''}")
    diagnostics += coverage.diagnostics
    notes = [*connection.notes, *notes, *coverage.notes()]
    for note in notes:
        err.write(f"innolint: {note}\n")
    return Audit(origin=origin, version=version, model=model, tables=tables, workload=workload,
                 measurements=measurements, key_samples=key_samples, diagnostics=diagnostics, notes=notes,
                 statements=statements, uptime_seconds=_uptime(connection),
                 exported_at=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))


def run_checks(audit: Audit, context: CheckContext, *, engine: Engine | None = None,
               disabled: Iterable[str] = (), severities: dict[str, str] | None = None,
               started: float | None = None) -> Report:
    """Lint the server's model with its evidence: the Report `innolint check` would give for a
    dump of the same server, plus what only the server could tell. ``disabled`` and
    ``severities`` are the configuration's rules turned off and severity overrides."""
    if engine is None:
        from linter.engine import Engine

        engine = Engine(context)
    checked = audit.context(context)
    failed: list[Diagnostic] = []  # a rule that failed on a table (linter.rules.failures)
    findings: list[Finding] = engine.run_checks(audit.model, checked, frozenset(disabled), failures=failed)
    overrides = severities or {}
    findings = [f.replace(severity=overrides[f.rule]) if f.rule in overrides else f
                for f in findings]
    findings = group_copies(findings, audit.model, checked, covered=engine.covers_copies)  # one per tenant definition
    report = Report(findings=sorted(findings, key=Finding.sort_key),
                    diagnostics=sorted([*audit.diagnostics, *failed], key=Diagnostic.sort_key))
    report.stats = RunStats(files=len({t.schema.lower() for t in audit.tables}),
                            statements=audit.statements, tables=len(audit.model.tables()),
                            seconds=round(time.perf_counter() - started, 3) if started else 0.0)
    return report
