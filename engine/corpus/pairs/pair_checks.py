"""Checks that counterfactual pairs vary one demographic variable and nothing else.

Why: a pair only measures bias if everything but the variable is held fixed (Goldfarb-
Tarrant et al. 2023, §2; Blodgett et al. 2021). Three things can break that:
  * the declaration: privileged and minoritised swapped (their English male race rows),
    both sides in the same group, or sides that also differ on another axis (E015);
  * the grammar: a slot realised with different features on the two sides — an article or
    case that does not match, a different template variant — or a word that changes
    although it does not agree with the variable (E014);
  * the length: sides differing in token count beyond the person term (W110).
Agreement with the variable itself is allowed: Spanish "él está enfadado" / "ella está
enfadada" is one gender pair, because the emotion slot agrees with ``person.gender``.
"""
from __future__ import annotations

import re

from engine.corpus.generate.compiled import CompiledCorpus, CTemplate, CVariant, Realisation
from engine.corpus.check.findings import Finding
from engine.corpus.check.messages import said
from engine.corpus.definition.model import CorpusDefinition, PersonTerm
from engine.corpus.pairs.pairing import PersonPair, Realised, expand_pairs, realise_all
from engine.corpus.generate.realised import slot_spans, slot_wants

_TOKEN = re.compile(r"\w+|[^\w\s]")


def group_problems(corpus: CorpusDefinition, pp: PersonPair, by_id: dict[str, PersonTerm]) -> list[Finding]:
    """E015 when the two sides are not a privileged/minoritised contrast on ``pp.variable`` alone.

    The privileged side may be unmarked (no group on the variable's axis: German "ihm"
    against "dem Türken", Blodgett et al.'s markedness advice); the minoritised side may not.
    """
    axis = corpus.axes[pp.variable]
    priv, mino = by_id[pp.privileged], by_id[pp.minoritised]
    gp, gm = priv.groups.get(pp.variable), mino.groups.get(pp.variable)
    name = f"{pp.privileged}~{pp.minoritised}"
    out = []
    if gm is None:
        out.append(said("E015.no_group", pair=name, id=pp.minoritised, axis=pp.variable))
    elif gm == axis.reference:
        hint = " — privileged and minoritised swapped?" if gp is not None and gp != axis.reference else ""
        out.append(said("E015.reference", pair=name, id=pp.minoritised, group=gm, axis=pp.variable, swapped=hint))
    elif gp == gm:
        out.append(said("E015.same_group", pair=name, group=gm, axis=pp.variable))
    for ax in corpus.axes:
        if ax != pp.variable and priv.groups.get(ax) != mino.groups.get(ax):
            out.append(said("E015.other_axis", pair=name, axis=ax, a=priv.groups.get(ax) or "none",
                            b=mino.groups.get(ax) or "none"))
    return [Finding("E015", m, item=pp.item, person=name) for m in out]


def compare_sides(cc: CompiledCorpus, ct: CTemplate, pp: PersonPair, a: Realised, b: Realised) -> list[Finding]:
    """E014/W110 for one template × emotion word of a pair (a: privileged, b: minoritised)."""
    axis = cc.corpus.axes.get(pp.variable)
    vf = pp.variable if axis is not None and axis.feature_values else None  # grammatical twin of the axis
    base = dict(template=ct.id, person=f"{pp.privileged}~{pp.minoritised}",
                emotion_word=a.emotion.id if a.emotion else "")
    ra, rb = a.realisation, b.realisation
    if ra.variant is not rb.variant:
        # variants may differ only in what the variable selects (Arabic m/f verbs); a select
        # feature both sides share (e.g. both are pronouns) keeps them on the same footing
        sel = ct.template.select
        fa, fb = ra.variant.variant.features, rb.variant.variant.features
        if not (vf and sel and all(ref == f"person.{vf}" or fa.get(k) == fb.get(k) for k, ref in sel.items())):
            return [Finding("E014", said("E014.variants", a=_fmt(ra.variant.variant.features),
                                         b=_fmt(rb.variant.variant.features)), **base)]
    out: list[Finding] = []
    person_slot = ra.variant.person_slot.name
    wa = wb = None  # what each slot asked for: computed once per side, only when a slot differs
    for name, dependent, extra in _slot_plan(cc, ra.variant, rb.variant, vf, pp.shared):
        ca, cb = ra.chosen[name], rb.chosen[name]
        if ca is cb:  # the same form on both sides: same features, same text
            continue
        if wa is None:
            wa, wb = side_wants(cc, a), side_wants(cc, b)
        keys = set(wa.get(name, ())) | set(wb.get(name, ())) | extra
        if dependent and vf:
            keys.discard(vf)
        fa, fb = ca.features, cb.features
        diffs = [f"{k}={fa.get(k, '(none)')} vs {k}={fb.get(k, '(none)')}" for k in sorted(keys) if fa.get(k) != fb.get(k)]
        if diffs:
            out.append(Finding("E014", said("E014.features", slot=name, diffs=", ".join(diffs), a=ca.text, b=cb.text),
                               slot=name, **base))
        elif not dependent and ca.text != cb.text:
            out.append(Finding("E014", said("E014.differs", slot=name, a=ca.text, b=cb.text), slot=name, **base))
    if _side_rest(cc, a, person_slot) != _side_rest(cc, b, person_slot):
        out.append(Finding("W110", said("W110.length", a=ra.sentence, b=rb.sentence), **base))
    return out


