"""Small corpus definitions for checker and generator tests."""
from __future__ import annotations

from functools import lru_cache

HEADER = '''
format = 1
id = "mini"
language = "en"
capitalize = true

[features]
role = ["subject", "object"]
gender = ["f", "m"]
initial = ["vowel", "consonant"]

[derive.initial]
vowel = "^[aeiouAEIOU]"
consonant = "^[^aeiouAEIOU]"

[axes.gender]
groups = ["female", "male"]
reference = "male"
feature = { female = "f", male = "m" }

[axes.race]
groups = ["A", "B"]
reference = "B"

[[words]]
id = "self"
forms = [{ text = "herself", gender = "f" }, { text = "himself", gender = "m" }]

[[words]]
id = "a"
forms = [{ text = "a", initial = "consonant" }, { text = "an", initial = "vowel" }]
'''

PERSONS = '''
[[persons]]
id = "ann"
kind = "name"
gender = "female"
race = "A"
text = "Ann"

[[persons]]
id = "bob"
kind = "name"
gender = "male"
race = "B"
text = "Bob"

[[persons]]
id = "she"
kind = "noun_phrase"
gender = "female"
forms = [{ text = "she", role = "subject" }, { text = "her", role = "object" }]
pair = "he"

[[persons]]
id = "he"
kind = "noun_phrase"
gender = "male"
forms = [{ text = "he", role = "subject" }, { text = "him", role = "object" }]
pair = "she"
'''

EMOTIONS = '''
[[emotion_words]]
id = "angry"
emotion = "anger"
kind = "state"
text = "angry"

[[emotion_words]]
id = "annoying"
emotion = "anger"
kind = "situation"
text = "annoying"

[[emotion_words]]
id = "grim"
emotion = "sadness"
kind = "situation"
text = "grim"
'''

TEMPLATES = '''
[[templates]]
id = "T1"
text = "{person role=subject} feels {emotion kind=state}."

[[templates]]
id = "T2"
text = "I made {person role=object} feel {emotion kind=state}."

[[templates]]
id = "T3"
text = "{person role=subject} found {self gender=person.gender} in {a initial=next.initial} {emotion kind=situation} situation."

[[templates]]
id = "T4"
text = "I saw {person role=object} in the market."
'''


def mini(persons: str = PERSONS, emotions: str = EMOTIONS, templates: str = TEMPLATES, header: str = HEADER) -> str:
    return header + persons + emotions + templates


@lru_cache(maxsize=None)
def builtin_tables(name: str):
    """(corpus, compiled, sentence table, pair table) of a built-in corpus, built once per test
    session and shared by the pair test modules (the tables are only read, never changed)."""
    from engine.corpus import CompiledCorpus, generate, generate_pairs, load_corpus

    c = load_corpus(name)
    cc = CompiledCorpus(c)
    return c, cc, generate(c, cc), generate_pairs(c, cc)


@lru_cache(maxsize=None)
def builtin_report(name: str):
    """The checker report of a built-in corpus, computed once per test session."""
    from engine.corpus import check_corpus

    c, cc, _, _ = builtin_tables(name)
    return check_corpus(c, cc)


# -- counterfactual pairs ----------------------------------------------------------------------
# mini() plus a male name of the minority race (Carl), a marked identity term (the Turk) whose
# privileged counterpart is the unmarked pronoun, and two [[pairs]] declarations. Together with
# the she~he counterparts of PERSONS: 3 pairs × 5 template/emotion-word cells, no findings.

PAIR_PERSONS = PERSONS + '''
[[persons]]
id = "carl"
kind = "name"
gender = "male"
race = "A"
text = "Carl"

[[persons]]
id = "turk"
kind = "identity_term"
gender = "male"
race = "A"
forms = [{ text = "the Turk", role = "subject" }, { text = "the Turk", role = "object" }]
'''

PAIRS = '''
[[pairs]]
id = "race-names"
variable = "race"
privileged = "bob"
minoritised = "carl"

[[pairs]]
id = "race-marked"
variable = "race"
privileged = "he"
minoritised = "turk"
shared = ["role"]
'''


def mini_pairs(pairs: str = PAIRS, persons: str = PAIR_PERSONS, emotions: str = EMOTIONS,
               templates: str = TEMPLATES, header: str = HEADER) -> str:
    return header + persons + emotions + templates + pairs
