"""How an audit's cost grows with its corpus (issue 42): the VADER audit of en-kiritchenko2018 grown
by adding names — ×1, ×4, ×16 — and a generated corpus of about 1,000,000 sentences.

    .venv/bin/python bench/bench_growth.py                       # x1 x4 x16 1M, every statistic
    .venv/bin/python bench/bench_growth.py --sizes 1 4 --stats paired counterfactual
    .venv/bin/python bench/bench_growth.py --sizes 1M --jobs 2

A grown corpus is the original definition with names added, the 60 persons becoming 60 × k (new
given names spread evenly over the four name groups, so every template × emotion word × group cell
grows alike and the sentences grow k-fold: ×16 = 138,240); "1M" adds names to 6,945 persons
(1,000,080 sentences). Each size runs in a fresh child process (an empty score cache, ``--jobs 1``
unless told otherwise, results written to a temporary folder), which records the time of each phase
— generate (definitions, sentences, pairs, the scorer loaded), score, each statistic, write — and
the child's peak resident memory (``ru_maxrss``) at the end of each phase: the peak so far, so the
phase that raised it shows. Printed as table lines, wall and CPU seconds (the CPU figure is what
the code costs on a machine shared with other work); the last column is the CPU time per 1,000
sentences, which stays flat when a phase grows linearly. "whole process" gives the largest single
process (``ru_maxrss`` of the child and its own children), "all its processes at once" the largest
sum of their proportional set sizes, sampled: with ``--jobs 2`` a worker scores beside the audit, and
a streamed corpus's statistics run in a child while the next corpus is scored.

    .venv/bin/python bench/bench_growth.py --sizes 16 --corpora 3 --jobs 2   # memory as corpora are added

Target (issue 42): the 1M audit with VADER under 2 minutes and 2 GB on this machine.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SOURCE = ROOT / "templates" / "en" / "en-kiritchenko2018.toml"
GROUPS = [("female", "African-American"), ("male", "African-American"), ("female", "European"), ("male", "European")]
ORIGINAL_PERSONS = 60
MILLION_PERSONS = 6945  # 144 sentences per person: 1,000,080
TARGET_S, TARGET_MB = 120.0, 2048.0


def grown_definition(persons: int, corpus_id: str, prefix: str = "Name") -> str:
    """en-kiritchenko2018 with given names added until it has `persons` persons (``prefix`` starts
    each added name: corpora with different prefixes share only the original sentences)."""
    text = SOURCE.read_text(encoding="utf-8").replace('id = "en-kiritchenko2018"', f'id = "{corpus_id}"', 1)
    extra = []
    for i in range(persons - ORIGINAL_PERSONS):
        gender, race = GROUPS[i % 4]
        name = f"{prefix}{i:05d}{'ABCD'[i % 4]}"
        extra.append(f'\n[[persons]]\nid = "grown_{i:05d}"\nkind = "name"\ngender = "{gender}"\nrace = "{race}"\n'
                     f'forms = [{{ text = "{name}" }}]\n')
    return text + "".join(extra)


def child(corpus: str | list[str], stats: list[str], jobs: int, out: str, cache: str) -> None:
    """One audit, its phases timed; one JSON line per phase on stdout."""
    t_import = time.perf_counter()
    from engine.audit import AuditPlan, run_audit

    marks: list[tuple[str, float, float]] = []  # (phase, wall and CPU clocks when it started)

    def mark(name: str) -> None:
        marks.append((name, time.perf_counter(), time.process_time()))

    def on_phase(name: str, _total: int) -> None:
        if name == "scoring":
            mark("score")
        elif name == "writing":
            mark("write")
        elif name == "statistics" and marks[-1][0] == "score":
            mark("statistics (other)")

    def on_step(what: str, _on: str) -> None:
        mark(what)

    plan = AuditPlan(corpus if isinstance(corpus, list) else [corpus], ["vader"], stats=stats, out_dir=Path(out), cache_dir=Path(cache),
                     settings={"jobs": jobs, "n_resamples": 0})
    imported = time.perf_counter()
    peaks = []

    def peak_now(*_a) -> None:
        peaks.append((len(marks), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))

    mark("generate")
    def on_log(line: str) -> None:
        if "written as the audit goes" in line:  # a streamed corpus's files (engine.audit.pipeline.STREAM_ROWS)
            peak_now()
            mark("write (streamed)")

    run_audit(plan, on_phase=lambda n, t: (peak_now(), on_phase(n, t)), on_step=lambda w, o: (peak_now(), on_step(w, o)),
              log=on_log)
    end, end_cpu = time.perf_counter(), time.process_time()
    peak_now()
    peak_by_mark = {}
    for n, mb in peaks:
        if n:
            peak_by_mark[n - 1] = max(peak_by_mark.get(n - 1, 0.0), mb)
    rows = []
    for i, (name, started, cpu) in enumerate(marks):
        stop, stop_cpu = (marks[i + 1][1], marks[i + 1][2]) if i + 1 < len(marks) else (end, end_cpu)
        rows.append({"phase": name, "seconds": stop - started, "cpu": stop_cpu - cpu,
                     "peak_mb": peak_by_mark.get(i, 0.0)})
    print(json.dumps({"import_s": imported - t_import, "rows": rows, "total_s": end - marks[0][1],
                      "total_cpu": end_cpu - marks[0][2],
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def run_size(label: str, persons: int, stats: list[str], jobs: int, tmp: Path, corpora: int = 1) -> dict:
    paths = []
    for c in range(corpora):  # further corpora: the same size, other added names
        corpus_id = f"en-kiritchenko2018-grown-{label.lower().split('×')[-1]}" + (f"-{c + 1}" if corpora > 1 else "")
        paths.append(tmp / f"{corpus_id}.toml")
        paths[-1].write_text(grown_definition(persons, corpus_id, "Name" if c == 0 else f"N{'abcdefgh'[c % 8]}me"),
                             encoding="utf-8")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", *map(str, paths), "--stats", *stats,
           "--jobs", str(jobs), "--out", str(tmp / f"out-{label}"), "--cache", str(tmp / f"cache-{label}")]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    together = _sample_tree(proc)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"the {label} audit failed:\n{err[-3000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    record = json.loads(out.strip().splitlines()[-1])
    record.update(process_wall_s=wall, process_cpu_s=(after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
                  process_peak_mb=after.ru_maxrss / 1024, together_peak_mb=together)
    return record


def _sample_tree(proc: subprocess.Popen, every: float = 0.1) -> float:
    """The largest memory the audit's processes held together (MB), sampled every `every` s until it
    ends: the sum of their proportional set sizes (PSS: a page shared by a forked worker and its
    parent counts half in each), so two processes sharing a corpus are not counted twice. 0 where
    /proc has no smaps_rollup (not Linux)."""
    import threading

    peak = [0.0]

    def tree(pid: int) -> list[int]:
        out = [pid]
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as fh:
                    for child in fh.read().split():
                        out += tree(int(child))
        except OSError:
            pass
        return out

    def pss(pid: int) -> float:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    def watch() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], sum(pss(p) for p in tree(proc.pid)))
            time.sleep(every)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    proc.wait()
    watcher.join()
    return peak[0]


def sentences_of(persons: int) -> int:
    return 8640 * persons // ORIGINAL_PERSONS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", nargs="+", default=["1", "4", "16", "1M"], help="growth factors, or 1M")
    ap.add_argument("--stats", nargs="+", default=["paired", "counterfactual", "beta"])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--corpora", type=int, default=1,
                    help="corpora of each size in one audit (the same size, other added names): memory as corpora are added")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--cache", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.stats, args.jobs, args.out, args.cache)  # one corpus or several
        return
    print(f"VADER audit of en-kiritchenko2018 grown by names; statistics {', '.join(args.stats)}; --jobs {args.jobs}; "
          f"load {os.getloadavg()[0]:.1f}; {os.cpu_count()} CPUs")
    print(f"{'size':>5s} {'sentences':>10s} {'phase':26s} {'wall s':>8s} {'CPU s':>8s} {'peak MB':>8s} "
          f"{'CPU s/1k':>9s}")
    with tempfile.TemporaryDirectory(prefix="eec_growth_") as tmp:
        for size in args.sizes:
            persons = MILLION_PERSONS if size.upper() == "1M" else ORIGINAL_PERSONS * int(size)
            label = "1M" if size.upper() == "1M" else f"x{int(size)}"
            n = sentences_of(persons) * args.corpora
            if args.corpora > 1:
                label = f"{args.corpora}×{label}"
            rec = run_size(label, persons, args.stats, args.jobs, Path(tmp), args.corpora)
            for row in rec["rows"]:
                print(f"{label:>5s} {n:>10,d} {row['phase']:26s} {row['seconds']:8.2f} {row['cpu']:8.2f} "
                      f"{row['peak_mb']:8.0f} {1000 * row['cpu'] / n:9.4f}")
            ok = rec["total_s"] < TARGET_S and rec["process_peak_mb"] < TARGET_MB
            verdict = f"  (1M target < {TARGET_S:.0f} s and < {TARGET_MB:.0f} MB: {'met' if ok else 'MISSED'})" \
                if label == "1M" else ""
            print(f"{label:>5s} {n:>10,d} {'audit (run_audit)':26s} {rec['total_s']:8.2f} {rec['total_cpu']:8.2f} "
                  f"{rec['peak_mb']:8.0f} {1000 * rec['total_cpu'] / n:9.4f}")
            print(f"{label:>5s} {n:>10,d} {'whole process':26s} {rec['process_wall_s']:8.2f} {rec['process_cpu_s']:8.2f} "
                  f"{rec['process_peak_mb']:8.0f} {1000 * rec['process_cpu_s'] / n:9.4f}{verdict}", flush=True)
            print(f"{label:>5s} {n:>10,d} {'all its processes at once':26s} {'':>8s} {'':>8s} "
                  f"{rec['together_peak_mb']:8.0f}   (sum of PSS, sampled every 0.1 s)", flush=True)


if __name__ == "__main__":
    main()
