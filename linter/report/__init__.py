"""Reporters: each turns a Report into one output format. They see findings and nothing else.

Text for people (the text format, workflow commands, Markdown, check-run annotations) shows every
field that comes from input (paths, names, and the messages, evidence, fixes and excerpts that
quote them) through `human`: a name is whatever a pull request made it. JSON and SARIF are data
and stay exact (JSON escapes control characters itself).
"""

from __future__ import annotations

import re
import unicodedata

from linter.rules.findings import Diagnostic, Finding, Report

#: left to `re` to compile on first use: only text that is not ASCII is searched
_SURROGATE = "[\ud800-\udfff]"


def printable(text: str) -> str:
    """`text` as valid Unicode: lone surrogates become the bytes they stand for, written `\\xff`.

    A file name that is not UTF-8 reaches Python with its bytes as lone surrogates (`os.fsdecode`'s
    surrogateescape, in argv and directory walks); written as they are they crash the writer
    (UnicodeEncodeError) and make JSON invalid. Bytes that are UTF-8 together read as that text.
    """
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that stands for no byte
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


#: characters shown as escapes: categories Cc (C0, DEL, C1), Cf (bidi embeddings, overrides and
#: isolates, zero-width and other invisible format characters), Zl and Zp (line and paragraph
#: separators); plus the two the caller may keep
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(char: str) -> str:
    short = _SHORT_ESCAPES.get(char)
    if short is not None:
        return short
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def human(text: str, *, keep: str = "") -> str:
    """`text` from input made safe to show to people, in a terminal or a CI log.

    - Control characters (C0 with newline, CR, tab and ESC; DEL; C1), bidi embeddings, overrides
      and isolates (U+202A-202E, U+2066-2069), zero-width and other invisible format characters,
      and line or paragraph separators are shown as escapes (`\\n`, `\\x1b`, `\\u202e`): a name can
      neither start a new line, move the cursor, reorder what is shown, nor hide a character.
      Characters in `keep` stay as they are: "\\n" for a fix's SQL, "\\r\\n" for a workflow
      command's message, whose protocol escapes them itself.
    - GitHub's runner reads a log line as a workflow command when it starts with `::` after
      leading spaces, or when it holds `##[` anywhere (the legacy form): a line start `::` gets
      its first `:` shown as `\\x3a`, and `##[` is shown as `##\\x5b` (see `safe_line`).
    - Bytes that are not UTF-8 (lone surrogates in names) are shown as `\\xff` (`printable`).
    """
    if text.isascii() and text.isprintable() and "##[" not in text and not text.lstrip().startswith("::"):
        return text  # the common case: plain ASCII
    if not text.isascii() and re.search(_SURROGATE, text):
        text = printable(text)
    out = []
    for char in text:
        if char in keep or (char.isprintable() and char != "\x85"):
            out.append(char)
        elif unicodedata.category(char) in _HIDDEN_CATEGORIES:
            out.append(_escape_char(char))
        else:
            out.append(char)  # spaces other than " " (no-break, ideographic): visible as space
    shown = "".join(out)
    return "\n".join(safe_line(line) for line in shown.split("\n")) if "\n" in keep else safe_line(shown)


def safe_line(line: str) -> str:
    """One line of log output (fields already through `human`) that GitHub's runner cannot read
    as a workflow command: a line whose start after spaces is `::` gets that `:` shown as `\\x3a`
    (a path `:` followed by `:1:1: ...` makes one), and `##[` formed across fields is shown as
    `##\\x5b`."""
    if "##[" in line:
        line = line.replace("##[", "##\\x5b")
    stripped = line.lstrip()
    if stripped.startswith("::"):
        line = line[: len(line) - len(stripped)] + "\\x3a" + stripped[1:]
    return line


def _unprintable(value: object) -> bool:
    if isinstance(value, tuple):  # Finding.schemas
        return any(_unprintable(v) for v in value)
    return isinstance(value, str) and not value.isascii() and re.search(_SURROGATE, value) is not None


def _repaired(item: Finding | Diagnostic) -> Finding | Diagnostic:
    changes = {name: tuple(printable(v) for v in value) if isinstance(value, tuple) else printable(value)
               for name, value in zip(item.__match_args__, item._values()) if _unprintable(value)}
    return item.replace(**changes) if changes else item


def valid_unicode(report: Report) -> Report:
    """`report` itself, or when some of its text is not valid Unicode a copy with that text `printable`.

    Every reporter starts with this, so no output fails to encode whatever the paths were.
    """
    items = (*report.findings, *report.diagnostics)
    if not any(_unprintable(value) for item in items for value in item._values()):
        return report
    return Report([_repaired(f) for f in report.findings], [_repaired(d) for d in report.diagnostics],  # type: ignore[misc]
                  report.stats, version=report.version)


def copies_text(finding: Finding, shown: int = 3) -> str | None:
    """What a grouped finding (`Finding.count` > 1) stands for, in one sentence for people, or
    None: "The same in 2,000 tenant schemas (tenant_00001, tenant_00002, tenant_00003 and 1,997
    more)." Names come from input: the caller shows the sentence through `human` or its format's
    escaping."""
    if finding.count <= 1:
        return None
    names = list(finding.schemas[:shown])
    more = finding.count - len(names)
    listed = ", ".join(names) + (f" and {more:,} more" if more > 0 else "")
    return f"The same in {finding.count:,} tenant schemas ({listed})."
