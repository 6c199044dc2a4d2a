"""Mechanical fixes for checker findings: the edit a translator would make, ready to apply.

Why: advice such as "add a feature to tell them apart" blamed each emotion word when the fix
was one slot feature in the template (``gender=person.gender``); a pair set on one side was
silently half a pair. Where the fix is mechanical the finding names it, and the workbench
applies it with one click (as one undo step) through the same path-addressed edits
(``paths``) every other edit uses. Nothing here guesses: a fix is offered only when exactly
one edit makes the finding go away.
"""
from __future__ import annotations

import copy
import re
from typing import Any

from engine.corpus.check.findings import Finding
from engine.corpus.definition.model import CorpusDefinition

_ITEM_RX = re.compile(r"^(templates|persons|emotion_words|words)\[(.+)\]$")


from engine.corpus.check.fix_type import Fix  # noqa: F401 - the type of every fix, re-exported
from engine.corpus.check.grammar.referent import template_experiencer


def add_agreement(text: str, slot: str, feature: str, ref: str) -> str:
    """``{emotion kind=state}`` -> ``{emotion kind=state gender=person.gender}`` for slot ``slot``
    (every occurrence that does not set ``feature`` yet); other slots are left alone."""
    rx = re.compile(r"(?<!\{)\{(" + re.escape(slot) + r")((?::[^\s{}]+)?)([^{}]*)\}")

    def put(m: re.Match) -> str:
        body = m.group(3)
        if re.search(r"(^|\s)" + re.escape(feature) + r"=", body):
            return m.group(0)
        return "{" + m.group(1) + m.group(2) + body.rstrip() + f" {feature}={ref}" + "}"
    return rx.sub(put, text)


def pair_edits(corpus: CorpusDefinition, person_id: str, other_id: str) -> list[tuple[tuple, Any]]:
    """Set ``person_id``'s pair to ``other_id`` *and* mirror it: the other side names it back,
    and whoever either of them was paired with before is released. ``other_id`` '' unpairs."""
    idx = {p.id: i for i, p in enumerate(corpus.persons)}
    persons = corpus.persons
    a = persons[idx[person_id]]
    want: dict[str, str] = {a.id: other_id}
    if a.pair and a.pair in idx and persons[idx[a.pair]].pair == a.id and a.pair != other_id:
        want[a.pair] = ""
    if other_id:
        b = persons[idx[other_id]]
        want[b.id] = a.id
        if b.pair and b.pair in idx and b.pair != a.id and persons[idx[b.pair]].pair == b.id:
            want[b.pair] = ""
    return [(("persons", idx[pid], "pair"), value) for pid, value in want.items() if persons[idx[pid]].pair != value]


def replace_feature(text: str, slot: str, feature: str, value: str) -> str:
    """``{emotion kind=state gender=person.gender}`` -> ``{emotion kind=state gender=m}`` in slot ``slot``."""
    rx = re.compile(r"(?<!\{)\{(" + re.escape(slot) + r")((?::[^\s{}]+)?)([^{}]*)\}")

    def put(m: re.Match) -> str:
        body = re.sub(r"(^|\s)" + re.escape(feature) + r"=\S+", lambda x: f"{x.group(1)}{feature}={value}", m.group(3))
        return "{" + m.group(1) + m.group(2) + body + "}"
    return rx.sub(put, text)


def _template_index(corpus: CorpusDefinition, template_id: str) -> int:
    return next((k for k, t in enumerate(corpus.templates) if t.id == template_id), -1)


def _slot_edit(corpus: CorpusDefinition, i: int, rewrite: Any) -> list[tuple[tuple, Any]]:
    variants = copy.deepcopy(corpus.templates[i].variants)
    for v in variants:
        v.text = rewrite(v.text)
    if [v.text for v in variants] == [v.text for v in corpus.templates[i].variants]:
        return []
    return [(("templates", i, "variants"), variants)]


def _agreement_fix(corpus: CorpusDefinition, f: Finding, template_id: str) -> Fix | None:
    """E002: the slot does not ask for the feature its words differ in. Where the person feels, it
    agrees with the person; where the speaker feels, it is the corpus's speaker gender (agreeing with
    the person would raise E016 at once) — no fix while that gender is not declared, nor where a
    noun or a third party feels (which gender is a decision)."""
    feature, ref = next(iter(f.wanted.items()))
    i = _template_index(corpus, template_id)
    if i < 0 or not ref:  # '': the speaker feels and the speaker's gender is not declared (a decision)
        return None
    if feature == "gender" and ref.startswith("person."):
        who = template_experiencer(corpus, corpus.templates[i])
        if who == "speaker":
            if not corpus.speaker_gender:
                return None
            ref = corpus.speaker_gender
        elif who in ("noun", "third"):
            return None
    edits = _slot_edit(corpus, i, lambda text: add_agreement(text, f.slot, feature, ref))
    if not edits:
        return None
    return Fix(f"add {feature}={ref} to slot {f.slot!r} of {template_id}", edits,
               "agree", {"feature": feature, "ref": ref, "slot": f.slot, "template": template_id})


