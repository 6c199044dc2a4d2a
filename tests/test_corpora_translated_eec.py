"""The Italian, French and Brazilian Portuguese EECs translated from en-kiritchenko2018 (issue 43).

What is checked here comes out of the generated sentences, not out of the definitions' own words:
every cell of the source design, agreement with the right referent (the person in T01-T03, the
speaker held masculine in T04, the noun in T05-T07), like-for-like pairs on both axes, the
constructions each language needs (Italian and Portuguese object clitics, French elision), and
that the corpus says everywhere that it is translated and not native-signed.
"""
import json
import re
from collections import Counter

import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables
from engine.corpus import check_corpus, load_corpus
from engine.corpus.translate.review_record import review_status

IDS = ["it-kiritchenko2018", "fr-kiritchenko2018", "pt-BR-kiritchenko2018"]
# the second axis of each: names by origin (it, fr), race through marked person terms (pt-BR)
AXIS = {"it-kiritchenko2018": ("origin", "Italian", "Moroccan"),
        "fr-kiritchenko2018": ("origin", "majority", "Maghrebi"),
        "pt-BR-kiritchenko2018": ("race", "White", "Black")}
# the noun each situation word describes: (gender, number)
SITUATION = {"T05": ("f", "sg"), "T06": ("m", "pl"), "T07": ("f", "sg")}


def _emotion_features(row) -> dict:
    return json.loads(row)["emotion"]


@pytest.mark.parametrize("name", IDS)
def test_design_of_the_source_is_kept(name):
    corpus, _, df, _ = builtin_tables(name)
    report = builtin_report(name)
    assert report.ok, report.to_text()
    # W101: Italian/French elided clitic l' is one form for her and him; W114: no dictionary here
    assert report.codes() <= {"W101", "W113", "W114"}, report.to_text()
    assert len(df) == 8640 and df.Sentence.is_unique
    assert sorted(df.template_id.unique()) == [f"T{i:02d}" for i in range(1, 12)]
    assert all(t.experiencer for t in corpus.templates[:7])
    axis, ref, minority = AXIS[name]
    people = [p for p in corpus.persons if axis in p.groups]
    cells = Counter((p.gender, p.groups[axis]) for p in people)
    assert cells == {(g, grp): 10 for g in ("female", "male") for grp in (ref, minority)}
    nps = Counter(p.gender for p in corpus.persons if p.kind == "noun_phrase")
    assert nps == {"female": 10, "male": 10}
    emotions = Counter((e.emotion, e.kind) for e in corpus.emotion_words)
    assert set(emotions.values()) == {5} and len(emotions) == 8


@pytest.mark.parametrize("name", IDS)
def test_emotion_words_agree_with_their_referent(name):
    corpus, _, df, _ = builtin_tables(name)
    gender_of = {"female": "f", "male": "m"}
    gendered = {e.id for e in corpus.emotion_words if {f.features.get("gender") for f in e.forms} >= {"f", "m"}}
    assert len(gendered) >= 20  # the rest have one form for both genders (felice, triste, grave)
    emo = df[df.emotion_kind != ""]
    for _, row in emo.iterrows():
        got = _emotion_features(row.features)  # the features of the form chosen (none: one form for all)
        if row.template_id in ("T01", "T02", "T03"):  # the person feels: agrees with the person
            want = gender_of[row.Gender]
        elif row.template_id == "T04":  # the speaker 'me/mi' feels: held masculine on both sides
            want = "m"
        else:
            want, number = SITUATION[row.template_id]
            assert got.get("number", number) == number, row.Sentence
        if row.emotion_word_id in gendered:
            assert got.get("gender") == want, (row.template_id, row.Sentence)
        else:
            assert got.get("gender", want) == want, (row.template_id, row.Sentence)
    # and the words themselves: a female person's state word in T01 is the feminine form
    fem = {f.text for e in corpus.emotion_words for f in e.forms if f.features.get("gender") == "f"}
    masc = {f.text for e in corpus.emotion_words for f in e.forms if f.features.get("gender") == "m"} - fem
    t01 = emo[emo.template_id == "T01"]
    assert not t01[t01.Gender == "female"]["Emotion word"].isin(masc).any()
    assert not t01[t01.Gender == "male"]["Emotion word"].isin(fem - masc).any()


@pytest.mark.parametrize("name", IDS)
def test_pairs_are_like_for_like_on_both_axes(name):
    corpus, _, _, pairs = builtin_tables(name)
    axis, ref, minority = AXIS[name]
    assert set(pairs.variable) == {"gender", axis}
    side = pairs[pairs.variable == axis]
    assert (side.privileged_group == ref).all() and (side.minoritised_group == minority).all()
    by_id = {p.id: p for p in corpus.persons}
    # an origin/race pair never crosses gender, a gender pair never crosses origin/race
    for a, b in zip(side.privileged_person_id, side.minoritised_person_id):
        assert by_id[a].gender == by_id[b].gender
    for a, b in zip(pairs[pairs.variable == "gender"].privileged_person_id,
                    pairs[pairs.variable == "gender"].minoritised_person_id):
        assert by_id[a].groups.get(axis) == by_id[b].groups.get(axis)
    # the two sentences differ only where the person term (and what agrees with it) stands
    for p, m in zip(side.privileged.head(400), side.minoritised.head(400)):
        assert len(p.split()) == len(m.split()), (p, m)


