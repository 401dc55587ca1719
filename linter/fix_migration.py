"""`innolint fix --migration DIR`: the fixes of the current findings as a new migration of DIR,
in the directory's own format, with a down migration that restores the schema where the format
has one.

Why a new migration and not edits: applied migrations are history (a checksum in one tool, a row
in every tool's version table); the schema changes by adding the next one. So the fixes go into
the file that runs next, written by the history's format (`Format.write`, through
`linter.input.migrations.writing`; docs/migration-formats.md says what each writes). A directory
whose names follow no migration format is refused: a file added there would be linted as a
database of its own.

What goes in, and how it is checked before anything is written:
- The findings of the history at or above `min_severity`, for the rules the run selects. A
  finding whose fix is executable SQL (ALTER, CREATE, DROP, RENAME, UPDATE, OPTIMIZE) is
  applied; one without a fix, whose fix is advice or queries that print statements (a SELECT),
  or that stands for copies in many tenant schemas (its fix is the first tenant's), is listed in
  the file as comments for review, never executed.
- A table's fixes that are ALTERs of it run as one ALTER (`steps_of`): the server judges the
  whole table at every ALTER, so under MySQL 5.7+'s default sql_mode (STRICT_TRANS_TABLES,
  NO_ZERO_DATE, NO_ZERO_IN_DATE) an ALTER of a table that keeps a zero-date default anywhere
  fails (1067): its columns' MODIFYs pass only together.
- The candidate is replayed after the history, in process: a fix whose statements the replay
  rejects or the target refuses (a key already dropped by another fix), whose finding is still
  there afterwards (a fix that must come before the statement it repairs, like a missing CREATE
  TABLESPACE), or that alters a table keeping a zero-date default the target's default sql_mode
  refuses moves to the comments, and the replay runs again until every applied fix makes its
  finding go. A combined ALTER the replay refuses is replayed one ALTER per fix to find the fix
  it fails at.
- The down migration is computed from the model, not from the up's text: for each table whose
  definition the up changes, the statements that give it back its definition before the up
  (foreign keys dropped first and added last, the servers refusing to change a column a
  foreign key uses), and tablespaces the up created are dropped. It is replayed too: history, up,
  down must give the history's own tables; a table it cannot restore (a generated column, whose
  expression the model does not keep) is named in a comment. Data an UPDATE converted is not
  converted back: the down says so.

Writing: only inside DIR (files opened relative to DIR's descriptor, O_CREAT|O_EXCL|O_NOFOLLOW,
each directory below it opened with O_NOFOLLOW), never over an existing file but those the format
replaces whole (an integrity file), which are written beside and renamed over them last; the files are written whole or not at all. Names from input appear in
comments only through `linter.report.human` (no line break can end a comment and start SQL).
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field

from linter.rules.checkapi import CheckContext, quote
from linter.config.settings import ConfigResolver, LoadedConfig
from linter.engine import Engine, RunOptions, Unit, lint_paths
from linter.rules.findings import Diagnostic, Finding, at_or_above
from linter.input.migrations.formats import FORMATS, named
from linter.input.migrations.formats.base import History, NewMigration, WritingError
from linter.input.migrations.history import plan
from linter.schema.model import SchemaModel, Table
from linter.report import human
from linter.report.text import headline
from linter.input.source import discover
from linter.input.migrations.writing import directory_of, new_migration
from linter.rules.fix_sql import (
    alter_actions, alter_parts, changed_table, foreign_key_definition, index_sql, same_table, server_indexes,
    statements_of, table_name, tables_by_key, terminated,
)
from linter.rules.column_sql import kept_definition
from linter.rules.zero_dates import zero_date_problem
from linter.schema.target import Target

#: first words of the statements a fix may execute in a migration
_EXECUTABLE = frozenset({"ALTER", "CREATE", "DROP", "RENAME", "UPDATE", "OPTIMIZE"})
#: the migration's name after its version
DESCRIPTION = "innolint_fixes"


class FixError(Exception):
    """The fix cannot be written (not a migration directory, a file in the way): a usage error."""


def _key(finding: Finding) -> tuple[str, str, str, str]:
    """What a finding is about, wherever it is reported: its identity before and after a fix."""
    return (finding.rule, (finding.schema or "").lower(), (finding.table or "").lower(), (finding.subject or "").lower())


@dataclass
class Fix:
    """One finding and what the migration does with it: `statements` run, or `advice` (why not)."""

    finding: Finding
    statements: list[str]
    advice: str = ""

    @property
    def applied(self) -> bool:
        return not self.advice


@dataclass
class Step:
    """Statements the migration runs, and the fixes they carry out: one fix as it wrote them, or
    (`table` set) the fixes that each begin with one ALTER TABLE of `table`, combined into one
    ALTER, then the statements that followed each (its UPDATE, its OPTIMIZE). Why combined: the
    server judges the whole table at every ALTER; under MySQL 5.7+'s default sql_mode an ALTER of
    a table that keeps another column's zero-date default fails (1067), so a table's MODIFYs only
    pass together, and one rebuild of a large table is cheaper than several."""

    statements: list[str]
    fixes: list[Fix]
    table: tuple[str, str] | None = None

    @property
    def altered(self) -> list[tuple[str, str]]:
        """The tables its statements rebuild or alter (ALTER TABLE, CREATE INDEX ... ON, DROP
        INDEX ... ON, OPTIMIZE TABLE: the server judges each table's whole definition at them),
        as (schema or "", table), lower case, in order."""
        found: list[tuple[str, str]] = []
        for statement in self.statements:
            key = changed_table(statement)
            if key is not None and key not in found:
                found.append(key)
        return found


#: actions that cannot stand in an ALTER beside others (a partitioning clause ends the statement;
#: ALGORITHM= and LOCK= are the fix's own choice for its own actions)
_ALONE = re.compile(r"(?i)\bPARTITION\b|\bPARTITIONING\b|\bALGORITHM\s*=|\bLOCK\s*=|\bRENAME\b")


def steps_of(applied: list[Fix], separate: frozenset[tuple[str, str]] | set[tuple[str, str]] = frozenset()
             ) -> list[Step]:
    """The applied fixes as the migration runs them. Per table, the fixes that begin with an
    ALTER TABLE of it and alter no other table after it are combined into one ALTER (their
    actions in the fixes' order), followed by the statements that followed each (an UPDATE, an
    OPTIMIZE); it runs where the table's first such fix was. Every other fix runs as it wrote its
    statements, where it was. Tables in `separate` keep one ALTER per fix (their combined ALTER
    failed in the replay: each fix is judged alone to find which)."""
    order: list[Step | tuple[str, str]] = []
    # per table: its name as written, its actions and the statements after them (dicts as ordered
    # sets: an action two fixes both write, the table's zero-date columns in each finding's fix,
    # is written once), its fixes
    combined: dict[tuple[str, str], tuple[str, dict[str, None], dict[str, None], list[Fix]]] = {}
    for fix in applied:
        first = alter_parts(fix.statements[0]) if fix.statements else None
        mergeable = (first is not None and first[0] not in separate and not _ALONE.search(first[2])
                     and not any(changed_table(statement) not in (None, first[0]) for statement in fix.statements[1:])
                     and not any(alter_parts(statement) is not None for statement in fix.statements[1:]))
        if first is None or not mergeable:
            order.append(Step(list(fix.statements), [fix]))
            continue
        key, written, actions = first
        if key not in combined:
            combined[key] = (written, {}, {}, [])
            order.append(key)
        _, acts, after, fixes = combined[key]
        acts.update(dict.fromkeys(alter_actions(actions)))
        after.update(dict.fromkeys(fix.statements[1:]))
        fixes.append(fix)
    steps = []
    for item in order:
        if isinstance(item, Step):
            steps.append(item)
            continue
        name, acts, after, fixes = combined[item]
        steps.append(Step([f"ALTER TABLE {name} {', '.join(acts)}", *after], fixes, item))
    return steps


@dataclass
class FixPlan:
    """What `fix --migration` writes: the fixes, the down statements, and what the replay saw."""

    history: History
    target: Target
    fixes: list[Fix]
    down: list[str] = field(default_factory=list)
    #: what the down cannot restore (comments), and notes for the user
    down_notes: list[str] = field(default_factory=list)
    #: findings the applied fixes bring that were not there (the user should look)
    new_findings: list[Finding] = field(default_factory=list)
    #: parse errors in the history: a fix computed from a model with gaps
    history_problems: list[Diagnostic] = field(default_factory=list)
    #: the applied fixes as the migration runs them (`steps`): a table's ALTERs combined in one
    steps: list[Step] = field(default_factory=list)
    #: the history's migrations git has not committed as they are (written with allow_dirty)
    uncommitted: list[tuple[str, str]] = field(default_factory=list)

    @property
    def applied(self) -> list[Fix]:
        return [f for f in self.fixes if f.applied]

    @property
    def listed(self) -> list[Fix]:
        return [f for f in self.fixes if not f.applied]


# --- finding the history ---------------------------------------------------------------------------

def history_of(directory: str, resolver: ConfigResolver) -> History:
    """The migration history DIR holds, as the engine groups it; FixError when DIR is none."""
    if not os.path.isdir(directory):
        raise FixError(f"{directory}: not a directory")
    files, errors = discover(locations_of(directory, resolver))
    if errors:
        raise FixError(errors[0][1])
    root = os.path.realpath(directory)
    settings = resolver.for_path(directory)

    def configured(path: str) -> tuple[str, str] | None:
        absolute = os.path.realpath(path)
        inside = [(location, fmt, of) for location, fmt, of in resolver.for_path(path).migration_dirs()
                  if absolute.startswith(location.rstrip(os.sep) + os.sep)]
        if not inside:
            return None
        _, fmt, of = max(inside, key=lambda item: len(item[0]))
        return of, fmt

    groups = plan(files, configured=configured, detect=lambda path: settings.value("detect_migrations"),
                  keep=lambda path: not resolver.for_path(path).is_excluded(path, named=False))
    for group in groups:
        history = group.history
        if history is None:
            continue
        # (a history rooted in a file, a root changelog: DIR is the directory it lies in)
        if os.path.realpath(directory_of(history)) == root:
            problem = named(history.format).cannot_write(history)
            if problem is not None:
                raise FixError(f"{directory}: {problem}")
            return history
    detected = [f.title for f in FORMATS if f.family is not None]
    raise FixError(
        f"{directory}: not a migration directory (no file names follow {', '.join(detected[:-1])} or "
        f"{detected[-1]}): a new file there would be linted as a database of its own. "
        "Configure it as [[tool.innolint.migrations]] to choose its format")


def locations_of(directory: str, resolver: ConfigResolver) -> list[str]:
    """DIR and, when it is the first directory of a configured history of several (Flyway's
    `locations`), the others: what the history is read from."""
    real = os.path.realpath(directory)
    found = [location for location, _, root in resolver.for_path(directory).migration_dirs() if root == real]
    return [directory, *(location for location in found if location != real)]


# --- planning --------------------------------------------------------------------------------------

def classify(finding: Finding) -> Fix:
    """A fix to run, or advice to list: no fix, nothing executable, or a statement that only reads
    (the queries that print per-tenant statements)."""
    if not finding.fix:
        return Fix(finding, [], "no mechanical fix: see the finding's message")
    if finding.count > 1:  # one finding for a definition repeated in tenant schemas: its fix is the first's
        return Fix(finding, statements_of(finding.fix),
                   f"the same in {finding.count:,} tenant schemas: run the fix in each of them")
    statements = statements_of(finding.fix)
    words = [s.split(None, 1)[0].upper() if s.split() else "" for s in statements]
    if not statements:
        return Fix(finding, [], "the fix is advice, not SQL")
    if any(word not in _EXECUTABLE for word in words):
        return Fix(finding, statements, "the fix holds queries that print statements to run (review and run them)")
    return Fix(finding, statements)


def uncommitted_migrations(directory: str, history: History, resolver: ConfigResolver) -> list[tuple[str, str]]:
    """The history's migrations (down and undo files too, and SQL files deleted from its
    directories) that git has not committed as they are, with what differs ("untracked",
    "staged", "modified", "deleted"), in the history's order; [] outside a git repository."""
    from linter.input.git_changes import uncommitted
    from linter.input.source import SQL_SUFFIXES

    members = [*history.files, *(path for path, _ in history.ignored)]
    rank = {os.path.normcase(os.path.realpath(path)): n for n, path in enumerate(members)}
    found: dict[str, str] = {}
    for location in locations_of(directory, resolver):
        found.update(uncommitted(location) or {})
    dirty = [(path, state) for path, state in found.items()
             if path in rank or (state == "deleted" and path.lower().endswith(SQL_SUFFIXES))]
    return sorted(dirty, key=lambda item: (rank.get(item[0], len(rank)), item[0]))


