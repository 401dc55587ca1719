"""InnoDB and character-set facts: how many bytes a column, a row and a key take, and the limits
the servers hold them to. Several checks ask these questions (row-size-limit, index-key-length,
wide-primary-key, non-innodb-engine, charset-portability); they ask them here, the same way.

Every number carries its source in a comment: the MySQL manual section, the server's source
(InnoDB's `dict0dict.cc` / `dict0mem.h`, the SQL layer's `sql_table.cc`), or "verified": checked
against the test MariaDB 10.11 by tests/test_innodb_sizes.py, which creates tables on the
server and compares what it accepts, refuses or changes with what this module computes.

The API, for a check:

- `column_charset(column, table, target, schema)` -> the character set and collation a column
  stores text in, and where that came from: the column, the table, the schema (CREATE DATABASE),
  or the target server's default (the resolution chain the server itself follows).
- `table_charset(table, target, schema)` -> the table's default character set the same way.
- `column_bytes(column, charset)` -> ColumnBytes: the column's bytes in the server's row
  (what the 65,535-byte limit counts), its largest value in InnoDB, whether InnoDB stores it
  fixed-length and whether it may go off-page.
- `key_width(table, index, target, schema)` -> KeyWidth: each key part's bytes (what the
  3,072 / 767-byte limits count) and the bytes a secondary index copies of the key (with the
  length bytes of variable-length parts).
- `row_size(table, target, schema)` -> RowSize: the row's bytes three ways (the server's
  65,535 check, InnoDB's check at CREATE time, the worst row InnoDB must store), with the
  limit for the table's row format and the reasoning.
- `row_format(table)` -> the effective InnoDB row format (DYNAMIC when none is written);
  `key_part_limit(fmt)` -> 3,072 or 767.
- `column_length_limit(column, charset, target)` -> the most characters CHAR/VARCHAR take (ERROR 1074).
- `server_defaults(target)` -> the compiled-in default character set and collation.
- `collation_known(collation, target)`, `charset_known(charset, target)` -> whether the target has
  it (None: depends on the minor version).
- `schema_of(model, table)` -> the table's Schema, for the `schema` argument of the above.

`schema` is the table's `Schema` from the model (`schema_of(model, table)`): its CREATE DATABASE
DEFAULT CHARACTER SET / COLLATE. None when unknown: the chain goes on to the server's default.

What is assumed, and said in the rules' documentation: innodb_page_size=16K (the default
everywhere), innodb_default_row_format=DYNAMIC (the default since MySQL 5.7.9 and MariaDB 10.2.2),
the servers' compiled-in character set defaults (a distribution's configuration file may set
others: Debian's MariaDB packages set utf8mb4).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from typing import Literal

from linter.parse.elements import Column, Index
from linter.schema.model import Schema, SchemaModel, Table
from linter.record import FrozenRecord
from linter.schema.target import Target
from linter.parse.charsets import charset_of_collation, normalize_charset
from linter.parse.body import decimal_bytes

_set = object.__setattr__

# =============================================================================================
# Limits
# =============================================================================================
#: The server's row limit, whatever the engine: "The internal representation of a MySQL table has
#: a maximum row size limit of 65,535 bytes" (MySQL 8.0 manual 10.4.7 "Limits on Table Column
#: Count and Row Size"); BLOB/TEXT count 9 to 12 bytes. Verified on MariaDB: ERROR 1118.
MAX_ROW_BYTES = 65_535
#: MariaDB's largest VARCHAR in bytes: 65,535 less the length bytes and one (verified, see column_length_limit)
MAX_VARCHAR_BYTES_MARIADB = 65_532
#: The largest index key InnoDB takes with a 16K page, and the largest key part in DYNAMIC and
#: COMPRESSED rows: "The index key prefix length limit is 3072 bytes for InnoDB tables that use
#: DYNAMIC or COMPRESSED row format" (MySQL 8.0 manual 17.22 "InnoDB Limits"; 5.7 manual 14.23
#: with innodb_large_prefix, ON by default from 5.7.7). Verified on MariaDB: ERROR 1071.
MAX_KEY_BYTES = 3_072
#: The largest key part in COMPACT and REDUNDANT rows: "The index key prefix length limit is 767
#: bytes for InnoDB tables that use the REDUNDANT or COMPACT row format" (same sections).
#: Verified on MariaDB: ERROR 1709 "Index column size too large. The maximum column size is 767 bytes".
MAX_KEY_PART_BYTES_ANTELOPE = 767
#: InnoDB's page (innodb_page_size, 16K by default on every target).
PAGE_SIZE = 16_384
#: Half a page less the page's own header, trailer and directory: the most a record may hold.
#: page_get_free_space_of_empty(comp) / 2 in InnoDB's page0page.h: (16384 - 120 - 8 - 4) / 2 =
#: 8126 for COMPACT, DYNAMIC; (16384 - 125 - 8 - 4) / 2 = 8123 for REDUNDANT (PAGE_NEW_ / PAGE_OLD_
#: SUPREMUM_END, PAGE_DIR, two PAGE_DIR_SLOTs). Verified on MariaDB: "Row size too large (> 8126)".
PAGE_RECORD_MAX = {"compact": 8_126, "redundant": 8_123}
#: Variable-length columns InnoDB may move off-page: more than 255 bytes long, or a BLOB/TEXT/
#: geometry type (DATA_BIG_COL in InnoDB's data0type.h; dtuple_convert_big_rec only moves these).
BIG_COLUMN_BYTES = 255
#: What an off-page column leaves in the row: a 20-byte reference (BTR_EXTERN_FIELD_REF_SIZE);
#: COMPACT and REDUNDANT also keep the value's first 768 bytes (DICT_ANTELOPE_MAX_INDEX_COL_LEN).
EXTERN_REF_BYTES = 20
ANTELOPE_PREFIX_BYTES = 768
#: A value this short stays in the row even when its column may go off-page
#: (BTR_EXTERN_LOCAL_STORED_MAX_SIZE = 2 x BTR_EXTERN_FIELD_REF_SIZE).
LOCAL_STORED_MAX_BYTES = 40
#: A fixed-length column longer than this is stored as variable-length (and may go off-page):
#: DICT_MAX_FIXED_COL_LEN in dict0mem.h; MySQL 8.0 manual 17.10 "InnoDB Row Formats".
MAX_FIXED_BYTES = 768
#: Record header bytes: REC_N_NEW_EXTRA_BYTES (COMPACT, DYNAMIC) and REC_N_OLD_EXTRA_BYTES (REDUNDANT).
RECORD_HEADER = {"compact": 5, "redundant": 6}
#: The clustered index's system columns: DB_TRX_ID (6 bytes), DB_ROLL_PTR (7), and DB_ROW_ID (6)
#: when no key clusters the table (MySQL 8.0 manual 17.6.2.1 "Clustered and Secondary Indexes").
TRX_ID_BYTES, ROLL_PTR_BYTES, ROW_ID_BYTES = 6, 7, 6

RowFormat = Literal["dynamic", "compressed", "compact", "redundant"]
#: the row format a table without ROW_FORMAT gets: innodb_default_row_format=DYNAMIC (MySQL 5.7.9+,
#: MariaDB 10.2.2+; verified: the test server's @@innodb_default_row_format)
DEFAULT_ROW_FORMAT: RowFormat = "dynamic"


def row_format(table: Table) -> RowFormat:
    """The table's InnoDB row format: ROW_FORMAT as written, COMPRESSED when only KEY_BLOCK_SIZE is
    given (MySQL 8.0 manual 17.9.1.2 "Creating Compressed Tables"), else DYNAMIC. ROW_FORMAT=DEFAULT
    and FIXED (which InnoDB does not have; it uses the default) count as DYNAMIC."""
    written = (table.options.row_format or "").lower()
    if written in ("dynamic", "compressed", "compact", "redundant"):
        return written  # type: ignore[return-value]
    if not written and table.options.key_block_size:
        return "compressed"
    return DEFAULT_ROW_FORMAT


def has_large_prefix(fmt: RowFormat) -> bool:
    """DYNAMIC and COMPRESSED keep no 768-byte prefix in the row and take 3,072-byte key parts
    ("Barracuda"); COMPACT and REDUNDANT do neither ("Antelope")."""
    return fmt in ("dynamic", "compressed")


def key_part_limit(fmt: RowFormat) -> int:
    """The largest key part InnoDB takes in this row format (see MAX_KEY_BYTES)."""
    return MAX_KEY_BYTES if has_large_prefix(fmt) else MAX_KEY_PART_BYTES_ANTELOPE


# =============================================================================================
# Character sets
# =============================================================================================
#: Bytes per character, at most (MAXLEN of information_schema.CHARACTER_SETS). Verified: every
#: character set of the test MariaDB has this MAXLEN; gb18030 (4) is MySQL's (5.7.4+) only.
CHARSET_MAXLEN: dict[str, int] = {
    **dict.fromkeys(
        """armscii8 ascii binary cp1250 cp1251 cp1256 cp1257 cp850 cp852 cp866 dec8 geostd8 greek hebrew
        hp8 keybcs2 koi8r koi8u latin1 latin2 latin5 latin7 macce macroman swe7 tis620""".split(), 1),
    **dict.fromkeys("big5 cp932 euckr gb2312 gbk sjis ucs2".split(), 2),
    **dict.fromkeys("eucjpms ujis utf8mb3".split(), 3),
    **dict.fromkeys("gb18030 utf16 utf16le utf32 utf8mb4".split(), 4),
}
#: Bytes per character, at least (MINLEN): where it equals MAXLEN, InnoDB stores CHAR(n) as
#: fixed-length in every row format; else CHAR is variable-length in COMPACT and later formats
#: (dict_col_get_fixed_size: mbminlen == mbmaxlen; MySQL 8.0 manual 17.10 "COMPACT Row Format").
CHARSET_MINLEN: dict[str, int] = {**dict.fromkeys(CHARSET_MAXLEN, 1), "ucs2": 2, "utf16": 2, "utf16le": 2, "utf32": 4}

#: The compiled-in server default (character_set_server, collation_server) of each target, and
#: the default collation of utf8mb4 there.
#: - MySQL 5.7: latin1 / latin1_swedish_ci (MySQL 5.7 manual 10.3.2 "Server Character Set and
#:   Collation"); utf8mb4_general_ci.
#: - MySQL 8.0, 8.4, Percona 8.0: utf8mb4 / utf8mb4_0900_ai_ci (MySQL 8.0 manual 12.3.2).
#: - MariaDB 10.6, 10.11: latin1 / latin1_swedish_ci; utf8mb4_general_ci. Verified on the test
#:   server (started --no-defaults: the compiled-in values).
#: - MariaDB 11.x: utf8mb4 / utf8mb4_uca1400_ai_ci from 11.6 (MariaDB KB "Setting Character Sets
#:   and Collations": "In MariaDB 11.6, the default character set changed from latin1 to
#:   utf8mb4"); 11.0 to 11.5 still latin1. `SERVER_DEFAULT_NOTES` says so in findings.
_SERVER_DEFAULTS: dict[str, tuple[str, str, str]] = {
    "mysql-5.7": ("latin1", "latin1_swedish_ci", "utf8mb4_general_ci"),
    "mysql-8.0": ("utf8mb4", "utf8mb4_0900_ai_ci", "utf8mb4_0900_ai_ci"),
    "mysql-8.4": ("utf8mb4", "utf8mb4_0900_ai_ci", "utf8mb4_0900_ai_ci"),
    "mysql-9.x": ("utf8mb4", "utf8mb4_0900_ai_ci", "utf8mb4_0900_ai_ci"),
    "percona-8.0": ("utf8mb4", "utf8mb4_0900_ai_ci", "utf8mb4_0900_ai_ci"),
    "percona-8.4": ("utf8mb4", "utf8mb4_0900_ai_ci", "utf8mb4_0900_ai_ci"),
    "mariadb-10.4": ("latin1", "latin1_swedish_ci", "utf8mb4_general_ci"),
    "mariadb-10.5": ("latin1", "latin1_swedish_ci", "utf8mb4_general_ci"),
    "mariadb-10.6": ("latin1", "latin1_swedish_ci", "utf8mb4_general_ci"),
    "mariadb-10.11": ("latin1", "latin1_swedish_ci", "utf8mb4_general_ci"),
    "mariadb-11.x": ("utf8mb4", "utf8mb4_uca1400_ai_ci", "utf8mb4_uca1400_ai_ci"),
}
SERVER_DEFAULT_NOTES: dict[str, str] = {
    "mariadb-11.x": "MariaDB 11.6 and later; 11.0 to 11.5 default to latin1 / latin1_swedish_ci",
}


class ServerDefaults(FrozenRecord):
    __slots__ = __match_args__ = ("charset", "collation", "utf8mb4_collation", "note")
    charset: str
    collation: str
    #: the collation a `CHARACTER SET utf8mb4` without COLLATE gets
    utf8mb4_collation: str
    #: a caveat for the message (MariaDB 11.x changed its default within the series)
    note: str

    def __init__(self, charset: str, collation: str, utf8mb4_collation: str, note: str = "") -> None:
        _set(self, "charset", charset)
        _set(self, "collation", collation)
        _set(self, "utf8mb4_collation", utf8mb4_collation)
        _set(self, "note", note)


def server_defaults(target: Target) -> ServerDefaults:
    """The target's compiled-in defaults; a named MariaDB 11 release before 11.6 has 10.x's."""
    if target.name == "mariadb-11.x" and target.release is not None:
        if target.release < (11, 6, 0):
            return ServerDefaults("latin1", "latin1_swedish_ci", "utf8mb4_general_ci")
        return ServerDefaults(*_SERVER_DEFAULTS[target.name])
    charset, collation, utf8mb4 = _SERVER_DEFAULTS[target.name]
    return ServerDefaults(charset, collation, utf8mb4, SERVER_DEFAULT_NOTES.get(target.name, ""))


def normalize_collation(collation: str) -> str:
    """A collation's canonical name: lower case, `utf8_` as `utf8mb3_` (MySQL 8.0.30+ and MariaDB
    10.6+ show the utf8mb3_ names)."""
    lowered = collation.strip("'\"`").lower()
    return "utf8mb3_" + lowered[5:] if lowered.startswith("utf8_") else lowered


def bytes_per_char(charset: str) -> int | None:
    """The most bytes one character takes (None: a character set innolint does not know)."""
    return CHARSET_MAXLEN.get(normalize_charset(charset))


#: MySQL's own collations: the UCA 9.0.0 ones (MySQL 8.0.1+; MySQL 8.0 manual 12.10.1 "Unicode
#: Character Sets") and gb18030's (5.7.4+). MariaDB's own: the UCA 14.0.0 ones (10.10+), the NO PAD
#: ones (10.2+), and a few language ones (MariaDB KB "Supported Character Sets and Collations").
#: MariaDB 11.4.5 and later accept the utf8mb4_0900_ names as aliases of its uca1400 NO PAD
#: collations (MariaDB 11.4.5 release notes), earlier MariaDB refuses them: ERROR 1273 (HY000):
#: Unknown collation (verified: `COLLATE utf8mb4_0900_ai_ci` on the test MariaDB 10.11).
_MARIADB_ONLY_PARTS = ("_nopad_", "_mysql561_", "_myanmar_", "_thai_520_w2")


def collation_known(collation: str, target: Target) -> bool | None:
    """Whether the target has this collation: True, False, or None when the answer depends on the
    release (utf8mb4_0900_* on MariaDB 11.x named without one). Only the families above are judged; any other
    name counts as known (the servers share the rest)."""
    name = normalize_collation(collation)
    if "_0900_" in name or name.startswith("gb18030_"):
        if target.is_mariadb:
            if name.startswith("gb18030_"):
                return False
            if target.version < (11, 0):
                return False
            if target.release is None:
                return None
            # the aliases came with 11.4.5 (its release notes) and are in 11.8; which of the
            # short-term 11.5 to 11.7 releases had them innolint does not know
            if (11, 5, 0) <= target.release < (11, 8, 0):
                return None
            return target.release >= (11, 4, 5)
        return "_0900_" not in name or target.version >= (8, 0)
    if "uca1400" in name:
        return target.is_mariadb and target.version >= (10, 10)
    if any(part in name + "_" for part in _MARIADB_ONLY_PARTS) or name.endswith("_nopad_bin"):
        return target.is_mariadb
    return True


def charset_known(charset: str, target: Target) -> bool:
    """gb18030 is MySQL's (5.7.4+) only (verified: the test MariaDB has no such character set)."""
    return not (normalize_charset(charset) == "gb18030" and target.is_mariadb)


