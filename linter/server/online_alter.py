"""Which ALTER TABLE operations each ALGORITHM and LOCK allows, per engine and target: a statement
that asks for more than the server can give (`ALGORITHM=INPLACE`, `INSTANT`, MariaDB's `NOCOPY`,
`LOCK=NONE`/`SHARED`, MariaDB's `ALTER ONLINE TABLE` = `LOCK=NONE`) is refused whole (error 1845
ER_ALTER_OPERATION_NOT_SUPPORTED, 1846 ..._REASON), and the table stays as it was.

Why it matters beyond the refusal: production migrations pin `ALGORITHM=INPLACE, LOCK=NONE` so
that an ALTER which would copy (and lock) a big table fails instead; innolint says at the line
which operation the server cannot run that way, with the server's reason.

The model. Each operation of the statement needs at least an algorithm (INSTANT < NOCOPY <
INPLACE < COPY) and, with it, a lock (NONE < SHARED < EXCLUSIVE); the statement needs the most
any of its operations needs, and COPY needs LOCK=SHARED. NOCOPY is in place without rebuilding the
table, INPLACE is a rebuild in place (MySQL, which has no NOCOPY keyword, runs both as INPLACE). An explicit ALGORITHM below that, or an
explicit LOCK below that, is refused; DEFAULT (or nothing) lets the server choose. A statement
with no operation runs whatever it asks.

MariaDB 10.6 / 10.11 / 11.x, InnoDB (MariaDB's "InnoDB Online DDL Operations with the
INPLACE/NOCOPY/INSTANT Alter Algorithm", checked on 10.11 by tests/test_online_alter.py):

    operation                                  least algorithm   lock with it
    ADD COLUMN (any position)                  INSTANT           NONE
    ADD COLUMN ... AUTO_INCREMENT              INPLACE           SHARED
    DROP COLUMN (in no key)                    INSTANT           NONE
    DROP COLUMN (its own secondary key)        NOCOPY            NONE
    DROP COLUMN (the whole primary key)        COPY              SHARED
    RENAME COLUMN, CHANGE a b (same type)      INSTANT           NONE
    MODIFY ... FIRST/AFTER (same type)         INSTANT           NONE
    SET/DROP DEFAULT, MODIFY the default       INSTANT           NONE
    VARCHAR longer (same length bytes: 1 or 2) INSTANT           NONE
    NULL <-> NOT NULL                          INPLACE (rebuild) NONE
    any other type change (INT->BIGINT, shorter VARCHAR, UNSIGNED)  COPY  SHARED
    ADD INDEX / UNIQUE                         NOCOPY            NONE
    ADD FULLTEXT (the table's first)           INPLACE (rebuild) SHARED
    DROP INDEX                                 NOCOPY            NONE
    RENAME INDEX                               INSTANT           NONE
    ADD PRIMARY KEY, DROP + ADD PRIMARY KEY    INPLACE (rebuild) NONE
    DROP PRIMARY KEY (no new one)              COPY              SHARED
    ADD FOREIGN KEY                            COPY (INPLACE only with foreign_key_checks=0)
    DROP FOREIGN KEY                           INSTANT           NONE
    COMMENT=, AUTO_INCREMENT=, DEFAULT CHARSET INSTANT           NONE
    ENGINE=InnoDB (same), ROW_FORMAT=, KEY_BLOCK_SIZE=, FORCE  INPLACE (rebuild)  NONE
    ENGINE=other, CONVERT TO CHARACTER SET, PARTITION BY  COPY  SHARED
    RENAME TO                                  INSTANT           EXCLUSIVE (LOCK=NONE/SHARED: 1845)

and an instant ADD/DROP/reordered column together with an operation that is not instant needs
a rebuild (INPLACE): `ADD c INT, ADD KEY (c), ALGORITHM=NOCOPY` is refused. A key or column
renamed, a foreign key dropped or a VARCHAR made longer, with a table option (COMMENT= ...) and no
column added, dropped or moved, needs NOCOPY (1846 "Reason: DROP INDEX"). A table with a FULLTEXT
key rebuilds for a column added, dropped or moved, and every rebuild re-creates the FULLTEXT keys
under LOCK=SHARED (1846 "Fulltext index creation requires a lock"). To another engine, MariaDB
copies whatever NOCOPY/INSTANT say (they are not refused; INPLACE is: 1845). Without a PRIMARY
KEY, the UNIQUE NOT NULL key InnoDB clusters by is one: dropping it (or its column) copies, adding
the first such key rebuilds (INPLACE). A table with a "long unique" key (UNIQUE over a whole
TEXT/BLOB, a hidden hash column) does nothing in place, in any engine, unless the statement drops
that key (1846 "INPLACE ADD or DROP of virtual columns cannot be combined ...").

MyISAM, Aria, MEMORY, CSV ... (any engine but InnoDB): only what changes no row is done in place
(RENAME COLUMN, CHANGE to the same definition, defaults, RENAME INDEX, RENAME TO, and the table
options in `_IN_PLACE_OPTIONS`: COMMENT=, STATS_*=, MIN_ROWS= ...; AUTO_INCREMENT= only to the
counter the table has, which innolint does not know); everything else copies the table, so
LOCK=NONE is refused (1845, "Try LOCK=SHARED"). A TEMPORARY
table (any engine) is copied: no LOCK is ever refused (no other session sees it), NOCOPY/INSTANT
are ignored, INPLACE is refused (1845) for anything but a lone RENAME TO.

MySQL (the "Online DDL Operations" tables of the 5.7, 8.0 and 8.4 manuals): no NOCOPY (an
unknown ALGORITHM, error 1800) and no ALTER ONLINE (a syntax error since 5.6); 5.7 has no INSTANT
either. INSTANT: ADD COLUMN (8.0.12+ last position only, any position from 8.0.29), DROP COLUMN
(8.0.29+), RENAME COLUMN (8.0.28+), defaults, RENAME INDEX, RENAME TO; 8.0's minor version is
unknown, so where it decides, innolint says it cannot tell. What MariaDB does as NOCOPY, MySQL
does INPLACE; a reordered column is INPLACE (rebuild); DEFAULT CHARSET and AUTO_INCREMENT= are
INPLACE; RENAME TO permits LOCK=NONE. The rest is as in MariaDB.

Where innolint cannot tell what the server does (a VARCHAR that crosses 255 bytes, a change of
character set, a key shrunk by a dropped column, partition maintenance, ADD FOREIGN KEY, which
depends on the session's foreign_key_checks ...), it says so at the statement (`Verdict.refused`
False) and replays the statement as though the server ran it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from linter.schema.innodb_sizes import CHARSET_MAXLEN, column_charset
from linter.parse.charsets import normalize_charset
from linter.server.key_order import key_rank
from linter.parse.body import drop_whole_prefixes
from linter.server.key_parts import server_keys
from linter.parse.elements import can_cluster
from linter.schema.model import is_innodb_engine
from linter.schema.refused import Operation

if TYPE_CHECKING:
    from linter.parse.elements import Column
    from linter.schema.target import Target

ALGORITHMS = ("INSTANT", "NOCOPY", "INPLACE", "COPY")
LOCKS = ("NONE", "SHARED", "EXCLUSIVE")
INSTANT, NOCOPY, INPLACE, COPY = range(4)
NONE, SHARED, EXCLUSIVE = range(3)

_STRING_TYPES = frozenset({"CHAR", "VARCHAR", "BINARY", "VARBINARY"})
_VAR_TYPES = frozenset({"VARCHAR", "VARBINARY"})
#: table options that change no row: (InnoDB on MariaDB) done instantly
_INSTANT_OPTIONS = frozenset({"COMMENT", "AUTO_INCREMENT", "CHARSET", "COLLATE", "STATS_PERSISTENT",
                              "STATS_AUTO_RECALC", "STATS_SAMPLE_PAGES", "PACK_KEYS", "CHECKSUM",
                              "DELAY_KEY_WRITE", "MAX_ROWS", "MIN_ROWS", "AVG_ROW_LENGTH"})
_REBUILD_OPTIONS = frozenset({"ROW_FORMAT", "KEY_BLOCK_SIZE", "PAGE_COMPRESSED", "PAGE_COMPRESSION_LEVEL",
                              "COMPRESSION", "ENCRYPTED", "ENCRYPTION_KEY_ID"})
#: options that change nothing in any engine's rows (so in place for MyISAM too)
_METADATA_OPTIONS = frozenset({"COMMENT"})
#: options the other engines change in place (MariaDB 10.11 probed); any other option they copy for
_ENGINE_OPTIONS = frozenset({"COMMENT", "STATS_PERSISTENT", "STATS_AUTO_RECALC", "STATS_SAMPLE_PAGES", "MIN_ROWS",
                             "AVG_ROW_LENGTH", "PAGE_CHECKSUM"})
_IN_PLACE_OPTIONS = {"myisam": _ENGINE_OPTIONS | {"DELAY_KEY_WRITE", "KEY_BLOCK_SIZE"},
                     "aria": _ENGINE_OPTIONS | {"KEY_BLOCK_SIZE"},
                     "memory": _ENGINE_OPTIONS | {"DELAY_KEY_WRITE"},
                     "csv": _ENGINE_OPTIONS | {"DELAY_KEY_WRITE", "KEY_BLOCK_SIZE"}}


@dataclass(frozen=True)
class Need:
    """What one operation needs: the least algorithm, the lock it needs with it, the server's
    reason (None: error 1845, which gives none), and `undecided`: why innolint cannot tell."""

    what: str
    algorithm: int
    lock: int = NONE
    reason: str | None = None
    undecided: str | None = None
    role: str = ""  # _LAYOUT, _DICTIONARY, _OPTIONS: how InnoDB combines it with others


#: roles of needs: an instant column added, dropped or moved (InnoDB's instant column change);
#: an instant change of InnoDB's dictionary only (a key or column renamed, a foreign key dropped,
#: a VARCHAR made longer); a table option that changes no row (COMMENT=, AUTO_INCREMENT= ...)
_LAYOUT, _DICTIONARY, _OPTIONS = "layout", "dictionary", "options"


@dataclass(frozen=True)
class Verdict:
    """`refused`: the server refuses the statement (the replay keeps the table); else innolint
    cannot tell, and says so while replaying it."""

    refused: bool
    message: str


@dataclass(frozen=True)
class Request:
    """The statement's ALGORITHM= and LOCK= (upper-case, None: not given) and ALTER ONLINE."""

    algorithm: str | None = None
    lock: str | None = None
    online: bool = False
    unmodelled: tuple[str, ...] = ()

    @property
    def asks(self) -> bool:
        return self.online or (self.algorithm not in (None, "DEFAULT")) or (self.lock not in (None, "DEFAULT"))


