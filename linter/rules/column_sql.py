"""How the rules' fixes write a column: its definition (`column_definition`), the definition a
MODIFY COLUMN that changes something else keeps (`kept_definition`: its compression and, on
MariaDB, its CHECK constraints, which a MODIFY would drop), and changing a column's type when
foreign keys use it (`change_columns`: the one way the fixes of auto-increment-capacity and
foreign-key-mismatch do it).

The servers refuse to change the type of a column a foreign key uses, as the referencing or the
referenced column (MariaDB 10.11: ERROR 1832 / 1833, also with foreign_key_checks=0; verified in
tests/test_auto_increment_capacity.py), and a foreign key between columns of different types is
refused too. So the column, and every column that references it through a foreign key, directly or
through another such column, change together: the foreign keys on them are dropped first, each
table's columns are changed in one ALTER, and the foreign keys are added back with their ON DELETE
/ ON UPDATE actions, in the statement that changes their table when the table they reference has
already been changed, else (a table referencing itself) in a statement of their own, which MariaDB
requires (verified in the fix-verification tests).
"""

from __future__ import annotations

from dataclasses import replace

from linter.rules.checkapi import foreign_key_sql, qualified, quote, table_key
from linter.parse.elements import Column, ForeignKey
from linter.schema.model import SchemaModel, Table
from linter.schema.target import Target
from linter.schema.tenants import sql_string


def retyped(column: Column, like: Column) -> Column:
    """`column` with the type of `like` (type, length, sign, character set and collation),
    keeping its own name, NULL, default, comment and checks."""
    return replace(column, type=like.type, params=like.params, unsigned=like.unsigned, charset=like.charset,
                   collation=like.collation, binary=like.binary, auto_increment=column.auto_increment and like.auto_increment)


def change_columns(
    model: SchemaModel, roots: list[tuple[Table, Column]], target: Target,
    by_parent: dict[tuple[str, str], list[tuple[Table, ForeignKey]]],
) -> tuple[str, list[str]]:
    """The statements that give each root column (a table and the column's new definition, under
    the column's name) its definition, with every column that references one of them
    (transitively) retyped the same way; and those referencing columns, as `table.column`, for the
    message. `by_parent`: `foreign_keys_by_parent(model)`, computed once per run by the caller."""
    changes: dict[tuple[int, str], tuple[Table, Column]] = {}
    queue: list[tuple[Table, str, Column]] = [(table, new.name, new) for table, new in roots]
    root_keys = {(id(table), new.name.lower()) for table, new in roots}
    while queue:  # breadth first: a table's parent is changed before it
        current, name, definition = queue.pop(0)
        key = (id(current), name.lower())
        if key in changes:
            continue
        changes[key] = (current, definition)
        for child, fk in by_parent.get(table_key(model, current.schema, current.name), ()):
            for own, referenced in zip(fk.columns, fk.ref_columns):
                column = child.column(own)
                if referenced.lower() == name.lower() and column is not None:
                    queue.append((child, column.name, retyped(column, definition)))
    tables: dict[int, Table] = {}
    columns: dict[int, list[Column]] = {}
    for (table_id, _), (owner, definition) in changes.items():
        tables.setdefault(table_id, owner)
        columns.setdefault(table_id, []).append(definition)
    changing = set(changes)
    dropped: dict[int, list[ForeignKey]] = {}
    for table_id, owner in tables.items():
        for fk in owner.foreign_keys:
            if any((table_id, c.lower()) in changing for c in fk.columns):
                dropped.setdefault(table_id, []).append(fk)
    lines = []
    for table_id, fks in dropped.items():
        drops = ", ".join("DROP FOREIGN KEY " + quote(fk.name or "") for fk in fks)
        lines.append(f"ALTER TABLE {qualified(tables[table_id])} {drops};")
    done: set[tuple[str, str]] = set()
    later: list[str] = []
    for table_id, owner in tables.items():
        actions = [f"MODIFY COLUMN {kept_definition(c, target)}" for c in columns[table_id]]
        deferred = []
        for fk in dropped.get(table_id, []):
            parent = model.find_table(fk.ref_schema if fk.ref_schema is not None else owner.schema, fk.ref_table)
            if parent is None:
                continue
            parent_key = table_key(model, parent.schema, parent.name)
            changed_parent = any(id(parent) == t for t, _ in changing)
            if parent is owner or (changed_parent and parent_key not in done):
                deferred.append(f"ADD {foreign_key_sql(owner, parent, fk)}")
            else:
                actions.append(f"ADD {foreign_key_sql(owner, parent, fk)}")
        lines.append(f"ALTER TABLE {qualified(owner)} {', '.join(actions)};")
        done.add(table_key(model, owner.schema, owner.name))
        if deferred:
            later.append(f"ALTER TABLE {qualified(owner)} {', '.join(deferred)};")
    referencing = [f"{owner.name}.{definition.name}" for key, (owner, definition) in changes.items() if key not in root_keys]
    return "\n".join(lines + later), referencing


def column_definition(
    column: Column, *, compressed: bool = False, column_format: str | None = None, checks: bool | None = None,
) -> str:
    """The column's full definition as SQL, from the model, for `MODIFY COLUMN`: a MODIFY replaces
    the whole definition, so anything left out (charset, collation, NOT NULL, default, comment)
    would be silently changed. `compressed` adds MariaDB's COMPRESSED (right after the type, where
    MariaDB requires it) and the column's CHECK constraints, which MariaDB keeps on the column and
    a MODIFY without them drops; `column_format` adds Percona's COLUMN_FORMAT clause (MySQL made
    the column's CHECKs table constraints, which the MODIFY keeps: written again, they would be
    added twice). `checks` writes the CHECKs without COMPRESSED (None: when `compressed`)."""
    parts = [quote(column.name), column.type + (f"({','.join(column.params)})" if column.params else "")]
    if column.unsigned:
        parts.append("UNSIGNED")
    if compressed:
        parts.append("COMPRESSED")
    if column.charset:
        parts.append(f"CHARACTER SET {column.charset}")
    if column.binary:
        parts.append("BINARY")
    if column.collation:
        parts.append(f"COLLATE {column.collation}")
    parts.append("NULL" if column.nullable else "NOT NULL")
    if column.default is not None and not column.auto_increment:  # (one ALTER COLUMN SET DEFAULT gave: 1067 here)
        parts.append(f"DEFAULT {column.default}")
    if column.on_update is not None:
        parts.append(f"ON UPDATE {column.on_update}")
    if column.auto_increment:
        parts.append("AUTO_INCREMENT")
    if column.invisible:
        parts.append("INVISIBLE")
    if column_format:
        parts.append(column_format)
    if column.comment is not None:
        parts.append(f"COMMENT {sql_string(column.comment)}")
    if compressed if checks is None else checks:
        parts.extend(column.checks)
    return " ".join(parts)


def kept_definition(column: Column, target: Target) -> str:
    """The column's definition for a MODIFY COLUMN that changes something else (its type, character
    set, default): what it has besides is written again, so the MODIFY does not drop it: its
    compression (MariaDB's COMPRESSED; Percona's COLUMN_FORMAT COMPRESSED and dictionary) and, on
    MariaDB, its CHECK constraints (kept on the column there)."""
    if column.compressed and target.flavor == "percona":
        dictionary = (f" WITH COMPRESSION_DICTIONARY {quote(column.compression_dictionary)}"
                      if column.compression_dictionary else "")
        return column_definition(column, column_format=f"COLUMN_FORMAT COMPRESSED{dictionary}")
    if target.is_mariadb:
        return column_definition(column, compressed=column.compressed is not None, checks=True)
    return column_definition(column)
