"""How a table's or a column's name is cut into words (`linter.schema.entities.name_tokens`), which
every reference read from a name rests on (link-table-primary-key, uuid-primary-key,
wide-primary-key). A snake_case name takes a shortcut (cut at its underscores); any other goes
through the placeholder, camel-case and separator expressions. Both must cut alike."""

from __future__ import annotations

import random
import re

import pytest

from linter.schema import entities


def _general(name: str) -> tuple[str, ...]:
    """The expressions' cut, for every name (what the shortcut must agree with)."""
    name = re.sub(r"%[^%]*%|@[^@]*@|\{[^}]*\}|\$\w+", "_", name)
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return tuple(t for t in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if t)


@pytest.mark.parametrize("name, words", [
    ("geo_zone_id", ("geo", "zone", "id")),
    ("GroupId", ("group", "id")),
    ("t00042_user_roles", ("t00042", "user", "roles")),
    ("__user__id_", ("user", "id")),
    ("%prefix%users", ("users",)),
    ("{tenant}_orders", ("orders",)),
    ("order-items", ("order", "items")),
    ("", ()),
])
def test_names_are_cut_into_words(name: str, words: tuple[str, ...]) -> None:
    assert entities.name_tokens.__wrapped__(name) == words  # type: ignore[attr-defined]


def test_the_snake_case_shortcut_cuts_as_the_expressions_do() -> None:
    rng = random.Random(20261203)
    alphabet = "abz09_" * 4 + "AZ%@{}$-. é"
    names = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(20_000)]
    names += [f"t{i:05d}_{word}" for i, word in enumerate(("users", "user_roles", "a__b", "_x_", "x9_y"))]
    snake = 0
    for name in names:
        assert entities.name_tokens.__wrapped__(name) == _general(name), name  # type: ignore[attr-defined]
        snake += bool(re.fullmatch(r"[a-z0-9_]+", name))
    assert snake > 1_000  # the shortcut was taken, and often
