"""Split SQL text into statements, with positions. No sqlglot here.

The splitter follows the `mysql` command-line client, because that is what turns a schema file
into the statements a server receives: quotes ('...', "...", `...`) and comments (`-- `, `#`,
`/* */`) hide delimiters; executable comments (`/*!50100 ... */`, MariaDB `/*M!100301 ... */`)
are SQL and do not; `DELIMITER xx` at the start of a line changes the delimiter for the rest of
the file (it is a client command, never a statement). Under a delimiter other than `;` the
client sends everything up to it as one multi-statement and the server runs each `;`-separated
statement in turn, so a `;` still ends a statement there, except in a statement that carries a
stored-program body (CREATE PROCEDURE/FUNCTION/TRIGGER/EVENT, BEGIN ...): that is how a file
whose `DELIMITER //` is never reset still yields its tables one by one.

It streams: text arrives in chunks of any size, a chunk boundary may fall anywhere, and only the
statement being read plus a small look-ahead tail is held, so a dump of any size splits in
bounded memory. It does not loop per character in Python: one compiled regex per state swallows
plain text and whole quoted strings and stops only where something can happen (the delimiter, a
comment opener, an unclosed quote, a line that may hold DELIMITER); between statements, runs of
`--` comment lines and mysqldump's one-line `/*!40101 SET ... */;` are each taken by one regex.
Lines are counted with `str.count` over spans when a position is needed, and statement text is
built from slices. What the fast lane read is remembered by its text: a schema-per-tenant dump
repeats every table's lines once per tenant, and a repeat is recognised with `str.startswith`
instead of being read again (see `_SPAN_KEY`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple


class Statement(NamedTuple):
    """One statement as the server would receive it, and where it stands in its file.

    Immutable. A named tuple rather than a frozen dataclass: a dump yields a million of these,
    and a frozen dataclass costs 1.7 us each to build against 0.2 us (see bench/README.md).
    """

    text: str  # executable comments unwrapped in place; no delimiter; starts at the first SQL token
    path: str
    line: int  # 1-based line of the first SQL token
    column: int  # 1-based column of the first SQL token
    end_line: int  # line of the statement's last character
    #: texts of the comments just before the statement and after it on its end line
    #: (`-- innolint: ...` directives live there), without the comment markers
    comments: tuple[str, ...] = ()
    #: the version of the executable comment that wrapped the whole statement ("50001", "M!100301"), if any
    executable: str | None = None


def split_stream(
    chunks: Iterable[str], path: str, *, migration_markers: bool = False,
    skip_words: frozenset[str] | None = None, skip_pattern: str = "", unless: str = "",
) -> StatementStream:
    """Yield the statements of the text made of `chunks`, each as soon as it is complete.

    `path` is only copied into each Statement. With `migration_markers`, goose (`-- +goose Up`,
    `Down`, `StatementBegin`, `StatementEnd`) and dbmate (`-- migrate:up`, `-- migrate:down`)
    annotations are obeyed: Down sections are skipped and a StatementBegin/StatementEnd block is
    one statement whatever it contains. Broken input (an unterminated quote or comment, NUL bytes,
    junk) never raises: what there is becomes a statement and the parser reports it.

    `skip_words`: upper-case first words of statements the caller will not look at (INSERT,
    SET, LOCK ...). Such statements may be counted in the stream's `skipped` instead of being
    built (a dump has hundreds of thousands), except one whose text or comments hold `unless`.
    `skip_pattern`: a regex matching the whole text of other one-line statements that may be
    counted the same way (mysqldump's `ALTER TABLE `t` DISABLE KEYS`); it must not match `;`,
    quotes, comments or a newline.
    """
    return StatementStream(_Splitter(path, migration_markers, skip_words, unless, skip_pattern), chunks)


class StatementStream(Iterator[Statement]):
    """The statements of one input, and how many were counted but not built (see `split_stream`)."""

    def __init__(self, splitter: _Splitter, chunks: Iterable[str]) -> None:
        self._splitter = splitter
        self._statements = splitter.run(chunks)

    def __iter__(self) -> Iterator[Statement]:
        return self._statements  # a `for` loop resumes the generator directly, not through __next__

    def __next__(self) -> Statement:
        return next(self._statements)

    @property
    def skipped(self) -> int:
        return self._splitter.skipped


# --- lexical pieces ---------------------------------------------------------------------------

#: the whitespace of MySQL's lexer; `\r` is plain whitespace and lines are counted on `\n` only
_WS = " \t\n\r\f\v"
_WS_RUN = re.compile(r"[ \t\n\r\f\v]*")
_HSPACE_RUN = re.compile(r"[ \t]*")


def _run_end(run: re.Pattern[str], buf: str, i: int) -> int:
    """Where a run of `run` (a pattern that matches the empty string too) starting at `i` ends."""
    m = run.match(buf, i)
    return m.end() if m is not None else i

#: complete quoted strings. A doubled quote inside ('it''s') reads as two adjacent strings, which
#: changes nothing for splitting, so only backslash escapes need care (not in backticks).
_SQ = r"'[^'\\]*(?:\\.[^'\\]*)*'"
_DQ = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_BQ = r"`[^`]*`"
_QUOTE_BODY = {
    "'": re.compile(r"[^'\\]*(?:\\.[^'\\]*)*", re.S),
    '"': re.compile(r'[^"\\]*(?:\\.[^"\\]*)*', re.S),
}

#: `/*!50100`, `/*!`, `/*M!100301`: the opening of an executable comment and its version
_exec_open = re.compile(r"/\*(M?!)([0-9]{0,6})").match
#: look-ahead needed to decide what `/` starts: `/*M!`, six version digits and one more
_SLASH_LOOKAHEAD = 12

#: after `--`, these make it a comment: MySQL's whitespace rule, plus a third dash (decoration
#: lines such as `-----------` are comments for every tool that runs such files; MySQL's client
#: would send all but the last two dashes as minus signs and fail)
_DASH_COMMENT_FOLLOW = frozenset(_WS + "-")

#: fast path between statements: a run of whole `--`/`#` comment lines (and the blank space after)
_comment_run = re.compile(r"(?:(?:--(?:[ \t\r\f\v\-][^\n]*)?|#[^\n]*)\n[ \t\n\r\f\v]*)+").match
_comment_texts = re.compile(r"(?:--|#)([^\n]*)").findall
#: fast path between statements: a one-line statement wholly inside an executable comment, ended
#: by `;` (mysqldump writes hundreds of thousands of `/*!40101 SET ... */;`)
_exec_line = re.compile(
    r"/\*(M?!)([0-9]{0,6})([^;'\"`#/*\-\n]*(?:`[^`\n]*`[^;'\"`#/*\-\n]*)*)\*/[ \t\r\f\v]*;"
).match

#: a statement that carries a stored-program body, whose `;` are its own. Under a DELIMITER other
#: than `;`, the mysql client sends everything up to the delimiter in one packet and the server
#: runs each `;`-separated statement of it in turn (a multi-statement), except inside such a body.
_SEP = r"(?:\s|/\*.*?\*/|(?:--|\#)[^\n]*\n)+"  # whitespace and comments between keywords
_DEFINER_PART = r"(?:`[^`]*`|'[^']*'|\"[^\"]*\"|[^\s@`'\"]+)"
_compound_start = re.compile(
    rf"""(?:CREATE|ALTER){_SEP}
        (?:OR{_SEP}REPLACE{_SEP})?
        (?:DEFINER\s*=\s*{_DEFINER_PART}(?:\s*@\s*{_DEFINER_PART})?{_SEP})?
        (?:SQL{_SEP}SECURITY{_SEP}\w+{_SEP})?
        (?:AGGREGATE{_SEP})?
        (?:PROCEDURE|FUNCTION|TRIGGER|EVENT|PACKAGE)\b
    | (?:\w+\s*:\s*)?(?:BEGIN|LOOP|REPEAT|WHILE)\b
    | (?:IF|CASE|DECLARE)\b""",
    re.I | re.S | re.X,
).match
#: how much of a statement's start the check above needs at most
_COMPOUND_PREFIX = 2000


#: The fast lane (see `_FastLane`): between statements, under the `;` delimiter, outside
#: executable comments and migration annotations, whole statements are taken one regex match each.
#: Inside a statement the loops are possessive (`*+`): what a loop took is never given back, as
#: nothing after it could match there, which saves the regex engine its backtracking records.
_FAST_SQ = r"'[^'\\]*+(?:\\.[^'\\]*+)*+'"
_FAST_DQ = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_FAST_TOKENS = rf"`[^`]*+`|{_FAST_SQ}|{_FAST_DQ}|-(?=[^-])|--(?=[^\- \t\n\r\f\v])|/(?=[^*])"
_FAST_EXEC = rf"/\*M?![0-9]{{0,6}}[^*;'\"`\-#/]*+(?:(?:{_FAST_TOKENS}|\*(?!/))[^*;'\"`\-#/]*+)*+\*/"
_FAST_WS = r"[ \t\n\r\f\v]*"
_FAST_COMMENTS = rf"(?:(?:--(?:[ \t\r\f\v\-][^\n]*)?|\#[^\n]*)\n{_FAST_WS})*"
#: a one-line statement in an executable comment: `/*!40101 SET ... */;`
_FAST_EXEC_LINE = r"[^;'\"`#/*\-\n]*(?:`[^`\n]*`[^;'\"`#/*\-\n]*)*"
_FAST_TAIL = r"[ \t\r\f\v]*\n"
#: a fast-lane statement's text (group `ex`: its last executable comment); also, up to a point,
#: whether that point is outside its quotes and comments (`_top_level`)
_FAST_BODY = rf"[^'\"`\-#/;]*+(?:(?:{_FAST_TOKENS}|(?P<ex>{_FAST_EXEC}))[^'\"`\-#/;]*+)*+"
_FAST_MAIN = (
    rf"{_FAST_WS}(?P<lead>{_FAST_COMMENTS})"
    r"(?:"
    r"(?P<x>/\*(?P<xv>M?![0-9]{0,6})"
    rf"[ \t\r\f\v]*(?P<xt>(?P<xw>[A-Za-z_]*){_FAST_EXEC_LINE})\*/[ \t\r\f\v]*;)"
    r"|(?P<s>(?![dD][eE][lL][iI][mM][iI][tT][eE][rR][ \t])(?=[^ \t\n\r\f\v\-#/*;])(?P<w>[A-Za-z_]*)"
    rf"{_FAST_BODY})(?P<semi>;)?"
    r")?"
    rf"(?P<nl>{_FAST_TAIL})?"
)

_top_level = re.compile(_FAST_BODY, re.S).fullmatch
#: the rest of a fast-lane statement from such a point: its `;` (group 2) and the end of its line;
#: group 1 is its last executable comment, if any
_tail = re.compile(rf"{_FAST_BODY}(;){_FAST_TAIL}", re.S).match

_GROUPS = ("run", "lead", "xv", "xt", "xw", "s", "w", "ex", "semi", "nl")
#: the comments before a statement, by the text they were read from (dumps repeat a few: "Table
#: structure for table `x`" once per schema)
_lead_notes: dict[str, tuple[str, ...]] = {}
#: the `executable` of a one-line executable comment, by its opening (`!40101` -> "40101")
_versions: dict[str, str] = {}

#: a run of skipped statements (`_FastLane`): comment lines without `;` (so that counting `;`
#: counts the statements), then one whole line holding one statement the caller skips. Possessive
#: quantifiers and one atomic group per line: no line is ever read twice (none of these parts can
#: start where the previous one could have stopped), which halves the time on a dump
_RUN_WS = r"[ \t\n\r\f\v]*+"
_RUN_COMMENTS = rf"(?:(?:--(?:[ \t\r\f\v\-][^;\n]*+)?|\#[^;\n]*+)\n{_RUN_WS})*+"
_RUN_BODY = r"[^;'\"`#/\-\n]*+(?:`[^`;\n]*+`[^;'\"`#/\-\n]*+)*+"
_RUN_EXEC_BODY = r"[^;'\"`#/*\-\n]*+(?:`[^`;\n]*+`[^;'\"`#/*\-\n]*+)*+"
_RUN_TAIL = r"[ \t\r\f\v]*+\n"


#: the statements a run may hold, by first word: the ones mysqldump writes on one line each, as
#: it writes them (upper case); any other skipped statement is taken alone, in any case
_RUN_WORDS = ("SET", "LOCK", "UNLOCK")


def _run_pattern_source(skip_words: frozenset[str], skip_pattern: str) -> str:
    """The `run` group: whole lines each holding one statement that is skipped, written plainly or
    in an executable comment, with the comment lines between them. Literal upper-case words,
    so that the regex engine rules out a statement by its first character."""
    words = "|".join(w for w in _RUN_WORDS if w in skip_words)
    plain = [rf"(?:{words})(?![A-Za-z_]){_RUN_BODY}"] if words else []
    inner = [rf"(?:{words})(?![A-Za-z_]){_RUN_EXEC_BODY}"] if words else []
    if skip_pattern:
        plain.append(rf"(?:{skip_pattern})[ \t\r\f\v]*+")
        inner.append(rf"(?:{skip_pattern})[ \t\r\f\v]*+")
    if not plain:
        return "(?P<run>)"
    item = rf"(?:{'|'.join(plain)}|/\*M?![0-9]{{0,6}}[ \t\r\f\v]*+(?:{'|'.join(inner)})\*/[ \t\r\f\v]*+);"
    return rf"(?P<run>(?>{_RUN_WS}{_RUN_COMMENTS}{item}{_RUN_TAIL})*)"


class _FastLane:
    """The fast lane's regex. `match`, from a position between statements: a run of whole lines
    each holding one statement the caller skips (group `run`, only with skip words; the caller
    counts its `;`), the whitespace and `--`/`#` comment lines before a statement (group `lead`),
    then either a one-line `/*!40101 SET ... */;` (`x`) or a plain statement up to its `;` (`s`),
    and the end of that line (`nl`). `plain` is the same without the run, for where a run would
    swallow a directive or a DELIMITER line. Everything after the run and the leading part is
    optional, so the match never fails; each loop is "unrolled" (runs of plain characters, then
    one special token) with tokens that differ by their first character, so nothing is ever tried
    twice. The caller sees which groups matched and hands anything else (a comment inside a
    statement, a DELIMITER line, a statement the buffer does not hold whole, a trailing comment,
    two statements on one line) to the general scanner, which agrees with this lane on every input
    (tests/test_split_lanes.py compares the two on the corpus and on generated text). Compiled on
    first use, once per set of skipped statements.
    """

    def __init__(self, skip_words: frozenset[str] | None, skip_pattern: str) -> None:
        run = _run_pattern_source(skip_words, skip_pattern) if skip_words else "(?P<run>)"
        self.plain = re.compile("(?P<run>)" + _FAST_MAIN, re.S).match
        pattern = re.compile(run + _FAST_MAIN, re.S)
        self.match = pattern.match
        self.groups = tuple(pattern.groupindex[name] for name in _GROUPS)


_lanes: dict[tuple[frozenset[str] | None, str], _FastLane] = {}

#: The fast lane's memory (`_Splitter.spans`). A schema-per-tenant dump repeats each table's
#: span (the SET and LOCK lines, the comments, DROP TABLE, CREATE TABLE ...) once per tenant, byte
#: for byte but for `AUTO_INCREMENT=` on a CREATE TABLE's last line. A regex match of the fast lane
#: depends on nothing but the characters it spans: it ends at a newline and looks no further, and
#: a span is remembered only when no DELIMITER line or directive starts inside it, so none starts
#: inside a repeat either. Where the text starts with a remembered span again, the match is that
#: span again: `str.startswith` (a memcmp) replaces the regex, and the statement's text, comments
#: and line numbers are reused. A statement of several lines is remembered up to its last line
#: (`head`) and the rest (`rest`) apart: if only the rest differs, the statement's text is the
#: remembered part plus the rest read by `_tail`, from a point checked once to be outside quotes
#: and comments (`_top_level`). Spans are found by their first `_SPAN_KEY` characters.
#:
#: An entry is a tuple: (head, rest, statements counted but not built, the statement's text (None:
#: it is counted too), its offset in the span, whether a run of skipped statements came before it
#: (then the comments waiting before the span were the run's, not its own), the comments that lead
#: it, its executable-comment version, newlines in its text, newlines in the span before it, its
#: column when one of those comes before it, newlines in the span, and for a cut: None until it is
#: checked, then False (inside a quote or comment) or the statement's text up to the cut and the
#: newlines in that (no cut: False)).
_SPAN_KEY = 256
#: no span longer than this is remembered, and the memory is emptied when it would hold more
_SPAN_MAX = 1 << 16
_SPAN_BUDGET = 1 << 23
#: how many spans in a row are remembered without one being met again, before only one in
#: `_SPAN_SAMPLE` is (a schema-per-tenant dump's tenant has a few hundred statements at most)
_SPAN_TRIES = 512
_SPAN_SAMPLE = 16


def _fast_lane(skip_words: frozenset[str] | None, skip_pattern: str) -> _FastLane:
    lane = _lanes.get((skip_words, skip_pattern))
    if lane is None:
        lane = _lanes[(skip_words, skip_pattern)] = _FastLane(skip_words, skip_pattern)
    return lane


#: a line of a statement skipped by its first word that starts a DDL statement: a `;` may have been
#: left out before it (the server then refuses both), so the statement is built for the parser to
#: say so (`linter.parse.glued_statement` decides, outside quotes and comments)
_ddl_line = re.compile(r"\n[ \t]*+(?:CREATE|ALTER|DROP|RENAME|TRUNCATE)(?![A-Za-z0-9_$])", re.I).search
#: a line that may be a DELIMITER command: the fast lane lets newlines through inside statements,
#: so it stops before the first of these (searched once per buffer, not once per statement)
_delimiter_line = re.compile(r"\n[ \t]*[dD][eE][lL][iI][mM][iI][tT][eE][rR][ \t]").search
#: in a fast-lane statement, whose every `/*` outside quotes opens an executable comment: one such
#: comment whole (group 1 its opening, group 2 its text), or a quoted string to step over
_EXEC_COMMENTS = re.compile(
    rf"(/\*M?![0-9]{{0,6}})((?:[^*'\"`]++|{_FAST_SQ}|{_FAST_DQ}|`[^`]*+`|\*(?!/))*+)\*/|{_FAST_SQ}|{_FAST_DQ}|`[^`]*+`",
    re.S,
).finditer


def _unwrapped(buf: str, start: int, semi: int, ex: int, ex_end: int) -> str:
    """The text of the fast-lane statement `buf[start:semi]` with its executable comments
    unwrapped in place (their markers become spaces); `buf[ex:ex_end]` is the last of them. When
    it is the only one (a dump's `/*!50100 TABLESPACE `t` */`), it is unwrapped by slicing."""
    if buf.count("/*", start, ex) == 0:
        opening = _exec_open(buf, ex).end()  # type: ignore[union-attr]
        closing = ex_end - 2
        return buf[start:ex] + " " * (opening - ex) + buf[opening:closing] + "  " + buf[ex_end:semi]
    out: list[str] = []
    seg = start
    for m in _EXEC_COMMENTS(buf, start, semi):
        opening = m.group(1)
        if opening is not None:
            out += (buf[seg : m.start()], " " * len(opening), m.group(2), "  ")
            seg = m.end()
    out.append(buf[seg:semi])
    return "".join(out)


#: modes of the scanner between chunks
_CODE, _SQUOTE, _DQUOTE, _BTICK, _BLOCK, _LINE = range(6)
_QUOTE_MODES = {"'": _SQUOTE, '"': _DQUOTE}
_MODE_QUOTES = {_SQUOTE: "'", _DQUOTE: '"'}

#: a DELIMITER check that cannot be decided before more text arrives
_UNDECIDED = None
#: what `_Splitter._gap_special` found
_GAP_NEXT, _GAP_STATEMENT, _GAP_MODE, _GAP_MORE = range(4)

_Matcher = Callable[[str, int], "re.Match[str] | None"]


def _run_pattern(delimiter: str, in_exec: bool) -> _Matcher:
    """The regex that consumes statement text that cannot end or change the statement.

    It swallows plain text and complete quoted strings in one C-level call and stops where
    Python must look: the delimiter's first character, a quote not closed in the buffer, a
    possible comment opener, `*/` inside an executable comment, or a line that may start with
    DELIMITER. Every look-ahead needs a real character, so the match also stops before anything
    whose meaning the next chunk could change. `delimiter` is "" inside a goose block (no
    delimiter, no DELIMITER command).
    """
    d0 = delimiter[:1]
    stops = set("'\"`-#/") | {d0} - {""}
    if delimiter:
        stops.add("\n")
        stops.add(";")  # ends a statement of a multi-statement (see `_compound_start`)
    if in_exec:
        stops.add("*")
    alts = ["[^" + "".join(re.escape(c) for c in sorted(stops)) + "]+"]
    alts += [q for q, qc in ((_BQ, "`"), (_SQ, "'"), (_DQ, '"')) if qc != d0]
    if delimiter:
        alts.append(r"\n(?=[ \t]*[^ \t\ndD])")
    if d0 != "-":
        alts += [r"-(?=[^-])", r"--(?=[^\- \t\n\r\f\v])"]
    if d0 != "/":
        alts.append(r"/(?=[^*])")
    if in_exec and d0 != "*":
        alts.append(r"\*(?=[^/])")
    return re.compile("(?:" + "|".join(alts) + ")*", re.S).match


_run_cache: dict[tuple[str, bool], _Matcher] = {}
#: builds a Statement from a tuple without the keyword-argument machinery of its constructor
_new_statement = tuple.__new__


def _marker(text: str) -> str | None:
    """The migration annotation a `--` comment holds: up, down, begin, end, ignore, or None."""
    words = " ".join(text.split()).lower()
    if words.startswith("+goose "):
        return {
            "up": "up",
            "down": "down",
            "statementbegin": "begin",
            "statementend": "end",
            "no transaction": "ignore",
            "envsub on": "ignore",
            "envsub off": "ignore",
        }.get(words[7:])
    for direction in ("up", "down"):
        tag = "migrate:" + direction
        if words == tag or words.startswith(tag + " "):  # dbmate allows options after the tag
            return direction
    return None


class _Splitter:
    """The state of one streaming split; `run` drives it chunk by chunk.

    Indexes into the working buffer `buf` are rebased each time a chunk is appended; everything
    before `pos` has been dealt with (statement text already consumed is kept in `pieces`).
    """

    #: whether the fast lane is used (tests turn it off to compare it with the general scanner)
    fast_lane = True
    #: whether the fast lane remembers what it read (see `_SPAN_KEY`; tests turn it off to compare)
    span_memory = True

    def __init__(
        self, path: str, migration_markers: bool, skip_words: frozenset[str] | None = None, unless: str = "",
        skip_pattern: str = "",
    ) -> None:
        self.path = path
        self.markers = migration_markers
        self.skip_words = skip_words
        self.skip_pattern = skip_pattern
        self.unless = unless
        self.skipped = 0  # statements counted but not built
        self.skip_known: dict[str, bool] = {}  # first words as written: whether they are in skip_words
        self.spans: dict[str, tuple] = {}  # the fast lane's memory of what it read (see `_SPAN_KEY`)
        self.span_chars = 0  # the length of the spans it holds
        self.span_misses = 0  # spans remembered (or not) since one was met again
        self.delimiter_at = self.directive_at = self.horizon = -1  # see `_fast`
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.out: list[Statement] = []
        # line counting, lazily up to `cnt_pos`; `line_start` is the index where that line began
        self.cnt_pos = 0
        self.cur_line = 1
        self.line_start = 0
        # client state
        self.delimiter = ";"
        self.block = False  # inside goose StatementBegin/StatementEnd: no delimiter at all
        self.down = False  # inside a goose/dbmate Down section: nothing is emitted
        self.mode = _CODE
        self.at_line_start = True  # between statements: only whitespace since a newline (or file start)
        self.exec_ver: str | None = None  # version of the open executable comment
        self.exec_serial = 0  # counts executable comments, to tell them apart
        self.run_match: _Matcher
        self.gap_stops = ""  # characters that may not start a statement between statements
        self._set_matchers()
        # the statement being read
        self.in_stmt = False
        self.pieces: list[str] = []  # its text so far, before `seg_start`
        self.plen = 0  # total length of `pieces`
        self.seg_start = 0  # buffer index where its not-yet-copied text starts
        self.stmt_line = 0
        self.stmt_col = 0
        self.stmt_comments: list[str] = []
        self.stmt_exec: tuple[int, str] | None = None  # (serial, version) of the comment it began in
        self.exec_close_off: int | None = None  # offset in its text where that comment closed
        self.compound: bool | None = None  # whether it carries a stored-program body (found at its first `;`)
        # the comment being read
        self.collect = False  # whether its text is wanted
        self.cstart = 0  # buffer index where its not-yet-copied text starts
        self.cparts: list[str] = []
        self.dash_comment = False  # a `--` comment (the only kind migration annotations use)
        self.comment_line = 0
        self.comment_col = 0
        self.cm_off = 0  # offset in the statement text where an in-statement `--` comment began
        # comments waiting for the next statement, and the last statement waiting for the end of
        # its line (comments after its delimiter on that line are its own)
        self.comments: list[str] = []
        self.pending: tuple[str, int, int, int, list[str], str | None] | None = None
        self.pending_line = 0

    # --- driving ------------------------------------------------------------------------------

    def run(self, chunks: Iterable[str]) -> Iterator[Statement]:
        first = True
        for chunk in chunks:
            if not chunk:
                continue
            if first:
                first = False
                if chunk[0] == "\ufeff":  # a BOM is not text: drop it before any column is counted
                    chunk = chunk[1:]
            self._feed(chunk)
            self._scan()
            if self.out:
                out, self.out = self.out, []
                yield from out
        self.eof = True
        self._scan()
        self._finish()
        yield from self.out
        self.out = []

    def _feed(self, chunk: str) -> None:
        """Drop what has been dealt with from the buffer (keeping statement and comment text) and append `chunk`."""
        buf, pos = self.buf, self.pos
        if self.in_stmt:
            if pos > self.seg_start:
                piece = buf[self.seg_start : pos]
                self.pieces.append(piece)
                self.plen += len(piece)
            self.seg_start = 0
        if self.collect and self.mode in (_BLOCK, _LINE):
            self.cparts.append(buf[self.cstart : pos])
            self.cstart = 0
        self._line_at(pos)
        self.cnt_pos -= pos
        self.line_start -= pos
        self.buf = buf[pos:] + chunk if pos < len(buf) else chunk
        self.pos = 0
        self.delimiter_at = self.directive_at = self.horizon = -1  # fast-lane look-ahead, found again in the new buffer

    def _scan(self) -> None:
        """Advance as far as the buffer allows (at end of input: to its end)."""
        while True:
            mode = self.mode
            if mode == _CODE:
                ok = self._code() if self.in_stmt else self._gap()
            elif mode == _LINE:
                ok = self._line_comment()
            elif mode == _BLOCK:
                ok = self._block_comment()
            elif mode == _BTICK:
                ok = self._backtick()
            else:
                ok = self._quote()
            if not ok:
                return

    def _finish(self) -> None:
        """At end of input: emit what is left, even unterminated."""
        buf = self.buf
        if self.mode == _BLOCK and not self.in_stmt:
            # an unterminated comment between statements swallowed the rest of the file: surface
            # it as a statement so the parser reports it instead of the file silently ending
            text = ("/*" + "".join(self.cparts) + buf[self.cstart :]).rstrip(_WS)
            self._flush_pending()
            if not self.down:
                line = self.comment_line
                self.out.append(
                    Statement(
                        text, self.path, line, self.comment_col, line + text.count("\n"), tuple(self.comments), None
                    )
                )
        elif self.in_stmt:
            self._end_stmt(len(buf))
        self._flush_pending()

    # --- positions and state ------------------------------------------------------------------

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
        """Follow a change of delimiter, goose block or executable comment."""
        delimiter = "" if self.block else self.delimiter
        key = (delimiter, self.exec_ver is not None)
        match = _run_cache.get(key)
        if match is None:
            match = _run_cache[key] = _run_pattern(*key)
        self.run_match = match
        self.gap_stops = "dD-#/*" + delimiter[:1]
        self.fast_ok = self.fast_lane and not self.markers and delimiter == ";" and self.exec_ver is None

    def _open_exec(self, m: re.Match[str]) -> None:
        bang, digits = m.group(1), m.group(2)
        self.exec_ver = digits if bang == "!" else bang + digits
        self.exec_serial += 1
        self._set_matchers()

    def _flush_pending(self) -> None:
        if self.pending is not None:
            text, line, column, end_line, comments, executable = self.pending
            self.out.append(Statement(text, self.path, line, column, end_line, tuple(comments), executable))
            self.pending = None

    # --- between statements -------------------------------------------------------------------

    def _gap(self) -> bool:
        """Skip whitespace, comments, executable-comment markers and empty statements; read the statements after."""
        buf = self.buf
        n = len(buf)
        while True:
            if self.fast_ok and self.pending is None:
                self._fast()
            pos = self.pos
            e = _run_end(_WS_RUN, buf, pos)
            if e > pos:
                if buf.find("\n", pos, e) >= 0:
                    self.at_line_start = True
                    if self.pending is not None:
                        self._flush_pending()
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
            # the first character of a statement
            if self.pending is not None:
                self._flush_pending()
            cp = self.cnt_pos  # inline `_line_at(e)`: this runs once per statement
            k = buf.count("\n", cp, e)
            if k:
                self.cur_line += k
                self.line_start = buf.rfind("\n", cp, e) + 1
            self.cnt_pos = e
            self.stmt_line = self.cur_line
            self.stmt_col = e - self.line_start + 1
            self.in_stmt = True
            self.at_line_start = False
            self.seg_start = self.pos = e
            self.stmt_comments = self.comments
            self.comments = []
            self.stmt_exec = (self.exec_serial, self.exec_ver) if self.exec_ver is not None else None
            self.compound = None
            if not self._code():
                return False
            if self.in_stmt or self.mode != _CODE:
                return True
            # the statement ended at its delimiter: go on after it in the same buffer

    def _fast(self) -> None:
        """Take the statements the fast lane can (see `_FastLane`), from `pos` on."""
        buf = self.buf
        n = len(buf)
        path = self.path
        out = self.out
        pos = self.pos
        cnt, line, ls = self.cnt_pos, self.cur_line, self.line_start
        comments: list[str] | None = self.comments
        lane = _fast_lane(self.skip_words, self.skip_pattern)
        g_run, g_lead, g_xv, g_xt, g_xw, g_s, g_w, g_ex, g_semi, g_nl = lane.groups
        match = lane.match
        skip = self.skip_words
        skip_known = self.skip_known
        # Where the next possible DELIMITER line (`limit`) and the next directive (`unless`) are,
        # as far as `horizon` (a newline, or the buffer's end): the regex stops before the first
        # and builds every statement whose text holds the second. They are searched for lazily,
        # up to the line end after what the regex read, and only for it: a remembered span holds
        # neither, and between the tenants of a dump the regex reads a few hundred bytes.
        unless = self.unless
        limit, directive, horizon = self.delimiter_at, self.directive_at, self.horizon
        if horizon < pos:
            limit = directive = horizon = pos
        spans = self.spans if self.span_memory else None
        misses = self.span_misses
        held = -1
        if comments and unless and any(unless in c for c in comments):
            held = pos  # the comments waiting for the next statement hold one: it is built whatever it is
            spans = None  # (and nothing is reused or remembered in this call)
        while True:
            if spans is not None:
                key = buf[pos : pos + _SPAN_KEY]
                known_span = spans.get(key)
                if known_span is not None:
                    head, rest, counted, text, offset, after_run, found, executable, lines, nl_before, column, nl_span, \
                        resume = known_span
                    c = pos + len(head)
                    if buf.startswith(head, pos):
                        end = c + len(rest)
                        if not buf.startswith(rest, c):
                            end = -1
                            if resume is None:  # first time: is the cut outside quotes and comments?
                                head_text = head[offset:]
                                resume = (head_text, head_text.count("\n")) if _top_level(head_text) else False
                                spans[key] = (*known_span[:-1], resume)
                            if resume:
                                # the same statement up to its last line (a dump's `AUTO_INCREMENT=`
                                # differs per tenant): the rest of it is read from that line on
                                head_text, head_lines = resume
                                tail = _tail(buf, c)
                                if tail is not None:
                                    end = tail.end()
                                    nl_tail = buf.count("\n", c, end)
                                    # a DELIMITER line can only start after a newline of the tail,
                                    # or at its start, right after the remembered part's last one
                                    if (nl_tail > 1 or buf[c] in " \tdD") and _delimiter_line(buf, c - 1, end):
                                        end = -1
                                if end >= 0:
                                    ex = tail.start(1)
                                    semi = tail.start(2)
                                    raw = buf[c:semi] if ex < 0 else _unwrapped(buf, c, semi, ex, tail.end(1))
                                    raw = raw.rstrip(_WS)
                                    if raw:
                                        text = head_text + raw
                                        lines = head_lines + raw.count("\n")
                                    else:
                                        text = head_text.rstrip(_WS)
                                        lines = text.count("\n")
                                    nl_span = nl_before + head_lines + nl_tail
                        if end >= 0:
                            self.skipped += counted
                            if cnt < pos:
                                k = buf.count("\n", cnt, pos)
                                if k:
                                    line += k
                                    ls = buf.rfind("\n", cnt, pos) + 1
                            if text is not None:
                                start = pos + offset
                                out.append(_new_statement(Statement, (
                                    text, path, line + nl_before, column if nl_before else start - ls + 1,
                                    line + nl_before + lines,
                                    tuple(comments) + found if comments and not after_run else found, executable,
                                )))
                            line += nl_span
                            cnt = ls = pos = end  # a span ends with a newline
                            comments = None
                            misses = 0
                            continue
            # the regex, with the look-ahead found as far as it reads
            if horizon < pos:
                limit = directive = horizon = pos
            else:
                if limit < pos:  # a DELIMITER line inside a quote or comment was passed: the next one
                    found_at = _delimiter_line(buf, pos, horizon)
                    limit = found_at.start() if found_at is not None else horizon
                if directive < pos:
                    directive = buf.find(unless, pos, horizon) if unless else -1
                    if directive < 0:
                        directive = horizon
            m = match(buf, pos)
            if m.end() > horizon and horizon < n:  # type: ignore[union-attr]
                ahead = buf.find("\n", m.end())  # type: ignore[union-attr]
                reach = ahead if ahead >= 0 else n
                if limit == horizon:
                    found_at = _delimiter_line(buf, horizon, reach)
                    limit = found_at.start() if found_at is not None else reach
                if directive == horizon:
                    directive = buf.find(unless, horizon, reach) if unless else -1
                    if directive < 0:
                        directive = reach
                horizon = reach
            at = pos  # where this match starts, for `spans`
            counted = 0
            one_by_one = False
            run_end = m.end(g_run)  # type: ignore[union-attr]
            if run_end > pos:  # skipped statements first
                if run_end > directive or run_end > limit or at == held:
                    m = lane.plain(buf, pos)  # the run holds a directive or passes a DELIMITER line: one by one
                    one_by_one = True
                else:
                    counted = buf.count(";", pos, run_end)
                    self.skipped += counted
                    comments = None
                    pos = run_end  # taken, whatever becomes of the statement after it
            end = m.end(g_nl)  # type: ignore[union-attr]
            if end < 0:
                break
            start = m.start(g_s)  # type: ignore[union-attr]
            if start >= 0:  # a plain statement
                semi = m.start(g_semi)  # type: ignore[union-attr]
                if semi < 0 or semi > limit:
                    break
                word = m.group(g_w)  # type: ignore[union-attr]
            else:  # a one-line executable comment, or nothing
                xt = m.group(g_xt)  # type: ignore[union-attr]
                if not xt:
                    break  # no statement at all, or an empty executable comment
                word = m.group(g_xw)  # type: ignore[union-attr]
            # what was read here may be reused if nothing in it depended on where the next
            # DELIMITER line or directive is
            remember = spans is not None and not one_by_one and end <= directive and end <= limit
            if remember:
                # in text that does not repeat, remembering costs a third of the time: after a long
                # run of spans never met again, only one in `_SPAN_SAMPLE` is kept (a hit resets it)
                misses += 1
                remember = misses <= _SPAN_TRIES or not misses % _SPAN_SAMPLE
            if skip is not None and word and end <= directive and at != held:
                known = skip_known.get(word)
                if known is None:
                    known = self._known(word)
                if known and (start < 0 or _ddl_line(buf, start, semi) is None):
                    self.skipped += 1
                    comments = None
                    if remember:
                        self._remember(key, buf, at, end, end, counted + 1, None, at, False, (), None, 0)
                    pos = end
                    continue
            if start >= 0:
                ex = m.start(g_ex)  # type: ignore[union-attr]
                raw = buf[start:semi] if ex < 0 else _unwrapped(buf, start, semi, ex, m.end(g_ex))  # type: ignore[union-attr]
                text = raw.rstrip(_WS)
                executable = None
            else:
                text = xt.rstrip(_WS)
                start = m.start(g_xt)  # type: ignore[union-attr]
                opening = m.group(g_xv)  # type: ignore[union-attr]
                executable = _versions.get(opening)
                if executable is None:
                    executable = opening[1:] if opening[0] == "!" else opening
                    if len(_versions) < 1024:
                        _versions[opening] = executable
            lead = m.group(g_lead)  # type: ignore[union-attr]
            if lead:
                found = _lead_notes.get(lead)
                if found is None:
                    found = tuple(t for t in (c.strip(_WS) for c in _comment_texts(lead)) if t)
                    if len(_lead_notes) < 4096 and len(lead) < 512:
                        _lead_notes[lead] = found
            else:
                found = ()
            after_run = at != pos
            notes = tuple(comments) + found if comments and not after_run else found
            comments = None
            lines = text.count("\n")
            if remember:
                # a statement of several lines is remembered up to its last line when no
                # executable comment comes before that line: the rest may differ in a repeat
                cut = end
                if executable is None:  # a plain statement, ended by `semi`
                    last = buf.rfind("\n", start, semi)
                    if last >= 0 and buf.find("/*", start, last) < 0:
                        cut = last + 1
                self._remember(key, buf, at, cut, end, counted, text, start, after_run, found, executable, lines)
            k = buf.count("\n", cnt, start)
            if k:
                line += k
                ls = buf.rfind("\n", cnt, start) + 1
            cnt = start
            out.append(_new_statement(Statement, (text, path, line, start - ls + 1, line + lines, notes, executable)))
            if lines:
                cnt = start + len(text)
                ls = buf.rfind("\n", start, cnt) + 1
                line += lines
            pos = end
        self.delimiter_at, self.directive_at, self.horizon = limit, directive, horizon
        self.span_misses = misses
        if comments is None:  # took at least one statement
            self.comments = []
            self.pos = pos
            self.cnt_pos, self.cur_line, self.line_start = cnt, line, ls
            self.at_line_start = True

    def _remember(
        self, key: str, buf: str, at: int, cut: int, end: int, counted: int, text: str | None, start: int,
        after_run: bool, found: tuple[str, ...], executable: str | None, lines: int,
    ) -> None:
        """Keep what the fast lane made of the span `buf[at:end]` (see `_SPAN_KEY`), cut at `cut`."""
        if end - at > _SPAN_MAX:
            return
        if self.span_chars + end - at > _SPAN_BUDGET:
            self.spans.clear()
            self.span_chars = 0
        nl_before = buf.count("\n", at, start)
        self.spans[key] = (
            buf[at:cut], buf[cut:end], counted, text, start - at, after_run, found, executable, lines,
            nl_before, start - buf.rfind("\n", at, start) if nl_before else 0, buf.count("\n", at, end),
            None if cut < end else False,
        )
        self.span_chars += end - at

    def _known(self, word: str) -> bool:
        """Whether statements starting with `word` (as written) are skipped (`skip_words`)."""
        known = word.upper() in self.skip_words  # type: ignore[operator]
        if len(self.skip_known) < 256:
            self.skip_known[word] = known
        return known

    def _gap_special(self, e: int) -> int:
        """Deal with a character between statements that may not start one (see `gap_stops`).

        Returns _GAP_NEXT (dealt with, go on), _GAP_STATEMENT (it starts a statement after all),
        _GAP_MODE (a comment goes on past the buffer) or _GAP_MORE (more text is needed to tell).
        """
        buf, eof = self.buf, self.eof
        n = len(buf)
        c = buf[e]
        fast = not self.markers
        if c in "dD" and self.at_line_start and not self.block and (n - e < 10 or buf[e + 1] in "eE"):
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
                return _GAP_NEXT
            if not eof and n - e < len(delimiter) and delimiter.startswith(buf[e:]):
                return _GAP_MORE
        if c == "-" or c == "#":
            if fast and self.pending is None:
                m = _comment_run(buf, e)
                if m is not None:
                    self.pos = m.end()
                    self.at_line_start = True
                    for text in _comment_texts(buf, e, m.end()):
                        text = text.strip(_WS)
                        if text:
                            self.comments.append(text)
                    return _GAP_NEXT
            if c == "#":
                return _GAP_MODE if self._gap_line_comment(e, e + 1, dash=False) else _GAP_NEXT
            if n - e < 3 and not eof:
                return _GAP_MORE
            if buf.startswith("-", e + 1) and (e + 2 >= n or buf[e + 2] in _DASH_COMMENT_FOLLOW):
                return _GAP_MODE if self._gap_line_comment(e, e + 2, dash=True) else _GAP_NEXT
        elif c == "/":
            if n - e < _SLASH_LOOKAHEAD and not eof:
                return _GAP_MORE
            if buf.startswith("*", e + 1):
                self.at_line_start = False
                if fast and self.exec_ver is None and delimiter == ";":
                    m = _exec_line(buf, e)
                    if m is not None and self._exec_line_stmt(m):
                        return _GAP_NEXT
                m = _exec_open(buf, e)
                if m is not None:
                    self._open_exec(m)
                    self.pos = m.end()
                    return _GAP_NEXT
                self._start_comment(e + 2, _BLOCK, collect=True, dash=False)
                self.comment_line = self._line_at(e)
                self.comment_col = e - self.line_start + 1
                return _GAP_MODE
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
        if not text:
            return False
        start = m.start(3) + body.index(text[0])
        line = self._line_at(start)
        self.exec_serial += 1
        self.pending = (
            text,
            line,
            start - self.line_start + 1,
            line,
            self.comments,
            digits if bang == "!" else bang + digits,
        )
        self.pending_line = line
        self.comments = []
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
        if self.pending is not None:
            self.comment_line = self._line_at(start)
        self.pos = end
        self.dash_comment = dash
        self._comment_done(buf[text_start:end].strip(_WS))
        return False

    def _start_comment(self, text_start: int, mode: int, *, collect: bool, dash: bool) -> None:
        self.mode = mode
        self.collect = collect
        self.dash_comment = dash
        self.cstart = self.pos = text_start
        self.cparts = []

    def _comment_done(self, text: str) -> None:
        """File a finished comment: a migration annotation, a trailing comment, or a leading one."""
        if self.markers and self.dash_comment:
            marker = _marker(text)
            if marker is not None:
                self._apply_marker(marker)
                return
        if self.in_stmt or not text:
            return  # inside a statement a comment is part of its text
        if self.pending is not None and self.comment_line == self.pending_line:
            self.pending[4].append(text)
            return
        self._flush_pending()
        self.comments.append(text)

    def _apply_marker(self, marker: str) -> None:
        """Obey a goose/dbmate annotation; a statement still open ends where the annotation starts."""
        if self.in_stmt:
            self._end_stmt(self.pos, cut=self.cm_off, strip_semicolon=marker == "end")
        self._flush_pending()
        if marker == "up":
            self.down = False
            self.comments = []
        elif marker == "down":
            self.down = True
            self.comments = []
        elif marker == "begin":
            self.block = True
            self._set_matchers()
        elif marker == "end":
            self.block = False
            self._set_matchers()

    def _try_delimiter(self, start: int) -> bool | None:
        """Handle a `DELIMITER xx` client command on the line starting at `start`, if there is one.

        Returns True when the line was a command (consumed up to its newline), False when it is
        not, `_UNDECIDED` when more text is needed to tell. Like the mysql client, a statement
        still open when the command comes ends there. The new delimiter is the first word after
        the keyword (the client reads one argument, not the rest of the line).
        """
        buf, eof = self.buf, self.eof
        n = len(buf)
        q = _run_end(_HSPACE_RUN, buf, start)
        if q >= n:
            return _UNDECIDED if not eof else False
        if buf[q] not in "dD":
            return False
        if n - q < 10 and not eof:
            return _UNDECIDED
        if buf[q : q + 9].lower() != "delimiter" or q + 9 >= n or buf[q + 9] not in " \t":
            return False
        end = buf.find("\n", q + 9)
        if end < 0:
            if not eof:
                return _UNDECIDED
            end = n
        words = buf[q + 10 : end].split()
        if not words:
            return False  # the client rejects a bare DELIMITER; leave it to the parser to report
        if self.in_stmt:
            self._end_stmt(start)
        self._flush_pending()
        self.delimiter = words[0]
        self._set_matchers()
        self.pos = end
        self.at_line_start = False
        return True

    # --- inside a statement -------------------------------------------------------------------

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
                    # under a custom delimiter, a `;` left before it is an empty statement to the server
                    self._end_stmt(p, delimiter_end=p + len(delimiter), strip_semicolon=delimiter != ";")
                    return True
                if not eof and n - p < len(delimiter) and delimiter.startswith(buf[p:]):
                    self.pos = p
                    return False
            if c == ";" and delimiter and delimiter != ";":  # a `;` that is not the delimiter: see `_compound_start`
                if self.compound is None:
                    self.compound = _compound_start(self._text_prefix(p)) is not None
                if not self.compound:
                    self._end_stmt(p, delimiter_end=p + 1)
                    return True
                pos = p + 1
                continue
            if c == "'" or c == '"':
                m = _QUOTE_BODY[c].match(buf, p + 1)
                e = m.end() if m is not None else p + 1
                if e < n and buf[e] == c:
                    pos = e + 1
                    continue
                self.mode = _QUOTE_MODES[c]  # goes on in the next chunk
                self.pos = n if eof else e
                return False
            if c == "`":
                q = buf.find("`", p + 1)
                if q >= 0:
                    pos = q + 1
                    continue
                self.mode = _BTICK
                self.pos = n
                return False
            if c == "-":
                if n - p < 3 and not eof:
                    self.pos = p
                    return False
                if buf.startswith("-", p + 1) and (p + 2 >= n or buf[p + 2] in _DASH_COMMENT_FOLLOW):
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
                        self._stmt_comment(p, p + 2, _BLOCK, dash=False)
                        return True
                    # unwrap in place: the marker becomes as many spaces, so columns stay right
                    self._piece(buf[self.seg_start : p])
                    self._piece(" " * (em.end() - p))
                    self._open_exec(em)
                    pos = self.seg_start = em.end()
                    run_match = self.run_match
                    continue
                pos = p + 1
            elif c == "*":
                if n - p < 2 and not eof:
                    self.pos = p
                    return False
                if buf.startswith("/", p + 1) and self.exec_ver is not None:
                    self._piece(buf[self.seg_start : p])
                    if self.stmt_exec is not None and self.stmt_exec[0] == self.exec_serial:
                        self.exec_close_off = self.plen
                    self._piece("  ")
                    self.exec_ver = None
                    pos = self.seg_start = p + 2
                    self._set_matchers()
                    run_match = self.run_match
                    continue
                pos = p + 1
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
        prefix = ""
        for piece in self.pieces:
            prefix += piece
            if len(prefix) >= _COMPOUND_PREFIX:
                return prefix
        return prefix + self.buf[self.seg_start : min(end, self.seg_start + _COMPOUND_PREFIX)]

    def _piece(self, text: str) -> None:
        self.pieces.append(text)
        self.plen += len(text)

    def _stmt_comment(self, start: int, text_start: int, mode: int, *, dash: bool) -> None:
        """A comment inside a statement stays in its text; only a `--` one may be an annotation to read."""
        collect = self.markers and dash
        if collect:
            self.cm_off = self.plen + (start - self.seg_start)
        self._start_comment(text_start, mode, collect=collect, dash=dash)

    def _end_stmt(
        self,
        end: int,
        *,
        delimiter_end: int | None = None,
        cut: int | None = None,
        strip_semicolon: bool = False,
    ) -> None:
        """Close the statement whose text ends at buffer index `end` (and at offset `cut` of its text, if given)."""
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
        stmt_exec = self.stmt_exec
        close = self.exec_close_off
        self.stmt_exec = self.exec_close_off = None
        if not text or self.down:
            return
        executable = None
        if stmt_exec is not None and (close is None or not raw[close:].strip(_WS)):
            executable = stmt_exec[1]
        line = self.stmt_line
        end_line = line + text.count("\n")
        if delimiter_end is None:
            comments = tuple(self.stmt_comments)
            self.out.append(Statement(text, self.path, line, self.stmt_col, end_line, comments, executable))
            return
        self.pending = (text, line, self.stmt_col, end_line, self.stmt_comments, executable)
        self.pending_line = end_line if len(raw) == len(text) else line + raw.count("\n")

    # --- inside quotes and comments that cross a chunk boundary -------------------------------

    def _quote(self) -> bool:
        quote = _MODE_QUOTES[self.mode]
        buf = self.buf
        n = len(buf)
        m = _QUOTE_BODY[quote].match(buf, self.pos)
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
            text = buf[self.cstart : e]
            if self.cparts:
                text = "".join(self.cparts) + text
                self.cparts = []
            self._comment_done(text.strip(_WS))
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
            text = buf[self.cstart : e]
            if self.cparts:
                text = "".join(self.cparts) + text
                self.cparts = []
            self._comment_done(text.strip(_WS))
        return True
