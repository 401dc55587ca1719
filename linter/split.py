"""Split SQL text into statements, with positions. No sqlglot here.

(Being written: see the interface below.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement as the server would receive it, and where it stands in its file."""

    text: str  # executable comments unwrapped in place; no delimiter; starts at the first SQL token
    path: str
    line: int  # 1-based line of the first SQL token
    column: int  # 1-based column of the first SQL token
    end_line: int  # line of the statement's last character
    #: texts of the comments just before the statement and after it on its end line
    #: (`-- innolint: ...` directives live there), without the comment markers
    comments: tuple[str, ...] = ()
    #: the version of the executable comment that wrapped the whole statement ("50001", "M!100301"), if any
    executable: str | None = None


def split_stream(chunks: Iterable[str], path: str, *, migration_markers: bool = False) -> Iterator[Statement]:
    raise NotImplementedError
