"""Person-robust inference: cluster-robust errors against statsmodels and a dense CR2, person-level
Welch tests against scipy, permutation tests against brute-force enumeration, and the default
tests' calibration under per-person quirks."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import linalg, stats

from engine.stats import beta_regression, counterfactual_analysis, km_paired_analysis, planted_scores, synthetic_eec
from engine.stats.models.cluster_robust import beta_cluster_cov, cr_cov, ols_cluster
from engine.stats.hypothesis_tests.person_tests import (PersonContrast, Stratum, interaction_permutation, permutation_test,
                                       person_t)


def _clustered_data(seed=0):
    """Unbalanced clusters (3–9 rows), a cluster-level dummy and a within-cluster covariate."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(3, 10, size=14)
    g = np.repeat(np.arange(14), sizes)
    n = len(g)
    X = np.column_stack([np.ones(n), (g % 2).astype(float), rng.normal(size=n)])
    y = X @ [0.4, 0.1, 0.05] + rng.normal(0, 0.3, 14)[g] + rng.normal(0, 0.2, n)
    return y, X, g


@pytest.mark.parametrize("kind,kw", [("CR0", {"use_correction": False}), ("CR1", {})])
def test_ols_cluster_equals_statsmodels(kind, kw):
    import statsmodels.api as sm

    y, X, g = _clustered_data()
    ref = sm.OLS(y, X).fit(cov_type="cluster", cov_kwds=dict(groups=g, **kw))
    beta, cc = ols_cluster(y, X, g, kind=kind)
    np.testing.assert_allclose(beta, ref.params, rtol=1e-10)
    np.testing.assert_allclose(cc.cov, ref.cov_params(), rtol=1e-9, atol=1e-14)
    assert cc.n_clusters == 14 and (cc.df == 13).all()


