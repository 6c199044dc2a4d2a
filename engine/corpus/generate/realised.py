"""Where each slot sits in a realised sentence and which features it asked for.

Why a module of its own: the generator only needs the sentence, but the checks that look
*inside* a realisation — [expect] shapes and counterfactual pair comparisons — need the
slot spans and the resolved slot requests, computed the same way in both places.
"""
from __future__ import annotations

from engine.corpus.generate.compiled import CEntry, CompiledCorpus, Realisation


def slot_spans(r: Realisation) -> tuple[str, dict[str, tuple[int, int]]]:
    """The sentence before capitalisation and each slot's (start, end) in it.

    Spans refer to the uncapitalised text so that they stay exact even where upper-casing
    the first letter changes its length (ß -> SS).
    """
    parts: list[str] = []
    spans: dict[str, tuple[int, int]] = {}
    pos = 0
    for piece in r.variant.parsed.pieces:
        text = piece if isinstance(piece, str) else r.chosen[piece.name].text
        if not isinstance(piece, str):
            spans[piece.name] = (pos, pos + len(text))
        parts.append(text)
        pos += len(text)
    return "".join(parts), spans


def slot_wants(cc: CompiledCorpus, r: Realisation, person: CEntry) -> dict[str, dict[str, str]]:
    """The features each slot asked for, agreement references resolved (as ``realise`` did).

    The inner dicts may be shared between calls (a slot without agreement asks for the same
    thing in every sentence): read them, do not change them."""
    out: dict[str, dict[str, str]] = {}
    fixed_of = cc.__dict__.setdefault("_slot_fixed", {})  # per slot: its fixed, non-filter features
    for slot in r.variant.order:
        fixed = fixed_of.get(id(slot))
        if fixed is None or fixed[0] is not slot:
            fixed = fixed_of[id(slot)] = (slot, {k: v for k, v in slot.fixed.items() if not cc.is_filter(slot, k)})
        if not slot.refs:
            out[slot.name] = fixed[1]
            continue
        wanted = dict(fixed[1])
        for key, ref in slot.refs.items():
            src = r.chosen.get(ref.slot)
            value = src.features.get(ref.feature) if src else None
            if value is None and ref.slot == "person":
                value = person.attrs.get(ref.feature)
            if value is not None:
                wanted[key] = value
        out[slot.name] = wanted
    return out
