"""Column definitions through sqlglot: attributes sqlglot rejects are taken out of the tokens
first and recorded on the column (`_strip_column`), stand-in types for spatial and INET types,
then sqlglot's parser builds the type, default and generated expression (`_column`)."""

from __future__ import annotations

from typing import TYPE_CHECKING
import re
from collections.abc import Sequence
from sqlglot import exp
from sqlglot.errors import ParseError
from sqlglot.tokens import Token, TokenType

from linter.parse.elements import Column, ForeignKey, Index, IndexColumn
from linter.parse.plain import plain_column_element
from linter.parse.tokens import (
    ParseFailure,
    GENERATOR,
    L_PAREN,
    PARSER,
    R_PAREN,
    STRING_FOR_NAME,
    TOKENIZER,
    TOO_DEEP,
    TYPE_ALIASES,
    UNQUOTED,
    first_line,
    head_word,
)

if TYPE_CHECKING:
    from linter.parse.tokens import Cursor


_SPATIAL_TYPES = frozenset(
    """GEOMETRY POINT LINESTRING POLYGON MULTIPOINT MULTILINESTRING MULTIPOLYGON
    GEOMETRYCOLLECTION GEOMCOLLECTION""".split()
)
# Types sqlglot does not know, and the type it is told instead (the model keeps the real name).
STAND_IN_TYPES = {name: (TokenType.GEOMETRY, "GEOMETRY") for name in _SPATIAL_TYPES}


#: types a CAST in a default may name that sqlglot does not know (the default keeps its own text)
_CAST_STAND_INS = frozenset({"INET4", "INET6", "UUID"})
#: MariaDB's data type schemas: `mariadb_schema.DATE` is DATE whatever the sql_mode, and
#: `oracle_schema.DATE` is Oracle's DATE, a DATETIME (MariaDB 10.11: tests/test_model_oracle.py)
_TYPE_SCHEMAS = {"MARIADB_SCHEMA": {}, "ORACLE_SCHEMA": {"DATE": "DATETIME"}}
#: a column of CHARACTER SET binary (or COLLATE binary) is of the binary type of its kind (the
#: server shows `varbinary(10)` for `VARCHAR(10) CHARACTER SET binary`)
_BINARY_TYPES = {"CHAR": "BINARY", "VARCHAR": "VARBINARY", "TINYTEXT": "TINYBLOB", "TEXT": "BLOB",
                 "MEDIUMTEXT": "MEDIUMBLOB", "LONGTEXT": "LONGBLOB"}


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


def _strip_column(c: Cursor, element: list[Token]) -> tuple[list[Token], _ColumnExtras]:
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
        if type_name == "LONG" and type_token.token_type not in UNQUOTED:
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
        if type_token.token_type in UNQUOTED:
            type_name = ""
        extras.type_name = type_name
        stand_in = STAND_IN_TYPES.get(type_name)
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
        if depth > 0 or token_type in UNQUOTED:
            if (depth > 0 and token.text.upper() in _CAST_STAND_INS and out and out[-1].text.upper() == "AS"
                    and token_type not in UNQUOTED):
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
_PAIRS = {tuple(k.split()): v for k, v in TOKENIZER.KEYWORDS.items() if k.count(" ") == 1}


def _joined_pairs(element: list[Token]) -> list[Token]:
    """The tokens of a column definition with keyword pairs split by a comment (`PRIMARY /* x */
    KEY`, which the server reads as PRIMARY KEY) made one token again, as sqlglot expects them."""
    if not any(token.comments for token in element):
        return element
    out: list[Token] = []
    for token in element:
        if out and token.token_type not in UNQUOTED and out[-1].token_type not in UNQUOTED:
            pair = _PAIRS.get((out[-1].text.upper(), token.text.upper()))
            if pair is not None:
                first = out[-1]
                out[-1] = Token(pair, f"{first.text} {token.text}", first.line, first.col, first.start, token.end)
                continue
        out.append(token)
    return out


