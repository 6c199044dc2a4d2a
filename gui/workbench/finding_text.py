"""Checker findings in the interface language.

Why here and not in the engine: the engine's messages are English data (files, CLI, packages);
the GUI composes the common ones again from the finding's fields with translated sentences,
so a German or Arabic translator reads *Für „furious“ fehlt eine Form mit gender=f* rather
than English. Codes without a sentence here keep the engine's message.
"""
from __future__ import annotations

import re

from engine.corpus import Finding
from engine.corpus.findings import CODES

from gui.i18n import N_, _

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
]


#: codes finding_message words itself (from the finding's fields)
_OWN_SENTENCES = {"E001", "E002", "E003", "E008", "E012", "W104", "W106", "W108", "W111", "W115", "W116"}


def value_label(value: str) -> str:
    """A stored keyword (noun_phrase, anger, female) as shown; unknown values stay as they are."""
    return _(VALUE_LABELS[value]) if value in VALUE_LABELS else value


def _features(wanted: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in wanted.items())


def finding_message(f: Finding, entry: str = "") -> str:
    """The finding's message in the interface language (``entry``: the id of the item to fix)."""
    plain = all("." not in v for v in f.wanted.values())  # agreement references keep the engine's wording
    if f.code == "E001" and f.wanted and plain and entry and "untranslated" not in f.message:
        return _("“{entry}” has no form with {features}").format(entry=entry, features=_features(f.wanted))
    if f.code == "E002" and f.item.startswith("templates[") and f.wanted:
        feature, ref = next(iter(f.wanted.items()))
        return _("the slot {slot} does not ask for {feature}, and its words have one form per {feature}: add "
                 "{feature}={ref} to the slot").format(slot="{" + f.slot + "}", feature=feature, ref=ref)
    if f.code == "W106":
        m = re.search(r"'([^']+)''s pair", f.message)
        if "not mirrored" in f.message and m:
            return _("the pair is set on this side only: set the pair of {other} to {person} too").format(
                other=m.group(1), person=f.person)
        if "has no pair" in f.message:
            return _("noun phrase without a pair: choose its counterpart of the other gender in the Pair column, "
                     "else its sentences have no counterfactual twin")
        return _("the pair names nobody or a person of the same gender")
    if f.code == "W115":
        m = re.match(r"group '(.+)' of axis '(.+?)'", f.message)
        if m:
            return _("the group “{group}” of the axis {axis} has no names: tag a name with it, or remove the "
                     "group").format(group=m.group(1), axis=m.group(2))
    if f.code == "W116":
        m = re.search(r"per [^:]+: (.+); give each \w+ (\d+)", f.message)
        if m:
            return _("unbalanced design ({cells}): give each cell {n} names, so that no group's mean rests on "
                     "fewer sentences").format(cells=m.group(1), n=m.group(2))
    if f.code in ("W115", "W116"):
        return _(CODES[f.code][1])  # a message this module cannot read: its title, never English
    if f.code == "E002" and f.wanted and plain and entry:
        return _("several forms of “{entry}” fit {features}: add a feature to tell them apart").format(
            entry=entry, features=_features(f.wanted))
    if f.code == "E012" or (f.code == "E001" and "untranslated" in f.message):
        return _("not translated yet")
    if f.code == "W108":
        return _("marked untranslatable: its sentences are not generated")
    if f.code == "E008":
        return _("empty form")
    if f.code == "E003":
        return _("template has no person slot")
    if f.code == "W111" and f.template:
        return _("only one side of a pair has a sentence in template {template}: the pair is skipped").format(
            template=f.template)
    if f.code == "W104" and entry:
        return _("the name “{entry}” does not start with a capital letter").format(entry=entry)
    if untranslated_detail(f):
        return _(CODES[f.code][1])  # the code's title in the interface language; the details follow below
    return f.message


def untranslated_detail(f: Finding) -> str:
    """The engine's English message of a finding that has no sentence of its own here, when the
    interface is not English ('' otherwise): the Problem column then shows the code's translated
    title, and the checks panel's detail box this text, marked as English."""
    from gui.i18n import current_language

    if current_language() in ("", "en") or f.code not in CODES or f.code in _OWN_SENTENCES:
        return ""
    return f.message
