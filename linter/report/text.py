"""Terminal output, as compilers and ruff print it: one line per finding,
`path:line:col: severity [rule] summary`, then one summary line.

Why short by default: a pre-commit hook or a CI log is read by scrolling; 300 findings of 1,400
characters each hide the one that matters. The line says where, how bad, which rule and the
point in one sentence (`Finding.summary`, else the message's first sentence), cut so that no
line passes `LINE_WIDTH` (unless the path alone is that long: a path is never cut, editors jump
to it). Everything else is one flag away: `--show-fixes` adds the fix under each line,
`--verbose` the whole message, the evidence, the fix, the statement and the rule's page;
`innolint explain RULE` the rule's documentation. Info findings are counted in one line unless
asked for (`show_info`), as their severity says: advice, not problems.

Every field from input goes through `human` (a table named "x\\n::error ..." must not print a
live workflow command when pre-commit runs in CI), every line through `safe_line`. Colour is
added around fields already made safe, and only when `colour` is set (`use_colour` decides:
a terminal, `NO_COLOR`, `FORCE_COLOR`).
"""

from __future__ import annotations

import os
import textwrap
from collections import Counter
from collections.abc import Mapping
from typing import TextIO

from linter.rules.findings import Diagnostic, Finding, Report
from linter.report import copies_text, human, safe_line, valid_unicode

#: no line of the default output is longer (the path excepted)
LINE_WIDTH = 200
#: the summary part of a line is at most this long
SUMMARY_WIDTH = 150
#: the summary keeps at least this much however long the path
_SUMMARY_FLOOR = 60
#: `--verbose` wraps the message and the evidence at this width
_WRAP = 100

_RESET = "\x1b[0m"
_STYLE = {
    "error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[1;34m",
    "path": "\x1b[1m", "rule": "\x1b[36m", "fix": "\x1b[32m", "dim": "\x1b[2m", "total": "\x1b[1m",
}


class TextOptions:
    """What the text report shows. The defaults are the command line's defaults: one line per
    finding, info findings counted, no colour."""

    __slots__ = ("verbose", "show_fixes", "show_info", "colour", "quiet", "statistics", "inputs")

    def __init__(
        self, *, verbose: bool = False, show_fixes: bool = False, show_info: bool = False, colour: bool = False,
        quiet: bool = False, statistics: bool = False, inputs: str = "file",
    ) -> None:
        self.verbose = verbose
        self.show_fixes = show_fixes or verbose
        self.show_info = show_info
        self.colour = colour
        #: only the findings: no summary line, no line about hidden info findings
        self.quiet = quiet
        #: one line per rule with its count instead of one line per finding
        self.statistics = statistics
        #: what the run read, for the summary line: "file" (check), "schema" (audit)
        self.inputs = inputs


