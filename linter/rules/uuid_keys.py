"""What makes a key column a random UUID (its type, width, name and default), and what the audit's
sampled key values say of their order: shared by uuid-primary-key, wide-primary-key and the
audit's key sampling. Also the workload thresholds that make a table insert-heavy by its counters,
which no-primary-key and uuid-primary-key both apply."""

from __future__ import annotations

import re
from functools import cache
from typing import Literal
from linter.rules.checkapi import KeySample
from linter.input.globs import name_match
from linter.parse.elements import Column
from linter.schema.model import Table
from linter.record import FrozenRecord


_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)


#: with workload counters: a table that took at least this many inserts, and inserts at least this
#: share of its fetches, is insert-heavy (no-primary-key counts it the same way)
DEFAULT_STATS_MIN_INSERTS = 10_000
DEFAULT_STATS_INSERT_RATIO = 0.1


TEXT_TYPES = frozenset({"CHAR", "VARCHAR"})


BINARY_TYPES = frozenset({"BINARY", "VARBINARY"})


#: name tokens of 16/32/36-byte keys that are not UUIDs (hashes, addresses)
_NOT_UUID_TOKENS = frozenset({"md5", "sha", "sha1", "hash", "digest", "checksum", "crc", "ip", "ipv6", "inet", "addr", "address", "mac"})


class _Patterns:
    """The check's regular expressions. Compiled on first use (`uuid_patterns()`): only a table keyed
    on a column that may hold UUIDs needs them, and compiling them costs a short run ~1 ms."""

    def __init__(self) -> None:
        self.created = re.compile(r"^(created?(_?(at|on|time|date|ts))?|creat(e|ion)_?(time|date)|inserted_?(at|on)|date_?(created|added))$")
        self.updated = re.compile(r"^((last_?)?(updated?|modified|changed)(_?(at|on|time|date|ts))?|(update|modify|modification|change)_?(time|date)|date_?(updated|modified))$")
        self.uuid_call = re.compile(r"\b(UUID|UUID_V4|SYS_GUID|RANDOM_BYTES)\s*\(", re.IGNORECASE)
        self.swapped = re.compile(r"\bUUID_TO_BIN\s*\(\s*UUID\s*\(\s*\)\s*,\s*(?:1|TRUE)\s*\)", re.IGNORECASE)
        self.v7_call = re.compile(r"\bUUID_V7\s*\(", re.IGNORECASE)
        self.v4_call = re.compile(r"\bUUID_V4\s*\(", re.IGNORECASE)
        self.ordered_comment = re.compile(
            r"uuid[\s_-]*v?7|\bulids?\b|time[\s_-]*(?:ordered|sorted|based[\s_-]+ordered)|(?:ordered|sequential)[\s_-]*uuid",
            re.IGNORECASE,
        )


@cache
def uuid_patterns() -> _Patterns:
    return _Patterns()


def name_tokens(name: str) -> list[str]:
    """`SESSION_PRIMARY_ID` -> [session, primary, id]; `ObjectGuid` -> [object, guid]."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [t for t in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if t]


class UuidKey(FrozenRecord):
    """The leading clustered-key column, read as a UUID."""

    __slots__ = __match_args__ = ("column", "shape", "form", "ordered")
    column: Column
    shape: str  # what says it is a UUID: "CHAR(36)", "BINARY(16) DEFAULT (UUID())", "VARCHAR(40) named guid"
    form: Literal["text", "binary", "native"]  # as text, as 16 bytes, or MariaDB's UUID type
    ordered: str | None  # why its values arrive in key order, or None when they are random

    def __init__(
        self, column: Column, shape: str, form: Literal["text", "binary", "native"], ordered: str | None,
    ) -> None:
        _set(self, "column", column)
        _set(self, "shape", shape)
        _set(self, "form", form)
        _set(self, "ordered", ordered)


class SampledOrder(FrozenRecord):
    """What the values read by `innolint audit --sample` say of a key's insert order: `kind`
    "random" (a finding, at least a warning), "ordered" or "not-uuid" (no finding); `sentence`
    for the message or the audit's note, `evidence` in short."""

    __slots__ = __match_args__ = ("kind", "sentence", "evidence")
    kind: Literal["random", "ordered", "not-uuid"]
    sentence: str
    evidence: str

    def __init__(self, kind: Literal["random", "ordered", "not-uuid"], sentence: str, evidence: str) -> None:
        _set(self, "kind", kind)
        _set(self, "sentence", sentence)
        _set(self, "evidence", evidence)


#: the versions whose values arrive in key order, by how the column stores them: as text the
#: timestamp leads only in v6 and v7 (v1 text starts with time_low, the fastest-changing part);
#: as bytes also v1 stored swapped (UUID_TO_BIN(UUID(), 1)); MariaDB's UUID type stores v1 swapped
#: and, as MariaDB 10.11 was seen to do, v6/v7 as they are (both sort by time on the server)
_ORDERED_VERSIONS = {
    "text": frozenset({"v6", "v7"}),
    "binary": frozenset({"v6", "v7", "v1-swapped"}),
    "native": frozenset({"v1", "v6", "v7", "v1-swapped"}),
}


