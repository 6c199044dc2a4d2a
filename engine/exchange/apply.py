"""Apply what a translator returned to a corpus definition (in memory; nothing is saved).

Why so strict about keys: a unit that names no item, a form index that no longer exists,
or features that differ from the form at that index mean the corpus changed since the
file was exported; applying it anyway would put a feminine form where the masculine one
belongs. Such files are refused with the unit named. Units missing from the file leave
their forms unchanged (a translator may delete what they did not touch).
"""
from __future__ import annotations

import copy
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from engine.corpus import CorpusDefinition
from engine.corpus.definition.model import Form, Variant

from .errors import ExchangeError
from .keys import features_text
from .returned import PO, Returned, ReturnedFile
from .slots import brace_slots
from .status_rules import form_status, item_status
from .units import find_item, forms_of


@dataclass
class Change:
    item: str  # "emotion_words[angry]"
    what: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.item}: {'; '.join(self.what)}"


def slot_change(old: str, new: str) -> str:
    """What a translation did to a template's slots ('' when nothing): a CAT tool can drop
    ``{emotion}`` without a word, and the corpus then silently loses every emotion sentence."""
    before = Counter(s.text for s in brace_slots(old))
    after = Counter(s.text for s in brace_slots(new))
    if before == after:
        return ""
    lost, added = sorted((before - after).elements()), sorted((after - before).elements())
    if Counter(s.name for s in brace_slots(old)) == Counter(s.name for s in brace_slots(new)):
        return f"changes the options of {', '.join(lost)} to {', '.join(added)}"
    parts = ([f"drops {', '.join(lost)}"] if lost else []) + ([f"adds {', '.join(added)}"] if added else [])
    return " and ".join(parts)


def _validate(corpus: CorpusDefinition, returned: ReturnedFile, file: str,
              allow_slot_changes: bool = False) -> dict[tuple[str, str], list[Returned]]:
    by_item: dict[tuple[str, str], list[Returned]] = defaultdict(list)
    seen: set[tuple[str, str, int]] = set()
    for r in returned.units:
        k = r.key
        entry = r.where or str(k)
        if (k.section, k.entry, k.index) in seen:
            raise ExchangeError(file, f"{k} appears twice", entry=entry, fix="keep one entry per form")
        seen.add((k.section, k.entry, k.index))
        item = find_item(corpus, k.section, k.entry)
        if item is None:
            raise ExchangeError(file, f"{k.section}[{k.entry}] is not in corpus {corpus.id}", entry=entry,
                                fix="import into the corpus this file was exported from, or export a fresh file")
        forms = forms_of(k.section, item)
        if not forms:
            if k.index != 0 or k.features:
                raise ExchangeError(file, f"{k} does not match: {k.section}[{k.entry}] has no forms now", entry=entry,
                                    fix="the corpus changed since export; export a fresh file")
        elif k.index >= len(forms) or features_text(forms[k.index].features) != k.features:
            now = (features_text(forms[k.index].features) or "no features") if k.index < len(forms) else "no such form"
            raise ExchangeError(file, f"{k} does not match the corpus (form {k.index} now: {now})", entry=entry,
                                fix="the corpus changed since export; export a fresh file and carry the work over")
        if k.section == "templates" and forms and not allow_slot_changes and forms[k.index].text and r.text:
            what = slot_change(forms[k.index].text, r.text)
            if what:
                raise ExchangeError(file, f"the translation of {k} {what}", entry=entry,
                                    fix="restore the slot in your CAT tool, or pass --allow-slot-changes if the "
                                        "change is deliberate")
        by_item[k.item].append(r)
    return by_item


def _unit_note(r: Returned) -> str:
    return "\n".join(r.notes).strip("\n").rstrip()


def _returned_note(units: list[Returned]) -> str:
    """The item's note: the first form's note, then notes a translator wrote on other forms."""
    parts = [_unit_note(r) for r in sorted(units, key=lambda r: r.key.index)]
    return "\n".join(dict.fromkeys(p for p in parts if p.strip()))


def _same_words(a: str, b: str) -> bool:
    """The same note up to whitespace: tools re-wrap comments (polib breaks lines after hyphens, so
    'ar-camara2022' comes back as 'ar-' and 'camara2022' on two lines; Poedit and Weblate re-space)."""
    return "".join(a.split()) == "".join(b.split())


def _set_texts(section: str, item: Any, texts: list[str], drop_all: bool) -> None:
    if section == "templates":
        if not item.variants:
            if texts[0]:
                item.variants = [Variant(texts[0])]
            return
        for v, t in zip(item.variants, texts):
            v.text = t
        return
    if drop_all:
        item.forms = []
        return
    if not item.forms:
        if texts[0]:
            item.forms = [Form(texts[0])]
        return
    for f, t in zip(item.forms, texts):
        if t != f.text:
            f.text = t
            if t and getattr(f, "absent", ""):
                f.absent = ""


def apply_returned(corpus: CorpusDefinition, returned: ReturnedFile, *, file: str,
                   translator: str = "", allow_slot_changes: bool = False) -> tuple[CorpusDefinition, list[Change]]:
    """A changed copy of ``corpus`` and the list of changes (see status_rules.py for statuses).
    A template whose translation drops, adds or changes a slot is refused unless ``allow_slot_changes``."""
    by_item = _validate(corpus, returned, file, allow_slot_changes)
    new = copy.deepcopy(corpus)
    changes: list[Change] = []
    who = translator or returned.translator
    for (section, entry), units in by_item.items():
        item = find_item(new, section, entry)
        old = [f.text for f in forms_of(section, item)] or [""]
        texts = list(old)
        for r in units:
            texts[r.key.index] = r.text
        status = item.review.status
        statuses = [form_status(returned.fmt, status, old[r.key.index], r) for r in units]
        note = _returned_note(units)
        if not note and not any(r.key.index == 0 for r in units):
            note = item.review.note  # the unit carrying the note was not returned
        elif _same_words(note, item.review.note):
            note = item.review.note  # a tool re-wrapped or re-spaced the lines: not an edit
        text_changed = texts != old
        note_changed = note != item.review.note
        if not text_changed and not note_changed and all(s == status for s in statuses):
            continue
        all_empty = not any(texts)
        new_status = item_status(status, statuses, all_empty,
                                 untranslatable_hint=returned.fmt == PO and bool(note) and (text_changed or note_changed))
        change = Change(f"{section}[{entry}]")
        if text_changed:
            change.what += [f"form {i}: {a!r} -> {b!r}" for i, (a, b) in enumerate(zip(old, texts)) if a != b]
            _set_texts(section, item, texts, drop_all=all_empty and section != "templates")
        if new_status != status:
            change.what.append(f"status {status} -> {new_status}")
            item.review.status = new_status
        if note_changed:
            change.what.append("note changed")
            item.review.note = note
        if who and (text_changed or new_status != status) and item.review.translator != who:
            change.what.append(f"translator {who}")
            item.review.translator = who
        if change.what:
            changes.append(change)
    return new, changes
