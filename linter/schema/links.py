"""Which tables are many-to-many links, and which columns are a link's identity: a model fact.

A link table (user <-> group, product <-> category) relates two (rarely three) entities; its rows
are identified by the pair of references and looked up by one side: "the groups of user 7". What
InnoDB should cluster such a table on follows from that: the pair, so one side's rows share a page
or two, not a surrogate id that scatters them one page read per row. Several rules judge a table's
clustered key and must agree on what a link table is: link-table-primary-key flags one clustered on
a surrogate and proposes the pair; wide-primary-key and uuid-primary-key must not propose the
surrogate back for one clustered on the pair (each rule's fix would bring the other's finding, a
ping-pong a user can never get out of). So it is decided once, here, from the model alone, the same
way whichever key the table is clustered on (`link_identity`).

The evidence is structural first: a UNIQUE (or PRIMARY) key on the pair (with at most two small
qualifiers beside it: a soft-delete stamp, a type, a scope), foreign keys, both references indexed;
names second (`<entity>_id`, `fk_<entity>`, `<entity>_code`, `<entity>_name` matched to a table of
the table's own schema: `linter.schema.entities`). The other columns must only describe the pair.

Cost: the foreign-key targets and the entity index once per model, each table judged once (kept in
`model.derived`); a table's judgement reads its own columns and keys and a few tables it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from linter.record import FrozenRecord
from linter.parse.elements import Column, Index
from linter.schema.entities import EntityIndex, entity as _entity, entity_index, name_tokens as _tokens
from linter.schema.model import SchemaModel, Table

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

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
    """A link table: its link columns in key order, its identity (`key`), the UNIQUE key on the
    pair, and what InnoDB clusters it on: a surrogate column (`surrogate`, `clustered` its key) or
    the identity itself (`on_identity`: `clustered` is that key; `surrogate` then is the id column
    kept beside it with a key of its own, if any)."""

    table: Table
    columns: tuple[Reference, ...]
    surrogate: Column | None
    unique: Index | None
    others: tuple[str, ...]  # the other columns and what they are, for the evidence
    #: the key InnoDB clusters on: the surrogate's (the PRIMARY KEY, or with none a UNIQUE key), or
    #: with `on_identity` the composite key that identifies the row
    clustered: Index | None
    #: why the columns are the pair (a UNIQUE key on them, foreign keys, names, indexes)
    why: str
    #: the row's identity: the columns of the UNIQUE (or clustered) key that identifies the row (with
    #: the qualifiers and scope it holds), else the pair's; what the table should be clustered on
    key: tuple[str, ...]
    #: InnoDB clusters the table on its identity already (a composite PRIMARY KEY, or UNIQUE key it
    #: clusters on, that is the pair)
    on_identity: bool

    def __init__(
        self, table: Table, columns: tuple[Reference, ...], surrogate: Column | None, unique: Index | None,
        others: tuple[str, ...], clustered: Index | None = None, why: str = "", key: tuple[str, ...] | None = None,
        on_identity: bool = False,
    ) -> None:
        _set(self, "table", table)
        _set(self, "columns", columns)
        _set(self, "surrogate", surrogate)
        _set(self, "unique", unique)
        _set(self, "others", others)
        _set(self, "clustered", clustered)
        _set(self, "why", why)
        _set(self, "key", key if key is not None else tuple(r.column for r in columns))
        _set(self, "on_identity", on_identity)

    def is_clustered_on(self, index: Index) -> bool:
        """Whether `index` is the link's identity: the pair (and its qualifiers) a link table looked
        up by one side should be clustered on."""
        return self.on_identity and index is self.clustered


def link_identity(model: SchemaModel, table: Table) -> Link | None:
    """The link this table makes, or None: the one answer to "is it a many-to-many link table, and
    which columns are its identity", whichever key InnoDB clusters it on (a surrogate id, or the
    pair itself). Judged once per table (kept in `model.derived`), from the finished model."""
    judged = model.derived.get("links")
    if judged is None:
        judged = model.derived["links"] = {}
    known: dict[int, tuple[Table, Link | None]] = judged  # type: ignore[assignment]
    found = known.get(id(table))
    if found is None or found[0] is not table:
        found = known[id(table)] = (table, find_link(table, entity_index(model), referenced_columns(model), model))
    return found[1]


def find_link(table: Table, entities: EntityIndex, referenced: set[tuple[str, str]],
              model: SchemaModel | None = None) -> Link | None:
    """The link this table makes, if it is a many-to-many link table (`link_identity` keeps the
    answer for the model).

    The idea, not a naming habit: the row is identified by the pair (rarely three) of references it
    links and looked up by one side of it, and its other columns only describe the pair. InnoDB
    clusters it on a single surrogate column (the PRIMARY KEY, or with no PRIMARY KEY the UNIQUE key
    InnoDB clusters on), or on the pair itself (`Link.on_identity`): the same columns make the same
    link either way, so that no rule's fix turns a link into something another rule calls wrong.
    Clustered on the pair, the key must lead with a side (or the scope): a key led by a qualifier (a
    date) keeps no side's rows together. The evidence is structural first: a UNIQUE key on the pair
    (with at most two small qualifiers beside it: a soft-delete stamp, a type, a scope), foreign
    keys, both references indexed; names second (`<entity>_id`, `fk_<entity>`, `<entity>_code`,
    `<entity>_name` matched to a table of the table's own schema, and in a UNIQUE pair any name or
    code). A reference every other side's table holds too (a tenant, a workspace) is the scope the
    pair lives in, not a side of it. `model`: to find the sides' tables (the scope)."""
    clustered = table.clustered_index
    if clustered is None or not clustered.columns or any(p.expression or p.prefix for p in clustered.columns):
        return None  # the hidden row id is no-primary-key's business
    on_identity = len(clustered.columns) > 1
    if on_identity:
        # clustered on a composite key: a link when that key is the pair; an id column kept beside it
        # with a key of its own (what link-table-primary-key's fix leaves) is the old surrogate
        surrogate = _kept_surrogate(table, clustered, entities)
    else:
        surrogate = table.column(clustered.columns[0].name)
        if surrogate is None or not _surrogate_like(surrogate):
            return None
        if _points_elsewhere(table, surrogate, entities):
            return None  # the key is another table's id (a 1:1 extension), not a surrogate
    if surrogate is not None and (entities.key(table.name), surrogate.name.lower()) in referenced:
        return None  # other tables point at its rows: they have an identity of their own
    prefix = _common_prefix(table)
    references: list[Reference] = []
    natural: list[Reference] = []  # names or codes of an entity (`user_name`, `org_code`): sides only in a key
    rest: list[tuple[Column, tuple[str, ...]]] = []
    others: list[str] = []
    for position, column in enumerate(table.columns.values()):
        if column is surrogate:
            continue
        tokens = _tokens(column.name)
        if set(tokens) & _LANGUAGE_TOKENS:
            return None  # a translation table
        if column.type in _TEMPORAL_TYPES or _is_who(tokens):
            if column.type in _TEMPORAL_TYPES and _is_period(tokens):
                return None  # a validity period: a history of links, the pair repeats by design
            others.append(f"{column.name} (bookkeeping)")
            continue
        reference = _reference(table, column, tokens, prefix, position, entities)
        if reference is None or not reference.strong:
            by_name = _natural_reference(table, column, tokens, position, entities, model)
            if by_name is not None and (by_name.strong or reference is None):
                natural.append(by_name)
                continue
        if reference is not None and (reference.strong or not _is_bookkeeping(column, tokens)):
            if reference.how != "FOREIGN KEY" and set(_stem(tokens)) <= {"parent", "child"}:
                return None  # `parent_id`: a tree pointer, not a side of a pair
            if reference.target is not None and entities.key(reference.target) == entities.key(table.name):
                return None  # a tree: each row points at another row of its own table
            references.append(reference)
            continue
        if _is_bookkeeping(column, tokens):
            others.append(f"{column.name} (bookkeeping)")
            continue
        rest.append((column, tokens))
    # a name of an entity another side already points at is a copy of it (`user_name` beside `user_id`)
    pointed = {entities.key(r.target) for r in references if r.target is not None}
    for found in list(natural):
        if found.target is not None and entities.key(found.target) in pointed:
            natural.remove(found)
            others.append(f"{found.column} (copy of the linked entity's {_tokens(found.column)[-1]})")
    scopes = _scopes(table, references, model)
    if scopes:
        references = [r for r in references if r not in scopes]
        others.extend(f"{r.column} (the scope both sides belong to)" for r in scopes)
    identity = identity_key(table, None if on_identity else clustered, references, natural, scopes)
    if identity == "repeats" or identity == "one-sided":
        return None  # a UNIQUE key says each row belongs to one object, or adds content to the pair
    if on_identity and identity is not clustered:
        return None  # clustered on a composite key that is not the pair: whatever it is, no link's identity
    key: tuple[str, ...] | None = None
    if isinstance(identity, Index):
        by_name = {r.column.lower(): r for r in (*references, *natural)}
        pair = tuple(by_name[n.lower()] for n in identity.column_names if n.lower() in by_name)
        if not any(r.strong for r in pair) and len(pair) < len(references):
            return None  # a pair of unknown names beside a known reference: a mapping, not a link
        qualifiers = [n for n in identity.column_names if n.lower() not in by_name and not _is_scope(n, scopes)]
        if on_identity and identity.column_names[0] in qualifiers:
            return None  # clustered by a qualifier (a date, a type): one side's rows are not together
        if set(_tokens(table.name)) & _LOG_TOKENS and any(
                (c := table.column(n)) is not None and c.type in _TEMPORAL_TYPES for n in qualifiers):
            return None  # a log or history unique by the time beside the pair: the pair repeats
        others.extend(f"{n} (in the UNIQUE key with the pair)" for n in qualifiers)
        # references the UNIQUE key leaves out describe the pair (a server id, an owner ...)
        for extra in references:
            if extra not in pair:
                rest.append((table.column(extra.column), _tokens(extra.column)))  # type: ignore[arg-type]
        for extra in natural:
            if extra not in pair:
                rest.append((table.column(extra.column), _tokens(extra.column)))  # type: ignore[arg-type]
        references = list(pair)
        key = tuple(identity.column_names)
    else:
        # a name no key pairs is no side: it describes the pair, or is content; a code of an entity of the
        # input that every row has (`user_code NOT NULL` -> users) is one
        for extra in natural:
            if extra.strong and not _optional(table, extra) and not _tokens(extra.column)[-1].endswith("name"):
                references.append(extra)
            elif extra.strong:
                return None  # an optional reference to a third entity (`order_number` -> orders): no pair of two
            else:
                rest.append((table.column(extra.column), _tokens(extra.column)))  # type: ignore[arg-type]
        if set(_tokens(table.name)) & _LOG_TOKENS:
            return None  # a log or history without a UNIQUE key on the pair: the pair repeats
        if len(references) > 2:
            placed = [r for r in references if _deployment_id(r)]
            others.extend(f"{r.column} (where the row lives)" for r in placed)
            references = [r for r in references if r not in placed]
    if not 2 <= len(references) <= 3:
        return None
    foreign = {r.order for r in references if r.how == "FOREIGN KEY"}  # (a foreign key's order: its place)
    sides = len(foreign) + sum(r.how != "FOREIGN KEY" for r in references)
    if sides < 2:
        return None  # the columns of one composite foreign key: one parent (a 1:1 extension, a child), no pair
    names = {r.column.lower() for r in references}
    if (len(references) == 3 and not isinstance(identity, Index) and sum(_optional(table, r) for r in references) >= 2
            and not _indexed_together(table, names)):
        # an exclusive arc: a row refers to one of several things (the others NULL or 0), and no key says
        # the three belong together
        return None
    qualified = [r for r in references if set(_tokens(r.column)) & {"parent", "child"}]
    if qualified and len(references) > 2:
        return None  # a tree edge placed in some context, not a pair
    described = _described(table, rest, references, identified=isinstance(identity, Index))
    if described is None:
        return None  # payload: an entity, an EAV value
    others.extend(described)
    evidence = _pair_evidence(table, references, identity if isinstance(identity, Index) else None)
    if evidence is None:
        return None
    ordered = tuple(references) if isinstance(identity, Index) else tuple(sorted(references, key=lambda r: r.order))
    return Link(table, ordered, surrogate, identity if isinstance(identity, Index) else None, tuple(others), clustered,
                evidence, key=key, on_identity=on_identity)


