"""`-- innolint: ...` comments: annotations on a statement (insert-heavy, time-ordered) and
suppressions (ignore[rule] reason, ignore-file[rule] reason)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from linter.record import FrozenRecord

_set = object.__setattr__  # how a frozen record's __init__ sets its fields (linter.record)

#: patterns left to `re` to compile on first use: most runs meet no directive at all. Each is
#: linear: the rule list stops at the line's end (possessive), and a directive takes the rest
#: of its line, so no character is read by more than one match
_DIRECTIVE = r"innolint:\s*+([A-Za-z-]++)(?:\[([^\]\n]*+)\])?[ \t]*+([^\n]*+)"


class Directive(FrozenRecord):
    __slots__ = __match_args__ = ("verb", "rules", "reason")
    verb: str  # insert-heavy, time-ordered, ignore, ignore-file, ...
    rules: tuple[str, ...]  # for ignore[...]: the rule ids
    reason: str

    def __init__(self, verb: str, rules: tuple[str, ...], reason: str) -> None:
        _set(self, "verb", verb)
        _set(self, "rules", rules)
        _set(self, "reason", reason)


def parse_directives(comments: Iterable[str]) -> list[Directive]:
    """Directives found in comment texts (each may hold one `innolint:` directive)."""
    found: list[Directive] = []
    for comment in comments:
        if "innolint:" not in comment:
            continue
        for match in re.finditer(_DIRECTIVE, comment):
            verb, rules, reason = match.groups()
            names = tuple(r.strip() for r in (rules or "").split(",") if r.strip())
            found.append(Directive(verb.lower(), names, reason.strip().rstrip("*/").strip()))
    return found


def comments_in_text(text: str) -> list[str]:
    """The comments inside a statement's text that carry a directive (cheap when there is none),
    as the server reads the text: a `-- innolint: ...` inside a string (a table's COMMENT, an
    INSERT's value) is text, never a directive."""
    return [comment for _, comment in comment_lines_in_text(text)]


def comment_lines_in_text(text: str, first_line: int = 1) -> list[tuple[int, str]]:
    """(line, text) of each line of a real comment in a statement's text that holds `innolint:`,
    the statement starting on `first_line`. The text is the splitter's (in the server's default
    quoting, skipped executable comments blanked, line breaks where they were), so its tokens are
    the server's (`linter.input.splitter.sqltext`): one pass, linear in the text."""
    if "innolint:" not in text:
        return []
    from linter.input.splitter.sqltext import comments

    found: list[tuple[int, str]] = []
    line, counted = first_line, 0
    for token in comments(text, "innolint:"):
        body = token.text
        at = body.find("innolint:")
        while at >= 0:
            start = body.rfind("\n", 0, at) + 1
            end = body.find("\n", at)
            if end < 0:
                end = len(body)
            line += text.count("\n", counted, token.start + start)
            counted = token.start + start
            found.append((line, body[start:end]))
            at = body.find("innolint:", end)
    return found


def annotation_verbs(directives: Iterable[Directive]) -> frozenset[str]:
    """The annotation verbs (everything but suppressions)."""
    return frozenset(d.verb for d in directives if not d.verb.startswith("ignore"))
