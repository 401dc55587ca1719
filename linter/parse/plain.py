"""The plain forms most CREATE TABLE statements are made of, read from the statement's text by
one regular expression per element (columns with a plain type and common attributes, keys,
foreign keys, `KEY=value` options), giving the same objects as the sqlglot path; anything else
falls back to it (`linter.parse.columns`)."""

from __future__ import annotations

import re
from sqlglot.tokens import Token, TokenType

from linter.parse import ops
from linter.parse.elements import Column, ForeignKey, Index, IndexColumn, IndexKind
from linter.parse.body import TableBody, without_redundant_generated_keys
from linter.parse.body import drop_whole_prefixes
from linter.parse.keys import name_keys, primary_columns_not_null
from linter.parse.options import charset_conflict, TABLE_OPTION_NAMES, apply_options
from linter.parse.tokens import KEY_WORDS, PARSER, TOKENIZER, TYPE_ALIASES, Places


# -- plain forms, read from the text -----------------------------------------------------------
# Most CREATE TABLE statements, mysqldump's and hand-written ones alike, are made of a few plain
# forms: a column with a plain type and the common attributes, PRIMARY/UNIQUE/plain keys and
# foreign keys on named columns, and `KEY=value` table options. Those are read here from its text,
# before it is tokenized at all, with one regular-expression match per element (walking their
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
    {word for keyword in TOKENIZER.KEYWORDS for word in keyword.split()} | KEY_WORDS
    | {word for constraint in PARSER.SCHEMA_UNNAMED_CONSTRAINTS for word in constraint.split()}
    | {"NATIONAL", "LONG", "UNSIGNED", "SIGNED", "BINARY", "ZEROFILL", "VISIBLE", "COMPRESSED", "COLUMN_FORMAT",
       "SRID", "STORAGE", "ENGINE_ATTRIBUTE", "SECONDARY_ENGINE_ATTRIBUTE", "WITH", "WITHOUT", "PERSISTENT"}
)
#: first words of the tokenizer's two-word keywords (`PRIMARY KEY`, `ORDER BY` ...): such a bare
#: word followed by the second one is one token
_PAIR_FIRST_WORDS = frozenset(keyword.split()[0] for keyword in TOKENIZER.KEYWORDS if " " in keyword)
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
    word: TYPE_ALIASES.get(word, word)
    for word in """TINYINT SMALLINT MEDIUMINT INT INTEGER BIGINT INT1 INT2 INT4 INT8 DECIMAL DEC NUMERIC FIXED FLOAT
    DOUBLE REAL FLOAT4 FLOAT8 BIT BOOL BOOLEAN CHAR CHARACTER NCHAR VARCHAR NVARCHAR BINARY VARBINARY TINYTEXT TEXT
    MEDIUMTEXT LONGTEXT TINYBLOB BLOB MEDIUMBLOB LONGBLOB DATE DATETIME TIME TIMESTAMP YEAR JSON ENUM SET""".split()
    if TOKENIZER.KEYWORDS.get(word) in _PLAIN_TYPE_TOKENS
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
COLUMN = _compile_once(
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
COLUMN_GROUPS = ("name", "type", "length", "scale", "values", "null", "default", "precision", "comment",
                  "auto_increment", "sign", "charset", "collation", "primary", "on_update", "binary", "zerofill",
                  "unique", "end")


_strings = re.compile(_STRING).findall


def _plain_column(m: re.Match[str]) -> tuple[Column, list[Index]] | None:
    """The column a `COLUMN` match defines and the keys it declares (PRIMARY KEY, UNIQUE), as
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


def plain_column_element(text: str, element: list[Token]) -> tuple[Column, list[Index]] | None:
    """The column one element of a body or ALTER defines, when it is of the plain form and no
    comment is attached to its tokens (sqlglot keeps comments in what it writes); else None."""
    for token in element:
        if token.comments:
            return None
    m = COLUMN.fullmatch(text, element[0].start, element[-1].end + 1)
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
    """The key a `_KEY` match defines, as `_read_key` reads it (unnamed: None, `name_keys`)."""
    constraint, primary, kind, name, parts = m.group("constraint", "primary", "kind", "name", "parts")
    columns = _index_columns(parts)
    written = m.group("using_after") or m.group("using")
    using = written.upper() if written else None
    if primary is not None:
        return Index("PRIMARY", "primary", columns, using=using)
    if name is not None:
        name = _unquote(name)
    elif constraint is not None:
        name = _unquote(constraint)
    return Index(name, _KEY_KINDS[kind.upper()] if kind is not None else "index", columns, using=using)


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


def plain_create_table(text: str) -> ops.CreateTable | None:
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
    pairs = plain_options(text, end)
    if pairs is None or charset_conflict(pairs) is not None:  # (the token path says why it is refused)
        return None
    apply_options(body.options, pairs)
    if_not_exists, schema, table = head.groups()
    name = ops.Name(_unquote(schema) if schema is not None else None, _unquote(table),
                    bare=schema is None and table[0] != "`")
    return ops.CreateTable(name, body, False, if_not_exists is not None, refused=refused)


#: the whitespace before an element (where its text starts)
_LEADING = re.compile(r"[ \t\r\n]*")


def _plain_body(text: str, pos: int) -> tuple[TableBody, int, str | None] | None:
    """The body of a CREATE TABLE from `pos` (after its `(`), the offset after its `)` and why the
    server refuses it (as `_read_elements` says), when every element is of a plain form; else None."""
    body = TableBody()
    columns = body.columns
    keys: list[Index] = []  # in the order written, those a column declares in its place
    refused = None
    end = ","
    places = Places(text)  # where each element starts (`Column.offset` ...)
    while end == ",":
        m = COLUMN.match(text, pos)
        if m is not None and (end := m.group("end")) is not None:
            read = _plain_column(m)
            if read is None:
                return None
            column, declared = read
            name_at = m.start("name")
            column.offset = offset = places.offset(name_at)
            column.bare = text[name_at] != "`"
            for index in declared:
                index.offset = offset
            key = column.name.lower()
            if key in columns and refused is None:
                refused = f"duplicate column name {column.name} (error 1060)"
            columns[key] = column
            if declared:  # PRIMARY KEY or UNIQUE (unnamed) on the column, in its place
                keys += declared
        else:
            m = _KEY.match(text, pos)
            if m is not None and (end := m.group("end")) is not None:
                index = _plain_key(m)
                index.offset = places.offset(_LEADING.match(text, pos).end())  # type: ignore[union-attr]
                keys.append(index)
            else:
                m = _FOREIGN_KEY.match(text, pos)
                if m is None or (end := m.group("end")) is None:
                    return None
                foreign_key = _plain_foreign_key(m)
                foreign_key.offset = offset = places.offset(_LEADING.match(text, pos).end())  # type: ignore[union-attr]
                body.foreign_keys.append(foreign_key)
                index_name = m.group("constraint") or m.group("name")  # as `_read_key` names it
                keys.append(Index(_unquote(index_name) if index_name is not None else None, "index",
                                  _index_columns(m.group("parts")), generated=True, offset=offset))
        pos = m.end()
    for column in columns.values():
        if column.auto_increment:
            column.nullable = False
    problem = name_keys(without_redundant_generated_keys(keys), body.indexes)
    drop_whole_prefixes(body.indexes, columns.get)
    primary_columns_not_null(body)
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


def plain_options(text: str, pos: int) -> list[tuple[str, str | None]] | None:
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
        if key is not None and m.group("eq") is None and key.upper() not in TABLE_OPTION_NAMES:
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