def _kept_surrogate(table: Table, clustered: Index, entities: EntityIndex) -> Column | None:
    """Beside a composite clustered key, the id column a surrogate layout had, kept with a key of its
    own (an AUTO_INCREMENT column needs one; link-table-primary-key's fix keeps `KEY (id)`): an
    AUTO_INCREMENT column, or one named `id`, outside the key, that a single-column key leads and that
    is no other table's id. It is no column the pair is described by."""
    inside = {p.name.lower() for p in clustered.columns}
    for column in table.columns.values():
        if column.name.lower() in inside or not _surrogate_like(column):
            continue
        if not (column.auto_increment or _tokens(column.name) == ("id",)):
            continue
        if not any(len(i.columns) == 1 and i.column_names[0].lower() == column.name.lower() for i in table.indexes):
            continue
        if _points_elsewhere(table, column, entities):
            continue
        return column
    return None


def _is_scope(name: str, scopes: Sequence[Reference]) -> bool:
    return any(r.column.lower() == name.lower() for r in scopes)


def _scopes(table: Table, references: Sequence[Reference], model: SchemaModel | None) -> list[Reference]:
    """References every other side's table holds a column of the same name for (`tenant_id` in the
    link and in both users and groups): the scope the pair lives in, not a side of it. Structural:
    the sides' own tables say so. None without the model or with fewer than three references."""
    if model is None or len(references) < 3:
        return []
    tables: dict[str, Table | None] = {}
    for reference in references:
        target = reference.target
        if target is None or not reference.strong or "." in target:
            continue
        tables[reference.column.lower()] = model.find_table(table.schema, target)
    found = []
    for reference in references:
        sides = {id(t): t for column, t in tables.items() if column != reference.column.lower() and t is not None}
        if len(sides) >= 2 and all(t.column(reference.column) is not None for t in sides.values()):
            found.append(reference)  # (two distinct tables: two references to one table are no pair of sides)
    return found if len(references) - len(found) >= 2 else []