def _speaker_fix(corpus: CorpusDefinition, f: Finding, template_id: str) -> Fix | None:
    """E016 where the speaker feels and the speaker's gender is declared: the emotion slot holds
    ``gender=<speaker gender>`` instead of agreeing with the person (or holding another gender)."""
    i = _template_index(corpus, template_id)
    g = corpus.speaker_gender
    if i < 0 or not g or not f.slot or template_experiencer(corpus, corpus.templates[i]) != "speaker":
        return None
    edits = _slot_edit(corpus, i, lambda text: replace_feature(text, f.slot, "gender", g))
    if not edits:
        return None
    return Fix(f"hold slot {f.slot!r} of {template_id} at the speaker's gender: gender={g}", edits,
               "speaker", {"feature": "gender", "ref": g, "slot": f.slot, "template": template_id})


def fix_for(corpus: CorpusDefinition, f: Finding) -> Fix | None:
    """The one edit that removes ``f``, or None when the fix needs a decision."""
    m = _ITEM_RX.match(f.item or "")
    if f.code in ("E026", "E027", "E028") and m and m.group(1) != "templates":
        from engine.corpus.check.agreement_fixes import forms_fix

        return forms_fix(corpus, f, m.group(1), m.group(2))
    if f.code == "E030" and m and m.group(1) == "templates" and f.slot and f.wanted:
        return _case_fix(corpus, f, m.group(2))
    if f.code == "E002" and m and m.group(1) == "templates" and f.wanted and f.slot:
        return _agreement_fix(corpus, f, m.group(2))
    if f.code == "E016" and m and m.group(1) == "templates":
        return _speaker_fix(corpus, f, m.group(2))
    if f.code == "W106" and m and m.group(1) == "persons":
        p = next((q for q in corpus.persons if q.id == m.group(2)), None)
        if p is None:
            return None
        if p.pair and "not mirrored" in f.message:
            return Fix(f"mirror the pair: {p.pair} ~ {p.id}", pair_edits(corpus, p.id, p.pair), "mirror",
                       {"person": p.id, "other": p.pair})
        if not p.pair:
            free = [q.id for q in corpus.persons if q.kind == "noun_phrase" and q.gender and q.gender != p.gender
                    and not q.pair]
            if len(free) == 1:
                return Fix(f"pair {p.id} with {free[0]}", pair_edits(corpus, p.id, free[0]), "pair",
                           {"person": p.id, "other": free[0]})
    return None


def _case_fix(corpus: CorpusDefinition, f: Finding, template_id: str) -> Fix | None:
    """E030: ``{person}`` -> ``{person case=acc}`` in the variants where the frame governs the case."""
    from engine.corpus.check.agreement import frame_case
    from engine.corpus.definition.template_syntax import TemplateSyntaxError, parse_template
    from engine.corpus.generate.compiled import CVariant

    i = next((k for k, t in enumerate(corpus.templates) if t.id == template_id), -1)
    if i < 0:
        return None
    feature, value = next(iter(f.wanted.items()))
    variants = copy.deepcopy(corpus.templates[i].variants)
    for v in variants:
        try:
            parsed = parse_template(v.text)
        except TemplateSyntaxError:
            continue
        slot = parsed.slot(f.slot)
        if slot is not None and frame_case(corpus.language, CVariant(v, parsed, [], slot, None), slot)[0] == value:
            v.text = add_agreement(v.text, f.slot, feature, value)
    if [v.text for v in variants] == [v.text for v in corpus.templates[i].variants]:
        return None
    return Fix(f"add {feature}={value} to slot {f.slot!r} of {template_id}", [(("templates", i, "variants"), variants)],
               "case", {"feature": feature, "value": value, "slot": f.slot, "template": template_id})


def apply_fixes(corpus: CorpusDefinition, codes: set[str] | None = None, rounds: int = 10) -> list[Fix]:
    """Apply every mechanical fix the checker offers (only those of ``codes`` if given); the fixes
    applied, in order. Each round applies the fixes of one check whose edits touch different items,
    then checks again (a fix can reveal the next finding). The workbench's Fix button applies one;
    ``corpus fix`` (its CLI twin) applies them all."""
    from engine.corpus.check.checker import check_corpus
    from engine.corpus.definition.paths import assign

    done: list[Fix] = []
    for _round in range(rounds):
        touched: set[tuple] = set()
        applied = 0
        for f in check_corpus(corpus).findings:
            if not f.is_error or (codes and f.code not in codes):
                continue
            fix = fix_for(corpus, f)
            if fix is None or any(tuple(path[:2]) in touched for path, _value in fix.edits):
                continue
            for path, value in fix.edits:
                assign(corpus, path, copy.deepcopy(value))
                touched.add(tuple(path[:2]))
            done.append(fix)
            applied += 1
        if not applied:
            break
    return done
