"""Liquibase formatted SQL (`--liquibase formatted sql`), read line by line as Liquibase's parser
reads it: changesets and their attributes (`dbms:`, `splitStatements:`, `endDelimiter:`, `ignore:`,
preconditions), rollback lines and blocks, metadata lines, `--property` and `${name}`; the `dbms`
filter and the Segment a change is split with, which the changelog formats share. The whole
picture is in `linter.input.migrations.formats.liquibase.walker`."""

from __future__ import annotations

from typing import TYPE_CHECKING
import re
from collections.abc import Iterable, Iterator

from linter.input.statement import Note, Segment

if TYPE_CHECKING:
    from linter.schema.target import Target


#: how much of a line is looked at for a directive (a longer line is SQL, or a directive whose
#: attributes past this are not read)
_LINE_HEAD = 1 << 16


FIRST_LINE = re.compile(r"[ \t\f\v]*--[ \t\f\v]*liquibase[ \t\f\v]*formatted", re.IGNORECASE)
#: a line that may be a directive: `--` then a word (Liquibase's patterns allow blanks on both sides)
_DIRECTIVE = re.compile(r"[ \t\f\v]*--[ \t\f\v]*([A-Za-z][A-Za-z-]*)", re.IGNORECASE)
_CHANGESET = re.compile(r'[ \t\f\v]*--[ \t\f\v]*changeset[ \t\f\v]+("[^"]+"|[^:"\s][^:]*):[ \t\f\v]*("[^"]+"|\S+)(.*)',
                        re.IGNORECASE | re.DOTALL)
_ROLLBACK_BLOCK = re.compile(r"[ \t\f\v]*/\*[ \t\f\v]*liquibase[ \t\f\v]*rollback[ \t\f\v]*$", re.IGNORECASE)
_BLOCK_END = re.compile(r".*\*/[ \t\f\v]*$", re.DOTALL)
_IGNORE_LINES = re.compile(r"--[ \t\f\v]*ignoreLines:(\w+)", re.IGNORECASE)
_PROPERTY_NAME = re.compile(r"\bname:[ \t]*(\S+)", re.IGNORECASE)
_PROPERTY_VALUE = re.compile(r"\bvalue:[ \t]*(\S+)", re.IGNORECASE)
EXPRESSION = re.compile(r"\$\{([^{}\s]{1,200})\}")
#: what `--precondition... onFail:X` / `onError:X` may do that skips the changeset and goes on
_SKIPPING = frozenset({"mark_ran", "continue", "warn"})
#: directive words inside a changeset that Liquibase takes as metadata (the line is not SQL)
_METADATA = frozenset({"comment", "comments", "validchecksum", "preconditions", "property"})


def _attribute(text: str, name: str) -> str | None:
    """A changeset attribute `name:value` on a directive line (a quoted value without its quotes)."""
    match = re.search(rf'(?<![\w-]){name}:("[^"]*"|\S*)', text, re.IGNORECASE)
    if match is None:
        return None
    value = match.group(1)
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def dbms_name(target: Target | None) -> str:
    """The name Liquibase gives the target's database type: `mariadb` for MariaDB, else `mysql`
    (Percona Server is MySQL to it)."""
    return "mariadb" if target is not None and target.is_mariadb else "mysql"


def dbms_runs(spec: str | None, target: Target | None) -> bool:
    """Whether a `dbms` filter (`mysql, mariadb`, `!postgresql`, `all`, `none`) lets a change run
    on the target, as Liquibase's DatabaseList matches it: `none` runs nowhere, `all` everywhere,
    a negated name excludes it, and a list of names runs only on those."""
    if spec is None:
        return True
    items = [item.strip().lower() for item in spec.split(",") if item.strip()]
    if not items:
        return True
    name = dbms_name(target)
    if "none" in items:
        return False
    if "all" in items:
        return True
    if "!" + name in items:
        return False
    positive = [item for item in items if not item.startswith("!")]
    return not positive or name in positive


def skip_note(line: int, what: str, spec: str, target: Target | None) -> Note:
    name = dbms_name(target)
    extra = " (Liquibase calls MariaDB `mariadb`: `mysql` does not name it)" if name == "mariadb" and "mysql" in spec.lower() else ""
    return Note(line, 1, f"{what} for dbms:{spec} does not run on {name}{extra}: not replayed", "replay-error", "info")


