"""link-table-primary-key: a many-to-many link table clustered on a surrogate id.

A link table (user <-> group, product <-> category) is read by one side: "the groups of user 7".
InnoDB stores rows in primary-key order, so with a surrogate `id` one user's rows lie wherever
their ids fell, one page read per row; clustered on (user_id, group_id) they share a page or two.
The check recognises link tables from the model alone (foreign keys, `<entity>_id` names matched to
tables of the input, keys) and proposes the composite key, keeping the surrogate column indexed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified, quote
from linter.rules.findings import Finding, Severity
from linter.schema.model import Column, Index, SchemaModel, Table
from linter.input.migrations.orm_evidence import LinkEvidence
from linter.record import FrozenRecord

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

RULE = "link-table-primary-key"

_INTEGER_TYPES = frozenset({"TINYINT", "SMALLINT", "MEDIUMINT", "INT", "INTEGER", "BIGINT"})
_STRING_KEY_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY", "UUID"})
_TEMPORAL_TYPES = frozenset({"DATE", "DATETIME", "TIMESTAMP", "TIME", "YEAR"})
_FLAG_TYPES = frozenset({"TINYINT", "BOOL", "BOOLEAN", "BIT", "ENUM", "SET"})
#: table-name words of tables that record events rather than relate entities
_LOG_TOKENS = frozenset({"log", "logs", "history", "histories", "audit", "audits", "journal", "archive", "trail"})
#: words of columns that make a table a translation table (x_description keyed by language)
_LANGUAGE_TOKENS = frozenset({"language", "languages", "lang", "locale"})
#: words of bookkeeping columns: timestamps, who changed it, sort order, soft delete, row version
_BOOKKEEPING_TOKENS = frozenset({
    "created", "create", "creator", "creation", "updated", "update", "updater", "modified", "modify", "modifier",
    "changed", "change", "deleted", "delete", "removed", "by", "added", "inserted", "lastupdated", "datachange",
    "sort", "sortorder", "ordering", "order", "position", "pos", "weight", "rank", "seq", "sequence", "priority",
    "version", "isdeleted", "timestamp", "ts",
})
#: words of small attributes a link may carry: its role, a permission, a flag
_ATTRIBUTE_TOKENS = frozenset({
    "role", "permission", "permissions", "perm", "perms", "privilege", "flag", "flags", "access", "type", "kind",
    "level", "mode", "status", "state", "admin", "owner", "primary", "default", "enabled", "active", "visible",
    "hidden", "read", "notify", "favorite", "favourite", "starred", "pinned", "manager", "leader", "grant",
})
#: words that make a dated column the validity period of a history of links
_PERIOD_TOKENS = frozenset({"from", "to", "valid", "start", "end", "begin", "until", "effective"})
_PLACEHOLDER = re.compile(r"%[^%]*%|@[^@]*@|\{[^}]*\}|\$\w+")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")


@lru_cache(maxsize=1 << 16)
def _tokens(name: str) -> tuple[str, ...]:
    """`GroupId` -> (group, id); `geo_zone_id` -> (geo, zone, id); template placeholders dropped.
    Cached: tenant dumps repeat the same names thousands of times."""
    name = _PLACEHOLDER.sub("_", name)
    spaced = _CAMEL.sub(r"\1_\2", name)
    return tuple(t for t in _NON_WORD.split(spaced.lower()) if t)


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _entity(tokens: Sequence[str]) -> str:
    return "_".join([*tokens[:-1], _singular(tokens[-1])]) if tokens else ""


class Reference(FrozenRecord):
    """A column that points at another table, and how we know."""

    __slots__ = __match_args__ = ("column", "target", "how", "strong", "order")
    column: str
    target: str | None  # the table it points at, when known
    how: str  # "FOREIGN KEY", "name", "name only"
    strong: bool  # a foreign key or a name matched to a table of the input
    order: int  # foreign-key order first, then column order

    def __init__(self, column: str, target: str | None, how: str, strong: bool, order: int) -> None:
        _set(self, "column", column)
        _set(self, "target", target)
        _set(self, "how", how)
        _set(self, "strong", strong)
        _set(self, "order", order)


@dataclass(init=False, repr=False, eq=False, slots=True)  # a dataclass for `replace`; methods written here
class Link(FrozenRecord):
    """A link table: its link columns in key order, the surrogate key, the UNIQUE key on the pair."""

    table: Table
    columns: tuple[Reference, ...]
    surrogate: Column
    unique: Index | None
    others: tuple[str, ...]  # the other columns and what they are, for the evidence

    def __init__(
        self, table: Table, columns: tuple[Reference, ...], surrogate: Column, unique: Index | None,
        others: tuple[str, ...],
    ) -> None:
        _set(self, "table", table)
        _set(self, "columns", columns)
        _set(self, "surrogate", surrogate)
        _set(self, "unique", unique)
        _set(self, "others", others)


class EntityIndex:
    """Table names of the input by entity, so that `product_id` and `RoleId` can be matched to the
    tables they name: `products` answers to product, and a table whose name starts with a prefix
    that at least three tables share (`oc_`, `t_ds_`, `ums_`) answers without it too (`oc_product`
    to product)."""

    def __init__(self, model: SchemaModel) -> None:
        #: how the server compares table names (`SchemaModel.key`: lower_case_table_names)
        self.key = model.key
        tables = [t for t in model.tables() if not t.view_standin]
        names = {t.name: _tokens(t.name) for t in tables}
        starts: dict[tuple[str, ...], int] = {}
        for tokens in names.values():
            for n in range(1, min(3, len(tokens))):
                starts[tuple(tokens[:n])] = starts.get(tuple(tokens[:n]), 0) + 1
        self._by_entity: dict[str, set[tuple[int, str]]] = {}
        for name, tokens in names.items():
            for skip in range(min(3, len(tokens))):
                if skip == 0 or starts.get(tuple(tokens[:skip]), 0) >= 3:
                    self._by_entity.setdefault(_entity(tokens[skip:]), set()).add((skip, name))
        self._by_key_column: dict[str, set[str]] = {}
        for table in tables:
            primary = table.primary_key
            if primary is not None and len(primary.columns) == 1 and primary.columns[0].name.lower() != "id":
                self._by_key_column.setdefault(primary.columns[0].name.lower(), set()).add(table.name)

    def resolve(self, tokens: Sequence[str], column: str, own: str, *, whole: bool = False) -> str | None:
        """The table a column named with these tokens (its id suffix removed) points at: one named
        after the words, else one whose key column has this very name, else (unless `whole`) one
        named after the last words (`zone_country_id` -> countries)."""
        found = self._named(tokens, own)
        if found is not None:
            return found
        for name in sorted(self._by_key_column.get(column.lower(), set()) - {own}):
            return name
        for skip in range(1, 0 if whole else len(tokens)):
            found = self._named(tokens[skip:], own)
            if found is not None:
                return found
        return None

    def _named(self, tokens: Sequence[str], own: str) -> str | None:
        found = min((c for c in self._by_entity.get(_entity(tokens), ()) if c[1] != own), default=None)
        return found[1] if found else None


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
            "The trade: inserts go in random key order and secondary indexes grow (each carries the wider key)."
        ),
        evidence=(
            "A table with a single-column surrogate PRIMARY KEY (AUTO_INCREMENT or application-assigned) plus two, "
            "rarely three, columns that point at other tables (a FOREIGN KEY, column-level REFERENCES, or an "
            "`<entity>_id` name matched to a table of the input; a column whose name matches no table counts when "
            "a UNIQUE key or a composite index pairs it with one that does), and otherwise only bookkeeping "
            "columns (timestamps, created_by, sort order, soft delete) and at most two small attributes (role, "
            "permission, flag). Not link tables: logs and histories (names with log/history/audit, a validity "
            "period, a UNIQUE key that adds a date or a soft-delete column to the pair), translation tables "
            "(keyed by language), tables carrying payload (EAV values, names, amounts), rows other tables "
            "reference by their id (they have an identity of their own), a key that is itself another table's id "
            "(a one-to-one extension), a parent_* column (a hierarchy), and pairs known from names alone whose "
            "columns are all nullable (nothing says a row links anything). Tables already clustered on a "
            "composite key get nothing. Non-InnoDB tables (MyISAM ...) get an info: it applies once they move to "
            "InnoDB; a template placeholder engine (`@ZM_MYSQL_ENGINE@`) counts as InnoDB, the installers' default. "
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
            "stays indexed (AUTO_INCREMENT needs it), and `KEY (b)` is added when no index starts with b. When no "
            "UNIQUE key covers the pair, duplicate pairs must go first: the message gives the query that lists them."
        ),
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        entities = EntityIndex(model)
        referenced = _referenced_columns(model)
        evidence = context.app_evidence
        # tenant dumps repeat one definition per schema: the answer depends on the body and the name only
        seen: dict[tuple[int, str], Link | None] = {}
        for table in model.tables():
            if table.view_standin or table.temporary:
                continue
            key = (table.body.definition_id, model.key(table.name))
            if key not in seen:
                seen[key] = find_link(table, entities, referenced)
            link = seen[key]
            declared = evidence.link(table) if evidence is not None else None
            if declared is not None and declared.implicit:
                declared = None  # Prisma's own relation table: no surrogate key to replace
            if link is None and declared is not None:
                link = link_from_model(table, declared)
            if link is not None:
                yield self._finding(link if link.table is table else replace(link, table=table), declared)

    def _finding(self, link: Link, declared: LinkEvidence | None = None) -> Finding:
        table = link.table
        names = [r.column for r in link.columns]
        pair = ", ".join(quote(n) for n in names)
        sides = " and ".join(r.target or r.column for r in link.columns)
        surrogate = link.surrogate.name
        how = "AUTO_INCREMENT" if link.surrogate.auto_increment else "application-assigned"
        message = [
            f"{table.name} links {sides} through ({pair}) but is clustered on its surrogate {how} key "
            f"{quote(surrogate)}: the rows of one {names[0]} lie wherever their ids fell, one page read per row "
            "(Percona: 300 selects/s x 100 links = up to 30,000 page reads/s). Clustered on "
            f"PRIMARY KEY ({pair}) with KEY ({quote(surrogate)}) they sit together (~588 page reads/s for the same "
            "load). The trade: inserts go in random key order and secondary indexes carry the wider key."
        ]
        nullable = [n for n in names if (c := table.column(n)) is not None and c.nullable]
        if nullable:
            message.append(
                f"ADD PRIMARY KEY makes {', '.join(nullable)} NOT NULL and fails while any row holds NULL there."
            )
        if link.unique is None:
            message.append(
                f"No UNIQUE key covers ({pair}): duplicate pairs must go first; this lists them: "
                f"{_duplicates_query(table, names)}"
            )
        if declared is not None and declared.source == "prisma":
            columns = ", ".join(declared.columns)
            message.append(
                f"The model {declared.model} ({declared.where}) relates {declared.models[0]} and {declared.models[1]}: "
                f"in Prisma, give it @@id([{columns}]) in place of its own id and let `prisma migrate dev` write the "
                "migration (an ALTER of your own is drift to Prisma)."
            )
        severity: Severity = "warning"
        if not _clusters(table):
            severity = "info"
            message.append(
                f"ENGINE={table.engine} has no clustered index: this applies once the table moves to InnoDB."
            )
        evidence = (
            "link columns " + ", ".join(f"{r.column} -> {r.target or '?'} ({r.how})" for r in link.columns)
            + f"; current key PRIMARY KEY ({quote(surrogate)}) {how}"
            + (f"; UNIQUE {link.unique.name} on the pair" if link.unique is not None else "; no UNIQUE key on the pair")
            + (f"; other columns: {', '.join(link.others)}" if link.others else "")
        )
        return self.finding(
            table, " ".join(message), severity=severity, where=table.defined, evidence=evidence,
            fix=_fix(link), subject=",".join(names),
            summary=f"{table.name}: link table clustered on surrogate {quote(surrogate)}, not on ({pair})",
        )


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
    unique = _unique_on_pair(table, primary, {r.column.lower() for r in references})
    if unique == "repeats":
        return None
    others = tuple(f"{c.name}" for c in table.columns.values()
                   if c is not surrogate and c.name.lower() not in {r.column.lower() for r in references})
    return Link(table, tuple(references), surrogate, unique if isinstance(unique, Index) else None, others)



def find_link(table: Table, entities: EntityIndex, referenced: set[tuple[str, str]]) -> Link | None:
    """The link this table makes, if it is a many-to-many link table clustered on a surrogate key."""
    primary = table.primary_key
    if primary is None or len(primary.columns) != 1 or primary.columns[0].expression:
        return None  # no key is no-primary-key's business; a composite key is already clustered on something
    surrogate = table.column(primary.columns[0].name)
    if surrogate is None or not _surrogate_like(surrogate):
        return None
    if set(_tokens(table.name)) & _LOG_TOKENS:
        return None
    if (entities.key(table.name), surrogate.name.lower()) in referenced:
        return None  # other tables point at its rows: they have an identity of their own
    if _points_elsewhere(table, surrogate, entities):
        return None  # the key is another table's id (a 1:1 extension), not a surrogate
    prefix = _common_prefix(table)
    references: list[Reference] = []
    others: list[str] = []
    attributes = 0
    for position, column in enumerate(table.columns.values()):
        if column is surrogate:
            continue
        tokens = _tokens(column.name)
        if set(tokens) & _LANGUAGE_TOKENS:
            return None  # a translation table
        if _is_bookkeeping(column, tokens):
            if column.type in _TEMPORAL_TYPES and _is_period(tokens):
                return None  # a validity period: a history of links, the pair repeats by design
            others.append(f"{column.name} (bookkeeping)")
            continue
        reference = _reference(table, column, tokens, prefix, position, entities)
        if reference is not None:
            if reference.target == table.name or "parent" in tokens or "child" in tokens:
                return None  # a hierarchy: each row has one parent
            references.append(reference)
            continue
        if _is_small_attribute(column, tokens):
            attributes += 1
            others.append(f"{column.name} (attribute)")
            continue
        return None  # payload: an entity, an EAV value, a translation
    if attributes > 2 or not 2 <= len(references) <= 3 or not any(r.strong for r in references):
        return None
    by_name = {r.column.lower(): r for r in references}
    unique = _unique_on_pair(table, primary, set(by_name))
    if unique == "repeats":
        return None  # the UNIQUE key adds a date or a flag to the pair: the pair repeats by design
    if isinstance(unique, Index):
        ordered = tuple(by_name[n.lower()] for n in unique.column_names)
        if len(ordered) < len(references) and not all(r.strong for r in ordered):
            return None
        return Link(table, ordered, surrogate, unique, tuple(others))
    declared = any(r.how == "FOREIGN KEY" for r in references) or _indexed_together(table, set(by_name))
    if not declared and not all(r.strong for r in references):
        return None  # a name that matches no table, and no key that pairs it with one that does
    if not declared and all(c.nullable for r in references if (c := table.column(r.column)) is not None):
        return None  # names alone, and every one optional: nothing says a row links anything
    ordered = tuple(sorted(references, key=lambda r: r.order))
    return Link(table, ordered, surrogate, None, tuple(others))


def _surrogate_like(column: Column) -> bool:
    """An integer key, or a string one named like an id (id, uuid, guid)."""
    if column.type in _INTEGER_TYPES:
        return True
    return column.type in _STRING_KEY_TYPES and bool(set(_tokens(column.name)) & {"id", "uuid", "guid"})


def _common_prefix(table: Table) -> str | None:
    """MediaWiki-style column prefixes (`etp_id`, `etp_page`, `etp_event`): the shared first word."""
    firsts = {(_tokens(c.name) or [""])[0] for c in table.columns.values()}
    if len(table.columns) >= 2 and len(firsts) == 1 and all("_" in c.name for c in table.columns.values()):
        return firsts.pop()
    return None


def _reference(
    table: Table, column: Column, tokens: Sequence[str], prefix: str | None, position: int, entities: EntityIndex
) -> Reference | None:
    name = column.name.lower()
    for n, fk in enumerate(table.foreign_keys):
        if name in (c.lower() for c in fk.columns):
            own = entities.key(fk.ref_table) == entities.key(table.name)
            return Reference(column.name, table.name if own else fk.ref_table, "FOREIGN KEY", True, n)
    key_type = column.type in _INTEGER_TYPES or (
        column.type in _STRING_KEY_TYPES and (column.length is None or column.length <= 64)
    )
    if not key_type or len(tokens) < 2 and not prefix:
        return None
    order = 1000 + position
    words = tokens[1:] if prefix and len(tokens) > 1 else tokens
    id_named = len(words) >= 2 and words[-1] in ("id", "uuid", "guid", "no")
    stem = words[:-1] if id_named else words
    if id_named or prefix:
        target = entities.resolve(stem, column.name, table.name)
        if target is not None:
            return Reference(column.name, target, "name", True, order)
    if id_named and (column.type in _INTEGER_TYPES or column.length in (16, 32, 36) or column.type == "UUID"):
        return Reference(column.name, None, "name only", False, order)
    if prefix and len(words) == 1 and column.type in _INTEGER_TYPES:
        return Reference(column.name, None, "name only", False, order)  # `etp_page`: an entity word
    return None


def _points_elsewhere(table: Table, column: Column, entities: EntityIndex) -> bool:
    """The key column is a foreign key, or its whole name is another table's id (`products_id`)."""
    name = column.name.lower()
    if any(name in (c.lower() for c in fk.columns) for fk in table.foreign_keys):
        return True
    tokens = _tokens(column.name)
    if len(tokens) < 2 or tokens[-1] not in ("id", "uuid", "guid"):
        return False
    return entities.resolve(tokens[:-1], column.name, table.name, whole=True) is not None


