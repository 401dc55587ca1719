"""Rule selection on the command line, as ruff has it: `--select`, `--extend-select`, `--ignore`.

A selector is a rule id, a prefix of ids that ends where a `-` does (`uuid` selects
uuid-primary-key, `tenant` tenant-tablespace; `re` selects nothing: half a word would surprise),
or `ALL`. Values are comma-separated and the flags may be repeated.

What runs for a file: `--select` replaces the rules its configuration enables (the command line
beats files, as `--target` does), except that parse, replay and I/O errors stay (a statement
innolint could not read hides tables from every rule: selecting rules must not hide that; ignore
them by name to drop them); `--extend-select` adds rules, even ones the configuration disables;
`--ignore` removes rules, and wins over both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from linter.config.defaults import ConfigError, rule_ids
from linter.suggest import did_you_mean

#: reported whatever --select says: what innolint could not read or follow
INPUT_DIAGNOSTICS = frozenset({"parse-error", "replay-error", "io-error"})


class RuleSelection:
    """The three lists, each resolved to rule ids when built (an unknown selector is a ConfigError
    with a did-you-mean)."""

    __slots__ = ("select", "extend", "ignore", "flags")

    def __init__(
        self, select: Iterable[str] | None = None, extend: Iterable[str] = (), ignore: Iterable[str] = (),
    ) -> None:
        known = list(rule_ids())
        self.select = None if select is None else resolve(select, known, "--select")
        self.extend = resolve(extend, known, "--extend-select")
        self.ignore = resolve(ignore, known, "--ignore")
        #: how `innolint config` names where a rule's `enabled` came from
        self.flags = "/".join(flag for flag, given in (("--select", select is not None), ("--extend-select", extend),
                                                      ("--ignore", ignore)) if given)

    @classmethod
    def from_flags(cls, select: Sequence[str] | None, extend: Sequence[str] | None,
                   ignore: Sequence[str] | None) -> RuleSelection:
        """From argparse's `append` lists of comma-separated values (None: the flag not given)."""
        def split(values: Sequence[str] | None) -> list[str]:
            return [part.strip() for value in values or () for part in value.split(",") if part.strip()]

        return cls(None if select is None else split(select), split(extend), split(ignore))

    def disabled(self, configured: frozenset[str]) -> frozenset[str]:
        """The rules not to run, given those a file's configuration disables."""
        every = set(rule_ids())
        enabled = every - configured
        if self.select is not None:
            enabled = set(self.select) | (enabled & INPUT_DIAGNOSTICS)
        enabled |= self.extend
        enabled -= self.ignore
        return frozenset(every - enabled)


def resolve(selectors: Iterable[str], known: Sequence[str], flag: str) -> frozenset[str]:
    """The rule ids `selectors` name; ConfigError naming the flag for one that names none."""
    found: set[str] = set()
    for selector in selectors:
        matched = matching(selector, known)
        if not matched:
            raise ConfigError(f"{flag} {selector}: no rule is named so or starts so{did_you_mean(selector, known)}; "
                              "`innolint rules` lists them")
        found |= matched
    return frozenset(found)


def matching(selector: str, known: Sequence[str]) -> set[str]:
    """The ids a selector names: `ALL`, an id, or a prefix ending where a `-` does (any case)."""
    wanted = selector.strip().lower()
    if wanted == "all":
        return set(known)
    if not wanted:
        return set()
    prefix = wanted if wanted.endswith("-") else wanted + "-"
    return {rule for rule in known if rule == wanted or rule.startswith(prefix)}