@pytest.mark.parametrize("kind,kw", [("CR0", {"use_correction": False}), ("CR1", {})])
def test_beta_sandwich_equals_statsmodels_cluster(kind, kw):
    from statsmodels.othermod.betareg import BetaModel

    rng = np.random.default_rng(3)
    g = np.repeat(np.arange(16), rng.integers(4, 12, size=16))
    n = len(g)
    X = np.column_stack([np.ones(n), (g % 2).astype(float), (g % 4 > 1).astype(float), rng.normal(size=n)])
    mu = 1 / (1 + np.exp(-(X @ [-0.3, 0.2, -0.1, 0.1] + rng.normal(0, 0.2, 16)[g])))
    y = rng.beta(mu * 15, (1 - mu) * 15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mod = BetaModel(y, X)
        ref = mod.fit(method="newton", disp=False, cov_type="cluster", cov_kwds=dict(groups=g, **kw))
    cc = beta_cluster_cov(mod, ref.params, g, kind=kind)
    np.testing.assert_allclose(cc.cov, ref.cov_params(), rtol=1e-6, atol=1e-12)


def _dense_cr2(Xt, et, g):
    """CR2 and Bell–McCaffrey df straight from the definitions, with dense matrices."""
    M = np.linalg.inv(Xt.T @ Xt)
    H = Xt @ M @ Xt.T
    n, k = Xt.shape
    groups = np.unique(g)
    meat = np.zeros((k, k))
    A = {}
    for c in groups:
        i = np.flatnonzero(g == c)
        A[c] = np.real(linalg.inv(linalg.sqrtm(np.eye(len(i)) - H[np.ix_(i, i)])))
        u = Xt[i].T @ A[c] @ et[i]
        meat += np.outer(u, u)
    cov = M @ meat @ M
    df = []
    IH = np.eye(n) - H
    for j in range(k):
        cols = []
        for c in groups:
            i = np.flatnonzero(g == c)
            p = np.zeros(n)
            p[i] = A[c] @ Xt[i] @ M[:, j]
            cols.append(IH @ p)  # v_j = Σ_g (q_g'y)², q_g = (I − H) p_g
        Q = np.column_stack(cols)
        lam = np.linalg.eigvalsh(Q.T @ Q)
        df.append(lam.sum() ** 2 / (lam ** 2).sum())
    return cov, np.array(df)


def test_cr2_equals_dense_definition():
    y, X, g = _clustered_data(seed=5)
    beta, cc = ols_cluster(y, X, g, kind="CR2")
    cov, df = _dense_cr2(X, y - X @ beta, g)
    np.testing.assert_allclose(cc.cov, cov, rtol=1e-8, atol=1e-14)
    np.testing.assert_allclose(cc.df, df, rtol=1e-8)
    # weighted (working) design, as used for the Beta model
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    Xt, et = X * np.sqrt(w)[:, None], (y - X @ beta) * np.sqrt(w)
    c2 = cr_cov(Xt, et, g, kind="CR2")
    cov, df = _dense_cr2(Xt, et, g)
    np.testing.assert_allclose(c2.cov, cov, rtol=1e-8, atol=1e-14)
    np.testing.assert_allclose(c2.df, df, rtol=1e-8)


def test_cr2_is_welch_on_person_means_in_a_balanced_group_design():
    rng = np.random.default_rng(2)
    persons = np.repeat(np.arange(16), 12)          # 8 persons per group, 12 sentences each
    grp = (persons < 8).astype(float)
    y = 0.4 + rng.normal(0, 0.1, 16)[persons] + rng.normal(0, 0.05, len(persons))
    X = np.column_stack([np.ones(len(y)), grp])
    _, cc = ols_cluster(y, X, persons, kind="CR2")
    pm = np.array([y[persons == p].mean() for p in range(16)])
    a, b = pm[:8], pm[8:]
    assert cc.bse[1] == pytest.approx(np.sqrt(a.var(ddof=1) / 8 + b.var(ddof=1) / 8), rel=1e-10)
    # the same comparison through the person-level Welch test equals scipy's Welch t-test
    pt = person_t(PersonContrast([Stratum(np.r_[b, a], np.r_[np.ones(8, bool), np.zeros(8, bool)])]))
    ref = stats.ttest_ind(b, a, equal_var=False)
    assert pt.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert pt.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    assert pt.df == pytest.approx(ref.df, rel=1e-10)
    # issue 26: one df rule — the regression's CR2 t uses the Welch–Satterthwaite df too (it used
    # Bell–McCaffrey's 8 + 8 − 2 = 14), so the regression and the paired test give one p-value
    assert cc.df_kind == "welch-satterthwaite"
    assert cc.df[1] == pytest.approx(ref.df, rel=1e-10)
    p_reg = 2 * stats.t.sf(abs(-1 * (b.mean() - a.mean()) / cc.bse[1]), cc.df[1])
    assert p_reg == pytest.approx(ref.pvalue, rel=1e-9)


def test_regression_and_paired_test_agree_when_one_group_barely_varies():
    """The Spanish joy case of issue 26: the men all score alike, the women differ. Welch–Satterthwaite
    rests the variance on the women alone (df ≈ 9 for 10 women); Bell–McCaffrey said 18 and gave
    p = 1e-13 where Welch gives 1e-8. The Beta and OLS regressions and the K&M test now agree."""
    df = synthetic_eec(words_per_emotion=2, names_per_cell=10)
    women = df["Gender"] == "female"
    rng = np.random.default_rng(5)
    quirk = {p: rng.normal(0, 0.01) for p in df.loc[women, "person_id"].unique()}
    df["s"] = (0.4 + 0.05 * (df["emotion_word_id"].factorize()[0] % 3) + 0.03 * women
               + df["person_id"].map(quirk).fillna(0.0))
    f = beta_regression(df, "s", noun_phrases="exclude").to_frame().set_index("term")
    g = f.loc["gender"]
    names = df[(df["person_kind"] == "name") & (df["Race"] == "European")]
    pm = names.groupby("person_id").agg(s=("s", "mean"), g=("Gender", "first"))
    w, m = pm.loc[pm["g"] == "female", "s"], pm.loc[pm["g"] == "male", "s"]
    ref = stats.ttest_ind(w, m, equal_var=False)
    assert ref.df == pytest.approx(9.0, rel=1e-6)
    assert g["ols_df"] == pytest.approx(ref.df, rel=1e-6)
    assert g["ols_statistic"] == pytest.approx(ref.statistic, rel=1e-6)
    assert g["ols_p_value"] == pytest.approx(ref.pvalue, rel=1e-5)
    assert g["df"] == pytest.approx(ref.df, rel=0.05)  # the Beta working model's cells: the same rule


def _welch_t(v, is_a):
    a, b = v[is_a], v[~is_a]
    return (a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))


