"""What a check is and what it may see: the model and this context, nothing else.

Checks live in `checks/`, one module each, and are registered in `checks/__init__.py`. The engine
runs them through this interface and knows none of them by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from linter.rules.failures import CheckFailures
from linter.rules.findings import Finding, Severity
from linter.input.globs import GlobSet
from linter.parse.elements import Column, ForeignKey, Index, Location
from linter.schema.model import SchemaModel, Table
from linter.input.migrations.orm_evidence import AppEvidence
from linter.record import FrozenRecord, Record
from linter.schema.target import DEFAULT_TARGET, Target

# Records rather than dataclasses, for the import time (linter.record); TableStats and CheckContext,
# which `dataclasses.fields` and `replace` are used on, stay dataclasses whose methods are the
# record's and written here (`init=False, repr=False, eq=False`: the decorator generates none).
_set = object.__setattr__


class RuleDoc(FrozenRecord):
    """A check's own documentation: `innolint explain RULE` and docs/rules/RULE.md come from it."""

    __match_args__ = ("why", "evidence", "bad", "good", "fix", "options", "option_types", "option_defaults")
    why: str
    evidence: str
    bad: str
    good: str
    fix: str
    options: dict[str, str]  # option name -> what it does (default)
    #: option name -> the type its value must have (a pydantic annotation), checked when a
    #: configuration file is read, so that a bad value is a configuration error naming the key,
    #: not a wrong result or a crash in the middle of a run. `severity` takes the type every rule
    #: gives it (linter.config.model.RuleSettings) and needs none here.
    option_types: dict[str, Any]
    #: option name -> the value the check uses when the configuration sets none (`innolint
    #: config` prints it, `innolint rules --format json` lists it); `severity`'s is the check's own
    option_defaults: dict[str, Any]

    def __init__(
        self, why: str, evidence: str, bad: str, good: str, fix: str, options: dict[str, str] | None = None,
        option_types: dict[str, Any] | None = None, option_defaults: dict[str, Any] | None = None,
    ) -> None:
        _set(self, "why", why)
        _set(self, "evidence", evidence)
        _set(self, "bad", bad)
        _set(self, "good", good)
        _set(self, "fix", fix)
        _set(self, "options", {} if options is None else options)
        _set(self, "option_types", {} if option_types is None else option_types)
        _set(self, "option_defaults", {} if option_defaults is None else option_defaults)
        mismatch = (set(self.options) - {"severity"}) ^ set(self.option_types)
        if mismatch:
            raise ValueError(f"options without a type, or types without an option: {sorted(mismatch)}")


@dataclass(init=False, repr=False, eq=False, slots=True)
class TableStats(FrozenRecord):  # frozen: FrozenRecord refuses assignment
    """Workload and size evidence for one table (from a stats file or a live server)."""

    rows: int | None = None
    data_length: int | None = None
    index_length: int | None = None
    avg_row_length: int | None = None
    count_insert: int | None = None
    count_fetch: int | None = None
    count_update: int | None = None
    count_delete: int | None = None
    #: the table's next AUTO_INCREMENT value (information_schema.TABLES.AUTO_INCREMENT)
    auto_increment: int | None = None

    def __init__(
        self, rows: int | None = None, data_length: int | None = None, index_length: int | None = None,
        avg_row_length: int | None = None, count_insert: int | None = None, count_fetch: int | None = None,
        count_update: int | None = None, count_delete: int | None = None, auto_increment: int | None = None,
    ) -> None:
        _set(self, "rows", rows)
        _set(self, "data_length", data_length)
        _set(self, "index_length", index_length)
        _set(self, "avg_row_length", avg_row_length)
        _set(self, "count_insert", count_insert)
        _set(self, "count_fetch", count_fetch)
        _set(self, "count_update", count_update)
        _set(self, "count_delete", count_delete)
        _set(self, "auto_increment", auto_increment)

    def short_of_insert_heavy(self, min_inserts: int, ratio: float) -> str:
        """Which of the insert-heavy thresholds these counters fall short of, with the option
        that sets each, so that "not insert-heavy" says what would have made it so."""
        inserted, fetched = self.count_insert or 0, self.count_fetch or 0
        missed = []
        if inserted < min_inserts:
            missed.append(f"fewer than stats_min_inserts {min_inserts:,} inserts")
        if inserted < ratio * fetched:
            missed.append(f"fewer than stats_insert_ratio {ratio:g} inserts per fetch")
        return " and ".join(missed) or "at both thresholds"


