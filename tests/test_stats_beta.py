"""Beta regression (Câmara et al. 2022): equality with statsmodels, coding, AME, squeeze, planted
bias and degenerate inputs."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy.special import expit
from statsmodels.othermod.betareg import BetaModel

from engine.stats import beta_regression, planted_scores, synthetic_eec
from engine.stats.models.squeeze import smithson_verkuilen

MIN, MAJ = "African-American", "European"


@pytest.fixture(scope="module")
def eec() -> pd.DataFrame:
    return synthetic_eec()


def _names(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["person_kind"] == "name"]


def _design(names: pd.DataFrame) -> np.ndarray:
    x1 = (names["Race"] == MIN).to_numpy(float)
    x2 = (names["Gender"] == "female").to_numpy(float)
    return np.column_stack([np.ones(len(names)), x1, x2, x1 * x2])


def small_corpus(scores_by_cell: dict[tuple[str, str], list[float]]) -> pd.DataFrame:
    rows = []
    for (race, gender), vals in scores_by_cell.items():
        for i, v in enumerate(vals):
            rows.append({"ID": f"x{len(rows)}", "Gender": gender, "Race": race, "person_kind": "name",
                         "person_id": f"{race}-{gender}-{i}", "corpus": "tiny", "s": v})
    return pd.DataFrame(rows)


def test_equals_statsmodels_called_directly(eec):
    df = eec.copy()
    df["s"] = planted_scores(df, seed=11, delta_race=0.01, delta_gender=-0.02)
    res = beta_regression(df, "s", model="m", emotion="anger", inference="paper")
    fit = res.get()
    names = _names(df)
    y, X = names["s"].to_numpy(), _design(names)
    direct = BetaModel(y, X).fit(method="newton", maxiter=100, disp=False)
    t = fit.terms
    np.testing.assert_allclose(t["estimate"], direct.params[:4], rtol=0, atol=1e-9)
    np.testing.assert_allclose(t["std_err"], direct.bse[:4], rtol=0, atol=1e-9)
    np.testing.assert_allclose(t["statistic"], direct.tvalues[:4], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(t["p_value"], direct.pvalues[:4], rtol=1e-9, atol=1e-12)
    ci = direct.conf_int(alpha=0.05)[:4]
    np.testing.assert_allclose(t[["ci_low", "ci_high"]].to_numpy(float), ci, atol=1e-9)
    assert fit.precision == pytest.approx(np.exp(direct.params[4]), abs=1e-9)
    # statsmodels' default optimiser (BFGS) stops earlier; Newton reaches the same maximum more exactly
    bfgs = BetaModel(y, X).fit(disp=False)
    np.testing.assert_allclose(t["estimate"], bfgs.params[:4], atol=1e-4)
    # OLS with intercept and HC3 errors, as statsmodels gives it
    ols = sm.OLS(y, X).fit(cov_type="HC3")
    np.testing.assert_allclose(t["ols_estimate"], ols.params, atol=1e-12)
    np.testing.assert_allclose(t["ols_std_err"], ols.bse, atol=1e-12)
    np.testing.assert_allclose(t["ols_p_value"], ols.pvalues, atol=1e-12)
    np.testing.assert_allclose(t[["ols_ci_low", "ols_ci_high"]].to_numpy(float), ols.conf_int(0.05), atol=1e-12)
    # stars follow the paper's thresholds
    for p, s in zip(t["p_value"], t["stars"]):
        assert s == ("***" if p <= .01 else "**" if p <= .05 else "*" if p <= .1 else "")


def test_coding_reference_is_majority_men():
    # OLS on a saturated design gives cell-mean contrasts: checks which group is coded 1.
    cells = {(MAJ, "male"): [0.30, 0.34, 0.32], (MIN, "male"): [0.40, 0.42, 0.44],
             (MAJ, "female"): [0.20, 0.25, 0.24], (MIN, "female"): [0.60, 0.66, 0.63]}
    df = small_corpus(cells)
    t = beta_regression(df, "s").get().terms.set_index("term")
    m = {k: np.mean(v) for k, v in cells.items()}
    assert t.loc["intercept", "ols_estimate"] == pytest.approx(m[(MAJ, "male")], abs=1e-12)
    assert t.loc["race", "ols_estimate"] == pytest.approx(m[(MIN, "male")] - m[(MAJ, "male")], abs=1e-12)
    assert t.loc["gender", "ols_estimate"] == pytest.approx(m[(MAJ, "female")] - m[(MAJ, "male")], abs=1e-12)
    did = m[(MIN, "female")] - m[(MIN, "male")] - m[(MAJ, "female")] + m[(MAJ, "male")]
    assert t.loc["intersection", "ols_estimate"] == pytest.approx(did, abs=1e-12)


def test_ame_by_hand_and_delta_method(eec):
    df = eec.copy()
    df["s"] = planted_scores(df, seed=3, delta_race=0.03, delta_intersection=-0.04)
    fit = beta_regression(df, "s", inference="paper").get()
    t = fit.terms.set_index("term")
    b0, b1, b2, b3 = t["estimate"]
    # Each cell has the same number of sentences, so the averages are simple cell averages.
    ame_race = 0.5 * (expit(b0 + b1) - expit(b0)) + 0.5 * (expit(b0 + b1 + b2 + b3) - expit(b0 + b2 + b3))
    ame_gender = 0.5 * (expit(b0 + b2) - expit(b0)) + 0.5 * (expit(b0 + b1 + b2 + b3) - expit(b0 + b1 + b3))
    ame_int = expit(b0 + b1 + b2 + b3) - expit(b0 + b1 + b2)
    assert t.loc["race", "ame"] == pytest.approx(ame_race, abs=1e-12)
    assert t.loc["gender", "ame"] == pytest.approx(ame_gender, abs=1e-12)
    assert t.loc["intersection", "ame"] == pytest.approx(ame_int, abs=1e-12)
    # delta-method SE against a numerical gradient
    names = _names(df)
    X = _design(names)
    direct = BetaModel(names["s"].to_numpy(), X).fit(method="newton", disp=False)
    cov = direct.cov_params()[:4, :4]

    def f(b):
        x1 = X[X[:, 3] == 1]
        x0 = x1.copy()
        x0[:, 3] = 0
        return np.mean(expit(x1 @ b) - expit(x0 @ b))

    b = direct.params[:4]
    g = np.array([(f(b + h) - f(b - h)) / 2e-6 for h in np.eye(4) * 1e-6])
    assert t.loc["intersection", "ame_std_err"] == pytest.approx(np.sqrt(g @ cov @ g), rel=1e-5)
    assert t.loc["intersection", "ame_ci_low"] == pytest.approx(ame_int - 1.959963984540054 * t.loc[
        "intersection", "ame_std_err"], abs=1e-12)
    # the intercept has no marginal effect, and says so
    assert np.isnan(t.loc["intercept", "ame"]) and "no marginal effect" in t.loc["intercept", "note"]


@pytest.mark.parametrize("term,kw,delta", [("race", "delta_race", 0.04), ("gender", "delta_gender", -0.04),
                                           ("intersection", "delta_intersection", 0.05)])
def test_planted_bias_detected_with_right_term_and_sign(eec, term, kw, delta):
    df = eec.copy()
    df["s"] = planted_scores(df, seed=5, **{kw: delta})
    # Why 99.9% intervals: a correct 95% interval misses the truth for 1 seed in 20 by design
    # (over 300 seeds the 95% AME interval covered the planted δ 96% of the time, with the
    # delta-method SE equal to the spread of the AMEs), so a 95% check would only pass for lucky
    # seeds. The calibration test checks the 95% intervals' rate under no bias.
    t = beta_regression(df, "s", conf_level=0.999).get().terms.set_index("term")
    # the planted term is detected (expected |z| ≈ 7–10; p < 1e-6 needs |z| > 4.9) with the right sign
    assert t.loc[term, "p_value"] < 1e-6 and t.loc[term, "stars"] == "***"
    assert np.sign(t.loc[term, "estimate"]) == np.sign(delta) == np.sign(t.loc[term, "ame"])
    # the AME recovers δ on the score scale: inside its interval, which is narrower than δ itself
    assert t.loc[term, "ame_ci_low"] <= delta <= t.loc[term, "ame_ci_high"]
    assert t.loc[term, "ame_ci_high"] - t.loc[term, "ame_ci_low"] < abs(delta)
    assert t.loc[term, "ols_ci_low"] <= delta <= t.loc[term, "ols_ci_high"]
    # terms without planted bias are not detected at the same strict level: under no bias
    # p > 0.001 and 0 inside the 99.9% AME interval each hold with probability 0.999
    for other in {"race", "gender", "intersection"} - {term}:
        assert t.loc[other, "p_value"] > 0.001, other
        assert t.loc[other, "ame_ci_low"] <= 0 <= t.loc[other, "ame_ci_high"], other


def test_squeeze_when_scores_hit_bounds():
    rng = np.random.default_rng(0)
    cells = {k: list(np.round(rng.uniform(0, 1, 30), 1)) for k in
             [(MAJ, "male"), (MIN, "male"), (MAJ, "female"), (MIN, "female")]}
    cells[(MAJ, "male")][:3] = [0.0, 1.0, 0.0]
    df = small_corpus(cells)
    res = beta_regression(df, "s")
    fit = res.get()
    assert fit.squeezed and any("Smithson" in n for n in fit.notes)
    assert res.to_frame()["squeezed"].all()
    assert '"squeeze": "smithson-verkuilen"' in res.to_frame()["settings"].iloc[0]
    y = df["s"].to_numpy()
    n = len(y)
    ys = (y * (n - 1) + 0.5) / n
    np.testing.assert_allclose(smithson_verkuilen(y), ys)
    direct = BetaModel(ys, _design(df)).fit(method="newton", disp=False)
    np.testing.assert_allclose(fit.terms["estimate"], direct.params[:4], atol=1e-9)
    # AME is put back on the original scale: the squeeze's slope (n−1)/n is undone
    b = direct.params[:4]
    ame_int_squeezed = expit(b.sum()) - expit(b[:3].sum())
    assert fit.term("intersection")["ame"] == pytest.approx(ame_int_squeezed * n / (n - 1), abs=1e-12)
    # no squeeze when all scores are inside (0, 1)
    df2 = df.assign(s=df["s"].clip(0.05, 0.95))
    assert not beta_regression(df2, "s").get().squeezed


def test_score_range_rescales_and_refuses_outside(eec):
    df = eec.copy()
    u = planted_scores(df, seed=2, delta_gender=0.03)
    df["v"] = 2 * u - 1  # a valence in [-1, 1]
    df["u"] = u
    with pytest.raises(ValueError, match="outside the declared score range"):
        beta_regression(df, "v")
    fv = beta_regression(df, "v", score_range=(-1, 1)).get().terms.set_index("term")
    fu = beta_regression(df, "u").get().terms.set_index("term")
    np.testing.assert_allclose(fv["estimate"], fu["estimate"], atol=1e-8)
    assert fv.loc["gender", "ame"] == pytest.approx(2 * fu.loc["gender", "ame"], rel=1e-7)
    assert fv.loc["gender", "ols_estimate"] == pytest.approx(2 * fu.loc["gender", "ols_estimate"], rel=1e-9)


def test_nan_refused_or_dropped_with_note(eec):
    df = eec.copy()
    df["s"] = planted_scores(df, seed=1)
    idx = df.index[df["person_kind"] == "name"][:3]
    df.loc[idx, "s"] = np.nan
    with pytest.raises(ValueError, match=r"3 missing or infinite.*dropna=True"):
        beta_regression(df, "s")
    fit = beta_regression(df, "s", dropna=True).get()
    assert fit.n == 5760 - 3 and fit.status == "ok"
    assert any("left out of this statistic" in n for n in fit.notes)
    df.loc[idx, "s"] = np.inf
    with pytest.raises(ValueError, match="missing or infinite"):
        beta_regression(df, "s")


def test_constant_scores_give_a_clear_result(eec):
    df = eec.assign(s=0.5)
    res = beta_regression(df, "s", noun_phrases="gender_only")
    for fit in res.fits:
        assert fit.status == "constant"
        t = fit.terms.set_index("term")
        effects = t.drop(index="intercept")
        assert (effects["estimate"] == 0).all() and (effects["ame"] == 0).all()
        assert (effects["ols_estimate"] == 0).all()
        assert (effects["stars"] == "").all()
        assert "identical" in " ".join(fit.notes)
    assert "constant" in res.summary()
    # constant 0 (a bound) too
    assert beta_regression(eec.assign(s=0.0), "s").get().status == "constant"


def test_no_variation_within_groups_gives_exact_differences():
    cells = {(MAJ, "male"): [0.3] * 5, (MIN, "male"): [0.4] * 5, (MAJ, "female"): [0.3] * 5,
             (MIN, "female"): [0.5] * 5}
    fit = beta_regression(small_corpus(cells), "s").get()
    assert fit.status == "no_within_group_variation"
    t = fit.terms.set_index("term")
    assert t.loc["race", "ols_estimate"] == pytest.approx(0.1)
    assert t.loc["gender", "ols_estimate"] == pytest.approx(0.0, abs=1e-12)
    assert t.loc["intersection", "ols_estimate"] == pytest.approx(0.1)
    assert t.loc["race", "ame"] == pytest.approx(0.5 * 0.1 + 0.5 * (0.5 - expit(
        t.loc["intercept", "estimate"] + t.loc["gender", "estimate"] + t.loc["intersection", "estimate"])))
    assert t.loc["intersection", "ame"] == pytest.approx(0.5 - 0.4)
    assert np.isnan(t.loc["race", "p_value"]) and "not tested" in t.loc["race", "note"]


def test_one_sentence_group_and_missing_group():
    rng = np.random.default_rng(4)
    cells = {(MAJ, "male"): list(rng.uniform(.2, .8, 20)), (MIN, "male"): list(rng.uniform(.2, .8, 20)),
             (MAJ, "female"): list(rng.uniform(.2, .8, 20)), (MIN, "female"): [0.7]}
    fit = beta_regression(small_corpus(cells), "s").get()
    assert fit.status == "ok" and fit.cells[f"{MIN} female"] == 1
    assert fit.settings["ols_cov_type"] == "nonrobust"
    assert any("only one sentence" in n for n in fit.notes)
    assert np.isfinite(fit.terms["std_err"]).all() and np.isfinite(fit.terms["ols_std_err"]).all()
    del cells[(MIN, "female")]
    fit = beta_regression(small_corpus(cells), "s").get()
    assert fit.status == "insufficient_data"
    assert f"no sentences for {MIN} female" in fit.notes[-1]


def test_all_scores_zero_or_one(eec):
    rng = np.random.default_rng(9)
    df = eec.assign(s=rng.integers(0, 2, len(eec)).astype(float))
    fit = beta_regression(df, "s").get()
    assert fit.squeezed
    assert fit.status in ("ok", "not_converged")
    assert np.isfinite(fit.terms["ols_estimate"]).all()
    if fit.status == "ok":
        assert np.isfinite(fit.terms["estimate"]).all() and np.isfinite(fit.terms["p_value"]).all()


def test_groups_inferred_only_when_unambiguous(eec):
    df = eec.copy()
    df["s"] = planted_scores(df, seed=0)
    fit = beta_regression(df, "s").get()
    assert fit.settings["minority"] == MIN and fit.settings["majority"] == MAJ
    # a third group: cannot tell which is the minority
    df3 = df.copy()
    df3.loc[df3.index[(df3["Race"] == MIN)][:100], "Race"] = "Latino"
    with pytest.raises(ValueError, match="minority"):
        beta_regression(df3, "s")
    fit3 = beta_regression(df3, "s", minority="Latino").get()
    assert any("other groups left out" in n for n in fit3.notes)
    # unknown reference: two groups neither of which is a known reference
    dfx = df.assign(Race=df["Race"].replace({MAJ: "GroupB", MIN: "GroupA"}))
    with pytest.raises(ValueError, match="majority"):
        beta_regression(dfx, "s")
    with pytest.raises(ValueError, match="not found"):
        beta_regression(df, "s", minority="Arab")


def test_noun_phrases_and_corpora_and_correction(eec):
    a = eec.copy()
    b = eec.copy()
    b["corpus"] = "second"
    b["Race"] = b["Race"].replace({MIN: "Latino", MAJ: "Anglo"})
    df = pd.concat([a, b], ignore_index=True)
    df["s1"] = planted_scores(df, seed=8, delta_gender=0.03)
    df["s2"] = planted_scores(df, seed=9)
    res = beta_regression(df, {"s1": ("BERT", "anger"), "s2": ("SVM", "anger")}, noun_phrases="gender_only",
                          correction="holm")
    f = res.to_frame()
    assert len(res.fits) == 8  # 2 models × 2 corpora × (names + noun phrases)
    assert set(f["corpus"]) == {"synthetic-eec", "second"}
    assert res.get("BERT", corpus="second").settings["minority"] == "Latino"
    npf = res.get("BERT", corpus="second", subset="noun_phrases")
    assert list(npf.terms["term"]) == ["intercept", "gender"] and npf.n == 2880
    assert npf.term("gender")["ame_ci_low"] <= 0.03 <= npf.term("gender")["ame_ci_high"]
    # correction: intercepts are not in the family; column sits beside the raw p
    cols = list(f.columns)
    assert cols[cols.index("p_value") + 1] == "p_adjusted"
    assert f.loc[f["term"] == "intercept", "p_adjusted"].isna().all()
    fam = f[f["term"] != "intercept"]
    from statsmodels.stats.multitest import multipletests
    np.testing.assert_allclose(fam["p_adjusted"], multipletests(fam["p_value"], method="holm")[1], atol=1e-15)
    # every row carries the labels and settings
    for c in ["corpus", "model", "emotion", "test", "n", "settings"]:
        assert f[c].notna().all()
    assert (f["test"] == "beta_regression").all()
    assert beta_regression(a.assign(s=planted_scores(a, seed=1)), "s").to_frame()["subset"].eq("names").all()


def test_bad_arguments(eec):
    df = eec.assign(s=0.5)
    with pytest.raises(ValueError, match="missing column"):
        beta_regression(df.drop(columns=["Race"]), "s")
    with pytest.raises(ValueError, match="missing column"):
        beta_regression(df, "nope")
    with pytest.raises(ValueError, match="noun_phrases"):
        beta_regression(df, "s", noun_phrases="pooled")
    with pytest.raises(ValueError, match="not numeric"):
        beta_regression(df.assign(s="x"), "s")


def test_noun_phrases_left_out_and_said_or_fitted_with_gender_only(eec):
    df = eec.assign(s=planted_scores(eec, seed=12, delta_gender=0.03))
    fit = beta_regression(df, "s").get()
    assert fit.n == 5760  # names only: 4 cells × 10 names × 144 template × word instances
    assert any("2880 noun-phrase sentence(s) left out" in n and "gender_only" in n for n in fit.notes)
    assert "2880 noun-phrase sentence(s) left out" in beta_regression(df, "s").summary()
    assert '"noun_phrases": "exclude"' in beta_regression(df, "s").to_frame()["settings"].iloc[0]
    # "gender" (the audit CLI's spelling) is the same as "gender_only"
    a = beta_regression(df, "s", noun_phrases="gender").to_frame()
    b = beta_regression(df, "s", noun_phrases="gender_only").to_frame()
    pd.testing.assert_frame_equal(a, b)
    npf = a[a["subset"] == "noun_phrases"].set_index("term")
    nps = df[df["person_kind"] == "noun_phrase"]
    x2 = (nps["Gender"] == "female").to_numpy(float)
    direct = BetaModel(nps["s"].to_numpy(), np.column_stack([np.ones(len(nps)), x2])).fit(
        method="newton", maxiter=100, disp=False)
    np.testing.assert_allclose(npf["estimate"], direct.params[:2], atol=1e-9)
    np.testing.assert_allclose(npf["paper_p_value"], direct.pvalues[:2], rtol=1e-9, atol=1e-12)
    assert npf.loc["gender", "n"] == 2880 and npf.loc["gender", "p_value"] < 1e-6


def test_identical_persons_give_no_person_level_test_not_a_tiny_p(eec):
    """A lexicon that ignores names scores every person alike: the person-clustered standard error of
    the intercept is a rounding error, and estimate / rounding error once printed p ≈ 1e-136 with ***."""
    t_id = pd.factorize(eec["template_id"])[0]
    w_id = pd.factorize(eec["emotion_word_id"])[0]
    df = eec.assign(s=0.2 + 0.5 * (t_id % 7) / 7 + 0.02 * (w_id % 5))  # templates and words only
    fit = beta_regression(df, "s", noun_phrases="exclude").get()
    t = fit.terms.set_index("term")
    assert np.isnan(t.loc["intercept", "p_value"]) and np.isnan(t.loc["intercept", "statistic"])
    assert np.isnan(t.loc["intercept", "person_p_value"]) and t.loc["intercept", "stars"] == ""
    assert "no person-level test" in t.loc["intercept", "note"]
    assert 0 < t.loc["intercept", "paper_p_value"] < 0.05  # the sentence-level test is still reported
    effects = t.drop(index="intercept")
    assert (effects["estimate"] == 0).all() and (effects["p_value"] == 1).all()  # no bias, said as such
