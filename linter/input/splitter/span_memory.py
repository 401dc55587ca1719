"""The fast lane's memory of what it read (`SpanMemory`): spans of text it took, by their first
`SPAN_KEY` characters, with what it made of them, so that a repeat (the next tenant of a
schema-per-tenant dump) is recognised with `str.startswith` instead of being read again. The fast
lane (`linter.input.splitter.fast_lane`) looks spans up and replays them; this module decides what
is kept and within which bounds."""

from __future__ import annotations



#: The fast lane's memory (`SpanMemory`, the scanner's `memory`). A schema-per-tenant dump repeats each table's
#: span (the SET and LOCK lines, the comments, DROP TABLE, CREATE TABLE ...) once per tenant, byte
#: for byte but for `AUTO_INCREMENT=` on a CREATE TABLE's last line. A regex match of the fast lane
#: depends on nothing but the characters it spans: it ends at a newline and looks no further, and
#: a span is remembered only when no DELIMITER line or directive starts inside it, so none starts
#: inside a repeat either. Where the text starts with a remembered span again, the match is that
#: span again: `str.startswith` (a memcmp) replaces the regex, and the statement's text, comments
#: and line numbers are reused. A statement of several lines is remembered up to its last line
#: (`head`) and the rest (`rest`) apart: if only the rest differs, the statement's text is the
#: remembered part plus the rest read by `_tail`, from a point checked once to be outside quotes
#: and comments (`_top_level`). Spans are found by their first `SPAN_KEY` characters.
#:
#: An entry is a tuple: (head, rest, statements counted but not built, the statement's text (None:
#: it is counted too), its offset in the span, whether a run of skipped statements came before it
#: (then the comments waiting before the span were the run's, not its own), the comments that lead
#: it, its executable-comment version, newlines in its text, newlines in the span before it, its
#: column when one of those comes before it, newlines in the span, and for a cut: None until it is
#: checked, then False (inside a quote or comment) or the statement's text up to the cut and the
#: newlines in that (no cut: False)).
SPAN_KEY = 256
#: no span longer than this is remembered, and the memory is emptied when it would hold more
_SPAN_MAX = 1 << 16
_SPAN_BUDGET = 1 << 23
#: how many spans in a row are remembered without one being met again, before only one in
#: `SPAN_SAMPLE` is (a schema-per-tenant dump's tenant has a few hundred statements at most)
SPAN_TRIES = 512
SPAN_SAMPLE = 16


class SpanMemory:
    """Remembered spans (`spans`: the first `SPAN_KEY` characters -> an entry, see above), the
    characters they hold (`chars`, at most `_SPAN_BUDGET`: past that the memory starts again
    empty), and how many spans were offered since one was met again (`misses`, which the fast lane
    counts to sample after `SPAN_TRIES`)."""

    __slots__ = ("spans", "chars", "misses")

    def __init__(self) -> None:
        self.spans: dict[str, tuple] = {}
        self.chars = 0
        self.misses = 0

    def remember(
        self, key: str, buf: str, at: int, cut: int, end: int, counted: int, text: str | None, start: int,
        after_run: bool, found: tuple[str, ...], executable: str | None, lines: int,
    ) -> None:
        """Keep what the fast lane made of the span `buf[at:end]` under `key`, cut at `cut` (the
        statement's last line starts there: see above): `counted` statements counted but not
        built, then the statement `text` (None: counted too) starting at `start`, after a run of
        skipped statements or not, led by the comments `found`, read from the executable comment
        `executable`, with `lines` line breaks. A span over `_SPAN_MAX` is not kept."""
        if end - at > _SPAN_MAX:
            return
        if self.chars + end - at > _SPAN_BUDGET:
            self.spans.clear()
            self.chars = 0
        nl_before = buf.count("\n", at, start)
        self.spans[key] = (
            buf[at:cut], buf[cut:end], counted, text, start - at, after_run, found, executable, lines,
            nl_before, start - buf.rfind("\n", at, start) if nl_before else 0, buf.count("\n", at, end),
            None if cut < end else False,
        )
        self.chars += end - at
