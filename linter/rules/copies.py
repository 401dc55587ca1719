"""Judge a definition once: the tables a rule decides alike, and the one finding that speaks for them.

A schema-per-tenant dump holds each CREATE TABLE once per tenant: 10,000 tenants give 10,000
copies of `wp_posts`, each with the same columns, keys and options (the parse cache and the
replay share one body between them). A rule that looks at one table at a time would decide the
same thing 10,000 times and build 10,000 findings that grouping then folds into one
(`linter.rules.grouping`): time and memory per copy, for nothing. Instead a rule asks
`decided_once(model, context)` for the tables it may decide together (`Copies`), judges the first,
and reports through `Copies.of`, which makes the finding stand for all of them (count, the
tenants' names, the fix to repeat in each), exactly as grouping would have.

What makes copies: tables of tenant schemas (`linter.schema.tenants.layout_for`) with the same
definition (`linter.schema.tenants.definition_signature`: columns, keys, foreign keys, options but
the counter, a tenant's own tablespace written alike), the same name, the same schema default
character set and collation, and the same annotations. Never together: a table with evidence of
its own (statistics, an audit's measurements, a configured insert-heavy pattern naming it), and
tables outside a tenant layout (two applications in one dump each get their own finding).

Cost: one pass over the tables, computed once per model and context and shared by every rule;
a structural signature once per distinct definition.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from linter.rules.findings import GROUP_NAMES_KEPT, Finding
from linter.schema.model import SchemaModel, Table
from linter.schema.tenants import definition_signature, layout_for, own_tablespace_shape


class Copies:
    """Tables a rule decides once: one table, or the copies of one definition across tenant
    schemas (`tables`, in input order). `grouped`: they are such copies (a tenant's table alone
    too), and `of` makes the finding speak for them; else it is one table decided on its own,
    whose finding grouping may still merge with others of the same severity
    (`linter.rules.grouping`: a tenant's table with statistics of its own)."""

    __slots__ = ("tables", "grouped")

    def __init__(self, tables: list[Table], grouped: bool) -> None:
        self.tables = tables
        self.grouped = grouped

    @property
    def first(self) -> Table:
        """The table a rule judges and its finding names."""
        return self.tables[0]

    def of(self, finding: Finding) -> Finding:
        """`finding` (about `first`) standing for every copy: `count`, the first tenants' names
        and, for more than one, a line before the fix saying to run it in each schema. A table
        decided on its own keeps its finding as it is."""
        if not self.grouped:
            return finding
        return copies_of(finding, self.tables)


def grouped(finding: Finding, tables: Sequence[Table]) -> Finding:
    """`finding` standing for `tables` (its own first): count and the first schema names. For a
    rule whose fix already speaks for every tenant (tenant-tablespace's loop over the schemas)."""
    names = tuple(t.schema or "" for t in tables[:GROUP_NAMES_KEPT])
    return finding.replace(count=max(len(tables), 1), schemas=names)


def copies_of(finding: Finding, tables: Sequence[Table]) -> Finding:
    """`grouped`, and for more than one copy a line before the fix saying that it is the first
    copy's, to repeat in each schema."""
    merged = grouped(finding, tables)
    if merged.count > 1 and merged.fix and merged.schemas:
        merged = merged.replace(fix=_in_each(merged.schemas[0], merged.count) + merged.fix)
    return merged


def _in_each(first: str, count: int) -> str:
    """The line put before a merged finding's fix: the fix names the first copy's schema."""
    first = first.replace("\n", " ").replace("\r", " ")
    return f"-- for each of the {count:,} tenant schemas: this is {first}'s, repeat it with each name\n"


def decided_once(model: SchemaModel, context: Any) -> list[Copies]:
    """Every real table of the model (no view stand-in, no temporary table) in `Copies`, in input
    order of their first table. Computed once per model and context: every rule gets the same."""
    memo = model.derived.get("copies")
    if memo is not None and memo[0] is context:
        return memo[1]  # type: ignore[no-any-return]
    found = _group(model, context)
    model.derived["copies"] = (context, found)
    return found


def _group(model: SchemaModel, context: Any) -> list[Copies]:
    layout = layout_for(model, context)
    tenant_schemas = layout.keys if layout is not None else frozenset()
    own = _own_evidence(context)
    groups: list[Copies] = []
    # (definition, name, default charset and collation, annotations, tablespace shape, schema where a
    # foreign key names one) -> the copies: cheap to compute per table, structural signatures come later
    buckets: dict[Hashable, Copies] = {}
    position: dict[int, int] = {}  # id(table) -> its place in the input, to sort merged copies
    for key, schema in model.schemas.items():
        tenant = key in tenant_schemas
        for table in schema.tables.values():
            if table.view_standin or table.temporary:
                continue
            position[id(table)] = len(position)
            if not tenant or (own is not None and own(table)):
                groups.append(Copies([table], False))
                continue
            body = table.body
            options = body.options
            bucket_key = (
                body.definition_id, table.name, schema.charset, schema.collation, table.annotations,
                own_tablespace_shape(options.tablespace, table.schema) if options.tablespace else None,
                key if any(f.ref_schema for f in body.foreign_keys) else None,
            )
            bucket = buckets.get(bucket_key)
            if bucket is None:
                bucket = buckets[bucket_key] = Copies([table], True)
                groups.append(bucket)
            else:
                bucket.tables.append(table)
    if len(buckets) < 2:
        return groups
    # buckets of one structure (the same CREATE TABLE parsed from texts that differ in spacing, an
    # ALTER that made a copy what the others are) are one definition: merged, as grouping merges
    # their findings
    bucketed = {id(c) for c in buckets.values()}
    merged: dict[Hashable, Copies] = {}
    kept: list[Copies] = []
    changed: list[Copies] = []
    for copies in groups:
        if id(copies) not in bucketed:
            kept.append(copies)
            continue
        first = copies.first
        schema = model.find_schema(first.schema)
        signature = (definition_signature(model, first), schema.charset if schema else None,
                     schema.collation if schema else None, first.annotations)
        into = merged.get(signature)
        if into is None:
            merged[signature] = copies
            kept.append(copies)
        else:
            into.tables.extend(copies.tables)
            changed.append(into)
    for copies in changed:
        copies.tables.sort(key=lambda t: position[id(t)])
    return kept


def tables_of(copies: list[Copies]) -> Iterator[Table]:
    """The first table of each: what a rule judges."""
    for group in copies:
        yield group.first


def _own_evidence(context: Any) -> Any:
    """A test of whether a table has evidence of its own (stats, measurements, key samples, a
    configured insert-heavy pattern): such a table is decided alone. None when the context has
    none at all (the usual case: no per-table work)."""
    stats, measured, samples, heavy = context.stats, context.measurements, context.key_samples, context.insert_heavy
    if not (stats or measured or samples or heavy):
        return None
    sampled = {key.rsplit(".", 1)[0] for key in (*measured, *samples)}

    def own(table: Table) -> bool:
        name = f"{table.schema or ''}.{table.name}".lower()
        return (context.table_stats(table) is not None or name in sampled
                or (bool(heavy) and context.is_configured_insert_heavy(table) is not None))

    return own
