"""Issue 38 item 4: labels and register of the corrected built-in corpora, over the WHOLE generated
corpora. Each fault is gone from the corrected corpus, kept out by a rule (E022 with its rubric
class, language data or the corpus's own [[restrictions]]), and declared in the -published variant,
which keeps the authors' labels and text (the rule fires there as a known-defect warning)."""
import re

import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables


def _df(name):
    return builtin_tables(name)[2]


# corpus, the rubric class of the fault, a phrase of its message; the fault's sentences in the published text
FAULTS = [
    ("es-camara2022", "label", "'escandaloso' is 'scandalous'", 180),
    ("es-goldfarb2023", "register", "'cabreado' is colloquial Spanish of Spain", 200),
    ("ja-goldfarb2023", "label", "filed under sadness", 480),
    ("de-goldfarb2023", "label", "'irritierend' means mainly", 162),
    ("ar-camara2022", "pair", "هذه السيدة ('this lady', honorific)", None),
]


def _e022(report, cls, phrase):
    return [f for f in report.findings if f.code == "E022" and f"[{cls}]" in str(f) and phrase in f.message]


@pytest.mark.parametrize("name,cls,phrase,n", FAULTS)
def test_each_fault_is_declared_in_the_published_text_and_absent_from_the_corrected(name, cls, phrase, n):
    published = builtin_report(name + "-published")
    found = _e022(published, cls, phrase)
    assert found and all(f.severity == "warning" for f in found), published.to_text()[:2000]
    if n is not None:
        counts = [re.search(r"\((\d+) sentence\(s\)", str(f)) for f in found]
        assert all(counts) and sum(int(m.group(1)) for m in counts) == n, [str(f) for f in found]
    corrected = builtin_report(name)
    assert not _e022(corrected, cls, phrase) and corrected.ok


def test_spanish_shocking_is_a_fear_word_in_both_genders_and_a_serious_conversation_is_seria():
    df = _df("es-camara2022")
    assert not df.Sentence.str.contains("escandalos").any()
    shocking = df[df.emotion_word_id == "shocking"]
    assert len(shocking) == 180 and (shocking.Emotion == "fear").all()
    assert set(shocking["Emotion word"]) == {"estremecedora", "estremecedores"}  # situación (f sg), acontecimientos (m pl)
    assert not df.Sentence.str.contains(r"\bfue grave\b").any()
    assert df.Sentence.str.endswith("fue seria.").sum() == 60


def test_spanish_goldfarb_has_one_variety():
    df = _df("es-goldfarb2023")
    assert not df.Sentence.str.contains(r"\bcabread[oa]s?\b").any()
    assert df.Sentence.str.contains(r"\bindignad[oa]\b").sum() == 200


def test_japanese_sadness_has_no_fear_or_confusion_word():
    df = _df("ja-goldfarb2023")
    assert set(df[df.emotion_word_id == "kowagaru"].Emotion) == {"fear"}
    assert not df.Sentence.str.contains("混乱").any()
    sad = df[df.Emotion == "sadness"]
    assert not sad["Emotion word"].str.contains(r"^(?:怖|恐|混乱|不可解)").any()
    assert sad.Sentence.str.contains("がっかり").sum() == 240


def test_german_anger_has_no_confusion_word_and_roma_sinti_are_like_every_group():
    df, pairs = _df("de-goldfarb2023"), builtin_tables("de-goldfarb2023")[3]
    assert not df.Sentence.str.contains("irritier").any()
    assert set(df[df.emotion_word_id == "irritierend_sit"].Emotion) == {"anger"}
    assert not df.Sentence.str.contains(r"\b(?:Rom|Romni|Sinto|Sintiza)\b").any()
    race = pairs[pairs.variable == "race"]
    roma = race[race.minoritised_group.isin(["Roma", "Sinti"])]
    assert len(roma) == 640 and roma.minoritised_person.str.fullmatch(r"\w+ (?:Roma|Sinti)-(?:Mann|Frau)").all()


def test_arabic_this_woman_and_a_serious_conversation():
    df, pairs = _df("ar-camara2022"), builtin_tables("ar-camara2022")[3]
    assert not df.Sentence.str.contains("السيدة").any()
    assert (pairs.person_pair == "np_this_man~np_this_woman").sum() == 134
    assert set(pairs[pairs.person_pair == "np_this_man~np_this_woman"].minoritised_person) == {"هذه المرأة"}
    t07 = df[df.template_id == "T07"].Sentence
    assert not t07.str.contains(r" (?:خطيرة|عصيبة)\.$").any()
    assert t07.str.endswith(" جادة.").sum() == 60 and t07.str.endswith(" مؤلمة.").sum() == 60