def test_exact_permutation_equals_brute_force():
    v = np.array([0.31, 0.45, 0.28, 0.52, 0.40, 0.36, 0.61, 0.29])
    is_a = np.array([1, 1, 0, 1, 0, 0, 1, 0], bool)
    res = permutation_test(PersonContrast([Stratum(v, is_a)]), n_permutations=1000)
    t0 = _welch_t(v, is_a)
    ts = []
    for comb in itertools.combinations(range(8), 4):
        lab = np.zeros(8, bool)
        lab[list(comb)] = True
        ts.append(_welch_t(v, lab))
    expected = np.mean(np.abs(ts) >= abs(t0) - 1e-12)
    assert res.method == "exact" and res.n_permutations == 70 and res.mc_se == 0
    assert res.p_value == pytest.approx(expected, abs=1e-12)
    # sign flips of person-pair differences: 2^6 relabellings, one-sample t
    d = np.array([0.05, 0.02, -0.01, 0.04, 0.03, 0.06])
    res = permutation_test(PersonContrast([], d, 1.0, 0.0), n_permutations=1000)
    t0 = d.mean() / (d.std(ddof=1) / np.sqrt(6))
    flips = [np.array(s) * d for s in itertools.product((1, -1), repeat=6)]
    tt = [x.mean() / (x.std(ddof=1) / np.sqrt(6)) for x in flips]
    assert res.method == "exact" and res.p_value == pytest.approx(np.mean(np.abs(tt) >= abs(t0) - 1e-12))
    assert person_t(PersonContrast([], d, 1.0, 0.0)).p_value == pytest.approx(stats.ttest_1samp(d, 0).pvalue)


def test_monte_carlo_permutation_close_to_exact_and_seeded():
    rng = np.random.default_rng(4)
    v = rng.normal(size=12) + np.r_[np.full(6, 0.6), np.zeros(6)]
    c = PersonContrast([Stratum(v, np.r_[np.ones(6, bool), np.zeros(6, bool)])])
    exact = permutation_test(c, n_permutations=924)    # C(12, 6) = 924: enumerated
    mc = permutation_test(c, n_permutations=900, seed=1)
    assert exact.method == "exact" and mc.method == "monte carlo" and mc.n_permutations == 900
    assert abs(mc.p_value - exact.p_value) < 4 * mc.mc_se + 1 / 900
    assert permutation_test(c, n_permutations=900, seed=1) == mc


def test_interaction_permutation():
    rng = np.random.default_rng(0)
    a = np.repeat([True, True, False, False], 6)
    f = np.tile(np.repeat([True, False], 6), 2)
    noise = rng.normal(0, 0.1, 24)
    # main effects only, the interaction contrast of the cell means exactly 0
    base = 0.3 * a + 0.5 * f
    cells = [(a & f), (a & ~f), (~a & f), (~a & ~f)]
    centred = noise.copy()
    for c in cells:
        centred[c] -= centred[c].mean()
    r = interaction_permutation(base + centred, a, f, n_permutations=500, seed=0)
    assert r.p_value == 1.0 and r.method.startswith("freedman-lane")
    r = interaction_permutation(base + noise + 0.4 * (a & f), a, f, n_permutations=500, seed=0)
    assert r.p_value < 0.01


