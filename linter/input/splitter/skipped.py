"""An executable comment that does not run on the target, as the scanner reads on in it
(`Skipped`): the server skips it as a comment, one comment nested in it included, while the mysql
client reads it as statement text (quotes hide what is in them, its delimiter ends the statement).
The two readings can part; what each has seen so far is kept here."""

from __future__ import annotations


class Skipped:
    """The comment's reading so far, by the client: the quote or `#` comment open in it
    (`quote`), whether a comment is nested in it (`depth`) and an executable one (`inner`), whether
    one may nest at all (`nest`: not in a `/*M!` one on MySQL, which reads it as an ordinary
    comment), and the line on which the client still reads its `/*!` (`ss_line`; -1: none); by the
    server, which reads no quotes (`server_reads`): whether a comment is nested (`server_depth`,
    one level only) and whether the comment has ended (`server_ended`). Where it starts: `at`."""

    __slots__ = ("quote", "depth", "mariadb", "inner", "server_depth", "server_ended", "nest", "at", "ss_line")

    def __init__(self) -> None:
        self.quote = ""
        self.depth = 0
        self.mariadb = False  # a `/*M!` one
        self.inner = False
        self.server_depth = 0
        self.server_ended = False
        self.nest = True
        self.at = (0, 0)
        self.ss_line = -1

    def start(self, version: str, on_mysql: bool, at: tuple[int, int]) -> None:
        """A comment of `version` ("50100", "M!100301") opens at (line, column) `at`; `on_mysql`:
        the target is MySQL (a `/*M!` comment is an ordinary one there)."""
        self.quote = ""
        self.mariadb = version.startswith("M!")
        self.inner = False
        self.depth = 0
        self.server_depth, self.server_ended = 0, False
        self.nest = not (self.mariadb and on_mysql)
        self.at = at
        # the line on which the client still reads an executable comment: a plain comment opened
        # there is dropped up to its second `*/` (`Splitter._client_drop_from`). The client marks only a
        # `/*!` one, on its line, until a `*/`: a nested comment's ends it (MariaDB 10.11 sends
        # `/*!99999 a /*M!100301 b */ c /* d;e */ */` without `/* d;e */`, its `;` no delimiter)
        self.ss_line = -1 if self.mariadb else at[0]

    def server_reads(self, text: str) -> None:
        """The server's reading of `text` in a comment it skips, which knows no quotes (MariaDB's
        `consume_comment`: one comment nested in it, whatever it is, ends at the next `*/`; a `*/`
        outside that ends the comment). `server_ended` says the server's comment has ended:
        where the client's does too, they agree (MariaDB 10.11 runs `/*!50717 '/*' /*!50100 x */
        */` and refuses `/*!99999 '/* q' */` and `'*/'`). Where the server's comment outlasts the
        client's and ends in the statement text after it (`/*!99999 '/* q' */ */`, which runs),
        innolint does not follow it and calls the statement refused."""
        i = 0
        while True:
            opening, closing = text.find("/*", i), text.find("*/", i)
            if closing < 0 and opening < 0:
                return
            if self.server_ended:  # the server reads what follows as statement text
                self.server_ended = False
                self.server_depth = 2  # (never agrees again: refused at the client's end)
                return
            if opening >= 0 and (closing < 0 or opening < closing):
                self.server_depth = self.server_depth or 1
                i = opening + 2
            else:
                if self.server_depth == 1:
                    self.server_depth = 0
                elif self.server_depth == 0:
                    self.server_ended = True
                i = closing + 2

    def reading_state(self) -> tuple[object, ...]:
        """What of it the next text is read in (`linter.input.splitter.repeats`): all but where it is."""
        return (self.quote, self.depth, self.mariadb, self.inner, self.server_depth, self.server_ended, self.nest)
