"""Schema-per-tenant layouts: which schemas are tenants, and which tenant tables share one definition.

A schema-per-tenant server keeps one schema per customer with the same tables in each. Several
checks (tenant-tablespace, cross-tenant-tablespace, compression-candidate) and the benchmark need
to recognise that layout and to talk about "this table, in 10,000 tenant schemas" once instead of
10,000 times, so the detection and the grouping live here, once.

Everything here is O(tables): a tenant dump has 110K tables, and each identical CREATE TABLE was
parsed once, so its copies share one definition (`TableBody.definition_id`); grouping by it
handles almost all of them and a structural signature is computed once per distinct definition,
never per table.
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable, Iterable
from dataclasses import fields
from typing import Any

from linter.schema.model import SchemaModel, Table
from linter.parse.body import TableBody
from linter.parse.elements import TableOptions
from linter.record import FrozenRecord
from linter.parse.body import table_name_key
from linter.config.user_regex import compile_user_regex

#: tablespaces InnoDB always has: never "defined" by a CREATE TABLESPACE, never a tenant's own
BUILTIN_TABLESPACES = frozenset({"innodb_system", "innodb_file_per_table", "innodb_temporary"})
#: the rule whose options tune the detection (every check that needs the layout reads them there)
DETECTION_RULE = "tenant-tablespace"
DEFAULT_MIN_SCHEMAS = 3
DEFAULT_SIMILARITY = 0.8
#: how many distinct table sets one table set is compared with (bounds the worst case, where
#: every schema has a different set, to O(schemas x this))
_MAX_CLUSTERS = 64


class TenantLayout(FrozenRecord):
    """The tenant schemas of one input, in input order, and how they were recognised."""

    __match_args__ = ("schemas", "how", "pattern", "lower_case_table_names")  # `keys` follows from `schemas`
    schemas: tuple[str, ...]
    how: str  # for evidence: "100 schemas with the same tables (92 identical, 8 nearly)"
    pattern: str | None  # the configured tenant_schema_pattern, when it was used
    #: how the model compares database names (`SchemaModel.lower_case_table_names`)
    lower_case_table_names: int
    keys: frozenset[str]  # the names as compared (`linter.parse.body.table_name_key`), for is_tenant

    def __init__(
        self, schemas: tuple[str, ...], how: str, pattern: str | None = None, lower_case_table_names: int = 0,
    ) -> None:
        object.__setattr__(self, "schemas", schemas)
        object.__setattr__(self, "how", how)
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "lower_case_table_names", lower_case_table_names)
        object.__setattr__(self, "keys", frozenset(table_name_key(name, lower_case_table_names) for name in schemas))

    def is_tenant(self, schema: str | None) -> bool:
        return schema is not None and table_name_key(schema, self.lower_case_table_names) in self.keys

    def tables(self, model: SchemaModel) -> list[Table]:
        """Every table of every tenant schema, in input order."""
        found: list[Table] = []
        for name in self.schemas:
            schema = model.find_schema(name)
            if schema is not None:
                found.extend(schema.tables.values())
        return found


def detect_tenants(
    model: SchemaModel,
    *,
    pattern: str | None = None,
    min_schemas: int = DEFAULT_MIN_SCHEMAS,
    similarity: float = DEFAULT_SIMILARITY,
) -> TenantLayout | None:
    """The tenant layout of the model, or None when there is none.

    A schema is a tenant when its name matches `pattern` (the whole name), or when at least
    `min_schemas` schemas have table sets that are the same or nearly so: a Jaccard similarity of
    table names >= `similarity` to the most common set of their group. Drift is normal (tenants
    upgraded at different times carry an extra table), so exact equality would miss real layouts.
    Schemas with fewer than two tables are not tenants by similarity: with one table per schema,
    file-per-table already means one file per tenant.
    """
    named = [s for s in model.schemas.values() if s.name is not None and s.tables]
    chosen: set[str] = set()
    reasons: list[str] = []
    if pattern:
        regex = compile_user_regex(pattern)  # linear time: the pattern may come from a pull request
        matched = [s.name for s in named if s.name is not None and regex.fullmatch(s.name)]
        if matched:
            chosen.update(model.key(n) for n in matched)
            reasons.append(f"{len(matched)} schemas matching tenant_schema_pattern {pattern!r}")
    by_set: dict[frozenset[str], list[str]] = {}
    for schema in named:
        if len(schema.tables) >= 2 and schema.name is not None:
            by_set.setdefault(frozenset(schema.tables), []).append(schema.name)
    clusters: list[tuple[frozenset[str], list[str], int]] = []  # (most common set, members, exact)
    for table_set, members in sorted(by_set.items(), key=lambda item: -len(item[1])):
        for representative, group, _ in clusters[:_MAX_CLUSTERS]:
            if _jaccard(representative, table_set) >= similarity:
                group.extend(members)
                break
        else:
            clusters.append((table_set, list(members), len(members)))
    for representative, group, exact in clusters:
        if len(group) < min_schemas:
            continue
        chosen.update(model.key(n) for n in group)
        nearly = len(group) - exact
        detail = f"{exact} identical, {nearly} nearly" if nearly else "all identical"
        reasons.append(f"{len(group)} schemas with the same {len(representative)} tables ({detail})")
    if not chosen:
        return None
    ordered = tuple(s.name for s in named if s.name is not None and model.key(s.name) in chosen)
    return TenantLayout(ordered, "; ".join(reasons), pattern, model.lower_case_table_names)


def layout_for(model: SchemaModel, context: Any) -> TenantLayout | None:
    """The tenant layout with the options a user configured (`tenant_schema_pattern`, and the
    tenant-tablespace rule's `min_schemas` and `similarity`), whichever check asks."""
    min_schemas = _int_option(context.option(DETECTION_RULE, "min_schemas", DEFAULT_MIN_SCHEMAS), DEFAULT_MIN_SCHEMAS)
    similarity = _float_option(context.option(DETECTION_RULE, "similarity", DEFAULT_SIMILARITY), DEFAULT_SIMILARITY)
    asked = (context.tenant_schema_pattern, max(2, min_schemas), min(1.0, max(0.0, similarity)))
    known = model.derived.get("layout")  # the finished model's layout, detected once for every rule
    if known is not None and known[0] == asked:  # type: ignore[index]
        return known[1]  # type: ignore[index, no-any-return]
    layout = detect_tenants(model, pattern=asked[0], min_schemas=asked[1], similarity=asked[2])
    model.derived["layout"] = (asked, layout)
    return layout


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 1.0


def _int_option(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _float_option(value: Any, default: float) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


# --- one definition, many copies -------------------------------------------------------------------
_OPTION_FIELDS = tuple(f.name for f in fields(TableOptions) if f.name not in ("auto_increment", "other"))


def definition_signature(model: SchemaModel, table: Table) -> Hashable:
    """The table's structure, comparable between schemas: its name, columns, keys, foreign keys
    and options, without the AUTO_INCREMENT counter (it differs between tenants), with a
    foreign key to the table's own schema written as an unqualified one, and a tablespace named
    after the table's own schema (one general tablespace per tenant) written as `{schema}`.
    Table and database names as the model compares them (`SchemaModel.key`)."""
    return (model.key(table.name), _body_signature(model, table.body, table.schema))


def own_tablespace_shape(tablespace: str | None, schema: str | None) -> str | None:
    """`tablespace` with the name of `schema` in it replaced by `{schema}` (`ts_tenant_00042` in
    schema `tenant_00042` -> `ts_{schema}`): every tenant's own tablespace has the same shape."""
    if not tablespace or not schema:
        return tablespace
    at = tablespace.lower().find(schema.lower())
    if at < 0:
        return tablespace
    return tablespace[:at] + "{schema}" + tablespace[at + len(schema):]


def _body_signature(model: SchemaModel, body: TableBody, schema: str | None) -> Hashable:
    own = model.key(schema) if schema else None
    options = body.options
    return (
        # the definitions (`_values`: what == compares), not where each part was written
        tuple(c._values() for c in body.columns.values()),
        tuple(i._values() for i in body.indexes),
        tuple(
            (f.name, f.columns, None if (model.key(f.ref_schema) if f.ref_schema else None) == own else f.ref_schema,
             model.key(f.ref_table), f.ref_columns)
            for f in body.foreign_keys
        ),
        tuple(own_tablespace_shape(options.tablespace, schema) if name == "tablespace" else getattr(options, name)
              for name in _OPTION_FIELDS),
        tuple(sorted(options.other.items())),
        body.checks,
    )


def group_by_definition(model: SchemaModel, tables: list[Table]) -> list[list[Table]]:
    """Tables grouped by definition (`definition_signature`), each group in input order, the
    groups in the order of their first table.

    Cheap on tenant dumps: copies made from one parsed statement share their definition
    (`TableBody.definition_id`: equal but for AUTO_INCREMENT and TABLESPACE), so tables are first
    bucketed by (name, definition, tablespace) and the signature is computed once per bucket.
    The schema joins the bucket key only for bodies with schema-qualified foreign keys, the one
    part of a signature that depends on the schema."""
    qualified_fk: dict[int, bool] = {}
    buckets: dict[tuple[str, int, str | None, str | None], list[Table]] = {}
    for table in tables:
        body = table.body
        key_id = body.definition_id
        qualified = qualified_fk.get(key_id)
        if qualified is None:
            qualified = qualified_fk[key_id] = any(f.ref_schema for f in body.foreign_keys)
        key = (model.key(table.name), key_id, own_tablespace_shape(body.options.tablespace, table.schema),
               model.key(table.schema) if qualified and table.schema else None)
        bucket = buckets.get(key)
        if bucket is None:
            buckets[key] = [table]
        else:
            bucket.append(table)
    groups: dict[Hashable, list[Table]] = {}
    merged = False
    for members in buckets.values():
        signature = definition_signature(model, members[0])
        if signature in groups:
            groups[signature].extend(members)
            merged = True
        else:
            groups[signature] = members
    if not merged:
        return list(groups.values())  # buckets, and so groups, are already in first-table order
    order = {id(t): n for n, t in enumerate(tables)}
    for group in groups.values():
        group.sort(key=lambda t: order[id(t)])
    return sorted(groups.values(), key=lambda g: order[id(g[0])])


# --- naming tenants in SQL -----------------------------------------------------------------------
def schema_regexp(names: Iterable[str], pattern: str | None = None) -> str:
    """A MySQL REGEXP that selects the tenant schemas on the server, for the loops in fixes.

    The configured pattern when there is one (anchored, as the linter matches it); else the shape
    the names share with digits generalised (`tenant_00042` -> `^tenant_[0-9]+$`); else their
    common prefix; else the names themselves. Works with MySQL 5.7's and 8.0's regex engines."""
    if pattern:
        return f"^({pattern})$"
    listed = list(names)
    shapes = {re.sub(r"[0-9]+", "[0-9]+", _regex_escape(n)) for n in listed}
    if len(shapes) == 1 and "[0-9]+" in next(iter(shapes)):
        return f"^{shapes.pop()}$"
    prefix = os.path.commonprefix(listed)
    if len(prefix) >= 3 and len(listed) > 10:
        return f"^{_regex_escape(prefix)}"
    return "^(" + "|".join(_regex_escape(n) for n in listed) + ")$"


def _regex_escape(text: str) -> str:
    return re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", text)


def sql_string(text: str) -> str:
    """A MySQL string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def some_names(names: list[str], shown: int = 3) -> str:
    """'a, b, c and 97 more'."""
    if len(names) <= shown + 1:
        return ", ".join(names)
    return f"{', '.join(names[:shown])} and {len(names) - shown:,} more"
