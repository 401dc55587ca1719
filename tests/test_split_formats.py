"""Migration annotations belong to their format: goose's in goose files, dbmate's in dbmate files,
none in a Flyway directory or a plain file (a comment that looks like another tool's annotation
is only a comment there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.splitting import replay, texts

GOOSE_DOWN = "-- +goose Down\n"
DBMATE_DOWN = "-- migrate:down\n"
BODY = "CREATE TABLE kept_{n} (id INT PRIMARY KEY);\n"


@pytest.mark.parametrize(("fmt", "marker", "obeyed"), [
    ("goose", GOOSE_DOWN, True), ("goose", DBMATE_DOWN, False), ("dbmate", DBMATE_DOWN, True),
    ("dbmate", GOOSE_DOWN, False), ("flyway", DBMATE_DOWN, False), ("flyway", GOOSE_DOWN, False),
    ("golang-migrate", DBMATE_DOWN, False), ("timestamp", GOOSE_DOWN, False), (None, DBMATE_DOWN, False),
    (None, "-- migrate:down transaction:false\n", False), ("dbmate", "--   MIGRATE:DOWN  \n", True),
])
def test_a_down_annotation_is_obeyed_only_in_its_format(fmt: str | None, marker: str, obeyed: bool) -> None:
    text = BODY.format(n=1) + marker + BODY.format(n=2)
    expected = ["CREATE TABLE kept_1 (id INT PRIMARY KEY)"]
    if not obeyed:
        expected.append("CREATE TABLE kept_2 (id INT PRIMARY KEY)")
    assert texts(text, fmt=fmt) == expected


@pytest.mark.parametrize("fmt", ["flyway", "dbmate", None])
def test_goose_statement_blocks_only_in_goose_files(fmt: str | None) -> None:
    text = "-- +goose StatementBegin\nCREATE TABLE a (id INT); CREATE TABLE b (id INT);\n-- +goose StatementEnd\n"
    assert texts(text, fmt=fmt) == ["CREATE TABLE a (id INT)", "CREATE TABLE b (id INT)"]
    assert texts(text, fmt="goose") == ["CREATE TABLE a (id INT); CREATE TABLE b (id INT)"]



BLOCK = "-- +goose StatementBegin\nCREATE TABLE {a} (id INT); CREATE TABLE {b} (id INT);\n-- +goose StatementEnd\n"


@pytest.mark.parametrize("between", ["", "\n", "-- a comment\n", "\n\n-- +goose Up\n"])
@pytest.mark.parametrize("blocks", [2, 3])
def test_every_goose_block_is_one_statement_after_another_block(between: str, blocks: int) -> None:
    """A block right after a block is one statement too: the scanner once kept the last
    statement's packet number where it kept whether a `;` ends a statement, so the block after a
    block was cut at each `;` (issue 33)."""
    text = between.join(BLOCK.format(a=f"a{i}", b=f"b{i}") for i in range(blocks))
    assert texts(text, fmt="goose") == [f"CREATE TABLE a{i} (id INT); CREATE TABLE b{i} (id INT)"
                                        for i in range(blocks)]
    # and one left open at the end: the server takes its last `;` as the end of the statement
    opened = text + "-- +goose StatementBegin\nCREATE TABLE c (id INT); CREATE TABLE d (id INT);\n"
    assert texts(opened, fmt="goose")[-1] == "CREATE TABLE c (id INT); CREATE TABLE d (id INT)"

def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_flyway_directory_keeps_the_statements_after_a_dbmate_like_comment(tmp_path: Path) -> None:
    files = [
        write(tmp_path / "db" / "V1__init.sql", "CREATE TABLE a (id INT PRIMARY KEY);\n-- migrate:down is not ours\n"
              "CREATE TABLE b (id INT PRIMARY KEY);\n"),
        write(tmp_path / "db" / "V2__more.sql", "-- +goose Down\nCREATE TABLE c (id INT PRIMARY KEY);\n"),
    ]
    tables, _ = replay(files)
    assert tables == {"a", "b", "c"}


def test_goose_and_dbmate_directories_obey_their_own_annotations_only(tmp_path: Path) -> None:
    goose = [write(tmp_path / "g" / "001_init.sql", "-- +goose Up\nCREATE TABLE a (id INT PRIMARY KEY);\n"
                   "-- migrate:down\nCREATE TABLE b (id INT PRIMARY KEY);\n-- +goose Down\nDROP TABLE a;\n")]
    dbmate = [write(tmp_path / "d" / "20240101000000_init.sql", "-- migrate:up\nCREATE TABLE c (id INT PRIMARY KEY);\n"
                    "-- +goose Down\nCREATE TABLE d (id INT PRIMARY KEY);\n-- migrate:down\nDROP TABLE c;\n")]
    assert replay(goose)[0] == {"a", "b"}
    assert replay(dbmate)[0] == {"c", "d"}
