"""innolint's command line run in the test process: `linter.cli.main` with the arguments, working
directory, environment and standard input a subprocess would get, returning what
`subprocess.run(..., capture_output=True, text=True)` returns.

Why: a subprocess costs 0.5-0.7 s of processor time before it reads a byte (Python, sqlglot's
import, innolint's), and the suite started about a thousand of them: half of its CPU time. A test
that asserts what the command prints and its exit status runs it here; the tests about the process
itself (the console script, `python -m`, the pre-commit hook, the action's steps, memory, signals,
an environment whose secret must not leak) keep starting one.

What a process would not share with the test is put back afterwards: the working directory, the
environment (replaced whole when `env` is given, as `subprocess.run(env=...)` does), sys.argv,
the standard streams, and the garbage collector's settings (`cli._collect_rarely` freezes the heap
and makes full passes rare: right for a run, not for the test process). An exception escaping
`main` prints its traceback on stderr with status 1, as the interpreter does.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    if env is None:
        yield
        return
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main_status(args: Sequence[str] | None = None) -> int:
    """The exit status `linter.cli.main(args)` gives as the interpreter would: its return value,
    a SystemExit's code (its message on stderr and 1 for a string), or a traceback on stderr and 1
    for an exception escaping it."""
    from linter.cli import main

    try:
        return main(None if args is None else list(args))
    except SystemExit as stop:
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except Exception:  # noqa: BLE001 - what the interpreter does with it: a traceback and status 1
        traceback.print_exc()
        return 1


def run_cli(args: Sequence[str], *, cwd: str | Path | None = None, env: Mapping[str, str] | None = None,
            stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    """`innolint ARGS` in this process (see the module docstring)."""
    out, err = io.StringIO(), io.StringIO()
    data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
    given = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    threshold, collecting = gc.get_threshold(), gc.isenabled()
    here, argv, saved_stdin = os.getcwd(), sys.argv, sys.stdin
    try:
        if cwd is not None:
            os.chdir(cwd)
        sys.argv, sys.stdin = ["innolint", *args], given
        with _environment(env), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main_status(list(args))
    finally:
        os.chdir(here)
        sys.argv, sys.stdin = argv, saved_stdin
        gc.unfreeze()
        gc.set_threshold(*threshold)
        (gc.enable if collecting else gc.disable)()
    return subprocess.CompletedProcess(["innolint", *args], code, out.getvalue(), err.getvalue())
