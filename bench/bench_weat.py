"""Speed of the WEAT permutation test (not part of the test suite).

    .venv/bin/python bench/bench_weat.py [--permutations 100000] [--wefe-iterations 1000]

1. WEAT T1 flowers/insects × pleasant/unpleasant, 25+25 target words, 100,000
   Monte-Carlo permutations: on GloVe 6B 50d (where "gladiola" is missing: 24+25) and
   on synthetic 25+25 vectors.
2. Exact enumeration at 8+8 (12,870 partitions), 10+10 and 12+12 words.
3. If ``wefe`` is importable (``pip install --no-deps wefe gensim plotly semantic_version
   requests tqdm smart_open``), the same test through WEFE on the same vectors with its
   default p-value method ("approximate", right-sided), printing the speed ratio and
   both p-values. WEFE's default is 10,000 draws (about 5 minutes here), so the bench
   runs it with ``--wefe-iterations`` (default 1,000: WEFE's cost is linear in the
   draws) and prints the ratio at equal draws and the ratio projected to 10,000 draws
   against our measured 10,000-draw run. Note that WEFE draws its "permutations"
   with ``rng.choice`` *with* replacement of words (a word can land twice, another
   not at all) and unseeded, so its p-value is not the partition test's.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.assoc.coverage import resolve_set  # noqa: E402
from engine.assoc.library import resolve  # noqa: E402
from engine.assoc.permutation import permutation_test  # noqa: E402
from engine.assoc.similarity import differential_association  # noqa: E402
from engine.assoc.weat import WeatOptions, run_weat  # noqa: E402


def timed(fn, repeat=3):
    best = math.inf
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--permutations", type=int, default=100_000)
    ap.add_argument("--wefe-iterations", type=int, default=1_000)
    args = ap.parse_args()
    spec = resolve("T1")
    print(f"WEAT T1 {spec.title}")
    glove = None
    try:
        from engine.assoc.providers.glove import load_glove_6b_50d

        glove = load_glove_6b_50d()
    except Exception as exc:  # noqa: BLE001
        print(f"  GloVe not available ({exc}); synthetic vectors only")
    opts = WeatOptions(n_permutations=args.permutations, seed=0)
    if glove is not None:
        secs, res = timed(lambda: run_weat(spec, glove, opts))
        print(f"  GloVe 6B 50d, {res.n_x}+{res.n_y} words, {args.permutations:,} permutations (end to end, "
              f"incl. lookups): {secs:.3f} s   d = {res.effect_size:.3f}  p = {res.p_value:.3g} "
              f"(MC s.e. {res.permutation.mc_se:.2g})")
    rng = np.random.default_rng(0)
    s = np.concatenate([rng.normal(0.05, 0.1, 25), rng.normal(0, 0.1, 25)])
    secs, res = timed(lambda: permutation_test(s, 25, n_permutations=args.permutations, seed=1))
    print(f"  synthetic 25+25 words, {args.permutations:,} permutations without replacement: {secs:.3f} s "
          f"({args.permutations / secs:,.0f} partitions/s), p = {res.p_value:.4f} ± {res.mc_se:.4f}")
    for k in (8, 10, 12):
        sk = np.concatenate([s[:k], s[25:25 + k]])
        secs, res = timed(lambda: permutation_test(sk, k, exact_limit=10**7))
        print(f"  exact {k}+{k}: all {res.n_partitions:,} partitions in {secs:.3f} s, p = {res.p_value:.5f}")
    if glove is not None:
        sub = {k: resolve_set(k, ws, glove) for k, ws in spec.sets().items()}
        sub8 = np.concatenate([differential_association(sub[k].vectors[:8], sub["A"].vectors, sub["B"].vectors)
                               for k in "XY"])
        secs, res = timed(lambda: permutation_test(sub8, 8))
        print(f"  GloVe, first 8+8 words, exact: {secs * 1000:.1f} ms, p = {res.p_value:.6f} "
              f"({res.n_partitions:,} partitions)")
    try:
        import gensim  # noqa: F401
        import wefe  # noqa: F401
    except ImportError as exc:
        print(f"  WEFE not importable ({exc}): comparison skipped (pip install --no-deps wefe gensim plotly "
              "semantic_version requests tqdm smart_open)")
        return 0
    if glove is None:
        print("  WEFE comparison needs the GloVe vectors: skipped")
        return 0
    return compare_wefe(spec, glove, args.wefe_iterations)


def compare_wefe(spec, glove, iterations) -> int:
    import gensim
    from wefe.metrics import WEAT
    from wefe.query import Query
    from wefe.word_embedding_model import WordEmbeddingModel

    words = sorted({w for s in spec.sets().values() for w in s.words()})
    vecs, recs = glove.lookup(words)
    kv = gensim.models.KeyedVectors(vector_size=glove.dim)
    kv.add_vectors([w for w, r in zip(words, recs) if r.found], vecs[[r.found for r in recs]].astype(np.float32))
    model = WordEmbeddingModel(kv, "glove-6b-50d")
    query = Query([spec.X.words(), spec.Y.words()], [spec.A.words(), spec.B.words()],
                  ["Flowers", "Insects"], ["Pleasant", "Unpleasant"])
    t0 = time.perf_counter()
    res = WEAT().run_query(query, model, calculate_p_value=True, p_value_iterations=iterations,
                           lost_vocabulary_threshold=0.2)
    wefe_secs = time.perf_counter() - t0
    ours_secs, ours = timed(lambda: run_weat(spec, glove, WeatOptions(n_permutations=iterations, ddof=1)))
    ours10_secs, ours10 = timed(lambda: run_weat(spec, glove, WeatOptions(n_permutations=10_000, ddof=1)))
    print(f"  WEFE 1.0.1 WEAT, {iterations:,} p-value iterations (reduced from its default 10,000): "
          f"{wefe_secs:.1f} s, effect size {res.get('effect_size'):.3f}, p = {res.get('p_value'):.4g}")
    print(f"  EEC Studio, same {iterations:,} permutations (end to end, incl. lookups): {ours_secs * 1000:.1f} ms, "
          f"d = {ours.effect_size_ddof0:.3f} (ddof=0, WEFE's np.std; ddof=1: {ours.effect_size_ddof1:.3f}), "
          f"p = {ours.p_value:.3g} ± {ours.permutation.mc_se:.2g}")
    print(f"  effect sizes agree: |ours − WEFE| = {abs(ours.effect_size_ddof0 - res.get('effect_size')):.1e}")
    print(f"  speed ratio at {iterations:,} draws: {wefe_secs / ours_secs:,.0f}× (target ≥ 1,000×)")
    projected = wefe_secs * 10_000 / iterations
    print(f"  projected WEFE at its default 10,000 draws: {projected:.0f} s vs EEC Studio measured "
          f"{ours10_secs * 1000:.1f} ms (p = {ours10.p_value:.3g}): {projected / ours10_secs:,.0f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
