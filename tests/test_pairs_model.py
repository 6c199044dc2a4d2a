"""Pairs in the corpus model: declarations, the pair checks (E013-E015, W110, W111) and the pair table."""
import json

import pytest

from testkit.corpus_fixtures import EMOTIONS, HEADER, PAIR_PERSONS, PAIRS, PERSONS, TEMPLATES, mini_pairs
from engine.corpus import (PAIR_COLUMNS, DefinitionError, check_corpus, generate, generate_group_comparisons,
                           generate_pairs, parse_definition)


def report(text: str):
    return check_corpus(parse_definition(text, "pairs.toml"))


def pairs_of(text: str):
    return generate_pairs(parse_definition(text, "pairs.toml"))


def test_declared_pairs_parse():
    c = parse_definition(mini_pairs())
    assert [(p.id, p.variable, p.privileged, p.minoritised, p.shared) for p in c.pairs] == [
        ("race-names", "race", ["bob"], ["carl"], []), ("race-marked", "race", ["he"], ["turk"], ["role"])]


def test_clean_pair_fixture():
    rep = report(mini_pairs())
    assert rep.findings == [], rep.to_text()
    # she~he (from the persons' `pair`), bob~carl, he~turk: × (T1: 1 + T2: 1 + T3: 2 + T4: 1) cells
    assert rep.pairs == 15
    df = pairs_of(mini_pairs())
    assert len(df) == 15
    assert df.variable.value_counts().to_dict() == {"race": 10, "gender": 5}
    assert list(df.columns[:len(PAIR_COLUMNS)]) == PAIR_COLUMNS


def test_pair_rows_content():
    df = pairs_of(mini_pairs())
    row = df[(df.person_pair == "race-marked") & (df.template_id == "T2")].iloc[0]
    assert (row.privileged, row.minoritised) == ("I made him feel angry.", "I made the Turk feel angry.")
    assert (row.privileged_person, row.minoritised_person) == ("him", "the Turk")
    assert (row.emotion, row.emotion_word, row.variable) == ("anger", "angry", "race")
    # the unmarked privileged side (Blodgett et al.): no race group on 'he', a marked minoritised side
    assert (row.privileged_group, row.minoritised_group) == ("", "A")
    assert json.loads(row.features) == {"person": {"role": "object"}}  # what both sides asked for
    row = df[(df.person_pair == "race-names") & (df.template_id == "T3") & (df.emotion_word == "annoying")].iloc[0]
    assert (row.privileged, row.minoritised) == ("Bob found himself in an annoying situation.",
                                                 "Carl found himself in an annoying situation.")
    assert json.loads(row.features)["self"] == {"gender": "m"}
    neutral = df[df.template_id == "T4"]
    assert set(neutral.emotion) == {""} and set(neutral.emotion_word) == {""}
    gender = df[df.variable == "gender"]
    assert set(gender.person_pair) == {"he~she"}
    assert (gender.privileged_group == "male").all() and (gender.minoritised_group == "female").all()
    # IDs point into the sentence table
    sentences = generate(parse_definition(mini_pairs())).set_index("ID").Sentence
    assert (sentences.loc[df.privileged_id].values == df.privileged.values).all()
    assert (sentences.loc[df.minoritised_id].values == df.minoritised.values).all()


def test_pair_table_is_deterministic():
    a, b = pairs_of(mini_pairs()), pairs_of(mini_pairs())
    assert a.equals(b)
    assert list(a.pair_id) == [f"mini-P{i:05d}" for i in range(15)]


