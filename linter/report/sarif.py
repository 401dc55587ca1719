"""`--format sarif`: SARIF 2.1.0 for GitHub code scanning and editors (VS Code's SARIF viewer).

What goes where, and why:
- `tool.driver.rules`: every registered check, with its documentation from `RuleDoc` (the same
  source as `innolint explain` and docs/rules/RULE.md) as `help.text`/`help.markdown`, its title as
  `shortDescription`, the "why" as `fullDescription`, the severity its findings get without further
  evidence as `defaultConfiguration.level` and `properties.problem.severity` (GitHub takes error,
  warning or recommendation there: info is recommendation), and `helpUri`/`informationUri` when
  `linter.rules.docs.rule_page_url` knows where the pages are. GitHub shows `help.markdown` on the
  alert page.
- `results`: one per finding, worst first. GitHub code scanning accepts at most 25,000 results per
  run and shows the top 5,000 of them, prioritized by severity ("SARIF results exceed one or more
  limits", docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-uploads/
  results-exceed-limit): `max_results` caps them, the worst kept, and a notification says how many
  were left out and where every one is. A finding that stands for tenant copies (`Finding.count`)
  is one result whose message says so, with `properties.count` and `properties.schemas`.
  Paths are relative to the repository root with `uriBaseId` `%SRCROOT%`: code scanning matches
  alerts to files by that path; an audit's `mysql://host/schema/table` stays that URI (it is no
  file of the repository, and has no fix to apply to a file). `partialFingerprints` is built from
  what the finding is about (rule, schema, table, subject), not its line, so an alert survives
  edits above it, as the baseline does.
- `fixes`: a finding's fix is SQL to run after the statement that caused it (an ALTER TABLE), not a
  rewrite of that statement, so the SARIF fix is an insertion of that SQL as new lines right after
  the statement's last line (a zero-length `deletedRegion` at the start of the next line). In a
  migration history the same SQL belongs in a new migration instead; the fix's description says so.
  The SQL is also in the message and in `properties.fix`, since GitHub does not show SARIF fixes.
- Diagnostics (parse errors, unreadable files, unused suppressions) are not findings about the
  schema: they are `invocations[0].toolExecutionNotifications`, described by
  `tool.driver.notifications`; an io-error makes `executionSuccessful` false.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from linter.rules.findings import Diagnostic, Finding, Report
from linter.report import copies_text, valid_unicode
from linter.report.github import worst_first
from linter.report.location import is_url, path_uri, repo_path, repository_root
from linter.rules.docs import rules_base_url

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SRCROOT = "%SRCROOT%"
#: results GitHub code scanning accepts per run (it shows the top 5,000 of them by severity)
GITHUB_RESULT_LIMIT = 25_000
#: SARIF levels as GitHub's `problem.severity` property names them
PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "info": "recommendation"}


def _rule_name(rule_id: str) -> str:
    """SARIF's `name` is an identifier: `no-primary-key` -> `NoPrimaryKey`."""
    return "".join(part.capitalize() for part in rule_id.replace("_", "-").split("-") if part)


def _plain_help(check: Any) -> str:
    doc = check.doc
    parts = [f"{check.id}: {check.title}", doc.why, f"Evidence: {doc.evidence}", f"Bad:\n{doc.bad}", f"Good:\n{doc.good}", f"Fix: {doc.fix}"]
    if doc.options:
        parts.append("Options:\n" + "\n".join(f"- {name}: {text}" for name, text in doc.options.items()))
    return "\n\n".join(parts)


def _rules(used: set[str], docs_base: str | None) -> list[dict[str, Any]]:
    """A descriptor for every registered check, plus any rule a finding names that is not one."""
    from checks import ALL_CHECKS
    from linter.rules.docs import render_rule, rule_page_url

    rules: list[dict[str, Any]] = []
    for check in ALL_CHECKS:
        rule: dict[str, Any] = {
            "id": check.id,
            "name": _rule_name(check.id),
            "shortDescription": {"text": check.title},
            "fullDescription": {"text": check.doc.why},
            "help": {"text": _plain_help(check), "markdown": render_rule(check)},
            "defaultConfiguration": {"level": LEVEL[check.severity]},
            "properties": {"tags": ["innodb", "mysql", "schema"], "precision": "high",
                           "problem.severity": PROBLEM_SEVERITY[check.severity]},
        }
        page = rule_page_url(check.id) if docs_base else None
        if page:
            rule["helpUri"] = page
        rules.append(rule)
    known = {rule["id"] for rule in rules}
    for rule_id in sorted(used - known):
        rules.append({"id": rule_id, "name": _rule_name(rule_id), "shortDescription": {"text": rule_id}})
    return rules


def _notification_descriptors() -> list[dict[str, Any]]:
    from checks import ENGINE_RULES, USAGE_ERROR

    descriptors = [{"id": rule, "shortDescription": {"text": text}} for rule, text in {**ENGINE_RULES, **USAGE_ERROR}.items()]
    descriptors.append({"id": "results-omitted", "shortDescription": {"text": "Results left out of this log."}})
    return descriptors


def _region(item: Finding | Diagnostic) -> dict[str, int] | None:
    if item.line < 1:
        return None
    region = {"startLine": item.line, "startColumn": max(item.column, 1)}
    if item.end_line > item.line:
        region["endLine"] = item.end_line
    return region


def _artifact(path: str, root: str) -> dict[str, str]:
    relative = repo_path(path, root)
    location = {"uri": path_uri(relative)}
    if not os.path.isabs(relative) and not is_url(relative):
        location["uriBaseId"] = SRCROOT
    return location