def _refuse_uncommitted(directory: str, dirty: list[tuple[str, str]]) -> FixError:
    shown = ", ".join(f"{human(os.path.relpath(path, directory))} ({state})" for path, state in dirty[:5])
    more = f" and {len(dirty) - 5:,} more" if len(dirty) > 5 else ""
    return FixError(
        f"{directory}: migrations not committed: {shown}{more}. A migration that is not committed has run nowhere "
        "yet: fix it in place (innolint check --since HEAD gives each finding's fix, for a table it creates the "
        "corrected CREATE TABLE) rather than add a migration after it, and "
        "a committed one that is edited or deleted is not what the databases ran. Commit them first to have the "
        "fixes written as the next migration, or pass --allow-dirty to write it anyway")


def _fixed_in_place(fixes: list[Fix], dirty: list[tuple[str, str]], directory: str, resolver: ConfigResolver) -> None:
    """With migrations not committed (allowed): a finding on a table one of the new ones creates
    is fixed in that CREATE TABLE, not after it (the migration has run nowhere; a CREATE the
    target refuses never makes the table an ALTER would fix): listed, with the corrected CREATE
    TABLE that linting the new files as the change gives (`linter.rules.created_tables`)."""
    from linter.input.git_changes import ChangeSet
    from linter.rules.created_tables import is_corrected

    new = {path for path, state in dirty if state in ("untracked", "added")}
    if not new or not any(os.path.normcase(os.path.realpath(f.finding.path)) in new for f in fixes):
        return
    report = lint_paths(locations_of(directory, resolver), options=RunOptions(resolver, changes=ChangeSet.from_files(new)))
    made = {_key(f): f.fix for f in report.findings if is_corrected(f.fix)}
    for fix in fixes:
        path = os.path.normcase(os.path.realpath(fix.finding.path))
        corrected = made.get(_key(fix.finding))
        if path in new and corrected is not None:
            fix.advice = (f"its table is created by {os.path.basename(fix.finding.path)}, which is not committed: "
                          "correct that CREATE TABLE instead of altering the table after it")
            fix.finding = fix.finding.replace(fix=corrected)
            fix.statements = []


