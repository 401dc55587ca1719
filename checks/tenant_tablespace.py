"""Tablespace layout of schema-per-tenant servers: tenant-tablespace, cross-tenant-tablespace and
undefined-tablespace.

Three rules in one module because they read one thing, where each tenant's tables are stored,
and share how tablespaces are named and written in fixes. Tenant detection and the grouping of
identical tables live in `linter.schema.tenants` (the benchmark and compression-candidate use them too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified, quote
from linter.rules.findings import Finding
from linter.rules.options import Integer, Number
from linter.rules.copies import decided_once, grouped as copies_of
from linter.parse.elements import Location
from linter.schema.model import SchemaModel, Table
from linter.schema.target import Target
from linter.schema.tenants import (
    BUILTIN_TABLESPACES,
    DEFAULT_MIN_SCHEMAS,
    DEFAULT_SIMILARITY,
    TenantLayout,
    layout_for,
    schema_regexp,
    some_names,
    sql_string,
)

_PERCONA_NUMBERS = (
    "Percona measured 10K tenants x 65 tables as 650K files, 1.3M with .frm before 8.0, with table_open_cache "
    "thrash, and creating 1,000 Drupal schemas took 2m54s file-per-table against 1m55s with one general "
    "tablespace per schema on 8.0"
)


def tablespace_of(table: Table) -> str | None:
    """The table's TABLESPACE, lower-case and unquoted; None when the clause is absent."""
    name = table.options.tablespace
    if not name:
        return None
    return name.strip("`'\"").lower() or None


def is_general(tablespace: str | None) -> bool:
    return tablespace is not None and tablespace not in BUILTIN_TABLESPACES


def _stored_innodb(table: Table) -> bool:
    return table.is_innodb and not table.view_standin and not table.temporary


class TenantFiles:
    """Where the tenants' stored InnoDB tables are kept, counted once per kind of tenant schema
    (`SchemaModel.contents`: a tenant dump's schemas are one or two kinds), never gathered table by
    table: how many there are (`stored`), how many of them are one file each (`loose`: no
    TABLESPACE clause, or innodb_file_per_table) in tenants with two or more tables (a tenant with
    one table already has one file), in how many tenants (`tenants` with such tables, `holding`
    any), the first of them, the tenants with fewer than two (`small`), and the tables in a
    general tablespace (`general`, each table: where each is kept is what the rules say)."""

    def __init__(self, model: SchemaModel, layout: TenantLayout) -> None:
        self.stored = self.loose = self.tenants = self.holding = 0
        self.first: Table | None = None
        self.small: set[str | None] = set()
        self.general: list[Table] = []
        contents = model.contents()
        kinds: dict[int, tuple[int, int, bool]] = {}  # contents number -> (stored, loose, any general)
        for name in layout.schemas:
            key = model.key(name)
            schema = model.schemas.get(key)
            if schema is None:
                continue
            kind = kinds.get(contents[key])
            if kind is None:
                tables = [t for t in schema.tables.values() if _stored_innodb(t)]
                loose = sum(1 for t in tables if t.options.tablespace is None or tablespace_of(t) == "innodb_file_per_table")
                kind = kinds[contents[key]] = (len(tables), loose, any(is_general(tablespace_of(t)) for t in tables))
            stored, loose, general = kind
            if stored and self.first is None:
                self.first = next(t for t in schema.tables.values() if _stored_innodb(t))
            self.stored += stored
            self.holding += bool(stored)
            if stored >= 2:
                self.loose += loose
                self.tenants += bool(loose)
            else:
                self.small.add(schema.name)
            if general:
                self.general.extend(t for t in schema.tables.values()
                                    if _stored_innodb(t) and is_general(tablespace_of(t)))


