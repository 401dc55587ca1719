"""The run: inputs -> statements -> operations -> model -> checks -> one Report.

Streaming and per statement: a file is read in chunks, split into statements as they complete,
each statement parsed on its own (identical statements once, through `linter.parse.cache`: a
tenant dump repeats each CREATE TABLE thousands of times) and applied to the model. Only
the model is kept, never the file. Checks run once a unit of input (a file, or one migration
history) has been replayed.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from linter.parse import ops
from linter.rules import suppressions
from linter.rules.checkapi import Check, CheckContext
from linter.rules.failures import CheckFailures
from linter.config.settings import ConfigResolver, LoadedConfig
from linter.config.defaults import rule_ids
from linter.rules.directives import annotation_verbs, comments_in_text, parse_directives
from linter.input.file_access import lexically_within, repository_root, special_file, within
from linter.rules.findings import Diagnostic, Finding, Report, RunStats
from linter.rules.grouping import group_copies
from linter.input.git_changes import ChangeSet, edited_migrations, tables_named_by
from linter.input.migrations.files import detected_root, forget_listings
from linter.input.migrations.formats.base import HistoryNote
from linter.input.migrations.history import plan
from linter.parse.elements import Location
from linter.schema.model import SchemaModel, Table, is_engine_placeholder
from linter.parse.statement import glued_in_packet, may_fail
from linter.parse.tokens import ParseFailure
from linter.parse.cache import SKIP_PATTERN, SPLIT_SKIP_WORDS, ParseCache
from linter.record import Record
from linter.server.block_replay import Templates
from linter.server.key_refusals import KeyJudge
from linter.server.replay import Replayer
from linter.schema.refused import CannotFollow
from linter.input.source import InputError, discover, read_statements
from linter.input.migrations.orm_evidence import AppEvidence
from linter.input.statement import BlockMark, Segment, Statement
from linter.rules.suppressions import Suppression

if TYPE_CHECKING:
    from linter.schema.target import Target


class Unit(Record):
    """Files replayed into one model: a single file, or a migration directory in order
    (`migration_format`: the history's format, whose annotations the splitter obeys; None: plain
    files, which the mysql client runs). From a history also: `segments`, how a file is split when
    the history says so (`linter.input.statement.Segment`); `notes`, what is reported about the history
    (`linter.input.migrations.formats.base.HistoryNote`); `evidence`, what the application's model files say about
    its tables' keys (`linter.input.migrations.orm_evidence`), given to the checks in their context."""

    __match_args__ = ("files", "migration_format", "is_migration_history", "segments", "notes", "evidence", "one_change")
    files: list[str]
    migration_format: str | None
    is_migration_history: bool
    segments: dict[str, Segment]
    notes: list[HistoryNote]
    evidence: AppEvidence | None
    #: plain files that split one schema by table (`history.split_schemas`): one change, so a table
    #: one of them creates is new to the ALTERs of the others (no history's "earlier file")
    one_change: bool

    def __init__(
        self, files: list[str], migration_format: str | None = None, is_migration_history: bool = False,
        segments: dict[str, Segment] | None = None, notes: list[HistoryNote] | None = None,
        evidence: AppEvidence | None = None, one_change: bool = False,
    ) -> None:
        self.one_change = one_change
        self.files = files
        self.migration_format = migration_format
        self.is_migration_history = is_migration_history
        self.segments = {} if segments is None else segments
        self.notes = [] if notes is None else notes
        self.evidence = evidence


class UnitResult(Record):
    __match_args__ = ("model", "findings", "diagnostics", "statements", "suppressions", "touched", "bytes")
    model: SchemaModel
    findings: list[Finding]
    diagnostics: list[Diagnostic]
    statements: int
    #: `innolint: ignore` / `ignore-file` directives met in the unit's files
    suppressions: list[Suppression]
    #: tables created or altered by changed statements (changed-files mode only)
    touched: list[Table]
    #: bytes read from the unit's files
    bytes: int

    def __init__(
        self, model: SchemaModel, findings: list[Finding] | None = None,
        diagnostics: list[Diagnostic] | None = None, statements: int = 0,
        suppressions: list[Suppression] | None = None, touched: list[Table] | None = None,
        bytes: int = 0,
    ) -> None:
        self.model = model
        self.findings = [] if findings is None else findings
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.statements = statements
        self.suppressions = [] if suppressions is None else suppressions
        self.touched = [] if touched is None else touched
        self.bytes = bytes


