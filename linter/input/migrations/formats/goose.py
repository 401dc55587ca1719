"""goose: numbered files (`00001_x.sql`, the `timestamp` family of names) with goose's
annotations, `-- +goose Up` and `-- +goose Down` (the Down section is not run),
`StatementBegin`/`StatementEnd` around a statement sent whole; told from dbmate's files by the
annotation that comes first. goose sends each statement to the server itself and records what ran
in `goose_db_version`. A new migration is one file with its Up and Down sections, a statement of
several lines between StatementBegin and StatementEnd (goose ends one at a line ending in `;`)."""

from __future__ import annotations

from linter.input.migrations.formats.base import Directory, Draft, NewMigration
from linter.input.migrations.formats.timestamp import FAMILY, Numbered, numbered_name

_ANNOTATIONS = {
    "up": "up",
    "down": "down",
    "statementbegin": "begin",
    "statementend": "end",
    "no transaction": "ignore",
    "envsub on": "ignore",
    "envsub off": "ignore",
}


class Goose(Numbered):
    name = "goose"
    records_version_only = True
    title = "goose"
    sections = True
    head_mark = "+goose "
    opening = "-- +goose Up\n"
    record_tables = ("goose_db_version",)
    doc = ("numbered files with `-- +goose Up` / `-- +goose Down` (the Down section not run) and "
           "`StatementBegin`/`StatementEnd`, obeyed in goose files only")
    writes = "a goose file with its `Up` and `Down` sections"

    def detect(self, directory: Directory) -> bool:
        return directory.family() == FAMILY and directory.marked(FAMILY) is self

    def section(self, text: str) -> str | None:
        words = " ".join(text.split()).lower()
        if not words.startswith("+goose "):
            return None
        return _ANNOTATIONS.get(words[7:])

    def write(self, draft: Draft) -> NewMigration:
        name, _ = numbered_name(draft)
        return NewMigration({name: "-- +goose Up\n" + _section(draft, draft.up) + "\n-- +goose Down\n"
                             + _section(draft, draft.down or "")})


def _section(draft: Draft, text: str) -> str:
    """`text` with each statement of several lines (a name or a comment holding a line break)
    inside StatementBegin/StatementEnd, since goose ends a statement at a line ending in `;`;
    comments where they were."""
    out: list[str] = []
    consumed = 0
    lines = text.split("\n")
    for first, last in draft.spans(text):
        start, end = first - 1, last - 1
        out.extend(lines[consumed:start])
        block = lines[start:end + 1]
        if end > start:
            out.append("-- +goose StatementBegin")
            out.extend(block)
            out.append("-- +goose StatementEnd")
        else:
            out.extend(block)
        consumed = end + 1
    out.extend(lines[consumed:])
    return "\n".join(out).rstrip("\n") + "\n"


FORMAT = Goose()
