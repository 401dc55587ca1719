"""charset-portability: text stored in utf8mb3, a collation or character set a target does not
have, and tables whose character set is whatever the server's default is.

Checked against every target the project names: the configured one and the rule's `targets`
option (a project that runs on MySQL 8.0 and MariaDB 10.11 lists both). Facts (linter.schema.innodb_sizes;
MariaDB's verified on 10.11 by tests/test_charset_portability.py):
- utf8 is utf8mb3 on every target: 3 bytes per character at most, so 4-byte characters (emoji,
  some CJK) fail under strict mode: ERROR 1366 (22007): Incorrect string value. MySQL 8.0
  deprecates it (Warning 1287: 'utf8mb3' is deprecated and will be removed in a future release).
- MySQL's UCA 9.0.0 collations (utf8mb4_0900_ai_ci, MySQL 8.0's default) do not exist on MariaDB
  10.x (ERROR 1273 (HY000): Unknown collation), nor on MySQL 5.7; MariaDB 11.4.5+ takes them as
  aliases. MariaDB's uca1400 and NO PAD collations do not exist on MySQL; gb18030 is MySQL's only.
- The server default differs: MySQL 8.0/8.4 utf8mb4 / utf8mb4_0900_ai_ci, MySQL 5.7 and MariaDB
  10.x latin1 / latin1_swedish_ci, MariaDB 11.6+ utf8mb4 / utf8mb4_uca1400_ai_ci (11.0-11.5
  latin1). A table that names no character set (and whose CREATE DATABASE names none) is latin1
  on one and utf8mb4 on the other: other bytes per character, other sorting, lost characters.

A mysqldump carries the table's DEFAULT CHARSET (and the columns' when they differ), and a
table's DEFAULT CHARSET covers its columns: only what is left to the server is flagged, and one
finding per table and kind, never one per column.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from linter.rules.scope import Problem, foreign_key_columns, is_system_schema, sentences, statement_of
from linter.rules.key_length import key_problem
from linter.rules.row_size import row_problem
from linter.schema import innodb_sizes as sizes
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified, quote
from linter.rules.findings import Finding, Severity
from linter.rules.options import TARGET_NAMES
from linter.parse.elements import Column
from linter.schema.model import Schema, SchemaModel, Table
from linter.parse.body import TableBody
from linter.schema.target import TARGETS, Target

#: utf8mb4 collations on every target (MySQL 5.7+ and MariaDB 10.6+; MariaDB's list verified):
#: what a utf8mb3 collation maps to (same name after the character set), else utf8mb4_general_ci
_UTF8MB4_EVERYWHERE = frozenset(
    f"utf8mb4_{suffix}" for suffix in
    """general_ci bin unicode_ci icelandic_ci latvian_ci romanian_ci slovenian_ci polish_ci estonian_ci spanish_ci
    swedish_ci turkish_ci czech_ci danish_ci lithuanian_ci slovak_ci spanish2_ci roman_ci persian_ci esperanto_ci
    hungarian_ci sinhala_ci german2_ci croatian_ci unicode_520_ci vietnamese_ci""".split()
)
#: where a target's own default collation is not known to another, a collation all of them have
PORTABLE_UTF8MB4_COLLATION = "utf8mb4_unicode_520_ci"


def unknown_collation_error(collation: str) -> str:
    return f"ERROR 1273 (HY000): Unknown collation: '{collation}'"


def unknown_charset_error(charset: str) -> str:
    return f"ERROR 1115 (42000): Unknown character set: '{charset}'"


def _text_columns(table: Table) -> list[Column]:
    return [c for c in table.columns.values() if c.type.upper() in sizes.TEXT_TYPES]


def _written(table: Table, schema: Schema | None) -> list[tuple[str, str | None, str | None]]:
    """Every character set and collation the DDL writes for this table: (where, charset, collation)."""
    found = []
    if schema is not None and (schema.charset or schema.collation):
        found.append((f"schema {schema.name}", schema.charset, schema.collation))
    if table.options.charset or table.options.collation:
        found.append(("table", table.options.charset, table.options.collation))
    for column in table.columns.values():
        if column.charset or column.collation:
            found.append((f"column {column.name}", column.charset, column.collation))
    return found


def _label(targets: list[Target]) -> str:
    return ", ".join(t.label for t in targets)


def charset_problems(table: Table, targets: list[Target], schema: Schema | None = None) -> list[Problem]:
    """The one decision: what is not portable about the table's character sets on these targets
    (the configured one first), at most one problem of each kind: utf8mb3, unknown-collation,
    unknown-charset, implicit-charset, implicit-collation."""
    problems: list[Problem] = []
    written = _written(table, schema)
    # a character set or collation a target does not have: the statement fails there
    for where, charset, collation in written:
        if charset and charset.lower() != "default":
            refusing = [t for t in targets if not sizes.charset_known(charset, t)]
            if refusing:
                problems.append(Problem(
                    "unknown-charset", "error",
                    f"{table.name}: the {where} character set {charset} does not exist on {_label(refusing)}: "
                    f"{unknown_charset_error(charset)}", f"{where}: CHARACTER SET {charset}", ()))
                break
        if collation:
            answers = {t.name: sizes.collation_known(collation, t) for t in targets}
            refusing = [t for t in targets if answers[t.name] is False]
            unsure = [t for t in targets if answers[t.name] is None]
            if refusing or unsure:
                severity: Severity = "error" if refusing else "warning"
                text = (f"does not exist on {_label(refusing)}: {unknown_collation_error(collation)}" if refusing else
                        f"exists on {_label(unsure)} only from MariaDB 11.4.5 (an alias of utf8mb4_uca1400_nopad_ai_ci); "
                        f"earlier releases refuse it: {unknown_collation_error(collation)}")
                problems.append(Problem("unknown-collation", severity, f"{table.name}: the {where} collation "
                                        f"{collation} {text}", f"{where}: COLLATE {collation}", ()))
                break
    # utf8mb3 text
    first = targets[0]
    utf8mb3 = [c.name for c in _text_columns(table)
               if (r := sizes.column_charset(c, table, first, schema)) is not None and r.charset == "utf8mb3"]
    if utf8mb3:
        deprecated = any(t.is_mysql8 for t in targets)
        problems.append(Problem(
            "utf8mb3", "warning",
            f"{table.name}: {_columns(utf8mb3)} store{'' if len(utf8mb3) > 1 else 's'} text in utf8mb3 ('utf8'): at most 3 bytes per character, so a "
            "4-byte character (emoji, some CJK) fails under strict mode with ERROR 1366 (22007): Incorrect string value "
            "(or is cut without it)" + ("; MySQL 8.0 deprecates utf8mb3 (Warning 1287: 'utf8mb3' is deprecated and will "
                                        "be removed in a future release)" if deprecated else "") + ".",
            "; ".join(f"{c}: {sizes.column_charset(table.columns[c.lower()], table, first, schema).describe()}"  # type: ignore[union-attr]
                      + ", 3 bytes per character" for c in utf8mb3[:5]) + (f"; and {len(utf8mb3) - 5} more" if len(utf8mb3) > 5 else ""),
            tuple(utf8mb3)))
    else:
        # a default of utf8mb3 with no text column in it yet: the next ADD COLUMN without a character set of its own
        # takes it (latent: nothing is lost until then, and the column is added by someone who never sees this DDL)
        default = sizes.table_charset(table, first, schema)
        if default.charset == "utf8mb3" and default.source in ("table", "schema"):
            whose = "its default character set" if default.source == "table" else "its schema's default character set"
            deprecated = any(t.is_mysql8 for t in targets)
            problems.append(Problem(
                "utf8mb3-default", "warning",
                f"{table.name}: {whose} is utf8mb3 ('utf8'), and no text column of it holds utf8mb3 yet: the next "
                "CHAR, VARCHAR or TEXT column an ALTER TABLE adds without a character set of its own is utf8mb3, at "
                "most 3 bytes per character, so a 4-byte character (emoji, some CJK) fails there under strict mode "
                "with ERROR 1366 (22007): Incorrect string value" + ("; MySQL 8.0 deprecates utf8mb3" if deprecated
                                                                     else "") + ". Changing the default now changes "
                "no column and no row (metadata only).",
                f"{default.describe()} ({default.collation or 'its default collation'}), 3 bytes per character; no "
                "text column in utf8mb3 yet",
                ()))
    # left to the server's default, where the targets' defaults differ
    implicit = [c.name for c in _text_columns(table) if c.charset is None and c.collation is None]
    if implicit:
        resolved = {t.name: sizes.table_charset(table, t, schema) for t in targets}
        level = resolved[first.name].source
        defaults = {}
        for t in targets:
            server = sizes.server_defaults(t)
            if level == "server default":
                defaults[t.label] = f"{server.charset} ({server.collation})"
                if server.note:
                    defaults[t.label] += f", {server.note}"
            elif resolved[t.name].collation is None:
                charset = resolved[t.name].charset
                default = server.utf8mb4_collation if charset == "utf8mb4" else None
                if default is not None:
                    defaults[t.label] = default
        varies = len(set(defaults.values())) > 1 or any("11.0 to 11.5" in v for v in defaults.values())
        if level == "server default" and varies:
            problems.append(Problem(
                "implicit-charset", "warning",
                f"{table.name} names no character set (nor does its schema), so its text columns take the server's "
                "default, which differs between the targets: " + "; ".join(f"{k}: {v}" for k, v in defaults.items())
                + ". Other bytes per character (so other row and key limits), other sorting and comparison, and "
                "characters lost where the default is latin1.",
                f"no DEFAULT CHARSET on the table or its CREATE DATABASE; text columns: {_columns(implicit)}",
                tuple(implicit)))
        elif level != "server default" and varies:
            problems.append(Problem(
                "implicit-collation", "info",
                f"{table.name}: DEFAULT CHARSET {resolved[first.name].charset} without a COLLATE takes each server's "
                "default collation for it, which differs between the targets: "
                + "; ".join(f"{k}: {v}" for k, v in defaults.items())
                + ": other sorting and comparison (MySQL 8's _0900_ collations do not pad trailing spaces), so a "
                "UNIQUE key can take values on one server that it refuses on the other.",
                f"{level} character set {resolved[first.name].charset}, no collation written",
                tuple(implicit)))
    return problems


def _columns(names: list[str]) -> str:
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return f"column{'s' if len(names) > 1 else ''} {shown}"


# --- fixes -----------------------------------------------------------------------------------------
def utf8mb4_collation(collation: str | None, targets: list[Target]) -> str:
    """The utf8mb4 collation that sorts as a utf8mb3 one did, known on every target."""
    if collation:
        name = "utf8mb4_" + sizes.normalize_collation(collation).split("_", 1)[1]
        if name in _UTF8MB4_EVERYWHERE or all(sizes.collation_known(name, t) for t in targets):
            return name
    return "utf8mb4_general_ci"


def portable_collation(charset: str, targets: list[Target]) -> str | None:
    """A collation of `charset` every target has: the first target's default for it when all have it."""
    first = sizes.server_defaults(targets[0])
    if charset == "utf8mb4":
        candidate = first.utf8mb4_collation
        if all(sizes.collation_known(candidate, t) for t in targets):
            return candidate
        return PORTABLE_UTF8MB4_COLLATION
    return None


