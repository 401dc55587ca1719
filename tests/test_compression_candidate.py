"""compression-candidate: which tables, ranked how, with which fix for which server, and how a
column's full definition is written back for MODIFY COLUMN."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from checks.compression_candidate import CompressionCandidate
from linter.schema.content import candidates, classified
from linter.rules.options import parse_size
from linter.rules.column_sql import column_definition
from linter.parse import ops
from linter.rules.checkapi import CheckContext, TableStats
from linter.rules.findings import Finding
from linter.parse.elements import Column, Location
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from linter.schema.model import Table
from linter.schema.target import Target
from tests.helpers import findings, lint_sql
from tests.shared import need

RULE = "compression-candidate"

ORDER_EVENT = """CREATE DATABASE shop;
CREATE TABLE shop.order_event (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  payload JSON NOT NULL,
  body MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL DEFAULT ('') COMMENT 'it''s a \\\\ body',
  note TEXT,
  created_at DATETIME NOT NULL
) ENGINE=InnoDB;
"""


def only(sql: str, tmp_path: Path, **kwargs: Any) -> Finding | None:
    report = lint_sql(sql, tmp_path, **kwargs)
    assert not [d for d in report.diagnostics if d.rule == "parse-error"], report.diagnostics
    found = findings(report, RULE)
    assert len(found) <= 1, found
    return found[0] if found else None


# --- the fix per target --------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["mysql-5.7", "mysql-8.0", "mysql-8.4"])
def test_mysql_gets_page_compression_with_the_sparse_file_caveat(tmp_path: Path, target: str) -> None:
    finding = only(ORDER_EVENT, tmp_path, target=target)
    assert finding is not None
    assert (finding.severity, finding.table, finding.line) == ("info", "order_event", 4)  # the first column at fault
    assert finding.message.startswith(
        "order_event: large columns with no compression: payload (JSON: high, JSON documents), body (MEDIUMTEXT: "
        "high, named like documents (body)), note (TEXT: low, text of unknown length)."
    )
    assert "sparse files" in finding.message and "52 minutes" in finding.message and "8.4 to 3.9 GB" in finding.message
    assert finding.fix == "\n".join([
        "ALTER TABLE `shop`.`order_event` COMPRESSION='zlib';",
        "OPTIMIZE TABLE `shop`.`order_event`;  -- rewrites the existing pages compressed",
        "-- or, without sparse files: ALTER TABLE `shop`.`order_event` ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;",
    ])


def test_percona_gets_column_compression_with_a_dictionary(tmp_path: Path) -> None:
    finding = only(ORDER_EVENT, tmp_path, target="percona-8.0")
    assert finding is not None
    assert "compression dictionary" in finding.message and "0.57 with 2 KB" in finding.message
    assert finding.fix == "\n".join([
        "SET SESSION group_concat_max_len = 2048;  -- a 2 KB dictionary per column",
        "SET @dict_1 = (SELECT GROUP_CONCAT(`payload` SEPARATOR '') FROM (SELECT `payload` FROM `shop`.`order_event` "
        "WHERE `payload` IS NOT NULL LIMIT 100) AS sample);",
        "CREATE COMPRESSION_DICTIONARY `order_event_payload` (@dict_1);",
        "SET @dict_2 = (SELECT GROUP_CONCAT(`body` SEPARATOR '') FROM (SELECT `body` FROM `shop`.`order_event` "
        "WHERE `body` IS NOT NULL LIMIT 100) AS sample);",
        "CREATE COMPRESSION_DICTIONARY `order_event_body` (@dict_2);",
        "ALTER TABLE `shop`.`order_event` MODIFY COLUMN `payload` JSON NOT NULL COLUMN_FORMAT COMPRESSED WITH "
        "COMPRESSION_DICTIONARY `order_event_payload`, MODIFY COLUMN `body` MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE "
        "utf8mb4_unicode_ci NOT NULL DEFAULT ('') COLUMN_FORMAT COMPRESSED WITH COMPRESSION_DICTIONARY "
        "`order_event_body` COMMENT 'it''s a \\\\ body';",
    ])


@pytest.mark.parametrize("target", ["mariadb-10.6", "mariadb-10.11", "mariadb-11.x"])
def test_mariadb_gets_column_compressed(tmp_path: Path, target: str) -> None:
    finding = only(ORDER_EVENT, tmp_path, target=target)
    assert finding is not None
    assert "column attribute COMPRESSED" in finding.message and "PAGE_COMPRESSED=1" in finding.message
    assert finding.fix == (
        "ALTER TABLE `shop`.`order_event` MODIFY COLUMN `payload` JSON COMPRESSED NOT NULL, MODIFY COLUMN `body` "
        "MEDIUMTEXT COMPRESSED CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL DEFAULT ('') "
        "COMMENT 'it''s a \\\\ body';"
    )


def test_mariadb_writes_the_column_checks_back_mysql_does_not_repeat_them(tmp_path: Path) -> None:
    """MariaDB keeps a column's CHECK on the column: a MODIFY COLUMN without it drops it. MySQL and
    Percona made it a table constraint that the MODIFY keeps: written again it would be added twice.
    (MariaDB's grammar takes no CONSTRAINT name on a column's CHECK: MySQL's does.)"""
    sql = ("CREATE TABLE note (id INT PRIMARY KEY, body MEDIUMTEXT NOT NULL CHECK (body <> ''), "
           "doc LONGTEXT CHECK (CHAR_LENGTH(doc) < 100000)) ENGINE=InnoDB;")
    mariadb = only(sql, tmp_path, target="mariadb-10.11")
    assert mariadb is not None
    assert mariadb.fix == (
        "ALTER TABLE `note` MODIFY COLUMN `body` MEDIUMTEXT COMPRESSED NOT NULL CHECK (body <> ''), "
        "MODIFY COLUMN `doc` LONGTEXT COMPRESSED NULL CHECK (CHAR_LENGTH(doc) < 100000);"
    )
    sql = sql.replace("NOT NULL CHECK", "NOT NULL CONSTRAINT body_set CHECK")
    percona = only(sql, tmp_path, target="percona-8.0")
    assert percona is not None and percona.fix is not None
    assert "MODIFY COLUMN `body` MEDIUMTEXT NOT NULL COLUMN_FORMAT COMPRESSED" in percona.fix
    assert "CHECK" not in percona.fix


def test_fix_replayed_on_the_model_compresses_and_changes_nothing_else() -> None:
    """Each target's fix, replayed through our own parser, leaves a model in which the table is
    compressed (so the check no longer flags it) and every other column attribute is unchanged."""
    for target in ("mysql-8.0", "percona-8.0", "mariadb-10.11"):
        replayer = Replayer()
        statements = [s for s in ORDER_EVENT.split(";\n") if s.strip()]
        for n, text in enumerate(statements, start=1):
            replayer.apply(parse_statement(text), Location("s.sql", n))
        before = {k: c for k, c in replayer.model.find_table("shop", "order_event").columns.items()}  # type: ignore[union-attr]
        context = CheckContext(target=Target.parse(target))
        [finding] = list(CompressionCandidate().run(replayer.model, context))
        for line in (finding.fix or "").splitlines():
            statement = line.split("  --")[0].strip()
            if statement and not statement.startswith("--"):
                replayer.apply(parse_statement(statement.rstrip(";")), Location("fix.sql", 1))
        table = replayer.model.find_table("shop", "order_event")
        assert table is not None
        assert list(CompressionCandidate().run(replayer.model, context)) == [], target
        for key, column in table.columns.items():
            by_column = target != "mysql-8.0" and key in ("payload", "body")  # `note` is left alone: low payoff
            assert column.compressed == ("zlib" if by_column else None), (target, key)
            assert replace(column, compressed=None, compression_dictionary=None) == before[key], (target, key)
        if target == "percona-8.0":
            assert set(replayer.model.dictionaries) == {"order_event_payload", "order_event_body"}
            assert table.column("payload").compression_dictionary == "order_event_payload"  # type: ignore[union-attr]


def test_mariadb_indexed_columns_get_page_compressed(tmp_path: Path) -> None:
    sql = "CREATE TABLE doc (id int PRIMARY KEY, content TEXT NOT NULL, FULLTEXT KEY ft (content)) ENGINE=InnoDB;"
    finding = only(sql, tmp_path, target="mariadb-10.11")
    assert finding is not None
    assert finding.fix == "ALTER TABLE `doc` PAGE_COMPRESSED=1;"
    assert "the columns are indexed or generated" in finding.message and "sparse files" in finding.message


def test_percona_indexed_columns_fall_back_to_page_compression(tmp_path: Path) -> None:
    sql = "CREATE TABLE doc (id int PRIMARY KEY, content TEXT NOT NULL, FULLTEXT KEY ft (content)) ENGINE=InnoDB;"
    finding = only(sql, tmp_path, target="percona-8.0")
    assert finding is not None
    assert (finding.fix or "").startswith("ALTER TABLE `doc` COMPRESSION='zlib';")
    assert finding.message.count("Column compression would not pay (the columns are indexed or generated)") == 1


def test_percona_leaves_indexed_column_out_and_says_so(tmp_path: Path) -> None:
    sql = ("CREATE TABLE doc (id int PRIMARY KEY, content TEXT NOT NULL, payload JSON, "
           "KEY c (content(20))) ENGINE=InnoDB;")
    finding = only(sql, tmp_path, target="percona-8.0")
    assert finding is not None
    assert "MODIFY COLUMN `payload` JSON NULL COLUMN_FORMAT COMPRESSED" in (finding.fix or "")
    assert "`content`" not in (finding.fix or "").split("ALTER TABLE")[-1]
    assert "Not content: indexed or generated columns cannot be compressed." in finding.message


def test_table_in_a_general_tablespace_gets_row_format_compressed(tmp_path: Path) -> None:
    sql = "CREATE TABLE doc (id int PRIMARY KEY, payload JSON) TABLESPACE ts1 ENGINE=InnoDB;"
    finding = only(sql, tmp_path)
    assert finding is not None
    assert finding.fix == "ALTER TABLE `doc` ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;"
    assert "FILE_BLOCK_SIZE=8192" in finding.message


# --- already compressed: never a candidate -----------------------------------------------------------
@pytest.mark.parametrize(
    "definition",
    [
        "(id int PRIMARY KEY, payload JSON) ROW_FORMAT=COMPRESSED",
        "(id int PRIMARY KEY, payload JSON) ROW_FORMAT=compressed KEY_BLOCK_SIZE=8",
        "(id int PRIMARY KEY, payload JSON) KEY_BLOCK_SIZE=4",
        "(id int PRIMARY KEY, payload JSON) COMPRESSION='zlib'",
        "(id int PRIMARY KEY, payload JSON) COMPRESSION='lz4'",
        "(id int PRIMARY KEY, payload JSON) PAGE_COMPRESSED=1 PAGE_COMPRESSION_LEVEL=9",
        "(id int PRIMARY KEY, payload TEXT COMPRESSED, body TEXT)",
        "(id int PRIMARY KEY, payload TEXT COMPRESSED=zlib CHARACTER SET utf8mb4)",
        "(id int PRIMARY KEY, payload JSON COLUMN_FORMAT COMPRESSED)",
        "(id int PRIMARY KEY, payload BLOB COLUMN_FORMAT COMPRESSED WITH COMPRESSION_DICTIONARY d)",
    ],
)
def test_already_compressed_is_never_flagged(tmp_path: Path, definition: str) -> None:
    for target in ("mysql-8.0", "percona-8.0", "mariadb-10.11"):
        assert only(f"CREATE TABLE t {definition} ENGINE=InnoDB;", tmp_path, target=target) is None


def test_compression_none_is_not_compression(tmp_path: Path) -> None:
    assert only("CREATE TABLE t (id int PRIMARY KEY, payload JSON) COMPRESSION='none';", tmp_path) is not None


def test_alter_adding_compression_later_clears_it(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (id int PRIMARY KEY, payload JSON);\nALTER TABLE t COMPRESSION='zlib';\n"
    assert only(sql, tmp_path) is None


# --- which columns ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "column",
    [
        "avatar BLOB", "profile_photo MEDIUMBLOB", "file_content LONGBLOB", "backup_zip LONGBLOB", "archive_gz BLOB",
        "encrypted_payload TEXT", "password_hash TEXT", "access_token TEXT", "apiToken TEXT", "thumbnail LONGBLOB",
        "short_json_looking TINYTEXT", "payload_small VARCHAR(255)", "data TINYBLOB",
        "derived JSON AS (JSON_OBJECT('a', id)) VIRTUAL",
    ],
)
def test_columns_unlikely_to_compress_are_skipped(tmp_path: Path, column: str) -> None:
    stats = {"t": TableStats(rows=10_000_000, data_length=50 << 30, avg_row_length=5000)}
    assert only(f"CREATE TABLE t (id int PRIMARY KEY, {column}) ENGINE=InnoDB;", tmp_path, stats=stats) is None


def test_non_innodb_tables_are_not_candidates(tmp_path: Path) -> None:
    assert only("CREATE TABLE t (id int PRIMARY KEY, payload JSON) ENGINE=MyISAM;", tmp_path) is None


@pytest.mark.parametrize(
    ("column", "rank"),
    [
        ("payload JSON", "high"), ("response_body LONGTEXT", "high"), ("userData BLOB", "high"),
        ("config TEXT", "high"), ("message TEXT", "high"), ("html MEDIUMTEXT", "high"),
        ("notes LONGTEXT", "medium"), ("transcript MEDIUMTEXT", "medium"),
    ],
)
def test_ranking_without_stats(tmp_path: Path, column: str, rank: str) -> None:
    finding = only(f"CREATE TABLE t (id int PRIMARY KEY, {column}) ENGINE=InnoDB;", tmp_path)
    assert finding is not None and finding.severity == "info"
    assert f": {rank}," in finding.message


@pytest.mark.parametrize("column", ["description TEXT", "raw MEDIUMBLOB", "bytes BLOB", "remark VARCHAR(5000)"])
def test_low_payoff_columns_need_stats(tmp_path: Path, column: str) -> None:
    sql = f"CREATE TABLE t (id int PRIMARY KEY, {column}) ENGINE=InnoDB;"
    assert only(sql, tmp_path) is None
    stats = {"t": TableStats(rows=1_000_000, data_length=4 << 30, avg_row_length=4000)}
    finding = only(sql, tmp_path, stats=stats)
    assert finding is not None and finding.severity == "warning"


def test_ranking_orders_columns_best_first() -> None:
    replayer = Replayer()
    replayer.apply(parse_statement(
        "CREATE TABLE t (id int PRIMARY KEY, bin BLOB, remark TEXT, notes LONGTEXT, attrs JSON)"), Location("x", 1))
    table = replayer.model.find_table(None, "t")
    assert table is not None
    assert [(c.column.name, c.rank) for c in candidates(table) or []] == [
        ("attrs", 0), ("notes", 1), ("remark", 2), ("bin", 3)
    ]


def test_long_varchar_counts_from_the_configured_length(tmp_path: Path) -> None:
    sql = "CREATE TABLE t (id int PRIMARY KEY, payload VARCHAR(2000)) ENGINE=InnoDB;"
    assert only(sql, tmp_path) is None
    finding = only(sql, tmp_path, options={RULE: {"min_varchar_length": 1000}})
    assert finding is not None and "payload (VARCHAR: high" in finding.message


# --- stats -----------------------------------------------------------------------------------------
BIG_TABLE = "CREATE TABLE shop.event (id BIGINT NOT NULL PRIMARY KEY, created_at DATETIME NOT NULL, payload JSON);"


def test_with_stats_above_the_size_a_warning_with_the_saving_range(tmp_path: Path) -> None:
    stats = {"shop.event": TableStats(rows=2_000_000, data_length=4 << 30, avg_row_length=2147)}
    finding = only(BIG_TABLE, tmp_path, stats=stats)
    assert finding is not None and finding.severity == "warning"
    # fixed part: 20 (row overhead) + 8 (BIGINT) + 5 (DATETIME) = 33 bytes; 2,114 of 2,147 in payload
    assert "The table holds 4.0 GiB, about 3.9 GiB of it in the candidate columns (2,114 of 2,147 bytes a row)" \
        in finding.message
    assert "save an estimated 725.9 MiB to 2.1 GiB" in finding.message  # 18% to 54% (Percona's measurements)
    assert "DATA_LENGTH 4.0 GiB" in (finding.evidence or "")


def test_with_stats_below_the_size_nothing(tmp_path: Path) -> None:
    stats = {"event": TableStats(rows=1000, data_length=50 << 20, avg_row_length=50_000)}
    assert only(BIG_TABLE, tmp_path, stats=stats) is None
    finding = only(BIG_TABLE, tmp_path, stats=stats, options={RULE: {"min_size": "10MiB"}})
    assert finding is not None and finding.severity == "warning"


def test_stats_for_other_tables_mean_no_evidence_here(tmp_path: Path) -> None:
    finding = only(BIG_TABLE, tmp_path, stats={"other": TableStats(rows=1, data_length=1)})
    assert finding is not None and finding.severity == "info" and "The table holds" not in finding.message


def test_size_from_rows_times_average_when_data_length_is_missing(tmp_path: Path) -> None:
    stats = {"event": TableStats(rows=1_000_000, avg_row_length=2000)}
    finding = only(BIG_TABLE, tmp_path, stats=stats, options={RULE: {"min_size": 1_000_000_000}})
    assert finding is not None and "The table holds 1.9 GiB" in finding.message


@pytest.mark.parametrize(("target", "fix_start"), [
    ("percona-8.0", "ALTER TABLE `shop`.`event` COMPRESSION='zlib';"),
    ("mariadb-10.11", "ALTER TABLE `shop`.`event` PAGE_COMPRESSED=1;"),
])
def test_short_values_get_page_compression_not_column_compression(tmp_path: Path, target: str, fix_start: str) -> None:
    stats = {"event": TableStats(rows=20_000_000, data_length=3 << 30, avg_row_length=160)}
    finding = only(BIG_TABLE, tmp_path, stats=stats, target=target)
    assert finding is not None and finding.severity == "warning"
    assert (finding.fix or "").startswith(fix_start)
    assert "too short to compress one by one" in finding.message


@pytest.mark.parametrize(("value", "expected"), [
    (1 << 30, 1 << 30), ("1GiB", 1 << 30), ("512M", 512 << 20), ("2 GB", 2 << 30), ("100", 100), ("junk", 7), (True, 7),
])
def test_parse_size(value: object, expected: int) -> None:
    assert parse_size(value, 7) == expected


# --- tenants -----------------------------------------------------------------------------------------
def test_tenant_copies_are_one_finding_per_definition(tmp_path: Path) -> None:
    sql = "".join(
        f"CREATE DATABASE {s};\nUSE {s};\nCREATE TABLE post (id int PRIMARY KEY, body LONGTEXT);\n"
        "CREATE TABLE tag (id int PRIMARY KEY, name varchar(20));\n"
        for s in ("t1", "t2", "t3", "t4")
    )
    report = lint_sql(sql, tmp_path)
    [finding] = findings(report, RULE)
    assert (finding.schema, finding.table) == ("t1", "post")
    assert "The same definition is in 4 tenant schemas (t1, t2, t3, t4); the fix is the same in each." in finding.message
    # with stats each tenant's table stands on its own evidence
    stats = {"t2.post": TableStats(rows=10**6, data_length=5 << 30, avg_row_length=5000)}
    found = findings(lint_sql(sql, tmp_path, stats=stats), RULE)
    assert [(f.schema, f.severity) for f in found] == [("t1", "info"), ("t2", "warning")]
    assert "3 tenant schemas (t1, t3, t4)" in found[0].message


# --- column_definition --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "definition",
    [
        "`t` TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL DEFAULT ('') COMMENT 'it''s \\\\ \"q\"'",
        "`j` JSON NULL DEFAULT NULL",
        "`v` VARCHAR(5000) CHARACTER SET latin1 NOT NULL DEFAULT 'x'",
        "`b` LONGBLOB NULL",
        "`m` MEDIUMTEXT COLLATE utf8mb4_bin NULL INVISIBLE",
        "`e` ENUM('a','b''c') NOT NULL DEFAULT 'a'",
        "`n` INT UNSIGNED NOT NULL AUTO_INCREMENT",
        "`x` TEXT NULL DEFAULT (JSON_ARRAY()) COMMENT ''",
        "`odd name` TINYTEXT NULL",
    ],
)
def test_column_definition_round_trips_through_the_parser(definition: str) -> None:
    column = _column(f"CREATE TABLE t ({definition})")
    rendered = column_definition(column)
    assert rendered == definition
    assert _column(f"CREATE TABLE t ({rendered})") == column


