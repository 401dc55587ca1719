"""What the server emulator says of a statement besides the model it leaves: the statements the
target refuses (`Refusal`), those innolint cannot follow or judge (`CannotFollow`), and what a
statement the target runs does to a table that has rows (`Alteration`: the online-DDL cost of an
ALTER, the columns and tables it loses). `linter.server` makes them, in one place
(`linter.server.outcome`); the model keeps the refusals and alterations for the checks
(`SchemaModel.refusals`, `SchemaModel.alterations`), the engine reports the others as diagnostics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linter.record import Record

if TYPE_CHECKING:
    from linter.parse.elements import Column, Index, Location
    from linter.schema.model import Table


class Refusal(Record):
    """A statement the target refuses given the schema so far: the server keeps nothing of it
    (the model neither). `errno`: the server's error number (None where it has none to give, a
    syntax the target lacks is 1064); `kind`: what is refused (`linter.server.outcome.KINDS`: the
    kinds a check reports itself are "key-length", index-key-length's, and "row-size",
    row-size-limit's); `statement`: the statement's head as messages name it (`ALTER TABLE
    db.customer`); `schema`, `table_name`: the table it is about, when it is about one; `table`,
    `index`: for a key or length refusal, the table as the statement would have left it and the
    key; `detail`: what the deciding check made of it (its own record, so it is not computed
    again); `reported_by`: the rule that reports it (None: refused-ddl does)."""

    __slots__ = __match_args__ = ("errno", "kind", "message", "where", "target", "statement", "schema", "table_name",
                                  "table", "index", "detail", "reported_by")
    errno: int | None
    kind: str
    message: str
    where: Location
    target: str
    statement: str
    schema: str | None
    table_name: str | None
    table: Table | None
    index: Index | None
    detail: object | None
    reported_by: str | None

    def __init__(
        self, errno: int | None, kind: str, message: str, where: Location, target: str, statement: str = "",
        schema: str | None = None, table_name: str | None = None, table: Table | None = None,
        index: Index | None = None, detail: object | None = None, reported_by: str | None = None,
    ) -> None:
        self.errno = errno
        self.kind = kind
        self.message = message
        self.where = where
        self.target = target
        self.statement = statement
        self.schema = schema
        self.table_name = table_name
        self.table = table
        self.index = index
        self.detail = detail
        self.reported_by = reported_by

    def __str__(self) -> str:
        return self.message


class RowRepeat(Record):
    """A row-size refusal's detail for a repeat: one more ALTER refused for the row of a table
    that has not changed since the one at `like` (`CheckedRefusals._refused_row`): the refusal's
    table holds only the statement's columns, and `row_bytes` is the row it would have made."""

    __slots__ = __match_args__ = ("row_bytes", "like")
    row_bytes: int
    like: Location

    def __init__(self, row_bytes: int, like: Location) -> None:
        self.row_bytes = row_bytes
        self.like = like


class CannotFollow(Record):
    """A statement innolint cannot follow or judge as the server would. `kind`: "unfollowed"
    (dynamic SQL, CALL, a packet the server may stop: the schema after it is unknown), "uncertain"
    (innolint cannot tell whether the server runs it, or what it leaves of a table), "undefined" (it
    names a table the input never defined: a partial input, whose missing part the server may have),
    "unjudged" (a statement innolint would call refused, after one it could not follow: it claims
    nothing downstream of that). Never a refusal: the engine reports it as a diagnostic."""

    __slots__ = __match_args__ = ("kind", "message", "where")
    kind: str
    message: str
    where: Location

    def __init__(self, kind: str, message: str, where: Location) -> None:
        self.kind = kind
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return self.message


class Operation(Record):
    """One operation of an ALTER TABLE and what the target needs to run it (`linter.server.
    online_alter`): `algorithm` (INSTANT, NOCOPY, INPLACE, COPY), whether it `rebuilds` the table,
    the `lock` it needs with it (NONE, SHARED, EXCLUSIVE), the server's `reason` (its 1846 text,
    None where it gives none), and `undecided`: why innolint cannot be sure."""

    __slots__ = __match_args__ = ("what", "algorithm", "rebuilds", "lock", "reason", "undecided")
    what: str
    algorithm: str
    rebuilds: bool
    lock: str
    reason: str | None
    undecided: str | None

    def __init__(self, what: str, algorithm: str, rebuilds: bool, lock: str, reason: str | None = None,
                 undecided: str | None = None) -> None:
        self.what = what
        self.algorithm = algorithm
        self.rebuilds = rebuilds
        self.lock = lock
        self.reason = reason
        self.undecided = undecided

    @property
    def blocks(self) -> bool:
        """Copies or rebuilds the table, or keeps writes (or reads) out while it runs."""
        return self.algorithm == "COPY" or self.rebuilds or (self.algorithm != "INSTANT" and self.lock != "NONE")


class ColumnChange(Record):
    """A column an ALTER TABLE redefines so that it holds less (`linter.schema.value_ranges.loss`):
    before, after, and what values it loses, said in a sentence."""

    __slots__ = __match_args__ = ("old", "new", "loss")
    old: Column
    new: Column
    loss: str

    def __init__(self, old: Column, new: Column, loss: str) -> None:
        self.old = old
        self.new = new
        self.loss = loss


class Alteration(Record):
    """A statement the target runs on a table that was there before it: an ALTER TABLE (CREATE /
    DROP INDEX), or a DROP TABLE. Kept by the model only when it blocks or loses something, for the
    blocking-alter and destructive-change checks, which decide whether the table had rows (it
    existed before the change) and report it.

    `schema`, `table_name`: the table as the statement names it; `defined`: where the table was
    created (the statement that made it: a table created by the change is empty); `statement`: the
    statement's head (`ALTER TABLE db.t`); `actions`: the statement's actions as SQL, without
    ALGORITHM= / LOCK=, for a fix; `requested`: the ALGORITHM= and LOCK= it was written with
    (None: not given); `algorithm`, `lock`: what the server runs it with, and `operations`, what
    each operation needs (empty for a DROP TABLE); `dropped`: the columns it drops; `changed`: the
    columns it redefines to hold less; `drops_table`: a DROP TABLE; `foreign_keys`: the table has
    foreign keys of its own (gh-ost copies no such table); `parts`: for a statement that blocks and
    is written in several parts, each part (`actions`' text) with the algorithm and lock it needs
    alone (None: the server would refuse it alone), so a fix can run the expensive part alone."""

    __slots__ = __match_args__ = ("where", "schema", "table_name", "defined", "statement", "actions", "requested",
                                  "algorithm", "lock", "operations", "dropped", "changed", "drops_table",
                                  "foreign_keys", "parts")
    where: Location
    schema: str | None
    table_name: str
    defined: Location
    statement: str
    actions: tuple[str, ...]
    requested: tuple[str | None, str | None]
    algorithm: str
    lock: str
    operations: tuple[Operation, ...]
    dropped: tuple[Column, ...]
    changed: tuple[ColumnChange, ...]
    drops_table: bool
    foreign_keys: bool
    parts: tuple[tuple[str, tuple[str, str] | None], ...]

    def __init__(
        self, where: Location, schema: str | None, table_name: str, defined: Location, statement: str,
        actions: tuple[str, ...] = (), requested: tuple[str | None, str | None] = (None, None),
        algorithm: str = "INSTANT", lock: str = "NONE", operations: tuple[Operation, ...] = (),
        dropped: tuple[Column, ...] = (), changed: tuple[ColumnChange, ...] = (), drops_table: bool = False,
        foreign_keys: bool = False, parts: tuple[tuple[str, tuple[str, str] | None], ...] = (),
    ) -> None:
        self.where = where
        self.schema = schema
        self.table_name = table_name
        self.defined = defined
        self.statement = statement
        self.actions = actions
        self.requested = requested
        self.algorithm = algorithm
        self.lock = lock
        self.operations = operations
        self.dropped = dropped
        self.changed = changed
        self.drops_table = drops_table
        self.foreign_keys = foreign_keys
        self.parts = parts

    @property
    def blocks(self) -> bool:
        return any(operation.blocks for operation in self.operations)
