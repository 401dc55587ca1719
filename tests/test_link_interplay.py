"""The rules that judge a table's clustered key agree on link tables: no fix brings another rule's finding.

link-table-primary-key proposes the pair for a link table clustered on a surrogate; wide-primary-key
and uuid-primary-key propose a surrogate for a wide or random composite key. Applied to a link table,
each fix used to make the other rule fire (ambari clusterservices, temporal build_id_to_task_queue,
apollo Favorite and UserRole): a ping-pong a user could never get out of. They now read one model
fact (`linter.schema.links.link_identity`), the same whichever key the table is clustered on.

Generated link tables (names, reference types and widths, foreign keys or names alone, a soft-delete
stamp in the key, other indexes; tests/sampling.py draws the cases, every class in every run) in three
layouts: clustered on a surrogate id with a UNIQUE key on the pair, clustered on the pair, and
clustered on the pair with the old id kept beside it (what link-table-primary-key's fix leaves).
- the model: the three layouts of a table are one link with one identity;
- the real MariaDB: each layout is created, audited (SHOW CREATE TABLE, as `innolint audit` reads a
  server), every fix emitted for the link table is applied as written, and the table audited again:
  the finding is gone and no rule has a finding on it that it did not have before.
"""

from __future__ import annotations

import hashlib
import io
import itertools
from dataclasses import dataclass
from pathlib import Path

import pymysql
import pytest

from linter.audit.connection import connect
from linter.audit.server import AuditOptions, read_server, run_checks
from linter.rules.checkapi import CheckContext
from linter.rules.findings import Finding
from linter.parse.elements import Location
from linter.schema.links import link_identity
from linter.schema.target import Target
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from tests.mariadb import MariaDB
from tests.sampling import rng, seed, size, spread

TARGET = "mariadb-10.11"
KEY_RULES = ("link-table-primary-key", "wide-primary-key", "uuid-primary-key")

#: (the two entities, how the link table is named)
ENTITIES = [("user", "group", "user_group"), ("member", "team", "team_members"), ("product", "category", "product_category"),
            ("account", "project", "account_project_link"), ("author", "book", "authorship")]
#: how a reference is named, and how its parent table is: (column, parent table) for an entity word
NAMINGS = {
    "snake": (lambda e: f"{e}_id", lambda e: e),
    "plural": (lambda e: f"{e}_id", lambda e: f"{e}s"),
    "camel": (lambda e: f"{e.capitalize()}Id", lambda e: e.capitalize()),
    "id_first": (lambda e: f"id_{e}", lambda e: e),
}
#: the type of a reference and of its parent's key (widths from 4 to 803 bytes as an index holds them)
TYPES = {
    "int": "INT UNSIGNED",
    "bigint": "BIGINT",
    "uuid_text": "CHAR(36) CHARACTER SET ascii",
    "uuid_binary": "BINARY(16)",
    "utf8mb4": "VARCHAR(128) CHARACTER SET utf8mb4",
    "latin1": "VARCHAR(200) CHARACTER SET latin1",
}
EVIDENCE = ("foreign keys", "names")
EXTRAS = ("none", "soft delete", "created index", "role")
LAYOUTS = ("surrogate", "pair", "pair, id kept")


@dataclass(frozen=True)
class LinkCase:
    entities: tuple[str, str, str]
    naming: str
    type: str
    evidence: str
    extra: str

    @property
    def id(self) -> str:
        return f"{self.entities[2]}-{self.naming}-{self.type}-{self.evidence.replace(' ', '_')}-{self.extra.replace(' ', '_')}"

    def columns(self) -> tuple[str, str]:
        column, _ = NAMINGS[self.naming]
        return column(self.entities[0]), column(self.entities[1])

    def parents(self) -> list[str]:
        _, parent = NAMINGS[self.naming]
        key = "Id" if self.naming == "camel" else "id"
        return [f"CREATE TABLE `{parent(e)}` (`{key}` {TYPES[self.type]} NOT NULL PRIMARY KEY, `name` VARCHAR(50)) "
                "ENGINE=InnoDB" for e in self.entities[:2]]

    def identity(self) -> list[str]:
        return [*self.columns(), *(["deleted_at"] if self.extra == "soft delete" else [])]

    def ddl(self, layout: str) -> str:
        a, b = self.columns()
        _, parent = NAMINGS[self.naming]
        key = "Id" if self.naming == "camel" else "id"
        parts = [f"`{a}` {TYPES[self.type]} NOT NULL", f"`{b}` {TYPES[self.type]} NOT NULL"]
        if self.extra == "soft delete":
            parts.append("`deleted_at` BIGINT NOT NULL DEFAULT 0")
        if self.extra == "created index":
            parts.append("`created_at` DATETIME NOT NULL")
        if self.extra == "role":
            parts.append("`role` VARCHAR(20) NOT NULL DEFAULT 'member'")
        identity = ", ".join(f"`{n}`" for n in self.identity())
        if layout == "surrogate":
            parts.insert(0, "`id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY")
            parts.append(f"UNIQUE KEY `pair` ({identity})")
        else:
            if layout == "pair, id kept":
                parts.insert(0, "`id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT")
                parts.append("KEY `id` (`id`)")
            parts.append(f"PRIMARY KEY ({identity})")
            parts.append(f"KEY `by_{b.lower()}` (`{b}`)")
        if self.extra == "created index":
            parts.append("KEY `created` (`created_at`)")
        if self.evidence == "foreign keys":
            parts += [f"FOREIGN KEY (`{c}`) REFERENCES `{parent(e)}` (`{key}`)" for c, e in zip((a, b), self.entities)]
        return f"CREATE TABLE `{self.entities[2]}` ({', '.join(parts)}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"


