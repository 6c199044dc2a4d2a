"""Seeded bootstrap confidence intervals for mean differences.

Why: paired t-tests lean on normality of the mean; a bootstrap interval for the mean
difference shows the same quantity without that assumption and is what a reader can put
in a plot. Resampling is delegated to ``scipy.stats.bootstrap`` with a seeded generator,
so the same call always gives the same interval. The default method is the percentile
interval: unlike BCa it stays defined when every difference is identical.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from engine.stats.errors import StatisticError


@dataclass(frozen=True)
class BootstrapCI:
    """A bootstrap interval for a mean (difference) and how it was obtained."""

    estimate: float
    low: float
    high: float
    n: int
    n_resamples: int
    conf_level: float
    seed: int | None
    method: str
    note: str = ""


def _mean_diff(a, b, axis=-1):
    return np.mean(a, axis=axis) - np.mean(b, axis=axis)


def _mean(a, axis=-1):
    return np.mean(a, axis=axis)


def bootstrap_ci(x, y=None, *, paired: bool = True, n_resamples: int = 1000, conf_level: float = 0.95,
                 seed: int | None = 0, method: str = "percentile") -> BootstrapCI:
    """Bootstrap CI for mean(x) (``y`` None), mean(x − y) (paired) or mean(x) − mean(y) (unpaired).

    ``seed`` seeds ``numpy.random.default_rng``; ``method`` is passed to scipy
    ("percentile", "basic" or "BCa"). With fewer than two observations no interval exists:
    low/high are NaN and ``note`` says why.
    """
    from scipy.stats import bootstrap

    x = np.asarray(x, dtype=float).ravel()
    if y is not None:
        y = np.asarray(y, dtype=float).ravel()
        if paired and len(x) != len(y):
            raise StatisticError(f"paired bootstrap needs equal lengths, got {len(x)} and {len(y)}")
    if np.isnan(x).any() or (y is not None and np.isnan(y).any()):
        raise StatisticError("bootstrap_ci: NaN in the data; remove missing values first")
    if n_resamples < 1:
        raise StatisticError("n_resamples must be at least 1")
    if y is None or paired:
        data = (x - y,) if y is not None else (x,)
        est = float(np.mean(data[0])) if len(data[0]) else float("nan")
        stat, n = _mean, len(data[0])
        small = n < 2
    else:
        data = (x, y)
        est = float(np.mean(x) - np.mean(y)) if len(x) and len(y) else float("nan")
        stat, n = _mean_diff, len(x) + len(y)
        small = len(x) < 2 or len(y) < 2
    if small:
        return BootstrapCI(est, float("nan"), float("nan"), n, n_resamples, conf_level, seed, method,
                           "fewer than two observations: no bootstrap interval")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = bootstrap(data, stat, n_resamples=n_resamples, confidence_level=conf_level, method=method,
                        vectorized=True, paired=False, rng=np.random.default_rng(seed))
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    note = ""
    if np.isnan(lo) or np.isnan(hi):
        # BCa is undefined for degenerate data; the percentile interval is not.
        note = f"{method} interval undefined for these data (all resampled means equal?)"
        if np.ptp(np.concatenate(data)) == 0 or np.all(res.bootstrap_distribution == res.bootstrap_distribution.flat[0]):
            lo = hi = est
            note = "all resampled means are equal: the interval is a single point"
    return BootstrapCI(est, lo, hi, n, n_resamples, conf_level, seed, method, note)
