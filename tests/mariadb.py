"""A private, throw-away MariaDB server for the tests that need a real InnoDB.

Why a real server: the audit reads a live server (information_schema, performance_schema, SHOW
CREATE TABLE, grants), and InnoDB's own choices (which index clusters a table) are ground truth no
parser can replace. A private server in a temporary datadir, on a free port and its own socket,
keeps the tests independent of whatever runs on the machine and of each other's leftovers.

Use the session-scoped fixture ``mariadb``; every test that asks for it is marked ``mariadb``
automatically, so ``pytest -m "not mariadb"`` runs without a server. Without ``mariadbd`` the
tests skip, except under CI (environment variable ``CI`` set), where they fail: CI must have run
``.ci/install-mariadb``.

Start-up (install-db plus server start) takes 0.7 to 1.8 s on the project's machine (2 cores).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

#: Debian puts mariadbd in /usr/sbin, which is not on a non-root user's PATH.
_SBIN_DIRS = ("/usr/sbin", "/usr/local/sbin", "/sbin")
#: Options for both mariadb-install-db and mariadbd: a small redo log and buffer pool keep the
#: datadir near 40 MB instead of 115 MB and start-up fast; and no durability (no fsync, no
#: doublewrite buffer, the redo log written once a second), which a throw-away datadir does not
#: need: the tests' DDL (thousands of CREATE and DROP TABLE) takes 30% less of the server's
#: processor time and a third of the wall time. Nothing here changes what the server decides.
_SMALL_SERVER = ["--innodb-log-file-size=8M", "--innodb-buffer-pool-size=64M", "--innodb-flush-method=nosync",
                 "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0"]
#: performance_schema counts what the audit reads (table_io_waits_summary_by_table: the table I/O
#: instruments) and not statements, stages or mutexes: timing every statement of the tests' DDL
#: took a quarter of the server's processor time
_TABLE_IO_ONLY = ["--performance-schema-instrument=statement/%=OFF", "--performance-schema-instrument=stage/%=OFF",
                  "--performance-schema-instrument=wait/synch/%=OFF"]
START_TIMEOUT = 30.0
STOP_TIMEOUT = 30.0


@dataclass(frozen=True)
class MariaDB:
    """How to reach the private server; root has no password and may connect by socket only."""

    socket: str
    port: int
    version: str
    host: str = "127.0.0.1"
    user: str = "root"

    def connect(self, database: str | None = None, **options: Any) -> Any:
        """A PyMySQL connection as root through the socket (root@localhost has no TCP account).
        Without TLS: PyMySQL 1.1+ tries it by default and loading the CA store costs ~45 ms a
        connection, which over a socket protects nothing."""
        import pymysql

        options.setdefault("ssl_disabled", True)
        return pymysql.connect(unix_socket=self.socket, user=self.user, database=database,
                               autocommit=True, charset="utf8mb4", **options)

    def sql(self, statements: str, database: str | None = None) -> list[tuple[Any, ...]]:
        """Run one statement or a ``;``-separated script as root; return the rows of the last
        statement that produced a result set (empty when none did)."""
        from pymysql.constants import CLIENT

        connection = self.connect(database, client_flag=CLIENT.MULTI_STATEMENTS)
        try:
            with connection.cursor() as cursor:
                cursor.execute(statements)
                rows: list[tuple[Any, ...]] = []
                while True:
                    if cursor.description is not None:
                        rows = list(cursor.fetchall())
                    if not cursor.nextset():
                        break
                return rows
        finally:
            connection.close()

    def load_file(self, path: str | os.PathLike[str], database: str) -> int:
        """Pipe a SQL file to the ``mariadb`` client with ``--force`` into ``database`` (created
        if missing), as shared/tools/innodb_oracle.py does: the client understands DELIMITER and
        goes on past statements the server rejects. Returns how many statements failed."""
        self.sql(f"CREATE DATABASE IF NOT EXISTS `{database}`")
        with open(path, "rb") as sql_file:
            loaded = subprocess.run(
                ["mariadb", "--no-defaults", "-u", self.user, "-S", self.socket, "--force",
                 "--init-command=SET SESSION sql_mode='', foreign_key_checks=0", database],
                stdin=sql_file, capture_output=True, timeout=600, check=False)
        return loaded.stderr.decode(errors="replace").count("ERROR")


def find_server_binary() -> str | None:
    """Path of ``mariadbd``, looking in the sbin directories too."""
    path = os.pathsep.join([os.environ.get("PATH", ""), *_SBIN_DIRS])
    return shutil.which("mariadbd", path=path)


def _free_port() -> int:
    """A TCP port free right now on 127.0.0.1 (the server binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no error log)"


def _ping(sock: str) -> str | None:
    """The server's version if it answers on ``sock``, else None."""
    import pymysql

    try:
        connection = pymysql.connect(unix_socket=sock, user="root", connect_timeout=2)
    except pymysql.err.MySQLError:
        return None
    try:
        with connection.cursor() as cursor:  # the handshake's version has a "5.5.5-" prefix
            cursor.execute("SELECT VERSION()")
            (version,) = cursor.fetchone() or ("?",)
            return str(version)
    finally:
        connection.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (a clean InnoDB shutdown), then SIGKILL if it has not exited in time."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT)