# =============================================================================================
# Resolving a column's character set: column -> table -> schema -> server default
# =============================================================================================
Source = Literal["column", "table", "schema", "server default", "binary type"]
#: types that hold text in a character set
TEXT_TYPES = frozenset({"CHAR", "VARCHAR", "TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT", "ENUM", "SET"})
#: types that hold bytes (the `binary` character set, one byte per "character")
BINARY_TYPES = frozenset({"BINARY", "VARBINARY", "TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB"})


class ResolvedCharset(FrozenRecord):
    """A character set and collation, and where in the chain they came from."""

    __slots__ = __match_args__ = ("charset", "collation", "source", "maxlen")
    charset: str  # canonical (utf8 -> utf8mb3)
    collation: str | None  # canonical; None: the character set's default collation on the target
    source: Source
    maxlen: int | None  # bytes per character at most; None: a character set innolint does not know

    def __init__(self, charset: str, collation: str | None, source: Source) -> None:
        _set(self, "charset", charset)
        _set(self, "collation", collation)
        _set(self, "source", source)
        _set(self, "maxlen", CHARSET_MAXLEN.get(charset))

    @property
    def explicit(self) -> bool:
        """Written in the DDL (column, table or schema), not the server's default."""
        return self.source != "server default"

    def describe(self) -> str:
        """'utf8mb4, the table's default': the character set and where it came from."""
        where = {"column": "the column's", "table": "the table's default", "schema": "the schema's default",
                 "server default": "the server's default", "binary type": "a binary type"}[self.source]
        return f"{self.charset}, {where}"


