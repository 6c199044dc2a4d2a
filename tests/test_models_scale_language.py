"""Scorers declare their score scale and languages; statistics and the audit read them."""
from __future__ import annotations

import pytest

from engine.models.base import declared_languages, declared_scale, language_mismatch
from engine.models.errors import ModelError
from engine.models.scorers.hf_classifier import classifier_dimensions, classifier_scales, label_values
from engine.models.scorers.lexicon import TextBlobScorer, VaderScorer
from engine.models.scorers.predictions import PredictionFileScorer


def test_lexicons_are_english_valence_on_0_1():
    for s in (VaderScorer(), TextBlobScorer()):
        assert declared_scale(s, "valence") == (0.0, 1.0) and declared_languages(s) == ("en",)
        assert "reads en but the corpus is in es" in language_mismatch(s, "es")
        assert language_mismatch(s, "en-GB") is None and language_mismatch(s, "") is None


def test_classifier_columns_have_their_scales():
    labels = ["1 star", "2 stars", "3 stars", "4 stars", "5 stars"]
    values, _ = label_values(labels)
    dims = classifier_dimensions(labels)
    sc = classifier_scales(labels, values, dims)
    assert sc["expected"] == (1.0, 5.0) and sc["argmax"] == (1.0, 5.0)
    assert sc["expected_01"] == (0.0, 1.0) and sc["p_3 stars"] == (0.0, 1.0)
    assert classifier_scales(["score"], [0.0], ["score"]) == {}  # a regression head: unknown


def test_prediction_file_takes_scale_and_languages(tmp_path):
    p = tmp_path / "pred.csv"
    p.write_text("Sentence,stars\nI am happy.,4\nI am sad.,2\n", encoding="utf-8")
    s = PredictionFileScorer(p, scale=(1, 5), languages="es")
    assert declared_scale(s, "stars") == (1.0, 5.0) and declared_languages(s) == ("es",)
    plain = PredictionFileScorer(p)
    assert declared_scale(plain, "stars") is None and declared_languages(plain) == ()
    assert language_mismatch(plain, "es") is None  # unknown language: no warning
    with pytest.raises(ModelError, match="scale"):
        PredictionFileScorer(p, scale=(5, 1))


def test_objects_without_declarations_are_unknown():
    class Mine:
        name = "mine"
        dimensions = ["x"]

    assert declared_scale(Mine(), "x") is None and declared_languages(Mine()) == ()
