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
from dataclasses import replace

from checks.scope import Problem, foreign_key_columns, is_system_schema, sentences, statement_of
from linter.schema import innodb_sizes as sizes
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified
from linter.rules.findings import Finding
from linter.schema.elements import Column, Location
from linter.schema.model import Schema, SchemaModel, Table, TableBody
from linter.schema.refused import Refusal, RowRepeat
from linter.schema.target import Target

SERVER_ROW_ERROR = (
    "ERROR 1118 (42000): Row size too large. The maximum row size for the used table type, not counting BLOBs, is "
    "65535. This includes storage overhead, check the manual. You have to change some columns to TEXT or BLOBs"
)


def innodb_row_error(fmt: sizes.RowFormat) -> str:
    """The server's text for a record over InnoDB's limit (verified on MariaDB for each format;
    COMPRESSED tables quote the uncompressed page's 8126 too)."""
    if sizes.has_large_prefix(fmt):
        return ("ERROR 1118 (42000): Row size too large (> 8126). Changing some columns to TEXT or BLOB may help. "
                "In current row format, BLOB prefix of 0 bytes is stored inline.")
    limit = sizes.PAGE_RECORD_MAX["redundant" if fmt == "redundant" else "compact"]
    return (f"ERROR 1118 (42000): Row size too large (> {limit}). Changing some columns to TEXT or BLOB or using "
            "ROW_FORMAT=DYNAMIC or ROW_FORMAT=COMPRESSED may help. In current row format, BLOB prefix of 768 bytes "
            "is stored inline.")


def column_length_error(column: str, limit: int) -> str:
    return f"ERROR 1074 (42000): Column length too big for column '{column}' (max = {limit}); use BLOB or TEXT instead"


def _server(target: Target) -> str:
    return target.label


def row_problem(table: Table, target: Target, schema: Schema | None = None, *, innodb: bool | None = None) -> Problem | None:
    """The one decision: whether the server refuses the table's rows (and how), or InnoDB cannot
    store its longest rows; None when every row fits. `innodb`: judge it as an InnoDB table
    (default: as its engine says), which non-innodb-engine asks of an ENGINE=InnoDB conversion.
    Kinds: column-length (ERROR 1074), server-row (65,535), innodb-create (refused at CREATE),
    innodb-rows (created, but full rows fail); the columns: those at fault (column-length) or the
    largest ones (for the evidence and the fix)."""
    innodb = table.is_innodb if innodb is None else innodb
    label = _server(target)
    for column in table.columns.values():
        charset = sizes.column_charset(column, table, target, schema)
        limit = sizes.column_length_limit(column, charset, target)
        if limit is not None and column.length is not None and column.length > limit:
            unit = "characters" if column.type.upper() in ("CHAR", "VARCHAR") else "bytes"
            how = f" in {charset.describe()}" if column.type.upper() == "VARCHAR" and charset is not None else ""
            refusal = (f"{label} refuses it under strict sql_mode, the default (without it the column silently "
                       "becomes a TEXT/BLOB type, Note 1246)" if column.type.upper() in ("VARCHAR", "VARBINARY")
                       else f"{label} refuses it whatever the sql_mode")
            return Problem(
                "column-length", "error",
                f"{table.name}.{column.name}: {column.type}({column.length}) is longer than the type allows "
                f"({limit:,} {unit}{how}); {refusal}: {column_length_error(column.name, limit)}",
                f"{column.name} {column.type}({column.length}): at most {limit:,} {unit}",
                (column.name,),
            )
    size = sizes.row_size(table, target, schema)
    if size.server_bytes <= sizes.MAX_ROW_BYTES and (not innodb or (
            size.create_check_bytes < size.record_limit and size.worst_bytes < size.record_limit)):
        return None  # (every row fits: the evidence below, the largest columns, is not needed)
    largest = _largest_columns(table, target, schema)
    unknown = f"; not counted (size unknown): {', '.join(size.unknown)}" if size.unknown else ""
    if size.server_bytes > sizes.MAX_ROW_BYTES:
        return Problem(
            "server-row", "error",
            f"{table.name}: the row is {size.server_bytes:,} bytes, over the server's 65,535-byte row limit (BLOB and "
            f"TEXT count 9 to 12 bytes); every server refuses it, whatever the engine: {SERVER_ROW_ERROR}",
            f"{size.server_bytes:,} bytes = the columns' bytes (CHAR/VARCHAR: length x bytes per character, plus 1-2 "
            f"length bytes) + NULL flags; largest: {_listed(largest)}{unknown}",
            tuple(name for name, _ in largest),
        )
    if not innodb:
        return None
    fmt = size.row_format
    limit = size.record_limit
    counted = (f"InnoDB's count of the {fmt.upper()} record: {size.create_check_bytes:,} bytes (record header, NULL "
               f"flags, system columns, each column's largest value; columns that may go off-page as what they leave "
               f"in the record), limit {limit:,}; largest: {_listed(largest)}{unknown}")
    if size.create_check_bytes >= limit:
        off = "ON (the default since MariaDB 10.2.2)" if target.is_mariadb else "ON (the default since MySQL 5.7.7)"
        return Problem(
            "innodb-create", "error",
            f"{table.name}: a row can need {size.create_check_bytes:,} bytes in InnoDB's {fmt.upper()} record, over the "
            f"{limit:,}-byte limit (half a 16K page); {label} refuses the table with innodb_strict_mode={off}: "
            f"{innodb_row_error(fmt)} With innodb_strict_mode=OFF it is created with that warning and INSERTs of long "
            "rows fail.",
            counted, tuple(name for name, _ in largest),
        )
    if size.worst_bytes >= limit:
        why = ("MySQL's count takes 41 bytes for each variable-length column over 40 bytes, off-page or not"
               if not target.is_mariadb else
               "MariaDB's count takes 21 bytes for each column that may go off-page, but a value of up to 40 bytes "
               "stays in the record")
        later = ""
        if not target.is_mariadb and not sizes.has_large_prefix(fmt):
            later = (" Recent MySQL 8.0 releases and 8.4 count the 768-byte prefix of COMPACT/REDUNDANT at CREATE "
                     "and refuse the table itself.")
        return Problem(
            "innodb-rows", "warning",
            f"{table.name}: {label} creates the table ({why}), but a row whose columns are filled needs "
            f"{size.worst_bytes:,} bytes in the {fmt.upper()} record, over the {limit:,}-byte limit: an INSERT or "
            f"UPDATE of such a row fails with {innodb_row_error(fmt)}{later}",
            f"the longest record: {size.worst_bytes:,} bytes (off-page: {_names(size.off_page)}; each "
            f"leaves {'41' if sizes.has_large_prefix(fmt) else '790'} bytes), limit {limit:,}; {counted}",
            tuple(name for name, _ in largest),
        )
    return None


