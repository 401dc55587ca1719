"""Hostile inputs through the real command line: each gives a clear message and the right exit
code, never a traceback, and `--format json` and `--format sarif` stay valid (the problem is a
diagnostic in them).

Exit codes: 2 when an input cannot be read (io-error), else 0 or 1 by the findings. The 2 GB
streamed input is scripts/stream_big_input.py (not CI); here ~64 MB goes through standard input
from a generator and peak memory must not follow it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fuzzing import sarif_validator

ROOT = Path(__file__).resolve().parents[1]
CLEAN, FINDINGS, USAGE = 0, 1, 2
#: no PRIMARY KEY: one no-primary-key warning, so a run that read it exits 1
TABLE = b"CREATE TABLE t (a int);\n"
KEYED = b"CREATE TABLE k (id int PRIMARY KEY);\n"


def cli(*args: str, stdin: bytes | None = None, prefix: tuple[str, ...] = (), timeout: float = 120,
        ) -> subprocess.CompletedProcess[bytes]:
    """`innolint ARGS` in a fresh interpreter, with a strict UTF-8 stdout (as on most terminals)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONPATH": str(ROOT)}
    return subprocess.run([*prefix, sys.executable, "-m", "linter.cli", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, timeout=timeout)


def no_traceback(run: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in run.stderr and b"Traceback" not in run.stdout, run.stderr.decode(errors="replace")


#: runs `innolint check --format F PATHS` for each format in one interpreter (a process per
#: format costs seconds on a busy CI machine), each into a strict UTF-8 stdout as a terminal
#: has, standard input given afresh each time; prints {format: [exit code, output]} as JSON
_EVERY_FORMAT = """
import io, json, sys
from linter.cli import main
data = sys.stdin.buffer.read()
real = sys.stdout
results = {}
for fmt in ("text", "json", "sarif"):
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", write_through=True)
    code = main(["check", "--format", fmt, *sys.argv[1:]])
    results[fmt] = [code, sys.stdout.buffer.getvalue().decode("utf-8")]
real.write(json.dumps(results))
"""


def check_everywhere(paths: list[str], code: int, messages: list[str], *, rules: tuple[str, ...] = ("io-error",),
                     text_says: tuple[str, ...] = (), prefix: tuple[str, ...] = (), stdin: bytes = b"") -> dict:
    """Run `check` with text, json and sarif: the same exit code, each message in each (in JSON as
    a diagnostic of one of `rules`, in SARIF as a tool notification), valid JSON and SARIF, and
    no traceback. Returns the JSON report."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([*prefix, sys.executable, "-c", _EVERY_FORMAT, *paths], cwd=ROOT, env=env, input=stdin,
                         capture_output=True, timeout=300)
    no_traceback(run)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    results = json.loads(run.stdout)
    assert {fmt: result[0] for fmt, result in results.items()} == dict.fromkeys(results, code), run.stderr

    shown = results["text"][1]
    for message in [*messages, *text_says]:
        assert message in shown, shown

    report = json.loads(results["json"][1])
    said = [d["message"] for d in report["diagnostics"] if d["rule"] in rules]
    for message in messages:
        assert any(message in m for m in said), (message, said)

    log = json.loads(results["sarif"][1])
    validator = sarif_validator()
    if validator is not None:
        assert not [e.message for e in validator.iter_errors(log)]
    notes = [n["message"]["text"] for n in log["runs"][0]["invocations"][0]["toolExecutionNotifications"]]
    for message in messages:
        assert any(message in n for n in notes), (message, notes)
    if "io-error" in rules and messages:
        assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    return report


@pytest.fixture
def work() -> Iterator[Path]:
    """A directory others may enter (the permission tests may run as `nobody`)."""
    path = Path(tempfile.mkdtemp(prefix="innolint-inputs-"))
    path.chmod(0o755)
    yield path
    for root, dirs, _ in os.walk(path):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
    shutil.rmtree(path, ignore_errors=True)


def write(path: Path, data: bytes) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return str(path)


# --- paths that cannot be read ---------------------------------------------------------------


def test_missing_path(work: Path) -> None:
    missing = str(work / "nope.sql")
    check_everywhere([missing], USAGE, [f"{missing}: no such file or directory"])


def test_directory_with_no_sql(work: Path) -> None:
    write(work / "docs" / "README.md", b"# not SQL\n")
    write(work / "docs" / "data.csv", b"a,b\n")
    (work / "empty").mkdir()
    for directory in (work / "docs", work / "empty"):
        check_everywhere([str(directory)], USAGE, [f"{directory}: no SQL files in this directory"])


def test_symlink_loops(work: Path) -> None:
    # a directory that links back to itself: walked once, its SQL read once, no error
    write(work / "db" / "a.sql", TABLE)
    (work / "db" / "again").symlink_to(work / "db")
    report = check_everywhere([str(work / "db")], FINDINGS, [], rules=())
    assert report["stats"]["files"] == 1 and report["diagnostics"] == []
    # files that link to each other, named or met in a walk: a clear error, the rest still read
    (work / "loop" ).mkdir()
    (work / "loop" / "x.sql").symlink_to(work / "loop" / "y.sql")
    (work / "loop" / "y.sql").symlink_to(work / "loop" / "x.sql")
    write(work / "loop" / "z.sql", TABLE)
    looped = str(work / "loop" / "x.sql")
    check_everywhere([looped], USAGE, [f"{looped}: symbolic link loop"])
    report = check_everywhere([str(work / "loop")], USAGE, ["x.sql: symbolic link loop", "y.sql: symbolic link loop"])
    assert [f["rule"] for f in report["findings"]] == ["no-primary-key"]  # z.sql was linted all the same


def unprivileged() -> tuple[str, ...] | None:
    """A command prefix that runs innolint without the right to read others' files, or None.

    Tests run as root here, and root reads everything: as root, drop the capabilities that
    bypass file permissions (setpriv, util-linux), else run as `nobody` (runuser), when that user
    can run this Python at all."""
    if os.name != "posix" or not hasattr(os, "geteuid"):
        return None
    if os.geteuid() != 0:
        return ()
    probe_dir = Path(tempfile.mkdtemp(prefix="innolint-probe-"))
    try:
        probe_dir.chmod(0o755)
        probe = probe_dir / "locked"
        probe.write_text("x")
        probe.chmod(0)
        check = [sys.executable, "-c", f"open({str(probe)!r})"]
        candidates = []
        if shutil.which("setpriv"):
            caps = "-dac_override,-dac_read_search"
            candidates.append(("setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}"))
        if shutil.which("runuser"):
            candidates.append(("runuser", "-u", "nobody", "--"))
        for prefix in candidates:
            try:
                run = subprocess.run([*prefix, *check], capture_output=True, timeout=30)
            except OSError:
                continue
            if run.returncode != 0 and b"PermissionError" in run.stderr:
                return prefix
        return None
    finally:
        shutil.rmtree(probe_dir, ignore_errors=True)


def test_permission_denied(work: Path) -> None:
    prefix = unprivileged()
    if prefix is None:
        pytest.skip("running as root without setpriv or a runuser -u nobody that can run this Python: root reads everything")
    locked_file = write(work / "secret.sql", TABLE)
    os.chmod(locked_file, 0)
    locked_dir = work / "locked"
    write(locked_dir / "inner.sql", TABLE)
    locked_dir.chmod(0)
    readable = write(work / "ok.sql", KEYED)
    check_everywhere([locked_file], USAGE, [f"{locked_file}: permission denied"], prefix=prefix)
    check_everywhere([str(locked_dir)], USAGE, [f"{locked_dir}: permission denied"], prefix=prefix)
    # in a walk: the unreadable ones reported, the readable one linted
    report = check_everywhere([str(work)], USAGE, ["secret.sql: permission denied"], prefix=prefix)
    assert report["stats"]["files"] == 1 and readable.endswith("ok.sql")


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux's /proc/self/mem (a file whose read fails)")
def test_a_file_whose_read_fails() -> None:
    # opening /proc/self/mem works; reading it at offset 0 fails with EIO
    check_everywhere(["/proc/self/mem"], USAGE, ["/proc/self/mem: cannot read: Input/output error"])


def test_a_fifo_in_a_directory_is_reported_not_waited_on(work: Path) -> None:
    """Found writing these tests: a FIFO named x.sql (or x.txt, opened to look for a dump
    header) in a walked directory blocked the run forever, waiting for a writer."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(work / "pipe.sql")
    os.mkfifo(work / "pipe.txt")
    write(work / "real.sql", KEYED)
    report = check_everywhere([str(work)], USAGE, [f"{work / 'pipe.sql'}: not a regular file"])
    assert report["stats"]["files"] == 1
    assert not any("pipe.txt" in d["path"] for d in report["diagnostics"])  # not a dump: not taken, as any .txt


# --- contents that are not SQL -----------------------------------------------------------------


def test_binary_file(work: Path) -> None:
    gzip = bytes([0x1F, 0x8B, 8, 0]) + bytes(range(256)) * 40
    named = write(work / "dump.sql.gz", gzip)
    check_everywhere([named], USAGE, [f"{named}: binary file, not SQL"])
    walked = write(work / "walk" / "schema.sql", gzip)  # a binary file that says it is SQL
    write(work / "walk" / "ok.sql", KEYED)
    report = check_everywhere([str(work / "walk")], USAGE, [f"{walked}: binary file, not SQL"])
    assert report["stats"]["tables"] == 1


def test_empty_file_and_empty_stdin(work: Path) -> None:
    path = write(work / "empty.sql", b"")
    report = check_everywhere([path], CLEAN, [], rules=(), text_says=("0 findings", "1 file, 0 statements"))
    assert report["findings"] == [] and report["diagnostics"] == []
    assert report["stats"]["files"] == 1 and report["stats"]["statements"] == 0
    for n, data in enumerate((b"\n\n  \t\r\n", b"-- only a comment\n/* and another */\n", b"\xef\xbb\xbf", b";;\n;")):
        write(work / "blank" / f"{n}.sql", data)
    report = check_everywhere([str(work / "blank")], CLEAN, [], rules=(), text_says=("4 files, 0 statements",))
    assert report["findings"] == [] and report["diagnostics"] == []
    report = check_everywhere(["-"], CLEAN, [], rules=(), text_says=("1 file, 0 statements",), stdin=b"")
    assert report["diagnostics"] == []


def test_odd_bytes_are_read_not_refused(work: Path) -> None:
    """Latin-1, UTF-16 with a BOM, CR-only line ends: read and linted. A stray NUL before a
    statement: that statement is a parse error at its place, not dropped."""
    cases = {
        "latin1.sql": "CREATE TABLE `café` (a int);\n".encode("latin-1"),
        "utf16.sql": "CREATE TABLE t (a int);\n".encode("utf-16"),
        "mac.sql": b"CREATE TABLE k (id int PRIMARY KEY);\rCREATE TABLE t (\r a int\r);\r",
    }
    for name, data in cases.items():
        write(work / "odd" / name, data)
    report = check_everywhere([str(work / "odd")], FINDINGS, [], rules=())
    assert report["diagnostics"] == []
    assert sorted((Path(f["path"]).name, f["table"], f["line"]) for f in report["findings"]) == [
        ("latin1.sql", "café", 1), ("mac.sql", "t", 1), ("utf16.sql", "t", 1)]
    nul = write(work / "nul.sql", b"SELECT 1;\x00\nCREATE TABLE t (a int);\n")
    report = check_everywhere([nul], FINDINGS, ["not a statement innolint knows: '\\x00'"], rules=("parse-error",))
    assert [(d["line"], d["rule"]) for d in report["diagnostics"]] == [(1, "parse-error")]


def test_file_name_that_is_not_utf8(work: Path) -> None:
    """Found by the reporters' fuzzing, then here: `--format json` crashed on such a name."""
    if sys.platform == "darwin":
        pytest.skip("macOS file systems refuse names that are not UTF-8")
    directory = os.fsencode(work / "latin")
    os.makedirs(directory)
    with open(os.path.join(directory, b"caf\xe9.sql"), "wb") as handle:
        handle.write(TABLE)
    report = check_everywhere([str(work / "latin")], FINDINGS, [], rules=(), text_says=("caf\\xe9.sql",))
    assert report["findings"][0]["path"].endswith("caf\\xe9.sql")
    out = work / "report.json"
    run = cli("check", "--format", "json", "--output", str(out), str(work / "latin"))
    no_traceback(run)
    assert run.returncode == FINDINGS and json.loads(out.read_text(encoding="utf-8"))["findings"]


# --- size -------------------------------------------------------------------------------------


def dump(total_bytes: int, tables: int = 50) -> Iterator[bytes]:
    """A mysqldump-like stream: `tables` tables, then INSERTs until `total_bytes`."""
    yield b"-- MySQL dump 10.13\n/*!40101 SET NAMES utf8mb4 */;\n"
    row = b"(1,'some text; with -- a semicolon',NULL,'it''s'),"
    written, n = 0, 0
    while written < total_bytes:
        name = f"t{n % tables}".encode()
        block = b""
        if n < tables:
            block = b"DROP TABLE IF EXISTS `" + name + b"`;\nCREATE TABLE `" + name + b"` (\n  `id` int NOT NULL,\n  `v` text\n) ENGINE=InnoDB;\n"
        block += b"INSERT INTO `" + name + b"` VALUES " + row * 200 + b"(2,'end',NULL,'');\n"
        yield block
        written += len(block)
        n += 1


_PEAK_RSS = (
    "import resource, sys\n"
    "from linter.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stderr.write(f'\\nPEAK_RSS_KB={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n')\n"
    "sys.exit(code)\n"
)


def stream_through_stdin(megabytes: int) -> tuple[dict, int]:
    """`innolint check --format json -` fed `megabytes` of dump from a generator: (report, peak RSS in KB)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen([sys.executable, "-c", _PEAK_RSS, "check", "--format", "json", "-"], cwd=ROOT,
                                   env=env, stdin=subprocess.PIPE, stdout=out, stderr=err)
        assert process.stdin is not None
        for block in dump(megabytes << 20):
            process.stdin.write(block)
        process.stdin.close()
        assert process.wait(timeout=300) == FINDINGS
        out.seek(0)
        err.seek(0)
        report = json.loads(out.read())
        stderr = err.read().decode()
    assert "Traceback" not in stderr
    peak = int(stderr.rsplit("PEAK_RSS_KB=", 1)[1])
    return report, peak // 1024 if sys.platform == "darwin" else peak  # macOS counts bytes, Linux KB


@pytest.mark.skipif(sys.platform == "win32", reason="resource.getrusage is POSIX")
def test_a_large_input_streams_in_flat_memory() -> None:
    small, small_peak = stream_through_stdin(4)
    large, large_peak = stream_through_stdin(64)
    for report in (small, large):
        assert report["stats"]["tables"] == 50 and report["diagnostics"] == []
        assert len(report["findings"]) == 50  # every table, none lost
    assert large["stats"]["statements"] > 12 * small["stats"]["statements"]
    # 60 MB more input, and memory does not follow it (ru_maxrss is in KB on Linux)
    assert large_peak - small_peak < 24 * 1024, (small_peak, large_peak)


def test_a_10_mb_single_line_file(work: Path) -> None:
    line = b"INSERT INTO t VALUES " + b",".join([b"(1,'a;b')"] * (1 << 20)) + b";CREATE TABLE t (a int);"
    path = write(work / "one-line.sql", line)
    report = check_everywhere([path], FINDINGS, [], rules=())
    assert report["stats"]["statements"] == 2 and report["findings"][0]["line"] == 1


# --- whatever happens, the outputs stay usable ---------------------------------------------------


def test_a_mix_of_everything_at_once(work: Path) -> None:
    paths = [
        write(work / "good.sql", KEYED),
        write(work / "bad.sql", b"CREATE TABLE broken (a int,, b);\nCREATE TABLE t (a int);\n"),
        write(work / "binary.sql", b"\x00\x01\x02\x03" * 1000),
        str(work / "missing.sql"),
    ]
    report = check_everywhere(paths, USAGE, ["binary file, not SQL", "no such file or directory"])
    assert {d["rule"] for d in report["diagnostics"]} == {"io-error", "parse-error"}
    assert [f["table"] for f in report["findings"]] == ["t"]
    github = cli("check", "--format", "github", *paths)
    no_traceback(github)
    assert github.returncode == USAGE
    assert b"::error file=" in github.stdout


def test_the_command_ends_with_its_whole_report_written(work: Path) -> None:
    """`linter.cli.run` ends the process without the interpreter's teardown: what it wrote is
    flushed first, a report many times a pipe's buffer, to standard output and to --output alike,
    and its exit status is the run's; a reader that goes away early gets no traceback either."""
    tables = 1200  # ~1 MB of JSON, a pipe holds 64 KB
    path = write(work / "many.sql", b"".join(b"CREATE TABLE t%d (a int);\n" % i for i in range(tables)))
    piped = cli("check", "--format", "json", path)
    no_traceback(piped)
    assert piped.returncode == FINDINGS and len(piped.stdout) > 8 * 65536
    assert len(json.loads(piped.stdout)["findings"]) == tables
    out = work / "report.json"
    written = cli("check", "--format", "json", "--output", str(out), path)
    assert written.returncode == FINDINGS and written.stdout == b""
    assert json.loads(out.read_text())["findings"] == json.loads(piped.stdout)["findings"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen([sys.executable, "-m", "linter.cli", "check", "--format", "json", path], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as early:
        assert early.stdout is not None and early.stderr is not None
        early.stdout.read(100)
        early.stdout.close()  # the reader goes away (`| head -c 100`)
        stderr = early.stderr.read()
    assert b"Traceback" not in stderr and early.returncode != 0


def test_an_unwritable_output_path(work: Path) -> None:
    run = cli("check", "--format", "json", "--output", str(work / "no" / "such" / "dir.json"),
              write(work / "a.sql", KEYED))
    no_traceback(run)
    assert run.returncode == USAGE and b"no such file or directory" in run.stderr.lower()


def test_a_named_pipe_is_read_once_and_whole() -> None:
    """`innolint check /dev/stdin` (and process substitution, `<(zcat dump.sql.gz)`)."""
    run = cli("check", "--format", "json", "/dev/stdin", stdin=TABLE + KEYED)
    no_traceback(run)
    assert json.loads(run.stdout)["stats"]["statements"] == 2


def test_github_with_a_report_that_is_not_utf8(work: Path) -> None:
    run = cli("github", "--annotations", "none", "--no-summary", write(work / "r.json", b"\xff\xfe{"))
    no_traceback(run)
    assert run.returncode == USAGE


@pytest.mark.parametrize("option", ["--stats", "--config"])
def test_deeply_nested_stats_and_config_files(work: Path, option: str) -> None:
    if option == "--stats":
        nested = write(work / "stats.json", b'{"version": 1, "tables": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    else:
        nested = write(work / "innolint.toml", b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    run = cli("check", option, nested, write(work / "a.sql", KEYED))
    no_traceback(run)
    assert run.returncode == USAGE and nested.encode() in run.stderr
