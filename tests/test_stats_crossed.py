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


def test_crossed_variance_of_a_mean_is_the_moment_formula_written_out():
    """V = V_person + Σ_f (A_f − N_f)⁺, each part written out by hand on a complete persons × templates ×
    words table of differences: A_f = L/(L−1)·Σ_ℓ (s_ℓ − s̄)² with s_ℓ the slice sums of ψ = (d − d̄)/n,
    N_f = (entries of the persons × levels table) × its double-centred residual variance."""
    rng = np.random.default_rng(3)
    T, W, P = 4, 5, 6
    t, w, p = (a.ravel() for a in np.meshgrid(np.arange(T), np.arange(W), np.arange(P), indexing="ij"))
    d = 0.1 + rng.normal(0, 0.3, T)[t] + rng.normal(0, 0.2, W)[w] + rng.normal(0, 0.03, P)[p] \
        + rng.normal(0, 0.1, len(t))
    n = len(d)
    psi = (d - d.mean()) / n

    def part(level, L):
        s_ = np.array([psi[level == g].sum() for g in range(L)])
        A = L / (L - 1) * ((s_ - s_.mean()) ** 2).sum()
        z = np.array([[psi[(p == u) & (level == g)].sum() for g in range(L)] for u in range(P)])
        r = z - z.mean(axis=1, keepdims=True) - z.mean(axis=0, keepdims=True) + z.mean()
        sigma2 = (r ** 2).sum() / ((P - 1) * (L - 1))
        return A, sigma2 * P * L

    pm = np.array([d[p == i].mean() for i in range(P)])
    pt = person_t(PersonContrast([], pm, 1.0, 0.0))
    got = crossed_t(pt, d, {"template": t.astype(str), "word": w.astype(str)}, units=p.astype(str))
    (At, Nt), (Aw, Nw) = part(t, T), part(w, W)
    assert At > Nt and Aw > Nw  # both factors carry variation of their own here
    want = pt.std_err ** 2 + (At - Nt) + (Aw - Nw)
    assert got.std_err ** 2 == pytest.approx(want, rel=1e-9)
    # Satterthwaite: complete balanced table, so A's effective df are L − 1 and N's (P − 1)(L − 1)
    den = pt.std_err ** 4 / pt.df + sum(2 * A ** 2 / (L - 1) + 2 * N ** 2 / ((P - 1) * (L - 1))
                                        for A, N, L in ((At, Nt, T), (Aw, Nw, W)))
    assert got.df == pytest.approx(want ** 2 / den, rel=1e-9)
    assert crossed_t(pt, d, None) is None


def test_main_effects_of_templates_and_words_do_not_reach_the_crossed_variance():
    """Issue 37's root cause: template and word main effects (SD 5 logit here) sit in every residual but
    cancel in a balanced contrast, so they must not change the crossed variance of a group coefficient
    (the old V_f − V₀ form subtracted them and clipped the word part to zero)."""
    rng = np.random.default_rng(11)
    T, W, P = 5, 6, 8  # P persons per group
    t, w, p = (a.ravel() for a in np.meshgrid(np.arange(T), np.arange(W), np.arange(2 * P), indexing="ij"))
    female = (p >= P).astype(float)
    X = np.column_stack([np.ones(len(t)), female])
    y = 0.3 + rng.normal(0, 0.1, 2 * P)[p] + rng.normal(0, 0.15, W)[w] * female \
        + rng.normal(0, 0.15, T)[t] * female + rng.normal(0, 0.2, len(t))
    factors = {"template": t.astype(str), "word": w.astype(str)}

    def crossed_var(scores):
        beta, pc = ols_cluster(scores, X, p)
        cx, info = crossed_cov(X, scores - X @ beta, pc, factors, persons=p)
        assert info["status"] == "ok"
        return cx.cov[1, 1] - pc.cov[1, 1], cx.df[1]

    base, df0 = crossed_var(y)
    assert base > 0
    moved, df1 = crossed_var(y + rng.normal(0, 5.0, T)[t] + rng.normal(0, 5.0, W)[w])
    assert moved == pytest.approx(base, rel=1e-8) and df1 == pytest.approx(df0, rel=1e-8)


