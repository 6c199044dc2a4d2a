"""Public API of engine.stats: lazy imports, no Qt, synthetic corpus shape, input checks."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import engine.stats as S
from engine.stats._common import resolve_race_groups, resolve_scores

CONTRACT_COLUMNS = ["ID", "Sentence", "Template", "Person", "Gender", "Race", "Emotion", "Emotion word",
                    "template_id", "person_id", "person_kind", "emotion_word_id", "emotion_kind", "language",
                    "corpus", "features"]


def test_import_is_light_and_qt_free():
    code = ("import sys, engine.stats as S; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('scipy', 'statsmodels', 'PySide6', 'pyqtgraph')]; "
            "assert not bad, bad; S.beta_regression; S.to_markdown; "
            "assert not [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')]")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(pytest.importorskip(
        "pathlib").Path(__file__).resolve().parents[1]))
    assert r.returncode == 0, r.stderr


def test_public_names():
    for name in ["beta_regression", "km_paired_analysis", "counterfactual_analysis", "correct_pvalues",
                 "bootstrap_ci", "to_latex", "to_markdown", "confusion_matrix", "km_pairs"]:
        assert callable(getattr(S, name)), name
    assert set(S.__all__) <= set(dir(S))
    with pytest.raises(AttributeError):
        S.does_not_exist  # noqa: B018


def test_synthetic_eec_has_contract_shape():
    df = S.synthetic_eec()
    assert list(df.columns) == CONTRACT_COLUMNS
    assert len(df) == 8640 and df["ID"].is_unique
    assert df["template_id"].nunique() == 11
    assert df.loc[df["Emotion"] != "", "template_id"].nunique() == 7
    names = df[df["person_kind"] == "name"]
    assert names.groupby(["Race", "Gender"])["person_id"].nunique().tolist() == [10, 10, 10, 10]
    nps = df[df["person_kind"] == "noun_phrase"]
    assert (nps["Race"] == "").all() and nps["person_id"].nunique() == 20
    assert set(S.synthetic_np_pairs()) <= set(nps["person_id"])
    assert "pair_key" in S.synthetic_eec(pair_key=True).columns


def test_planted_scores_have_the_planted_means():
    df = S.synthetic_eec()
    s = np.mean([S.planted_scores(df, seed=i, delta_intersection=0.1) for i in range(20)], axis=0)
    cell = (df["Race"] == "African-American") & (df["Gender"] == "female")
    assert s[cell.to_numpy()].mean() - s[~cell.to_numpy()].mean() == pytest.approx(0.1, abs=0.005)
    assert ((s > 0) & (s < 1)).all()


def test_resolve_scores_forms():
    assert resolve_scores("a")[0].model == "a"
    assert resolve_scores("a", model="BERT", emotion="joy")[0] == resolve_scores({"a": ("BERT", "joy")})[0]
    assert [s.column for s in resolve_scores(["a", "b"], emotion="joy")] == ["a", "b"]
    with pytest.raises(ValueError, match="single score column"):
        resolve_scores(["a", "b"], model="x")
    with pytest.raises(ValueError, match="no score columns"):
        resolve_scores([])
    with pytest.raises(ValueError, match="cannot be combined"):
        resolve_scores({"a": ("m", "e")}, model="x")
    with pytest.raises(TypeError):
        resolve_scores(3)


def test_resolve_race_groups():
    assert resolve_race_groups(["Anglo", "Latino", ""], None, None) == ("Latino", "Anglo")
    assert resolve_race_groups(["Anglo", "Arab"], "Arab", None) == ("Arab", "Anglo")
    with pytest.raises(ValueError, match="majority"):
        resolve_race_groups(["A", "B"], None, None)
    with pytest.raises(ValueError, match="same group"):
        resolve_race_groups(["Anglo", "Arab"], "Anglo", "Anglo")


def test_summaries_are_text():
    df = S.synthetic_eec(words_per_emotion=1)
    df["s"] = S.planted_scores(df, seed=0)
    b = S.beta_regression(df, "s")
    k = S.km_paired_analysis(df, "s", np_pairs=S.synthetic_np_pairs(), n_resamples=0)
    for r in (b, k):
        text = r.summary()
        assert isinstance(text, str) and str(r) == text and len(text.splitlines()) >= 4
        assert isinstance(r.to_frame(), pd.DataFrame) and len(r) == len(r.to_frame())
    assert "intersection" in b.summary() and "AME (score)" in b.summary()
    verdict = k.to_frame()["verdict"].iloc[0]
    assert verdict in k.summary() and "bias group" in k.summary()


def test_exported_names_are_not_shadowed_by_submodules():
    # Importing a submodule sets an attribute of the package with the submodule's name; an
    # exported function with the same name (e.g. a module ``km_pairs.py``) would then turn into
    # a module once something imported it.
    import importlib
    import pkgutil
    import types

    subs = {m.name for m in pkgutil.iter_modules(S.__path__)}
    assert not subs & set(S.__all__), subs & set(S.__all__)
    for name in sorted(subs):
        importlib.import_module(f"engine.stats.{name}")
    for name in S.__all__:
        assert not isinstance(getattr(S, name), types.ModuleType), name
    assert callable(S.km_pairs) and S.km_pairs.__module__ == "engine.stats.hypothesis_tests.km_pairing"
