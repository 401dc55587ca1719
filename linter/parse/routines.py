"""Stored procedures and dynamic SQL, read into what the server runs: a procedure's body as steps
(`program`), a session statement that builds or runs SQL at run time (`session_step`: SET @v,
PREPARE, EXECUTE, EXECUTE IMMEDIATE, DEALLOCATE, CALL), and their expressions as a small tree
(`Expr`) that `linter.server.procedures` evaluates against the model.

Migrations guard their DDL with the server's own catalogue: `IF NOT EXISTS (SELECT ... FROM
information_schema.statistics WHERE ...) THEN ALTER ...`, a `SELECT COUNT(*) INTO v`, a string
built with CONCAT and IF, then PREPARE and EXECUTE. Those are read here; anything else a body may
hold that decides what runs (a loop, a cursor, CASE, a query over a table's rows, a function
innolint does not know) is kept as an `Opaque` node with why, and the server emulator says it
cannot follow from there on. Parsing costs what the text holds: one pass over sqlglot's tokens,
each expression handed to sqlglot once.
"""

from __future__ import annotations

import decimal
from typing import NamedTuple

from sqlglot import exp
from sqlglot.errors import ParseError
from sqlglot.tokens import Token, TokenType

from linter.parse.tokens import PARSER, ParseFailure, tokenize

__all__ = [
    "Assign", "Block", "Call", "CallStep", "Column", "Const", "Deallocate", "Declare", "Execute", "Expr", "Handler",
    "IfStep", "Leave", "Local", "Op", "Opaque", "OpaqueStep", "Prepare", "Procedure", "Query", "SelectStep",
    "SqlStep", "Step", "UserVar", "expression", "procedure", "session_step",
]


# -- expressions ---------------------------------------------------------------------------------
class Const(NamedTuple):
    """A literal: None (NULL), an int, a Decimal, a float or a str."""

    value: object


class Local(NamedTuple):
    """A bare name: a procedure's parameter or local variable, or else a column of the row a query
    reads (the server resolves a local variable first, as here)."""

    name: str


class Column(NamedTuple):
    """A qualified column (`s.index_name`): always the row's."""

    name: str


class UserVar(NamedTuple):
    """`@name`: a user variable of the session."""

    name: str


class Call(NamedTuple):
    """A function: its upper-case name and arguments (COUNT's `*` is no argument)."""

    name: str
    args: tuple[Expr, ...]


class Op(NamedTuple):
    """An operator: `=`, `<>`, `<`, `<=`, `>`, `>=`, `<=>`, AND, OR, XOR, NOT, IS NULL, IS NOT NULL,
    IN, LIKE, `+`, `-`, `*`, `/`, NEG."""

    op: str
    args: tuple[Expr, ...]


class Query(NamedTuple):
    """A SELECT read as a value: a scalar subquery (`mode` "value") or EXISTS (`mode` "exists")."""

    select: Select
    mode: str


class Opaque(NamedTuple):
    """What innolint does not evaluate, and why (a query joining tables, a function it does not
    know); `refused`: no expression at all, the server refuses the text (a word after the value)."""

    why: str
    refused: bool = False


Expr = Const | Local | Column | UserVar | Call | Op | Query | Opaque


class Select(NamedTuple):
    """A SELECT innolint may evaluate: its items, the one table it reads (database or None, table),
    its WHERE, the variables INTO names (Local or UserVar), whether it aggregates (COUNT ...)."""

    items: tuple[Expr, ...]
    source: tuple[str | None, str] | None
    where: Expr | None
    into: tuple[Local | UserVar, ...]
    limit: int | None


# -- steps -----------------------------------------------------------------------------------------
class Block(NamedTuple):
    """BEGIN ... END (or a branch's statements): its steps in order, and its label."""

    steps: tuple[Step, ...]
    label: str | None = None


class Declare(NamedTuple):
    names: tuple[str, ...]
    default: Expr | None


