"""The agreement checker: static rules on entries plus every template × filler combination.

A combination is either realisable (every slot finds exactly one form with the
features it needs) or reported with its template, slot, wanted features and the forms
available — which is what a translator needs to fix it.
"""
from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from engine.corpus.definition.axes import axis_findings
from engine.corpus.generate.compiled import CompiledCorpus, Realisation
from engine.corpus.check.agreement import agreement_findings, declension_findings, separator_problem
from engine.corpus.check.expect import expect_findings
from engine.corpus.check.messages import said
from engine.corpus.check.findings import Finding
from engine.corpus.check.grammar import GrammarCheck
from engine.corpus.definition.model import EMOTION_KINDS, EMOTIONS, PERSON_KINDS, REVIEW_STATUSES, CorpusDefinition
from engine.corpus.pairs.pair_checks import check_pairs
from engine.corpus.pairs.pairing import Numbering

_OK_INNER_PUNCT = set("-'’·‐־")  # hyphens, apostrophes, middle dot, maqaf: part of words


@dataclass
class CheckReport:
    corpus_id: str
    findings: list[Finding] = field(default_factory=list)
    sentences: int = 0  # realisable combinations
    pairs: int = 0  # counterfactual sentence pairs (engine.corpus.pairs.tables)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if not f.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors

    def codes(self) -> set[str]:
        return {f.code for f in self.findings}

    def grouped(self) -> list[tuple[Finding, int]]:
        """Identical problems collapsed (e.g. one missing form blocks 180 combinations)."""
        groups: dict[tuple, list[Finding]] = defaultdict(list)
        for f in self.findings:
            key = (f.code, f.item, f.template, f.slot, f.message if not f.person else _generic(f))
            groups[key].append(f)
        return [(fs[0], len(fs)) for fs in groups.values()]

    def to_text(self) -> str:
        lines = [f"{self.corpus_id}: {len(self.errors)} error(s), {len(self.warnings)} warning(s), "
                 f"{self.sentences} sentence(s) can be generated"
                 + (f", {self.pairs} counterfactual pair(s)" if self.pairs else "")]
        for f, n in sorted(self.grouped(), key=lambda x: (not x[0].is_error, x[0].code)):
            extra = f" (×{n} combinations)" if n > 1 else ""
            lines.append(f"  {f}{extra}")
            if f.available and f.code in ("E001", "E002"):
                lines.append(f"      forms available: {', '.join(f.available) or 'none'}")
        return "\n".join(lines)


def _generic(f: Finding) -> str:
    return f.message


def check_corpus(corpus: CorpusDefinition, compiled: CompiledCorpus | None = None, *,
                 keep_sentences: bool = False) -> CheckReport:
    """Every finding of ``corpus``. With ``keep_sentences``, the sentences the check realises stay on
    ``compiled`` (numbered as ``generate`` numbers them, engine.corpus.pairs.pairing.realise_all),
    and so do the usable pairs, for a caller that needs them next (the review column of
    `corpus list`): the corpus is realised once, not once for the check and again for the table."""
    cc = compiled or CompiledCorpus(corpus)
    report = CheckReport(corpus.id)
    out = report.findings
    out += _check_features(corpus)
    out += _check_persons(corpus)
    out += axis_findings(corpus)
    out += _check_emotions(corpus)
    out += _check_forms(corpus)
    out += _check_duplicates(corpus)
    out += _check_templates(corpus, cc)
    out += agreement_findings(corpus)
    out += declension_findings(cc)
    grammar = GrammarCheck(cc)
    n, combo = _check_combinations(cc, grammar, keep_sentences)
    report.sentences = n
    out += _speaker_agreement(corpus, _collapse_absent(combo))
    out += grammar.findings()
    report.pairs, pair_findings = check_pairs(corpus, cc)
    out += pair_findings
    return report


def _speaker_agreement(corpus: CorpusDefinition, findings: list[Finding]) -> list[Finding]:
    """E002 "add gender=person.gender to the slot" is wrong where the speaker feels ("{person} mi ha
    fatto sentire {emotion}"): agreeing with the person is E016. There the advice is the speaker's
    gender (``wanted`` gender=<speaker_gender>, '' while it is not declared) — issue 39."""
    from engine.corpus.check.grammar.referent import template_experiencer

    who: dict[str, str] = {}
    for f in findings:
        if f.code != "E002" or not f.item.startswith("templates[") or f.wanted.get("gender") != "person.gender":
            continue
        t = next((t for t in corpus.templates if t.id == f.template), None)
        if t is None:
            continue
        if t.id not in who:
            who[t.id] = template_experiencer(corpus, t)
        if who[t.id] != "speaker":
            continue
        g = corpus.speaker_gender
        f.wanted = {"gender": g}
        f.message = (f"slot {f.slot!r} does not ask for gender, and its words have one form per gender; the speaker "
                     "feels here, so it is the speaker's gender, not the person's: "
                     + (f"add gender={g} to the slot (Fix: add gender={g})" if g else
                        "declare the speaker's grammatical gender (speaker_gender), then add it to the slot"))
    return findings


