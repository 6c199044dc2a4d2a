"""Agreement the checker knows instead of trusting (codes E026-E030).

Why: a slot that agrees (``gender=person.gender``, the speaker's fixed gender, any declared
feature) used to be satisfied by whatever the translator typed. One form typed for *furioso* (a
form without a feature serves every value), the tags swapped (f = *furioso*, m = *furiosa*), a
translation-memory insert that replaced two forms with one, or "arrabbiata / arrabbiato" stored as
one form all generated "Ebony si sente furioso." with no finding. The language's inflection data
(grammar/languages/inflection/<lang>.toml) now says what each form reads as:

- E026 a needed form is missing: a slot asks for ``gender=f`` and the only form (*furioso*) reads
  masculine. Such an item is not *translated* (progress counts it as left to do).
- E027 a form holds two forms joined by a separator ("a / b"): one row per form.
- E028 a form contradicts the data: tags swapped, the same text under two values where the
  language has two forms, a form tagged feminine that reads masculine.
- E029 a name in a slot that asks for a case has no declension class (or one the data does not know).
- E030 a person slot in a frame that governs a case (the object of جعل, رأى) does not ask for it.

The messages are in ``MESSAGES``, one place; each finding carries its parameters in its fields
(item, template, slot, wanted = the missing or expected features, available = the forms).
A form whose reading the data cannot tell (a phrase, an ending not listed) is trusted.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from engine.corpus.check.findings import Finding
from engine.corpus.check.grammar.inflection import BASE, OTHER, Inflection, inflection
from engine.corpus.definition.model import CorpusDefinition, Form
from engine.corpus.definition.template_syntax import readable_slots
from engine.corpus.generate.needed_forms import asked_features, slot_applies, missing_combinations, needed_combinations

SEPARATOR = re.compile(r"\s*[/|]\s*")
LISTS = ("persons", "emotion_words", "words")
_LIST_LABEL = {"persons": "person", "emotion_words": "emotion word", "words": "word"}

def message(key: str, **params: Any):
    """The finding's message as data (engine.corpus.check.messages: English and interface sentence)."""
    from engine.corpus.check.messages import said

    return said(key, **params)


def english(key: str, **params: Any) -> str:
    from engine.corpus.check.messages import MESSAGES

    return MESSAGES[key].en.format(**params)


def _two_in_one(text: str, language: str = "") -> tuple[str, str] | None:
    """(separator, example) when ``text`` holds two forms ("arrabbiata / arrabbiato"), else None; with
    the language's data the example tags each part as the data reads it."""
    m = SEPARATOR.search(text.strip())
    parts = [p for p in SEPARATOR.split(text.strip()) if p]
    if m is None or len(parts) < 2:
        return None
    example = ""
    for a in inflection(language).agreement if language and len(parts) == 2 else ():
        sides = [a.read(p) for p in parts]
        if sorted(sides) == sorted([BASE, OTHER]):
            example = " (" + ", ".join(f"{a.feature}={a.base if s == BASE else a.other}: {p!r}"
                                       for p, s in sorted(zip(parts, sides), key=lambda x: x[1] != BASE)) + ")"
            break
    return m.group(0).strip(), example


def separator_problem(text: str, language: str = "") -> str:
    """Why ``text`` cannot be one form ('' when it can): "arrabbiata / arrabbiato" is two forms."""
    two = _two_in_one(text, language)
    return "" if two is None else english("E027", text=text, sep=two[0], example=two[1])


# -- which forms the templates ask for ----------------------------------------------------------------
@dataclass
class Ask:
    template: str
    slot: str
    combo: dict[str, str]
    agrees: str  # the feature the slot agrees on ("" = fixed features only)


def template_slots(corpus: CorpusDefinition) -> list[tuple[Any, Any, Any, dict[str, dict[str, list[str]]]]]:
    """(template, variant, slot, what it asks of each list) of every readable template variant:
    computed once per check or progress count, then matched against each entry."""
    data = _data_features(inflection(corpus.language))
    out = []
    for t, v, s in readable_slots(corpus.templates):
        asked = {name: {k: vals for k, vals in asked_features(corpus, name, s).items() if k in data or k in s.refs}
                 for name in LISTS}
        out.append((t, v, s, asked))
    return out


