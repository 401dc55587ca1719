"""The shared complexity measure (tests/complexity.py) catches what it is there to catch: a
quadratic cost (~100x for 10x the input) and a milder super-linear one (n^1.5: ~32x) fail, with
both times and n in the message; linear work passes, also when the first round is disturbed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests import complexity
from tests.complexity import assert_linear, measure


def _linear(n: int) -> Callable[[], object]:
    """A loop over n bytes that allocates nothing (a small int per byte is shared)."""
    data = bytes(n)

    def work() -> None:
        for _ in data:
            pass

    return work


def _quadratic(n: int) -> Callable[[], object]:
    """Inserting at the front of a list: each insert moves all the items before it."""

    def work() -> None:
        items: list[int] = []
        for i in range(n):
            items.insert(0, i)

    return work


def _power(n: int, power: float, unit: int = 2_000) -> Callable[[], object]:
    """Work in n^power units of one linear pass over `unit` items (n counts in units)."""
    items = list(range(unit))
    times = max(1, round(n ** power))
    return lambda: [sum(items) for _ in range(times)]


def test_linear_work_passes() -> None:
    growth = assert_linear(_linear, 20_000)
    assert 5 < growth.ratio <= complexity.LIMIT and growth.n == 20_000


def test_quadratic_work_fails_with_both_times_and_n() -> None:
    with pytest.raises(AssertionError) as failed:
        assert_linear(_quadratic, 2_000, what="front inserts")
    message = str(failed.value)
    assert message.startswith("front inserts: ") and "for n=2000," in message and "for 10n=20000" in message
    ratio = float(message.split("(")[1].split("x")[0])
    assert ratio > 40, message


@pytest.mark.parametrize(("power", "least"), [(2.0, 60), (1.5, 22)])
def test_super_linear_work_fails_in_every_round(power: float, least: float) -> None:
    growth = measure(lambda n: _power(n, power), 10)
    assert growth.ratio > least and len(growth.pairs) == complexity.REPEAT * (1 + complexity.RETRIES), growth


def test_a_disturbed_first_round_is_measured_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The large work is slowed 5x through the first round (as by another process on the core):
    the first round is over the limit, the next is not, and the test passes. FLOOR 0: one run per
    large block, so the first three runs are the first round's (the calibration's run is its
    first pair's large block)."""
    monkeypatch.setattr(complexity, "FLOOR", 0.0)
    runs = {"large": 0}

    def make(n: int) -> Callable[[], object]:
        work, burden = _linear(n), _linear(4 * n)

        def disturbed() -> None:
            runs["large"] += 1
            if runs["large"] <= complexity.REPEAT:
                burden()
            work()

        return disturbed if n > 100_000 else work

    growth = assert_linear(make, 100_000)
    first = growth.pairs[: complexity.REPEAT]
    assert min(large / small for small, large in first) > complexity.LIMIT, first
    assert len(growth.pairs) > complexity.REPEAT, growth
