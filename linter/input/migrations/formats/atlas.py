"""Atlas: a directory holding `atlas.sum`, every `*.sql` file directly in it run by name (byte
order), from the last checkpoint on; the integrity file checked, and the delimiter directive.
Atlas sends the statements to the server itself. A new migration is a file that sorts after every
other, and atlas.sum written again as `atlas migrate hash` writes it.

Atlas runs every `*.sql` file directly in the directory, sorted by name (byte order), and
refuses a directory whose `atlas.sum` does not match its files. The file's first line is
`h1:` and the base64 SHA-256 of every listed name and hash; then one line per file,
`<name> h1:<hash>`, where each hash is the base64 SHA-256 of every file's name and content up to
and including that file (a chain: changing one file changes its hash and every hash after it).
A file whose first line holds `atlas:sum ignore` adds its name to the chain but not its content,
and gets no line. This is Atlas's `migrate.NewHashFile` and `HashFile.Sum` (sql/migrate/dir.go),
checked here against a sum Atlas wrote. `verify` reports, where the change is: a file not in the
sum (added without `atlas migrate hash`), a listed file that is gone, a file whose content
changed since the sum was written (the first in the chain: the ones after it differ because of
it), and a first line that does not match the lines (the sum edited by hand). Each means the
history was edited.

A file whose leading comments hold `-- atlas:checkpoint` is a checkpoint: a new database starts
from the last one, so the files before it are not replayed (`checkpoint_start`).

`-- atlas:delimiter X` as a file's first line makes X the statement delimiter for the file (`\\n`,
`\\r` and `\\t` in X are line breaks and tabs): `read_chunks` gives the splitter that Segment.

A new migration (`Atlas.write`): `<next>_<name>.sql` sorting after every file, and atlas.sum
written again as `atlas migrate hash` writes it (`sum_text`, Atlas's `migrate.NewHashFile` and
`HashFile.MarshalText`) when the sum matches the directory before; else the note says to run
`atlas migrate hash` (innolint does not vouch for files changed behind the sum).
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from linter.input.migrations.formats.base import (
    Directory,
    Draft,
    Format,
    History,
    HistoryNote,
    NewMigration,
    head as file_head,
    next_version,
    sorting_after,
    versions,
)
from linter.input.migrations.formats.timestamp import FAMILY as NUMBERED
from linter.input.statement import Note, Segment

if TYPE_CHECKING:
    from linter.schema.target import Target

SUM_FILE = "atlas.sum"
#: the most bytes of atlas.sum, and of one migration file hashed, that innolint reads
SUM_CAP = 16 << 20
FILE_CAP = 64 << 20
#: Atlas's directive pattern (`reDirective`): printable ASCII before `atlas:`, a word, arguments
_DIRECTIVE = re.compile(r"([ -~]*?)atlas:(\w+)(?: +([ -~]*))?")


class SumNote(NamedTuple):
    """Something wrong between atlas.sum and the files, at a file and line."""

    path: str
    line: int
    message: str


def directive(first_line: str, name: str, prefix: str | None = None) -> str | None:
    """The argument of directive `name` on a file's first line (Atlas reads directives there), or None."""
    match = _DIRECTIVE.match(first_line.rstrip("\r\n"))
    if match is None or match.group(2) != name or (prefix is not None and match.group(1) != prefix):
        return None
    return match.group(3) or ""


def _b64(digest: bytes) -> str:
    return base64.standard_b64encode(digest).decode("ascii")


def chain(files: list[tuple[str, bytes]]) -> list[tuple[str, str]]:
    """(name, hash) for each file as atlas.sum lists them (`migrate.NewHashFile`)."""
    state = hashlib.sha256()
    listed = []
    for name, content in files:
        state.update(name.encode("utf-8"))
        first = content.split(b"\n", 1)[0].decode("utf-8", "replace")
        if directive(first, "sum") == "ignore":
            continue
        state.update(content)
        listed.append((name, _b64(state.copy().digest())))
    return listed


def total(listed: list[tuple[str, str]]) -> str:
    """The first line's sum over the listed names and hashes (`HashFile.Sum`)."""
    state = hashlib.sha256()
    for name, value in listed:
        state.update(name.encode("utf-8"))
        state.update(value.encode("utf-8"))
    return _b64(state.digest())


def sum_text(files: list[tuple[str, bytes]]) -> str:
    """The atlas.sum Atlas would write for these files (in their order)."""
    listed = chain(files)
    return f"h1:{total(listed)}\n" + "".join(f"{name} h1:{value}\n" for name, value in listed)


