"""Every MySQL form sqlglot 30 does not parse on its own, with the model it must give.

Each case goes through the real parser and replay (`build`), never a hand-made model.
"""

from __future__ import annotations

import pytest

from linter.parse import ops
from linter.parse.elements import Location
from linter.schema.model import SchemaModel, Table
from linter.parse.tokens import ParseFailure
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer


def build(*statements: str) -> SchemaModel:
    replayer = Replayer()
    for n, text in enumerate(statements, start=1):
        problem = replayer.apply(parse_statement(text), Location("t.sql", n))
        assert problem is None, problem
    return replayer.model


def table(*statements: str, name: str = "t", schema: str | None = None) -> Table:
    found = build(*statements).find_table(schema, name)
    assert found is not None
    return found


def test_tablespace_without_equals_mysqldump_form() -> None:
    t = table("CREATE TABLE t (id int PRIMARY KEY) /*comment*/ TABLESPACE ts ENGINE=InnoDB")
    assert t.options.tablespace == "ts"
    assert t.options.engine == "InnoDB"
    assert table("CREATE TABLE t (id int) TABLESPACE `innodb_file_per_table`").options.tablespace == "innodb_file_per_table"
    assert table("CREATE TABLE t (id int) TABLESPACE ts STORAGE DISK ENGINE=InnoDB").options.tablespace == "ts"


def test_create_tablespace_add_datafile() -> None:
    model = build("CREATE TABLESPACE `tenant_1` ADD DATAFILE 'tenant_1.ibd' ENGINE=InnoDB")
    space = model.tablespaces["tenant_1"]
    assert (space.name, space.datafile, space.engine) == ("tenant_1", "tenant_1.ibd", "InnoDB")


def test_create_compression_dictionary() -> None:
    model = build("CREATE COMPRESSION_DICTIONARY IF NOT EXISTS numbers ('one two three four five')")
    assert list(model.dictionaries) == ["numbers"]


def test_rename_table_several_pairs() -> None:
    model = build("CREATE TABLE a (id int)", "CREATE TABLE c (id int)", "RENAME TABLE a TO b, c TO db2.d")
    assert model.find_table(None, "a") is None and model.find_table(None, "b") is not None
    assert model.find_table("db2", "d") is not None


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ("CHECKSUM=1", {"CHECKSUM": "1"}),
        ("DATA DIRECTORY='/data/x'", {"DATA DIRECTORY": "/data/x"}),
        ("STATS_PERSISTENT=0 DELAY_KEY_WRITE=1", {"STATS_PERSISTENT": "0", "DELAY_KEY_WRITE": "1"}),
    ],
)
def test_other_table_options(options: str, expected: dict[str, str]) -> None:
    t = table(f"CREATE TABLE t (id int) ENGINE=InnoDB {options}")
    assert t.options.other == expected


def test_compression_options() -> None:
    t = table("CREATE TABLE t (id int) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 COMPRESSION='zlib'")
    assert (t.options.row_format, t.options.key_block_size, t.options.compression) == ("COMPRESSED", 8, "zlib")
    assert table("CREATE TABLE t (id int) ENGINE=InnoDB `PAGE_COMPRESSED`=1").options.page_compressed
    assert table("CREATE TABLE t (id int) PAGE_COMPRESSED='ON'").options.page_compressed


@pytest.mark.parametrize(
    "partition",
    [
        "PARTITION BY HASH (id) PARTITIONS 4",
        "PARTITION BY KEY (id) PARTITIONS 8",
        "PARTITION BY LINEAR HASH (YEAR(d)) PARTITIONS 2",
        "PARTITION BY LIST COLUMNS (region) (PARTITION p0 VALUES IN ('a','b'), PARTITION p1 VALUES IN ('c'))",
        # mysqldump's form: unparenthesised MAXVALUE and ENGINE = InnoDB inside the partition list
        "PARTITION BY RANGE (id)\n(PARTITION p0 VALUES LESS THAN (10) ENGINE = InnoDB,\n"
        " PARTITION p1 VALUES LESS THAN MAXVALUE ENGINE = InnoDB)",
    ],
)
def test_partitioning_kept_as_text(partition: str) -> None:
    t = table(f"CREATE TABLE t (id int NOT NULL, d date, region char(1), PRIMARY KEY (id)) ENGINE=InnoDB {partition}")
    assert t.options.partitioning == partition
    assert t.options.engine == "InnoDB"
    assert t.primary_key is not None


