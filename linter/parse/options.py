"""Table options after the column list (`ENGINE=`, `TABLESPACE ts` without `=`, `COMPRESSION=`,
any `KEY=value`) and the partitioning clause, kept as text (`partition_names` reads its
partitions' names); `apply_options` sets them on a TableOptions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING
import re
from sqlglot.tokens import TokenType

from linter.parse.elements import TableOptions
from linter.parse.charsets import charset_of_collation, normalize_charset
from linter.parse.tokens import ParseFailure, PUNCTUATION

if TYPE_CHECKING:
    from linter.parse.tokens import Cursor


# -- table options -----------------------------------------------------------------------------
OPTION_FIELDS = {
    # TYPE= is not ENGINE=: the server refuses it (1064); kept in `other` for the replay to refuse
    "ENGINE": "engine", "ROW_FORMAT": "row_format", "KEY_BLOCK_SIZE": "key_block_size",
    "COMPRESSION": "compression", "PAGE_COMPRESSED": "page_compressed", "TABLESPACE": "tablespace",
    "CHARSET": "charset", "CHARACTER SET": "charset", "COLLATE": "collation", "COMMENT": "comment",
    "AUTO_INCREMENT": "auto_increment",
}


def read_table_options(c: Cursor, *, stop_at_select: bool) -> tuple[TableOptions, bool]:
    """Table options up to the end (or to AS SELECT): (options, whether a SELECT follows)."""
    pairs, as_select = read_option_pairs(c, stop_at_select=stop_at_select)
    conflict = charset_conflict(pairs)
    if conflict is not None:
        raise ParseFailure(conflict, refused=True)
    options = TableOptions()
    apply_options(options, pairs)
    return options, as_select


def charset_conflict(pairs: Iterable[tuple[str, str | None]]) -> str | None:
    """Why the server refuses the character sets and collations one statement gives a table (or
    one CONVERT TO gives its columns), or None: two different character sets (error 1302), a
    collation of another character set than the one given (error 1253). MariaDB 10.11 and MySQL
    refuse both while reading the statement; `DEFAULT` stands for the database's."""
    charsets = {normalize_charset(value) for key, value in pairs if key == "CHARSET" and value}
    if len(charsets) > 1:
        first, second = sorted(charsets)[:2]
        return (f"conflicting declarations: CHARACTER SET {first} and CHARACTER SET {second} (error 1302); the "
                "server refuses the statement")
    charset = next(iter(charsets), None)
    for key, value in pairs:
        if key == "COLLATE" and value and charset not in (None, "default"):
            owner = charset_of_collation(value)
            if owner is not None and owner != charset:
                return (f"COLLATION {value} is not valid for CHARACTER SET {charset} (error 1253); the server refuses "
                        "the statement")
    return None


#: the table options the server's grammar names (MariaDB 10.11 and MySQL 8.x), which may go
#: without `=`; any other word is an engine-defined option (MariaDB), `NAME = value` only. A word
#: that is neither, such as the first word of a statement whose `;` was left out before it (`FLUSH
#: TABLES`, `USE d2`, `DO 1`) or a client command the client sent as text (`DELIMITER //`), makes
#: the server refuse the statement (1064, checked on MariaDB 10.11 by tests/test_parse_refusals.py).
TABLE_OPTION_NAMES = frozenset(
    "ENGINE TYPE MAX_ROWS MIN_ROWS AVG_ROW_LENGTH PASSWORD COMMENT AUTO_INCREMENT PACK_KEYS STATS_AUTO_RECALC "
    "STATS_PERSISTENT STATS_SAMPLE_PAGES CHECKSUM TABLE_CHECKSUM PAGE_CHECKSUM DELAY_KEY_WRITE ROW_FORMAT UNION "
    "CHARSET COLLATE INSERT_METHOD TABLESPACE STORAGE CONNECTION KEY_BLOCK_SIZE TRANSACTIONAL SEQUENCE "
    "COMPRESSION ENCRYPTION ENGINE_ATTRIBUTE SECONDARY_ENGINE SECONDARY_ENGINE_ATTRIBUTE AUTOEXTEND_SIZE".split())
_NOT_AN_OPTION = ("`{word}` is not a table option, and an option of the engine's needs `=`: a `;` seems to be "
                  "missing before it (the server reads the text as one statement and refuses it: syntax error, "
                  "1064), so none of it runs")


def read_option_pairs(c: Cursor, *, stop_at_select: bool) -> tuple[list[tuple[str, str | None]], bool]:
    pairs: list[tuple[str, str | None]] = []
    while not c.done:
        if c.accept_type(TokenType.COMMA):
            continue
        word = c.word()
        if c.at("PARTITION", "BY"):
            pairs.append(("PARTITION", partition_text(c)))
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
            if token is None or token.token_type in PUNCTUATION or token.token_type == TokenType.STRING:
                c.fail("unexpected table option")
            assert token is not None
            key = c.name().upper()
            if key not in TABLE_OPTION_NAMES and not c.at_type(TokenType.EQ):
                c.i -= 1
                if not (token.text[:1].isalpha() or token.text[:1] == "_"):
                    c.fail("unexpected text after the table options: the server refuses the statement (syntax error, "
                           "1064)", refused=True)
                raise ParseFailure(_NOT_AN_OPTION.format(word=token.text), c.line_offset(), refused=True)
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


def partition_text(c: Cursor) -> str:
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


_PARTITION_ENGINE = re.compile(r"\bENGINE\s*+=?\s*+[`'\"]?+(\w++)", re.IGNORECASE)


def apply_options(options: TableOptions, pairs: list[tuple[str, str | None]] | tuple[tuple[str, str | None], ...]) -> None:
    """Set table options from (KEY, value) pairs as read from DDL."""
    for key, value in pairs:
        field = OPTION_FIELDS.get(key)
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


def online_clause(c: Cursor, clauses: dict[str, str]) -> None:
    """`ALGORITHM [=] x` or `LOCK [=] x` (in ALTER TABLE, CREATE INDEX): the last of each wins."""
    key = c.word()
    c.advance()
    c.accept_type(TokenType.EQ)
    token = c.peek()
    if token is not None:
        clauses[key] = token.text.strip("`'\"").upper()
        c.advance()
