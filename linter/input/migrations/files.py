"""What a migration file's name says, asked of the formats (`linter.input.migrations.formats`):
the family its name follows with its sort key and whether it is applied (`classify`), and the
directory its history is rooted in (`detected_root`). Read by `history` (which files form a
history), by the fingerprints of the baseline and by `linter.since`; names only, never a file's
text."""

from __future__ import annotations

import os

from linter.input.migrations.formats import FORMATS, NAMING
from linter.input.migrations.formats import base
from linter.input.migrations.formats.base import Entry


def classify(path: str) -> Entry | None:
    """The migration family a file's name follows, or None (an ordinary SQL file)."""
    return base.classify(path, NAMING)


def detected_root(path: str) -> str:
    """The directory whose history a file would belong to: its own directory, or the one a format
    says (one directory per migration: the directory above). (A history rooted in a file, a
    changelog, is found by `history.plan`.)"""
    for fmt in FORMATS:
        root = fmt.directory_root(path)
        if root is not None:
            return root
    return os.path.dirname(os.path.abspath(path))


def forget_listings() -> None:
    """Start afresh: what the formats listed of directories may have changed since (a run begins
    with this; `Format.forget`)."""
    for fmt in FORMATS:
        fmt.forget()
