"""DDL operations: what a statement does to the schema, independent of how it was written.

`linter.parse` turns one statement into one of these (sqlglot and MySQL syntax quirks end there);
`linter.replay` applies them to the model. They hold no positions, so one parsed operation can be
cached and applied for every identical statement (tenant dumps repeat each CREATE TABLE
thousands of times).
"""

from __future__ import annotations

from typing import Literal

from linter.model import Column, ForeignKey, Index, TableBody
from linter.record import FrozenRecord

# Frozen records rather than frozen dataclasses: the same ==, hash, repr and immutability, without
# compiling ~150 generated methods on every start (linter.record says why).
_set = object.__setattr__


class Name(FrozenRecord):
    """A possibly schema-qualified object name, unquoted."""

    __slots__ = __match_args__ = ("schema", "name")
    schema: str | None
    name: str

    def __init__(self, schema: str | None, name: str) -> None:
        _set(self, "schema", schema)
        _set(self, "name", name)


# --- ALTER TABLE actions ------------------------------------------------------------------
class AddColumn(FrozenRecord):
    __slots__ = __match_args__ = ("column",)
    column: Column

    def __init__(self, column: Column) -> None:
        _set(self, "column", column)


class ChangeColumn(FrozenRecord):
    """MODIFY (old_name == column.name) or CHANGE old new-definition."""

    __slots__ = __match_args__ = ("old_name", "column")
    old_name: str
    column: Column

    def __init__(self, old_name: str, column: Column) -> None:
        _set(self, "old_name", old_name)
        _set(self, "column", column)


class RenameColumn(FrozenRecord):
    __slots__ = __match_args__ = ("old_name", "new_name")
    old_name: str
    new_name: str

    def __init__(self, old_name: str, new_name: str) -> None:
        _set(self, "old_name", old_name)
        _set(self, "new_name", new_name)


class DropColumn(FrozenRecord):
    __slots__ = __match_args__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        _set(self, "name", name)


class SetColumnDefault(FrozenRecord):
    __slots__ = __match_args__ = ("name", "default")
    name: str
    default: str | None  # None: DROP DEFAULT

    def __init__(self, name: str, default: str | None) -> None:
        _set(self, "name", name)
        _set(self, "default", default)


class AddIndex(FrozenRecord):
    __slots__ = __match_args__ = ("index",)
    index: Index

    def __init__(self, index: Index) -> None:
        _set(self, "index", index)


class DropIndex(FrozenRecord):
    __slots__ = __match_args__ = ("name",)
    name: str  # "PRIMARY" for DROP PRIMARY KEY

    def __init__(self, name: str) -> None:
        _set(self, "name", name)


class RenameIndex(FrozenRecord):
    __slots__ = __match_args__ = ("old_name", "new_name")
    old_name: str
    new_name: str

    def __init__(self, old_name: str, new_name: str) -> None:
        _set(self, "old_name", old_name)
        _set(self, "new_name", new_name)


class AddForeignKey(FrozenRecord):
    __slots__ = __match_args__ = ("foreign_key",)
    foreign_key: ForeignKey

    def __init__(self, foreign_key: ForeignKey) -> None:
        _set(self, "foreign_key", foreign_key)


class DropForeignKey(FrozenRecord):
    __slots__ = __match_args__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        _set(self, "name", name)


class DropConstraint(FrozenRecord):
    """DROP CONSTRAINT name: a foreign key, a unique key or a check of that name."""

    __slots__ = __match_args__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        _set(self, "name", name)


class SetOptions(FrozenRecord):
    """Table options: keys as in TableOptions' field names, or upper-case for `other`."""

    __slots__ = __match_args__ = ("options",)
    options: tuple[tuple[str, str | None], ...]

    def __init__(self, options: tuple[tuple[str, str | None], ...]) -> None:
        _set(self, "options", options)


class RenameTo(FrozenRecord):
    __slots__ = __match_args__ = ("target",)
    target: Name

    def __init__(self, target: Name) -> None:
        _set(self, "target", target)


AlterAction = (
    AddColumn | ChangeColumn | RenameColumn | DropColumn | SetColumnDefault | AddIndex | DropIndex
    | RenameIndex | AddForeignKey | DropForeignKey | DropConstraint | SetOptions | RenameTo
)