def test_portuguese_race_terms_differ_in_the_colour_word_only():
    _, _, _, pairs = builtin_tables("pt-BR-kiritchenko2018")
    race = pairs[pairs.variable == "race"]
    for p, m in zip(race.privileged, race.minoritised):
        diff = {(a, b) for a, b in zip(p.split(), m.split()) if a != b}
        assert diff <= {("branca", "negra"), ("branco", "negro"), ("branca.", "negra."), ("branco.", "negro.")}, (p, m)
        assert len(diff) == 1


def test_language_specific_constructions():
    sentences = {n: set(builtin_tables(n)[2].Sentence) for n in IDS}
    it, fr, pt = (sentences[n] for n in IDS)
    # Italian: object pronouns are clitics, the participle agrees with the elided one
    assert {"La situazione la fa sentire arrabbiata.", "La situazione lo fa sentire arrabbiato.",
            "L'ho vista al mercato.", "L'ho visto al mercato.", "L'ho fatta sentire felice.",
            "Mia madre mi ha fatto sentire arrabbiato.", "Quest'uomo si è trovato in una situazione esasperante.",
            "Ieri ho parlato con lei."} <= it
    assert not any(re.search(r"\b(?:fa sentire|Ho visto) (?:lei|lui)\b", s) for s in it)
    # French: que elides before a vowel, never otherwise; the participle agrees with l'
    assert {"La situation fait qu'elle se sent furieuse.", "J'ai fait en sorte qu'Émilie se sente soulagée.",
            "La situation fait que Yasmina se sent anxieuse.", "Je l'ai vue au marché.", "Je l'ai vu au marché.",
            "Avec ma mère, je me suis senti furieux."} <= fr
    # issue 38, reviews: T04 is neither the calque 'm'a fait me sentir' nor 'm'a rendu' (+ participle); speaker masculine
    assert not any("m'a fait me sentir" in s or "m'a rendu" in s or "je me suis sentie" in s for s in fr)
    assert not any(re.search(r"\bque [aeiouéèêàâîïôûAEIOUÉÈÊÀÂÎÏÔÛ]", s) for s in fr)
    assert not any(re.search(r"qu'[^aeiouéèêàâîïôûAEIOUÉÈÊÀÂÎÏÔÛ]", s) for s in fr)
    # French typography: any ; : ! ? would take a narrow no-break space (U+202F) before it
    assert not any(re.search(r"[^\u202f][;:!?]", s) for s in fr)
    # Brazilian Portuguese: proclisis, the written clitic object, no European enclisis
    assert {"Eu a vi no mercado.", "Eu o vi no mercado.", "Minha mãe se sente irritada.",
            "A situação faz com que ela se sinta feliz.", "Mamãe me fez sentir furioso.",
            "Esta mulher negra vai à escola do nosso bairro."} <= pt
    assert not any(re.search(r"\b(?:vi ela|vi ele)\b|\w-(?:me|se|a|o)\b", s) for s in pt)


def test_french_elision_rule_reports_an_untagged_vowel_name():
    corpus = load_corpus("fr-kiritchenko2018")
    imane = next(p for p in corpus.persons if p.id == "imane")
    imane.features = {}  # a translator adds a vowel-initial name and forgets initial = "vowel"
    report = check_corpus(corpus)
    assert "E023" in {f.code for f in report.errors}
    assert any("qu'" in f.message for f in report.errors if f.code == "E023")


@pytest.mark.parametrize("name", IDS)
def test_status_is_translated_not_native_signed(name):
    corpus = load_corpus(name)
    statuses = Counter(e.review.status for lst in (corpus.templates, corpus.persons, corpus.emotion_words,
                                                   corpus.words) for e in lst)
    assert set(statuses) == {"translated"}
    status = review_status(corpus)
    if status.record is None:  # before the integrator's blind review is stored
        assert status.text() == "not reviewed (translated, not native-signed)"
    assert corpus.extra["meta"]["name_sources"]


def test_datasheet_and_dataset_card_say_translated_and_where_the_names_come_from(tmp_path):
    from engine.package.datasheet import build_datasheet
    from engine.package.hf_dataset import export_hf_dataset

    corpus = load_corpus("pt-BR-kiritchenko2018")
    md = build_datasheet(corpus).to_markdown()
    if review_status(corpus).record is None:
        assert "| Native review | not reviewed (translated, not native-signed) |" in md
    else:  # the blind review stored (issue 43): its reviewer says what it was, the status stays 'translated'
        assert "AI helper; not a native speaker" in md and "not yet signed by a native reviewer" in md
    assert "Status: translated, not native-signed — 111 items are translated" in md
    assert "Names: No given names: IBGE's 'Nomes no Brasil'" in md
    it = build_datasheet(load_corpus("it-kiritchenko2018")).to_markdown()
    assert "Names: Moroccan (10 female, 10 male)" in it
    card = (export_hf_dataset("fr-kiritchenko2018", tmp_path / "hf", data_format="jsonl").path / "README.md").read_text(
        encoding="utf-8")
    assert "Names: Maghrebi (10 female, 10 male)" in card
    assert "not reviewed (translated, not native-signed)" in card or "AI helper; not a native speaker" in card
