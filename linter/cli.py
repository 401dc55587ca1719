"""Command line: argument parsing and wiring only.

Exit codes: 0 nothing at or above the fail level, 1 something is, 2 usage, configuration or
input errors (a missing path, an unreadable file). Imports are lazy so a pre-commit run on one
file starts fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FORMATS = ("text", "json", "sarif", "github")
FAIL_LEVELS = ("error", "warning", "info", "none")


def target_name(value: str) -> str:
    """--target's value: a line (mysql-8.0) or a full version (mysql-8.0.36), as `Target.parse` reads it."""
    from linter.schema.target import Target

    try:
        Target.parse(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return value


def build_parser() -> argparse.ArgumentParser:
    from linter import __version__
    from linter.input.migrations.formats import FORMATS as MIGRATION_FORMATS
    from linter.schema.target import DEFAULT_TARGET, TARGETS

    parser = argparse.ArgumentParser(
        prog="innolint", description="InnoDB-aware linter for MySQL and MariaDB schema DDL."
    )
    parser.add_argument("--version", action="version", version=f"innolint {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="lint SQL files, directories of migrations, dumps, or - (stdin)")
    check.add_argument("paths", nargs="*", default=[], help="files, directories or - (default: .; with "
                       "--changed-only: none, only what git says the commit deletes)")
    check.add_argument("--format", choices=FORMATS, default="text")
    check.add_argument("--target", type=target_name, default=None, metavar="TARGET",
                       help=f"server the schema runs on: {', '.join(TARGETS)}, or a full version such as mysql-8.0.36 "
                       f"(default {DEFAULT_TARGET})")
    check.add_argument("--fail-level", choices=FAIL_LEVELS, default=None,
                       help="exit 1 when a finding is at or above this severity (default warning)")
    check.add_argument("--output", "-o", default=None, help="write the report to this file instead of stdout")
    _config_arguments(check)
    _selection_arguments(check)
    _text_arguments(check)
    changed = check.add_mutually_exclusive_group()
    changed.add_argument("--changed-only", action="store_true",
                         help="the PATHS are changed files (pre-commit): lint their migration directories for "
                         "context, report the findings located in them and, in a git repository, every finding the "
                         "change makes new against HEAD (staged deletions included)")
    changed.add_argument("--since", metavar="GIT_REF", default=None,
                         help="what the change since GIT_REF makes worse: the findings in the files changed against "
                         "GIT_REF (and untracked ones) under PATHS, and every finding new against GIT_REF's tree")
    check.add_argument("--baseline", metavar="FILE", default=None,
                       help="hide the findings recorded in FILE; list those that are gone")
    check.add_argument("--write-baseline", metavar="FILE", default=None,
                       help="record the current findings in FILE (fingerprints without line numbers) and exit 0")

    github = commands.add_parser(
        "github",
        help="publish a JSON report to GitHub: check run, job summary, PR comment, SARIF",
        description="Publish `innolint check --format json` output to GitHub. Reads GITHUB_TOKEN, GITHUB_REPOSITORY, "
        "GITHUB_EVENT_PATH (the pull request's head sha and number), GITHUB_SHA, GITHUB_API_URL, GITHUB_STEP_SUMMARY "
        "and GITHUB_OUTPUT from the environment; the token is never taken as an argument.",
    )
    github.add_argument("report", help="the JSON report of `innolint check --format json`, or - (stdin)")
    github.add_argument("--fail-level", choices=FAIL_LEVELS, default=None,
                        help="conclusion failure and exit 1 at or above this severity (default: what `innolint check` "
                        "decided for each file's configuration, --check-status 1; without it, warning)")
    github.add_argument("--annotations", choices=("checks", "workflow-commands", "none"), default="checks",
                        help="checks: a check run with the annotations (default); workflow-commands: ::error lines")
    github.add_argument("--annotate", choices=("new", "all"), default="new",
                        help="new: annotate what the change adds or makes worse, the rest is in the summary "
                        "(default; a report that compared nothing annotates every finding); all: every finding")
    github.add_argument("--annotation-level", choices=("error", "warning", "info"), default="info",
                        help="the least severe finding annotated (default info: every one --annotate keeps)")
    github.add_argument("--summary", action=argparse.BooleanOptionalAction, default=True,
                        help="append a Markdown summary to $GITHUB_STEP_SUMMARY (default on)")
    github.add_argument("--comment", action=argparse.BooleanOptionalAction, default=False,
                        help="add or update one pull-request comment with the summary (default off)")
    github.add_argument("--sarif-file", default=None, help="also write SARIF 2.1.0 to this file")
    github.add_argument("--check-name", default="innolint", help="the check run's name (default innolint)")
    github.add_argument("--check-status", metavar="N", type=int, default=None,
                        help="the exit status of the `innolint check` that wrote REPORT: 2 or more concludes failure, "
                        "and when it left no report one is made of this status and --check-log, so the check run, "
                        "the summary and an annotation say why (what the action does)")
    github.add_argument("--check-log", metavar="FILE", default=None,
                        help="what `innolint check` printed on standard error (with --check-status)")
    github.add_argument("--comment-author", metavar="LOGIN", default=None,
                        help="edit only the innolint comment written by LOGIN (default: the token's own identity; "
                        "github-actions[bot] for an installation token: name your App's bot for an App token)")

    audit = commands.add_parser(
        "audit", help="lint a running server's schema, read-only, with its workload, sizes and data",
        description="Read SHOW CREATE TABLE of every table of the chosen schemas, the workload counters "
        "(performance_schema) and sizes (information_schema), and run every check. Only SELECT and SHOW are "
        "ever sent, in a READ ONLY session with a lock wait and a statement timeout; audit as a user with SELECT "
        "on the audited schemas and on performance_schema.table_io_waits_summary_by_table (docs/audit.md). The "
        "password comes from --password-env, --defaults-file or MYSQL_PWD, never from the DSN.",
    )
    audit.add_argument("--dsn", required=True,
                       help="mysql://user@host:port/?schemas=a,b or mysql://user@/?socket=/path&schemas=a "
                       "(no schemas: every schema but mysql, sys and the schemata); TLS options may be parameters: "
                       "&ssl-mode=VERIFY_IDENTITY&ssl-ca=/path/ca.pem")
    audit.add_argument("--password-env", metavar="VAR", default=None,
                       help="read the password from this environment variable")
    audit.add_argument("--defaults-file", metavar="FILE", default=None,
                       help="a MySQL option file whose [client] password and ssl-* options to use")
    audit.add_argument("--ssl-mode", metavar="MODE", default=None, type=str.upper,
                       choices=("DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA", "VERIFY_IDENTITY"),
                       help="as the mysql client's: DISABLED, PREFERRED (default over TCP), REQUIRED, VERIFY_CA "
                       "(the default with --ssl-ca), VERIFY_IDENTITY; a mode that requires TLS never sends the "
                       "password without it")
    audit.add_argument("--ssl-ca", metavar="FILE", default=None, help="the CA that signs the server's certificate")
    audit.add_argument("--ssl-cert", metavar="FILE", default=None, help="a client certificate to present")
    audit.add_argument("--ssl-key", metavar="FILE", default=None, help="the client certificate's key")
    audit.add_argument("--lock-wait-timeout", metavar="SECONDS", type=int, default=5,
                       help="a table another session keeps locked longer than this is skipped, and said so (default 5)")
    audit.add_argument("--statement-timeout", metavar="SECONDS", type=float, default=30.0,
                       help="the server stops any of the audit's statements after this long (max_statement_time / "
                       "max_execution_time; default 30, 0: none)")
    audit.add_argument("--max-queries-per-second", metavar="N", type=float, default=None,
                       help="send at most N statements a second (default: no limit)")
    audit.add_argument("--format", choices=FORMATS, default="text")
    audit.add_argument("--target", type=target_name, default=None, metavar="TARGET",
                       help="advice for this server (default: the configuration's, else detected from the server)")
    audit.add_argument("--fail-level", choices=FAIL_LEVELS, default=None,
                       help="exit 1 when a finding is at or above this severity (default warning)")
    audit.add_argument("--output", "-o", default=None, help="write the report to this file instead of stdout")
    audit.add_argument("--config", metavar="FILE", default=None,
                       help="configuration file (default: the nearest one from the current directory)")
    audit.add_argument("--export-stats", metavar="FILE", default=None,
                       help="also write the workload and size evidence as a stats file for `check --stats`")
    audit.add_argument("--sample", metavar="N", type=int, default=0,
                       help="measure compression on at most N values of each candidate column and read N values of "
                       "each UUID-like key, each read bounded to 10N rows examined on MariaDB (default 0: off)")
    _selection_arguments(audit)
    _text_arguments(audit)

    fix = commands.add_parser(
        "fix", help="write the fixes of the current findings as a new migration",
        description="Lint the migration history in DIR and write the fixes of its findings as the next migration, "
        f"in the directory's own format ({'; '.join(f.writes for f in MIGRATION_FORMATS)}). Each fix is replayed after the "
        "history first: only "
        "fixes that make their finding go are applied; the others are listed in the file as comments. The down "
        "migration restores the tables as they were. Nothing is written outside DIR, nothing is overwritten.",
    )
    fix.add_argument("--migration", metavar="DIR", required=True, help="the migration directory to add to")
    fix.add_argument("--target", type=target_name, default=None, metavar="TARGET",
                     help=f"server the schema runs on (default {DEFAULT_TARGET}; a line or a full version)")
    fix.add_argument("--min-severity", choices=("error", "warning", "info"), default=None,
                     help="fix findings at or above this severity (default: the fail level, else warning)")
    fix.add_argument("--dry-run", action="store_true", help="print the files instead of writing them")
    fix.add_argument("--allow-dirty", action="store_true",
                     help="write the migration even when migrations of DIR are not committed (untracked, staged, "
                     "modified or deleted): by default it is refused, as cargo fix does, since a migration not "
                     "committed has run nowhere and is fixed in place")
    _config_arguments(fix)
    _selection_arguments(fix)
    rules = commands.add_parser("rules", help="list the rules (--format json: for tools)")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    rules.add_argument("--config", metavar="FILE", default=None,
                       help="the severities and options as used with this configuration (default: the nearest one)")
    explain = commands.add_parser("explain", help="print a rule's documentation")
    explain.add_argument("rule")
    config = commands.add_parser("config", help="print the effective configuration for a path and where each value came from")
    config.add_argument("path", nargs="?", default=".",
                        help="a file or directory (default: .; -: what applies to standard input)")
    _config_arguments(config)
    _selection_arguments(config)
    return parser


def _selection_arguments(parser: argparse.ArgumentParser) -> None:
    """--select / --extend-select / --ignore, as ruff has them: rule ids or prefixes ending at a
    `-` (`uuid`, `tenant`), comma-separated or repeated; they beat the configuration's `enabled`."""
    for flag, text in (
        ("--select", "run only these rules (ids or prefixes, comma-separated); parse, replay and I/O errors stay"),
        ("--extend-select", "run these rules too, even if the configuration disables them"),
        ("--ignore", "never run these rules"),
    ):
        parser.add_argument(flag, metavar="RULES", action="append", default=None, help=text)


def _text_arguments(parser: argparse.ArgumentParser) -> None:
    """What `--format text` shows (linter.report.text.TextOptions)."""
    parser.add_argument("--show-fixes", action="store_true", help="print each finding's fix under it")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="print each finding whole: message, evidence, fix, statement, the rule's page")
    parser.add_argument("--show-info", action="store_true",
                        help="list info findings too (default: counted in one line, unless the fail level is info)")
    parser.add_argument("--statistics", action="store_true", help="print one line per rule with its count instead")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="print the findings only: no summary line, no notes on stderr")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour the text report (default auto: on a terminal; NO_COLOR turns it off, "
                        "FORCE_COLOR on); never in an --output file")


