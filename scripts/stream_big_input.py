#!/usr/bin/env python3
"""Feed innolint a 2 GB input and show that it streams: time, peak memory, nothing lost.

    python scripts/stream_big_input.py                  # 2 GiB of mysqldump through stdin
    python scripts/stream_big_input.py --gib 4 --mode file --dir /var/tmp
    python scripts/stream_big_input.py --mode sparse    # a 2 GiB sparse file of zeros: refused at once

Modes: `stdin` pipes a generated dump (50 tables, then INSERTs) into `innolint check -`; `file`
writes it to a real file first (needs the disk space) and lints the path; `sparse` makes a sparse
file of NUL bytes, which innolint must refuse as binary after reading its first few KB, not
after reading 2 GB. CI does the same with 64 MB (tests/test_inputs.py); this is the full size.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_inputs import _PEAK_RSS, dump  # noqa: E402 - the same generator and probe as CI


def run(args: list[str], feed: bool, total: int) -> tuple[int, dict | None, int, float, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen([sys.executable, "-c", _PEAK_RSS, "check", "--format", "json", *args], cwd=ROOT,
                                   env=env, stdin=subprocess.PIPE if feed else subprocess.DEVNULL, stdout=out, stderr=err)
        if feed:
            assert process.stdin is not None
            sent, mark = 0, 0
            for block in dump(total):
                process.stdin.write(block)
                sent += len(block)
                if sent - mark >= 256 << 20:
                    mark = sent
                    print(f"  {sent >> 20:,} MiB sent, {time.monotonic() - started:.0f}s", flush=True)
            process.stdin.close()
        code = process.wait()
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        raw, stderr = out.read(), err.read().decode(errors="replace")
    report = json.loads(raw) if raw.strip() else None
    peak = int(stderr.rsplit("PEAK_RSS_KB=", 1)[1]) if "PEAK_RSS_KB=" in stderr else -1
    return code, report, peak, seconds, stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gib", type=float, default=2.0, help="input size in GiB (default 2)")
    parser.add_argument("--mode", choices=("stdin", "file", "sparse"), default="stdin")
    parser.add_argument("--dir", default=None, help="where `file` and `sparse` write (default: the temp dir)")
    args = parser.parse_args()
    total = int(args.gib * (1 << 30))

    if args.mode == "stdin":
        code, report, peak, seconds, stderr = run(["-"], True, total)
    else:
        with tempfile.TemporaryDirectory(dir=args.dir) as directory:
            path = Path(directory) / "big.sql"
            if args.mode == "sparse":
                with open(path, "wb") as handle:
                    handle.truncate(total)
            else:
                with open(path, "wb") as handle:
                    for block in dump(total):
                        handle.write(block)
            print(f"  wrote {path} ({path.stat().st_size:,} bytes, {path.stat().st_blocks * 512:,} on disk)")
            code, report, peak, seconds, stderr = run([str(path)], False, total)

    ok = "Traceback" not in stderr
    print(f"mode {args.mode}, {args.gib:g} GiB: exit {code} in {seconds:.1f}s "
          f"({total / (1 << 20) / max(seconds, 1e-9):,.0f} MiB/s), peak RSS {peak / 1024:,.0f} MiB")
    if report is not None:
        print(f"  stats: {report['stats']}; {len(report['findings'])} findings, {len(report['diagnostics'])} diagnostics")
        for diagnostic in report["diagnostics"][:5]:
            print(f"  diagnostic: {diagnostic['rule']}: {diagnostic['message']}")
    if args.mode == "sparse":
        ok = ok and code == 2 and report is not None and "binary file" in report["diagnostics"][0]["message"]
    else:
        ok = ok and code == 1 and report is not None and report["stats"]["tables"] == 50 and not report["diagnostics"]
    if not ok:
        print(stderr[-3000:])
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