def _converted(table: Table, schema: Schema | None, target: Target, names: set[str], charset: str, collation: str,
               table_level: bool) -> Table:
    """The table after its text columns `names` (lower case) move to charset/collation, and with
    `table_level` its default too (ALTER TABLE ... DEFAULT CHARACTER SET changes no existing column:
    the others keep what they had). A VARCHAR too long for the new character set is refused by the
    server (ERROR 1074, verified), and stays too long here."""
    columns = {}
    for key, column in table.columns.items():
        if key in names:
            column = replace(column, charset=charset, collation=collation)
        elif table_level and column.type.upper() in sizes.TEXT_TYPES and not (column.charset or column.collation):
            old = sizes.column_charset(column, table, target, schema)
            if old is not None:
                column = replace(column, charset=old.charset, collation=old.collation)
        columns[key] = column
    options = replace(table.options, charset=charset, collation=collation) if table_level else table.options
    return Table(table.schema, table.name, TableBody(columns, table.indexes, table.foreign_keys, options),
                 table.defined, table.changed, table.temporary, table.origin)


def conversion_problems(converted: Table, targets: list[Target], schema: Schema | None) -> list[str]:
    """What the targets would refuse or change about the converted table (row-size-limit and
    index-key-length's own decisions), one line each."""
    found = []
    for target in targets:
        row = row_problem(converted, target, schema)
        if row is not None and row.severity == "error":
            found.append(f"{target.label}: {row.message}")
        for index in converted.indexes:
            key = key_problem(converted, index, target, schema)
            if key is not None:
                found.append(f"{target.label}: {key.message}")
    return found


