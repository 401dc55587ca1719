"""compression-candidate: InnoDB tables whose large columns would shrink under compression.

Which tables: InnoDB tables with large variable-length columns (TEXT family, BLOB family, JSON,
very long VARCHAR) and no compression at any level yet (ROW_FORMAT=COMPRESSED, KEY_BLOCK_SIZE,
COMPRESSION=, PAGE_COMPRESSED, or a compressed column). Columns are ranked by expected payoff,
read from the column's name together with its table's name and its neighbours
(linter.schema.content): documents first (JSON; a format column saying xml/json; names such
as payload, body, data, config), then types declared for long values; bytes of stored files
(a content-type, file-name or extension column) rank uncertain; stored images and media (width and
height, an images table), secrets (password, token, keys, a table of credentials) and values the
application compresses itself are left out, and the message says so and why.

What the message says and the fix does depends on the target, because the three servers compress
differently: Percona Server has column compression with a dictionary, MariaDB column COMPRESSED
and PAGE_COMPRESSED, MySQL page compression (sparse files) or the older ROW_FORMAT=COMPRESSED.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.checkapi import (
    Check, CheckContext, ColumnMeasurement, RuleDoc, TableStats, cause_place, qualified, quote,
)
from linter.rules.findings import Finding, Severity
from linter.rules.options import SIZE, Integer
from linter.rules.copies import decided_once, grouped as copies_of
from linter.parse.elements import Column
from linter.schema.model import SchemaModel, Table
from linter.schema.target import Target
from linter.schema.tenants import TenantLayout, layout_for, some_names, sql_string
from linter.rules.column_sql import column_definition
from linter.schema.content import Candidate, DEFAULT_MIN_VARCHAR_LENGTH, classified
from linter.rules.options import parse_size


DEFAULT_MIN_SIZE = 1 << 30  # 1 GiB
#: values shorter than this do not compress (zlib's header and the per-value overhead eat the gain)
SMALL_VALUE_BYTES = 256

_LONG_TEXT = frozenset({"MEDIUMTEXT", "LONGTEXT"})
_LONG_BLOB = frozenset({"MEDIUMBLOB", "LONGBLOB"})

#: saving on the large columns' bytes, from Percona's measurements: zlib without a dictionary
#: left 82% (18% saved); Percona column compression with a 1-2 KB dictionary left 61-57%;
#: page compression took a JSON table from 8.4 to 3.9 GB (54% saved)
_SAVING = {"percona": (0.18, 0.43), "mariadb": (0.18, 0.54), "mysql": (0.18, 0.54)}
_RANK_LABEL = ("high", "medium", "low", "uncertain")

_SPARSE = (
    "Page compression relies on sparse files (hole punching): `ls` shows the uncompressed size, and copying a "
    "page-compressed file took 52 minutes on a SATA SSD against 9 s uncompressed (12 s on NVMe) in Percona's test, "
    "so check backup and copy tooling first."
)


class CompressionCandidate(Check):
    id = "compression-candidate"
    title = "Large text, JSON or BLOB columns with no compression"
    severity = "info"
    covers_copies = True
    doc = RuleDoc(
        why=(
            "Large text and JSON values compress well and InnoDB can compress them, in ways that differ by server. "
            "MySQL's page compression (`COMPRESSION='zlib'`, 5.7+) took a JSON table from 8.4 to 3.9 GB (2.15x) in "
            "Percona's test, but relies on sparse files: `ls` shows the wrong size and copying the file took 52 "
            "minutes on a SATA SSD against 9 s uncompressed (12 s on NVMe). `ROW_FORMAT=COMPRESSED "
            "KEY_BLOCK_SIZE=8` is the older table compression. Percona Server's column compression took a JSON text "
            "column from a ratio of 0.82 without a dictionary to 0.61 with a 1 KB dictionary and 0.57 with 2 KB "
            "(JSON keys repeat). MariaDB has column `COMPRESSED` and `PAGE_COMPRESSED=1`. Values under a few hundred "
            "bytes do not compress (header overhead)."
        ),
        evidence=(
            "The candidate columns ranked by expected payoff, read from the column's name with its table's name "
            "and its neighbouring columns: documents first (JSON, a format/encoding column saying xml, json or "
            "serialized, document-like names); bytes next to a content type (mime_type, content_type), a file name "
            "or an extension are stored files, uncertain (PDF, Office and archives are compressed already); bytes "
            "with width and height columns, in an images/photos/media table or typed image/*, video/*, audio/* are "
            "left out, as are secrets (password, token, key, a table of credentials or ciphers) and values a "
            "compressed/gzip flag or encoding says the application compresses. The message names the evidence for "
            "each column and lists the large columns left out with the reason. With a stats file the table's size and an estimated saving "
            "range. Without stats: info, and only for tables with a high or medium payoff column. With stats: "
            "warning above min_size, nothing below it (too small to matter). Tables or columns already compressed "
            "are never flagged. In a schema-per-tenant layout, one finding per distinct table definition. With "
            "`innolint audit --sample N` the column's values are measured: the message quotes the ratios (zlib alone, "
            "with a dictionary trained on the values, page compression), columns that measured incompressible are "
            "dropped, Percona's fix carries the trained dictionary and on MariaDB the measurement picks COMPRESSED "
            "or PAGE_COMPRESSED."
        ),
        bad="CREATE TABLE order_event (\n  id BIGINT PRIMARY KEY,\n  payload JSON NOT NULL\n) ENGINE=InnoDB;",
        good=(
            "-- MySQL\nCREATE TABLE order_event (\n  id BIGINT PRIMARY KEY,\n  payload JSON NOT NULL\n) "
            "ENGINE=InnoDB COMPRESSION='zlib';"
        ),
        fix=(
            "The exact statements for the target: Percona Server: a compression dictionary from sample values and "
            "`MODIFY COLUMN ... COLUMN_FORMAT COMPRESSED WITH COMPRESSION_DICTIONARY`; MariaDB: `MODIFY COLUMN ... "
            "COMPRESSED` (or `PAGE_COMPRESSED=1` when the columns are indexed or generated); MySQL: "
            "`COMPRESSION='zlib'` plus `OPTIMIZE TABLE` (sparse files), or `ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8`. "
            "Column definitions in the fix are rendered from the model in full (type, charset, collation, "
            "nullability, default, comment)."
        ),
        options={
            "min_size": "DATA_LENGTH in bytes (or '1GiB', '512MiB') from which a candidate with stats is a warning "
            "(default 1 GiB)",
            "min_varchar_length": f"VARCHAR length (characters) from which a VARCHAR counts as a large column "
            f"(default {DEFAULT_MIN_VARCHAR_LENGTH})",
        },
        option_types={
            "min_size": SIZE,
            "min_varchar_length": Integer(ge=1),
        },
        option_defaults={"min_size": "1GiB", "min_varchar_length": DEFAULT_MIN_VARCHAR_LENGTH},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        min_size = parse_size(context.option(self.id, "min_size", DEFAULT_MIN_SIZE), DEFAULT_MIN_SIZE)
        min_varchar = _int(context.option(self.id, "min_varchar_length", DEFAULT_MIN_VARCHAR_LENGTH),
                           DEFAULT_MIN_VARCHAR_LENGTH)
        tenants = layout_for(model, context)
        definitions, rank = decided_once(model, context)
        for definition in definitions:  # a tenant definition's copies: classified once
            first = definition.first
            if not first.is_innodb:
                continue
            found, left = classified(first, min_varchar)
            if not found:
                continue
            group: list[Table] = []  # the copies without a size of their own: one finding for them
            for part in definition.parts:
                if definition.grouped and not part.alone:
                    group.extend(part.tables)
                    continue
                table = part.tables[0]  # one table, with evidence of its own
                measured = _measurements(table, found, context)
                kept = found
                if measured:  # measured beats guessed: columns whose values did not compress go
                    kept = [c for c in found if c.column.name.lower() not in measured
                            or _pays(measured[c.column.name.lower()])]
                    if not kept:
                        continue
                stats = context.table_stats(table)
                size = _size(stats)
                if size is None and definition.grouped:
                    group.append(table)
                    continue
                finding = self._table(table, kept, stats, size, min_size, context.target, model, measured=measured,
                                      left=left)
                if finding is not None:
                    yield finding
            if group:
                group.sort(key=lambda t: rank[t.schema])
                finding = self._table(group[0], found, None, None, min_size, context.target, model, group, tenants,
                                      left=left)
                if finding is not None:
                    yield copies_of(finding, group)

    def _table(
        self, table: Table, found: list[Candidate], stats: TableStats | None, size: int | None, min_size: int,
        target: Target, model: SchemaModel, group: list[Table] | None = None, tenants: TenantLayout | None = None,
        measured: dict[str, ColumnMeasurement] | None = None, left: list[tuple[Column, str]] | None = None,
    ) -> Finding | None:
        best = found[0].rank
        severity: Severity = "info"
        sizing = ""
        small = False
        if size is None:
            if best > 1:
                return None  # only low-payoff columns, and no size evidence: not worth a line
        else:
            if size < min_size:
                return None
            severity = "warning"
            sizing, small = _saving(table, found, stats, size, target)
        columns = ", ".join(f"{c.column.name} ({c.column.type}: {_RANK_LABEL[c.rank]}, {c.reason})" for c in found)
        copies = ""
        if group is not None and len(group) > 1:
            copies = (
                f" The same definition is in {len(group):,} tenant schemas "
                f"({some_names([t.schema or '' for t in group])}); the fix is the same in each."
            )
        fix, advice = _advice(table, found, target, model, small_values=small)
        if measured:
            fix, advice = _measured_advice(table, found, target, model, measured, fix, advice)
        skipped = ""
        if left:
            skipped = " Left out: " + "; ".join(f"{column.name} ({why})" for column, why in left) + "."
        message = (
            f"{table.name}: large columns with no compression: {columns}.{skipped}{sizing} {advice}{copies}"
        )
        evidence = f"candidates: {', '.join(c.column.name for c in found)}; no ROW_FORMAT=COMPRESSED, KEY_BLOCK_SIZE, " \
                   f"COMPRESSION or PAGE_COMPRESSED, no compressed column"
        if stats is not None and size is not None:
            evidence += f"; stats: DATA_LENGTH {_bytes(size)}, rows {stats.rows if stats.rows is not None else '?'}, " \
                        f"avg_row_length {stats.avg_row_length if stats.avg_row_length is not None else '?'}"
        if tenants is not None and group is not None:
            evidence += f"; tenant layout: {tenants.how}"
        names = ", ".join(c.column.name for c in found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
        summary = f"{table.name}: {len(found)} large column{'s' if len(found) != 1 else ''} with no compression ({names})"
        if group is not None and len(group) > 1:
            summary += f", in {len(group):,} tenant schemas"
        # the cause: the ALTER that added a large column, or that took the table's compression away
        where = cause_place(table, [c.column for c in found], ("row_format", "key_block_size", "compression", "page_compressed"))
        return self.finding(table, message, severity=severity, where=where, evidence=evidence, fix=fix,
                            subject=found[0].column.name.lower(), summary=summary)


# --- size and saving -----------------------------------------------------------------------------------
def _size(stats: TableStats | None) -> int | None:
    if stats is None:
        return None
    if stats.data_length is not None:
        return stats.data_length
    if stats.rows is not None and stats.avg_row_length is not None:
        return stats.rows * stats.avg_row_length
    return None


_FIXED_BYTES = {
    "TINYINT": 1, "SMALLINT": 2, "MEDIUMINT": 3, "INT": 4, "BIGINT": 8, "FLOAT": 4, "DOUBLE": 8, "DATE": 3,
    "TIME": 3, "DATETIME": 5, "TIMESTAMP": 4, "YEAR": 1, "UUID": 16, "INET4": 4, "INET6": 16, "ENUM": 1,
}
_ROW_OVERHEAD = 20  # record header, transaction id and roll pointer


def _fixed_bytes(column: Column) -> int:
    """A rough stored size of a column that is not a candidate (for the share of the row the
    candidates hold): exact for numbers and dates, the declared length for CHAR and BINARY, and a
    guess of 32 bytes for other variable-length columns."""
    if column.type in _FIXED_BYTES:
        return _FIXED_BYTES[column.type]
    if column.type == "DECIMAL":
        return int(column.params[0]) // 2 + 1 if column.params and column.params[0].isdigit() else 8
    if column.type in ("CHAR", "BINARY"):
        return column.length or 1
    return 32


def _saving(
    table: Table, found: list[Candidate], stats: TableStats | None, size: int, target: Target
) -> tuple[str, bool]:
    """The size sentence and whether the values are too small to compress well."""
    low, high = _SAVING[target.flavor]
    chosen = {id(c.column) for c in found}
    fixed = _ROW_OVERHEAD + sum(_fixed_bytes(c) for c in table.columns.values() if id(c) not in chosen)
    average = stats.avg_row_length if stats is not None else None
    if not average and stats is not None and stats.rows:
        average = size // stats.rows
    if average:
        large_per_row = max(0, average - fixed)
        large = size * large_per_row // average
        share = f"about {_bytes(large)} of it in the candidate columns ({large_per_row:,} of {average:,} bytes a row)"
    else:
        large_per_row = None
        large = size
        share = "the row length is unknown, so all of it is counted as candidate bytes (an upper bound)"
    sentence = (
        f" The table holds {_bytes(size)}, {share}: compression would save an estimated "
        f"{_bytes(int(large * low))} to {_bytes(int(large * high))}."
    )
    small = large_per_row is not None and large_per_row < SMALL_VALUE_BYTES
    if small:
        sentence += (
            f" The large values average under {SMALL_VALUE_BYTES} bytes a row, too short to compress one by one "
            "(header overhead): compress whole pages."
        )
    return sentence, small


def _int(value: object, default: int) -> int:
    try:
        return int(value)  # type: ignore[call-overload,no-any-return]
    except (TypeError, ValueError):
        return default


def _bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


# --- the fix, per target ------------------------------------------------------------------------------
def _advice(
    table: Table, found: list[Candidate], target: Target, model: SchemaModel, *, small_values: bool = False
) -> tuple[str, str]:
    """(fix SQL, sentence of advice) for the target server. Column compression compresses each
    value on its own, so values known (from stats) to be short get page compression instead, and
    indexed or generated columns (which column compression cannot take) too."""
    columns = [] if small_values else _column_compressible(table, found)
    why = "the values are short" if small_values else "the columns are indexed or generated"
    if target.flavor == "percona":
        if columns:
            return _percona(table, columns, model), (
                f"On {target.label} compress {'them' if len(columns) > 1 else 'it'} column by column with a "
                "compression dictionary built from sample values (JSON keys and words repeat): Percona measured a "
                "ratio of 0.82 without a dictionary, 0.61 with 1 KB and 0.57 with 2 KB."
                + _left_out(found, columns)
            )
        fix, advice = _mysql(table, target)
        return fix, f"Column compression would not pay ({why}). {advice}"
    if target.flavor == "mariadb":
        if columns:
            no_default = [c.name for c in columns if not c.nullable and c.default is None]
            caveat = (
                f" MariaDB gives a NOT NULL COMPRESSED column without a default an implicit DEFAULT '' (seen on 10.11: "
                f"an INSERT that omits {', '.join(no_default)} then stores '' instead of failing)." if no_default else ""
            )
            return _mariadb(table, columns), (
                f"On {target.label} compress {'them' if len(columns) > 1 else 'it'} with the column attribute "
                "COMPRESSED (zlib per value, no sparse files); PAGE_COMPRESSED=1 compresses whole pages instead."
                + _left_out(found, columns) + caveat
            )
        return f"ALTER TABLE {qualified(table)} PAGE_COMPRESSED=1;", (
            f"On {target.label} use PAGE_COMPRESSED=1 ({why}, so column COMPRESSED would not pay). {_SPARSE}"
        )
    return _mysql(table, target)


def _preferred(found: list[Candidate]) -> list[Candidate]:
    """The columns a column-by-column fix compresses: the high and medium payoff ones when there
    are any (compressing short notes next to a JSON payload costs CPU for nothing), else all."""
    return [c for c in found if c.rank <= 1] or found


def _column_compressible(table: Table, found: list[Candidate]) -> list[Column]:
    """Preferred candidates that column compression can take: not part of any index (neither
    Percona nor MariaDB compresses an indexed column) and not generated (the model does not keep
    the expression, so the full definition could not be written back)."""
    indexed = {part.name.lower() for index in table.indexes for part in index.columns}
    return [c.column for c in _preferred(found) if c.column.name.lower() not in indexed and c.column.generated is None]


def _left_out(found: list[Candidate], columns: list[Column]) -> str:
    kept = {id(c) for c in columns}
    left = [c.column.name for c in _preferred(found) if id(c.column) not in kept]
    return f" Not {', '.join(left)}: indexed or generated columns cannot be compressed." if left else ""


def _percona(table: Table, columns: list[Column], model: SchemaModel, trained: dict[str, bytes] | None = None) -> str:
    """`trained`: dictionaries `innolint audit --sample` trained on the column's values (by lower-case
    column name), written into the fix; other columns get one concatenated from 100 values."""
    name = qualified(table)
    trained = trained or {}
    lines = [] if all(c.name.lower() in trained for c in columns) else [
        "SET SESSION group_concat_max_len = 2048;  -- a 2 KB dictionary per column"]
    modify = []
    taken = set(model.dictionaries)
    for n, column in enumerate(columns, start=1):
        dictionary = _dictionary_name(table, column, taken)
        variable = f"@dict_{n}"
        col = quote(column.name)
        if column.name.lower() in trained:
            lines.append(f"CREATE COMPRESSION_DICTIONARY {quote(dictionary)} ({_bytes_literal(trained[column.name.lower()])});")
            modify.append("MODIFY COLUMN " + column_definition(
                column, column_format=f"COLUMN_FORMAT COMPRESSED WITH COMPRESSION_DICTIONARY {quote(dictionary)}"))
            continue
        lines.append(
            f"SET {variable} = (SELECT GROUP_CONCAT({col} SEPARATOR '') FROM (SELECT {col} FROM {name} "
            f"WHERE {col} IS NOT NULL LIMIT 100) AS sample);"
        )
        lines.append(f"CREATE COMPRESSION_DICTIONARY {quote(dictionary)} ({variable});")
        modify.append(
            "MODIFY COLUMN " + column_definition(column, column_format=f"COLUMN_FORMAT COMPRESSED WITH "
                                                  f"COMPRESSION_DICTIONARY {quote(dictionary)}")
        )
    lines.append(f"ALTER TABLE {name} " + ", ".join(modify) + ";")
    return "\n".join(lines)


def _dictionary_name(table: Table, column: Column, taken: set[str]) -> str:
    base = f"{table.name}_{column.name}"[:60]
    name, n = base, 1
    while name.lower() in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name.lower())
    return name


def _mariadb(table: Table, columns: list[Column]) -> str:
    modify = ", ".join("MODIFY COLUMN " + column_definition(c, compressed=True) for c in columns)
    return f"ALTER TABLE {qualified(table)} {modify};"


def _mysql(table: Table, target: Target) -> tuple[str, str]:
    name = qualified(table)
    space = (table.options.tablespace or "").strip("`").lower()
    if space and space not in ("innodb_file_per_table", "innodb_system"):
        return f"ALTER TABLE {name} ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;", (
            f"It is in general tablespace {quote(space)}, where page compression does not apply: use "
            "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 (the tablespace must have been created with FILE_BLOCK_SIZE=8192)."
        )
    fix = "\n".join(
        [
            f"ALTER TABLE {name} COMPRESSION='zlib';",
            f"OPTIMIZE TABLE {name};  -- rewrites the existing pages compressed",
            f"-- or, without sparse files: ALTER TABLE {name} ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;",
        ]
    )
    return fix, (
        f"On {target.label} use page compression (COMPRESSION='zlib'; Percona measured a JSON table going from 8.4 "
        f"to 3.9 GB, 2.15x). {_SPARSE} ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 is the older table compression, "
        "without sparse files."
    )


# --- measured by `innolint audit --sample N` -------------------------------------------------------------
#: a column whose values keep more than this under every kind of compression is not worth it
_NO_GAIN = 0.95


def _measurements(table: Table, found: list[Candidate], context: CheckContext) -> dict[str, ColumnMeasurement]:
    """What the audit measured on the table's candidate columns, by lower-case column name."""
    measured = {}
    for candidate in found:
        value = context.measurement(table, candidate.column.name)
        if value is not None:
            measured[candidate.column.name.lower()] = value
    return measured


