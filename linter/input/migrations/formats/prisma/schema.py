"""Read a Prisma schema (`schema.prisma`, or the files of a multi-file schema) for what it says
about tables and keys: models and the tables they map to (`@@map`), fields and their columns
(`@map`), `@id` / `@@id`, the `@default(...)` that fills an id, relation fields, and the
datasource's provider and relationMode.

A small scanner, not Prisma's parser: one pass over the text, line by line, joining lines only
inside brackets (a `@@index([a,\\n b])`), with strings and `//` comments recognised so that a
`}` or `@` inside them means nothing. Every loop moves forward; a logical line is cut at
`_LINE_CAP` characters, so the cost is linear in the file whatever it holds. Nothing is
evaluated: `env("DATABASE_URL")` stays text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

_LINE_CAP = 1 << 16
_BLOCK = re.compile(r"(model|view|enum|type|datasource|generator)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")
_FIELD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)(\([^()]*\))?(\[\])?(\?)?")
_SETTING = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_SCALARS = frozenset({"String", "Int", "BigInt", "Float", "Decimal", "Boolean", "DateTime", "Json", "Bytes",
                      "Unsupported"})


class Attribute(NamedTuple):
    """`@name(args)` on a field or `@@name(args)` on a model; `args` as written, without
    parentheses; `line`: where it is written."""

    name: str
    args: str
    line: int = 0


class Field(NamedTuple):
    name: str
    type: str
    is_list: bool
    optional: bool
    attributes: tuple[Attribute, ...]
    line: int

    def attribute(self, name: str) -> Attribute | None:
        return next((a for a in self.attributes if a.name == name), None)

    @property
    def column(self) -> str:
        """The column's name in SQL: `@map("...")`, else the field's name."""
        mapped = self.attribute("map")
        found = _first_string(mapped.args) if mapped is not None else None
        return found or self.name


class Model:
    """A `model` block: its fields (looked up by name through an index) and block attributes."""

    __slots__ = ("name", "line", "fields", "attributes", "path", "_fields")

    def __init__(self, name: str, line: int, fields: tuple[Field, ...], attributes: tuple[Attribute, ...],
                 path: str) -> None:
        self.name = name
        self.line = line
        self.fields = fields
        self.attributes = attributes
        self.path = path
        self._fields: dict[str, Field] = {}
        for field in fields:
            self._fields.setdefault(field.name, field)  # the first of a name, as a scan finds it

    def attribute(self, name: str) -> Attribute | None:
        return next((a for a in self.attributes if a.name == name), None)

    @property
    def table(self) -> str:
        """The table's name in SQL: `@@map("...")`, else the model's name."""
        mapped = self.attribute("map")
        found = _first_string(mapped.args) if mapped is not None else None
        return found or self.name

    def field(self, name: str) -> Field | None:
        return self._fields.get(name)

    def id_fields(self) -> list[Field]:
        """The fields of its primary key: `@id` fields, else those `@@id([...])` lists."""
        single = [f for f in self.fields if f.attribute("id") is not None]
        if single:
            return single
        block = self.attribute("id")
        if block is None:
            return []
        return [f for name in field_list(block.args) if (f := self.field(name)) is not None]


class Schema:
    """What the schema files hold: models (not views, looked up by name through an index), enum
    names, and the datasource's settings."""

    __slots__ = ("models", "enums", "provider", "relation_mode", "_models")

    def __init__(self, models: tuple[Model, ...], enums: frozenset[str], provider: str | None,
                 relation_mode: str | None) -> None:
        self.models = models
        self.enums = enums
        self.provider = provider
        self.relation_mode = relation_mode
        self._models: dict[str, Model] = {}
        for model in models:
            self._models.setdefault(model.name, model)

    def model(self, name: str) -> Model | None:
        return self._models.get(name)


def _string_at(text: str, quote: int) -> str | None:
    """The content of the `"..."` string whose opening quote is at `quote` (a backslash escapes
    the next character), or None when it is not closed. One forward scan: a string left open is
    not looked for again from a later quote, which would lie inside it."""
    i = quote + 1
    stop = text.find('"', i)
    while stop >= 0:
        escape = text.find("\\", i, stop)
        if escape < 0:
            return text[quote + 1 : stop]
        i = escape + 2
        if i > stop:  # the quote was escaped: the next one
            stop = text.find('"', i)
    return None


def _first_string(args: str) -> str | None:
    quote = args.find('"')
    return _string_at(args, quote) if quote >= 0 else None


def field_list(args: str) -> list[str]:
    """The field names of `[a, b]` or `fields: [a, b(sort: Desc)]` in attribute arguments."""
    start = args.find("[")
    end = args.find("]", start + 1)
    if start < 0 or end < 0:
        return []
    names = []
    for part in args[start + 1 : end].split(","):
        match = _NAME.match(part.strip())
        if match:
            names.append(match.group())
    return names


def _outside_strings(line: str) -> Iterator[tuple[int, str]]:
    """The characters of a line that stand outside its `"..."` strings, with their positions
    (a backslash in a string escapes the next character)."""
    quoted = False
    i = 0
    n = len(line)
    while i < n:
        c = line[i]
        if quoted:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        else:
            yield i, c
        i += 1


def _strip_comment(line: str) -> str:
    """The line without its `//` comment (a `//` inside a string is text)."""
    if "/" not in line:
        return line
    for i, c in _outside_strings(line):
        if c == "/" and line.startswith("//", i):
            return line[:i]
    return line


def _depth_change(line: str) -> int:
    """Brackets opened minus closed on a line, outside strings."""
    depth = 0
    for _, c in _outside_strings(line):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
    return depth