def conversion_fix(table: Table, schema: Schema | None, targets: list[Target], names: list[str], charset: str,
                   collation: str, table_level: bool = True, locked: frozenset[str] = frozenset()
                   ) -> tuple[str | None, str]:
    """The ALTER TABLE clauses that move the columns `names` to charset/collation (CONVERT TO when
    they are all the table's text columns, else a MODIFY per column, with `table_level` the
    table's default too), checked with row-size-limit and index-key-length on the result for every
    target; (None, why) when the result would be refused and ROW_FORMAT=DYNAMIC does not help."""
    from linter.rules.column_sql import kept_definition  # the one way a MODIFY is written

    text = _text_columns(table)
    moving = {n.lower() for n in names}
    joined = sorted(c.name for c in text if c.name.lower() in locked and c.name.lower() in moving)
    if joined:
        return None, (f"{_columns(joined)} {'are' if len(joined) > 1 else 'is'} in foreign keys: the server refuses to "
                      "change a column's character set while a foreign key joins it (MariaDB: ERROR 1832 Cannot change "
                      "column ... used in a foreign key constraint), and both sides must match: drop those foreign keys, "
                      "convert every table they join, then add them again.")
    everything = {c.name.lower() for c in text} == moving
    table_level = table_level or everything
    converted = _converted(table, schema, targets[0], moving, charset, collation, table_level)
    problems = conversion_problems(converted, targets, schema)
    extra = ""
    if problems:
        dynamic = Table(converted.schema, converted.name,
                        TableBody(converted.columns, converted.indexes, converted.foreign_keys,
                                  replace(converted.options, row_format="DYNAMIC")),
                        converted.defined, converted.changed, converted.temporary, converted.origin)
        if sizes.row_format(table) != "dynamic" and not conversion_problems(dynamic, targets, schema):
            extra = ", ROW_FORMAT=DYNAMIC"
            problems = []
    if problems:
        return None, ("Converting it would not load: " + " ".join(problems[:2])
                      + " Shorten the columns or keys named there first.")
    if everything:
        return f"CONVERT TO CHARACTER SET {charset} COLLATE {collation}{extra}", ""
    generated = [c.name for c in text if c.name.lower() in moving and c.generated]
    if generated:
        return None, (f"{_columns(generated)} are generated: their expression is not in innolint's model, so it "
                      "writes no MODIFY for them; convert them by hand.")
    clauses = [f"DEFAULT CHARACTER SET {charset} COLLATE {collation}"] if table_level else []
    for column in text:
        if column.name.lower() in moving:
            moved = replace(column, charset=charset, collation=collation)
            clauses.append(f"MODIFY COLUMN {kept_definition(moved, targets[0])}")
    return f"{', '.join(clauses)}{extra}", ""