def identity_key(table: Table, clustered: Index | None, references: Sequence[Reference], natural: Sequence[Reference],
              scopes: Sequence[Reference]) -> Index | str | None:
    """The UNIQUE key that identifies a row by its pair, as InnoDB could cluster on it: two or three
    sides (references, or names and codes of entities) and at most two small qualifiers (a
    soft-delete stamp, a type, a scope the sides live in); "one-sided" when a UNIQUE key holds one
    side alone beside nothing but qualifiers (each row belongs to one object: one-to-many, whatever
    a tenant or environment column beside it says); "repeats" when one holds the sides and content
    besides; else None."""
    sides = {r.column.lower() for r in references} | {r.column.lower() for r in natural}
    scope = {r.column.lower() for r in scopes}
    one_sided = repeats = False
    found: Index | None = None
    for index in table.indexes:
        if index.kind not in ("unique", "primary") or index is clustered or any(p.prefix or p.expression for p in index.columns):
            continue
        names = [n.lower() for n in index.column_names]
        inside = [n for n in names if n in sides]
        extra = [n for n in names if n not in sides and n not in scope]
        small = len(extra) <= 2 and all(_qualifier(table.column(n)) for n in extra)
        if len(inside) == 1 and (small or not extra):
            one_sided = True
        elif 2 <= len(inside) <= 3:
            if small:
                if found is None or len(extra) < sum(1 for n in found.column_names
                                                     if n.lower() not in sides and n.lower() not in scope):
                    found = index
            else:
                repeats = True
    if one_sided:
        return "one-sided"
    if found is not None:
        return found
    return "repeats" if repeats else None


