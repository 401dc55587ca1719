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

from sqlglot.tokens import TokenType

from linter.parse import ops
from linter.parse.alter import KEYS_ONLY, parse_alter
from linter.parse.columns import STAND_IN_TYPES
from linter.parse.create import database_options, parse_create
from linter.parse.options import OPTION_FIELDS, online_clause
from linter.parse.plain import COLUMN, COLUMN_GROUPS, plain_create_table
from linter.parse.tokens import (
    ParseFailure,
    Cursor,
    DDL_GLUE_WORDS,
    SKIP_OBJECTS,
    TOO_DEEP,
    split_top_level,
    tokenize,
)

# sqlglot logs a warning when it falls back to an opaque Command; we detect that ourselves and
# report a diagnostic, so its log line would only be noise on stderr.
logging.getLogger("sqlglot").setLevel(logging.ERROR)


# Statements that are not schema DDL, by their first word: recognised and skipped on purpose.
SKIP_FIRST_WORDS = frozenset(
    """INSERT REPLACE UPDATE DELETE SET LOCK UNLOCK GRANT REVOKE SELECT COMMIT BEGIN START
    ROLLBACK SAVEPOINT RELEASE SOURCE FLUSH ANALYZE OPTIMIZE REPAIR CHECK CHECKSUM TRUNCATE LOAD
    SHOW DESCRIBE DESC EXPLAIN DO PREPARE DEALLOCATE HANDLER INSTALL UNINSTALL RESET PURGE
    CHANGE STOP KILL SHUTDOWN BINLOG CACHE XA WITH VALUES TABLE HELP SIGNAL RESIGNAL DECLARE IF
    WHILE REPEAT LOOP LEAVE ITERATE RETURN CLOSE OPEN FETCH PRINT GO BACKUP RESTORE IMPORT""".split()
)
STAND_IN_TYPES.update({"INET4": (TokenType.TEXT, "TEXT"), "INET6": (TokenType.TEXT, "TEXT")})
# integer synonyms sqlglot reads as names (INT3) or not at all (MIDDLEINT)
STAND_IN_TYPES.update({"INT3": (TokenType.MEDIUMINT, "MEDIUMINT"), "MIDDLEINT": (TokenType.MEDIUMINT, "MEDIUMINT"),
                        "INT1": (TokenType.TINYINT, "TINYINT"), "INT2": (TokenType.SMALLINT, "SMALLINT"),
                        "INT4": (TokenType.INT, "INT"), "INT8": (TokenType.BIGINT, "BIGINT")})


_FIRST_WORD = re.compile(r"[A-Za-z_]+")


def parse_statement(text: str) -> ops.Operation:
    """The operation one statement performs. Raises ParseFailure for DDL it cannot understand,
    and for nesting deeper than sqlglot's recursive parser and SQL generator go (never RecursionError)."""
    try:
        return _parse_statement(text)
    except RecursionError:
        raise ParseFailure(TOO_DEEP) from None


# -- statements whose effect shows when they run ------------------------------------------------
#: statements that run SQL the text does not hold: a procedure, a prepared statement (ops.Dynamic)
_DYNAMIC_WORDS = frozenset({"EXECUTE", "CALL"})
#: what builds dynamic SQL: SET of a user variable, PREPARE, DEALLOCATE (skipped by their first word else)
SESSION_WORDS = frozenset({"SET", "PREPARE", "DEALLOCATE"})
#: `SET @v` (not `SET @@sysvar`, `SET NAMES`, `SET sql_mode`): a user variable dynamic SQL may read
_user_variable = re.compile(r"SET[ \t\r\n]+@(?!@)", re.I).match
_SET_VALUE = r"(?:@@?[A-Za-z0-9_.]+|'[^'\\\n;]*'|[A-Za-z0-9_.+-]+)"
_SET_ITEM = (rf"(?:@[A-Za-z0-9_]+[ \t]*=[ \t]*@@[A-Za-z0-9_.]+|(?:@@)?[A-Za-z_][A-Za-z0-9_.]*[ \t]*=[ \t]*{_SET_VALUE}"
             r"|NAMES[ \t]+[A-Za-z0-9_']+(?:[ \t]+COLLATE[ \t]+[A-Za-z0-9_']+)?)")
