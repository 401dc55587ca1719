"""Views and tables share one namespace (temporary tables have their own): CREATE VIEW on a
table's name fails (1050), CREATE OR REPLACE VIEW on a table's name too (1347: not a view),
CREATE TABLE on a view's name fails (1050) and with IF NOT EXISTS makes no table, RENAME and
ALTER ... RENAME onto a view's name fail (1050). A mysqldump view stand-in (`/*!50001 CREATE
TABLE v`) makes way for its view only when the dump drops it first; a dump that lost that DROP
(`mysqldump --skip-add-drop-table`) leaves the stand-in as a table and its view refused, and
innolint says so at the view.

Each script is judged by MariaDB through the mysql client (tests/differential.py, `judge`): the
permanent tables must be the server's, and innolint must report exactly the statements the
server refuses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import differential as D
from tests.mariadb import MariaDB

STANDIN = "/*!50001 CREATE TABLE `{v}` (\n  `x` tinyint NOT NULL\n) ENGINE=MyISAM */;\n"

SCRIPTS = {
    "view-on-a-table": "CREATE TABLE t1 (a INT);\nCREATE VIEW t1 AS SELECT 1 AS x;\n",
    "or-replace-view-on-a-table": "CREATE TABLE Report (a INT);\nCREATE OR REPLACE VIEW Report AS SELECT 1 AS x;\n",
    "view-on-a-table-other-database": "CREATE TABLE {other}.t1 (a INT);\nCREATE VIEW {other}.t1 AS SELECT 1 AS x;\n"
                                      "CREATE VIEW t1 AS SELECT 2 AS x;\n",
    "table-on-a-view": "CREATE VIEW v1 AS SELECT 1 AS x;\nCREATE TABLE v1 (a INT);\nCREATE TABLE IF NOT EXISTS v1 (b INT);\n",
    "table-like-on-a-view": "CREATE TABLE src (a INT);\nCREATE OR REPLACE VIEW copy AS SELECT 1 AS x;\n"
                            "CREATE TABLE IF NOT EXISTS copy LIKE src;\nCREATE TABLE copy LIKE src;\n",
    "view-name-in-another-case": "CREATE VIEW v1 AS SELECT 1 AS x;\nCREATE TABLE V1 (a INT);\n",
    "temporary-table-beside-a-view": "CREATE VIEW tv AS SELECT 1 AS x;\nCREATE TEMPORARY TABLE tv (z INT);\n"
                                     "DROP TABLE tv;\nCREATE TABLE tv (a INT);\n",
    "view-beside-a-temporary-table": "CREATE TEMPORARY TABLE tt (z INT);\nCREATE VIEW tt AS SELECT 1 AS x;\n"
                                     "CREATE TABLE tt (a INT);\n",
    "rename-onto-a-view": "CREATE TABLE t1 (a INT);\nCREATE VIEW v2 AS SELECT 1 AS x;\nRENAME TABLE t1 TO v2;\n",
    "alter-rename-onto-a-view": "CREATE TABLE T2 (a INT);\nCREATE VIEW t2 AS SELECT 1 AS x;\nALTER TABLE T2 RENAME `t2`;\n"
                                "ALTER TABLE T2 RENAME TO t3;\n",
    "rename-a-view-then-reuse-its-name": "CREATE VIEW v1 AS SELECT 1 AS x;\nRENAME TABLE v1 TO v9;\n"
                                         "CREATE TABLE v1 (a INT);\nCREATE TABLE v9 (a INT);\n",
    "rename-a-view-to-another-database": "CREATE VIEW v1 AS SELECT 1 AS x;\nCREATE TEMPORARY TABLE t4 (a TEXT);\n"
                                         "RENAME TABLE v1 TO {other}.v1;\nCREATE TABLE v1 LIKE t4;\n"
                                         "RENAME TABLE v1 TO v2, {main}.v2 TO {other}.v3;\nCREATE TABLE v2 (a INT);\n",
    "dump-with-drops": STANDIN.format(v="v1") + "/*!50001 DROP TABLE IF EXISTS `v1`*/;\n/*!50001 DROP VIEW IF EXISTS `v1`*/;\n"
                       "/*!50001 CREATE ALGORITHM=UNDEFINED */\n/*!50001 VIEW `v1` AS SELECT 1 AS `x` */;\n",
    "dump-without-drop": STANDIN.format(v="v1") + "/*!50001 CREATE VIEW `v1` AS SELECT 1 AS `x` */;\n",
    "dump-without-drop-or-replace": STANDIN.format(v="report") + "CREATE OR REPLACE VIEW report AS SELECT 1 AS x;\n",
    "dump-standin-dropped-by-hand": STANDIN.format(v="v3") + "DROP TABLE v3;\nCREATE VIEW v3 AS SELECT 1 AS x;\n",
}


@pytest.fixture(scope="module")
def sides(mariadb: MariaDB) -> Iterator[tuple[D.ServerRunner, D.InnolintRunner]]:
    with D.judging_sides(mariadb, "viewns") as pair:
        yield pair


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_views_share_the_tables_namespace_as_on_the_server(sides: tuple[D.ServerRunner, D.InnolintRunner],
                                                           name: str) -> None:
    judged = D.judge(*sides, SCRIPTS[name])
    assert judged.faithful(), f"{SCRIPTS[name]}\n{judged}"


@pytest.mark.parametrize("name", ["dump-without-drop", "dump-without-drop-or-replace"])
def test_a_stand_in_never_dropped_is_said_at_its_view(sides: tuple[D.ServerRunner, D.InnolintRunner], name: str) -> None:
    """The message names the stand-in, where it was made, and that the server keeps it as a table."""
    judged = D.judge(*sides, SCRIPTS[name])
    (line,) = judged.said
    assert judged.refused == {line: 1050 if name == "dump-without-drop" else 1347}
    assert "stand-in" in judged.said[line] and ":1)" in judged.said[line] and "keeps the stand-in" in judged.said[line]
