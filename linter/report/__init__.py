"""Reporters: each turns a Report into one output format. They see findings and nothing else."""

from __future__ import annotations

import re

from linter.findings import Diagnostic, Finding, Report

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


def _unprintable(value: object) -> bool:
    return isinstance(value, str) and not value.isascii() and re.search(_SURROGATE, value) is not None


def _repaired(item: Finding | Diagnostic) -> Finding | Diagnostic:
    changes = {name: printable(value) for name, value in item.__dict__.items() if _unprintable(value)}
    return item.model_copy(update=changes) if changes else item


def valid_unicode(report: Report) -> Report:
    """`report` itself, or when some of its text is not valid Unicode a copy with that text `printable`.

    Every reporter starts with this, so no output fails to encode whatever the paths were.
    """
    items = (*report.findings, *report.diagnostics)
    if not any(_unprintable(value) for item in items for value in item.__dict__.values()):
        return report
    return report.model_copy(
        update={"findings": [_repaired(f) for f in report.findings],
                "diagnostics": [_repaired(d) for d in report.diagnostics]}
    )
