"""The lexical pieces the splitter's parts share: whitespace and quoting (`_QUOTINGS`, which
`SET sql_mode` switches), executable comments (`executable_reading`: whether `/*!50100 ... */`
runs on the target), comments kept for directives and their bounds, the scanner's modes, the
run regex (`run_pattern`: what swallows statement text up to where something can happen). See
`linter.input.split` for the picture."""

from __future__ import annotations

from collections.abc import Callable
import re
from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from linter.schema.target import Target


#: the most characters of one statement the splitter holds (1 MiB). Real DDL is far smaller (the
#: shared corpus's largest CREATE TABLE has 4.2 KB; a table at InnoDB's limits, 1017 columns with
#: comments or 8192 partitions as mysqldump writes them, stays under 0.6 MB), while the parser's
#: memory grows with a statement's tokens (a 1 MB string literal in a CREATE TABLE peaks at about
#: 430 MB RSS). A longer statement is not held: it is counted when the caller skips its first
#: word (a dump's INSERT), else reported (`Note`) with its size and the cap, and not parsed.
MAX_STATEMENT_CHARS = 1 << 20

#: how much of a statement over the cap is kept, to name it
OVER_HEAD = 4096
FIRST_WORD = re.compile(r"[A-Za-z_]+").match


def excerpt(text: str, width: int = 100) -> str:
    """The first line of `text`, cut to `width` characters (as diagnostics show statements)."""
    first = text.strip(" \t\n\r\f\v").split("\n", 1)[0].rstrip("\r")
    return first if len(first) <= width else first[: width - 3] + "..."


#: what a statement's first word may be to the fast lane (`FastLane.word_kind`)
SKIP_WORD, COMMAND_WORD, SET_WORD = 1, 2, 4
#: the first three characters of a statement that may be a SET (see `Splitter._follow_set`)
SET_WORDS = frozenset(a + b + c for a in "sS" for b in "eE" for c in "tT")

#: the whitespace of MySQL's lexer; `\r` is plain whitespace and lines are counted on `\n` only
WS = " \t\n\r\f\v"
WS_RUN = re.compile(r"[ \t\n\r\f\v]*")
HSPACE_RUN = re.compile(r"[ \t]*")


def run_end(run: re.Pattern[str], buf: str, i: int) -> int:
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
#: how quotes read, by `Splitter.quoting` (bit 1: NO_BACKSLASH_ESCAPES, bit 2: ANSI_QUOTES): the
#: whole-quote patterns of `run_pattern`, and the bodies of `'` and `"` quotes
_QUOTINGS = {0: (_SQ, _DQ), 1: ("'[^']*'", '"[^"]*"'), 2: (_SQ, '"[^"]*"'), 3: ("'[^']*'", '"[^"]*"')}
BODIES = {
    0: _QUOTE_BODY, 1: _PLAIN_BODY, 2: {"'": _QUOTE_BODY["'"], '"': _PLAIN_BODY['"']}, 3: _PLAIN_BODY,
}

#: `/*!50100`, `/*!`, `/*M!100301`: the opening of an executable comment and its version
exec_open = re.compile(r"/\*(M?!)([0-9]{0,6})").match
#: the openings of the executable comments in a text, without their `/*` ("!40101", "M!100301")
_EXEC_OPENINGS = re.compile(r"/\*(M?![0-9]{0,6})").findall


def blanked(text: str) -> str:
    """`text` with every character but line breaks turned into a space."""
    return "\n".join(" " * len(line) for line in text.split("\n"))
#: look-ahead needed to decide what `/` starts: `/*M!`, six version digits and one more
SLASH_LOOKAHEAD = 12


