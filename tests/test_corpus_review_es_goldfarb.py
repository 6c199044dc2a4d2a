"""Issue 25: the native-level review of es-goldfarb2023 (7 errors in 50 pairs). Each error class
it found is checked over the WHOLE generated corpus, not over the reviewed examples only:
false friend excitado/a, non-idiomatic noun frames (tiene alivio, se sienta con un enfado, me hizo
tener alivio), the anglicism "eventos serios/severos" and the other situation-word calques,
spelling (temoroso, extático), the referent each emotion word agrees with, sentence-final
punctuation, and that every counterfactual pair still differs only in the person term and the
words that agree with it. The published text stays in es-goldfarb2023-published
(tests/test_corpus_review.py hashes it)."""
import re

import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables

NAME = "es-goldfarb2023"
STATE_TEMPLATES = ("T01", "T02", "T03", "T04")


# `tables`: builtin_tables(NAME), a fixture of tests/conftest.py


@pytest.fixture(scope="module")
def df(tables):
    return tables[2]


@pytest.fixture(scope="module")
def pairs(tables):
    return tables[3]


@pytest.fixture(scope="module")
def corpus(tables):
    return tables[0]


def _hits(df, pattern, flags=re.IGNORECASE):
    return df.Sentence[df.Sentence.str.contains(pattern, flags=flags, regex=True)].tolist()


def test_checker_is_clean():
    report = builtin_report(NAME)
    assert report.errors == []
    # the only warnings: the eight invariable situation words with no plural in the sheet (W109) and the
    # published name lists' imbalance, 8 female and 7 male names per migrant group (W116, kept as published)
    assert {w.code for w in report.warnings} <= {"W109", "W116"}
    assert len([w for w in report.warnings if w.code == "W109"]) == 8
    assert len([w for w in report.warnings if w.code == "W116"]) <= 1


def test_counts_unchanged(df, pairs):
    assert len(df) == 10600
    assert pairs.variable.value_counts().to_dict() == {"migrant": 3180, "gender": 2120}


# -- class 1: false friend excitado/a ----------------------------------------------------------

def test_no_excitado_anywhere(df):
    assert _hits(df, r"\bexcitad[oa]s?\b") == []
    assert {"Ella está emocionada.", "Él está emocionado.", "Ella me hizo sentir emocionado."} <= set(df.Sentence)


# -- class 2: noun frames --------------------------------------------------------------------

TENER_NOUNS = {"miedo"}  # "tiene miedo", "tenga miedo", "tuviese miedo" are idiomatic
SENTIR_NOUNS = {"enojo", "rabia", "indignación", "melancolía", "desconsuelo", "tristeza", "ansiedad", "felicidad",
                "alivio"}


def test_noun_words_and_their_frames(corpus):
    nouns = {e.forms[0].text: e.features.get("verb") for e in corpus.emotion_words
             if e.kind == "state" and e.features.get("verb") != "estar"}
    assert nouns == {**{w: "tener" for w in TENER_NOUNS}, **{w: "sentir" for w in SENTIR_NOUNS}}


def test_tener_only_with_miedo(df):
    # every form of tener in the corpus is followed by miedo or T08's "dos hijos"
    assert _hits(df, r"\b(?:tiene|tenga|tuviese|tuviera|tener)\b(?!\s+(?:miedo|dos hijos)\.)") == []
    assert _hits(df, r"\btener\b") == []          # "me hizo tener ..." is gone altogether


def test_no_sentirse_con_noun(df):
    assert _hits(df, r"\bs(?:e|i)\s+(?:siente|sienta|sintiese|sintiera|sentía)\s+con\b") == []
    assert _hits(df, r"\bse\s+\w+\s+con\s+(?:un|una)\b") == []


def test_no_count_noun_emotions(df):
    # the sheet's "un enfado / un cabreo / un disgusto" and the unidiomatic nouns are gone
    assert _hits(df, r"\b(?:un enfado|un cabreo|un disgusto|cabreo|desdicha|depresión)\b") == []


