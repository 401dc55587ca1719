"""Seeded, rotating samples of the large matrices the server judges (tests/test_online_alter.py,
tests/test_fix_migration.py, the corpus fix sweep of tests/test_fix_verification.py): every class
of the matrix (each operation kind, engine, table shape, clause, format, rule...) is in every run,
and which cases stand for it changes from day to day, so the whole matrix is covered over time at
a small cost per run. The fuzz targets (tests/test_fuzz.py) draw their examples from the same
seed; `size` says how many cases a generated test draws in a run and under INNOLINT_EXHAUSTIVE
(tests/test_parse_cache.py takes the first cases of its fixed streams: a rotating stream finds
disagreements of the column reader that are not fixed yet).

- `INNOLINT_SEED=N` sets the seed; by default it is today's date (UTC) as YYYYMMDD, the same for
  every run of a day. The seed is printed in pytest's header and in every failure of a sampled
  test, so a failure is re-run exactly with `INNOLINT_SEED=N python3 -m pytest ...`.
- `INNOLINT_EXHAUSTIVE=1` runs the whole matrices instead of samples (minutes: the counts are in
  docs/testing.md).
"""

from __future__ import annotations

import datetime
import os
import random
from collections.abc import Sequence
from typing import TypeVar


T = TypeVar("T")


def seed() -> int:
    """This run's seed: INNOLINT_SEED, else today's date (UTC) as YYYYMMDD."""
    given = os.environ.get("INNOLINT_SEED", "").strip()
    if given:
        return int(given)
    return int(datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d"))


def exhaustive() -> bool:
    """Whether INNOLINT_EXHAUSTIVE asks for the whole matrices."""
    return os.environ.get("INNOLINT_EXHAUSTIVE", "").strip() not in ("", "0")


def rng(matrix: str) -> random.Random:
    """The random stream of one matrix for this run's seed (each matrix its own, so that one
    drawing more cases does not move another's sample)."""
    return random.Random(f"{matrix}:{seed()}")


def size(each_run: int, whole: int) -> int:
    """How many generated cases a sampled test draws: `each_run`, or `whole` under INNOLINT_EXHAUSTIVE."""
    return whole if exhaustive() else each_run


def spread(stream: random.Random, classes: Sequence[T], slots: int) -> list[T]:
    """`slots` picks of `classes` in a random order, each class as often as any other (give or take
    one): every class is there once `slots >= len(classes)`."""
    picks: list[T] = []
    while len(picks) < slots:
        deck = list(classes)
        stream.shuffle(deck)
        picks.extend(deck)
    return picks[:slots]


def rerun() -> str:
    """What a failure message says to run the same sample again."""
    return f"sample seed {seed()}: re-run with INNOLINT_SEED={seed()}"


def pytest_report_header() -> str:
    mode = "whole matrices (INNOLINT_EXHAUSTIVE)" if exhaustive() else "sampled server-judged matrices"
    return f"innolint: {mode}, seed {seed()} (INNOLINT_SEED={seed()} repeats this run's samples)"
