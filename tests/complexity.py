"""The one way the tests measure how a cost grows: the same work at n and at 10n in the same run,
and the time may grow at most 15x (the brief's bound; a quadratic cost grows ~100x).

Why it is measured this way (each point was a flaky failure on the 2-core CI machine):
- processor time of this process (`time.process_time`), not wall time: other processes (a
  parallel test run, the MariaDB fixture) do not count. Every measured cost here is in-process;
- the garbage collector paused: its passes scan the whole heap (the rest of the suite's
  objects), so they grow with what the test process holds, not with the work measured;
- a floor on each timed block: the large work runs `loops` times in a row, with `loops` doubled
  until the block takes `FLOOR` seconds, and the small work runs `SMALL_SHARE` x 10 x `loops`
  times (at least for `FLOOR` seconds): both blocks do a like amount of work for a like time
  (half as long for the small one: each block is long enough that a timer tick or a context
  switch is a small part of it, and the small work's repeats cost half of what equal blocks cost,
  which was half of every linearity test), so the machine's state (caches, clock boosts) weighs
  on both alike;
- by turns (small, large, small, large...), `REPEAT` blocks of each: a slow phase of the
  machine hits both sizes; the ratio is the lower of the best times' and the median of adjacent
  blocks' (see `Growth.ratio`), so a round stops as soon as most of its pairs are within the
  limit (the rest could not change the verdict);
- a ratio over the limit is measured again, up to `RETRIES` times, the blocks of all rounds
  kept: noise passes, a super-linear cost stays over the limit in every round;
- a first pair well within the limit (`DECISIVE`: a linear cost measures 8-11x at the sizes the
  tests use, n^1.5 ~32x, a quadratic one ~100x) decides at once, and the calibration's last block
  is that pair's large one: a passing test runs the large work once and the small work once
  timed (test_complexity + test_run_scaling: 67 s -> 46 s); anything nearer the limit is
  measured as above.

Set INNOLINT_COMPLEXITY_LOG to a file name to have each measurement appended to it (a line per
test: the ratio, both times and n), to see how close to the limit the suite runs.
"""

from __future__ import annotations

import gc
import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

#: time may grow at most this much for 10x the input (the brief)
LIMIT = 15.0
#: the least processor time, in seconds, a timed block takes (a few milliseconds at the least)
FLOOR = 0.02
#: the most runs in one timed block (a work that takes no time at all is not measured forever)
MAX_LOOPS = 1 << 16
#: the timed blocks of each size per round
REPEAT = 3
#: how many times a ratio over the limit is measured again before the test fails
RETRIES = 3
#: a first pair of blocks at most this ratio passes without more pairs (see the module docstring)
DECISIVE = 10.0
#: the small work's block does this share of the large block's work (see the module docstring)
SMALL_SHARE = 0.5

#: `make(size)` prepares the work for `size` (untimed) and returns it, to be run many times
Make = Callable[[int], Callable[[], object]]


@dataclass
class Growth:
    """Processor time of one run of the work at n and at 10n, as timed in adjacent blocks."""

    n: int
    loops: int
    #: runs of the small work in its block
    small_loops: int = 0
    pairs: list[tuple[float, float]] = field(default_factory=list)

    @property
    def small(self) -> float:
        return min(small for small, _ in self.pairs)

    @property
    def large(self) -> float:
        return min(large for _, large in self.pairs)

    @property
    def ratio(self) -> float:
        """The lower of two estimates, each blind to one kind of noise: the best time of each size
        (a block slowed by interference), and the median ratio of a large block to the small one
        just before it (the machine's speed drifting between blocks: a shared core, a clock
        change). A super-linear cost is over the limit by both."""
        best = self.large / max(self.small, 1e-9)
        adjacent = statistics.median(large / max(small, 1e-9) for small, large in self.pairs)
        return min(best, adjacent)

    def __str__(self) -> str:
        return (f"{self.small:.5f} s for n={self.n}, {self.large:.5f} s for 10n={10 * self.n} "
                f"({self.ratio:.1f}x; {len(self.pairs)} blocks of {self.small_loops} and {self.loops} runs)")


def _block(work: Callable[[], object], loops: int) -> float:
    """Processor seconds of `loops` runs of `work` in a row."""
    started = time.process_time()
    for _ in range(loops):
        work()
    return time.process_time() - started


def _loops(large: Callable[[], object]) -> tuple[int, float]:
    """How many runs of the large work make a block of at least FLOOR seconds, and the seconds
    of that block (a timed block like any other)."""
    loops = 1
    while (seconds := _block(large, loops)) < FLOOR and loops < MAX_LOOPS:
        loops *= 2
    return loops, seconds


def _small_loops(loops: int, first: float) -> int:
    """Runs of the small work in its block: `SMALL_SHARE` of the large block's work (a linear cost's
    small run is a tenth of a large one), and at least `FLOOR` seconds by its first run's time
    (which, with its first-use costs, errs long), never more than a block of equal work."""
    share = max(1, round(SMALL_SHARE * 10 * loops))
    return min(10 * loops, max(share, math.ceil(FLOOR / max(first, 1e-9))))


def measure(make: Make, n: int, *, rounds: int = 1 + RETRIES, limit: float = LIMIT) -> Growth:
    """The growth from n to 10n, measured again (keeping all blocks) while it is over `limit`."""
    small_work, large_work = make(n), make(10 * n)
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        first = _block(small_work, 1)  # a first run of each: imports, caches, lazily built tables
        loops, calibrated = _loops(large_work)
        small_loops = _small_loops(loops, first)
        growth = Growth(n, loops, small_loops)
        # the first pair: the calibration's block, then the small work's just after it
        growth.pairs.append((_block(small_work, small_loops) / small_loops, calibrated / loops))
        decided = growth.ratio <= min(DECISIVE, limit)
        for round_number in range(1, 0 if decided else rounds + 1):
            planned = REPEAT * round_number  # (the first round's first pair is the one above)
            while len(growth.pairs) < planned:
                small = _block(small_work, small_loops) / small_loops
                growth.pairs.append((small, _block(large_work, growth.loops) / growth.loops))
                if _decided(growth, planned, limit):
                    break
            if growth.ratio <= limit:
                break
    finally:
        if collecting:
            gc.enable()
    _log(growth)
    return growth


def _decided(growth: Growth, planned: int, limit: float) -> bool:
    """Whether the round's verdict is in before its last blocks: when more than half of the
    `planned` pairs are within `limit` already, their median is, whatever the others measure, so
    the round passes (`Growth.ratio` is at most that median). A pass costs two pairs of blocks
    instead of three; a cost over the limit is measured exactly as before."""
    within = sum(1 for small, large in growth.pairs if large / max(small, 1e-9) <= limit)
    return within > planned // 2


def assert_linear(make: Make, n: int, *, limit: float = LIMIT, what: str = "") -> Growth:
    """Fail when 10x the input takes more than `limit` times the time (see the module's docstring
    for how it is measured); the message gives both times and n."""
    growth = measure(make, n, limit=limit)
    assert growth.ratio <= limit, f"{what + ': ' if what else ''}{growth}: over {limit:g}x in every round"
    return growth


def _log(growth: Growth) -> None:
    path = os.environ.get("INNOLINT_COMPLEXITY_LOG")
    if path:
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" (", 1)[0]
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{growth.ratio:6.2f}x  {test}  {growth}\n")
