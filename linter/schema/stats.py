"""The stats file: workload and size evidence per table, exported from a live server.

Checks weigh advice by what a table actually does: a random-UUID primary key costs page splits
on every insert, so it matters on a table that takes many inserts and hardly at all on a lookup
table. `innolint check --stats FILE` reads that evidence from one JSON file, made by one query
against `performance_schema.table_io_waits_summary_by_table` (rows inserted, fetched, updated,
deleted per table since the server started) joined to `information_schema.TABLES` (row count
estimate and sizes). docs/stats.md ships that query.

This module is the single definition of the format: `StatsFile` is what the query writes and what
`innolint audit --export-stats` writes, `load_stats` turns a file into the `dict[str, TableStats]`
that `CheckContext.stats` holds. Format, version 1:

    {"version": 1, "server": "8.0.36", "exported_at": "2024-05-01T12:00:00Z", "uptime_seconds": 86400,
     "tables": [{"schema": "shop", "table": "orders",
                 "table_rows": 120000, "data_length": 16236544, "index_length": 4194304,
                 "avg_row_length": 135, "count_insert": 5000, "count_fetch": 900000,
                 "count_update": 1200, "count_delete": 0, "auto_increment": 120001}]}

Every number may be null (performance_schema off, a table never touched since start-up).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from linter.rules.checkapi import TableStats

#: the format version this module reads and writes
STATS_VERSION = 1

Count = int | None


class TableStatsRow(BaseModel):
    """One table: its identity, its size (information_schema.TABLES) and its row operations since
    the server started (performance_schema.table_io_waits_summary_by_table)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_: str = Field(alias="schema", min_length=1, description="TABLE_SCHEMA")
    table: str = Field(min_length=1, description="TABLE_NAME")
    table_rows: Count = Field(default=None, ge=0, description="TABLES.TABLE_ROWS (an estimate for InnoDB)")
    data_length: Count = Field(default=None, ge=0, description="TABLES.DATA_LENGTH: bytes of the clustered index")
    index_length: Count = Field(default=None, ge=0, description="TABLES.INDEX_LENGTH: bytes of secondary indexes")
    avg_row_length: Count = Field(default=None, ge=0, description="TABLES.AVG_ROW_LENGTH")
    count_insert: Count = Field(default=None, ge=0, description="rows inserted since start-up (COUNT_INSERT)")
    count_fetch: Count = Field(default=None, ge=0, description="rows read since start-up (COUNT_FETCH)")
    count_update: Count = Field(default=None, ge=0, description="rows updated since start-up (COUNT_UPDATE)")
    count_delete: Count = Field(default=None, ge=0, description="rows deleted since start-up (COUNT_DELETE)")
    auto_increment: Count = Field(default=None, ge=0, description="TABLES.AUTO_INCREMENT: the next value")

    def to_table_stats(self) -> TableStats:
        return TableStats(
            rows=self.table_rows,
            data_length=self.data_length,
            index_length=self.index_length,
            avg_row_length=self.avg_row_length,
            count_insert=self.count_insert,
            count_fetch=self.count_fetch,
            count_update=self.count_update,
            count_delete=self.count_delete,
            auto_increment=self.auto_increment,
        )


class StatsFile(BaseModel):
    """A whole stats file: where it came from and one row per table."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    version: Literal[1] = 1
    server: str | None = Field(default=None, description="@@version of the server it was taken from")
    exported_at: str | None = Field(default=None, description="UTC time of the export, ISO 8601")
    uptime_seconds: Count = Field(default=None, ge=0, description="server uptime: the counters cover this span")
    tables: list[TableStatsRow] = Field(default_factory=list)

    def to_json(self) -> str:
        """The file's text, as `innolint audit --export-stats` writes it."""
        return self.model_dump_json(by_alias=True, indent=2) + "\n"


class StatsError(Exception):
    """A stats file that cannot be used; the message names the file and what is wrong."""


