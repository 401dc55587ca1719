"""The scanner inside a statement (`_StatementText`)."""

from __future__ import annotations

from linter.input.splitter.client import _CMD_DONE, _CMD_MORE, _CMD_TEXT
from linter.input.splitter.compound import BLOCK, Invalid, Structure, head as compound_head
from linter.input.splitter.lexis import (
    _BLOCK,
    _CODE,
    _BTICK,
    _COMPOUND_PREFIX,
    _FIRST_WORD,
    _LINE,
    _OVER_HEAD,
    _QUOTE_MODES,
    _SET_WORDS,
    _SLASH_LOOKAHEAD,
    _UNDECIDED,
    _WS,
    _excerpt,
    _exec_open,
    _last_comments,
)
from linter.input.splitter.sqlmode import normalize
from linter.input.statement import Note, Statement


#: why the server refuses a statement the client cut in an executable comment (`_cut_in_exec`):
#: the mysql client looks for its delimiter everywhere but in quotes and plain comments, so
#: `/*!50100 a; b */` is cut at its `;`, and under `DELIMITER //` the `/` of a closing `*/` may
#: begin the delimiter (`*///`). What follows the cut is outside the comment for the server: its
#: `*/` is text there, which the parser refuses with that statement. Checked on MariaDB 10.11
#: (tests/test_split_exec_delimiter.py).
_CUT_IN_EXEC = ("the mysql client ends this statement at its delimiter {delimiter!r} inside an executable comment "
                "(it looks for the delimiter there as in plain text): the server gets the comment unclosed and "
                "refuses the statement (syntax error, 1064)")
_CUT_AT_CLOSE = ("the mysql client ends this statement at the `/` of the `*/` that closes its executable comment, "
                 "which begins the delimiter {delimiter!r}: the server gets the comment unclosed and refuses the "
                 "statement (syntax error, 1064)")

_LEADING_SLASH = ("this statement begins with `/` (such as what is left of `*///` after the delimiter `//`): the "
                  "server refuses it (syntax error, 1064)")
_NESTED_CLOSE = ("an executable comment nested in a running one ends that one too: the server reads what "
                 "follows as statement text and refuses the `*/` that was to close it (syntax error, 1064)")
_STRAY_CLOSE = ("this statement holds the `*/` of an executable comment the mysql client cut at its delimiter: "
                "the server reads it as text and refuses the statement (syntax error, 1064)")

def _quits(text: str) -> bool:
    """Whether the client, having sent `text` alone (as the whole of what it sends at its
    delimiter), quits: `exit` or `quit` with nothing but comments after it. The server refuses it
    (1064), then the client stops reading (MariaDB 10.11's client; `exit now` it only sends)."""
    if text[:4].lower() not in ("exit", "quit") or len(text) > 512:
        return False
    i, n = 4, len(text)
    while i < n:
        c = text[i]
        if c in _WS:
            i += 1
        elif text.startswith("/*", i) and not text.startswith(("/*!", "/*M!"), i):
            end = text.find("*/", i + 2)
            if end < 0:
                return False
            i = end + 2
        elif c == "#" or text.startswith("-- ", i):
            end = text.find("\n", i)
            i = n if end < 0 else end + 1
        else:
            return False
    return True


