"""FISE / GG-FISE quadrants, affect shares and top words; SEAT on static vectors."""
from __future__ import annotations

import math

import numpy as np
import pytest

from engine.assoc.fise import run_fise
from engine.assoc.providers.static import StaticVectors
from engine.assoc.seat import run_seat, seat_from_weat
from engine.assoc.stimuli import FiseSpec, TestSpec, WordSet
from engine.assoc.weat import WeatOptions

# axes: dim0 = gender (men +), dim1 = race (white +), dim2 = valence (+), dim3 = noise
VOCAB = {
    "uomo": [3, 0, 0, 1], "donna": [-3, 0, 0, 1], "bianco": [0, 3, 0, 1], "nero": [0, -3, 0, 1],
    "bello": [0, 0, 3, 1], "brutto": [0, 0, -3, 1],
    "pilota": [2, 1, 1, 1], "cuoco": [1, -2, -1, 1], "cuoca": [-1, -2, -1, 1],
    "sarta": [-2, 1, 1, 1], "sarto": [2, 1, 1, 1], "giudice": [-1, -1, 1, 1],
}


def _provider():
    words = list(VOCAB)
    return StaticVectors(np.array([VOCAB[w] for w in words], dtype=float), words, name="toy")


def _spec(forms="each", targets=("pilota", ["cuoco", "cuoca"], "sarta", "giudice", "assente")):
    return TestSpec(id="fise-toy", kind="fise", forms=forms, fise=FiseSpec(
        x_name="gender", x_pos=WordSet.of("men", ["uomo"]), x_neg=WordSet.of("women", ["donna"]),
        y_name="race", y_pos=WordSet.of("white", ["bianco"]), y_neg=WordSet.of("black", ["nero"]),
        targets=WordSet.of("occupations", list(targets)),
        affect={"valence": (WordSet.of("pos", ["bello"]), WordSet.of("neg", ["brutto"]))}, target_forms=forms))


def _cos(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_quadrants_shares_affect_and_projection():
    res = run_fise(_spec(), _provider(), min_coverage=0.5)
    w = res.words.set_index("word")
    assert list(w.index) == ["pilota", "cuoco", "cuoca", "sarta", "giudice"]  # "assente" dropped
    bx = _cos(VOCAB["pilota"], VOCAB["uomo"]) - _cos(VOCAB["pilota"], VOCAB["donna"])
    assert w.loc["pilota", "b_x"] == pytest.approx(bx, abs=1e-12)
    assert w.loc["pilota", "quadrant"] == "men white" and w.loc["cuoca", "quadrant"] == "women black"
    q = res.quadrants.set_index("quadrant")
    assert q["n"].sum() == 5 and q.loc["men black", "n"] == 1
    assert q.loc["women black", "share_pct"] == pytest.approx(40.0)
    assert q.loc["women black", "pct_positive_valence"] == pytest.approx(50.0)  # cuoca -, giudice +
    val = {w: _cos(VOCAB[w], VOCAB["bello"]) - _cos(VOCAB[w], VOCAB["brutto"]) for w in ("cuoca", "giudice")}
    assert q.loc["women black", "mean_valence"] == pytest.approx((val["cuoca"] + val["giudice"]) / 2, abs=1e-12)
    p = w.loc["giudice"]
    assert p["projection"] == pytest.approx((-p["b_x"] - p["b_y"]) / math.sqrt(2))
    top = q.loc["women black", "top_words"].split(", ")
    assert top == sorted(top, key=lambda x: -w.loc[x, "projection"])
    assert "assente" in res.coverage[4].dropped
    assert "men white" in res.summary()


def test_gg_fise_averages_forms():
    res = run_fise(_spec("average"), _provider(), min_coverage=0.5)
    w = res.words.set_index("word")
    assert "cuoco/cuoca" in w.index
    avg = (np.array(VOCAB["cuoco"], float) + VOCAB["cuoca"]) / 2
    want = _cos(avg, VOCAB["uomo"]) - _cos(avg, VOCAB["donna"])
    assert w.loc["cuoco/cuoca", "b_x"] == pytest.approx(want, abs=1e-12)
    assert w.loc["cuoco/cuoca", "b_x"] == pytest.approx(0.0, abs=1e-12)  # the gender signal of the forms cancels


def test_fise_coverage_refusal():
    from engine.assoc.errors import CoverageError

    with pytest.raises(CoverageError, match="targets"):
        run_fise(_spec(targets=("pilota", "x1", "x2")), _provider())


def test_seat_on_static_vectors_averages_sentence_words():
    words = ["this", "is", "the", "here", "there", "that", "rose", "ant", "love", "war", "tulip", "flea", "joy", "pain"]
    rng = np.random.default_rng(0)
    prov = StaticVectors(rng.normal(size=(len(words), 6)), words, name="toy")
    spec = TestSpec(id="weat/toy", kind="weat", X=WordSet.of("f", ["rose", "tulip"]), Y=WordSet.of("i", ["ant", "flea"]),
                    A=WordSet.of("p", ["love", "joy"]), B=WordSet.of("u", ["war", "pain"]))
    seat = seat_from_weat(spec)
    assert seat.kind == "seat" and seat.X.items[0].sentence == "This is the rose."
    res = run_seat(seat, prov, WeatOptions(), level="sentence")
    assert res.n_x == 12 and res.permutation.method == "monte carlo"  # C(24, 12) > 1e6
    # by hand: sentence vector = mean of the known words' vectors ("This", "The" are not in this cased vocabulary)
    import re

    def sent_vec(text):
        known = [w for w in re.findall(r"\w+", text) if w in words]
        return np.mean([prov.lookup([w])[0][0] for w in known], axis=0)

    A = np.array([sent_vec(i.sentence) for i in seat.A.items])
    B = np.array([sent_vec(i.sentence) for i in seat.B.items])
    x0 = sent_vec("This is the rose.")
    cos = lambda u, V: (V @ u) / np.linalg.norm(V, axis=1) / np.linalg.norm(u)  # noqa: E731
    assert res.word_scores.iloc[0]["word"] == "This is the rose."
    assert res.word_scores.iloc[0]["s"] == pytest.approx(cos(x0, A).mean() - cos(x0, B).mean(), abs=1e-12)
    # token level on static vectors is the word's own vector: s equals the word-level WEAT s
    from engine.assoc.weat import run_weat
    tok = run_seat(seat, prov, WeatOptions(), level="token")
    word = run_weat(spec, prov, WeatOptions())
    np.testing.assert_allclose(tok.word_scores["s"].to_numpy()[::6], word.word_scores["s"].to_numpy(), atol=1e-12)
