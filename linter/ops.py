"""DDL operations: what a statement does to the schema, independent of how it was written.

`linter.parse` turns one statement into one of these (sqlglot and MySQL syntax quirks end there);
`linter.replay` applies them to the model. They hold no positions, so one parsed operation can be
cached and applied for every identical statement (tenant dumps repeat each CREATE TABLE
thousands of times).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from linter.model import Column, ForeignKey, Index, TableBody


@dataclass(frozen=True, slots=True)
class Name:
    """A possibly schema-qualified object name, unquoted."""

    schema: str | None
    name: str


# --- ALTER TABLE actions ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AddColumn:
    column: Column


@dataclass(frozen=True, slots=True)
class ChangeColumn:
    """MODIFY (old_name == column.name) or CHANGE old new-definition."""

    old_name: str
    column: Column


@dataclass(frozen=True, slots=True)
class RenameColumn:
    old_name: str
    new_name: str


@dataclass(frozen=True, slots=True)
class DropColumn:
    name: str


@dataclass(frozen=True, slots=True)
class SetColumnDefault:
    name: str
    default: str | None  # None: DROP DEFAULT


@dataclass(frozen=True, slots=True)
class AddIndex:
    index: Index


@dataclass(frozen=True, slots=True)
class DropIndex:
    name: str  # "PRIMARY" for DROP PRIMARY KEY


@dataclass(frozen=True, slots=True)
class RenameIndex:
    old_name: str
    new_name: str


@dataclass(frozen=True, slots=True)
class AddForeignKey:
    foreign_key: ForeignKey


@dataclass(frozen=True, slots=True)
class DropForeignKey:
    name: str


@dataclass(frozen=True, slots=True)
class DropConstraint:
    """DROP CONSTRAINT name: a foreign key, a unique key or a check of that name."""

    name: str


@dataclass(frozen=True, slots=True)
class SetOptions:
    """Table options: keys as in TableOptions' field names, or upper-case for `other`."""

    options: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True)
class RenameTo:
    target: Name


AlterAction = (
    AddColumn | ChangeColumn | RenameColumn | DropColumn | SetColumnDefault | AddIndex | DropIndex
    | RenameIndex | AddForeignKey | DropForeignKey | DropConstraint | SetOptions | RenameTo
)


# --- statements ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CreateTable:
    name: Name
    body: TableBody  # shared by every table created from this operation: copy before changing
    temporary: bool = False
    if_not_exists: bool = False
    like: Name | None = None  # CREATE TABLE t LIKE other
    as_select: bool = False  # CREATE TABLE t [(...)] AS SELECT ...


@dataclass(frozen=True, slots=True)
class AlterTable:
    name: Name
    actions: tuple[AlterAction, ...]


@dataclass(frozen=True, slots=True)
class DropTable:
    names: tuple[Name, ...]
    temporary: bool = False


@dataclass(frozen=True, slots=True)
class RenameTable:
    pairs: tuple[tuple[Name, Name], ...]


@dataclass(frozen=True, slots=True)
class CreateIndex:
    table: Name
    index: Index


@dataclass(frozen=True, slots=True)
class DropIndexStatement:
    table: Name
    name: str


@dataclass(frozen=True, slots=True)
class CreateTablespace:
    name: str
    datafile: str | None
    engine: str | None


@dataclass(frozen=True, slots=True)
class DropTablespace:
    name: str


@dataclass(frozen=True, slots=True)
class CreateCompressionDictionary:
    name: str


@dataclass(frozen=True, slots=True)
class SchemaStatement:
    """CREATE DATABASE / DROP DATABASE / USE."""

    action: Literal["create", "drop", "use"]
    name: str


@dataclass(frozen=True, slots=True)
class CreateView:
    """A view replaces mysqldump's stand-in table of the same name."""

    name: Name


@dataclass(frozen=True, slots=True)
class Skipped:
    """A statement that is not schema DDL (INSERT, SET, GRANT, routines...): skipped on purpose."""

    kind: str


Operation = (
    CreateTable | AlterTable | DropTable | RenameTable | CreateIndex | DropIndexStatement
    | CreateTablespace | DropTablespace | CreateCompressionDictionary | SchemaStatement | CreateView
    | Skipped
)
