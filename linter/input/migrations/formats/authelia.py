"""Authelia: `V0001.Name.up.sql`, by the version's number; `.down.sql` files are not run. The
tool sends the text to the server itself. A new migration is the next version's `.up.sql` and
`.down.sql`."""

from __future__ import annotations

import os
import re

from linter.input.migrations.formats.base import Draft, Entry, NamedFormat, NewMigration, next_version, numbers, versions

_NAME = r"^V(\d+)\.(.+)\.(up|down)\.sql$"


class Authelia(NamedFormat):
    name = "authelia"
    records_version_only = True
    title = "Authelia"
    family = "authelia"
    recorded_suffixes = (".up",)
    doc = "`V0001.Name.up.sql`, by the version's number; `.down.sql` files are not run"
    writes = "an Authelia `V<next>.<Name>.up.sql` and `.down.sql` pair"

    def entry(self, path: str) -> Entry | None:
        if m := re.match(_NAME, os.path.basename(path)):
            ignored = "down migration" if m.group(3) == "down" else None
            return Entry(path, self.family, (numbers(m.group(1)), m.group(2)), ignored)
        return None

    def write(self, draft: Draft) -> NewMigration:
        version = next_version(versions(draft.names, r"^V(\d+)\."))
        stem = f"V{version}." + "".join(p.capitalize() for p in draft.label.split("_"))
        files = {f"{stem}.up.sql": draft.up}
        if draft.down is not None:
            files[f"{stem}.down.sql"] = draft.down
        return NewMigration(files, note=None if draft.down is not None else f"{self.name} also wants a .down.sql")


FORMAT = Authelia()
