"""Holm / Benjamini–Hochberg corrections and seeded bootstrap intervals."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.stats import bootstrap_ci, correct_pvalues, stars


def test_holm_and_bh_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04 -> running max
    np.testing.assert_allclose(correct_pvalues(p, "holm"), [0.03, 0.06, 0.06, 0.02])
    # BH: p·m/rank = 0.02, 0.02, 0.04, 0.04 (running min from the top)
    np.testing.assert_allclose(correct_pvalues(p, "bh"), [0.02, 0.04, 0.04, 0.02])
    np.testing.assert_allclose(correct_pvalues(p, "bonferroni"), [0.04, 0.16, 0.12, 0.02])
    np.testing.assert_allclose(correct_pvalues([0.5, 0.9], "holm"), [1.0, 1.0])


def test_nan_is_not_a_family_member():
    out = correct_pvalues([0.01, np.nan, 0.04], "bonferroni")
    np.testing.assert_allclose(out, [0.02, np.nan, 0.08])
    with pytest.raises(ValueError, match="unknown correction"):
        correct_pvalues([0.1], "sidak-ish")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        correct_pvalues([1.5], "holm")


def test_frame_column_beside_p_and_families():
    f = pd.DataFrame({"model": ["a", "a", "b", "b"], "p_value": [0.01, 0.04, 0.03, 0.005], "x": 1})
    out = correct_pvalues(f, "holm")
    assert list(out.columns) == ["model", "p_value", "p_adjusted", "x"]
    np.testing.assert_allclose(out["p_adjusted"], [0.03, 0.06, 0.06, 0.02])
    fam = correct_pvalues(f, "holm", family=["model"])
    np.testing.assert_allclose(fam["p_adjusted"], [0.02, 0.04, 0.03, 0.01])
    masked = correct_pvalues(f, "bh", mask=[True, True, False, True])
    assert np.isnan(masked["p_adjusted"].iloc[2])
    assert "p_adjusted" not in f.columns  # input not modified


def test_stars_thresholds():
    assert [stars(p) for p in (0.001, 0.01, 0.0100001, 0.05, 0.06, 0.1, 0.11, float("nan"))] == \
        ["***", "***", "**", "**", "*", "*", "", ""]


def test_bootstrap_equals_scipy_and_is_seeded():
    rng = np.random.default_rng(0)
    x, y = rng.normal(0.5, 0.1, 40), rng.normal(0.45, 0.1, 40)
    ci = bootstrap_ci(x, y, seed=12)
    direct = stats.bootstrap((x - y,), np.mean, n_resamples=1000, method="percentile",
                             rng=np.random.default_rng(12))
    assert ci.low == pytest.approx(direct.confidence_interval.low, abs=1e-12)
    assert ci.high == pytest.approx(direct.confidence_interval.high, abs=1e-12)
    assert ci.estimate == pytest.approx(np.mean(x - y), abs=1e-15)
    assert (ci.n_resamples, ci.seed, ci.method, ci.n) == (1000, 12, "percentile", 40)
    assert bootstrap_ci(x, y, seed=12) == ci
    assert bootstrap_ci(x, y, seed=13).low != ci.low
    un = bootstrap_ci(x, y, paired=False, seed=1, n_resamples=500)
    d2 = stats.bootstrap((x, y), lambda a, b, axis=-1: a.mean(axis) - b.mean(axis), n_resamples=500,
                         method="percentile", rng=np.random.default_rng(1))
    assert un.low == pytest.approx(d2.confidence_interval.low, abs=1e-12)
    assert un.estimate == pytest.approx(x.mean() - y.mean())
    bca = bootstrap_ci(x, seed=2, method="BCa")
    d3 = stats.bootstrap((x,), np.mean, n_resamples=1000, method="BCa", rng=np.random.default_rng(2))
    assert bca.high == pytest.approx(d3.confidence_interval.high, abs=1e-12)
    # a 95% interval of a clear difference excludes 0
    assert bootstrap_ci(x + 0.2, x, seed=0).low > 0


def test_bootstrap_degenerate():
    c = bootstrap_ci(np.full(10, 0.3), seed=0)
    assert c.low == c.high == pytest.approx(0.3)
    c = bootstrap_ci(np.full(10, 0.3), seed=0, method="BCa")
    assert c.low == pytest.approx(0.3) and c.high == pytest.approx(0.3)
    one = bootstrap_ci([0.4])
    assert np.isnan(one.low) and "fewer than two" in one.note and one.estimate == 0.4
    with pytest.raises(ValueError, match="NaN"):
        bootstrap_ci([0.1, np.nan])
    with pytest.raises(ValueError, match="equal lengths"):
        bootstrap_ci([0.1, 0.2], [0.1])
