"""Generated migration histories, written the way today's tools write them (Prisma, Atlas,
Liquibase formatted SQL and changelogs, Laravel's squashed schema), from one seeded evolution of a
schema: tables created, columns added, changed and dropped, indexes created, renamed and dropped,
foreign keys added and dropped, across several migrations. The same evolution also gives a plain
script for the server (`truth`), written without any tool's syntax, so that what innolint replays
from a tool's files can be compared with what MariaDB holds after the plain script.

Variations come from the seed: entity names, key types (integer AUTO_INCREMENT or a string id),
how many migrations, which later changes happen, and the spelling of names."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from linter.engine import RunOptions, lint_paths
from linter.input.git_changes import ChangeSet
from linter.rules.checkapi import CheckContext
from linter.rules.findings import Report
from linter.schema.target import Target

# --- the evolution -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Col:
    name: str
    type: str  # MySQL type as Prisma/Atlas write it, upper case
    nullable: bool = False
    default: str | None = None
    auto_increment: bool = False

    def sql(self) -> str:
        text = f"`{self.name}` {self.type}{' NULL' if self.nullable else ' NOT NULL'}"
        if self.default is not None:
            text += f" DEFAULT {self.default}"
        if self.auto_increment:
            text += " AUTO_INCREMENT"
        return text


@dataclass
class Op:
    kind: str  # create, add, drop_column, modify, index, drop_index, rename_index, fk, drop_fk
    table: str
    columns: tuple[Col, ...] = ()
    primary: tuple[str, ...] = ()
    uniques: tuple[tuple[str, tuple[str, ...]], ...] = ()
    indexes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    name: str = ""  # index or constraint name; the column for drop_column
    new_name: str = ""
    index_columns: tuple[str, ...] = ()
    unique: bool = False
    ref_table: str = ""
    ref_columns: tuple[str, ...] = ()


@dataclass
class Evolution:
    """Migrations (each a list of operations) and the entity names they use."""

    migrations: list[list[Op]]
    names: dict[str, str] = field(default_factory=dict)
    string_ids: bool = False


_ENTITIES = [
    ("User", "Post", "Tag", "Comment"),
    ("Customer", "Order", "Product", "Invoice"),
    ("Author", "Book", "Genre", "Review"),
    ("Team", "Project", "Label", "Task"),
    ("Account", "Payment", "Category", "Refund"),
]


def evolve(seed: int) -> Evolution:
    """A schema's history over 5 to 7 migrations (see the module docstring)."""
    rng = random.Random(seed)
    owner, item, tag, child = rng.choice(_ENTITIES)
    string_ids = rng.random() < 0.5
    id_col = Col("id", "VARCHAR(191)") if string_ids else Col("id", "INTEGER", auto_increment=True)
    ref_type = "VARCHAR(191)" if string_ids else "INTEGER"
    o, i, t, c = owner, item, tag, child
    fk_o = f"{o[0].lower()}{o[1:]}Id"
    migrations: list[list[Op]] = []
    migrations.append([
        Op("create", o, (id_col, Col("email", "VARCHAR(191)"), Col("name", "VARCHAR(191)", nullable=True),
                         Col("createdAt", "DATETIME(3)", default="CURRENT_TIMESTAMP(3)")),
           primary=("id",), uniques=((f"{o}_email_key", ("email",)),)),
        Op("create", i, (id_col, Col("title", "VARCHAR(191)"), Col(fk_o, ref_type)), primary=("id",)),
        Op("fk", i, name=f"{i}_{fk_o}_fkey", index_columns=(fk_o,), ref_table=o, ref_columns=("id",)),
    ])
    migrations.append([
        Op("add", i, (Col("published", "BOOLEAN", default="false"),)),
        Op("add", i, (Col("body", "TEXT", nullable=True),)),
        Op("index", i, name=f"{i}_title_idx", index_columns=("title",)),
    ])
    link = f"_{i}To{t}" if i < t else f"_{t}To{i}"
    a_type, b_type = (ref_type, "INTEGER") if i < t else ("INTEGER", ref_type)
    migrations.append([
        Op("create", t, (Col("id", "INTEGER", auto_increment=True), Col("name", "VARCHAR(191)")), primary=("id",),
           uniques=((f"{t}_name_key", ("name",)),)),
        Op("create", link, (Col("A", a_type), Col("B", b_type)),
           uniques=((f"{link}_AB_unique", ("A", "B")),), indexes=((f"{link}_B_index", ("B",)),)),
        Op("fk", link, name=f"{link}_A_fkey", index_columns=("A",), ref_table=i if i < t else t, ref_columns=("id",)),
        Op("fk", link, name=f"{link}_B_fkey", index_columns=("B",), ref_table=t if i < t else i, ref_columns=("id",)),
    ])
    later: list[list[Op]] = [
        [Op("modify", o, (Col("name", "VARCHAR(100)", nullable=True),)),
         Op("index", i, name=f"{i}_{fk_o}_published_idx", index_columns=(fk_o, "published"))],
        [Op("drop_index", i, name=f"{i}_title_idx"),
         Op("index", i, name=f"{i}_title_key", index_columns=("title",), unique=True),
         Op("rename_index", o, name=f"{o}_email_key", new_name=f"{o}_email_unique")],
        [Op("create", c, (Col("id", "BIGINT", auto_increment=True), Col(f"{i[0].lower()}{i[1:]}Id", ref_type),
                          Col("text", "TEXT")), primary=("id",)),
         Op("fk", c, name=f"{c}_{i[0].lower()}{i[1:]}Id_fkey", index_columns=(f"{i[0].lower()}{i[1:]}Id",),
            ref_table=i, ref_columns=("id",))],
        [Op("drop_fk", i, name=f"{i}_{fk_o}_fkey"),
         Op("fk", i, name=f"{i}_{fk_o}_fkey", index_columns=(fk_o,), ref_table=o, ref_columns=("id",)),
         Op("drop_column", i, name="body")],
    ]
    rng.shuffle(later)
    migrations.extend(later[: rng.randint(2, len(later))])
    return Evolution(migrations, {"owner": o, "item": i, "tag": t, "child": c, "link": link}, string_ids)


