"""A rule that fails on one table: an `internal-error` diagnostic, and the run goes on.

A check is code, and code meets input it was not written for (MariaDB's own test suite has a
table of 197 TEXT columns and no key; a row-size message once indexed its empty list of columns).
One such failure must not take the report with it: ruff and sqlfluff report what they could not
check and keep going. Every other table is still judged by the rule, every other rule still runs,
and the failure is a diagnostic naming the rule, the table and where in innolint it failed, so that
the findings missing for that table are said, not silently absent.

The engine makes one `CheckFailures` per run of the checks (`Engine.run_checks`) and hands it to
the rules in the `CheckContext` (`failures`); `linter.rules.copies.judged_once`, where rules judge a
table, catches per table, and the engine per rule (a failure outside any one table's judgement).
Without a `CheckFailures` (a test calling a check directly) failures propagate.
"""

from __future__ import annotations

import os
import traceback

from linter.rules.findings import Diagnostic, Severity
from linter.schema.model import Table

RULE = "internal-error"
SEVERITY: Severity = "error"
DESCRIPTION = (
    "A rule failed on one table (a bug in innolint): its findings on that table are missing, every other finding "
    "is reported. The diagnostic names the rule, the table and the place in innolint's code; please report it."
)
#: the innolint source tree, to name the failing line relative to it
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class CheckFailures:
    """The failures of one run of the checks, as diagnostics (`diagnostics`). `rule`: the rule
    running now (set by the engine before it runs each one)."""

    __slots__ = ("rule", "diagnostics", "fallback_path")

    def __init__(self, fallback_path: str = "") -> None:
        self.rule = ""
        self.diagnostics: list[Diagnostic] = []
        #: where a failure outside any one table is reported when the model has no table to name
        self.fallback_path = fallback_path

    def failed(self, error: BaseException, table: Table | None = None, copies: int = 1) -> None:
        """`self.rule` raised `error` judging `table` (None: outside any one table's judgement),
        which stands for `copies` tables (a tenant definition's copies judged once)."""
        where = table.defined if table is not None else None
        about = (f"table {table.qualified_name}" + (f" (and the {copies - 1} copies judged with it)" if copies > 1 else "")
                 if table is not None else "the schema as a whole")
        message = (f"internal error: {self.rule} failed on {about}: {type(error).__name__}: {_short(str(error))} "
                   f"(at {_innermost(error)}). Its findings there are missing; every other finding is reported. "
                   "This is a bug in innolint: please report it with this message.")
        self.diagnostics.append(Diagnostic(
            rule=RULE, severity=SEVERITY, path=where.path if where is not None else self.fallback_path,
            line=where.line if where is not None else 0, column=where.column if where is not None else 1,
            message=message,
        ))


def _short(text: str, width: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _innermost(error: BaseException) -> str:
    """`file:line in function` of the innermost frame of innolint's own code the error passed."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if os.path.abspath(f.filename).startswith(_ROOT + os.sep)] or frames
    if not ours:
        return "unknown place"
    frame = ours[-1]
    return f"{os.path.relpath(frame.filename, _ROOT)}:{frame.lineno} in {frame.name}"
