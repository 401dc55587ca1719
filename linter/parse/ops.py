"""DDL operations: what a statement does to the schema, independent of how it was written.

`linter.parse.statement` turns one statement into one of these (sqlglot and MySQL syntax quirks end there);
`linter.server.replay` applies them to the model. They hold no positions, so one parsed operation can be
cached and applied for every identical statement (tenant dumps repeat each CREATE TABLE
thousands of times).
"""

from __future__ import annotations

from typing import Literal

from linter.parse.elements import Column, ForeignKey, Index
from linter.parse.body import TableBody
from linter.record import FrozenRecord

# Frozen records rather than frozen dataclasses: the same ==, hash, repr and immutability, without
# compiling ~150 generated methods on every start (linter.record says why).
_set = object.__setattr__


class Name(FrozenRecord):
    """A possibly schema-qualified object name, unquoted. `bare`: the name was written without
    quotes and not after a period (a reserved word so written is refused: reserved-word); not
    part of ==."""

    __slots__ = ("schema", "name", "bare")
    __match_args__ = ("schema", "name")
    schema: str | None
    name: str
    bare: bool

    def __init__(self, schema: str | None, name: str, bare: bool = False) -> None:
        _set(self, "schema", schema)
        _set(self, "name", name)
        _set(self, "bare", bare)


# --- ALTER TABLE actions ------------------------------------------------------------------
#: where ADD / MODIFY / CHANGE COLUMN puts a column: None (ADD: at the end; MODIFY/CHANGE: where it
#: is), FIRST, or AFTER a column (by its name in the table the ALTER builds)
Position = Literal["FIRST"] | tuple[Literal["AFTER"], str] | None


class AddColumn(FrozenRecord):
    __slots__ = __match_args__ = ("column", "if_not_exists", "position", "bare_word")
    column: Column
    if_not_exists: bool  # MariaDB: ADD COLUMN IF NOT EXISTS (skipped when the column exists)
    position: Position
    bare_word: bool  # `ADD period ...` / `ADD system ...` (see `VERSIONING_WORDS`)

    def __init__(self, column: Column, if_not_exists: bool = False, position: Position = None,
                 bare_word: bool = False) -> None:
        _set(self, "column", column)
        _set(self, "if_not_exists", if_not_exists)
        _set(self, "position", position)
        _set(self, "bare_word", bare_word)


class ChangeColumn(FrozenRecord):
    """MODIFY (old_name == column.name) or CHANGE old new-definition."""

    __slots__ = __match_args__ = ("old_name", "column", "if_exists", "position", "change")
    old_name: str
    column: Column
    if_exists: bool  # MariaDB: MODIFY / CHANGE COLUMN IF EXISTS
    position: Position
    change: bool  # written CHANGE, which names the column anew (as RENAME COLUMN does), not MODIFY

    def __init__(self, old_name: str, column: Column, if_exists: bool = False, position: Position = None,
                 change: bool = False) -> None:
        _set(self, "old_name", old_name)
        _set(self, "column", column)
        _set(self, "if_exists", if_exists)
        _set(self, "position", position)
        _set(self, "change", change)


class RenameColumn(FrozenRecord):
    __slots__ = __match_args__ = ("old_name", "new_name", "if_exists")
    old_name: str
    new_name: str
    if_exists: bool  # MariaDB: RENAME COLUMN IF EXISTS

    def __init__(self, old_name: str, new_name: str, if_exists: bool = False) -> None:
        _set(self, "old_name", old_name)
        _set(self, "new_name", new_name)
        _set(self, "if_exists", if_exists)


#: column names that MariaDB (10.3 and later) reads right after ADD or DROP as the start of
#: ADD/DROP PERIOD FOR and ADD/DROP SYSTEM VERSIONING: `ADD period INT` and `DROP system` are
#: syntax errors there (1064; MariaDB 10.11), fine with COLUMN, IF [NOT] EXISTS or the name quoted
VERSIONING_WORDS = frozenset({"PERIOD", "SYSTEM"})


