"""uuid-primary-key: random UUID keys are found, time-ordered ones are not, severity follows the
workload evidence, and each target gets its exact fix.

Models are built through the real parser and replay (as tests/test_parse.py does), so every case
is a DDL statement a user could write.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.uuid_primary_key import UuidPrimaryKey
from linter.rules.checkapi import CheckContext, TableStats
from linter.rules.findings import Finding
from linter.parse.elements import Location
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from linter.schema.target import Target
from tests.mariadb import MariaDB

RULE = "uuid-primary-key"


def run(*statements: str, target: str = "mysql-8.0", annotations: frozenset[str] = frozenset(),
        **context: object) -> list[Finding]:
    """Replay the statements (annotations go on every CREATE TABLE) and run the check."""
    replayer = Replayer()
    for n, text in enumerate(statements, start=1):
        problem = replayer.apply(parse_statement(text), Location("t.sql", n), annotations=annotations)
        assert problem is None, problem
    ctx = CheckContext(target=Target.parse(target), **context)  # type: ignore[arg-type]
    return list(UuidPrimaryKey().run(replayer.model, ctx))


def one(*statements: str, **kwargs: object) -> Finding:
    [finding] = run(*statements, **kwargs)  # type: ignore[arg-type]
    assert finding.rule == RULE
    return finding


def flagged(definition: str, **kwargs: object) -> bool:
    return bool(run(f"CREATE TABLE t ({definition}) ENGINE=InnoDB", **kwargs))  # type: ignore[arg-type]


# -- detection: what holds random UUIDs -------------------------------------------------------------
@pytest.mark.parametrize(
    "definition",
    [
        "id CHAR(36) NOT NULL PRIMARY KEY",
        "id VARCHAR(36) NOT NULL PRIMARY KEY",
        "id BINARY(16) NOT NULL PRIMARY KEY",
        "id VARBINARY(16) NOT NULL PRIMARY KEY",
        "uuid CHAR(32) NOT NULL PRIMARY KEY",  # 32: the undashed hex form, when the name says so
        "id CHAR(32) NOT NULL DEFAULT (REPLACE(UUID(), '-', '')) PRIMARY KEY",
        "ObjectGuid VARCHAR(64) NOT NULL PRIMARY KEY",  # any length, when the name says uuid/guid
        "uuid VARCHAR(40) NOT NULL PRIMARY KEY",
        "id CHAR(36) NOT NULL DEFAULT (UUID()) PRIMARY KEY",
        "id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID())) PRIMARY KEY",
        "id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 0)) PRIMARY KEY",
        "id BINARY(16) NOT NULL DEFAULT (UNHEX(REPLACE(UUID(), '-', ''))) PRIMARY KEY",
        "id UUID NOT NULL DEFAULT UUID_v4() PRIMARY KEY",  # MariaDB 11.7: v4 is random whatever the type
        "id CHAR(36) NOT NULL, name VARCHAR(20), PRIMARY KEY (id, name)",  # composite, led by its own uuid
    ],
)
def test_random_uuid_keys_are_flagged(definition: str) -> None:
    assert flagged(definition)


def test_a_not_null_unique_key_that_clusters_counts_as_the_key() -> None:
    finding = one("CREATE TABLE t (uuid CHAR(36) NOT NULL, v INT, UNIQUE KEY u (uuid))")
    assert "UNIQUE key u (InnoDB clusters on it)" in finding.message
    assert finding.fix == (
        "ALTER TABLE `t` ADD COLUMN `uuid_bin` BINARY(16) NULL AFTER `uuid`;\n"
        "UPDATE `t` SET `uuid_bin` = UUID_TO_BIN(`uuid`, 1);\n"
        "ALTER TABLE `t` DROP INDEX `u`, DROP COLUMN `uuid`;\n"
        "ALTER TABLE `t` CHANGE COLUMN `uuid_bin` `uuid` BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 1)), "
        "ADD UNIQUE KEY `u` (`uuid`);"
    )


def test_only_the_leading_key_column_matters() -> None:
    assert not flagged("tenant_id INT NOT NULL, id CHAR(36) NOT NULL, PRIMARY KEY (tenant_id, id)")
    # no key at all is no-primary-key's business; a nullable unique key does not cluster
    assert not flagged("id CHAR(36)")
    assert not flagged("id CHAR(36), UNIQUE KEY (id)")


# -- exclusions: not UUIDs, or time-ordered ones ------------------------------------------------------
@pytest.mark.parametrize(
    "definition",
    [
        "id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY",
        "code CHAR(12) NOT NULL PRIMARY KEY",
        # 32 hex characters are as often an MD5 (session ids): not a UUID unless name or default say so
        "session_id CHAR(32) NOT NULL PRIMARY KEY",
        "id VARCHAR(32) NOT NULL PRIMARY KEY",
        "ip_address VARBINARY(16) NOT NULL PRIMARY KEY",
        "md5 BINARY(16) NOT NULL PRIMARY KEY",
        "name VARCHAR(36) NOT NULL, hash CHAR(36) NOT NULL, PRIMARY KEY (hash)",
        "uuid BIGINT NOT NULL PRIMARY KEY",
    ],
)
def test_keys_that_are_not_uuids(definition: str) -> None:
    assert not flagged(definition)


@pytest.mark.parametrize(
    "definition",
    [
        "id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 1)) PRIMARY KEY",  # MySQL 8's swap flag
        "id BINARY(16) NOT NULL DEFAULT (uuid_to_bin(uuid(), true)) PRIMARY KEY",
        "id UUID NOT NULL DEFAULT UUID() PRIMARY KEY",  # MariaDB's UUID type stores v1 time-ordered
        "id UUID NOT NULL PRIMARY KEY",
        "id UUID NOT NULL DEFAULT UUID_v7() PRIMARY KEY",
        "id BINARY(16) NOT NULL COMMENT 'UUIDv7 from the app' PRIMARY KEY",
        "id CHAR(36) NOT NULL COMMENT 'uuid v7' PRIMARY KEY",
        "id CHAR(26) NOT NULL COMMENT 'ULID' PRIMARY KEY",
        "id BINARY(16) NOT NULL COMMENT 'ulid, binary' PRIMARY KEY",
        "id BINARY(16) NOT NULL COMMENT 'time-ordered' PRIMARY KEY",
    ],
)
def test_time_ordered_keys_are_not_flagged(definition: str) -> None:
    assert not flagged(definition)


def test_table_comment_and_annotation_say_time_ordered() -> None:
    assert not run("CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY) COMMENT='ids are ULIDs'")
    assert not run("CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY) COMMENT='time ordered ids'")
    assert not run("CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY)", annotations=frozenset({"time-ordered"}))


@pytest.mark.parametrize("pattern", ["public_id", "events.public_id", "shop.events.public_id", "shop.*.public_id", "*.public_id"])
def test_time_ordered_columns_option(pattern: str) -> None:
    statements = ("USE shop", "CREATE TABLE events (public_id BINARY(16) NOT NULL PRIMARY KEY)")
    assert run(*statements)
    assert not run(*statements, options={RULE: {"time_ordered_columns": [pattern]}})
    assert run(*statements, options={RULE: {"time_ordered_columns": ["other.public_id"]}})
    assert not run(*statements, options={RULE: {"time_ordered_columns": "events.public_id"}})  # one pattern as a string


def test_composite_key_led_by_a_foreign_key_is_left_to_the_parent() -> None:
    """SPRING_SESSION_ATTRIBUTES: the parent's random key is flagged on the parent, once."""
    findings = run(
        "CREATE TABLE session (id CHAR(36) NOT NULL PRIMARY KEY)",
        "CREATE TABLE session_attributes (session_id CHAR(36) NOT NULL, name VARCHAR(200) NOT NULL, "
        "PRIMARY KEY (session_id, name), FOREIGN KEY (session_id) REFERENCES session (id))",
    )
    assert [f.table for f in findings] == ["session"]
    assert "Foreign keys in session_attributes reference this table" in findings[0].message


