"""The differential test: generated DDL scripts loaded into MariaDB through the real `mariadb`
client and replayed by innolint; innolint's model must be the server's, or innolint must have said,
where it lost track, that it did (tests/differential.py has the generator, the runners, the
comparison and the shrinking; scripts/fuzz_differential.py runs thousands with random seeds).

A few hundred scripts with fixed seeds. A mismatch is shrunk to a minimal script and put in a class
(tests/differential.py, KNOWN_CLASSES): a mismatch of no known class fails
`test_no_mismatch_outside_the_known_classes`; each known class that occurs is reported as an xfail
with its reproduction (`test_known_class[...]`), so that striking a class off the list when its fix
lands makes any case it still covers fail.

The server is a dedicated one with its datadir in /dev/shm: loading a script into the session's
server (datadir on disk, InnoDB syncing each DDL) takes ~150 ms instead of ~10 ms.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import differential as D
from tests.mariadb import MariaDB, _server_binary_or_skip, _stop, start_server

#: the CI's scripts: seeds FIRST_SEED .. FIRST_SEED + COUNT - 1
FIRST_SEED = 140_000
COUNT = 400
CLIENTS = 4


@pytest.fixture(scope="module")
def differential_server() -> Iterator[MariaDB]:
    """A MariaDB of this module's own, its datadir in /dev/shm when there is one."""
    mariadbd = _server_binary_or_skip()
    shm = D.scratch_dir()
    base = Path(tempfile.mkdtemp(prefix="innolint-diff-srv-", dir=shm))
    process, server = start_server(mariadbd, base)
    try:
        yield server
    finally:
        _stop(process)
        shutil.rmtree(base, ignore_errors=True)


@dataclass
class Run:
    trials: list[D.Trial]
    cases: list[D.Case]
    seconds: float
    loads: int
    server: D.ServerRunner


@pytest.fixture(scope="module")
def run(differential_server: MariaDB) -> Run:
    """The CI's scripts, run once for the module's tests."""
    server = D.ServerRunner(differential_server, jobs=CLIENTS)
    differ = D.Differ(server, D.InnolintRunner(server.lower_case_table_names), D.KNOWN_CLASSES)
    started = time.monotonic()
    trials, cases = differ.run([D.generate(seed) for seed in range(FIRST_SEED, FIRST_SEED + COUNT)])
    seconds = time.monotonic() - started
    statuses = Counter(c.status for c in cases)
    print(f"\ndifferential: {COUNT} scripts in {seconds:.1f} s ({server.loads} loads); "
          f"{COUNT - len(cases)} agree, {statuses['diagnosed']} diagnosed, "
          f"{statuses['silent'] + statuses['applied']} mismatches")
    server.close()
    return Run(trials, cases, seconds, server.loads, server)


# --- the generator -------------------------------------------------------------------------------


def test_the_generator_is_deterministic() -> None:
    for seed in (0, 1, 99, 2**31):
        assert D.generate(seed).text() == D.generate(seed).text()
    assert len({D.generate(seed).text() for seed in range(50)}) == 50


