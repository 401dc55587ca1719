"""link-table-primary-key: many-to-many tables clustered on a surrogate key are found from
foreign keys, names matched to tables and keys; entities, logs, histories, translations and
EAV tables are not; each fix is exact.

Models are built through the real parser and replay (as tests/test_parse.py does).
"""

from __future__ import annotations

import pytest

from checks.link_table_primary_key import LinkTablePrimaryKey
from linter.rules.checkapi import CheckContext
from linter.rules.findings import Finding
from linter.parse.elements import Location
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from tests.mariadb import MariaDB

RULE = "link-table-primary-key"
ENTITIES = (
    "CREATE TABLE user (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100))",
    "CREATE TABLE `group` (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100))",
)


def run(*statements: str, entities: tuple[str, ...] = ENTITIES) -> list[Finding]:
    replayer = Replayer()
    for n, text in enumerate((*entities, *statements), start=1):
        problem = replayer.apply(parse_statement(text), Location("t.sql", n))
        assert problem is None, problem
    return list(LinkTablePrimaryKey().run(replayer.model, CheckContext()))


def one(*statements: str, **kwargs: tuple[str, ...]) -> Finding:
    [finding] = run(*statements, **kwargs)
    assert finding.rule == RULE
    return finding


def link_table(columns: str, *, surrogate: str = "id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY",
               name: str = "user_group", engine: str = "InnoDB") -> str:
    return f"CREATE TABLE {name} ({surrogate}, {columns}) ENGINE={engine}"


FK_PAIR = (
    "user_id INT UNSIGNED NOT NULL, group_id INT UNSIGNED NOT NULL, "
    "FOREIGN KEY (user_id) REFERENCES user (id), FOREIGN KEY (group_id) REFERENCES `group` (id)"
)


# -- detection ------------------------------------------------------------------------------------
def test_foreign_key_pair_with_unique_key_takes_the_unique_order_and_replaces_it() -> None:
    finding = one(link_table(FK_PAIR + ", UNIQUE KEY group_user (group_id, user_id), KEY user_id (user_id)"))
    assert finding.severity == "warning" and finding.table == "user_group" and finding.line == 3
    assert finding.fix == (
        "ALTER TABLE `user_group` DROP PRIMARY KEY, DROP INDEX `group_user`, ADD PRIMARY KEY (`group_id`, `user_id`), "
        "ADD KEY (`id`);"
    )
    assert finding.evidence == (
        "link columns group_id -> group (FOREIGN KEY), user_id -> user (FOREIGN KEY); current key PRIMARY KEY (`id`) "
        "AUTO_INCREMENT; UNIQUE group_user on the pair"
    )
    assert "duplicate" not in finding.message
    assert finding.subject == "group_id,user_id"


def test_without_unique_key_the_foreign_key_order_and_the_duplicates_query() -> None:
    finding = one(link_table(
        "group_id INT UNSIGNED NOT NULL, user_id INT UNSIGNED NOT NULL, "
        "FOREIGN KEY (user_id) REFERENCES user (id), FOREIGN KEY (group_id) REFERENCES `group` (id)"
    ))
    # (the server already has a key on group_id: the one it made for the foreign key)
    assert finding.fix == "ALTER TABLE `user_group` DROP PRIMARY KEY, ADD PRIMARY KEY (`user_id`, `group_id`), ADD KEY (`id`);"
    assert (
        "No UNIQUE key covers (`user_id`, `group_id`): duplicate pairs must go first; this lists them: "
        "SELECT `user_id`, `group_id`, COUNT(*) AS copies FROM `user_group` GROUP BY `user_id`, `group_id` "
        "HAVING COUNT(*) > 1;"
    ) in finding.message


