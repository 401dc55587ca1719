"""What a directory walk skips because git ignores it (`vendor/`, build output, generated dumps).

Why: a repository's own rules say which files are its own; linting vendored SQL under `vendor/`
reports problems nobody here can fix. A file or directory named on the command line is always
read: the user named it (a directory git ignores as a whole is walked when named, with the
.gitignore files inside it).

Two ways, one answer:
- Inside a git work tree, git itself says: `git ls-files -z --others --ignored --exclude-standard
  --directory -- .` run in the walked directory lists every ignored path below it (a directory
  ignored whole as one `dir/` entry), with every rule git knows: nested .gitignore files,
  negations, `.git/info/exclude`, the user's `core.excludesFile`. Tracked files are never
  ignored, as in git. No shell; `--` before the pathspec; names read NUL-separated, as bytes.
- Elsewhere (an exported tree, a tarball) or when git cannot answer, `GitignoreRules` reads the
  .gitignore files of the walked directory and below: blank lines and `#` comments skipped,
  `!` negation (the last matching rule wins, deeper files after shallower ones), a trailing `/`
  for directories only, a `/` at the start or in the middle anchors the pattern to its file's
  directory, `*`, `?`, `[...]` and `**` matched by `linter.input.globs` in time linear in the path. As
  in git, nothing inside an ignored directory can be re-included (the walk does not enter it).
  Backslash escapes other than `\\#`, `\\!` and a trailing `\\ ` are not supported.
"""

from __future__ import annotations

import os
import subprocess

from linter.input.globs import compile_path

#: a .gitignore larger than this is not read (a pull request chooses its files)
GITIGNORE_CAP = 1 << 20


class Ignored:
    """The answer for one walk: whether a path (relative to the walked directory, `/`-separated)
    is ignored. `enter` is told each directory the walk enters, before its entries are asked."""

    def enter(self, directory: str, relative: str) -> None:
        return None

    def directory(self, relative: str) -> bool:
        return False

    def file(self, relative: str) -> bool:
        return False


class GitListed(Ignored):
    """The ignored paths as git listed them."""

    def __init__(self, listed: list[str]) -> None:
        self.dirs = {p.rstrip("/") for p in listed if p.endswith("/")}
        self.files = {p for p in listed if not p.endswith("/")}

    def directory(self, relative: str) -> bool:
        return relative in self.dirs or relative in self.files  # a symbolic link is a file to git

    def file(self, relative: str) -> bool:
        return relative in self.files


class _Rule:
    __slots__ = ("base", "glob", "negated", "dir_only", "anchored")

    def __init__(self, base: str, pattern: str, negated: bool, dir_only: bool, anchored: bool) -> None:
        self.base = base  # the .gitignore's directory, relative to the walked one ("" for itself)
        self.glob = compile_path(pattern)
        self.negated = negated
        self.dir_only = dir_only
        self.anchored = anchored

    def matches(self, relative: str, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        if self.base:
            if not relative.startswith(self.base + "/"):
                return False
            relative = relative[len(self.base) + 1:]
        return self.glob.match(relative if self.anchored else relative.rsplit("/", 1)[-1])


def parse_rules(text: str, base: str) -> list[_Rule]:
    """The rules of one .gitignore whose directory is `base` (relative to the walk)."""
    rules = []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if line.endswith("\\ "):
            line = line[:-2].rstrip(" ") + " "  # an escaped trailing space stays (one)
        else:
            line = line.rstrip(" ")
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        elif line.startswith(("\\#", "\\!")):
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        rules.append(_Rule(base, line.lstrip("/"), negated, dir_only, anchored))
    return rules


class GitignoreRules(Ignored):
    """.gitignore files read as the walk enters their directories (no git)."""

    def __init__(self, tree: str) -> None:
        self.tree = tree  # the real path of the walked directory: .gitignore files outside are not read
        self.rules: list[_Rule] = []

    def enter(self, directory: str, relative: str) -> None:
        path = os.path.join(directory, ".gitignore")
        if not os.path.isfile(path):
            return
        from linter.input.file_access import FileRefused, read_capped

        try:
            raw = read_capped(path, GITIGNORE_CAP, ".gitignore file", inside=self.tree)
        except FileRefused:
            return  # not SQL: a link out of the tree or a huge file just gives no rules
        self.rules.extend(parse_rules(raw.decode("utf-8", "replace"), "" if relative == "." else relative))

    def _ignored(self, relative: str, is_dir: bool) -> bool:
        verdict = False
        for rule in self.rules:
            if rule.negated == verdict and rule.matches(relative, is_dir):
                verdict = not rule.negated
        return verdict

    def directory(self, relative: str) -> bool:
        return self._ignored(relative, True)

    def file(self, relative: str) -> bool:
        return self._ignored(relative, False)


def ignored_under(top: str, tree: str) -> Ignored:
    """What git ignores below the directory `top` (real path `tree`): git's own answer in a work
    tree, else the .gitignore files read by `GitignoreRules`."""
    listed = _git_ignored(top)
    if listed is None or "./" in listed or "" in listed:  # no git, or `top` itself ignored: named, so read
        return GitignoreRules(tree)
    return GitListed(listed)


def _git_ignored(top: str) -> list[str] | None:
    """The ignored paths below `top` as git lists them, or None outside a work tree (or without git)."""
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", "."],
            cwd=top, capture_output=True, timeout=120, check=False, stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return [os.fsdecode(name) for name in done.stdout.split(b"\0") if name]
