"""The scanner between statements (`_GapReader`)."""

from __future__ import annotations

import re

from linter.input.splitter.client import _CMD_DONE, _CMD_MORE, _CMD_TEXT, _COMMAND_INITIALS
from linter.input.splitter.lexis import (
    _BLOCK,
    _CODE,
    _COMMENT_CHARS,
    _GAP_MODE,
    _GAP_MORE,
    _GAP_NEXT,
    _GAP_STATEMENT,
    _LINE,
    _SET_WORDS,
    _SLASH_LOOKAHEAD,
    _UNDECIDED,
    _WS,
    _WS_RUN,
    _add_comment,
    _client_comment_run,
    _comment_run,
    _held_comment_run,
    _comment_text,
    _comment_texts,
    _excerpt,
    _exec_line,
    _exec_open,
    _run_end,
)
from linter.input.splitter.sqlmode import ANSI_QUOTES, NO_BACKSLASH_ESCAPES
from linter.input.statement import Note


class _GapReader:
    """Between statements: whitespace, comments and the directives in them, migration annotations,
    empty statements, mysqldump's one-line executable comments, and the start of the next
    statement (`_gap`)."""

    def _gap(self) -> bool:
        """Skip whitespace, comments, executable-comment markers and empty statements; read the statements after."""
        buf = self.buf
        n = len(buf)
        while True:
            if self.fast_ok and self.output.pending is None and self.refused is None and not (
                    self.output.rejecting or self.output.packet_open or (self.client_text and self.client)):
                # (not in a packet still open: `\d ;` inside one, fuzz seeds 377, 396; nor where the
                # client holds an executable comment: a `---` line after it is sent, not a comment)
                took = self.lane.read(buf, self.pos, (self.cnt_pos, self.cur_line, self.line_start), self.comments,
                                      self.comments_hold, self.output.out, self._follow_set, self._directive_lines)
                if took is not None:
                    self.pos, self.cnt_pos, self.cur_line, self.line_start, skipped = took
                    self.skipped += skipped
                    self._clear_comments()
                    self.client_text = False  # (what the client held went with it: fuzz seed 401)
                    self.at_line_start = True
            pos = self.pos
            e = _run_end(_WS_RUN, buf, pos)
            if e > pos:
                if buf.find("\n", pos, e) >= 0:
                    self.at_line_start = True
                    if self.output.pending is not None:
                        self.output.flush_pending()
                        if self.fast_ok:
                            self.pos = e
                            continue  # back to the fast lane
                self.pos = e
            if e >= n:
                return False
            if buf[e] in self.gap_stops:
                step = self._gap_special(e)
                if step == _GAP_NEXT:
                    continue
                if step != _GAP_STATEMENT:
                    return step == _GAP_MODE
            # the first character of a statement, unless a client command by name fills the line
            if (self.client and self.at_line_start and buf[e] in _COMMAND_INITIALS and not self.output.packet_open
                    and not self.client_text):
                found = self._try_command(e)
                if found is _UNDECIDED:
                    return False
                if found:
                    if self.stopped:
                        return False
                    continue
            if self.output.pending is not None:
                self.output.flush_pending()
            cp = self.cnt_pos  # inline `_line_at(e)`: this runs once per statement
            k = buf.count("\n", cp, e)
            if k:
                self.cur_line += k
                self.line_start = buf.rfind("\n", cp, e) + 1
            self.cnt_pos = e
            self.stmt_line = self.cur_line
            self.stmt_col = e - self.line_start + 1
            if self.output.empty_at is not None:
                self.output.text_follows()
            self.in_stmt = True
            self.client_text = False  # (what it held goes with this statement)
            self.at_line_start = False
            self.seg_start = self.pos = e
            self.stmt_comments = self.comments
            self._clear_comments()
            self.stmt_exec = (self.exec_serial, self.exec_ver) if self.exec_ver is not None else None
            self.compound = None
            if not self._code():
                return False
            if self.in_stmt or self.mode != _CODE or self.stopped:
                return True

    def _gap_special(self, e: int) -> int:
        """Deal with a character between statements that may not start one (see `gap_stops`).

        Returns _GAP_NEXT (dealt with, go on), _GAP_STATEMENT (it starts a statement after all),
        _GAP_MODE (a comment goes on past the buffer) or _GAP_MORE (more text is needed to tell).
        """
        buf, eof = self.buf, self.eof
        n = len(buf)
        c = buf[e]
        fast = not self.markers
        if c in "dD" and self.at_line_start and not self.block and (n - e < 10 or buf[e + 1] in "eE") and not (
                self.mariadb_client and (self.output.packet_open or self.client_text)):
            found = self._try_delimiter(e)
            if found is _UNDECIDED:
                return _GAP_MORE
            if found:
                return _GAP_NEXT
        delimiter = "" if self.block else self.delimiter
        if c == delimiter[:1]:
            if buf.startswith(delimiter, e):  # an empty statement
                self.pos = e + len(delimiter)
                self.at_line_start = False
                self.output.packet_open = self.output.rejecting = self.client_text = False
                self.refused = None  # (a comment sent alone: refused, and nothing with it)
                return _GAP_NEXT
            if not eof and n - e < len(delimiter) and delimiter.startswith(buf[e:]):
                return _GAP_MORE
        if c == "-" or c == "#":
            # where the client holds nothing of a statement, `--` is a comment whatever follows
            empty = self.client and not (self.output.packet_open or self.client_text) and self.exec_ver is None
            if fast and self.output.pending is None:
                m = (_client_comment_run if empty else _held_comment_run if self.client else _comment_run)(buf, e)
                if m is not None:
                    self.pos = m.end()
                    self.at_line_start = True
                    if self.unless and buf.find(self.unless, e, m.end()) >= 0:
                        self._directive_lines(self._where(e)[0], buf[e : m.end()])
                    for text in _comment_texts(buf, e, m.end()):
                        text = _comment_text(text)
                        if text:
                            self._add_leading(text)
                    return _GAP_NEXT
            if c == "#":
                return _GAP_MODE if self._gap_line_comment(e, e + 1, dash=False) else _GAP_NEXT
            if n - e < 3 and not eof:
                return _GAP_MORE
            if buf.startswith("-", e + 1) and (e + 2 >= n or empty or buf[e + 2] in self.dash_follow):
                return _GAP_MODE if self._gap_line_comment(e, e + 2, dash=True) else _GAP_NEXT
        elif c == "/":
            if n - e < _SLASH_LOOKAHEAD and not eof:
                return _GAP_MORE
            if buf.startswith("*", e + 1):
                self.at_line_start = False
                if fast and self.exec_ver is None and delimiter == ";" and not self.output.packet_open:  # (seed 404)
                    m = _exec_line(buf, e)
                    if m is not None and self._exec_line_stmt(m):
                        return _GAP_NEXT
                m = _exec_open(buf, e)
                if m is not None:
                    self.client_text = True
                    if self.output.empty_at is not None:
                        self.output.text_follows()
                    end, version, runs = self.versions.marker(m)
                    if runs:
                        self._open_exec(version)
                        self.exec_line = self._where(e)[0]
                        self.pos = end
                        return _GAP_NEXT
                    self._skip_exec(e, end, version)
                    return _GAP_MODE
                self._start_comment(e + 2, _BLOCK, collect=True, dash=False)
                self.comment_line = self._line_at(e)
                self.comment_col = e - self.line_start + 1
                return _GAP_MODE
        elif c == "\\" and self.client:
            found = self._backslash(e)
            self.at_line_start = False
            return {_CMD_TEXT: _GAP_STATEMENT, _CMD_MORE: _GAP_MORE, _CMD_DONE: _GAP_NEXT}.get(found, _GAP_MODE)
        elif c == "*" and self.exec_ver is not None:
            if n - e < 2 and not eof:
                return _GAP_MORE
            if buf.startswith("/", e + 1):
                self.exec_ver = None
                self._set_matchers()
                self.pos = e + 2
                self.at_line_start = False
                return _GAP_NEXT
        return _GAP_STATEMENT

    def _exec_line_stmt(self, m: re.Match[str]) -> bool:
        """Take a one-line `/*!40101 SET ... */;` found by the fast path; False if it holds no statement."""
        bang, digits, body = m.groups()
        text = body.strip(_WS)
        if not text or len(text) > self.max_statement or not self.versions.plain(bang + digits):
            return False
        start = m.start(3) + body.index(text[0])
        line = self._line_at(start)
        if text[:3] in _SET_WORDS:
            self._follow_set(text, line, start - self.line_start + 1)
        self.exec_serial += 1
        # a statement before it on the same line waits for a trailing comment: it is complete
        self.output.flush_pending()
        self.output.pending = (
            text,
            line,
            start - self.line_start + 1,
            line,
            self.comments,
            digits if bang == "!" else bang + digits,
            0,
        )
        self.output.pending_line = line
        self._clear_comments()
        self.pos = m.end()
        return True

    def _gap_line_comment(self, start: int, text_start: int, *, dash: bool) -> bool:
        """A `--` or `#` comment between statements, read at once when its line is in the buffer.

        Returns True when it goes on past the buffer (the scanner is then in comment mode).
        """
        self.at_line_start = False
        buf = self.buf
        end = buf.find("\n", text_start)
        if end < 0 and not self.eof:
            self._start_comment(text_start, _LINE, collect=True, dash=dash)
            self.comment_line = self._line_at(start)
            return True
        if end < 0:
            end = len(buf)
        raw = buf[text_start : min(end, text_start + _COMMENT_CHARS)]
        directive = bool(self.unless) and self.unless in raw
        if self.output.pending is not None or directive:
            self.comment_line = self._line_at(start)
        if directive:
            self._directive_lines(self.comment_line, raw)
        self.pos = end
        self.dash_comment = dash
        self._comment_done(_comment_text(raw))
        return False

    def _directive_lines(self, line: int, raw: str) -> None:
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
            self.directives.append((line, raw[start:end].strip(_WS)))
            at = raw.find(unless, end)

    def _start_comment(self, text_start: int, mode: int, *, collect: bool, dash: bool) -> None:
        self.mode = mode
        self.block_bang = self.block_blank = False  # (see `_block_comment`)
        self.collect = collect
        self.dash_comment = dash
        self.cstart = self.pos = text_start
        self.cparts = []
        self.clen = 0

    def _comment_done(self, text: str) -> None:
        """File a finished comment: a migration annotation, a trailing comment, or a leading one."""
        if self.markers and self.dash_comment:
            marker = self.markers(text)
            if marker is not None:
                self._apply_marker(marker)
                return
        if self.in_stmt or not text:
            return  # inside a statement a comment is part of its text
        if self.output.pending is not None and self.comment_line == self.output.pending_line:
            _add_comment(self.output.pending[4], text)
            return
        self.output.flush_pending()
        self._add_leading(text)

    def _add_leading(self, text: str) -> None:
        """A comment before the next statement."""
        _add_comment(self.comments, text)
        if self.unless and self.unless in text:
            self.comments_hold = True

    def _clear_comments(self) -> None:
        self.comments = []
        self.comments_hold = False

    def _apply_marker(self, marker: str) -> None:
        """Obey a format's annotation (`Format.section`); a statement still open ends where the annotation starts."""
        if self.in_stmt:
            self._end_stmt(self.pos, cut=self.cm_off, strip_semicolon=marker == "end")
        self.output.flush_pending()
        if marker == "up":
            self.down = False
            self._clear_comments()
        elif marker == "down":
            self.down = True
            self._clear_comments()
        elif marker == "begin":
            self.block = True
            self._set_matchers()
        elif marker == "end":
            self.block = False
            self._set_matchers()

    def _follow_set(self, text: str, line: int, column: int) -> int:
        """A SET statement: follow what it does to the session's sql_mode (`linter.input.splitter.sqlmode`) and
        to user variables (`SET @m = ''; SET sql_mode = @m`), and read on with the quoting that
        mode gives, which it returns. (The fast lane counts a SET that names no sql_mode without building it: a
        variable set there and later given to sql_mode is reported as unknown.)"""
        if "@" not in text and "sql_mode" not in text.lower():
            return self.quoting
        if self.block or self.delimiter != ";":
            self.output.remember_modes(self.modes, self.quoting)
        problem = self.modes.apply_set(text)
        if problem:
            self.output.notes.append(Note(line, column, problem, "parse-error", "warning", excerpt=_excerpt(text)))
        flags = self.modes.flags
        quoting = (NO_BACKSLASH_ESCAPES in flags) + 2 * (ANSI_QUOTES in flags)
        if quoting != self.quoting:
            self.quoting = quoting
            self._set_matchers()
        return quoting
