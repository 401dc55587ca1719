"""The tree at REF, replayed: what a change makes worse, not only what it touches.

A pull request that deletes the migration that fixed something (V3 adds the key V2 lacked; the
PR deletes V3), or edits it, leaves every finding in files it did not touch: "findings in changed
files" reports nothing. So `--since REF` (and a pre-commit run, against HEAD) lints the affected
units twice, at REF and in the working tree, and reports every finding of the working tree that
is new against REF, wherever it is (`ChangeSet.select`), matched by `linter.rules.fingerprints`.

How REF is read, without executing anything and inside the tree innolint may read:
- `git ls-tree -r -z REF -- DIR...` names the blobs of the affected directories (a migration
  history: its directory; a plain file: the file), and `git cat-file --batch` streams their bytes
  (no checkout: no hooks, filters, textconv or attributes run) into a private temporary directory,
  under the same relative paths.
- Only SQL files are written (the names a directory walk reads). A name from git that would leave
  that directory (absolute, `..`, `.git`, a NUL) is refused; a symbolic link is followed only to
  a blob of the same tree, inside the repository, as the working tree's walk would (a link that
  leaves is not read, as there); submodules are skipped.
- The configuration is the working tree's: the REF files are linted through a resolver that maps
  each temporary path to its place in the repository (`_MappedResolver`), so excludes, configured
  migration directories, options and stats apply to both sides alike, and a difference is the
  SQL's.

The REF side is linted with `report_all` (every finding of the affected units, none filtered or
downgraded) and grouped as the working tree is; renamed files map back to their new names.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from linter.rules import fingerprints
from linter.rules.fingerprints import Known
from linter.input.git_changes import ChangeError, ChangeSet, comparable_path, git
from linter.input.migrations.files import classify, detected_root
from linter.input.migrations.formats.base import Session
from linter.input.migrations.history import companion, place_of
from linter.input.source import SQL_SUFFIXES

#: git's modes for what is read: regular files (and executable ones); links are followed by hand
_REGULAR = (b"100644", b"100755")
_LINK = b"120000"
#: links followed one after another before giving up (a cycle)
_MAX_LINKS = 8


def before(changes: ChangeSet, paths: list[str], resolver: Any) -> Known:
    """The keys of every finding and diagnostic of the units `changes` affects, as they were at
    `changes.ref`, limited to the PATHS linted (their places in the working tree)."""
    from linter.engine import RunOptions, lint_paths

    if changes.ref is None or changes.root is None:
        raise ChangeError("no git revision to compare with")
    top = changes.root
    roots = [os.path.realpath(p) for p in paths if p != "-"]
    places, recursive, together = _directories(changes, resolver)
    named = {d for d in places if _under(d, roots)}
    # a history of several configured directories is read whole when one of them is named
    named |= {other for d in list(named) for other in together.get(d, ())}
    wanted = [d for d in places if d in named and _inside(d, top)]
    covered = set(wanted)
    recursive = {root for root in recursive if root in covered}  # (one outside the repository is not read)

    def covers(path: str) -> bool:
        """Only the items of what was read at REF can be new against it."""
        if not path or path == "-" or "://" in path:
            return False
        real = os.path.realpath(path)
        return real in covered or os.path.realpath(detected_root(path)) in covered or any(
            real.startswith(root + os.sep) for root in recursive)

    known = Known(covers)
    if not wanted:
        return known
    scratch = tempfile.mkdtemp(prefix="innolint-ref-")
    try:
        tree = os.path.join(scratch, "tree")
        os.mkdir(tree)
        Path(tree, ".git").write_text("")  # the temporary tree is its own repository root (containment)
        written = _materialize(changes.ref, top, wanted, tree, recursive)
        if not written:
            return known
        ref_changes = ChangeSet({comparable_path(p): None for p in written}, root=os.path.realpath(tree))
        ref_changes.report_all = True
        ref_changes.directories = {comparable_path(os.path.join(tree, os.path.relpath(d, top))) for d in wanted}
        report = lint_paths(sorted(written), options=RunOptions(_MappedResolver(resolver, tree, top),
                                                                changes=ref_changes))
        real_tree = os.path.realpath(tree)
        for item in [*report.findings, *report.diagnostics]:
            if getattr(item, "rule", "") in fingerprints.NOT_MATCHED or not item.path:
                continue
            head = os.path.join(top, os.path.relpath(os.path.realpath(item.path), real_tree))
            head = changes.renamed.get(comparable_path(head), head)
            known.add(fingerprints.key(item, head), fingerprints.copies(item), item.severity)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return known


def _inside(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip(os.sep) + os.sep)


def _under(path: str, roots: list[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) or root.startswith(path + os.sep)
               for root in roots)


def _directories(changes: ChangeSet, resolver: Any) -> tuple[list[str], set[str], dict[str, frozenset[str]]]:
    """What to read at REF, and which of it is a configured migration directory (read whole):
    the history directory of every changed or deleted migration (or the configured migration
    directory it lies in), the directory of every deleted file, and a changed plain file itself.
    Real paths; and for the directories of a configured history of several (`path = [...]`) the
    history's directories, read together."""
    found: set[str] = set()
    recursive: set[str] = set()
    together: dict[str, frozenset[str]] = {}  # a configured directory -> every directory of its history
    olds = {new: old for old, new in changes.renamed.items()}
    session = Session(lambda path: True)  # one for every changed file: each changelog is read once
    deleted = {comparable_path(p) for p in changes.deleted}
    for path in [*changes.files, *changes.deleted]:
        if path == "-":
            continue
        path = olds.get(comparable_path(path), path)
        dirs = resolver.for_path(path).migration_dirs() if resolver is not None else []
        configured = [(location, root) for location, _, root in dirs
                      if comparable_path(path).startswith(location.rstrip(os.sep) + os.sep)]
        if configured:
            root = max(configured, key=lambda item: len(item[0]))[1]
            # every location of the history the file belongs to (`path = [...]`): read whole
            history = frozenset(os.path.realpath(location) for location, _, of in dirs if of == root)
            recursive.update(history)
            together.update((location, history) for location in history)
            continue
        place, whole = place_of(path, session) if os.path.exists(path) else (detected_root(path), False)
        if whole:  # a history rooted in a file (a changelog): that file's directory and below
            recursive.add(os.path.realpath(place))
        elif classify(path) is not None or comparable_path(path) in deleted or place != os.path.dirname(os.path.abspath(path)):
            found.add(place)
        else:
            found.add(os.path.abspath(path))
    found |= set(changes.directories)
    return sorted({os.path.realpath(p) for p in found} | recursive), recursive, together


