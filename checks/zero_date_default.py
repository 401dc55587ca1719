"""zero-date-default: a DATE/DATETIME/TIMESTAMP default of '0000-00-00' or a zero-in-date.

What each target does (MySQL from its manual, MariaDB verified on 10.11 by tests/test_zero_date_default.py):
- MySQL 5.7, 8.0, 8.4, Percona 8.0: the default sql_mode has STRICT_TRANS_TABLES, NO_ZERO_DATE and
  NO_ZERO_IN_DATE (MySQL 8.0 manual 7.1.11 "Server SQL Modes"; 5.7 manual 5.1.10), so a zero date
  ('0000-00-00', 0, '00000000') or a zero-in-date ('2020-00-15', '2020-01-00') as a default is
  refused: ERROR 1067 (42000): Invalid default value for 'col'.
- MariaDB 10.6, 10.11, 11.x: the default sql_mode (STRICT_TRANS_TABLES, ERROR_FOR_DIVISION_BY_ZERO,
  NO_AUTO_CREATE_USER, NO_ENGINE_SUBSTITUTION) has neither, so DATE and DATETIME take both and
  TIMESTAMP takes '0000-00-00 00:00:00'; a zero-in-date TIMESTAMP is out of its range and
  refused there too (ERROR 1067). With MySQL's sql_mode MariaDB refuses all of them the same way.
- With explicit_defaults_for_timestamp=OFF (the default of MySQL 5.7 and of MariaDB before
  10.10), a TIMESTAMP NOT NULL without a DEFAULT that is not the table's first TIMESTAMP gets
  DEFAULT '0000-00-00 00:00:00' implicitly: MySQL 5.7 refuses it (ERROR 1067), MariaDB 10.6 adds
  the zero default without a word. MySQL 8.0.2+ and MariaDB 10.10+ have it ON.
ON UPDATE takes only CURRENT_TIMESTAMP (a zero date there is a syntax error), so only DEFAULT counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from linter.rules.scope import is_system_schema, statement_of
from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, qualified, quote
from linter.rules.findings import Finding
from linter.rules.zero_dates import first_timestamp_column, zero_date_problem
from linter.parse.elements import Column
from linter.schema.model import SchemaModel, Table
from linter.schema.target import Target

#: up to this many zero-date columns of a table, each finding's fix changes them all
_TOGETHER = 32


def zero_date_fix(table: Table, columns: list[Column], target: Target, first_of: str | None = None) -> str:
    """NULL as the default (the column becomes nullable where it is not), written as a MODIFY that
    keeps the rest of the definition; then the rows that hold the zero value get NULL. `columns`:
    the column of the finding, and with it the table's other columns whose zero-date default the
    target refuses: while one is left the server refuses every ALTER of the table under the
    target's default sql_mode (1067 for that column, shown on MariaDB with MySQL's sql_mode), so
    they are changed in one ALTER. `first_of`: the column whose finding's fix changes them all,
    when this one's does not (a table of more than `_TOGETHER` such columns)."""
    from linter.rules.column_sql import kept_definition  # the one way a MODIFY is written

    name = qualified(table)
    actions = []
    for column in columns:
        if column.nullable:
            actions.append(f"ALTER COLUMN {quote(column.name)} SET DEFAULT NULL")
        else:
            actions.append(f"MODIFY COLUMN {kept_definition(replace(column, nullable=True, default='NULL'), target)}")
    lines = [f"ALTER TABLE {name} {', '.join(actions)};"]
    if len(columns) == 1 and first_of is not None:
        lines.append(f"-- run as part of {first_of}'s fix: {target.label} refuses any ALTER of the table while another "
                     "column keeps its zero default (1067)")
    lines += [f"UPDATE {name} SET {quote(c.name)} = NULL WHERE MONTH({quote(c.name)}) = 0 OR DAYOFMONTH({quote(c.name)}) = 0;"
              for c in columns]
    if len(columns) > 1:
        lines.append(f"-- with the table's other zero-date columns: {target.label} refuses any ALTER of the table while "
                     "one keeps its zero default (1067)")
    return "\n".join(lines)