class ColumnMeasurement(FrozenRecord):
    """What `innolint audit --sample N` measured on one column's values, so compression advice can
    quote measured ratios instead of published ones.

    The audit reads at most N values (LIMIT N), trains a zlib preset dictionary on half of them
    and compresses the other half one value at a time, as column compression does. Ratios are
    compressed bytes over original bytes (lower is better)."""

    __slots__ = __match_args__ = (
        "sampled", "measured", "avg_bytes", "ratio_plain", "ratio_dict", "share_too_small", "dictionary", "table_rows",
        "stored_plain", "stored_dict", "ratio_page",
    )
    #: values read from the server, and how many of them were measured (the held-out half)
    sampled: int
    measured: int
    #: average length of a value in bytes (of all values read)
    avg_bytes: float
    #: zlib without a dictionary, and with the trained one
    ratio_plain: float
    ratio_dict: float
    #: share of values too short to compress (the server stores them as they are)
    share_too_small: float
    #: the trained dictionary (empty when nothing repeats across values)
    dictionary: bytes
    #: TABLE_ROWS of the table when measured: with avg_bytes, the column's size on the server
    table_rows: int | None
    #: the part of the column's bytes column compression would keep, values under the server's
    #: threshold counted uncompressed: without and with the dictionary
    stored_plain: float
    stored_dict: float
    #: page compression (MariaDB PAGE_COMPRESSED, MySQL COMPRESSION=): the values packed into
    #: 16 KiB pages, each compressed and rounded up to the 4 KiB blocks a punched hole frees
    ratio_page: float

    def __init__(
        self, sampled: int, measured: int, avg_bytes: float, ratio_plain: float, ratio_dict: float,
        share_too_small: float, dictionary: bytes = b"", table_rows: int | None = None, stored_plain: float = 1.0,
        stored_dict: float = 1.0, ratio_page: float = 1.0,
    ) -> None:
        _set(self, "sampled", sampled)
        _set(self, "measured", measured)
        _set(self, "avg_bytes", avg_bytes)
        _set(self, "ratio_plain", ratio_plain)
        _set(self, "ratio_dict", ratio_dict)
        _set(self, "share_too_small", share_too_small)
        _set(self, "dictionary", dictionary)
        _set(self, "table_rows", table_rows)
        _set(self, "stored_plain", stored_plain)
        _set(self, "stored_dict", stored_dict)
        _set(self, "ratio_page", ratio_page)

    @property
    def column_bytes(self) -> int | None:
        """The column's estimated bytes at the table's size: rows times the average value."""
        return None if self.table_rows is None else int(self.table_rows * self.avg_bytes)

    def saved(self, with_dictionary: bool) -> int | None:
        """Bytes column compression would save at the table's size."""
        total = self.column_bytes
        if total is None:
            return None
        return int(total * (1.0 - (self.stored_dict if with_dictionary else self.stored_plain)))


