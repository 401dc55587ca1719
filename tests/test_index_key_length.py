"""index-key-length: what it says MariaDB does with a key is what the test MariaDB does.

Generated keys (kinds, column types, lengths, prefixes, character sets, row formats) are loaded:
a key the finding says is refused is refused with the quoted error; one it says MariaDB cuts to
a prefix comes back from SHOW CREATE TABLE with exactly that prefix; one it says becomes a hash
comes back USING HASH; a key without a finding comes back as written. Each fix loads (written
into the refused CREATE TABLE, or run as the ALTER on the table MariaDB changed) and lints clean.
MySQL's behaviour is the documented one (MySQL 8.0 manual 17.22 "InnoDB Limits")."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from linter.rules.key_length import key_problem
from linter.rules.findings import Finding
from linter.schema import innodb_sizes as sizes
from linter.schema.target import Target
from tests.ddl_outcome import TableDDL, run
from tests.helpers import findings, lint_sql
from tests.mariadb import MariaDB
from tests.test_innodb_sizes import table_of

RULE = "index-key-length"
TARGET = "mariadb-10.11"


def lint(ddl: str, tmp_path: Path, target: str = TARGET) -> list[Finding]:
    return findings(lint_sql(ddl + ";\n", tmp_path, target=target), RULE)


def keyed(columns: dict[str, str], kind: str, parts: str, *, charset: str = "utf8mb4", options: str = "") -> TableDDL:
    keys = {"PRIMARY": f"PRIMARY KEY ({parts})"} if kind == "primary" else {
        "id": "PRIMARY KEY (`id`)", "k": f"{'UNIQUE ' if kind == 'unique' else ''}KEY `k` ({parts})"}
    defs = dict(columns) if kind == "primary" else {"id": "INT NOT NULL", **columns}
    return TableDDL("t", defs, keys, f"DEFAULT CHARSET={charset}{options}")


def test_the_issues_example(server: MariaDB, tmp_path: Path) -> None:
    """KEY (a) on VARCHAR(1000) utf8mb4: MariaDB makes it KEY (a(768)) with a Note; MySQL refuses it."""
    ddl = keyed({"a": "VARCHAR(1000)"}, "index", "`a`")
    maria, mysql = lint(ddl.sql(), tmp_path), lint(ddl.sql(), tmp_path, "mysql-8.0")
    assert [(f.severity, f.subject) for f in maria] == [("warning", "truncated:k")]
    assert "the key becomes `a`(768)" in maria[0].message
    assert "Note 1071 (42000): Specified key was too long; max key length is 3072 bytes" in maria[0].message
    assert [(f.severity, f.subject) for f in mysql] == [("error", "refused:k")]
    assert "ERROR 1071 (42000): Specified key was too long; max key length is 3072 bytes" in mysql[0].message
    made = run(server, "kl_issue", [ddl.sql()], table="t")
    assert made.ok and ("Note", 1071, "Specified key was too long; max key length is 3072 bytes") in made.notes
    assert "KEY `k` (`a`(768))" in made.tables["t"]
    assert maria[0].fix == "ALTER TABLE `t` DROP INDEX `k`, ADD INDEX `k` (`a`(768));"
    # MySQL refuses the CREATE TABLE: no table to ALTER, the statement is to be written otherwise
    assert mysql[0].fix is None and "write INDEX `k` (`a`(768)) in it instead" in mysql[0].message


@pytest.mark.parametrize(("ddl", "limit", "error"), [
    (keyed({"a": "VARCHAR(200)"}, "index", "`a`", options=" ROW_FORMAT=COMPACT"), 767, 1071),
    (keyed({"a": "VARCHAR(500)", "b": "VARCHAR(500)"}, "unique", "`a`, `b`"), 3072, 1071),
    (keyed({"a": "TEXT"}, "index", "`a`"), None, 1170),
    (keyed({"a": "JSON"}, "index", "`a`"), None, 3152),
    (keyed({"a": "VARCHAR(800) NOT NULL"}, "primary", "`a`"), 3072, 1071),
])
def test_mysql_refuses_with_its_own_error(ddl: TableDDL, limit: int | None, error: int, tmp_path: Path) -> None:
    for target in ("mysql-5.7", "mysql-8.0", "mysql-8.4", "percona-8.0"):
        found = lint(ddl.sql(), tmp_path, target)
        assert [f.severity for f in found] == ["error"]
        assert f"ERROR {error} (42000)" in found[0].message
        if limit is not None:
            assert f"max key length is {limit} bytes" in found[0].message


@pytest.mark.parametrize("ddl", [
    keyed({"a": "VARCHAR(191)"}, "unique", "`a`", options=" ROW_FORMAT=COMPACT"),  # 764 bytes
    keyed({"a": "VARCHAR(767)", "b": "INT"}, "index", "`a`, `b`"),  # 3,068 + 4
    keyed({"a": "TEXT"}, "index", "`a`(768)"),
    keyed({"a": "VARCHAR(3072)"}, "index", "`a`", charset="latin1"),
    keyed({"a": "VARBINARY(3072)"}, "unique", "`a`"),
    keyed({"a": "VARCHAR(2000)", "b": "VARCHAR(2000)"}, "index", "`a`(300), `b`(400)"),
])
def test_keys_within_the_limits(ddl: TableDDL, server: MariaDB, tmp_path: Path) -> None:
    for target in ("mariadb-10.11", "mysql-8.0"):
        assert lint(ddl.sql(), tmp_path, target) == []
    made = run(server, "kl_ok", [ddl.sql()], table="t")
    assert made.ok and "HASH" not in made.tables["t"] and not [n for n in made.notes if n[1] == 1071]


def test_fulltext_expression_and_myisam_keys_are_not_judged(tmp_path: Path) -> None:
    sql = ("CREATE TABLE a (id INT PRIMARY KEY, body VARCHAR(5000), FULLTEXT KEY ft (body)) CHARSET utf8mb4;\n"
           "CREATE TABLE b (id INT PRIMARY KEY, j JSON, KEY k ((CAST(j->>'$.x' AS CHAR(2000))))) CHARSET utf8mb4;\n"
           "CREATE TABLE c (id INT PRIMARY KEY, u VARCHAR(900), KEY k (u)) ENGINE=MyISAM CHARSET latin1;\n")
    assert findings(lint_sql(sql, tmp_path, target=TARGET), RULE) == []


def test_a_key_added_by_a_later_migration_is_found_there(tmp_path: Path) -> None:
    history = tmp_path / "migrations"
    history.mkdir()
    (history / "V1__t.sql").write_text("CREATE TABLE t (id INT PRIMARY KEY, url VARCHAR(1000)) CHARSET utf8mb4;\n")
    (history / "V2__index.sql").write_text("-- index the url\nCREATE INDEX k_url ON t (url);\n")
    from linter.rules.checkapi import CheckContext
    from linter.engine import Engine, Unit

    context = CheckContext(target=Target.parse("mysql-8.0"))
    unit = Unit([str(history / "V1__t.sql"), str(history / "V2__index.sql")], migration_format="flyway",
                is_migration_history=True)
    found = [f for f in Engine(context).lint_unit(unit, context).findings if f.rule == RULE]
    assert [(Path(f.path).name, f.line) for f in found] == [("V2__index.sql", 2)]


# --- generated keys on the server ---------------------------------------------------------------------
_PARTS = ["VARCHAR({n})", "CHAR({c})", "VARBINARY({n})", "TEXT|{p}", "BLOB|{p}", "TEXT", "VARCHAR({n})|{p}",
          "INT", "BIGINT", "DATETIME(6)", "VARCHAR({n}) CHARACTER SET latin1", "CHAR({c}) CHARACTER SET utf8mb3",
          "DECIMAL(40,10)", "UUID", "VARCHAR({n}) CHARACTER SET ucs2", "JSON", "JSON|{p}"]
_CHARSETS = ["latin1", "utf8mb3", "utf8mb4", "ucs2", "utf16", "big5"]
_FORMATS = ["", " ROW_FORMAT=DYNAMIC", " ROW_FORMAT=COMPACT", " ROW_FORMAT=REDUNDANT", " ROW_FORMAT=COMPRESSED"]


def _generated(rng: random.Random) -> TableDDL:
    kind = rng.choice(["index", "index", "unique", "primary"])
    columns, parts = {}, []
    for i in range(rng.choice([1, 1, 2, 3])):
        spec = rng.choice(_PARTS).format(n=rng.choice([50, 191, 192, 255, 256, 767, 768, 1000, 1536, 3072, 3073, 4000]),
                                         c=rng.choice([10, 64, 191, 255]), p=rng.choice([10, 191, 255, 500, 768, 1000]))
        definition, _, prefix = spec.partition("|")
        length = re.search(r"\((\d+)\)", definition)
        if prefix and length and int(prefix) > int(length.group(1)):
            prefix = ""  # a prefix longer than the column: ERROR 1089, another problem than this rule's
        if kind == "primary" and prefix == "" and definition.split("(")[0] in ("TEXT", "BLOB"):
            prefix = "100"
        columns[f"p{i}"] = definition + (" NOT NULL" if kind == "primary" else "")
        parts.append(f"`p{i}`" + (f"({prefix})" if prefix else ""))
    return keyed(columns, kind, ", ".join(parts), charset=rng.choice(_CHARSETS), options=rng.choice(_FORMATS))


def _key_line(show_create: str, kind: str) -> str:
    pattern = r"^\s*PRIMARY KEY .*$" if kind == "primary" else r"^\s*(?:UNIQUE )?KEY `k` .*$"
    return re.search(pattern, show_create, re.M).group(0).strip().rstrip(",")  # type: ignore[union-attr]


def test_generated_keys_do_on_mariadb_what_the_findings_say(server: MariaDB, tmp_path: Path) -> None:
    rng = random.Random(3072)
    target = Target.parse(TARGET)
    seen: dict[str, int] = {}
    for _ in range(90):
        ddl = _generated(rng)
        model = table_of(ddl.sql())
        index = next(i for i in model.indexes if (i.kind == "primary") == ("PRIMARY" in ddl.keys and len(ddl.keys) == 1)
                     or i.name == "k")
        problem = key_problem(model, index, target)
        kind = problem.kind if problem else "ok"
        seen[kind] = seen.get(kind, 0) + 1
        made = run(server, "kl_gen", [ddl.sql()], table="t")
        found = lint(ddl.sql(), tmp_path)
        if problem is None:
            assert made.ok and "HASH" not in made.tables["t"] and not [n for n in made.notes if n[1] == 1071], ddl.sql()
            assert found == []
            continue
        assert [f.subject.split(":")[0] for f in found] == [kind], (ddl.sql(), found)
        if kind == "refused":
            assert not made.ok, ddl.sql()
            assert f"ERROR {made.code} (42000): {made.message}" in found[0].message, (found[0].message, made)
        elif kind == "truncated":
            assert made.ok and [n for n in made.notes if n[1] == 1071], ddl.sql()
            line = _key_line(made.tables["t"], "index")
            for column, chars in problem.server_prefixes.items():
                assert f"`{column}`({chars})" in line, (line, problem.server_prefixes)
        else:
            assert made.ok and "USING HASH" in _key_line(made.tables["t"], "unique"), ddl.sql()
        fix = found[0].fix
        if fix is None:
            continue
        if kind == "refused":
            fixed = ddl.with_fix(fix)
            loaded = run(server, "kl_gen", [fixed.sql()], table="t")
            assert loaded.ok, (fix, fixed.sql(), loaded)
        else:  # the ALTER on the table MariaDB changed
            loaded = run(server, "kl_gen", [ddl.sql(), fix], table="t")
            assert loaded.ok and "HASH" not in loaded.tables["t"], (fix, loaded)
        assert lint(loaded.tables["t"], tmp_path) == [], (fix, loaded.tables["t"])
    assert set(seen) == {"ok", "refused", "truncated", "hashed"}, seen


@pytest.mark.parametrize("target", ["mariadb-10.11", "mysql-8.0"])
def test_a_refused_key_is_said_once_and_the_statement_changes_nothing(tmp_path: Path, target: str) -> None:
    """The replay refuses the statement for the key (linter/server/key_refusals.py): the finding
    says so, not a replay-error too; the table is not made, so no other rule speaks of it, and a
    later DROP TABLE of it finds none (the finding stays). With the check disabled, the refusal is
    refused-ddl's, at that statement: never silent."""
    from linter.cli import main

    sql = ("CREATE TABLE notes (body MEDIUMTEXT NOT NULL, PRIMARY KEY (body));\n"
           "CREATE TABLE tags (label VARCHAR(20) NOT NULL, n INT);\n"
           "ALTER TABLE tags ADD COLUMN extra TEXT, ADD PRIMARY KEY (extra);\n"
           "DROP TABLE IF EXISTS notes;\n")
    report = lint_sql(sql, tmp_path, target=target)
    said = {(f.rule, f.line, f.table) for f in report.findings if f.rule in ("index-key-length", "no-primary-key")}
    # the refused ALTER added no PRIMARY KEY: tags is still flagged, at its CREATE; notes was never made
    assert said == {("index-key-length", 1, "notes"), ("index-key-length", 3, "tags"), ("no-primary-key", 2, "tags")}
    assert not [d for d in report.diagnostics if d.rule == "replay-error" and d.line in (1, 3)], report.diagnostics
    path = tmp_path / "schema.sql"
    code = main(["check", "--target", target, "--ignore", "index-key-length", "--format", "json", "--output",
                 str(tmp_path / "out.json"), "--", str(path)])
    import json

    out = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert code in (0, 1)
    assert [f["line"] for f in out["findings"] if f["rule"] == "refused-ddl" and "PRIMARY KEY" in f["message"]
            ][:1] == [1], out["findings"]
    assert not [f for f in out["findings"] if f["rule"] == "index-key-length"]