def attributes(text: str, line: int = 0) -> tuple[Attribute, ...]:
    """The `@name(args)` / `@@name(args)` attributes of a field's or a line's text, in order."""
    found = []
    i = 0
    n = len(text)
    while i < n:
        at = text.find("@", i)
        if at < 0:
            break
        j = at + 1
        if j < n and text[j] == "@":
            j += 1
        match = _NAME.match(text, j)
        if match is None:
            i = j
            continue
        name = match.group()
        i = match.end()
        args = ""
        if i < n and text[i] == "(":
            depth = 0
            quoted = False
            k = i
            while k < n:
                c = text[k]
                if quoted:
                    if c == "\\":
                        k += 2
                        continue
                    if c == '"':
                        quoted = False
                elif c == '"':
                    quoted = True
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            args = text[i + 1 : k]
            i = k + 1
        found.append(Attribute(name, args.strip(), line))
    return tuple(found)


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each line, lines inside open brackets joined; comments gone."""
    out: list[tuple[int, str]] = []
    held: list[str] = []
    held_chars = 0
    start = 0
    depth = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = _strip_comment(raw.rstrip("\r"))
        if not held:
            start = number
        held.append(line)
        held_chars += len(line)
        depth += _depth_change(line)
        if depth <= 0 or held_chars > _LINE_CAP:
            out.append((start, " ".join(held)[:_LINE_CAP]))
            held, held_chars, depth = [], 0, 0
    if held:
        out.append((start, " ".join(held)[:_LINE_CAP]))
    return out


def parse(text: str, path: str = "schema.prisma") -> Schema:
    """Read a schema file's text (see the module docstring)."""
    models: list[Model] = []
    enums: set[str] = set()
    provider = relation_mode = None
    block: tuple[str, str, int] | None = None
    fields: list[Field] = []
    block_attributes: list[Attribute] = []
    for number, line in _logical_lines(text):
        stripped = line.strip()
        if not stripped:
            continue
        if block is None:
            match = _BLOCK.match(stripped)
            if match is not None:
                block = (match.group(1), match.group(2), number)
                fields, block_attributes = [], []
                if match.group(1) == "enum":
                    enums.add(match.group(2))
            continue
        if stripped.startswith("}"):
            kind, name, line_number = block
            if kind == "model":
                models.append(Model(name, line_number, tuple(fields), tuple(block_attributes), path))
            block = None
            continue
        kind = block[0]
        if kind == "datasource":
            setting = _SETTING.match(stripped)
            if setting is not None:
                value = _first_string(setting.group(2))
                if setting.group(1) == "provider":
                    provider = value
                elif setting.group(1) == "relationMode" or setting.group(1) == "referentialIntegrity":
                    relation_mode = value
            continue
        if kind != "model":
            continue
        if stripped.startswith("@@"):
            block_attributes.extend(attributes(stripped, number))
            continue
        match = _FIELD.match(stripped)
        if match is None:
            continue
        fields.append(Field(match.group(1), match.group(2), bool(match.group(4)), bool(match.group(5)),
                            attributes(stripped[match.end() :], number), number))
    return Schema(tuple(models), frozenset(enums), provider, relation_mode)


def merge(schemas: list[Schema]) -> Schema:
    """One schema from the files of a multi-file schema (`prismaSchemaFolder`)."""
    provider = next((s.provider for s in schemas if s.provider), None)
    mode = next((s.relation_mode for s in schemas if s.relation_mode), None)
    return Schema(tuple(m for s in schemas for m in s.models), frozenset().union(*(s.enums for s in schemas)),
                  provider, mode)


def is_relation(schema: Schema, field: Field) -> bool:
    """Whether a field points at another model (not a scalar, an enum or `Unsupported`)."""
    return field.type not in _SCALARS and field.type not in schema.enums and schema.model(field.type) is not None


_RELATION_NAME = re.compile(r'\bname\s*+:\s*+"')


def relation_name(field: Field) -> str | None:
    """The name given in `@relation("Name")` or `@relation(name: "Name")`."""
    relation = field.attribute("relation")
    if relation is None:
        return None
    args = relation.args.strip()
    if args.startswith('"'):
        return _first_string(args)
    match = _RELATION_NAME.search(args)
    return _string_at(args, match.end() - 1) if match else None


def implicit_links(schema: Schema) -> list[tuple[str, Model, Field, Model, Field]]:
    """Prisma's implicit many-to-many relations: (table, model A, its field, model B, its field),
    A the model whose name sorts first. The table is `_<relation name>`, by default `_AToB`; its
    column `A` holds A's id and `B` B's."""
    found = []
    seen: set[tuple[str, str, str]] = set()
    # the list fields by (model, the model they point at, relation name): each looked up once
    lists: dict[tuple[str, str, str | None], list[Field]] = {}
    for model in schema.models:
        for field in model.fields:
            if field.is_list:
                group = lists.setdefault((model.name, field.type, relation_name(field)), [])
                if len(group) < 2:  # (the first other than the field itself is all a lookup needs)
                    group.append(field)
    for model in schema.models:
        for field in model.fields:
            if not field.is_list or not is_relation(schema, field):
                continue
            relation = field.attribute("relation")
            if relation is not None and "fields" in relation.args:
                continue
            other = schema.model(field.type)
            assert other is not None
            name = relation_name(field)
            back = [f for f in lists.get((other.name, model.name, name), ()) if other is not model or f is not field]
            if not back:
                continue
            first, second = sorted([(model, field), (other, back[0])], key=lambda pair: pair[0].name)
            table = "_" + (name or f"{first[0].name}To{second[0].name}")
            key = (table, first[0].name, second[0].name)
            if key in seen:
                continue
            seen.add(key)
            found.append((table, first[0], first[1], second[0], second[1]))
    return found