def _collapse_absent(findings: list[Finding]) -> list[Finding]:
    """One W109 per missing form, not one per combination: the translator declared it once."""
    out: list[Finding] = []
    first: dict[tuple[str, str], Finding] = {}
    count: dict[tuple[str, str], int] = defaultdict(int)
    for f in findings:
        if f.code != "W109":
            out.append(f)
            continue
        key = (f.slot, f.message)
        count[key] += 1
        if key not in first:
            first[key] = f
            out.append(f)
    for key, f in first.items():
        if f.key:
            f.params["combinations"] = count[key]
            f.render()
        else:
            f.message += f" ({count[key]} combination(s))"
    return out


def _feature_problems(corpus: CorpusDefinition, feats: dict[str, str], item: str, *, slot: str = "") -> list[Finding]:
    out = []
    for k, v in feats.items():
        if k not in corpus.features:
            out.append(Finding("E005", said("E005.undeclared", feature=k,
                                            declared=", ".join(sorted(corpus.features)) or "none"), item=item, slot=slot))
        elif v not in corpus.features[k]:
            out.append(Finding("E006", said("E006.value", feature=k, value=v, values=list(corpus.features[k])),
                               item=item, slot=slot))
    return out


def _check_features(corpus: CorpusDefinition) -> list[Finding]:
    out = []
    for name, axis in corpus.axes.items():
        if axis.feature_values:
            out += _feature_problems(corpus, {name: v for v in axis.feature_values.values()}, f"axes.{name}.feature")
            for g in axis.feature_values:
                if g not in axis.groups:
                    out.append(Finding("E011", said("E011.mapping", value=g), item=f"axes.{name}.feature"))
    for feat, rules in corpus.expect.items():
        for value in rules:
            out += _feature_problems(corpus, {feat: value}, f"expect.{feat}")
    for feat in corpus.derive:
        if feat not in corpus.features:
            out.append(Finding("E005", said("E005.derived", feature=feat), item=f"derive.{feat}"))
        else:
            for v in corpus.derive[feat]:
                if v not in corpus.features[feat]:
                    out.append(Finding("E006", said("E006.derived", value=v, values=list(corpus.features[feat])),
                                       item=f"derive.{feat}"))
    return out


def _check_persons(corpus: CorpusDefinition) -> list[Finding]:
    out = []
    race = corpus.race_axis
    by_id = {p.id: p for p in corpus.persons}
    # persons a [[pairs]] entry pairs on gender need no `pair` field
    in_pairs = {x for pr in corpus.pairs if pr.variable == "gender" for x in pr.privileged + pr.minoritised}
    for p in corpus.persons:
        item = f"persons[{p.id}]"
        if p.kind not in PERSON_KINDS:
            out.append(Finding("E011", said("E011.kind", value=p.kind, values=list(PERSON_KINDS)), item=item, person=p.id))
        for axis_name, group in p.groups.items():
            axis = corpus.axes[axis_name]
            if group not in axis.groups:
                out.append(Finding("E011", said("E011.group", axis=axis_name, value=group, values=list(axis.groups)),
                                   item=item, person=p.id))
        if "gender" not in p.groups and p.kind != "identity_term":
            out.append(Finding("E011", said("E011.no_gender"), item=item, person=p.id))
        if p.kind == "name" and race is not None and race.name not in p.groups:
            out.append(Finding("E011", said("E011.no_group", axis=race.name), item=item, person=p.id))
        if p.kind == "noun_phrase" and race is not None and race.name in p.groups:
            out.append(Finding("E011", said("E011.np_group", axis=race.name), item=item, person=p.id))
        if not p.forms and p.review.status == "untranslatable":
            out.append(Finding("W108", said("W108.person"), item=item, person=p.id))
        elif not p.forms:
            out.append(Finding("E012", said("E012.person"), item=item, person=p.id))
        out += _feature_problems(corpus, p.features, item)
        out += _pair_findings(p, by_id, item, in_pairs)
        if p.kind == "name":
            for f in p.forms:
                first = f.text[:1]
                if first.isalpha() and first.lower() != first.upper() and not first.isupper():
                    out.append(Finding("W104", said("W104.name", entry=f.text), item=item, person=p.id))
        if p.review.status not in REVIEW_STATUSES:
            out.append(Finding("W107", said("W107.status", value=p.review.status, values=list(REVIEW_STATUSES)),
                               item=item))
    return out


