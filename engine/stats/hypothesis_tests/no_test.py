"""The one rule for "no test possible", shared by every statistic.

Why: a test measures a difference against the variation of its unit of inference (persons for
the person-robust tests, sentence pairs for the papers' paired t-test). When those units show no
variation — every name of a group gets the same mean score because a classifier gives every
unseen name the same features, or every pair differs by the same amount — there is nothing to
measure the difference against. Any standard error a model still reports then comes from
rounding or from another parameter (the Beta precision's per-person scores leak through the
sandwich's cross term), and a Wald test on it prints p = 1e-60 for what is no evidence at all.
Such rows carry ``status = "no_person_variation"`` (or ``"constant_difference"`` for the papers'
sentence-pair tests), a note, no p-value, no stars and the verdict "no person-level test";
the permutation p-value, which is defined, may stand with its floor stated.

"No variation" means: the values differ by at most ``VARIATION_TOLERANCE`` of the score scale.
Scorers compute in float32 (relative rounding about 1.2e-7), so batch order alone moves a score
by ~1e-7; 1e-6 of the scale is above that noise and far below any difference a study reports.
"""
from __future__ import annotations

import numpy as np

#: Values of the unit of inference closer than this share of the score scale count as equal.
VARIATION_TOLERANCE = 1e-6
#: Row status: the persons the contrast compares do not vary (a person-level test does not exist).
NO_PERSON_VARIATION = "no_person_variation"
#: Row status of the sentence-pair tests: every pair differs by the same amount.
CONSTANT_DIFFERENCE = "constant_difference"
#: Statuses of rows without a test (on top of "too_few", "no_pairs" and the Beta fit statuses).
NO_TEST_STATUSES = (NO_PERSON_VARIATION, CONSTANT_DIFFERENCE)
NO_PERSON_TEST_NOTE = ("no variation between the persons this contrast compares (each group's persons have the same "
                       "mean score up to {tol:.0e} of the score scale): there is no person-level test, not a tiny "
                       "p-value; the permutation p-value, where given, is the test that exists")


def tolerance(scale: float | None) -> float:
    """The absolute tolerance for a score scale (its range, or the largest |score|; at least 1)."""
    s = float(scale) if scale is not None and np.isfinite(scale) else 1.0
    return VARIATION_TOLERANCE * max(abs(s), 1.0)


def varies(values, tol: float) -> bool:
    """True when ``values`` differ by more than ``tol`` (fewer than two values never vary)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return bool(v.size > 1 and float(np.ptp(v)) > tol)


def no_person_test_note(tol_share: float = VARIATION_TOLERANCE) -> str:
    return NO_PERSON_TEST_NOTE.format(tol=tol_share)
