"""The statements a compound block outside a stored program runs, each at its place
(`_BlockStatements._emit_block`, from `_StatementText._end_stmt`)."""

from __future__ import annotations

from linter.input.splitter.compound import Structure
from linter.input.splitter.lexis import _FIRST_WORD, _SCHEMA_WORDS, _SET_WORDS, _WS, _excerpt, _last_comments
from linter.input.splitter.sqlmode import normalize
from linter.input.statement import Note, Statement


class _BlockStatements:
    """A compound block's statements, emitted as the server runs them."""

    def _emit_block(self, raw: str, block: Structure) -> None:
        """The statements a compound block outside a stored program runs (`linter.input.splitter.compound`), each
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

        self.output.flush_pending()
        text = raw.rstrip(_WS)
        end_line = line0 + text.count("\n")
        target = self.target
        if target is not None and not target.is_mariadb:
            self.output.rejecting = True
            self.output.notes.append(Note(line0, column0, "a compound statement (IF, CASE, a loop, BEGIN NOT ATOMIC) outside a "
                                   f"stored program: {target.label} runs these only in stored programs and rejects "
                                   "this one with the rest of its packet, so innolint replays none of it",
                                   "parse-error", "warning", end_line, _excerpt(text)))
            return
        if block.error is not None:
            self.output.rejecting = True
            at = where(min(max(block.error.at, 0), len(raw)))[0]
            reason = str(block.error).format(at=f"line {where(max(block.error.at, 0))[0]}")
            self.output.notes.append(Note(line0, column0, f"innolint cannot follow this compound statement ({reason}, line "
                                   f"{at}): nothing in it is replayed", "parse-error", "warning", end_line, _excerpt(text)))
            return
        first = True
        packet = self.stmt_packet
        if not packet:  # a block is one packet, whatever the delimiter
            self.output.packet_no += 1
            packet = self.output.packet_no
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
                self.output.out.append(Statement(body, self.path, line, column, line + body.count("\n"), comments, None,
                                          packet))
                if body[:3] in _SET_WORDS:
                    self._follow_set(body, line, column)
                if why is not None and schema:
                    self.output.notes.append(Note(line, column, f"{why}; innolint replays it as if it ran once, so the schema "
                                           "after it is uncertain", "replay-error", "warning",
                                           line + body.count("\n"), _excerpt(body)))
            elif schema and why is not None:  # (None: a branch that never runs, skipped as the server skips it)
                self.output.notes.append(Note(line, column, f"not replayed: {why}", "replay-error", "warning",
                                       line + body.count("\n"), _excerpt(body)))