def test_km_person_contrast_by_hand():
    # 2 instances, 3 names per race × gender cell, each person a fixed offset
    rows = []
    offs = {"AA": {"female": [0.1, 0.3, 0.2], "male": [0.0, 0.25, 0.1]},
            "EA": {"female": [0.05, 0.15, 0.1], "male": [0.2, 0.0, 0.1]}}
    for inst, base in (("T1", 0.3), ("T2", 0.5)):
        for race, by_g in offs.items():
            for gender, vals in by_g.items():
                for i, v in enumerate(vals):
                    rows.append({"template_id": inst, "emotion_word_id": "", "Emotion": "", "person_kind": "name",
                                 "Gender": gender, "Race": {"AA": "African-American", "EA": "European"}[race],
                                 "person_id": f"{race}{gender}{i}", "s": base + v})
    df = pd.DataFrame(rows)
    t = km_paired_analysis(df, "s", axis="race", n_resamples=0).tests[0]
    pm = {(r, g): np.array(v) for r, by_g in offs.items() for g, v in by_g.items()}
    est = np.mean(np.r_[pm["AA", "female"], pm["AA", "male"]]) - np.mean(np.r_[pm["EA", "female"], pm["EA", "male"]])
    var = sum(0.5 ** 2 * pm[r, g].var(ddof=1) / 3 for r in ("AA", "EA") for g in ("female", "male"))
    assert t.mean_delta == pytest.approx(est, abs=1e-12)
    assert t.statistic == pytest.approx(est / np.sqrt(var), rel=1e-10)
    assert t.inference_columns["n_persons"] == 12 and t.settings["race_pooling"] == "paper" and t.n == 2


def test_squeezed_rows_say_so_in_the_csv():
    df = synthetic_eec(words_per_emotion=1, names_per_cell=3)
    df["s"] = planted_scores(df, seed=1)
    df.loc[df.index[:5], "s"] = 0.0
    f = beta_regression(df, "s").to_frame()
    assert f["squeezed"].all() and f["note"].str.contains("squeezed").all()


def test_inference_choice_and_columns():
    df = synthetic_eec(words_per_emotion=1, names_per_cell=4)
    df["s"] = planted_scores(df, seed=2, person_sd=0.2, scale="logit")
    person = beta_regression(df, "s").to_frame().set_index("term")
    paper = beta_regression(df, "s", inference="paper").to_frame().set_index("term")
    assert (person["inference"] == "person").all() and (paper["inference"] == "paper").all()
    for col in ("person_p_value", "paper_p_value", "perm_p_value", "ols_person_p_value", "ols_paper_p_value"):
        np.testing.assert_allclose(person[col].to_numpy(float), paper[col].to_numpy(float), equal_nan=True)
    np.testing.assert_allclose(person["p_value"], person["person_p_value"])
    np.testing.assert_allclose(paper["p_value"], paper["paper_p_value"])
    # 4 persons per cell: C(8, 4) = 70 relabellings, enumerated
    assert person.loc["race", "perm_method"] == "exact" and person.loc["race", "perm_n"] == 70
    with pytest.raises(ValueError, match="inference"):
        beta_regression(df, "s", inference="sentence")
    with pytest.raises(ValueError, match="person_id"):
        beta_regression(df.drop(columns=["person_id"]), "s")
    assert len(beta_regression(df.drop(columns=["person_id"]), "s", inference="paper").to_frame()) == 4


