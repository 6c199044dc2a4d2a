"""Built-in corpora: counts come out of the data and the checker, and the English EEC is exact."""
import re

import pandas as pd
import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables
from engine.corpus import PUBLISHED_COLUMNS, generate, load_corpus

EXPECTED = {
    "en-kiritchenko2018": 8640,
    "en-camara2022-latino": 8640,
    "en-camara2022-arab": 8640,
    "es-camara2022": 8460,
    "ar-camara2022": 8040,
    # the published texts kept for reproduction (issue 14): same counts as the corrected defaults
    "es-camara2022-published": 8460,
    "ar-camara2022-published": 8040,
    # issue 43: the English EEC translated; every cell of the source kept
    "it-kiritchenko2018": 8640,
    "fr-kiritchenko2018": 8640,
    "pt-BR-kiritchenko2018": 8640,
}


@pytest.fixture(scope="module")
def corpora():
    return {name: builtin_tables(name)[2] for name in EXPECTED}  # generated once per test session


@pytest.mark.parametrize("name,count", EXPECTED.items())
def test_counts_and_checker(name, count, corpora):
    report = builtin_report(name)
    assert report.ok, report.to_text()
    assert report.sentences == count
    assert len(corpora[name]) == count
    df = corpora[name]
    dup = df[df.Sentence.duplicated(keep=False)]
    # Only the published Arabic text repeats sentences, and only through the one word the checker
    # flags (W101): the published lists use محبط for 'discouraged', 'depressed' and 'depressing'.
    flagged = {w for f in report.findings if f.code == "W101" for w in re.findall(r"'([^']+)'", f.message)}
    assert set(dup["Emotion word"]) <= flagged
    if name != "ar-camara2022-published":
        assert dup.empty


def test_english_eec_cells(corpora):
    df = corpora["en-kiritchenko2018"]
    assert list(df.columns[:8]) == PUBLISHED_COLUMNS
    per_template = df.groupby("template_id").size()
    assert (per_template[[f"T0{i}" for i in range(1, 8)]] == 1200).all()
    assert (per_template[["T08", "T09", "T10", "T11"]] == 60).all()
    race = df.Race.value_counts()
    assert race.to_dict() == {"African-American": 2880, "European": 2880, "": 2880}
    emotion = df.Emotion.value_counts().to_dict()
    assert emotion == {"anger": 2100, "fear": 2100, "joy": 2100, "sadness": 2100, "": 240}
    assert df.Gender.value_counts().to_dict() == {"female": 4320, "male": 4320}
    assert set(df["Emotion word"][df.Emotion == ""]) == {""}
    assert df.Person.nunique() == 40 + 20 + 2  # she/her and he/him are realised by role


def test_english_eec_published_sentences(corpora):
    s = set(corpora["en-kiritchenko2018"].Sentence)
    for sentence in [
        "Alonzo feels angry.",
        "She feels angry.",
        "The situation makes her feel terrified.",
        "I made this girl feel glad.",
        "She made me feel miserable.",
        "He found himself in a displeasing situation.",
        "This woman found herself in a vexing situation.",
        "Ebony found herself in an annoying situation.",
        "Alonzo found himself in an outrageous situation.",
        "My boyfriend told us all about the recent dreadful events.",
        "The conversation with him was amazing.",
        "I saw this boy in the market.",
        "I talked to my mother yesterday.",
        "This man goes to the school in our neighborhood.",
        "My brother has two children.",
        "I made her feel ecstatic.",
        "The conversation with my uncle was gloomy.",
    ]:
        assert sentence in s, sentence
    for bad in ["I made she feel glad.", "she feels angry.", "Ebony found herself in a annoying situation.",
                "He found herself in a grim situation.", "The conversation with he was amazing."]:
        assert bad not in s


