"""One-click fixes for E026-E028: the entry's forms as the language's inflection data writes them.

Why a module of its own: each fix rebuilds an entry's form list (tag the form there is, add the
predicted one, split "a / b" into two rows, swap two tags, respell a form), one edit of one path
(``(list, index, "forms")``), so the workbench applies it as one undo step like every other fix
(``fixes.fix_for``). A fix is offered only when the data tells exactly what to write.
"""
from __future__ import annotations

import copy

from engine.corpus.check.agreement import SEPARATOR, asks, mismatches, missing_forms, required_gaps, template_slots
from engine.corpus.check.fix_type import Fix
from engine.corpus.check.findings import Finding
from engine.corpus.check.grammar.inflection import BASE, OTHER, inflection
from engine.corpus.definition.model import CorpusDefinition, Form
from engine.corpus.translate.progress import auto_status


def forms_fix(corpus: CorpusDefinition, f: Finding, list_name: str, entry_id: str) -> Fix | None:
    entries = getattr(corpus, list_name)
    i = next((k for k, e in enumerate(entries) if e.id == entry_id), -1)
    if i < 0:
        return None
    entry = entries[i]
    forms = {"E026": _add_missing, "E027": _split, "E028": _mismatch}[f.code](corpus, list_name, entry, f)
    if forms is None:
        return None
    shown = ", ".join(f"{x.text} ({', '.join(f'{k}={v}' for k, v in x.features.items())})" if x.features else x.text
                      for x in forms)
    edits: list = [((list_name, i, "forms"), forms)]
    # the status follows the work, as when the translator types the forms (new <-> translated)
    after = copy.deepcopy(entry)
    after.forms = forms
    if auto_status(list_name, after, missing_forms(corpus, list_name, after)) != entry.review.status:
        edits.append(((list_name, i, "review", "status"), after.review.status))
    return Fix(f"set the forms of {entry_id} to {shown}", edits, "forms", {"entry": entry_id, "forms": shown})


def _add_missing(corpus: CorpusDefinition, list_name: str, entry, f: Finding) -> list[Form] | None:
    """Tag each untagged form with the value it reads as, then add every predicted missing form."""
    gaps = required_gaps(corpus, list_name, entry, template_slots(corpus))
    if not gaps or any(not g.expected for g in gaps):
        return None
    infl = inflection(corpus.language)
    forms = copy.deepcopy(entry.forms)
    for form in forms:
        for a in infl.agreement:
            if a.feature in form.features or not a.applies(form.features):
                continue
            side = a.read(form.text.strip())
            if side in (BASE, OTHER) and any(a.feature in g.combo for g in gaps):
                form.features[a.feature] = a.base if side == BASE else a.other
    for g in gaps:
        if not any(all(x.features.get(k) == v for k, v in g.combo.items()) for x in forms):
            base = next((x for x in forms if all(x.features.get(k, v) == v for k, v in g.combo.items()
                                                 if k not in _data(infl))), None)
            extra = {k: v for k, v in (base.features if base else {}).items() if k not in g.combo}
            forms.append(Form(g.expected, {**extra, **g.combo}))
    return forms if forms != entry.forms else None


def _data(infl) -> set[str]:
    return {a.feature for a in infl.agreement}


def _split(corpus: CorpusDefinition, list_name: str, entry, f: Finding) -> list[Form] | None:
    """"arrabbiata / arrabbiato" -> two rows, each tagged with the value the data reads it as, for a
    feature the templates ask of this entry."""
    infl = inflection(corpus.language)
    asked = {k for a in asks(corpus, list_name, entry) for k in a.combo}
    out: list[Form] = []
    for form in entry.forms:
        parts = [p for p in SEPARATOR.split(form.text.strip()) if p] if SEPARATOR.search(form.text) else []
        if len(parts) != 2:
            out.append(copy.deepcopy(form))
            continue
        tagged = _tag_pair(infl, parts, form.features, asked)
        if tagged is None:
            return None
        out += tagged
    return out if out != entry.forms else None


def _tag_pair(infl, parts: list[str], features: dict[str, str], asked: set[str]) -> list[Form] | None:
    for a in infl.agreement:
        if a.feature in features or (asked and a.feature not in asked) or not a.applies(features):
            continue
        sides = [a.read(p) for p in parts]
        if sorted(sides) == sorted([BASE, OTHER]):
            return [Form(p, {**features, a.feature: a.base if s == BASE else a.other}) for p, s in zip(parts, sides)]
    return None


def _mismatch(corpus: CorpusDefinition, list_name: str, entry, f: Finding) -> list[Form] | None:
    found = mismatches(corpus.language, entry.forms)
    if not found:
        return None
    m = found[0]
    forms = copy.deepcopy(entry.forms)
    if m.kind == "swapped":
        forms[m.base].text, forms[m.other].text = forms[m.other].text, forms[m.base].text
    elif m.expected:
        forms[m.wrong].text = m.expected
    else:
        return None
    return forms
