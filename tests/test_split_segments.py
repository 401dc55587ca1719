"""Segments: parts of a file a migration tool reads on its own (linter.input.statement.Segment), and the
readings that make them (Liquibase formatted SQL and changelogs, Atlas's delimiter directive):
what is open ends at a segment, each segment is split as it says, and the result does not depend
on where chunk boundaries fall; reading stays linear."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linter.input.migrations.formats import atlas
from linter.input.migrations.formats.liquibase import walker as liquibase
from linter.input.statement import Note, Segment
from linter.input.split import split_stream
from tests.complexity import assert_linear


def split(chunks: list[object], fmt: str | None = "prisma") -> tuple[list[tuple[int, int, str]], list[Note]]:
    stream = split_stream(chunks, "x.sql", migration_format=fmt)  # type: ignore[arg-type]
    return [(s.line, s.column, s.text) for s in stream], stream.notes


def test_a_segment_ends_what_is_open_and_splits_as_it_says() -> None:
    found, notes = split([
        Segment(), "CREATE TABLE a (id INT);\nCREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END;\nALTER TABLE a ADD x INT\n",
        Segment("whole"), "CREATE TABLE b (id INT); \n",
        Segment("delimiter", "//"), "CREATE TABLE c (x INT)//\nCREATE TABLE 'unclosed\n",
        Note(9, 1, "a note of the reading"), Segment(), "CREATE TABLE e (i INT)\n"])
    assert found == [(1, 1, "CREATE TABLE a (id INT)"), (2, 1, "CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END"),
                     (3, 1, "ALTER TABLE a ADD x INT"), (4, 1, "CREATE TABLE b (id INT)"), (5, 1, "CREATE TABLE c (x INT)"),
                     (6, 1, "CREATE TABLE 'unclosed"), (7, 1, "CREATE TABLE e (i INT)")]
    assert [(n.line, n.message.split(":")[0]) for n in notes] == [(9, "a note of the reading"), (6, "string (') not closed")]
    assert "rest of the changeset" in notes[1].message


def test_a_bad_segment_is_refused() -> None:
    with pytest.raises(ValueError):
        split([Segment("delimiter", "")])
    with pytest.raises(ValueError):
        split([Segment("sideways")])


def _chunked(text: str, rng: random.Random) -> list[str]:
    cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randint(0, 40)))) if len(text) > 1 else []
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]


FORMATTED = (
    "--liquibase formatted sql\n--property name:t value:orders\n\n"
    "--changeset a:1 endDelimiter:$$\nCREATE TABLE ${t} (id INT PRIMARY KEY)$$\nCREATE PROCEDURE p() BEGIN SELECT ';'; END$$\n"
    "--rollback DROP TABLE ${t};\n/* liquibase rollback\nDROP PROCEDURE p;\n*/\n"
    "--changeset b:2 splitStatements:false\n--comment: a trigger\n"
    "CREATE TRIGGER tr BEFORE INSERT ON orders FOR EACH ROW BEGIN SET NEW.id = 1; END;\n"
    "-- changeset c:3 dbms:postgresql\nCREATE TABLE pg (id SERIAL);\n"
    "--changeset d:4\nALTER TABLE orders ADD COLUMN note TEXT; -- a comment\nCREATE INDEX ix ON orders (id);\n"
    "--ignoreLines:start\nnot sql\n--ignoreLines:end\n"
)


@pytest.mark.parametrize("seed", range(40))
def test_formatted_sql_reads_the_same_whatever_the_chunks(seed: int) -> None:
    def read(chunks: list[str]) -> tuple[list[tuple[int, int, str]], list[Note]]:
        stream = split_stream(liquibase.read_chunks(chunks, "x.sql"), "x.sql", migration_format=None)
        return [(s.line, s.column, s.text) for s in stream], stream.notes

    whole = read([FORMATTED])
    assert [line for line, _, _ in whole[0]] == [5, 6, 13, 17, 18]
    assert read(_chunked(FORMATTED, random.Random(seed))) == whole


@pytest.mark.parametrize("seed", range(20))
def test_the_atlas_directive_reads_the_same_whatever_the_chunks(seed: int) -> None:
    text = "-- atlas:delimiter -- end\n\nCREATE TABLE t (id INT PRIMARY KEY);\n-- end\nALTER TABLE t ADD n INT;\n-- end\n"

    def read(chunks: list[str]) -> list[tuple[int, str]]:
        return [(s.line, s.text) for s in split_stream(atlas.read_chunks(chunks, "1.sql"), "1.sql", migration_format=None)]

    assert read([text]) == [(3, "CREATE TABLE t (id INT PRIMARY KEY)"), (5, "ALTER TABLE t ADD n INT")]
    assert read(_chunked(text, random.Random(seed))) == read([text])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    "--liquibase formatted sql\n", "--changeset a:1\n", "--changeset a:2 splitStatements:false\n",
    "--changeset a:3 endDelimiter://\n", "--changeset\n", "--rollback x;\n", "/* liquibase rollback\n", "*/\n",
    "--ignoreLines:start\n", "--ignoreLines:end\n", "--ignoreLines:2\n", "--ignoreLines:bad\n", "${p}", "'", '"', "`",
    "CREATE TABLE t (id INT);\n", "BEGIN SELECT 1; END;\n", "//\n", "/*", "--preconditions onFail:MARK_RAN\n",
    "--property name:p value:v\n", "\r\n", "\n", "x" * 70, "-- changeset b:9 dbms:mysql\n",
]), max_size=40))
def test_formatted_sql_reading_never_raises(pieces: list[str]) -> None:
    text = "".join(pieces)
    stream = split_stream(liquibase.read_chunks([text], "x.sql"), "x.sql", migration_format=None)
    lines = text.count("\n") + 1
    for statement in stream:
        assert 1 <= statement.line <= lines
    for note in stream.notes:
        assert 1 <= note.line <= lines


def test_reading_changesets_is_linear() -> None:
    def make(n: int) -> Callable[[], object]:
        text = "--liquibase formatted sql\n" + "".join(
            f"--changeset a:{i} endDelimiter://\nCREATE TABLE t{i} (id INT PRIMARY KEY)//\n--rollback x;\n"
            f"--changeset a:{i}b\nALTER TABLE t{i} ADD c INT; ALTER TABLE t{i} ADD d INT\n" for i in range(n))
        return lambda: list(split_stream(liquibase.read_chunks([text], "x.sql"), "x.sql", migration_format=None))

    assert_linear(make, 120, what="liquibase changesets")
