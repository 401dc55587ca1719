"""Find the SQL files a run reads, and read them as text whatever their encoding.

Schema files come from everywhere: UTF-8 with or without a BOM, latin1 dumps of old servers,
PowerShell redirections in UTF-16, directories full of migrations, standard input. Reading never
guesses silently and never crashes: a name in an undecodable byte keeps its latin1 reading, and
every path that cannot be read becomes an `InputError` whose message starts with the path, so
one bad file costs one message, not the run.
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, BinaryIO

from linter.input.statement import Segment, TenantBlock
from linter.input.split import StatementStream, split_stream
from linter.schema.target import Target

if TYPE_CHECKING:
    from linter.input.migrations.formats.base import Format

#: how much of a file the binary check looks at
_SNIFF_BYTES = 8192
#: the name of the decode-error handler that reads undecodable bytes as latin-1
LATIN1_FALLBACK = "innolint-latin1"


class InputError(Exception):
    """A path that cannot be read as SQL. The message starts with the path."""


def _latin1_fallback(error: UnicodeError) -> tuple[str, int]:
    """Decode the bytes UTF-8 rejected as latin-1: a latin1 dump keeps its accented names."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return error.object[error.start : error.end].decode("latin-1"), error.end


codecs.register_error(LATIN1_FALLBACK, _latin1_fallback)


def _os_message(path: str, error: OSError) -> str:
    """A one-line message for an OS error on `path`, starting with the path."""
    if error.errno == errno.ENOENT:
        return f"{path}: no such file or directory"
    if error.errno in (errno.EACCES, errno.EPERM):
        return f"{path}: permission denied"
    if error.errno == errno.ELOOP:
        return f"{path}: symbolic link loop"
    if error.errno == errno.EISDIR:
        return f"{path}: is a directory"
    return f"{path}: cannot read: {error.strerror or error}"


def _looks_binary(head: bytes) -> bool:
    """NUL bytes and not text: invalid UTF-8, or so many NULs it is UTF-16 without a BOM or data.

    A NUL or two in otherwise valid text (a stray byte in a dump) is not binary: the splitter and
    the parser cope, and the user sees where.
    """
    if b"\x00" not in head or head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    if head.count(0) * 8 > len(head):
        return True
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)  # a cut last character is fine
    except UnicodeDecodeError:
        return True
    return False


def _decoder_for(head: bytes) -> codecs.IncrementalDecoder:
    """UTF-16 when a UTF-16 BOM says so (PowerShell's `>` writes it), else UTF-8 with the latin-1 fallback.

    `utf-8-sig` drops a leading UTF-8 BOM, even one cut across two reads.
    """
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return codecs.getincrementaldecoder("utf-16")(errors="replace")
    return codecs.getincrementaldecoder("utf-8-sig")(errors=LATIN1_FALLBACK)


def iter_chunks(path: str, chunk_size: int = 1 << 20, on_read: Callable[[int], None] | None = None) -> Iterator[str]:
    """The text of `path` ("-": standard input) in chunks of about `chunk_size` characters.

    The file is opened and its first bytes checked at once, so a missing, unreadable, directory
    or binary path raises InputError here, not at the first `next()`; later read errors raise
    InputError from the iteration. `on_read` is told the size of every block of bytes read (for
    progress and statistics).
    """
    if path == "-":
        stream: BinaryIO = sys.stdin.buffer
        owned = False
    else:
        if os.path.isdir(path):
            raise InputError(f"{path}: is a directory")
        try:
            stream = open(path, "rb")  # noqa: SIM115 - closed by the generator below
        except OSError as error:
            raise InputError(_os_message(path, error)) from error
        owned = True
    try:
        head = stream.read(max(chunk_size, _SNIFF_BYTES))
    except OSError as error:
        if owned:
            stream.close()
        raise InputError(_os_message(path, error)) from error
    if _looks_binary(head[:_SNIFF_BYTES]):
        if owned:
            stream.close()
        raise InputError(f"{path}: binary file, not SQL")
    return _decode_chunks(path, stream, owned, head, chunk_size, on_read)


