"""What the input stage hands on: a `Statement` with its place (path, line, column, end line, the
comments before it, the executable comment it was read from), a `Note` the splitter or a format's
reading reports at a place, and a `Segment`, a part of a file read on its own (a Liquibase
changeset, an Atlas file's statements). Plain tuples and records: built per statement, compared
by value."""

from __future__ import annotations

from typing import NamedTuple



class Statement(NamedTuple):
    """One statement as the server would receive it, and where it stands in its file.

    Immutable. A named tuple rather than a frozen dataclass: a dump yields a million of these,
    and a frozen dataclass costs 1.7 us each to build against 0.2 us (see bench/README.md).
    """

    text: str  # executable comments unwrapped in place; no delimiter; starts at the first SQL token
    path: str
    line: int  # 1-based line of the first SQL token
    column: int  # 1-based column of the first SQL token
    end_line: int  # line of the statement's last character
    #: texts of the comments just before the statement and after it on its end line
    #: (`-- innolint: ...` directives live there), without the comment markers
    comments: tuple[str, ...] = ()
    #: the version of the executable comment that wrapped the whole statement ("50001", "M!100301"), if any
    executable: str | None = None
    #: statements the client sends in one packet (`a; b` under a DELIMITER other than `;`, the
    #: statements of a compound block) share a number: the server stops the packet at the first
    #: one it refuses and runs none after it. 0: a statement of its own
    packet: int = 0


class Note(NamedTuple):
    """Something in the input the splitter reports at its place (the engine makes each a
    Diagnostic): text the server would read otherwise than innolint replays it (an unterminated
    quote, a statement over the size innolint reads, DDL in a branch of an IF, a client command
    innolint does not follow)."""

    line: int
    column: int
    message: str
    rule: str = "parse-error"
    severity: str = "warning"
    end_line: int = 0
    excerpt: str = ""


class Segment(NamedTuple):
    """A part of a file that a migration tool reads on its own (a Liquibase changeset, a file with
    Atlas's `-- atlas:delimiter`), put into the chunks given to `split_stream` by that format's
    reading of the file (`Format.read_chunks`, linter.input.migrations.formats) where the part starts, always at the
    start of a line. What is still open there ends as at the end of input (a statement without its
    delimiter, an unclosed quote: the tool sends the part's text as it is), and the part is split
    as `split` says: "packet", at each `;` except inside a compound statement (a stored program
    keeps its `;`s: Liquibase's splitter skips BEGIN ... END, as the server's multi-statement
    reading does); "whole", one statement (Liquibase's `splitStatements:false`, the text sent as
    it is); "delimiter", at `delimiter` (Liquibase's `endDelimiter`, Atlas's delimiter), like the
    client's DELIMITER. `notes` are reported at their place (a changeset not run on the target);
    `part` names the part in what the splitter reports ("changeset")."""

    split: str = "packet"
    delimiter: str = ";"
    notes: tuple[Note, ...] = ()
    part: str = "changeset"
    #: Liquibase `dbms` filters the part must pass to run at all, and the changelog parameters
    #: defined before it as (name, value, dbms filter): read by the format's reading (`Format.read_chunks`), which knows the
    #: target's name there; the splitter does not look at them
    dbms: tuple[str, ...] = ()
    properties: tuple[tuple[str, str, str | None], ...] = ()


#: what a Segment's `split` may be
SEGMENT_SPLITS = frozenset({"packet", "whole", "delimiter"})


class TenantBlock(NamedTuple):
    """One schema's part of a dump, as the block reader (`linter.input.tenant_blocks`) hands it to
    the splitter: `text`, from the header before its `USE` line to the next schema's header,
    always whole lines; `template`, the number of the block it repeats, or of itself when it is the
    first of its kind (`first`); `name`, the schema its `USE` names; `counters`, the values of its
    `AUTO_INCREMENT=` clauses where the template has them (None where this block has none). A
    repeat's text is the template's with the name and these counters in their places, nothing else."""

    text: str
    template: int
    first: bool
    name: str
    counters: tuple[int | None, ...]


class BlockMark(NamedTuple):
    """What the splitter says of a `TenantBlock` among the statements it yields, when its reader
    asked for blocks (`split_stream(blocks=...)`): "start" and "end" around the statements of a
    block it split, which the reader may take as its kind's template (`ok` False on the end: the
    block did not end in the state it started in, and is none); or "repeat" for a block repeating
    a template, which it did not split: its statements are the template's with this block's `name`
    and `counters`, from line `line` on; `statements`: how many the template built (the rest were
    counted into `skipped`); `text`: the block's."""

    kind: str
    template: int
    name: str
    counters: tuple[int | None, ...]
    line: int
    text: str = ""
    statements: int = 0
    ok: bool = True