@pytest.mark.parametrize("names", [("namespace_id", "build_id"), ("user_uuid", "group_uuid"), ("UserId", "GroupId")])
def test_a_link_table_clustered_on_its_pair_is_left_to_the_parents(names: tuple[str, str]) -> None:
    """temporal's build_id_to_task_queue: a link clustered on (namespace_id BINARY(16), ...) without
    a foreign key. Its leading column holds a side's ids, each repeated for its links: one side's
    rows sit together, which is the key link-table-primary-key asks for; the surrogate this rule would
    give back is what that rule flags. A composite key of a uuid and a column of its own is still
    this rule's."""
    a, b = names
    parents = ("CREATE TABLE namespaces (id BINARY(16) NOT NULL PRIMARY KEY)", "CREATE TABLE users (id BINARY(16) NOT NULL "
               "PRIMARY KEY)", "CREATE TABLE `groups` (id BINARY(16) NOT NULL PRIMARY KEY)", "CREATE TABLE builds (id "
               "BINARY(16) NOT NULL PRIMARY KEY)")
    link = (f"CREATE TABLE pairs ({a} BINARY(16) NOT NULL, {b} BINARY(16) NOT NULL, PRIMARY KEY ({a}, {b}), KEY ({b})) "
            "ENGINE=InnoDB")
    assert [f.table for f in run(*parents, link)] == ["namespaces", "users", "groups", "builds"]
    own = (f"CREATE TABLE pairs ({a} BINARY(16) NOT NULL, label VARCHAR(200) NOT NULL, body TEXT, "
           f"PRIMARY KEY ({a}, label)) ENGINE=InnoDB")
    assert "pairs" in [f.table for f in run(*parents, own)]