class KeySample(FrozenRecord):
    """What `innolint audit --sample N` read of a UUID-like leading primary-key column: the
    values' UUID versions, so uuid-primary-key can tell random v4 keys from time-ordered v1/v6/v7
    ones, or from values that are not UUIDs at all (which the DDL cannot).

    `counts`: label -> values, labels "v1" ... "v8" (RFC 9562 layout), "v1-swapped" (version 1
    with the timestamp's high part first, as UUID_TO_BIN(UUID(), 1) stores it) and "not-uuid";
    `form`: how the column stores them ("text", "binary", "native" for MariaDB's UUID type);
    `how`: how they were read (for the message); `examples`: a few values that are not UUIDs."""

    __slots__ = __match_args__ = ("sampled", "counts", "form", "how", "examples")
    sampled: int
    counts: dict[str, int]
    form: str
    how: str
    examples: tuple[str, ...]

    def __init__(self, sampled: int, counts: dict[str, int], form: str, how: str,
                 examples: tuple[str, ...] = ()) -> None:
        _set(self, "sampled", sampled)
        _set(self, "counts", counts)
        _set(self, "form", form)
        _set(self, "how", how)
        _set(self, "examples", examples)


@dataclass(init=False, repr=False, eq=False)
class CheckContext(Record):
    """What a check knows besides the model: the target server, its options, workload evidence."""

    target: Target = field(default_factory=lambda: Target.parse(DEFAULT_TARGET))
    #: per-rule options (thresholds), already validated: rule id -> option -> value
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: glob patterns (`schema.table` or `table`) of tables known to be insert-heavy
    insert_heavy: tuple[str, ...] = ()
    #: regular expression naming tenant schemas
    tenant_schema_pattern: str | None = None
    #: stats per "schema.table" and per bare "table", lower-case
    stats: dict[str, TableStats] = field(default_factory=dict)
    #: measured column compression (`innolint audit --sample N`) per "schema.table.column", lower-case
    measurements: dict[str, ColumnMeasurement] = field(default_factory=dict)
    #: where `stats` came from: "file" (a stats file, `--stats`) or "server" (`innolint audit`
    #: read it live), so a message names the evidence the user actually gave
    stats_source: str = "file"
    #: what the application's model files beside the input say about its tables' keys (Prisma's
    #: `@id @default(uuid())`, Laravel's HasUuids; Prisma's many-to-many relation tables): set per
    #: unit by the engine when such files are found (`linter.input.migrations.orm_evidence`), else None. Checks ask
    #: `app_evidence.key(table)` / `.link(table)`, typed records that name the file and line.
    app_evidence: AppEvidence | None = None
    #: UUID versions read from leading key columns (`innolint audit --sample N`) per
    #: "schema.table.column", lower-case
    key_samples: dict[str, KeySample] = field(default_factory=dict)
    #: (path, first line) of the statements an `innolint: ignore` comment is bound to (set by the
    #: engine per unit): a tenant table defined by one is judged on its own, so that the copy a
    #: comment suppresses is not counted with the others (`linter.rules.copies`)
    suppressed: frozenset[tuple[str, int]] = frozenset()
    #: where a rule's failure on one table goes (`linter.rules.failures`), set by the engine for a
    #: run of the checks; None: failures propagate (a test calling a check directly)
    failures: CheckFailures | None = None
    #: changed-files mode (`--since`, pre-commit): whether the statement on lines line..end_line of a
    #: file is part of the change (set per unit by the engine, `ChangeSet.statement_changed`); None:
    #: no change set, each file of the input counts as one change (`existed_before`)
    changed: Callable[[str, int, int], bool] | None = None
    #: changed-files mode: the migration files of this unit's history that exist at the git ref the
    #: change is against and that it edits, deletes or renames (set by the engine)
    edited_migrations: tuple[MigrationEdit, ...] = ()

    def __init__(
        self, target: Target | None = None, options: dict[str, dict[str, Any]] | None = None,
        insert_heavy: tuple[str, ...] = (), tenant_schema_pattern: str | None = None,
        stats: dict[str, TableStats] | None = None, measurements: dict[str, ColumnMeasurement] | None = None,
        stats_source: str = "file", app_evidence: AppEvidence | None = None,
        key_samples: dict[str, KeySample] | None = None, suppressed: frozenset[tuple[str, int]] = frozenset(),
        failures: CheckFailures | None = None,
        changed: Callable[[str, int, int], bool] | None = None, edited_migrations: tuple[MigrationEdit, ...] = (),
    ) -> None:
        self.target = Target.parse(DEFAULT_TARGET) if target is None else target
        self.options = {} if options is None else options
        self.insert_heavy = insert_heavy
        self.tenant_schema_pattern = tenant_schema_pattern
        self.stats = {} if stats is None else stats
        self.measurements = {} if measurements is None else measurements
        self.stats_source = stats_source
        self.app_evidence = app_evidence
        self.key_samples = {} if key_samples is None else key_samples
        self.suppressed = suppressed
        self.failures = failures
        #: `insert_heavy` compiled (`is_configured_insert_heavy`), with the tuple it was compiled from
        self._heavy: tuple[tuple[str, ...], GlobSet] | None = None
        self.changed = changed
        self.edited_migrations = edited_migrations

    def in_change(self, where: Location) -> bool:
        """Whether the statement at `where` is part of the change being linted (always, without a
        change set)."""
        return self.changed is None or self.changed(where.path, where.line, where.end_line)

    def existed_before(self, defined: Location, statement: Location) -> bool:
        """Whether the table created at `defined` was there before the change the statement at
        `statement` belongs to, and so may hold rows (a table the same change creates is empty).
        With a change set (`--since`, pre-commit): its CREATE is not part of the change. Without
        one, each file of the input is a change: a migration created it in an earlier file (a
        table created earlier in the same file, a dump's or a migration's, is new)."""
        if self.changed is not None:
            return not self.changed(defined.path, defined.line, defined.end_line)
        return defined.path != statement.path

    @property
    def stats_label(self) -> str:
        """The workload evidence as a message names it."""
        return "the server's counters" if self.stats_source == "server" else "the stats file"

    def option(self, rule: str, name: str, default: Any) -> Any:
        return self.options.get(rule, {}).get(name, default)

    def table_stats(self, table: Table) -> TableStats | None:
        return self.stats_named(table.schema, table.name)

    def stats_named(self, schema: str | None, name: str) -> TableStats | None:
        """The stats of the table of this name (a statement's, which may be gone since)."""
        if schema:
            found = self.stats.get(f"{schema}.{name}".lower())
            if found is not None:
                return found
        return self.stats.get(name.lower())

    def measurement(self, table: Table, column: str) -> ColumnMeasurement | None:
        """What the audit measured on this column, if it sampled it."""
        return self.measurements.get(f"{table.schema or ''}.{table.name}.{column}".lower())

    def key_sample(self, table: Table, column: str) -> KeySample | None:
        """The UUID versions the audit read from this key column, if it sampled it."""
        return self.key_samples.get(f"{table.schema or ''}.{table.name}.{column}".lower())

    def is_configured_insert_heavy(self, table: Table) -> str | None:
        """The configured pattern that marks this table insert-heavy, if any."""
        if not self.insert_heavy:
            return None
        names = [table.name.lower()]
        if table.schema:
            names.append(f"{table.schema}.{table.name}".lower())
        compiled = self._heavy
        if compiled is None or compiled[0] is not self.insert_heavy:  # compiled once for every table asked about
            compiled = self._heavy = (self.insert_heavy, GlobSet([p.lower() for p in self.insert_heavy], path=False))
        found = compiled[1].first_index_of(names)
        return None if found is None else self.insert_heavy[found]


