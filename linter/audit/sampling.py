"""`innolint audit --sample N`: measure what compression would do to a column's real values.

Why: the compression advice otherwise quotes published ratios (Percona: 0.82 without a
dictionary, 0.57 with 2 KB on JSON), but what a column saves depends on its data: JSON with
repeating keys compresses well, short notes and already-compressed bytes do not. With a sample
the message can say what this column's values did, and a Percona fix can carry a dictionary
trained on them instead of one concatenated from the first rows on the server.

What is read: for each candidate column of compression-candidate (large text, JSON, BLOB columns
of tables not compressed yet) in a table at least the check's ``min_size`` (below it the check
reports nothing, so the read would be load for no finding: the audit says which columns it left
out), ``SELECT SUBSTRING(col, 1, 64K), LENGTH(col) ... WHERE col IS NOT NULL LIMIT N``: at most
N values, each cut to 64 KiB so one huge BLOB cannot take the memory (the head of a value is
where a dictionary matters; further on zlib has the value's own text to refer to). LIMIT without
ORDER BY reads the first rows of the clustered index: cheap on any table, at the price of
favouring the oldest rows.

LIMIT bounds the rows sent, not the rows read: on a mostly-NULL column the server scans on until
it has N values, a million rows for none. On MariaDB the read also says ``ROWS EXAMINED 10N``:
the server stops after 10N rows (warning 1931) and sends what it found. MySQL has no such clause;
there the session's max_execution_time bounds the read (linter.audit.connection.SessionLimits).

How it is measured (linter.audit.dictionary): a dictionary is trained on the even-numbered
values and every odd-numbered value is compressed on its own, without and with it, so the ratio
is not flattered by values the dictionary has seen.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Sequence

from linter.schema.content import candidates
from linter.audit.connection import AuditQueryError, ReadOnlyConnection
from linter.audit.coverage import COMPRESSION, Coverage
from linter.audit.dictionary import TOO_SMALL_BYTES, ZLIB_LEVEL, measure, train_dictionary
from linter.rules.checkapi import ColumnMeasurement, quote
from linter.schema.model import SchemaModel, Table

__all__ = ["EXAMINED_PER_VALUE", "MAX_VALUE_BYTES", "measure_values", "page_ratio", "sample_columns", "value_query"]

#: a value is read up to this many bytes (characters for text)
MAX_VALUE_BYTES = 65536
#: fewer values than this and a ratio says nothing
MIN_VALUES = 4
#: the dictionary size: 2 KiB, Percona's best published setting
DICTIONARY_BYTES = 2048
#: a read for N values examines at most this many rows per value wanted (MariaDB: ROWS EXAMINED)
EXAMINED_PER_VALUE = 10
#: MariaDB's warning when LIMIT ROWS EXAMINED stopped a read (ER_QUERY_EXCEEDED_ROWS_EXAMINED_LIMIT)
ROWS_EXAMINED_STOPPED = 1931


def _stored(value: bytes, dictionary: bytes, too_small: int) -> int:
    """Bytes the server keeps for one value under column compression: values under the
    threshold as they are, others compressed unless that does not make them smaller."""
    if len(value) < too_small:
        return len(value)
    if dictionary:
        compressor = zlib.compressobj(level=ZLIB_LEVEL, zdict=dictionary)
        packed = len(compressor.compress(value) + compressor.flush())
    else:
        packed = len(zlib.compress(value, ZLIB_LEVEL))
    return min(len(value), packed)


PAGE_BYTES = 16384
BLOCK_BYTES = 4096


def page_ratio(values: Sequence[bytes]) -> float:
    """What page compression would keep of these values: packed one after the other into 16 KiB
    pages, each page compressed with zlib and rounded up to whole 4 KiB file-system blocks
    (page compression frees space by punching holes, block by block). Row headers and the other
    columns are left out, so this is an estimate for the column's share of the pages."""
    data = b"".join(values)
    if not data:
        return 1.0
    kept = 0
    for start in range(0, len(data), PAGE_BYTES):
        page = data[start:start + PAGE_BYTES]
        packed = len(zlib.compress(page, ZLIB_LEVEL))
        kept += min(len(page), -(-packed // BLOCK_BYTES) * BLOCK_BYTES)
    return kept / len(data)


def measure_values(values: Sequence[bytes], lengths: Sequence[int] | None = None, *,
                   table_rows: int | None = None, too_small: int = TOO_SMALL_BYTES,
                   dictionary_bytes: int = DICTIONARY_BYTES) -> ColumnMeasurement | None:
    """Train on the even-numbered values, measure on the odd-numbered ones; None when there are
    too few values to say anything. ``lengths`` are the values' full lengths (they may have been
    cut for reading), for the average value size."""
    if len(values) < MIN_VALUES:
        return None
    train, held_out = list(values[0::2]), list(values[1::2])
    dictionary = train_dictionary(train, dictionary_bytes)
    result = measure(held_out, dictionary, too_small)
    total = sum(len(v) for v in held_out)
    stored_plain = sum(_stored(v, b"", too_small) for v in held_out)
    stored_dict = sum(_stored(v, dictionary, too_small) for v in held_out)
    full = list(lengths) if lengths is not None else [len(v) for v in values]
    return ColumnMeasurement(
        sampled=len(values),
        measured=result.values,
        avg_bytes=sum(full) / len(full),
        ratio_plain=round(result.ratio_plain, 4),
        ratio_dict=round(result.ratio_dict, 4),
        share_too_small=round(result.share_too_small, 4),
        dictionary=dictionary,
        table_rows=table_rows,
        stored_plain=round(stored_plain / total, 4) if total else 1.0,
        stored_dict=round(stored_dict / total, 4) if total else 1.0,
        ratio_page=round(page_ratio(held_out), 4),
    )


def _as_bytes(value: object) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    return str(value).encode("utf-8")


def value_query(source: str, column: str, limit: int, mariadb: bool) -> str:
    """The bounded read of one column's values (see the module's docstring)."""
    col = quote(column)
    sql = (f"SELECT SUBSTRING({col}, 1, {MAX_VALUE_BYTES}), LENGTH({col}) FROM {source} "
           f"WHERE {col} IS NOT NULL LIMIT {int(limit)}")
    return sql + (f" ROWS EXAMINED {EXAMINED_PER_VALUE * int(limit)}" if mariadb else "")


def sample_columns(connection: ReadOnlyConnection, model: SchemaModel, limit: int,
                   rows: Callable[[Table], int | None] = lambda table: None,
                   size: Callable[[Table], int | None] = lambda table: None,
                   min_size: int = 0, coverage: Coverage | None = None,
                   tables: Iterable[Table] | None = None) -> dict[str, ColumnMeasurement]:
    """Measure every compression candidate column of the model's tables (or of ``tables``) on
    at most ``limit`` of its values. Keys are "schema.table.column", lower-case, as
    ``CheckContext.measurements`` holds them. ``rows`` gives a table's row count (for the bytes
    saved at its size), ``size`` its DATA_LENGTH: a table under ``min_size`` is not read.
    ``coverage`` hears of every column left out and why (a lock, no grant, too few values), and
    the sample goes on."""
    found: dict[str, ColumnMeasurement] = {}
    examined = EXAMINED_PER_VALUE * int(limit)
    for table in (tables if tables is not None else model.tables()):
        if table.schema is None or table.view_standin or table.temporary:
            continue
        chosen = candidates(table)
        if not chosen:
            continue
        bytes_ = size(table)
        if bytes_ is not None and bytes_ < min_size:
            if coverage is not None:
                for candidate in chosen:
                    coverage.left_out(COMPRESSION, f"{table.schema}.{table.name}.{candidate.column.name}",
                                      f"the table is under compression-candidate's min_size ({_human(min_size)}), "
                                      "below which it reports nothing (a lower [rules.compression-candidate] min_size measures them)")
            continue
        if coverage is not None and coverage.skip_blocked(COMPRESSION, table.schema, table.name):
            continue
        source = f"{quote(table.schema)}.{quote(table.name)}"
        for candidate in chosen:
            name = candidate.column.name
            try:
                result, warnings = connection.query_warned(value_query(source, name, limit, connection.mariadb))
            except AuditQueryError as error:
                if coverage is not None:
                    coverage.could_not(COMPRESSION, table.schema, table.name, error, column=name)
                    if coverage.blocked(table.schema, table.name):
                        break  # locked or slow: the table's other columns would wait as long
                continue
            values = [_as_bytes(value) for value, _ in result]
            lengths = [int(length) if length is not None else len(value)
                       for value, (_, length) in zip(values, result)]
            measured = measure_values(values, lengths, table_rows=rows(table))
            if measured is not None:
                found[f"{table.schema}.{table.name}.{name}".lower()] = measured
            elif coverage is not None:
                read = (f"in the first {examined:,} rows read (the rows-examined bound)"
                        if ROWS_EXAMINED_STOPPED in warnings else "(the table is empty or the column mostly NULL)")
                coverage.left_out(COMPRESSION, f"{table.schema}.{table.name}.{name}",
                                  f"fewer than {MIN_VALUES} non-NULL values {read}: nothing to measure")
    return found


def _human(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n:,} bytes"