@pytest.mark.parametrize("engine", ["MyISAM", "MEMORY", "Aria"])
def test_non_innodb_tables_are_not_flagged(engine: str) -> None:
    assert not run(f"CREATE TABLE t (id CHAR(36) NOT NULL PRIMARY KEY) ENGINE={engine}")


def test_view_standin_and_temporary_tables_are_not_flagged() -> None:
    assert not run("CREATE TEMPORARY TABLE t (id CHAR(36) NOT NULL PRIMARY KEY)")


# -- severity follows the workload evidence, and the finding names it --------------------------------
def test_no_evidence_is_info_and_says_how_to_give_some() -> None:
    finding = one("CREATE TABLE customer (id CHAR(36) NOT NULL PRIMARY KEY, name VARCHAR(100), updated_at DATETIME)")
    assert finding.severity == "info"
    assert "no evidence of an insert-heavy workload" in finding.message
    assert "`-- innolint: insert-heavy`" in finding.message


def test_config_insert_heavy_pattern_is_an_error_naming_the_pattern() -> None:
    finding = one("USE shop", "CREATE TABLE orders (id CHAR(36) NOT NULL PRIMARY KEY)", insert_heavy=("shop.ord*",))
    assert finding.severity == "error"
    assert "insert-heavy by the config's insert_heavy pattern 'shop.ord*'" in finding.message


def test_inline_annotation_is_an_error() -> None:
    finding = one("CREATE TABLE orders (id CHAR(36) NOT NULL PRIMARY KEY)", annotations=frozenset({"insert-heavy"}))
    assert finding.severity == "error"
    assert "`-- innolint: insert-heavy` comment on its CREATE TABLE" in (finding.evidence or "")


def test_stats_showing_many_inserts_is_an_error_with_the_numbers() -> None:
    stats = {"shop.orders": TableStats(rows=3_000_000, data_length=1_073_741_824, count_insert=2_900_000, count_fetch=410_000)}
    finding = one("USE shop", "CREATE TABLE orders (id CHAR(36) NOT NULL PRIMARY KEY)", stats=stats)
    assert finding.severity == "error"
    assert (
        "insert-heavy by the stats file: 2,900,000 rows inserted, 410,000 fetched, 7.07 inserts per fetch, "
        "~3,000,000 rows, 1,024.0 MiB clustered index"
    ) in finding.message


