"""The word-form test of the Câmara reproduction (tools/repro_camara2022_forms.py): each female-name
sentence is rebuilt from the male sentence of the same race, template and emotion word, so it carries
her name and his word forms — and a scorer that ignores names then sees no gender difference."""
from __future__ import annotations

import importlib.util

import pandas as pd

from conftest import ROOT


def _tool():
    spec = importlib.util.spec_from_file_location("repro_forms", ROOT / "tools" / "repro_camara2022_forms.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _names():
    rows = []
    for t, (fem, masc) in {"T01": ("{p} se siente enojada", "{p} se siente enojado"),
                           "T02": ("{p} está triste", "{p} está triste")}.items():
        for g, who in (("female", ["Ana", "Eva"]), ("male", ["Juan", "Luis"])):
            for i, name in enumerate(who):
                rows.append({"ID": f"{t}-{name}", "Sentence": (fem if g == "female" else masc).format(p=name),
                             "Person": name, "Gender": g, "Race": "Latino", "template_id": t,
                             "emotion_word_id": "angry", "person_id": f"{g[0]}{i}"})
    return pd.DataFrame(rows)


def test_women_get_the_masculine_forms_and_keep_their_names():
    names = _names()
    swap = _tool().swapped_sentences(names).set_index("ID")["swapped"]
    assert swap["T01-Ana"] == "Ana se siente enojado" and swap["T01-Eva"] == "Eva se siente enojado"
    assert swap["T02-Ana"] == "Ana está triste"
    assert set(swap.index) == set(names.loc[names["Gender"] == "female", "ID"])


def test_a_scorer_that_reads_only_word_forms_loses_its_gender_gap():
    tool = _tool()
    names = _names().assign(Race="Anglo")
    swap = tool.swapped_sentences(names).set_index("ID")["swapped"]
    score = {"enojada": 0.6, "enojado": 0.5}

    def scorer(text):  # ignores the name, reads the form
        return next((v for w, v in score.items() if text.endswith(w)), 0.4)

    names["orig"] = [scorer(s) for s in names["Sentence"]]
    names["swap"] = [scorer(swap.get(i, s)) for i, s in zip(names["ID"], names["Sentence"])]
    assert tool._gender_diff(names, "orig", "Anglo") > 0.04
    assert tool._gender_diff(names, "swap", "Anglo") == 0.0