def _is_bookkeeping(column: Column, tokens: Sequence[str]) -> bool:
    """Timestamps, who created or changed the row, sort order, soft delete, row version."""
    if column.type in _TEMPORAL_TYPES:
        return True
    if not tokens:
        return False
    if "by" in tokens or set(tokens) & {"creator", "updater", "modifier"}:
        return True  # created_by, LastUpdatedBy, created_by_id
    if tokens[-1] in ("id", "uuid", "guid"):
        return False  # order_id, update_id: a reference, whatever its words
    return bool(set(tokens) & _BOOKKEEPING_TOKENS) or "".join(tokens) in _BOOKKEEPING_TOKENS


def _is_period(tokens: Sequence[str]) -> bool:
    return bool(tokens) and (tokens[0] in _PERIOD_TOKENS or tokens[-1] in _PERIOD_TOKENS)


def _is_small_attribute(column: Column, tokens: Sequence[str]) -> bool:
    if column.type in _FLAG_TYPES or (column.type == "CHAR" and (column.length or 1) <= 2):
        return True
    small_type = column.type in _INTEGER_TYPES or (
        column.type in ("CHAR", "VARCHAR") and (column.length or 0) <= 64
    )
    return small_type and bool(set(tokens) & _ATTRIBUTE_TOKENS)