def test_partition_columns() -> None:
    t = table("CREATE TABLE t (id int NOT NULL, d date, `k` int) PARTITION BY RANGE (YEAR(d)) SUBPARTITION BY HASH (`k`)"
              " SUBPARTITIONS 2 (PARTITION p0 VALUES LESS THAN MAXVALUE)")
    assert t.partition_columns == ["d", "k"]
    assert table("CREATE TABLE t (a int, b int) PARTITION BY KEY (a) PARTITIONS 2").partition_columns == ["a"]
    assert table("CREATE TABLE t (a int, b int) PARTITION BY LIST COLUMNS (a, b) (PARTITION p VALUES IN ((1, 2)))").partition_columns == ["a", "b"]


def test_alter_table_tablespace_and_engine() -> None:
    t = table("CREATE TABLE t (id int)", "ALTER TABLE t TABLESPACE ts2, ENGINE=MyISAM")
    assert (t.options.tablespace, t.options.engine) == ("ts2", "MyISAM")
    assert t.changed.line == 2 and t.defined.line == 1


def test_mariadb_column_compressed() -> None:
    t = table("CREATE TABLE t (id int PRIMARY KEY, a TEXT COMPRESSED, b BLOB COMPRESSED=zlib, c TEXT)")
    assert t.column("a").compressed == "zlib"  # type: ignore[union-attr]
    assert t.column("b").compressed == "zlib"  # type: ignore[union-attr]
    assert t.column("c").compressed is None  # type: ignore[union-attr]
    assert t.column("b").type == "BLOB"  # type: ignore[union-attr]


def test_percona_column_format_compressed_with_dictionary() -> None:
    t = table(
        "CREATE TABLE t (id int PRIMARY KEY, doc JSON COLUMN_FORMAT COMPRESSED WITH COMPRESSION_DICTIONARY `dict1` NOT NULL,"
        " plain TEXT COLUMN_FORMAT COMPRESSED, f int COLUMN_FORMAT FIXED)"
    )
    doc = t.column("doc")
    assert doc is not None and (doc.compressed, doc.compression_dictionary, doc.nullable) == ("zlib", "dict1", False)
    assert t.column("plain").compressed == "zlib"  # type: ignore[union-attr]
    assert t.column("f").compressed is None  # type: ignore[union-attr]


def test_spatial_types_and_srid() -> None:
    t = table("CREATE TABLE t (id int PRIMARY KEY, p POINT NOT NULL SRID 4326, g GEOMETRY, poly POLYGON, SPATIAL KEY sp (p))")
    p = t.column("p")
    assert p is not None and (p.type, p.srid, p.nullable) == ("POINT", 4326, False)
    assert t.column("poly").type == "POLYGON"  # type: ignore[union-attr]
    assert [i.kind for i in t.indexes] == ["primary", "spatial"]


def test_inet_types() -> None:
    t = table("CREATE TABLE t (a INET4 NOT NULL, b INET6, PRIMARY KEY (a))")
    assert (t.column("a").type, t.column("b").type) == ("INET4", "INET6")  # type: ignore[union-attr]


def test_named_primary_key() -> None:
    t = table("CREATE TABLE t (id int, PRIMARY KEY `pk` (id))")
    assert t.primary_key is not None and t.primary_key.column_names == ("id",)
    assert t.column("id").nullable is False  # type: ignore[union-attr]


def test_generated_columns() -> None:
    t = table(
        "CREATE TABLE t (a int, v int GENERATED ALWAYS AS (a + 1) VIRTUAL, s int AS (a * 2) STORED,"
        " m int AS (a) PERSISTENT, d int AS (a))"
    )
    kinds = {c.name: c.generated for c in t.columns.values()}
    assert kinds == {"a": None, "v": "virtual", "s": "stored", "m": "stored", "d": "virtual"}