def parse_columns(c: Cursor, elements: list[list[Token]]) -> list[tuple[Column, Sequence[Index | ForeignKey]]]:
    """Column definitions: those of a plain form read from their text (`plain_column_element`),
    the others through sqlglot, all of them in one parse."""
    if not elements:
        return []
    written = elements
    elements = [_unqualified(element) for element in elements]
    columns = _read_columns(c, elements)
    for element, original, (column, inline) in zip(elements, written, columns):
        if column.checks or any(isinstance(declared, ForeignKey) for declared in inline):
            column.mariadb_refuses = _mariadb_column_grammar(element)
        # where the definition starts in the statement, for the column and what it declares on itself
        name = element[0]
        column.offset = offset = c.offset_of(name)
        # backquoted names are IDENTIFIER tokens; a name after a period (`t.rank`) needs no quotes
        column.bare = name.token_type != TokenType.IDENTIFIER and element is original
        for declared in inline:
            declared.offset = offset
    return columns


#: what may follow REFERENCES t (...) in a column's definition on MariaDB: its own MATCH and ON
#: DELETE / ON UPDATE clauses
_REFERENCE_WORDS = frozenset({"MATCH", "FULL", "PARTIAL", "SIMPLE", "ON", "DELETE", "UPDATE", "RESTRICT", "CASCADE",
                              "SET", "NULL", "DEFAULT", "NO", "ACTION"})


def _mariadb_column_grammar(element: list[Token]) -> str | None:
    """Why MariaDB's grammar refuses a column's definition that MySQL 8.0.16+ takes, or None: its
    CHECK comes last, followed at most by one REFERENCES clause, which ends the definition, and
    takes no CONSTRAINT before it (MariaDB 10.11: `a INT CHECK (a > 0) NOT NULL`, `a INT CHECK
    (a > 0) CHECK (a < 9)`, `a INT REFERENCES t (b) COMMENT 'x'` and `a INT CONSTRAINT c CHECK
    (a > 0)` are syntax errors, 1064; tests/test_replay_refusals.py)."""
    top: list[Token] = []  # the words outside parentheses, after the name and the type
    depth = 0
    for token in element[2:]:
        kind = token.token_type
        depth += (kind == L_PAREN) - (kind == R_PAREN)
        if not depth and kind not in (L_PAREN, R_PAREN):
            top.append(token)
    words = [head_word(t) if t.token_type not in UNQUOTED else "" for t in top]
    state, named = "", 0
    for n, word in enumerate(words):
        if state == "references":  # the referenced table's name, qualified or not
            if named == 0 or top[n].token_type == TokenType.DOT or (n and top[n - 1].token_type == TokenType.DOT):
                named += 1
                continue
            if word not in _REFERENCE_WORDS:
                return f"`{top[n].text}` after a column's REFERENCES clause, which ends its definition on MariaDB"
        elif word == "CHECK":
            if state == "check":
                return "a second CHECK on one column (MariaDB takes one, last)"
            if "CONSTRAINT" in words[max(0, n - 2):n]:
                return "CONSTRAINT before a column's CHECK (MariaDB names only a table's CHECK)"
            state = "check"
        elif word == "REFERENCES":
            state, named = "references", 0
        elif state == "check":
            return f"`{top[n].text}` after a column's CHECK, which comes last on MariaDB (only REFERENCES may follow it)"
    return None


