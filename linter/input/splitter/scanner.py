"""The general scanner: one streaming split, chunk by chunk (`Splitter`), as the mysql client
reads the text: between statements, inside a statement, in quotes and comments, and the client's
commands. It is one state machine over one buffer (its `mode` says where it is), so its reading is
one class. It finds where statements and the client's commands are; what they are and what they
do is the client's: which command a text holds (`linter.input.splitter.client`), what the
session does with a statement's text and a command (`ClientSession`: the delimiter, sections,
sql_mode, what is sent). What has state of its own is an object it holds: the session, the fast lane (`FastLane`),
what it has read and not handed on (`Output`, the session's), which executable comments run
(`ExecVersions`), the executable comment open that runs (`ExecComment`), one that does not run,
which reads itself (`Skipped.read`), the comment being read (`CommentText`), the statement text
read so far (`Draft`), a dump's repeats (`Repeats`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING
import re

from linter.input.splitter.client import (
    BACKSLASH_EOL,
    BACKSLASH_TEXT,
    CMD_DONE,
    CMD_MODE,
    CMD_MORE,
    CMD_TEXT,
    COMMAND_INITIALS,
    COMMAND_LETTERS,
    USE_LOOKAHEAD,
    backslash_command,
    delimiter_line,
    named_command,
    use_at_delimiter,
)
from linter.input.splitter.comments import Comments, CommentText
from linter.input.splitter.compound import Invalid, Structure, head as compound_head
from linter.input.splitter.draft import Draft
from linter.input.splitter.exec_comment import ClientDrop, ExecComment
from linter.input.splitter.fast_lane import FastLane
from linter.input.splitter.lexis import (
    ExecVersions,
    MAX_STATEMENT_CHARS,
    BLOCK_COMMENT,
    BODIES,
    BTICK,
    CLIENTDROP,
    CLIENT_DASH_FOLLOW,
    CODE,
    COMMENT_CHARS,
    COMPOUND_PREFIX,
    DASH_COMMENT_FOLLOW,
    DQUOTE,
    FIRST_WORD,
    GAP_MODE,
    GAP_MORE,
    GAP_NEXT,
    GAP_STATEMENT,
    LINE,
    MODE_QUOTES,
    Matcher,
    PARAMS,
    QUOTE_MODES,
    SET_WORDS,
    SKIPEXEC,
    SLASH_LOOKAHEAD,
    SQUOTE,
    UNDECIDED,
    WS,
    WS_RUN,
    blanked,
    client_comment_run,
    comment_run,
    comment_text,
    comment_texts,
    excerpt,
    exec_line,
    exec_open,
    held_comment_run,
    last_comments,
    run_cache,
    run_end,
    run_pattern,
)
from linter.input.splitter.repeats import Repeats
from linter.input.splitter.session import ClientSession
from linter.input.splitter.skipped import CUT_AT_CLOSE, CUT_INSIDE, DROP, MORE, Skipped
from linter.input.statement import (
    Note,
    Segment,
    Statement,
    TenantBlock,
    SEGMENT_SPLITS,
)

if TYPE_CHECKING:
    from linter.schema.target import Target
    from linter.input.migrations.formats.base import Format


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

_NESTED_CLOSE = ("an executable comment nested in a running one ends that one too: the server reads what "
                 "follows as statement text and refuses the `*/` that was to close it (syntax error, 1064)")

_STRAY_CLOSE = ("this statement holds the `*/` of an executable comment the mysql client cut at its delimiter: "
                "the server reads it as text and refuses the statement (syntax error, 1064)")


#: a quote in a skipped executable comment holding `/*` or `*/` (checked on MariaDB 10.11)
_QUOTED_COMMENT_MARK = ("a quoted text in an executable comment the server skips holds `/*` or `*/`: the server reads no "
                        "quotes there, so the comment ends elsewhere for it than for the mysql client, and it refuses "
                        "the statement (syntax error, 1064)")

#: in text the client drops (`_client_drop`): what changes its state

#: an executable comment still open at the end (checked on MariaDB 10.11, run or skipped: 1064)
_UNCLOSED_EXEC = ("an executable comment in this statement is not closed at the end of the {part}: the server "
                  "refuses the statement (syntax error, 1064)")


class Splitter:
    """The state of one streaming split; `run` drives it chunk by chunk.

    Indexes into the working buffer `buf` are rebased each time a chunk is appended; everything
    before `pos` has been dealt with (statement text already consumed is kept in `draft`).
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
        #: what after `--` makes it a comment where a statement is held (see `CLIENT_DASH_FOLLOW`)
        self.dash_follow = CLIENT_DASH_FOLLOW if self.client else DASH_COMMENT_FOLLOW
        self.mariadb_client = target is not None and target.is_mariadb  # see `_try_delimiter`
        #: the client's session: its delimiter, sections, sql_mode, what it sends (`ClientSession`)
        self.session = ClientSession(path, target, self.client, self._set_matchers)
        #: what it has read and not handed on: statements, notes, the packet not sent yet
        self.output = self.session.output
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
        self.mode = CODE
        self.at_line_start = True  # between statements: only whitespace since a newline (or file start)
        self.exec = ExecComment()  # the executable comment open that runs on the target
        self.refused: str | None = None  # why the server refuses the statement being read, all of it
        self.skip = Skipped()  # an executable comment that does not run, as far as it is read
        self.drop = ClientDrop(CODE)  # a plain comment the client drops (`_client_drop`)
        self.open_at = (0, 0)  # where the quote or comment open in the statement being read starts
        self.rest_lines = 0  # line breaks in the chunks after it
        self.ends_with_newline = False
        self.params_until = ""  # in a command's parameters: what ends them besides the line's end
        self.params_consume = True  # and whether that is consumed
        self.run_match: Matcher
        self.gap_stops = ""  # characters that may not start a statement between statements
        self._set_matchers()
        # the statement being read
        self.in_stmt = False
        self.draft = Draft(max_statement)  # its text so far, before `seg_start`
        self.seg_start = 0  # buffer index where its not-yet-copied text starts
        self.stmt_line = 0
        self.stmt_col = 0
        self.stmt_comments: list[str] = []
        self.stmt_exec: tuple[int, str] | None = None  # (serial, version) of the comment it began in
        self.exec_close_off: int | None = None  # offset in its text where that comment closed
        self.compound: Structure | Invalid | None = None  # a compound statement (found at its first `;`)
        self.fed = 0  # how much of its text the Structure has read
        # the comment being read
        self.comment = CommentText()
        self.cm_off = 0  # offset in the statement text where an in-statement `--` comment began
        self.block_off = 0  # and a `/*` one
        # comments waiting for the next statement, and the last statement waiting for the end of
        # its line (comments after its delimiter on that line are its own)
        self.leading = Comments(unless)  # and the directive lines between statements
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
                if self.session.stopped or self.repeats is None:
                    chunk = chunk.text  # type: ignore[attr-defined]
                else:
                    first = False
                    self.repeats.block(self, chunk)  # type: ignore[arg-type]
                    yield from self.output.sendable()
                    continue
            if not chunk:
                continue
            if self.session.stopped:  # the client quit: the rest is read (a pipe must be drained) and counted
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
        if segment.split not in SEGMENT_SPLITS or (segment.split == "delimiter" and not segment.delimiter):
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
        self.mode = CODE
        self.in_stmt = False
        self.exec.reset()
        self.refused = None
        self.skip.quote = ""
        self.compound = None
        self.client_text = False
        self.at_line_start = True
        self.leading.clear()
        self.session.segment(segment)

    def _feed(self, chunk: str) -> None:
        """Drop what has been dealt with from the buffer (keeping statement and comment text) and append `chunk`."""
        buf, pos = self.buf, self.pos
        if self.in_stmt:
            if pos > self.seg_start:
                piece = buf[self.seg_start : pos]
                self.draft.add(blanked(piece) if self.mode in (SKIPEXEC, CLIENTDROP) else piece)
            self.seg_start = 0
        if self.mode in (BLOCK_COMMENT, LINE):
            self.comment.rebase(buf, pos)
        self._line_at(pos)
        self.cnt_pos -= pos
        self.line_start -= pos
        self.buf = buf[pos:] + chunk if pos < len(buf) else chunk
        self.chunks_fed += 1
        self.pos = 0
        self.lane.forget()  # its look-ahead, found again in the new buffer

    def _scan(self) -> None:
        """Advance as far as the buffer allows (at end of input: to its end)."""
        while not self.session.stopped:
            mode = self.mode
            if mode == CODE:
                ok = self._code() if self.in_stmt else self._gap()
            elif mode == LINE:
                ok = self._line_comment()
            elif mode == BLOCK_COMMENT:
                ok = self._block_comment()
            elif mode == BTICK:
                ok = self._backtick()
            elif mode == SKIPEXEC:
                ok = self._skip_exec_text()
            elif mode == PARAMS:
                ok = self._params()
            elif mode == CLIENTDROP:
                ok = self._client_drop()
            else:
                ok = self._quote()
            if not ok:
                return

    def _finish(self) -> None:
        """At end of input: emit what is left, even unterminated."""
        buf = self.buf
        cut = None  # where the text sent ends, before the end of the input
        if self.session.stopped:
            line, column, what = self.session.stop_at
            if not self.rest_lines and buf:
                self.ends_with_newline = buf.endswith("\n")
            last = self._line_at(len(buf)) + self.rest_lines - self.ends_with_newline  # the file's last line
            rest = max(0, last - line)
            self.output.flush_pending()
            self.output.notes.append(Note(line, column, f"{what}: the mysql client stops reading here; the rest of the file "
                                   f"({rest:,} more lines) is neither run nor linted", "parse-error", "info"))
            return
        if self.mode == BLOCK_COMMENT and not self.in_stmt:
            # an unterminated comment between statements swallowed the rest of the file: surface
            # it as a statement so the parser reports it instead of the file silently ending
            kept = self.comment.text(buf, len(buf))
            text = ("/*" + kept).rstrip(WS)
            self.output.flush_pending()
            if not self.session.down:
                line = self.comment.line
                if len(kept) < COMMENT_CHARS:
                    end_line = line + text.count("\n")
                else:  # only its start is kept: it ends on the last line that is not blank
                    blank = len(buf) - len(buf.rstrip(WS))
                    end_line = self._line_at(len(buf)) - buf.count("\n", len(buf) - blank)
                self.output.out.append(
                    Statement(text, self.path, line, self.comment.column, end_line, last_comments(self.leading.waiting), None)
                )
        elif self.mode == SKIPEXEC or self.mode == CLIENTDROP and self.drop.back == SKIPEXEC:
            line, column = self.skip.at
            self.output.flush_pending()
            if self.in_stmt:
                self.draft.add(blanked(buf[self.seg_start :]))
                self.seg_start = len(buf)
                self.refused = self.refused or _UNCLOSED_EXEC.format(part=self.session.part)
            else:
                self.output.notes.append(Note(line, column, "executable comment not closed: the server skips it (it does not "
                                       f"run on the target) and the rest of the {self.session.part} with it",
                                       end_line=self.cur_line))
        elif self.in_stmt and self.exec.version is not None and self.mode in (CODE, CLIENTDROP):
            if self.mode == CLIENTDROP:
                self.draft.add(blanked(buf[self.seg_start :]))
                self.seg_start = len(buf)
            self.refused = self.refused or _UNCLOSED_EXEC.format(part=self.session.part)
        elif self.mode == BLOCK_COMMENT and self.in_stmt and self.client and not self.draft.over:
            # the client drops a comment left open (checked on MariaDB 10.11): what is before it is sent
            line, column = self.open_at
            self.output.flush_pending()
            self.output.notes.append(Note(line, column, f"comment (/*) not closed: the rest of the {self.session.part} is inside it; the "
                                   "mysql client drops it and sends the statement before it", "parse-error", "warning",
                                   max(line, self._line_at(len(buf)))))
            cut = self.block_off
        elif self.mode != CODE and self.in_stmt:
            what = {SQUOTE: "string (')", DQUOTE: 'string (")', BTICK: "quoted identifier (`)",
                    BLOCK_COMMENT: "comment (/*)", LINE: "", CLIENTDROP: "comment (/*)", PARAMS: ""}[self.mode]
            if what:
                line, column = self.open_at
                self.output.flush_pending()
                blank = len(buf) - len(buf.rstrip(WS))
                end_line = self._line_at(len(buf)) - buf.count("\n", len(buf) - blank)
                self.output.notes.append(Note(line, column, f"{what} not closed: the rest of the {self.session.part} is inside it, and the "
                                       "server rejects the statement it is in", end_line=max(line, end_line)))
        if self.in_stmt:
            # an annotated block or a Segment sent whole: the server takes a last `;` as the end of the statement
            self._end_stmt(len(buf), cut=cut, strip_semicolon=self.session.block and not self.session.packet)
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
        delimiter = "" if self.session.block else self.session.delimiter
        key = (delimiter, self.exec.reads_otherwise, self.client, self.session.quoting,
               self.session.packet)
        match = run_cache.get(key)
        if match is None:
            match = run_cache[key] = run_pattern(*key)
        self.run_match = match
        self.quote_body = BODIES[self.session.quoting]
        self.gap_stops = "dD-#/*" + delimiter[:1] + ("\\" if self.client else "")
        self.fast_ok = (self.fast_lane and not self.markers and delimiter == ";" and not self.exec.reads_otherwise
                        and not self.session.quoting)

    def _skip_exec(self, start: int, marker_end: int, version: str) -> None:
        """An executable comment that does not run on the target, opened at buffer index
        `start`: the server skips it as a comment, one comment nested in it included (MySQL reads
        a MariaDB `/*M!` one as an ordinary comment). Inside a statement its text becomes blanks
        (line breaks kept), so the statement's positions stay right."""
        self.mode = SKIPEXEC
        self.pos = marker_end
        self.skip.start(version, self.target is not None and not self.target.is_mariadb, self._where(start))

    # --- between statements -------------------------------------------------------------------
    # Between statements: whitespace, comments and the directives in them, migration annotations,
    # empty statements, mysqldump's one-line executable comments, and the start of the next
    # statement (`_gap`).

    def _gap(self) -> bool:
        """Skip whitespace, comments, executable-comment markers and empty statements; read the statements after."""
        buf = self.buf
        n = len(buf)
        output, leading = self.output, self.leading
        while True:
            if self.fast_ok and output.pending is None and self.refused is None and not (
                    output.rejecting or output.packet_open or (self.client_text and self.client)):
                # (not in a packet still open: `\d ;` inside one, fuzz seeds 377, 396; nor where the
                # client holds an executable comment: a `---` line after it is sent, not a comment)
                took = self.lane.read(buf, self.pos, (self.cnt_pos, self.cur_line, self.line_start),
                                      leading.waiting, leading.hold, output.out, self.session.follow_set,
                                      leading.directive_lines)
                if took is not None:
                    self.pos, self.cnt_pos, self.cur_line, self.line_start, skipped = took
                    self.skipped += skipped
                    leading.clear()
                    self.client_text = False  # (what the client held went with it: fuzz seed 401)
                    self.at_line_start = True
            pos = self.pos
            e = run_end(WS_RUN, buf, pos)
            if e > pos:
                if buf.find("\n", pos, e) >= 0:
                    self.at_line_start = True
                    if output.pending is not None:
                        output.flush_pending()
                        if self.fast_ok:
                            self.pos = e
                            continue  # back to the fast lane
                self.pos = e
            if e >= n:
                return False
            if buf[e] in self.gap_stops:
                step = self._gap_special(e)
                if step == GAP_NEXT:
                    continue
                if step != GAP_STATEMENT:
                    return step == GAP_MODE
            # the first character of a statement, unless a client command by name fills the line
            if (self.client and self.at_line_start and buf[e] in COMMAND_INITIALS and not output.packet_open
                    and not self.client_text):
                found = self._try_command(e)
                if found is UNDECIDED:
                    return False
                if found:
                    if self.session.stopped:
                        return False
                    continue
            if output.pending is not None:
                output.flush_pending()
            cp = self.cnt_pos  # inline `_line_at(e)`: this runs once per statement
            k = buf.count("\n", cp, e)
            if k:
                self.cur_line += k
                self.line_start = buf.rfind("\n", cp, e) + 1
            self.cnt_pos = e
            self.stmt_line = self.cur_line
            self.stmt_col = e - self.line_start + 1
            if output.empty_at is not None:
                output.text_follows()
            self.in_stmt = True
            self.client_text = False  # (what it held goes with this statement)
            self.at_line_start = False
            self.seg_start = self.pos = e
            self.stmt_comments = leading.take()
            self.stmt_exec = (self.exec.serial, self.exec.version) if self.exec.version is not None else None
            self.compound = None
            if not self._code():
                return False
            if self.in_stmt or self.mode != CODE or self.session.stopped:
                return True

    def _gap_special(self, e: int) -> int:
        """Deal with a character between statements that may not start one (see `gap_stops`).

        Returns GAP_NEXT (dealt with, go on), GAP_STATEMENT (it starts a statement after all),
        GAP_MODE (a comment goes on past the buffer) or GAP_MORE (more text is needed to tell).
        """
        buf, eof = self.buf, self.eof
        n = len(buf)
        c = buf[e]
        fast = not self.markers
        if c in "dD" and self.at_line_start and not self.session.block and (n - e < 10 or buf[e + 1] in "eE") and not (
                self.mariadb_client and (self.output.packet_open or self.client_text)):
            found = self._try_delimiter(e)
            if found is UNDECIDED:
                return GAP_MORE
            if found:  # (the rest of a line longer than is read: its parameters, `_params`)
                return GAP_NEXT if self.mode == CODE else GAP_MODE
        delimiter = "" if self.session.block else self.session.delimiter
        if c == delimiter[:1]:
            if buf.startswith(delimiter, e):  # an empty statement
                self.pos = e + len(delimiter)
                self.at_line_start = False
                self.output.packet_open = self.output.rejecting = self.client_text = False
                self.refused = None  # (a comment sent alone: refused, and nothing with it)
                return GAP_NEXT
            if not eof and n - e < len(delimiter) and delimiter.startswith(buf[e:]):
                return GAP_MORE
        if c == "-" or c == "#":
            # where the client holds nothing of a statement, `--` is a comment whatever follows
            empty = self.client and not (self.output.packet_open or self.client_text) and self.exec.version is None
            if fast and self.output.pending is None:
                m = (client_comment_run if empty else held_comment_run if self.client else comment_run)(buf, e)
                if m is not None:
                    self.pos = m.end()
                    self.at_line_start = True
                    if self.unless and buf.find(self.unless, e, m.end()) >= 0:
                        self.leading.directive_lines(self._where(e)[0], buf[e : m.end()])
                    for text in comment_texts(buf, e, m.end()):
                        text = comment_text(text)
                        if text:
                            self.leading.add(text)
                    return GAP_NEXT
            if c == "#":
                return GAP_MODE if self._gap_line_comment(e, e + 1, dash=False) else GAP_NEXT
            if n - e < 3 and not eof:
                return GAP_MORE
            if buf.startswith("-", e + 1) and (e + 2 >= n or empty or buf[e + 2] in self.dash_follow):
                return GAP_MODE if self._gap_line_comment(e, e + 2, dash=True) else GAP_NEXT
        elif c == "/":
            if n - e < SLASH_LOOKAHEAD and not eof:
                return GAP_MORE
            if buf.startswith("*", e + 1):
                self.at_line_start = False
                if fast and self.exec.version is None and delimiter == ";" and not self.output.packet_open:  # (seed 404)
                    m = exec_line(buf, e)
                    if m is not None and self._exec_line_stmt(m):
                        return GAP_NEXT
                m = exec_open(buf, e)
                if m is not None:
                    self.client_text = True
                    if self.output.empty_at is not None:
                        self.output.text_follows()
                    end, version, runs = self.versions.marker(m)
                    if runs:
                        self.exec.open(version, self._where(e)[0], nests=False)
                        self._set_matchers()
                        self.pos = end
                        return GAP_NEXT
                    self._skip_exec(e, end, version)
                    return GAP_MODE
                self._start_comment(e + 2, BLOCK_COMMENT, collect=True, dash=False)
                self.comment.line = self._line_at(e)
                self.comment.column = e - self.line_start + 1
                return GAP_MODE
        elif c == "\\" and self.client:
            found = self._backslash(e)
            self.at_line_start = False
            return {CMD_TEXT: GAP_STATEMENT, CMD_MORE: GAP_MORE, CMD_DONE: GAP_NEXT}.get(found, GAP_MODE)
        elif c == "*" and self.exec.version is not None:
            if n - e < 2 and not eof:
                return GAP_MORE
            if buf.startswith("/", e + 1):
                self.exec.version = None
                self._set_matchers()
                self.pos = e + 2
                self.at_line_start = False
                return GAP_NEXT
        return GAP_STATEMENT

    def _exec_line_stmt(self, m: re.Match[str]) -> bool:
        """Take a one-line `/*!40101 SET ... */;` found by the fast path; False if it holds no statement."""
        bang, digits, body = m.groups()
        text = body.strip(WS)
        if not text or len(text) > self.max_statement or not self.versions.plain(bang + digits):
            return False
        start = m.start(3) + body.index(text[0])
        line = self._line_at(start)
        if text[:3] in SET_WORDS:
            self.session.follow_set(text, line, start - self.line_start + 1)
        self.exec.serial += 1
        # a statement before it on the same line waits for a trailing comment: it is complete
        self.output.flush_pending()
        executable = digits if bang == "!" else bang + digits
        self.output.wait((text, line, start - self.line_start + 1, line, self.leading.take(), executable, 0), line)
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
            self._start_comment(text_start, LINE, collect=True, dash=dash)
            self.comment.line = self._line_at(start)
            return True
        if end < 0:
            end = len(buf)
        raw = buf[text_start : min(end, text_start + COMMENT_CHARS)]
        directive = bool(self.unless) and self.unless in raw
        if self.output.pending is not None or directive:
            self.comment.line = self._line_at(start)
        if directive:
            self.leading.directive_lines(self.comment.line, raw)
        self.pos = end
        self.comment.dash = dash
        self._comment_done(comment_text(raw))
        return False

    def _start_comment(self, text_start: int, mode: int, *, collect: bool, dash: bool) -> None:
        self.mode = mode
        self.pos = text_start
        self.comment.open(text_start, wanted=collect, dash=dash)

    def _comment_done(self, text: str) -> None:
        """File a finished comment: a migration annotation, a trailing comment, or a leading one."""
        if self.markers and self.comment.dash:
            marker = self.markers(text)
            if marker is not None:
                self._apply_marker(marker)
                return
        if self.in_stmt or not text:
            return  # inside a statement a comment is part of its text
        if self.output.trailing(self.comment.line, text):
            return
        self.output.flush_pending()
        self.leading.add(text)

    def _apply_marker(self, marker: str) -> None:
        """Obey a format's annotation (`Format.section`); a statement still open ends where the annotation starts."""
        if self.in_stmt:
            self._end_stmt(self.pos, cut=self.cm_off, strip_semicolon=marker == "end")
        if marker in ("up", "down"):
            self.leading.clear()
        self.session.section(marker)

    # --- inside a statement -------------------------------------------------------------------
    # Inside a statement: its text up to its delimiter (`_code`), a compound statement's structure,
    # its comments, and its end (`_end_stmt`), a block's statements (`linter.input.splitter.blocks`)
    # or a statement over the cap (`_end_oversize`).

    def _code(self) -> bool:
        """Read statement text up to its delimiter, or until the mode changes or the buffer ends."""
        buf, eof = self.buf, self.eof
        n = len(buf)
        pos = self.pos
        run_match = self.run_match
        delimiter = "" if self.session.block else self.session.delimiter
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
                    if self.exec.version is not None:  # the client looks for its delimiter in executable comments too
                        self.exec.cut_by_client(True)  # for the server, what follows is outside the comment
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
            if c == ";" and (self.session.packet or delimiter and delimiter != ";"):  # not the delimiter: see `linter.input.splitter.compound`
                compound = self.compound
                if compound is None:
                    prefix = self.draft.prefix(buf, self.seg_start, p)
                    head = compound_head(prefix)
                    if head is None:
                        if self.client and not self.output.packet_open and prefix[:3].lower() == "use":
                            alone = self._use_alone(prefix, p)
                            if alone is UNDECIDED:
                                self.pos = p
                                return False
                            if alone:
                                return True
                        self._end_stmt(p, delimiter_end=p + 1, semicolon=True)
                        self.output.packet_open = True
                        return True
                    compound = self.compound = head if isinstance(head, Invalid) else Structure(head, self.session.quoting)
                    self.fed = 0
                if isinstance(compound, Structure) and not self.draft.over:
                    text = self.draft.text_from(self.fed, buf, self.seg_start, p)
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
                self.mode = QUOTE_MODES[c]  # goes on in the next chunk
                self.open_at = self._where(p)
                self.pos = n if eof else e
                return False
            if c == "`":
                q = buf.find("`", p + 1)
                if q >= 0:
                    pos = q + 1
                    continue
                self.mode = BTICK
                self.open_at = self._where(p)
                self.pos = n
                return False
            if c == "-":
                if n - p < 3 and not eof:
                    self.pos = p
                    return False
                if buf.startswith("-", p + 1) and (p + 2 >= n or buf[p + 2] in self.dash_follow):
                    self._stmt_comment(p, p + 2, LINE, dash=True)
                    return True
                pos = p + 1
            elif c == "#":
                self._stmt_comment(p, p + 1, LINE, dash=False)
                return True
            elif c == "/":
                if n - p < SLASH_LOOKAHEAD and not eof:
                    self.pos = p
                    return False
                if buf.startswith("*", p + 1):
                    em = exec_open(buf, p)
                    if em is None:
                        if (self.exec.version is not None and not self.exec.version.startswith("M!")
                                and self._where(p)[0] == self.exec.line):
                            self.draft.add(buf[self.seg_start : p])
                            self.seg_start = p
                            self._client_drop_from(p, CODE)
                            return True
                        self._stmt_comment(p, p + 2, BLOCK_COMMENT, dash=False)  # (an ordinary one nests)
                        return True
                    marker_end, version, runs = self.versions.marker(em)
                    self.draft.add(buf[self.seg_start : p])
                    if not runs:  # its text becomes blanks (see `_skip_exec`)
                        self.seg_start = p
                        self._skip_exec(p, marker_end, version)
                        return True
                    # unwrap in place: the marker becomes as many spaces, so columns stay right
                    self.draft.add(" " * (marker_end - p))
                    self.exec.open(version, self._where(p)[0], nests=True)  # (one in an open one ends it too)
                    self._set_matchers()
                    pos = self.seg_start = marker_end
                    run_match = self.run_match
                    continue
                pos = p + 1
            elif c == "*":
                if n - p < (2 if d0 != "/" else 1 + len(delimiter)) and not eof:
                    self.pos = p
                    return False
                if buf.startswith("/", p + 1) and (self.exec.cut or self.exec.stray) and self.exec.version is None:
                    self._stray_close(_STRAY_CLOSE if self.exec.cut else _NESTED_CLOSE)
                    pos = p + 1 if d0 == "/" and buf.startswith(delimiter, p + 1) else p + 2  # (`*///`: at `/`)
                    run_match = self.run_match
                    continue
                if buf.startswith("/", p + 1) and self.exec.version is not None:
                    if d0 == "/" and buf.startswith(delimiter, p + 1):
                        # the client: `*` closes the comment and its `/` begins the delimiter
                        self.exec.version = None
                        self._set_matchers()
                        self._cut_in_exec(p + 1, p + 1 + len(delimiter), _CUT_AT_CLOSE.format(delimiter=delimiter))
                        return True
                    self.draft.add(buf[self.seg_start : p])
                    if self.stmt_exec is not None and self.stmt_exec[0] == self.exec.serial:
                        self.exec_close_off = self.draft.length
                    self.draft.add("  ")
                    self.exec.close()
                    pos = self.seg_start = p + 2
                    self._set_matchers()
                    run_match = self.run_match
                    continue
                pos = p + 1
            elif c == "\\" and self.client:
                found = self._backslash(p)
                if found == CMD_TEXT:
                    pos = p + 2  # `\N`, or a command the client does not know: text
                elif found == CMD_MORE:
                    self.pos = p
                    return False
                elif found == CMD_DONE and self.in_stmt:
                    pos = self.pos
                else:
                    return True
            elif c == "\n":
                self.pos = p
                found = self._try_delimiter(p + 1)
                if found is UNDECIDED:
                    return False
                if found:
                    return True
                pos = p + 1
            else:
                pos = p + 1

    def _stmt_comment(self, start: int, text_start: int, mode: int, *, dash: bool) -> None:
        """A comment inside a statement stays in its text; only a `--` one may be an annotation to read."""
        collect = bool(self.markers) and dash
        if collect:
            self.cm_off = self.draft.length + (start - self.seg_start)
        if mode == BLOCK_COMMENT:
            self.open_at = self._where(start)
            self.block_off = self.draft.length + (start - self.seg_start)
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
        text, if given), and hand it to the client (`ClientSession.statement`); `semicolon`: at a `;` in
        a packet."""
        self.output.ended_notes = len(self.output.notes)
        if not self.draft.fits(end - self.seg_start):
            self._end_oversize(end, delimiter_end)
            return
        raw = self.draft.join(self.buf[self.seg_start : end])
        self.in_stmt = False
        if delimiter_end is not None:
            self.pos = delimiter_end
        if cut is not None:
            raw = raw[:cut]
        executable, close, compound, refused = self.stmt_exec, self.exec_close_off, self.compound, self.refused
        self.stmt_exec = self.exec_close_off = self.compound = self.refused = None
        self.session.statement(
            raw, self.stmt_line, self.stmt_col, self.stmt_comments, executable=executable, close=close,
            compound=compound, fed=self.fed, refused=refused, at_delimiter=delimiter_end is not None,
            strip_semicolon=strip_semicolon, semicolon=semicolon,
            delimiter_next=self.buf.startswith(self.session.delimiter, end), more=end < len(self.buf),
        )

    def _end_oversize(self, end: int, delimiter_end: int | None) -> None:
        """Close a statement longer than `max_statement`, of which only the start was kept: counted
        if the caller skips its first word, else reported with its size (see `MAX_STATEMENT_CHARS`)."""
        tail = self.buf[self.seg_start : end]
        self.draft.add(tail)
        size, lines, head = self.draft.take_over()
        self.in_stmt = False
        self.stmt_exec = self.exec_close_off = None
        self.refused = None
        if delimiter_end is not None:
            self.pos = delimiter_end
        if self.session.down:
            return
        blank = tail[len(tail.rstrip(WS)):] if tail.strip(WS) else ""
        end_line = self.stmt_line + lines - blank.count("\n")
        word = FIRST_WORD(head)
        if self.skip_words is not None and word is not None and word.group().upper() in self.skip_words:
            self.skipped += 1  # a dump's INSERT: nothing to read in it, counted as read
            return
        self.output.flush_pending()
        self.output.notes.append(Note(
            self.stmt_line, self.stmt_col,
            f"statement of {size:,} characters is longer than the {self.max_statement:,} characters innolint reads of "
            "one statement: not parsed", "parse-error", "warning", end_line, excerpt(head),
        ))

    # --- in quotes and comments ---------------------------------------------------------------
    # Quoted strings and identifiers, comments, and executable comments that do not run on the
    # target, read across chunk boundaries.

    def _quote(self) -> bool:
        quote = MODE_QUOTES[self.mode]
        buf = self.buf
        n = len(buf)
        m = self.quote_body[quote].match(buf, self.pos)
        e = m.end() if m is not None else self.pos
        if e < n and buf[e] == quote:
            self.pos = e + 1
            self.mode = CODE
            return True
        self.pos = n if self.eof else e  # e is the end, or a last backslash whose escapee is to come
        return False

    def _backtick(self) -> bool:
        q = self.buf.find("`", self.pos)
        if q < 0:
            self.pos = len(self.buf)
            return False
        self.pos = q + 1
        self.mode = CODE
        return True

    def _skip_exec_text(self) -> bool:
        """Read on in an executable comment that does not run (see `_skip_exec`), as `Skipped.read`
        says the client reads it: up to its end, or to the client's delimiter in it (such a
        statement is refused: `_cut_in_skipped`), or to a plain comment the client drops."""
        skip = self.skip
        delimiter = "" if self.session.block else self.session.delimiter
        pos, met = skip.read(self.buf, self.pos, self.eof, delimiter, self.dash_follow, self.quote_body, self._where)
        if skip.parted:
            self.refused = self.refused or _QUOTED_COMMENT_MARK
        if met == MORE:
            self.pos = pos
            return False
        if met == DROP:
            self.pos = pos
            self._client_drop_from(pos, SKIPEXEC)
        elif met == CUT_INSIDE:
            self._cut_in_skipped(pos, pos + len(self.session.delimiter), inside=True)
        elif met == CUT_AT_CLOSE:
            self._cut_in_skipped(pos, pos + len(self.session.delimiter), inside=False)
        else:  # CLOSED
            if self.in_stmt:
                self.draft.add(blanked(self.buf[self.seg_start : pos]))
                self.seg_start = pos
            self.pos = pos
            self.mode = CODE
            self.at_line_start = False
            self.exec.line = -1  # its `*/` ends the client's executable comment, an outer one too
        return True

    def _cut_in_exec(self, end: int, delimiter_end: int, reason: str) -> None:
        """The client found its delimiter in an executable comment (at buffer index `end`): the
        statement it sends ends inside the comment, which the server refuses (`reason`)."""
        self.refused = self.refused or reason
        self._end_stmt(end, delimiter_end=delimiter_end, strip_semicolon=self.session.delimiter != ";")
        self.output.packet_open = self.output.rejecting = False

    def _cut_in_skipped(self, end: int, delimiter_end: int, *, inside: bool) -> None:
        """The client's delimiter at buffer index `end` in a skipped executable comment (`inside`
        it, else at the `/` of its `*/`): the statement it ends is refused by the server, the
        comment unclosed (between statements the comment alone is sent and refused: nothing runs
        either way). What follows is outside the comment for the server: a `*/` in it is text,
        which the parser refuses with that statement."""
        self.mode = CODE
        if self.in_stmt:
            self.draft.add(blanked(self.buf[self.seg_start : end]))
            self.seg_start = end
            self._cut_in_exec(end, delimiter_end, (_CUT_IN_EXEC if inside else _CUT_AT_CLOSE).format(
                delimiter=self.session.delimiter))
        else:
            self.pos = delimiter_end
            self.output.packet_open = self.output.rejecting = False
        self.at_line_start = False
        self.exec.cut_by_client(inside)  # what follows the cut is outside the comment for the server, its `*/` text
        self._set_matchers()

    def _client_drop_from(self, start: int, back: int) -> None:
        """A plain comment opened at buffer index `start`, on the line of an open `/*!` comment:
        the client drops it up to its second `*/` (the first one ends the executable comment for
        it, on that line only; see `_client_drop`), then reads on in mode `back`."""
        self.mode = CLIENTDROP
        self.drop.start(back)
        self.open_at = self._where(start)
        self.pos = start + 2

    def _client_drop(self) -> bool:
        """Read on in text the client drops (`ClientDrop`). Nothing of it is sent: inside a
        statement it becomes blanks, and the executable comment it was in is still open for the
        server."""
        pos, ended = self.drop.read(self.buf, self.pos, self.eof)
        if ended and self.in_stmt:
            self.draft.add(blanked(self.buf[self.seg_start : pos]))
            self.seg_start = pos
        self.pos = pos
        if ended:
            self.mode = self.drop.back
        return ended

    def _stray_close(self, why: str) -> None:
        """A `*/` outside any comment: the end of an executable comment the client cut at its
        delimiter, or one a nested executable comment ended; the server refuses the statement."""
        self.refused = self.refused or why
        self.exec.stray_closed()
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
        comment = self.comment
        while True:
            e = buf.find("*/", pos)
            end = e if e >= 0 else n
            if self.client:
                newline = buf.rfind("\n", pos, end)
                if newline >= 0:
                    comment.bang = False
                if not comment.bang and buf.find("/*!", max(pos, newline + 1), end) >= 0:
                    comment.bang = True
            if e < 0:
                # keep a last `*`, or `/*` of a `/*!`: the rest may come with the next chunk
                self.pos = n if self.eof else max(pos, n - 2)
                if comment.blank and self.in_stmt and self.pos > self.seg_start:
                    self.draft.add(blanked(buf[self.seg_start : self.pos]))
                    self.seg_start = self.pos
                return False
            if not comment.bang:
                break
            comment.bang = False  # (this `*/` ends the client's mark)
            if self.in_stmt and not comment.blank:
                self.draft.add(buf[self.seg_start : e + 2])
                self.seg_start = e + 2
            comment.blank = True
            pos = e + 2
        if comment.blank and self.in_stmt:
            self.draft.add(blanked(buf[self.seg_start : e + 2]))
            self.seg_start = e + 2
        comment.blank = False
        self.mode = CODE
        self.pos = e + 2
        self._collected(e)
        return True

    def _collected(self, e: int) -> None:
        """The comment being read ends at `e`: its text, when collected, goes to the notes."""
        if self.comment.wanted:
            text = self.comment.text(self.buf, e)
            if self.unless and not self.in_stmt and self.unless in text:
                self.leading.directive_lines(self.comment.line, text)
            self._comment_done(comment_text(text))

    def _line_comment(self) -> bool:
        buf = self.buf
        e = buf.find("\n", self.pos)
        if e < 0:
            if not self.eof:
                self.pos = len(buf)
                return False
            e = len(buf)
        self.mode = CODE
        self.pos = e
        self._collected(e)
        return True

    # --- the client's commands ----------------------------------------------------------------
    # The client's commands met while scanning: DELIMITER lines, backslash commands, named commands
    # alone on a line, and their parameters.

    def _try_delimiter(self, start: int) -> bool | None:
        """Follow a `DELIMITER xx` client command on the line starting at `start`, if there is one
        (`delimiter_line`). Returns True when the line was a command (consumed up to its newline),
        False when it is not, `UNDECIDED` when more text is needed to tell. The rest of the line
        is ignored. While a statement is being typed (or, under a delimiter other than `;`, a
        packet of them is not sent yet), the mysql client ends it there, while the mariadb client
        sends the line to the server as part of it (checked on MariaDB 10.11): a MariaDB target
        follows the mariadb client, any other the mysql client, saying so where the two differ.
        """
        open_statement = self.in_stmt or self.output.packet_open or self.client_text
        found = delimiter_line(self.buf, start, self.eof, not (open_statement and self.mariadb_client))
        if found is UNDECIDED or found is False:
            return found
        if found.argument is None:  # type: ignore[union-attr]
            return False  # the client rejects a bare DELIMITER; leave it to the parser to report
        q, end, argument, rest = found  # type: ignore[misc]
        line, column = self._where(q)
        if self.in_stmt:
            self._end_stmt(start)
        self.session.set_delimiter(argument, line, column, open_statement)
        self.output.packet_open = self.output.rejecting = self.client_text = False
        self.at_line_start = False
        self.pos = end
        if rest:  # a line longer than is looked at: the rest is ignored
            self.mode = PARAMS
            self.params_until = ""
        return True

    def _try_command(self, start: int) -> bool | None:
        """Run a client command written by its name alone on the line starting at buffer index
        `start`, where no statement text is typed yet (`named_command`): True when it was one (the
        line is consumed, its newline left), False when it is not, `UNDECIDED` when more text is
        needed."""
        found = named_command(self.buf, start, self.eof, self.session.delimiter)
        if found is UNDECIDED or found is False:
            return found
        self.output.flush_pending()
        self.pos = found.end  # type: ignore[union-attr]
        self.at_line_start = False
        self.session.run_command(found.letter, found.argument, found.name, *self._where(start))  # type: ignore[union-attr]
        return True

    def _backslash(self, p: int) -> int:
        """A backslash outside quotes and comments at buffer index `p`: a client command or text
        (`backslash_command`). Returns `CMD_TEXT` (text: `\\N`, or a letter the client does not
        know, which it keeps too), `CMD_MORE` (more text is needed), `CMD_DONE` (done: reading goes
        on at `pos`; a statement still open has lost the command from its text) or `CMD_MODE` (the
        scanner is in another mode: the command's parameters, or stopped)."""
        found = backslash_command(self.buf, p, self.eof)
        if found is UNDECIDED:
            return CMD_MORE
        if found == BACKSLASH_TEXT:
            return CMD_TEXT
        if found == BACKSLASH_EOL:
            self._cut(p, p + 1)  # a backslash that ends a line: the client drops it
            return CMD_DONE
        c, argument, name, end = found  # type: ignore[misc]
        if c in "gGq":
            if self.in_stmt:
                self._end_stmt(p, delimiter_end=end)  # sent as it is
            self.pos = end
            self.output.packet_open = self.output.rejecting = self.client_text = False
            self.refused = None  # (what was sent alone took its refusal with it)
            if c == "q":
                self.session.run_command("q", None, name, *self._where(p))
                return CMD_MODE
            return CMD_DONE
        if c == "c":
            if self.in_stmt:
                self._drop_stmt()
            if self.output.packet_open:
                self.session.clear(*self._where(p))
            self.pos = end
            self.output.packet_open = self.output.rejecting = self.client_text = False
            self.refused = None
            return CMD_DONE
        if not COMMAND_LETTERS[c]:
            self._cut(p, end)
            return CMD_DONE
        if self.in_stmt:
            self.draft.add(self.buf[self.seg_start : p])
        self.session.run_command(c, argument, name, *self._where(p))
        # its parameters: the rest of the line up to the delimiter, consumed (in an executable
        # comment: up to its `*/`, left to close it)
        self.mode = PARAMS
        self.pos = end
        in_exec = self.exec.version is not None
        self.params_until = "*/" if in_exec else "" if self.session.block else self.session.delimiter
        self.params_consume = not in_exec
        if self.in_stmt:
            self.seg_start = self.pos
        return CMD_MODE

    def _use_alone(self, prefix: str, semi: int) -> bool | None:
        """`use db;` then the delimiter (another than `;`): sent alone, the client runs it as its
        `use` command (`_use_at_delimiter`). True when it was so (read up to the delimiter's end),
        False when not, `UNDECIDED` when more text is needed (blanks after the `;` are looked at
        up to `USE_LOOKAHEAD` characters)."""
        buf, n, delimiter = self.buf, len(self.buf), self.session.delimiter
        limit = min(n, semi + 1 + USE_LOOKAHEAD)
        after = WS_RUN.match(buf, semi + 1, limit).end()  # type: ignore[union-attr]
        if not self.eof and (after == n or after + len(delimiter) > n and delimiter.startswith(buf[after:])):
            return UNDECIDED  # type: ignore[return-value]
        if not buf.startswith(delimiter, after) or len(prefix) >= COMPOUND_PREFIX:
            return False
        argument = use_at_delimiter(prefix + ";", self.session.delimiter)
        if argument is None:
            return False
        where = (self.stmt_line, self.stmt_col)
        self._drop_stmt()
        self.session.run_command("u", argument, "use", *where)
        self.pos = after + len(delimiter)
        self.output.packet_open = self.output.rejecting = False
        return True

    def _params(self) -> bool:
        """Read on in a client command's parameters (see `_backslash`)."""
        buf = self.buf
        n = len(buf)
        pos = self.pos
        newline = buf.find("\n", pos)
        limit = newline if newline >= 0 else n
        until = self.params_until
        found = buf.find(until, pos, limit) if until else -1
        if found >= 0:
            end = found + len(until) if self.params_consume else found
        elif newline >= 0 or self.eof:
            end = limit
        else:  # keep what may be the start of `until` for the next chunk
            self.pos = max(pos, n - len(until) + 1) if until else n
            if self.in_stmt:
                self.seg_start = self.pos
            return False
        self.pos = end
        self.mode = CODE
        if self.in_stmt:
            self.seg_start = end
        return True

    def _cut(self, start: int, end: int) -> None:
        """Leave `buf[start:end]` (a client command) out of the statement being read, if any."""
        if self.in_stmt:
            self.draft.add(self.buf[self.seg_start : start])
            self.seg_start = end
        self.pos = end

    def _drop_stmt(self) -> None:
        """`\\c`: the statement typed so far is thrown away."""
        self.in_stmt = False
        self.draft.clear()
        self.stmt_exec = self.exec_close_off = None
        self.compound = None
        self.refused = None
