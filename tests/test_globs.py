"""Globs (`linter.input.globs`) and user regexes (`linter.config.user_regex`): the same answers as the
backtracking engines they replace, in time linear in the text whatever the pattern.

The complexity tests run each hostile pattern on a text of n and of 10n characters in the same
run: linear time grows 10x; the limit is 15x (brief), the backtracking engines grew by minutes.
"""

from __future__ import annotations

import fnmatch
import random
import re
from collections.abc import Callable

import pytest

from linter.config.defaults import ConfigError
from linter.config.settings import glob_match, validate
from linter.input.globs import GlobSet, name_match, path_match
from linter.config.user_regex import UnsafeRegex, UserRegex, compile_user_regex
from tests import sampling
from tests.complexity import assert_linear

def _reference_path_regex(pattern: str) -> re.Pattern[str]:
    """The regex translation glob_match used before (the reference semantics; it backtracks, so
    it is only run here on short names)."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def _reference_path_match(pattern: str, relative: str) -> bool:
    pattern = pattern.strip()
    if not pattern:
        return False
    if "/" not in pattern.strip("/"):
        return any(fnmatch.fnmatchcase(part, pattern.strip("/")) for part in relative.split("/"))
    anchored = pattern.lstrip("/").rstrip("/")
    return bool(_reference_path_regex(anchored).fullmatch(relative)
                or _reference_path_regex(anchored + "/**").fullmatch(relative))


def test_path_globs_agree_with_the_reference_on_generated_patterns() -> None:
    rng = random.Random(14)  # the first cases of the stream (INNOLINT_EXHAUSTIVE: all)
    for _ in range(sampling.size(10_000, 30_000)):
        pattern = "".join(rng.choice("ab/*?.") for _ in range(rng.randint(1, 10)))
        path = "".join(rng.choice("ab/.x") for _ in range(rng.randint(0, 10)))
        assert path_match(pattern, path) is _reference_path_match(pattern, path), (pattern, path)


def test_name_globs_agree_with_fnmatch_on_generated_patterns() -> None:
    rng = random.Random(15)
    for _ in range(sampling.size(10_000, 30_000)):
        pattern = "".join(rng.choice("ab*?[]!-.^") for _ in range(rng.randint(1, 10)))
        if any(low > high for low, high in re.findall(r"(.)-(?=(.))", pattern)):
            continue  # reversed ranges: fnmatch drops their ends in ways of its own; here they match nothing
        name = "".join(rng.choice("ab./x-]![^") for _ in range(rng.randint(0, 8)))
        assert name_match(pattern, name) is fnmatch.fnmatchcase(name, pattern), (pattern, name)


@pytest.mark.parametrize("path", [True, False])
def test_a_glob_set_answers_as_its_patterns_one_by_one(path: bool) -> None:
    """A `GlobSet` (patterns indexed by their literal ends, run side by side) gives the first
    pattern that `path_match` / `name_match` would find looping over them, on generated sets of
    patterns (literal starts and ends, `**/`, classes, the same literal under several patterns)."""
    rng = random.Random(37 + path)
    for _ in range(sampling.size(2_000, 6_000)):  # the first third of the fixed stream (docs/testing.md)
        patterns = ["".join(rng.choice("ab/*?[]!-.xé") for _ in range(rng.randint(0, 10))) for _ in range(rng.randint(1, 9))]
        globs = GlobSet(patterns, path=path)
        for _ in range(8):
            text = "".join(rng.choice("ab/.x-é]") for _ in range(rng.randint(0, 10)))
            expected = next((i for i, p in enumerate(patterns) if (path_match(p, text) if path else name_match(p, text))),
                            None)
            assert globs.first(text) == expected, (patterns, text)


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("db/[0-9]*.sql", "db/1_init.sql", True),
        ("db/[!0-9]*.sql", "db/1_init.sql", False),
        ("db/[/]x", "db//x", False),  # a class never matches the separator
        ("db/?", "db//", False),
        ("**/legacy", "a/b/legacy/x.sql", True),
        ("db/**a**b", "db/x/a/y/b", True),
    ],
)
def test_path_glob_cases(pattern: str, path: str, matches: bool) -> None:
    assert glob_match(pattern, path) is matches


HOSTILE_GLOBS = ["db/" + "**a" * 8 + "**b", "**/" * 6 + "x", "*a*a*a*a*a*a*a*a*b", "db/*" + "?*" * 10 + "z"]


@pytest.mark.parametrize("pattern", HOSTILE_GLOBS)
def test_glob_time_is_linear_in_the_name(pattern: str) -> None:
    names = {size: "db/" + "a" * size for size in (2000, 20_000)}
    assert not path_match(pattern, names[2000])
    assert_linear(lambda size: lambda: (path_match(pattern, names[size]), name_match(pattern, names[size])), 2000,
                  what=pattern)


def test_the_reported_exclude_is_linear_through_the_configuration(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The reported case (minutes on a 60-character name), as a configuration file says it."""
    from linter.config.settings import ConfigResolver

    (tmp_path / ".innolint.toml").write_text('exclude = ["db/**a**a**a**a**a**a**a**a**b"]\n')
    loaded = ConfigResolver().for_path(str(tmp_path / "x.sql"))
    paths = {size: str(tmp_path / "db" / ("a" * size + ".sql")) for size in (60, 600)}
    assert not loaded.is_excluded(paths[60], named=True)
    assert_linear(lambda size: lambda: loaded.is_excluded(paths[size], named=True), 60)


# --- user regexes ---------------------------------------------------------------------------

