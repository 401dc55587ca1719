"""Numbered and timestamped files (`<number or timestamp>_x.sql`: Rails, Laravel's
`2024_01_01_000000_x.sql`, Kratos, `001_init.sql`), by the numbers of the prefix; `.down.sql`
files are not run. The family of names goose and dbmate files follow too (`Numbered`); a
directory of them without either tool's annotations is this format, whose files the mysql client
runs (its commands are the client's). Laravel records what ran in `migrations` and Rails in
`schema_migrations`; Laravel's `php artisan schema:dump` writes the schema beside
`database/migrations` in `database/schema/<connection>-schema.sql`. A new migration is the next
number with the same spelling, sorting last."""

from __future__ import annotations

import os
import re

from linter.input.migrations.formats.base import (
    VERSION,
    Draft,
    Entry,
    NamedFormat,
    NewMigration,
    WritingError,
    next_version,
    numbers,
    sorting_after,
)

#: the family's name (`Entry.family`)
FAMILY = "numbered"
_NAME = rf"^({VERSION})[_-](.+)\.sql$"


class Numbered(NamedFormat):
    """The formats whose files are named `<number or timestamp>_x.sql`."""

    family = FAMILY

    def entry(self, path: str) -> Entry | None:
        name = os.path.basename(path)
        if m := re.match(_NAME, name):
            if name.lower().endswith(".down.sql"):
                return Entry(path, FAMILY, (numbers(m.group(1)), m.group(2)), "down migration")
            return Entry(path, FAMILY, (numbers(m.group(1)), m.group(2)))
        return None

    def write(self, draft: Draft) -> NewMigration:
        name, _ = numbered_name(draft)
        return NewMigration({name: draft.up})


def numbered_name(draft: Draft) -> tuple[str, str]:
    """A name after every numbered one (`<number or timestamp><separator><name>.sql`), and its version."""
    numbered = [m for n in draft.names if (m := re.match(r"^(\d+(?:[._-]\d+(?=[._-]))*)([_-])", n))]
    if not numbered:
        raise WritingError(f"{draft.history.root}: the history's files are not numbered, so no new name is sure to "
                           "run last")
    last = max(numbered, key=lambda m: (numbers(m.group(1)), m.group(1)))
    version = next_version([m.group(1) for m in numbered], draft.now)
    return sorting_after(f"{version}{last.group(2)}{draft.label}.sql", draft.names), version


class Timestamp(Numbered):
    name = "timestamp"
    title = "timestamp-named files"
    client = True
    record_tables = ("migrations", "schema_migrations")
    doc = ("`<number or timestamp>_x.sql` (Rails, Laravel's `2024_01_01_000000_x.sql`, Kratos, `001_init.sql`), "
           "by the numbers of the prefix; `.down.sql` files are not run; run by the mysql client (its commands "
           "are the client's)")
    writes = "a numbered file for timestamp-named histories"

    def baseline_dumps(self, root: str) -> list[str]:
        """Laravel's `database/schema/<connection>-schema.sql` for `database/migrations`."""
        root = os.path.abspath(root)
        if os.path.basename(root) != "migrations" or not os.path.isdir(root):
            return []
        schema = os.path.join(os.path.dirname(root), "schema")
        try:
            names = sorted(os.listdir(schema))
        except OSError:
            names = []
        return [os.path.join(schema, n) for n in names if n.endswith(("-schema.sql", "-schema.dump"))]


FORMAT = Timestamp()
