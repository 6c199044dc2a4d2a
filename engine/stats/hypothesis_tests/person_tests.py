"""Person-level tests: a Welch t on person means and a person-level permutation test.

Why: a group comparison in an EEC is a comparison of *persons* (names, noun phrases), each
seen in many sentences. Averaging each person's sentences first and comparing the person
means gives a test whose unit is the one that is independent; it needs no assumption about
how a person's sentences correlate. Shuffling the group labels across persons (each person's
sentences stay together) gives the assumption-free reference: under "no group difference"
every relabelling is equally likely, so the permutation p-value is exact.

A :class:`PersonContrast` is the statistic every paired/grouped test of this package reduces to:

    estimate = w_pairs · mean(d) + w_strata · Σ_s (π_a,s · mean_a,s − π_b,s · mean_b,s)

``d`` are mean differences of matched person pairs (a female noun phrase and its male
counterpart; a counterfactual person pair), which a relabelling flips in sign; each stratum s
holds person means of side a (female / minority) and side b, which a relabelling shuffles
within the stratum (e.g. gender shuffled among the names of one race). The variance is the
Welch one, w_pairs²·s²_d/n_d + w_strata²·Σ_s (π_a,s²·s²_a,s/n_a,s + π_b,s²·s²_b,s/n_b,s), with
Welch–Satterthwaite degrees of freedom. The permutation test uses the studentised statistic.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from engine.common.permutation import PermutationResult
from engine.stats.hypothesis_tests.no_test import (DESIGN_LIMIT, NO_TEST_STATUSES,
                                                   deviating_persons, design_limited_reason,
                                                   no_person_test_reason, tolerance, varies)
from engine.common.messages import Said
from engine.stats.reasons import reason, status_of

#: Ties in the permutation distribution: |t*| ≥ |t| − this (relative) counts as "at least as extreme".
_TIE = 1e-9


@dataclass
class Stratum:
    """Person means of one stratum and which side (a: True) each person is on."""

    values: np.ndarray
    is_a: np.ndarray
    weight_a: float = 1.0
    weight_b: float = 1.0

    def __post_init__(self):
        self.values = np.asarray(self.values, dtype=float)
        self.is_a = np.asarray(self.is_a, dtype=bool)


@dataclass
class PersonContrast:
    strata: list[Stratum] = field(default_factory=list)
    pair_diffs: np.ndarray | None = None
    w_pairs: float = 0.0
    w_strata: float = 1.0

    @property
    def n_units(self) -> int:
        """Independent units: persons in the strata plus person pairs."""
        return sum(len(s.values) for s in self.strata) + (0 if self.pair_diffs is None else len(self.pair_diffs))


@dataclass(frozen=True)
class PersonTest:
    estimate: float
    std_err: float
    statistic: float
    df: float
    p_value: float
    n_units: int
    status: str = "ok"  # ok | too_few | all_zero | no_person_variation (see engine.stats.hypothesis_tests.no_test)
    note: str = ""
    #: why there is no test, as data (engine.stats.reasons); ``note`` is then its English
    reason: Said | None = None

    @classmethod
    def untested(cls, estimate: float, std_err: float, n_units: int, why: Said) -> "PersonTest":
        """A result without a test: no statistic, df or p-value; status, note and reason from ``why``."""
        nan = float("nan")
        return cls(estimate, std_err, nan, nan, nan, n_units, status_of(why), str(why), why)

    def ci(self, conf_level: float = 0.95) -> tuple[float, float]:
        """The t interval; none (NaN) for a row without a test: nothing that looks like precision."""
        from scipy.stats import t as tdist

        if self.status in NO_TEST_STATUSES or self.status == "too_few":
            return float("nan"), float("nan")
        if not (np.isfinite(self.std_err) and np.isfinite(self.df)) or self.df <= 0:
            return (self.estimate, self.estimate) if self.std_err == 0 else (float("nan"), float("nan"))
        h = float(tdist.ppf(0.5 + conf_level / 2, self.df)) * self.std_err
        return self.estimate - h, self.estimate + h


def _moments(vals: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``mask`` (R × n): count, mean and sample variance of vals[mask]."""
    m = mask.astype(float)
    n = m.sum(axis=1)
    if vals.size:  # shift by one value: identical values then give a variance of exactly 0
        vals = vals - vals[0]
    s1 = m @ vals
    s2 = m @ (vals * vals)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s1 / n
        var = np.clip((s2 - n * mean * mean) / (n - 1), 0.0, None)
    return n, mean, var


