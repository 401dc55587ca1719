"""Paths as GitHub and SARIF want them: relative to the repository root, with forward slashes.

A report carries paths as they were given on the command line (`db/migrations/V1__x.sql`,
`./schema.sql`, `/home/runner/work/app/app/dump.sql`). GitHub matches annotations and code-scanning
alerts to files by their path from the repository root, so every GitHub-facing reporter goes through
`repo_path` once. Relative paths are taken from the current directory (where `innolint check` ran,
which is where the action runs the publishing step too); the root is `$GITHUB_WORKSPACE` in
Actions, else the current directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

STDIN_PATH = "-"


def repository_root(environ: dict[str, str] | None = None) -> str:
    """The directory paths are made relative to: `$GITHUB_WORKSPACE` when set, else the cwd."""
    env = os.environ if environ is None else environ
    return os.path.abspath(env.get("GITHUB_WORKSPACE") or os.getcwd())


def is_url(path: str) -> bool:
    """Whether a finding's path is a URL, not a file: the audit's `mysql://host:port/schema/table`."""
    scheme, sep, _ = path.partition("://")
    return bool(sep) and scheme.isascii() and scheme.isalpha() and len(scheme) > 1


def repo_path(path: str, root: str | None = None) -> str:
    """`path` relative to `root` with `/` separators; paths outside the root stay absolute; a URL
    (an audit's `mysql://...`) stays as it is."""
    if path == STDIN_PATH or not path or is_url(path):
        return path
    base = os.path.abspath(root) if root is not None else repository_root()
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute, base)
    except ValueError:  # another drive on Windows
        return absolute.replace(os.sep, "/")
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return absolute.replace(os.sep, "/")
    return relative.replace(os.sep, "/")


def path_uri(path: str) -> str:
    """A URI reference for a repo-relative or absolute path (SARIF `artifactLocation.uri`); a
    URL is one already (only characters a URI may not hold are escaped)."""
    if is_url(path):
        return quote(path, safe=":/?#[]@!$&'()*+,;=%")
    if os.path.isabs(path):
        return Path(path).as_uri()
    return quote(path)
