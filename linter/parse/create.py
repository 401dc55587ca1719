"""CREATE statements: CREATE TABLE (from the text when plain, else element by element),
CREATE INDEX, CREATE TABLESPACE, CREATE DATABASE/SCHEMA options."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING
from sqlglot.tokens import Token, TokenType

from linter.parse import ops
from linter.parse.elements import ForeignKey, Index, IndexColumn, IndexKind
from linter.parse.body import TableBody, without_redundant_generated_keys
from linter.parse.body import drop_whole_prefixes
from linter.parse.columns import parse_columns
from linter.parse.keys import (
    index_options_invisible,
    is_key_element,
    key_parts,
    name_keys,
    primary_columns_not_null,
    read_key,
    using_after,
)
from linter.parse.options import online_clause, read_table_options, apply_options, charset_conflict
from linter.parse.plain import plain_options
from linter.parse.select_names import string_for_a_name
from linter.parse.tokens import STRING_FOR_NAME, ParseFailure, L_PAREN, SKIP_OBJECTS, UNQUOTED, head_word, split_top_level

if TYPE_CHECKING:
    from linter.parse.elements import Column
    from linter.parse.tokens import Cursor


def database_options(words: list[str]) -> tuple[str | None, str | None]:
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


def parse_create(c: Cursor) -> ops.Operation:
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
        return ops.SchemaStatement("create", name, *database_options(words))
    if word == "TABLESPACE" or (word == "UNDO" and c.word(1) == "TABLESPACE"):
        return _parse_create_tablespace(c)
    if word == "COMPRESSION_DICTIONARY":
        c.advance()
        c.accept_if_exists()
        return ops.CreateCompressionDictionary(c.name())
    if word == "VIEW":
        c.advance()
        if_not_exists = c.accept_if_exists()
        name = c.qualified()
        if c.at_type(TokenType.L_PAREN):  # the view's column names
            _refuse_string_for_a_name(c.group(), names=True)
        _refuse_string_for_a_name(c.tokens[c.i:])
        return ops.CreateView(name, or_replace, if_not_exists)
    if word == "PROCEDURE":
        c.advance()
        if_not_exists = c.accept("IF", "NOT", "EXISTS")
        return ops.CreateProcedure(c.qualified(), c.text, or_replace, if_not_exists)
    if word in SKIP_OBJECTS or word.startswith("DEFINER"):
        return ops.Skipped(f"CREATE {word}")
    c.fail("unsupported CREATE statement")
    raise AssertionError


def _parse_create_table(c: Cursor, temporary: bool) -> ops.CreateTable:
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
        refused = _read_elements(c, split_top_level(c.group()), body)
        pairs = plain_options(c.text, c.tokens[c.i - 1].end + 1)
        if pairs is not None and charset_conflict(pairs) is None:
            apply_options(body.options, pairs)
            _system_versioned_keys(c, body)
            return ops.CreateTable(name, body, temporary, if_not_exists, refused=refused)
    if c.word() == "TABLE":  # MySQL 8.0.19+: CREATE TABLE t TABLE s (MariaDB refuses it)
        c.fail("CREATE TABLE ... TABLE (MySQL 8.0.19+) is not followed by innolint: the table's columns and keys "
               "are unknown;")
    start = c.i
    options, as_select = read_table_options(c, stop_at_select=True)
    if as_select:
        _refuse_string_for_a_name(c.tokens[start:])
    body.options = options
    _system_versioned_keys(c, body)
    selected = _select_columns(c, start) if as_select else None
    return ops.CreateTable(name, body, temporary, if_not_exists, as_select=as_select, refused=refused,
                           select_from=_select_source(c, start) if as_select else None,
                           select_columns=selected[0] if selected else None,
                           select_sources=selected[1] if selected else None)


def _refuse_string_for_a_name(tokens: list[Token], *, names: bool = False) -> None:
    """Refuse a statement whose query has a quoted string where a name goes (or, with `names`,
    whose list of names has one), as the server does (`linter.parse.select_names`)."""
    found = next((t for t in tokens if t.token_type == TokenType.STRING), None) if names else string_for_a_name(tokens)
    if found is not None:
        raise ParseFailure(STRING_FOR_NAME + f" near {found.text!r}", found.line - 1, refused=True)


def _select_start(tokens: list[Token], start: int) -> int | None:
    """Where the plain SELECT of a CREATE TABLE ... [AS] SELECT begins (from `start`), None when
    it is no plain one (WITH, or a parenthesised query)."""
    i = start
    while i < len(tokens) and head_word(tokens[i]) not in ("SELECT", "WITH") and tokens[i].token_type != TokenType.L_PAREN:
        i += 1
    return i if i < len(tokens) and head_word(tokens[i]) == "SELECT" else None


def _select_source(c: Cursor, start: int) -> ops.Name | None:
    """The table a CREATE TABLE ... [AS] SELECT ... FROM t reads first (a plain SELECT only: not
    WITH, where t may name a CTE, nor a parenthesised or derived source)."""
    tokens = c.tokens
    i = _select_start(tokens, start)
    if i is None:
        return None
    depth = 0
    for j in range(i + 1, len(tokens)):
        kind = tokens[j].token_type
        if kind == TokenType.L_PAREN:
            depth += 1
        elif kind == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and tokens[j].token_type not in UNQUOTED and head_word(tokens[j]) == "FROM":
            if j + 1 < len(tokens) and tokens[j + 1].token_type == TokenType.L_PAREN:
                return None
            source = c.sub(tokens[j + 1:])
            try:
                name = source.qualified()
            except Exception:  # noqa: BLE001 - not a table's name: nothing to say about it
                return None
            return None if source.at_type(TokenType.L_PAREN) else name  # (JSON_TABLE(...): a table function)
    return None


_SELECT_ITEM_NAMES = frozenset({TokenType.IDENTIFIER, TokenType.VAR})
#: words after which a SELECT reads more than one table, or none the way `*` says
_MORE_SOURCES = frozenset({"JOIN", "STRAIGHT_JOIN", "NATURAL", "UNION", "EXCEPT", "INTERSECT"})


def _select_columns(c: Cursor, start: int) -> tuple[tuple[str, ...], tuple[str | None, ...]] | None:
    """The names of the columns a CREATE TABLE ... SELECT's select list gives, "*" standing for
    all of `_select_source`'s (only when that is the one table it reads): None when innolint
    cannot tell them (an expression without an alias, a join, a subquery, WITH); with, for each,
    the column of that one table it copies (`a`, `t.a`, `a AS b`; "*" for all; None for an
    expression, or when the SELECT reads more than one table)."""
    tokens = c.tokens
    i = _select_start(tokens, start)
    if i is None:
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
        elif depth == 0 and kind not in UNQUOTED and head_word(token) == "FROM":
            break
        elif depth == 0 and kind == TokenType.COMMA:
            items.append([])
            j += 1
            continue
        items[-1].append(token)
        j += 1
    rest = tokens[j + 1:]
    one_table = bool(rest) and not any(
        t.token_type == TokenType.COMMA or (t.token_type not in UNQUOTED and head_word(t) in _MORE_SOURCES)
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


def _read_elements(c: Cursor, elements: list[list[Token]], body: TableBody) -> str | None:
    """Column definitions, keys and constraints of a CREATE TABLE body, into `body`, in the order
    written (keys declared on a column, `a INT UNIQUE`, count where the column is: the server
    names unnamed keys, and InnoDB picks the clustered index among equals, in that order).
    Returns why the server refuses the definition (a duplicate column or key name), or None."""
    column_elements: list[list[Token]] = []
    order: list[Index | ForeignKey | int] = []  # keys, foreign keys, columns by number
    periods: dict[str, tuple[str, str]] = {}
    for element in elements:
        head = element[0]
        if is_key_element(element):
            if head_word(head) == "PERIOD":
                _read_period(c.sub(element), periods)
                continue
            read = TableBody()
            read_key(c.sub(element), read)
            offset = c.offset_of(head)
            for item in (*read.indexes, *read.foreign_keys):
                item.offset = offset
            order += read.indexes
            order += read.foreign_keys
            body.checks += read.checks
        else:
            order.append(len(column_elements))
            column_elements.append(element)
    columns = parse_columns(c, column_elements)
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
    problem = name_keys(keys, body.indexes)
    drop_whole_prefixes(body.indexes, body.columns.get)
    primary_columns_not_null(body)
    return refused or problem


def _read_period(c: Cursor, periods: dict[str, tuple[str, str]]) -> None:
    """`PERIOD FOR name (start, end)`: an application-time period (MariaDB), by its lower-case
    name; SYSTEM_TIME's is left out (it names no key part)."""
    c.expect("PERIOD")
    c.expect("FOR")
    name = c.name()
    if c.at_type(L_PAREN):
        columns = [c.sub(part).name() for part in split_top_level(c.group())]
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
    return replace(key, columns=tuple(parts))


