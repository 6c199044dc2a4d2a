"""Cross-check the built-in corpora against Câmara et al.'s generated files (when ../shared is present).

Their files are compared after undoing only the fixes we document in README: object
pronouns (her/him for she/he), sentence-initial capitals, and nothing else.
"""
import re

import pandas as pd
import pytest

from conftest import shared_path
from engine.corpus import generate, load_corpus


def _normalise_ours(s: str) -> str:
    s = re.sub(r"\bher\b", "she", s)
    s = re.sub(r"\bhim\b", "he", s)
    return s[:1].lower() + s[1:]


def _normalise_theirs(s: str) -> str:
    return s[:1].lower() + s[1:]


@pytest.mark.parametrize("name,file", [("en-camara2022-latino-published", "en_es.csv"),
                                       ("en-camara2022-arab-published", "en_ar.csv")])
def test_english_matches_authors_file(name, file):
    """The -published variants reproduce the authors' sentences; the corrected corpora add the final
    full stop (issue 25) and nothing else."""
    theirs = pd.read_csv(shared_path("data", "camara2022_eec", file), keep_default_na=False)
    ours = generate(load_corpus(name))
    assert len(ours) == len(theirs) == 8640
    assert set(ours.Sentence.map(_normalise_ours)) == set(theirs.sentence.map(_normalise_theirs))
    # the documented fixes really happen in the authors' file and not in ours
    assert theirs.sentence.str.contains(r"^I made he feel", regex=True).any()
    assert not ours.Sentence.str.contains(r"made (?:he|she) feel", regex=True).any()
    assert ours.groupby("Race").size().to_dict() == theirs.groupby("race").size().rename({"": ""}).to_dict()
    corrected = generate(load_corpus(name.removesuffix("-published"))).Sentence
    assert list(corrected) == [s + "." for s in ours.Sentence]


def test_spanish_counts_and_words_match_authors_file():
    theirs = pd.read_csv(shared_path("data", "camara2022_eec", "es.csv"), keep_default_na=False)
    ours = generate(load_corpus("es-camara2022"))
    assert len(ours) == len(theirs) == 8460
    # same state words (gendered forms) as the authors used in template 1
    # (the corrected corpus replaced 'discouraged' = desalentado/a, a sadness word filed as fear, by
    # atemorizado/a after the labelled review, issue 38: the published variant keeps the authors' word)
    t1 = theirs[theirs.template == "<p> se siente <eA>"]
    swapped = {"desalentado": "atemorizado", "desalentada": "atemorizada"}
    assert {swapped.get(w, w) for w in t1["emotion word"]} == set(ours[ours.template_id == "T01"]["Emotion word"])
    pub = generate(load_corpus("es-camara2022-published"))
    assert set(t1["emotion word"]) == set(pub[pub.template_id == "T01"]["Emotion word"])
    # the authors' template 5 word order is the defect translators flagged; ours puts the adjective after the noun
    assert theirs.sentence.str.contains("en una situación").any()
    assert ours[ours.template_id == "T05"].Sentence.str.contains(r"en una situación \w+\.$", regex=True).all()


def test_arabic_count_explained():
    """Their file has 8,038 rows: ids 166 (Megan × excited) and 187 (Stephanie × glad) are missing."""
    theirs = pd.read_csv(shared_path("data", "camara2022_eec", "ar.csv"), keep_default_na=False)
    assert len(theirs) == 8038
    ours = generate(load_corpus("ar-camara2022"))
    assert len(ours) == 8040
    missing = set(range(8640)) - set(theirs.id)
    assert {166, 187} <= missing
    en = pd.read_csv(shared_path("data", "camara2022_eec", "en_ar.csv"), keep_default_na=False).set_index("id")
    assert en.loc[166, "sentence"] == "Megan feels excited" and en.loc[187, "sentence"] == "Stephanie feels glad"
    # every other missing id is a combination whose English word has no Arabic form
    untranslated = {"ecstatic", "irritating", "vexing"}
    assert set(en.loc[sorted(missing - {166, 187}), "emotion word"]) == untranslated
    t1 = ours[(ours.template_id == "T01")]
    assert {("megan", "excited"), ("stephanie", "glad")} <= set(zip(t1.person_id, t1.emotion_word_id))
