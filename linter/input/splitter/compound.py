"""Compound statements: where one ends, and which statements a block outside a stored program runs.

Under a client DELIMITER other than `;`, the mysql client sends everything up to the delimiter as
one packet and the server runs its `;`-separated statements in turn. A compound statement keeps
its `;`s: a stored-program definition (CREATE PROCEDURE/FUNCTION/TRIGGER/EVENT) whose body is one
statement, simple or compound, and, in MariaDB (10.1 and later), the compound statements it runs
outside stored programs: BEGIN NOT ATOMIC ... END, IF, CASE, LOOP, WHILE, REPEAT and FOR. The
DDL inside those runs when the block runs; MySQL rejects them outside stored programs.

`Structure` follows one compound statement token by token, fed a piece at a time (the splitter
hands it the text between two `;`s as it reads them), so its cost is linear in the statement:
- `complete` tells when the statement has ended (its body closed, then a `;`): what follows in
  the packet is the next statement;
- for a block, `items` are the statements it runs, each with why it may not run (or run more
  than once) and whether innolint replays it. An IF whose conditions are constants (`IF 0 = 1`,
  `IF TRUE`: `constant_truth`) runs the branch they choose, which innolint replays as certain, and
  none of the others. Else innolint replays the first branch of an IF or CASE (the branch a reader
  of `IF NOT EXISTS (...) THEN ALTER ...` expects to run) and the body of a loop once; other
  branches and condition handlers are not replayed. Either way the splitter reports the schema
  after such DDL as uncertain.

`head` classifies a statement by its first words (stored program, block, or something the server
rejects at the top level: a label, DECLARE, BEGIN without NOT ATOMIC).
"""

from __future__ import annotations

from typing import NamedTuple

from linter.input.splitter.sqltext import COMMENT, PUNCT, SEMI, WORD, Token, comment_text, tokens