def _entry_value(corpus: CorpusDefinition, list_name: str, entry: Any, source: str, feature: str) -> str | None:
    """The value a variant selector (``select = {verb = "emotion.verb"}``) reads from ``entry``."""
    if list_name == "emotion_words" and source == "emotion":
        return entry.features.get(feature, {"kind": entry.kind, "emotion": entry.emotion}.get(feature))
    if list_name == "persons" and source == "person":
        feats = {a: corpus.axes[a].feature_values[g] for a, g in entry.groups.items()
                 if a in corpus.axes and g in corpus.axes[a].feature_values}
        return {**entry.groups, **feats, **entry.features}.get(feature)
    return "*"  # the selector reads another slot: any variant may be chosen


def _variant_applies(corpus: CorpusDefinition, list_name: str, entry: Any, t: Any, v: Any) -> bool:
    for feat, ref in t.select.items():
        source, _, f = ref.partition(".")
        value = _entry_value(corpus, list_name, entry, source, f)
        if value != "*" and v.features.get(feat) != value:
            return False
    return True


def asks(corpus: CorpusDefinition, list_name: str, entry: Any, slots: list | None = None) -> list[Ask]:
    """Every combination of agreement features (those the language's inflection data describes, or
    one the slot agrees on) a template slot asks of ``entry``; the first asker of each is kept.
    Other features (a German verb form, a frame) are E001's business at realisation."""
    own = set(getattr(entry, "features", {}) or {})
    if list_name == "persons":
        own |= {a for a in corpus.axes if a in corpus.features}
    out: dict[tuple, Ask] = {}
    for t, v, slot, asked_of in slots if slots is not None else template_slots(corpus):
        if not asked_of[list_name] or not slot_applies(corpus, list_name, entry, slot) or not _variant_applies(
                corpus, list_name, entry, t, v):
            continue
        asked = {k: vals for k, vals in asked_of[list_name].items() if k not in own}
        agrees = next((k for k in slot.refs if k in asked), "")
        keys = sorted(asked)
        for values in itertools.product(*(asked[k] for k in keys)):
            combo = dict(zip(keys, values))
            if combo:
                out.setdefault(tuple(combo.items()), Ask(t.id, slot.name, combo, agrees))
    return list(out.values())


def _covers(infl: Inflection, form: Form, combo: dict[str, str]) -> bool:
    """Whether ``form`` may fill a slot asking ``combo``: its tags match, and where it has no tag
    the data reads it as serving that value too (or cannot tell: the translator is trusted)."""
    if not (form.text.strip() or form.absent):
        return False
    if SEPARATOR.search(form.text):
        return all(form.features.get(k, v) == v for k, v in combo.items())  # two forms in one: E027 says it
    for k, v in combo.items():
        if k in form.features:
            if form.features[k] != v:
                return False
            continue
        if form.absent:
            continue
        expected = infl.expected(form.text.strip(), k, v, {**form.features, **combo})
        if expected is not None and expected.lower() != form.text.strip().lower():
            return False
    return True


def _expected_text(infl: Inflection, forms: list[Form], combo: dict[str, str]) -> str:
    """The form the data predicts for ``combo`` from the forms there are ('' if it cannot tell)."""
    for f in forms:
        if f.absent or not f.text.strip() or SEPARATOR.search(f.text):
            continue
        if any(f.features.get(k, v) != v for k, v in combo.items() if k not in _data_features(infl)):
            continue
        text = f.text.strip()
        for k, v in combo.items():
            if k in f.features and f.features[k] == v:
                continue
            text = infl.expected(text, k, v, {**f.features, **combo}) or ""
            if not text:
                break
        if text:
            return text
    return ""


def _data_features(infl: Inflection) -> set[str]:
    return {a.feature for a in infl.agreement}