def verdict(plan: Any, request: Request, target: Target) -> Verdict | None:
    """The server's answer to `plan` (linter.server.alter_table.TableAlter, read only) run as `request`
    asks on `target`: None when it runs."""
    syntax = _syntax_problem(request, target)
    if syntax is not None:
        return Verdict(True, syntax)
    if not request.asks:
        return None
    needs = _needs(plan, request, target)
    if not needs:
        return None
    mysql = not target.is_mariadb
    if mysql:  # MySQL has no NOCOPY: what MariaDB does so, it does in place
        needs = [replace(n, algorithm=INPLACE) if n.algorithm == NOCOPY else n for n in needs]
    needs = _combined(needs, plan)
    temporary = bool(plan.table.temporary)
    asked_algorithm = ALGORITHMS.index(request.algorithm) if request.algorithm in ALGORITHMS else None
    if temporary:
        # no other session sees it: no LOCK is refused; MariaDB copies it whatever NOCOPY/INSTANT
        # say, and refuses INPLACE (1845)
        renamed_only = all(n.what == "RENAME TO alone" for n in needs)  # renamed as RENAME TABLE does
        if not renamed_only and (asked_algorithm == INPLACE or (mysql and asked_algorithm is not None
                                                                and asked_algorithm < COPY)):
            return Verdict(True, _refusal(f"ALGORITHM={request.algorithm}", Need("a TEMPORARY table", COPY), "ALGORITHM=COPY",
                                          target, _how(request)))
        return None
    if asked_algorithm in (INSTANT, NOCOPY) and not mysql and _changes_engine(plan):
        # MariaDB 10.11 copies a TEMPORARY table, and to another engine, whatever NOCOPY/INSTANT
        # say (INPLACE is refused: 1845)
        asked_algorithm = None
    lock_name = "NONE" if request.online and request.lock in (None, "DEFAULT") else request.lock
    asked_lock = LOCKS.index(lock_name) if lock_name in LOCKS else None
    how = _how(request)
    decided = [n for n in needs if n.undecided is None]
    undecided = [n for n in needs if n.undecided is not None]
    most = max((n.algorithm for n in decided), default=INSTANT)
    if asked_algorithm is not None and decided:
        need = max(decided, key=lambda n: n.algorithm)
        if need.algorithm > asked_algorithm:
            return Verdict(True, _refusal(f"ALGORITHM={request.algorithm}", need,
                                          f"ALGORITHM={ALGORITHMS[need.algorithm]}", target, how))
    algorithm = asked_algorithm if asked_algorithm is not None else most
    if asked_lock is not None and not temporary:
        locks = [Need(n.what, n.algorithm, max(n.lock, SHARED) if algorithm == COPY else n.lock, n.reason)
                 for n in decided]
        if algorithm == COPY and asked_algorithm == COPY:
            locks.append(Need("the COPY algorithm", COPY, SHARED, "COPY algorithm requires a lock"))
        if locks:
            # (the one that needs the most, with the server's reason where it gives one)
            need = max(locks, key=lambda n: (n.lock, n.algorithm, n.reason is not None))
            if need.lock > asked_lock:
                return Verdict(True, _refusal(f"LOCK={lock_name}" + (" (ALTER ONLINE)" if request.online else ""),
                                              need, f"LOCK={LOCKS[need.lock]}", target, how))
    constrained = (asked_algorithm is not None and asked_algorithm < COPY) or (
        asked_lock is not None and asked_lock < EXCLUSIVE and not temporary)
    if undecided and constrained:
        return Verdict(False, _unknown(undecided[0], how, target))
    return None


