"""Flyway: `V1__x.sql`, `V1_2__x.sql`, `V1.2__x.sql` versioned migrations, versions compared
numerically (V2 before V10); `R__x.sql` repeatables after every versioned one, by description;
`U1__x.sql` undo migrations are not run. Flyway sends each file's statements to the server
itself. It records what ran in `flyway_schema_history`. A new migration is the next `V`
version, with its `U` undo when the directory keeps undo files."""

from __future__ import annotations

import functools
import os
import re
from collections import Counter

from linter.input.migrations.formats.base import Draft, Entry, NamedFormat, NewMigration, next_version, numbers, versions

#: file-name patterns, left to `re.match` to compile on first use: a run meets few formats, and
#: compiling every pattern up front costs more than matching the names of a directory
_VERSIONED = r"^[Vv](\d+(?:[._]\d+)*)__(.+)\.sql$"
_UNDO = r"^[Uu](\d+(?:[._]\d+)*)__(.+)\.sql$"
_REPEATABLE = r"^[Rr]__(.+)\.sql$"


class Flyway(NamedFormat):
    name = "flyway"
    title = "Flyway"
    family = "flyway"
    record_tables = ("flyway_schema_history",)
    doc = ("`V1__x.sql`, `V1_2__x.sql`, `V1.2__x.sql`, versions compared numerically (V2 before V10); "
           "`R__x.sql` repeatables after every versioned one, by description; `U1__x.sql` undo migrations "
           "are not run")
    writes = "Flyway's next `V` version (and its `U` undo when the directory keeps undo files)"
    folders = True
    on_edit = "Flyway's validate fails (checksum or description mismatch) and migrate stops until it is repaired"

    def directory_root(self, path: str) -> str | None:
        name = os.path.basename(path)
        if re.match(_VERSIONED, name) or re.match(_REPEATABLE, name):
            return location(os.path.dirname(os.path.abspath(path)))
        return None

    def forget(self) -> None:
        _location.cache_clear()
        _versions.cache_clear()
        _folder_versions.cache_clear()

    def meant_to_change(self, entry: Entry) -> bool:
        return entry.key[0] == 1  # R__: run again whenever its checksum changes

    def version(self, entry: Entry) -> object:
        return entry.key[1]

    def entry(self, path: str) -> Entry | None:
        name = os.path.basename(path)
        if m := re.match(_VERSIONED, name):
            return Entry(path, self.family, (0, numbers(m.group(1)), m.group(2)))
        if m := re.match(_REPEATABLE, name):
            return Entry(path, self.family, (1, (), m.group(1)))
        if m := re.match(_UNDO, name):
            return Entry(path, self.family, (0, numbers(m.group(1)), m.group(2)), "undo migration")
        return None

    def write(self, draft: Draft) -> NewMigration:
        version = next_version(versions(draft.names, r"^[VvUu](\d+(?:[._]\d+)*)__"))
        files = {f"V{version}__{draft.label}.sql": draft.up}
        if draft.down is not None and any(re.match(r"^[Uu]\d", n) for n in draft.names):
            files[f"U{version}__{draft.label}.sql"] = draft.down
        return NewMigration(files)


FORMAT = Flyway()


#: how many directories above a Flyway migration its location may be
_LEVELS = 8


def location(directory: str) -> str:
    """The Flyway location a directory holding Flyway migrations belongs to: Flyway scans a
    location and every folder below it as one history (`db/migration/release2/V5__x.sql` runs
    after `db/migration/V1__init.sql`), so the location is the highest directory above that
    still holds Flyway migrations itself, or whose other folders hold some whose versions do not
    collide with this one's (`db/migration/release1/` and `release2/`: two folders numbered V1 are
    two histories, as Flyway would refuse them as one). The climb stops at a repository's top (a
    `.git`) and after a few levels. Each directory is listed once per run (`Flyway.forget` starts
    a run afresh), so a history of N folders costs N listings."""
    return _location(os.path.abspath(directory))


@functools.lru_cache(maxsize=4096)
def _location(directory: str) -> str:
    current = directory
    for _ in range(_LEVELS):
        parent = os.path.dirname(current)
        if parent == current or os.path.lexists(os.path.join(current, ".git")):
            break
        if _versions(parent) or _siblings_join(parent, current):
            current = parent
            continue
        break
    return current


@functools.lru_cache(maxsize=4096)
def _versions(directory: str) -> frozenset[tuple[int, ...]]:
    """The versions of the Flyway migrations directly in a directory (repeatables count as
    `()`), empty when it holds none."""
    try:
        names = os.listdir(directory)
    except OSError:
        return frozenset()
    found: set[tuple[int, ...]] = set()
    for name in names:
        if m := re.match(_VERSIONED, name):
            found.add(numbers(m.group(1)))
        elif re.match(_REPEATABLE, name):
            found.add(())
    return frozenset(found)


def _siblings_join(parent: str, current: str) -> bool:
    """Whether other folders of `parent` hold Flyway migrations whose versions are none of
    `current`'s: then `parent` is the location they share. The folders' versions are counted once
    per parent (`_folder_versions`), so each folder asks in time of its own versions."""
    holding, counts = _folder_versions(parent)
    mine = _versions(current) - {()}
    others = holding - (1 if mine else 0)
    return others > 0 and not any(counts[v] > 1 for v in mine)


@functools.lru_cache(maxsize=1024)
def _folder_versions(parent: str) -> tuple[int, Counter[tuple[int, ...]]]:
    """How many folders of a directory (links not followed) hold Flyway versions, and in how many
    folders each version is."""
    try:
        with os.scandir(parent) as entries:
            folders = [os.path.join(parent, e.name) for e in entries if e.is_dir(follow_symlinks=False)]
    except OSError:
        return 0, Counter()
    holding = 0
    counts: Counter[tuple[int, ...]] = Counter()
    for folder in folders:
        versions = _versions(folder) - {()}
        if versions:
            holding += 1
            counts.update(versions)
    return holding, counts
