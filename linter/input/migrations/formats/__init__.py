"""Migration formats: one module per tool (`base.Format` is what each answers), registered here in
one list, as checks/__init__.py registers the rules.

The order of `FORMATS` is the order a directory is detected in (`Format.detect` is asked of each
in turn, where nothing is configured): the formats that read more than names first (an integrity
file, a changelog), then the ones told by their names, a family's first format reading the names
(on a tie between families, the earlier family wins), and last the formats of a family told apart
by their annotations before the plain one. The configuration's `[[migrations]] format` choices
(`NAMES`), `innolint fix --migration` and docs/migration-formats.md (scripts/gen_docs.py) read
this list; nothing outside this package names a format (tests/test_layout.py).
"""

from __future__ import annotations

from linter.input.migrations.formats import (
    atlas,
    authelia,
    dbmate,
    diesel,
    flyway,
    golang_migrate,
    goose,
    lexical,
    liquibase,
    prisma,
    timestamp,
)
from linter.input.migrations.formats.base import Format, naming

FORMATS: tuple[Format, ...] = (
    atlas.FORMAT,
    liquibase.FORMAT,
    flyway.FORMAT,
    authelia.FORMAT,
    golang_migrate.FORMAT,
    diesel.FORMAT,
    prisma.FORMAT,
    goose.FORMAT,
    dbmate.FORMAT,
    timestamp.FORMAT,
    lexical.FORMAT,
)
#: the format of a configured directory whose files follow no other format
FALLBACK: Format = lexical.FORMAT
#: every format's name: what `[[migrations]] format` may say, besides "auto"
NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS)
#: the formats that read each family of file names, in order (`base.classify`)
NAMING: tuple[Format, ...] = tuple(naming(FORMATS))
_BY_NAME = {f.name: f for f in FORMATS}


def named(name: str) -> Format:
    """The format of that name (a `History.format`, a configured format); KeyError for another."""
    return _BY_NAME[name]


def of_family(family: str) -> Format:
    """The format that reads a family of file names first (an `Entry.family`)."""
    return next(f for f in NAMING if f.family == family)


def record_tables() -> tuple[str, ...]:
    """The tables any format's tool records the migrations that ran in: a schema dump may come
    from the application's framework whichever tool runs its SQL."""
    return tuple(dict.fromkeys(table for f in FORMATS for table in f.record_tables))


def documentation() -> str:
    """docs/migration-formats.md: every format as its module describes itself, in the registry's order."""
    tables = ", ".join(f"`{t}`" for t in record_tables())
    lines = [
        "# Migration formats",
        "",
        "Generated from the formats' code (`linter/input/migrations/formats/`, one module per format; "
        "`python scripts/gen_docs.py`). A directory whose SQL files follow one of these formats is one schema "
        "history, replayed in order; any other directory stays one unit per file. `[[tool.innolint.migrations]]` "
        "with `format = \"NAME\"` makes a directory a history of that format; `auto` (the default) asks the "
        "formats below in this order whether the directory is theirs, and a configured directory whose files "
        f"follow none is read in {FALLBACK.title}.",
        "",
        f"A schema dump beside a history that records which migrations ran (rows of {tables}) is the "
        "history's baseline: it is replayed first, and the migrations it records are left out, as the "
        "frameworks do when they load their dump.",
        "",
        "| format | run by | annotations obeyed | baseline | records what ran in |",
        "|---|---|---|---|---|",
    ]
    for fmt in FORMATS:
        run_by = "the mysql client" if fmt.client else "the tool"
        recorded = ", ".join(f"`{t}`" for t in fmt.record_tables) or "-"
        lines.append(f"| `{fmt.name}` | {run_by} | {'yes' if fmt.sections else 'no'} | "
                     f"{'yes' if fmt.baseline else 'no'} | {recorded} |")
    for fmt in FORMATS:
        lines += [
            "",
            f"## `{fmt.name}` ({fmt.title})",
            "",
            f"- Files: {fmt.doc}.",
            "- Run by: " + ("the mysql client: its commands (`\\g`, `use db`, `DELIMITER`) and its `--` rule hold."
                            if fmt.client else "the tool, which sends the statements to the server itself: the "
                            "mysql client's commands are text to it."),
            f"- `innolint fix --migration`: {fmt.writes}.",
        ]
    return "\n".join(lines) + "\n"