def test_key_on_the_second_column_is_added_only_when_no_index_starts_with_it() -> None:
    with_index = one(link_table(FK_PAIR + ", KEY by_group (group_id, user_id)"))
    assert with_index.fix == "ALTER TABLE `user_group` DROP PRIMARY KEY, ADD PRIMARY KEY (`user_id`, `group_id`), ADD KEY (`id`);"
    later = one(link_table(FK_PAIR + ", KEY by_user (user_id, group_id)"))  # (the FK's own key on group_id stays)
    assert later.fix is not None and later.fix.endswith("ADD KEY (`id`);")
    unindexed = one(link_table("user_id INT UNSIGNED NOT NULL, group_id INT UNSIGNED NOT NULL, KEY by_user (user_id)"))
    assert unindexed.fix is not None and unindexed.fix.endswith("ADD KEY (`id`), ADD KEY (`group_id`);")


def test_an_existing_index_on_the_surrogate_is_kept_instead_of_added() -> None:
    finding = one(link_table(FK_PAIR + ", UNIQUE KEY id_unique (id), KEY group_id (group_id)"))
    assert finding.fix == "ALTER TABLE `user_group` DROP PRIMARY KEY, ADD PRIMARY KEY (`user_id`, `group_id`);"


def test_message_has_the_numbers_and_names_both_sides() -> None:
    finding = one(link_table(FK_PAIR))
    assert finding.message.startswith(
        "user_group links user and group through (`user_id`, `group_id`) but is clustered on its surrogate "
        "AUTO_INCREMENT key `id`"
    )
    assert "up to 30,000 page reads/s" in finding.message and "~588 page reads/s" in finding.message
    assert "inserts go in random key order and secondary indexes carry the wider key" in finding.message


def test_column_level_references() -> None:
    finding = one(link_table(
        "user_id INT UNSIGNED NOT NULL REFERENCES user (id), group_id INT UNSIGNED NOT NULL REFERENCES `group` (id)"
    ))
    assert "user_id -> user (FOREIGN KEY), group_id -> group (FOREIGN KEY)" in (finding.evidence or "")


@pytest.mark.parametrize(
    ("entities", "columns", "evidence"),
    [
        # plural table names
        (("CREATE TABLE users (id INT PRIMARY KEY)", "CREATE TABLE categories (id INT PRIMARY KEY)"),
         "user_id INT NOT NULL, category_id INT NOT NULL", "user_id -> users (name), category_id -> categories (name)"),
        # a table prefix that three or more tables share, and camelCase ids
        (("CREATE TABLE oc_product (product_id INT PRIMARY KEY)", "CREATE TABLE oc_coupon (coupon_id INT PRIMARY KEY)",
          "CREATE TABLE oc_order (order_id INT PRIMARY KEY)"),
         "CouponId INT NOT NULL, ProductId INT NOT NULL", "CouponId -> oc_coupon (name), ProductId -> oc_product (name)"),
        # a column named like another table's key column
        (("CREATE TABLE stack (stack_id INT PRIMARY KEY)", "CREATE TABLE ext (extension_id INT PRIMARY KEY)"),
         "stack_id INT NOT NULL, extension_id INT NOT NULL", "stack_id -> stack (name), extension_id -> ext (name)"),
        # the last words of the column name (zone_country_id -> countries)
        (("CREATE TABLE countries (id INT PRIMARY KEY)", "CREATE TABLE geo_zones (id INT PRIMARY KEY)"),
         "zone_country_id INT NOT NULL, geo_zone_id INT NOT NULL",
         "zone_country_id -> countries (name), geo_zone_id -> geo_zones (name)"),
    ],
)
def test_names_matched_to_tables_of_the_input(entities: tuple[str, ...], columns: str, evidence: str) -> None:
    finding = one(link_table(columns, name="link"), entities=entities)
    assert evidence in (finding.evidence or "")


def test_a_name_matching_no_table_counts_when_a_unique_key_pairs_it() -> None:
    """Request Tracker's GroupMembers: MemberId points at Principals, which no name says."""
    sql = ("CREATE TABLE GroupMembers (id INT NOT NULL AUTO_INCREMENT, GroupId INT NOT NULL, MemberId INT NOT NULL, "
           "Creator INT NOT NULL, Created DATETIME, LastUpdatedBy INT NOT NULL, LastUpdated DATETIME, PRIMARY KEY (id))")
    entities = ("CREATE TABLE `Groups` (id INT PRIMARY KEY)",)
    assert not run(sql, entities=entities)
    finding = one(sql, "CREATE UNIQUE INDEX GroupMembers1 ON GroupMembers (GroupId, MemberId)", entities=entities)
    assert finding.fix == (
        "ALTER TABLE `GroupMembers` DROP PRIMARY KEY, DROP INDEX `GroupMembers1`, ADD PRIMARY KEY (`GroupId`, `MemberId`), "
        "ADD KEY (`id`), ADD KEY (`MemberId`);"
    )
    assert "MemberId -> ? (name only)" in (finding.evidence or "")
    assert "other columns: Creator (bookkeeping), Created (bookkeeping), LastUpdatedBy (bookkeeping), LastUpdated (bookkeeping)" in (
        finding.evidence or "")