class DropColumn(FrozenRecord):
    __slots__ = __match_args__ = ("name", "if_exists", "bare_word")
    name: str
    if_exists: bool
    bare_word: bool  # `DROP period` / `DROP system` (see `VERSIONING_WORDS`)

    def __init__(self, name: str, if_exists: bool = False, bare_word: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "if_exists", if_exists)
        _set(self, "bare_word", bare_word)


class SetColumnDefault(FrozenRecord):
    __slots__ = __match_args__ = ("name", "default")
    name: str
    default: str | None  # None: DROP DEFAULT

    def __init__(self, name: str, default: str | None) -> None:
        _set(self, "name", name)
        _set(self, "default", default)


class AddIndex(FrozenRecord):
    __slots__ = __match_args__ = ("index", "if_not_exists")
    #: a key the DDL does not name has the name None: the replay names it as the server does
    #: (`linter.schema.model.generated_key_name`: `a`, `a_2`, `a_3` ...)
    index: Index
    if_not_exists: bool  # MariaDB: ADD KEY IF NOT EXISTS

    def __init__(self, index: Index, if_not_exists: bool = False) -> None:
        _set(self, "index", index)
        _set(self, "if_not_exists", if_not_exists)


class DropIndex(FrozenRecord):
    __slots__ = __match_args__ = ("name", "if_exists")
    name: str  # "PRIMARY" for DROP PRIMARY KEY
    if_exists: bool

    def __init__(self, name: str, if_exists: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "if_exists", if_exists)


class RenameIndex(FrozenRecord):
    __slots__ = __match_args__ = ("old_name", "new_name", "if_exists")
    old_name: str
    new_name: str
    if_exists: bool  # MariaDB: RENAME KEY IF EXISTS

    def __init__(self, old_name: str, new_name: str, if_exists: bool = False) -> None:
        _set(self, "old_name", old_name)
        _set(self, "new_name", new_name)
        _set(self, "if_exists", if_exists)


class AddForeignKey(FrozenRecord):
    __slots__ = __match_args__ = ("foreign_key", "if_not_exists")
    foreign_key: ForeignKey
    if_not_exists: bool

    def __init__(self, foreign_key: ForeignKey, if_not_exists: bool = False) -> None:
        _set(self, "foreign_key", foreign_key)
        _set(self, "if_not_exists", if_not_exists)


class DropForeignKey(FrozenRecord):
    __slots__ = __match_args__ = ("name", "if_exists")
    name: str
    if_exists: bool

    def __init__(self, name: str, if_exists: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "if_exists", if_exists)


class DropConstraint(FrozenRecord):
    """DROP CONSTRAINT name: a foreign key, a unique key or a check of that name."""

    __slots__ = __match_args__ = ("name", "if_exists")
    name: str
    if_exists: bool

    def __init__(self, name: str, if_exists: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "if_exists", if_exists)


class SetOptions(FrozenRecord):
    """Table options: keys as in TableOptions' field names, or upper-case for `other`."""

    __slots__ = __match_args__ = ("options",)
    options: tuple[tuple[str, str | None], ...]

    def __init__(self, options: tuple[tuple[str, str | None], ...]) -> None:
        _set(self, "options", options)


class ConvertCharset(FrozenRecord):
    """ALTER TABLE ... CONVERT TO CHARACTER SET cs [COLLATE c]: every text column of the table
    moves to it (the table's default too, unless the statement sets that itself). `charset`
    "DEFAULT": the database's."""

    __slots__ = __match_args__ = ("charset", "collation")
    charset: str
    collation: str | None

    def __init__(self, charset: str, collation: str | None) -> None:
        _set(self, "charset", charset)
        _set(self, "collation", collation)