# --- Prisma's style ---------------------------------------------------------------------------------


_PRISMA_COMMENTS = {"create": "CreateTable", "add": "AlterTable", "drop_column": "AlterTable", "modify": "AlterTable",
                    "index": "CreateIndex", "drop_index": "DropIndex", "rename_index": "RenameIndex",
                    "fk": "AddForeignKey", "drop_fk": "DropForeignKey"}


def _names(columns: tuple[str, ...]) -> str:
    return ", ".join(f"`{x}`" for x in columns)


def statement(op: Op) -> str:
    """One operation as MySQL DDL, spelled as Prisma spells it (no delimiter)."""
    q = f"`{op.table}`"
    if op.kind == "create":
        lines = [f"    {col.sql()}," for col in op.columns]
        lines.append("")
        lines += [f"    UNIQUE INDEX `{n}`({_names(cols)})," for n, cols in op.uniques]
        lines += [f"    INDEX `{n}`({_names(cols)})," for n, cols in op.indexes]
        if op.primary:
            lines.append(f"    PRIMARY KEY ({_names(op.primary)})")
        else:
            lines[-1] = lines[-1].rstrip(",")
        body = "\n".join(lines)
        return f"CREATE TABLE {q} (\n{body}\n) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
    if op.kind == "add":
        return f"ALTER TABLE {q} " + ",\n    ".join(f"ADD COLUMN {col.sql()}" for col in op.columns)
    if op.kind == "drop_column":
        return f"ALTER TABLE {q} DROP COLUMN `{op.name}`"
    if op.kind == "modify":
        return f"ALTER TABLE {q} MODIFY {op.columns[0].sql()}"
    if op.kind == "index":
        return f"CREATE {'UNIQUE INDEX' if op.unique else 'INDEX'} `{op.name}` ON {q}({_names(op.index_columns)})"
    if op.kind == "drop_index":
        return f"DROP INDEX `{op.name}` ON {q}"
    if op.kind == "rename_index":
        return f"ALTER TABLE {q} RENAME INDEX `{op.name}` TO `{op.new_name}`"
    if op.kind == "fk":
        return (f"ALTER TABLE {q} ADD CONSTRAINT `{op.name}` FOREIGN KEY ({_names(op.index_columns)}) REFERENCES "
                f"`{op.ref_table}`({_names(op.ref_columns)}) ON DELETE RESTRICT ON UPDATE CASCADE")
    if op.kind == "drop_fk":
        return f"ALTER TABLE {q} DROP FOREIGN KEY `{op.name}`"
    raise ValueError(op.kind)