def _collect_rarely() -> None:
    """A run builds one large model that lives to its end (110K tables for a tenant dump), with
    few reference cycles: the cyclic collector's full passes walk all of it again and again and
    find nothing (~10% of such a run). Freeze what exists (the imports) out of its reach and make
    full passes rare; short-lived garbage (sqlglot's trees) is still collected by the young
    generations. Called at start and again after `check`'s imports, which run with the collector
    off (~25 ms of passes over sqlglot's and pydantic's objects otherwise)."""
    import gc

    gc.freeze()
    gc.set_threshold(10_000, 50, 1_000)


def _config_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by `check` and `config` (--target and --fail-level are on `check` already)."""

    parser.add_argument("--config", metavar="FILE", default=None,
                        help="use this configuration file for every path instead of the nearest one")
    parser.add_argument("--stats", metavar="FILE", default=None, help="workload statistics file (overrides `stats`)")
    if parser.prog.endswith(" config"):
        parser.add_argument("--target", type=target_name, default=None, metavar="TARGET")
        parser.add_argument("--fail-level", choices=FAIL_LEVELS, default=None)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(files_last(parser, argv))
    if args.command == "check" and args.changed_only and not args.paths and not args.write_baseline \
            and not _staged_deletions():
        return EXIT_CLEAN  # the hook on a commit with no SQL: nothing to read, nothing imported
    _collect_rarely()
    if args.command == "rules":
        return _rules(args)
    if args.command == "explain":
        return _explain(args.rule)
    if args.command == "github":
        return _github(args)
    if args.command == "audit":
        return _audit(args)
    if args.command == "config":
        return _config(args)
    if args.command == "fix":
        return _fix(args)
    return _check(args)


def _staged_deletions() -> bool:
    """Whether the commit being made deletes or renames a file (what pre-commit names no file
    for): `check --changed-only` with no file then lints the deleted files' directories. Asked of
    git before anything else is imported, so that the hook, which runs on every commit
    (`always_run`), costs a git call on a commit that stages no SQL. Outside a repository or
    before its first commit nothing can be deleted."""
    import subprocess

    try:
        done = subprocess.run(["git", "diff", "--cached", "--no-ext-diff", "--no-textconv", "--name-only", "-z",
                               "--diff-filter=DR", "HEAD", "--"], capture_output=True, check=False)
    except OSError:
        return False
    return done.returncode == 0 and bool(done.stdout.strip(b"\0"))


def files_last(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`check --changed-only` as pre-commit runs it: the entry, the user's `args:`, then the staged
    file names, with no `--` between them (pre-commit appends names). A committed file named
    `--output=schema.sql` must stay a file name, yet `args: [--fail-level=error]` must stay an
    option, so the trailing arguments that name existing paths are taken as file names (a `--`
    is put before them), stopping at the first that names none or that is the value of the option
    before it (`--config FILE`). Outside that mode, and when a `--` is given, argv is unchanged."""
    if len(argv) < 2 or argv[0] != "check" or "--" in argv or "--changed-only" not in argv:
        return argv
    import os

    takes_value = _options_with_values(parser, "check")
    start = len(argv)
    while start > 1 and os.path.lexists(argv[start - 1]) and argv[start - 2] not in takes_value:
        start -= 1
    return argv if start == len(argv) else [*argv[:start], "--", *argv[start:]]


