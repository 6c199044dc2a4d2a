"""Time loading, generating and checking every built-in corpus, and generating their pair tables.

Target (issue 2): generating all built-in corpora together well under a second. Prints the
best of several repeats, so a busy machine shows its quietest run.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.corpus import CompiledCorpus, check_corpus, generate, generate_pairs, list_corpora, load_corpus  # noqa: E402


def main(repeats: int = 5) -> None:
    entries = [e for e in list_corpora() if e.builtin]
    corpora = [load_corpus(e.path) for e in entries]
    best_gen = best_check = best_load = best_pairs = float("inf")
    rows = pairs = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        loaded = [load_corpus(e.path) for e in entries]
        t1 = time.perf_counter()
        rows = sum(len(generate(c)) for c in loaded)
        t2 = time.perf_counter()
        for c in corpora:
            check_corpus(c, CompiledCorpus(c))
        t3 = time.perf_counter()
        pairs = sum(len(generate_pairs(c)) for c in loaded)
        t4 = time.perf_counter()
        best_load, best_gen = min(best_load, t1 - t0), min(best_gen, t2 - t1)
        best_check, best_pairs = min(best_check, t3 - t2), min(best_pairs, t4 - t3)
    print(f"built-in corpora: {len(corpora)}, sentences: {rows:,}, counterfactual pairs: {pairs:,}")
    print(f"load all definitions : {best_load * 1000:8.1f} ms (best of {repeats})")
    print(f"generate all corpora : {best_gen * 1000:8.1f} ms  ({rows / best_gen:,.0f} sentences/s)")
    print(f"check all corpora    : {best_check * 1000:8.1f} ms")
    print(f"generate all pairs   : {best_pairs * 1000:8.1f} ms  ({pairs / best_pairs:,.0f} pairs/s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
