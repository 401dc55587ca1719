"""A new migration in a history's own format: the one writer `innolint fix --migration DIR` uses
(and any other caller), one per format, so that the tool that runs the history runs it next.

- Flyway: `V<next>__<name>.sql`, and `U<next>__<name>.sql` holding the down when the directory
  keeps undo files.
- golang-migrate and Kratos/pop: `<next>_<name>[.<dialect>].up.sql` and `.down.sql`; Authelia
  `V<next>.<Name>.up.sql` and `.down.sql`.
- goose: one file with its `-- +goose Up` and `-- +goose Down` sections (a statement of several
  lines between StatementBegin and StatementEnd: goose ends one at a line ending in `;`); dbmate:
  `-- migrate:up` and `-- migrate:down`.
- diesel: a directory `<next>_<name>/` with up.sql and down.sql.
- Prisma: a directory `<timestamp>_<name>/migration.sql`, the folder `prisma migrate deploy` runs
  after the others (it sorts them by name); Prisma keeps no down migration.
- Atlas: `<next>_<name>.sql` sorting after every file, and atlas.sum written again as `atlas migrate
  hash` writes it (`atlas.sum_text`, Atlas's `migrate.NewHashFile` and `HashFile.MarshalText`),
  when the sum matches the directory before; else the note says to run `atlas migrate hash`
  (innolint does not vouch for files changed behind the sum).
- Liquibase: a formatted SQL file (`--liquibase formatted sql`, one `--changeset`, the down as
  `--rollback` lines) in the directory the root changelog includes whole, else beside the last SQL
  file with a note to include it.
- numbered files (timestamps, Laravel's `2024_01_01_000000_x`, a lexical history): the next
  number with the same spelling, sorting last.

The version is the one after the highest of every name in the directory (down and undo files
too, `names`); a 14-digit timestamp becomes the current UTC time when that is later.
"""

from __future__ import annotations

import datetime
import os
import re
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from linter.input.migrations.files import ATLAS_SUM, PRISMA_FILE, _PRISMA_DIR, _numbers
from linter.input.migrations.history import _changelog_suffixes, _search_path

if TYPE_CHECKING:
    from linter.input.migrations.history import History


class WritingError(Exception):
    """No new migration can be named in this history (its files are not numbered, say)."""


class NewMigration(NamedTuple):
    """A migration to add to a history, in its format: the files to write, by their path relative
    to the history's directory (`directory_of`), the new sub-directory they go in (diesel,
    Prisma), the files among them that exist and are replaced whole (Atlas's atlas.sum), and what
    else the user must do, if anything."""

    files: dict[str, str]
    directory: str | None = None
    replaces: tuple[str, ...] = ()
    note: str | None = None


def directory_of(history: History) -> str:
    """The directory a history's new migrations go in: its root, or a Liquibase root changelog's directory."""
    return history.root if os.path.isdir(history.root) else os.path.dirname(history.root)


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "innolint_fix"


_TIMESTAMP = re.compile(r"\d{14}")


def next_version(versions: Iterable[str], now: float | None = None) -> str:
    """The version after the highest of `versions`, written the same way: its last number plus
    one with the same width and separators; for 14-digit timestamps (YYYYMMDDhhmmss) the current
    UTC time when that is later."""
    written = list(versions)
    if not written:
        return "1"
    highest = max(written, key=lambda v: (_numbers(v), v))
    if _TIMESTAMP.fullmatch(highest):
        stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime(now if now is not None else time.time()))
        return stamp if int(stamp) > int(highest) else str(int(highest) + 1)
    match = re.search(r"(\d+)$", highest)
    if match is None:
        return highest + "1"
    number = match.group(1)
    return highest[: match.start()] + str(int(number) + 1).zfill(len(number))


def _versions(names: Iterable[str], pattern: str) -> list[str]:
    return [m.group(1) for n in names if (m := re.match(pattern, n))]


def _sorting_after(candidate: str, names: list[str]) -> str:
    """`candidate`, or a name made from the last of `names` that sorts after all of them (byte
    order, as Atlas and Prisma sort)."""
    if not names:
        return candidate
    last = max(names, key=lambda n: n.encode("utf-8", "surrogateescape"))
    if candidate.encode("utf-8", "surrogateescape") > last.encode("utf-8", "surrogateescape"):
        return candidate
    return f"{last.rsplit('.', 1)[0]}_{candidate}"


