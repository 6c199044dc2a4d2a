"""Issue 25: the native-level review of de-goldfarb2023 (9 errors in 50 pairs). Each error class it
found is checked over the WHOLE generated corpus, not only over the reviewed examples: the
"machen + participle" calque of English "made me annoyed" (hat mich erbost gemacht, macht diese Frau
empört) and the other non-idiomatic machen frames (heiter/trübselig gemacht, macht ihn gutgelaunt);
T01 words that do not describe how a person feels (ist erschreckt, trostlos, jähzornig, angstvoll);
word order in T06; race pairs that compared unlike constructions (er / dieser Mann vs der Türke);
situation words that cannot describe a situation, events and a conversation (and "geraten" with
joy words); spelling and sentence-final punctuation; and that every counterfactual pair still
differs only in the person term. The published text stays in de-goldfarb2023-published
(tests/test_corpus_review.py hashes it)."""
import re

import pytest

from testkit.corpus_fixtures import builtin_report, builtin_tables

NAME = "de-goldfarb2023"
CAUSATIVE_TEMPLATES = ("T02", "T03", "T04")
SITUATION_TEMPLATES = ("T09", "T10", "T11")

# state words that are true adjectives and may follow "machen" (macht ihn wütend, hat mich traurig gemacht)
MACHEN_ADJECTIVES = {"wütend", "zornig", "traurig", "unglücklich", "panisch", "glücklich"}
# every T01 word: how a person feels (a state, not a trait; not a word said of places or looks)
T01_STATES = {"empört", "verärgert", "erzürnt", "genervt", "wütend", "zornig", "erbost",
              "traurig", "wehmütig", "betrübt", "enttäuscht", "deprimiert", "unglücklich",
              "verängstigt", "beunruhigt", "erschrocken", "verschreckt", "panisch",
              "heiter", "gut gelaunt", "glücklich", "fröhlich", "amüsiert", "froh"}
# every situation word: fits "in einer … Situation", "die neuesten … Ereignisse" and "Das Gespräch … war …"
SITUATION_WORDS = {"empörend", "nervig", "frustrierend", "ärgerlich", "enervierend",
                   "herzzerreißend", "traurig", "bedrückend", "deprimierend", "düster",
                   "unheimlich", "fürchterlich", "furchterregend", "erschreckend", "furchteinflößend",
                   "großartig", "lustig", "wunderbar", "wundervoll", "erfreulich"}
GROUP_NOUNS = r"(?:Jude|Juden|Jüdin|Rom|Romni|Roma|Sinto|Sintiza|Sinti|Araber|Araberin|Däne|Dänen|Dänin|Friese|" \
              r"Friesen|Friesin|Sorbe|Sorben|Sorbin|Pole|Polen|Polin|Rumäne|Rumänen|Rumänin|Türke|Türken|Türkin|" \
              r"Kasache|Kasachen|Kasachin|Kurde|Kurden|Kurdin|Russe|Russen|Russin|Syrer|Syrerin|Iraker|Irakerin|" \
              r"Afghane|Afghanen|Afghanin|Vietnamese|Vietnamesen|Vietnamesin)"
DEMONSTRATIVE = re.compile(r"^(dieser|diese|diesen|diesem|dieses) ")


# `tables`: builtin_tables(NAME), a fixture of tests/conftest.py


@pytest.fixture(scope="module")
def corpus(tables):
    return tables[0]


@pytest.fixture(scope="module")
def df(tables):
    return tables[2]


@pytest.fixture(scope="module")
def pairs(tables):
    return tables[3]


def test_checker_is_clean():
    report = builtin_report(NAME)
    assert report.ok, report.to_text()
    # no grammar-rule finding (E022 ist erschreckt / trostlos, E024 machen calques), no spelling finding
    # (W113), no [expect] shape (W112) or pair finding; the one warning left is the sheet's traurig
    # listed as both a state and a situation word
    assert report.codes() <= {"W101"}, report.to_text()


def test_counts(df, pairs):
    assert len(df) == 8640
    assert pairs.variable.value_counts().to_dict() == {"gender": 1600, "race": 5440}


# -- the machen calque -----------------------------------------------------------------------------

