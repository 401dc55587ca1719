"""An executable comment that does not run on the target, as the scanner reads on in it
(`Skipped`): the server skips it as a comment, one comment nested in it included, while the mysql
client reads it as statement text (quotes hide what is in them, its delimiter ends the statement).
The two readings can part; what each has seen so far is kept here, and `Skipped.read` reads on
in the comment, telling the scanner what it met: more text needed, the comment's end, the client's
delimiter, or a plain comment the client drops."""

from __future__ import annotations

from collections.abc import Callable, Mapping
import re

#: what `Skipped.read` met (with the buffer index it stands at)
MORE, CLOSED, CUT_INSIDE, CUT_AT_CLOSE, DROP = range(5)

_skip_stops: dict[str, Callable[[str, int], re.Match[str] | None]] = {}


def _skip_stop(delimiter: str) -> Callable[[str, int], re.Match[str] | None]:
    """The search for what matters in a skipped executable comment: its end `*/`, a nested
    comment's opening, a quote, the client's delimiter. Literal alternatives: each position is
    tried once."""
    found = _skip_stops.get(delimiter)
    if found is None:
        alternatives = [r"\*/", r"/\*", "['\"`#]", "--"] + ([re.escape(delimiter)] if delimiter else [])
        found = _skip_stops[delimiter] = re.compile("|".join(alternatives)).search
    return found


class Skipped:
    """The comment's reading so far, by the client: the quote or `#` comment open in it
    (`quote`), whether a comment is nested in it (`depth`) and an executable one (`inner`), whether
    one may nest at all (`nest`: not in a `/*M!` one on MySQL, which reads it as an ordinary
    comment), and the line on which the client still reads its `/*!` (`ss_line`; -1: none); by the
    server, which reads no quotes (`server_reads`): whether a comment is nested (`server_depth`,
    one level only) and whether the comment has ended (`server_ended`). Where it starts: `at`."""

    __slots__ = ("quote", "depth", "mariadb", "inner", "server_depth", "server_ended", "nest", "at", "ss_line",
                 "parted")

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
        #: the two readings parted in what `read` read last (a quote holding `/*` or `*/` where the
        #: server reads no quotes, or a `*/` that ends the client's comment and not the server's):
        #: the server refuses the statement
        self.parted = False

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

    def read(self, buf: str, pos: int, eof: bool, delimiter: str, dash_follow: str,
             bodies: Mapping[str, re.Pattern[str]], where: Callable[[int], tuple[int, int]]) -> tuple[int, int]:
        """Read on in the comment from buffer index `pos`, as the client reads it: quotes hide what
        is in them, and its `delimiter` ("" in an annotated block) ends the statement there, the
        `/` of the closing `*/` included (`*///` under `DELIMITER //`). A comment the target reads
        as an ordinary one (MySQL and `/*M!`: `nest` off) is one to its client too. `dash_follow`:
        what after `--` makes a comment; `bodies`: the quoted strings' bodies under the session's
        quoting; `where`: the (line, column) of a buffer index.

        Returns (index, what was met): (where to go on, MORE) when the buffer ends first; (after
        the `*/`, CLOSED); (the delimiter's start, CUT_INSIDE) and (the `/` of `*/` that begins the
        delimiter, CUT_AT_CLOSE); (a plain comment's `/*` on the line of the client's `/*!`, DROP).
        `parted` says whether the server refuses what this read."""
        n = len(buf)
        self.parted = False
        while True:
            quote = self.quote
            if quote == "#":  # a `#` or `-- ` comment: the client drops the rest of the line, unseen by either
                e = buf.find("\n", pos)
                if e < 0:
                    return (n if eof else max(pos, n - 1)), MORE
                pos = e
                self.quote = ""
                continue
            if quote:
                if quote == "`":
                    e = buf.find("`", pos)
                    closed = e >= 0
                    if not closed:
                        e = n
                else:
                    m = bodies[quote].match(buf, pos)
                    e = m.end() if m is not None else pos
                    closed = e < n and buf[e] == quote
                if buf.find("/*", pos, e) >= 0 or buf.find("*/", pos, e) >= 0:
                    # the server reads no quotes in a comment it skips: it may end the comment elsewhere
                    # (between statements: for the statement the client sends it with)
                    if self.nest:
                        self.server_reads(buf[pos:e])
                    else:
                        self.parted = True
                if not closed:
                    return (n if eof or quote == "`" else e), MORE  # e: the end, or a last backslash
                pos = e + 1
                self.quote = ""
                continue
            if self.nest and (self.depth == 0 or self.inner):
                m = _skip_stop(delimiter)(buf, pos)
                i = m.start() if m is not None else -1
                found = m.group() if m is not None else ""
            else:
                i = buf.find("*/", pos)
                found = "*/"
            if i < 0:
                # keep what may be the start of `*/` or of the delimiter: it may end in the next chunk
                keep = max(1, len(delimiter) - 1)
                return (n if eof else max(pos, n - keep)), MORE
            if found in ("'", '"', "`"):
                self.quote = found
                pos = i + 1
                continue
            if found == "#" or found == "--":
                if found == "--":
                    if n - i < 3 and not eof:
                        return i, MORE
                    if i + 2 < n and buf[i + 2] not in dash_follow:
                        pos = i + 1
                        continue
                self.quote = "#"
                pos = i + len(found)
                continue
            if found == "/*":
                if n - i < 4 and not eof:
                    return i, MORE
                inner = buf.startswith("!", i + 2) or buf.startswith("M!", i + 2)
                if self.depth:  # in the nested executable comment: an opening the server skips
                    self.server_reads("/*")
                    pos = i + 2
                    continue
                if not inner and where(i)[0] == self.ss_line:
                    return i, DROP
                # nested for the server; to the client, an executable one is text it reads on in,
                # a plain one (off the `/*!` line) a comment it drops: the server never sees it
                # (MariaDB 10.11 refuses `/*!99999 '/* q'\n/* c */ */`: fuzz seed 399)
                if inner:
                    self.server_reads("/*")
                self.depth = 1
                self.inner = inner
                pos = i + 2
                continue
            if found != "*/":  # the delimiter
                return i, CUT_INSIDE
            if self.depth == 0 or self.inner:
                self.server_reads("*/")
            if self.depth:
                self.depth = 0
                self.inner = False
                self.ss_line = -1  # (and the client's executable comment: see `start`)
                pos = i + 2
                continue
            if self.nest and (self.server_depth or not self.server_ended):
                # the client's comment ends here, the server's not: it runs on (or it ended before)
                self.parted = True
            if delimiter[:1] == "/" and self.nest:  # an ordinary comment's `*/` is read whole
                if n - i - 1 < len(delimiter) and not eof:
                    return i, MORE
                if buf.startswith(delimiter, i + 1):
                    return i + 1, CUT_AT_CLOSE
            return i + 2, CLOSED

    def reading_state(self) -> tuple[object, ...]:
        """What of it the next text is read in (`linter.input.splitter.repeats`): all but where it is."""
        return (self.quote, self.depth, self.mariadb, self.inner, self.server_depth, self.server_ended, self.nest)
