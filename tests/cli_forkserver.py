"""innolint's command line as a real process that starts in milliseconds: forked from one
interpreter that has imported innolint already, for the tests that run it from a shell script
(the action's steps, `bash -eo pipefail` as GitHub runs them).

Why: such a test needs a process of its own (the step's environment, exit status, file
descriptors and working directory are what it checks), but a fresh `python -m linter.cli` costs
0.5-0.7 s of processor time before it reads a byte (the interpreter, sqlglot, pydantic, PyGithub,
innolint's modules), and an emulated action run starts two. `command(directory)` writes an
executable `innolint` that hands its arguments, environment, working directory and standard
streams (the descriptors themselves, over a Unix socket) to the server; the server forks, the child
takes them over and runs `linter.cli.main` as `python -m linter.cli` would, and its exit status
(128 + the signal for a killed one, as a shell reports it) comes back as the command's. Each run is
a fresh fork of the same untouched parent: nothing one run changes is seen by the next.

The tests about starting the process itself (the console script, `python -m`, the no-SQL
pre-commit path that imports nothing, memory limits) keep starting real interpreters.

Run as `python -m tests.cli_forkserver SOCKET` it is the server; the client is `_CLIENT` below, run
with `python -S -E` (no site, no environment-driven start-up: ~15 ms).
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

#: the client: its arguments, environment and working directory as one JSON message (length first)
#: with its descriptors 0-2 beside it; then the 4-byte exit status it exits with
_CLIENT = r'''
import json, os, socket, struct, sys
path = sys.argv[1]
message = json.dumps({"argv": sys.argv[2:], "env": dict(os.environ), "cwd": os.getcwd()}).encode()
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
    server.connect(path)
    socket.send_fds(server, [struct.pack("!I", len(message)) + message], [0, 1, 2])
    answer = b""
    while len(answer) < 4:
        more = server.recv(4 - len(answer))
        if not more:
            sys.stderr.write("innolint (test fork server): the server closed the connection\n")
            sys.exit(70)
        answer += more
sys.exit(struct.unpack("!i", answer)[0])
'''


def _serve(path: str) -> None:
    """Import what a run imports, then fork a child per connection and answer its exit status.
    One run at a time: the tests run their commands one after another."""
    import linter.cli  # noqa: F401 - what every run needs, imported once here
    import linter.engine  # noqa: F401
    import linter.github.check_runs  # noqa: F401
    import checks  # noqa: F401
    import tests.cli_run  # noqa: F401 - the child runs innolint through it

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".new")
    listener.listen(8)
    os.rename(path + ".new", path)  # the name appears only once it takes connections (`ForkServer` waits for it)
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        connection, _ = listener.accept()
        with connection:
            data, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
            (size,) = struct.unpack("!I", data[:4])
            data = data[4:]
            while len(data) < size:
                more = connection.recv(size - len(data))
                if not more:
                    break
                data += more
            request = json.loads(data)
            pid = os.fork()
            if pid == 0:
                listener.close()
                connection.close()
                _child(request, fds)
            for fd in fds:
                os.close(fd)
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            connection.sendall(struct.pack("!i", code if code >= 0 else 128 - code))


def _child(request: dict, fds: list[int]) -> None:
    """Become the client's `python -m linter.cli`: its streams, directory, environment, arguments."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    code = 1
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["innolint", *request["argv"]]
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from tests.cli_run import main_status

        code = main_status()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if 0 <= code < 256 else 1)


class ForkServer:
    """The server process and its socket, started on first use and stopped at exit."""

    def __init__(self) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="innolint-fork-"))  # short: socket paths max ~107
        self.socket = self.directory / "cli.sock"
        self.client = self.directory / "client.py"
        self.client.write_text(_CLIENT)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
        self.process = subprocess.Popen([sys.executable, "-m", "tests.cli_forkserver", str(self.socket)], cwd=REPO_ROOT,
                                        env=env, stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while not self.socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the CLI fork server did not start (exit status {self.process.poll()})")
            time.sleep(0.02)
        atexit.register(self.stop)

    def command(self, directory: Path) -> Path:
        """An executable `innolint` in `directory` that runs through this server."""
        wrapper = directory / "innolint"
        wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S -E "{self.client}" "{self.socket}" "$@"\n')
        wrapper.chmod(0o755)
        return wrapper

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        for path in (self.socket, self.client):
            path.unlink(missing_ok=True)
        self.directory.rmdir()


_SERVER: ForkServer | None = None


def command(directory: Path) -> Path:
    """`innolint` for shell scripts, as a fork of one pre-imported interpreter (the module docstring)."""
    global _SERVER
    if _SERVER is None or _SERVER.process.poll() is not None:
        _SERVER = ForkServer()
    return _SERVER.command(directory)


if __name__ == "__main__":
    _serve(sys.argv[1])
