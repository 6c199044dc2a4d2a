"""Checker findings in the interface language, from the findings' own fields.

Why no parsing: a finding carries its message key and typed fields (engine.corpus.check.messages);
the one function ``finding_text`` renders the engine's English from them and, given gettext, the
interface's sentence in any language — the translators' catalogs hold those sentences (N_-marked
in the engine's catalog). Rewording the engine's English changes no interface language. A finding
without a key (a rule not converted yet) shows its code's translated title, its English as the detail.
"""
from __future__ import annotations

from engine.corpus import Finding
from engine.corpus.check.findings import CODES
from engine.corpus.check.messages import complete, finding_text

from gui.i18n_core import N_, _, ngettext, pgettext

# feature values and keywords as the interface names them (files keep the English keys)
VALUE_LABELS = {
    "noun_phrase": N_("noun phrase"), "name": N_("name"), "identity_term": N_("identity term"),
    "state": N_("state"), "situation": N_("situation"),
    "anger": N_("anger"), "fear": N_("fear"), "joy": N_("joy"), "sadness": N_("sadness"),
    "female": N_("female"), "male": N_("male"),
    "subject": N_("subject"), "object": N_("object"),
}


# checker titles gui/labels.py does not list yet (shown as the Code column's tooltip and in the detail box)
MORE_CHECK_TITLES = [
    N_("pair names an unknown person or variable, or repeats a pair"),
    N_("pair sides differ in more than the variable (slot features, text or template variant)"),
    N_("pair sides swapped or not separated by the variable alone"),
    N_("form declared absent: its combinations are skipped"),
    N_("pair sides differ in length beyond the person term"),
    N_("only one side of a pair has a sentence: the pair is skipped"),
    N_("realised form does not have the shape [expect] asks for"),
    N_("emotion word agrees with the wrong referent (the person, where the speaker or a noun feels)"),
    N_("Arabic: bare adjective after a verb of feeling"),
    N_("Arabic: object pronoun together with a noun object"),
    N_("Japanese: two を objects in one clause"),
    N_("Japanese: na-adjective before a noun without な"),
    N_("Japanese: causative without a causee"),
    N_("word that cannot describe its referent or stand in this frame"),
    N_("form that does not exist in the language, or a false friend"),
    N_("construction with the wrong reading (a calque, a trait for a feeling)"),
    N_("missing or non-standard sentence-final punctuation"),
    N_("word not in the language's spelling dictionary (Hunspell, UniDic)"),
    N_("no spelling dictionary for the language on this system: spelling not checked"),
    N_("a group of a social axis has no names"),
    N_("unbalanced design: the cells of the social axes hold different numbers of names"),
    N_("a form the slot needs is missing (agreement)"),
    N_("two forms typed as one (joined by a separator)"),
    N_("form does not match the language's inflection (tags swapped, same form, wrong ending)"),
    N_("name in a slot asking for a case has no (known) declension"),
    N_("person in a frame that governs a case, without that case"),
]



#: engine.corpus.check.grammar.referent.WHO keys -> the labels of the form editor's "Experiencer" combo
_WHO = {"speaker": "speaker", "third": "third party", "noun": "noun", "person": "person"}


def value_label(value: str) -> str:
    """A stored keyword (noun_phrase, anger, female) as shown; unknown values stay as they are."""
    return _(VALUE_LABELS[value]) if value in VALUE_LABELS else value


def _english_ui() -> bool:
    from gui.i18n_core import current_language

    return current_language() in ("", "en")


def _value(name: str, value: object) -> object:
    """A field's value as the interface names it: who feels (E016) in the form editor's words."""
    if name == "who":
        return pgettext("who feels the emotion word", _WHO.get(str(value), str(value)))
    return value


def finding_message(f: Finding, entry: str = "") -> str:
    """The finding's message in the interface language (``entry``: kept for callers; the finding's
    fields name the item). The English interface shows the engine's English where the interface's
    sentence leaves something out (a rule's own advice from language data)."""
    if not f.key:
        return f.message if _english_ui() or f.code not in CODES else _(CODES[f.code][1])
    if _english_ui() and not complete(f):
        return f.message
    return finding_text(f, _, ngettext, _value)


def untranslated_detail(f: Finding) -> str:
    """The engine's English of a finding whose interface sentence leaves something out, when the
    interface is not English ('' otherwise): the checks panel's detail box shows it, marked English."""
    if _english_ui() or f.code not in CODES:
        return ""
    return "" if f.key and complete(f) else f.message
