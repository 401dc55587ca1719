"""`innolint fix --migration DIR`: the fixes as the next migration in the directory's own format,
checked on the real MariaDB as the fixes themselves are (tests/test_fix_verification.py).

For each format, histories are generated (random names, types, order, several findings spread over
several migrations, ALTERs and CREATE INDEX after the CREATE TABLE); `fix --migration` writes the
new migration; the whole history and then the new up migration are loaded into MariaDB through
the real `mariadb` client, statement errors failing the test; the server is audited and the
directory re-linted: every applied fix's finding is gone. Then the down migration is loaded: the
tables are again what the history alone made (SHOW CREATE TABLE, AUTO_INCREMENT counters and key
order aside).
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from linter.audit.connection import connect
from linter.audit.server import AuditOptions, read_server, run_checks
from linter.rules.checkapi import CheckContext
from linter.cli import main
from linter.config.settings import ConfigResolver
from linter.fix_migration import FixError, build, output_for, write
from linter.input.migrations.formats.base import NewMigration, next_version
from linter.input.migrations.history import order
from linter.schema.target import Target
from tests import sampling
from tests.cli_run import run_cli
from tests.mariadb import MariaDB
from tests.sampling import spread
from tests.shared import need

TARGET = "mariadb-10.11"
FORMATS = ["flyway", "flyway-undo", "golang-migrate", "goose", "dbmate", "timestamp", "diesel", "authelia", "prisma",
           "atlas"]


# --- generated histories -----------------------------------------------------------------------------

def _name(rng: random.Random, stem: str) -> str:
    return f"{stem}_{rng.choice(['a', 'b', 'x', 'q'])}{rng.randint(1, 99)}"


def history_statements(rng: random.Random) -> list[list[str]]:
    """Several migrations (lists of statements) with several findings: no primary key (never had
    one, or dropped later), a link table on a surrogate, redundant keys (in the CREATE, or added by
    CREATE INDEX later), an AUTO_INCREMENT counter past half its type, a wide natural key, a
    foreign key with a shorter child column, a compression candidate, plus clean tables."""
    users, groups, link = _name(rng, "users"), _name(rng, "team"), _name(rng, "member")
    logs, orders, ticket, member = _name(rng, "log"), _name(rng, "orders"), _name(rng, "ticket"), _name(rng, "member_by_email")
    doc, parent, child = _name(rng, "document"), _name(rng, "code"), _name(rng, "use")
    id_type = rng.choice(["INT", "BIGINT"])
    first = [
        f"CREATE TABLE {users} (id {id_type} NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR({rng.randint(20, 90)}))",
        f"CREATE TABLE {groups} (id {id_type} NOT NULL AUTO_INCREMENT, title VARCHAR(40), PRIMARY KEY (id))",
        f"CREATE TABLE {logs} (created_at DATETIME NOT NULL, message VARCHAR({rng.randint(50, 500)}))",
        f"CREATE TABLE {link} (id {id_type} NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id {id_type} NOT NULL, "
        f"group_id {id_type} NOT NULL, " + rng.choice(["UNIQUE KEY uq_pair (user_id, group_id), ", ""])
        + f"FOREIGN KEY (user_id) REFERENCES {users} (id), FOREIGN KEY (group_id) REFERENCES {groups} (id))",
    ]
    second = [
        f"CREATE TABLE {orders} (id INT NOT NULL PRIMARY KEY, customer_id INT NOT NULL, placed DATE, "
        f"KEY by_customer (customer_id), KEY customer_placed (customer_id, placed))",
        f"CREATE TABLE {ticket} (id {rng.choice(['INT', 'SMALLINT', 'MEDIUMINT'])} NOT NULL AUTO_INCREMENT, "
        f"title VARCHAR(50), PRIMARY KEY (id)) AUTO_INCREMENT=COUNTER",
        f"CREATE TABLE {member} (email VARCHAR(255) NOT NULL, name VARCHAR(80), joined DATE, PRIMARY KEY (email), "
        "KEY by_name (name), KEY by_joined (joined)) DEFAULT CHARSET=utf8mb4",
    ]
    third = [
        f"CREATE TABLE {parent} (code VARCHAR({rng.randint(60, 200)}) NOT NULL PRIMARY KEY)",
        f"CREATE TABLE {child} (id INT PRIMARY KEY, code VARCHAR({rng.randint(10, 50)}) NOT NULL, "
        f"CONSTRAINT fk_{child} FOREIGN KEY (code) REFERENCES {parent} (code) ON DELETE CASCADE)",
        f"CREATE TABLE {doc} (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, payload JSON, body LONGTEXT)",
        # clustered by its parent's wide key: advice (info), no fix: listed, never run
        f"CREATE TABLE {member}_login (email VARCHAR(255) NOT NULL, seq INT NOT NULL, at DATETIME, "
        f"PRIMARY KEY (email, seq), KEY by_at (at), FOREIGN KEY (email) REFERENCES {member} (email)) "
        "DEFAULT CHARSET=utf8mb4",
        f"CREATE INDEX again_{rng.randint(1, 9)} ON {orders} (customer_id)",
        f"ALTER TABLE {groups} ADD COLUMN note VARCHAR(20)",
    ]
    # the counter: past 50% of the type's signed maximum
    maxima = {"INT": 2_147_483_647, "SMALLINT": 32_767, "MEDIUMINT": 8_388_607}
    ticket_type = second[1].split(" ")[4]
    second[1] = second[1].replace("COUNTER", str(int(maxima[ticket_type] * rng.uniform(0.55, 0.8))))
    migrations = [first, second, third]
    if rng.random() < 0.5:  # a primary key dropped by a later migration
        keyed = _name(rng, "metric")
        migrations[0].append(f"CREATE TABLE {keyed} (k VARCHAR(20) NOT NULL, v INT, PRIMARY KEY (k))")
        migrations.append([f"ALTER TABLE {keyed} DROP PRIMARY KEY"])
    return migrations


def write_history(directory: Path, fmt: str, migrations: list[list[str]]) -> None:
    directory.mkdir(parents=True)
    for number, statements in enumerate(migrations, start=1):
        body = ";\n".join(statements) + ";\n"
        if fmt in ("flyway", "flyway-undo"):
            (directory / f"V{number}__step_{number}.sql").write_text(body)
            if fmt == "flyway-undo":
                (directory / f"U{number}__step_{number}.sql").write_text("-- undo\n")
        elif fmt == "golang-migrate":
            (directory / f"{number:06d}_step.up.sql").write_text(body)
            (directory / f"{number:06d}_step.down.sql").write_text("-- down\n")
        elif fmt == "goose":
            (directory / f"{number:05d}_step.sql").write_text(f"-- +goose Up\n{body}-- +goose Down\nSELECT 1;\n")
        elif fmt == "dbmate":
            (directory / f"2024010{number}120000_step.sql").write_text(f"-- migrate:up\n{body}\n-- migrate:down\n")
        elif fmt == "timestamp":
            (directory / f"2024_01_0{number}_000000_step.sql").write_text(body)
        elif fmt == "diesel":
            sub = directory / f"2024-01-0{number}-120000_step"
            sub.mkdir()
            (sub / "up.sql").write_text(body)
            (sub / "down.sql").write_text("-- down\n")
        elif fmt == "authelia":
            (directory / f"V{number:04d}.Step.up.sql").write_text(body)
            (directory / f"V{number:04d}.Step.down.sql").write_text("-- down\n")
        elif fmt == "prisma":  # prisma/migrations/<timestamp>_<name>/migration.sql beside the lock file
            sub = directory / f"2024010{number}120000_step_{number}"
            sub.mkdir()
            (sub / "migration.sql").write_text(body)
            (directory / "migration_lock.toml").write_text('provider = "mysql"\n')
        elif fmt == "atlas":
            (directory / f"2024010{number}120000_step.sql").write_text(body)
    if fmt == "atlas":
        from linter.input.migrations.formats import atlas

        names = sorted(p.name for p in directory.glob("*.sql"))
        (directory / "atlas.sum").write_text(atlas.sum_text([(n, (directory / n).read_bytes()) for n in names]))


# --- the server --------------------------------------------------------------------------------------

def sections(path: Path) -> tuple[str, str | None]:
    """The up and down SQL of one migration file, as its tool runs them."""
    text = path.read_text()
    for up_marker, down_marker in (("-- +goose Up", "-- +goose Down"), ("-- migrate:up", "-- migrate:down")):
        if text.startswith(up_marker):
            up, _, down = text[len(up_marker):].partition(down_marker)
            return up.replace("-- +goose StatementBegin", "").replace("-- +goose StatementEnd", ""), \
                down.replace("-- +goose StatementBegin", "").replace("-- +goose StatementEnd", "")
    return text, None


def load(server: MariaDB, database: str, sql: str) -> None:
    """Through the real client, stopping at the first error (no --force)."""
    done = subprocess.run(["mariadb", "--no-defaults", "-u", "root", "-S", server.socket, database],
                          input=sql.encode(), capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace") + "\n---\n" + sql


def snapshot(server: MariaDB, database: str) -> dict[str, tuple[list[str], set[str], str]]:
    """Per table: the column lines in order, the key and constraint lines as a set, the options
    without AUTO_INCREMENT=N."""
    found = {}
    for (name,) in server.sql(f"SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '{database}'"):
        text = server.sql(f"SHOW CREATE TABLE `{database}`.`{name}`")[0][1]
        lines = [line.strip().rstrip(",") for line in text.splitlines()[1:-1]]
        columns = [line for line in lines if line.startswith("`")]
        keys = {line for line in lines if not line.startswith("`")}
        options = re.sub(r" AUTO_INCREMENT=\d+", "", text.splitlines()[-1])
        found[name] = (columns, keys, options)
    return found


def _key(finding: dict | object) -> tuple[str, str, str]:
    get = finding.get if isinstance(finding, dict) else (lambda k: getattr(finding, k))  # type: ignore[union-attr]
    return (get("rule"), (get("table") or "").lower(), (get("subject") or "").lower())


def lint_json(directory: Path, *args: str) -> dict:
    done = run_cli(["check", "--format", "json", "--target", TARGET, "--fail-level", "none", *args, str(directory)],
                   cwd=Path(__file__).parents[1])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def applied_order(directory: Path, fmt: str) -> list[Path]:
    files = [str(p) for p in directory.rglob("*.sql")]
    history, _ = order(str(directory), files, {"flyway-undo": "flyway"}.get(fmt, fmt))
    assert history is not None
    return [Path(p) for p in history.files]


def _fix_cases() -> list[tuple[str, int, str]]:
    """(format, history seed, least severity fixed): every format in every run, half of them down to
    info (an advice-only finding is listed, not run), with histories drawn from the run's seed
    (tests/sampling.py); INNOLINT_EXHAUSTIVE=1: every format with histories 1 and 2 at warning and 3
    at info."""
    if sampling.exhaustive():
        return [(fmt, seed, "info" if seed == 3 else "warning") for seed in (1, 2, 3) for fmt in FORMATS]
    rng = sampling.rng("fix-migration")
    severities = spread(rng, ["warning", "info"], len(FORMATS))
    return [(fmt, rng.randrange(1 << 30), severity) for fmt, severity in zip(FORMATS, severities)]


@pytest.mark.parametrize("fmt, seed, severity", [pytest.param(*case, id=f"{case[0]}-{case[2]}-{case[1]}")
                                                 for case in _fix_cases()])
def test_fix_migration_on_mariadb(mariadb: MariaDB, tmp_path: Path, fmt: str, seed: int, severity: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(seed * 100 + FORMATS.index(fmt))
    directory = tmp_path / "migrations"
    write_history(directory, fmt, history_statements(rng))
    before = lint_json(directory)
    chosen = [f for f in before["findings"] if severity == "info" or f["severity"] in ("warning", "error")]
    assert len({f["rule"] for f in chosen}) >= 5, chosen
    existing = {p for p in directory.rglob("*")}
    code = main(["fix", "--migration", str(directory), "--target", TARGET, "--min-severity", severity])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    created = sorted(p for p in directory.rglob("*") if p not in existing and p.is_file())
    assert created, err
    assert all(p.read_text() for p in created)
    # the files the format expects, named to run last
    names = [p.relative_to(directory).as_posix() for p in created]
    expected = {
        "flyway": r"^V4__innolint_fixes\.sql$|^V5__innolint_fixes\.sql$",
        "flyway-undo": r"^[UV][45]__innolint_fixes\.sql$",
        "golang-migrate": r"^00000[45]_innolint_fixes\.(up|down)\.sql$",
        "goose": r"^0000[45]_innolint_fixes\.sql$",
        "dbmate": r"^\d{14}_innolint_fixes\.sql$",
        "timestamp": r"^2024_01_0[34]_000001_innolint_fixes\.sql$",
        "diesel": r"^\d{4}-\d\d-\d\d-\d{6}_innolint_fixes/(up|down)\.sql$",
        "authelia": r"^V000[45]\.InnolintFixes\.(up|down)\.sql$",
        "prisma": r"^\d{14}_innolint_fixes/migration\.sql$",
        "atlas": r"^\d{14}_innolint_fixes\.sql$",
    }[fmt]
    assert all(re.match(expected, n) for n in names), names
    pairs = {"flyway-undo": 2, "golang-migrate": 2, "diesel": 2, "authelia": 2}
    assert len(created) == pairs.get(fmt, 1)
    history = applied_order(directory, fmt)
    up_files = [p for p in created if not re.search(r"(\.down\.sql|/down\.sql|^U)", p.relative_to(directory).as_posix())]
    assert history[-1] == up_files[0]  # the new migration runs last

    # the server: the history, then the new up migration
    database = f"fx_{fmt.replace('-', '_')}_{seed}"
    mariadb.sql(f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
    for path in history[:-1]:
        load(mariadb, database, sections(path)[0])
    snapshot_before = snapshot(mariadb, database)
    up_sql, down_sql = sections(up_files[0])
    load(mariadb, database, up_sql)

    after = lint_json(directory)
    if fmt in ("prisma", "atlas"):  # read back in its format: atlas.sum matches, the lock file still says mysql
        assert [d for d in after["diagnostics"] if d["rule"] in ("parse-error", "io-error")] == [], after["diagnostics"]
    fixed = {_key(f) for f in chosen} - {_key(f) for f in after["findings"]}
    listed = re.findall(r"^-- \[([a-z-]+)\]", up_sql.split("-- Not applied")[1], re.M) if "-- Not applied" in up_sql else []
    applied = re.findall(r"^-- \[([a-z-]+)\]", up_sql.split("-- Not applied")[0], re.M)
    assert len(applied) == len(fixed) and len(applied) >= 4, (applied, fixed)
    assert len(applied) + len(listed) == len(chosen)
    assert listed if severity == "info" else True  # the advice-only finding is listed, not run
    with connect(f"mysql://root@/?socket={mariadb.socket}") as connection:
        live = read_server(connection, [database], AuditOptions(), stderr=io.StringIO())
    audited = run_checks(live, CheckContext(target=Target.parse(TARGET)))
    assert not fixed & {_key(f) for f in audited.findings}, "the server still has findings the fix removed"

    # the down migration restores the tables the history made
    down_files = [p for p in created if p not in up_files]
    if down_files:
        down_sql = down_files[0].read_text()
    if fmt in ("flyway", "timestamp", "prisma", "atlas"):
        assert not down_files and down_sql is None
        return
    assert down_sql and "ALTER TABLE" in down_sql
    load(mariadb, database, down_sql)
    assert snapshot(mariadb, database) == snapshot_before


# --- naming, refusing, the pieces --------------------------------------------------------------------

@pytest.mark.parametrize(("versions", "expected"), [
    (["1", "2", "10"], "11"),
    (["001", "002"], "003"),
    (["1.1", "1.2", "1.10"], "1.11"),
    (["1_1", "1_9"], "1_10"),
    (["2024_01_05_000000"], "2024_01_05_000001"),
    (["000009"], "000010"),
    ([], "1"),
])
def test_next_version(versions: list[str], expected: str) -> None:
    assert next_version(versions) == expected


def test_next_timestamp_is_now_when_later() -> None:
    assert next_version(["20240101120000"], now=1767225600) == "20260101000000"
    assert next_version(["29990101120000"], now=1767225600) == "29990101120001"


def _flyway(tmp_path: Path) -> Path:
    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "V1__init.sql").write_text("CREATE TABLE event_log (created_at DATETIME NOT NULL, m VARCHAR(10));\n")
    return directory


def test_never_overwrites_and_writes_nothing_then(tmp_path: Path) -> None:
    """The next version is above every name in DIR, so a name is taken only by a race or a
    link planted there: the file, or the link's target, is left alone."""
    directory = _flyway(tmp_path)
    (directory / "V2__innolint_fixes.sql").symlink_to(tmp_path / "outside.sql")
    (directory / "V3__innolint_fixes.sql").write_text("-- mine\n")
    for name in ("V2__innolint_fixes.sql", "V3__innolint_fixes.sql"):
        with pytest.raises(FixError, match="exists already; innolint never overwrites a file"):
            write(str(directory), NewMigration({name: "-- fixes\n"}))
    assert not (tmp_path / "outside.sql").exists() and (directory / "V3__innolint_fixes.sql").read_text() == "-- mine\n"
    (directory / "V2__innolint_fixes.sql").unlink()
    (directory / "V3__innolint_fixes.sql").unlink()
    (directory / "V1__init.sql").rename(directory / "V7__init.sql")
    assert next(iter(output_for(build(str(directory), ConfigResolver(search=False)), os.listdir(directory)).files)) \
        == "V8__innolint_fixes.sql"


