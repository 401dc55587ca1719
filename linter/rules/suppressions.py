"""Inline suppressions: `-- innolint: ignore[rule] reason` and `-- innolint: ignore-file[rule] reason`.

Why bound to a statement, not a line: findings are placed at the statement that introduced them
(its first line), while the comment sits on the line before it or after its end. The splitter
already attaches those comments to the statement (`Statement.comments`); a directive written
inside the statement's text (e.g. on a column line of a CREATE TABLE) binds to it too. A
suppression therefore hides the findings and diagnostics located at that statement (same path,
lines from its first to its last) for the rules it names; `ignore` without `[...]` names every
rule. Rules are named as `--select` and `innolint explain` name them (`linter.rules.selection.matching`:
an id, a prefix ending where a `-` does, `ALL`).

`ignore-file` may stand anywhere in a file (before a goose `Up` marker, after the last statement),
where no statement carries it: the splitter keeps every comment line it reads between statements
that holds `innolint:` (`StatementStream.directives`), and a statement's text is read for its own
comments. Either way a directive counts only in a real comment, as the splitter and the server
read the file: `INSERT ... VALUES ('-- innolint: ignore-file x')` or a table's `COMMENT '...
innolint: ignore ...'` is text, and switches nothing off.

A diagnostic about a suppression (unused, invalid) points at the comment's own line, so an
editor jumps to the comment to edit or remove, not to the statement.

The reason is required unless `require_suppression_reason = false`: a suppression without one is
not honoured and is reported (`invalid-suppression`), so the finding stays visible. A suppression
that hides nothing is reported as `unused-suppression` (info), rule by rule.
"""

from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

from linter.rules.directives import comment_lines_in_text, parse_directives
from linter.rules.findings import Diagnostic, Finding
from linter.record import Record
from linter.input.statement import Statement
from linter.suggest import did_you_mean


class Suppression(Record):
    """One ignore directive and what it hid."""

    __match_args__ = ("path", "line", "rules", "reason", "file_wide", "end_line", "used", "comment_line", "written")
    path: str
    line: int  # the statement's first line (ignore) or the comment's line (ignore-file)
    rules: tuple[str, ...]  # empty: every rule
    reason: str
    file_wide: bool
    end_line: int  # the statement's last line (a parse error may point inside it)
    used: set[str]  # rules it hid something for
    #: the line of the comment itself (0: not found, e.g. standard input: the statement's line)
    comment_line: int
    #: the rules as the comment names them (`ignore[uuid]`), once `apply` resolved them to ids
    written: tuple[str, ...]

    def __init__(
        self, path: str, line: int, rules: tuple[str, ...], reason: str, file_wide: bool, end_line: int = 0,
        used: set[str] | None = None, comment_line: int = 0,
    ) -> None:
        self.path = path
        self.line = line
        self.rules = rules
        self.reason = reason
        self.file_wide = file_wide
        self.end_line = end_line
        self.used = set() if used is None else used
        self.comment_line = comment_line
        self.written = ()

    def covers(self, path: str, line: int, rule: str) -> bool:
        if path != self.path:
            return False
        if not self.file_wide and not self.line <= line <= max(self.line, self.end_line):
            return False
        return not self.rules or rule in self.rules

    @property
    def label(self) -> str:
        verb = "ignore-file" if self.file_wide else "ignore"
        rules = self.written or self.rules
        return f"{verb}[{','.join(rules)}]" if rules else verb


def from_statement(statement: Statement) -> list[Suppression]:
    """The directives of a statement: the `ignore` ones attached to it (in the comments before it
    or at its end, or in a real comment inside its text: a string holding `-- innolint: ...` is
    text), and the `ignore-file` ones inside its text (those between statements are the
    splitter's `StatementStream.directives`: `from_comments`). A directive inside the text knows
    its comment's line already."""
    if "innolint:" not in statement.text and not any("innolint:" in c for c in statement.comments):
        return []  # the common case, kept cheap: dumps have hundreds of thousands of statements
    found = [
        Suppression(statement.path, statement.line, d.rules, d.reason, file_wide=False, end_line=statement.end_line)
        for d in parse_directives(statement.comments)
        if d.verb == "ignore"
    ]
    for line, comment in comment_lines_in_text(statement.text, statement.line):
        for d in parse_directives([comment]):
            if d.verb == "ignore":
                found.append(Suppression(statement.path, statement.line, d.rules, d.reason, file_wide=False,
                                         end_line=statement.end_line, comment_line=line))
            elif d.verb == "ignore-file":
                found.append(Suppression(statement.path, line, d.rules, d.reason, file_wide=True, comment_line=line))
    return found


