"""The two SQL modes that change how text is read, followed through `SET sql_mode` statements.

ANSI_QUOTES makes `"x"` an identifier (like `` `x` ``, with no backslash escapes) instead of a
string; NO_BACKSLASH_ESCAPES makes a backslash an ordinary character in strings, so `'a\\'` is a
whole string. Both change where a statement ends, and what it means. The server applies the
session's mode to every statement it parses after the SET that changed it, and the mysql client
follows NO_BACKSLASH_ESCAPES and ANSI_QUOTES through the server's status flags, so a file that
sets them is split, and read, with them from that point on.

`Modes` evaluates the sql_mode assignments of a SET statement: literal lists (`'ANSI_QUOTES,
STRICT_TRANS_TABLES'`), the combination modes that hold ANSI_QUOTES (ANSI, ORACLE, MSSQL, DB2,
POSTGRESQL, MAXDB), DEFAULT, the current value (`@@sql_mode`, `@@SESSION.sql_mode`), user
variables it saw set from those (mysqldump's `SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='...'` and its
`SET SQL_MODE=@OLD_SQL_MODE`), and CONCAT/CONCAT_WS/REPLACE of all these. GLOBAL and PERSIST
assignments do not change the session; `SET STATEMENT ... FOR` changes it for one statement that
was already parsed. Anything else is not evaluated: the caller says so at the statement.

`normalize` rewrites a statement read under these modes into the server's default quoting (the
only reading the parser knows): an ANSI-quoted identifier becomes a backtick one, and a backslash
in a string under NO_BACKSLASH_ESCAPES is doubled. Line breaks are left where they are.
"""

from __future__ import annotations

import re
from functools import lru_cache

from linter.input.splitter.sqltext import COMMENT, PUNCT, QUOTED, VAR, WORD, Token, tokens, unquote

ANSI_QUOTES = "ANSI_QUOTES"
NO_BACKSLASH_ESCAPES = "NO_BACKSLASH_ESCAPES"
#: the combination modes that include ANSI_QUOTES (MySQL 5.7 and MariaDB; MySQL 8 kept only ANSI)
_HAS_ANSI_QUOTES = frozenset({"ANSI", "ANSI_QUOTES", "ORACLE", "MSSQL", "DB2", "POSTGRESQL", "MAXDB"})
_SESSION_SCOPES = frozenset({"SESSION", "LOCAL"})
_OTHER_SCOPES = frozenset({"GLOBAL", "PERSIST", "PERSIST_ONLY"})


def quoting(mode: str) -> frozenset[str]:
    """The quoting-relevant flags of an sql_mode value (a comma-separated list)."""
    names = {name.strip().upper() for name in mode.split(",")}
    found = set()
    if names & _HAS_ANSI_QUOTES:
        found.add(ANSI_QUOTES)
    if NO_BACKSLASH_ESCAPES in names:
        found.add(NO_BACKSLASH_ESCAPES)
    return frozenset(found)


class Modes:
    """The session's sql_mode as far as innolint follows it (None: a value it could not evaluate)."""

    def __init__(self) -> None:
        self.value: str | None = ""  # the server's default sets neither flag
        self.flags: frozenset[str] = frozenset()
        self._variables: dict[str, str | None] = {}

    def reading_state(self) -> tuple[object, ...]:
        """What of it the next text is read in (`linter.input.splitter.repeats`): the mode, its
        quoting flags and the user variables a later SET may give it."""
        return (self.value, self.flags, tuple(sorted(self._variables.items())))

    def apply_set(self, text: str) -> str | None:
        """Follow the sql_mode assignments of the SET statement `text`. Returns a message when
        one of them sets the session's mode to something innolint cannot evaluate (the quoting
        flags are then left as they were)."""
        toks = [t for t in tokens(text) if t.kind != COMMENT]
        if len(toks) < 2 or toks[0].text != "SET" or toks[1].text == "STATEMENT":
            return None
        problem = None
        scope = ""
        for assignment in _assignments(toks[1:]):
            if not assignment:
                continue
            first = assignment[0]
            if first.kind == WORD and first.text in _SESSION_SCOPES | _OTHER_SCOPES:
                scope = first.text
                assignment = assignment[1:]
            equals = next((i for i, t in enumerate(assignment) if t.kind == PUNCT and t.text in ("=", ":=")), -1)
            if equals < 1:
                continue
            target, value = assignment[:equals], assignment[equals + 1 :]
            name, target_scope = _target(target)
            if name is None:
                continue
            if name.startswith("@"):
                self._variables[name] = self._evaluate(value)
                continue
            if name != "SQL_MODE" or (target_scope or scope) in _OTHER_SCOPES:
                continue
            mode = self._evaluate(value)
            if mode is None:
                problem = "sql_mode is set to a value innolint cannot work out; it reads on with the quoting it had"
                self.value = None
                continue
            self.value = mode
            self.flags = quoting(mode)
        return problem

    def _evaluate(self, value: list[Token]) -> str | None:
        """The string value of an expression, when innolint can tell it."""
        while len(value) >= 2 and value[0].text == "(" and value[-1].text == ")":
            value = value[1:-1]
        if value and value[0].kind == WORD and value[0].text == "SELECT":
            value = value[1:]
        if len(value) == 1:
            token = value[0]
            if token.kind == QUOTED:
                return unquote(token)
            if token.kind == WORD and token.text == "DEFAULT":
                return ""
            if token.kind == WORD and token.text.isdigit():
                return "" if int(token.text) == 0 else None  # a bit mask: only 0 is read
            if token.kind == WORD:
                return token.text  # SET sql_mode = ANSI: a bare word names the mode
            if token.kind == VAR:
                return self._variable(token.text)
            return None
        if len(value) >= 3 and value[0].kind == WORD and value[1].text == "(" and value[-1].text == ")":
            function = value[0].text
            arguments = [self._evaluate(a) for a in _arguments(value[2:-1])]
            if any(a is None for a in arguments):
                return None
            known = [a for a in arguments if a is not None]
            if function == "CONCAT":
                return "".join(known)
            if function == "CONCAT_WS" and known:
                return known[0].join(known[1:])
            if function == "REPLACE" and len(known) == 3:
                return known[0].replace(known[1], known[2]) if known[1] else known[0]
        return None

    def _variable(self, name: str) -> str | None:
        """A user variable's value, or the session's sql_mode for `@@sql_mode` and its spellings."""
        upper = name.upper()
        if upper.startswith("@@"):
            scope, _, variable = upper[2:].rpartition(".")
            if variable == "SQL_MODE" and scope in ("", "SESSION", "LOCAL"):
                return self.value
            if variable == "SQL_MODE":
                return ""  # the global value: the server's configuration, taken as its default
            return None
        return self._variables.get(_user_variable(name))


