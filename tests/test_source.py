"""Finding input files and reading them as text."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from linter.input.source import InputError, discover, iter_chunks, read_statements

from tests.shared import need


def write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


# --- discover ---------------------------------------------------------------------------------


def test_directories_are_walked_recursively_in_sorted_order(tmp_path: Path) -> None:
    write(tmp_path / "b.sql", "SELECT 1;")
    write(tmp_path / "a.SQL", "SELECT 1;")  # the extension in any case
    write(tmp_path / "notes.txt", "not sql")
    write(tmp_path / "sub" / "z.sql", "SELECT 1;")
    write(tmp_path / "sub" / "deeper" / "c.sql", "SELECT 1;")
    write(tmp_path / "a_dir" / "m.sql", "SELECT 1;")
    files, errors = discover([str(tmp_path)])
    assert errors == []
    assert [os.path.relpath(f, tmp_path) for f in files] == [
        "a.SQL",
        "b.sql",
        os.path.join("a_dir", "m.sql"),
        os.path.join("sub", "z.sql"),
        os.path.join("sub", "deeper", "c.sql"),
    ]
    assert discover([str(tmp_path)]) == (files, errors)  # deterministic


def test_an_explicit_file_is_taken_whatever_its_extension(tmp_path: Path) -> None:
    dump = write(tmp_path / "all-dbs.txt", "SELECT 1;")
    schema = write(tmp_path / "schema.mysql", "SELECT 1;")
    assert discover([str(dump), str(schema)]) == ([str(dump), str(schema)], [])


def test_stdin_dash_is_kept(tmp_path: Path) -> None:
    assert discover(["-"]) == (["-"], [])


def test_directory_without_sql_files_is_an_error(tmp_path: Path) -> None:
    write(tmp_path / "readme.md", "# nothing here")
    (tmp_path / "empty").mkdir()
    files, errors = discover([str(tmp_path)])
    assert files == []
    assert len(errors) == 1 and errors[0][0] == str(tmp_path)
    assert errors[0][1].startswith(f"{tmp_path}: no SQL files in this directory")


def test_directory_walk_takes_schema_file_names_and_dump_txt(tmp_path: Path) -> None:
    for name in ("a.sql", "b.sql.in", "c.mysql", "d.dump", "e.ddl", "notes.txt", "readme.md"):
        (tmp_path / name).write_text("CREATE TABLE t (id int);\n")
    (tmp_path / "dump.txt").write_text("-- MySQL dump 10.13  Distrib 5.1\n--\nCREATE TABLE t (id int);\n")
    files, errors = discover([str(tmp_path)])
    assert errors == []
    assert sorted(Path(f).name for f in files) == ["a.sql", "b.sql.in", "c.mysql", "d.dump", "dump.txt", "e.ddl"]


def test_missing_path_is_an_error_and_the_rest_goes_on(tmp_path: Path) -> None:
    good = write(tmp_path / "good.sql", "SELECT 1;")
    missing = str(tmp_path / "missing.sql")
    files, errors = discover([missing, str(good)])
    assert files == [str(good)]
    assert errors == [(missing, f"{missing}: no such file or directory")]


def test_symlink_loops_do_not_hang_or_crash(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root / "a.sql", "SELECT 1;")
    write(root / "sub" / "b.sql", "SELECT 1;")
    (root / "sub" / "back").symlink_to(root, target_is_directory=True)  # a directory loop
    (root / "self.sql").symlink_to(root / "self.sql")  # a link to itself
    files, errors = discover([str(root)])
    assert [os.path.relpath(f, root) for f in files] == ["a.sql", os.path.join("sub", "b.sql")]
    assert errors == [(str(root / "self.sql"), f"{root / 'self.sql'}: symbolic link loop")]
    looped = str(root / "self.sql")
    assert discover([looped]) == ([], [(looped, f"{looped}: symbolic link loop")])


def test_a_file_reached_twice_is_read_once(tmp_path: Path) -> None:
    a = write(tmp_path / "a.sql", "SELECT 1;")
    (tmp_path / "link.sql").symlink_to(a)
    files, errors = discover([str(a), str(tmp_path)])
    assert (files, errors) == ([str(a)], [])


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads everything")
def test_permission_denied(tmp_path: Path) -> None:
    secret = write(tmp_path / "secret.sql", "SELECT 1;")
    secret.chmod(0)
    locked = tmp_path / "locked"
    write(locked / "x.sql", "SELECT 1;")
    locked.chmod(0)
    try:
        files, errors = discover([str(secret), str(locked)])
        assert files == []
        assert (str(secret), f"{secret}: permission denied") in errors
        assert any(message.endswith("permission denied") for _, message in errors if _ != str(secret))
        with pytest.raises(InputError, match="permission denied"):
            iter_chunks(str(secret))
    finally:
        locked.chmod(0o755)
        secret.chmod(0o644)


def test_discover_never_raises_on_odd_paths(tmp_path: Path) -> None:
    files, errors = discover(["", str(tmp_path / "nope" / "deeper.sql"), "\x00bad"])
    assert files == []
    assert len(errors) == 3
    assert all(message.startswith(path) for path, message in errors)


# --- reading ----------------------------------------------------------------------------------


def test_read_errors_start_with_the_path(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.sql")
    with pytest.raises(InputError) as info:
        iter_chunks(missing)
    assert str(info.value) == f"{missing}: no such file or directory"
    with pytest.raises(InputError, match=r": is a directory$"):
        iter_chunks(str(tmp_path))
    with pytest.raises(InputError, match="no such file"):
        list(read_statements(missing))


def test_binary_file_is_refused(tmp_path: Path) -> None:
    blob = write(tmp_path / "dump.sql", b"\x1f\x8b\x08\x00" + bytes(range(256)) * 40)  # gzip-like
    with pytest.raises(InputError) as info:
        list(read_statements(str(blob)))
    assert str(info.value) == f"{blob}: binary file, not SQL"


def test_a_few_nul_bytes_in_text_are_not_binary(tmp_path: Path) -> None:
    path = write(tmp_path / "nul.sql", b"SELECT 1;\x00\nSELECT 2;\n")
    assert [s.text for s in read_statements(str(path))] == ["SELECT 1", "\x00\nSELECT 2"]


def test_latin1_bytes_are_decoded_as_latin1(tmp_path: Path) -> None:
    path = write(tmp_path / "latin1.sql", "CREATE TABLE `café` (`naïve` int); -- é\n".encode("latin-1"))
    (stmt,) = read_statements(str(path))
    assert stmt.text == "CREATE TABLE `café` (`naïve` int)"
    assert stmt.comments == ("é",)


def test_mixed_utf8_and_latin1(tmp_path: Path) -> None:
    path = write(tmp_path / "mixed.sql", "SELECT 'é', '".encode() + b"\xe9\xff" + b"';")
    assert [s.text for s in read_statements(str(path))] == ["SELECT 'é', 'éÿ'"]


def test_utf8_bom_is_stripped_and_columns_count_without_it(tmp_path: Path) -> None:
    path = write(tmp_path / "bom.sql", b"\xef\xbb\xbf  SELECT 1;")
    assert "".join(iter_chunks(str(path))) == "  SELECT 1;"
    (stmt,) = read_statements(str(path))
    assert (stmt.text, stmt.line, stmt.column) == ("SELECT 1", 1, 3)
    assert "".join(iter_chunks(str(path), chunk_size=1)) == "  SELECT 1;"  # a BOM cut across reads


def test_utf16_with_bom(tmp_path: Path) -> None:
    path = write(tmp_path / "ps.sql", "CREATE TABLE t (a int);\r\n".encode("utf-16"))
    assert [s.text for s in read_statements(str(path))] == ["CREATE TABLE t (a int)"]


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 5])
def test_chunk_boundary_inside_a_multibyte_character(tmp_path: Path, chunk_size: int) -> None:
    text = "CREATE TABLE `日本語` (`ü` int COMMENT '€𝄞');\n"
    path = write(tmp_path / "utf8.sql", text)
    chunks = list(iter_chunks(str(path), chunk_size=chunk_size))
    assert "".join(chunks) == text
    assert len(chunks) > 1
    (stmt,) = read_statements(str(path))
    assert stmt.text == text.rstrip(";\n")


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = io.TextIOWrapper(io.BytesIO("SELECT 1;\nSELECT 'é';".encode("latin-1")))
    monkeypatch.setattr(sys, "stdin", fake)
    assert [(s.text, s.path, s.line) for s in read_statements("-")] == [("SELECT 1", "-", 1), ("SELECT 'é'", "-", 2)]


def test_migration_markers_are_passed_through(tmp_path: Path) -> None:
    path = write(tmp_path / "001.sql", "-- +goose Up\nCREATE TABLE a (id int);\n-- +goose Down\nDROP TABLE a;\n")
    assert [s.text for s in read_statements(str(path), migration_format="goose")] == ["CREATE TABLE a (id int)"]
    assert len(list(read_statements(str(path)))) == 2
    assert len(list(read_statements(str(path), migration_format="dbmate"))) == 2  # goose's annotations are not dbmate's


def test_corpus_directory(tmp_path: Path) -> None:
    files, errors = discover([str(need("corpus", "vaultwarden"))])
    assert errors == []
    assert len(files) == 5 and all(f.endswith("up.sql") for f in files)
    assert files == sorted(files)
    stmts = list(read_statements(files[0]))
    assert stmts and all(s.path == files[0] for s in stmts)