@lru_cache(maxsize=4096)
def pair(charset: str | None, collation: str | None) -> tuple[str, str | None] | None:
    """(charset, collation) from what one level writes, or None when it writes neither. (Cached:
    a row's size asks it of each text column, and a schema writes a few pairs.)"""
    if charset:
        lowered = charset.strip("'\"`").lower()
        if lowered == "default":
            return None
        return normalize_charset(lowered), normalize_collation(collation) if collation else None
    charset_of = charset_of_collation(collation) if collation else None
    if collation and charset_of is not None:
        return charset_of, normalize_collation(collation)
    return None  # nothing written, or a uca1400_ collation alone: the character set comes from above


def schema_of(model: SchemaModel, table: Table) -> Schema | None:
    """The table's schema in the model (its CREATE DATABASE charset), if the input names one."""
    return model.find_schema(table.schema)


def table_charset(table: Table, target: Target, schema: Schema | None = None) -> ResolvedCharset:
    """The table's default character set: the table's DEFAULT CHARSET / COLLATE, else the
    schema's, else the server's default on the target."""
    options = table.options
    if schema is None:
        return _table_charset(options.charset, options.collation, None, None, target)
    return _table_charset(options.charset, options.collation, schema.charset, schema.collation, target)


@lru_cache(maxsize=4096)
def _table_charset(charset: str | None, collation: str | None, schema_charset: str | None,
                   schema_collation: str | None, target: Target) -> ResolvedCharset:
    """`table_charset` of what the table and its schema write (cached: asked per text column)."""
    found = pair(charset, collation)
    if found is not None:
        return ResolvedCharset(found[0], found[1], "table")
    return _database_charset(schema_charset, schema_collation, target)