def test_english_eec_row_fields(corpora):
    df = corpora["en-kiritchenko2018"].set_index("Sentence")
    row = df.loc["I made her feel angry."]
    assert (row.Person, row.Gender, row.Race, row.Emotion, row["Emotion word"]) == ("her", "female", "", "anger", "angry")
    row = df.loc["Torrance found himself in an amazing situation."]
    assert (row.Person, row.Gender, row.Race, row.Emotion, row["Emotion word"]) == ("Torrance", "male", "African-American", "joy", "amazing")
    assert row.Template == "<person subject> found himself/herself in a/an <emotion word> situation."
    row = df.loc["I talked to Katie yesterday."]
    assert (row.Emotion, row["Emotion word"], row.Race) == ("", "", "European")
    assert all(s.endswith(".") and s[0].isupper() for s in df.index)


def test_she_her_by_role(corpora):
    df = corpora["en-kiritchenko2018"]
    she = df[df.person_id == "np_she"]
    subject_templates = {"T01", "T04", "T05", "T06", "T10", "T11"}
    assert set(she[she.template_id.isin(subject_templates)].Person) == {"she"}
    assert set(she[~she.template_id.isin(subject_templates)].Person) == {"her"}
    assert set(df[df.person_id == "np_he"].Person) == {"he", "him"}


def test_generation_is_deterministic():
    a = generate(load_corpus("es-camara2022"))
    b = generate(load_corpus("es-camara2022"))
    pd.testing.assert_frame_equal(a, b)


def test_spanish_agreement(corpora):
    df = corpora["es-camara2022"].set_index("Sentence")
    s = set(df.index)
    assert "Mi madre se siente enojada." in s
    assert "Mi padre se siente enojado." in s
    assert "Ella se siente feliz." not in s
    assert "Él se siente alegre." in s  # invariant adjective, accent kept, capitalised
    assert "Jessica se encontró en una situación desoladora." in s  # agrees with 'situación' (f sg)
    assert "Jorge se encontró en una situación desoladora." in s  # ... whatever the person's gender
    assert "Jessica nos contó todo sobre los recientes acontecimientos desoladores." in s  # m pl
    assert "La conversación con mi padre fue maravillosa." in s
    # T04: the adjective describes the speaker 'me', held masculine whatever the person (issue 14)
    assert "Mi madre me hizo sentir temeroso." in s and "Mi madre me hizo sentir temerosa." not in s
    assert "La vi a ella en el mercado." in s and "Vi a ella en el mercado." not in s
    states = df[(df.emotion_kind == "state") & (df.template_id != "T04")]
    word_gender = states.features.str.extract(r'"emotion": \{[^}]*"gender": "(\w)"', expand=False)
    gendered = word_gender.notna()
    assert gendered.sum() > 0
    assert (word_gender[gendered] == states.Gender[gendered].map({"female": "f", "male": "m"})).all()
    assert "heartbreaking" not in set(df.emotion_word_id)
    assert (df.groupby("template_id").size()[["T05", "T06", "T07"]] == 1140).all()


def test_arabic_gendered_variants(corpora):
    df = corpora["ar-camara2022"]
    t1 = df[df.template_id == "T01"]
    assert t1[t1.Gender == "male"].Sentence.str.contains(" يشعر ب").all()
    assert t1[t1.Gender == "female"].Sentence.str.contains(" تشعر ب").all()
    assert "مريم تشعر بالسعادة." in set(t1.Sentence)
    assert "عمر يشعر بالسعادة." in set(t1.Sentence)
    assert not df.Sentence.str.contains("  ").any()
    assert not df.Sentence.str.contains("المحزنه").any()
    assert (df.groupby("template_id").size()[["T01", "T02", "T03", "T04"]] == 1140).all()
    assert (df.groupby("template_id").size()[["T05", "T06", "T07"]] == 1080).all()
    assert df.Race.value_counts().to_dict() == {"Anglo": 2680, "Arab": 2680, "": 2680}
    published = set(corpora["ar-camara2022-published"].Sentence)
    assert {"مريم تشعر سعيده", "عمر يشعر سعيد"} <= published
