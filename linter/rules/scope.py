"""What the rules about DDL the server refuses or changes look at, and where their findings go
(row-size-limit, index-key-length, zero-date-default, charset-portability, non-innodb-engine).

Which tables: the user's real tables. Not mysqldump's view stand-ins (replaced by views later in
the dump), not temporary tables, and not the tables of the server's own schemas (`mysql`, `sys`,
information_schema, performance_schema): a dump with --all-databases carries them, and the server
that wrote them decides their definitions.

Where: the model keeps a place per table, where it was defined (the CREATE TABLE) and where it was
last changed (the latest ALTER TABLE, CREATE INDEX or RENAME that touched it), and each column and
key the statement that gave it its present form (`Table.place`). A finding about one column or
key goes to that statement; one about what the whole table is now - a row too large, a charset,
an engine - goes to:
- the CREATE TABLE when the last statement that changed the table is in the CREATE's file (an
  install script or dump that adds keys and foreign keys by ALTER at its end: the CREATE is where
  a reader looks);
- else that last statement, in a later file: in a migration history the migration
  that adds the offending column is the change that reports it under `--changed-only` (the CREATE,
  in an unchanged file, would hide it).
`statement_of` is the one place that decides where these rules' findings belong.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.findings import Severity
from linter.parse.elements import Column, Index, Location
from linter.schema.model import Schema, SchemaModel, Table
from linter.record import FrozenRecord

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

#: the server's own schemas
SYSTEM_SCHEMAS = frozenset({"mysql", "sys", "information_schema", "performance_schema"})


class Problem(FrozenRecord):
    """A rule's decision about a whole table (row-size-limit, charset-portability): what the server
    does with it (`kind`, listed where each rule decides), how severe, the message, the evidence,
    and the columns at fault (those its fix changes). index-key-length's and zero-date-default's
    decisions carry other things (the prefixes MariaDB cuts a key to; whether a default is
    implicit) and have records of their own."""

    __slots__ = __match_args__ = ("kind", "severity", "message", "evidence", "columns")
    kind: str
    severity: Severity
    message: str
    evidence: str
    columns: tuple[str, ...]

    def __init__(self, kind: str, severity: Severity, message: str, evidence: str, columns: tuple[str, ...]) -> None:
        _set(self, "kind", kind)
        _set(self, "severity", severity)
        _set(self, "message", message)
        _set(self, "evidence", evidence)
        _set(self, "columns", columns)


def is_system_schema(name: str | None) -> bool:
    return (name or "").lower() in SYSTEM_SCHEMAS


def user_tables(model: SchemaModel) -> Iterator[Table]:
    """Every real table of the user's schemas (see above), any engine."""
    for schema in model.schemas.values():
        if is_system_schema(schema.name):
            continue
        for table in schema.tables.values():
            if not table.view_standin and not table.temporary:
                yield table


def definition_key(table: Table, schema: Schema | None) -> tuple[int, str, str | None, str | None]:
    """What the rules' decisions about a table depend on besides the target: its definition (a
    tenant dump repeats each CREATE TABLE thousands of times, sharing one body: TableBody.
    definition_id), its name (messages name it) and its schema's default character set. Equal
    keys, equal decisions: a rule decides once per key in a run."""
    return (table.body.definition_id, table.name, schema.charset if schema else None,
            schema.collation if schema else None)


def foreign_key_columns(model: SchemaModel) -> dict[int, set[str]]:
    """id(table) -> the lower-case names of its columns a foreign key joins, on either side (its
    own foreign keys' columns, and its columns other tables' foreign keys reference). A fix that
    changes such a column's type or character set is refused while the foreign key exists
    (MariaDB: ERROR 1832/1833 "Cannot change column ... used in a foreign key constraint",
    verified), so the rules write none for them."""
    found: dict[int, set[str]] = {}
    for table in model.tables():
        for key in table.foreign_keys:
            found.setdefault(id(table), set()).update(c.lower() for c in key.columns)
            parent = model.find_table(key.ref_schema if key.ref_schema is not None else table.schema, key.ref_table)
            if parent is not None:
                found.setdefault(id(parent), set()).update(c.lower() for c in key.ref_columns)
    return found


def sentences(*parts: str) -> str:
    """Messages joined as sentences: one that ends with a server's error text gets its full stop."""
    kept = [p.strip() for p in parts if p and p.strip()]
    return " ".join(p if p.endswith((".", "!", "?")) or n == len(kept) - 1 else p + "."
                    for n, p in enumerate(kept))


def statement_of(table: Table, item: Column | Index | None = None) -> Location:
    """The statement a finding about `table` (and, where given, one of its columns or keys)
    belongs to: for a column or key, the statement that gave it its present form (`Table.place`);
    for the whole table, its CREATE TABLE, or the last statement that changed it when that is in
    a later file."""
    if item is not None:
        return table.place(item)
    return table.defined if table.changed.path == table.defined.path else table.changed