def prisma_sql(ops: list[Op]) -> str:
    """A migration.sql as `prisma migrate dev` writes it for MySQL."""
    return "\n".join(f"-- {_PRISMA_COMMENTS[op.kind]}\n{statement(op)};\n" for op in ops)


def prisma_down(ops: list[Op]) -> str:
    """A down.sql as `prisma migrate diff --script` writes one beside a migration (Prisma never
    runs it): the tables the migration created are dropped."""
    created = [op.table for op in ops if op.kind == "create"]
    return "".join(f"-- DropTable\nDROP TABLE `{name}`;\n" for name in reversed(created)) or "-- nothing\n"


def prisma_schema(evolution: Evolution, id_default: str = "uuid()", mapped: bool = False) -> str:
    """The schema.prisma the history was generated from (its final state)."""
    n = evolution.names
    o, i, t = n["owner"], n["item"], n["tag"]
    fk_o = f"{o[0].lower()}{o[1:]}Id"
    id_field = f'id String @id @default({id_default})' if evolution.string_ids else "id Int @id @default(autoincrement())"
    ref = "String" if evolution.string_ids else "Int"
    map_o = f'\n  @@map("{o}")' if mapped else ""
    return f"""// This is your Prisma schema file,
// learn more about it in the docs: https://pris.ly/d/prisma-schema

generator client {{
  provider = "prisma-client-js"
}}

datasource db {{
  provider = "mysql"
  url      = env("DATABASE_URL")
}}

model {o} {{
  {id_field}
  email     String   @unique
  name      String?  @db.VarChar(100)
  createdAt DateTime @default(now())
  items     {i}[]{map_o}
}}

model {i} {{
  {id_field}
  title     String
  published Boolean  @default(false)
  {fk_o} {ref}
  owner     {o}     @relation(fields: [{fk_o}], references: [id])
  tags      {t}[]
}}

model {t} {{
  id    Int    @id @default(autoincrement())
  name  String @unique
  items {i}[]
}}
"""


# --- Atlas's style ------------------------------------------------------------------------------------


