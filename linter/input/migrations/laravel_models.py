"""Read Laravel Eloquent model classes (`app/Models/*.php`) for how their primary keys are made.

What decides a model's key values in Laravel:
- `use HasUuids;` (Illuminate\\Database\\Eloquent\\Concerns\\HasUuids) fills the key with
  time-ordered UUIDs: `Str::orderedUuid()` up to Laravel 11, UUIDv7 (`Str::uuid7()`) from 12;
  `HasVersion4Uuids` (Laravel 12) keeps `Str::orderedUuid()`, still time-ordered (its first 48
  bits are the time: "version 4" names the layout, not randomness).
- `use HasUlids;` fills it with ULIDs, time-ordered.
- a `newUniqueId()` method of the model decides instead: `Str::uuid()`, `Uuid::uuid4()` are
  random; `Str::orderedUuid()`, `Str::uuid7()`, `Str::ulid()`, `Uuid::uuid7()` time-ordered.
- the key column is `$primaryKey` (default `id`); the table `$table`, else the class name in
  snake case, plural (`UserProfile` -> `user_profiles`, as `Str::snake(Str::pluralStudly())`).
A trait of the application's own named `HasUuids` (imported from elsewhere) is not Laravel's:
its values are unknown unless the model's `newUniqueId()` says.

A small scanner over the file's text (one pass over strings and comments, then regular
expressions that read each line once); no PHP is run. Every cost is linear in the file.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: patterns read one line each (`[ \t]`, never `\s`, where a run may repeat from every line start)
_CLASS = re.compile(r"^[ \t]*(?:final[ \t]+|abstract[ \t]+)*class[ \t]+([A-Za-z_][A-Za-z0-9_]*)\s+extends\s+"
                    r"([A-Za-z_\\][A-Za-z0-9_\\]*)", re.MULTILINE)
_IMPORT = re.compile(r"^[ \t]*use[ \t]+([A-Za-z0-9_\\]+)(?:[ \t]+as[ \t]+([A-Za-z0-9_]+))?[ \t]*;", re.MULTILINE)
_TRAITS = re.compile(r"^[ \t]*use[ \t]+([A-Za-z0-9_\\][A-Za-z0-9_\\, \t]*)[;{]", re.MULTILINE)
_PROPERTY = re.compile(r"\$(table|primaryKey|keyType)\s*=\s*['\"]([^'\"]{1,200})['\"]")
_INCREMENTING = re.compile(r"\$incrementing\s*=\s*(true|false)", re.IGNORECASE)
_NEW_UNIQUE_ID = re.compile(r"function\s++newUniqueId\s*+\(")
#: after the method's parameters: its return type, up to the body's `{`
_METHOD_HEAD = re.compile(r"\)[^{]{0,200}+\{")
#: PHP's text, one piece a match: a string, a comment, or a run of anything else (`#[` is an
#: attribute, not a comment). Each alternative starts with its own character and every loop is
#: possessive, so no character is read twice: a `/*` left open ends the text, not each match
_PIECES = re.compile(r"""'(?:[^'\\]++|\\.)*+'?|"(?:[^"\\]++|\\.)*+"?|/\*(?:[^*]++|\*(?!/))*+(?:\*/)?|//[^\n]*+"""
                     r"""|\#(?!\[)[^\n]*+|[^'"/\#]++|.""", re.S)
_RANDOM_CALLS = re.compile(r"\b(?:Str::uuid|Uuid::uuid4|Str::random|random_bytes)\s*\(")
_ORDERED_CALLS = re.compile(r"\b(?:Str::orderedUuid|Str::uuid7|Str::ulid|Uuid::uuid7|Uuid::uuid6|Ulid::generate)\s*\(")
_LARAVEL_CONCERNS = "Illuminate\\Database\\Eloquent\\Concerns\\"


class ModelKey(NamedTuple):
    """What a model class says about its key."""

    model: str
    table: str | None  # `$table`, when set
    key: str  # `$primaryKey`
    trait: str | None  # HasUuids, HasVersion4Uuids, HasUlids (Laravel's), when used
    generator: str | None  # what fills the key, as written
    ordered: bool | None  # True: time-ordered; False: random; None: unknown
    kind: str  # what the values are ("ordered UUIDs", "random UUIDv4", "ULIDs")
    line: int


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _without_comments(text: str) -> str:
    """The text with `//`, `#` and `/* */` comments blanked (line breaks kept, strings left: a
    `//` in a string is text). One pass (`_PIECES`), linear in the text."""
    out = []
    for match in _PIECES.finditer(text):
        piece = match.group()
        if piece[:2] in ("/*", "//") or piece[:1] == "#":
            out.append(re.sub(r"[^\n]", " ", piece))
        else:
            out.append(piece)
    return "".join(out)


def _new_unique_id(body: str) -> tuple[int, int] | None:
    """(start, end of its `{`) of the model's `newUniqueId()` method. The parameters are found by
    looking for the `)` once: a name repeated without one is not read to the end each time."""
    for match in _NEW_UNIQUE_ID.finditer(body):
        close = body.find(")", match.end())
        if close < 0:
            return None  # no `)` after this one, nor after any later one
        head = _METHOD_HEAD.match(body, close)
        if head is not None:
            return match.start(), head.end()
    return None