def _decode_chunks(
    path: str, stream: BinaryIO, owned: bool, head: bytes, chunk_size: int, on_read: Callable[[int], None] | None
) -> Iterator[str]:
    decoder = _decoder_for(head)
    if on_read is not None:
        on_read(len(head))
    try:
        for start in range(0, len(head), chunk_size):  # the sniffed head, in the same chunk size as the rest
            text = decoder.decode(head[start : start + chunk_size])
            if text:
                yield text
        while head:
            try:
                data = stream.read(chunk_size)
            except OSError as error:
                raise InputError(_os_message(path, error)) from error
            if not data:
                break
            if on_read is not None:
                on_read(len(data))
            text = decoder.decode(data)
            if text:
                yield text
        text = decoder.decode(b"", final=True)
        if text:
            yield text
    finally:
        if owned:
            stream.close()


def read_statements(
    path: str, *, migration_format: str | None = None, target: Target | None = None,
    skip_words: frozenset[str] | None = None, skip_pattern: str = "", unless: str = "",
    on_read: Callable[[int], None] | None = None, segment: Segment | None = None,
    blocks: Callable[[TenantBlock], bool] | None = None,
) -> StatementStream:
    """The statements of `path` ("-": standard input), streamed; InputError when it cannot be read.
    `migration_format`, `target`, `skip_words`, `skip_pattern`, `unless`, `segment` and `blocks`:
    see `linter.input.split.split_stream`; `on_read`: see `iter_chunks`."""
    return split_stream(iter_chunks(path, on_read=on_read), path, migration_format=migration_format, target=target,
                        skip_words=skip_words, skip_pattern=skip_pattern, unless=unless, segment=segment,
                        blocks=blocks)


def discover(paths: list[str], *, repository: str | None = None) -> tuple[list[str], list[tuple[str, str]]]:
    """Expand command-line paths into the files to read, and (path, message) for those that cannot be.

    A file is taken whatever its name (the user named it); a directory is walked for `*.sql`
    (any case) in sorted order, following symbolic links but never into a directory twice, so a
    link loop ends the walk of that branch instead of the run, and skipping what git ignores
    (`linter.input.gitignore`); "-" is standard input. A
    directory without any SQL file is an error: silence would read as "no findings". A file
    reached twice (named and inside a named directory) is read once. Never raises.

    Containment (`linter.input.file_access`): a file found in a walk is read only if its real path lies
    inside the walked directory, and a symbolic link to a directory outside it is not followed;
    a path named inside `repository` (the real path of the repository root; default: the one
    around the current directory) must resolve inside it. Each file refused is an error naming
    the path and the reason, never its target or content. A named path outside the repository
    is the user's own choice and is read as named.
    """
    from linter.input.file_access import lexically_within, outside, repository_root

    root = repository if repository is not None else repository_root()
    files: list[str] = []
    errors: list[tuple[str, str]] = []
    seen: set[tuple[int, int]] = set()

    def add(path: str, st: os.stat_result) -> None:
        key = (st.st_dev, st.st_ino)
        if key not in seen:
            seen.add(key)
            files.append(path)

    for path in paths:
        if path == "-":
            files.append(path)
            continue
        try:
            st = os.stat(path)
        except OSError as error:
            errors.append((path, _os_message(path, error)))
            continue
        except ValueError:  # a NUL byte in the name
            errors.append((path, f"{path}: invalid file name"))
            continue
        is_dir = stat.S_ISDIR(st.st_mode)
        if lexically_within(path, root):
            refused = outside(path, root, "directory" if is_dir else "file", "the repository")
            if refused is not None:
                errors.append((path, refused))
                continue
        if not is_dir:
            if not os.access(path, os.R_OK):
                errors.append((path, f"{path}: permission denied"))
            else:
                add(path, st)
            continue
        found, walk_errors = _walk_sql(path)
        errors.extend(walk_errors)
        if not found and not walk_errors:
            errors.append((path, f"{path}: no SQL files in this directory (*.sql, *.sql.in, *.ddl, *.mysql, *.dump, or a mysqldump .txt)"))
        for file_path, file_st in found:
            add(file_path, file_st)
    return files, errors


#: File names a directory walk takes as SQL: what schema files and dumps are called in the wild
#: (`schema.mysql`, `zm_create.sql.in` templates, Laravel's `mysql-schema.dump`).
SQL_SUFFIXES = (".sql", ".sql.in", ".ddl", ".mysql", ".dump")
#: A `.txt` file is taken when it starts like a mysqldump or mariadb-dump output.
_DUMP_HEADER = re.compile(rb"^(?:\xef\xbb\xbf)?-- (?:MySQL|MariaDB) dump ", re.MULTILINE)