def fix_for(problem: Problem, table: Table, schema: Schema | None, targets: list[Target],
            locked: frozenset[str] = frozenset()) -> tuple[str | None, str]:
    """The fix of one problem (ALTER TABLE clauses), and a sentence for the message when there is
    none or it needs one.
    `locked`: the table's columns foreign keys join (linter.rules.scope.foreign_key_columns)."""
    first = targets[0]
    if problem.kind == "utf8mb3":
        collations = {sizes.column_charset(table.columns[c.lower()], table, first, schema).collation  # type: ignore[union-attr]
                      for c in problem.columns}
        collation = utf8mb4_collation(next(iter(collations)) if len(collations) == 1 else None, targets)
        default_too = sizes.table_charset(table, first, schema).charset == "utf8mb3"
        return conversion_fix(table, schema, targets, list(problem.columns), "utf8mb4", collation, default_too, locked)
    if problem.kind == "utf8mb3-default":
        collation = utf8mb4_collation(sizes.table_charset(table, first, schema).collation, targets)
        why = "" if sizes.table_charset(table, first, schema).source == "table" else (
            f"The schema's default is utf8mb3 too: ALTER DATABASE {quote(table.schema or '')} CHARACTER SET utf8mb4 "
            f"COLLATE {collation} for the tables created later.")
        return f"DEFAULT CHARACTER SET utf8mb4 COLLATE {collation}", why
    if problem.kind in ("implicit-charset", "implicit-collation"):
        charset = "utf8mb4" if problem.kind == "implicit-charset" else sizes.table_charset(table, first, schema).charset
        collation = portable_collation(charset, targets)
        if collation is None:
            return None, f"Name a COLLATE for {charset} that every target has."
        return conversion_fix(table, schema, targets, list(problem.columns), charset, collation, locked=locked)
    if problem.kind == "unknown-collation":
        charsets = {r.charset for c in _text_columns(table)
                    if (r := sizes.column_charset(c, table, first, schema)) is not None}
        if len(charsets) == 1 and (collation := portable_collation(next(iter(charsets)), targets)) is not None:
            names = [c.name for c in _text_columns(table)]
            fix, why = conversion_fix(table, schema, targets, names, next(iter(charsets)), collation, locked=locked)
            return fix, why or (f"In the DDL itself, write COLLATE {collation} where it says the unknown one "
                                "(the ALTER is for the table where it exists).")
        return None, "Write a collation every target has instead (utf8mb4_unicode_520_ci for utf8mb4)."
    return None, ""