def _pays(measured: ColumnMeasurement) -> bool:
    return min(measured.stored_plain, measured.stored_dict, measured.ratio_page) < _NO_GAIN


def _measured_sentence(column: Column, m: ColumnMeasurement) -> str:
    at_size = ""
    saved_plain, saved_dict = m.saved(False), m.saved(True)
    if m.table_rows is not None and saved_plain is not None and saved_dict is not None:
        at_size = (f"; at the table's ~{m.table_rows:,} rows column compression would save about {_bytes(saved_plain)}"
                   f" ({_bytes(saved_dict)} with the dictionary)")
    dictionary = f"with a {len(m.dictionary):,}-byte dictionary trained on them {m.ratio_dict:.2f}" if m.dictionary else         "a dictionary finds nothing shared to help"
    return (
        f"Measured on {m.measured:,} of {m.sampled:,} sampled values of {column.name} (average {m.avg_bytes:,.0f} bytes, "
        f"{m.share_too_small:.0%} too short to compress): zlib value by value keeps {m.ratio_plain:.2f} of the bytes, "
        f"{dictionary}, page compression about {m.ratio_page:.2f}{at_size}."
    )


def _weighted(columns: list[Column], measured: dict[str, ColumnMeasurement], ratio: str) -> float | None:
    """A ratio over the measured columns, weighted by their average value size."""
    parts = [(measured[c.name.lower()].avg_bytes, getattr(measured[c.name.lower()], ratio))
             for c in columns if c.name.lower() in measured]
    total = sum(size for size, _ in parts)
    return sum(size * value for size, value in parts) / total if total else None