def _read_columns(c: Cursor, elements: list[list[Token]]) -> list[tuple[Column, Sequence[Index | ForeignKey]]]:
    """`parse_columns` of the unqualified elements."""
    for element in elements:
        if element and element[0].token_type == TokenType.STRING:  # a column's name as a string
            raise ParseFailure(STRING_FOR_NAME + f" near {element[0].text!r}", element[0].line - 1, refused=True)
        if len(element) > 2 and element[1].token_type not in UNQUOTED and head_word(element[1]) == "SERIAL":
            _serial_attributes(element)
    plain = [plain_column_element(c.text, element) for element in elements]
    if None not in plain:
        return _auto_increment_not_null(plain)  # type: ignore[arg-type]
    for element, done in zip(elements, plain):
        if done is None:
            _refused_attributes(element)
    if any(plain):
        rest = [i for i, done in enumerate(plain) if done is None]
        try:
            parsed = iter(_parse_columns_sqlglot(c, [elements[i] for i in rest]))
        except ParseFailure:
            pass  # the whole table through sqlglot below, for the very diagnostic it gives
        else:
            return _auto_increment_not_null([done if done is not None else next(parsed) for done in plain])
    return _auto_increment_not_null(_parse_columns_sqlglot(c, elements))


#: the words of a key declared on a column (`a INT UNIQUE KEY`), and what CONSTRAINT may name there
_COLUMN_KEY_WORDS = frozenset({"UNIQUE", "PRIMARY", "KEY"})
#: words that follow CONSTRAINT in place of a name
_NOT_A_CONSTRAINT_NAME = frozenset({"UNIQUE", "PRIMARY", "KEY", "INDEX", "FOREIGN", "FULLTEXT", "SPATIAL", "CHECK",
                                    "REFERENCES"})


def _refused_attributes(element: list[Token]) -> None:
    """Refuse a column's attributes that no server's grammar takes (MariaDB 10.11 and MySQL: 1064),
    up to a CHECK or REFERENCES, whose own text may hold any word: a key declared on the column
    with a column list (`a INT UNIQUE (a)`, `a INT PRIMARY KEY (a)`), and CONSTRAINT [name] before
    a key (`a INT CONSTRAINT uk UNIQUE`: a named key is a table element of its own) or before
    nothing. Such text is often two elements a `,` left out glued together."""
    tokens = element[2:]
    depth = 0
    for n, token in enumerate(tokens):
        kind = token.token_type
        depth += (kind == L_PAREN) - (kind == R_PAREN)
        if depth or kind in UNQUOTED or kind == R_PAREN:
            continue
        word = head_word(token)
        if word in ("CHECK", "REFERENCES"):
            return
        after = tokens[n + 1 : n + 4]
        if word in _COLUMN_KEY_WORDS:
            keys = [token]
            for t in after:
                if t.token_type in UNQUOTED or head_word(t) != "KEY":
                    break
                keys.append(t)
            if len(keys) <= len(after) and after[len(keys) - 1].token_type == L_PAREN:
                written = " ".join(t.text.upper() for t in keys)
                raise ParseFailure(f"`{written} (`: a key declared on a column takes no column list (a `,` may be "
                                   "missing before it): the server refuses the statement (syntax error, 1064)",
                                   token.line - 1, refused=True)
        elif word == "CONSTRAINT":
            if after and (after[0].token_type == TokenType.IDENTIFIER or (
                    after[0].token_type != TokenType.STRING and (after[0].text[:1].isalpha() or after[0].text[:1] == "_")
                    and head_word(after[0]) not in _NOT_A_CONSTRAINT_NAME)):
                after = after[1:]  # its name
            if not after or after[0].token_type in UNQUOTED or head_word(after[0]) not in ("CHECK", "REFERENCES"):
                raise ParseFailure("`CONSTRAINT` in a column's definition names only a CHECK or REFERENCES (a `,` may "
                                   "be missing before it): the server refuses the statement (syntax error, 1064)",
                                   token.line - 1, refused=True)


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
        if kind == L_PAREN:
            depth += 1
        elif kind == R_PAREN:
            depth -= 1
        if depth or kind in UNQUOTED:
            after_not = False
            continue
        word = head_word(token)
        if word in ("CHECK", "REFERENCES"):
            return
        if word in _NOT_AFTER_SERIAL or (word == "NULL" and not after_not) or word == "DEFAULT NULL":
            raise ParseFailure(f"`SERIAL {token.text}`: the type SERIAL takes no {word} (it is BIGINT UNSIGNED NOT NULL "
                               "AUTO_INCREMENT UNIQUE): the server refuses the statement (syntax error, 1064)",
                               token.line - 1, refused=True)
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


