"""What the test MariaDB does with a statement: accepts it (with which notes and warnings, and
the table it made), or refuses it (with which error). The oracle of the rules about DDL the
server refuses or changes (row-size-limit, index-key-length, zero-date-default,
charset-portability, non-innodb-engine)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pymysql

from tests.mariadb import MariaDB

#: MySQL 8.0's default sql_mode (MySQL 8.0 manual 7.1.11 "Server SQL Modes"); MySQL 5.7 adds
#: NO_AUTO_CREATE_USER, which MariaDB has too
MYSQL_SQL_MODE = ("ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,"
                  "NO_ENGINE_SUBSTITUTION")


def first_error(server: MariaDB, database: str, statements: list[str], sql_mode: str | None = None) -> int | None:
    """Each statement in order, on one connection with that sql_mode (None: the server's): the
    error number of the first the server refuses, else None."""
    connection = server.connect(database)
    try:
        with connection.cursor() as cursor:
            if sql_mode is not None:
                cursor.execute(f"SET SESSION sql_mode = '{sql_mode}'")
            for statement in statements:
                try:
                    cursor.execute(statement)
                except pymysql.err.MySQLError as error:
                    return int(error.args[0])
        return None
    finally:
        connection.close()


#: the databases `run` made, to drop when a test module is done (`drop_databases`)
_MADE: set[str] = set()


def drop_databases(server: MariaDB) -> None:
    """Drop every database `run` made (a module-scoped fixture calls this after its tests)."""
    if _MADE:
        server.sql("; ".join(f"DROP DATABASE IF EXISTS `{name}`" for name in sorted(_MADE)))
        _MADE.clear()


@dataclass
class Outcome:
    ok: bool
    code: int = 0  # the error's number when refused
    message: str = ""
    notes: list[tuple[str, int, str]] = field(default_factory=list)  # SHOW WARNINGS after it
    tables: dict[str, str] = field(default_factory=dict)  # SHOW CREATE TABLE of the tables it made


def run(server: MariaDB, database: str, statements: list[str], *, session: str = "",
        table: str | None = None) -> Outcome:
    """Run the statements in `database` (emptied first) in one session (after the
    `session` SET statement, if any), stop at the first error. `table`: read its SHOW CREATE TABLE."""
    connection = server.connect()
    try:
        with connection.cursor() as cursor:
            # one connection, and the database kept between calls (emptied): connecting and
            # re-creating a database cost more than the statements under test
            cursor.execute(f"CREATE DATABASE IF NOT EXISTS `{database}`")
            _MADE.add(database)
            cursor.execute(f"USE `{database}`")
            cursor.execute("SET SESSION foreign_key_checks=0")
            cursor.execute("SHOW TABLES")
            for (old,) in cursor.fetchall():
                cursor.execute(f"DROP TABLE `{old}`")
            cursor.execute("SET SESSION foreign_key_checks=DEFAULT")
            if session:
                cursor.execute(session)
            notes: list[Any] = []
            for statement in statements:
                try:
                    cursor.execute(statement)
                except pymysql.err.MySQLError as error:
                    return Outcome(False, int(error.args[0]), str(error.args[1]), notes)
                cursor.execute("SHOW WARNINGS")
                notes.extend(tuple(row) for row in cursor.fetchall())
            tables = {}
            if table is not None:
                cursor.execute(f"SHOW CREATE TABLE `{table}`")
                tables[table] = str(cursor.fetchone()[1])
            return Outcome(True, notes=notes, tables=tables)
    finally:
        connection.close()


@dataclass
class TableDDL:
    """A CREATE TABLE as parts a fix can be applied to: column definitions and keys by name,
    and table options. What the server refuses cannot be ALTERed into shape on the server, so a
    fix for it is checked by writing it into the CREATE TABLE and loading that."""

    name: str
    columns: dict[str, str]  # name -> definition after the name ("VARCHAR(10) NOT NULL")
    keys: dict[str, str] = field(default_factory=dict)  # name -> "KEY `k` (`a`)" ("PRIMARY" for the primary key)
    options: str = ""

    def sql(self) -> str:
        body = [f"`{name}` {definition}" for name, definition in self.columns.items()] + list(self.keys.values())
        return f"CREATE TABLE `{self.name}` ({', '.join(body)}){(' ' + self.options) if self.options else ''}"

    def with_fix(self, fix: str) -> TableDDL:
        """This CREATE TABLE with the fix's ALTER TABLE written into it (MODIFY COLUMN, table
        options, DROP/ADD INDEX, ADD KEY, CONVERT TO CHARACTER SET), read by innolint's parser."""
        from linter.rules.column_sql import column_definition
        from linter.parse import ops
        from linter.parse.statement import parse_statement

        columns, keys, options = dict(self.columns), dict(self.keys), self.options
        for statement in fix.split(";"):
            if not statement.strip() or not statement.strip().upper().startswith("ALTER TABLE"):
                continue
            converted = _convert_to(statement)
            if converted is not None:
                options = _TABLE_CHARSET.sub("", options) + f" DEFAULT CHARSET={converted[0]} COLLATE={converted[1]}"
                columns = {name: _without_charset(definition) for name, definition in columns.items()}
                continue
            op = parse_statement(statement)
            assert isinstance(op, ops.AlterTable), (statement, op)
            for action in op.actions:
                if isinstance(action, ops.ChangeColumn):
                    columns.pop(action.old_name)
                    columns[action.column.name] = column_definition(action.column).split(" ", 1)[1]
                elif isinstance(action, ops.SetOptions):
                    for key, value in action.options:
                        if key in ("CHARSET", "COLLATE"):
                            options = _TABLE_CHARSET.sub("", options) if key == "CHARSET" else options
                            options += f" {'DEFAULT CHARSET' if key == 'CHARSET' else 'COLLATE'}={value}"
                        else:
                            options += f" {key}={value}"
                elif isinstance(action, ops.DropIndex):
                    keys.pop(action.name, None)
                elif isinstance(action, ops.AddIndex):
                    index = action.index
                    parts = ", ".join(f"`{p.name}`" + (f"({p.prefix})" if p.prefix is not None else "") for p in index.columns)
                    kind = {"primary": "PRIMARY KEY", "unique": f"UNIQUE KEY `{index.name}`", "index": f"KEY `{index.name}`"}
                    keys[index.name or "PRIMARY"] = f"{kind[index.kind]} ({parts})"
                else:
                    raise AssertionError(f"a fix action the test cannot write into a CREATE TABLE: {action}")
        return TableDDL(self.name, columns, keys, options)


_TABLE_CHARSET = re.compile(r"(?:DEFAULT\s+)?(?:CHARACTER\s+SET|CHARSET|COLLATE)\s*=?\s*\w+", re.I)


def _convert_to(statement: str) -> tuple[str, str] | None:
    words = statement.replace(",", " ").split()
    upper = [w.upper() for w in words]
    if "CONVERT" not in upper:
        return None
    at = upper.index("CONVERT")
    return words[at + 4], words[at + 6]  # CONVERT TO CHARACTER SET cs COLLATE co


def _without_charset(definition: str) -> str:
    words = definition.split()
    out, skip = [], 0
    for i, word in enumerate(words):
        if skip:
            skip -= 1
            continue
        if word.upper() == "CHARACTER" and i + 1 < len(words) and words[i + 1].upper() == "SET":
            skip = 2
            continue
        if word.upper() in ("CHARSET", "COLLATE"):
            skip = 1
            continue
        out.append(word)
    return " ".join(out)