def test_the_screen_never_skips_a_key_over_a_limit(tmp_path: Path) -> None:
    """The decision measures a key only when it may be too long (`key_facts.may_be_too_long`,
    which the replay's refusals share): over generated keys (types, lengths, prefixes, character
    sets, row formats, engines, targets), every key whose measured parts are over 767 bytes or of
    unknown size, or whose total is over 3,072 bytes, on any target, passes the screen; and the
    keys the decision refuses, cuts or hashes are among them."""
    from linter.parse.statement import parse_statement
    from linter.parse.elements import Location
    from linter.schema.key_facts import as_written, may_be_too_long
    from linter.server.replay import Replayer

    rng = random.Random(14_300)
    types = ("INT", "BIGINT", "DECIMAL(65,30)", "DATE", "DATETIME(6)", "ENUM('a','b')", "BIT(64)", "CHAR(191)",
             "VARCHAR(191)", "VARCHAR(192)", "VARCHAR(255)", "VARCHAR(768)", "VARBINARY(800)", "BINARY(255)",
             "TEXT", "TINYBLOB", "JSON", "NVARCHAR(300)", "NCHAR(200)", "SET('x','y')", "YEAR", "TIMESTAMP",
             "CHAR(100) CHARACTER SET utf32", "VARCHAR(383) CHARACTER SET ucs2", "VARBINARY(767)", "POINT")
    over = screened = problems = checked = 0
    for n in range(300):
        names = [f"c{k}" for k in range(rng.randrange(1, 5))]
        columns = ", ".join(f"{c} {rng.choice(types)} NOT NULL" for c in names)
        parts = ", ".join(c + (f"({rng.choice((10, 100, 191, 200, 400, 800))})" if rng.random() < 0.2 else "")
                          for c in rng.sample(names, rng.randrange(1, len(names) + 1)))
        kind = rng.choice(("PRIMARY KEY", "UNIQUE KEY u", "KEY k"))
        options = rng.choice(("", " ROW_FORMAT=COMPACT", " ROW_FORMAT=REDUNDANT", " DEFAULT CHARSET=utf8mb4",
                              " DEFAULT CHARSET=latin1", " ENGINE=MyISAM", " DEFAULT CHARSET=utf32",
                              " ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4"))
        for target in ("mysql-8.0", "mysql-5.7", "mariadb-10.11"):
            replayer = Replayer(target=Target.parse(target))
            try:
                op = parse_statement(f"CREATE TABLE t{n} ({columns}, {kind} ({parts})){options}")
            except Exception:  # a prefix the type takes none of: not a key to judge
                continue
            if replayer.apply(op, Location("g.sql", 1)) is not None:
                continue
            table = next(iter(replayer.model.tables()))
            for index in table.indexes:
                checked += 1
                written = as_written(index)
                width = sizes.key_width(table, written, Target.parse(target))
                measured = [p.bytes for p in width.parts]
                passes = may_be_too_long(written, table.body.columns.get)
                screened += passes
                if any(b is None or b > 767 for b in measured) or sum(b or 0 for b in measured) > 3072:
                    over += 1
                    assert passes, (target, op, measured)
                if key_problem(table, index, Target.parse(target), innodb=True) is not None:
                    problems += 1
                    assert passes, (target, op)
    assert checked > 650 and over > 180 and problems > 100 and screened < checked, (checked, over, problems, screened)