def test_column_definition_with_compression_round_trips() -> None:
    column = _column("CREATE TABLE t (`t` TEXT CHARACTER SET utf8mb4 NOT NULL COMMENT 'c')")
    mariadb = column_definition(column, compressed=True)
    assert mariadb == "`t` TEXT COMPRESSED CHARACTER SET utf8mb4 NOT NULL COMMENT 'c'"
    assert _column(f"CREATE TABLE t ({mariadb})").compressed == "zlib"
    percona = column_definition(column, column_format="COLUMN_FORMAT COMPRESSED WITH COMPRESSION_DICTIONARY `d`")
    back = _column(f"CREATE TABLE t ({percona})")
    assert (back.compressed, back.compression_dictionary, back.comment) == ("zlib", "d", "c")


def _column(statement: str) -> Column:
    op = parse_statement(statement)
    assert isinstance(op, ops.CreateTable)
    [column] = op.body.columns.values()
    return column


# --- the skeema fixtures --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fixture", ["compressed", "pagecompression", "pagecompression-maria", "colcompression-maria",
                "colcompression-percona", "inno-tablespace"],
)
@pytest.mark.parametrize("target", ["mysql-8.0", "percona-8.0", "mariadb-10.11"])
def test_skeema_fixtures_already_compressed_give_no_candidate(fixture: str, target: str) -> None:
    from linter.engine import lint_paths

    report = lint_paths([str(need("corpus", "skeema_testdata", f"{fixture}.sql"))], CheckContext(target=Target.parse(target)))
    assert findings(report, RULE) == []


