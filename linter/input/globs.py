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

Many patterns (a configuration's `exclude`, `include`, `insert_heavy`: a pull request may set a
thousand, and a run asks them of every file or table) are compiled once into a `GlobSet`, which
answers for all of them in one pass over the text instead of one match per pattern
(see `GlobSet`).

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


# --- many patterns at once ----------------------------------------------------------------------


def _bits(positions: list[int], width: int) -> int:
    """The int whose bits at `positions` are set, built once (setting them one by one in a wide
    int would copy it each time)."""
    if not positions:
        return 0
    buffer = bytearray(width // 8 + 1)
    for k in positions:
        buffer[k >> 3] |= 1 << (k & 7)
    return int.from_bytes(buffer, "little")


class _Union:
    """Globs run side by side as one automaton: their tokens laid one after another in one set of
    live states (a Python int), each followed by a token that reads nothing (so a glob's accepting
    state is a bit of its own), stepped once per character for all of them. The epsilon edges of
    a glob go 1 or 3 tokens forward (`_compile`): closing a state set is two shifts and masks per
    round, whatever the number of globs. `first` gives the index of the first glob (in the order
    given) that matches."""

    __slots__ = ("tokens", "start", "accept", "plus1", "plus3", "owners", "_masks", "_mentioned", "_ranges",
                 "_default", "_started")

    def __init__(self, globs: list[tuple[int, Glob]]) -> None:
        self.tokens: list[_Token] = []
        starts: list[int] = []
        accepts: list[int] = []
        plus1: list[int] = []
        plus3: list[int] = []
        self.owners: dict[int, int] = {}  # accepting bit -> the glob's index
        for index, glob in globs:
            base = len(self.tokens)
            self.tokens.extend(glob.tokens)
            self.tokens.append(_Token(_ENTRY))  # the accepting state: it reads nothing
            starts.append(base)
            for source, target in glob.edges:
                (plus1 if target - source == 1 else plus3).append(base + source)  # (3: `**/` skipped whole)
            accepts.append(base + len(glob.tokens))
            self.owners[base + len(glob.tokens)] = index
        width = len(self.tokens)
        self.start, self.accept = _bits(starts, width), _bits(accepts, width)
        self.plus1, self.plus3 = _bits(plus1, width), _bits(plus3, width)
        self._masks: dict[str, tuple[int, int]] = {}
        # the characters a token names (others all read alike: `_default`)
        self._mentioned: set[str] = {"/"}
        self._ranges: list[tuple[str, str]] = []
        for token in self.tokens:
            if token.kind == _CHAR:
                self._mentioned.add(token.value)  # type: ignore[arg-type]
            elif token.kind == _CLASS:
                ranges, singles = token.value  # type: ignore[misc]
                self._mentioned.update(singles)
                self._ranges.extend(ranges)
        self._default: tuple[int, int] | None = None
        self._started = self._close(self.start)

    def _close(self, state: int) -> int:
        while True:
            grown = state | ((state & self.plus1) << 1) | ((state & self.plus3) << 3)
            if grown == state:
                return state
            state = grown

    def _masks_for(self, char: str) -> tuple[int, int]:
        found = self._masks.get(char)
        if found is not None:
            return found
        plain = char not in self._mentioned and not any(low <= char <= high for low, high in self._ranges)
        if plain and self._default is not None:
            return self._default
        steps: list[int] = []
        loops: list[int] = []
        for k, token in enumerate(self.tokens):
            if token.accepts(char):
                (loops if token.kind == _STAR else steps).append(k)
        found = (_bits(steps, len(self.tokens)), _bits(loops, len(self.tokens)))
        if plain:
            self._default = found
        elif len(self._masks) < 4096:
            self._masks[char] = found
        return found

    def first(self, text: str, offset: int = 0, *, end: int | None = None, directories: bool = False) -> int | None:
        """The index of the first glob that matches `text[offset:end]`, or None. `directories`:
        one that matches the text up to any of its `/` counts too (the text lies below a directory
        it names)."""
        state = self._started
        accept = self.accept
        found = 0
        for i in range(offset, len(text) if end is None else end):
            char = text[i]
            if directories and char == "/":
                found |= state & accept
            step, loop = self._masks_for(char)
            state = ((state & step) << 1) | (state & loop)
            if not state:
                break
            state = self._close(state)
        found |= state & accept
        if not found:
            return None
        return self.owners[(found & -found).bit_length() - 1]


class _Trie:
    """Literal strings, each with the globs filed under it, looked up along a text in one walk."""

    __slots__ = ("children", "globs", "union")

    def __init__(self) -> None:
        self.children: dict[str, _Trie] = {}
        self.globs: list[tuple[int, Glob]] = []
        self.union: _Union | None = None

    def add(self, literal: str, index: int, glob: Glob) -> None:
        node = self
        for char in literal:
            node = node.children.setdefault(char, _Trie())
        node.globs.append((index, glob))

    def seal(self) -> None:
        stack = [self]
        while stack:
            node = stack.pop()
            if node.globs:
                node.union = _Union(sorted(node.globs, key=lambda item: item[0]))
                node.globs = []
            stack.extend(node.children.values())

    def walk(self, text: str, reverse: bool = False, end: int | None = None) -> list[tuple[int, _Union]]:
        """(depth, union) of every node on `text`'s path (backwards from `end`, its end by
        default, with `reverse`)."""
        found = []
        node: _Trie | None = self
        n = len(text) if end is None else end
        depth = 0
        while node is not None:
            if node.union is not None:
                found.append((depth, node.union))
            if depth == n:
                break
            node = node.children.get(text[n - 1 - depth] if reverse else text[depth])
            depth += 1
        return found


def _literal_ends(glob: Glob) -> tuple[int, int]:
    """How many of a glob's tokens at its start, and at its end, are literal characters."""
    tokens = glob.tokens
    head = 0
    while head < len(tokens) and tokens[head].kind == _CHAR:
        head += 1
    tail = 0
    while tail < len(tokens) - head:
        k = len(tokens) - 1 - tail
        if tokens[k].kind != _CHAR or (k >= 2 and tokens[k - 1].kind == _STAR and tokens[k - 2].kind == _ENTRY):
            break  # (the `/` of a `**/`, which its skip passes over, is not always read)
        tail += 1
    return head, tail


class _Matcher:
    """Globs of one dialect, indexed by their literal ends: a glob that starts with literal text
    is filed in a trie under it (and run from there on what follows it), one that only ends with
    literal text in a trie of reversed ends, the others (wildcards at both ends) in one `_Union`.
    A text then meets only the globs whose literal start or end it has, all those filed at one
    place run as one automaton: the time is linear in the text and the patterns' number does not
    multiply it (but for globs with wildcards at both ends, run together, one bit each token).
    `directories`: a glob also matches a text lying below a directory it matches (`first`)."""

    def __init__(self, globs: list[tuple[int, Glob]], *, directories: bool = False) -> None:
        self.directories = directories
        self.prefixes = _Trie()
        self.suffixes = _Trie()
        rest: list[tuple[int, Glob]] = []
        for index, glob in globs:
            head, tail = _literal_ends(glob)
            if head:
                literal = "".join(t.value for t in glob.tokens[:head])  # type: ignore[misc]
                remainder = Glob(glob.tokens[head:], [(a - head, b - head) for a, b in glob.edges])
                self.prefixes.add(literal, index, remainder)
            elif tail:
                literal = "".join(t.value for t in glob.tokens[len(glob.tokens) - tail :])  # type: ignore[misc]
                self.suffixes.add(literal[::-1], index, glob)
            else:
                rest.append((index, glob))
        self.prefixes.seal()
        self.suffixes.seal()
        self.rest = _Union(rest) if rest else None

    def first(self, text: str) -> int | None:
        below = self.directories
        found = [r for depth, union in self.prefixes.walk(text)
                 if (r := union.first(text, depth, directories=below)) is not None]
        # a literal end is at the text's end, or (below a directory) before one of its `/`
        ends = [len(text)] + ([i for i, char in enumerate(text) if char == "/"] if below else [])
        for end in ends:
            found += [r for _, union in self.suffixes.walk(text, reverse=True, end=end)
                      if (r := union.first(text, end=end)) is not None]
        if self.rest is not None and (r := self.rest.first(text, directories=below)) is not None:
            found.append(r)
        return min(found) if found else None


class GlobSet:
    """Patterns of one dialect compiled once (`path_match` or `name_match` semantics: `path`):
    `first(text)` is the index of the first pattern that matches, as a loop over them with those
    functions gives it, in one pass over the text for all of them (`_Matcher`). A configuration's
    `exclude` of a thousand patterns against a thousand files took minutes one by one."""

    def __init__(self, patterns: list[str] | tuple[str, ...], *, path: bool) -> None:
        self.patterns = list(patterns)
        self.path = path
        segments: list[tuple[int, Glob]] = []  # path patterns without `/`: a name at any depth
        whole: list[tuple[int, Glob]] = []
        for index, pattern in enumerate(self.patterns):
            if not path:
                whole.append((index, _compile(pattern, path=False)))
                continue
            pattern = pattern.strip()
            if not pattern:
                continue
            stripped = pattern.strip("/")
            if "/" not in stripped:
                segments.append((index, _compile(stripped, path=True)))
            else:
                # it matches the path, or a directory the path lies below (`anchored/**`)
                whole.append((index, _compile(pattern.lstrip("/").rstrip("/"), path=True)))
        self._segments = _Matcher(segments) if segments else None
        self._whole = _Matcher(whole, directories=path) if whole else None

    def first(self, text: str) -> int | None:
        found = []
        if self._whole is not None and (r := self._whole.first(text)) is not None:
            found.append(r)
        if self._segments is not None:
            found += [r for part in text.split("/") if (r := self._segments.first(part)) is not None]
        return min(found) if found else None

    def first_index_of(self, texts: list[str]) -> int | None:
        """The index of the first pattern that matches any of `texts`, or None."""
        found = [r for text in texts if (r := self.first(text)) is not None]
        return min(found) if found else None

    def __bool__(self) -> bool:
        return bool(self.patterns)