#: a SET that gives a user variable nothing but a system variable's value (mysqldump's `SET
#: @saved_cs_client = @@character_set_client`, `SET NAMES utf8mb4`, `SET FOREIGN_KEY_CHECKS=0`):
#: no dynamic SQL is built from it: skipped (and the splitter may skip it on a dump's fast lane)
PLAIN_SET = rf"SET[ \t]+{_SET_ITEM}(?:[ \t]*,[ \t]*{_SET_ITEM})*"
_plain_set = re.compile(PLAIN_SET).fullmatch


def dynamic_statement(text: str, word: str) -> ops.Dynamic | None:
    """The `ops.Dynamic` of a statement starting with `word` (upper case), or None."""
    if word in _DYNAMIC_WORDS:
        if word == "EXECUTE" and re.match(r"EXECUTE[ \t\r\n]+IMMEDIATE(?![A-Za-z0-9_$])", text, re.I):
            return ops.Dynamic("EXECUTE IMMEDIATE", text)
        return ops.Dynamic(word, text)
    if word in SESSION_WORDS and (word != "SET" or _user_variable(text) and not _plain_set(text)):
        if word == "SET":
            from linter.parse.routines import set_refusal  # (sqlglot's expressions: only for SET @v)

            why = set_refusal(text)
            if why is not None:
                raise ParseFailure(why, refused=True)
        return ops.Dynamic(word, text)
    return None


_SKIPPED_GLUE_WORDS = frozenset({"CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE"})
#: in a DDL statement, a line may not start with these either (`DROP TABLE t` then `FLUSH TABLES`
#: on the next line, or a DELIMITER line the mariadb client sends as part of the statement): SET
#: only before `@` or a session variable (`ALTER COLUMN c` then `SET DEFAULT 1` is one action), USE
#: only before a name (`USE INDEX` is a hint), START only before TRANSACTION
_AFTER_DDL_GLUE_WORDS = DDL_GLUE_WORDS | {"DO", "FLUSH", "COMMIT", "DELIMITER", "START", "USE", "SET", "EXECUTE",
                                           "PREPARE", "DEALLOCATE", "CALL", "BEGIN"}
#: after an ALTER TABLE, DROP TABLE or RENAME TABLE (not a CREATE ... SELECT, a view or an INSERT),
#: a line may not start with SELECT either
_AFTER_TABLE_CHANGE_GLUE_WORDS = _AFTER_DDL_GLUE_WORDS | {"SELECT"}
#: the skipped statements whose lines `glued_in_packet` reads (_AFTER_DDL_GLUE_WORDS, not SELECT:
#: `INSERT INTO t` then `SELECT ...` is one statement): those that hold no other statement (not
#: CREATE TRIGGER / PROCEDURE, whose bodies are statements)
_SIMPLE_SKIPPED_WORDS = frozenset({"SET", "DO", "INSERT", "REPLACE", "UPDATE", "DELETE", "LOCK", "UNLOCK", "COMMIT",
                                   "ROLLBACK", "START", "FLUSH", "GRANT", "REVOKE", "SELECT", "ANALYZE", "OPTIMIZE"})
_NO_SELECT_OPS = (ops.AlterTable, ops.DropTable, ops.RenameTable, ops.DropIndexStatement)
_GLUE_FOLLOWING = {"START": frozenset({"TRANSACTION"}),
                   # (a column may be named begin: `begin DATETIME,` on a line of a CREATE TABLE)
                   "BEGIN": frozenset({"", "WORK", "NOT", "CREATE", "ALTER", "DROP", "RENAME", "INSERT", "UPDATE", "DELETE",
                                       "SET", "SELECT", "DECLARE", "IF", "CALL", "COMMIT"}),
                   "SET": frozenset({"NAMES", "SESSION", "GLOBAL", "LOCAL", "SQL_MODE", "FOREIGN_KEY_CHECKS",
                                     "UNIQUE_CHECKS", "AUTOCOMMIT", "TIME_ZONE", "CHARACTER_SET_CLIENT"})}
