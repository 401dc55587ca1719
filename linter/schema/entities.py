"""Which table a column's name points at: `product_id` -> products, `RoleId` -> role.

Several rules read references from names where the DDL has no foreign key (link-table-primary-key
finds the pair of a link table, wide-primary-key a child table clustered by its parent). They ask
the same index the same way, so it lives with the model.

Cost: the index is built once per model (`entity_index`), O(tables). A lookup is a few dict reads, whatever the
number of schemas: a schema-per-tenant dump has the same tables in 10,000 schemas, and a name
that is not found in its own schema is looked up in the others through a per-entity summary
(`_Elsewhere`), never by walking them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from linter.schema.model import SchemaModel, Table

_PLACEHOLDER = re.compile(r"%[^%]*%|@[^@]*@|\{[^}]*\}|\$\w+")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")


#: a name of lower-case words and underscores (most names): no placeholder, no camel case to cut
_SNAKE = re.compile(r"[a-z0-9_]+").fullmatch


@lru_cache(maxsize=1 << 16)
def name_tokens(name: str) -> tuple[str, ...]:
    """`GroupId` -> (group, id); `geo_zone_id` -> (geo, zone, id); template placeholders dropped.
    Cached: tenant dumps repeat the same names thousands of times (a dump of distinct tables
    does not: a snake_case name is cut at its underscores without the three expressions)."""
    if _SNAKE(name):
        return tuple([t for t in name.split("_") if t])
    name = _PLACEHOLDER.sub("_", name)
    spaced = _CAMEL.sub(r"\1_\2", name)
    return tuple(t for t in _NON_WORD.split(spaced.lower()) if t)


def singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def entity(tokens: Sequence[str]) -> str:
    """The entity words name: the tokens joined, the last one singular (`user_groups` -> user_group)."""
    return "_".join([*tokens[:-1], singular(tokens[-1])]) if tokens else ""


class _Elsewhere:
    """For one entity, the schemas holding a table named after it, summarised so that "the first
    schema (in name order) with such a table other than `own`" is answered in constant time.

    A schema whose tables of this entity have two or more names answers for any `own`; one whose
    tables all have one name answers unless that name is `own`. So the first of the former, and
    the first two of the latter with different names, are all that is needed."""

    __slots__ = ("multi", "single", "other_single")

    def __init__(self) -> None:
        #: (schema sort key, schema, its candidates (words skipped, name) in order)
        self.multi: tuple[str, str | None, tuple[tuple[int, str], ...]] | None = None
        self.single: tuple[str, str | None, tuple[int, str]] | None = None
        self.other_single: tuple[str, str | None, tuple[int, str]] | None = None

    def offer(self, schema: str | None, candidates: tuple[tuple[int, str], ...]) -> None:
        """Called in name order for each schema, or the first of schemas holding the same tables
        (the others answer as it does)."""
        order = schema or ""
        if len({name for _, name in candidates}) > 1:
            if self.multi is None:
                self.multi = (order, schema, tuple(sorted(candidates)))
            return
        best = min(candidates)
        if self.single is None:
            self.single = (order, schema, best)
        elif self.other_single is None and best[1] != self.single[2][1]:
            self.other_single = (order, schema, best)

    def first(self, own: str) -> tuple[str | None, str] | None:
        """(schema, table) of the first schema with a table of this entity not named `own`."""
        found: list[tuple[str, str | None, str]] = []
        if self.multi is not None:
            order, schema, candidates = self.multi
            found.append((order, schema, next(name for _, name in candidates if name != own)))
        for single in (self.single, self.other_single):
            if single is not None and single[2][1] != own:
                found.append((single[0], single[1], single[2][1]))
                break
        if not found:
            return None
        _, schema, name = min(found, key=lambda item: item[0])
        return schema, name


def entity_index(model: SchemaModel) -> EntityIndex:
    """The model's index, built at the first rule that asks (kept in `model.derived`)."""
    found = model.derived.get("entities")
    if found is None:
        found = model.derived["entities"] = EntityIndex(model)
    return found  # type: ignore[return-value]