@dataclass
class Gap:
    """A needed form no form covers: the first slot asking for it and what the data predicts."""

    combo: dict[str, str]
    template: str
    slot: str
    agrees: str
    expected: str


def required_gaps(corpus: CorpusDefinition, list_name: str, entry: Any, slots: list | None = None) -> list[Gap]:
    """The combinations a slot asks of ``entry`` that only a form the language says cannot serve
    would fill (E026: *furioso*, untagged, for gender=f). An entry without any form is untranslated
    (E012), not a gap; nor is one marked untranslatable; a combination no form claims is E001."""
    if list_name not in LISTS or entry.review.status == "untranslatable":
        return []
    forms = [f for f in entry.forms if f.text.strip() or f.absent]
    if not forms:
        return []
    infl = inflection(corpus.language)
    gaps = []
    for ask in asks(corpus, list_name, entry, slots):
        # a combination no form even claims is E001's (the form editor shows its empty row); E026 is
        # the form without a tag the generator would use for it although the language says otherwise
        claimed = any(all(f.features.get(k, v) == v for k, v in ask.combo.items()) for f in forms)
        if claimed and not any(_covers(infl, f, ask.combo) for f in forms):
            gaps.append(Gap(ask.combo, ask.template, ask.slot, ask.agrees, _expected_text(infl, forms, ask.combo)))
    return gaps


def missing_forms(corpus: CorpusDefinition, list_name: str, entry: Any, source_entry: Any = None) -> list[dict[str, str]]:
    """The needed feature combinations no form covers: the rows the form editor shows empty, plus
    the combinations a form without a tag cannot serve by the language's data (*furioso* for
    gender=f). An item with any is not *translated* (``progress.auto_status``)."""
    if list_name == "templates":
        return []
    forms = getattr(entry, "forms", [])
    out = missing_combinations(needed_combinations(corpus, list_name, entry, source_entry), forms)
    combos = [g.combo for g in required_gaps(corpus, list_name, entry)]
    if has_two_in_one(entry):  # "a / b" is no form yet (E027): what the slots ask is still to enter
        combos += [a.combo for a in asks(corpus, list_name, entry)] or [{}]
    for combo in combos:
        if combo not in out:
            out.append(combo)
    return out


def has_two_in_one(entry: Any) -> bool:
    return any(not f.absent and SEPARATOR.search(f.text) for f in getattr(entry, "forms", []))


def incomplete(corpus: CorpusDefinition, list_name: str, entry: Any, slots: list | None = None) -> bool:
    """Has content but is not translated yet: a needed form missing (E026) or two forms typed as
    one (E027). Progress and the review status count such an item as left to do."""
    if list_name not in LISTS or entry.review.status == "untranslatable":
        return False
    return has_two_in_one(entry) or bool(required_gaps(corpus, list_name, entry, slots))


def entries_with_gaps(corpus: CorpusDefinition) -> set[tuple[str, str]]:
    """(list, id) of every ``incomplete`` entry (progress counts them as not translated)."""
    slots = template_slots(corpus)
    return {(name, e.id) for name in LISTS for e in getattr(corpus, name) if incomplete(corpus, name, e, slots)}


# -- findings -----------------------------------------------------------------------------------------
def _fmt(d: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in d.items())


def _describe(f: Form) -> str:
    return f"{f.text!r} ({_fmt(f.features)})" if f.features else repr(f.text)


def _id_field(list_name: str) -> str:
    return {"persons": "person", "emotion_words": "emotion_word"}.get(list_name, "")


def gap_findings(corpus: CorpusDefinition) -> list[Finding]:
    out = []
    slots = template_slots(corpus)
    for name in LISTS:
        for e in getattr(corpus, name):
            for gap in required_gaps(corpus, name, e, slots):
                because = f" (it agrees on {gap.agrees})" if gap.agrees else ""
                fields = dict(features=_fmt(gap.combo), slot="{" + gap.slot + "}", template=gap.template,
                              because=because)
                said_ = message("E026.expected", expected=gap.expected, **fields) if gap.expected else \
                    message("E026.row", **fields)
                where = {_id_field(name): e.id} if _id_field(name) else {}
                out.append(Finding("E026", said_,
                                   item=f"{name}[{e.id}]", template=gap.template, slot=gap.slot, wanted=dict(gap.combo),
                                   available=[_describe(f) for f in e.forms], **where))
    return out


