"""The fast lane: between statements, under the `;` delimiter, outside executable comments and
migration annotations, whole statements are taken one regex match each (`_LanePattern`), runs of
statements the caller skips are counted without being built, and what the lane read may be reused
from the span memory (`linter.input.splitter.span_memory`). `FastLane.read` stops at
anything else and leaves it to the general scanner, which agrees with it on every input
(tests/test_split_lanes.py)."""

from __future__ import annotations

from collections.abc import Callable
import re
from typing import TYPE_CHECKING

from linter.input.splitter.client import CLIENT_COMMANDS
from linter.input.splitter.lexis import (
    COMMAND_WORD,
    SET_WORD,
    SKIP_WORD,
    WS,
    comment_text,
    comment_texts,
    exec_open,
    last_comments,
    new_statement,
)
from linter.input.splitter.span_memory import SPAN_KEY, SPAN_SAMPLE, SPAN_TRIES, SpanMemory
from linter.input.statement import Statement

if TYPE_CHECKING:
    from linter.input.splitter.lexis import ExecVersions


#: The fast lane (see `_LanePattern`): between statements, under the `;` delimiter, outside
#: executable comments and migration annotations, whole statements are taken one regex match each.
#: A backslash outside quotes (a client command such as `\g`, see `CLIENT_COMMANDS`) stops it.
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
    r"|(?P<s>(?![dD][eE][lL][iI][mM][iI][tT][eE][rR][ \t])(?=[^ \t\n\r\f\v\-#/*;?])(?P<w>[A-Za-z_]*+)"
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

#: a run of skipped statements (`_LanePattern`): comment lines without `;` (so that counting `;`
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


class _LanePattern:
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


_lanes: dict[tuple[frozenset[str] | None, str], _LanePattern] = {}


def _fast_lane(skip_words: frozenset[str] | None, skip_pattern: str) -> _LanePattern:
    lane = _lanes.get((skip_words, skip_pattern))
    if lane is None:
        lane = _lanes[(skip_words, skip_pattern)] = _LanePattern(skip_words, skip_pattern)
    return lane


