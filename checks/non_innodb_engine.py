"""non-innodb-engine: a MyISAM, MEMORY, Aria, CSV, ARCHIVE ... table among InnoDB tables.

A schema whose tables are InnoDB expects transactions, crash recovery, row locks and foreign keys;
a non-transactional table among them has none of that, silently: a rollback leaves its changes,
a crash can leave it corrupt (MyISAM: REPAIR TABLE), every write locks the whole table, its
foreign keys are parsed and dropped (verified on MariaDB 10.11: SHOW CREATE TABLE has none).

The fix is ALTER TABLE ... ENGINE=InnoDB, judged first: the table as InnoDB goes through
row-size-limit and index-key-length (a MyISAM row of 20,000 bytes is not an InnoDB record), and
what InnoDB refuses outright is added to the fix (verified on MariaDB): a ROW_FORMAT InnoDB does
not have (FIXED, PAGE: errno 140 "Wrong create options"), an AUTO_INCREMENT column that no key
starts with (ERROR 1075), a KEY_BLOCK_SIZE (a hint to MyISAM, ROW_FORMAT=COMPRESSED to InnoDB).
A table with no key InnoDB could cluster on gets a primary key in the same ALTER (ENGINE=InnoDB
alone would put it on the hidden row id), and the message says so. Left out: the server's own
schemas, view stand-ins and temporary tables (linter.rules.scope). Where such tables are most of a
schema, or all of it (an application written for MyISAM: piwigo, opencart), the schema gets one
finding, at its first such table, whose fix converts each: one decision, one finding.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from linter.rules.scope import is_system_schema, sentences, user_tables
from linter.rules.key_length import key_fix, key_problem
from linter.rules.row_size import fix_clauses, row_problem
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified, quote
from linter.rules.findings import Finding
from linter.rules.primary_key_fix import primary_key_clauses
from linter.parse.elements import Index, IndexColumn
from linter.schema.model import Schema, SchemaModel, Table
from linter.parse.body import TableBody
from linter.schema.target import Target

#: engines without transactions, by lower-case name: what they lack besides (each engine's
#: chapter of the MySQL 8.0 manual 18 "Alternative Storage Engines"; MariaDB KB for Aria)
NON_TRANSACTIONAL: dict[str, tuple[str, str]] = {
    "myisam": ("MyISAM", "no transactions, no crash recovery (a crash can leave it needing REPAIR TABLE), a lock on "
                         "the whole table for every write"),
    "aria": ("Aria", "no transactions (TRANSACTIONAL=1 only makes it crash-safe), a lock on the whole table for "
                     "every write"),
    "memory": ("MEMORY", "its rows are gone after every restart, a lock on the whole table for every write, "
                         "fixed-length rows, no TEXT/BLOB"),
    "heap": ("MEMORY", "its rows are gone after every restart, a lock on the whole table for every write"),
    "csv": ("CSV", "no transactions, no indexes, no NULL"),
    "archive": ("ARCHIVE", "no transactions, no UPDATE or DELETE, no index but on an AUTO_INCREMENT column"),
    "mrg_myisam": ("MERGE", "a view over MyISAM tables: no transactions, table locks"),
    "merge": ("MERGE", "a view over MyISAM tables: no transactions, table locks"),
    "federated": ("FEDERATED", "rows on another server, no transactions"),
    "blackhole": ("BLACKHOLE", "writes are discarded"),
}
_INNODB_ROW_FORMATS = frozenset({"dynamic", "compact", "redundant", "compressed", "default"})


def as_innodb(table: Table) -> tuple[Table, list[str]]:
    """The table as ALTER TABLE ... ENGINE=InnoDB would make it, with the clauses InnoDB needs
    besides: ROW_FORMAT=DYNAMIC for a row format it does not have, KEY_BLOCK_SIZE=0 for a
    MyISAM key block size (else InnoDB compresses the table), a key on an AUTO_INCREMENT column
    that no key starts with."""
    clauses = ["ENGINE=InnoDB"]
    options = replace(table.options, engine="InnoDB")
    written = (table.options.row_format or "").lower()
    if written and written not in _INNODB_ROW_FORMATS:
        clauses.append("ROW_FORMAT=DYNAMIC")
        options = replace(options, row_format="DYNAMIC")
    if table.options.key_block_size:
        clauses.append("KEY_BLOCK_SIZE=0")
        options = replace(options, key_block_size=None)
    indexes = list(table.indexes)
    for column in table.columns.values():
        if column.auto_increment and not any(i.columns and i.columns[0].name.lower() == column.name.lower()
                                             for i in indexes if i.kind in ("primary", "unique", "index")):
            clauses.append(f"ADD KEY {quote(column.name)} ({quote(column.name)})")
            indexes.append(Index(column.name, "index", (IndexColumn(column.name),)))
    converted = Table(table.schema, table.name, TableBody(table.columns, indexes, table.foreign_keys, options),
                      table.defined, table.changed, table.temporary, table.origin)
    return converted, clauses


def conversion(table: Table, target: Target, schema: Schema | None, locked: frozenset[str] = frozenset()
               ) -> tuple[list[str] | None, list[str], tuple[str, ...]]:
    """The ALTER TABLE clauses that make the table InnoDB (None when innolint has none that InnoDB
    would take), what InnoDB would refuse or change about the plain ENGINE=InnoDB, one line each,
    and the notes on the key: a table with no key InnoDB could cluster on gets a primary key too
    (`primary_key_clauses`), as ENGINE=InnoDB alone would put it on the hidden row id: why, and
    what may make it fail (NULLs in a promoted UNIQUE key), when there is anything to say."""
    converted, clauses = as_innodb(table)
    notes: list[str] = []
    row = row_problem(converted, target, schema, innodb=True)
    if row is not None:
        notes.append(f"as InnoDB: {row.message}")
        extra = fix_clauses(converted, target, schema, innodb=True, locked=locked)
        if extra is None:
            return None, notes, ()
        clauses.extend(extra)
    for index in converted.indexes:
        key = key_problem(converted, index, target, schema, innodb=True)
        if key is None:
            continue
        notes.append(f"as InnoDB: {key.message}")
        found = key_fix(converted, index, target, schema, innodb=True, locked=locked)
        if found is None:
            return None, notes, ()
        clauses.extend(c for c in found[0] if c not in clauses)
    keyed: tuple[str, ...] = ()
    if converted.clustered_index is None:
        added, note = primary_key_clauses(converted, target)
        clauses.extend(added)
        keyed = ("It has no PRIMARY KEY and no UNIQUE key of NOT NULL columns: ENGINE=InnoDB alone would cluster it on "
                 "InnoDB's hidden row id (one server-wide counter under a mutex, see no-primary-key), so the fix gives "
                 f"it a primary key too ({', '.join(added)})", note)
    return clauses, notes, keyed


class NonInnodbEngine(Check):
    id = "non-innodb-engine"
    title = "Non-transactional table among InnoDB tables"
    severity = "warning"
    doc = RuleDoc(
        why=(
            "In a schema of InnoDB tables, a MyISAM, Aria, MEMORY, CSV, ARCHIVE, MERGE, FEDERATED or BLACKHOLE table "
            "breaks what the rest promises, without a word: a transaction that writes it cannot roll its part back, "
            "a crash can corrupt it (MyISAM) or empty it (MEMORY, at every restart), each write locks the whole "
            "table, and its FOREIGN KEY clauses are parsed and dropped. Backups that rely on InnoDB's consistent "
            "snapshot (mysqldump --single-transaction, mariadb-backup) do not get a consistent copy of it."
        ),
        evidence=(
            "The table's ENGINE after every ALTER; the schema's other tables (InnoDB, no ENGINE: the default, or a "
            "template placeholder such as `@ZM_MYSQL_ENGINE@`, read as InnoDB). A table among at least as many InnoDB "
            "ones gets a finding of its own; a schema whose tables are mostly or all of engines without transactions "
            "(an application written for them) gets one finding, at its first such table, listing them. The fix is "
            "judged as InnoDB would judge the table: row-size-limit and index-key-length on the result, and whether "
            "InnoDB would have a key to cluster on."
        ),
        bad="CREATE TABLE orders (id INT PRIMARY KEY) ENGINE=InnoDB;\nCREATE TABLE order_log (\n  id INT PRIMARY KEY,\n"
            "  order_id INT NOT NULL,\n  FOREIGN KEY (order_id) REFERENCES orders (id)  -- dropped: MyISAM\n) ENGINE=MyISAM;",
        good="CREATE TABLE order_log (\n  id INT PRIMARY KEY,\n  order_id INT NOT NULL,\n"
             "  FOREIGN KEY (order_id) REFERENCES orders (id)\n) ENGINE=InnoDB;",
        fix=(
            "ALTER TABLE ... ENGINE=InnoDB, with what InnoDB needs besides: ROW_FORMAT=DYNAMIC for MyISAM's FIXED or "
            "Aria's PAGE, KEY_BLOCK_SIZE=0 (InnoDB would compress the table), a key for an AUTO_INCREMENT column that "
            "is not first in one, a primary key for a table with no key InnoDB could cluster on (a UNIQUE key promoted, "
            "else an invisible AUTO_INCREMENT column: ENGINE=InnoDB alone would cluster it on the hidden row id), and "
            "row-size-limit's and index-key-length's fixes where the table would not fit InnoDB's limits; the message "
            "says when it cannot. A schema's finding has one ALTER TABLE per table. The foreign keys the engine dropped are not in the "
            "table any more: add them again. A MEMORY table used as a cache on purpose: suppress the finding."
        ),
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        schemas: dict[str | None, _Engines] = {}  # schema key -> its tables by engine
        for table in user_tables(model):
            key = model.key(table.schema) if table.schema else None
            found = schemas.get(key)
            if found is None:
                found = schemas[key] = _Engines()
            found.count(table)

        def judge(table: Table) -> Iterator[Finding]:
            engine = NON_TRANSACTIONAL.get((table.engine or "").lower())
            if engine is None or is_system_schema(table.schema):
                return
            key = model.key(table.schema) if table.schema else None
            found = schemas[key]
            if found.innodb >= len(found.others):
                yield self._finding(table, engine, found.innodb, context.target, model.schemas[key])
            elif found.others[0] is table:  # written for these engines: one finding for the schema, at its first
                yield self._schema_finding(found, context.target, model.schemas[key])

        return judged_once(model, context, judge)

    def _finding(self, table: Table, engine: tuple[str, str], innodb: int, target: Target, schema: Schema) -> Finding:
        """A table among at least as many InnoDB ones: an oversight, one finding each."""
        name, lacks = engine
        message = (f"{table.name} is {name} among {innodb} InnoDB table{'s' if innodb > 1 else ''}: {lacks}; a "
                   "transaction that writes it and InnoDB tables cannot roll its part back.")
        if table.foreign_keys:
            message += (f" Its {len(table.foreign_keys)} FOREIGN KEY clause{'s were' if len(table.foreign_keys) > 1 else ' was'} "
                        f"dropped by {name}: add {'them' if len(table.foreign_keys) > 1 else 'it'} again after the conversion.")
        clauses, notes, keyed = conversion(table, target, schema)
        if notes:
            message = sentences(message, *notes, "The fix adds what makes it fit." if clauses
                                else "innolint has no fix that InnoDB would take.")
        message = sentences(message, *keyed)
        fix = f"ALTER TABLE {qualified(table)} {', '.join(clauses)};" if clauses else None
        evidence = f"ENGINE={table.engine}; {innodb} other table{'s' if innodb > 1 else ''} in the schema are InnoDB"
        summary = f"{table.name} is {name} among {innodb} InnoDB table{'s' if innodb > 1 else ''}: no transactions"
        return self.finding(table, message, severity=self.severity, where=table.option_place("engine"),
                            evidence=evidence, fix=fix, subject=f"engine:{name}", summary=summary)

    def _schema_finding(self, found: _Engines, target: Target, schema: Schema) -> Finding:
        """A schema whose tables are mostly (or all) of engines without transactions: an application
        written for them. One finding for the schema, at its first such table, with a conversion of
        each (each judged as InnoDB would judge it): the same whatever the share of InnoDB tables."""
        tables = found.others
        first = tables[0]
        engines = _engine_counts(tables)
        total = found.innodb + len(tables)
        label = f"schema {first.schema}" if first.schema else "the schema"
        share = (f"All {total} tables of {label} are" if not found.innodb else
                 f"{len(tables)} of the {total} tables of {label} are")
        if len(engines) == 1:
            lacking = f"{next(iter(engines))} has {NON_TRANSACTIONAL_BY_NAME[next(iter(engines))]}"
        else:
            lacking = "; ".join(f"{name}: {NON_TRANSACTIONAL_BY_NAME[name]}" for name in engines)
        message = (f"{share} {_engines_text(engines)}, without transactions: {lacking}. A transaction cannot roll "
                   "their changes back. The application was written for these engines, and moving it to InnoDB is a "
                   "project, one table at a time (test its locking and its full-text searches on each): the fix "
                   "converts each table, with what InnoDB needs besides.")
        statements: list[str] = []
        keyless = without_fix = dropped = 0
        for table in tables:
            clauses, _, keyed = conversion(table, target, schema)
            if clauses is None:
                without_fix += 1
                statements.append(f"-- {qualified(table)}: innolint has no conversion InnoDB would take (see "
                                  "row-size-limit and index-key-length on it)")
                continue
            keyless += bool(keyed)
            dropped += len(table.foreign_keys)
            if keyed and keyed[1]:  # what may make the key fail (NULLs in the UNIQUE key it promotes)
                statements.append(f"-- {table.name}: {keyed[1]}")
            statements.append(f"ALTER TABLE {qualified(table)} {', '.join(clauses)};")
        if keyless:
            message += (f" {keyless} of them {'have' if keyless > 1 else 'has'} no PRIMARY KEY and no UNIQUE key of NOT "
                        "NULL columns: ENGINE=InnoDB alone would cluster "
                        f"{'them' if keyless > 1 else 'it'} on InnoDB's hidden row id (see no-primary-key), so the fix "
                        f"gives {'each' if keyless > 1 else 'it'} a primary key too.")
        if dropped:
            message += (f" {dropped} FOREIGN KEY clause{'s were' if dropped > 1 else ' was'} dropped by these engines: add "
                        f"{'them' if dropped > 1 else 'it'} again after the conversion.")
        if without_fix:
            message += f" innolint has no conversion InnoDB would take for {without_fix} of them."
        names = ", ".join(t.name for t in tables[:_NAMED]) + (f" and {len(tables) - _NAMED} more" if len(tables) > _NAMED else "")
        evidence = (f"{_engines_text(engines)} ({names}); {found.innodb} InnoDB table{'s' if found.innodb != 1 else ''} "
                    "in the schema")
        summary = f"{share} {_engines_text(engines)}: no transactions"
        return self.finding(first, message, severity=self.severity, where=first.option_place("engine"),
                            evidence=evidence, fix="\n".join(statements), subject="schema-engines", summary=summary)


#: tables a schema's finding names in its evidence (the fix names them all)
_NAMED = 20
#: what each engine lacks, by the name NON_TRANSACTIONAL gives it
NON_TRANSACTIONAL_BY_NAME = {name: lacks for name, lacks in NON_TRANSACTIONAL.values()}


class _Engines:
    """A schema's user tables: how many are InnoDB, and those of engines without transactions in input order."""

    __slots__ = ("innodb", "others")

    def __init__(self) -> None:
        self.innodb = 0
        self.others: list[Table] = []

    def count(self, table: Table) -> None:
        if table.is_innodb:
            self.innodb += 1
        elif (table.engine or "").lower() in NON_TRANSACTIONAL:
            self.others.append(table)


def _engine_counts(tables: list[Table]) -> dict[str, int]:
    """Engine name -> how many of the tables have it, most first."""
    counts: dict[str, int] = {}
    for table in tables:
        name = NON_TRANSACTIONAL[(table.engine or "").lower()][0]
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


def _engines_text(counts: dict[str, int]) -> str:
    """`MyISAM` alone, or `MyISAM (12), MEMORY (2)`."""
    if len(counts) == 1:
        return next(iter(counts))
    return ", ".join(f"{name} ({n})" for name, n in counts.items())