def test_stats_showing_few_inserts_is_info_even_for_a_log_name() -> None:
    stats = {"event_log": TableStats(count_insert=20_000, count_fetch=9_000_000)}
    finding = one("CREATE TABLE event_log (id CHAR(36) NOT NULL PRIMARY KEY)", stats=stats)
    assert finding.severity == "info"
    assert "not insert-heavy by the stats file: 20,000 rows inserted, 9,000,000 fetched" in finding.message


def test_stats_thresholds_are_options() -> None:
    stats = {"orders": TableStats(count_insert=500, count_fetch=1_000)}
    sql = "CREATE TABLE orders (id CHAR(36) NOT NULL PRIMARY KEY)"
    assert one(sql, stats=stats).severity == "info"  # below the default 10,000 inserts
    options = {RULE: {"stats_min_inserts": 100, "stats_insert_ratio": 0.5}}
    assert one(sql, stats=stats, options=options).severity == "error"
    options = {RULE: {"stats_min_inserts": 100, "stats_insert_ratio": 0.6}}
    assert one(sql, stats=stats, options=options).severity == "info"


def test_stats_without_counters_fall_back_to_heuristics_and_quote_the_size() -> None:
    stats = {"audit_events": TableStats(rows=10, data_length=16384)}
    finding = one("CREATE TABLE audit_events (id CHAR(36) NOT NULL PRIMARY KEY)", stats=stats)
    assert finding.severity == "warning"
    assert "(~10 rows, 0.0 MiB clustered index)" in finding.message


@pytest.mark.parametrize(
    ("table", "word"),
    [("request_log", "log"), ("request_logs", "logs"), ("OrderEvents", "events"), ("price_history", "history"),
     ("user_audit", "audit"), ("host_metrics", "metrics"), ("messages", "messages"),
     ("notifications", "notifications"), ("SPRING_SESSION", "session"), ("sessions", "sessions")],
)
def test_insert_heavy_names_are_warnings(table: str, word: str) -> None:
    finding = one(f"CREATE TABLE {table} (id CHAR(36) NOT NULL PRIMARY KEY)")
    assert finding.severity == "warning"
    assert f"likely insert-heavy: the name {table} ends in {word!r}" in finding.message


def test_append_only_shape_is_a_warning() -> None:
    finding = one("CREATE TABLE payment (id CHAR(36) NOT NULL PRIMARY KEY, created_at DATETIME NOT NULL)")
    assert finding.severity == "warning"
    assert "append-only shape (created_at and no updated_at column)" in finding.message
    assert one("CREATE TABLE payment (id CHAR(36) NOT NULL PRIMARY KEY, CreatedOn DATETIME, LastModified DATETIME)").severity == "info"


def test_config_beats_stats_and_stats_beat_names() -> None:
    stats = {"event_log": TableStats(count_insert=5, count_fetch=5)}
    sql = "CREATE TABLE event_log (id CHAR(36) NOT NULL PRIMARY KEY)"
    assert one(sql, stats=stats, insert_heavy=("event_log",)).severity == "error"
    assert one(sql, stats=stats).severity == "info"


# -- messages carry the evidence and the numbers -----------------------------------------------------
def test_message_for_text_uuids_explains_time_low_and_the_numbers() -> None:
    finding = one("CREATE TABLE t (id CHAR(36) NOT NULL DEFAULT (UUID()) PRIMARY KEY)")
    assert "PRIMARY KEY (`id`) leads with `id` (CHAR(36) DEFAULT (UUID()))" in finding.message
    assert "they start with time_low, the fastest-changing part of the timestamp" in finding.message
    assert "~66% full instead of ~15 KB of 16 KB" in finding.message
    assert "1 GB instead of 644 MB, +60%" in finding.message
    assert "36-byte key (8 bytes as BIGINT)" in finding.message
    assert "UUIDv7 or ULID" in finding.message
    assert finding.subject == "id" and finding.line == 1
    assert finding.evidence == (
        "leading key column id CHAR(36) DEFAULT (UUID()); no evidence of an insert-heavy workload; mark it with "
        "`-- innolint: insert-heavy`, the insert_heavy config or --stats"
    )


def test_binary_uuids_do_not_get_the_text_explanation() -> None:
    finding = one("CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY)")
    assert "time_low" not in finding.message and "16-byte key" in finding.message


