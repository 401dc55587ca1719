"""Liquibase: a root changelog (XML, YAML, JSON) and what it reaches, read as Liquibase reads it
(`walker`: includes, `includeAll`, `sqlFile`, formatted SQL; `changelog`: the files as data;
`changes`: change types as the DDL Liquibase runs; `sql`: formatted SQL). A SQL file's history is
the outermost root changelog that reaches it, looked for in its directory and up to
`_LEVELS` above (`Finder`); without a changelog, the formatted SQL files
(`--liquibase formatted sql`) of a directory run in path order (what includeAll would run).
Liquibase sends each statement to the server itself and keeps no schema dump as a baseline. A new
migration is a formatted SQL file (one `--changeset`, the down as `--rollback` lines) in the
directory the root changelog includes whole, else beside the last SQL file with a note to
include it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from linter.input.migrations.formats.base import (
    Directory,
    Draft,
    Format,
    History,
    NewMigration,
    Session,
    WritingError,
    head,
    head_bytes,
    next_version,
    sorting_after,
    versions,
)
from linter.input.migrations.formats.liquibase.changelog import CHANGELOG_SUFFIXES, looks_like_changelog
from linter.input.migrations.formats.timestamp import FAMILY as NUMBERED

if TYPE_CHECKING:
    from linter.input.statement import Note, Segment
    from linter.schema.target import Target

#: how many directories above a SQL file are searched for a changelog that includes it
_LEVELS = 4
#: how many changelog candidates of one directory are looked at
_CANDIDATES = 64


def is_changelog(path: str, inside: Callable[[str], bool]) -> bool:
    """Whether `path` is a changelog: an XML/YAML/JSON file that names Liquibase's root element.
    Any other file, `.json` included, is read as SQL when it is named (a file named explicitly is
    always read): never a changelog that quietly holds nothing."""
    return path.lower().endswith(CHANGELOG_SUFFIXES) and looks_like_changelog(head_bytes(path, 4096, inside))


def _is_formatted(path: str, inside: Callable[[str], bool]) -> bool:
    from linter.input.migrations.formats.liquibase.sql import is_formatted_sql

    return is_formatted_sql(head(path, inside, 4096))


def search_path(changelog: str, levels: int = 6) -> list[str]:
    """Where Liquibase looks up a path not relative to its changelog (the classpath): the
    changelog's directory and those above it, nearest first (`src/main/resources` is usually
    two above `db/changelog/`)."""
    found = []
    directory = os.path.dirname(os.path.abspath(changelog))
    for _ in range(levels):
        found.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return found


class Finder:
    """Finds the root changelog that reaches a SQL file, looking in its directory and up to
    `_LEVELS` above, within the tree (`inside`); what it reads is kept for the run (one per
    `Session`)."""

    def __init__(self, inside: Callable[[str], bool]) -> None:
        from linter.input.migrations.formats.liquibase.walker import Walker

        self.inside = inside
        self.walker = Walker(inside)
        self._roots: dict[str, list[str]] = {}
        self._owner: dict[str, dict[str, int]] = {}

    def roots_in(self, directory: str) -> list[str]:
        """The root changelogs of a directory: changelog files there that no other one includes."""
        found = self._roots.get(directory)
        if found is None:
            from linter.input.migrations.formats.liquibase.walker import find_roots

            candidates = []
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                names = []
            for name in names:
                if len(candidates) >= _CANDIDATES:
                    break
                path = os.path.join(directory, name)
                if name.lower().endswith(CHANGELOG_SUFFIXES) and os.path.isfile(path) and self.inside(path):
                    if looks_like_changelog(head_bytes(path, 4096, self.inside)):
                        candidates.append(path)
            found = self._roots[directory] = find_roots(candidates, self.walker) if candidates else []
        return found

    def _owners(self, directory: str) -> dict[str, int]:
        """For each file the roots of `directory` reach, the index of the first of them that does."""
        found = self._owner.get(directory)
        if found is None:
            roots = self.roots_in(directory)
            found = self._owner[directory] = self.walker.first_reaching(roots, search_path(roots[0])) if roots else {}
        return found

    def root_of(self, path: str) -> str | None:
        """The outermost root changelog (within the levels searched) that reaches `path`; a
        changelog that none reaches is a root of its own."""
        real = self.walker.real(path)
        directory = os.path.dirname(os.path.abspath(path))
        best = path if path.lower().endswith(CHANGELOG_SUFFIXES) else None
        for _ in range(_LEVELS + 1):
            if not self.inside(directory):
                break
            owners = self._owners(directory)
            if owners:
                found = [owners[r] for r in (real, self.walker.real(best) if best is not None else None) if r in owners]
                if found:
                    best = self.roots_in(directory)[min(found)]
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
        return best


class Liquibase(Format):
    name = "liquibase"
    on_edit = "Liquibase fails the changeset's checksum (or runs it again under a new path)"
    checks_its_edits = True  # a changelog grows by changesets; Liquibase checks each applied one's checksum
    title = "Liquibase"
    reads_itself = True
    baseline = False
    opening = "--changeset innolint:candidate\n"  # the text after the last changeset is that one's
    doc = ("a root changelog (XML, YAML or JSON, found in a SQL file's directory or up to four above) and what it "
           "reaches through `include`, `includeAll` (alphabetical by path, as Liquibase sorts) and `sqlFile` (with "
           "its `splitStatements`, `endDelimiter` and `dbms`), plus the SQL written in `<sql>` changes and the DDL "
           "of the change types that shape tables, at their lines; paths without `relativeToChangelogFile` are "
           "looked up as on the classpath (`src/main/resources`). Formatted SQL (`--liquibase formatted sql`) is "
           "read line by line as Liquibase does: `--changeset author:id` starts a part read on its own, split at "
           "`;` outside compound statements, at `endDelimiter:X`, or not at all (`splitStatements:false`); "
           "`--rollback` lines and `/* liquibase rollback */` blocks, `--comment`, `--validCheckSum`, "
           "`--preconditions`, `--property` and `--ignoreLines` are not SQL; `${name}` takes the file's "
           "`--property`; `dbms:` runs a changeset only on the servers it names (MariaDB is `mariadb` to "
           "Liquibase), and one skipped is said where it starts; `context:` and `labels:` are replayed (with "
           "none chosen Liquibase runs them all); a precondition that may skip a changeset is said. XML is read "
           "with every DOCTYPE and entity refused, YAML with PyYAML's safe composer under a node budget, every "
           "file inside the tree only; include cycles and missing files are reported. Formatted SQL files "
           "without a changelog run in path order (what includeAll would do)")
    writes = "a Liquibase changeset in the directory the root changelog includes whole"

    def finder(self, session: Session) -> Finder:
        return session.state(self.name, lambda: Finder(session.inside))

    def companion(self, name: str) -> bool:
        return name.endswith(CHANGELOG_SUFFIXES)

    def walked(self, name: str) -> bool:
        return name.endswith(CHANGELOG_SUFFIXES)

    def takes(self, head: bytes) -> bool:
        return looks_like_changelog(head)

    def root_of(self, path: str, session: Session) -> str | None:
        return self.finder(session).root_of(path)

    def root_in(self, directory: str, session: Session) -> str | None:
        roots = self.finder(session).roots_in(directory)
        return roots[0] if roots else None

    def _formatted(self, directory: Directory) -> list[str]:
        """The files of a directory without a changelog that are formatted SQL (named after no
        format, or numbered)."""
        return directory.memo(f"{self.name}:formatted", lambda: [
            p for p, e in directory.entries.items()
            if (e is None or e.family == NUMBERED) and _is_formatted(p, directory.inside)])

    def detect(self, directory: Directory) -> bool:
        return is_changelog(directory.root, directory.inside) or bool(self._formatted(directory))

    def order(self, directory: Directory, configured: bool) -> tuple[History | None, list[str]]:
        """What the root changelog reaches (a configured directory: its root changelog, else its
        formatted SQL files in path order), read through the run's `Finder` (each changelog
        parsed once); a directory without one: its formatted SQL files in path order."""
        root, files = directory.root, directory.files
        if not configured and not is_changelog(root, directory.inside):
            formatted = self._formatted(directory)
            taken = set(formatted)
            return History(root, self.name, sorted(formatted, key=lambda p: os.path.relpath(p, root))), [
                p for p in files if p not in taken]
        finder = self.finder(directory.session)
        changelog = root
        if os.path.isdir(root):
            roots = finder.roots_in(root)
            if not roots:
                forward = sorted(files, key=lambda p: os.path.relpath(p, root))
                return History(root, self.name, forward), []
            changelog = roots[0]
        reach = finder.walker.history(changelog, search_path(changelog))
        given = {os.path.realpath(p): p for p in files}
        history = History(changelog, self.name, [], notes=list(reach.notes))
        for member in reach.members:
            path = given.get(os.path.realpath(member.path), member.path)
            if path not in given.values() and not directory.keep(path):
                continue
            history.files.append(path)
            if member.segment is not None:
                history.segments[path] = member.segment
        # the changelogs it reads are its own too, holding SQL or not (a master of includes)
        reached = {os.path.realpath(p) for p in [*history.files, *reach.changelogs]}
        return history, [p for p in files if os.path.realpath(p) not in reached]

    def read_chunks(self, chunks: Iterable[str], path: str, *, target: Target | None = None,
                    segment: Segment | None = None) -> Iterator[str | Segment | Note]:
        from linter.input.migrations.formats.liquibase.walker import read_chunks

        return read_chunks(chunks, path, target=target, segment=segment)

    def cannot_write(self, history: History) -> str | None:
        if any(p.lower().endswith(CHANGELOG_SUFFIXES) for p in history.files):
            return ("a Liquibase history whose changelogs hold changesets of their own: innolint fix --migration "
                    "writes formatted SQL files only beside formatted SQL")
        return None

    def write(self, draft: Draft) -> NewMigration:
        """Into the directory the root changelog includes whole (nothing to edit), else beside the last
        SQL file of the history, with a note to include it."""
        history, root = draft.history, draft.root
        every = _include_all_directories(history.root, draft.inside) if os.path.isfile(history.root) else []
        sql_files = [p for p in history.files if p != history.baseline and not p.lower().endswith(CHANGELOG_SUFFIXES)]
        directory = every[-1] if every else os.path.dirname(sql_files[-1]) if sql_files else root
        here = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
        in_directory = [n for n in here if n.lower().endswith(".sql")]
        version = next_version(versions(in_directory, r"(\d+(?:[._-]\d+(?=[._-]))*)[_-]"), draft.now)
        file = sorting_after(f"{version}_{draft.label}.sql", in_directory)
        rollback = "".join(f"--rollback {line}\n" for line in (draft.down or "").splitlines()
                           if line.strip() and not line.lstrip().startswith("--"))
        text = f"--liquibase formatted sql\n\n--changeset innolint:{version}-{draft.label}\n{draft.up}{rollback}"
        relative = os.path.relpath(os.path.join(directory, file), root)
        if relative.startswith(os.pardir):
            raise WritingError(f"{directory}: the history's SQL files lie outside {root}")
        note = None
        if os.path.isfile(history.root) and not every:
            note = f"include {relative} in {os.path.basename(history.root)}"
        return NewMigration({relative.replace(os.sep, "/"): text}, note=note)


def _include_all_directories(changelog: str, inside: Callable[[str], bool]) -> list[str]:
    """The directories a root changelog takes whole (its includeAll entries), in order."""
    from linter.input.migrations.formats.liquibase.walker import Walker

    walker = Walker(inside)
    walker.search = search_path(changelog)
    found = []
    for entry in walker.changelog(changelog).entries:
        if entry.tag == "includeAll":
            target = walker.resolve(changelog, entry.attr("path") or "", entry.flag("relativeToChangelogFile"))
            if target is not None and os.path.isdir(target):
                found.append(target)
    return found


FORMAT = Liquibase()