def atlas_sql(ops: list[Op]) -> str:
    """A migration file as `atlas migrate diff` writes it for MySQL."""
    out = []
    fks = {op.table: [] for op in ops}  # Atlas puts a new table's foreign keys in its CREATE TABLE
    for op in ops:
        if op.kind == "fk" and any(o.kind == "create" and o.table == op.table for o in ops):
            fks[op.table].append(op)
    for op in ops:
        q = f"`{op.table}`"
        if op.kind == "create":
            lines = [f"  {col.sql().replace('INTEGER', 'int').replace('VARCHAR', 'varchar')}" for col in op.columns]
            if op.primary:
                lines.append(f"  PRIMARY KEY ({', '.join(f'`{x}`' for x in op.primary)})")
            lines += [f"  UNIQUE INDEX `{name}` ({', '.join(f'`{x}`' for x in cols)})" for name, cols in op.uniques]
            lines += [f"  INDEX `{name}` ({', '.join(f'`{x}`' for x in cols)})" for name, cols in op.indexes]
            # an index MySQL would make for a foreign key that no key starts with (Atlas writes what it inspected)
            starts = [cols[: len(fk.index_columns)] for _, cols in (*op.uniques, *op.indexes) for fk in fks[op.table]]
            lines += [f"  INDEX `{fk.name}` ({', '.join(f'`{x}`' for x in fk.index_columns)})" for fk in fks[op.table]
                      if fk.index_columns not in starts and fk.index_columns != op.primary[: len(fk.index_columns)]]
            lines += [f"  CONSTRAINT `{fk.name}` FOREIGN KEY ({', '.join(f'`{x}`' for x in fk.index_columns)}) "
                      f"REFERENCES `{fk.ref_table}` ({', '.join(f'`{x}`' for x in fk.ref_columns)}) "
                      "ON UPDATE NO ACTION ON DELETE CASCADE" for fk in fks[op.table]]
            out.append(f'-- Create "{op.table}" table\nCREATE TABLE {q} (\n' + ",\n".join(lines)
                       + "\n) CHARSET utf8mb4 COLLATE utf8mb4_unicode_ci;")
        elif op.kind == "fk" and op in fks.get(op.table, []):
            continue
        elif op.kind == "add":
            adds = ", ".join(f"ADD COLUMN {col.sql()}" for col in op.columns)
            out.append(f'-- Modify "{op.table}" table\nALTER TABLE {q} {adds};')
        elif op.kind == "drop_column":
            out.append(f'-- Modify "{op.table}" table\nALTER TABLE {q} DROP COLUMN `{op.name}`;')
        elif op.kind == "modify":
            out.append(f'-- Modify "{op.table}" table\nALTER TABLE {q} MODIFY COLUMN {op.columns[0].sql()};')
        elif op.kind == "index":
            kind = "UNIQUE INDEX" if op.unique else "INDEX"
            out.append(f'-- Create index "{op.name}" to table: "{op.table}"\nCREATE {kind} `{op.name}` ON {q} '
                       f"({', '.join(f'`{x}`' for x in op.index_columns)});")
        elif op.kind == "drop_index":
            out.append(f'-- Modify "{op.table}" table\nALTER TABLE {q} DROP INDEX `{op.name}`;')
        elif op.kind == "rename_index":
            out.append(f'-- Modify "{op.table}" table\nALTER TABLE {q} RENAME INDEX `{op.name}` TO `{op.new_name}`;')
        elif op.kind == "fk":
            out.append(f'-- Modify "{op.table}" table\nALTER TABLE {q} ADD CONSTRAINT `{op.name}` FOREIGN KEY '
                       f"({', '.join(f'`{x}`' for x in op.index_columns)}) REFERENCES `{op.ref_table}` "
                       f"({', '.join(f'`{x}`' for x in op.ref_columns)}) ON UPDATE NO ACTION ON DELETE CASCADE;")
        elif op.kind == "drop_fk":
            out.append(f'-- Modify "{op.table}" table\nALTER TABLE {q} DROP FOREIGN KEY `{op.name}`;')
    return "\n".join(out) + "\n"


# --- plain SQL (Liquibase changesets, the server's script) ---------------------------------------------


def plain_statements(ops: list[Op]) -> list[str]:
    """Each operation as one plain MySQL statement (no comments, no tool syntax)."""
    return [statement(op) for op in ops]


def truth(evolution: Evolution, upto: int | None = None) -> str:
    """The whole history as one plain script for the mysql client."""
    migrations = evolution.migrations if upto is None else evolution.migrations[:upto]
    return "".join(f"{s};\n" for ops in migrations for s in plain_statements(ops))


def liquibase_sql(ops: list[Op], author: str, number: int, rng: random.Random) -> str:
    """A formatted SQL changelog: one changeset per statement or per migration, rollbacks as
    `--rollback` lines or a `/* liquibase rollback */` block, and the metadata lines people write."""
    statements = plain_statements(ops)
    out = ["--liquibase formatted sql", ""]
    spaced = rng.random() < 0.3
    grouped = rng.random() < 0.5
    groups = [statements] if grouped else [[s] for s in statements]
    for n, group in enumerate(groups, start=1):
        dash = "-- " if spaced else "--"
        out.append(f"{dash}changeset {author}:{number}-{n}" + (" runOnChange:true" if n % 3 == 0 else "")
                   + (" context:dev,prod labels:v1" if n % 4 == 0 else ""))
        if rng.random() < 0.4:
            out.append(f"--comment: migration {number} part {n}")
        if rng.random() < 0.2:
            out.append("--validCheckSum: ANY")
        out += [f"{s};" for s in group]
        if rng.random() < 0.5:
            out.append("--rollback SELECT 1;")
        else:
            out += ["/* liquibase rollback", "DROP TABLE IF EXISTS `nothing_here`;", "*/"]
        out.append("")
    return "\n".join(out)


# --- writers ------------------------------------------------------------------------------------------


def timestamps(rng: random.Random, count: int, start: int = 20230101000000) -> list[str]:
    """Increasing 14-digit timestamps with random gaps (as migration tools name migrations)."""
    import datetime

    moment = datetime.datetime.strptime(str(start), "%Y%m%d%H%M%S")
    found = []
    for _ in range(count):
        moment += datetime.timedelta(seconds=rng.randint(30, 86_400 * 40))
        found.append(moment.strftime("%Y%m%d%H%M%S"))
    return found


