"""Flyway: `V1__x.sql`, `V1_2__x.sql`, `V1.2__x.sql` versioned migrations, versions compared
numerically (V2 before V10); `R__x.sql` repeatables after every versioned one, by description;
`U1__x.sql` undo migrations are not run. Flyway sends each file's statements to the server
itself. It records what ran in `flyway_schema_history`. A new migration is the next `V`
version, with its `U` undo when the directory keeps undo files."""

from __future__ import annotations

import os
import re

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
    on_edit = "Flyway's validate fails (checksum or description mismatch) and migrate stops until it is repaired"

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