def _body(text: str, start: int) -> str:
    """The text of a `{ ... }` block whose `{` ends at `start` (braces counted, at most 20,000 characters)."""
    depth = 1
    i = start
    end = min(len(text), start + 20_000)
    while i < end and depth:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        i += 1
    return text[start:i]


def read_model(text: str) -> ModelKey | None:
    """The key of the Eloquent model a PHP file defines, or None when it defines none."""
    text = _without_comments(text)
    match = _CLASS.search(text)
    if match is None:
        return None
    name, parent = match.group(1), match.group(2)
    imports = {(alias or full.rsplit("\\", 1)[-1]): full for full, alias in _IMPORT.findall(text[: match.start()])}
    parent_full = imports.get(parent, parent)
    eloquent = ("Illuminate\\Database\\Eloquent" in parent_full or "Illuminate\\Foundation\\Auth\\User" in parent_full
                or parent in ("Model", "Authenticatable", "Pivot", "MorphPivot"))
    if not eloquent:
        return None
    body_start = text.find("{", match.end())
    body = text[body_start + 1 :] if body_start >= 0 else ""
    traits: list[str] = []
    for group in _TRAITS.findall(body[:20_000]):
        traits.extend(t.strip() for t in group.split(",") if t.strip())
    properties = dict(_PROPERTY.findall(body))
    trait = None
    for used in traits:
        full = imports.get(used.lstrip("\\"), used.lstrip("\\"))
        short = full.rsplit("\\", 1)[-1]
        if short in ("HasUuids", "HasVersion4Uuids", "HasUlids") and (full.startswith(_LARAVEL_CONCERNS) or
                                                                      full == _LARAVEL_CONCERNS + short):
            trait = short
    generator, ordered, kind = None, None, ""
    if trait == "HasUuids":
        generator, ordered, kind = "HasUuids", True, "time-ordered UUIDs (Str::orderedUuid, UUIDv7 from Laravel 12)"
    elif trait == "HasVersion4Uuids":
        generator, ordered, kind = "HasVersion4Uuids", True, "time-ordered UUIDs (Str::orderedUuid: the time first)"
    elif trait == "HasUlids":
        generator, ordered, kind = "HasUlids", True, "ULIDs (time-ordered)"
    method = _new_unique_id(body)
    line = _line_of(text, match.start())
    if method is not None:
        code = _body(body, method[1])
        line = _line_of(text, body_start + 1 + method[0])
        if _RANDOM_CALLS.search(code):
            call = _RANDOM_CALLS.search(code)
            generator, ordered, kind = f"newUniqueId() returning {call.group().rstrip('(').strip()}()", False, "random UUIDv4"  # type: ignore[union-attr]
        elif _ORDERED_CALLS.search(code):
            call = _ORDERED_CALLS.search(code)
            generator, ordered, kind = f"newUniqueId() returning {call.group().rstrip('(').strip()}()", True, "time-ordered ids"  # type: ignore[union-attr]
        else:
            generator, ordered, kind = "newUniqueId()", None, "ids made by the model's own code"
    elif trait is not None:
        line = _line_of(text, body_start + 1 + body.find(trait))
    return ModelKey(name, properties.get("table"), properties.get("primaryKey", "id"), trait, generator, ordered, kind,
                    line)


# --- table names --------------------------------------------------------------------------------

_UNCOUNTABLE = frozenset({
    "audio", "data", "equipment", "feedback", "information", "metadata", "money", "news", "rice", "series",
    "sheep", "species", "deer", "fish", "staff", "traffic", "software", "hardware", "knowledge", "education",
    "evidence", "furniture", "luggage", "music", "police", "cattle", "moose", "swine", "offspring",
})
_IRREGULAR = {
    "person": "people", "man": "men", "woman": "women", "child": "children", "mouse": "mice", "goose": "geese",
    "foot": "feet", "tooth": "teeth", "ox": "oxen", "leaf": "leaves", "life": "lives", "knife": "knives",
    "wife": "wives", "half": "halves", "wolf": "wolves", "shelf": "shelves", "calf": "calves", "thief": "thieves",
    "criterion": "criteria", "phenomenon": "phenomena", "analysis": "analyses", "crisis": "crises",
    "thesis": "theses", "axis": "axes", "index": "indices", "matrix": "matrices", "vertex": "vertices",
    "quiz": "quizzes", "hero": "heroes", "potato": "potatoes", "tomato": "tomatoes", "echo": "echoes",
    "cactus": "cacti", "alumnus": "alumni", "syllabus": "syllabi", "focus": "foci", "medium": "media",
    "curriculum": "curricula", "datum": "data",
}


def plural(word: str) -> str:
    """English plural of a lower-case word, as Laravel's inflector makes it for common words."""
    if word in _UNCOUNTABLE:
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def default_table(model: str) -> str:
    """`Str::snake(Str::pluralStudly(model))`: the last word (from the last capital letter) made
    plural, then `_` before every capital but the first, lower case (`UserProfile` ->
    `user_profiles`; Laravel's snake case gives `HTTPLog` -> `h_t_t_p_logs`)."""
    last = re.search(r"[A-Z][^A-Z]*$", model)
    start = last.start() if last is not None else 0
    word = model[start:]
    made = plural(word.lower())
    if word[:1].isupper():
        made = made[:1].upper() + made[1:]
    studly = model[:start] + made
    return re.sub(r"(.)(?=[A-Z])", r"\1_", studly).lower()