def test_mediawiki_column_prefixes() -> None:
    """echo_target_page: `etp_` prefixes every column; etp_event names echo_event, and etp_page
    (the core `page` table, outside this file) is paired with it by a composite index."""
    entities = ("CREATE TABLE echo_event (event_id INT PRIMARY KEY)", "CREATE TABLE echo_notification (n INT PRIMARY KEY)",
                "CREATE TABLE echo_email_batch (b INT PRIMARY KEY)")
    sql = ("CREATE TABLE echo_target_page (etp_id INT UNSIGNED AUTO_INCREMENT NOT NULL, etp_page INT UNSIGNED DEFAULT 0 NOT NULL, "
           "etp_event INT UNSIGNED DEFAULT 0 NOT NULL, INDEX echo_target_page_event (etp_event), "
           "INDEX echo_target_page_page_event (etp_page, etp_event), PRIMARY KEY(etp_id))")
    finding = one(sql, entities=entities)
    assert finding.fix == "ALTER TABLE `echo_target_page` DROP PRIMARY KEY, ADD PRIMARY KEY (`etp_page`, `etp_event`), ADD KEY (`etp_id`);"


def test_three_references() -> None:
    entities = (*ENTITIES, "CREATE TABLE project (id INT PRIMARY KEY)")
    finding = one(link_table(
        "user_id INT NOT NULL, group_id INT NOT NULL, project_id INT NOT NULL, "
        "UNIQUE KEY u (project_id, user_id, group_id)", name="grants"), entities=entities)
    assert finding.fix == (
        "ALTER TABLE `grants` DROP PRIMARY KEY, DROP INDEX `u`, ADD PRIMARY KEY (`project_id`, `user_id`, `group_id`), "
        "ADD KEY (`id`), ADD KEY (`user_id`);"
    )


def test_bookkeeping_and_up_to_two_small_attributes_are_allowed() -> None:
    columns = (FK_PAIR + ", created_at DATETIME, created_by INT, updated_at TIMESTAMP, sort_order INT, deleted TINYINT(1), "
               "role VARCHAR(20) NOT NULL, permission ENUM('view','edit')")
    finding = one(link_table(columns))
    assert "other columns: created_at (bookkeeping), created_by (bookkeeping), updated_at (bookkeeping), " \
           "sort_order (bookkeeping), deleted (bookkeeping), role (attribute), permission (attribute)" in (finding.evidence or "")
    assert not run(link_table(columns + ", is_admin BOOL"))


def test_reference_words_that_look_like_bookkeeping_are_still_references() -> None:
    entities = ("CREATE TABLE orders (id INT PRIMARY KEY)", "CREATE TABLE products (id INT PRIMARY KEY)")
    finding = one(link_table("order_id INT NOT NULL, product_id INT NOT NULL, sort_order INT, created_by_id INT",
                             name="order_product"), entities=entities)
    assert "order_id -> orders (name), product_id -> products (name)" in (finding.evidence or "")
    assert "sort_order (bookkeeping), created_by_id (bookkeeping)" in (finding.evidence or "")


def test_application_assigned_surrogate() -> None:
    finding = one(link_table(FK_PAIR, surrogate="link_id BIGINT NOT NULL PRIMARY KEY", name="membership"))
    assert "surrogate application-assigned key `link_id`" in finding.message
    assert finding.fix == (  # (the foreign key's own key on group_id stays)
        "ALTER TABLE `membership` DROP PRIMARY KEY, ADD PRIMARY KEY (`user_id`, `group_id`), ADD KEY (`link_id`);"
    )


