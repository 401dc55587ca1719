"""A table the change itself creates is fixed in its CREATE TABLE, not by an ALTER after it
(linter.rules.created_tables), judged by the real MariaDB.

A repository with a committed migration and a new one (untracked, as a PR's or a commit's) that
creates tables with findings (no primary key, a nullable UNIQUE key only, redundant keys, a
zero-date default the target refuses, a UUID key, a wide text key, compression candidates, a
utf8mb3 table), names, types and column order drawn per seed. `check --since HEAD`: each such
finding's fix is the corrected CREATE TABLE. On the server: the corrected CREATE runs (under the
target's sql_mode: MySQL 8.0's for the zero dates, where the CREATE as written is refused with
1067), and the table it makes is the one the CREATE as written plus the ALTER fix (what `check`
without a change set gives) makes; written into the migration in place of its CREATE, the
finding is gone. Where the model cannot write the whole statement (an index COMMENT, a CHECK, a
generated column) the fix stays the ALTER and says it belongs in the CREATE; a table the change
alters after creating it, a table that existed before, and a run without a change set keep the
ALTER.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from tests.cli_run import run_cli
from tests.ddl_outcome import MYSQL_SQL_MODE, first_error
from tests.mariadb import MariaDB

ROOT = Path(__file__).parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
#: MySQL's syntax MariaDB lacks: fixes using it are not run on the test server
MYSQL_ONLY = ("UUID_TO_BIN", "COMPRESSION=")


def git(repo: Path, *args: str) -> None:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=repo,
                          capture_output=True, text=True, env=ENV, check=False)
    assert done.returncode == 0, done.stderr


def report(repo: Path, target: str, *args: str) -> dict:
    done = run_cli(["check", "--format", "json", "--fail-level", "none", "--target", target, *args, "db"], cwd=repo,
                   env=ENV)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def tables(rng: random.Random, target: str) -> dict[str, str]:
    """New tables, each with a finding whose fix alters only it, by name."""
    n = lambda stem: f"{stem}_{rng.randint(1, 999)}"
    t = {}
    name = n("event_log")
    t[name] = f"CREATE TABLE {name} (\n  created_at DATETIME NOT NULL,\n  message VARCHAR({rng.randint(20, 200)})\n)"
    name = n("account")
    cols = [f"email VARCHAR({rng.randint(60, 190)})", "label VARCHAR(40)", f"n {rng.choice(['INT', 'BIGINT'])}"]
    rng.shuffle(cols)
    t[name] = f"CREATE TABLE {name} (\n  " + ",\n  ".join(cols) + ",\n  UNIQUE KEY uq_email (email)\n)"
    name = n("orders")
    t[name] = (f"CREATE TABLE {name} (\n  id INT NOT NULL PRIMARY KEY,\n  customer_id INT NOT NULL,\n  placed DATE,\n"
               f"  KEY by_customer (customer_id),\n  KEY {rng.choice(['customer_placed', 'cp'])} (customer_id, placed)\n"
               ") ENGINE=InnoDB")
    name = n("ticket")
    kinds = rng.sample(["DATE", "DATETIME", "TIMESTAMP"], rng.randint(1, 3))
    zero = {"DATE": "'0000-00-00'", "DATETIME": "'0000-00-00 00:00:00'", "TIMESTAMP": "'0000-00-00 00:00:00'"}
    t[name] = (f"CREATE TABLE {name} (\n  id BIGINT NOT NULL AUTO_INCREMENT,\n  title VARCHAR(50) COMMENT 'what it is',\n"
               + "".join(f"  at_{i} {k} NOT NULL DEFAULT {zero[k]},\n" for i, k in enumerate(kinds))
               + "  PRIMARY KEY (id)\n) DEFAULT CHARSET=utf8mb4")
    name = n("member")
    t[name] = (f"CREATE TABLE {name} (\n  email VARCHAR(255) NOT NULL,\n  name VARCHAR(80),\n  joined DATE,\n"
               "  PRIMARY KEY (email),\n  KEY by_name (name),\n  KEY by_joined (joined),\n  KEY again (name)\n"
               ") DEFAULT CHARSET=utf8mb4 COMMENT='people'")
    name = n("session")
    t[name] = (f"CREATE TABLE {name} (\n  id CHAR(36) NOT NULL,\n  user_id INT NOT NULL,\n  data TEXT,\n"
               "  PRIMARY KEY (id),\n  KEY by_user (user_id),\n  KEY by_user_again (user_id)\n)")
    if target.startswith("mysql"):
        name = n("legacy")
        t[name] = f"CREATE TABLE {name} (\n  id INT PRIMARY KEY,\n  code VARCHAR(10)\n) DEFAULT CHARSET=utf8"
    return t


def _shape(server: MariaDB, database: str, table: str) -> tuple[list[str], set[str], str]:
    text = str(server.sql(f"SHOW CREATE TABLE `{database}`.`{table}`")[0][1])
    lines = [line.strip().rstrip(",") for line in text.splitlines()[1:-1]]
    return ([x for x in lines if x.startswith("`")], {x for x in lines if not x.startswith("`")},
            re.sub(r" AUTO_INCREMENT=\d+", "", text.splitlines()[-1]))


def _statements(fix: str) -> list[str]:
    from linter.rules.fix_sql import statements_of

    return statements_of(fix)


@pytest.mark.parametrize("target", ["mariadb-10.11", "mysql-8.0"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_new_tables_fix_is_its_corrected_create(mariadb: MariaDB, tmp_path: Path, target: str, seed: int) -> None:
    rng = random.Random(f"{target}-{seed}")
    made = tables(rng, target)
    repo = tmp_path / "repo"
    (repo / "db").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "db" / "V1__base.sql").write_text("CREATE TABLE base (id INT NOT NULL PRIMARY KEY);\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    new = repo / "db" / "V2__new.sql"
    new.write_text("".join(f"{create};\n" for create in made.values()))
    changed = report(repo, target, "--since", "HEAD")
    plain = {(f["rule"], f["table"], f["subject"]): f for f in report(repo, target)["findings"]}
    corrected = [f for f in changed["findings"] if f["table"] in made and f["fix"]]
    rules = {f["rule"] for f in corrected}
    assert {"no-primary-key", "redundant-index", "zero-date-default"} <= rules, rules
    mode = MYSQL_SQL_MODE if target.startswith("mysql") else None
    rounds: list[dict[str, tuple[tuple[str, str, str], str]]] = []  # per round: table -> (finding, its CREATE)
    for finding in corrected:
        key = (finding["rule"], finding["table"], finding["subject"])
        fix = finding["fix"]
        assert fix.startswith(f"-- {finding['table']} is created by this change (V2__new.sql:"), fix
        [create] = _statements(fix)
        assert create.startswith("CREATE TABLE"), fix
        alter = plain[key]["fix"]  # what it is for a table that exists
        assert alter.startswith("ALTER TABLE"), alter
        if any(word in fix + alter for word in MYSQL_ONLY):  # MariaDB cannot judge these
            continue
        table = finding["table"]
        # A: the CREATE as written, then the ALTER fix; B: the corrected CREATE
        a, b = f"ctf_a_{seed}", f"ctf_b_{seed}"
        mariadb.sql(f"DROP DATABASE IF EXISTS {a}; DROP DATABASE IF EXISTS {b}; CREATE DATABASE {a}; "
                    f"CREATE DATABASE {b}")
        if finding["rule"] == "zero-date-default" and mode is not None:
            assert first_error(mariadb, a, [made[table]], mode) == 1067  # the CREATE as written: refused
        assert first_error(mariadb, a, [made[table]], None) is None  # (a server that took it)
        assert first_error(mariadb, a, _statements(alter), mode) is None, alter
        assert first_error(mariadb, b, [create], mode) is None, create
        assert _shape(mariadb, b, table) == _shape(mariadb, a, table), (create, alter)
        free = next((r for r in rounds if table not in r), None)
        if free is None:
            rounds.append(free := {})
        free[table] = (key, create)
    assert sum(len(r) for r in rounds) >= 5
    # written into the migration in place of their CREATE (one finding per table at a time): gone
    original = new.read_text()
    for chosen in rounds:
        text = original
        for table, (_, create) in chosen.items():
            text = text.replace(made[table] + ";", create.rstrip(";") + ";")
        new.write_text(text)
        again = report(repo, target, "--since", "HEAD")
        left = {(f["rule"], f["table"], f["subject"]) for f in again["findings"]}
        assert not left & {key for key, _ in chosen.values()}, again["findings"]
        assert [d for d in again["diagnostics"] if d["rule"] == "parse-error"] == []
    new.write_text(original)


def _repo(tmp_path: Path, committed: str, new: str) -> Path:
    repo = tmp_path / "repo"
    (repo / "db").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "db" / "V1__base.sql").write_text(committed)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    (repo / "db" / "V2__new.sql").write_text(new)
    return repo


@pytest.mark.parametrize("extra", [
    "KEY by_a (a) COMMENT 'hot path'",
    "KEY by_a (a) USING BTREE",
    "CONSTRAINT positive CHECK (a > 0)",
    "b2 INT AS (a * 2) VIRTUAL",
])
def test_what_the_model_cannot_write_keeps_the_alter_and_says_where_it_belongs(tmp_path: Path, extra: str) -> None:
    repo = _repo(tmp_path, "CREATE TABLE base (id INT PRIMARY KEY);\n",
                 f"CREATE TABLE t (a INT, b VARCHAR(10), {extra});\n")
    [finding] = [f for f in report(repo, "mariadb-10.11", "--since", "HEAD")["findings"] if f["rule"] == "no-primary-key"]
    assert finding["fix"].startswith("-- t is created by this change (V2__new.sql:1): its fix belongs in that CREATE "
                                     "TABLE"), finding["fix"]
    assert "ALTER TABLE `t` ADD COLUMN `id`" in finding["fix"]


@pytest.mark.parametrize("case", ["altered-later", "existed-before", "no-change-set"])
def test_tables_that_exist_or_change_later_keep_the_alter(tmp_path: Path, case: str) -> None:
    no_key = "CREATE TABLE t (a INT, b VARCHAR(10));\n"
    if case == "existed-before":
        repo = _repo(tmp_path, "CREATE TABLE t (a INT NOT NULL, b VARCHAR(10), PRIMARY KEY (a));\n",
                     "ALTER TABLE t DROP PRIMARY KEY;\n")
    elif case == "altered-later":
        repo = _repo(tmp_path, "CREATE TABLE base (id INT PRIMARY KEY);\n", no_key + "ALTER TABLE t ADD COLUMN c INT;\n")
    else:
        repo = _repo(tmp_path, "CREATE TABLE base (id INT PRIMARY KEY);\n", no_key)
    args = () if case == "no-change-set" else ("--since", "HEAD")
    [finding] = [f for f in report(repo, "mariadb-10.11", *args)["findings"] if f["rule"] == "no-primary-key"]
    assert finding["fix"].startswith("ALTER TABLE `t` ADD COLUMN"), finding["fix"]


@pytest.mark.parametrize("shape", ["tables", "columns"])
def test_the_corrected_creates_cost_grows_linearly(tmp_path: Path, shape: str) -> None:
    """n new tables with a finding each, or one new table with n zero-date columns (n findings
    on it): the corrected CREATEs at n and 10n (tests/complexity.py)."""
    import dataclasses

    from linter.engine import Engine, Unit
    from linter.rules.checkapi import CheckContext
    from linter.rules.created_tables import corrected
    from linter.schema.target import Target
    from tests.complexity import assert_linear

    def sized(n: int):  # type: ignore[no-untyped-def]
        path = tmp_path / f"{shape}-{n}.sql"
        if shape == "tables":
            path.write_text("".join(f"CREATE TABLE t{i} (a INT, b VARCHAR(10));\n" for i in range(n)))
        else:
            path.write_text("CREATE TABLE t (id INT PRIMARY KEY, "
                            + ", ".join(f"d{i} DATE NOT NULL DEFAULT '0000-00-00'" for i in range(n)) + ");\n")
        context = CheckContext(target=Target.parse("mysql-8.0"))
        result = Engine(context).lint_unit(Unit([str(path)]), context)
        findings = [f for f in result.findings if f.fix]
        assert len(findings) >= n
        changed = dataclasses.replace(context, changed=lambda path, line, end: True)
        assert corrected(findings, result.model, changed)[0].fix.startswith("-- t")

        def work() -> None:
            corrected(findings, result.model, changed)

        return work

    assert_linear(sized, 50, what=shape)