def test_cross_expansion_pairs_terms_that_agree_on_other_axes():
    persons = PAIR_PERSONS + '''
[[persons]]
id = "turkin"
kind = "identity_term"
gender = "female"
race = "A"
forms = [{ text = "the Turkish woman", role = "subject" }, { text = "the Turkish woman", role = "object" }]
'''
    pairs = '''
[[pairs]]
id = "race"
variable = "race"
privileged = ["he", "she"]
minoritised = ["turk", "turkin"]
match = "cross"
'''
    df = pairs_of(mini_pairs(pairs=pairs, persons=persons))
    assert set(df.person_pair) - {"he~she"} == {"race/he~turk", "race/she~turkin"}  # never he~turkin: gender differs
    assert "She found herself in a grim situation." in set(df.privileged)
    assert "The Turkish woman found herself in a grim situation." in set(df.minoritised)


def test_zip_expansion_and_single_side_broadcast():
    pairs = '''
[[pairs]]
id = "z"
variable = "race"
privileged = "bob"
minoritised = ["carl", "turk"]
'''
    text = mini_pairs(pairs=pairs)
    df = pairs_of(text)
    assert set(df.person_pair) - {"he~she"} == {"z/bob~carl"}
    # bob~turk is declared too, but the name has no role forms and 'the Turk' has: not the same grammar
    assert any(f.code == "E014" and f.person == "bob~turk" and "role=(none) vs role=subject" in f.message
               for f in report(text).findings)


# -- E013: declarations that cannot be used ------------------------------------------------------

@pytest.mark.parametrize("pairs,needle", [
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "bob"\nminoritised = "nobody"\n', "no person with id 'nobody'"),
    ('[[pairs]]\nid = "x"\nvariable = "religion"\nprivileged = "bob"\nminoritised = "carl"\n', "not an axis"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = ["bob", "he"]\nminoritised = ["carl", "turk", "ann"]\n',
     "equal length"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "bob"\nminoritised = "bob"\n', "on both sides"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "bob"\nminoritised = "carl"\n'
     '[[pairs]]\nid = "y"\nvariable = "race"\nprivileged = "bob"\nminoritised = "carl"\n', "declared twice"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = ["bob"]\nminoritised = ["ann"]\nmatch = "cross"\n',
     "cross yields no pair"),
])
def test_e013(pairs, needle):
    rep = report(mini_pairs(pairs=pairs))
    found = [f for f in rep.findings if f.code == "E013"]
    assert found and any(needle in f.message for f in found), rep.to_text()
    assert "E013" not in report(mini_pairs()).codes()


def test_e005_shared_feature_not_declared():
    rep = report(mini_pairs(pairs=PAIRS.replace('shared = ["role"]', 'shared = ["case"]')))
    assert any(f.code == "E005" and "shared feature 'case'" in f.message for f in rep.findings)


# -- E015: the two sides must contrast privileged and minoritised on the variable alone ---------

@pytest.mark.parametrize("priv,mino,needle", [
    ("carl", "bob", "swapped"),  # the English sheet's male race rows
    ("turk", "he", "only the privileged side may be unmarked"),
    ("carl", "turk", "both sides are 'A'"),
    ("bob", "ann", "sides also differ on gender"),
])
def test_e015(priv, mino, needle):
    pairs = f'[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "{priv}"\nminoritised = "{mino}"\n'
    text = mini_pairs(pairs=pairs)
    rep = report(text)
    found = [f for f in rep.findings if f.code == "E015"]
    assert found and any(needle in f.message for f in found), rep.to_text()
    assert not (pairs_of(text).person_pair == "x").any()  # never emitted


# -- E014: both sides realise every slot with the same features --------------------------------

def test_e014_case_mismatch():
    """A minoritised term without the role (case) the slot asks for: 'him' vs an untagged form."""
    persons = PAIR_PERSONS.replace('forms = [{ text = "the Turk", role = "subject" }, { text = "the Turk", role = "object" }]',
                                   'text = "the Turk"')
    text = mini_pairs(persons=persons)
    rep = report(text)
    e014 = [f for f in rep.findings if f.code == "E014"]
    assert e014 and {f.template for f in e014} == {"T1", "T2", "T3", "T4"}
    f = next(f for f in e014 if f.template == "T2")
    assert f.person == "he~turk" and f.slot == "person"
    assert "role=object vs role=(none)" in f.message and "'him' vs 'the Turk'" in f.message
    assert not (pairs_of(text).person_pair == "race-marked").any()


