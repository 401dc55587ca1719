"""Tokens of one statement's text, for what the splitter reads in it beyond its end: the structure
of a compound statement (`linter.input.splitter.compound`) and the value a `SET sql_mode` gives (`linter.input.splitter.sqlmode`).

The text is a statement the splitter already delimited, in the server's default quoting (the
splitter rewrites ANSI_QUOTES and NO_BACKSLASH_ESCAPES text before anything reads it). One regex
with possessive loops and alternatives that differ by their first character: every token is taken
once and nothing is ever read twice, so a token list costs time linear in the text. An unclosed
quote or comment is a token up to the end of the text (it never fails).
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: token kinds
WORD, QUOTED, VAR, COMMENT, PUNCT, SEMI = "w", "q", "v", "c", "p", ";"

_SQ = r"'(?:[^'\\]++|\\.|'')*+'?"
_DQ = r'"(?:[^"\\]++|\\.|"")*+"?'
_BQ = r"`(?:[^`]++|``)*+`?"
#: quotes without backslash escapes (NO_BACKSLASH_ESCAPES; `"` under ANSI_QUOTES)
_SQ_PLAIN = r"'(?:[^']++|'')*+'?"
_DQ_PLAIN = r'"(?:[^"]++|"")*+"?'


def _token_pattern(sq: str, dq: str) -> re.Pattern[str]:
    return re.compile(
        rf"""[ \t\n\r\f\v]++
        |(?P<c>(?:--(?=[ \t\n\r\f\v\-]|\Z)|\#)[^\n]*+|/\*(?:[^*]++|\*(?!/))*+(?:\*/)?)
        |(?P<q>{sq}|{dq}|{_BQ})
        |(?P<v>@@?(?:[A-Za-z0-9_$.]++|{_BQ}|{sq}|{dq})?)
        |(?P<w>[A-Za-z0-9_$\u0080-\U0010ffff]++)
        |(?P<p>:=|[^ \t\n\r\f\v])""",
        re.X | re.S,
    )


#: by quoting, as the splitter numbers it (bit 1: NO_BACKSLASH_ESCAPES, bit 2: ANSI_QUOTES)
_TOKENS = {
    0: _token_pattern(_SQ, _DQ), 1: _token_pattern(_SQ_PLAIN, _DQ_PLAIN), 2: _token_pattern(_SQ, _DQ_PLAIN),
    3: _token_pattern(_SQ_PLAIN, _DQ_PLAIN),
}


class Token(NamedTuple):
    kind: str
    text: str  # as written; for a word, in upper case
    start: int
    end: int


def tokens(text: str, offset: int = 0, quoting: int = 0) -> list[Token]:
    """The tokens of `text` (whitespace left out), their offsets counted from `offset`; `quoting`
    as the splitter numbers it (the text is in the default quoting unless told otherwise)."""
    found: list[Token] = []
    for m in _TOKENS[quoting].finditer(text):
        kind = m.lastgroup
        if kind is None:
            continue  # whitespace
        value = m.group()
        found.append(Token(kind, value.upper() if kind == WORD else value, m.start() + offset, m.end() + offset))
    return found


def comments(text: str, needle: str = "") -> list[Token]:
    """The comment tokens of `text` (in the default quoting) that hold `needle`, as the server
    reads them: a `--` or `#` inside a quoted string or identifier is no comment. One pass of the
    token regex, without building the other tokens."""
    found = []
    for m in _TOKENS[0].finditer(text):
        if m.lastgroup == COMMENT and needle in m.group():
            found.append(Token(COMMENT, m.group(), m.start(), m.end()))
    return found


def comment_text(token: Token) -> str:
    """A comment token's text without its markers."""
    text = token.text
    if text.startswith("/*"):
        text = text[2:-2] if text.endswith("*/") and len(text) >= 4 else text[2:]
    elif text.startswith("--"):
        text = text[2:]
    else:
        text = text[1:]
    return text.strip(" \t\n\r\f\v")


def unquote(token: Token) -> str:
    """The value of a quoted token (string or identifier), escapes resolved as MySQL reads them."""
    text = token.text
    quote = text[0]
    body = text[1:-1] if len(text) >= 2 and text.endswith(quote) else text[1:]
    if quote == "`":
        return body.replace("``", "`")
    body = body.replace(quote * 2, quote)
    if "\\" not in body:
        return body
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body, flags=re.S)


_ESCAPES = {"0": "\0", "b": "\b", "n": "\n", "r": "\r", "t": "\t", "Z": "\x1a", "%": "\\%", "_": "\\_"}