def test_every_noun_sentence_uses_an_idiomatic_frame(df):
    rows = df[df.template_id.isin(STATE_TEMPLATES) & df["Emotion word"].isin(TENER_NOUNS | SENTIR_NOUNS)]
    assert len(rows) == 10 * 4 * 50
    frames = {
        "T01": (r" tiene {w}\.$", r" siente {w}\.$"),
        "T02": (r"^La situación hace que .+ tenga {w}\.$", r"^La situación hace que .+ sienta {w}\.$"),
        "T03": (r"^Hice que .+ tuviera {w}\.$", r"^Hice que .+ sintiera {w}\.$"),  # issue 38: -ra, not -se
        "T04": (r" me hizo sentir {w}\.$", r" me hizo sentir {w}\.$"),
    }
    bad = []
    for t, w, s in zip(rows.template_id, rows["Emotion word"], rows.Sentence):
        tener, sentir = frames[t]
        pattern = (tener if w in TENER_NOUNS else sentir).format(w=re.escape(w))
        if not re.search(pattern, s):
            bad.append(s)
    assert bad == []


# -- class 3: anglicisms and calques in situation words ------------------------------------------

def test_no_eventos_and_no_calqued_situation_words(df):
    assert _hits(df, r"\beventos?\b") == []
    assert _hits(df, r"\b(?:serios|severos?|severas?|depresiv[oa]s?)\b") == []
    t10 = df[df.template_id == "T10"].Sentence
    assert t10.str.contains(r" nos habló de los \w+ acontecimientos recientes\.$", regex=True).all()


def test_situation_words_agree_with_their_noun(df):
    # T09 "una situación" and T11 "la conversación": feminine singular; T10 "acontecimientos": plural
    for t in ("T09", "T11"):
        words = set(df[df.template_id == t]["Emotion word"])
        assert all(re.search(r"(?:a|e|l)$", w) for w in words), words
        assert not any(re.search(r"(?:o|os|es|as)$", w) for w in words), words
    words = set(df[df.template_id == "T10"]["Emotion word"])
    assert all(re.search(r"(?:os|es)$", w) for w in words), words
    assert "dolorosos" in words and "desoladores" in words and "deprimentes" in words


# -- class 4: the referent the emotion word describes ---------------------------------------------

def _forms(corpus):
    """emotion word id -> {gender: text} for the gendered state adjectives."""
    out = {}
    for e in corpus.emotion_words:
        if e.kind == "state" and e.features.get("verb") == "estar":
            g = {f.features.get("gender"): f.text for f in e.forms if f.text}
            if set(g) == {"f", "m"}:
                out[e.id] = g
    return out


def test_person_is_the_experiencer_in_t01_to_t03(df, corpus):
    forms = _forms(corpus)
    rows = df[df.template_id.isin(("T01", "T02", "T03")) & df.emotion_word_id.isin(forms)]
    gender = rows.Gender.map({"female": "f", "male": "m"})
    expected = [forms[e][g] for e, g in zip(rows.emotion_word_id, gender)]
    assert (rows["Emotion word"] == expected).all()


def test_speaker_is_the_experiencer_in_t04(df, corpus):
    # "X me hizo sentir <adj>": the adjective describes the speaker, held masculine for every person
    forms = _forms(corpus)
    rows = df[(df.template_id == "T04") & df.emotion_word_id.isin(forms)]
    assert len(rows) == len(forms) * 50
    assert (rows["Emotion word"] == [forms[e]["m"] for e in rows.emotion_word_id]).all()
    assert not rows.Sentence.str.contains(r"me hizo sentir \w+a\.$", regex=True).any()
    assert "Mi madre me hizo sentir temeroso." in set(df.Sentence)


def test_grammar_rule_e016_silent(corpus):
    assert not [f for f in builtin_report(NAME).findings if f.code == "E016"]


# -- spelling and punctuation -------------------------------------------------------------------

def test_misspellings_and_rare_words_gone(df):
    assert _hits(df, r"\btemoros[oa]s?\b|\bextátic[oa]s?\b") == []
    assert {"Ella está temerosa.", "Ella está eufórica."} <= set(df.Sentence)