class Handler(NamedTuple):
    """DECLARE CONTINUE|EXIT HANDLER FOR conditions: each an error number as a str, SQLEXCEPTION,
    SQLWARNING, NOT FOUND or `SQLSTATE 'xxxxx'`; its statement."""

    action: str
    conditions: tuple[str, ...]
    body: Step | None


class IfStep(NamedTuple):
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


class Assign(NamedTuple):
    """SET of variables: (target, value) pairs; a target None is a system variable (kept out)."""

    pairs: tuple[tuple[Local | UserVar | None, Expr], ...]


class SelectStep(NamedTuple):
    """A SELECT: INTO variables, or a result set (which changes nothing)."""

    select: Select | Opaque


class SqlStep(NamedTuple):
    """Any other statement, for `linter.parse.statement`: DDL, DML, COMMIT ...; `offset`: where it
    starts in the text read."""

    text: str
    offset: int


class Prepare(NamedTuple):
    name: str
    source: Expr


class Execute(NamedTuple):
    """EXECUTE a prepared statement (`name`), or EXECUTE IMMEDIATE (`source`)."""

    name: str | None
    source: Expr | None


class Deallocate(NamedTuple):
    name: str


class CallStep(NamedTuple):
    database: str | None
    name: str
    args: tuple[Expr, ...]


class Leave(NamedTuple):
    label: str


class OpaqueStep(NamedTuple):
    """A statement innolint does not follow (a loop, a cursor, CASE, RETURN ...), and why."""

    why: str
    offset: int


Step = (Block | Declare | Handler | IfStep | Assign | SelectStep | SqlStep | Prepare | Execute | Deallocate | CallStep
        | Leave | OpaqueStep)


class Procedure(NamedTuple):
    """A CREATE PROCEDURE: its parameters ((mode, name) each, mode IN, OUT or INOUT) and body."""

    params: tuple[tuple[str, str], ...]
    body: Step


# -- reading ----------------------------------------------------------------------------------------
_WORDLIKE = frozenset({TokenType.VAR, TokenType.IDENTIFIER})
_LOOPS = frozenset({"WHILE", "REPEAT", "LOOP", "FOR"})
#: the words a statement may start with after a label (`outer: BEGIN`)
_LABELLED = frozenset({"BEGIN", *_LOOPS})
_CHARACTERISTICS = frozenset({"COMMENT", "LANGUAGE", "NOT", "DETERMINISTIC", "CONTAINS", "NO", "READS", "MODIFIES",
                              "SQL", "SECURITY", "DEFINER", "INVOKER", "DATA"})


def _tokens(text: str) -> list[Token]:
    """sqlglot's tokens of `text`, with the statements sqlglot swallows whole into one string after
    their first word (PREPARE, CALL, EXECUTE ... are opaque commands to it) tokenized too."""
    tokens = tokenize(text)
    at = 0
    while at < len(tokens) - 1:
        token, after = tokens[at], tokens[at + 1]
        if (token.token_type in (TokenType.COMMAND, TokenType.EXECUTE) and after.token_type == TokenType.STRING
                and text[token.end + 1 : after.end + 1].strip() == after.text):
            tokens = tokens[: at + 1] + tokenize(" " * (token.end + 1) + text[token.end + 1 :])
        at += 1
    return tokens


def _word(token: Token | None) -> str:
    """A token's word in upper case ('' for a string, a quoted name or punctuation)."""
    if token is None or token.token_type in (TokenType.STRING, TokenType.IDENTIFIER, TokenType.NATIONAL_STRING):
        return ""
    text = token.text
    return text.upper() if text[:1].isalpha() or text[:1] == "_" else ""