def _qualifier(column: Column | None) -> bool:
    """A small column that can stand beside the pair in its UNIQUE key and still leave the pair the
    row's identity: a date or stamp (soft delete), a number or flag (a type, a version), a short
    type code. Not a name or code of its own (`NamespaceName`): then the row has an identity of its own."""
    if column is None or column.is_large:
        return False
    if column.type in _TEMPORAL_TYPES or column.type in _INTEGER_TYPES or column.type in _FLAG_TYPES:
        return True
    return (column.type in ("CHAR", "VARCHAR", "BINARY", "VARBINARY") and (column.length or 0) <= 32
            and _natural_stem(_tokens(column.name)) is None)


#: words that end or start the name of an entity's natural key (its name, its code)
_NATURAL_SUFFIXES = frozenset({"name", "code", "key", "no", "num", "number", "ref", "sn"})
_REFERENCE_PREFIXES = frozenset({"fk", "ref"})


def _natural_stem(tokens: Sequence[str]) -> tuple[str, ...] | None:
    """The entity words of a name or code column: `user_name`, `UserName`, `username` -> (user,);
    `org_code` -> (org,); `order_no` -> (order,); `fk_user` -> (user,); None when it names none."""
    if len(tokens) >= 2 and tokens[-1] in _NATURAL_SUFFIXES:
        return tuple(tokens[:-1])
    if len(tokens) >= 2 and tokens[0] in _REFERENCE_PREFIXES:
        return tuple(tokens[1:]) if tokens[-1] not in ("id", "uuid", "guid") else tuple(tokens[1:-1])
    if len(tokens) == 1 and len(tokens[0]) > 6 and tokens[0].endswith("name"):
        return (tokens[0][:-4],)  # username, groupname
    return None