class FileDirectives(Record):
    """What the comments between a file's statements hold: its `ignore-file` suppressions, and
    the line and rules of every `ignore` comment (to place the statements' suppressions on their
    comments)."""

    __match_args__ = ("file_wide", "ignore_lines")
    file_wide: list[Suppression]
    ignore_lines: list[tuple[int, tuple[str, ...]]]

    def __init__(self, file_wide: list[Suppression] | None = None,
                 ignore_lines: list[tuple[int, tuple[str, ...]]] | None = None) -> None:
        self.file_wide = [] if file_wide is None else file_wide
        self.ignore_lines = [] if ignore_lines is None else ignore_lines


def from_comments(path: str, comments: Iterable[tuple[int, str]]) -> FileDirectives:
    """The directives of the comment lines the splitter read between a file's statements
    (`StatementStream.directives`: (line, text)). `ignore-file` may stand anywhere there: before
    a goose `Up` marker, in a Down section, after the last statement."""
    found = FileDirectives()
    for line, text in comments:
        for directive in parse_directives([text]):
            if directive.verb == "ignore-file":
                found.file_wide.append(Suppression(path, line, directive.rules, directive.reason, file_wide=True,
                                                   comment_line=line))
            elif directive.verb == "ignore":
                found.ignore_lines.append((line, directive.rules))
    return found


def from_file(path: str) -> list[Suppression]:
    """The `ignore-file` directives of a file, read as a run reads it (its comments as the
    splitter reads them: between statements, and inside a statement's text), in line order."""
    from linter.input.source import InputError, read_statements

    found: list[Suppression] = []
    try:
        stream = read_statements(path, unless="innolint:")
        for statement in stream:
            found.extend(s for s in from_statement(statement) if s.file_wide)
    except InputError:
        return found
    found.extend(from_comments(path, stream.directives).file_wide)
    return sorted(found, key=lambda s: s.line)


def place_comments(statement_suppressions: Iterable[Suppression], ignore_lines: list[tuple[int, tuple[str, ...]]]) -> None:
    """Give each statement's `ignore` suppression the line of its comment: the last comment
    with the same rules, not taken yet, on or before the statement's last line (a comment before
    the statement, or after its end on its last line; one inside its text knows its line already).
    The statements come in file order, so per rule list one pointer walks the comments' lines and
    a stack holds those passed and not yet taken: linear in comments and statements."""
    lines_by_rules: dict[tuple[str, ...], list[int]] = {}
    for line, rules in ignore_lines:
        lines_by_rules.setdefault(rules, []).append(line)
    passed: dict[tuple[str, ...], list[int]] = {}
    next_index: dict[tuple[str, ...], int] = {}
    for suppression in statement_suppressions:
        if suppression.file_wide or suppression.comment_line:
            continue
        lines = lines_by_rules.get(suppression.rules)
        if not lines:
            continue
        stack = passed.setdefault(suppression.rules, [])
        index = next_index.get(suppression.rules, 0)
        last = max(suppression.end_line, suppression.line)
        while index < len(lines) and lines[index] <= last:
            stack.append(lines[index])
            index += 1
        next_index[suppression.rules] = index
        if stack:
            suppression.comment_line = stack.pop()


class Outcome(Record):
    __match_args__ = ("findings", "diagnostics")
    findings: list[Finding]
    diagnostics: list[Diagnostic]

    def __init__(self, findings: list[Finding], diagnostics: list[Diagnostic]) -> None:
        self.findings = findings
        self.diagnostics = diagnostics


