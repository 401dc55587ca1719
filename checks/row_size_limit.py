"""row-size-limit: a row the server refuses, or one InnoDB cannot store.

Three limits, each counted by linter.schema.innodb_sizes the way the server counts it (checked against
MariaDB with generated tables in tests/test_innodb_sizes.py):
- a column longer than its type allows (CHAR over 255, VARCHAR over 65,535 bytes): ERROR 1074
  under strict sql_mode, the default everywhere;
- the server's row over 65,535 bytes (BLOB/TEXT count 9-12): ERROR 1118, every server, any engine;
- InnoDB's record over half a page (8,126 bytes; 8,123 in REDUNDANT). InnoDB counts it when it
  creates the table and, with innodb_strict_mode=ON (the default since MySQL 5.7.7 and MariaDB
  10.2.2), refuses: ERROR 1118. A table its count lets through can still have rows that do not
  fit (a column counted off-page whose value is too short to leave the page, MySQL's 41-byte
  count of a VARCHAR(100)): the CREATE passes and an INSERT of such a row fails, a warning.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.scope import Problem, foreign_key_columns, is_system_schema, sentences, statement_of
from linter.schema import innodb_sizes as sizes
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified
from linter.rules.findings import Finding
from linter.parse.elements import Location
from linter.schema.model import SchemaModel, Table
from linter.schema.refused import Refusal, RowRepeat
from linter.rules.row_size import SERVER_ROW_ERROR, fix_clauses, row_problem


class RowSizeLimit(Check):
    id = "row-size-limit"
    title = "Row the server refuses, or InnoDB cannot store"
    severity = "error"
    doc = RuleDoc(
        why=(
            "A CREATE TABLE or ALTER TABLE that the server refuses fails on deploy, the most expensive place to find "
            "it. The server limits a row to 65,535 bytes whatever the engine (MySQL 8.0 manual 10.4.7 \"Limits on "
            "Table Column Count and Row Size\"; BLOB/TEXT count 9 to 12 bytes), and refuses a CHAR over 255 or a "
            "VARCHAR over 65,535 bytes under strict sql_mode (ERROR 1074). InnoDB stores a row in a record of at "
            "most half a 16K page, 8,126 bytes (8,123 in REDUNDANT). Columns that may go off-page (TEXT, BLOB, and "
            "VARCHAR/CHAR/VARBINARY longer than 255 bytes) leave a 20-byte reference in DYNAMIC and COMPRESSED "
            "rows, the first 768 bytes and the reference in COMPACT and REDUNDANT ones; everything else stays in "
            "the record. InnoDB counts the largest record when it creates the table and, with innodb_strict_mode=ON "
            "(the default since MySQL 5.7.7 and MariaDB 10.2.2), refuses it (ERROR 1118). Where its count lets a "
            "table through whose full rows do not fit, the CREATE passes and INSERTs fail later."
        ),
        evidence=(
            "Bytes per character of each column's character set (column, table, CREATE DATABASE, then the target's "
            "default), the storage size of each type (MySQL 8.0 manual 13.7), the row format (DYNAMIC when none is "
            "written), InnoDB's record header, NULL flags and system columns (DB_TRX_ID, DB_ROLL_PTR, DB_ROW_ID), "
            "counted as the target's InnoDB counts them: MariaDB's rec_potentially_too_big (verified against the "
            "test MariaDB with generated tables) or MySQL's dict_index_too_big_for_tree. The message quotes the "
            "server's own error; the evidence gives the byte count and the largest columns. Assumed: "
            "innodb_page_size=16K, the targets' default row format, no configuration file changing the character set."
        ),
        bad=(
            "-- COMPACT keeps 768 bytes of each VARCHAR(255) utf8mb4 (up to 1,020 bytes) in the record: 11 x 790\n"
            "CREATE TABLE survey_answer (\n  id INT PRIMARY KEY,\n"
            + "".join(f"  q{n} VARCHAR(255),\n" for n in range(1, 12)) +
            "  answered_at DATETIME\n) DEFAULT CHARSET=utf8mb4 ROW_FORMAT=COMPACT;"
        ),
        good=(
            "CREATE TABLE survey_answer (\n  id INT PRIMARY KEY,\n"
            + "".join(f"  q{n} VARCHAR(255),\n" for n in range(1, 12)) +
            "  answered_at DATETIME\n) DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC;  -- 20-byte references only"
        ),
        fix=(
            "ROW_FORMAT=DYNAMIC when the row fits there (COMPACT and REDUNDANT keep 768 bytes of every long column in "
            "the record); else the largest VARCHAR/CHAR/VARBINARY columns that are not in a key as TEXT/BLOB (stored "
            "off-page), as many as the row needs. The fix is the ALTER TABLE for a table that exists; where the "
            "server refuses the CREATE TABLE itself, write the same changes into it. A column too long for its type "
            "becomes the TEXT/BLOB type that holds it. When nothing of that kind fits, split the table: move rarely "
            "read columns to a 1:1 side table."
        ),
    )

    refusal_kinds = frozenset({"row-size"})

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        joined = foreign_key_columns(model)

        def judge(table: Table) -> Iterator[Finding]:
            if not table.columns or is_system_schema(table.schema):
                return  # CREATE ... LIKE of an unknown table, CREATE ... SELECT: columns unknown
            schema = sizes.schema_of(model, table)
            problem = row_problem(table, context.target, schema)
            if problem is not None:
                locked = frozenset(joined.get(id(table), ()))
                yield self._finding(table, problem, fix_clauses(table, context.target, schema, locked=locked),
                                    statement_of(table))

        yield from judged_once(model, context, judge)
        # the statements the replay refused for a column too long for its type or a row too long
        # (linter.server.column_lengths, kind "row-size"): not in the model; the fix is what to
        # write in the statement instead
        for refused in model.refusals:
            if refused.reported_by != self.id or refused.table is None:
                continue
            if isinstance(refused.detail, RowRepeat):  # one more refused on the table as it stood: its row's bytes
                yield self._repeat(refused)
                continue
            schema = sizes.schema_of(model, refused.table)
            problem = row_problem(refused.table, context.target, schema)
            if problem is not None:
                yield self._finding(refused.table, problem, fix_clauses(refused.table, context.target, schema),
                                    refused.where, refused=True)

    def _repeat(self, refused: Refusal) -> Finding:
        """An ALTER refused for the row of a table that has not changed since ALTERs refused the
        same way before (`CheckedRefusals._refused_row`): its row's bytes, and where the first one is
        whose finding gives the columns to move off-page (worked out again for each, a long run of
        them cost the whole table's analysis each)."""
        table, repeat = refused.table, refused.detail
        assert table is not None and isinstance(repeat, RowRepeat)
        first, row_bytes = repeat.like, repeat.row_bytes
        defined = ", ".join(table.columns) or "none"
        return self.finding(
            table, f"{table.name}: the row is {row_bytes:,} bytes, over the server's 65,535-byte row limit; "
            f"every server refuses it, whatever the engine: {SERVER_ROW_ERROR}. The server runs none of the statement; "
            f"the table is as it was at line {first.line}, whose ALTER the server refuses for its row too: that "
            "finding gives the columns to make TEXT first",
            severity="error", where=refused.where, subject="server-row",
            evidence=f"{row_bytes:,} bytes with the columns this statement defines ({defined})",
            summary=f"{table.name}: the row is over the server's 65,535-byte row limit",
        )

    def _finding(self, table: Table, problem: Problem, clauses: list[str] | None, where: Location, *,
                 refused: bool = False) -> Finding:
        """`refused`: the replay refused the statement (the table is not in the model): the fix's
        changes are to be written into it."""
        fix = f"ALTER TABLE {qualified(table)} {', '.join(clauses)};" if clauses else None
        message = problem.message
        if refused and clauses:
            message = sentences(message, "The server runs none of the statement: write the fix's changes into it "
                                         f"instead ({'; '.join(clauses)})")
        if clauses is None:
            message = sentences(message, "innolint finds no column it can move off-page: split the table (rarely read "
                                         "columns to a 1:1 side table).")
        # a row's problem may name no column (a row of TEXT columns only has none to move off-page: MariaDB's
        # innodb-32k test table of 197): only a column-length problem is about one, and always names it
        if problem.kind == "column-length":
            summary = f"{table.name}.{problem.columns[0]}: longer than its type allows"
            subject = f"column-length:{problem.columns[0]}"
        else:
            summary = _ROW_SUMMARIES.get(problem.kind, "").format(table=table.name) or None
            subject = problem.kind
        return self.finding(
            table, message, severity=problem.severity, where=where, evidence=problem.evidence,
            fix=fix, subject=subject, summary=summary,
        )


#: the one line a terminal shows for each kind of row problem ({table}: its name)
_ROW_SUMMARIES = {
    "server-row": "{table}: the row is over the server's 65,535-byte row limit",
    "innodb-create": "{table}: a row can pass InnoDB's record limit: the server refuses the table",
    "innodb-rows": "{table}: a full row passes InnoDB's record limit: INSERTs of long rows fail",
}