def test_nullable_link_column_gets_a_note() -> None:
    finding = one(link_table(
        "user_id INT UNSIGNED NOT NULL, group_id INT UNSIGNED, "
        "FOREIGN KEY (user_id) REFERENCES user (id), FOREIGN KEY (group_id) REFERENCES `group` (id)"
    ))
    assert ("group_id may be NULL: the fix makes it NOT NULL, which fails while a row holds NULL there; this counts "
            "them first: SELECT COUNT(*) FROM `user_group` WHERE `group_id` IS NULL;") in finding.message
    assert "MODIFY COLUMN `group_id` INT UNSIGNED NOT NULL, ADD PRIMARY KEY (`user_id`, `group_id`)" in (finding.fix or "")


@pytest.mark.parametrize(("engine", "severity"), [("MyISAM", "info"), ("Aria", "info"), ("@ZM_MYSQL_ENGINE@", "warning")])
def test_engine_decides_the_severity(engine: str, severity: str) -> None:
    finding = one(link_table(FK_PAIR, engine=engine))
    assert finding.severity == severity
    assert ("applies once the table moves to InnoDB" in finding.message) == (severity == "info")


def test_schema_qualified_fix() -> None:
    finding = one("USE shop", link_table(FK_PAIR), entities=("USE shop", *ENTITIES))
    assert finding.fix is not None and finding.fix.startswith("ALTER TABLE `shop`.`user_group` DROP PRIMARY KEY")


# -- exclusions -----------------------------------------------------------------------------------
def test_already_composite_or_no_key_gets_nothing() -> None:
    assert not run(
        "CREATE TABLE user_group (user_id INT NOT NULL, group_id INT NOT NULL, PRIMARY KEY (user_id, group_id), "
        "FOREIGN KEY (user_id) REFERENCES user (id), FOREIGN KEY (group_id) REFERENCES `group` (id))"
    )
    assert not run("CREATE TABLE user_group (user_id INT NOT NULL REFERENCES user (id), group_id INT NOT NULL REFERENCES `group` (id))")


@pytest.mark.parametrize(
    "extra",
    [
        "name VARCHAR(255) NOT NULL",  # an entity of its own
        "quantity INT NOT NULL, price DECIMAL(10, 2) NOT NULL",  # an order line
        "value TEXT",  # EAV
        "description VARCHAR(500)",
        "is_owner BOOL, is_admin BOOL, muted BOOL",  # three attributes: more than a link
    ],
)
def test_payload_makes_it_an_entity(extra: str) -> None:
    assert not run(link_table(f"{FK_PAIR}, {extra}"))


def test_translation_tables_are_not_links() -> None:
    entities = (*ENTITIES, "CREATE TABLE language (id INT PRIMARY KEY)")
    assert not run(link_table("user_id INT NOT NULL REFERENCES user (id), language_id INT NOT NULL REFERENCES language (id)",
                              name="user_description"), entities=entities)


@pytest.mark.parametrize("name", ["user_group_log", "membership_history", "group_audit", "login_logs"])
def test_logs_are_not_links(name: str) -> None:
    assert not run(link_table(FK_PAIR, name=name))


def test_a_log_unique_by_its_time_beside_the_pair_is_no_link() -> None:
    """cacti's user_log (username, user_id, time): the pair repeats, one row a login; a soft-delete
    stamp that is no time type (apollo's DeletedAt BIGINT) or a link table not named as a log keeps
    its finding."""
    stamped = ", time TIMESTAMP NOT NULL, UNIQUE KEY u (user_id, group_id, time)"
    assert not run(link_table(FK_PAIR + stamped, name="user_group_log"))
    assert run(link_table(FK_PAIR + stamped))
    assert run(link_table(FK_PAIR + ", deleted_at BIGINT NOT NULL, UNIQUE KEY u (user_id, group_id, deleted_at)",
                          name="user_group_log"))