ALL_CASES = [LinkCase(*combo) for combo in itertools.product(ENTITIES, NAMINGS, TYPES, EVIDENCE, EXTRAS)]


def _draw(matrix: str, each_run: int) -> list[LinkCase]:
    """A sample in which every naming, type, evidence and extra is there in every run."""
    stream = rng(matrix)
    slots = size(each_run, len(ALL_CASES))
    if slots >= len(ALL_CASES):
        return ALL_CASES
    picks = zip(spread(stream, ENTITIES, slots), spread(stream, list(NAMINGS), slots), spread(stream, list(TYPES), slots),
                spread(stream, EVIDENCE, slots), spread(stream, EXTRAS, slots))
    return list(dict.fromkeys(LinkCase(*p) for p in picks))


MODEL_CASES = _draw("link-interplay-model", 96)
SERVER_CASES = _draw("link-interplay-server", 12)


def _link(case: LinkCase, layout: str):  # type: ignore[no-untyped-def]
    replayer = Replayer()
    for n, text in enumerate([*case.parents(), case.ddl(layout)], start=1):
        problem = replayer.apply(parse_statement(text), Location("t.sql", n))
        assert problem is None, problem
    model = replayer.model
    table = model.find_table(None, case.entities[2])
    assert table is not None
    return link_identity(model, table)


@pytest.mark.parametrize("case", MODEL_CASES, ids=lambda c: c.id)
def test_every_layout_of_a_link_table_is_one_link_with_one_identity(case: LinkCase) -> None:
    """The model answers once: clustered on a surrogate or on the pair, with the old id kept or not,
    the same columns are the link's identity (the key link-table-primary-key proposes is the key
    wide-primary-key and uuid-primary-key then leave alone)."""
    found = {layout: _link(case, layout) for layout in LAYOUTS}
    assert all(link is not None for link in found.values()), (f"seed {seed()}", case.id, found)
    keys = {layout: tuple(n.lower() for n in link.key) for layout, link in found.items()}
    assert set(keys.values()) == {tuple(n.lower() for n in case.identity())}, (f"seed {seed()}", case.id, keys)
    assert not found["surrogate"].on_identity and found["pair"].on_identity and found["pair, id kept"].on_identity
    assert found["pair, id kept"].surrogate is not None and found["pair, id kept"].surrogate.name == "id"


def test_the_model_check_sees_a_table_that_is_no_link() -> None:
    """The property above can fail: a table whose pair carries content is no link in any layout."""
    case = LinkCase(ENTITIES[0], "snake", "int", "foreign keys", "none")
    assert _link(case, "pair") is not None
    replayer = Replayer()
    ddl = case.ddl("pair").replace(" NOT NULL, `group_id`", " NOT NULL, `body` TEXT, `group_id`")
    assert "`body` TEXT" in ddl
    for n, text in enumerate([*case.parents(), ddl], start=1):
        assert replayer.apply(parse_statement(text), Location("t.sql", n)) is None
    table = replayer.model.find_table(None, "user_group")
    assert table is not None and link_identity(replayer.model, table) is None


# -- the real server --------------------------------------------------------------------------------
def _audit(server: MariaDB, schema: str) -> list[Finding]:
    with connect(f"mysql://root@/?socket={server.socket}") as connection:
        found = read_server(connection, [schema], AuditOptions(), stderr=io.StringIO())
    return list(run_checks(found, CheckContext(target=Target.parse(TARGET))).findings)


@pytest.fixture(scope="module")
def links(mariadb: MariaDB):  # type: ignore[no-untyped-def]
    made: list[str] = []
    yield mariadb, made
    for schema in made:
        mariadb.sql(f"DROP DATABASE IF EXISTS `{schema}`")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", SERVER_CASES, ids=lambda c: c.id)
