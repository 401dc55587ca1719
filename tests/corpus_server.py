"""The shared corpus loaded into a real MariaDB, file by file, with InnoDB's own verdicts.

Why: which index InnoDB clusters a table on is a fact no parser can argue with. A table clustered
on the hidden row id has an index named GEN_CLUST_INDEX in information_schema.INNODB_SYS_INDEXES
(the way ../shared/tools/innodb_oracle.py reads it); otherwise the clustered index is the PRIMARY
KEY or the UNIQUE key InnoDB chose.

How: each file of LABELS.json (every extension listed there: .sql, .txt, .in, .dump, .mysql) is
piped to the `mariadb` client with --force (statements MariaDB rejects are skipped and counted)
into a fresh database of its own. A file may also create or USE other databases (sakila's dump
rebuilds `mysql`, apollo creates ApolloConfigDB): the tables a file made are found by their
InnoDB TABLE_ID, which only grows, so whatever database they landed in is read. Before each file
an empty marker table is created: the tables with a TABLE_ID between a file's marker and the
next one are that file's. Files that touch the `mysql` schema go last, so that whatever they
break cannot affect the other files.

Reading information_schema.INNODB_SYS_* costs ~0.1 s a time (it walks the whole dictionary), so
it is read once at the end, and before a file that names a database an earlier file named (both
sakila files fill `sakila`; the later one drops the earlier one's tables).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

from tests.mariadb import MariaDB
from tests.shared import CORPUS
_TOUCHES_MYSQL = re.compile(rb"^\s*(USE|CREATE\s+DATABASE[^;]*?)\s+`?mysql`?\s*(;|/\*|$)",
                            re.IGNORECASE | re.MULTILINE)
_ENCODED = re.compile(r"@([0-9a-f]{4})")
_FTS_AUXILIARY = re.compile(r"FTS_[0-9a-f]{16}_")


def decode_name(name: str) -> str:
    """InnoDB's file-name encoding of a table or database name (`my@002dtable` for `my-table`)."""
    return _ENCODED.sub(lambda m: chr(int(m.group(1), 16)), name)


@dataclass
class LoadedFile:
    """One corpus file on the server: where it went and what InnoDB did with its tables."""

    path: str  # as in LABELS.json, relative to the corpus
    database: str  # the database it was loaded into (its USE/CREATE DATABASE may add others)
    errors: int  # statements the server rejected
    #: (database, table) -> the clustered index's name, for every InnoDB table the file created
    clustered: dict[tuple[str, str], str] = field(default_factory=dict)
    #: the databases that existed right after it was loaded (a USE of any other one failed)
    databases: frozenset[str] = frozenset()


@dataclass
class CorpusServer:
    server: MariaDB
    files: dict[str, LoadedFile]
    seconds: float

    def databases(self) -> list[str]:
        """Every database the corpus files left on the server, `mysql` included."""
        names = {db for loaded in self.files.values() for db, _ in loaded.clustered}
        return sorted(names | {loaded.database for loaded in self.files.values()})


def corpus_files() -> list[str]:
    """Every file LABELS.json lists, those that touch the `mysql` schema last."""
    labels = json.loads((CORPUS / "LABELS.json").read_text(encoding="utf-8"))
    return sorted(labels, key=lambda path: bool(_TOUCHES_MYSQL.search((CORPUS / path).read_bytes())))


def _dictionary(server: MariaDB) -> dict[int, tuple[str, str, str]]:
    """TABLE_ID -> (database, table, clustered index name) of every InnoDB table now (TYPE bit 1
    is DICT_CLUSTERED; partitions count as their table; FULLTEXT auxiliary tables are left out)."""
    rows = server.sql(
        "SELECT t.TABLE_ID, t.NAME, i.NAME FROM information_schema.INNODB_SYS_TABLES t "
        "JOIN information_schema.INNODB_SYS_INDEXES i ON i.TABLE_ID = t.TABLE_ID "
        "WHERE i.TYPE & 1 AND t.NAME LIKE '%/%'")
    found: dict[int, tuple[str, str, str]] = {}
    for table_id, full_name, index in rows:
        database, table = str(full_name).split("/", 1)
        if _FTS_AUXILIARY.match(table):
            continue  # InnoDB's own tables behind a FULLTEXT index, not the schema's
        table = re.split("#[Pp]#", table)[0]
        found[int(table_id)] = (decode_name(database), decode_name(table), str(index))
    return found


def clustered_indexes(server: MariaDB) -> dict[tuple[str, str], str]:
    """(database, table) -> clustered index name of every InnoDB table on the server now."""
    return {(database, table): index for database, table, index in _dictionary(server).values()}


_NAMED_DATABASE = re.compile(rb"^\s*(?:USE|CREATE\s+(?:DATABASE|SCHEMA)(?:\s+/\*!\d+)?(?:\s+IF\s+NOT\s+EXISTS)?"
                             rb"(?:\s*\*/)?)\s+`?([^`;\s]+)`?", re.IGNORECASE | re.MULTILINE)
MARKERS = "innolint_markers"


def load_corpus(server: MariaDB) -> CorpusServer:
    started = time.monotonic()
    paths = corpus_files()
    server.sql(f"CREATE DATABASE IF NOT EXISTS {MARKERS}")
    seen: dict[int, tuple[str, str, str]] = {}
    named_before: set[bytes] = set()
    loads: list[tuple[str, str, int, frozenset[str]]] = []
    for n, path in enumerate(paths):
        text = (CORPUS / path).read_bytes()
        named = {m.group(1).lower() for m in _NAMED_DATABASE.finditer(text)}
        if named & named_before:  # this file may drop what an earlier one made: read it now
            seen.update(_dictionary(server))
        named_before |= named
        server.sql(f"CREATE TABLE {MARKERS}.file_{n:02d} (id INT PRIMARY KEY)")
        database = f"corpus_{n:02d}"
        errors = server.load_file(CORPUS / path, database)
        databases = frozenset(str(row[0]) for row in server.sql("SHOW DATABASES"))
        loads.append((path, database, errors, databases))
    seen.update(_dictionary(server))
    markers = sorted((table_id, int(table[len("file_"):])) for table_id, (db, table, _) in seen.items()
                     if db == MARKERS)
    bounds = [table_id for table_id, _ in markers] + [max(seen) + 1]
    files: dict[str, LoadedFile] = {}
    for n, (path, database, errors, databases) in enumerate(loads):
        assert markers[n][1] == n
        clustered = {(db, table): index for table_id, (db, table, index) in seen.items()
                     if bounds[n] < table_id < bounds[n + 1]}
        files[path] = LoadedFile(path, database, errors, clustered, databases)
    return CorpusServer(server, files, time.monotonic() - started)
