"""Fixes for a table the change itself creates: the corrected CREATE TABLE, not an ALTER after it.

A rule's fix is written for a table that exists (ALTER TABLE ...). When the change being linted
(`--since`, pre-commit, the PR check) creates the table, no database has it yet: the fix belongs
in the CREATE TABLE itself, and for a CREATE the target refuses (a zero-date default on MySQL 8)
an ALTER afterwards never runs at all, the table never being created. So, with a change set, the
fix of a finding on a table whose CREATE TABLE is part of the change, and which no later
statement changes, becomes that CREATE TABLE with the fix applied.

How it is made, and when it is not: the table as the model holds it is written as a CREATE TABLE
(`linter.fix_sql.create_statement`), replayed, and the fix's ALTERs of that table replayed
after it in a scratch model; the table they leave is written again. Nothing of the statement as
written may be missing from what the model writes (every keyword, name, number and string of it:
an index's COMMENT or USING, a CHECK, a partition's options the model does not keep), and the
replayed table must be the model's: else the fix stays the ALTER, preceded by a comment saying the
table is new and the ALTER's actions belong in its CREATE TABLE. A fix with statements of other
kinds (a CREATE TABLESPACE) stays as it is; UPDATE and OPTIMIZE of the new table are left out (it
has no rows). Cost: per such finding, its one table (a change creates few).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import TYPE_CHECKING

from linter.report import human
from linter.rules import fix_sql
from linter.parse.elements import Location

if TYPE_CHECKING:
    from linter.rules.checkapi import CheckContext
    from linter.rules.findings import Finding
    from linter.schema.model import SchemaModel, Table
    from linter.schema.target import Target

#: the tokens compared between the statement as written and as the model writes it: strings,
#: quoted names, words and numbers
_TOKEN = re.compile(r"'(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.|\"\")*\"|`(?:[^`]|``)*`|[A-Za-z_$][\w$]*|\d+(?:\.\d+)?")
#: words the model writes otherwise (synonyms)
_SAME = {"INDEX": "KEY", "CHARSET": "CHARACTER", "INTEGER": "INT", "NUMERIC": "DECIMAL", "DEC": "DECIMAL",
         "FIXED": "DECIMAL", "BOOL": "TINYINT", "BOOLEAN": "TINYINT", "KEYS": "KEY"}
#: words the model adds or leaves out without changing the table
_OPTIONAL = frozenset({"TABLE", "CREATE", "CONSTRAINT", "COLUMN", "DEFAULT", "NULL", "SET", "CHARACTER"})
#: the corrected CREATE TABLEs written per table (each is the whole table); past them a finding's
#: fix names the actions to put in it, so the fixes' text stays linear in the findings
_WHOLE = 32


#: what the first line of a fix made here says (`is_corrected`)
CREATED_BY_CHANGE = "is created by this change"


def is_corrected(fix: str | None) -> bool:
    """Whether a fix is one made here for a table the change creates."""
    return bool(fix) and fix.startswith("-- ") and CREATED_BY_CHANGE in fix.split("\n", 1)[0]  # type: ignore[union-attr]


def corrected(findings: list[Finding], model: SchemaModel, context: CheckContext) -> list[Finding]:
    """The findings, each one's fix made the corrected CREATE TABLE where its table is created by
    the change (see the module docstring); the others as they were."""
    if context.changed is None:
        return findings
    made: dict[tuple[str, str], tuple[str | None, str]] = {}  # table key -> (written CREATE or None, why not)
    written: Counter[int] = Counter()  # id(table) -> corrected CREATEs written for it
    files = _Files()
    found = []
    for finding in findings:
        table = _created_by_change(finding, model, context)
        if table is None:
            found.append(finding)
            continue
        written[id(table)] += 1
        fix = _fix_for(finding, table, context.target, made, files, whole=written[id(table)] <= _WHOLE)
        found.append(finding if fix is None else finding.replace(fix=fix))
    return found


def _created_by_change(finding: Finding, model: SchemaModel, context: CheckContext) -> Table | None:
    if not finding.fix or not finding.table or finding.count > 1:
        return None
    table = model.find_table(finding.schema, finding.table)
    if table is None or table.origin != "create" or table.temporary or table.changed != table.defined:
        return None  # (changed since its CREATE: a corrected CREATE would do the later statements twice)
    defined = table.defined
    return table if context.in_change(defined) and defined.path != "-" else None


def _fix_for(finding: Finding, table: Table, target: Target, made: dict[tuple[str, str], tuple[str | None, str]],
             files: _Files, *, whole: bool) -> str | None:
    """The finding's fix for its new table: the corrected CREATE TABLE (`whole`), else the
    actions to put in it; None: left as it is."""
    statements = fix_sql.statements_of(finding.fix or "")
    name = ((table.schema or "").lower(), table.name.lower())
    alters = []
    for statement in statements:
        word = statement.split(None, 1)[0].upper() if statement.split() else ""
        if word not in ("ALTER", "UPDATE", "OPTIMIZE"):
            return None  # a statement of another kind (a tablespace's): left as it is
        key = _updated(statement) if word == "UPDATE" else fix_sql.changed_table(statement)
        if key is None or key[1] != name[1] or key[0] not in ("", name[0]):
            return None  # about another table: left as it is
        if word == "ALTER":
            alters.append(statement)
    if not alters:
        return None
    where = f"{human(os.path.basename(table.defined.path))}:{table.defined.line}"
    head = f"-- {human(table.name)} {CREATED_BY_CHANGE} ({where}):"
    written = _written(table, target, made, name, files) if whole else None
    if written is None:
        return (f"{head} its fix belongs in that CREATE TABLE (no database has the table yet); "
                f"{'innolint cannot write the whole statement here' if whole else 'for a table of this many findings'}, "
                "these are the actions to put in it:\n"
                + "\n".join(fix_sql.terminated(a) for a in alters))
    after = _replayed([written, *alters], table, target)
    if after is None:
        return None
    fixed = fix_sql.create_statement(after, target)
    if fixed is None:
        return None
    return f"{head} write its CREATE TABLE so, instead of altering the table afterwards:\n{fixed}"


def _updated(statement: str) -> tuple[str, str] | None:
    """The table an UPDATE of one table writes to, as (schema or "", table)."""
    match = re.match(rf"(?is)UPDATE\s+({fix_sql.TABLE_NAME})\s+SET\b", statement.strip())
    return fix_sql.written_table_key(match.group(1)) if match else None


def _written(table: Table, target: Target, made: dict[tuple[str, str], tuple[str | None, str]],
             name: tuple[str, str], files: _Files) -> str | None:
    """The table's CREATE TABLE as the model writes it, when it keeps all of the statement as
    written and replays to the same table; None otherwise (once per table)."""
    if name in made:
        return made[name][0]
    text = fix_sql.create_statement(table, target)
    why = ""
    if text is None:
        why = "not held by the model"
    else:
        original = files.statement(table.defined)
        if original is None or not _keeps(original, text):
            why, text = "the statement holds what the model does not keep", None
        else:
            again = _replayed([text], table, target)
            if again is None or not fix_sql.same_table(again, table):
                why, text = "the model's statement replays to another table", None
    made[name] = (text, why)
    return text


class _Files:
    """The lines of the files the tables were created in, each file read once per run."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str] | None] = {}

    def statement(self, where: Location) -> str | None:
        """The CREATE TABLE as written, from its first line (at its column) to its last."""
        lines = self._lines.get(where.path, [])
        if lines == []:
            try:
                with open(where.path, encoding="utf-8", errors="replace") as handle:
                    lines = handle.readlines()
            except OSError:
                lines = None
            self._lines[where.path] = lines
        if not lines or where.line > len(lines):
            return None
        text = "".join(lines[where.line - 1:where.end_line])
        return text[max(where.column - 1, 0):]


