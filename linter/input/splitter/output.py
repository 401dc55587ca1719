"""What the splitter has read and not handed on yet (`Output`): the statements and notes, the
statement that waits for the end of its line (its trailing comments are its own), and the packet
the client has not sent yet.

Under a delimiter other than `;` the client gathers what is typed up to that delimiter and sends it
as one packet; the server splits it at each `;` and runs the statements in turn. Until the
delimiter (or `\\g`, a DELIMITER line, the end of input) the packet is only in the client's buffer:
`\\c` throws all of it away, statements before its last `;` included, and a `\\u db` typed in it
changes the database before any of them runs (checked with MariaDB 10.11's client). So the
statements of an open packet are held back, not yielded, until the client sends it: a `\\c` then
drops them with the notes about them and the sql_mode quoting a SET among them gave (not the user
variables it set), and a `USE` from `\\u` goes before them.

An empty statement in a packet (a `;` with nothing before it but blanks, comments and executable
comments that do not run) is refused by the server (1064) when anything follows it in the packet,
and the rest of the packet with it; at the packet's end it is harmless (`empty_statement`,
`text_follows`; checked on MariaDB 10.11).

What is held is bounded: past `_HELD_CHARS` characters (the client's own max_allowed_packet is
16 MiB by default) the statements are let go as they come, and a `\\c` that would throw them away
says at its line that innolint has replayed them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linter.input.splitter.lexis import add_comment, last_comments
from linter.input.statement import Note, Statement

if TYPE_CHECKING:
    from linter.input.splitter.sqlmode import Modes

#: the most statement text an open packet holds back (see the module's docstring)
_HELD_CHARS = 16 * 1024 * 1024


#: a statement read that waits for the end of its line: (text, line, column, end line, comments,
#: executable, packet), as `Statement` takes them
Pending = tuple[str, int, int, int, list[str], str | None, int]


class Output:
    """The statements read (`out`) and the notes said (`notes`) not yet handed on; the last
    statement while it waits for the end of its line (`pending`, `wait`, `trailing`,
    `flush_pending`); the packets' numbers (`packet_no`), and the packet still open: its held statements
    `out[held_at:]` (None: nothing held), the notes about them `notes[notes_at:]`, what the client
    commands typed in it did at once (`early`, `early_notes`), which goes before them when the
    packet is sent or thrown away, and whether the server rejects the rest of it (`rejecting`)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.out: list[Statement] = []
        self.notes: list[Note] = []
        self.ended_notes = 0  # len(notes) when the scanner last began to end a statement: the notes about it
        self.pending: Pending | None = None
        self.pending_line = 0  # the line it ends on, with what follows its delimiter there
        self.packet_no = 0  # the number of the last packet a statement was read from (`Statement.packet`)
        #: the server rejected a statement of the open packet: it runs none of the others
        self.rejecting = False
        self._packet_open = False
        self.held_at: int | None = None
        self.notes_at = 0
        self.held_chars = 0  # the characters held so far, counted up to `held_counted` in `out`
        self.held_counted = 0
        self.held_let_go = False  # the open packet outgrew `_HELD_CHARS`: its statements are yielded
        self.modes_before: tuple[str | None, frozenset[str], int] | None = None  # see `remember_modes`
        self.early: list[Statement] = []
        self.early_notes: list[Note] = []
        self.empty_at: tuple[int, int] | None = None  # an empty statement in the open packet

    def reading_state(self) -> tuple[object, ...]:
        """What of this the next text is read in (`linter.input.splitter.repeats`): the statement
        waiting and the open packet, not what was handed on or counted."""
        return (self.pending, self.rejecting, self._packet_open, self.held_at, self.held_chars,
                self.held_let_go, self.modes_before, tuple(self.early), tuple(self.early_notes), self.empty_at)

    def wait(self, pending: Pending, line: int) -> None:
        """`pending` waits for the end of its line, `line` (comments after its delimiter there are its own)."""
        self.pending = pending
        self.pending_line = line

    def trailing(self, line: int, text: str) -> bool:
        """A comment on `line`: the waiting statement's own when that is the line it ends on."""
        if self.pending is None or line != self.pending_line:
            return False
        add_comment(self.pending[4], text)
        return True

    def flush_pending(self) -> None:
        """The statement waiting is complete."""
        if self.pending is not None:
            text, line, column, end_line, comments, executable, packet = self.pending
            self.out.append(Statement(text, self.path, line, column, end_line, last_comments(comments), executable,
                                      packet))
            self.pending = None

    @property
    def packet_open(self) -> bool:
        """Under a delimiter other than `;`: statements read up to a `;` but not sent yet."""
        return self._packet_open

    @packet_open.setter
    def packet_open(self, value: bool) -> None:
        if value and not self._packet_open:
            # the statement that opened it was just ended: in `out` (at its end) or `pending`
            at = len(self.out)
            while at and self.out[at - 1].packet == self.packet_no:
                at -= 1
            self.held_at = at
            self.notes_at = min(self.ended_notes, len(self.notes))
            self.held_chars = self.held_counted = 0
            self.held_let_go = False
        elif not value:
            self.put_early()
            self.held_at = None
            self.held_let_go = False
            self.modes_before = None
            self.empty_at = None
        self._packet_open = value

    def sendable(self) -> list[Statement]:
        """Take from `out` what may be yielded: all but what an open packet holds."""
        out, held = self.out, self.held_at
        if held is None:
            self.out = []
            return out
        self.held_chars += sum(len(statement.text) for statement in out[max(held, self.held_counted):])
        self.held_counted = len(out)
        if self.held_chars > _HELD_CHARS:
            self.put_early()
            self.held_at = None
            self.held_let_go = True
            self.out = []
            return out
        if held == 0:
            return []
        self.out = out[held:]
        self.held_at = 0
        self.held_counted = len(self.out)
        return out[:held]

    def before_packet(self, statement: Statement, note: Note | None = None) -> None:
        """What a client command does at once, before the open packet is sent (`\\u db`): goes
        before the statements it holds."""
        held = self.held_at is not None
        (self.early if held else self.out).append(statement)
        if note is not None:
            (self.early_notes if held else self.notes).append(note)

    def put_early(self) -> None:
        """What the commands typed in the open packet did goes before what it holds (once per
        packet: the statements after `held_at` move once)."""
        if self.held_at is not None and (self.early or self.early_notes):
            self.out[self.held_at : self.held_at] = self.early
            self.notes[self.notes_at : self.notes_at] = self.early_notes
            self.held_counted += len(self.early)
        self.early = []
        self.early_notes = []

    def empty_statement(self, line: int, column: int) -> None:
        """A `;` ended an empty statement in a packet (not a block): refused if text follows it in the packet."""
        if self.empty_at is None:
            self.empty_at = (line, column)

    def text_follows(self) -> None:
        """Text the client sends follows in the packet: an empty statement before it is refused,
        and the server runs nothing after it in the packet."""
        if self.empty_at is not None and not self.rejecting:
            line, column = self.empty_at
            self.notes.append(Note(line, column, "an empty statement (a `;` with nothing before it but blanks and "
                                   "comments) followed by more in the same packet: the server refuses it (syntax "
                                   "error, 1064) and runs none of the statements after it in the packet",
                                   "parse-error", "warning"))
            self.rejecting = True
        self.empty_at = None

    def remember_modes(self, modes: Modes, quoting: int) -> None:
        """Before a SET that may change sql_mode in a packet: the sql_mode and quoting to go back
        to if the packet is thrown away."""
        if self.modes_before is None:
            self.modes_before = (modes.value, modes.flags, quoting)

    def drop_packet(self, line: int, column: int, modes: Modes) -> int | None:
        """`\\c` while a packet is open: the client throws it away; nothing in it runs. `modes`
        goes back to what it was before the packet; the quoting it had then, if it changed."""
        quoting = None
        if self.pending is not None and self.pending[-1] == self.packet_no:
            self.pending = None
        if self.held_at is not None:
            del self.out[self.held_at :]
            del self.notes[self.notes_at :]
            self.put_early()
            if self.modes_before is not None:
                modes.value, modes.flags, quoting = self.modes_before
        elif self.held_let_go:
            self.notes.append(Note(line, column, f"`\\c` throws away the packet typed since the last delimiter, over "
                                   f"{_HELD_CHARS // (1024 * 1024)} MiB of statements that innolint has already "
                                   "replayed: the server runs none of them", "parse-error", "warning"))
        self.packet_open = False
        return quoting