_ATOMS = ["a", "b", "_", "1", ".", "[ab]", "[^a]", r"\d", r"\w", r"\s", r"\D", r"\W", "[a-c_]", r"\b", r"\B",
          "^", "$", r"\A", r"\Z", "[0-9]", "x", "A"]
_QUANTIFIERS = ["*", "+", "?", "{2}", "{1,3}", "{0,2}", "*?", "+?", "{2,}"]


def _generated_pattern(rng: random.Random, depth: int = 0) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.2 and depth < 3:
            shape = rng.choice(["({})", "(?:{})", "({}|{})", "(?i:{})"])
            atom = shape.format(*(_generated_pattern(rng, depth + 1) for _ in range(shape.count("{}"))))
        else:
            atom = rng.choice(_ATOMS)
        if rng.random() < 0.3:
            atom += rng.choice(_QUANTIFIERS)
        parts.append(atom)
    return rng.choice(["", "", "", "(?i)", "(?m)", "(?s)", "(?a)"]) + "".join(parts)


def test_user_regex_agrees_with_re_on_generated_patterns() -> None:
    rng = random.Random(16)
    checked = 0
    patterns = sampling.size(1000, 3000)
    for _ in range(patterns):
        pattern = _generated_pattern(rng)
        try:
            reference = re.compile(pattern)
        except re.error:
            continue
        compiled = UserRegex(pattern)
        for _ in range(15):
            text = "".join(rng.choice("ab_1 xA\n") for _ in range(rng.randint(0, 6)))
            assert compiled.fullmatch(text) is bool(reference.fullmatch(text)), (pattern, text)
            checked += 1
    assert checked > patterns * 20 // 3  # most generated patterns compile (20,000 texts of 3,000 patterns)


@pytest.mark.parametrize(
    ("pattern", "names", "expected"),
    [
        (r"^tenant_\d+$", ["tenant_1", "tenant_0042", "tenant_", "xtenant_1", "tenant_1\n"], [True, True, False, False, False]),
        (r"(?i)cust_[0-9]{2,3}", ["CUST_12", "cust_1", "cust_1234"], [True, False, False]),
        (r"t\d|shop_(eu|us)", ["t1", "shop_eu", "shop_de", "t12"], [True, True, False, False]),
        (r".*", ["", "anything"], [True, True]),
    ],
)
def test_user_regex_cases(pattern: str, names: list[str], expected: list[bool]) -> None:
    compiled = compile_user_regex(pattern)
    assert [compiled.fullmatch(name) for name in names] == expected


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        (r"(a)\1", "backreferences"),
        (r"(?P<x>a)(?P=x)", "backreferences"),
        (r"(?=a)a", "lookahead and lookbehind"),
        (r"(?<!a)b", "lookahead and lookbehind"),
        (r"(a)?(?(1)b|c)", "conditional groups"),
        (r"a*+", "possessive quantifiers"),
        (r"(?>a+)b", "atomic groups"),
        ("(x{100}){100}", "too large"),
        ("(tenant", "not a regular expression"),
        ("(" * 2000 + ")" * 2000, "nested too deeply"),
    ],
)
def test_user_regex_refusals_say_why(pattern: str, reason: str) -> None:
    with pytest.raises(UnsafeRegex, match=reason):
        UserRegex(pattern)


def test_a_refused_tenant_pattern_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError, match=r"tenant_schema_pattern: backreferences are not allowed"):
        validate({"tenant_schema_pattern": r"(t)\1_\d+"}, "cfg.toml")


#: (pattern, n): n large enough for a run of a few milliseconds (the assertions at \b run the
#: automaton state by state, ~5 us a character; the others run as a cached DFA, ~0.2 us)
HOSTILE_REGEXES = [(r"(a|a)*b", 20_000), (r"(a*)*b", 20_000), (r"a*a*a*a*a*a*a*a*a*a*b", 20_000),
                   (r"(\w+\s?)*$", 20_000), (r"^(a|aa)+$", 20_000), (r"(.*a){8}b", 20_000), (r"\ba*\b\Bb", 2000)]


@pytest.mark.parametrize(("pattern", "n"), HOSTILE_REGEXES)
def test_user_regex_time_is_linear_in_the_text(pattern: str, n: int) -> None:
    compiled = UserRegex(pattern)
    texts = {size: "a" * size + "!" for size in (n, 10 * n)}  # the classic: a near miss at the end
    assert not compiled.fullmatch(texts[n])
    assert_linear(lambda size: lambda: compiled.fullmatch(texts[size]), n, what=pattern)


@pytest.mark.parametrize("shape", ["1{}x", "{}1x", "1.{}x", "1{}Gi x"])
def test_size_option_time_is_linear(shape: str) -> None:
    """`min_size = "1      ...x"` from a configuration: refused in time linear in its length."""
    from linter.rules.options import size_bytes

    values = {size: shape.format(" " * size) for size in (20_000, 200_000)}

    def refuse(size: int) -> Callable[[], None]:
        def run() -> None:
            with pytest.raises(ValueError):
                size_bytes(values[size])

        return run

    assert_linear(refuse, 20_000, what=shape)
    assert size_bytes(" 512 MiB ") == 512 << 20 and size_bytes("2GB") == 2 << 30 and size_bytes("1.5k") == 1536
    assert size_bytes("100") == 100 and size_bytes("7B") == 7 and size_bytes("3iB") == 3 and size_bytes("1 t") == 1 << 40
    for bad in ("", "GiB", "1 GiBx", "1.2.3G", "-1G", "1 X"):
        with pytest.raises(ValueError):
            size_bytes(bad)
