"""Calibration of WEAT p-values under the null (not part of the test suite).

    .venv/bin/python bench/bench_assoc_calibration.py [--runs 1000]

Random word vectors (targets and attributes from one distribution) carry no
association, so p must be uniform on (0, 1). Kolmogorov–Smirnov over 2,000 runs (default),
for exact enumeration (8+8 words) and Monte-Carlo (25+25 words, 2,000 draws), each
one-sided and two-sided; also the rejection rate at α = 0.05.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.assoc.permutation import permutation_test  # noqa: E402
from engine.assoc.similarity import differential_association  # noqa: E402


def run(runs: int, n: int, draws: int, alternative: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ps = np.empty(runs)
    for i in range(runs):
        X, Y, A, B = (rng.normal(size=(k, 50)) for k in (n, n, n, n))
        s = np.concatenate([differential_association(X, A, B), differential_association(Y, A, B)])
        ps[i] = permutation_test(s, n, alternative=alternative, n_permutations=draws, seed=i).p_value
    return ps


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    args = ap.parse_args()
    worst = 1.0
    for n, draws, label in ((8, 10_000, "exact 8+8"), (25, 2_000, "Monte-Carlo 25+25, 2,000 draws")):
        for alt in ("greater", "two-sided"):
            t0 = time.perf_counter()
            ps = run(args.runs, n, draws, alt, seed=1000 * n + len(alt))  # own data per configuration
            ks = stats.kstest(ps, "uniform")
            worst = min(worst, ks.pvalue)
            print(f"{label:<32} {alt:<10} runs={args.runs}  KS D={ks.statistic:.4f} p={ks.pvalue:.3f}  "
                  f"P(p<0.05)={np.mean(ps < 0.05):.3f}  mean p={ps.mean():.3f}  ({time.perf_counter() - t0:.1f} s)")
    print("calibrated" if worst > 0.01 else "NOT calibrated (KS p <= 0.01)")
    return 0 if worst > 0.01 else 1


if __name__ == "__main__":
    raise SystemExit(main())
