"""Changed-files mode (`--changed-only FILE...`, `--since GIT_REF`): the files a change touches
and, from `git diff -U0`, the lines within them (`ChangeSet`, `parse_diff`); which tables a changed
statement created or altered (`tables_named_by`); the one-level downgrade of findings on legacy
tables. See `linter.input.migrations.history` for how a history holding a changed file is replayed."""

from __future__ import annotations

from typing import TYPE_CHECKING
import os
import re
from collections.abc import Callable, Iterable

from linter.rules.findings import Finding
from linter.rules.fingerprints import Known
from linter.record import Record
from linter.input.migrations.files import detected_root

if TYPE_CHECKING:
    from linter.rules.checkapi import MigrationEdit
    from linter.rules.findings import Diagnostic
    from linter.schema.model import SchemaModel, Table


class ChangeError(Exception):
    """Changed files that cannot be determined (not a git repository, an unknown ref)."""


#: a span of changed lines in the new file; start > end marks a deletion between end and start
Span = tuple[int, int]


class ChangeSet(Record):
    """The files a change touches, and within them the changed lines when known; the files it
    deletes; and, when git can tell, what the tree looked like before (`before`).

    `--changed-only FILE...` knows only files (every line counts as changed); `--since REF` also
    knows the lines from `git diff`, so in a schema file edited in one place only the table
    edited there counts as new, and the other tables in that file are legacy.

    "What the change makes worse": a change can make a finding appear in a file it did not touch
    (deleting the migration that added the key V2 lacked; editing it). So a unit is linted when
    it holds a changed file or lies in the directory of a deleted one (`affects`), and when
    `before` holds the findings of the same units at REF (`linter.since`), every finding new
    against them is reported wherever it is, besides those located in the changed files
    (`select`).
    """

    __match_args__ = ("files", "root")
    files: dict[str, list[Span] | None]  # absolute path -> spans (None: all)
    #: the repository's top directory (real path), when git told it (`--since`)
    root: str | None
    #: files the change deletes (or renames away), absolute
    deleted: list[str]
    #: renamed files: absolute old path -> absolute new path
    renamed: dict[str, str]
    #: how much of a renamed file git found the same (100: only the name changed), by old path
    rename_similarity: dict[str, int]
    #: files that exist at `ref` and whose content the change edits (git's status M), absolute
    modified: set[str]
    #: the git revision the change is against (`--since REF`; HEAD for a commit), when known
    ref: str | None
    #: findings and diagnostics of the affected units at `ref` (`linter.since`), when computed
    before: Known | None
    #: report every finding of the affected units (the run that computes `before`)
    report_all: bool
    #: directories whose units are affected besides those holding a changed file
    directories: set[str]

    def __init__(self, files: dict[str, list[Span] | None] | None = None, root: str | None = None) -> None:
        self.files = {} if files is None else files
        self.root = root
        self.deleted = []
        self.renamed = {}
        self.rename_similarity = {}
        self.modified = set()
        self.ref = None
        self.before = None
        self.report_all = False
        self.directories = set()

    @classmethod
    def from_files(cls, paths: Iterable[str]) -> ChangeSet:
        return cls({comparable_path(p): None for p in paths})

    def contains(self, path: str) -> bool:
        return comparable_path(path) in self.files

    def affects(self, files: Iterable[str]) -> bool:
        """Whether a unit (its files) is linted: it holds a changed file, or one of its files lies
        in the history directory of a deleted file (or of any changed one, for `report_all`)."""
        listed = list(files)
        if any(self.contains(p) for p in listed):
            return True
        return bool(self.directories) and any(p != "-" and comparable_path(detected_root(p)) in self.directories
                                              for p in listed)

    def select(
        self, findings: list[Finding], diagnostics: list[Diagnostic], legacy: Callable[[Finding], bool] | None = None,
    ) -> tuple[list[Finding], list[Diagnostic]]:
        """What an affected unit reports: the findings and diagnostics located in changed files,
        and with `before` every one new against it, wherever it is. A finding in a changed file
        on a table the change did not touch (`legacy`) drops one level, unless it is new. With
        `before`, each item says whether it is new (`Finding.new`): not there before, or less
        severe there (the change makes it worse)."""
        if self.report_all:
            return findings, diagnostics
        from linter.rules import fingerprints

        before = self.before
        kept: list[Finding] = []
        for finding in findings:
            compared = before is not None and before.covers(finding.path)
            new = compared and (not before.take(finding) or not before.was_at_least(finding, finding.severity))  # type: ignore[union-attr]
            if new:
                kept.append(finding.replace(new=True))
            elif self.contains(finding.path):
                old = legacy is not None and legacy(finding)
                kept.append(finding.replace(severity=downgrade(finding.severity) if old else finding.severity,
                                            new=False if compared else None))
        kept_diagnostics = []
        for d in diagnostics:
            compared = before is not None and d.rule not in fingerprints.NOT_MATCHED and before.covers(d.path)
            new = compared and not before.take(d)  # type: ignore[union-attr]
            if new or self.contains(d.path):
                kept_diagnostics.append(d.replace(new=new if compared else None))
        return kept, kept_diagnostics

    def statement_changed(self, path: str, line: int, end_line: int) -> bool:
        """Whether a change touches the statement on lines line..end_line of path."""
        spans = self.files.get(comparable_path(path), ())
        if spans is None:
            return True
        end_line = max(end_line, line)
        return any(line <= end and end_line >= start for start, end in spans)

    @classmethod
    def from_git(cls, ref: str, cwd: str | None = None) -> ChangeSet:
        """Files changed between `ref` and the working tree (plus untracked files), with their
        changed lines.

        Names come from git's NUL-separated formats (`--name-status -z`, `ls-files -z`), never
        from the patch text, so every name works: spaces (git ends a `+++` line of such a name
        with a tab), tabs, newlines, quotes, leading dashes, bytes that are not UTF-8. The lines
        come from the `-U0` patch of the same diff, whose files are in the same order. `ref` is
        given after `--end-of-options` and paths after `--`: no name or ref becomes an option.
        """
        top = os.fsdecode(git(["rev-parse", "--show-toplevel"], cwd)).rstrip("\n")
        diff = ["-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "--no-textconv",
                "--diff-filter=ACMR", "-M"]
        listing = git([*diff, "-z", "--name-status", "--end-of-options", ref, "--"], cwd)
        patch = git([*diff, "--src-prefix=a/", "--dst-prefix=b/", "-U0", "--end-of-options", ref, "--"], cwd)
        names = _name_status_targets(listing)
        changes = cls(parse_diff(patch.decode("latin-1"), top, names), root=os.path.realpath(top))
        untracked = git(["ls-files", "--others", "--exclude-standard", "-z", "--"], top)
        for name in untracked.split(b"\0"):
            if name:
                changes.files[comparable_path(os.path.join(top, os.fsdecode(name)))] = None
        gone = git(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-z", "--name-status", "--diff-filter=DMR",
                     "-M", "--end-of-options", ref, "--"], cwd)
        changes._note_deletions(gone, top)
        changes.ref = ref
        return changes

    @classmethod
    def for_commit(cls, paths: Iterable[str], cwd: str | None = None) -> ChangeSet:
        """`--changed-only FILE...` (what pre-commit runs): the named files, plus the files the
        commit deletes, which pre-commit never names (`git diff --cached`: staged deletions and
        the old names of staged renames), against HEAD. Outside a repository, or before its
        first commit, the named files only. A named directory stands for every file a walk of it
        finds."""
        from linter.input.source import discover

        named: list[str] = []
        for path in paths:
            named.extend(discover([path])[0] if os.path.isdir(path) else [path])
        changes = cls.from_files(named)
        try:  # one call: the top, and whether HEAD is a commit (it fails before the first one)
            top = os.fsdecode(git(["rev-parse", "--show-toplevel", "--verify", "--quiet", "HEAD^{commit}"],
                                   cwd)).split("\n", 1)[0]
        except ChangeError:
            return changes
        gone = git(["diff", "--cached", "--no-color", "--no-ext-diff", "--no-textconv", "-z", "--name-status",
                     "--diff-filter=DMR", "-M", "HEAD", "--"], top)
        changes.root = os.path.realpath(top)
        changes._note_deletions(gone, top)
        changes.ref = "HEAD"
        return changes

    def _note_deletions(self, listing: bytes, top: str) -> None:
        """Record `git diff -z --name-status --diff-filter=DMR` (D path; M path; R<score> old new):
        what the change deletes, renames away and edits of the files that exist at the ref."""
        fields = listing.split(b"\0")
        i = 0
        while i < len(fields) and fields[i]:
            status = fields[i][:1]
            old = os.path.join(top, os.fsdecode(fields[i + 1]))
            if status == b"M":
                self.modified.add(comparable_path(old))
                i += 2
                continue
            if status == b"R":
                self.renamed[comparable_path(old)] = comparable_path(os.path.join(top, os.fsdecode(fields[i + 2])))
                score = fields[i][1:].decode("ascii", "replace")
                self.rename_similarity[comparable_path(old)] = int(score) if score.isdigit() else 0
                i += 3
            else:
                i += 2
            self.deleted.append(os.path.abspath(old))
            self.directories.add(comparable_path(detected_root(old)))

    @property
    def places(self) -> list[str]:
        """The history directories (or files) whose units the change affects, absolute: what
        `linter.since` reads at REF."""
        found = {comparable_path(detected_root(p)) for p in self.files if p != "-"} | set(self.directories)
        return sorted(found)


