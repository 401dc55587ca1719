"""Whether a number can be the default of a DATE, DATETIME, TIMESTAMP, TIME or YEAR column.

A number given to a temporal column is read as digits in fixed places (`20200101` is
2020-01-01, `101` is 2000-01-01, `240000` is 2024-00-00, `1231235959` is 2000-12-31 23:59:59):
the server's `number_to_datetime` and `number_to_time`. A number that does not spell a valid
value is refused in a DEFAULT under strict mode (error 1067) by MySQL 5.7+ and MariaDB 10.2+
alike, so a replay that kept it would keep a table the server never changed.

Each rule was asked of MariaDB 10.11 (tests/test_replay_refusals.py runs the cases on the server);
where MySQL reads a number differently (a TIME beyond 838:59:59 that spells a date), or where the
answer depends on the session's time zone (a TIMESTAMP in 1970 or 2038) or on sql_mode
(zero parts, which NO_ZERO_IN_DATE refuses and the zero-date-default check reports), nothing is
judged: only what both servers refuse is refused.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation

#: the largest TIME written as a number: 838:59:59
_TIME_MAX = 8385959
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
#: YY_PART_YEAR: two-digit years below it are 20YY, the others 19YY
_YY_PART_YEAR = 70

#: what a verdict says: True refused, False accepted, None not judged
Verdict = bool | None


def number_default_refused(kind: str, text: str) -> Verdict:
    """Whether the server refuses the number `text` as the DEFAULT of a column of type `kind`
    (upper case); None for a type this does not judge or a number it cannot be sure of."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    if kind == "YEAR":
        year = int(value.to_integral_value(rounding=ROUND_HALF_UP))
        return not (0 <= year <= 99 or 1901 <= year <= 2155)
    whole = int(abs(value).to_integral_value(rounding=ROUND_DOWN))
    if kind == "TIME":
        return _time_refused(whole, negative=value < 0)
    if kind not in ("DATE", "DATETIME", "TIMESTAMP"):
        return None
    if value < 0:
        return True if whole else None
    parts = _datetime_parts(whole)
    if parts is None or not _in_range(parts) or not _valid_day(parts):
        return True
    if kind != "TIMESTAMP":
        return False
    if whole == 0:
        return False if value == 0 else None  # the zero date, or a fraction of it (refused by MariaDB)
    year, month, day = parts[:3]
    if month == 0 or day == 0:
        return True  # a TIMESTAMP holds no zero in a date but the zero date itself
    if year < 1970 or year > 2038:
        return True
    return None if year in (1970, 2038) else False


def _time_refused(whole: int, *, negative: bool) -> Verdict:
    """`number_to_time`: HHMMSS up to 838:59:59, minutes and seconds below 60. A larger positive
    number is read as a date and time on MariaDB (and on MySQL from 10,000,000,000 on), so it is
    refused only when it is no valid one on either."""
    if whole <= _TIME_MAX:
        return whole % 100 >= 60 or whole // 100 % 100 >= 60
    if negative:
        return True
    parts = _datetime_parts(whole)
    if parts is None or not _in_range(parts):
        return True
    return None


def _datetime_parts(number: int) -> tuple[int, int, int, int, int, int] | None:
    """The server's `number_to_datetime`: (year, month, day, hour, minute, second), or None where
    the number fits none of YYMMDD, YYYYMMDD, YYMMDDhhmmss, YYYYMMDDhhmmss."""
    if number != 0 and number < 10000101000000:
        if number < 101:
            return None
        if number <= (_YY_PART_YEAR - 1) * 10000 + 1231:
            number = (number + 20000000) * 1000000
        elif number < _YY_PART_YEAR * 10000 + 101:
            return None
        elif number <= 991231:
            number = (number + 19000000) * 1000000
        elif number < 10000101:
            return None
        elif number <= 99991231:
            number *= 1000000
        elif number < 101000000:
            return None
        elif number <= (_YY_PART_YEAR - 1) * 10000000000 + 1231235959:
            number += 20000000000000
        elif number < _YY_PART_YEAR * 10000000000 + 101000000:
            return None
        elif number <= 991231235959:
            number += 19000000000000
    elif number > 99999999999999:
        return None
    date, time = divmod(number, 1000000)
    return (date // 10000, date // 100 % 100, date % 100, time // 10000, time // 100 % 100, time % 100)


def _in_range(parts: tuple[int, int, int, int, int, int]) -> bool:
    """`check_datetime_range`: each field within its widest bounds."""
    year, month, day, hour, minute, second = parts
    return year <= 9999 and month <= 12 and day <= 31 and hour <= 23 and minute <= 59 and second <= 59


def _valid_day(parts: tuple[int, int, int, int, int, int]) -> bool:
    """`check_date` without ALLOW_INVALID_DATES: the day exists in its month (February 29 in leap
    years only). A zero month or day is left to sql_mode (NO_ZERO_IN_DATE)."""
    year, month, day = parts[:3]
    if month == 0 or day == 0:
        return True
    if month == 2 and day == 29:
        return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= _DAYS_IN_MONTH[month - 1]