def test_the_scripts_hold_every_construct_asked_for() -> None:
    """Over the CI's seeds, every kind of unit, every client command, DELIMITER style, executable
    comment version and engine appears."""
    texts = [D.generate(seed) for seed in range(FIRST_SEED, FIRST_SEED + COUNT)]
    kinds = Counter(u.kind.split(":")[-1] for s in texts for u in s.units)
    for kind in ("create", "create-temporary", "alter", "drop", "drop-temporary", "rename", "create-index",
                 "drop-index", "create-like", "create-select", "use", "client-use", "use-no-delimiter",
                 "non-ddl", "sql-mode", "delimiter", "routine", "begin-commit", "begin-not-atomic", "if-true",
                 "if-false", "dynamic", "view", "view-standin", "client-command"):
        assert kinds[kind] > 0, kind
    text = "".join(s.text() for s in texts)
    for needle in ("\\g\n", "\\G\n", "\\c\n", "\\u d", "\\d //", "DELIMITER ;;", "DELIMITER $$", "/*!50100 ",
                   "/*!80023 ", "/*!99999 ", "/*M!100301 ", "/*M!999999 ", "/*!50001 CREATE TABLE", "ENGINE=MyISAM",
                   "ENGINE=MEMORY", "ENGINE=Aria", "IF NOT EXISTS", "IF EXISTS", "T1", "ADD PRIMARY KEY",
                   "DROP PRIMARY KEY", "MODIFY", "CHANGE", "RENAME COLUMN", "FIRST", "AFTER", "-- ", "# ", "/* ",
                   "ANSI_QUOTES", "NO_BACKSLASH_ESCAPES"):
        assert needle in text, needle
    # a missing delimiter: a statement unit that ends with its line
    assert any(u.end == "none" for s in texts for u in s.units)


def test_a_script_with_an_unsafe_client_command_is_never_loaded() -> None:
    """The client runs what a script says: a shell (`\\!`), a file read (`\\.`, source) or
    written (`\\T`, tee), an editor or a pager. The runner refuses such a script."""
    for text in ("\\! touch /tmp/x\n", "CREATE TABLE t (a INT);\n\\. other.sql\n", "source x.sql\n",
                 "  TEE /tmp/out\n", "\\P less\n", "\\e\n"):
        with pytest.raises(ValueError, match="unsafe"):
            D.ServerRunner.check_safe(text)
    for text in ("CREATE TABLE t (a INT)\\g\n", "\\u d2\n", "\\d //\n", "SELECT 'a\\tb';\n", "\\p\n",
                 "-- source of truth\n"):
        D.ServerRunner.check_safe(text)


# --- the comparison and the shrinking, on a stand-in server ----------------------------------------


def _facts(*columns: D.ColumnFacts, indexes: tuple[D.IndexFacts, ...] = (),
           clustered: tuple[str, tuple[tuple[str, int | None], ...]] | None = None) -> D.TableFacts:
    return D.TableFacts("innodb", columns, indexes, clustered)


def test_the_comparison_sees_each_part_of_a_table() -> None:
    a = D.ColumnFacts("a", "int", None, False, False)
    b = D.ColumnFacts("b", "varchar", 10, False, True)
    primary = D.IndexFacts("PRIMARY", "primary", (("a", None),))
    unique = D.IndexFacts("b", "unique", (("b", None),))
    server = {("main", "t"): _facts(a, b, indexes=(primary, unique), clustered=primary.shape())}
    same = {("main", "t"): _facts(a, b, indexes=(primary, D.IndexFacts(None, "unique", (("b", None),))),
                                  clustered=primary.shape())}
    assert D.compare(server, same) == []  # a key innolint has no name for matches by its shape
    cases = {
        "only-server": {},
        "only-innolint": {**server, ("main", "T"): server[("main", "t")]},
        "columns": {("main", "t"): _facts(b, a, indexes=(primary, unique), clustered=primary.shape())},
        "indexes": {("main", "t"): _facts(a, b, indexes=(primary, D.IndexFacts("b", "unique", (("b", 5),))),
                                          clustered=primary.shape())},
        "clustered": {("main", "t"): _facts(a, b, indexes=(primary, unique), clustered=None)},
        "engine": {("main", "t"): D.TableFacts("myisam", (a, b), (primary, unique), None)},
    }
    for kind, linted in cases.items():
        assert kind in {d.kind for d in D.compare(server, linted)}, kind
    # a key innolint names must have that name on the server
    named = {("main", "t"): _facts(a, b, indexes=(primary, D.IndexFacts("u", "unique", (("b", None),))),
                                   clustered=primary.shape())}
    assert [d.kind for d in D.compare(server, named)] == ["indexes"]
    # CREATE TABLE ... SELECT: columns and keys are not claimed, the clustered index is
    partial = {("main", "t"): D.TableFacts("innodb", (), (), primary.shape(), partial=True)}
    assert D.compare(server, partial) == []