def database_charset(target: Target, schema: Schema | None) -> ResolvedCharset:
    """A database's default character set: its CREATE / ALTER DATABASE's, else the server's."""
    return _database_charset(schema.charset if schema else None, schema.collation if schema else None, target)


def _database_charset(charset: str | None, collation: str | None, target: Target) -> ResolvedCharset:
    found = pair(charset, collation)
    if found is not None:
        return ResolvedCharset(found[0], found[1], "schema")
    defaults = server_defaults(target)
    return ResolvedCharset(defaults.charset, defaults.collation, "server default")


def column_charset(
    column: Column, table: Table, target: Target, schema: Schema | None = None
) -> ResolvedCharset | None:
    """The character set a column stores its text in (None for a type that holds no text):
    the column's CHARACTER SET / COLLATE, else the table's, the schema's, the server's default."""
    kind = column.type.upper()
    if kind in BINARY_TYPES:
        return _BINARY
    if kind == "JSON" and target.is_mariadb:  # LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin (verified)
        found = pair(column.charset, column.collation)
        return _column_charset(*found) if found is not None else (
            _column_charset("utf8mb4", "utf8mb4_bin"))  # (a CONVERT TO moves it: `alter_charsets`)
    if kind not in TEXT_TYPES:
        return None
    if column.charset or column.collation:
        found = pair(column.charset, column.collation)
        if found is not None:
            return _column_charset(*found)
    return table_charset(table, target, schema)


_BINARY = ResolvedCharset("binary", "binary", "binary type")


@lru_cache(maxsize=4096)
def _column_charset(charset: str, collation: str | None) -> ResolvedCharset:
    return ResolvedCharset(charset, collation, "column")


# =============================================================================================
# Column storage
# =============================================================================================
#: Integer types (MySQL 8.0 manual 13.7 "Data Type Storage Requirements": numeric types).
_INTEGER_BYTES = {"TINYINT": 1, "SMALLINT": 2, "MEDIUMINT": 3, "INT": 4, "BIGINT": 8}
#: Fixed-size types: DATE 3, YEAR 1 (same section, date and time types); MariaDB's INET4 4,
#: INET6 16, UUID 16 (MariaDB KB: the types' pages; verified: a row of them at the 65,535 limit).
_FIXED_BYTES = {"DATE": 3, "YEAR": 1, "INET4": 4, "INET6": 16, "UUID": 16, "DOUBLE": 8}
#: TEXT/BLOB types: the bytes of the length and the largest value. In the server's row they take
#: the length bytes and an 8-byte pointer (9 to 12 bytes: "BLOB and TEXT columns only contribute
#: 9 to 12 bytes toward the row size limit", MySQL 8.0 manual 10.4.7).
_LOB_LENGTH_BYTES = {
    "TINYTEXT": 1, "TINYBLOB": 1, "TEXT": 2, "BLOB": 2, "MEDIUMTEXT": 3, "MEDIUMBLOB": 3, "LONGTEXT": 4,
    "LONGBLOB": 4, "JSON": 4,
}
#: JSON: MySQL stores it like LONGBLOB, MariaDB makes it LONGTEXT (MariaDB KB "JSON Data Type").
#: Spatial types are stored like LONGBLOB (MySQL 8.0 manual 13.7: spatial types).
SPATIAL_TYPES = frozenset(
    {"GEOMETRY", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON",
     "GEOMETRYCOLLECTION"}
)


class ColumnBytes(FrozenRecord):
    """How much room a column takes, in the server's row and in InnoDB's record."""

    __slots__ = __match_args__ = ("row_bytes", "max_bytes", "length_bytes", "fixed", "lob", "packs")
    #: its bytes in the server's row (the 65,535-byte limit): length bytes included, 9-12 for LOBs
    row_bytes: int
    #: its largest value in bytes (None: unbounded for innolint's purposes, a LOB)
    max_bytes: int | None
    #: the bytes a variable-length value's length takes in the server's row (1 up to 255 bytes, else 2)
    length_bytes: int
    #: InnoDB stores it fixed-length in COMPACT and later formats (CHAR in a multi-byte
    #: character set is variable-length there); see `innodb_fixed`
    fixed: bool
    #: a BLOB/TEXT/JSON/spatial type: may always go off-page
    lob: bool
    #: VARCHAR or a LOB: the server stores the row "packed" (no extra deleted bit in the NULL bytes)
    packs: bool

    def __init__(self, row_bytes: int, max_bytes: int | None, length_bytes: int, fixed: bool, lob: bool,
                 packs: bool) -> None:
        _set(self, "row_bytes", row_bytes)
        _set(self, "max_bytes", max_bytes)
        _set(self, "length_bytes", length_bytes)
        _set(self, "fixed", fixed)
        _set(self, "lob", lob)
        _set(self, "packs", packs)

    @property
    def big(self) -> bool:
        """InnoDB may store it off-page: a LOB, or a value that can be longer than 255 bytes."""
        return self.lob or (self.max_bytes is not None and self.max_bytes > BIG_COLUMN_BYTES)


def _int_param(column: Column, index: int, default: int) -> int:
    if len(column.params) > index and column.params[index].strip().isdigit():
        return int(column.params[index])
    return default


def _fsp_bytes(column: Column) -> int:
    """Fractional seconds: 0, 1, 1, 2, 2, 3, 3 bytes for precision 0-6 (manual 13.7)."""
    return (_int_param(column, 0, 0) + 1) // 2