def test_column_attributes_sqlglot_rejects() -> None:
    t = table(
        "CREATE TABLE t (a int(10) unsigned zerofill NOT NULL, b varchar(36) binary, c national varchar(10),"
        " d int STORAGE DISK, e int VISIBLE, f int ENGINE_ATTRIBUTE='{}', g int INVISIBLE)"
    )
    a = t.column("a")
    assert a is not None and (a.type, a.params, a.unsigned, a.nullable) == ("INT", ("10",), True, False)
    assert (t.column("b").type, t.column("b").length, t.column("b").binary) == ("VARCHAR", 36, True)  # type: ignore[union-attr]
    assert (t.column("c").type, t.column("c").charset) == ("VARCHAR", "utf8mb3")  # type: ignore[union-attr]
    assert t.column("g").invisible and not t.column("e").invisible  # type: ignore[union-attr]


def test_long_types() -> None:
    t = table("CREATE TABLE t (a LONG, b LONG VARCHAR NOT NULL, c LONG VARBINARY)")
    assert [(c.type, c.is_large) for c in t.columns.values()] == [("MEDIUMTEXT", True)] * 2 + [("MEDIUMBLOB", True)]
    assert not t.column("b").nullable  # type: ignore[union-attr]


def test_unsigned_float_and_decimal() -> None:
    # sqlglot refuses "Cannot convert FLOAT to unsigned" (piwigo's rating_score FLOAT UNSIGNED)
    t = table("CREATE TABLE t (a float unsigned NOT NULL, c decimal(5,2) unsigned zerofill)")
    assert (t.column("a").type, t.column("a").unsigned) == ("FLOAT", True)  # type: ignore[union-attr]
    assert (t.column("c").params, t.column("c").unsigned) == (("5", "2"), True)  # type: ignore[union-attr]


def test_column_basics() -> None:
    t = table(
        "CREATE TABLE `t` (`id` char(36) NOT NULL DEFAULT (uuid()), n int NULL, e enum('a','b') NOT NULL DEFAULT 'a',"
        " x bigint unsigned NOT NULL AUTO_INCREMENT COMMENT 'key', c text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,"
        " KEY (x))"
    )
    ident = t.column("id")
    assert ident is not None and (ident.type, ident.length, ident.nullable) == ("CHAR", 36, False)
    assert ident.default is not None and "UUID()" in ident.default.upper()
    assert t.column("n").nullable  # type: ignore[union-attr]
    e = t.column("e")
    assert e is not None and e.params == ("'a'", "'b'") and e.default == "'a'"
    x = t.column("x")
    assert x is not None and x.auto_increment and x.unsigned and x.comment == "key"
    c = t.column("c")
    assert c is not None and (c.charset, c.collation) == ("utf8mb4", "utf8mb4_bin")


def test_keys_of_every_kind() -> None:
    t = table(
        "CREATE TABLE t (id int, a varchar(100) NOT NULL, b int, g geometry NOT NULL,"
        " PRIMARY KEY USING BTREE (id), UNIQUE KEY ua (a(10), b DESC) USING BTREE COMMENT 'c', KEY (b),"
        " INDEX ib (b) INVISIBLE, FULLTEXT KEY ft (a), SPATIAL INDEX sg (g), KEY fx ((lower(a))),"
        " CONSTRAINT fk FOREIGN KEY (b) REFERENCES other.parent (id) ON DELETE CASCADE, CHECK (b > 0))"
    )
    kinds = [(i.name, i.kind) for i in t.indexes]
    # in the server's order (SHOW CREATE TABLE): UNIQUE first, FULLTEXT last (`key_order`)
    assert kinds == [("PRIMARY", "primary"), ("ua", "unique"), ("b", "index"), ("ib", "index"), ("sg", "spatial"),
                     ("fx", "index"), ("ft", "fulltext")]
    ua = t.indexes[1]
    assert [(c.name, c.prefix, c.descending) for c in ua.columns] == [("a", 10, False), ("b", None, True)]
    assert t.indexes[3].invisible
    assert t.indexes[5].columns[0].expression
    fk = t.foreign_keys[0]
    assert (fk.name, fk.columns, fk.ref_schema, fk.ref_table, fk.ref_columns) == ("fk", ("b",), "other", "parent", ("id",))
    assert t.body.checks == 1


