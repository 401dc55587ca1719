"""Liquibase change types (createTable, addColumn, createIndex ...) as the MySQL DDL Liquibase runs
for them, so that a changelog written without SQL replays like one written with it.

What Liquibase's MySQL generators write, for the changes that shape tables: column types mapped
as its MySQL type classes map them (`boolean` -> BIT(1), `uuid` -> CHAR(36), `clob` -> LONGTEXT,
`blob` -> LONGBLOB, `currency` -> DECIMAL(19, 4), `java.sql.Types.X` -> X, other types as
written); column constraints (primaryKey, nullable, unique, references / referencedTableName
and foreignKeyName) into the CREATE TABLE or ALTER TABLE; foreign keys as constraints, unique
constraints as UNIQUE keys named after their constraint. MySQL needs the column's type to rename
a column or change its NOT NULL: a change without `columnDataType` there cannot run on MySQL,
and is reported instead. Changes that do not shape tables (insert, loadData, createProcedure,
tagDatabase ...) have nothing to replay; any other change type is reported as not read.

Nothing here is evaluated: `${name}` is replaced by the changelog parameters the caller gives,
values are quoted as SQL literals, names as identifiers.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from linter.input.migrations.formats.liquibase.changelog import Node

#: change types with no effect on tables (data, stored code, markers)
NO_TABLE_EFFECT = frozenset({
    "insert", "update", "delete", "loadData", "loadUpdateData", "tagDatabase", "empty", "output", "stop",
    "createProcedure", "dropProcedure", "createView", "dropView", "executeCommand", "customChange",
    "createSequence", "dropSequence", "alterSequence", "renameSequence", "createFunction", "dropFunction",
    "createTrigger", "dropTrigger", "comment", "preConditions", "rollback", "validCheckSum", "modifySql",
    "setTableRemarks", "setColumnRemarks", "sql", "sqlFile",
})

_TYPES = {
    "boolean": "BIT(1)", "bool": "BIT(1)", "uuid": "CHAR(36)", "clob": "LONGTEXT", "nclob": "LONGTEXT",
    "blob": "LONGBLOB", "currency": "DECIMAL(19, 4)", "int": "INT", "integer": "INT", "int4": "INT",
    "bigint": "BIGINT", "int8": "BIGINT", "long": "BIGINT", "smallint": "SMALLINT", "int2": "SMALLINT",
    "tinyint": "TINYINT", "mediumint": "MEDIUMINT", "double": "DOUBLE", "float": "FLOAT", "real": "DOUBLE",
    "datetime": "DATETIME", "timestamp": "TIMESTAMP", "date": "DATE", "time": "TIME", "text": "TEXT",
    "number": "DECIMAL", "numeric": "DECIMAL", "decimal": "DECIMAL", "char": "CHAR", "nchar": "CHAR",
    "varchar": "VARCHAR", "nvarchar": "VARCHAR", "varchar2": "VARCHAR", "character varying": "VARCHAR",
    "tinytext": "TINYTEXT", "mediumtext": "MEDIUMTEXT", "longtext": "LONGTEXT", "tinyblob": "TINYBLOB",
    "mediumblob": "MEDIUMBLOB", "longblob": "LONGBLOB", "binary": "BINARY", "varbinary": "VARBINARY", "json": "JSON",
    "bit": "BIT", "year": "YEAR", "enum": "ENUM", "set": "SET",
}
_TYPE = re.compile(r"(?:java\.sql\.types\.)?([a-z][a-z0-9 ]*?)\s*(\([^()]*\))?\s*((?:unsigned|zerofill|signed|\s)*)$",
                   re.IGNORECASE)
_EXPRESSION = re.compile(r"\$\{([^{}\s]{1,200})\}")


def quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def literal(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'"


def mysql_type(written: str) -> str:
    """A Liquibase column type as Liquibase writes it for MySQL."""
    text = written.strip()
    match = _TYPE.match(text)
    if match is None:
        return text
    base, params, tail = match.group(1).strip().lower(), match.group(2) or "", (match.group(3) or "").strip()
    mapped = _TYPES.get(base)
    if mapped is None:
        return text
    if "(" in mapped:
        return mapped + (" " + tail.upper() if tail else "")
    return mapped + params.replace(" ", "") + (" " + tail.upper() if tail else "")


def _flag(value: str | None) -> bool | None:
    if value is None:
        return None
    return value.strip().lower() == "true"


class Rendered:
    """What a change renders to: the statements, or why it cannot be (`problem`)."""

    def __init__(self, statements: list[str] | None = None, problem: str | None = None) -> None:
        self.statements = statements or []
        self.problem = problem


def render(kind: str, node: Node, expand: Callable[[str], str]) -> Rendered | None:
    """The MySQL statements of a change, a Rendered with a problem when it cannot run on MySQL as
    written, or None when the change type is not one innolint reads."""
    attr = lambda name: (lambda v: expand(v) if v is not None else None)(node.attr(name))  # noqa: E731
    renderer = _RENDERERS.get(kind)
    if renderer is None:
        return None
    try:
        return renderer(node, attr, expand)
    except _Missing as missing:
        return Rendered(problem=f"{kind} without {missing}: Liquibase refuses it")


class _Missing(Exception):
    pass


def _need(value: str | None, name: str) -> str:
    if not value:
        raise _Missing(name)
    return value


def _table(attr: Callable[[str], str | None], key: str = "tableName") -> str:
    schema = attr("schemaName") or attr("catalogName")
    name = quote(_need(attr(key), key))
    return f"{quote(schema)}.{name}" if schema else name


def _columns(node: Node) -> list[Node]:
    """The `column` children of a change (YAML: `columns: [- column: {...}]`)."""
    found = []
    for child in node.children:
        if child.tag == "column":
            found.append(child)
        elif child.tag == "columns":
            found.extend(c for c in child.children if c.tag == "column")
    return found


def _constraints(column: Node) -> Node | None:
    return next((c for c in column.children if c.tag == "constraints"), None)


def _default(column: Node, expand: Callable[[str], str]) -> str | None:
    for key, render in (("defaultValueComputed", lambda v: v), ("defaultValueNumeric", lambda v: v),
                        ("defaultValueBoolean", lambda v: "1" if v.strip().lower() == "true" else "0"),
                        ("defaultValueDate", lambda v: v if v.upper().startswith(("CURRENT", "NOW")) else literal(v)),
                        ("defaultValue", literal)):
        value = column.attr(key)
        if value is not None:
            return render(expand(value))
    return None


def _column_sql(column: Node, expand: Callable[[str], str], *, in_create: bool) -> tuple[str, dict[str, object]]:
    """A column's definition, and its constraints to add apart (primary, unique, foreign key)."""
    name = quote(_need(column.attr("name"), "a column name"))
    written = column.attr("type")
    sql = f"{name} {mysql_type(expand(_need(written, 'a column type')))}"
    constraints = _constraints(column)
    extra: dict[str, object] = {}
    nullable = None
    if constraints is not None:
        c = lambda key: (lambda v: expand(v) if v is not None else None)(constraints.attr(key))  # noqa: E731
        nullable = _flag(c("nullable"))
        if _flag(c("primaryKey")):
            extra["primary"] = c("primaryKeyName")
            nullable = False if nullable is None else nullable
        if _flag(c("unique")):
            extra["unique"] = c("uniqueConstraintName")
        references = c("references")
        if c("referencedTableName") or references:
            if references:
                table, _, columns = references.partition("(")
                ref_table, ref_columns = table.strip(), columns.rstrip(") ")
            else:
                ref_table, ref_columns = c("referencedTableName") or "", c("referencedColumnNames") or "id"
            extra["foreign"] = (c("foreignKeyName"), ref_table, ref_columns, c("deleteCascade"))
    if nullable is False:
        sql += " NOT NULL"
    elif nullable is True:
        sql += " NULL"
    if _flag(column.attr("autoIncrement")):
        sql += " AUTO_INCREMENT"
    default = _default(column, expand)
    if default is not None:
        sql += f" DEFAULT {default}"
    remarks = column.attr("remarks")
    if remarks:
        sql += f" COMMENT {literal(expand(remarks))}"
    if not in_create:
        if column.attr("afterColumn"):
            sql += f" AFTER {quote(expand(column.attr('afterColumn') or ''))}"
        elif column.attr("position") == "1" or column.attr("beforeColumn"):
            sql += " FIRST" if column.attr("position") == "1" else ""
    return sql, extra