_VERSION_WORDS = {
    "v1": "version 1 (time-based)", "v1-swapped": "version 1 stored swapped (timestamp's high part first)",
    "v2": "version 2", "v3": "version 3 (MD5 name hash)", "v4": "version 4 (random)",
    "v5": "version 5 (SHA-1 name hash)", "v6": "version 6 (time-ordered)", "v7": "version 7 (time-ordered)",
    "v8": "version 8 (custom layout)", "not-uuid": "not UUIDs", "random-bytes": "random bytes without a UUID layout",
}


def sampled_order(sample: KeySample) -> SampledOrder | None:
    """Read a key sample: random, time-ordered, or not UUIDs. None for an empty sample."""
    total = sum(sample.counts.values())
    if not total:
        return None
    ordered_versions = _ORDERED_VERSIONS.get(sample.form, _ORDERED_VERSIONS["text"])
    parts = sorted(sample.counts.items(), key=lambda item: (-item[1], item[0]))
    said = ", ".join(f"{n:,} {_VERSION_WORDS.get(label, label)}" for label, n in parts)
    read = f"Sampled from the server ({sample.how or f'{sample.sampled:,} values'}): {said}"
    not_uuid = sample.counts.get("not-uuid", 0)
    uuids = total - not_uuid
    noise = sample.counts.get("random-bytes", 0)
    if noise * 2 >= total:
        return SampledOrder("random", f"{read}: 16 random-looking bytes, not RFC 9562 UUIDs, so just as "
                            "random in key order.", f"sampled {total:,} values: random bytes, not UUIDs")
    not_uuid += noise
    uuids = total - not_uuid
    if not_uuid * 2 >= total:
        shown = f" (e.g. {', '.join(repr(e) for e in sample.examples[:2])})" if sample.examples else ""
        return SampledOrder("not-uuid", f"{read}{shown}: the column does not hold UUIDs.",
                            f"sampled {total:,} values: not UUIDs")
    ordered = sum(n for label, n in sample.counts.items() if label in ordered_versions)
    random_ = uuids - ordered
    how = {"text": "as text", "binary": "as bytes", "native": "in MariaDB's UUID type"}.get(sample.form, "")
    if random_ == 0:
        return SampledOrder("ordered", f"{read}: time-ordered {how}, so new rows append.",
                            f"sampled {total:,} values: time-ordered")
    share = random_ / uuids
    why = ""
    if sample.counts.get("v1") and "v1" not in ordered_versions:
        why = (" Version 1 values are random in this order: they start with time_low, the fastest-changing part "
               "of the timestamp.")
    if ordered:
        return SampledOrder("random", f"{read}: {share:.0%} of the UUIDs sort randomly {how} (mixed versions), "
                            f"so those inserts land on random pages.{why}",
                            f"sampled {total:,} values: mixed, {share:.0%} random")
    return SampledOrder("random", f"{read}: random in key order {how}, measured.{why}",
                        f"sampled {total:,} values: random")


def uuid_key(table: Table, column: Column, ordered_patterns: tuple[str, ...] = ()) -> UuidKey | None:
    """Read `column` as a UUID key: None when it does not hold UUIDs; `ordered` says why it is
    time-ordered when it is."""
    tokens = set(name_tokens(column.name))
    named = bool(tokens & {"uuid", "guid"}) or any(t.startswith(("uuid", "guid")) and t[4:].isdigit() for t in tokens)
    default = column.default or ""
    p = uuid_patterns()
    from_uuid = bool(p.uuid_call.search(default)) or bool(p.swapped.search(default)) or bool(p.v7_call.search(default))
    length = column.length
    shape = ""
    form: Literal["text", "binary", "native"] = "text"
    if column.type == "UUID":
        shape, form = "MariaDB UUID type", "native"
    elif column.type in TEXT_TYPES | BINARY_TYPES:
        form = "text" if column.type in TEXT_TYPES else "binary"
        if tokens & _NOT_UUID_TOKENS and not named and not from_uuid:
            return None
        written = f"{column.type}({length})" if length is not None else column.type
        if from_uuid:
            shape = f"{written} DEFAULT {default}"
        elif form == "text" and length == 36:
            shape = written
        elif form == "binary" and length == 16:
            shape = written
        elif named and (length is None or length >= 16):
            shape = f"{written} named {column.name}"
    if not shape:
        return None
    return UuidKey(column, shape, form, _why_ordered(table, column, form, default, ordered_patterns))


def _why_ordered(table: Table, column: Column, form: str, default: str, patterns: tuple[str, ...]) -> str | None:
    p = uuid_patterns()
    if p.swapped.search(default):
        return "UUID_TO_BIN(UUID(), 1) swaps the timestamp's high part to the front"
    if p.v7_call.search(default):
        return "UUID_v7() values are time-ordered"
    if form == "native" and not p.v4_call.search(default):
        return "MariaDB's UUID type stores UUID() values time-ordered"
    for text, where in ((column.comment, "column"), (table.options.comment, "table")):
        if text and (match := p.ordered_comment.search(text)):
            return f"the {where} COMMENT says {match.group(0)!r}"
    if "time-ordered" in table.annotations:
        return "`-- innolint: time-ordered` on its CREATE TABLE"
    names = [column.name.lower(), f"{table.name}.{column.name}".lower()]
    if table.schema:
        names.append(f"{table.schema}.{table.name}.{column.name}".lower())
    for pattern in patterns:
        if any(name_match(pattern, n) for n in names):
            return f"the time_ordered_columns option matches {pattern!r}"
    return None
