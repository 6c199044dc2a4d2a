"""Issue 41, item 1 (statistics): a row without a test carries its reason as a key and typed fields.

Planted cases produce each status a statistic gives (design-limited, no person variation, a constant
difference, crossed factors that cannot be estimated, too few, no pairs, constant scores); each has a
catalog entry, its English note is the catalog's render, its key and fields survive the results CSV,
and the interface renders it in Spanish and Arabic from the fields — also after the English template
is reworded, which once left the GUI translating an English string no catalog held.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from engine.common.messages import render
from engine.results.table_file import read_table
from engine.stats import beta_regression, counterfactual_analysis, km_paired_analysis, synthetic_eec
from engine.stats.hypothesis_tests.counterfactual import pair_statistics
from engine.stats.hypothesis_tests.no_test import NO_TEST_STATUSES
from engine.stats.hypothesis_tests.paired_tests import paired_t
from engine.stats.hypothesis_tests.person_tests import PersonContrast, Stratum, crossed_t, permutation_test, person_t
from engine.stats.present.tables import UNTESTED_WORDS, untested_reason
from engine.stats.reasons import (REASON_COLUMN, REASONS, STATUSES, read_reason, reason, reason_json, reason_text,
                                  status_of)
from engine.stats.simulate.synthetic import synthetic_np_pairs, synthetic_pairs


def _two_groups(women: np.ndarray, men: np.ndarray) -> PersonContrast:
    return PersonContrast([Stratum(np.concatenate([women, men]), np.r_[np.ones(len(women)), np.zeros(len(men))] == 1)])


def _planted() -> dict[str, object]:
    """One statistic result per status, from the smallest data that produce it."""
    women = np.full(10, 0.5)
    women[3] += 0.2  # one woman apart: Welch's t is fixed by the design
    out: dict[str, object] = {
        "design_limited": person_t(_two_groups(women, np.full(10, 0.5)), scale=1.0),
        "no_person_variation": person_t(_two_groups(np.full(5, 0.6), np.full(5, 0.5)), scale=1.0),
        "too_few": person_t(_two_groups(np.array([0.6]), np.full(5, 0.5)), scale=1.0),
        "constant_difference": paired_t([0.6, 0.7, 0.8], [0.5, 0.6, 0.7]),
    }
    pt = person_t(PersonContrast([], np.array([0.02, 0.03, 0.025, 0.027, 0.022]), 1.0, 0.0))
    factors = {"template": np.array(["T1", "T2", "T3", "T4"]), "word": np.array(["", "", "", ""], dtype=object)}
    out["crossed_not_estimable"] = crossed_t(pt, np.array([0.021, 0.034, 0.018, 0.029]), factors)
    return out


def test_every_status_a_statistic_produces_has_a_catalog_entry():
    planted = _planted()
    for status, result in planted.items():
        assert result.status == status, (status, result.status)
        assert result.reason is not None and status_of(result.reason) == status
        assert result.reason.key in REASONS and status in STATUSES
        assert result.note == str(result.reason) == render(REASONS, result.reason.key, result.reason.params)
    too_few = _two_groups(np.array([0.6]), np.full(5, 0.5))
    assert permutation_test(too_few, 100, 0).note == planted["too_few"].note  # the same English, as text
    stats, notes = pair_statistics(np.array([]), np.array([]), band=0.05)
    assert stats["status"] == "no_pairs" and read_reason(stats[REASON_COLUMN]).key == "no_pairs"
    # the vocabulary: every no-test status and every status a table explains has a reason and a short form
    assert set(NO_TEST_STATUSES) | {"too_few", "no_pairs"} <= set(STATUSES)
    assert UNTESTED_WORDS is STATUSES
    assert {m.code for m in REASONS.values()} == set(STATUSES)


def test_the_reasons_carry_their_numbers_and_the_note_is_their_english():
    planted = _planted()
    assert planted["design_limited"].reason.params == {"n": 1, "total": 20}
    assert "(1 of the 20 compared)" in planted["design_limited"].note
    assert planted["no_person_variation"].reason.params == {"tol": 1e-6}
    assert planted["constant_difference"].reason.params["difference"] == pytest.approx(0.1)
    assert planted["too_few"].reason.key == "too_few.group" and planted["too_few"].reason.params == {"n": 1}
    parts = planted["crossed_not_estimable"].reason.params["parts"]
    assert [p.key for p in parts] == ["crossed.no_noise"] and parts[0].params == {"factor": "template", "levels": 4}
    assert "template: each of its 4 levels" in planted["crossed_not_estimable"].note


@pytest.fixture(scope="module")
def frames(tmp_path_factory) -> dict[str, pd.DataFrame]:
    """Result frames of the three statistics with untested rows, written as CSV and read back as the GUI
    reads results (engine.results.table_file)."""
    df = synthetic_eec(words_per_emotion=2, names_per_cell=6)
    rng = np.random.default_rng(1)
    base = 0.4 + 0.1 * rng.random(df["template_id"].nunique() * 100)
    s = base[pd.factorize(df["template_id"].astype(str) + df["emotion_word_id"].astype(str))[0]].copy()
    one = df.loc[(df["Gender"] == "female") & (df["Race"] == "European") & (df["person_kind"] == "name"), "person_id"]
    s[(df["person_id"] == one.iloc[0]).to_numpy()] += 0.05  # one name apart: design-limited gender term
    df["s"] = s
    df["const"] = 0.5
    out = {
        "beta": pd.concat([beta_regression(df, "s", n_permutations=0).to_frame(),
                           beta_regression(df, "const", n_permutations=0).to_frame()], ignore_index=True),
        "km": km_paired_analysis(df, "s", np_pairs=synthetic_np_pairs(), n_resamples=0, n_permutations=0).to_frame(),
    }
    pairs = synthetic_pairs(df, "const")
    pairs["score_minoritised"] = pairs["score_privileged"] - 0.1  # every pair differs by the same amount
    out["counterfactual"] = counterfactual_analysis(pairs, "score_privileged", "score_minoritised", inference="paper",
                                                    n_resamples=0, score_range=(0.0, 1.0)).to_frame()
    folder = tmp_path_factory.mktemp("results")
    read = {}
    for name, frame in out.items():
        frame.to_csv(folder / f"{name}.csv", index=False)
        read[name] = read_table(folder / f"{name}.csv")
    return {"written": out, "read": read}


def _untested(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[~frame["status"].isin(["ok", "all_zero"])]


def test_rows_carry_the_reason_and_it_survives_the_csv(frames):
    seen = set()
    for name, frame in frames["written"].items():
        back = frames["read"][name]
        assert REASON_COLUMN in frame.columns and REASON_COLUMN in back.columns
        for (_, w), (_, r) in zip(_untested(frame).iterrows(), _untested(back).iterrows()):
            said = read_reason(w[REASON_COLUMN])
            assert said is not None and status_of(said) == w["status"], (name, w["status"])
            assert read_reason(r[REASON_COLUMN]) == said and said.params == read_reason(r[REASON_COLUMN]).params
            if said.key != "constant" or w["term"] != "intercept":  # the note is the reason's English (+ details)
                assert str(said) in str(w["note"]), (name, said.key)
            seen.add(w["status"])
    assert {"design_limited", "constant", "constant_difference"} <= seen, seen


def test_tables_explain_an_untested_row_from_the_catalog(frames):
    beta = frames["read"]["beta"]
    row = beta[beta["status"] == "design_limited"].iloc[0]
    assert untested_reason(row["p_value"], row["status"], row["note"], row[REASON_COLUMN]) == STATUSES["design_limited"]


@pytest.fixture
def interface():
    from gui import i18n

    yield i18n
    i18n.set_language("en")


@pytest.mark.parametrize("lang, words", [("es", ("(1 de las 20 comparadas)", "no probado")),
                                         ("ar", ("(1 من أصل 20", "لم يُختبر"))])
def test_a_reworded_english_reason_still_renders_fully_in_the_interface(monkeypatch, interface, lang, words):
    """The English template of a reason is reworded: the statistics write the new English, and the
    interface still shows its own full sentence with the row's numbers (rendered from the fields)."""
    from gui.results.plots import untested_text

    old = REASONS["design_limited"]
    monkeypatch.setitem(REASONS, "design_limited", dataclasses.replace(
        old, en="{n} person(s) out of {total} stand apart from their group: Welch's t cannot measure anything"))
    women = np.full(10, 0.5)
    women[3] += 0.2
    r = person_t(_two_groups(women, np.full(10, 0.5)), scale=1.0)
    assert r.note == "1 person(s) out of 20 stand apart from their group: Welch's t cannot measure anything"
    cell = reason_json(r.reason)
    interface.set_language(lang)
    shown = untested_text(r.status, r.note, cell)
    full = interface._(old.ui).format(n=1, total=20)
    assert full != old.ui and shown == interface._("not tested: {reason}").format(reason=full)
    assert all(w in shown for w in words), shown
    assert "person(s)" not in shown and "Welch" not in shown


def test_nested_crossed_reasons_render_in_the_interface_language(interface):
    said = reason("crossed_not_estimable", parts=[reason("crossed.single_level", factor="word", levels=1),
                                                  reason("crossed.no_noise", factor="template", levels=4)])
    back = read_reason(reason_json(said))
    assert back == said and str(back) == str(said)
    interface.set_language("es")
    text = reason_text(back, interface._)
    assert "palabras de emoción: solo 1" in text and "plantillas: cada uno de sus 4 niveles" in text
    assert "template" not in text and "word:" not in text


def test_a_file_without_reasons_falls_back_to_the_translated_short_reason(interface):
    from gui.results.plots import untested_text

    interface.set_language("de")
    assert untested_text("constant_difference", "some English note", float("nan")) == \
        interface._("not tested: {reason}").format(reason=interface._(STATUSES["constant_difference"]))
    assert "jedes Paar" in untested_text("constant_difference", "", "")
