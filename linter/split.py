"""Split SQL text into statements, with positions. No sqlglot here.

The splitter follows the `mysql` command-line client, because that is what turns a schema file
into the statements a server receives: quotes ('...', "...", `...`) and comments (`-- `, `#`,
`/* */`) hide delimiters; executable comments (`/*!50100 ... */`, MariaDB `/*M!100301 ... */`)
are SQL where the target runs them (`executable_reading`) and comments where it does not;
`DELIMITER xx` at the start of a line changes the delimiter for the rest of the file (it is a
client command, never a statement), and so do the client's other commands what they do
(`\\g`, `\\u db`, `use db` alone on a line, `\\q`: `_CLIENT_COMMANDS`). Under a delimiter other
than `;` the client sends everything up to it as one multi-statement and the server runs each
`;`-separated statement in turn, so a `;` still ends a statement there, except in a compound
statement (a stored program, or a MariaDB block such as BEGIN NOT ATOMIC or IF), which ends where
its structure ends (`linter.compound`); a block then yields the statements it runs. That is how a
file whose `DELIMITER //` is never reset still yields its tables one by one. `SET sql_mode`
changes how quotes read from there on (`linter.sqlmode`); statements reach the parser in the
default quoting.

It streams: text arrives in chunks of any size, a chunk boundary may fall anywhere, and only the
statement being read plus a small look-ahead tail is held, so a dump of any size splits in
bounded memory; one statement is held up to `MAX_STATEMENT_CHARS`, and past that only counted
and reported. Every cost is linear in the input (tests/test_split_complexity.py): no regex here
can backtrack over what it read (loops are possessive or their alternatives start with distinct
characters), and nothing is read again per chunk. It does not loop per character in Python: one
compiled regex per state swallows plain text and whole quoted strings and stops only where
something can happen (the delimiter, a comment opener, an unclosed quote, a backslash, a line
that may hold DELIMITER); between statements, runs of `--` comment lines and mysqldump's one-line
`/*!40101 SET ... */;` are each taken by one regex. Lines are counted with `str.count` over spans
when a position is needed, and statement text is built from slices. What the fast lane read is
remembered by its text: a schema-per-tenant dump repeats every table's lines once per tenant, and
a repeat is recognised with `str.startswith` instead of being read again (see `_SPAN_KEY`).

What the splitter itself has to report (an unterminated quote, a statement over the cap, a
command it cannot follow, DDL whose running is uncertain) goes to the stream's `notes`, which the
engine turns into diagnostics.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from linter.compound import BLOCK, Invalid, Structure
from linter.compound import head as compound_head
from linter.sqlmode import ANSI_QUOTES, NO_BACKSLASH_ESCAPES, Modes, normalize
from linter.target import Target


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
    #: statements the client sends in one packet (`a; b` under a DELIMITER other than `;`, the
    #: statements of a compound block) share a number: the server stops the packet at the first
    #: one it refuses and runs none after it. 0: a statement of its own
    packet: int = 0


class Note(NamedTuple):
    """Something in the input the splitter reports at its place (the engine makes each a
    Diagnostic): text the server would read otherwise than innolint replays it (an unterminated
    quote, a statement over the size innolint reads, DDL in a branch of an IF, a client command
    innolint does not follow)."""

    line: int
    column: int
    message: str
    rule: str = "parse-error"
    severity: str = "warning"
    end_line: int = 0
    excerpt: str = ""


#: the most characters of one statement the splitter holds (1 MiB). Real DDL is far smaller (the
#: shared corpus's largest CREATE TABLE has 4.2 KB; a table at InnoDB's limits, 1017 columns with
#: comments or 8192 partitions as mysqldump writes them, stays under 0.6 MB), while the parser's
#: memory grows with a statement's tokens (a 1 MB string literal in a CREATE TABLE peaks at about
#: 430 MB RSS). A longer statement is not held: it is counted when the caller skips its first
#: word (a dump's INSERT), else reported (`Note`) with its size and the cap, and not parsed.
MAX_STATEMENT_CHARS = 1 << 20

#: how much of a statement over the cap is kept, to name it
_OVER_HEAD = 4096
_FIRST_WORD = re.compile(r"[A-Za-z_]+").match


def _excerpt(text: str, width: int = 100) -> str:
    """The first line of `text`, cut to `width` characters (as diagnostics show statements)."""
    first = text.strip(" \t\n\r\f\v").split("\n", 1)[0].rstrip("\r")
    return first if len(first) <= width else first[: width - 3] + "..."


#: what a statement's first word may be to the fast lane (`_Splitter._word_kind`)
_SKIP_WORD, _COMMAND_WORD, _SET_WORD = 1, 2, 4
#: the first three characters of a statement that may be a SET (see `_Splitter._follow_set`)
_SET_WORDS = frozenset(a + b + c for a in "sS" for b in "eE" for c in "tT")

#: migration formats whose annotations the splitter obeys
_MARKER_FORMATS = frozenset({"goose", "dbmate"})
#: formats of files the mysql client runs (plain files: None), where client commands (`\g`, `\u
#: db`, `use db` alone on a line ...) are the client's, not SQL; migration tools send the text to
#: the server themselves
_CLIENT_FORMATS = frozenset({None, "lexical", "timestamp"})


def split_stream(
    chunks: Iterable[str], path: str, *, migration_format: str | None = None, target: Target | None = None,
    skip_words: frozenset[str] | None = None, skip_pattern: str = "", unless: str = "",
    max_statement: int = MAX_STATEMENT_CHARS,
) -> StatementStream:
    """Yield the statements of the text made of `chunks`, each as soon as it is complete.

    `path` is only copied into each Statement. `migration_format` is the format of the migration
    history the file belongs to (`linter.migrations`; None: a plain file, which the mysql client
    runs): in goose files goose's annotations (`-- +goose Up`, `Down`, `StatementBegin`,
    `StatementEnd`) and in dbmate files dbmate's (`-- migrate:up`, `-- migrate:down`) are obeyed:
    Down sections are skipped and a StatementBegin/StatementEnd block is one statement whatever it
    contains. `target`: the server executable comments are evaluated against (`/*!80023 ...*/`
    runs on a server of that version or later; None: every one runs) and whose support of compound
    statements decides whether a MariaDB block runs. Broken input (an unterminated quote or
    comment, NUL bytes, junk) never raises: what there is becomes a statement and the parser
    reports it; what the splitter itself has to say goes to the stream's `notes`.

    `skip_words`: upper-case first words of statements the caller will not look at (INSERT,
    SET, LOCK ...). Such statements may be counted in the stream's `skipped` instead of being
    built (a dump has hundreds of thousands), except one whose text or comments hold `unless`.
    `skip_pattern`: a regex matching the whole text of other one-line statements that may be
    counted the same way (mysqldump's `ALTER TABLE `t` DISABLE KEYS`); it must not match `;`,
    quotes, comments or a newline.
    """
    splitter = _Splitter(path, migration_format, skip_words, unless, skip_pattern, target, max_statement)
    return StatementStream(splitter, chunks)


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

    @property
    def notes(self) -> list[Note]:
        """What the splitter reported so far (complete once the statements are exhausted)."""
        return self._splitter.notes


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
#: strings without backslash escapes (NO_BACKSLASH_ESCAPES; `"..."` under ANSI_QUOTES)
_PLAIN_BODY = {"'": re.compile(r"[^']*"), '"': re.compile(r'[^"]*')}
#: how quotes read, by `_Splitter.quoting` (bit 1: NO_BACKSLASH_ESCAPES, bit 2: ANSI_QUOTES): the
#: whole-quote patterns of `_run_pattern`, and the bodies of `'` and `"` quotes
_QUOTINGS = {0: (_SQ, _DQ), 1: ("'[^']*'", '"[^"]*"'), 2: (_SQ, '"[^"]*"'), 3: ("'[^']*'", '"[^"]*"')}
_BODIES = {
    0: _QUOTE_BODY, 1: _PLAIN_BODY, 2: {"'": _QUOTE_BODY["'"], '"': _PLAIN_BODY['"']}, 3: _PLAIN_BODY,
}

#: `/*!50100`, `/*!`, `/*M!100301`: the opening of an executable comment and its version
_exec_open = re.compile(r"/\*(M?!)([0-9]{0,6})").match
#: the openings of the executable comments in a text, without their `/*` ("!40101", "M!100301")
_EXEC_OPENINGS = re.compile(r"/\*(M?![0-9]{0,6})").findall
#: in a skipped executable comment: a nested comment's opening, or the closing
_OPEN_OR_CLOSE = re.compile(r"/\*|\*/").search


def _blank(text: str) -> str:
    """`text` with every character but line breaks turned into a space."""
    return "\n".join(" " * len(line) for line in text.split("\n"))
#: look-ahead needed to decide what `/` starts: `/*M!`, six version digits and one more
_SLASH_LOOKAHEAD = 12


def executable_reading(target: Target | None, bang: str, digits: str) -> tuple[str, bool]:
    """How a server of `target` reads an executable comment opened by `/*` + `bang` ("!" or "M!")
    and followed by `digits` (up to six): the digits it takes as the version, and whether it runs
    the comment's content. Checked on MariaDB 10.11 (tests/test_split_versions.py):
    - a version is five digits (MariaDB, and MySQL from 8.1, also read six); with fewer, the
      digits are text and the comment always runs; a sixth digit a server does not read is text;
    - `/*!NNNNN` runs on a server whose version number is at least NNNNN, except that MariaDB
      ignores MySQL's 5.7 to 9.x numbers (50700 to 99999: `/*!80023 ...*/` and `/*!99999 ...*/` do not
      run there); `/*M!NNNNNN` runs only on MariaDB, by the same rule without the exception;
    - a target stands for the newest release of its line (mysql-8.0 is 8.0.99, mariadb-11.x 11.99.99).
    With no target every comment runs and every digit is version (the reading before targets)."""
    if target is None:
        return digits, True
    mariadb = target.is_mariadb
    if bang == "M!" and not mariadb:
        return digits, False  # an ordinary comment to MySQL
    if len(digits) < 5:
        return "", True
    six = mariadb or target.version >= (8, 1)
    version = digits if six and len(digits) == 6 else digits[:5]
    number = int(version)
    major, minor = target.version
    server = major * 10000 + (99 if target.name.endswith(".x") else minor) * 100 + 99
    if bang == "M!":
        return version, mariadb and number <= server
    if mariadb and 50700 <= number <= 99999:
        return version, False
    return version, number <= server

#: after `--`, these make it a comment: MySQL's whitespace rule, plus a third dash (decoration
#: lines such as `-----------` are comments for every tool that runs such files; MySQL's client
#: would send all but the last two dashes as minus signs and fail)
_DASH_COMMENT_FOLLOW = frozenset(_WS + "-")

#: fast path between statements: a run of whole `--`/`#` comment lines (and the blank space after)
_comment_run = re.compile(r"(?:(?:--(?:[ \t\r\f\v\-][^\n]*+)?|#[^\n]*+)\n[ \t\n\r\f\v]*+)++").match
_comment_texts = re.compile(r"(?:--|#)([^\n]*)").findall
#: fast path between statements: a one-line statement wholly inside an executable comment, ended
#: by `;` (mysqldump writes hundreds of thousands of `/*!40101 SET ... */;`)
_exec_line = re.compile(
    r"/\*(M?!)([0-9]{0,6}+)([^;'\"`#/*\-\n\\]*+(?:`[^`\n]*+`[^;'\"`#/*\-\n\\]*+)*+)\*/[ \t\r\f\v]*+;"
).match

#: Comments are kept for the directives they may hold (`-- innolint: ...`), within bounds: of the
#: comments before a statement only the last `_COMMENTS_KEPT` are its own (a directive binds to
#: the statement just after it), and of each comment only its first `_COMMENT_CHARS` characters
#: are read. Without the bounds, a file of comments alone held every one of them in memory and
#: looked through all of them again for each chunk (10M comment lines took 54 s).
_COMMENTS_KEPT = 256
_COMMENT_CHARS = 4096


def _add_comment(comments: list[str], text: str) -> None:
    """Append a comment's text to `comments`, keeping the list within twice `_COMMENTS_KEPT`
    (the last `_COMMENTS_KEPT` are what counts: `_last_comments`)."""
    comments.append(text)
    if len(comments) > 2 * _COMMENTS_KEPT:
        del comments[:-_COMMENTS_KEPT]


def _last_comments(comments: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(comments) if len(comments) <= _COMMENTS_KEPT else tuple(comments[-_COMMENTS_KEPT:])


def _comment_text(raw: str) -> str:
    """A comment's text as kept: its first `_COMMENT_CHARS` characters, without surrounding whitespace."""
    return raw[:_COMMENT_CHARS].strip(_WS)