def _names(value: str) -> str:
    return ", ".join(quote(part.strip()) for part in value.split(",") if part.strip())


def _foreign(table: str, column: str, spec: tuple) -> str:  # type: ignore[type-arg]
    name, ref_table, ref_columns, cascade = spec
    text = f"CONSTRAINT {quote(name)} " if name else ""
    text += f"FOREIGN KEY ({quote(column)}) REFERENCES {quote(ref_table)} ({_names(ref_columns)})"
    if _flag(cascade):
        text += " ON DELETE CASCADE"
    return text


def _create_table(node: Node, attr: Callable[[str], str | None], expand: Callable[[str], str]) -> Rendered:
    table = _table(attr)
    parts, primary, keys = [], [], []
    for column in _columns(node):
        sql, extra = _column_sql(column, expand, in_create=True)
        parts.append(sql)
        name = column.attr("name") or ""
        if "primary" in extra:
            primary.append(name)
        if "unique" in extra:
            label = extra["unique"]
            keys.append(f"{'CONSTRAINT ' + quote(str(label)) + ' ' if label else ''}UNIQUE ({quote(name)})")
        if "foreign" in extra:
            keys.append(_foreign(table, name, extra["foreign"]))  # type: ignore[arg-type]
    if not parts:
        raise _Missing("columns")
    if primary:
        parts.append(f"PRIMARY KEY ({', '.join(quote(p) for p in primary)})")
    parts.extend(keys)
    options = ""
    if attr("remarks"):
        options = f" COMMENT={literal(attr('remarks') or '')}"
    return Rendered([f"CREATE TABLE {table} ({', '.join(parts)}){options}"])