def _pair_findings(p, by_id: dict, item: str, in_pairs: set[str]) -> list[Finding]:
    """W106: a pair naming nobody or the same gender, a pair set on one side only (mirror it), or
    a gendered noun phrase left without a counterpart while noun phrases of another gender exist
    (its sentences then have no counterfactual twin: the pair count falls without a word)."""
    if p.pair:
        other = by_id.get(p.pair)
        if other is None or other.gender == p.gender:
            return [Finding("W106", said("W106.same_gender", pair=p.pair), item=item, person=p.id)]
        if other.pair != p.id:
            now = f"names {other.pair!r}" if other.pair else "is empty"
            return [Finding("W106", said("W106.not_mirrored", other=other.id, now=now, person=p.id), item=item,
                            person=p.id)]
        return []
    if p.kind != "noun_phrase" or not p.gender or p.id in in_pairs:
        return []
    if any(q.pair == p.id for q in by_id.values()):
        return []  # named by the other side: its "not mirrored" finding says what to do
    free = [q.id for q in by_id.values() if q.kind == "noun_phrase" and q.gender and q.gender != p.gender
            and (not q.pair or q.pair == p.id) and q.id not in in_pairs]
    if not free and not any(q.kind == "noun_phrase" and q.gender and q.gender != p.gender for q in by_id.values()):
        return []
    hint = f" (e.g. {', '.join(repr(x) for x in free[:3])})" if free else ""
    return [Finding("W106", said("W106.no_pair", hint=hint, candidates=list(free[:3])), item=item, person=p.id)]


def _check_emotions(corpus: CorpusDefinition) -> list[Finding]:
    out = []
    for e in corpus.emotion_words:
        item = f"emotion_words[{e.id}]"
        if e.emotion not in EMOTIONS:
            what = said("E007.no_emotion") if not e.emotion else said("E007.emotion", value=e.emotion,
                                                                         values=list(EMOTIONS))
            out.append(Finding("E007", what, item=item, emotion_word=e.id))
        if e.kind not in EMOTION_KINDS:
            what = said("E007.no_kind") if not e.kind else said("E007.kind", value=e.kind, values=list(EMOTION_KINDS))
            out.append(Finding("E007", what, item=item, emotion_word=e.id))
        if not e.forms and e.review.status == "untranslatable":
            out.append(Finding("W108", said("W108.emotion", note=f" ({e.review.note})" if e.review.note else ""),
                               item=item, emotion_word=e.id))
        elif not e.forms:
            out.append(Finding("E012", said("E012.emotion"), item=item, emotion_word=e.id))
        out += _feature_problems(corpus, e.features, item)
        if e.review.status not in REVIEW_STATUSES:
            out.append(Finding("W107", said("W107.status", value=e.review.status, values=list(REVIEW_STATUSES)),
                               item=item))
    return out


def _all_forms(corpus: CorpusDefinition):
    for p in corpus.persons:
        for f in p.forms:
            yield f"persons[{p.id}]", p.id, f
    for e in corpus.emotion_words:
        for f in e.forms:
            yield f"emotion_words[{e.id}]", e.id, f
    for w in corpus.words:
        for f in w.forms:
            yield f"words[{w.id}]", w.id, f


def stray_characters(text: str) -> str:
    """Why a form looks damaged ('' if it does not): e.g. 'empört,' or 'bal  x'."""
    if text != text.strip():
        return "leading or trailing whitespace"
    if "  " in text or "\t" in text or "\n" in text or "\u00a0" in text:
        return "doubled or unusual whitespace"
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if cat.startswith("P") and ch not in _OK_INNER_PUNCT:
            return f"punctuation {ch!r} at position {i + 1}"
        if ch in _OK_INNER_PUNCT and (i == 0 or i == len(text) - 1) and ch not in "'’":
            return f"{ch!r} at the edge of the form"
    return ""


def _check_forms(corpus: CorpusDefinition) -> list[Finding]:
    out = []
    for item, _id, f in _all_forms(corpus):
        if f.absent:
            out += _feature_problems(corpus, f.features, item)
            continue
        if not f.text.strip():
            out.append(Finding("E008", said("E008.empty"), item=item))
            continue
        why = stray_characters(f.text)
        if why and not separator_problem(f.text):  # two forms in one: E027 says how to enter them
            out.append(Finding("W102", said("W102.stray", form=f.text, why=why), item=item))
        out += _feature_problems(corpus, f.features, item)
    return out