def separator_findings(corpus: CorpusDefinition) -> list[Finding]:
    out = []
    for name in LISTS:
        for e in getattr(corpus, name):
            for f in e.forms:
                two = _two_in_one(f.text, corpus.language) if not f.absent else None
                if two:
                    where = {_id_field(name): e.id} if _id_field(name) else {}
                    out.append(Finding("E027", message("E027", text=f.text, sep=two[0], example=two[1]),
                                       item=f"{name}[{e.id}]", available=[_describe(f)], **where))
    return out


@dataclass
class Mismatch:
    """E028: two forms of an entry that differ in one feature and contradict the data."""

    kind: str  # "swapped" | "same" | "reads"
    feature: str
    base: int  # index of the form tagged with the base value
    other: int  # index of the form tagged with the other value
    wrong: int  # index of the form to change ("swapped": both)
    expected: str  # its expected text ("" for swapped)
    tagged: str = ""
    reads: str = ""


def mismatches(language: str, forms: list[Form]) -> list[Mismatch]:
    """Pairs of single-word forms differing only in one feature of the data, checked against it."""
    infl = inflection(language)
    out = []
    for a in infl.agreement:
        for i, j in itertools.permutations(range(len(forms)), 2):
            fb, fo = forms[i], forms[j]
            if fb.absent or fo.absent or fb.features.get(a.feature) != a.base or fo.features.get(a.feature) != a.other:
                continue
            rest_b = {k: v for k, v in fb.features.items() if k != a.feature}
            if rest_b != {k: v for k, v in fo.features.items() if k != a.feature} or not a.applies(rest_b):
                continue
            m = _mismatch(a, i, j, fb.text.strip(), fo.text.strip())
            if m is not None:
                out.append(m)
    return out


def _mismatch(a, i: int, j: int, tb: str, to: str) -> Mismatch | None:
    rb, ro = a.read(tb), a.read(to)
    if not rb or not ro or SEPARATOR.search(tb + to):
        return None
    if rb == OTHER and ro == BASE:
        return Mismatch("swapped", a.feature, i, j, -1, "")
    if tb.lower() == to.lower():
        want = a.to_other(tb) if rb == BASE else a.to_base(tb) if rb == OTHER else None
        if want and want.lower() != tb.lower():
            return Mismatch("same", a.feature, i, j, j if rb == BASE else i, want,
                            a.other if rb == BASE else a.base)
        return None
    if ro == BASE and rb == BASE:
        return Mismatch("reads", a.feature, i, j, j, a.to_other(tb) or "", a.other, a.base)
    if rb == OTHER and ro == OTHER:
        return Mismatch("reads", a.feature, i, j, i, a.to_base(to) or "", a.base, a.other)
    return None


def _section(language: str, feature: str):
    return next(a for a in inflection(language).agreement if a.feature == feature)


def mismatch_message(m: Mismatch, forms: list[Form], language: str):
    a = _section(language, m.feature)
    tb, to = forms[m.base].text, forms[m.other].text
    fa, fb = f"{m.feature}={a.base}", f"{m.feature}={a.other}"
    if m.kind == "swapped":
        return message("E028.swapped", a=fa, at=tb, b=fb, bt=to)
    if m.kind == "same":
        return message("E028.same", text=tb, a=fa, b=fb, c=f"{m.feature}={m.tagged}", expected=m.expected)
    return message("E028.reads", text=forms[m.wrong].text, tagged=f"{m.feature}={m.tagged}",
                   reads=f"{m.feature}={m.reads}", expected=m.expected)