_SLUGS = ("init", "add_published", "tags", "tighten_names", "reindex", "children", "foreign_keys", "cleanup")


def write_prisma(root: Path, evolution: Evolution, seed: int, *, provider: str = "mysql", downs: bool = True,
                 id_default: str = "uuid()", baseline_name: bool = False) -> Path:
    """A Prisma project: `<root>/prisma/migrations/<ts>_<name>/migration.sql` (and the down.sql
    some teams keep beside it), migration_lock.toml and schema.prisma. Returns the migrations dir."""
    rng = random.Random(seed)
    migrations = root / "prisma" / "migrations"
    migrations.mkdir(parents=True, exist_ok=True)
    stamps = timestamps(rng, len(evolution.migrations))
    if baseline_name:
        stamps[0] = "0"
    # written newest first: order must come from the names, not from the disk
    for n in reversed(range(len(evolution.migrations))):
        ops = evolution.migrations[n]
        folder = migrations / f"{stamps[n]}_{_SLUGS[n % len(_SLUGS)]}"
        folder.mkdir()
        (folder / "migration.sql").write_text(prisma_sql(ops), encoding="utf-8")
        if downs and n % 2:
            (folder / "down.sql").write_text(prisma_down(ops), encoding="utf-8")
    (migrations / "migration_lock.toml").write_text(
        "# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\n"
        f'provider = "{provider}"\n', encoding="utf-8")
    (root / "prisma" / "schema.prisma").write_text(prisma_schema(evolution, id_default), encoding="utf-8")
    return migrations


def write_atlas(directory: Path, evolution: Evolution, seed: int, *, named: bool = True) -> list[Path]:
    """An Atlas migration directory with its atlas.sum (as `atlas migrate diff` leaves it)."""
    from linter.input.migrations.formats.atlas import sorted_names, sum_text

    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, (stamp, ops) in enumerate(zip(timestamps(rng, len(evolution.migrations)), evolution.migrations)):
        name = f"{stamp}_{_SLUGS[n % len(_SLUGS)]}.sql" if named else f"{stamp}.sql"
        path = directory / name
        path.write_text(atlas_sql(ops), encoding="utf-8")
        paths.append(path)
    contents = [(p.name, p.read_bytes()) for p in paths]
    order = sorted_names(name for name, _ in contents)
    contents.sort(key=lambda item: order.index(item[0]))
    (directory / "atlas.sum").write_text(sum_text(contents), encoding="utf-8")
    return paths


def write_liquibase(root: Path, evolution: Evolution, seed: int, *, master: str | None = "yaml",
                    include: str = "all", relative: bool = False) -> tuple[Path | None, list[Path]]:
    """A Spring Boot style Liquibase project: formatted SQL files, one per migration, in
    `src/main/resources/db/changelog/changes/`, and a master changelog (`master`: "xml", "yaml",
    "json" or None) that takes them with includeAll (`include="all"`) or one include each,
    classpath-relative or (`relative`) relative to the changelog. Returns (master, files)."""
    rng = random.Random(seed)
    base = root / "src" / "main" / "resources" / "db" / "changelog"
    changes = base / "changes"
    changes.mkdir(parents=True, exist_ok=True)
    authors = ["alice", "bob", "carol", "dave"]
    files = []
    for n, ops in enumerate(evolution.migrations, start=1):
        path = changes / f"{n:03d}-{_SLUGS[(n - 1) % len(_SLUGS)].replace('_', '-')}.sql"
        path.write_text(liquibase_sql(ops, rng.choice(authors), n, rng), encoding="utf-8")
        files.append(path)
    if master is None:
        return None, files
    names = [("changes/" + p.name) if relative else f"db/changelog/changes/{p.name}" for p in files]
    folder = "changes/" if relative else "db/changelog/changes/"
    flag = relative
    if master == "xml":
        items = ([f'    <includeAll path="{folder}" relativeToChangelogFile="{str(flag).lower()}"/>'] if include == "all"
                 else [f'    <include file="{name}" relativeToChangelogFile="{str(flag).lower()}"/>' for name in names])
        text = ('<?xml version="1.0" encoding="UTF-8"?>\n<databaseChangeLog\n'
                '    xmlns="http://www.liquibase.org/xml/ns/dbchangelog"\n'
                '    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
                '    xsi:schemaLocation="http://www.liquibase.org/xml/ns/dbchangelog '
                'http://www.liquibase.org/xml/ns/dbchangelog/dbchangelog-latest.xsd">\n' + "\n".join(items)
                + "\n</databaseChangeLog>\n")
        path = base / "db.changelog-master.xml"
    elif master == "yaml":
        items = ([f"  - includeAll:\n      path: {folder}\n      relativeToChangelogFile: {str(flag).lower()}"]
                 if include == "all" else
                 [f"  - include:\n      file: {name}\n      relativeToChangelogFile: {str(flag).lower()}" for name in names])
        text = "databaseChangeLog:\n" + "\n".join(items) + "\n"
        path = base / "db.changelog-master.yaml"
    else:
        import json

        items = ([{"includeAll": {"path": folder, "relativeToChangelogFile": flag}}] if include == "all"
                 else [{"include": {"file": name, "relativeToChangelogFile": flag}} for name in names])
        text = json.dumps({"databaseChangeLog": items}, indent=2) + "\n"
        path = base / "db.changelog-master.json"
    path.write_text(text, encoding="utf-8")
    return path, files