def _system_versioned_keys(c: Cursor, body: TableBody) -> None:
    """A system-versioned table's PRIMARY and UNIQUE keys end with its ROW END column (MariaDB
    appends it; a hidden row_end of an implicit period is not shown, and is left out here)."""
    if c.row_end is None or "WITH SYSTEM VERSIONING" not in body.options.other:
        return
    for index in body.indexes:
        if index.kind in ("primary", "unique") and all(p.name.lower() != c.row_end.lower() for p in index.columns):
            index.columns = (*index.columns, IndexColumn(c.row_end))


def _parse_create_index(c: Cursor) -> ops.CreateIndex:
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
    using: str | None = None
    if c.accept("USING"):
        using = c.word() if c.word() in ("BTREE", "HASH") else None
        c.advance()
    c.expect("ON")
    table = c.qualified()
    parts = key_parts(c)
    using = using_after(c) or using
    for k in range(len(c.tokens) - c.i):  # no index option is a SELECT: a statement glued on (1064)
        if c.word(k) == "SELECT":
            c.i += k
            raise ParseFailure("a `;` seems to be missing before `SELECT` here: the server reads this text as one "
                               "statement and refuses it (syntax error), so none of it runs", c.line_offset(),
                               refused=True)
    clauses: dict[str, str] = {}
    for k in range(c.i, len(c.tokens)):  # [index options] [ALGORITHM [=] x] [LOCK [=] x], in any order
        if c.tokens[k].token_type not in UNQUOTED and c.tokens[k].text.upper() in ("ALGORITHM", "LOCK"):
            online_clause(c.sub(c.tokens[k:]), clauses)
    invisible = index_options_invisible(c)
    return ops.CreateIndex(table, Index(name, kind, parts, invisible, using=using), if_not_exists,
                           clauses.get("ALGORITHM"), clauses.get("LOCK"))


def _parse_create_tablespace(c: Cursor) -> ops.CreateTablespace:
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
