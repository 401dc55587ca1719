"""The mysql client's session as the text drives it (`ClientSession`): what the scanner
(`linter.input.splitter.scanner`) reads in it, the client's delimiter, an annotated block or a
part read on its own, a migration's down section, the session's sql_mode and the quoting it gives,
whether the client has quit; and what the client does with a statement's text once the scanner has
found its end: sends it (to `Output`), runs it as its own command, refuses it, runs a compound
block's statements (`Blocks`), follows a SET. The scanner finds where statements and commands are;
this says what they are and does what they do. When the way the text reads changes (the delimiter,
a block, the quoting), it tells the scanner (`changed`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from linter.input.splitter.blocks import Blocks
from linter.input.splitter.client import command_at_delimiter, quits, quoted_name
from linter.input.splitter.compound import BLOCK, Invalid, Structure, head as compound_head
from linter.input.splitter.lexis import COMPOUND_PREFIX, SET_WORDS, WS, excerpt, last_comments
from linter.input.splitter.output import Output
from linter.input.splitter.sqlmode import ANSI_QUOTES, Modes, NO_BACKSLASH_ESCAPES, normalize
from linter.input.statement import Note, Segment, Statement

if TYPE_CHECKING:
    from linter.schema.target import Target

_LEADING_SLASH = ("this statement begins with `/` (such as what is left of `*///` after the delimiter `//`): the "
                  "server refuses it (syntax error, 1064)")


class ClientSession:
    """The client's session for one file (`path`) and target: its settings (`delimiter`; `block`:
    inside an annotated block, no delimiter at all; `packet`: in a part split as a packet, a `;`
    ends a statement; `part`: what is read, for notes; `down`: inside a format's down section,
    nothing is sent; `modes`, `quoting`: the sql_mode followed and how strings read, see
    `linter.input.splitter.sqlmode`), whether the client stopped (`stopped`, `stop_at`), and
    where what it sends goes (`output`, `blocks`). `commands`: the client's commands are the
    client's (a plain file, a format the client runs); `changed`: called when the text's reading
    changes."""

    def __init__(self, path: str, target: Target | None, commands: bool, changed: Callable[[], None]) -> None:
        self.path = path
        self.target = target
        self.commands = commands
        self.changed = changed
        #: what it has read and not handed on: statements, notes, the packet not sent yet
        self.output = Output(path)
        #: the statements a compound block runs
        self.blocks = Blocks(path, target, self.output)
        self.delimiter = ";"
        self.block = False
        self.packet = False
        self.part = "file"
        self.down = False
        self.modes = Modes()
        self.quoting = 0
        self.stopped = False  # the client quit (`\q`, `exit`): nothing after is read
        self.stop_at = (0, 0, "")  # where, and how

    def reading_state(self) -> tuple[object, ...]:
        """What of this the next text is read in (`linter.input.splitter.repeats`): all but where
        the client stopped."""
        return (self.delimiter, self.block, self.packet, self.part, self.down, self.modes.reading_state(), self.quoting,
                self.stopped, self.output.reading_state())

    def segment(self, segment: Segment) -> None:
        """A part read on its own starts (see `Segment`), split as it says."""
        self.output.packet_open = self.output.rejecting = False
        self.block = segment.split != "delimiter"
        self.packet = segment.split == "packet"
        self.delimiter = segment.delimiter if segment.split == "delimiter" else ";"
        self.part = segment.part
        self.changed()
        self.output.notes.extend(segment.notes)

    def section(self, marker: str) -> None:
        """A format's annotation (`Format.section`): a down section starts or ends (what is in it
        is not sent), an annotated block starts or ends."""
        self.output.flush_pending()
        if marker == "up":
            self.down = False
        elif marker == "down":
            self.down = True
        elif marker in ("begin", "end"):
            self.block = marker == "begin"
            self.changed()

    def set_delimiter(self, argument: str, line: int, column: int, open_statement: bool) -> None:
        """`DELIMITER argument` at (line, column); `open_statement`: a statement or packet was
        being typed (the mysql client ends it there, the mariadb client would not have taken the
        line as a command)."""
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
            self.changed()

    def clear(self, line: int, column: int) -> None:
        """`\\c` at (line, column): a packet still open is thrown away, with the quoting a SET in
        it gave."""
        if self.output.packet_open:
            quoting = self.output.drop_packet(line, column, self.modes)
            if quoting is not None and quoting != self.quoting:  # the quoting before the packet
                self.quoting = quoting
                self.changed()

    def follow_set(self, text: str, line: int, column: int) -> int:
        """A SET statement: follow what it does to the session's sql_mode (`linter.input.splitter.sqlmode`) and
        to user variables (`SET @m = ''; SET sql_mode = @m`), and read on with the quoting that
        mode gives, which it returns. (The fast lane counts a SET that names no sql_mode without building it: a
        variable set there and later given to sql_mode is reported as unknown.)"""
        if "@" not in text and "sql_mode" not in text.lower():
            return self.quoting
        if self.block or self.delimiter != ";":
            self.output.remember_modes(self.modes, self.quoting)
        problem = self.modes.apply_set(text)
        if problem:
            self.output.notes.append(Note(line, column, problem, "parse-error", "warning", excerpt=excerpt(text)))
        flags = self.modes.flags
        quoting = (NO_BACKSLASH_ESCAPES in flags) + 2 * (ANSI_QUOTES in flags)
        if quoting != self.quoting:
            self.quoting = quoting
            self.changed()
        return quoting

    def run_command(self, letter: str, argument: str | None, written: str, line: int, column: int) -> None:
        """What a client command (`CLIENT_COMMANDS`' `letter`, written as `written` at (line,
        column)) does to the schema, or to what innolint can follow."""
        if letter == "q":
            self.stop_at = (line, column, f"`{written}`")
            self.stopped = True
        elif letter in "ur" and argument:
            self.output.flush_pending()
            if argument.endswith(";"):  # (`USE db;` under another delimiter, or `\u db;`: fuzz seed 401)
                self.output.notes.append(Note(line, column, f"the client takes {argument!r}, with its `;`, for the database's "
                                              "name: unless a database of that name exists, it fails (error 1049) and the "
                                              "client stays in its database, as innolint takes it to; from here on the "
                                              "schema may differ from the server's if one does", "parse-error", "warning"))
                return
            use = Statement(f"USE {quoted_name(argument)}", self.path, line, column, line, (), None)
            self.output.before_packet(use, None if letter != "r" else Note(
                line, column, f"`{written}` reconnects; innolint takes it for the same server, now in database "
                f"{argument}", "parse-error", "info"))
        elif letter == "d" and argument and "\\" not in argument:
            self.delimiter = argument
            self.changed()
        elif letter in ".!":
            what = "runs another file" if letter == "." else "runs a shell command"
            self.output.notes.append(Note(line, column, f"`{written}` {what} here; innolint does not follow it, so what it "
                                          "does to the schema is not replayed", "parse-error", "warning"))

    def statement(
        self, raw: str, line: int, column: int, comments: list[str], *, executable: tuple[int, str] | None,
        close: int | None, compound: Structure | Invalid | None, fed: int, refused: str | None,
        at_delimiter: bool, strip_semicolon: bool, semicolon: bool, delimiter_next: bool, more: bool,
    ) -> None:
        """What the client does with the text `raw` of a statement typed at (line, column) after
        the comments `comments`, which the scanner found the end of. The scanner read it: the
        executable comment it began in (`executable`: serial and version) and where that closed
        in it (`close`), the compound statement it found in it (`compound`, fed `fed` characters),
        why the server refuses it (`refused`). How it ended: at the client's delimiter
        (`at_delimiter`; `delimiter_next`: the delimiter follows the text), at a `;` in a packet
        (`semicolon`), elsewhere (the end of input or of a block: `strip_semicolon` drops a last
        `;`); `more`: text follows it in the buffer."""
        output = self.output
        text = raw.rstrip(WS)
        if strip_semicolon and text.endswith(";"):
            text = text[:-1].rstrip(WS)
        packet = 0  # under `;` each statement is a packet of its own
        # (but a packet begun under another delimiter goes on to the first `;` after `\d ;`: seed 396)
        if self.block or self.delimiter != ";" or output.packet_open:
            if not output.packet_open:  # the first statement of a packet
                output.packet_no += 1
            packet = output.packet_no
        if not text and semicolon and not output.rejecting:
            if not self.block:
                output.empty_statement(line, column)
        if not text or self.down or output.rejecting:
            return
        if refused is None and text[:1] == "/":
            refused = _LEADING_SLASH
        if refused is not None:
            output.flush_pending()
            sent_with_more = self.block or self.delimiter != ";" and not delimiter_next
            if sent_with_more and more:  # a multi-statement packet stops at its first error
                output.rejecting = True
                refused += "; the server runs none of the statements after it in the same packet"
            output.notes.append(Note(line, column, refused, "parse-error", "warning", line + text.count("\n"),
                                     excerpt(text)))
            return
        if compound is None and (self.block or self.delimiter != ";"):  # no `;` of its own: a compound one?
            head = compound_head(text[:COMPOUND_PREFIX])
            if head is not None:
                compound = head if isinstance(head, Invalid) else Structure(head, self.quoting)
                fed = 0
        if compound is not None:
            if isinstance(compound, Invalid):
                output.rejecting = True
                output.flush_pending()
                output.notes.append(Note(line, column, f"{compound.reason}: the server rejects this "
                                         "statement and the rest of its packet, so innolint replays none of it",
                                         "parse-error", "warning", line + text.count("\n"), excerpt(text)))
                return
            if not compound.complete:
                compound.feed(raw[fed:], fed, final=True)
            if compound.kind == BLOCK:
                self.blocks.emit(raw, compound, (line, column), comments, packet, self.quoting, self.modes,
                                 self.follow_set)
                return
        version = None
        if executable is not None and (close is None or not raw[close:].strip(WS)):
            version = executable[1]
        if self.quoting:
            text = normalize(text, self.modes.flags)
        end_line = line + text.count("\n")
        if text[:3] in SET_WORDS:
            self.follow_set(text, line, column)
        if not at_delimiter:
            output.out.append(Statement(text, self.path, line, column, end_line, last_comments(comments), version,
                                        packet))
            return
        if self.commands and not semicolon and not output.packet_open:
            command = command_at_delimiter(raw, self.delimiter)
            if command is not None:  # the client runs it instead of sending it
                self.run_command(command.letter, command.argument, command.name, line, column)
                return
        output.wait((text, line, column, end_line, comments, version, packet),
                    end_line if len(raw) == len(text) else line + raw.count("\n"))
        if self.commands and not semicolon and not output.packet_open and quits(text):
            self.stop_at = (line, column, f"`{text}` (which the server refuses)")
            self.stopped = True
