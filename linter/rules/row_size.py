"""InnoDB's row size limits as the rules judge and fix them: whether the target refuses a table's
row or cannot store some rows (checks/row_size_limit.py's docstring says the three limits), and
the clauses that make it fit (moving wide columns off the page, the row format).

One decision shared by several readers: row-size-limit reports it, charset-portability and
non-innodb-engine ask it of a converted copy of a table."""

from __future__ import annotations

from dataclasses import replace
from linter.rules.scope import Problem
from linter.schema import innodb_sizes as sizes
from linter.parse.elements import Column
from linter.schema.model import Schema, Table
from linter.parse.body import TableBody
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
    if not sizes.row_may_be_too_big(table):
        return None  # (most tables: measured, every row fits on every target)
    innodb = table.is_innodb if innodb is None else innodb
    label = _server(target)
    charsets: list[sizes.ResolvedCharset | None] = []
    for column in table.columns.values():
        charset = sizes.column_charset(column, table, target, schema)
        charsets.append(charset)
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
    size = sizes.row_size(table, target, schema, charsets)
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
    reference: linter.rules.scope.foreign_key_columns) are left as they are. Only columns longer than 41
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
    from linter.rules.column_sql import kept_definition  # the one way a MODIFY is written

    found = shrink(table, target, schema, innodb=innodb, locked=locked)
    if found is None:
        return None
    moved, dynamic = found
    clauses = [f"MODIFY COLUMN {kept_definition(column, target)}" for column in moved]
    if dynamic:
        clauses.append("ROW_FORMAT=DYNAMIC")
    return clauses
