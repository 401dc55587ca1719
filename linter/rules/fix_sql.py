"""A fix's SQL: reading the statements a rule's fix holds, and writing a table's DDL from the
model. The one way `innolint fix --migration` (linter.fix_migration: its steps, its down) and the
corrected CREATE TABLE of a table the change creates (linter.rules.created_tables) read and write
it: a column's whole definition (`linter.rules.column_sql.kept_definition`), a key, a foreign
key, a whole CREATE TABLE (`create_statement`); which table an ALTER, CREATE INDEX, DROP INDEX or
OPTIMIZE changes (`changed_table`), an ALTER's actions (`alter_actions`); whether two tables are
the same definition (`same_table`, the keys as the server has them: `server_indexes`)."""

from __future__ import annotations

import re

from linter.input.split import split_stream
from linter.rules.checkapi import quote
from linter.rules.column_sql import kept_definition
from linter.parse.elements import ForeignKey, Index, IndexColumn
from linter.schema.model import SchemaModel, Table, generated_key_name
from linter.schema.target import Target
from linter.schema.tenants import sql_string

#: a table's name as the fixes write it: backquoted or bare, maybe with its schema
TABLE_NAME = r"(?:`(?:[^`]|``)*`|[\w$]+)(?:\s*\.\s*(?:`(?:[^`]|``)*`|[\w$]+))?"
#: an ALTER TABLE as the fixes write it: the table's name and its actions
_ALTER_TABLE = re.compile(rf"(?is)ALTER\s+TABLE\s+({TABLE_NAME})\s+(.*?)\s*;?\s*")
#: the other statements that rebuild a table or change its keys (the server checks every
#: column's default there too: 1067 at CREATE INDEX and, as a result row, at OPTIMIZE TABLE)
_OTHER_CHANGE = re.compile(
    rf"(?is)(?:CREATE\s+(?:UNIQUE\s+|FULLTEXT\s+|SPATIAL\s+)?INDEX\s+.*?\s+ON|DROP\s+INDEX\s+.*?\s+ON"
    rf"|OPTIMIZE\s+(?:NO_WRITE_TO_BINLOG\s+|LOCAL\s+)?TABLE)\s+({TABLE_NAME})(?![\w$]).*")
def written_table_key(written: str) -> tuple[str, str]:
    """A table's name as written (quoted or bare, with its schema or not): (schema or "", table), lower case."""
    names = [part[1:-1].replace("``", "`") if part.startswith("`") else part
             for part in re.findall(r"`(?:[^`]|``)*`|[\w$]+", written)]
    return (names[0] if len(names) > 1 else "").lower(), names[-1].lower()


def alter_parts(statement: str) -> tuple[tuple[str, str], str, str] | None:
    """(the table's key, its name as written, the actions) of an ALTER TABLE, else None."""
    match = _ALTER_TABLE.fullmatch(statement.strip())
    if match is None:
        return None
    return written_table_key(match.group(1)), match.group(1), match.group(2)


def alter_actions(text: str) -> list[str]:
    """An ALTER's actions, split at the commas outside parentheses, strings and quoted names."""
    found, depth, start = [], 0, 0
    for match in re.finditer(r"'(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.|\"\")*\"|`(?:[^`]|``)*`|[(),]", text):
        token = match.group()
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif token == "," and depth == 0:
            found.append(text[start:match.start()].strip())
            start = match.end()
    found.append(text[start:].strip())
    return [action for action in found if action]


def changed_table(statement: str) -> tuple[str, str] | None:
    """The table a statement alters or rebuilds, as (schema or "", table), else None."""
    parts = alter_parts(statement)
    if parts is not None:
        return parts[0]
    match = _OTHER_CHANGE.fullmatch(statement.strip())
    return written_table_key(match.group(1)) if match is not None else None


def statements_of(fix: str) -> list[str]:
    """The statements of a fix's SQL, without the comments around them (`linter.fix_migration.render`
    writes those back as comments)."""
    return [s.text.strip() for s in split_stream([fix], "<fix>") if s.text.strip()]


def terminated(statement: str) -> str:
    """A statement ending with `;` (a comment after it on its last line stays after the `;`)."""
    text = statement.rstrip()
    return text if text.endswith(";") else text + ";"


def tables_by_key(model: SchemaModel) -> dict[tuple[str, str], Table]:
    """The model's tables by (schema or "", table), lower case."""
    return {((t.schema or "").lower(), t.name.lower()): t for t in model.tables()}


def server_indexes(table: Table) -> list[Index]:
    """The table's keys as the server has them: with the index InnoDB creates for a foreign key
    that no key starts with (named after the constraint when the DDL names it, else after its
    first column, as for an unnamed key; checked on MariaDB 10.11). The server drops such an index
    by itself when a key that serves the foreign key is added, and refuses to drop it otherwise, so
    the down must know it is there."""
    indexes = list(table.indexes)
    for fk in table.foreign_keys:
        wanted = [c.lower() for c in fk.columns]
        if not wanted or any([p.name.lower() for p in i.columns[: len(wanted)] if not p.expression] == wanted
                             for i in indexes):
            continue
        generated = re.fullmatch(re.escape(table.name) + r"_ibfk_\d+", fk.name or "", re.IGNORECASE)
        taken = [i.name or "" for i in indexes]
        name = fk.name if fk.name and not generated and fk.name.lower() not in {t.lower() for t in taken} else \
            generated_key_name(IndexColumn(fk.columns[0]), taken)
        indexes.append(Index(name, "index", tuple(IndexColumn(c) for c in fk.columns)))
    return indexes