def _natural_reference(table: Table, column: Column, tokens: Sequence[str], position: int,
                       entities: EntityIndex, model: SchemaModel | None) -> Reference | None:
    """A column that names another table's row by that table's natural key (its name or code: a
    single-column UNIQUE key there of the same kind of type), or whose whole name is such a table's
    (`worker_group` -> t_ds_worker_group with UNIQUE (name)): strong then; weak when no such table
    is in the input (a side only when a UNIQUE key pairs it). A name of the table's own entity
    (`NamespaceName` in Namespace) is its own identity, no reference. Keys are short: an integer, or
    a string of at most 255 characters."""
    if not (column.type in _INTEGER_TYPES or (column.type in _STRING_KEY_TYPES and (column.length or 0) <= 255)):
        return None
    stem = _natural_stem(tokens)
    if stem is not None and _names_own_entity(stem, table):
        return None
    for words in ((stem,) if stem else ()) + ((tuple(tokens),) if len(tokens) >= 2 else ()):
        found = entities.resolve(words, column.name, table, whole=True)
        if found is not None and found[1] and entities.key(found[0]) != entities.key(table.name) \
                and _has_natural_key(model, table, found[0], column):
            return Reference(column.name, found[0], "name, a natural key", True, 1000 + position)
    if stem is not None:
        return Reference(column.name, None, "name only, a natural key", False, 1000 + position)
    return None


def _names_own_entity(stem: Sequence[str], table: Table) -> bool:
    """`NamespaceName` in Namespace: the words name the table's own entity (its whole name: a link
    table is often named after its sides, `org_dc` with `dc_code`)."""
    return _entity(stem) == _entity(_tokens(table.name))