def test_e014_article_mismatch():
    """'an Englishman' vs 'a Pole': the article follows the person's initial, not the variable."""
    persons = PERSONS + '''
[[persons]]
id = "englishman"
kind = "identity_term"
gender = "male"
race = "B"
text = "Englishman"

[[persons]]
id = "pole"
kind = "identity_term"
gender = "male"
race = "A"
text = "Pole"
'''
    templates = '''
[[templates]]
id = "M"
text = "I saw {a initial=next.initial} {person kind=identity_term} today."
'''
    pairs = '[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "englishman"\nminoritised = "pole"\n'
    text = mini_pairs(pairs=pairs, persons=persons, templates=templates)
    rep = report(text)
    e014 = {f.slot: f.message for f in rep.findings if f.code == "E014"}
    assert "initial=vowel vs initial=consonant" in e014["a"] and "'an' vs 'a'" in e014["a"]
    assert "'Englishman' vs 'Pole'" in e014["person"]  # the person feature the article agrees with
    assert set(generate(parse_definition(text)).Sentence) == {"I saw an Englishman today.", "I saw a Pole today."}
    assert (pairs_of(text).person_pair != "x").all()
    # same initial sound: a clean pair
    clean = text.replace('text = "Englishman"', 'text = "Briton"')
    assert "E014" not in report(clean).codes()
    assert (pairs_of(clean).person_pair == "x").sum() == 1


def test_e014_template_variant_mismatch():
    """A plural minoritised term ('the Roma' for a singular person) takes another template variant."""
    header = HEADER.replace('initial = ["vowel", "consonant"]', 'initial = ["vowel", "consonant"]\nnumber = ["sg", "pl"]')
    persons = PERSONS + '''
[[persons]]
id = "roma"
kind = "identity_term"
gender = "male"
race = "A"
features = { number = "pl" }
forms = [{ text = "the Roma", role = "subject" }, { text = "the Roma", role = "object" }]
'''
    templates = '''
[[templates]]
id = "V"
select = { number = "person.number" }
variants = [{ text = "{person role=subject} is here." }, { number = "pl", text = "{person role=subject} are here." }]
'''
    pairs = '[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "he"\nminoritised = "roma"\n'
    rep = report(mini_pairs(pairs=pairs, persons=persons, templates=templates, header=header))
    f = next(f for f in rep.findings if f.code == "E014")
    assert "different template variants" in f.message and f.template == "V"


def test_shared_features_are_compared_even_when_no_slot_asks():
    templates = '[[templates]]\nid = "S"\ntext = "{person kind=identity_term} came."\n'
    persons = PERSONS + '''
[[persons]]
id = "him"
kind = "identity_term"
gender = "male"
forms = [{ text = "him", role = "object" }]

[[persons]]
id = "turk"
kind = "identity_term"
gender = "male"
race = "A"
forms = [{ text = "the Turk", role = "subject" }]
'''
    base = '[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "him"\nminoritised = "turk"\n'
    plain = report(mini_pairs(pairs=base, persons=persons, templates=templates))
    assert "E014" not in plain.codes() and plain.pairs == 1
    shared = report(mini_pairs(pairs=base + 'shared = ["role"]\n', persons=persons, templates=templates))
    assert any(f.code == "E014" and "role=object vs role=subject" in f.message for f in shared.findings)


