"""Keys in a CREATE TABLE or ALTER TABLE: PRIMARY/UNIQUE/FULLTEXT/SPATIAL keys and their parts
(prefixes, functional parts, ASC/DESC), index options (INVISIBLE), foreign key references, the
names the server gives unnamed keys."""

from __future__ import annotations

from typing import TYPE_CHECKING
from sqlglot.tokens import Token, TokenType

from linter.parse.elements import ForeignKey, Index, IndexColumn, IndexKind
from linter.parse.body import name_unnamed_keys
from linter.parse.tokens import KEY_WORDS, ParseFailure, head_word, split_top_level

if TYPE_CHECKING:
    from linter.parse.body import TableBody
    from linter.parse.tokens import Cursor


def is_key_element(element: list[Token]) -> bool:
    """Whether a body element is a key or constraint, not a column: it starts with a key word
    (PERIOD only with FOR after it: `period INT` is a column named period)."""
    head = element[0]
    if head.token_type == TokenType.IDENTIFIER:
        return False
    word = head_word(head)
    if word == "PERIOD":
        return len(element) > 1 and element[1].text.upper() == "FOR"
    return word in KEY_WORDS


#: the most keys a table may have (MySQL's and MariaDB's MAX_INDEXES: error 1069)
MAX_KEYS = 64


def name_keys(keys: list[Index], out: list[Index]) -> str | None:
    """The keys of a CREATE TABLE in declaration order, into `out`, those without a name named as
    the server names them (`linter.parse.body.name_unnamed_keys`). Returns why the server refuses the
    keys (a name used twice, two primary keys, more than MAX_KEYS), or None. (The server's search
    for a free name is quadratic in the keys of one name; a table has at most MAX_KEYS.)"""
    out += keys
    if len(keys) > MAX_KEYS:
        return f"too many keys: {len(keys)}, the server allows {MAX_KEYS} (error 1069)"
    return name_unnamed_keys(out)


def primary_columns_not_null(body: TableBody) -> None:
    """The primary key's columns are NOT NULL whether or not the DDL says so; those only the
    PRIMARY KEY makes NOT NULL are kept (`TableBody.primary_forced`) for the server's sort of the
    keys, which the replay does (`linter.server.key_order.creation_order`): the keys stay in the
    order written. The columns were made by this parse, so they are changed in place."""
    primary = next((i for i in body.indexes if i.kind == "primary"), None)
    if primary is None:
        return
    forced: set[str] = set()
    for part in primary.columns:
        column = body.columns.get(part.name.lower())
        if column is not None and column.nullable:
            column.nullable = False
            forced.add(column.name.lower())
    body.primary_forced = frozenset(forced)


# -- keys and constraints ----------------------------------------------------------------------
def read_key(c: Cursor, body: TableBody) -> bool:
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
        parts = key_parts(c)
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
    using: str | None = None
    if c.accept("USING"):
        using = c.word() if c.word() in ("BTREE", "HASH") else None
        c.advance()
    parts = key_parts(c)
    using = using_after(c) or using
    invisible = index_options_invisible(c)
    if kind == "primary":
        name = "PRIMARY"
    # an unnamed key keeps None: the server names it after its first column, with _2, _3 when
    # that name is taken (linter.parse.body.name_unnamed_keys, for the CREATE TABLE or in replay)
    body.indexes.append(Index(name, kind, parts, invisible, using=using))
    return if_not_exists


def key_parts(c: Cursor) -> tuple[IndexColumn, ...]:
    parts: list[IndexColumn] = []
    for element in split_top_level(c.group()):
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


def using_after(c: Cursor) -> str | None:
    """The index type of a `USING BTREE` / `USING HASH` among a key's options after its parts
    (the last one written; the cursor stays where it is), None: none."""
    found = None
    for t, u in zip(c.tokens[c.i:], c.tokens[c.i + 1:]):
        if head_word(t) == "USING" and head_word(u) in ("BTREE", "HASH"):
            found = head_word(u)
    return found


#: words that start a statement and no index option: one among a key's options is a statement
#: glued on by a `;` left out (`ADD UNIQUE KEY u (c)` then `DROP INDEX i ON t` on the next line)
_STATEMENT_WORDS = frozenset({"CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE", "INSERT", "REPLACE", "UPDATE", "DELETE",
                              "SELECT", "CALL", "EXECUTE", "PREPARE", "DEALLOCATE", "FLUSH", "GRANT", "REVOKE"})


def index_options_invisible(c: Cursor) -> bool:
    """INVISIBLE (MySQL 8) or IGNORED (MariaDB 10.6+): the optimizer does not use the key. A word
    that starts a statement there is a statement glued on (the server refuses the text: 1064)."""
    invisible = False
    while not c.done:
        if c.accept("INVISIBLE") or c.accept("IGNORED"):
            invisible = True
        elif c.accept("VISIBLE") or c.accept("NOT", "IGNORED"):
            invisible = False
        elif c.word() in _STATEMENT_WORDS:
            raise ParseFailure(f"a `;` seems to be missing before `{c.word()}` here: the server reads this text as one "
                               "statement and refuses it (syntax error), so none of it runs", c.line_offset(),
                               refused=True)
        else:
            c.advance()
    return invisible


def _references(c: Cursor, name: str | None, columns: tuple[str, ...]) -> ForeignKey:
    c.expect("REFERENCES")
    target = c.qualified()
    ref_columns: tuple[str, ...] = ()
    if c.at_type(TokenType.L_PAREN):
        ref_columns = tuple(part.name for part in key_parts(c))
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
