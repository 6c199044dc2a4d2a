"""Paired t and Wilcoxon signed-rank tests that never return an unexplained NaN.

Why: scipy returns NaN (and a warning) when every difference is zero, and an infinite
statistic when every difference is the same non-zero number. Lexicon systems produce
exactly these cases. Here the degenerate cases get a defined answer and a note:
all differences 0 → statistic 0, p = 1 (no evidence of a difference); all differences
equal and non-zero → no variation to test against, so no t-test: status ``constant_difference``,
no statistic, no p-value (the rule of :mod:`engine.stats.hypothesis_tests.no_test`; the Wilcoxon rank test is
defined there and stays); fewer than two pairs → no test. "Equal" means within
:data:`engine.stats.hypothesis_tests.no_test.VARIATION_TOLERANCE` of the scale. Otherwise the result is exactly scipy's ``ttest_rel`` / ``wilcoxon`` (two-sided).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from engine.common.messages import Said
from engine.stats.hypothesis_tests.no_test import CONSTANT_DIFFERENCE, tolerance, varies
from engine.stats.reasons import reason


@dataclass(frozen=True)
class TestResult:
    statistic: float
    p_value: float
    df: float
    status: str  # ok | all_zero | constant_difference (no test) | too_few
    note: str = ""
    #: why there is no test, as data (engine.stats.reasons); ``note`` then starts with its English
    reason: Said | None = None


def _degenerate(d: np.ndarray, what: str) -> TestResult | None:
    n = len(d)
    if n < 2:
        why = reason("too_few.pairs", test=what, n=n)
        return TestResult(float("nan"), float("nan"), float("nan"), "too_few", str(why), why)
    tol = tolerance(float(np.max(np.abs(d))))
    if np.all(np.abs(d) <= tol):
        return TestResult(0.0, 1.0, float(n - 1), "all_zero",
                          f"{what}: every difference is exactly 0 (no evidence of a difference)")
    if not varies(d, tol):
        why = reason(CONSTANT_DIFFERENCE, test=what, difference=float(d[0]))
        return TestResult(float("nan"), float("nan"), float("nan"), CONSTANT_DIFFERENCE, str(why), why)
    return None


def paired_t(a, b) -> TestResult:
    """Two-sided paired t-test of mean(a − b) = 0 (scipy ``ttest_rel``)."""
    from scipy.stats import ttest_rel

    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    deg = _degenerate(a - b, "paired t-test")
    if deg is not None:
        return deg
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ttest_rel(a, b)
    return TestResult(float(r.statistic), float(r.pvalue), float(r.df), "ok")


def wilcoxon_signed_rank(a, b) -> TestResult:
    """Two-sided Wilcoxon signed-rank test of a − b (scipy ``wilcoxon`` defaults:
    zero differences dropped ('wilcox'), exact p for small samples without ties)."""
    from scipy.stats import wilcoxon

    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    d = a - b
    deg = _degenerate(d, "Wilcoxon signed-rank test")
    if deg is not None and deg.status != "constant_difference":
        return TestResult(deg.statistic if deg.status != "all_zero" else 0.0, deg.p_value, float("nan"),
                          deg.status, deg.note, deg.reason)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = wilcoxon(a, b)
    note = ""
    if deg is not None:
        note = deg.note
    nz = int(np.count_nonzero(d))
    if nz < len(d):
        note = (note + "; " if note else "") + f"{len(d) - nz} zero difference(s) dropped (zero_method='wilcox')"
    return TestResult(float(r.statistic), float(r.pvalue), float("nan"), "ok" if deg is None else deg.status, note,
                      None if deg is None else deg.reason)