class EntityIndex:
    """Table names of the input by entity, so that `product_id` and `RoleId` can be matched to the
    tables they name: `products` answers to product, and a table whose name starts with a prefix
    of up to three words that at least three tables share (`oc_`, `t_ds_`, `linkis_ps_bml_`) answers without it too (`oc_product`
    to product). Kept per schema: a multi-database dump holds several applications, and a
    `user_id` is matched to the `users` of its own schema first; a table of another schema counts
    only as a name (`user_id` in one application is not a reference to another's `users`)."""

    def __init__(self, model: SchemaModel) -> None:
        #: how the server compares table names (`SchemaModel.key`: lower_case_table_names)
        self.key: Callable[[str], str] = model.key
        # schemas holding the same tables share one book: a tenant dump's 10,000 schemas have one or two
        contents = model.contents()
        books: dict[int, _Book] = {}
        self._books: dict[str | None, _Book] = {}
        first_of: dict[int, str | None] = {}  # a book's first schema in name order
        for key in sorted(model.schemas, key=lambda s: s or ""):
            number = contents[key]
            book = books.get(number)
            if book is None:
                book = books[number] = _Book([t for t in model.schemas[key].tables.values() if not t.view_standin])
                first_of[number] = key
            self._books[key] = book
        self._elsewhere: dict[str, _Elsewhere] = {}
        for number, schema in sorted(first_of.items(), key=lambda item: item[1] or ""):
            for found, candidates in books[number].entities.items():
                summary = self._elsewhere.get(found)
                if summary is None:
                    summary = self._elsewhere[found] = _Elsewhere()
                summary.offer(schema, candidates)

    def resolve(
        self, tokens: Sequence[str], column: str, table: Table, *, whole: bool = False,
    ) -> tuple[str, bool] | None:
        """The table a column named with these tokens (its id words removed) points at, and whether
        it is in the column's own schema: one named after the words, else one whose key column has
        this very name, else (unless `whole`) one named after the last words (`zone_country_id` ->
        countries, `owner_user_id` -> users). The table's own schema first, then any other."""
        schema = self.key(table.schema) if table.schema else None
        found = self._resolve(tokens, column, table.name, schema, whole)
        if found is not None:
            return found, True
        # the own schema has no table of this entity but maybe `table` itself: any other that has one
        summary = self._elsewhere.get(entity(tokens))
        elsewhere = summary.first(table.name) if summary is not None else None
        if elsewhere is None:
            return None
        other, name = elsewhere
        return (f"{other}.{name}" if other else name), False

    def _resolve(self, tokens: Sequence[str], column: str, own: str, schema: str | None, whole: bool) -> str | None:
        book = self._books.get(schema)
        if book is None:
            return None
        found = book.named(tokens, own)
        if found is not None:
            return found
        for name in book.key_columns.get(column.lower(), ()):
            if name != own:
                return name
        for skip in range(1, 0 if whole else len(tokens)):
            found = book.named(tokens[skip:], own)
            if found is not None:
                return found
        return None


#: the most words a shared table-name prefix has (`oc_`, `t_ds_`, `linkis_ps_bml_`): at least three
#: tables starting with the same words make them a prefix the entity is named without
_PREFIX_WORDS = 3


class _Book:
    """One schema's tables by entity (`entities`: entity -> (words skipped, table name), sorted),
    and by the name of their single-column key (`key_columns`, but `id`)."""

    __slots__ = ("entities", "key_columns")

    def __init__(self, tables: list[Table]) -> None:
        starts: dict[tuple[str, ...], int] = {}
        named: list[tuple[str, tuple[str, ...]]] = []
        for table in tables:
            tokens = name_tokens(table.name)
            named.append((table.name, tokens))
            for n in range(1, min(_PREFIX_WORDS + 1, len(tokens))):
                starts[tokens[:n]] = starts.get(tokens[:n], 0) + 1
        entities: dict[str, set[tuple[int, str]]] = {}
        for name, tokens in named:
            for skip in range(min(_PREFIX_WORDS + 1, len(tokens))):
                if skip == 0 or starts.get(tokens[:skip], 0) >= 3:
                    entities.setdefault(entity(tokens[skip:]), set()).add((skip, name))
        self.entities: dict[str, tuple[tuple[int, str], ...]] = {e: tuple(sorted(c)) for e, c in entities.items()}
        key_columns: dict[str, set[str]] = {}
        for table in tables:
            primary = table.primary_key
            if primary is not None and len(primary.columns) == 1 and primary.columns[0].name.lower() != "id":
                key_columns.setdefault(primary.columns[0].name.lower(), set()).add(table.name)
        self.key_columns: dict[str, tuple[str, ...]] = {c: tuple(sorted(n)) for c, n in key_columns.items()}

    def named(self, tokens: Sequence[str], own: str) -> str | None:
        """The table named after these words, other than `own`: the fewest words skipped first."""
        for _, name in self.entities.get(entity(tokens), ()):
            if name != own:
                return name
        return None