def _add_column(node: Node, attr: Callable[[str], str | None], expand: Callable[[str], str]) -> Rendered:
    table = _table(attr)
    adds, after = [], []
    for column in _columns(node):
        sql, extra = _column_sql(column, expand, in_create=False)
        adds.append(f"ADD {sql}")
        name = column.attr("name") or ""
        if "primary" in extra:
            after.append(f"ALTER TABLE {table} ADD PRIMARY KEY ({quote(name)})")
        if "unique" in extra:
            label = extra["unique"]
            after.append(f"ALTER TABLE {table} ADD {'CONSTRAINT ' + quote(str(label)) + ' ' if label else ''}UNIQUE ({quote(name)})")
        if "foreign" in extra:
            after.append(f"ALTER TABLE {table} ADD {_foreign(table, name, extra['foreign'])}")  # type: ignore[arg-type]
    if not adds:
        raise _Missing("columns")
    return Rendered([f"ALTER TABLE {table} {', '.join(adds)}", *after])


def _drop_column(node: Node, attr: Callable[[str], str | None], expand: Callable[[str], str]) -> Rendered:
    names = [attr("columnName")] if attr("columnName") else [c.attr("name") for c in _columns(node)]
    if not names or not all(names):
        raise _Missing("columnName")
    return Rendered([f"ALTER TABLE {_table(attr)} " + ", ".join(f"DROP COLUMN {quote(n or '')}" for n in names)])


def _typed_column_change(sql: Callable[[str, str, str], str], what: str) -> Callable[..., Rendered]:
    def render_it(node: Node, attr: Callable[[str], str | None], expand: Callable[[str], str]) -> Rendered:
        data_type = attr("columnDataType") or attr("newDataType")
        if not data_type:
            return Rendered(problem=f"{what} without columnDataType: MySQL needs the column's type, and Liquibase "
                                    "refuses the change on MySQL")
        return Rendered([sql(_table(attr), attr("columnName") or "", mysql_type(data_type))])
    return render_it


def _rename_column(node: Node, attr: Callable[[str], str | None], expand: Callable[[str], str]) -> Rendered:
    data_type = attr("columnDataType")
    if not data_type:
        return Rendered(problem="renameColumn without columnDataType: MySQL needs the column's type, and Liquibase "
                                "refuses the change on MySQL")
    old, new = _need(attr("oldColumnName"), "oldColumnName"), _need(attr("newColumnName"), "newColumnName")
    return Rendered([f"ALTER TABLE {_table(attr)} CHANGE {quote(old)} {quote(new)} {mysql_type(data_type)}"])


def _create_index(node: Node, attr: Callable[[str], str | None], expand: Callable[[str], str]) -> Rendered:
    columns = []
    for column in _columns(node):
        name = quote(_need(column.attr("name"), "a column name"))
        if _flag(column.attr("descending")):
            name += " DESC"
        columns.append(name)
    if not columns:
        raise _Missing("columns")
    unique = "UNIQUE " if _flag(attr("unique")) else ""
    return Rendered([f"CREATE {unique}INDEX {quote(_need(attr('indexName'), 'indexName'))} ON {_table(attr)} "
                     f"({', '.join(columns)})"])