def _user_variable(name: str) -> str:
    """`@x`, `@'x'`, `` @`x` ``: the variable's name as a key (names are case-insensitive)."""
    body = name[1:]
    if body[:1] in ("'", '"', "`"):
        body = body[1:-1] if len(body) >= 2 and body[-1] == body[0] else body[1:]
    return "@" + body.lower()


def _target(target: list[Token]) -> tuple[str | None, str]:
    """(name, scope) of an assignment's left side: 'SQL_MODE' for the system variable in any
    spelling, '@name' for a user variable, None for anything else."""
    if len(target) == 1 and target[0].kind == VAR:
        text = target[0].text
        if text.startswith("@@"):
            scope, _, variable = text[2:].upper().rpartition(".")
            return (variable, scope if scope != "LOCAL" else "SESSION")
        return _user_variable(text), ""
    if len(target) == 1 and target[0].kind == WORD:
        return target[0].text, ""
    if len(target) == 2 and target[0].kind == WORD and target[1].kind == WORD:
        return target[1].text, target[0].text
    return None, ""


def _assignments(toks: list[Token]) -> list[list[Token]]:
    """The comma-separated parts of a SET statement at parenthesis depth 0."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for token in toks:
        if token.kind == PUNCT:
            if token.text == "(":
                depth += 1
            elif token.text == ")":
                depth -= 1
            elif token.text == "," and depth == 0:
                parts.append([])
                continue
        parts[-1].append(token)
    return parts


_arguments = _assignments


# --- normalizing text read under the modes ------------------------------------------------------


@lru_cache(maxsize=4)
def _normalizer(ansi: bool, nbe: bool) -> re.Pattern[str]:
    """Quoted strings and identifiers as the modes read them, and comments to step over."""
    sq = r"'(?:[^']++|'')*+'?" if nbe else r"'(?:[^'\\]++|\\.|'')*+'?"
    dq = r'"(?:[^"]++|"")*+"?' if ansi or nbe else r'"(?:[^"\\]++|\\.|"")*+"?'
    return re.compile(
        rf"(?P<sq>{sq})|(?P<dq>{dq})|`(?:[^`]++|``)*+`?|/\*(?:[^*]++|\*(?!/))*+(?:\*/)?|(?:--[ \t\n\r\f\v\-]|\#)[^\n]*+",
        re.S,
    )


def normalize(text: str, flags: frozenset[str]) -> str:
    """`text`, read under the quoting `flags`, written in the server's default quoting."""
    ansi = ANSI_QUOTES in flags
    nbe = NO_BACKSLASH_ESCAPES in flags
    if not (ansi and '"' in text) and not (nbe and "\\" in text):
        return text

    def rewrite(m: re.Match[str]) -> str:
        token = m.group()
        if m.group("sq") is not None:
            return token.replace("\\", "\\\\") if nbe else token
        if m.group("dq") is not None:
            if ansi:
                closed = len(token) >= 2 and token.endswith('"')
                body = token[1:-1] if closed else token[1:]
                return "`" + body.replace('""', '"').replace("`", "``") + ("`" if closed else "")
            return token.replace("\\", "\\\\") if nbe else token
        return token

    return _normalizer(ansi, nbe).sub(rewrite, text)