class _StandInServer:
    """Loads a script by reading `CREATE TABLE name` and `DROP TABLE name` lines (and nothing
    else), as a server would that understands only those."""

    lower_case_table_names = 0

    def __init__(self) -> None:
        self.loads = 0

    def load(self, texts: list) -> list[D.Loaded]:
        self.loads += len(texts)
        return [D.Loaded(_tables(text("d1", "d2").splitlines()), [], 0.0) for text in texts]


def _tables(lines: list[str]) -> D.View:
    view: D.View = {}
    for line in lines:
        words = line.rstrip(";").split()
        if words[:2] == ["CREATE", "TABLE"]:
            view[("main", words[2])] = _facts()
        elif words[:2] == ["DROP", "TABLE"]:
            view.pop(("main", words[2]), None)
    return view


class _StandInLint:
    """Like the stand-in server, but loses the line after a `\\u` line, and says so when the lost
    line is a DROP."""

    def lint(self, text: str) -> D.Linted:
        lines = text.splitlines()
        kept, diagnostics = [], []
        for n, line in enumerate(lines):
            if n and lines[n - 1].startswith("\\u"):
                if line.startswith("DROP"):
                    diagnostics.append((n + 1, n + 1, "parse-error", "lost"))
                continue
            kept.append(line)
        return D.Linted(_tables(kept), diagnostics)


def test_a_silent_mismatch_is_located_and_shrunk_to_what_causes_it() -> None:
    units = [D.Unit("create", f"CREATE TABLE {name}") for name in ("t1", "t2", "t3")]
    script = D.Script(7, (*units, D.Unit("client-use", "\\u d2", end="own"), D.Unit("create", "CREATE TABLE t4"),
                          D.Unit("create", "CREATE TABLE t5"), D.Unit("drop", "DROP TABLE t1")))
    differ = D.Differ(_StandInServer(), _StandInLint(), D.KNOWN_CLASSES)  # type: ignore[arg-type]
    trials, cases = differ.run([script])
    assert [c.status for c in cases] == ["silent"]
    case = cases[0]
    assert case.unit == 4  # CREATE TABLE t4, the line innolint lost
    assert [u.head for u in case.units] == ["\\u d2", "CREATE TABLE t4"]
    assert case.shown_unit == 1 and case.code is None
    assert case.known is None  # `\u db` is followed now: no known class covers a lost line after it
    assert "only-server main.t4" in case.report() and "innolint said nothing there" in case.report()


def test_a_diagnosed_divergence_is_not_a_mismatch() -> None:
    script = D.Script(8, (D.Unit("create", "CREATE TABLE t1"), D.Unit("client-use", "\\u d2", end="own"),
                          D.Unit("drop", "DROP TABLE t1")))
    _, cases = D.Differ(_StandInServer(), _StandInLint()).run([script])  # type: ignore[arg-type]
    assert [(c.status, c.unit, c.mismatch) for c in cases] == [("diagnosed", 2, False)]
    assert cases[0].repro is None  # only mismatches are shrunk


def test_executable_comment_versions_as_mariadb_reads_them(differential_server: MariaDB) -> None:
    """`runs_on_mariadb` (used to recognise a class) agrees with the server on each version."""
    server = D.ServerRunner(differential_server, jobs=CLIENTS)
    versions = [("", "40101"), ("", "50100"), ("", "50699"), ("", "50700"), ("", "80023"), ("", "99999"),
                ("", "100000"), ("", "101100"), ("", "101200"), ("", "999999"), ("M", "99999"), ("M", "100301"), ("M", "999999")]
    units = tuple(D.Unit("create", f"/*{m}!{v} CREATE TABLE v{m}{v} (a INT) */") for m, v in versions)
    loaded = server.load([D.Script(0, units).text])[0]
    server.close()
    for marker, version in versions:
        assert (("main", f"v{marker}{version}") in loaded.view) == D.runs_on_mariadb(marker, version), (marker, version)


