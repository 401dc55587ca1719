"""One statement to one DDL operation (`linter.ops`), or a ParseFailure with the reason.

The only module that knows sqlglot's quirks. Every statement is tokenized with sqlglot's MySQL
tokenizer; the statement's frame (which statement, names, table options, keys, ALTER actions) is
read from those tokens here, and column definitions are handed to sqlglot's parser, which
builds their types, defaults and generated expressions. We never parse a whole file at once
(one bad statement must not lose the rest) and never use ErrorLevel.IGNORE or WARN (they build
wrong trees without a word).

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
from dataclasses import replace

from sqlglot import exp
from sqlglot.dialects.mysql import MySQL
from sqlglot.errors import ErrorLevel, ParseError, TokenError
from sqlglot.tokens import Token, TokenType

from linter import ops
from linter.model import Column, ForeignKey, Index, IndexColumn, IndexKind, TableBody, TableOptions

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
    """INSERT REPLACE UPDATE DELETE SET LOCK UNLOCK GRANT REVOKE SELECT CALL COMMIT BEGIN START
    ROLLBACK SAVEPOINT RELEASE SOURCE FLUSH ANALYZE OPTIMIZE REPAIR CHECK CHECKSUM TRUNCATE LOAD
    SHOW DESCRIBE DESC EXPLAIN DO PREPARE EXECUTE DEALLOCATE HANDLER INSTALL UNINSTALL RESET PURGE
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