def _check_duplicates(corpus: CorpusDefinition) -> list[Finding]:
    """One Arabic word for two English emotion words is a translation problem worth a look."""
    out = []
    for label, entries in (("persons", corpus.persons), ("emotion_words", corpus.emotion_words)):
        owners: dict[str, list[str]] = defaultdict(list)
        for e in entries:
            for text in dict.fromkeys(f.text for f in e.forms if not f.absent):
                owners[text].append(e.id)
        by_ids: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for text, ids in owners.items():
            if len(set(ids)) > 1:
                by_ids[tuple(dict.fromkeys(ids))].append(text)
        for ids, texts in by_ids.items():
            out.append(Finding("W101", said("W101.duplicate", forms_word="forms" if len(texts) > 1 else "form",
                                            forms=", ".join(repr(t) for t in texts), ids=", ".join(ids)),
                               item=f"{label}[{ids[0]}]"))
    return out


def _check_templates(corpus: CorpusDefinition, cc: CompiledCorpus) -> list[Finding]:
    out = []
    for ct in cc.templates:
        t = ct.template
        item = f"templates[{t.id}]"
        out += ct.problems
        for v in t.variants:
            if v.text != v.text.strip() or "  " in v.text:
                out.append(Finding("W105", said("W105.spaces", text=v.text), item=item, template=t.id))
            out += _feature_problems(corpus, v.features, item)
        for feat, ref in t.select.items():
            if not ref.startswith(("person.", "emotion.")):
                out.append(Finding("E010", said("E010.select", feature=feat, ref=ref), item=item, template=t.id))
        for cv in ct.variants:
            if cv.person_slot is None and not (cv.variant.text or "").strip():
                # An empty text is an untranslated template (a new language started from a source
                # corpus), not a malformed one: say so in the translator's terms.
                out.append(Finding("E012", said("E012.template"), item=item, template=t.id))
            elif cv.person_slot is None:
                out.append(Finding("E003", said("E003.no_person"), item=item, template=t.id))
            for slot in cv.parsed.slots:
                if not slot.generating and cc.corpus.word(slot.source) is None:
                    known = ", ".join(["person", "emotion"] + [w.id for w in corpus.words])
                    out.append(Finding("E004", said("E004.no_word", slot=slot.name, word=slot.source, known=known),
                                       item=item, template=t.id, slot=slot.name))
                feats = {k: v for k, v in slot.fixed.items() if not cc.is_filter(slot, k)}
                out += _feature_problems(corpus, feats, item, slot=slot.name)
                for k in slot.refs:
                    if k not in corpus.features:
                        out.append(Finding("E005", said("E005.slot", slot=slot.name, feature=k),
                                           item=item, template=t.id, slot=slot.name))
                if slot.source == "emotion" and "kind" in slot.fixed and slot.fixed["kind"] not in EMOTION_KINDS:
                    out.append(Finding("E006", said("E006.kind", feature="kind", value=slot.fixed["kind"],
                                                    values=list(EMOTION_KINDS)), item=item, template=t.id, slot=slot.name))
        # fix E003 duplicates from several variants
    seen = set()
    unique = []
    for f in out:
        key = (f.code, f.item, f.message)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


def _check_combinations(cc: CompiledCorpus, grammar: GrammarCheck, keep: bool = False) -> tuple[int, list[Finding]]:
    out: list[Finding] = []
    n = 0
    kept = Numbering(cc) if keep else None
    for ct in cc.templates:
        if not ct.generates:
            continue
        grammar.template(ct)
        persons = cc.persons_for(ct)
        emotions = cc.emotions_for(ct)
        for p in persons:
            for e in emotions:
                r = cc.realise(ct, p, e)
                if isinstance(r, Realisation):
                    n += 1
                    if kept is not None:
                        kept.add(ct, p, e, r)
                    if cc.corpus.expect:
                        out += expect_findings(cc, ct.id, r, p, e)
                    grammar.sentence(ct, r, p, e)
                    s = r.sentence
                    first = next((ch for ch in s if ch.isalpha()), "")
                    if first and first.lower() != first.upper() and not first.isupper():
                        out.append(Finding("W103", said("W103.lower", sentence=s), template=ct.id,
                                           person=p.id, emotion_word=e.id if e else ""))
                else:
                    out.append(r)
    if kept is not None:
        kept.keep()
    return n, out
