"""The one rule for "no test possible", shared by every statistic.

Why: a test measures a difference against the variation of its unit of inference (persons for
the person-robust tests, sentence pairs for the papers' paired t-test). When those units show no
variation — every name of a group gets the same mean score because a classifier gives every
unseen name the same features, or every pair differs by the same amount — there is nothing to
measure the difference against. Any standard error a model still reports then comes from
rounding or from another parameter (the Beta precision's per-person scores leak through the
sandwich's cross term), and a Wald test on it prints p = 1e-60 for what is no evidence at all.
Such rows carry ``status = "no_person_variation"`` (or ``"constant_difference"`` for the papers'
sentence-pair tests), their reason as data (engine.stats.reasons; the note is its English), no p-value, no stars and the verdict "no person-level test";
the permutation p-value, which is defined, may stand with its floor stated.

"No variation" means: the values differ by at most ``VARIATION_TOLERANCE`` of the score scale.
Scorers compute in float32 (relative rounding about 1.2e-7), so batch order alone moves a score
by ~1e-7; 1e-6 of the scale is above that noise and far below any difference a study reports.
"""
from __future__ import annotations

import numpy as np

from engine.common.messages import Said
from engine.stats.reasons import reason

#: Values of the unit of inference closer than this share of the score scale count as equal.
VARIATION_TOLERANCE = 1e-6
#: Row status: the persons the contrast compares do not vary (a person-level test does not exist).
NO_PERSON_VARIATION = "no_person_variation"
#: Row status of the sentence-pair tests: every pair differs by the same amount.
CONSTANT_DIFFERENCE = "constant_difference"
#: Row status: only one or two persons differ from the rest of their group, so the t statistic is
#: fixed by the design (t = ±1 for one person whatever the size of the difference): no test.
DESIGN_LIMITED = "design_limited"
#: Row status of crossed inference where a factor's part cannot be estimated from the design
#: (engine.stats.models.crossed): no crossed test; the person-level one stays in its own column.
CROSSED_NOT_ESTIMABLE = "crossed_not_estimable"
#: At most this many persons differing from the rest of their group make a test design-limited.
DESIGN_LIMIT = 2
#: Statuses of rows without a test (on top of "too_few", "no_pairs" and the Beta fit statuses).
NO_TEST_STATUSES = (NO_PERSON_VARIATION, CONSTANT_DIFFERENCE, DESIGN_LIMITED, CROSSED_NOT_ESTIMABLE)
# The reasons' English and interface sentences: engine.stats.reasons (keys = these statuses).


def tolerance(scale: float | None) -> float:
    """The absolute tolerance for a score scale (its range, or the largest |score|; at least 1)."""
    s = float(scale) if scale is not None and np.isfinite(scale) else 1.0
    return VARIATION_TOLERANCE * max(abs(s), 1.0)


def varies(values, tol: float) -> bool:
    """True when ``values`` differ by more than ``tol`` (fewer than two values never vary)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return bool(v.size > 1 and float(np.ptp(v)) > tol)


def no_person_test_reason(tol_share: float = VARIATION_TOLERANCE) -> Said:
    """Why there is no person-level test (``str()``: the English note)."""
    return reason(NO_PERSON_VARIATION, tol=tol_share)


def deviating_persons(values, groups, tol: float) -> int:
    """How many persons differ (by more than ``tol``) from the common value of their group — the value
    most persons of the group share (values within ``tol`` count as one); a group without a shared
    value (no two persons alike) counts all its persons."""
    v = np.asarray(values, dtype=float)
    g = np.asarray(groups)
    out = 0
    for grp in np.unique(g):
        x = v[g == grp]
        x = x[np.isfinite(x)]
        if x.size == 0:
            continue
        key = np.round((x - x.min()) / max(tol, 1e-300)).astype(np.int64)
        vals, counts = np.unique(key, return_counts=True)
        if counts.max() < 2:
            out += x.size
            continue
        common = x[key == vals[np.argmax(counts)]].mean()
        out += int((np.abs(x - common) > tol).sum())
    return out


def design_limited_reason(n: int, total: int) -> Said:
    """Why a design-limited contrast has no test: ``n`` of ``total`` persons differ from their group."""
    return reason(DESIGN_LIMITED, n=int(n), total=int(total))
