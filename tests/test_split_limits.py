"""What one statement may cost: the splitter holds at most `MAX_STATEMENT_CHARS` of a statement,
reports a longer one (file:line, its size, the cap) instead of handing it to the parser, and
counts a longer statement the caller skips (a dump's INSERT) without holding it."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from linter.input.splitter.lexis import MAX_STATEMENT_CHARS
from linter.input.split import split_stream
from tests.splitting import split

ROOT = Path(__file__).resolve().parents[1]


def wide_table(columns: int, name: str = "big") -> str:
    return f"CREATE TABLE {name} (\n" + "".join(f"  c{i} int,\n" for i in range(columns)) + "  z int\n)"


@pytest.mark.parametrize("chunk", [None, 1, 7, 64, 4096])
def test_a_statement_over_the_cap_is_reported_with_its_size_and_place(chunk: int | None) -> None:
    big = wide_table(60)
    text = "SELECT 1;\n" + big + ";\nCREATE TABLE after_it (a int);\n"
    statements, notes = split(text, chunk=chunk, max_statement=300)
    assert [(s.text, s.line) for s in statements] == [("SELECT 1", 1), ("CREATE TABLE after_it (a int)", 65)]
    (note,) = notes
    assert (note.line, note.column, note.end_line, note.rule) == (2, 1, 64, "parse-error")
    assert f"statement of {len(big):,} characters" in note.message and "300 characters" in note.message
    assert note.excerpt == "CREATE TABLE big ("


@pytest.mark.parametrize("delimiter", [";", "//", "$$"])
def test_the_cap_is_exact_and_applies_under_any_delimiter(delimiter: str) -> None:
    head = "CREATE TABLE t (a int) COMMENT '"
    for size, over in ((200, False), (201, True)):
        body = head + "x" * (size - len(head) - 1) + "'"
        assert len(body) == size
        prefix = "" if delimiter == ";" else f"DELIMITER {delimiter}\n"
        statements, notes = split(f"{prefix}{body}{delimiter}\nSELECT 2{delimiter}\n", max_statement=200)
        assert [s.text for s in statements] == ([] if over else [body]) + ["SELECT 2"]
        assert len(notes) == over


def test_a_skipped_statement_over_the_cap_is_counted_but_neither_held_nor_reported() -> None:
    insert = "INSERT INTO t VALUES " + ",\n".join(f"({i}, 'row {i}')" for i in range(200))
    text = f"{insert};\nCREATE TABLE t (a int);\n"
    assert split(text, max_statement=500, skip=True)[1] == []
    stream = split_stream([text], "f.sql", skip_words=frozenset({"INSERT"}), max_statement=500)
    assert [s.line for s in stream] == [201] and stream.skipped == 1 and stream.notes == []
    statements, notes = split(text, max_statement=500)  # without the engine's skip words it is reported
    assert [s.line for s in statements] == [201] and len(notes) == 1


@pytest.mark.parametrize("kind", ["CREATE TABLE t (a text DEFAULT '{}')", "INSERT INTO t VALUES ('{}')",
                                  "/*!50100 CREATE TABLE t (a text DEFAULT '{}') */", "SELECT '{}' /* {} */"])
def test_memory_stays_bounded_whatever_the_length_of_a_statement(kind: str) -> None:
    filler = "x;y\n" * (4 * MAX_STATEMENT_CHARS // 4)  # 4 MiB of text in the statement
    text = kind.format(filler, "c") + ";\nSELECT 2;\n"
    chunks = [text[i : i + 65536] for i in range(0, len(text), 65536)]
    tracemalloc.start()
    try:
        stream = split_stream(iter(chunks), "f.sql")
        statements = list(stream)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [s.text for s in statements] == ["SELECT 2"]
    assert len(stream.notes) == 1
    assert peak < 3 * MAX_STATEMENT_CHARS  # the cap and a chunk or two, not the 4 MiB statement


def test_an_endless_statement_is_read_in_bounded_memory() -> None:
    def endless() -> itertools.chain[str]:
        return itertools.chain(["CREATE TABLE t (a int COMMENT '"], itertools.repeat("z" * 65536, 200), ["');"])

    tracemalloc.start()
    try:
        stream = split_stream(endless(), "f.sql")
        assert list(stream) == []
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "13,107,233 characters" in stream.notes[0].message
    assert peak < 3 * MAX_STATEMENT_CHARS


#: runs the CLI and prints its peak resident memory (VmHWM, in kB) to stderr at exit; a child's
#: ru_maxrss would count the memory of the test process it was forked from
#: (`main`, not the command's `run`, which ends the process at once)
_PEAK = ("import sys\nfrom linter.cli import main\n"
         "try:\n    status = main()\n"
         "finally:\n"
         "    print('VmHWM', [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0], file=sys.stderr)\n"
         "sys.exit(status)\n")


def test_the_cli_reports_a_huge_ddl_statement_without_a_traceback_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.sql"
    path.write_text("CREATE TABLE kept (id int PRIMARY KEY);\nCREATE TABLE huge (id int PRIMARY KEY, c text COMMENT '"
                    + "x" * 20_000_000 + "');\nCREATE TABLE after_it (a int);\n")
    done = subprocess.run([sys.executable, "-c", _PEAK, "check", "--format", "json", "--fail-level", "none", str(path)],
                          capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, timeout=300)
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    (diagnostic,) = [d for d in report["diagnostics"] if d["rule"] == "parse-error"]
    assert diagnostic["line"] == 2 and "20,000,057 characters" in diagnostic["message"]
    assert {f["table"] for f in report["findings"] if f["rule"] == "no-primary-key"} == {"after_it"}
    peak_kb = int(done.stderr.rsplit("VmHWM", 1)[1].split()[0])
    assert peak_kb < 200_000  # about 75 MB on the project's machine: the 20 MB statement is never held