def executable_reading(target: Target | None, bang: str, digits: str) -> tuple[str, bool]:
    """How a server of `target` reads an executable comment opened by `/*` + `bang` ("!" or "M!")
    and followed by `digits` (up to six): the digits it takes as the version, and whether it runs
    the comment's content. Checked on MariaDB 10.11 (tests/test_split_versions.py):
    - a version is five digits (MariaDB, and MySQL from 8.1, also read six); with fewer, the
      digits are text and the comment always runs; a sixth digit a server does not read is text;
    - `/*!NNNNN` runs on a server whose version number is at least NNNNN, except that MariaDB
      ignores MySQL's 5.7 to 9.x numbers (50700 to 99999: `/*!80023 ...*/` and `/*!99999 ...*/` do not
      run there); `/*M!NNNNNN` runs only on MariaDB, by the same rule without the exception;
    - a target stands for the newest release of its line (mysql-8.0 is 8.0.99, mariadb-11.x 11.99.99),
      a full version for itself (mysql-8.0.20 runs no `/*!80023 */`).
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
    major, minor, patch = target.newest
    server = major * 10000 + minor * 100 + patch
    if bang == "M!":
        return version, mariadb and number <= server
    if mariadb and 50700 <= number <= 99999:
        return version, False
    return version, number <= server

class ExecVersions:
    """Which executable comments run on the target, as the scanner and the fast lane ask it:
    `marker` (an opening's version and whether it runs), `plain` (whether the fast lane may unwrap
    it), `plain_run`. It owns the target and its answers for `plain` (`known`, at most 256; the
    openings found plain in `plain_set`)."""

    __slots__ = ("target", "known", "plain_set")

    def __init__(self, target: Target | None) -> None:
        self.target = target
        self.known: dict[str, bool] = {}
        self.plain_set: set[str] = set()

    def marker(self, m: re.Match[str]) -> tuple[int, str, bool]:
        """For an executable comment's opening (`exec_open`): where its marker ends (its
        version digits included), its version as `Statement.executable` gives it ("50100",
        "M!100301"), and whether it runs on the target (`executable_reading`)."""
        bang, digits = m.group(1), m.group(2)
        version, runs = executable_reading(self.target, bang, digits)
        return m.start(2) + len(version), version if bang == "!" else bang + version, runs

    def plain(self, opening: str) -> bool:
        """Whether the fast lane may unwrap the executable comment opened by `/*` + `opening`
        ("!50100", "M!100301"): it runs on the target and all its digits are its version."""
        known = self.known.get(opening)
        if known is None:
            bang = "M!" if opening[:1] == "M" else "!"
            digits = opening[len(bang) :]
            version, runs = executable_reading(self.target, bang, digits)
            known = runs and version == digits
            if len(self.known) < 256:
                self.known[opening] = known
                if known:
                    self.plain_set.add(opening)
        return known

    def plain_run(self, buf: str, start: int, end: int) -> bool:
        """Whether every executable comment in `buf[start:end]` is `plain`."""
        if buf.find("/*", start, end) < 0:
            return True
        openings = _EXEC_OPENINGS(buf, start, end)
        return self.plain_set.issuperset(openings) or all(map(self.plain, openings))


#: after `--`, these make it a comment in a file a migration tool sends itself: MySQL's whitespace
#: rule, plus a third dash (decoration lines such as `-----------` are comments to the tools that
#: run such files)
DASH_COMMENT_FOLLOW = frozenset(WS + "-")
#: and in a file the mysql client runs, where the client holds a statement: the server's rule alone
#: (the client sends `---` there, and the server reads minus signs); where it holds none, `--`
#: is a comment whatever follows (`client_comment_run`)
CLIENT_DASH_FOLLOW = frozenset(WS)

#: fast path between statements: a run of whole `--`/`#` comment lines (and the blank space after)
comment_run = re.compile(r"(?:(?:--(?:[ \t\r\f\v\-][^\n]*+)?|#[^\n]*+)\n[ \t\n\r\f\v]*+)++").match
#: the same where the mysql client holds nothing of a statement (`Splitter._gap_special`): there
#: `--` starts a comment whatever follows it. The client's add_line (client/mysql.cc, MariaDB's and
#: MySQL's alike) takes `--` as a comment when the third character is whitespace or the line's end
#: (the server's rule, MySQL manual 11.7 "Comments") or when its buffer is empty and nothing of the
#: line is kept yet ("we also ignore lines starting with '--', even if there isn't a whitespace
#: after"): so `--DROP TABLE t;` alone on a line, after leading blanks, after a statement's `;` or
#: after a plain `/* */` comment is dropped, while inside a statement (an earlier line kept, or a
#: packet not sent yet under another delimiter), a string or an executable comment `--x` is sent
#: (tests/test_split_dashes.py asks the real client)
client_comment_run = re.compile(r"(?:(?:--[^\n]*+|#[^\n]*+)\n[ \t\n\r\f\v]*+)++").match
#: and where the client holds a statement (a packet not sent, an executable comment it keeps)
held_comment_run = re.compile(r"(?:(?:--(?:[ \t\r\f\v][^\n]*+)?|#[^\n]*+)\n[ \t\n\r\f\v]*+)++").match
comment_texts = re.compile(r"(?:--|#)([^\n]*)").findall
#: fast path between statements: a one-line statement wholly inside an executable comment, ended
#: by `;` (mysqldump writes hundreds of thousands of `/*!40101 SET ... */;`)
exec_line = re.compile(
    r"/\*(M?!)([0-9]{0,6}+)([^;'\"`#/*\-\n\\]*+(?:`[^`\n]*+`[^;'\"`#/*\-\n\\]*+)*+)\*/[ \t\r\f\v]*+;"
).match

#: Comments are kept for the directives they may hold (`-- innolint: ...`), within bounds: of the
#: comments before a statement only the last `_COMMENTS_KEPT` are its own (a directive binds to
#: the statement just after it), and of each comment only its first `COMMENT_CHARS` characters
#: are read. Without the bounds, a file of comments alone held every one of them in memory and
#: looked through all of them again for each chunk (10M comment lines took 54 s).
_COMMENTS_KEPT = 256
COMMENT_CHARS = 4096


def add_comment(comments: list[str], text: str) -> None:
    """Append a comment's text to `comments`, keeping the list within twice `_COMMENTS_KEPT`
    (the last `_COMMENTS_KEPT` are what counts: `last_comments`)."""
    comments.append(text)
    if len(comments) > 2 * _COMMENTS_KEPT:
        del comments[:-_COMMENTS_KEPT]


def last_comments(comments: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(comments) if len(comments) <= _COMMENTS_KEPT else tuple(comments[-_COMMENTS_KEPT:])


def comment_text(raw: str) -> str:
    """A comment's text as kept: its first `COMMENT_CHARS` characters, without surrounding whitespace."""
    return raw[:COMMENT_CHARS].strip(WS)