def _options_with_values(parser: argparse.ArgumentParser, command: str) -> frozenset[str]:
    """The option strings of a sub-command that take a separate value (`--config FILE`)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return frozenset(s for a in sub._actions if a.option_strings and a.nargs != 0 for s in a.option_strings)


def _say(message: str) -> None:
    """A message on standard error, `innolint: ` first. It may quote names and values from input
    (a path, a configuration value): shown through `linter.report.human`, so none can print a
    control character or a live GitHub workflow command into a CI log."""
    from linter.report import human

    print("innolint: " + human(message, keep="\n"), file=sys.stderr)


def _rules(args: argparse.Namespace) -> int:
    """The rules: a table for people, with the severity its findings get (and, where evidence
    raises it, when), or (--format json) for tools, with the severities and options as the
    configuration for the current directory (or --config) sets them."""
    from checks import ALL_CHECKS, ENGINE_RULES, ENGINE_SEVERITY, USAGE_ERROR
    from linter.config.defaults import ConfigError

    if args.format == "json":
        import json

        from linter.rules.catalogue import catalogue

        try:
            loaded = _resolver(args).for_path(".")
            print(json.dumps(catalogue(loaded), indent=1))
        except ConfigError as error:
            _say(str(error))
            return EXIT_USAGE
        return EXIT_CLEAN
    for check in ALL_CHECKS:
        note = f" ({check.severity_note})" if check.severity_note else ""
        print(f"{check.id:<26} {check.severity:<8} {check.title}{note}")
    for rule, text in {**ENGINE_RULES, **USAGE_ERROR}.items():
        print(f"{rule:<26} {ENGINE_SEVERITY.get(rule, '-'):<8} {text}")
    return EXIT_CLEAN


def _explain(rule: str) -> int:
    """A rule's documentation. RULE is resolved as `--select` resolves it (`linter.rules.selection.matching`:
    an id, a prefix ending where a `-` does, ALL), so `explain uuid` is uuid-primary-key's page; a
    prefix naming several rules prints each."""
    from checks import ENGINE_RULES, ENGINE_SEVERITY, USAGE_ERROR, check_by_id
    from linter.config.defaults import rule_ids
    from linter.report.text import rule_link
    from linter.rules.docs import render_rule
    from linter.rules.selection import matching
    from linter.suggest import did_you_mean

    known = [*rule_ids(), *USAGE_ERROR]
    matched = [name for name in known if name in matching(rule, known)]
    if not matched:
        _say(f"unknown rule {rule!r}{did_you_mean(rule, known)}; `innolint rules` lists them")
        return EXIT_USAGE
    engine = {**ENGINE_RULES, **USAGE_ERROR}
    pages = []
    for name in matched:
        check = check_by_id(name)
        if check is not None:
            page = render_rule(check).rstrip("\n")
            link = rule_link(name)
            pages.append(page + (f"\nOnline: {link}" if link.startswith("http") else ""))
        else:  # the engine's own diagnostics have no RuleDoc, only their line
            pages.append(f"# {name}\n\nDefault severity: **{ENGINE_SEVERITY[name]}**\n\n{engine[name]}")
    print("\n\n".join(pages))
    return EXIT_CLEAN


def _resolver(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The configuration resolver, with the command line's values beating every file. Raises
    ConfigError for an unknown rule in --select/--ignore."""
    from linter.config.settings import ConfigResolver

    overrides: dict[str, object] = {}
    for key, flag in (("target", "--target"), ("fail_level", "--fail-level"), ("stats", "--stats")):
        if getattr(args, key, None) is not None:
            overrides[key] = (getattr(args, key), flag)
    selection = _selection(args)
    if selection is not None:
        overrides["selection"] = (selection, selection.flags)
    return ConfigResolver(args.config, overrides=overrides)  # type: ignore[arg-type]


