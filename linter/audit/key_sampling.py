"""`innolint audit --sample N`: read a few values of each UUID-like leading key column and tell
which UUID version they are.

Why: CHAR(36) or BINARY(16) in the DDL says nothing about the order rows arrive in. Random
UUIDv4 keys send each insert to a random leaf page; UUIDv7 (and v6) are time-ordered in text and
bytes alike; UUIDv1 is random as text (time_low first) but ordered when stored with the high part
of the timestamp first (UUID_TO_BIN(UUID(), 1), MariaDB's UUID type); and a CHAR(36) may hold
order numbers that are no UUIDs at all. The version nibble of a few real values settles it.

What is read: for each InnoDB table whose clustered index leads with a column uuid-primary-key
reads as a UUID, at most N values (N from --sample) in four primary-key ranges:
``SELECT col FROM t WHERE col >= <start> ORDER BY col LIMIT N/4`` with starts spread over the
key space (hex 0, 4, 8, c). Each is a range read on the clustered index that stops after N/4
rows, so a billion-row table costs the same as a small one, and the ranges see keys from
different parts of the index (the lowest keys alone would be all v7 in a table that mixes v7 with
v4). When the ranges come back short (time-ordered keys crowd into one part of the key space), the
rest is read from the top of the index (ORDER BY col DESC LIMIT the rest: the newest keys). Every
query goes through the read-only connection.

A key on a prefix of the column (``PRIMARY KEY (id(8))``) is not in the column's order: ORDER BY
col would sort every row in range (a filesort over the table, for each range). For such a key
the ranges are read in the index's own order instead (``FORCE INDEX (key) WHERE col >= start
LIMIT n``, no ORDER BY: the range scan stops after n rows), and there is no "newest keys" read
(only a sort could find them). On MariaDB every read also carries ``ROWS EXAMINED`` (10 rows
per row wanted), so a plan that would scan more is stopped by the server whatever the optimizer
chose.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from linter.rules.uuid_keys import uuid_key
from linter.audit.connection import AuditQueryError, ReadOnlyConnection
from linter.audit.coverage import KEYS, Coverage
from linter.audit.sampling import EXAMINED_PER_VALUE
from linter.rules.checkapi import KeySample, quote
from linter.schema.model import SchemaModel, Table

__all__ = ["RANGES", "SampledKey", "classify", "key_column", "sample_keys", "sample_queries"]

#: how many primary-key ranges the sample is spread over
RANGES = 4
_TEXT_UUID = re.compile(
    r"\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?", re.IGNORECASE)
_FORMS = {"text": "text", "binary": "binary", "native": "native"}


def _uuid_bytes(value: object) -> bytes | None:
    """The 16 bytes of a UUID given as 16 bytes or as text (with or without dashes or braces)."""
    if isinstance(value, bytearray | memoryview):
        value = bytes(value)
    if isinstance(value, bytes):
        if len(value) == 16:
            return value
        try:
            value = value.decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(value, str):
        return None
    match = _TEXT_UUID.fullmatch(value.strip())
    return bytes.fromhex("".join(match.groups())) if match else None


def _standard(b: bytes) -> str | None:
    """'v1' ... 'v8' for the RFC 9562 layout (version in byte 6's high nibble, variant 10 in
    byte 8), None otherwise. The nil and max UUIDs are no version."""
    version = b[6] >> 4
    if b[8] >> 6 == 2 and 1 <= version <= 8:
        return f"v{version}"
    return None


def _shown(value: object) -> str:
    """A value for a message: printable ASCII, at most 40 characters; bytes as hex."""
    if isinstance(value, bytes | bytearray | memoryview):
        return "0x" + bytes(value)[:16].hex()
    text = str(value)
    safe = "".join(ch if " " <= ch <= "~" else "?" for ch in text[:40])
    return safe + ("..." if len(text) > 40 else "")


def classify(values: Sequence[object], form: str, how: str = "") -> KeySample:
    """The UUID versions of `values`. A sample whose bytes all carry version 1 in the first
    nibble (and the RFC variant) while byte 6 varies is version 1 stored swapped; 16-byte values
    without a UUID layout whose middle bytes all differ are "random-bytes" (RANDOM_BYTES(16),
    a hash), random in key order just the same."""
    counts: Counter[str] = Counter()
    examples: list[str] = []
    parsed: list[bytes] = []
    for value in values:
        b = _uuid_bytes(value)
        if b is None:
            counts["not-uuid"] += 1
            if len(examples) < 3:
                examples.append(_shown(value))
        else:
            parsed.append(b)
    labels = [_standard(b) for b in parsed]
    # version 1 in the first nibble throughout: swapped v1, unless the standard reading is
    # consistent too as v1 (then the standard v1 is the likelier, and the safer, reading) or v6
    # (whose high timestamp bits start with 1 in this century; ordered either way)
    swapped = bool(parsed) and all(b[0] >> 4 == 1 and b[8] >> 6 == 2 for b in parsed) and not (
        set(labels) in ({"v1"}, {"v6"}))
    unlabelled = [b for b, label in zip(parsed, labels) if label is None]
    # 16 bytes of noise, not a counter, a padded string or another pattern: the middle bytes take
    # many distinct values (random bytes: ~89% distinct in 64 bytes, ASCII digits at most 10)
    middle = b"".join(b[4:12] for b in unlabelled)
    random_bytes = form == "binary" and len(unlabelled) >= 2 and len(set(middle)) * 2 >= min(256, len(middle))
    for b, label in zip(parsed, labels):
        if swapped:
            counts["v1-swapped"] += 1
        elif label is None and random_bytes:
            counts["random-bytes"] += 1
        elif label is None:
            counts["not-uuid"] += 1
            if len(examples) < 3:
                examples.append(_shown(b if form == "binary" else str(b.hex())))
        else:
            counts[label] += 1
    return KeySample(sampled=len(values), counts=dict(counts), form=_FORMS.get(form, form), how=how,
                     examples=tuple(examples))


@dataclass(frozen=True)
class SampledKey:
    """The leading column of a table's clustered key that looks like a UUID, as the key has it."""

    column: str
    form: str  # "text", "binary" or "native"
    #: the key's name (PRIMARY, or the UNIQUE key InnoDB clusters on)
    index: str
    #: the key covers only this many characters (bytes) of the column; None: all of it
    prefix: int | None = None


