"""The scanner in quotes and comments (`_QuotedText`)."""

from __future__ import annotations

from linter.input.splitter.lexis import (
    _CODE,
    _COMMENT_CHARS,
    _MODE_QUOTES,
    _OPEN_OR_CLOSE,
    _blank,
    _comment_text,
)


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
        """Read on in an executable comment that does not run (see `_skip_exec`)."""
        buf = self.buf
        n = len(buf)
        pos = self.pos
        while True:
            if self.skip_depth == 0 and self.skip_nest:
                m = _OPEN_OR_CLOSE(buf, pos)
                i = m.start() if m is not None else -1
                opens = m is not None and m.group() == "/*"
            else:
                i = buf.find("*/", pos)
                opens = False
            if i < 0:
                # keep a last `*` or `/`: its other half may come with the next chunk
                self.pos = n if self.eof else max(pos, n - 1)
                return False
            pos = i + 2
            if opens or self.skip_depth:
                self.skip_depth = 1 - self.skip_depth
                continue
            if self.in_stmt:
                self._piece(_blank(buf[self.seg_start : pos]))
                self.seg_start = pos
            self.pos = pos
            self.mode = _CODE
            self.at_line_start = False
            return True

    def _block_comment(self) -> bool:
        buf = self.buf
        e = buf.find("*/", self.pos)
        if e < 0:
            # keep a last `*`: the `/` may come with the next chunk
            self.pos = len(buf) if self.eof else max(self.pos, len(buf) - 1)
            return False
        self.mode = _CODE
        self.pos = e + 2
        if self.collect:
            text = buf[self.cstart : min(e, self.cstart + max(0, _COMMENT_CHARS - self.clen))]
            if self.cparts:
                text = "".join(self.cparts) + text
                self.cparts = []
            self._comment_done(_comment_text(text))
        return True

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
        if self.collect:
            text = buf[self.cstart : min(e, self.cstart + max(0, _COMMENT_CHARS - self.clen))]
            if self.cparts:
                text = "".join(self.cparts) + text
                self.cparts = []
            self._comment_done(_comment_text(text))
        return True