def build(directory: str, resolver: ConfigResolver, *, min_severity: str = "warning",
          allow_dirty: bool = False) -> FixPlan:
    """Lint DIR's history, choose the fixes, check them by replay, compute the down. Refused
    (FixError) when a migration of the history is not committed as it is, unless `allow_dirty`:
    the next migration goes after migrations that ran (`uncommitted_migrations`)."""
    history = history_of(directory, resolver)
    dirty = uncommitted_migrations(directory, history, resolver)
    if dirty and not allow_dirty:
        raise _refuse_uncommitted(directory, dirty)
    settings = resolver.for_path(history.files[0])
    report = lint_paths(locations_of(directory, resolver), options=RunOptions(resolver))
    in_history = {os.path.realpath(p) for p in history.files}
    findings = [f for f in report.findings if os.path.realpath(f.path) in in_history
                and at_or_above(f.severity, min_severity)]
    problems = [d for d in report.diagnostics if d.rule == "parse-error" and os.path.realpath(d.path) in in_history]
    context = settings.context()
    fixes = [classify(f) for f in findings]
    _fixed_in_place(fixes, dirty, directory, resolver)
    result = FixPlan(history, context.target, fixes, history_problems=problems, uncommitted=dirty)
    if not result.applied:
        return result
    verifier = _Verifier(history, context, settings)
    try:
        _verify(result, verifier, len(fixes))
    finally:
        verifier.close()
    return result


