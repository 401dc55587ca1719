"""Helpers for the splitter's tests: split text as the engine does, replay files into a model, and
run text through the real `mariadb` client into a database of the test server (the oracle)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path

from linter.rules.checkapi import CheckContext
from linter.engine import Engine, units_for
from linter.rules.findings import Diagnostic
from linter.parse.cache import SKIP_FIRST_WORDS, SKIP_PATTERN
from linter.input.statement import Note, Statement
from linter.input.split import split_stream
from linter.schema.target import Target
from tests.mariadb import MariaDB


def chunked(text: str, size: int | None) -> list[str]:
    return [text] if size is None else [text[i : i + size] for i in range(0, len(text), size)] or [""]


def split(text: str, *, chunk: int | None = None, target: str | None = None, fmt: str | None = None,
          skip: bool = False, max_statement: int | None = None) -> tuple[list[Statement], list[Note]]:
    """The statements and notes of `text` (`skip`: with the engine's skip words)."""
    extra = {} if max_statement is None else {"max_statement": max_statement}
    stream = split_stream(chunked(text, chunk), "f.sql", migration_format=fmt,
                          target=Target.parse(target) if target else None,
                          skip_words=SKIP_FIRST_WORDS if skip else None, skip_pattern=SKIP_PATTERN if skip else "",
                          unless="innolint:" if skip else "", **extra)
    statements = list(stream)
    return statements, stream.notes


def texts(text: str, **options: object) -> list[str]:
    return [s.text for s in split(text, **options)[0]]  # type: ignore[arg-type]


def replay(paths: Iterable[Path], target: str = "mariadb-10.11") -> tuple[set[str], list[Diagnostic]]:
    """The tables (`schema.name`, or `name` without a schema) after replaying `paths` as the
    engine groups them, and the diagnostics of the run."""
    engine = Engine(CheckContext(target=Target.parse(target)))
    names: set[str] = set()
    diagnostics: list[Diagnostic] = []
    for unit in units_for([str(p) for p in paths]):
        result = engine.lint_unit(unit)
        names |= {f"{t.schema}.{t.name}" if t.schema else t.name for t in result.model.tables()}
        diagnostics += result.diagnostics
    return names, diagnostics


def replay_text(text: str, tmp_path: Path, target: str = "mariadb-10.11", name: str = "schema.sql",
                default_schema: str | None = None) -> tuple[set[str], list[Diagnostic]]:
    """`replay` of one file holding `text`; with `default_schema`, tables created without a schema
    are named as in that schema (as the client run into that database makes them)."""
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    names, diagnostics = replay([path], target)
    if default_schema is not None:
        names = {n if "." in n else f"{default_schema}.{n}" for n in names}
    return names, diagnostics


def client_tables(server: MariaDB, text: str, databases: tuple[str, ...] = ("t_a", "t_b")) -> set[str]:
    """Run `text` through the real `mariadb` client (with --force, as a schema file is loaded)
    into the first of `databases`, created empty, and return the tables of all of them."""
    server.sql("".join(f"DROP DATABASE IF EXISTS `{d}`; CREATE DATABASE `{d}`;" for d in databases))
    subprocess.run(["mariadb", "--no-defaults", "-u", server.user, "-S", server.socket, "--force", databases[0]],
                   input=text.encode("utf-8"), capture_output=True, timeout=60, check=False)
    listed = ", ".join(f"'{d}'" for d in databases)
    rows = server.sql(f"SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ({listed})")
    return {f"{schema}.{name}" for schema, name in rows}
