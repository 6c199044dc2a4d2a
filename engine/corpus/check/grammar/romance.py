"""E016 — Romance languages: a predicative adjective after a clitic and a verb of feeling
agrees with the experiencer the clitic names, not with the sentence's subject.

*{person} me hizo sentir {adj}*: the adjective describes *me* (the speaker), so it must not
follow the person's gender (*Mi madre me hizo sentir temerosa* makes a gender pair differ in
two words). *{person} se siente {adj}*: *se* is the person, so the adjective must follow the
person's gender rather than be fixed. The rule reads the template: the literal text just before
an emotion slot, and whether that slot agrees with the person slot.
"""
from __future__ import annotations

import re

from engine.corpus.generate.compiled import CVariant

# clitics naming the speaker/hearer (never the 3rd-person {person}) and the reflexive one
_CLITICS = {
    "es": (("me", "te", "nos", "os"), ("se",)),
    "pt": (("me", "te", "nos", "vos"), ("se",)),
    "gl": (("me", "te", "nos", "vos"), ("se",)),
    "it": (("mi", "ti", "ci", "vi"), ("si",)),
    "fr": (("me", "m'", "te", "t'", "nous", "vous"), ("se", "s'")),
    "ca": (("em", "m'", "et", "t'", "ens", "us"), ("es", "s'")),
    "ro": (("mă", "m-", "te", "ne", "vă"), ("se", "s-")),
}
# verbs of feeling (sentir and its relatives), matched at the start of a word
_FEEL = {"es": r"(?:sent|sient|sint)", "pt": r"(?:sent|sint)", "gl": r"(?:sent|sint)", "it": r"sent",
         "fr": r"(?:sen[st]|senti)", "ca": r"sent", "ro": r"(?:simț|simt)"}
LANGUAGES = tuple(_CLITICS)


def _pattern(lang: str) -> re.Pattern[str]:
    personal, reflexive = _CLITICS[lang]
    # a whole-word clitic is followed by a space; an elided one (m', s-) may touch the verb
    clitic = "|".join(re.escape(c) + (r"\s*" if c[-1] in "'-" else r"\s+") for c in personal + reflexive)
    feel = _FEEL[lang]
    # clitic (+ up to two words, e.g. "me hizo", "se ha") + feel verb, then the slot
    proclitic = rf"(?:^|\s)(?P<cl>{clitic})(?:\S+\s+){{0,2}}{feel}\w*"
    if lang in ("fr", "ro"):  # no enclitics on the infinitive
        return re.compile(rf"{proclitic}\s+$", re.IGNORECASE)
    # or the infinitive/gerund with an enclitic ("sentirme", "sentir-se"), then the slot
    enclitic = "|".join(c for c in personal + reflexive if c.isalpha())
    return re.compile(rf"(?:{proclitic}|(?:^|\s){feel}\w*?-?(?P<en>{enclitic}))\s+$", re.IGNORECASE)


def rule_for(lang: str):
    rx = _pattern(lang)
    personal = {c.rstrip("'-") for c in _CLITICS[lang][0]}

    def wrong_referent(cv: CVariant) -> list[tuple[str, str, str]]:
        person = cv.person_slot
        if person is None:
            return []
        out = []
        for slot in cv.parsed.slots:
            if slot.source != "emotion":
                continue
            m = rx.search(cv.parsed.literal_before(slot))
            if not m:
                continue
            clitic = (m.group("cl") or m.groupdict().get("en") or "").strip().lower().rstrip("'-")
            agrees = [k for k, ref in slot.refs.items() if ref.slot == person.name and k in ("gender", "number")]
            if clitic in personal and agrees:
                out.append(("E016", slot.name, f"the adjective describes {clitic!r} (the experiencer), not the "
                            f"person, yet agrees with the person in {', '.join(agrees)}: hold it fixed, e.g. "
                            f"gender=m for the speaker"))
            elif clitic not in personal and "gender" in slot.fixed:
                out.append(("E016", slot.name, f"the adjective describes the person ({clitic!r} is the person) "
                            f"but has a fixed gender={slot.fixed['gender']}: make it agree "
                            f"(gender=person.gender)"))
        return out

    return wrong_referent