def _largest_columns(table: Table, target: Target, schema: Schema | None) -> list[tuple[str, str]]:
    """The five columns with the largest values, as (name, 'VARCHAR(5000) utf8mb4: 20,002')."""
    found = []
    for column in table.columns.values():
        charset = sizes.column_charset(column, table, target, schema)
        size = sizes.column_bytes(column, charset)
        if size is None or size.max_bytes is None:
            continue
        label = column.type + (f"({','.join(column.params)})" if column.params and column.type not in ("ENUM", "SET") else "")
        if charset is not None and charset.charset != "binary" and column.type.upper() in ("CHAR", "VARCHAR"):
            label += f" {charset.charset}"
        found.append((size.max_bytes, column.name, f"{column.name} {label}: {size.max_bytes:,}"))
    found.sort(key=lambda item: -item[0])
    return [(name, text) for _, name, text in found[:5]]


def _names(names: tuple[str, ...]) -> str:
    return (", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")) or "none"


def _listed(largest: list[tuple[str, str]]) -> str:
    return ", ".join(text for _, text in largest) or "none"


# --- the fix -------------------------------------------------------------------------------------
_LOB_FOR = {"VARCHAR": "TEXT", "CHAR": "TEXT", "VARBINARY": "BLOB", "BINARY": "BLOB"}


def as_lob(column: Column, charset: sizes.ResolvedCharset | None) -> Column:
    """The column as the smallest TEXT/BLOB type that holds its longest value."""
    text = column.type.upper() in ("CHAR", "VARCHAR")
    nbytes = (column.length or 1) * ((charset.maxlen or 4) if text and charset is not None else 1)
    kind = "TEXT" if text else "BLOB"
    if nbytes > 65_535:
        kind = "MEDIUM" + kind
    return replace(column, type=kind, params=())


