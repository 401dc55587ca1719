"""Shared pytest set-up: the private MariaDB server fixture and its marker."""

import pytest

pytest_plugins = ["tests.mariadb"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mariadb: needs the private MariaDB server (tests/mariadb.py)")