def naming_convention(tables: list[Table]) -> tuple[str, str]:
    """How this input names a tenant's own tablespace: the (prefix, suffix) around the schema
    name seen most often (`ts_{tenant}` -> ("ts_", "")); the bare schema name when none is seen."""
    seen: Counter[tuple[str, str]] = Counter()
    for table in tables:
        space = tablespace_of(table)
        if not is_general(space) or not table.schema:
            continue
        assert space is not None
        at = space.find(table.schema.lower())
        if at >= 0:
            seen[(space[:at], space[at + len(table.schema):])] += 1
    return seen.most_common(1)[0][0] if seen else ("", "")


def _own_tablespace(schema: str, convention: tuple[str, str]) -> str:
    return f"{convention[0]}{schema}{convention[1]}"


def _create_tablespace(name: str) -> str:
    return f"CREATE TABLESPACE {quote(name)} ADD DATAFILE {sql_string(name + '.ibd')} ENGINE=InnoDB;"


def _tablespaces_view(target: Target) -> str:
    """information_schema's list of InnoDB tablespaces: renamed in MySQL 8.0."""
    return "information_schema.INNODB_TABLESPACES" if target.is_mysql8 else "information_schema.INNODB_SYS_TABLESPACES"


class TenantTablespace(Check):
    id = "tenant-tablespace"
    title = "Schema-per-tenant tables without a tablespace per tenant"
    severity = "warning"
    covers_copies = True
    doc = RuleDoc(
        why=(
            "A schema-per-tenant server (one schema per customer, the same tables in each) with file-per-table "
            "keeps one .ibd file per table: 10K customers x 65 tables is 650K files (1.3M with .frm before MySQL "
            "8.0), and the table_open_cache thrashes. In Percona's tests creating 1,000 Drupal schemas of 65 tables "
            "took 3m21s on 5.7, 2m54s on 8.0 file-per-table and 1m55s on 8.0 with one general tablespace per "
            "schema. A general tablespace per tenant (`CREATE TABLESPACE t1 ADD DATAFILE 't1.ibd'` and "
            "`TABLESPACE t1` on each of its tables) gives one file per tenant, and moving a tenant means moving "
            "one file. MariaDB has no general tablespaces (it accepts the TABLESPACE clause and ignores it): "
            "there the rule only reports the file count, as info."
        ),
        evidence=(
            "The tenant layout (schemas whose table sets are the same or nearly so, or that match "
            "tenant_schema_pattern), and for each distinct table definition the number of tenant schemas holding "
            "it with no TABLESPACE clause or with TABLESPACE innodb_file_per_table, a few of their names, and the "
            "number of files the layout implies. One finding per definition, not one per copy: AUTO_INCREMENT "
            "counters and schema names do not make a definition distinct."
        ),
        # three tenants (min_schemas) of two tables each (a tenant of one table is one file either way)
        bad="\n".join(
            f"CREATE DATABASE tenant_0000{n};\n"
            f"CREATE TABLE tenant_0000{n}.customers (id BIGINT PRIMARY KEY) ENGINE=InnoDB;\n"
            f"CREATE TABLE tenant_0000{n}.orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL) ENGINE=InnoDB;"
            for n in (1, 2, 3)
        ) + "\n-- ... the same in tenant_00004, tenant_00005, ...: one .ibd file per table",
        good="\n".join(
            f"CREATE DATABASE tenant_0000{n};\n"
            f"CREATE TABLESPACE tenant_0000{n} ADD DATAFILE 'tenant_0000{n}.ibd' ENGINE=InnoDB;\n"
            f"CREATE TABLE tenant_0000{n}.customers (id BIGINT PRIMARY KEY) TABLESPACE tenant_0000{n} ENGINE=InnoDB;\n"
            f"CREATE TABLE tenant_0000{n}.orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL) "
            f"TABLESPACE tenant_0000{n} ENGINE=InnoDB;"
            for n in (1, 2, 3)
        ) + "\n-- ... one tablespace, one file, per tenant",
        fix=(
            "Per tenant: `CREATE TABLESPACE` named after the schema, then `ALTER TABLE ... TABLESPACE` for each of "
            "its tables. The fix shows both for one tenant, then two queries that print the statements for every "
            "tenant schema on the server (the CREATE only where that tablespace is missing)."
        ),
        options={
            "min_schemas": f"how many schemas with (nearly) the same tables make a tenant layout (default {DEFAULT_MIN_SCHEMAS})",
            "similarity": (
                "how alike two schemas' table sets must be, as the Jaccard similarity of their table names "
                f"(default {DEFAULT_SIMILARITY}); also used by cross-tenant-tablespace and compression-candidate"
            ),
        },
        option_types={"min_schemas": Integer(ge=2), "similarity": Number(gt=0, le=1)},
        option_defaults={"min_schemas": DEFAULT_MIN_SCHEMAS, "similarity": DEFAULT_SIMILARITY},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        layout = layout_for(model, context)
        if layout is None:
            return
        files = TenantFiles(model, layout)
        if not files.stored:
            return
        if not context.target.has_general_tablespaces:
            yield self._mariadb(layout, files, context.target)
            return
        if not files.loose:
            return
        convention = naming_convention(files.general)
        regexp = schema_regexp(layout.schemas, layout.pattern)
        definitions, rank = decided_once(model, context)
        for definition in definitions:  # each definition's copies that are one file each: one finding
            first = definition.first
            if not definition.grouped or not _stored_innodb(first) or not (
                    first.options.tablespace is None or tablespace_of(first) == "innodb_file_per_table"):
                continue
            group = [t for part in definition.parts for t in part.tables if t.schema not in files.small]
            if not group:
                continue
            if len(definition.parts) > 1:
                group.sort(key=lambda t: rank[t.schema])
            yield copies_of(self._definition(group, layout, files.loose, files.stored, files.tenants, convention,
                                             regexp, context.target), group)

    def _definition(
        self, group: list[Table], layout: TenantLayout, loose: int, stored: int, tenants: int,
        convention: tuple[str, str], regexp: str, target: Target,
    ) -> Finding:
        first = group[0]
        schemas = [t.schema or "" for t in group]
        clause = "TABLESPACE innodb_file_per_table" if tablespace_of(first) else "no TABLESPACE clause"
        if target.is_mysql8:
            files = (
                f"the tenant layout has {loose:,} such tables in {tenants:,} tenant schemas: {loose:,} .ibd files, "
                f"where one general tablespace per tenant makes it {tenants:,} files"
            )
        else:
            files = (
                f"the tenant layout has {loose:,} such tables in {tenants:,} tenant schemas: {loose + stored:,} "
                f"files with the .frm files, where one general tablespace per tenant makes it {tenants + stored:,} "
                "(the .frm files stay until 8.0)"
            )
        message = (
            f"{first.name}: {len(group):,} tenant schema{'s' if len(group) != 1 else ''} ({some_names(schemas)}) "
            f"hold this table with {clause}, so every copy is its own .ibd file; {files}, and moving a tenant would "
            f"mean moving one file. {_PERCONA_NUMBERS}."
        )
        evidence = f"tenant layout: {layout.how}; this definition of {first.name}: {len(group):,} copies, {clause}"
        summary = (f"{first.name}: {len(group):,} tenant schema{'s' if len(group) != 1 else ''} hold this table one "
                   "file each, not in a general tablespace per tenant")
        if first.options.partitioning:
            message += (
                " It is partitioned: every partition is a file, and MySQL 8.0.13+ cannot place partitions in a "
                "general tablespace, so only unpartitioning it (or fewer partitions) reduces its files."
            )
            return self.finding(first, message, severity="info", where=first.option_place("tablespace"),
                                evidence=evidence, subject=first.name.lower(), summary=summary)
        fix = self._fix(first, convention, regexp, target)
        return self.finding(first, message, where=first.option_place("tablespace"), evidence=evidence, fix=fix,
                            subject=first.name.lower(),
                            summary=summary)

    def _fix(self, table: Table, convention: tuple[str, str], regexp: str, target: Target) -> str:
        """CREATE TABLESPACE and ALTER TABLE for the first tenant, then two queries that print
        them for every tenant schema on the server (a loop in SQL that works on 5.7 and 8.x)."""
        schema = table.schema or ""
        space = _own_tablespace(schema, convention)
        pattern = sql_string(regexp)
        prefix, suffix = (sql_string(part) for part in convention)
        space_sql = f"CONCAT({prefix}, SCHEMA_NAME, {suffix})" if any(convention) else "SCHEMA_NAME"
        table_space_sql = f"CONCAT({prefix}, TABLE_SCHEMA, {suffix})" if any(convention) else "TABLE_SCHEMA"
        create_all = (
            f"SELECT CONCAT('CREATE TABLESPACE `', {space_sql}, '` ADD DATAFILE ''', {space_sql}, "
            f"'.ibd'' ENGINE=InnoDB;') FROM information_schema.SCHEMATA WHERE SCHEMA_NAME REGEXP {pattern} "
            f"AND {space_sql} NOT IN (SELECT NAME FROM {_tablespaces_view(target)});"
        )
        alter_all = (
            f"SELECT CONCAT('ALTER TABLE `', TABLE_SCHEMA, '`.`', TABLE_NAME, '` TABLESPACE `', {table_space_sql}, "
            f"'`;') FROM information_schema.TABLES WHERE TABLE_SCHEMA REGEXP {pattern} "
            f"AND TABLE_NAME = {sql_string(table.name)};"
        )
        return "\n".join(
            [
                f"-- one tenant ({schema}); the CREATE once per tenant:",
                _create_tablespace(space),
                f"ALTER TABLE {qualified(table)} TABLESPACE {quote(space)};",
                "-- every tenant: these queries print the statements; run what they print",
                create_all,
                alter_all,
            ]
        )

    def _mariadb(self, layout: TenantLayout, files: TenantFiles, target: Target) -> Finding:
        first = files.first
        assert first is not None
        tenants, stored = files.holding, files.stored
        message = (
            f"{tenants:,} tenant schemas ({some_names(list(layout.schemas))}) hold {stored:,} InnoDB "
            f"tables: {stored:,} .ibd files with file-per-table. {_PERCONA_NUMBERS}. {target.label} has "
            "no general tablespaces: it accepts a TABLESPACE clause and silently ignores it, so one tablespace per "
            "tenant is not available here. Size table_open_cache, table_definition_cache, innodb_open_files and "
            f"open_files_limit for {stored:,} tables, or keep tenants in shared tables keyed by a "
            "tenant id."
        )
        ignored = files.general
        if ignored:
            message += (
                f" {len(ignored):,} tenant tables name a general tablespace (e.g. "
                f"{quote(ignored[0].options.tablespace or '')} on {ignored[0].qualified_name}): ignored by MariaDB."
            )
        return self.finding(
            first, message, severity="info", where=first.defined, evidence=f"tenant layout: {layout.how}",
            subject="tenant-layout",
            summary=f"{tenants:,} tenant schemas hold {stored:,} InnoDB tables, one file each "
            f"({target.label} has no general tablespaces)",
        )


def _tenant_example(tenant: str, orders_in: str) -> str:
    """Tenant `tenant_{tenant}` with its tablespace, customers in it and orders in `tenant_{orders_in}`'s."""
    return (f"CREATE DATABASE tenant_{tenant};\n"
            f"CREATE TABLESPACE tenant_{tenant} ADD DATAFILE 'tenant_{tenant}.ibd' ENGINE=InnoDB;\n"
            f"CREATE TABLE tenant_{tenant}.customers (id BIGINT PRIMARY KEY) TABLESPACE tenant_{tenant};\n"
            f"CREATE TABLE tenant_{tenant}.orders (id BIGINT PRIMARY KEY) TABLESPACE tenant_{orders_in};")


class CrossTenantTablespace(Check):
    id = "cross-tenant-tablespace"
    title = "A tenant's table in another tenant's tablespace"
    severity = "error"
    doc = RuleDoc(
        why=(
            "A general tablespace per tenant isolates each tenant's data in one file: it can be moved, restored or "
            "dropped on its own. A table of tenant A placed in a tablespace named after tenant B, or that tenant "
            "B's tables use, breaks that isolation: A's rows travel with B's file, B's tablespace cannot be "
            "dropped while A's table is in it, and a restore of B brings back A's table as it was."
        ),
        evidence=(
            "The tablespace, the tenant it is named after (by the naming the input itself uses, e.g. `ts_{tenant}`) "
            "or the tenants whose tables share it, and the tables of the other tenant that sit in it."
        ),
        # three tenants of two tables each: fewer are not a tenant layout (tenant-tablespace's min_schemas)
        bad="\n".join(_tenant_example(t, orders_in="a" if t == "c" else t) for t in "abc"),
        good="\n".join(_tenant_example(t, orders_in=t) for t in "abc"),
        fix="`ALTER TABLE ... TABLESPACE` moving each such table to its own tenant's tablespace (created first when "
            "the input never uses it).",
        options={},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        if not context.target.has_general_tablespaces:
            return  # MariaDB ignores TABLESPACE: nothing is shared (tenant-tablespace says so)
        layout = layout_for(model, context)
        if layout is None:
            return
        general = TenantFiles(model, layout).general  # (only a general tablespace can be shared)
        tenants = {name.lower(): name for name in layout.schemas}
        users: dict[str, dict[str, list[Table]]] = {}
        for table in general:
            space = tablespace_of(table)
            if is_general(space) and table.schema:
                assert space is not None
                users.setdefault(space, {}).setdefault(table.schema.lower(), []).append(table)
        convention = naming_convention(general)
        for space, by_schema in users.items():
            owner = _named_after(space, convention, tenants)
            if owner is not None:
                for schema, tables in by_schema.items():
                    if schema != owner:
                        yield self._intruder(model, space, tenants[owner], by_schema.get(owner, []), tables,
                                             users, convention, named=True)
            elif len(by_schema) > 1:
                schemas = list(by_schema)
                yield self._intruder(model, space, tenants[schemas[0]], by_schema[schemas[0]], by_schema[schemas[1]],
                                     users, convention, named=False, sharing=[tenants[s] for s in schemas])

    def _intruder(
        self, model: SchemaModel, space: str, owner: str, owner_tables: list[Table], tables: list[Table],
        users: dict[str, dict[str, list[Table]]], convention: tuple[str, str], *, named: bool,
        sharing: list[str] | None = None,
    ) -> Finding:
        first = tables[0]
        schema = first.schema or ""
        names = some_names([t.name for t in tables])
        if named:
            holds = f" and holding {len(owner_tables):,} of its tables" if owner_tables else ""
            where = f"tablespace {quote(space)} is named after tenant {owner}{holds}"
        else:
            assert sharing is not None
            where = (
                f"tablespace {quote(space)} holds tables of {len(sharing):,} tenant schemas ({some_names(sharing)}), "
                f"first of {owner}"
            )
        message = (
            f"{first.qualified_name}: {where}, yet {len(tables):,} table{'s' if len(tables) != 1 else ''} of tenant "
            f"{schema} ({names}) {'are' if len(tables) != 1 else 'is'} in it. Tenants sharing a tablespace share one "
            f"file: {schema}'s rows move, restore and drop with {owner}'s file, and {owner}'s tablespace cannot be "
            "dropped while they are in it."
        )
        own = _own_tablespace(schema, convention)
        lines = []
        if own.lower() not in model.tablespaces and own.lower() not in users:
            lines.append(_create_tablespace(own))
        lines.extend(f"ALTER TABLE {qualified(t)} TABLESPACE {quote(own)};" for t in tables)
        if sharing is not None and len(sharing) > 2:
            lines.append(f"-- likewise for the other {len(sharing) - 2:,} tenants in {quote(space)}")
        evidence = (
            f"tablespace {quote(space)} holds {_tables(len(owner_tables))} of {owner} and {_tables(len(tables))} of {schema}"
        )
        summary = (f"{first.qualified_name}: {_tables(len(tables))} of tenant {schema} in tablespace {quote(space)}, "
                   f"{'named after' if named else 'shared with'} tenant {owner}")
        return self.finding(first, message, where=first.option_place("tablespace"), evidence=evidence, fix="\n".join(lines),
                            subject=space, summary=summary)


def _tables(n: int) -> str:
    return f"{n:,} table" if n == 1 else f"{n:,} tables"


def _named_after(space: str, convention: tuple[str, str], tenants: dict[str, str]) -> str | None:
    """The tenant (lower-case schema name) a tablespace is named after, by the input's own naming
    convention or by its bare name; None when it is named after none."""
    for prefix, suffix in (convention, ("", "")):
        if space.startswith(prefix) and space.endswith(suffix) and len(space) > len(prefix) + len(suffix):
            middle = space[len(prefix): len(space) - len(suffix)]
            if middle in tenants:
                return middle
    return None


class UndefinedTablespace(Check):
    id = "undefined-tablespace"
    title = "TABLESPACE names a general tablespace the migrations never create"
    severity = "warning"
    doc = RuleDoc(
        why=(
            "In a migration history every object a statement uses must have been created by an earlier migration: "
            "replayed on a fresh database, a CREATE or ALTER TABLE naming a general tablespace that does not exist "
            "fails. innodb_system, innodb_file_per_table and innodb_temporary are built in. Dumps are not checked: "
            "mysqldump never prints CREATE TABLESPACE for InnoDB general tablespaces (it writes `/*!50100 "
            "TABLESPACE `t1` */` on each table), so a dump never defines them."
        ),
        evidence="The tablespace name, and where a CREATE TABLESPACE for it appears when it comes only later.",
        # a migration: a file named as one of a history (a lone schema file may be a dump)
        bad="-- V2__orders.sql, a Flyway migration\nCREATE TABLE orders (id BIGINT PRIMARY KEY) TABLESPACE ts_orders;",
        good=(
            "-- V2__orders.sql, a Flyway migration\n"
            "CREATE TABLESPACE ts_orders ADD DATAFILE 'ts_orders.ibd' ENGINE=InnoDB;\n"
            "CREATE TABLE orders (id BIGINT PRIMARY KEY) TABLESPACE ts_orders;"
        ),
        fix="A migration before this one with `CREATE TABLESPACE name ADD DATAFILE 'name.ibd' ENGINE=InnoDB`.",
        options={},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        if not model.is_migration_history or not context.target.has_general_tablespaces:
            return
        for table in model.tables():
            space = tablespace_of(table)
            if not is_general(space) or table.temporary:
                continue
            assert space is not None
            defined = model.tablespaces.get(space)
            used = table.option_place("tablespace")  # the statement that put the table there
            if defined is not None and not _later(defined.defined, used):
                continue
            later = (
                f" (CREATE TABLESPACE comes later, at line {defined.defined.line})" if defined is not None else ""
            )
            message = (
                f"{table.name}: TABLESPACE {quote(table.options.tablespace or space)} names a general tablespace that "
                f"no earlier CREATE TABLESPACE in this migration history defines{later}; replayed on a fresh database "
                "the statement fails because the tablespace does not exist."
            )
            yield self.finding(
                table, message, where=used, evidence=f"tablespace {space}: not created before use",
                fix=_create_tablespace(table.options.tablespace or space), subject=space,
                summary=f"{table.name}: TABLESPACE {quote(table.options.tablespace or space)} is not created by an "
                "earlier statement of this migration history",
            )


def _later(a: Location, b: Location) -> bool:
    """Whether `a` comes after `b`. Only known within one file: the model has no order between
    the files of a migration history, so a definition in another file counts as earlier."""
    return a.path == b.path and (a.line, a.column) > (b.line, b.column)