def text_type_for(kind: str, max_bytes: int) -> str:
    """TEXT(n)/BLOB(n): the server takes the smallest type that holds n characters' bytes; TEXT(0)
    is TEXT (verified on MariaDB 10.11: BLOB(100) is TINYBLOB, latin1 TEXT(256) TEXT, utf8mb4
    TEXT(64) TEXT, latin1 TEXT(16777216) LONGTEXT). `kind`: "TEXT" or "BLOB"."""
    text = kind == "TEXT"
    if max_bytes == 0:
        return kind
    for name, limit in (("TINY", 255), ("", 65_535), ("MEDIUM", 16_777_215)):
        if max_bytes <= limit:
            return name + ("TEXT" if text else "BLOB")
    return "LONGTEXT" if text else "LONGBLOB"


def column_bytes(column: Column, charset: ResolvedCharset | None) -> ColumnBytes | None:
    """The column's room in the server's row and in InnoDB (None: a type innolint does not know
    the size of, or text in a character set it does not know). `charset`: `column_charset(...)`."""
    key = (column.type, column.params, charset.charset if charset is not None else None)
    found = _COLUMN_BYTES.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        found = _column_bytes(column, charset)
        if len(_COLUMN_BYTES) > 8192:
            _COLUMN_BYTES.clear()
        _COLUMN_BYTES[key] = found
    return found  # type: ignore[return-value]


#: column_bytes by (type, params, character set): what it answers depends on nothing else, and a
#: schema's columns are of a few hundred kinds (a row's size asks it of every column)
_COLUMN_BYTES: dict[tuple[str, tuple[str, ...], str | None], ColumnBytes | None] = {}
_UNKNOWN = object()


