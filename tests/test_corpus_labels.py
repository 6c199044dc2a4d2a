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
    ("ja-goldfarb2023", "label", "label it fear, or use a sadness word", 480),
    ("de-goldfarb2023", "label", "'irritierend' means mainly", 162),
    ("ar-camara2022", "pair", "هذه السيدة ('this lady', honorific)", None),
    # after the blind review with labels shown (round 2): the source list's discouraged/serious/
    # displeasing, Goldfarb-Tarrant's incómodo/impactante, 驚く under joy, trübsinnig gemacht
    ("es-camara2022", "label", "'desalentado/desanimado' (discouraged)", 240),
    ("es-camara2022", "label", "'grave/serio' (serious) expresses no sadness", 180),
    ("es-camara2022", "label", "'desagradable' (unpleasant) and 'incómodo'", 180),
    ("es-goldfarb2023", "label", "'desalentado/desanimado' (discouraged)", 200),
    ("es-goldfarb2023", "label", "'grave/serio' (serious) expresses no sadness", 150),
    ("es-goldfarb2023", "label", "'desagradable' (unpleasant) and 'incómodo'", 250),
    ("es-goldfarb2023", "label", "'impactante' (striking, often positive)", 100),
    ("ar-camara2022", "label", "الإحباط (frustration, dejection)", 150),
    ("ar-camara2022", "label", "خطير ('dangerous, grave') expresses fear", 180),
    ("ja-goldfarb2023", "label", "驚く/驚かせる ('surprise') expresses no joy", 240),
    ("de-goldfarb2023", "lexical", "'trübsinnig' is a lasting disposition", 162),
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


def test_spanish_shocking_is_a_fear_word_in_both_genders_and_serious_is_a_sadness_word():
    df = _df("es-camara2022")
    assert not df.Sentence.str.contains("escandalos").any()
    shocking = df[df.emotion_word_id == "shocking"]
    assert len(shocking) == 180 and (shocking.Emotion == "fear").all()
    assert set(shocking["Emotion word"]) == {"estremecedora", "estremecedores"}  # situación (f sg), acontecimientos (m pl)
    # round 2: serious 'grave/seria' expressed no sadness -> doloroso, agreeing with each noun
    assert not df.Sentence.str.contains(r"\b(?:graves?|seria)\b").any()
    serious = df[df.emotion_word_id == "serious"]
    assert len(serious) == 180 and (serious.Emotion == "sadness").all()
    assert set(serious["Emotion word"]) == {"dolorosa", "dolorosos"}
    assert df.Sentence.str.endswith("fue dolorosa.").sum() == 60


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
    assert t07.str.endswith(" مؤلمة.").sum() == 60
    # round 2: serious خطير/جادة (danger, earnestness) filed as sadness -> محزن/محزنة everywhere
    assert not df.Sentence.str.contains(r"(?:خطير|جادة)").any()
    assert t07.str.endswith(" محزنة.").sum() == 60


# -- round 2: the blind review with labels shown ------------------------------------------------

# corpus, emotion word id, its emotion, the words it must not use, the forms it now has
REPLACED = [
    ("es-camara2022", "discouraged", "fear", r"desalentad", {"atemorizado", "atemorizada"}),
    ("es-camara2022", "displeasing", "anger", r"desagradable", {"enojosa", "enojosos"}),
    ("es-goldfarb2023", "desanimado", "fear", r"desanimad", {"espantado", "espantada"}),
    ("es-goldfarb2023", "serio_sit", "sadness", r"\b(?:seri[oa]|graves)\b", {"dolorosa", "dolorosos"}),
    ("es-goldfarb2023", "desagradable_sit", "anger", r"desagradable", {"enojosa"}),
    ("es-goldfarb2023", "incomodo_sit", "anger", r"incómod", {"exasperante", "exasperantes"}),
    ("es-goldfarb2023", "impactante_sit", "fear", r"impactante", {"aterradora"}),
    ("ar-camara2022", "discouraged", "fear", r"الإحباط", {"الفزع"}),
    ("ja-goldfarb2023", "odoroku", "joy", r"驚", {"ほっとしている", "ほっとする", "ほっとした", "ほっとさせ"}),
    ("fr-kiritchenko2018", "discouraged", "fear", r"découragé", {"inquiet", "inquiète"}),
    ("fr-kiritchenko2018", "fearful", "fear", r"craintif|craintive", {"apeuré", "apeurée"}),
    ("fr-kiritchenko2018", "displeasing", "anger", r"déplaisant", {"exaspérante", "exaspérants"}),
    ("fr-kiritchenko2018", "serious", "sadness", r"\bgraves?\b", {"douloureuse", "douloureux"}),
    ("it-kiritchenko2018", "discouraged", "fear", r"scoraggiat", {"preoccupato", "preoccupata"}),
    ("it-kiritchenko2018", "displeasing", "anger", r"spiacevol", {"esasperante", "esasperanti"}),
    ("it-kiritchenko2018", "serious", "sadness", r"\bgrav[ei]\b", {"dolorosa", "dolorosi"}),
    ("pt-BR-kiritchenko2018", "discouraged", "fear", r"desanimad", {"preocupado", "preocupada"}),
    ("pt-BR-kiritchenko2018", "displeasing", "anger", r"desagradáve", {"enervante", "enervantes"}),
    ("pt-BR-kiritchenko2018", "vexing", "anger", r"incômod", {"exasperante", "exasperantes"}),
    ("pt-BR-kiritchenko2018", "serious", "sadness", r"\bgraves?\b", {"dolorosa", "dolorosos"}),
]


