"""Crossed inference (issue 26, part 3): persons, templates and emotion words as random factors.

Known answers: the variance of a mean difference against the explicit per-factor formula; a Monte
Carlo check that the crossed standard error matches the real sampling spread of the estimate when
every emotion word carries its own gender effect (where the person-robust one is far too small);
and the option reaching every statistic's main columns under one name, with the population each
p-value generalises to in every table.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.stats import beta_regression, counterfactual_analysis, km_paired_analysis, planted_scores, synthetic_eec
from engine.stats.models.cluster_robust import crossed_cov, ols_cluster
from engine.stats.hypothesis_tests.person_tests import PersonContrast, crossed_t, person_t
from engine.stats.simulate.synthetic import synthetic_np_pairs, synthetic_pairs


def test_crossed_variance_of_a_mean_is_the_per_factor_formula():
    """V = V_person + (V_template − V0)⁺ + (V_word − V0)⁺, each part written out by hand (CR2 of a mean:
    cluster sums of the centred values scaled by 1/(1 − n_g/N); HC2: each value its own cluster)."""
    rng = np.random.default_rng(3)
    T, W, P = 4, 5, 6
    t, w, p = (a.ravel() for a in np.meshgrid(np.arange(T), np.arange(W), np.arange(P), indexing="ij"))
    d = 0.1 + rng.normal(0, 0.05, T)[t] + rng.normal(0, 0.08, W)[w] + rng.normal(0, 0.03, P)[p] \
        + rng.normal(0, 0.1, len(t))
    N = len(d)
    e = d - d.mean()

    def cr2(labels):
        return sum((e[labels == g].sum()) ** 2 / (1 - (labels == g).sum() / N) for g in np.unique(labels)) / N ** 2

    v0 = (e ** 2 / (1 - 1 / N)).sum() / N ** 2
    pm = np.array([d[p == i].mean() for i in range(P)])
    pt = person_t(PersonContrast([], pm, 1.0, 0.0))
    got = crossed_t(pt, d, {"template": t.astype(str), "word": w.astype(str)})
    assert cr2(t) > v0 and cr2(w) > v0  # both factors vary here
    want = pt.std_err ** 2 + (cr2(t) - v0) + (cr2(w) - v0)
    assert got.std_err ** 2 == pytest.approx(want, rel=1e-10)
    parts = [(pt.std_err ** 2, pt.df), (cr2(t), T - 1), (cr2(w), W - 1)]
    assert got.df == pytest.approx(want ** 2 / sum(v * v / f for v, f in parts), rel=1e-10)
    assert crossed_t(pt, d, None) is None
    # a factor that shows no variance of its own (its clustered variance below V0) adds nothing
    flat = crossed_t(pt, d, {"template": np.arange(N).astype(str), "word": w.astype(str)})
    assert flat.std_err ** 2 == pytest.approx(pt.std_err ** 2 + cr2(w) - v0, rel=1e-10)


def test_crossed_standard_error_matches_the_spread_over_words_and_templates():
    """Each emotion word and template has its own female effect (SD 0.1 logit, mean 0). Over 120
    draws of words, templates, persons and noise, the OLS gender estimate's real spread is what the
    crossed standard error says (ratio of variances near 1); the person-robust one misses most of it."""
    corpus = synthetic_eec(words_per_emotion=3, names_per_cell=6, emotions=("anger", "joy"))
    names = corpus[corpus["person_kind"] == "name"].reset_index(drop=True)
    x1 = (names["Race"] == "African-American").to_numpy(float)
    x2 = (names["Gender"] == "female").to_numpy(float)
    X = np.column_stack([np.ones(len(names)), x1, x2, x1 * x2])
    from engine.stats._common import crossed_factors
    factors = crossed_factors(names)
    est, v_person, v_crossed = [], [], []
    for seed in range(120):
        y = planted_scores(names, seed=seed, person_sd=0.03, word_gender_sd=0.15, template_gender_sd=0.15,
                           scale="logit")
        beta, pc = ols_cluster(y, X, names["person_id"].to_numpy())
        cx, _ = crossed_cov(X, y - X @ beta, pc, factors)
        est.append(beta[2])
        v_person.append(pc.cov[2, 2])
        v_crossed.append(cx.cov[2, 2])
    real = np.var(est, ddof=1)
    assert 0.7 < np.mean(v_crossed) / real < 1.4
    assert np.mean(v_person) / real < 0.5


def test_inference_crossed_fills_the_main_columns_of_every_statistic():
    df = synthetic_eec(words_per_emotion=2, names_per_cell=6)
    df["s"] = planted_scores(df, seed=1, person_sd=0.05, word_gender_sd=0.1, scale="logit")
    b = beta_regression(df, "s", inference="crossed", n_permutations=0).to_frame().set_index("term")
    g = b.loc["gender"]
    assert g["p_value"] == pytest.approx(g["crossed_p_value"]) and g["df"] == pytest.approx(g["crossed_df"])
    assert g["ols_p_value"] == pytest.approx(g["ols_crossed_p_value"])
    assert g["p_value"] != pytest.approx(g["person_p_value"])
    assert set(b["generalises_to"]) == {"persons, templates and words like these"}
    person = beta_regression(df, "s", n_permutations=0).to_frame().set_index("term")
    assert person.loc["gender", "crossed_p_value"] == pytest.approx(g["crossed_p_value"])  # always reported
    assert set(person["generalises_to"]) == {"persons like these; these templates and words"}
    k = km_paired_analysis(df, "s", np_pairs=synthetic_np_pairs(), n_resamples=0, n_permutations=0,
                           inference="crossed").to_frame()
    assert np.allclose(k["p_value"], k["crossed_p_value"]) and not np.allclose(k["p_value"], k["person_p_value"])
    assert set(k["generalises_to"]) == {"persons, templates and words like these"}
    c = counterfactual_analysis(synthetic_pairs(df, "s"), "score_privileged", "score_minoritised",
                                score_range=(0, 1), n_resamples=0, n_permutations=0, inference="crossed").to_frame()
    assert np.allclose(c["t_p_value"], c["crossed_t_p_value"]) and c["ci_high"].iloc[0] > c["ci_low"].iloc[0]
    assert set(c["generalises_to"]) == {"persons, templates and words like these"}
    paper = counterfactual_analysis(synthetic_pairs(df, "s"), "score_privileged", "score_minoritised",
                                    score_range=(0, 1), n_resamples=0, inference="paper").to_frame()
    assert set(paper["generalises_to"]) == {"these sentences (persons, templates and words fixed)"}


def test_without_template_or_word_columns_crossed_says_it_is_person_only():
    df = synthetic_eec(words_per_emotion=2, names_per_cell=6)
    df["s"] = planted_scores(df, seed=1, person_sd=0.05, scale="logit")
    f = beta_regression(df.drop(columns=["emotion_word_id"]), "s", inference="crossed", n_permutations=0)
    fit = f.fits[0]
    assert any("cannot be random factors" in n for n in fit.notes)
    g = fit.term("gender")
    assert g["p_value"] == pytest.approx(g["person_p_value"])


def test_the_audit_cli_and_plan_accept_crossed():
    from engine.audit.cli import plan_from_args
    from main import build_parser

    args = build_parser().parse_args(["audit", "--corpus", "en-kiritchenko2018", "--model", "vader", "--out", "o",
                                      "--inference", "crossed"])
    plan = plan_from_args(args)
    assert plan.settings["inference"] == "crossed"
    plan.validate()