def parse_stats(text: str, source: str = "<stats>") -> StatsFile:
    """Validate the text of a stats file. Raises StatsError naming `source` and the bad field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise StatsError(f"{source}: not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise StatsError(f"{source}: not a stats file: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise StatsError(f"{source}: expected a JSON object with \"version\" and \"tables\", got {type(data).__name__}")
    if "version" not in data:
        raise StatsError(f"{source}: missing \"version\" (this innolint reads version {STATS_VERSION})")
    if data["version"] != STATS_VERSION:
        raise StatsError(
            f"{source}: stats format version {data['version']!r} is not supported (this innolint reads version {STATS_VERSION})"
        )
    try:
        return StatsFile.model_validate(data)
    except ValidationError as error:
        problems = []
        for item in error.errors()[:5]:
            where = _location(item["loc"], data)
            problems.append(f"{where}: {item['msg']}")
        more = f" (and {error.error_count() - 5} more)" if error.error_count() > 5 else ""
        raise StatsError(f"{source}: " + "; ".join(problems) + more) from None


def _location(loc: tuple[int | str, ...], data: object) -> str:
    """`tables[3] (shop.orders).count_insert`: the path of a bad field, with the table it belongs to."""
    parts: list[str] = []
    node = data
    for step in loc:
        if isinstance(step, int):
            parts.append(f"[{step}]")
            if isinstance(node, list) and 0 <= step < len(node):
                node = node[step]
                if isinstance(node, dict) and "table" in node:
                    parts.append(f" ({node.get('schema')}.{node.get('table')})")
            continue
        parts.append(("." if parts else "") + str(step))
        node = node.get(step) if isinstance(node, dict) else None
    return "".join(parts) or "file"


def index_stats(rows: Iterable[TableStatsRow]) -> dict[str, TableStats]:
    """Key the rows as `CheckContext.stats` expects: lower-case "schema.table" and bare "table".

    A bare name gathers every schema's table of that name (tenant schemas share one design, and a
    schema file linted without `USE` names no schema): counts and sizes are summed and the average
    row length is recomputed from the sums.
    """
    stats: dict[str, TableStats] = {}
    bare: dict[str, list[TableStats]] = {}
    for row in rows:
        one = row.to_table_stats()
        stats[f"{row.schema_}.{row.table}".lower()] = one
        bare.setdefault(row.table.lower(), []).append(one)
    for name, group in bare.items():
        if name in stats:  # a table literally named "a.b": keep the qualified entry
            continue
        stats[name] = group[0] if len(group) == 1 else _summed(group)
    return stats


def _summed(group: list[TableStats]) -> TableStats:
    def total(field: str) -> int | None:
        values = [getattr(s, field) for s in group if getattr(s, field) is not None]
        return sum(values) if values else None

    rows, data = total("rows"), total("data_length")
    average = data // rows if rows and data is not None else max(
        (s.avg_row_length for s in group if s.avg_row_length is not None), default=None
    )
    return TableStats(
        rows=rows,
        data_length=data,
        index_length=total("index_length"),
        avg_row_length=average,
        count_insert=total("count_insert"),
        count_fetch=total("count_fetch"),
        count_update=total("count_update"),
        count_delete=total("count_delete"),
        # the highest counter of the tables that share the name: the one closest to its limit
        auto_increment=max((s.auto_increment for s in group if s.auto_increment is not None), default=None),
    )


def load_stats(path: str | Path, *, inside: str | None = None) -> dict[str, TableStats]:
    """Read a stats file into `CheckContext.stats`. Raises StatsError naming the file.

    The file must be a regular file of at most `linter.input.file_access.STATS_FILE_CAP` bytes and, with
    `inside` (the repository of the configuration that names it), lie in that directory: a
    pull request's `stats = "/dev/zero"` or a link out of the repository is refused, not read."""
    from linter.input.file_access import STATS_FILE_CAP, FileRefused, read_capped

    name = str(path)
    try:
        raw = read_capped(name, STATS_FILE_CAP, "stats file", inside=inside, expected="stats JSON file")
    except FileRefused as error:
        raise StatsError(str(error)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise StatsError(f"{name}: not UTF-8 text; expected a stats JSON file") from None
    return index_stats(parse_stats(text, name).tables)
