"""The parse cache: each distinct statement is parsed once per run.

A schema-per-tenant dump repeats every CREATE TABLE once per tenant (10,000 tenants x 11 tables
is 110K statements and 12 definitions), and the same DROP TABLE and `ALTER TABLE ... DISABLE KEYS`
with them. Copies of one definition differ only in what the server prints per table: the
AUTO_INCREMENT counter (`AUTO_INCREMENT=4711`, or none when the table is empty) and, with a general
tablespace per tenant, the tablespace name (`/*!50100 TABLESPACE `tenant_00042` */`). So a
CREATE TABLE is looked up by its *shape*: its text with the counter option and the tablespace
name cut out. A hit gives the table the definition parsed the first time, with its own
AUTO_INCREMENT and TABLESPACE: a fresh `TableOptions` in a `TableBody` that shares the columns,
keys and foreign keys of the first copy (copy-on-write: `Table.writable` copies all of it before
any ALTER changes one table).

Cutting text out of a statement must never change what another statement means, so the shape is
used only when it is safe, and otherwise the statement is looked up by its exact text:
- exactly one `AUTO_INCREMENT=<digits>` and at most one `TABLESPACE` in the text, the name in
  backticks (mysqldump's form);
- when a shape is first parsed, each cut lies in plain SQL (no quote or comment before it is left
  open) and the parsed options hold exactly the values cut out;
- the counter clause is removed whole (with the space before it), so a table printed with and
  without a counter shares one entry; a counter found at a new place in a known shape is parsed
  once and compared with the first copy before the place is trusted.

Other statements: those skipped on purpose by their first word (INSERT, SET, LOCK ...) are
answered without parsing or hashing their text; USE / CREATE DATABASE / DROP DATABASE are parsed
every time (cheap, and one per schema: caching them only evicted the useful entries); every other
DDL statement is cached by its exact text. Both caches are bounded LRUs.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import fields, replace

from linter.parse import ops
from linter.parse.body import TableBody
from linter.parse.elements import TableOptions
from linter.parse.statement import PLAIN_SET, SESSION_WORDS, SKIP_FIRST_WORDS, dynamic_statement, parse_statement, skipped_glue
from linter.parse.alter import KEYS_ONLY_LINE
from linter.parse.tokens import ParseFailure

#: statements skipped on purpose by their first word (INSERT, SET, LOCK ...), as parse_statement does
SKIP_FIRST_WORDS: frozenset[str] = SKIP_FIRST_WORDS
#: the first words the splitter may skip statements by: not SET, PREPARE, DEALLOCATE, which make
#: dynamic SQL (`SET @s = CONCAT(...)` before `PREPARE st FROM @s`: ops.Dynamic)
SPLIT_SKIP_WORDS: frozenset[str] = SKIP_FIRST_WORDS - SESSION_WORDS
#: one-line statements parse_statement skips, as the splitter's `skip_pattern`
SKIP_PATTERN: str = f"(?:{KEYS_ONLY_LINE}|{PLAIN_SET})"

#: how many distinct CREATE TABLE shapes, and other DDL statements, are kept
TABLE_CACHE_SIZE = 10_000
DDL_CACHE_SIZE = 20_000
#: statements longer than this are not cached (a DDL statement this long is not repeated)
_MAX_CACHED_TEXT = 1 << 16

_FIRST_WORD = re.compile(r"[A-Za-z_]+").match
_AUTO_INCREMENT = re.compile(r"AUTO_INCREMENT[ \t]*=[ \t]*([0-9]+)").search
_TABLESPACE = re.compile(r"TABLESPACE[ \t]*(?:=[ \t]*)?`([^`\n]*)`(?!`)").match
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
_SPACE = " \t\r\n"
#: plain SQL: text and whole quoted strings, stopping at any comment opener or open quote
_PLAIN = re.compile(
    r"""(?:[^'"`#/\-]+|`[^`]*`|'[^'\\]*(?:\\.[^'\\]*)*'|"[^"\\]*(?:\\.[^"\\]*)*"|/(?!\*)|-(?!-))*""", re.S
).match
_CREATE_TABLE = ("CREATE TABLE ", "CREATE TABLE`", "CREATE TABLE\n", "CREATE TEMPORARY TABLE ")
_OPTION_NAMES = tuple(f.name for f in fields(TableOptions))
#: "the statement has no TABLESPACE to cut: keep the parsed one"
_KEEP = object()
_NOT_SEEN = object()


def _plain_before(text: str, at: int) -> bool:
    """Whether `text[:at]` is plain SQL, so that `at` is outside any quote or comment."""
    m = _PLAIN(text, 0, at)
    return m is not None and m.end() == at