def parameters(entries: Iterable[tuple[str, str, str | None]], target: Target | None) -> dict[str, str]:
    """Changelog parameters by name from (name, value, dbms filter) entries in the order they are
    defined: the first definition that applies to the target holds, as in Liquibase."""
    found: dict[str, str] = {}
    for name, value, dbms in entries:
        if name and dbms_runs(dbms, target):
            found.setdefault(name, value)
    return found


def split_settings(split_statements: str | None, end_delimiter: str | None, line: int,
                   part: str = "changeset") -> tuple[Segment, list[Note]]:
    """The Segment that splits a change as Liquibase does, from its `splitStatements` and
    `endDelimiter` attributes, and notes on what innolint reads otherwise (an endDelimiter
    Liquibase takes as a pattern)."""
    notes: list[Note] = []
    if split_statements is not None and split_statements.strip().lower() == "false":
        return Segment("whole", ";", (), part), notes
    delimiter = (end_delimiter or "").strip()
    if not delimiter or delimiter == ";":
        return Segment("packet", ";", (), part), notes
    if delimiter.lower() == "go" or any(c in delimiter for c in "\\^[]()|+?{}"):
        notes.append(Note(line, 1, f"endDelimiter {delimiter!r} is a pattern to Liquibase (a line of its own, a regular "
                          "expression): innolint splits at `;` outside compound statements instead", "parse-error", "info"))
        return Segment("packet", ";", (), part), notes
    return Segment("delimiter", delimiter, (), part), notes


def is_formatted_sql(head: str) -> bool:
    """Whether a file's text starts (after blank lines) with `--liquibase formatted sql`."""
    for line in head.split("\n", 64)[:64]:
        if line.strip(" \t\r\f\v\ufeff"):
            return FIRST_LINE.match(line.lstrip("\ufeff")) is not None
    return False


