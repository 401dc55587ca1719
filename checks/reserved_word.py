"""reserved-word: a table or column named with a word the target server reserves.

Written unquoted, such a name is a syntax error on that server (ERROR 1064): a migration that ran
on MySQL 5.7 with a column `rank` or a table `groups` fails when the history is replayed on 8.0,
which reserved them (with system, lead, window, of ...). Written quoted, the DDL runs, but every
query that names it must quote it too, and MySQL Shell's upgrade checker lists it. The words are
the servers' own (linter.schema.reserved_words): MySQL's KEYWORDS table and manual per release
series, MariaDB's asked of the server itself; they differ (MariaDB takes `rank` and `database` as
names, reserves `offset` and `returning`).

Which servers: the target, the later release series of its line (an upgrade: 5.7 -> 8.0 -> 8.4),
and the rule's `targets`. A name after a period (`db.rank`, `t.rank`) is never a keyword.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.rules.copies import judged_once
from linter.rules.checkapi import Check, CheckContext, RuleDoc, quote
from linter.rules.findings import Finding, Severity
from linter.rules.options import TARGET_NAMES
from linter.parse.elements import Column, Location
from linter.schema.model import SchemaModel, Table
from linter.schema.reserved_words import reserved_words, upgrades
from linter.schema.target import TARGETS, Target

#: the server's answer to a reserved word written as a bare name
_SYNTAX_ERROR = "ERROR 1064 (42000): You have an error in your SQL syntax"


class ReservedWord(Check):
    id = "reserved-word"
    title = "Table or column named with a word the server reserves"
    severity = "error"
    severity_note = "warning when only a later release or another target reserves it; info when the name is quoted"
    doc = RuleDoc(
        why=(
            "A reserved word is no name to the server's parser: `CREATE TABLE t (rank INT)` is a syntax error on "
            "MySQL 8.0 (ERROR 1064), which reserved RANK, GROUPS, SYSTEM, LEAD, WINDOW, OF and 21 more words that "
            "MySQL 5.7 took as names; MySQL 8.4 adds QUALIFY and TABLESAMPLE. A history that ran on the old server "
            "fails when it is replayed on the new one (a new replica, CI, a restore from migrations), and every "
            "query that names the column unquoted fails after the upgrade. MariaDB reserves other words (OFFSET, "
            "RETURNING, ROW_NUMBER, STATS_PERSISTENT ...) and takes some of MySQL's as names (DATABASE, RANK)."
        ),
        evidence=(
            "Table names and column names as the statements that made them wrote them: unquoted (and not after a "
            "period, where no keyword is read) or quoted. The words per server are the servers' own: MySQL's "
            "information_schema.KEYWORDS and manual per release series (5.7, 8.0, 8.4), MariaDB's asked of "
            "MariaDB 10.11 (every keyword used as a table and a column name). Checked against the target, the later "
            "release series of its line (5.7 -> 8.0 -> 8.4) and the rule's `targets`. Error: unquoted and reserved "
            "on the target (the server refuses the statement); warning: unquoted and reserved on a later release or "
            "another target (it fails there); info: quoted (it loads; every query must quote it)."
        ),
        bad="CREATE TABLE leaderboard (\n  id INT PRIMARY KEY,\n  rank INT NOT NULL,  -- a syntax error on MySQL 8.0\n"
            "  `groups` VARCHAR(20)  -- loads, but every query must quote it\n);",
        good="CREATE TABLE leaderboard (\n  id INT PRIMARY KEY,\n  position INT NOT NULL,\n  team_groups VARCHAR(20)\n);",
        fix=(
            "Rename it (`ALTER TABLE t RENAME COLUMN rank TO rank_position`, MySQL 8.0+ and MariaDB 10.5+; `RENAME "
            "TABLE groups TO user_groups`) together with the queries that name it; or write it quoted everywhere "
            "(`rank`), in the migration that defines it too. innolint writes no ALTER for it: a rename is a change "
            "of the application's queries as much as of the schema."
        ),
        options={
            "targets": "servers the schema must also run on, besides the target and its later releases (default: "
                       f"none), e.g. [\"mariadb-10.11\"]; one of {', '.join(TARGETS)}",
        },
        option_types={"targets": TARGET_NAMES},
        option_defaults={"targets": []},
    )

    def run(self, model: SchemaModel, context: CheckContext) -> Iterator[Finding]:
        target = context.target
        others: list[Target] = list(upgrades(target))
        for name in context.option(self.id, "targets", []) or []:
            if name != target.name and all(t.name != name for t in others):
                others.append(Target.parse(name))
        words = reserved_words(target)
        elsewhere = [(t, reserved_words(t)) for t in others]
        # a name is looked up in each list once; the sets are small, the names many
        anywhere = words.union(*(w for _, w in elsewhere))

        def judge(table: Table) -> Iterator[Finding]:
            if table.name.upper() in anywhere:
                yield self._finding(table, None, table.name, table.bare_name, target, words, elsewhere)
            for column in table.columns.values():
                if column.name.upper() in anywhere:
                    yield self._finding(table, column, column.name, column.bare, target, words, elsewhere)

        return judged_once(model, context, judge)

    def _finding(self, table: Table, column: Column | None, name: str, bare: bool, target: Target,
                 words: frozenset[str], elsewhere: list[tuple[Target, frozenset[str]]]) -> Finding:
        word = name.upper()
        what = f"column {table.name}.{name}" if column is not None else f"table {name}"
        here = word in words
        there = [t for t, w in elsewhere if word in w and not here]
        servers = ([target] if here else []) + there
        labels = ", ".join(t.label for t in servers)
        severity: Severity
        if bare and here:
            severity = "error"
            message = (f"{what} is written unquoted, and {word} is a reserved word on {target.label}: the server "
                       f"refuses the statement ({_SYNTAX_ERROR}). Write it quoted ({quote(name)}), or rename it.")
            summary = f"{what}: {word} is reserved on {target.label}, and written unquoted: a syntax error"
        elif bare:
            severity = "warning"
            message = (f"{what} is written unquoted, and {word} is a reserved word on {labels}: the statement is a "
                       f"syntax error there ({_SYNTAX_ERROR}), so replaying this history on {servers[0].label} fails, "
                       "and so does every query that names it unquoted. Rename it, or quote it "
                       f"({quote(name)}) here and in every query.")
            summary = f"{what}: {word} is reserved on {servers[0].label}, and written unquoted"
        else:
            severity = "info"
            checker = "" if target.is_mariadb else ", and MySQL Shell's upgrade checker lists it"
            message = (f"{what} is {word}, a reserved word on {labels}: the DDL writes it quoted and loads, but every "
                       f"query that names it must quote it too ({quote(name)}){checker}. Renaming it ends that.")
            summary = f"{what}: {word} is a reserved word on {labels}"
        where: Location = table.place(column) if column is not None else table.defined
        evidence = (f"{'unquoted' if bare else 'quoted'} name {name!r}; reserved on " + labels
                    + (f"; a name on {target.label}" if not here else ""))
        return self.finding(table, message, severity=severity, where=where, evidence=evidence,
                            subject=f"column:{name.lower()}" if column is not None else "table", summary=summary)
