"""A statement's tokens (sqlglot's MySQL tokenizer, with the lines of the statement) and the
cursor the parsers read them with (`Cursor`), the failure every parser raises (`ParseFailure`:
the reason, and the line within the statement), and the word tables they share. See
`linter.parse.statement` for what is parsed how."""

from __future__ import annotations

from sqlglot.dialects.mysql import MySQL
from sqlglot.errors import ErrorLevel, TokenError
from sqlglot.tokens import Token, TokenType

from linter.parse import ops
from linter.parse.elements import element_offset


_DIALECT = MySQL()
# One tokenizer, parser and SQL generator for the whole run: each resets its state at every call,
# and building them per statement cost a fifth of the time of a CREATE TABLE (innolint parses in
# one thread per process). The generator writes no comments: a comment after a column's last
# attribute (`d DATE DEFAULT '0000-00-00' -- why`, before the closing parenthesis) is attached by
# sqlglot to the DEFAULT's literal, and the value the server keeps has none of it.
TOKENIZER = _DIALECT.tokenizer()
PARSER = _DIALECT.parser(error_level=ErrorLevel.RAISE)
GENERATOR = _DIALECT.generator(comments=False)


class ParseFailure(Exception):
    """A DDL statement that could not be understood: the reason, and the line within the
    statement (0 = its first line) where the trouble is. `refused`: innolint knows the server
    refuses the text (a syntax error, a `;` left out), so it runs nothing after it in its packet
    either; else only innolint cannot read it."""

    def __init__(self, reason: str, line_offset: int = 0, *, refused: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line_offset = line_offset
        self.refused = refused


# Objects whose CREATE/ALTER/DROP is not table DDL.
SKIP_OBJECTS = frozenset(
    """PROCEDURE FUNCTION TRIGGER EVENT USER ROLE SERVER LOGFILE SEQUENCE PACKAGE SYNONYM
    RESOURCE SPATIAL_REFERENCE_SYSTEM AGGREGATE""".split()
)


# Type aliases, so checks compare one spelling.
TYPE_ALIASES = {
    "INTEGER": "INT", "INT4": "INT", "INT8": "BIGINT", "INT1": "TINYINT", "INT2": "SMALLINT",
    "INT3": "MEDIUMINT", "MIDDLEINT": "MEDIUMINT", "BOOL": "TINYINT", "BOOLEAN": "TINYINT",
    "DEC": "DECIMAL", "NUMERIC": "DECIMAL", "FIXED": "DECIMAL", "REAL": "DOUBLE", "FLOAT8": "DOUBLE",
    "FLOAT4": "FLOAT", "CHARACTER": "CHAR", "NCHAR": "CHAR", "NVARCHAR": "VARCHAR",
    "GEOMCOLLECTION": "GEOMETRYCOLLECTION",
}
KEY_WORDS = frozenset({"PRIMARY", "KEY", "INDEX", "UNIQUE", "FULLTEXT", "SPATIAL", "CONSTRAINT", "FOREIGN", "CHECK", "PERIOD"})
_NAME_TYPES = frozenset({TokenType.IDENTIFIER, TokenType.VAR})
PUNCTUATION = frozenset(
    {TokenType.L_PAREN, TokenType.R_PAREN, TokenType.COMMA, TokenType.DOT, TokenType.SEMICOLON, TokenType.EQ}
)
UNQUOTED = frozenset({TokenType.IDENTIFIER, TokenType.STRING})
L_PAREN, R_PAREN, _COMMA = TokenType.L_PAREN, TokenType.R_PAREN, TokenType.COMMA
#: the upper-case words of a token's text (`Cursor._match`), by text: keywords recur in every statement
_WORDS: dict[str, tuple[str, ...]] = {}


def tokenize(text: str) -> list[Token]:
    """sqlglot's MySQL tokens. sqlglot swallows the rest of a RENAME into one string (it treats
    RENAME as an opaque command): those are tokenized again, keeping offsets."""
    try:
        tokens = TOKENIZER.tokenize(text)
        if len(tokens) == 2 and tokens[0].token_type == TokenType.RENAME and tokens[1].token_type == TokenType.STRING:
            prefix = tokens[0].end + 1
            tokens = tokens[:1] + TOKENIZER.tokenize(" " * prefix + text[prefix:])
        if text.count("\r") != text.count("\r\n"):
            _renumber_lines(tokens, text)
        return tokens
    except TokenError as error:
        raise ParseFailure(f"cannot tokenize: {first_line(str(error))}") from None


def _renumber_lines(tokens: list[Token], text: str) -> None:
    """Count token lines on `\\n` only, as the splitter does: sqlglot also counts a lone `\\r` (old
    Mac line ends) as a line break, which put diagnostics past the statement's last line."""
    line, counted = 1, 0
    for token in tokens:
        if token.start > counted:
            line += text.count("\n", counted, token.start)
            counted = token.start
        token.line = line


TOO_DEEP = "nested too deeply to parse"


# -- a `;` left out ---------------------------------------------------------------------------
# The client sends everything up to the next `;` as one statement, so a `;` left out at a line's
# end glues two statements together, and the server refuses the text with a syntax error: neither
# runs. Such text is reported where the second statement starts, never read as the first alone
# (the CREATE TABLE after `DROP TABLE IF EXISTS t1` would be lost in silence). A line inside one
# statement starting with one of these words is taken for that start; for a statement skipped on
# purpose (SET, INSERT ...) only the DDL words count. Compound statements (routines, triggers,
# events, and the BEGIN / IF / WHILE ... blocks of the splitter) hold statements on purpose.
DDL_GLUE_WORDS = frozenset({"CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE", "INSERT"})


#: a quoted string where the grammar wants a name: `'b'` always, `"b"` unless ANSI_QUOTES is in
#: effect (the splitter follows SET sql_mode and hands such a text on with `"b"` as a quoted name,
#: `linter.input.splitter.sqlmode`). MariaDB 10.11 refuses it (1064, tests/test_parse_refusals.py).
STRING_FOR_NAME = ("a quoted string where a name is required (a double-quoted name reads as one only under "
                    "sql_mode ANSI_QUOTES): the server refuses the statement (syntax error, 1064)")


class Places:
    """Where in a statement's text an element starts, as `element_offset` (lines below the
    statement's first line, 1-based column), asked in text order: each answer counts the line
    breaks since the last one, so the elements of a statement cost its length once, even on one
    line of a megabyte (a minified dump). Lines are counted on `\n`, as the splitter counts them."""

    __slots__ = ("text", "_pos", "_line", "_line_start")

    def __init__(self, text: str) -> None:
        self.text = text
        self._pos = self._line = self._line_start = 0

    def offset(self, start: int) -> int:
        if start < self._pos:  # (asked out of order: counted again from the start)
            self._pos = self._line = self._line_start = 0
        breaks = self.text.count("\n", self._pos, start)
        if breaks:
            self._line += breaks
            self._line_start = self.text.rfind("\n", self._pos, start) + 1
        self._pos = start
        return element_offset(self._line, start - self._line_start + 1)


class Cursor:
    def __init__(self, tokens: list[Token], text: str, places: Places | None = None) -> None:
        self.tokens = tokens
        self.text = text
        #: the system-versioning ROW END column a CREATE TABLE defines (`_system_versioned_keys`)
        self.row_end: str | None = None
        self.i = 0
        self.first_line = tokens[0].line if tokens else 1
        #: where elements start in the statement, shared with the cursors made from this one (`sub`)
        self.places = places if places is not None else Places(text)

    # -- looking
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def word(self, k: int = 0) -> str:
        """The first upper-case word of a bare token at i+k ('' for quoted names, strings, the
        end). sqlglot makes one token of some keyword pairs ('PRIMARY KEY', 'PARTITION BY')."""
        token = self.peek(k)
        if token is None or token.token_type in UNQUOTED:
            return ""
        return head_word(token)

    def _match(self, words: tuple[str, ...]) -> int:
        """How many tokens spell `words` at the cursor (a token may hold several), or 0."""
        k = w = 0
        tokens = self.tokens
        while w < len(words):
            j = self.i + k
            if j >= len(tokens):
                return 0
            token = tokens[j]
            if token.token_type in UNQUOTED:
                return 0
            text = token.text
            parts = _WORDS.get(text)
            if parts is None:
                parts = tuple(text.upper().split())
                if len(_WORDS) < 4096:
                    _WORDS[text] = parts
            if words[w : w + len(parts)] != parts:
                return 0
            w += len(parts)
            k += 1
        return k

    def at(self, *words: str) -> bool:
        return self._match(words) > 0

    def at_type(self, token_type: TokenType, k: int = 0) -> bool:
        token = self.peek(k)
        return token is not None and token.token_type == token_type

    @property
    def done(self) -> bool:
        return self.i >= len(self.tokens)

    def line_offset(self) -> int:
        token = self.peek() or (self.tokens[-1] if self.tokens else None)
        return (token.line - 1) if token else 0

    # -- moving
    def advance(self, n: int = 1) -> None:
        self.i += n

    def accept(self, *words: str) -> bool:
        matched = self._match(words)
        self.i += matched
        return matched > 0

    def accept_type(self, token_type: TokenType) -> bool:
        if self.at_type(token_type):
            self.i += 1
            return True
        return False

    def expect(self, *words: str) -> None:
        if not self.accept(*words):
            self.fail(f"expected {' '.join(words)}")

    def fail(self, reason: str, *, refused: bool = False) -> None:
        token = self.peek()
        found = f" near {token.text!r}" if token is not None else " at the end of the statement"
        raise ParseFailure(reason + found, self.line_offset(), refused=refused)

    def accept_if_exists(self) -> bool:
        """`IF EXISTS` or `IF NOT EXISTS` at the cursor, taken: whether there was one."""
        return self.accept("IF", "EXISTS") or self.accept("IF", "NOT", "EXISTS")

    def expect_end(self, what: str) -> None:
        """Nothing may follow here: a word after the end (often a `;` left out before the next
        statement, which the server then reads as part of this one) fails the statement."""
        if not self.done:
            if self.word() in DDL_GLUE_WORDS:
                self.fail(f"a `;` seems to be missing after {what}: the server reads this text as one statement and "
                          "refuses it (syntax error), so none of it runs;", refused=True)
            self.fail(f"unexpected text after {what}")

    # -- names and values
    def name(self) -> str:
        """An identifier; template pieces glued to it (`%PREFIX%name`, `{$p}x`, `@ENGINE@`) are
        kept as one name, so install scripts with placeholders still lint."""
        token = self.peek()
        if token is None or token.token_type in PUNCTUATION:
            self.fail("expected a name")
        assert token is not None
        if token.token_type == TokenType.STRING:
            self.fail(STRING_FOR_NAME, refused=True)
        parts = [self._raw(token)]
        self.i += 1
        while token.token_type != TokenType.IDENTIFIER:  # `quoted`NEXT is two tokens
            nxt = self.peek()
            if (nxt is None or nxt.token_type in PUNCTUATION or nxt.token_type == TokenType.IDENTIFIER
                    or nxt.start != token.end + 1):
                break
            parts.append(self._raw(nxt))
            token = nxt
            self.i += 1
        return "".join(parts)

    def qualified(self) -> ops.Name:
        token = self.peek()
        first = self.name()
        if self.at_type(TokenType.DOT):
            self.i += 1
            return ops.Name(first, self.name())  # (a name after a period is never a keyword: not bare)
        return ops.Name(None, first, bare=token is not None and token.token_type != TokenType.IDENTIFIER)

    def value(self) -> str:
        """An option value: a string's content, a number, or a word."""
        token = self.peek()
        if token is None:
            self.fail("expected a value")
        assert token is not None
        if token.token_type == TokenType.STRING:
            self.i += 1
            return token.text
        return self.name()

    def _raw(self, token: Token) -> str:
        if token.token_type in UNQUOTED:
            return token.text
        return self.text[token.start : token.end + 1]

    def group(self) -> list[Token]:
        """The tokens inside the balanced parentheses at the cursor (which must be `(`)."""
        if not self.at_type(L_PAREN):
            self.fail("expected (")
        tokens = self.tokens
        i = self.i
        start = i + 1
        depth = 0
        for i in range(i, len(tokens)):
            token_type = tokens[i].token_type
            if token_type == L_PAREN:
                depth += 1
            elif token_type == R_PAREN:
                depth -= 1
                if depth == 0:
                    self.i = i + 1
                    return tokens[start:i]
        self.i = len(tokens)
        self.fail("unbalanced parentheses")
        return []

    def skip_rest(self) -> str:
        """The text from the cursor to the end of the statement."""
        if self.done:
            return ""
        start = self.tokens[self.i].start
        self.i = len(self.tokens)
        return self.text[start:].strip()

    def sub(self, tokens: list[Token]) -> Cursor:
        cursor = Cursor(tokens, self.text, self.places)
        cursor.first_line = self.first_line
        return cursor

    def offset_of(self, token: Token) -> int:
        """Where `token` starts in the statement (`Places.offset`)."""
        return self.places.offset(token.start)


def split_top_level(tokens: list[Token]) -> list[list[Token]]:
    """Split tokens on commas outside parentheses."""
    parts: list[list[Token]] = []
    depth = start = 0
    for i, token in enumerate(tokens):
        token_type = token.token_type
        if token_type == L_PAREN:
            depth += 1
        elif token_type == R_PAREN:
            depth -= 1
        elif token_type == _COMMA and depth == 0:
            if i > start:
                parts.append(tokens[start:i])
            start = i + 1
    if len(tokens) > start:
        parts.append(tokens[start:])
    return parts


def head_word(token: Token) -> str:
    text = token.text.upper()
    space = text.find(" ")
    return text if space < 0 else text[:space]


def first_line(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else "syntax error"