def _verify(result: FixPlan, verifier: _Verifier, rounds: int) -> None:
    """Drop the fixes the replay rejects until every applied fix runs and makes its finding go:
    a statement the replay refuses, a finding that stays, an ALTER the target's default sql_mode
    refuses (`_Verifier.replay`). A table whose combined ALTER the replay refuses has its fixes
    replayed one ALTER each to find which one fails; that one is dropped and the rest combined
    again (a table whose fixes all pass alone keeps one ALTER per fix). Each round drops a fix or
    splits a table: 2 x fixes + 1 rounds are enough. Then the down, and its own replay."""
    before_keys = {_key(f) for f in verifier.before_findings}
    separate: set[tuple[str, str]] = set()
    diagnosing: set[tuple[str, str]] = set()
    for _ in range(2 * rounds + 1):
        steps = steps_of(result.applied, separate)
        replayed = verifier.replay(steps)
        if replayed.split - separate:
            diagnosing |= replayed.split - separate
            separate |= replayed.split
            continue
        failed = dict(replayed.refused)
        if diagnosing:  # the one-by-one replay of those tables' fixes: the one their combined ALTER failed at
            culprits = [fix for step in steps if _first_table(step) in diagnosing for fix in step.fixes
                        if id(fix) in failed]
            if culprits:  # dropped; the rest are combined again
                separate -= diagnosing
            diagnosing = set()
            if culprits:
                for fix in result.applied:
                    if id(fix) in failed:
                        fix.advice = failed[id(fix)]
                continue
        for why in (replayed.stays, replayed.by_mode):
            for fix_id, message in why.items():
                failed.setdefault(fix_id, message)
        if not failed:
            break
        for fix in result.applied:
            if id(fix) in failed:
                fix.advice = failed[id(fix)]
        if not result.applied:
            return
    result.steps = steps_of(result.applied, separate)
    final = verifier.replay(result.steps)
    result.new_findings = [f for f in final.findings if _key(f) not in before_keys]
    down, notes = down_statements(verifier.before, final.model, result.target)
    if any(s.split(None, 1)[0].upper() == "UPDATE" for fix in result.applied for s in fix.statements):
        notes.insert(0, "the up migration converts data (UPDATE): this down restores the definitions, not the "
                        "values as they were")
    if down and _zero_dates(verifier.before, final.model, result.target):
        # the down gives the zero dates back: the target's default sql_mode refuses them (1067)
        down = [_SAVE_SQL_MODE, _ALLOW_ZERO_DATES, *down, _RESTORE_SQL_MODE]
        notes.append("the down restores zero-date defaults, which the server's default sql_mode refuses: it "
                     "allows them for its own statements (SET SESSION sql_mode) and restores the mode after")
    restored = verifier.replay(result.steps, down=down)
    for table in _changed_tables(verifier.before, restored.model):
        notes.append(f"{table}: this down does not restore its definition exactly; restore it by hand")
    result.down, result.down_notes = down, notes


def _first_table(step: Step) -> tuple[str, str] | None:
    altered = step.altered
    return altered[0] if altered else None


def _refused_defaults(table: Table, target: Target) -> list[str]:
    """The columns of `table` whose zero-date default the target's default sql_mode refuses
    (zero-date-default's one decision, at error): while one is there, the server refuses every
    ALTER of the table (error 1067 at the first of them, whatever the ALTER changes)."""
    found = []
    for column in table.columns.values():
        problem = zero_date_problem(table, column, target)
        if problem is not None and problem.severity == "error":
            found.append(column.name)
    return found


