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
_OPENER = r"--|#|/\*"


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
    """Comments inside a statement's text that carry a directive (cheap when there is none): on
    each line holding `innolint:`, the text from the first comment opener (`--`, `#`, `/*`) that
    comes before the line's last `innolint:`, to the line's end. One pass over each such line
    (a regex trying every opener on a long line would read the line once per opener)."""
    found: list[str] = []
    at = text.find("innolint:")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        if end < 0:
            end = len(text)
        last = text.rfind("innolint:", at, end)
        opener = re.compile(_OPENER).search(text, start, last)
        if opener is not None:
            found.append(text[opener.start() : end])
        at = text.find("innolint:", end)
    return found


def annotation_verbs(directives: Iterable[Directive]) -> frozenset[str]:
    """The annotation verbs (everything but suppressions)."""
    return frozenset(d.verb for d in directives if not d.verb.startswith("ignore"))
