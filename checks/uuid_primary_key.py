"""uuid-primary-key: an InnoDB table clustered on random UUIDs.

InnoDB stores rows in primary-key order. A key that arrives in random order (a UUID as text, or
UUID() bytes without MySQL 8's swap flag) sends every insert to a random leaf page: pages split
half-empty, the table grows, and once it no longer fits in the buffer pool each insert costs a
page read and a write. The check finds such keys, tells random from time-ordered, and weighs the
finding by what is known about the table's insert load.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.copies import judged_once
from linter.rules.checkapi import (
    Check, CheckContext, RuleDoc, TableStats, cause_place, foreign_keys_by_parent, qualified,
    quote, table_key,
)
from linter.rules.findings import Finding, Severity
from linter.rules.options import STRINGS, Integer, Number
from linter.parse.elements import Column, Index
from linter.schema.links import link_identity
from linter.schema.model import SchemaModel, Table
from linter.input.migrations.orm_evidence import KeyEvidence
from linter.record import FrozenRecord
from linter.schema.target import Target
from linter.rules.uuid_keys import (
    BINARY_TYPES, DEFAULT_STATS_INSERT_RATIO, DEFAULT_STATS_MIN_INSERTS, TEXT_TYPES, SampledOrder, UuidKey, name_tokens,
    sampled_order, uuid_key, uuid_patterns,
)

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)


RULE = "uuid-primary-key"

#: table-name endings that suggest an append-only, insert-heavy table
_INSERT_HEAVY_TOKENS = frozenset({
    "log", "logs", "event", "events", "history", "histories", "audit", "audits", "metric", "metrics",
    "message", "messages", "notification", "notifications", "session", "sessions",
})


class Workload(FrozenRecord):
    __slots__ = __match_args__ = ("severity", "evidence")
    severity: Severity
    evidence: str

    def __init__(self, severity: Severity, evidence: str) -> None:
        _set(self, "severity", severity)
        _set(self, "evidence", evidence)


class UuidPrimaryKey(Check):
    id = RULE
    title = "InnoDB table clustered on random UUIDs"
    severity = "info"  # without evidence of many inserts (the Evidence section)
    severity_note = "warning when the name or an append-only shape suggests many inserts; error when configuration, a comment or --stats says so"
    doc = RuleDoc(
        why=(
            "InnoDB stores rows in primary-key order. Inserts in random key order split pages: Percona "
            "(\"Tuning InnoDB Primary Keys\") found pages left ~66% full instead of ~15 KB of 16 KB, and the "
            "clustered index of 3M sysbench rows at 1 GB instead of 644 MB (+60%); once the table outgrows the "
            "buffer pool every insert costs a page read and a write. Every secondary index entry also carries "
            "the primary key: 36 bytes as text, 16 as BINARY(16), 8 as BIGINT. Insert-heavy tables should "
            "insert in key order: AUTO_INCREMENT, or time-ordered ids. Text UUIDs are random in index order "
            "even when UUID() (version 1) made them: the text starts with time_low, the fastest-changing part "
            "of the timestamp."
        ),
        evidence=(
            "The leading column of the clustered index (the PRIMARY KEY, else the first NOT NULL UNIQUE key): "
            "CHAR/VARCHAR(36), BINARY/VARBINARY(16), CHAR/VARCHAR(32) named uuid/guid or filled by UUID(), any "
            "string or binary column named uuid/guid, or a DEFAULT of UUID(), UUID_TO_BIN(UUID()), "
            "UNHEX(REPLACE(UUID(),'-','')). Not random: UUID_TO_BIN(UUID(), 1) (the swap flag puts the "
            "timestamp's high part first), MariaDB's UUID type (stores UUID() values in that order too; "
            "UUID_v4() defaults stay random), UUID_v7(), a column or table COMMENT that says UUIDv7, ULID or "
            "time-ordered, a `-- innolint: time-ordered` comment, or the `time_ordered_columns` option. The "
            "application's model file beside the migrations (Prisma's schema.prisma, a Laravel model) decides "
            "where it says how the key is filled: `@default(uuid())`, `cuid(2)`, `nanoid()` or a newUniqueId() "
            "returning Str::uuid() are random (a Prisma `VARCHAR(191)` id so filled is flagged); `uuid(7)`, "
            "`cuid()`, `ulid()`, `autoincrement()`, Laravel's HasUuids, HasVersion4Uuids and HasUlids are "
            "time-ordered (not flagged); the finding names the file and line. A "
            "composite key led by a foreign-key column is left to the parent table's own finding, and so is a link "
            "table clustered on its pair (a side's ids lead it, each repeated for its links: link-table-primary-key "
            "wants that key, and a surrogate would undo it). Severity "
            "follows the evidence that the table takes many inserts: error when the config's insert_heavy "
            "patterns, a `-- innolint: insert-heavy` comment or the stats file (--stats) say so; warning when "
            "the name (*_log, *_events, *_history, *_audit, *_metrics, messages, notifications, sessions) or "
            "an append-only shape (a created_at column and no updated_at) suggests it; info otherwise, and "
            "info when the stats file shows few inserts. `innolint audit --sample N` reads up to N values of the "
            "key in four bounded primary-key ranges and reads their version nibble: random (v4, v1 as text or "
            "unswapped bytes, random bytes) is at least a warning with the measured versions in the message; "
            "time-ordered (v6, v7, v1 stored swapped or in MariaDB's UUID type) or values that are not UUIDs "
            "give no finding, and the audit's note lists those keys."
        ),
        bad=(
            "CREATE TABLE audit_event (\n  id CHAR(36) NOT NULL DEFAULT (UUID()),\n  created_at DATETIME NOT NULL,\n"
            "  payload JSON,\n  PRIMARY KEY (id)\n) ENGINE=InnoDB;"
        ),
        good=(
            "CREATE TABLE audit_event (\n  id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 1)),\n"
            "  created_at DATETIME NOT NULL,\n  payload JSON,\n  PRIMARY KEY (id)\n) ENGINE=InnoDB;"
        ),
        fix=(
            "MySQL 8: store the key as BINARY(16) filled by UUID_TO_BIN(UUID(), 1) and read it with "
            "BIN_TO_UUID(col, 1) (the fix converts existing values). Other servers: add `id BIGINT UNSIGNED "
            "NOT NULL AUTO_INCREMENT PRIMARY KEY` and keep the UUID as a UNIQUE secondary key. Either way, "
            "UUIDv7 or ULID values generated by the application are time-ordered too; UUIDv4 values from the "
            "application stay random whatever the column type. On MariaDB 10.7+ `MODIFY col UUID` also orders "
            "UUID() values."
        ),
        options={
            "time_ordered_columns": (
                "glob patterns (`column`, `table.column` or `schema.table.column`) of key columns whose values are "
                "time-ordered (UUIDv7, ULID, ...): not flagged (default none)"
            ),
            "stats_min_inserts": "with --stats: fewer inserts than this since start-up is not insert-heavy (default 10000)",
            "stats_insert_ratio": (
                "with --stats: insert-heavy when rows inserted are at least this fraction of rows fetched (default 0.1)"
            ),
        },
        option_types={
            "time_ordered_columns": STRINGS,
            "stats_min_inserts": Integer(ge=0),
            "stats_insert_ratio": Number(ge=0),
        },
        option_defaults={"time_ordered_columns": [], "stats_min_inserts": DEFAULT_STATS_MIN_INSERTS,
                         "stats_insert_ratio": DEFAULT_STATS_INSERT_RATIO},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        configured = context.option(self.id, "time_ordered_columns", ()) or ()
        if isinstance(configured, str):
            configured = (configured,)
        ordered_patterns = tuple(str(p).lower() for p in configured)
        referrers = _referrers(model)

        def judge(table: Table) -> Iterator[Finding]:
            if not table.is_innodb:
                return
            key = table.clustered_index
            if key is None or not key.columns or key.columns[0].expression:
                return
            column = table.column(key.columns[0].name)
            if column is None or column.auto_increment:
                return
            found = uuid_key(table, column, ordered_patterns)
            said = model_file_key(context, table, column)
            sample = context.key_sample(table, column.name) if found is not None else None
            sampled = sampled_order(sample) if sample is not None else None
            if sampled is not None:
                if sampled.kind != "random":
                    return  # the values read say time-ordered, or no UUIDs: the audit's note says so
            elif said is not None and said.ordered is not None:
                if said.ordered:
                    return  # the application's model says its values arrive in order
                if found is None and column.type in TEXT_TYPES | BINARY_TYPES:
                    written = f"{column.type}({column.length})" if column.length is not None else column.type
                    found = UuidKey(column, f"{written} filled with {said.kind}", "text" if column.type in TEXT_TYPES
                                    else "binary", None)
                elif found is not None:  # the application fills the key itself: a DEFAULT or COMMENT does not
                    found = UuidKey(found.column, found.shape, found.form, None)
            if found is None or (sampled is None and found.ordered is not None):
                return
            if len(key.columns) > 1 and _is_foreign_key_column(table, column):
                return  # rows of one parent sit together; the parent's own key is the one to fix
            link = link_identity(model, table)
            if link is not None and link.is_clustered_on(key):
                # a link table clustered on its pair: the leading column holds the ids of the entity it
                # refers to, each repeated for its links, so one entity's rows sit together (a surrogate
                # would scatter them: link-table-primary-key); that entity's own key is the one to fix
                return
            pointing = referrers.get(table_key(model, table.schema, table.name), [])
            yield self._finding(table, key, found, context, pointing, said, sampled)

        return judged_once(model, context, judge)

    def _finding(
        self, table: Table, key: Index, found: UuidKey, context: CheckContext, pointing: list[str],
        said: KeyEvidence | None = None, sampled: SampledOrder | None = None,
    ) -> Finding:
        column = found.column
        workload = _workload(self.id, table, context)
        if sampled is not None:  # measured random: at least a warning, whatever the name suggests
            severity: Severity = "error" if workload.severity == "error" else "warning"
            workload = Workload(severity, f"{workload.evidence}; {sampled.evidence}")
        key_sql = ", ".join(quote(c) for c in key.column_names)
        kind = "PRIMARY KEY" if key.kind == "primary" else f"UNIQUE key {key.name} (InnoDB clusters on it)"
        size = {"text": f"{column.length or 36}-byte", "binary": "16-byte", "native": "16-byte"}[found.form]
        if said is not None and found.form == "text" and (column.length or 0) > 36:
            size = "text (36 bytes for a UUID)"
        what = "random UUIDs" if said is None or "UUID" in said.kind else "random ids"
        parts = [
            f"{table.name} is clustered on {what}: {kind} ({key_sql}) leads with {quote(column.name)} ({found.shape}). "
            "InnoDB stores rows in key order, so each insert lands on a random page: pages split and end ~66% full "
            "instead of ~15 KB of 16 KB (Percona: 3M rows took 1 GB instead of 644 MB, +60%), and once the table "
            "outgrows the buffer pool every insert costs a page read and a write.",
        ]
        if sampled is not None:
            parts.append(sampled.sentence)
        if found.form == "text" and said is None:
            parts.append(
                "As text even UUID() (version 1) values sort randomly: they start with time_low, the fastest-changing "
                "part of the timestamp."
            )
        parts.append(f"Every secondary index entry repeats this {size} key (8 bytes as BIGINT).")
        if said is not None:
            parts.append(f"The application's model says so: {said.says()}.")
        parts.append(f"Workload: {workload.evidence}.")
        fix: str | None
        if said is not None and said.ordered is False:
            # the application fills the key: a column DEFAULT never runs, the fix is in the model
            fix, note = None, _model_fix(said)
        else:
            fix, note = _fix(table, key, found, context.target)
        parts.append(note)
        if pointing:
            shown = ", ".join(pointing[:5]) + (f" and {len(pointing) - 5} more" if len(pointing) > 5 else "")
            parts.append(f"Foreign keys in {shown} reference this table: convert their columns the same way.")
        return self.finding(
            table,
            " ".join(p for p in parts if p),
            severity=workload.severity,
            where=cause_place(table, (key, column), key_dropped=key.kind != "primary"),
            evidence=f"leading key column {column.name} {found.shape}; {workload.evidence}"
            + (f"; model file {said.where}: {said.generator or 'no default'}" if said is not None else ""),
            fix=fix,
            subject=column.name,
            summary=f"{table.name} is clustered on random UUIDs: "
            f"{'PRIMARY KEY' if key.kind == 'primary' else f'UNIQUE key {key.name}'} leads with "
            f"{quote(column.name)} ({found.shape})",
        )


def model_file_key(context: CheckContext, table: Table, column: Column) -> KeyEvidence | None:
    """What the application's model file says about this key column's values, if it names it
    (`CheckContext.app_evidence`): random, time-ordered, or not said."""
    evidence = context.app_evidence.key(table) if context.app_evidence is not None else None
    if evidence is None or column.name.lower() not in {c.lower() for c in evidence.columns}:
        return None
    return evidence


def _model_fix(said: KeyEvidence) -> str:
    """The fix when the application fills the key: in its model (a column DEFAULT never runs, and
    for an ORM that writes the migrations an ALTER of one's own is drift its next migration undoes),
    in the model's own terms where its reader knows them."""
    return said.fix or "Fix where the application makes the key: a time-ordered generator (UUIDv7, ULID)."


def _is_foreign_key_column(table: Table, column: Column) -> bool:
    name = column.name.lower()
    return any(fk.columns and fk.columns[0].lower() == name for fk in table.foreign_keys)


# -- workload evidence --------------------------------------------------------------------------
def _workload(rule: str, table: Table, context: CheckContext) -> Workload:
    """Error on evidence that the table is insert-heavy, warning on a hint, info otherwise; the
    evidence is named either way."""
    pattern = context.is_configured_insert_heavy(table)
    if pattern is not None:
        return Workload("error", f"insert-heavy by the config's insert_heavy pattern {pattern!r}")
    if "insert-heavy" in table.annotations:
        return Workload("error", "insert-heavy by the `-- innolint: insert-heavy` comment on its CREATE TABLE")
    stats = context.table_stats(table)
    if stats is not None and stats.count_insert is not None:
        min_inserts = int(context.option(rule, "stats_min_inserts", DEFAULT_STATS_MIN_INSERTS))
        ratio = float(context.option(rule, "stats_insert_ratio", DEFAULT_STATS_INSERT_RATIO))
        fetched = stats.count_fetch or 0
        measured = _describe_stats(stats)
        if stats.count_insert >= min_inserts and stats.count_insert >= ratio * fetched:
            return Workload("error", f"insert-heavy by {context.stats_label}: {measured}")
        return Workload("info", f"not insert-heavy by {context.stats_label}: {measured} "
                                f"({stats.short_of_insert_heavy(min_inserts, ratio)})")
    hint = _name_hint(table.name) or _append_only_hint(table)
    sized = f" ({_describe_stats(stats)})" if stats is not None else ""
    if hint:
        return Workload("warning", f"likely insert-heavy: {hint}{sized}")
    how = "`-- innolint: insert-heavy` or the insert_heavy config"
    if context.stats_source != "server":  # an audit read what the server has: no file to add
        how = "`-- innolint: insert-heavy`, the insert_heavy config or --stats"
    return Workload("info", f"no evidence of an insert-heavy workload{sized}; mark it with {how}")


def _describe_stats(stats: TableStats) -> str:
    parts = []
    if stats.count_insert is not None:
        parts.append(f"{stats.count_insert:,} rows inserted")
    if stats.count_fetch is not None:
        parts.append(f"{stats.count_fetch:,} fetched")
    if stats.count_insert is not None and stats.count_fetch:
        parts.append(f"{stats.count_insert / stats.count_fetch:.2f} inserts per fetch")
    if stats.rows is not None:
        parts.append(f"~{stats.rows:,} rows")
    if stats.data_length is not None:
        parts.append(f"{stats.data_length / 2**20:,.1f} MiB clustered index")
    return ", ".join(parts) if parts else "no numbers"


def _name_hint(name: str) -> str | None:
    tokens = name_tokens(name)
    if tokens and tokens[-1] in _INSERT_HEAVY_TOKENS:
        return f"the name {name} ends in {tokens[-1]!r}"
    return None


def _append_only_hint(table: Table) -> str | None:
    p = uuid_patterns()
    created = [c.name for c in table.columns.values() if p.created.match("_".join(name_tokens(c.name)))]
    updated = [c.name for c in table.columns.values() if p.updated.match("_".join(name_tokens(c.name)))]
    if created and not updated:
        return f"append-only shape ({created[0]} and no updated_at column)"
    return None


# -- the fix -------------------------------------------------------------------------------------
def _fix(table: Table, key: Index, found: UuidKey, target: Target) -> tuple[str, str]:
    """The SQL for the target's default advice, and the message's note on it and the alternatives."""
    name = qualified(table)
    column = found.column
    col = quote(column.name)
    rest = [quote(c) for c in key.column_names[1:]]
    alternatives = "Alternatives: UUIDv7 or ULID generated by the application (time-ordered), or an AUTO_INCREMENT key."
    if target.is_mysql8 and found.form != "native":
        new_key = ", ".join([col, *rest])
        drop_key = "DROP PRIMARY KEY" if key.kind == "primary" else f"DROP INDEX {quote(key.name or '')}"
        add_key = "ADD PRIMARY KEY" if key.kind == "primary" else f"ADD UNIQUE KEY {quote(key.name or '')}"
        definition = "BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 1))"
        if found.form == "binary":
            fix = (
                f"UPDATE {name} SET {col} = UUID_TO_BIN(BIN_TO_UUID({col}), 1);\n"
                f"ALTER TABLE {name} MODIFY COLUMN {col} {definition};"
            )
        else:
            temp = quote(_free_name(table, f"{column.name}_bin"))
            fix = (
                f"ALTER TABLE {name} ADD COLUMN {temp} BINARY(16) NULL AFTER {col};\n"
                f"UPDATE {name} SET {temp} = UUID_TO_BIN({col}, 1);\n"
                f"ALTER TABLE {name} {drop_key}, DROP COLUMN {col};\n"
                f"ALTER TABLE {name} CHANGE COLUMN {temp} {col} {definition}, {add_key} ({new_key});"
            )
        note = (
            f"Fix ({target.label}): store it as BINARY(16) filled by UUID_TO_BIN(UUID(), 1), whose swap flag puts the "
            f"timestamp's high part first so new rows append; read it back with BIN_TO_UUID({column.name}, 1). Only "
            "UUID() (version 1) values become ordered: application-made UUIDv4 values stay random. " + alternatives
        )
        return fix, note
    surrogate = quote(_free_name(table, "id"))
    unique = ", ".join(quote(c) for c in key.column_names)
    drop_key = "DROP PRIMARY KEY" if key.kind == "primary" else f"DROP INDEX {quote(key.name or '')}"
    fix = (
        f"ALTER TABLE {name} {drop_key}, ADD COLUMN {surrogate} BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST, "
        f"ADD UNIQUE KEY ({unique});"
    )
    note = (
        f"Fix ({target.label}): cluster on an AUTO_INCREMENT {surrogate} so rows append, and keep the UUID as a UNIQUE "
        "secondary key for lookups. " + alternatives
    )
    if found.form == "native":
        note += " On MariaDB 11.7+ DEFAULT UUID_v7() makes new values time-ordered in the UUID type itself."
    elif target.is_mariadb and target.version >= (10, 7):
        note += f" On {target.label} the UUID type is another way: MODIFY {col} UUID NOT NULL stores UUID() values time-ordered."
    return fix, note


def _free_name(table: Table, wanted: str) -> str:
    """`wanted`, or the first of `wanted`2, 3, ... (for "id": row_id, row_id2, ...) not yet a column."""
    candidates = ["id", "row_id", *(f"row_id{n}" for n in range(2, 100))] if wanted == "id" else [
        wanted, *(f"{wanted}{n}" for n in range(2, 100))
    ]
    return next(c for c in candidates if table.column(c) is None)


def _referrers(model: SchemaModel) -> dict[tuple[str, str], list[str]]:
    """A table (`table_key`) -> the names of the tables whose foreign keys point at it."""
    return {key: list(dict.fromkeys(table.name for table, _ in pairs))
            for key, pairs in foreign_keys_by_parent(model).items()}
