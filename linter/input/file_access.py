"""Which files a run may read, and how much of them: the rules for names a pull request chooses.

A pull request chooses file names, symbolic links and configuration. A link `db/x.sql ->
/proc/self/environ` would put the CI job's environment (its tokens) into excerpts, annotations
and the job summary; `stats = "/dev/zero"` would be read until memory runs out. So:

- **Containment.** A file is read only if its real path (every symbolic link resolved) lies
  inside the tree it was reached from: the directory named on the command line for a file found
  by walking it, the repository root for a file a pull request names (`--changed-only` gets its
  names from pre-commit, `--since` from git) and for a file named on the command line that lies
  in the repository (the action passes names from the workflow, but the pull request decides
  what they are). A file named on the command line outside the repository (`innolint check
  /tmp/dump.sql`) is the user's own choice and is read as named. The repository root is the
  nearest directory above the current one holding `.git`, else the current directory.
- **Files named by configuration** (`stats`) must lie inside the repository of the configuration
  file, be regular files, and be smaller than their cap; files named by options (`--stats`,
  `--baseline`, `--config`, the report of `innolint github`) must be regular files under their
  cap. A FIFO, a device (`/dev/zero`) or a directory is refused before it is opened.

- **Files a reader opens beside the linted ones** (a Prisma lock file or schema, atlas.sum, a
  Liquibase changelog and what it includes, a schema dump's migration records, Laravel models, the
  first bytes of a migration read to tell its format) go through one check, `open_inside` /
  `read_inside`: the real path lies in the tree (`inside`, the run's trees: the repository and
  the named directories), the file is a regular one, and what is read is capped. A link in a pull
  request to a file elsewhere is refused there, and the reader says so where it would have used it.

The check resolves the path, then the reader opens it by name: a file swapped for a link in
between is not caught. A checked-out pull request does not change while innolint runs, so that
window is not one a pull request can use.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from typing import BinaryIO

#: caps on files named by configuration or options (bytes)
CONFIG_FILE_CAP = 1 << 20  # a pyproject.toml or .innolint.toml: 1 MiB
STATS_FILE_CAP = 128 << 20  # ~300 bytes a table: 400K tables
BASELINE_FILE_CAP = 128 << 20  # ~250 bytes a fingerprint
REPORT_FILE_CAP = 512 << 20  # `innolint github REPORT.json`


class FileRefused(Exception):
    """A file that must not be read; the message starts with the path and says why."""


def repository_root(start: str | None = None) -> str:
    """The real path of the nearest directory at or above `start` (default: the current one)
    holding `.git` (a directory, or a file in a worktree or submodule), else of `start`."""
    here = os.path.realpath(start if start is not None else os.getcwd())
    probe = here
    while True:
        if os.path.lexists(os.path.join(probe, ".git")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return here
        probe = parent


def within(real: str, root: str) -> bool:
    """Whether the real path `real` is `root` or lies below it (both real paths)."""
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def lexically_within(path: str, root: str) -> bool:
    """Whether `path` as written (made absolute, `..` folded, no link resolved) lies in `root`."""
    return within(os.path.normpath(os.path.abspath(path)), root)


def outside(path: str, tree: str, kind: str = "file", label: str | None = None) -> str | None:
    """Why `path` must not be read as part of the tree whose real path is `tree`, or None when
    it may: its real path lies inside. The message names the path and the tree (`label`, as
    the user wrote it), never where the link points."""
    if within(os.path.realpath(path), tree):
        return None
    return (f"{path}: symbolic link to a {kind} outside {label or tree}; not read "
            "(innolint reads only files inside the tree it lints; name the target itself to lint it)")


def special_file(st: os.stat_result) -> str | None:
    """What a file is when it is not a regular file ("is a directory", "is a named pipe (FIFO)",
    ...), or None for a regular file."""
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device"
    if stat.S_ISSOCK(mode):
        return "is a socket"
    return "is not a regular file"


def read_capped(path: str, cap: int, what: str, *, inside: str | None = None, expected: str | None = None) -> bytes:
    """The bytes of a file named by configuration or an option: a regular file of at most `cap`
    bytes, and with `inside` (a real path) lying in that directory. Raises FileRefused, whose
    message starts with the path, for anything else (missing, unreadable, special, too large,
    outside). `what` names the file in messages ("stats file"), `expected` what it should be."""
    if "\0" in path:
        raise FileRefused(f"{path!r}: invalid file name (a NUL character)")
    if inside is not None:
        real = os.path.realpath(path)
        if not within(real, inside):
            raise FileRefused(f"{path}: the {what} must lie inside {inside} (it resolves to a path outside)")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise FileRefused(f"{path}: {what} not found") from None
    except OSError as error:
        raise FileRefused(f"{path}: cannot read the {what}: {_reason(error)}") from None
    except ValueError:  # a NUL in the name
        raise FileRefused(f"{path}: invalid file name") from None
    special = special_file(st)
    if special is not None:
        raise FileRefused(f"{path}: {special}, expected a {expected or what}")
    if st.st_size > cap:
        raise FileRefused(f"{path}: the {what} is {st.st_size:,} bytes, more than the {cap >> 20} MiB innolint reads")
    try:
        # O_NONBLOCK: a FIFO swapped in after the stat does not block the open
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(cap + 1)  # files whose size stat does not know (/proc) are capped too
    except OSError as error:
        raise FileRefused(f"{path}: cannot read the {what}: {_reason(error)}") from None
    if len(data) > cap:
        raise FileRefused(f"{path}: the {what} is more than the {cap >> 20} MiB innolint reads")
    return data


def open_inside(path: str, inside: Callable[[str], bool], what: str) -> BinaryIO:
    """A file a reader opens beside the linted ones, for reading in binary: its real path lies in
    the tree (`inside`) and it is a regular file. Raises FileRefused, whose message starts with
    the path and says why (never where a link points)."""
    if "\0" in path:
        raise FileRefused(f"{path!r}: invalid file name (a NUL character)")
    if not inside(path):
        raise FileRefused(f"{path}: symbolic link to a file outside the tree innolint lints; the {what} is not read")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise FileRefused(f"{path}: {what} not found") from None
    except OSError as error:
        raise FileRefused(f"{path}: cannot read the {what}: {_reason(error)}") from None
    special = special_file(st)
    if special is not None:
        raise FileRefused(f"{path}: {special}, expected a {what}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        return os.fdopen(fd, "rb")
    except OSError as error:
        raise FileRefused(f"{path}: cannot read the {what}: {_reason(error)}") from None


def read_inside(path: str, inside: Callable[[str], bool], cap: int, what: str) -> bytes:
    """The bytes of a file a reader opens beside the linted ones (`open_inside`), at most `cap`:
    a larger one is refused (FileRefused)."""
    with open_inside(path, inside, what) as handle:
        try:
            data = handle.read(cap + 1)
        except OSError as error:
            raise FileRefused(f"{path}: cannot read the {what}: {_reason(error)}") from None
    if len(data) > cap:
        raise FileRefused(f"{path}: the {what} is more than the {cap >> 20} MiB innolint reads")
    return data


def head_inside(path: str, inside: Callable[[str], bool], size: int) -> bytes:
    """The first `size` bytes of a file a reader looks at to tell what it is (a migration's
    format, a changelog), b"" when it may not or cannot be read (the reading of the file itself
    reports that)."""
    try:
        with open_inside(path, inside, "file") as handle:
            return handle.read(size)
    except (FileRefused, OSError):
        return b""


def _reason(error: OSError) -> str:
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if error.errno == errno.ELOOP:
        return "symbolic link loop"
    return error.strerror or str(error)