def cost(plan: Any, request: Request, target: Target) -> tuple[str, str, list[Operation]] | None:
    """What the server runs `plan` (a statement it accepts) with: the algorithm and lock it ends up
    using, as `request` asks or, where it asks nothing, the least its operations need (the server
    picks the least algorithm, and with it the least lock: MySQL's and MariaDB's "ALGORITHM=DEFAULT"),
    and what each operation needs. None for a TEMPORARY table (no other session sees it) and a
    statement with no operation."""
    if plan.table.temporary:
        return None
    needs = _needs(plan, request, target)
    if not needs:
        return None
    mysql = not target.is_mariadb
    needs = _combined(needs, plan)
    asked = ALGORITHMS.index(request.algorithm) if request.algorithm in ALGORITHMS else None
    # (ALGORITHM=INPLACE does not make the server rebuild what it can do without; COPY copies)
    algorithm = COPY if asked == COPY else max(n.algorithm for n in needs)
    if not mysql and asked in (INSTANT, NOCOPY) and _changes_engine(plan):
        algorithm = COPY  # (another engine: MariaDB copies whatever NOCOPY/INSTANT say)
    lock_name = "NONE" if request.online and request.lock in (None, "DEFAULT") else request.lock
    operations = []
    for need in needs:
        lock = max(need.lock, SHARED) if algorithm == COPY else need.lock
        used = COPY if algorithm == COPY else need.algorithm
        operations.append(Operation(need.what, ALGORITHMS[INPLACE if mysql and used == NOCOPY else used],
                                    used in (INPLACE, COPY), LOCKS[lock], need.reason, need.undecided))
    lock = max((LOCKS.index(o.lock) for o in operations), default=NONE)
    if algorithm == COPY:
        lock = max(lock, SHARED)
    if lock_name in LOCKS:
        lock = max(lock, LOCKS.index(lock_name))
    return ALGORITHMS[INPLACE if mysql and algorithm == NOCOPY else algorithm], LOCKS[lock], operations


def _changes_engine(plan: Any) -> bool:
    engine = _engine(plan)
    return any(key == "ENGINE" and (value or "").lower() != engine for pairs in plan.options for key, value in pairs)