def new_migration(
    history: History, name: str, up: str, down: str | None = None, *, names: list[str] | None = None,
    now: float | None = None, inside: Callable[[str], bool] = lambda path: True,
) -> NewMigration:
    """The migration holding `up` (and `down`, where the format keeps one) that runs after every
    migration of `history`, named after `name` (see the module docstring). `names`: every name in
    the history's directory (default: read from it); `inside`: where the files atlas.sum hashes
    may be read (`linter.input.file_access.read_inside`). Raises WritingError when no name is
    sure to run last."""
    root = directory_of(history)
    if names is None:
        names = sorted(os.listdir(root))
    label = slug(name)
    up = up.rstrip("\n") + "\n"
    fmt = history.format
    writer = _WRITERS.get(fmt, _numbered)
    return writer(history, root, names, label, up, down, now, inside)


def _flyway(history: History, root: str, names: list[str], label: str, up: str, down: str | None, now: float | None,
            inside: Callable[[str], bool]) -> NewMigration:
    version = next_version(_versions(names, r"^[VvUu](\d+(?:[._]\d+)*)__"))
    files = {f"V{version}__{label}.sql": up}
    if down is not None and any(re.match(r"^[Uu]\d", n) for n in names):
        files[f"U{version}__{label}.sql"] = down
    return NewMigration(files)


def _up_down(history: History, root: str, names: list[str], label: str, up: str, down: str | None, now: float | None,
             inside: Callable[[str], bool]) -> NewMigration:
    if history.format == "authelia":
        version = next_version(_versions(names, r"^V(\d+)\."))
        stem = f"V{version}." + "".join(p.capitalize() for p in label.split("_"))
    else:
        dialects = {m.group(1).lower() for n in names if (m := re.search(r"\.(mysql|mariadb)\.(?:up|down)\.sql$", n, re.I))}
        version = next_version(_versions(names, r"^(\d+)_"))
        stem = f"{version}_{label}" + (f".{dialects.pop()}" if len(dialects) == 1 else "")
    files = {f"{stem}.up.sql": up}
    if down is not None:
        files[f"{stem}.down.sql"] = down
    return NewMigration(files, note=None if down is not None else f"{history.format} also wants a .down.sql")


def _diesel(history: History, root: str, names: list[str], label: str, up: str, down: str | None, now: float | None,
            inside: Callable[[str], bool]) -> NewMigration:
    versions = _versions(names, r"^(\d+(?:[._-]\d+)*)_")
    highest = max(versions, key=_numbers) if versions else ""
    if not highest or re.fullmatch(r"\d{4}-\d{2}-\d{2}-\d{6}", highest):
        version = time.strftime("%Y-%m-%d-%H%M%S", time.gmtime(now if now is not None else time.time()))
        if highest and _numbers(version) <= _numbers(highest):
            version = next_version([highest])
    else:
        version = next_version(versions)
    folder = f"{version}_{label}"
    return NewMigration({f"{folder}/up.sql": up, f"{folder}/down.sql": down or "-- innolint fix: nothing to undo\n"},
                        directory=folder)


def _prisma(history: History, root: str, names: list[str], label: str, up: str, down: str | None, now: float | None,
            inside: Callable[[str], bool]) -> NewMigration:
    """`prisma migrate dev` names a folder `<UTC timestamp>_<name>` and runs the folders by name."""
    folders = [n for n in names if re.match(_PRISMA_DIR, n) and os.path.isdir(os.path.join(root, n))]
    stamps = [m.group(1) for n in folders if (m := re.match(r"(\d{14})_", n))]
    version = next_version(stamps or ["0"], now) if stamps else time.strftime(
        "%Y%m%d%H%M%S", time.gmtime(now if now is not None else time.time()))
    folder = _sorting_after(f"{version}_{label}", folders)
    return NewMigration({f"{folder}/{PRISMA_FILE}": up}, directory=folder)


def _atlas(history: History, root: str, names: list[str], label: str, up: str, down: str | None, now: float | None,
           inside: Callable[[str], bool]) -> NewMigration:
    from linter.input.file_access import FileRefused, read_inside
    from linter.input.migrations import atlas

    sql_names = [n for n in names if n.endswith(".sql") and os.path.isfile(os.path.join(root, n))]
    version = next_version(_versions(sql_names, r"^(\d+(?:[._-]\d+(?=[._-]))*)[_-]"), now)
    file = _sorting_after(f"{version}_{label}.sql", sql_names)
    on_disk = [os.path.join(root, n) for n in atlas.sorted_names(sql_names)]
    if atlas.verify(root, on_disk, inside):
        return NewMigration({file: up}, note="atlas.sum did not match the directory before this migration: run "
                                             "`atlas migrate hash` once you have checked the files it does not match")
    contents = []
    try:
        for path in on_disk:
            contents.append((os.path.basename(path), read_inside(path, inside, atlas.FILE_CAP, "migration file")))
    except FileRefused as error:
        return NewMigration({file: up}, note=f"{error}: run `atlas migrate hash`")
    contents.append((file, up.encode("utf-8")))
    ordered = {n: content for n, content in contents}
    return NewMigration({file: up, ATLAS_SUM: atlas.sum_text([(n, ordered[n]) for n in atlas.sorted_names(ordered)])},
                        replaces=(ATLAS_SUM,))


