"""The comments the splitter reads: the one being read (`CommentText`: its text, kept across
chunks), and those between statements (`Comments`): those that lead the next statement (where a
`-- innolint:` directive binds to it), and every comment line that holds a directive, with its
line (where an `ignore-file` may stand: `StatementStream.directives`)."""

from __future__ import annotations

from linter.input.splitter.lexis import COMMENT_CHARS, WS, add_comment


class CommentText:
    """The comment being read: whether its text is wanted (`wanted`: between statements, or a
    `--` one a format may read as an annotation), the buffer index where its text not copied yet
    starts (`start`), the pieces copied before the buffer dropped them (`parts`, at most
    `COMMENT_CHARS` characters in all: `length`), whether it is a `--` one (`dash`: the only kind
    migration annotations use) and where it began (`line`, `column`). In a plain comment: whether
    the client reads the rest of its line as an executable comment (`bang`) and whether what
    follows is dropped by the client, so blanked (`blank`; see `Splitter._block_comment`)."""

    __slots__ = ("wanted", "start", "parts", "length", "dash", "line", "column", "bang", "blank")

    def __init__(self) -> None:
        self.wanted = False
        self.start = 0
        self.parts: list[str] = []
        self.length = 0
        self.dash = False
        self.line = 0
        self.column = 0
        self.bang = self.blank = False

    def open(self, start: int, *, wanted: bool, dash: bool) -> None:
        """A comment whose text starts at buffer index `start` opens."""
        self.bang = self.blank = False
        self.wanted = wanted
        self.dash = dash
        self.start = start
        self.parts = []
        self.length = 0

    def rebase(self, buf: str, pos: int) -> None:
        """The buffer `buf` is to drop what is before `pos`: what is wanted of the text is copied."""
        if self.wanted:
            room = COMMENT_CHARS - self.length
            if room > 0:
                piece = buf[self.start : min(pos, self.start + room)]
                self.parts.append(piece)
                self.length += len(piece)
            self.start = 0

    def text(self, buf: str, end: int) -> str:
        """Its text up to buffer index `end` (at most `COMMENT_CHARS` characters of it)."""
        text = buf[self.start : min(end, self.start + max(0, COMMENT_CHARS - self.length))]
        if self.parts:
            text = "".join(self.parts) + text
            self.parts = []
        return text

    def reading_state(self) -> tuple[object, ...]:
        """What of it the next text is read in (`linter.input.splitter.repeats`): all but where it is."""
        return (self.wanted, tuple(self.parts), self.length, self.dash, self.bang, self.blank)


class Comments:
    """The comments waiting for the next statement (`waiting`, within `_COMMENTS_KEPT`; `hold`:
    whether one of them holds `unless`, the directive marker), and the comment lines read between
    statements that hold it (`directives`: (line, text), in file order)."""

    __slots__ = ("unless", "waiting", "hold", "directives")

    def __init__(self, unless: str) -> None:
        self.unless = unless
        self.waiting: list[str] = []
        self.hold = False
        self.directives: list[tuple[int, str]] = []

    def add(self, text: str) -> None:
        """A comment before the next statement."""
        add_comment(self.waiting, text)
        if self.unless and self.unless in text:
            self.hold = True

    def take(self) -> list[str]:
        """The comments waiting go with a statement: none wait after."""
        waiting = self.waiting
        self.waiting = []
        self.hold = False
        return waiting

    def clear(self) -> None:
        """The comments waiting lead no statement (a section or block starts, a packet is sent)."""
        self.waiting = []
        self.hold = False

    def directive_lines(self, line: int, raw: str) -> None:
        """Keep each line of comment text `raw` (beginning on `line`) that holds `unless` (a
        `-- innolint:` directive) with its line: the comments the splitter reads between
        statements, where an `ignore-file` may stand (`StatementStream.directives`). A quote in a
        statement is no comment: only what is read here and a statement's own comments count."""
        unless = self.unless
        at = raw.find(unless)
        counted = 0
        while at >= 0:
            start = raw.rfind("\n", 0, at) + 1
            end = raw.find("\n", at)
            if end < 0:
                end = len(raw)
            line += raw.count("\n", counted, start)
            counted = start
            self.directives.append((line, raw[start:end].strip(WS)))
            at = raw.find(unless, end)

    def reading_state(self) -> tuple[object, ...]:
        """What of them the next text is read in (`linter.input.splitter.repeats`): those waiting."""
        return (tuple(self.waiting), self.hold)
