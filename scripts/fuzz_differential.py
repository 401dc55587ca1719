#!/usr/bin/env python3
"""The long differential run: thousands of generated DDL scripts loaded into MariaDB through the
real `mariadb` client and replayed by innolint (tests/differential.py says what is compared).

    python scripts/fuzz_differential.py                       # 2,000 scripts, random seed
    python scripts/fuzz_differential.py --count 5000 --seed 7 --jobs 2 --clients 3
    python scripts/fuzz_differential.py --socket /path/to/mysqld.sock   # a server already running

Without --socket it starts a private server (datadir in /dev/shm when there is one) and stops it
at the end. Scripts are cut into batches; `--jobs` processes each run batches into databases of
their own on the one server, with `--clients` mariadb clients at once. Every mismatch (innolint's
model differs from the server's and innolint said nothing where it lost track, or it built on a
statement the server rejected) is shrunk to a minimal script and put in its class: a known one
(tests/differential.py, KNOWN_CLASSES) or a new one, named by what its reproduction is made of.
Prints the counts, every class with its shortest reproduction, and the divergences innolint did
report (for information); exits 1 when there is any mismatch (`--new-only`: any of no known class).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@dataclass
class Found:
    """One class seen in a batch: how often, and its shortest reproduction."""

    known: str | None
    count: int
    report: str
    size: int


@dataclass
class BatchResult:
    scripts: int
    statuses: Counter[str]
    seconds: float
    loads: int
    mismatches: dict[str, Found] = field(default_factory=dict)  # class key -> Found
    diagnosed: dict[str, Found] = field(default_factory=dict)


_WORKER: dict[str, object] = {}


def _worker_setup(socket: str, clients: int, worker_ids: object) -> None:
    from tests import differential as D
    from tests.mariadb import MariaDB

    from multiprocessing.util import Finalize

    number = worker_ids.get()  # type: ignore[attr-defined]
    server = MariaDB(socket=socket, port=0, version="")
    runner = D.ServerRunner(server, jobs=clients, prefix=f"fz{number}_")
    lint = D.InnolintRunner(runner.lower_case_table_names)
    _WORKER["differ"] = D.Differ(runner, lint, D.KNOWN_CLASSES)
    _WORKER["runner"] = runner
    # a pool's worker ends without running atexit: its scratch directories go with multiprocessing's own exit
    Finalize(runner, runner.close, exitpriority=10)
    Finalize(lint, lint.close, exitpriority=10)


def run_batch(seeds: list[int]) -> BatchResult:
    from tests import differential as D

    differ: D.Differ = _WORKER["differ"]  # type: ignore[assignment]
    runner: D.ServerRunner = _WORKER["runner"]  # type: ignore[assignment]
    loads = runner.loads
    started = time.monotonic()
    trials, cases = differ.run([D.generate(seed) for seed in seeds])
    statuses = Counter(c.status for c in cases)
    statuses["agree"] = len(trials) - len(cases)
    result = BatchResult(len(seeds), statuses, time.monotonic() - started, runner.loads - loads)
    for case in cases:
        target = result.mismatches if case.mismatch else result.diagnosed
        key = f"known: {case.known}" if case.known else case.signature() if case.mismatch else case.short_signature()
        size = len(case.text)
        found = target.get(key)
        if found is None:
            target[key] = Found(case.known, 1, case.report(), size)
        else:
            found.count += 1
            if size < found.size:
                found.report, found.size = case.report(), size
    return result


def _merge(into: dict[str, Found], batch: dict[str, Found]) -> list[str]:
    """Add a batch's classes; the keys seen for the first time."""
    new = []
    for key, found in batch.items():
        have = into.get(key)
        if have is None:
            into[key] = found
            new.append(key)
        else:
            have.count += found.count
            if found.size < have.size:
                have.report, have.size = found.report, found.size
    return new