class ZeroDateDefault(Check):
    id = "zero-date-default"
    title = "Zero date as a DATE/DATETIME/TIMESTAMP default"
    severity = "error"
    doc = RuleDoc(
        why=(
            "MySQL 5.7 and later run with STRICT_TRANS_TABLES, NO_ZERO_DATE and NO_ZERO_IN_DATE in the default "
            "sql_mode (MySQL 8.0 manual 7.1.11 \"Server SQL Modes\"), so a CREATE TABLE or ALTER TABLE with DEFAULT "
            "'0000-00-00' (or 0, or a zero month or day such as '2020-00-15') fails: ERROR 1067 (42000): Invalid "
            "default value (Percona: \"Upgrading to MySQL 5.7? Beware of the new STRICT mode\"). MariaDB's default "
            "sql_mode has neither mode and takes them for DATE and DATETIME, and '0000-00-00 00:00:00' for "
            "TIMESTAMP (a zero-in-date TIMESTAMP is out of range there too), so a schema that loads on MariaDB "
            "fails on MySQL. A zero date is not a date: JDBC and other drivers refuse or rewrite it. MySQL 5.7 and "
            "MariaDB before 10.10 also give a TIMESTAMP NOT NULL without DEFAULT (not the table's first) an "
            "implicit zero default (explicit_defaults_for_timestamp=OFF): MySQL 5.7 refuses that table."
        ),
        evidence=(
            "The column's type and DEFAULT as written after every ALTER; the target's default sql_mode and "
            "explicit_defaults_for_timestamp. Error on targets that refuse the statement, warning where it loads."
        ),
        bad="CREATE TABLE invoice (\n  id INT PRIMARY KEY,\n  paid_on DATE NOT NULL DEFAULT '0000-00-00'\n);",
        good="CREATE TABLE invoice (\n  id INT PRIMARY KEY,\n  paid_on DATE NULL DEFAULT NULL\n);",
        fix=(
            "NULL as the default (the column made nullable: unknown is what the zero date meant), then the rows "
            "holding a zero date set to NULL. Where the column must stay NOT NULL, give it a real default instead "
            "(DEFAULT CURRENT_TIMESTAMP for a creation time)."
        ),
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        return judged_once(model, context, lambda table: self._judge(table, context))

    def _judge(self, table: Table, context: CheckContext) -> Iterator[Finding]:
        if is_system_schema(table.schema):
            return
        first = first_timestamp_column(table)
        problems = [(column, problem) for column in table.columns.values()
                    if (problem := zero_date_problem(table, column, context.target, first)) is not None]
        # the columns the target's default sql_mode refuses: fixed together (see zero_date_fix), in
        # every finding's fix up to _TOGETHER of them, else in the first one's (the rest name it):
        # the fixes' text stays linear in the columns
        refused_columns = [column for column, problem in problems if problem.severity == "error"]
        first_refused = refused_columns[0] if refused_columns else None
        for column, problem in problems:
            together, first_of = [column], None
            if problem.severity == "error" and (len(refused_columns) <= _TOGETHER or column is first_refused):
                together = refused_columns  # (in table order: one text for them all)
            elif problem.severity == "error" and first_refused is not None:
                first_of = f"{quote(table.name)}.{quote(first_refused.name)}"
            point = ("TIMESTAMP NOT NULL without a DEFAULT gets the zero date" if problem.implicit
                     else f"DEFAULT {column.default} is a zero date")
            refused = f"; {context.target.label} refuses it" if problem.severity == "error" else ""
            yield self.finding(
                table, problem.message, severity=problem.severity, where=statement_of(table, column),
                evidence=problem.evidence, fix=zero_date_fix(table, together, context.target, first_of),
                subject=f"default:{column.name}", summary=f"{table.name}.{column.name}: {point}{refused}",
            )
