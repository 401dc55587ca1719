"""Liquibase changelogs as data: XML through expat with every DOCTYPE and entity declaration
refused, YAML and JSON through PyYAML's safe composer under a node budget, into one tree of
`Node`s with line numbers; the changesets and changes in them (`Changelog`, `changes_of`). What
the changes do is `changes`; which files a history reaches is `walker.Walker`."""

from __future__ import annotations

from typing import Any, NamedTuple


#: changelog files by their suffix (what includeAll takes besides .sql)
CHANGELOG_SUFFIXES = (".xml", ".yaml", ".yml", ".json")
#: how many nodes of one changelog (XML elements, YAML nodes walked) are read
_NODE_BUDGET = 200_000


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
