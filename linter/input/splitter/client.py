"""The mysql client's commands: `DELIMITER`, the backslash commands (`\\g`, `\\u db`, `\\q` ...)
and the named ones alone on a line (`use db`, `exit`), read as the client reads them and followed
where they change what is sent (`_ClientCommands`)."""

from __future__ import annotations

import re

from linter.input.splitter.lexis import _CODE, _COMPOUND_PREFIX, _HSPACE_RUN, _PARAMS, _UNDECIDED, _WS_RUN, _run_end
from linter.input.statement import Note, Statement


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


#: how far blanks after the `;` of a `use db;` are looked at for the delimiter (`_use_alone`)
_USE_LOOKAHEAD = 4096

#: what `_Splitter._backslash` found
_CMD_TEXT, _CMD_MORE, _CMD_DONE, _CMD_MODE = range(4)


class _ClientCommands:
    """The client's commands met while scanning: DELIMITER lines, backslash commands, named commands
    alone on a line, and their parameters."""

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
        open_statement = self.in_stmt or self.output.packet_open or self.client_text
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
        self.output.flush_pending()
        if open_statement:
            self.output.notes.append(Note(line, column, "DELIMITER while a statement is not ended: the mysql client ends it "
                                   "here, the mariadb client would send this line to the server as part of it",
                                   "parse-error", "info"))
        if "\\" in argument:
            self.output.notes.append(Note(line, column, "the client rejects a delimiter holding a backslash: the delimiter "
                                   f"stays {self.delimiter!r}", "parse-error", "warning"))
        else:
            self.delimiter = argument
            self._set_matchers()
        self.output.packet_open = self.output.rejecting = self.client_text = False
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
        self.output.flush_pending()
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
            self.output.packet_open = self.output.rejecting = self.client_text = False
            self.refused = None  # (what was sent alone took its refusal with it)
            if c == "q":
                self._run_command("q", None, p, "\\q")
                return _CMD_MODE
            return _CMD_DONE
        if c == "c":
            if self.in_stmt:
                self._drop_stmt()
            if self.output.packet_open:
                quoting = self.output.drop_packet(*self._where(p), self.modes)
                if quoting is not None and quoting != self.quoting:  # the quoting before the packet
                    self.quoting = quoting
                    self._set_matchers()
            self.pos = p + 2
            self.output.packet_open = self.output.rejecting = self.client_text = False
            self.refused = None
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

    def _run_command(self, letter: str, argument: str | None, at: int, written: str,
                     where: tuple[int, int] | None = None) -> None:
        """What a client command does to the schema, or to what innolint can follow; it was
        written at buffer index `at`, or at (line, column) `where`."""
        if letter == "q":
            line, column = where or self._where(at)
            self.stop_at = (line, column, f"`{written}`")
            self.stopped = True
        elif letter in "ur" and argument:
            line, column = where or self._where(at)
            self.output.flush_pending()
            if argument.endswith(";"):  # (`USE db;` under another delimiter, or `\u db;`: fuzz seed 401)
                self.output.notes.append(Note(line, column, f"the client takes {argument!r}, with its `;`, for the database's "
                                       "name: unless a database of that name exists, it fails (error 1049) and the "
                                       "client stays in its database, as innolint takes it to; from here on the "
                                       "schema may differ from the server's if one does", "parse-error", "warning"))
                return
            use = Statement(f"USE {_quoted_name(argument)}", self.path, line, column, line, (), None)
            self.output.before_packet(use, None if letter != "r" else Note(
                line, column, f"`{written}` reconnects; innolint takes it for the same server, now in database "
                f"{argument}", "parse-error", "info"))
        elif letter == "d" and argument and "\\" not in argument:
            self.delimiter = argument
            self._set_matchers()
        elif letter in ".!":
            line, column = where or self._where(at)
            what = "runs another file" if letter == "." else "runs a shell command"
            self.output.notes.append(Note(line, column, f"`{written}` {what} here; innolint does not follow it, so what it "
                                   "does to the schema is not replayed", "parse-error", "warning"))

    def _use_at_delimiter(self, raw: str) -> str | None:
        """`use db;` sent alone at a delimiter other than `;`: the client runs it as its `use`
        command, whose argument keeps the `;` (`db;`, checked with MariaDB 10.11's client; without
        a `;` the server's USE names the same database). The argument when it is so, else None."""
        if self.delimiter == ";" or self.output.packet_open or raw[:3].lower() != "use" or raw[3:4] not in (" ", "\t", "\n"):
            return None
        argument = _client_argument(raw[: _ARGUMENT_CHARS].rstrip("\r\n"), short=False)
        return argument if argument is not None and argument.endswith(";") else None

    def _command_at_delimiter(self, raw: str) -> tuple[str, str | None, str] | None:
        """The client command that the text sent at the client's delimiter names, which the client
        runs instead of sending it (mysql.cc's `add_line` asks `find_command` of what was typed
        there): its first word, up to a space or a tab, is a command's name, and what follows is
        nothing or, for a command that takes one, its argument (`connect t_b;` reconnects into
        t_b; `status;`, `?;` print). (letter, argument, name), or None: SQL, or a command whose
        effect the text has as SQL too (`use db;` under `;`, the server's USE), or one followed
        elsewhere (`go`, `ego`, `exit`, `quit`: `_quits`; DELIMITER)."""
        if self.output.packet_open:
            return None  # (a packet's statements are the server's: the client sends the packet whole)
        text = raw[:_ARGUMENT_CHARS].lstrip(" \t\n\r\f\v")
        if "\\g" in text:
            return None
        word = re.match(r"[^ \t]*", text).group()  # type: ignore[union-attr]
        name = word.lower()
        command = _CLIENT_COMMANDS.get(name)
        if command is None or name in ("go", "ego", "exit", "quit", "delimiter"):
            return None
        letter, takes = command
        rest = text[len(word):].strip(" \t\n\r\f\v")
        argument = _client_argument(text.rstrip("\r\n"), short=False) if takes and rest else None
        if rest and argument is None:
            return None  # words after a command that takes none: SQL
        if name == "use":
            argument = self._use_at_delimiter(raw)
            return ("u", argument, word) if argument is not None else None
        return letter, argument, word

    def _use_alone(self, prefix: str, semi: int) -> bool | None:
        """`use db;` then the delimiter (another than `;`): sent alone, the client runs it as its
        `use` command (`_use_at_delimiter`). True when it was so (read up to the delimiter's end),
        False when not, `_UNDECIDED` when more text is needed (blanks after the `;` are looked at
        up to `_USE_LOOKAHEAD` characters)."""
        buf, n, delimiter = self.buf, len(self.buf), self.delimiter
        limit = min(n, semi + 1 + _USE_LOOKAHEAD)
        after = _WS_RUN.match(buf, semi + 1, limit).end()  # type: ignore[union-attr]
        if not self.eof and (after == n or after + len(delimiter) > n and delimiter.startswith(buf[after:])):
            return _UNDECIDED  # type: ignore[return-value]
        if not buf.startswith(delimiter, after) or len(prefix) >= _COMPOUND_PREFIX:
            return False
        argument = self._use_at_delimiter(prefix + ";")
        if argument is None:
            return False
        where = (self.stmt_line, self.stmt_col)
        self._drop_stmt()
        self._run_command("u", argument, 0, "use", where=where)
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
        self.refused = None