def _default_mode(target: Target) -> str:
    """The target's default sql_mode as far as zero dates go, for messages."""
    if target.is_mariadb:
        return f"{target.label}'s default sql_mode (STRICT_TRANS_TABLES: a TIMESTAMP's zero-in-date is out of range)"
    return f"{target.label}'s default sql_mode (STRICT_TRANS_TABLES, NO_ZERO_DATE, NO_ZERO_IN_DATE)"


def _zero_dates(before: SchemaModel, after: SchemaModel, target: Target) -> bool:
    """Whether a table the up changes had a zero-date default the target's default sql_mode
    refuses: the down gives it back."""
    old, new = tables_by_key(before), tables_by_key(after)
    return any(_refused_defaults(old[key], target) for key in old.keys() & new.keys()
               if not same_table(old[key], new[key]))


_SAVE_SQL_MODE = "SET @innolint_sql_mode = @@SESSION.sql_mode;"
_ALLOW_ZERO_DATES = ("SET SESSION sql_mode = REPLACE(REPLACE(@@SESSION.sql_mode, 'NO_ZERO_IN_DATE', ''), "
                     "'NO_ZERO_DATE', '');")
_RESTORE_SQL_MODE = "SET SESSION sql_mode = @innolint_sql_mode;"


@dataclass
class _Replayed:
    model: SchemaModel
    findings: list[Finding]
    #: id(fix) -> why it failed: a statement of it the replay refuses
    refused: dict[int, str] = field(default_factory=dict)
    #: id(fix) -> why it failed: its finding is still there after the replay
    stays: dict[int, str] = field(default_factory=dict)
    #: id(fix) -> why it failed: the target's default sql_mode refuses an ALTER of it
    by_mode: dict[int, str] = field(default_factory=dict)
    #: tables whose combined ALTER failed: their fixes are to be judged one by one
    split: set[tuple[str, str]] = field(default_factory=set)


class _Verifier:
    """Replays the history with candidate fixes, in scratch files outside DIR.

    The history's files and then the candidate are copied into one scratch file, in the order
    they run (a `DELIMITER ;` between them, as each runs on its own): within one file the model
    knows which statement comes first, so a fix that only works before the statement it repairs
    (a CREATE TABLESPACE the history used before creating it) is seen to leave its finding."""

    def __init__(self, history: History, context: CheckContext, settings: LoadedConfig) -> None:
        from linter.input.source import InputError, iter_chunks

        self.context = context
        self.format = history.format
        self.disabled = settings.disabled_rules()
        self.engine = Engine(context)
        self.scratch = tempfile.mkdtemp(prefix="innolint-fix-")
        self.path = os.path.join(self.scratch, "replay.sql")
        parts = []
        for path in history.files:
            try:
                parts.extend(iter_chunks(path))
            except InputError as error:
                raise FixError(str(error)) from None
            parts.append("\nDELIMITER ;\n")
        # a file may end in a part that does not run (a down section, another changeset): the
        # candidate opens a part of its own
        parts.append(named(history.format).opening)
        self.history_text = "".join(parts)
        self.offset = self.history_text.count("\n")
        first = self._lint([])
        self.before = first.model
        self.before_findings = first.findings

    def _lint(self, lines: list[str]):  # type: ignore[no-untyped-def]
        with open(self.path, "w", encoding="utf-8") as handle:
            handle.write(self.history_text + "\n".join(lines) + "\n")
        unit = Unit([self.path], migration_format=self.format, is_migration_history=True)
        return self.engine.lint_unit(unit, self.context, disabled=self.disabled)

    def close(self) -> None:
        import shutil

        shutil.rmtree(self.scratch, ignore_errors=True)

    def replay(self, steps: list[Step], down: list[str] | None = None) -> _Replayed:
        """The history, then `steps` (and `down`), replayed; which fixes fail, and why: a
        statement the replay refuses, a finding that stays, or an ALTER the target's default
        sql_mode refuses (`by_mode`, judged on the tables as the replay leaves them)."""
        lines: list[str] = []
        spans: list[tuple[int, int, Step]] = []
        for step in steps:
            start = self.offset + len(lines) + 1
            for statement in step.statements:
                lines.extend(terminated(statement).split("\n"))
            spans.append((start, self.offset + len(lines), step))
        for statement in down or ():
            lines.extend(terminated(statement).split("\n"))
        result = self._lint(lines)
        replayed = _Replayed(result.model, result.findings)
        # what the replay could not read or follow, and the statements the target refuses
        problems = [(d.line, d.message) for d in result.diagnostics if d.rule in ("parse-error", "replay-error")]
        problems += [(r.where.line, f"the target refuses it: {r.message}") for r in result.model.refusals
                     if r.where.path == self.path]
        for line, message in problems:
            for start, end, step in spans:
                if start <= line <= end:
                    if step.table is not None and len(step.fixes) > 1:
                        replayed.split.add(step.table)  # which of them fails is told one by one
                    else:
                        for fix in step.fixes:
                            replayed.refused.setdefault(id(fix), f"not applied: replayed after the history, {message}")
        if down is None:
            remaining = {_key(f) for f in result.findings}
            for step in steps:
                for fix in step.fixes:
                    if _key(fix.finding) in remaining:
                        replayed.stays[id(fix)] = (
                            "not applied: replayed after the history, its finding stays (the fix belongs before the "
                            "statement it repairs, or another fix undoes it)")
            replayed.by_mode = self._refused_by_mode(steps, result.model)
        return replayed

    def _refused_by_mode(self, steps: list[Step], model: SchemaModel) -> dict[int, str]:
        """The fixes whose statements alter a table that, after them, keeps a zero-date default
        the target's default sql_mode refuses: the server judges the whole table at every ALTER
        (and CREATE INDEX, OPTIMIZE), so that ALTER fails with 1067 for the other column. The
        tables are as the replay leaves them; a column a later step repairs (a table whose
        fixes could not be combined) still holds its zero default at the earlier steps."""
        target = self.context.target
        tables = tables_by_key(model)
        bare: dict[str, list[tuple[str, str]]] = {}
        for key in tables:
            bare.setdefault(key[1], []).append(key)
        repaired_later: dict[tuple[str, str], list[str]] = {}
        refused: dict[tuple[str, str], list[str]] = {}
        failed: dict[int, str] = {}
        for step in reversed(steps):
            for written in step.altered:
                key = written if written in tables or written[0] else next(iter(bare.get(written[1], [])[:1]), written)
                if key not in refused:
                    refused[key] = _refused_defaults(tables[key], target) if key in tables else []
                columns = refused[key] + [c for c in repaired_later.get(key, []) if c not in refused[key]]
                if not columns:
                    continue
                name = human(tables[key].name if key in tables else written[1])
                column = human(columns[0])
                for fix in step.fixes:
                    failed.setdefault(id(fix), (
                        f"not applied: under {_default_mode(target)} the server refuses every ALTER of {name} "
                        f"while {column} keeps its zero-date default (error 1067, Invalid default value for "
                        f"'{column}'): fix zero-date-default on {name} in the same migration (its MODIFY then goes "
                        "in the same ALTER)"))
            for fix in step.fixes:
                if fix.finding.rule == "zero-date-default" and step.altered:
                    column = (fix.finding.subject or "").partition(":")[2]
                    first = step.altered[0]
                    key = first if first in tables or first[0] else next(iter(bare.get(first[1], [])[:1]), first)
                    repaired_later.setdefault(key, []).append(column)
        return failed