#: what `head` answers
ROUTINE, BLOCK = "routine", "block"
_ROUTINE_WORDS = frozenset({"PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "PACKAGE"})
#: words that may come between CREATE/ALTER and the routine's kind
_ROUTINE_PREFIX = frozenset({"OR", "REPLACE", "DEFINER", "SQL", "SECURITY", "INVOKER", "AGGREGATE", "NONEDITIONABLE",
                             "EDITIONABLE", "CURRENT_USER", "CURRENT_ROLE"})
_COMPOUND_WORDS = frozenset({"BEGIN", "IF", "CASE", "LOOP", "WHILE", "REPEAT", "FOR"})


class Invalid(NamedTuple):
    """A statement the server rejects at the top level, and why."""

    reason: str


def head(prefix: str) -> str | Invalid | None:
    """ROUTINE, BLOCK, Invalid, or None (a plain statement), from the first words of a statement."""
    toks = [t for t in tokens(prefix[:2000]) if t.kind != COMMENT][:24]
    if not toks or toks[0].kind != WORD:
        return None
    first = toks[0].text
    second = toks[1] if len(toks) > 1 else None
    if first in ("CREATE", "ALTER"):
        for token in toks[1:]:
            if token.kind == WORD and token.text in _ROUTINE_WORDS:
                return ROUTINE
            if token.kind == WORD and token.text not in _ROUTINE_PREFIX and not _after_equals(toks, token):
                return None
        return None
    if first == "BEGIN":
        if second is None or second.kind == SEMI or (second.kind == WORD and second.text == "WORK"):
            return None  # a transaction
        if second.kind == WORD and second.text == "NOT":
            return BLOCK
        return Invalid("BEGIN ... END outside a stored program: MariaDB runs it only as BEGIN NOT ATOMIC, MySQL not at all")
    if first in _COMPOUND_WORDS:
        return BLOCK
    if second is not None and second.kind == PUNCT and second.text == ":" and len(toks) > 2 and toks[2].text in _COMPOUND_WORDS:
        return Invalid(f"a label ({toks[0].text.lower()}:) on a compound statement outside a stored program")
    if first == "DECLARE":
        return Invalid("DECLARE outside a compound statement")
    return None


def _after_equals(toks: list[Token], token: Token) -> bool:
    """Whether `token` is the value of `DEFINER = ...` (a user name written as a bare word)."""
    index = toks.index(token)
    return index >= 2 and toks[index - 1].text == "=" and toks[index - 2].text == "DEFINER"


class Item(NamedTuple):
    """One statement a block runs: where it is in the block's text, the comments just before it,
    why it may not run as written (None: it runs whenever the block runs) and whether innolint
    replays it."""

    start: int
    end: int
    comments: tuple[str, ...]
    why: str | None  # e.g. "runs only if the condition of the IF at offset 12 holds" (offsets: see `at`)
    at: int  # offset of the construct `why` names, -1 if none
    replay: bool


#: the most tokens of an IF condition kept to tell whether it is constant (longer ones are not)
_CONSTANT_TOKENS = 16
_COMPARISONS = {"=": lambda a, b: a == b, "<>": lambda a, b: a != b, "!=": lambda a, b: a != b,
                "<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


def constant_truth(condition: list[str]) -> bool | None:
    """Whether an IF condition of constants holds (`1`, `0`, TRUE, FALSE, NULL, `NOT x`, `(x)`,
    `a = b`, `a <> b`, `a < b` ... of integers): True, False (a NULL does not hold either), or
    None where it is not such a constant (a column, a function, a subquery)."""
    words = list(condition)
    negate = False
    while words and words[0] in ("NOT", "!"):
        negate, words = not negate, words[1:]
    while len(words) >= 2 and words[0] == "(" and words[-1] == ")":
        words = words[1:-1]
    values = [_CONSTANTS.get(w, int(w) if w.isascii() and w.isdigit() else "?") for w in words]
    if len(values) == 1 and values[0] != "?":
        value = values[0]
    elif len(values) in (3, 4) and values[0] != "?" and values[-1] != "?":
        operator = "".join(words[1:-1])
        if operator not in _COMPARISONS:
            return None
        left, right = values[0], values[-1]
        value = None if left is None or right is None else int(_COMPARISONS[operator](left, right))
    else:
        return None
    holds = value is not None and value != 0
    return not holds if negate and value is not None else holds


_CONSTANTS: dict[str, int | None] = {"TRUE": 1, "FALSE": 0, "NULL": None}


def _branch_taken(frame: _Frame) -> bool | None:
    """Whether the IF branch being read runs whenever the IF does (True), never (False), or
    innolint cannot tell (None): a branch runs when its condition holds and every condition
    before it does not; ELSE's holds."""
    truths = frame.truths
    if frame.branch >= len(truths):
        return None
    before, own = truths[:frame.branch], truths[frame.branch]
    if any(before):
        return False
    if all(t is False for t in before):
        return own
    return None


class StructureError(ValueError):
    """The text does not have the structure of a compound statement (at offset `at`)."""

    def __init__(self, message: str, at: int) -> None:
        super().__init__(message)
        self.at = at


class _Frame:
    __slots__ = ("kind", "at", "branch", "paren", "case_depth", "sub", "end_word", "end_label", "condition", "truths")

    def __init__(self, kind: str, at: int) -> None:
        self.kind = kind  # BEGIN, IF, CASE, LOOP, WHILE, REPEAT, FOR, HANDLER
        self.at = at  # offset of its first word
        self.branch = 0  # IF/CASE: which branch the body is (0: the first)
        self.condition: list[str] = []  # IF: the words and signs of the condition being read
        self.truths: list[bool | None] = []  # IF: each branch's condition, where constant (`constant_truth`)
        self.paren = 0  # parentheses open in a condition
        self.case_depth = 0  # CASE expressions open in a condition
        self.sub = ""  # CASE: "when" in a WHEN condition; HANDLER: where in its condition list
        self.end_word = False  # after END: the construct's word (END IF) was read
        self.end_label = False  # after END: a label was read


#: constructs closed by END followed by their own word (END IF), and those that may end with a label
_END_WORD = frozenset({"IF", "CASE", "LOOP", "WHILE", "REPEAT", "FOR"})
_END_LABEL = frozenset({"BEGIN", "LOOP", "WHILE", "REPEAT", "FOR"})
_HANDLER_ACTIONS = frozenset({"CONTINUE", "EXIT", "UNDO"})


class Structure:
    """One compound statement read a piece at a time (see the module docstring)."""

    def __init__(self, kind: str, quoting: int = 0) -> None:
        self.kind = kind  # ROUTINE or BLOCK
        self.quoting = quoting  # how its strings read (see `linter.input.splitter.sqltext.tokens`)
        self.complete = False
        self.items: list[Item] = []
        self.error: StructureError | None = None
        self._stack: list[_Frame] = []
        #: "header" (a routine's, until its body starts), "start" (a statement starts), "begin"
        #: and "begin-not" (after BEGIN), "label?" (a word at a statement start: a label if `:`
        #: follows), "labelled", "declare" (DECLARE: a handler or a simple statement), "hcond" (a
        #: handler's conditions), "cond" (the condition or header of the construct on top),
        #: "simple" (inside a simple statement), "end" (after END), "after" (the compound closed)
        self._state = "header" if kind == ROUTINE else "start"
        self._routine = ""  # PROCEDURE, FUNCTION, TRIGGER, EVENT, PACKAGE
        self._header: list[str] = []  # the routine header's words since its kind
        self._paren = 0
        self._body_ok = False  # the header has passed the point where its body may start
        self._simple_start = -1
        self._simple_end = -1
        self._declare: list[str] = []
        self._comments: list[str] = []

    def feed(self, text: str, offset: int, *, final: bool) -> None:
        """Read `text` (at `offset` in the statement), which ends before a `;` unless `final`."""
        if self.complete or self.error is not None:
            return
        toks = tokens(text, offset, self.quoting)
        if not final:
            end = offset + len(text)
            toks.append(Token(SEMI, ";", end, end + 1))
        try:
            for token in toks:
                self._step(token)
                if self.complete:
                    return
            if final:
                self._finish(offset + len(text))
        except StructureError as error:
            self.error = error

    # -- the state machine ------------------------------------------------------------------
    def _step(self, token: Token) -> None:
        if token.kind == COMMENT:
            if self._state == "start":
                self._comments.append(comment_text(token))
            return
        if token.kind == PUNCT and token.text == ";":
            token = Token(SEMI, ";", token.start, token.end)
        getattr(self, "_s_" + self._state.replace("-", "_").replace("?", "_q"))(token)

    def _s_header(self, token: Token) -> None:
        """A routine's header: its body starts at the first compound word past the point where a
        body may start (after the parameter list, FOR EACH ROW [FOLLOWS|PRECEDES name], or DO);
        a body that is one simple statement ends at the first `;`, like a header without body."""
        if token.kind == SEMI and self._paren == 0:
            self.complete = True
            return
        if token.kind == PUNCT:
            if token.text == "(":
                self._paren += 1
            elif token.text == ")":
                self._paren -= 1
                if self._paren == 0 and self._routine in ("PROCEDURE", "FUNCTION"):
                    self._body_ok = True
            return
        if token.kind != WORD or self._paren:
            return
        word = token.text
        if not self._routine:
            if word in _ROUTINE_WORDS:
                self._routine = word
            return
        header = self._header
        if self._body_ok and word in _COMPOUND_WORDS and (not header or header[-1] not in ("FOLLOWS", "PRECEDES")):
            self._state = "start"
            self._s_start(token)
            return
        header.append(word)
        if self._routine == "TRIGGER" and header[-3:] == ["FOR", "EACH", "ROW"] or self._routine == "EVENT" and word == "DO":
            self._body_ok = True

    def _s_start(self, token: Token) -> None:
        """The first token of a statement inside a body (or of the block itself)."""
        top = self._stack[-1] if self._stack else None
        if token.kind == SEMI:
            if top is None and self.kind == ROUTINE:
                self.complete = True
            return  # an empty statement
        word = token.text if token.kind == WORD else ""
        if top is not None:
            if word == "END":
                top.end_word = top.end_label = False
                self._state = "end"
                return
            if top.kind == "IF" and word in ("ELSEIF", "ELSE"):
                top.branch += 1
                self._comments = []
                if word == "ELSEIF":
                    top.condition = []
                    self._state = "cond"
                else:
                    top.truths.append(True)
                return
            if top.kind == "CASE" and word in ("WHEN", "ELSE"):
                top.branch += 1
                self._comments = []
                if word == "WHEN":
                    top.sub = "when"
                    self._state = "cond"
                return
            if top.kind == "REPEAT" and word == "UNTIL":
                self._state = "cond"
                return
        if word in _COMPOUND_WORDS:
            self._open(token)
            return
        if top is None and self.kind == BLOCK:
            raise StructureError(f"{token.text!r} where a compound statement should start", token.start)
        self._simple_start, self._simple_end = token.start, token.end
        if word == "DECLARE":
            self._declare = []
            self._state = "declare"
        elif word:
            self._state = "label?"
        else:
            self._state = "simple"

    def _s_label_q(self, token: Token) -> None:
        if token.kind == PUNCT and token.text == ":":
            self._simple_start = -1
            self._state = "labelled"
            return
        self._state = "simple"
        self._s_simple(token)

    def _s_labelled(self, token: Token) -> None:
        if token.kind != WORD or token.text not in _END_LABEL:
            raise StructureError("a label before something other than BEGIN or a loop", token.start)
        self._open(token)

    def _s_declare(self, token: Token) -> None:
        """DECLARE CONTINUE|EXIT|UNDO HANDLER FOR ... opens a handler; any other DECLARE is simple."""
        if token.kind == SEMI:
            self._end_simple()
            return
        self._simple_end = token.end
        words = self._declare
        words.append(token.text if token.kind == WORD else "")
        expected = (_HANDLER_ACTIONS, ("HANDLER",), ("FOR",))[len(words) - 1]
        if words[-1] not in expected:
            self._state = "simple"
            return
        if len(words) == 3:
            frame = _Frame("HANDLER", self._simple_start)
            frame.sub = "item"
            self._stack.append(frame)
            self._simple_start = -1
            self._state = "hcond"

    def _s_hcond(self, token: Token) -> None:
        """A handler's condition list (SQLEXCEPTION, NOT FOUND, SQLSTATE [VALUE] '...', codes,
        names, separated by commas); its statement starts after the last one."""
        frame = self._stack[-1]
        if token.kind == SEMI:
            raise StructureError("a handler without its statement", token.start)
        if frame.sub == "item":
            frame.sub = {"SQLSTATE": "sqlstate", "NOT": "not"}.get(token.text if token.kind == WORD else "", "done")
        elif frame.sub == "sqlstate":
            if not (token.kind == WORD and token.text == "VALUE"):
                frame.sub = "done"
        elif frame.sub == "not":
            frame.sub = "done"
        elif token.kind == PUNCT and token.text == ",":
            frame.sub = "item"
        else:
            frame.sub = "body"
            self._comments = []
            self._state = "start"
            self._s_start(token)

    def _open(self, token: Token) -> None:
        word = token.text
        self._comments = []
        self._stack.append(_Frame(word, token.start))
        self._state = {"BEGIN": "begin", "LOOP": "start", "REPEAT": "start"}.get(word, "cond")

    def _s_begin(self, token: Token) -> None:
        if token.kind == WORD and token.text == "NOT":
            self._state = "begin-not"
            return
        self._state = "start"
        self._s_start(token)

    def _s_begin_not(self, token: Token) -> None:
        if token.kind != WORD or token.text != "ATOMIC":
            raise StructureError("BEGIN NOT without ATOMIC", token.start)
        self._state = "start"

    def _s_cond(self, token: Token) -> None:
        """The condition or header of the construct on top, up to the word that ends it."""
        frame = self._stack[-1]
        if token.kind == SEMI:
            raise StructureError(f"`;` in the condition of the {frame.kind}", token.start)
        if frame.kind == "IF" and token.kind != COMMENT and not (token.kind == WORD and token.text == "THEN"
                                                                 and not frame.paren):
            if len(frame.condition) < _CONSTANT_TOKENS:
                frame.condition.append(token.text if token.kind in (WORD, PUNCT) else "?")
            else:
                frame.condition = ["?"]
        if token.kind == PUNCT:
            if token.text == "(":
                frame.paren += 1
            elif token.text == ")":
                frame.paren -= 1
            return
        if token.kind != WORD or frame.paren:
            return
        word = token.text
        if word == "CASE":  # a CASE expression, closed by END
            frame.case_depth += 1
            return
        if frame.case_depth:
            if word == "END":
                frame.case_depth -= 1
            return
        kind = frame.kind
        if kind == "REPEAT":  # UNTIL ... END REPEAT
            if word == "END":
                frame.end_word = frame.end_label = False
                self._state = "end"
            return
        if kind == "CASE" and frame.sub != "when":
            if word == "WHEN":  # the operand of a simple CASE has ended
                frame.sub = "when"
            return
        if word == ("THEN" if kind in ("IF", "CASE") else "DO"):
            if kind == "IF":
                frame.truths.append(constant_truth(frame.condition))
            self._comments = []
            self._state = "start"

    def _s_simple(self, token: Token) -> None:
        if token.kind == SEMI:
            self._end_simple()
        else:
            self._simple_end = token.end

    def _s_end(self, token: Token) -> None:
        """After END: the construct's word (END IF, END LOOP ...), maybe a label, then what follows."""
        frame = self._stack[-1]
        if frame.kind in _END_WORD and not frame.end_word:
            if token.kind != WORD or token.text != frame.kind:
                raise StructureError(f"END {token.text} where END {frame.kind} was expected", token.start)
            frame.end_word = True
            return
        if frame.kind in _END_LABEL and not frame.end_label and token.kind == WORD:
            frame.end_label = True
            return
        self._close(token)

    def _s_after(self, token: Token) -> None:
        if token.kind != SEMI:
            raise StructureError(f"{token.text!r} after the end of the compound statement", token.start)
        self.complete = True

    def _close(self, token: Token | None) -> None:
        """The construct on top of the stack has ended; `token` (None: the text's end) follows it."""
        self._stack.pop()
        self._comments = []
        top = self._stack[-1] if self._stack else None
        if top is not None and top.kind == "HANDLER":
            self._close(token)  # the handler's statement was this compound one
            return
        if token is None:
            return
        if top is None:
            self._state = "after"
            self._s_after(token)
            return
        if token.kind != SEMI:
            raise StructureError(f"{token.text!r} after END", token.start)
        self._state = "start"

    def _end_simple(self) -> None:
        """A simple statement ended at a `;`."""
        if self._simple_start >= 0 and self.kind == BLOCK and self._stack:
            why, at, replay = self._context()
            self.items.append(Item(self._simple_start, self._simple_end, tuple(self._comments), why, at, replay))
        self._simple_start = -1
        self._comments = []
        self._state = "start"
        top = self._stack[-1] if self._stack else None
        if top is None:
            self.complete = True  # a routine whose body is one simple statement
        elif top.kind == "HANDLER":
            self._stack.pop()  # a handler's statement is one statement

    def _context(self) -> tuple[str | None, int, bool]:
        """Why the statement being read may not run as written (with `{at}` for where the
        construct is), where that construct is, and whether it is replayed: the innermost
        conditional construct gives the reason; any branch innolint does not follow stops the replay."""
        why: str | None = None
        at = -1
        replay = True
        for frame in reversed(self._stack):
            kind = frame.kind
            if kind == "BEGIN":
                continue
            taken = _branch_taken(frame) if kind == "IF" else None
            if taken is False:
                return None, -1, False  # a branch that never runs: skipped, as the server skips it
            if taken:
                continue  # a branch that always runs (when what holds it runs)
            if kind == "HANDLER":
                message, follow = "runs only when the condition of the handler declared at {at} is raised", False
            elif kind in ("IF", "CASE"):
                if frame.branch == 0:
                    first = "condition of the IF" if kind == "IF" else "first WHEN of the CASE"
                    message, follow = f"runs only if the {first} at {{at}} holds", True
                else:
                    message = f"in a later branch of the {kind} at {{at}} (innolint replays only the first branch)"
                    follow = False
            else:
                how = "at least once, maybe more" if kind in ("LOOP", "REPEAT") else "any number of times, or not at all"
                message, follow = f"inside the {kind} at {{at}}: it runs {how}", True
            if why is None:
                why, at = message, frame.at
            replay = replay and follow
        return why, at, replay

    def _finish(self, end: int) -> None:
        """The statement's text has ended (at the delimiter or the end of the file)."""
        state = self._state
        if state in ("simple", "label?", "declare") and (self._stack or self.kind == ROUTINE):
            self._end_simple()
        elif state == "end":
            frame = self._stack[-1]
            if frame.kind in _END_WORD and not frame.end_word:
                raise StructureError(f"END without {frame.kind}", end)
            self._close(None)
        if self._stack:
            frame = self._stack[-1]
            raise StructureError(f"the {frame.kind} at {{at}} is not closed", frame.at)
        self.complete = True
