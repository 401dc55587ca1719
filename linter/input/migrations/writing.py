"""A new migration in a history's own format (`innolint fix --migration DIR`): where it goes,
its name and version after the last one, its text (goose and dbmate markers, a Liquibase changeset,
a Prisma or diesel directory), and for Atlas the new atlas.sum."""

from __future__ import annotations

from typing import TYPE_CHECKING
import datetime
import os
import re
from typing import NamedTuple

from linter.input.migrations.files import ATLAS_SUM, PRISMA_FILE, classify
from linter.input.migrations.history import _changelog_suffixes, _search_path

if TYPE_CHECKING:
    from linter.input.migrations.history import History


class NewMigration(NamedTuple):
    """A migration to add to a history, in its format: the files to write (path -> text: the
    migration, and for Atlas the new atlas.sum) and what else the user must do, if anything."""

    files: dict[str, str]
    note: str | None


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "innolint_fix"


def _next_version(last: str | None, now: datetime.datetime) -> str:
    """The version after `last` written the same way: a timestamp (`20240101120000`, Laravel's
    `2024_01_01_120000`, diesel's `2024-01-01-120000`) becomes now's, a number the next one with
    its zero padding, dotted or underscored versions their last part plus one."""
    if last is None:
        return now.strftime("%Y%m%d%H%M%S")
    if re.fullmatch(r"\d{14}", last):
        return max(now.strftime("%Y%m%d%H%M%S"), str(int(last) + 1))
    if re.fullmatch(r"\d{4}_\d{2}_\d{2}_\d{6}", last):
        return max(now.strftime("%Y_%m_%d_%H%M%S"), last)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}-\d{6}", last):
        return max(now.strftime("%Y-%m-%d-%H%M%S"), last)
    match = re.fullmatch(r"(.*?)(\d+)", last)
    if match is None:
        return now.strftime("%Y%m%d%H%M%S")
    head, number = match.groups()
    return head + str(int(number) + 1).zfill(len(number))


def _sorting_after(candidate: str, names: list[str]) -> str:
    """`candidate`, or a name made from the last of `names` that sorts after all of them (for
    formats that run files in name order: a timestamp sorts before `2_x.sql`, `20240101_x.sql`
    before `a.sql`)."""
    if not names:
        return candidate
    last = max(names, key=lambda n: n.encode("utf-8", "surrogateescape"))
    if candidate.encode("utf-8", "surrogateescape") > last.encode("utf-8", "surrogateescape"):
        return candidate
    stem = last.rsplit(".", 1)[0]
    return f"{stem}_{candidate}"