def parse_sum(text: str) -> tuple[str | None, list[tuple[str, str, int]]]:
    """(the first line's sum, [(name, hash, line)]) as Atlas reads atlas.sum; lines that are
    not `name h1:hash` are kept with an empty hash."""
    lines = text.split("\n")
    head = lines[0].rstrip("\r") if lines else ""
    first = head[3:] if head.startswith("h1:") else None
    listed = []
    for number, line in enumerate(lines[1:], start=2):
        line = line.rstrip("\r")
        if not line:
            continue
        name, found, value = line.partition("h1:")
        listed.append((name.strip(), value if found else "", number))
    return first, listed


def sorted_names(names: Iterable[str]) -> list[str]:
    """Names in Atlas's order: Go compares strings byte by byte (UTF-8)."""
    return sorted(names, key=lambda name: name.encode("utf-8", "surrogateescape"))


def verify(root: str, files: list[str], inside: Callable[[str], bool]) -> list[SumNote]:
    """Compare atlas.sum in `root` with `files` (the directory's *.sql files, in Atlas's order),
    reading only what lies `inside` the tree (`linter.input.file_access.read_inside`)."""
    from linter.input.file_access import FileRefused, read_inside

    sum_path = os.path.join(root, SUM_FILE)
    try:
        first, listed = parse_sum(read_inside(sum_path, inside, SUM_CAP, "atlas.sum").decode("utf-8", "replace"))
    except FileRefused as error:
        return [SumNote(sum_path, 1, f"atlas.sum not read: {error}")]
    notes: list[SumNote] = []
    if first is None or any(not value for _, value, _ in listed):
        bad = next((line for _, value, line in listed if not value), 1)
        return [SumNote(sum_path, bad, "atlas.sum is not in Atlas's format (`h1:` sum, then `<file> h1:<hash>` "
                        "lines): Atlas refuses the directory; run `atlas migrate hash`")]
    if total([(name, value) for name, value, _ in listed]) != first:
        notes.append(SumNote(sum_path, 1, "atlas.sum's first line does not match its file lines: the sum was edited "
                             "by hand, and Atlas refuses the directory"))
    contents: list[tuple[str, bytes]] = []
    for path in files:
        try:
            contents.append((os.path.basename(path), read_inside(path, inside, FILE_CAP, "migration file")))
        except FileRefused as error:
            return [*notes, SumNote(path, 1, f"atlas.sum not checked: {error}")]
    computed = chain(contents)
    by_name = {os.path.basename(p): p for p in files}
    listed_names = {name for name, _, _ in listed}
    computed_names = {name for name, _ in computed}
    for name, _ in computed:
        if name not in listed_names:
            notes.append(SumNote(by_name[name], 1, f"{name} is not in atlas.sum: added or renamed without "
                                 "`atlas migrate hash`, so the history was edited and Atlas refuses the directory"))
    for name, _, line in listed:
        if name not in computed_names:
            notes.append(SumNote(sum_path, line, f"atlas.sum lists {name}, which is not in the directory: a migration "
                                 "was removed or renamed, so the history was edited and Atlas refuses the directory"))
    if len(notes) == (1 if notes and notes[0].path == sum_path and notes[0].line == 1 else 0) and \
            [name for name, _ in computed] == [name for name, _, _ in listed]:
        for (name, value), (_, written, _) in zip(computed, listed):
            if value != written:
                notes.append(SumNote(by_name[name], 1, f"{name} changed after atlas.sum was written (its hash differs; "
                                     "every later hash differs because of it): the history was edited, and a "
                                     "database that ran the old file does not have this schema"))
                break
    elif not notes:
        notes.append(SumNote(sum_path, 1, "atlas.sum lists the files in another order than their names: the sum was "
                             "edited by hand, and Atlas refuses the directory"))
    return notes


def _head_comments(head: str) -> list[str]:
    """A file's leading comment lines when a blank line separates them from the rest (Atlas's
    file directives, `LocalFile.comments`)."""
    comments = []
    rest = head
    while rest.startswith(("#", "--")):
        line, newline, rest = rest.partition("\n")
        comments.append(line.strip())
        if not newline:
            return comments
    return comments if rest.lstrip(" \t").startswith("\n") else []


def is_checkpoint(head: str) -> bool:
    """Whether a file's first lines mark it as an Atlas checkpoint (`-- atlas:checkpoint`)."""
    return any(directive(comment, "checkpoint") is not None for comment in _head_comments(head))


def checkpoint_start(heads: list[str]) -> int:
    """The index of the last checkpoint among files in order (0 when there is none)."""
    found = [i for i, head in enumerate(heads) if is_checkpoint(head)]
    return found[-1] if found else 0


def _unescape(value: str) -> str:
    return value.replace("\\n", "\n").replace("\\r", "\r").replace("\\t", "\t")


