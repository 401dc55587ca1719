"""Liquibase: formatted SQL files and XML, YAML and JSON changelogs, read as Liquibase reads them.

A Liquibase history is a root changelog and what it reaches: `include` (one file),
`includeAll` (a directory, every changelog file below it in alphabetical order of the path, as
Liquibase sorts them), and in a changeset `sqlFile` (a SQL file run with the change's settings)
and `sql` (SQL written in the changelog itself). A `.sql` file that starts with
`--liquibase formatted sql` is a changelog of its own, read line by line as Liquibase's parser
reads it; any other `.sql` file reached this way is one changeset of raw SQL.

Formatted SQL (`read_chunks`): `--changeset author:id attributes` starts a changeset, which is
read on its own (a statement left open ends there: `linter.input.statement.Segment`); its statements are
split at `;` except inside a compound statement (Liquibase's splitter skips BEGIN ... END), at
`endDelimiter:X` when given, or not at all with `splitStatements:false`. `--rollback ...` lines
and `/* liquibase rollback ... */` blocks are skipped (as goose Down sections are), and so are
the metadata lines (`--comment`, `--validCheckSum`, `--preconditions`, `--precondition-...`,
`--property`, `--ignoreLines:start` to `--ignoreLines:end`, `--ignoreLines:N`). Text outside any
changeset is not run by Liquibase, and is reported when it holds SQL. `${name}` is replaced by a
`--property` of the file; an unknown one is reported. Attributes: `dbms:` filters run only on
the servers they name (Liquibase calls MySQL `mysql` and MariaDB `mariadb`: a changeset for
`dbms:mysql` does not run on MariaDB); a changeset skipped for the target is reported where it
starts. `ignore:true` changesets are skipped, as Liquibase skips them; `context:` and `labels:`
are chosen when Liquibase runs, and with none given it runs every changeset, so every one is
replayed. `runOnChange` and `runAlways` change nothing on a new database. A changeset guarded by
a precondition that may skip it (`onFail:MARK_RAN`, `CONTINUE`, `WARN`) is replayed as on a new
database where it holds, and said so.

Changelogs (`Changelog`, `Walker`): XML through expat with every DOCTYPE and entity declaration
refused (no external entity, no entity expansion) and line numbers kept; YAML and JSON through
PyYAML's safe composer, whose aliases are walked under a node budget (an alias bomb stops there).
Every file is read only inside the tree (`keep`, from `linter.input.file_access`), up to
`CHANGELOG_CAP` bytes; a cycle of includes is reported once and not followed; a missing file is
reported at the include. Change types other than `sql` and `sqlFile` (createTable, addColumn
...) are SQL that Liquibase writes itself: innolint does not read them, and says so at their
changeset.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from linter.input.migrations.formats.base import HistoryNote
from linter.input.statement import Note, Segment
from linter.schema.target import Target
from linter.input.migrations.formats.liquibase.changelog import (
    CHANGELOG_SUFFIXES,
    Changelog,
    ChangelogError,
    changes_of,
    read_changelog,
)
from linter.input.migrations.formats.liquibase.sql import (
    EXPRESSION,
    FIRST_LINE,
    Formatted,
    line_pieces,
    skip_note,
    dbms_runs,
    parameters,
    split_settings,
)
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linter.input.migrations.formats.liquibase.changelog import Node

#: the most bytes of one changelog innolint reads
CHANGELOG_CAP = 8 << 20
#: how many files one history reaches at most
_MEMBER_BUDGET = 20_000
#: how many levels of includes are followed
_DEPTH = 64


# --- formatted SQL ------------------------------------------------------------------------------


def read_chunks(chunks: Iterable[str], path: str, *, target: Target | None = None,
                segment: Segment | None = None) -> Iterator[str | Segment | Note]:
    """The text of a file of a Liquibase history as the splitter should read it (`linter.input.split`):
    a formatted SQL file by its directives, a changelog by the SQL written in it, any other SQL
    file as one changeset (split as `segment` says: the settings of the `sqlFile` change that
    runs it, else Liquibase's default)."""
    properties = parameters(segment.properties if segment is not None else (), target)
    if path.lower().endswith(CHANGELOG_SUFFIXES):
        yield from _changelog_chunks(chunks, path, target, properties)
        return
    pieces = line_pieces(chunks)
    held: list[tuple[str, bool]] = []
    formatted = None
    for piece, first in pieces:
        held.append((piece, first))
        if first and piece.strip(" \t\r\n\f\v\ufeff"):
            formatted = FIRST_LINE.match(piece.lstrip("\ufeff")) is not None
            break
    if segment is not None and not all(dbms_runs(spec, target) for spec in segment.dbms):
        spec = next(spec for spec in segment.dbms if not dbms_runs(spec, target))
        yield skip_note(1, "this file, run by a sqlFile change", spec, target)
        for _ in pieces:
            pass
        return
    if not formatted:
        yield segment if segment is not None else Segment("packet", ";", (), "file")
        for piece, _ in held:
            yield piece
        for piece, _ in pieces:
            yield piece
        return
    import itertools

    yield from Formatted(path, target, properties).read(itertools.chain(held, pieces))


# --- changelogs --------------------------------------------------------------------------------


def _changelog_chunks(chunks: Iterable[str], path: str, target: Target | None,
                      properties: dict[str, str]) -> Iterator[str | Segment | Note]:
    """The SQL of a changelog, each piece where it stands in the file: `sql` changes as written,
    the change types that shape tables as the MySQL DDL Liquibase runs for them
    (`linter.input.migrations.formats.liquibase.changes`), each on its change's line; and notes on what is not read
    (other change types, changesets not run on the target, changes MySQL refuses)."""
    from linter.input.migrations.formats.liquibase.changes import NO_TABLE_EFFECT, render

    text = "".join(chunks)
    changelog = read_changelog(path, text)
    if changelog.error is not None:
        yield Note(max(changelog.error.line, 1), 1, f"Liquibase changelog not read: {changelog.error}", "parse-error",
                   "warning")
        return
    properties = dict(properties)

    def expand(value: str) -> str:
        return EXPRESSION.sub(lambda m: properties.get(m.group(1), m.group(0)), value) if "${" in value else value

    place = _Place()
    for entry in changelog.entries:
        if entry.tag == "property":
            if entry.attr("name") and dbms_runs(entry.attr("dbms"), target):
                properties.setdefault(entry.attr("name") or "", expand(entry.attr("value") or ""))
            continue
        if entry.tag != "changeSet" or entry.flag("ignore"):
            continue
        label = f"changeset {entry.attr('author') or '?'}:{entry.attr('id') or '?'}"
        changes = changes_of(entry)
        if not dbms_runs(entry.attr("dbms"), target):
            if any(c.kind != "sqlFile" for c in changes):  # a sqlFile's own reading says it there
                yield skip_note(entry.line, label, entry.attr("dbms") or "", target)
            continue
        unread = []
        for change in changes:
            node = change.node
            if change.kind == "sqlFile" or (change.kind in NO_TABLE_EFFECT and change.kind != "sql"):
                continue
            if not dbms_runs(node.attr("dbms"), target):
                yield skip_note(node.line, f"{label}: {change.kind} change", node.attr("dbms") or "", target)
                continue
            if change.kind == "sql":
                if not node.text:
                    continue
                segment, notes = split_settings(node.attr("splitStatements"), node.attr("endDelimiter"), node.line)
                yield from place.piece(segment._replace(notes=tuple(notes)),
                                       [(line, column, expand(piece)) for line, column, piece in node.text])
                continue
            rendered = render(change.kind, node, expand)
            if rendered is None:
                unread.append(change.kind)
            elif rendered.problem is not None:
                yield Note(node.line, node.column, f"{label}: {rendered.problem}; innolint does not replay it",
                           "parse-error", "warning")
            else:
                statements = "; ".join(rendered.statements) + ";"
                yield from place.piece(Segment("packet", ";", (), "change"), [(node.line, node.column, statements)])
        if unread:
            yield Note(entry.line, entry.column, f"{label}: Liquibase change type{'s' if len(unread) > 1 else ''} "
                       f"{', '.join(sorted(set(unread)))} not read by innolint: the tables it creates or changes are "
                       "unknown from here on", "parse-error", "warning")


class _Place:
    """Where the text given to the splitter stands, so that each piece goes at its line and column
    (never backwards: a piece on a line already passed follows where the text stands)."""

    def __init__(self) -> None:
        self.line, self.column = 1, 1

    def piece(self, segment: Segment, pieces: list[tuple[int, int, str]]) -> Iterator[str | Segment]:
        if self.column != 1:
            yield "\n"
            self.line, self.column = self.line + 1, 1
        yield segment
        for line, column, text in pieces:
            if line > self.line:
                yield "\n" * (line - self.line)
                self.line, self.column = line, 1
            if line == self.line and column > self.column:
                yield " " * (column - self.column)
                self.column = column
            yield text
            breaks = text.count("\n")
            if breaks:
                self.line += breaks
                self.column = len(text) - text.rfind("\n")
            else:
                self.column += len(text)


# --- a history ----------------------------------------------------------------------------------


class Member(NamedTuple):
    """A file of a history in the order Liquibase runs it, and how it is split (a `sqlFile`
    change's settings; None: its own directives or Liquibase's default)."""

    path: str
    segment: Segment | None


class Reach:
    """What a root changelog reaches, in order: `members` (SQL files and changelogs holding SQL),
    `notes` on the history, and every changelog file read (`changelogs`)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.members: list[Member] = []
        self.notes: list[HistoryNote] = []
        self.changelogs: list[str] = []




class Walker:
    """Follows a root changelog's includes (see the module docstring). `keep(path)` says whether
    a file may be read (inside the tree, not excluded by the configuration); `search` are the
    directories a path that is not relative to its changelog is looked up in (the classpath:
    the root changelog's directory and those above it, nearest first); `target` decides `dbms`.

    Every cost is linear in the changelogs and the files they name, however they include each
    other: each changelog is parsed once (`changelog`), each directory of an includeAll listed and
    sorted once (`listing`), and one history follows each changelog once (a changelog included
    again, along another path, adds nothing: Liquibase runs a changeset once). What a changelog
    names directly (`targets`) is kept too, for the questions asked of many roots at once
    (`find_roots`, `first_reaching`), which walk the include graph once for all of them."""

    def __init__(self, keep: Callable[[str], bool]) -> None:
        self.keep = keep
        self._parsed: dict[str, Changelog] = {}
        self._real: dict[str, str] = {}
        self._listings: dict[tuple[str, str], list[str]] = {}
        self._targets: dict[tuple[str, tuple[str, ...]], list[str]] = {}

    def real(self, path: str) -> str:
        """`os.path.realpath(path)`, remembered (a history asks it of every file many times)."""
        found = self._real.get(path)
        if found is None:
            found = self._real[path] = os.path.realpath(path)
        return found

    def changelog(self, path: str) -> Changelog:
        real = self.real(path)
        found = self._parsed.get(real)
        if found is None:
            from linter.input.file_access import read_inside

            try:  # a root changelog too is read only inside the tree
                found = read_changelog(path, read_inside(path, self.keep, CHANGELOG_CAP, "changelog"))
            except Exception as error:  # FileRefused, OSError: reported by the caller
                found = Changelog(path, None, ChangelogError(str(error)))
            self._parsed[real] = found
        return found

    def listing(self, directory: str, ending: str) -> list[str]:
        """The files an includeAll of `directory` takes (`.sql` and changelogs ending with
        `ending`), sorted as Liquibase sorts them: by their path below the directory, as a string."""
        key = (directory, ending)
        found = self._listings.get(key)
        if found is None:
            found = []
            for parent, dirs, files in os.walk(directory):
                dirs.sort()
                for file in files:
                    lower = file.lower()
                    if lower.endswith((".sql", *CHANGELOG_SUFFIXES)) and lower.endswith(ending):
                        found.append(os.path.join(parent, file))
                if len(found) > _MEMBER_BUDGET:
                    break
            found.sort(key=lambda p: os.path.relpath(p, directory).replace(os.sep, "/"))
            self._listings[key] = found
        return found

    #: where paths not relative to their changelog are looked up (set by `history`)
    search: list[str] = []

    def history(self, root: str, search: list[str]) -> Reach:
        history = Reach(root)
        self._seen: set[str] = set()
        self._done: set[str] = set()  # changelogs followed to their end in this history
        self._all: dict[tuple[str, str], str | None] = {}  # includeAll directories taken: the file left out
        self._properties: list[tuple[str, str, str | None]] = []
        self.search = search
        self._follow(history, root, [])
        return history

    # -- following ---------------------------------------------------------------------------------
    def _follow(self, history: Reach, path: str, chain: list[str]) -> None:
        real = self.real(path)
        if real in chain:
            names = " -> ".join(os.path.basename(p) for p in [*chain[chain.index(real):], real])
            history.notes.append(HistoryNote(path, 1, f"include cycle ({names}): Liquibase fails on it; innolint does "
                                             "not follow it again"))
            return
        if real in self._done:
            return  # followed already, along another path: nothing of it runs again
        if len(chain) > _DEPTH or len(history.members) > _MEMBER_BUDGET:
            history.notes.append(HistoryNote(path, 1, "includes nested too deeply or too many files: not followed"))
            return
        if not path.lower().endswith(CHANGELOG_SUFFIXES):
            self._member(history, path, None)
            return
        changelog = self.changelog(path)
        history.changelogs.append(path)
        if changelog.error is not None:
            self._done.add(real)
            history.notes.append(HistoryNote(path, max(changelog.error.line, 1),
                                             f"Liquibase changelog not read: {changelog.error}"))
            return
        chain = [*chain, real]
        # changelog parameters: known to what is read after them (the first definition holds)
        self._properties.extend((n.attr("name") or "", n.attr("value") or "", n.attr("dbms"))
                                for n in changelog.entries if n.tag == "property")
        placed = False  # this changelog's own SQL placed in the order
        pending_include = False  # an include followed the changeset that placed it
        for entry in changelog.entries:
            if entry.tag == "include":
                target = self.resolve(path, entry.attr("file") or "", entry.flag("relativeToChangelogFile"))
                pending_include = pending_include or placed
                if target is None:
                    self._missing(history, path, entry, entry.attr("file") or "")
                elif self.keep(target):
                    self._follow(history, target, chain)
                else:
                    history.notes.append(HistoryNote(path, entry.line, f"include {entry.attr('file')!r} is outside the "
                                                     "tree innolint lints: not read"))
            elif entry.tag == "includeAll":
                pending_include = pending_include or placed
                self._include_all(history, path, entry, chain)
            elif entry.tag == "changeSet":
                if entry.flag("ignore"):
                    continue
                for change in changes_of(entry):
                    if change.kind == "sqlFile":
                        pending_include = pending_include or placed
                        self._sql_file(history, path, entry, change.node)
                    elif change.kind != "comment":
                        if not placed:
                            self._member(history, path, None)
                            placed = True
                        elif pending_include:
                            history.notes.append(HistoryNote(path, entry.line, "this changeset runs after files "
                                                             "included above it, but innolint replays every changeset "
                                                             "written in this changelog where its first one stands",
                                                             "replay-error", "info"))
                            pending_include = False
        self._done.add(real)

    def _member(self, history: Reach, path: str, segment: Segment | None) -> None:
        real = self.real(path)
        if real in self._seen:
            return  # Liquibase runs a changeset once (its id, author and file are recorded)
        self._seen.add(real)
        if self._properties:
            segment = (segment or Segment("packet", ";", (), "file"))._replace(properties=tuple(self._properties))
        history.members.append(Member(path, segment))

    def _missing(self, history: Reach, path: str, entry: Node, name: str) -> None:
        history.notes.append(HistoryNote(path, entry.line, f"{entry.tag} {name!r}: no such file (Liquibase fails here)"))

    def resolve(self, changelog: str, name: str, relative: bool) -> str | None:
        """The file an include names: next to the changelog with relativeToChangelogFile, else on
        the search path (the classpath), else next to the changelog."""
        name = name.strip()
        if not name or "\0" in name:
            return None
        for prefix in ("classpath*:", "classpath:", "file:"):
            if name.lower().startswith(prefix):
                name = name[len(prefix) :]
        name = name.replace("\\", "/")
        bases = [os.path.dirname(changelog)] if relative else [*self.search, os.path.dirname(changelog)]
        for base in bases:
            candidate = os.path.normpath(os.path.join(base, name.lstrip("/")))
            if os.path.exists(candidate):
                return candidate
        return None

    def _all_directory(self, path: str, entry: Node) -> str | None:
        """The directory an includeAll takes, when it is one."""
        directory = self.resolve(path, entry.attr("path") or "", entry.flag("relativeToChangelogFile"))
        return directory if directory is not None and os.path.isdir(directory) else None

    def _include_all(self, history: Reach, path: str, entry: Node, chain: list[str]) -> None:
        name = entry.attr("path") or ""
        directory = self._all_directory(path, entry)
        if directory is None:
            if (entry.attr("errorIfMissingOrEmpty") or "true").lower() != "false":
                self._missing(history, path, entry, name)
            return
        if not self.keep(directory):
            history.notes.append(HistoryNote(path, entry.line, f"includeAll {name!r} is outside the tree innolint "
                                             "lints: not read"))
            return
        ending = (entry.attr("endsWithFilter") or "").lower()
        key = (self.real(directory), ending)
        if key in self._all:
            # taken already in this history: its files are followed, but for the changelog that took
            # it from inside, which was left out then (it lay on the chain) and may be its own now
            left_out = self._all[key]
            if left_out is not None and left_out != chain[-1] and left_out not in self._done:
                self._follow(history, left_out, chain)
            return
        self._all[key] = None
        for file in self.listing(directory, ending):
            if self.real(file) == chain[-1]:
                self._all[key] = chain[-1]
                continue  # the changelog that includes the directory it lies in is not included again
            if self.keep(file):
                self._follow(history, file, chain)
            else:
                history.notes.append(HistoryNote(path, entry.line, f"includeAll {name!r}: {os.path.basename(file)} is "
                                                 "a link to a file outside the tree innolint lints: not read"))

    def _sql_file(self, history: Reach, path: str, changeset: Node, node: Node) -> None:
        name = node.attr("path") or ""
        target = self.resolve(path, name, node.flag("relativeToChangelogFile"))
        if target is None:
            self._missing(history, path, node, name)
            return
        if not self.keep(target):
            history.notes.append(HistoryNote(path, node.line, f"sqlFile {name!r} is outside the tree innolint lints: "
                                             "not read"))
            return
        segment, notes = split_settings(node.attr("splitStatements"), node.attr("endDelimiter"), 1, "file")
        for item in notes:
            history.notes.append(HistoryNote(path, node.line, item.message, item.rule, item.severity))
        filters = tuple(spec for spec in (changeset.attr("dbms"), node.attr("dbms")) if spec is not None)
        self._member(history, target, segment._replace(dbms=filters))

    # -- the include graph, for many roots at once ---------------------------------------------------
    def targets(self, path: str, search: list[str]) -> list[str]:
        """The real paths of the files a changelog names and a history would follow from it
        (include, includeAll, sqlFile: inside the tree, each once), with `search` as the classpath;
        a SQL file names none."""
        real = self.real(path)
        key = (real, tuple(search))
        found = self._targets.get(key)
        if found is not None:
            return found
        found = []
        self._targets[key] = found
        if not path.lower().endswith(CHANGELOG_SUFFIXES):
            return found
        changelog = self.changelog(path)
        if changelog.error is not None:
            return found
        seen: set[str] = set()
        taken: set[tuple[str, str]] = set()
        saved, self.search = self.search, search

        def add(target: str | None) -> None:
            if target is not None and self.keep(target):
                target_real = self.real(target)
                if target_real not in seen and target_real != real:
                    seen.add(target_real)
                    found.append(target_real)

        try:
            for entry in changelog.entries:
                if entry.tag == "include":
                    add(self.resolve(path, entry.attr("file") or "", entry.flag("relativeToChangelogFile")))
                elif entry.tag == "includeAll":
                    directory = self._all_directory(path, entry)
                    ending = (entry.attr("endsWithFilter") or "").lower()
                    if directory is not None and self.keep(directory) and (directory, ending) not in taken:
                        taken.add((directory, ending))
                        for file in self.listing(directory, ending):
                            add(file)
                elif entry.tag == "changeSet" and not entry.flag("ignore"):
                    for change in changes_of(entry):
                        if change.kind == "sqlFile":
                            add(self.resolve(path, change.node.attr("path") or "",
                                             change.node.flag("relativeToChangelogFile")))
        finally:
            self.search = saved
        return found

    def first_reaching(self, roots: list[str], search: list[str]) -> dict[str, int]:
        """For every file the `roots` reach (themselves included), the index of the first root in
        `roots` that reaches it: one walk of the graph for all of them (a file marked by a root is
        not walked again for a later one, since all it reaches is that root's too)."""
        owner: dict[str, int] = {}
        for index, root in enumerate(roots):
            start = self.real(root)
            if start in owner:
                continue
            owner[start] = index
            stack = [root]
            while stack:
                for target in self.targets(stack.pop(), search):
                    if target not in owner:
                        owner[target] = index
                        stack.append(target)
        return owner


def find_roots(candidates: list[str], walker: Walker) -> list[str]:
    """Of the changelog files in `candidates` (of one directory, where a path not relative to its
    changelog is looked up), those no other candidate reaches (the roots). One walk for all: each
    file keeps at most two of the candidates that reach it, which is enough to tell whether one
    other than itself does (a file two candidates reach passes one of them on that is not the
    file it reaches), so each file is walked at most twice."""
    if not candidates:
        return []
    search = [os.path.dirname(candidates[0])]
    reached_by: dict[str, list[str]] = {}
    stack: list[tuple[str, str]] = []  # (a file, a candidate that reaches it through an include)
    for path in candidates:
        source = walker.real(path)
        stack.extend((target, source) for target in walker.targets(path, search))
    while stack:
        real, source = stack.pop()
        sources = reached_by.setdefault(real, [])
        if source in sources or len(sources) >= 2:
            continue
        sources.append(source)
        stack.extend((target, source) for target in walker.targets(real, search))
    return [p for p in candidates if all(source == walker.real(p) for source in reached_by.get(walker.real(p), ()))]
