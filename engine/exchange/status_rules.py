"""How a returned unit changes an item's review status.

The rules, chosen so that "export → edit in a CAT tool → import" equals editing the
definition by hand (a human edit makes an item ``translated``):

PO (exported: ``fuzzy`` on forms of ``new``/``machine-translated`` items that have text)
  * text changed, not fuzzy           -> translated
  * fuzzy removed, text unchanged     -> translated (the translator confirmed it)
  * fuzzy kept, text unchanged        -> status unchanged
  * fuzzy set on a translated/reviewed form, or text changed but left fuzzy -> new
  * otherwise                         -> unchanged
XLIFF (exported: state initial/translated/reviewed, subState ``eec:<status>``)
  * state changed by the tool/translator -> initial: new (machine-translated / untranslatable
    when subState says so), translated: translated, reviewed/final: reviewed
  * state unchanged but subState changed to another ``eec:<status>`` -> that status
  * state unchanged, text changed     -> translated
  * otherwise                         -> unchanged
An item's status is the least advanced of its forms' (new < machine-translated <
translated < reviewed). When every form of an item comes back empty it has no forms:
``untranslatable`` if the translator said so (XLIFF subState, or in PO a note explaining
why), else ``new`` (which the checker reports as untranslated).
"""
from __future__ import annotations

from engine.corpus.definition.model import REVIEW_STATUSES

from .returned import PO, Returned

ORDER = {"new": 0, "machine-translated": 1, "translated": 2, "reviewed": 3}
STATE_OF = {"new": "initial", "machine-translated": "initial", "translated": "translated", "reviewed": "reviewed",
            "untranslatable": "initial"}
STATES = ("initial", "translated", "reviewed", "final")


def exported_fuzzy(status: str, text: str) -> bool:
    return status in ("new", "machine-translated") and bool(text)


def exported_state(status: str, text: str) -> str:
    state = STATE_OF.get(status, "initial")
    return state if text or state == "initial" else "initial"


def sub_state(status: str) -> str:
    return f"eec:{status}" if status in REVIEW_STATUSES else ""


def form_status(fmt: str, status: str, old_text: str, r: Returned) -> str:
    """The status this one returned form implies for its item."""
    changed = r.text != old_text
    if fmt == PO:
        was_fuzzy = exported_fuzzy(status, old_text)
        if not r.fuzzy:
            if changed and r.text:
                return "translated"
            if not changed and was_fuzzy:
                return "translated"
            return status if not changed else "new"
        if not changed and was_fuzzy:
            return status
        return "new"
    state = r.state if r.state in STATES else "initial"
    if state != exported_state(status, old_text):
        if state == "initial":
            if r.sub_state == "eec:machine-translated" and r.text:
                return "machine-translated"
            if r.sub_state == "eec:untranslatable" and not r.text:
                return "untranslatable"
            return "new"
        return "translated" if state == "translated" else "reviewed"
    if r.sub_state and r.sub_state != sub_state(status) and r.sub_state.startswith("eec:"):
        wanted = r.sub_state[4:]
        if wanted in REVIEW_STATUSES:
            return wanted
    if changed:
        return "translated" if r.text else "new"
    return status


def item_status(current: str, form_statuses: list[str], all_empty: bool, untranslatable_hint: bool) -> str:
    """Combine the forms' statuses (see the module docstring)."""
    if all_empty:
        return "untranslatable" if untranslatable_hint or "untranslatable" in form_statuses else "new"
    known = [s for s in form_statuses if s in ORDER]
    if not known:
        return current
    return min(known, key=ORDER.__getitem__)
