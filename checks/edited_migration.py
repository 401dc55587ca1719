"""edited-migration: a change that edits, deletes or renames a migration the databases have run.

A migration tool runs each migration once and records it: Flyway its version, description and
checksum (`flyway validate` then fails: "Migration checksum mismatch"), Atlas the files' hashes in
atlas.sum (which innolint verifies), Liquibase each changeset's id, author and file path, Prisma
the directory's name and a checksum, golang-migrate, goose and dbmate the version. An edit of an
applied migration never runs where it ran already: production keeps the old schema, a fresh
database gets the new one, and the histories part. A deleted one leaves databases that ran it
with a schema no migration makes; a renamed one runs again under its new name (or fails
validation), except under a tool that records only the version when the version and the content
stay (no finding then).

Seen only with `--since REF` and in pre-commit (against HEAD): a migration file of a history that
exists at the ref and that the change modifies, deletes or renames (`CheckContext.
edited_migrations`, from git). A file added by the change (not yet applied anywhere), renamed or
edited again before it is committed, is not one. Left out: Flyway's repeatable migrations (R__,
meant to be edited: they run again when their checksum changes), down / undo migrations, and a
Liquibase history (its changelogs grow by new changesets, and Liquibase checks each applied
changeset's checksum itself).
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.checkapi import Check, CheckContext, MigrationEdit, RuleDoc, shell_word
from linter.rules.findings import Finding
from linter.schema.model import SchemaModel

def _what_breaks(edited: MigrationEdit) -> str:
    return edited.on_edit or "the tool never runs it again where it ran, so those databases keep what it did before the change"


class EditedMigration(Check):
    id = "edited-migration"
    title = "An applied migration edited, deleted or renamed"
    severity = "error"
    doc = RuleDoc(
        why=(
            "A migration runs once per database and the tool records it. Editing one that the databases have run "
            "changes nothing where it ran: production keeps the old schema, a new environment gets the new one, "
            "and the two histories part without a word; Flyway and Atlas refuse such a history outright (checksum "
            "mismatch, atlas.sum), Liquibase fails the changeset's checksum. Deleting or renaming one leaves "
            "databases with a schema no migration makes. The fix for a released migration is a new migration."
        ),
        evidence=(
            "git: the file exists at the ref the change is against (`--since REF`; HEAD in pre-commit) and the "
            "change modifies, deletes or renames it. Flyway repeatable (R__) and down / undo migrations are left "
            "out, and so is a rename that keeps version and content under a tool that records only the version."
        ),
        bad=(
            "-- V1__customer.sql, applied on main with email VARCHAR(100), edited by the change:\n"
            "CREATE TABLE customer (id INT PRIMARY KEY, email VARCHAR(200));"
        ),
        good=(
            "-- V1__customer.sql, applied on main, left as it was:\n"
            "CREATE TABLE customer (id INT PRIMARY KEY, email VARCHAR(100));\n"
            "-- V7__widen_email.sql, the change in a new migration:\n"
            "ALTER TABLE customer MODIFY email VARCHAR(200);"
        ),
        fix=(
            "Restore the applied migration as it is at the ref (`git checkout REF -- FILE`) and make the change in a "
            "new migration. If the edit only repairs a migration that never ran anywhere, suppress the finding with "
            "the reason (`-- innolint: ignore-file[edited-migration] ...`)."
        ),
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        for edited in context.edited_migrations:
            yield self._finding(edited)

    def _finding(self, edited: MigrationEdit) -> Finding:
        name = edited.path
        if edited.status == "modified":
            what, path = f"edits {name}, which exists at {edited.ref}: the databases that ran the history have run it", name
            fix = f"git checkout {shell_word(edited.ref)} -- {shell_word(name)}  # then make the change in a new migration"
        elif edited.status == "deleted":
            what, path = f"deletes {name}, which exists at {edited.ref} and the databases that ran the history have run", name
            fix = f"git checkout {shell_word(edited.ref)} -- {shell_word(name)}  # then undo what it did in a new migration"
        else:
            what = f"renames {name}, which exists at {edited.ref}, to {edited.new_path}"
            path = edited.new_path or name
            fix = f"git mv {shell_word(path)} {shell_word(name)}"
        return Finding(
            rule=self.id, severity=self.severity, path=path, line=edited.line,
            message=f"The change {what}; {_what_breaks(edited)}. Make the change in a new migration instead.",
            summary=f"applied migration {edited.status}", evidence=f"git: {edited.status} against {edited.ref}",
            fix=fix, subject=f"{edited.status}:{name.rsplit('/', 1)[-1]}",
        )
