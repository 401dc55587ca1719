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


def build_parser() -> argparse.ArgumentParser:
    from linter import __version__
    from linter.target import DEFAULT_TARGET, TARGETS

    parser = argparse.ArgumentParser(
        prog="innolint", description="InnoDB-aware linter for MySQL and MariaDB schema DDL."
    )
    parser.add_argument("--version", action="version", version=f"innolint {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="lint SQL files, directories of migrations, dumps, or - (stdin)")
    check.add_argument("paths", nargs="*", default=["."], help="files, directories or - (default: .)")
    check.add_argument("--format", choices=FORMATS, default="text")
    check.add_argument("--target", choices=TARGETS, default=None, help=f"server the schema runs on (default {DEFAULT_TARGET})")
    check.add_argument("--fail-level", choices=FAIL_LEVELS, default=None,
                       help="exit 1 when a finding is at or above this severity (default warning)")
    check.add_argument("--output", "-o", default=None, help="write the report to this file instead of stdout")

    github = commands.add_parser(
        "github",
        help="publish a JSON report to GitHub: check run, job summary, PR comment, SARIF",
        description="Publish `innolint check --format json` output to GitHub. Reads GITHUB_TOKEN, GITHUB_REPOSITORY, "
        "GITHUB_EVENT_PATH (the pull request's head sha and number), GITHUB_SHA, GITHUB_API_URL, GITHUB_STEP_SUMMARY "
        "and GITHUB_OUTPUT from the environment; the token is never taken as an argument.",
    )
    github.add_argument("report", help="the JSON report of `innolint check --format json`, or - (stdin)")
    github.add_argument("--fail-level", choices=FAIL_LEVELS, default="warning",
                        help="conclusion failure and exit 1 at or above this severity (default warning)")
    github.add_argument("--annotations", choices=("checks", "workflow-commands", "none"), default="checks",
                        help="checks: a check run with every annotation (default); workflow-commands: ::error lines")
    github.add_argument("--summary", action=argparse.BooleanOptionalAction, default=True,
                        help="append a Markdown summary to $GITHUB_STEP_SUMMARY (default on)")
    github.add_argument("--comment", action=argparse.BooleanOptionalAction, default=False,
                        help="add or update one pull-request comment with the summary (default off)")
    github.add_argument("--sarif-file", default=None, help="also write SARIF 2.1.0 to this file")
    github.add_argument("--check-name", default="innolint", help="the check run's name (default innolint)")

    commands.add_parser("rules", help="list the checks")
    explain = commands.add_parser("explain", help="print a rule's documentation")
    explain.add_argument("rule")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "rules":
        return _rules()
    if args.command == "explain":
        return _explain(args.rule)
    if args.command == "github":
        return _github(args)
    return _check(args)


def _rules() -> int:
    from checks import ALL_CHECKS, ENGINE_RULES

    for check in ALL_CHECKS:
        print(f"{check.id:<26} {check.severity:<8} {check.title}")
    for rule, text in ENGINE_RULES.items():
        print(f"{rule:<26} {'-':<8} {text}")
    return EXIT_CLEAN


def _explain(rule: str) -> int:
    from checks import check_by_id
    from linter.rules_doc import render_rule

    check = check_by_id(rule)
    if check is None:
        print(f"innolint: unknown rule {rule!r}; `innolint rules` lists them", file=sys.stderr)
        return EXIT_USAGE
    print(render_rule(check))
    return EXIT_CLEAN


def _check(args: argparse.Namespace) -> int:
    from linter.checkapi import CheckContext
    from linter.engine import lint_paths
    from linter.findings import at_or_above
    from linter.target import DEFAULT_TARGET, Target

    context = CheckContext(target=Target.parse(args.target or DEFAULT_TARGET))
    report = lint_paths(args.paths, context)
    output = _render(report, args.format)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(output)
    else:
        sys.stdout.write(output)
    if any(d.rule == "io-error" for d in report.diagnostics):
        return EXIT_USAGE
    fail_level = args.fail_level or "warning"
    if fail_level != "none" and any(
        at_or_above(item.severity, fail_level) for item in [*report.findings, *report.diagnostics]
    ):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _github(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from linter.findings import Report
    from linter.github_checks import PublishOptions, run

    try:
        if args.report == "-":
            text = sys.stdin.read()
        else:
            with open(args.report, encoding="utf-8") as handle:
                text = handle.read()
        report = Report.model_validate_json(text)
    except (OSError, ValidationError) as error:
        print(f"innolint: cannot read the report {args.report}: {error}", file=sys.stderr)
        return EXIT_USAGE
    options = PublishOptions(
        fail_level=args.fail_level,
        annotations=args.annotations,
        summary=args.summary,
        comment=args.comment,
        sarif_file=args.sarif_file,
        check_name=args.check_name,
    )
    return run(report, options)


def _render(report, fmt: str) -> str:  # type: ignore[no-untyped-def]
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

    return text.render(report)


if __name__ == "__main__":
    sys.exit(main())
