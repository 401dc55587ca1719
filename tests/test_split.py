"""The splitter: statements, positions, comments, client commands, streaming."""

from __future__ import annotations

import itertools
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from linter.input.statement import Statement
from linter.input.split import split_stream

from tests.shared import CORPUS, SHARED, need

SKEEMA = SHARED / "peer-suites" / "skeema-linter"


def chunked(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def split(text: str, *, chunk: int | None = None, fmt: str | None = None) -> list[Statement]:
    chunks = [text] if chunk is None else chunked(text, chunk)
    return list(split_stream(chunks, "f.sql", migration_format=fmt))


def texts(text: str, *, chunk: int | None = None, fmt: str | None = None) -> list[str]:
    return [s.text for s in split(text, chunk=chunk, fmt=fmt)]


def where(text: str, *, chunk: int | None = None, fmt: str | None = None) -> list[tuple[int, int, int]]:
    """(line, column, end_line) of each statement."""
    return [(s.line, s.column, s.end_line) for s in split(text, chunk=chunk, fmt=fmt)]


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


# --- basics -----------------------------------------------------------------------------------


def test_positions_and_text_exclude_delimiter_and_whitespace() -> None:
    src = "  SELECT 1 ;\n\nCREATE TABLE t (\n  a int\n)  ;   \n   DROP TABLE t"
    stmts = split(src)
    assert [s.text for s in stmts] == ["SELECT 1", "CREATE TABLE t (\n  a int\n)", "DROP TABLE t"]
    assert [(s.line, s.column, s.end_line) for s in stmts] == [(1, 3, 1), (3, 1, 5), (6, 4, 6)]
    assert all(s.path == "f.sql" and s.executable is None and s.comments == () for s in stmts)


def test_several_statements_on_one_line() -> None:
    assert where("SELECT 1; SELECT 2;SELECT 3") == [(1, 1, 1), (1, 11, 1), (1, 20, 1)]


def test_empty_statements_and_empty_input() -> None:
    assert texts(";;\n ; SELECT 1;;") == ["SELECT 1"]
    assert texts("") == []
    assert texts("   \n\t\r\n") == []
    assert texts("-- only a comment\n/* and another */") == []


def test_final_statement_without_delimiter() -> None:
    assert where("SELECT 1;\nSELECT\n  2\n\n") == [(1, 1, 1), (2, 1, 3)]
    assert texts("SELECT 1;\nSELECT\n  2\n\n") == ["SELECT 1", "SELECT\n  2"]


# --- quotes -----------------------------------------------------------------------------------


def test_delimiters_inside_quotes_do_not_end_statements() -> None:
    src = "INSERT INTO t VALUES ('a;b', \"c;d\", `e;f`);\nSELECT 2;"
    assert texts(src) == ["INSERT INTO t VALUES ('a;b', \"c;d\", `e;f`)", "SELECT 2"]


def test_backslash_and_doubled_quote_escapes() -> None:
    src = (
        "SELECT 'it\\'s;', 'it''s;', \"say \\\"hi;\\\"\", \"a\"\"b;\", `x``y;`, 'back\\\\';\n"
        "SELECT 'done';"
    )
    stmts = split(src)
    assert [s.text for s in stmts] == [src.split(";\n")[0], "SELECT 'done'"]
    assert where(src) == [(1, 1, 1), (2, 1, 2)]


def test_multiline_string_counts_lines() -> None:
    src = "INSERT INTO t VALUES ('line1\nline2;\nline3');\nSELECT 1;"
    assert where(src) == [(1, 1, 3), (4, 1, 4)]


def test_comment_markers_inside_quotes_are_text() -> None:
    src = "SELECT '-- no', '/* no */', '# no', `/*`;\nSELECT 2;"
    assert texts(src) == ["SELECT '-- no', '/* no */', '# no', `/*`", "SELECT 2"]


# --- comments ---------------------------------------------------------------------------------


def test_delimiters_inside_comments_do_not_end_statements() -> None:
    src = (
        "CREATE TABLE t ( -- a; b\n"
        "  a int, # c; d\n"
        "  b int /* e; f */\n"
        ");\n"
    )
    stmts = split(src)
    assert len(stmts) == 1
    assert stmts[0].text == src.rstrip("\n;")  # comments inside a statement stay in its text
    assert (stmts[0].line, stmts[0].column, stmts[0].end_line) == (1, 1, 4)


def test_dash_dash_needs_whitespace_to_be_a_comment() -> None:
    # `--x` is not a comment (MySQL needs whitespace after --): `1--1` is 1 - (-1)
    assert texts("SELECT 1--1;\nSELECT 2;") == ["SELECT 1--1", "SELECT 2"]
    assert texts("SELECT 5 --x;\nSELECT 2;") == ["SELECT 5 --x", "SELECT 2"]
    # `--` then a tab, a newline or the end of input is a comment
    assert texts("SELECT 1 --\t;\n;SELECT 2;") == ["SELECT 1 --\t;", "SELECT 2"]
    assert texts("SELECT 1;--") == ["SELECT 1"]


def test_dash_decoration_lines_are_comments() -> None:
    # opencart.sql starts with a line of dashes: a comment for every tool that runs it
    src = "-----------------------------------------------------------\n\nCREATE TABLE t (a int);\n"
    stmts = split(src)
    assert [(s.text, s.line) for s in stmts] == [("CREATE TABLE t (a int)", 3)]
    assert stmts[0].comments == ("---------------------------------------------------------",)


def test_leading_comments_of_all_kinds_go_to_comments_not_text() -> None:
    src = (
        "SELECT 0;\n"
        "-- one\n"
        "# two\n"
        "/* three\n   lines */\n"
        "--\n"  # empty comments are not kept
        "CREATE TABLE t (a int);\n"
    )
    stmts = split(src)
    assert stmts[1].text == "CREATE TABLE t (a int)"
    assert stmts[1].comments == ("one", "two", "three\n   lines")
    assert (stmts[1].line, stmts[1].column) == (7, 1)


def test_trailing_comment_on_the_end_line_belongs_to_the_statement() -> None:
    src = (
        "CREATE TABLE a (x int); -- innolint: ignore[no-pk] reason\n"
        "-- about b\n"
        "CREATE TABLE b (x int); /* b trailing */ # and more\n"
        "CREATE TABLE c (x int);\n"
    )
    a, b, c = split(src)
    assert a.comments == ("innolint: ignore[no-pk] reason",)
    assert b.comments == ("about b", "b trailing", "and more")
    assert c.comments == ()


def test_comment_after_delimiter_on_a_later_line_is_leading() -> None:
    src = "SELECT 1; /* starts on line 1\nends on 2 */ -- on line 2\nSELECT 2;"
    one, two = split(src)
    assert one.comments == ("starts on line 1\nends on 2",)
    assert two.comments == ("on line 2",)


def test_comments_after_the_final_statement_are_dropped_unless_trailing() -> None:
    stmts = split("SELECT 1; -- mine\n-- nobody's\n/* nobody's either */\n")
    assert [(s.text, s.comments) for s in stmts] == [("SELECT 1", ("mine",))]


def test_comment_before_the_first_token_is_not_in_text() -> None:
    stmts = split("/* lead */ SELECT 1 /* inner */ ;")
    assert stmts[0].text == "SELECT 1 /* inner */"
    assert stmts[0].comments == ("lead",)
    assert (stmts[0].line, stmts[0].column) == (1, 12)


# --- executable comments ----------------------------------------------------------------------


def test_executable_comment_statement_is_unwrapped_with_positions() -> None:
    src = "/*!40101 SET NAMES utf8 */;\n/*!50001 CREATE TABLE `v` (\n  `a` int\n) ENGINE=MyISAM */;\n"
    one, two = split(src)
    assert (one.text, one.line, one.column, one.end_line, one.executable) == ("SET NAMES utf8", 1, 10, 1, "40101")
    assert two.text == "CREATE TABLE `v` (\n  `a` int\n) ENGINE=MyISAM"
    assert (two.line, two.column, two.end_line, two.executable) == (2, 10, 4, "50001")


def test_executable_comment_space_before_delimiter_and_versions() -> None:
    src = "/*!50003 SET a = 1 */ ;\n/*M!100301 SET b = 2*/;\n/*! SET c = 3 */;\n/*M!SET d=4*/;"
    assert [(s.text, s.column, s.executable) for s in split(src)] == [
        ("SET a = 1", 10, "50003"),
        ("SET b = 2", 12, "M!100301"),
        ("SET c = 3", 5, ""),
        ("SET d=4", 5, "M!"),
    ]


def test_executable_comment_inside_a_statement_is_kept_in_place() -> None:
    src = (
        "CREATE DATABASE /*!32312 IF NOT EXISTS*/ `db` /*!40100 DEFAULT CHARACTER SET latin1 */;\n"
        "CREATE TABLE t (\n"
        "  id int\n"
        ") ENGINE=InnoDB\n"
        "/*!50100 PARTITION BY RANGE (id)\n"
        "(PARTITION p0 VALUES LESS THAN (10) ENGINE = InnoDB) */;\n"
    )
    db, t = split(src)
    # markers become the same number of spaces: the columns of everything else stay right
    assert db.text == "CREATE DATABASE          IF NOT EXISTS   `db`          DEFAULT CHARACTER SET latin1"
    assert db.text.index("`db`") == src.index("`db`") and db.text.index("latin1") == src.index("latin1")
    assert db.executable is None
    assert t.text.endswith(
        ") ENGINE=InnoDB\n         PARTITION BY RANGE (id)\n(PARTITION p0 VALUES LESS THAN (10) ENGINE = InnoDB)"
    )
    assert (t.line, t.column, t.end_line, t.executable) == (2, 1, 6, None)


def test_several_executable_comments_make_no_single_version() -> None:
    # the mysqldump trigger form: one statement spread over three executable comments
    src = (
        "DELIMITER ;;\n"
        "/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`%`*/ /*!50003 TRIGGER `t1` BEFORE INSERT ON `x`\n"
        "FOR EACH ROW BEGIN SET NEW.a = 1; END */;;\n"
        "DELIMITER ;\n"
    )
    (stmt,) = split(src)
    assert stmt.text.startswith("CREATE            DEFINER=`root`@`%`            TRIGGER `t1`")
    assert stmt.text.endswith("SET NEW.a = 1; END")
    assert (stmt.line, stmt.column, stmt.end_line, stmt.executable) == (2, 10, 3, None)


def test_delimiter_inside_executable_comment_ends_the_statement() -> None:
    """The client cuts at its delimiter inside an executable comment; the server gets
    `/*!40101 SET a=1` (the comment unclosed) and `SET b=2 */`, refuses both (1064, checked on
    MariaDB 10.11): neither is a statement, each is reported at its line
    (tests/test_split_exec_delimiter.py asks the server)."""
    stream = split_stream(["/*!40101 SET a=1; SET b=2 */;\n/*!50001 DROP TABLE x*/;\nSELECT /*!99999 1*/ 2;"], "t.sql")
    stmts = list(stream)
    assert [(s.text, s.executable) for s in stmts] == [
        ("DROP TABLE x", "50001"),
        ("SELECT          1   2", None),
    ]
    assert [s.column for s in stmts] == [10, 1]
    assert [(n.line, n.column, n.rule) for n in stream.notes] == [(1, 10, "parse-error"), (1, 19, "parse-error")]
    assert "inside an executable comment" in stream.notes[0].message
    assert "`*/`" in stream.notes[1].message


def test_ordinary_comment_close_inside_executable_comment() -> None:
    """On the line of `/*!`, the client drops a comment with the text up to the second `*/`: the
    server gets `/*!50100 SELECT 1` and refuses it (1064); on a later line the comment is an
    ordinary one (MariaDB 10.11, tests/test_split_exec_delimiter.py)."""
    stream = split_stream(["/*!50100 SELECT 1 /* inner */ + 2 */;\nSELECT 3;\n/*!50100 SELECT 1\n /* b */ + 2 */;"], "t.sql")
    assert [(s.text, s.executable) for s in stream] == [("SELECT 3", None), ("SELECT 1\n /* b */ + 2", "50100")]
    assert [(n.line, n.rule) for n in stream.notes] == [(1, "parse-error")]


# --- DELIMITER --------------------------------------------------------------------------------


PROCEDURE = """\
DELIMITER $$
CREATE PROCEDURE p(IN a INT)
BEGIN
  DECLARE x INT DEFAULT 0; -- a ; in a comment
  SET x = a * 2;
  SELECT x, ';' AS semi;
END$$
DELIMITER ;
SELECT 1;
"""


def test_delimiter_dollars_keeps_procedure_body_whole() -> None:
    proc, sel = split(PROCEDURE)
    assert proc.text == "\n".join(PROCEDURE.splitlines()[1:7])[: -len("$$")]
    assert (proc.line, proc.column, proc.end_line) == (2, 1, 7)
    assert (sel.text, sel.line) == ("SELECT 1", 9)


@pytest.mark.parametrize("delimiter", [";;", "//", "$$", "|", "GO"])
def test_delimiter_variants_and_lowercase_keyword(delimiter: str) -> None:
    src = (
        f"delimiter {delimiter}\n"
        "CREATE TRIGGER t BEFORE INSERT ON x FOR EACH ROW\n"
        "BEGIN\n"
        "  SET NEW.a = 1;\n"
        "  SET NEW.b = 2;\n"
        f"END{delimiter}\n"
        "  Delimiter ;  \n"
        "SELECT 1;\n"
    )
    trig, sel = split(src)
    assert trig.text == "CREATE TRIGGER t BEFORE INSERT ON x FOR EACH ROW\nBEGIN\n  SET NEW.a = 1;\n  SET NEW.b = 2;\nEND"
    assert (trig.line, trig.column, trig.end_line) == (2, 1, 6)
    assert (sel.text, sel.line) == ("SELECT 1", 8)


def test_delimiter_never_reset_still_splits_on_it() -> None:
    src = "DELIMITER //\nCREATE PROCEDURE a() BEGIN SELECT 1; END//\nCREATE PROCEDURE b() BEGIN SELECT 2; END//\n"
    assert texts(src) == ["CREATE PROCEDURE a() BEGIN SELECT 1; END", "CREATE PROCEDURE b() BEGIN SELECT 2; END"]


def test_custom_delimiter_multi_statement_splits_on_semicolons() -> None:
    # the client sends `SET ...; CREATE ...;` as one packet and the server runs each statement:
    # outside a stored-program body, `;` still separates statements (cacti.sql relies on it)
    src = "DELIMITER //\nSET @m = '';\nCREATE TABLE t (a int); -- t\nCREATE TABLE u (b int)//\n"
    stmts = split(src)
    assert [(s.text, s.line, s.column, s.comments) for s in stmts] == [
        ("SET @m = ''", 2, 1, ()),
        ("CREATE TABLE t (a int)", 3, 1, ("t",)),
        ("CREATE TABLE u (b int)", 4, 1, ()),
    ]


def test_trailing_semicolon_before_custom_delimiter_is_dropped() -> None:
    # zoneminder's triggers end with `END;` then `//` on the next line
    src = "delimiter //\nCREATE TRIGGER t AFTER DELETE ON z FOR EACH ROW BEGIN DELETE FROM y; END; \n//\n"
    (trig,) = split(src)
    assert trig.text == "CREATE TRIGGER t AFTER DELETE ON z FOR EACH ROW BEGIN DELETE FROM y; END"
    assert (trig.line, trig.end_line) == (2, 2)


def test_delimiter_line_ends_an_open_statement_and_is_not_emitted() -> None:
    src = "CREATE TABLE t (a int)\nDELIMITER ;;\nSELECT 1;;\n"
    assert where(src) == [(1, 1, 1), (3, 1, 3)]
    assert texts(src) == ["CREATE TABLE t (a int)", "SELECT 1"]


def test_delimiter_keyword_needs_line_start_and_an_argument() -> None:
    assert texts("SELECT 1 DELIMITER //;\nSELECT 2;") == ["SELECT 1 DELIMITER //", "SELECT 2"]
    assert texts("SELECT 'x\nDELIMITER //\n';\nSELECT 2;") == ["SELECT 'x\nDELIMITER //\n'", "SELECT 2"]
    assert texts("DELIMITER \nSELECT 2;") == ["DELIMITER \nSELECT 2"]  # left for the parser to report


def test_delimiter_at_file_start_after_bom() -> None:
    assert texts("\ufeffDELIMITER $$\nSELECT 1$$") == ["SELECT 1"]


# --- line ends, BOM, junk, unterminated -------------------------------------------------------


def test_crlf_line_ends() -> None:
    src = "-- c\r\nCREATE TABLE t (\r\n  a int\r\n);\r\nDELIMITER ;;\r\nSELECT 1;;\r\nDELIMITER ;\r\nSELECT 2;\r\n"
    stmts = split(src)
    assert [s.text for s in stmts] == ["CREATE TABLE t (\r\n  a int\r\n)", "SELECT 1", "SELECT 2"]
    assert [(s.line, s.column, s.end_line) for s in stmts] == [(2, 1, 4), (6, 1, 6), (8, 1, 8)]
    assert stmts[0].comments == ("c",)


def test_bom_is_skipped_and_not_counted_as_a_column() -> None:
    assert where("\ufeffSELECT 1;\n  SELECT 2;") == [(1, 1, 1), (2, 3, 2)]
    assert texts("\ufeffSELECT 1;") == ["SELECT 1"]
    assert where("\ufeff", chunk=1) == []
    assert where("\ufeff  SELECT 1;", chunk=1) == [(1, 3, 1)]


def test_latin1_text_and_nul_bytes_do_not_crash() -> None:
    src = "CREATE TABLE `caf\xe9` (`na\xefve` int);\x00\x00\nSELECT '\x00;';\n\x00"
    stmts = split(src)
    assert [s.text for s in stmts] == ["CREATE TABLE `caf\xe9` (`na\xefve` int)", "\x00\x00\nSELECT '\x00;'", "\x00"]
    assert [(s.line, s.column) for s in stmts] == [(1, 1), (1, 35), (3, 1)]


def test_unterminated_quote_at_eof_is_emitted() -> None:
    assert texts("SELECT 1;\nSELECT 'abc;\nDROP TABLE x;\n") == ["SELECT 1", "SELECT 'abc;\nDROP TABLE x;"]
    assert texts("SELECT `abc;") == ["SELECT `abc;"]
    assert texts('SELECT "abc\\') == ['SELECT "abc\\']


def test_unterminated_block_comment_at_eof_is_emitted() -> None:
    stmts = split("SELECT 1;\n  /* forgot to close\nCREATE TABLE t (a int);\n")
    assert [(s.text, s.line, s.column) for s in stmts] == [
        ("SELECT 1", 1, 1),
        ("/* forgot to close\nCREATE TABLE t (a int);", 2, 3),
    ]
    # inside a statement the client drops it and sends what is before it (MariaDB 10.11,
    # tests/test_split_exec_delimiter.py); a migration tool sends it all
    stream = split_stream(["SELECT 1 /* open"], "t.sql")
    assert [s.text for s in stream] == ["SELECT 1"] and [n.rule for n in stream.notes] == ["parse-error"]
    assert texts("SELECT 1 /* open", fmt="flyway") == ["SELECT 1 /* open"]


def test_unterminated_executable_comment_at_eof() -> None:
    """MariaDB 10.11 refuses a statement whose executable comment is still open at its end (1064,
    run or skipped: tests/test_split_exec_delimiter.py), while a plain comment left open is dropped
    by the client and what comes before it runs."""
    for text in ("/*!40101 SET x = 1", "CREATE TABLE t (a int) /*!50100 ENGINE=InnoDB\n", "CREATE TABLE t (a int) /*!99999 x"):
        stream = split_stream([text], "t.sql")
        assert list(stream) == [] and [(n.line, n.rule) for n in stream.notes] == [(1, "parse-error")], text
        assert "not closed" in stream.notes[0].message


def test_junk_never_crashes() -> None:
    junk = "\x00\x01\x02 ;;; ''' \"\" `` /*/ */ -- \n # \\ \\' /*!*/ /*M!*/ DELIMITER\nDELIMITER  \n*/ ---- \r\r\n\ufeff"
    for size in (None, 1, 3):
        assert isinstance(split(junk, chunk=size), list)


# --- migration markers ------------------------------------------------------------------------


GOOSE = """\
-- +goose Up
-- +goose NO TRANSACTION
CREATE TABLE a (id int);
-- +goose StatementBegin
CREATE PROCEDURE p()
BEGIN
  SELECT 1;
  SELECT 2;
END;
-- +goose StatementEnd
CREATE TABLE b (id int); -- trailing

-- +goose Down
DROP TABLE a;
-- +goose StatementBegin
DROP PROCEDURE p;
-- +goose StatementEnd
"""


def test_goose_markers() -> None:
    stmts = split(GOOSE, fmt="goose")
    assert [s.text for s in stmts] == [
        "CREATE TABLE a (id int)",
        "CREATE PROCEDURE p()\nBEGIN\n  SELECT 1;\n  SELECT 2;\nEND",
        "CREATE TABLE b (id int)",
    ]
    assert [(s.line, s.column, s.end_line) for s in stmts] == [(3, 1, 3), (5, 1, 9), (11, 1, 11)]
    assert [s.comments for s in stmts] == [(), (), ("trailing",)]


def test_goose_markers_are_plain_comments_without_the_option() -> None:
    stmts = split(GOOSE)
    assert [s.text for s in stmts][:2] == ["CREATE TABLE a (id int)", "CREATE PROCEDURE p()\nBEGIN\n  SELECT 1"]
    assert stmts[0].comments == ("+goose Up", "+goose NO TRANSACTION")
    assert "DROP TABLE a" in [s.text for s in stmts]


def test_goose_statement_block_without_final_semicolon() -> None:
    src = "-- +goose Up\n-- +goose StatementBegin\nSELECT 1; SELECT 2\n-- +goose StatementEnd\nSELECT 3;"
    assert texts(src, fmt="goose") == ["SELECT 1; SELECT 2", "SELECT 3"]


def test_dbmate_markers() -> None:
    src = "-- migrate:up\nCREATE TABLE a (id int);\nCREATE TABLE b (id int)\n\n-- migrate:down transaction:false\nDROP TABLE a;\n"
    stmts = split(src, fmt="dbmate")
    # a statement left open by a missing `;` ends where the next section starts
    assert [(s.text, s.line) for s in stmts] == [("CREATE TABLE a (id int)", 2), ("CREATE TABLE b (id int)", 3)]


def test_down_section_comments_do_not_leak_into_up() -> None:
    src = "-- migrate:down\n-- down note\nDROP TABLE a;\n-- migrate:up\n-- up note\nCREATE TABLE a (id int);\n"
    (stmt,) = split(src, fmt="dbmate")
    assert (stmt.text, stmt.comments) == ("CREATE TABLE a (id int)", ("up note",))


# --- streaming --------------------------------------------------------------------------------


TRICKY = [
    PROCEDURE,
    GOOSE,
    "SELECT 'a;b', \"c\\\";d\", `e;f`; -- t; x\n# h; y\n/* b; z */ SELECT 1--1;\nSELECT 'x''y;', '\\\\';",
    "/*!40101 SET a=1 */;\n/*!50001 CREATE TABLE `v` (\n  `a` int\n) ENGINE=MyISAM */;\n/*M!100301 SET b=2*/ ;",
    "DELIMITER ;;\n/*!50003 CREATE*/ /*!50003 TRIGGER t BEFORE INSERT ON x FOR EACH ROW BEGIN SET a=1; END */;;\n"
    "DELIMITER ;\nDELIMITER //\nSET @x = 1;\nCREATE TABLE t (a int)//\nDELIMITER $$\nSELECT 1$$",
    "\ufeff-- c\r\nCREATE TABLE t (\r\n  a int -- c\r\n);\r\n----------\r\nSELECT 1; /* same line */\r\n",
    "CREATE TABLE x (a int) /*!50100 PARTITION BY HASH (a) PARTITIONS 4 */;\nSELECT '\x00\xe9';  /* unterminated",
    "CREATE TABLE t (a int)\n  DELIMITER  ;;  \nSELECT 1;;\ndelimiter ;\n-- +goose Down\nSELECT 'open",
]


@pytest.mark.parametrize("index", range(len(TRICKY)))
@pytest.mark.parametrize("size", [1, 2, 3, 7, 64])
def test_chunk_boundaries_anywhere_give_the_same_statements(index: int, size: int) -> None:
    src = TRICKY[index]
    for fmt in (None, "goose", "dbmate"):
        assert split(src, chunk=size, fmt=fmt) == split(src, fmt=fmt)


def test_statements_are_yielded_before_the_input_ends() -> None:
    def endless() -> Iterator[str]:
        for i in itertools.count():
            yield f"INSERT INTO t VALUES ({i}, 'x;y');\n"

    first = list(itertools.islice(split_stream(endless(), "inf.sql"), 3))
    assert [s.text for s in first] == [f"INSERT INTO t VALUES ({i}, 'x;y')" for i in range(3)]
    assert [s.line for s in first] == [1, 2, 3]


def test_memory_does_not_grow_with_the_input() -> None:
    row = "INSERT INTO t VALUES (1, '" + "some text; with a semicolon " * 70 + "', `x`); -- note\n"
    chunk = row * 32  # ~64 KB
    n_chunks = 200  # ~13 MB in all

    tracemalloc.start()
    try:
        count = 0
        for _ in split_stream(itertools.repeat(chunk, n_chunks), "big.sql"):
            count += 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 32 * n_chunks
    assert peak < 1_000_000  # a few chunks' worth, not the 13 MB read


def test_one_huge_statement_is_kept_whole() -> None:
    body = "('" + "x" * 1000 + "'),\n"
    chunks = ["INSERT INTO t VALUES\n", *itertools.repeat(body, 500), "(1);\nSELECT 2;"]
    stmts = list(split_stream(chunks, "f.sql"))
    assert [(s.line, s.end_line) for s in stmts] == [(1, 502), (503, 503)]
    assert len(stmts[0].text) == len("INSERT INTO t VALUES\n") + 500 * len(body) + len("(1)")


# --- the corpus -------------------------------------------------------------------------------


def corpus_files() -> list[Path]:
    files = [p for p in sorted(CORPUS.rglob("*")) if p.is_file() and p.suffix != ".py"]
    files += [p for p in sorted(SKEEMA.rglob("*.sql")) if p.is_file()]
    return files


def test_corpus_is_there() -> None:
    need("corpus")
    need("peer-suites", "skeema-linter")
    assert len(corpus_files()) > 50


@pytest.mark.parametrize("path", corpus_files() or [pytest.param(None, marks=pytest.mark.needs_shared("corpus"))],
                         ids=lambda p: str(p.relative_to(SHARED)) if p else "corpus")
def test_every_corpus_file_splits_the_same_in_any_chunking(path: Path) -> None:
    src = read(path)
    whole = list(split_stream([src], str(path)))
    assert list(split_stream(chunked(src, 4093), str(path))) == whole
    assert list(split_stream(chunked(src, 61), str(path))) == whole
    for stmt in whole:
        assert stmt.text and stmt.text == stmt.text.strip(" \t\n\r\f\v")
        assert 1 <= stmt.line <= stmt.end_line and stmt.column >= 1


def test_cacti_delimiter_never_reset() -> None:
    stmts = list(split_stream([read(need("corpus", "cacti", "cacti.sql"))], "cacti.sql"))
    creates = [s for s in stmts if s.text.startswith("CREATE TABLE")]
    assert len(creates) == 117  # every table, though `DELIMITER //` (line 28) is never reset
    first = stmts[0]
    assert (first.text, first.line, first.column) == ('SET @sqlmode= ""', 30, 1)
    assert first.comments[-1] == "Allow MySQL to handle Cacti's legacy syntax"
    agt = creates[0]
    assert agt.text.startswith("CREATE TABLE `aggregate_graph_templates` (")
    assert (agt.line, agt.end_line) == (37, 54)
    assert agt.comments == ("Table structure for table `aggregate_graph_templates`",)
    last = stmts[-1]
    assert (last.text, last.line) == ("INSERT INTO version VALUES ('new_install')", 3265)


def test_sakila_mysqldump_view_stand_ins_are_executable() -> None:
    stmts = list(split_stream([read(need("corpus", "sakila_mysqldump", "all-dbs.txt"))], "all-dbs.txt"))
    stand_ins = [s for s in stmts if s.text.startswith("CREATE TABLE") and s.executable == "50001"]
    assert [(s.text.split("`")[1], s.line, s.column) for s in stand_ins] == [
        ("actor_info", 513, 10),
        ("customer_list", 641, 10),
        ("film_list", 787, 10),
        ("nicer_but_slower_film_list", 858, 10),
        ("sales_by_film_category", 961, 10),
        ("sales_by_store", 975, 10),
        ("staff_list", 1017, 10),
    ]
    assert stand_ins[0].text.endswith(") ENGINE=MyISAM")
    assert stand_ins[0].end_line == 518
    # line 22: CREATE DATABASE /*!32312 IF NOT EXISTS*/ `mysql` /*!40100 DEFAULT CHARACTER SET latin1 */;
    create_db = next(s for s in stmts if s.line == 22)
    assert create_db.text == "CREATE DATABASE          IF NOT EXISTS   `mysql`          DEFAULT CHARACTER SET latin1"
    assert create_db.executable is None
    # the triggers (DELIMITER ;; around three executable comments) stay whole
    triggers = [s for s in stmts if s.text.startswith("CREATE ") and " TRIGGER " in s.text]
    assert [s.line for s in triggers] == [625, 692, 710, 734, 903, 945]
    assert all(s.text.startswith("CREATE            DEFINER=`msandbox`@`%`            TRIGGER") for s in triggers)
    assert all(s.text.endswith("END") and s.text.count(";") >= 1 for s in triggers[1:4])  # BEGIN ...; END bodies
    assert triggers[0].text.endswith("FOR EACH ROW SET NEW.create_date = NOW()")


def test_zoneminder_triggers_kept_whole() -> None:
    stmts = list(split_stream([read(need("corpus", "zoneminder", "triggers.sql"))], "triggers.sql"))
    triggers = [s for s in stmts if s.text.startswith("CREATE TRIGGER")]
    assert len(triggers) == 12
    upd = next(s for s in triggers if s.text.startswith("CREATE TRIGGER Events_Hour_update_trigger"))
    assert (upd.line, upd.end_line) == (15, 29)
    assert upd.text.count(";") == 7 and upd.text.endswith("END IF;\n    END IF;\n  END")
    # the commented-out insert trigger (in a /* */ comment) is a comment, not a statement
    assert not any(s.text.startswith("CREATE TRIGGER event_insert_trigger") for s in stmts)
    drops = [s.text for s in stmts if s.text.lower().startswith("drop")]
    assert "drop procedure if exists update_storage_stats" in drops


def test_freeradius_procedure_with_dollar_delimiter() -> None:
    stmts = list(split_stream([read(need("corpus", "freeradius", "procedure.sql"))], "procedure.sql"))
    drop = next(s for s in stmts if s.text.startswith("DROP PROCEDURE"))
    assert (drop.text, drop.line) == ("DROP PROCEDURE IF EXISTS fr_ippool_allocate_previous_or_new_address", 33)
    procs = [s for s in stmts if s.text.startswith("CREATE PROCEDURE")]
    assert len(procs) == 1
    assert (procs[0].line, procs[0].end_line) == (34, 142)
    assert procs[0].text.endswith("SELECT r_address;\n\nEND")


def test_skeema_routines_and_offsets() -> None:
    routines = list(split_stream([read(need("peer-suites", "skeema-linter", "routines", "routines.sql"))], "routines.sql"))
    assert [(s.text.split("(")[0], s.line, s.end_line) for s in routines] == [
        ("CREATE DEFINER=`root`@`127.0.0.1` FUNCTION `func1`", 7, 11),
        ("CREATE DEFINER=`nobody`@`localhost` PROCEDURE `proc1`", 13, 17),
    ]
    assert routines[0].comments[0].startswith("Intentionally no annotation comments below")
    assert routines[0].text.endswith("BEGIN\n\treturn a * b;\nEND")
    offsets = list(split_stream([read(need("peer-suites", "skeema-linter", "offsets.sql"))], "offsets.sql"))
    assert [(s.line, s.column, s.end_line) for s in offsets] == [(1, 1, 9)]
