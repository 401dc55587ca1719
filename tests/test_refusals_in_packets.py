"""The statements the server refuses (linter/server/refusals.py, alter_refusals.py) refused alike at
the top level and inside a packet: a DELIMITER packet of several statements, BEGIN; ... COMMIT,
BEGIN NOT ATOMIC ... END, IF 1 THEN ... END IF. The server stops a packet at its first refused
statement; innolint must refuse the same statement and replay none after it. Each script is loaded
through the real `mariadb` client (tests/differential.py) and compared with innolint's model.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import differential as D

#: (statements that set the scene, the statement the server refuses); after it the packet makes t9
REFUSALS: dict[str, tuple[tuple[str, ...], str]] = {
    "1060 ADD a column the table has": (("CREATE TABLE t1 (a INT, b INT)",), "ALTER TABLE t1 ADD COLUMN `B` INT"),
    "1091 DROP a column that is not there": (("CREATE TABLE t1 (a INT, b INT)",), "ALTER TABLE t1 DROP COLUMN c, DROP b"),
    "1054 MODIFY a column that is not there": (("CREATE TABLE t1 (a INT) ENGINE=MyISAM",), "ALTER TABLE t1 MODIFY zz TEXT"),
    "1072 a key on a column that is not there": (("CREATE TABLE t1 (a INT)",), "CREATE INDEX k ON t1 (a, nope)"),
    "1072 a column dropped out of a UNIQUE key": (
        ("CREATE TABLE t1 (id INT NOT NULL, c DATE NOT NULL, PRIMARY KEY (id), UNIQUE KEY uk_a (id, c))",),
        "ALTER TABLE t1 ADD UNIQUE KEY uk_b (id), DROP PRIMARY KEY, DROP COLUMN c"),
    "1072 CREATE ... SELECT": (("CREATE TABLE t1 (e TEXT) ENGINE=Aria",), "CREATE TABLE t2 (PRIMARY KEY (id)) AS SELECT * FROM t1"),
    "1113 no visible column": (("CREATE TABLE t1 (e DECIMAL(10,2) NOT NULL)",), "ALTER TABLE t1 MODIFY e INT INVISIBLE"),
    "1283 FULLTEXT on a BLOB": (("CREATE TABLE t1 (d BLOB NOT NULL)",), "ALTER TABLE t1 ADD FULLTEXT KEY ix_b (d)"),
    "4169 AUTO_INCREMENT in a hash key": (
        ("CREATE TABLE t1 (id INT NOT NULL AUTO_INCREMENT, b INT NOT NULL, PRIMARY KEY (id), UNIQUE KEY uk_b (id, b)) "
         "ENGINE=MyISAM",), "ALTER TABLE t1 DROP PRIMARY KEY, CHANGE b d TEXT NOT NULL"),
    "1089 a prefix on a number": (("CREATE TABLE t1 (a INT, b VARCHAR(8))",), "ALTER TABLE t1 ADD KEY (b(4), a(2))"),
    "1170 a PRIMARY KEY over a TEXT in Aria": ((), "CREATE TABLE t1 (c INT NOT NULL, a TEXT NOT NULL, PRIMARY KEY (c, a)) ENGINE=Aria"),
    "1071 a UNIQUE TEXT in Aria": (("CREATE TABLE t1 (c TEXT) ENGINE=Aria",), "ALTER TABLE t1 ADD UNIQUE (c)"),
}

WRAPPERS = {
    "top level": None,
    "statements under DELIMITER": ("", ""),
    "BEGIN; ... COMMIT": ("BEGIN; ", "; COMMIT"),
    "BEGIN NOT ATOMIC": ("BEGIN NOT ATOMIC ", "; END"),
    "IF 1 THEN": ("IF 1 THEN ", "; END IF"),
}


def _script(scene: tuple[str, ...], refused: str, wrapper: tuple[str, str] | None) -> D.Script:
    units = [D.Unit("ddl", text) for text in scene]
    body = (refused, "CREATE TABLE t9 (a INT)")
    if wrapper is None:
        units += [D.Unit("ddl", text) for text in body]
    else:
        head, tail = wrapper
        units += [D.Unit("delimiter", "DELIMITER //", delimiter="//"),
                  D.Unit("packet", head, body, tail, sep="; "),
                  D.Unit("delimiter", "DELIMITER ;", delimiter=";")]
    return D.Script(0, tuple(units))


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_refused_alike_in_every_packet(mariadb: Any, wrapper: str) -> None:
    server = D.ServerRunner(mariadb, jobs=2, prefix="rp_")
    lint = D.InnolintRunner(server.lower_case_table_names)
    try:
        names = list(REFUSALS)
        trials = D.Differ(server, lint).trials([_script(*REFUSALS[n], WRAPPERS[wrapper]) for n in names])
    finally:
        server.close()
        lint.close()
    for name, trial in zip(names, trials):
        report = f"{name}:\n{trial.script.text()}\n" + "\n".join(map(str, trial.differences)) + f"\n{trial.linted.diagnostics}"
        assert trial.loaded.errors, f"the server refused nothing: {report}"
        assert trial.differences == [], report
        refused_line = trial.spans[len(REFUSALS[name][0]) + (0 if WRAPPERS[wrapper] is None else 1)][0]
        assert any(line == refused_line and rule == "refused-ddl" for line, _, rule, _ in trial.linted.diagnostics), report