def test_column_level_references_and_inline_keys() -> None:
    t = table("CREATE TABLE t (id int PRIMARY KEY, u int UNIQUE, p int REFERENCES parent(id), s SERIAL)")
    # (REFERENCES on a column is a foreign key on MariaDB, with the key the server makes for it)
    # (in the server's order: the NOT NULL UNIQUE key of SERIAL before the nullable one)
    assert [(i.name, i.kind) for i in t.indexes] == [("PRIMARY", "primary"), ("s", "unique"), ("u", "unique"),
                                                     ("p", "index")]
    assert t.foreign_keys[0].ref_table == "parent" and t.foreign_keys[0].columns == ("p",)
    s = t.column("s")
    assert s is not None and (s.type, s.unsigned, s.nullable, s.auto_increment) == ("BIGINT", True, False, True)


def test_template_placeholders_do_not_crash() -> None:
    assert table("CREATE TABLE `%TABLE_PREFIX%faq` (id int)", name="%TABLE_PREFIX%faq").name == "%TABLE_PREFIX%faq"
    assert table("CREATE TABLE %TABLE_PREFIX%x (id int)", name="%TABLE_PREFIX%x") is not None
    assert table("CREATE TABLE t (id int) ENGINE=@ZM_MYSQL_ENGINE@").options.engine == "@ZM_MYSQL_ENGINE@"
    assert table("CREATE TABLE /*_*/echo (id int)", name="echo") is not None
    assert table("CREATE TABLE {$db_prefix}log (id int)", name="{$db_prefix}log") is not None


def test_quoted_name_touching_a_keyword() -> None:
    # skeema's fkparent.sql: constraint `nam_clas`FOREIGN KEY (...)REFERENCES ...
    t = table("CREATE TABLE t (a int, b int, constraint `nam_clas`FOREIGN KEY (a, b)REFERENCES `p` (a,b), Foreign  Key(b) referenceS p (b))")
    assert [(f.name, f.columns, f.ref_table) for f in t.foreign_keys] == [("nam_clas", ("a", "b"), "p"), ("t_ibfk_1", ("b",), "p")]  # the name the server generates


def test_qualified_names_and_use() -> None:
    model = build("CREATE DATABASE shop", "USE shop", "CREATE TABLE t (id int)", "CREATE TABLE other.u (id int)")
    assert model.find_table("shop", "t") is not None and model.find_table("other", "u") is not None


def test_replay_alter_actions() -> None:
    # Keys and AFTER name the columns of the table the ALTER builds (a1, c2): MariaDB refuses the
    # same statement with `ADD PRIMARY KEY (a)` or `AFTER c` (errors 1072 and 1054; tests/test_replay.py).
    # The order is MariaDB 10.11's for this statement (SHOW CREATE TABLE): FIRST and AFTER apply.
    t = table(
        "CREATE TABLE t (a int, b int, c int, KEY kb (b))",
        "ALTER TABLE t ADD PRIMARY KEY (a1), DROP INDEX kb, MODIFY COLUMN b bigint NOT NULL AFTER c2,"
        " CHANGE c c2 varchar(10), RENAME COLUMN a TO a1, ADD COLUMN z text FIRST, ADD UNIQUE KEY uz (c2)",
    )
    assert list(t.columns) == ["z", "a1", "c2", "b"]
    assert t.primary_key is not None and t.primary_key.column_names == ("a1",)
    assert t.column("b").type == "BIGINT" and not t.column("b").nullable  # type: ignore[union-attr]
    assert [i.name for i in t.indexes] == ["PRIMARY", "uz"]


def test_replay_drop_and_add_primary_key() -> None:
    t = table("CREATE TABLE t (id int PRIMARY KEY)", "ALTER TABLE t DROP PRIMARY KEY")
    assert t.primary_key is None and t.key_dropped is not None and t.key_dropped.line == 2
    t = table("CREATE TABLE t (id int PRIMARY KEY)", "ALTER TABLE t DROP PRIMARY KEY", "ALTER TABLE t ADD PRIMARY KEY (id)")
    assert t.primary_key is not None and t.key_dropped is None


def test_replay_indexes_statements() -> None:
    t = table("CREATE TABLE t (a int NOT NULL, b text)", "CREATE UNIQUE INDEX ua ON t (a)", "CREATE INDEX ib ON t (b(10))")
    assert [(i.name, i.kind) for i in t.indexes] == [("ua", "unique"), ("ib", "index")]
    t = table("CREATE TABLE t (a int NOT NULL, UNIQUE KEY ua (a))", "DROP INDEX ua ON t")
    assert t.indexes == []


