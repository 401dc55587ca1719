"""blocking-alter: an ALTER TABLE that copies or rebuilds a table that has rows, or keeps writes out
while it runs.

What the server does with each operation comes from the server emulator (`linter.server.
online_alter`, recorded per statement in `SchemaModel.alterations`): MariaDB's from its online DDL
pages, checked on MariaDB 10.11 (tests/test_blocking_alter.py asks the server which of
ALGORITHM=INSTANT, NOCOPY, INPLACE a statement accepts and which LOCK=, and compares), MySQL
8.0/8.4's from the manual's "Online DDL Operations" tables. A statement without ALGORITHM= / LOCK=
runs with the least algorithm its operations allow and the least lock that takes; one written
with `LOCK=NONE` (or MariaDB's ALTER ONLINE) or `ALGORITHM=INSTANT` that the server accepts blocks
nothing, and one it refuses is refused-ddl's.

Reported: COPY (every row copied into a new table; writes wait: LOCK=SHARED), a rebuild in place
(INPLACE with a table rebuild: the whole table rewritten, with the I/O and replica lag of a copy),
and LOCK=SHARED / EXCLUSIVE (writes, or reads and writes, wait for the whole statement). Not: an
instant change (its brief metadata lock is every ALTER's), an index built in place without a lock.

Which tables (`CheckContext.existed_before`): only a table that existed before the change, since a
table the same change creates is empty. With `--since` or in pre-commit, only ALTERs the change
adds, on tables it did not create; without a change set each file is a change: an ALTER of a table
an earlier file (migration) created, never one created earlier in the same file (a dump's or an
install script's ALTERs that add keys after its CREATEs). Severity: warning; error where the
stats (`--stats`, or the audit's server counters) say the table holds at least `large_rows` rows
or `large_size` bytes.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.checkapi import (
    Check, CheckContext, RuleDoc, foreign_keys_by_parent, quote, shell_word, table_key,
)
from linter.rules.findings import Finding, Severity
from linter.rules.options import SIZE, Integer, size_bytes
from linter.schema.model import SchemaModel
from linter.schema.refused import Alteration, Operation

DEFAULT_LARGE_ROWS = 1_000_000
DEFAULT_LARGE_SIZE = "1GiB"


def _how(operation: Operation) -> str:
    algorithm = operation.algorithm + (" (a table rebuild)" if operation.rebuilds and operation.algorithm != "COPY"
                                       else "")
    said = f"{operation.what}: ALGORITHM={algorithm}, LOCK={operation.lock}"
    if operation.reason:
        said += f" (the server: \"{operation.reason}\")"
    if operation.undecided:
        said += f"; innolint cannot be sure: {operation.undecided}"
    return said


def _effect(alteration: Alteration) -> str:
    """What the statement does to the table, in a sentence."""
    lock = {"NONE": "", "SHARED": "; writes wait until it ends (LOCK=SHARED)",
            "EXCLUSIVE": "; reads and writes wait until it ends (LOCK=EXCLUSIVE)"}[alteration.lock]
    if alteration.algorithm == "COPY":
        return f"copies every row into a new table (ALGORITHM=COPY){lock or '; writes wait until it ends (LOCK=SHARED)'}"
    if any(o.rebuilds for o in alteration.operations):
        return ("rebuilds the table in place (ALGORITHM=INPLACE): every row and index is rewritten, with the I/O "
                f"and replica lag of a copy{lock}")
    return f"runs in place without a rebuild (ALGORITHM={alteration.algorithm}){lock}"


class BlockingAlter(Check):
    id = "blocking-alter"
    title = "ALTER that copies, rebuilds or locks a table with rows"
    severity = "warning"
    severity_note = "error where the stats or the audit say the table is large (large_rows, large_size)"
    judges_alterations = True
    doc = RuleDoc(
        why=(
            "An ALTER TABLE that copies the table (ALGORITHM=COPY: a type change, DROP PRIMARY KEY, ADD FOREIGN KEY "
            "with foreign_key_checks on, CONVERT TO CHARACTER SET) blocks writes for as long as the copy takes, "
            "hours on a big table, and a rebuild in place (NULL/NOT NULL, ADD PRIMARY KEY, a reordered column on "
            "MySQL, FORCE) rewrites every row and index with the I/O and replica lag of a copy; ADD FULLTEXT or "
            "SPATIAL takes LOCK=SHARED. Nothing in the statement says so: the server picks the algorithm when "
            "ALGORITHM= is not written (MySQL's and MariaDB's online DDL tables; squawk's core rules are the "
            "PostgreSQL equivalents). innolint computes what the target runs each operation with, checked against "
            "MariaDB 10.11."
        ),
        evidence=(
            "Each operation's algorithm, lock and the server's reason, from the table as the input leaves it before "
            "the statement, on the target; the table's rows and size from the stats (--stats, the audit) when given. "
            "A statement pinned LOCK=NONE (or ALTER ONLINE) or ALGORITHM=INSTANT that the server accepts is not "
            "reported. " + "Which tables: only those that existed before the change (a table the change creates is empty). With "
            "--since or in pre-commit, the statements the change adds, on tables it did not create; without a change "
            "set each file is a change: a table an earlier migration created counts, one created earlier in the same "
            "file (a dump, an install script that adds keys by ALTER after its CREATEs) does not."
        ),
        bad=(
            "-- V1__customer.sql\n"
            "CREATE TABLE customer (id INT NOT NULL PRIMARY KEY, a INT NOT NULL, b VARCHAR(20)) ENGINE=InnoDB;\n"
            "-- V2__widen.sql\n"
            "ALTER TABLE customer MODIFY a BIGINT NOT NULL;  -- ALGORITHM=COPY, LOCK=SHARED"
        ),
        good=(
            "-- V1__customer.sql\n"
            "CREATE TABLE customer (id INT NOT NULL PRIMARY KEY, a INT NOT NULL, b VARCHAR(20)) ENGINE=InnoDB;\n"
            "-- V2__index.sql\n"
            "ALTER TABLE customer ADD KEY k_b (b), ALGORITHM=INPLACE, LOCK=NONE;  -- in place, writes go on"
        ),
        fix=(
            "Pin what runs online: `ALGORITHM=INSTANT` or `ALGORITHM=INPLACE, LOCK=NONE` where the target allows it, "
            "so that a future change that cannot run that way fails instead of locking; split a statement so the "
            "expensive part runs alone; run a copy with pt-online-schema-change (MySQL and MariaDB) or gh-ost "
            "(MySQL, tables without foreign keys), which copy in the background and swap the tables."
        ),
        options={
            "severity": "the severity below the large-table threshold (default warning)",
            "large_rows": f"rows from which the table counts as large: an error (default {DEFAULT_LARGE_ROWS:,})",
            "large_size": f"data and index bytes from which the table counts as large (default {DEFAULT_LARGE_SIZE})",
        },
        option_types={"large_rows": Integer(ge=0), "large_size": SIZE},
        option_defaults={"large_rows": DEFAULT_LARGE_ROWS, "large_size": DEFAULT_LARGE_SIZE},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        found = [a for a in model.alterations if a.operations and a.blocks and not _pinned_online(a)
                 and context.in_change(a.where) and context.existed_before(a.defined, a.where)]
        if not found:
            return
        referenced = foreign_keys_by_parent(model)
        large_rows = int(context.option(self.id, "large_rows", DEFAULT_LARGE_ROWS))
        large_size = size_bytes(context.option(self.id, "large_size", DEFAULT_LARGE_SIZE))
        for alteration in found:
            children = bool(referenced.get(table_key(model, alteration.schema, alteration.table_name)))
            yield self._finding(alteration, context, children, large_rows, large_size)

    def _finding(self, alteration: Alteration, context: CheckContext, children: bool, large_rows: int,
                 large_size: int) -> Finding:
        blocking = [o for o in alteration.operations if o.blocks]
        target = context.target
        severity: Severity = self.severity
        size = ""
        stats = context.stats_named(alteration.schema, alteration.table_name)
        if stats is not None:
            data = (stats.data_length or 0) + (stats.index_length or 0)
            if (stats.rows or 0) >= large_rows or data >= large_size:
                severity = "error"
            size = (f" {context.stats_label.capitalize()} give the table {stats.rows or 0:,} rows and {data:,} bytes"
                    + (f", over {'large_rows' if (stats.rows or 0) >= large_rows else 'large_size'}: an error."
                       if severity == "error" else "."))
        unsure = " (if innolint's doubt below holds, it may not)" if all(o.undecided for o in blocking) else ""
        message = (f"On {target.label}, {alteration.statement} {_effect(alteration)}{unsure}; the table existed "
                   "before this change, so it may hold many rows. "
                   + "; ".join(_how(o) for o in alteration.operations) + "." + size)
        fix, advice = _fix(alteration, target.is_mariadb, children)
        what = blocking[0].what
        return Finding(
            rule=self.id, severity=severity, path=alteration.where.path, line=alteration.where.line,
            column=alteration.where.column, end_line=alteration.where.end_line, schema=alteration.schema,
            table=alteration.table_name, message=f"{message} {advice}",
            summary=(f"{alteration.table_name}: {what} runs with ALGORITHM={alteration.algorithm}, "
                     f"LOCK={alteration.lock} on {target.label}"),
            evidence="; ".join(_how(o) for o in blocking), fix=fix,
            subject=f"{alteration.algorithm}:{alteration.lock}:{what}",
        )


def _pinned_online(alteration: Alteration) -> bool:
    """Written to run online (LOCK=NONE, ALTER ONLINE, ALGORITHM=INSTANT) and accepted so by the
    server: the author chose what it costs (a rebuild pinned LOCK=NONE is this rule's own fix)."""
    algorithm, lock = alteration.requested
    return lock == "NONE" or algorithm == "INSTANT"


def _pinned(actions: list[str], table: str, instant: bool) -> str:
    clauses = "ALGORITHM=INSTANT" if instant else "ALGORITHM=INPLACE, LOCK=NONE"
    return f"ALTER TABLE {table} {', '.join(actions)}, {clauses};"


def _fix(alteration: Alteration, mariadb: bool, children: bool) -> tuple[str | None, str]:
    """The SQL (or commands) to run instead, and the sentence that says why."""
    table = (f"{quote(alteration.schema)}.{quote(alteration.table_name)}" if alteration.schema
             else quote(alteration.table_name))
    actions = list(alteration.actions)
    if not actions:
        return None, "Run it in a maintenance window, or with pt-online-schema-change."
    if alteration.algorithm != "COPY" and alteration.lock == "NONE":
        return (_pinned(actions, table, False),
                "It can run without blocking writes: pin ALGORITHM=INPLACE, LOCK=NONE, so that a later change "
                "that cannot run that way fails instead of locking (the rebuild still rewrites the table: run it "
                "when the I/O can be spared).")
    cheap = [text for text, need in alteration.parts if need is not None and need[0] != "COPY" and need[1] == "NONE"]
    expensive = [text for text, need in alteration.parts if text not in cheap]
    lines: list[str] = []
    advice = ""
    if cheap and expensive and all(need is not None for _, need in alteration.parts):
        instant = all(need is not None and need[0] == "INSTANT" for text, need in alteration.parts if text in cheap)
        lines.append(_pinned(cheap, table, instant))
        advice = ("Split it: the parts that run online alone, pinned; the expensive part alone, "
                  "with an online schema change tool. ")
        actions = expensive
    change = ", ".join(actions)
    database = alteration.schema or "<database>"
    tool = ["pt-online-schema-change", f"--alter {shell_word(change)}"]
    if children:
        tool.append("--alter-foreign-keys-method=auto")
    tool.append(shell_word(f"D={database},t={alteration.table_name}"))
    tool.append("--execute")
    lines.append("-- copies the table in the background and swaps it in (triggers keep it in step):")
    lines.append(" ".join(tool))
    if not mariadb and not alteration.foreign_keys and not children:
        lines.append(f"-- or: gh-ost --database={shell_word(database)} --table={shell_word(alteration.table_name)} "
                     f"--alter={shell_word(change)} --execute")
    if any(o.what == "ADD FOREIGN KEY" for o in alteration.operations):
        advice += ("ADD FOREIGN KEY copies the table because foreign_key_checks is on; with SET foreign_key_checks=0 "
                   "the server adds it in place but does not check the existing rows. ")
    advice += ("pt-online-schema-change" + ("" if mariadb or alteration.foreign_keys or children else " or gh-ost")
               + " makes the change on a copy while the table stays writable.")
    return "\n".join(lines), advice
