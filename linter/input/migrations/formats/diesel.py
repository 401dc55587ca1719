"""diesel: one directory per migration, `2018-01-14-171611_name/up.sql`, by the directory's
version; `down.sql` is not run. The history is the directory holding the migrations' directories.
A new migration is a directory `<next>_<name>/` with up.sql and down.sql."""

from __future__ import annotations

import os
import re
import time

from linter.input.migrations.formats.base import VERSION, Draft, Entry, NamedFormat, NewMigration, next_version, numbers, versions

_DIRECTORY = rf"^({VERSION})_(.+)$"
_FILES = ("up.sql", "down.sql")


class Diesel(NamedFormat):
    name = "diesel"
    records_version_only = True
    title = "diesel"
    family = "diesel"
    doc = "one directory per migration, `2018-01-14-171611_x/up.sql`, by the directory's version; `down.sql` not run"
    writes = "a diesel directory with up.sql and down.sql"

    def entry(self, path: str) -> Entry | None:
        name = os.path.basename(path)
        if name.lower() in _FILES and (match := re.match(_DIRECTORY, os.path.basename(os.path.dirname(path)))):
            ignored = "down migration" if name.lower() == "down.sql" else None
            return Entry(path, self.family, (numbers(match.group(1)), match.group(2)), ignored)  # type: ignore[arg-type]
        return None

    def directory_root(self, path: str) -> str | None:
        directory = os.path.dirname(os.path.abspath(path))
        if os.path.basename(path).lower() in _FILES and re.match(_DIRECTORY, os.path.basename(directory)):
            return os.path.dirname(directory)
        return None

    def migration_directory(self, name: str) -> bool:
        return re.match(_DIRECTORY, name) is not None

    def directory_file(self, name: str) -> bool:
        return name.lower() in _FILES

    def named_by_directory(self, name: str) -> bool:
        return name == "up.sql"

    def write(self, draft: Draft) -> NewMigration:
        found = versions(draft.names, r"^(\d+(?:[._-]\d+)*)_")
        highest = max(found, key=numbers) if found else ""
        if not highest or re.fullmatch(r"\d{4}-\d{2}-\d{2}-\d{6}", highest):
            version = time.strftime("%Y-%m-%d-%H%M%S", time.gmtime(draft.now if draft.now is not None else time.time()))
            if highest and numbers(version) <= numbers(highest):
                version = next_version([highest])
        else:
            version = next_version(found)
        folder = f"{version}_{draft.label}"
        return NewMigration({f"{folder}/up.sql": draft.up,
                             f"{folder}/down.sql": draft.down or "-- innolint fix: nothing to undo\n"}, directory=folder)


FORMAT = Diesel()
