"""What an ALTER TABLE's character sets do to the columns the table already has.

A column that names no character set takes its table's default when it is defined, and keeps it:
`ALTER TABLE t DEFAULT CHARSET=utf8mb4` changes the default for the columns defined from then on
(those the same statement adds, MODIFYs or CHANGEs too), while every other text column keeps
latin1, which SHOW CREATE TABLE then writes on the column. `CONVERT TO CHARACTER SET cs` moves
every text column to cs (those with their own character set or collation too, and those the
statement defines), and the table's default unless the statement sets that itself. A converted
TINYTEXT, TEXT or MEDIUMTEXT keeps as many characters as it held, so it grows to the next type
when cs takes more bytes per character (latin1 TEXT is utf8mb4 MEDIUMTEXT); a VARCHAR keeps its
length, and one that then takes more bytes than a VARCHAR holds is refused (error 1074,
`column_lengths`); to `binary`,
CHAR, VARCHAR and the TEXT types become BINARY, VARBINARY and the BLOB types. Converted keys are
cut as MariaDB cuts any key on a column grown longer (`key_parts.cut_changed_keys`). Each rule
was asked of MariaDB 10.11 (tests/test_alter_charsets.py runs the cases on the server); MySQL
documents the same (CONVERT TO CHARACTER SET, "ALTER TABLE Statement").
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from linter.parse import ops
from linter.parse.elements import Column, Location
from linter.schema.model import Table
from linter.parse.body import TableBody
from linter.schema.innodb_sizes import TEXT_TYPES, ResolvedCharset, pair, column_charset, database_charset, table_charset, text_type_for
from linter.server.column_lengths import needs_settling, stored
from linter.server.key_parts import as_stored, cut_changed_keys

if TYPE_CHECKING:
    from linter.parse.body_draft import BodyDraft
    from linter.schema.model import Schema
    from linter.schema.target import Target

#: the TEXT types by the bytes they hold, smallest first
_SIZE_OF_TEXT = {"TINYTEXT": 255, "TEXT": 65535, "MEDIUMTEXT": 16777215, "LONGTEXT": 4294967295}
_BINARY_OF = {"CHAR": "BINARY", "VARCHAR": "VARBINARY", "TINYTEXT": "TINYBLOB", "TEXT": "BLOB",
              "MEDIUMTEXT": "MEDIUMBLOB", "LONGTEXT": "LONGBLOB", "JSON": "LONGBLOB"}


def _holds_text(column: Column, target: Target) -> bool:
    """A column with a character set a conversion changes: the text types, and MariaDB's JSON
    (a LONGTEXT)."""
    kind = column.type.upper()
    return kind in TEXT_TYPES or (kind == "JSON" and target.is_mariadb)


class _Plan:
    """What the statement does to character sets: the table's default before and after it, and
    the character set a CONVERT TO moves every text column to (None: no CONVERT TO)."""

    __slots__ = ("before", "after", "to")

    def __init__(self, before: ResolvedCharset, after: ResolvedCharset, to: ResolvedCharset | None) -> None:
        self.before, self.after, self.to = before, after, to


class AlterCharsets:
    """The character sets one ALTER TABLE gives the columns of `table` (in the database `schema`),
    from its table options (`options`, the statement's list as it reads them: CHARSET= and
    COLLATE=) and its CONVERT TO (`convert`): `kept_view` and `defined_view` give a column as the
    statement leaves it (its character set written on it where it changes, so that the keys built
    are judged in it), `charset_of` the character set of such a view, `apply` moves the table's
    columns when the statement is applied."""

    __slots__ = ("table", "target", "schema", "options", "convert")

    def __init__(self, table: Table, target: Target, schema: Schema | None,
                 options: list[tuple[tuple[str, str | None], ...]]) -> None:
        self.table = table
        self.target = target
        self.schema = schema
        self.options = options
        #: the statement's CONVERT TO CHARACTER SET (two of them are one: the parser refuses two that differ)
        self.convert: ops.ConvertCharset | None = None

    def plan(self) -> _Plan | None:
        """The statement's `_Plan`, None when it changes no character set. The options' CHARSET and
        COLLATE replace the table's pair whole (a CHARSET alone takes its own default collation, a
        COLLATE alone its character set); a CONVERT TO without them sets the default too."""
        charset = collation = None
        for pairs in self.options:
            for key, value in pairs:
                if key == "CHARSET":
                    charset = value
                elif key == "COLLATE":
                    collation = value
        if charset is None and collation is None and self.convert is None:
            return None
        target, schema = self.target, self.schema
        database = database_charset(target, schema)
        to = None
        if self.convert is not None:
            found = pair(self.convert.charset, self.convert.collation)  # (None: DEFAULT, the database's)
            to = ResolvedCharset(found[0], found[1], "column") if found is not None else database
            if charset is None and collation is None:
                charset, collation = (self.convert.charset, self.convert.collation) if found is not None else (None, None)
        found = pair(charset, collation)
        after = ResolvedCharset(found[0], found[1], "table") if found is not None else database
        return _Plan(table_charset(self.table, target, schema), after, to)

    def kept_view(self, column: Column) -> Column:
        """A column the table had and the statement does not define, as the statement leaves it."""
        plan = self.plan()
        if plan is None or not _holds_text(column, self.target):
            return column
        if plan.to is not None:
            was = column_charset(column, self.table, self.target, self.schema)
            if was is not None and was.charset == "binary":  # (an ENUM or SET in binary: CONVERT TO leaves it)
                return column if column.charset else replace(column, charset=was.charset, collation=was.collation)
            return _moved(column, plan.to, was)
        if pair(column.charset, column.collation) is None and column.type.upper() in TEXT_TYPES:
            return replace(column, charset=plan.before.charset, collation=plan.before.collation)
        return column

    def defined_view(self, column: Column) -> Column:
        """A column the statement defines (ADD, MODIFY, CHANGE): in the new default unless it
        names its own; a CONVERT TO moves it whatever it names, without growing its type, except
        one that says BINARY alone, which takes the new default (asked of MariaDB 10.11: `ADD n
        VARCHAR(10) BINARY, CONVERT TO CHARACTER SET utf8mb3, DEFAULT CHARSET latin1` makes n
        latin1_bin). A
        TEXT(n) or BLOB(n) is the type the server stores for it in that character set
        (`column_lengths.stored`)."""
        plan = self.plan()
        view = column
        if plan is not None and _holds_text(column, self.target):
            inherits = pair(column.charset, column.collation) is None and column.type.upper() in TEXT_TYPES
            own = pair(column.charset, column.collation)
            if plan.to is not None and not (inherits and column.binary) and not (own and own[0] == "binary"):
                view = _moved(column, plan.to, None)
            elif plan.after.charset == "binary":  # (BINARY alone in the binary character set: VARBINARY ...)
                view = _moved(column, plan.after, None)
            elif inherits:  # (BINARY alone: the _bin collation of the new default, even under a CONVERT TO)
                view = replace(column, charset=plan.after.charset, collation=plan.after.collation)
        elif plan is None and _inherits_text(column) and self.charset_of(column).charset == "binary":  # type: ignore[union-attr]
            view = _moved(column, _BINARY, None)  # (defined in a table whose default is binary)
        if needs_settling(view):
            view = stored(view, self.charset_of(view))
        return view

    def charset_of(self, view: Column) -> ResolvedCharset | None:
        """The character set of a column as `kept_view` or `defined_view` leave it (their own
        written on them where the statement changes the table's default)."""
        return column_charset(view, self.table, self.target, self.schema)

    def apply(self, plan: _Plan, draft: BodyDraft, changes: list[tuple[str, Column, bool]], where: Location) -> None:
        """Before the options and the statement's own columns are applied: set the table's new
        default and move the columns the table had (`draft`'s) as `kept_view` says, each written
        as SHOW CREATE TABLE writes it (no character set of its own when it is the new default);
        `changes`, the statement's (old key, column, defines) that only rename a column or give it
        a default, are rewritten in place the same way."""
        table, target = self.table, self.target
        converted: list[Column] = []
        for at, column in list(draft.columns.items()):
            view = self.kept_view(column)
            if view is column:
                continue
            if plan.to is not None:
                view = replace(view, where=where, offset=0)  # (changed by the statement, not defined in it)
                converted.append(view)
            draft.columns[at] = _written_against(view, plan.after)
        for n, (old, column, defines) in enumerate(changes):  # renamed, or given a default: kept (fuzz seed 364)
            if not defines:
                changes[n] = (old, _written_against(self.kept_view(column), plan.after), defines)
        options = table.writable().options
        options.charset, options.collation = (plan.after.charset, plan.after.collation) \
            if plan.after.source == "table" else (None, None)
        if converted:
            for index in draft.indexes.values():  # (rebuilt: a part the server cut is its prefix now)
                index.columns = as_stored(index).columns
        if converted and target.is_mariadb:
            cut_changed_keys(table, draft, converted, target, self.schema)

    def written_view(self, column: Column) -> Column:
        """`defined_view`, written as SHOW CREATE TABLE writes it (for `TableAlter.apply`)."""
        view = self.defined_view(column)
        plan = self.plan()
        return _written_against(view, plan.after) if view is not column and plan is not None else view


def _moved(column: Column, to: ResolvedCharset, was: ResolvedCharset | None) -> Column:
    """The column converted to `to`, with it written on it. `was`: the character set it held, for
    a TEXT type to grow as the server grows it (None: defined now, not grown)."""
    kind = column.type.upper()
    params = column.params
    if to.charset == "binary":
        kind, params = _BINARY_OF.get(kind, kind), params if kind in ("CHAR", "VARCHAR", "ENUM", "SET", "TEXT") else ()
        binary_type = kind not in ("ENUM", "SET")
        return replace(column, type=kind, params=params, binary=False, charset=None if binary_type else "binary",
                       collation=None)
    if kind in _SIZE_OF_TEXT and was is not None and was.maxlen and to.maxlen:  # (a kept column: no TEXT(n))
        grown = text_type_for("TEXT", _SIZE_OF_TEXT[kind] // was.maxlen * to.maxlen)
        kind = grown if _SIZE_OF_TEXT[grown] > _SIZE_OF_TEXT[kind] else kind
    return replace(column, type=column.type if kind == column.type.upper() else kind, params=params, binary=False,
                   charset=to.charset, collation=to.collation)


#: the binary character set, which a column takes as its own type (`_moved`)
_BINARY = ResolvedCharset("binary", "binary", "table")


def _inherits_text(column: Column) -> bool:
    """A CHAR, VARCHAR or TEXT column that names no character set: it takes its table's default."""
    return pair(column.charset, column.collation) is None and column.type.upper() in _BINARY_OF \
        and column.type.upper() != "JSON"


def in_binary_default(body: TableBody, target: Target, schema: Schema | None) -> TableBody:
    """The body of a CREATE TABLE whose default character set (its own, else its database's) is
    binary: each CHAR, VARCHAR or TEXT column that names none is of the binary type of its kind
    (VARCHAR(10) is VARBINARY(10), TEXT is BLOB: MariaDB 10.11, fuzz seed 364); `body` itself
    when nothing changes."""
    found = pair(body.options.charset, body.options.collation)
    if (found[0] if found is not None else database_charset(target, schema).charset) != "binary":
        return body
    if not any(_inherits_text(column) for column in body.columns.values()):
        return body
    copy = body.copy()
    copy.columns = {key: _moved(column, _BINARY, None) if _inherits_text(column) else column
                    for key, column in copy.columns.items()}
    return copy


def _written_against(column: Column, default: ResolvedCharset) -> Column:
    """The column as SHOW CREATE TABLE writes it: without a character set of its own when it holds
    the table's `default` (MariaDB's JSON keeps it: its own default is utf8mb4_bin)."""
    if column.type.upper() == "JSON" or column.charset is None:
        return column
    if (pair(column.charset, column.collation) or (None, None)) == (default.charset, default.collation):
        return replace(column, charset=None, collation=None)
    return column


def keep_copied_charset(body: TableBody, source: Table, target: Target, source_schema: Schema | None,
                        schema: Schema | None) -> None:
    """CREATE TABLE ... LIKE: the copy's `body` keeps the default character set the source holds
    (its own database's, which the server writes on the copy), where the new database's differs
    (fuzz seed 354; tests/test_alter_charsets.py)."""
    copied = table_charset(source, target, source_schema)
    here = database_charset(target, schema)
    if (copied.charset, copied.collation) != (here.charset, here.collation):
        body.options.charset, body.options.collation = copied.charset, copied.collation