# --- the down migration: from the models ---------------------------------------------------------

def _changed_tables(before: SchemaModel, after: SchemaModel) -> list[str]:
    old, new = tables_by_key(before), tables_by_key(after)
    names = []
    for key in sorted(set(old) | set(new)):
        if key not in old or key not in new or not same_table(old[key], new[key]):
            table = old.get(key) or new[key]
            names.append(human(table.qualified_name))
    return names


def down_statements(before: SchemaModel, after: SchemaModel, target: Target) -> tuple[list[str], list[str]]:
    """The statements that take the `after` model's tables back to `before`, and notes on what
    they cannot restore."""
    old, new = tables_by_key(before), tables_by_key(after)
    notes: list[str] = []
    changed = [key for key in sorted(set(old) & set(new)) if not same_table(old[key], new[key])]
    for key in sorted(set(old) ^ set(new)):
        notes.append(f"{human((old.get(key) or new[key]).qualified_name)}: created or dropped by the up "
                     "migration; the down leaves it")
    # columns whose definition the down changes: every foreign key on them goes first, comes back last
    touched: set[tuple[tuple[str, str], str]] = set()
    for key in changed:
        was, now = old[key], new[key]
        for name in set(was.columns) | set(now.columns):
            if was.columns.get(name) != now.columns.get(name):
                touched.add((key, name))
    drop_fks: list[str] = []
    add_fks: list[str] = []
    for key, table in new.items():
        was = old.get(key)
        for fk in table.foreign_keys:
            parent = ((fk.ref_schema if fk.ref_schema is not None else table.schema) or "").lower(), fk.ref_table.lower()
            kept = was is not None and fk in was.foreign_keys
            uses_touched = any((key, c.lower()) in touched for c in fk.columns) or any(
                (parent, c.lower()) in touched for c in fk.ref_columns)
            if not kept or uses_touched:
                drop_fks.append(f"ALTER TABLE {table_name(table)} DROP FOREIGN KEY {quote(fk.name or '')};")
                if kept:
                    add_fks.append(f"ALTER TABLE {table_name(table)} ADD {foreign_key_definition(table, fk)};")
        if was is not None:
            for fk in was.foreign_keys:
                if fk not in table.foreign_keys:
                    add_fks.append(f"ALTER TABLE {table_name(was)} ADD {foreign_key_definition(was, fk)};")
    alters = []
    for key in changed:
        actions, problems = _table_actions(old[key], new[key], target)
        notes.extend(problems)
        if actions:
            alters.append(f"ALTER TABLE {table_name(old[key])} {', '.join(actions)};")
    spaces = [f"DROP TABLESPACE {quote(t.name)};" for name, t in sorted(after.tablespaces.items())
              if name not in before.tablespaces]
    # a column the up made nullable (a zero-date default become NULL) may hold NULLs by now: in
    # strict mode the MODIFY back to NOT NULL fails at the first (1265), so they get its old default
    refill = []
    for key in changed:
        was, now = old[key], new[key]
        for name, column in was.columns.items():
            later = now.columns.get(name)
            if (later is not None and later.nullable and not column.nullable and column.default is not None
                    and column.default.upper() != "NULL" and column.generated is None):
                refill.append(f"UPDATE {table_name(was)} SET {quote(column.name)} = {column.default} "
                              f"WHERE {quote(column.name)} IS NULL;")
    if refill:
        notes.append("columns the up made nullable are NOT NULL again: the rows that hold NULL by then get the "
                     "column's old default first")
    return refill + drop_fks + alters + add_fks + spaces, notes