_GLUE_NOT_FOLLOWING = {"USE": frozenset({"INDEX", "KEY"})}
#: in an ALTER TABLE, a line may start an action with DROP, ALTER or RENAME: those count only
#: when followed by one of these (and TRUNCATE only when not followed by PARTITION)
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
    r"|DEALLOCATE|CALL|SELECT|BEGIN)(?![A-Za-z0-9_$])",
    re.I).search
#: at a line's start: the word, and the word after it (after TEMPORARY, ONLINE, OFFLINE, IGNORE: `ALTER
#: ONLINE TABLE` starts a statement where `ALTER online SET DEFAULT 1` alters a column; `@` starts a variable)
#: between those two words: white space and comments (`ALTER -- note` then `TABLE t` on the next
#: line is one statement to the server); each part possessive, so nothing is read twice
_GLUE_GAP = r"(?:[ \t\r\n]++|/\*[^*]*+(?:\*(?!/)[^*]*+)*+\*/|(?:--(?=[ \t\r\n])|\#)[^\n]*+)++"
_glue_word = re.compile(
    r"[ \t]*+(CREATE|ALTER|DROP|RENAME|TRUNCATE|INSERT|DO|FLUSH|COMMIT|DELIMITER|START|USE|SET|EXECUTE|PREPARE"
    r"|DEALLOCATE|CALL|SELECT|BEGIN)(?![A-Za-z0-9_$])"
    rf"(?:{_GLUE_GAP}(?:(?:TEMPORARY|ONLINE|OFFLINE|IGNORE){_GLUE_GAP})*+([A-Za-z_@]++))?", re.I
).match
#: where the scan must look: a line start, a quote, a comment's first character
_glue_stop = re.compile(r"[\n'\"`#/-]").search
#: a whole quoted string or name from its opening quote (possessive: each character read once)
_glue_quoted = {
    "'": re.compile(r"'(?:[^'\\]++|\\.|'')*+'", re.S).match,
    '"': re.compile(r'"(?:[^"\\]++|\\.|"")*+"', re.S).match,
    "`": re.compile(r"`(?:[^`]++|``)*+`").match,
}


def glued_in_packet(text: str) -> ParseFailure | None:
    """For a statement innolint skips (SET, DO, INSERT ...) in a packet of several (a DELIMITER
    block): a line of it that starts another statement, DDL or not (`SET @a := 1` then `BEGIN`,
    `DO 1` then `START TRANSACTION`, as when a client command changed the delimiter while it was
    open). The server refuses the text and runs nothing after it in the packet; None when no line
    does. Only asked of statements in such packets: a lone skipped statement loses no DDL."""
    first_word = _FIRST_WORD.match(text)
    word = first_word.group().upper() if first_word is not None else ""
    return skipped_glue(text, word, _AFTER_DDL_GLUE_WORDS) if word in _SIMPLE_SKIPPED_WORDS else None


def may_fail(text: str) -> str | None:
    """For a statement innolint skips, in a packet of several: its first word when the server may
    refuse it for what innolint does not follow (rows, privileges, a table that exists outside
    the input, or does not exist at all: `INSERT INTO missing ...` is 1146), and then runs nothing
    after it in the packet; None for one that does not fail so (SET, COMMIT, DO 1, a SELECT that
    reads no table ...)."""
    first_word = _FIRST_WORD.match(text)
    word = first_word.group().upper() if first_word is not None else ""
    if word in _WRITES_ROWS or (word == "SELECT" and _reads_a_table(text)):
        return word
    return None