def test_counterfactual_person_pairs_and_range_source():
    df = synthetic_eec(words_per_emotion=1)
    df["s"] = planted_scores(df, seed=3, person_sd=0.3, scale="logit")
    from engine.stats import synthetic_pairs

    pairs = synthetic_pairs(df, "s")
    r = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", score_range=(0, 1),
                                score_range_source="scorer").to_frame().iloc[0]
    units = pairs.assign(d=pairs["score_privileged"] - pairs["score_minoritised"]).groupby(
        ["privileged_person", "minoritised_person"])["d"].mean()
    ref = stats.ttest_1samp(units, 0)
    assert r["n_person_pairs"] == 10 and r["t_p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
    assert r["wilcoxon_p_value"] == pytest.approx(stats.wilcoxon(units).pvalue, rel=1e-9)
    assert '"score_range_source": "scorer"' in r["settings"]


def test_lexicon_like_scores_equal_up_to_rounding_are_not_significant():
    # a lexicon that ignores names: the score depends on the emotion word only, with values that are
    # not exactly representable, so group means differ from each other in the last bits only
    df = synthetic_eec(words_per_emotion=2, names_per_cell=5)
    words = sorted(df["emotion_word_id"].unique())
    df["s"] = df["emotion_word_id"].map({w: 0.1 + (i + 1) / 7 / len(words) for i, w in enumerate(words)})
    f = beta_regression(df, "s").to_frame().set_index("term")
    for term in ("race", "gender", "intersection"):
        assert f.loc[term, "p_value"] == 1.0 and f.loc[term, "estimate"] == 0.0 and f.loc[term, "ame"] == 0.0
        assert "rounding" in f.loc[term, "note"]


def _svm_like(df, person_jitter: float, seed: int = 1):
    """Scores that depend on the template, the emotion word and the gender group only — what an
    SVM-tfidf system gives names it never saw (all ten women of a group score alike) — plus a
    per-person shift of at most ``person_jitter``."""
    rng = np.random.default_rng(seed)
    words, tmpl = sorted(df["emotion_word_id"].unique()), sorted(df["template_id"].unique())
    wv = {w: rng.uniform(0.2, 0.8) for w in words}
    tv = {t: rng.normal(0, 0.05) for t in tmpl}
    persons = sorted(df["person_id"].unique())
    pv = {p: rng.uniform(-1, 1) * person_jitter for p in persons}
    g = df["Gender"].map({"female": 0.03, "male": 0.0}).fillna(0)
    return (df["emotion_word_id"].map(wv) + df["template_id"].map(tv) + g + df["person_id"].map(pv)).clip(0.01, 0.99)


def test_no_person_variation_means_no_person_level_test_for_beta_and_ols():
    """Issue 26: the Spanish/Arabic SVM audits printed p = 1.4e-62 *** for Beta gender while every
    person of a group had the same mean score (the precision's per-person scores leaked into the
    sandwich). No person varies, so no term has a person-level test — neither Beta nor OLS."""
    df = synthetic_eec(words_per_emotion=2, names_per_cell=10)
    df["s"] = _svm_like(df, 0.0)
    f = beta_regression(df, "s").to_frame().set_index("term")
    g = f.loc["gender"]
    assert np.isnan(g["p_value"]) and np.isnan(g["statistic"]) and g["stars"] == ""
    assert np.isnan(g["ols_p_value"]) and np.isnan(g["person_p_value"])
    assert "no person-level test" in g["note"]
    assert g["perm_p_value"] <= 0.001  # the permutation test exists: every woman above every man
    assert g["estimate"] > 0 and g["paper_p_value"] < 0.05  # the papers' sentence-level test stays, labelled
    # near-degenerate, either side of the tolerance (1e-6 of the score range)
    below = df.assign(s=_svm_like(df, 0.3e-6))
    assert np.isnan(beta_regression(below, "s").to_frame().set_index("term").loc["gender", "p_value"])
    above = df.assign(s=_svm_like(df, 0.02))
    r = beta_regression(above, "s").to_frame().set_index("term").loc["gender"]
    assert np.isfinite(r["p_value"]) and r["p_value"] > 1e-15 and np.isfinite(r["ols_p_value"])


def test_the_no_test_rule_is_per_term():
    """A term has no person-level test when the persons of the cells it compares do not vary, even
    if persons of other cells do (the Spanish SVM audit: Latino names vary, Anglo names do not, so
    race and the intersection are tested and the gender term — Anglo women vs Anglo men — is not)."""
    from engine.stats.hypothesis_tests.person_tests import terms_without_person_variation

    # cells: (intercept, race, gender, race x gender) for Anglo male, Anglo female, Latino male, Latino female
    px = np.array([[1, 0, 0, 0]] * 3 + [[1, 0, 1, 0]] * 3 + [[1, 1, 0, 0]] * 3 + [[1, 1, 1, 1]] * 3, dtype=float)
    pm = np.array([0.5] * 3 + [0.6] * 3 + [0.4, 0.45, 0.5] + [0.55] * 3)
    assert terms_without_person_variation(pm, px, 1e-6) == [True, False, True, False]
    assert terms_without_person_variation(np.r_[pm[:9], [0.55, 0.55, 0.56]], px, 1e-6) == [True, False, True, False]
    pm2 = pm.copy()
    pm2[0] += 2e-6  # an Anglo man differs by more than the tolerance: every term has a test
    assert terms_without_person_variation(pm2, px, 1e-6) == [False, False, False, False]
    pm2[0] = 0.5 + 0.5e-6  # ... by less: as if none did
    assert terms_without_person_variation(pm2, px, 1e-6) == [True, False, True, False]


def test_one_no_test_rule_for_every_statistic():
    """Issue 26, one rule: the SVM-like scores (no person varies) give no person-level test in the
    Beta regression, the K&M paired test and the counterfactual pairs alike — status, note, no
    p-value, no stars, and the verdict "no person-level test" in the key results. Either side of the
    tolerance (1e-6 of the score scale) the rule flips the same way for all three."""
    from engine.stats import counterfactual_analysis, km_paired_analysis
    from engine.stats.entries import beta as beta_entry, counterfactual as cf_entry, paired as paired_entry
    from engine.stats.simulate.synthetic import synthetic_np_pairs, synthetic_pairs

    df = synthetic_eec(words_per_emotion=2, names_per_cell=10)

    def run(jitter):
        d = df.assign(s=_svm_like(df, jitter))
        b = beta_regression(d, "s").to_frame()
        k = km_paired_analysis(d, "s", axis="gender", np_pairs=synthetic_np_pairs(), subsets=("all",),
                               n_resamples=0).to_frame()
        c = counterfactual_analysis(synthetic_pairs(d, "s", variable="gender"), "score_privileged",
                                    "score_minoritised", score_range=(0, 1), n_resamples=0).to_frame()
        return b, k, c

    b, k, c = run(0.0)
    g = b.set_index("term").loc["gender"]
    assert g["status"] == "no_person_variation" and np.isnan(g["p_value"]) and g["stars"] == ""
    assert b.set_index("term").loc["race", "status"] == "ok"  # the rule is per term
    kr = k.iloc[0]
    assert kr["status"] == "no_person_variation" and np.isnan(kr["p_value"]) and not kr["significant"]
    assert kr["verdict"] == "no person-level test" and kr["perm_p_value"] < 0.01
    cr = c.iloc[0]
    assert cr["status"] == "no_person_variation" and np.isnan(cr["t_p_value"])
    verdicts = {r.statistic: r.verdict for r in beta_entry.key_rows(b) if r.effect.startswith("Gender")}
    assert verdicts == {"beta": "no person-level test"}
    assert [r.verdict for r in paired_entry.key_rows(k)] == ["no person-level test"]
    assert [r.verdict for r in cf_entry.key_rows(c)] == ["no person-level test"]
    for frame, col in ((b, "p_value"), (k, "p_value"), (c, "t_p_value")):
        p = pd.to_numeric(frame[col], errors="coerce")
        assert not (p < 1e-15).any()
    b, k, c = run(0.3e-6)  # below the tolerance: as if nobody varied
    assert b.set_index("term").loc["gender", "status"] == k.iloc[0]["status"] == c.iloc[0]["status"] \
        == "no_person_variation"
    b, k, c = run(0.02)  # above: every statistic tests, with a finite p-value
    assert np.isfinite(b.set_index("term").loc["gender", "p_value"])
    assert np.isfinite(k.iloc[0]["p_value"]) and np.isfinite(c.iloc[0]["t_p_value"])
    assert k.iloc[0]["status"] == c.iloc[0]["status"] == "ok"
