"""The one verdict wording for significance versus the negligible band."""
from __future__ import annotations

import math

from engine.stats import verdicts as V


def test_band_verdict_names_both_questions():
    assert V.band_verdict(-0.011, 1e-6, 0.03) == "significant but within the negligible band"
    assert V.band_verdict(0.05, 0.001, 0.03) == V.SIGNIFICANT_BEYOND
    assert V.band_verdict(0.05, 0.2, 0.03) == V.NOT_SIGNIFICANT_BEYOND
    assert V.band_verdict(0.01, 0.2, 0.03) == V.NOT_SIGNIFICANT_WITHIN
    assert V.band_verdict(0.03, 0.01, 0.03) == V.SIGNIFICANT_WITHIN  # |mean| ≤ band is within, as exceeds_band
    assert V.band_verdict(0.01, 0.049, 0.03, alpha=0.01) == V.NOT_SIGNIFICANT_WITHIN
    assert V.band_verdict(0.01, math.nan, 0.03) == V.NOT_TESTED
    assert V.band_verdict(None, 0.01, 0.03) == V.NOT_TESTED
    assert V.band_verdict(0.01, 0.01, None) == "significant"
    assert set(V.VERDICTS) >= {V.SIGNIFICANT_WITHIN, V.SIGNIFICANT_BEYOND}