# --- Liquibase change types (createTable, addColumn ...) -------------------------------------------------


def _xml_type(written: str) -> str:
    """A type as Liquibase changelogs spell it (BOOLEAN as tinyint(1): Liquibase's `boolean` is BIT(1))."""
    return {"INTEGER": "int", "BOOLEAN": "tinyint(1)"}.get(written, written.lower())


def _xml_column(col: Col, op: Op) -> str:
    attrs = f'name="{col.name}" type="{_xml_type(col.type)}"'
    if col.auto_increment:
        attrs += ' autoIncrement="true"'
    if col.default is not None:
        key = ("defaultValueBoolean" if col.default in ("true", "false") else
               "defaultValueComputed" if "(" in col.default or col.default.isupper() else "defaultValue")
        attrs += f' {key}="{col.default}"'
    constraints = []
    if col.name in op.primary and len(op.primary) == 1:
        constraints.append('primaryKey="true"')
    single = [name for name, cols in op.uniques if cols == (col.name,)]
    if single:
        constraints.append(f'unique="true" uniqueConstraintName="{single[0]}"')
    constraints.append(f'nullable="{"true" if col.nullable else "false"}"')
    return f"            <column {attrs}>\n                <constraints {' '.join(constraints)}/>\n            </column>"


def xml_changes(ops: list[Op]) -> list[str]:
    """Each operation as Liquibase XML change elements (rename of an index has no change type:
    an `<sql>` change, as people write it)."""
    out = []
    for op in ops:
        t = op.table
        if op.kind == "create":
            columns = "\n".join(_xml_column(col, op) for col in op.columns)
            out.append(f'        <createTable tableName="{t}">\n{columns}\n        </createTable>')
            if len(op.primary) > 1:
                out.append(f'        <addPrimaryKey tableName="{t}" columnNames="{", ".join(op.primary)}"/>')
            for name, cols in op.uniques:
                if len(cols) > 1:
                    out.append(f'        <addUniqueConstraint tableName="{t}" columnNames="{", ".join(cols)}" '
                               f'constraintName="{name}"/>')
            for name, cols in op.indexes:
                columns = "".join(f'<column name="{c}"/>' for c in cols)
                out.append(f'        <createIndex tableName="{t}" indexName="{name}">{columns}</createIndex>')
        elif op.kind == "add":
            columns = "\n".join(_xml_column(col, op) for col in op.columns)
            out.append(f'        <addColumn tableName="{t}">\n{columns}\n        </addColumn>')
        elif op.kind == "drop_column":
            out.append(f'        <dropColumn tableName="{t}" columnName="{op.name}"/>')
        elif op.kind == "modify":
            col = op.columns[0]
            out.append(f'        <modifyDataType tableName="{t}" columnName="{col.name}" newDataType="{_xml_type(col.type)}"/>')
        elif op.kind == "index":
            columns = "".join(f'<column name="{c}"/>' for c in op.index_columns)
            unique = ' unique="true"' if op.unique else ""
            out.append(f'        <createIndex tableName="{t}" indexName="{op.name}"{unique}>{columns}</createIndex>')
        elif op.kind == "drop_index":
            out.append(f'        <dropIndex tableName="{t}" indexName="{op.name}"/>')
        elif op.kind == "rename_index":
            out.append(f"        <sql>ALTER TABLE `{t}` RENAME INDEX `{op.name}` TO `{op.new_name}`</sql>")
        elif op.kind == "fk":
            out.append(f'        <addForeignKeyConstraint baseTableName="{t}" baseColumnNames="{", ".join(op.index_columns)}" '
                       f'constraintName="{op.name}" referencedTableName="{op.ref_table}" '
                       f'referencedColumnNames="{", ".join(op.ref_columns)}" onDelete="RESTRICT" onUpdate="CASCADE"/>')
        elif op.kind == "drop_fk":
            out.append(f'        <dropForeignKeyConstraint baseTableName="{t}" constraintName="{op.name}"/>')
    return out


