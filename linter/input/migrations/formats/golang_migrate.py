"""golang-migrate: `0001_x.up.sql`, by the version's number; `.down.sql` files are not run.
Kratos/pop's `0001_x.mysql.up.sql` keeps the mysql/mariadb (or dialect-less) files and leaves
out the postgres/cockroach/sqlite ones. The tool sends each file whole to the server. It records
what ran in `schema_migrations`. A new migration is the next version's `.up.sql` and `.down.sql`
(with the directory's dialect tag)."""

from __future__ import annotations

import os
import re

from linter.input.migrations.formats.base import Draft, Entry, NamedFormat, NewMigration, next_version, numbers, versions

_NAME = r"(?i)^(\d+)_(.+)\.(up|down)\.sql$"
#: Kratos/pop dialect tags in `<version>_<name>.<dialect>.up.sql`
_DIALECTS = frozenset({"mysql", "mariadb", "postgres", "postgresql", "cockroach", "crdb", "sqlite", "sqlite3", "mssql"})
_OUR_DIALECTS = frozenset({"mysql", "mariadb"})


class GolangMigrate(NamedFormat):
    name = "golang-migrate"
    records_version_only = True
    title = "golang-migrate"
    family = "golang-migrate"
    record_tables = ("schema_migrations",)
    recorded_suffixes = (".up", ".mysql", ".mariadb")
    doc = ("`0001_x.up.sql`, by the version's number; `.down.sql` files are not run. Kratos/pop's "
           "`0001_x.mysql.up.sql` keeps the mysql/mariadb (or dialect-less) files and leaves out the "
           "postgres/cockroach/sqlite ones")
    writes = "a golang-migrate `.up.sql` and `.down.sql` pair (Kratos/pop's dialect tag kept)"

    def entry(self, path: str) -> Entry | None:
        if m := re.match(_NAME, os.path.basename(path)):
            label, _, dialect = m.group(2).rpartition(".")
            ignored = "down migration" if m.group(3).lower() == "down" else None
            if label and dialect.lower() in _DIALECTS and dialect.lower() not in _OUR_DIALECTS:
                ignored = ignored or f"{dialect} migration"
            return Entry(path, self.family, (numbers(m.group(1)), m.group(2)), ignored)
        return None

    def write(self, draft: Draft) -> NewMigration:
        dialects = {m.group(1).lower() for n in draft.names
                    if (m := re.search(r"\.(mysql|mariadb)\.(?:up|down)\.sql$", n, re.I))}
        version = next_version(versions(draft.names, r"^(\d+)_"))
        stem = f"{version}_{draft.label}" + (f".{dialects.pop()}" if len(dialects) == 1 else "")
        files = {f"{stem}.up.sql": draft.up}
        if draft.down is not None:
            files[f"{stem}.down.sql"] = draft.down
        return NewMigration(files, note=None if draft.down is not None else f"{self.name} also wants a .down.sql")


FORMAT = GolangMigrate()