def mismatch_findings(corpus: CorpusDefinition) -> list[Finding]:
    out = []
    for name in LISTS:
        for e in getattr(corpus, name):
            for m in mismatches(corpus.language, e.forms):
                where = {_id_field(name): e.id} if _id_field(name) else {}
                wanted = {m.feature: e.forms[m.wrong].features.get(m.feature, "")} if m.wrong >= 0 else {}
                out.append(Finding("E028", mismatch_message(m, e.forms, corpus.language), item=f"{name}[{e.id}]",
                                   wanted=wanted, available=[_describe(f) for f in e.forms], **where))
    return out


def agreement_findings(corpus: CorpusDefinition) -> list[Finding]:
    """E026-E028 for every entry (E029/E030 need the compiled templates: ``declension_findings``)."""
    return declared(corpus, separator_findings(corpus) + gap_findings(corpus) + mismatch_findings(corpus))


# -- names that decline (E029, E030) ------------------------------------------------------------------
def frame_case(language: str, cv, slot) -> tuple[str, str]:
    """(case, about) when the literal text before a person slot governs a case, else ('', '')."""
    decl = inflection(language).declension
    if decl is None or slot.source != "person":
        return "", ""
    before = cv.parsed.literal_before(slot)
    frame = next((f for f in decl.frames if f.before.search(before)), None)
    return (frame.case, frame.about) if frame else ("", "")


def declension_findings(cc) -> list[Finding]:
    """E029 (a name in a case slot without a known declension) and E030 (a person slot in a frame
    that governs a case, not asking for it), one finding per template slot or person."""
    corpus = cc.corpus
    decl = inflection(corpus.language).declension
    if decl is None:
        return []
    out = []
    classes = ", ".join(decl.classes)
    for p in corpus.persons:
        value = p.features.get(decl.feature, "")
        if value and value not in decl.classes:
            out.append(Finding("E029", message("E029.unknown", value=value, language=corpus.language, classes=classes),
                               item=f"persons[{p.id}]", person=p.id, wanted={decl.feature: value}))
    named: set[str] = set()
    for ct in cc.templates:
        for cv in ct.variants:
            slot = cv.person_slot
            if slot is None:
                continue
            case, about = frame_case(corpus.language, cv, slot)
            if case and decl.case not in slot.fixed:
                out.append(Finding("E030", message("E030", slot="{" + slot.name + "}", about=about,
                                                   case=f"{decl.case}={case}", fix="{" + f"{slot.name} {decl.case}={case}" + "}"),
                                   item=f"templates[{ct.id}]", template=ct.id, slot=slot.name,
                                   wanted={decl.case: case}))
            if decl.case in slot.fixed:
                out += _undeclined(cc, ct, slot, decl, named, classes)
    return declared(corpus, _unique(out))


def declared(corpus: CorpusDefinition, findings: list[Finding]) -> list[Finding]:
    """A published text reproduced as it was lists its faults in [known_defects]: warnings then."""
    for f in findings:
        if f.code in corpus.known_defects and not f.known:
            f.known = corpus.known_defects[f.code]
            f.render()  # the tail " — known defect of the published text: …" (engine.corpus.check.messages)
    return findings


def _undeclined(cc, ct, slot, decl, named: set[str], classes: str) -> list[Finding]:
    out = []
    case = slot.fixed[decl.case]
    for p in cc.corpus.persons:
        if p.kind != "name" or p.id in named or p.features.get(decl.feature) or not slot_applies(
                cc.corpus, "persons", p, slot):
            continue
        if any(f.features.get(decl.case) == case for f in p.forms):
            continue
        named.add(p.id)
        out.append(Finding("E029", message("E029.none", slot="{" + slot.name + "}", template=ct.id,
                                           case=f"{decl.case}={case}", classes=classes, feature=decl.feature),
                           item=f"persons[{p.id}]", template=ct.id, slot=slot.name, person=p.id,
                           wanted={decl.case: case}))
    return out


def _unique(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in findings:
        key = (f.code, f.item, f.slot, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
