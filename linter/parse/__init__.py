"""Parse: one statement to one DDL operation (`ops`), or a ParseFailure with the reason
(`statement`). The only package that knows sqlglot; `cache` lets identical statements (tenant
copies) be parsed once."""
