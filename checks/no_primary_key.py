"""no-primary-key: an InnoDB table that InnoDB must cluster on its hidden row id."""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.uuid_keys import DEFAULT_STATS_INSERT_RATIO, DEFAULT_STATS_MIN_INSERTS
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified, quote
from linter.rules.findings import Finding
from linter.rules.options import Integer, Number
from linter.rules.primary_key_fix import primary_key_clauses
from linter.parse.elements import LARGE_TYPES, Index
from linter.parse.elements import SPATIAL_TYPES
from linter.schema.model import SchemaModel, Table
from linter.input.migrations.orm_evidence import LinkEvidence


class NoPrimaryKey(Check):
    id = "no-primary-key"
    title = "InnoDB table without a primary key"
    severity = "warning"
    doc = RuleDoc(
        why=(
            "InnoDB stores every table as a B-tree clustered on its PRIMARY KEY. With no primary key it "
            "clusters on the first UNIQUE key whose columns are all NOT NULL (whole columns, not virtual); "
            "with neither it adds a hidden 6-byte DB_ROW_ID allocated from one server-wide counter under "
            "the dict_sys mutex. Inserts into every such table then serialise on that mutex: in Percona's "
            "sysbench tests insert throughput never passed 87% of the same tables with a primary key, and "
            "parallel bulk loads took 107% to 124% longer at 16 to 64 threads. Tools that copy tables "
            "online (pt-online-schema-change, gh-ost) and row-based replication also need a key to find rows."
        ),
        evidence=(
            "The table's final definition after every ALTER in the input: its keys, which of them could "
            "cluster and why the others cannot (a prefix length, a nullable or a virtual column). With workload "
            "and size evidence (a stats file, or `innolint audit` on the live server) the severity follows what the "
            "table does: error when it takes many inserts (the row-id mutex is an insert bottleneck), info when it "
            "is empty and takes none, the configured severity otherwise; the message quotes the numbers. A table "
            "the application's ORM owns (Prisma's implicit many-to-many tables, read from schema.prisma beside the "
            "migrations) gets its advice in the ORM's terms and no ALTER, which the ORM's next migration would undo."
        ),
        bad="CREATE TABLE event_log (\n  created_at DATETIME NOT NULL,\n  message TEXT\n) ENGINE=InnoDB;",
        good=(
            "CREATE TABLE event_log (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
            "  created_at DATETIME NOT NULL,\n  message TEXT\n) ENGINE=InnoDB;"
        ),
        fix=(
            "Promote an existing unique key (or an AUTO_INCREMENT column) with `ALTER TABLE t ADD PRIMARY KEY "
            "(...)`; otherwise add `id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY`, INVISIBLE where the "
            "server has invisible columns (MySQL 8.0.23+, MariaDB 10.3+) so `SELECT *` and column-less INSERTs "
            "keep working. On MySQL 8.0.30+ `sql_generate_invisible_primary_key=ON` does this for new tables."
        ),
        options={
            "severity": "warning or error for tables InnoDB clusters on the hidden row id (default warning)",
            "stats_min_inserts": "with stats (--stats, innolint audit): a table that took at least this many inserts "
            "since start-up, and inserts at least stats_insert_ratio of its fetches, is insert-heavy: error "
            "(default 10000)",
            "stats_insert_ratio": "with stats: inserted rows as a fraction of fetched rows from which a table is "
            "insert-heavy (default 0.1)",
        },
        option_types={"stats_min_inserts": Integer(ge=0), "stats_insert_ratio": Number(ge=0)},
        option_defaults={"stats_min_inserts": DEFAULT_STATS_MIN_INSERTS, "stats_insert_ratio": DEFAULT_STATS_INSERT_RATIO},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        severity = context.option(self.id, "severity", self.severity)

        def judge(table: Table) -> Iterator[Finding]:
            if not table.is_innodb or table.primary_key is not None:
                return
            clustered = table.clustered_index
            if clustered is not None:
                link = context.app_evidence.link(table) if context.app_evidence is not None else None
                yield self._clustered_on_unique(table, clustered, link if link is not None and link.implicit else None)
                return
            yield self._row_id(table, context, severity)

        return judged_once(model, context, judge)

    def _clustered_on_unique(self, table: Table, index: Index, owned: LinkEvidence | None = None) -> Finding:
        columns = ", ".join(quote(c) for c in index.column_names)
        message = (
            f"{table.name} has no PRIMARY KEY; InnoDB clusters it on UNIQUE key {index.name} ({columns}), so there is "
            "no hidden row id and no row-id contention. An explicit PRIMARY KEY still states the intent and is what "
            "pt-online-schema-change, gh-ost and row-based replication look for."
        )
        fix: str | None = f"ALTER TABLE {qualified(table)} DROP INDEX {quote(index.name or '')}, ADD PRIMARY KEY ({columns});"
        evidence = f"UNIQUE {index.name} ({columns}): every column NOT NULL, no prefix: InnoDB's clustered index"
        if owned is not None:  # the ORM owns the table: an ALTER here is undone by its next migration
            message += f" {owned.advice}"
            fix = None
            evidence += f"; {owned.what} ({owned.where})"
        return self.finding(table, message, severity="info", evidence=evidence, fix=fix, subject="unique-clustered",
                            summary=f"{table.name}: no PRIMARY KEY; InnoDB clusters it on UNIQUE key {index.name}")

    def _row_id(self, table: Table, context: CheckContext, severity: str) -> Finding:
        evidence = _why_no_key_clusters(table)
        if table.key_dropped is not None:
            how = f"ALTER TABLE at line {table.key_dropped.line} dropped its PRIMARY KEY and added none"
            short = f"the ALTER TABLE at line {table.key_dropped.line} dropped its PRIMARY KEY"
        elif table.origin == "select":
            how = short = "CREATE TABLE ... SELECT copies no keys"
        elif (behind := _clustering_key_behind(table)) is not None:
            first = table.indexes[0]
            how = (f"it has no PRIMARY KEY, and its UNIQUE key {behind.name} of NOT NULL columns is not its first key "
                   f"({first.name} is): InnoDB looks at the first key alone. The server sorts a table's keys (NOT "
                   "NULL UNIQUE keys first) when it creates the table and when an ALTER adds a key, and MariaDB "
                   "keeps their order through an ALTER that only makes a column NOT NULL")
            short = f"UNIQUE key {behind.name} is not its first key"
        elif (hashed := _hash_key(table)) is not None:
            how = (f"it has no PRIMARY KEY, and the server keeps its UNIQUE key {hashed.name} of NOT NULL columns as a "
                   f"hash over a hidden column ({_why_hash(hashed)}), which InnoDB cannot cluster on")
            short = f"UNIQUE key {hashed.name} is a hash key"
        else:
            how = "it has no PRIMARY KEY and no UNIQUE key of NOT NULL columns"
            short = "no PRIMARY KEY and no NOT NULL UNIQUE key"
        message = (
            f"{table.name}: {how}, so InnoDB clusters it on a hidden 6-byte DB_ROW_ID taken from one server-wide "
            "counter under the dict_sys mutex; inserts into all such tables contend on it (Percona: at most 87% "
            "of the insert throughput of keyed tables, bulk loads 107-124% slower at 16-64 threads)."
        )
        fix, note = _fix(table, context)
        if note:
            message += " " + note
        severity, workload = _by_workload(self.id, table, context, severity)
        if workload:
            message += " " + workload
            evidence += "; " + workload
        summary = f"{table.name}: {short}: clustered on the hidden row id"
        if severity == "error" and workload:
            summary += " (insert-heavy)"
        return self.finding(table, message, severity=severity, evidence=evidence, fix=fix, subject="row-id",  # type: ignore[arg-type]
                            summary=summary)


def _by_workload(rule: str, table: Table, context: CheckContext, severity: str) -> tuple[str, str]:
    """The severity the table's workload and size evidence calls for, and the sentence quoting
    it: the row-id mutex serialises inserts, so it matters in proportion to the inserts a table
    takes. Insert-heavy (as uuid-primary-key counts it): error; empty and taking no inserts:
    info; otherwise, or without evidence, the configured severity."""
    stats = context.table_stats(table)
    if stats is None:
        return severity, ""
    size = f"{_human(stats.data_length)} clustered index" if stats.data_length is not None else "size unknown"
    rows = f"~{stats.rows:,} rows" if stats.rows is not None else "rows unknown"
    if stats.count_insert is not None:
        min_inserts = int(context.option(rule, "stats_min_inserts", DEFAULT_STATS_MIN_INSERTS))
        ratio = float(context.option(rule, "stats_insert_ratio", DEFAULT_STATS_INSERT_RATIO))
        counted = f"{stats.count_insert:,} rows inserted and {stats.count_fetch or 0:,} fetched since start-up"
        if stats.count_insert >= min_inserts and stats.count_insert >= ratio * (stats.count_fetch or 0):
            return "error", f"Workload: insert-heavy ({counted}; {rows}, {size})."
        if stats.count_insert == 0 and stats.rows == 0:
            return "info", f"Workload: empty and no inserts since start-up ({rows}, {size})."
        short = stats.short_of_insert_heavy(min_inserts, ratio)
        return severity, f"Workload: {counted} ({rows}, {size}): not insert-heavy, {short}."
    if stats.rows == 0:
        return "info", f"Size: empty ({rows}, {size}); no insert counters."
    return severity, f"Size: {rows}, {size}; no insert counters."


def _human(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n} bytes"


def _clustering_key_behind(table: Table) -> Index | None:
    """A UNIQUE key that could cluster the table but is not its first key (the server looks at the
    first alone: `linter.server.key_order`)."""
    return next((index for index in table.indexes[1:] if index.kind == "unique" and table.can_cluster(index)), None)


def _hash_key(table: Table) -> Index | None:
    """A UNIQUE key of NOT NULL columns that the server keeps as a hash (`Index.long_hash`)."""
    return next((index for index in table.indexes if index.kind == "unique" and index.long_hash and all(
        (column := table.column(p.name)) is not None and not column.nullable for p in index.columns)), None)


def _why_hash(index: Index) -> str:
    return ("written USING HASH, which MariaDB keeps for a UNIQUE key" if index.using == "HASH"
            else "MariaDB's answer to a UNIQUE key wider than a B-tree key takes")


def _why_no_key_clusters(table: Table) -> str:
    reasons = []
    for index in table.indexes:
        if index.kind != "unique":
            continue
        if index.long_hash:
            reasons.append(f"UNIQUE {index.name} cannot cluster: the server keeps it as a hash over a hidden column "
                           f"({_why_hash(index)})")
            continue
        if table.can_cluster(index):
            reasons.append(f"UNIQUE {index.name} could cluster but is not the table's first key "
                           f"({table.indexes[0].name} is)")
            continue
        why = []
        for part in index.columns:
            column = table.column(part.name)
            if part.expression:
                why.append(f"{part.name} is an expression")
            elif part.prefix is not None:
                why.append(f"{part.name}({part.prefix}) is a prefix")
            elif column is None:
                why.append(f"{part.name} is not a column")
            elif column.nullable:
                why.append(f"{part.name} is nullable")
            elif column.generated == "virtual":
                why.append(f"{part.name} is a virtual column")
            elif column.type in LARGE_TYPES:
                why.append(f"{part.name} is a whole {column.type} (a hash-based long unique on MariaDB)")
            elif column.type in SPATIAL_TYPES:
                why.append(f"{part.name} is {column.type} (the server stores the key as a prefix)")
        reasons.append(f"UNIQUE {index.name} cannot cluster: {', '.join(why)}")
    if not reasons:
        return "no PRIMARY KEY and no UNIQUE key"
    return "no PRIMARY KEY; " + "; ".join(reasons)


def _fix(table: Table, context: CheckContext) -> tuple[str, str]:
    """The ALTER that gives the table a primary key (`linter.rules.primary_key_fix`), and a note for the message."""
    clauses, note = primary_key_clauses(table, context.target)
    fix = f"ALTER TABLE {qualified(table)} {', '.join(clauses)};"
    if context.target.has_gipk and clauses[0].startswith("ADD COLUMN"):
        note = (note + " " if note else "") + (
            "On MySQL 8.0.30+ sql_generate_invisible_primary_key=ON gives new tables an invisible primary key "
            "automatically."
        )
    return fix, note