class _Reader:
    """sqlglot's tokens of one text, read as statements and blocks."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.i = 0

    def peek(self, ahead: int = 0) -> Token | None:
        at = self.i + ahead
        return self.tokens[at] if at < len(self.tokens) else None

    def word(self, ahead: int = 0) -> str:
        return _word(self.peek(ahead))

    def take(self, *words: str) -> bool:
        if all(self.word(k) == w for k, w in enumerate(words)):
            self.i += len(words)
            return True
        return False

    def name(self) -> str:
        token = self.peek()
        if token is None or token.token_type not in _WORDLIKE and not _word(token):
            raise ParseFailure("expected a name in the procedure")
        self.i += 1
        return token.text

    def slice(self, start: int, end: int) -> str:
        """The text of tokens start..end-1."""
        if end <= start:
            return ""
        return self.text[self.tokens[start].start : self.tokens[end - 1].end + 1]

    def to_semicolon(self) -> int:
        """The index of the `;` that ends the statement at i (or the end), across parentheses."""
        depth, at = 0, self.i
        tokens = self.tokens
        while at < len(tokens):
            kind = tokens[at].token_type
            if kind == TokenType.L_PAREN:
                depth += 1
            elif kind == TokenType.R_PAREN:
                depth -= 1
            elif kind == TokenType.SEMICOLON and depth <= 0:
                return at
            at += 1
        return at

    def until_word(self, stop: str) -> int:
        """The index of the word `stop` at depth 0 after i (CASE ... END counted), or the end."""
        depth, cases, at = 0, 0, self.i
        tokens = self.tokens
        while at < len(tokens):
            token = tokens[at]
            kind = token.token_type
            if kind == TokenType.L_PAREN:
                depth += 1
            elif kind == TokenType.R_PAREN:
                depth -= 1
            elif depth == 0:
                word = _word(token)
                if word == "CASE":
                    cases += 1
                elif word == "END" and cases:
                    cases -= 1
                elif word == stop and not cases:
                    return at
            at += 1
        return at

    # -- statements --------------------------------------------------------------------------
    def statements(self, ends: frozenset[str]) -> tuple[Step, ...]:
        """Statements up to one that starts with a word of `ends` (left unread)."""
        steps: list[Step] = []
        while self.i < len(self.tokens):
            token = self.peek()
            assert token is not None
            if token.token_type == TokenType.SEMICOLON:
                self.i += 1
                continue
            if self.word() in ends:
                break
            steps.append(self.statement())
        return tuple(steps)

    def statement(self) -> Step:
        start = self.i
        label = None
        if self.peek(1) is not None and self.peek(1).token_type == TokenType.COLON and self.word(2) in _LABELLED:  # type: ignore[union-attr]
            label = self.name()
            self.i += 1
        word = self.word()
        if word == "BEGIN" and self.word(1) not in ("WORK", "TRANSACTION") and (
                self.peek(1) is None or self.peek(1).token_type != TokenType.SEMICOLON):  # type: ignore[union-attr]
            self.i += 1
            self.take("NOT", "ATOMIC")
            steps = self.statements(frozenset({"END"}))
            if not self.take("END"):
                raise ParseFailure("BEGIN without its END in the procedure")
            if label is not None and self.peek() is not None and self.peek().token_type != TokenType.SEMICOLON:  # type: ignore[union-attr]
                self.i += 1  # END label
            return Block(steps, label)
        if word == "IF":
            return self.if_step()
        if word in _LOOPS or word == "CASE":
            return self.skip_compound(word, start)
        end = self.to_semicolon()
        text = self.slice(self.i, end)
        offset = self.tokens[self.i].start
        first = self.i
        self.i = end
        return _simple(text, offset, word, self.tokens[first:end])

    def if_step(self) -> IfStep:
        branches: list[tuple[Expr, Block]] = []
        otherwise = None
        self.i += 1  # IF
        while True:
            then = self.until_word("THEN")
            condition = expression(self.slice(self.i, then))
            self.i = then + 1
            branches.append((condition, Block(self.statements(frozenset({"ELSEIF", "ELSE", "END"})))))
            if self.take("ELSEIF"):
                continue
            if self.take("ELSE"):
                otherwise = Block(self.statements(frozenset({"END"})))
            if not self.take("END", "IF"):
                raise ParseFailure("IF without its END IF in the procedure")
            return IfStep(tuple(branches), otherwise)

    def skip_compound(self, word: str, start: int) -> OpaqueStep:
        """A loop or a CASE statement: innolint does not run it; its END is found to read on."""
        closing = {"WHILE": "WHILE", "REPEAT": "REPEAT", "LOOP": "LOOP", "FOR": "FOR", "CASE": "CASE"}[word]
        depth = 0
        at = self.i
        tokens = self.tokens
        while at < len(tokens):
            current = _word(tokens[at])
            if current == "END" and _word(tokens[at + 1] if at + 1 < len(tokens) else None) == closing:
                if depth == 0:
                    break
                depth -= 1
                at += 1
            elif current == closing and at > self.i and (at == 0 or _word(tokens[at - 1]) != "END"):
                # a nested loop of the same kind (a WHILE's DO, a REPEAT's UNTIL are no new loops)
                if closing != "CASE" or _statement_start(tokens, at):
                    depth += 1
            at += 1
        self.i = min(at + 2, len(tokens))
        why = "a CASE statement" if word == "CASE" else f"a {word} loop"
        return OpaqueStep(f"{why} (innolint does not run loops or CASE statements)", tokens[start].start)


def _statement_start(tokens: list[Token], at: int) -> bool:
    return at == 0 or tokens[at - 1].token_type in (TokenType.SEMICOLON, TokenType.COLON) or _word(tokens[at - 1]) in (
        "THEN", "ELSE", "BEGIN", "DO", "LOOP", "REPEAT")


def _simple(text: str, offset: int, word: str, tokens: list[Token]) -> Step:
    """A statement that holds no other: DECLARE, SET, SELECT, PREPARE ... or SQL for the parser."""
    if word == "DECLARE":
        return _declare(text, offset, tokens)
    if word in ("SET", "SELECT", "PREPARE", "EXECUTE", "DEALLOCATE", "DROP", "CALL", "LEAVE", "ITERATE", "RETURN",
                "OPEN", "FETCH", "CLOSE", "SIGNAL", "RESIGNAL"):
        step = _session(text, offset, word, tokens)
        if step is not None:
            return step
    return SqlStep(text, offset)


def _declare(text: str, offset: int, tokens: list[Token]) -> Step:
    words = [_word(t) for t in tokens]
    if "HANDLER" in words:
        at = words.index("HANDLER")
        action = words[1] if len(words) > 1 else ""
        if words[at + 1 : at + 2] != ["FOR"]:
            return OpaqueStep("a handler innolint does not read", offset)
        conditions: list[str] = []
        k = at + 2
        while k < len(tokens):
            token = tokens[k]
            w = _word(token)
            if token.token_type == TokenType.NUMBER:
                conditions.append(token.text)
            elif w == "SQLSTATE":
                k += 1
                if k < len(tokens) and _word(tokens[k]) == "VALUE":
                    k += 1
                if k < len(tokens):
                    conditions.append("SQLSTATE " + tokens[k].text)
            elif w == "NOT" and k + 1 < len(tokens) and _word(tokens[k + 1]) == "FOUND":
                conditions.append("NOT FOUND")
                k += 1
            elif w in ("SQLEXCEPTION", "SQLWARNING"):
                conditions.append(w)
            elif token.token_type == TokenType.COMMA:
                pass
            else:
                break
            k += 1
        rest = text[tokens[k].start - tokens[0].start:] if k < len(tokens) else ""
        body = _Reader(rest).statement() if rest.strip() else None
        return Handler(action, tuple(conditions), body)
    if "CURSOR" in words or "CONDITION" in words:
        return OpaqueStep("a cursor or a named condition (innolint does not run cursors)", offset)
    names: list[str] = []
    k = 1
    while k < len(tokens) and (tokens[k].token_type in _WORDLIKE or _word(tokens[k])):
        names.append(tokens[k].text)
        k += 1
        if k < len(tokens) and tokens[k].token_type == TokenType.COMMA:
            k += 1
            continue
        break
    default = None
    if "DEFAULT" in words:
        at = words.index("DEFAULT")
        if at + 1 < len(tokens):
            default = expression(text[tokens[at + 1].start - tokens[0].start:])
    return Declare(tuple(names), default)


def _session(text: str, offset: int, word: str, tokens: list[Token]) -> Step | None:
    """SET, SELECT, PREPARE, EXECUTE, DEALLOCATE, CALL ... as a step; None: SQL for the parser."""
    words = [_word(t) for t in tokens]
    if word == "SET":
        return _assign(text, tokens)
    if word == "SELECT":
        return SelectStep(_select(text))
    if word == "PREPARE" and "FROM" in words:
        at = words.index("FROM")
        return Prepare(tokens[1].text if len(tokens) > 1 else "", expression(text[tokens[at + 1].start - tokens[0].start:]))
    if word == "EXECUTE":
        if words[1:2] == ["IMMEDIATE"]:
            return Execute(None, expression(text[tokens[2].start - tokens[0].start:] if len(tokens) > 2 else "NULL"))
        if "USING" in words:
            return Execute(tokens[1].text if len(tokens) > 1 else "", Opaque("EXECUTE ... USING"))
        return Execute(tokens[1].text if len(tokens) > 1 else "", None)
    if word == "DEALLOCATE" or (word == "DROP" and words[1:2] == ["PREPARE"]):
        return Deallocate(tokens[2].text if len(tokens) > 2 else "")
    if word == "CALL":
        return _call(text, tokens)
    if word in ("LEAVE", "ITERATE"):
        return Leave(tokens[1].text if len(tokens) > 1 else "") if word == "LEAVE" else OpaqueStep("ITERATE", offset)
    if word in ("RETURN", "OPEN", "FETCH", "CLOSE", "SIGNAL", "RESIGNAL"):
        return OpaqueStep(f"{word} (innolint does not run it)", offset)
    return None


def _assign(text: str, tokens: list[Token]) -> Step:
    """SET a = x, @b := y, SESSION c = z (system variables are kept out: target None)."""
    pairs: list[tuple[Local | UserVar | None, Expr]] = []
    base = tokens[0].start
    k, depth, start = 1, 0, 1
    pieces: list[tuple[int, int]] = []
    while k <= len(tokens):
        token = tokens[k] if k < len(tokens) else None
        if token is None or (token.token_type == TokenType.COMMA and depth == 0):
            pieces.append((start, k))
            start = k + 1
        elif token.token_type == TokenType.L_PAREN:
            depth += 1
        elif token.token_type == TokenType.R_PAREN:
            depth -= 1
        k += 1
    for first, end in pieces:
        if first >= end:
            continue
        head = tokens[first]
        target: Local | UserVar | None
        at = first
        if head.token_type == TokenType.PARAMETER and at + 1 < end and tokens[at + 1].token_type != TokenType.PARAMETER:
            target = UserVar(tokens[at + 1].text)
            at += 2
        elif _word(head) in ("NAMES", "CHARACTER", "CHARSET", "TRANSACTION", "PASSWORD", "ROLE", "DEFAULT",
                             "GLOBAL", "SESSION", "LOCAL", "PERSIST", "PERSIST_ONLY", "STATEMENT") or head.token_type == TokenType.PARAMETER or head.text.startswith("@@"):
            pairs.append((None, Const(None)))
            continue
        else:
            target = Local(head.text)
            at += 1
        if at < end and tokens[at].token_type in (TokenType.EQ, TokenType.COLON_EQ, TokenType.COLON):
            at += 1
            if at < end and tokens[at].token_type == TokenType.EQ:  # `:` `=` read apart
                at += 1
        if at >= end:
            continue
        value = text[tokens[at].start - base : tokens[end - 1].end + 1 - base]
        if target.__class__ is Local and target.name.upper() in _SYSTEM_WORDS:  # type: ignore[union-attr]
            pairs.append((None, Const(None)))
            continue
        pairs.append((target, expression(value)))
    return Assign(tuple(pairs))


#: SET of these is a system variable's, not a local one's
_SYSTEM_WORDS = frozenset({"AUTOCOMMIT", "FOREIGN_KEY_CHECKS", "UNIQUE_CHECKS", "SQL_MODE", "TIME_ZONE", "SQL_NOTES",
                           "SQL_SAFE_UPDATES", "SQL_LOG_BIN", "CHARACTER_SET_CLIENT", "CHARACTER_SET_RESULTS",
                           "COLLATION_CONNECTION", "MAX_EXECUTION_TIME", "INNODB_STRICT_MODE", "GROUP_CONCAT_MAX_LEN",
                           "DEFAULT_STORAGE_ENGINE", "STORAGE_ENGINE", "LOCK_WAIT_TIMEOUT", "INNODB_LOCK_WAIT_TIMEOUT",
                           "SQL_QUOTE_SHOW_CREATE", "OLD_ALTER_TABLE", "ALTER_ALGORITHM", "NAMES"})


def _call(text: str, tokens: list[Token]) -> Step:
    at = 1
    first = tokens[at].text if at < len(tokens) else ""
    database = None
    at += 1
    if at < len(tokens) and tokens[at].token_type == TokenType.DOT and at + 1 < len(tokens):
        database, first = first, tokens[at + 1].text
        at += 2
    args: tuple[Expr, ...] = ()
    if at < len(tokens) and tokens[at].token_type == TokenType.L_PAREN:
        inner = text[tokens[at].end + 1 - tokens[0].start : tokens[-1].start - tokens[0].start]
        if inner.strip():
            parsed = _parse_select("SELECT " + inner)
            args = tuple(_expr(e) for e in parsed.expressions) if isinstance(parsed, exp.Select) else (Opaque(str(parsed)),)
    return CallStep(database, first, args)


def session_step(text: str) -> Step:
    """A statement outside a procedure that builds or runs SQL: SET @v, PREPARE, EXECUTE, EXECUTE
    IMMEDIATE, DEALLOCATE PREPARE, CALL."""
    try:
        tokens = _tokens(text)
    except ParseFailure as failure:
        return OpaqueStep(failure.reason, 0)
    if not tokens:
        return OpaqueStep("an empty statement", 0)
    try:
        step = _session(text, 0, _word(tokens[0]), tokens)
    except ParseFailure as failure:
        return OpaqueStep(failure.reason, 0)
    return step if step is not None else OpaqueStep(f"{_word(tokens[0])} (innolint does not run it)", 0)


def procedure(text: str) -> Procedure:
    """A CREATE PROCEDURE statement's parameters and body. Raises ParseFailure where it cannot
    read them."""
    reader = _Reader(text)
    tokens = reader.tokens
    while reader.i < len(tokens) and reader.word() != "PROCEDURE":
        reader.i += 1
    reader.i += 1
    reader.take("IF", "NOT", "EXISTS")
    reader.name()
    if reader.peek() is not None and reader.peek().token_type == TokenType.DOT:  # type: ignore[union-attr]
        reader.i += 1
        reader.name()
    params: list[tuple[str, str]] = []
    token = reader.peek()
    if token is None or token.token_type != TokenType.L_PAREN:
        raise ParseFailure("a procedure without its parameter list")
    depth, reader.i, expect = 1, reader.i + 1, True
    while reader.i < len(tokens) and depth:
        token = tokens[reader.i]
        kind = token.token_type
        if kind == TokenType.L_PAREN:
            depth += 1
        elif kind == TokenType.R_PAREN:
            depth -= 1
        elif kind == TokenType.COMMA and depth == 1:
            expect = True
        elif expect and depth == 1:
            mode = _word(token)
            if mode in ("IN", "OUT", "INOUT"):
                reader.i += 1
                token = tokens[reader.i]
            else:
                mode = "IN"
            params.append((mode, token.text))
            expect = False
        reader.i += 1
    while reader.word() in _CHARACTERISTICS or (
            reader.peek() is not None and reader.peek().token_type == TokenType.STRING):  # type: ignore[union-attr]
        reader.i += 1
    body = reader.statement()
    return Procedure(tuple(params), body)


# -- expressions through sqlglot -------------------------------------------------------------------
def _parse_select(text: str) -> exp.Expression | str:
    try:
        tokens = tokenize(text)
        parsed = PARSER.parse(tokens, text)
    except (ParseError, ParseFailure, ValueError, RecursionError) as error:
        return f"innolint cannot read it ({str(error).splitlines()[0][:120]})"
    if len(parsed) != 1 or parsed[0] is None:
        return "more than one statement"
    return parsed[0]


def expression(text: str) -> Expr:
    """One expression's tree (an `Opaque` where innolint cannot read it)."""
    parsed = _parse_select("SELECT " + text)
    if not isinstance(parsed, exp.Select) or len(parsed.expressions) != 1 or parsed.args.get("from_") is not None:
        return Opaque(parsed if isinstance(parsed, str) else "not one expression")
    if isinstance(parsed.expressions[0], exp.Alias):  # `1 BEGIN`: a select list takes a name there, a value does not
        return Opaque(f"a word after the value ({parsed.expressions[0].alias})", refused=True)
    return _expr(parsed.expressions[0])