def _how(request: Request) -> str:
    parts = (["ALTER ONLINE"] if request.online else []) + [
        f"{key}={value}" for key, value in (("ALGORITHM", request.algorithm), ("LOCK", request.lock)) if value]
    return ", ".join(parts)


def _refusal(asked: str, need: Need, instead: str, target: Target, how: str) -> str:
    code = 1846 if need.reason else 1845
    reason = f": {need.reason}" if need.reason else ""
    return (f"this ALTER cannot run with {how} on {target.label}: {asked} is not supported for {need.what}{reason}; "
            f"the server says to try {instead} (error {code})")


def _unknown(need: Need, how: str, target: Target) -> str:
    return (f"innolint cannot tell whether {target.label} runs this ALTER with {how} ({need.what}: {need.undecided}); "
            "if it cannot, it refuses the statement (error 1845/1846) and the table stays as it was; innolint "
            "replays it as run")


def _syntax_problem(request: Request, target: Target) -> str | None:
    if target.is_mariadb:
        allowed = ("DEFAULT", "COPY", "INPLACE", "NOCOPY", "INSTANT")
    else:
        allowed = ("DEFAULT", "COPY", "INPLACE") + (("INSTANT",) if target.is_mysql8 else ())
        if request.online:
            return (f"{target.label} does not accept ALTER ONLINE TABLE (MariaDB's; MySQL removed it in 5.6): write "
                    "LOCK=NONE (a syntax error, 1064)")
    if request.algorithm is not None and request.algorithm not in allowed:
        return f"{target.label} knows no ALGORITHM={request.algorithm} (error 1800): it has {', '.join(allowed)}"
    if request.lock is not None and request.lock not in ("DEFAULT", *LOCKS):
        return f"{target.label} knows no LOCK={request.lock} (error 1801): it has DEFAULT, NONE, SHARED, EXCLUSIVE"
    return None


def _engine(plan: Any) -> str:
    """The table's engine, lower-case: "innodb" for none given and for a template placeholder
    (`linter.schema.model.is_innodb_engine`)."""
    engine = plan.table.body.options.engine
    return "innodb" if is_innodb_engine(engine) else engine.lower()


