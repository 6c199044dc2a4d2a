"""Issue 42: the memory savings of a large audit change no result.

The Beta regression reads a small frame of categoricals (engine.stats.models.fit_frame) and finds
statsmodels' start values with less memory (engine.stats.models.beta_start); permutation tests draw
and evaluate their permutations in blocks (person_tests._row_blocks); the audit places scores by
factorizing the sentences (pipeline._text_positions); the formula-safe CSV escapes only the cells
that need it. Each is compared here with the way it was computed before.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest


def _corpus_frame(n_persons: int = 24, seed: int = 3, dtype: object = "str") -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(n_persons):
        race = "African-American" if p % 2 else "European"
        gender = "female" if (p // 2) % 2 else "male"
        quirk = rng.normal(0, 0.05)
        for t in range(3):
            for w in range(4):
                rows.append({"person_id": f"p{p:02d}", "Race": race, "Gender": gender, "person_kind": "name",
                             "template_id": f"t{t}", "emotion_word_id": None if w == 0 else f"w{w}",
                             "ID": f"s{len(rows)}", "Sentence": f"=sentence {len(rows)}",
                             "score": float(np.clip(0.5 + 0.05 * (race != "European") + quirk
                                                    + rng.normal(0, 0.1), 0.01, 0.99))})
    df = pd.DataFrame(rows)
    return df.astype({c: dtype for c in df.columns if c != "score"})


@pytest.mark.parametrize("dtype", ["str", object])
def test_beta_on_the_small_frame_equals_the_whole_table(dtype):
    from engine.stats.models.beta import beta_regression

    df = _corpus_frame(dtype=dtype)
    lean = beta_regression(df, "score", inference="crossed", n_permutations=200).frame
    # the same fit with the label columns as the caller's categoricals, and with the table's other columns gone
    cats = df.astype({c: "category" for c in ("Race", "Gender", "person_kind", "person_id", "template_id")})
    other = beta_regression(cats, "score", inference="crossed", n_permutations=200).frame
    pd.testing.assert_frame_equal(lean, other)
    assert lean.loc[lean.term == "race", "estimate"].notna().all()


def test_fit_frame_labels_read_as_before():
    from engine.stats.models.fit_frame import fit_frame, label_eq, label_isin, shared_labels

    df = _corpus_frame(dtype=object)
    df.loc[3, "Race"] = None
    small = fit_frame(df, ["score"], "person_id")
    assert "Sentence" not in small.columns
    assert np.array_equal(label_eq(small["Race"], "European"), (df["Race"].astype(str) == "European").to_numpy())
    assert np.array_equal(label_isin(small["Gender"], ["female", "x"]),
                          df["Gender"].astype(str).isin(["female", "x"]).to_numpy())
    people = shared_labels(small["person_id"])
    assert people.dtype == object and list(people) == list(df["person_id"].astype(str))
    assert people[0] is people[1]  # one string object per person, not per row
    from engine.stats._common import crossed_factors

    old_w = df["emotion_word_id"].fillna("").astype(str).to_numpy().astype(object)
    assert list(crossed_factors(small)["word"]) == list(old_w)


def test_beta_start_values_are_statsmodels_own():
    import warnings

    from statsmodels.othermod.betareg import BetaModel

    from engine.stats.models.beta_start import start_params

    rng = np.random.default_rng(0)
    n = 5000
    x1, x2 = rng.integers(0, 2, n), rng.integers(0, 2, n)
    X = np.column_stack([np.ones(n), x1, x2, x1 * x2]).astype(float)
    y = 1 / (1 + np.exp(-(0.2 + 0.3 * x1 - 0.1 * x2 + rng.normal(0, 1, n))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = BetaModel(y, X)
        assert np.array_equal(start_params(model), model._start_params())


def _old_permutation_draws(values, a, f, R, seed):
    """interaction_permutation's statistic as computed before the blocks (all permutations at once)."""
    cells = [(a & f), (a & ~f), (~a & f), (~a & ~f)]
    signs = [1.0, -1.0, -1.0, 1.0]
    Xr = np.column_stack([np.ones(len(values)), a, f]).astype(float)
    br, *_ = np.linalg.lstsq(Xr, values, rcond=None)
    fit = Xr @ br
    res = values - fit
    perm = np.argsort(np.random.default_rng(seed).random((R, len(values))), axis=1)
    Y = np.vstack([values[None, :], fit[None, :] + res[perm]])
    est, var = np.zeros(R + 1), np.zeros(R + 1)
    for cmask, sg in zip(cells, signs):
        yc = Y[:, cmask]
        est += sg * yc.mean(axis=1)
        var += yc.var(axis=1, ddof=1) / yc.shape[1]
    return est, var