def _name_status_targets(listing: bytes) -> list[str]:
    """The new-side names of `git diff -z --name-status`, in order: `STATUS NUL path NUL`, and
    for renames and copies `STATUS NUL old NUL new NUL`."""
    fields = listing.split(b"\0")
    names: list[str] = []
    i = 0
    while i < len(fields) and fields[i]:
        status = fields[i][:1]
        if status in (b"R", b"C"):
            names.append(os.fsdecode(fields[i + 2]))
            i += 3
        else:
            names.append(os.fsdecode(fields[i + 1]))
            i += 2
    return names


#: a hunk header of `git diff -U0`: the new side's first line and count
_HUNK = re.compile(r"@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def parse_diff(diff: str, top: str, names: list[str] | None = None) -> dict[str, list[Span] | None]:
    """`git diff -U0` output -> absolute path of each new-side file -> changed line spans.

    `names`: the new-side names of the diff's files in its order (`_name_status_targets`); each
    `diff --git` section takes the next one. Without them, names are read from the `+++` lines
    (a name with a space ends in a tab there, which is dropped). If the sections and the names do
    not pair up, every named file counts as changed throughout (never a change lost). Lines are
    split on "\n" only: a line break of another kind inside a changed line (U+2028, \x85) must
    not start a fake hunk header.
    """
    files: dict[str, list[Span] | None] = {}
    sections: list[list[Span]] = []
    header_names: list[str | None] = []
    current: list[Span] | None = None
    for line in diff.split("\n"):
        if line.startswith("diff --git "):
            current = []
            sections.append(current)
            header_names.append(None)
        elif line.startswith("+++ ") and current is not None and not current:
            header_names[-1] = _header_name(line[4:])
        elif line.startswith("@@ ") and current is not None:
            match = _HUNK.match(line)
            if match:
                start, count = int(match.group(1)), int(match.group(2) or 1)
                current.append((start, start + count - 1) if count else (start + 1, start))
    if names is not None and len(names) != len(sections):
        return {comparable_path(os.path.join(top, name)): None for name in names}
    for spans, name in zip(sections, names if names is not None else header_names):
        if name is not None:
            files.setdefault(comparable_path(os.path.join(top, name)), []).extend(spans)  # type: ignore[union-attr]
    return files


def _header_name(name: str) -> str | None:
    """The path of a `+++ b/path` header (None for /dev/null): C-quoted names unquoted, the tab
    git appends to a name with a space dropped."""
    if name.endswith("\t"):
        name = name[:-1]
    if name == "/dev/null":
        return None
    if name.startswith('"') and name.endswith('"'):
        name = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape").encode(
            "latin-1"
        ).decode("utf-8", "replace")
    return name[2:] if name.startswith("b/") else name


