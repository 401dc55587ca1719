"""Shared pytest set-up: the private MariaDB server fixture and its marker."""

import sys
from pathlib import Path

import pytest

# `tests.mariadb` must import under a bare `pytest` too, not only `python -m pytest` (which puts
# the working directory on sys.path); `pythonpath = ["."]` in pyproject.toml would do the same.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

pytest_plugins = ["tests.mariadb"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mariadb: needs the private MariaDB server (tests/mariadb.py)")
