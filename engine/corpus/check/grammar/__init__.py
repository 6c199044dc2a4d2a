"""Grammar rules: language-specific faults that agreement cannot see (codes E016-E021).

Why: agreement picks *which* form fills a slot, so a template can be well-formed for the
checker and still ungrammatical — an Arabic adjective bare after يشعر, two を objects in one
Japanese clause, a Spanish adjective agreeing with the person when it describes *me*.
Bias measured on such sentences measures the grammar errors. Each rule is a heuristic over
the template or the realised sentence, written for the faults found in the built-in corpora
(docs/corpus-review.md); a published text kept for reproduction declares its faults in
``[known_defects]`` and they are reported as warnings.

A language's rules come in two kinds: *template* rules look at a variant's text and slots once;
*sentence* rules look at each realised sentence with its slot spans. Findings are collapsed to
one per code and template, with the number of sentences and an example.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Callable

from engine.corpus.generate.compiled import CEntry, CompiledCorpus, CTemplate, CVariant, Realisation
from engine.corpus.check.findings import Finding
from engine.corpus.check.messages import said
from engine.corpus.generate.realised import slot_spans
from engine.corpus.check.grammar import arabic, japanese, romance
from engine.corpus.check.grammar.language_data import Restriction, language_data, parse_restriction
from engine.corpus.check.grammar.referent import experiencer, wrong_referent

# (sentence before capitalisation, slot spans, variant) -> [(code, slot, explanation)]
SentenceRule = Callable[[str, dict[str, tuple[int, int]], CVariant], list[tuple[str, str, str]]]
# (variant) -> [(code, slot, explanation)]
TemplateRule = Callable[[CVariant], list[tuple[str, str, str]]]


@dataclass(frozen=True)
class LanguageRules:
    template: tuple[TemplateRule, ...] = ()
    sentence: tuple[SentenceRule, ...] = ()


RULES: dict[str, LanguageRules] = {
    **{lang: LanguageRules(template=(romance.rule_for(lang),)) for lang in romance.LANGUAGES},
    "ar": LanguageRules(sentence=(arabic.bare_adjective_after_feel_verb, arabic.pronoun_with_noun_object)),
    "ja": LanguageRules(sentence=(japanese.double_o, japanese.na_adjective_without_na,
                                  japanese.causative_without_causee)),
}


def rules_for(language: str) -> LanguageRules | None:
    return RULES.get(language.split("-")[0].lower())


class GrammarCheck:
    """Collects grammar findings while the checker walks the combinations."""

    def __init__(self, cc: CompiledCorpus) -> None:
        from engine.corpus.check.spelling import SpellingCheck

        self.cc = cc
        self.rules = rules_for(cc.corpus.language) or LanguageRules()
        self.data = language_data(cc.corpus.language)
        self.restrictions: tuple[Restriction, ...] = self.data.restrictions + tuple(
            parse_restriction(r, f"restrictions[{i}]", cc.corpus.path) for i, r in enumerate(cc.corpus.restrictions))
        # per variant: the restrictions whose template conditions hold (checked once)
        self._variant_rules: dict[int, tuple[Restriction, ...]] = {}
        self.spelling = SpellingCheck(cc.corpus)
        self.raw: list[Finding] = []
        self.examples: dict[tuple[str, str, str], str] = {}

    def template(self, ct: CTemplate) -> None:
        seen = set()
        for cv in ct.variants:
            found = [f for rule in self.rules.template for f in rule(cv)]
            found += wrong_referent(self.cc.corpus, ct.template, cv)
            for code, slot, why in found:
                if (code, slot) in seen:  # the Romance clitic rule and the referent rule see one fault
                    continue
                seen.add((code, slot))
                self.raw.append(Finding(code, why, item=f"templates[{ct.id}]", template=ct.id, slot=slot))
            exp, _ = experiencer(ct.template, cv, self.cc.corpus.language)
            self._variant_rules[id(cv)] = tuple(r for r in self.restrictions
                                                if r.applies_to_template(cv.variant.text, exp))

    def sentence(self, ct: CTemplate, r: Realisation, person: CEntry, emotion: CEntry | None) -> None:
        raw, spans = slot_spans(r)
        found = [f for rule in self.rules.sentence for f in rule(raw, spans, r.variant)]
        cv = r.variant
        rules = self._variant_rules.get(id(cv), ())
        if rules:
            slot = cv.emotion_slot
            word = raw[slice(*spans[slot.name])] if slot is not None and slot.name in spans else ""
            category = emotion.attrs.get("emotion", "") if emotion else ""
            for rx in rules:
                if rx.matches(raw, word, category):
                    found.append((rx.code, slot.name if slot else "",
                                  said(f"{rx.code}.restriction", reason=rx.message, error_class=rx.error_class, word=word)))
        ends = self.data.final_punctuation
        if ends and not r.sentence.rstrip().endswith(tuple(ends)):
            found.append(("E025", "", said("E025.punctuation", language=self.cc.corpus.language, ends=" ".join(ends))))
        for code, slot, why in found:
            self.raw.append(Finding(code, why, item=f"templates[{ct.id}]", template=ct.id, slot=slot,
                                    person=person.id, emotion_word=emotion.id if emotion else ""))
            self.examples.setdefault((code, ct.id, str(why)), r.sentence)
        # slot spans point into the sentence while capitalisation keeps its length (not ß -> SS)
        fillers = {sl.name: ("persons", person.id) if sl.source == "person" else
                   ("emotion_words", emotion.id) if sl.source == "emotion" and emotion else ("words", sl.source)
                   for sl in cv.parsed.slots}
        self.spelling.sentence(r.sentence, ct.id, spans if len(raw) == len(r.sentence) else None, fillers)

    def findings(self) -> list[Finding]:
        """One finding per code, template and explanation, counting the sentences it covers;
        [known_defects] turn them into warnings."""
        groups: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
        for f in self.raw:
            groups[(f.code, f.template, f.message)].append(f)
        known = self.cc.corpus.known_defects
        out = []
        for key, fs in groups.items():
            first = fs[0]
            example = self.examples.get(key)
            f = Finding(first.code, first.message, item=first.item, template=first.template, slot=first.slot,
                        key=first.key, params=dict(first.params))
            if example is not None:
                f.params.update(sentences=len(fs), example=example)
            if f.code in known:
                f.known = known[f.code]
            if f.key:
                f.render()  # the counts and the known defect, in the catalog's words
            else:
                f.message += (f" ({len(fs)} sentence(s), e.g. {example!r})" if example is not None else "") + \
                             (f" — known defect of the published text: {f.known}" if f.known else "")
            out.append(f)
        for f in self.spelling.findings():
            out.append(f)
        return out
