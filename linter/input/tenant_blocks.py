"""A dump's schemas as blocks of text, and which blocks repeat another but for names and counters.

`mysqldump --databases` (or `--all-databases` on a schema-per-tenant server) prints each schema
as a header (`-- Current Database: ...`, `CREATE DATABASE ...`, `USE ...`) and its tables; in a
schema-per-tenant dump the tables of every tenant are the same text but for the schema's name
and each table's `AUTO_INCREMENT=` counter. Splitting, parsing and replaying that text 10,000
times yields the same tables 10,000 times. This reader cuts the chunks of a plain file into such
blocks (`TenantBlock`) and compares each block with the few kinds seen before (`_Template`):
a block equal to one of them but for the name (where the template has its own name) and the
counters (where the template has one: a table left without one counts as None) is a repeat.
The splitter (`linter.input.splitter.scanner`) and the engine may then reuse what they made of
the template; everything that is not such a block passes through as text, in order, so that what
follows (the splitter) reads the same text whatever this reader decides. No SQL is understood
here: whether a block's statements really are what they seem is the splitter's and the engine's
to check on the template, and a block is only ever a repeat of text equal to its template's.

Where a block starts: a line `USE `name`;` (mysqldump's form; the name of letters, digits, `_`
and `$`), with the lines before it that are blank, `--` comments or a one-line CREATE DATABASE /
CREATE SCHEMA. It ends where the next block starts. A block holding `innolint:` (a directive)
or larger than `MAX_BLOCK` is passed on as text.

Cost: each chunk is searched for `\\nUSE `` once (`str.find`); a block is compared with at most
`_TEMPLATES` templates, each comparison `str.startswith` over its literal parts; a template is
made once per kind. Memory: the text of the block being read and the next one's start.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from linter.input.statement import TenantBlock

#: a block longer than this is text (a schema with a million-line table definition is no tenant)
MAX_BLOCK = 1 << 22
#: how many kinds of block are kept to compare with (a tenant dump has a few: an upgraded tenant
#: has one table more, a table left empty prints no counter)
_TEMPLATES = 8
#: how many blocks in a row may be new kinds before this reader stops looking (text that does not
#: repeat pays nothing more than the search for `USE` lines)
_MISSES = 64

_USE_LINE = re.compile(r"USE[ \t]+(`?)([A-Za-z0-9_$]+)\1[ \t]*;[ \t]*\r?\n")
_HEADER_LINE = re.compile(r"[ \t]*(?:--[^\n]*|(?:CREATE|create)[ \t]+(?:DATABASE|SCHEMA|database|schema)\b[^\n;]*;"
                          r"[ \t]*|[ \t\r]*)\r?\n?")
_COUNTER = re.compile(r" AUTO_INCREMENT=([0-9]+)(?![0-9])")
_DIGITS = re.compile(r"[0-9]++(?![A-Za-z_$])").match
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")


class _Template:
    """A block and where its name and counters stand: `parts` alternate literal text and slots
    ("name" or "counter"), starting and ending with literal text."""

    __slots__ = ("number", "name", "parts", "counters", "head", "steps")

    def __init__(self, number: int, name: str, text: str) -> None:
        self.number = number
        self.name = name
        slots: list[tuple[int, int, str]] = []
        at = text.find(name)
        while at >= 0:
            end = at + len(name)
            if (at == 0 or text[at - 1] not in _WORD) and (end == len(text) or text[end] not in _WORD):
                slots.append((at, end, "name"))
            at = text.find(name, end)
        counters: list[int] = []
        for m in _COUNTER.finditer(text):
            slots.append((m.start(), m.end(), "counter"))
            counters.append(int(m.group(1)))
        slots.sort()
        parts: list[str] = []
        done = 0
        for start, end, kind in slots:
            if start < done:  # a counter inside a name, or the reverse: not a template
                parts = []
                break
            parts += [text[done:start], kind]
            done = end
        parts.append(text[done:])
        self.parts: tuple[str, ...] = tuple(parts)
        self.counters = tuple(counters)
        # for `match`: the literal text before the first counter, which the names join (`head`), then
        # each slot with the literal after it (the template's name stood between non-word
        # characters, so a repeat matching these literals has its name there as a whole word too)
        first = next((n for n in range(1, len(parts), 2) if parts[n] == "counter"), len(parts))
        self.head: list[str] = list(parts[0:first:2])
        self.steps = tuple((parts[n], parts[n + 1]) for n in range(first, len(parts) - 1, 2))

    def match(self, text: str, name: str) -> tuple[int | None, ...] | None:
        """The counters of `text`, a block naming `name`, when it is this template but for the name
        and the counters; else None."""
        steps = self.steps
        if steps and not text.endswith(steps[-1][1]):
            return None
        startswith = text.startswith
        head = name.join(self.head)
        if not startswith(head):
            return None
        at = len(head)
        found: list[int | None] = []
        digits = _DIGITS
        for kind, literal in steps:
            if kind == "name":
                if not startswith(name, at):
                    return None
                at += len(name)
            elif startswith(" AUTO_INCREMENT=", at):
                m = digits(text, at + 16)
                if m is None:
                    return None
                found.append(int(m.group()))
                at = m.end()
            else:
                found.append(None)
            if not startswith(literal, at):
                return None
            at += len(literal)
        return tuple(found) if at == len(text) else None


class _Blocks:
    """The kinds of block seen (most recently repeated first) and how to tell the next block."""

    def __init__(self) -> None:
        self.templates: list[_Template] = []
        self.numbers = 0
        self.misses = 0

    def block(self, text: str, name: str) -> TenantBlock | str:
        if len(text) > MAX_BLOCK or "innolint:" in text:
            return text
        for n, template in enumerate(self.templates):
            counters = template.match(text, name)
            if counters is not None:
                if n:
                    self.templates.insert(0, self.templates.pop(n))
                self.misses = 0
                return TenantBlock(text, template.number, False, name, counters)
        self.misses += 1
        if self.misses > _MISSES:
            return text
        self.numbers += 1
        template = _Template(self.numbers, name, text)
        if len(template.parts) == 1 and not template.counters and name not in text:
            return text  # (no slot at all: cannot happen for a block that has its USE line)
        self.templates.insert(0, template)
        del self.templates[_TEMPLATES:]
        return TenantBlock(text, template.number, True, name, template.counters)


def tenant_blocks(chunks: Iterable[object]) -> Iterator[object]:
    """The chunks of a plain file with its schema blocks cut out as `TenantBlock`s (see the
    module docstring); other items among the chunks (a `Note`) pass through in their place."""
    blocks = _Blocks()
    buf = ""  # text not handed on yet: from `block_start` when a block is open
    block_start = -1  # where the current block starts in `buf` (-1: none open)
    name = ""
    searched = 0  # `buf` before this holds no USE line not seen yet
    for chunk in chunks:
        if chunk.__class__ is not str:
            if buf:
                yield buf
            buf, block_start, searched = "", -1, 0
            yield chunk
            continue
        buf += chunk  # type: ignore[operator]
        complete = buf.rfind("\n") + 1  # only whole lines are looked at
        done = 0  # `buf` before this is handed on
        while True:
            found = _next_use(buf, searched, complete)
            if found is None:
                searched = max(searched, complete - 1)
                break
            use_at, use_end, next_name = found
            head = _header_start(buf, use_at, block_start)
            if block_start >= 0 and head > block_start:
                yield blocks.block(buf[block_start:head], name)
            elif block_start < 0 and head > done:
                yield buf[done:head]
            done = block_start = head
            name, searched = next_name, use_end
        if block_start < 0:
            # no block open: what cannot be the header of one is text (kept: a partial last line,
            # and the blank, comment and CREATE DATABASE lines before it)
            done = max(done, _header_start(buf, complete, -1))
            if done:
                yield buf[:done]
        elif len(buf) - block_start > MAX_BLOCK:
            yield buf[block_start:]
            done, block_start = len(buf), -1
        else:
            done = block_start
            block_start = 0
        buf = buf[done:]
        searched = max(0, searched - done)
    if buf:
        yield buf


def _next_use(buf: str, start: int, end: int) -> tuple[int, int, str] | None:
    """The next `USE name;` line at or after `start` that ends before `end`: (its start, its end, the name)."""
    at = start
    while True:
        if at == 0 and buf.startswith("USE "):
            found = 0
        else:
            found = buf.find("\nUSE ", max(at - 1, 0), end)
            if found < 0:
                return None
            found += 1
        m = _USE_LINE.match(buf, found)
        if m is not None and m.end() <= end:
            return found, m.end(), m.group(2)
        at = found + 1


def _header_start(buf: str, use_at: int, floor: int) -> int:
    """Where the header of the block whose USE line starts at `use_at` starts: the lines before it
    that are blank, `--` comments or a one-line CREATE DATABASE, but not before `floor` + 1 (the
    current block keeps its own USE line)."""
    start = use_at
    limit = floor + 1 if floor >= 0 else 0
    while start > limit:
        line = buf.rfind("\n", 0, start - 1) + 1
        if line < limit:
            break
        # mysqldump's own lines first, by their start; anything else by the pattern
        if not (line == start - 1 or buf.startswith("--", line)
                or _HEADER_LINE.fullmatch(buf, line, start) is not None):
            break
        start = line
    return start
