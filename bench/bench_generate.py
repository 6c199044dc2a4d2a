"""Time loading, generating and checking every built-in corpus, and generating their pair tables.

Targets, as rates of CPU time (issue 42 revised them): generation ≥ 150,000 sentences/s, pair
tables ≥ 25,000 pairs/s, the checker ≥ 25,000 sentences/s. Why rates: issues 2 and 16 set them
as seconds for all built-ins when those were 80,238 sentences and 34,473 pairs (generate < 0.5 s,
check < 1 s, pairs < 1 s, i.e. 160,000 sentences/s, 80,000 checked sentences/s, 34,000 pairs/s);
the built-ins are now 143,256 sentences and 57,611 pairs, so the same code missed all three. The
generation and pair targets keep about the old rates (they are linear in the corpus). The checker's
is lower on purpose: it now runs the per-language grammar rules (agreement, declension, the
whose-emotion rule) and the spelling check on every realised sentence, about three times the work
per sentence, and `corpus list`, which ran it on every call, now answers from its cache
(bench/bench_corpus_list.py). Prints the best of several repeats, both wall-clock and this
process's CPU time: on a machine shared with other work the wall-clock figure mostly measures
the others, the CPU figure is what the code costs. BEFORE holds the figures of the code before
issue 16 (commit 00e9ffa, then 80,238 sentences) measured the same way on the same machine.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.corpus import CompiledCorpus, check_corpus, generate, generate_pairs, list_corpora, load_corpus  # noqa: E402


RATE_TARGETS = {"generate": 150_000, "check": 25_000, "pairs": 25_000}  # per CPU second: sentences or pairs
BEFORE_CPU = {"load": 0.04, "generate": 0.38, "check": 0.90, "pairs": 1.23}  # seconds, 00e9ffa, this machine


def main(repeats: int = 5) -> None:
    import os

    import pandas  # noqa: F401 - imported once, not inside the first timing

    entries = [e for e in list_corpora() if e.builtin]
    corpora = [load_corpus(e.path) for e in entries]
    wall = {k: float("inf") for k in ("load", "generate", "check", "pairs")}
    cpu = dict(wall)
    rows = pairs = 0

    def timed(name, fn):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        wall[name] = min(wall[name], time.perf_counter() - w)
        cpu[name] = min(cpu[name], time.process_time() - c)
        return out

    for _ in range(repeats):
        loaded = timed("load", lambda: [load_corpus(e.path) for e in entries])
        rows = timed("generate", lambda: sum(len(generate(c)) for c in loaded))
        timed("check", lambda: [check_corpus(c, CompiledCorpus(c)) for c in corpora])
        fresh = [load_corpus(e.path) for e in entries]
        pairs = timed("pairs", lambda: sum(len(generate_pairs(c)) for c in fresh))
    load = f"load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else ""
    print(f"built-in corpora: {len(corpora)}, sentences: {rows:,}, counterfactual pairs: {pairs:,}; "
          f"best of {repeats}; {load}")
    print(f"{'':22s} {'wall':>9s} {'CPU':>9s} {'CPU before':>11s}   target (CPU rate)")
    labels = {"load": "load all definitions", "generate": "generate all corpora", "check": "check all corpora",
              "pairs": "generate all pairs"}
    for key, label in labels.items():
        target = RATE_TARGETS.get(key)
        rate = (pairs if key == "pairs" else rows) / cpu[key]
        verdict = "" if target is None else f"≥ {target:,}/s " + ("met" if rate >= target else "MISSED") + f" ({rate:,.0f}/s)"
        print(f"{label:22s} {wall[key] * 1000:7.0f}ms {cpu[key] * 1000:7.0f}ms {BEFORE_CPU[key] * 1000:9.0f}ms"
              f"   {verdict}")
    print(f"throughput (CPU): {rows / cpu['generate']:,.0f} sentences/s, {pairs / cpu['pairs']:,.0f} pairs/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
