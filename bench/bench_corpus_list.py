"""`python main.py corpus list`, cold and warm (issue 42: under 1 s after the first run).

    .venv/bin/python bench/bench_corpus_list.py            # 1 cold run, 5 warm runs
    .venv/bin/python bench/bench_corpus_list.py --warm 9

Each run is the real command in a fresh interpreter, timed from outside (wall and the child's
CPU, from the operating system's accounting). Cold: an empty cache folder (EEC_STUDIO_CACHE), so
every corpus is checked and its review read; warm: the same folder again, so the answers come from
the status cache (engine/corpus/check/status_cache.py). Both listings must be byte-identical.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_WARM_S = 1.0


def one_run(env: dict[str, str]) -> tuple[float, float, str]:
    """(wall s, CPU s of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "corpus", "list"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warm", type=int, default=5, help="warm runs (default 5)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="eec_list_") as tmp:
        env = dict(os.environ, EEC_STUDIO_CACHE=str(Path(tmp) / "cache"), EEC_STUDIO_HOME=str(Path(tmp) / "home"))
        cold_wall, cold_cpu, cold_out = one_run(env)
        warm = [one_run(env) for _ in range(args.warm)]
    corpora = len(cold_out.splitlines()) - 1
    assert all(out == cold_out for _, _, out in warm), "the warm listing differs from the cold one"
    walls, cpus = [w for w, _, _ in warm], [c for _, c, _ in warm]
    print(f"corpus list, {corpora} corpora (load {os.getloadavg()[0]:.1f}):")
    print(f"  cold (empty cache)  wall {cold_wall:.2f} s  cpu {cold_cpu:.2f} s")
    print(f"  warm (n={len(warm)})         wall median {statistics.median(walls):.2f} s (min {min(walls):.2f})  "
          f"cpu median {statistics.median(cpus):.2f} s")
    met = statistics.median(walls) < TARGET_WARM_S
    print(f"  target warm < {TARGET_WARM_S:.0f} s: {'met' if met else 'MISSED'}")


if __name__ == "__main__":
    main()