def _goose(history: History, root: str, names: list[str], label: str, up: str, down: str | None, now: float | None,
           inside: Callable[[str], bool]) -> NewMigration:
    name, _ = _numbered_name(history, names, label, now)
    return NewMigration({name: "-- +goose Up\n" + _goose_section(up) + "\n-- +goose Down\n" + _goose_section(down or "")})


def _goose_section(text: str) -> str:
    """`text` with each statement of several lines (a name or a comment holding a line break)
    inside StatementBegin/StatementEnd, since goose ends a statement at a line ending in `;`;
    comments where they were."""
    from linter.input.split import split_stream

    out: list[str] = []
    consumed = 0
    lines = text.split("\n")
    for statement in split_stream([text], "<migration>"):
        start, end = statement.line - 1, statement.end_line - 1
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


def _dbmate(history: History, root: str, names: list[str], label: str, up: str, down: str | None, now: float | None,
            inside: Callable[[str], bool]) -> NewMigration:
    name, _ = _numbered_name(history, names, label, now)
    return NewMigration({name: f"-- migrate:up\n{up}\n-- migrate:down\n{down or ''}"})


def _numbered(history: History, root: str, names: list[str], label: str, up: str, down: str | None, now: float | None,
              inside: Callable[[str], bool]) -> NewMigration:
    name, _ = _numbered_name(history, names, label, now)
    return NewMigration({name: up})


def _numbered_name(history: History, names: list[str], label: str, now: float | None) -> tuple[str, str]:
    """A name after every numbered one (`<number or timestamp><separator><name>.sql`), and its version."""
    numbered = [m for n in names if (m := re.match(r"^(\d+(?:[._-]\d+(?=[._-]))*)([_-])", n))]
    if not numbered:
        raise WritingError(f"{history.root}: the history's files are not numbered, so no new name is sure to run last")
    last = max(numbered, key=lambda m: (_numbers(m.group(1)), m.group(1)))
    version = next_version([m.group(1) for m in numbered], now)
    return _sorting_after(f"{version}{last.group(2)}{label}.sql", names), version


def _liquibase(history: History, root: str, names: list[str], label: str, up: str, down: str | None,
               now: float | None, inside: Callable[[str], bool]) -> NewMigration:
    """Into the directory the root changelog includes whole (nothing to edit), else beside the last
    SQL file of the history, with a note to include it."""
    every = _include_all_directories(history.root, inside) if os.path.isfile(history.root) else []
    sql_files = [p for p in history.files if p != history.baseline and not p.lower().endswith(_changelog_suffixes())]
    directory = every[-1] if every else os.path.dirname(sql_files[-1]) if sql_files else root
    here = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
    in_directory = [n for n in here if n.lower().endswith(".sql")]
    version = next_version(_versions(in_directory, r"(\d+(?:[._-]\d+(?=[._-]))*)[_-]"), now)
    file = _sorting_after(f"{version}_{label}.sql", in_directory)
    rollback = "".join(f"--rollback {line}\n" for line in (down or "").splitlines()
                       if line.strip() and not line.lstrip().startswith("--"))
    text = f"--liquibase formatted sql\n\n--changeset innolint:{version}-{label}\n{up}{rollback}"
    relative = os.path.relpath(os.path.join(directory, file), root)
    if relative.startswith(os.pardir):
        raise WritingError(f"{directory}: the history's SQL files lie outside {root}")
    note = None
    if os.path.isfile(history.root) and not every:
        note = f"include {relative} in {os.path.basename(history.root)}"
    return NewMigration({relative.replace(os.sep, "/"): text}, note=note)


def _include_all_directories(changelog: str, inside: Callable[[str], bool]) -> list[str]:
    """The directories a Liquibase root changelog takes whole (its includeAll entries), in order."""
    from linter.input.migrations.liquibase import Walker

    walker = Walker(inside)
    walker.search = _search_path(changelog)
    found = []
    for entry in walker.changelog(changelog).entries:
        if entry.tag == "includeAll":
            target = walker.resolve(changelog, entry.attr("path") or "", entry.flag("relativeToChangelogFile"))
            if target is not None and os.path.isdir(target):
                found.append(target)
    return found


_WRITERS = {
    "flyway": _flyway, "golang-migrate": _up_down, "authelia": _up_down, "diesel": _diesel, "prisma": _prisma,
    "atlas": _atlas, "goose": _goose, "dbmate": _dbmate, "liquibase": _liquibase,
}


def utc(now: datetime.datetime) -> float:
    """A datetime as the `now` the writers take (seconds since the epoch; a naive one is UTC)."""
    return (now if now.tzinfo is not None else now.replace(tzinfo=datetime.timezone.utc)).timestamp()