def _has_natural_key(model: SchemaModel | None, table: Table, name: str, column: Column) -> bool:
    """Whether the table `name` (of `table`'s schema) can be looked up by a value like `column`'s:
    a single-column UNIQUE or PRIMARY KEY there on a column of the same kind (text or number).
    Without the model: assumed (the entity index matched the name)."""
    if model is None:
        return True
    target = model.find_table(table.schema, name)
    if target is None:
        return False
    text = column.type in _STRING_KEY_TYPES
    for index in target.indexes:
        if index.kind in ("primary", "unique") and len(index.columns) == 1 and not index.columns[0].expression:
            key = target.column(index.columns[0].name)
            if key is not None and (key.type in _STRING_KEY_TYPES) == text:
                return True
    return False


def _pair_evidence(table: Table, references: Sequence[Reference], unique: Index | None) -> str | None:
    """Why these columns are the pair the table is about, or None when nothing says so: a UNIQUE key
    on them, foreign keys or names matched to tables, both indexed."""
    names = {r.column.lower() for r in references}
    strong = [r for r in references if r.strong]
    if unique is not None:
        return "the PRIMARY KEY on them" if unique.kind == "primary" else f"UNIQUE key {unique.name} on them"
    fks = [r for r in references if r.how == "FOREIGN KEY"]
    together = _indexed_together(table, names)
    each = all(_leads_index(table, r.column) for r in references)
    if not strong and not (together or each):
        return None  # names that match no table, and no key that says they are a pair
    if not fks and not together and not each and len(strong) < len(references):
        return None  # a name that matches no table, and no key that pairs it with one that does
    if not fks and not together and all(c.nullable for r in references if (c := table.column(r.column)) is not None):
        return None  # names alone, and every one optional: nothing says a row links anything
    why = []
    if fks:
        why.append("foreign keys" if len(fks) > 1 else "a foreign key")
    if len(strong) > len(fks):
        why.append("names matching tables")
    if together:
        why.append("an index on the pair")
    elif each:
        why.append("each indexed")
    return ", ".join(why)


def _optional(table: Table, reference: Reference) -> bool:
    """A side that may be absent: NULL-able, or defaulting to 0 or '' (the NULL of schemas without NULLs)."""
    column = table.column(reference.column)
    if column is None:
        return False
    return column.nullable or (column.default or "").strip("'\"") in ("0", "")  and column.default is not None


def _leads_index(table: Table, column: str) -> bool:
    return any(i.column_names and i.column_names[0].lower() == column.lower() for i in table.indexes)


#: words of id columns that say where a row lives or runs (a server, a shard), not what it links
_DEPLOYMENT_TOKENS = frozenset({
    "server", "node", "host", "instance", "shard", "site", "region", "zone", "worker", "cluster", "datacenter",
    "dc", "partition", "env", "environment", "tenant",
})


def _deployment_id(reference: Reference) -> bool:
    """A column known only by its name (no foreign key, no table) that names a server, node or shard."""
    return not reference.strong and bool(set(_tokens(reference.column)) & _DEPLOYMENT_TOKENS)


#: words of columns that hold an entity's own content, not a description of a pair
_PAYLOAD_TOKENS = frozenset({
    "name", "description", "desc", "value", "val", "content", "contents", "text", "body", "data", "comment",
    "comments", "note", "notes", "message", "html", "json", "xml", "payload", "config", "settings", "params",
    "price", "amount", "cost", "total", "subtotal", "tax", "quantity", "qty", "balance", "answer", "summary",
    # a hash, token or secret is the identity of some content of its own
    "hash", "digest", "checksum", "signature", "token", "secret", "password", "key", "url", "path", "email",
})
#: numbers: a number column named as a count or frequency describes the pair it counts for
_NUMBER_TYPES = _INTEGER_TYPES | {"DECIMAL", "NUMERIC", "FLOAT", "DOUBLE", "REAL"}
_COUNT_TOKENS = frozenset({"frequency", "freq", "times", "occurrences", "number", "num", "interval", "period",
                           "repeat", "repeats", "attempts", "retries"})
