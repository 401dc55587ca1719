"""Regular expressions written by users, matched in time linear in the text.

A configuration can come from a pull request, and Python's `re` backtracks: `(a|a)*b` or
`a*a*a*a*a*a*b` against a schema name of 60 characters runs for hours. So a user's pattern
(`tenant_schema_pattern`) is never given to `re` for matching. It is read with Python's own
regex parser (the syntax users know, and the same error messages), compiled to a Thompson
automaton and run as a set of states, one step per character of the text (the sets met are
cached as a lazy DFA, so a tenant dump's thousands of similar names cost a dictionary lookup per
character): time O(len(text) x states), whatever the pattern.

Supported: literals, `.`, classes (`[a-z]`, `\\d`, `\\w`, `\\s` and their negations), groups
(capturing or not; captures are not reported), alternation, every quantifier (greedy or lazy:
for a yes/no match they mean the same), `^`, `$`, `\\A`, `\\Z`, `\\b`, `\\B`, and the flags
`(?i)`, `(?a)`, `(?s)`, `(?m)`, `(?x)`. Refused with a message, because no linear-time engine
can run them: backreferences, lookahead and lookbehind, conditionals, possessive quantifiers and
atomic groups. A pattern whose automaton would exceed `MAX_STATES` states (`x{1000}{1000}`) is
refused too.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any

if sys.version_info >= (3, 11):
    import re._constants as _c
    import re._parser as _parser
else:  # pragma: no cover - Python 3.10
    import sre_constants as _c
    import sre_parse as _parser

#: the largest automaton a pattern may compile to
MAX_STATES = 5000
#: cached DFA transitions per pattern before the cache starts over (memory stays bounded)
_MAX_CACHED = 20_000

Predicate = Callable[[str], bool]


class UnsafeRegex(ValueError):
    """A pattern that is not a regular expression, or that needs backtracking to run."""


class _State:
    __slots__ = ("kind", "test", "out", "outs", "at")

    def __init__(self, kind: str, test: Predicate | None = None, out: _State | None = None,
                 outs: list[_State] | None = None, at: tuple[Any, bool, bool] | None = None) -> None:
        self.kind = kind  # "char" (test, out), "split" (outs), "assert" (at, out), "match"
        self.test = test
        self.out = out
        self.outs = outs
        self.at = at  # (position code, multiline, ascii)


_REFUSED = {
    _c.GROUPREF: "backreferences",
    _c.GROUPREF_EXISTS: "conditional groups",
    _c.ASSERT: "lookahead and lookbehind",
    _c.ASSERT_NOT: "lookahead and lookbehind",
}
for _name, _what in (("POSSESSIVE_REPEAT", "possessive quantifiers"), ("ATOMIC_GROUP", "atomic groups")):
    if hasattr(_c, _name):
        _REFUSED[getattr(_c, _name)] = _what


def _word(char: str, ascii_only: bool) -> bool:
    if ascii_only:
        return char.isascii() and (char.isalnum() or char == "_")
    return char.isalnum() or char == "_"


def _category(code: Any, ascii_only: bool) -> Predicate:
    if code in (_c.CATEGORY_DIGIT, _c.CATEGORY_NOT_DIGIT):
        positive: Predicate = (lambda ch: "0" <= ch <= "9") if ascii_only else str.isdecimal
    elif code in (_c.CATEGORY_SPACE, _c.CATEGORY_NOT_SPACE):
        positive = (lambda ch: ch in " \t\n\r\f\v") if ascii_only else str.isspace
    elif code in (_c.CATEGORY_WORD, _c.CATEGORY_NOT_WORD):
        positive = lambda ch: _word(ch, ascii_only)  # noqa: E731
    else:
        raise UnsafeRegex(f"unsupported class {code}")
    if code in (_c.CATEGORY_NOT_DIGIT, _c.CATEGORY_NOT_SPACE, _c.CATEGORY_NOT_WORD):
        return lambda ch: not positive(ch)
    return positive


def _caseless(test: Predicate) -> Predicate:
    return lambda ch: test(ch) or test(ch.lower()) or test(ch.upper()) or test(ch.casefold())


class _Builder:
    def __init__(self) -> None:
        self.count = 0

    def state(self, *args: Any, **kwargs: Any) -> _State:
        self.count += 1
        if self.count > MAX_STATES:
            raise UnsafeRegex(f"pattern too large (more than {MAX_STATES} states once its repetitions are expanded)")
        return _State(*args, **kwargs)

    @staticmethod
    def caseless(test: Predicate, flags: int) -> Predicate:
        """`test` under (?i): a negation applies after case folding, so callers negate after this."""
        return _caseless(test) if flags & re.IGNORECASE else test

    def char(self, test: Predicate, flags: int, out: _State) -> _State:
        return self.state("char", test=self.caseless(test, flags), out=out)

    def sequence(self, items: Any, flags: int, out: _State) -> _State:
        for op, arg in reversed(list(items)):
            out = self.item(op, arg, flags, out)
        return out

    def item(self, op: Any, arg: Any, flags: int, out: _State) -> _State:
        ascii_only = bool(flags & re.ASCII)
        if op in _REFUSED:
            raise UnsafeRegex(f"{_REFUSED[op]} are not allowed (they need a backtracking engine)")
        if op is _c.LITERAL:
            char = chr(arg)
            return self.char(lambda ch: ch == char, flags, out)
        if op is _c.NOT_LITERAL:
            char = chr(arg)
            same = self.caseless(lambda ch: ch == char, flags)
            return self.state("char", test=lambda ch: not same(ch), out=out)
        if op is _c.ANY:
            dotall = bool(flags & re.DOTALL)
            return self.state("char", test=(lambda ch: True) if dotall else (lambda ch: ch != "\n"), out=out)
        if op is _c.IN:
            return self.state("char", test=self.char_class(arg, ascii_only, flags), out=out)
        if op is _c.BRANCH:
            return self.state("split", outs=[self.sequence(alt, flags, out) for alt in arg[1]])
        if op is _c.SUBPATTERN:
            _group, add, remove, body = arg
            return self.sequence(body, (flags | add) & ~remove, out)
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            low, high, body = arg
            return self.repeat(low, high, body, flags, out)
        if op is _c.AT:
            return self.state("assert", at=(arg, bool(flags & re.MULTILINE), ascii_only), out=out)
        raise UnsafeRegex(f"unsupported construct {op}")

    def repeat(self, low: int, high: Any, body: Any, flags: int, out: _State) -> _State:
        if high is _c.MAXREPEAT:
            loop = self.state("split", outs=[])
            assert loop.outs is not None
            loop.outs.extend([self.sequence(body, flags, loop), out])
            out = loop
        else:
            for _ in range(high - low):
                out = self.state("split", outs=[self.sequence(body, flags, out), out])
        for _ in range(low):
            out = self.sequence(body, flags, out)
        return out

    def char_class(self, items: Any, ascii_only: bool, flags: int) -> Predicate:
        negate = False
        tests: list[Predicate] = []
        singles: set[str] = set()
        for op, arg in items:
            if op is _c.NEGATE:
                negate = True
            elif op is _c.LITERAL:
                singles.add(chr(arg))
            elif op is _c.RANGE:
                low, high = chr(arg[0]), chr(arg[1])
                tests.append(lambda ch, low=low, high=high: low <= ch <= high)
            elif op is _c.CATEGORY:
                tests.append(_category(arg, ascii_only))
            else:
                raise UnsafeRegex(f"unsupported class member {op}")

        def inside(ch: str) -> bool:
            return ch in singles or any(test(ch) for test in tests)

        positive = self.caseless(inside, flags)
        return (lambda ch: not positive(ch)) if negate else positive


def _holds(at: tuple[Any, bool, bool], text: str, i: int) -> bool:
    code, multiline, ascii_only = at
    n = len(text)
    if code is _c.AT_BEGINNING:
        return i == 0 or (multiline and text[i - 1] == "\n")
    if code is _c.AT_BEGINNING_STRING:
        return i == 0
    if code is _c.AT_END:
        return i == n or (i == n - 1 and text[i] == "\n") or (multiline and text[i] == "\n")
    if code is _c.AT_END_STRING:
        return i == n
    if code in (_c.AT_BOUNDARY, _c.AT_NON_BOUNDARY):
        if n == 0:  # as `re`: neither holds in an empty text
            return False
        before = i > 0 and _word(text[i - 1], ascii_only)
        after = i < n and _word(text[i], ascii_only)
        return (before != after) == (code is _c.AT_BOUNDARY)
    raise UnsafeRegex(f"unsupported position {code}")  # pragma: no cover - refused at compile time


class UserRegex:
    """A compiled user pattern; `fullmatch(text)` says whether all of `text` matches."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        try:
            parsed = _parser.parse(pattern, 0)
        except re.error as error:
            raise UnsafeRegex(f"not a regular expression: {error}") from None
        except (RecursionError, OverflowError):
            raise UnsafeRegex("not a regular expression: nested too deeply or too large") from None
        flags = parsed.state.flags
        if flags & re.LOCALE:
            raise UnsafeRegex("the LOCALE flag is for bytes patterns")  # pragma: no cover - re refuses it first
        builder = _Builder()
        items = list(parsed)
        # `^` first and `$` last are what fullmatch does anyway: dropped, so most patterns run as a DFA
        if items and items[0] == (_c.AT, _c.AT_BEGINNING) and not flags & re.MULTILINE:
            items = items[1:]
        if items and items[-1] == (_c.AT, _c.AT_END) and not flags & re.MULTILINE:
            items = items[:-1]
        try:
            self._start = builder.sequence(items, flags, builder.state("match"))
        except RecursionError:
            raise UnsafeRegex("pattern nested too deeply") from None
        self._positional = self._has_asserts(self._start)
        self._dfa: dict[tuple[frozenset[_State], str], frozenset[_State]] = {}
        self._first: frozenset[_State] | None = None

    @staticmethod
    def _has_asserts(start: _State) -> bool:
        seen: set[int] = set()
        stack = [start]
        while stack:
            state = stack.pop()
            if id(state) in seen:
                continue
            seen.add(id(state))
            if state.kind == "assert":
                return True
            if state.out is not None:
                stack.append(state.out)
            if state.outs:
                stack.extend(state.outs)
        return False

    def _closure(self, states: Any, text: str, i: int) -> frozenset[_State]:
        found: set[_State] = set()
        stack = list(states)
        while stack:
            state = stack.pop()
            if state in found:
                continue
            if state.kind == "split":
                found.add(state)
                stack.extend(state.outs or ())
            elif state.kind == "assert":
                found.add(state)
                if _holds(state.at, text, i):  # type: ignore[arg-type]
                    stack.append(state.out)
            else:
                found.add(state)
        return frozenset(s for s in found if s.kind in ("char", "match"))

    def fullmatch(self, text: str) -> bool:
        if self._positional:
            current = self._closure([self._start], text, 0)
            for i, char in enumerate(text):
                current = self._closure([s.out for s in current if s.kind == "char" and s.test(char)],  # type: ignore[misc]
                                        text, i + 1)
                if not current:
                    return False
            return any(s.kind == "match" for s in current)
        if self._first is None:
            self._first = self._closure([self._start], "", 0)
        current = self._first
        dfa = self._dfa
        for char in text:
            key = (current, char)
            following = dfa.get(key)
            if following is None:
                following = self._closure([s.out for s in current if s.kind == "char" and s.test(char)], "", 0)  # type: ignore[misc]
                if len(dfa) >= _MAX_CACHED:
                    dfa.clear()
                dfa[key] = following
            current = following
            if not current:
                return False
        return any(s.kind == "match" for s in current)


@lru_cache(maxsize=64)
def compile_user_regex(pattern: str) -> UserRegex:
    """The compiled pattern; UnsafeRegex (a ValueError) says why one cannot be used."""
    return UserRegex(pattern)