# --- the differential run ------------------------------------------------------------------------


def test_the_scripts_mostly_succeed_on_the_server(run: Run) -> None:
    """The grammar does what it is for: most statements run (they refer to tables and columns
    that exist), some fail, and the tables it leaves cover each way InnoDB clusters a table."""
    units = sum(len(t.script.units) for t in run.trials)
    errors = sum(len(t.loaded.errors) for t in run.trials)
    assert 0.03 < errors / units < 0.35, (errors, units)
    tables = [facts for t in run.trials for facts in t.loaded.view.values()]
    assert len(tables) > COUNT
    clustered = Counter("row id" if f.clustered is None else f.clustered[0] for f in tables if f.engine == "innodb")
    assert clustered["row id"] and clustered["primary"] and clustered["unique"], clustered
    assert {f.engine for f in tables} >= {"innodb", "myisam", "memory", "aria"}
    assert run.server.lower_case_table_names == 0  # the Linux default: `t1` and `T1` are two tables
    assert sum(not t.differences for t in run.trials) > 0


def test_no_mismatch_outside_the_known_classes(run: Run) -> None:
    """Every script's model equals the server's, or innolint said where it lost track, or the
    mismatch is of a class known today (KNOWN_CLASSES); a new class fails here with its shrunk
    reproduction."""
    new = [c for c in run.cases if c.mismatch and c.known is None]
    groups: dict[str, list[D.Case]] = {}
    for case in new:
        groups.setdefault(case.signature(), []).append(case)
    report = "\n\n".join(f"{len(cases)} script(s) like this one:\n" + min(cases, key=lambda c: len(c.text)).report()
                         for cases in groups.values())
    assert not new, f"{len(new)} mismatches of no known class ({len(groups)} kinds):\n\n{report}"


@pytest.mark.parametrize("name", [k.name for k in D.KNOWN_CLASSES] or ["(none known)"])
def test_known_class(run: Run, name: str) -> None:
    """xfail while the class occurs (with its shortest reproduction); passes once it does not.
    With no class known, no case is put in one."""
    cases = [c for c in run.cases if c.known == name]
    if not D.KNOWN_CLASSES:
        assert not any(c.known for c in run.cases)
    if cases:
        shortest = min(cases, key=lambda c: len(c.text))
        description = next(k.description for k in D.KNOWN_CLASSES if k.name == name)
        pytest.xfail(f"{name} ({len(cases)} of {COUNT} scripts): {description}\n{shortest.report()}")


def test_a_plain_script_agrees_exactly(differential_server: MariaDB) -> None:
    """The harness on DDL innolint follows: the server's truth read back (columns, keys with
    their prefixes, the clustered index on the PRIMARY KEY, a UNIQUE key or the row id, engines)
    equals innolint's model, with no difference ignored."""
    units = (
        "CREATE TABLE a (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT, name VARCHAR(40), PRIMARY KEY (id), "
        "KEY k_name (name(10))) ENGINE=InnoDB",
        "CREATE TABLE b (code CHAR(8) NOT NULL, note TEXT, UNIQUE KEY u_code (code))",
        "CREATE TABLE c (x INT, y INT NULL, UNIQUE KEY u_x (x))",
        "CREATE TABLE m (x INT NOT NULL, PRIMARY KEY (x)) ENGINE=MyISAM",
        "ALTER TABLE a ADD COLUMN extra DATETIME NOT NULL, DROP KEY k_name, ADD UNIQUE KEY u_name (name)",
        "ALTER TABLE c ADD PRIMARY KEY (x)",
        "RENAME TABLE b TO b2",
        "CREATE INDEX i_note ON b2 (note(20))",
        "DROP TABLE IF EXISTS gone",
    )
    script = D.Script(0, tuple(D.Unit("ddl", text) for text in units))
    server = D.ServerRunner(differential_server, jobs=CLIENTS)
    differ = D.Differ(server, D.InnolintRunner(server.lower_case_table_names))
    [trial] = differ.trials([script])
    server.close()
    assert trial.loaded.errors == []
    assert set(trial.loaded.view) == {("main", "a"), ("main", "b2"), ("main", "c"), ("main", "m")}
    assert trial.loaded.view[("main", "b2")].clustered == ("unique", (("code", None),))
    assert trial.loaded.view[("main", "c")].clustered == ("primary", (("x", None),))
    assert trial.loaded.view[("main", "m")].engine == "myisam"
    assert trial.differences == [], "\n".join(map(str, trial.differences))