def test_a_pair_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "x.down.sql").write_text("-- taken\n")
    with pytest.raises(FixError, match="exists already"):
        write(str(directory), NewMigration({"x.up.sql": "-- up\n", "x.down.sql": "-- down\n"}))
    assert sorted(os.listdir(directory)) == ["x.down.sql"]


@pytest.mark.parametrize("name", ["../x.sql", "/tmp/x.sql", "a/../../x.sql", "a\0b.sql"])
def test_refuses_to_write_outside_the_directory(tmp_path: Path, name: str) -> None:
    directory = tmp_path / "db"
    directory.mkdir()
    with pytest.raises(FixError, match="not a file name inside"):
        write(str(directory), NewMigration({name: "-- x\n"}))
    assert os.listdir(directory) == [] and not (tmp_path / "x.sql").exists()


def test_a_plain_directory_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = tmp_path / "schema"
    directory.mkdir()
    (directory / "shop.sql").write_text("CREATE TABLE t (a INT);\n")
    assert main(["fix", "--migration", str(directory)]) == 2
    assert "not a migration directory" in capsys.readouterr().err
    assert main(["fix", "--migration", str(tmp_path / "nope")]) == 2


def test_nothing_to_fix_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "V1__init.sql").write_text("CREATE TABLE t (id INT PRIMARY KEY);\n")
    assert main(["fix", "--migration", str(directory)]) == 0
    assert "nothing to fix" in capsys.readouterr().err and os.listdir(directory) == ["V1__init.sql"]