def with_columns(table: Table, columns: dict[str, Column], **options: object) -> Table:
    """A copy of the table with other columns (and table options), for asking what-if."""
    body = TableBody(columns, table.indexes, table.foreign_keys, replace(table.options, **options) if options else table.options)
    return Table(table.schema, table.name, body, table.defined, table.changed, table.temporary, table.origin)


def _indexed(table: Table) -> set[str]:
    """Columns a key or a foreign key of the table uses (a TEXT key part needs a prefix; a
    foreign key's columns must keep their type)."""
    return ({part.name.lower() for index in table.indexes for part in index.columns}
            | {name.lower() for key in table.foreign_keys for name in key.columns})


def shrink(table: Table, target: Target, schema: Schema | None, *, innodb: bool | None = None,
           locked: frozenset[str] = frozenset()) -> tuple[list[Column], bool] | None:
    """The columns to make TEXT/BLOB (the fewest, largest first), and whether ROW_FORMAT=DYNAMIC is
    needed, for the table's rows to fit; None when that cannot be done this way. Columns in a key
    (a TEXT key part needs a prefix), generated columns, on MySQL columns with a literal DEFAULT (a
    TEXT column takes none there), and the `locked` ones (columns other tables' foreign keys
    reference: checks.scope.foreign_key_columns) are left as they are. Only columns longer than 41
    bytes are moved: each then counts less as a TEXT/BLOB in every count, so the number needed is
    found by bisection (O(n log n): a hostile 4,000-column table is not a quadratic search)."""
    original = row_problem(table, target, schema, innodb=innodb)
    refused = original is not None and original.severity == "error"

    def solved(candidate: Table, *, fully: bool) -> bool:
        """No problem left; or, not `fully`, none the server refuses (the warning that a row of
        short values may not fit can stay: the table loads)."""
        left = row_problem(candidate, target, schema, innodb=innodb)
        return left is None or (not fully and left.severity != "error")

    base, dynamic = table, False
    if not sizes.has_large_prefix(sizes.row_format(table)):  # COMPACT keeps 768 bytes of a TEXT in the row
        base, dynamic = with_columns(table, dict(table.columns), row_format="DYNAMIC"), True
        if solved(base, fully=True):
            return [], True
    candidates = []
    indexed = _indexed(table) | locked
    for column in table.columns.values():
        if column.type.upper() not in _LOB_FOR or column.generated or column.name.lower() in indexed:
            continue
        if not target.is_mariadb and column.default is not None and column.default.upper() != "NULL":
            continue
        charset = sizes.column_charset(column, table, target, schema)
        size = sizes.column_bytes(column, charset)
        if size is not None and size.max_bytes is not None and size.max_bytes > sizes.LOCAL_STORED_MAX_BYTES + 1:
            candidates.append((size.max_bytes, as_lob(column, charset)))
    candidates.sort(key=lambda item: -item[0])
    lobs = [lob for _, lob in candidates]

    def fits(k: int, fully: bool) -> bool:
        columns = dict(base.columns)
        for lob in lobs[:k]:
            columns[lob.name.lower()] = lob
        return solved(with_columns(base, columns), fully=fully)

    # every problem gone if moving columns can do it, else (for a refusal) what the server refuses
    for fully in (True, False) if refused else (True,):
        if dynamic and solved(base, fully=fully):
            return [], True
        if not lobs or not fits(len(lobs), fully):
            continue
        lo, hi = 1, len(lobs)
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if fits(mid, fully) else (mid + 1, hi)
        return lobs[:lo], dynamic
    return None


def fix_clauses(table: Table, target: Target, schema: Schema | None, *, innodb: bool | None = None,
                locked: frozenset[str] = frozenset()) -> list[str] | None:
    """The ALTER TABLE clauses that make the rows fit (MODIFY COLUMN ... TEXT, ROW_FORMAT=DYNAMIC),
    or None when innolint finds none."""
    from checks.compression_candidate import kept_definition  # the one way a MODIFY is written

    found = shrink(table, target, schema, innodb=innodb, locked=locked)
    if found is None:
        return None
    moved, dynamic = found
    clauses = [f"MODIFY COLUMN {kept_definition(column, target)}" for column in moved]
    if dynamic:
        clauses.append("ROW_FORMAT=DYNAMIC")
    return clauses


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
