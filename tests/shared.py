"""../shared/, the read-only material beside the project (the corpus, GitHub's and SARIF's schemas,
the scorer, peer linters' suites), as the tests reach it.

A test that reads a piece of it asks `need(kind, ...)` for the path (or carries the marker
`pytest.mark.needs_shared(kind)`, which asks before the test runs). When the piece is absent the
test skips saying what is missing and where it was looked for, and the run ends with one line per
kind of missing material and how many tests it skipped (pytest's own `-rs` would list a line per
test: a skip raised in a fixture is reported at the test). Under CI (the `CI` environment variable
set, as GitHub Actions and `CI=true` set it) a missing piece is an error instead: CI must have it,
and a suite that skipped its corpus tests would pass there without checking them (tests/mariadb.py
does the same for the server).
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import NoReturn

import pytest

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"
CORPUS = SHARED / "corpus"

#: what each folder of ../shared holds, for the line that says it is missing
KINDS = {
    "corpus": "the shared corpus of real schemas and its LABELS.json",
    "schemas": "GitHub's and SARIF's JSON schemas",
    "tools": "the shared scorer",
    "peer-suites": "peer linters' test suites",
}


def need(kind: str, *parts: str) -> Path:
    """The path of ../shared/KIND/PARTS..., or a skip (an error under CI) when it is not there."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of shared material: {kind!r} (one of {', '.join(KINDS)})")
    folder = SHARED / kind
    path = folder.joinpath(*parts)
    if path.exists():
        return path
    if not folder.is_dir():
        _missing(f"../shared/{kind} ({KINDS[kind]}) is not beside the project (looked for {folder.resolve()})")
    _missing(f"../shared/{kind} has no {'/'.join(parts)} (looked for {path.resolve()})")


#: the end of every skip's reason here, by which the summary finds them
_SKIPS = ": the tests that read it skip"


def _missing(what: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{what}; CI is set, so missing shared material is an error", pytrace=False)
    pytest.skip(what + _SKIPS, allow_module_level=True)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs_shared(kind, *parts): reads ../shared/KIND (tests/shared.py)")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers("needs_shared"):
        need(*marker.args)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per kind of missing material: what, and how many tests (or modules) skipped."""
    skipped: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        if reason.endswith(_SKIPS):
            skipped[reason.removeprefix("Skipped: ").removesuffix(_SKIPS)] += 1
    if skipped:
        terminalreporter.section("shared material missing")
        for what, count in sorted(skipped.items()):
            terminalreporter.write_line(f"SKIPPED {count}: {what}")