def new_migration(history: History, name: str, sql: str, *, now: datetime.datetime | None = None) -> NewMigration:
    """Where a new migration holding `sql` goes in `history`, named after `name`, and its text in
    the history's format (goose and dbmate markers, a Liquibase changeset, a Prisma or diesel
    directory). For Atlas the new atlas.sum is written too when the present one matches the
    directory (else the note says to run `atlas migrate hash`)."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    slug = _slug(name)
    body = sql.rstrip() + "\n"
    fmt = history.format
    root = history.root if os.path.isdir(history.root) else os.path.dirname(history.root)
    files = [p for p in history.files if p != history.baseline]
    last = os.path.basename(files[-1]) if files else None
    if fmt == "flyway":
        versioned = [classify(p) for p in files]
        numbers = [e for e in versioned if e is not None and e.key[0] == 0]
        last_version = re.match(r"[Vv]([\d._]+)__", os.path.basename(numbers[-1].path)) if numbers else None
        version = _next_version(last_version.group(1) if last_version else "0", now)
        return NewMigration({os.path.join(root, f"V{version}__{slug}.sql"): body}, None)
    if fmt in ("prisma", "diesel"):
        leaf = os.path.basename(os.path.dirname(files[-1])) if files else None
        version = _next_version(re.match(r"[\d_-]+?(?=_[^\d])|\d+", leaf).group() if leaf and re.match(r"\d", leaf)
                                else None, now)
        if fmt == "diesel" and re.fullmatch(r"\d{14}", version):
            version = now.strftime("%Y-%m-%d-%H%M%S")
        file = PRISMA_FILE if fmt == "prisma" else "up.sql"
        note = None if fmt == "prisma" else "diesel also wants a down.sql beside up.sql"
        leaves = [os.path.basename(os.path.dirname(p)) for p in files]
        folder = _sorting_after(f"{version}_{slug}", leaves) if fmt == "prisma" else f"{version}_{slug}"
        return NewMigration({os.path.join(root, folder, file): body}, note)
    prefix = re.match(r"[Vv]?(\d+(?:[._-]\d+)*)", last) if last else None
    version = _next_version(prefix.group(1) if prefix else None, now)
    if fmt == "authelia":
        return NewMigration({os.path.join(root, f"V{version}.{slug}.up.sql"): body}, None)
    if fmt == "golang-migrate":
        return NewMigration({os.path.join(root, f"{version}_{slug}.up.sql"): body},
                            "golang-migrate also wants a .down.sql of the same version")
    if fmt == "goose":
        return NewMigration({os.path.join(root, f"{version}_{slug}.sql"): f"-- +goose Up\n{body}\n-- +goose Down\n"}, None)
    if fmt == "dbmate":
        return NewMigration({os.path.join(root, f"{version}_{slug}.sql"): f"-- migrate:up\n{body}\n-- migrate:down\n"},
                            None)
    if fmt == "atlas":
        names = [os.path.basename(p) for p in files]
        return _new_atlas(history, root, _sorting_after(f"{version}_{slug}.sql", names), body)
    if fmt == "lexical":
        names = [os.path.relpath(p, root) for p in files]
        return NewMigration({os.path.join(root, _sorting_after(f"{version}_{slug}.sql", names)): body}, None)
    if fmt == "liquibase":
        # into the directory the root changelog includes whole (nothing to edit), else beside the last SQL file
        every = _include_all_directories(history.root) if os.path.isfile(history.root) else []
        sql_files = [p for p in files if not p.lower().endswith(_changelog_suffixes())]
        directory = every[-1] if every else os.path.dirname(sql_files[-1]) if sql_files else root
        in_directory = sorted(os.path.basename(p) for p in sql_files if os.path.dirname(p) == directory)
        prefix = re.match(r"(\d+(?:[._-]\d+)*)", in_directory[-1]) if in_directory else None
        version = _next_version(prefix.group(1) if prefix else None, now)
        path = os.path.join(directory, _sorting_after(f"{version}_{slug}.sql", in_directory))
        text = f"--liquibase formatted sql\n\n--changeset innolint:{version}-{slug}\n{body}"
        note = None
        if os.path.isfile(history.root) and not every:
            note = f"include {os.path.relpath(path, os.path.dirname(history.root))} in {os.path.basename(history.root)}"
        return NewMigration({path: text}, note)
    return NewMigration({os.path.join(root, f"{version}_{slug}.sql"): body}, None)


def _include_all_directories(changelog: str) -> list[str]:
    """The directories a Liquibase root changelog takes whole (its includeAll entries), in order."""
    from linter.input.migrations.liquibase import Walker

    walker = Walker(lambda path: True)
    walker.search = _search_path(changelog)
    found = []
    for entry in walker.changelog(changelog).entries:
        if entry.tag == "includeAll":
            target = walker.resolve(changelog, entry.attr("path") or "", entry.flag("relativeToChangelogFile"))
            if target is not None and os.path.isdir(target):
                found.append(target)
    return found


def _new_atlas(history: History, root: str, name: str, body: str) -> NewMigration:
    from linter.input.migrations import atlas

    path = os.path.join(root, name)
    files: dict[str, str] = {path: body}
    on_disk = [os.path.join(root, n) for n in atlas.sorted_names(n for n in os.listdir(root) if n.endswith(".sql"))]
    if atlas.verify(root, on_disk, lambda path: True):
        return NewMigration(files, "atlas.sum does not match the directory already: run `atlas migrate hash`")
    contents = []
    for file in [*on_disk, path]:
        if file == path:
            contents.append((name, body.encode("utf-8")))
        else:
            with open(file, "rb") as handle:
                contents.append((os.path.basename(file), handle.read()))
    contents = [c for n in atlas.sorted_names(c[0] for c in contents) for c in contents if c[0] == n]
    files[os.path.join(root, ATLAS_SUM)] = atlas.sum_text(contents)
    return NewMigration(files, None)