class _Shape:
    """A CREATE TABLE with its counter and tablespace name cut out."""

    __slots__ = ("key", "ai", "ai_at", "ai_offset", "ts", "ts_at")

    def __init__(self, key: str, ai: int | None, ai_at: int, ai_offset: int, ts: object, ts_at: int) -> None:
        self.key = key
        self.ai = ai  # the counter, None when the statement has none
        self.ai_at = ai_at  # where its clause starts in the text (-1: none)
        self.ai_offset = ai_offset  # where it was cut from the key (-1: none)
        self.ts = ts  # the tablespace name cut out, or _KEEP
        self.ts_at = ts_at  # where the TABLESPACE keyword starts in the text (-1: none)


def _shape(text: str) -> _Shape | None:
    """The shape of a CREATE TABLE, or None when it must be looked up by its exact text (a second
    counter, or one glued to a word: not the table option, or not only)."""
    ai: int | None = None
    ai_at = ai_end = -1
    m = _AUTO_INCREMENT(text)
    if m is not None:
        start, end = m.span()
        if _AUTO_INCREMENT(text, end) is not None:
            return None  # two of them: one is not the table option
        if (start and text[start - 1] in _WORD_CHARS) or (end < len(text) and text[end] in _WORD_CHARS):
            return None
        ai = int(m.group(1))
        ai_at = start
        while ai_at and text[ai_at - 1] in _SPACE:
            ai_at -= 1
        ai_end = end
    ts: object = _KEEP
    ts_at = name_start = name_end = -1
    if "TABLESPACE" in text:
        ts_at = text.find("TABLESPACE")
        if text.find("TABLESPACE", ts_at + 10) < 0 and not (ts_at and text[ts_at - 1] in _WORD_CHARS):
            t = _TABLESPACE(text, ts_at)
            if t is not None:
                ts = t.group(1)
                name_start, name_end = t.span(1)
        if ts is _KEEP:
            ts_at = -1
    if ai_at < 0 and ts is _KEEP:
        return _Shape(text, None, -1, -1, _KEEP, -1)  # nothing to cut: it may still be a counter-less copy
    if ts is _KEEP:
        return _Shape(text[:ai_at] + text[ai_end:], ai, ai_at, ai_at, ts, -1)
    if ai_at < 0:
        return _Shape(text[:name_start] + text[name_end:], None, -1, -1, ts, ts_at)
    if ai_at < name_start:
        key = text[:ai_at] + text[ai_end:name_start] + text[name_end:]
        return _Shape(key, ai, ai_at, ai_at, ts, ts_at)
    key = text[:name_start] + text[name_end:ai_at] + text[ai_end:]
    return _Shape(key, ai, ai_at, ai_at - (name_end - name_start), ts, ts_at)


class _Template:
    """The first parse of a CREATE TABLE shape, and the counter positions known to be safe."""

    __slots__ = ("op", "text", "ai_offsets")

    def __init__(self, op: ops.Operation | ParseFailure, text: str, ai_offsets: set[int] | None) -> None:
        self.op = op
        self.text = text  # the text it was parsed from
        self.ai_offsets = ai_offsets  # None: not a usable template, only for that exact text

    def build(self, shape: _Shape) -> ops.CreateTable:
        """The operation for a statement of this shape, with its own counter and tablespace."""
        op = self.op
        assert isinstance(op, ops.CreateTable)
        body = op.body
        options = body.options
        tablespace = options.tablespace if shape.ts is _KEEP else shape.ts
        if options.auto_increment == shape.ai and options.tablespace == tablespace:
            return op  # the very same definition: share the whole body
        own = _with(options, shape.ai, tablespace)  # type: ignore[arg-type]
        shared = TableBody(body.columns, body.indexes, body.foreign_keys, own, body.checks)
        return ops.CreateTable(op.name, shared, op.temporary, op.if_not_exists, op.like, op.as_select, op.or_replace,
                               op.refused, op.select_from, op.select_columns, op.select_sources)

    def same_definition(self, other: ops.CreateTable) -> bool:
        op = self.op
        assert isinstance(op, ops.CreateTable)
        if (op.name, op.temporary, op.if_not_exists, op.like, op.as_select, op.or_replace, op.refused,
                op.select_from, op.select_columns, op.select_sources) != (
            other.name, other.temporary, other.if_not_exists, other.like, other.as_select, other.or_replace,
            other.refused, other.select_from, other.select_columns, other.select_sources,
        ):
            return False
        a, b = op.body, other.body
        return (
            a.columns == b.columns and a.indexes == b.indexes and a.foreign_keys == b.foreign_keys
            and a.checks == b.checks and _neutral(a.options) == _neutral(b.options)
        )


def _make_with() -> object:
    """`_with(o, auto_increment, tablespace)`: a copy of TableOptions `o` with its own counter and
    tablespace (`other` is shared: copy-on-write). Generated from the fields, like dataclasses'
    own methods, so that it stays right when a field is added and costs one call."""
    args = ", ".join(
        {"auto_increment": "auto_increment", "tablespace": "tablespace"}.get(name, f"o.{name}")
        for name in _OPTION_NAMES
    )
    namespace: dict[str, object] = {"TableOptions": TableOptions}
    exec(f"def _with(o, auto_increment, tablespace):\n    return TableOptions({args})\n", namespace)  # noqa: S102
    return namespace["_with"]


