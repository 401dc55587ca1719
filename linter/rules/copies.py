"""Judge a definition once: a tenant dump's copies of one table decided together, one finding for all.

A schema-per-tenant dump holds each CREATE TABLE once per tenant: 10,000 tenants give 10,000
copies of `wp_posts`, each with the same columns, keys and options (the parse cache and the
replay share one body between them). A rule that looked at one table at a time decided the same
thing 10,000 times and built 10,000 findings that grouping then folded into one: time and memory
per copy, for nothing. Instead a rule hands its judgement of one table to `judged_once`, which
calls it once per kind of copy and makes each finding stand for the copies it holds for (`count`,
the tenants' names). Grouping (`linter.rules.grouping`, after suppressions) then folds what is
left (findings on copies judged alone) into them and writes the line before a fix that says to
repeat it in each schema: the report is what judging every copy and grouping would give.

Which tables are judged together (`Definition`, and its parts):
- a definition: tables of tenant schemas (`linter.schema.tenants.layout_for`) with the same name
  and structure (`linter.schema.tenants.definition_signature`: columns, keys, foreign keys,
  options but the counter, a tenant's own tablespace written alike), as grouping tells copies.
  A table outside a tenant layout is a definition of its own (two applications in one dump each
  get their own finding).
- a part of a definition: its copies alike in everything else a rule reads: the schema's default
  character set and collation, the table's annotations, and the schema's other tables (each name
  with the same definition: a rule's answer may depend on the foreign keys other tables point at
  it with, or how many InnoDB tables its schema has, and an upgraded tenant has one more). Each
  part is judged once, on its first table; the findings of the parts that agree (rule, severity,
  subject) become one, over all their copies, as grouping folds per-copy findings.
- a copy with evidence of its own (statistics, an audit's measurements, a configured insert-heavy
  pattern naming it) or with an `innolint: ignore` comment on the statement that defined or last
  changed it is a part alone, and its findings stay its own: the suppression hides that copy's
  only, and grouping folds the others' into the definition's.

Cost: one pass over the tables, once per model and context, shared by every rule; a structural
signature once per distinct definition; each rule's judgement once per part.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any

from linter.rules.failures import CheckFailures
from linter.rules.findings import GROUP_NAMES_KEPT, Finding
from linter.schema.model import SchemaModel, Table
from linter.schema.tenants import definition_signature, layout_for, own_tablespace_shape


class Part:
    """Copies judged once (`tables`, in input order). `alone`: one copy whose findings stay its
    own (evidence or a suppression of its own: see the module docstring)."""

    __slots__ = ("tables", "alone")

    def __init__(self, tables: list[Table], alone: bool = False) -> None:
        self.tables = tables
        self.alone = alone


class Definition:
    """Tables of one definition (`parts`, in the order of their first table). `grouped`: tenant
    copies, whose findings stand for the copies of their part; else one table outside a tenant
    layout, whose findings are left as they are."""

    __slots__ = ("parts", "grouped")

    def __init__(self, parts: list[Part], grouped: bool) -> None:
        self.parts = parts
        self.grouped = grouped

    @property
    def first(self) -> Table:
        return self.parts[0].tables[0]


Judge = Callable[[Table], Iterable[Finding]]


def judged_once(model: SchemaModel, context: Any, judge: Judge) -> Iterator[Finding]:
    """What `judge` says of every real table of the model (no view stand-in, no temporary table),
    asked once per part of each definition (see the module docstring), each finding standing for
    the copies it holds for."""
    definitions, rank = decided_once(model, context)
    failures = context.failures
    judged = _caught(judge, failures) if failures is not None else lambda table, copies=1: judge(table)
    for definition in definitions:
        if not definition.grouped:
            yield from judged(definition.first)
            continue
        merged: dict[tuple[str, str, str, int], tuple[Finding, list[Table]]] = {}
        for part in definition.parts:
            if part.alone:
                yield from judged(part.tables[0])
                continue
            nth: dict[tuple[str, str, str], int] = {}
            for finding in judged(part.tables[0], len(part.tables)):
                about = (finding.rule, finding.severity, (finding.subject or "").lower())
                # a rule may say two things of one table under one subject: the n-th on one part
                # goes with the n-th on the others (rules are deterministic)
                ordinal = nth[about] = nth.get(about, -1) + 1
                found = merged.get((*about, ordinal))
                if found is None:
                    merged[(*about, ordinal)] = (finding, list(part.tables))
                else:
                    found[1].extend(part.tables)
        for finding, tables in merged.values():
            if len(definition.parts) > 1:
                tables.sort(key=lambda t: rank[t.schema])
            yield grouped(finding, tables)


def _caught(judge: Judge, failures: CheckFailures) -> Callable[[Table, int], Iterable[Finding]]:
    """`judge` whose failure on a table is a diagnostic (`linter.rules.failures`) instead of the
    end of the run: the findings it gave for the table before it failed are kept, and the rule
    goes on with the next table."""

    def caught(table: Table, copies: int = 1) -> list[Finding]:
        found: list[Finding] = []
        try:
            found.extend(judge(table))
        except Exception as error:  # noqa: BLE001 - any failure of a rule on one table: reported, the run goes on
            failures.failed(error, table, copies)
        return found

    return caught


def grouped(finding: Finding, tables: Sequence[Table]) -> Finding:
    """`finding` standing for `tables` (its own first): count and the first schema names."""
    names = tuple(t.schema or "" for t in tables[:GROUP_NAMES_KEPT])
    return finding.replace(count=max(len(tables), 1), schemas=names)


def decided_once(model: SchemaModel, context: Any) -> tuple[list[Definition], dict[str | None, int]]:
    """Every real table of the model in `Definition`s, in input order of their first table, and
    each schema's place in the input (by its name: a definition's copies are each in a schema of
    their own, and sort by it). Computed once per model and context: every rule gets the same."""
    memo = model.derived.get("copies")
    if memo is not None and memo[0] is context:  # type: ignore[index]
        return memo[1]  # type: ignore[index, no-any-return]
    found = _group(model, context)
    model.derived["copies"] = (context, found)
    return found


def _group(model: SchemaModel, context: Any) -> tuple[list[Definition], dict[str | None, int]]:
    """The definitions (see `decided_once`), and each schema's place in the input by its name
    (the copies of a definition are each in a schema of their own: they sort by it)."""
    layout = layout_for(model, context)
    tenant_schemas = layout.keys if layout is not None else frozenset()
    definitions: list[Definition | None] = []
    rank: dict[str | None, int] = {}
    # (definition, name, tablespace shape, the schema where a foreign key names one) -> the copies,
    # in input order: cheap per table; structural signatures come later, once per bucket
    buckets: dict[Hashable, list[Table]] = {}
    first_of: list[tuple[int, list[Table]]] = []  # (where in `definitions` a bucket goes, the bucket)
    qualified: dict[int, bool] = {}  # definition -> whether a foreign key names a schema
    for key, schema in model.schemas.items():
        rank[schema.name] = len(rank)
        tenant = key in tenant_schemas
        for table in schema.tables.values():
            if table.view_standin or table.temporary:
                continue
            if not tenant:
                definitions.append(Definition([Part([table])], False))
                continue
            body = table.body
            number = body.definition_id
            names_schema = qualified.get(number)
            if names_schema is None:
                names_schema = qualified[number] = any(f.ref_schema for f in body.foreign_keys)
            tablespace = body.options.tablespace
            bucket_key = (number, table.name, own_tablespace_shape(tablespace, table.schema) if tablespace else None,
                          key if names_schema else None)
            bucket = buckets.get(bucket_key)
            if bucket is None:
                bucket = buckets[bucket_key] = [table]
                first_of.append((len(definitions), bucket))
                definitions.append(None)  # filled below
            else:
                bucket.append(table)
    if not buckets:
        return definitions, rank  # type: ignore[return-value]
    # buckets of one structure (the same CREATE TABLE parsed from texts that differ in spacing, an
    # ALTER that made a copy what the others are) are one definition, as grouping sees it
    merged: dict[Hashable, tuple[Definition, list[list[Table]]]] = {}
    for at, bucket in first_of:
        signature = definition_signature(model, bucket[0])
        found = merged.get(signature)
        if found is None:
            definition = definitions[at] = Definition([], True)  # its parts: made below
            merged[signature] = found = (definition, [])
        found[1].append(bucket)
    contents = model.contents()
    alike_in: dict[str | None, tuple[object, ...]] = {}  # what the tables of a schema share
    for key in tenant_schemas:
        schema = model.schemas.get(key)
        if schema is not None:
            alike_in[schema.name] = (schema.charset, schema.collation, contents[key])
    own = _own_evidence(context)
    for definition, buckets_of in merged.values():
        tables = buckets_of[0]
        if len(buckets_of) > 1:
            tables = [t for bucket in buckets_of for t in bucket]
            tables.sort(key=lambda t: rank[t.schema])
        parts: dict[Hashable, Part] = {}
        for table in tables:
            if own is not None and own(table):
                parts[id(table)] = Part([table], alone=True)
                continue
            alike = (alike_in[table.schema], table.annotations)
            part = parts.get(alike)
            if part is None:
                parts[alike] = Part([table])
            else:
                part.tables.append(table)
        definition.parts = list(parts.values())
    return [d for d in definitions if d is not None], rank


def _own_evidence(context: Any) -> Callable[[Table], bool] | None:
    """A test of whether a copy has evidence of its own (stats, measurements, key samples, a
    configured insert-heavy pattern, an `innolint: ignore` on the statement that defined or last
    changed it): such a copy is judged alone. None when the context has none at all (the usual
    case: no per-table work)."""
    stats, measured, samples, heavy = context.stats, context.measurements, context.key_samples, context.insert_heavy
    suppressed = context.suppressed
    if not (stats or measured or samples or heavy or suppressed):
        return None
    sampled = {key.rsplit(".", 1)[0] for key in (*measured, *samples)}

    def own(table: Table) -> bool:
        name = f"{table.schema or ''}.{table.name}".lower()
        return (context.table_stats(table) is not None or name in sampled
                or (table.defined.path, table.defined.line) in suppressed
                or (table.changed.path, table.changed.line) in suppressed
                or (bool(heavy) and context.is_configured_insert_heavy(table) is not None))

    return own