class CharsetPortability(Check):
    id = "charset-portability"
    title = "utf8mb3, a collation a target lacks, or a character set left to the server's default"
    severity = "warning"
    doc = RuleDoc(
        why=(
            "`utf8` is utf8mb3 on every server: three bytes per character at most, so emoji and other 4-byte "
            "characters fail to insert (ERROR 1366) or are cut, and MySQL 8.0 deprecates it. Collations are not "
            "shared: MySQL 8.0's default utf8mb4_0900_ai_ci does not exist on MariaDB 10.x or MySQL 5.7 (ERROR 1273 "
            "Unknown collation: a MySQL 8 dump does not load there), MariaDB's uca1400 and NO PAD collations do not "
            "exist on MySQL. And a table that names no character set gets the server's default, which differs: "
            "utf8mb4 / utf8mb4_0900_ai_ci on MySQL 8.0, latin1 / latin1_swedish_ci on MySQL 5.7 and MariaDB 10.x "
            "(Percona: \"MySQL and MariaDB Default Configuration Differences\"), utf8mb4 / utf8mb4_uca1400_ai_ci on "
            "MariaDB 11.6+. The same migration then makes different tables: other bytes per character (other row "
            "and key limits), other sorting, lost characters."
        ),
        evidence=(
            "Each text column's character set and collation resolved column -> table -> CREATE DATABASE -> the "
            "target's default, for the configured target and every one in `targets`. One finding per table and kind. "
            "A table whose default character set is utf8mb3 (its own, or its schema's) and that has no utf8mb3 text "
            "column yet is flagged too: the next text column an ALTER adds without a character set takes it."
        ),
        bad="CREATE TABLE comment (\n  id INT PRIMARY KEY,\n  body TEXT\n) DEFAULT CHARSET=utf8;",
        good="CREATE TABLE comment (\n  id INT PRIMARY KEY,\n  body TEXT\n) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;",
        fix=(
            "ALTER TABLE ... CONVERT TO CHARACTER SET utf8mb4 with the utf8mb4 collation that sorts as the old one "
            "did, or a collation every target has; the result is checked with row-size-limit and index-key-length "
            "on every target (utf8mb4 takes 4 bytes a character: a key or row that fit in utf8mb3 may not), with "
            "ROW_FORMAT=DYNAMIC added where that makes it fit, and no fix where nothing does. In a migration, write "
            "DEFAULT CHARSET and COLLATE into the CREATE TABLE."
        ),
        options={
            "targets": "the servers the schema must also run on, checked besides the configured target "
                       f"(default: none), e.g. [\"mysql-8.0\", \"mariadb-10.11\"]; one of {', '.join(TARGETS)}",
        },
        option_types={"targets": TARGET_NAMES},
        option_defaults={"targets": []},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        targets = [context.target]
        for name in context.option(self.id, "targets", []) or []:
            if name not in (t.name for t in targets):
                targets.append(Target.parse(name))
        joined = foreign_key_columns(model)

        def judge(table: Table) -> Iterator[Finding]:
            if is_system_schema(table.schema):
                return
            schema = sizes.schema_of(model, table)
            locked = frozenset(joined.get(id(table), ()))
            for problem in charset_problems(table, targets, schema):
                clauses, why = fix_for(problem, table, schema, targets, locked)
                yield self.finding(
                    table, sentences(problem.message, why), severity=problem.severity, where=statement_of(table),
                    evidence=problem.evidence, fix=f"ALTER TABLE {qualified(table)} {clauses};" if clauses else None,
                    subject=problem.kind, summary=_summary(table, problem),
                )

        return judged_once(model, context, judge)

def _summary(table: Table, problem: Problem) -> str | None:
    """The problem's point in one line (None: the message's first sentence says it)."""
    columns = ", ".join(problem.columns[:3]) + (f" and {len(problem.columns) - 3} more" if len(problem.columns) > 3 else "")
    return {
        "unknown-charset": f"{table.name}: {problem.evidence} does not exist on a target server",
        "unknown-collation": f"{table.name}: {problem.evidence} "
                             + ("does not exist on a target server" if problem.severity == "error"
                                else "is missing from earlier releases of a target"),
        "utf8mb3": f"{table.name}: {columns} store{'' if len(problem.columns) > 1 else 's'} text in utf8mb3 "
                   "(3 bytes per character: no emoji)",
        "utf8mb3-default": f"{table.name}: its default character set is utf8mb3: the next text column added is too",
        "implicit-charset": f"{table.name}: no character set written, and the targets' defaults differ",
        "implicit-collation": f"{table.name}: no collation written, and the targets' default collations differ",
    }.get(problem.kind)
