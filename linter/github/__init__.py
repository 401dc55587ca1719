"""GitHub: the Checks API publisher (`check_runs`) and the REST client under it (`api`).
Workflow commands (`--format github`) are a reporter: `linter.report.github`."""