def write_liquibase_xml(directory: Path, evolution: Evolution, seed: int) -> Path:
    """A JHipster-style changelog: a master including one XML changelog per migration, each a
    changeset of change types (with a rollback)."""
    changelog = directory / "changelog"
    changelog.mkdir(parents=True, exist_ok=True)
    includes = []
    for n, ops in enumerate(evolution.migrations, start=1):
        name = f"{n:014d}_{_SLUGS[(n - 1) % len(_SLUGS)]}.xml"
        body = "\n".join(xml_changes(ops))
        (changelog / name).write_text(
            '<?xml version="1.0" encoding="utf-8"?>\n<databaseChangeLog\n'
            '    xmlns="http://www.liquibase.org/xml/ns/dbchangelog"\n'
            '    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
            '    xsi:schemaLocation="http://www.liquibase.org/xml/ns/dbchangelog '
            'http://www.liquibase.org/xml/ns/dbchangelog/dbchangelog-latest.xsd">\n'
            f'    <changeSet id="{n}-{seed}" author="jhipster">\n{body}\n'
            '        <rollback><sql>SELECT 1</sql></rollback>\n    </changeSet>\n</databaseChangeLog>\n', encoding="utf-8")
        includes.append(f'    <include file="changelog/{name}" relativeToChangelogFile="true"/>')
    master = directory / "master.xml"
    master.write_text('<?xml version="1.0" encoding="utf-8"?>\n<databaseChangeLog '
                      'xmlns="http://www.liquibase.org/xml/ns/dbchangelog">\n' + "\n".join(includes)
                      + "\n</databaseChangeLog>\n", encoding="utf-8")
    return master


def write_prisma_project(root: Path, models: str, sql: str, folder: str = "20240101000000_init") -> Path:
    """A Prisma project with one migration: schema.prisma (a MySQL datasource, then `models`, which
    start at line 6), the lock file, and `prisma/migrations/<folder>/migration.sql` holding `sql`."""
    prisma = root / "prisma"
    (prisma / "migrations" / folder).mkdir(parents=True)
    (prisma / "migrations" / "migration_lock.toml").write_text('provider = "mysql"\n')
    (prisma / "schema.prisma").write_text(
        'datasource db {\n  provider = "mysql"\n  url = env("DATABASE_URL")\n}\n\n' + models)
    (prisma / "migrations" / folder / "migration.sql").write_text(sql)
    return root


# -- linting a written history (shared by the Prisma, Atlas and Liquibase tests) ------------------
PROBLEMS = ("parse-error", "replay-error", "io-error")


def lint(*paths: Path, target: str = "mysql-8.0", changed: list[Path] | None = None) -> Report:
    """innolint over `paths` for `target`; `changed`: as --changed-only sees those files."""
    options = RunOptions(changes=ChangeSet.from_files(str(p) for p in changed)) if changed else None
    return lint_paths([str(p) for p in paths], CheckContext(target=Target.parse(target)), options=options)


def problems(report: Report) -> list[str]:
    """The statements innolint did not understand or could not replay, as `path:line: rule: message`."""
    return [f"{d.path}:{d.line}: {d.rule}: {d.message}" for d in report.diagnostics if d.rule in PROBLEMS]
