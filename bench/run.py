#!/usr/bin/env python3
"""innolint at dump scale, against its peers: one command, inputs generated on the spot.

    python bench/run.py                 # the full run of issue 8 (a few minutes on 2 cores)
    python bench/run.py --quick         # smaller inputs, one repetition: a smoke test
    python bench/run.py --repeat 5 --out /var/tmp/innobench

It generates its inputs into --out (default bench/out/, ignored by git), runs innolint and the
peers, and prints one table (input, bytes, tables, seconds, tables/s, MB/s, peak RSS) and the
targets of issue 8 with the measured ratios:

Times are in calibration loops (`calibrate`: how long a fresh Python takes for 20M additions,
measured before and after the run: the machine's speed at that moment), so that the goals hold on
a shared or slower machine (issue 31):
- a schema-per-tenant dump, `make_tenants.py -n 10000` (~138 MB, ~111K tables): end to end
  <= 1.4 loops and peak RSS <= 150 MB; also with a general tablespace per tenant (`--tablespace
  general:{tenant}`, every CREATE TABLE differs) and at a tenth of the size (memory follows the
  model, not the file); with --gigabyte a 1 GB one (75,000 tenants) <= 300 MB peak RSS;
- reading and splitting that dump >= 100 MB/s, beside a bare `re.split` over the same text;
- a dump of 10,000 distinct tables (CREATE TABLE statements of the shared corpus, renamed):
  end to end >= 1.0x the rate of bare sqlglot (`parse_one(..., read="mysql")` per statement,
  sqlglotc when installed, in-process) measured in the same run (goal 1.5x);
- a 2,000-table file: innolint against sqlfluff 4.x (`large_file_skip_byte_limit = 0`, else
  sqlfluff skips files over 20 KB without a word), >= 100x faster end to end, and what sqlfluff
  made of the file (violations, parse errors);
- the replay stage alone (`Replayer.apply` on each statement of the distinct and the tenant dumps,
  read and parsed before: no block replay), a number to compare before and after a change of the
  server emulator (issue 33; no goal);
- a warm pre-commit-style run (`innolint check --changed-only` on one migration file) within
  30 ms of the import floor of sqlglot and pydantic (what a run imported before it dropped pydantic).

Each number is the best of --repeat runs (sqlfluff: one run, it is slow); every innolint run is a
fresh process (`python -m linter.cli`), timed from start to exit, its peak RSS from wait4. The
machine (cores, load average before and after) is printed with the results, which are also
written to OUT/results.json. Timed unit tests would be flaky on a shared machine: the goals live
here, with their numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
MAKE_TENANTS = SHARED / "corpus" / "_scale" / "make_tenants.py"
CORPUS = SHARED / "corpus"

#: set by main(): bytecode of the runs goes to OUT/pycache, not into the source tree
CHILD_ENV: dict[str, str] = {}

#: tenants in the --gigabyte dump: about 1.03 GB
GIGABYTE_TENANTS = 75_000

TARGETS = {
    "tenant_loops": 1.4,
    "tenant_rss_mb": 150.0,
    "gigabyte_rss_mb": 300.0,
    "split_mb_s": 100.0,
    "distinct_vs_sqlglot": 1.0,
    "distinct_vs_sqlglot_goal": 1.5,
    "precommit_over_floor_ms": 30.0,
    "sqlfluff_speedup": 100.0,
}


@dataclass
class Row:
    input: str
    tool: str
    bytes: int
    tables: int | None
    seconds: float
    rss_mb: float | None = None
    runs: list[float] = field(default_factory=list)
    note: str = ""
    cpu: float | None = None  # CPU seconds (user + system) of the best run

    @property
    def tables_s(self) -> float | None:
        return self.tables / self.seconds if self.tables and self.seconds else None

    @property
    def mb_s(self) -> float | None:
        return self.bytes / 1e6 / self.seconds if self.bytes and self.seconds else None


# --- running things -----------------------------------------------------------------------------


#: CPU seconds (user + system) of the last `timed` command: steadier than wall time on a shared machine
LAST_CPU: list[float] = [0.0]


def timed(cmd: list[str], *, cwd: Path = ROOT, stdout: int | None = subprocess.DEVNULL) -> tuple[float, float, int, bytes]:
    """Run `cmd` to its end: (wall seconds, peak RSS MB, exit status, stdout if captured)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **CHILD_ENV}
    env.pop("CI", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # warm runs read cached bytecode, as after `pip install`
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE)
    out = b""
    if stdout == subprocess.PIPE:
        assert proc.stdout is not None
        out = proc.stdout.read()
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    LAST_CPU[0] = usage.ru_utime + usage.ru_stime
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err.decode(errors='replace')[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, proc.returncode, out


def innolint(path: Path, repeat: int, *extra: str) -> tuple[float, float, list[float], dict, float]:
    """Best-of-`repeat` end-to-end innolint run: (seconds, peak RSS MB, all runs, JSON report, least CPU s)."""
    runs, rss, report, cpu = [], 0.0, {}, float("inf")
    for _ in range(repeat):
        seconds, peak, _, out = timed(
            [sys.executable, "-m", "linter.cli", "check", "--format", "json", "--fail-level", "none", *extra, str(path)],
            stdout=subprocess.PIPE,
        )
        runs.append(seconds)
        cpu = min(cpu, LAST_CPU[0])
        rss = max(rss, peak)
        report = json.loads(out)
    return min(runs), rss, runs, report, cpu


def measure_in_child(kind: str, path: Path, repeat: int) -> dict:
    """Run one in-process measurement (below) in a fresh interpreter: its own RSS, its own imports."""
    _, rss, _, out = timed([sys.executable, str(Path(__file__).resolve()), "--_measure", kind, str(path),
                            "--repeat", str(repeat)], stdout=subprocess.PIPE)
    result = json.loads(out)
    result["rss_mb"] = rss
    return result


def _measure(kind: str, path: Path, repeat: int) -> dict:
    """In-process timings, best of `repeat`: reading + splitting as the engine does it, the bare
    re.split floor over the same decoded text, bare sqlglot parsing each CREATE TABLE, innolint's
    engine on a file, or that and sqlfluff's Linter by turns (imports and first-use costs excluded)."""
    sys.path.insert(0, str(ROOT))
    best = float("inf")
    result: dict = {}
    if kind == "split":
        from linter.parse.cache import SKIP_FIRST_WORDS, SKIP_PATTERN
        from linter.input.source import read_statements

        for _ in range(repeat):
            started = time.perf_counter()
            stream = read_statements(str(path), skip_words=SKIP_FIRST_WORDS, skip_pattern=SKIP_PATTERN,
                                     unless="innolint:")
            built = sum(1 for _ in stream)
            best = min(best, time.perf_counter() - started)
            result = {"statements": built + stream.skipped, "built": built}
    elif kind == "resplit":
        from linter.input.source import iter_chunks

        pattern = re.compile(r";[ \t\r]*\n")
        for _ in range(repeat):
            started = time.perf_counter()
            pieces = 0
            for chunk in iter_chunks(str(path)):
                pieces += len(pattern.split(chunk))
            best = min(best, time.perf_counter() - started)
            result = {"statements": pieces}
    elif kind == "sqlglot":
        import sqlglot
        from sqlglot.tokens import SQLGLOTC_INSTALLED  # type: ignore[attr-defined]

        from linter.input.source import read_statements

        creates = [s.text for s in read_statements(str(path)) if s.text[:12].upper() == "CREATE TABLE"]
        for _ in range(repeat):
            started = time.perf_counter()
            for text in creates:
                sqlglot.parse_one(text, read="mysql")
            best = min(best, time.perf_counter() - started)
        result = {"tables": len(creates), "bytes": sum(len(t.encode()) for t in creates),
                  "sqlglot": sqlglot.__version__, "sqlglotc": bool(SQLGLOTC_INSTALLED)}
    elif kind == "peers":
        # both linters in one process, by turns, so that a change of the machine's speed touches both
        from sqlfluff.core import FluffConfig, Linter

        from linter.engine import lint_paths

        linter = Linter(config=FluffConfig(overrides={"dialect": "mysql", "large_file_skip_byte_limit": 0}))
        linter.lint_string("SELECT 1;\n")  # dialect and rules loaded: the linting alone is timed
        lint_paths([str(path)])
        fluff_best = float("inf")
        for _ in range(repeat):
            for _ in range(3):
                started = time.perf_counter()
                report = lint_paths([str(path)])
                best = min(best, time.perf_counter() - started)
            started = time.perf_counter()
            linted = linter.lint_paths((str(path),), processes=1)
            fluff_best = min(fluff_best, time.perf_counter() - started)
        result = {"tables": report.stats.tables, "sqlfluff_seconds": fluff_best,
                  "violations": len(linted.get_violations())}
    elif kind == "replay":
        # the replay stage alone: the statements read and parsed first (the engine's parse cache),
        # then each replayed into a fresh Replayer as the engine makes it (no block replay: every
        # statement goes through Replayer.apply)
        from linter.rules.key_length import key_refusal
        from linter.input.source import read_statements
        from linter.parse import ops
        from linter.parse.cache import SKIP_FIRST_WORDS, SKIP_PATTERN, ParseCache
        from linter.parse.tokens import ParseFailure
        from linter.parse.elements import Location
        from linter.schema.target import DEFAULT_TARGET, Target
        from linter.server.key_refusals import KeyJudge
        from linter.server.replay import Replayer

        cache = ParseCache()
        target = Target.parse(DEFAULT_TARGET)
        replayed = []
        for statement in read_statements(str(path), skip_words=SKIP_FIRST_WORDS, skip_pattern=SKIP_PATTERN):
            op = cache.parse(statement.text)
            if not isinstance(op, (ParseFailure, ops.Skipped)):
                replayed.append((op, Location(statement.path, statement.line, statement.column, statement.end_line),
                                 statement.executable))
        del cache
        for _ in range(repeat):
            replayer = Replayer(target=target, key_judge=KeyJudge(key_refusal(target)),
                                alterations=lambda defined, where: False)
            apply = replayer.apply
            started = time.perf_counter()
            for op, where, executable in replayed:
                apply(op, where, executable=executable)
            best = min(best, time.perf_counter() - started)
            result = {"statements": len(replayed), "tables": sum(len(s.tables) for s in replayer.model.schemas.values())}
    elif kind == "lint":
        from linter.engine import lint_paths

        lint_paths([str(path)])  # imports and first-use costs out of the way: the engine alone is timed
        for _ in range(repeat):
            started = time.perf_counter()
            report = lint_paths([str(path)])
            best = min(best, time.perf_counter() - started)
        result = {"tables": report.stats.tables}
    result["seconds"] = best
    return result


# --- inputs --------------------------------------------------------------------------------------


def make_tenants(out: Path, tenants: int, *extra: str) -> Path:
    suffix = "_ts" if extra else ""
    path = out / f"tenants_{tenants}{suffix}.sql"
    if not path.exists():
        subprocess.run([sys.executable, str(MAKE_TENANTS), "-n", str(tenants), "-o", str(path), *extra], check=True,
                       stderr=subprocess.DEVNULL)
    return path


_TABLE_NAME = re.compile(r"^(CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?)((?:`[^`]+`|\w+)(?:\.(?:`[^`]+`|\w+))?)", re.I)


def corpus_tables() -> list[str]:
    """The distinct CREATE TABLE statements of the shared corpus that innolint and sqlglot both read."""
    sys.path.insert(0, str(ROOT))
    import sqlglot

    from linter.parse import ops
    from linter.parse.tokens import ParseFailure
    from linter.parse.statement import parse_statement
    from linter.input.source import read_statements

    seen: set[str] = set()
    good: list[str] = []
    for path in sorted(CORPUS.rglob("*.sql")):
        if "_scale" in path.parts:
            continue
        for statement in read_statements(str(path)):
            text = statement.text
            if not text[:12].upper() == "CREATE TABLE" or text in seen or not _TABLE_NAME.match(text):
                continue
            seen.add(text)
            try:
                op = parse_statement(text)
                sqlglot.parse_one(text, read="mysql")
            except (ParseFailure, Exception):  # noqa: BLE001 - either parser refusing it: not a fair sample
                continue
            if isinstance(op, ops.CreateTable) and op.like is None and not op.as_select and op.body.columns:
                good.append(text)
    return good


def make_distinct(out: Path, tables: int, name: str | None = None) -> Path:
    """A mysqldump of `tables` distinct tables: the corpus' CREATE TABLE statements in turn, each
    copy under a name of its own, framed as mysqldump frames them."""
    path = out / (name or f"distinct_{tables}.sql")
    if path.exists():
        return path
    templates = corpus_tables()
    rng = random.Random(20240611)
    rng.shuffle(templates)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)\n--\n-- Database: bench\n\n"
                     "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n"
                     "/*!50503 SET NAMES utf8mb4 */;\n\nUSE `bench`;\n")
        for i in range(tables):
            template = templates[i % len(templates)]
            table = f"t{i:05d}_" + _TABLE_NAME.match(template).group(2).replace("`", "").split(".")[-1]  # type: ignore[union-attr]
            text = _TABLE_NAME.sub(lambda m: m.group(1) + f"`{table}`", template, count=1)
            handle.write(f"\n--\n-- Table structure for table `{table}`\n--\n\nDROP TABLE IF EXISTS `{table}`;\n"
                         "/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"
                         "/*!50503 SET character_set_client = utf8mb4 */;\n"
                         f"{text};\n/*!40101 SET character_set_client = @saved_cs_client */;\n\n"
                         f"LOCK TABLES `{table}` WRITE;\n/*!40000 ALTER TABLE `{table}` DISABLE KEYS */;\n"
                         f"/*!40000 ALTER TABLE `{table}` ENABLE KEYS */;\nUNLOCK TABLES;\n")
    return path


