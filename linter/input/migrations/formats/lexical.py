"""Lexical order: every SQL file under a configured directory in path order, down migrations
(`.down.sql`, `down.sql`) left out. Only when configured, or as the fallback of a configured
directory whose names follow no format; its files are run by the mysql client (its commands are
the client's). A new migration is the next number with the same spelling, sorting last (the
files must be numbered)."""

from __future__ import annotations

import os

from linter.input.migrations.formats.base import Directory, Draft, Format, History, NewMigration
from linter.input.migrations.formats.timestamp import numbered_name


def _is_down(path: str) -> bool:
    name = os.path.basename(path).lower()
    return name.endswith(".down.sql") or name == "down.sql"


class Lexical(Format):
    name = "lexical"
    title = "lexical order"
    client = True
    doc = ("every SQL file under the directory in path order, down migrations left out: only when configured, "
           "or the fallback of a configured directory whose names follow no format")
    writes = "the next numbered file of a lexical history"

    def order(self, directory: Directory, configured: bool) -> tuple[History | None, list[str]]:
        root, files = directory.root, directory.files
        forward = sorted((p for p in files if not _is_down(p)), key=lambda p: os.path.relpath(p, root))
        return History(root, self.name, forward, [(p, "down migration") for p in files if _is_down(p)]), []

    def write(self, draft: Draft) -> NewMigration:
        name, _ = numbered_name(draft)
        return NewMigration({name: draft.up})


FORMAT = Lexical()
