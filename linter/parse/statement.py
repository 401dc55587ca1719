"""One statement to one DDL operation (`linter.parse.ops`), or a ParseFailure with the reason.

The only module that knows sqlglot's quirks. Every statement is tokenized with sqlglot's MySQL
tokenizer; the statement's frame (which statement, names, table options, keys, ALTER actions) is
read from those tokens here, and column definitions are handed to sqlglot's parser, which
builds their types, defaults and generated expressions. We never parse a whole file at once
(one bad statement must not lose the rest) and never use ErrorLevel.IGNORE or WARN (they build
wrong trees without a word). The plain forms most CREATE TABLE statements are made of (columns
with a plain type and common attributes, keys, foreign keys, `KEY=value` options) are read from
the statement's text instead, one regular expression per element, giving the same objects
("plain forms, read from the text" below).

Forms sqlglot 30 does not parse, and how each is handled (tests/test_parse.py has one case each):
- table options after the column list (`TABLESPACE ts` without `=`, `CHECKSUM=1`,
  `DATA DIRECTORY=`, `COMPRESSION=`, `PAGE_COMPRESSED=`, any unknown `KEY=value`): read here;
- `PARTITION BY ...` in every form (HASH/KEY ... PARTITIONS n, LIST COLUMNS, mysqldump's
  `VALUES LESS THAN MAXVALUE`, `ENGINE = InnoDB` inside partitions): kept as text, never parsed;
- keys and constraints (named `PRIMARY KEY pk (id)`, `USING BTREE` before the columns, functional
  key parts, `INVISIBLE`): read here;
- column attributes sqlglot rejects are removed from the tokens before sqlglot sees them and
  recorded on the column: MariaDB `COMPRESSED[=zlib]`, Percona `COLUMN_FORMAT COMPRESSED [WITH
  COMPRESSION_DICTIONARY d]`, `SRID n`, `ZEROFILL`, `BINARY`, `NATIONAL`, `VISIBLE`,
  `STORAGE DISK|MEMORY`, `[SECONDARY_]ENGINE_ATTRIBUTE`, MariaDB `PERSISTENT` (= STORED);
- spatial types (POINT, POLYGON, ...) and MariaDB INET4/INET6 are handed to sqlglot as a type it
  knows and recorded under their own name;
- CREATE TABLESPACE, CREATE COMPRESSION_DICTIONARY, RENAME TABLE, ALTER TABLE (every action),
  CREATE/DROP INDEX, DROP TABLE, USE, CREATE/DROP DATABASE: read here from tokens.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from sqlglot import exp
from sqlglot.dialects.mysql import MySQL
from sqlglot.errors import ErrorLevel, ParseError, TokenError
from sqlglot.tokens import Token, TokenType

from linter.parse import ops
from linter.schema.model import (
    Column, ForeignKey, Index, IndexColumn, IndexKind, TableBody, TableOptions, name_unnamed_keys,
    without_redundant_generated_keys,
)
from linter.schema.key_parts import drop_whole_prefixes

_DIALECT = MySQL()
# One tokenizer, parser and SQL generator for the whole run: each resets its state at every call,
# and building them per statement cost a fifth of the time of a CREATE TABLE (innolint parses in
# one thread per process).
_TOKENIZER = _DIALECT.tokenizer()
_PARSER = _DIALECT.parser(error_level=ErrorLevel.RAISE)
_GENERATOR = _DIALECT.generator()
# sqlglot logs a warning when it falls back to an opaque Command; we detect that ourselves and
# report a diagnostic, so its log line would only be noise on stderr.
logging.getLogger("sqlglot").setLevel(logging.ERROR)


class ParseFailure(Exception):
    """A DDL statement that could not be understood: the reason, and the line within the
    statement (0 = its first line) where the trouble is."""

    def __init__(self, reason: str, line_offset: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line_offset = line_offset


# Statements that are not schema DDL, by their first word: recognised and skipped on purpose.
_SKIP_FIRST_WORDS = frozenset(
    """INSERT REPLACE UPDATE DELETE SET LOCK UNLOCK GRANT REVOKE SELECT COMMIT BEGIN START
    ROLLBACK SAVEPOINT RELEASE SOURCE FLUSH ANALYZE OPTIMIZE REPAIR CHECK CHECKSUM TRUNCATE LOAD
    SHOW DESCRIBE DESC EXPLAIN DO PREPARE DEALLOCATE HANDLER INSTALL UNINSTALL RESET PURGE
    CHANGE STOP KILL SHUTDOWN BINLOG CACHE XA WITH VALUES TABLE HELP SIGNAL RESIGNAL DECLARE IF
    WHILE REPEAT LOOP LEAVE ITERATE RETURN CLOSE OPEN FETCH PRINT GO BACKUP RESTORE IMPORT""".split()
)
# Objects whose CREATE/ALTER/DROP is not table DDL.
_SKIP_OBJECTS = frozenset(
    """PROCEDURE FUNCTION TRIGGER EVENT USER ROLE SERVER LOGFILE SEQUENCE PACKAGE SYNONYM
    RESOURCE SPATIAL_REFERENCE_SYSTEM AGGREGATE""".split()
)
_SPATIAL_TYPES = frozenset(
    """GEOMETRY POINT LINESTRING POLYGON MULTIPOINT MULTILINESTRING MULTIPOLYGON
    GEOMETRYCOLLECTION GEOMCOLLECTION""".split()
)
# Types sqlglot does not know, and the type it is told instead (the model keeps the real name).
_STAND_IN_TYPES = {name: (TokenType.GEOMETRY, "GEOMETRY") for name in _SPATIAL_TYPES}
_STAND_IN_TYPES.update({"INET4": (TokenType.TEXT, "TEXT"), "INET6": (TokenType.TEXT, "TEXT")})
# integer synonyms sqlglot reads as names (INT3) or not at all (MIDDLEINT)
_STAND_IN_TYPES.update({"INT3": (TokenType.MEDIUMINT, "MEDIUMINT"), "MIDDLEINT": (TokenType.MEDIUMINT, "MEDIUMINT"),
                        "INT1": (TokenType.TINYINT, "TINYINT"), "INT2": (TokenType.SMALLINT, "SMALLINT"),
                        "INT4": (TokenType.INT, "INT"), "INT8": (TokenType.BIGINT, "BIGINT")})
#: types a CAST in a default may name that sqlglot does not know (the default keeps its own text)
_CAST_STAND_INS = frozenset({"INET4", "INET6", "UUID"})
#: MariaDB's data type schemas: `mariadb_schema.DATE` is DATE whatever the sql_mode, and
#: `oracle_schema.DATE` is Oracle's DATE, a DATETIME (MariaDB 10.11: tests/test_model_oracle.py)
_TYPE_SCHEMAS = {"MARIADB_SCHEMA": {}, "ORACLE_SCHEMA": {"DATE": "DATETIME"}}
#: a column of CHARACTER SET binary (or COLLATE binary) is of the binary type of its kind (the
#: server shows `varbinary(10)` for `VARCHAR(10) CHARACTER SET binary`)
_BINARY_TYPES = {"CHAR": "BINARY", "VARCHAR": "VARBINARY", "TINYTEXT": "TINYBLOB", "TEXT": "BLOB",
                 "MEDIUMTEXT": "MEDIUMBLOB", "LONGTEXT": "LONGBLOB"}
# Type aliases, so checks compare one spelling.
_TYPE_ALIASES = {
    "INTEGER": "INT", "INT4": "INT", "INT8": "BIGINT", "INT1": "TINYINT", "INT2": "SMALLINT",
    "INT3": "MEDIUMINT", "MIDDLEINT": "MEDIUMINT", "BOOL": "TINYINT", "BOOLEAN": "TINYINT",
    "DEC": "DECIMAL", "NUMERIC": "DECIMAL", "FIXED": "DECIMAL", "REAL": "DOUBLE", "FLOAT8": "DOUBLE",
    "FLOAT4": "FLOAT", "CHARACTER": "CHAR", "NCHAR": "CHAR", "NVARCHAR": "VARCHAR",
    "GEOMCOLLECTION": "GEOMETRYCOLLECTION",
}
_KEY_WORDS = frozenset({"PRIMARY", "KEY", "INDEX", "UNIQUE", "FULLTEXT", "SPATIAL", "CONSTRAINT", "FOREIGN", "CHECK", "PERIOD"})
_NAME_TYPES = frozenset({TokenType.IDENTIFIER, TokenType.VAR})
_PUNCTUATION = frozenset(
    {TokenType.L_PAREN, TokenType.R_PAREN, TokenType.COMMA, TokenType.DOT, TokenType.SEMICOLON, TokenType.EQ}
)
_UNQUOTED = frozenset({TokenType.IDENTIFIER, TokenType.STRING})
_L_PAREN, _R_PAREN, _COMMA = TokenType.L_PAREN, TokenType.R_PAREN, TokenType.COMMA
#: the upper-case words of a token's text (`_Cursor._match`), by text: keywords recur in every statement
_WORDS: dict[str, tuple[str, ...]] = {}


def tokenize(text: str) -> list[Token]:
    """sqlglot's MySQL tokens. sqlglot swallows the rest of a RENAME into one string (it treats
    RENAME as an opaque command): those are tokenized again, keeping offsets."""
    try:
        tokens = _TOKENIZER.tokenize(text)
        if len(tokens) == 2 and tokens[0].token_type == TokenType.RENAME and tokens[1].token_type == TokenType.STRING:
            prefix = tokens[0].end + 1
            tokens = tokens[:1] + _TOKENIZER.tokenize(" " * prefix + text[prefix:])
        if text.count("\r") != text.count("\r\n"):
            _renumber_lines(tokens, text)
        return tokens
    except TokenError as error:
        raise ParseFailure(f"cannot tokenize: {_first_line(str(error))}") from None


def _renumber_lines(tokens: list[Token], text: str) -> None:
    """Count token lines on `\\n` only, as the splitter does: sqlglot also counts a lone `\\r` (old
    Mac line ends) as a line break, which put diagnostics past the statement's last line."""
    line, counted = 1, 0
    for token in tokens:
        if token.start > counted:
            line += text.count("\n", counted, token.start)
            counted = token.start
        token.line = line


_FIRST_WORD = re.compile(r"[A-Za-z_]+")


def parse_statement(text: str) -> ops.Operation:
    """The operation one statement performs. Raises ParseFailure for DDL it cannot understand,
    and for nesting deeper than sqlglot's recursive parser and SQL generator go (never RecursionError)."""
    try:
        return _parse_statement(text)
    except RecursionError:
        raise ParseFailure(_TOO_DEEP) from None


_TOO_DEEP = "nested too deeply to parse"

# -- statements innolint cannot follow ---------------------------------------------------------
#: statements that run SQL innolint does not see: they may change the schema (ops.Unfollowed)
_UNFOLLOWED_WORDS = frozenset({"EXECUTE", "CALL"})


def _unfollowed(text: str, word: str) -> ops.Unfollowed:
    if word == "EXECUTE" and re.match(r"EXECUTE[ \t\r\n]+IMMEDIATE(?![A-Za-z0-9_$])", text, re.I):
        return ops.Unfollowed("EXECUTE IMMEDIATE")
    return ops.Unfollowed(word)


# -- a `;` left out ---------------------------------------------------------------------------
# The client sends everything up to the next `;` as one statement, so a `;` left out at a line's
# end glues two statements together, and the server refuses the text with a syntax error: neither
# runs. Such text is reported where the second statement starts, never read as the first alone
# (the CREATE TABLE after `DROP TABLE IF EXISTS t1` would be lost in silence). A line inside one
# statement starting with one of these words is taken for that start; for a statement skipped on
# purpose (SET, INSERT ...) only the DDL words count. Compound statements (routines, triggers,
# events, and the BEGIN / IF / WHILE ... blocks of the splitter) hold statements on purpose.
_DDL_GLUE_WORDS = frozenset({"CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE", "INSERT"})
_SKIPPED_GLUE_WORDS = frozenset({"CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE"})
#: in a DDL statement, a line may not start with these either (`DROP TABLE t` then `FLUSH TABLES`
#: on the next line, or a DELIMITER line the mariadb client sends as part of the statement): SET
#: only before `@` or a session variable (`ALTER COLUMN c` then `SET DEFAULT 1` is one action), USE
#: only before a name (`USE INDEX` is a hint), START only before TRANSACTION
_AFTER_DDL_GLUE_WORDS = _DDL_GLUE_WORDS | {"DO", "FLUSH", "COMMIT", "DELIMITER", "START", "USE", "SET", "EXECUTE",
                                           "PREPARE", "DEALLOCATE", "CALL"}
_GLUE_FOLLOWING = {"START": frozenset({"TRANSACTION"}),
                   "SET": frozenset({"NAMES", "SESSION", "GLOBAL", "LOCAL", "SQL_MODE", "FOREIGN_KEY_CHECKS",
                                     "UNIQUE_CHECKS", "AUTOCOMMIT", "TIME_ZONE", "CHARACTER_SET_CLIENT"})}
