"""The storage-layout checks on the real corpus (../shared/corpus), against LABELS.json.

- compression-candidate never flags a table without a large column, nor one compressed already
  (labels: big_text_cols, compression, row_format);
- the tablespace and compression options of the skeema fixtures are read into the model as written;
- no file of the corpus is a schema-per-tenant layout, so the tablespace rules stay silent there.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from linter.schema.content import DEFAULT_MIN_VARCHAR_LENGTH, candidates, table_compression
from linter.rules.checkapi import CheckContext
from linter.engine import Engine, Unit, UnitResult
from linter.schema.target import Target
from tests.shared import CORPUS, need

RULE = "compression-candidate"
LABELS: dict[str, dict[str, dict[str, object]]] = json.loads(
    need("corpus", "LABELS.json").read_text(encoding="utf-8"))  # the whole module reads the corpus
TARGETS = ("mysql-8.0", "percona-8.0", "mariadb-10.11")


@lru_cache(maxsize=None)
def lint(path: str, target: str) -> UnitResult:
    return Engine(CheckContext(target=Target.parse(target))).lint_unit(Unit([str(CORPUS / path)]))


@pytest.mark.parametrize("target", TARGETS)
def test_no_candidate_without_a_large_column_or_with_compression(target: str) -> None:
    flagged = 0
    for path, tables in LABELS.items():
        result = lint(path, target)
        for finding in (f for f in result.findings if f.rule == RULE):
            flagged += 1
            label = tables.get(finding.table or "")
            assert label is not None, (path, finding.table)
            assert not label["compression"], (path, finding.table, label["compression"])
            assert str(label.get("row_format") or "").upper() != "COMPRESSED", (path, finding.table)
            if label["big_text_cols"]:
                continue
            # The labels list TEXT/BLOB/JSON columns only; a VARCHAR of DEFAULT_MIN_VARCHAR_LENGTH or more
            # counts as large here too (powerdns: records.content and domains.options are VARCHAR(64000)).
            table = result.model.find_table(finding.schema, finding.table or "")
            assert table is not None
            found = candidates(table) or []
            assert found and all(c.column.type == "VARCHAR" and (c.column.length or 0) >= DEFAULT_MIN_VARCHAR_LENGTH
                                 for c in found), (path, finding.table)
    assert flagged > 150  # the corpus has ~440 tables with large columns; without stats the likely payoffs


def test_every_labelled_compressed_table_is_compressed_in_the_model() -> None:
    compressed = [(path, name) for path, tables in LABELS.items() for name, label in tables.items() if label["compression"]]
    assert len(compressed) == 6
    for path, name in compressed:
        model = lint(path, "mysql-8.0").model
        [table] = [t for t in model.tables() if t.name == name]
        by_column = any(c.compressed for c in table.columns.values())
        assert table_compression(table.options) is not None or by_column, (path, name)
        assert candidates(table) is None


def test_skeema_fixture_options_are_read_as_written() -> None:
    def table(fixture: str, name: str):  # type: ignore[no-untyped-def]
        found = lint(f"skeema_testdata/{fixture}.sql", "mysql-8.0").model.find_table("testing", name) or \
            lint(f"skeema_testdata/{fixture}.sql", "mysql-8.0").model.find_table(None, name)
        assert found is not None, (fixture, name)
        return found

    assert table("compressed", "innoblock").options.key_block_size == 2
    assert table("compressed", "innoblockdefault").options.row_format == "COMPRESSED"
    assert table("pagecompression", "actor_in_film_comp").options.compression == "zlib"
    assert table("pagecompression-maria", "actor_in_film_comp").options.page_compressed
    maria = table("colcompression-maria", "colcompr").column("body")
    assert (maria.compressed, maria.charset) == ("zlib", "utf8mb4")
    percona = table("colcompression-percona", "colcompr").column("body")
    assert (percona.compressed, percona.charset) == ("zlib", "utf8mb4")
    assert table("inno-tablespace", "explicit_tablespace_fpt").options.tablespace == "innodb_file_per_table"
    assert table("inno-tablespace", "explicit_tablespace_sys").options.tablespace == "innodb_system"


@pytest.mark.parametrize("target", TARGETS)
def test_no_tenant_layout_in_the_corpus(target: str) -> None:
    rules = {"tenant-tablespace", "cross-tenant-tablespace", "undefined-tablespace"}
    for path in LABELS:
        assert [f for f in lint(path, target).findings if f.rule in rules] == [], path