class _StatementText:
    """Inside a statement: its text up to its delimiter (`_code`), a compound statement's structure,
    its comments, and its end (`_end_stmt`), a block's statements (`linter.input.splitter.blocks`) or a statement
    over the cap (`_end_oversize`)."""

    def _code(self) -> bool:
        """Read statement text up to its delimiter, or until the mode changes or the buffer ends."""
        buf, eof = self.buf, self.eof
        n = len(buf)
        pos = self.pos
        run_match = self.run_match
        delimiter = "" if self.block else self.delimiter
        d0 = delimiter[:1]  # "" never equals a character
        while True:
            m = run_match(buf, pos)  # `(...)*` always matches
            p = m.end() if m is not None else pos
            if p >= n:
                self.pos = n
                return False
            c = buf[p]
            if c == d0:
                if buf.startswith(delimiter, p):
                    if self.exec_ver is not None:  # the client looks for its delimiter in executable comments too
                        self.exec_ver = None  # for the server, what follows is outside the comment
                        self.exec_cut = True
                        self._set_matchers()
                        self._cut_in_exec(p, p + len(delimiter), _CUT_IN_EXEC.format(delimiter=delimiter))
                        return True
                    # under a custom delimiter, a `;` left before it is an empty statement to the server
                    self._end_stmt(p, delimiter_end=p + len(delimiter), strip_semicolon=delimiter != ";")
                    self.output.packet_open = self.output.rejecting = False
                    return True
                if not eof and n - p < len(delimiter) and delimiter.startswith(buf[p:]):
                    self.pos = p
                    return False
            if c == ";" and (self.packet or delimiter and delimiter != ";"):  # not the delimiter: see `linter.input.splitter.compound`
                compound = self.compound
                if compound is None:
                    prefix = self._text_prefix(p)
                    head = compound_head(prefix)
                    if head is None:
                        if self.client and not self.output.packet_open and prefix[:3].lower() == "use":
                            alone = self._use_alone(prefix, p)
                            if alone is _UNDECIDED:
                                self.pos = p
                                return False
                            if alone:
                                return True
                        self._end_stmt(p, delimiter_end=p + 1, semicolon=True)
                        self.output.packet_open = True
                        return True
                    compound = self.compound = head if isinstance(head, Invalid) else Structure(head, self.quoting)
                    self.fed = 0
                if isinstance(compound, Structure) and not self.over:
                    text = self._text_from(self.fed, p)
                    compound.feed(text, self.fed, final=False)
                    self.fed += len(text) + 1
                    if compound.complete:  # the compound statement ends at this `;`
                        self._end_stmt(p, delimiter_end=p + 1)
                        self.output.packet_open = True
                        return True
                pos = p + 1
                continue
            if c == "'" or c == '"':
                m = self.quote_body[c].match(buf, p + 1)
                e = m.end() if m is not None else p + 1
                if e < n and buf[e] == c:
                    pos = e + 1
                    continue
                self.mode = _QUOTE_MODES[c]  # goes on in the next chunk
                self.open_at = self._where(p)
                self.pos = n if eof else e
                return False
            if c == "`":
                q = buf.find("`", p + 1)
                if q >= 0:
                    pos = q + 1
                    continue
                self.mode = _BTICK
                self.open_at = self._where(p)
                self.pos = n
                return False
            if c == "-":
                if n - p < 3 and not eof:
                    self.pos = p
                    return False
                if buf.startswith("-", p + 1) and (p + 2 >= n or buf[p + 2] in self.dash_follow):
                    self._stmt_comment(p, p + 2, _LINE, dash=True)
                    return True
                pos = p + 1
            elif c == "#":
                self._stmt_comment(p, p + 1, _LINE, dash=False)
                return True
            elif c == "/":
                if n - p < _SLASH_LOOKAHEAD and not eof:
                    self.pos = p
                    return False
                if buf.startswith("*", p + 1):
                    em = _exec_open(buf, p)
                    if em is None:
                        if (self.exec_ver is not None and not self.exec_ver.startswith("M!")
                                and self._where(p)[0] == self.exec_line):
                            self._piece(buf[self.seg_start : p])
                            self.seg_start = p
                            self._client_drop_from(p, _CODE)
                            return True
                        self._stmt_comment(p, p + 2, _BLOCK, dash=False)  # (an ordinary one nests)
                        return True
                    marker_end, version, runs = self.versions.marker(em)
                    self.exec_nested = self.exec_nested or (runs and self.exec_ver is not None)  # (ends it too)
                    self._piece(buf[self.seg_start : p])
                    if not runs:  # its text becomes blanks (see `_skip_exec`)
                        self.seg_start = p
                        self._skip_exec(p, marker_end, version)
                        return True
                    # unwrap in place: the marker becomes as many spaces, so columns stay right
                    self._piece(" " * (marker_end - p))
                    self._open_exec(version)
                    self.exec_line = self._where(p)[0]
                    pos = self.seg_start = marker_end
                    run_match = self.run_match
                    continue
                pos = p + 1
            elif c == "*":
                if n - p < (2 if d0 != "/" else 1 + len(delimiter)) and not eof:
                    self.pos = p
                    return False
                if buf.startswith("/", p + 1) and (self.exec_cut or self.exec_stray) and self.exec_ver is None:
                    self._stray_close(_STRAY_CLOSE if self.exec_cut else _NESTED_CLOSE)
                    pos = p + 1 if d0 == "/" and buf.startswith(delimiter, p + 1) else p + 2  # (`*///`: at `/`)
                    run_match = self.run_match
                    continue
                if buf.startswith("/", p + 1) and self.exec_ver is not None:
                    if d0 == "/" and buf.startswith(delimiter, p + 1):
                        # the client: `*` closes the comment and its `/` begins the delimiter
                        self.exec_ver = None
                        self._set_matchers()
                        self._cut_in_exec(p + 1, p + 1 + len(delimiter), _CUT_AT_CLOSE.format(delimiter=delimiter))
                        return True
                    self._piece(buf[self.seg_start : p])
                    if self.stmt_exec is not None and self.stmt_exec[0] == self.exec_serial:
                        self.exec_close_off = self.plen
                    self._piece("  ")
                    self.exec_ver = None
                    self._nested_comment_closed()
                    pos = self.seg_start = p + 2
                    self._set_matchers()
                    run_match = self.run_match
                    continue
                pos = p + 1
            elif c == "\\" and self.client:
                found = self._backslash(p)
                if found == _CMD_TEXT:
                    pos = p + 2  # `\N`, or a command the client does not know: text
                elif found == _CMD_MORE:
                    self.pos = p
                    return False
                elif found == _CMD_DONE and self.in_stmt:
                    pos = self.pos
                else:
                    return True
            elif c == "\n":
                self.pos = p
                found = self._try_delimiter(p + 1)
                if found is _UNDECIDED:
                    return False
                if found:
                    return True
                pos = p + 1
            else:
                pos = p + 1

    def _text_prefix(self, end: int) -> str:
        """The start of the statement being read, up to buffer index `end` (at most `_COMPOUND_PREFIX` characters)."""
        if self.over:
            return self.over_head[:_COMPOUND_PREFIX]
        prefix = ""
        for piece in self.pieces:
            prefix += piece
            if len(prefix) >= _COMPOUND_PREFIX:
                return prefix
        return prefix + self.buf[self.seg_start : min(end, self.seg_start + _COMPOUND_PREFIX)]

    def _text_from(self, offset: int, end: int) -> str:
        """The text of the statement being read from `offset` in it to buffer index `end`."""
        need = self.plen - offset
        if need <= 0:
            return self.buf[self.seg_start - need : end]
        current = self.buf[self.seg_start : end]
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

    def _piece(self, text: str) -> None:
        """Keep `text` as the next part of the statement being read; past `max_statement`
        characters only count its length and lines (see `MAX_STATEMENT_CHARS`)."""
        if self.over:
            self.over += len(text)
            self.over_lines += text.count("\n")
            return
        self.pieces.append(text)
        self.plen += len(text)
        if self.plen > self.max_statement:
            held = "".join(self.pieces)
            self.over = len(held)
            self.over_lines = held.count("\n")
            self.over_head = held[:_OVER_HEAD]
            self.pieces = []
            self.plen = 0

    def _stmt_comment(self, start: int, text_start: int, mode: int, *, dash: bool) -> None:
        """A comment inside a statement stays in its text; only a `--` one may be an annotation to read."""
        collect = bool(self.markers) and dash
        if collect:
            self.cm_off = self.plen + (start - self.seg_start)
        if mode == _BLOCK:
            self.open_at = self._where(start)
            self.block_off = self.plen + (start - self.seg_start)
        self._start_comment(text_start, mode, collect=collect, dash=dash)

    def _end_stmt(
        self,
        end: int,
        *,
        delimiter_end: int | None = None,
        cut: int | None = None,
        strip_semicolon: bool = False,
        semicolon: bool = False,
    ) -> None:
        """Close the statement whose text ends at buffer index `end` (and at offset `cut` of its
        text, if given); `semicolon`: at a `;` in a packet."""
        self.output.ended_notes = len(self.output.notes)
        if self.over or self.plen + end - self.seg_start > self.max_statement:
            self._end_oversize(end, delimiter_end)
            return
        raw = self.buf[self.seg_start : end]
        if self.pieces:
            self.pieces.append(raw)
            raw = "".join(self.pieces)
            self.pieces = []
            self.plen = 0
        self.in_stmt = False
        if delimiter_end is not None:
            self.pos = delimiter_end
        if cut is not None:
            raw = raw[:cut]
        text = raw.rstrip(_WS)
        if strip_semicolon and text.endswith(";"):
            text = text[:-1].rstrip(_WS)
        packet = 0  # under `;` each statement is a packet of its own
        # (but a packet begun under another delimiter goes on to the first `;` after `\d ;`: seed 396)
        if self.block or self.delimiter != ";" or self.output.packet_open:
            if not self.output.packet_open:  # the first statement of a packet
                self.output.packet_no += 1
            packet = self.output.packet_no
        stmt_exec = self.stmt_exec
        close = self.exec_close_off
        self.stmt_exec = self.exec_close_off = None
        compound = self.compound
        self.compound = None
        refused, self.refused = self.refused, None
        if not text and semicolon and not self.output.rejecting:
            if not self.block:
                self.output.empty_statement(self.stmt_line, self.stmt_col)
        if not text or self.down or self.output.rejecting:
            return
        if refused is None and text[:1] == "/":
            refused = _LEADING_SLASH
        if refused is not None:
            self.output.flush_pending()
            line = self.stmt_line
            packet = self.block or self.delimiter != ";" and not self.buf.startswith(self.delimiter, end)
            if packet and end < len(self.buf):  # a multi-statement packet stops at its first error
                self.output.rejecting = True
                refused += "; the server runs none of the statements after it in the same packet"
            self.output.notes.append(Note(line, self.stmt_col, refused, "parse-error", "warning", line + text.count("\n"),
                                   _excerpt(text)))
            return
        if compound is None and (self.block or self.delimiter != ";"):  # no `;` of its own: a compound one?
            head = compound_head(text[:_COMPOUND_PREFIX])
            if head is not None:
                compound = head if isinstance(head, Invalid) else Structure(head, self.quoting)
                self.fed = 0
        if compound is not None:
            if isinstance(compound, Invalid):
                self.output.rejecting = True
                self.output.flush_pending()
                self.output.notes.append(Note(self.stmt_line, self.stmt_col, f"{compound.reason}: the server rejects this "
                                       "statement and the rest of its packet, so innolint replays none of it",
                                       "parse-error", "warning", self.stmt_line + text.count("\n"), _excerpt(text)))
                return
            if not compound.complete:
                compound.feed(raw[self.fed :], self.fed, final=True)
            if compound.kind == BLOCK:
                self.blocks.emit(raw, compound, (self.stmt_line, self.stmt_col), self.stmt_comments, packet,
                                 self.quoting, self.modes, self._follow_set)
                return
        executable = None
        if stmt_exec is not None and (close is None or not raw[close:].strip(_WS)):
            executable = stmt_exec[1]
        if self.quoting:
            text = normalize(text, self.modes.flags)
        line = self.stmt_line
        end_line = line + text.count("\n")
        if text[:3] in _SET_WORDS:
            self._follow_set(text, line, self.stmt_col)
        if delimiter_end is None:
            comments = _last_comments(self.stmt_comments)
            self.output.out.append(Statement(text, self.path, line, self.stmt_col, end_line, comments, executable, packet))
            return
        if self.client and not semicolon:
            command = self._command_at_delimiter(raw)
            if command is not None:  # the client runs it instead of sending it
                letter, argument, name = command
                self._run_command(letter, argument, 0, name, where=(line, self.stmt_col))
                return
        self.output.pending = (text, line, self.stmt_col, end_line, self.stmt_comments, executable, packet)
        self.output.pending_line = end_line if len(raw) == len(text) else line + raw.count("\n")
        if self.client and not semicolon and not self.output.packet_open and _quits(text):
            self.stop_at = (line, self.stmt_col, f"`{text}` (which the server refuses)")
            self.stopped = True

    def _end_oversize(self, end: int, delimiter_end: int | None) -> None:
        """Close a statement longer than `max_statement`, of which only the start was kept: counted
        if the caller skips its first word, else reported with its size (see `MAX_STATEMENT_CHARS`)."""
        tail = self.buf[self.seg_start : end]
        self._piece(tail)
        size, lines, head = self.over, self.over_lines, self.over_head
        self.over = self.over_lines = 0
        self.over_head = ""
        self.in_stmt = False
        self.stmt_exec = self.exec_close_off = None
        self.refused = None
        if delimiter_end is not None:
            self.pos = delimiter_end
        if self.down:
            return
        blank = tail[len(tail.rstrip(_WS)):] if tail.strip(_WS) else ""
        end_line = self.stmt_line + lines - blank.count("\n")
        word = _FIRST_WORD(head)
        if self.skip_words is not None and word is not None and word.group().upper() in self.skip_words:
            self.skipped += 1  # a dump's INSERT: nothing to read in it, counted as read
            return
        self.output.flush_pending()
        self.output.notes.append(Note(
            self.stmt_line, self.stmt_col,
            f"statement of {size:,} characters is longer than the {self.max_statement:,} characters innolint reads of "
            "one statement: not parsed", "parse-error", "warning", end_line, _excerpt(head),
        ))
