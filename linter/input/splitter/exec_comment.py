"""The executable comment the scanner reads in, one that runs on the target (`ExecComment`): for
the server its text is statement text, while the client still reads it as a comment (it looks for
its delimiter in it, and drops a plain comment opened on its first line). Where the two part, what
follows is recorded here: the client cut the comment at its delimiter (`cut`), or a running comment
nested in it ended both for the server (`nested`, then `stray`): a later `*/` is text the server
refuses. A plain comment the client drops because it opens on the line of such a comment is read
by `ClientDrop`."""

from __future__ import annotations

import re

#: in text the client drops (`ClientDrop.read`): what changes its state
_drop_stop = re.compile(r"\*/|/\*!|\n").search


class ExecComment:
    """`version` of the open one ("50100", "M!100301"; None: none is open), `serial` (counts
    them, to tell them apart), `line` (the line it opens on; -1: none, for the client), and what
    follows a parting (`cut`, `nested`, `stray`: see the module)."""

    __slots__ = ("version", "serial", "line", "cut", "nested", "stray")

    def __init__(self) -> None:
        self.version: str | None = None
        self.serial = 0
        self.line = 0
        self.cut = False
        self.nested = False
        self.stray = False

    @property
    def reads_otherwise(self) -> bool:
        """Whether text reads otherwise than outside any such comment (the scanner's run regex,
        the fast lane kept off): one is open, or a `*/` would be stray."""
        return self.version is not None or self.cut or self.stray

    def open(self, version: str, line: int, *, nests: bool) -> None:
        """One of `version` opens on `line`; `nests`: in a statement, one opened in an open one
        ends both when it ends (`close`)."""
        if nests and self.version is not None:
            self.nested = True
        self.version = version
        self.serial += 1
        self.line = line

    def close(self) -> None:
        """Its `*/`: it ends; if it was nested in a running one, for the server that one ended
        with it (MariaDB 10.11: `/*!50100 ALTER TABLE t MODIFY e BIGINT /*M!100301 UNSIGNED */;`
        runs; with `, ADD ... */` after the nested one, the `*/` is refused). An ordinary comment
        nests (`/*!50100` then `/* c */ ENGINE=InnoDB */` on a later line runs: the client drops one
        on the opening's line, `Splitter._client_drop_from`)."""
        self.version = None
        if self.nested:
            self.nested = False
            self.stray = True

    def cut_by_client(self, stray_close: bool) -> None:
        """The client found its delimiter in it: for the server what follows is outside the
        comment, and (`stray_close`) the `*/` that was to close it is text there."""
        self.version = None
        self.cut = stray_close

    def stray_closed(self) -> None:
        """The stray `*/` was met (the statement is refused): nothing is stray after it."""
        self.cut = self.stray = False

    def reset(self) -> None:
        """A part read on its own starts: none is open."""
        self.version = None
        self.cut = self.nested = self.stray = False

    def reading_state(self) -> tuple[object, ...]:
        """What of it the next text is read in (`linter.input.splitter.repeats`): not its count or line."""
        return (self.version, self.cut, self.nested, self.stray)


class ClientDrop:
    """A plain comment opened on the line of an open `/*!` comment, which the client drops up to
    its second `*/` (the first ends the executable comment for it, on that line only), as MariaDB
    10.11's client/mysql.cc `add_line` does: in a comment, `/*!` marks an executable comment (until
    the end of its line or its `*/`), whose `*/` ends only that; the next `*/` ends the comment.
    `marked`: such a mark is open; `back`: the scanner's mode after it (checked in
    tests/test_split_exec_delimiter.py)."""

    __slots__ = ("marked", "back")

    def __init__(self, back: int) -> None:
        self.marked = False
        self.back = back

    def start(self, back: int) -> None:
        """It opens (its `/*` on the line of a `/*!`, which marks it); the scanner reads on in mode `back` after it."""
        self.marked = True
        self.back = back

    def read(self, buf: str, pos: int, eof: bool) -> tuple[int, bool]:
        """Read on from buffer index `pos`: (the index after its end, True), or (where to go on
        when more text comes, False)."""
        n = len(buf)
        while True:
            m = _drop_stop(buf, pos)
            if m is None:
                return (n if eof else max(pos, n - 2)), False  # `/*!` or `*/` may end in the next chunk
            what = m.group()
            pos = m.end()
            if what == "\n":
                self.marked = False
            elif what == "/*!":
                self.marked = True
            elif self.marked:
                self.marked = False
            else:
                return pos, True

    def reading_state(self) -> tuple[object, ...]:
        """What of it the next text is read in (`linter.input.splitter.repeats`)."""
        return (self.marked, self.back)
