"""Small corpus definitions for checker and generator tests."""
from __future__ import annotations

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
