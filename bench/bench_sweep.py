"""Audit sweep timings: one process (run_audit) vs a local Dask cluster of 1 and 2 workers.

    .venv/bin/python bench/bench_sweep.py [--jobs 1 2] [--repeats 2] [--scheduler tcp://HOST:PORT]

VADER + TextBlob over the four English corpora (paired differences, no bootstrap, so the
time is the scoring's), each run with a fresh score cache. Columns: *start* (a sweep: reading
the corpora, starting the cluster, checking the workers, loading the models on them), *tasks*
(first task submitted to last score back; one process: its scoring time), *in tasks* (seconds
summed inside the scoring tasks over all workers), *total* (the whole call, statistics and
writing included). One row per run with the machine's load average, since the numbers mean
little on a shared machine without it.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.audit import AuditPlan, run_audit  # noqa: E402
from engine.audit.pipeline import plan_texts  # noqa: E402
from engine.sweep import run_sweep  # noqa: E402

CORPORA = ["en-kiritchenko2018", "en-camara2022-latino", "en-camara2022-arab", "en-goldfarb2023"]
MODELS = ["vader", "textblob"]


def plan(cache: Path) -> AuditPlan:
    return AuditPlan(CORPORA, MODELS, stats=["paired"], cache_dir=cache, settings={"n_resamples": 0})


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--chunk-size", type=int, default=1000)
    ap.add_argument("--scheduler", default=None, help="also time a running scheduler's workers")
    args = ap.parse_args()
    texts, _ids = plan_texts(plan(Path(tempfile.mkdtemp())))
    n = sum(len(t) for t in texts.values())
    print(f"{len(CORPORA)} corpora, {n:,} texts per model × {len(MODELS)} models; {os.cpu_count()} cores")
    print(f"{'run':<26} {'start s':>8} {'tasks s':>8} {'in tasks s':>10} {'total s':>8}  load avg (1/5 min) before → after")
    configs = [("one process (run_audit)", None)] + [(f"local cluster, {j} worker{'s' if j > 1 else ''}", j)
                                                     for j in args.jobs]
    if args.scheduler:
        configs.append((f"scheduler {args.scheduler}", "remote"))
    for _ in range(args.repeats):
        for label, jobs in configs:
            cache = Path(tempfile.mkdtemp()) / "cache"
            before = os.getloadavg()
            started = time.perf_counter()
            if jobs is None:
                result = run_audit(plan(cache))
                start, scoring = float("nan"), sum(s["seconds"] for s in result.manifest["scoring"])
                busy = scoring
            else:
                rec = run_sweep(plan(cache), jobs=None if jobs == "remote" else jobs,
                                scheduler=args.scheduler if jobs == "remote" else None,
                                chunk_size=args.chunk_size).record
                start, scoring, busy = rec["seconds_to_first_task"], rec["seconds_tasks"], rec["worker_seconds"]
            total = time.perf_counter() - started
            after = os.getloadavg()
            print(f"{label:<26} {start:>8.1f} {scoring:>8.1f} {busy:>10.1f} {total:>8.1f}  "
                  f"{before[0]:.1f}/{before[1]:.1f} → {after[0]:.1f}/{after[1]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