def test_no_fix_on_a_link_table_brings_another_rules_finding(links, case: LinkCase, layout: str) -> None:  # type: ignore[no-untyped-def]
    server, made = links
    schema = "li_" + hashlib.sha1(f"{case.id} {layout}".encode()).hexdigest()[:12]
    made.append(schema)
    server.sql(f"DROP DATABASE IF EXISTS `{schema}`; CREATE DATABASE `{schema}`")
    for statement in [*case.parents(), case.ddl(layout)]:
        server.sql(statement, database=schema)
    table = case.entities[2]
    context = f"seed {seed()}, {case.id}, {layout}"

    def on_table() -> list[Finding]:
        return [f for f in _audit(server, schema) if f.table == table]

    before = on_table()
    rules = {f.rule for f in before}
    if layout == "surrogate":
        assert "link-table-primary-key" in rules, (context, before)
    else:  # clustered on the pair: what link-table-primary-key asks for, and no rule may ask for the surrogate back
        assert not rules & set(KEY_RULES), (context, [(f.rule, f.message) for f in before])
    for finding in [f for f in before if f.fix]:
        try:
            server.sql(finding.fix or "", database=schema)
        except pymysql.err.MySQLError as error:
            pytest.fail(f"{context}: {finding.rule}'s fix does not run: {error}\n{finding.fix}")
        after = on_table()
        assert not [f for f in after if f.rule == finding.rule and f.subject == finding.subject], (context, finding.fix)
        brought = sorted({f.rule for f in after} - rules)
        assert brought == [], (context, finding.rule, finding.fix, [(f.rule, f.message) for f in after])
        rules = {f.rule for f in after}


def test_the_corpus_tables_that_ping_ponged_are_judged_alike(tmp_path: Path) -> None:
    """The four tables the corpus sweep found, as written and as the other rule's fix leaves them:
    each layout gets at most the one rule's advice, and the rule whose fix made it gives none."""
    from tests.helpers import lint_sql

    cases = {
        # ambari: wide-primary-key's surrogate on a link clustered on (service_name, cluster_id)
        "clusterservices": (
            "CREATE TABLE clusters (cluster_id BIGINT NOT NULL PRIMARY KEY);",
            "service_name VARCHAR(255) NOT NULL, cluster_id BIGINT NOT NULL, service_enabled INTEGER NOT NULL, "
            "FOREIGN KEY (cluster_id) REFERENCES clusters (cluster_id)",
            "PRIMARY KEY (service_name, cluster_id)",
            "id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, UNIQUE KEY (service_name, cluster_id)"),
        # temporal: uuid-primary-key's surrogate on a link led by a namespace's id
        "build_id_to_task_queue": (
            "CREATE TABLE namespaces (id BINARY(16) NOT NULL PRIMARY KEY);",
            "namespace_id BINARY(16) NOT NULL, build_id VARCHAR(255) NOT NULL, task_queue_name VARCHAR(255) NOT NULL",
            "PRIMARY KEY (namespace_id, build_id, task_queue_name)",
            "id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, UNIQUE KEY (namespace_id, build_id, task_queue_name)"),
        # apollo: link-table-primary-key's pair (with the soft-delete stamp) on UserId VARCHAR(128) utf8mb4
        "UserRole": (
            "CREATE TABLE Users (Id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY); "
            "CREATE TABLE Role (Id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY);",
            "UserId VARCHAR(128) NOT NULL DEFAULT '', RoleId INT UNSIGNED NOT NULL, DeletedAt BIGINT NOT NULL DEFAULT 0, "
            "LastTime TIMESTAMP NULL, KEY IX_LastTime (LastTime), KEY IX_RoleId (RoleId)",
            "PRIMARY KEY (UserId, RoleId, DeletedAt), KEY (Id)",
            "Id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, UNIQUE KEY UK (UserId, RoleId, DeletedAt)"),
    }
    for name, (parents, columns, pair, surrogate) in cases.items():
        kept_id = "Id INT UNSIGNED NOT NULL AUTO_INCREMENT, " if "KEY (Id)" in pair else ""
        on_pair = f"{parents} CREATE TABLE {name} ({kept_id}{columns}, {pair}) DEFAULT CHARSET=utf8mb4;"
        on_surrogate = f"{parents} CREATE TABLE {name} ({surrogate}, {columns}) DEFAULT CHARSET=utf8mb4;"
        for sql, wanted in ((on_pair, set()), (on_surrogate, {"link-table-primary-key"})):
            report = lint_sql(sql, tmp_path, target="mysql-8.0")
            got = {f.rule for f in report.findings if f.table == name and f.rule in KEY_RULES}
            assert got == wanted, (name, sql, [(f.rule, f.message) for f in report.findings if f.table == name])
