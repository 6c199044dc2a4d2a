"""E016 — whose emotion is it: the emotion word agrees with the referent that feels it.

Why declared: *{person} me hizo sentir {adj}*, *{person} deixou-me {adj}*, *{person} hat mich
{adj} gemacht*, *{person} جعلني أشعر ب{adj}*: the adjective describes the speaker, not the person,
so it must not follow the person's gender — a gender pair would then differ in two words and
the gender coefficient measure the speaker's gender too. A template declares the referent
(``experiencer = "person" | "speaker" | "third" | "noun"``); where it does not, it is inferred:
the speaker when the literal text has a first-person pronoun with a feel/make verb of the
corpus language (``speaker`` patterns in languages/<lang>.toml), a noun for situation words,
else the person. The speaker's grammatical gender is one corpus setting
(``speaker_gender``), held constant across every template and both sides of every pair.
"""
from __future__ import annotations

from typing import Any

from engine.corpus.generate.compiled import CVariant
from engine.corpus.definition.model import CorpusDefinition, Template
from engine.corpus.check.grammar.language_data import language_data
from engine.corpus.check.messages import Said, said

WHO = {"speaker": "the speaker", "third": "a third party", "noun": "the noun it describes", "person": "the person"}


def literal_text(cv: CVariant) -> str:
    """The template's own words, each slot as ``{}`` (what the speaker patterns read)."""
    return "".join(p if isinstance(p, str) else "{}" for p in cv.parsed.pieces)


def speaker_detected(cv: CVariant, language: str) -> bool:
    lit = literal_text(cv)
    return any(rx.search(lit) for rx in language_data(language).speaker)


def experiencer(template: Template, cv: CVariant, language: str) -> tuple[str, bool]:
    """(referent, declared): the template's declaration, else the inferred referent."""
    if template.experiencer:
        return template.experiencer, True
    slot = cv.emotion_slot
    if slot is None:
        return "", False
    if speaker_detected(cv, language):
        return "speaker", False
    if slot.fixed.get("kind") == "situation":
        return "noun", False
    return "person", False


def wrong_referent(corpus: CorpusDefinition, template: Template, cv: CVariant) -> list[tuple[str, str, Said]]:
    person, slot = cv.person_slot, cv.emotion_slot
    if person is None or slot is None:
        return []
    exp, declared = experiencer(template, cv, corpus.language)
    detected = speaker_detected(cv, corpus.language)
    agrees = [k for k, ref in slot.refs.items() if ref.slot == person.name and k in ("gender", "number")]
    speaker_gender = corpus.speaker_gender or "m"
    out = []
    if agrees and (exp != "person" or detected):
        role = "speaker" if detected and exp == "person" else exp
        if exp == "speaker" or detected:
            fix = (f"hold it at the corpus's speaker gender ({slot.name} gender={speaker_gender}, "
                   f"speaker_gender in the corpus settings) and declare experiencer = \"speaker\"")
        elif exp == "noun":
            fix = "agree with that noun (fixed features, e.g. gender=f for 'situación')"
        else:
            fix = "hold its features fixed for that referent"
        what = "declared" if declared and not (detected and exp == "person") else "the sentence makes"
        out.append(("E016", slot.name, said("E016.describes_other", who=role, who_text=WHO[role], what=what,
                                            features=", ".join(agrees), fix=fix)))
    fixed_gender = slot.fixed.get("gender")
    if exp == "speaker" and corpus.speaker_gender and fixed_gender and fixed_gender != corpus.speaker_gender:
        out.append(("E016", slot.name, said("E016.speaker_gender", gender=fixed_gender, speaker=corpus.speaker_gender)))
    if exp == "person" and declared and fixed_gender and not agrees:
        out.append(("E016", slot.name, said("E016.fixed_gender", gender=fixed_gender)))
    return out


def template_experiencer(corpus: CorpusDefinition, template: Any) -> str:
    """Who feels the template's emotion word: its declaration, else what the checker infers (E016)."""
    if template.experiencer:
        return template.experiencer
    from engine.corpus.generate.compiled import CVariant, _dependency_order
    from engine.corpus.definition.template_syntax import TemplateSyntaxError, parse_template

    for v in template.variants[:1]:
        try:
            parsed = parse_template(v.text)
        except TemplateSyntaxError:
            return ""
        order, _err = _dependency_order(parsed)
        slots = parsed.slots
        cv = CVariant(v, parsed, order, next((s for s in slots if s.source == "person"), None),
                      next((s for s in slots if s.source == "emotion"), None))
        return experiencer(template, cv, corpus.language)[0]
    return ""
