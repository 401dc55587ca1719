"""Did-you-mean for names people type: rule ids (`explain`, `--select`/`--ignore`, suppressions)
and configuration keys, all through `close_match`, so a typo gets the same answer wherever it is
made."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: longer words get no suggestion: no name is this long, and difflib's matching is not linear
_LONGEST = 100


def close_match(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to `word` (difflib's ratio at least 0.6), or None."""
    if len(word) > _LONGEST:
        return None
    found = difflib.get_close_matches(word, list(choices), n=1)
    return found[0] if found else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the closest choice, or "" when none is close."""
    close = close_match(word, choices)
    return f" (did you mean {close!r}?)" if close is not None else ""
