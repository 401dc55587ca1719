"""The scanner in quotes and comments (`_QuotedText`)."""

from __future__ import annotations

import re

from linter.input.splitter.body import _CUT_AT_CLOSE, _CUT_IN_EXEC
from linter.input.splitter.lexis import (
    _CLIENTDROP,
    _CODE,
    _COMMENT_CHARS,
    _MODE_QUOTES,
    _Matcher,
    _SKIPEXEC,
    _blank,
    _comment_text,
)


#: a quote in a skipped executable comment holding `/*` or `*/` (checked on MariaDB 10.11)
_QUOTED_COMMENT_MARK = ("a quoted text in an executable comment the server skips holds `/*` or `*/`: the server reads no "
                        "quotes there, so the comment ends elsewhere for it than for the mysql client, and it refuses "
                        "the statement (syntax error, 1064)")
#: in text the client drops (`_client_drop`): what changes its state
_drop_stop = re.compile(r"\*/|/\*!|\n").search
_skip_stops: dict[str, _Matcher] = {}


def _skip_stop(delimiter: str) -> _Matcher:
    """The search for what matters in a skipped executable comment: its end `*/`, a nested
    comment's opening, a quote, the client's delimiter. Literal alternatives: each position is
    tried once."""
    found = _skip_stops.get(delimiter)
    if found is None:
        alternatives = [r"\*/", r"/\*", "['\"`#]", "--"] + ([re.escape(delimiter)] if delimiter else [])
        found = _skip_stops[delimiter] = re.compile("|".join(alternatives)).search
    return found