def make_migrations(out: Path) -> Path:
    """A small migration directory; returns the file a pre-commit run would be given."""
    directory = out / "migrations"
    directory.mkdir(exist_ok=True)
    (directory / "V1__customers.sql").write_text(
        "CREATE TABLE customer (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
        "  email VARCHAR(255) NOT NULL,\n  UNIQUE KEY uk_email (email)\n) ENGINE=InnoDB;\n", encoding="utf-8")
    changed = directory / "V2__orders.sql"
    changed.write_text(
        "CREATE TABLE orders (\n  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
        "  customer_id BIGINT UNSIGNED NOT NULL,\n  total DECIMAL(10,2) NOT NULL,\n"
        "  KEY ix_customer (customer_id)\n) ENGINE=InnoDB;\n"
        "ALTER TABLE customer ADD COLUMN name VARCHAR(100) NULL;\n", encoding="utf-8")
    return changed


# --- peers ---------------------------------------------------------------------------------------


def sqlfluff(path: Path, out: Path) -> tuple[float, float, str, int, int] | None:
    """sqlfluff lint of `path` (mysql dialect, no file-size skip): (seconds, RSS MB, version,
    violations, of them parse errors: the parts it could not parse and so did not lint)."""
    try:
        import sqlfluff as module  # noqa: F401
    except ImportError:
        return None
    from importlib.metadata import version

    config = out / "sqlfluff.cfg"
    config.write_text("[sqlfluff]\ndialect = mysql\nlarge_file_skip_byte_limit = 0\n", encoding="utf-8")
    seconds, rss, _, report = timed(
        [sys.executable, "-c", "import sys; from sqlfluff.cli.commands import cli; sys.exit(cli())", "lint",
         "--config", str(config), "--format", "json", "--processes", "1", str(path)],
        cwd=out, stdout=subprocess.PIPE,
    )
    files = json.loads(report or b"[]")
    found = [v for f in files for v in f.get("violations", [])]
    unparsable = sum(1 for v in found if v.get("code") == "PRS")
    return seconds, rss, version("sqlfluff"), len(found), unparsable


