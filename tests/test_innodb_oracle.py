"""InnoDB as the oracle for no-primary-key: on every corpus table a real server created, the
linter must say "hidden row id" exactly when InnoDB clustered the table on GEN_CLUST_INDEX.

Two paths are held to the oracle: linting each corpus file as `innolint check` does (the verdict
must not depend on a server), and `innolint audit` of the loaded server (SHOW CREATE TABLE as
MariaDB prints it back, through the same parse path). tests/corpus_server.py loads the files.

Measured before this test existed: the hand-checked labels agree with the oracle on 1,277 of
1,278 loadable tables, and the one disagreement was a label error.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass

import pytest

from checks.no_primary_key import NoPrimaryKey
from linter.audit.connection import connect
from linter.audit.server import read_server, run_checks
from linter.rules.checkapi import CheckContext, innodb_tables
from linter.engine import Engine, Unit
from linter.schema.model import SchemaModel
from linter.schema.target import Target
from tests.corpus_server import CORPUS, CorpusServer, LoadedFile, clustered_indexes

TARGET = "mariadb-10.11"
ROW_ID = "GEN_CLUST_INDEX"


@dataclass
class Comparison:
    agreed: int = 0
    hidden: int = 0  # tables InnoDB clustered on the hidden row id
    disagreements: list[str] | None = None

    def __post_init__(self) -> None:
        self.disagreements = []


def _row_id_tables(model: SchemaModel, context: CheckContext) -> set[tuple[str | None, str]]:
    """(schema, table) of the InnoDB tables no-primary-key says get the hidden row id (its
    warning/error findings; the info finding is for tables clustered on a UNIQUE key)."""
    found = [f for f in NoPrimaryKey().run(model, context) if f.subject == "row-id"]
    assert all(f.severity == "warning" for f in found)  # no stats: the rule's own severity
    return {(f.schema, f.table or "") for f in found}


def _compare_file(loaded: LoadedFile, engine: Engine, context: CheckContext, result: Comparison) -> None:
    model = engine.lint_unit(Unit([str(CORPUS / loaded.path)]), context).model
    flagged = _row_id_tables(model, context)

    def on_server(schema: str | None) -> str:
        """The database a table of this schema landed in: the file's own when it names none or
        one that did not exist (its USE failed, so the client stayed in the file's database)."""
        return schema if schema is not None and schema in loaded.databases else loaded.database

    linted = {(on_server(t.schema), t.name): t for t in innodb_tables(model)}
    folded = {(db, name.lower()): key for key, (db, name) in zip(linted, linted)}
    for (database, table), index in sorted(loaded.clustered.items()):
        key = (database, table) if (database, table) in linted else folded.get((database, table.lower()))
        hidden = index == ROW_ID
        result.hidden += hidden
        if key is None:
            result.disagreements.append(f"{loaded.path}: {database}.{table} ({index}): not an InnoDB table "  # type: ignore[union-attr]
                                        "in innolint's model")
            continue
        model_table = linted[key]
        says_hidden = (model_table.schema, model_table.name) in flagged
        if says_hidden == hidden:
            result.agreed += 1
        else:
            result.disagreements.append(  # type: ignore[union-attr]
                f"{loaded.path}: {database}.{table}: InnoDB clusters on {index}, innolint says "
                f"{'hidden row id' if says_hidden else 'no hidden row id'}")


def test_linting_each_file_agrees_with_innodb_on_every_table(corpus_server: CorpusServer) -> None:
    context = CheckContext(target=Target.parse(TARGET))
    engine = Engine(context)
    result = Comparison()
    started = time.monotonic()
    for loaded in corpus_server.files.values():
        _compare_file(loaded, engine, context, result)
    tables = sum(len(f.clustered) for f in corpus_server.files.values())
    print(f"\noracle: {len(corpus_server.files)} files loaded in {corpus_server.seconds:.1f} s, "
          f"{tables} InnoDB tables ({result.hidden} on {ROW_ID}); innolint agrees on {result.agreed}; "
          f"linted in {time.monotonic() - started:.1f} s")
    assert result.disagreements == [], "\n".join(result.disagreements)  # type: ignore[arg-type]
    assert result.agreed == tables
    assert len(corpus_server.files) == 63 and tables > 1000  # every file, and most tables loaded


def test_every_file_listed_in_the_labels_was_loaded(corpus_server: CorpusServer) -> None:
    extensions = {path.rsplit(".", 1)[-1] for path in corpus_server.files}
    assert {"sql", "txt", "in", "dump", "mysql"} <= extensions
    # both sakila files fill `sakila` (the dump drops the schema file's tables): each file's own
    # tables are read; system_idb_tables.sql rebuilds `mysql` with MyISAM and CSV tables only
    dump = corpus_server.files["sakila_mysqldump/all-dbs.txt"]
    schema = corpus_server.files["sakila/sakila-schema.sql"]
    assert {db for db, _ in dump.clustered} == {db for db, _ in schema.clustered} == {"sakila"}
    assert len(schema.clustered) >= 15 and len(dump.clustered) >= 15
    system = corpus_server.files["mysql_system_tables/system_idb_tables.sql"]
    assert system.clustered == {} and system.errors == 0


def test_audit_of_the_loaded_server_agrees_with_innodb(corpus_server: CorpusServer) -> None:
    """The DDL as MariaDB prints it back (SHOW CREATE TABLE), read by `innolint audit`, gives the
    same verdict as InnoDB on every table of every database the corpus left on the server."""
    server = corpus_server.server
    databases = corpus_server.databases()
    truth = {key: index for key, index in clustered_indexes(server).items() if key[0] in databases}
    notes = io.StringIO()
    started = time.monotonic()
    with connect(f"mysql://root@/?socket={server.socket}&schemas={','.join(databases)}") as connection:
        audit = read_server(connection, databases, stderr=notes)
    seconds = time.monotonic() - started
    context = CheckContext(target=Target.parse(TARGET))
    report = run_checks(audit, context)
    # with the server's sizes the severity follows the evidence (an empty table is info), so the
    # verdict is the finding's subject: "row-id" says the table is clustered on the hidden row id
    row_id = [f for f in report.findings if f.rule == "no-primary-key" and f.subject == "row-id"]
    flagged = {(f.schema, f.table) for f in row_id}
    sizes: dict[tuple[str | None, str | None], int | None] = {(t.schema, t.name): t.rows for t in audit.tables}
    assert all(f.severity == ("info" if sizes[(f.schema, f.table)] == 0 else "warning") for f in row_id)
    audited = {(t.schema, t.name) for t in innodb_tables(audit.model)}
    disagreements = [f"{db}.{table}: InnoDB {index}, innolint {'row id' if (db, table) in flagged else 'no row id'}"
                     for (db, table), index in sorted(truth.items())
                     if ((db, table) in flagged) != (index == ROW_ID) or (db, table) not in audited]
    print(f"\naudit: {len(audit.tables)} tables of {len(databases)} databases read in {seconds:.1f} s; "
          f"{len(truth)} InnoDB tables, {len(truth) - len(disagreements)} agree")
    assert disagreements == [], "\n".join(disagreements)
    assert [d for d in report.diagnostics if d.rule == "parse-error"] == []
    # performance_schema is off on this server: said once, and the audit went on
    assert notes.getvalue().count("performance_schema is off") == 1
    assert audit.workload.counts == {} and audit.workload.note is not None


@pytest.mark.parametrize("path", ["sakila_mysqldump/all-dbs.txt", "kamailio/icscf.sql"])
def test_known_tricky_files_have_their_tables(corpus_server: CorpusServer, path: str) -> None:
    """Spot checks of the loading itself: a dump that rebuilds `mysql`, and a file whose primary
    keys come from a later ALTER TABLE (InnoDB must not show GEN_CLUST_INDEX for those)."""
    loaded = corpus_server.files[path]
    assert loaded.clustered, f"{path} created no InnoDB table"
    if path == "kamailio/icscf.sql":
        assert set(loaded.clustered.values()) == {"PRIMARY"}