def _parse_statement(text: str) -> ops.Operation:
    first_word = _FIRST_WORD.match(text)
    if first_word is not None and first_word.group().upper() in _SKIP_FIRST_WORDS:
        # not DDL: skipped without tokenizing (a dump's INSERT can be megabytes long)
        return ops.Skipped(first_word.group().upper())
    simple = _simple_statement(text)
    if simple is not None:
        return simple
    tokens = tokenize(text)
    if not tokens:
        return ops.Skipped("empty")
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
    |DROP{_SP}+TABLE(?:{_SP}+IF{_SP}+EXISTS)?{_SP}+((?:{_NAME}\.)?{_NAME}(?:{_SP}*,{_SP}*(?:{_NAME}\.)?{_NAME})*){_SP}*
    |ALTER{_SP}+TABLE{_SP}+(?:{_NAME}\.)?{_NAME}{_SP}+(?:DISABLE|ENABLE){_SP}+KEYS{_SP}*""",
    re.X | re.I | re.A,
).fullmatch
_drop_names = re.compile(rf"(?:{_NAME}\.)?{_NAME}").findall


def _simple_statement(text: str) -> ops.Operation | None:
    m = _simple(text)
    if m is None:
        return None
    use, database, drop, _, _, _, _, alter_schema, alter_table = m.groups()
    if use is not None:
        return ops.SchemaStatement("use", use)
    if database is not None:
        return ops.SchemaStatement("create", database)
    if drop is not None:
        return ops.DropTable(tuple(ops.Name(schema or None, name) for schema, name in _drop_names(drop)), False)
    return ops.AlterTable(ops.Name(alter_schema, alter_table), ())


# --------------------------------------------------------------------------------------------
# A cursor over tokens
# --------------------------------------------------------------------------------------------
class _Cursor:
    def __init__(self, tokens: list[Token], text: str) -> None:
        self.tokens = tokens
        self.text = text
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

    def accept_if_exists(self) -> None:
        self.accept("IF", "EXISTS") or self.accept("IF", "NOT", "EXISTS")

    # -- names and values
    def name(self) -> str:
        """An identifier; template pieces glued to it (`%PREFIX%name`, `{$p}x`, `@ENGINE@`) are
        kept as one name, so install scripts with placeholders still lint."""
        token = self.peek()
        if token is None or token.token_type in _PUNCTUATION:
            self.fail("expected a name")
        assert token is not None
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
    c.accept("OR", "REPLACE")
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
        return _parse_create_table(c, temporary)
    if word in ("UNIQUE", "FULLTEXT", "SPATIAL", "INDEX", "ONLINE", "OFFLINE"):
        return _parse_create_index(c)
    if word in ("DATABASE", "SCHEMA"):
        c.advance()
        c.accept_if_exists()
        return ops.SchemaStatement("create", c.name())
    if word == "TABLESPACE" or (word == "UNDO" and c.word(1) == "TABLESPACE"):
        return _parse_create_tablespace(c)
    if word == "COMPRESSION_DICTIONARY":
        c.advance()
        c.accept_if_exists()
        return ops.CreateCompressionDictionary(c.name())
    if word == "VIEW":
        c.advance()
        c.accept_if_exists()
        return ops.CreateView(c.qualified())
    if word in _SKIP_OBJECTS or word.startswith("DEFINER"):
        return ops.Skipped(f"CREATE {word}")
    c.fail("unsupported CREATE statement")
    raise AssertionError


def _parse_create_table(c: _Cursor, temporary: bool) -> ops.CreateTable:
    if_not_exists = c.accept("IF", "NOT", "EXISTS")
    name = c.qualified()
    if c.accept("LIKE"):
        return ops.CreateTable(name, TableBody(), temporary, if_not_exists, like=c.qualified())
    if c.at_type(TokenType.L_PAREN) and c.word(1) == "LIKE":
        inner = c.sub(c.group())
        inner.expect("LIKE")
        return ops.CreateTable(name, TableBody(), temporary, if_not_exists, like=inner.qualified())
    body = TableBody()
    as_select = False
    if c.at_type(TokenType.L_PAREN) and c.word(1) not in ("SELECT", "WITH"):
        elements = _split_top_level(c.group())
        _read_elements(c, elements, body)
    options, as_select = _read_table_options(c, stop_at_select=True)
    body.options = options
    return ops.CreateTable(name, body, temporary, if_not_exists, as_select=as_select)


def _read_elements(c: _Cursor, elements: list[list[Token]], body: TableBody) -> None:
    """Column definitions, keys and constraints of a CREATE TABLE body, into `body`."""
    column_elements: list[list[Token]] = []
    for element in elements:
        head = element[0]
        if head.token_type != TokenType.IDENTIFIER and _head(head) in _KEY_WORDS:
            _read_key(c.sub(element), body)
        else:
            column_elements.append(element)
    for column, inline in _parse_columns(c, column_elements):
        body.columns[column.name.lower()] = column
        for item in inline:
            if isinstance(item, Index):
                body.indexes.append(item)
            else:
                body.foreign_keys.append(item)
    primary = next((i for i in body.indexes if i.kind == "primary"), None)
    if primary is not None:
        _primary_key_not_null(body, primary)
        # InnoDB lists the primary key first whatever the order written
        body.indexes.sort(key=lambda i: i.kind != "primary")


def _primary_key_not_null(body: TableBody, primary: Index) -> None:
    """Primary-key columns are NOT NULL whether or not the DDL says so."""
    for part in primary.columns:
        column = body.columns.get(part.name.lower())
        if column is not None and column.nullable:
            body.columns[part.name.lower()] = replace(column, nullable=False)


# -- keys and constraints ----------------------------------------------------------------------
def _read_key(c: _Cursor, body: TableBody) -> None:
    """One key or constraint element: PRIMARY KEY, [UNIQUE] KEY/INDEX, FULLTEXT, SPATIAL,
    FOREIGN KEY, CHECK, PERIOD FOR."""
    constraint_name: str | None = None
    if c.accept("CONSTRAINT"):
        if c.word() not in ("PRIMARY", "UNIQUE", "FOREIGN", "CHECK"):
            constraint_name = c.name()
    word = c.word()
    if word == "CHECK":
        body.checks += 1
        return
    if word == "PERIOD":  # MariaDB system versioning / application periods
        return
    if word == "FOREIGN":
        c.expect("FOREIGN", "KEY")
        c.accept_if_exists()
        index_name = None if c.at_type(TokenType.L_PAREN) else c.name()
        columns = tuple(part.name for part in _key_parts(c))
        body.foreign_keys.append(_references(c, constraint_name or index_name, columns))
        return
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
    c.accept_if_exists()
    name = constraint_name
    if not c.at_type(TokenType.L_PAREN) and c.word() != "USING":
        name = c.name()
    if c.accept("USING"):
        c.advance()
    parts = _key_parts(c)
    invisible = _index_options_invisible(c)
    if kind == "primary":
        name = "PRIMARY"
    elif name is None and parts:
        name = parts[0].name  # MySQL names an unnamed key after its first column
    body.indexes.append(Index(name, kind, parts, invisible))


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


def _index_options_invisible(c: _Cursor) -> bool:
    invisible = False
    while not c.done:
        if c.accept("INVISIBLE"):
            invisible = True
        else:
            c.advance()
    return invisible


def _references(c: _Cursor, name: str | None, columns: tuple[str, ...]) -> ForeignKey:
    c.expect("REFERENCES")
    target = c.qualified()
    ref_columns: tuple[str, ...] = ()
    if c.at_type(TokenType.L_PAREN):
        ref_columns = tuple(part.name for part in _key_parts(c))
    return ForeignKey(name, columns, target.schema, target.name, ref_columns)


# -- columns (through sqlglot) -----------------------------------------------------------------
class _ColumnExtras:
    """What is taken out of a column definition before sqlglot sees it."""

    __slots__ = ("type_name", "compressed", "dictionary", "srid", "persistent", "unsigned", "binary", "national")

    def __init__(self) -> None:
        self.type_name = ""
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
    out = [element[0]]
    i = 1
    # the type: drop NATIONAL, stand in for types sqlglot lacks
    if i < len(element) and element[i].text.upper() == "NATIONAL":
        extras.national = True
        i += 1
    if i < len(element):
        type_token = element[i]
        type_name = type_token.text.upper()
        if type_name == "LONG" and type_token.token_type not in _UNQUOTED:
            # LONG and LONG VARCHAR are MEDIUMTEXT, LONG VARBINARY is MEDIUMBLOB (old ODBC names)
            following = element[i + 1].text.upper() if i + 1 < len(element) else ""
            if following in ("VARCHAR", "VARBINARY"):
                i += 1
            type_name = "MEDIUMBLOB" if following == "VARBINARY" else "MEDIUMTEXT"
            type_token = Token(getattr(TokenType, type_name), type_name, type_token.line, type_token.col,
                               type_token.start, element[i].end)
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
            out.append(token)
            i += 1
            continue
        word = token.text.upper()
        if word == "UNSIGNED":  # sqlglot rejects FLOAT/DOUBLE/DECIMAL UNSIGNED: recorded here
            extras.unsigned = True
            i += 1
            continue
        elif word == "BINARY":
            extras.binary = True
            i += 1
            continue
        elif word in ("ZEROFILL", "VISIBLE", "SIGNED"):
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


def _parse_columns(c: _Cursor, elements: list[list[Token]]) -> list[tuple[Column, list[Index | ForeignKey]]]:
    """Column definitions: the common ones read from their tokens (`_simple_column`), the others
    through sqlglot, all of them in one parse."""
    if not elements:
        return []
    stripped = [_strip_column(c, element) for element in elements]
    simple = [_simple_column(c, tokens, extras) for tokens, extras in stripped]
    if None not in simple:
        return simple  # type: ignore[return-value]
    if any(simple):
        rest = [i for i, done in enumerate(simple) if done is None]
        try:
            parsed = iter(_parse_columns_sqlglot(c, [elements[i] for i in rest], [stripped[i] for i in rest]))
        except ParseFailure:
            pass  # the whole table through sqlglot below, for the very diagnostic it gives
        else:
            return [done if done is not None else next(parsed) for done in simple]
    return _parse_columns_sqlglot(c, elements, stripped)


def _parse_columns_sqlglot(
    c: _Cursor, elements: list[list[Token]], stripped: list[tuple[list[Token], _ColumnExtras]]
) -> list[tuple[Column, list[Index | ForeignKey]]]:
    """Column definitions through sqlglot, all in one parse."""
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
            inline.append(Index(name, "unique", (IndexColumn(name),)))
        elif isinstance(kind_, exp.Reference):
            inline.append(_reference(name, kind_))
    return column, inline


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
        inline.append(Index(name, "unique", (IndexColumn(name),)))
    return column, inline


# Column definitions of the commonest form (a plain type, NOT NULL, DEFAULT '0', AUTO_INCREMENT,
# COMMENT, CHARACTER SET, COLLATE, ON UPDATE CURRENT_TIMESTAMP, PRIMARY KEY, UNIQUE) are read from
# their tokens, as `_column` reads sqlglot's tree of them (tests/test_parse_cache.py compares the
# two over the corpus); anything else goes to sqlglot. sqlglot's parser was a third of the time
# of a CREATE TABLE.
_SIMPLE_TYPES = frozenset({
    TokenType.TINYINT, TokenType.SMALLINT, TokenType.MEDIUMINT, TokenType.INT, TokenType.BIGINT, TokenType.CHAR,
    TokenType.VARCHAR, TokenType.BINARY, TokenType.VARBINARY, TokenType.TEXT, TokenType.TINYTEXT,
    TokenType.MEDIUMTEXT, TokenType.LONGTEXT, TokenType.BLOB, TokenType.TINYBLOB, TokenType.MEDIUMBLOB,
    TokenType.LONGBLOB, TokenType.DATE, TokenType.DATETIME, TokenType.TIME, TokenType.TIMESTAMPTZ, TokenType.YEAR,
    TokenType.DECIMAL, TokenType.FLOAT, TokenType.DOUBLE, TokenType.BIT, TokenType.BOOLEAN, TokenType.NCHAR,
    TokenType.NVARCHAR,
})
_SIMPLE_NAMES = frozenset({TokenType.VAR, TokenType.IDENTIFIER})
#: what may follow a DEFAULT value without sqlglot reading it as part of the value
_AFTER_DEFAULT = frozenset({TokenType.NOT, TokenType.NULL, TokenType.AUTO_INCREMENT, TokenType.COMMENT, TokenType.ON,
                            TokenType.PRIMARY_KEY, TokenType.UNIQUE, TokenType.DEFAULT})


def _simple_column(
    c: _Cursor, tokens: list[Token], extras: _ColumnExtras
) -> tuple[Column, list[Index | ForeignKey]] | None:
    """The column `tokens` (as `_strip_column` left them) define, when they are of the common form;
    else None."""
    n = len(tokens)
    if n < 2 or tokens[0].token_type not in _SIMPLE_NAMES or tokens[1].token_type not in _SIMPLE_TYPES:
        return None
    for token in tokens:
        if token.comments:
            return None  # sqlglot keeps comments in what it writes (a DEFAULT's text)
    T = TokenType
    i = 2
    params: tuple[str, ...] = ()
    if i < n and tokens[i].token_type == T.L_PAREN:
        if i + 2 < n and tokens[i + 1].token_type == T.NUMBER and tokens[i + 2].token_type == T.R_PAREN:
            params = (tokens[i + 1].text,)
            i += 3
        elif (i + 4 < n and tokens[i + 1].token_type == T.NUMBER and tokens[i + 2].token_type == T.COMMA
              and tokens[i + 3].token_type == T.NUMBER and tokens[i + 4].token_type == T.R_PAREN):
            params = (tokens[i + 1].text, tokens[i + 3].text)
            i += 5
        else:
            return None
        if not all(_PLAIN_NUMBER(p) for p in params):
            return None
    attributes: list[tuple[str, object]] = []
    while i < n:
        token = tokens[i]
        kind = token.token_type
        following = tokens[i + 1] if i + 1 < n else None
        if kind == T.NOT and following is not None and following.token_type == T.NULL:
            attributes.append(("nullable", False))
            i += 2
        elif kind == T.NULL:
            attributes.append(("nullable", True))
            i += 1
        elif kind == T.DEFAULT and following is not None:
            if i + 2 < n and tokens[i + 2].token_type not in _AFTER_DEFAULT:
                return None  # sqlglot may read more into the default (`DEFAULT '' COLLATE x`)
            value = following.text
            if following.token_type == T.STRING and "'" not in value and "\\" not in value:
                attributes.append(("default", f"'{value}'"))
            elif following.token_type == T.NUMBER and _PLAIN_NUMBER(value):
                attributes.append(("default", value))
            elif following.token_type == T.NULL:
                attributes.append(("default", "NULL"))
            else:
                return None
            i += 2
        elif kind == T.AUTO_INCREMENT:
            attributes.append(("auto_increment", True))
            i += 1
        elif kind == T.COMMENT and following is not None and following.token_type == T.STRING:
            attributes.append(("comment", following.text))
            i += 2
        elif kind == T.CHARACTER_SET and following is not None and following.token_type == T.VAR:
            attributes.append(("charset", following.text))
            i += 2
        elif (kind == T.CHAR and following is not None and following.token_type == T.SET and i + 2 < n
              and tokens[i + 2].token_type == T.VAR):
            attributes.append(("charset", tokens[i + 2].text))
            i += 3
        elif kind == T.COLLATE and following is not None and following.token_type == T.VAR:
            attributes.append(("collation", following.text))
            i += 2
        elif kind == T.PRIMARY_KEY and i + 1 == n:  # last: sqlglot reads more after a key
            attributes.append(("primary", None))
            i += 1
        elif kind == T.UNIQUE and (i + 1 == n or (i + 2 == n and following.token_type == T.KEY)):  # type: ignore[union-attr]
            attributes.append(("unique", None))
            i = n
        elif (kind == T.ON and following is not None and following.token_type == T.UPDATE and i + 2 < n
              and tokens[i + 2].token_type == T.CURRENT_TIMESTAMP):
            i += 3  # ON UPDATE: not in the model
            if (i + 2 < n and tokens[i].token_type == T.L_PAREN and tokens[i + 1].token_type == T.NUMBER
                    and tokens[i + 2].token_type == T.R_PAREN):
                i += 3
        else:
            return None
    column, inline = _column_base(c, tokens[0], extras, params)
    name = column.name
    for what, value in attributes:
        if what == "primary":
            inline.append(Index("PRIMARY", "primary", (IndexColumn(name),)))
            column.nullable = False
        elif what == "unique":
            inline.append(Index(name, "unique", (IndexColumn(name),)))
        else:
            setattr(column, what, value)
    return column, inline


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
    return ForeignKey(None, (column,), schema, table.name if table is not None else "", ref_columns)


# -- table options -----------------------------------------------------------------------------
_OPTION_FIELDS = {
    "ENGINE": "engine", "TYPE": "engine", "ROW_FORMAT": "row_format", "KEY_BLOCK_SIZE": "key_block_size",
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


def _read_option_pairs(c: _Cursor, *, stop_at_select: bool) -> tuple[list[tuple[str, str | None]], bool]:
    pairs: list[tuple[str, str | None]] = []
    while not c.done:
        if c.accept_type(TokenType.COMMA):
            continue
        word = c.word()
        if c.at("PARTITION", "BY"):
            pairs.append(("PARTITION", _partition_text(c)))
            continue
        if stop_at_select and (word in ("AS", "SELECT", "WITH", "IGNORE", "REPLACE") or c.at_type(TokenType.L_PAREN)):
            c.skip_rest()
            return pairs, True
        c.accept("DEFAULT")
        if c.accept("CHARACTER", "SET") or c.accept("CHARSET"):
            key = "CHARSET"
        elif c.accept("DATA", "DIRECTORY"):
            key = "DATA DIRECTORY"
        elif c.accept("INDEX", "DIRECTORY"):
            key = "INDEX DIRECTORY"
        elif c.accept("WITH", "SYSTEM", "VERSIONING"):
            pairs.append(("WITH SYSTEM VERSIONING", None))
            continue
        elif c.accept("START", "TRANSACTION"):
            continue
        else:
            token = c.peek()
            if token is None or token.token_type in _PUNCTUATION or token.token_type == TokenType.STRING:
                c.fail("unexpected table option")
            key = c.name().upper()
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


_PARTITION_BY = re.compile(r"\b(?:SUB)?PARTITION\s+BY\s+(?:LINEAR\s+)?(?:RANGE|LIST|HASH|KEY)(?:\s+COLUMNS)?"
                           r"(?:\s+ALGORITHM\s*=\s*\d+)?\s*\(", re.IGNORECASE)
_PARTITION_NAME = re.compile(r"`((?:[^`]|``)+)`|([A-Za-z_$][\w$]*)(\s*\()?")


def partition_names(text: str) -> tuple[str, ...]:
    """The identifiers inside the PARTITION BY and SUBPARTITION BY expressions of a partitioning
    clause, leaving out function names (`YEAR(d)` gives `d`)."""
    found: list[str] = []
    for match in _PARTITION_BY.finditer(text):
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        for ident in _PARTITION_NAME.finditer(text[match.end() : end - 1]):
            name = (ident.group(1) or "").replace("``", "`") or ident.group(2)
            if ident.group(3) is None and name not in found:
                found.append(name)
    return tuple(found)


def apply_options(options: TableOptions, pairs: list[tuple[str, str | None]] | tuple[tuple[str, str | None], ...]) -> None:
    """Set table options from (KEY, value) pairs as read from DDL."""
    for key, value in pairs:
        field = _OPTION_FIELDS.get(key)
        if key == "PARTITION":
            options.partitioning = value
            options.partition_names = partition_names(value or "")
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
    c.accept_if_exists()
    name = c.name()
    if c.accept("USING"):
        c.advance()
    c.expect("ON")
    table = c.qualified()
    parts = _key_parts(c)
    invisible = _index_options_invisible(c)
    return ops.CreateIndex(table, Index(name, kind, parts, invisible))


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


def _parse_alter(c: _Cursor) -> ops.Operation:
    c.expect("ALTER")
    c.accept("ONLINE") or c.accept("OFFLINE")
    c.accept("IGNORE")
    word = c.word()
    if word in ("DATABASE", "SCHEMA", "VIEW", "TABLESPACE", "INSTANCE") or word in _SKIP_OBJECTS or word.startswith("DEFINER"):
        return ops.Skipped(f"ALTER {word}")
    if word == "ALGORITHM" or word == "SQL":
        return ops.Skipped("ALTER VIEW")
    c.expect("TABLE")
    c.accept_if_exists()
    name = c.qualified()
    if c.accept("WAIT"):
        c.advance()
    c.accept("NOWAIT")
    actions: list[ops.AlterAction] = []
    rest = c.tokens[c.i :]
    for element in _split_top_level(rest):
        actions.extend(_alter_action(c, c.sub(element)))
    return ops.AlterTable(name, tuple(actions))


def _alter_action(parent: _Cursor, c: _Cursor) -> list[ops.AlterAction]:
    word = c.word()
    if word == "ADD":
        c.advance()
        if c.word() in _KEY_WORDS and not (c.word() == "CHECK" and False):
            body = TableBody()
            _read_key(c, body)
            return [ops.AddIndex(i) for i in body.indexes] + [ops.AddForeignKey(f) for f in body.foreign_keys]
        if c.word() == "PARTITION":
            return []
        c.accept("COLUMN")
        c.accept_if_exists()
        if c.at_type(TokenType.L_PAREN):
            elements = _split_top_level(c.group())
        else:
            elements = [_without_position(c.tokens[c.i :])]
        if not elements or not elements[0]:
            c.fail("expected a name")
        body = TableBody()
        _read_elements(parent, elements, body)
        actions: list[ops.AlterAction] = [ops.AddColumn(col) for col in body.columns.values()]
        actions += [ops.AddIndex(i) for i in body.indexes] + [ops.AddForeignKey(f) for f in body.foreign_keys]
        return actions
    if word == "DROP":
        c.advance()
        if c.accept("PRIMARY", "KEY"):
            return [ops.DropIndex("PRIMARY")]
        if c.accept("INDEX") or c.accept("KEY"):
            c.accept_if_exists()
            return [ops.DropIndex(c.name())]
        if c.accept("FOREIGN", "KEY"):
            c.accept_if_exists()
            return [ops.DropForeignKey(c.name())]
        if c.accept("CONSTRAINT"):
            c.accept_if_exists()
            return [ops.DropConstraint(c.name())]
        if c.word() in ("CHECK", "PARTITION", "PERIOD", "SYSTEM"):
            return []
        c.accept("COLUMN")
        c.accept_if_exists()
        return [ops.DropColumn(c.name())]
    if word in ("MODIFY", "CHANGE"):
        c.advance()
        c.accept("COLUMN")
        c.accept_if_exists()
        old_name = None
        if word == "CHANGE":
            old_name = c.name()
        definition = _without_position(c.tokens[c.i :])
        if not definition:
            c.fail("expected a column definition")
        body = TableBody()
        _read_elements(parent, [definition], body)
        column = next(iter(body.columns.values()))
        actions = [ops.ChangeColumn(old_name or column.name, column)]
        return actions + [ops.AddIndex(i) for i in body.indexes] + [ops.AddForeignKey(f) for f in body.foreign_keys]
    if word == "RENAME":
        c.advance()
        if c.accept("COLUMN"):
            old = c.name()
            c.expect("TO")
            return [ops.RenameColumn(old, c.name())]
        if c.accept("INDEX") or c.accept("KEY"):
            old = c.name()
            c.expect("TO")
            return [ops.RenameIndex(old, c.name())]
        c.accept("TO") or c.accept("AS")
        return [ops.RenameTo(c.qualified())]
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


def _without_position(tokens: list[Token]) -> list[Token]:
    """A column definition without a trailing FIRST / AFTER col."""
    if len(tokens) >= 2 and tokens[-2].text.upper() == "AFTER" and tokens[-2].token_type not in _UNQUOTED:
        return tokens[:-2]
    if tokens and tokens[-1].text.upper() == "FIRST" and tokens[-1].token_type not in _UNQUOTED:
        return tokens[:-1]
    return tokens


# --------------------------------------------------------------------------------------------
# DROP, RENAME
# --------------------------------------------------------------------------------------------
def _parse_drop(c: _Cursor) -> ops.Operation:
    c.expect("DROP")
    temporary = c.accept("TEMPORARY")
    word = c.word()
    if word == "TABLE" or word == "TABLES":
        c.advance()
        c.accept_if_exists()
        names = [c.sub(element).qualified() for element in _split_top_level(c.tokens[c.i :])
                 if element[0].text.upper() not in ("RESTRICT", "CASCADE")]
        return ops.DropTable(tuple(names), temporary)
    if word == "INDEX":
        c.advance()
        c.accept("ONLINE") or c.accept("OFFLINE")
        c.accept_if_exists()
        name = c.name()
        c.expect("ON")
        return ops.DropIndexStatement(c.qualified(), name)
    if word in ("DATABASE", "SCHEMA"):
        c.advance()
        c.accept_if_exists()
        return ops.SchemaStatement("drop", c.name())
    if word == "TABLESPACE" or (word == "UNDO" and c.word(1) == "TABLESPACE"):
        c.accept("UNDO")
        c.advance()
        return ops.DropTablespace(c.name())
    if word in _SKIP_OBJECTS or word in ("VIEW", "COMPRESSION_DICTIONARY"):
        return ops.Skipped(f"DROP {word}")
    c.fail("unsupported DROP statement")
    raise AssertionError


def _parse_rename(c: _Cursor) -> ops.Operation:
    c.expect("RENAME")
    if c.word() == "USER":
        return ops.Skipped("RENAME USER")
    c.accept("TABLE") or c.accept("TABLES")
    pairs: list[tuple[ops.Name, ops.Name]] = []
    for element in _split_top_level(c.tokens[c.i :]):
        part = c.sub(element)
        old = part.qualified()
        part.expect("TO")
        pairs.append((old, part.qualified()))
    return ops.RenameTable(tuple(pairs))
