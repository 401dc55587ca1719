"""The executable comment the scanner reads in, one that runs on the target (`ExecComment`): for
the server its text is statement text, while the client still reads it as a comment (it looks for
its delimiter in it, and drops a plain comment opened on its first line). Where the two part, what
follows is recorded here: the client cut the comment at its delimiter (`cut`), or a running comment
nested in it ended both for the server (`nested`, then `stray`): a later `*/` is text the server
refuses."""

from __future__ import annotations


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
