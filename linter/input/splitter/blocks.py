"""The statements a compound block outside a stored program runs, each at its place
(`Blocks.emit`, which the scanner calls where such a block ends)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from linter.input.splitter.compound import Structure
from linter.input.splitter.lexis import FIRST_WORD, SCHEMA_WORDS, SET_WORDS, WS, excerpt, last_comments
from linter.input.splitter.sqlmode import normalize
from linter.input.statement import Note, Statement

if TYPE_CHECKING:
    from linter.input.splitter.output import Output
    from linter.input.splitter.sqlmode import Modes
    from linter.schema.target import Target


class Blocks:
    """A compound block's statements, emitted as the server runs them into the splitter's
    `Output`, for a file (`path`) and a target (which decides whether such a block runs at all)."""

    def __init__(self, path: str, target: Target | None, output: Output) -> None:
        self.path = path
        self.target = target
        self.output = output

    def emit(
        self, raw: str, block: Structure, where0: tuple[int, int], comments0: list[str], packet: int,
        quoting: int, modes: Modes, follow_set: Callable[[str, int, int], int],
    ) -> None:
        """The statements a compound block outside a stored program runs (`linter.input.splitter.compound`), each
        at its place; for those it may not run as written (a branch, a loop, a handler), a note at
        that statement: replayed as if it ran once, or not replayed, the schema after it uncertain.
        The block's text `raw` starts at `where0` (line, column), after the comments `comments0`;
        `packet` is its statement's packet (0: it makes one of its own); the session's sql_mode
        reads quotes as `quoting` (`modes`), and a SET among its statements goes to `follow_set`,
        which says the quoting after it."""
        line0, column0 = where0
        counted = [0, line0, -1]  # line breaks are counted up to this offset: its line, its line's last break

        def where(offset: int) -> tuple[int, int]:
            upto, line, last = counted
            if offset < upto:  # the constructs items name come before them: counted again from the start
                upto, line, last = 0, line0, -1
            breaks = raw.count("\n", upto, offset)
            if breaks:
                line += breaks
                last = raw.rfind("\n", upto, offset)
            counted[:] = [offset, line, last]
            return line, column0 + offset if last < 0 else offset - last

        self.output.flush_pending()
        text = raw.rstrip(WS)
        end_line = line0 + text.count("\n")
        target = self.target
        if target is not None and not target.is_mariadb:
            self.output.rejecting = True
            self.output.notes.append(Note(line0, column0, "a compound statement (IF, CASE, a loop, BEGIN NOT ATOMIC) outside a "
                                   f"stored program: {target.label} runs these only in stored programs and rejects "
                                   "this one with the rest of its packet, so innolint replays none of it",
                                   "parse-error", "warning", end_line, excerpt(text)))
            return
        if block.error is not None:
            self.output.rejecting = True
            at = where(min(max(block.error.at, 0), len(raw)))[0]
            reason = str(block.error).format(at=f"line {where(max(block.error.at, 0))[0]}")
            self.output.notes.append(Note(line0, column0, f"innolint cannot follow this compound statement ({reason}, line "
                                   f"{at}): nothing in it is replayed", "parse-error", "warning", end_line, excerpt(text)))
            return
        first = True
        if not packet:  # a block is one packet, whatever the delimiter
            self.output.packet_no += 1
            packet = self.output.packet_no
        for item in block.items:
            body = raw[item.start : item.end]
            if not body:
                continue
            if quoting:
                body = normalize(body, modes.flags)
            line, column = where(item.start)
            word = FIRST_WORD(body)
            schema = word is not None and word.group().upper() in SCHEMA_WORDS
            why = item.why.format(at=f"line {where(item.at)[0]}") if item.why is not None else None
            comments = item.comments
            if first and comments0:
                comments = last_comments(list(comments0) + list(comments))
            first = False
            if item.replay:
                self.output.out.append(Statement(body, self.path, line, column, line + body.count("\n"), comments, None,
                                          packet))
                if body[:3] in SET_WORDS:
                    quoting = follow_set(body, line, column)
                if why is not None and schema:
                    self.output.notes.append(Note(line, column, f"{why}; innolint replays it as if it ran once, so the schema "
                                           "after it is uncertain", "replay-error", "warning",
                                           line + body.count("\n"), excerpt(body)))
            elif schema and why is not None:  # (None: a branch that never runs, skipped as the server skips it)
                self.output.notes.append(Note(line, column, f"not replayed: {why}", "replay-error", "warning",
                                       line + body.count("\n"), excerpt(body)))