def test_agreement_with_the_variable_is_not_a_mismatch():
    """Spanish 'él está enfadado' / 'ella está enfadada': the emotion word agrees with the gender."""
    emotions = EMOTIONS.replace('text = "angry"', 'forms = [{ text = "angrier", gender = "f" }, { text = "angry", gender = "m" }]', 1)
    templates = TEMPLATES.replace("{emotion kind=state}.", "{emotion kind=state gender=person.gender}.")
    text = mini_pairs(emotions=emotions, templates=templates)
    rep = report(text)
    assert not {"E014", "W110"} & rep.codes(), rep.to_text()
    df = pairs_of(text)
    row = df[(df.variable == "gender") & (df.template_id == "T1")].iloc[0]
    assert (row.privileged, row.minoritised) == ("He feels angry.", "She feels angrier.")
    assert (row.emotion_word, row.minoritised_emotion_word) == ("angry", "angrier")
    # ... but in a race pair the same word may not change: bob and carl are both male, it does not


# -- W110 / W111 -------------------------------------------------------------------------------

def test_w110_length_beyond_the_person_term():
    emotions = EMOTIONS.replace('text = "angry"', 'forms = [{ text = "very angry", gender = "f" }, { text = "angry", gender = "m" }]', 1)
    templates = TEMPLATES.replace("{emotion kind=state}.", "{emotion kind=state gender=person.gender}.")
    text = mini_pairs(emotions=emotions, templates=templates)
    rep = report(text)
    w110 = [f for f in rep.findings if f.code == "W110"]
    assert {(f.template, f.person) for f in w110} == {("T1", "he~she"), ("T2", "he~she")}
    assert "'He feels angry.' vs 'She feels very angry.'" in next(f.message for f in w110 if f.template == "T1")
    assert rep.ok and rep.pairs == 15  # a warning: the pairs are kept, and reported
    assert "W110" not in report(mini_pairs()).codes()
    # a longer person term alone is not a length problem: 'he' vs 'the Turk'
    assert not any(f.code == "W110" and "turk" in f.person for f in rep.findings)


def test_w111_one_side_missing():
    persons = PAIR_PERSONS.replace('forms = [{ text = "she", role = "subject" }, { text = "her", role = "object" }]',
                                   'forms = [{ text = "she", role = "subject" }]')
    rep = report(mini_pairs(persons=persons))
    w111 = [f for f in rep.findings if f.code == "W111"]
    assert {f.template for f in w111} == {"T2", "T4"} and all(f.person == "he~she" for f in w111)
    assert "E001" in rep.codes()
    assert rep.pairs == 15 - 2
    assert "W111" not in report(mini_pairs()).codes()


# -- loader --------------------------------------------------------------------------------------

@pytest.mark.parametrize("pairs,field", [
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "bob"\n', "pairs[0]"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = 3\nminoritised = "carl"\n', "pairs[0].privileged"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = []\nminoritised = "carl"\n', "pairs[0].privileged"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "bob"\nminoritised = "carl"\nmatch = "all"\n', "pairs[0].match"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "bob"\nminoritised = "carl"\nshared = "role"\n', "pairs[0].shared"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "bob"\nminoritised = "carl"\nside = "left"\n', "pairs[0]"),
    ('[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "bob"\nminoritised = "carl"\n'
     '[[pairs]]\nid = "x"\nvariable = "race"\nprivileged = "he"\nminoritised = "turk"\n', "pairs[1].id"),
])
def test_malformed_pair_declarations(pairs, field):
    with pytest.raises(DefinitionError) as info:
        parse_definition(mini_pairs(pairs=pairs), "p.toml")
    assert info.value.field.startswith(field), (info.value.field, str(info.value))
    assert "\n" not in str(info.value)


def test_group_comparisons_on_the_fixture():
    df = generate_group_comparisons(parse_definition(mini_pairs()))
    # race per gender: male (bob B vs carl A), none for female (no name of race B);
    # gender per race: A (carl vs ann), none for B (no female name)
    assert df.groupby(["variable", "within"]).size().to_dict() == {("gender", "race=A"): 5, ("race", "gender=male"): 5}
    row = df[(df.variable == "race") & (df.template_id == "T1")].iloc[0]
    assert (row.privileged_group, row.minoritised_group, row.n_privileged, row.n_minoritised) == ("B", "A", 1, 1)
