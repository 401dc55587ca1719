"""Apply DDL operations to the schema model, in input order, so the model is the schema after
the whole input. Problems that only show against the model (ALTER of a table never created)
come back as messages for the caller to report; they never stop the replay."""

from __future__ import annotations

import sys
from dataclasses import replace

from linter import ops
from linter.model import Location, SchemaModel, Table, Tablespace, CompressionDictionary, TableBody, Index, generated_foreign_key_name, name_unnamed_keys
from linter.parse import apply_options


class Replayer:
    """Holds the model and the current database (USE) while statements are applied."""

    def __init__(self, model: SchemaModel | None = None) -> None:
        self.model = model or SchemaModel()
        self.current_schema: str | None = None
        self._handlers: dict[type, object] = {}
        #: `_missing_key_columns` per shared definition (tenant dumps create each one thousands of
        #: times): id(columns) -> (columns, indexes, answer); the objects are kept so ids stay theirs
        self._key_checks: dict[int, tuple[object, object, str | None]] = {}

    def apply(
        self, op: ops.Operation, where: Location, *, annotations: frozenset[str] = frozenset(), executable: str | None = None
    ) -> str | None:
        """Apply one operation. Returns a message when it refers to something that does not
        exist (the caller reports it as a diagnostic), else None."""
        handler = self._handlers.get(op.__class__)
        if handler is None:
            handler = self._handlers[op.__class__] = getattr(self, "_" + type(op).__name__)
        return handler(op, where, annotations, executable)  # type: ignore[operator]

    # -- helpers --------------------------------------------------------------------------
    def _schema_of(self, name: ops.Name) -> str | None:
        return name.schema if name.schema is not None else self.current_schema

    def _find(self, name: ops.Name) -> Table | None:
        return self.model.find_table(self._schema_of(name), name.name)

    def _put(self, table: Table) -> None:
        # interned: a tenant dump puts the same few names in every schema (one key string each,
        # not one per table: ~90 bytes of every table's memory)
        self.model.schema(table.schema).tables[sys.intern(table.name.lower())] = table

    def _remove(self, table: Table) -> None:
        schema = self.model.schemas.get(table.schema.lower() if table.schema else None)
        if schema is not None:
            schema.tables.pop(table.name.lower(), None)

    # -- statements -----------------------------------------------------------------------
    def _CreateTable(self, op: ops.CreateTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        schema = self._schema_of(op.name)
        existing = self.model.find_table(schema, op.name.name)
        if existing is not None and op.if_not_exists:
            return None
        body = op.body
        origin = "create"
        own = False
        if op.like is not None:
            source = self._find(op.like)
            if source is None:
                return f"CREATE TABLE {op.name.name} LIKE {op.like.name}: table {op.like.name} is not defined earlier in the input"
            body = source.body.copy()  # LIKE copies columns, keys and options, not foreign keys
            body.foreign_keys = []
            origin, own = "like", True
        elif op.as_select:
            origin = "select"
        table = Table(
            schema=schema, name=op.name.name, body=body, defined=where, changed=where, temporary=op.temporary,
            # a mysqldump view stand-in (`/*!50001 CREATE TABLE`) is a table until its view replaces it
            # (`_CreateView`); one never replaced is a table the server has, and is linted
            origin=origin, annotations=annotations, _own_body=own,
        )
        self._put(table)
        if any(foreign_key.name is None for foreign_key in body.foreign_keys):
            _name_created_foreign_keys(table)
            body = table.body
        columns, indexes = body.columns, body.indexes
        known = self._key_checks.get(id(columns))
        if known is not None and known[0] is columns and known[1] is indexes:
            return known[2]
        problem = _missing_key_columns(table)
        if len(self._key_checks) >= 100_000:
            self._key_checks.clear()
        self._key_checks[id(columns)] = (columns, indexes, problem)
        return problem

    def _AlterTable(self, op: ops.AlterTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        table = self._find(op.name)
        if table is None:
            return f"ALTER TABLE {op.name.name}: table is not defined earlier in the input"
        problems: list[str] = []
        for action in op.actions:
            problem = self._alter(table, action, where)
            if problem:
                problems.append(problem)
        table.changed = where
        return "; ".join(problems) or None

    def _alter(self, table: Table, action: ops.AlterAction, where: Location) -> str | None:
        if isinstance(action, ops.RenameTo):
            self._remove(table)
            table.schema = action.target.schema if action.target.schema is not None else table.schema
            _rename_generated_foreign_keys(table, action.target.name)
            self._put(table)
            return None
        body = table.writable()
        if isinstance(action, ops.AddColumn):
            body.columns[action.column.name.lower()] = replace(action.column, where=where)
        elif isinstance(action, ops.ChangeColumn):
            old = action.old_name.lower()
            if old not in body.columns:
                return f"column {action.old_name} does not exist"
            columns = {}
            for key, column in body.columns.items():
                if key == old:
                    columns[action.column.name.lower()] = replace(action.column, where=where)
                else:
                    columns[key] = column
            body.columns = columns
            if action.old_name.lower() != action.column.name.lower():
                _rename_in_indexes(body, action.old_name, action.column.name)
            _keep_primary_not_null(body)
        elif isinstance(action, ops.RenameColumn):
            column = body.columns.get(action.old_name.lower())
            if column is None:
                return f"column {action.old_name} does not exist"
            column.name = action.new_name
            body.columns = {(action.new_name.lower() if key == action.old_name.lower() else key): c
                            for key, c in body.columns.items()}
            _rename_in_indexes(body, action.old_name, action.new_name)
        elif isinstance(action, ops.DropColumn):
            if body.columns.pop(action.name.lower(), None) is None:
                return f"column {action.name} does not exist"
            _drop_from_indexes(body, action.name, where)
        elif isinstance(action, ops.SetColumnDefault):
            column = body.columns.get(action.name.lower())
            if column is None:
                return f"column {action.name} does not exist"
            column.default = action.default
        elif isinstance(action, ops.AddIndex):
            index = replace(action.index, where=where)
            if index.kind == "primary":
                body.indexes = [i for i in body.indexes if i.kind != "primary"]
                body.indexes.insert(0, index)
                _keep_primary_not_null(body)
                table.key_dropped = None
            else:
                if index.name is None:  # the name the server gives it (ALTER TABLE t ADD KEY (a))
                    name_unnamed_keys([index], [i.name for i in body.indexes if i.name])
                body.indexes.append(index)
        elif isinstance(action, ops.DropIndex):
            name = action.name.lower()
            before = len(body.indexes)
            if name == "primary":
                body.indexes = [i for i in body.indexes if i.kind != "primary"]
                if len(body.indexes) < before:
                    table.key_dropped = where
            else:
                body.indexes = [i for i in body.indexes if (i.name or "").lower() != name or i.kind == "primary"]
            return None if len(body.indexes) < before else f"index {action.name} does not exist"
        elif isinstance(action, ops.RenameIndex):
            for index in body.indexes:
                if (index.name or "").lower() == action.old_name.lower():
                    index.name = action.new_name
                    return None
            return f"index {action.old_name} does not exist"
        elif isinstance(action, ops.AddForeignKey):
            foreign_key = replace(action.foreign_key, where=where)
            if foreign_key.name is None:
                foreign_key.name = generated_foreign_key_name(table.name, [f.name or "" for f in body.foreign_keys])
            body.foreign_keys.append(foreign_key)
        elif isinstance(action, ops.DropForeignKey):
            name = action.name.lower()
            before = len(body.foreign_keys)
            body.foreign_keys = [f for f in body.foreign_keys if (f.name or "").lower() != name]
            return None if len(body.foreign_keys) < before else f"foreign key {action.name} does not exist"
        elif isinstance(action, ops.DropConstraint):
            if self._alter(table, ops.DropForeignKey(action.name), where) is None:
                return None
            if self._alter(table, ops.DropIndex(action.name), where) is None:
                return None
            return None  # a CHECK constraint: the model does not track checks by name
        elif isinstance(action, ops.SetOptions):
            apply_options(body.options, action.options)
        return None

    def _DropTable(self, op: ops.DropTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        for name in op.names:
            table = self._find(name)
            if table is not None:
                self._remove(table)
        return None  # DROP TABLE IF EXISTS before CREATE is the norm in dumps: not a problem

    def _RenameTable(self, op: ops.RenameTable, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        missing = []
        for old, new in op.pairs:
            table = self._find(old)
            if table is None:
                missing.append(old.name)
                continue
            self._remove(table)
            table.schema = self._schema_of(new)
            _rename_generated_foreign_keys(table, new.name)
            table.changed = where
            self._put(table)
        return f"RENAME TABLE: {', '.join(missing)} not defined earlier in the input" if missing else None

    def _CreateIndex(self, op: ops.CreateIndex, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        table = self._find(op.table)
        if table is None:
            return f"CREATE INDEX {op.index.name} ON {op.table.name}: table is not defined earlier in the input"
        self._alter(table, ops.AddIndex(op.index), where)
        table.changed = where
        return None

    def _DropIndexStatement(self, op: ops.DropIndexStatement, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        table = self._find(op.table)
        if table is None:
            return f"DROP INDEX {op.name} ON {op.table.name}: table is not defined earlier in the input"
        table.changed = where
        return self._alter(table, ops.DropIndex(op.name), where)

    def _CreateTablespace(self, op: ops.CreateTablespace, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        self.model.tablespaces[op.name.lower()] = Tablespace(op.name, op.datafile, op.engine, where)
        return None

    def _DropTablespace(self, op: ops.DropTablespace, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        self.model.tablespaces.pop(op.name.lower(), None)
        return None

    def _CreateCompressionDictionary(self, op: ops.CreateCompressionDictionary, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        self.model.dictionaries[op.name.lower()] = CompressionDictionary(op.name, where)
        return None

    def _SchemaStatement(self, op: ops.SchemaStatement, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        if op.action == "use":
            self.current_schema = op.name
            self.model.schema(op.name)
        elif op.action == "create":
            schema = self.model.schema(op.name)
            if schema.defined is None:  # CREATE DATABASE IF NOT EXISTS of an existing one changes nothing
                schema.charset, schema.collation = op.charset, op.collation
            schema.defined = schema.defined or where
        else:
            self.model.schemas.pop(op.name.lower(), None)
        return None

    def _CreateView(self, op: ops.CreateView, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        table = self._find(op.name)
        if table is not None:  # mysqldump's stand-in table, now replaced by the view
            self._remove(table)
        return None

    def _Skipped(self, op: ops.Skipped, where: Location, annotations: frozenset[str], executable: str | None) -> str | None:
        return None


def _name_created_foreign_keys(table: Table) -> None:
    """Give the unnamed foreign keys of a CREATE TABLE the server's names (`<table>_ibfk_1`, 2 ...).
    The body may be shared (a parsed statement's), so it is copied first."""
    generated: list[str] = []
    for foreign_key in table.writable().foreign_keys:
        if foreign_key.name is None:
            foreign_key.name = generated_foreign_key_name(table.name, generated)
            generated.append(foreign_key.name)


def _rename_generated_foreign_keys(table: Table, new_name: str) -> None:
    """RENAME TABLE renames the constraints named `<old>_ibfk_<n>` to `<new>_ibfk_<n>` (MariaDB
    10.11, tests/test_model_names.py; MySQL's manual says the same), and the table."""
    prefix = f"{table.name}_ibfk_".lower()
    if any((f.name or "").lower().startswith(prefix) for f in table.foreign_keys):
        for foreign_key in table.writable().foreign_keys:
            name = foreign_key.name or ""
            if name.lower().startswith(prefix):
                foreign_key.name = f"{new_name}_ibfk_{name[len(prefix):]}"
    table.name = new_name


def _missing_key_columns(table: Table) -> str | None:
    """A key on a column the table lacks: the server rejects such a CREATE (error 1072)."""
    if not table.columns:  # LIKE of an unknown table, or CREATE ... SELECT: columns unknown
        return None
    missing = [
        f"key {index.name} names column {part.name}, which the table does not have"
        for index in table.indexes
        for part in index.columns
        if not part.expression and table.column(part.name) is None
    ]
    return "; ".join(missing) or None


def _rename_in_indexes(body: TableBody, old: str, new: str) -> None:
    lowered = old.lower()
    for index in body.indexes:
        if any(part.name.lower() == lowered for part in index.columns):
            index.columns = tuple(replace(p, name=new) if p.name.lower() == lowered else p for p in index.columns)


def _drop_from_indexes(body: TableBody, column: str, where: Location) -> None:
    """Dropping a column removes it from every index (which `where` then changed); an index
    left with no column goes."""
    lowered = column.lower()
    kept: list[Index] = []
    for index in body.indexes:
        parts = tuple(p for p in index.columns if p.name.lower() != lowered)
        if parts:
            if len(parts) < len(index.columns):
                index.columns = parts
                index.where = where
            kept.append(index)
    body.indexes = kept


def _keep_primary_not_null(body: TableBody) -> None:
    primary = next((i for i in body.indexes if i.kind == "primary"), None)
    if primary is None:
        return
    for part in primary.columns:
        column = body.columns.get(part.name.lower())
        if column is not None:
            column.nullable = False