def same_table(a: Table, b: Table) -> bool:
    """Whether two tables have the same definition: columns in order, keys as the server has them,
    foreign keys, the storage options."""
    options = ("row_format", "key_block_size", "compression", "page_compressed", "tablespace", "other")
    return (list(a.columns.values()) == list(b.columns.values())
            and sorted(server_indexes(a), key=lambda i: i.name or "") == sorted(server_indexes(b), key=lambda i: i.name or "")
            and sorted(a.foreign_keys, key=lambda f: f.name or "") == sorted(b.foreign_keys, key=lambda f: f.name or "")
            and all(getattr(a.options, o) == getattr(b.options, o) for o in options))


def create_statement(table: Table, target: Target) -> str | None:
    """The table's CREATE TABLE, written from the model as the fixes write its parts (a column's
    whole definition, its keys, foreign keys and options); None where the model does not hold
    all of it (CHECK constraints, a generated column's expression, a spatial column's SRID, a
    table made by LIKE or SELECT, a temporary one). `linter.rules.created_tables` checks that
    nothing of the statement as written is missing from it."""
    if table.origin != "create" or table.body.checks or table.temporary:
        return None
    if any(c.generated is not None or c.srid is not None for c in table.columns.values()):
        return None
    parts = [kept_definition(c, target) for c in table.columns.values()]
    parts += [index_sql(i, target) for i in table.indexes]
    parts += [foreign_key_definition(table, fk) for fk in table.foreign_keys]
    o = table.options
    options = [f"ENGINE={o.engine}"] if o.engine else []
    if o.charset:
        options.append(f"DEFAULT CHARSET={o.charset}")
    if o.collation:
        options.append(f"COLLATE={o.collation}")
    if o.row_format:
        options.append(f"ROW_FORMAT={o.row_format}")
    if o.key_block_size:
        options.append(f"KEY_BLOCK_SIZE={o.key_block_size}")
    if o.compression:
        options.append(f"COMPRESSION='{o.compression}'")
    if o.page_compressed:
        options.append("PAGE_COMPRESSED=1")
    if o.tablespace:
        options.append(f"TABLESPACE {quote(o.tablespace)}")
    if o.auto_increment:
        options.append(f"AUTO_INCREMENT={o.auto_increment}")
    if o.comment is not None:
        options.append(f"COMMENT={sql_string(o.comment)}")
    options += [f"{key}={value}" for key, value in sorted(o.other.items())]
    text = f"CREATE TABLE {table_name(table)} (\n  " + ",\n  ".join(parts) + "\n)" + "".join(f" {x}" for x in options)
    return text + (f"\n{o.partitioning}" if o.partitioning else "") + ";"


def table_name(table: Table) -> str:
    """The table's name as a statement writes it: `schema`.`table` when the schema is known."""
    return f"{quote(table.schema)}.{quote(table.name)}" if table.schema else quote(table.name)


def index_sql(index: Index, target: Target) -> str:
    """A key's definition, as an ALTER's ADD or a CREATE TABLE writes it."""
    parts = []
    for part in index.columns:
        if part.expression:
            text = part.name if part.name.startswith("(") else f"({part.name})"
        else:
            text = quote(part.name) + (f"({part.prefix})" if part.prefix is not None else "")
        parts.append(text + (" DESC" if part.descending else ""))
    head = {"primary": "PRIMARY KEY", "unique": "UNIQUE KEY", "index": "KEY", "fulltext": "FULLTEXT KEY",
            "spatial": "SPATIAL KEY"}[index.kind]
    name = "" if index.kind == "primary" else f" {quote(index.name or '')}"
    hidden = (" IGNORED" if target.is_mariadb else " INVISIBLE") if index.invisible else ""
    return f"{head}{name} ({', '.join(parts)}){hidden}"


def foreign_key_definition(table: Table, fk: ForeignKey) -> str:
    """A foreign key's definition (CONSTRAINT name FOREIGN KEY ... REFERENCES ...)."""
    parent = quote(fk.ref_table) if fk.ref_schema is None or fk.ref_schema == table.schema else \
        f"{quote(fk.ref_schema)}.{quote(fk.ref_table)}"
    text = (f"CONSTRAINT {quote(fk.name or '')} FOREIGN KEY ({', '.join(quote(c) for c in fk.columns)}) "
            f"REFERENCES {parent} ({', '.join(quote(c) for c in fk.ref_columns)})")
    if fk.on_delete:
        text += f" ON DELETE {fk.on_delete}"
    if fk.on_update:
        text += f" ON UPDATE {fk.on_update}"
    return text