def _words(text: str) -> Counter[str]:
    counted: Counter[str] = Counter()
    for token in _TOKEN.findall(text):
        if token[0] == "`":
            token = token[1:-1].replace("``", "`")
        elif token[0] not in "'\"":
            token = _SAME.get(token.upper(), token.upper())
            if token in _OPTIONAL:
                continue
        counted[token.lower() if token[0] not in "'\"" else token] += 1
    return counted


def _keeps(original: str, written: str) -> bool:
    """Whether every token of the statement as written (up to its `;`, comments left out) is in
    the model's statement as often."""
    body = re.sub(r"--[^\n]*|#[^\n]*|/\*.*?\*/", " ", original, flags=re.DOTALL)
    end = _statement_end(body)
    return not (_words(body[:end]) - _words(written))


def _statement_end(text: str) -> int:
    """Where the first statement of `text` ends (its `;` outside strings and quoted names)."""
    for match in re.finditer(r"'(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.|\"\")*\"|`(?:[^`]|``)*`|;", text):
        if match.group() == ";":
            return match.start()
    return len(text)


def _replayed(statements: list[str], table: Table, target: Target) -> Table | None:
    """The table the statements leave in a scratch model (a new CREATE TABLE of `table`, then
    ALTERs of it); None when one is refused or not understood."""
    from linter.parse.statement import parse_statement
    from linter.server.replay import Replayer

    replayer = Replayer(target=target)
    if table.schema:
        replayer.apply(parse_statement(f"CREATE DATABASE `{table.schema.replace('`', '``')}`"), Location("<fix>", 1))
    for number, statement in enumerate(statements, start=1):
        try:
            op = parse_statement(statement.rstrip().rstrip(";"))
        except Exception:  # noqa: BLE001 - a statement innolint cannot read: no corrected CREATE
            return None
        if replayer.apply(op, Location("<fix>", number)) is not None:
            return None
    return replayer.model.find_table(table.schema, table.name)
