#!/usr/bin/env python3
"""The splitter of this checkout against the splitter of another revision, on the same inputs:
what a refactoring of `linter/input/splitter/` must not change.

    python scripts/split_differential.py bf7af49            # this checkout vs that commit
    python scripts/split_differential.py HEAD~3 --show 5    # print up to 5 differing cases

The inputs: every string constant of tests/*.py that holds a quote, a comment marker, a `;` or a
DELIMITER (the hand-made edge cases of the splitter's tests and the fuzzing's regressions), 4,000
random pairs of them, 3,000 texts of the fuzzing's `sql_inputs` and 3,000 of `random_text`, every SQL
file of ../shared/corpus and ../shared/peer-suites, and two tenant dumps through the repeated-block
path when ../shared is beside the project. Each text is split under four settings drawn from its
hash (chunk size: whole, 1, 3, 17, 64; target: none, mysql-5.7, mysql-8.0, mariadb-10.11; format:
plain, goose, flyway; the engine's skip words or none), with the fast lane on, then off. A split is
every statement's repr, every note's, the statements counted and the directives. The other revision
is checked out in a temporary git worktree; each side runs in a process of its own. Exits 1 when
any case differs (the first are printed with both sides).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def inputs(out: Path) -> None:
    """Write the cases and files (see the module) to `out` as JSON."""
    sys.path.insert(0, str(ROOT))
    from tests import fuzzing

    texts = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and 2 <= len(node.value) <= 20_000:
                if any(c in node.value for c in ";/-#\\'\"`") or "DELIMITER" in node.value.upper():
                    texts.append(node.value)
    rng = random.Random(7)
    pairs = [rng.choice(texts) + rng.choice(["\n", "", ";\n", " "]) + rng.choice(texts) for _ in range(4000)]
    strategy = fuzzing.sql_inputs()
    generated = [strategy.example() for _ in range(3000)]
    noise = [fuzzing.random_text(random.Random(i).randbytes(rng.randint(1, 400))) for i in range(3000)]
    files = []
    for root in (SHARED / "corpus", SHARED / "peer-suites"):
        for path in sorted(root.rglob("*")) if root.is_dir() else []:
            if (path.is_file() and path.suffix in (".sql", ".txt", ".ddl", ".mysql") and "_scale" not in path.parts
                    and path.stat().st_size < 3_000_000):
                files.append(path.read_text(encoding="utf-8", errors="replace"))
    dumps = []
    maker = SHARED / "corpus" / "_scale" / "make_tenants.py"
    if maker.is_file():
        with tempfile.TemporaryDirectory() as work:
            for n, extra in ((60, []), (40, ["--with-data", "--tablespace", "general:{tenant}"])):
                dump = Path(work) / f"t{n}.sql"
                subprocess.run([sys.executable, str(maker), "-n", str(n), "-o", str(dump), *extra], check=True,
                               capture_output=True)
                dumps.append(dump.read_text(encoding="utf-8"))
    out.write_text(json.dumps({"cases": texts + pairs + generated + noise, "files": files, "dumps": dumps}))
    print(f"inputs: {len(texts):,} test constants, {len(pairs):,} pairs, {len(generated):,} generated, "
          f"{len(noise):,} random, {len(files)} files, {len(dumps)} tenant dumps", flush=True)


def splits(root: str, data_path: str, out_path: str) -> None:
    """Split every input with the splitter of the checkout at `root`; write the results to `out_path`."""
    sys.path.insert(0, root)
    from linter.input.split import split_stream
    from linter.input.splitter import scanner
    from linter.parse.cache import SKIP_FIRST_WORDS, SKIP_PATTERN, SPLIT_SKIP_WORDS
    from linter.schema.target import Target

    data = json.loads(Path(data_path).read_text())
    targets = [None, Target.parse("mysql-8.0"), Target.parse("mariadb-10.11"), Target.parse("mysql-5.7")]

    def chunked(text: str, size: int | None) -> list[str]:
        return [text] if size is None else [text[i : i + size] for i in range(0, len(text), size)] or [""]

    def one(text: str, size: int | None, target: object, fmt: str | None, skip: frozenset[str] | None,
            blocks: object = None) -> str:
        stream = split_stream(chunked(text, size), "f.sql", migration_format=fmt, target=target,  # type: ignore[arg-type]
                              skip_words=skip, skip_pattern=SKIP_PATTERN if skip else "",
                              unless="innolint:" if skip else "", blocks=blocks)  # type: ignore[arg-type]
        try:
            statements = [repr(s) for s in stream]
            return repr((statements, [repr(n) for n in stream.notes], stream.skipped, stream.directives))
        except Exception as error:  # noqa: BLE001 - a crash is a result to compare too
            return f"raised {type(error).__name__}: {error}"

    results = []
    for lane in (True, False):
        scanner.Splitter.fast_lane = lane
        for text in data["cases"]:
            h = zlib.crc32(text.encode("utf-8", "surrogatepass"))
            for k in range(4):
                results.append(one(text, [None, 1, 3, 17, 64][(h + k) % 5], targets[(h >> 3) % 4 if k else 0],
                                   [None, "goose", None, "flyway"][(h >> 5 + k) % 4],
                                   SKIP_FIRST_WORDS if (h >> (7 + k)) & 1 else None))
        for text in data["files"]:
            for size, skip, target in ((None, SKIP_FIRST_WORDS, None), (4096, None, targets[2]),
                                       (1000, SKIP_FIRST_WORDS, targets[1])):
                results.append(one(text, size, target, None, skip))
        for text in data["dumps"]:
            for size, accept in ((None, True), (65536, True), (4096, False)):
                results.append(one(text, size, None, None, SPLIT_SKIP_WORDS, lambda block, taken=accept: taken))
    Path(out_path).write_text(json.dumps(results))
    digest = hashlib.sha256("".join(results).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    print(f"{root}: {len(results):,} splits, digest {digest}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", help="the git revision to compare this checkout with")
    parser.add_argument("--show", type=int, default=3, help="differing cases to print (default 3)")
    parser.add_argument("--_split", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args._split:
        splits(*args._split)
        return 0
    with tempfile.TemporaryDirectory(prefix="split-differential-") as work:
        other = Path(work) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--", str(other), args.revision],
                       check=True, capture_output=True)
        try:
            data = Path(work) / "inputs.json"
            inputs(data)
            outs = []
            for side in (str(other), str(ROOT)):
                out = Path(work) / f"{len(outs)}.json"
                subprocess.run([sys.executable, __file__, args.revision, "--_split", side, str(data), str(out)],
                               check=True, cwd=work)
                outs.append(json.loads(out.read_text()))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", "--", str(other)],
                           capture_output=True)
    old, new = outs
    differing = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    print(f"{len(differing):,} of {len(new):,} splits differ")
    for i in differing[: args.show]:
        print(f"\n--- split {i}, {args.revision}:\n{old[i][:2000]}\n--- this checkout:\n{new[i][:2000]}")
    return 1 if differing or len(old) != len(new) else 0


if __name__ == "__main__":
    sys.exit(main())