def _stat(c: PersonContrast, labels: list[np.ndarray], signs: np.ndarray | None):
    """Estimate, variance and df components for R labellings at once (vectorised)."""
    R = (labels[0].shape[0] if labels else signs.shape[0])
    est = np.zeros(R)
    var = np.zeros(R)
    comps: list[tuple[np.ndarray, float]] = []
    if c.pair_diffs is not None and len(c.pair_diffs):
        d = c.pair_diffs[None, :] * (signs if signs is not None else 1.0)
        nd = d.shape[1]
        est += c.w_pairs * d.mean(axis=1)
        vd = c.w_pairs ** 2 * d.var(axis=1, ddof=1) / nd if nd > 1 else np.full(R, np.nan)
        var += vd
        comps.append((vd, nd - 1))
    for s, lab in zip(c.strata, labels):
        for side, w in ((lab, s.weight_a), (~lab, s.weight_b)):
            n, mean, v = _moments(s.values, side)
            sign = 1.0 if side is lab else -1.0
            est += c.w_strata * sign * w * (mean + (s.values[0] if len(s.values) else 0.0))
            comp = (c.w_strata * w) ** 2 * v / n
            var += comp
            comps.append((comp, float(n[0]) - 1))
    return est, var, comps


def _tstat(est: np.ndarray, var: np.ndarray, scale: float) -> np.ndarray:
    se = np.sqrt(var)
    tiny = 1e-12 * max(scale, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > tiny, est / np.where(se > 0, se, 1.0),
                     np.where(np.abs(est) > tiny, np.sign(est) * np.inf, 0.0))
    return t


def _scale(c: PersonContrast) -> float:
    vals = [np.abs(s.values) for s in c.strata] + ([np.abs(c.pair_diffs)] if c.pair_diffs is not None else [])
    allv = np.concatenate(vals) if vals else np.zeros(1)
    return float(allv.max()) if allv.size else 1.0


def _too_small(c: PersonContrast) -> Said | None:
    if c.pair_diffs is not None and 0 < len(c.pair_diffs) < 2 and c.w_pairs:
        return reason("too_few.person_pairs", n=len(c.pair_diffs))
    for s in c.strata:
        na, nb = int(s.is_a.sum()), int((~s.is_a).sum())
        if na < 2 or nb < 2:
            return reason("too_few.group", n=min(na, nb))
    if not c.strata and (c.pair_diffs is None or len(c.pair_diffs) == 0):
        return reason("too_few.no_persons")
    return None


def _varies(c: PersonContrast, tol: float) -> bool:
    """Whether any group of persons (or the person-pair differences) the contrast uses varies."""
    if c.pair_diffs is not None and c.w_pairs and varies(c.pair_diffs, tol):
        return True
    return bool(c.w_strata) and any(varies(s.values[side], tol) for s in c.strata for side in (s.is_a, ~s.is_a))


def person_t(c: PersonContrast, scale: float | None = None) -> PersonTest:
    """Welch t-test of the contrast with Welch–Satterthwaite df (see module docstring).

    ``scale``: the score scale (range width) for the "no variation" rule of
    :mod:`engine.stats.hypothesis_tests.no_test` (default: the largest |value|). Where no person the contrast
    uses differs from the others of its group, there is no test: status ``no_person_variation``,
    no statistic and no p-value (or ``all_zero``, p = 1, when the contrast itself is 0).
    """
    from scipy.stats import t as tdist

    nan = float("nan")
    why = _too_small(c)
    if why is not None:
        return PersonTest.untested(nan, nan, c.n_units, why)
    labels = [s.is_a[None, :] for s in c.strata]
    signs = None if c.pair_diffs is None else np.ones((1, len(c.pair_diffs)))
    est, var, comps = _stat(c, labels, signs)
    est, var = float(est[0]), float(var[0])
    tol = tolerance(_scale(c) if scale is None else scale)
    if not _varies(c, tol):
        if abs(est) <= tol:
            return PersonTest(0.0, 0.0, 0.0, nan, 1.0, c.n_units, "all_zero",
                              "every person-level difference is exactly 0 (no evidence of a difference)")
        return PersonTest.untested(est, 0.0, c.n_units, no_person_test_reason())
    if var <= 0:  # cannot happen when a group varies; kept so a rounding corner never divides by 0
        return PersonTest.untested(est, 0.0, c.n_units, no_person_test_reason())
    deviants = _deviants(c, tol)
    if deviants <= DESIGN_LIMIT:
        return PersonTest.untested(est, nan, c.n_units, design_limited_reason(deviants, c.n_units))
    num = sum(v[0] for v, _ in comps) ** 2
    den = sum((v[0] ** 2) / dfc for v, dfc in comps if dfc > 0 and np.isfinite(v[0]))
    df = num / den if den > 0 else nan
    se = math.sqrt(var)
    stat = est / se
    p = float(2 * tdist.sf(abs(stat), df))
    return PersonTest(est, se, stat, df, p, c.n_units)


