"""Liquibase: formatted SQL files and XML, YAML and JSON changelogs, read as Liquibase reads them.

A Liquibase history is a root changelog and what it reaches: `include` (one file),
`includeAll` (a directory, every changelog file below it in alphabetical order of the path, as
Liquibase sorts them), and in a changeset `sqlFile` (a SQL file run with the change's settings)
and `sql` (SQL written in the changelog itself). A `.sql` file that starts with
`--liquibase formatted sql` is a changelog of its own, read line by line as Liquibase's parser
reads it; any other `.sql` file reached this way is one changeset of raw SQL.

Formatted SQL (`read_chunks`): `--changeset author:id attributes` starts a changeset, which is
read on its own (a statement left open ends there: `linter.input.split.Segment`); its statements are
split at `;` except inside a compound statement (Liquibase's splitter skips BEGIN ... END), at
`endDelimiter:X` when given, or not at all with `splitStatements:false`. `--rollback ...` lines
and `/* liquibase rollback ... */` blocks are skipped (as goose Down sections are), and so are
the metadata lines (`--comment`, `--validCheckSum`, `--preconditions`, `--precondition-...`,
`--property`, `--ignoreLines:start` to `--ignoreLines:end`, `--ignoreLines:N`). Text outside any
changeset is not run by Liquibase, and is reported when it holds SQL. `${name}` is replaced by a
`--property` of the file; an unknown one is reported. Attributes: `dbms:` filters run only on
the servers they name (Liquibase calls MySQL `mysql` and MariaDB `mariadb`: a changeset for
`dbms:mysql` does not run on MariaDB); a changeset skipped for the target is reported where it
starts. `ignore:true` changesets are skipped, as Liquibase skips them; `context:` and `labels:`
are chosen when Liquibase runs, and with none given it runs every changeset, so every one is
replayed. `runOnChange` and `runAlways` change nothing on a new database. A changeset guarded by
a precondition that may skip it (`onFail:MARK_RAN`, `CONTINUE`, `WARN`) is replayed as on a new
database where it holds, and said so.

Changelogs (`Changelog`, `Walker`): XML through expat with every DOCTYPE and entity declaration
refused (no external entity, no entity expansion) and line numbers kept; YAML and JSON through
PyYAML's safe composer, whose aliases are walked under a node budget (an alias bomb stops there).
Every file is read only inside the tree (`keep`, from `linter.input.file_access`), up to
`CHANGELOG_CAP` bytes; a cycle of includes is reported once and not followed; a missing file is
reported at the include. Change types other than `sql` and `sqlFile` (createTable, addColumn
...) are SQL that Liquibase writes itself: innolint does not read them, and says so at their
changeset.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from linter.input.migrations.history import HistoryNote
from linter.input.split import Note, Segment
from linter.schema.target import Target

#: changelog files by their suffix (what includeAll takes besides .sql)
CHANGELOG_SUFFIXES = (".xml", ".yaml", ".yml", ".json")
#: the most bytes of one changelog innolint reads
CHANGELOG_CAP = 8 << 20
#: how much of a line is looked at for a directive (a longer line is SQL, or a directive whose
#: attributes past this are not read)
_LINE_HEAD = 1 << 16
#: how many nodes of one changelog (XML elements, YAML nodes walked) are read
_NODE_BUDGET = 200_000
#: how many files one history reaches at most
_MEMBER_BUDGET = 20_000
#: how many levels of includes are followed
_DEPTH = 64

_FIRST_LINE = re.compile(r"[ \t\f\v]*--[ \t\f\v]*liquibase[ \t\f\v]*formatted", re.IGNORECASE)
#: a line that may be a directive: `--` then a word (Liquibase's patterns allow blanks on both sides)
_DIRECTIVE = re.compile(r"[ \t\f\v]*--[ \t\f\v]*([A-Za-z][A-Za-z-]*)", re.IGNORECASE)
_CHANGESET = re.compile(r'[ \t\f\v]*--[ \t\f\v]*changeset[ \t\f\v]+("[^"]+"|[^:"\s][^:]*):[ \t\f\v]*("[^"]+"|\S+)(.*)',
                        re.IGNORECASE | re.DOTALL)
_ROLLBACK_BLOCK = re.compile(r"[ \t\f\v]*/\*[ \t\f\v]*liquibase[ \t\f\v]*rollback[ \t\f\v]*$", re.IGNORECASE)
_BLOCK_END = re.compile(r".*\*/[ \t\f\v]*$", re.DOTALL)
_IGNORE_LINES = re.compile(r"--[ \t\f\v]*ignoreLines:(\w+)", re.IGNORECASE)
_PROPERTY_NAME = re.compile(r"\bname:[ \t]*(\S+)", re.IGNORECASE)
_PROPERTY_VALUE = re.compile(r"\bvalue:[ \t]*(\S+)", re.IGNORECASE)
_EXPRESSION = re.compile(r"\$\{([^{}\s]{1,200})\}")
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


def _skip_note(line: int, what: str, spec: str, target: Target | None) -> Note:
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


# --- formatted SQL ------------------------------------------------------------------------------


def is_formatted_sql(head: str) -> bool:
    """Whether a file's text starts (after blank lines) with `--liquibase formatted sql`."""
    for line in head.split("\n", 64)[:64]:
        if line.strip(" \t\r\f\v\ufeff"):
            return _FIRST_LINE.match(line.lstrip("\ufeff")) is not None
    return False