def _unique_on_pair(table: Table, primary: Index, references: set[str]) -> Index | str | None:
    """The UNIQUE key whose columns are all link columns (at least two), "repeats" when a UNIQUE
    key holds the link columns plus something else, or None."""
    repeats = False
    for index in table.indexes:
        if index.kind != "unique" or index is primary or any(p.prefix or p.expression for p in index.columns):
            continue
        names = {n.lower() for n in index.column_names}
        inside = names & references
        if len(inside) < 2:
            continue
        if names <= references:
            return index
        repeats = True
    return "repeats" if repeats else None


def _indexed_together(table: Table, references: set[str]) -> bool:
    return any(
        index.kind != "primary" and references <= {n.lower() for n in index.column_names} for index in table.indexes
    )


def _referenced_columns(model: SchemaModel) -> set[tuple[str, str]]:
    """(table, column) that some foreign key of another table points at: the table's name as the
    model compares it (`SchemaModel.key`), the column's in lower case."""
    found: set[tuple[str, str]] = set()
    for table in model.tables():
        for fk in table.foreign_keys:
            referenced = model.key(fk.ref_table)
            if referenced == model.key(table.name):
                continue
            for column in fk.ref_columns:
                found.add((referenced, column.lower()))
    return found


def _clusters(table: Table) -> bool:
    """InnoDB (or no engine given), or a template placeholder the installer fills (InnoDB by default)."""
    return table.is_innodb or not _IDENTIFIER.match(table.engine or "")


# -- the fix -------------------------------------------------------------------------------------
def _fix(link: Link) -> str:
    table = link.table
    names = [r.column for r in link.columns]
    pair = ", ".join(quote(n) for n in names)
    actions = ["DROP PRIMARY KEY"]
    if link.unique is not None and link.unique.name:
        actions.append(f"DROP INDEX {quote(link.unique.name)}")
    actions.append(f"ADD PRIMARY KEY ({pair})")
    kept = [i for i in table.indexes if i.kind != "primary" and i is not link.unique]

    def indexed(column: str) -> bool:
        return any(i.column_names and i.column_names[0].lower() == column.lower() for i in kept)

    if not indexed(link.surrogate.name):
        actions.append(f"ADD KEY ({quote(link.surrogate.name)})")
    if not indexed(names[1]):
        actions.append(f"ADD KEY ({quote(names[1])})")
    return f"ALTER TABLE {qualified(table)} " + ", ".join(actions) + ";"


def _duplicates_query(table: Table, names: list[str]) -> str:
    columns = ", ".join(quote(n) for n in names)
    return f"SELECT {columns}, COUNT(*) AS copies FROM {qualified(table)} GROUP BY {columns} HAVING COUNT(*) > 1;"