class Progress(Protocol):
    """Told how a run advances (the CLI draws a progress bar from it on a terminal)."""

    def start(self, files: int, total_bytes: int) -> None: ...
    def read(self, nbytes: int, tables: int) -> None: ...
    def file_done(self) -> None: ...
    def finish(self) -> None: ...


class RunOptions(Record):
    """A run's set-up beyond its paths. `config` None: the defaults for every file (no search for
    configuration files); `changed_only`: the paths are the changed files (pre-commit);
    `changes`: changed files and lines known otherwise (`--since`, from git); `progress`: told
    how the run advances."""

    __match_args__ = ("config", "changed_only", "changes", "progress")
    config: ConfigResolver | None
    changed_only: bool
    changes: ChangeSet | None
    progress: Progress | None

    def __init__(
        self, config: ConfigResolver | None = None, changed_only: bool = False, changes: ChangeSet | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.config = config
        self.changed_only = changed_only
        self.changes = changes
        self.progress = progress


class Engine:
    """Parses, replays and checks. One engine can lint many units and shares its parse cache."""

    def __init__(self, context: CheckContext, checks: Sequence[Check] | None = None) -> None:
        if checks is None:
            from checks import ALL_CHECKS

            checks = ALL_CHECKS
        self.context = context
        self.checks = list(checks)
        #: the rules whose findings speak for every tenant copy already (`Check.covers_copies`)
        self.covers_copies = frozenset(c.id for c in self.checks if c.covers_copies)
        self._cache = ParseCache()

    # -- parsing with a cache ---------------------------------------------------------------
    def parse(self, text: str) -> ops.Operation | ParseFailure:
        """The operation of one statement, or the ParseFailure that says why there is none."""
        return self._cache.parse(text)

    # -- one unit ---------------------------------------------------------------------------
    def lint_unit(
        self, unit: Unit, context: CheckContext | None = None, *, disabled: frozenset[str] = frozenset(),
        changes: ChangeSet | None = None, progress: Progress | None = None,
    ) -> UnitResult:
        """The pipeline for one unit: every file, in the unit's order, is read and split into
        statements, each statement parsed and replayed into the unit's one model (`_lint_file`);
        then the checks run on the finished model (`run_checks`). Reporting is the caller's.
        `context`: this unit's, else the engine's; `disabled`: rule ids not to run; `changes`: note
        the tables changed statements touch; `progress`: told of every block read."""
        context = context or self.context
        if unit.evidence is not None:
            context = dataclasses.replace(context, app_evidence=unit.evidence)
        if unit.one_change and changes is None:  # a split schema's files are one change: each statement is in it
            context = dataclasses.replace(context, changed=_in_the_change)
        if changes is not None and not changes.report_all:  # what the change is: its statements, its edited migrations
            context = dataclasses.replace(
                context, changed=changes.statement_changed,
                edited_migrations=edited_migrations(changes, unit.files, unit.migration_format)
                if unit.is_migration_history else ())
        from linter.rules.key_length import key_refusal

        # the kinds of refusal a check that runs reports itself (else refused-ddl does)
        claims = {kind: check.id for check in self.checks if check.id not in disabled for kind in check.refusal_kinds}
        # what a statement does to a table's rows, kept for the statements a check that runs may report
        # (each costs the statement's online plan: a dump's ALTERs of the tables it creates cost nothing)
        judged = context if any(c.judges_alterations and c.id not in disabled for c in self.checks) else None
        replayer = Replayer(target=context.target, key_judge=KeyJudge(key_refusal(context.target)), claims=claims,
                            alterations=(lambda defined, where: judged.in_change(where)
                                         and judged.existed_before(defined, where)) if judged is not None
                            else (lambda defined, where: False))
        replayer.model.is_migration_history = unit.is_migration_history
        result = UnitResult(replayer.model)
        result.diagnostics.extend(
            Diagnostic(rule=note.rule, severity=note.severity, path=note.path, line=note.line, message=note.message)  # type: ignore[arg-type]
            for note in unit.notes
        )
        for path in unit.files:
            self._lint_file(path, unit, replayer, result, context.target, changes, progress)
        placeholder = _placeholder_engines(replayer.model)
        if placeholder is not None:
            result.diagnostics.append(placeholder)
        suppressed = frozenset((s.path, s.line) for s in result.suppressions if not s.file_wide)
        if suppressed:
            context = dataclasses.replace(context, suppressed=suppressed)
        result.findings = self.run_checks(replayer.model, context, disabled, failures=result.diagnostics)
        if context.changed is not None:  # a table the change creates is fixed in its CREATE TABLE
            from linter.rules.created_tables import corrected

            result.findings = corrected(result.findings, replayer.model, context)
        if not any(check.id == "refused-ddl" and check.id not in disabled for check in self.checks):
            # no rule that runs reports these refusals: said as what they were before refused-ddl, never silent
            result.diagnostics.extend(
                Diagnostic(rule="replay-error", severity="info", path=r.where.path, line=r.where.line,
                           column=r.where.column, end_line=r.where.end_line, message=r.message)
                for r in replayer.model.refusals if r.reported_by is None)
        return result

    def _lint_file(
        self, path: str, unit: Unit, replayer: Replayer, result: UnitResult, target: Target,
        changes: ChangeSet | None, progress: Progress | None,
    ) -> None:
        """read -> split (`read_statements`) -> parse -> replay (`_parse_and_replay`) for one file,
        with its suppressions and what the reading reported about it."""
        first_of_file = len(result.suppressions)
        schemas = replayer.model.schemas

        def on_read(nbytes: int) -> None:
            result.bytes += nbytes
            if progress is not None:
                progress.read(nbytes, sum(len(s.tables) for s in schemas.values()))

        stream = None
        # a dump's repeated schema blocks are replayed once (linter.server.block_replay), unless the
        # statements are looked at one by one for a change set
        templates = Templates(replayer, path) if changes is None and unit.migration_format is None else None
        try:
            # statements parse would skip by their first word are only counted, unless they hold a directive
            stream = read_statements(path, migration_format=unit.migration_format, target=target,
                                     skip_words=SPLIT_SKIP_WORDS, skip_pattern=SKIP_PATTERN, unless="innolint:",
                                     on_read=on_read, segment=unit.segments.get(path),
                                     blocks=templates.accepts if templates is not None else None)
            self._parse_and_replay(stream, path, replayer, result, changes if changes is not None and changes.contains(path) else None,
                                   templates)
        except InputError as error:
            result.diagnostics.append(Diagnostic(rule="io-error", severity="error", path=path, message=str(error)))
        if stream is not None:
            result.diagnostics.extend(
                Diagnostic(rule=note.rule, severity=note.severity, path=path, line=note.line, column=note.column,  # type: ignore[arg-type]
                           end_line=note.end_line or note.line, message=note.message, excerpt=note.excerpt or None)
                for note in stream.notes
            )
            # DDL the server may run otherwise than innolint replays it (in a branch of an IF, a loop, a
            # handler: the splitter's replay-error warnings): no refusal from there on is claimed
            uncertain = min((note.line for note in stream.notes if note.rule == "replay-error" and note.severity == "warning"),
                            default=None)
            if uncertain is not None:
                result.diagnostics.extend(
                    Diagnostic(rule="replay-error", severity="info", path=path, line=withdrawn.where.line,
                               column=withdrawn.where.column, end_line=withdrawn.where.end_line, message=withdrawn.message)
                    for withdrawn in replayer.outcomes.withdraw(Location(path, uncertain), "the DDL run under a condition"))
        if stream is not None:
            # the directives of the comments between statements, as the splitter read them
            directives = suppressions.from_comments(path, stream.directives)
            suppressions.place_comments(result.suppressions[first_of_file:], directives.ignore_lines)
            result.suppressions.extend(directives.file_wide)
            result.statements += stream.skipped
        if progress is not None:
            progress.file_done()

    def _parse_and_replay(
        self, stream: Iterable[Statement | BlockMark], path: str, replayer: Replayer, result: UnitResult,
        changes: ChangeSet | None, templates: Templates | None = None,
    ) -> None:
        """Parse each statement (through the cache) and replay it into the model; the statements
        read are counted into `result` even when reading fails half-way.

        The hot loop of a run (a dump has a statement per table and several per row batch): the
        common case, a statement with no directive, no parse failure and outside a change set, is
        replayed here inline, as `_apply` would replay it; every other statement goes through
        `_apply`. Statements the parser skips (INSERT, SET, LOCK ...) stop at the parse. A dump's
        repeated schema block comes as one `BlockMark` (`templates`, `linter.server.block_replay`)."""
        parse, apply, replay, diagnostics = self._cache.parse, self._apply, replayer.apply, result.diagnostics
        count = 0
        recorded: list[tuple[Statement, object]] | None = None  # a template block's statements, while it is read
        said = 0  # diagnostics and suppressions when it started
        stopped, stopped_at = 0, 0  # the packet the server stopped at a statement it refused, and where
        # the packet with a skipped statement that may fail (said once, at the first DDL after it), where, what
        doubted, doubted_at, doubted_word = 0, 0, ""
        try:
            for statement in stream:
                if statement.__class__ is BlockMark:
                    kind = statement.kind  # type: ignore[union-attr]
                    if templates is None:
                        continue
                    if kind == "start":
                        templates.start(statement)  # type: ignore[arg-type]
                        recorded, said = templates.recorded, len(diagnostics) + len(result.suppressions)
                    elif kind == "end":
                        templates.end(statement, quiet=len(diagnostics) + len(result.suppressions) == said)  # type: ignore[arg-type]
                        recorded = None
                    else:
                        count += statement.statements  # type: ignore[union-attr]
                        for where, problem in templates.repeat(statement):  # type: ignore[arg-type]
                            if problem.__class__ is CannotFollow:  # (a refusal: refused-ddl reports it)
                                diagnostics.append(Diagnostic(rule="replay-error", severity="info", path=path,
                                                              line=where.line, column=where.column,
                                                              end_line=where.end_line, message=problem.message,
                                                              excerpt=_excerpt(where.text)))
                    continue
                count += 1
                text, _, line, column, end_line, comments, executable, packet = statement  # type: ignore[misc]
                if "innolint:" in text or (comments and any("innolint:" in c for c in comments)):
                    result.suppressions.extend(suppressions.from_statement(statement))
                op = parse(text)
                if recorded is not None:
                    recorded.append((statement, op))  # type: ignore[arg-type]
                kind = op.__class__
                if kind is ops.Skipped:  # INSERT, SET, LOCK...: nothing to replay, nothing to report,
                    if packet and packet != stopped:  # unless it takes down the rest of its packet
                        glued = glued_in_packet(text)
                        if glued is not None and apply(replayer, statement, diagnostics, None, glued):
                            stopped, stopped_at = packet, line
                        elif packet != doubted and (word := may_fail(text)) is not None:
                            doubted, doubted_at, doubted_word = packet, line, word
                    elif packet and _sets_sql_mode(text):  # or is a SET the splitter followed, not run
                        diagnostics.append(_not_run(statement, stopped_at, _SQL_MODE_NOT_RUN))
                    continue
                if packet and packet == stopped:
                    diagnostics.append(_not_run(statement, stopped_at))
                    continue
                if packet and packet == doubted and doubted_at:
                    diagnostics.append(_may_not_run(statement, doubted_at, doubted_word))
                    replayer.lose_track(Location(path, doubted_at), f"the {doubted_word} at line {doubted_at}")
                    doubted_at = 0
                if changes is not None or kind is ParseFailure or (kind is ops.CreateTable and (comments or "innolint:" in text)):
                    changed = changes is not None and changes.statement_changed(path, line, end_line)
                    if apply(replayer, statement, diagnostics, result.touched if changed else None, op) and packet:
                        stopped, stopped_at = packet, line
                    continue
                problem = replay(op, Location(path, line, column, end_line), executable=executable)  # type: ignore[arg-type]
                if problem is not None:
                    if problem.__class__ is CannotFollow:  # (a refusal: refused-ddl, or the check of its kind, reports it)
                        diagnostics.append(
                            Diagnostic(rule="replay-error", severity="info", path=path, line=line, column=column,
                                       end_line=end_line, message=problem.message, excerpt=_excerpt(text))
                        )
                    if packet and kind is not ops.Dynamic:
                        stopped, stopped_at = packet, line
        finally:
            result.statements += count

    def _apply(
        self, replayer: Replayer, statement: Statement, diagnostics: list[Diagnostic], touched: list[Table] | None = None,
        op: ops.Operation | ParseFailure | None = None,
    ) -> bool:
        """Replay one statement, reporting what innolint cannot follow; True when the server refuses it
        (or innolint cannot follow it: the rest of its packet is not run)."""
        if op is None:
            op = self.parse(statement.text)
        if isinstance(op, ParseFailure):
            line = statement.line + op.line_offset
            diagnostics.append(
                Diagnostic(
                    rule="parse-error", path=statement.path, line=line, column=statement.column if not op.line_offset else 1,
                    end_line=statement.end_line, message=f"statement not understood: {op.reason}",
                    excerpt=_excerpt(statement.text),
                )
            )
            return op.refused
        where = Location(statement.path, statement.line, statement.column, statement.end_line)
        tags: frozenset[str] = frozenset()
        if isinstance(op, ops.CreateTable) and (statement.comments or "innolint:" in statement.text):
            tags = annotation_verbs(parse_directives([*statement.comments, *comments_in_text(statement.text)]))
        if touched is not None:  # a changed statement: remember the tables it creates or alters
            touched.extend(tables_named_by(op, replayer.model, replayer.current_schema))
        problem = replayer.apply(op, where, annotations=tags, executable=statement.executable)
        if touched is not None:
            touched.extend(tables_named_by(op, replayer.model, replayer.current_schema))
        if problem.__class__ is CannotFollow:  # (a refusal: refused-ddl, or the check of its kind, reports it)
            diagnostics.append(
                Diagnostic(rule="replay-error", severity="info", path=statement.path, line=statement.line,
                           column=statement.column, end_line=statement.end_line, message=problem.message,  # type: ignore[union-attr]
                           excerpt=_excerpt(statement.text))
            )
        return problem is not None and not isinstance(op, ops.Dynamic)

    def run_checks(
        self, model: SchemaModel, context: CheckContext | None = None, disabled: frozenset[str] = frozenset(),
        failures: list[Diagnostic] | None = None,
    ) -> list[Finding]:
        """Every enabled check's findings on the finished model. With `failures`, a rule that fails
        on one table (or as a whole) is an `internal-error` diagnostic appended there, and every
        other table and rule is still judged (`linter.rules.failures`); without it, it raises."""
        context = context or self.context
        caught: CheckFailures | None = None
        if failures is not None:
            first = next((t for schema in model.schemas.values() for t in schema.tables.values()), None)
            caught = CheckFailures(first.defined.path if first is not None else "")
            context = dataclasses.replace(context, failures=caught)
        findings: list[Finding] = []
        for check in self.checks:
            if check.id in disabled:
                continue
            if caught is None:
                findings.extend(check.run(model, context))
                continue
            caught.rule = check.id
            try:
                for finding in check.run(model, context):
                    findings.append(finding)
            except Exception as error:  # noqa: BLE001 - a rule's failure outside one table: reported, the run goes on
                caught.failed(error)
        if caught is not None:
            failures.extend(caught.diagnostics)  # type: ignore[union-attr]
        return findings


#: a SET of sql_mode in a packet the server stopped: the splitter has read on with the quoting it
#: gives (NO_BACKSLASH_ESCAPES, ANSI_QUOTES), not knowing the replay would stop the packet
_SQL_MODE_NOT_RUN = ("; innolint reads on from here on with the sql_mode this SET gives, which the server does not "
                     "have: where that mode changes how quotes read, the statements after may be read wrongly")


def _sets_sql_mode(text: str) -> bool:
    return text[:3].upper() == "SET" and "sql_mode" in text.lower()


def _not_run(statement: Statement, refused_at: int, more: str = "") -> Diagnostic:
    """A statement after the one the server refused in the same packet: the server runs none of
    them (a DELIMITER packet of several statements, a compound block), and neither does innolint."""
    return Diagnostic(rule="replay-error", severity="info" if not more else "warning", path=statement.path,
                      line=statement.line, column=statement.column, end_line=statement.end_line,
                      message=f"not run: the server refuses the statement at line {refused_at} and runs nothing after "
                              f"it in the same packet (a DELIMITER block or a compound statement){more}",
                      excerpt=_excerpt(statement.text))


def _may_not_run(statement: Statement, doubted_at: int, word: str) -> Diagnostic:
    """The first DDL statement after one innolint skips in the same packet that the server may
    refuse (an INSERT into a table that does not exist ...): then the server runs none of the rest
    (fuzz seed 413). Said once a packet: a file left under `DELIMITER //` is one packet, INSERTs
    and CREATE TABLEs alike (cacti's schema)."""
    return Diagnostic(rule="replay-error", severity="info", path=statement.path, line=statement.line,
                      column=statement.column, end_line=statement.end_line,
                      message=f"innolint cannot tell whether the server runs this and what follows it in the same "
                              f"packet: it runs them only if the {word} at line {doubted_at} succeeds, which innolint "
                              "does not run (a table that does not exist, a duplicate key ...); if that fails, the "
                              "server runs nothing after it in the packet and the schema after it differs from "
                              "innolint's, which replays them as run",
                      excerpt=_excerpt(statement.text))


def _placeholder_engines(model: SchemaModel) -> Diagnostic | None:
    """Said once for the unit: the tables whose ENGINE= is a template placeholder
    (`@ZM_MYSQL_ENGINE@`), which the replay and every rule read as InnoDB
    (`linter.schema.model.is_innodb_engine`), at the first of them."""
    first: Table | None = None
    count = 0
    written: set[str] = set()
    for schema in model.schemas.values():
        for table in schema.tables.values():
            engine = table.body.options.engine
            if engine is not None and engine[:1] in "@%{$" and is_engine_placeholder(engine):
                count += 1
                written.add(engine)
                if first is None:
                    first = table
    if first is None:
        return None
    names = ", ".join(f"ENGINE={e}" for e in sorted(written)[:3]) + (" ..." if len(written) > 3 else "")
    where = first.defined
    return Diagnostic(
        rule="replay-error", severity="info", path=where.path, line=where.line, column=where.column,
        message=f"{names} is a template placeholder, not an engine: the server refuses it as written (unknown storage "
                f"engine); innolint reads it as InnoDB, the server's default and what installers fill in, for the "
                f"{count} table{'s' if count > 1 else ''} that have it (every rule judges them as InnoDB tables). "
                "Lint the installed schema to judge another engine.",
    )


def _excerpt(text: str, width: int = 100) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= width else first[: width - 3] + "..."


def _in_the_change(path: str, line: int, end_line: int) -> bool:
    """Every statement of a unit that is one change (`Unit.one_change`)."""
    return True


def units_for(
    files: Iterable[str], resolver: ConfigResolver | None = None, changes: ChangeSet | None = None,
    readable: Callable[[str], bool] | None = None, inside: Callable[[str], bool] | None = None,
) -> list[Unit]:
    """Group files into units: a migration directory is one unit replayed in order, any other
    file its own unit (linter.input.migrations.history decides, following the configuration). With `changes`,
    a history holding a changed file is read whole from disk, so the change is linted in context;
    `readable` decides (and reports) which of the files found beside the given ones may be read,
    and `inside` whether a path lies in the tree at all (without reporting: where a history's root
    changelog and an application's model files are looked for)."""
    resolver = resolver or ConfigResolver(search=False)

    locations: dict[str, list[str]] = {}  # a configured history's root -> its directories

    def configured(path: str) -> tuple[str, str] | None:
        absolute = os.path.realpath(path)
        dirs = resolver.for_path(path).migration_dirs()
        inside = [(location, fmt, root) for location, fmt, root in dirs
                  if absolute.startswith(location.rstrip(os.sep) + os.sep)]
        if not inside:
            return None
        _, fmt, root = max(inside, key=lambda item: len(item[0]))
        locations.setdefault(root, [location for location, _, of in dirs if of == root])
        return root, fmt

    from linter.input.migrations.formats import named as format_named
    from linter.input.migrations.orm_evidence import evidence_for

    inside = inside or (lambda path: True)
    groups = plan(
        list(files),
        configured=configured,
        detect=lambda path: resolver.for_path(path).value("detect_migrations"),
        expand=changes.contains if changes is not None else None,
        keep=lambda path: not resolver.for_path(path).is_excluded(path, named=False)
        and (readable is None or readable(path)),
        inside=inside,
        locations=lambda root: locations.get(root, [root]),
    )
    units = []
    for group in groups:
        history = group.history
        unit = Unit(group.files, migration_format=history.format if history is not None else None,
                    is_migration_history=history is not None, one_change=history is None and len(group.files) > 1)
        if history is not None:
            unit.segments = history.segments
            unit.notes = history.notes
        unit.evidence = evidence_for(group, inside, format_named(history.format) if history is not None else None)
        units.append(unit)
    return units


def lint_paths(
    paths: list[str], context: CheckContext | None = None, checks: Sequence[Check] | None = None,
    *, options: RunOptions | None = None,
) -> Report:
    """Lint files, directories and `-` (standard input): the whole run, as one Report.

    `context` given: used for every unit; else each unit gets the context of its configuration.
    Raises ConfigError for a configuration file that cannot be used.
    """
    started = time.perf_counter()
    forget_listings()  # what a Flyway location holds is read afresh each run
    options = options or RunOptions()
    resolver = options.config or ConfigResolver(search=False)
    engine = Engine(context or CheckContext(), checks)
    given = options.changes.root if options.changes is not None else None
    repository = given if given is not None else repository_root()
    files, errors = discover(paths, repository=repository)
    named = {os.path.abspath(p) for p in paths if p != "-" and os.path.isfile(p)}
    files = [f for f in files if not resolver.for_path(f).is_excluded(f, named=os.path.abspath(f) in named)]
    changes = ChangeSet.from_files(files) if options.changed_only else options.changes
    stats = RunStats()
    trees = _trees(repository, files, paths)
    units = units_for(files, resolver, changes, readable=_readable(trees, errors),
                      inside=lambda path: any(within(os.path.realpath(path), tree) for tree in trees))
    report = Report()
    for path, message in errors:
        report.diagnostics.append(Diagnostic(rule="io-error", severity="error", path=path, message=message))
    progress = options.progress
    if progress is not None:
        progress.start(sum(len(u.files) for u in units), sum(_size(f) for u in units for f in u.files))
    for unit in units:
        if changes is not None and not changes.affects(unit.files):
            continue  # nothing changed here
        settings = resolver.for_path((unit.files or [note.path for note in unit.notes])[0])
        unit_context = context if context is not None else settings.context()
        result = engine.lint_unit(
            unit, unit_context, disabled=settings.disabled_rules(), changes=changes, progress=progress,
        )
        findings, diagnostics = _settle(result, settings, changes, unit_context, engine.covers_copies)
        report.findings.extend(findings)
        report.diagnostics.extend(diagnostics)
        stats.files += len(unit.files)
        stats.statements += result.statements
        stats.tables += len(result.model.tables())
        stats.bytes += result.bytes
    if progress is not None:
        progress.finish()
    report.findings.sort(key=Finding.sort_key)
    report.diagnostics.sort(key=Diagnostic.sort_key)
    stats.seconds = round(time.perf_counter() - started, 3)
    report.stats = stats
    return report


def _trees(repository: str, files: list[str], named: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """The trees a run may read files from besides the ones it was given: the repository, the
    directories the user named outside it, and for files found outside it their migration
    directory, or the directory above it when it is called `migrations` (where Prisma's
    schema.prisma sits; a configured migration directory lies inside its configuration's
    repository: `linter.config.settings`)."""
    outside = {os.path.realpath(detected_root(f)) for f in files if f != "-" and not lexically_within(f, repository)}
    trees = {os.path.dirname(tree) if os.path.basename(tree) == "migrations" else tree for tree in outside}
    trees.update(os.path.realpath(p) for p in named
                 if p != "-" and os.path.isdir(p) and not lexically_within(p, repository))
    return [repository] + sorted(trees)


def _readable(trees: list[str], refused: list[tuple[str, str]]) -> Callable[[str], bool]:
    """Whether a file found beside a given one (its migration history, read for context) may be
    read: a regular file whose real path lies in one of `trees`. Refusals are added to `refused`
    as (path, message)."""

    def readable(path: str) -> bool:
        real = os.path.realpath(path)
        problem = None
        if not any(within(real, tree) for tree in trees):
            problem = (f"{path}: outside the repository and the named files' directories; not read (innolint "
                       "reads only files inside the tree it lints)")
        else:
            try:
                kind = special_file(os.stat(path))
            except OSError:
                kind = None  # reading it reports the error
            if kind is not None:
                problem = f"{path}: not a regular file ({kind}); not read"
        if problem is not None:
            refused.append((path, problem))
            return False
        return True

    return readable


def _size(path: str) -> int:
    """The size of a file to read, 0 when unknown (standard input, a pipe)."""
    try:
        return os.path.getsize(path) if path != "-" else 0
    except OSError:
        return 0


def _settle(
    result: UnitResult, settings: LoadedConfig, changes: ChangeSet | None, context: CheckContext,
    covered: frozenset[str] = frozenset(),
) -> tuple[list[Finding], list[Diagnostic]]:
    """What a unit reports: suppressions applied, disabled rules dropped, configured severities
    set, tenant copies grouped (`linter.rules.grouping`), and in changed-files mode what lies in the
    changed files (findings on tables the change did not create or alter one level down: legacy)
    and what is new against the tree before the change (`ChangeSet.select`)."""
    disabled = settings.disabled_rules()
    outcome = suppressions.apply(
        result.findings, result.diagnostics, result.suppressions, known_rules=rule_ids(),
        require_reason=settings.value("require_suppression_reason"), disabled=disabled,
    )
    overrides = settings.severity_overrides()
    findings = [f if f.rule not in overrides else f.replace(severity=overrides[f.rule])
                for f in outcome.findings if f.rule not in disabled]
    diagnostics = [d if d.rule not in overrides else d.replace(severity=overrides[d.rule])
                   for d in outcome.diagnostics if d.rule not in disabled]
    findings = group_copies(findings, result.model, context, covered=covered)
    if changes is None:
        return findings, diagnostics
    legacy: Callable[[Finding], bool] | None = None
    if settings.value("legacy_downgrade"):
        touched = {id(table) for table in result.touched}

        def untouched(finding: Finding) -> bool:
            table = result.model.find_table(finding.schema, finding.table) if finding.table else None
            return table is not None and id(table) not in touched

        legacy = untouched
    return changes.select(findings, diagnostics, legacy)
