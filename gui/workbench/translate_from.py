"""Start a new language from an existing corpus: same ids, empty target forms, source kept.

Why the same ids: an audit compares languages template by template and person by person
(Câmara et al. translate the EEC item by item); keeping the ids makes the new corpus line up
with its source. Every item starts with status ``new`` and ``Review.source`` holding the
source text, so the translator sees it beside each item and the checker lists what is left
(E012 "entry has no forms") until it is done. Axes and groups are copied: they are social
categories, not words; features are copied as a starting point the translator adapts.
(Qt-free, so the lead may move it into engine.corpus unchanged.)
"""
from __future__ import annotations

import copy

from engine.corpus import CorpusDefinition, Review, Variant

RTL = {"ar", "he", "fa", "ur"}


def _describe_forms(forms) -> str:
    return " / ".join(f.text for f in forms)


def _review(source_text: str) -> Review:
    return Review(status="new", translator="", note="", source=source_text)


def translate_from(source: CorpusDefinition, language: str, new_id: str = "", name: str = "") -> CorpusDefinition:
    lang = language.strip() or "und"
    new = copy.deepcopy(source)
    new.id = new_id.strip() or f"{lang}-from-{source.id}"
    new.name = name.strip() or f"{source.name} ({lang})"
    new.language = lang
    new.direction = "rtl" if lang.split("-")[0].lower() in RTL else "ltr"
    new.path = ""
    new.id_prefix = ""
    new.description = f"Translated from {source.id}."
    new.derive = {}  # derivation rules (English a/an) are language-specific
    for t in new.templates:
        text = "  ‖  ".join(v.text for v in t.variants)
        t.variants = [Variant(text="")]
        t.select = {}
        t.published = ""
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
