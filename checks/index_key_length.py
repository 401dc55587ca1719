"""index-key-length: a key longer than InnoDB takes, which the server refuses or silently changes.

InnoDB takes key parts up to 3,072 bytes in DYNAMIC and COMPRESSED rows, 767 in COMPACT and
REDUNDANT ones, and keys up to 3,072 bytes in all (16K pages; MySQL 8.0 manual 17.22 "InnoDB
Limits"). What happens past that depends on the server and the kind of key (linter.schema.innodb_sizes
computes the widths; tests/test_index_key_length.py loads every case into the test MariaDB):

MySQL 5.7, 8.0, 8.4 (documented): ERROR 1071 (42000): Specified key was too long; max key length
is 3072 (or 767) bytes, under the default strict sql_mode; a TEXT/BLOB part without a prefix
length is ERROR 1170.

MariaDB 10.4 and later (verified on 10.11):
- a non-unique key with a part over 3,072 bytes (a TEXT without a prefix too) is cut to a prefix
  with only a Note 1071: `KEY (a)` on VARCHAR(1000) utf8mb4 becomes `KEY (a(768))`;
- a UNIQUE key over the limits becomes a hash (`UNIQUE KEY ... USING HASH`), without a word:
  uniqueness is enforced through a hidden hash column, and the key serves no range or ORDER BY;
- a PRIMARY KEY over them, or any key over 3,072 bytes in total: ERROR 1071;
- then, in COMPACT/REDUNDANT, a part over 767 bytes: ERROR 1709 (42000): Index column size too
  large. The maximum column size is 767 bytes. (ROW_FORMAT=DYNAMIC takes it.)
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.scope import foreign_key_columns, is_system_schema, sentences, statement_of
from linter.schema import innodb_sizes as sizes
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified
from linter.rules.findings import Finding
from linter.parse.elements import Index, Location
from linter.schema.model import Schema, SchemaModel, Table
from linter.schema.target import Target
from linter.rules.key_length import KeyProblem, key_label, index_name, key_fix, key_problem


def _key_place(table: Table, index: Index, target: Target, schema: Schema | None) -> Location:
    """The statement that made the key too long: the one that added it, or a later one that made
    a column of it wide (`MODIFY a TEXT` under a PRIMARY KEY is the statement the server refuses,
    not the CREATE TABLE that made the key; a later MODIFY of a narrow column of it is not)."""
    place, statement = statement_of(table, index), table.statement_place(index)
    changed = index.where is not None  # else the key is the CREATE TABLE's: any column changed is later
    wide = {p.column.lower() for p in sizes.key_width(table, index, target, schema).parts
            if p.bytes is None or p.bytes > sizes.MAX_KEY_PART_BYTES_ANTELOPE}
    for part in index.columns:
        column = table.column(part.name) if not part.expression and part.name.lower() in wide else None
        where = column.where if column is not None else None
        if where is not None and (not changed or (where.path == statement.path and where.line > statement.line)):
            place, statement, changed = table.place(column), where, True  # type: ignore[arg-type]
    return place


class IndexKeyLength(Check):
    id = "index-key-length"
    title = "Key longer than InnoDB takes: refused, or silently changed"
    severity = "error"
    doc = RuleDoc(
        why=(
            "InnoDB takes key parts up to 3,072 bytes in DYNAMIC and COMPRESSED rows and 767 bytes in COMPACT and "
            "REDUNDANT ones, and keys up to 3,072 bytes (MySQL 8.0 manual 17.22 \"InnoDB Limits\"). A key's bytes are "
            "its columns' lengths times the bytes per character of their character set: a VARCHAR(255) is 255 bytes "
            "in latin1, 1,020 in utf8mb4. MySQL refuses a longer key (ERROR 1071) under its default strict sql_mode. "
            "MariaDB (verified on 10.11) refuses a PRIMARY KEY or a key over 3,072 bytes in total, but cuts a "
            "non-unique key whose part is too long to a prefix with only a Note (`KEY (a)` on VARCHAR(1000) "
            "utf8mb4 becomes `KEY (a(768))`), and turns a UNIQUE key over the limits into a hash (`USING HASH`) "
            "without a word: the schema on the server is not the one written, and the same migration fails on MySQL. "
            "In COMPACT and REDUNDANT rows MariaDB refuses a part over 767 bytes (ERROR 1709)."
        ),
        evidence=(
            "Each key part's bytes: the column's length (or the prefix) times the most bytes per character of its "
            "character set (column, table, CREATE DATABASE, then the target's default), fixed sizes for other types; "
            "the row format (DYNAMIC when none is written). The message says what the target does, with the "
            "server's own error or note."
        ),
        bad="CREATE TABLE page (\n  id INT PRIMARY KEY,\n  url VARCHAR(1000) NOT NULL,\n  KEY k_url (url)\n) DEFAULT CHARSET=utf8mb4;",
        good="CREATE TABLE page (\n  id INT PRIMARY KEY,\n  url VARCHAR(1000) NOT NULL,\n  KEY k_url (url(255))\n) DEFAULT CHARSET=utf8mb4;",
        fix=(
            "ROW_FORMAT=DYNAMIC when the key fits there; for a non-unique key, prefixes that fit (written out, as "
            "MariaDB would silently make them); for a UNIQUE or PRIMARY key, which a prefix would change, shorter "
            "columns (after checking the longest value) or a narrower character set. The fix is the ALTER TABLE for a "
            "table that exists; where the server refuses the CREATE TABLE, write the same key or columns into it."
        ),
    )

    refusal_kinds = frozenset({"key-length"})

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        joined = foreign_key_columns(model)

        def judge(table: Table) -> Iterator[Finding]:
            if not table.is_innodb or is_system_schema(table.schema):
                return
            schema = sizes.schema_of(model, table)
            locked = frozenset(joined.get(id(table), ()))
            for index in table.indexes:
                problem = key_problem(table, index, context.target, schema)
                if problem is not None:
                    found = key_fix(table, index, context.target, schema, locked=locked)
                    yield self._finding(table, index, problem, found, _key_place(table, index, context.target, schema),
                                        context)

        yield from judged_once(model, context, judge)
        # the statements the replay refused for a key (linter.server.key_refusals, kind "key-length",
        # with this check's decision): not in the model, so no ALTER can fix them; the statement
        # itself is to be written otherwise
        for refused in model.refusals:
            if refused.reported_by != self.id or refused.table is None or refused.index is None:
                continue
            table, index, problem = refused.table, refused.index, refused.detail
            schema = sizes.schema_of(model, table)
            if isinstance(problem, KeyProblem):
                yield self._finding(table, index, problem, key_fix(table, index, context.target, schema), refused.where,
                                    context, rewrite=True)

    def _finding(self, table: Table, index: Index, problem: KeyProblem, found: tuple[list[str], str] | None,
                 where: Location, context: CheckContext, *, rewrite: bool = False) -> Finding:
        fix = f"ALTER TABLE {qualified(table)} {', '.join(found[0])};" if found and not rewrite else None
        message = sentences(problem.message, found[1] if found else "")
        if found and rewrite:
            written = [c.removeprefix("ADD ").removeprefix("MODIFY COLUMN ") for c in found[0] if not c.startswith("DROP ")]
            message = sentences(message, f"The server runs none of the statement: write {', '.join(written)} in it "
                                         "instead")
        point = {"refused": f"too long for {context.target.label}, which refuses it",
                 "truncated": f"too long: {context.target.label} silently cuts it to a prefix",
                 "hashed": f"too long: {context.target.label} silently makes it a hash"}.get(problem.kind)
        return self.finding(
            table, message, severity=problem.severity, where=where, evidence=problem.evidence, fix=fix,
            subject=f"{problem.kind}:{index_name(index)}",
            summary=f"{table.name}: {key_label(index)} {point}" if point else None,
        )