#: skipped statements that touch rows, tables or privileges, and so may fail where innolint cannot tell
_WRITES_ROWS = frozenset({"INSERT", "REPLACE", "UPDATE", "DELETE", "LOAD", "LOCK", "GRANT", "REVOKE", "HANDLER"})
_QUOTE_OR_FROM = re.compile(r"['\"`]|\bFROM(?![\w$])", re.I)
_DUAL = re.compile(r"[ \t\r\n]*DUAL\b(?![ \t\r\n]*,)", re.I)


def _reads_a_table(text: str) -> bool:
    """Whether a SELECT has a FROM (outside quotes) that names something else than DUAL: one pass,
    each quoted part skipped to its closing quote (a doubled quote reads as two quoted parts)."""
    at = 0
    while (found := _QUOTE_OR_FROM.search(text, at)) is not None:
        if found.group() in ("'", '"', "`"):
            end = text.find(found.group(), found.end())
            if end < 0:
                return False
            at = end + 1
        elif _DUAL.match(text, found.end()) is None:
            return True
        else:
            at = found.end()
    return False


#: where the privileges of a GRANT or REVOKE end
_privileges_end = re.compile(r"[ \t\r\n)]ON[ \t\r\n]", re.I).search


def skipped_glue(text: str, word: str, words: frozenset[str] = _SKIPPED_GLUE_WORDS) -> ParseFailure | None:
    """A line of a skipped statement (first word `word`) that starts another one (`words`). GRANT
    and REVOKE name privileges after statements (`GRANT SELECT,` then `  CREATE, ALTER ON ...`):
    only what follows their ON is looked at."""
    if "\n" not in text or word in _COMPOUND_WORDS:
        return None
    start = 0
    if word in ("GRANT", "REVOKE"):
        on = _privileges_end(text)
        if on is None:
            return None
        start = on.end()
    glued = glued_statement(text[start:] if start else text, words)
    if glued is not None and start:
        glued.line_offset += text.count("\n", 0, start)
    return glued


def glued_statement(text: str, words: frozenset[str] = DDL_GLUE_WORDS, *, alter: bool = False,
                    query: bool = False) -> ParseFailure | None:
    """The failure to report when a line of `text`, outside quotes and comments, starts another
    statement (one of `words`): a `;` was left out before it. `query`: the text is a CREATE TABLE
    ... SELECT, whose query a SELECT line may start, but not a second one (`_second_query`). Linear:
    the scan steps over each quote and comment once, and runs at all only when a cheap search
    finds such a line."""
    if _glue_candidate(text) is None:
        return None
    pos = 0
    selected = False  # (query) a SELECT read in the code so far
    while True:
        m = _glue_stop(text, pos)
        if m is None:
            return None
        at = m.start()
        c = text[at]
        if query and not selected:
            selected = _select_word(text, pos, at) is not None
        if c == "\n":
            pos = at + 1
            w = _glue_word(text, pos)
            if w is not None and query and w.group(1).upper() == "SELECT":
                if selected and _second_query(text, at):
                    return ParseFailure("a `;` seems to be missing before `SELECT` here: the server reads this text as "
                                        "one statement and refuses it (syntax error), so none of it runs",
                                        text.count("\n", 0, pos), refused=True)
                selected = True
                continue
            if w is not None:
                word, following = w.group(1).upper(), (w.group(2) or "").upper()
                if word in _GLUE_FOLLOWING and not following.startswith("@") and following not in _GLUE_FOLLOWING[word]:
                    continue
                if following in _GLUE_NOT_FOLLOWING.get(word, ()):
                    continue
                if word in words and not (alter and (word in ("DROP", "ALTER", "RENAME") and following not in _STATEMENT_OBJECTS
                                                     or word == "TRUNCATE" and following == "PARTITION")):
                    start = (word + " " + following).strip() if following in _STATEMENT_OBJECTS or word in ("CREATE", "INSERT") else word
                    return ParseFailure(
                        f"a `;` seems to be missing before `{start}` here: the server reads this text as one statement "
                        "and refuses it (syntax error), so none of it runs", text.count("\n", 0, pos), refused=True)
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


