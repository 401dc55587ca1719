"""A plain `innolint check` (what the pre-commit hook runs on every commit) imports only what it uses.

Start-up is most of a pre-commit run on one migration: every module imported, every pydantic model
built and every regular expression compiled at import is paid on each commit. The optional parts
(baseline, configuration model, stats, GitHub, the audit, the other report formats) are imported
where they are used; this guards that without timing anything, in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

#: never imported by a `check` run without a baseline, a stats file or a configuration file
OPTIONAL = (
    "linter.rules.baseline",  # --baseline / --write-baseline
    "linter.config.model",  # the pydantic configuration model: only when a configuration file is read
    "linter.schema.stats",  # --stats / `stats =`
    "linter.github.check_runs", "github",  # `innolint github`, PyGithub
    "linter.audit", "pymysql",  # `innolint audit`
    "linter.rules.docs",  # `innolint explain`
    "linter.report.contract",  # `innolint github` reading a JSON report back (pydantic)
    "linter.report.sarif", "linter.report.github", "linter.report.summary", "linter.report.location",
)
#: read only when there is a configuration file
TOML = ("tomllib", "tomli")

PROBE = """
import contextlib, io, sys
from linter.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
import tokenize
compiled = getattr(getattr(tokenize, "_compile", None), "cache_info", None)
print(code, compiled().currsize if compiled else 0)
print(out.getvalue().strip().splitlines()[-1])
print(*sorted(sys.modules))
"""


def _run(*args: str, cwd: Path) -> tuple[int, int, str, set[str]]:
    """Exit code, tokenizer patterns compiled, the report's last line and the modules imported."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=_env())
    assert done.returncode == 0, done.stderr
    status, last, modules = done.stdout.splitlines()
    code, patterns = (int(n) for n in status.split())
    return code, patterns, last, set(modules.split())


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env


def _imported(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.fixture()
def migrations(tmp_path: Path) -> Path:
    directory = tmp_path / "db" / "migrations"
    directory.mkdir(parents=True)
    (directory / "V1__customers.sql").write_text(
        "CREATE TABLE customer (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
        "  email VARCHAR(255) NOT NULL,\n  UNIQUE KEY uk_email (email)\n) ENGINE=InnoDB;\n", encoding="utf-8")
    (directory / "V2__orders.sql").write_text(
        "CREATE TABLE orders (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
        "  customer_id BIGINT UNSIGNED NOT NULL,\n  KEY ix_customer (customer_id)\n) ENGINE=InnoDB;\n"
        "ALTER TABLE customer ADD COLUMN name VARCHAR(100) NULL;\n", encoding="utf-8")
    return directory


def _no_configuration_above(path: Path) -> bool:
    return not any((p / name).is_file() for p in [path, *path.parents] for name in (".innolint.toml", "pyproject.toml"))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_plain_check_imports_no_optional_part(migrations: Path, fmt: str) -> None:
    code, patterns, last, modules = _run("check", "--changed-only", "--format", fmt, str(migrations / "V2__orders.sql"),
                                         cwd=migrations.parent)
    assert code == 0
    assert ("0 findings" in last) if fmt == "text" else last == "}"
    assert _imported(modules, OPTIONAL) == []
    if _no_configuration_above(migrations):
        assert _imported(modules, TOML) == []
    # pydantic reads each default factory's signature; for a builtin (`default_factory=list`) that
    # compiles the tokenizer's regular expressions, ~15 ms of a pre-commit run
    assert patterns == 0


def test_optional_parts_still_load_when_used(migrations: Path) -> None:
    """The lazy imports are wired: a configuration file and a baseline bring their modules in."""
    (migrations.parent / ".innolint.toml").write_text('target = "mysql-8.4"\n', encoding="utf-8")
    baseline = migrations.parent / "baseline.json"
    code, _, _, modules = _run("check", "--write-baseline", str(baseline), str(migrations), cwd=migrations.parent)
    assert code == 0 and baseline.is_file()
    assert {"linter.rules.baseline", "linter.config.model"} <= modules
    code, _, last, modules = _run("check", "--baseline", str(baseline), str(migrations), cwd=migrations.parent)
    assert code == 0 and "0 findings" in last
    assert "linter.rules.baseline" in modules
