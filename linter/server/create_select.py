"""The columns of a table CREATE TABLE ... SELECT makes, where innolint can tell them.

The server makes the table's columns from the definition and the SELECT's result (MariaDB 10.11,
checked by tests/test_create_select_columns.py; MySQL documents the same): the definition's
columns the SELECT does not give come first, then the SELECT's in its order; a column both give
has the definition's type, at the SELECT's place. A column the SELECT copies from a table keeps
its type, NULL/NOT NULL, DEFAULT, ON UPDATE and COMMENT, and its character set and collation; it
loses AUTO_INCREMENT (the column keeps NOT NULL), the generated expression (a plain nullable
column), INVISIBLE (and `*` leaves invisible columns out), its CHECK constraints, and every key.

innolint knows a copied column when the SELECT reads one table the model holds and the select
item names a column of it (`a`, `t.a`, `a AS b`, `*`). An expression (`a + 1 AS b`) has a type
the server computes: such a table keeps only what innolint can tell, and `SelectedColumns`
(linter.server.refusals) remembers the names of the others.
"""

from __future__ import annotations

from dataclasses import replace

from linter.parse import ops
from linter.schema.innodb_sizes import TEXT_TYPES, column_charset
from linter.parse.elements import Column
from linter.schema.model import Schema, Table
from linter.parse.body import TableBody
from linter.server.refusals import auto_increment_key_problem
from linter.schema.target import Target


def _copied(column: Column, name: str, source: Table, target: Target, schema: Schema | None) -> Column:
    """`column` of `source` as the SELECT copies it, named `name`."""
    charset = collation = None
    if column.type.upper() in TEXT_TYPES:
        resolved = column_charset(column, source, target, schema)
        if resolved is not None:
            charset, collation = resolved.charset, resolved.collation
    generated = column.generated is not None
    return replace(column, name=name, auto_increment=False, generated=None, invisible=False, checks=(),
                   nullable=True if generated else column.nullable, default=None if generated else column.default,
                   charset=charset or column.charset, collation=collation or column.collation, where=None, offset=0)


def selected_body(op: ops.CreateTable, source: Table | None, target: Target, schema: Schema | None) -> TableBody | None:
    """A copy of the statement's body with the columns the SELECT copies from `source` (the one
    table it reads; `schema`: the source's, for its default character set), in the server's order;
    None when the SELECT gives no column innolint can tell (then the body is the definition's)."""
    names, sources = op.select_columns, op.select_sources
    if source is None or names is None or sources is None:
        return None
    by_name = source.columns
    selected: list[Column] = []
    for name, column_name in zip(names, sources):
        if column_name == "*":
            selected += [_copied(c, c.name, source, target, schema) for c in by_name.values() if not c.invisible]
        elif column_name is not None and column_name.lower() in by_name:
            selected.append(_copied(by_name[column_name.lower()], name, source, target, schema))
    if not selected:
        return None
    body = op.body.copy()
    defined = body.columns
    given = {c.name.lower() for c in selected}
    columns = {key: column for key, column in defined.items() if key not in given}
    for column in selected:
        key = column.name.lower()
        if key not in columns:
            columns[key] = defined.get(key, column)
    body.columns = columns
    return body


def definition_problem(op: ops.CreateTable, source: Table | None, *, explicit_timestamps: bool) -> str | None:
    """What the server refuses in the definition of a CREATE TABLE ... SELECT whatever the SELECT
    gives: an AUTO_INCREMENT column that is not the first column of one of the definition's keys
    (error 1075); a column the definition makes NOT NULL without a default (nor AUTO_INCREMENT)
    that the SELECT gives no value for, whether it returns rows or not (error 1364, strict mode,
    MariaDB 10.11), when innolint can tell the SELECT's columns. A TIMESTAMP counts only with
    `explicit_timestamps` (`Target.explicit_defaults_for_timestamp`): else it gets a default."""
    body = op.body
    autos = [key for key, column in body.columns.items() if column.auto_increment]
    problem = auto_increment_key_problem(autos, body.indexes, body.options.engine)
    if problem:
        return problem
    names = op.select_columns
    if names is None:
        return None
    given = {name.lower() for name in names if name != "*"}
    if "*" in names:
        if source is None:
            return None
        given |= {key for key, column in source.columns.items() if not column.invisible}
    for key, column in _needing_a_value(op, explicit_timestamps):
        if key not in given:
            return (f"column {column.name} is NOT NULL without a default and the SELECT gives no value for it "
                    "(error 1364: field doesn't have a default value)")
    return None


def untold_value(op: ops.CreateTable, source: Table | None, *, explicit_timestamps: bool) -> str | None:
    """Where innolint cannot tell the SELECT's columns (an expression without an alias: the
    server names it by its text, `(e)` and the string `'e'` as `e`; `*` over a join): the first
    column of the definition the server refuses the statement for if the SELECT does not give it
    (`definition_problem`), said as what innolint cannot tell; None when there is none."""
    names = op.select_columns
    if names is not None and ("*" not in names or source is not None):
        return None
    needing = next(iter(_needing_a_value(op, explicit_timestamps)), None)
    if needing is None:
        return None
    return (f"innolint cannot tell whether the SELECT gives column {needing[1].name} a value (it cannot tell the "
            "SELECT's columns): NOT NULL without a default, the server refuses the statement if it does not (error "
            "1364); innolint makes the table")


def _needing_a_value(op: ops.CreateTable, explicit_timestamps: bool) -> list[tuple[str, Column]]:
    """The definition's columns a row must give a value: NOT NULL without a default, nor
    AUTO_INCREMENT nor generated; a TIMESTAMP only with `explicit_timestamps`."""
    return [(key, column) for key, column in op.body.columns.items()
            if not column.nullable and column.default is None and not column.auto_increment
            and column.generated is None and (explicit_timestamps or column.type.upper() != "TIMESTAMP")]
