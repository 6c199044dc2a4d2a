"""Checker findings in the interface language.

Why here and not in the engine: the engine's messages are English data (files, CLI, packages);
the GUI composes the common ones again from the finding's fields with translated sentences,
so a German or Arabic translator reads *Für „furious“ fehlt eine Form mit gender=f* rather
than English. Codes without a sentence here keep the engine's message.
"""
from __future__ import annotations

import ast
import re

from engine.corpus import Finding
from engine.corpus.check.findings import CODES

from gui.i18n import N_, _, ngettext, pgettext

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
        if not ref.startswith("person."):  # the speaker feels (engine.corpus.check.checker._speaker_agreement)
            if not ref:
                return _("the slot {slot} does not ask for {feature}, and the speaker feels here: set the speaker's "
                         "grammatical gender in the Corpus tab, then add it to the slot").format(
                    slot="{" + f.slot + "}", feature=feature)
            return _("the slot {slot} does not ask for {feature}, and the speaker feels here: add {feature}={ref} "
                     "(the speaker's) to the slot, not the person's").format(
                slot="{" + f.slot + "}", feature=feature, ref=ref)
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
    composed = _compose(f) if _needs_words(f) else None
    if composed is not None:
        return composed[0]
    if untranslated_detail(f):
        return _(CODES[f.code][1])  # the code's title in the interface language; the details follow below
    return f.message


def _needs_words(f: Finding) -> bool:
    from gui.i18n import current_language

    return current_language() not in ("", "en") and f.code in CODES


def untranslated_detail(f: Finding) -> str:
    """The engine's English message of a finding that has no sentence of its own here, when the
    interface is not English ('' otherwise): the Problem column then shows the code's translated
    title, and the checks panel's detail box this text, marked as English."""
    from gui.i18n import current_language

    if current_language() in ("", "en") or f.code not in CODES or f.code in _OWN_SENTENCES:
        return ""
    composed = _compose(f)
    return "" if composed is not None and composed[1] else f.message


# --- every other code: the engine's message read back into its fields, then worded here ---------
# Each row: code, a pattern over the engine's English message (without the counts and the
# known-defect note the engine appends), the sentence shown, and whether that sentence carries
# everything the English did (False: the English stays available in the detail box).
def _q(name: str) -> str:
    """A repr()-quoted value: 'x', or "x" when the text holds a quote (merged in _compose)."""
    return rf"""(?:'(?P<{name}>(?:[^'\\]|\\.)*)'|"(?P<{name}__dq>(?:[^"\\]|\\.)*)")"""