def test_replay_drop_constraint_and_foreign_key() -> None:
    t = table(
        "CREATE TABLE t (a int, CONSTRAINT fk FOREIGN KEY (a) REFERENCES p (id), CONSTRAINT uq UNIQUE (a))",
        "ALTER TABLE t DROP FOREIGN KEY fk",
        "ALTER TABLE t DROP CONSTRAINT uq",
    )
    assert t.foreign_keys == [] and t.indexes == []


def test_create_like_and_select() -> None:
    model = build("CREATE TABLE a (id int PRIMARY KEY, b text)", "CREATE TABLE b LIKE a", "CREATE TABLE c AS SELECT * FROM a",
                  "CREATE TABLE d (LIKE a)")
    b, c, d = (model.find_table(None, n) for n in "bcd")
    assert b is not None and b.origin == "like" and b.primary_key is not None
    assert d is not None and d.primary_key is not None
    assert c is not None and c.origin == "select" and c.primary_key is None


def test_shared_body_is_copied_before_change() -> None:
    op = parse_statement("CREATE TABLE t (id int PRIMARY KEY)")
    replayer = Replayer()
    replayer.apply(ops.SchemaStatement("use", "a"), Location("x", 1))
    replayer.apply(op, Location("x", 2))
    replayer.apply(ops.SchemaStatement("use", "b"), Location("x", 3))
    replayer.apply(op, Location("x", 4))
    replayer.apply(parse_statement("ALTER TABLE t DROP PRIMARY KEY"), Location("x", 5))
    assert replayer.model.find_table("a", "t").primary_key is not None  # type: ignore[union-attr]
    assert replayer.model.find_table("b", "t").primary_key is None  # type: ignore[union-attr]


def test_view_replaces_standin_table_only_once_it_is_dropped() -> None:
    """mysqldump's stand-in (`/*!50001 CREATE TABLE v`) gives way to its view once the dump's
    `DROP TABLE IF EXISTS v` has dropped it; a stand-in never dropped stays a table, and the server
    refuses the view (1050), as for any table (tests/test_view_namespace.py judges both on MariaDB)."""
    replayer = Replayer()
    view = "CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `v` AS select 1 AS `a`"
    assert replayer.apply(parse_statement("CREATE TABLE v (a int)"), Location("t.sql", 1), executable="50001") is None
    assert replayer.apply(parse_statement("DROP TABLE IF EXISTS v"), Location("t.sql", 2), executable="50001") is None
    assert replayer.apply(parse_statement(view), Location("t.sql", 3)) is None
    assert replayer.model.find_table(None, "v") is None
    for name, executable in (("s", "50001"), ("w", None)):
        replayer.apply(parse_statement(f"CREATE TABLE {name} (a int)"), Location("t.sql", 4), executable=executable)
        refusal = str(replayer.apply(parse_statement(view.replace("`v`", f"`{name}`")), Location("t.sql", 5)) or "")
        assert "error 1050" in refusal
        assert ("stand-in" in refusal) == (executable is not None)
        assert replayer.model.find_table(None, name) is not None


@pytest.mark.parametrize(
    "text",
    [
        "INSERT INTO t VALUES (1, 'a;b')", "SET NAMES utf8mb4", "LOCK TABLES `t` WRITE", "UNLOCK TABLES",
        "GRANT SELECT ON *.* TO x", "CREATE DEFINER=`root`@`localhost` TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET @x = 1",
        "source load.dump", "DROP TRIGGER x",
        "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO DELETE FROM t", "ALTER DATABASE d COMMENT 'no charset'",
    ],
)
def test_not_ddl_is_skipped_on_purpose(text: str) -> None:
    assert isinstance(parse_statement(text), ops.Skipped)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("CREATE TABLE t (a int, b int garbage here)", "column 'b'"),
        ("FROBNICATE TABLE t", "not a statement"),
        ("CREATE TABLE t (a int) ENGINE=", "expected a value"),
        ("CREATE WIDGET w", "unsupported CREATE"),
        ("ALTER TABLE t ADD COLUMN", "expected a name"),
    ],
)
def test_ddl_not_understood_is_a_failure_with_reason(text: str, fragment: str) -> None:
    with pytest.raises(ParseFailure) as caught:
        parse_statement(text)
    assert fragment in caught.value.reason


