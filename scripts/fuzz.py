#!/usr/bin/env python3
"""The long fuzzing run: every target of tests/fuzzing.py with a large budget, in parallel.

    python scripts/fuzz.py                      # 100,000 examples over all targets
    python scripts/fuzz.py --examples 500000 --jobs 8 --targets parse,pipeline --seed 7

CI runs the same targets with a small derandomized budget (tests/test_fuzz.py); this script is
for the dedicated run the issue asks for (at least 100,000 examples), with random seeds. Each
target's budget is cut into batches, each one hypothesis run with its own seed, so a failure ends
only its batch: the run goes on and reports every distinct crash (by exception type and the place
it was raised), each with hypothesis' shrunk example. It prints the examples run per target, the
total and the crashes, and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: share of the budget per target: the slow ones (a whole pipeline per example) get less
WEIGHTS = {"split": 3, "parse": 3, "files": 2, "pipeline": 2, "ddl": 2, "replay": 1, "reporters": 1, "cache": 1}
BATCH = 2_000


@dataclass
class BatchResult:
    target: str
    examples: int
    seconds: float
    crashes: list[tuple[str, str, str]] = field(default_factory=list)  # (key, example, traceback)


def _crash_key(error: BaseException) -> str:
    """The exception type and the innermost frame of innolint's own code (else the innermost)."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/hypothesis/" not in f.filename and "/tests/fuzzing.py" not in f.filename]
    frame = (ours or frames or [None])[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno} in {frame.name}" if frame else "?"
    return f"{type(error).__name__} at {where}"


def run_batch(target_name: str, examples: int, seed: int) -> BatchResult:
    from hypothesis import HealthCheck, given, seed as hypothesis_seed, settings
    from hypothesis.errors import HypothesisException

    from tests.fuzzing import FUZZ_TARGETS

    strategy, target = FUZZ_TARGETS[target_name]
    result = BatchResult(target_name, 0, 0.0)
    failures: list[tuple[BaseException, object]] = []

    @hypothesis_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=True, print_blob=False)
    @given(strategy)
    def run(value: object) -> None:
        result.examples += 1
        try:
            target(value)
        except BaseException as error:  # noqa: BLE001 - every escape is a finding
            failures.append((error, value))
            raise

    started = time.monotonic()
    try:
        run()
    except (Exception, HypothesisException) as error:  # noqa: BLE001
        seen: set[str] = set()
        # the last failure recorded for a key is hypothesis' shrunk example
        for failure, value in reversed(failures):
            key = _crash_key(failure)
            if key not in seen:
                seen.add(key)
                text = "".join(traceback.format_exception(type(failure), failure, failure.__traceback__, limit=-8))
                result.crashes.append((key, repr(value)[:2000], text))
        if not failures:
            result.crashes.append((_crash_key(error), "(hypothesis)", "".join(traceback.format_exception(error))))
    result.seconds = time.monotonic() - started
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100_000, help="examples in all (default 100,000)")
    parser.add_argument("--targets", default=None, help="comma-separated targets (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per CPU)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the batch seeds (default: random)")
    args = parser.parse_args()

    from tests.fuzzing import FUZZ_TARGETS

    names = args.targets.split(",") if args.targets else sorted(FUZZ_TARGETS)
    unknown = set(names) - set(FUZZ_TARGETS)
    if unknown:
        parser.error(f"unknown targets: {', '.join(sorted(unknown))} (known: {', '.join(sorted(FUZZ_TARGETS))})")
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    weights = {name: WEIGHTS.get(name, 1) for name in names}
    total_weight = sum(weights.values())
    batches: list[tuple[str, int, int]] = []
    for name in names:
        share = max(1, round(args.examples * weights[name] / total_weight))
        while share > 0:
            size = min(BATCH, share)
            batches.append((name, size, rng.randrange(2**32)))
            share -= size
    rng.shuffle(batches)
    print(f"innolint fuzz: {args.examples:,} examples over {', '.join(names)} in {len(batches)} batches, "
          f"{args.jobs} jobs, seed {seed}", flush=True)

    started = time.monotonic()
    examples: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    crashes: dict[str, tuple[str, str, str, int]] = {}  # key -> (target, example, traceback, count)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_batch, *batch) for batch in batches]
        for done, future in enumerate(as_completed(futures), start=1):
            result = future.result()
            examples[result.target] += result.examples
            seconds[result.target] += result.seconds
            for key, example, text in result.crashes:
                if key in crashes:
                    target, first_example, first_text, count = crashes[key]
                    crashes[key] = (target, first_example, first_text, count + 1)
                else:
                    crashes[key] = (result.target, example, text, 1)
                    print(f"\nCRASH in {result.target}: {key}\n  example: {example[:500]}\n{text}", flush=True)
            if done % 10 == 0 or done == len(futures):
                print(f"  {done}/{len(futures)} batches, {sum(examples.values()):,} examples, "
                      f"{len(crashes)} distinct crashes, {time.monotonic() - started:.0f}s", flush=True)

    print("\nexamples run per target:")
    for name in names:
        rate = examples[name] / seconds[name] if seconds[name] else 0.0
        print(f"  {name:<10} {examples[name]:>9,}  ({rate:,.0f}/s per process)")
    print(f"  {'total':<10} {sum(examples.values()):>9,}  in {time.monotonic() - started:.0f}s, seed {seed}")
    print(f"distinct crashes: {len(crashes)}")
    for key, (target, example, _, count) in sorted(crashes.items()):
        print(f"  [{target}] {key} ({count} batch{'es' if count != 1 else ''}); example: {example[:200]}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
