"""The mysql client's commands: `DELIMITER`, the backslash commands (`\\g`, `\\u db`, `\\q` ...)
and the named ones alone on a line (`use db`, `exit`), read as the client reads them and followed
where they change what is sent: what the client knows of them (`CLIENT_COMMANDS`), how it reads
a command's argument (`client_argument`), and which command a text holds: a DELIMITER line
(`delimiter_line`), a command by name alone on a line (`named_command`), a backslash command
(`backslash_command`), a command sent at the delimiter (`command_at_delimiter`), whether the client
quits (`quits`). These read text and say what is there; the scanner (`linter.input.splitter.scanner`)
asks them where it meets a command and does what the command does."""

from __future__ import annotations

from typing import NamedTuple
import re

from linter.input.splitter.lexis import HSPACE_RUN, UNDECIDED, WS, run_end


#: The mysql client's commands (MariaDB 10.11's `help`): name -> (letter, whether it takes an
#: argument). `\g` and `\G` send the statement typed so far, `\c` throws it away, `\q` stops
#: the client; `\u db` changes the current database like USE, `\d //` the delimiter like
#: DELIMITER; the rest only change the client's output. A command with an argument takes the rest
#: of its line up to the delimiter (which it consumes) as its parameters. Alone on a line before
#: any statement text, a command may also be written by its name (`use db`, `exit`, `source f`),
#: the line then holding neither the delimiter nor `\g`. Checked against the real client in
#: tests/test_split_commands.py.
CLIENT_COMMANDS = {
    "?": ("?", True), "charset": ("C", True), "clear": ("c", False), "connect": ("r", True),
    "delimiter": ("d", True), "edit": ("e", False), "ego": ("G", False), "exit": ("q", False),
    "go": ("g", False), "help": ("h", True), "nopager": ("n", False), "notee": ("t", False),
    "nowarning": ("w", False), "pager": ("P", True), "print": ("p", False), "prompt": ("R", True),
    "quit": ("q", False), "rehash": ("#", False), "sandbox": ("-", False), "source": (".", True),
    "status": ("s", False), "system": ("!", True), "tee": ("T", True), "use": ("u", True),
    "warnings": ("W", False),
}
COMMAND_LETTERS = {letter: takes for letter, takes in CLIENT_COMMANDS.values()}
COMMAND_INITIALS = frozenset(c for name in CLIENT_COMMANDS for c in (name[0].lower(), name[0].upper()))
first_word_end = re.compile(r"[^ \t\r]*").match
#: how much of a line a named command is looked for in, and how much of its line a command's
#: argument is read from (the client copies at most 512 characters of it)
COMMAND_LINE = 4096
ARGUMENT_CHARS = 512


def client_argument(line: str, short: bool) -> str | None:
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