# --- against a real MariaDB -------------------------------------------------------------------------
def test_mariadb_fix_runs_on_a_real_server_and_keeps_every_attribute(mariadb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The column-compression ALTER runs on MariaDB, and SHOW CREATE TABLE afterwards differs from
    before only by COMPRESSED on the two columns: charset, collation, NOT NULL, default and comment
    survive the MODIFY."""
    database = "innolint_compression"
    create = ORDER_EVENT.split(";\n", 1)[1].replace("shop.order_event", "order_event")
    mariadb.sql(f"DROP DATABASE IF EXISTS {database}; CREATE DATABASE {database}")
    mariadb.sql(create, database)
    before = mariadb.sql("SHOW CREATE TABLE order_event", database)[0][1]
    finding = only(create, tmp_path, target="mariadb-10.11")
    assert finding is not None
    mariadb.sql(finding.fix or "", database)
    after = mariadb.sql("SHOW CREATE TABLE order_event", database)[0][1]
    assert after != before
    # MariaDB's own quirk (10.11): a NOT NULL COMPRESSED column with no default gets DEFAULT '';
    # the message warns about it
    assert after.replace(" /*M!100301 COMPRESSED*/", "").replace(
        "NOT NULL DEFAULT '' CHECK (json_valid(`payload`))", "NOT NULL CHECK (json_valid(`payload`))") == before
    assert "implicit DEFAULT ''" in finding.message and "omits payload then" in finding.message
    assert after.count("/*M!100301 COMPRESSED*/") == 2
    page = only("CREATE TABLE doc (id int PRIMARY KEY, content TEXT, FULLTEXT KEY ft (content)) ENGINE=InnoDB;",
                tmp_path, target="mariadb-10.11")
    assert page is not None
    mariadb.sql("CREATE TABLE doc (id int PRIMARY KEY, content TEXT, FULLTEXT KEY ft (content)) ENGINE=InnoDB", database)
    mariadb.sql((page.fix or "").replace("`doc`", f"`{database}`.`doc`"), database)
    assert "PAGE_COMPRESSED" in mariadb.sql("SHOW CREATE TABLE doc", database)[0][1]
    mariadb.sql(f"DROP DATABASE {database}")


# --- the table's name and the column's neighbours (issue 15) ------------------------------------------
def _ranked(sql: str) -> tuple[dict[str, tuple[int, str]], dict[str, str]]:
    """{column: (rank, reason)} of the candidates and {column: reason} of the large columns left out,
    for the one table `sql` creates (through the real parser and replay)."""
    replayer = Replayer()
    for n, statement in enumerate(s for s in sql.split(";") if s.strip()):
        problem = replayer.apply(parse_statement(statement), Location("x.sql", n + 1))
        assert not problem, problem
    tables = list(replayer.model.tables())
    assert len(tables) == 1, tables
    table = tables[0]
    found, left = classified(table)
    return {c.column.name: (c.rank, c.reason) for c in found}, {c.name: why for c, why in left}


_MIME = ["mime_type VARCHAR(100)", "content_type VARCHAR(255)", "mimetype VARCHAR(64)", "media_type VARCHAR(80)",
         "ContentType VARCHAR(80)", "`mime` VARCHAR(50)"]
_BLOBS = ["BLOB", "MEDIUMBLOB", "LONGBLOB"]


@pytest.mark.parametrize("blob", _BLOBS)
@pytest.mark.parametrize("mime", _MIME)
@pytest.mark.parametrize("table", ["images", "product_photo", "UserAvatars", "media_item"])
def test_image_bytes_in_a_column_named_data_are_left_out(table: str, mime: str, blob: str) -> None:
    """A media table with a content type: the bytes are JPEG/PNG/video, compressed already."""
    sql = f"CREATE TABLE {table} (id INT PRIMARY KEY, {mime}, data {blob} NOT NULL, created_at DATETIME)"
    found, left = _ranked(sql)
    assert "data" not in found
    assert "compressed already" in left["data"] and table in left["data"]


@pytest.mark.parametrize("blob", _BLOBS)
@pytest.mark.parametrize(("dimensions", "name"), [
    ("width INT, height INT", "content"), ("img_height SMALLINT, img_width SMALLINT", "data"),
    ("ImageWidth INT, ImageHeight INT", "bytes"), ("w_width INT, w_height INT", "payload"),
])
def test_width_and_height_mean_stored_images_whatever_the_table_is_called(dimensions: str, name: str, blob: str) -> None:
    # column order varies: the blob before or after the dimensions
    for sql in (f"CREATE TABLE product_asset_x (id INT PRIMARY KEY, {name} {blob}, {dimensions})",
                f"CREATE TABLE banner (id INT PRIMARY KEY, {dimensions}, sku VARCHAR(20), {name} {blob})"):
        found, left = _ranked(sql)
        assert name not in found, (sql, found)
        assert "dimensions in" in left[name]


@pytest.mark.parametrize("mime", ["mime_type ENUM('image/png','image/jpeg')",
                                  "content_type VARCHAR(40) NOT NULL DEFAULT 'video/mp4'",
                                  "media_type ENUM('audio/mpeg','audio/ogg','image/webp')"])
def test_a_content_type_listing_only_media_types_means_media(mime: str) -> None:
    found, left = _ranked(f"CREATE TABLE stored_thing (id INT PRIMARY KEY, {mime}, body LONGBLOB)")
    assert "body" not in found and "lists only media types" in left["body"]


@pytest.mark.parametrize("blob", _BLOBS)
@pytest.mark.parametrize(("neighbours", "said"), [
    ("mime_type VARCHAR(100), filename VARCHAR(255)", "a file name in filename"),
    ("original_name VARCHAR(255)", "a file name in original_name"),
    ("file_name VARCHAR(255), size BIGINT, sha256 CHAR(64)", "a file name in file_name"),
    ("extension VARCHAR(10)", "a file extension in extension"),
    ("fileExt VARCHAR(8), checksum CHAR(32)", "a file extension in fileExt"),
    ("content_type VARCHAR(80)", "a content type in content_type"),
])
def test_stored_files_are_uncertain_not_documents(neighbours: str, said: str, blob: str) -> None:
    """Uploaded files: PDFs, Office files and archives are compressed already; the payoff depends on
    the file types, which the DDL cannot tell: rank uncertain, with the neighbour named."""
    found, _ = _ranked(f"CREATE TABLE doc_store (id INT PRIMARY KEY, {neighbours}, content {blob})")
    rank, reason = found["content"]
    assert rank == 3 and said in reason and "stored files as bytes" in reason


@pytest.mark.parametrize("table", ["attachments", "file_chunk", "user_uploads", "Files"])
def test_a_table_named_for_files_stores_files(table: str) -> None:
    found, _ = _ranked(f"CREATE TABLE {table} (file_id INT, chunk INT, data LONGBLOB, PRIMARY KEY (file_id, chunk))")
    assert found["data"][0] == 3 and f"the table name {table}" in found["data"][1]


def test_base64_text_of_stored_files_is_uncertain_but_describing_text_stays(tmp_path: Path) -> None:
    found, _ = _ranked("CREATE TABLE filestore (id INT PRIMARY KEY, filename VARCHAR(128), data LONGTEXT, "
                       "description MEDIUMTEXT, exif JSON)")
    assert found["data"][0] == 3 and "text (perhaps base64)" in found["data"][1]
    assert found["exif"] == (0, "JSON documents")
    assert found["description"] == (1, "declared for long text")


@pytest.mark.parametrize("mime", ["mime_type ENUM('text/html','text/plain')",
                                  "content_type VARCHAR(60) DEFAULT 'application/json'",
                                  "mimetype ENUM('application/xml','application/atom+xml')"])
def test_a_content_type_listing_only_text_types_means_documents(mime: str) -> None:
    found, _ = _ranked(f"CREATE TABLE uploads (id INT PRIMARY KEY, filename VARCHAR(50), {mime}, content MEDIUMBLOB)")
    assert found["content"][0] == 0 and "stored text files" in found["content"][1]


@pytest.mark.parametrize("column", [
    "password TEXT", "user_passwd TEXT", "pwd BLOB", "passphrase MEDIUMTEXT", "refresh_token TEXT",
    "apiKey TEXT", "private_key TEXT", "signing_key BLOB", "client_secret TEXT", "totp LONGBLOB",
    "password_json TEXT", "credentials_data TEXT", "cert_pem TEXT",
])
def test_secrets_are_never_documents(column: str) -> None:
    found, left = _ranked(f"CREATE TABLE account (id INT PRIMARY KEY, {column})")
    name = column.split()[0].strip("`")
    assert name not in found and "a secret" in left[name]


@pytest.mark.parametrize("table", ["ciphers", "user_credentials", "oauth_secret", "keystore"])
def test_a_table_of_secrets_holds_ciphertext_even_in_data(table: str) -> None:
    found, left = _ranked(f"CREATE TABLE {table} (id INT PRIMARY KEY, data TEXT, notes MEDIUMTEXT, meta JSON)")
    assert set(found) == {"meta"}  # JSON cannot hold ciphertext bytes
    assert "do not compress" in left["data"] and "do not compress" in left["notes"]


@pytest.mark.parametrize("blob", _BLOBS + ["TEXT", "LONGTEXT"])
@pytest.mark.parametrize(("name", "neighbour"), [
    ("object", "format ENUM('xml','json')"),
    ("value", "data_format VARCHAR(10) NOT NULL DEFAULT 'json'"),
    ("blob_value", "serializer VARCHAR(20) COMMENT 'yaml or php serialize()'"),
    ("stuff", "stuff_encoding VARCHAR(16) DEFAULT 'xml'"),
])
def test_a_format_neighbour_saying_xml_or_json_means_documents(name: str, neighbour: str, blob: str) -> None:
    for sql in (f"CREATE TABLE item (id INT PRIMARY KEY, {neighbour}, {name} {blob})",
                f"CREATE TABLE kv_item (id INT PRIMARY KEY, {name} {blob}, updated_at DATETIME, {neighbour})"):
        found, _ = _ranked(sql)
        rank, reason = found[name]
        assert rank == 0 and "serialised documents" in reason and neighbour.split()[0] in reason, (sql, found)


@pytest.mark.parametrize("blob", _BLOBS)
def test_a_serialized_flag_or_an_encoding_column_means_serialised_values(blob: str) -> None:
    found, _ = _ranked(f"CREATE TABLE cache_page (cid VARCHAR(255) PRIMARY KEY, value {blob}, serialized SMALLINT)")
    assert found["value"] == (0, "serialised values (serialized beside it)")
    found, _ = _ranked(f"CREATE TABLE executions (id BINARY(16) PRIMARY KEY, state {blob}, state_encoding VARCHAR(16))")
    assert found["state"] == (0, "serialised values (state_encoding beside it)")
    found, _ = _ranked(f"CREATE TABLE q (id INT PRIMARY KEY, msg {blob}, msg_format VARCHAR(9) DEFAULT 'protobuf')")
    assert found["msg"] == (1, "serialised objects: msg_format says 'protobuf'")


@pytest.mark.parametrize("neighbour", ["is_compressed TINYINT(1)", "compression VARCHAR(8)", "gzipped BOOL",
                                       "payload_encoding ENUM('gzip','identity')", "codec VARCHAR(8) DEFAULT 'zstd'"])
def test_values_the_application_compresses_are_left_out(neighbour: str) -> None:
    found, left = _ranked(f"CREATE TABLE event_store (id BIGINT PRIMARY KEY, payload LONGBLOB, {neighbour}, meta JSON)")
    assert "payload" not in found and "compress" in left["payload"]
    assert found["meta"][0] == 0  # JSON is text: the flag is not about it


def test_a_neighbour_about_another_column_does_not_apply() -> None:
    found, _ = _ranked("CREATE TABLE t (id INT PRIMARY KEY, body LONGBLOB, body_compressed TINYINT, extra LONGBLOB, "
                       "date_format VARCHAR(20) DEFAULT 'xml', user_dateformat VARCHAR(10))")
    assert "body" not in found
    assert found["extra"] == (0, "named like documents (extra)")


@pytest.mark.parametrize("column", ["data BLOB COMMENT 'gzip of the request'", "raw LONGBLOB COMMENT 'zstd frames'"])
def test_a_comment_saying_compressed_leaves_the_column_out(column: str) -> None:
    found, left = _ranked(f"CREATE TABLE t (id INT PRIMARY KEY, {column})")
    assert not found and "COMMENT says" in next(iter(left.values()))


@pytest.mark.parametrize("column", ["stuff LONGBLOB COMMENT 'XML of the order'", "x TEXT COMMENT 'json blob'"])
def test_a_comment_saying_xml_or_json_means_documents(column: str) -> None:
    found, _ = _ranked(f"CREATE TABLE t (id INT PRIMARY KEY, {column})")
    assert next(iter(found.values()))[0] == 0


@pytest.mark.parametrize("table", ["orders", "audit_trail", "widget"])
@pytest.mark.parametrize("column", ["payload BLOB", "xml_doc LONGBLOB", "serialized_object MEDIUMBLOB", "document LONGBLOB",
                                    "body MEDIUMBLOB"])
def test_document_named_blobs_without_file_neighbours_stay_documents(table: str, column: str) -> None:
    found, _ = _ranked(f"CREATE TABLE {table} (id INT PRIMARY KEY, {column}, checksum CHAR(32), size INT)")
    assert next(iter(found.values()))[0] == 0, found  # a checksum and a size alone are not a stored file


def test_message_says_what_was_left_out_and_why(tmp_path: Path) -> None:
    sql = ("CREATE TABLE product_image (id INT PRIMARY KEY, mime_type VARCHAR(50), width INT, height INT, "
           "data LONGBLOB, caption_json JSON);")
    finding = only(sql, tmp_path)
    assert finding is not None
    assert "caption_json (JSON: high, JSON documents)" in finding.message
    assert "Left out: data (stored images or media (the table name product_image (image), dimensions in width " \
           "and height): compressed already)." in finding.message


def test_migrations_adding_the_neighbour_later_change_the_ranking(tmp_path: Path) -> None:
    (tmp_path / "V1__t.sql").write_text("CREATE TABLE thing (id INT PRIMARY KEY, data LONGBLOB);\n")
    (tmp_path / "V2__t.sql").write_text("ALTER TABLE thing ADD COLUMN mime_type VARCHAR(80), ADD COLUMN width INT, "
                                        "ADD COLUMN height INT;\n")
    from tests.helpers import lint_paths
    report = lint_paths([str(tmp_path / "V1__t.sql")], CheckContext())
    assert [f.table for f in findings(report, RULE)] == ["thing"]
    report = lint_paths([str(tmp_path)], CheckContext())
    assert findings(report, RULE) == []


def test_classification_time_grows_linearly_with_the_columns() -> None:
    """Large columns each with a format neighbour named after it, beside a bare `format` and
    `serialized`: 10x the columns take at most ~15x the time (tests/complexity.py).
    Neighbours are indexed once per table, so no column looks at every other one."""
    from tests.complexity import assert_linear

    tables = {}
    for n in (300, 3000):
        columns = ", ".join(f"c{i} LONGBLOB, c{i}_format VARCHAR(8) DEFAULT 'json', note{i} TEXT" for i in range(n))
        # (the server refuses a row this long, 1118, and the replay with it: the table is built from the parse)
        op = parse_statement(f"CREATE TABLE t (id INT PRIMARY KEY, format VARCHAR(9), serialized TINYINT, {columns})")
        tables[n] = Table(schema=None, name="t", body=op.body, defined=Location("x.sql", 1), changed=Location("x.sql", 1))
        found, _ = classified(tables[n])
        assert len(found) == 2 * n and found[0].rank == 0
    assert_linear(lambda n: lambda: classified(tables[n]), 300, what="classifying large columns by their neighbours")


def _table(sql: str) -> Any:
    replayer = Replayer()
    replayer.apply(parse_statement(sql), Location("x.sql", 1))
    (table,) = replayer.model.tables()
    return table