def test_a_factor_whose_levels_are_seen_once_is_not_estimable_and_rounding_changes_nothing():
    """The exact case of issue 37: 4 pairs, each in a template of its own (an excess of ~1e-20 once
    cut the df to ~0). No factor part can be told from the noise: the crossed test says so, with no
    p-value, and a perturbation of 1e-12 gives the same answer."""
    d = np.array([0.021, 0.034, 0.018, 0.029])
    pt = person_t(PersonContrast([], np.array([0.02, 0.03, 0.025, 0.027, 0.022]), 1.0, 0.0))
    factors = {"template": np.array(["T1", "T2", "T3", "T4"]), "word": np.array(["", "", "", ""], dtype=object)}
    for noise in (0.0, 1e-12, -1e-12):
        got = crossed_t(pt, d + noise * np.arange(4), factors)
        assert got.status == "crossed_not_estimable" and np.isnan(got.p_value) and np.isnan(got.df)
        assert "cannot be told from the noise" in got.note


def test_rounding_never_creates_a_factor_part():
    """Templates that carry no variation of their own (every slice identical up to rounding): the crossed
    test is the person test exactly — same SE and df — with and without noise of 1e-12."""
    rng = np.random.default_rng(5)
    T, P = 5, 8
    t, p = (a.ravel() for a in np.meshgrid(np.arange(T), np.arange(P), indexing="ij"))
    d = 0.05 + rng.normal(0, 0.02, P)[p]  # persons vary; templates add nothing at all
    pm = np.array([d[p == i].mean() for i in range(P)])
    pt = person_t(PersonContrast([], pm, 1.0, 0.0))
    for noise in (0.0, 1e-12):
        got = crossed_t(pt, d + noise * rng.normal(size=len(d)), {"template": t.astype(str), "word": np.full(len(d), "", dtype=object)},
                        units=p.astype(str))
        assert got.status == "ok"
        assert got.std_err == pytest.approx(pt.std_err, rel=1e-9) and got.df == pytest.approx(pt.df, rel=1e-9)


def test_crossed_standard_error_matches_the_spread_over_words_and_templates():
    """Each emotion word and template has its own female effect (SD 0.15 logit, mean 0), on top of
    realistic template and word main effects (SD 0.3 and 1.0 logit: VADER on the EEC has 0.24 and 0.94).
    Over 480 draws of words, templates, persons and noise (with main effects the spread is heavy-tailed:
    120 draws gave ratios from 0.83 to 1.53), the OLS gender estimate's real spread is what
    the crossed standard error says (ratio of variances near 1); the person-robust one misses most of it."""
    corpus = synthetic_eec(words_per_emotion=3, names_per_cell=6, emotions=("anger", "joy"))
    names = corpus[corpus["person_kind"] == "name"].reset_index(drop=True)
    x1 = (names["Race"] == "African-American").to_numpy(float)
    x2 = (names["Gender"] == "female").to_numpy(float)
    X = np.column_stack([np.ones(len(names)), x1, x2, x1 * x2])
    from engine.stats._common import crossed_factors
    factors = crossed_factors(names)
    est, v_person, v_crossed = [], [], []
    for seed in range(480):
        y = planted_scores(names, seed=seed, person_sd=0.03, word_gender_sd=0.15, template_gender_sd=0.15,
                           template_sd=0.3, word_sd=1.0, scale="logit")
        beta, pc = ols_cluster(y, X, names["person_id"].to_numpy())
        cx, _ = crossed_cov(X, y - X @ beta, pc, factors, persons=names["person_id"].to_numpy())
        est.append(beta[2])
        v_person.append(pc.cov[2, 2])
        v_crossed.append(cx.cov[2, 2])
    real = np.var(est, ddof=1)
    assert 0.8 < np.mean(v_crossed) / real < 1.3
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
