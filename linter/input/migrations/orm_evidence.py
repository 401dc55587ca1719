"""What the application's own model files say about its tables' keys: evidence the DDL lacks.

Prisma writes `id VARCHAR(191) NOT NULL` whether the model says `@default(uuid())` (random
UUIDv4), `@default(uuid(7))` (time-ordered), `@default(cuid())` (time-prefixed) or nothing; a
Laravel `char(36)` key may hold ordered UUIDs (HasUuids) or random ones (a `newUniqueId()`
returning `Str::uuid()`). When such files sit beside the SQL innolint reads, they are read
(a migration format's own schema, `Format.evidence`; `linter.input.migrations.laravel_models`:
bounded scanners, no code run) and the checks get what they say through
`CheckContext.app_evidence` as small typed records: never SQL text.

Where they are looked for (inside the tree only, every file under a size cap):
- a format's schema beside its migrations (`Format.evidence`: `schema.prisma`);
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
    from linter.input.migrations.formats.base import Format
    from linter.input.migrations.history import Group
    from linter.schema.model import Table

_set = object.__setattr__

#: caps on what is read
_FILE_CAP = 4 << 20
_PHP_FILES = 5_000


class KeyEvidence(FrozenRecord):
    """What a model file says about how a table's primary-key values are made.

    `columns`: the key's columns as named in SQL; `generator`: what fills them, as written
    (`@default(uuid())`, `HasUuids`); `ordered`: True when new values arrive in key order
    (UUIDv7, ULID, cuid, ordered UUIDs, AUTO_INCREMENT), False when random (UUIDv4, cuid2,
    nanoid), None when the file does not say (no default: the application assigns them);
    `kind`: what the values are, in words; `path` and `line`: where it is written; `fix`: how to
    make them time-ordered in the model, in its own terms (the reader of the file knows them),
    or None.

    What the values take, for wide-primary-key (a declared VARCHAR(191) holding 25-character
    cuids is not a 766-byte key): `value_chars`, the length in ASCII characters of every value the
    generator makes (None: not known, or a key of several columns), and `value_source`, where that
    number comes from. In the model's own terms, for an ORM that writes the migrations (an ALTER of
    one's own is drift its next migration undoes): `declare`, how to declare the column as wide as
    the values (`@db.VarChar(25)` on the field, and where), and `rekey`, how to give the table a
    narrow surrogate key with the current key kept unique. None where the reader has no such terms."""

    __slots__ = __match_args__ = ("source", "path", "line", "model", "columns", "generator", "ordered", "kind", "fix",
                                  "value_chars", "value_source", "declare", "rekey")
    source: str
    path: str
    line: int
    model: str
    columns: tuple[str, ...]
    generator: str | None
    ordered: bool | None
    kind: str
    fix: str | None
    value_chars: int | None
    value_source: str
    declare: str | None
    rekey: str | None

    def __init__(self, source: str, path: str, line: int, model: str, columns: tuple[str, ...],
                 generator: str | None, ordered: bool | None, kind: str, fix: str | None = None, *,
                 value_chars: int | None = None, value_source: str = "", declare: str | None = None,
                 rekey: str | None = None) -> None:
        _set(self, "source", source)
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "model", model)
        _set(self, "columns", columns)
        _set(self, "generator", generator)
        _set(self, "ordered", ordered)
        _set(self, "kind", kind)
        _set(self, "fix", fix)
        _set(self, "value_chars", value_chars)
        _set(self, "value_source", value_source)
        _set(self, "declare", declare)
        _set(self, "rekey", rekey)

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
    ORM owns). `advice`: what to do in the model, in its own terms (a relation model: how to key it
    on the pair; an implicit table: why an ALTER is drift and how to declare a key), and `what`:
    what the model makes of the table, in words, for the evidence."""

    __slots__ = __match_args__ = ("source", "path", "line", "model", "models", "columns", "key", "implicit", "advice",
                                  "what")
    source: str
    path: str
    line: int
    model: str | None
    models: tuple[str, str]
    columns: tuple[str, str]
    key: tuple[str, ...]
    implicit: bool
    advice: str
    what: str

    def __init__(self, source: str, path: str, line: int, model: str | None, models: tuple[str, str],
                 columns: tuple[str, str], key: tuple[str, ...], implicit: bool, advice: str = "",
                 what: str = "") -> None:
        _set(self, "source", source)
        _set(self, "path", path)
        _set(self, "line", line)
        _set(self, "model", model)
        _set(self, "models", models)
        _set(self, "columns", columns)
        _set(self, "key", key)
        _set(self, "implicit", implicit)
        _set(self, "advice", advice)
        _set(self, "what", what)

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


def read_model_file(path: str, inside: Callable[[str], bool]) -> str | None:
    """A model file's text; None when it may not be read (a link out of the tree, a special file,
    over the cap): the evidence is then the DDL's alone."""
    from linter.input.file_access import FileRefused, read_inside

    try:
        return read_inside(path, inside, _FILE_CAP, "model file").decode("utf-8", "replace")
    except FileRefused:
        return None


def evidence_for(group: Group, inside: Callable[[str], bool], fmt: Format | None = None) -> AppEvidence | None:
    """The evidence for a unit (see the module docstring), or None when there is none: what the
    format of its history reads beside it (`fmt`, `Format.evidence`), and Laravel's models."""
    history = group.history
    found = AppEvidence()
    if history is not None and fmt is not None:
        fmt.evidence(history, inside, found)
    project = _laravel_project(group.files)
    if project is not None:
        _laravel(project, inside, found)
    return found or None


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
        text = read_model_file(path, inside)
        if text is None or "class" not in text:
            continue
        key = laravel_models.read_model(text)
        if key is None or key.generator is None:
            continue
        table = key.table or laravel_models.default_table(key.model)
        chars, said = _LARAVEL_VALUES.get(key.generator, (None, ""))
        found.keys[table.lower()] = KeyEvidence(
            "laravel", path, key.line, key.model, (key.key,), key.generator, key.ordered, key.kind,
            f"Fix in the model {key.model}: Laravel's HasUuids trait (time-ordered UUIDs) instead of a newUniqueId() "
            "that returns random ones; rows already there keep their order, new ones append.",
            value_chars=chars, value_source=said)


#: what Laravel's key traits fill a key with, in characters: UUIDs as RFC 9562 text (8-4-4-4-12
#: hex digits and 4 hyphens), ULIDs as 26 Crockford base32 characters (the ULID spec;
#: Str::ulid() lower-cases them)
_LARAVEL_VALUES: dict[str | None, tuple[int, str]] = {
    "HasUuids": (36, "a UUID as text is 36 characters (RFC 9562)"),
    "HasVersion4Uuids": (36, "a UUID as text is 36 characters (RFC 9562)"),
    "HasUlids": (26, "a ULID is 26 characters (the ULID spec)"),
}