#: words of small columns that describe a link: counters and limits, a place, a share, a label
_DESCRIBING_TOKENS = frozenset({
    "count", "counter", "counts", "hits", "uses", "used", "usage", "views", "clicks", "visits", "limit", "limits",
    "max", "min", "maximum", "minimum", "quota", "threshold", "capacity", "allowance", "remaining",
    "location", "loc", "lat", "lng", "lon", "latitude", "longitude", "x", "y", "z", "room", "slot", "seat",
    "percent", "percentage", "pct", "ratio", "share", "fraction", "factor", "score", "rating", "weight", "weighting",
    "title", "label", "alias", "nickname", "color", "colour", "icon", "guid", "uuid", "external",
    "server", "node", "host", "instance", "shard", "site", "region", "zone", "worker", "cluster",
})


def _described(
    table: Table, rest: Sequence[tuple[Column, tuple[str, ...]]], references: Sequence[Reference], *, identified: bool,
) -> list[str] | None:
    """What the columns besides the pair and the bookkeeping are, or None when one of them is payload.

    They may describe the pair: a role, a flag, a counter or limit, a place, a share or weight, a
    title, a server or node id, a GUID, a copy of a linked entity's name (`user_name` beside
    `user_id`). With a UNIQUE key on the pair (`identified`) the pair is the row's identity by
    declaration, so any small column describes it unless it holds content; without one, only the
    small attributes and describing columns named as such, at most two."""
    stems = {_entity(_stem(_tokens(r.column))) for r in references}
    found: list[str] = []
    for column, tokens in rest:
        words = set(tokens)
        if column.is_large:
            return None  # a document or a blob: content
        if _leads_index(table, column.name):
            return None  # rows are looked up by it: something of its own besides the pair
        small = (column.type not in ("CHAR", "VARCHAR", "BINARY", "VARBINARY") or (column.length or 0) <= 255)
        if not small:
            return None
        copy = len(tokens) >= 2 and _entity(tokens[:-1]) in stems and tokens[-1] in ("name", "title", "label", "code")
        if copy:
            found.append(f"{column.name} (copy of the linked entity's {tokens[-1]})")
            continue
        if _is_small_attribute(column, tokens):
            found.append(f"{column.name} (attribute)")
            continue
        if words & _DESCRIBING_TOKENS and not words & _PAYLOAD_TOKENS - {"title"}:
            found.append(f"{column.name} (describes the pair)")
            continue
        if column.type in _NUMBER_TYPES and words & _COUNT_TOKENS:
            found.append(f"{column.name} (how often, or how many, for the pair)")  # frequency_number, times
            continue
        if identified and not words & _PAYLOAD_TOKENS:
            found.append(f"{column.name} (describes the pair)")
            continue
        return None
    if len(found) > (6 if identified else 2):
        return None  # this much besides the pair makes it an entity
    return found


def _surrogate_like(column: Column) -> bool:
    """An integer key, or a string one named like an id (id, uuid, guid)."""
    if column.type in _INTEGER_TYPES:
        return True
    return column.type in _STRING_KEY_TYPES and bool(set(_tokens(column.name)) & {"id", "uuid", "guid"})


def _common_prefix(table: Table) -> str | None:
    """MediaWiki-style column prefixes (`etp_id`, `etp_page`, `etp_event`): the shared first word. An
    id word is none: `id_user`, `id_group` are references named id-first."""
    firsts = {(_tokens(c.name) or [""])[0] for c in table.columns.values()}
    if len(table.columns) >= 2 and len(firsts) == 1 and all("_" in c.name for c in table.columns.values()):
        first = firsts.pop()
        return None if first in _ID_WORDS else first
    return None


_ID_WORDS = ("id", "uuid", "guid", "no", "key", "code")


def _stem(tokens: Sequence[str]) -> tuple[str, ...]:
    """The entity words of a reference's name: `user_id`, `UserID`, `userId` -> (user,); `id_user`
    -> (user,); `userid` -> (user,); `parent_category_id` -> (parent, category); else the words."""
    if len(tokens) >= 2 and tokens[-1] in ("id", "uuid", "guid", "no"):
        return tuple(tokens[:-1])
    if len(tokens) >= 2 and tokens[0] == "id":
        return tuple(tokens[1:])
    if len(tokens) == 1 and len(tokens[0]) > 4 and tokens[0].endswith("id") and not tokens[0].endswith("uid"):
        return (tokens[0][:-2],)
    return tuple(tokens)