class MigrationEdit(FrozenRecord):
    """A migration file that exists at the git ref a change is against (so the databases that ran
    that history have run it) and that the change edits (`status` "modified"), deletes ("deleted")
    or renames ("renamed", to `new_path`). `path`: as the run names it (the old path of a deletion
    or rename); `line`: the first line the change touches (1 when unknown); `on_edit`: what the
    history's tool does when a migration it ran has changed (`Format.on_edit`; None when it never
    looks again)."""

    __slots__ = __match_args__ = ("path", "status", "ref", "line", "new_path", "on_edit")
    path: str
    status: str
    ref: str
    line: int
    new_path: str | None
    on_edit: str | None

    def __init__(self, path: str, status: str, ref: str, line: int = 1, new_path: str | None = None,
                 on_edit: str | None = None) -> None:
        _set(self, "path", path)
        _set(self, "status", status)
        _set(self, "ref", ref)
        _set(self, "line", line)
        _set(self, "new_path", new_path)
        _set(self, "on_edit", on_edit)


class Check:
    """A check: a stable id, a default severity, its documentation, and a run over the model."""

    id: ClassVar[str]
    title: ClassVar[str]
    #: the severity a finding gets without further evidence: what `innolint rules` prints and
    #: SARIF's defaultConfiguration says
    severity: ClassVar[Severity]
    doc: ClassVar[RuleDoc]
    #: when findings can be more severe than `severity`, what makes them so (one line; shown beside it)
    severity_note: ClassVar[str] = ""
    #: its findings on a tenant definition speak for every copy, with a fix written for all of them
    #: (a loop over the tenant schemas): grouping leaves them as they are (`linter.rules.grouping`)
    covers_copies: ClassVar[bool] = False
    #: the kinds of refusal it reports itself (`linter.schema.refused.Refusal.kind`), from
    #: `SchemaModel.refusals`: when it runs, refused-ddl leaves them to it
    refusal_kinds: ClassVar[frozenset[str]] = frozenset()
    #: it reads `SchemaModel.alterations` (what a statement does to a table's rows), which the
    #: replay then keeps for the statements `CheckContext.in_change` and `existed_before` allow
    judges_alterations: ClassVar[bool] = False

    def run(self, model: SchemaModel, context: CheckContext) -> Iterable[Finding]:
        raise NotImplementedError

    # helpers shared by every check: the one way to place a finding on a table
    def finding(
        self,
        table: Table,
        message: str,
        *,
        severity: Severity | None = None,
        where: Location | None = None,
        evidence: str | None = None,
        fix: str | None = None,
        subject: str | None = None,
        summary: str | None = None,
    ) -> Finding:
        """`message` says everything (JSON, SARIF, `--verbose`); `summary` is its point in one
        sentence of at most ~100 characters besides the names, for the one line a terminal shows."""
        place = where or table.where
        return Finding(
            rule=self.id,
            severity=severity or self.severity,
            path=place.path,
            line=place.line,
            column=place.column,
            end_line=place.end_line,
            schema=table.schema,
            table=table.name,
            message=message,
            summary=summary,
            evidence=evidence,
            fix=fix,
            subject=subject,
        )