def set_refusal(text: str) -> str | None:
    """Why the server refuses a SET of user variables as a syntax error (a word after a value:
    `SET @a := 1` and the next line's `BEGIN` with the `;` between them left out), or None."""
    step = session_step(text)
    if isinstance(step, Assign):
        for _, value in step.pairs:
            if isinstance(value, Opaque) and value.refused:
                return f"SET: {value.why}: the server refuses it (error 1064), and runs nothing after it in its packet"
    return None


def _select(text: str) -> Select | Opaque:
    parsed = _parse_select(text)
    if isinstance(parsed, str):
        return Opaque(parsed)
    if not isinstance(parsed, exp.Select):
        return Opaque("a query innolint does not evaluate (a UNION ...)")
    return _select_tree(parsed)


_UNSUPPORTED_CLAUSES = ("joins", "group", "having", "order", "laterals", "windows", "distinct", "with_", "offset")


def _select_tree(node: exp.Select) -> Select | Opaque:
    for clause in _UNSUPPORTED_CLAUSES:
        if node.args.get(clause):
            return Opaque(f"a query with {clause.rstrip('_').upper()} (innolint evaluates a query of one table)")
    source = None
    found = node.args.get("from_")
    if found is not None:
        table = found.this
        if not isinstance(table, exp.Table) or table.args.get("joins"):
            return Opaque("a query of a derived table (innolint evaluates a query of one table)")
        source = (table.db or None, table.name)
    into: list[Local | UserVar] = []
    target = node.args.get("into")
    if target is not None:
        names = [target.this, *target.expressions] if target.this is not None else list(target.expressions)
        for item in names:
            text = item.sql(dialect="mysql") if isinstance(item, exp.Expression) else str(item)
            into.append(UserVar(text[1:]) if text.startswith("@") else Local(getattr(item, "name", text) or text))
    limit = None
    if node.args.get("limit") is not None:
        value = node.args["limit"].expression
        limit = int(value.this) if isinstance(value, exp.Literal) and value.is_int else None
    items = tuple(_expr(e) for e in node.expressions)
    where = node.args.get("where")
    return Select(items, source, _expr(where.this) if where is not None else None, tuple(into), limit)