def _start_server() -> tuple[object, str, Path]:
    from tests.differential import scratch_dir
    from tests.mariadb import find_server_binary, start_server

    mariadbd = find_server_binary()
    if mariadbd is None:
        sys.exit("mariadbd not found (add /usr/sbin to PATH, or run .ci/install-mariadb), or pass --socket")
    base = Path(tempfile.mkdtemp(prefix="innolint-fuzzdiff-", dir=scratch_dir()))
    process, server = start_server(mariadbd, base)
    return process, server.socket, base


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="scripts in all (default 2,000)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the scripts' seeds (default: random)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per CPU)")
    parser.add_argument("--clients", type=int, default=3, help="mariadb clients at once per process (default 3)")
    parser.add_argument("--batch", type=int, default=100, help="scripts per batch (default 100)")
    parser.add_argument("--socket", default=None, help="a running server's socket (default: start one)")
    parser.add_argument("--new-only", action="store_true", help="exit 1 only for mismatches of no known class")
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    seeds = [rng.randrange(2**32) for _ in range(args.count)]
    batches = [seeds[i:i + args.batch] for i in range(0, len(seeds), args.batch)]

    process = base = None
    socket = args.socket
    if socket is None:
        process, socket, base = _start_server()
    print(f"innolint differential fuzz: {args.count:,} scripts in {len(batches)} batches, {args.jobs} processes x "
          f"{args.clients} clients, seed {seed}", flush=True)

    import multiprocessing

    started = time.monotonic()
    statuses: Counter[str] = Counter()
    loads = 0
    mismatches: dict[str, Found] = {}
    diagnosed: dict[str, Found] = {}
    done_scripts = 0
    try:
        manager = multiprocessing.Manager()
        worker_ids = manager.Queue()
        for number in range(args.jobs):
            worker_ids.put(number)
        with ProcessPoolExecutor(max_workers=args.jobs, initializer=_worker_setup,
                                 initargs=(socket, args.clients, worker_ids)) as pool:
            futures = [pool.submit(run_batch, batch) for batch in batches]
            for done, future in enumerate(as_completed(futures), start=1):
                result = future.result()
                done_scripts += result.scripts
                statuses.update(result.statuses)
                loads += result.loads
                for key in _merge(mismatches, result.mismatches):
                    if mismatches[key].known is None:
                        print(f"\nNEW CLASS: {key}\n{mismatches[key].report}\n", flush=True)
                _merge(diagnosed, result.diagnosed)
                print(f"  {done}/{len(batches)} batches, {done_scripts:,} scripts, "
                      f"{statuses['silent'] + statuses['applied']:,} mismatches in {len(mismatches)} classes, "
                      f"{time.monotonic() - started:.0f}s", flush=True)
    finally:
        if process is not None:
            from tests.mariadb import _stop

            _stop(process)  # type: ignore[arg-type]
            shutil.rmtree(base, ignore_errors=True)  # type: ignore[arg-type]

    seconds = time.monotonic() - started
    known = {k: f for k, f in mismatches.items() if f.known}
    new = {k: f for k, f in mismatches.items() if not f.known}
    print(f"\n{done_scripts:,} scripts in {seconds:.0f}s ({loads:,} server loads), seed {seed}: "
          f"{statuses['agree']:,} agree, {statuses['diagnosed']:,} diagnosed where innolint lost track, "
          f"{statuses['silent']:,} silent mismatches, {statuses['applied']:,} applied-rejected mismatches")
    print(f"\nmismatch classes: {len(known)} known, {len(new)} new")
    for key, found in sorted(mismatches.items(), key=lambda item: (item[1].known is not None, -item[1].count)):
        print(f"\n=== {found.count} x {key}\n{found.report}")
    print(f"\ndiagnosed divergences (innolint said where it lost track; for information): {len(diagnosed)} kinds")
    for key, found in sorted(diagnosed.items(), key=lambda item: -item[1].count):
        print(f"  {found.count:>5} x {key}")
    if args.new_only:
        return 1 if new else 0
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
