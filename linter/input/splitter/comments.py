"""The comments the splitter reads between statements (`Comments`): those that lead the next
statement (where a `-- innolint:` directive binds to it), and every comment line that holds a
directive, with its line (where an `ignore-file` may stand: `StatementStream.directives`)."""

from __future__ import annotations

from linter.input.splitter.lexis import WS, add_comment


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