#: a SELECT in code (the word alone)
_select_word = re.compile(r"(?<![A-Za-z0-9_$])SELECT(?![A-Za-z0-9_$])", re.I).search
#: the words after which a query goes on with a SELECT (a UNION's next one, a subquery)
_QUERY_GOES_ON = frozenset({"UNION", "ALL", "DISTINCT", "INTERSECT", "EXCEPT", "MINUS", "AS", "IN", "EXISTS", "ANY",
                            "SOME", "SELECT", "FROM", "JOIN", "WHERE", "AND", "OR", "NOT", "ON", "HAVING", "THEN",
                            "ELSE", "WHEN", "RETURN", "IGNORE", "REPLACE", "TABLE"})
#: the most characters looked at before a SELECT line (a longer line of blanks: taken as going on)
_LOOK_BACK = 200


def _second_query(text: str, newline: int) -> bool:
    """Whether the SELECT that starts the line after `newline` begins a second query: what ends
    the line before it closes one (a name, a number, a string, a `)`), and that line holds no
    comment that could hide what really ends it (then it is taken as going on: no refusal)."""
    start = text.rfind("\n", max(0, newline - _LOOK_BACK), newline) + 1
    line = text[start:newline]
    if start == 0 and newline > _LOOK_BACK or "--" in line or "#" in line or "*/" in line:
        return False
    line = line.rstrip()
    if not line:
        return False
    last = line[-1]
    if last in ")'\"`":
        return True
    if not (last.isalnum() or last in "_$"):
        return False  # `(`, `,`, `=` ...: the query goes on
    word = re.split(r"[^A-Za-z0-9_$]", line)[-1].upper()
    return word not in _QUERY_GOES_ON


def _parse_statement(text: str) -> ops.Operation:
    first_word = _FIRST_WORD.match(text)
    word = first_word.group().upper() if first_word is not None else ""
    if word in _DYNAMIC_WORDS:
        return dynamic_statement(text, word)  # type: ignore[return-value]
    if word in SKIP_FIRST_WORDS:
        # not DDL: skipped without tokenizing (a dump's INSERT can be megabytes long), unless a
        # line in it starts a DDL statement: then a `;` was left out and the server refuses both
        glued = skipped_glue(text, word)
        if glued is not None:
            raise glued
        if word in SESSION_WORDS:
            dynamic = dynamic_statement(text, word)
            if dynamic is not None:
                return dynamic
        return ops.Skipped(word)
    if "\n" not in text or word not in DDL_GLUE_WORDS:
        return _parse_ddl(text, word)  # (a statement that starts with no known word is not two glued ones)
    try:
        op = _parse_ddl(text, word)
    except ParseFailure:
        glued = glued_statement(text, _AFTER_DDL_GLUE_WORDS, alter=word == "ALTER")
        if glued is not None:
            raise glued from None  # the reason the statement does not read: say that one
        raise
    if not (op.__class__ is ops.CreateProcedure
            or op.__class__ is ops.Skipped and op.kind.rpartition(" ")[2] in _COMPOUND_OBJECTS):  # type: ignore[attr-defined]
        # a SELECT line goes on a CREATE TABLE / VIEW / INSERT, never on these
        words = _AFTER_TABLE_CHANGE_GLUE_WORDS if op.__class__ in _NO_SELECT_OPS else _AFTER_DDL_GLUE_WORDS
        glued = glued_statement(text, words, alter=word == "ALTER",
                                query=op.__class__ is ops.CreateTable and op.as_select)  # type: ignore[attr-defined]
        if glued is not None:
            raise glued
    return op


