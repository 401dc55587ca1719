"""A new migration in a history's own format: the one entry `innolint fix --migration DIR` uses
(and any other caller). Each format writes its own (`Format.write`, see
linter.input.migrations.formats and docs/migration-formats.md), so that the tool that runs the
history runs it next; the version is the one after the highest of every name in the directory
(down and undo files too), and a 14-digit timestamp becomes the current UTC time when that is
later."""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Callable

from linter.input.migrations.formats import named
from linter.input.migrations.formats.base import Draft, History, NewMigration


def directory_of(history: History) -> str:
    """The directory a history's new migrations go in: its root, or a root file's directory."""
    return history.root if os.path.isdir(history.root) else os.path.dirname(history.root)


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "innolint_fix"


def new_migration(
    history: History, name: str, up: str, down: str | None = None, *, names: list[str] | None = None,
    now: float | None = None, inside: Callable[[str], bool] = lambda path: True,
) -> NewMigration:
    """The migration holding `up` (and `down`, where the format keeps one) that runs after every
    migration of `history`, named after `name` (see the module docstring). `names`: every name in
    the history's directory (default: read from it); `inside`: where files beside it may be read
    (`linter.input.file_access.read_inside`). Raises WritingError when no name is sure to run last."""
    root = directory_of(history)
    if names is None:
        names = sorted(os.listdir(root))
    up = up.rstrip("\n") + "\n"
    return named(history.format).write(Draft(history, root, names, slug(name), up, down, now, inside, _spans))


def _spans(text: str) -> list[tuple[int, int]]:
    """The first and last line of each statement of `text`, as the splitter reads it."""
    from linter.input.split import split_stream

    return [(s.line, s.end_line) for s in split_stream([text], "<migration>")]


def utc(now: datetime.datetime) -> float:
    """A datetime as the `now` the writers take (seconds since the epoch; a naive one is UTC)."""
    return (now if now.tzinfo is not None else now.replace(tzinfo=datetime.timezone.utc)).timestamp()
