"""Calibration and power of every test of this package on simulated EEC scorers.

Why: a bias test is only trustworthy if, for a system that ignores identity, it flags bias at
the nominal rate (5% at α = .05) — also when, as real systems do, each person (name, noun
phrase) has a small quirk of its own that repeats in all of that person's sentences, and
templates and emotion words shift the scores. :func:`scenario_pvalues` scores a synthetic
corpus with such a scorer (optionally with a planted bias) and returns the p-value of every
test, for the default (person-robust) inference, the papers' inference, a CR1 alternative
and the person-level permutation test. ``bench/bench_calibration.py`` repeats it many times
and prints false-positive rates and power; the test suite runs a small version.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.stats.simulate.synthetic import planted_scores, synthetic_np_pairs, synthetic_pairs

TERMS = ("race", "gender", "intersection")
#: Default (person-robust) tests, in display order; each has the "paper_" twin where the papers test it.
DEFAULT_TESTS = [f"beta_{t}" for t in TERMS] + [f"ame_{t}" for t in TERMS] + [f"ols_{t}" for t in TERMS] + \
    ["km_gender_all", "km_gender_neutral", "km_race_all", "km_race_neutral", "cf_gender_t", "cf_gender_wilcoxon"]
PAPER_TESTS = [f"paper_{t}" for t in DEFAULT_TESTS if not t.startswith("ame_")] + \
    ["paper_km_race_all_within_gender", "paper_km_race_neutral_within_gender"]
CR1_TESTS = [f"cr1_beta_{t}" for t in TERMS] + [f"cr1_ols_{t}" for t in TERMS]
PERM_TESTS = [f"perm_{t}" for t in TERMS] + ["perm_km_gender_all", "perm_km_gender_neutral", "perm_km_race_all",
                                             "perm_km_race_neutral", "perm_cf_gender"]
#: Crossed inference (persons, templates and words as random factors): the regressions' terms and the
#: paired tests (inference="crossed" puts these in the main columns).
CROSSED_TESTS = [f"crossed_beta_{t}" for t in TERMS] + [f"crossed_ols_{t}" for t in TERMS] + \
    ["crossed_km_gender_all", "crossed_km_gender_neutral", "crossed_km_race_all", "crossed_km_race_neutral",
     "crossed_cf_gender_t"]
TESTS = DEFAULT_TESTS + CROSSED_TESTS + PERM_TESTS + CR1_TESTS + PAPER_TESTS


@dataclass(frozen=True)
class Scenario:
    """How scores are drawn (see ``planted_scores(scale="logit")``): SDs and effects in logit units."""

    person_sd: float = 0.0
    template_sd: float = 0.08
    word_sd: float = 0.08
    delta_race: float = 0.0
    delta_gender: float = 0.0
    delta_intersection: float = 0.0
    base: float = 0.4
    precision: float = 20.0
    word_gender_sd: float = 0.0
    word_race_sd: float = 0.0
    template_gender_sd: float = 0.0
    template_race_sd: float = 0.0

    @property
    def null(self) -> bool:
        return not (self.delta_race or self.delta_gender or self.delta_intersection)

    @property
    def interactions(self) -> bool:
        """Identity effects that vary by word or template (zero mean): only crossed inference covers them."""
        return bool(self.word_gender_sd or self.word_race_sd or self.template_gender_sd or self.template_race_sd)


#: The old name: identity-independent scores on the score scale (kept for callers).
NullScenario = Scenario


def scenario_pvalues(corpus: pd.DataFrame, seed: int, scenario: Scenario = Scenario(), *,
                     n_permutations: int = 1000, beta: bool = True, variants: bool = True) -> dict[str, float]:
    """Score ``corpus`` (seeded) under ``scenario`` and return every test's p-value.

    ``ame_<term>`` is 2·P(T > |AME / SE|) with the term's df: it rejects at α exactly when the
    (1 − α) AME interval excludes 0. ``beta=False`` skips the Beta fit (its p-values are NaN),
    ``variants=False`` the CR1 and within-gender variants.
    """
    from scipy.stats import t as tdist

    from engine.stats.models.beta import beta_regression
    from engine.stats.hypothesis_tests.counterfactual import counterfactual_analysis
    from engine.stats.hypothesis_tests.km import km_paired_analysis

    df = corpus.copy()
    df["score"] = planted_scores(df, seed=seed, base=scenario.base, precision=scenario.precision,
                                 template_sd=scenario.template_sd, word_sd=scenario.word_sd,
                                 person_sd=scenario.person_sd, delta_race=scenario.delta_race,
                                 delta_gender=scenario.delta_gender,
                                 delta_intersection=scenario.delta_intersection, scale="logit",
                                 word_gender_sd=scenario.word_gender_sd, word_race_sd=scenario.word_race_sd,
                                 template_gender_sd=scenario.template_gender_sd,
                                 template_race_sd=scenario.template_race_sd)
    out: dict[str, float] = {}
    perm_seed = seed + 7919  # permutations independent of the scores' stream

    def beta_rows(**kw) -> pd.DataFrame:
        if beta:
            return beta_regression(df, "score", seed=perm_seed, **kw).to_frame().set_index("term")
        return _ols_only(df, seed=perm_seed, **kw)

    b = beta_rows(n_permutations=n_permutations)
    for term in TERMS:
        r = b.loc[term]
        out[f"beta_{term}"] = float(r["p_value"]) if beta else np.nan
        out[f"ame_{term}"] = float(2 * tdist.sf(abs(r["ame"] / r["ame_std_err"]), r["df"])) if beta else np.nan
        out[f"ols_{term}"] = float(r["ols_p_value"])
        out[f"perm_{term}"] = float(r["perm_p_value"])
        out[f"paper_beta_{term}"] = float(r["paper_p_value"]) if beta else np.nan
        out[f"paper_ols_{term}"] = float(r["ols_paper_p_value"])
        out[f"crossed_beta_{term}"] = float(r["crossed_p_value"]) if beta else np.nan
        out[f"crossed_ols_{term}"] = float(r["ols_crossed_p_value"])
    if variants:
        c = beta_rows(n_permutations=0, small_sample="CR1")
        for term in TERMS:
            out[f"cr1_beta_{term}"] = float(c.loc[term, "p_value"]) if beta else np.nan
            out[f"cr1_ols_{term}"] = float(c.loc[term, "ols_p_value"])
    k = km_paired_analysis(df, "score", axis="both", np_pairs=synthetic_np_pairs(), n_resamples=0,
                           n_permutations=n_permutations, seed=perm_seed).to_frame()
    for r in k.itertuples(index=False):
        out[f"km_{r.axis}_{r.subset}"] = float(r.p_value)
        out[f"perm_km_{r.axis}_{r.subset}"] = float(r.perm_p_value)
        out[f"paper_km_{r.axis}_{r.subset}"] = float(r.paper_p_value)
        out[f"crossed_km_{r.axis}_{r.subset}"] = float(r.crossed_p_value)
    if variants:
        w = km_paired_analysis(df, "score", axis="race", race_pooling="within_gender", n_resamples=0,
                               n_permutations=0).to_frame()
        for r in w.itertuples(index=False):
            out[f"paper_km_race_{r.subset}_within_gender"] = float(r.paper_p_value)
    pairs = synthetic_pairs(df, "score", variable="gender")
    cf = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", n_resamples=0,
                                 score_range=(0, 1), n_permutations=n_permutations, seed=perm_seed).to_frame().iloc[0]
    out["cf_gender_t"] = float(cf["t_p_value"])
    out["cf_gender_wilcoxon"] = float(cf["wilcoxon_p_value"])
    out["perm_cf_gender"] = float(cf["perm_p_value"])
    out["paper_cf_gender_t"] = float(cf["paper_t_p_value"])
    out["crossed_cf_gender_t"] = float(cf["crossed_t_p_value"])
    out["paper_cf_gender_wilcoxon"] = float(cf["paper_wilcoxon_p_value"])
    return out


def _ols_only(df: pd.DataFrame, n_permutations: int = 0, small_sample: str = "CR2", seed: int = 0) -> pd.DataFrame:
    """The OLS and permutation columns of ``beta_regression`` without the (slow) Beta fit."""
    from statsmodels.regression.linear_model import OLS
    from scipy.stats import norm, t as tdist

    from engine.stats._common import crossed_factors
    from engine.stats.models.cluster_robust import crossed_cov, ols_cluster
    from engine.stats.hypothesis_tests.person_tests import PersonContrast, Stratum, interaction_permutation, permutation_test

    names = df[df["person_kind"] == "name"]
    y = names["score"].to_numpy(float)
    x1 = (names["Race"] == "African-American").to_numpy(float)
    x2 = (names["Gender"] == "female").to_numpy(float)
    X = np.column_stack([np.ones(len(y)), x1, x2, x1 * x2])
    g = names["person_id"].to_numpy()
    beta, cc = ols_cluster(y, X, g, kind=small_sample)
    cx, _ = crossed_cov(X, y - X @ beta, cc, crossed_factors(names), persons=g, cells=X)
    hc3 = OLS(y, X).fit(cov_type="HC3")
    rows = {}
    ids, codes = np.unique(g, return_inverse=True)
    cnt = np.bincount(codes)
    pm = np.bincount(codes, weights=y) / cnt
    px1 = np.bincount(codes, weights=x1) / cnt == 1
    px2 = np.bincount(codes, weights=x2) / cnt == 1
    perm = {}
    if n_permutations:
        perm["race"] = permutation_test(PersonContrast([Stratum(pm[~px2], px1[~px2])]), n_permutations, seed)
        perm["gender"] = permutation_test(PersonContrast([Stratum(pm[~px1], px2[~px1])]), n_permutations, seed)
        perm["intersection"] = interaction_permutation(pm, px1, px2, n_permutations, seed)
    for j, term in enumerate(("intercept",) + TERMS):
        tstat = beta[j] / cc.bse[j]
        rows[term] = {"ols_p_value": float(2 * tdist.sf(abs(tstat), cc.df[j])),
                      "ols_paper_p_value": float(2 * norm.sf(abs(hc3.tvalues[j]))),
                      "ols_crossed_p_value": float(2 * tdist.sf(abs(beta[j] / cx.bse[j]), cx.df[j])),
                      "perm_p_value": perm[term].p_value if term in perm else np.nan}
    return pd.DataFrame(rows).T


def null_pvalues(corpus: pd.DataFrame, seed: int, scenario: Scenario = Scenario(person_sd=0.0)) -> dict[str, float]:
    """Back-compatible wrapper: every test's p-value under ``scenario`` (no planted bias)."""
    return scenario_pvalues(corpus, seed, scenario)


def rejection_rates(pvalues: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Share of p < alpha per test, with an exact (Clopper–Pearson) 95% interval."""
    from scipy.stats import binomtest

    rows = []
    for t in [c for c in TESTS if c in pvalues.columns]:
        p = pvalues[t].to_numpy(dtype=float)
        p = p[~np.isnan(p)]
        if not len(p):
            continue
        k = int((p < alpha).sum())
        ci = binomtest(k, len(p), alpha).proportion_ci(0.95)
        rows.append({"test": t, "sims": len(p), "rejections": k, "rate": k / len(p),
                     "ci_low": ci.low, "ci_high": ci.high})
    return pd.DataFrame(rows)


def false_positive_rates(pvalues: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """:func:`rejection_rates` with the column named ``fpr`` (simulations without bias)."""
    return rejection_rates(pvalues, alpha).rename(columns={"rate": "fpr"})