def _parse_columns_sqlglot(c: Cursor, elements: list[list[Token]]) -> list[tuple[Column, list[Index | ForeignKey]]]:
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
        trees = PARSER.parse(tokens, text)
    except ParseError as error:
        errors = getattr(error, "errors", None) or []
        reason = errors[0].get("description") if errors else first_line(str(error))
        near = errors[0].get("highlight") if errors else None
        if near:
            reason = f"{reason} near {near!r}"
        line = errors[0].get("line", 1) if errors else 1
        raise ParseFailure(f"sqlglot: {reason}", max(0, (line or 1) - 1)) from None
    except RecursionError:
        raise ParseFailure(TOO_DEEP) from None
    except Exception as error:  # sqlglot raises assorted internal errors on odd input
        raise ParseFailure(f"sqlglot: {type(error).__name__}: {first_line(str(error))}") from None
    tree = trees[0] if trees else None
    if not isinstance(tree, exp.Create):
        raise ParseFailure("column definitions could not be read")
    return tree


def _column(
    c: Cursor, definition: exp.ColumnDef, name_token: Token, extras: _ColumnExtras
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
            named = constraint.this if isinstance(constraint, exp.ColumnConstraint) else None
            fk_name = named.name if isinstance(named, exp.Identifier) else None  # (both named after it)
            inline.append(_reference(name, kind_, fk_name))
            inline.append(Index(fk_name, "index", (IndexColumn(name),), generated=True))
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


def _default_text(c: Cursor, element: list[Token]) -> str | None:
    """The DEFAULT expression of a column definition as written: a parenthesized expression, or a
    word with its argument list (`CAST(...)`), or one token."""
    for k, token in enumerate(element):
        if token.text.upper() == "DEFAULT" and token.token_type not in UNQUOTED and k + 1 < len(element):
            start = k + 1
            end = start
            if element[start].token_type != L_PAREN and start + 1 < len(element) and element[start + 1].token_type == L_PAREN:
                end = start + 1
            if element[end].token_type == L_PAREN:
                depth = 0
                for j in range(end, len(element)):
                    depth += {L_PAREN: 1, R_PAREN: -1}.get(element[j].token_type, 0)
                    if depth == 0:
                        end = j
                        break
            return c.text[element[start].start : element[end].end + 1]
    return None


def _column_base(
    c: Cursor, name_token: Token, extras: _ColumnExtras, params: tuple[str, ...]
) -> tuple[Column, list[Index | ForeignKey]]:
    """A column with its name, type and what `_strip_column` took out, before its constraints."""
    name = c._raw(name_token)
    type_name = TYPE_ALIASES.get(extras.type_name, extras.type_name)
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


def _param(node: exp.Expression) -> str:
    inner = node.this if isinstance(node, exp.DataTypeParam) else node
    if isinstance(inner, exp.Literal) and not inner.is_string:
        return str(inner.this)
    return _sql(inner)


_PLAIN_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?").fullmatch


def _sql(node: exp.Expression) -> str:
    """`node.sql(dialect="mysql")` without its comments (the server keeps none in a default or an
    expression), with the literals that column definitions are full of (DEFAULT '0', DEFAULT NULL)
    written directly: the generator copies the tree first, a third of the cost of a column."""
    kind = type(node)
    if kind is exp.Literal:
        value = node.this
        if node.is_string:
            if "'" not in value and "\\" not in value:
                return f"'{value}'"
        elif _PLAIN_NUMBER(value):
            return value
    elif kind is exp.Null:
        return "NULL"
    return GENERATOR.generate(node)


def _reference(column: str, reference: exp.Reference, name: str | None = None) -> ForeignKey:
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
    return ForeignKey(name, (column,), schema, table.name if table is not None else "", ref_columns,
                      actions.get("DELETE"), actions.get("UPDATE"))
