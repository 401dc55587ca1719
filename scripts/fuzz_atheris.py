#!/usr/bin/env python3
"""Coverage-guided fuzzing of the SQL pipeline with atheris (libFuzzer for Python), optional.

    pip install atheris
    python scripts/fuzz_atheris.py -runs=200000                     # or -max_total_time=600
    python scripts/fuzz_atheris.py --make-seeds seeds/              # real statements to start from
    python scripts/fuzz_atheris.py seeds/ -max_len=65536 -runs=200000   # and keep what it learns

Each input is raw bytes, decoded as innolint decodes a file (UTF-8, latin-1 for what is not, a
UTF-16 BOM honoured) and checked with the same properties as tests/fuzzing.py: the splitter and
the parser raise nothing unexpected, every statement is understood, skipped or a diagnostic
inside the input, the model builder and every check run clean. The first byte picks the chunk
size and the migration-marker mode, so chunk boundaries are fuzzed too. innolint's own modules are
instrumented for coverage (sqlglot's compiled build cannot be; its pure-Python fallback would be).
A crash stops the run with the input saved as crash-<sha1>, libFuzzer's way.
"""

from __future__ import annotations

import codecs
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:
    import atheris
except ImportError:  # pragma: no cover - optional
    sys.exit("atheris is not installed: pip install atheris (scripts/fuzz.py needs only hypothesis)")

with atheris.instrument_imports(include=["linter", "checks"]):
    from linter.rules.checkapi import CheckContext
    from linter.input.source import LATIN1_FALLBACK
    from tests.fuzzing import lint_text

CHUNKS = (None, 1, 2, 3, 7, 64, 4096)


def decode(data: bytes) -> str:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", "replace")
    return data.decode("utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8", LATIN1_FALLBACK)


def test_one_input(data: bytes) -> None:
    if not data:
        return
    mode, body = data[0], data[1:]
    lint_text(decode(body), CheckContext(), chunk=CHUNKS[mode % len(CHUNKS)], markers=bool(mode & 0x80))


def make_seeds(directory: str) -> None:
    """One seed per corpus statement (and the fallback ones), each behind a mode byte."""
    from tests.fuzzing import corpus_statements

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    for n, text in enumerate(corpus_statements()):
        (out / f"seed-{n:05d}").write_bytes(bytes([n % 256]) + (text + ";\n").encode("utf-8", "surrogatepass"))
    print(f"wrote {n + 1} seeds to {out}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--make-seeds":
        make_seeds(sys.argv[2])
        return
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
