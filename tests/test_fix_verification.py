"""Every fix innolint emits must run, and must make its finding go away.

On a real MariaDB 10.11 (target mariadb-10.11): each case creates the offending table, reads it
back through `innolint audit` (SHOW CREATE TABLE, the same parse path as files), applies the fix
exactly as emitted, reads SHOW CREATE TABLE again and lints again: the finding must be gone, and
what the fix was not meant to change (a column's charset, default, comment, a JSON check) must
still be there. A fix that does not run is a bug.

Then the same over the whole corpus: every table the corpus files create on a server, copied into
scratch databases, audited, every fix applied, audited again.

MariaDB cannot run MySQL-8-only syntax (UUID_TO_BIN, COMPRESSION=, CREATE TABLESPACE, Percona's
compression dictionaries): those fixes are checked at parse level, by linting the DDL followed by
the fix and asserting the finding is gone.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymysql
import pytest

from checks import ALL_CHECKS
from linter.audit.connection import connect
from linter.audit.server import AuditOptions, read_server, run_checks
from linter.rules.checkapi import CheckContext, ColumnMeasurement, TableStats
from linter.rules.findings import Finding, Report
from linter.schema.target import Target
from tests import sampling
from tests.corpus_server import CorpusServer
from tests.helpers import lint_sql
from tests.mariadb import MariaDB

TARGET = "mariadb-10.11"


def audit(server: MariaDB, schemas: list[str], *, sample: int = 0, options: dict[str, Any] | None = None,
          target: str = TARGET) -> Report:
    with connect(f"mysql://root@/?socket={server.socket}") as connection:
        found = read_server(connection, schemas, AuditOptions(sample=sample), stderr=io.StringIO())
    return run_checks(found, CheckContext(target=Target.parse(target), options=options or {}))


def show_create(server: MariaDB, schema: str, table: str) -> str:
    return str(server.sql(f"SHOW CREATE TABLE `{schema}`.`{table}`")[0][1])


@dataclass(frozen=True)
class Case:
    """An offending table, the finding it must get, and what the fixed table must still have."""

    id: str
    rule: str
    table: str
    ddl: str
    data: str = ""
    fix_has: str = ""  # a piece of the fix that says the intended variant was emitted
    keeps: tuple[str, ...] = ()  # pieces of SHOW CREATE TABLE the fix must not lose
    severity: str | None = None
    sample: int = 0
    options: dict[str, Any] = field(default_factory=dict)


def CompressionCase(*args: Any, **kwargs: Any) -> Case:  # noqa: N802
    """A compression case: the audit knows the table's size, so the size floor is lowered to
    these few-kilobyte tables (else the finding is, rightly, not worth a line)."""
    kwargs.setdefault("options", {"compression-candidate": {"min_size": 1}})
    return Case(*args, **kwargs)


CASES = [
    # -- no-primary-key -------------------------------------------------------------------------
    Case("npk-plain", "no-primary-key", "event_log",
         "CREATE TABLE event_log (created_at DATETIME NOT NULL, message TEXT) ENGINE=InnoDB",
         data="INSERT INTO event_log VALUES (NOW(), 'a'), (NOW(), 'b')",
         fix_has="ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE PRIMARY KEY FIRST",
         keeps=("`id` bigint(20) unsigned NOT NULL INVISIBLE AUTO_INCREMENT",), severity="warning"),
    Case("npk-id-taken", "no-primary-key", "hits",
         "CREATE TABLE hits (id INT, url VARCHAR(200)) ENGINE=InnoDB",
         data="INSERT INTO hits VALUES (1, 'x'), (1, 'y')", fix_has="ADD COLUMN `row_id`"),
    Case("npk-nullable-unique", "no-primary-key", "account",
         "CREATE TABLE account (email VARCHAR(100), name VARCHAR(50), UNIQUE KEY uq_email (email)) ENGINE=InnoDB",
         data="INSERT INTO account VALUES ('a@x', 'a'), ('b@x', 'b')",
         fix_has="DROP INDEX `uq_email`, ADD PRIMARY KEY (`email`)"),
    Case("npk-auto-increment-key", "no-primary-key", "ticket",
         "CREATE TABLE ticket (n INT NOT NULL AUTO_INCREMENT, title VARCHAR(50), KEY (n)) ENGINE=InnoDB",
         fix_has="ADD PRIMARY KEY (`n`)"),
    Case("npk-prefix-unique", "no-primary-key", "page",
         "CREATE TABLE page (title VARCHAR(255) NOT NULL, UNIQUE KEY uq_title (title(100))) ENGINE=InnoDB",
         fix_has="ADD COLUMN `id`", keeps=("UNIQUE KEY `uq_title` (`title`(100))",)),
    Case("npk-unique-clustered", "no-primary-key", "country",
         "CREATE TABLE country (code CHAR(2) NOT NULL, name VARCHAR(50), UNIQUE KEY uq_code (code)) ENGINE=InnoDB",
         fix_has="DROP INDEX `uq_code`, ADD PRIMARY KEY (`code`)", severity="info"),
    Case("npk-key-dropped", "no-primary-key", "metric",
         "CREATE TABLE metric (k VARCHAR(20) NOT NULL, v INT, PRIMARY KEY (k)) ENGINE=InnoDB; "
         "ALTER TABLE metric DROP PRIMARY KEY", fix_has="ADD COLUMN `id`"),
    Case("npk-partitioned", "no-primary-key", "reading",
         "CREATE TABLE reading (taken DATE NOT NULL, value INT) ENGINE=InnoDB "
         "PARTITION BY RANGE (YEAR(taken)) (PARTITION p0 VALUES LESS THAN (2020), PARTITION p1 VALUES LESS THAN MAXVALUE)",
         data="INSERT INTO reading VALUES ('2019-01-01', 1), ('2024-01-01', 2)",
         keeps=("PARTITION BY RANGE",)),
    Case("npk-partitioned-by-key", "no-primary-key", "shard_row",
         "CREATE TABLE shard_row (tenant INT NOT NULL, v INT) ENGINE=InnoDB PARTITION BY HASH (tenant) PARTITIONS 4",
         keeps=("PARTITION BY HASH (`tenant`)",)),
    # -- uuid-primary-key -----------------------------------------------------------------------
    Case("uuid-text", "uuid-primary-key", "audit_event",
         "CREATE TABLE audit_event (id CHAR(36) NOT NULL DEFAULT (UUID()), created_at DATETIME NOT NULL, "
         "PRIMARY KEY (id)) ENGINE=InnoDB",
         data="INSERT INTO audit_event (created_at) VALUES (NOW()), (NOW())",
         fix_has="DROP PRIMARY KEY, ADD COLUMN `row_id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST",
         keeps=("UNIQUE KEY `id` (`id`)",), severity="info"),  # two inserts: not insert-heavy
    Case("uuid-binary-referenced", "uuid-primary-key", "customer",
         "CREATE TABLE customer (uuid BINARY(16) NOT NULL, name VARCHAR(50), PRIMARY KEY (uuid)) ENGINE=InnoDB; "
         "CREATE TABLE invoice (id INT PRIMARY KEY, customer_uuid BINARY(16) NOT NULL, "
         "FOREIGN KEY (customer_uuid) REFERENCES customer (uuid)) ENGINE=InnoDB",
         data="INSERT INTO customer VALUES (UNHEX(REPLACE(UUID(), '-', '')), 'a')",
         fix_has="ADD UNIQUE KEY (`uuid`)"),
    Case("uuid-unique-clustered", "uuid-primary-key", "device",
         "CREATE TABLE device (guid VARCHAR(36) NOT NULL, label VARCHAR(40), UNIQUE KEY uq_guid (guid)) ENGINE=InnoDB",
         fix_has="DROP INDEX `uq_guid`, ADD COLUMN `id`"),
    Case("uuid-composite", "uuid-primary-key", "doc_part",
         "CREATE TABLE doc_part (doc_uuid CHAR(36) NOT NULL, part INT NOT NULL, body TEXT, "
         "PRIMARY KEY (doc_uuid, part)) ENGINE=InnoDB", fix_has="ADD UNIQUE KEY (`doc_uuid`, `part`)"),
    # -- link-table-primary-key -----------------------------------------------------------------
    Case("link-unique-pair", "link-table-primary-key", "user_group",
         "CREATE TABLE users (id INT PRIMARY KEY) ENGINE=InnoDB; CREATE TABLE `groups` (id INT PRIMARY KEY) ENGINE=InnoDB; "
         "CREATE TABLE user_group (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id INT NOT NULL, "
         "group_id INT NOT NULL, created_at DATETIME, UNIQUE KEY uq_user_group (user_id, group_id), "
         "FOREIGN KEY (user_id) REFERENCES users (id), FOREIGN KEY (group_id) REFERENCES `groups` (id)) ENGINE=InnoDB",
         fix_has="DROP PRIMARY KEY, DROP INDEX `uq_user_group`, ADD PRIMARY KEY (`user_id`, `group_id`)",
         keeps=("FOREIGN KEY (`user_id`)", "FOREIGN KEY (`group_id`)")),
    Case("link-no-unique", "link-table-primary-key", "post_tag",
         "CREATE TABLE post (id INT PRIMARY KEY) ENGINE=InnoDB; CREATE TABLE tag (id INT PRIMARY KEY) ENGINE=InnoDB; "
         "CREATE TABLE post_tag (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, post_id INT NOT NULL, "
         "tag_id INT NOT NULL, FOREIGN KEY (post_id) REFERENCES post (id), "
         "FOREIGN KEY (tag_id) REFERENCES tag (id)) ENGINE=InnoDB",
         fix_has="ADD PRIMARY KEY (`post_id`, `tag_id`)"),
    # -- redundant-index -----------------------------------------------------------------------------
    Case("redundant-prefix-fk", "redundant-index", "orders",
         "CREATE TABLE customer (id INT PRIMARY KEY) ENGINE=InnoDB; "
         "CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, placed DATE, "
         "KEY fk_customer (customer_id), KEY customer_placed (customer_id, placed), "
         "CONSTRAINT fk_customer FOREIGN KEY (customer_id) REFERENCES customer (id)) ENGINE=InnoDB",
         fix_has="DROP INDEX `fk_customer`", keeps=("CONSTRAINT `fk_customer` FOREIGN KEY", "KEY `customer_placed`")),
    Case("redundant-primary-suffix", "redundant-index", "message",
         "CREATE TABLE message (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, thread INT NOT NULL, "
         "KEY thread_id (thread, id), KEY thread (thread)) ENGINE=InnoDB",
         fix_has="DROP INDEX `thread`", keeps=("KEY `thread_id` (`thread`,`id`)",)),
    Case("redundant-unnamed", "redundant-index", "account",
         "CREATE TABLE account (id INT PRIMARY KEY, email VARCHAR(100) UNIQUE, KEY (email)) ENGINE=InnoDB",
         fix_has="DROP INDEX `email_2`", keeps=("UNIQUE KEY `email` (`email`)",)),
    # -- auto-increment-capacity ---------------------------------------------------------------------
    Case("autoinc-unsigned", "auto-increment-capacity", "ticket",
         "CREATE TABLE ticket (id INT NOT NULL AUTO_INCREMENT COMMENT 'ticket number', "
         "title VARCHAR(50), PRIMARY KEY (id)) ENGINE=InnoDB AUTO_INCREMENT=1300000000",
         data="INSERT INTO ticket (title) VALUES ('a'), ('b')",
         fix_has="MODIFY COLUMN `id` INT UNSIGNED NOT NULL AUTO_INCREMENT COMMENT 'ticket number'",
         keeps=("COMMENT 'ticket number'", "AUTO_INCREMENT=1300000002"), severity="warning"),
    Case("autoinc-referenced", "auto-increment-capacity", "node",
         "CREATE TABLE node (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, parent_id INT NULL CHECK (parent_id <> 0), "
         "CONSTRAINT fk_parent FOREIGN KEY (parent_id) REFERENCES node (id) ON DELETE CASCADE) "
         "ENGINE=InnoDB AUTO_INCREMENT=1900000000; "
         "CREATE TABLE edge (node_id INT NOT NULL, other INT NOT NULL, PRIMARY KEY (node_id, other), "
         "CONSTRAINT fk_edge FOREIGN KEY (node_id) REFERENCES node (id) ON UPDATE CASCADE) ENGINE=InnoDB",
         data="INSERT INTO node (parent_id) VALUES (NULL); INSERT INTO node (parent_id) VALUES (1900000000); "
              "INSERT INTO edge VALUES (1900000001, 7)",
         fix_has="MODIFY COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT, MODIFY COLUMN `parent_id` BIGINT UNSIGNED",
         keeps=("CONSTRAINT `fk_parent` FOREIGN KEY (`parent_id`) REFERENCES `node` (`id`) ON DELETE CASCADE",
                "`id` bigint(20) unsigned NOT NULL AUTO_INCREMENT", "CHECK (`parent_id` <> 0)"), severity="error"),
    # -- foreign-key-mismatch (loaded as a dump loads it: the child first, foreign_key_checks=0) ------
    Case("fk-sign", "foreign-key-mismatch", "orders",
         "SET foreign_key_checks = 0; CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL COMMENT 'buyer', "
         "KEY (customer_id), CONSTRAINT fk_buyer FOREIGN KEY (customer_id) REFERENCES customer (id) ON DELETE CASCADE) "
         "ENGINE=InnoDB; CREATE TABLE customer (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB",
         fix_has="MODIFY COLUMN `customer_id` INT UNSIGNED NOT NULL COMMENT 'buyer'",
         keeps=("CONSTRAINT `fk_buyer` FOREIGN KEY (`customer_id`) REFERENCES `customer` (`id`) ON DELETE CASCADE",),
         severity="error"),
    Case("fk-collation", "foreign-key-mismatch", "post",
         "SET foreign_key_checks = 0; CREATE TABLE post (id INT PRIMARY KEY, lang VARCHAR(5) CHARACTER SET utf8mb4 "
         "COLLATE utf8mb4_bin, FOREIGN KEY (lang) REFERENCES language (code) ON UPDATE CASCADE) ENGINE=InnoDB; "
         "CREATE TABLE language (code VARCHAR(8) NOT NULL PRIMARY KEY) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
         fix_has="MODIFY COLUMN `lang` VARCHAR(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci",
         keeps=("REFERENCES `language` (`code`) ON UPDATE CASCADE",)),
    Case("fk-non-unique", "foreign-key-mismatch", "shipment",
         "CREATE TABLE warehouse (id INT PRIMARY KEY, code CHAR(4) NOT NULL, KEY (code)) ENGINE=InnoDB; "
         "CREATE TABLE shipment (id INT PRIMARY KEY, wh CHAR(4), FOREIGN KEY (wh) REFERENCES warehouse (code)) ENGINE=InnoDB",
         data="INSERT INTO warehouse VALUES (1, 'BER1'), (2, 'LON1')",
         fix_has="ALTER TABLE `fx_fk_non_unique`.`warehouse` ADD UNIQUE KEY (`code`)", severity="warning"),
    Case("fk-chain", "foreign-key-mismatch", "viewinstance",
         "CREATE TABLE viewmain (view_name VARCHAR(255) NOT NULL PRIMARY KEY) ENGINE=InnoDB; "
         "CREATE TABLE viewinstance (view_name VARCHAR(100) NOT NULL, name VARCHAR(100) NOT NULL, "
         "PRIMARY KEY (view_name, name), CONSTRAINT fk_vi FOREIGN KEY (view_name) REFERENCES viewmain (view_name)) "
         "ENGINE=InnoDB; CREATE TABLE viewentity (id INT PRIMARY KEY, view_name VARCHAR(100) NOT NULL, "
         "instance VARCHAR(100) NOT NULL, KEY (view_name, instance), CONSTRAINT fk_ve FOREIGN KEY (view_name, instance) "
         "REFERENCES viewinstance (view_name, name) ON DELETE CASCADE) ENGINE=InnoDB",
         data="INSERT INTO viewmain VALUES ('files'); INSERT INTO viewinstance VALUES ('files', 'a'); "
              "INSERT INTO viewentity VALUES (1, 'files', 'a')",
         fix_has="ALTER TABLE `fx_fk_chain`.`viewentity` MODIFY COLUMN `view_name` VARCHAR(255) NOT NULL",
         keeps=("CONSTRAINT `fk_vi` FOREIGN KEY (`view_name`) REFERENCES `viewmain` (`view_name`)",),
         severity="warning"),
    # -- wide-primary-key --------------------------------------------------------------------------
    Case("wide-natural-key", "wide-primary-key", "member",
         "CREATE TABLE member (email VARCHAR(255) NOT NULL, name VARCHAR(80), joined DATE, PRIMARY KEY (email), "
         "KEY (name), KEY (joined)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4; "
         "CREATE TABLE login (at DATETIME NOT NULL, email VARCHAR(255) NOT NULL, KEY (email), "
         "FOREIGN KEY (email) REFERENCES member (email) ON DELETE CASCADE) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
         data="INSERT INTO member VALUES ('a@example.org', 'a', '2024-01-01'), ('b@example.org', 'b', NULL); "
              "INSERT INTO login VALUES (NOW(), 'a@example.org')",
         fix_has="DROP PRIMARY KEY, ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE FIRST",
         keeps=("UNIQUE KEY `email` (`email`)", "PRIMARY KEY (`id`)"), severity="warning"),
    # -- compression-candidate (MariaDB: column COMPRESSED or PAGE_COMPRESSED) ---------------------
    CompressionCase("comp-json", "compression-candidate", "order_event",
         "CREATE TABLE order_event (id BIGINT PRIMARY KEY, payload JSON NOT NULL) ENGINE=InnoDB",
         fix_has="MODIFY COLUMN `payload` JSON COMPRESSED NOT NULL",
         keeps=("CHECK (json_valid(`payload`))",), severity="warning"),
    CompressionCase("comp-text-check", "compression-candidate", "note",
         "CREATE TABLE note (id INT PRIMARY KEY, body MEDIUMTEXT NOT NULL CHECK (body <> ''), "
         "doc MEDIUMTEXT CHECK (CHAR_LENGTH(doc) < 100000)) ENGINE=InnoDB",
         fix_has="MODIFY COLUMN `body` MEDIUMTEXT COMPRESSED NOT NULL CHECK (`body` <> '')",
         keeps=("CHECK (`body` <> '')", "CHECK (char_length(`doc`) < 100000)")),
    CompressionCase("comp-text-attributes", "compression-candidate", "article",
         "CREATE TABLE article (id INT PRIMARY KEY, body MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE "
         "utf8mb4_unicode_ci NULL DEFAULT NULL COMMENT 'the article''s text') ENGINE=InnoDB",
         fix_has="MODIFY COLUMN `body` MEDIUMTEXT COMPRESSED CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
         keeps=("CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci DEFAULT NULL COMMENT 'the article''s text'",)),
    CompressionCase("comp-indexed", "compression-candidate", "note",
         "CREATE TABLE note (id INT PRIMARY KEY, content TEXT, KEY k_content (content(20))) ENGINE=InnoDB",
         fix_has="PAGE_COMPRESSED=1"),
    CompressionCase("comp-blob-and-varchar", "compression-candidate", "message_store",
         "CREATE TABLE message_store (id INT PRIMARY KEY, payload LONGBLOB, headers_data VARCHAR(5000)) ENGINE=InnoDB",
         fix_has="MODIFY COLUMN `payload` LONGBLOB COMPRESSED NULL"),
    CompressionCase("comp-measured", "compression-candidate", "app_log",
         "CREATE TABLE app_log (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, message TEXT NOT NULL) ENGINE=InnoDB",
         data="INSERT INTO app_log (message) SELECT CONCAT('2024-05-01T12:00:', LPAD(seq % 60, 2, '0'), "
              "'Z INFO [http-nio-8080-exec-', seq % 40, '] c.e.shop.web.RequestLoggingFilter - GET /api/orders/', "
              "seq * 7919 % 100000, ' status=200 duration_ms=', seq % 900) FROM seq_1_to_400",
         sample=200, options={"compression-candidate": {"min_size": 1}},
         fix_has="PAGE_COMPRESSED=1", severity="warning"),
    # -- row-size-limit, index-key-length, zero-date-default, charset-portability, non-innodb-engine --
    Case("rows-compact", "row-size-limit", "survey_answer",
         "SET SESSION innodb_strict_mode=OFF; CREATE TABLE survey_answer (id INT PRIMARY KEY, "
         + ", ".join(f"q{n} VARCHAR(255)" for n in range(12)) + ") DEFAULT CHARSET=utf8mb4 ROW_FORMAT=COMPACT",
         fix_has="ROW_FORMAT=DYNAMIC", severity="error"),
    Case("key-hashed", "index-key-length", "page",
         "CREATE TABLE page (id INT PRIMARY KEY, url VARCHAR(1000) NOT NULL COMMENT 'where', UNIQUE KEY uq_url (url)) "
         "DEFAULT CHARSET=utf8mb4",
         fix_has="MODIFY COLUMN `url` VARCHAR(768)", keeps=("COMMENT 'where'", "UNIQUE KEY `uq_url` (`url`)"),
         severity="warning"),
    Case("zero-date", "zero-date-default", "invoice",
         "CREATE TABLE invoice (id INT PRIMARY KEY, paid_on DATE NULL DEFAULT '2020-01-01', "
         "touched TIMESTAMP NOT NULL DEFAULT '0000-00-00 00:00:00' ON UPDATE CURRENT_TIMESTAMP)",
         data="INSERT INTO invoice (id) VALUES (1)", fix_has="`touched` TIMESTAMP NULL DEFAULT NULL ON UPDATE",
         keeps=("ON UPDATE current_timestamp()", "DEFAULT '2020-01-01'"),
         severity="warning"),
    Case("charset-utf8mb3", "charset-portability", "comment",
         "CREATE TABLE comment (id INT PRIMARY KEY, body TEXT COMMENT 'the text', author VARCHAR(40) NOT NULL) "
         "DEFAULT CHARSET=utf8 COLLATE=utf8_unicode_ci",
         data="INSERT INTO comment VALUES (1, 'x', 'y')", fix_has="CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
         keeps=("COMMENT 'the text'", "`author` varchar(40) NOT NULL")),
    Case("engine-myisam", "non-innodb-engine", "order_log",
         "CREATE TABLE orders (id INT PRIMARY KEY) ENGINE=InnoDB; CREATE TABLE order_log (id INT NOT NULL, "
         "n INT NOT NULL AUTO_INCREMENT, body VARCHAR(100), PRIMARY KEY (id, n)) ENGINE=MyISAM ROW_FORMAT=FIXED",
         data="INSERT INTO order_log (id, body) VALUES (1, 'a'), (1, 'b')",
         fix_has="ENGINE=InnoDB, ROW_FORMAT=DYNAMIC, ADD KEY `n` (`n`)", keeps=("PRIMARY KEY (`id`,`n`)",)),
]


@pytest.fixture(scope="module")
def fixes(mariadb: MariaDB) -> Iterator[MariaDB]:
    yield mariadb
    for case in CASES:
        mariadb.sql(f"DROP DATABASE IF EXISTS `fx_{case.id.replace('-', '_')}`")


def _matching(report: Report, case: Case) -> list[Finding]:
    return [f for f in report.findings if f.rule == case.rule and f.table == case.table]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fix_runs_on_mariadb_and_the_finding_is_gone(fixes: MariaDB, case: Case) -> None:
    server, schema = fixes, f"fx_{case.id.replace('-', '_')}"
    server.sql(f"DROP DATABASE IF EXISTS `{schema}`; CREATE DATABASE `{schema}`")
    server.sql(case.ddl, database=schema)
    if case.data:
        server.sql(case.data, database=schema)
        server.sql(f"ANALYZE TABLE `{case.table}`", database=schema)
    before = _matching(audit(server, [schema], sample=case.sample, options=case.options), case)
    assert len(before) == 1, before
    finding = before[0]
    assert finding.fix, f"{case.rule} on {case.table}: no fix"
    assert case.fix_has in finding.fix, finding.fix
    if case.severity:
        assert finding.severity == case.severity
    try:
        server.sql(finding.fix, database=schema)
    except pymysql.err.MySQLError as error:
        pytest.fail(f"the fix does not run on {server.version}: {error}\n{finding.fix}")
    ddl = show_create(server, schema, case.table)
    after = [f for f in _matching(audit(server, [schema], sample=case.sample, options=case.options), case)
             if f.subject == finding.subject]
    assert after == [], f"still there after the fix:\n{finding.fix}\n{ddl}"
    for piece in case.keeps:
        assert piece in ddl, f"the fix lost {piece!r}:\n{finding.fix}\n{ddl}"


def test_every_check_is_covered_for_mariadb() -> None:
    """A check that gains a fix must gain a case here. Those without a case emit no fix on
    MariaDB: tenant-tablespace is info there (no general tablespaces), the other two are silent;
    or none from a live server: the rules about a change judge statements, which a server's
    tables are not (their fixes are verified in their own tests), and reserved-word writes no
    ALTER (a rename is a change of the application's queries)."""
    covered = {case.rule for case in CASES}
    no_fix_on_mariadb = {"tenant-tablespace", "cross-tenant-tablespace", "undefined-tablespace"}
    no_fix_from_a_server = {"refused-ddl", "blocking-alter", "destructive-change", "edited-migration", "reserved-word"}
    assert covered | no_fix_on_mariadb | no_fix_from_a_server == {check.id for check in ALL_CHECKS}
    assert not covered & no_fix_from_a_server


def test_tablespace_rules_emit_no_fix_for_mariadb(tmp_path: Path) -> None:
    tenants = "\n".join(
        f"CREATE DATABASE t{n}; USE t{n}; CREATE TABLE orders (id INT PRIMARY KEY) TABLESPACE {'t1' if n == 2 else f't{n}'};"
        f" CREATE TABLE users (id INT PRIMARY KEY); CREATE TABLE items (id INT PRIMARY KEY);" for n in range(1, 5))
    report = lint_sql(tenants, tmp_path, target=TARGET)
    rules = {f.rule: f for f in report.findings}
    assert rules["tenant-tablespace"].severity == "info" and rules["tenant-tablespace"].fix is None
    assert "cross-tenant-tablespace" not in rules and "undefined-tablespace" not in rules


# --- the corpus: every fix the audit emits for any table the corpus creates --------------------------

def _copy_databases(server: MariaDB, databases: list[str], prefix: str) -> dict[str, str]:
    """Copy every base table of ``databases`` (SHOW CREATE TABLE, foreign keys and all) into
    `prefix`+name, so fixes can be applied without touching the tables the oracle reads."""
    copies = {db: prefix + db for db in databases}
    connection = server.connect()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET SESSION foreign_key_checks = 0, sql_mode = ''")
            for db, copy in copies.items():
                cursor.execute(f"DROP DATABASE IF EXISTS `{copy}`")
                cursor.execute(f"CREATE DATABASE `{copy}`")
                cursor.execute("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = %s "
                               "AND TABLE_TYPE = 'BASE TABLE'", (db,))
                for (table,) in cursor.fetchall():
                    cursor.execute(f"SHOW CREATE TABLE `{db}`.`{table}`")
                    ddl = cursor.fetchone()[1]
                    cursor.execute(f"USE `{copy}`")
                    cursor.execute(ddl)
    finally:
        connection.close()
    return copies


#: The order fixes are applied in, each round's computed from the audit after the one before, as a
#: person applying them one at a time would: charset-portability's MODIFY/CONVERT and
#: compression-candidate's MODIFY both write a column's whole definition, so two of them computed
#: from one audit would undo each other (the second writes the column as it was before the first).
FIX_ROUNDS: tuple[Callable[[str], bool], ...] = (
    lambda rule: rule != "charset-portability",
    lambda rule: rule == "charset-portability",
)


def _key(finding: Finding) -> tuple[str, str | None, str | None, str | None]:
    return (finding.rule, finding.schema, finding.table, finding.subject)


#: the corpus tables are empty: compression-candidate flags them all
_EVERY_SIZE = {"compression-candidate": {"min_size": 1}}


def _swept_databases(server: MariaDB, databases: list[str]) -> tuple[list[str], set[str]]:
    """The corpus databases the fix sweep copies and fixes: under INNOLINT_EXHAUSTIVE every one
    (71 databases, 949 fixes of 10 rules: ~30 s); else a seeded, rotating third of them that holds
    every rule with a fix (for each rule, one of the databases with such a fix, drawn in turn),
    chosen by an audit of the originals (tests/sampling.py). With the rules that have a fix there
    (none asked for under INNOLINT_EXHAUSTIVE)."""
    if sampling.exhaustive():
        return databases, set()
    with_fix: dict[str, set[str]] = {}
    for finding in audit(server, databases, options=_EVERY_SIZE).findings:
        if finding.fix and finding.schema:
            with_fix.setdefault(finding.rule, set()).add(finding.schema)
    stream = sampling.rng("fix sweep")
    chosen = {stream.choice(sorted(found)) for _, found in sorted(with_fix.items())}
    rest = [db for db in databases if db not in chosen]
    stream.shuffle(rest)
    return sorted(chosen | set(rest[: max(0, len(databases) // 3 - len(chosen))])), set(with_fix)


def test_every_fix_emitted_on_the_corpus_runs_and_works(corpus_server: CorpusServer) -> None:
    server = corpus_server.server
    started = time.monotonic()
    swept, rules = _swept_databases(server, [db for db in corpus_server.databases() if db != "mysql"])
    copies = sorted(_copy_databases(server, swept, "fx_").values())
    copied = time.monotonic() - started
    every_size = _EVERY_SIZE
    before = audit(server, copies, options=every_size)
    fixable: list[Finding] = []
    failures: list[str] = []
    current = before
    for in_round in FIX_ROUNDS:
        found = [f for f in current.findings if f.fix and in_round(f.rule)]
        for finding in found:
            try:
                server.sql(finding.fix or "", database=finding.schema)
            except pymysql.err.MySQLError as error:
                failures.append(f"{finding.schema}.{finding.table} [{finding.rule}] {error}\n    {finding.fix}")
        fixable.extend(found)
        current = audit(server, copies, options=every_size)
    after = current
    remaining = {_key(f) for f in after.findings}
    failed = {(f.schema, f.table) for f in fixable if any(f"{f.schema}.{f.table} [{f.rule}]" in x for x in failures)}
    still = [f"{k[1]}.{k[2]} [{k[0]}]" for k in sorted({_key(f) for f in fixable} & remaining, key=str)
             if (k[1], k[2]) not in failed]
    # A fix may only bring a new finding in one known way: no-primary-key's surrogate `id` on a
    # table without any unique key turns a link table (phpbb_user_group: group_id, user_id) into
    # one clustered on a surrogate, which link-table-primary-key then flags (its fix: the pair as
    # the key). no-primary-key cannot offer the pair itself: without a unique key on it, rows may
    # repeat, and the duplicates must go first (link-table-primary-key says how).
    # And more: link-table-primary-key's fix clusters the table on the pair, which makes the
    # index the table had on the pair (or on its first column: a foreign key's) a prefix or a
    # duplicate of the new PRIMARY KEY, which redundant-index then rightly flags.
    # non-innodb-engine's ENGINE=InnoDB makes the table one the InnoDB rules judge
    # (no-primary-key, compression-candidate...); the rules it judged the conversion with
    # (row-size-limit, index-key-length) and itself must not find anything new there. And
    # charset-portability's utf8mb4 takes 4 bytes a character where utf8mb3 took 3: a long VARCHAR
    # can become large enough for compression-candidate to rank it, and a string primary key wide
    # enough for wide-primary-key to flag it.
    known = {(f.rule, f.schema, f.table) for f in before.findings}
    surrogate_added = {(f.schema, f.table) for f in fixable if f.rule == "no-primary-key" and "ADD COLUMN" in (f.fix or "")}
    pair_clustered = {(f.schema, f.table) for f in fixable if f.rule == "link-table-primary-key"}
    # (one finding of a schema mostly of such engines converts each of its tables: every table its fix names)
    made_innodb = {(f.schema, table) for f in fixable if f.rule == "non-innodb-engine"
                   for table in re.findall(r"ALTER TABLE\s+(?:`[^`]+`\.)?`([^`]+)`\s+ENGINE\s*=\s*InnoDB", f.fix or "")}
    made_innodb |= {(f.schema, f.table) for f in fixable if f.rule == "non-innodb-engine"}
    widened = {(f.schema, f.table) for f in fixable if f.rule == "charset-portability"}
    new = sorted(f"{f.schema}.{f.table} [{f.rule}]" for f in after.findings
                 if (f.rule, f.schema, f.table) not in known
                 and not (f.rule == "link-table-primary-key" and (f.schema, f.table) in surrogate_added)
                 and not (f.rule == "redundant-index" and (f.schema, f.table) in pair_clustered
                          and "PRIMARY KEY" in f.message)
                 and not ((f.schema, f.table) in made_innodb
                          and f.rule not in ("non-innodb-engine", "row-size-limit", "index-key-length"))
                 and not (f.rule in ("compression-candidate", "wide-primary-key") and (f.schema, f.table) in widened))
    by_rule: dict[str, int] = {}
    for finding in fixable:
        by_rule[finding.rule] = by_rule.get(finding.rule, 0) + 1
    print(f"\nfix sweep: {len(copies)} databases chosen and copied in {copied:.1f} s ({sampling.rerun()}); "
          f"{len(fixable)} fixes ({by_rule}), {len(failures)} failed, {len(still)} left their finding; "
          f"{time.monotonic() - started:.1f} s")
    assert failures == [], "\n".join([sampling.rerun(), *failures])
    assert still == [], "\n".join([sampling.rerun(), *still])
    assert new == [], "\n".join(new)
    assert rules <= set(by_rule), (sampling.rerun(), rules - set(by_rule))  # every rule with a fix was swept
    assert len(fixable) > (200 if sampling.exhaustive() else 50)


# --- MySQL-8-only fixes: parse-level -----------------------------------------------------------------

@dataclass(frozen=True)
class ParseCase:
    id: str
    target: str
    rule: str
    table: str
    ddl: str
    fix_has: str
    context: dict[str, Any] = field(default_factory=dict)
    #: turns the fix into what is run (e.g. the per-tenant statements the fix's queries print)
    expand: Callable[[str], str] | None = None


def _every_tenant(fix: str) -> str:
    """The fix's CREATE TABLESPACE and ALTER TABLE for tenant t1, written for t1 to t4: what the
    fix's two queries print on a server with those schemas."""
    create, alter = [line for line in fix.splitlines() if line.startswith(("CREATE TABLESPACE", "ALTER TABLE"))]
    return "\n".join(line.replace("t1", f"t{n}") for n in range(1, 5) for line in (create, alter))


TENANTS = "\n".join(f"CREATE DATABASE t{n}; USE t{n}; CREATE TABLE orders (id INT PRIMARY KEY); "
                    "CREATE TABLE users (id INT PRIMARY KEY); CREATE TABLE items (id INT PRIMARY KEY);"
                    for n in range(1, 5))
MEASURED = {"shop.order_event.payload": ColumnMeasurement(
    sampled=200, measured=100, avg_bytes=800.0, ratio_plain=0.5, ratio_dict=0.2, share_too_small=0.0,
    dictionary=b'{"event_type": "order.paid", "customer": {"tier": "plus"}} it\'s \\ fine', table_rows=1000,
    stored_plain=0.5, stored_dict=0.2, ratio_page=0.3)}

PARSE_CASES = [
    ParseCase("uuid-text-mysql8", "mysql-8.0", "uuid-primary-key", "audit_event",
              "CREATE TABLE audit_event (id CHAR(36) NOT NULL DEFAULT (UUID()) PRIMARY KEY, created_at DATETIME NOT NULL);",
              "UUID_TO_BIN(`id`, 1)"),
    ParseCase("uuid-binary-mysql8", "mysql-8.0", "uuid-primary-key", "session",
              "CREATE TABLE session (id BINARY(16) NOT NULL DEFAULT (UUID_TO_BIN(UUID())) PRIMARY KEY, data TEXT);",
              "UUID_TO_BIN(BIN_TO_UUID(`id`), 1)"),
    ParseCase("uuid-unique-mysql8", "mysql-8.4", "uuid-primary-key", "device",
              "CREATE TABLE device (guid CHAR(36) NOT NULL, UNIQUE KEY uq_guid (guid));", "ADD UNIQUE KEY `uq_guid`"),
    ParseCase("npk-mysql8", "mysql-8.0", "no-primary-key", "event_log",
              "CREATE TABLE event_log (created_at DATETIME NOT NULL, message TEXT);", "INVISIBLE PRIMARY KEY"),
    ParseCase("npk-mysql57", "mysql-5.7", "no-primary-key", "event_log",
              "CREATE TABLE event_log (created_at DATETIME NOT NULL, message TEXT);", "AUTO_INCREMENT PRIMARY KEY"),
    ParseCase("comp-mysql8", "mysql-8.0", "compression-candidate", "order_event",
              "CREATE TABLE order_event (id BIGINT PRIMARY KEY, payload JSON NOT NULL);", "COMPRESSION='zlib'"),
    ParseCase("comp-general-tablespace", "mysql-8.0", "compression-candidate", "order_event",
              "CREATE TABLE order_event (id BIGINT PRIMARY KEY, payload JSON NOT NULL) TABLESPACE ts1;",
              "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8"),
    ParseCase("comp-percona", "percona-8.0", "compression-candidate", "order_event",
              "CREATE TABLE order_event (id BIGINT PRIMARY KEY, payload JSON NOT NULL);",
              "CREATE COMPRESSION_DICTIONARY `order_event_payload` (@dict_1)"),
    ParseCase("comp-percona-measured", "percona-8.0", "compression-candidate", "order_event",
              "USE shop; CREATE TABLE order_event (id BIGINT PRIMARY KEY, payload JSON NOT NULL);",
              "CREATE COMPRESSION_DICTIONARY `order_event_payload` ('{\"event_type\"",
              context={"measurements": MEASURED, "stats": {"shop.order_event": TableStats(rows=1000, data_length=2 << 30)}}),
    ParseCase("tenant-mysql8", "mysql-8.0", "tenant-tablespace", "orders", TENANTS,
              "CREATE TABLESPACE `t1` ADD DATAFILE 't1.ibd' ENGINE=InnoDB", expand=_every_tenant),
    ParseCase("cross-tenant", "mysql-8.0", "cross-tenant-tablespace", "orders",
              "\n".join(f"CREATE DATABASE t{n}; USE t{n}; CREATE TABLE orders (id INT PRIMARY KEY) TABLESPACE t1; "
                        f"CREATE TABLE users (id INT PRIMARY KEY) TABLESPACE t{n}; "
                        f"CREATE TABLE items (id INT PRIMARY KEY) TABLESPACE t{n};" for n in range(1, 5)),
              "ALTER TABLE `t2`.`orders` TABLESPACE `t2`;"),
    ParseCase("rows-mysql8", "mysql-8.0", "row-size-limit", "wide",
              "CREATE TABLE wide (id INT PRIMARY KEY, " + ", ".join(f"c{n} VARCHAR(100)" for n in range(90))
              + ") DEFAULT CHARSET=latin1;", "MODIFY COLUMN `c0` TEXT"),
    ParseCase("zero-date-mysql8", "mysql-8.4", "zero-date-default", "invoice",
              "CREATE TABLE invoice (id INT PRIMARY KEY, paid_on DATETIME NOT NULL DEFAULT '0000-00-00 00:00:00');",
              "MODIFY COLUMN `paid_on` DATETIME NULL DEFAULT NULL"),
    ParseCase("charset-mysql8", "mysql-8.0", "charset-portability", "note",
              "CREATE TABLE note (id INT PRIMARY KEY, body TEXT) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_uca1400_ai_ci;",
              "CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_ai_ci"),
]


@pytest.mark.parametrize("case", PARSE_CASES, ids=lambda c: c.id)
def test_mysql_only_fix_parses_and_the_finding_is_gone(case: ParseCase, tmp_path: Path) -> None:
    report = lint_sql(case.ddl, tmp_path, target=case.target, **case.context)
    found = [f for f in report.findings if f.rule == case.rule and f.table == case.table]
    assert found, report.findings
    finding = found[0]
    assert finding.fix and case.fix_has in finding.fix, finding.fix
    fix = case.expand(finding.fix) if case.expand else finding.fix
    fixed = lint_sql(case.ddl + "\n" + fix, tmp_path, target=case.target, name="fixed.sql", **case.context)
    assert not [d for d in fixed.diagnostics if d.rule == "parse-error"], fixed.diagnostics
    assert not [f for f in fixed.findings if f.rule == case.rule and f.table == case.table
                and f.subject == finding.subject and f.schema == finding.schema], fix


@pytest.mark.parametrize(("target", "ddl", "written", "as_said"), [
    ("mysql-8.0", "CREATE TABLE page (id INT PRIMARY KEY, url VARCHAR(1000), KEY k_url (url)) DEFAULT CHARSET=utf8mb4;",
     "KEY k_url (url)", "INDEX `k_url` (`url`(768))"),
    ("mysql-5.7", "CREATE TABLE account (id INT PRIMARY KEY, email VARCHAR(255), UNIQUE KEY uq (email)) "
     "DEFAULT CHARSET=utf8mb4 ROW_FORMAT=COMPACT;", "ROW_FORMAT=COMPACT", "ROW_FORMAT=DYNAMIC"),
    ("mariadb-10.11", "CREATE TABLE doc (id INT PRIMARY KEY, code VARCHAR(1000) NOT NULL, UNIQUE KEY uc (code) "
     "USING BTREE) CHARSET utf8mb4;", "code VARCHAR(1000) NOT NULL", "`code` VARCHAR(768) NOT NULL"),
])
def test_a_refused_statement_is_said_as_it_should_be_written(tmp_path: Path, target: str, ddl: str, written: str,
                                                            as_said: str) -> None:
    """The server refuses the whole statement for the key, and the replay follows it (linter/schema/
    key_refusals.py): no ALTER can fix a table that was never made, so the finding has no fix and
    says what to write in the statement instead. Written so, the statement is taken, and the
    finding is gone."""
    found = [f for f in lint_sql(ddl, tmp_path, target=target).findings if f.rule == "index-key-length"]
    assert len(found) == 1 and found[0].fix is None, found
    said = found[0].message.split("write ", 1)[1].split(" in it instead")[0]
    assert as_said in said, said
    rewritten = ddl.replace(written, said)
    fixed = lint_sql(rewritten, tmp_path, target=target, name="fixed.sql")
    assert not [f for f in fixed.findings if f.rule == "index-key-length"], (rewritten, fixed.findings)
    assert not [d for d in fixed.diagnostics if d.rule in ("parse-error", "replay-error")], fixed.diagnostics


def test_undefined_tablespace_fix_defines_it(tmp_path: Path) -> None:
    """In a migration history: the fix is the CREATE TABLESPACE that must come first."""
    history = tmp_path / "migrations"
    history.mkdir()
    (history / "V1__orders.sql").write_text("CREATE TABLE orders (id INT PRIMARY KEY) TABLESPACE ts_orders;\n")
    from linter.engine import Unit, Engine

    context = CheckContext(target=Target.parse("mysql-8.0"))
    engine = Engine(context)
    unit = Unit([str(history / "V1__orders.sql")], migration_format="flyway", is_migration_history=True)
    found = [f for f in engine.lint_unit(unit, context).findings if f.rule == "undefined-tablespace"]
    assert len(found) == 1 and found[0].fix == "CREATE TABLESPACE `ts_orders` ADD DATAFILE 'ts_orders.ibd' ENGINE=InnoDB;"
    (history / "V0__tablespace.sql").write_text(found[0].fix + "\n")
    unit = Unit([str(history / "V0__tablespace.sql"), str(history / "V1__orders.sql")], migration_format="flyway",
                is_migration_history=True)
    assert not [f for f in engine.lint_unit(unit, context).findings if f.rule == "undefined-tablespace"]