def use_colour(stream: TextIO, choice: str = "auto", environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour output written to `stream`: `choice` "always"/"never" (`--color`) wins;
    else `NO_COLOR` set and not empty turns colour off (no-color.org), else `FORCE_COLOR` set and
    not empty (nor "0" or "false") turns it on (CI logs that render colour), else colour when
    `stream` is a terminal and `TERM` is not "dumb". NO_COLOR is read before FORCE_COLOR, as
    Python's own `_colorize` does. A report written to a file (`--output`) is never coloured:
    the caller does not ask."""
    if choice != "auto":
        return choice == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    force = env.get("FORCE_COLOR")
    if force:
        return force.strip().lower() not in ("0", "false")
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def render(report: Report, options: TextOptions | None = None) -> str:
    options = options or TextOptions()
    report = valid_unicode(report)
    paint = _painter(options.colour)
    items = sorted([*report.findings, *report.diagnostics], key=lambda item: item.sort_key())
    lines: list[str] = []
    if options.statistics:
        lines.extend(statistics_lines(items, paint))
    else:
        for item in items:
            if item.severity == "info" and not options.show_info:
                continue
            lines.extend(_item_lines(item, options, paint))
        hidden = [item for item in items if item.severity == "info"] if not options.show_info else []
        if hidden and not options.quiet:
            lines.append(paint("dim", hidden_info_line(hidden)))
    if not options.quiet:
        lines.append(paint("total", summary_line(report, options.inputs)))
    return "".join(safe_line(line) + "\n" for line in lines)


def _painter(colour: bool):  # type: ignore[no-untyped-def]
    if not colour:
        return lambda style, text: text
    return lambda style, text: f"{_STYLE[style]}{text}{_RESET}" if text else text


def headline(item: Finding | Diagnostic) -> str:
    """The point of a finding in one sentence: its summary, else its message's first sentence."""
    summary = getattr(item, "summary", None)
    return summary if summary else first_sentence(item.message)


def first_sentence(message: str) -> str:
    """`message` up to its first sentence end: a `.` followed by a space or the end, outside
    parentheses, brackets, backticks and quotes (a name or a number like 8.4 never ends it).
    One pass, linear."""
    depth = 0
    quote = ""
    for position, char in enumerate(message):
        if quote:
            if char == quote:
                quote = ""
        elif char in "`'\"":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth = max(depth - 1, 0)
        elif char == "." and depth == 0 and (position + 1 == len(message) or message[position + 1] == " "):
            return message[: position + 1]
    return message


def shorten(text: str, width: int) -> str:
    """`text` cut to at most `width` characters at a space, with `...` when cut."""
    if len(text) <= width:
        return text
    cut = text[: max(width - 3, 1)]
    space = cut.rfind(" ")
    if space >= width // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "..."


def _item_lines(item: Finding | Diagnostic, options: TextOptions, paint) -> list[str]:  # type: ignore[no-untyped-def]
    path = human(item.path)
    prefix_plain = f"{path}:{item.line}:{item.column}: {item.severity} [{item.rule}] "
    count = getattr(item, "count", 1)  # a finding grouped across tenant schemas stands for `count` tables
    copies = f" (in {count:,} tenant schemas)" if count > 1 else ""
    room = max(min(SUMMARY_WIDTH, LINE_WIDTH - len(prefix_plain)), _SUMMARY_FLOOR) - len(copies)
    point = shorten(human(headline(item)), room) + copies
    lines = [f"{paint('path', f'{path}:{item.line}:{item.column}:')} {paint(item.severity, item.severity)} "
             f"[{paint('rule', item.rule)}] {point}"]
    if options.verbose:
        lines.extend(_wrapped(human(item.message), "    ", "    "))
        every = copies_text(item) if isinstance(item, Finding) else None
        if every:
            lines.extend(_wrapped(human(every), "    copies: ", "            "))
        evidence = getattr(item, "evidence", None)
        if evidence:
            lines.extend(_wrapped(human(evidence), "    evidence: ", "              "))
    fix = getattr(item, "fix", None)
    if fix and options.show_fixes:
        fix_lines = human(fix.replace("\r\n", "\n"), keep="\n").split("\n")
        lines.append("    fix: " + paint("fix", fix_lines[0]))
        lines.extend("         " + paint("fix", line) for line in fix_lines[1:])
    if options.verbose:
        excerpt = getattr(item, "excerpt", None)
        if excerpt:
            lines.append(f"    statement: {human(excerpt)}")
        lines.append("    rule: " + paint("dim", rule_link(item.rule)))
    return lines


def _wrapped(text: str, first: str, rest: str) -> list[str]:
    """`text` wrapped at `_WRAP` columns (never inside a word: names stay whole)."""
    return textwrap.wrap(text, _WRAP, initial_indent=first, subsequent_indent=rest, break_long_words=False,
                         break_on_hyphens=False) or [first.rstrip()]


def rule_link(rule: str) -> str:
    """Where to read about a rule: its page on the web when innolint knows where its repository
    is (`linter.rules.docs.rule_page_url`), else the command that prints it."""
    from linter.rules.docs import rule_page_url

    return rule_page_url(rule) or f"innolint explain {rule}"


def statistics_rows(items: list[Finding | Diagnostic]) -> list[dict[str, object]]:
    """Per rule, most frequent first: {"rule", "count", "severities": {severity: count}}
    (`--statistics`; `--format json` prints these rows)."""
    by_rule: dict[str, Counter[str]] = {}
    for item in items:
        by_rule.setdefault(item.rule, Counter())[item.severity] += 1
    rows = [{"rule": rule, "count": sum(counts.values()),
             "severities": {s: counts[s] for s in ("error", "warning", "info") if counts[s]}}
            for rule, counts in by_rule.items()]
    return sorted(rows, key=lambda row: (-int(row["count"]), str(row["rule"])))  # type: ignore[call-overload]


def statistics_lines(items: list[Finding | Diagnostic], paint=None) -> list[str]:  # type: ignore[no-untyped-def]
    """One line per rule, most frequent first: the count, the rule, its count per severity."""
    paint = paint or _painter(False)
    rows = statistics_rows(items)
    width = max((len(str(row["rule"])) for row in rows), default=0)
    lines = []
    for row in rows:
        severities = ", ".join(f"{n} {s}" for s, n in row["severities"].items())  # type: ignore[attr-defined]
        lines.append(f"{row['count']:>6}  {paint('rule', str(row['rule']).ljust(width))}  {severities}")
    return lines


def hidden_info_line(hidden: list[Finding | Diagnostic]) -> str:
    """One line for the info findings and diagnostics not shown, by rule, most frequent first."""
    counts = Counter(item.rule for item in hidden)
    listed = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
    shown = ", ".join(f"{rule} {count}" for rule, count in listed[:4])
    if len(listed) > 4:
        shown += f", {len(listed) - 4} more rule{'s' if len(listed) > 5 else ''}"
    return f"{len(hidden)} info not shown ({shown}): --show-info lists them"


def summary_line(report: Report, inputs: str = "file") -> str:
    by_severity = Counter(f.severity for f in report.findings)
    stats = report.stats
    parts = [f"{by_severity[s]} {s}{'s' if by_severity[s] != 1 and s != 'info' else ''}" for s in ("error", "warning", "info")]
    found = len(report.findings)
    return (
        f"{found} finding{'s' if found != 1 else ''} ({', '.join(parts)}), "
        f"{len(report.diagnostics)} diagnostic{'s' if len(report.diagnostics) != 1 else ''}; "
        f"{stats.files} {inputs}{'s' if stats.files != 1 else ''}, {stats.statements} statements, "
        f"{stats.tables} tables in {stats.seconds:.2f}s"
    )
