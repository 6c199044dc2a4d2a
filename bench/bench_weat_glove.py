"""The ten WEAT tests on the packaged GloVe 6B 50d (not part of the test suite).

    .venv/bin/python bench/bench_weat_glove.py [--permutations 100000]

Prints effect size (ddof=1 and XWEAT's ddof=0), p and coverage per test. Tests below
the 80% coverage rule are refused first (as a user would see), then re-run with the
coverage they actually have, marked "(cov<80%)", so the table is complete.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.assoc.errors import CoverageError  # noqa: E402
from engine.assoc.library import resolve  # noqa: E402
from engine.assoc.providers.glove import load_glove_6b_50d  # noqa: E402
from engine.assoc.weat import WeatOptions, run_weat  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--permutations", type=int, default=100_000)
    ap.add_argument("--metric", default="cosine", choices=("cosine", "euclidean"))
    args = ap.parse_args()
    glove = load_glove_6b_50d()
    print(f"{'test':<6}{'d (ddof=1)':>12}{'d (ddof=0)':>12}{'p':>11}{'method':>13}  words X/Y/A/B   note")
    for i in range(1, 11):
        spec = resolve(f"T{i}")
        note = ""
        opts = WeatOptions(metric=args.metric, n_permutations=args.permutations, seed=0)
        try:
            res = run_weat(spec, glove, opts)
        except CoverageError as exc:
            low = min(c for c in _coverages(spec, glove))
            note = f"(cov<80%: refused at the default; run at min coverage {low:.0%})  [{str(exc)[:60]}…]"
            opts.min_coverage = low
            res = run_weat(spec, glove, opts)
        dropped = sum(len(c.dropped) for c in res.coverage)
        print(f"T{i:<5}{res.effect_size_ddof1:>12.3f}{res.effect_size_ddof0:>12.3f}{res.p_value:>11.2e}"
              f"{res.permutation.method:>13}  {res.n_x}/{res.n_y}/{res.n_a}/{res.n_b}"
              f"{'' if not dropped else f'  ({dropped} dropped)'} {note}")
    return 0


def _coverages(spec, glove):
    from engine.assoc.coverage import resolve_set

    return [resolve_set(k, s, glove).coverage.coverage for k, s in spec.sets().items()]


if __name__ == "__main__":
    raise SystemExit(main())
