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
Left out: the server's own schemas, view stand-ins and temporary tables (checks.scope), and schemas
with no InnoDB table at all. Where such tables are most of the schema (an application written for
MyISAM, with a couple of InnoDB tables) the findings are info: converting it is a project.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from checks.scope import is_system_schema, sentences, user_tables
from checks.index_key_length import key_fix, key_problem
from checks.row_size_limit import fix_clauses, row_problem
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified, quote
from linter.rules.findings import Finding
from linter.schema.elements import Index, IndexColumn
from linter.schema.model import Schema, SchemaModel, Table, TableBody
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
               ) -> tuple[list[str] | None, list[str]]:
    """The ALTER TABLE clauses that make the table InnoDB (None when innolint has none that InnoDB
    would take), and what InnoDB would refuse or change about the plain ENGINE=InnoDB, one line each."""
    converted, clauses = as_innodb(table)
    notes: list[str] = []
    row = row_problem(converted, target, schema, innodb=True)
    if row is not None:
        notes.append(f"as InnoDB: {row.message}")
        extra = fix_clauses(converted, target, schema, innodb=True, locked=locked)
        if extra is None:
            return None, notes
        clauses.extend(extra)
    for index in converted.indexes:
        key = key_problem(converted, index, target, schema, innodb=True)
        if key is None:
            continue
        notes.append(f"as InnoDB: {key.message}")
        found = key_fix(converted, index, target, schema, innodb=True, locked=locked)
        if found is None:
            return None, notes
        clauses.extend(c for c in found[0] if c not in clauses)
    return clauses, notes


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
            "The table's ENGINE after every ALTER; the schema's other tables (InnoDB, or no ENGINE: the default). "
            "The fix is judged as InnoDB would judge the table: row-size-limit and index-key-length on the result."
        ),
        bad="CREATE TABLE orders (id INT PRIMARY KEY) ENGINE=InnoDB;\nCREATE TABLE order_log (\n  id INT PRIMARY KEY,\n"
            "  order_id INT NOT NULL,\n  FOREIGN KEY (order_id) REFERENCES orders (id)  -- dropped: MyISAM\n) ENGINE=MyISAM;",
        good="CREATE TABLE order_log (\n  id INT PRIMARY KEY,\n  order_id INT NOT NULL,\n"
             "  FOREIGN KEY (order_id) REFERENCES orders (id)\n) ENGINE=InnoDB;",
        fix=(
            "ALTER TABLE ... ENGINE=InnoDB, with what InnoDB needs besides: ROW_FORMAT=DYNAMIC for MyISAM's FIXED or "
            "Aria's PAGE, KEY_BLOCK_SIZE=0 (InnoDB would compress the table), a key for an AUTO_INCREMENT column that "
            "is not first in one, and row-size-limit's and index-key-length's fixes where the table would not fit "
            "InnoDB's limits; the message says when it cannot. The foreign keys the engine dropped are not in the "
            "table any more: add them again. A MEMORY table used as a cache on purpose: suppress the finding."
        ),
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        counts: dict[str | None, list[int]] = {}  # schema key -> [InnoDB tables, non-transactional tables]
        for table in user_tables(model):
            count = counts.setdefault(model.key(table.schema) if table.schema else None, [0, 0])
            if table.is_innodb:
                count[0] += 1
            elif (table.engine or "").lower() in NON_TRANSACTIONAL:
                count[1] += 1

        def judge(table: Table) -> Iterator[Finding]:
            engine = NON_TRANSACTIONAL.get((table.engine or "").lower())
            if engine is None or is_system_schema(table.schema):
                return
            key = model.key(table.schema) if table.schema else None
            innodb, others = counts[key]
            if innodb:
                yield self._finding(table, engine, innodb, others, context.target, model.schemas[key])

        return judged_once(model, context, judge)

    def _finding(self, table: Table, engine: tuple[str, str], innodb: int, others: int, target: Target,
                 schema: Schema) -> Finding:
        """Warning for a table among InnoDB ones; info where such tables are the schema's majority
        (an application written for that engine: converting it is a project, one table at a time)."""
        name, lacks = engine
        mostly = others > innodb
        message = (f"{table.name} is {name} among {innodb} InnoDB table{'s' if innodb > 1 else ''}: {lacks}; a "
                   "transaction that writes it and InnoDB tables cannot roll its part back.")
        if mostly:
            message += (f" {others} of the schema's {others + innodb} tables use engines without transactions: it was "
                        "written for them, and moving it to InnoDB is a project (this is one table of it).")
        if table.foreign_keys:
            message += (f" Its {len(table.foreign_keys)} FOREIGN KEY clause{'s were' if len(table.foreign_keys) > 1 else ' was'} "
                        f"dropped by {name}: add {'them' if len(table.foreign_keys) > 1 else 'it'} again after the conversion.")
        clauses, notes = conversion(table, target, schema)
        if notes:
            message = sentences(message, *notes, "The fix adds what makes it fit." if clauses
                                else "innolint has no fix that InnoDB would take.")
        if table.clustered_index is None:
            message += " It has no PRIMARY KEY: as InnoDB it would be clustered on a hidden row id (see no-primary-key)."
        fix = f"ALTER TABLE {qualified(table)} {', '.join(clauses)};" if clauses else None
        evidence = f"ENGINE={table.engine}; {innodb} other table{'s' if innodb > 1 else ''} in the schema are InnoDB"
        summary = f"{table.name} is {name} among {innodb} InnoDB table{'s' if innodb > 1 else ''}: no transactions"
        return self.finding(table, message, severity="info" if mostly else self.severity, where=table.option_place("engine"),
                            evidence=evidence, fix=fix, subject=f"engine:{name}", summary=summary)