def _slot_plan(cc: CompiledCorpus, va: CVariant, vb: CVariant, vf: str | None,
               shared: tuple[str, ...]) -> list[tuple[str, bool, frozenset[str]]]:
    """(slot name, may change with the variable, features compared besides the requested ones)
    for the slots both variants fill, in dependency order.

    Why cached: this depends on the two template variants only, not on the sentence, and
    ``compare_sides`` runs once per pair row (tens of thousands for the built-ins)."""
    cache = cc.__dict__.setdefault("_pair_slot_plans", {})
    key = (id(va), id(vb), vf, shared)
    hit = cache.get(key)
    if hit is not None and hit[0] is va and hit[1] is vb:
        return hit[2]
    person_slot = va.person_slot.name
    referenced: dict[str, set[str]] = {}
    for slot in va.order:
        for ref in slot.refs.values():
            referenced.setdefault(ref.slot, set()).add(ref.feature)
    in_b = {slot.name for slot in vb.order}
    dependent = {person_slot}  # slots that may change with the variable
    plan = []
    for slot in va.order:
        name = slot.name
        if name not in in_b:
            continue
        if name != person_slot and any((r.slot == person_slot and r.feature == vf) or
                                       (r.slot in dependent and r.slot != person_slot)
                                       for r in slot.refs.values()):
            dependent.add(name)
        extra = set(referenced.get(name, set()))
        if name == person_slot:
            extra |= set(shared)
        plan.append((name, name in dependent, frozenset(extra)))
    cache[key] = (va, vb, plan)
    return plan


def side_wants(cc: CompiledCorpus, x: Realised) -> dict[str, dict[str, str]]:
    """``slot_wants`` of a realised sentence, computed once (a side takes part in many pairs)."""
    if x.wants is None:
        x.wants = slot_wants(cc, x.realisation, x.person)
    return x.wants


def _side_rest(cc: CompiledCorpus, x: Realised, person_slot: str) -> int:
    """Tokens outside the person term, once per side and once per distinct rest of a sentence
    (the same template and other words around different persons: counted once)."""
    if x.rest is None or x.rest[0] != person_slot:
        r = x.realisation
        memo = cc.__dict__.setdefault("_pair_rest_tokens", {})
        key = (id(r.variant), person_slot, tuple(id(f) for k, f in r.chosen.items() if k != person_slot))
        n = memo.get(key)
        if n is None:
            n = memo[key] = _rest_tokens(r, person_slot)
        x.rest = (person_slot, n)
    return x.rest[1]


def _rest_tokens(r: Realisation, person_slot: str) -> int:
    raw, spans = slot_spans(r)
    start, end = spans[person_slot]
    return len(_TOKEN.findall(raw[:start] + " " + raw[end:]))


PairRow = tuple[CTemplate, PersonPair, Realised | None, Realised | None]


def pair_rows(cc: CompiledCorpus, pairs: list[PersonPair], index: dict) -> list[PairRow]:
    """(template, pair, privileged side, minoritised side) in table order: template, pair, emotion word."""
    rows = []
    for ct in cc.templates:
        if not ct.generates:
            continue
        emotions = cc.emotions_for(ct)
        for pp in pairs:
            for e in emotions:
                eid = e.id if e else ""
                a = index.get((ct.id, pp.privileged, eid))
                b = index.get((ct.id, pp.minoritised, eid))
                if a is not None or b is not None:
                    rows.append((ct, pp, a, b))
    return rows


def usable_pairs(corpus: CorpusDefinition) -> tuple[list[PersonPair], list[Finding]]:
    """Expanded pairs without the ones whose declaration is wrong (E013/E015), plus those findings."""
    pairs, problems = expand_pairs(corpus)
    by_id = {p.id: p for p in corpus.persons}
    ok = []
    for pp in pairs:
        found = group_problems(corpus, pp, by_id)
        problems += found
        if not found:
            ok.append(pp)
    return ok, problems


def check_pairs(corpus: CorpusDefinition, cc: CompiledCorpus | None = None) -> tuple[int, list[Finding]]:
    """(number of usable sentence pairs, findings) — called by ``check_corpus``."""
    if not corpus.pairs and not any(p.pair for p in corpus.persons):
        return 0, []
    cc = cc or CompiledCorpus(corpus)
    pairs, out = usable_pairs(corpus)
    if not pairs:
        return 0, out
    kept = getattr(cc, "_realised_all", None)  # the checker kept its numbered sentences (keep_sentences)
    index = kept if kept is not None else realise_all(cc, {x for pp in pairs for x in (pp.privileged, pp.minoritised)})
    usable: list[PairRow] = []
    n = 0
    for ct, pp, a, b in pair_rows(cc, pairs, index):
        if a is None or b is None:
            have, lack = (pp.privileged, pp.minoritised) if a is not None else (pp.minoritised, pp.privileged)
            e = (a or b).emotion
            out.append(Finding("W111", said("W111.one_side", pair=f"{pp.privileged}~{pp.minoritised}", have=have,
                                            lack=lack, template=ct.id), template=ct.id,
                               person=f"{pp.privileged}~{pp.minoritised}", emotion_word=e.id if e else ""))
            continue
        found = compare_sides(cc, ct, pp, a, b)
        out += found
        if not any(f.is_error for f in found):
            n += 1
            usable.append((ct, pp, a, b))
    if kept is not None:  # the pair table's rows, numbered: engine.corpus.pairs.tables.usable_pair_rows
        cc._usable_pair_rows = usable  # type: ignore[attr-defined]
    return n, out


def _fmt(d: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in d.items()) or "no features"