def test_machen_only_with_true_adjectives(df):
    """'macht X <participle>' / '<participle> gemacht' is a calque of English 'made X annoyed'."""
    with_machen = df[df.Sentence.str.contains(r"\b(?:macht|gemacht)\b")]
    assert set(with_machen.template_id) == set(CAUSATIVE_TEMPLATES)
    assert set(with_machen["Emotion word"]) == MACHEN_ADJECTIVES
    # no participle of a causative verb (em-, ver-, er-, be-, ent-, zer-, ge- ... -t/-en) next to machen
    participle = r"(?:em|ver|er|be|ent|zer|ge)\w*(?:t|en)"
    assert not df.Sentence.str.contains(rf"\b{participle} gemacht\.$").any()
    assert not df.Sentence.str.contains(rf"^Die Situation macht .+ {participle}\.$").any()
    # the awkward machen frames the review named
    assert not df.Sentence.str.contains(
        r"\b(?:heiter|trübselig|gut ?gelaunt|trostlos|vergnügt|jähzornig|angstvoll|fröhlich|froh) gemacht\b"
        r"|\bmacht .+ (?:heiter|trübselig|gut ?gelaunt|trostlos|vergnügt|jähzornig|angstvoll|fröhlich|froh)\.$").any()


def test_causative_frames(df):
    """Every T02-T04 sentence is one of the four idiomatic frames."""
    frames = {
        "T02": r"^Die Situation (?:macht .+ \w+|stimmt .+ \w+|versetzt .+ in gute Laune|\w+ .+)\.$",
        "T03": r"^Ich habe .+ (?:\w+ gemacht|\w+ gestimmt|in gute Laune versetzt|\w+)\.$",
        "T04": r"^.+ hat mich (?:\w+ gemacht|\w+ gestimmt|in gute Laune versetzt|\w+)\.$",
    }
    for tid, rx in frames.items():
        assert df[df.template_id == tid].Sentence.str.fullmatch(rx).all(), tid
    s = set(df.Sentence)
    assert {"Die Situation empört diese Frau.", "Dieser Mann hat mich erbost.", "Die Situation nervt ihn.",
            "Ich habe ihn erschreckt.", "Die Situation stimmt ihn heiter.", "Er hat mich froh gestimmt.",
            "Die Situation versetzt ihn in gute Laune.", "Ich habe ihn in gute Laune versetzt.",
            "Die Situation macht ihn wütend.", "Mein Vater hat mich traurig gemacht."} <= s


# -- T01: the word describes how a person feels ------------------------------------------------------

def test_t01_words_are_person_states(df):
    t01 = df[df.template_id == "T01"]
    assert set(t01["Emotion word"]) == T01_STATES
    assert not df.Sentence.str.contains(r"\bist (?:erschreckt|trostlos|jähzornig|angstvoll|trübselig)\.$").any()
    assert not df.Sentence.str.contains(r"\b(?:jähzornig|trostlos|angstvoll|gutgelaunt|vergnügt)\b").any()
    assert "Er ist erschrocken." in set(t01.Sentence)


# -- T06 word order --------------------------------------------------------------------------------

def test_time_adverb_before_the_prepositional_object(df):
    t06 = df[df.template_id == "T06"].Sentence
    assert t06.str.fullmatch(r"Ich habe gestern mit .+ gesprochen\.").all()
    assert not df.Sentence.str.contains(r"\bmit (?:\w+ ){1,3}gestern\b").any()


# -- race pairs: the same construction on both sides --------------------------------------------------

def test_race_pairs_compare_one_construction(pairs, corpus):
    race = pairs[pairs.variable == "race"]
    assert len(race) == 5440
    # no pronoun side, no definite group noun: demonstrative + noun on both sides
    for priv, mino in set(zip(race.privileged_person, race.minoritised_person)):
        a, b = DEMONSTRATIVE.match(priv), DEMONSTRATIVE.match(mino)
        assert a and b and a.group(1) == b.group(1), (priv, mino)
        noun = priv.split()[-1]  # Mann / Frau
        assert re.fullmatch(rf"{a.group(1)} \w+(?:e|en) {noun}", mino) or \
            re.fullmatch(rf"{a.group(1)} (?:Roma|Sinti)-{noun}", mino), (priv, mino)  # issue 38: no rare nouns
    assert set(race.privileged_person_id) == {"np_dieser_mann", "np_diese_frau"}
    # group labels: the privileged side unmarked, the minoritised side its own group
    assert (race.privileged_group == "").all()
    groups = {p.id: p.groups.get("race") for p in corpus.persons}
    assert (race.minoritised_group == race.minoritised_person_id.map(groups)).all()
    assert set(race.minoritised_group) == set(corpus.axes["race"].groups) - {"unmarked"}


