"""What values a column's type holds, and what a change of type loses (`loss`): a shorter
VARCHAR, a smaller or unsigned integer, fewer digits or fractional seconds, fewer ENUM values, a
narrower character set. The server copies every row into the new definition: under the default
strict sql_mode the ALTER TABLE fails at the first row that does not fit (error 1265, 1264, 1366 ...,
after copying up to there), without it the value is cut or changed without a word. Verified on
MariaDB 10.11 by tests/test_destructive_change.py: for each change the test stores the old type's
extreme value and the server refuses the ALTER exactly where `loss` says it loses.

Said only where it is certain from the types: a change that may keep every value (INT to
BIGINT, VARCHAR(20) to VARCHAR(40), utf8mb3 to utf8mb4, a type to a string long enough for its
every value) is no loss.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linter.schema.innodb_sizes import CHARSET_MAXLEN
from linter.parse.charsets import normalize_charset
from linter.parse.body import INT_BITS

if TYPE_CHECKING:
    from linter.parse.elements import Column

_DECIMAL = frozenset({"DECIMAL", "DEC", "NUMERIC", "FIXED"})
#: the significant digits a FLOAT and a DOUBLE keep as the server shows them (FLT_DIG, DBL_DIG)
_FLOAT = {"FLOAT": 6, "REAL": 15, "DOUBLE": 15}
_CHARS = frozenset({"CHAR", "VARCHAR"})
_BYTES = frozenset({"BINARY", "VARBINARY"})
#: the most bytes a TEXT / BLOB type holds
_LOB_BYTES = {"TINYTEXT": 255, "TEXT": 65_535, "MEDIUMTEXT": 16_777_215, "LONGTEXT": 4_294_967_295,
              "TINYBLOB": 255, "BLOB": 65_535, "MEDIUMBLOB": 16_777_215, "LONGBLOB": 4_294_967_295, "JSON": 4_294_967_295}
_STRINGS = _CHARS | _BYTES | frozenset(_LOB_BYTES)
#: the characters each character set holds, as sets that contain one another: ascii < latin1 (and
#: every other 8-bit set, which hold different characters) < the Basic Multilingual Plane (utf8mb3,
#: ucs2) < every Unicode character (utf8mb4, utf16, utf32)
_UNICODE = {"utf8mb4": 4, "utf16": 4, "utf16le": 4, "utf32": 4, "utf8mb3": 3, "ucs2": 3}
_FRACTION_TYPES = frozenset({"DATETIME", "TIMESTAMP", "TIME"})
#: how far each temporal type reaches, to compare: DATE and DATETIME from year 1000 (0) to 9999,
#: TIMESTAMP 1970 to 2038
_TEMPORAL_RANGE = {"DATETIME": 2, "DATE": 1, "TIMESTAMP": 0}
#: temporal types by the kind of value they hold: a change between kinds keeps none
_TEMPORAL_KINDS = {"DATETIME": "date", "DATE": "date", "TIMESTAMP": "date", "TIME": "time", "YEAR": "year"}


def _int_range(kind: str, unsigned: bool) -> tuple[int, int] | None:
    bits = INT_BITS.get(kind)
    if bits is None:
        return None
    if kind == "SERIAL":
        unsigned = True
    return (0, 2 ** bits - 1) if unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def _decimal(column: Column) -> tuple[int, int]:
    """(digits before the point, digits after it) of a DECIMAL(p, s): DECIMAL is DECIMAL(10, 0)."""
    precision = int(column.params[0]) if column.params and column.params[0].isdigit() else 10
    scale = int(column.params[1]) if len(column.params) > 1 and column.params[1].isdigit() else 0
    return precision - scale, scale


def _digits(low: int, high: int) -> int:
    return max(len(str(abs(low))), len(str(high)))


def _fraction(column: Column) -> int:
    return int(column.params[0]) if column.params and column.params[0].isdigit() else 0


def _chars(column: Column) -> int | None:
    """The characters (CHAR, VARCHAR) or bytes (BINARY, VARBINARY) a sized string holds."""
    if column.type.upper() in ("CHAR", "BINARY") and not column.params:
        return 1
    return column.length


def _max_bytes(column: Column, charset: str | None) -> int | None:
    kind = column.type.upper()
    if kind in _LOB_BYTES:
        return _LOB_BYTES[kind]
    length = _chars(column)
    if length is None:
        return None
    return length * (CHARSET_MAXLEN.get(normalize_charset(charset), 4) if kind in _CHARS and charset else 1)


def _charset_loss(old: str | None, new: str | None) -> str | None:
    if old is None or new is None:
        return None
    was, now = normalize_charset(old), normalize_charset(new)
    if was == now or now == "binary" or was == "binary":
        return None  # (to binary: the bytes are kept; from binary: the server checks each value, innolint cannot)
    if was == "ascii":
        return None
    if was in _UNICODE and now in _UNICODE:
        if _UNICODE[now] >= _UNICODE[was]:
            return None
        return (f"{was} to {now}: characters outside the Basic Multilingual Plane (emoji, some CJK) cannot be stored "
                "in it")
    if now in _UNICODE:
        return None  # every 8-bit character set's characters are in Unicode
    return f"{was} to {now}: characters {now} does not have cannot be stored in it"


def loss(old: Column, new: Column, old_charset: str | None = None, new_charset: str | None = None) -> str | None:
    """What values a column loses when `old` becomes `new` (with the character sets each stores
    text in), said as a sentence; None when every value of `old` fits `new`."""
    was, now = old.type.upper(), new.type.upper()
    before, after = f"{_written(old)}", f"{_written(new)}"
    old_range, new_range = _int_range(was, old.unsigned), _int_range(now, new.unsigned)
    if old_range is not None:
        if new_range is not None:
            if new_range[0] > old_range[0] or new_range[1] < old_range[1]:
                return f"{before} to {after}: values outside {new_range[0]:,}..{new_range[1]:,} are out of range"
            return None
        if now in _DECIMAL:
            whole, _ = _decimal(new)
            if whole < _digits(*old_range) or (new.unsigned and old_range[0] < 0):
                return f"{before} to {after}: {after} holds fewer digits than {before} does"
            return None
        if now in _FLOAT:
            if _digits(*old_range) > _FLOAT[now]:
                return f"{before} to {after}: a {now} keeps {_FLOAT[now]} significant digits, not every integer's"
            return None
    if was in _DECIMAL:
        whole, scale = _decimal(old)
        if now in _DECIMAL:
            new_whole, new_scale = _decimal(new)
            if new_whole < whole or (new.unsigned and not old.unsigned):
                return f"{before} to {after}: fewer digits before the point"
            if new_scale < scale:
                return f"{before} to {after}: fewer digits after the point (values are rounded)"
            return None
        if now in _FLOAT:
            if whole + scale > _FLOAT[now]:
                return f"{before} to {after}: a {now} keeps {_FLOAT[now]} significant digits"
            return None
        if new_range is not None:
            if scale:
                return f"{before} to {after}: the fractions are rounded away"
            if _digits(*new_range) <= whole or (new.unsigned and not old.unsigned):
                return f"{before} to {after}: values outside {new_range[0]:,}..{new_range[1]:,} are out of range"
            return None
    if was in _FLOAT:
        if now in _FLOAT and _FLOAT[now] < _FLOAT[was]:
            return f"{before} to {after}: a {now} keeps fewer significant digits"
        if new_range is not None or now in _DECIMAL:
            return f"{before} to {after}: fractions and values beyond the new type's range are lost"
        return None
    if was in _FRACTION_TYPES and now in _FRACTION_TYPES and was == now:
        if _fraction(new) < _fraction(old):
            return f"{before} to {after}: fewer fractional digits of seconds (values are rounded)"
        return None
    if (was in _TEMPORAL_KINDS and now in _TEMPORAL_KINDS and _TEMPORAL_KINDS[was] != _TEMPORAL_KINDS[now]):
        return f"{before} to {after}: a {now} holds another kind of value (a date, a time of day, a year)"
    if was in _TEMPORAL_RANGE and now in _TEMPORAL_RANGE:
        if was != "DATE" and now == "DATE":
            return f"{before} to {after}: the time of day is dropped"
        if _TEMPORAL_RANGE[now] < _TEMPORAL_RANGE[was]:
            return f"{before} to {after}: TIMESTAMP holds only 1970-01-01 to 2038-01-19 (UTC)"
        if _fraction(new) < _fraction(old):
            return f"{before} to {after}: fewer fractional digits of seconds (values are rounded)"
        return None
    if was in ("ENUM", "SET") and now == was:
        gone = [value for value in old.params if value not in new.params]
        if gone:
            return f"{before} to {after}: {', '.join(gone[:5])}{' ...' if len(gone) > 5 else ''} no longer allowed"
        return None
    if was in _STRINGS and now in _STRINGS:
        if was in _CHARS and now in _CHARS:
            length, new_length = _chars(old), _chars(new)
            if length is not None and new_length is not None and new_length < length:
                return f"{before} to {after}: values longer than {new_length:,} characters are cut"
        elif was in _BYTES and now in _BYTES:
            length, new_length = _chars(old), _chars(new)
            if length is not None and new_length is not None and new_length < length:
                return f"{before} to {after}: values longer than {new_length:,} bytes are cut"
        else:
            most, new_most = _max_bytes(old, old_charset), _max_bytes(new, new_charset)
            if most is not None and new_most is not None and new_most < most:
                return f"{before} to {after}: values longer than {new_most:,} bytes are cut"
        if (was in _CHARS or was in _LOB_BYTES and "TEXT" in was) and (now in _CHARS or "TEXT" in now):
            return _charset_loss(old_charset, new_charset)
        return None
    if was in _STRINGS and (new_range is not None or now in _DECIMAL or now in _FLOAT or now in _TEMPORAL_RANGE):
        return f"{before} to {after}: text that is not a {now.lower()} value cannot be stored in it"
    if old_range is not None and now in _CHARS:
        length = _chars(new)
        if length is not None and length < _digits(*old_range) + (1 if old_range[0] < 0 else 0):
            return f"{before} to {after}: numbers longer than {length} characters are cut"
    return None


def _written(column: Column) -> str:
    text = column.type.upper() + (f"({','.join(column.params)})" if column.params and column.type.upper()
                                  not in ("ENUM", "SET") else "")
    if column.type.upper() in ("ENUM", "SET"):
        text += "(" + ",".join(column.params[:4]) + (",..." if len(column.params) > 4 else "") + ")"
    return text + (" UNSIGNED" if column.unsigned else "")