def quoted_name(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


#: how far blanks after the `;` of a `use db;` are looked at for the delimiter (`_use_alone`)
USE_LOOKAHEAD = 4096

#: what `Splitter._backslash` found
CMD_TEXT, CMD_MORE, CMD_DONE, CMD_MODE = range(4)


def quits(text: str) -> bool:
    """Whether the client, having sent `text` alone (as the whole of what it sends at its
    delimiter), quits: `exit` or `quit` with nothing but comments after it. The server refuses it
    (1064), then the client stops reading (MariaDB 10.11's client; `exit now` it only sends)."""
    if text[:4].lower() not in ("exit", "quit") or len(text) > 512:
        return False
    i, n = 4, len(text)
    while i < n:
        c = text[i]
        if c in WS:
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


class DelimiterLine(NamedTuple):
    """A `DELIMITER xx` line: its word starts at buffer index `start`, the part of the line read
    ends at `end` (its newline, or `COMMAND_LINE` characters on), `argument` is the delimiter
    the client reads there, and `cut` says the line goes on past what is read (ignored)."""

    start: int
    end: int
    argument: str | None
    cut: bool


def delimiter_line(buf: str, start: int, eof: bool, taken: bool) -> DelimiterLine | bool | None:
    """The `DELIMITER xx` client command on the line starting at buffer index `start`, if there
    is one: a `DelimiterLine`, False when the line is none, `UNDECIDED` when more text is needed
    to tell. `taken`: the client takes the line as a command where it is one (the mariadb client
    does not while a statement is typed: the scanner says). The argument is the command's as the
    client reads it (its first word, or a quoted one: `DELIMITER '//'`; None: a bare DELIMITER,
    which the client rejects); only its line's first `COMMAND_LINE` characters are looked at."""
    n = len(buf)
    q = run_end(HSPACE_RUN, buf, start)
    if q - start > COMMAND_LINE:
        return False
    if q >= n:
        return UNDECIDED if not eof else False
    if buf[q] not in "dD":
        return False
    if n - q < 10 and not eof:
        return UNDECIDED
    if buf[q : q + 9].lower() != "delimiter" or q + 9 >= n or buf[q + 9] not in " \t" or not taken:
        return False
    end = buf.find("\n", q + 9, q + COMMAND_LINE)
    if end < 0:
        if not eof and n - q < COMMAND_LINE:
            return UNDECIDED
        end = min(n, q + COMMAND_LINE)
    argument = client_argument(buf[q : min(end, q + 255)].rstrip("\r"), short=False)
    # the line goes on past what is read: its newline is not among the characters read, and text
    # follows them or may follow in the next chunk (the buffer may end right there)
    return DelimiterLine(q, end, argument, buf.find("\n", q, end + 1) < 0 and (end < n or not eof))


class Command(NamedTuple):
    """A client command found in the text: its `letter` (`CLIENT_COMMANDS`), its `argument`,
    how it was written (`name`: `use`, `\\u`), and the buffer index its text ends at (`end`)."""

    letter: str
    argument: str | None
    name: str
    end: int


def named_command(buf: str, start: int, eof: bool, delimiter: str) -> Command | bool | None:
    """A client command written by its name alone on the line starting at buffer index `start`
    (see `CLIENT_COMMANDS`), the line then holding neither `delimiter` nor `\\g`: a `Command`
    ending at the line's end (its newline left), False when the line is none, `UNDECIDED` when
    more text is needed. A line longer than `COMMAND_LINE` characters is not taken as one."""
    n = len(buf)
    end = buf.find("\n", start, start + COMMAND_LINE)
    if end < 0:
        if not eof and n - start < COMMAND_LINE:
            return UNDECIDED
        if n - start >= COMMAND_LINE:
            return False
        end = n
    line = buf[start:end].rstrip("\r")
    word_end = first_word_end(buf, start, end).end()  # type: ignore[union-attr]
    name = buf[start:word_end].lower()
    command = CLIENT_COMMANDS.get(name)
    if command is None or name == "delimiter" or "\\g" in line or (delimiter and delimiter in line):
        return False
    letter, takes = command
    argument = client_argument(line, short=False) if takes else None
    if line[word_end - start :].strip(" \t") and argument is None:
        return False  # words after a command that takes none (`quit now`): SQL
    return Command(letter, argument, name, end)


#: what `backslash_command` found: a line's end the client drops (the backslash alone), text
#: (`\\N`, or a letter the client does not know, which it keeps too), a command
BACKSLASH_EOL, BACKSLASH_TEXT = "\n", ""


def backslash_command(buf: str, p: int, eof: bool) -> Command | str | None:
    """What a backslash outside quotes and comments at buffer index `p` is to the client: a
    `Command` (its `end`: after its letter; the argument is read from the rest of its line, up to
    `ARGUMENT_CHARS` characters), `BACKSLASH_TEXT`, `BACKSLASH_EOL` (a backslash ending a line,
    which the client drops), or `UNDECIDED` when more text is needed."""
    n = len(buf)
    if p + 1 >= n:
        return UNDECIDED if not eof else BACKSLASH_TEXT
    c = buf[p + 1]
    if c == "\n" or c == "\r" and buf.startswith("\n", p + 2):
        return BACKSLASH_EOL
    if c == "N" or c not in COMMAND_LETTERS:
        return BACKSLASH_TEXT
    argument = None
    if COMMAND_LETTERS[c]:
        end = buf.find("\n", p, p + ARGUMENT_CHARS)
        if end < 0:
            if not eof and n - p < ARGUMENT_CHARS:
                return UNDECIDED
            end = min(n, p + ARGUMENT_CHARS)
        argument = client_argument(buf[p:end].rstrip("\r"), short=True)
    return Command(c, argument, "\\" + c, p + 2)


def use_at_delimiter(raw: str, delimiter: str) -> str | None:
    """`use db;` sent alone at a `delimiter` other than `;` (and outside a packet): the client
    runs it as its `use` command, whose argument keeps the `;` (`db;`, checked with MariaDB 10.11's
    client; without a `;` the server's USE names the same database). The argument when it is so,
    else None."""
    if delimiter == ";" or raw[:3].lower() != "use" or raw[3:4] not in (" ", "\t", "\n"):
        return None
    argument = client_argument(raw[: ARGUMENT_CHARS].rstrip("\r\n"), short=False)
    return argument if argument is not None and argument.endswith(";") else None


def command_at_delimiter(raw: str, delimiter: str) -> Command | None:
    """The client command that the text sent at the client's `delimiter` names (outside a packet,
    whose statements the client sends whole), which the client runs instead of sending it
    (mysql.cc's `add_line` asks `find_command` of what was typed there): its first word, up to a
    space or a tab, is a command's name, and what follows is nothing or, for a command that takes
    one, its argument (`connect t_b;` reconnects into t_b; `status;`, `?;` print). None: SQL, or a
    command whose effect the text has as SQL too (`use db;` under `;`, the server's USE), or one
    followed elsewhere (`go`, `ego`, `exit`, `quit`: `quits`; DELIMITER). Its `end` is 0."""
    text = raw[:ARGUMENT_CHARS].lstrip(" \t\n\r\f\v")
    if "\\g" in text:
        return None
    word = re.match(r"[^ \t]*", text).group()  # type: ignore[union-attr]
    name = word.lower()
    command = CLIENT_COMMANDS.get(name)
    if command is None or name in ("go", "ego", "exit", "quit", "delimiter"):
        return None
    letter, takes = command
    rest = text[len(word):].strip(" \t\n\r\f\v")
    argument = client_argument(text.rstrip("\r\n"), short=False) if takes and rest else None
    if rest and argument is None:
        return None  # words after a command that takes none: SQL
    if name == "use":
        argument = use_at_delimiter(raw, delimiter)
        return Command("u", argument, word, 0) if argument is not None else None
    return Command(letter, argument, word, 0)