def test_the_columns_of_one_composite_foreign_key_are_one_side() -> None:
    """Quartz's QRTZ_CRON_TRIGGERS: (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP) is one foreign key to one
    parent, a 1:1 extension of its row: no pair, whichever key the table is clustered on."""
    parent = "CREATE TABLE triggers (sched VARCHAR(60) NOT NULL, name VARCHAR(60) NOT NULL, PRIMARY KEY (sched, name))"
    columns = ("sched VARCHAR(60) NOT NULL, name VARCHAR(60) NOT NULL, cron VARCHAR(60), "
               "FOREIGN KEY (sched, name) REFERENCES triggers (sched, name)")
    assert not run(link_table(columns + ", UNIQUE KEY u (sched, name)", name="cron_triggers"),
                   entities=(*ENTITIES, parent))
    two = ("sched VARCHAR(60) NOT NULL, name VARCHAR(60) NOT NULL, user_id INT UNSIGNED NOT NULL, "
           "FOREIGN KEY (sched, name) REFERENCES triggers (sched, name), FOREIGN KEY (user_id) REFERENCES user (id), "
           "UNIQUE KEY u (user_id, sched, name)")
    assert run(link_table(two, name="trigger_watchers"), entities=(*ENTITIES, parent))  # a second parent: a pair


def test_a_validity_period_is_a_history_of_links() -> None:
    assert not run(link_table(FK_PAIR + ", from_date DATE NOT NULL, to_date DATE NOT NULL"))
    assert not run(link_table(FK_PAIR + ", valid_from DATETIME, valid_until DATETIME"))


def test_a_unique_key_that_adds_a_soft_delete_stamp_to_the_pair_still_identifies_the_row_by_it() -> None:
    """Apollo's UserRole: UNIQUE (UserId, RoleId, DeletedAt): a soft-deleted link can come back, and the
    live rows are still one per pair, read by one side (issue 34: this was a miss). The key the fix
    gives it is the UNIQUE key's, the stamp included."""
    finding = one(link_table(FK_PAIR + ", DeletedAt BIGINT NOT NULL DEFAULT 0, UNIQUE KEY u (user_id, group_id, DeletedAt)"))
    assert finding.fix == ("ALTER TABLE `user_group` DROP PRIMARY KEY, DROP INDEX `u`, "
                           "ADD PRIMARY KEY (`user_id`, `group_id`, `DeletedAt`), ADD KEY (`id`);")
    assert "DeletedAt (in the UNIQUE key with the pair)" in finding.message
    # content in the UNIQUE key (a name of its own) is no qualifier: the row is an entity
    assert not run(link_table(FK_PAIR + ", title VARCHAR(200) NOT NULL, UNIQUE KEY u (user_id, group_id, title)"))


def test_rows_other_tables_reference_have_an_identity_of_their_own() -> None:
    assert run(link_table(FK_PAIR))
    assert not run(link_table(FK_PAIR), "CREATE TABLE grant_note (id INT PRIMARY KEY, membership_id INT UNSIGNED, "
                                        "FOREIGN KEY (membership_id) REFERENCES user_group (id))")


def test_a_key_that_is_another_tables_id_is_not_a_surrogate() -> None:
    """zencart product_music_extra: PRIMARY KEY (products_id) extends products one to one."""
    entities = ("CREATE TABLE products (products_id INT PRIMARY KEY)", "CREATE TABLE artists (id INT PRIMARY KEY)",
                "CREATE TABLE genres (id INT PRIMARY KEY)")
    sql = "CREATE TABLE music_extra (products_id INT NOT NULL PRIMARY KEY, artist_id INT NOT NULL, genre_id INT NOT NULL)"
    assert not run(sql, entities=entities)
    assert not run("CREATE TABLE music_extra (pid INT NOT NULL PRIMARY KEY REFERENCES products (products_id), "
                   "artist_id INT NOT NULL, genre_id INT NOT NULL)", entities=entities)


def test_a_parent_reference_is_a_hierarchy() -> None:
    entities = ("CREATE TABLE instance (id INT PRIMARY KEY)", "CREATE TABLE task (id INT PRIMARY KEY)")
    assert not run("CREATE TABLE relation (id INT AUTO_INCREMENT PRIMARY KEY, parent_instance_id INT NOT NULL, "
                   "instance_id INT NOT NULL, task_id INT NOT NULL)", entities=entities)


