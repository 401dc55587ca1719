"""Where the SELECT of a CREATE TABLE ... SELECT or a CREATE VIEW has a quoted string where the
server's grammar wants a name, which makes the server refuse the whole statement (syntax error,
1064): the table and the view are not created.

Why: without sql_mode ANSI_QUOTES, `"t3"` is a string, not a name (the splitter hands the text on
with `"x"` made a quoted name when ANSI_QUOTES is in effect, `linter.input.splitter.sqlmode`). A
string is a value in a select list, a WHERE or an ON condition, and an alias of a select item
(`a AS 'x'`), all of which the server takes; it is refused where a table, a qualified name or a
table's alias goes. MariaDB 10.11 refuses each of these (tests/test_parse_refusals.py):

- next to a `.`: `d1."t3"`, `"t3".a`, `t."a"`;
- a table read: after FROM, a JOIN, or a comma of the FROM clause; a CTE's name after WITH;
- a table's alias, with or without AS (`t "x"`, `(SELECT ...) AS 'dt'`);
- in the name lists of USING (...), PARTITION (...), an index hint's (...), and the column list of
  a derived table's or a CTE's name.

The scan is one pass over the tokens, with a stack of parenthesis levels: a FROM counts only at a
level that holds a query (a SELECT or WITH seen at it), so `TRIM('x' FROM 'y')` and
`EXTRACT(YEAR FROM d)` are values. Anything it cannot place is left to the server (no refusal
said), so it never refuses what the server takes."""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot.tokens import Token, TokenType

from linter.parse.tokens import UNQUOTED, head_word

#: words that end the FROM clause of a query (what follows is no table read)
_FROM_ENDS = frozenset({"WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW", "UNION", "EXCEPT", "INTERSECT",
                        "INTO", "PROCEDURE", "LOCK", "FETCH", "OFFSET", "RETURNING"})
#: words after which a FROM clause reads a table (`LEFT JOIN`, `NATURAL JOIN` end in JOIN)
_JOINS = frozenset({"JOIN", "STRAIGHT_JOIN"})
#: words before `(` in a FROM clause whose parentheses hold names only
_NAME_LISTS = frozenset({"USING", "PARTITION", "INDEX", "KEY"})
#: token types a table's alias written without AS may have (any word may follow AS)
_ALIAS_TYPES = frozenset({TokenType.VAR, TokenType.IDENTIFIER})


class _Level:
    """One parenthesis level of the scan."""

    __slots__ = ("query", "clause", "expect", "names", "derived")

    def __init__(self, *, names: bool = False, derived: bool = False) -> None:
        #: a SELECT or WITH was seen at this level: its FROM, JOIN and commas read tables
        self.query = False
        #: "select", "from", "with" or "" (the other clauses)
        self.clause = ""
        #: what the next token is: "table" (a table or CTE name), "alias" (a table's alias; after
        #: the table's name or a derived table), "as" (the alias after AS), "columns" (a column
        #: list may follow the alias or CTE name), or ""
        self.expect = ""
        #: the level is a list of names (USING (...), PARTITION (...), a derived table's columns)
        self.names = names
        #: the level is a derived table (or a table function's arguments): its alias follows it
        self.derived = derived


def string_for_a_name(tokens: Sequence[Token]) -> Token | None:
    """The first quoted string in `tokens` (a query, or the text around one) where the server's
    grammar wants a name, or None."""
    levels = [_Level()]
    previous: Token | None = None
    for i, token in enumerate(tokens):
        kind = token.token_type
        level = levels[-1]
        after_dot = previous is not None and previous.token_type == TokenType.DOT
        if kind == TokenType.STRING:
            before_dot = i + 1 < len(tokens) and tokens[i + 1].token_type == TokenType.DOT
            if after_dot or before_dot or level.names or level.expect in ("table", "alias", "as"):
                return token
            level.expect = ""
        elif kind == TokenType.L_PAREN:
            word = head_word(previous) if previous is not None and previous.token_type not in UNQUOTED else ""
            names = level.expect == "columns" or (level.clause == "from" and word in _NAME_LISTS)
            derived = level.expect in ("table", "alias")
            level.expect = ""
            levels.append(_Level(names=names, derived=derived))
        elif kind == TokenType.R_PAREN:
            if len(levels) > 1:
                closed = levels.pop()
                levels[-1].expect = "alias" if closed.derived else ""
        elif kind == TokenType.COMMA:
            level.expect = "table" if level.query and level.clause in ("from", "with") and not level.names else ""
        elif kind == TokenType.DOT or after_dot:
            pass  # a qualified name goes on: what is expected after it is what was after its first part
        else:
            _word(level, token)
        previous = token
    return None


def _word(level: _Level, token: Token) -> None:
    """A word (or a quoted name) at `level`: the clause it starts, or the name it is."""
    word = head_word(token) if token.token_type not in UNQUOTED else ""
    if word == "SELECT":
        level.query, level.clause, level.expect = True, "select", ""
    elif word == "WITH":
        level.query, level.clause, level.expect = True, "with", "table"
    elif level.expect == "table" and word == "RECURSIVE" and level.clause == "with":
        pass
    elif level.query and word == "FROM" and level.clause != "from":
        level.clause, level.expect = "from", "table"
    elif level.query and level.clause == "from" and word in _JOINS:
        level.expect = "table"
    elif level.query and word in _FROM_ENDS:
        level.clause, level.expect = "", ""
    elif level.expect == "table":
        level.expect = "columns" if level.clause == "with" else "alias"
    elif level.expect == "alias" and word == "AS":
        level.expect = "as"
    elif level.expect == "as" or (level.expect == "alias" and token.token_type in _ALIAS_TYPES):
        level.expect = "columns"
    else:
        level.expect = ""
