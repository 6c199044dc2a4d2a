"""Counterfactual pair analysis and confusion matrices (Goldfarb-Tarrant et al. 2023)."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.stats import (confusion_matrix, counterfactual_analysis, planted_scores, synthetic_eec,
                          synthetic_pairs)


def star_pairs() -> pd.DataFrame:
    # 1–5 star labels; privileged − minoritised = [0, 1, 2, 0, -1, 1, 0, 3]
    priv = [3, 4, 5, 2, 1, 3, 4, 5]
    mino = [3, 3, 3, 2, 2, 2, 4, 2]
    return pd.DataFrame({"pair_id": [f"p{i}" for i in range(8)], "variable": "race",
                         "r_priv": priv, "r_min": mino})


def test_hand_computed_discrete_case():
    res = counterfactual_analysis(star_pairs(), "r_priv", "r_min", model="svm", emotion="sentiment",
                                  score_range=(1, 5), n_resamples=0)
    r = res.to_frame().iloc[0]
    d = np.array([0, 1, 2, 0, -1, 1, 0, 3], dtype=float)
    assert r["n"] == 8 and r["variable"] == "race"
    assert r["mean_diff"] == pytest.approx(6 / 8)
    assert r["var_diff"] == pytest.approx(np.sum((d - 0.75) ** 2) / 7)
    assert r["share_changed"] == pytest.approx(5 / 8)
    assert r["share_priv_higher"] == pytest.approx(4 / 8) and r["share_min_higher"] == pytest.approx(1 / 8)
    assert r["band"] == pytest.approx(0.03 * 4)  # 3% of the 1–5 range
    assert bool(r["exceeds_band"]) is True
    t = 0.75 / (d.std(ddof=1) / np.sqrt(8))
    assert r["t_statistic"] == pytest.approx(t, rel=1e-12)
    assert r["t_p_value"] == pytest.approx(2 * stats.t.sf(t, 7), rel=1e-9)
    # Wilcoxon: zeros dropped, |d| = 1,2,1,1,3 -> ranks 2,4,2,2,5; negatives' rank sum 2
    assert r["wilcoxon_statistic"] == 2.0
    assert "zero difference(s) dropped" in r["note"]
    assert r["model"] == "svm" and r["emotion"] == "sentiment" and r["test"] == "counterfactual"


def test_equals_scipy_and_bootstrap_is_seeded():
    df = synthetic_eec(words_per_emotion=2)
    df["s"] = planted_scores(df, seed=7, delta_gender=-0.01)
    pairs = pd.concat([synthetic_pairs(df, "s"), synthetic_pairs(df, "s", variable="race")], ignore_index=True)
    res = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", score_range=(0, 1), seed=3,
                                  inference="paper")
    f = res.to_frame().set_index("variable")
    assert list(f.index) == ["gender", "race"]
    for var, g in pairs.groupby("variable"):
        a, b = g["score_privileged"].to_numpy(), g["score_minoritised"].to_numpy()
        t = stats.ttest_rel(a, b)
        w = stats.wilcoxon(a, b)
        assert f.loc[var, "t_statistic"] == pytest.approx(t.statistic, rel=1e-12)
        assert f.loc[var, "t_p_value"] == pytest.approx(t.pvalue, rel=1e-9)
        assert f.loc[var, "wilcoxon_statistic"] == pytest.approx(w.statistic, rel=1e-12)
        assert f.loc[var, "wilcoxon_p_value"] == pytest.approx(w.pvalue, rel=1e-9)
        assert f.loc[var, "mean_diff"] == pytest.approx(np.mean(a - b), abs=1e-15)
        assert f.loc[var, "var_diff"] == pytest.approx(np.var(a - b, ddof=1), rel=1e-12)
        boot = stats.bootstrap((a - b,), np.mean, n_resamples=1000, method="percentile",
                               rng=np.random.default_rng(3))
        assert f.loc[var, "ci_low"] == pytest.approx(boot.confidence_interval.low, abs=1e-12)
        assert f.loc[var, "ci_high"] == pytest.approx(boot.confidence_interval.high, abs=1e-12)
    again = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", score_range=(0, 1), seed=3,
                                    inference="paper")
    pd.testing.assert_frame_equal(res.to_frame(), again.to_frame())
    other = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", score_range=(0, 1), seed=4,
                                    inference="paper")
    assert not np.allclose(other.to_frame()["ci_low"], res.to_frame()["ci_low"])


def test_planted_bias_sign():
    df = synthetic_eec(words_per_emotion=2)
    df["s"] = planted_scores(df, seed=1, delta_gender=-0.05)  # women scored lower
    pairs = synthetic_pairs(df, "s")
    person = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", score_range=(0, 1)).to_frame()
    person = person.iloc[0]
    # person-robust default: 10 noun-phrase person pairs are the units; exact sign-flip test (2^10 relabellings)
    assert person["inference"] == "person" and person["n_person_pairs"] == 10
    assert person["t_p_value"] < 1e-4 and person["t_df"] == 9 and person["perm_method"] == "exact"
    assert person["perm_p_value"] == pytest.approx(2 / 1024)  # all ten pairs agree: only ± the observed signs
    r = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", score_range=(0, 1),
                                inference="paper").to_frame().iloc[0]
    # R(privileged) − R(minoritised) > 0: bias against the minoritised (female) side
    assert r["mean_diff"] > 0 and r["t_p_value"] < 1e-6 and r["wilcoxon_p_value"] < 1e-6
    # the mean recovers the planted 0.05: within 3.5 standard errors (fails for 1 seed in ~2,000)
    se = r["sd_diff"] / np.sqrt(r["n"])
    assert r["n"] == 600 and abs(r["mean_diff"] - 0.05) < 3.5 * se
    # the bootstrap interval is the normal-theory interval up to resampling noise (its endpoints'
    # Monte Carlo SD with 1,000 resamples is about 4% of the half-width; allowed: 20%)
    half = stats.t.ppf(0.975, r["n"] - 1) * se
    assert abs(r["ci_low"] - (r["mean_diff"] - half)) < 0.2 * half
    assert abs(r["ci_high"] - (r["mean_diff"] + half)) < 0.2 * half
    assert bool(r["exceeds_band"]) and r["band"] == pytest.approx(0.03)
    assert r["share_priv_higher"] > r["share_min_higher"]


def test_band_options_and_observed_range_note():
    p = star_pairs()
    r = counterfactual_analysis(p, "r_priv", "r_min", band=1.0, n_resamples=0)
    row = r.to_frame().iloc[0]
    assert row["band"] == 1.0 and not row["exceeds_band"]
    assert any("score range taken from the data" in n for n in r.notes)
    assert '"score_range_source": "observed"' in row["settings"]
    with pytest.raises(ValueError, match="outside the declared score range"):
        counterfactual_analysis(p, "r_priv", "r_min", score_range=(0, 1))
    assert counterfactual_analysis(p, "r_priv", "r_min", score_range=(1, 5), band_share=0.5,
                                   n_resamples=0).to_frame().iloc[0]["band"] == 2.0


def test_degenerate_pairs():
    same = pd.DataFrame({"pair_id": ["a", "b", "c"], "x": [0.2, 0.5, 0.9], "y": [0.2, 0.5, 0.9]})
    r = counterfactual_analysis(same, "x", "y", score_range=(0, 1)).to_frame().iloc[0]
    assert r["status"] == "all_zero" and r["t_p_value"] == 1.0 and r["wilcoxon_p_value"] == 1.0
    assert r["share_changed"] == 0.0 and r["mean_diff"] == 0.0 and r["ci_low"] == 0.0 == r["ci_high"]
    assert "exactly 0" in r["note"]
    one = same.iloc[:1].assign(y=0.1)
    r = counterfactual_analysis(one, "x", "y", score_range=(0, 1)).to_frame().iloc[0]
    assert r["status"] == "too_few" and r["n"] == 1 and np.isnan(r["t_p_value"])
    assert "at least 2" in r["note"] and "no bootstrap interval" in r["note"]
    shift = same.assign(y=same["x"] - 0.1)
    r = counterfactual_analysis(shift, "x", "y", score_range=(0, 1)).to_frame().iloc[0]
    # no variation between the pairs: no t-test (p = 0 before issue 26); the rank test is defined
    assert r["status"] == "constant_difference" and np.isnan(r["t_p_value"]) and np.isnan(r["t_statistic"])
    assert 0 < r["wilcoxon_p_value"] < 0.5
    bad = same.assign(y=[0.2, np.nan, 0.9])
    with pytest.raises(ValueError, match="missing"):
        counterfactual_analysis(bad, "x", "y")
    r = counterfactual_analysis(bad, "x", "y", dropna=True, score_range=(0, 1)).to_frame().iloc[0]
    assert r["n"] == 2
    empty = same.iloc[:0]
    r = counterfactual_analysis(empty, "x", "y", score_range=(0, 1)).to_frame()
    assert r.iloc[0]["status"] == "no_pairs" and r.iloc[0]["n"] == 0


def test_correction_over_all_pvalues():
    df = synthetic_eec(words_per_emotion=2)
    df["s"] = planted_scores(df, seed=2, delta_race=0.01)
    pairs = pd.concat([synthetic_pairs(df, "s"), synthetic_pairs(df, "s", variable="race")], ignore_index=True)
    f = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", correction="holm",
                                n_resamples=0, score_range=(0, 1)).to_frame()
    from statsmodels.stats.multitest import multipletests
    allp = np.concatenate([f["t_p_value"], f["wilcoxon_p_value"]])
    adj = multipletests(allp, method="holm")[1]
    np.testing.assert_allclose(f["t_p_adjusted"], adj[:2])
    np.testing.assert_allclose(f["wilcoxon_p_adjusted"], adj[2:])
    cols = list(f.columns)
    assert cols[cols.index("t_p_value") + 1] == "t_p_adjusted"


def test_confusion_matrix_discrete():
    cm = confusion_matrix(star_pairs(), "r_priv", "r_min")
    assert list(cm.matrix.index) == [1, 2, 3, 4, 5] and list(cm.matrix.columns) == [1, 2, 3, 4, 5]
    assert cm.matrix.loc[5, 3] == 1 and cm.matrix.loc[5, 2] == 1 and cm.matrix.loc[3, 3] == 1
    assert cm.matrix.to_numpy().sum() == 8
    # below the diagonal: privileged higher (bias against the minoritised side)
    assert cm.share_below == pytest.approx(4 / 8) and cm.share_above == pytest.approx(1 / 8)
    assert cm.share_diagonal == pytest.approx(3 / 8)
    long = cm.to_frame()
    assert long["count"].sum() == 8 and set(long["position"]) == {"diagonal", "below", "above"}
    assert long.loc[(long["privileged"] == 1) & (long["minoritised"] == 2), "position"].item() == "above"
    cm2 = confusion_matrix(star_pairs(), "r_priv", "r_min", labels=[1, 2, 3, 4, 5, 6])
    assert cm2.matrix.shape == (6, 6)
    with pytest.raises(ValueError, match="not among the labels"):
        confusion_matrix(star_pairs(), "r_priv", "r_min", labels=[1, 2, 3])
    assert "below diagonal" in cm.summary()


def test_confusion_matrix_rows_carry_labels_and_settings():
    p = star_pairs().assign(corpus="stars-corpus")
    p = p.rename(columns={"r_priv": "svm:priv", "r_min": "svm:min"})
    cm = confusion_matrix(p, "svm:priv", "svm:min", emotion="sentiment")
    f = cm.to_frame()
    assert list(f.columns[:5]) == ["corpus", "model", "emotion", "test", "n"]
    assert (f["corpus"] == "stars-corpus").all() and (f["model"] == "svm").all()
    assert (f["emotion"] == "sentiment").all() and (f["test"] == "confusion_matrix").all() and (f["n"] == 8).all()
    assert len(f) == 25 and f["share"].sum() == pytest.approx(1.0)
    assert f.loc[f["position"] == "below", "count"].sum() == 4  # = share_below × n
    settings = json.loads(f["settings"].iloc[0])
    assert settings["labels"] == [1, 2, 3, 4, 5] and settings["below_diagonal"] == "privileged higher"
    cm2 = confusion_matrix(p, "svm:priv", "svm:min", model="SVM", corpus="other", bins=2, score_range=(1, 5))
    f2 = cm2.to_frame()
    assert (f2["model"] == "SVM").all() and (f2["corpus"] == "other").all()
    assert json.loads(f2["settings"].iloc[0])["bins"] == [1.0, 3.0, 5.0]
    # NaN: refused, or left out with a note in the settings
    bad = p.astype({"svm:min": float})
    bad.loc[2, "svm:min"] = np.nan
    with pytest.raises(ValueError, match="1 missing or infinite value.*first: p2"):
        confusion_matrix(bad, "svm:priv", "svm:min")
    cm3 = confusion_matrix(bad, "svm:priv", "svm:min", dropna=True)
    assert cm3.n == 7 and "left out of this statistic" in cm3.settings["notes"][0]


def test_confusion_matrix_binned():
    p = pd.DataFrame({"a": [0.0, 0.25, 0.5, 0.75, 1.0, 0.9], "b": [0.1, 0.5, 0.5, 0.2, 1.0, 0.1]})
    cm = confusion_matrix(p, "a", "b", bins=[0, 0.5, 1])
    # bins [0, 0.5], (0.5, 1]: a -> 0,0,0,1,1,1 ; b -> 0,0,0,0,1,0
    assert cm.matrix.to_numpy().tolist() == [[3, 0], [2, 1]]
    assert cm.share_below == pytest.approx(2 / 6) and cm.share_above == 0.0
    cm4 = confusion_matrix(p, "a", "b", bins=4, score_range=(0, 1))
    assert cm4.matrix.shape == (4, 4) and cm4.matrix.to_numpy().sum() == 6
    cont = pd.DataFrame({"a": np.linspace(0, 1, 30), "b": np.linspace(0, 1, 30)[::-1]})
    with pytest.raises(ValueError, match="look continuous"):
        confusion_matrix(cont, "a", "b")
    with pytest.raises(ValueError, match="outside the bins"):
        confusion_matrix(p, "a", "b", bins=[0.2, 1])
    with pytest.raises(ValueError, match="increasing"):
        confusion_matrix(p, "a", "b", bins=[0, 1, 0.5])
