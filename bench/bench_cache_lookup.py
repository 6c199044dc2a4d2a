"""Score-cache lookups of many texts: one range scan of the fingerprint's rows against a lookup by key
per text (engine.audit.cache.ScoreCache.get_many, which scans where the fingerprint has no more
committed rows than texts asked for). Three cases a user meets: a first audit (the cache holds only
the speed probe's 30 rows; a corpus of 9,000 and of TEXTS sentences), a second audit of the same corpus (every text cached), and a small
corpus against a large cache (the scan is refused; its cost is one bounded count).

    python bench/bench_cache_lookup.py [TEXTS]      # default 200,000
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.audit.cache import ScoreCache  # noqa: E402


def best(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main(n: int = 200_000) -> None:
    texts = [f"My mother feels angry, case {i}." for i in range(n)]
    small = texts[:9_000]
    with tempfile.TemporaryDirectory() as d:
        cache = ScoreCache(Path(d) / "scores.sqlite")
        cache.put_many("probe", texts[:30], np.zeros((30, 1)))
        cache.put_many("full", texts, np.arange(n, dtype=float).reshape(-1, 1))
        cache.flush()
        by_key = lambda *_a: False  # noqa: E731 - the scan refused: every text looked up by key
        cases = [("first audit: 9,000 texts asked, 30 cached", "probe", small),
                 (f"first audit: {n:,} asked, 30 cached", "probe", texts),
                 (f"second audit: {n:,} asked, all cached", "full", texts),
                 (f"small corpus, large cache: 9,000 asked of {n:,} cached", "full", small)]
        print(f"score cache lookups, best of 5 (2 for {n:,} texts)")
        for label, fp, asked in cases:
            reps = 2 if len(asked) > 10_000 else 5
            now = best(lambda: cache.get_many(fp, asked), reps)
            real = ScoreCache._all_rows_into
            ScoreCache._all_rows_into = by_key
            try:
                keyed = best(lambda: cache.get_many(fp, asked), reps)
            finally:
                ScoreCache._all_rows_into = real
            print(f"{label:<58} get_many {now * 1000:8.1f} ms   by key {keyed * 1000:8.1f} ms   "
                  f"({keyed / now:.2f}x)")
        cache.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
