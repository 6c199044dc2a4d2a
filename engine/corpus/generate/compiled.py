"""Compile a corpus definition once into fast lookup structures, then realise sentences.

Why compile: generation touches ~45k template × person × emotion-word combinations
for the built-in corpora and must stay well under a second; everything that does not
depend on the combination (parsing, slot order, merged form features) is done once.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.common.patterns import toml_line_of, user_pattern
from engine.corpus.check.findings import Finding
from engine.corpus.check.messages import said
from engine.corpus.definition.model import CorpusDefinition, EmotionWord, Form, PersonTerm, Template, Variant
from engine.corpus.definition.template_syntax import ParsedTemplate, Slot, TemplateSyntaxError, parse_template

PERSON_ATTRS = {"kind"}  # plus axis names: entry attributes that filter, not select forms
EMOTION_ATTRS = {"kind", "emotion"}


@dataclass
class CForm:
    text: str
    features: dict[str, str]
    absent: str = ""  # the translator's reason why no such form exists (Form.absent)


@dataclass
class CEntry:
    id: str
    forms: list[CForm]
    entry_features: dict[str, str]
    attrs: dict[str, str]  # filterable attributes (kind, emotion, axis groups)
    # the form (or "missing"/"ambiguous") selected for each request, keyed by its (feature, value) items
    selected: dict[tuple, CForm | str] = field(default_factory=dict, repr=False, compare=False)


@dataclass
class CVariant:
    variant: Variant
    parsed: ParsedTemplate
    order: list[Slot]  # slots in dependency order
    person_slot: Slot | None
    emotion_slot: Slot | None


@dataclass
class CTemplate:
    template: Template
    variants: list[CVariant]
    problems: list[Finding] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.template.id

    @property
    def usable(self) -> bool:
        return not any(p.is_error for p in self.problems) and bool(self.variants)

    def first(self) -> CVariant | None:
        return self.variants[0] if self.variants else None

    @property
    def generates(self) -> bool:
        """Whether the template yields sentences: readable, and with a person slot to fill."""
        return self.usable and self.first().person_slot is not None


@dataclass
class Realisation:
    sentence: str
    variant: CVariant
    chosen: dict[str, CForm]


class CompiledCorpus:
    def __init__(self, corpus: CorpusDefinition) -> None:
        self.corpus = corpus
        self._derive = {f: [(v, user_pattern(rx, file=corpus.path, field=f"derive.{f}.{v}", probe=False,
                                              line_of=toml_line_of(corpus.path, f"derive.{f}.{v}")))
                            for v, rx in vals.items()] for f, vals in corpus.derive.items()}
        self.derive_problems: list[Finding] = []
        self.persons = [self._person(p) for p in corpus.persons if _in_use(p)]
        self.emotions = [self._emotion(e) for e in corpus.emotion_words if _in_use(e)]
        self.words = {w.id: CEntry(w.id, [self._form(f, {}) for f in w.forms], {}, {}) for w in corpus.words}
        self.templates = [self._template(t) for t in corpus.templates]
        # Speed (generation must stay well under a second for all built-ins): how a variant's
        # slots are filled, and the form an entry yields for a given request, never change once
        # compiled, so both are computed once.
        self._plans: dict[int, tuple[CVariant, list[tuple]]] = {}
        # names that decline (Arabic triptotes take the accusative -an: محمدًا): the language's classes
        from engine.corpus.check.grammar.inflection import inflection  # the grammar package imports this module

        self._declension = inflection(corpus.language).declension

    # -- compile ----------------------------------------------------------------
    def _form(self, f: Form, entry_features: dict[str, str]) -> CForm:
        feats = dict(entry_features)
        for feat, rules in self._derive.items():
            if feat not in f.features:
                for value, rx in rules:
                    if rx.search(f.text):
                        feats[feat] = value
                        break
        feats.update(f.features)
        return CForm(f.text, feats, f.absent)

    def person_entry_features(self, p: PersonTerm) -> dict[str, str]:
        feats: dict[str, str] = {}
        for axis_name, group in p.groups.items():
            axis = self.corpus.axes.get(axis_name)
            if axis and group in axis.feature_values:
                feats[axis_name] = axis.feature_values[group]
        feats.update(p.features)
        return feats

    def _person(self, p: PersonTerm) -> CEntry:
        ef = self.person_entry_features(p)
        attrs = {"kind": p.kind, **p.groups}
        return CEntry(p.id, [self._form(f, ef) for f in p.forms], ef, attrs)

    def _emotion(self, e: EmotionWord) -> CEntry:
        return CEntry(e.id, [self._form(f, e.features) for f in e.forms], dict(e.features),
                      {"kind": e.kind, "emotion": e.emotion})

    def _template(self, t: Template) -> CTemplate:
        ct = CTemplate(t, [])
        for v in t.variants:
            try:
                parsed = parse_template(v.text)
            except TemplateSyntaxError as exc:
                ct.problems.append(Finding("E010", said("E010.text", detail=str(exc)), item=f"templates[{t.id}]",
                                           template=t.id))
                continue
            order, err = _dependency_order(parsed)
            if err:
                ct.problems.append(Finding("E010", said("E010.order", detail=err), item=f"templates[{t.id}]",
                                           template=t.id))
                continue
            ps = next((s for s in parsed.slots if s.source == "person"), None)
            es = next((s for s in parsed.slots if s.source == "emotion"), None)
            ct.variants.append(CVariant(v, parsed, order, ps, es))
        return ct

    # -- combinations -----------------------------------------------------------
    def persons_for(self, ct: CTemplate) -> list[CEntry]:
        v = ct.first()
        if v is None or v.person_slot is None:
            return []
        filt = {k: val for k, val in v.person_slot.fixed.items() if k in PERSON_ATTRS or k in self.corpus.axes}
        return [p for p in self.persons if all(p.attrs.get(k) == val for k, val in filt.items())]

    def emotions_for(self, ct: CTemplate) -> list[CEntry | None]:
        v = ct.first()
        if v is None or v.emotion_slot is None:
            return [None]
        filt = {k: val for k, val in v.emotion_slot.fixed.items() if k in EMOTION_ATTRS}
        return [e for e in self.emotions if all(e.attrs.get(k) == val for k, val in filt.items())]

    def is_filter(self, slot: Slot, key: str) -> bool:
        if slot.source == "person":
            return key in PERSON_ATTRS or key in self.corpus.axes
        if slot.source == "emotion":
            return key in EMOTION_ATTRS
        return False

    # -- realise ----------------------------------------------------------------
    def realise(self, ct: CTemplate, person: CEntry, emotion: CEntry | None) -> Realisation | Finding:
        if len(ct.variants) == 1 and not ct.template.select:
            variant = ct.variants[0]
        else:
            variant = self._pick_variant(ct, person, emotion)
            if isinstance(variant, Finding):
                variant.template, variant.person, variant.emotion_word = ct.id, person.id, emotion.id if emotion else ""
                return variant
        cached = self._plans.get(id(variant))
        if cached is not None and cached[0] is variant:
            plan = cached[1]
        else:
            plan = self._plan(variant)
            self._plans[id(variant)] = (variant, plan)
        chosen: dict[str, CForm] = {}
        for slot, source, fixed, fixed_key, refs in plan:
            entry = person if source is _PERSON else emotion if source is _EMOTION else source
            if entry is None:
                return Finding("E004", said("E004.no_word_id", slot=slot.name, word=slot.source), slot=slot.name,
                               **_base(ct, person, emotion))
            if refs:
                wanted = dict(fixed)
                for key, ref in refs:
                    src = chosen.get(ref.slot)
                    value = src.features.get(ref.feature) if src else None
                    if value is None and ref.slot == "person":
                        value = person.attrs.get(ref.feature)
                    if value is None:
                        return Finding("E001", said("E001.agree_missing", slot=slot.name, feature=key,
                                                    ref=f"{ref.slot}.{ref.feature}", other=ref.slot, missing=ref.feature),
                                       slot=slot.name, wanted={key: f"{ref.slot}.{ref.feature}"},
                                       available=[_describe(f) for f in entry.forms], **_base(ct, person, emotion))
                    wanted[key] = value
                sel_key = tuple(wanted.items())
            else:
                wanted = fixed
                sel_key = fixed_key
            form = entry.selected.get(sel_key)
            if form is None:
                form = entry.selected[sel_key] = self._choose(entry, wanted, source is _PERSON)
            if form.__class__ is str:
                code = "E002" if form == "ambiguous" else "E001"
                if not entry.forms:
                    msg = said("E001.no_forms", slot=slot.name, entry=entry.id)
                elif code == "E001":
                    msg = said("E001.no_form", slot=slot.name, entry=entry.id, features=_fmt(wanted))
                else:
                    agree = _agreement_fix(entry.forms, wanted, slot, person)
                    if agree:
                        # the template's slot does not ask for the feature the forms differ in:
                        # the fix is in the template, not in each emotion word (one finding per slot)
                        msg = said("E002.slot_fix", slot=slot.name, feature=agree, ref=f"person.{agree}")
                        return Finding(code, msg, item=f"templates[{ct.id}]", slot=slot.name,
                                       wanted={agree: f"person.{agree}"}, **_base(ct, person, emotion))
                    msg = said("E002.ambiguous", slot=slot.name, entry=entry.id, features=_fmt(wanted) or "the slot")
                return Finding(code, msg, slot=slot.name, wanted=dict(wanted),
                               available=[_describe(f) for f in entry.forms], **_base(ct, person, emotion))
            if form.absent:
                return Finding("W109", said("W109.absent", slot=slot.name, entry=entry.id, features=_fmt(wanted),
                                            why=form.absent), slot=slot.name, wanted=dict(wanted),
                               **_base(ct, person, emotion))
            chosen[slot.name] = form
        sentence = "".join([piece if piece.__class__ is str else chosen[piece.name].text
                            for piece in variant.parsed.pieces])
        if self.corpus.capitalize:
            sentence = capitalise_first(sentence)
        return Realisation(sentence, variant, chosen)

    def _choose(self, entry: CEntry, wanted: dict[str, str], person: bool) -> CForm | str:
        """The form for ``wanted`` (or "missing"/"ambiguous"); a person's form declined for the case
        the slot asks when the person has a declension class and no form of that case."""
        form = _select(entry.forms, wanted)
        decl = self._declension
        if not person or decl is None or form.__class__ is str or form.absent:
            return form
        case = wanted.get(decl.case)
        cls = decl.classes.get(entry.entry_features.get(decl.feature, ""))
        if not case or cls is None or decl.case in form.features:
            return form
        return CForm(cls.decline(form.text, case), {**form.features, decl.case: case})

    def _plan(self, variant: CVariant) -> list[tuple]:
        """Per slot, in dependency order: the slot, its entry source (person, emotion or the
        word entry itself), the features it fixes and their lookup key, and its references."""
        plan = []
        for slot in variant.order:
            if slot.source == "person":
                source = _PERSON
            elif slot.source == "emotion":
                source = _EMOTION
            else:
                source = self.words.get(slot.source)
            fixed = {k: v for k, v in slot.fixed.items() if not self.is_filter(slot, k)}
            plan.append((slot, source, fixed, tuple(fixed.items()), list(slot.refs.items())))
        return plan

    def _pick_variant(self, ct: CTemplate, person: CEntry, emotion: CEntry | None) -> CVariant | Finding:
        if len(ct.variants) == 1 and not ct.template.select:
            return ct.variants[0]
        want = {}
        for feat, ref in ct.template.select.items():
            src_name, _, f = ref.partition(".")
            src = person if src_name == "person" else emotion
            value = None
            if src is not None:
                value = src.entry_features.get(f, src.attrs.get(f))
            want[feat] = value
        fits = [v for v in ct.variants if all(v.variant.features.get(k) == val for k, val in want.items())]
        if len(fits) == 1:
            return fits[0]
        return Finding("E009", said("E009.variants", n=len(fits), template=ct.id, features=_fmt(want)),
                       item=f"templates[{ct.id}]",
                       wanted={k: str(v) for k, v in want.items()},
                       available=[_fmt(v.variant.features) for v in ct.variants])


_PERSON = object()  # slot sources in a realisation plan
_EMOTION = object()


def _base(ct: CTemplate, person: CEntry, emotion: CEntry | None) -> dict[str, str]:
    return dict(template=ct.id, person=person.id, emotion_word=emotion.id if emotion else "")


def _in_use(entry) -> bool:
    """Entries a translator marked untranslatable and left without forms take no part."""
    return bool(entry.forms) or entry.review.status != "untranslatable"


def _select(forms: list[CForm], wanted: dict[str, str]) -> CForm | str:
    best: list[CForm] = []
    best_score = -1
    for f in forms:
        score = 0
        ok = True
        for k, v in wanted.items():
            fv = f.features.get(k)
            if fv is None:
                continue
            if fv != v:
                ok = False
                break
            score += 1
        if not ok:
            continue
        if score > best_score:
            best, best_score = [f], score
        elif score == best_score:
            best.append(f)
    if not best:
        return "missing"
    if len(best) > 1:
        return "ambiguous"
    return best[0]


def _agreement_fix(forms: list[CForm], wanted: dict[str, str], slot: Slot, person: CEntry) -> str:
    """The feature an ambiguous slot should agree on with the person ('' if none fits): the forms
    that fit differ in it, the slot does not ask for it, and the person has it (gender, usually)."""
    fit = [f for f in forms if all(f.features.get(k, v) == v for k, v in wanted.items())]
    for key in sorted({k for f in fit for k in f.features}):
        values = {f.features.get(key) for f in fit}
        if len(values) > 1 and key not in slot.fixed and key not in slot.refs and slot.source != "person":
            if key in person.entry_features or any(key in f.features for f in person.forms):
                return key
    return ""


def _dependency_order(parsed: ParsedTemplate) -> tuple[list[Slot], str]:
    slots = {s.name: s for s in parsed.slots}
    for s in slots.values():
        for key, ref in s.refs.items():
            if ref.slot not in slots:
                return [], f"slot {s.name!r}: {key}={ref.slot}.{ref.feature} refers to no slot named {ref.slot!r}"
    order: list[Slot] = []
    state: dict[str, int] = {}

    def visit(name: str, stack: list[str]) -> str:
        if state.get(name) == 2:
            return ""
        if state.get(name) == 1:
            return "agreement cycle: " + " -> ".join(stack + [name])
        state[name] = 1
        for ref in slots[name].refs.values():
            err = visit(ref.slot, stack + [name])
            if err:
                return err
        state[name] = 2
        order.append(slots[name])
        return ""

    for name in slots:
        err = visit(name, [])
        if err:
            return [], err
    return order, ""


def capitalise_first(sentence: str) -> str:
    if sentence and sentence[0].isalpha():  # the common case: the sentence starts with its first letter
        ch = sentence[0]
        return ch.upper() + sentence[1:] if ch.islower() else sentence
    for i, ch in enumerate(sentence):
        if ch.isalpha():
            if ch.islower():
                return sentence[:i] + ch.upper() + sentence[i + 1 :]
            return sentence
        if ch.isalnum():
            return sentence
    return sentence


def _fmt(d: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in d.items())


def _describe(f: CForm) -> str:
    feats = _fmt(f.features)
    return f"{f.text!r} ({feats})" if feats else repr(f.text)
