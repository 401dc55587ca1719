"""A check's documentation as Markdown: `innolint explain RULE` and docs/rules/RULE.md."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from urllib.parse import quote

from linter.rules.checkapi import Check


def render_rule(check: Check) -> str:
    doc = check.doc
    parts = [
        f"# {check.id}: {check.title}",
        f"Default severity: **{check.severity}**" + (f" ({check.severity_note})" if check.severity_note else ""),
        "## Why",
        doc.why,
        "## Evidence",
        doc.evidence,
        "## Bad",
        f"```sql\n{doc.bad}\n```",
        "## Good",
        f"```sql\n{doc.good}\n```",
        "## Fix",
        doc.fix,
    ]
    if doc.options:
        parts.append("## Options")
        parts.extend(f"- `{name}`: {text}" for name, text in doc.options.items())
    return "\n\n".join(parts) + "\n"


#: where the rule pages live in innolint's repository
RULES_DIR = "docs/rules"


def rule_page_url(rule_id: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The web address of a rule's page (docs/rules/RULE.md; the engine's own rules, which have
    no page of their own, are listed on docs/rules/README.md), or None when innolint does not know
    where its repository is on the web. The one place every reporter asks (SARIF's helpUri, the
    job summary's links, `innolint check --verbose`).

    Where the pages are, first found wins:
    1. `$INNOLINT_RULES_URL`: the docs/rules directory's address (a mirror, GitHub Enterprise);
       `none` links no page (an air-gapped network; output that must not depend on the install).
    2. The GitHub Action running innolint: its own repository and ref, so the page matches the
       version that gave the finding. GitHub leaves `GITHUB_ACTION_REPOSITORY`/`_REF` empty in a
       composite action's steps (actions/runner#2473), so action.yml passes them as
       `INNOLINT_ACTION_REPOSITORY`/`INNOLINT_ACTION_REF`; the action's checkout path
       (`.../_actions/OWNER/REPO/REF`) is read when both are empty.
    3. The installed package's `Repository`, `Source` or `Homepage` project URL (pyproject's
       [project.urls]), at `blob/HEAD`.
    """
    base = rules_base_url(environ)
    if base is None:
        return None
    from checks import check_by_id

    page = rule_id if check_by_id(rule_id) is not None else "README"
    return f"{base}/{quote(page)}.md"


def rules_base_url(environ: Mapping[str, str] | None = None) -> str | None:
    """The address of the docs/rules directory (see `rule_page_url`), without a trailing slash."""
    env = os.environ if environ is None else environ
    explicit = env.get("INNOLINT_RULES_URL", "").strip()
    if explicit.lower() == "none":
        return None
    if explicit.startswith(("https://", "http://")):
        return explicit.rstrip("/")
    server = (env.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/")
    repository = env.get("INNOLINT_ACTION_REPOSITORY") or env.get("GITHUB_ACTION_REPOSITORY") or ""
    ref = env.get("INNOLINT_ACTION_REF") or env.get("GITHUB_ACTION_REF") or ""
    if not (repository and ref):
        repository, ref = _from_action_path(env.get("INNOLINT_ACTION_PATH") or env.get("GITHUB_ACTION_PATH") or "")
    if _REPOSITORY.fullmatch(repository) and ref and ".." not in ref and not ref.startswith("/"):
        return f"{server}/{repository}/blob/{quote(ref)}/{RULES_DIR}"
    return _from_package()


#: `owner/name` as GitHub allows them
_REPOSITORY = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}")


def _from_action_path(path: str) -> tuple[str, str]:
    """(owner/repo, ref) of an action checked out by the runner at `.../_actions/OWNER/REPO/REF`."""
    parts = path.replace("\\", "/").rstrip("/").split("/")
    if "_actions" not in parts:
        return "", ""
    at = len(parts) - 1 - parts[::-1].index("_actions")
    rest = parts[at + 1:]
    if len(rest) < 3:
        return "", ""
    return f"{rest[0]}/{rest[1]}", rest[2]


def _from_package() -> str | None:
    try:
        from importlib.metadata import PackageNotFoundError, metadata

        urls = metadata("innolint").get_all("Project-URL") or []
    except (ImportError, PackageNotFoundError):
        return None
    found = {label.strip().lower(): url.strip() for label, _, url in (u.partition(",") for u in urls)}
    for label in ("repository", "source", "homepage"):
        if found.get(label, "").startswith(("https://", "http://")):
            return found[label].rstrip("/") + f"/blob/HEAD/{RULES_DIR}"
    return None