def _table_actions(was: Table, now: Table, target: Target) -> tuple[list[str], list[str]]:
    actions: list[str] = []
    notes: list[str] = []
    old_indexes = {(i.name or "").lower(): i for i in server_indexes(was)}
    new_indexes = {(i.name or "").lower(): i for i in server_indexes(now)}
    for name, index in new_indexes.items():
        if old_indexes.get(name) != index:
            actions.append("DROP PRIMARY KEY" if index.kind == "primary" else f"DROP INDEX {quote(index.name or '')}")
    for name, column in now.columns.items():
        if name not in was.columns:
            actions.append(f"DROP COLUMN {quote(column.name)}")
    # the order the ALTER leaves, simulated: a column is placed (AFTER ...) only where it would
    # otherwise not follow the column it followed before the up
    current = [n for n in now.columns if n in was.columns]
    previous = None
    for name, column in was.columns.items():
        place = "FIRST" if previous is None else f"AFTER {quote(was.columns[previous].name)}"
        moved = name in current and (current[current.index(name) - 1] if current.index(name) else None) != previous
        if name not in current or moved:
            if name in current:
                current.remove(name)
            current.insert(current.index(previous) + 1 if previous is not None else 0, name)
        if column.generated is not None and (name not in now.columns or now.columns[name] != column or moved):
            notes.append(f"{human(was.qualified_name)}.{human(column.name)}: a generated column; its expression is "
                         "not known here, so the down cannot write it")
        elif name not in now.columns:
            actions.append(f"ADD COLUMN {kept_definition(column, target)} {place}")
        elif now.columns[name] != column or moved:
            actions.append(f"MODIFY COLUMN {kept_definition(column, target)}" + (f" {place}" if moved else ""))
        previous = name
    for name, index in old_indexes.items():
        if new_indexes.get(name) != index:
            actions.append("ADD " + index_sql(index, target))
    actions.extend(_options(was, now, target))
    return actions, notes


def _options(was: Table, now: Table, target: Target) -> list[str]:
    a, b = was.options, now.options
    found = []
    if a.compression != b.compression:
        found.append(f"COMPRESSION='{a.compression or 'None'}'")
    if a.row_format != b.row_format:
        found.append(f"ROW_FORMAT={a.row_format or 'DEFAULT'}")
    if a.key_block_size != b.key_block_size:
        found.append(f"KEY_BLOCK_SIZE={a.key_block_size or 0}")
    if a.page_compressed != b.page_compressed:
        found.append(f"PAGE_COMPRESSED={1 if a.page_compressed else 0}")
    if a.tablespace != b.tablespace and target.has_general_tablespaces:
        found.append(f"TABLESPACE {quote(a.tablespace or 'innodb_file_per_table')}")
    for key in sorted(set(a.other) | set(b.other)):
        if a.other.get(key) != b.other.get(key) and a.other.get(key) is not None:
            found.append(f"{key}={a.other[key]}")
    return found


# --- the files -------------------------------------------------------------------------------------

def render(fix_plan: FixPlan) -> tuple[str, str | None]:
    """The up SQL and the down SQL (None when nothing is applied), without format markers."""
    applied, listed = fix_plan.applied, fix_plan.listed
    target = fix_plan.target.label
    lines = [f"-- innolint fix: {len(applied)} fix{'es' if len(applied) != 1 else ''} for the findings of this "
             f"migration history ({target}).",
             f"-- Each was replayed after the history, judged as {target}'s default sql_mode judges it: its finding",
             "-- is gone. A table's changes are one ALTER (the server judges the whole table at each ALTER). Review",
             "-- before committing: an ALTER that rebuilds a large table locks or copies it (pt-online-schema-change",
             "-- and gh-ost do it online)."]
    if fix_plan.history_problems:
        lines.append(f"-- Note: {len(fix_plan.history_problems)} statement(s) of the history could not be read "
                     "(innolint check lists them): the fixes were computed without them.")
    root = directory_of(fix_plan.history)
    for step in fix_plan.steps or [Step(list(fix.statements), [fix]) for fix in applied]:
        lines.append("")
        lines += [_about(fix, root) for fix in step.fixes]
        lines += [terminated(s) for s in step.statements]
        # the fixes' own comments (an alternative, what a statement does), as comments
        lines += list(dict.fromkeys(human(line.strip()) for fix in step.fixes
                                    for line in (fix.finding.fix or "").split("\n") if line.strip().startswith("--")))
    if listed:
        lines += ["", "-- Not applied: listed for review, nothing below runs."]
        for fix in listed:
            lines += ["", _about(fix, root), f"--   ({human(fix.advice)})"]
            text = fix.finding.fix or ""
            lines += [("--   " + line).rstrip() for line in human(text, keep="\n").split("\n") if text]
    up = "\n".join(lines) + "\n"
    if not applied:
        return up, None
    down_lines = ["-- innolint fix, down: restores what the up migration changed."]
    down_lines += [f"-- Note: {human(note)}" for note in fix_plan.down_notes]
    down_lines += fix_plan.down
    return up, "\n".join(down_lines) + "\n"


