"""link-table-primary-key: a many-to-many link table clustered on a surrogate id.

A link table (user <-> group, product <-> category) is read by one side: "the groups of user 7".
InnoDB stores rows in primary-key order, so with a surrogate `id` one user's rows lie wherever
their ids fell, one page read per row; clustered on (user_id, group_id) they share a page or two.
Which tables are link tables, and which columns their identity, is the model's answer
(`linter.schema.links.link_identity`: a pair that identifies the row, looked up by one side), the
same one wide-primary-key and uuid-primary-key read; this rule flags a link clustered on a surrogate
and proposes the composite key, keeping the surrogate column indexed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from linter.rules.column_sql import kept_definition
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, cause_place, qualified, quote
from linter.rules.findings import Finding, Severity
from linter.parse.elements import Column, ForeignKey, Index, IndexColumn
from linter.schema.key_copies import copies, copies_of
from linter.schema.links import Link, Reference, identity_key, link_identity
from linter.schema.model import SchemaModel, Table
from linter.input.migrations.orm_evidence import LinkEvidence
from linter.schema.target import Target

RULE = "link-table-primary-key"


class LinkTablePrimaryKey(Check):
    id = RULE
    title = "Many-to-many link table clustered on a surrogate key"
    severity = "warning"
    doc = RuleDoc(
        why=(
            "InnoDB stores rows in primary-key order. A many-to-many table clustered on a surrogate `id` scatters "
            "one entity's rows across the B-tree, one page read per row: Percona (\"Tuning InnoDB Primary Keys\") "
            "counted 300 selects/s x 100 friends = up to 30,000 page reads/s. With `PRIMARY KEY (user_id, "
            "friend_user_id)` plus `KEY (id)` one user's rows sit together: ~588 page reads/s for the same load. "
            "The trade: inserts go in random key order and secondary indexes grow (each carries the wider key): the "
            "message gives the bytes per row the table's secondary indexes would carry of the pair after the fix, "
            "against what they carry of the surrogate now. That weighing is this rule's: wide-primary-key and "
            "uuid-primary-key leave a link table clustered on its pair alone (the model decides once which tables are "
            "links and which columns their identity, `linter.schema.links`), so no fix of theirs undoes this one."
        ),
        evidence=(
            "A table whose rows are identified by the pair (rarely three) of references it links and looked up by one "
            "side, clustered on a single surrogate column: an AUTO_INCREMENT or SERIAL id, an application-assigned "
            "BIGINT, or with no PRIMARY KEY the surrogate UNIQUE key InnoDB clusters on. Structure decides first. A "
            "UNIQUE key on the pair makes it the row's identity, with at most two small qualifiers beside it (a "
            "soft-delete stamp, a type or kind, a version: the key the fix gives is that UNIQUE key's), and then a "
            "side may be named by its natural key (`user_name`, `org_code`, `worker_group`); a column that names "
            "another table of the input by that table's own single-column UNIQUE key (a name or code of the same "
            "kind of type) is such a reference anywhere. References are columns with a FOREIGN KEY, or named after "
            "an entity (`user_id`, `id_user`, `userid`, `UserID`, `fk_user`, `owner_user_id`) and matched to a table "
            "of the table's own schema (a shared prefix of up to three words, `linkis_ps_bml_`, left out; a table of "
            "another schema of a multi-database dump counts only as a name), or named so and paired by keys when "
            "their tables are not in the input. A reference both sides' tables hold too (`tenant_id`, "
            "`workspace_id`) is the scope the pair lives in, not a side. Without a UNIQUE key: foreign keys, names "
            "matched to tables, an index on the pair or on each side. The other columns must describe the pair: "
            "bookkeeping (timestamps, created_by/updated_by, an integer sort order, soft delete), a role or flag, a "
            "counter, frequency or limit, a place, a percentage or weight, a title, a server or node id, a GUID, a "
            "copy of a linked entity's name (the table it names is a side's). Not link tables: content (names, "
            "descriptions, values, documents, hashes, amounts) or a column of its own that rows are looked up by; a "
            "UNIQUE key on one side alone (each row belongs to one object, whatever the tenant or environment column "
            "beside it), or on the pair and content; a validity period, or a log/history name without a UNIQUE pair "
            "(the pair repeats); a reference to a third entity that not every row has (`order_number` -> orders); "
            "translation tables; rows other tables reference (an identity of their own); a key that is another "
            "table's id (1:1); a tree (a parent reference to its own table); an exclusive arc (three references, two "
            "of them optional, no key on the three); pairs known from names alone whose columns are all nullable. "
            "Non-InnoDB tables (MyISAM ...) get an info. The message says which columns are the pair, why, and what "
            "the other columns are. The finding sits at the statement that made the table so: the ALTER that added "
            "the surrogate key, a side of the pair, its foreign key or the UNIQUE key on it. "
            "A Prisma model with two relation fields (schema.prisma beside the migrations) is a link table even "
            "without foreign keys in the DDL (relationMode = \"prisma\"), and the advice is given in Prisma's "
            "terms (@@id on the relation columns)."
        ),
        bad=(
            "CREATE TABLE user_group (\n  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
            "  user_id INT UNSIGNED NOT NULL,\n  group_id INT UNSIGNED NOT NULL,\n"
            "  UNIQUE KEY user_group (user_id, group_id),\n"
            "  FOREIGN KEY (user_id) REFERENCES user (id),\n  FOREIGN KEY (group_id) REFERENCES `group` (id)\n) ENGINE=InnoDB;"
        ),
        good=(
            "CREATE TABLE user_group (\n  id INT UNSIGNED NOT NULL AUTO_INCREMENT,\n"
            "  user_id INT UNSIGNED NOT NULL,\n  group_id INT UNSIGNED NOT NULL,\n"
            "  PRIMARY KEY (user_id, group_id),\n  KEY (id),\n  KEY (group_id),\n"
            "  FOREIGN KEY (user_id) REFERENCES user (id),\n  FOREIGN KEY (group_id) REFERENCES `group` (id)\n) ENGINE=InnoDB;"
        ),
        fix=(
            "`ALTER TABLE t DROP PRIMARY KEY, ADD PRIMARY KEY (a, b), ADD KEY (id)`: column order from the existing "
            "UNIQUE key on the pair (which the new key replaces), else the foreign-key order; the surrogate column "
            "stays indexed (AUTO_INCREMENT needs it), and `KEY (b)` is added when no index starts with b. A table "
            "clustered on a surrogate UNIQUE key (no PRIMARY KEY) gets `ADD PRIMARY KEY (a, b)` only. Nullable link "
            "columns are made NOT NULL by a MODIFY COLUMN that keeps the rest of their definition; the message gives "
            "the query that counts the NULLs first. When no UNIQUE key covers the pair, duplicate pairs must go "
            "first: the message gives the query that lists them."
        ),
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        evidence = context.app_evidence

        def judge(table: Table) -> Iterator[Finding]:
            link = link_identity(model, table)
            if link is not None and link.on_identity:
                return  # clustered on its identity already: what this rule asks for
            declared = evidence.link(table) if evidence is not None else None
            if declared is not None and declared.implicit:
                declared = None  # the ORM's own relation table: no surrogate key to replace
            if link is None and declared is not None:
                link = link_from_model(table, declared)
            if link is not None:
                yield self._finding(link, model, context, declared)

        return judged_once(model, context, judge)

    def _finding(self, link: Link, model: SchemaModel, context: CheckContext,
                 declared: LinkEvidence | None = None) -> Finding:
        table = link.table
        names = [r.column for r in link.columns]
        key = list(link.key)
        pair = ", ".join(quote(n) for n in key)
        first = next((n for n in key if n in names), names[0])
        sides = " and ".join(r.target or r.column for r in link.columns)
        assert link.surrogate is not None  # (a link clustered on a surrogate: `run` judges no other)
        surrogate = link.surrogate.name
        how = "AUTO_INCREMENT" if link.surrogate.auto_increment else "application-assigned"
        clustered_on = (f"its surrogate {how} key {quote(surrogate)}" if _by_primary(link)
                        else f"UNIQUE key {link.clustered.name if link.clustered else ''} on its surrogate {how} "
                             f"{quote(surrogate)} (it has no PRIMARY KEY)")
        message = [
            f"{table.name} links {sides} through ({', '.join(quote(n) for n in names)}) but is clustered on "
            f"{clustered_on}: the rows of one {first} lie wherever their ids fell, one page read per row "
            "(Percona: 300 selects/s x 100 links = up to 30,000 page reads/s). Clustered on "
            f"PRIMARY KEY ({pair}) with KEY ({quote(surrogate)}) they sit together (~588 page reads/s for the same "
            "load). The trade: inserts go in random key order and secondary indexes carry the wider key."
            + (f" {trade}" if (trade := _width_trade(link, model, context.target)) else ""),
            f"The pair is the table's identity: {link.why}"
            + (f"; its other columns describe the pair ({', '.join(link.others)})." if link.others
               else "; it has no other columns."),
        ]
        nullable = [n for n in key if (c := table.column(n)) is not None and c.nullable]
        if nullable:
            where = " OR ".join(f"{quote(n)} IS NULL" for n in nullable)
            message.append(
                f"{', '.join(nullable)} may be NULL: the fix makes {'them' if len(nullable) > 1 else 'it'} NOT NULL, "
                f"which fails while a row holds NULL there; this counts them first: "
                f"SELECT COUNT(*) FROM {qualified(table)} WHERE {where};"
            )
        if declared is not None and declared.advice:  # how to key it in the model, in the model's terms
            message.append(
                f"The model {declared.model} ({declared.where}) relates {declared.models[0]} and {declared.models[1]}: "
                f"{declared.advice}"
            )
        if link.unique is None:
            message.append(
                f"No UNIQUE key covers ({pair}): duplicate pairs must go first; this lists them: "
                f"{_duplicates_query(table, key)}"
            )
        severity: Severity = "warning"
        if not table.is_innodb:
            severity = "info"
            message.append(
                f"ENGINE={table.engine} has no clustered index: this applies once the table moves to InnoDB."
            )
        evidence = (
            "link columns " + ", ".join(f"{r.column} -> {r.target or '?'} ({r.how})" for r in link.columns)
            + (f"; current key PRIMARY KEY ({quote(surrogate)}) {how}" if _by_primary(link)
               else f"; no PRIMARY KEY, clustered on UNIQUE {link.clustered.name if link.clustered else ''} "
                    f"({quote(surrogate)}) {how}")
            + (f"; UNIQUE {link.unique.name} on the pair" if link.unique is not None else "; no UNIQUE key on the pair")
            + (f"; other columns: {', '.join(link.others)}" if link.others else "")
        )
        # the cause: the statement that made the surrogate the clustered key, added a side of the pair,
        # its foreign key or the UNIQUE key on it (an ALTER in a later migration reports it there)
        parts: list[Column | Index | ForeignKey] = [p for p in (link.clustered, link.unique) if p is not None]
        for name in names:
            column = table.column(name)
            if column is not None:
                parts.append(column)
            parts.extend(fk for fk in table.foreign_keys if name.lower() in (c.lower() for c in fk.columns))
        return self.finding(
            table, " ".join(message), severity=severity, where=cause_place(table, parts, key_dropped=not _by_primary(link)),
            evidence=evidence, fix=_fix(link, context.target), subject=",".join(names),
            summary=f"{table.name}: link table clustered on surrogate {quote(surrogate)}, not on ({pair})",
        )


def _by_primary(link: Link) -> bool:
    return link.clustered is None or link.clustered.kind == "primary"


# -- detection ----------------------------------------------------------------------------------
def link_from_model(table: Table, declared: LinkEvidence) -> Link | None:
    """The link an application's model declares (a Prisma model with two relation fields), when
    the table is clustered on its own single-column key: the relation columns count as strong
    references even where the DDL has no foreign key (Prisma's relationMode = "prisma")."""
    primary = table.primary_key
    if primary is None or len(primary.columns) != 1 or primary.columns[0].expression:
        return None
    surrogate = table.column(primary.columns[0].name)
    if surrogate is None or surrogate.name.lower() in {c.lower() for c in declared.columns}:
        return None
    references = []
    for order, (column, target) in enumerate(zip(declared.columns, declared.models)):
        found = table.column(column)
        if found is None:
            return None
        references.append(Reference(found.name, target, f"{declared.source} relation, {declared.where}", True, order))
    names = {r.column.lower() for r in references}
    unique = identity_key(table, primary, references, (), ())
    if unique in ("repeats", "one-sided"):
        return None
    others = tuple(c.name for c in table.columns.values() if c is not surrogate and c.name.lower() not in names)
    # the model's order of the relation columns, unless the UNIQUE key holds more than the pair (a qualifier)
    key = tuple(unique.column_names) if isinstance(unique, Index) and len(unique.columns) > len(references) else None
    return Link(table, tuple(references), surrogate, unique if isinstance(unique, Index) else None, others,
                clustered=primary, why=f"the model {declared.model} ({declared.where}) relates {' and '.join(declared.models)}",
                key=key)



# -- the fix -------------------------------------------------------------------------------------
def _fix(link: Link, target: Target) -> str:
    """DROP PRIMARY KEY (when the surrogate is the PRIMARY KEY), drop the UNIQUE key the new key
    replaces, make nullable link columns NOT NULL (explicitly, with their whole definition: ADD
    PRIMARY KEY would do it silently), ADD PRIMARY KEY on the pair, and keep the surrogate and
    the second column indexed."""
    table = link.table
    key = list(link.key)
    pair = ", ".join(quote(n) for n in key)
    actions = ["DROP PRIMARY KEY"] if _by_primary(link) else []
    if link.unique is not None and link.unique.name:
        actions.append(f"DROP INDEX {quote(link.unique.name)}")
    for name in key:
        column = table.column(name)
        if column is not None and column.nullable:
            default = None if (column.default or "").upper() == "NULL" else column.default
            actions.append(f"MODIFY COLUMN {kept_definition(replace(column, nullable=False, default=default), target)}")
    actions.append(f"ADD PRIMARY KEY ({pair})")
    actions.extend(f"ADD KEY ({quote(name)})" for name in _added_keys(link))
    return f"ALTER TABLE {qualified(table)} " + ", ".join(actions) + ";"


def _kept_indexes(link: Link) -> list[Index]:
    """The secondary indexes the fix leaves: all but the PRIMARY KEY and the UNIQUE key the new key replaces."""
    return [i for i in link.table.indexes if i.kind != "primary" and i is not link.unique]


def _added_keys(link: Link) -> list[str]:
    """The columns the fix gives a key of their own: the surrogate (AUTO_INCREMENT needs one, and rows
    may be looked up by it) and the side the new key does not lead with, when no kept index starts
    with them."""
    kept = _kept_indexes(link)

    def indexed(column: str) -> bool:
        return any(i.column_names and i.column_names[0].lower() == column.lower() for i in kept)

    added = []
    if link.surrogate is not None and not indexed(link.surrogate.name):
        added.append(link.surrogate.name)
    other = next(r.column for r in link.columns if r.column.lower() != link.key[0].lower())
    if not indexed(other):
        added.append(other)
    return added


def _width_trade(link: Link, model: SchemaModel, target: Target) -> str:
    """The width the trade costs, in bytes per row: what the secondary indexes carry of the pair after
    the fix (`linter.schema.key_copies`, as wide-primary-key counts a clustered key) against what
    they carry of the surrogate now. This rule owns that weighing: wide-primary-key leaves a link
    table clustered on its pair alone."""
    table = link.table
    key = Index(None, "primary", tuple(IndexColumn(n) for n in link.key))
    after_indexes = [*_kept_indexes(link), *(Index(None, "index", (IndexColumn(n),)) for n in _added_keys(link))]
    after = copies_of(table, key, after_indexes, target, model)
    now = copies(table, target, model)
    if after is None or now is None or not after_indexes:
        return ""
    shown = ", ".join(f"{quote(index.name) if index.name else f'KEY ({quote(index.column_names[0])})'} {n:,}"
                      for index, n in after.per_index if n)
    count = sum(1 for _, n in after.per_index if n)
    carry = "its secondary index carries" if count == 1 else f"its {count} secondary indexes carry"
    beside = " (beside the UNIQUE key on the pair the new key replaces)" if link.unique is not None else ""
    return (
        f"Here the pair is up to {after.width.stored_bytes:,} bytes as an index holds it, the surrogate "
        f"{now.width.stored_bytes:,}: after the fix {carry} up to {after.total:,} bytes of it per row ({shown}) "
        f"where they carry {now.total:,} of the surrogate now{beside}; the price of keeping one side's rows "
        "together (wide-primary-key does not flag a link table clustered on its pair)."
    )


def _duplicates_query(table: Table, names: list[str]) -> str:
    columns = ", ".join(quote(n) for n in names)
    return f"SELECT {columns}, COUNT(*) AS copies FROM {qualified(table)} GROUP BY {columns} HAVING COUNT(*) > 1;"
