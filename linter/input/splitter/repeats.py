"""The splitter's part in reusing a dump's repeated schema blocks (`linter.input.tenant_blocks`).

A block that repeats a template (the same text but for the schema's name and its counters)
splits into the template's statements with those values in their places, on lines shifted by
the same amount, provided the splitter reads both in the same state. That is checked, not
assumed: a template is taken only when the splitter starts and ends it in the same state
(`reading_state`: no statement, quote, comment or packet open, the same delimiter, sql_mode and
variables ...), with no note said and every statement its own packet; a repeat is passed on
unsplit (a "repeat" `BlockMark`) only in that same state, and only when the splitter's reader says
it can reuse what it made of the template for this block (`accept`: the engine replays the
template's effect under the repeat's name, `linter.engine`). Otherwise the block is split like any
other text, between "start" and "end" marks: a template for the reader to record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from linter.input.statement import BlockMark, TenantBlock

#: splitter attributes that hold where it is and what it has found (counters, caches, buffers,
#: positions of what is over), not the state the next text is read in (its `output` is the
#: session's, whose `reading_state` says what of it counts)
_NOT_STATE = frozenset({
    "skipped", "lane", "versions", "output", "buf", "pos", "eof", "cnt_pos", "cur_line", "line_start", "run_match",
    "gap_stops", "stmt_line", "stmt_col", "open_at", "seg_start", "repeats",
    "chunks_fed",
})


def reading_state(splitter: Any) -> tuple[Any, ...]:
    """The state `splitter` reads the next text in: its attributes but `_NOT_STATE`, by value
    (a list or dict as its items, and of the objects it holds what they say of themselves:
    `reading_state`: the session with its sql_mode, the comment being read ...)."""
    return tuple(_value(v) for k, v in sorted(vars(splitter).items()) if k not in _NOT_STATE)


def _value(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_value(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _value(v)) for k, v in value.items()))
    if isinstance(value, set):
        return frozenset(value)
    reading = getattr(value, "reading_state", None)  # an object the splitter holds (`Output`, `Draft` ...)
    if reading is not None:
        return _value(reading())
    return value


class Repeats:
    """A splitter's templates: number -> (the state it was read in, newlines in the block,
    statements counted, statements built). `accept`: whether the splitter's reader takes a
    repeat of this block as a mark."""

    def __init__(self, accept: Callable[[TenantBlock], bool]) -> None:
        self.accept = accept
        self.templates: dict[int, tuple[tuple[Any, ...], int, int, int]] = {}
        #: the splitter's state as last read, and how many chunks it had been fed then: unchanged
        #: while it is fed nothing (between the repeats of a dump, which it does not read)
        self._state: tuple[int, tuple[Any, ...]] = (-1, ())

    def _reading_state(self, splitter: Any) -> tuple[Any, ...]:
        fed, state = self._state
        if fed != splitter.chunks_fed:
            state = reading_state(splitter)
            self._state = (splitter.chunks_fed, state)
        return state

    def block(self, splitter: Any, block: TenantBlock) -> None:
        """Read one block: pass a repeat of a template on as a mark when the splitter stands
        where the template started and its reader accepts it; else split it, and record it as
        its kind's template when it starts and ends in the same state."""
        if splitter.pos < len(splitter.buf):
            splitter.feed_text(block.text)
            return
        number = block.template
        state = self._reading_state(splitter)
        known = self.templates.get(number)
        line = splitter._line_at(len(splitter.buf))
        if known is not None and known[0] == state and self.accept(block):
            _, lines, counted, built = known
            splitter.output.out.append(BlockMark("repeat", number, block.name, block.counters, line, block.text, built))
            splitter.skipped += counted
            splitter.cur_line += lines  # (the buffer is all counted: the next chunk starts a line)
            splitter.cnt_pos = splitter.line_start = len(splitter.buf)
            return
        splitter.output.out.append(BlockMark("start", number, block.name, block.counters, line))
        skipped, notes, first = splitter.skipped, len(splitter.output.notes), len(splitter.output.out)
        splitter.feed_text(block.text)
        statements = splitter.output.out[first:]
        ok = (splitter.pos >= len(splitter.buf) and self._reading_state(splitter) == state and len(splitter.output.notes) == notes
              and all(s.__class__ is not BlockMark and s.packet == 0 for s in statements))
        if ok:
            self.templates[number] = (state, block.text.count("\n"), splitter.skipped - skipped, len(statements))
        splitter.output.out.append(BlockMark("end", number, block.name, block.counters, line, ok=ok))