class _QuotedText:
    """Quoted strings and identifiers, comments, and executable comments that do not run on the
    target, read across chunk boundaries."""

    def _quote(self) -> bool:
        quote = _MODE_QUOTES[self.mode]
        buf = self.buf
        n = len(buf)
        m = self.quote_body[quote].match(buf, self.pos)
        e = m.end() if m is not None else self.pos
        if e < n and buf[e] == quote:
            self.pos = e + 1
            self.mode = _CODE
            return True
        self.pos = n if self.eof else e  # e is the end, or a last backslash whose escapee is to come
        return False

    def _backtick(self) -> bool:
        q = self.buf.find("`", self.pos)
        if q < 0:
            self.pos = len(self.buf)
            return False
        self.pos = q + 1
        self.mode = _CODE
        return True

    def _skip_exec_text(self) -> bool:
        """Read on in an executable comment that does not run (see `_skip_exec`). The server skips
        it, but the client reads it as it reads any statement text: quotes hide what is in them,
        and its delimiter ends the statement there, the `/` of the closing `*/` included (`*///`
        under `DELIMITER //`): such a statement is refused (`_cut_in_skipped`). A comment the target
        reads as an ordinary one (MySQL and `/*M!`: `skip_nest` off) is one to its client too."""
        buf = self.buf
        n = len(buf)
        pos = self.pos
        delimiter = "" if self.block else self.delimiter
        while True:
            quote = self.skip_quote
            if quote == "#":  # a `#` or `-- ` comment: the client drops the rest of the line, unseen by either
                e = buf.find("\n", pos)
                closed = e >= 0
                if not closed:
                    e = n
                if not closed:
                    self.pos = n if self.eof else max(pos, n - 1)
                    return False
                pos = e
                self.skip_quote = ""
                continue
            if quote:
                if quote == "`":
                    e = buf.find("`", pos)
                    closed = e >= 0
                    if not closed:
                        e = n
                else:
                    m = self.quote_body[quote].match(buf, pos)
                    e = m.end() if m is not None else pos
                    closed = e < n and buf[e] == quote
                if buf.find("/*", pos, e) >= 0 or buf.find("*/", pos, e) >= 0:
                    # the server reads no quotes in a comment it skips: it may end the comment elsewhere
                    # (between statements: for the statement the client sends it with)
                    if self.skip_nest:
                        self._server_reads(buf[pos:e])
                    else:
                        self.refused = self.refused or _QUOTED_COMMENT_MARK
                if not closed:
                    self.pos = n if self.eof or quote == "`" else e  # e: the end, or a last backslash
                    return False
                pos = e + 1
                self.skip_quote = ""
                continue
            if self.skip_nest and (self.skip_depth == 0 or self.skip_inner):
                m = _skip_stop(delimiter)(buf, pos)
                i = m.start() if m is not None else -1
                found = m.group() if m is not None else ""
            else:
                i = buf.find("*/", pos)
                found = "*/"
            if i < 0:
                # keep what may be the start of `*/` or of the delimiter: it may end in the next chunk
                keep = max(1, len(delimiter) - 1)
                self.pos = n if self.eof else max(pos, n - keep)
                return False
            if found in ("'", '"', "`"):
                self.skip_quote = found
                pos = i + 1
                continue
            if found == "#" or found == "--":
                if found == "--":
                    if n - i < 3 and not self.eof:
                        self.pos = i
                        return False
                    if i + 2 < n and buf[i + 2] not in self.dash_follow:
                        pos = i + 1
                        continue
                self.skip_quote = "#"
                pos = i + len(found)
                continue
            if found == "/*":
                if n - i < 4 and not self.eof:
                    self.pos = i
                    return False
                inner = buf.startswith("!", i + 2) or buf.startswith("M!", i + 2)
                if self.skip_depth:  # in the nested executable comment: an opening the server skips
                    self._server_reads("/*")
                    pos = i + 2
                    continue
                if not inner and self._where(i)[0] == self.skip_ss_line:
                    self.pos = i
                    self._client_drop_from(i, _SKIPEXEC)
                    return True
                # nested for the server; to the client, an executable one is text it reads on in,
                # a plain one (off the `/*!` line) a comment it drops: the server never sees it
                # (MariaDB 10.11 refuses `/*!99999 '/* q'\n/* c */ */`: fuzz seed 399)
                if inner:
                    self._server_reads("/*")
                self.skip_depth = 1
                self.skip_inner = inner
                pos = i + 2
                continue
            if found != "*/":  # the delimiter
                self._cut_in_skipped(i, i + len(delimiter), inside=True)
                return True
            if self.skip_depth == 0 or self.skip_inner:
                self._server_reads("*/")
            if self.skip_depth:
                self.skip_depth = 0
                self.skip_inner = False
                self.skip_ss_line = -1  # (and the client's executable comment: see `_skip_exec`)
                pos = i + 2
                continue
            if self.skip_nest and (self.skip_server_depth or not self.skip_server_ended):
                # the client's comment ends here, the server's not: it runs on (or it ended before)
                self.refused = self.refused or _QUOTED_COMMENT_MARK
            if delimiter[:1] == "/" and self.skip_nest:  # an ordinary comment's `*/` is read whole
                if n - i - 1 < len(delimiter) and not self.eof:
                    self.pos = i
                    return False
                if buf.startswith(delimiter, i + 1):
                    self._cut_in_skipped(i + 1, i + 1 + len(delimiter), inside=False)
                    return True
            pos = i + 2
            if self.in_stmt:
                self._piece(_blank(buf[self.seg_start : pos]))
                self.seg_start = pos
            self.pos = pos
            self.mode = _CODE
            self.at_line_start = False
            self.exec_line = -1  # its `*/` ends the client's executable comment, an outer one too
            return True

    def _server_reads(self, text: str) -> None:
        """The server's reading of `text` in a comment it skips, which knows no quotes (MariaDB's
        `consume_comment`: one comment nested in it, whatever it is, ends at the next `*/`; a `*/`
        outside that ends the comment). `skip_server_ended` says the server's comment has ended:
        where the client's does too, they agree (MariaDB 10.11 runs `/*!50717 '/*' /*!50100 x */
        */` and refuses `/*!99999 '/* q' */` and `'*/'`). Where the server's comment outlasts the
        client's and ends in the statement text after it (`/*!99999 '/* q' */ */`, which runs),
        innolint does not follow it and calls the statement refused."""
        i = 0
        while True:
            opening, closing = text.find("/*", i), text.find("*/", i)
            if closing < 0 and opening < 0:
                return
            if self.skip_server_ended:  # the server reads what follows as statement text
                self.skip_server_ended = False
                self.skip_server_depth = 2  # (never agrees again: refused at the client's end)
                return
            if opening >= 0 and (closing < 0 or opening < closing):
                self.skip_server_depth = self.skip_server_depth or 1
                i = opening + 2
            else:
                if self.skip_server_depth == 1:
                    self.skip_server_depth = 0
                elif self.skip_server_depth == 0:
                    self.skip_server_ended = True
                i = closing + 2

    def _cut_in_exec(self, end: int, delimiter_end: int, reason: str) -> None:
        """The client found its delimiter in an executable comment (at buffer index `end`): the
        statement it sends ends inside the comment, which the server refuses (`reason`)."""
        self.refused = self.refused or reason
        self._end_stmt(end, delimiter_end=delimiter_end, strip_semicolon=self.delimiter != ";")
        self.output.packet_open = self.output.rejecting = False

    def _cut_in_skipped(self, end: int, delimiter_end: int, *, inside: bool) -> None:
        """The client's delimiter at buffer index `end` in a skipped executable comment (`inside`
        it, else at the `/` of its `*/`): the statement it ends is refused by the server, the
        comment unclosed (between statements the comment alone is sent and refused: nothing runs
        either way). What follows is outside the comment for the server: a `*/` in it is text,
        which the parser refuses with that statement."""
        self.mode = _CODE
        if self.in_stmt:
            self._piece(_blank(self.buf[self.seg_start : end]))
            self.seg_start = end
            self._cut_in_exec(end, delimiter_end, (_CUT_IN_EXEC if inside else _CUT_AT_CLOSE).format(
                delimiter=self.delimiter))
        else:
            self.pos = delimiter_end
            self.output.packet_open = self.output.rejecting = False
        self.at_line_start = False
        self.exec_ver = None  # what follows the cut is outside the comment for the server
        self.exec_cut = inside  # and its `*/` is text there
        self._set_matchers()

    def _client_drop_from(self, start: int, back: int) -> None:
        """A plain comment opened at buffer index `start`, on the line of an open `/*!` comment:
        the client drops it up to its second `*/` (the first one ends the executable comment for
        it, on that line only; see `_client_drop`), then reads on in mode `back`."""
        self.mode = _CLIENTDROP
        self.drop_ss = True
        self.drop_back = back
        self.open_at = self._where(start)
        self.pos = start + 2

    def _client_drop(self) -> bool:
        """Read on in text the client drops. As MariaDB 10.11's client/mysql.cc `add_line` does: in
        a comment, `/*!` marks an executable comment (until the end of its line or its `*/`), whose
        `*/` ends only that; the next `*/` ends the comment. Nothing of it is sent: inside a
        statement it becomes blanks, and the executable comment it was in is still open for the
        server (checked in tests/test_split_exec_delimiter.py)."""
        buf = self.buf
        n = len(buf)
        pos = self.pos
        while True:
            m = _drop_stop(buf, pos)
            if m is None:
                self.pos = n if self.eof else max(pos, n - 2)  # `/*!` or `*/` may end in the next chunk
                return False
            what = m.group()
            pos = m.end()
            if what == "\n":
                self.drop_ss = False
            elif what == "/*!":
                self.drop_ss = True
            elif self.drop_ss:
                self.drop_ss = False
            else:
                if self.in_stmt:
                    self._piece(_blank(buf[self.seg_start : pos]))
                    self.seg_start = pos
                self.pos = pos
                self.mode = self.drop_back
                return True

    def _nested_comment_closed(self) -> None:
        """An executable comment has ended; if it was nested in a running one: for the server the outer one
        ended with it (MariaDB 10.11: `/*!50100 ALTER TABLE t MODIFY e BIGINT /*M!100301 UNSIGNED */;`
        runs; with `, ADD ... */` after the nested one, the `*/` is refused). An ordinary comment
        nests (`/*!50100` then `/* c */ ENGINE=InnoDB */` on a later line runs: the client drops one
        on the opening's line, `_client_drop_from`)."""
        if not self.exec_nested:
            return
        self.exec_nested = False
        self.exec_ver = None
        self.exec_stray = True
        self._set_matchers()

    def _stray_close(self, why: str) -> None:
        """A `*/` outside any comment: the end of an executable comment the client cut at its
        delimiter, or one a nested executable comment ended; the server refuses the statement."""
        self.refused = self.refused or why
        self.exec_cut = self.exec_stray = False
        self._set_matchers()

    def _block_comment(self) -> bool:
        """A plain comment, up to its `*/`. In a file the client reads, a `/*!` in it marks the
        rest of its line as an executable comment to the client, whose next `*/` ends that mark,
        not the comment (`/* a /*!1 b */ c */` is one comment; MariaDB 10.11's client, where
        `ss_comment` is per line; not `/*M!`: fuzz seed 405). The client drops the comment, so
        what innolint would read as text after the first `*/` is blanked."""
        buf = self.buf
        pos = self.pos
        n = len(buf)
        while True:
            e = buf.find("*/", pos)
            end = e if e >= 0 else n
            if self.client:
                newline = buf.rfind("\n", pos, end)
                if newline >= 0:
                    self.block_bang = False
                if not self.block_bang and buf.find("/*!", max(pos, newline + 1), end) >= 0:
                    self.block_bang = True
            if e < 0:
                # keep a last `*`, or `/*` of a `/*!`: the rest may come with the next chunk
                self.pos = n if self.eof else max(pos, n - 2)
                if self.block_blank and self.in_stmt and self.pos > self.seg_start:
                    self._piece(_blank(buf[self.seg_start : self.pos]))
                    self.seg_start = self.pos
                return False
            if not self.block_bang:
                break
            self.block_bang = False  # (this `*/` ends the client's mark)
            if self.in_stmt and not self.block_blank:
                self._piece(buf[self.seg_start : e + 2])
                self.seg_start = e + 2
            self.block_blank = True
            pos = e + 2
        if self.block_blank and self.in_stmt:
            self._piece(_blank(buf[self.seg_start : e + 2]))
            self.seg_start = e + 2
        self.block_blank = False
        self.mode = _CODE
        self.pos = e + 2
        self._collected(e)
        return True

    def _collected(self, e: int) -> None:
        """The comment being read ends at `e`: its text, when collected, goes to the notes."""
        if self.collect:
            text = self.buf[self.cstart : min(e, self.cstart + max(0, _COMMENT_CHARS - self.clen))]
            if self.cparts:
                text = "".join(self.cparts) + text
                self.cparts = []
            if self.unless and not self.in_stmt and self.unless in text:
                self._directive_lines(self.comment_line, text)
            self._comment_done(_comment_text(text))

    def _line_comment(self) -> bool:
        buf = self.buf
        e = buf.find("\n", self.pos)
        if e < 0:
            if not self.eof:
                self.pos = len(buf)
                return False
            e = len(buf)
        self.mode = _CODE
        self.pos = e
        self._collected(e)
        return True