def _id_named(tokens: Sequence[str]) -> bool:
    """Named like a reference: `<entity>_id`, `id_<entity>`, `<entity>id` (UserID, userid, user_uuid)."""
    return _stem(tokens) != tuple(tokens)


def _reference(
    table: Table, column: Column, tokens: Sequence[str], prefix: str | None, position: int, entities: EntityIndex
) -> Reference | None:
    name = column.name.lower()
    for n, fk in enumerate(table.foreign_keys):
        if name in (c.lower() for c in fk.columns):
            own = (entities.key(fk.ref_table) == entities.key(table.name)
                   and (fk.ref_schema is None or table.schema is None or entities.key(fk.ref_schema) == entities.key(table.schema)))
            return Reference(column.name, table.name if own else fk.ref_table, "FOREIGN KEY", True, n)
    words = tokens[1:] if prefix and len(tokens) > 1 else tokens
    id_named = _id_named(words)
    if id_named and words[-1] == "no" and column.type not in _INTEGER_TYPES:
        return None  # `order_no CHAR(12)`: an entity's number as text is its natural key (`_natural_reference`)
    # a key a reference can be: an integer, or an id string (a UUID, a code): up to 255 characters when
    # the name says it is an id, 64 otherwise
    key_type = column.type in _INTEGER_TYPES or column.type == "UUID" or (
        column.type in _STRING_KEY_TYPES and (column.length is None or column.length <= (255 if id_named else 64))
    )
    if not key_type or len(tokens) < 2 and not prefix and not id_named:
        return None
    order = 1000 + position
    stem = _stem(words) if id_named else tuple(words)
    if id_named or prefix:
        target = entities.resolve(stem, column.name, table)
        if target is not None:
            name_found, strong = target
            return Reference(column.name, name_found, "name" if strong else "name, in another schema", strong, order)
    if id_named and (column.type in _INTEGER_TYPES or column.length in (16, 32, 36) or column.type == "UUID"
                     or column.type in _STRING_KEY_TYPES):
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
    found = entities.resolve(tokens[:-1], column.name, table, whole=True)
    return found is not None and found[1]


def _is_who(tokens: Sequence[str]) -> bool:
    """Who created or changed the row: created_by, LastUpdatedBy, created_by_id (a foreign key to
    the users table too, but about the row, not the pair)."""
    return "by" in tokens or bool(set(tokens) & {"creator", "updater", "modifier"})


def _is_bookkeeping(column: Column, tokens: Sequence[str]) -> bool:
    """Timestamps, who created or changed the row, sort order, soft delete, row version. A sort
    order, a flag or a version is a number: `order_number VARCHAR(20)` is an order's number."""
    if column.type in _TEMPORAL_TYPES:
        return True
    if not tokens:
        return False
    if _is_who(tokens):
        return True
    if tokens[-1] in ("id", "uuid", "guid"):
        return False  # order_id, update_id: a reference, whatever its words
    if column.type not in _INTEGER_TYPES and column.type not in _FLAG_TYPES:
        return False
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


def _indexed_together(table: Table, references: set[str]) -> bool:
    return any(
        index.kind != "primary" and references <= {n.lower() for n in index.column_names} for index in table.indexes
    )


def referenced_columns(model: SchemaModel) -> set[tuple[str, str]]:
    """(table, column) that some foreign key of another table points at: the table's name as the
    model compares it (`SchemaModel.key`), the column's in lower case. Once per model (`derived`)."""
    kept = model.derived.get("referenced columns")
    if kept is not None:
        return kept  # type: ignore[return-value]
    found: set[tuple[str, str]] = set()
    model.derived["referenced columns"] = found
    for table in model.tables():
        for fk in table.foreign_keys:
            referenced = model.key(fk.ref_table)
            if referenced == model.key(table.name):
                continue
            for column in fk.ref_columns:
                found.add((referenced, column.lower()))
    return found