def innodb_tables(model: SchemaModel) -> Iterator[Table]:
    """Every InnoDB table that is a real table (not a mysqldump view stand-in or a temporary table)."""
    for table in model.tables():
        if table.is_innodb and not table.view_standin and not table.temporary:
            yield table


def table_patterns(patterns: Iterable[str]) -> Callable[[str | None, str], bool]:
    """Whether a rule option's glob patterns (`table` or `schema.table`, case-insensitive) name
    the table `schema`.`name`: compiled once (`GlobSet`), asked in time linear in the name."""
    listed = [p.lower() for p in patterns]
    if not listed:
        return lambda schema, name: False
    compiled = GlobSet(listed, path=False)

    def named(schema: str | None, name: str) -> bool:
        return compiled.first_index_of([name.lower(), *([f"{schema}.{name}".lower()] if schema else [])]) is not None

    return named


def table_key(model: SchemaModel, schema: str | None, name: str) -> tuple[str, str]:
    """A table's key in `foreign_keys_by_parent`: (schema, name) as the model compares them
    (`SchemaModel.key`: the server's lower_case_table_names), '' for no schema."""
    return (model.key(schema) if schema else "", model.key(name))


def foreign_keys_by_parent(model: SchemaModel) -> dict[tuple[str, str], list[tuple[Table, ForeignKey]]]:
    """Every foreign key of the model with its table, by the table it references (`table_key`; a
    reference without a schema is to the child's own schema)."""
    found: dict[tuple[str, str], list[tuple[Table, ForeignKey]]] = {}
    for table in model.tables():
        for fk in table.foreign_keys:
            schema = fk.ref_schema if fk.ref_schema is not None else table.schema
            found.setdefault(table_key(model, schema, fk.ref_table), []).append((table, fk))
    return found