_COMPOSED: list[tuple[str, re.Pattern[str], str, bool]] = [(c, re.compile(p), m, full) for c, p, m, full in [
    ("E001", rf"slot {_q('slot')} agrees on (?P<feature>\S+) with (?P<ref>\S+), but the form chosen for "
             rf"{_q('other')} has no {_q('missing')} feature",
     N_("the slot {slot} agrees on {feature} with {ref}, but the form chosen for {other} has no feature "
        "“{missing}”: give that form the feature"), True),
    ("E001", rf"slot {_q('slot')}: {_q('entry')} has no form with (?P<features>.+)",
     N_("“{entry}” has no form with {features}"), True),
    ("E002", rf"slot {_q('slot')} does not ask for (?P<feature>\S+), and its words have one form per \S+: add "
             r"\S+=(?P<ref>\S+) to the slot",
     N_("the slot {slot} does not ask for {feature}, and its words have one form per {feature}: add "
        "{feature}={ref} to the slot"), True),
    ("E002", rf"slot {_q('slot')}: several forms of {_q('entry')} fit (?P<features>.+); add a feature",
     N_("several forms of “{entry}” fit {features}: add a feature to tell them apart"), True),
    ("E004", rf"slot {_q('slot')} names no word {_q('word')}",
     N_("the slot {slot} names no word “{word}”: use person, emotion or the id of one of the corpus's words"), True),
    ("E004", rf"slot {_q('slot')}: no word with id {_q('word')}",
     N_("the slot {slot} names no word “{word}”: use person, emotion or the id of one of the corpus's words"), True),
    ("E005", rf"slot {_q('slot')} agrees on undeclared feature {_q('feature')}",
     N_("the slot {slot} agrees on “{feature}”, which is not a declared feature: declare it in the corpus settings "
        "or correct the name"), True),
    ("E005", rf"(?:shared |derived )?feature {_q('feature')} is not declared in \[features\]",
     N_("“{feature}” is not a declared grammatical feature: declare it in the corpus settings or correct the name"),
     True),
    ("E006", rf"derived value {_q('value')} is not one of (?P<values>\[.*\])",
     N_("“{value}” is not a declared value of its feature (values: {values})"), True),
    ("E006", rf"(?P<feature>[\w.-]+)={_q('value')} is not one of (?P<values>\[.*\])",
     N_("“{value}” is not a value of the feature {feature} (values: {values})"), True),
    ("E007", r"has no emotion$", N_("the emotion word has no emotion: choose one in the Emotion column"), True),
    ("E007", rf"emotion {_q('value')} is not one of (?P<values>\[.*\])",
     N_("“{value}” is not an emotion: choose one of {values}"), True),
    ("E007", r"has no kind$", N_("the emotion word has no kind: choose state or situation"), True),
    ("E007", rf"kind {_q('value')} is not one of (?P<values>\[.*\])",
     N_("“{value}” is not a kind of emotion word: choose one of {values}"), True),
    ("E009", rf"(?P<n>\d+) variants of template {_q('template')} fit (?P<features>.+)",
     N_("{n} variants of the template {template} fit {features}: give them different features"), True),
    ("E010", rf"select (?P<feature>[\w.-]+)={_q('ref')}: refer to",
     N_("the variant selection {feature}={ref} must refer to person.FEATURE or emotion.FEATURE"), True),
    ("E010", r"template text: (?P<detail>.+)",
     N_("the template text cannot be read: check its braces and slot names"), False),
    ("E011", rf"kind {_q('value')} is not one of (?P<values>\[.*\])",
     N_("“{value}” is not a kind of person term: choose one of {values}"), True),
    ("E011", r"person term has no gender", N_("the person term has no gender: choose one"), True),
    ("E011", r"given name has no (?P<axis>\S+) group", N_("the name has no {axis} group: tag it with one"), True),
    ("E011", r"noun phrase tagged with (?P<axis>\S+); noun phrases carry gender only",
     N_("a noun phrase is tagged with {axis}, but noun phrases carry a gender only: remove the tag"), True),
    ("E011", rf"feature mapping names unknown group {_q('value')}",
     N_("the feature mapping of an axis names the unknown group “{value}”"), True),
    ("E011", rf"(?P<axis>[\w.-]+)={_q('value')} is not one of (?P<values>\[.*\])",
     N_("“{value}” is not a group of the axis {axis}: choose one of {values}"), True),
    ("E012", r".", N_("not translated yet"), True),
    ("E013", r"pair (?P<a>\S+)~(?P<b>\S+) \((?P<variable>[^)]*)\) is declared twice",
     N_("the pair {a} ~ {b} ({variable}) is declared twice: remove one"), True),
    ("E013", rf"variable {_q('variable')} is not an axis \(axes: (?P<axes>.*)\)",
     N_("“{variable}” is not a social axis of the corpus (axes: {axes})"), True),
    ("E013", rf"no person with id {_q('id')}", N_("no person has the id “{id}”"), True),
    ("E013", r"zip needs lists of equal length \(privileged (?P<a>\d+), minoritised (?P<b>\d+)\)",
     N_("pairing one by one needs lists of the same length (privileged {a}, minoritised {b})"), True),
    ("E013", r"cross yields no pair",
     N_("crossing the lists yields no pair: no privileged and minoritised terms agree on the other axes"), True),
    ("E013", rf"person {_q('id')} on both sides", N_("the person {id} is on both sides of the pair"), True),
    ("E014", r"sides use different template variants \((?P<a>.*) vs (?P<b>.*)\)",
     N_("the two sides use different variants of the template ({a} / {b}): a pair may differ only in the person"),
     True),
    ("E014", rf"slot {_q('slot')} realised with different features: (?P<diffs>.*) \({_q('a')} vs {_q('b')}\)",
     N_("the slot {slot} has different features on the two sides ({diffs}: “{a}” / “{b}”): a pair may differ only "
        "in the person"), True),
    ("E014", rf"slot {_q('slot')} differs \({_q('a')} vs {_q('b')}\)",
     N_("the slot {slot} differs between the two sides (“{a}” / “{b}”) though it does not agree with the "
        "variable"), True),
    ("E015", rf"pair (?P<pair>\S+): minoritised side {_q('id')} has no (?P<axis>\S+) group",
     N_("pair {pair}: the minoritised side {id} has no {axis} group (only the privileged side may be unmarked)"),
     True),
    ("E015", rf"pair (?P<pair>\S+): minoritised side {_q('id')} is in the reference group {_q('group')} of "
             r"(?P<axis>[^ ]+?)(?P<swapped> — .*)?$",
     N_("pair {pair}: the minoritised side {id} is in the reference group “{group}” of {axis} (are the sides "
        "swapped?)"), True),
    ("E015", rf"pair (?P<pair>\S+): both sides are {_q('group')}: the pair does not vary (?P<axis>\S+)",
     N_("pair {pair}: both sides are “{group}”, so the pair does not vary {axis}"), True),
    ("E015", r"pair (?P<pair>\S+): sides also differ on (?P<axis>\S+) \((?P<a>.*) vs (?P<b>.*)\)",
     N_("pair {pair}: the sides also differ on {axis} ({a} / {b}); a pair varies one variable"), True),
    ("E016", rf"the adjective describes {_q('word')} \(the experiencer\)",
     N_("the adjective describes “{word}” (who feels), not the person, yet agrees with the person: hold its "
        "gender fixed, e.g. gender=m for the speaker"), True),
    ("E016", rf"the adjective describes the person \({_q('word')} is the person\) but has a fixed "
             r"gender=(?P<gender>\S+):",
     N_("the adjective describes the person but has the fixed gender={gender}: make it agree "
        "(gender=person.gender)"), True),
    ("E016", r"the speaker feels here, but the emotion word is gender=(?P<gender>\S+) while the corpus's speaker "
             r"is gender=(?P<speaker>[^:]+):",
     N_("the speaker feels here, but the emotion word has gender={gender} and the corpus's speaker "
        "gender={speaker}: use gender={speaker}"), True),
    ("E016", r"declared to describe the person, but the emotion word has a fixed gender=(?P<gender>[^:]+):",
     N_("declared to describe the person, but the emotion word has the fixed gender={gender}: make it agree "
        "(gender=person.gender)"), True),
    ("E016", r"the emotion word describes (?P<who>the speaker|a third party|the noun it describes|the person) "
             r"\(.*\), yet agrees with the person in (?P<features>[^:]+):",
     N_("the emotion word describes someone other than the person ({who}), yet agrees with the person in "
        "{features}: hold its features fixed for the one who feels"), True),
    ("E017", r"bare adjective after a verb of feeling",
     N_("bare adjective after a verb of feeling (شعر, أحسّ, انفعل): write بـ + noun (يشعر بالحزن) or the "
        "accusative (حزينًا)"), True),
    ("E018", r"carries an object pronoun \((?P<pronoun>[^)]*)\).*\(e\.g\. (?P<stem>[^)]*)\)",
     N_("the word before the person already carries an object pronoun ({pronoun}) and the person follows as "
        "its object: drop the pronoun (e.g. {stem})"), True),
    ("E019", r"two を objects",
     N_("two を objects in one clause: mark the causee with に or choose a verb with one object"), True),
    ("E020", rf"na-adjective {_q('word')} before a noun without な: write (?P<fix>\S+)",
     N_("the na-adjective “{word}” stands before a noun without な: write {fix}"), True),
    ("E021", r"causative without a causee",
     N_("causative without a causee (nobody is made to feel): add the person made to feel with を, e.g. 私を"),
     True),
    ("E022", rf"^{_q('word')}", N_("“{word}”: word that cannot describe its referent or stand in this frame"), False),
    ("E023", rf"^{_q('word')}", N_("“{word}”: form that does not exist in the language, or a false friend"), False),
    ("E024", rf"^(?:\S+ after )?{_q('word')}",
     N_("“{word}”: construction with the wrong reading (a calque, a trait for a feeling)"), False),
    ("E025", r"standard punctuation of (?P<language>\S+) \((?P<ends>[^)]*)\)",
     N_("the sentence does not end with the standard punctuation of {language} ({ends}): end the template with "
        "it"), True),
    # issue 38 (engine.corpus.check.agreement.MESSAGES)
    ("E026", rf"no form with (?P<features>.+?) for slot (?P<slot>\{{[^}}]+\}}) of (?P<template>\S+?)(?: \(it agrees "
             rf"on [^)]+\))?: enter {_q('expected')} in its own row",
     N_("no form with {features} for the slot {slot} of {template}: enter “{expected}” in a row of its own"), True),
    ("E026", r"no form with (?P<features>.+?) for slot (?P<slot>\{[^}]+\}) of (?P<template>\S+?)(?: \(it agrees "
             r"on [^)]+\))?: enter it in its own row",
     N_("no form with {features} for the slot {slot} of {template}: enter it in a row of its own"), True),
    ("E027", rf"form {_q('text')} holds two forms joined by {_q('sep')}: enter each form in its own row with its "
             r"features(?P<example>.*)$",
     N_("“{text}” holds two forms joined by “{sep}”: enter each form in a row of its own with its "
        "features{example}"), True),
    ("E028", rf"forms tagged (?P<a>\S+) \({_q('at')}\) and (?P<b>\S+) \({_q('bt')}\) are swapped",
     N_("the forms tagged {a} (“{at}”) and {b} (“{bt}”) are swapped: exchange their texts"), True),
    ("E028", rf"the same form {_q('text')} for (?P<a>\S+) and (?P<b>\S+): the (?P<c>\S+) form is {_q('expected')}",
     N_("the same form “{text}” for {a} and {b}: the {c} form is “{expected}”"), True),
    ("E028", rf"form {_q('text')} is tagged (?P<tagged>\S+) but reads as (?P<reads>\S+): expected {_q('expected')}",
     N_("“{text}” is tagged {tagged} but reads as {reads}: expected “{expected}”"), True),
    ("E029", r"name in slot (?P<slot>\{[^}]+\}) of (?P<template>\S+), which asks for (?P<case>\S+), has no "
             r"declension: declare one of (?P<classes>[^(]+?) \(",
     N_("the name in the slot {slot} of {template} asks for {case} but has no declension: declare one of "
        "{classes}"), True),
    ("E029", rf"declension {_q('value')} is not one the (?P<language>\S+) data knows: use one of (?P<classes>.+)$",
     N_("the declension “{value}” is not one the {language} data knows: use one of {classes}"), True),
    ("E030", r"the person in slot (?P<slot>\{[^}]+\}) takes (?P<case>\S+) here \((?P<about>.+)\): write "
             r"(?P<fix>\{.+\})$",
     N_("the person in the slot {slot} takes {case} here ({about}): write {fix}"), False),
    ("W101", r"^forms? (?P<forms>.+) listed for (?P<ids>.+)$",
     N_("the same form ({forms}) is listed for {ids}: give each entry its own word, or keep one entry"), True),
    ("W102", rf"form {_q('form')}: (?P<why>.+)",
     N_("the form “{form}” has stray punctuation or whitespace: remove it"), False),
    ("W103", rf"sentence starts lower-case: {_q('sentence')}",
     N_("the sentence “{sentence}” does not start with a capital letter"), True),
    ("W105", rf"template text {_q('text')} has doubled",
     N_("the template text “{text}” has doubled, leading or trailing spaces"), True),
    ("W107", rf"status {_q('value')} is not one of (?P<values>\[.*\])",
     N_("the review status “{value}” is not one of {values}"), True),
    ("W109", rf"slot {_q('slot')}: {_q('entry')} has no form with (?P<features>.+?) \((?P<why>.*)\); "
             r"combination skipped",
     N_("“{entry}” has no form with {features}, declared absent ({why}): those combinations are skipped"), True),
    ("W110", rf"sides differ in length beyond the person term: {_q('a')} vs {_q('b')}",
     N_("the two sides differ in more than the person term: “{a}” / “{b}”"), True),
    ("W112", rf"slot {_q('slot')} asks for (?P<feature>[^=]+)=(?P<value>\S+) but realises {_q('text')}, which "
             rf"does not match {_q('pattern')}",
     N_("the slot {slot} asks for {feature}={value}, but “{text}” does not have the expected shape ({pattern})"),
     True),
    ("W113", rf"^{_q('word')} is not in ",
     N_("“{word}” is not in the spelling dictionary: correct it, or add it to the corpus word list if it is "
        "right"), True),
    ("W114", rf"knows no spelling dictionary for {_q('language')}",
     N_("no spelling dictionary for “{language}” on this system: spelling not checked"), True),
]]

