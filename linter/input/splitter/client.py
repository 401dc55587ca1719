"""The mysql client's commands: `DELIMITER`, the backslash commands (`\\g`, `\\u db`, `\\q` ...)
and the named ones alone on a line (`use db`, `exit`), read as the client reads them and followed
where they change what is sent: what the client knows of them (`CLIENT_COMMANDS`), how it reads
a command's argument (`client_argument`); the scanner (`linter.input.splitter.scanner`) follows
them where it meets them."""

from __future__ import annotations

import re

from linter.input.splitter.lexis import WS


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