#: Under a DELIMITER other than `;`, the mysql client sends everything up to the delimiter in one
#: packet and the server runs each `;`-separated statement of it in turn (a multi-statement),
#: except that a compound statement keeps its `;`s: `linter.input.splitter.compound` reads where one ends.
#: how much of a statement's start `compound.head` needs at most
COMPOUND_PREFIX = 2000
#: first words of statements that change the schema, or the current database: what a note says
#: about a statement of a compound block is said about these only
SCHEMA_WORDS = frozenset({"CREATE", "ALTER", "DROP", "RENAME", "USE"})


#: modes of the scanner between chunks
CODE, SQUOTE, DQUOTE, BTICK, BLOCK_COMMENT, LINE, SKIPEXEC, PARAMS, CLIENTDROP = range(9)
QUOTE_MODES = {"'": SQUOTE, '"': DQUOTE}
MODE_QUOTES = {SQUOTE: "'", DQUOTE: '"'}

#: a DELIMITER check that cannot be decided before more text arrives
UNDECIDED = None
#: what `Splitter._gap_special` found
GAP_NEXT, GAP_STATEMENT, GAP_MODE, GAP_MORE = range(4)

Matcher = Callable[[str, int], "re.Match[str] | None"]


def run_pattern(delimiter: str, in_exec: bool, client: bool, quoting: int, packet: bool = False) -> Matcher:
    """The regex that consumes statement text that cannot end or change the statement.

    It swallows plain text and complete quoted strings in one C-level call and stops where
    Python must look: the delimiter's first character, a quote not closed in the buffer, a
    possible comment opener, `*/` inside an executable comment, or a line that may start with
    DELIMITER. Every look-ahead needs a real character, so the match also stops before anything
    whose meaning the next chunk could change. `delimiter` is "" inside an annotated block (a
    format's `begin` to `end`: no delimiter, no DELIMITER command). With `client`, a backslash (a client command) stops it too;
    `quoting` says how strings read (`_QUOTINGS`); with `packet` (a `Segment` split as a packet),
    a `;` stops it though there is no delimiter.
    """
    d0 = delimiter[:1]
    stops = set("'\"`-#/") | {d0} - {""}
    if delimiter:
        stops.add("\n")
    if delimiter or packet:
        stops.add(";")  # ends a statement of a multi-statement (see `linter.input.splitter.compound`)
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


run_cache: dict[tuple[str, bool, bool, int, bool], Matcher] = {}
#: builds a Statement from a tuple without the keyword-argument machinery of its constructor
new_statement = tuple.__new__
