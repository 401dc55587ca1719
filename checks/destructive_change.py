"""destructive-change: a statement that throws data away, on a table that had rows.

DROP TABLE, DROP COLUMN, and a column redefined to hold less (`linter.schema.value_ranges.loss`:
a shorter VARCHAR or CHAR, a smaller or unsigned integer, fewer digits or fractional seconds, fewer
ENUM values, a character set without some of the old one's characters). The server emulator
records each (`SchemaModel.alterations`); under the default strict sql_mode a narrowing ALTER
fails at the first row that does not fit (after copying the rows before it: hours on a big
table), without it the values are cut without a word; a dropped table or column is gone, and a
rollback migration cannot bring it back. MariaDB 10.11 judges every narrowing kind in
tests/test_destructive_change.py (the old type's extreme value stored, the ALTER refused).

Which tables: those that existed before the change, as blocking-alter decides
(`CheckContext.existed_before`): a table the same change (the same file, without a change set)
created has no rows to lose, and `DROP TABLE IF EXISTS t; CREATE TABLE t` in a dump drops nothing
the input had. With `--since` or in pre-commit, only statements the change adds.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.checkapi import Check, CheckContext, RuleDoc, quote
from linter.rules.findings import Finding
from linter.schema.model import SchemaModel
from linter.schema.refused import Alteration, ColumnChange


def _check_query(table: str, change: ColumnChange) -> str:
    """A query that counts the rows the change would cut or refuse (where the kind says how)."""
    column = quote(change.old.name)
    new = change.new
    kind = new.type.upper()
    if kind in ("CHAR", "VARCHAR") and new.length is not None:
        condition = f"CHAR_LENGTH({column}) > {new.length}"
    elif kind in ("BINARY", "VARBINARY") and new.length is not None:
        condition = f"LENGTH({column}) > {new.length}"
    elif new.charset and change.old.type.upper() in ("CHAR", "VARCHAR", "TEXT", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT"):
        condition = f"{column} <> CONVERT({column} USING {new.charset})"
    else:
        return (f"-- look at the values first (the change: {change.loss}):\n"
                f"SELECT MIN({column}), MAX({column}) FROM {table};")
    return f"-- the rows it would cut (or fail on, under strict sql_mode):\nSELECT COUNT(*) FROM {table} WHERE {condition};"


class DestructiveChange(Check):
    id = "destructive-change"
    title = "DROP TABLE, DROP COLUMN or a narrowing change on a table with rows"
    severity = "warning"
    judges_alterations = True
    doc = RuleDoc(
        why=(
            "A migration that drops a table or a column, or redefines a column to hold less (a shorter VARCHAR, a "
            "smaller integer, fewer fractional digits, utf8mb4 to utf8mb3 or latin1), destroys data that no down "
            "migration brings back. Under the default strict sql_mode a narrowing ALTER fails at the first row "
            "that does not fit, after copying the table up to there; without it the server cuts the values without "
            "a word. Reviewers miss it in a long migration; Flyway, Atlas and Skeema's lint ask for an explicit "
            "opt-in for the same changes."
        ),
        evidence=(
            "The statement, the table as the input leaves it before it, and for a redefined column its old and new "
            "type and character set (`ALTER TABLE ... CONVERT TO CHARACTER SET` counts for each text column). "
            + "Which tables: only those that existed before the change (a table the change creates is empty). With "
            "--since or in pre-commit, the statements the change adds, on tables it did not create; without a change "
            "set each file is a change: a table an earlier migration created counts, one created earlier in the same "
            "file (a dump, an install script that adds keys by ALTER after its CREATEs) does not."
        ),
        bad=(
            "-- V1__customer.sql\n"
            "CREATE TABLE customer (id INT PRIMARY KEY, name VARCHAR(200), note TEXT) DEFAULT CHARSET=utf8mb4;\n"
            "-- V2__shrink.sql\n"
            "ALTER TABLE customer MODIFY name VARCHAR(50), DROP COLUMN note;"
        ),
        good=(
            "-- V1__customer.sql\n"
            "CREATE TABLE customer (id INT PRIMARY KEY, name VARCHAR(200), note TEXT) DEFAULT CHARSET=utf8mb4;\n"
            "-- V2__widen.sql\n"
            "ALTER TABLE customer MODIFY name VARCHAR(400);"
        ),
        fix=(
            "Make it deliberate: check what would be lost first (the query the finding gives), keep a copy of what is "
            "dropped (a table renamed away and dropped in a later migration once nothing reads it, a column copied "
            "out), and suppress the finding with its reason (`-- innolint: ignore[destructive-change] ...`)."
        ),
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        for alteration in model.alterations:
            if not (alteration.drops_table or alteration.dropped or alteration.changed):
                continue
            if not (context.in_change(alteration.where) and context.existed_before(alteration.defined, alteration.where)):
                continue
            yield from self._findings(alteration)

    def _findings(self, alteration: Alteration) -> Iterator[Finding]:
        table = (f"{quote(alteration.schema)}.{quote(alteration.table_name)}" if alteration.schema
                 else quote(alteration.table_name))
        where = alteration.where
        created = f"created at {alteration.defined.at}"

        def finding(message: str, summary: str, subject: str, fix: str, evidence: str) -> Finding:
            return Finding(rule=self.id, severity=self.severity, path=where.path, line=where.line, column=where.column,
                           end_line=where.end_line, schema=alteration.schema, table=alteration.table_name,
                           message=message, summary=summary, evidence=evidence, fix=fix, subject=subject)

        if alteration.drops_table:
            yield finding(
                f"{alteration.statement} drops table {alteration.table_name} ({created}, before this change) with "
                "every row it holds; no down migration brings them back. Rename it away instead and drop it in a "
                "later migration, once nothing reads it (and after a backup).",
                f"{alteration.table_name}: DROP TABLE of a table that has rows", "drop-table",
                f"RENAME TABLE {table} TO {quote(alteration.table_name + '_dropped')};  -- DROP TABLE it later",
                f"DROP TABLE of {alteration.table_name}, {created}")
        for column in alteration.dropped:
            yield finding(
                f"{alteration.statement} drops column {alteration.table_name}.{column.name} ({column.type}) and every "
                f"value in it; the table was {created}, before this change. Stop reading and writing it first, copy it "
                "out if it may be needed, and drop it in a later migration.",
                f"{alteration.table_name}.{column.name}: DROP COLUMN on a table that has rows", f"drop-column:{column.name}",
                f"CREATE TABLE {quote(alteration.table_name + '_' + column.name + '_backup')} AS SELECT * FROM {table};"
                "  -- or the key and this column only", f"DROP COLUMN {column.name} {column.type}")
        for change in alteration.changed:
            yield finding(
                f"{alteration.statement} redefines {alteration.table_name}.{change.old.name} to hold less: "
                f"{change.loss}. Under strict sql_mode (the default) the ALTER fails at the first row that does not "
                "fit, after copying the rows before it; without it the server changes those values without a word.",
                f"{alteration.table_name}.{change.old.name}: {change.loss.split(':')[0]} loses values",
                f"narrowing:{change.old.name}", _check_query(table, change), change.loss)