def _needs(plan: Any, request: Request, target: Target) -> list[Need]:
    """What each operation of the statement needs."""
    innodb = _engine(plan) == "innodb" and not plan.table.temporary
    needs: list[Need] = []
    copied = ("a TEMPORARY table is copied" if plan.table.temporary
              else f"a {plan.table.body.options.engine or 'InnoDB'} table is copied")

    def rows(what: str, algorithm: int, lock: int = NONE, reason: str | None = None, undecided: str | None = None,
             role: str = "") -> None:
        """An operation that touches rows or indexes: InnoDB's need, else a copy."""
        if innodb:
            needs.append(Need(what, algorithm, lock, reason, undecided, role))
        else:
            needs.append(Need(f"{what} ({copied})", COPY, SHARED, None))

    def metadata(what: str, role: str = "") -> None:
        needs.append(Need(what, INSTANT, role=role))

    draft = plan.draft
    mariadb = target.is_mariadb
    #: the key InnoDB clusters by before and after the statement (the PRIMARY KEY, else the first
    #: key when UNIQUE NOT NULL: linter.server.key_order; None: the row id). Leaving the row id
    #: where there was a key is dropping a primary key without adding one: a copy; another key
    #: taking over is a primary key changed, a rebuild in place
    clustered = _clustered(plan) if innodb else None
    clustered_after = _clustered_after(plan) if innodb else None
    loses_cluster = clustered is not None and clustered_after is None
    for is_add, key, column, position in plan.steps:
        if not is_add:
            continue
        if column.auto_increment:
            rows("adding an AUTO_INCREMENT column", INPLACE, SHARED, "Adding an auto-increment column requires a lock")
        elif column.generated == "stored":
            rows("adding a STORED generated column", COPY, SHARED, None,
                 "innolint does not model how generated columns are added")
        elif mariadb:
            rows("ADD COLUMN", INSTANT, role=_LAYOUT)
        elif not target.is_mysql8:
            rows("ADD COLUMN", INPLACE)
        elif position is None or target.version >= (8, 4):
            rows("ADD COLUMN", INSTANT, role=_LAYOUT)
        else:
            rows("ADD COLUMN FIRST/AFTER", INSTANT, undecided="MySQL 8.0 adds a column at another position than the "
                 "last instantly from 8.0.29 only, in place before", role=_LAYOUT)
    moved = {key for is_add, key, _, position in plan.steps if not is_add and position is not None}
    for old, column, defines in plan.changes:
        before = draft.column(old) if draft is not None else None
        if before is None:
            continue
        key = column.name.lower()
        if not defines or _same_definition(before, column):
            if key in moved or old in moved:
                if innodb and mariadb:
                    needs.append(Need("moving a column", INSTANT, role=_LAYOUT))
                else:
                    rows("moving a column", INPLACE)
            elif old != key and innodb and not mariadb and not target.version >= (8, 4):
                rows("renaming a column", INSTANT if target.is_mysql8 else NOCOPY,
                     undecided="MySQL 8.0 renames a column instantly from 8.0.28 only" if target.is_mysql8 else None)
            elif old != key:
                metadata("renaming a column", _DICTIONARY)
            else:
                metadata("changing a column's default")
            continue
        needs.extend(_type_change(before, column, plan, innodb, mariadb, target))
        if loses_cluster and column.nullable and clustered.kind == "unique" and any(  # type: ignore[union-attr]
                part.name.lower() == old for part in clustered.columns):  # type: ignore[union-attr]
            rows(f"making {column.name}, a column of the UNIQUE key InnoDB clusters by, NULL", COPY, SHARED,
                 "Dropping a primary key is not allowed without also adding a new primary key")
    for key in plan.drops:
        if key in plan.readded:
            rows(f"dropping and adding column {key} again", COPY, SHARED, "Cannot change column type",
                 "innolint does not model a column dropped and added again")
            continue
        uses = [draft.indexes[at] for at in draft.uses.get(key, ()) if at in draft.indexes] if draft else []
        primary = [index for index in uses if index.kind == "primary" or _is_clustered(index, clustered)]
        if primary:
            whole = len(primary[0].columns) == 1 and not plan.keys.adds_primary  # (the key goes with the column)
            if whole and (loses_cluster or clustered_after is None):
                rows("dropping the primary key's column", COPY, SHARED,
                     "Dropping a primary key is not allowed without also adding a new primary key")
            elif whole:
                rows(f"dropping the primary key's column, with {clustered_after.name} clustering the table instead",
                     INPLACE, NONE)
            else:
                rows("dropping a column of the primary key", INPLACE, NONE, undecided="the primary key changes")
        elif any(index.kind == "fulltext" for index in uses):
            rows("dropping a FULLTEXT key's column", INPLACE, NONE)  # (with its hidden FTS_DOC_ID: a rebuild)
        elif any(len(index.columns) > 1 for index in uses):
            rows("dropping a column of a key over several columns", NOCOPY, NONE,
                 undecided="the key is rebuilt without it")
        elif uses:
            rows("dropping a column and its key", NOCOPY, NONE, "DROP INDEX")
        elif mariadb or target.version >= (8, 4):
            rows("DROP COLUMN", INSTANT, role=_LAYOUT)
        elif target.is_mysql8:
            rows("DROP COLUMN", INSTANT, undecided="MySQL 8.0 drops a column instantly from 8.0.29 only", role=_LAYOUT)
        else:
            rows("DROP COLUMN", INPLACE)
    dropped_primary = draft is not None and draft.primary and draft.primary in plan.keys.index_drops
    for at in plan.keys.index_drops:
        if draft is not None and (at == draft.primary or _is_clustered(draft.indexes[at], clustered)):
            if plan.keys.adds_primary:
                continue  # the ADD PRIMARY KEY below says what it needs
            if loses_cluster or clustered_after is None:
                rows("DROP PRIMARY KEY", COPY, SHARED,
                     "Dropping a primary key is not allowed without also adding a new primary key")
            else:
                rows(f"DROP PRIMARY KEY, with UNIQUE key {clustered_after.name} clustering the table instead",  # type: ignore[union-attr]
                     INPLACE, NONE)
        elif draft is not None and draft.indexes[at].kind == "fulltext":
            rows("DROP of a FULLTEXT key", NOCOPY, NONE, None, "InnoDB may rebuild the table to drop the last one")
        else:
            rows("DROP INDEX", NOCOPY, NONE, "DROP INDEX")
    fulltext = draft is not None and any(index.kind == "fulltext" for index in plan.kept_keys().values())
    for index in plan.keys.index_adds:
        if index.kind == "primary" and clustered is not None and clustered.kind == "unique" and not loses_cluster and [
                p.name.lower() for p in clustered.columns] == [p.name.lower() for p in index.columns] \
                and index.using == clustered.using:
            # over the columns InnoDB already clusters by, with the same USING written (or none):
            # the clustered index stays (MariaDB 10.11; with another USING it is rebuilt, fuzz seed 423)
            rows("ADD PRIMARY KEY over the UNIQUE key's columns InnoDB clusters by", NOCOPY, NONE, "ADD INDEX")
        elif index.kind == "primary" and mariadb and any(
                (column := plan.new_column_of(p.name.lower())) is not None and column.nullable and _timestamp(column)
                for p in index.columns if not p.expression):
            rows("ADD PRIMARY KEY over a nullable TIMESTAMP column", COPY, SHARED, _TIMESTAMP_NOT_NULL)
        elif index.kind == "primary":
            rows("ADD PRIMARY KEY" + (" after DROP PRIMARY KEY" if dropped_primary else ""), INPLACE, NONE)
        elif index.kind == "fulltext":
            if fulltext or sum(1 for i in plan.keys.index_adds if i.kind == "fulltext") > 1:
                rows("ADD FULLTEXT", NOCOPY, SHARED, "Fulltext index creation requires a lock",
                     "InnoDB creates one FULLTEXT index at a time, and a second one without a rebuild")
            else:
                rows("ADD FULLTEXT", INPLACE, SHARED, "Fulltext index creation requires a lock")
        elif index.kind == "spatial":
            rows("ADD SPATIAL INDEX", NOCOPY, SHARED, None, "innolint does not model spatial keys online")
        elif index.kind == "unique" and innodb and clustered_after is index:
            rows("a UNIQUE key InnoDB clusters by (the table has no PRIMARY KEY)", INPLACE, NONE)
        elif _long_unique(index, plan):
            rows("a UNIQUE key on a TEXT/BLOB column", COPY, SHARED, None,
                 "MariaDB keeps it as a hash of the column, which innolint does not model online")
        else:
            rows("ADD INDEX", NOCOPY, NONE, "ADD INDEX")
    for at, _ in plan.keys.index_renames:
        metadata("RENAME INDEX", _DICTIONARY)
    if plan.fk_adds:
        rows("ADD FOREIGN KEY", COPY, SHARED, "Adding foreign keys needs foreign_key_checks=OFF",
             "in place only when the session has set foreign_key_checks=0, which innolint does not follow")
    for _ in plan.fk_drops:
        needs.append(Need("DROP FOREIGN KEY", INSTANT if mariadb else NOCOPY, role=_DICTIONARY))
    for pairs in plan.options:
        for key, value in pairs:
            needs.append(_option_need(key, value, plan, innodb, mariadb))
    if plan.charsets.convert is not None:
        needs.append(_convert_need(plan, mariadb))
    for words in request.unmodelled:
        if words == "CONVERT TO":
            continue  # (`plan.charsets.convert`)
        if words == "FORCE":
            rows("FORCE", INPLACE, NONE, "Changing table options requires the table to be rebuilt")
        elif words in ("DISABLE KEYS", "ENABLE KEYS"):
            metadata(words)
        else:
            needs.append(Need(words, COPY, SHARED, None, "innolint does not model how the server runs it"))
    if mariadb and needs and _hash_key_kept(plan):
        reason = "INPLACE ADD or DROP of virtual columns cannot be combined with other ALTER operations"
        needs = [Need(n.what + " (the table has a UNIQUE key kept as a hash)", COPY, SHARED, reason, n.undecided)
                 for n in needs]
    if innodb and _fulltext_after(plan):
        needs = _with_fulltext(needs, mariadb)
    if innodb and mariadb:
        needs = _dictionary_with_options(needs)
    if plan.rename_to is not None and not needs:
        # alone, MariaDB renames it as RENAME TABLE does, under an exclusive lock; with other
        # operations the rename is part of them
        needs.append(Need("RENAME TO alone", INSTANT, EXCLUSIVE if mariadb else NONE))
    if plan.partition_tables or plan.partition_sources:
        needs.append(Need("CONVERT PARTITION/TABLE", COPY, SHARED, None,
                          "innolint does not model how partitions are converted online"))
    return needs


