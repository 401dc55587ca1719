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

from typing import Any

from linter.rules.copies import copies_of
from linter.rules.findings import Finding
from linter.schema.model import SchemaModel, Table
from linter.schema.tenants import TenantLayout, group_by_definition, layout_for


def group_copies(findings: list[Finding], model: SchemaModel, context: Any,
                 layout: TenantLayout | None = None) -> list[Finding]:
    """The findings with each tenant definition's copies merged (see the module docstring), in
    the order of their first copy; findings outside a tenant layout are returned as they are.
    `layout`: the tenant layout when the caller knows it, else detected with the context's options."""
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
        if not finding.schemas and finding.table and layout.is_tenant(finding.schema):
            table = model.find_table(finding.schema, finding.table)
        if table is None:
            kept.append((position, finding))
            continue
        tenant_tables[id(table)] = table
        on_tenants.append((position, finding, table))
    if not on_tenants:
        return findings
    # one pass over the tables with findings: which definition each belongs to, in input order
    definition: dict[int, int] = {}
    order: dict[int, int] = {}
    for number, group in enumerate(group_by_definition(model, list(tenant_tables.values()))):
        for rank, table in enumerate(group):
            definition[id(table)] = number
            order[id(table)] = rank
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
        members.sort(key=lambda item: order[id(item[2])])
        merged = copies_of(members[0][1], [table for _, _, table in members])
        kept.append((min(p for p, _, _ in members), merged))
    kept.sort(key=lambda item: item[0])
    return [finding for _, finding in kept]