def _sql_name(name: str) -> bool | None:
    """True: a SQL file by its name; None: a `.txt` file that is SQL if it starts like a dump, or
    a file a migration format reads when it says it is that format's (`Format.walked`: a
    changelog); False: not SQL."""
    lowered = name.lower()
    if lowered.endswith(SQL_SUFFIXES):
        return True
    return None if lowered.endswith(".txt") or _walking_format(lowered) is not None else False


def _walking_format(lowered: str) -> Format | None:
    from linter.input.migrations.formats import FORMATS

    return next((fmt for fmt in FORMATS if fmt.walked(lowered)), None)


def _is_dump(path: str) -> bool:
    """Whether a `.txt` file (a regular file inside the tree) starts like mysqldump output, or a
    file a format walks is that format's (`Format.takes`, by its first 4 KiB)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return True  # let reading it report the error
    fmt = _walking_format(path.lower())
    if fmt is not None:
        return fmt.takes(head)
    return _DUMP_HEADER.search(head) is not None


def _walk_sql(top: str) -> tuple[list[tuple[str, os.stat_result]], list[tuple[str, str]]]:
    """The `*.sql` files under `top` with their stat, sorted, and the errors met on the way.

    Nothing outside `top` is read or walked: a file or directory whose real path leaves it is an
    error for a SQL name and a linked directory, and skipped unread for a `.txt` (a link to a
    licence or a README outside is common and says nothing about SQL). What git ignores is
    skipped unread, without a word (it is not the repository's own)."""
    from linter.input.file_access import outside
    from linter.input.gitignore import ignored_under

    tree = os.path.realpath(top)
    ignored = ignored_under(top, tree)
    found: list[tuple[str, os.stat_result]] = []
    errors: list[tuple[str, str]] = []
    visited: set[tuple[int, int]] = set()

    def on_error(error: OSError) -> None:
        where = error.filename if isinstance(error.filename, str) else top
        errors.append((where, _os_message(where, error)))

    for dirpath, dirnames, filenames in os.walk(top, onerror=on_error, followlinks=True):
        try:
            st = os.stat(dirpath)
        except OSError as error:
            errors.append((dirpath, _os_message(dirpath, error)))
            dirnames[:] = []
            continue
        key = (st.st_dev, st.st_ino)
        if key in visited:  # reached again through a symbolic link: a loop or a second way in
            dirnames[:] = []
            continue
        visited.add(key)
        relative = os.path.relpath(dirpath, top).replace(os.sep, "/")
        ignored.enter(dirpath, relative)
        prefix = "" if relative == "." else relative + "/"
        # every directory entered resolves inside the tree (checked here before it is entered), so
        # only a symbolic link can lead out: real paths are resolved for links only
        kept = []
        for name in sorted(dirnames):
            if name == ".git" or ignored.directory(prefix + name):
                continue
            sub = os.path.join(dirpath, name)
            refused = outside(sub, tree, "directory", top) if os.path.islink(sub) else None
            if refused is None:
                kept.append(name)
            else:
                errors.append((sub, refused))
        dirnames[:] = kept
        for name in sorted(filenames):
            sql = _sql_name(name)
            if sql is False or ignored.file(prefix + name):
                continue
            file_path = os.path.join(dirpath, name)
            refused = outside(file_path, tree, "file", top) if os.path.islink(file_path) else None
            if refused is not None:
                if sql:
                    errors.append((file_path, refused))
                continue
            try:
                file_st = os.stat(file_path)
            except OSError as error:
                if sql:
                    errors.append((file_path, _os_message(file_path, error)))
                continue
            if not stat.S_ISREG(file_st.st_mode):  # reading a FIFO named x.sql would hang the walk
                if sql:
                    errors.append((file_path, f"{file_path}: not a regular file (name it to read it anyway)"))
                continue
            if sql is None and not _is_dump(file_path):
                continue
            if not os.access(file_path, os.R_OK):
                errors.append((file_path, f"{file_path}: permission denied"))
                continue
            found.append((file_path, file_st))
    return found, errors