def test_advice_and_failing_fixes_are_comments(tmp_path: Path) -> None:
    """A tenant layout on MariaDB (advice, no fix) and an undefined tablespace on MySQL (its
    fix belongs before the statement it repairs: appended, the finding stays) are listed, not run."""
    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "V1__orders.sql").write_text(
        "CREATE TABLE orders (id INT PRIMARY KEY) TABLESPACE ts_orders;\n"
        "CREATE TABLE log_a (at DATETIME NOT NULL);\n")
    resolver = ConfigResolver(overrides={"target": ("mysql-8.0", "--target")})
    plan = build(str(directory), resolver)
    assert {f.finding.rule: f.applied for f in plan.fixes} == {"undefined-tablespace": False, "no-primary-key": True}
    [listed] = plan.listed
    assert "its finding stays" in listed.advice
    up = output_for(plan, os.listdir(directory)).files["V2__innolint_fixes.sql"]
    body = up[up.index("-- Not applied"):]
    assert "--   CREATE TABLESPACE `ts_orders`" in body
    assert all(line.startswith("--") or not line for line in body.splitlines())


@pytest.mark.parametrize("fmt", ["flyway", "goose"])
def test_names_cannot_break_out_of_comments(tmp_path: Path, fmt: str) -> None:
    """A table named with a line break and SQL after it: in the file, the name is escaped in
    every comment, and the SQL runs only as the fix quotes it (goose: inside StatementBegin/End,
    since goose would end the statement at the line ending in `;`)."""
    directory = tmp_path / "db"
    directory.mkdir()
    ddl = "CREATE TABLE `evil\nDROP DATABASE prod; --` (created_at DATETIME NOT NULL, m VARCHAR(10));\n"
    name = "V1__init.sql" if fmt == "flyway" else "00001_init.sql"
    (directory / name).write_text(ddl if fmt == "flyway" else f"-- +goose Up\n{ddl}-- +goose Down\n")
    plan = build(str(directory), ConfigResolver(search=False))
    [(new_name, up)] = output_for(plan, os.listdir(directory)).files.items()
    assert "\nDROP DATABASE" not in up.replace("`evil\nDROP DATABASE prod; --`", "")
    assert f"-- [no-primary-key] {name}:{1 if fmt == 'flyway' else 2}: evil\\nDROP DATABASE" in up
    if fmt == "goose":
        assert "-- +goose StatementBegin\nALTER TABLE `evil\nDROP DATABASE prod; --` ADD COLUMN" in up
        assert up.count("-- +goose StatementEnd") == 2  # the up and the down statement


