"""What the application's own model files say about its tables' keys: evidence the DDL lacks.

Prisma writes `id VARCHAR(191) NOT NULL` whether the model says `@default(uuid())` (random
UUIDv4), `@default(uuid(7))` (time-ordered), `@default(cuid())` (time-prefixed) or nothing; a
Laravel `char(36)` key may hold ordered UUIDs (HasUuids) or random ones (a `newUniqueId()`
returning `Str::uuid()`). When such files sit beside the SQL innolint reads, they are read
(`linter.input.migrations.prisma_schema`, `linter.input.migrations.laravel_models`: bounded scanners, no code run) and the checks
get what they say through `CheckContext.app_evidence` as small typed records: never SQL text.

Where they are looked for (inside the tree only, every file under a size cap):
- Prisma: the `*.prisma` files beside a Prisma migrations directory (`prisma/schema.prisma` for
  `prisma/migrations/`), or in `prisma/schema/` (a multi-file schema).
- Laravel: `app/Models/**/*.php` and `app/*.php` of the project whose
  `database/schema/<connection>-schema.sql` or `database/migrations/` is read.

Table and column names are the ones in SQL (`@@map`, `@map`, `$table`, `$primaryKey`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from linter.record import FrozenRecord, Record

if TYPE_CHECKING:
    from linter.input.migrations.history import Group
    from linter.schema.model import Table

_set = object.__setattr__

#: caps on what is read
_FILE_CAP = 4 << 20
_PRISMA_FILES = 64
_PHP_FILES = 5_000

#: Prisma's `@default(...)` generators: (what the values are, whether they arrive in key order)
_PRISMA_GENERATORS: dict[str, tuple[str, bool | None]] = {
    "uuid()": ("random UUIDv4 values", False),
    "uuid(4)": ("random UUIDv4 values", False),
    "uuid(7)": ("time-ordered UUIDv7 values", True),
    "cuid()": ("cuid values, which start with the time (time-ordered)", True),
    "cuid(1)": ("cuid values, which start with the time (time-ordered)", True),
    "cuid(2)": ("random cuid2 values (hashed: no time order)", False),
    "ulid()": ("time-ordered ULID values", True),
    "nanoid()": ("random nanoid values", False),
    "autoincrement()": ("AUTO_INCREMENT values", True),
}


class KeyEvidence(FrozenRecord):
    """What a model file says about how a table's primary-key values are made.

    `columns`: the key's columns as named in SQL; `generator`: what fills them, as written
    (`@default(uuid())`, `HasUuids`); `ordered`: True when new values arrive in key order
    (UUIDv7, ULID, cuid, ordered UUIDs, AUTO_INCREMENT), False when random (UUIDv4, cuid2,
    nanoid), None when the file does not say (no default: the application assigns them);
    `kind`: what the values are, in words; `path` and `line`: where it is written."""

    __slots__ = __match_args__ = ("source", "path", "line", "model", "columns", "generator", "ordered", "kind")
    source: str
    path: str
    line: int
    model: str
    columns: tuple[str, ...]
    generator: str | None
    ordered: bool | None
    kind: str

    def __init__(self, source: str, path: str, line: int, model: str, columns: tuple[str, ...],
                 generator: str | None, ordered: bool | None, kind: str) -> None:
        _set(self, "source", source)
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "model", model)
        _set(self, "columns", columns)
        _set(self, "generator", generator)
        _set(self, "ordered", ordered)
        _set(self, "kind", kind)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def says(self) -> str:
        """One sentence for a finding: where, what is written, what it makes."""
        written = f" `{self.generator}`" if self.generator else ""
        return f"{self.where} ({self.source} model {self.model}){written}: {self.kind}"


class LinkEvidence(FrozenRecord):
    """A table the application's models declare as a many-to-many link: Prisma's implicit
    relation table (`_AToB`, columns A and B, `implicit`), or a model whose rows each relate two
    others through relation fields (`columns`, in the model's order; `key`: its own key columns).
    For link-table-primary-key (and no-primary-key, which must not advise an ALTER on a table the
    ORM owns)."""

    __slots__ = __match_args__ = ("source", "path", "line", "model", "models", "columns", "key", "implicit")
    source: str
    path: str
    line: int
    model: str | None
    models: tuple[str, str]
    columns: tuple[str, str]
    key: tuple[str, ...]
    implicit: bool

    def __init__(self, source: str, path: str, line: int, model: str | None, models: tuple[str, str],
                 columns: tuple[str, str], key: tuple[str, ...], implicit: bool) -> None:
        _set(self, "source", source)
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "model", model)
        _set(self, "models", models)
        _set(self, "columns", columns)
        _set(self, "key", key)
        _set(self, "implicit", implicit)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


class AppEvidence(Record):
    """The evidence of one unit's model files, by lower-case table name (`keys`, `links`)."""

    __match_args__ = ("keys", "links")
    keys: dict[str, KeyEvidence]
    links: dict[str, LinkEvidence]

    def __init__(self, keys: dict[str, KeyEvidence] | None = None, links: dict[str, LinkEvidence] | None = None) -> None:
        self.keys = {} if keys is None else keys
        self.links = {} if links is None else links

    def key(self, table: Table) -> KeyEvidence | None:
        return self.keys.get(table.name.lower())

    def link(self, table: Table) -> LinkEvidence | None:
        return self.links.get(table.name.lower())

    def __bool__(self) -> bool:
        return bool(self.keys or self.links)


# --- finding and reading the files ---------------------------------------------------------------


def _read(path: str, inside: Callable[[str], bool]) -> str | None:
    """A model file's text; None when it may not be read (a link out of the tree, a special file,
    over the cap): the evidence is then the DDL's alone."""
    from linter.input.file_access import FileRefused, read_inside

    try:
        return read_inside(path, inside, _FILE_CAP, "model file").decode("utf-8", "replace")
    except FileRefused:
        return None


def evidence_for(group: Group, inside: Callable[[str], bool]) -> AppEvidence | None:
    """The evidence for a unit (see the module docstring), or None when there is none."""
    history = group.history
    found = AppEvidence()
    if history is not None and history.format == "prisma":
        _prisma(history.root, inside, found)
    project = _laravel_project(group.files)
    if project is not None:
        _laravel(project, inside, found)
    return found or None


def prisma_files(migrations: str) -> list[str]:
    """The schema files of a Prisma project whose migrations directory is `migrations`."""
    parent = os.path.dirname(os.path.abspath(migrations))
    found = []
    for directory in (parent, os.path.join(parent, "schema")):
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        found += [os.path.join(directory, n) for n in names if n.endswith(".prisma")]
    return found[:_PRISMA_FILES]


def _prisma(migrations: str, inside: Callable[[str], bool], found: AppEvidence) -> None:
    from linter.input.migrations import prisma_schema

    schemas = []
    for path in prisma_files(migrations):
        text = _read(path, inside)
        if text is not None:
            schemas.append(prisma_schema.parse(text, path))
    if not schemas:
        return
    schema = prisma_schema.merge(schemas)
    for model in schema.models:
        ids = model.id_fields()
        table = model.table.lower()
        if ids:
            generator = None
            kind, ordered = "values the application assigns (no @default)", None
            if len(ids) == 1:
                default = ids[0].attribute("default")
                if default is not None:
                    call = "".join(default.args.split())
                    generator = f"@default({default.args})"
                    if call in _PRISMA_GENERATORS:
                        kind, ordered = _PRISMA_GENERATORS[call]
                    elif call.startswith("dbgenerated("):
                        kind, ordered = "values the database's DEFAULT makes (see the DDL)", None
                    elif call.startswith("nanoid("):
                        kind, ordered = _PRISMA_GENERATORS["nanoid()"]
                    else:
                        kind = f"values made by {call}"
            block = model.attribute("id")
            line = ids[0].line if len(ids) == 1 or block is None else block.line
            found.keys[table] = KeyEvidence("prisma", model.path, line, model.name, tuple(f.column for f in ids),
                                            generator, ordered, kind)
        relations = [f for f in model.fields if prisma_schema.is_relation(schema, f) and not f.is_list
                     and f.attribute("relation") is not None and "fields" in f.attribute("relation").args]  # type: ignore[union-attr]
        if len(relations) == 2 and relations[0].type != model.name:
            columns = []
            for field in relations:
                names = prisma_schema.field_list(field.attribute("relation").args)  # type: ignore[union-attr]
                own = model.field(names[0]) if names else None
                columns.append(own.column if own is not None else (names[0] if names else field.name))
            found.links[table] = LinkEvidence("prisma", model.path, model.line, model.name,
                                              (relations[0].type, relations[1].type), (columns[0], columns[1]),
                                              tuple(f.column for f in ids), False)
    for table, first, first_field, second, _ in prisma_schema.implicit_links(schema):
        found.links[table.lower()] = LinkEvidence("prisma", first.path, first_field.line, None,
                                                  (first.name, second.name), ("A", "B"), (), True)


def _laravel_project(files: list[str]) -> str | None:
    """The Laravel project around `database/schema/*-schema.sql` or `database/migrations/`."""
    for path in files[:1] + files[-1:]:
        parts = os.path.abspath(path).split(os.sep)
        if len(parts) >= 3 and parts[-3] == "database" and parts[-2] in ("schema", "migrations"):
            return os.sep.join(parts[:-3]) or os.sep
    return None


def _laravel(project: str, inside: Callable[[str], bool], found: AppEvidence) -> None:
    from linter.input.migrations import laravel_models

    app = os.path.join(project, "app")
    paths: list[str] = []
    models = os.path.join(app, "Models")
    for parent, dirs, names in os.walk(models):
        dirs.sort()
        paths += [os.path.join(parent, n) for n in sorted(names) if n.endswith(".php")]
        if len(paths) > _PHP_FILES:
            break
    try:
        paths += [os.path.join(app, n) for n in sorted(os.listdir(app)) if n.endswith(".php")]
    except OSError:
        pass
    for path in paths[:_PHP_FILES]:
        text = _read(path, inside)
        if text is None or "class" not in text:
            continue
        key = laravel_models.read_model(text)
        if key is None or key.generator is None:
            continue
        table = key.table or laravel_models.default_table(key.model)
        found.keys[table.lower()] = KeyEvidence("laravel", path, key.line, key.model, (key.key,), key.generator,
                                                key.ordered, key.kind)
