"""A rule's option types (`linter.rules.options.OptionType`) as the pydantic types that validate a
configuration file's values, and so as JSON Schema (`innolint rules --format json`)."""

from __future__ import annotations

from typing import Annotated, Any

from annotated_types import Ge, Gt, Le
from pydantic import AfterValidator, Field

from linter.rules.options import OptionType, size_bytes
from linter.schema.target import TARGET_PATTERN, TARGETS, Target


def _target_name(value: str) -> str:
    """A line or a full version (`Target.parse` says why another is refused)."""
    Target.parse(value)
    return value


#: a target as the configuration names it: a line (`TARGETS`) or a full version (`mysql-8.0.36`);
#: the JSON Schema offers the lines and the pattern
TargetName = Annotated[str, Field(json_schema_extra={"pattern": TARGET_PATTERN, "examples": list(TARGETS)}),
                       AfterValidator(_target_name)]


def annotation(option: OptionType) -> Any:
    """The pydantic type of values of this option type."""
    if option.kind == "size":
        return Annotated[int | str, AfterValidator(size_bytes)]
    if option.kind == "strings":
        return list[str]
    if option.kind == "targets":
        return list[TargetName]  # type: ignore[valid-type]
    base: Any = int if option.kind == "integer" else float
    bounds = [Ge(option.ge)] if option.ge is not None else []
    bounds += [Gt(option.gt)] if option.gt is not None else []
    bounds += [Le(option.le)] if option.le is not None else []
    return Annotated[(base, *bounds)] if bounds else base  # type: ignore[return-value]