def _parse_ddl(text: str, word: str) -> ops.Operation:
    simple = _simple_statement(text)
    if simple is not None:
        return simple
    if word == "CREATE":  # most CREATE TABLEs are plain forms: read from the text, never tokenized
        plain = plain_create_table(text)
        if plain is not None:
            return plain
    tokens = tokenize(text)
    if not tokens:
        return ops.Skipped("empty")
    cursor = Cursor(tokens, text)
    first = cursor.word()
    if first == "CREATE":
        return parse_create(cursor)
    if first == "ALTER":
        return parse_alter(cursor)
    if first == "DROP":
        return _parse_drop(cursor)
    if first == "RENAME":
        return _parse_rename(cursor)
    if first == "USE":
        cursor.advance()
        name = cursor.name()
        if not cursor.done:  # the server reads one name: `USE d2 DROP VIEW v` is a syntax error
            cursor.fail("unexpected text after USE's database name: the server refuses the statement (syntax error, "
                        "1064) and stays in its database", refused=bool(cursor.word()))
        return ops.SchemaStatement("use", name)
    if first in SKIP_FIRST_WORDS or tokens[0].token_type in (TokenType.L_PAREN, TokenType.BACKSLASH):
        return ops.Skipped(first or tokens[0].text)
    if first == "DELIMITER":  # (the splitter reads the client's own DELIMITER lines)
        raise ParseFailure("a DELIMITER line the client sends to the server (the mariadb client does so while the text "
                           "before it is not sent: a statement left open, an executable comment it keeps): the server "
                           "refuses it (syntax error, 1064)", refused=True)
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
        return ops.SchemaStatement("create", database, *database_options(tail.split()))
    if drop is not None:
        names = tuple(ops.Name(schema or None, name) for schema, name in _drop_names(drop))
        return ops.DropTable(names, False, if_exists is not None)
    return KEYS_ONLY


# --------------------------------------------------------------------------------------------
# A cursor over tokens
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# CREATE ...
# --------------------------------------------------------------------------------------------


assert tuple(COLUMN.groupindex) == COLUMN_GROUPS  # the order `_plain_column` unpacks them in


def option_field(key: str) -> str:
    """The TableOptions field a DDL option key sets ("TYPE" -> "engine"), else the key itself."""
    return OPTION_FIELDS.get(key, key)


# --------------------------------------------------------------------------------------------
# CREATE INDEX, CREATE TABLESPACE
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# ALTER TABLE
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# DROP, RENAME
# --------------------------------------------------------------------------------------------
def _parse_drop(c: Cursor) -> ops.Operation:
    c.expect("DROP")
    temporary = c.accept("TEMPORARY")
    word = c.word()
    if word == "TABLE" or word == "TABLES":
        c.advance()
        if_exists = c.accept_if_exists()
        names = []
        for element in split_top_level(c.tokens[c.i :]):
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
            online_clause(c, clauses)
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
    if word == "PROCEDURE":
        c.advance()
        if_exists = c.accept_if_exists()
        return ops.DropProcedure(c.qualified(), if_exists)
    if word == "PREPARE":  # DROP PREPARE st: DEALLOCATE PREPARE's synonym
        return ops.Dynamic("DEALLOCATE", c.text)
    if word in SKIP_OBJECTS or word == "COMPRESSION_DICTIONARY":
        return ops.Skipped(f"DROP {word}")
    c.fail("unsupported DROP statement")
    raise AssertionError


def _parse_rename(c: Cursor) -> ops.Operation:
    c.expect("RENAME")
    if c.word() == "USER":
        return ops.Skipped("RENAME USER")
    c.accept("TABLE") or c.accept("TABLES")
    if_exists = c.accept_if_exists()
    pairs: list[tuple[ops.Name, ops.Name]] = []
    for element in split_top_level(c.tokens[c.i :]):
        part = c.sub(element)
        old = part.qualified()
        if part.accept("WAIT"):
            part.advance()
        part.accept("NOWAIT")
        part.expect("TO")
        pairs.append((old, part.qualified()))
        part.expect_end("RENAME TABLE ... TO name")
    return ops.RenameTable(tuple(pairs), if_exists)