def test_permutations_in_blocks_are_the_same_permutations(monkeypatch):
    from engine.stats.hypothesis_tests import person_tests as pt

    monkeypatch.setattr(pt, "BLOCK", 64)  # many blocks of a few rows
    rng = np.random.default_rng(4)
    G, R = 40, 300
    values = rng.normal(size=G)
    a, f = np.arange(G) % 2 == 0, np.arange(G) % 4 < 2
    est, var = _old_permutation_draws(values, a, f, R, 7)
    t = pt._tstat(est, var, float(np.abs(values).max()))
    hits = int(np.sum(np.abs(t[1:]) >= abs(t[0]) * (1 - pt._TIE) - 1e-300))
    assert pt.interaction_permutation(values, a, f, R, 7).p_value == (1 + hits) / (R + 1)
    # label shuffles: blocks of 64 elements and one block give the same p-value
    c = pt.PersonContrast([pt.Stratum(values, a), pt.Stratum(values[:20] * 2, np.arange(20) % 3 == 0)],
                          rng.normal(size=8), 0.4, 0.6)
    small = pt.permutation_test(c, 500, 11)
    monkeypatch.setattr(pt, "BLOCK", 1 << 30)
    assert small == pt.permutation_test(c, 500, 11)


def test_scores_placed_by_factorizing_the_sentences():
    from engine.audit.pipeline import _take, _text_positions, _texts_to_score

    df = pd.DataFrame({"Sentence": pd.Series(["b", "a", "b", "c", "a"], dtype="str")})
    pairs = pd.DataFrame({"privileged": pd.Series(["c", "d"], dtype="str"),
                          "minoritised": pd.Series(["e", "a"], dtype="str")})
    texts = _texts_to_score(df, pairs)
    scores = np.arange(len(texts), dtype=float) / 10
    by_text = pd.Series(scores, index=texts)
    rows, priv, mino = _text_positions(df, pairs, texts)
    assert np.array_equal(_take(scores, rows), df.Sentence.map(by_text).to_numpy())
    assert np.array_equal(_take(scores, priv), pairs.privileged.map(by_text).to_numpy())
    assert np.array_equal(_take(scores, mino), pairs.minoritised.map(by_text).to_numpy())
    # texts in another order than the factorization's: looked up one by one
    rows, _, _ = _text_positions(df, None, list(reversed(texts)))
    assert np.array_equal(_take(scores[::-1], rows), df.Sentence.map(by_text).to_numpy())


@pytest.mark.parametrize("dtype", ["str", "string", object])
def test_safe_frame_escapes_as_map_did(dtype):
    from engine.common.csv_cells import escape_cell, safe_frame

    vals = ["=1+2", "+x", "-0.5", "-a", "@b", "\tt", "\rr", "'=q", "''", "'a", "", None, "plain", "'", "x=1"]
    df = pd.DataFrame({"a": pd.Series(vals, dtype=dtype), "b": np.arange(len(vals))})
    before = df.copy()
    expected = df.copy()
    expected["a"] = expected["a"].map(escape_cell)
    assert safe_frame(df).to_csv(index=False) == expected.to_csv(index=False)
    pd.testing.assert_frame_equal(df, before)  # the caller's frame is left alone