class RenameTo(FrozenRecord):
    __slots__ = __match_args__ = ("target",)
    target: Name

    def __init__(self, target: Name) -> None:
        _set(self, "target", target)


class PartitionToTable(FrozenRecord):
    """MariaDB 10.7+: ALTER TABLE t CONVERT PARTITION p TO TABLE target: the partition's rows become
    a new table of t's columns and keys, not partitioned."""

    __slots__ = __match_args__ = ("target",)
    target: Name

    def __init__(self, target: Name) -> None:
        _set(self, "target", target)


class TableToPartition(FrozenRecord):
    """MariaDB 10.7+: ALTER TABLE t CONVERT TABLE source TO PARTITION p ...: source becomes a
    partition of t, and is gone as a table."""

    __slots__ = __match_args__ = ("source",)
    source: Name

    def __init__(self, source: Name) -> None:
        _set(self, "source", source)


AlterAction = (
    AddColumn | ChangeColumn | RenameColumn | DropColumn | SetColumnDefault | AddIndex | DropIndex
    | RenameIndex | AddForeignKey | DropForeignKey | DropConstraint | SetOptions | ConvertCharset | RenameTo
    | PartitionToTable | TableToPartition
)


# --- statements ----------------------------------------------------------------------------
class CreateTable(FrozenRecord):
    __slots__ = __match_args__ = (
        "name", "body", "temporary", "if_not_exists", "like", "as_select", "or_replace", "refused", "select_from",
        "select_columns", "select_sources",
    )
    name: Name
    body: TableBody  # shared by every table created from this operation: copy before changing
    temporary: bool
    if_not_exists: bool
    like: Name | None  # CREATE TABLE t LIKE other
    as_select: bool  # CREATE TABLE t [(...)] AS SELECT ...
    or_replace: bool  # MariaDB: CREATE OR REPLACE TABLE (drops a table of that name first)
    #: why the server refuses this definition whatever the schema (a column or key name used
    #: twice): the replay then creates nothing and reports it
    refused: str | None
    #: CREATE TABLE ... SELECT ... FROM t: the table the SELECT reads first (the server refuses
    #: the statement when it does not exist: error 1146); None when innolint cannot tell
    select_from: Name | None
    #: the names of the columns the SELECT gives, "*" for all of `select_from`'s; None when
    #: innolint cannot tell (an expression without an alias, a join, a subquery)
    select_columns: tuple[str, ...] | None
    #: for each of `select_columns`, the column of `select_from` it copies ("*": all of them; None:
    #: an expression, or a SELECT of more than one table), whose definition the server copies
    select_sources: tuple[str | None, ...] | None

    def __init__(
        self, name: Name, body: TableBody, temporary: bool = False, if_not_exists: bool = False,
        like: Name | None = None, as_select: bool = False, or_replace: bool = False, refused: str | None = None,
        select_from: Name | None = None, select_columns: tuple[str, ...] | None = None,
        select_sources: tuple[str | None, ...] | None = None,
    ) -> None:
        _set(self, "name", name)
        _set(self, "body", body)
        _set(self, "temporary", temporary)
        _set(self, "if_not_exists", if_not_exists)
        _set(self, "like", like)
        _set(self, "as_select", as_select)
        _set(self, "or_replace", or_replace)
        _set(self, "refused", refused)
        _set(self, "select_from", select_from)
        _set(self, "select_columns", select_columns)
        _set(self, "select_sources", select_sources)


