"""Every cost of splitting is linear in the input: each generator of a former blow-up (and of the
constructs issue 14 added) runs at n and at 10n in the same test, and the time may grow at most
15 times. No absolute time limit: the machine's speed cancels out.

Former blow-ups, with the times measured on the project's 2-core machine before the fix (n / 10n):
- comments between CREATE and TABLE under a DELIMITER: 0.05 s for 16 comments, doubling with each
  one (32 s for 24): a lazy `.*?` in a repeated group;
- comment lines waiting for a statement: 1.9 s for 1M lines, 54 s for 10M: rescanned per chunk;
- one statement of 40 MB: a MemoryError (11 MB: 6.5 GB RSS): held whole, then tokenized;
- a one-line executable comment that does not close: 0.09 s for 2,000 letters, 1.8 s for 8,000
  (two overlapping loops in the fast lane's regex, found by this file).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from linter.parse.cache import SKIP_FIRST_WORDS, SKIP_PATTERN
from linter.input.split import split_stream
from linter.schema.target import Target
from tests.complexity import Make, assert_linear

B = "\\"


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _splitting(make: Callable[[int], str], chunk: int, target: str | None, fmt: str | None) -> Make:
    """The work of splitting the text for a size, as the engine splits (skip words, a target)."""

    def prepare(n: int) -> Callable[[], object]:
        chunks = _chunks(make(n), chunk)
        parsed = Target.parse(target) if target else None

        def split() -> None:
            for _ in split_stream(iter(chunks), "f.sql", migration_format=fmt, target=parsed,
                                  skip_words=SKIP_FIRST_WORDS, skip_pattern=SKIP_PATTERN, unless="innolint:"):
                pass

        return split

    return prepare


#: name -> (text for size n, n, chunk size, target, migration format)
GENERATORS: dict[str, tuple[Callable[[int], str], int, int, str | None, str | None]] = {
    # issue 14's blow-ups
    "comments between CREATE and TABLE": (
        lambda n: "DELIMITER //\nCREATE " + "/**/ " * n + "TABLE t (a int); SELECT 1//\n", 2000, 1 << 16, None, None),
    "comment lines waiting for a statement": (
        lambda n: "-- a comment line\n" * n + "CREATE TABLE t (a int);\n", 20000, 1 << 12, None, None),
    "block comments waiting for a statement": (
        lambda n: "/* c */\n" * n + "CREATE TABLE t (a int);\n", 2000, 1 << 12, None, None),
    "one huge statement": (
        lambda n: "CREATE TABLE t (a int) COMMENT '" + "x;\n" * n + "';\nSELECT 1;\n", 200000, 1 << 16, None, None),
    "one huge skipped statement": (
        lambda n: "INSERT INTO t VALUES " + "(1,'a;b'),\n" * n + "(2);\n", 40000, 1 << 16, None, None),
    # the constructs the splitter reads now
    "client commands": (
        lambda n: f"CREATE TABLE t (a int){B}g {B}W {B}p\n{B}u db\nuse db2\n" * n, 400, 1 << 12, "mariadb-10.11", None),
    "commands inside one statement": (
        lambda n: "CREATE TABLE t (a int" + f" {B}p {B}u db\n" * n + ");\n", 2000, 1 << 12, None, None),
    "a command's long parameters": (
        lambda n: f"{B}T " + "x" * n + "\nSELECT 1;\n", 2000000, 1 << 8, None, None),
    "a long DELIMITER line": (lambda n: "DELIMITER " + "/" * n + "\nSELECT 1;\n", 2000000, 1 << 12, None, None),
    "a long line of blanks": (lambda n: " " * n + "\nSELECT 1;\n", 2000000, 1 << 12, None, None),
    "a long line after a command name": (lambda n: "use " + "x" * n + "\nSELECT 1;\n", 2000000, 1 << 12, None, None),
    "blanks after a line break in a statement": (
        lambda n: "SELECT 1\n" + " " * n + "FROM dual;\n", 2000000, 1 << 12, None, None),
    "comments after a statement on its line": (lambda n: "SELECT 1;" + " /* c */" * n + "\n", 3000, 1 << 12, None, None),
    "DELIMITER changes": (lambda n: "DELIMITER //\nSELECT 1//\nDELIMITER ;\nSELECT 2;\n" * n, 400, 1 << 12, None, None),
    "executable comments that do not run": (
        lambda n: "/*!99999 SELECT 1; /* x */ */\nCREATE TABLE t (a int /*!99999 , b int */);\n" * n, 400, 1 << 12,
        "mysql-8.0", None),
    "a one-line executable comment that does not close": (
        lambda n: ("/*!40101 " + "a" * n + "\n;\n/*!40101 " + " " * n + "x\n;\n") * 4, 200000, 1 << 16, None, None),
    "delimiters and quotes in executable comments": (
        lambda n: "DELIMITER //\nCREATE TABLE t (a int) /*!99999 COMMENT 'x//y' */ /*!50100 ENGINE=InnoDB *///\n/\n"
        "/*!99999 a // b */ /*!50100 SELECT 1 /* c */ */ //\n" * n, 250, 1 << 12, "mariadb-10.11", None),
    "comments the client drops in executable comments": (
        lambda n: "CREATE TABLE t (a int) /*!50100 /* c */ " + "/*!x */ y " * n + "*/ ENGINE=InnoDB */;\n"
        + "SELECT 1 /*!99999 /* c " + "*/ /*! " * n + "*/ */;\n", 5000, 1 << 12, "mariadb-10.11", None),
    "a long quote in an executable comment that does not run": (
        lambda n: "CREATE TABLE t (a int) /*!99999 COMMENT '" + "x;" * n + "' */;\n", 200000, 1 << 12, "mariadb-10.11",
        None),
    "nested comment openers in one that does not run": (
        lambda n: "/*!99999 " + "/*" * n + " */ */\nSELECT 1;\n", 8000, 1 << 12, "mysql-8.0", None),
    "executable comments in one statement": (
        lambda n: "CREATE TABLE t (a int" + " /*!50100 , b int */" * n + ");\n", 2000, 1 << 12, "mysql-8.0", None),
    "sql_mode changes": (
        lambda n: "SET sql_mode='ANSI_QUOTES';\nCREATE TABLE \"t\" (a int);\nSET sql_mode=DEFAULT;\n" * n, 400, 1 << 12,
        None, None),
    "unterminated quote": (lambda n: "SELECT 1;\nSELECT 'x" + "a;\n" * n, 200000, 1 << 12, None, None),
    "deep compound block": (
        lambda n: "DELIMITER //\nBEGIN NOT ATOMIC\n" + "IF 1 THEN\n" * n + "CREATE TABLE t (a int);\n" + "END IF;\n" * n
        + "END//\n", 1000, 1 << 12, "mariadb-10.11", None),
    "many statements in a compound block": (
        lambda n: "DELIMITER //\nBEGIN NOT ATOMIC\n" + "CREATE TABLE t (a int); SELECT 1;\n" * n + "END//\n", 400,
        1 << 12, "mariadb-10.11", None),
    "a stored program with many statements": (
        lambda n: "DELIMITER //\nCREATE PROCEDURE p() BEGIN\n" + "IF 1 THEN SELECT 1; END IF;\n" * n + "END//\n", 500,
        1 << 12, None, None),
    "multi-statement packet": (lambda n: "DELIMITER //\n" + "SELECT 1;" * n + "//\n", 1500, 1 << 12, None, None),
    "an open packet held, with commands in it, thrown away": (
        lambda n: "DELIMITER //\n" + f"CREATE TABLE t (a int); {B}u db\nSET sql_mode='ANSI_QUOTES';\n" * n
        + f"{B}c\nSELECT 1//\n", 500, 1 << 12, "mariadb-10.11", None),
    "goose statement block": (
        lambda n: "-- +goose Up\n-- +goose StatementBegin\n" + "SELECT 1;\n" * n + "-- +goose StatementEnd\n", 200000,
        1 << 12, None, "goose"),
    "a tenant dump": (lambda n: _TENANT * n, 2000, 1 << 16, "mysql-8.0", None),
}

_TENANT = """--
-- Current Database: `tenant`
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ `tenant` /*!40100 DEFAULT CHARACTER SET utf8mb4 */ /*!80016 DEFAULT ENCRYPTION='N' */;

USE `tenant`;
DROP TABLE IF EXISTS `a`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
CREATE TABLE `a` (
  `id` int NOT NULL AUTO_INCREMENT,
  `s` varchar(10) DEFAULT 'x;y',
  PRIMARY KEY (`id`)
) /*!50100 TABLESPACE `t` */ ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4;
/*!40101 SET character_set_client = @saved_cs_client */;
LOCK TABLES `a` WRITE;
/*!40000 ALTER TABLE `a` DISABLE KEYS */;
INSERT INTO `a` VALUES (1,'x'),(2,'y');
/*!40000 ALTER TABLE `a` ENABLE KEYS */;
UNLOCK TABLES;
"""


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_ten_times_the_input_costs_at_most_fifteen_times_the_time(name: str) -> None:
    make, n, chunk, target, fmt = GENERATORS[name]
    assert_linear(_splitting(make, chunk, target, fmt), n, what=name)