# --- the machine ---------------------------------------------------------------------------------


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor()
    sys.path.insert(0, str(ROOT))
    import sqlglot
    from sqlglot.tokens import SQLGLOTC_INSTALLED  # type: ignore[attr-defined]

    return {
        "cores": os.cpu_count(), "cpu": cpu, "python": platform.python_version(), "platform": platform.platform(),
        "sqlglot": sqlglot.__version__, "sqlglotc": bool(SQLGLOTC_INSTALLED),
    }


_CALIBRATION = "x = 0\nfor i in range(20_000_000):\n    x += i"


def calibrate() -> float:
    """Seconds a fresh Python takes for 20M additions: how fast this machine is right now (shared
    machines change speed under their neighbours' load; compare results only at similar values)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", _CALIBRATION], check=True)
    return round(time.perf_counter() - started, 2)


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


# --- the report ----------------------------------------------------------------------------------


def fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def table(rows: list[Row]) -> str:
    head = ("input", "tool", "bytes", "tables", "seconds", "CPU s", "tables/s", "MB/s", "peak RSS")
    body = [
        (r.input, r.tool, f"{r.bytes / 1e6:.1f} MB" if r.bytes else "-", fmt(r.tables, ","), f"{r.seconds:.3f}",
         fmt(r.cpu, ".2f"), fmt(r.tables_s, ",.0f"), fmt(r.mb_s, ".1f"), f"{r.rss_mb:.0f} MB" if r.rss_mb else "-")
        for r in rows
    ]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    lines = ["| " + " | ".join(str(x).ljust(w) for x, w in zip(head, widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(str(x).ljust(w) for x, w in zip(row, widths)) + " |" for row in body]
    return "\n".join(lines)


def verdict(ok: bool | None) -> str:
    return "n/a " if ok is None else ("PASS" if ok else "FAIL")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out", help="where inputs and results go")
    parser.add_argument("--tenants", type=int, default=10_000, help="tenant schemas in the tenant dump")
    parser.add_argument("--distinct", type=int, default=10_000, help="tables in the distinct-table dump")
    parser.add_argument("--peer-tables", type=int, default=2000, help="tables in the file linted by sqlfluff too")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (the best counts)")
    parser.add_argument("--quick", action="store_true", help="1,000 tenants, 2,000 distinct tables, 200 peer tables, 1 run")
    parser.add_argument("--no-peers", action="store_true", help="skip sqlfluff")
    parser.add_argument("--gigabyte", action="store_true",
                        help="also lint a 1 GB tenant dump once (make_tenants.py -n 75000: 1 GB of disk, about a minute)")
    parser.add_argument("--_measure", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args._measure:
        print(json.dumps(_measure(args._measure[0], Path(args._measure[1]), args.repeat)))
        return 0
    if args.quick:
        args.tenants, args.distinct, args.peer_tables, args.repeat = 1000, 2000, 200, 1
    if not MAKE_TENANTS.exists() or not CORPUS.is_dir():
        raise SystemExit(f"the shared corpus is needed: {MAKE_TENANTS} and {CORPUS}")
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(out / "pycache")
    info = machine()
    info["load_before"] = load()
    info["calibration_before"] = calibrate()
    print(f"machine: {info['cores']} cores, {info['cpu']}; Python {info['python']}; sqlglot {info['sqlglot']} "
          f"(sqlglotc {'yes' if info['sqlglotc'] else 'no'}); load average {info['load_before']}", flush=True)

    print("generating inputs in", out, flush=True)
    tenants = make_tenants(out, args.tenants)
    tenants_small = make_tenants(out, max(1, args.tenants // 10))
    tenants_ts = make_tenants(out, args.tenants, "--tablespace", "general:{tenant}")
    distinct = make_distinct(out, args.distinct)
    peer_file = make_distinct(out, args.peer_tables, name=f"peer_{args.peer_tables}.sql")
    migration = make_migrations(out)
    rows: list[Row] = []
    results: dict = {"machine": info, "targets": TARGETS}

    def lint_row(label: str, path: Path, expect_tables: bool = True) -> Row:
        print(f"  innolint {label} ...", flush=True)
        seconds, rss, runs, report, cpu = innolint(path, args.repeat)
        tables = report.get("stats", {}).get("tables")
        row = Row(label, "innolint", path.stat().st_size, tables if expect_tables else None, seconds, rss, runs, cpu=cpu)
        rows.append(row)
        return row

    print("measuring (best of", args.repeat, "runs each)", flush=True)
    tenant_row = lint_row(f"tenants -n {args.tenants}", tenants)
    small_row = lint_row(f"tenants -n {max(1, args.tenants // 10)}", tenants_small)
    ts_row = lint_row(f"tenants -n {args.tenants}, general:{{tenant}}", tenants_ts)
    big_row = None
    if args.gigabyte:  # memory must follow the model, not the file: a 1 GB input must work
        print("  generating and linting a 1 GB tenant dump ...", flush=True)
        big = make_tenants(out, GIGABYTE_TENANTS)
        seconds, rss, runs, report, cpu = innolint(big, 1)
        big_row = Row(f"tenants -n {GIGABYTE_TENANTS}", "innolint", big.stat().st_size, report.get("stats", {}).get("tables"),
                      seconds, rss, runs, cpu=cpu)
        rows.append(big_row)

    print("  read+split and the re.split floor ...", flush=True)
    split = measure_in_child("split", tenants, args.repeat)
    floor = measure_in_child("resplit", tenants, args.repeat)
    size = tenants.stat().st_size
    split_row = Row(f"tenants -n {args.tenants}: read+split", "innolint", size, None, split["seconds"], split["rss_mb"],
                    note=f"{split['statements']:,} statements ({split['built']:,} built, the rest counted)")
    floor_row = Row(f"tenants -n {args.tenants}: read+re.split", "bare re", size, None, floor["seconds"],
                    floor["rss_mb"], note=f"{floor['statements']:,} pieces")
    rows += [split_row, floor_row]

    # innolint, bare sqlglot and innolint in-process by turns, so that their ratio does not depend
    # on the machine changing speed between them
    print(f"  innolint distinct {args.distinct} tables, bare sqlglot on its CREATE TABLEs, in-process, "
          "by turns ...", flush=True)
    distinct_runs: list[tuple[float, float, list[float], dict, float]] = []
    bares: list[dict] = []
    engines: list[dict] = []
    for _ in range(args.repeat):
        distinct_runs.append(innolint(distinct, 1))
        bares.append(measure_in_child("sqlglot", distinct, 1))
        engines.append(measure_in_child("lint", distinct, 1))
    seconds, _, _, report, _ = min(distinct_runs, key=lambda run: run[0])
    distinct_row = Row(f"distinct {args.distinct} tables", "innolint", distinct.stat().st_size,
                       report.get("stats", {}).get("tables"), seconds, max(run[1] for run in distinct_runs),
                       [run[0] for run in distinct_runs], cpu=min(run[4] for run in distinct_runs))
    bare = min(bares, key=lambda result: result["seconds"])
    bare_row = Row(f"distinct {args.distinct}: CREATE TABLE only", f"sqlglot {bare['sqlglot']}"
                   + (" +sqlglotc" if bare["sqlglotc"] else ""), bare["bytes"], bare["tables"], bare["seconds"],
                   max(result["rss_mb"] for result in bares))
    engine_only = min(engines, key=lambda result: result["seconds"])
    engine_row = Row(f"distinct {args.distinct} tables, in-process", "innolint lint_paths", distinct.stat().st_size,
                     engine_only["tables"], engine_only["seconds"], note="imports and interpreter start not counted")
    rows += [distinct_row, bare_row, engine_row]

    print("  the replay stage alone (Replayer.apply on statements parsed before) ...", flush=True)
    for label, path in ((f"distinct {args.distinct}", distinct), (f"tenants -n {args.tenants}", tenants)):
        replay = measure_in_child("replay", path, args.repeat)
        rows.append(Row(f"{label}: replay stage", "innolint Replayer", path.stat().st_size, replay["tables"],
                        replay["seconds"], note=f"{replay['statements']:,} statements, read and parsed before (not "
                                                "counted), each replayed (no block replay)"))

    peer_row = lint_row(f"peer {args.peer_tables} tables", peer_file)
    fluff = None if args.no_peers else sqlfluff(peer_file, out)
    # in-process: with sqlfluff, both in one child by turns (sqlfluff twice, innolint three times
    # before each); without it, innolint alone
    peer_engine = measure_in_child("peers" if fluff is not None else "lint", peer_file, 1 if fluff else max(3, args.repeat))
    peer_engine_row = Row(f"peer {args.peer_tables} tables, in-process", "innolint lint_paths", peer_file.stat().st_size,
                          peer_engine["tables"], peer_engine["seconds"], note="imports and interpreter start not counted")
    rows.append(peer_engine_row)
    fluff_row = fluff_engine_row = None
    if fluff is not None:
        fluff_row = Row(f"peer {args.peer_tables} tables", f"sqlfluff {fluff[2]}", peer_file.stat().st_size,
                        peer_row.tables, fluff[0], fluff[1], [fluff[0]],
                        note=f"{fluff[3]:,} violations, {fluff[4]:,} of them parse errors (PRS: text it could not "
                             "parse, so did not lint)", cpu=LAST_CPU[0])
        rows.append(fluff_row)
        fluff_engine_row = Row(f"peer {args.peer_tables} tables, in-process", f"sqlfluff {fluff[2]} Linter",
                               peer_file.stat().st_size, peer_row.tables, peer_engine["sqlfluff_seconds"],
                               note=f"imports and interpreter start not counted; {peer_engine['violations']:,} "
                                    "violations")
        rows.append(fluff_engine_row)
    elif not args.no_peers:
        print("  sqlfluff is not installed: pip install 'sqlfluff>=4' to compare", flush=True)

    print("  pre-commit style run and the import floor ...", flush=True)
    command = [sys.executable, "-m", "linter.cli", "check", "--changed-only", str(migration)]
    timed(command)  # warm: bytecode caches, file cache
    # interleaved, so that a change of the machine's speed during the runs touches both sides alike
    pre_runs: list[float] = []
    floor_runs: list[float] = []
    startup: list[float] = []
    for _ in range(max(9, args.repeat)):
        pre_runs.append(timed(command)[0])
        floor_runs.append(timed([sys.executable, "-c", "import sqlglot.dialects.mysql, pydantic.main"])[0])
        startup.append(timed([sys.executable, "-c", "pass"])[0])
    pre_row = Row("1 migration file, --changed-only", "innolint", migration.stat().st_size, None, min(pre_runs),
                  runs=pre_runs)
    floor_import = Row("import sqlglot + pydantic", "python", 0, None, min(floor_runs), runs=floor_runs,
                       note=f"python -c pass: {min(startup):.3f} s")
    rows += [pre_row, floor_import]
    info["load_after"] = load()
    info["calibration_after"] = calibrate()

    print()
    print(table(rows))
    notes = [f"- {r.input} / {r.tool}: {r.note}" for r in rows if r.note]
    if notes:
        print("\n".join(notes))
    print()
    print(f"machine: {info['cores']} cores, {info['cpu']}, Python {info['python']}; load average before "
          f"{info['load_before']}, after {info['load_after']}; calibration (20M Python additions) "
          f"{info['calibration_before']} s before, {info['calibration_after']} s after")
    print()
    checks: list[tuple[str, str, bool | None]] = []
    loop = (info["calibration_before"] + info["calibration_after"]) / 2
    info["loop_seconds"] = loop

    def loops(seconds: float) -> str:
        return f"{seconds / loop:.2f} loops ({seconds:.2f} s; a loop {loop:.2f} s)"

    checks.append((f"tenant dump end to end <= {TARGETS['tenant_loops']:g} loops", loops(tenant_row.seconds),
                   tenant_row.seconds / loop <= TARGETS["tenant_loops"]))
    checks.append((f"tenant dump peak RSS <= {TARGETS['tenant_rss_mb']:g} MB", f"{tenant_row.rss_mb:.0f} MB "
                   f"({small_row.rss_mb:.0f} MB at a tenth of the size)",
                   (tenant_row.rss_mb or 0) <= TARGETS["tenant_rss_mb"]))
    if big_row is not None:
        per_table = (big_row.rss_mb - small_row.rss_mb) * 1024 / ((big_row.tables or 1) - (small_row.tables or 0))  # type: ignore[operator]
        checks.append((f"a 1 GB dump: peak RSS <= {TARGETS['gigabyte_rss_mb']:g} MB",
                       f"{big_row.rss_mb:.0f} MB for {big_row.tables:,} tables (~{per_table:.2f} KB more per table), "
                       f"{loops(big_row.seconds)}", (big_row.rss_mb or 0) <= TARGETS["gigabyte_rss_mb"]))
    checks.append(("general tablespace per tenant (every CREATE differs)", f"{loops(ts_row.seconds)}, "
                   f"{ts_row.rss_mb:.0f} MB", None))
    checks.append((f"read+split >= {TARGETS['split_mb_s']:g} MB/s", f"{split_row.mb_s:.1f} MB/s "
                   f"(re.split floor {floor_row.mb_s:.0f} MB/s: {split_row.mb_s / floor_row.mb_s:.0%} of it)",  # type: ignore[operator]
                   (split_row.mb_s or 0) >= TARGETS["split_mb_s"]))
    ratio = (distinct_row.tables_s or 0) / (bare_row.tables_s or 1)
    engine_ratio = (engine_row.tables_s or 0) / (bare_row.tables_s or 1)
    checks.append((f"distinct tables end to end >= {TARGETS['distinct_vs_sqlglot']:.1f}x bare sqlglot "
                   f"(goal {TARGETS['distinct_vs_sqlglot_goal']:.1f}x)",
                   f"{ratio:.2f}x ({distinct_row.tables_s:,.0f} vs {bare_row.tables_s:,.0f} tables/s; in-process "
                   f"{engine_ratio:.2f}x)", ratio >= TARGETS["distinct_vs_sqlglot"]))
    over = (pre_row.seconds - floor_import.seconds) * 1000
    checks.append((f"pre-commit run within {TARGETS['precommit_over_floor_ms']:g} ms of the import floor",
                   f"{over:+.0f} ms ({pre_row.seconds:.3f} s; sqlglot + pydantic import {floor_import.seconds:.3f} s)",
                   over <= TARGETS["precommit_over_floor_ms"]))
    if fluff_row is not None and fluff_engine_row is not None:
        # two honest ratios: whole commands (what a user waits for, interpreter start and imports
        # included on both sides), and the linting itself, each tool in-process with its imports done
        speedup = fluff_row.seconds / peer_row.seconds
        checks.append((f">= {TARGETS['sqlfluff_speedup']:g}x faster than sqlfluff, end to end", f"{speedup:.0f}x "
                       f"({peer_row.seconds:.2f} s vs {fluff_row.seconds:.2f} s; sqlfluff: {fluff_row.note})",
                       speedup >= TARGETS["sqlfluff_speedup"]))
        work = fluff_engine_row.seconds / peer_engine_row.seconds
        checks.append(("faster than sqlfluff, in-process (for information)",
                       f"{work:.0f}x ({peer_engine_row.seconds:.3f} s vs {fluff_engine_row.seconds:.2f} s)", None))
    else:
        checks.append((f">= {TARGETS['sqlfluff_speedup']:g}x faster than sqlfluff", "not measured", None))
    width = max(len(c[0]) for c in checks)
    for name, value, ok in checks:
        print(f"{verdict(ok)}  {name.ljust(width)}  {value}")
    results["rows"] = [{**asdict(r), "tables_s": r.tables_s, "mb_s": r.mb_s} for r in rows]
    results["checks"] = [{"target": c[0], "value": c[1], "ok": c[2]} for c in checks]
    (out / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(f"\nresults: {out / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