def line_pieces(chunks: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """The text of `chunks` by lines: (piece, first) where a line's first piece is the whole line
    with its newline, or its first `_LINE_HEAD` characters followed by pieces of the rest (so a
    line of any length is never held)."""
    head: list[str] = []
    held = 0
    deciding = True
    for chunk in chunks:
        i, n = 0, len(chunk)
        while i < n:
            j = chunk.find("\n", i)
            if deciding:
                if j < 0:
                    head.append(chunk[i:])
                    held += n - i
                    i = n
                    if held >= _LINE_HEAD:
                        yield "".join(head), True
                        head, held, deciding = [], 0, False
                else:
                    head.append(chunk[i : j + 1])
                    yield "".join(head), True
                    head, held = [], 0
                    i = j + 1
            elif j < 0:
                yield chunk[i:], False
                i = n
            else:
                yield chunk[i : j + 1], False
                i = j + 1
                deciding = True
    if head:
        yield "".join(head), True


class Formatted:
    """The state of reading one formatted SQL file (see the module docstring)."""

    def __init__(self, path: str, target: Target | None, properties: dict[str, str] | None = None) -> None:
        self.path = path
        self.target = target
        self.line = 0
        self.properties: dict[str, str] = dict(properties or {})
        self.unknown: set[str] = set()
        self.in_changeset = False
        self.running = False  # the current changeset runs on the target
        self.rollback = False  # inside a `/* liquibase rollback` block
        self.ignoring: int | None = None  # lines still to ignore (-1: until `--ignoreLines:end`)
        self.outside_reported = False
        self.notes: list[Note] = []  # found while reading a line, reported after it

    def read(self, pieces: Iterable[tuple[str, bool]]) -> Iterator[str | Segment | Note]:
        keep = False
        for piece, first in pieces:
            if not first:
                yield piece if keep else _blank_piece(piece)
                continue
            self.line += 1
            keep = False
            for item in self._line(piece):
                if item is _KEEP:
                    keep = True
                    yield self._expand(piece)
                else:
                    yield item  # type: ignore[misc]
            if not keep:
                yield _blank_piece(piece)
            if self.notes:
                yield from self.notes
                self.notes = []

    def _line(self, text: str) -> list[object]:
        """What one line is: a list of Segments, Notes and `_KEEP` (the line is SQL to keep)."""
        if self.ignoring is not None:
            if self.ignoring > 0:
                self.ignoring -= 1
                if self.ignoring == 0:
                    self.ignoring = None
                return []
            match = _IGNORE_LINES.match(text.lstrip(" \t\f\v"))
            if match is not None and match.group(1).lower() == "end":
                self.ignoring = None
            return []
        if self.rollback:
            if _BLOCK_END.match(text.rstrip("\r\n")):
                self.rollback = False
            return []
        stripped = text.rstrip("\r\n")
        directive = _DIRECTIVE.match(stripped)
        if directive is not None:
            return self._directive(directive.group(1).lower(), stripped)
        if self.in_changeset and _ROLLBACK_BLOCK.match(stripped):
            self.rollback = not _BLOCK_END.match(stripped[stripped.lower().find("rollback") :])
            return []
        if not self.in_changeset:
            if not self.outside_reported and stripped.strip() and not stripped.lstrip().startswith(("--", "#", "/*")):
                self.outside_reported = True
                return [Note(self.line, 1, "SQL outside any changeset: Liquibase does not run it (a formatted SQL file "
                             "runs only what follows a `--changeset author:id` line)", "parse-error", "warning")]
            return []
        return [_KEEP] if self.running else []

    def _directive(self, word: str, text: str) -> list[object]:
        if self.line == 1 and word == "liquibase" or FIRST_LINE.match(text) and not self.in_changeset:
            return []
        if word.startswith("ignorelines") or word == "ignore" and _IGNORE_LINES.match(text.lstrip(" \t\f\v")):
            match = _IGNORE_LINES.match(text.lstrip(" \t\f\v"))
            value = match.group(1).lower() if match is not None else ""
            if value == "start":
                self.ignoring = -1
            elif value.isdigit() and int(value) > 0:
                self.ignoring = int(value)
            else:
                return [Note(self.line, 1, f"--ignoreLines:{value}: Liquibase knows only start, end and a number; it "
                             "rejects this changelog", "parse-error", "warning")]
            return []
        if word == "changeset":
            return self._changeset(text)
        if word == "property":
            name, value = _PROPERTY_NAME.search(text), _PROPERTY_VALUE.search(text)
            if name is not None and value is not None and dbms_runs(_attribute(text, "dbms"), self.target):
                self.properties.setdefault(name.group(1), value.group(1))  # the first definition holds
            return []
        if not self.in_changeset:
            return []  # a comment before the first changeset: Liquibase ignores it
        if word == "rollback" or word.startswith("precondition") or word in _METADATA:
            if word == "preconditions":
                on_fail = _attribute(text, "onFail") or "HALT"
                on_error = _attribute(text, "onError") or "HALT"
                if self.running and (on_fail.lower() in _SKIPPING or on_error.lower() in _SKIPPING):
                    return [Note(self.line, 1, f"a precondition may skip this changeset (onFail:{on_fail}, "
                                 f"onError:{on_error}): innolint replays it as on a new database where it holds",
                                 "replay-error", "info")]
            return []
        return [_KEEP] if self.running else []  # an ordinary comment inside a changeset

    def _changeset(self, text: str) -> list[object]:
        match = _CHANGESET.match(text)
        out: list[object] = []
        if match is None:
            self.in_changeset = True
            self.running = False
            return [Note(self.line, 1, "a --changeset line without `author:id`: Liquibase rejects this changelog; "
                         "innolint skips this changeset", "parse-error", "warning"), Segment("packet", ";", (), "changeset")]
        rest = self._expand(match.group(3))
        self.in_changeset = True
        self.rollback = False
        ignore = (_attribute(rest, "ignore") or "").lower() == "true"
        dbms = _attribute(rest, "dbms")
        self.running = not ignore and dbms_runs(dbms, self.target)
        segment, notes = split_settings(_attribute(rest, "splitStatements"), _attribute(rest, "endDelimiter"), self.line)
        if not self.running and not ignore and dbms is not None:
            notes.append(skip_note(self.line, "changeset " + match.group(1).strip('"') + ":" + match.group(2).strip('"'),
                                    dbms, self.target))
        out.append(segment._replace(notes=tuple(notes)))
        return out

    def _expand(self, text: str) -> str:
        """`${name}` replaced by the file's `--property` of that name; an unknown one is reported once."""
        if "${" not in text:
            return text

        def value(match: re.Match[str]) -> str:
            name = match.group(1)
            found = self.properties.get(name)
            if found is None:
                if name not in self.unknown:
                    self.unknown.add(name)
                    self.notes.append(Note(self.line, match.start() + 1, f"${{{name}}} is a Liquibase property set outside "
                                            "this file (liquibase.properties, the command line): innolint reads it as "
                                            "written", "parse-error", "info"))
                return match.group(0)
            return found

        return EXPRESSION.sub(value, text)


_KEEP = object()


def _blank_piece(piece: str) -> str:
    """A line (or a piece of one) that is not SQL: its line breaks only, so lines keep their numbers."""
    return "\n" * piece.count("\n")
