"""What a target does with a DATE, DATETIME or TIMESTAMP default that is a zero date or a
zero-in-date: the one decision zero-date-default reports and `innolint fix --migration` asks of
the tables its fixes alter (the server judges the whole table at every ALTER: while one column
keeps a default the target's default sql_mode refuses, every ALTER of the table fails with 1067).

What each target does (MySQL from its manual, MariaDB verified on 10.11 by
tests/test_zero_date_default.py): see checks/zero_date_default.py.
"""

from __future__ import annotations

import re

from linter.record import FrozenRecord
from linter.rules.findings import Severity
from linter.parse.elements import Column
from linter.schema.model import Table
from linter.schema.target import Target

_set = object.__setattr__

DATE_TYPES = frozenset({"DATE", "DATETIME", "TIMESTAMP"})
#: 'YYYY-MM-DD[ time]' with any one punctuation character between the parts (the server's relaxed
#: format), or 'YYYYMMDD[HHMMSS]' (MySQL 8.0 manual 13.2.1 "Date and Time Literals")
_DELIMITED = re.compile(r"(\d{1,4})[^\d](\d{1,2})[^\d](\d{1,2})(?:[ T][\d:.]*)?")
_DIGITS = re.compile(r"(\d{4})(\d{2})(\d{2})(?:\d{6}(?:\.\d*)?)?")


def invalid_default_error(column: str) -> str:
    return f"ERROR 1067 (42000): Invalid default value for '{column}'"


def zero_parts(default: str | None) -> tuple[int, int, int] | None:
    """(year, month, day) of a default that is a zero date or has a zero month or day; None for
    any other default (a real date, CURRENT_TIMESTAMP, NULL, an expression)."""
    if default is None:
        return None
    value = default.strip()
    if value.startswith("(") and value.endswith(")"):
        value = value[1:-1].strip()
    quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "'\""
    if quoted:
        value = value[1:-1].strip()
    elif re.fullmatch(r"0+(?:\.0*)?", value):  # DEFAULT 0: the zero date
        return (0, 0, 0)
    else:
        return None
    match = _DELIMITED.fullmatch(value) or _DIGITS.fullmatch(value)
    if match is None:
        return None
    year, month, day = (int(g) for g in match.groups()[:3])
    if month == 0 or day == 0:
        return (year, month, day)
    return None


def _time_is_zero(default: str) -> bool:
    """Whether the time after a zero date is zero too ('0000-00-00 00:00:00' is TIMESTAMP's zero
    value; '0000-00-00 10:30:00' is no TIMESTAMP at all)."""
    digits = [ch for ch in default.split(" ", 1)[1] if ch.isdigit()] if " " in default.strip(" '\"") else []
    return not any(ch != "0" for ch in digits)


class ZeroDateProblem(FrozenRecord):
    __slots__ = __match_args__ = ("severity", "message", "evidence", "implicit")
    severity: Severity
    message: str
    evidence: str
    #: the zero default is the server's (an implicit TIMESTAMP default), not written
    implicit: bool

    def __init__(self, severity: Severity, message: str, evidence: str, implicit: bool = False) -> None:
        _set(self, "severity", severity)
        _set(self, "message", message)
        _set(self, "evidence", evidence)
        _set(self, "implicit", implicit)


def first_timestamp_column(table: Table) -> Column | None:
    return next((c for c in table.columns.values() if c.type.upper() == "TIMESTAMP"), None)


def zero_date_problem(table: Table, column: Column, target: Target, first_timestamp: Column | None = None
                      ) -> ZeroDateProblem | None:
    """The one decision: what the target does with this column's zero or zero-in-date default.
    `first_timestamp`: the table's first TIMESTAMP column, when the caller has it (else looked up)."""
    kind = column.type.upper()
    if kind not in DATE_TYPES or column.generated:
        return None
    parts = zero_parts(column.default)
    name = f"{table.name}.{column.name}"
    if parts is None:
        implicit = (kind == "TIMESTAMP" and column.default is None and not column.nullable
                    and not target.explicit_defaults_for_timestamp
                    and (first_timestamp or first_timestamp_column(table)) is not column)
        if not implicit:
            return None
        evidence = (f"{column.name} TIMESTAMP NOT NULL without DEFAULT, not the table's first TIMESTAMP; "
                    f"explicit_defaults_for_timestamp=OFF is {target.label}'s default")
        if target.is_mariadb:
            return ZeroDateProblem("warning", f"{name}: TIMESTAMP NOT NULL without a DEFAULT; with {target.label}'s default "
                                   "explicit_defaults_for_timestamp=OFF the server gives it DEFAULT '0000-00-00 00:00:00' "
                                   "without a word (MariaDB 10.10+ and MySQL 8.0 do not, and MySQL 5.7 refuses it).",
                                   evidence, implicit=True)
        return ZeroDateProblem("error", f"{name}: TIMESTAMP NOT NULL without a DEFAULT; with {target.label}'s default "
                               "explicit_defaults_for_timestamp=OFF it would get DEFAULT '0000-00-00 00:00:00', which the "
                               f"default sql_mode (NO_ZERO_DATE, strict) refuses: {invalid_default_error(column.name)}",
                               evidence, implicit=True)
    year, month, day = parts
    zero = (year, month, day) == (0, 0, 0)
    what = "the zero date" if zero else f"a zero {'month' if month == 0 else 'day'} (a zero-in-date)"
    evidence = f"{column.name} {kind} DEFAULT {column.default}: {what}"
    if not target.is_mariadb:
        mode = "NO_ZERO_DATE" if zero else "NO_ZERO_IN_DATE"
        return ZeroDateProblem("error", f"{name}: DEFAULT {column.default} is {what}; {target.label}'s default sql_mode "
                               f"(STRICT_TRANS_TABLES with {mode}) refuses it: {invalid_default_error(column.name)}", evidence)
    if kind == "TIMESTAMP" and not (zero and _time_is_zero(column.default or "")):
        return ZeroDateProblem("error", f"{name}: DEFAULT {column.default} is {what}, outside TIMESTAMP's range; "
                               f"{target.label} refuses it whatever the sql_mode: {invalid_default_error(column.name)}", evidence)
    return ZeroDateProblem("warning", f"{name}: DEFAULT {column.default} is {what}; {target.label}'s default sql_mode "
                           "accepts it, but MySQL 5.7+ (NO_ZERO_DATE/NO_ZERO_IN_DATE with strict mode, its default) "
                           f"refuses the same DDL ({invalid_default_error(column.name)}), a server configured the same "
                           "way does too, and a zero date is no date: drivers and tools stumble on it.", evidence)