_COLUMN_LAYOUT = ("ADD COLUMN", "DROP COLUMN", "moving a column", "ADD COLUMN FIRST/AFTER", "making ", "dropping a column")


def _fulltext_after(plan: Any) -> bool:
    """Whether the table has a FULLTEXT key after the statement (kept or added)."""
    if plan.draft is None:  # (the statement changes options only)
        return any(index.kind == "fulltext" for index in plan.table.indexes)
    dropped = set(plan.drops)
    kept = any(index.kind == "fulltext" and any(part.name.lower() not in dropped for part in index.columns)
               for index in plan.kept_keys().values())
    return kept or any(index.kind == "fulltext" for index in plan.keys.index_adds)


def _with_fulltext(needs: list[Need], mariadb: bool) -> list[Need]:
    """An InnoDB table with a FULLTEXT key (MariaDB 10.11): a column added, dropped, moved or made
    longer rebuilds the table (no INSTANT, no NOCOPY), and every rebuild re-creates the FULLTEXT
    keys, which takes LOCK=SHARED ("Fulltext index creation requires a lock"). Renames, defaults
    and other keys are unaffected."""
    reason = "Fulltext index creation requires a lock"
    undecided = None if mariadb else "innolint does not know how MySQL rebuilds a table with a FULLTEXT key"
    changed = []
    for need in needs:
        if need.what.startswith("making ") and need.algorithm == INSTANT:
            changed.append(replace(need, undecided="with a FULLTEXT key, MariaDB 10.11 does it instantly in some "
                                   "tables and rebuilds others"))
        elif need.algorithm in (INSTANT, NOCOPY) and need.what.startswith(_COLUMN_LAYOUT):
            changed.append(Need(need.what + " (the table has a FULLTEXT key)", INPLACE, SHARED, reason,
                                need.undecided or undecided))
        elif need.algorithm == INPLACE and need.lock < SHARED:
            changed.append(Need(need.what + " (the table has a FULLTEXT key)", INPLACE, SHARED, reason,
                                need.undecided or undecided))
        else:
            changed.append(need)
    return changed


def _dictionary_with_options(needs: list[Need]) -> list[Need]:
    """InnoDB on MariaDB 10.11 does a key or column renamed, a foreign key dropped or a VARCHAR made
    longer instantly, and a table option (COMMENT=, AUTO_INCREMENT=, STATS_PERSISTENT=, DEFAULT
    CHARSET= ..., even to the value it has) instantly, but not the two in one statement: that
    needs NOCOPY (1846 "Reason: DROP INDEX", whatever the statement drops). A column added,
    dropped or moved instantly in the same statement takes both along instantly. (MySQL: unknown.)"""
    if not any(n.role == _OPTIONS and n.algorithm == INSTANT for n in needs) or any(n.role == _LAYOUT for n in needs):
        return needs
    combined = []
    for need in needs:
        if need.role == _DICTIONARY and need.algorithm == INSTANT:
            # (what innolint cannot tell about it, it still cannot: it needs NOCOPY at least)
            combined.append(replace(need, what=f"{need.what} with a table option", algorithm=NOCOPY,
                                    reason="DROP INDEX", undecided=None))
            if need.undecided is not None:
                combined.append(need)
        else:
            combined.append(need)
    return combined


def _combined(needs: list[Need], plan: Any) -> list[Need]:
    """An instant ADD/DROP COLUMN or reordered column with an operation that is not instant: the
    table is rebuilt (INPLACE) for both (MariaDB 10.11; MySQL the same)."""
    instant_columns = [n for n in needs if n.algorithm == INSTANT and n.role == _LAYOUT]
    if not instant_columns or all(n.algorithm == INSTANT for n in needs):
        return needs
    return [Need(n.what + " with another operation", INPLACE, n.lock, None, n.undecided) if n in instant_columns else n
            for n in needs]