# engine.corpus.check.grammar.referent.WHO -> the labels of the form editor's "Experiencer" combo
_WHO = {"the speaker": "speaker", "a third party": "third party", "the noun it describes": "noun",
        "the person": "person"}
_SENTENCES = re.compile(r" \((?P<n>\d+) sentence\(s\), e\.g\. (?P<example>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\)")
_COMBINATIONS = re.compile(r" \((?P<n>\d+) combination\(s\)\)$")
_KNOWN = " — known defect of the published text: "


def _unquote(text: str) -> str:
    """A repr()-quoted value as written in the engine's message, without its quotes."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        try:
            return ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return text[1:-1]
    return text


def _compose(f: Finding) -> tuple[str, bool] | None:
    """The message of a finding worded in the interface language, and whether nothing was lost."""
    body, _sep, _known = f.message.partition(_KNOWN)
    tail = ""
    m = _SENTENCES.search(body)
    if m:
        n = int(m.group("n"))
        tail = " " + ngettext("({n} sentence, e.g. “{example}”)", "({n} sentences, e.g. “{example}”)", n).format(
            n=n, example=_unquote(m.group("example")))
        body = body[:m.start()] + body[m.end():]
    m = _COMBINATIONS.search(body)
    if m:
        n = int(m.group("n"))
        tail = " " + ngettext("(×{n} combination)", "(×{n} combinations)", n).format(n=n)
        body = body[:m.start()]
    for code, pattern, sentence, full in _COMPOSED:
        if code != f.code:
            continue
        hit = pattern.search(body)
        if hit:
            fields: dict[str, str] = {}
            for key, value in hit.groupdict().items():
                name = key.removesuffix("__dq")
                if value is not None or name not in fields:
                    fields[name] = (value or "").replace("\\'", "'").replace('\\"', '"')
            if "who" in fields:  # E016: the engine's English name of the one who feels
                fields["who"] = pgettext("who feels the emotion word", _WHO.get(fields["who"], fields["who"]))
            if f.known:
                tail += " — " + _("known defect of the published text")
            return _(sentence).format(**fields) + tail, full and not f.known
    return None
