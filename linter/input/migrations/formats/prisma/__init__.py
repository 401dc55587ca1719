"""Prisma: `prisma/migrations/<timestamp>_<name>/migration.sql`, in the order of the directory
names (as `prisma migrate deploy` sorts them; `0_init` is what Prisma's baselining guide names the
first), with `migration_lock.toml` beside: a provider other than mysql (Prisma writes another
database's SQL) leaves the whole directory out, said at the lock file. Other files in a
migration's directory are not run by Prisma and are left out. The schema (`schema.prisma` beside
the migrations directory, or the files of `prisma/schema/`) is the application's model: what it
says about keys is evidence for the checks (`evidence`, read by `schema`). A new migration is a
directory `<timestamp>_<name>/migration.sql` that sorts after the others (Prisma keeps no down
migration)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from linter.input.migrations.formats.base import (
    Directory,
    Draft,
    Entry,
    History,
    HistoryNote,
    NamedFormat,
    NewMigration,
    next_version,
    sorting_after,
)

if TYPE_CHECKING:
    from linter.input.migrations.formats.prisma.schema import Field, Model
    from linter.input.migrations.orm_evidence import AppEvidence

#: `<version>_<name>/migration.sql`
_DIRECTORY = r"^\d+_"
#: the format's name, as the evidence of its schema names its source
FORMAT_NAME = "prisma"
FILE = "migration.sql"
LOCK = "migration_lock.toml"

#: caps on what is read of the schema
_SCHEMA_FILES = 64
#: Prisma's `@default(...)` generators: (what the values are, whether they arrive in key order)
_GENERATORS: dict[str, tuple[str, bool | None]] = {
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
#: How long the values of each text generator are, in ASCII characters, why, and the native type
#: that declares that width (`@db.Char` where every value has the length, `@db.VarChar` where it
#: may grow). Prisma makes them in its query engine (prisma-engines: `cuid()` is cuid(1), its
#: DEFAULT_CUID_VERSION, from the `cuid` crate; `cuid(2)` the `cuid2` crate's create_id(); `nanoid`
#: the `nanoid` crate; `ulid` and `uuid` the crates of those names):
#: - cuid: 25, "c", 8 base-36 digits of milliseconds, 4 of a counter, 4 of a host fingerprint, 8
#:   random (the cuid spec, github.com/ericelliott/cuid); the time part takes a ninth digit in
#:   2059, hence VarChar;
#: - cuid2: 24, the cuid2 crate's default length (docs.rs/cuid2: `assert_eq!(24, id.len())`; the
#:   reference implementation github.com/paralleldrive/cuid2 says the same default);
#: - nanoid: 21 (the nanoid crate and github.com/ai/nanoid), `nanoid(n)` n (Prisma: 2 to 255);
#: - ULID: 26 Crockford base32 characters (github.com/ulid/spec);
#: - UUID: 36, 32 hex digits and 4 hyphens (RFC 9562, section 4).
_VALUE_CHARS: dict[str, tuple[int, str, str]] = {
    "cuid": (25, "a cuid is 25 characters: c, 8 of time, 4 of counter, 4 of fingerprint, 8 random (the cuid spec)",
             "VarChar"),
    "cuid2": (24, "a cuid2 is 24 characters (the cuid2 default length Prisma uses)", "Char"),
    "nanoid": (21, "a nanoid is 21 characters (the nanoid default)", "Char"),
    "ulid": (26, "a ULID is 26 characters (the ULID spec)", "Char"),
    "uuid": (36, "a UUID as text is 36 characters (RFC 9562)", "Char"),
}
_VALUES_OF = {"uuid()": "uuid", "uuid(4)": "uuid", "uuid(7)": "uuid", "cuid()": "cuid", "cuid(1)": "cuid",
              "cuid(2)": "cuid2", "ulid()": "ulid", "nanoid()": "nanoid"}


def value_width(call: str) -> tuple[int, str, str] | None:
    """(characters, why, native type) of the values a `@default(...)` call makes (`call` without
    spaces: `nanoid(16)`), or None for one that makes no text of a known length."""
    if call in _VALUES_OF:
        return _VALUE_CHARS[_VALUES_OF[call]]
    sized = re.fullmatch(r"nanoid\((\d{1,3})\)", call)
    if sized is not None and 2 <= int(sized.group(1)) <= 255:
        n = int(sized.group(1))
        return n, f"nanoid({n}) values are {n} characters", "Char"
    return None


def _has_lock(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, LOCK))


class Prisma(NamedFormat):
    name = FORMAT_NAME
    on_edit = "Prisma reports the migration modified (or missing) and asks to reset the database"
    title = "Prisma"
    family = "prisma"
    doc = ("`prisma/migrations/<timestamp>_<name>/migration.sql`, in the order of the directory names "
           "(`0_init` first); `migration_lock.toml` naming another provider than mysql leaves the directory "
           "out, said at the lock file; other files beside a migration are not run")
    writes = "a Prisma migration folder"

    def entry(self, path: str) -> Entry | None:
        name = os.path.basename(path)
        parent = os.path.basename(os.path.dirname(path))
        if name == FILE and (re.match(_DIRECTORY, parent) or _has_lock(os.path.dirname(os.path.dirname(path)))):
            return Entry(path, self.family, (parent.encode("utf-8", "surrogateescape"),))  # type: ignore[arg-type]
        return None

    def directory_root(self, path: str) -> str | None:
        directory = os.path.dirname(os.path.abspath(path))
        if os.path.basename(path) == FILE and (re.match(_DIRECTORY, os.path.basename(directory))
                                               or _has_lock(os.path.dirname(directory))):
            return os.path.dirname(directory)
        return None

    def migration_directory(self, name: str) -> bool:
        return re.match(_DIRECTORY, name) is not None

    def directory_file(self, name: str) -> bool:
        return name == FILE

    def named_by_directory(self, name: str) -> bool:
        return name == FILE

    def companion(self, name: str) -> bool:
        return name == LOCK or name.endswith(".prisma")

    def order(self, directory: Directory, configured: bool) -> tuple[History | None, list[str]]:
        history, others = super().order(directory, configured)
        if history is None:
            return history, others
        return history, _lock_and_beside(history, others, directory.inside)

    def write(self, draft: Draft) -> NewMigration:
        """`prisma migrate dev` names a folder `<UTC timestamp>_<name>` and runs the folders by name."""
        folders = [n for n in draft.names if re.match(_DIRECTORY, n) and os.path.isdir(os.path.join(draft.root, n))]
        stamps = [m.group(1) for n in folders if (m := re.match(r"(\d{14})_", n))]
        version = next_version(stamps or ["0"], draft.now) if stamps else time.strftime(
            "%Y%m%d%H%M%S", time.gmtime(draft.now if draft.now is not None else time.time()))
        folder = sorting_after(f"{version}_{draft.label}", folders)
        return NewMigration({f"{folder}/{FILE}": draft.up}, directory=folder)

    def evidence(self, history: History, inside: Callable[[str], bool], found: AppEvidence) -> None:
        """What the schema beside the migrations says about keys and link tables (see `schema`)."""
        schema_evidence(history.root, inside, found)


def schema_evidence(migrations: str, inside: Callable[[str], bool], found: AppEvidence) -> None:
    """What the schema of the Prisma project whose migrations directory is `migrations` says about
    keys and link tables (see `schema`), into `found`."""
    from linter.input.migrations.formats.prisma import schema as prisma_schema
    from linter.input.migrations.orm_evidence import KeyEvidence, LinkEvidence, read_model_file

    schemas = []
    for path in schema_files(migrations):
        text = read_model_file(path, inside)
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
            width = None
            if len(ids) == 1:
                default = ids[0].attribute("default")
                if default is not None:
                    call = "".join(default.args.split())
                    generator = f"@default({default.args})"
                    width = value_width(call) if ids[0].type == "String" else None
                    if call in _GENERATORS:
                        kind, ordered = _GENERATORS[call]
                    elif call.startswith("dbgenerated("):
                        kind, ordered = "values the database's DEFAULT makes (see the DDL)", None
                    elif call.startswith("nanoid("):
                        kind, ordered = _GENERATORS["nanoid()"]
                    else:
                        kind = f"values made by {call}"
            block = model.attribute("id")
            line = ids[0].line if len(ids) == 1 or block is None else block.line
            found.keys[table] = KeyEvidence(
                FORMAT_NAME, model.path, line, model.name, tuple(f.column for f in ids), generator, ordered, kind,
                f"Fix in the model {model.name}: a time-ordered @default (`uuid(7)` where your Prisma version has it; "
                "`cuid()` values start with the time), or `Int @id @default(autoincrement())` with the UUID as an "
                "@unique field; let `prisma migrate dev` write the migration (an ALTER of your own is drift to "
                "Prisma). Rows already there keep their order; new ones append.",
                value_chars=width[0] if width else None, value_source=width[1] if width else "",
                declare=_declare(model, ids[0], width) if len(ids) == 1 and ids[0].type == "String" else None,
                rekey=_rekey(model, ids))
        relations = [f for f in model.fields if prisma_schema.is_relation(schema, f) and not f.is_list
                     and f.attribute("relation") is not None and "fields" in f.attribute("relation").args]  # type: ignore[union-attr]
        if len(relations) == 2 and relations[0].type != model.name:
            columns = []
            for field in relations:
                names = prisma_schema.field_list(field.attribute("relation").args)  # type: ignore[union-attr]
                own = model.field(names[0]) if names else None
                columns.append(own.column if own is not None else (names[0] if names else field.name))
            pair = ", ".join(columns)
            found.links[table] = LinkEvidence(
                FORMAT_NAME, model.path, model.line, model.name, (relations[0].type, relations[1].type),
                (columns[0], columns[1]), tuple(f.column for f in ids), False,
                f"in Prisma, give it @@id([{pair}]) in place of its own id and let `prisma migrate dev` write the "
                "migration (an ALTER of your own is drift to Prisma).", f"{FORMAT_NAME} relation")
    for table, first, first_field, second, _ in prisma_schema.implicit_links(schema):
        where = f"{first.path}:{first_field.line}"
        found.links[table.lower()] = LinkEvidence(
            FORMAT_NAME, first.path, first_field.line, None, (first.name, second.name), ("A", "B"), (), True,
            f"The table is Prisma's implicit many-to-many table for {first.name} and {second.name} (their relation "
            f"fields, {where}): Prisma writes it with this UNIQUE key and no primary key on MySQL, and an ALTER of "
            "your own is drift that the next `prisma migrate dev` undoes. To declare a key, make the relation "
            f"explicit: a model relating {first.name} and {second.name} with @@id on its two relation columns.",
            "Prisma implicit many-to-many relation")


def _declare(model: Model, field: Field, width: tuple[int, str, str] | None) -> str:
    """How to declare a String key field as wide as its values: the native type attribute on the
    field (Prisma's `String` is VARCHAR(191) on MySQL without one), in place of the one it has."""
    where = f"{model.path}:{field.line}"
    has = next((a for a in field.attributes if a.name.startswith("db.")), None)
    if width is None:
        wanted = "`@db.VarChar(n)` (n: the longest id the application assigns)"
    else:
        wanted = f"`@db.{width[2]}({width[0]})`"
    how = (f"replace `@{has.name}({has.args})` with {wanted}" if has is not None else f"add {wanted}")
    return (f"in the model {model.name}, {how} on the field {field.name} ({where}) and let `prisma migrate dev` "
            "write the migration (an ALTER of your own is drift that Prisma's next migration undoes)")


def _rekey(model: Model, ids: list[Field]) -> str:
    """A narrow surrogate key for a model, in Prisma's terms: an autoincrement BigInt @id, the
    current key kept unique (`@unique` on its field, `@@unique([...])` for several)."""
    names = {f.name for f in model.fields}
    surrogate, n = "id", 1
    while surrogate in names:
        surrogate, n = ("rowId" if n == 1 else f"rowId{n}"), n + 1
    kept = (f"`@unique` on {ids[0].name}" if len(ids) == 1
            else f"`@@unique([{', '.join(f.name for f in ids)}])`")
    return (f"in the model {model.name} ({model.path}:{model.line}), a narrow surrogate key `{surrogate} BigInt @id "
            f"@default(autoincrement())` with the current key kept unique ({kept}: relations that reference it "
            "keep working); let `prisma migrate dev` write the migration (an ALTER of your own is drift that Prisma's "
            "next migration undoes)")


def schema_files(migrations: str) -> list[str]:
    """The schema files of a Prisma project whose migrations directory is `migrations`."""
    parent = os.path.dirname(os.path.abspath(migrations))
    found = []
    for directory in (parent, os.path.join(parent, "schema")):
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        found += [os.path.join(directory, n) for n in names if n.endswith(".prisma")]
    return found[:_SCHEMA_FILES]


def _lock_and_beside(history: History, others: list[str], inside: Callable[[str], bool]) -> list[str]:
    """Prisma's lock file decides whether the directory is MySQL's; files in a migration's
    directory other than migration.sql are not run by Prisma. Returns the other files left."""
    lock = os.path.join(history.root, LOCK)
    if os.path.isfile(lock):
        provider, line, refused = _provider(lock, inside)
        if refused is not None:
            history.notes.append(HistoryNote(lock, 1, f"{refused}: innolint takes the migrations for MySQL's"))
        elif provider is None:
            history.notes.append(HistoryNote(lock, line, "migration_lock.toml names no provider: innolint takes the "
                                             "migrations for MySQL's", "parse-error", "info"))
        elif provider.lower() != "mysql":
            history.notes.append(HistoryNote(lock, line, f"provider = {provider!r}: these Prisma migrations are written "
                                             "for another database (Prisma writes MySQL and MariaDB migrations under "
                                             "provider \"mysql\"); not linted", "parse-error", "info"))
            history.ignored.extend((p, f"prisma provider {provider}") for p in history.files)
            history.files = []
    beside = [p for p in others if os.path.dirname(os.path.dirname(os.path.abspath(p))) == os.path.abspath(history.root)
              and re.match(_DIRECTORY, os.path.basename(os.path.dirname(p)))]
    history.ignored.extend((p, "not run by prisma migrate (only migration.sql is)") for p in beside)
    left_out = set(beside)
    return [p for p in others if p not in left_out]


def _provider(lock: str, inside: Callable[[str], bool]) -> tuple[str | None, int, str | None]:
    """The `provider` of a migration_lock.toml and its line, or why the file was not read (a link
    to a file outside the tree: `linter.input.file_access.read_inside`)."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib

    from linter.input.file_access import CONFIG_FILE_CAP, FileRefused, read_inside

    try:
        text = read_inside(lock, inside, CONFIG_FILE_CAP, "lock file").decode("utf-8")
        data = tomllib.loads(text)
    except FileRefused as error:
        return None, 1, str(error)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None, 1, None
    provider = data.get("provider")
    line = next((n for n, line in enumerate(text.split("\n"), start=1) if "provider" in line), 1)
    return (provider if isinstance(provider, str) else None), line, None


FORMAT = Prisma()