def _location(item: Finding | Diagnostic, root: str) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": _artifact(item.path, root)}
    region = _region(item)
    if region:
        physical["region"] = region
    location: dict[str, Any] = {"physicalLocation": physical}
    if isinstance(item, Finding) and item.table:
        qualified = f"{item.schema}.{item.table}" if item.schema else item.table
        location["logicalLocations"] = [{"name": item.table, "fullyQualifiedName": qualified}]
    return location


def fingerprint(finding: Finding) -> str:
    """What the finding is about, not where: rule, schema, table and subject (lower-case names)."""
    key = "\x1f".join([finding.rule, (finding.schema or "").lower(), (finding.table or "").lower(), finding.subject or ""])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _fix(finding: Finding, root: str) -> dict[str, Any] | None:
    """The fix SQL inserted as new lines after the statement, when we know where it ends."""
    if not finding.fix or finding.path == "-" or is_url(finding.path):
        return None  # no file to change: standard input, a live server
    last = max(finding.end_line, finding.line)
    if last < 1:
        return None
    insert_at = {"startLine": last + 1, "startColumn": 1, "endLine": last + 1, "endColumn": 1}
    return {
        "description": {
            "text": "Run this SQL after the statement (in a migration history, as a new migration): " + finding.fix
        },
        "artifactChanges": [
            {
                "artifactLocation": _artifact(finding.path, root),
                "replacements": [{"deletedRegion": insert_at, "insertedContent": {"text": finding.fix.rstrip("\n") + "\n"}}],
            }
        ],
    }


def _result(finding: Finding, rule_index: dict[str, int], root: str) -> dict[str, Any]:
    text = finding.message
    copies = copies_text(finding)
    if copies:
        text += f"\n\n{copies}"
    if finding.fix:
        text += f"\n\nFix:\n{finding.fix}"
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "ruleIndex": rule_index[finding.rule],
        "level": LEVEL[finding.severity],
        "message": {"text": text},
        "locations": [_location(finding, root)],
        "partialFingerprints": {"innolintFinding/v1": fingerprint(finding)},
    }
    if finding.new is not None:  # a run about a change: SARIF's own word for what it adds
        result["baselineState"] = "new" if finding.new else "unchanged"
    fix = _fix(finding, root)
    if fix:
        result["fixes"] = [fix]
    properties = {
        "severity": finding.severity,
        "schema": finding.schema,
        "table": finding.table,
        "evidence": finding.evidence,
        "fix": finding.fix,
        "subject": finding.subject,
        "count": finding.count if finding.count > 1 else None,
        "schemas": list(finding.schemas) if finding.schemas else None,
    }
    result["properties"] = {k: v for k, v in properties.items() if v is not None}
    return result


def _notification(diagnostic: Diagnostic, index: dict[str, int], root: str) -> dict[str, Any]:
    text = diagnostic.message + (f"\nStatement: {diagnostic.excerpt}" if diagnostic.excerpt else "")
    notification: dict[str, Any] = {"level": LEVEL[diagnostic.severity], "message": {"text": text}}
    if diagnostic.path:  # a usage error is about the run, not a file
        notification["locations"] = [_location(diagnostic, root)]
    if diagnostic.rule in index:
        notification["descriptor"] = {"id": diagnostic.rule, "index": index[diagnostic.rule]}
    else:
        notification["descriptor"] = {"id": diagnostic.rule}
    return notification


def build(report: Report, *, root: str | None = None, max_results: int | None = None) -> dict[str, Any]:
    """The SARIF log as a dict (what `render` serialises; tests validate it against the schema)."""
    from linter import __version__

    report = valid_unicode(report)
    base = os.path.abspath(root) if root is not None else repository_root()
    findings = worst_first(report.findings)
    omitted = 0
    if max_results is not None and len(findings) > max_results:
        omitted = len(findings) - max_results
        findings = findings[:max_results]
    docs_base = rules_base_url()
    rules = _rules({f.rule for f in findings}, docs_base)
    rule_index = {rule["id"]: i for i, rule in enumerate(rules)}
    descriptors = _notification_descriptors()
    descriptor_index = {d["id"]: i for i, d in enumerate(descriptors)}

    notifications = [_notification(d, descriptor_index, base) for d in sorted(report.diagnostics, key=lambda d: d.sort_key())]
    if omitted:
        notifications.append(
            {
                "level": "warning",
                "message": {"text": f"{omitted} less severe results were left out (at most {max_results} per run; "
                                    "GitHub code scanning takes 25,000 and shows the 5,000 most severe). "
                                    "`innolint check --format json` lists every one."},
                "descriptor": {"id": "results-omitted", "index": descriptor_index["results-omitted"]},
            }
        )
    driver: dict[str, Any] = {
        "name": "innolint",
        "version": __version__,
        "semanticVersion": __version__,
        "rules": rules,
        "notifications": descriptors,
    }
    if docs_base:
        driver["informationUri"] = docs_base.rsplit("/blob/", 1)[0]
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "invocations": [
            {
                "executionSuccessful": not any(d.rule in ("io-error", "usage-error") for d in report.diagnostics),
                "toolExecutionNotifications": notifications,
            }
        ],
        "originalUriBaseIds": {SRCROOT: {"uri": path_uri(base).rstrip("/") + "/"}},
        "results": [_result(f, rule_index, base) for f in findings],
        "columnKind": "unicodeCodePoints",
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render(report: Report, *, root: str | None = None, max_results: int | None = None) -> str:
    return json.dumps(build(report, root=root, max_results=max_results), indent=1, ensure_ascii=False) + "\n"
