"""Arabic: E017 bare adjective after a verb of feeling, E018 object pronoun with a noun object.

E017 — شعر/أحسّ/انفعل take their feeling with بـ + noun (يشعر بالحزن) or, at most, an
accusative adjective (يشعر حزينًا); a bare adjective (*يشعر حزين*, *جعلني أشعر مسرور*) is
ungrammatical. The rule looks at an emotion slot that follows such a verb directly.

E018 — a verb (or preposition) that already carries an object pronoun cannot also take the
noun: *الموقف جعله زوجي يشعر*, *رأيته أحمد*, *تحدثت معه أحمد*. The rule looks at the word
right before the person slot: a 3rd-person pronoun suffix there, when the verb is not the first
word of the sentence (verb-first *جعله زوجي* "my husband made him" is well-formed) or the word
is a preposition, is the fault.
"""
from __future__ import annotations

import re

from engine.corpus.check.messages import said
from engine.corpus.generate.compiled import CVariant

# شعر / أحسّ / انفعل in their common persons and tenses (a whole word: حسن is a name, not حسّ)
_FEEL_VERB = re.compile(r"(?:^|\s)(?:[يتأن]?شعر(?:ت|تم|نا|وا|ون|ين|ن)?|[يتأن]حس\u0651?(?:ون|ين)?|أحسس?\u0651?(?:ت|نا)?"
                        r"|[يتأن]نفعل(?:ون|ين)?|انفعل(?:ت|نا|وا)?)\s+$")
_ACCUSATIVE = ("\u064b\u0627", "\u0627\u064b", "\u0629\u064b", "\u0621\u064b", "\u0649\u064b")  # ًا اً ةً ءً ىً
_SUFFIXED = re.compile(r"(\S+?)(ه|ها|هم|هما|هن)\s+$")
_PREPOSITIONS = ("مع", "ل", "عن", "ب", "إلي", "الي", "علي", "في", "من", "عند", "لدي")
_NOT_SUFFIXED = {"هذه", "هاته", "الله", "إنه", "انه", "أنه", "لأنه", "لانه", "كأنه"}


def bare_adjective_after_feel_verb(raw: str, spans: dict[str, tuple[int, int]], cv: CVariant) -> list[tuple[str, str, str]]:
    out = []
    for slot in cv.parsed.slots:
        if slot.source != "emotion":
            continue
        start, end = spans[slot.name]
        m = _FEEL_VERB.search(raw[:start])
        word = raw[start:end]
        if m and not word.startswith("ب") and not word.split()[0].endswith(_ACCUSATIVE):
            out.append(("E017", slot.name, said("E017.bare")))
    return out


def pronoun_with_noun_object(raw: str, spans: dict[str, tuple[int, int]], cv: CVariant) -> list[tuple[str, str, str]]:
    if cv.person_slot is None:
        return []
    start = spans[cv.person_slot.name][0]
    before = raw[:start]
    m = _SUFFIXED.search(before)
    if not m:
        return []
    word = m.group(0).strip()
    if word in _NOT_SUFFIXED:
        return []
    stem = m.group(1)
    sentence_initial = not before[: m.start()].strip()
    preposition = stem in _PREPOSITIONS
    if sentence_initial and not preposition:
        return []
    return [("E018", cv.person_slot.name, said("E018.pronoun", pronoun=m.group(2), stem=stem))]
