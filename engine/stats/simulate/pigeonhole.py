"""Owen's pigeonhole bootstrap over persons × templates × words: an independent reference for the
crossed standard errors.

Why: the analytic crossed variance (engine.stats.models.crossed) is a moment estimator with its
own algebra; a check that shares none of it resamples the three crossed factors at once. Owen
(2007, "The pigeonhole bootstrap", Annals of Applied Statistics 1(2)) draws, for every level of
every factor independently, a weight (here Poisson(1), the large-sample form of a multinomial
resample) and gives each sentence the *product* of its person's, template's and word's weights;
the spread of the statistic over such reweightings estimates its variance under the crossed
random-effects model (mildly conservatively: Owen shows it adds the factors' higher-order
interaction terms once more). Used by bench/bench_calibration.py, not by audits.
"""
from __future__ import annotations

import numpy as np
import pandas as pd


def _codes(values) -> tuple[np.ndarray, int]:
    codes, uniq = pd.factorize(pd.Series(np.asarray(values, dtype=object)).astype(str))
    return codes.astype(np.int64), len(uniq)


def pigeonhole_ols_variance(y: np.ndarray, X: np.ndarray, persons, templates, words, *, n_boot: int = 200,
                            seed: int | None = 0) -> np.ndarray:
    """Bootstrap variance of each OLS coefficient of ``y ~ X`` under product weights over persons,
    templates and words (a sentence without a word, "", gets weight 1 for the word factor).

    Weighted least squares per replicate; returns a k-vector of variances.
    """
    rng = np.random.default_rng(seed)
    y = np.asarray(y, dtype=float)
    X = np.asarray(X, dtype=float)
    p, n_p = _codes(persons)
    t, n_t = _codes(templates)
    w_lab = pd.Series(np.asarray(words, dtype=object)).fillna("").astype(str)
    has_word = (w_lab != "").to_numpy()
    w, n_w = _codes(w_lab)
    est = np.empty((n_boot, X.shape[1]))
    for b in range(n_boot):
        wp = rng.poisson(1.0, n_p).astype(float)
        wt = rng.poisson(1.0, n_t).astype(float)
        ww = rng.poisson(1.0, n_w).astype(float)
        weight = wp[p] * wt[t] * np.where(has_word, ww[w], 1.0)
        xtw = X.T * weight
        est[b] = np.linalg.lstsq(xtw @ X, xtw @ y, rcond=None)[0]
    return est.var(axis=0, ddof=1)