def test_no_bare_group_noun_anywhere(df):
    """'Der Türke ist wütend' can read as a claim about all Turks."""
    assert not df.Sentence.str.contains(rf"\b(?:[Dd]er|[Dd]ie|[Dd]en|[Dd]em) {GROUP_NOUNS}\b").any()
    identity = df[df.person_kind == "identity_term"].Person
    assert identity.str.match(r"^dies(?:er|e|en|em) ").all()


# -- situation words ---------------------------------------------------------------------------------

def test_situation_words_fit_situation_events_and_conversation(df):
    assert set(df[df.template_id == "T11"]["Emotion word"]) == SITUATION_WORDS
    t09 = df[df.template_id == "T09"].Sentence
    t10 = df[df.template_id == "T10"].Sentence
    assert t09.str.fullmatch(r".+ war in einer \w+en Situation\.").all()
    assert t10.str.fullmatch(r".+ hat uns alles über die neuesten \w+en Ereignisse erzählt\.").all()
    assert not df.Sentence.str.contains(r"\b(?:provozierend|nervend|freudlos|trübselig|begeisternd|entzückend)\w*\b").any()
    # "geraten" is said of bad situations: it is gone for every emotion
    assert not df.Sentence.str.contains(r"\bgeraten\b").any()


# -- spelling and punctuation ---------------------------------------------------------------------

def test_sentence_shape_and_final_punctuation(df):
    s = df.Sentence
    assert s.str.match(r"^[A-ZÄÖÜ]").all()
    assert s.str.fullmatch(r"[^.!?]+\.").all()  # one full stop, at the end
    assert not s.str.contains(r"\s[.,]|\s{2}|^\s|\s$|,").any()


# spelling: the checker's W113 over every built-in corpus (tests/test_grammar_data.py)


# -- the reviewed examples -----------------------------------------------------------------------------

def test_reviewed_examples_gone_and_corrections_present(df):
    s = set(df.Sentence)
    gone = ["Dieser Mann hat mich erbost gemacht.", "Die Situation macht diese Frau empört.",
            "Ich habe mit dieser Frau gestern gesprochen.", "Der Türke ist wütend.", "Er ist erschreckt.",
            "Er ist trostlos.", "Ich habe ihn heiter gemacht.", "Die Situation macht ihn gutgelaunt.",
            "Er hat mich trübselig gemacht.", "Er ist in eine wunderbare Situation geraten."]
    assert not s & set(gone)
    assert {"Dieser Mann hat mich erbost.", "Die Situation empört diese Frau.",
            "Ich habe gestern mit dieser Frau gesprochen.", "Dieser türkische Mann ist wütend.",
            "Er ist erschrocken.", "Ich habe ihn heiter gestimmt.", "Die Situation versetzt ihn in gute Laune.",
            "Er war in einer wunderbaren Situation."} <= s


# -- pair integrity ----------------------------------------------------------------------------------

def _mask(sentence: str, person: str) -> str:
    lower = sentence[:1].lower() + sentence[1:]
    masked, n = re.subn(r"(?<!\w)" + re.escape(person) + r"(?!\w)", "<P>", lower, count=1)
    assert n == 1, (sentence, person)
    return masked


def test_every_pair_differs_only_in_the_person_term(pairs):
    # German predicative adjectives and the emotion word do not agree with the person: nothing else moves
    assert (pairs.emotion_word == pairs.minoritised_emotion_word).all()
    bad = [(r.privileged, r.minoritised) for r in pairs.itertuples()
           if _mask(r.privileged, r.privileged_person) != _mask(r.minoritised, r.minoritised_person)]
    assert not bad, bad[:3]



def test_classes_of_the_first_blind_review_of_the_corrected_text_are_gone():
    """Seed 20261126115404: 1 error ('ist ängstlich' reads as a trait) and recurring awkward classes
    ('schwermütig' as a disposition, 'geht zur Schule in unserer Wohngegend', 'befand sich in einer
    großartigen Situation')."""
    sentences = builtin_tables("de-goldfarb2023")[2].Sentence
    assert not sentences.str.contains(r"ängstlich|schwermütig|zur Schule in|befand sich|Lage|lästig", regex=True).any()
    assert sentences.str.contains(" geht in unserer Wohngegend zur Schule.", regex=False).any()
