"""What importing the engine for a lexicon (VADER) audit costs beyond the lexicon library itself
(issue 42: at most 0.3 s more).

    .venv/bin/python bench/bench_import.py              # 7 alternated pairs
    .venv/bin/python bench/bench_import.py --runs 11 --importtime

Each run is a fresh interpreter, timed from outside (wall, and the child's CPU from the operating
system's accounting — the figure to trust on a loaded machine). A: what a script or the CLI does
before a VADER audit runs — ``engine.audit`` (run_audit, AuditPlan), the scorer loaded from its spec
and warmed (VADER's tables read). B: the library alone — ``SentimentIntensityAnalyzer()``. The runs
alternate A, B, A, B … so a drift in the machine's speed hits both; the difference is taken pair by
pair. The child A also lists which heavy libraries it imported (pandas, numpy, scipy, statsmodels,
torch must wait for the audit to run).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.3
HEAVY = ("pandas", "numpy", "scipy", "statsmodels", "torch", "pyarrow", "sklearn")
ENGINE = ("from engine.audit import AuditPlan, run_audit\n"
          "from engine.models.specs import load_scorer\n"
          "load_scorer('vader').warm()\n"
          "import sys\n"
          f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n")
LIBRARY = ("from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer\n"
           "SentimentIntensityAnalyzer()\n")


def one_run(code: str, importtime: bool = False) -> tuple[float, float, str, str]:
    """(wall s, CPU s, stdout, stderr) of `python -c code` in the checkout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    cmd = [sys.executable] + (["-X", "importtime"] if importtime else []) + ["-c", code]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.stdout, proc.stderr


def slowest(stderr: str, top: int = 8) -> list[tuple[int, str]]:
    """(cumulative µs, module) of the top-level imports that cost most (-X importtime)."""
    rows = []
    for line in stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cum, name = line[len("import time:"):].split("|")
            if not name.startswith("  ") and cum.strip().isdigit():
                rows.append((int(cum), name.strip()))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="alternated pairs (default 7), after one warm-up pair")
    ap.add_argument("--importtime", action="store_true", help="also list the engine run's slowest imports")
    args = ap.parse_args()
    one_run(ENGINE), one_run(LIBRARY)  # warm-up: the file cache
    pairs = [(one_run(ENGINE), one_run(LIBRARY)) for _ in range(args.runs)]
    heavy = pairs[-1][0][2].split()
    wall_a, wall_b = [a[0] for a, _ in pairs], [b[0] for _, b in pairs]
    cpu_a, cpu_b = [a[1] for a, _ in pairs], [b[1] for _, b in pairs]
    d_wall = [a - b for a, b in zip(wall_a, wall_b)]
    d_cpu = [a - b for a, b in zip(cpu_a, cpu_b)]
    print(f"VADER audit import vs the library alone, {args.runs} alternated pairs (load {os.getloadavg()[0]:.1f}):")
    print(f"  engine (engine.audit + vader scorer warmed)  wall median {statistics.median(wall_a):.3f} s  "
          f"cpu median {statistics.median(cpu_a):.3f} s")
    print(f"  library (SentimentIntensityAnalyzer())        wall median {statistics.median(wall_b):.3f} s  "
          f"cpu median {statistics.median(cpu_b):.3f} s")
    print(f"  difference per pair: cpu median {statistics.median(d_cpu):+.3f} s "
          f"(min {min(d_cpu):+.3f}, max {max(d_cpu):+.3f}); wall median {statistics.median(d_wall):+.3f} s")
    print(f"  heavy libraries imported by the engine run: {', '.join(heavy) or 'none'}")
    met = statistics.median(d_cpu) <= TARGET_S
    print(f"  target: at most {TARGET_S} s more (cpu): {'met' if met else 'MISSED'}")
    if args.importtime:
        _wall, _cpu, _out, err = one_run(ENGINE, importtime=True)
        print("  slowest top-level imports of the engine run:")
        for us, name in slowest(err):
            print(f"    {us / 1e3:8.1f} ms  {name}")


if __name__ == "__main__":
    main()
