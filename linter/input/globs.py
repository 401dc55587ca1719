"""Glob matching in time linear in the name: the one matcher for every pattern a user configures.

Why not `fnmatch` or a glob compiled to a regular expression: a pattern from a pull request's
configuration (`exclude = ["db/**a**a**a**a**a**a**a**b"]`) compiled to nested `.*` makes the
backtracking `re` engine try every way of splitting a 60-character name between the stars, which
took minutes. Here a pattern is compiled to a small automaton whose set of live states is one
integer (bit k: "the first k tokens of the pattern match what was read"), advanced once per
character of the name with a few integer operations: time O(len(name) x stars), never
backtracking, whatever the pattern.

Two dialects, one engine:
- `path_match(pattern, path)`: gitignore-like paths. `*` and `?` stay within a segment, `**`
  crosses segments, `**/` is zero or more whole directories, `[abc]`, `[!a-z]` classes stay within
  a segment; a pattern without `/` matches a file or directory name at any depth; a leading `/`
  only anchors; a pattern naming a directory covers everything below it.
- `name_match(pattern, name)`: `fnmatch` semantics (what `insert_heavy` and `time_ordered_columns`
  have always meant): `*` and `?` match any character, classes as above, case-sensitive.

The tests check both against the engines they replace on generated patterns and names (the
regex translation glob_match used, and `fnmatch`); one difference is left on purpose: a
reversed range (`[z-a]`) matches nothing here, where fnmatch drops its ends in ways of its own.
"""

from __future__ import annotations

from functools import lru_cache

#: token kinds
_CHAR, _ANY, _CLASS, _STAR, _ENTRY = range(5)


class _Token:
    __slots__ = ("kind", "value", "negated", "crosses")

    def __init__(self, kind: int, value: object = None, negated: bool = False, crosses: bool = True) -> None:
        self.kind = kind
        self.value = value  # the character (_CHAR) or the class's (ranges, singles) (_CLASS)
        self.negated = negated
        self.crosses = crosses  # whether it may match "/" (path dialect: only `**`)

    def accepts(self, char: str) -> bool:
        if not self.crosses and char == "/":
            return False
        if self.kind == _CHAR:
            return char == self.value
        if self.kind == _ENTRY:
            return False
        if self.kind == _CLASS:
            ranges, singles = self.value  # type: ignore[misc]
            inside = char in singles or any(low <= char <= high for low, high in ranges)
            return inside != self.negated
        return True  # _ANY, _STAR


def _class_at(pattern: str, i: int) -> tuple[_Token, int] | None:
    """The `[...]` class starting at pattern[i] and the index after it, or None when it is not
    closed (then `[` is a literal character, as in fnmatch)."""
    j = i + 1
    negated = j < len(pattern) and pattern[j] == "!"
    if negated:
        j += 1
    start = j
    if j < len(pattern) and pattern[j] == "]":  # a `]` first is a member
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 1
    if j >= len(pattern):
        return None
    body = pattern[start:j]
    ranges: list[tuple[str, str]] = []
    singles: set[str] = set()
    k = 0
    while k < len(body):
        if k + 2 < len(body) and body[k + 1] == "-":
            if body[k] <= body[k + 2]:
                ranges.append((body[k], body[k + 2]))
            k += 3
        else:
            singles.add(body[k])
            k += 1
    return _Token(_CLASS, (tuple(ranges), frozenset(singles)), negated), j + 1


class Glob:
    """A compiled pattern: tokens, the epsilon edges that let a star match nothing (and `**/`
    match no directory), and the per-character transition masks, computed on first sight of each
    character."""

    __slots__ = ("tokens", "edges", "accept", "_masks")

    def __init__(self, tokens: list[_Token], edges: list[tuple[int, int]]) -> None:
        self.tokens = tokens
        self.edges = sorted(edges)  # all forward: one pass in source order closes the set
        self.accept = 1 << len(tokens)
        self._masks: dict[str, tuple[int, int]] = {}

    def _masks_for(self, char: str) -> tuple[int, int]:
        """(step, loop): bit k of step when token k consumes `char` and moves on; bit k of loop
        when token k is a star that consumes `char` and stays."""
        found = self._masks.get(char)
        if found is None:
            step = loop = 0
            for k, token in enumerate(self.tokens):
                if token.accepts(char):
                    if token.kind == _STAR:
                        loop |= 1 << k
                    else:
                        step |= 1 << k
            found = self._masks[char] = (step, loop)
        return found

    def _close(self, state: int) -> int:
        for source, target in self.edges:
            if state >> source & 1:
                state |= 1 << target
        return state

    def match(self, text: str) -> bool:
        state = self._close(1)
        for char in text:
            step, loop = self._masks_for(char)
            state = ((state & step) << 1) | (state & loop)
            if not state:
                return False
            if self.edges:
                state = self._close(state)
        return bool(state & self.accept)


def _compile(pattern: str, *, path: bool) -> Glob:
    tokens: list[_Token] = []
    edges: list[tuple[int, int]] = []
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if path and pattern.startswith("**/", i):
            # `**/`: nothing, or anything ending with "/" (whole directories). An entry state
            # that reads nothing either skips all of it or starts the star, so text the star has
            # read can only be left through the "/"
            k = len(tokens)
            tokens.extend([_Token(_ENTRY), _Token(_STAR), _Token(_CHAR, "/")])
            edges.extend([(k, k + 3), (k, k + 1), (k + 1, k + 2)])
            i += 3
        elif char == "*":
            double = path and pattern.startswith("**", i)
            edges.append((len(tokens), len(tokens) + 1))  # a star may match nothing
            tokens.append(_Token(_STAR, crosses=double or not path))
            i += 2 if double else 1
        elif char == "?":
            tokens.append(_Token(_ANY, crosses=not path))
            i += 1
        elif char == "[" and (found := _class_at(pattern, i)) is not None:
            token, i = found
            token.crosses = not path
            tokens.append(token)
        else:
            tokens.append(_Token(_CHAR, char))
            i += 1
    # every edge goes forward, so one pass over the edges in source order closes a state set
    return Glob(tokens, edges)


@lru_cache(maxsize=512)
def compile_name(pattern: str) -> Glob:
    return _compile(pattern, path=False)


@lru_cache(maxsize=512)
def compile_path(pattern: str) -> Glob:
    return _compile(pattern, path=True)


def name_match(pattern: str, name: str) -> bool:
    """fnmatch.fnmatchcase(name, pattern), in time linear in the name."""
    if not any(c in pattern for c in "*?["):
        return name == pattern
    return compile_name(pattern).match(name)


def path_match(pattern: str, relative: str) -> bool:
    """Whether a `/`-separated path relative to the configuration's directory matches a
    gitignore-like pattern (see the module's docstring)."""
    pattern = pattern.strip()
    if not pattern:
        return False
    stripped = pattern.strip("/")
    if "/" not in stripped:
        single = compile_path(stripped)
        return any(single.match(part) for part in relative.split("/"))
    anchored = pattern.lstrip("/").rstrip("/")
    return compile_path(anchored).match(relative) or compile_path(anchored + "/**").match(relative)