def test_shrinking_stays_bounded(run: Run) -> None:
    """A mismatch costs ~20 server loads to locate and shrink (Differ.shrink_budget caps one case):
    a guard against a shrinker that would make this test slow, counted in loads, not seconds."""
    mismatches = sum(c.mismatch for c in run.cases)
    assert run.loads <= COUNT + 8 * len(run.cases) + 60 * mismatches, (run.loads, mismatches)


def _agree(differential_server: MariaDB, units: tuple[str, ...]) -> D.Trial:
    script = D.Script(0, tuple(D.Unit("ddl", text, end="own") for text in units))
    server = D.ServerRunner(differential_server, jobs=CLIENTS)
    [trial] = D.Differ(server, D.InnolintRunner(server.lower_case_table_names)).trials([script])
    server.close()
    return trial


PACKETS = {
    "transaction under DELIMITER": ("DELIMITER $$", "BEGIN; DROP TABLE T2; CREATE TABLE t3 (d INT UNIQUE, KEY ix (d)); "
                                    "COMMIT$$", "DELIMITER ;", "CREATE TABLE t4 (a INT);"),
    "statements under DELIMITER": ("DELIMITER //", "CREATE TABLE t1 (a INT); ALTER TABLE nope ADD b INT; "
                                   "CREATE TABLE t2 (a INT)//", "CREATE TABLE t5 (a INT)//"),
    "BEGIN NOT ATOMIC": ("DELIMITER ;;", "BEGIN NOT ATOMIC CREATE TABLE t1 (a INT); ALTER TABLE t1 ADD KEY (zz); "
                         "CREATE TABLE `T1` (b INT); END;;", "DELIMITER ;"),
    "IF 1 THEN": ("DELIMITER //", "IF 1 THEN CREATE TABLE t1 (a INT DEFAULT 'x'); CREATE TABLE t2 (b INT); END IF//",
                  "IF 1 THEN CREATE TABLE t3 (b INT); END IF//", "DELIMITER ;"),
    "a refusal the replay finds in the definition": ("DELIMITER //", "CREATE TABLE t1 (f TEXT) ENGINE=MEMORY; "
                                                     "CREATE TABLE t2 (a INT)//", "DELIMITER ;"),
}


@pytest.mark.parametrize("name", PACKETS)
def test_a_packet_stops_at_its_first_refused_statement(differential_server: MariaDB, name: str) -> None:
    """The server runs a packet (statements sent at once under a DELIMITER, a compound block)
    up to the first statement it refuses; innolint replays none after it either, and says so."""
    trial = _agree(differential_server, PACKETS[name])
    assert trial.loaded.errors, "the script shows nothing the server refuses"
    assert trial.differences == [], "\n".join(map(str, trial.differences))
    assert any("not run: the server refuses the statement" in m for *_, m in trial.linted.diagnostics)