#: Under a DELIMITER other than `;`, the mysql client sends everything up to the delimiter in one
#: packet and the server runs each `;`-separated statement of it in turn (a multi-statement),
#: except that a compound statement keeps its `;`s: `linter.compound` reads where one ends.
#: how much of a statement's start `compound.head` needs at most
_COMPOUND_PREFIX = 2000
#: first words of statements that change the schema, or the current database: what a note says
#: about a statement of a compound block is said about these only
_SCHEMA_WORDS = frozenset({"CREATE", "ALTER", "DROP", "RENAME", "USE"})


#: The fast lane (see `_FastLane`): between statements, under the `;` delimiter, outside
#: executable comments and migration annotations, whole statements are taken one regex match each.
#: A backslash outside quotes (a client command such as `\g`, see `_CLIENT_COMMANDS`) stops it.
#: Inside a statement the loops are possessive (`*+`): what a loop took is never given back, as
#: nothing after it could match there, which saves the regex engine its backtracking records.
_FAST_SQ = r"'[^'\\]*+(?:\\.[^'\\]*+)*+'"
_FAST_DQ = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_FAST_TOKENS = rf"`[^`]*+`|{_FAST_SQ}|{_FAST_DQ}|-(?=[^-])|--(?=[^\- \t\n\r\f\v])|/(?=[^*])"
_FAST_EXEC = rf"/\*M?![0-9]{{0,6}}+[^*;'\"`\-#/\\]*+(?:(?:{_FAST_TOKENS}|\*(?!/))[^*;'\"`\-#/\\]*+)*+\*/"
_FAST_WS = r"[ \t\n\r\f\v]*"
_FAST_COMMENTS = rf"(?:(?:--(?:[ \t\r\f\v\-][^\n]*+)?|\#[^\n]*+)\n{_FAST_WS}+)*+"
#: a one-line statement in an executable comment: `/*!40101 SET ... */;`
_FAST_EXEC_LINE = r"[^;'\"`#/*\-\n\\]*+(?:`[^`\n]*+`[^;'\"`#/*\-\n\\]*+)*+"
_FAST_TAIL = r"[ \t\r\f\v]*\n"
#: a fast-lane statement's text (group `ex`: its last executable comment); also, up to a point,
#: whether that point is outside its quotes and comments (`_top_level`)
_FAST_BODY = rf"[^'\"`\-#/;\\]*+(?:(?:{_FAST_TOKENS}|(?P<ex>{_FAST_EXEC}))[^'\"`\-#/;\\]*+)*+"
_FAST_MAIN = (
    rf"{_FAST_WS}(?P<lead>{_FAST_COMMENTS})"
    r"(?:"
    r"(?P<x>/\*(?P<xv>M?![0-9]{0,6}+)"
    rf"[ \t\r\f\v]*+(?P<xt>(?P<xw>[A-Za-z_]*+){_FAST_EXEC_LINE})\*/[ \t\r\f\v]*+;)"
    r"|(?P<s>(?![dD][eE][lL][iI][mM][iI][tT][eE][rR][ \t])(?=[^ \t\n\r\f\v\-#/*;])(?P<w>[A-Za-z_]*+)"
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
_RUN_BODY = r"[^;'\"`#/\-\n\\]*+(?:`[^`;\n]*+`[^;'\"`#/\-\n\\]*+)*+"
_RUN_EXEC_BODY = r"[^;'\"`#/*\-\n\\]*+(?:`[^`;\n]*+`[^;'\"`#/*\-\n\\]*+)*+"
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


def _unwrapped(
    buf: str, start: int, semi: int, ex: int, ex_end: int, known: dict[str, bool], plain: Callable[[str], bool]
) -> str | None:
    """The text of the fast-lane statement `buf[start:semi]` with its executable comments
    unwrapped in place (their markers become spaces); `buf[ex:ex_end]` is the last of them. When
    it is the only one (a dump's `/*!50100 TABLESPACE `t` */`), it is unwrapped by slicing. None
    when one of them is not `plain` (see `_Splitter._plain_exec`, whose answers are `known`): the
    general scanner reads it."""
    if buf.count("/*", start, ex) == 0:
        opening = _exec_open(buf, ex).end()  # type: ignore[union-attr]
        key = buf[ex + 2 : opening]
        ok = known.get(key)
        if not (ok or ok is None and plain(key)):
            return None
        closing = ex_end - 2
        return buf[start:ex] + " " * (opening - ex) + buf[opening:closing] + "  " + buf[ex_end:semi]
    out: list[str] = []
    seg = start
    for m in _EXEC_COMMENTS(buf, start, semi):
        opening = m.group(1)
        if opening is not None:
            ok = known.get(opening[2:])
            if not (ok or ok is None and plain(opening[2:])):
                return None
            out += (buf[seg : m.start()], " " * len(opening), m.group(2), "  ")
            seg = m.end()
    out.append(buf[seg:semi])
    return "".join(out)


#: The mysql client's commands (MariaDB 10.11's `help`): name -> (letter, whether it takes an
#: argument). `\g` and `\G` send the statement typed so far, `\c` throws it away, `\q` stops
#: the client; `\u db` changes the current database like USE, `\d //` the delimiter like
#: DELIMITER; the rest only change the client's output. A command with an argument takes the rest
#: of its line up to the delimiter (which it consumes) as its parameters. Alone on a line before
#: any statement text, a command may also be written by its name (`use db`, `exit`, `source f`),
#: the line then holding neither the delimiter nor `\g`. Checked against the real client in
#: tests/test_split_commands.py.
_CLIENT_COMMANDS = {
    "?": ("?", True), "charset": ("C", True), "clear": ("c", False), "connect": ("r", True),
    "delimiter": ("d", True), "edit": ("e", False), "ego": ("G", False), "exit": ("q", False),
    "go": ("g", False), "help": ("h", True), "nopager": ("n", False), "notee": ("t", False),
    "nowarning": ("w", False), "pager": ("P", True), "print": ("p", False), "prompt": ("R", True),
    "quit": ("q", False), "rehash": ("#", False), "sandbox": ("-", False), "source": (".", True),
    "status": ("s", False), "system": ("!", True), "tee": ("T", True), "use": ("u", True),
    "warnings": ("W", False),
}
_COMMAND_LETTERS = {letter: takes for letter, takes in _CLIENT_COMMANDS.values()}
_COMMAND_INITIALS = frozenset(c for name in _CLIENT_COMMANDS for c in (name[0].lower(), name[0].upper()))
_first_word_end = re.compile(r"[^ \t\r]*").match
#: how much of a line a named command is looked for in, and how much of its line a command's
#: argument is read from (the client copies at most 512 characters of it)
_COMMAND_LINE = 4096
_ARGUMENT_CHARS = 512


def _client_argument(line: str, short: bool) -> str | None:
    """The argument of a client command, as the client reads it (its `get_arg`): after the
    command (a backslash and a letter when `short`, else its name) and spaces, a word ended by a space, or a quoted
    one; backslash escapes (and, for a named command, doubled quotes). None when there is none or
    its quote is not closed."""
    space = " \t\n\r\f\v"
    i, n = 0, len(line)
    while i < n and line[i] in space:
        i += 1
    if short:
        i += 2
    else:
        while i < n and line[i] not in space:
            i += 1
    while i < n and line[i] in space:
        i += 1
    quote = ""
    if i < n and line[i] in "'\"`":
        quote = line[i]
        i += 1
    out: list[str] = []
    while i < n:
        c = line[i]
        escaped = c == "\\" and i + 1 < n and (short or quote != "`")
        doubled = not short and quote and c == quote and i + 1 < n and line[i + 1] == quote
        if escaped or doubled:
            out.append(line[i + 1])
            i += 2
            continue
        if c == (quote or " "):
            quote = ""
            break
        out.append(c)
        i += 1
    if quote:
        return None
    return "".join(out) or None


def _quoted_name(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


#: what `_Splitter._backslash` found
_CMD_TEXT, _CMD_MORE, _CMD_DONE, _CMD_MODE = range(4)

#: modes of the scanner between chunks
_CODE, _SQUOTE, _DQUOTE, _BTICK, _BLOCK, _LINE, _SKIPEXEC, _PARAMS = range(8)
_QUOTE_MODES = {"'": _SQUOTE, '"': _DQUOTE}
_MODE_QUOTES = {_SQUOTE: "'", _DQUOTE: '"'}

#: a DELIMITER check that cannot be decided before more text arrives
_UNDECIDED = None
#: what `_Splitter._gap_special` found
_GAP_NEXT, _GAP_STATEMENT, _GAP_MODE, _GAP_MORE = range(4)

_Matcher = Callable[[str, int], "re.Match[str] | None"]


def _run_pattern(delimiter: str, in_exec: bool, client: bool, quoting: int) -> _Matcher:
    """The regex that consumes statement text that cannot end or change the statement.

    It swallows plain text and complete quoted strings in one C-level call and stops where
    Python must look: the delimiter's first character, a quote not closed in the buffer, a
    possible comment opener, `*/` inside an executable comment, or a line that may start with
    DELIMITER. Every look-ahead needs a real character, so the match also stops before anything
    whose meaning the next chunk could change. `delimiter` is "" inside a goose block (no
    delimiter, no DELIMITER command). With `client`, a backslash (a client command) stops it too;
    `quoting` says how strings read (`_QUOTINGS`).
    """
    d0 = delimiter[:1]
    stops = set("'\"`-#/") | {d0} - {""}
    if delimiter:
        stops.add("\n")
        stops.add(";")  # ends a statement of a multi-statement (see `linter.compound`)
    if in_exec:
        stops.add("*")
    if client:
        stops.add("\\")
    sq, dq = _QUOTINGS[quoting]
    alts = ["[^" + "".join(re.escape(c) for c in sorted(stops)) + "]+"]
    alts += [q for q, qc in ((_BQ, "`"), (sq, "'"), (dq, '"')) if qc != d0]
    if delimiter:
        alts.append(r"\n(?=[ \t]*[^ \t\ndD])")
    if d0 != "-":
        alts += [r"-(?=[^-])", r"--(?=[^\- \t\n\r\f\v])"]
    if d0 != "/":
        alts.append(r"/(?=[^*])")
    if in_exec and d0 != "*":
        alts.append(r"\*(?=[^/])")
    return re.compile("(?:" + "|".join(alts) + ")*", re.S).match


_run_cache: dict[tuple[str, bool, bool, int], _Matcher] = {}
#: builds a Statement from a tuple without the keyword-argument machinery of its constructor
_new_statement = tuple.__new__


def _marker(text: str, fmt: str) -> str | None:
    """The annotation of migration format `fmt` a `--` comment holds: up, down, begin, end,
    ignore, or None (another tool's annotation is a plain comment)."""
    words = " ".join(text.split()).lower()
    if fmt == "goose":
        if not words.startswith("+goose "):
            return None
        return {
            "up": "up",
            "down": "down",
            "statementbegin": "begin",
            "statementend": "end",
            "no transaction": "ignore",
            "envsub on": "ignore",
            "envsub off": "ignore",
        }.get(words[7:])
    if fmt != "dbmate":
        return None
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
        self, path: str, migration_format: str | None, skip_words: frozenset[str] | None = None, unless: str = "",
        skip_pattern: str = "", target: Target | None = None, max_statement: int = MAX_STATEMENT_CHARS,
    ) -> None:
        self.path = path
        self.markers = migration_format if migration_format in _MARKER_FORMATS else None
        self.client = migration_format in _CLIENT_FORMATS  # client commands are the client's
        self.mariadb_client = target is not None and target.is_mariadb  # see `_try_delimiter`
        self.packet_open = False  # under a delimiter other than `;`: statements read but not sent yet
        self.rejecting = False  # and the server rejected one of them: it runs none of the others
        self.target = target
        self.max_statement = max_statement
        self.notes: list[Note] = []
        self.skip_words = skip_words
        self.skip_pattern = skip_pattern
        self.unless = unless
        self.skipped = 0  # statements counted but not built
        self.word_kinds: dict[str, int] = {}  # first words as written: see `_word_kind`
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
        self.modes = Modes()  # the session's sql_mode, as far as it is followed
        self.quoting = 0  # how strings read: see `_QUOTINGS` (`linter.sqlmode`)
        self.mode = _CODE
        self.at_line_start = True  # between statements: only whitespace since a newline (or file start)
        self.exec_ver: str | None = None  # version of the open executable comment
        self.exec_serial = 0  # counts executable comments, to tell them apart
        self.plain_execs: dict[str, bool] = {}  # see `_plain_exec`
        self.plain_set: set[str] = set()  # the openings it found plain
        self.skip_depth = 0  # in an executable comment that does not run: comments open in it
        self.skip_nest = True  # whether one comment may nest in it
        self.skip_at = (0, 0)  # where it starts
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
        self.comment_line = 0
        self.comment_col = 0
        self.cm_off = 0  # offset in the statement text where an in-statement `--` comment began
        # comments waiting for the next statement, and the last statement waiting for the end of
        # its line (comments after its delimiter on that line are its own)
        self.comments: list[str] = []
        self.comments_hold = False  # whether one of them holds `unless`
        self.pending: tuple[str, int, int, int, list[str], str | None, int] | None = None
        self.packet_no = 0  # the number of the last packet a statement was read from (`Statement.packet`)
        self.packet = 0  # the packet of the statement `_end_stmt` closes
        self.pending_line = 0

    # --- driving ------------------------------------------------------------------------------

    def run(self, chunks: Iterable[str]) -> Iterator[Statement]:
        first = True
        for chunk in chunks:
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
                self._piece(_blank(piece) if self.mode == _SKIPEXEC else piece)
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
        self.pos = 0
        self.delimiter_at = self.directive_at = self.horizon = -1  # fast-lane look-ahead, found again in the new buffer

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
            else:
                ok = self._quote()
            if not ok:
                return

    def _finish(self) -> None:
        """At end of input: emit what is left, even unterminated."""
        buf = self.buf
        if self.stopped:
            line, column, what = self.stop_at
            if not self.rest_lines and buf:
                self.ends_with_newline = buf.endswith("\n")
            last = self._line_at(len(buf)) + self.rest_lines - self.ends_with_newline  # the file's last line
            rest = max(0, last - line)
            self._flush_pending()
            self.notes.append(Note(line, column, f"{what}: the mysql client stops reading here; the rest of the file "
                                   f"({rest:,} more lines) is neither run nor linted", "parse-error", "info"))
            return
        if self.mode == _BLOCK and not self.in_stmt:
            # an unterminated comment between statements swallowed the rest of the file: surface
            # it as a statement so the parser reports it instead of the file silently ending
            rest = buf[self.cstart : self.cstart + max(0, _COMMENT_CHARS - self.clen)]
            text = ("/*" + "".join(self.cparts) + rest).rstrip(_WS)
            self._flush_pending()
            if not self.down:
                line = self.comment_line
                if self.clen + len(rest) < _COMMENT_CHARS:
                    end_line = line + text.count("\n")
                else:  # only its start is kept: it ends on the last line that is not blank
                    blank = len(buf) - len(buf.rstrip(_WS))
                    end_line = self._line_at(len(buf)) - buf.count("\n", len(buf) - blank)
                self.out.append(
                    Statement(text, self.path, line, self.comment_col, end_line, _last_comments(self.comments), None)
                )
        elif self.mode == _SKIPEXEC:
            line, column = self.skip_at
            self._flush_pending()
            self.notes.append(Note(line, column, "executable comment not closed: the server skips it (it does not run "
                                   "on the target) and the rest of the file with it", end_line=self.cur_line))
            if self.in_stmt:
                self._piece(_blank(buf[self.seg_start :]))
                self.seg_start = len(buf)
        elif self.mode != _CODE and self.in_stmt:
            what = {_SQUOTE: "string (')", _DQUOTE: 'string (")', _BTICK: "quoted identifier (`)",
                    _BLOCK: "comment (/*)", _LINE: ""}[self.mode]
            if what:
                line, column = self.open_at
                self._flush_pending()
                blank = len(buf) - len(buf.rstrip(_WS))
                end_line = self._line_at(len(buf)) - buf.count("\n", len(buf) - blank)
                self.notes.append(Note(line, column, f"{what} not closed: the rest of the file is inside it, and the "
                                       "server rejects the statement it is in", end_line=max(line, end_line)))
        if self.in_stmt:
            self._end_stmt(len(buf))
        self._flush_pending()

    # --- positions and state ------------------------------------------------------------------

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
        """Follow a change of delimiter, goose block or executable comment."""
        delimiter = "" if self.block else self.delimiter
        key = (delimiter, self.exec_ver is not None, self.client, self.quoting)
        match = _run_cache.get(key)
        if match is None:
            match = _run_cache[key] = _run_pattern(*key)
        self.run_match = match
        self.quote_body = _BODIES[self.quoting]
        self.gap_stops = "dD-#/*" + delimiter[:1] + ("\\" if self.client else "")
        self.fast_ok = (self.fast_lane and not self.markers and delimiter == ";" and self.exec_ver is None
                        and not self.quoting)

    def _open_exec(self, version: str) -> None:
        self.exec_ver = version
        self.exec_serial += 1
        self._set_matchers()

    def _exec_marker(self, m: re.Match[str]) -> tuple[int, str, bool]:
        """For an executable comment's opening (`_exec_open`): where its marker ends (its
        version digits included), its version as `Statement.executable` gives it ("50100",
        "M!100301"), and whether it runs on the target (`executable_reading`)."""
        bang, digits = m.group(1), m.group(2)
        version, runs = executable_reading(self.target, bang, digits)
        return m.start(2) + len(version), version if bang == "!" else bang + version, runs

    def _plain_exec(self, opening: str) -> bool:
        """Whether the fast lane may unwrap the executable comment opened by `/*` + `opening`
        ("!50100", "M!100301"): it runs on the target and all its digits are its version."""
        known = self.plain_execs.get(opening)
        if known is None:
            bang = "M!" if opening[:1] == "M" else "!"
            digits = opening[len(bang) :]
            version, runs = executable_reading(self.target, bang, digits)
            known = runs and version == digits
            if len(self.plain_execs) < 256:
                self.plain_execs[opening] = known
                if known:
                    self.plain_set.add(opening)
        return known

    def _plain_run(self, buf: str, start: int, end: int) -> bool:
        """Whether every executable comment in `buf[start:end]` is `_plain_exec`."""
        if buf.find("/*", start, end) < 0:
            return True
        openings = _EXEC_OPENINGS(buf, start, end)
        return self.plain_set.issuperset(openings) or all(map(self._plain_exec, openings))

    def _skip_exec(self, start: int, marker_end: int, version: str) -> None:
        """An executable comment that does not run on the target, opened at buffer index
        `start`: the server skips it as a comment, one comment nested in it included (MySQL reads
        a MariaDB `/*M!` one as an ordinary comment). Inside a statement its text becomes blanks
        (line breaks kept), so the statement's positions stay right."""
        self.mode = _SKIPEXEC
        self.pos = marker_end
        self.skip_depth = 0
        self.skip_nest = not (version.startswith("M!") and self.target is not None and not self.target.is_mariadb)
        self.skip_at = self._where(start)

    def _flush_pending(self) -> None:
        if self.pending is not None:
            text, line, column, end_line, comments, executable, packet = self.pending
            self.out.append(Statement(text, self.path, line, column, end_line, _last_comments(comments), executable,
                                      packet))
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
            # the first character of a statement, unless a client command by name fills the line
            if self.client and self.at_line_start and buf[e] in _COMMAND_INITIALS and not self.packet_open:
                found = self._try_command(e)
                if found is _UNDECIDED:
                    return False
                if found:
                    if self.stopped:
                        return False
                    continue
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
            self._clear_comments()
            self.stmt_exec = (self.exec_serial, self.exec_ver) if self.exec_ver is not None else None
            self.compound = None
            if not self._code():
                return False
            if self.in_stmt or self.mode != _CODE or self.stopped:
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
        kinds = self.word_kinds
        plain_execs = self.plain_execs
        checks_exec = self.target is not None
        max_statement = self.max_statement
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
        if comments and unless and self.comments_hold:
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
                                    unwrapped = buf[c:semi] if ex < 0 else _unwrapped(buf, c, semi, ex, tail.end(1),
                                                                                      self.plain_execs, self._plain_exec)
                                    raw = unwrapped.rstrip(_WS) if unwrapped is not None else ""
                                    if unwrapped is None:
                                        end = -1
                                    elif raw:
                                        text = head_text + raw
                                        lines = head_lines + raw.count("\n")
                                    else:
                                        text = head_text.rstrip(_WS)
                                        lines = text.count("\n")
                                    nl_span = nl_before + head_lines + nl_tail
                                    if len(text) > self.max_statement:
                                        end = -1
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
                                    _last_comments(tuple(comments) + found) if comments and not after_run else found,
                                    executable, 0,  # packet 0: the fast lane reads statements under `;`
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
                if run_end > directive or run_end > limit or at == held or (
                        checks_exec and buf.find("/*", pos, run_end) >= 0 and not self._plain_run(buf, pos, run_end)) or (
                        "sql_mode" in buf[pos:run_end].lower()):
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
                if semi < 0 or semi > limit or semi - start > max_statement:
                    break
                word = m.group(g_w)  # type: ignore[union-attr]
                info = kinds.get(word)
                if info is None:
                    info = self._word_kind(word)
                if info & _COMMAND_WORD and buf.find("\n", start, semi) >= 0:
                    break  # may be a client command alone on its line (`use db`): see `_try_command`
            else:  # a one-line executable comment, or nothing
                xt = m.group(g_xt)  # type: ignore[union-attr]
                if not xt or len(xt) > max_statement:
                    break  # no statement at all, an empty executable comment, or one to take apart
                plain = plain_execs.get(m.group(g_xv))  # type: ignore[union-attr]
                if not (plain or plain is None and self._plain_exec(m.group(g_xv))):  # type: ignore[union-attr]
                    break
                word = m.group(g_xw)  # type: ignore[union-attr]
                info = kinds.get(word)
                if info is None:
                    info = self._word_kind(word)
            # a SET that may change sql_mode is built, followed and never reused (see `_follow_set`)
            sets_mode = info & _SET_WORD and "sql_mode" in buf[at:end].lower()
            # what was read here may be reused if nothing in it depended on where the next
            # DELIMITER line or directive is
            remember = spans is not None and not one_by_one and end <= directive and end <= limit and not sets_mode
            if remember:
                # in text that does not repeat, remembering costs a third of the time: after a long
                # run of spans never met again, only one in `_SPAN_SAMPLE` is kept (a hit resets it)
                misses += 1
                remember = misses <= _SPAN_TRIES or not misses % _SPAN_SAMPLE
            if info & _SKIP_WORD and end <= directive and at != held and not sets_mode and (
                    start < 0 or _ddl_line(buf, start, semi) is None):
                self.skipped += 1
                comments = None
                if remember:
                    self._remember(key, buf, at, end, end, counted + 1, None, at, False, (), None, 0)
                pos = end
                continue
            if start >= 0:
                ex = m.start(g_ex)  # type: ignore[union-attr]
                unwrapped = buf[start:semi] if ex < 0 else _unwrapped(buf, start, semi, ex, m.end(g_ex),  # type: ignore[union-attr]
                                                                      self.plain_execs, self._plain_exec)
                if unwrapped is None:
                    break
                text = unwrapped.rstrip(_WS)
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
                    found = _last_comments([t for t in map(_comment_text, _comment_texts(lead)) if t])
                    if len(_lead_notes) < 4096 and len(lead) < 512:
                        _lead_notes[lead] = found
            else:
                found = ()
            after_run = at != pos
            notes = _last_comments(tuple(comments) + found) if comments and not after_run else found
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
            out.append(_new_statement(Statement, (text, path, line, start - ls + 1, line + lines, notes, executable, 0)))
            if info & _SET_WORD:
                self._follow_set(text, line, start - ls + 1)
            if lines:
                cnt = start + len(text)
                ls = buf.rfind("\n", start, cnt) + 1
                line += lines
            pos = end
            if sets_mode and self.quoting:
                break  # a SET changed the quoting: the text after it is the general scanner's
        self.delimiter_at, self.directive_at, self.horizon = limit, directive, horizon
        self.span_misses = misses
        if comments is None:  # took at least one statement
            self._clear_comments()
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

    def _follow_set(self, text: str, line: int, column: int) -> None:
        """A SET statement: follow what it does to the session's sql_mode (`linter.sqlmode`) and
        to user variables (`SET @m = ''; SET sql_mode = @m`), and read on with the quoting that
        mode gives. (The fast lane counts a SET that names no sql_mode without building it: a
        variable set there and later given to sql_mode is reported as unknown.)"""
        if "@" not in text and "sql_mode" not in text.lower():
            return
        problem = self.modes.apply_set(text)
        if problem:
            self.notes.append(Note(line, column, problem, "parse-error", "warning", excerpt=_excerpt(text)))
        flags = self.modes.flags
        quoting = (NO_BACKSLASH_ESCAPES in flags) + 2 * (ANSI_QUOTES in flags)
        if quoting != self.quoting:
            self.quoting = quoting
            self._set_matchers()

    def _word_kind(self, word: str) -> int:
        """What the fast lane needs to know of a statement's first word (as written): whether the
        caller skips such statements (`skip_words`), whether it names a client command (in files
        the client runs), whether it is SET (`_WORD_KINDS`)."""
        upper = word.upper()
        kind = (_SKIP_WORD if self.skip_words is not None and upper in self.skip_words else 0) | (
            _COMMAND_WORD if self.client and word.lower() in _CLIENT_COMMANDS else 0) | (
            _SET_WORD if upper == "SET" else 0)
        if len(self.word_kinds) < 256:
            self.word_kinds[word] = kind
        return kind

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
                self.mariadb_client and self.packet_open):
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
                self.packet_open = self.rejecting = False
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
                        text = _comment_text(text)
                        if text:
                            self._add_leading(text)
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
                    end, version, runs = self._exec_marker(m)
                    if runs:
                        self._open_exec(version)
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
        if not text or len(text) > self.max_statement or not self._plain_exec(bang + digits):
            return False
        start = m.start(3) + body.index(text[0])
        line = self._line_at(start)
        if text[:3] in _SET_WORDS:
            self._follow_set(text, line, start - self.line_start + 1)
        self.exec_serial += 1
        self.pending = (
            text,
            line,
            start - self.line_start + 1,
            line,
            self.comments,
            digits if bang == "!" else bang + digits,
            0,
        )
        self.pending_line = line
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
        if self.pending is not None:
            self.comment_line = self._line_at(start)
        self.pos = end
        self.dash_comment = dash
        self._comment_done(_comment_text(buf[text_start : min(end, text_start + _COMMENT_CHARS)]))
        return False

    def _start_comment(self, text_start: int, mode: int, *, collect: bool, dash: bool) -> None:
        self.mode = mode
        self.collect = collect
        self.dash_comment = dash
        self.cstart = self.pos = text_start
        self.cparts = []
        self.clen = 0

    def _comment_done(self, text: str) -> None:
        """File a finished comment: a migration annotation, a trailing comment, or a leading one."""
        if self.markers and self.dash_comment:
            marker = _marker(text, self.markers)
            if marker is not None:
                self._apply_marker(marker)
                return
        if self.in_stmt or not text:
            return  # inside a statement a comment is part of its text
        if self.pending is not None and self.comment_line == self.pending_line:
            _add_comment(self.pending[4], text)
            return
        self._flush_pending()
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
        """Obey a goose/dbmate annotation; a statement still open ends where the annotation starts."""
        if self.in_stmt:
            self._end_stmt(self.pos, cut=self.cm_off, strip_semicolon=marker == "end")
        self._flush_pending()
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

    def _try_delimiter(self, start: int) -> bool | None:
        """Handle a `DELIMITER xx` client command on the line starting at `start`, if there is one.

        Returns True when the line was a command (consumed up to its newline), False when it is
        not, `_UNDECIDED` when more text is needed to tell. The new delimiter is the command's
        argument as the client reads it (its first word, or a quoted one: `DELIMITER '//'`); the
        rest of the line is ignored, and only its first `_COMMAND_LINE` characters are looked at.
        While a statement is being typed (or, under a delimiter other than `;`, a packet of them
        is not sent yet), the mysql client ends it there, while the mariadb client sends the line
        to the server as part of it (checked on MariaDB 10.11): a MariaDB target follows the
        mariadb client, any other the mysql client, saying so where the two differ.
        """
        buf, eof = self.buf, self.eof
        n = len(buf)
        q = _run_end(_HSPACE_RUN, buf, start)
        if q - start > _COMMAND_LINE:
            return False
        if q >= n:
            return _UNDECIDED if not eof else False
        if buf[q] not in "dD":
            return False
        if n - q < 10 and not eof:
            return _UNDECIDED
        if buf[q : q + 9].lower() != "delimiter" or q + 9 >= n or buf[q + 9] not in " \t":
            return False
        open_statement = self.in_stmt or self.packet_open
        if open_statement and self.mariadb_client:
            return False
        end = buf.find("\n", q + 9, q + _COMMAND_LINE)
        if end < 0:
            if not eof and n - q < _COMMAND_LINE:
                return _UNDECIDED
            end = min(n, q + _COMMAND_LINE)
        argument = _client_argument(buf[q : min(end, q + 255)].rstrip("\r"), short=False)
        if argument is None:
            return False  # the client rejects a bare DELIMITER; leave it to the parser to report
        line, column = self._where(q)
        if self.in_stmt:
            self._end_stmt(start)
        self._flush_pending()
        if open_statement:
            self.notes.append(Note(line, column, "DELIMITER while a statement is not ended: the mysql client ends it "
                                   "here, the mariadb client would send this line to the server as part of it",
                                   "parse-error", "info"))
        if "\\" in argument:
            self.notes.append(Note(line, column, "the client rejects a delimiter holding a backslash: the delimiter "
                                   f"stays {self.delimiter!r}", "parse-error", "warning"))
        else:
            self.delimiter = argument
            self._set_matchers()
        self.packet_open = self.rejecting = False
        self.at_line_start = False
        if buf.find("\n", q, end + 1) < 0 and end < n:  # a line longer than we look at: the rest is ignored
            self.mode = _PARAMS
            self.pos = end
            self.params_until = ""
            return True
        self.pos = end
        return True

    def _try_command(self, start: int) -> bool | None:
        """A client command written by its name alone on the line starting at buffer index
        `start`, where no statement text is typed yet (see `_CLIENT_COMMANDS`): True when it was
        one (the line is consumed, its newline left), False when it is not, `_UNDECIDED` when
        more text is needed. A line longer than `_COMMAND_LINE` characters is not taken as one."""
        buf, eof = self.buf, self.eof
        n = len(buf)
        end = buf.find("\n", start, start + _COMMAND_LINE)
        if end < 0:
            if not eof and n - start < _COMMAND_LINE:
                return _UNDECIDED
            if n - start >= _COMMAND_LINE:
                return False
            end = n
        line = buf[start:end].rstrip("\r")
        word_end = _first_word_end(buf, start, end).end()  # type: ignore[union-attr]
        name = buf[start:word_end].lower()
        command = _CLIENT_COMMANDS.get(name)
        if command is None or name == "delimiter" or "\\g" in line or (self.delimiter and self.delimiter in line):
            return False
        letter, takes = command
        argument = _client_argument(line, short=False) if takes else None
        if line[word_end - start :].strip(" \t") and argument is None:
            return False  # words after a command that takes none (`quit now`): SQL
        self._flush_pending()
        self.pos = end
        self.at_line_start = False
        self._run_command(letter, argument, start, name)
        return True

    def _backslash(self, p: int) -> int:
        """A backslash outside quotes and comments at buffer index `p`: a client command
        (`_CLIENT_COMMANDS`) or text. Returns `_CMD_TEXT` (text: `\\N`, or a letter the client does
        not know, which it keeps too), `_CMD_MORE` (more text is needed), `_CMD_DONE` (done:
        reading goes on at `pos`; a statement still open has lost the command from its text) or
        `_CMD_MODE` (the scanner is in another mode: the command's parameters, or stopped)."""
        buf, eof = self.buf, self.eof
        n = len(buf)
        if p + 1 >= n:
            return _CMD_MORE if not eof else _CMD_TEXT
        c = buf[p + 1]
        if c == "\n" or c == "\r" and buf.startswith("\n", p + 2):
            self._cut(p, p + 1)  # a backslash that ends a line: the client drops it
            return _CMD_DONE
        if c == "N" or c not in _COMMAND_LETTERS:
            return _CMD_TEXT
        if c in "gGq":
            if self.in_stmt:
                self._end_stmt(p, delimiter_end=p + 2)  # sent as it is
            self.pos = p + 2
            self.packet_open = self.rejecting = False
            if c == "q":
                self._run_command("q", None, p, "\\q")
                return _CMD_MODE
            return _CMD_DONE
        if c == "c":
            if self.in_stmt:
                self._drop_stmt()
            self.pos = p + 2
            self.packet_open = self.rejecting = False
            return _CMD_DONE
        if not _COMMAND_LETTERS[c]:
            self._cut(p, p + 2)
            return _CMD_DONE
        end = buf.find("\n", p, p + _ARGUMENT_CHARS)
        if end < 0:
            if not eof and n - p < _ARGUMENT_CHARS:
                return _CMD_MORE
            end = min(n, p + _ARGUMENT_CHARS)
        argument = _client_argument(buf[p:end].rstrip("\r"), short=True)
        if self.in_stmt:
            self._piece(buf[self.seg_start : p])
        self._run_command(c, argument, p, "\\" + c)
        # its parameters: the rest of the line up to the delimiter, consumed (in an executable
        # comment: up to its `*/`, left to close it)
        self.mode = _PARAMS
        self.pos = p + 2
        in_exec = self.exec_ver is not None
        self.params_until = "*/" if in_exec else "" if self.block else self.delimiter
        self.params_consume = not in_exec
        if self.in_stmt:
            self.seg_start = self.pos
        return _CMD_MODE

    def _run_command(self, letter: str, argument: str | None, at: int, written: str) -> None:
        """What a client command does to the schema, or to what innolint can follow."""
        if letter == "q":
            line, column = self._where(at)
            self.stop_at = (line, column, f"`{written}`")
            self.stopped = True
        elif letter in "ur" and argument:
            line, column = self._where(at)
            self._flush_pending()
            self.out.append(Statement(f"USE {_quoted_name(argument)}", self.path, line, column, line, (), None))
            if letter == "r":
                self.notes.append(Note(line, column, f"`{written}` reconnects; innolint takes it for the same server, "
                                       f"now in database {argument}", "parse-error", "info"))
        elif letter == "d" and argument and "\\" not in argument:
            self.delimiter = argument
            self._set_matchers()
        elif letter in ".!":
            line, column = self._where(at)
            what = "runs another file" if letter == "." else "runs a shell command"
            self.notes.append(Note(line, column, f"`{written}` {what} here; innolint does not follow it, so what it "
                                   "does to the schema is not replayed", "parse-error", "warning"))

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
        self.mode = _CODE
        if self.in_stmt:
            self.seg_start = end
        return True

    def _cut(self, start: int, end: int) -> None:
        """Leave `buf[start:end]` (a client command) out of the statement being read, if any."""
        if self.in_stmt:
            self._piece(self.buf[self.seg_start : start])
            self.seg_start = end
        self.pos = end

    def _drop_stmt(self) -> None:
        """`\\c`: the statement typed so far is thrown away."""
        self.in_stmt = False
        self.pieces = []
        self.plen = self.over = self.over_lines = 0
        self.over_head = ""
        self.stmt_exec = self.exec_close_off = None
        self.compound = None

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
                    self.packet_open = self.rejecting = False
                    return True
                if not eof and n - p < len(delimiter) and delimiter.startswith(buf[p:]):
                    self.pos = p
                    return False
            if c == ";" and delimiter and delimiter != ";":  # a `;` that is not the delimiter: see `linter.compound`
                compound = self.compound
                if compound is None:
                    head = compound_head(self._text_prefix(p))
                    if head is None:
                        self._end_stmt(p, delimiter_end=p + 1)
                        self.packet_open = True
                        return True
                    compound = self.compound = head if isinstance(head, Invalid) else Structure(head, self.quoting)
                    self.fed = 0
                if isinstance(compound, Structure) and not self.over:
                    text = self._text_from(self.fed, p)
                    compound.feed(text, self.fed, final=False)
                    self.fed += len(text) + 1
                    if compound.complete:  # the compound statement ends at this `;`
                        self._end_stmt(p, delimiter_end=p + 1)
                        self.packet_open = True
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
                    marker_end, version, runs = self._exec_marker(em)
                    self._piece(buf[self.seg_start : p])
                    if not runs:  # its text becomes blanks (see `_skip_exec`)
                        self.seg_start = p
                        self._skip_exec(p, marker_end, version)
                        return True
                    # unwrap in place: the marker becomes as many spaces, so columns stay right
                    self._piece(" " * (marker_end - p))
                    self._open_exec(version)
                    pos = self.seg_start = marker_end
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
        if self.block or self.delimiter != ";":
            if not self.packet_open:  # the first statement of a packet
                self.packet_no += 1
            packet = self.packet_no
        self.packet = packet
        stmt_exec = self.stmt_exec
        close = self.exec_close_off
        self.stmt_exec = self.exec_close_off = None
        compound = self.compound
        self.compound = None
        if not text or self.down or self.rejecting:
            return
        if compound is None and (self.block or self.delimiter != ";"):  # no `;` of its own: a compound one?
            head = compound_head(text[:_COMPOUND_PREFIX])
            if head is not None:
                compound = head if isinstance(head, Invalid) else Structure(head, self.quoting)
                self.fed = 0
        if compound is not None:
            if isinstance(compound, Invalid):
                self.rejecting = True
                self._flush_pending()
                self.notes.append(Note(self.stmt_line, self.stmt_col, f"{compound.reason}: the server rejects this "
                                       "statement and the rest of its packet, so innolint replays none of it",
                                       "parse-error", "warning", self.stmt_line + text.count("\n"), _excerpt(text)))
                return
            if not compound.complete:
                compound.feed(raw[self.fed :], self.fed, final=True)
            if compound.kind == BLOCK:
                self._emit_block(raw, compound)
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
            self.out.append(Statement(text, self.path, line, self.stmt_col, end_line, comments, executable, packet))
            return
        self.pending = (text, line, self.stmt_col, end_line, self.stmt_comments, executable, packet)
        self.pending_line = end_line if len(raw) == len(text) else line + raw.count("\n")

    def _emit_block(self, raw: str, block: Structure) -> None:
        """The statements a compound block outside a stored program runs (`linter.compound`), each
        at its place; for those it may not run as written (a branch, a loop, a handler), a note at
        that statement: replayed as if it ran once, or not replayed, the schema after it uncertain."""
        line0, column0 = self.stmt_line, self.stmt_col
        counted = [0, line0, -1]  # line breaks are counted up to this offset: its line, its line's last break

        def where(offset: int) -> tuple[int, int]:
            upto, line, last = counted
            if offset < upto:  # the constructs items name come before them: counted again from the start
                upto, line, last = 0, line0, -1
            breaks = raw.count("\n", upto, offset)
            if breaks:
                line += breaks
                last = raw.rfind("\n", upto, offset)
            counted[:] = [offset, line, last]
            return line, column0 + offset if last < 0 else offset - last

        self._flush_pending()
        text = raw.rstrip(_WS)
        end_line = line0 + text.count("\n")
        target = self.target
        if target is not None and not target.is_mariadb:
            self.rejecting = True
            self.notes.append(Note(line0, column0, "a compound statement (IF, CASE, a loop, BEGIN NOT ATOMIC) outside a "
                                   f"stored program: {target.label} runs these only in stored programs and rejects "
                                   "this one with the rest of its packet, so innolint replays none of it",
                                   "parse-error", "warning", end_line, _excerpt(text)))
            return
        if block.error is not None:
            self.rejecting = True
            at = where(min(max(block.error.at, 0), len(raw)))[0]
            reason = str(block.error).format(at=f"line {where(max(block.error.at, 0))[0]}")
            self.notes.append(Note(line0, column0, f"innolint cannot follow this compound statement ({reason}, line "
                                   f"{at}): nothing in it is replayed", "parse-error", "warning", end_line, _excerpt(text)))
            return
        first = True
        packet = self.packet
        if not packet:  # a block is one packet, whatever the delimiter
            self.packet_no += 1
            packet = self.packet_no
        for item in block.items:
            body = raw[item.start : item.end]
            if not body:
                continue
            if self.quoting:
                body = normalize(body, self.modes.flags)
            line, column = where(item.start)
            word = _FIRST_WORD(body)
            schema = word is not None and word.group().upper() in _SCHEMA_WORDS
            why = item.why.format(at=f"line {where(item.at)[0]}") if item.why is not None else None
            comments = item.comments
            if first and self.stmt_comments:
                comments = _last_comments(list(self.stmt_comments) + list(comments))
            first = False
            if item.replay:
                self.out.append(Statement(body, self.path, line, column, line + body.count("\n"), comments, None,
                                          packet))
                if body[:3] in _SET_WORDS:
                    self._follow_set(body, line, column)
                if why is not None and schema:
                    self.notes.append(Note(line, column, f"{why}; innolint replays it as if it ran once, so the schema "
                                           "after it is uncertain", "replay-error", "warning",
                                           line + body.count("\n"), _excerpt(body)))
            elif schema:
                self.notes.append(Note(line, column, f"not replayed: {why}", "replay-error", "warning",
                                       line + body.count("\n"), _excerpt(body)))

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
        self._flush_pending()
        self.notes.append(Note(
            self.stmt_line, self.stmt_col,
            f"statement of {size:,} characters is longer than the {self.max_statement:,} characters innolint reads of "
            "one statement: not parsed", "parse-error", "warning", end_line, _excerpt(head),
        ))

    # --- inside quotes and comments that cross a chunk boundary -------------------------------

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