def _measured_advice(
    table: Table, found: list[Candidate], target: Target, model: SchemaModel, measured: dict[str, ColumnMeasurement],
    fix: str, advice: str,
) -> tuple[str, str]:
    """The fix and advice with the measured ratios: Percona's dictionary is the trained one; on
    MariaDB the measurement chooses between column COMPRESSED (zlib value by value, no dictionary)
    and PAGE_COMPRESSED; on MySQL it says what page compression would keep."""
    said = " ".join(_measured_sentence(c.column, measured[c.column.name.lower()])
                    for c in found if c.column.name.lower() in measured)
    columns = _column_compressible(table, found)
    if target.flavor == "percona" and columns:
        trained = {c.name.lower(): measured[c.name.lower()].dictionary for c in columns
                   if c.name.lower() in measured and measured[c.name.lower()].dictionary}
        if trained:
            fix = _percona(table, columns, model, trained)
            advice += " The fix creates each dictionary from the values the audit sampled."
    elif target.flavor == "mariadb":
        column_kept = _weighted(columns or [c.column for c in found], measured, "stored_plain")
        page_kept = _weighted([c.column for c in found], measured, "ratio_page")
        if page_kept is not None and (not columns or column_kept is None or page_kept < column_kept - 0.1):
            fix = f"ALTER TABLE {qualified(table)} PAGE_COMPRESSED=1;"
            advice = (
                f"On {target.label} use PAGE_COMPRESSED=1: measured, pages keep about {page_kept:.0%} of these "
                f"columns' bytes" + (f" against {column_kept:.0%} with column COMPRESSED (zlib value by value, no "
                                     "dictionary on MariaDB)" if columns and column_kept is not None else "")
                + f". {_SPARSE}"
            )
    return fix, f"{advice} {said}"


def _bytes_literal(data: bytes) -> str:
    """A string literal for a trained dictionary: quoted text when it is printable UTF-8, else X'...'."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return f"X'{data.hex()}'"
    if any(ord(ch) < 32 and ch not in "\t\n" for ch in text):
        return f"X'{data.hex()}'"
    return sql_string(text)
