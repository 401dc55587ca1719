"""One problem, one finding: a table definition's copies across tenant schemas become one finding.

A schema-per-tenant dump (or an audit of such a server) holds the same CREATE TABLE in every
tenant schema. A check that looks at one table at a time finds the same problem in each copy:
2,000 tenants give 2,000 identical no-primary-key warnings, which drown every other finding,
fill the job summary, and cost 40 Checks API requests for one problem. This step runs after the
checks (and after suppressions and severity overrides, so a copy that is suppressed is not
counted), once for every rule: the findings on tenant tables that share rule, severity, subject
and table definition (`linter.schema.tenants.group_by_definition`, O(tables)) become the first copy's
finding with `count` = the number of copies and `schemas` = their schema names (bounded:
`GROUP_NAMES_KEPT`). A finding on a tenant table without copies keeps its count of 1 and names
its own schema, so the baseline knows it as a tenant table (its fingerprint does not depend on
which tenant is first).

Why per (rule, severity, subject, definition): two copies of one definition can differ in what
only the server knows (an audit's row counts make one tenant's table an error and another's
info); those stay apart, each group with its own count, rather than one severity claiming both.
A merged finding's fix is the first copy's, with a comment line before it saying to repeat it in each
schema. Most rules decide a definition once already (`linter.rules.copies.decided_once`) and
report one finding for its copies; such findings (their `schemas` set) pass through unchanged, so
what is left here is the findings on tenant tables a rule decided alone (a table with statistics
of its own) and those of rules that look at each copy (auto-increment-capacity: counters differ).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from linter.rules.findings import GROUP_NAMES_KEPT, Finding
from linter.schema.model import SchemaModel, Table
from linter.schema.tenants import TenantLayout, group_by_definition, layout_for


def group_copies(findings: list[Finding], model: SchemaModel, context: Any,
                 layout: TenantLayout | None = None, covered: frozenset[str] = frozenset()) -> list[Finding]:
    """The findings with each tenant definition's copies merged (see the module docstring), in
    the order of their first copy; findings outside a tenant layout are returned as they are, and
    so are the findings of the `covered` rules that speak for copies already (each with a fix for
    all of them: `Check.covers_copies`). `layout`: the tenant layout when the caller knows
    it, else detected with the context's options."""
    if not findings:
        return findings
    layout = layout if layout is not None else layout_for(model, context)
    if layout is None:
        return findings
    tenant_tables: dict[int, Table] = {}
    on_tenants: list[tuple[int, Finding, Table]] = []
    kept: list[tuple[int, Finding]] = []
    for position, finding in enumerate(findings):
        table = None
        if not (finding.rule in covered and finding.schemas) and finding.table and layout.is_tenant(finding.schema):
            table = model.find_table(finding.schema, finding.table)
        if table is None:
            kept.append((position, finding))
            continue
        tenant_tables[id(table)] = table
        on_tenants.append((position, finding, table))
    if not on_tenants:
        return findings
    # one pass over the tables with findings: which definition each belongs to
    definition: dict[int, int] = {}
    for number, group in enumerate(group_by_definition(model, list(tenant_tables.values()))):
        for table in group:
            definition[id(table)] = number
    rank = {key: n for n, key in enumerate(model.schemas)}  # a schema's place in the input

    def place(schema: str | None) -> int:
        return rank.get(model.key(schema) if schema else None, len(rank))

    # a check may say two things of one table under one subject: the n-th of them on one copy
    # goes with the n-th on the others (checks are deterministic), never two of one table together
    nth: dict[tuple[str, str, str, int], int] = {}
    buckets: dict[tuple[str, str, str, int, int], list[tuple[int, Finding, Table]]] = {}
    for item in on_tenants:
        _, finding, table = item
        about = (finding.rule, finding.severity, (finding.subject or "").lower(), id(table))
        ordinal = nth[about] = nth.get(about, -1) + 1
        buckets.setdefault((*about[:3], definition[id(table)], ordinal), []).append(item)
    for members in buckets.values():
        members.sort(key=lambda item: place(item[1].schema))
        kept.append((min(p for p, _, _ in members), _merged([finding for _, finding, _ in members], place)))
    kept.sort(key=lambda item: item[0])
    return [finding for _, finding in kept]


def _merged(members: list[Finding], place: Callable[[str | None], int]) -> Finding:
    """One finding for the copies `members` stand for (each a copy's own finding, or one that
    already speaks for several: `linter.rules.copies`), the first copy's, with the count, the
    first tenants' names in input order, and before the fix the line saying to repeat it."""
    count = sum(m.count for m in members)
    names: list[str] = []
    for member in members:
        names.extend(member.schemas or (member.schema or "",))
    names = sorted(set(names), key=place)[:GROUP_NAMES_KEPT]
    first = members[0]
    fix = first.fix
    if count > 1 and fix and names:
        fix = _in_each(names[0], count) + fix
    return first.replace(count=count, schemas=tuple(names), fix=fix)


def _in_each(first: str, count: int) -> str:
    """The line put before a merged finding's fix: the fix names the first copy's schema."""
    first = first.replace("\n", " ").replace("\r", " ")
    return f"-- for each of the {count:,} tenant schemas: this is {first}'s, repeat it with each name\n"
