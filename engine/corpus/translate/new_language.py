"""Start a new language from an existing corpus: same ids, empty target forms, source kept.

Why the same ids: an audit compares languages template by template and person by person
(Câmara et al. translate the EEC item by item); keeping the ids makes the new corpus line up
with its source. Every item starts with status ``new`` and ``Review.source`` holding the
source text, so the translator sees it beside each item and the checker lists what is left
(E012 "entry has no forms") until it is done. Axes and groups are copied: they are social
categories, not words, but their *labels* are words: they start in the target language
(``language_presets.axis_label``), never in the source's (a French corpus translated from
Spanish must not title its column *Género*). Features are copied as a starting point the
translator adapts.

A subset (chosen templates, persons, emotion words, small words) starts a small corpus from a
large one; pairs and ``pair`` links that name a person left out are dropped with it, and the
small words the chosen templates use come along unless words are chosen explicitly.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from engine.corpus.definition.errors import DefinitionError
from engine.common import ids
from engine.common.errors import UsageError
from engine.common.ids import is_corpus_id
from engine.common.languages import direction_of
from engine.corpus.definition.language_presets import axis_label, preset_for
from engine.corpus.definition.model import CorpusDefinition, Review, Variant
from engine.corpus.definition.template_syntax import readable_slots
from engine.corpus.translate.source_link import set_translated_from


@dataclass
class Subset:
    """Ids to keep per list; an empty list keeps everything."""

    templates: list[str] = field(default_factory=list)
    persons: list[str] = field(default_factory=list)
    emotion_words: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.templates or self.persons or self.emotion_words or self.words)


def _describe_forms(forms) -> str:
    return " / ".join(f.text for f in forms)


def _review(source_text: str) -> Review:
    return Review(status="new", translator="", note="", source=source_text)


def _words_used(corpus: CorpusDefinition) -> set[str]:
    return {s.source for _t, _v, s in readable_slots(corpus.templates) if not s.generating}


def take_subset(corpus: CorpusDefinition, subset: Subset) -> CorpusDefinition:
    """A copy of ``corpus`` with only the chosen entries (raises DefinitionError naming an unknown id)."""
    new = copy.deepcopy(corpus)
    if subset.empty:
        return new
    for name in ("templates", "persons", "emotion_words"):
        wanted = getattr(subset, name)
        if not wanted:
            continue
        have = {e.id for e in getattr(new, name)}
        unknown = [i for i in wanted if i not in have]
        if unknown:
            raise DefinitionError(corpus.path or corpus.id, f"no {name[:-1].replace('_', ' ')} {unknown[0]!r} in the source",
                                  field=name, fix=f"choose among: {', '.join(sorted(have))}")
        keep = set(wanted)
        setattr(new, name, [e for e in getattr(new, name) if e.id in keep])
    words = set(subset.words) if subset.words else _words_used(new)
    have_words = {w.id for w in new.words}
    unknown = [w for w in subset.words if w not in have_words]
    if unknown:
        raise DefinitionError(corpus.path or corpus.id, f"no word {unknown[0]!r} in the source", field="words",
                              fix=f"choose among: {', '.join(sorted(have_words)) or '(none)'}")
    new.words = [w for w in new.words if w.id in words]
    persons = {p.id for p in new.persons}
    for p in new.persons:
        if p.pair and p.pair not in persons:
            p.pair = ""
    kept = []
    for pair in new.pairs:
        sides = list(zip(pair.privileged, pair.minoritised)) if pair.match == "zip" else None
        if sides is not None:
            sides = [(a, b) for a, b in sides if a in persons and b in persons]
            if sides:
                pair.privileged, pair.minoritised = [a for a, _b in sides], [b for _a, b in sides]
                kept.append(pair)
        else:
            pair.privileged = [a for a in pair.privileged if a in persons]
            pair.minoritised = [b for b in pair.minoritised if b in persons]
            if pair.privileged and pair.minoritised:
                kept.append(pair)
    new.pairs = kept
    return new


def _target_features(new: CorpusDefinition, lang: str) -> None:
    """The target language's grammatical features (its preset: Italian gender and number), not the
    source's: English ``role`` and ``initial`` (a/an) mean nothing in an Italian form editor."""
    preset = preset_for(lang)
    new.features = {k: list(v) for k, v in preset.features.items()}
    new.capitalize = preset.capitalize
    for axis in new.axes.values():
        values = new.features.get(axis.name)
        if axis.feature_values and (values is None or not set(axis.feature_values.values()) <= set(values)):
            axis.feature_values = {}  # the language has no such feature (Japanese: no gender)


def translate_from(source: CorpusDefinition, language: str, new_id: str = "", name: str = "",
                   subset: Subset | None = None) -> CorpusDefinition:
    lang = language.strip() or "und"
    new = take_subset(source, subset or Subset())
    new.id = new_id.strip() or f"{lang}-from-{source.id}"
    if not is_corpus_id(new.id):
        raise UsageError(f"corpus id {new.id!r} cannot name a file", field="--id", fix=f"use {ids.RULE}")
    new.name = name.strip() or f"{source.name} ({lang})"
    new.language = lang
    new.direction = direction_of(lang)
    new.path = ""
    new.id_prefix = ""
    new.description = f"Translated from {source.id}."
    new.derive = {}  # derivation rules (English a/an) are language-specific
    new.expect = {}  # shape rules (German adjective endings) too
    new.spelling_accept = []  # a language's own words, restrictions and published faults stay behind;
    new.restrictions = []     # who feels each template's emotion word (experiencer) is kept: a
    new.known_defects = {}    # translation keeps the meaning
    _target_features(new, lang)
    new.extra = {}  # the source's own meta (its glossary is in its language) stays behind
    set_translated_from(new, source.id)  # kept in the file: the source survives save and reopen
    if new.speaker_gender not in new.features.get("gender", []):
        new.speaker_gender = ""
    for axis_name, axis in new.axes.items():
        axis.label = axis_label(lang, axis_name)
    # languages whose verbs agree with the subject (Arabic, Hebrew) start every template with
    # one empty variant per gender, chosen by the person's gender (language_presets)
    select = preset_for(lang).variant_select
    split = {k: v for k, v in select.items() if k in new.features}
    for t in new.templates:
        text = "  ‖  ".join(v.text for v in t.variants)
        if split:
            feat = next(iter(split))
            t.variants = [Variant(text="", features={feat: value}) for value in new.features[feat]]
            t.select = dict(split)
        else:
            t.variants = [Variant(text="")]
            t.select = {}
        t.published = ""
        t.source_template = t.id  # exchange files show this template of the source beside it
        t.review = _review(text)
    for p in new.persons:
        p.review = _review(_describe_forms(p.forms))
        p.forms = []
        p.features = {}
    for e in new.emotion_words:
        e.review = _review(_describe_forms(e.forms))
        e.forms = []
        e.features = {}
    for w in new.words:
        w.review = _review(_describe_forms(w.forms))
        w.forms = []
    return new