def test_dry_run_prints_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = _flyway(tmp_path)
    assert main(["fix", "--migration", str(directory), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("==> V2__innolint_fixes.sql <==") and "ALTER TABLE `event_log` ADD COLUMN" in out
    assert os.listdir(directory) == ["V1__init.sql"]


def test_selection_and_severity_choose_the_fixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = tmp_path / "db"
    directory.mkdir()
    (directory / "V1__init.sql").write_text(
        "CREATE TABLE a (created_at DATETIME NOT NULL, m VARCHAR(10));\n"
        "CREATE TABLE b (id INT PRIMARY KEY, c INT, KEY k1 (c), KEY k2 (c, id));\n"
        "CREATE TABLE d (id INT PRIMARY KEY, doc JSON);\n")
    main(["fix", "--migration", str(directory), "--dry-run", "--select", "redundant"])
    out = capsys.readouterr().out
    assert "[redundant-index]" in out and "[no-primary-key]" not in out
    main(["fix", "--migration", str(directory), "--dry-run", "--ignore", "redundant-index"])
    out = capsys.readouterr().out
    assert "[no-primary-key]" in out and "[redundant-index]" not in out and "[compression-candidate]" not in out
    main(["fix", "--migration", str(directory), "--dry-run", "--min-severity", "info"])
    assert "[compression-candidate]" in capsys.readouterr().out


# --- real histories from the corpus ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["authelia", "golang-migrate", "guacamole"])
def test_fix_migration_on_corpus_histories(mariadb: MariaDB, tmp_path: Path, name: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Histories written by other people (a copy in a scratch directory): the fixes load after
    them on MariaDB, their findings are gone, and the down (where the format has one) restores."""
    import shutil

    directory = tmp_path / name
    shutil.copytree(need("corpus", name), directory)
    before = lint_json(directory)
    existing = set(directory.rglob("*"))
    assert main(["fix", "--migration", str(directory), "--target", TARGET]) in (0, 1)
    capsys.readouterr()
    created = sorted(p for p in directory.rglob("*") if p not in existing)
    fmt = {"authelia": "authelia", "golang-migrate": "golang-migrate", "guacamole": "timestamp"}[name]
    history = applied_order(directory, fmt)
    assert history[-1] in created
    database = f"fx_corpus_{name.replace('-', '_')}"
    mariadb.sql(f"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}`")
    for path in history[:-1]:
        load(mariadb, database, sections(path)[0])
    snapshot_before = snapshot(mariadb, database)
    load(mariadb, database, sections(history[-1])[0])
    warnings = {_key(f) for f in before["findings"] if f["severity"] != "info"}
    assert warnings and not warnings & {_key(f) for f in lint_json(directory)["findings"]}
    downs = [p for p in created if p.name.endswith(".down.sql")]
    if downs:
        load(mariadb, database, downs[0].read_text())
        assert snapshot(mariadb, database) == snapshot_before


def test_a_finding_grouped_across_tenants_is_listed(tmp_path: Path) -> None:
    """One finding for a definition repeated in tenant schemas carries the first tenant's fix:
    run once, it would leave the others; it is listed for each schema to be fixed, not run."""
    directory = tmp_path / "db"
    directory.mkdir()
    tenants = "".join(f"CREATE DATABASE t{n}; USE t{n}; CREATE TABLE events (at DATETIME NOT NULL, m VARCHAR(9)); "
                      f"CREATE TABLE users (id INT PRIMARY KEY); CREATE TABLE items (id INT PRIMARY KEY);\n"
                      for n in range(1, 6))
    (directory / "V1__tenants.sql").write_text(tenants)
    plan = build(str(directory), ConfigResolver(search=False))
    [fix] = [f for f in plan.fixes if f.finding.rule == "no-primary-key"]
    assert fix.finding.count == 5 and not fix.applied and "5 tenant schemas" in fix.advice


@pytest.mark.parametrize("fmt", ["prisma", "atlas"])
def test_fix_writes_prisma_and_atlas_migrations_their_tools_run(tmp_path: Path, fmt: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """`innolint fix` wrote a loose .sql into a Prisma directory (`prisma migrate` never runs it)
    and left atlas.sum stale (Atlas then refuses the directory). Now: a Prisma migration folder
    that the Prisma reader reads back as the last migration, and for Atlas the file and the
    atlas.sum `atlas migrate hash` writes (the project's own check of the sum accepts it)."""
    from linter.input.migrations.formats import atlas
    from linter.input.migrations.history import detect

    directory = tmp_path / ("prisma/migrations" if fmt == "prisma" else "migrations")
    directory.parent.mkdir(parents=True, exist_ok=True)
    write_history(directory, fmt, [["CREATE TABLE event_log (created_at DATETIME NOT NULL, message VARCHAR(200))"]])
    before = sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*"))
    code = main(["fix", "--migration", str(directory), "--target", TARGET])
    out, err = capsys.readouterr()
    assert code == 0, err
    created = sorted(set(p.relative_to(directory).as_posix() for p in directory.rglob("*")) - set(before))
    history = detect(str(directory))
    assert history is not None and history.format == fmt and history.notes == []
    if fmt == "prisma":
        [folder, migration] = created
        assert re.fullmatch(r"\d{14}_innolint_fixes", folder) and migration == f"{folder}/migration.sql"
        assert history.files[-1] == str(directory / migration)
        assert (directory / "migration_lock.toml").read_text() == 'provider = "mysql"\n'
    else:
        [migration] = created
        assert re.fullmatch(r"\d{14}_innolint_fixes\.sql", migration) and history.files[-1] == str(directory / migration)
        names = atlas.sorted_names(p.name for p in directory.glob("*.sql"))
        assert atlas.verify(str(directory), [str(directory / n) for n in names], lambda path: True) == []
        assert (directory / "atlas.sum").read_text() == atlas.sum_text([(n, (directory / n).read_bytes()) for n in names])
    assert "no-primary-key" in (directory / migration).read_text()
    # linted again, the history holds the fix: its finding is gone, nothing about the layout is said
    report = json.loads(run_cli(["check", "--format", "json", "--target", TARGET, "--fail-level", "none",
                                 str(directory)]).stdout)
    assert report["diagnostics"] == [] and "no-primary-key" not in {f["rule"] for f in report["findings"]}


def test_an_atlas_sum_already_stale_is_left_to_atlas(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sum that did not match before is not written again over files innolint did not check:
    the migration is written and the note says to run `atlas migrate hash`."""
    directory = tmp_path / "migrations"
    write_history(directory, "atlas", [["CREATE TABLE event_log (created_at DATETIME NOT NULL, message VARCHAR(200))"]])
    stale = (directory / "atlas.sum").read_text().replace("h1:", "h1:X", 1)
    (directory / "atlas.sum").write_text(stale)
    assert main(["fix", "--migration", str(directory), "--target", TARGET]) == 0
    _, err = capsys.readouterr()
    assert "note: atlas.sum did not match the directory before this migration: run `atlas migrate hash`" in err
    assert (directory / "atlas.sum").read_text() == stale


def test_fix_writes_a_liquibase_changeset_into_the_include_all_directory(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """DIR holds the root changelog: the fix is a formatted SQL file in the directory it includes
    whole (no changelog to edit), its down as `--rollback` lines, read back as the last migration."""
    from linter.input.migrations.history import detect

    directory = tmp_path / "db"
    (directory / "changes").mkdir(parents=True)
    (directory / "master.xml").write_text(
        '<?xml version="1.0"?>\n<databaseChangeLog xmlns="http://www.liquibase.org/xml/ns/dbchangelog">\n'
        '  <includeAll path="changes/" relativeToChangelogFile="true"/>\n</databaseChangeLog>\n')
    (directory / "changes" / "001_init.sql").write_text(
        "--liquibase formatted sql\n--changeset a:1\nCREATE TABLE event_log (created_at DATETIME NOT NULL, message TEXT);\n")
    assert main(["fix", "--migration", str(directory), "--target", TARGET]) == 0
    capsys.readouterr()
    written = directory / "changes" / "002_innolint_fixes.sql"
    text = written.read_text()
    assert text.startswith("--liquibase formatted sql\n\n--changeset innolint:002-innolint_fixes\n")
    assert "--rollback ALTER TABLE `event_log` DROP PRIMARY KEY, DROP COLUMN `id`;" in text
    history = detect(str(directory))
    assert history is not None and history.files[-1] == str(written)


def test_a_directory_swapped_for_a_link_is_not_written_into(tmp_path: Path) -> None:
    directory = tmp_path / "db"
    directory.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (directory / "changes").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(FixError, match="not a directory inside the migration directory"):
        write(str(directory), NewMigration({"changes/002_x.sql": "-- x\n"}))
    assert not list((tmp_path / "elsewhere").iterdir())