def _safe(name: bytes) -> str | None:
    """A path from git as a relative path of the temporary tree, or None when it would leave it."""
    if not name or b"\0" in name or name.startswith(b"/"):
        return None
    parts = name.split(b"/")
    if any(part in (b"", b".", b"..") or part.lower() == b".git" for part in parts):
        return None
    return os.fsdecode(name)


def _materialize(ref: str, top: str, wanted: list[str], tree: str, recursive: set[str]) -> list[str]:
    """Write REF's SQL files of the `wanted` places into `tree`; their paths there. A place is a
    history directory (its migrations: direct children, diesel's `<version>_<name>/up.sql`), a
    configured migration directory (`recursive`: everything below) or a file."""
    prefixes = []
    for place in wanted:
        relative = os.path.relpath(place, top)
        if relative.startswith(os.pardir):
            continue  # outside the repository: nothing of it is in git
        prefixes.append(":/" if relative == "." else relative)
    if not prefixes:
        return []
    listing = git(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", ref, "--", *prefixes], top)
    # Prisma's schema files sit beside its `migrations` directory: that directory's own files too
    beside = sorted({os.path.relpath(os.path.dirname(place), top) + "/" for place in wanted
                     if os.path.basename(place) == "migrations" and _inside(os.path.dirname(place), top)
                     and os.path.dirname(place) != top})
    if beside:
        listing += b"\0" + git(["ls-tree", "-z", "--full-tree", "--end-of-options", ref, "--", *beside], top)
    places = set(wanted)
    blobs: dict[str, tuple[bytes, bytes]] = {}  # relative path -> (mode, oid)
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, oid = meta.split(b" ")
        relative = _safe(name)
        if relative is not None and kind == b"blob":  # not a name that would leave the tree, not a submodule
            blobs[relative] = (mode, oid)

    def belongs(relative: str) -> bool:
        head = os.path.join(top, relative)
        if not relative.lower().endswith(SQL_SUFFIXES):
            return False
        return head in places or detected_root(head) in places or any(
            head.startswith(root + os.sep) for root in recursive)

    def decides(relative: str) -> bool:
        """A file that is not linted but decides how a history read here is read (atlas.sum, a
        Liquibase changelog, Prisma's lock and schema files beside or above the migrations)."""
        head = os.path.join(top, relative)
        directory = os.path.dirname(head)
        return companion(relative) and (directory in places or any(
            os.path.join(directory, "migrations") == place for place in places) or any(
            head.startswith(root + os.sep) for root in recursive))

    named: list[str] = []  # what the working tree's walk would read, as paths of the temporary tree
    contents: dict[str, bytes] = {}  # relative path -> oid of the regular file to write there
    links: dict[str, str] = {}  # relative path of a link -> relative path of the file it leads to
    for relative, (mode, oid) in blobs.items():
        if not belongs(relative):
            if mode in _REGULAR and decides(relative):
                contents[relative] = oid  # written, not linted
            continue
        if mode in _REGULAR:
            contents[relative] = oid
            named.append(relative)
        elif mode == _LINK:
            followed = _follow(relative, oid, lambda path: _entry(ref, top, path, blobs), top)
            if followed is not None:  # a link that leaves the tree is not read (the walk refuses it too)
                contents[followed] = _entry(ref, top, followed, blobs)[1]  # type: ignore[index]
                links[relative] = followed
                named.append(relative)
    targets: dict[bytes, list[str]] = {}
    for relative, oid in contents.items():
        target = os.path.join(tree, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        targets.setdefault(oid, []).append(target)
    _stream_blobs(top, targets)
    for relative, followed in links.items():  # a link stays a link: the walk reads a file reached twice once
        link = os.path.join(tree, relative)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.relpath(os.path.join(tree, followed), os.path.dirname(link)), link)
    return [os.path.join(tree, relative) for relative in named]


def _entry(ref: str, top: str, path: str, blobs: dict[str, tuple[bytes, bytes]]) -> tuple[bytes, bytes] | None:
    """(mode, oid) of `path` at REF: from the listing, else asked of git (a link's target outside
    the places read); remembered in `blobs`."""
    if path not in blobs:
        listing = git(["ls-tree", "-z", "--full-tree", "--end-of-options", ref, "--", path], top)
        meta, _, name = listing.rstrip(b"\0").partition(b"\t")
        if not meta or os.fsdecode(name) != path or meta.split(b" ")[1] != b"blob":
            return None
        mode, _, oid = meta.split(b" ")
        blobs[path] = (mode, oid)
    return blobs[path]


def _follow(relative: str, oid: bytes, lookup: Callable[[str], tuple[bytes, bytes] | None], top: str) -> str | None:
    """The path of the regular blob a symbolic link of the tree leads to, inside the repository
    (followed lexically, at most `_MAX_LINKS` links); None when it leads elsewhere."""
    here = relative
    for _ in range(_MAX_LINKS):
        target = _small_blob(top, oid)
        if target.startswith(b"/") or b"\0" in target:
            return None
        joined = os.path.normpath(os.path.join(os.path.dirname(here), os.fsdecode(target)))
        if joined.startswith(os.pardir) or os.path.isabs(joined):
            return None
        joined = joined.replace(os.sep, "/")
        found = lookup(joined) if _safe(os.fsencode(joined)) is not None else None
        if found is None:
            return None
        mode, oid = found
        if mode in _REGULAR:
            return joined
        if mode != _LINK:
            return None
        here = joined
    return None


def _small_blob(top: str, oid: bytes) -> bytes:
    """A link's target (a few bytes)."""
    done = subprocess.run(["git", "cat-file", "blob", oid.decode("ascii")], cwd=top, capture_output=True, check=False)
    if done.returncode != 0:
        raise ChangeError(f"git cat-file blob {oid.decode('ascii')}: {done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout[:4096]


def _stream_blobs(top: str, targets: dict[bytes, list[str]]) -> None:
    """Write each blob to its files through one `git cat-file --batch`, in 1 MiB pieces: raw
    bytes (no filter runs), never a whole dump in memory."""
    if not targets:
        return
    oids = list(targets)
    try:
        process = subprocess.Popen(["git", "cat-file", "--batch"], cwd=top, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError as error:
        raise ChangeError(f"cannot run git: {error}") from None
    assert process.stdin is not None and process.stdout is not None

    def feed() -> None:  # a thread: git answers while it reads, and a full pipe would block both
        try:
            for oid in oids:
                process.stdin.write(oid + b"\n")  # type: ignore[union-attr]
            process.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        for oid in oids:
            header = process.stdout.readline().split(b" ")
            if len(header) != 3 or header[1] != b"blob":
                raise ChangeError(f"git cat-file --batch: unexpected answer for {oid.decode('ascii')}")
            left = int(header[2])
            handles = [open(path, "wb") for path in targets[oid]]  # noqa: SIM115 - closed below
            try:
                while left:
                    piece = process.stdout.read(min(left, 1 << 20))
                    if not piece:
                        raise ChangeError("git cat-file --batch: the answer ended early")
                    for handle in handles:
                        handle.write(piece)
                    left -= len(piece)
            finally:
                for handle in handles:
                    handle.close()
            process.stdout.read(1)  # the newline after each blob
    finally:
        process.stdout.close()
        process.wait()
        feeder.join()


class _MappedResolver:
    """The working tree's configuration for files replayed from a temporary copy of REF: each
    path is looked up at its place in the repository, and what the configuration names by path
    (excludes, migration directories) is mapped between the two."""

    def __init__(self, resolver: Any, tree: str, top: str) -> None:
        self.resolver = resolver
        self.tree = os.path.realpath(tree)
        self.top = top

    def _head(self, path: str) -> str:
        real = os.path.realpath(path)
        if real == self.tree or real.startswith(self.tree + os.sep):
            return os.path.join(self.top, os.path.relpath(real, self.tree))
        return path

    def for_path(self, path: str) -> Any:
        return _MappedConfig(self.resolver.for_path(self._head(path)), self)


class _MappedConfig:
    def __init__(self, loaded: Any, mapping: _MappedResolver) -> None:
        self._loaded = loaded
        self._mapping = mapping

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loaded, name)

    def is_excluded(self, path: str, *, named: bool) -> bool:
        return bool(self._loaded.is_excluded(self._mapping._head(path), named=named))

    def migration_dirs(self) -> list[tuple[str, str, str]]:
        mapped = []
        top = os.path.realpath(self._mapping.top)
        for location, fmt, root in self._loaded.migration_dirs():
            relative, of = os.path.relpath(location, top), os.path.relpath(root, top)
            if not relative.startswith(os.pardir) and not of.startswith(os.pardir):
                mapped.append((os.path.join(self._mapping.tree, relative), fmt, os.path.join(self._mapping.tree, of)))
        return mapped