# -- fixes per target, exact -------------------------------------------------------------------------
def test_mysql8_text_key_becomes_swapped_binary() -> None:
    finding = one("USE shop", "CREATE TABLE users (uuid CHAR(36) NOT NULL, name TEXT, PRIMARY KEY (uuid))")
    assert finding.fix == (
        "ALTER TABLE `shop`.`users` ADD COLUMN `uuid_bin` BINARY(16) NULL AFTER `uuid`;\n"
        "UPDATE `shop`.`users` SET `uuid_bin` = UUID_TO_BIN(`uuid`, 1);\n"
        "ALTER TABLE `shop`.`users` DROP PRIMARY KEY, DROP COLUMN `uuid`;\n"
        "ALTER TABLE `shop`.`users` CHANGE COLUMN `uuid_bin` `uuid` BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 1)), "
        "ADD PRIMARY KEY (`uuid`);"
    )
    assert "read it back with BIN_TO_UUID(uuid, 1)" in finding.message
    assert "application-made UUIDv4 values stay random" in finding.message


def test_mysql8_fix_keeps_the_rest_of_a_composite_key_and_avoids_taken_names() -> None:
    finding = one("CREATE TABLE t (id CHAR(36) NOT NULL, id_bin INT, v INT NOT NULL, PRIMARY KEY (id, v))")
    assert finding.fix == (
        "ALTER TABLE `t` ADD COLUMN `id_bin2` BINARY(16) NULL AFTER `id`;\n"
        "UPDATE `t` SET `id_bin2` = UUID_TO_BIN(`id`, 1);\n"
        "ALTER TABLE `t` DROP PRIMARY KEY, DROP COLUMN `id`;\n"
        "ALTER TABLE `t` CHANGE COLUMN `id_bin2` `id` BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 1)), "
        "ADD PRIMARY KEY (`id`, `v`);"
    )


def test_mysql8_binary_key_is_swapped_in_place() -> None:
    finding = one("CREATE TABLE t (id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID())) PRIMARY KEY)")
    assert finding.fix == (
        "UPDATE `t` SET `id` = UUID_TO_BIN(BIN_TO_UUID(`id`), 1);\n"
        "ALTER TABLE `t` MODIFY COLUMN `id` BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID(), 1));"
    )


@pytest.mark.parametrize("target", ["mysql-5.7", "mariadb-10.6", "mariadb-10.11", "mariadb-11.x"])
def test_other_targets_get_an_auto_increment_key_and_keep_the_uuid_unique(target: str) -> None:
    finding = one("CREATE TABLE users (uuid CHAR(36) NOT NULL PRIMARY KEY)", target=target)
    assert finding.fix == (
        "ALTER TABLE `users` DROP PRIMARY KEY, ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST, "
        "ADD UNIQUE KEY (`uuid`);"
    )
    assert "keep the UUID as a UNIQUE secondary key" in finding.message
    assert "UUIDv7 or ULID" in finding.message
    mentions_uuid_type = "MODIFY `uuid` UUID NOT NULL" in finding.message
    assert mentions_uuid_type == (target in ("mariadb-10.11", "mariadb-11.x"))  # the UUID type came in 10.7


def test_mariadb_uuid_type_with_random_v4_default_gets_the_auto_increment_fix_on_any_target() -> None:
    for target in ("mysql-8.0", "mariadb-11.x"):
        finding = one("CREATE TABLE t (id UUID NOT NULL DEFAULT UUID_v4() PRIMARY KEY)", target=target)
        assert finding.fix == (
            "ALTER TABLE `t` DROP PRIMARY KEY, ADD COLUMN `row_id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY "
            "FIRST, ADD UNIQUE KEY (`id`);"
        )
        assert "On MariaDB 11.7+ DEFAULT UUID_v7() makes new values time-ordered" in finding.message


def test_a_comment_must_name_the_ordering_not_just_a_version() -> None:
    assert flagged("id CHAR(36) NOT NULL COMMENT 'public id, API v7' PRIMARY KEY")