def _about(fix: Fix, root: str) -> str:
    finding = fix.finding
    where = f"{os.path.relpath(finding.path, root)}:{finding.line}"
    return f"-- [{finding.rule}] {human(where)}: {human(headline(finding))}"


def output_for(fix_plan: FixPlan, names: list[str], now: float | None = None) -> NewMigration:
    """The new files in the history's format (`linter.input.migrations.writing`, the one writer
    of every format). `names`: every name now in DIR (down and undo migrations too), so the new
    version is above all of them."""
    up, down = render(fix_plan)
    try:
        return new_migration(fix_plan.history, DESCRIPTION, up, down, names=names, now=now)
    except WritingError as error:
        raise FixError(str(error)) from None


def write(directory: str, output: NewMigration) -> list[str]:
    """Create the files inside DIR, none over an existing one but those the format replaces whole
    (an integrity file: written beside, then renamed over it); all or none. Files go in DIR, in
    the new sub-directory (`output.directory`), or in a directory below DIR that exists (one a
    root changelog includes whole), each opened without following a link. Returns their paths."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for name in output.files:
        if name.startswith(("/", "..")) or "\0" in name or ".." in name.split("/") or name.endswith("/"):
            raise FixError(f"{name}: not a file name inside {directory}")
    top = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    created: list[tuple[int, str]] = []
    opened: dict[str, int] = {"": top}
    made_directory = False
    renames: list[tuple[int, str, str]] = []  # (directory fd, written name, name it replaces)
    try:
        for name in output.files:
            if name not in output.replaces and os.path.lexists(os.path.join(directory, name)):
                raise FixError(f"{os.path.join(directory, name)}: exists already; innolint never overwrites a file")
        if output.directory is not None:
            try:
                os.mkdir(output.directory, dir_fd=top)
            except FileExistsError:
                raise FixError(f"{os.path.join(directory, output.directory)}: exists already") from None
            made_directory = True
        try:
            for name, text in output.files.items():
                folder, _, base = name.rpartition("/")
                parent = _directory_fd(top, folder, opened)
                written = f".{base}.innolint-{os.getpid()}" if name in output.replaces else base
                try:
                    fd = os.open(written, flags, 0o644, dir_fd=parent)
                except FileExistsError:
                    raise FixError(f"{os.path.join(directory, name)}: exists already; innolint never overwrites "
                                   "a file") from None
                created.append((parent, written))
                with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(text)
                if name in output.replaces:
                    renames.append((parent, written, base))
            for parent, written, base in renames:  # the last step: the files it names are all there
                os.replace(written, base, src_dir_fd=parent, dst_dir_fd=parent)
        except BaseException:
            for fd_parent, base in created:
                if (fd_parent, base) not in {(p, w) for p, w, _ in renames} or os.path.lexists(base):
                    try:
                        os.unlink(base, dir_fd=fd_parent)
                    except FileNotFoundError:
                        pass
            if made_directory:
                os.rmdir(output.directory, dir_fd=top)  # type: ignore[arg-type]
            raise
    finally:
        for fd in opened.values():
            os.close(fd)
    return [os.path.join(directory, name) for name in output.files]


def _directory_fd(top: int, folder: str, opened: dict[str, int]) -> int:
    """The descriptor of `folder` below DIR (""), each part opened without following a link: a
    directory a pull request replaced with a link out of DIR is refused, not written into."""
    if folder in opened:
        return opened[folder]
    parent = _directory_fd(top, folder.rpartition("/")[0], opened)
    part = folder.rpartition("/")[2]
    try:
        fd = os.open(part, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0), dir_fd=parent)
    except OSError:
        raise FixError(f"{folder}: not a directory inside the migration directory (a link?): nothing written") from None
    opened[folder] = fd
    return fd


def directory_names(directory: str, history: History | None = None) -> list[str]:
    """Every name in DIR (files and sub-directories), for choosing the next version; for a history
    whose format scans folders (`Format.folders`) also the names of its migrations in its folders
    and its other locations (Flyway's `release2/V5__x.sql`, a second location's V3: the new version
    is above every one the tool runs)."""
    names = set(os.listdir(directory))
    if history is not None and named(history.format).folders:
        names.update(os.path.basename(p) for p in [*history.files, *(path for path, _ in history.ignored)])
    return sorted(names)

