"""ALTER TABLE and its actions (ADD/DROP/MODIFY/CHANGE/RENAME column, key and foreign key,
options, partitioning), one `ops.AlterAction` each; ALTER statements that change no table
definition (`_ALTER_NO_OPS`)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from sqlglot.tokens import Token, TokenType

from linter.parse import ops
from linter.parse.elements import Column, Index
from linter.parse.body import TableBody
from linter.parse.columns import parse_columns
from linter.parse.create import database_options
from linter.parse.keys import is_key_element, read_key
from linter.parse.options import online_clause, charset_conflict, partition_text, read_option_pairs
from linter.parse.tokens import KEY_WORDS, SKIP_OBJECTS, UNQUOTED, ParseFailure, split_top_level

if TYPE_CHECKING:
    from linter.parse.tokens import Cursor


_ALTER_NO_OPS = frozenset(
    """DISABLE ENABLE FORCE ALGORITHM LOCK ORDER DISCARD IMPORT VALIDATION COALESCE REORGANIZE
    EXCHANGE ANALYZE CHECK OPTIMIZE REBUILD REPAIR REMOVE TRUNCATE UPGRADE""".split()
)


#: `ALTER TABLE t DISABLE KEYS` / `ENABLE KEYS`, which mysqldump writes around every table's data:
#: a MyISAM bulk-load hint that changes nothing in the schema (InnoDB ignores it), skipped on
#: purpose like the statements of _SKIP_FIRST_WORDS (the splitter may count it without building
#: it: `KEYS_ONLY_LINE`)
KEYS_ONLY = ops.Skipped("ALTER TABLE ... KEYS")
#: the same statement as mysqldump writes it, as a regex for the splitter's `skip_pattern` (what it
#: matches, parse_statement skips: tests/test_split_lanes.py checks every statement counted so)
KEYS_ONLY_LINE = r"ALTER[ \t]+TABLE[ \t]+(?:`[^`;\n]+`\.)?`[^`;\n]+`[ \t]+(?:DISABLE|ENABLE)[ \t]+KEYS"


#: the reserved words an ALTER DATABASE's options start with: after DATABASE, one of them means
#: no name was given (the client's current database). CHARSET is no reserved word: `ALTER DATABASE
#: CHARSET x` names a database CHARSET and is refused (MariaDB 10.11, 1064)
_DATABASE_OPTION_WORDS = frozenset({"DEFAULT", "CHARACTER", "COLLATE", "COMMENT", "READ", "ENCRYPTION"})


def _parse_alter_database(c: Cursor) -> ops.Operation:
    """ALTER {DATABASE | SCHEMA} [name] options: a new default character set or collation is
    followed (the tables created after it take it); any other option (COMMENT, READ ONLY,
    ENCRYPTION, UPGRADE DATA DIRECTORY NAME) changes nothing innolint models."""
    c.advance()
    name = "" if c.word() in _DATABASE_OPTION_WORDS else c.name()
    words = [t.text for t in c.tokens[c.i:] if t.token_type != TokenType.EQ]
    if not words or words[0].upper() not in _DATABASE_OPTION_WORDS | {"CHARSET", "UPGRADE"}:
        c.fail("ALTER DATABASE without an option the server reads (syntax error, 1064)", refused=True)
    pairs = [("CHARSET" if word.upper() in ("CHARSET", "SET") else "COLLATE", words[i + 1])
             for i, word in enumerate(words[:-1]) if word.upper() in ("CHARSET", "COLLATE")
             or (word.upper() == "SET" and i and words[i - 1].upper() == "CHARACTER")]
    conflict = charset_conflict(pairs)
    if conflict is not None:
        raise ParseFailure(conflict, refused=True)
    charset, collation = database_options(words)
    if charset is None and collation is None:
        return ops.Skipped("ALTER DATABASE")
    return ops.SchemaStatement("alter", name, charset, collation)


def parse_alter(c: Cursor) -> ops.Operation:
    c.expect("ALTER")
    online = c.accept("ONLINE")
    online or c.accept("OFFLINE")
    c.accept("IGNORE")
    word = c.word()
    if word in ("DATABASE", "SCHEMA"):
        return _parse_alter_database(c)
    if word in ("VIEW", "TABLESPACE", "INSTANCE") or word in SKIP_OBJECTS or word.startswith("DEFINER"):
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
        return KEYS_ONLY
    clauses: dict[str, str] = {}
    unmodelled: list[str] = []
    texts: list[str] = []  # the parts as written, but for ALGORITHM= / LOCK=
    parts: list[int] = []  # each action's part
    partitions = False  # in the list of partitions of ANALYZE / CHECK ... PARTITION p1, p2
    for element in split_top_level(rest):
        part = c.sub(element)
        first, second = part.word(), part.word(1)
        if partitions and len(element) == 1:
            texts[-1] += ", " + c.text[element[0].start : element[-1].end + 1]
            continue
        partitions = first in _PARTITION_LIST_ACTIONS and second == "PARTITION"
        if first in ("ALGORITHM", "LOCK"):
            online_clause(part, clauses)
            continue
        texts.append(c.text[element[0].start : element[-1].end + 1])
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
            parts.append(len(texts) - 1)
    conflict = charset_conflict([pair for action in actions if isinstance(action, ops.SetOptions) for pair in action.options])
    conflict = conflict or charset_conflict([("CHARSET", a.charset) for a in actions if isinstance(a, ops.ConvertCharset)])
    if conflict is not None:
        raise ParseFailure(conflict, refused=True)
    return ops.AlterTable(name, tuple(actions), if_exists, clauses.get("ALGORITHM"), clauses.get("LOCK"), online,
                          tuple(unmodelled), tuple(texts), tuple(parts))


#: partition maintenance that takes a list of partitions (`TRUNCATE PARTITION p1, p2`)
_PARTITION_LIST_ACTIONS = frozenset({"ANALYZE", "CHECK", "OPTIMIZE", "REBUILD", "REPAIR", "TRUNCATE", "DROP"})


#: ALTER actions named by their first two words in `AlterTable.unmodelled` (ADD PARTITION, ORDER BY ...)
_TWO_WORD_ACTIONS = frozenset({"ADD", "DROP", "ALTER", "CONVERT", "ORDER", "DISABLE", "ENABLE", "REMOVE"})


def _alter_action(parent: Cursor, c: Cursor) -> list[ops.AlterAction]:
    word = c.word()
    if word == "ADD":
        c.advance()
        if c.word() in KEY_WORDS and not (c.word() == "PERIOD" and c.word(1) != "FOR"):
            body = TableBody()
            if_not_exists = read_key(c, body)
            offset = c.offset_of(c.tokens[0])  # (the clause's ADD)
            for item in (*body.indexes, *body.foreign_keys):
                item.offset = offset
            return ([ops.AddIndex(i, if_not_exists) for i in body.indexes]
                    + [ops.AddForeignKey(f, if_not_exists) for f in body.foreign_keys])
        if c.word() == "PARTITION" or c.at("SYSTEM", "VERSIONING"):
            return []  # (ADD SYSTEM VERSIONING: its row_end joins the unique keys hidden)
        bare_word = c.word() in ops.VERSIONING_WORDS
        c.accept("COLUMN")
        if_not_exists = c.accept_if_exists()
        position: ops.Position = None
        if c.at_type(TokenType.L_PAREN):
            elements = split_top_level(c.group())
        else:
            definition, position = _without_position(parent, c.tokens[c.i :])
            elements = [definition]
        if not elements or not elements[0]:
            c.fail("expected a name")
        columns, keys = _alter_elements(parent, elements)
        actions: list[ops.AlterAction] = [ops.AddColumn(col, if_not_exists, position, bare_word) for col in columns]
        return actions + keys
    if word == "DROP":
        c.advance()
        if c.accept("PRIMARY", "KEY"):
            c.expect_end("DROP PRIMARY KEY")
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
        if c.word() in ("CHECK", "PARTITION") or c.at("PERIOD", "FOR") or c.at("SYSTEM", "VERSIONING"):
            return []
        bare_word = c.word() in ops.VERSIONING_WORDS
        c.accept("COLUMN")
        if_exists = c.accept_if_exists()
        name = c.name()
        c.accept("RESTRICT") or c.accept("CASCADE")
        c.expect_end("DROP COLUMN")
        return [ops.DropColumn(name, if_exists, bare_word)]
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
        return [ops.ChangeColumn(old_name or columns[0].name, columns[0], if_exists, position, word == "CHANGE"), *keys]
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
            c.expect_end("ALTER COLUMN ... DROP DEFAULT")
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
        pairs, _ = read_option_pairs(c.sub(c.tokens[c.i :]), stop_at_select=False)
        charset = next((value for key, value in pairs if key == "CHARSET"), None)
        if charset is None or any(key not in ("CHARSET", "COLLATE") for key, _ in pairs):
            c.fail("CONVERT TO needs CHARACTER SET and takes COLLATE alone after it", refused=True)
        assert charset is not None
        conflict = charset_conflict(pairs)
        if conflict is not None:
            raise ParseFailure(conflict, refused=True)
        return [ops.ConvertCharset(charset, next((value for key, value in pairs if key == "COLLATE"), None))]
    if word in _ALTER_NO_OPS or (word == "WITH" or word == "WITHOUT") and c.word(1) == "VALIDATION":
        return []
    if c.at("PARTITION", "BY"):
        return [ops.SetOptions((("PARTITION", partition_text(c)),))]
    if word == "REMOVE" or (word == "PARTITION"):
        return []
    pairs, _ = read_option_pairs(c, stop_at_select=False)
    return [ops.SetOptions(tuple(pairs))]


def _without_position(c: Cursor, tokens: list[Token]) -> tuple[list[Token], ops.Position]:
    """A column definition without its trailing FIRST / AFTER col, and that position."""
    if len(tokens) >= 2 and tokens[-2].text.upper() == "AFTER" and tokens[-2].token_type not in UNQUOTED:
        return tokens[:-2], ("AFTER", c._raw(tokens[-1]))
    if tokens and tokens[-1].text.upper() == "FIRST" and tokens[-1].token_type not in UNQUOTED:
        return tokens[:-1], "FIRST"
    return tokens, None


def _alter_elements(c: Cursor, elements: list[list[Token]]) -> tuple[list[Column], list[ops.AlterAction]]:
    """The column definitions of ADD / MODIFY / CHANGE COLUMN, in order, and the keys and foreign
    keys they declare as ALTER actions (a UNIQUE on a column is an unnamed key)."""
    columns: list[Column] = []
    column_elements: list[list[Token]] = []
    actions: list[ops.AlterAction] = []
    for element in elements:
        if is_key_element(element):
            read = TableBody()
            if_not_exists = read_key(c.sub(element), read)
            offset = c.offset_of(element[0])
            for item in (*read.indexes, *read.foreign_keys):
                item.offset = offset
            actions += [ops.AddIndex(i, if_not_exists) for i in read.indexes]
            actions += [ops.AddForeignKey(f, if_not_exists) for f in read.foreign_keys]
        else:
            column_elements.append(element)
    for column, inline in parse_columns(c, column_elements):
        columns.append(column)
        for item in inline:
            if isinstance(item, Index):
                actions.append(ops.AddIndex(item))
            else:
                actions.append(ops.AddForeignKey(item))
    return columns, actions


def _last_name(c: Cursor, what: str) -> str:
    """A name that ends the action or statement."""
    name = c.name()
    c.expect_end(what)
    return name