def _deviants(c: PersonContrast, tol: float) -> int:
    """Persons (or person pairs) of the contrast that differ from the common value of their group
    (engine.stats.hypothesis_tests.no_test.deviating_persons); pairs' differences are one group."""
    vals, groups = [], []
    if c.pair_diffs is not None and c.w_pairs and len(c.pair_diffs):
        vals.append(np.asarray(c.pair_diffs, dtype=float))
        groups.append(np.full(len(c.pair_diffs), "pairs", dtype=object))
    if c.w_strata:
        for i, st in enumerate(c.strata):
            vals.append(st.values)
            groups.append(np.where(st.is_a, f"{i}a", f"{i}b").astype(object))
    if not vals:
        return 0
    return deviating_persons(np.concatenate(vals), np.concatenate(groups), tol)


def _strata_options(s: Stratum) -> int:
    return math.comb(len(s.values), int(s.is_a.sum()))


def permutation_test(c: PersonContrast, n_permutations: int = 2000, seed: int | None = 0) -> PermutationResult:
    """Person-level permutation test of the studentised contrast (two-sided).

    Labels are shuffled within each stratum and person-pair differences flipped in sign. When
    the number of distinct relabellings is at most ``n_permutations`` all are enumerated (exact
    p-value, the observed labelling included); otherwise ``n_permutations`` random relabellings
    give p = (1 + #{|t*| ≥ |t|}) / (R + 1) with Monte Carlo standard error √(p(1 − p)/R).
    """
    why = _too_small(c)
    if why is not None or n_permutations < 1:
        return PermutationResult(float("nan"), float("nan"), 0, "none",
                                 str(why) if why is not None else "no permutations requested")
    nd = 0 if c.pair_diffs is None else len(c.pair_diffs)
    total = (2 ** nd if nd else 1) * math.prod(_strata_options(s) for s in c.strata)
    scale = _scale(c)
    est0, var0, _ = _stat(c, [s.is_a[None, :] for s in c.strata], None if not nd else np.ones((1, nd)))
    t0 = float(_tstat(est0, var0, scale)[0])
    if total <= n_permutations:
        per = [list(itertools.combinations(range(len(s.values)), int(s.is_a.sum()))) for s in c.strata]
        if nd:
            per.append(list(itertools.product((1.0, -1.0), repeat=nd)))
        combos = list(itertools.product(*per))
        labels = []
        for i, s in enumerate(c.strata):
            lab = np.zeros((len(combos), len(s.values)), dtype=bool)
            for r, cmb in enumerate(combos):
                lab[r, list(cmb[i])] = True
            labels.append(lab)
        signs = np.array([cmb[-1] for cmb in combos], dtype=float) if nd else None
        method = "exact"
    else:
        rng = np.random.default_rng(seed)
        R = int(n_permutations)
        labels = []
        for s in c.strata:
            lab = np.empty((R, len(s.values)), dtype=bool)
            for rows in _row_blocks(R, len(s.values)):  # the draws of rng.random((R, n)), block by block
                keys = rng.random((len(range(R)[rows]), len(s.values)))
                lab[rows] = np.argsort(np.argsort(keys, axis=1), axis=1) < int(s.is_a.sum())
            labels.append(lab)
        signs = rng.choice([-1.0, 1.0], size=(R, nd)) if nd else None
        method = "monte carlo"
    R = len(labels[0]) if labels else len(signs)
    parts = [_stat(c, [lab[rows] for lab in labels], None if signs is None else signs[rows])[:2]
             for rows in _row_blocks(R, sum(len(s.values) for s in c.strata) + nd)]
    est, var = (np.concatenate(x) for x in zip(*parts)) if parts else (np.zeros(0), np.zeros(0))
    t = _tstat(est, var, scale)
    hits = int(np.sum(np.abs(t) >= abs(t0) * (1 - _TIE) - 1e-300)) if np.isfinite(t0) else int(np.sum(np.isinf(t)))
    if method == "exact":
        note = (f"exact over {len(t)} relabellings: the smallest p these groups allow is {1 / len(t):.2g}"
                if hits <= 2 else "")
        return PermutationResult(hits / len(t), 0.0, len(t), method, note)
    p = (1 + hits) / (len(t) + 1)
    note = (f"at its floor 1/({len(t)} + 1): no relabelling was as extreme; more permutations lower the floor"
            if hits == 0 else "")
    return PermutationResult(p, math.sqrt(p * (1 - p) / len(t)), len(t), method, note)


