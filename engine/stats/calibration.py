"""False-positive-rate checks: every test of this package on corpora scored without bias.

Why: a bias test is only trustworthy if, for a system that ignores identity, it flags bias
at the nominal rate (5% at α = .05). :func:`null_pvalues` scores a synthetic corpus with an
identity-independent scorer and returns the p-value of each test; the benchmark
``bench/bench_calibration.py`` and the test suite repeat it many times and compare the
share of p < α with α.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .synthetic import planted_scores, synthetic_np_pairs, synthetic_pairs

#: Tests reported, in display order.
TESTS = ["beta_race", "beta_gender", "beta_intersection", "ame_race", "ame_gender", "ame_intersection",
         "ols_race", "ols_gender", "ols_intersection",
         "km_gender_all", "km_gender_neutral", "km_race_all", "km_race_neutral",
         "cf_gender_t", "cf_gender_wilcoxon"]


@dataclass(frozen=True)
class NullScenario:
    """How the identity-independent scores are drawn (see ``planted_scores``)."""

    base: float = 0.4
    precision: float = 20.0
    template_sd: float = 0.0
    word_sd: float = 0.0


def null_pvalues(corpus: pd.DataFrame, seed: int, scenario: NullScenario = NullScenario()) -> dict[str, float]:
    """Score ``corpus`` with an unbiased scorer (seeded) and return each test's p-value.

    ``ame_<term>`` is the p-value of the Wald test that the average marginal effect is 0,
    2·Φ(−|AME / SE|): it rejects at α exactly when the (1 − α) AME interval excludes 0, so its
    rate checks the delta-method intervals reported beside the coefficients.
    """
    from .beta import beta_regression
    from .counterfactual import counterfactual_analysis
    from .km import km_paired_analysis

    df = corpus.copy()
    df["score"] = planted_scores(df, seed=seed, base=scenario.base, precision=scenario.precision,
                                 template_sd=scenario.template_sd, word_sd=scenario.word_sd)
    out: dict[str, float] = {}
    from scipy.stats import norm

    b = beta_regression(df, "score").to_frame().set_index("term")
    for term in ("race", "gender", "intersection"):
        out[f"beta_{term}"] = float(b.loc[term, "p_value"])
        out[f"ame_{term}"] = float(2 * norm.sf(abs(b.loc[term, "ame"] / b.loc[term, "ame_std_err"])))
        out[f"ols_{term}"] = float(b.loc[term, "ols_p_value"])
    k = km_paired_analysis(df, "score", axis="both", np_pairs=synthetic_np_pairs(), n_resamples=0).to_frame()
    for r in k.itertuples(index=False):
        out[f"km_{r.axis}_{r.subset}"] = float(r.p_value)
    pairs = synthetic_pairs(df, "score", variable="gender")
    c = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", n_resamples=0,
                                score_range=(0, 1)).to_frame().iloc[0]
    out["cf_gender_t"] = float(c["t_p_value"])
    out["cf_gender_wilcoxon"] = float(c["wilcoxon_p_value"])
    return out


def false_positive_rates(pvalues: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Share of p < alpha per test, with an exact (Clopper–Pearson) 95% interval."""
    from scipy.stats import binomtest

    rows = []
    for t in [c for c in TESTS if c in pvalues.columns]:
        p = pvalues[t].to_numpy(dtype=float)
        p = p[~np.isnan(p)]
        k = int((p < alpha).sum())
        ci = binomtest(k, len(p), alpha).proportion_ci(0.95) if len(p) else None
        rows.append({"test": t, "sims": len(p), "rejections": k, "fpr": k / len(p) if len(p) else np.nan,
                     "ci_low": ci.low if ci else np.nan, "ci_high": ci.high if ci else np.nan})
    return pd.DataFrame(rows)
