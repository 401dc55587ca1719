"""Record and FrozenRecord: what @dataclass generates, written once, for classes created at import.

Why: @dataclass compiles each generated method from source text when the class is created
(`exec`, ~0.1 ms a method, six for a frozen class), and innolint defines dozens of such classes
that every run imports: together they cost a pre-commit run more than linting the file. A class
deriving from these writes its `__init__` by hand and names its fields in `__match_args__` (and
in `__slots__` where the dataclass had slots=True); the rest behaves as the dataclass did:

- `==`: same class and equal fields, in order (else NotImplemented);
- `repr`: `Name(field=value, ...)`;
- Record is unhashable (a dataclass with eq and not frozen); FrozenRecord hashes its fields and
  refuses assignment and deletion with dataclasses.FrozenInstanceError (its `__init__` sets
  fields with `object.__setattr__`, as a frozen dataclass's does) and copies and pickles
  through `__init__`.

Classes that `dataclasses.fields`, `replace` or `astuple` are used on stay real dataclasses.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, ClassVar


class Record:
    __slots__ = ()
    #: the fields, in order: what ==, repr and match patterns use
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined, no-any-return]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{self.__class__.__qualname__}({fields})"


class FrozenRecord(Record):
    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        # copy and pickle through __init__ (which takes the fields in order): state cannot be set
        return (self.__class__, self._values())