_BINARY = {
    exp.EQ: "=", exp.NEQ: "<>", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=", exp.NullSafeEQ: "<=>",
    exp.And: "AND", exp.Or: "OR", exp.Xor: "XOR", exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/",
    exp.Like: "LIKE",
}
#: functions sqlglot gives a class of their own, by the name the server knows them
_NAMED = {exp.Concat: "CONCAT", exp.ConcatWs: "CONCAT_WS", exp.Coalesce: "COALESCE", exp.Lower: "LOWER",
          exp.Upper: "UPPER", exp.CurrentSchema: "DATABASE", exp.Count: "COUNT", exp.Length: "LENGTH",
          exp.Trim: "TRIM", exp.Nullif: "NULLIF", exp.Max: "MAX", exp.Min: "MIN", exp.Sum: "SUM"}


def _expr(node: exp.Expression) -> Expr:
    kind = node.__class__
    if kind is exp.Literal:
        if node.is_string:
            return Const(node.this)
        try:
            return Const(int(node.this)) if node.is_int else Const(decimal.Decimal(node.this))
        except (ValueError, decimal.InvalidOperation):
            return Opaque(f"the number {node.this}")
    if kind is exp.Null:
        return Const(None)
    if kind is exp.Boolean:
        return Const(1 if node.this else 0)
    if kind is exp.Paren:
        return _expr(node.this)
    if kind is exp.Column:
        if node.table:
            return Column(node.name)
        return Local(node.name)
    if kind is exp.Parameter:
        return UserVar(node.name)
    if kind is exp.SessionParameter:
        return Opaque(f"the system variable @@{node.name}")
    if kind in _BINARY:
        return Op(_BINARY[kind], (_expr(node.this), _expr(node.expression)))
    if kind is exp.Not:
        return Op("NOT", (_expr(node.this),))
    if kind is exp.Neg:
        return Op("NEG", (_expr(node.this),))
    if kind is exp.Is:
        other = node.expression
        if isinstance(other, exp.Null):
            return Op("IS NULL", (_expr(node.this),))
        return Opaque("IS TRUE / IS FALSE")
    if kind is exp.In:
        if node.args.get("query") is not None:
            return Opaque("IN (SELECT ...)")
        return Op("IN", (_expr(node.this), *(_expr(e) for e in node.expressions)))
    if kind is exp.If:
        return Call("IF", (_expr(node.this), _expr(node.args["true"]),
                           _expr(node.args["false"]) if node.args.get("false") is not None else Const(None)))
    if kind in (exp.Subquery, exp.Exists, exp.Select):
        inner = node if kind is exp.Select else node.this
        if not isinstance(inner, exp.Select):
            return Opaque("a subquery innolint does not evaluate (a UNION ...)")
        select = _select_tree(inner)
        return select if isinstance(select, Opaque) else Query(select, "exists" if kind is exp.Exists else "value")
    if kind is exp.Collate:
        return _expr(node.this)
    if kind in _NAMED:
        name = _NAMED[kind]
        if kind is exp.Count:
            target = node.this
            if target is None or isinstance(target, exp.Star):
                return Call("COUNT", ())
            if isinstance(target, exp.Distinct):
                return Opaque("COUNT(DISTINCT ...)")
            return Call("COUNT", (_expr(target),))
        if kind is exp.Trim and (node.args.get("position") or node.args.get("expression")):
            return Opaque("TRIM with a position")
        args = [node.this] if node.args.get("this") is not None else []
        args += list(node.expressions)
        if kind is exp.Nullif:
            args = [node.this, node.expression]
        return Call(name, tuple(_expr(a) for a in args))
    if kind is exp.Anonymous:
        return Call(str(node.this).upper(), tuple(_expr(a) for a in node.expressions))
    return Opaque(f"{node.sql(dialect='mysql')[:80]} (innolint does not evaluate it)")