# --- statements ----------------------------------------------------------------------------
class CreateTable(FrozenRecord):
    __slots__ = __match_args__ = ("name", "body", "temporary", "if_not_exists", "like", "as_select")
    name: Name
    body: TableBody  # shared by every table created from this operation: copy before changing
    temporary: bool
    if_not_exists: bool
    like: Name | None  # CREATE TABLE t LIKE other
    as_select: bool  # CREATE TABLE t [(...)] AS SELECT ...

    def __init__(
        self, name: Name, body: TableBody, temporary: bool = False, if_not_exists: bool = False,
        like: Name | None = None, as_select: bool = False,
    ) -> None:
        _set(self, "name", name)
        _set(self, "body", body)
        _set(self, "temporary", temporary)
        _set(self, "if_not_exists", if_not_exists)
        _set(self, "like", like)
        _set(self, "as_select", as_select)


class AlterTable(FrozenRecord):
    __slots__ = __match_args__ = ("name", "actions")
    name: Name
    actions: tuple[AlterAction, ...]

    def __init__(self, name: Name, actions: tuple[AlterAction, ...]) -> None:
        _set(self, "name", name)
        _set(self, "actions", actions)


class DropTable(FrozenRecord):
    __slots__ = __match_args__ = ("names", "temporary")
    names: tuple[Name, ...]
    temporary: bool

    def __init__(self, names: tuple[Name, ...], temporary: bool = False) -> None:
        _set(self, "names", names)
        _set(self, "temporary", temporary)


class RenameTable(FrozenRecord):
    __slots__ = __match_args__ = ("pairs",)
    pairs: tuple[tuple[Name, Name], ...]

    def __init__(self, pairs: tuple[tuple[Name, Name], ...]) -> None:
        _set(self, "pairs", pairs)


class CreateIndex(FrozenRecord):
    __slots__ = __match_args__ = ("table", "index")
    table: Name
    index: Index

    def __init__(self, table: Name, index: Index) -> None:
        _set(self, "table", table)
        _set(self, "index", index)


class DropIndexStatement(FrozenRecord):
    __slots__ = __match_args__ = ("table", "name")
    table: Name
    name: str

    def __init__(self, table: Name, name: str) -> None:
        _set(self, "table", table)
        _set(self, "name", name)


class CreateTablespace(FrozenRecord):
    __slots__ = __match_args__ = ("name", "datafile", "engine")
    name: str
    datafile: str | None
    engine: str | None

    def __init__(self, name: str, datafile: str | None, engine: str | None) -> None:
        _set(self, "name", name)
        _set(self, "datafile", datafile)
        _set(self, "engine", engine)


class DropTablespace(FrozenRecord):
    __slots__ = __match_args__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        _set(self, "name", name)


class CreateCompressionDictionary(FrozenRecord):
    __slots__ = __match_args__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        _set(self, "name", name)


class SchemaStatement(FrozenRecord):
    """CREATE DATABASE / DROP DATABASE / USE. A CREATE DATABASE's DEFAULT CHARACTER SET and
    COLLATE are the defaults of its tables that name none (linter.innodb_sizes resolves them)."""

    __slots__ = __match_args__ = ("action", "name", "charset", "collation")
    action: Literal["create", "drop", "use"]
    name: str
    charset: str | None
    collation: str | None

    def __init__(
        self, action: Literal["create", "drop", "use"], name: str, charset: str | None = None,
        collation: str | None = None,
    ) -> None:
        _set(self, "action", action)
        _set(self, "name", name)
        _set(self, "charset", charset)
        _set(self, "collation", collation)


class CreateView(FrozenRecord):
    """A view replaces mysqldump's stand-in table of the same name."""

    __slots__ = __match_args__ = ("name",)
    name: Name

    def __init__(self, name: Name) -> None:
        _set(self, "name", name)


class Skipped(FrozenRecord):
    """A statement that is not schema DDL (INSERT, SET, GRANT, routines...): skipped on purpose."""

    __slots__ = __match_args__ = ("kind",)
    kind: str

    def __init__(self, kind: str) -> None:
        _set(self, "kind", kind)


Operation = (
    CreateTable | AlterTable | DropTable | RenameTable | CreateIndex | DropIndexStatement
    | CreateTablespace | DropTablespace | CreateCompressionDictionary | SchemaStatement | CreateView
    | Skipped
)