#: a line of a statement skipped by its first word that starts a DDL statement: a `;` may have been
#: left out before it (the server then refuses both), so the statement is built for the parser to
#: say so (`linter.parse.statement.glued_statement` decides, outside quotes and comments)
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
    when one of them is not `plain` (see `ExecVersions.plain`, whose answers are `known`): the
    general scanner reads it."""
    if buf.count("/*", start, ex) == 0:
        opening = exec_open(buf, ex).end()  # type: ignore[union-attr]
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


class FastLane:
    """The scanner's fast lane for plain dumps (`read`), with what it owns: its regex for the
    statements the caller skips (`_LanePattern`), the kinds of first words it met (`word_kind`),
    the span memory of what it read (`SpanMemory`), and its look-ahead for DELIMITER lines and
    directives in the current buffer (`forget`, when the buffer changes). It reads from a position
    between statements under the `;` delimiter and tells the scanner where it stopped; the
    scanner decides when it may run (`Splitter.fast_ok`) and follows what it reports (statements
    appended to `out`, SET statements and directive lines given back to it)."""

    def __init__(
        self, path: str, skip_words: frozenset[str] | None, skip_pattern: str, unless: str, max_statement: int,
        client: bool, versions: ExecVersions, *, remember: bool = True,
    ) -> None:
        self.path = path
        self.skip_words = skip_words
        self.skip_pattern = skip_pattern
        self.unless = unless
        self.max_statement = max_statement
        self.client = client  # a client command's name is a word the lane stops at (`word_kind`)
        self.versions = versions  # which executable comments run (shared with the scanner)
        self.word_kinds: dict[str, int] = {}  # first words as written: see `word_kind`
        self.memory = SpanMemory()  # what it read (`remember` off: tests compare it with the regex alone)
        self.remember = remember
        self.delimiter_at = self.directive_at = self.horizon = -1  # see `read`

    def forget(self) -> None:
        """The buffer changed: the look-ahead is found again in the new one."""
        self.delimiter_at = self.directive_at = self.horizon = -1

    def word_kind(self, word: str) -> int:
        """What the fast lane needs to know of a statement's first word (as written): whether the
        caller skips such statements (`skip_words`), whether it names a client command (in files
        the client runs), whether it is SET (`SKIP_WORD`, `COMMAND_WORD`, `SET_WORD`)."""
        upper = word.upper()
        kind = (SKIP_WORD if self.skip_words is not None and upper in self.skip_words else 0) | (
            COMMAND_WORD if self.client and word.lower() in CLIENT_COMMANDS else 0) | (
            SET_WORD if upper == "SET" else 0)
        if len(self.word_kinds) < 256:
            self.word_kinds[word] = kind
        return kind

    def read(
        self, buf: str, pos: int, lines: tuple[int, int, int], comments: list[str], hold: bool, out: list[Statement],
        follow_set: Callable[[str, int, int], int], on_directive: Callable[[int, str], None],
    ) -> tuple[int, int, int, int, int] | None:
        """Take the statements the fast lane can (see `_LanePattern`) from `buf[pos:]`, appending
        them to `out`. `lines`: the scanner's line count (counted up to, the line there, where it
        began); `comments`: those waiting for the next statement, `hold` whether one holds
        `unless`; `follow_set` follows a SET statement it read (and says the session's quoting
        after it), `on_directive` takes a comment line holding `unless` with its line. None when
        it took nothing; else where it stopped (position, the line count there) and how many
        statements it counted without building them."""
        n = len(buf)
        path = self.path
        cnt, line, ls = lines
        comments: list[str] | None = comments  # type: ignore[no-redef]
        skipped = 0
        quoting = 0
        versions = self.versions
        plain_exec = versions.plain
        lane = _fast_lane(self.skip_words, self.skip_pattern)
        g_run, g_lead, g_xv, g_xt, g_xw, g_s, g_w, g_ex, g_semi, g_nl = lane.groups
        match = lane.match
        kinds = self.word_kinds
        plain_execs = versions.known
        checks_exec = versions.target is not None
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
        memory = self.memory
        spans = memory.spans if self.remember else None
        misses = memory.misses
        held = -1
        if comments and unless and hold:
            held = pos  # the comments waiting for the next statement hold one: it is built whatever it is
            spans = None  # (and nothing is reused or remembered in this call)
        while True:
            if spans is not None:
                key = buf[pos : pos + SPAN_KEY]
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
                                                                                      plain_execs, plain_exec)
                                    raw = unwrapped.rstrip(WS) if unwrapped is not None else ""
                                    if unwrapped is None:
                                        end = -1
                                    elif raw:
                                        text = head_text + raw
                                        lines = head_lines + raw.count("\n")
                                    else:
                                        text = head_text.rstrip(WS)
                                        lines = text.count("\n")
                                    nl_span = nl_before + head_lines + nl_tail
                                    if len(text) > max_statement:
                                        end = -1
                        if end >= 0:
                            skipped += counted
                            if cnt < pos:
                                k = buf.count("\n", cnt, pos)
                                if k:
                                    line += k
                                    ls = buf.rfind("\n", cnt, pos) + 1
                            if text is not None:
                                start = pos + offset
                                out.append(new_statement(Statement, (
                                    text, path, line + nl_before, column if nl_before else start - ls + 1,
                                    line + nl_before + lines,
                                    last_comments(tuple(comments) + found) if comments and not after_run else found,
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
                        checks_exec and buf.find("/*", pos, run_end) >= 0 and not versions.plain_run(buf, pos, run_end)) or (
                        "sql_mode" in buf[pos:run_end].lower()):
                    m = lane.plain(buf, pos)  # the run holds a directive or passes a DELIMITER line: one by one
                    one_by_one = True
                else:
                    counted = buf.count(";", pos, run_end)
                    skipped += counted
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
                    info = self.word_kind(word)
                if info & COMMAND_WORD and (buf.find("\n", start, semi) >= 0 or word.lower() not in ("use", "go", "ego")):
                    break  # may be a client command alone on its line (`use db`), or one the client runs at
                    # its delimiter (`connect db;`, `exit;`): see `_try_command`, `_command_at_delimiter`
            else:  # a one-line executable comment, or nothing
                xt = m.group(g_xt)  # type: ignore[union-attr]
                if not xt or len(xt) > max_statement:
                    break  # no statement at all, an empty executable comment, or one to take apart
                plain = plain_execs.get(m.group(g_xv))  # type: ignore[union-attr]
                if not (plain or plain is None and plain_exec(m.group(g_xv))):  # type: ignore[union-attr]
                    break
                word = m.group(g_xw)  # type: ignore[union-attr]
                info = kinds.get(word)
                if info is None:
                    info = self.word_kind(word)
            # a SET that may change sql_mode is built, followed and never reused (see `_follow_set`)
            sets_mode = info & SET_WORD and "sql_mode" in buf[at:end].lower()
            # what was read here may be reused if nothing in it depended on where the next
            # DELIMITER line or directive is
            remember = spans is not None and not one_by_one and end <= directive and end <= limit and not sets_mode
            if remember:
                # in text that does not repeat, remembering costs a third of the time: after a long
                # run of spans never met again, only one in `SPAN_SAMPLE` is kept (a hit resets it)
                misses += 1
                remember = misses <= SPAN_TRIES or not misses % SPAN_SAMPLE
            if info & SKIP_WORD and end <= directive and at != held and not sets_mode and (
                    start < 0 or _ddl_line(buf, start, semi) is None):
                skipped += 1
                comments = None
                if remember:
                    memory.remember(key, buf, at, end, end, counted + 1, None, at, False, (), None, 0)
                pos = end
                continue
            if start >= 0:
                ex = m.start(g_ex)  # type: ignore[union-attr]
                unwrapped = buf[start:semi] if ex < 0 else _unwrapped(buf, start, semi, ex, m.end(g_ex),  # type: ignore[union-attr]
                                                                      plain_execs, plain_exec)
                if unwrapped is None:
                    break
                text = unwrapped.rstrip(WS)
                executable = None
            else:
                text = xt.rstrip(WS)
                start = m.start(g_xt)  # type: ignore[union-attr]
                opening = m.group(g_xv)  # type: ignore[union-attr]
                executable = _versions.get(opening)
                if executable is None:
                    executable = opening[1:] if opening[0] == "!" else opening
                    if len(_versions) < 1024:
                        _versions[opening] = executable
            lead = m.group(g_lead)  # type: ignore[union-attr]
            if lead and unless and unless in lead:
                lead_at = m.start(g_lead)  # type: ignore[union-attr]
                on_directive(line + buf.count("\n", cnt, lead_at), lead)
            if lead:
                found = _lead_notes.get(lead)
                if found is None:
                    found = last_comments([t for t in map(comment_text, comment_texts(lead)) if t])
                    if len(_lead_notes) < 4096 and len(lead) < 512:
                        _lead_notes[lead] = found
            else:
                found = ()
            after_run = at != pos
            notes = last_comments(tuple(comments) + found) if comments and not after_run else found
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
                memory.remember(key, buf, at, cut, end, counted, text, start, after_run, found, executable, lines)
            k = buf.count("\n", cnt, start)
            if k:
                line += k
                ls = buf.rfind("\n", cnt, start) + 1
            cnt = start
            out.append(new_statement(Statement, (text, path, line, start - ls + 1, line + lines, notes, executable, 0)))
            if info & SET_WORD:
                quoting = follow_set(text, line, start - ls + 1)
            if lines:
                cnt = start + len(text)
                ls = buf.rfind("\n", start, cnt) + 1
                line += lines
            pos = end
            if sets_mode and quoting:
                break  # a SET changed the quoting: the text after it is the general scanner's
        self.delimiter_at, self.directive_at, self.horizon = limit, directive, horizon
        memory.misses = misses
        if comments is not None:
            return None
        return pos, cnt, line, ls, skipped  # took at least one statement