def key_column(table: Table) -> SampledKey | None:
    """The table's UUID-like leading clustered-key column, None when it has none."""
    key = table.clustered_index
    if key is None or not key.columns or key.columns[0].expression:
        return None
    column = table.column(key.columns[0].name)
    if column is None or column.auto_increment:
        return None
    found = uuid_key(table, column)
    if found is None:
        return None
    index = "PRIMARY" if key.kind == "primary" or key.name is None else key.name
    return SampledKey(column.name, found.form, index, key.columns[0].prefix)


def _starts(form: str) -> list[str]:
    """SQL literals spread over the key space, one per range."""
    if form == "binary":
        return [f"X'{n:02X}'" for n in range(0, 256, 256 // RANGES)]
    if form == "native":
        return [f"'{n:02x}000000-0000-0000-0000-000000000000'" for n in range(0, 256, 256 // RANGES)]
    return [f"'{n:x}'" for n in range(0, 16, 16 // RANGES)]


def _bound(rows: int, mariadb: bool) -> str:
    return f" ROWS EXAMINED {EXAMINED_PER_VALUE * rows}" if mariadb else ""


def sample_queries(table: Table, key: SampledKey, limit: int, mariadb: bool = False) -> list[str]:
    """The bounded reads for one key column: RANGES range reads of at most limit/RANGES rows, in
    the column's order on a whole-column key, in the index's on a prefix key."""
    per_range = max(1, int(limit) // RANGES)
    col = quote(key.column)
    source = f"{quote(table.schema or '')}.{quote(table.name)}"
    if key.prefix is not None:
        return [f"SELECT {col} FROM {source} FORCE INDEX ({quote(key.index)}) WHERE {col} >= {start} "
                f"LIMIT {per_range}{_bound(per_range, mariadb)}" for start in _starts(key.form)]
    return [f"SELECT {col} FROM {source} WHERE {col} >= {start} ORDER BY {col} LIMIT {per_range}"
            f"{_bound(per_range, mariadb)}" for start in _starts(key.form)]


def _fill_query(table: Table, key: SampledKey, missing: int, mariadb: bool = False) -> str | None:
    """Time-ordered keys crowd into one part of the key space (all v7 text starts with 01...),
    so the ranges come back short: the rest is read from the top of the index, the newest keys.
    None for a prefix key: only a sort of every row could find them."""
    if key.prefix is not None:
        return None
    col = quote(key.column)
    return (f"SELECT {col} FROM {quote(table.schema or '')}.{quote(table.name)} ORDER BY {col} DESC "
            f"LIMIT {int(missing)}{_bound(int(missing), mariadb)}")


def sample_keys(connection: ReadOnlyConnection, model: SchemaModel, limit: int,
                coverage: Coverage | None = None, tables: Iterable[Table] | None = None) -> dict[str, KeySample]:
    """Read and classify every UUID-like leading key column of the InnoDB tables; keys are
    "schema.table.column", lower-case, as `CheckContext.key_samples` holds them. ``coverage``
    hears of the tables left out and why."""
    found: dict[str, KeySample] = {}
    mariadb = connection.mariadb
    for table in (tables if tables is not None else model.tables()):
        if table.schema is None or table.view_standin or table.temporary or not table.is_innodb:
            continue
        key = key_column(table)
        if key is None or (coverage is not None and coverage.skip_blocked(KEYS, table.schema, table.name)):
            continue
        queries = sample_queries(table, key, limit, mariadb)
        values: list[object] = []
        seen: set[object] = set()
        wanted = max(1, int(limit) // RANGES) * RANGES

        def read(sql: str) -> None:
            for (value,) in connection.query(sql):
                item = bytes(value) if isinstance(value, bytearray | memoryview) else value
                if item not in seen:  # ranges overlap on a small table
                    seen.add(item)
                    values.append(item)

        try:
            for sql in list(queries):
                read(sql)
            fill = _fill_query(table, key, wanted - len(values), mariadb) if len(values) < wanted else None
            if fill is not None:
                queries.append(fill)
                read(fill)
        except AuditQueryError as error:
            if coverage is not None:
                coverage.could_not(KEYS, table.schema, table.name, error, column=key.column)
            continue
        if not values:
            if coverage is not None:
                coverage.left_out(KEYS, f"{table.schema}.{table.name}", "the table is empty: the DDL is all there is")
            continue
        how = f"{len(values):,} values read in {RANGES} primary-key ranges of at most " \
              f"{max(1, int(limit) // RANGES):,} rows"
        if len(queries) > RANGES:
            how += " and the newest keys"
        if key.prefix is not None:
            how += f" (in the order of the {key.prefix}-character prefix key)"
        found[f"{table.schema}.{table.name}.{key.column}".lower()] = classify(values, key.form, how)
    return found
