"""The types a rule's options take, said without pydantic: a rule module is imported by every run,
a pre-commit one included, and its options are validated only where a configuration file is read
(`linter.config.option_types` turns these into pydantic types there, and `innolint rules --format
json` into JSON Schema).

A rule declares `option_types={"min_size": SIZE, "max_key_bytes": Integer(ge=8)}` in its RuleDoc.
"""

from __future__ import annotations

import re
from typing import Any

from linter.record import FrozenRecord

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)


class OptionType(FrozenRecord):
    """One option's type: `kind` ("integer", "number", "size", "strings", "targets") and, for the
    numbers, the bounds its value must keep (None: unbounded)."""

    __slots__ = __match_args__ = ("kind", "ge", "gt", "le")
    kind: str
    ge: float | None
    gt: float | None
    le: float | None

    def __init__(self, kind: str, ge: float | None = None, gt: float | None = None, le: float | None = None) -> None:
        if kind not in ("integer", "number", "size", "strings", "targets"):
            raise ValueError(f"not an option type: {kind}")
        _set(self, "kind", kind)
        _set(self, "ge", ge)
        _set(self, "gt", gt)
        _set(self, "le", le)


def Integer(ge: int | None = None, gt: int | None = None, le: int | None = None) -> OptionType:  # noqa: N802
    return OptionType("integer", ge, gt, le)


def Number(ge: float | None = None, gt: float | None = None, le: float | None = None) -> OptionType:  # noqa: N802
    return OptionType("number", ge, gt, le)


#: a size in bytes: a number, or a string such as '1GiB' (`size_bytes`)
SIZE = OptionType("size")
#: a list of strings (column names, patterns)
STRINGS = OptionType("strings")
#: a list of target server names (`linter.schema.target.TARGETS`)
TARGET_NAMES = OptionType("targets")

#: the units `size_bytes` reads (binary: K is 1024), upper-cased: "", "B", "K", "KB", "KIB", ...
_SIZE_UNITS = {prefix + suffix: 1024 ** power for power, prefix in enumerate(("", "K", "M", "G", "T"))
               for suffix in ("", "B", "IB")}


def size_bytes(value: Any) -> int:
    """Bytes from an int or a string such as '1GiB', '512M', '2 GB' (binary units); ValueError
    for anything else (the configuration reports it under the option's name)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        return int(value)
    if isinstance(value, str):
        # the number by one regex, the unit by a table: a regex with `\s*` around optional parts
        # backtracks on "1   ...x" (a configuration value), quadratically in its length
        text = value.strip()
        number = re.match(r"[0-9]+(?:\.[0-9]*)?", text)
        unit = text[number.end():].lstrip().upper() if number else None
        if number and unit in _SIZE_UNITS:
            return int(float(number.group()) * _SIZE_UNITS[unit])
    raise ValueError("not a size: a number of bytes, or a string like '1GiB' or '512MiB'")


def parse_size(value: object, default: int) -> int:
    """`size_bytes`, or `default` for a value that is not a size (options given in code, not
    through a configuration file, are not checked beforehand)."""
    try:
        return size_bytes(value)
    except ValueError:
        return default