def test_names_alone_with_every_column_optional_are_not_enough() -> None:
    """mall's ums_member_member_tag_relation shape: no foreign key, no index, both nullable."""
    entities = ("CREATE TABLE member (id INT PRIMARY KEY)", "CREATE TABLE tag (id INT PRIMARY KEY)")
    assert not run(link_table("member_id BIGINT NULL, tag_id BIGINT NULL", name="member_tag"), entities=entities)
    assert run(link_table("member_id BIGINT NOT NULL, tag_id BIGINT NULL", name="member_tag"), entities=entities)
    assert run(link_table("member_id BIGINT NULL, tag_id BIGINT NULL, KEY (member_id, tag_id)", name="member_tag"),
               entities=entities)


def test_names_matching_no_table_without_a_key_pairing_them_are_not_links() -> None:
    assert not run(link_table("user_id INT NOT NULL, widget_id INT NOT NULL"), entities=("CREATE TABLE user (id INT PRIMARY KEY)",))
    # a UNIQUE key on the pair says it is the row's identity, whether or not the entities are in the input
    assert run(link_table("widget_id INT NOT NULL, gadget_id INT NOT NULL, UNIQUE KEY (widget_id, gadget_id)"), entities=())


def test_one_or_four_references_are_not_links() -> None:
    entities = (*ENTITIES, "CREATE TABLE project (id INT PRIMARY KEY)", "CREATE TABLE team (id INT PRIMARY KEY)")
    assert not run(link_table("user_id INT NOT NULL REFERENCES user (id)"), entities=entities)
    assert not run(link_table("user_id INT NOT NULL, group_id INT NOT NULL, project_id INT NOT NULL, team_id INT NOT NULL"),
                   entities=entities)


def test_a_tree_is_not_a_link() -> None:
    assert not run(link_table("parent_id INT UNSIGNED REFERENCES user_group (id), user_id INT UNSIGNED NOT NULL REFERENCES user (id)"))


def test_view_standins_and_temporary_tables_are_skipped() -> None:
    assert not run(link_table(FK_PAIR).replace("CREATE TABLE", "CREATE TEMPORARY TABLE"))


def test_the_message_weighs_the_width_the_pair_costs() -> None:
    """The trade in bytes per row, as wide-primary-key counts a clustered key (which then says nothing:
    the weighing is this rule's): what each secondary index carries of the pair after the fix,
    against what the indexes carry of the surrogate now."""
    narrow = one(link_table(FK_PAIR + ", UNIQUE KEY pair (user_id, group_id)"))
    assert ("Here the pair is up to 8 bytes as an index holds it, the surrogate 4: after the fix its 2 secondary "
            "indexes carry up to 12 bytes of it per row (`group_id` 4, KEY (`id`) 8) where they carry 8 of the "
            "surrogate now (beside the UNIQUE key on the pair the new key replaces)") in narrow.message
    wide = one(link_table(
        "user_id VARCHAR(64) NOT NULL, group_id INT UNSIGNED NOT NULL, created DATETIME, UNIQUE KEY pair (user_id, group_id), "
        "KEY (created), FOREIGN KEY (group_id) REFERENCES `group` (id)",
        surrogate="id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY") + " DEFAULT CHARSET=utf8mb4")
    # VARCHAR(64) utf8mb4: 256 + 2 length bytes, and the INT: 262 in `created` and KEY (id), 258 in group_id's key
    assert ("its 3 secondary indexes carry up to 782 bytes of it per row (`created` 262, `group_id` 258, KEY (`id`) "
            "262) where they carry 24 of the surrogate now") in wide.message


