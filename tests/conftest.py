"""Shared pytest set-up: the private MariaDB server fixture and its marker, one bytecode cache for the
processes the tests start."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # imported by pytest_plugins below: importing it here first would stop its assertion rewriting
    from tests.mariadb import MariaDB

pytest_plugins = ["tests.mariadb", "tests.shared", "tests.sampling"]


#: what pytest_configure changed in os.environ, put back by pytest_unconfigure
_ENVIRON: dict[str, str | None] = {}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mariadb: needs the private MariaDB server (tests/mariadb.py)")
    _share_bytecode()


def _share_bytecode() -> None:
    """The Python processes the tests start (`python -m linter.cli`, hundreds of them) share one
    bytecode cache, in a temporary directory (PYTHONPYCACHEPREFIX), instead of each compiling
    innolint's modules again: with PYTHONDONTWRITEBYTECODE set (as on the project's machine), or a
    fresh clone's sources newer than any cache, every process compiled every module, ~0.3 CPU
    seconds each. Set before collection, so that the environments modules build at import have it."""
    import os
    import tempfile

    cache = tempfile.mkdtemp(prefix="innolint-pycache-")
    for name, value in (("PYTHONPYCACHEPREFIX", cache), ("PYTHONDONTWRITEBYTECODE", None)):
        _ENVIRON[name] = os.environ.get(name)
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def pytest_unconfigure(config: pytest.Config) -> None:
    import os
    import shutil

    cache = os.environ.get("PYTHONPYCACHEPREFIX")
    for name, value in _ENVIRON.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if cache and _ENVIRON:
        shutil.rmtree(cache, ignore_errors=True)
    _ENVIRON.clear()


@pytest.fixture(scope="session")
def corpus_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], str]:
    """`innolint check --format json ../shared/corpus` through the real CLI, once per session, and
    the shared scorer's output on it: (report, scores)."""
    import json
    import subprocess
    import sys

    from tests.helpers import CORPUS, ROOT
    from tests.shared import need

    need("corpus", "LABELS.json")
    scorer = need("tools", "score_corpus.py")
    out = tmp_path_factory.mktemp("corpus") / "r.json"
    command = [sys.executable, "-m", "linter.cli", "check", "--format", "json", "--output", str(out), str(CORPUS)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode in (0, 1), run.stderr
    scored = subprocess.run([sys.executable, str(scorer), str(out), "--show", "50"], capture_output=True, text=True,
                            timeout=600)
    assert scored.returncode == 0, scored.stderr
    return json.loads(out.read_text(encoding="utf-8")), scored.stdout


@pytest.fixture(autouse=True)
def _rule_pages_are_not_linked_unless_a_test_says_where(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output must not depend on how innolint is installed: installed (`pip install -e`, as CI
    does) the package's Repository URL links every rule page; from a bare checkout nothing does.
    Tests that check links set INNOLINT_RULES_URL (or the action's variables) themselves."""
    for name in ("INNOLINT_ACTION_REPOSITORY", "INNOLINT_ACTION_REF", "INNOLINT_ACTION_PATH",
                 "GITHUB_ACTION_REPOSITORY", "GITHUB_ACTION_REF", "GITHUB_ACTION_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INNOLINT_RULES_URL", "none")


@pytest.fixture(autouse=True)
def _github_waits_are_recorded_not_slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """No test waits for GitHub for real: the default Policy's sleep (linter.github.api._sleep)
    only records the seconds (tests that check waiting give their own clock and sleep)."""
    from linter.github import api as github_api

    waited: list[float] = []
    monkeypatch.setattr(github_api, "_sleep", waited.append)
    return waited


@pytest.fixture(scope="module")
def server(mariadb: MariaDB) -> Iterator[MariaDB]:
    """The test MariaDB for the rules about DDL the server refuses or changes (tests/ddl_outcome.py):
    the databases a module's tests made are dropped after the module. A module may define its own."""
    from tests.ddl_outcome import drop_databases

    yield mariadb
    drop_databases(mariadb)