def _add_foreign_key(node: Node, attr: Callable[[str], str | None], expand: Callable[[str], str]) -> Rendered:
    table = _table(attr, "baseTableName")
    text = (f"ALTER TABLE {table} ADD CONSTRAINT {quote(_need(attr('constraintName'), 'constraintName'))} FOREIGN KEY "
            f"({_names(_need(attr('baseColumnNames'), 'baseColumnNames'))}) REFERENCES "
            f"{quote(_need(attr('referencedTableName'), 'referencedTableName'))} "
            f"({_names(_need(attr('referencedColumnNames'), 'referencedColumnNames'))})")
    for clause, key in (("ON DELETE", "onDelete"), ("ON UPDATE", "onUpdate")):
        if attr(key):
            text += f" {clause} {(attr(key) or '').upper()}"
    if _flag(attr("deleteCascade")) and not attr("onDelete"):
        text += " ON DELETE CASCADE"
    return Rendered([text])


_RENDERERS: dict[str, Callable[..., Rendered]] = {
    "createTable": _create_table,
    "addColumn": _add_column,
    "dropColumn": _drop_column,
    "renameColumn": _rename_column,
    "modifyDataType": _typed_column_change(lambda t, c, ty: f"ALTER TABLE {t} MODIFY {quote(c)} {ty}", "modifyDataType"),
    "addNotNullConstraint": _typed_column_change(lambda t, c, ty: f"ALTER TABLE {t} MODIFY {quote(c)} {ty} NOT NULL",
                                                 "addNotNullConstraint"),
    "dropNotNullConstraint": _typed_column_change(lambda t, c, ty: f"ALTER TABLE {t} MODIFY {quote(c)} {ty} NULL",
                                                  "dropNotNullConstraint"),
    "addAutoIncrement": _typed_column_change(lambda t, c, ty: f"ALTER TABLE {t} MODIFY {quote(c)} {ty} AUTO_INCREMENT",
                                             "addAutoIncrement"),
    "addPrimaryKey": lambda n, a, e: Rendered([f"ALTER TABLE {_table(a)} ADD PRIMARY KEY "
                                               f"({_names(_need(a('columnNames'), 'columnNames'))})"]),
    "dropPrimaryKey": lambda n, a, e: Rendered([f"ALTER TABLE {_table(a)} DROP PRIMARY KEY"]),
    "addUniqueConstraint": lambda n, a, e: Rendered([
        f"ALTER TABLE {_table(a)} ADD " + (f"CONSTRAINT {quote(a('constraintName') or '')} " if a("constraintName") else "")
        + f"UNIQUE ({_names(_need(a('columnNames'), 'columnNames'))})"]),
    "dropUniqueConstraint": lambda n, a, e: Rendered([
        f"ALTER TABLE {_table(a)} DROP KEY {quote(_need(a('constraintName'), 'constraintName'))}"]),
    "createIndex": _create_index,
    "dropIndex": lambda n, a, e: Rendered([f"DROP INDEX {quote(_need(a('indexName'), 'indexName'))} ON {_table(a)}"]),
    "addForeignKeyConstraint": _add_foreign_key,
    "dropForeignKeyConstraint": lambda n, a, e: Rendered([
        f"ALTER TABLE {_table(a, 'baseTableName')} DROP FOREIGN KEY {quote(_need(a('constraintName'), 'constraintName'))}"]),
    "renameTable": lambda n, a, e: Rendered([
        f"ALTER TABLE {_table(a, 'oldTableName')} RENAME TO {quote(_need(a('newTableName'), 'newTableName'))}"]),
    "dropTable": lambda n, a, e: Rendered([f"DROP TABLE {_table(a)}"]),
    "addDefaultValue": lambda n, a, e: Rendered([
        f"ALTER TABLE {_table(a)} ALTER {quote(_need(a('columnName'), 'columnName'))} SET DEFAULT "
        f"{_default(n, e) or 'NULL'}"]),
    "dropDefaultValue": lambda n, a, e: Rendered([
        f"ALTER TABLE {_table(a)} ALTER {quote(_need(a('columnName'), 'columnName'))} DROP DEFAULT"]),
}
