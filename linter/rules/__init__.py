"""Rules: what a check is and may see (`checkapi`), findings and diagnostics (`findings`),
suppressions and directives, the baseline and fingerprints, rule selection, grouping of tenant
copies, and the rule documentation (`docs`, `catalogue`). The checks themselves are in `checks/`."""
