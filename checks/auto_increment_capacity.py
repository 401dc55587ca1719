"""auto-increment-capacity: an AUTO_INCREMENT counter that is using up its column's type.

When the counter reaches the type's maximum every INSERT that needs a new value fails (MariaDB:
ERROR 167 "Out of range value for column"; MySQL: the next value is refused, ERROR 1062
"Duplicate entry" for the maximum), and widening the column then is a table copy under pressure.
The check reads the next value the table will hand out (the dump's AUTO_INCREMENT=N, or
information_schema.TABLES.AUTO_INCREMENT through `innolint audit` or a stats file) and compares it
with the column type's maximum. Signed types give AUTO_INCREMENT only their positive half.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from linter.rules.column_sql import change_columns
from linter.rules.checkapi import Check, CheckContext, RuleDoc, TableStats, cause_place, foreign_keys_by_parent
from linter.rules.findings import Finding, Severity
from linter.rules.options import Number
from linter.parse.elements import Column, ForeignKey
from linter.schema.model import SchemaModel, Table
from linter.record import FrozenRecord
from linter.schema.target import Target

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

RULE = "auto-increment-capacity"
#: the integer types, narrowest first, with their size in bytes and signed maximum (the unsigned
#: maximum is 2 * signed + 1); MySQL and MariaDB manuals, "Integer Types"
INTEGER_TYPES: dict[str, tuple[int, int]] = {
    "TINYINT": (1, 127),
    "SMALLINT": (2, 32_767),
    "MEDIUMINT": (3, 8_388_607),
    "INT": (4, 2_147_483_647),
    "BIGINT": (8, 9_223_372_036_854_775_807),
}
DEFAULT_WARNING_SHARE = 0.5
DEFAULT_ERROR_SHARE = 0.85


def maximum(type_name: str, unsigned: bool) -> int:
    signed_max = INTEGER_TYPES[type_name][1]
    return 2 * signed_max + 1 if unsigned else signed_max


class Counter(FrozenRecord):
    """An AUTO_INCREMENT column, its next value and where that value was read."""

    __slots__ = __match_args__ = ("column", "value", "source", "share")
    column: Column
    value: int
    source: str
    share: float  # value / the type's maximum

    def __init__(self, column: Column, value: int, source: str, share: float) -> None:
        _set(self, "column", column)
        _set(self, "value", value)
        _set(self, "source", source)
        _set(self, "share", share)


def counter(table: Table, stats: TableStats | None) -> Counter | None:
    """The table's AUTO_INCREMENT integer column with its next value, or None when there is no
    such column or no value: a CREATE TABLE without AUTO_INCREMENT=N says nothing about how many
    ids were used, and an empty table (stats: no rows) has nothing to widen yet. The value is the
    higher of the DDL's and the server's (MySQL 8 caches the information_schema one)."""
    column = next((c for c in table.columns.values() if c.auto_increment), None)
    if column is None or column.type not in INTEGER_TYPES:
        return None
    if stats is not None and stats.rows == 0:
        return None
    found = []
    if table.auto_increment is not None:
        found.append((table.auto_increment, "AUTO_INCREMENT=" + f"{table.auto_increment}"))
    if stats is not None and stats.auto_increment is not None:
        found.append((stats.auto_increment, "information_schema.TABLES.AUTO_INCREMENT"))
    if not found:
        return None
    value, source = max(found, key=lambda f: f[0])
    return Counter(column, value, source, value / maximum(column.type, column.unsigned))


def wider_type(column: Column, value: int, warning_share: float, error_share: float) -> tuple[str, bool] | None:
    """The type the fix moves the column to: the same size UNSIGNED when the column is signed, the
    counter is below the error share and unsigned puts it under the warning share (double the
    headroom, no extra byte); otherwise the narrowest wider UNSIGNED type that puts it under the
    warning share. None when there is none (BIGINT UNSIGNED)."""
    signed_share = value / maximum(column.type, False)
    if not column.unsigned and signed_share < error_share and value / maximum(column.type, True) < warning_share:
        return column.type, True
    names = list(INTEGER_TYPES)
    for name in names[names.index(column.type) + 1:]:
        if value / maximum(name, True) < warning_share:
            return name, True
    if not column.unsigned:
        return column.type, True  # BIGINT: UNSIGNED is all there is
    return None


class AutoIncrementCapacity(Check):
    id = RULE
    title = "AUTO_INCREMENT counter near its type's maximum"
    severity = "warning"
    doc = RuleDoc(
        why=(
            "An AUTO_INCREMENT counter only grows: deleted rows, rolled-back inserts, INSERT IGNORE and "
            "INSERT ... ON DUPLICATE KEY UPDATE all use up values. When it reaches the column type's maximum every "
            "insert that needs a new id fails (MariaDB 10.11: ERROR 167 \"Out of range value for column\", checked "
            "in the tests; MySQL's manual: \"the next attempt to generate a sequence number fails\", ERROR 1062 "
            "for the maximum). Widening the column then is a full table copy (ALGORITHM=COPY: writes wait on MySQL "
            "and on MariaDB before 11.2) at the worst moment. A signed type gives AUTO_INCREMENT only its positive "
            "half: INT stops at 2,147,483,647, INT UNSIGNED at 4,294,967,295 in the same 4 bytes."
        ),
        evidence=(
            "The next value the table hands out: `AUTO_INCREMENT=N` in the dump's CREATE TABLE, or "
            "information_schema.TABLES.AUTO_INCREMENT read by `innolint audit` or from a stats file (the higher "
            "of the two: MySQL 8 caches information_schema for information_schema_stats_expiry, a day by default). "
            "Compared with the maximum of the column's type and sign: a warning from `warning_share` of it "
            "(default 50%), an error from `error_share` (default 85%). No finding without a value (a plain CREATE "
            "TABLE says nothing about how many ids were used) and none on a table the stats show empty. "
            "auto_increment_increment above 1 (multi-primary setups) uses values that many times faster."
        ),
        bad=(
            "CREATE TABLE orders (\n  id INT NOT NULL AUTO_INCREMENT,\n  placed DATETIME NOT NULL,\n"
            "  PRIMARY KEY (id)\n) ENGINE=InnoDB AUTO_INCREMENT=1610612736;"
        ),
        good=(
            "CREATE TABLE orders (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,\n  placed DATETIME NOT NULL,\n"
            "  PRIMARY KEY (id)\n) ENGINE=InnoDB AUTO_INCREMENT=1610612736;"
        ),
        fix=(
            "`ALTER TABLE t MODIFY COLUMN id <wider or UNSIGNED type> NOT NULL AUTO_INCREMENT` with every other "
            "attribute of the column kept. The same size UNSIGNED doubles the headroom at no extra byte; the next "
            "wider type (INT to BIGINT: 4 more bytes per row and per secondary index entry, where the primary key "
            "is repeated) ends the question. Foreign keys that reference the column must change with it (the "
            "servers refuse to change a referenced column's type: MariaDB ERROR 1833, even with "
            "foreign_key_checks=0): the fix drops them, widens their columns the same way and adds them back with "
            "their ON DELETE/ON UPDATE actions. The MODIFY copies the table: on a large one use "
            "pt-online-schema-change or gh-ost. Columns that store these ids without a foreign key must widen too."
        ),
        options={
            "severity": "severity from warning_share up to error_share (default warning)",
            "warning_share": "share of the type's maximum from which the counter is flagged (default 0.5)",
            "error_share": "share of the type's maximum from which the finding is an error (default 0.85)",
        },
        option_types={"warning_share": Number(gt=0, le=1), "error_share": Number(gt=0, le=1)},
        option_defaults={"warning_share": DEFAULT_WARNING_SHARE, "error_share": DEFAULT_ERROR_SHARE},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        warning_share = float(context.option(self.id, "warning_share", DEFAULT_WARNING_SHARE))
        error_share = float(context.option(self.id, "error_share", DEFAULT_ERROR_SHARE))
        severity: Severity = context.option(self.id, "severity", self.severity)
        with_stats = bool(context.stats)
        by_parent: dict[tuple[str, str], list[tuple[Table, ForeignKey]]] | None = None
        # the lowest counter worth a look, per definition (a tenant dump's copies share one): the
        # counters differ per table, so each is looked at, but against a number worked out once
        lowest: dict[int, float] = {}
        for table in model.tables():
            value = table.auto_increment
            if table.view_standin or table.temporary or (value is None and not with_stats):
                continue  # no value to judge (the common case of a CREATE TABLE without AUTO_INCREMENT=N)
            if value is not None and not with_stats:
                columns = table.body.columns
                floor = lowest.get(id(columns))
                if floor is None:
                    column = next((c for c in columns.values() if c.auto_increment), None)
                    integer = column is not None and column.type in INTEGER_TYPES
                    floor = lowest[id(columns)] = (warning_share * maximum(column.type, column.unsigned)  # type: ignore[union-attr]
                                                   if integer else float("inf"))
                if value < floor:
                    continue
            stats = context.table_stats(table)
            found = counter(table, stats)
            if found is None or found.share < warning_share:
                continue
            level: Severity = "error" if found.share >= error_share else severity
            if by_parent is None:
                by_parent = foreign_keys_by_parent(model)
            yield self._finding(model, by_parent, table, found, stats, level, warning_share, error_share, context.target)

    def _finding(
        self, model: SchemaModel, by_parent: dict[tuple[str, str], list[tuple[Table, ForeignKey]]], table: Table,
        found: Counter, stats: TableStats | None, severity: Severity, warning_share: float, error_share: float,
        target: Target,
    ) -> Finding:
        column = found.column
        limit = maximum(column.type, column.unsigned)
        sign = "UNSIGNED" if column.unsigned else "signed"
        message = [
            f"{table.name}.{column.name} {column.type} {sign}: the next AUTO_INCREMENT value, {found.value:,}, is "
            f"{found.share:.1%} of the type's maximum {limit:,}. When it gets there every insert that needs an id "
            "fails (MariaDB: ERROR 167 Out of range value; MySQL: ERROR 1062 Duplicate entry)."
        ]
        if not column.unsigned:
            unsigned_limit = maximum(column.type, True)
            message.append(
                f"A signed {column.type} leaves AUTO_INCREMENT only its positive half: {column.type} UNSIGNED goes to "
                f"{unsigned_limit:,} in the same {INTEGER_TYPES[column.type][0]} bytes ({found.value / unsigned_limit:.1%} "
                "used)."
            )
        widened = wider_type(column, found.value, warning_share, error_share)
        fix = None
        if widened is None:
            message.append(
                "BIGINT UNSIGNED is the widest type: values this high come from explicit ids or a large "
                "auto_increment_increment, not from inserts one by one; find out which before anything else."
            )
        else:
            name, _ = widened
            new = replace(column, type=name, params=(), unsigned=True, nullable=False)
            grown = INTEGER_TYPES[name][0] - INTEGER_TYPES[column.type][0]
            more = f"{grown} more byte{'s' if grown > 1 else ''}"
            change = f"{name} UNSIGNED" + (f" ({more} per row and per secondary index entry)"
                                           if grown and _is_key(table, column) else
                                           f" ({more} per row)" if grown else " (same size)")
            message.append(f"The fix makes it {change}: {found.value / maximum(name, True):.2%} used then.")
            if not grown and column.type != "BIGINT":
                message.append(f"BIGINT UNSIGNED ({8 - INTEGER_TYPES[column.type][0]} more bytes) would end the "
                               "question instead of doubling the headroom.")
            fix, referencing = change_columns(model, [(table, new)], target, by_parent)
            message.append(_rebuild(stats))
            if referencing:
                shown = ", ".join(referencing[:5]) + (f" and {len(referencing) - 5} more" if len(referencing) > 5 else "")
                message.append(
                    f"Foreign keys reference it ({shown}): the servers refuse to change a referenced column's type, so "
                    "the fix drops them, widens their columns the same way and adds them back, which checks every "
                    "child row."
                )
        evidence = f"{column.name} {column.type}{' UNSIGNED' if column.unsigned else ''} AUTO_INCREMENT; next value " \
                   f"{found.value:,} ({found.source}); maximum {limit:,}; {found.share:.1%} used"
        if stats is not None and stats.rows is not None:
            evidence += f"; ~{stats.rows:,} rows"
        summary = (f"{table.name}.{column.name} {column.type} {sign}: AUTO_INCREMENT at {found.share:.1%} of its "
                   f"maximum ({found.value:,} of {limit:,})")
        # the cause: the statement that gave the column its type, or the ALTER that set AUTO_INCREMENT=
        where = cause_place(table, (column,), ("auto_increment",))
        return self.finding(table, " ".join(message), severity=severity, where=where, evidence=evidence,
                            fix=fix, subject=column.name.lower(), summary=summary)


def _is_key(table: Table, column: Column) -> bool:
    clustered = table.clustered_index
    return clustered is not None and any(p.name.lower() == column.name.lower() for p in clustered.columns)


def _rebuild(stats: TableStats | None) -> str:
    if stats is None or (stats.data_length is None and stats.rows is None):
        return "The MODIFY copies the whole table (ALGORITHM=COPY: writes wait on MySQL and on MariaDB before 11.2)."
    size = []
    if stats.data_length is not None:
        size.append(_human(stats.data_length + (stats.index_length or 0)) + " with indexes")
    if stats.rows is not None:
        size.append(f"~{stats.rows:,} rows")
    return (f"The MODIFY copies the whole table, {', '.join(size)} (ALGORITHM=COPY: writes wait on MySQL and on "
            "MariaDB before 11.2); at this size use pt-online-schema-change or gh-ost.")


def _human(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n} bytes"
