"""Which forms an entry needs: one per feature combination its slots ask for.

Why: a translator filling *furious* in French should see two labelled rows, ``gender=f`` and
``gender=m``, not one blank row and an "Add form" button (about 12 actions per gendered word).
The templates say what is asked: a slot ``{emotion kind=state gender=person.gender}`` asks every
state word for each declared gender; ``{person role=object}`` asks persons for ``role=object``.
Before any template asks anything, the source entry's forms (restricted to features the corpus
declares) or, for emotion and small words, the language's gender decide.
"""
from __future__ import annotations

import itertools
from typing import Any

from engine.corpus.generate.compiled import EMOTION_ATTRS, PERSON_ATTRS
from engine.corpus.definition.model import CorpusDefinition
from engine.corpus.definition.template_syntax import readable_slots


def slot_applies(corpus: CorpusDefinition, list_name: str, entry: Any, slot) -> bool:
    if list_name == "persons":
        if slot.source != "person":
            return False
        attrs = {"kind": entry.kind, **entry.groups}
        return all(attrs.get(k) == v for k, v in slot.fixed.items() if k in PERSON_ATTRS or k in corpus.axes)
    if list_name == "emotion_words":
        if slot.source != "emotion":
            return False
        attrs = {"kind": entry.kind, "emotion": entry.emotion}
        return all(attrs.get(k) == v for k, v in slot.fixed.items() if k in EMOTION_ATTRS)
    return list_name == "words" and slot.source == entry.id


def asked_features(corpus: CorpusDefinition, list_name: str, slot) -> dict[str, list[str]]:
    """Feature -> the values this slot may ask for."""
    filters = PERSON_ATTRS | set(corpus.axes) if slot.source == "person" else EMOTION_ATTRS if slot.source == "emotion" else set()
    out: dict[str, list[str]] = {}
    for k, v in slot.fixed.items():
        if k not in filters and k in corpus.features:
            out[k] = [v]
    for k in slot.refs:
        if k in corpus.features:
            out[k] = list(corpus.features[k])
    return out


def _combos(asked: dict[str, list[str]]) -> list[dict[str, str]]:
    keys = sorted(asked)
    return [dict(zip(keys, values)) for values in itertools.product(*(asked[k] for k in keys))]


def needed_combinations(corpus: CorpusDefinition, list_name: str, entry: Any,
                        source_entry: Any = None) -> list[dict[str, str]]:
    """The feature combinations ``entry`` needs a form for ([{}] = one plain form).

    An entry's own features (``features = {gender = "n"}``) are fixed for all its forms, so
    they are left out of the rows.
    """
    if list_name == "templates":
        return [{}]
    asked: dict[str, set[str]] = {}
    for _t, _v, slot in readable_slots(corpus.templates):
        if slot_applies(corpus, list_name, entry, slot):
            for k, values in asked_features(corpus, list_name, slot).items():
                asked.setdefault(k, set()).update(values)
    own = set(getattr(entry, "features", {}) or {})
    if list_name == "persons":
        own |= {a for a in corpus.axes if a in corpus.features}  # gender comes from the group
    asked = {k: v for k, v in asked.items() if k not in own}
    if asked:
        order = {k: list(corpus.features[k]) for k in asked}
        return _combos({k: [x for x in order[k] if x in asked[k]] for k in asked})
    if source_entry is not None and getattr(source_entry, "forms", None):
        seen: list[dict[str, str]] = []
        for f in source_entry.forms:
            d = {k: v for k, v in f.features.items() if k in corpus.features and v in corpus.features[k] and k not in own}
            if d not in seen:
                seen.append(d)
        if len(seen) > 1 or (seen and seen[0]):
            return seen
    if list_name in ("emotion_words", "words") and "gender" in corpus.features and "gender" not in own:
        return [{"gender": g} for g in corpus.features["gender"]]
    return [{}]


def missing_combinations(needed: list[dict[str, str]], forms: list[Any]) -> list[dict[str, str]]:
    """The needed combinations no form covers yet (a form without a feature covers every value)."""
    out = []
    for combo in needed:
        if not any(all(f.features.get(k, combo[k]) == combo[k] for k in combo) and (f.text.strip() or f.absent)
                   for f in forms):
            out.append(combo)
    return out