def _convert_need(plan: Any, mariadb: bool) -> Need:
    """CONVERT TO CHARACTER SET: a copy when it changes the character set of a column the table
    keeps (MariaDB 10.11, MySQL the same), nothing to do when it changes none; utf8mb3 to utf8mb4
    MariaDB may do in place (instantly for a column in no key), which innolint does not judge."""
    moved = []
    columns = plan.draft.columns.values() if plan.draft is not None else plan.table.columns.values()
    for column in columns:
        view = plan.charsets.kept_view(column)
        if view is not column:
            was = column_charset(column, plan.table, plan.target, plan.schema)
            now = column_charset(view, plan.table, plan.target, None)
            if was is None or now is None or was.charset != now.charset or view.type != column.type:
                moved.append((was.charset if was else None, now.charset if now else None))
    if not moved:
        return Need("CONVERT TO CHARACTER SET (no column changes)", INSTANT)
    if mariadb and all(pair == ("utf8mb3", "utf8mb4") for pair in moved):
        return Need("CONVERT TO CHARACTER SET", COPY, SHARED, "Cannot change column type",
                    "MariaDB may convert utf8mb3 to utf8mb4 in place")
    return Need("CONVERT TO CHARACTER SET", COPY, SHARED, "Cannot change column type")


def _option_need(key: str, value: str | None, plan: Any, innodb: bool, mariadb: bool) -> Need:
    engine = _engine(plan)
    temporary = bool(plan.table.temporary)
    if key == "ENGINE":
        if (value or "").lower() == engine and innodb:
            return Need("ENGINE=InnoDB (a rebuild)", INPLACE)
        return Need(f"ENGINE={value}", COPY, SHARED)
    if key == "PARTITION":
        return Need("PARTITION BY", COPY, SHARED)
    if key in _METADATA_OPTIONS:
        return Need(f"{key}=", INSTANT, role=_OPTIONS)
    if temporary:
        return Need(f"{key}=", COPY, SHARED)
    if not innodb and key in _IN_PLACE_OPTIONS.get(engine, ()):
        return Need(f"{key}=", INSTANT)
    if not innodb and key == "AUTO_INCREMENT":
        return Need(f"{key}=", COPY, SHARED, None, f"{engine} sets it in place only to the counter it has")
    if not innodb:
        return Need(f"{key}=", COPY, SHARED, None, None if engine in _IN_PLACE_OPTIONS
                    else f"innolint does not know which options {engine} changes in place")
    if key in _INSTANT_OPTIONS:  # (MySQL: AUTO_INCREMENT= in place without a rebuild, a character set rebuilds)
        return Need(f"{key}=", INSTANT if mariadb or key not in ("AUTO_INCREMENT", "CHARSET", "COLLATE")
                    else NOCOPY if key == "AUTO_INCREMENT" else INPLACE, role=_OPTIONS)
    if key in _REBUILD_OPTIONS:
        return Need(f"{key}=", INPLACE, NONE, "Changing table options requires the table to be rebuilt")
    return Need(f"{key}=", COPY, SHARED, None, "innolint does not model how the server changes this option")


def _clustered(plan: Any) -> Any:
    """The table's clustered index before the statement. Read from the statement's draft when it
    has one: reading the table's own views while a draft is open would settle them before the
    statement's changes (linter.parse.body.TableBody.draft)."""
    return plan.draft.clustered() if plan.draft is not None else plan.table.clustered_index


def _clustered_after(plan: Any) -> Any:
    """The key the table is clustered on after the statement (None: the row id): its keys as the
    statement leaves them (those it drops gone, parts on dropped columns left out, those it adds
    after the others), sorted again where the server sorts them (`key_order.alter_sorts_keys`),
    the first of them (`linter.schema.model.can_cluster`)."""
    draft = plan.draft
    if draft is None:
        return plan.table.clustered_index
    dropped = set(plan.drops) - plan.readded
    keys = []
    for index in plan.kept_keys().values():
        parts = tuple(p for p in index.columns if p.expression or p.name.lower() not in dropped)
        if parts:
            keys.append(index if len(parts) == len(index.columns) else replace(index, columns=parts))
    keys += plan.keys.index_adds
    if plan.sorts_keys(draft):  # (ranked as stored: a prefix over a whole column is none, fuzz seed 404)
        keys.sort(key=lambda index: key_rank(_without_whole_prefixes(index, plan.new_column_of), plan.new_column_of))
    primary = next((index for index in keys if index.kind == "primary"), None)
    if primary is not None:
        return primary
    first = keys[0] if keys else None
    return first if first is not None and first.kind == "unique" and can_cluster(first, plan.new_column_of) else None


def _without_whole_prefixes(index: Any, column_of: Any) -> Any:
    """The key without the prefixes that cover their whole column, which the server drops."""
    if all(part.prefix is None for part in index.columns):
        return index
    stored = replace(index)
    drop_whole_prefixes([stored], column_of)
    return stored


def _is_clustered(index: Any, clustered: Any) -> bool:
    return clustered is not None and index.kind == clustered.kind and (index.name or "").lower() == (
        clustered.name or "").lower()


