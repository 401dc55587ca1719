"""Split SQL text into statements, with positions. No sqlglot here.

The splitter follows the `mysql` command-line client, because that is what turns a schema file
into the statements a server receives: quotes ('...', "...", `...`) and comments (`-- `, `#`,
`/* */`; and `--` followed by anything where the client holds nothing of a statement yet, which it
drops: `linter.input.splitter.lexis._client_comment_run`) hide delimiters; executable comments (`/*!50100 ... */`, MariaDB `/*M!100301 ... */`)
are SQL where the target runs them (`executable_reading`) and comments where it does not;
`DELIMITER xx` at the start of a line changes the delimiter for the rest of the file (it is a
client command, never a statement), and so do the client's other commands what they do
(`\\g`, `\\u db`, `use db` alone on a line, `\\q`: `_CLIENT_COMMANDS`). Under a delimiter other
than `;` the client sends everything up to it as one multi-statement and the server runs each
`;`-separated statement in turn, so a `;` still ends a statement there, except in a compound
statement (a stored program, or a MariaDB block such as BEGIN NOT ATOMIC or IF), which ends where
its structure ends (`linter.input.splitter.compound`); a block then yields the statements it runs. That is how a
file whose `DELIMITER //` is never reset still yields its tables one by one. `SET sql_mode`
changes how quotes read from there on (`linter.input.splitter.sqlmode`); statements reach the parser in the
default quoting.

It streams: text arrives in chunks of any size, a chunk boundary may fall anywhere, and only the
statement being read plus a small look-ahead tail is held, so a dump of any size splits in
bounded memory; one statement is held up to `MAX_STATEMENT_CHARS`, and past that only counted
and reported. Every cost is linear in the input (tests/test_split_complexity.py): no regex here
can backtrack over what it read (loops are possessive or their alternatives start with distinct
characters), and nothing is read again per chunk. It does not loop per character in Python: one
compiled regex per state swallows plain text and whole quoted strings and stops only where
something can happen (the delimiter, a comment opener, an unclosed quote, a backslash, a line
that may hold DELIMITER); between statements, runs of `--` comment lines and mysqldump's one-line
`/*!40101 SET ... */;` are each taken by one regex. Lines are counted with `str.count` over spans
when a position is needed, and statement text is built from slices. What the fast lane read is
remembered by its text: a schema-per-tenant dump repeats every table's lines once per tenant, and
a repeat is recognised with `str.startswith` instead of being read again (see `_SPAN_KEY`).

What the splitter itself has to report (an unterminated quote, a statement over the cap, a
command it cannot follow, DDL whose running is uncertain) goes to the stream's `notes`, which the
engine turns into diagnostics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from linter.input.splitter.lexis import MAX_STATEMENT_CHARS
from linter.input.splitter.repeats import Repeats
from linter.input.splitter.scanner import Splitter
from linter.input.statement import Note, Segment, Statement, TenantBlock

if TYPE_CHECKING:
    from linter.schema.target import Target


def split_stream(
    chunks: Iterable[str], path: str, *, migration_format: str | None = None, target: Target | None = None,
    skip_words: frozenset[str] | None = None, skip_pattern: str = "", unless: str = "",
    max_statement: int = MAX_STATEMENT_CHARS, segment: Segment | None = None,
    blocks: Callable[[TenantBlock], bool] | None = None,
) -> StatementStream:
    """Yield the statements of the text made of `chunks`, each as soon as it is complete.

    `path` is only copied into each Statement. `migration_format` is the name of the format of the
    migration history the file belongs to (`linter.input.migrations.formats`; None: a plain file,
    which the mysql client runs), which the splitter asks: the format's annotations are obeyed
    (`Format.section`: a down section is skipped, a block from `begin` to `end` is one statement
    whatever it contains), and the client's commands hold only where the client runs the files
    (`Format.client`). `target`: the server executable comments are evaluated against (`/*!80023 ...*/`
    runs on a server of that version or later; None: every one runs) and whose support of compound
    statements decides whether a MariaDB block runs. Broken input (an unterminated quote or
    comment, NUL bytes, junk) never raises: what there is becomes a statement and the parser
    reports it; what the splitter itself has to say goes to the stream's `notes`.

    `skip_words`: upper-case first words of statements the caller will not look at (INSERT,
    SET, LOCK ...). Such statements may be counted in the stream's `skipped` instead of being
    built (a dump has hundreds of thousands), except one whose text or comments hold `unless`.
    `skip_pattern`: a regex matching the whole text of other one-line statements that may be
    counted the same way (mysqldump's `ALTER TABLE `t` DISABLE KEYS`); it must not match `;`,
    quotes, comments or a newline.

    A format that reads a file otherwise than as text to split (`Format.reads_itself`) reads it
    (`Format.read_chunks`): its directives become `Segment`s in the chunks; `segment`, how the
    whole file is split when the history that holds it says so (a changelog's settings for the
    file). A `Note` among the chunks is reported as it is.

    `blocks`: the caller takes a dump's repeated schema blocks (`linter.input.tenant_blocks`): the
    stream then holds `BlockMark`s among the statements, and a block this says True of (a repeat
    of a template the caller recorded) comes as one mark instead of its statements (plain files
    only: a migration format's own reading stays as it is).
    """
    fmt = None
    if migration_format is not None:
        from linter.input.migrations.formats import named

        fmt = named(migration_format)
    splitter = Splitter(path, fmt, skip_words, unless, skip_pattern, target, max_statement)
    if blocks is not None and segment is None and fmt is None:
        from linter.input.tenant_blocks import tenant_blocks

        splitter.repeats = Repeats(blocks)
        chunks = tenant_blocks(chunks)  # type: ignore[assignment]
    if fmt is not None and fmt.reads_itself:
        chunks = fmt.read_chunks(chunks, path, target=target, segment=segment)
    elif segment is not None:
        chunks = _prefixed(segment, chunks)
    return StatementStream(splitter, chunks)


def _prefixed(segment: Segment, chunks: Iterable[str]) -> Iterator[str | Segment]:
    yield segment
    yield from chunks


class StatementStream(Iterator[Statement]):
    """The statements of one input, and how many were counted but not built (see `split_stream`)."""

    def __init__(self, splitter: Splitter, chunks: Iterable[str]) -> None:
        self._splitter = splitter
        self._statements = splitter.run(chunks)

    def __iter__(self) -> Iterator[Statement]:
        return self._statements  # a `for` loop resumes the generator directly, not through __next__

    def __next__(self) -> Statement:
        return next(self._statements)

    @property
    def skipped(self) -> int:
        return self._splitter.skipped

    @property
    def directives(self) -> list[tuple[int, str]]:
        """(line, text) of each comment line read between statements that holds `unless` (the
        `-- innolint:` directives), in file order; complete once the statements are exhausted.
        Comments inside a statement are in its text (`linter.rules.directives.comment_lines_in_text`)."""
        return self._splitter.leading.directives

    @property
    def notes(self) -> list[Note]:
        """What the splitter reported so far (complete once the statements are exhausted)."""
        return self._splitter.notes


# --- lexical pieces ---------------------------------------------------------------------------