#: a statement innolint skips that the server may refuse, then DDL in the same packet (fuzz seed 413)
DOUBTFUL_PACKETS = {
    "INSERT into a missing table": ("DELIMITER ;;", "INSERT INTO log_missing VALUES ('x');\nCREATE TABLE t4 (e INT);"),
    "UPDATE in BEGIN NOT ATOMIC": ("DELIMITER //", "BEGIN NOT ATOMIC UPDATE Nowhere SET a = 1; DROP TABLE IF EXISTS t9; "
                                   "CREATE TABLE t1 (a INT); END//", "DELIMITER ;"),
    "SELECT from a missing table": ("DELIMITER $$", "SELECT n FROM missing_t WHERE 1 = 0; ALTER TABLE t0 ADD c INT$$",
                                    "DELIMITER ;"),
    "DELETE then two": ("DELIMITER //", "CREATE TABLE t2 (a INT);\nDELETE FROM gone; CREATE TABLE t3 (b INT); "
                        "DROP TABLE t2//"),
}
#: ... and skipped statements that do not fail so: nothing to say, and the views agree
SAFE_PACKETS = {
    "SET and SELECT FROM DUAL": ("DELIMITER ;;", "SET @a := 1; SELECT 1 FROM  DUAL WHERE 1 = 0; CREATE TABLE t5 (a INT);;",
                                 "DELIMITER ;"),
    "DO, COMMIT, SELECT": ("DELIMITER //", "START TRANSACTION; DO 1; SELECT 'from x' AS s; CREATE TABLE t6 (a INT); "
                           "COMMIT//"),
}


@pytest.mark.parametrize("name", DOUBTFUL_PACKETS)
def test_ddl_after_a_skipped_statement_that_may_fail_is_where_innolint_says_so(differential_server: MariaDB,
                                                                                name: str) -> None:
    """The server refuses the INSERT/UPDATE/DELETE/SELECT and runs nothing after it in the packet;
    innolint does not run it, so it says at each DDL statement after it that it cannot tell."""
    units = (D.Unit("ddl", "CREATE TABLE t0 (a INT);", end="own"),
             *(D.Unit("ddl", text, end="own") for text in DOUBTFUL_PACKETS[name]))
    server = D.ServerRunner(differential_server, jobs=CLIENTS)
    _, cases = D.Differ(server, D.InnolintRunner(server.lower_case_table_names)).run([D.Script(0, units)])
    server.close()
    assert cases, "the server ran the packet's DDL after all"
    assert [c.status for c in cases] == ["diagnosed"], [c.report() for c in cases]
    assert any("innolint cannot tell whether the server runs this" in m for m in cases[0].diagnostics[0][3:])


@pytest.mark.parametrize("name", SAFE_PACKETS)
def test_ddl_after_skipped_statements_that_do_not_fail(differential_server: MariaDB, name: str) -> None:
    trial = _agree(differential_server, SAFE_PACKETS[name])
    assert trial.differences == [], "\n".join(map(str, trial.differences))
    assert not any("cannot tell whether the server runs" in m for *_, m in trial.linted.diagnostics)