def _hash_key_kept(plan: Any) -> bool:
    """Whether the table has a MariaDB "long unique" key (a UNIQUE key over a whole TEXT/BLOB
    column, kept as a hidden virtual hash column) that the statement does not DROP INDEX: then
    nothing is done in place, in any engine (1846 "INPLACE ADD or DROP of virtual columns cannot be
    combined with other ALTER operations"; checked on the table as it was, which is what matters
    for a column the statement changes)."""
    if plan.draft is None:
        indexes = list(plan.table.indexes)
        lookup = plan.table.column
    else:  # (a key whose column the statement drops goes with it, and counts: a virtual column dropped)
        indexes = list(plan.kept_keys().values())
        lookup = plan.draft.column
    for index in indexes:
        if index.kind != "unique":
            continue
        if index.long_hash:  # (also a UNIQUE key wider than a B-tree takes: `key_parts.is_long_unique`)
            return True
        for part in index.columns:
            if part.expression or part.prefix is not None:
                continue
            column = lookup(part.name) if plan.draft is None else lookup(part.name.lower())
            if column is not None and column.is_large:
                return True
    return False


def _long_unique(index: Any, plan: Any) -> bool:
    """Whether a UNIQUE key the statement adds is one MariaDB keeps as a hash (a whole TEXT/BLOB,
    USING HASH, or wider than a B-tree takes: `key_parts.is_long_unique`)."""
    if index.kind != "unique":
        return False
    for part in index.columns:
        if part.expression or part.prefix is not None:
            continue
        column = plan.new_column(part.name.lower())
        if column is not None and column.is_large:
            return True
    stored = server_keys(plan.table, [index], plan.new_column, plan.target, plan.schema)
    return stored[0].long_hash if stored is not None else index.long_hash


def _same_definition(old: Column, new: Column) -> bool:
    """The same column but for its name, default, comment: a change of metadata only."""
    return (old.type.upper(), old.params, old.unsigned, old.nullable, old.auto_increment, old.generated,
            (old.charset or "").lower(), (old.collation or "").lower(), old.binary, old.compressed, old.srid,
            old.invisible) == (
            new.type.upper(), new.params, new.unsigned, new.nullable, new.auto_increment, new.generated,
            (new.charset or "").lower(), (new.collation or "").lower(), new.binary, new.compressed, new.srid,
            new.invisible)


def _type_change(old: Column, new: Column, plan: Any, innodb: bool, mariadb: bool, target: Target) -> list[Need]:
    """MODIFY / CHANGE that redefines a column: its type, length, NULL-ness."""
    what = f"changing column {new.name}"
    copy = Need(f"{what}'s type", COPY, SHARED, "Cannot change column type")
    if not innodb:
        return [Need(what, COPY, SHARED)]
    nullability = old.nullable != new.nullable
    same_type = (old.type.upper(), old.unsigned, (old.charset or "").lower(), (old.collation or "").lower(),
                 old.binary, old.generated, old.auto_increment, old.compressed) == (
                new.type.upper(), new.unsigned, (new.charset or "").lower(), (new.collation or "").lower(),
                new.binary, new.generated, new.auto_increment, new.compressed)
    if old.type.upper() != new.type.upper() or old.unsigned != new.unsigned or old.generated or new.generated \
            or old.auto_increment != new.auto_increment:
        if (plan.table.body.options.row_format or "").lower() == "redundant":
            return [Need(what, COPY, SHARED, "Cannot change column type",
                         "MariaDB widens some types instantly in ROW_FORMAT=REDUNDANT")]
        return [copy]
    if not same_type:  # a character set or collation changed
        return [Need(what, COPY, SHARED, "Cannot change column type",
                     "the server changes some character sets and collations in place")]
    needs: list[Need] = []
    if old.params != new.params:
        kind = new.type.upper()
        old_length, new_length = old.length, new.length
        if kind not in _VAR_TYPES or old_length is None or new_length is None or new_length < old_length:
            return [copy]
        if new_length > old_length:
            low = 1 if kind == "VARBINARY" else _maxlen(new, plan, low=True)
            high = 1 if kind == "VARBINARY" else _maxlen(new, plan, low=False)
            keyed = plan.draft is not None and plan.draft.uses.get(old.name.lower())
            if keyed:
                needs.append(Need(f"making key column {new.name} longer", INSTANT if mariadb else NOCOPY, NONE, None,
                                  "its keys may be rebuilt", _DICTIONARY))
            elif new_length * high <= 255 or old_length * low > 255:
                needs.append(Need(f"making {new.name} longer", INSTANT if mariadb else NOCOPY, role=_DICTIONARY))
            else:
                needs.append(Need(f"making {new.name} longer than 255 bytes", INSTANT if mariadb else NOCOPY, NONE,
                                  "Cannot change column type",
                                  "whether its length takes 1 or 2 bytes then depends on its character set and the "
                                  "row format"))
    if nullability and mariadb and not new.nullable and _timestamp(new):
        needs.append(Need(f"making TIMESTAMP {new.name} NOT NULL", COPY, SHARED, _TIMESTAMP_NOT_NULL))
    elif nullability:
        needs.append(Need(f"making {new.name} {'NULL' if new.nullable else 'NOT NULL'}", INPLACE))
    return needs or [Need(what, INSTANT)]


#: MariaDB 10.11 copies a table to make a nullable TIMESTAMP column NOT NULL (a MODIFY, or the
#: PRIMARY KEY an ALTER adds over it), whatever its default; a DATETIME it converts in place
_TIMESTAMP_NOT_NULL = "cannot convert NULL to non-constant DEFAULT"


def _timestamp(column: Column) -> bool:
    return column.type.upper() == "TIMESTAMP"


def _maxlen(column: Column, plan: Any, *, low: bool) -> int:
    """Bytes per character of the column's character set, when known; else the bound asked for."""
    charset = column.charset or plan.table.body.options.charset
    if charset:
        known = CHARSET_MAXLEN.get(normalize_charset(charset))
        if known:
            return known
    return 1 if low else 4