def apply(
    findings: Sequence[Finding],
    diagnostics: Sequence[Diagnostic],
    suppressions: Iterable[Suppression],
    *,
    known_rules: Iterable[str],
    require_reason: bool = True,
    disabled: frozenset[str] = frozenset(),
) -> Outcome:
    """Hide what the suppressions cover; report unused, reason-less and unknown-rule ones.

    `disabled` rules never produce findings, so suppressions naming them are not reported unused.
    """
    from linter.rules.selection import matching

    ordered = list(known_rules)
    known = set(ordered)
    honoured: list[Suppression] = []
    problems: list[Diagnostic] = []
    selectors: dict[int, dict[str, set[str]]] = {}
    for suppression in suppressions:
        # a rule is named as --select names it: an id, a prefix ending where a `-` does, ALL
        named = {selector: matching(selector, ordered) for selector in suppression.written or suppression.rules}
        selectors[id(suppression)] = named
        unknown = [r for r, ids in named.items() if not ids]
        if suppression.rules and not suppression.written:
            suppression.written = suppression.rules
            every = any(selector.strip().lower() == "all" for selector in suppression.rules)
            suppression.rules = () if every else tuple(
                dict.fromkeys(rule for ids in named.values() for rule in ordered if rule in ids)) or suppression.rules
        if unknown:
            named_text = ", ".join(rule + did_you_mean(rule, known) for rule in unknown)
            problems.append(_diagnostic(
                "invalid-suppression", "warning", suppression,
                f"{suppression.label}: unknown rule{'s' if len(unknown) > 1 else ''} {named_text} "
                "(`innolint rules` lists them)",
            ))
        if require_reason and not suppression.reason:
            problems.append(_diagnostic(
                "invalid-suppression", "warning", suppression,
                f"{suppression.label} has no reason and is not honoured: write `-- innolint: "
                f"{suppression.label} why this is acceptable` (or set require_suppression_reason = false)",
            ))
            continue
        honoured.append(suppression)

    index = _Index(honoured)
    kept_findings = [f for f in findings if not index.hides(f.rule, f.path, f.line)]
    kept_diagnostics = [d for d in diagnostics if not index.hides(d.rule, d.path, d.line)]
    index.mark_used([*findings, *diagnostics])
    for suppression in honoured:
        if suppression.rules:
            # a selector is unused when none of the rules it names hid anything (`ignore[tenant]`
            # names a family: the members without a finding here are no reason to remove it)
            unused = [selector for selector, ids in selectors[id(suppression)].items()
                      if ids and not ids & suppression.used and not ids <= disabled]
        else:
            unused = [] if suppression.used else ["*"]
        if unused:
            what = "" if unused == ["*"] else " of " + ", ".join(unused)
            scope = "in this file" if suppression.file_wide else "at this statement"
            problems.append(_diagnostic(
                "unused-suppression", "info", suppression,
                f"{suppression.label} matches no finding{what} {scope}; remove it",
            ))
    return Outcome(kept_findings, [*kept_diagnostics, *problems])


_EVERY_RULE = ""  # the key of suppressions without `[...]`, which name every rule (no rule is named "")
_WHOLE_FILE = (-1, sys.maxsize)  # the lines an ignore-file covers


class _Index:
    """The honoured suppressions by path and rule, as sorted disjoint line ranges, so that
    matching F findings against S suppressions costs O((F + S) log(F + S)), not F x S: each
    finding is one binary search in its (path, rule) ranges and in its path's every-rule ranges;
    each suppression learns what it hid by a binary search per rule it names (for `ignore`
    without `[...]`, per rule found in its file: at most the registered rules)."""

    def __init__(self, suppressions: list[Suppression]) -> None:
        self.suppressions = suppressions
        spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
        for suppression in suppressions:
            span = _span(suppression)
            for rule in suppression.rules or (_EVERY_RULE,):
                spans.setdefault((suppression.path, rule), []).append(span)
        #: (path, rule) -> (starts, ends) of the merged ranges, sorted
        self.ranges = {key: _merged(found) for key, found in spans.items()}

    def hides(self, rule: str, path: str, line: int) -> bool:
        return _inside(self.ranges.get((path, rule)), line) or _inside(self.ranges.get((path, _EVERY_RULE)), line)

    def mark_used(self, items: Sequence[Finding | Diagnostic]) -> None:
        """Record in each suppression the rules it hid something for (all that cover an item)."""
        lines: dict[tuple[str, str], list[int]] = {}
        rules_in: dict[str, set[str]] = {}
        for item in items:
            lines.setdefault((item.path, item.rule), []).append(item.line)
            rules_in.setdefault(item.path, set()).add(item.rule)
        for found in lines.values():
            found.sort()
        for suppression in self.suppressions:
            start, end = _span(suppression)
            for rule in suppression.rules or sorted(rules_in.get(suppression.path, ())):
                found = lines.get((suppression.path, rule))
                if found:
                    at = bisect_left(found, start)
                    if at < len(found) and found[at] <= end:
                        suppression.used.add(rule)


def _span(suppression: Suppression) -> tuple[int, int]:
    if suppression.file_wide:
        return _WHOLE_FILE
    return suppression.line, max(suppression.line, suppression.end_line)


def _merged(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    for start, end in sorted(spans):
        if ends and start <= ends[-1]:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    return starts, ends


def _inside(ranges: tuple[list[int], list[int]] | None, line: int) -> bool:
    if ranges is None:
        return False
    starts, ends = ranges
    at = bisect_right(starts, line) - 1
    return at >= 0 and line <= ends[at]


def _diagnostic(rule: str, severity: str, suppression: Suppression, message: str) -> Diagnostic:
    """At the comment's line when known, else at the statement's."""
    return Diagnostic(rule=rule, severity=severity, path=suppression.path,  # type: ignore[arg-type]
                      line=suppression.comment_line or suppression.line, message=message)