def _column_bytes(column: Column, charset: ResolvedCharset | None) -> ColumnBytes | None:
    kind = column.type.upper()
    maxlen = (charset.maxlen if charset is not None else 1) or 0
    if kind in TEXT_TYPES and not maxlen:
        return None
    if kind in _INTEGER_BYTES:
        size = _INTEGER_BYTES[kind]
        return ColumnBytes(size, size, 0, True, False, False)
    if kind == "FLOAT":
        # FLOAT(p) with p > 24 is a DOUBLE; FLOAT(M,D) and FLOAT are 4 bytes (manual 13.7)
        size = 8 if len(column.params) == 1 and _int_param(column, 0, 0) > 24 else 4
        return ColumnBytes(size, size, 0, True, False, False)
    if kind in _FIXED_BYTES:
        size = _FIXED_BYTES[kind]
        return ColumnBytes(size, size, 0, True, False, False)
    if kind == "DECIMAL":
        size = decimal_bytes(_int_param(column, 0, 10), _int_param(column, 1, 0))
        return ColumnBytes(size, size, 0, True, False, False)
    if kind == "BIT":
        size = (_int_param(column, 0, 1) + 7) // 8  # InnoDB keeps no bits in the NULL bytes (Field_bit_as_char)
        return ColumnBytes(size, size, 0, True, False, False)
    if kind in ("TIME", "DATETIME", "TIMESTAMP"):
        size = {"TIME": 3, "DATETIME": 5, "TIMESTAMP": 4}[kind] + _fsp_bytes(column)
        return ColumnBytes(size, size, 0, True, False, False)
    if kind in ("ENUM", "SET"):
        members = max(1, len(column.params))
        size = (1 if members <= 255 else 2) if kind == "ENUM" else min(8, (members + 7) // 8)
        size = 8 if kind == "SET" and size > 4 else size
        return ColumnBytes(size, size, 0, True, False, False)
    if kind in ("CHAR", "BINARY"):
        size = _int_param(column, 0, 1) * (maxlen if kind == "CHAR" else 1)
        fixed = kind == "BINARY" or charset is None or CHARSET_MINLEN.get(charset.charset, 1) == maxlen
        return ColumnBytes(size, size, 0, fixed, False, False)
    if kind in ("VARCHAR", "VARBINARY"):
        size = _int_param(column, 0, 0) * (maxlen if kind == "VARCHAR" else 1)
        length = 1 if size <= 255 else 2
        return ColumnBytes(size + length, size, length, False, False, True)
    if kind in ("TEXT", "BLOB") and column.params:
        wanted = _int_param(column, 0, 0) * (maxlen if kind == "TEXT" else 1)
        kind = text_type_for(kind, wanted)
    if kind in _LOB_LENGTH_BYTES:
        length = _LOB_LENGTH_BYTES[kind]
        return ColumnBytes(length + 8, None, length, False, True, True)
    if kind in SPATIAL_TYPES:
        return ColumnBytes(12, None, 4, False, True, True)
    return None


def column_length_limit(column: Column, charset: ResolvedCharset | None, target: Target) -> int | None:
    """The most characters (bytes for binary types) the type takes, or None when unbounded here:
    CHAR and BINARY 255; VARCHAR and VARBINARY as many as fit the largest VARCHAR: 65,532 bytes on
    MariaDB (verified: VARCHAR(21844) utf8mb3 is taken, 21845 refused with "max = 21844"), 65,535
    on MySQL (sql_table.cc: length > MAX_FIELD_VARCHARLENGTH; its message says max = 21845).
    Over it, strict mode refuses: ERROR 1074 (42000): Column length too big for column 'c'
    (max = N); use BLOB or TEXT instead (MySQL 8.0 manual 13.3.2 "The CHAR and VARCHAR Types")."""
    kind = column.type.upper()
    if kind in ("CHAR", "BINARY"):
        return 255
    longest = MAX_VARCHAR_BYTES_MARIADB if target.is_mariadb else MAX_ROW_BYTES
    if kind == "VARBINARY":
        return longest
    if kind == "VARCHAR" and charset is not None and charset.maxlen:
        return longest // charset.maxlen
    return None


def innodb_fixed(size: ColumnBytes, column: Column, fmt: RowFormat, charset: ResolvedCharset | None) -> bool:
    """InnoDB stores the column fixed-length in this row format: fixed-size types, BINARY, and CHAR
    in a fixed-width character set; in REDUNDANT also CHAR in a multi-byte one. Never when longer
    than 768 bytes (those are stored as variable-length: MAX_FIXED_BYTES)."""
    if size.max_bytes is None or size.max_bytes > MAX_FIXED_BYTES:
        return False
    if size.fixed:
        return True
    return fmt == "redundant" and column.type.upper() == "CHAR"


# =============================================================================================
# Keys
# =============================================================================================
class KeyPartWidth(FrozenRecord):
    __slots__ = __match_args__ = ("column", "bytes", "length_bytes", "prefix", "charset", "note")
    column: str
    #: the part's bytes as the key length limits count them (no length bytes); None: unknown
    #: (an expression, a missing column, a type whose size innolint does not know)
    bytes: int | None
    #: the length bytes a variable-length part takes in an index record (0 for fixed-length)
    length_bytes: int
    prefix: int | None
    charset: ResolvedCharset | None
    #: how the bytes were computed, for evidence: "VARCHAR(255) x 4 bytes (utf8mb4, the table's default)"
    note: str

    def __init__(self, column: str, bytes: int | None, length_bytes: int, prefix: int | None,
                 charset: ResolvedCharset | None, note: str) -> None:
        _set(self, "column", column)
        _set(self, "bytes", bytes)
        _set(self, "length_bytes", length_bytes)
        _set(self, "prefix", prefix)
        _set(self, "charset", charset)
        _set(self, "note", note)


class KeyWidth(FrozenRecord):
    __slots__ = __match_args__ = ("parts",)
    parts: tuple[KeyPartWidth, ...]

    def __init__(self, parts: tuple[KeyPartWidth, ...]) -> None:
        _set(self, "parts", parts)

    @property
    def known(self) -> bool:
        return all(p.bytes is not None for p in self.parts)

    @property
    def bytes(self) -> int:
        """The key's length as the server's limit counts it: the parts' bytes (unknown parts as 0)."""
        return sum(p.bytes or 0 for p in self.parts)

    @property
    def stored_bytes(self) -> int:
        """Bytes a secondary index record holds of this key, at most: the parts with their length
        bytes (a VARCHAR(255) utf8mb4 key: 1,020 + 2). What wide-primary-key multiplies."""
        return sum((p.bytes or 0) + p.length_bytes for p in self.parts)

    def explain(self) -> str:
        """How the width was counted: 'url VARCHAR(1000) x 4 bytes (utf8mb4, the table's default) = 4,000'."""
        if len(self.parts) == 1:
            return f"{self.parts[0].note} bytes"
        return " + ".join(p.note for p in self.parts) + f"; {self.bytes:,} bytes in all"


def key_part_width(
    table: Table, column_name: str, prefix: int | None, target: Target, schema: Schema | None = None,
    *, fmt: RowFormat | None = None,
) -> KeyPartWidth:
    """One key part: a whole column (its largest value in bytes) or a prefix (prefix characters x
    bytes per character; bytes for binary types). Verified on MariaDB: a key's length is the sum
    of these, without length bytes (KEY (a, b) on VARCHAR(1536) latin1 twice is accepted: 3,072)."""
    column = table.column(column_name)
    if column is None:
        return KeyPartWidth(column_name, None, 0, prefix, None, f"{column_name} (not a column of the table)")
    charset = column_charset(column, table, target, schema)
    size = column_bytes(column, charset)
    label = column.type + (f"({','.join(column.params)})" if column.params and column.type not in ("ENUM", "SET") else "")
    if size is None:
        return KeyPartWidth(column.name, None, 0, prefix, charset, f"{column.name} {label} (size unknown)")
    text = charset is not None and charset.charset != "binary"
    per_char = (charset.maxlen or 1) if text and charset is not None else 1
    if prefix is not None and (size.lob or size.max_bytes is None or prefix * per_char < size.max_bytes):
        nbytes = prefix * per_char
        how = f"{column.name}({prefix}) of {label}"
    elif size.lob or size.max_bytes is None:
        return KeyPartWidth(column.name, None, 0, prefix, charset, f"{column.name} {label} without a prefix length")
    else:
        nbytes = size.max_bytes
        how = f"{column.name} {label}"
    if text and charset is not None and (prefix is not None or column.type.upper() in ("CHAR", "VARCHAR")):
        how += f" x {per_char} bytes ({charset.describe()})"
    how += f" = {nbytes:,}"
    fmt = fmt or row_format(table)
    variable = not innodb_fixed(size, column, fmt, charset) or prefix is not None and size.lob
    length = (1 if nbytes <= 255 else 2) if variable else 0
    return KeyPartWidth(column.name, nbytes, length, prefix, charset, how)


#: bytes an ASCII character takes where it is not one: each of these sets' smallest character
#: (MySQL 8.0 manual 12.9.4-12.9.6: ucs2 and utf16 2 bytes, utf32 4), every other set 1
_ASCII_BYTES = {"ucs2": 2, "utf16": 2, "utf16le": 2, "utf32": 4}


def holding_values(part: KeyPartWidth, column: Column, chars: int) -> KeyPartWidth:
    """A key part whose column holds values of `chars` ASCII characters each (an ORM's id
    generator: cuid, UUID text, ULID, nanoid), as a secondary index record holds it: the value and
    its length bytes, not the declared maximum. VARCHAR/VARBINARY store the value; CHAR in a
    character set of several bytes a character is variable-length in COMPACT and DYNAMIC records,
    at least one byte a character (space-padded: MySQL 8.0 manual 17.10 "InnoDB Row Formats"); a
    fixed-length part (CHAR in a one-byte set, BINARY, REDUNDANT's CHAR) holds its declared width
    whatever the value. The length takes one byte for a value under 128 bytes or a column of at
    most 255 bytes, else two (the same page). Another type or a prefix: the part unchanged."""
    kind = column.type.upper()
    if part.bytes is None or part.prefix is not None or part.length_bytes == 0 \
            or kind not in ("CHAR", "VARCHAR", "BINARY", "VARBINARY"):
        return part
    text = part.charset is not None and part.charset.charset != "binary"
    per_char = _ASCII_BYTES.get(normalize_charset(part.charset.charset), 1) if text and part.charset else 1
    declared = column.length if column.length is not None else 1
    value = min(chars, declared) * per_char
    if kind == "CHAR":
        value = max(value, declared * per_char)
    if value >= part.bytes:
        return part
    length = 1 if value < 128 or part.bytes <= 255 else 2
    label = f"{column.type}({declared})"
    return KeyPartWidth(part.column, value, length, None, part.charset,
                        f"{column.name} {label} holding {chars}-character values x {per_char} "
                        f"byte{'s' if per_char > 1 else ''} = {value:,}")


def key_width(table: Table, index: Index, target: Target, schema: Schema | None = None) -> KeyWidth:
    """Every part of an index, in bytes for the table's character sets on the target. A part that
    is an expression has unknown width (`KeyWidth.known` is False)."""
    fmt = row_format(table)
    parts = []
    for part in index.columns:
        if part.expression:
            parts.append(KeyPartWidth(part.name, None, 0, None, None, "an expression"))
        else:
            parts.append(key_part_width(table, part.name, part.prefix, target, schema, fmt=fmt))
    return KeyWidth(tuple(parts))


# =============================================================================================
# Rows
# =============================================================================================
class RowSize(FrozenRecord):
    """A row's bytes three ways, for one row format and target, and what was counted."""

    __slots__ = __match_args__ = (
        "server_bytes", "create_check_bytes", "worst_bytes", "record_limit", "row_format", "unknown", "off_page",
    )
    #: the server's row (MAX_ROW_BYTES applies): columns' row bytes and the NULL bits
    server_bytes: int
    #: what InnoDB counts when it creates the table (innodb_strict_mode refuses >= record_limit):
    #: `dict_index_t::rec_potentially_too_big` (MariaDB) / `dict_index_too_big_for_tree` (MySQL)
    create_check_bytes: int
    #: the longest record the table's rows can make, with every column that may go off-page off-page:
    #: an INSERT or UPDATE of such a row fails when it is >= record_limit, whatever the CREATE did
    worst_bytes: int
    record_limit: int
    row_format: RowFormat
    #: columns whose size innolint does not know (left out of the sums)
    unknown: tuple[str, ...]
    #: columns counted off-page (their reference only) in worst_bytes
    off_page: tuple[str, ...]

    def __init__(
        self, server_bytes: int, create_check_bytes: int, worst_bytes: int, record_limit: int, row_format: RowFormat,
        unknown: tuple[str, ...], off_page: tuple[str, ...],
    ) -> None:
        _set(self, "server_bytes", server_bytes)
        _set(self, "create_check_bytes", create_check_bytes)
        _set(self, "worst_bytes", worst_bytes)
        _set(self, "record_limit", record_limit)
        _set(self, "row_format", row_format)
        _set(self, "unknown", unknown)
        _set(self, "off_page", off_page)


def _compressed_record_limit(n_fields: int, key_block_size: int) -> int:
    """ROW_FORMAT=COMPRESSED: an empty compressed page less its header and the room the fields'
    description takes, less one byte (page_zip_empty_size in page0zip.cc:
    zip_size - (PAGE_DATA + PAGE_ZIP_CLUST_LEAF_SLOT_SIZE + 1 + 1 - REC_N_NEW_EXTRA_BYTES)
    - compressBound(2 * (n_fields + 1)), then - 1; PAGE_DATA 94, the slot 2 + 6 + 7).
    Verified on MariaDB: the most CHAR(100) and TEXT columns a KEY_BLOCK_SIZE=8 table takes."""
    zip_size = key_block_size * 1024
    if zip_size >= PAGE_SIZE:  # a compressed page as large as the page: the uncompressed limit
        return PAGE_RECORD_MAX["compact"]
    description = 2 * (n_fields + 1)
    bound = description + (description >> 12) + (description >> 14) + (description >> 25) + 13  # zlib compressBound
    empty = zip_size - (94 + 15 + 1 + 1 - 5) - bound
    return max(0, empty - 1)


def _clustered_key_columns(table: Table) -> tuple[list[tuple[str, int | None]], bool]:
    """The clustered index's key parts as (column, prefix), and whether InnoDB adds DB_ROW_ID."""
    clustered = table.clustered_index
    if clustered is None:
        return [], True
    return [(p.name, p.prefix) for p in clustered.columns if not p.expression], False


#: a character set of the most bytes a character takes in any (4): what `row_may_be_too_big` counts text in
_WIDEST_TEXT = ResolvedCharset("utf8mb4", None, "column")
#: what a column may leave in an InnoDB record at most: a variable-length value and 2 length bytes, a
#: LOB's 768-byte prefix, 20-byte reference and length bytes (COMPACT and REDUNDANT; less in DYNAMIC)
_MOST_LOB_IN_RECORD = ANTELOPE_PREFIX_BYTES + EXTERN_REF_BYTES + 4
#: the most bytes a CHAR(255), BINARY(255) and the largest VARCHAR and VARBINARY take on every target (at 4 bytes
#: a character): a column over it is refused somewhere (`column_length_limit`)
_LONGEST = {"CHAR": 255 * 4, "BINARY": 255, "VARCHAR": MAX_VARCHAR_BYTES_MARIADB // 4 * 4,
            "VARBINARY": MAX_VARCHAR_BYTES_MARIADB}


def row_may_be_too_big(table: Table) -> bool:
    """False for a table no target refuses or cannot store a row of for its size, whatever the
    character sets, row format and target (every column measured at 4 bytes a character and
    counted twice in the record, as a clustered key part and as a column): a cheap screen before
    `row_size`, which resolves each column's character set. A COMPRESSED table, a type of unknown
    size, or a CHAR/BINARY/VARCHAR/VARBINARY longer than the smallest limit its type has on any
    target always pass it."""
    if (table.options.row_format or "").lower() == "compressed" or table.options.key_block_size:
        return True
    server = record = 0
    columns = table.columns
    for column in columns.values():
        kind = column.type.upper()
        size = column_bytes(column, _WIDEST_TEXT if kind not in BINARY_TYPES else _BINARY)
        if size is None:
            return True
        most = size.max_bytes
        if most is None:
            most = _MOST_LOB_IN_RECORD
        elif most > _LONGEST.get(kind, most):  # longer than the type allows somewhere (its bytes at 4 a character)
            return True
        server += size.row_bytes
        record += most + 2
    n = len(columns)
    # the server's row: the columns and the NULL bits; the record: a REDUNDANT header, 2 offset bytes a
    # field (every column twice and the system columns), the NULL flags, DB_TRX_ID, DB_ROLL_PTR, DB_ROW_ID
    server += (n + 8) // 8
    record = 2 * record + RECORD_HEADER["redundant"] + 2 * (2 * n + 3) + (n + 7) // 8 \
        + TRX_ID_BYTES + ROLL_PTR_BYTES + ROW_ID_BYTES
    return server > MAX_ROW_BYTES or record >= min(PAGE_RECORD_MAX.values())


def row_size(table: Table, target: Target, schema: Schema | None = None,
             charsets: Sequence[ResolvedCharset | None] | None = None) -> RowSize:
    """The table's row, counted as the server counts it (the 65,535-byte limit), as InnoDB counts
    it when it creates the table, and as the longest record its rows can make.

    InnoDB's count (MariaDB's `rec_potentially_too_big`, verified against the test server with
    generated tables; MySQL's `dict_index_too_big_for_tree`): a record header (5 bytes; REDUNDANT
    6 plus 2 per field), the NULL flags (one bit per nullable column; REDUNDANT none), the clustered
    key, DB_TRX_ID and DB_ROLL_PTR (and DB_ROW_ID without a key), then every stored column:
    fixed-length ones at their size; variable-length ones at their largest value plus 1 or 2
    length bytes, except those that may go off-page, counted as what they leave in the record:
    - MariaDB, DYNAMIC/COMPRESSED: a 20-byte reference and 1 length byte (21);
    - MariaDB, COMPACT/REDUNDANT: the 768-byte prefix and the reference (788, 790 with length bytes);
    - MySQL 5.7/8.x, DYNAMIC/COMPRESSED: 40 bytes and 1 length byte (41) for every variable-length
      column longer than 40 bytes, off-page or not (so MySQL's count can be lower than what rows
      need: a VARCHAR(100) latin1 counts 41, a full value takes 101);
    - MySQL, COMPACT/REDUNDANT: recent 8.0 releases and 8.4 count 788 + 2 like MariaDB, 5.7 and
      older 8.0 count 41; `create_check_bytes` takes the lower count for MySQL (the refusal is
      certain then) and `worst_bytes` what rows really need.

    `charsets`: each column's resolved character set, in column order, where the caller already
    has them (`column_charset` resolves table, schema and server defaults: it is most of the cost).
    """
    fmt = row_format(table)
    comp = fmt != "redundant"
    record_limit = PAGE_RECORD_MAX["compact" if comp else "redundant"]
    key, row_id = _clustered_key_columns(table)
    key_names = {name.lower(): prefix for name, prefix in key}
    # the clustered index's fields: key parts (prefix parts are stored again whole later), the
    # system columns, then every other stored column
    fields: list[tuple[Column | None, int | None, str]] = []
    for name, prefix in key:
        column = table.column(name)
        if column is not None:
            fields.append((column, prefix, "key"))
    system = TRX_ID_BYTES + ROLL_PTR_BYTES + (ROW_ID_BYTES if row_id else 0)
    n_system = 3 if row_id else 2
    for column in table.columns.values():
        if column.generated == "virtual":
            continue
        if column.name.lower() in key_names and key_names[column.name.lower()] is None:
            continue
        fields.append((column, None, "column"))
    n_fields = len(fields) + n_system
    if fmt == "compressed":
        record_limit = _compressed_record_limit(n_fields, table.options.key_block_size or 8)
    mariadb = target.is_mariadb
    server = 0
    nullable_server = 0
    packs = False
    create = worst = 0 if fmt == "compressed" else RECORD_HEADER["compact" if comp else "redundant"]
    if fmt == "compressed":
        create = worst = 2  # the dense page directory entry; no record header (dict0dict.cc)
    if comp:
        nullable = sum(1 for column, _, _ in fields if column is not None and column.nullable)
        create += (nullable + 7) // 8
        worst += (nullable + 7) // 8
    else:
        create += 2 * n_fields
        worst += 2 * n_fields
    create += system
    worst += system
    unknown: list[str] = []
    off_page: list[str] = []
    measured: dict[str, tuple[ResolvedCharset | None, ColumnBytes | None]] = {}
    for index, column in enumerate(table.columns.values()):  # the server's row holds every column, virtual ones too
        charset = charsets[index] if charsets is not None else column_charset(column, table, target, schema)
        size = column_bytes(column, charset)
        measured[column.name] = (charset, size)
        if size is None:
            continue
        server += size.row_bytes
        packs = packs or size.packs
        if column.nullable:
            nullable_server += 1
    for column, prefix, role in fields:
        assert column is not None
        charset, size = measured[column.name]
        if size is None:
            unknown.append(column.name)
            continue
        fixed = innodb_fixed(size, column, fmt, charset)
        if fixed:
            nbytes = size.max_bytes or 0
            if prefix is not None:
                nbytes = min(nbytes, prefix * ((charset.maxlen or 1) if charset else 1))
            create += nbytes
            worst += nbytes
            continue
        longest = size.max_bytes if size.max_bytes is not None else 1 << 32
        if prefix is not None:  # a key prefix: stored inline, never off-page
            longest = min(longest, prefix * ((charset.maxlen or 1) if charset else 1))
            length = 1 if longest < 256 else 2
            create += longest + length * comp
            worst += longest + length * comp
            continue
        length = 1 if longest < 256 else 2
        # what InnoDB counts at CREATE
        if mariadb:
            local = EXTERN_REF_BYTES if has_large_prefix(fmt) else EXTERN_REF_BYTES + ANTELOPE_PREFIX_BYTES
            if longest > local and longest > LOCAL_STORED_MAX_BYTES and size.big:
                counted = local + (1 if local < 256 else 2) * comp
            else:
                counted = longest + length * comp
        else:
            counted = LOCAL_STORED_MAX_BYTES + comp if longest > LOCAL_STORED_MAX_BYTES else longest + length * comp
        # what the longest row needs: off-page columns leave their reference (and the 768-byte
        # prefix in COMPACT/REDUNDANT); a value up to 40 bytes stays in the record
        if size.big and longest > LOCAL_STORED_MAX_BYTES:
            left = (LOCAL_STORED_MAX_BYTES + 1 * comp) if has_large_prefix(fmt) else (
                EXTERN_REF_BYTES + ANTELOPE_PREFIX_BYTES + 2 * comp)
            needed = min(left, longest + length * comp)
            off_page.append(column.name)
        else:
            needed = longest + length * comp
        create += counted
        worst += needed
    null_bits = nullable_server + (0 if packs else 1)  # a table of fixed-length rows keeps a "deleted" bit
    server += (null_bits + 7) // 8
    return RowSize(server, create, worst, record_limit, fmt, tuple(unknown), tuple(off_page))
