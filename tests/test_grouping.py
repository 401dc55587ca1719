"""One problem, one finding: a table definition's copies in tenant schemas give one finding with
the count and the schema names, for every rule, in the engine and the audit's path alike."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from linter.rules.checkapi import CheckContext
from linter.config.settings import ConfigResolver
from linter.engine import RunOptions, lint_paths
from linter.rules.findings import GROUP_NAMES_KEPT, Finding
from linter.rules.grouping import group_copies
from linter.parse.elements import Location
from linter.schema.model import SchemaModel
from linter.parse.statement import parse_statement
from linter.server.replay import Replayer
from tests.complexity import assert_linear

ROOT = Path(__file__).resolve().parent.parent

#: per tenant: a table without a key, a table clustered on a text UUID, a keyed table
TENANT = """CREATE DATABASE `{schema}`;
USE `{schema}`;
CREATE TABLE `audit_log` (`created_at` DATETIME NOT NULL, `message` VARCHAR(200) NOT NULL) ENGINE=InnoDB;
CREATE TABLE `customer` (`id` CHAR(36) NOT NULL, `email` VARCHAR(255) NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;
CREATE TABLE `orders` (`id` BIGINT NOT NULL AUTO_INCREMENT, `customer_id` CHAR(36) NOT NULL,
  PRIMARY KEY (`id`), KEY `by_customer` (`customer_id`), KEY `by_customer_again` (`customer_id`)) ENGINE=InnoDB AUTO_INCREMENT={ai};
"""

NAMINGS = {
    "numbered": lambda n: f"tenant_{n:05d}",
    "words": lambda n: f"{['acme', 'contoso', 'globex', 'initech', 'umbrella', 'hooli', 'wayne'][n % 7]}_{n}_shop",
    "upper": lambda n: f"Customer{n}DB",
}


def dump(names: list[str]) -> str:
    return "".join(TENANT.format(schema=name, ai=1000 + 7 * n) for n, name in enumerate(names))


def lint_text(text: str, tmp_path: Path, name: str = "tenants.sql") -> list[Finding]:
    path = tmp_path / name
    path.write_text(text)
    return lint_paths([str(path)]).findings


@pytest.mark.parametrize("naming", sorted(NAMINGS))
@pytest.mark.parametrize("tenants", [3, 25, 60])
def test_every_rule_gives_one_finding_per_definition(tmp_path: Path, naming: str, tenants: int) -> None:
    names = [NAMINGS[naming](n) for n in range(1, tenants + 1)]
    found = lint_text(dump(names), tmp_path)
    per_tenant_rules = {"no-primary-key", "uuid-primary-key", "redundant-index"}
    by_rule: dict[str, list[Finding]] = {}
    for finding in found:
        by_rule.setdefault(finding.rule, []).append(finding)
    assert per_tenant_rules <= set(by_rule), sorted(by_rule)
    for rule in per_tenant_rules:
        (one,) = by_rule[rule]  # one finding, not `tenants`
        assert one.count == tenants
        assert one.schema == names[0] and one.schemas[0] == names[0]
        assert list(one.schemas) == names[:GROUP_NAMES_KEPT]
        lines = dump(names).splitlines()
        created = lines.index(next(line for line in lines if f"`{one.table}`" in line and line.startswith("CREATE TABLE")))
        # the first copy's place: its CREATE TABLE, on the line of the element at fault (issue 34)
        at = created if rule != "redundant-index" else created + 1  # (`by_customer_again` is on the next line)
        assert one.line == at + 1
        if one.fix:  # the first copy's fix, said to be repeated in each schema
            assert one.fix.splitlines()[0] == (
                f"-- for each of the {tenants:,} tenant schemas: this is {names[0]}'s, repeat it with each name")
            assert f"`{names[0]}`." in one.fix
    # the checks that group themselves say the same
    for finding in by_rule.get("tenant-tablespace", []):
        assert finding.count == tenants and finding.schemas[0] == names[0]


def test_copies_that_differ_stay_apart(tmp_path: Path) -> None:
    """A drifted tenant (another definition of audit_log) is its own finding; a tenant whose copy
    was fixed is not counted; the others are one."""
    names = [f"tenant_{n}" for n in range(1, 9)]
    text = dump(names)
    drifted = "CREATE TABLE `audit_log` (`created_at` DATETIME NOT NULL, `message` TEXT NOT NULL, `level` INT) ENGINE=InnoDB;"
    fixed = "CREATE TABLE `audit_log` (`id` INT NOT NULL PRIMARY KEY, `created_at` DATETIME NOT NULL) ENGINE=InnoDB;"
    blocks = text.split("CREATE DATABASE")
    blocks[3] = blocks[3].replace(blocks[3].splitlines()[2], drifted)  # tenant_3
    blocks[5] = blocks[5].replace(blocks[5].splitlines()[2], fixed)  # tenant_5
    found = [f for f in lint_text("CREATE DATABASE".join(blocks), tmp_path) if f.rule == "no-primary-key"]
    assert sorted((f.count, f.schema) for f in found) == [(1, "tenant_3"), (6, "tenant_1")]
    big = next(f for f in found if f.count == 6)
    assert "tenant_3" not in big.schemas and "tenant_5" not in big.schemas
    single = next(f for f in found if f.count == 1)
    assert single.schemas == ("tenant_3",)  # a tenant table, named even alone


def test_a_suppressed_copy_is_not_counted(tmp_path: Path) -> None:
    names = [f"t{n}" for n in range(1, 6)]
    text = dump(names).replace(
        "USE `t2`;\nCREATE TABLE `audit_log`", "USE `t2`;\n-- innolint: ignore[no-primary-key] archived tenant\nCREATE TABLE `audit_log`")
    found = [f for f in lint_text(text, tmp_path) if f.rule == "no-primary-key"]
    assert [(f.count, f.schemas) for f in found] == [(4, ("t1", "t3", "t4", "t5"))]


def test_no_tenant_layout_no_grouping(tmp_path: Path) -> None:
    """Two schemas are not a tenant layout (min_schemas 3): each keeps its finding, with no names."""
    found = [f for f in lint_text(dump(["shop", "shop_archive"]), tmp_path) if f.rule == "no-primary-key"]
    assert [(f.schema, f.count, f.schemas) for f in found] == [("shop", 1, ()), ("shop_archive", 1, ())]


def test_configured_tenant_pattern_groups(tmp_path: Path) -> None:
    """Two schemas named by tenant_schema_pattern are tenants; a third schema that is not stays apart."""
    (tmp_path / ".innolint.toml").write_text('tenant_schema_pattern = "cust_[0-9]+"\n')
    reporting = ("CREATE DATABASE reporting;\nUSE reporting;\n" + TENANT.splitlines()[2] + "\n"
                 + "".join(f"CREATE TABLE r{n} (id INT PRIMARY KEY);\n" for n in range(4)))
    text = dump(["cust_1", "cust_2"]) + reporting
    path = tmp_path / "t.sql"
    path.write_text(text)
    report = lint_paths([str(path)], options=RunOptions(ConfigResolver()))
    found = [(f.schema, f.count) for f in report.findings if f.rule == "no-primary-key"]
    assert sorted(found) == [("cust_1", 2), ("reporting", 1)]


def test_json_carries_count_and_names(tmp_path: Path) -> None:
    names = [f"tenant_{n:03d}" for n in range(1, 31)]
    (tmp_path / "d.sql").write_text(dump(names))
    done = subprocess.run([sys.executable, "-m", "linter.cli", "check", "--format", "json", "d.sql"], cwd=tmp_path,
                          capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    report = json.loads(done.stdout)
    nopk = [f for f in report["findings"] if f["rule"] == "no-primary-key"]
    assert len(nopk) == 1 and nopk[0]["count"] == 30 and nopk[0]["schemas"] == names[:GROUP_NAMES_KEPT]


def test_two_findings_of_one_table_under_one_subject_stay_two() -> None:
    """A check that says two things of one table (same rule, severity and subject) gives two
    findings per copy: the n-th goes with the n-th, never two of one table together."""
    replayer = Replayer()
    for n in range(4):
        for statement in (f"CREATE DATABASE s{n}", f"USE s{n}", "CREATE TABLE t (a INT, b INT)", "CREATE TABLE u (a INT)"):
            replayer.apply(parse_statement(statement), Location("x.sql", 1))
    model = replayer.model
    made = [Finding(rule="r", severity="warning", path="x.sql", line=1, schema=f"s{n}", table="t", message=f"m{k}")
            for n in range(4) for k in range(2)]
    grouped = group_copies(made, model, CheckContext())
    assert [(f.message, f.count, f.schemas) for f in grouped] == [("m0", 4, ("s0", "s1", "s2", "s3")),
                                                                   ("m1", 4, ("s0", "s1", "s2", "s3"))]


def _model_and_findings(tenants: int) -> tuple[SchemaModel, list[Finding]]:
    replayer = Replayer()
    creates = [parse_statement(f"CREATE TABLE t{k} (a INT, b VARCHAR(10))") for k in range(5)]
    made = []
    for n in range(tenants):
        replayer.apply(parse_statement(f"CREATE DATABASE s{n}"), Location("x.sql", 1))
        replayer.apply(parse_statement(f"USE s{n}"), Location("x.sql", 1))
        for k, op in enumerate(creates):
            replayer.apply(op, Location("x.sql", n * 5 + k))
            made.append(Finding(rule="no-primary-key", severity="warning", path="x.sql", line=n * 5 + k,
                                schema=f"s{n}", table=f"t{k}", message="m", subject="row-id"))
    return replayer.model, made


def test_grouping_grows_linearly() -> None:
    """n and 10n tenants (100 and 1,000 findings) in the same run: the time may grow at most ~15x
    (a quadratic step would make it ~100x), measured as tests/complexity.py measures. The sizes
    stay small on purpose: past the CPU caches (hundreds of tenants, and a test process whose heap
    holds the whole suite) plain dictionary lookups alone grow 12-17x for 10x the data (50 and 500
    tenants measured 17.5x once in CI with the same number of calls per finding; 20 and 200: ~8x)."""

    def grouping(tenants: int) -> Callable[[], object]:
        model, made = _model_and_findings(tenants)

        def work() -> None:
            result = group_copies(made, model, CheckContext())
            assert len(result) == 5 and {f.count for f in result} == {len(made) // 5}

        return work

    assert_linear(grouping, 20)


@pytest.mark.mariadb
def test_the_audit_of_a_tenant_server_groups_per_definition(mariadb) -> None:  # type: ignore[no-untyped-def]
    """A real server with 12 tenant schemas: one finding per rule and definition, pointing at the
    first tenant's table on the server, with the schemas named."""
    import io

    from linter.audit.connection import connect
    from linter.audit.server import AuditOptions, read_server, run_checks
    from linter.schema.target import Target

    names = [f"grp_tenant_{n:02d}" for n in range(1, 13)]
    script = "".join(TENANT.format(schema=name, ai=1 + n).replace("CREATE DATABASE", "CREATE DATABASE IF NOT EXISTS")
                     for n, name in enumerate(names))
    mariadb.sql(script)
    try:
        with connect(f"mysql://root@/?socket={mariadb.socket}&schemas={','.join(names)}") as connection:
            audit = read_server(connection, names, AuditOptions(), stderr=io.StringIO())
        report = run_checks(audit, CheckContext(target=Target.parse("mariadb-10.11")))
    finally:
        mariadb.sql("".join(f"DROP DATABASE IF EXISTS {name};" for name in names))
    nopk = [f for f in report.findings if f.rule == "no-primary-key"]
    assert len(nopk) == 1, [(f.schema, f.table) for f in nopk]
    assert (nopk[0].count, nopk[0].schemas[:2]) == (12, tuple(names[:2]))
    assert nopk[0].path == f"mysql://localhost/{names[0]}/audit_log"
    redundant = [f for f in report.findings if f.rule == "redundant-index"]
    assert redundant and all(f.count == 12 for f in redundant)


def test_a_2000_tenant_dump_is_one_problem_in_every_format(tmp_path: Path) -> None:
    """2,000 tenants with the same tables: each problem once in JSON (count, bounded names), SARIF
    (one result each), the Markdown summary (one row each), Checks annotations and workflow
    commands (one each), with the count said."""
    from linter.github.check_runs import annotation
    from linter.report import sarif, summary
    from linter.report.github import render_commands

    names = [f"tenant_{n:05d}" for n in range(1, 2001)]
    path = tmp_path / "tenants.sql"
    path.write_text(dump(names))
    report = lint_paths([str(path)])
    nopk = [f for f in report.findings if f.rule == "no-primary-key"]
    assert len(nopk) == 1 and nopk[0].count == 2000 and len(nopk[0].schemas) == GROUP_NAMES_KEPT
    assert len(report.findings) <= 10, [(f.rule, f.table, f.count) for f in report.findings]
    assert all(f.count == 2000 for f in report.findings)
    log = sarif.build(report, root=str(tmp_path))
    results = log["runs"][0]["results"]
    assert len(results) == len(report.findings)
    assert all(r["properties"]["count"] == 2000 for r in results)
    markdown = summary.render(report, limit=summary.COMMENT_LIMIT)
    rows = [line for line in markdown.splitlines() if line.startswith(("| warning |", "| info |", "| error |"))]
    assert len(rows) == len(report.findings) and all("+1,999 tenant schemas" in r for r in rows)
    annotations = [annotation(f, str(tmp_path)) for f in report.findings]
    assert all("The same in 2,000 tenant schemas (tenant_00001, tenant_00002, tenant_00003 and 1,997 more)."
               in a["message"] for a in annotations)
    commands = render_commands(report.findings, root=str(tmp_path))
    assert commands.count("The same in 2,000 tenant schemas") == len(report.findings)