def foreign_key_sql(child: Table, parent: Table, fk: ForeignKey) -> str:
    """`CONSTRAINT name FOREIGN KEY (...) REFERENCES parent (...)` with the key's ON DELETE / ON
    UPDATE actions, for a fix that drops a foreign key and adds it back."""
    columns = ", ".join(quote(c) for c in fk.columns)
    references = ", ".join(quote(c) for c in fk.ref_columns)
    parent_name = qualified(parent) if parent.schema and parent.schema != child.schema else quote(parent.name)
    text = f"CONSTRAINT {quote(fk.name or '')} FOREIGN KEY ({columns}) REFERENCES {parent_name} ({references})"
    if fk.on_delete:
        text += f" ON DELETE {fk.on_delete}"
    if fk.on_update:
        text += f" ON UPDATE {fk.on_update}"
    return text


def shell_word(text: str) -> str:
    """One word of a shell command a fix prints (pt-online-schema-change's --alter, a file name): in
    single quotes when it holds anything but letters, digits and `._/-` (SQL holds backticks, `$`
    and double quotes, a name anything)."""
    if text and all(c.isalnum() or c in "._/-" for c in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def quote(name: str) -> str:
    """A MySQL identifier in backticks, as fixes print it."""
    return "`" + name.replace("`", "``") + "`"


def qualified(table: Table) -> str:
    """The table's name for a fix: `schema`.`table` when the schema is known."""
    return f"{quote(table.schema)}.{quote(table.name)}" if table.schema else quote(table.name)


_DIGITS = re.compile(r"(\d+)")


def _input_order(place: Location) -> tuple[tuple[object, ...], int]:
    """A place's position in the input: by file in natural order (V9__a.sql before V10__b.sql,
    as migration tools apply them), then by line."""
    return tuple(int(p) if p.isdigit() else p for p in _DIGITS.split(place.path)), place.line


def latest_place(parts: Iterable[tuple[Table, Column | Index | ForeignKey]]) -> Location:
    """Where a finding caused by several parts of the schema belongs: in the statement that last
    added or changed one of them (so `--changed-only` reports it with the migration that made it),
    at the first of the parts (in the order given) that statement defines, on its own line. When
    none was changed by an ALTER, the first part in the table's CREATE TABLE (the table the
    finding is about: a dump or an audit lists tables in any order, and an audit has a path per
    table)."""
    listed = list(parts)
    if any(item.where is not None for _, item in listed):
        return _latest([(table.statement_place(item), table.place(item)) for table, item in listed])
    return listed[0][0].place(listed[0][1])


def cause_place(
    table: Table, items: Iterable[Column | Index | ForeignKey] = (), options: Iterable[str] = (), *,
    key_dropped: bool = False,
) -> Location:
    """Where a finding about `table` belongs when these parts of it cause it: the latest of the
    statements that gave the items their present form (`Table.statement_place`), that set the
    named table options (`Table.option_place`), and with `key_dropped` that dropped the PRIMARY
    KEY, so that the ALTER that made the table what it is reports it under `--changed-only`; the
    table's CREATE TABLE when none came later. Within that statement the finding points at the
    first of the items (in the order given) it defines, on the item's own line; at the statement
    for an option or a dropped key."""
    places = [(table.statement_place(item), table.place(item)) for item in items]
    places += [(where, where) for where in (table.option_place(option) for option in options)]
    if key_dropped and table.key_dropped is not None:
        places.append((table.key_dropped, table.key_dropped))
    return _latest(places) if places else table.where


def _latest(places: list[tuple[Location, Location]]) -> Location:
    """Of (statement, spot in it) pairs, the spot of the first pair whose statement is the latest in
    the input (`_input_order`)."""
    latest = max(_input_order(statement) for statement, _ in places)
    return next(spot for statement, spot in places if _input_order(statement) == latest)