def test_failure_names_the_line_of_the_bad_column() -> None:
    with pytest.raises(ParseFailure) as caught:
        parse_statement("CREATE TABLE t (\n  a int,\n  b int,\n  c int garbage\n)")
    assert caught.value.line_offset == 3


def test_column_checks_are_kept_on_the_column_as_sql() -> None:
    """A column's CHECK (named or not) is part of its definition: MariaDB drops it with a MODIFY
    COLUMN that leaves it out, so the fixes that rewrite a column must know it."""
    op = parse_statement(
        "CREATE TABLE t (id INT PRIMARY KEY, a MEDIUMTEXT CHECK (a <> ''), "
        "`b` INT CONSTRAINT `b pos` CHECK (`b` > 0) CHECK (`b` < 10), c INT, CHECK (c > 1))"
    )
    assert isinstance(op, ops.CreateTable)
    columns = op.body.columns
    assert columns["a"].checks == ("CHECK (a <> '')",)
    assert columns["b"].checks == ("CONSTRAINT `b pos` CHECK (`b` > 0)", "CHECK (`b` < 10)")
    assert columns["c"].checks == () and op.body.checks == 1  # the table's own CHECK stays counted apart
    altered = parse_statement("ALTER TABLE t MODIFY a TEXT CHECK (LENGTH(a) < 10)")
    assert isinstance(altered, ops.AlterTable)
    [change] = altered.actions
    assert isinstance(change, ops.ChangeColumn) and change.column.checks == ("CHECK (LENGTH(a) < 10)",)


# -- what the replay needs to follow the server --------------------------------------------------
def test_keys_on_a_column_count_where_the_column_is() -> None:
    # InnoDB clusters on the first NOT NULL UNIQUE key in the order written, a column's UNIQUE
    # included (MariaDB 10.11: INNODB_SYS_INDEXES gives `a` the clustered type for both tables)
    t = table("CREATE TABLE t (a int NOT NULL UNIQUE, b int NOT NULL, UNIQUE KEY (b))")
    assert [i.name for i in t.indexes] == ["a", "b"] and t.clustered_index.name == "a"  # type: ignore[union-attr]
    t = table("CREATE TABLE t (b int NOT NULL, UNIQUE KEY (b), a int NOT NULL UNIQUE)")
    assert t.clustered_index.name == "b"  # type: ignore[union-attr]


@pytest.mark.parametrize(("body", "names"), [
    ("a int UNIQUE, b int, KEY (a), UNIQUE (a)", ["a", "a_3", "a_2"]),  # as MariaDB names and sorts them
    ("a int, b int, KEY (a), KEY a_2 (b), KEY (a)", ["a", "a_2", "a_3"]),
    ("`primary` int, KEY (`primary`)", ["primary_2"]),
    ("a int PRIMARY KEY, KEY (a), KEY PRIMARY_2 (a)", ["PRIMARY", "a", "PRIMARY_2"]),
])
def test_unnamed_keys_get_the_server_names(body: str, names: list[str]) -> None:
    assert [i.name for i in table(f"CREATE TABLE t ({body})").indexes] == names


@pytest.mark.parametrize(("text", "why"), [
    ("CREATE TABLE t (a int, b int, A int)", "duplicate column name A (error 1060)"),
    ("CREATE TABLE t (a int, KEY k (a), KEY K (a))", "duplicate key name K (error 1061)"),
    ("CREATE TABLE t (a int, KEY (a), KEY a (a))", "duplicate key name a (error 1061)"),
    ("CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))", "multiple primary key defined (error 1068)"),
    ("CREATE TABLE `t` (\n  `a` int,\n  `a` bigint\n) ENGINE=InnoDB", "duplicate column name a (error 1060)"),
    ("CREATE TABLE t (a int, " + ", ".join("KEY (a)" for _ in range(65)) + ")", "too many keys: 65"),
])
def test_a_definition_the_server_refuses_is_not_created(text: str, why: str) -> None:
    op = parse_statement(text)
    assert isinstance(op, ops.CreateTable) and op.refused is not None and op.refused.startswith(why)
    replayer = Replayer()
    assert why in str(replayer.apply(op, Location("t.sql", 1)) or "")
    assert replayer.model.tables() == []