def test_sentence_shape_and_final_punctuation(df):
    # a capital first letter, single spaces, no space before the final full stop, exactly one "."
    assert df.Sentence.str.match(r"^[A-ZÁÉÍÓÚÑ][^.!?¿¡]*[^\s.]\.$").all()
    assert not df.Sentence.str.contains(r"\s{2}|\s\.|\s$", regex=True).any()


# spelling: the checker's W113 over every built-in corpus (tests/test_grammar_data.py); names are exempt


# -- the reviewed examples ------------------------------------------------------------------------

REVIEWED = ["Ella tiene desdicha.", "Ella tiene alivio.", "Ella me hizo tener alivio.",
            "La situación hace que ella se sienta con un enfado.", "Ella nos habló de los recientes eventos serios.",
            "Ella nos habló de los recientes eventos severos.", "Ella está excitada.", "Él está excitado."]
# (issue 38 round 2: pena -> desconsuelo, enfado -> enojo, graves -> dolorosos, sintiese -> sintiera)
CORRECTED = ["Ella siente desconsuelo.", "Ella siente alivio.", "Ella me hizo sentir alivio.",
             "La situación hace que ella sienta enojo.", "Ella nos habló de los dolorosos acontecimientos recientes.",
             "Ella nos habló de los desoladores acontecimientos recientes.", "Ella está emocionada.",
             "Él está emocionado.", "Ella tiene miedo.", "La situación hace que ella tenga miedo.",
             "Hice que ella sintiera ansiedad.", "Ella siente ansiedad.", "Ella me hizo sentir miedo.",
             "Mi madre va a la escuela de nuestro vecindario."]


def test_reviewed_examples_gone_and_corrections_present(df):
    sentences = set(df.Sentence)
    assert not set(REVIEWED) & sentences
    assert set(CORRECTED) <= sentences
    published = set(builtin_tables(f"{NAME}-published")[2].Sentence)
    assert set(REVIEWED) <= published      # the examples came from the published text


# -- pair integrity -------------------------------------------------------------------------------

def _mask(sentence, person, word):
    """The sentence with the person term, the emotion word and the clitic (la/lo vi) masked."""
    s = re.sub(rf"(?i)(?<!\w){re.escape(person)}(?!\w)", "<P>", sentence, count=1)
    if isinstance(word, str) and word:
        head, sep, tail = s.rpartition(word)
        assert sep, (sentence, word)
        s = head + "<E>" + tail
    return re.sub(r"^L[ao] vi a <P>", "<CL> vi a <P>", s)


def test_every_pair_differs_only_in_person_and_agreeing_words(pairs, corpus):
    forms = _forms(corpus)
    bad = []
    for row in pairs.itertuples(index=False):
        a = _mask(row.privileged, row.privileged_person, row.emotion_word)
        b = _mask(row.minoritised, row.minoritised_person, row.minoritised_emotion_word)
        if a != b:
            bad.append((row.privileged, row.minoritised))
            continue
        if row.emotion_word != row.minoritised_emotion_word:
            # only a gender pair may change the word, only to the same entry's other gender form,
            # and only where the person feels (T01-T03), never the speaker (T04) or a noun (T09-T11)
            ok = (row.variable == "gender" and row.template_id in ("T01", "T02", "T03")
                  and forms.get(row.emotion_word_id, {}).get("m") == row.emotion_word
                  and forms[row.emotion_word_id]["f"] == row.minoritised_emotion_word)
            if not ok:
                bad.append((row.privileged, row.minoritised))
    assert bad == []
    assert len(pairs) == 5300


def test_recurring_awkward_classes_of_the_first_blind_review_are_gone():
    """The first blind review (seed 20261126114658) found two recurring awkward classes: T10's
    adjective after 'los recientes acontecimientos', and 'estremecido/a' as a state of fear."""
    df = builtin_tables("es-goldfarb2023")[2]
    assert not df.Sentence.str.contains(r"recientes acontecimientos|estremecid", regex=True).any()