class AlterTable(FrozenRecord):
    """ALTER TABLE: the server applies all its actions or none (one failing action fails it whole).

    `algorithm` and `lock`: the ALGORITHM= and LOCK= clauses as written, upper-case (the last of
    each wins), None when absent; `online`: `ALTER ONLINE TABLE` (MariaDB's LOCK=NONE). A server
    that cannot run the actions that way refuses the statement (linter.server.online_alter).
    `unmodelled`: the actions that change nothing the model holds but decide how the server runs
    the statement (FORCE, ORDER BY, CONVERT TO CHARACTER SET, partition maintenance ...), by their
    leading words. `texts`: the statement's comma-separated parts as written, but for ALGORITHM= and
    LOCK= (what a fix writes again: split, pinned, or handed to pt-online-schema-change), and
    `parts`: for each action, the part it was written in (not compared: the same statement
    written otherwise is the same operation)."""

    __slots__ = ("name", "actions", "if_exists", "algorithm", "lock", "online", "unmodelled", "texts", "parts")
    __match_args__ = ("name", "actions", "if_exists", "algorithm", "lock", "online", "unmodelled")
    name: Name
    actions: tuple[AlterAction, ...]
    if_exists: bool  # MariaDB: ALTER TABLE IF EXISTS
    algorithm: str | None
    lock: str | None
    online: bool
    unmodelled: tuple[str, ...]
    texts: tuple[str, ...]
    parts: tuple[int, ...]

    def __init__(
        self, name: Name, actions: tuple[AlterAction, ...], if_exists: bool = False, algorithm: str | None = None,
        lock: str | None = None, online: bool = False, unmodelled: tuple[str, ...] = (), texts: tuple[str, ...] = (),
        parts: tuple[int, ...] = (),
    ) -> None:
        _set(self, "name", name)
        _set(self, "actions", actions)
        _set(self, "if_exists", if_exists)
        _set(self, "algorithm", algorithm)
        _set(self, "lock", lock)
        _set(self, "online", online)
        _set(self, "unmodelled", unmodelled)
        _set(self, "texts", texts)
        _set(self, "parts", parts)


class DropTable(FrozenRecord):
    __slots__ = __match_args__ = ("names", "temporary", "if_exists")
    names: tuple[Name, ...]
    temporary: bool
    if_exists: bool

    def __init__(self, names: tuple[Name, ...], temporary: bool = False, if_exists: bool = False) -> None:
        _set(self, "names", names)
        _set(self, "temporary", temporary)
        _set(self, "if_exists", if_exists)


class RenameTable(FrozenRecord):
    """RENAME TABLE a TO b, ...: pairs applied in order, all or none."""

    __slots__ = __match_args__ = ("pairs", "if_exists")
    pairs: tuple[tuple[Name, Name], ...]
    if_exists: bool  # MariaDB: RENAME TABLE IF EXISTS (a missing table is left out)

    def __init__(self, pairs: tuple[tuple[Name, Name], ...], if_exists: bool = False) -> None:
        _set(self, "pairs", pairs)
        _set(self, "if_exists", if_exists)


class CreateIndex(FrozenRecord):
    """CREATE INDEX: an ALTER TABLE ... ADD KEY, with its ALGORITHM= and LOCK= clauses (AlterTable)."""

    __slots__ = __match_args__ = ("table", "index", "if_not_exists", "algorithm", "lock")
    table: Name
    index: Index
    if_not_exists: bool
    algorithm: str | None
    lock: str | None

    def __init__(
        self, table: Name, index: Index, if_not_exists: bool = False, algorithm: str | None = None,
        lock: str | None = None,
    ) -> None:
        _set(self, "table", table)
        _set(self, "index", index)
        _set(self, "if_not_exists", if_not_exists)
        _set(self, "algorithm", algorithm)
        _set(self, "lock", lock)


