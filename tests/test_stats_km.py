"""Kiritchenko & Mohammad paired analysis: pairs, hand-computed statistics, scipy equality,
verdicts, planted bias and degenerate inputs."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine.stats import km_paired_analysis, km_pairs, planted_scores, synthetic_eec, synthetic_np_pairs

NP = synthetic_np_pairs()

# A corpus small enough to compute by hand: 2 instances (T01 + anger word, neutral T02),
# 2 names per race × gender cell, 2 noun-phrase pairs.
OFFSETS = {  # person_id: (kind, gender, race, offset)
    "she": ("noun_phrase", "female", "", 0.10), "he": ("noun_phrase", "male", "", 0.00),
    "mother": ("noun_phrase", "female", "", 0.05), "father": ("noun_phrase", "male", "", 0.07),
    "aaf1": ("name", "female", "African-American", 0.2), "aaf2": ("name", "female", "African-American", 0.4),
    "eaf1": ("name", "female", "European", 0.1), "eaf2": ("name", "female", "European", 0.3),
    "aam1": ("name", "male", "African-American", 0.5), "aam2": ("name", "male", "African-American", 0.1),
    "eam1": ("name", "male", "European", 0.2), "eam2": ("name", "male", "European", 0.2)}
INSTANCES = [("T01", "w1", "anger", 0.3, 1.0), ("T02", "", "", 0.1, 2.0)]


def tiny() -> pd.DataFrame:
    rows = []
    for tid, wid, emo, base, factor in INSTANCES:
        for pid, (kind, g, race, off) in OFFSETS.items():
            rows.append({"ID": f"t-{len(rows)}", "template_id": tid, "emotion_word_id": wid, "Emotion": emo,
                         "person_id": pid, "person_kind": kind, "Gender": g, "Race": race, "corpus": "tiny",
                         "s": base + off * factor})
    return pd.DataFrame(rows)


TINY_PAIRS = {"she": "he", "mother": "father"}


@pytest.fixture(scope="module")
def eec() -> pd.DataFrame:
    return synthetic_eec()


def test_hand_computed_gender_case():
    res = km_paired_analysis(tiny(), "s", np_pairs=TINY_PAIRS, n_resamples=0, inference="paper")
    f = res.to_frame().set_index("subset")
    d = np.array([0.10, -0.02, 0.0, 0.20, -0.04, 0.0])  # she-he, mother-father, names; twice
    pairs = res.pairs.sort_values(["template_id", "kind", "pair_id"])
    np.testing.assert_allclose(np.sort(pairs["delta"]), np.sort(d), atol=1e-12)
    a = f.loc["all"]
    assert a["n"] == 6 and a["n_noun_phrase_pairs"] == 4 and a["n_name_pairs"] == 2
    assert a["mean_delta"] == pytest.approx(0.04)
    assert a["avg_delta_pos"] == pytest.approx(0.15) and a["avg_delta_neg"] == pytest.approx(-0.03)
    assert (a["n_pos"], a["n_neg"], a["n_zero"]) == (2, 2, 2)
    assert a["delta_spread"] == pytest.approx(0.24)
    t = d.mean() / (d.std(ddof=1) / np.sqrt(6))
    assert a["statistic"] == pytest.approx(t, rel=1e-9)
    assert a["p_value"] == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-9)
    assert a["verdict"] == "F=M not significant" and a["direction"] == 0
    neu = f.loc["neutral"]
    assert neu["n"] == 3 and neu["mean_delta"] == pytest.approx((0.2 - 0.04) / 3)
    # name averages: 2 female names of each race vs 2 male names of each race
    names = res.pairs[res.pairs["kind"] == "name_average"]
    assert (names["n_a"] == 4).all() and (names["n_b"] == 4).all()


def test_hand_computed_race_case():
    df = tiny()
    f = km_paired_analysis(df, "s", axis="race", n_resamples=0, race_pooling="within_gender",
                           inference="paper").to_frame().set_index("subset")
    # per gender: AA mean − EA mean = 0.1 (T01) and 0.2 (T02) for both genders
    assert f.loc["all", "n"] == 4 and f.loc["all", "mean_delta"] == pytest.approx(0.15)
    assert f.loc["all", "delta_spread"] == pytest.approx(0.1)
    assert f.loc["all", "verdict"] == "AA↑–EA↓ significant"
    assert f.loc["all", "a"] == "African-American" and f.loc["all", "b"] == "European"
    pooled = km_paired_analysis(df, "s", axis="race", race_by_gender=False, n_resamples=0,
                                inference="paper").to_frame()
    assert pooled.set_index("subset").loc["all", "n"] == 2
    # the one neutral pooled pair cannot be tested
    neu = pooled.set_index("subset").loc["neutral"]
    assert neu["n"] == 1 and neu["status"] == "too_few" and neu["verdict"] == "not tested"
    assert "at least 2" in neu["note"]


def test_pair_counts_match_the_paper(eec):
    df = eec.assign(s=planted_scores(eec, seed=1))
    g = km_paired_analysis(df, "s", np_pairs=NP, n_resamples=0).to_frame().set_index("subset")
    assert g.loc["all", "n"] == 1584 and g.loc["neutral", "n"] == 44  # 11 × (20 × 7 + 4); 11 × 4
    assert g.loc["all", "n_noun_phrase_pairs"] == 1440 and g.loc["all", "n_name_pairs"] == 144
    r = km_paired_analysis(df, "s", axis="race", n_resamples=0, race_pooling="within_gender").to_frame()
    r = r.set_index("subset")
    assert r.loc["all", "n"] == 288 and r.loc["neutral", "n"] == 8
    rp = km_paired_analysis(df, "s", axis="race", n_resamples=0).to_frame()  # the paper's pooling is the default
    assert rp.set_index("subset").loc["all", "n"] == 144  # 1 × (20 × 7 + 4)
    m = km_paired_analysis(df, "s", np_pairs=NP, emotion="anger", subsets=("emotional", "matching"),
                           n_resamples=0).to_frame().set_index("subset")
    assert m.loc["emotional", "n"] == 1540 and m.loc["matching", "n"] == 7 * 5 * 11


def test_equals_scipy_ttest_rel(eec):
    df = eec.assign(s=planted_scores(eec, seed=4, delta_gender=0.01))
    res = km_paired_analysis(df, "s", axis="both", np_pairs=NP, n_resamples=0, inference="paper")
    for t in res.tests:
        p = res.pairs[(res.pairs["axis"] == t.axis) & ((t.subset == "all") | res.pairs["neutral"])]
        direct = stats.ttest_rel(p["score_a"], p["score_b"])
        assert t.n == len(p)
        assert t.statistic == pytest.approx(direct.statistic, rel=1e-12, abs=1e-12)
        assert t.p_value == pytest.approx(direct.pvalue, rel=1e-9, abs=1e-15)
        assert t.mean_delta == pytest.approx(np.mean(p["score_a"] - p["score_b"]), abs=1e-15)


def test_pair_key_column_equals_mapping():
    df = synthetic_eec(pair_key=True, words_per_emotion=2)
    df["s"] = planted_scores(df, seed=3)
    by_col = km_paired_analysis(df, "s", n_resamples=0).to_frame()
    by_map = km_paired_analysis(df.drop(columns=["pair_key"]), "s", np_pairs=NP, n_resamples=0).to_frame()
    cols = ["n", "mean_delta", "statistic", "p_value", "verdict"]
    pd.testing.assert_frame_equal(by_col[cols], by_map[cols])
    # mapping given male -> female works the same
    rev = {m: f for f, m in NP.items()}
    by_rev = km_paired_analysis(df, "s", np_pairs=rev, n_resamples=0).to_frame()
    pd.testing.assert_frame_equal(by_rev[cols], by_map[cols])


def test_pairing_required_and_checked(eec):
    df = eec.assign(s=0.3)
    with pytest.raises(ValueError, match="np_pairs"):
        km_paired_analysis(df, "s")
    with pytest.raises(ValueError, match="not a female/male pair"):
        km_paired_analysis(df, "s", np_pairs={"np_she": "np_my_mother"})
    # a pairing that covers only some noun phrases: the rest are left out, with a note
    res = km_paired_analysis(df, "s", np_pairs={"np_she": "np_he"}, n_resamples=0)
    assert res.tests[0].n_noun_phrase_pairs == 144
    assert any("without a counterpart" in n for n in res.tests[0].notes)


@pytest.mark.parametrize("kw,axis,verdict,direction", [
    ({"delta_gender": 0.03}, "gender", "F↑–M↓ significant", 1),
    ({"delta_gender": -0.03}, "gender", "F↓–M↑ significant", -1),
    ({"delta_race": 0.03}, "race", "AA↑–EA↓ significant", 1),
    ({"delta_race": -0.03}, "race", "AA↓–EA↑ significant", -1)])
def test_planted_bias_verdicts(eec, kw, axis, verdict, direction):
    df = eec.assign(s=planted_scores(eec, seed=21, **kw))
    t = km_paired_analysis(df, "s", axis=axis, np_pairs=NP, subsets=("all",), seed=1).tests[0]
    delta = next(iter(kw.values()))
    assert t.verdict == verdict and t.direction == direction and t.significant
    assert t.p_value < 1e-4 and t.inference_columns["perm_p_value"] < 0.01  # person-level: few units
    assert t.inference_columns["paper_p_value"] < 1e-6
    # the mean Δ recovers δ (within 3.5 standard errors: a 95% interval misses 1 seed in 20)
    assert abs(t.mean_delta - delta) < 3.5 * t.sd_delta / np.sqrt(t.n)
    assert t.ci_low <= t.mean_delta <= t.ci_high  # bootstrap interval of the mean Δ


def test_labels_for_other_groups(eec):
    df = eec.assign(Race=eec["Race"].replace({"African-American": "Latino", "European": "Anglo"}))
    df["s"] = planted_scores(df, seed=2, delta_race=0.05, minority="Latino")
    t = km_paired_analysis(df, "s", axis="race", subsets=("all",), n_resamples=0).tests[0]
    assert t.verdict == "Latino↑–Anglo↓ significant"
    t = km_paired_analysis(df, "s", axis="race", subsets=("all",), labels=("L", "A"), n_resamples=0).tests[0]
    assert t.verdict == "L↑–A↓ significant"


def test_constant_and_lexicon_like_scores(eec):
    res = km_paired_analysis(eec.assign(s=0.5), "s", axis="both", np_pairs=NP)
    for t in res.tests:
        assert t.status == "all_zero" and t.p_value == 1.0 and t.statistic == 0.0
        assert "not significant" in t.verdict and t.n_zero == t.n and t.n_pos == 0
        assert np.isnan(t.avg_delta_pos) and t.delta_spread == 0.0
        assert t.ci_low == 0.0 and t.ci_high == 0.0
    # a lexicon system: score depends on the emotion word only (values not exactly representable)
    word_score = {w: (i + 1) / 7 for i, w in enumerate(sorted(eec["emotion_word_id"].unique()))}
    lex = eec.assign(s=eec["emotion_word_id"].map(word_score))
    for t in km_paired_analysis(lex, "s", axis="both", np_pairs=NP, n_resamples=0).tests:
        assert t.status == "all_zero" and not t.significant
    assert "every difference is exactly 0" in km_paired_analysis(lex, "s", np_pairs=NP).summary()


def test_constant_nonzero_difference(eec):
    """Every woman 0.1 above every man and no person varies: no test exists (issue 26). The
    person-robust row says "no person-level test" with no p-value and keeps the permutation
    p-value at its stated floor; the papers' paired t-test has no variation between its pairs
    either, so it too gives no p-value (it printed p = 0, "significant", before)."""
    df = eec.assign(s=0.4 + 0.1 * (eec["Gender"] == "female"))
    t = km_paired_analysis(df, "s", np_pairs=NP, subsets=("all",), n_resamples=0).tests[0]
    assert t.status == "no_person_variation" and np.isnan(t.p_value) and not t.significant
    assert t.verdict == "no person-level test"
    assert t.mean_delta == pytest.approx(0.1)
    assert np.isnan(t.inference_columns["paper_p_value"])
    assert 0 < t.inference_columns["perm_p_value"] <= 1 / 1000
    assert any("floor" in n for n in t.notes) and any("same amount" in n for n in t.notes)
    paper = km_paired_analysis(df, "s", np_pairs=NP, subsets=("all",), n_resamples=0, inference="paper").tests[0]
    assert paper.status == "constant_difference" and np.isnan(paper.p_value) and paper.verdict == "not tested"


def test_one_pair_and_no_pairs():
    df = tiny()
    df = df[(df["template_id"] == "T02") & (df["person_kind"] == "name")]
    res = km_paired_analysis(df, "s", axis="gender", n_resamples=0, inference="paper")
    allrow = res.to_frame().set_index("subset").loc["all"]
    assert allrow["n"] == 1 and allrow["verdict"] == "not tested" and allrow["status"] == "too_few"
    # one pair of averages, but 8 persons: the person-level test can be run
    person = km_paired_analysis(df, "s", axis="gender", n_resamples=0).to_frame().set_index("subset").loc["all"]
    assert person["status"] == "ok" and person["n_persons"] == 8 and person["verdict"] != "not tested"
    only_emotional = tiny()[lambda x: x["template_id"] == "T01"]
    r = km_paired_analysis(only_emotional, "s", np_pairs=TINY_PAIRS, n_resamples=0).to_frame()
    neu = r.set_index("subset").loc["neutral"]
    assert neu["n"] == 0 and neu["status"] == "no_pairs" and neu["verdict"] == "not tested"


def test_nan_refused_or_dropped(eec):
    df = eec.assign(s=planted_scores(eec, seed=0))
    df.loc[df.index[df["person_id"] == "np_she"][:2], "s"] = np.nan
    with pytest.raises(ValueError, match="2 missing"):
        km_paired_analysis(df, "s", np_pairs=NP)
    t = km_paired_analysis(df, "s", np_pairs=NP, dropna=True, n_resamples=0).tests[0]
    assert t.n_noun_phrase_pairs == 1440 - 2
    assert any("2 row(s) with missing 's' left out" in n for n in t.notes)
    assert any("counterpart is missing" in n for n in t.notes)


def test_correction_drives_verdicts(eec):
    df = eec.copy()
    cols = {}
    for i, dg in enumerate([0.0, 0.004, 0.006, 0.008, 0.02]):
        df[f"m{i}"] = planted_scores(df, seed=30 + i, delta_gender=dg)
        cols[f"m{i}"] = (f"model{i}", "joy")
    first = km_paired_analysis(df, cols, np_pairs=NP, n_resamples=0).to_frame()
    # choose α so that one test is significant before the correction and not after it: with
    # α = 2·p0 the raw p0 < α, while Bonferroni over m = 10 tests gives 10·p0 > α. This holds for
    # any data with one p-value in (0, .05) (the δ = 0.02 system has p ≈ 1e-7), not for a lucky seed.
    assert len(first) == 10
    p0 = first["p_value"][(first["p_value"] > 0) & (first["p_value"] < 0.05)].min()
    assert np.isfinite(p0)
    alpha = 2 * p0
    raw = km_paired_analysis(df, cols, np_pairs=NP, n_resamples=0, alpha=alpha).to_frame()
    adj = km_paired_analysis(df, cols, np_pairs=NP, n_resamples=0, alpha=alpha,
                             correction="bonferroni").to_frame()
    m = len(adj)
    np.testing.assert_allclose(adj["p_adjusted"], np.minimum(1, raw["p_value"] * m), rtol=1e-12)
    np.testing.assert_array_equal(adj["p_value"], raw["p_value"])
    assert (adj["significant"] == (adj["p_adjusted"] < alpha)).all()
    assert (raw["significant"] == (raw["p_value"] < alpha)).all()
    assert (adj["verdict"] != raw["verdict"]).any()  # the correction changed at least one verdict
    assert '"verdict": "p_adjusted (bonferroni) < alpha"' in adj["settings"].iloc[0]


def test_result_rows_and_pairs_table(eec):
    df = eec.assign(s=planted_scores(eec, seed=1))
    res = km_paired_analysis(df, {"s": ("BERT", "fear")}, axis="both", np_pairs=NP)
    f = res.to_frame()
    assert list(f.columns[:4]) == ["corpus", "model", "emotion", "test"]
    assert (f["model"] == "BERT").all() and (f["emotion"] == "fear").all() and (f["test"] == "km_paired_t").all()
    assert f["settings"].str.contains('"alpha": 0.05').all()
    assert {"corpus", "model", "emotion", "axis", "delta", "neutral"} <= set(res.pairs.columns)
    assert len(res.pairs) == 1584 + 144
    assert (f["ci_low"] <= f["mean_delta"]).all() and (f["mean_delta"] <= f["ci_high"]).all()
    with pytest.raises(ValueError, match="axis"):
        km_paired_analysis(df, "s", axis="age", np_pairs=NP)
    with pytest.raises(ValueError, match="subsets"):
        km_paired_analysis(df, "s", np_pairs=NP, subsets=("odd",))


def test_km_pairs_public_helper():
    pairs, notes, labels = km_pairs(tiny(), "s", "gender", np_pairs=TINY_PAIRS)
    assert labels == {"a": "female", "b": "male"} and notes == []
    assert set(pairs["kind"]) == {"noun_phrase", "name_average"} and len(pairs) == 6
    assert pairs["pair_id"].is_unique
