"""refused-ddl: a statement the target refuses, given the schema so far.

The server emulator (`linter.server`) replays every statement as the target runs it and keeps the
statements it refuses as records (`SchemaModel.refusals`: the server's error number, what kind of
refusal, the statement, the target), each changing nothing, as on the server: a migration that
hits one stops there (Flyway, golang-migrate and the others mark it failed, and the statements
before it in the same file have run), a dump loads without that table. This rule reports each, at
its statement, as an error; the kinds another rule reports itself (a key too long:
index-key-length; a column or row too long: row-size-limit) are left to that rule while it runs.

What is never called refused (`linter.server.outcome`): a statement innolint cannot follow
(dynamic SQL, CALL, a packet the server may stop half-way, DDL run only under a condition), and
anything after one; a statement about a table the input never defined (a partial input: the
server may have it). Those stay replay-error diagnostics.

Which servers refuse it: the replay judges the target (`--target`); a refusal of a name given twice
or missing (errors 1050, 1060, 1061, 1054, 1091, 1146 ...) or of a definition every server refuses
(1075, 1090, 1068 ...) is the same on MySQL 5.7/8.0/8.4 and MariaDB; what runs in place
(ALGORITHM=, LOCK=: 1845, 1846), key lengths and syntax differ between them, and the message says
so.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.checkapi import Check, CheckContext, RuleDoc
from linter.rules.findings import GROUP_NAMES_KEPT, Finding
from linter.schema.model import SchemaModel
from linter.schema.refused import Refusal
from linter.schema.tenants import layout_for

#: errors every MySQL (5.7, 8.0, 8.4) and MariaDB (10.x, 11.x) server gives alike, by kind or number
_EVERYWHERE_KINDS = frozenset({"exists", "unknown"})
_EVERYWHERE = frozenset({1075, 1090, 1068, 1066, 1072, 1063, 1101, 1113, 1163, 1214, 1221, 1173})

#: what to do, by kind (and for some errors by number)
_FIX_BY_ERRNO = {
    1075: "Keep a key whose first column is the AUTO_INCREMENT column: add it in the same statement "
          "(`DROP PRIMARY KEY, ADD KEY (id)`, or `ADD PRIMARY KEY (...)` over the new key's columns), or drop "
          "AUTO_INCREMENT from the column first.",
    1090: "Drop the table instead (DROP TABLE), or keep a column.",
    1068: "Drop the existing PRIMARY KEY in the same statement (`DROP PRIMARY KEY, ADD PRIMARY KEY (...)`).",
}
_FIX_BY_KIND = {
    "exists": "The name is taken already at this point of the history: remove the statement, rename what it adds, "
              "or (MariaDB) make it conditional with IF NOT EXISTS.",
    "unknown": "The name is not there at this point of the history: check the spelling, the order of the "
               "migrations, and whether an earlier statement that made it was refused too.",
    "online-ddl": "Drop the ALGORITHM= / LOCK= clause to let the server choose (it then copies or locks as "
                  "blocking-alter says), ask for what the server says to try, or split the statement so that the "
                  "operation that cannot run that way runs alone (with pt-online-schema-change or gh-ost where it "
                  "copies the table).",
    "key-length": "Shorten the key: a prefix for a non-unique key, shorter columns or a narrower character set for a "
                  "unique one, ROW_FORMAT=DYNAMIC for a part over 767 bytes.",
    "row-size": "Move the longest VARCHAR/VARBINARY columns to TEXT/BLOB (stored off-page), or split the table.",
    "default": "Give the column a default it can hold (or none).",
    "syntax": "Write the statement in the target's syntax.",
    "definition": "Change the statement as the server's error says.",
}


def portability(refusal: Refusal) -> str:
    """Which servers refuse it, as a sentence."""
    if refusal.kind in _EVERYWHERE_KINDS or refusal.errno in _EVERYWHERE:
        return "MySQL 5.7, 8.0, 8.4 and MariaDB 10.x/11.x all refuse it."
    if refusal.kind == "online-ddl":
        return (f"This is {refusal.target}'s answer: MySQL 8.0/8.4 and MariaDB run different operations in place "
                "(their online DDL tables), so another target may accept or refuse other clauses.")
    if refusal.kind == "key-length":
        return (f"This is {refusal.target}'s answer: MySQL refuses keys MariaDB cuts to a prefix or keeps as a hash, "
                "and the limits depend on the row format and character set.")
    return f"This is {refusal.target}'s answer (--target); another server or sql_mode may differ."


class RefusedDdl(Check):
    id = "refused-ddl"
    title = "Statement the target refuses"
    severity = "error"
    doc = RuleDoc(
        why=(
            "A migration the server refuses fails in production: the tool marks it failed half-way (the statements "
            "before it in the file have run, MySQL's DDL is not transactional), the deploy stops, and someone "
            "repairs the history by hand. The server keeps nothing of the refused statement, so every later "
            "statement that relies on it fails too or runs against another schema. innolint replays each statement "
            "as the target runs it, with the server's own error (`ERROR 1060: Duplicate column name`, `1846 "
            "ALGORITHM=INPLACE is not supported`, `1075 Incorrect table definition`), checked against MariaDB "
            "10.11 and the MySQL manuals. Statements innolint cannot follow (CALL, dynamic SQL, DDL under a "
            "condition) and everything after them, and statements about tables the input never defined (a partial "
            "input), are not reported here: they stay replay-error diagnostics."
        ),
        evidence=(
            "The schema the input builds up to the statement, replayed as the target runs it; the server's error "
            "number and message; the target. Refusals index-key-length and row-size-limit report with their own "
            "evidence are left to them when they run."
        ),
        bad=(
            "CREATE TABLE customer (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL);\n"
            "ALTER TABLE customer ADD COLUMN a INT;  -- ERROR 1060: Duplicate column name 'a'"
        ),
        good=(
            "CREATE TABLE customer (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL);\n"
            "ALTER TABLE customer ADD COLUMN a2 INT;"
        ),
        fix=(
            "Write the statement so that the target runs it: the message gives the server's error and what to "
            "change (a name taken or missing at that point of the history, ALGORITHM=/LOCK= the server cannot "
            "honour, a definition it does not take). The statement changed nothing, so the fix goes into the "
            "statement itself (or, for a migration already applied elsewhere, a new one)."
        ),
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        refusals = [r for r in model.refusals if r.reported_by is None]
        if not refusals:
            return
        layout = layout_for(model, context) if len(refusals) > 1 else None
        groups: dict[tuple[object, ...], list[Refusal]] = {}
        for refusal in refusals:
            tenant = layout is not None and refusal.schema is not None and layout.is_tenant(refusal.schema)
            # the copies of one refused statement in a tenant dump's schemas: one finding
            key = (refusal.message, refusal.errno, refusal.statement) if tenant else (id(refusal),)
            groups.setdefault(key, []).append(refusal)
        for members in groups.values():
            yield self._finding(members, context)

    def _finding(self, members: list[Refusal], context: CheckContext) -> Finding:
        refusal = members[0]
        errno = f"error {refusal.errno}" if refusal.errno is not None else "refused"
        kept = "" if "none of it" in refusal.message or "changes nothing" in refusal.message else (
            " The server keeps nothing of it: what follows runs against the schema without it.")
        message = f"{refusal.message}.{kept} {portability(refusal)}"
        fix = _FIX_BY_ERRNO.get(refusal.errno or 0) or _FIX_BY_KIND.get(refusal.kind, _FIX_BY_KIND["definition"])
        where = refusal.where
        return Finding(
            rule=self.id, severity=self.severity, path=where.path,
            line=where.line, column=where.column, end_line=where.end_line, schema=refusal.schema,
            table=refusal.table_name, message=f"{message} {fix}",
            summary=f"{refusal.statement}: {refusal.target} refuses it ({errno})",
            evidence=f"{errno} ({refusal.kind}) on {refusal.target}, given the schema the input builds before it",
            subject=f"{refusal.kind}:{refusal.errno or ''}", count=len(members),
            schemas=tuple(r.schema or "" for r in members[:GROUP_NAMES_KEPT]) if len(members) > 1 else (),
        )