def test_the_width_the_message_gives_is_what_the_server_stores(mariadb: MariaDB) -> None:
    """The claim measured: InnoDB's page count of a secondary index that carried the 8-byte id and
    carries the 200-character pair after the fix (mysql.innodb_index_stats)."""
    ddl = ("CREATE TABLE user_group (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id VARCHAR(200) NOT NULL, "
           "group_id INT UNSIGNED NOT NULL, created INT NOT NULL, UNIQUE KEY pair (user_id, group_id), KEY by_created "
           "(created), KEY by_group (group_id)) ENGINE=InnoDB DEFAULT CHARSET=latin1 STATS_PERSISTENT=1")
    finding = one(ddl)
    assert "`by_created` 205" in finding.message and finding.fix is not None
    mariadb.sql("DROP DATABASE IF EXISTS link_width; CREATE DATABASE link_width")
    try:
        mariadb.sql(ddl, database="link_width")
        mariadb.sql("INSERT INTO user_group (user_id, group_id, created) SELECT CONCAT(LPAD(seq, 10, '0'), "
                    "REPEAT('x', 190)), seq % 50, seq FROM seq_1_to_4000", database="link_width")

        def pages() -> int:
            mariadb.sql("ANALYZE TABLE user_group", database="link_width")
            return int(mariadb.sql("SELECT stat_value FROM mysql.innodb_index_stats WHERE database_name = 'link_width' "
                                   "AND table_name = 'user_group' AND index_name = 'by_created' AND stat_name = 'size'")[0][0])

        before = pages()
        mariadb.sql(finding.fix, database="link_width")
        mariadb.sql("OPTIMIZE TABLE user_group", database="link_width")
        after = pages()
        assert after > 8 * before, (before, after)  # 4 + 8 bytes an entry before, 4 + 205 after
    finally:
        mariadb.sql("DROP DATABASE IF EXISTS link_width")


# -- the fix runs ----------------------------------------------------------------------------------
def test_fix_runs_on_mariadb_and_clusters_on_the_pair(mariadb: MariaDB) -> None:
    [finding] = run(
        "CREATE TABLE user_group (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id INT UNSIGNED NOT NULL, "
        "group_id INT UNSIGNED NOT NULL, UNIQUE KEY ug (user_id, group_id), "
        "FOREIGN KEY (user_id) REFERENCES user (id), FOREIGN KEY (group_id) REFERENCES `group` (id))"
    )
    assert finding.fix is not None
    mariadb.sql(
        "CREATE DATABASE IF NOT EXISTS fix_link; USE fix_link;"
        "CREATE TABLE user (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY);"
        "CREATE TABLE `group` (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY);"
        "CREATE TABLE user_group (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id INT UNSIGNED NOT NULL, "
        "group_id INT UNSIGNED NOT NULL, UNIQUE KEY ug (user_id, group_id), "
        "FOREIGN KEY (user_id) REFERENCES user (id), FOREIGN KEY (group_id) REFERENCES `group` (id));"
        "INSERT INTO user SELECT seq FROM seq_1_to_5; INSERT INTO `group` SELECT seq FROM seq_1_to_3;"
        "INSERT INTO user_group (user_id, group_id) SELECT u.id, g.id FROM user u JOIN `group` g;"
    )
    mariadb.sql(finding.fix, database="fix_link")
    mariadb.sql("INSERT INTO user_group (user_id, group_id) VALUES (1, 1) ON DUPLICATE KEY UPDATE id = id", database="fix_link")
    keys = mariadb.sql(
        "SELECT INDEX_NAME, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX), MIN(NON_UNIQUE) FROM information_schema.STATISTICS "
        "WHERE TABLE_SCHEMA = 'fix_link' AND TABLE_NAME = 'user_group' GROUP BY INDEX_NAME ORDER BY INDEX_NAME"
    )
    rows = mariadb.sql("SELECT COUNT(*), MAX(id) FROM user_group", database="fix_link")
    mariadb.sql("DROP DATABASE fix_link")
    assert keys == [("group_id", "group_id", 1), ("id", "id", 1), ("PRIMARY", "user_id,group_id", 0)]
    assert rows == [(15, 15)]


def test_the_fix_replayed_on_the_model_clears_the_finding() -> None:
    for columns in (FK_PAIR, FK_PAIR + ", UNIQUE KEY ug (group_id, user_id)", FK_PAIR + ", KEY (group_id), role TINYINT"):
        [finding] = run(link_table(columns))
        assert finding.fix is not None
        assert run(link_table(columns), finding.fix.rstrip(";")) == []
