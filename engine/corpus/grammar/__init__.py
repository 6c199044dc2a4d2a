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

from ..compiled import CEntry, CompiledCorpus, CTemplate, CVariant, Realisation
from ..findings import Finding
from ..realised import slot_spans
from . import arabic, japanese, romance

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
        self.cc = cc
        self.rules = rules_for(cc.corpus.language)
        self.raw: list[Finding] = []
        self.examples: dict[tuple[str, str, str], str] = {}

    @property
    def active(self) -> bool:
        return self.rules is not None

    def template(self, ct: CTemplate) -> None:
        if self.rules is None:
            return
        for cv in ct.variants:
            for rule in self.rules.template:
                for code, slot, why in rule(cv):
                    self.raw.append(Finding(code, why, item=f"templates[{ct.id}]", template=ct.id, slot=slot))

    def sentence(self, ct: CTemplate, r: Realisation, person: CEntry, emotion: CEntry | None) -> None:
        if self.rules is None or not self.rules.sentence:
            return
        raw, spans = slot_spans(r)
        for rule in self.rules.sentence:
            for code, slot, why in rule(raw, spans, r.variant):
                self.raw.append(Finding(code, why, item=f"templates[{ct.id}]", template=ct.id, slot=slot,
                                        person=person.id, emotion_word=emotion.id if emotion else ""))
                self.examples.setdefault((code, ct.id, why), r.sentence)

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
            msg = first.message
            if example is not None:
                msg += f" ({len(fs)} sentence(s), e.g. {example!r})"
            f = Finding(first.code, msg, item=first.item, template=first.template, slot=first.slot)
            if f.code in known:
                f.known = known[f.code]
                f.message += f" — known defect of the published text: {f.known}"
            out.append(f)
        return out
