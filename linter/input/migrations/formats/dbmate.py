"""dbmate: numbered files (`20240101000000_x.sql`, the `timestamp` family of names) with
dbmate's annotations, `-- migrate:up` and `-- migrate:down` (options may follow; the down section
is not run); told from goose's files by the annotation that comes first. dbmate sends the text to
the server itself and records what ran in `schema_migrations`. A new migration is one file with
both sections."""

from __future__ import annotations

from linter.input.migrations.formats.base import Directory, Draft, NewMigration
from linter.input.migrations.formats.timestamp import FAMILY, Numbered, numbered_name


class Dbmate(Numbered):
    name = "dbmate"
    records_version_only = True
    title = "dbmate"
    sections = True
    head_mark = "migrate:up"
    opening = "-- migrate:up\n"
    record_tables = ("schema_migrations",)
    doc = "numbered files with `-- migrate:up` / `-- migrate:down` (the down section not run), in dbmate files only"
    writes = "a dbmate file with `migrate:up` and `migrate:down`"

    def detect(self, directory: Directory) -> bool:
        return directory.family() == FAMILY and directory.marked(FAMILY) is self

    def section(self, text: str) -> str | None:
        words = " ".join(text.split()).lower()
        for direction in ("up", "down"):
            tag = "migrate:" + direction
            if words == tag or words.startswith(tag + " "):  # dbmate allows options after the tag
                return direction
        return None

    def write(self, draft: Draft) -> NewMigration:
        name, _ = numbered_name(draft)
        return NewMigration({name: f"-- migrate:up\n{draft.up}\n-- migrate:down\n{draft.down or ''}"})


FORMAT = Dbmate()