def interaction_permutation(values: np.ndarray, a: np.ndarray, f: np.ndarray, n_permutations: int = 2000,
                            seed: int | None = 0) -> PermutationResult:
    """Freedman–Lane permutation test of the 2 × 2 interaction of person means.

    Why not a label shuffle: "no interaction" still allows both main effects, so no relabelling
    of persons is exchangeable under it. Freedman & Lane permute the persons' residuals from the
    additive model (a + f), add them back to its fitted values and recompute the studentised
    interaction contrast (Welch variance Σ s²_c/n_c). Approximate, but close to exact in
    simulations (Anderson & Legendre 1999); always Monte Carlo.
    """
    values = np.asarray(values, dtype=float)
    a = np.asarray(a, dtype=bool)
    f = np.asarray(f, dtype=bool)
    cells = [(a & f), (a & ~f), (~a & f), (~a & ~f)]
    signs = [1.0, -1.0, -1.0, 1.0]
    if min(int(c.sum()) for c in cells) < 2 or n_permutations < 1:
        return PermutationResult(float("nan"), float("nan"), 0, "none",
                                 "a group has fewer than 2 persons: no permutation test")
    Xr = np.column_stack([np.ones(len(values)), a, f]).astype(float)
    br, *_ = np.linalg.lstsq(Xr, values, rcond=None)
    fit = Xr @ br
    res = values - fit
    rng = np.random.default_rng(seed)
    R = int(n_permutations)
    parts = [_interaction(values[None, :], cells, signs)]  # the observed values, then the permuted ones
    for rows in _row_blocks(R, len(values)):  # the draws of rng.random((R, n)), block by block
        perm = np.argsort(rng.random((len(range(R)[rows]), len(values))), axis=1)
        parts.append(_interaction(fit[None, :] + res[perm], cells, signs))
    est, var = (np.concatenate(x) for x in zip(*parts))
    t = _tstat(est, var, float(np.abs(values).max()) if len(values) else 1.0)
    t0 = t[0]
    hits = int(np.sum(np.abs(t[1:]) >= abs(t0) * (1 - _TIE) - 1e-300)) if np.isfinite(t0) else int(np.sum(np.isinf(t[1:])))
    p = (1 + hits) / (R + 1)
    return PermutationResult(p, math.sqrt(p * (1 - p) / R), R, "freedman-lane (monte carlo)")


