"""The general scanner: one streaming split, chunk by chunk (`_Splitter`). Its state and driving
live here; what it does between statements (`gaps`), inside a statement (`body`), in quotes and
comments (`quoted`), with client commands (`client`) and in the fast lane (`fast_lane`) are its
parts, each a class whose methods work on this state."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from linter.input.splitter.blocks import Blocks
from linter.input.splitter.body import _StatementText
from linter.input.splitter.client import _ClientCommands
from linter.input.splitter.compound import Invalid, Structure
from linter.input.splitter.fast_lane import FastLane
from linter.input.splitter.gaps import _GapReader
from linter.input.splitter.lexis import (
    MAX_STATEMENT_CHARS,
    _BLOCK,
    _BODIES,
    _BTICK,
    _CLIENTDROP,
    _CLIENT_DASH_FOLLOW,
    _DASH_COMMENT_FOLLOW,
    _CODE,
    _COMMENT_CHARS,
    _DQUOTE,
    ExecVersions,
    _LINE,
    _Matcher,
    _PARAMS,
    _SKIPEXEC,
    _SQUOTE,
    _WS,
    _blank,
    _last_comments,
    _run_cache,
    _run_pattern,
)
from linter.input.splitter.output import Output
from linter.input.splitter.quoted import _QuotedText
from linter.input.splitter.repeats import Repeats
from linter.input.splitter.sqlmode import Modes
from linter.input.statement import Note, Segment, Statement, TenantBlock, _SEGMENT_SPLITS

if TYPE_CHECKING:
    from linter.schema.target import Target
    from linter.input.migrations.formats.base import Format


#: an executable comment still open at the end (checked on MariaDB 10.11, run or skipped: 1064)
_UNCLOSED_EXEC = ("an executable comment in this statement is not closed at the end of the {part}: the server "
                  "refuses the statement (syntax error, 1064)")


class _Splitter(_GapReader, _ClientCommands, _StatementText, _QuotedText):
    """The state of one streaming split; `run` drives it chunk by chunk.

    Indexes into the working buffer `buf` are rebased each time a chunk is appended; everything
    before `pos` has been dealt with (statement text already consumed is kept in `pieces`).
    """

    #: whether the fast lane is used (tests turn it off to compare it with the general scanner)
    fast_lane = True
    #: whether the fast lane remembers what it read (see `SpanMemory`; tests turn it off to compare)
    span_memory = True

    def __init__(
        self, path: str, migration_format: Format | None, skip_words: frozenset[str] | None = None, unless: str = "",
        skip_pattern: str = "", target: Target | None = None, max_statement: int = MAX_STATEMENT_CHARS,
    ) -> None:
        self.path = path
        fmt = migration_format
        #: the annotations of the file's format the splitter obeys (`Format.section`), if it has any
        self.markers: Callable[[str], str | None] | None = fmt.section if fmt is not None and fmt.sections else None
        #: client commands are the client's in a plain file and in a format the client runs
        #: (`Format.client`); migration tools send the text to the server themselves
        self.client = fmt is None or fmt.client
        #: what after `--` makes it a comment where a statement is held (see `_CLIENT_DASH_FOLLOW`)
        self.dash_follow = _CLIENT_DASH_FOLLOW if self.client else _DASH_COMMENT_FOLLOW
        self.mariadb_client = target is not None and target.is_mariadb  # see `_try_delimiter`
        #: what it has read and not handed on: statements, notes, the packet not sent yet
        self.output = Output(path)
        #: between statements, the client holds text it sends with the next one: an executable
        #: comment (`/*!`, `/*M!`: kept, run or not; a plain one it drops). A DELIMITER line or a
        #: command by name is then no command to the mariadb client (`_try_delimiter`)
        self.client_text = False
        self.target = target
        #: which executable comments run on the target (the fast lane asks it too)
        self.versions = ExecVersions(target)
        self.max_statement = max_statement
        self.skip_words = skip_words
        self.skip_pattern = skip_pattern
        self.unless = unless
        self.skipped = 0  # statements counted but not built
        self.buf = ""
        self.pos = 0
        self.chunks_fed = 0
        self.eof = False
        # line counting, lazily up to `cnt_pos`; `line_start` is the index where that line began
        self.cnt_pos = 0
        self.cur_line = 1
        self.line_start = 0
        # client state
        self.delimiter = ";"
        self.block = False  # inside an annotated block (a format's `begin` to `end`): no delimiter at all
        self.packet = False  # and, in a Segment split as a packet, a `;` ends a statement (not a compound one)
        self.part = "file"  # what is being read, for notes: the file, or a Segment's part
        self.down = False  # inside a format's `down` section: nothing is emitted
        self.modes = Modes()  # the session's sql_mode, as far as it is followed
        self.quoting = 0  # how strings read: see `_QUOTINGS` (`linter.input.splitter.sqlmode`)
        self.mode = _CODE
        self.at_line_start = True  # between statements: only whitespace since a newline (or file start)
        self.exec_ver: str | None = None  # version of the open executable comment
        self.exec_serial = 0  # counts executable comments, to tell them apart
        self.exec_line = 0  # the line the open one starts on
        # the client found its delimiter inside an executable comment (`_cut_in_exec`): for the
        # server the rest is outside the comment, and the `*/` that closed it is text it refuses
        self.exec_cut = False
        # an executable comment nested in a running one ended both (the server's lexer; an ordinary
        # comment nests): a later `*/` in the statement is text the server refuses (`_nested_comment_closed`)
        self.exec_nested = False  # such a comment is open
        self.exec_stray = False  # it has closed the executable comment
        self.refused: str | None = None  # why the server refuses the statement being read, all of it
        self.skip_quote = ""  # in a skipped executable comment: the quote open in it, the client's way
        self.skip_depth = 0  # in an executable comment that does not run: comments open in it
        self.skip_mariadb = False  # and whether it is a `/*M!` one
        self.skip_inner = False  # and whether the comment nested in it is an executable one
        #: the server's own view of it, which reads no quotes (`_QuotedText._server_reads`): whether
        #: a comment is nested (one level only), and whether the comment has ended
        self.skip_server_depth = 0
        self.skip_server_ended = False
        self.drop_ss = False  # in text the client drops (`_client_drop`): whether a `/*!` is open on its line
        self.drop_back = _CODE  # and the mode after it
        self.skip_nest = True  # whether one comment may nest in it
        self.skip_at = (0, 0)  # where it starts
        self.skip_ss_line = -1  # see `_skip_exec`
        self.open_at = (0, 0)  # where the quote or comment open in the statement being read starts
        self.stopped = False  # the client quit (`\q`, `exit`): nothing after is read
        self.stop_at = (0, 0, "")  # where, and how
        self.rest_lines = 0  # line breaks in the chunks after it
        self.ends_with_newline = False
        self.params_until = ""  # in a command's parameters: what ends them besides the line's end
        self.params_consume = True  # and whether that is consumed
        self.run_match: _Matcher
        self.gap_stops = ""  # characters that may not start a statement between statements
        self._set_matchers()
        # the statement being read
        self.in_stmt = False
        self.pieces: list[str] = []  # its text so far, before `seg_start`
        self.plen = 0  # total length of `pieces`
        self.over = 0  # past `max_statement`: its length so far (its text is not kept)
        self.over_lines = 0  # and the line breaks in it
        self.over_head = ""  # and its first characters
        self.seg_start = 0  # buffer index where its not-yet-copied text starts
        self.stmt_line = 0
        self.stmt_col = 0
        self.stmt_comments: list[str] = []
        self.stmt_exec: tuple[int, str] | None = None  # (serial, version) of the comment it began in
        self.exec_close_off: int | None = None  # offset in its text where that comment closed
        self.compound: Structure | Invalid | None = None  # a compound statement (found at its first `;`)
        self.fed = 0  # how much of its text the Structure has read
        # the comment being read
        self.collect = False  # whether its text is wanted
        self.cstart = 0  # buffer index where its not-yet-copied text starts
        self.cparts: list[str] = []
        self.clen = 0  # their length (at most `_COMMENT_CHARS` are kept)
        self.dash_comment = False  # a `--` comment (the only kind migration annotations use)
        self.block_bang = self.block_blank = False  # in a plain comment: see `_block_comment`
        self.comment_line = 0
        self.comment_col = 0
        self.cm_off = 0  # offset in the statement text where an in-statement `--` comment began
        self.block_off = 0  # and a `/*` one
        # comments waiting for the next statement, and the last statement waiting for the end of
        # its line (comments after its delimiter on that line are its own)
        self.comments: list[str] = []
        #: every comment line between statements holding `unless`, with its line (`_directive_lines`)
        self.directives: list[tuple[int, str]] = []
        self.comments_hold = False  # whether one of them holds `unless`
        #: the statements a compound block runs, which `_end_stmt` hands it
        self.blocks = Blocks(path, target, self.output)
        #: a dump's repeated schema blocks, when the reader takes them (`linter.input.splitter.repeats`)
        self.repeats: Repeats | None = None
        #: the fast lane (`linter.input.splitter.fast_lane`), where the scanner lets it read (`fast_ok`)
        self.lane = FastLane(path, skip_words, skip_pattern, unless, max_statement, self.client, self.versions,
                             remember=self.span_memory)

    @property
    def notes(self) -> list[Note]:
        """What the splitter reported so far (`Output.notes`)."""
        return self.output.notes

    def run(self, chunks: Iterable[str]) -> Iterator[Statement]:
        first = True
        for chunk in chunks:
            if chunk.__class__ is Segment:
                self._segment(chunk)  # type: ignore[arg-type]
                yield from self.output.sendable()
                continue
            if chunk.__class__ is Note:  # a format's reading reports something at its place
                self.output.notes.append(chunk)  # type: ignore[arg-type]
                continue
            if chunk.__class__ is TenantBlock:  # a dump's schema, maybe a repeat (`repeats`)
                if self.stopped or self.repeats is None:
                    chunk = chunk.text  # type: ignore[attr-defined]
                else:
                    first = False
                    self.repeats.block(self, chunk)  # type: ignore[arg-type]
                    yield from self.output.sendable()
                    continue
            if not chunk:
                continue
            if self.stopped:  # the client quit: the rest is read (a pipe must be drained) and counted
                self.rest_lines += chunk.count("\n")
                self.ends_with_newline = chunk.endswith("\n")
                continue
            if first:
                first = False
                if chunk[0] == "\ufeff":  # a BOM is not text: drop it before any column is counted
                    chunk = chunk[1:]
            self.feed_text(chunk)
            yield from self.output.sendable()
        self.eof = True
        self._scan()
        self._finish()
        yield from self.output.out
        self.output.out = []

    def feed_text(self, text: str) -> None:
        """Read `text` as the next chunk, as far as it goes."""
        self._feed(text)
        self._scan()

    def _segment(self, segment: Segment) -> None:
        """A part read on its own starts (see `Segment`): what is open ends as at the end of input,
        and the part is split as the segment says."""
        if segment.split not in _SEGMENT_SPLITS or (segment.split == "delimiter" and not segment.delimiter):
            raise ValueError(f"bad segment {segment!r}")
        if self.buf or self.in_stmt or self.output.pending is not None:
            self.eof = True
            self._scan()
            self._finish()
            self.eof = False
        self._line_at(self.pos)
        self.cnt_pos -= self.pos
        self.line_start -= self.pos
        self.buf = self.buf[self.pos :] if self.pos < len(self.buf) else ""
        self.pos = 0
        self.mode = _CODE
        self.in_stmt = False
        self.exec_ver = None
        self.exec_cut = self.exec_nested = self.exec_stray = False
        self.refused = None
        self.skip_quote = ""
        self.compound = None
        self.output.packet_open = self.output.rejecting = self.client_text = False
        self.at_line_start = True
        self._clear_comments()
        self.block = segment.split != "delimiter"
        self.packet = segment.split == "packet"
        self.delimiter = segment.delimiter if segment.split == "delimiter" else ";"
        self.part = segment.part
        self._set_matchers()
        self.output.notes.extend(segment.notes)

    def _feed(self, chunk: str) -> None:
        """Drop what has been dealt with from the buffer (keeping statement and comment text) and append `chunk`."""
        buf, pos = self.buf, self.pos
        if self.in_stmt:
            if pos > self.seg_start:
                piece = buf[self.seg_start : pos]
                self._piece(_blank(piece) if self.mode in (_SKIPEXEC, _CLIENTDROP) else piece)
            self.seg_start = 0
        if self.collect and self.mode in (_BLOCK, _LINE):
            room = _COMMENT_CHARS - self.clen
            if room > 0:
                piece = buf[self.cstart : min(pos, self.cstart + room)]
                self.cparts.append(piece)
                self.clen += len(piece)
            self.cstart = 0
        self._line_at(pos)
        self.cnt_pos -= pos
        self.line_start -= pos
        self.buf = buf[pos:] + chunk if pos < len(buf) else chunk
        self.chunks_fed += 1
        self.pos = 0
        self.lane.forget()  # its look-ahead, found again in the new buffer

    def _scan(self) -> None:
        """Advance as far as the buffer allows (at end of input: to its end)."""
        while not self.stopped:
            mode = self.mode
            if mode == _CODE:
                ok = self._code() if self.in_stmt else self._gap()
            elif mode == _LINE:
                ok = self._line_comment()
            elif mode == _BLOCK:
                ok = self._block_comment()
            elif mode == _BTICK:
                ok = self._backtick()
            elif mode == _SKIPEXEC:
                ok = self._skip_exec_text()
            elif mode == _PARAMS:
                ok = self._params()
            elif mode == _CLIENTDROP:
                ok = self._client_drop()
            else:
                ok = self._quote()
            if not ok:
                return

    def _finish(self) -> None:
        """At end of input: emit what is left, even unterminated."""
        buf = self.buf
        cut = None  # where the text sent ends, before the end of the input
        if self.stopped:
            line, column, what = self.stop_at
            if not self.rest_lines and buf:
                self.ends_with_newline = buf.endswith("\n")
            last = self._line_at(len(buf)) + self.rest_lines - self.ends_with_newline  # the file's last line
            rest = max(0, last - line)
            self.output.flush_pending()
            self.output.notes.append(Note(line, column, f"{what}: the mysql client stops reading here; the rest of the file "
                                   f"({rest:,} more lines) is neither run nor linted", "parse-error", "info"))
            return
        if self.mode == _BLOCK and not self.in_stmt:
            # an unterminated comment between statements swallowed the rest of the file: surface
            # it as a statement so the parser reports it instead of the file silently ending
            rest = buf[self.cstart : self.cstart + max(0, _COMMENT_CHARS - self.clen)]
            text = ("/*" + "".join(self.cparts) + rest).rstrip(_WS)
            self.output.flush_pending()
            if not self.down:
                line = self.comment_line
                if self.clen + len(rest) < _COMMENT_CHARS:
                    end_line = line + text.count("\n")
                else:  # only its start is kept: it ends on the last line that is not blank
                    blank = len(buf) - len(buf.rstrip(_WS))
                    end_line = self._line_at(len(buf)) - buf.count("\n", len(buf) - blank)
                self.output.out.append(
                    Statement(text, self.path, line, self.comment_col, end_line, _last_comments(self.comments), None)
                )
        elif self.mode == _SKIPEXEC or self.mode == _CLIENTDROP and self.drop_back == _SKIPEXEC:
            line, column = self.skip_at
            self.output.flush_pending()
            if self.in_stmt:
                self._piece(_blank(buf[self.seg_start :]))
                self.seg_start = len(buf)
                self.refused = self.refused or _UNCLOSED_EXEC.format(part=self.part)
            else:
                self.output.notes.append(Note(line, column, "executable comment not closed: the server skips it (it does not "
                                       f"run on the target) and the rest of the {self.part} with it",
                                       end_line=self.cur_line))
        elif self.in_stmt and self.exec_ver is not None and self.mode in (_CODE, _CLIENTDROP):
            if self.mode == _CLIENTDROP:
                self._piece(_blank(buf[self.seg_start :]))
                self.seg_start = len(buf)
            self.refused = self.refused or _UNCLOSED_EXEC.format(part=self.part)
        elif self.mode == _BLOCK and self.in_stmt and self.client and not self.over:
            # the client drops a comment left open (checked on MariaDB 10.11): what is before it is sent
            line, column = self.open_at
            self.output.flush_pending()
            self.output.notes.append(Note(line, column, f"comment (/*) not closed: the rest of the {self.part} is inside it; the "
                                   "mysql client drops it and sends the statement before it", "parse-error", "warning",
                                   max(line, self._line_at(len(buf)))))
            cut = self.block_off
        elif self.mode != _CODE and self.in_stmt:
            what = {_SQUOTE: "string (')", _DQUOTE: 'string (")', _BTICK: "quoted identifier (`)",
                    _BLOCK: "comment (/*)", _LINE: "", _CLIENTDROP: "comment (/*)", _PARAMS: ""}[self.mode]
            if what:
                line, column = self.open_at
                self.output.flush_pending()
                blank = len(buf) - len(buf.rstrip(_WS))
                end_line = self._line_at(len(buf)) - buf.count("\n", len(buf) - blank)
                self.output.notes.append(Note(line, column, f"{what} not closed: the rest of the {self.part} is inside it, and the "
                                       "server rejects the statement it is in", end_line=max(line, end_line)))
        if self.in_stmt:
            # an annotated block or a Segment sent whole: the server takes a last `;` as the end of the statement
            self._end_stmt(len(buf), cut=cut, strip_semicolon=self.block and not self.packet)
        self.output.flush_pending()
        self.output.packet_open = False  # at the end the client sends what it holds

    def _where(self, i: int) -> tuple[int, int]:
        """(line, column) of buffer index `i`, which may lie before the last one asked."""
        if i >= self.cnt_pos:
            return self._line_at(i), i - self.line_start + 1
        k = self.buf.count("\n", i, self.cnt_pos)
        if k == 0:
            return self.cur_line, i - self.line_start + 1
        return self.cur_line - k, i - self.buf.rfind("\n", 0, i)

    def _line_at(self, i: int) -> int:
        """The line of buffer index `i` (indexes must be asked in increasing order)."""
        cp = self.cnt_pos
        if i > cp:
            buf = self.buf
            k = buf.count("\n", cp, i)
            if k:
                self.cur_line += k
                self.line_start = buf.rfind("\n", cp, i) + 1
            self.cnt_pos = i
        return self.cur_line

    def _set_matchers(self) -> None:
        """Follow a change of delimiter, annotated block or executable comment."""
        delimiter = "" if self.block else self.delimiter
        key = (delimiter, self.exec_ver is not None or self.exec_cut or self.exec_stray, self.client, self.quoting,
               self.packet)
        match = _run_cache.get(key)
        if match is None:
            match = _run_cache[key] = _run_pattern(*key)
        self.run_match = match
        self.quote_body = _BODIES[self.quoting]
        self.gap_stops = "dD-#/*" + delimiter[:1] + ("\\" if self.client else "")
        self.fast_ok = (self.fast_lane and not self.markers and delimiter == ";" and self.exec_ver is None
                        and not self.exec_cut and not self.exec_stray
                        and not self.quoting)

    def _open_exec(self, version: str) -> None:
        self.exec_ver = version
        self.exec_serial += 1
        self._set_matchers()

    def _skip_exec(self, start: int, marker_end: int, version: str) -> None:
        """An executable comment that does not run on the target, opened at buffer index
        `start`: the server skips it as a comment, one comment nested in it included (MySQL reads
        a MariaDB `/*M!` one as an ordinary comment). Inside a statement its text becomes blanks
        (line breaks kept), so the statement's positions stay right."""
        self.mode = _SKIPEXEC
        self.pos = marker_end
        self.skip_quote = ""
        self.skip_mariadb = version.startswith("M!")
        self.skip_inner = False
        self.skip_depth = 0
        self.skip_server_depth, self.skip_server_ended = 0, False
        self.skip_nest = not (version.startswith("M!") and self.target is not None and not self.target.is_mariadb)
        self.skip_at = self._where(start)
        # the line on which the client still reads an executable comment: a plain comment opened
        # there is dropped up to its second `*/` (`_client_drop_from`). The client marks only a
        # `/*!` one, on its line, until a `*/`: a nested comment's ends it (MariaDB 10.11 sends
        # `/*!99999 a /*M!100301 b */ c /* d;e */ */` without `/* d;e */`, its `;` no delimiter)
        self.skip_ss_line = -1 if self.skip_mariadb else self.skip_at[0]

    # --- between statements -------------------------------------------------------------------

            # the statement ended at its delimiter: go on after it in the same buffer

    # --- inside quotes and comments that cross a chunk boundary -------------------------------