def start_server(mariadbd: str, base: Path, extra: tuple[str, ...] = ()
                 ) -> tuple[subprocess.Popen[bytes], MariaDB]:
    """Initialise a datadir under ``base`` and start a server on it (``extra``: more mariadbd
    options, later ones win); fail with the error log's tail when it does not come up within
    START_TIMEOUT seconds."""
    datadir, sock, error_log = base / "data", str(base / "sock"), base / "err.log"
    as_root = ["--user=root"] if os.geteuid() == 0 else []  # mariadbd refuses root without it
    install_db = shutil.which("mariadb-install-db", path=os.pathsep.join(
        [os.path.dirname(mariadbd), os.environ.get("PATH", ""), *_SBIN_DIRS]))
    if install_db is None:
        pytest.fail("mariadbd is installed but mariadb-install-db is not")
    installed = subprocess.run(
        [install_db, "--no-defaults", "--auth-root-authentication-method=normal",
         f"--datadir={datadir}", "--skip-test-db", "--skip-name-resolve", *as_root,
         *_SMALL_SERVER],
        capture_output=True, timeout=120, check=False)
    if installed.returncode != 0:
        pytest.fail("mariadb-install-db failed:\n"
                    + installed.stdout.decode(errors="replace")[-3000:]
                    + installed.stderr.decode(errors="replace")[-3000:])
    port = _free_port()
    # its own temporary directory: in the shared /tmp another process's clean-up (of files it
    # does not own) removed a server's open '#sql-temptable' file mid-test
    tmpdir = base / "tmp"
    tmpdir.mkdir(exist_ok=True)
    process = subprocess.Popen(
        [mariadbd, "--no-defaults", f"--datadir={datadir}", f"--socket={sock}", f"--port={port}",
         f"--tmpdir={tmpdir}",
         "--bind-address=127.0.0.1", "--skip-name-resolve", "--performance-schema=ON", *_TABLE_IO_ONLY,
         f"--log-error={error_log}", f"--pid-file={base / 'mariadbd.pid'}", *as_root,
         *_SMALL_SERVER, *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)  # so a Ctrl-C to pytest reaches the server only through _stop
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        # the socket file appears when the server listens; pinging earlier makes PyMySQL leak
        # the socket of each failed attempt (a ResourceWarning in some later test)
        version = _ping(sock) if os.path.exists(sock) else None
        if version is not None:
            return process, MariaDB(socket=sock, port=port, version=version)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    _stop(process)
    pytest.fail(f"mariadbd did not become ready within {START_TIMEOUT:.0f} s "
                f"(exit code {process.returncode}); error log tail:\n{_tail(error_log)}")


def _server_binary_or_skip() -> str:
    mariadbd = find_server_binary()
    if mariadbd is None:
        message = "mariadbd not found: run .ci/install-mariadb to run the MariaDB tests"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set, so a missing server is an error)")
        pytest.skip(message)
    try:
        import pymysql  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("PyMySQL is not installed (CI is set, so this is an error)")
        pytest.skip("PyMySQL is not installed: pip install pymysql")
    return mariadbd


@contextmanager
def private_server(*extra: str, prefix: str = "innolint-extra-") -> Iterator[MariaDB]:
    """One more private server, started with the mariadbd options ``extra`` (TLS certificates,
    secure_file_priv...) and stopped at the end of the block; skips (or fails under CI) as the
    ``mariadb`` fixture does. For a test module whose server must differ from the shared one."""
    mariadbd = _server_binary_or_skip()
    base = Path(tempfile.mkdtemp(prefix=prefix))  # short: socket paths max ~107
    process, server = start_server(mariadbd, base, extra)
    try:
        yield server
    finally:
        _stop(process)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def mariadb() -> Iterator[MariaDB]:
    """A private MariaDB server for the whole test session, stopped at its end."""
    mariadbd = _server_binary_or_skip()
    base = Path(tempfile.mkdtemp(prefix="innolint-mariadb-"))  # short: socket paths max ~107
    started = time.monotonic()
    process, server = start_server(mariadbd, base)
    print(f"\nmariadb fixture: {server.version} ready in {time.monotonic() - started:.2f} s")
    try:
        yield server
    finally:
        _stop(process)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def corpus_server() -> Iterator[Any]:
    """A second, dedicated server holding every file of the shared corpus, loaded once per
    session (tests/corpus_server.py says how and what it records). Dedicated because corpus files
    rebuild the `mysql` system schema, which would break the shared server's grant tables. Its
    datadir is on /dev/shm when there is one (loading takes half the time) and
    performance_schema is off (MariaDB's default, which the audit must handle)."""
    from tests.corpus_server import load_corpus
    from tests.shared import need

    need("corpus", "LABELS.json")
    mariadbd = _server_binary_or_skip()
    shm = Path("/dev/shm")
    base = Path(tempfile.mkdtemp(prefix="innolint-corpus-",
                                 dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    process, server = start_server(mariadbd, base, ("--performance-schema=OFF",))
    try:
        yield load_corpus(server)
    finally:
        _stop(process)
        shutil.rmtree(base, ignore_errors=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses a server, so ``-m "not mariadb"`` deselects them."""
    for item in items:
        if {"mariadb", "corpus_server"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.mariadb)