@pytest.mark.parametrize("name,word_id,emotion,gone,forms", REPLACED)
def test_each_mislabelled_word_is_replaced_within_its_emotion(name, word_id, emotion, gone, forms):
    df = _df(name)
    assert not df.Sentence.str.contains(gone).any()
    rows = df[df.emotion_word_id == word_id]
    assert len(rows) and (rows.Emotion == emotion).all()
    assert set(rows["Emotion word"]) == forms
    assert builtin_report(name).ok


@pytest.mark.parametrize("name", ["es-camara2022", "es-goldfarb2023", "ar-camara2022", "fr-kiritchenko2018",
                                  "it-kiritchenko2018", "pt-BR-kiritchenko2018", "ja-goldfarb2023"])
def test_five_or_the_published_number_of_words_per_emotion_and_kind_stay(name):
    """Replacement within the emotion keeps the design balanced (no word moved to another emotion)."""
    corpus = builtin_tables(name)[0]
    published = builtin_tables(name + "-published")[0] if name in {"es-camara2022", "es-goldfarb2023", "ar-camara2022", "ja-goldfarb2023"} else None
    def counts(c):
        out = {}
        for w in c.emotion_words:
            out[(w.emotion, w.kind)] = out.get((w.emotion, w.kind), 0) + 1
        return out
    now = counts(corpus)
    if name == "ja-goldfarb2023":  # round 1 moved 怖がる from sadness to fear; round 2 replaced within joy
        assert now[("joy", "state")] == counts(published)[("joy", "state")] == 6
    elif published is not None:
        assert now == counts(published)
    else:
        assert set(now.values()) == {5}


def test_spanish_goldfarb_is_latin_american_in_every_template():
    df = _df("es-goldfarb2023")
    assert not df.Sentence.str.contains(r"\benfad|\bsintiese\b|\btuviese\b|\bpena\b").any()
    t03 = df[df.template_id == "T03"].Sentence
    assert t03.str.contains(r"\b(?:sintiera|tuviera)\b").all()
    assert df.Sentence.str.contains(r"\benojo\b").sum() and df.Sentence.str.contains(r"\bdesconsuelo\b").sum()


def test_german_bedruecken_has_no_person_as_agent():
    df = _df("de-goldfarb2023")
    assert not df.Sentence.str.contains(r"\b(?:habe|hat)\b.*\bbedrückt\.$").any()
    assert not df.Sentence.str.contains(r"trübsinnig").any()
    t03 = df[df.template_id == "T03"].Sentence
    assert t03.str.contains(r"\benttäuscht\.$").sum() and t03.str.contains(r"\bwehmütig gestimmt\.$").sum()


def test_french_t04_is_avec_x_je_me_suis_senti_with_a_masculine_speaker():
    """Round 2 of the labelled review: 'X m'a rendu agacé/déçu/en colère' is a calque too, so T04 is
    'Avec X, je me suis senti …' (one construction for every state word; the speaker held masculine)."""
    df = _df("fr-kiritchenko2018")
    t04 = df[df.template_id == "T04"].Sentence
    assert not df.Sentence.str.contains(r"m'a fait me sentir|m'a rendu").any()
    assert t04.str.match(r"Avec [^,]+, je me suis senti ").all()
    assert not t04.str.contains(r"je me suis sentie").any()  # the speaker is held masculine


def test_arabic_justin_is_spelled_jastin():
    df = _df("ar-camara2022")
    assert not df.Sentence.str.contains("جستين").any()
    assert df.Sentence.str.contains("جاستن").sum() > 0


# a replaced word put back into the corrected text is an E022 error again
RETURNS = [
    ("fr-kiritchenko2018", '{ text = "inquiète", gender = "f" }, { text = "inquiet", gender = "m" }',
     '{ text = "découragée", gender = "f" }, { text = "découragé", gender = "m" }', "label"),
    ("fr-kiritchenko2018", "je me suis senti {emotion", "m'a fait me sentir {emotion", "lexical"),
    ("it-kiritchenko2018", '{ text = "preoccupata", gender = "f" }, { text = "preoccupato", gender = "m" }',
     '{ text = "scoraggiata", gender = "f" }, { text = "scoraggiato", gender = "m" }', "label"),
    ("pt-BR-kiritchenko2018", '{ text = "preocupada", gender = "f" }, { text = "preocupado", gender = "m" }',
     '{ text = "desanimada", gender = "f" }, { text = "desanimado", gender = "m" }', "label"),
    ("es-goldfarb2023", "se sintiera {emotion", "se sintiese {emotion", "register"),
    ("es-goldfarb2023", 'text = "desconsuelo"', 'text = "pena"', "register"),
    ("de-goldfarb2023", 'text = "enttäuscht"', 'text = "bedrückt"', "lexical"),
]


@pytest.mark.parametrize("name,now,before,cls", RETURNS)
def test_a_replaced_word_cannot_return(tmp_path, name, now, before, cls):
    from pathlib import Path

    from engine.corpus import CompiledCorpus, check_corpus, load_corpus

    lang_dir = name.split("-kiritchenko")[0].split("-goldfarb")[0].split("-camara")[0]
    text = (Path(__file__).resolve().parents[1] / "templates" / lang_dir / f"{name}.toml").read_text(encoding="utf-8")
    assert text.count(now) == 1
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace(now, before), encoding="utf-8")
    corpus = load_corpus(str(path))
    report = check_corpus(corpus, CompiledCorpus(corpus))
    found = [f for f in report.findings if f.code == "E022" and f"[{cls}]" in str(f)]
    assert found and not report.ok, report.to_text()[:2000]