def read_chunks(chunks: Iterable[str], path: str, *, target: Target | None = None,
                segment: Segment | None = None) -> Iterator[str | Segment | Note]:
    """A migration file as Atlas reads it: with `-- atlas:delimiter X` as its first line, split at X
    (the directive's line itself is not SQL); otherwise as it is."""
    iterator = iter(chunks)
    held = ""
    for chunk in iterator:
        held += chunk
        if "\n" in held or len(held) > 4096:
            break
    first, newline, rest = held.partition("\n")
    value = directive(first.lstrip("\ufeff"), "delimiter", "-- ")
    if value is not None:
        delimiter = _unescape(value)
        if not delimiter:
            yield Note(1, 1, "atlas:delimiter without a delimiter: Atlas refuses this file", "parse-error", "warning")
        elif delimiter != ";":
            yield Segment("delimiter", delimiter, (), "file")
        yield newline
        held = rest
    if held:
        yield held
    yield from iterator


# --- the format ------------------------------------------------------------------------------------


class Atlas(Format):
    name = "atlas"
    on_edit = ("atlas.sum no longer matches (atlas migrate validate fails), and the databases that ran it keep the "
               "old version")
    title = "Atlas"
    reads_itself = True
    doc = ("a directory holding `atlas.sum`: its `*.sql` files by name, from the last `-- atlas:checkpoint` on, "
           "a file's first-line `-- atlas:delimiter X` obeyed; atlas.sum is checked as Atlas computes it (a hash "
           "chain over names and contents): a file not in it, a listed file that is gone, a file changed since "
           "(the first in the chain), or a hand-edited sum is reported where it is: the history was edited")
    writes = "an Atlas file with atlas.sum written again"

    def companion(self, name: str) -> bool:
        return name == SUM_FILE

    def detect(self, directory: Directory) -> bool:
        """A directory holding atlas.sum whose files' names follow no other format than numbered ones."""
        return os.path.isfile(os.path.join(directory.root, SUM_FILE)) and set(directory.counts) <= {NUMBERED}

    def order(self, directory: Directory, configured: bool) -> tuple[History | None, list[str]]:
        """The `*.sql` files directly in the root by name (byte order), from the last checkpoint
        on, and atlas.sum checked against the directory as it is on disk."""
        root, files, inside = directory.root, directory.files, directory.inside
        absolute = os.path.abspath(root)
        here = {os.path.basename(p): p for p in files
                if os.path.dirname(os.path.abspath(p)) == absolute and os.path.basename(p).endswith(".sql")}
        taken = set(here.values())
        others = [p for p in files if p not in taken]
        if not here:
            return None, files
        ordered = [here[name] for name in sorted_names(here)]
        history = History(root, self.name, ordered)
        try:
            names = [n for n in os.listdir(root) if n.endswith(".sql") and os.path.isfile(os.path.join(root, n))]
        except OSError:
            names = list(here)
        on_disk = [here.get(n, os.path.join(root, n)) for n in sorted_names(names)]
        history.notes.extend(HistoryNote(n.path, n.line, n.message)
                             for n in verify(root, [p for p in on_disk if directory.keep(p)], inside))
        start = checkpoint_start([file_head(p, inside, 4096) for p in ordered])
        if start:
            checkpoint = os.path.basename(ordered[start])
            history.ignored.extend((p, f"before the last checkpoint ({checkpoint}): a new database starts there")
                                   for p in ordered[:start])
            history.files = ordered[start:]
        return history, others

    def read_chunks(self, chunks: Iterable[str], path: str, *, target: Target | None = None,
                    segment: Segment | None = None) -> Iterator[str | Segment | Note]:
        return read_chunks(chunks, path, target=target, segment=segment)

    def write(self, draft: Draft) -> NewMigration:
        from linter.input.file_access import FileRefused, read_inside

        root = draft.root
        sql_names = [n for n in draft.names if n.endswith(".sql") and os.path.isfile(os.path.join(root, n))]
        version = next_version(versions(sql_names, r"^(\d+(?:[._-]\d+(?=[._-]))*)[_-]"), draft.now)
        file = sorting_after(f"{version}_{draft.label}.sql", sql_names)
        on_disk = [os.path.join(root, n) for n in sorted_names(sql_names)]
        if verify(root, on_disk, draft.inside):
            return NewMigration({file: draft.up}, note="atlas.sum did not match the directory before this migration: "
                                "run `atlas migrate hash` once you have checked the files it does not match")
        contents = []
        try:
            for path in on_disk:
                contents.append((os.path.basename(path), read_inside(path, draft.inside, FILE_CAP, "migration file")))
        except FileRefused as error:
            return NewMigration({file: draft.up}, note=f"{error}: run `atlas migrate hash`")
        contents.append((file, draft.up.encode("utf-8")))
        ordered = {n: content for n, content in contents}
        return NewMigration({file: draft.up, SUM_FILE: sum_text([(n, ordered[n]) for n in sorted_names(ordered)])},
                            replaces=(SUM_FILE,))


FORMAT = Atlas()