class DropIndexStatement(FrozenRecord):
    """DROP INDEX ... ON t, with MySQL's ALGORITHM= and LOCK= (MariaDB 10.11 refuses them there: 1064)."""

    __slots__ = __match_args__ = ("table", "name", "if_exists", "algorithm", "lock")
    table: Name
    name: str
    if_exists: bool
    algorithm: str | None
    lock: str | None

    def __init__(
        self, table: Name, name: str, if_exists: bool = False, algorithm: str | None = None, lock: str | None = None,
    ) -> None:
        _set(self, "table", table)
        _set(self, "name", name)
        _set(self, "if_exists", if_exists)
        _set(self, "algorithm", algorithm)
        _set(self, "lock", lock)


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
    """CREATE DATABASE / ALTER DATABASE / DROP DATABASE / USE. A CREATE DATABASE's DEFAULT
    CHARACTER SET and COLLATE are the defaults of the tables created in it that name none
    (linter.schema.innodb_sizes resolves them); an ALTER DATABASE changes them for the tables
    created after it (those before keep what they were created with). `name` "" in an ALTER
    DATABASE: the client's current database."""

    __slots__ = __match_args__ = ("action", "name", "charset", "collation")
    action: Literal["create", "alter", "drop", "use"]
    name: str
    charset: str | None
    collation: str | None

    def __init__(
        self, action: Literal["create", "alter", "drop", "use"], name: str, charset: str | None = None,
        collation: str | None = None,
    ) -> None:
        _set(self, "action", action)
        _set(self, "name", name)
        _set(self, "charset", charset)
        _set(self, "collation", collation)


class CreateView(FrozenRecord):
    """A view: it shares one namespace with the tables of its database, and replaces mysqldump's
    stand-in table of the same name."""

    __slots__ = __match_args__ = ("name", "or_replace", "if_not_exists")
    name: Name
    or_replace: bool
    if_not_exists: bool

    def __init__(self, name: Name, or_replace: bool = False, if_not_exists: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "or_replace", or_replace)
        _set(self, "if_not_exists", if_not_exists)


class DropView(FrozenRecord):
    __slots__ = __match_args__ = ("names", "if_exists")
    names: tuple[Name, ...]
    if_exists: bool

    def __init__(self, names: tuple[Name, ...], if_exists: bool = False) -> None:
        _set(self, "names", names)
        _set(self, "if_exists", if_exists)


class Dynamic(FrozenRecord):
    """A statement whose effect on the schema shows only when it runs: a CALL of a stored procedure,
    dynamic SQL (EXECUTE of a prepared statement, EXECUTE IMMEDIATE) and what builds it (SET of a
    user variable, PREPARE, DEALLOCATE PREPARE). The replay runs what it can compute from the model
    (`linter.server.procedures`) and says the schema after it is uncertain where it cannot."""

    __slots__ = __match_args__ = ("kind", "text")
    kind: str  # CALL, EXECUTE, EXECUTE IMMEDIATE, SET, PREPARE, DEALLOCATE
    text: str

    def __init__(self, kind: str, text: str = "") -> None:
        _set(self, "kind", kind)
        _set(self, "text", text)


class CreateProcedure(FrozenRecord):
    """CREATE PROCEDURE: its name and the statement (its body is read when a CALL runs it)."""

    __slots__ = __match_args__ = ("name", "text", "or_replace", "if_not_exists")
    name: Name
    text: str
    or_replace: bool
    if_not_exists: bool

    def __init__(self, name: Name, text: str, or_replace: bool = False, if_not_exists: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "text", text)
        _set(self, "or_replace", or_replace)
        _set(self, "if_not_exists", if_not_exists)


class DropProcedure(FrozenRecord):
    __slots__ = __match_args__ = ("name", "if_exists")
    name: Name
    if_exists: bool

    def __init__(self, name: Name, if_exists: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "if_exists", if_exists)


class Skipped(FrozenRecord):
    """A statement that is not schema DDL (INSERT, SET, GRANT, routines...): skipped on purpose."""

    __slots__ = __match_args__ = ("kind",)
    kind: str

    def __init__(self, kind: str) -> None:
        _set(self, "kind", kind)


Operation = (
    CreateTable | AlterTable | DropTable | RenameTable | CreateIndex | DropIndexStatement
    | CreateTablespace | DropTablespace | CreateCompressionDictionary | SchemaStatement | CreateView | DropView
    | Dynamic | CreateProcedure | DropProcedure | Skipped
)