KEYS_ON_CHANGED_COLUMNS = {
    # a key on a CHANGEd column names it by its old name: judged by the column it becomes (seed 402)
    "TEXT(n) is a TINYTEXT": ("CREATE TABLE t4 (c INT NOT NULL, f INT NOT NULL, PRIMARY KEY (f), INDEX ix_a (f, c), "
                              "KEY ix_b (c, f)) CHARSET latin1;",
                              "ALTER TABLE t4 CHANGE c d TEXT(100) COMMENT 'x', ADD UNIQUE INDEX uk_c (d, f);"),
    "utf8mb4 TINYTEXT renamed": ("CREATE TABLE t5 (Col INT, KEY (Col)) CHARSET utf8mb4;",
                                 "ALTER TABLE t5 CHANGE Col other_name TINYTEXT;"),
    "a longer VARCHAR": ("CREATE TABLE t6 (a VARCHAR(10), b INT, KEY k (b, a)) CHARSET latin1 ENGINE=InnoDB;",
                         "ALTER TABLE t6 CHANGE a a2 VARCHAR(3070);"),
    # a UNIQUE prefix over its whole column is stored without it: ranked first, it clusters (seed 404)
    "a whole-column prefix clusters": ("CREATE TABLE t7 (d BLOB NOT NULL, e VARCHAR(191) NOT NULL) ENGINE=InnoDB;",
                                       "CREATE UNIQUE INDEX cx_c ON t7 (d(10));",
                                       "CREATE UNIQUE INDEX cx_a ON t7 (e(191)) ALGORITHM NOCOPY;",
                                       "ALTER TABLE t7 ADD UNIQUE cx_b (e(191)), ALGORITHM=INPLACE, LOCK=NONE;"),
    "a whole CHAR prefix": ("CREATE TABLE t8 (k CHAR(8) NOT NULL, x INT NOT NULL, UNIQUE KEY ux (x, k(2)));",
                            "ALTER TABLE t8 ADD UNIQUE KEY uk (k(8)), ALGORITHM=NOCOPY;"),
}


@pytest.mark.parametrize("name", KEYS_ON_CHANGED_COLUMNS)
def test_keys_as_the_server_stores_them_agree(differential_server: MariaDB, name: str) -> None:
    trial = _agree(differential_server, KEYS_ON_CHANGED_COLUMNS[name])
    assert trial.differences == [], "\n".join(map(str, trial.differences))


@pytest.mark.parametrize("mode", ["NO_BACKSLASH_ESCAPES", "ANSI_QUOTES,STRICT_ALL_TABLES"])
def test_a_set_of_sql_mode_in_a_stopped_packet_is_where_innolint_says_it_may_lose_track(
        differential_server: MariaDB, mode: str) -> None:
    """The splitter follows a SET of sql_mode as it reads; the replay finds later that a statement
    before it in its packet is refused, so the server never ran it: said at the SET (fuzz seed 398)."""
    quoted = "'C:\\dir\\'" if "BACKSLASH" in mode else '"x"'
    trial = _agree(differential_server, ("DELIMITER //", "DROP TABLE t_missing;", f"SET sql_mode = '{mode}'//",
                                         f"CREATE TABLE t1 (b INT COMMENT {quoted})//", "DELIMITER ;"))
    assert trial.differences, "the server and innolint read the CREATE alike: the test shows nothing"
    assert trial.status(3) == "diagnosed"  # (unit 3: the CREATE the two read differently)
    assert any("from here on with the sql_mode" in m for *_, m in trial.linted.diagnostics)


def test_prefixes_of_changed_columns_and_text_keys_agree_exactly(differential_server: MariaDB) -> None:
    """A prefix a changed column outgrows goes (a number, a length no longer than the prefix);
    one on a column changed to TEXT stays; MariaDB's own prefix on a key over a whole TEXT column."""
    trial = _agree(differential_server, (
        "CREATE TABLE t1 (a VARCHAR(20), b INT, KEY (a(10)), UNIQUE KEY u (a(12)));",
        "ALTER TABLE t1 MODIFY a VARCHAR(5);",
        "CREATE TABLE t2 (a VARCHAR(20), b CHAR(9), KEY (a(10)), KEY kb (b(4), a(3)));",
        "ALTER TABLE t2 MODIFY a INT, CHANGE b c CHAR(4);",
        "CREATE TABLE t3 (a VARCHAR(20) NOT NULL, PRIMARY KEY (a(10)));",
        "ALTER TABLE t3 MODIFY a TEXT NOT NULL;",
        "CREATE TABLE t4 (a VARCHAR(20), KEY (a(10)));",
        "ALTER TABLE t4 MODIFY a VARCHAR(30);",
    ))
    assert trial.differences == [], "\n".join(map(str, trial.differences))