def _line_pieces(chunks: Iterable[str]) -> Iterator[tuple[str, bool]]:
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


class _Formatted:
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
        if self.line == 1 and word == "liquibase" or _FIRST_LINE.match(text) and not self.in_changeset:
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
            notes.append(_skip_note(self.line, "changeset " + match.group(1).strip('"') + ":" + match.group(2).strip('"'),
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

        return _EXPRESSION.sub(value, text)


_KEEP = object()


def _blank_piece(piece: str) -> str:
    """A line (or a piece of one) that is not SQL: its line breaks only, so lines keep their numbers."""
    return "\n" * piece.count("\n")


def read_chunks(chunks: Iterable[str], path: str, *, target: Target | None = None,
                segment: Segment | None = None) -> Iterator[str | Segment | Note]:
    """The text of a file of a Liquibase history as the splitter should read it (`linter.input.split`):
    a formatted SQL file by its directives, a changelog by the SQL written in it, any other SQL
    file as one changeset (split as `segment` says: the settings of the `sqlFile` change that
    runs it, else Liquibase's default)."""
    properties = parameters(segment.properties if segment is not None else (), target)
    if path.lower().endswith(CHANGELOG_SUFFIXES):
        yield from _changelog_chunks(chunks, path, target, properties)
        return
    pieces = _line_pieces(chunks)
    held: list[tuple[str, bool]] = []
    formatted = None
    for piece, first in pieces:
        held.append((piece, first))
        if first and piece.strip(" \t\r\n\f\v\ufeff"):
            formatted = _FIRST_LINE.match(piece.lstrip("\ufeff")) is not None
            break
    if segment is not None and not all(dbms_runs(spec, target) for spec in segment.dbms):
        spec = next(spec for spec in segment.dbms if not dbms_runs(spec, target))
        yield _skip_note(1, "this file, run by a sqlFile change", spec, target)
        for _ in pieces:
            pass
        return
    if not formatted:
        yield segment if segment is not None else Segment("packet", ";", (), "file")
        for piece, _ in held:
            yield piece
        for piece, _ in pieces:
            yield piece
        return
    import itertools

    yield from _Formatted(path, target, properties).read(itertools.chain(held, pieces))


# --- changelogs --------------------------------------------------------------------------------


class ChangelogError(Exception):
    """A changelog that cannot be read (refused DOCTYPE, malformed, over the cap, over budget)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


class Node:
    """One element of a changelog (an XML element, a YAML mapping entry), with its place."""

    __slots__ = ("tag", "attrs", "line", "column", "children", "text")

    def __init__(self, tag: str, line: int, column: int, attrs: dict[str, str] | None = None) -> None:
        self.tag = tag
        self.attrs: dict[str, str] = attrs or {}
        self.line = line
        self.column = column
        self.children: list[Node] = []
        #: the element's own text as (line, column, text) pieces, in order (the SQL of a `sql` change)
        self.text: list[tuple[int, int, str]] = []

    def attr(self, name: str) -> str | None:
        """An attribute by name, in any case (`relativeToChangelogFile`, `relativetochangelogfile`)."""
        found = self.attrs.get(name)
        if found is None:
            lowered = name.lower()
            found = next((v for k, v in self.attrs.items() if k.lower() == lowered), None)
        return found

    def flag(self, name: str) -> bool:
        return (self.attr(name) or "").strip().lower() == "true"

    def sql_text(self) -> str:
        return "".join(piece for _, _, piece in self.text)


def _local(name: str) -> str:
    """An XML name without its namespace (expat reports `uri name` with namespaces off: `ns:tag`)."""
    return name.rsplit(":", 1)[-1].rsplit(" ", 1)[-1]


def parse_xml(data: bytes | str) -> Node:
    """The element tree of an XML changelog, with line numbers. A DOCTYPE or an entity
    declaration is refused before anything is expanded; no external entity is ever read."""
    import xml.parsers.expat

    parser = xml.parsers.expat.ParserCreate()
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    root = Node("#document", 1, 1)
    stack = [root]
    count = [0]

    def refuse(*_: object) -> None:
        raise ChangelogError("a DOCTYPE or entity declaration: innolint does not read those (no external entities, "
                             "no entity expansion)", parser.CurrentLineNumber)

    def start(name: str, attrs: dict[str, str]) -> None:
        count[0] += 1
        if count[0] > _NODE_BUDGET:
            raise ChangelogError(f"more than {_NODE_BUDGET:,} elements", parser.CurrentLineNumber)
        node = Node(_local(name), parser.CurrentLineNumber, parser.CurrentColumnNumber + 1,
                    {_local(k): v for k, v in attrs.items()})
        stack[-1].children.append(node)
        stack.append(node)

    def end(name: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        stack[-1].text.append((parser.CurrentLineNumber, parser.CurrentColumnNumber + 1, data))

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as error:
        raise ChangelogError(f"not well-formed XML: {xml.parsers.expat.ErrorString(error.code)}", error.lineno) from None
    except RecursionError:
        raise ChangelogError("nested too deeply") from None
    return root


def parse_yaml(text: str) -> Node:
    """The tree of a YAML or JSON changelog, with line numbers: PyYAML's safe composer (nothing is
    constructed), walked under `_NODE_BUDGET` (an alias is walked again each time it is used, so
    the budget stops an alias bomb)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        document = yaml.compose(text, Loader=loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise ChangelogError(f"not valid YAML: {getattr(error, 'problem', None) or error}",
                             mark.line + 1 if mark is not None else 0) from None
    except RecursionError:
        raise ChangelogError("nested too deeply") from None
    root = Node("#document", 1, 1)
    if document is None:
        return root
    budget = [_NODE_BUDGET]
    lines = text.split("\n")
    _yaml_into(root, document, budget, lines, 0)
    return root


def _scalar(node: Any) -> str | None:
    import yaml

    return node.value if isinstance(node, yaml.ScalarNode) else None


def _yaml_into(parent: Node, node: Any, budget: list[int], lines: list[str], depth: int) -> None:
    """Add the entries of a YAML mapping (or a list of one-key mappings) under `parent`."""
    import yaml

    budget[0] -= 1
    if budget[0] < 0:
        raise ChangelogError(f"more than {_NODE_BUDGET:,} nodes (aliases included)", node.start_mark.line + 1)
    if depth > 200:
        raise ChangelogError("nested too deeply", node.start_mark.line + 1)
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _yaml_into(parent, item, budget, lines, depth + 1)
        return
    if not isinstance(node, yaml.MappingNode):
        return
    for key_node, value in node.value:
        budget[0] -= 1
        if budget[0] < 0:
            raise ChangelogError(f"more than {_NODE_BUDGET:,} nodes (aliases included)", key_node.start_mark.line + 1)
        key = _scalar(key_node)
        if key is None:
            continue
        scalar = _scalar(value)
        if scalar is not None:
            parent.attrs[key] = scalar
            if key == "sql" and parent.tag == "sql":
                parent.text = [_yaml_text(value, lines)]
            continue
        child = Node(key, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        parent.children.append(child)
        # a mapping's entries, or a list of one-key mappings (`changes: [- sql: {...}]`): elements of their own
        _yaml_into(child, value, budget, lines, depth + 1)


def _yaml_text(node: Any, lines: list[str]) -> tuple[int, int, str]:
    """A scalar's text and where it starts in the file: a block scalar (`|`, `>`) on the line after
    its indicator, at its indentation; a quoted one after its quote."""
    line = node.start_mark.line + 1
    column = node.start_mark.column + 1
    if node.style in ("|", ">"):
        line += 1
        row = lines[line - 1] if line - 1 < len(lines) else ""
        column = len(row) - len(row.lstrip(" ")) + 1
    elif node.style in ("'", '"'):
        column += 1
    return line, column, node.value


class Change(NamedTuple):
    """What a changeset's change asks for, as far as innolint reads it."""

    kind: str  # "sql", "sqlFile", or the change type's name
    node: Node


class Changelog:
    """One changelog file read: its entries in order (include, includeAll, changeSet,
    property), and why it could not be read, if so."""

    def __init__(self, path: str, root: Node | None, error: ChangelogError | None = None) -> None:
        self.path = path
        self.error = error
        self.entries: list[Node] = []
        if root is not None:
            top = next((c for c in root.children if c.tag == "databaseChangeLog"), None)
            if top is not None:
                self.entries = top.children

    @property
    def properties(self) -> dict[str, str]:
        return {n.attr("name") or "": n.attr("value") or "" for n in self.entries if n.tag == "property"}


def read_changelog(path: str, data: bytes | str) -> Changelog:
    """Parse a changelog's bytes (or text) by its suffix; errors are kept on the result. JSON
    goes through the YAML composer too (for its line numbers), and through `json` when the
    composer refuses it (a tab YAML does not allow), without line numbers then."""
    try:
        if path.lower().endswith(".xml"):
            return Changelog(path, parse_xml(data))
        text = data.decode("utf-8-sig", "replace") if isinstance(data, bytes) else data.lstrip("\ufeff")
        try:
            return Changelog(path, parse_yaml(text))
        except ChangelogError:
            if not path.lower().endswith(".json"):
                raise
            return Changelog(path, _parse_json(text))
    except ChangelogError as error:
        return Changelog(path, None, error)


def _parse_json(text: str) -> Node:
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ChangelogError(f"not valid JSON: {error}") from None
    root = Node("#document", 1, 1)
    budget = [_NODE_BUDGET]

    def into(parent: Node, value: object, depth: int) -> None:
        budget[0] -= 1
        if budget[0] < 0 or depth > 200:
            raise ChangelogError("too many or too deeply nested values")
        if isinstance(value, list):
            for item in value:
                into(parent, item, depth + 1)
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, (dict, list)):
                    child = Node(str(key), 1, 1)
                    parent.children.append(child)
                    into(child, item, depth + 1)
                else:
                    parent.attrs[str(key)] = "true" if item is True else "false" if item is False else str(item)
                    if key == "sql" and parent.tag == "sql":
                        parent.text = [(1, 1, str(item))]

    into(root, data, 0)
    return root


def looks_like_changelog(head: bytes) -> bool:
    """Whether a file's first bytes name Liquibase's root element."""
    return b"databaseChangeLog" in head


def changes_of(changeset: Node) -> list[Change]:
    """The changes of a changeSet element, in order (YAML puts them under `changes`)."""
    found: list[Change] = []
    for child in changeset.children:
        if child.tag == "changes":
            found.extend(Change(c.tag, c) for c in child.children)
        elif child.tag not in ("comment", "preConditions", "rollback", "validCheckSum", "modifySql"):
            found.append(Change(child.tag, child))
    return found


def _changelog_chunks(chunks: Iterable[str], path: str, target: Target | None,
                      properties: dict[str, str]) -> Iterator[str | Segment | Note]:
    """The SQL of a changelog, each piece where it stands in the file: `sql` changes as written,
    the change types that shape tables as the MySQL DDL Liquibase runs for them
    (`linter.input.migrations.liquibase_changes`), each on its change's line; and notes on what is not read
    (other change types, changesets not run on the target, changes MySQL refuses)."""
    from linter.input.migrations.liquibase_changes import NO_TABLE_EFFECT, render

    text = "".join(chunks)
    changelog = read_changelog(path, text)
    if changelog.error is not None:
        yield Note(max(changelog.error.line, 1), 1, f"Liquibase changelog not read: {changelog.error}", "parse-error",
                   "warning")
        return
    properties = dict(properties)

    def expand(value: str) -> str:
        return _EXPRESSION.sub(lambda m: properties.get(m.group(1), m.group(0)), value) if "${" in value else value

    place = _Place()
    for entry in changelog.entries:
        if entry.tag == "property":
            if entry.attr("name") and dbms_runs(entry.attr("dbms"), target):
                properties.setdefault(entry.attr("name") or "", expand(entry.attr("value") or ""))
            continue
        if entry.tag != "changeSet" or entry.flag("ignore"):
            continue
        label = f"changeset {entry.attr('author') or '?'}:{entry.attr('id') or '?'}"
        changes = changes_of(entry)
        if not dbms_runs(entry.attr("dbms"), target):
            if any(c.kind != "sqlFile" for c in changes):  # a sqlFile's own reading says it there
                yield _skip_note(entry.line, label, entry.attr("dbms") or "", target)
            continue
        unread = []
        for change in changes:
            node = change.node
            if change.kind == "sqlFile" or (change.kind in NO_TABLE_EFFECT and change.kind != "sql"):
                continue
            if not dbms_runs(node.attr("dbms"), target):
                yield _skip_note(node.line, f"{label}: {change.kind} change", node.attr("dbms") or "", target)
                continue
            if change.kind == "sql":
                if not node.text:
                    continue
                segment, notes = split_settings(node.attr("splitStatements"), node.attr("endDelimiter"), node.line)
                yield from place.piece(segment._replace(notes=tuple(notes)),
                                       [(line, column, expand(piece)) for line, column, piece in node.text])
                continue
            rendered = render(change.kind, node, expand)
            if rendered is None:
                unread.append(change.kind)
            elif rendered.problem is not None:
                yield Note(node.line, node.column, f"{label}: {rendered.problem}; innolint does not replay it",
                           "parse-error", "warning")
            else:
                statements = "; ".join(rendered.statements) + ";"
                yield from place.piece(Segment("packet", ";", (), "change"), [(node.line, node.column, statements)])
        if unread:
            yield Note(entry.line, entry.column, f"{label}: Liquibase change type{'s' if len(unread) > 1 else ''} "
                       f"{', '.join(sorted(set(unread)))} not read by innolint: the tables it creates or changes are "
                       "unknown from here on", "parse-error", "warning")


class _Place:
    """Where the text given to the splitter stands, so that each piece goes at its line and column
    (never backwards: a piece on a line already passed follows where the text stands)."""

    def __init__(self) -> None:
        self.line, self.column = 1, 1

    def piece(self, segment: Segment, pieces: list[tuple[int, int, str]]) -> Iterator[str | Segment]:
        if self.column != 1:
            yield "\n"
            self.line, self.column = self.line + 1, 1
        yield segment
        for line, column, text in pieces:
            if line > self.line:
                yield "\n" * (line - self.line)
                self.line, self.column = line, 1
            if line == self.line and column > self.column:
                yield " " * (column - self.column)
                self.column = column
            yield text
            breaks = text.count("\n")
            if breaks:
                self.line += breaks
                self.column = len(text) - text.rfind("\n")
            else:
                self.column += len(text)


# --- a history ----------------------------------------------------------------------------------


class Member(NamedTuple):
    """A file of a history in the order Liquibase runs it, and how it is split (a `sqlFile`
    change's settings; None: its own directives or Liquibase's default)."""

    path: str
    segment: Segment | None


class Reach:
    """What a root changelog reaches, in order: `members` (SQL files and changelogs holding SQL),
    `notes` on the history, and every changelog file read (`changelogs`)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.members: list[Member] = []
        self.notes: list[HistoryNote] = []
        self.changelogs: list[str] = []


def _read_bytes(path: str, cap: int = CHANGELOG_CAP) -> bytes:
    from linter.input.file_access import read_capped

    return read_capped(path, cap, "changelog")


class Walker:
    """Follows a root changelog's includes (see the module docstring). `keep(path)` says whether
    a file may be read (inside the tree, not excluded by the configuration); `search` are the
    directories a path that is not relative to its changelog is looked up in (the classpath:
    the root changelog's directory and those above it, nearest first); `target` decides `dbms`."""

    def __init__(self, keep: Callable[[str], bool], read: Callable[[str], bytes] = _read_bytes) -> None:
        self.keep = keep
        self.read = read
        self._parsed: dict[str, Changelog] = {}

    def changelog(self, path: str) -> Changelog:
        real = os.path.realpath(path)
        found = self._parsed.get(real)
        if found is None:
            try:
                found = read_changelog(path, self.read(path))
            except Exception as error:  # FileRefused, OSError: reported by the caller
                found = Changelog(path, None, ChangelogError(str(error)))
            self._parsed[real] = found
        return found

    #: where paths not relative to their changelog are looked up (set by `history`)
    search: list[str] = []

    def history(self, root: str, search: list[str]) -> Reach:
        history = Reach(root)
        self._seen: set[str] = set()
        self._properties: list[tuple[str, str, str | None]] = []
        self.search = search
        self._follow(history, root, [])
        return history

    # -- following ---------------------------------------------------------------------------------
    def _follow(self, history: Reach, path: str, chain: list[str]) -> None:
        real = os.path.realpath(path)
        if real in chain:
            names = " -> ".join(os.path.basename(p) for p in [*chain[chain.index(real):], real])
            history.notes.append(HistoryNote(path, 1, f"include cycle ({names}): Liquibase fails on it; innolint does "
                                             "not follow it again"))
            return
        if len(chain) > _DEPTH or len(history.members) > _MEMBER_BUDGET:
            history.notes.append(HistoryNote(path, 1, "includes nested too deeply or too many files: not followed"))
            return
        if not path.lower().endswith(CHANGELOG_SUFFIXES):
            self._member(history, path, None)
            return
        changelog = self.changelog(path)
        history.changelogs.append(path)
        if changelog.error is not None:
            history.notes.append(HistoryNote(path, max(changelog.error.line, 1),
                                             f"Liquibase changelog not read: {changelog.error}"))
            return
        chain = [*chain, real]
        # changelog parameters: known to what is read after them (the first definition holds)
        self._properties.extend((n.attr("name") or "", n.attr("value") or "", n.attr("dbms"))
                                for n in changelog.entries if n.tag == "property")
        placed = False  # this changelog's own SQL placed in the order
        pending_include = False  # an include followed the changeset that placed it
        for entry in changelog.entries:
            if entry.tag == "include":
                target = self.resolve(path, entry.attr("file") or "", entry.flag("relativeToChangelogFile"))
                pending_include = pending_include or placed
                if target is None:
                    self._missing(history, path, entry, entry.attr("file") or "")
                elif self.keep(target):
                    self._follow(history, target, chain)
                else:
                    history.notes.append(HistoryNote(path, entry.line, f"include {entry.attr('file')!r} is outside the "
                                                     "tree innolint lints: not read"))
            elif entry.tag == "includeAll":
                pending_include = pending_include or placed
                self._include_all(history, path, entry, chain)
            elif entry.tag == "changeSet":
                if entry.flag("ignore"):
                    continue
                for change in changes_of(entry):
                    if change.kind == "sqlFile":
                        pending_include = pending_include or placed
                        self._sql_file(history, path, entry, change.node)
                    elif change.kind != "comment":
                        if not placed:
                            self._member(history, path, None)
                            placed = True
                        elif pending_include:
                            history.notes.append(HistoryNote(path, entry.line, "this changeset runs after files "
                                                             "included above it, but innolint replays every changeset "
                                                             "written in this changelog where its first one stands",
                                                             "replay-error", "info"))
                            pending_include = False

    def _member(self, history: Reach, path: str, segment: Segment | None) -> None:
        real = os.path.realpath(path)
        if real in self._seen:
            return  # Liquibase runs a changeset once (its id, author and file are recorded)
        self._seen.add(real)
        if self._properties:
            segment = (segment or Segment("packet", ";", (), "file"))._replace(properties=tuple(self._properties))
        history.members.append(Member(path, segment))

    def _missing(self, history: Reach, path: str, entry: Node, name: str) -> None:
        history.notes.append(HistoryNote(path, entry.line, f"{entry.tag} {name!r}: no such file (Liquibase fails here)"))

    def resolve(self, changelog: str, name: str, relative: bool) -> str | None:
        """The file an include names: next to the changelog with relativeToChangelogFile, else on
        the search path (the classpath), else next to the changelog."""
        name = name.strip()
        if not name or "\0" in name:
            return None
        for prefix in ("classpath*:", "classpath:", "file:"):
            if name.lower().startswith(prefix):
                name = name[len(prefix) :]
        name = name.replace("\\", "/")
        bases = [os.path.dirname(changelog)] if relative else [*self.search, os.path.dirname(changelog)]
        for base in bases:
            candidate = os.path.normpath(os.path.join(base, name.lstrip("/")))
            if os.path.exists(candidate):
                return candidate
        return None

    def _include_all(self, history: Reach, path: str, entry: Node, chain: list[str]) -> None:
        name = entry.attr("path") or ""
        directory = self.resolve(path, name, entry.flag("relativeToChangelogFile"))
        if directory is None or not os.path.isdir(directory):
            if (entry.attr("errorIfMissingOrEmpty") or "true").lower() != "false":
                self._missing(history, path, entry, name)
            return
        if not self.keep(directory):
            history.notes.append(HistoryNote(path, entry.line, f"includeAll {name!r} is outside the tree innolint "
                                             "lints: not read"))
            return
        ending = (entry.attr("endsWithFilter") or "").lower()
        found = []
        for parent, dirs, files in os.walk(directory):
            dirs.sort()
            for file in files:
                lower = file.lower()
                if lower.endswith((".sql", *CHANGELOG_SUFFIXES)) and lower.endswith(ending):
                    found.append(os.path.join(parent, file))
            if len(found) > _MEMBER_BUDGET:
                break
        # Liquibase sorts what includeAll finds by its path, as a string
        for file in sorted(found, key=lambda p: os.path.relpath(p, directory).replace(os.sep, "/")):
            if os.path.realpath(file) == chain[-1] if chain else False:
                continue  # the changelog that includes the directory it lies in is not included again
            if self.keep(file):
                self._follow(history, file, chain)

    def _sql_file(self, history: Reach, path: str, changeset: Node, node: Node) -> None:
        name = node.attr("path") or ""
        target = self.resolve(path, name, node.flag("relativeToChangelogFile"))
        if target is None:
            self._missing(history, path, node, name)
            return
        if not self.keep(target):
            history.notes.append(HistoryNote(path, node.line, f"sqlFile {name!r} is outside the tree innolint lints: "
                                             "not read"))
            return
        segment, notes = split_settings(node.attr("splitStatements"), node.attr("endDelimiter"), 1, "file")
        for item in notes:
            history.notes.append(HistoryNote(path, node.line, item.message, item.rule, item.severity))
        filters = tuple(spec for spec in (changeset.attr("dbms"), node.attr("dbms")) if spec is not None)
        self._member(history, target, segment._replace(dbms=filters))


def find_roots(candidates: list[str], walker: Walker) -> list[str]:
    """Of the changelog files in `candidates`, those no other candidate includes (the roots)."""
    included: set[str] = set()
    for path in candidates:
        history = walker.history(path, [os.path.dirname(path)])
        included.update(os.path.realpath(p) for p in history.changelogs[1:])
        included.update(os.path.realpath(m.path) for m in history.members if m.path.lower().endswith(CHANGELOG_SUFFIXES)
                        and os.path.realpath(m.path) != os.path.realpath(path))
    return [p for p in candidates if os.path.realpath(p) not in included]