_with = _make_with()


def _neutral(options: TableOptions) -> TableOptions:
    return replace(options, auto_increment=None, tablespace=None)


def _matches(op: ops.Operation | ParseFailure, text: str, shape: _Shape) -> bool:
    """Whether a CREATE TABLE parsed from `text` holds exactly what its shape cut out, from plain SQL."""
    if not isinstance(op, ops.CreateTable) or op.like is not None:
        return False
    options = op.body.options
    if options.auto_increment != shape.ai or (shape.ts is not _KEEP and options.tablespace != shape.ts):
        return False
    if shape.ai_at >= 0 and not _plain_before(text, shape.ai_at):
        return False
    return shape.ts_at < 0 or _plain_before(text, shape.ts_at)


class ParseCache:
    """`parse`: the operation of a statement (or its ParseFailure), each distinct one parsed once."""

    def __init__(self, table_size: int = TABLE_CACHE_SIZE, ddl_size: int = DDL_CACHE_SIZE) -> None:
        self.table_size = table_size
        self.ddl_size = ddl_size
        self._tables: OrderedDict[str, _Template] = OrderedDict()
        self._ddl: OrderedDict[str, ops.Operation | ParseFailure] = OrderedDict()
        self._words: dict[str, ops.Skipped | None] = {}
        #: statements actually parsed (the rest came from the cache or were skipped by their first word)
        self.parsed = 0

    def parse(self, text: str) -> ops.Operation | ParseFailure:
        m = _FIRST_WORD(text)
        if m is None:
            return self._other(text)
        word = m.group()
        skipped = self._words.get(word, _NOT_SEEN)
        if skipped is _NOT_SEEN:
            upper = word.upper()
            skipped = ops.Skipped(upper) if upper in SKIP_FIRST_WORDS else None  # as parse_statement says
            if len(self._words) < 512:
                self._words[word] = skipped  # type: ignore[assignment]
        if skipped is not None:
            if "\n" in text:
                glued = skipped_glue(text, skipped.kind)  # type: ignore[attr-defined]  # a `;` left out before a DDL line
                if glued is not None:
                    return glued
            if skipped.kind in SESSION_WORDS:  # type: ignore[attr-defined]  # SET @v, PREPARE: dynamic SQL's makings
                try:
                    dynamic = dynamic_statement(text, skipped.kind)  # type: ignore[attr-defined]
                except ParseFailure as failure:
                    return failure
                if dynamic is not None:
                    return dynamic
            return skipped  # type: ignore[return-value]
        if word == "CREATE" and text.startswith(_CREATE_TABLE):
            return self._create_table(text)
        if word == "USE" or word == "use":
            return self._parse(text)
        return self._other(text)

    def _parse(self, text: str) -> ops.Operation | ParseFailure:
        self.parsed += 1
        try:
            return parse_statement(text)
        except ParseFailure as failure:
            return failure
        except RecursionError:
            return ParseFailure("statement nested too deeply to parse")

    def _other(self, text: str) -> ops.Operation | ParseFailure:
        cache = self._ddl
        found = cache.get(text)
        if found is not None:
            cache.move_to_end(text)
            return found
        found = self._parse(text)
        if isinstance(found, (ops.Skipped, ops.SchemaStatement, ops.Dynamic)) or len(text) > _MAX_CACHED_TEXT:
            return found  # skipped: dumps hold millions of distinct INSERTs; schemas: one each
        cache[text] = found
        if len(cache) > self.ddl_size:
            cache.popitem(last=False)
        return found

    def _create_table(self, text: str) -> ops.Operation | ParseFailure:
        shape = _shape(text)
        key = text if shape is None else shape.key
        cache = self._tables
        entry = cache.get(key)
        if entry is not None:
            cache.move_to_end(key)
            if entry.text == text:
                return entry.op
            if shape is not None and entry.ai_offsets is not None:
                if shape.ai_offset < 0 or shape.ai_offset in entry.ai_offsets:
                    return entry.build(shape)
                # a counter where this shape had none (or elsewhere): trust the place once the
                # statement is seen to parse to the same definition
                op = self._parse(text)
                if _matches(op, text, shape) and entry.same_definition(op):  # type: ignore[arg-type]
                    entry.ai_offsets.add(shape.ai_offset)
                return op
            return self._parse(text)
        op = self._parse(text)
        if len(text) > _MAX_CACHED_TEXT:
            return op
        if shape is None:
            template = _Template(op, text, None)
        elif _matches(op, text, shape):
            template = _Template(op, text, {shape.ai_offset} if shape.ai_offset >= 0 else set())
        else:
            template = _Template(op, text, None)
        cache[key] = template
        if len(cache) > self.table_size:
            cache.popitem(last=False)
        return op