def _interaction(Y: np.ndarray, cells: list[np.ndarray], signs: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """The interaction contrast and its Welch variance of each row of Y (rows: labellings, columns: persons)."""
    est = np.zeros(len(Y))
    var = np.zeros(len(Y))
    for cmask, sg in zip(cells, signs):
        yc = Y[:, cmask]
        est += sg * yc.mean(axis=1)
        var += yc.var(axis=1, ddof=1) / yc.shape[1]
    return est, var


#: elements (rows × persons) of one block of permutations
BLOCK = 1 << 21


def _row_blocks(n_rows: int, width: int) -> list[slice]:
    """Slices of ``n_rows`` rows of about BLOCK elements each.

    Why (issue 42): the permutations of a corpus's persons were drawn and evaluated all at once — with
    7,000 persons and 2,000 permutations each array of them 111 MB, four or five alive together: the
    peak of a million-sentence audit. Each labelling is evaluated on its own row and the random draws
    come from the generator in the same order whatever the blocks, so the p-values are unchanged."""
    step = max(1, BLOCK // max(width, 1))
    return [slice(i, min(i + step, n_rows)) for i in range(0, n_rows, step)]


def person_means(values: np.ndarray, persons) -> tuple[np.ndarray, np.ndarray]:
    """(unique person ids, mean value per person), in sorted id order."""
    ids, codes = np.unique(np.asarray(persons).astype(str), return_inverse=True)
    codes = codes.ravel()
    sums = np.bincount(codes, weights=np.asarray(values, dtype=float), minlength=len(ids))
    counts = np.bincount(codes, minlength=len(ids))
    return ids, sums / counts



def terms_without_person_variation(person_means: np.ndarray, person_x: np.ndarray, tolerance: float) -> list[bool]:
    """For each column of the design: True where no person-level test of that term exists.

    The one rule for "no person-level test": a person-level test measures a group contrast
    against the variation between the persons of the groups that contrast uses. A term's estimate
    is a weighted combination of the group (cell) means of the persons — the gender term of a
    race × gender model compares the reference race's women and men only — so the term has a test
    only if persons differ (by more than ``tolerance``) in at least one cell it uses. Where they do
    not (a classifier that gives every unseen name the same features, a lexicon that ignores
    names), any standard error a model reports comes from rounding or from another parameter (the
    Beta precision's per-person scores leak through the sandwich's cross term), and a Wald test on
    it prints p = 1e-60 for what is no evidence at all.
    ``person_x``: one row per person, its regressors (persons with equal rows form a cell).
    """
    pm = np.asarray(person_means, dtype=float)
    px = np.asarray(person_x, dtype=float)
    cells, cell = np.unique(px, axis=0, return_inverse=True)
    cell = np.asarray(cell).ravel()
    n = np.bincount(cell, minlength=len(cells)).astype(float)
    spread = np.array([float(np.ptp(pm[cell == c])) for c in range(len(cells))])
    # the term's estimate as a combination of cell means (weighted least squares on the cells)
    w = cells.T * n
    combo = np.linalg.pinv(w @ cells) @ w
    varies = spread > tolerance
    return [not bool(np.any(varies & (np.abs(row) > 1e-9))) for row in combo]



def terms_design_limited(person_means: np.ndarray, person_x: np.ndarray, tolerance: float) -> list[int | None]:
    """For each column of the design: the number of persons that differ from the common value of their
    cell, over the cells the term uses, where that is at most DESIGN_LIMIT (the test is then fixed by
    the design: engine.stats.hypothesis_tests.no_test); None where the term's test depends on the data."""
    pm = np.asarray(person_means, dtype=float)
    px = np.asarray(person_x, dtype=float)
    cells, cell = np.unique(px, axis=0, return_inverse=True)
    cell = np.asarray(cell).ravel()
    n = np.bincount(cell, minlength=len(cells)).astype(float)
    w = cells.T * n
    combo = np.linalg.pinv(w @ cells) @ w
    out: list[int | None] = []
    for row in combo:
        used = np.isin(cell, np.flatnonzero(np.abs(row) > 1e-9))
        dev = deviating_persons(pm[used], cell[used], tolerance)
        out.append(dev if 0 < dev <= DESIGN_LIMIT else None)
    return out


def crossed_t(pt: PersonTest, d: np.ndarray, factors: dict[str, np.ndarray] | None, *, units=None,
              cells=None) -> PersonTest | None:
    """The person-level test ``pt`` of a mean difference, with templates and emotion words as further
    random factors (``inference="crossed"``); None when the factors are unknown.

    ``d``: the differences of the pairs the mean is taken over (one per template × word × person
    pair); ``factors``: their template and word labels; ``units``: the person (pair) unit of each
    difference ("" where a difference averages over names: the other factor's levels then serve as
    rows of the noise table); ``cells``: the kind of each pair (noun-phrase pairs and name averages
    have noise of their own size). Variance: the person part (``pt``'s Welch variance) plus each
    factor's factor × group part — :func:`engine.stats.models.crossed.crossed_variance`, the same
    estimator as the regressions'. A factor that cannot be estimated gives status
    ``crossed_not_estimable`` with no p-value.
    """
    from scipy.stats import t as tdist

    from engine.stats.models.crossed import crossed_variance

    if not factors or pt.status != "ok" or not np.isfinite(pt.std_err):
        return None if not factors else pt
    d = np.asarray(d, dtype=float)
    n = len(d)
    # the mean of d as an intercept-only model: its person part is pt's Welch variance
    psi = ((d - d.mean()) / n)[:, None]
    cv = crossed_variance(psi, np.full((n, 1), 1.0 / n), [pt.std_err ** 2], [pt.df], factors,
                          persons=units, cells=cells)
    if not cv.estimable:
        nan = float("nan")
        return PersonTest.untested(pt.estimate, nan, pt.n_units, cv.reason)
    se, df = float(cv.se[0]), float(cv.df[0])
    stat = pt.estimate / se
    note = ""
    if df < 2 <= pt.df:  # an excess estimated from few levels (K&M neutral: 4 templates) costs nearly all df
        note = (f"the template/word part rests on few levels here (crossed df {df:.2f}, person df {pt.df:.1f}): "
                "the crossed test has little power; the person-level test is in person_p_value")
    return PersonTest(pt.estimate, se, stat, df, float(2 * tdist.sf(abs(stat), df)), pt.n_units, "ok", note)
