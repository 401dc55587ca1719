"""The text of the statement being read (`Draft`), as far as the scanner has copied it out of its
buffer: the scanner copies a piece each time the buffer moves on or a part of the text changes
(an executable comment's marker becomes blanks, a client command is left out), and the rest of
the statement is still in the buffer from `seg_start` on (`linter.input.splitter.scanner`)."""

from __future__ import annotations

from linter.input.splitter.lexis import COMPOUND_PREFIX, OVER_HEAD


class Draft:
    """The pieces of the statement being read (`pieces`, `length` characters). Past `limit`
    characters (`MAX_STATEMENT_CHARS`) its text is no longer kept: only its length (`over`), its
    line breaks (`over_lines`) and its first characters (`over_head`), to name it."""

    __slots__ = ("limit", "pieces", "length", "over", "over_lines", "over_head")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.pieces: list[str] = []
        self.length = 0
        self.over = 0
        self.over_lines = 0
        self.over_head = ""

    def add(self, text: str) -> None:
        """Keep `text` as the next part; past `limit` characters only count its length and lines."""
        if self.over:
            self.over += len(text)
            self.over_lines += text.count("\n")
            return
        self.pieces.append(text)
        self.length += len(text)
        if self.length > self.limit:
            held = "".join(self.pieces)
            self.over = len(held)
            self.over_lines = held.count("\n")
            self.over_head = held[:OVER_HEAD]
            self.pieces = []
            self.length = 0

    def fits(self, more: int) -> bool:
        """Whether the statement, with `more` characters still in the buffer, is within `limit`."""
        return not self.over and self.length + more <= self.limit

    def prefix(self, buf: str, start: int, end: int) -> str:
        """The start of the statement, its text still in the buffer being `buf[start:end]` (at
        most `COMPOUND_PREFIX` characters)."""
        if self.over:
            return self.over_head[:COMPOUND_PREFIX]
        prefix = ""
        for piece in self.pieces:
            prefix += piece
            if len(prefix) >= COMPOUND_PREFIX:
                return prefix
        return prefix + buf[start : min(end, start + COMPOUND_PREFIX)]

    def text_from(self, offset: int, buf: str, start: int, end: int) -> str:
        """The statement's text from `offset` in it on, its text still in the buffer being `buf[start:end]`."""
        need = self.length - offset
        if need <= 0:
            return buf[start - need : end]
        current = buf[start:end]
        parts: list[str] = []
        held = 0
        pieces = self.pieces
        i = len(pieces)
        while held < need:
            i -= 1
            parts.append(pieces[i])
            held += len(pieces[i])
        parts.reverse()
        return "".join(parts)[held - need :] + current

    def join(self, rest: str) -> str:
        """The statement's whole text, ending with `rest` (from the buffer); the draft is empty after."""
        if not self.pieces:
            return rest
        self.pieces.append(rest)
        text = "".join(self.pieces)
        self.pieces = []
        self.length = 0
        return text

    def take_over(self) -> tuple[int, int, str]:
        """Of a statement past `limit`: its length, line breaks and first characters; the draft is empty after."""
        taken = self.over, self.over_lines, self.over_head
        self.over = self.over_lines = 0
        self.over_head = ""
        return taken

    def clear(self) -> None:
        """The statement is thrown away (`\\c`)."""
        self.pieces = []
        self.length = self.over = self.over_lines = 0
        self.over_head = ""

    def reading_state(self) -> tuple[object, ...]:
        """What of it the next text is read in (`linter.input.splitter.repeats`)."""
        return (tuple(self.pieces), self.length, self.over, self.over_lines, self.over_head)