@pytest.mark.parametrize(("text", "expected"), [
    ("ALTER TABLE t ADD COLUMN IF NOT EXISTS c int FIRST",
     ops.AlterTable(ops.Name(None, "t"), (ops.AddColumn(parse_statement("ALTER TABLE t ADD c int").actions[0].column,  # type: ignore[attr-defined]
                                                         True, "FIRST"),))),
    ("alter table IF EXISTS t drop column if exists c, drop index if exists k, drop foreign key if exists f",
     ops.AlterTable(ops.Name(None, "t"), (ops.DropColumn("c", True), ops.DropIndex("k", True),
                                          ops.DropForeignKey("f", True)), if_exists=True)),
    ("DROP TABLE IF EXISTS a, b.c", ops.DropTable((ops.Name(None, "a"), ops.Name("b", "c")), False, True)),
    ("DROP TEMPORARY TABLE a", ops.DropTable((ops.Name(None, "a"),), True, False)),
    ("RENAME TABLE IF EXISTS a TO b", ops.RenameTable(((ops.Name(None, "a"), ops.Name(None, "b")),), True)),
    ("DROP INDEX IF EXISTS k ON t ALGORITHM = INPLACE LOCK = NONE", ops.DropIndexStatement(ops.Name(None, "t"), "k", True, "INPLACE", "NONE")),
    ("EXECUTE stmt USING @a", ops.Dynamic("EXECUTE", "EXECUTE stmt USING @a")),
    ("execute\nimmediate 'DROP TABLE t'", ops.Dynamic("EXECUTE IMMEDIATE", "execute\nimmediate 'DROP TABLE t'")),
    ("CALL p(1)", ops.Dynamic("CALL", "CALL p(1)")),
    ("PREPARE stmt FROM 'DROP TABLE t'", ops.Dynamic("PREPARE", "PREPARE stmt FROM 'DROP TABLE t'")),
    ("DROP PREPARE stmt", ops.Dynamic("DEALLOCATE", "DROP PREPARE stmt")),
    ("SET @s = CONCAT('a', 'b')", ops.Dynamic("SET", "SET @s = CONCAT('a', 'b')")),
    ("SET @@session.sql_mode = ''", ops.Skipped("SET")),
    ("SET NAMES utf8mb4", ops.Skipped("SET")),
    ("CREATE DEFINER=`root`@`%` PROCEDURE IF NOT EXISTS `db`.`p`() SELECT 1",
     ops.CreateProcedure(ops.Name("db", "p"), "CREATE DEFINER=`root`@`%` PROCEDURE IF NOT EXISTS `db`.`p`() SELECT 1",
                         False, True)),
    ("DROP PROCEDURE IF EXISTS p", ops.DropProcedure(ops.Name(None, "p"), True)),
])
def test_what_the_server_would_skip_or_cannot_follow_is_in_the_operation(text: str, expected: ops.Operation) -> None:
    assert parse_statement(text) == expected


def test_positions_and_unnamed_keys_of_alter_actions() -> None:
    op = parse_statement("ALTER TABLE t ADD c int AFTER `b b`, MODIFY d int FIRST, CHANGE e f int, ADD KEY (c), ADD KEY k (c)")
    assert isinstance(op, ops.AlterTable)
    positions = [getattr(a, "position", None) for a in op.actions]
    assert positions == [("AFTER", "b b"), "FIRST", None, None, None]
    assert [a.index.name for a in op.actions if isinstance(a, ops.AddIndex)] == [None, "k"]  # None: named in replay


def test_create_or_replace_replaces() -> None:
    t = table("CREATE TABLE t (a int)", "CREATE OR REPLACE TABLE t (b int)")
    assert list(t.columns) == ["b"] and t.defined.line == 2


@pytest.mark.parametrize("text", [
    "DROP TABLE t1 CREATE TABLE t2 (a int)",
    "RENAME TABLE a TO b CREATE TABLE c (a int)",
    "DROP INDEX k ON t CREATE TABLE c (a int)",
    "ALTER TABLE t DROP COLUMN a DROP TABLE u",
    "CREATE TABLE t LIKE u DROP TABLE v",
])
def test_text_after_the_end_of_a_statement_fails_it(text: str) -> None:
    with pytest.raises(ParseFailure, match="seems to be missing"):
        parse_statement(text)