def git(args: list[str], cwd: str | None) -> bytes:
    """The standard output of `git ARGS` as bytes (names are decoded by the caller with the
    file system's encoding); ChangeError when git cannot run or fails."""
    import subprocess

    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as error:
        raise ChangeError(f"cannot run git: {error}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip()
        raise ChangeError(f"git {' '.join(args)}: {said or 'failed'}")
    return done.stdout


def comparable_path(path: str) -> str:
    """One spelling per file (symlinks resolved), so a path from git, from the command line and
    from a directory listing compare equal. Standard input stays `-`."""
    return path if path == "-" else os.path.normcase(os.path.realpath(path))


def downgrade(severity: str) -> str:
    """One level down: error -> warning -> info (info stays info)."""
    return {"error": "warning", "warning": "info"}.get(severity, "info")


def tables_named_by(op: object, model: SchemaModel, current_schema: str | None) -> list[Table]:
    """The tables of the model that an operation names (to know which tables a change created or
    altered). Called before and after the operation is applied: before finds a table that an
    ALTER or RENAME is about to rename, after finds the table a CREATE made."""
    from linter.parse import ops

    names: list[ops.Name] = []
    if isinstance(op, (ops.CreateTable, ops.AlterTable)):
        names.append(op.name)
        if isinstance(op, ops.AlterTable):
            names.extend(a.target for a in op.actions if isinstance(a, ops.RenameTo))
    elif isinstance(op, (ops.CreateIndex, ops.DropIndexStatement)):
        names.append(op.table)
    elif isinstance(op, ops.RenameTable):
        names.extend(name for pair in op.pairs for name in pair)
    found = []
    for name in names:
        table = model.find_table(name.schema if name.schema is not None else current_schema, name.name)
        if table is not None:
            found.append(table)
    return found


def edited_migrations(changes: ChangeSet, files: list[str], tool: str | None) -> tuple[MigrationEdit, ...]:
    """The files of a migration history (`files`, its format `tool`) that exist at the change's ref
    and that the change edits, deletes or renames (`edited-migration`): the databases that ran the
    history at the ref have run them, and will not run them again. A migration the tool runs again
    whenever it changes (`Format.meant_to_change`) and a down or undo migration are left out, and so
    is a rename a tool that records only versions does not see (same version, same content), and a
    history whose tool checks its applied parts itself (`Format.checks_its_edits`)."""
    from linter.input.migrations.files import classify
    from linter.input.migrations.formats import named
    from linter.rules.checkapi import MigrationEdit

    fmt = named(tool) if tool is not None else None
    if changes.ref is None or changes.report_all or (fmt is not None and fmt.checks_its_edits):
        return ()
    on_edit = fmt.on_edit if fmt is not None and fmt.on_edit else None
    mine = {comparable_path(path): path for path in files if path != "-"}
    roots = {comparable_path(detected_root(path)) for path in files if path != "-"}
    found: list[MigrationEdit] = []

    def runs_forward(path: str) -> bool:
        entry = classify(path)
        return entry is None or (entry.ignored is None and not (fmt is not None and fmt.meant_to_change(entry)))

    for path in sorted(changes.modified):
        if path in mine and runs_forward(path):
            spans = changes.files.get(path)
            line = min((start for start, _ in spans), default=1) if spans else 1
            found.append(MigrationEdit(mine[path], "modified", changes.ref, max(line, 1), on_edit=on_edit))
    for old in changes.deleted:
        absolute = comparable_path(old)
        if comparable_path(detected_root(old)) not in roots or not runs_forward(old):
            continue
        new = changes.renamed.get(absolute)
        if new is None:
            found.append(MigrationEdit(old, "deleted", changes.ref, on_edit=on_edit))
            continue
        before, after = classify(old), classify(new)
        same_version = (fmt is not None and before is not None and after is not None
                        and before.family == after.family and fmt.version(before) == fmt.version(after))
        if fmt is not None and fmt.records_version_only and same_version \
                and changes.rename_similarity.get(absolute, 0) == 100:
            continue
        found.append(MigrationEdit(old, "renamed", changes.ref, new_path=mine.get(new, new), on_edit=on_edit))
    return tuple(found)


def uncommitted(directory: str) -> dict[str, str] | None:
    """The files below `directory` that differ from the last commit, by absolute path (`comparable_path`),
    each with what differs: "untracked", "added" (a new file in the index, not committed),
    "staged" (an edit in the index), "modified" (in the working tree, not staged), "deleted". None when the directory is in no git repository (or
    git cannot run): nothing can be said."""
    try:
        top = git(["rev-parse", "--show-toplevel"], directory).rstrip(b"\n")
        listed = git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", "."],
                      directory)
    except ChangeError:
        return None
    found: dict[str, str] = {}
    root = os.fsdecode(top)
    for entry in listed.split(b"\0"):
        if len(entry) < 4:
            continue
        staged, worktree, name = chr(entry[0]), chr(entry[1]), os.fsdecode(entry[3:])
        if staged == "?":
            state = "untracked"
        elif "D" in (staged, worktree):
            state = "deleted"
        elif worktree != " ":
            state = "modified"
        else:
            state = "added" if staged == "A" else "staged"
        found[comparable_path(os.path.join(root, name))] = state
    return found