_GLUE_NOT_FOLLOWING = {"USE": frozenset({"INDEX", "KEY"})}
#: in an ALTER TABLE, a line may start an action with DROP, ALTER or RENAME: those count only
#: when followed by one of these
_STATEMENT_OBJECTS = frozenset(
    {"TABLE", "TABLES", "DATABASE", "SCHEMA", "VIEW", "PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "USER"}
)
#: (and SOURCE: the mysql client's `source file` command ends at its line's end without a `;`, so
#: the line after it is a statement of its own; the splitter reads client commands)
_COMPOUND_WORDS = frozenset({"BEGIN", "IF", "WHILE", "REPEAT", "LOOP", "DECLARE", "CASE", "FOR", "SOURCE"})
_COMPOUND_OBJECTS = frozenset({"PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "PACKAGE", "AGGREGATE"})
#: a cheap first look (one C-level scan): a line starting with a statement word, maybe in a string
_glue_candidate = re.compile(
    r"\n[ \t]*+(?:CREATE|ALTER|DROP|RENAME|TRUNCATE|INSERT|DO|FLUSH|COMMIT|DELIMITER|START|USE|SET|EXECUTE|PREPARE"
    r"|DEALLOCATE|CALL)(?![A-Za-z0-9_$])",
    re.I).search
#: at a line's start: the word, and the word after it (after TEMPORARY / IF ...; `@` starts a variable)
_glue_word = re.compile(
    r"[ \t]*+(CREATE|ALTER|DROP|RENAME|TRUNCATE|INSERT|DO|FLUSH|COMMIT|DELIMITER|START|USE|SET|EXECUTE|PREPARE"
    r"|DEALLOCATE|CALL)(?![A-Za-z0-9_$])"
    r"(?:[ \t\r\n]++(?:TEMPORARY[ \t\r\n]++)?([A-Za-z_@]++))?", re.I
).match
#: where the scan must look: a line start, a quote, a comment's first character
_glue_stop = re.compile(r"[\n'\"`#/-]").search
#: a whole quoted string or name from its opening quote (possessive: each character read once)
_glue_quoted = {
    "'": re.compile(r"'(?:[^'\\]++|\\.|'')*+'", re.S).match,
    '"': re.compile(r'"(?:[^"\\]++|\\.|"")*+"', re.S).match,
    "`": re.compile(r"`(?:[^`]++|``)*+`").match,
}


def glued_statement(text: str, words: frozenset[str] = _DDL_GLUE_WORDS, *, alter: bool = False) -> ParseFailure | None:
    """The failure to report when a line of `text`, outside quotes and comments, starts another
    statement (one of `words`): a `;` was left out before it. Linear: the scan steps over each
    quote and comment once, and runs at all only when a cheap search finds such a line."""
    if _glue_candidate(text) is None:
        return None
    pos = 0
    while True:
        m = _glue_stop(text, pos)
        if m is None:
            return None
        at = m.start()
        c = text[at]
        if c == "\n":
            pos = at + 1
            w = _glue_word(text, pos)
            if w is not None:
                word, following = w.group(1).upper(), (w.group(2) or "").upper()
                if word in _GLUE_FOLLOWING and not following.startswith("@") and following not in _GLUE_FOLLOWING[word]:
                    continue
                if following in _GLUE_NOT_FOLLOWING.get(word, ()):
                    continue
                if word in words and not (alter and word in ("DROP", "ALTER", "RENAME") and following not in _STATEMENT_OBJECTS):
                    start = (word + " " + following).strip() if following in _STATEMENT_OBJECTS or word in ("CREATE", "INSERT") else word
                    return ParseFailure(
                        f"a `;` seems to be missing before `{start}` here: the server reads this text as one statement "
                        "and refuses it (syntax error), so none of it runs", text.count("\n", 0, pos))
        elif c in "'\"`":
            quoted = _glue_quoted[c](text, at)
            if quoted is None:
                return None  # an unclosed quote: the rest is inside it
            pos = quoted.end()
        elif c == "#" or (c == "-" and text.startswith("--", at) and (at + 2 == len(text) or text[at + 2] in " \t\r\n\f\v")):
            end = text.find("\n", at)
            if end < 0:
                return None
            pos = end  # the newline after the comment starts a line
        elif c == "/" and text.startswith("/*", at):
            end = text.find("*/", at + 2)
            if end < 0:
                return None
            pos = end + 2
        else:
            pos = at + 1


def _parse_statement(text: str) -> ops.Operation:
    first_word = _FIRST_WORD.match(text)
    word = first_word.group().upper() if first_word is not None else ""
    if word in _SKIP_FIRST_WORDS:
        # not DDL: skipped without tokenizing (a dump's INSERT can be megabytes long), unless a
        # line in it starts a DDL statement: then a `;` was left out and the server refuses both
        if "\n" in text and word not in _COMPOUND_WORDS:
            glued = glued_statement(text, _SKIPPED_GLUE_WORDS)
            if glued is not None:
                raise glued
        return ops.Skipped(word)
    if word in _UNFOLLOWED_WORDS:
        return _unfollowed(text, word)
    if "\n" not in text or word not in _DDL_GLUE_WORDS:
        return _parse_ddl(text, word)  # (a statement that starts with no known word is not two glued ones)
    try:
        op = _parse_ddl(text, word)
    except ParseFailure:
        glued = glued_statement(text, _AFTER_DDL_GLUE_WORDS, alter=word == "ALTER")
        if glued is not None:
            raise glued from None  # the reason the statement does not read: say that one
        raise
    if not (op.__class__ is ops.Skipped and op.kind.rpartition(" ")[2] in _COMPOUND_OBJECTS):  # type: ignore[attr-defined]
        glued = glued_statement(text, _AFTER_DDL_GLUE_WORDS, alter=word == "ALTER")
        if glued is not None:
            raise glued
    return op


def _parse_ddl(text: str, word: str) -> ops.Operation:
    simple = _simple_statement(text)
    if simple is not None:
        return simple
    tokens = tokenize(text)
    if not tokens:
        return ops.Skipped("empty")
    if word == "CREATE":
        plain = _plain_create_table(text)
        if plain is not None:
            return plain
    cursor = _Cursor(tokens, text)
    first = cursor.word()
    if first == "CREATE":
        return _parse_create(cursor)
    if first == "ALTER":
        return _parse_alter(cursor)
    if first == "DROP":
        return _parse_drop(cursor)
    if first == "RENAME":
        return _parse_rename(cursor)
    if first == "USE":
        cursor.advance()
        return ops.SchemaStatement("use", cursor.name())
    if first in _SKIP_FIRST_WORDS or tokens[0].token_type in (TokenType.L_PAREN, TokenType.BACKSLASH):
        return ops.Skipped(first or tokens[0].text)
    raise ParseFailure(f"not a statement innolint knows: {tokens[0].text!r}")


# The statements a dump repeats once per schema or table, in mysqldump's exact form, read without
# tokenizing (the same operations as the token path below gives them: tests/test_parse_cache.py
# compares the two). Anything else, or any other spelling, takes the token path.
_NAME = r"`([^`]+)`"
_SP = r"[ \t\r\n]"
_simple = re.compile(
    rf"""USE{_SP}+{_NAME}{_SP}*
    |CREATE{_SP}+(?:DATABASE|SCHEMA)(?:{_SP}+IF{_SP}+NOT{_SP}+EXISTS)?{_SP}+{_NAME}
        (?:{_SP}+[A-Za-z0-9_]+(?:{_SP}*={_SP}*(?:[A-Za-z0-9_]+|'[A-Za-z0-9_]*'))?)*{_SP}*
    |DROP{_SP}+TABLE({_SP}+IF{_SP}+EXISTS)?{_SP}+((?:{_NAME}\.)?{_NAME}(?:{_SP}*,{_SP}*(?:{_NAME}\.)?{_NAME})*){_SP}*
    |ALTER{_SP}+TABLE{_SP}+(?:{_NAME}\.)?{_NAME}{_SP}+(?:DISABLE|ENABLE){_SP}+KEYS{_SP}*""",
    re.X | re.I | re.A,
).fullmatch
_drop_names = re.compile(rf"(?:{_NAME}\.)?{_NAME}").findall


def _simple_statement(text: str) -> ops.Operation | None:
    m = _simple(text)
    if m is None:
        return None
    use, database, if_exists, drop = m.group(1, 2, 3, 4)
    if use is not None:
        return ops.SchemaStatement("use", use)
    if database is not None:
        tail = text[m.end(2) + 1 : m.end()].replace("=", " ").replace("'", " ")
        return ops.SchemaStatement("create", database, *_database_options(tail.split()))
    if drop is not None:
        names = tuple(ops.Name(schema or None, name) for schema, name in _drop_names(drop))
        return ops.DropTable(names, False, if_exists is not None)
    return _KEYS_ONLY


def _database_options(words: list[str]) -> tuple[str | None, str | None]:
    """A CREATE DATABASE's [DEFAULT] CHARACTER SET / CHARSET and COLLATE, from the words after its
    name (`=` left out): (charset, collation), None where not given. The last one given counts."""
    charset = collation = None
    for i in range(len(words) - 1):
        word = words[i].upper()
        if word == "CHARSET" or (word == "SET" and i and words[i - 1].upper() == "CHARACTER"):
            charset = words[i + 1]
        elif word == "COLLATE":
            collation = words[i + 1]
    return charset, collation


# --------------------------------------------------------------------------------------------
# A cursor over tokens
# --------------------------------------------------------------------------------------------
#: a quoted string where the grammar wants a name: `'b'` always, `"b"` unless ANSI_QUOTES is in
#: effect (the splitter follows SET sql_mode and hands such a text on with `"b"` as a quoted name,
#: `linter.input.splitter.sqlmode`). MariaDB 10.11 refuses it (1064, tests/test_parse_refusals.py).
_STRING_FOR_NAME = ("a quoted string where a name is required (a double-quoted name reads as one only under "
                    "sql_mode ANSI_QUOTES): the server refuses the statement (syntax error, 1064)")


class _Cursor:
    def __init__(self, tokens: list[Token], text: str) -> None:
        self.tokens = tokens
        self.text = text
        #: the system-versioning ROW END column a CREATE TABLE defines (`_system_versioned_keys`)
        self.row_end: str | None = None
        self.i = 0
        self.first_line = tokens[0].line if tokens else 1

    # -- looking
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def word(self, k: int = 0) -> str:
        """The first upper-case word of a bare token at i+k ('' for quoted names, strings, the
        end). sqlglot makes one token of some keyword pairs ('PRIMARY KEY', 'PARTITION BY')."""
        token = self.peek(k)
        if token is None or token.token_type in _UNQUOTED:
            return ""
        return _head(token)

    def _match(self, words: tuple[str, ...]) -> int:
        """How many tokens spell `words` at the cursor (a token may hold several), or 0."""
        k = w = 0
        tokens = self.tokens
        while w < len(words):
            j = self.i + k
            if j >= len(tokens):
                return 0
            token = tokens[j]
            if token.token_type in _UNQUOTED:
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

    def fail(self, reason: str) -> None:
        token = self.peek()
        found = f" near {token.text!r}" if token is not None else " at the end of the statement"
        raise ParseFailure(reason + found, self.line_offset())

    def accept_if_exists(self) -> bool:
        """`IF EXISTS` or `IF NOT EXISTS` at the cursor, taken: whether there was one."""
        return self.accept("IF", "EXISTS") or self.accept("IF", "NOT", "EXISTS")

    def expect_end(self, what: str) -> None:
        """Nothing may follow here: a word after the end (often a `;` left out before the next
        statement, which the server then reads as part of this one) fails the statement."""
        if not self.done:
            if self.word() in _DDL_GLUE_WORDS:
                self.fail(f"a `;` seems to be missing after {what}: the server reads this text as one statement and "
                          "refuses it (syntax error), so none of it runs;")
            self.fail(f"unexpected text after {what}")

    # -- names and values
    def name(self) -> str:
        """An identifier; template pieces glued to it (`%PREFIX%name`, `{$p}x`, `@ENGINE@`) are
        kept as one name, so install scripts with placeholders still lint."""
        token = self.peek()
        if token is None or token.token_type in _PUNCTUATION:
            self.fail("expected a name")
        assert token is not None
        if token.token_type == TokenType.STRING:
            self.fail(_STRING_FOR_NAME)
        parts = [self._raw(token)]
        self.i += 1
        while token.token_type != TokenType.IDENTIFIER:  # `quoted`NEXT is two tokens
            nxt = self.peek()
            if (nxt is None or nxt.token_type in _PUNCTUATION or nxt.token_type == TokenType.IDENTIFIER
                    or nxt.start != token.end + 1):
                break
            parts.append(self._raw(nxt))
            token = nxt
            self.i += 1
        return "".join(parts)

    def qualified(self) -> ops.Name:
        first = self.name()
        if self.at_type(TokenType.DOT):
            self.i += 1
            return ops.Name(first, self.name())
        return ops.Name(None, first)

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
        if token.token_type in _UNQUOTED:
            return token.text
        return self.text[token.start : token.end + 1]

    def group(self) -> list[Token]:
        """The tokens inside the balanced parentheses at the cursor (which must be `(`)."""
        if not self.at_type(_L_PAREN):
            self.fail("expected (")
        tokens = self.tokens
        i = self.i
        start = i + 1
        depth = 0
        for i in range(i, len(tokens)):
            token_type = tokens[i].token_type
            if token_type == _L_PAREN:
                depth += 1
            elif token_type == _R_PAREN:
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

    def sub(self, tokens: list[Token]) -> _Cursor:
        cursor = _Cursor(tokens, self.text)
        cursor.first_line = self.first_line
        return cursor


def _split_top_level(tokens: list[Token]) -> list[list[Token]]:
    """Split tokens on commas outside parentheses."""
    parts: list[list[Token]] = []
    depth = start = 0
    for i, token in enumerate(tokens):
        token_type = token.token_type
        if token_type == _L_PAREN:
            depth += 1
        elif token_type == _R_PAREN:
            depth -= 1
        elif token_type == _COMMA and depth == 0:
            if i > start:
                parts.append(tokens[start:i])
            start = i + 1
    if len(tokens) > start:
        parts.append(tokens[start:])
    return parts


def _head(token: Token) -> str:
    text = token.text.upper()
    space = text.find(" ")
    return text if space < 0 else text[:space]


def _first_line(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else "syntax error"


# --------------------------------------------------------------------------------------------
# CREATE ...
# --------------------------------------------------------------------------------------------
def _parse_create(c: _Cursor) -> ops.Operation:
    c.expect("CREATE")
    or_replace = c.accept("OR", "REPLACE")
    # view and routine prefixes: ALGORITHM=x DEFINER=x SQL SECURITY x
    while True:
        if c.word() in ("ALGORITHM", "DEFINER") and c.at_type(TokenType.EQ, 1):
            c.advance(2)
            c.name()  # user, or CURRENT_USER
            if c.at_type(TokenType.L_PAREN):
                c.group()
            if c.accept_type(TokenType.PARAMETER):  # `user`@`host`
                c.name()
            continue
        if c.accept("SQL", "SECURITY"):
            c.advance()
            continue
        break
    temporary = c.accept("TEMPORARY")
    word = c.word()
    if word == "TABLE":
        c.advance()
        created = _parse_create_table(c, temporary)
        if or_replace:
            created = ops.CreateTable(created.name, created.body, created.temporary, created.if_not_exists, created.like,
                                      created.as_select, or_replace=True, refused=created.refused,
                                      select_from=created.select_from, select_columns=created.select_columns,
                                      select_sources=created.select_sources)
        return created
    if word in ("UNIQUE", "FULLTEXT", "SPATIAL", "INDEX", "ONLINE", "OFFLINE"):
        return _parse_create_index(c)
    if word in ("DATABASE", "SCHEMA"):
        c.advance()
        c.accept_if_exists()
        name = c.name()
        words = [t.text for t in c.tokens[c.i:] if t.token_type != TokenType.EQ]
        return ops.SchemaStatement("create", name, *_database_options(words))
    if word == "TABLESPACE" or (word == "UNDO" and c.word(1) == "TABLESPACE"):
        return _parse_create_tablespace(c)
    if word == "COMPRESSION_DICTIONARY":
        c.advance()
        c.accept_if_exists()
        return ops.CreateCompressionDictionary(c.name())
    if word == "VIEW":
        c.advance()
        if_not_exists = c.accept_if_exists()
        return ops.CreateView(c.qualified(), or_replace, if_not_exists)
    if word in _SKIP_OBJECTS or word.startswith("DEFINER"):
        return ops.Skipped(f"CREATE {word}")
    c.fail("unsupported CREATE statement")
    raise AssertionError


def _parse_create_table(c: _Cursor, temporary: bool) -> ops.CreateTable:
    if_not_exists = c.accept("IF", "NOT", "EXISTS")
    name = c.qualified()
    if c.accept("LIKE"):
        like = c.qualified()
        c.expect_end("CREATE TABLE ... LIKE")
        return ops.CreateTable(name, TableBody(), temporary, if_not_exists, like=like)
    if c.at_type(TokenType.L_PAREN) and c.word(1) == "LIKE":
        inner = c.sub(c.group())
        inner.expect("LIKE")
        like = inner.qualified()
        c.expect_end("CREATE TABLE ... (LIKE ...)")
        return ops.CreateTable(name, TableBody(), temporary, if_not_exists, like=like)
    body = TableBody()
    refused = None
    if c.at_type(TokenType.L_PAREN) and c.word(1) not in ("SELECT", "WITH", "VALUES"):
        refused = _read_elements(c, _split_top_level(c.group()), body)
        pairs = _plain_options(c.text, c.tokens[c.i - 1].end + 1)
        if pairs is not None:
            apply_options(body.options, pairs)
            _system_versioned_keys(c, body)
            return ops.CreateTable(name, body, temporary, if_not_exists, refused=refused)
    if c.word() == "TABLE":  # MySQL 8.0.19+: CREATE TABLE t TABLE s (MariaDB refuses it)
        c.fail("CREATE TABLE ... TABLE (MySQL 8.0.19+) is not followed by innolint: the table's columns and keys "
               "are unknown;")
    start = c.i
    options, as_select = _read_table_options(c, stop_at_select=True)
    body.options = options
    _system_versioned_keys(c, body)
    selected = _select_columns(c, start) if as_select else None
    return ops.CreateTable(name, body, temporary, if_not_exists, as_select=as_select, refused=refused,
                           select_from=_select_source(c, start) if as_select else None,
                           select_columns=selected[0] if selected else None,
                           select_sources=selected[1] if selected else None)


def _select_source(c: _Cursor, start: int) -> ops.Name | None:
    """The table a CREATE TABLE ... [AS] SELECT ... FROM t reads first (a plain SELECT only: not
    WITH, where t may name a CTE, nor a parenthesised or derived source)."""
    tokens = c.tokens
    i = start
    while i < len(tokens) and _head(tokens[i]) not in ("SELECT", "WITH") and tokens[i].token_type != TokenType.L_PAREN:
        i += 1
    if i >= len(tokens) or _head(tokens[i]) != "SELECT":
        return None
    depth = 0
    for j in range(i + 1, len(tokens)):
        kind = tokens[j].token_type
        if kind == TokenType.L_PAREN:
            depth += 1
        elif kind == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and tokens[j].token_type not in _UNQUOTED and _head(tokens[j]) == "FROM":
            if j + 1 < len(tokens) and tokens[j + 1].token_type == TokenType.L_PAREN:
                return None
            try:
                return c.sub(tokens[j + 1:]).qualified()
            except Exception:  # noqa: BLE001 - not a table's name: nothing to say about it
                return None
    return None


_SELECT_ITEM_NAMES = frozenset({TokenType.IDENTIFIER, TokenType.VAR})
#: words after which a SELECT reads more than one table, or none the way `*` says
_MORE_SOURCES = frozenset({"JOIN", "STRAIGHT_JOIN", "NATURAL", "UNION", "EXCEPT", "INTERSECT"})


def _select_columns(c: _Cursor, start: int) -> tuple[tuple[str, ...], tuple[str | None, ...]] | None:
    """The names of the columns a CREATE TABLE ... SELECT's select list gives, "*" standing for
    all of `_select_source`'s (only when that is the one table it reads): None when innolint
    cannot tell them (an expression without an alias, a join, a subquery, WITH); with, for each,
    the column of that one table it copies (`a`, `t.a`, `a AS b`; "*" for all; None for an
    expression, or when the SELECT reads more than one table)."""
    tokens = c.tokens
    i = start
    while i < len(tokens) and _head(tokens[i]) not in ("SELECT", "WITH") and tokens[i].token_type != TokenType.L_PAREN:
        i += 1
    if i >= len(tokens) or _head(tokens[i]) != "SELECT":
        return None
    items: list[list[Token]] = [[]]
    depth, j = 0, i + 1
    while j < len(tokens):
        token = tokens[j]
        kind = token.token_type
        if kind == TokenType.L_PAREN:
            depth += 1
        elif kind == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and kind not in _UNQUOTED and _head(token) == "FROM":
            break
        elif depth == 0 and kind == TokenType.COMMA:
            items.append([])
            j += 1
            continue
        items[-1].append(token)
        j += 1
    rest = tokens[j + 1:]
    one_table = bool(rest) and not any(
        t.token_type == TokenType.COMMA or (t.token_type not in _UNQUOTED and _head(t) in _MORE_SOURCES)
        or t.token_type == TokenType.L_PAREN for t in rest)
    names: list[str] = []
    sources: list[str | None] = []
    for item in items:
        texts = [t.text.upper() for t in item]
        if len(item) == 1 and item[0].token_type == TokenType.STAR:
            if not one_table:
                return None
            names.append("*")
            sources.append("*")
        elif item and item[-1].token_type in _SELECT_ITEM_NAMES and (
                len(item) == 1 or texts[-2] == "AS" or (len(item) == 3 and item[1].token_type == TokenType.DOT)):
            names.append(item[-1].text)
            read = item[:-2] if len(item) > 1 and texts[-2] == "AS" else item
            plain = read and read[-1].token_type in _SELECT_ITEM_NAMES and (
                len(read) == 1 or (len(read) == 3 and read[1].token_type == TokenType.DOT))
            sources.append(read[-1].text if plain and one_table else None)
        else:
            return None
    return tuple(names), tuple(sources)


def _read_elements(c: _Cursor, elements: list[list[Token]], body: TableBody) -> str | None:
    """Column definitions, keys and constraints of a CREATE TABLE body, into `body`, in the order
    written (keys declared on a column, `a INT UNIQUE`, count where the column is: the server
    names unnamed keys, and InnoDB picks the clustered index among equals, in that order).
    Returns why the server refuses the definition (a duplicate column or key name), or None."""
    column_elements: list[list[Token]] = []
    order: list[Index | ForeignKey | int] = []  # keys, foreign keys, columns by number
    periods: dict[str, tuple[str, str]] = {}
    for element in elements:
        head = element[0]
        if _is_key_element(element):
            if _head(head) == "PERIOD":
                _read_period(c.sub(element), periods)
                continue
            read = TableBody()
            _read_key(c.sub(element), read)
            order += read.indexes
            order += read.foreign_keys
            body.checks += read.checks
        else:
            order.append(len(column_elements))
            column_elements.append(element)
    columns = _parse_columns(c, column_elements)
    keys: list[Index] = []
    refused = None
    for item in order:
        if isinstance(item, int):
            column, inline = columns[item]
            key = column.name.lower()
            if key in body.columns and refused is None:
                refused = f"duplicate column name {column.name} (error 1060)"
            body.columns[key] = column
            for declared in inline:
                if isinstance(declared, Index):
                    keys.append(declared)  # UNIQUE on a column: unnamed
                else:
                    body.foreign_keys.append(declared)
        elif isinstance(item, ForeignKey):
            body.foreign_keys.append(item)
        else:
            keys.append(item)
    if periods:
        keys = [_without_overlaps(key, periods, body.columns) for key in keys]
    keys = without_redundant_generated_keys(keys)
    problem = _name_keys(keys, body.indexes)
    drop_whole_prefixes(body.indexes, body.columns.get)
    _primary_key_first(body)
    return refused or problem


def _is_key_element(element: list[Token]) -> bool:
    """Whether a body element is a key or constraint, not a column: it starts with a key word
    (PERIOD only with FOR after it: `period INT` is a column named period)."""
    head = element[0]
    if head.token_type == TokenType.IDENTIFIER:
        return False
    word = _head(head)
    if word == "PERIOD":
        return len(element) > 1 and element[1].text.upper() == "FOR"
    return word in _KEY_WORDS


def _read_period(c: _Cursor, periods: dict[str, tuple[str, str]]) -> None:
    """`PERIOD FOR name (start, end)`: an application-time period (MariaDB), by its lower-case
    name; SYSTEM_TIME's is left out (it names no key part)."""
    c.expect("PERIOD")
    c.expect("FOR")
    name = c.name()
    if c.at_type(_L_PAREN):
        columns = [c.sub(part).name() for part in _split_top_level(c.group())]
        if len(columns) == 2 and name.upper() != "SYSTEM_TIME":
            periods[name.lower()] = (columns[0], columns[1])


def _without_overlaps(key: Index, periods: dict[str, tuple[str, str]], columns: dict[str, Column]) -> Index:
    """A key part naming a period (`UNIQUE (id, p WITHOUT OVERLAPS)`) is the period's end and start
    columns, in that order (MariaDB 10.11's information_schema.STATISTICS)."""
    parts: list[IndexColumn] = []
    for part in key.columns:
        period = periods.get(part.name.lower()) if not part.expression else None
        if period is not None and part.name.lower() not in columns:
            parts += [IndexColumn(period[1]), IndexColumn(period[0])]
        else:
            parts.append(part)
    return Index(key.name, key.kind, tuple(parts), key.invisible)


def _system_versioned_keys(c: _Cursor, body: TableBody) -> None:
    """A system-versioned table's PRIMARY and UNIQUE keys end with its ROW END column (MariaDB
    appends it; a hidden row_end of an implicit period is not shown, and is left out here)."""
    if c.row_end is None or "WITH SYSTEM VERSIONING" not in body.options.other:
        return
    for index in body.indexes:
        if index.kind in ("primary", "unique") and all(p.name.lower() != c.row_end.lower() for p in index.columns):
            index.columns = (*index.columns, IndexColumn(c.row_end))


#: the most keys a table may have (MySQL's and MariaDB's MAX_INDEXES: error 1069)
MAX_KEYS = 64


def _name_keys(keys: list[Index], out: list[Index]) -> str | None:
    """The keys of a CREATE TABLE in declaration order, into `out`, those without a name named as
    the server names them (`linter.schema.model.name_unnamed_keys`). Returns why the server refuses the
    keys (a name used twice, two primary keys, more than MAX_KEYS), or None. (The server's search
    for a free name is quadratic in the keys of one name; a table has at most MAX_KEYS.)"""
    out += keys
    if len(keys) > MAX_KEYS:
        return f"too many keys: {len(keys)}, the server allows {MAX_KEYS} (error 1069)"
    return name_unnamed_keys(out)


def _primary_key_first(body: TableBody) -> None:
    """The primary key's columns are NOT NULL whether or not the DDL says so, and InnoDB lists
    the primary key first whatever the order written. The columns were made by this parse, so
    they are changed in place."""
    primary = next((i for i in body.indexes if i.kind == "primary"), None)
    if primary is None:
        return
    for part in primary.columns:
        column = body.columns.get(part.name.lower())
        if column is not None:
            column.nullable = False
    body.indexes.sort(key=lambda i: i.kind != "primary")


# -- keys and constraints ----------------------------------------------------------------------
def _read_key(c: _Cursor, body: TableBody) -> bool:
    """One key or constraint element: PRIMARY KEY, [UNIQUE] KEY/INDEX, FULLTEXT, SPATIAL,
    FOREIGN KEY, CHECK, PERIOD FOR. Returns whether MariaDB's IF NOT EXISTS came with it."""
    constraint_name: str | None = None
    if_not_exists = False
    if c.accept("CONSTRAINT"):
        if_not_exists = c.accept_if_exists()
        if c.word() not in ("PRIMARY", "UNIQUE", "FOREIGN", "CHECK"):
            constraint_name = c.name()
    word = c.word()
    if word == "CHECK":
        body.checks += 1
        return if_not_exists
    if word == "PERIOD":  # MariaDB system versioning / application periods
        return if_not_exists
    if word == "FOREIGN":
        c.expect("FOREIGN", "KEY")
        if_not_exists = c.accept_if_exists() or if_not_exists
        index_name = None if c.at_type(TokenType.L_PAREN) else c.name()
        parts = _key_parts(c)
        columns = tuple(part.name for part in parts)
        body.foreign_keys.append(_references(c, constraint_name or index_name, columns))
        # the key the server makes for it unless a key begins with its columns, named after the
        # constraint, else the FOREIGN KEY's index name, else as an unnamed key (MariaDB 10.11 and
        # MySQL 8.0.16+ alike: tests/test_model_oracle.py)
        body.indexes.append(Index(constraint_name or index_name, "index", parts, generated=True))
        return if_not_exists
    kind: IndexKind
    if c.accept("PRIMARY", "KEY"):
        kind = "primary"
    elif c.accept("UNIQUE"):
        c.accept("INDEX") or c.accept("KEY")
        kind = "unique"
    elif c.accept("FULLTEXT") or c.accept("SPATIAL"):
        kind = "fulltext" if c.tokens[c.i - 1].text.upper() == "FULLTEXT" else "spatial"
        c.accept("INDEX") or c.accept("KEY")
    else:
        c.advance()  # KEY or INDEX
        kind = "index"
    if_not_exists = c.accept_if_exists() or if_not_exists
    name = constraint_name
    if not c.at_type(TokenType.L_PAREN) and c.word() != "USING":
        name = c.name()
    using = c.accept("USING")
    btree = using and c.word() == "BTREE"
    if using:
        c.advance()
    parts = _key_parts(c)
    btree = btree or _using_btree(c)
    invisible = _index_options_invisible(c)
    if kind == "primary":
        name = "PRIMARY"
    # an unnamed key keeps None: the server names it after its first column, with _2, _3 when
    # that name is taken (linter.schema.model.name_unnamed_keys, for the CREATE TABLE or in replay)
    body.indexes.append(Index(name, kind, parts, invisible, btree=btree))
    return if_not_exists


def _key_parts(c: _Cursor) -> tuple[IndexColumn, ...]:
    parts: list[IndexColumn] = []
    for element in _split_top_level(c.group()):
        part = c.sub(element)
        if part.at_type(TokenType.L_PAREN):  # functional key part: ((expr))
            text = c.text[element[0].start : element[-1].end + 1]
            parts.append(IndexColumn(text, expression=True, descending=part.word(len(element) - 1) == "DESC"))
            continue
        name = part.name()
        prefix = None
        if part.at_type(TokenType.L_PAREN):
            inner = part.group()
            if len(inner) == 1 and inner[0].text.isdigit():
                prefix = int(inner[0].text)
            else:  # a function call written without the extra parentheses
                text = c.text[element[0].start : element[-1].end + 1]
                parts.append(IndexColumn(text, expression=True))
                continue
        descending = part.accept("DESC")
        parts.append(IndexColumn(name, prefix, descending))
    return tuple(parts)


def _using_btree(c: _Cursor) -> bool:
    """`USING BTREE` among a key's options after its parts (the cursor stays where it is)."""
    return any(_head(t) == "USING" and _head(u) == "BTREE" for t, u in zip(c.tokens[c.i:], c.tokens[c.i + 1:]))


def _index_options_invisible(c: _Cursor) -> bool:
    """INVISIBLE (MySQL 8) or IGNORED (MariaDB 10.6+): the optimizer does not use the key."""
    invisible = False
    while not c.done:
        if c.accept("INVISIBLE") or c.accept("IGNORED"):
            invisible = True
        elif c.accept("VISIBLE") or c.accept("NOT", "IGNORED"):
            invisible = False
        else:
            c.advance()
    return invisible


def _references(c: _Cursor, name: str | None, columns: tuple[str, ...]) -> ForeignKey:
    c.expect("REFERENCES")
    target = c.qualified()
    ref_columns: tuple[str, ...] = ()
    if c.at_type(TokenType.L_PAREN):
        ref_columns = tuple(part.name for part in _key_parts(c))
    actions: dict[str, str] = {}
    while not c.done:
        if c.accept("ON"):
            event = c.word()
            c.advance()
            words = [c.word()]
            c.advance()
            if words[0] in ("SET", "NO") and not c.done:
                words.append(c.word())
                c.advance()
            actions[event] = " ".join(words).upper()
        else:
            c.advance()  # MATCH FULL / PARTIAL / SIMPLE
    return ForeignKey(name, columns, target.schema, target.name, ref_columns, actions.get("DELETE"), actions.get("UPDATE"))


# -- columns (through sqlglot) -----------------------------------------------------------------
class _ColumnExtras:
    """What is taken out of a column definition before sqlglot sees it."""

    __slots__ = ("type_name", "compressed", "dictionary", "srid", "persistent", "unsigned", "binary", "national",
                 "row", "default_text")

    def __init__(self) -> None:
        self.type_name = ""
        #: MariaDB system versioning: "start" / "end" for `[GENERATED ALWAYS] AS ROW START|END`
        self.row: str | None = None
        #: the DEFAULT expression as written, when sqlglot was shown a stand-in inside it
        self.default_text: str | None = None
        self.binary = False  # the BINARY attribute: the _bin collation of the column's charset
        self.national = False  # NATIONAL CHAR/VARCHAR: MySQL's predefined utf8 character set
        self.compressed: str | None = None
        self.dictionary: str | None = None
        self.srid: int | None = None
        self.persistent = False
        self.unsigned = False


def _strip_column(c: _Cursor, element: list[Token]) -> tuple[list[Token], _ColumnExtras]:
    """The tokens of one column definition that sqlglot can parse, and what was taken out."""
    extras = _ColumnExtras()
    element = _joined_pairs(element)
    name = element[0]
    # the name as a quoted identifier: sqlglot reads some bare words as keywords (EXCLUDE)
    out = [name if name.token_type == TokenType.IDENTIFIER else
           Token(TokenType.IDENTIFIER, c._raw(name), name.line, name.col, name.start, name.end)]
    i = 1
    # the type: drop NATIONAL, stand in for types sqlglot lacks
    if i < len(element) and element[i].text.upper() == "NATIONAL":
        extras.national = True
        i += 1
    if (i + 2 < len(element) and element[i + 1].token_type == TokenType.DOT
            and element[i].text.upper() in _TYPE_SCHEMAS and element[i].token_type != TokenType.IDENTIFIER):
        renames = _TYPE_SCHEMAS[element[i].text.upper()]
        i += 2
        renamed = renames.get(element[i].text.upper())
        if renamed is not None:
            token = element[i]
            element = [*element[:i], Token(getattr(TokenType, renamed), renamed, token.line, token.col, token.start,
                                           token.end), *element[i + 1 :]]
    if i < len(element):
        type_token = element[i]
        type_name = type_token.text.upper()
        if type_name == "LONG" and type_token.token_type not in _UNQUOTED:
            # LONG, LONG VARCHAR and LONG CHAR VARYING are MEDIUMTEXT, LONG VARBINARY and LONG BYTE
            # MEDIUMBLOB (old ODBC names)
            following = element[i + 1].text.upper() if i + 1 < len(element) else ""
            if following in ("VARCHAR", "VARBINARY", "BYTE", "CHAR VARYING", "CHARACTER VARYING"):
                i += 1
            type_name = "MEDIUMBLOB" if following in ("VARBINARY", "BYTE") else "MEDIUMTEXT"
            type_token = Token(getattr(TokenType, type_name), type_name, type_token.line, type_token.col,
                               type_token.start, element[i].end)
        elif type_name == "NCHAR" and i + 1 < len(element) and element[i + 1].text.upper() in ("VARCHAR", "VARYING"):
            # NCHAR VARCHAR / NCHAR VARYING: NATIONAL VARCHAR
            i += 1
            extras.national = True
            type_name = "VARCHAR"
            type_token = Token(TokenType.VARCHAR, "VARCHAR", type_token.line, type_token.col, type_token.start,
                               element[i].end)
        elif type_name == "CHAR" and i + 1 < len(element) and element[i + 1].text.upper() == "VARYING":
            i += 1  # NATIONAL CHAR VARYING
            type_name = "VARCHAR"
            type_token = Token(TokenType.VARCHAR, "VARCHAR", type_token.line, type_token.col, type_token.start,
                               element[i].end)
        if type_name in ("CHAR VARYING", "CHARACTER VARYING"):
            type_name = "VARCHAR"
        type_name = type_name.split()[0] if type_name else type_name
        if type_token.token_type in _UNQUOTED:
            type_name = ""
        extras.type_name = type_name
        stand_in = _STAND_IN_TYPES.get(type_name)
        if stand_in is not None:
            type_token = Token(stand_in[0], stand_in[1], type_token.line, type_token.col, type_token.start, type_token.end)
        out.append(type_token)
        i += 1
    depth = 0
    n = len(element)
    while i < n:
        token = element[i]
        token_type = token.token_type
        if token_type == TokenType.L_PAREN:
            depth += 1
        elif token_type == TokenType.R_PAREN:
            depth -= 1
        if depth > 0 or token_type in _UNQUOTED:
            if (depth > 0 and token.text.upper() in _CAST_STAND_INS and out and out[-1].text.upper() == "AS"
                    and token_type not in _UNQUOTED):
                # CAST(... AS INET6): sqlglot knows no such type; the default keeps its text
                extras.default_text = _default_text(c, element)
                token = Token(TokenType.TEXT, "TEXT", token.line, token.col, token.start, token.end)
            out.append(token)
            i += 1
            continue
        word = token.text.upper()
        if word == "UNSIGNED":  # sqlglot rejects FLOAT/DOUBLE/DECIMAL UNSIGNED: recorded here
            extras.unsigned = True
            i += 1
            continue
        elif word == "BINARY":
            if out and out[-1].text.upper() in ("SET", "CHARSET", "COLLATE"):  # CHARACTER SET binary
                out.append(Token(TokenType.VAR, "binary", token.line, token.col, token.start, token.end))
            else:
                extras.binary = True
            i += 1
            continue
        elif word == "GENERATED" and i + 4 < n and element[i + 3].text.upper() == "ROW":
            extras.row = element[i + 4].text.lower()  # GENERATED ALWAYS AS ROW START|END
            i += 5
            continue
        elif word == "AS" and i + 2 < n and element[i + 1].text.upper() == "ROW":
            extras.row = element[i + 2].text.lower()  # AS ROW START|END
            i += 3
            continue
        elif word == "ZEROFILL":  # implies UNSIGNED (the server prints both)
            extras.unsigned = True
            i += 1
            continue
        elif word in ("VISIBLE", "SIGNED"):
            i += 1
            continue
        elif word == "COMPRESSED":  # MariaDB: COMPRESSED[=zlib]
            extras.compressed = "zlib"
            i += 1
            if i < n and element[i].token_type == TokenType.EQ:
                extras.compressed = element[i + 1].text if i + 1 < n else "zlib"
                i += 2
            continue
        elif word == "COLUMN_FORMAT":  # Percona: COLUMN_FORMAT COMPRESSED [WITH COMPRESSION_DICTIONARY d]
            value = element[i + 1].text.upper() if i + 1 < n else ""
            i += 2
            if value == "COMPRESSED":
                extras.compressed = "zlib"
                if i + 1 < n and element[i].text.upper() == "WITH" and element[i + 1].text.upper() == "COMPRESSION_DICTIONARY":
                    sub = c.sub(element[i + 2 :])
                    extras.dictionary = sub.name()
                    i += 2 + sub.i
            continue
        elif word == "SRID" and i + 1 < n:
            if element[i + 1].text.isdigit():
                extras.srid = int(element[i + 1].text)
            i += 2
            continue
        elif word == "STORAGE" and i + 1 < n:
            i += 2
            continue
        elif word in ("ENGINE_ATTRIBUTE", "SECONDARY_ENGINE_ATTRIBUTE"):
            i += 1
            if i < n and element[i].token_type == TokenType.EQ:
                i += 1
            i += 1
            continue
        elif word in ("WITH", "WITHOUT") and i + 2 < n and element[i + 1].text.upper() == "SYSTEM":
            i += 3  # MariaDB WITH[OUT] SYSTEM VERSIONING
            continue
        elif word == "PERSISTENT":
            extras.persistent = True
            token = Token(TokenType.VAR, "STORED", token.line, token.col, token.start, token.end)
        out.append(token)
        i += 1
    return out, extras


#: keyword pairs sqlglot reads as one token, which a comment between the two words splits
_PAIRS = {tuple(k.split()): v for k, v in _TOKENIZER.KEYWORDS.items() if k.count(" ") == 1}


def _joined_pairs(element: list[Token]) -> list[Token]:
    """The tokens of a column definition with keyword pairs split by a comment (`PRIMARY /* x */
    KEY`, which the server reads as PRIMARY KEY) made one token again, as sqlglot expects them."""
    if not any(token.comments for token in element):
        return element
    out: list[Token] = []
    for token in element:
        if out and token.token_type not in _UNQUOTED and out[-1].token_type not in _UNQUOTED:
            pair = _PAIRS.get((out[-1].text.upper(), token.text.upper()))
            if pair is not None:
                first = out[-1]
                out[-1] = Token(pair, f"{first.text} {token.text}", first.line, first.col, first.start, token.end)
                continue
        out.append(token)
    return out


def _parse_columns(c: _Cursor, elements: list[list[Token]]) -> list[tuple[Column, Sequence[Index | ForeignKey]]]:
    """Column definitions: those of a plain form read from their text (`_plain_column_element`),
    the others through sqlglot, all of them in one parse."""
    if not elements:
        return []
    elements = [_unqualified(element) for element in elements]
    for element in elements:
        if element and element[0].token_type == TokenType.STRING:  # a column's name as a string
            raise ParseFailure(_STRING_FOR_NAME + f" near {element[0].text!r}", element[0].line - 1)
        if len(element) > 2 and element[1].token_type not in _UNQUOTED and _head(element[1]) == "SERIAL":
            _serial_attributes(element)
    plain = [_plain_column_element(c.text, element) for element in elements]
    if None not in plain:
        return _auto_increment_not_null(plain)  # type: ignore[arg-type]
    if any(plain):
        rest = [i for i, done in enumerate(plain) if done is None]
        try:
            parsed = iter(_parse_columns_sqlglot(c, [elements[i] for i in rest]))
        except ParseFailure:
            pass  # the whole table through sqlglot below, for the very diagnostic it gives
        else:
            return _auto_increment_not_null([done if done is not None else next(parsed) for done in plain])
    return _auto_increment_not_null(_parse_columns_sqlglot(c, elements))


#: what may not follow the type SERIAL (BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE): its
#: grammar takes NOT NULL, [PRIMARY] KEY, UNIQUE [KEY], COMMENT, INVISIBLE, CHECK, REFERENCES and
#: an engine's options only; MariaDB 10.11 refuses these (1064, tests/test_parse_refusals.py)
_NOT_AFTER_SERIAL = frozenset({"DEFAULT", "AUTO_INCREMENT", "UNSIGNED", "SIGNED", "ZEROFILL", "COLLATE", "CHARACTER",
                               "CHARSET", "AS", "GENERATED", "COMPRESSED", "ON", "BINARY", "ASCII", "UNICODE"})


def _serial_attributes(element: list[Token]) -> None:
    """Refuse a SERIAL column whose attributes its grammar does not take (`_NOT_AFTER_SERIAL`, a
    NULL without NOT), up to a CHECK or REFERENCES, whose own text may hold any word."""
    after_not = False
    depth = 0
    for token in element[2:]:
        kind = token.token_type
        if kind == _L_PAREN:
            depth += 1
        elif kind == _R_PAREN:
            depth -= 1
        if depth or kind in _UNQUOTED:
            after_not = False
            continue
        word = _head(token)
        if word in ("CHECK", "REFERENCES"):
            return
        if word in _NOT_AFTER_SERIAL or (word == "NULL" and not after_not) or word == "DEFAULT NULL":
            raise ParseFailure(f"`SERIAL {token.text}`: the type SERIAL takes no {word} (it is BIGINT UNSIGNED NOT NULL "
                               "AUTO_INCREMENT UNIQUE): the server refuses the statement (syntax error, 1064)",
                               token.line - 1)
        after_not = word == "NOT"


def _unqualified(element: list[Token]) -> list[Token]:
    """A column definition without the table (`t.a INT`) or database and table (`db.t.a INT`)
    its name may be qualified with (the server accepts both)."""
    k = 0
    while k < 2 and len(element) > k * 2 + 2 and element[k * 2 + 1].token_type == TokenType.DOT:
        k += 1
    return element[k * 2 :] if k else element


def _auto_increment_not_null(columns: list[tuple[Column, Sequence[Index | ForeignKey]]]) -> list[tuple[Column, Sequence[Index | ForeignKey]]]:
    """An AUTO_INCREMENT column is NOT NULL on the server whatever the DDL says (`a INT NULL
    AUTO_INCREMENT` too), so a UNIQUE key on it can cluster the table (tests/test_model_oracle.py)."""
    for column, _ in columns:
        if column.auto_increment:
            column.nullable = False
    return columns


def _parse_columns_sqlglot(c: _Cursor, elements: list[list[Token]]) -> list[tuple[Column, list[Index | ForeignKey]]]:
    """Column definitions through sqlglot, all in one parse."""
    stripped = [_strip_column(c, element) for element in elements]
    first = elements[0][0]
    tokens = [
        Token(TokenType.CREATE, "CREATE", first.line, first.col, first.start, first.start),
        Token(TokenType.TABLE, "TABLE", first.line, first.col, first.start, first.start),
        Token(TokenType.VAR, "_", first.line, first.col, first.start, first.start),
        Token(TokenType.L_PAREN, "(", first.line, first.col, first.start, first.start),
    ]
    for n, (column_tokens, _) in enumerate(stripped):
        if n:
            prev = column_tokens[0]
            tokens.append(Token(TokenType.COMMA, ",", prev.line, prev.col, prev.start, prev.start))
        tokens.extend(column_tokens)
    last = elements[-1][-1]
    tokens.append(Token(TokenType.R_PAREN, ")", last.line, last.col, last.end, last.end))
    try:
        tree = _sqlglot_parse(tokens, c.text)
    except ParseFailure:
        # find the column at fault, so the diagnostic can name it and its line
        for column_tokens, _ in stripped:
            single = tokens[:4] + column_tokens + tokens[-1:]
            try:
                _sqlglot_parse(single, c.text)
            except ParseFailure as failure:
                raise ParseFailure(
                    f"column {column_tokens[0].text!r}: {failure.reason}", column_tokens[0].line - c.first_line
                ) from None
        raise
    definitions = [e for e in tree.this.expressions if isinstance(e, exp.ColumnDef)] if isinstance(tree.this, exp.Schema) else []
    if len(definitions) != len(elements):
        raise ParseFailure("column definitions could not be read", elements[0][0].line - c.first_line)
    return [
        _column(c, definition, element[0], extras)
        for definition, element, (_, extras) in zip(definitions, elements, stripped)
    ]


def _sqlglot_parse(tokens: list[Token], text: str) -> exp.Expression:
    try:
        trees = _PARSER.parse(tokens, text)
    except ParseError as error:
        errors = getattr(error, "errors", None) or []
        reason = errors[0].get("description") if errors else _first_line(str(error))
        near = errors[0].get("highlight") if errors else None
        if near:
            reason = f"{reason} near {near!r}"
        line = errors[0].get("line", 1) if errors else 1
        raise ParseFailure(f"sqlglot: {reason}", max(0, (line or 1) - 1)) from None
    except RecursionError:
        raise ParseFailure(_TOO_DEEP) from None
    except Exception as error:  # sqlglot raises assorted internal errors on odd input
        raise ParseFailure(f"sqlglot: {type(error).__name__}: {_first_line(str(error))}") from None
    tree = trees[0] if trees else None
    if not isinstance(tree, exp.Create):
        raise ParseFailure("column definitions could not be read")
    return tree


def _column(
    c: _Cursor, definition: exp.ColumnDef, name_token: Token, extras: _ColumnExtras
) -> tuple[Column, list[Index | ForeignKey]]:
    kind = definition.args.get("kind")
    params: tuple[str, ...] = ()
    if isinstance(kind, exp.DataType):
        params = tuple(_param(p) for p in kind.expressions)
    column, inline = _column_base(c, name_token, extras, params)
    name = column.name
    for constraint in definition.args.get("constraints") or []:
        kind_ = constraint.args.get("kind") if isinstance(constraint, exp.ColumnConstraint) else constraint
        if isinstance(kind_, exp.NotNullColumnConstraint):
            column.nullable = bool(kind_.args.get("allow_null"))
        elif isinstance(kind_, exp.DefaultColumnConstraint):
            column.default = _sql(kind_.this) if kind_.this is not None else None
        elif isinstance(kind_, exp.AutoIncrementColumnConstraint):
            column.auto_increment = True
        elif isinstance(kind_, exp.ComputedColumnConstraint):
            column.generated = "stored" if (kind_.args.get("persisted") or extras.persistent) else "virtual"
        elif isinstance(kind_, exp.GeneratedAsIdentityColumnConstraint) and kind_.args.get("expression") is not None:
            column.generated = "virtual"
        elif isinstance(kind_, exp.InvisibleColumnConstraint):
            column.invisible = True
        elif isinstance(kind_, exp.OnUpdateColumnConstraint) and kind_.this is not None:
            column.on_update = _sql(kind_.this)
        elif isinstance(kind_, exp.CommentColumnConstraint):
            column.comment = kind_.this.name if kind_.this is not None else None
        elif isinstance(kind_, exp.CharacterSetColumnConstraint):
            column.charset = kind_.this.name if kind_.this is not None else None
        elif isinstance(kind_, exp.CollateColumnConstraint):
            column.collation = kind_.this.name if kind_.this is not None else None
        elif isinstance(kind_, exp.PrimaryKeyColumnConstraint):
            inline.append(Index("PRIMARY", "primary", (IndexColumn(name),)))
            column.nullable = False
        elif isinstance(kind_, exp.UniqueColumnConstraint):
            inline.append(Index(None, "unique", (IndexColumn(name),)))  # named as the server does, later
        elif isinstance(kind_, exp.Reference):  # MariaDB makes it a foreign key, with its key
            inline.append(_reference(name, kind_))
            inline.append(Index(None, "index", (IndexColumn(name),), generated=True))
        elif isinstance(kind_, exp.CheckColumnConstraint) and kind_.this is not None:
            named = constraint.this if isinstance(constraint, exp.ColumnConstraint) else None
            check = f"CHECK ({_sql(kind_.this)})"
            if isinstance(named, exp.Identifier):
                check = f"CONSTRAINT {_sql(named)} {check}"
            column.checks += (check,)
    if extras.row is not None:  # a system-versioning row start/end column is NOT NULL, and the server fills it
        column.nullable = False
        column.generated = "stored"  # as MariaDB says of it (GENERATED ALWAYS AS ROW START|END): no default needed
        if extras.row == "end":
            c.row_end = column.name
    if extras.default_text is not None:
        column.default = extras.default_text
    binary = _BINARY_TYPES.get(column.type)
    if binary is not None and "binary" in ((column.charset or "").lower(), (column.collation or "").lower()):
        column.type, column.charset, column.collation = binary, None, None
    return column, _one_key_per_column(inline)


def _one_key_per_column(inline: list[Index | ForeignKey]) -> list[Index | ForeignKey]:
    """A column's own attributes make one key at most: the server's parser sets a flag for each
    (PRIMARY KEY / KEY, UNIQUE [KEY], SERIAL's implied UNIQUE) and makes a PRIMARY KEY if that flag
    is set, else one UNIQUE key (MariaDB's sql_yacc.yy field_spec). So `a INT UNIQUE UNIQUE`, `f
    SERIAL UNIQUE` are one UNIQUE key and `a INT PRIMARY KEY UNIQUE` the PRIMARY KEY alone (MariaDB
    10.11: tests/test_model_keys.py); keys written apart from the column (`UNIQUE (a)`) are never
    merged with it, nor with each other. MySQL reads the same flags (add_field_to_list), so a
    repeated UNIQUE is one key there too; whether its PRIMARY KEY UNIQUE adds a UNIQUE key beside
    the PRIMARY KEY was not run (a redundant key either way, which redundant-index would name)."""
    keys = [item for item in inline if isinstance(item, Index) and item.kind in ("primary", "unique")]
    if len(keys) < 2:
        return inline
    kept = next((key for key in keys if key.kind == "primary"), keys[0])
    return [item for item in inline if item is kept or not (isinstance(item, Index) and item.kind in ("primary", "unique"))]


def _default_text(c: _Cursor, element: list[Token]) -> str | None:
    """The DEFAULT expression of a column definition as written: a parenthesized expression, or a
    word with its argument list (`CAST(...)`), or one token."""
    for k, token in enumerate(element):
        if token.text.upper() == "DEFAULT" and token.token_type not in _UNQUOTED and k + 1 < len(element):
            start = k + 1
            end = start
            if element[start].token_type != _L_PAREN and start + 1 < len(element) and element[start + 1].token_type == _L_PAREN:
                end = start + 1
            if element[end].token_type == _L_PAREN:
                depth = 0
                for j in range(end, len(element)):
                    depth += {_L_PAREN: 1, _R_PAREN: -1}.get(element[j].token_type, 0)
                    if depth == 0:
                        end = j
                        break
            return c.text[element[start].start : element[end].end + 1]
    return None


def _column_base(
    c: _Cursor, name_token: Token, extras: _ColumnExtras, params: tuple[str, ...]
) -> tuple[Column, list[Index | ForeignKey]]:
    """A column with its name, type and what `_strip_column` took out, before its constraints."""
    name = c._raw(name_token)
    type_name = _TYPE_ALIASES.get(extras.type_name, extras.type_name)
    if type_name == "DOUBLE" or (type_name == "LONG"):
        pass
    column = Column(name=name, type=type_name, params=params, unsigned=extras.unsigned)
    column.binary = extras.binary
    if extras.national:
        column.charset = "utf8mb3"
    column.compressed = extras.compressed
    column.compression_dictionary = extras.dictionary
    column.srid = extras.srid
    inline: list[Index | ForeignKey] = []
    if type_name == "SERIAL":  # BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
        column.type, column.unsigned, column.nullable, column.auto_increment = "BIGINT", True, False, True
        # unnamed: named as the server does, in declaration order (`KEY (id), id SERIAL`: the
        # KEY is `id`, SERIAL's UNIQUE `id_2`)
        inline.append(Index(None, "unique", (IndexColumn(name),)))
    return column, inline


# -- plain forms, read from the text -----------------------------------------------------------
# Most CREATE TABLE statements, mysqldump's and hand-written ones alike, are made of a few plain
# forms: a column with a plain type and the common attributes, PRIMARY/UNIQUE/plain keys and
# foreign keys on named columns, and `KEY=value` table options. Once the statement is tokenized,
# those are read here from its text with one regular-expression match per element (walking their
# tokens in Python was most of the time of a CREATE TABLE), and give the very objects the token
# path and sqlglot give them (tests/test_parse_cache.py compares the two). Anything else - a
# comment, a string with a quote or backslash in it, an expression, an attribute or option these
# patterns do not list, a keyword used as a bare name - does not match, and the element takes the
# token path. The patterns agree with the tokenizer on what they accept: names are `quoted`
# without backticks inside or bare words, strings hold no backslash and no quote but a doubled
# one, and the only comments are whole-line ones before an element (`_GAP`), so no token boundary
# can fall elsewhere.
_S = r"[ \t\r\n]"
_WORD = r"[A-Za-z_][A-Za-z0-9_]*"
_NAME_TEXT = rf"(?:`[^`]+`|{_WORD})"
_STRING = r"'[^'\\]*'"
_NUMBER = r"[0-9]+(?:\.[0-9]+)?"
#: whitespace and line comments before an element: there the tokenizer attaches a comment to the
#: `(` or `,` before it, or to the element's first token, where neither path reads it (a comment
#: after an element's last token goes with that token, into sqlglot's DEFAULT text: never skipped)
_GAP = rf"(?:{_S}++|--(?={_S})[^\n]*+|\#[^\n]*+)*+"
#: the `,` or `)` after an element, when the body is read from its text (absent for a token slice)
_END = rf"(?:{_S}*(?P<end>[,)]){_GAP})?"
#: every word of a tokenizer keyword, the key words of a body, the attributes `_strip_column` takes
#: out, and the words sqlglot's parser starts a constraint with: as a bare column name, charset or
#: collation these make tokens of another kind, or are read as something else
_NOT_PLAIN_WORDS = frozenset(
    {word for keyword in _TOKENIZER.KEYWORDS for word in keyword.split()} | _KEY_WORDS
    | {word for constraint in _PARSER.SCHEMA_UNNAMED_CONSTRAINTS for word in constraint.split()}
    | {"NATIONAL", "LONG", "UNSIGNED", "SIGNED", "BINARY", "ZEROFILL", "VISIBLE", "COMPRESSED", "COLUMN_FORMAT",
       "SRID", "STORAGE", "ENGINE_ATTRIBUTE", "SECONDARY_ENGINE_ATTRIBUTE", "WITH", "WITHOUT", "PERSISTENT"}
)
#: first words of the tokenizer's two-word keywords (`PRIMARY KEY`, `ORDER BY` ...): such a bare
#: word followed by the second one is one token
_PAIR_FIRST_WORDS = frozenset(keyword.split()[0] for keyword in _TOKENIZER.KEYWORDS if " " in keyword)
#: the type words read here, by the model's type name, each one the tokenizer reads as the type
#: it is (as `_strip_column` and sqlglot then take it); ENUM and SET take a list of strings
_PLAIN_TYPE_TOKENS = frozenset({
    TokenType.TINYINT, TokenType.SMALLINT, TokenType.MEDIUMINT, TokenType.INT, TokenType.BIGINT, TokenType.DECIMAL,
    TokenType.FLOAT, TokenType.DOUBLE, TokenType.BIT, TokenType.BOOLEAN, TokenType.CHAR, TokenType.NCHAR,
    TokenType.VARCHAR, TokenType.NVARCHAR, TokenType.BINARY, TokenType.VARBINARY, TokenType.TINYTEXT, TokenType.TEXT,
    TokenType.MEDIUMTEXT, TokenType.LONGTEXT, TokenType.TINYBLOB, TokenType.BLOB, TokenType.MEDIUMBLOB,
    TokenType.LONGBLOB, TokenType.DATE, TokenType.DATETIME, TokenType.TIME, TokenType.TIMESTAMPTZ, TokenType.YEAR,
    TokenType.JSON, TokenType.ENUM, TokenType.SET,
})
_PLAIN_TYPES: dict[str, str] = {
    word: _TYPE_ALIASES.get(word, word)
    for word in """TINYINT SMALLINT MEDIUMINT INT INTEGER BIGINT INT1 INT2 INT4 INT8 DECIMAL DEC NUMERIC FIXED FLOAT
    DOUBLE REAL FLOAT4 FLOAT8 BIT BOOL BOOLEAN CHAR CHARACTER NCHAR VARCHAR NVARCHAR BINARY VARBINARY TINYTEXT TEXT
    MEDIUMTEXT LONGTEXT TINYBLOB BLOB MEDIUMBLOB LONGBLOB DATE DATETIME TIME TIMESTAMP YEAR JSON ENUM SET""".split()
    if _TOKENIZER.KEYWORDS.get(word) in _PLAIN_TYPE_TOKENS
}
_LIST_TYPES = frozenset({"ENUM", "SET"})


_FLAGS = re.X | re.I | re.A
_ONCE = re.compile(r"\(\?\(once (\w+)\)")


def _compile_once(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled, where `(?(once NAME)...)` is an alternative that matches only while the
    group NAME (inside it) has not matched yet: each column attribute at most once, in any order.
    Python's re accepts a forward group reference in a conditional only by number, so the pattern
    is compiled once with plain groups to learn the numbers."""
    numbers = re.compile(_ONCE.sub("(?:", pattern), _FLAGS).groupindex
    return re.compile(_ONCE.sub(lambda m: f"(?({numbers[m.group(1)]})(?!)|", pattern), _FLAGS)


_ON_UPDATE = rf"ON{_S}+UPDATE{_S}+CURRENT_TIMESTAMP(?:{_S}*\({_S}*[0-9]?{_S}*\))?"
#: what sqlglot stops a DEFAULT value before (anything else it may read into the value)
_BEFORE_DEFAULT_END = rf"{_S}*(?:[,)]|\Z)|{_S}+(?:NOT|NULL|AUTO_INCREMENT|COMMENT|ON|PRIMARY|UNIQUE)(?![A-Za-z0-9_])"
#: a column definition: name, type, then each attribute at most once in any order (the alternatives
#: in order of frequency), UNIQUE [KEY] last (sqlglot reads a key name after it); sqlglot reads
#: `ON ...` after PRIMARY KEY as the key's ON DELETE/UPDATE action
_COLUMN = _compile_once(
    rf"""{_S}*(?P<name>{_NAME_TEXT}){_S}+(?P<type>{_WORD})
    (?:{_S}*\({_S}*(?P<length>{_NUMBER}){_S}*(?:,{_S}*(?P<scale>{_NUMBER}){_S}*)?\)
      |{_S}*\((?P<values>{_S}*{_STRING}{_S}*(?:,{_S}*{_STRING}{_S}*)*)\))?
    (?:{_S}+(?:(?(once null)(?P<null>(?:NOT{_S}+)?NULL))
      |(?(once default)DEFAULT{_S}+(?P<default>{_STRING}|B'[01]*'|-?{_NUMBER}|NULL|TRUE|FALSE
          |CURRENT_TIMESTAMP(?:{_S}*\({_S}*(?P<precision>[0-9]?){_S}*\))?)(?={_BEFORE_DEFAULT_END}))
      |(?(once comment)COMMENT{_S}*'(?P<comment>(?:[^'\\]|'')*)')
      |(?(once auto_increment)(?P<auto_increment>AUTO_INCREMENT))
      |(?(once sign)(?P<sign>UNSIGNED|SIGNED))
      |(?(once charset)(?:CHARACTER{_S}+SET|CHARSET){_S}+(?P<charset>{_WORD}))
      |(?(once collation)COLLATE{_S}+(?P<collation>{_WORD}))
      |(?(once primary)(?P<primary>PRIMARY{_S}+KEY)(?!{_S}+ON(?![A-Za-z0-9_])))
      |(?(once on_update)(?P<on_update>{_ON_UPDATE}))
      |(?(once binary)(?P<binary>BINARY))
      |(?(once zerofill)(?P<zerofill>ZEROFILL))))*
    (?:{_S}+(?P<unique>UNIQUE(?:{_S}+KEY)?))?
    {_END}"""
)
_COLUMN_GROUPS = ("name", "type", "length", "scale", "values", "null", "default", "precision", "comment",
                  "auto_increment", "sign", "charset", "collation", "primary", "on_update", "binary", "zerofill",
                  "unique", "end")
assert tuple(_COLUMN.groupindex) == _COLUMN_GROUPS  # the order `_plain_column` unpacks them in
_strings = re.compile(_STRING).findall


def _plain_column(m: re.Match[str]) -> tuple[Column, list[Index]] | None:
    """The column a `_COLUMN` match defines and the keys it declares (PRIMARY KEY, UNIQUE), as
    `_strip_column` and `_column` read them from the tokens and sqlglot's tree; None when a word
    in it is not what it looks like (a keyword as a bare name, charset or collation)."""
    (name, type_word, length, scale, values, null, default, precision, comment, auto_increment, sign, charset,
     collation, primary, on_update, binary, zerofill, unique, _) = m.groups()
    if name[0] == "`":
        name = name[1:-1]
    elif name.upper() in _NOT_PLAIN_WORDS:
        return None
    type_name = _PLAIN_TYPES.get(type_word.upper())
    if type_name is None:
        return None
    params: tuple[str, ...] = ()
    if type_name in _LIST_TYPES:
        if values is None:
            return None
        params = tuple(_strings(values))
    elif values is not None or (length is not None and type_name == "JSON"):
        return None
    elif scale is not None:
        params = (length, scale)
    elif length is not None:
        params = (length,)
    if (charset is not None and charset.upper() in _NOT_PLAIN_WORDS) or (
            collation is not None and collation.upper() in _NOT_PLAIN_WORDS):
        return None
    nullable = null is None or len(null) == 4  # NULL, or NOT NULL
    if primary is not None and (null is None or m.start("primary") > m.start("null")):
        nullable = False  # the later of the two counts
    if default is not None and default[0] != "'":  # as sqlglot writes them
        upper = default.upper()
        if upper.startswith("CURRENT_TIMESTAMP"):
            default = f"CURRENT_TIMESTAMP({precision or ''})"
        elif upper[0] == "B":
            default = "b" + default[1:]
        elif upper in ("NULL", "TRUE", "FALSE"):
            default = upper
    # positional: Column's sixteen keyword parameters cost more to bind than the rest of this
    column = Column(name, type_name, params, (sign is not None and len(sign) == 8) or zerofill is not None, nullable,
                    default, auto_increment is not None)  # ZEROFILL implies UNSIGNED
    if comment is not None:
        column.comment = comment.replace("''", "'") if "''" in comment else comment
    if charset is not None:
        column.charset = charset
    if collation is not None:
        column.collation = collation
    if binary is not None:
        column.binary = True
    if on_update is not None:  # as sqlglot writes it
        column.on_update = f"CURRENT_TIMESTAMP({on_update.partition('(')[2].strip(' )') if '(' in on_update else ''})"
    keys: list[Index] = []
    if primary is not None:  # one key per column: PRIMARY KEY UNIQUE is the PRIMARY KEY (`_one_key_per_column`)
        keys.append(Index("PRIMARY", "primary", (IndexColumn(name),)))
    elif unique is not None:
        keys.append(Index(None, "unique", (IndexColumn(name),)))  # named as the server does, later
    return column, keys


def _plain_column_element(text: str, element: list[Token]) -> tuple[Column, list[Index]] | None:
    """The column one element of a body or ALTER defines, when it is of the plain form and no
    comment is attached to its tokens (sqlglot keeps comments in what it writes); else None."""
    for token in element:
        if token.comments:
            return None
    m = _COLUMN.fullmatch(text, element[0].start, element[-1].end + 1)
    return _plain_column(m) if m is not None else None


_PART = rf"{_NAME_TEXT}(?:{_S}*\({_S}*[0-9]+{_S}*\))?(?:{_S}+(?:ASC|DESC))?"
_PARTS = rf"{_S}*{_PART}(?:{_S}*,{_S}*{_PART})*{_S}*"
_part_fields = re.compile(rf"(?:`([^`]+)`|({_WORD}))(?:{_S}*\({_S}*([0-9]+){_S}*\))?(?:{_S}+(ASC|DESC))?",
                          re.I | re.A).findall
#: `CONSTRAINT [name]`, as `_read_key` reads it: the next word is the name unless it is PRIMARY,
#: UNIQUE, FOREIGN or CHECK
_CONSTRAINT_HEAD = r"(?:PRIMARY|UNIQUE|FOREIGN|CHECK)(?![A-Za-z0-9_])"
_CONSTRAINT = rf"""(?:CONSTRAINT{_S}+
    (?:(?={_CONSTRAINT_HEAD})|(?!{_CONSTRAINT_HEAD})(?P<constraint>{_NAME_TEXT}){_S}+))?"""
#: a key's own name (never USING, which starts the index type)
_KEY_NAME = rf"(?:{_S}+(?!USING(?![A-Za-z0-9_]))(?P<name>{_NAME_TEXT}))?"
_KEY = re.compile(
    rf"""{_S}*{_CONSTRAINT}
    (?:(?P<primary>PRIMARY{_S}+KEY)|(?P<kind>UNIQUE|FULLTEXT|SPATIAL)(?:{_S}+(?:KEY|INDEX))?|KEY|INDEX)
    {_KEY_NAME}(?:{_S}+USING{_S}+(?P<using>BTREE|HASH))?{_S}*\((?P<parts>{_PARTS})\)
    (?:{_S}+USING{_S}+(?P<using_after>BTREE|HASH))?(?:{_S}+COMMENT{_S}+'(?:[^'\\]|'')*')?
    {_END}""",
    _FLAGS,
)
_FK_ACTION = rf"CASCADE|RESTRICT|SET{_S}+NULL|SET{_S}+DEFAULT|NO{_S}+ACTION"
_FOREIGN_KEY = re.compile(
    rf"""{_S}*{_CONSTRAINT}
    FOREIGN{_S}+KEY(?:{_S}+(?P<name>{_NAME_TEXT}))?{_S}*\((?P<parts>{_PARTS})\){_S}*
    REFERENCES{_S}+(?:(?P<schema>{_NAME_TEXT})\.)?(?P<table>{_NAME_TEXT}){_S}*\((?P<references>{_PARTS})\)
    (?:{_S}+ON{_S}+DELETE{_S}+(?P<on_delete>{_FK_ACTION}))?
    (?:{_S}+ON{_S}+UPDATE{_S}+(?P<on_update>{_FK_ACTION}))?
    (?:{_S}+ON{_S}+DELETE{_S}+(?P<on_delete_after>{_FK_ACTION}))?
    {_END}""",
    _FLAGS,
)


_KEY_KINDS: dict[str, IndexKind] = {"UNIQUE": "unique", "FULLTEXT": "fulltext", "SPATIAL": "spatial"}


def _unquote(name: str) -> str:
    return name[1:-1] if name[0] == "`" else name


def _index_columns(parts: str) -> tuple[IndexColumn, ...]:
    return tuple([IndexColumn(quoted or bare, int(prefix) if prefix else None, order.upper() == "DESC")
                  for quoted, bare, prefix, order in _part_fields(parts)])


def _plain_key(m: re.Match[str]) -> Index:
    """The key a `_KEY` match defines, as `_read_key` reads it (unnamed: None, `_name_keys`)."""
    constraint, primary, kind, name, parts = m.group("constraint", "primary", "kind", "name", "parts")
    columns = _index_columns(parts)
    btree = "BTREE" in ((m.group("using") or "") + (m.group("using_after") or "")).upper()
    if primary is not None:
        return Index("PRIMARY", "primary", columns, btree=btree)
    if name is not None:
        name = _unquote(name)
    elif constraint is not None:
        name = _unquote(constraint)
    return Index(name, _KEY_KINDS[kind.upper()] if kind is not None else "index", columns, btree=btree)


def _plain_foreign_key(m: re.Match[str]) -> ForeignKey:
    """The foreign key a `_FOREIGN_KEY` match defines, as `_read_key` reads it."""
    constraint, name, parts, schema, table, references = m.group(
        "constraint", "name", "parts", "schema", "table", "references")
    label = constraint if constraint is not None else name
    on_delete, on_update, on_delete_after = m.group("on_delete", "on_update", "on_delete_after")
    on_delete = on_delete or on_delete_after
    return ForeignKey(
        _unquote(label) if label is not None else None,
        tuple([quoted or bare for quoted, bare, _, _ in _part_fields(parts)]),
        _unquote(schema) if schema is not None else None,
        _unquote(table),
        tuple([quoted or bare for quoted, bare, _, _ in _part_fields(references)]),
        " ".join(on_delete.upper().split()) if on_delete else None,
        " ".join(on_update.upper().split()) if on_update else None,
    )


_CREATE_TABLE_HEAD = re.compile(
    rf"""CREATE{_S}+TABLE(?P<if_not_exists>{_S}+IF{_S}+NOT{_S}+EXISTS)?
    {_S}+(?:(?P<schema>{_NAME_TEXT})\.)?(?P<table>{_NAME_TEXT}){_S}*\({_GAP}""",
    _FLAGS,
)


def _plain_create_table(text: str) -> ops.CreateTable | None:
    """`CREATE TABLE [IF NOT EXISTS] name (...) options` made only of plain forms, read from its
    text as `_parse_create_table` reads it from its tokens; else None (the token path reads it,
    each column of a plain form still read by `_plain_column`)."""
    head = _CREATE_TABLE_HEAD.match(text)
    if head is None:
        return None
    read = _plain_body(text, head.end())
    if read is None:
        return None
    body, end, refused = read
    pairs = _plain_options(text, end)
    if pairs is None:
        return None
    apply_options(body.options, pairs)
    if_not_exists, schema, table = head.groups()
    name = ops.Name(_unquote(schema) if schema is not None else None, _unquote(table))
    return ops.CreateTable(name, body, False, if_not_exists is not None, refused=refused)


def _plain_body(text: str, pos: int) -> tuple[TableBody, int, str | None] | None:
    """The body of a CREATE TABLE from `pos` (after its `(`), the offset after its `)` and why the
    server refuses it (as `_read_elements` says), when every element is of a plain form; else None."""
    body = TableBody()
    columns = body.columns
    keys: list[Index] = []  # in the order written, those a column declares in its place
    refused = None
    end = ","
    while end == ",":
        m = _COLUMN.match(text, pos)
        if m is not None and (end := m.group("end")) is not None:
            read = _plain_column(m)
            if read is None:
                return None
            column, declared = read
            key = column.name.lower()
            if key in columns and refused is None:
                refused = f"duplicate column name {column.name} (error 1060)"
            columns[key] = column
            if declared:  # PRIMARY KEY or UNIQUE (unnamed) on the column, in its place
                keys += declared
        else:
            m = _KEY.match(text, pos)
            if m is not None and (end := m.group("end")) is not None:
                keys.append(_plain_key(m))
            else:
                m = _FOREIGN_KEY.match(text, pos)
                if m is None or (end := m.group("end")) is None:
                    return None
                foreign_key = _plain_foreign_key(m)
                body.foreign_keys.append(foreign_key)
                index_name = m.group("constraint") or m.group("name")  # as `_read_key` names it
                keys.append(Index(_unquote(index_name) if index_name is not None else None, "index",
                                  _index_columns(m.group("parts")), generated=True))
        pos = m.end()
    for column in columns.values():
        if column.auto_increment:
            column.nullable = False
    problem = _name_keys(without_redundant_generated_keys(keys), body.indexes)
    drop_whole_prefixes(body.indexes, columns.get)
    _primary_key_first(body)
    return body, pos, refused or problem


#: words the token path reads as something other than an option's name (`_read_option_pairs`)
_NOT_OPTION_NAMES = frozenset(
    {"PARTITION", "AS", "SELECT", "WITH", "IGNORE", "REPLACE", "DEFAULT", "CHARACTER", "DATA", "INDEX", "START",
     "UNION", "STORAGE"} | _PAIR_FIRST_WORDS
)
_OPTION = re.compile(
    rf"""[ \t\r\n,]*(?:(?:DEFAULT{_S}+)?
    (?:(?P<charset>CHARACTER{_S}+SET)|(?!(?:{"|".join(sorted(_NOT_OPTION_NAMES))})(?![A-Za-z0-9_]))(?P<key>{_WORD}))
    (?:{_S}*(?P<eq>=){_S}*|{_S}+)(?:'(?P<string>(?:[^'\\]|'')*)'|`(?P<quoted>[^`]+)`|(?P<bare>[A-Za-z0-9_]+))
    (?=[ \t\r\n,]|\Z))?""",
    _FLAGS,
)


def _plain_options(text: str, pos: int) -> list[tuple[str, str | None]] | None:
    """The table options from `pos` to the end of the statement as (KEY, value) pairs, as
    `_read_option_pairs` reads them, when each is a plain `[DEFAULT] KEY [=] value`; else None."""
    pairs: list[tuple[str, str | None]] = []
    end = len(text)
    while True:
        m = _OPTION.match(text, pos)
        assert m is not None  # everything in it is optional
        charset, key, string, quoted, bare = m.group("charset", "key", "string", "quoted", "bare")
        if charset is None and key is None:
            return pairs if m.end() == end else None
        if key is not None and m.group("eq") is None and key.upper() not in _TABLE_OPTION_NAMES:
            return None  # not an option: the token path says why
        if bare is not None:
            if bare.upper() in _PAIR_FIRST_WORDS:
                return None
            value = bare
        elif string is not None:
            value = string.replace("''", "'") if "''" in string else string
        else:
            value = quoted
        pairs.append(("CHARSET" if charset is not None else key.upper(), value))
        pos = m.end()


def _param(node: exp.Expression) -> str:
    inner = node.this if isinstance(node, exp.DataTypeParam) else node
    if isinstance(inner, exp.Literal) and not inner.is_string:
        return str(inner.this)
    return _sql(inner)


_PLAIN_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?").fullmatch


def _sql(node: exp.Expression) -> str:
    """`node.sql(dialect="mysql")`, with the literals that column definitions are full of (DEFAULT
    '0', DEFAULT NULL) written directly: the generator copies the tree first, a third of the cost
    of a column."""
    kind = type(node)
    if node.comments:
        pass  # the generator writes them out
    elif kind is exp.Literal:
        value = node.this
        if node.is_string:
            if "'" not in value and "\\" not in value:
                return f"'{value}'"
        elif _PLAIN_NUMBER(value):
            return value
    elif kind is exp.Null:
        return "NULL"
    return _GENERATOR.generate(node)


def _reference(column: str, reference: exp.Reference) -> ForeignKey:
    target = reference.this
    ref_columns: tuple[str, ...] = ()
    table = target
    if isinstance(target, exp.Schema):
        table = target.this
        ref_columns = tuple(e.name for e in target.expressions)
    schema = table.args.get("db").name if isinstance(table, exp.Table) and table.args.get("db") else None
    actions: dict[str, str] = {}
    for option in reference.args.get("options") or []:  # sqlglot writes them as "ON delete SET NULL"
        words = str(option).upper().split()
        if len(words) >= 3 and words[0] == "ON":
            actions[words[1]] = " ".join(words[2:])
    return ForeignKey(None, (column,), schema, table.name if table is not None else "", ref_columns,
                      actions.get("DELETE"), actions.get("UPDATE"))


# -- table options -----------------------------------------------------------------------------
_OPTION_FIELDS = {
    # TYPE= is not ENGINE=: the server refuses it (1064); kept in `other` for the replay to refuse
    "ENGINE": "engine", "ROW_FORMAT": "row_format", "KEY_BLOCK_SIZE": "key_block_size",
    "COMPRESSION": "compression", "PAGE_COMPRESSED": "page_compressed", "TABLESPACE": "tablespace",
    "CHARSET": "charset", "CHARACTER SET": "charset", "COLLATE": "collation", "COMMENT": "comment",
    "AUTO_INCREMENT": "auto_increment",
}


def _read_table_options(c: _Cursor, *, stop_at_select: bool) -> tuple[TableOptions, bool]:
    """Table options up to the end (or to AS SELECT): (options, whether a SELECT follows)."""
    pairs, as_select = _read_option_pairs(c, stop_at_select=stop_at_select)
    options = TableOptions()
    apply_options(options, pairs)
    return options, as_select


#: the table options the server's grammar names (MariaDB 10.11 and MySQL 8.x), which may go
#: without `=`; any other word is an engine-defined option (MariaDB), `NAME = value` only. A word
#: that is neither, such as the first word of a statement whose `;` was left out before it (`FLUSH
#: TABLES`, `USE d2`, `DO 1`) or a client command the client sent as text (`DELIMITER //`), makes
#: the server refuse the statement (1064, checked on MariaDB 10.11 by tests/test_parse_refusals.py).
_TABLE_OPTION_NAMES = frozenset(
    "ENGINE TYPE MAX_ROWS MIN_ROWS AVG_ROW_LENGTH PASSWORD COMMENT AUTO_INCREMENT PACK_KEYS STATS_AUTO_RECALC "
    "STATS_PERSISTENT STATS_SAMPLE_PAGES CHECKSUM TABLE_CHECKSUM PAGE_CHECKSUM DELAY_KEY_WRITE ROW_FORMAT UNION "
    "CHARSET COLLATE INSERT_METHOD TABLESPACE STORAGE CONNECTION KEY_BLOCK_SIZE TRANSACTIONAL SEQUENCE "
    "COMPRESSION ENCRYPTION ENGINE_ATTRIBUTE SECONDARY_ENGINE SECONDARY_ENGINE_ATTRIBUTE AUTOEXTEND_SIZE".split())
_NOT_AN_OPTION = ("`{word}` is not a table option, and an option of the engine's needs `=`: a `;` seems to be "
                  "missing before it (the server reads the text as one statement and refuses it: syntax error, "
                  "1064), so none of it runs")


def _read_option_pairs(c: _Cursor, *, stop_at_select: bool) -> tuple[list[tuple[str, str | None]], bool]:
    pairs: list[tuple[str, str | None]] = []
    while not c.done:
        if c.accept_type(TokenType.COMMA):
            continue
        word = c.word()
        if c.at("PARTITION", "BY"):
            pairs.append(("PARTITION", _partition_text(c)))
            continue
        if c.accept("WITH", "SYSTEM", "VERSIONING"):  # before `WITH` of a CREATE ... SELECT
            pairs.append(("WITH SYSTEM VERSIONING", None))
            continue
        if stop_at_select and (word in ("AS", "SELECT", "WITH", "IGNORE", "REPLACE", "VALUES")
                               or c.at_type(TokenType.L_PAREN)):
            c.skip_rest()
            return pairs, True
        c.accept("DEFAULT")
        if c.accept("CHARACTER", "SET") or c.accept("CHARSET"):
            key = "CHARSET"
        elif c.accept("DATA", "DIRECTORY"):
            key = "DATA DIRECTORY"
        elif c.accept("INDEX", "DIRECTORY"):
            key = "INDEX DIRECTORY"
        elif c.accept("START", "TRANSACTION"):
            continue
        else:
            token = c.peek()
            if token is None or token.token_type in _PUNCTUATION or token.token_type == TokenType.STRING:
                c.fail("unexpected table option")
            assert token is not None
            key = c.name().upper()
            if key not in _TABLE_OPTION_NAMES and not c.at_type(TokenType.EQ):
                c.i -= 1
                if not (token.text[:1].isalpha() or token.text[:1] == "_"):
                    c.fail("unexpected text after the table options: the server refuses the statement (syntax error, "
                           "1064)")
                raise ParseFailure(_NOT_AN_OPTION.format(word=token.text), c.line_offset())
        c.accept_type(TokenType.EQ)
        if key == "UNION" and c.at_type(TokenType.L_PAREN):
            start = c.peek()
            inner = c.group()
            pairs.append((key, c.text[start.start : inner[-1].end + 2] if inner and start else "()"))
            continue
        value = c.value()
        if key == "TABLESPACE" and c.accept("STORAGE"):
            c.advance()
        pairs.append((key, value))
    return pairs, False


def _partition_text(c: _Cursor) -> str:
    """PARTITION BY ... as written: partitions are kept as text (sqlglot cannot read mysqldump's
    forms), up to the end of the statement or a CREATE ... SELECT."""
    start = c.peek()
    assert start is not None
    depth = 0
    end = start
    while not c.done:
        token = c.peek()
        assert token is not None
        if token.token_type == TokenType.L_PAREN:
            depth += 1
        elif token.token_type == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and token.text.upper() in ("SELECT", "AS") and token is not start:
            break
        end = token
        c.advance()
    return c.text[start.start : end.end + 1]


_PARTITION_BY = re.compile(r"\b(?:SUB)?PARTITION\s++BY\s++(?:LINEAR\s++)?(?:RANGE|LIST|HASH|KEY)(?:\s++COLUMNS)?"
                           r"(?:\s++ALGORITHM\s*+=\s*+\d++)?\s*+\(", re.IGNORECASE)
_PARTITION_NAME = re.compile(r"`((?:[^`]++|``)++)`|([A-Za-z_$][\w$]*+)(\s*+\()?")
_PARENTHESIS = re.compile(r"[()]")


def partition_names(text: str) -> tuple[str, ...]:
    """The identifiers inside the PARTITION BY and SUBPARTITION BY expressions of a partitioning
    clause, leaving out function names (`YEAR(d)` gives `d`). Linear: each expression is read
    once, and the next clause is looked for after it (an unclosed expression runs to the end)."""
    found: dict[str, None] = {}
    pos = 0
    while True:
        match = _PARTITION_BY.search(text, pos)
        if match is None:
            return tuple(found)
        start = pos = match.end()
        depth = 1
        end = len(text)
        for parenthesis in _PARENTHESIS.finditer(text, start):
            depth += 1 if parenthesis.group() == "(" else -1
            if not depth:
                end = parenthesis.start()
                break
        for ident in _PARTITION_NAME.finditer(text, start, end):
            if ident.group(3) is None:
                found[(ident.group(1) or "").replace("``", "`") or ident.group(2)] = None
        pos = max(pos, end + 1)


def option_field(key: str) -> str:
    """The TableOptions field a DDL option key sets ("TYPE" -> "engine"), else the key itself."""
    return _OPTION_FIELDS.get(key, key)


_PARTITION_ENGINE = re.compile(r"\bENGINE\s*+=?\s*+[`'\"]?+(\w++)", re.IGNORECASE)


def apply_options(options: TableOptions, pairs: list[tuple[str, str | None]] | tuple[tuple[str, str | None], ...]) -> None:
    """Set table options from (KEY, value) pairs as read from DDL."""
    for key, value in pairs:
        field = _OPTION_FIELDS.get(key)
        if key == "PARTITION":
            options.partitioning = value
            options.partition_names = partition_names(value or "")
            if options.engine is None:  # ENGINE given only on the partitions is the table's
                engine = _PARTITION_ENGINE.search(value or "")
                if engine is not None:
                    options.engine = engine.group(1)
        elif field == "key_block_size" or field == "auto_increment":
            setattr(options, field, int(value) if value and value.isdigit() else None)
        elif field == "page_compressed":
            options.page_compressed = (value or "").strip("'\"").upper() in ("1", "YES", "ON")
        elif field is not None:
            setattr(options, field, value)
        else:
            options.other[key] = value or ""


# --------------------------------------------------------------------------------------------
# CREATE INDEX, CREATE TABLESPACE
# --------------------------------------------------------------------------------------------
def _parse_create_index(c: _Cursor) -> ops.CreateIndex:
    c.accept("ONLINE") or c.accept("OFFLINE")
    kind: IndexKind = "index"
    if c.accept("UNIQUE"):
        kind = "unique"
    elif c.accept("FULLTEXT"):
        kind = "fulltext"
    elif c.accept("SPATIAL"):
        kind = "spatial"
    c.expect("INDEX")
    if_not_exists = c.accept_if_exists()
    name = c.name()
    using = c.accept("USING")
    btree = using and c.word() == "BTREE"
    if using:
        c.advance()
    c.expect("ON")
    table = c.qualified()
    parts = _key_parts(c)
    btree = btree or _using_btree(c)
    for k in range(len(c.tokens) - c.i):  # no index option is a SELECT: a statement glued on (1064)
        if c.word(k) == "SELECT":
            c.i += k
            raise ParseFailure("a `;` seems to be missing before `SELECT` here: the server reads this text as one "
                               "statement and refuses it (syntax error), so none of it runs", c.line_offset())
    clauses: dict[str, str] = {}
    for k in range(c.i, len(c.tokens)):  # [index options] [ALGORITHM [=] x] [LOCK [=] x], in any order
        if c.tokens[k].token_type not in _UNQUOTED and c.tokens[k].text.upper() in ("ALGORITHM", "LOCK"):
            _online_clause(c.sub(c.tokens[k:]), clauses)
    invisible = _index_options_invisible(c)
    return ops.CreateIndex(table, Index(name, kind, parts, invisible, btree=btree), if_not_exists,
                           clauses.get("ALGORITHM"), clauses.get("LOCK"))


def _parse_create_tablespace(c: _Cursor) -> ops.CreateTablespace:
    c.accept("UNDO")
    c.expect("TABLESPACE")
    name = c.name()
    datafile = engine = None
    while not c.done:
        if c.accept("ADD", "DATAFILE"):
            datafile = c.value()
        elif c.accept("ENGINE"):
            c.accept_type(TokenType.EQ)
            engine = c.value()
        else:
            c.advance()
    return ops.CreateTablespace(name, datafile, engine)


# --------------------------------------------------------------------------------------------
# ALTER TABLE
# --------------------------------------------------------------------------------------------
_ALTER_NO_OPS = frozenset(
    """DISABLE ENABLE FORCE ALGORITHM LOCK ORDER DISCARD IMPORT VALIDATION COALESCE REORGANIZE
    EXCHANGE ANALYZE CHECK OPTIMIZE REBUILD REPAIR REMOVE TRUNCATE UPGRADE""".split()
)


#: `ALTER TABLE t DISABLE KEYS` / `ENABLE KEYS`, which mysqldump writes around every table's data:
#: a MyISAM bulk-load hint that changes nothing in the schema (InnoDB ignores it), skipped on
#: purpose like the statements of _SKIP_FIRST_WORDS (the splitter may count it without building
#: it: `_KEYS_ONLY_LINE`)
_KEYS_ONLY = ops.Skipped("ALTER TABLE ... KEYS")
#: the same statement as mysqldump writes it, as a regex for the splitter's `skip_pattern` (what it
#: matches, parse_statement skips: tests/test_split_lanes.py checks every statement counted so)
_KEYS_ONLY_LINE = r"ALTER[ \t]+TABLE[ \t]+(?:`[^`;\n]+`\.)?`[^`;\n]+`[ \t]+(?:DISABLE|ENABLE)[ \t]+KEYS"


def _parse_alter(c: _Cursor) -> ops.Operation:
    c.expect("ALTER")
    online = c.accept("ONLINE")
    online or c.accept("OFFLINE")
    c.accept("IGNORE")
    word = c.word()
    if word in ("DATABASE", "SCHEMA", "VIEW", "TABLESPACE", "INSTANCE") or word in _SKIP_OBJECTS or word.startswith("DEFINER"):
        return ops.Skipped(f"ALTER {word}")
    if word == "ALGORITHM" or word == "SQL":
        return ops.Skipped("ALTER VIEW")
    c.expect("TABLE")
    if_exists = c.accept_if_exists()
    name = c.qualified()
    if c.accept("WAIT"):
        c.advance()
    c.accept("NOWAIT")
    actions: list[ops.AlterAction] = []
    rest = c.tokens[c.i :]
    if len(rest) == 2 and c.word() in ("DISABLE", "ENABLE") and c.word(1) == "KEYS":
        return _KEYS_ONLY
    clauses: dict[str, str] = {}
    unmodelled: list[str] = []
    for element in _split_top_level(rest):
        part = c.sub(element)
        first, second = part.word(), part.word(1)
        if first in ("ALGORITHM", "LOCK"):
            _online_clause(part, clauses)
            continue
        found = _alter_action(c, part)
        if not found or (first == "CONVERT" and second == "TO"):
            whole = element[0].text.upper()  # sqlglot makes one token of some pairs ('ORDER BY')
            unmodelled.append(whole if " " in whole else f"{first} {second}".strip() if first in _TWO_WORD_ACTIONS
                              else first)
        for action in found:
            if isinstance(action, ops.SetOptions) and any(k in ("ALGORITHM", "LOCK") for k, _ in action.options):
                # `ENGINE=InnoDB ALGORITHM=INPLACE`, without a comma: read as options
                clauses.update((k, (v or "").upper()) for k, v in action.options if k in ("ALGORITHM", "LOCK"))
                kept = tuple((k, v) for k, v in action.options if k not in ("ALGORITHM", "LOCK"))
                if not kept:
                    continue
                action = ops.SetOptions(kept)
            actions.append(action)
    return ops.AlterTable(name, tuple(actions), if_exists, clauses.get("ALGORITHM"), clauses.get("LOCK"), online,
                          tuple(unmodelled))


#: ALTER actions named by their first two words in `AlterTable.unmodelled` (ADD PARTITION, ORDER BY ...)
_TWO_WORD_ACTIONS = frozenset({"ADD", "DROP", "ALTER", "CONVERT", "ORDER", "DISABLE", "ENABLE", "REMOVE"})


def _online_clause(c: _Cursor, clauses: dict[str, str]) -> None:
    """`ALGORITHM [=] x` or `LOCK [=] x` (in ALTER TABLE, CREATE INDEX): the last of each wins."""
    key = c.word()
    c.advance()
    c.accept_type(TokenType.EQ)
    token = c.peek()
    if token is not None:
        clauses[key] = token.text.strip("`'\"").upper()
        c.advance()


def _alter_action(parent: _Cursor, c: _Cursor) -> list[ops.AlterAction]:
    word = c.word()
    if word == "ADD":
        c.advance()
        if c.word() in _KEY_WORDS and not (c.word() == "PERIOD" and c.word(1) != "FOR"):
            body = TableBody()
            if_not_exists = _read_key(c, body)
            return ([ops.AddIndex(i, if_not_exists) for i in body.indexes]
                    + [ops.AddForeignKey(f, if_not_exists) for f in body.foreign_keys])
        if c.word() == "PARTITION" or c.at("SYSTEM", "VERSIONING"):
            return []  # (ADD SYSTEM VERSIONING: its row_end joins the unique keys hidden)
        c.accept("COLUMN")
        if_not_exists = c.accept_if_exists()
        position: ops.Position = None
        if c.at_type(TokenType.L_PAREN):
            elements = _split_top_level(c.group())
        else:
            definition, position = _without_position(parent, c.tokens[c.i :])
            elements = [definition]
        if not elements or not elements[0]:
            c.fail("expected a name")
        columns, keys = _alter_elements(parent, elements)
        actions: list[ops.AlterAction] = [ops.AddColumn(col, if_not_exists, position) for col in columns]
        return actions + keys
    if word == "DROP":
        c.advance()
        if c.accept("PRIMARY", "KEY"):
            return [ops.DropIndex("PRIMARY")]
        if c.accept("INDEX") or c.accept("KEY"):
            if_exists = c.accept_if_exists()
            return [ops.DropIndex(_last_name(c, "DROP INDEX"), if_exists)]
        if c.accept("FOREIGN", "KEY"):
            if_exists = c.accept_if_exists()
            return [ops.DropForeignKey(_last_name(c, "DROP FOREIGN KEY"), if_exists)]
        if c.accept("CONSTRAINT"):
            if c.accept("PRIMARY", "KEY"):  # MariaDB: DROP CONSTRAINT PRIMARY KEY
                c.expect_end("DROP CONSTRAINT PRIMARY KEY")
                return [ops.DropIndex("PRIMARY")]
            if_exists = c.accept_if_exists()
            return [ops.DropConstraint(_last_name(c, "DROP CONSTRAINT"), if_exists)]
        if c.word() in ("CHECK", "PARTITION", "PERIOD", "SYSTEM"):
            return []
        c.accept("COLUMN")
        if_exists = c.accept_if_exists()
        name = c.name()
        c.accept("RESTRICT") or c.accept("CASCADE")
        c.expect_end("DROP COLUMN")
        return [ops.DropColumn(name, if_exists)]
    if word in ("MODIFY", "CHANGE"):
        c.advance()
        c.accept("COLUMN")
        if_exists = c.accept_if_exists()
        old_name = None
        if word == "CHANGE":
            old_name = c.name()
        definition, position = _without_position(parent, c.tokens[c.i :])
        if not definition:
            c.fail("expected a column definition")
        columns, keys = _alter_elements(parent, [definition])
        if len(columns) != 1:
            c.fail("expected a column definition")
        return [ops.ChangeColumn(old_name or columns[0].name, columns[0], if_exists, position), *keys]
    if word == "RENAME":
        c.advance()
        if c.accept("COLUMN"):
            if_exists = c.accept("IF", "EXISTS")
            old = c.name()
            c.expect("TO")
            return [ops.RenameColumn(old, _last_name(c, "RENAME COLUMN"), if_exists)]
        if c.accept("INDEX") or c.accept("KEY"):
            if_exists = c.accept("IF", "EXISTS")
            old = c.name()
            c.expect("TO")
            return [ops.RenameIndex(old, _last_name(c, "RENAME INDEX"), if_exists)]
        c.accept("TO") or c.accept("AS")
        target = c.qualified()
        c.expect_end("RENAME TO")
        return [ops.RenameTo(target)]
    if word == "ALTER":
        c.advance()
        if c.word() in ("INDEX", "KEY", "CHECK", "CONSTRAINT"):
            return []
        c.accept("COLUMN")
        c.accept_if_exists()
        column = c.name()
        if c.accept("SET", "DEFAULT"):
            token = c.peek()
            last = c.tokens[-1]
            return [ops.SetColumnDefault(column, c.text[token.start : last.end + 1] if token else None)]
        if c.accept("DROP", "DEFAULT"):
            return [ops.SetColumnDefault(column, None)]
        return []
    if word == "CONVERT" and c.word(1) == "PARTITION":  # CONVERT PARTITION p TO TABLE target
        c.advance(2)
        c.name()
        c.expect("TO")
        c.expect("TABLE")
        target = c.qualified()
        c.expect_end("CONVERT PARTITION ... TO TABLE")
        return [ops.PartitionToTable(target)]
    if word == "CONVERT" and c.word(1) == "TABLE":  # CONVERT TABLE source TO PARTITION p VALUES ...
        c.advance(2)
        source = c.qualified()
        c.expect("TO")
        c.skip_rest()
        return [ops.TableToPartition(source)]
    if word == "CONVERT":
        c.expect("CONVERT", "TO")
        pairs, _ = _read_option_pairs(c.sub(c.tokens[c.i :]), stop_at_select=False)
        return [ops.SetOptions(tuple(pairs))]
    if word in _ALTER_NO_OPS or (word == "WITH" or word == "WITHOUT") and c.word(1) == "VALIDATION":
        return []
    if c.at("PARTITION", "BY"):
        return [ops.SetOptions((("PARTITION", _partition_text(c)),))]
    if word == "REMOVE" or (word == "PARTITION"):
        return []
    pairs, _ = _read_option_pairs(c, stop_at_select=False)
    return [ops.SetOptions(tuple(pairs))]


def _without_position(c: _Cursor, tokens: list[Token]) -> tuple[list[Token], ops.Position]:
    """A column definition without its trailing FIRST / AFTER col, and that position."""
    if len(tokens) >= 2 and tokens[-2].text.upper() == "AFTER" and tokens[-2].token_type not in _UNQUOTED:
        return tokens[:-2], ("AFTER", c._raw(tokens[-1]))
    if tokens and tokens[-1].text.upper() == "FIRST" and tokens[-1].token_type not in _UNQUOTED:
        return tokens[:-1], "FIRST"
    return tokens, None


def _alter_elements(c: _Cursor, elements: list[list[Token]]) -> tuple[list[Column], list[ops.AlterAction]]:
    """The column definitions of ADD / MODIFY / CHANGE COLUMN, in order, and the keys and foreign
    keys they declare as ALTER actions (a UNIQUE on a column is an unnamed key)."""
    columns: list[Column] = []
    column_elements: list[list[Token]] = []
    actions: list[ops.AlterAction] = []
    for element in elements:
        if _is_key_element(element):
            read = TableBody()
            if_not_exists = _read_key(c.sub(element), read)
            actions += [ops.AddIndex(i, if_not_exists) for i in read.indexes]
            actions += [ops.AddForeignKey(f, if_not_exists) for f in read.foreign_keys]
        else:
            column_elements.append(element)
    for column, inline in _parse_columns(c, column_elements):
        columns.append(column)
        for item in inline:
            if isinstance(item, Index):
                actions.append(ops.AddIndex(item))
            else:
                actions.append(ops.AddForeignKey(item))
    return columns, actions


def _last_name(c: _Cursor, what: str) -> str:
    """A name that ends the action or statement."""
    name = c.name()
    c.expect_end(what)
    return name


# --------------------------------------------------------------------------------------------
# DROP, RENAME
# --------------------------------------------------------------------------------------------
def _parse_drop(c: _Cursor) -> ops.Operation:
    c.expect("DROP")
    temporary = c.accept("TEMPORARY")
    word = c.word()
    if word == "TABLE" or word == "TABLES":
        c.advance()
        if_exists = c.accept_if_exists()
        names = []
        for element in _split_top_level(c.tokens[c.i :]):
            part = c.sub(element)
            names.append(part.qualified())
            if part.accept("RESTRICT") or part.accept("CASCADE"):
                part.expect_end("DROP TABLE")
            elif not part.done and part.word() in ("WAIT", "NOWAIT"):
                continue  # MariaDB: DROP TABLE t WAIT n / NOWAIT
            else:
                part.expect_end("a table name")
        return ops.DropTable(tuple(names), temporary, if_exists)
    if word == "INDEX":
        c.advance()
        c.accept("ONLINE") or c.accept("OFFLINE")
        if_exists = c.accept_if_exists()
        name = c.name()
        c.expect("ON")
        table = c.qualified()
        if c.accept("WAIT"):  # MariaDB: ... [WAIT n | NOWAIT] [ALGORITHM [=] x] [LOCK [=] x]
            c.advance()
        c.accept("NOWAIT")
        clauses: dict[str, str] = {}
        while c.word() in ("ALGORITHM", "LOCK"):
            _online_clause(c, clauses)
        c.expect_end("DROP INDEX ... ON table")
        return ops.DropIndexStatement(table, name, if_exists, clauses.get("ALGORITHM"), clauses.get("LOCK"))
    if word in ("DATABASE", "SCHEMA"):
        c.advance()
        c.accept_if_exists()
        return ops.SchemaStatement("drop", c.name())
    if word == "TABLESPACE" or (word == "UNDO" and c.word(1) == "TABLESPACE"):
        c.accept("UNDO")
        c.advance()
        return ops.DropTablespace(c.name())
    if word == "VIEW":
        c.advance()
        if_exists = c.accept_if_exists()
        names = [c.qualified()]
        while c.accept_type(TokenType.COMMA):
            names.append(c.qualified())
        return ops.DropView(tuple(names), if_exists)
    if word in _SKIP_OBJECTS or word == "COMPRESSION_DICTIONARY":
        return ops.Skipped(f"DROP {word}")
    c.fail("unsupported DROP statement")
    raise AssertionError


def _parse_rename(c: _Cursor) -> ops.Operation:
    c.expect("RENAME")
    if c.word() == "USER":
        return ops.Skipped("RENAME USER")
    c.accept("TABLE") or c.accept("TABLES")
    if_exists = c.accept_if_exists()
    pairs: list[tuple[ops.Name, ops.Name]] = []
    for element in _split_top_level(c.tokens[c.i :]):
        part = c.sub(element)
        old = part.qualified()
        if part.accept("WAIT"):
            part.advance()
        part.accept("NOWAIT")
        part.expect("TO")
        pairs.append((old, part.qualified()))
        part.expect_end("RENAME TABLE ... TO name")
    return ops.RenameTable(tuple(pairs), if_exists)