def test_surrogate_name_avoids_the_uuid_column_called_id() -> None:
    finding = one("CREATE TABLE attachments (id CHAR(36) NOT NULL PRIMARY KEY, row_id INT)", target="mysql-5.7")
    assert finding.fix == (
        "ALTER TABLE `attachments` DROP PRIMARY KEY, ADD COLUMN `row_id2` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT "
        "PRIMARY KEY FIRST, ADD UNIQUE KEY (`id`);"
    )


def test_other_targets_unique_fallback_key() -> None:
    finding = one("CREATE TABLE t (uuid CHAR(36) NOT NULL, UNIQUE KEY u (uuid))", target="mariadb-10.6")
    assert finding.fix == (
        "ALTER TABLE `t` DROP INDEX `u`, ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST, "
        "ADD UNIQUE KEY (`uuid`);"
    )


def test_auto_increment_fix_runs_on_mariadb(mariadb: MariaDB) -> None:
    """The non-MySQL-8 fix is valid SQL that keeps the rows and clusters on the new id (MariaDB has
    no UUID_TO_BIN, so the MySQL 8 fix cannot run here)."""
    [finding] = run("CREATE TABLE fix_uuid.t (uuid CHAR(36) NOT NULL PRIMARY KEY, v INT)", target="mariadb-10.11")
    assert finding.fix is not None
    mariadb.sql(
        "CREATE DATABASE IF NOT EXISTS fix_uuid; CREATE OR REPLACE TABLE fix_uuid.t (uuid CHAR(36) NOT NULL PRIMARY KEY, v INT);"
        "INSERT INTO fix_uuid.t SELECT UUID(), seq FROM fix_uuid.seq_1_to_20;"
    )
    mariadb.sql(finding.fix)
    rows = mariadb.sql("SELECT COUNT(*), COUNT(DISTINCT uuid), MIN(id), MAX(id) FROM fix_uuid.t")
    keys = mariadb.sql(
        "SELECT INDEX_NAME, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS "
        "WHERE TABLE_SCHEMA = 'fix_uuid' AND TABLE_NAME = 't' ORDER BY INDEX_NAME"
    )
    mariadb.sql("DROP DATABASE fix_uuid")
    assert rows == [(20, 20, 1, 20)]
    assert keys == [("PRIMARY", "id", 0), ("uuid", "uuid", 0)]


# -- end to end: the comment annotation through the real pipeline ------------------------------------
def test_comment_annotations_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("linter.input.source")
    from tests.helpers import findings, lint_sql

    report = lint_sql(
        "-- innolint: insert-heavy\nCREATE TABLE clicks (id CHAR(36) NOT NULL PRIMARY KEY);\n"
        "CREATE TABLE users (id CHAR(36) NOT NULL PRIMARY KEY);\n"
        "CREATE TABLE orders (id BINARY(16) NOT NULL PRIMARY KEY); -- innolint: time-ordered\n",
        tmp_path,
    )
    assert {f.table: f.severity for f in findings(report, RULE)} == {"clicks": "error", "users": "info"}


# -- applying the fix to the model clears the finding ------------------------------------------------
@pytest.mark.parametrize("target", ["mysql-8.0", "mysql-5.7", "mariadb-10.11"])
@pytest.mark.parametrize(
    "create",
    [
        "CREATE TABLE t (uuid CHAR(36) NOT NULL, v INT, PRIMARY KEY (uuid))",
        "CREATE TABLE t (id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID())) PRIMARY KEY, v INT)",
        "CREATE TABLE t (uuid VARCHAR(36) NOT NULL, v INT NOT NULL, PRIMARY KEY (uuid, v))",
        "CREATE TABLE t (uuid CHAR(36) NOT NULL, v INT, UNIQUE KEY u (uuid))",
    ],
)
def test_the_fix_replayed_on_the_model_clears_the_finding(create: str, target: str) -> None:
    [finding] = run(create, target=target)
    assert finding.fix is not None
    statements = [s.strip().rstrip(";") for s in finding.fix.split(";\n") if s.strip()]  # as the splitter gives them
    assert run(create, *statements, target=target) == []