def _selection(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The rule selection of --select / --extend-select / --ignore, or None when none is given."""
    select, extend, ignore = (getattr(args, name, None) for name in ("select", "extend_select", "ignore"))
    if select is None and extend is None and ignore is None:
        return None
    from linter.rules.selection import RuleSelection

    return RuleSelection.from_flags(select, extend, ignore)


def _check(args: argparse.Namespace) -> int:
    import gc

    # no collector passes over what the imports make (sqlglot, pydantic: most of the objects of a
    # short run); _collect_rarely freezes it all afterwards
    collecting = gc.isenabled()
    gc.disable()
    try:
        from linter.config.defaults import ConfigError
        from linter.engine import RunOptions, lint_paths
        from linter.rules.findings import at_or_above
        from linter.input.git_changes import ChangeError
    finally:
        _collect_rarely()
        if collecting:
            gc.enable()

    problem = _output_problem(args)
    if problem is not None:
        _say(problem)
        return EXIT_USAGE
    if args.write_baseline and (args.changed_only or args.since):
        print("innolint: --write-baseline records every finding: run it without --changed-only/--since", file=sys.stderr)
        return EXIT_USAGE
    usage_errors: tuple[type[Exception], ...] = (ConfigError, ChangeError)
    try:
        from linter.rules.fingerprints import BaselineError  # (the baseline's pydantic models: on use only)

        usage_errors += (BaselineError,)
        resolver = _resolver(args)
        changes, targets = _changes(args, resolver)
        progress = None if args.quiet else _ProgressBar.for_stderr()
        try:
            report = lint_paths(targets, options=RunOptions(resolver, changes=changes, progress=progress))
        finally:
            if progress is not None:
                progress.finish()
        if args.write_baseline:
            from linter.rules import baseline

            written = baseline.write(args.write_baseline, report.findings, report.diagnostics)
            _say(f"wrote {written} finding{'s' if written != 1 else ''} to {args.write_baseline}")
        else:
            _apply_baselines(report, args, resolver, targets, changes)
    except usage_errors as error:
        _say(str(error))
        _emit_usage_error(str(error), args.format, args.output)
        return EXIT_USAGE
    if not _emit(_render(report, args.format, args, lambda path: resolver.for_path(path).fail_level), args.output):
        return EXIT_USAGE
    unreadable = [d for d in report.diagnostics if d.rule == "io-error"]
    if unreadable:
        if args.format != "text" or args.output:  # the report went to a program: say on stderr why exit 2
            for diagnostic in unreadable:
                _say(f"error [io-error] {diagnostic.message}")
        return EXIT_USAGE
    if args.write_baseline:
        return EXIT_CLEAN  # every finding is now accepted
    # each file's own configuration sets its fail level; a shrinking baseline never fails a run
    levels: dict[str, str] = {}  # by path: a dump's thousands of findings share one file
    for item in [*report.findings, *report.diagnostics]:
        level = levels.get(item.path)
        if level is None:
            level = levels[item.path] = resolver.for_path(item.path).fail_level
        if item.rule != "baseline-gone" and level != "none" and at_or_above(item.severity, level):
            return EXIT_FINDINGS
    return EXIT_CLEAN


def _apply_baselines(report, args: argparse.Namespace, resolver, targets: list[str], changes) -> None:  # type: ignore[no-untyped-def]
    """Hide what the baselines know: `--baseline FILE` for every item, else the `baseline` each
    file's configuration names (a monorepo's services each keep their own), read only when one is
    configured (pydantic: `linter.rules.baseline`). What a baseline hides is counted on stderr and
    what it lists that is gone is reported (`baseline-gone`); what it does not know is new
    (`Finding.new`, unless the run compared with git and knows better). A configured baseline
    that does not exist yet hides nothing, and is said."""
    import os

    from linter.rules.fingerprints import NOT_MATCHED

    # an unreadable file's io-error is never baselined (and its directory may not be readable)
    items = [item for item in [*report.findings, *report.diagnostics] if item.rule not in NOT_MATCHED]
    if args.baseline:
        chosen: dict[str, str] = {args.baseline: "--baseline"}
        baseline_of = {id(item): args.baseline for item in items}
    else:
        chosen = {}
        baseline_of = {}
        for path in [*(t for t in targets if t == "-" or os.path.exists(t)), *{item.path for item in items}]:
            loaded = resolver.for_path(path if path and path != "-" and "://" not in path else ".")
            configured = loaded.baseline_path
            if configured is not None:
                chosen.setdefault(str(configured), f"{loaded.source_label}: baseline")
        if not chosen:
            return
        for item in items:
            path = item.path if item.path and item.path != "-" and "://" not in item.path else "."
            configured = resolver.for_path(path).baseline_path
            if configured is not None:
                baseline_of[id(item)] = str(configured)
    from linter.rules import baseline

    findings = [f for f in report.findings if id(f) not in baseline_of]
    diagnostics = [d for d in report.diagnostics if id(d) not in baseline_of]
    hidden = gone = read = 0
    for path, origin in chosen.items():
        if origin != "--baseline" and not os.path.exists(path):
            if not args.quiet:
                shown = os.path.relpath(path) if not os.path.relpath(path).startswith(os.pardir) else path
                _say(f"{origin}: {shown} does not exist yet, so nothing is hidden; "
                     f"`innolint check --write-baseline {shown}` records today's findings in it")
            findings.extend(f for f in report.findings if baseline_of.get(id(f)) == path)
            diagnostics.extend(d for d in report.diagnostics if baseline_of.get(id(d)) == path)
            continue
        known = baseline.load(path)
        comparison = baseline.compare([f for f in report.findings if baseline_of.get(id(f)) == path], known, path,
                                      _scope(targets, changes),
                                      [d for d in report.diagnostics if baseline_of.get(id(d)) == path])
        findings.extend(f if f.new is not None else f.replace(new=True) for f in comparison.new)
        diagnostics.extend(d if d.new is not None else d.replace(new=True) for d in comparison.new_diagnostics)
        diagnostics.extend(comparison.gone)
        hidden += comparison.known
        gone += len(comparison.gone)
        read += 1
    report.findings = sorted(findings, key=lambda f: f.sort_key())
    report.diagnostics = sorted(diagnostics, key=lambda d: d.sort_key())
    if read and not args.quiet:
        print(f"innolint: {hidden} known finding{'s' if hidden != 1 else ''} hidden by the baseline, {gone} gone",
              file=sys.stderr)


def _changes(args: argparse.Namespace, resolver):  # type: ignore[no-untyped-def]
    """The change a run is about and the paths to lint: `--since REF` (git's diff against REF),
    `--changed-only FILE...` (the files, and what the commit deletes), or none. When git knows the
    tree before the change, the affected units are replayed there too (`linter.since`), so that
    every finding the change makes new is reported wherever it is."""
    from linter.input.git_changes import ChangeSet

    paths = list(args.paths) or ([] if args.changed_only else ["."])
    if args.since:
        changes = ChangeSet.from_git(args.since)
    elif args.changed_only:
        changes = ChangeSet.for_commit(paths)
        import os

        # a deletion is linted in its directory's context: the files left there
        paths += sorted({os.path.dirname(d) for d in changes.deleted if os.path.isdir(os.path.dirname(d))})
    else:
        return None, paths
    if changes.ref is not None:
        from linter import since

        changes.before = since.before(changes, paths, resolver)
    return changes, paths


def _emit_usage_error(message: str, fmt: str, output: str | None) -> None:
    """A run that could not start still writes its report in a machine format (json, sarif,
    github), holding one `usage-error` diagnostic with the reason: what reads the report (the
    action's publishing step, code scanning) then has the reason to show, not a missing file."""
    if fmt == "text":
        return
    from linter.rules.findings import Diagnostic, Report

    report = Report(diagnostics=[Diagnostic(rule="usage-error", severity="error", path="", message=message)])
    _emit(_render(report, fmt), output)


class _ProgressBar:
    """Files, bytes and tables on one line of stderr, redrawn at most 5 times a second, and only
    once the run has lasted a second: a terminal only, never in CI logs (see `for_stderr`)."""

    DELAY, INTERVAL = 1.0, 0.2

    def __init__(self, stream) -> None:  # type: ignore[no-untyped-def]
        import time

        self.stream = stream
        self.clock = time.monotonic
        self.started = self.last = self.clock()
        self.files = self.files_done = 0
        self.total = self.done = self.tables = 0
        self.drawn = False

    @classmethod
    def for_stderr(cls) -> _ProgressBar | None:
        import os

        stream = sys.stderr
        if os.environ.get("CI") or os.environ.get("TERM") == "dumb" or not getattr(stream, "isatty", lambda: False)():
            return None
        return cls(stream)

    def start(self, files: int, total_bytes: int) -> None:
        self.files, self.total = files, total_bytes

    def read(self, nbytes: int, tables: int) -> None:
        self.done += nbytes
        self.tables = tables
        now = self.clock()
        if now - self.started >= self.DELAY and now - self.last >= self.INTERVAL:
            self.last = now
            self._draw()

    def file_done(self) -> None:
        self.files_done += 1

    def _draw(self) -> None:
        mb = self.done / 1e6
        size = f"{mb:,.1f}/{self.total / 1e6:,.1f} MB" if self.total >= self.done else f"{mb:,.1f} MB"
        share = f" {min(self.done / self.total, 1):4.0%}" if self.total >= self.done and self.total else ""
        line = (f"innolint: {min(self.files_done + 1, self.files)}/{self.files} files, {size}, "
                f"{self.tables:,} tables{share}")
        self.stream.write("\r" + line + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def finish(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


def _scope(paths: list[str], changes):  # type: ignore[no-untyped-def]
    """Whether a file was linted by this run: under one of the PATHS, and changed (--since)."""
    import os

    roots = [os.path.abspath(p) for p in paths if p != "-"]

    def in_scope(path: str) -> bool:
        if path == "-":
            return "-" in paths
        absolute = os.path.abspath(path)
        if not any(absolute == root or absolute.startswith(root.rstrip(os.sep) + os.sep) for root in roots):
            return False
        return changes is None or changes.contains(path)

    return in_scope


def _config(args: argparse.Namespace) -> int:
    """The effective configuration for a path as TOML that reads back (under `[tool.innolint]`,
    rules as dotted keys), each value's origin in a comment after it; a key without a value is
    written as a comment."""
    import os

    from linter.config.defaults import ConfigError
    from linter.report import human

    if args.path != "-" and not os.path.exists(args.path):
        _say(f"{args.path}: no such file or directory")
        return EXIT_USAGE
    try:
        loaded = _resolver(args).for_path(args.path)
        rows = loaded.explain()
    except ConfigError as error:
        _say(str(error))
        return EXIT_USAGE
    source = loaded.source_label if loaded.source else "no configuration file: every value is a default"
    print(f"# effective configuration for {human(os.path.abspath(args.path))}")
    print(f"# read from: {human(source)}")
    print("# (valid TOML: save it as .innolint.toml, or paste it into pyproject.toml)")
    print("[tool.innolint]")
    unset = {"tenant_schema_pattern": "tenant schemas are found by their likeness", "stats": "no workload statistics"}
    lines = [(f"{key} = {toml_value(value)}" if value is not None
              else f"# {key} is not set" + (f": {unset[key]}" if key in unset else ""), human(where))
             for key, value, where in rows]
    width = max(len(text) for text, _ in lines)
    for text, where in lines:
        print(f"{text:<{width}}  # {where}")
    return EXIT_CLEAN


def toml_value(value: object) -> str:
    """A value as TOML: strings as basic strings with every control character escaped (TOML
    allows none but tab raw), lists and tables inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        out = []
        for char in value:
            if char in '"\\':
                out.append("\\" + char)
            elif ord(char) < 0x20 or ord(char) == 0x7F:
                out.append(f"\\u{ord(char):04x}")
            else:
                out.append(char)
        return '"' + "".join(out) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items() if v is not None) + "}"
    raise TypeError(f"no TOML for {value!r}")


def toml_key(key: str) -> str:
    """A bare key when TOML allows one, else a quoted key."""
    import re

    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_value(key)


def _fix(args: argparse.Namespace) -> int:
    """`innolint fix --migration DIR`: linter.fix_migration does the work; exit 0 when every
    chosen finding is fixed (or there is none), 1 when some are only listed, 2 on usage errors."""
    from linter.config.defaults import ConfigError
    from linter.fix_migration import FixError, build, directory_names, output_for, write
    from linter.report import human

    try:
        resolver = _resolver(args)
        level = args.min_severity or resolver.for_path(args.migration).fail_level
        plan = build(args.migration, resolver, min_severity="info" if level == "none" else level,
                     allow_dirty=args.allow_dirty or args.dry_run)
        if plan.uncommitted and not args.allow_dirty:
            _say(f"note: {len(plan.uncommitted):,} migration(s) of {args.migration} not committed: without "
                 "--dry-run the migration is not written (commit them first, or --allow-dirty)")
        if not plan.fixes:
            _say(f"{args.migration}: nothing to fix at or above {level}")
            return EXIT_CLEAN
        output = output_for(plan, directory_names(args.migration, plan.history))
        if args.dry_run:
            for name, text in output.files.items():
                print(f"==> {human(name)} <==")
                sys.stdout.write(text)
            written = list(output.files)
        else:
            written = write(args.migration, output)
    except (ConfigError, FixError, OSError) as error:
        _say(str(error))
        return EXIT_USAGE
    applied, listed = len(plan.applied), len(plan.listed)
    verb = "would write" if args.dry_run else "wrote"
    _say(f"{verb} {', '.join(written)}: {applied} fix{'es' if applied != 1 else ''} applied, "
         f"{listed} finding{'s' if listed != 1 else ''} listed for review")
    if output.note:
        _say(f"note: {human(output.note)}")
    for note in plan.down_notes:
        _say(f"down migration: {note}")
    for finding in plan.new_findings:
        _say(f"note: after the fixes, {finding.rule}: {finding.summary or finding.message}")
    return EXIT_FINDINGS if listed else EXIT_CLEAN


def _github(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from linter.input.file_access import REPORT_FILE_CAP, FileRefused, read_capped
    from linter.report.contract import read_report
    from linter.github.check_runs import GitHubEnvironment, PublishOptions, missing_report, run

    problem = None
    try:
        if args.report == "-":
            raw = sys.stdin.buffer.read(REPORT_FILE_CAP + 1)
            if len(raw) > REPORT_FILE_CAP:
                raise FileRefused(f"-: the report is more than the {REPORT_FILE_CAP >> 20} MiB innolint reads")
        else:
            raw = read_capped(args.report, REPORT_FILE_CAP, "report", expected="JSON report")
        report = read_report(raw.decode("utf-8"))
    except FileRefused as error:
        problem = f"cannot read the report: {error}"
    except (UnicodeDecodeError, ValidationError) as error:
        problem = f"cannot read the report {args.report}: {error}"
    if problem is not None:
        _say(problem)
        if args.check_status is None:
            return EXIT_USAGE
        report = missing_report(args.check_status, args.check_log, problem, GitHubEnvironment.from_environ())
        args.check_status = max(args.check_status, EXIT_USAGE)  # no report: the check failed, whatever its exit
    options = PublishOptions(
        fail_level=args.fail_level,
        annotations=args.annotations,
        annotate=args.annotate,
        annotation_level=args.annotation_level,
        summary=args.summary,
        comment=args.comment,
        sarif_file=args.sarif_file,
        check_name=args.check_name,
        comment_author=args.comment_author,
        check_status=args.check_status,
    )
    return run(report, options)


def _audit(args: argparse.Namespace) -> int:
    """Wiring only: the configuration, the connection, linter.audit.server, the report."""
    import os
    import time
    from dataclasses import replace

    from linter.audit.connection import (
        AuditConnectionError,
        AuditQueryError,
        DsnError,
        SessionLimits,
        WriteRefused,
        connect,
    )
    from linter.audit.server import AuditOptions, SchemaNotFound, detect_target, read_server, run_checks
    from linter.config.defaults import ConfigError
    from linter.engine import Engine
    from linter.rules.findings import at_or_above
    from linter.schema.target import Target

    started = time.perf_counter()
    problem = _output_problem(args)
    if problem is not None:
        _say(problem)
        return EXIT_USAGE
    if args.sample < 0:
        print("innolint: --sample takes a number of values, 0 or more", file=sys.stderr)
        return EXIT_USAGE
    try:
        limits = SessionLimits(lock_wait_timeout=args.lock_wait_timeout, statement_timeout=args.statement_timeout,
                               max_queries_per_second=args.max_queries_per_second)
    except ValueError as error:
        _say(f"--lock-wait-timeout, --statement-timeout, --max-queries-per-second: {error}")
        return EXIT_USAGE
    password = None
    if args.password_env is not None:
        password = os.environ.get(args.password_env)
        if password is None:
            _say(f"--password-env {args.password_env}: that environment variable is not set")
            return EXIT_USAGE
    try:
        settings = _resolver(args).for_path(".")
        context = settings.context()
        with connect(args.dsn, password, args.defaults_file, ssl_mode=args.ssl_mode, ssl_ca=args.ssl_ca,
                     ssl_cert=args.ssl_cert, ssl_key=args.ssl_key, limits=limits) as connection:
            if args.target is None and "target" not in settings.config.model_fields_set:
                comment = str(connection.query("SELECT @@version_comment")[0][0])
                detected = detect_target(connection.server_version(), comment)
                if detected is not None:
                    context = replace(context, target=Target.parse(detected))
            engine = Engine(context)
            audit = read_server(connection, connection.dsn.schemas, AuditOptions(sample=args.sample), engine)
        report = run_checks(audit, context, engine=engine, disabled=settings.disabled_rules(),
                            severities=settings.severity_overrides(), started=started)
        if args.export_stats:
            with open(args.export_stats, "w", encoding="utf-8") as handle:
                handle.write(audit.stats_file().to_json())
    except (ConfigError, DsnError, AuditConnectionError, AuditQueryError, WriteRefused, SchemaNotFound,
            OSError) as error:
        _say(str(error))
        return EXIT_USAGE
    if not _emit(_render(report, args.format, args, lambda path: settings.fail_level, inputs="schema"),
                 args.output):
        return EXIT_USAGE
    level = settings.fail_level
    severities = [f.severity for f in report.findings] + [d.severity for d in report.diagnostics]
    if level != "none" and any(at_or_above(severity, level) for severity in severities):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _emit(output: str, path: str | None) -> bool:
    """Write the report to `path`, or to standard output; False (said on stderr) when the file
    cannot be written."""
    if not path:
        sys.stdout.write(output)
        return True
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(output)
    except OSError as error:
        _say(f"cannot write {path}: {error.strerror or error}")
        return False
    return True


def _output_problem(args: argparse.Namespace) -> str | None:
    """Why the output flags do not go together, or None."""
    if args.statistics and args.format not in ("text", "json"):
        return f"--statistics prints text or JSON, not --format {args.format}"
    return None


def _render(report, fmt: str, args: argparse.Namespace | None = None, fail_level=None,  # type: ignore[no-untyped-def]
            inputs: str = "file") -> str:
    """The report in `fmt`, as `args` asks (the text flags, --statistics; None: the defaults);
    `fail_level(path)`: the fail level of a file's configuration (info findings are listed when
    it is info: they decide the exit code)."""
    if args is not None and args.statistics and fmt == "json":
        import json

        from linter.report.text import statistics_rows

        return json.dumps(statistics_rows([*report.findings, *report.diagnostics]), indent=1) + "\n"
    if fmt == "sarif":
        from linter.report import sarif

        return sarif.render(report)
    if fmt == "github":
        from linter.report import github

        return github.render(report)
    if fmt == "json":
        from linter.report import json as json_report

        return json_report.render(report)
    from linter.report import text

    if args is None:
        return text.render(report)
    show_info = args.show_info or any(item.severity == "info" and fail_level is not None
                                      and fail_level(item.path) == "info"
                                      for item in [*report.findings, *report.diagnostics])
    options = text.TextOptions(
        verbose=args.verbose, show_fixes=args.show_fixes, show_info=show_info, quiet=args.quiet,
        statistics=args.statistics, inputs=inputs,
        colour=not args.output and text.use_colour(sys.stdout, args.color),
    )
    return text.render(report, options)


def run() -> None:
    """The `innolint` command (the console script and `python -m linter.cli`): `main`, then the
    process ends without tearing its objects down. A dump's run ends holding its whole model (10,000
    distinct tables: ~240 MB of objects), which the interpreter's shutdown would free one by one
    (0.5 s of a 10 s run; ~10 ms of a pre-commit run's imports); mypy's command ends so too.
    Only a run that returned ends so, its streams flushed first: every file it wrote is closed by
    then (`_emit`, the audit's connection in its `with`) and no atexit handler is registered;
    SystemExit, an exception or a stream that cannot be flushed (a closed pipe) takes the
    interpreter's own way out, with its messages and status."""
    import os

    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(status)
    os._exit(status)


if __name__ == "__main__":
    run()
