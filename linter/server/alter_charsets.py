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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from linter.parse import ops
from linter.parse.elements import Column, Location
from linter.schema.model import Table
from linter.parse.body import TableBody
from linter.schema.innodb_sizes import TEXT_TYPES, ResolvedCharset, _pair, column_charset, database_charset, table_charset, text_type_for
from linter.server.column_lengths import needs_settling, stored, too_long
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
    """The part of `_Alter` that follows character sets: `_ConvertCharset` while the statement is
    read; `kept_view` and `defined_view` give the columns as the statement leaves them (their
    character set written on them where it changes, so that the keys built are judged in it),
    `new_column_of` finds a column of the table the statement builds in them, `too_long_column`
    checks them, `apply_charsets` applies them."""

    table: Table
    draft: BodyDraft | None
    options: list[tuple[tuple[str, str | None], ...]]
    consumed: set[str]
    replayer: Any  # `_Alter`'s Replayer: its target and model
    #: the statement's CONVERT TO CHARACTER SET (two of them are one: the parser refuses two that differ)
    convert: ops.ConvertCharset | None
    changes: list[tuple[str, Column, bool]]  # (old key, new Column, defines)
    steps: list[tuple[bool, str, Column, ops.Position]]  # (added, key, column, position)
    _old_column: Callable[[str], Column | None]

    def _ConvertCharset(self, action: ops.ConvertCharset) -> str | None:
        self.convert = action
        return None

    def _charset_plan(self) -> _Plan | None:
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
        target, schema = self.replayer.target, self.replayer.model.find_schema(self.table.schema)
        database = database_charset(target, schema)
        to = None
        if self.convert is not None:
            found = _pair(self.convert.charset, self.convert.collation)  # (None: DEFAULT, the database's)
            to = ResolvedCharset(found[0], found[1], "column") if found is not None else database
            if charset is None and collation is None:
                charset, collation = (self.convert.charset, self.convert.collation) if found is not None else (None, None)
        found = _pair(charset, collation)
        after = ResolvedCharset(found[0], found[1], "table") if found is not None else database
        return _Plan(table_charset(self.table, target, schema), after, to)

    def new_column_of(self, key: str) -> Column | None:
        """A column of the table the statement builds, by lower-case name; a column it redefines
        by its old name too (the keys on it still name that)."""
        for old, column, defines in self.changes:
            if old == key:
                return self.defined_view(column) if defines else self.kept_view(column)
        return self._new_column(key)

    def _new_column(self, key: str) -> Column | None:
        """The column of this name in the table the statement builds (None: not there), in the
        character set it leaves it (`AlterCharsets`)."""
        for _, column, defines in reversed(self.changes):
            if column.name.lower() == key:
                return self.defined_view(column) if defines else self.kept_view(column)
        for is_add, added, column, _ in self.steps:
            if is_add and added == key:
                return self.defined_view(column)
        old = self._old_column(key)
        return self.kept_view(old) if old is not None else None

    def kept_view(self, column: Column) -> Column:
        """A column the table had and the statement does not define, as the statement leaves it."""
        plan = self._charset_plan()
        if plan is None or not _holds_text(column, self.replayer.target):
            return column
        if plan.to is not None:
            schema = self.replayer.model.find_schema(self.table.schema)
            was = column_charset(column, self.table, self.replayer.target, schema)
            if was is not None and was.charset == "binary":  # (an ENUM or SET in binary: CONVERT TO leaves it)
                return column if column.charset else replace(column, charset=was.charset, collation=was.collation)
            return _moved(column, plan.to, was)
        if _pair(column.charset, column.collation) is None and column.type.upper() in TEXT_TYPES:
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
        plan = self._charset_plan()
        view = column
        if plan is not None and _holds_text(column, self.replayer.target):
            inherits = _pair(column.charset, column.collation) is None and column.type.upper() in TEXT_TYPES
            own = _pair(column.charset, column.collation)
            if plan.to is not None and not (inherits and column.binary) and not (own and own[0] == "binary"):
                view = _moved(column, plan.to, None)
            elif plan.after.charset == "binary":  # (BINARY alone in the binary character set: VARBINARY ...)
                view = _moved(column, plan.after, None)
            elif inherits:  # (BINARY alone: the _bin collation of the new default, even under a CONVERT TO)
                view = replace(column, charset=plan.after.charset, collation=plan.after.collation)
        elif plan is None and _inherits_text(column) and self._charset_of(column).charset == "binary":  # type: ignore[union-attr]
            view = _moved(column, _BINARY, None)  # (defined in a table whose default is binary)
        if needs_settling(view):
            view = stored(view, self._charset_of(view))
        return view

    def _charset_of(self, view: Column) -> ResolvedCharset | None:
        """The character set of a column as `kept_view` or `defined_view` leave it (their own
        written on them where the statement changes the table's default)."""
        return column_charset(view, self.table, self.replayer.target, self.replayer.model.find_schema(self.table.schema))

    def too_long_column(self) -> tuple[Column, str] | None:
        """A column the statement leaves longer than its type allows (error 1074), as it leaves it,
        and why: one it defines, or a VARCHAR a CONVERT TO makes take more bytes than a VARCHAR
        holds."""
        if self.draft is None:  # (only table options)
            return None
        defined = [column for _, column, defines in self.changes if defines]
        defined += [column for is_add, _, column, _ in self.steps if is_add]
        views = [self.defined_view(column) for column in defined if needs_settling(column)]
        if self.convert is not None:
            views += [self.kept_view(column) for column in self.draft.columns.values()
                      if column.name.lower() not in self.consumed]
        target = self.replayer.target
        for view in views:
            why = too_long(view, self._charset_of(view), target) if needs_settling(view) else None
            if why:
                return view, why
        return None

    def defined_columns(self) -> list[Column]:
        """The columns the statement defines or renames, as it leaves them (costs what it names)."""
        columns = [self.defined_view(c) if defines else self.kept_view(c) for _, c, defines in self.changes]
        return columns + [self.defined_view(c) for is_add, _, c, _ in self.steps if is_add]

    def built(self) -> Table:
        """The table the statement builds: its columns as it leaves them (no keys), its options."""
        assert self.draft is not None
        columns = [self.kept_view(c) for c in self.draft.columns.values() if c.name.lower() not in self.consumed]
        columns += self.defined_columns()
        table = self.table
        return Table(schema=table.schema, name=table.name, body=TableBody({c.name.lower(): c for c in columns}, [], [],
                     table.options), defined=table.defined, changed=table.changed)

    def apply_charsets(self, where: Location) -> None:
        """Before the options and the statement's own columns are applied: set the table's new
        default and move the columns the table had as `kept_view` says, each written as SHOW
        CREATE TABLE writes it (no character set of its own when it is the new default)."""
        plan = self._charset_plan()
        if plan is None:
            return
        table, target = self.table, self.replayer.target
        if self.draft is None:
            self.draft = table.writable().draft(table.name)
        draft = self.draft
        converted: list[Column] = []
        for at, column in list(draft.columns.items()):
            view = self.kept_view(column)
            if view is column:
                continue
            if plan.to is not None:
                view = replace(view, where=where, offset=0)  # (changed by the statement, not defined in it)
                converted.append(view)
            draft.columns[at] = _written_against(view, plan.after)
        for n, (old, column, defines) in enumerate(self.changes):  # renamed, or given a default: kept (fuzz seed 364)
            if not defines:
                self.changes[n] = (old, _written_against(self.kept_view(column), plan.after), defines)
        options = table.writable().options
        options.charset, options.collation = (plan.after.charset, plan.after.collation) \
            if plan.after.source == "table" else (None, None)
        if converted:
            for index in draft.indexes.values():  # (rebuilt: a part the server cut is its prefix now)
                index.columns = as_stored(index).columns
        if converted and target.is_mariadb:
            cut_changed_keys(table, draft, converted, target, self.replayer.model.find_schema(table.schema))

    def written_view(self, column: Column) -> Column:
        """`defined_view`, written as SHOW CREATE TABLE writes it (for `apply`)."""
        view = self.defined_view(column)
        plan = self._charset_plan()
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
    return _pair(column.charset, column.collation) is None and column.type.upper() in _BINARY_OF \
        and column.type.upper() != "JSON"


def in_binary_default(body: TableBody, target: Target, schema: Schema | None) -> TableBody:
    """The body of a CREATE TABLE whose default character set (its own, else its database's) is
    binary: each CHAR, VARCHAR or TEXT column that names none is of the binary type of its kind
    (VARCHAR(10) is VARBINARY(10), TEXT is BLOB: MariaDB 10.11, fuzz seed 364); `body` itself
    when nothing changes."""
    found = _pair(body.options.charset, body.options.collation)
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
    if (_pair(column.charset, column.collation) or (None, None)) == (default.charset, default.collation):
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
