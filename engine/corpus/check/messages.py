"""What each checker finding says, as data: one catalog of messages with named fields.

Why: a finding is a code, a message key and its typed fields (``Finding.key``, ``Finding.params``);
its text is rendered from this catalog by one function, ``finding_text``, in the engine's English
(the command line, files, packages) or, given a translator, in any interface language. The GUI
used to read the engine's English back into fields with 61 regular expressions; rewording an
English message then broke the Spanish interface without a test failing. Now the English
(``en``, a ``str.format`` template; ``!r`` quotes as Python does) and the interface's sentence
(``ui``, N_-marked: the translators' catalogs hold it) are two templates over the same fields.
``Message``, ``Said`` and the rendering itself live in engine.common.messages, shared with the
statistics' reasons (engine.stats.reasons); this module adds the checker's tails (counts, known defects).

``complete``: the interface sentence carries everything the English does (False: the GUI also
offers the English, marked as such). Adding a checker rule: its code and title in
``findings.CODES``, its message here, ``said(key, **fields)`` where it is found.
"""
from __future__ import annotations

from typing import Any, Callable

from engine.common.i18n import N_
from engine.common.messages import Message, Said, Translate, render, said_in

__all__ = ["MESSAGES", "Message", "Said", "TAILS", "complete", "finding_text", "ngettext", "said"]


def _m(code: str, en: str, ui: str, complete: bool = True) -> Message:
    return Message(code, en, ui, complete)


MESSAGES: dict[str, Message] = {
    # -- agreement (engine.corpus.generate.compiled) -----------------------------------------------
    "E001.agree_missing": _m("E001", "slot {slot!r} agrees on {feature} with {ref}, but the form chosen for {other!r} "
                                     "has no {missing!r} feature",
                             N_("the slot {slot} agrees on {feature} with {ref}, but the form chosen for {other} has "
                                "no feature “{missing}”: give that form the feature")),
    "E001.no_form": _m("E001", "slot {slot!r}: {entry!r} has no form with {features}",
                       N_("“{entry}” has no form with {features}")),
    "E001.no_forms": _m("E001", "slot {slot!r}: entry {entry!r} has no forms (untranslated)",
                        N_("not translated yet")),
    "E002.slot_fix": _m("E002", "slot {slot!r} does not ask for {feature}, and its words have one form per {feature}: "
                                "add {feature}=person.{feature} to the slot (Fix: add {feature}=person.{feature})",
                        N_("the slot {slot} does not ask for {feature}, and its words have one form per {feature}: add "
                           "{feature}={ref} to the slot")),
    "E002.ambiguous": _m("E002", "slot {slot!r}: several forms of {entry!r} fit {features}; add a feature to tell them "
                                 "apart",
                         N_("several forms of “{entry}” fit {features}: add a feature to tell them apart")),
    # -- required forms, forms against the language's data, names that decline (issue 38; engine.corpus.check.agreement)
    "E026.expected": _m("E026", "no form with {features} for slot {slot} of {template}{because}: enter {expected!r} in "
                                "its own row",
                        N_("no form with {features} for the slot {slot} of {template}: enter “{expected}” in a row of "
                           "its own")),
    "E026.row": _m("E026", "no form with {features} for slot {slot} of {template}{because}: enter it in its own row",
                   N_("no form with {features} for the slot {slot} of {template}: enter it in a row of its own")),
    "E027": _m("E027", "form {text!r} holds two forms joined by {sep!r}: enter each form in its own row with its "
                       "features{example}",
               N_("“{text}” holds two forms joined by “{sep}”: enter each form in a row of its own with its "
                  "features{example}")),
    "E028.swapped": _m("E028", "forms tagged {a} ({at!r}) and {b} ({bt!r}) are swapped: the data reads {at!r} as {b}",
                       N_("the forms tagged {a} (“{at}”) and {b} (“{bt}”) are swapped: exchange their texts")),
    "E028.same": _m("E028", "the same form {text!r} for {a} and {b}: the {c} form is {expected!r}",
                    N_("the same form “{text}” for {a} and {b}: the {c} form is “{expected}”")),
    "E028.reads": _m("E028", "form {text!r} is tagged {tagged} but reads as {reads}: expected {expected!r}",
                     N_("“{text}” is tagged {tagged} but reads as {reads}: expected “{expected}”")),
    "E029.none": _m("E029", "name in slot {slot} of {template}, which asks for {case}, has no declension: declare one "
                            "of {classes} (features = {{ {feature} = \"...\" }})",
                    N_("the name in the slot {slot} of {template} asks for {case} but has no declension: declare one "
                       "of {classes}")),
    "E029.unknown": _m("E029", "declension {value!r} is not one the {language} data knows: use one of {classes}",
                       N_("the declension “{value}” is not one the {language} data knows: use one of {classes}")),
    "E030": _m("E030", "the person in slot {slot} takes {case} here ({about}): write {fix}",
               N_("the person in the slot {slot} takes {case} here ({about}): write {fix}"), False),
    "W109.absent": _m("W109", "slot {slot!r}: {entry!r} has no form with {features} ({why}); combination skipped",
                      N_("“{entry}” has no form with {features}, declared absent ({why}): those combinations are "
                         "skipped")),
    "E009.variants": _m("E009", "{n} variants of template {template!r} fit {features}",
                        N_("{n} variants of the template {template} fit {features}: give them different features")),
    "E004.no_word_id": _m("E004", "slot {slot!r}: no word with id {word!r}",
                          N_("the slot {slot} names no word “{word}”: use person, emotion or the id of one of the "
                             "corpus's words")),
    "E010.text": _m("E010", "template text: {detail}",
                    N_("the template text cannot be read: check its braces and slot names"), False),
    "E010.order": _m("E010", "{detail}", N_("the template text cannot be read: check its braces and slot names"), False),
    # -- definitions (engine.corpus.check.checker) ---------------------------------------------------
    "E005.undeclared": _m("E005", "feature {feature!r} is not declared in [features] (declared: {declared})",
                          N_("“{feature}” is not a declared grammatical feature: declare it in the corpus settings or "
                             "correct the name")),
    "E005.derived": _m("E005", "derived feature {feature!r} is not declared in [features]",
                       N_("“{feature}” is not a declared grammatical feature: declare it in the corpus settings or "
                          "correct the name")),
    "E005.shared": _m("E005", "shared feature {feature!r} is not declared in [features]",
                      N_("“{feature}” is not a declared grammatical feature: declare it in the corpus settings or "
                         "correct the name")),
    "E005.slot": _m("E005", "slot {slot!r} agrees on undeclared feature {feature!r}",
                    N_("the slot {slot} agrees on “{feature}”, which is not a declared feature: declare it in the "
                       "corpus settings or correct the name")),
    "E006.value": _m("E006", "{feature}={value!r} is not one of {values}",
                     N_("“{value}” is not a value of the feature {feature} (values: {values})")),
    "E006.derived": _m("E006", "derived value {value!r} is not one of {values}",
                       N_("“{value}” is not a declared value of its feature (values: {values})")),
    "E011.mapping": _m("E011", "feature mapping names unknown group {value!r}",
                       N_("the feature mapping of an axis names the unknown group “{value}”")),
    "E011.kind": _m("E011", "kind {value!r} is not one of {values}",
                    N_("“{value}” is not a kind of person term: choose one of {values}")),
    "E011.group": _m("E011", "{axis}={value!r} is not one of {values}",
                     N_("“{value}” is not a group of the axis {axis}: choose one of {values}")),
    "E011.no_gender": _m("E011", "person term has no gender", N_("the person term has no gender: choose one")),
    "E011.no_group": _m("E011", "given name has no {axis} group", N_("the name has no {axis} group: tag it with one")),
    "E011.np_group": _m("E011", "noun phrase tagged with {axis}; noun phrases carry gender only",
                        N_("a noun phrase is tagged with {axis}, but noun phrases carry a gender only: remove the tag")),
    "W108.person": _m("W108", "marked untranslatable and has no forms: its sentences are not generated",
                      N_("marked untranslatable: its sentences are not generated")),
    "W108.emotion": _m("W108", "marked untranslatable and has no forms: its sentences are not generated{note}",
                       N_("marked untranslatable: its sentences are not generated")),
    "E012.person": _m("E012", "no forms: this person term yields no sentences", N_("not translated yet")),
    "E012.emotion": _m("E012", "no forms (untranslated): combinations with this word are skipped",
                       N_("not translated yet")),
    "E012.template": _m("E012", "template not translated yet: it yields no sentences", N_("not translated yet")),
    "W104.name": _m("W104", "name {entry!r} does not start with a capital letter",
                    N_("the name “{entry}” does not start with a capital letter")),
    "W107.status": _m("W107", "status {value!r} is not one of {values}",
                      N_("the review status “{value}” is not one of {values}")),
    "W106.same_gender": _m("W106", "pair {pair!r} is missing or of the same gender",
                           N_("the pair names nobody or a person of the same gender")),
    "W106.not_mirrored": _m("W106", "pair not mirrored: {other!r}'s pair {now}; set it to {person!r} (Fix: mirror the "
                                    "pair)",
                            N_("the pair is set on this side only: set the pair of {other} to {person} too")),
    "W106.no_pair": _m("W106", "noun phrase has no pair: choose its counterpart of the other gender{hint} in the Pair "
                               "column, else its sentences have no counterfactual twin",
                       N_("noun phrase without a pair: choose its counterpart of the other gender in the Pair column, "
                          "else its sentences have no counterfactual twin")),
    "E007.no_emotion": _m("E007", "has no emotion", N_("the emotion word has no emotion: choose one in the Emotion column")),
    "E007.emotion": _m("E007", "emotion {value!r} is not one of {values}",
                       N_("“{value}” is not an emotion: choose one of {values}")),
    "E007.no_kind": _m("E007", "has no kind", N_("the emotion word has no kind: choose state or situation")),
    "E007.kind": _m("E007", "kind {value!r} is not one of {values}",
                    N_("“{value}” is not a kind of emotion word: choose one of {values}")),
    "E008.empty": _m("E008", "empty form", N_("empty form")),
    "W102.stray": _m("W102", "form {form!r}: {why}", N_("the form “{form}” has stray punctuation or whitespace: remove it"),
                     False),
    "W101.duplicate": _m("W101", "{forms_word} {forms} listed for {ids}",
                         N_("the same form ({forms}) is listed for {ids}: give each entry its own word, or keep one "
                            "entry")),
    "W105.spaces": _m("W105", "template text {text!r} has doubled, leading or trailing spaces",
                      N_("the template text “{text}” has doubled, leading or trailing spaces")),
    "E010.select": _m("E010", "select {feature}={ref!r}: refer to person.FEATURE or emotion.FEATURE",
                      N_("the variant selection {feature}={ref} must refer to person.FEATURE or emotion.FEATURE")),
    "E003.no_person": _m("E003", "template has no {{person}} slot", N_("template has no person slot")),
    "E004.no_word": _m("E004", "slot {slot!r} names no word {word!r} (known: {known})",
                       N_("the slot {slot} names no word “{word}”: use person, emotion or the id of one of the "
                          "corpus's words")),
    "E006.kind": _m("E006", "kind={value!r} is not one of {values}",
                    N_("“{value}” is not a value of the feature {feature} (values: {values})")),
    "W103.lower": _m("W103", "sentence starts lower-case: {sentence!r}",
                     N_("the sentence “{sentence}” does not start with a capital letter")),
    # -- social axes (engine.corpus.definition.axes) --------------------------------------------------
    "W115.empty_group": _m("W115", "group {group!r} of axis {axis!r} has no {who}: tag a {who} with it (or remove the "
                                   "group), else every comparison with {group!r} is empty",
                           N_("the group “{group}” of the axis {axis} has no names: tag a name with it, or remove the "
                              "group")),
    "W116.noun_phrases": _m("W116", "unbalanced design: noun phrases per gender: {cells}; give each gender {n} so that "
                                    "no group's mean rests on fewer sentences",
                            N_("unbalanced design ({cells}): give each cell {n} names, so that no group's mean rests on "
                               "fewer sentences")),
    "W116.names": _m("W116", "unbalanced design: names per gender × {axis}: {cells}; give each cell {n} names so that "
                             "no group's mean rests on fewer sentences",
                     N_("unbalanced design ({cells}): give each cell {n} names, so that no group's mean rests on "
                        "fewer sentences")),
    # -- counterfactual pairs (engine.corpus.pairs) ---------------------------------------------------
    "E013.twice": _m("E013", "pair {a}~{b} ({variable}) is declared twice",
                     N_("the pair {a} ~ {b} ({variable}) is declared twice: remove one")),
    "E013.not_axis": _m("E013", "variable {variable!r} is not an axis (axes: {axes})",
                        N_("“{variable}” is not a social axis of the corpus (axes: {axes})")),
    "E013.no_person": _m("E013", "no person with id {id!r}", N_("no person has the id “{id}”")),
    "E013.zip": _m("E013", "zip needs lists of equal length (privileged {a}, minoritised {b})",
                   N_("pairing one by one needs lists of the same length (privileged {a}, minoritised {b})")),
    "E013.cross": _m("E013", "cross yields no pair: no privileged and minoritised terms agree on the other axes",
                     N_("crossing the lists yields no pair: no privileged and minoritised terms agree on the other "
                        "axes")),
    "E013.both_sides": _m("E013", "person {id!r} on both sides", N_("the person {id} is on both sides of the pair")),
    "E015.no_group": _m("E015", "pair {pair}: minoritised side {id!r} has no {axis} group (only the privileged side may be "
                                 "unmarked)",
                        N_("pair {pair}: the minoritised side {id} has no {axis} group (only the privileged side may "
                           "be unmarked)")),
    "E015.reference": _m("E015", "pair {pair}: minoritised side {id!r} is in the reference group {group!r} of "
                                 "{axis}{swapped}",
                         N_("pair {pair}: the minoritised side {id} is in the reference group “{group}” of {axis} (are "
                            "the sides swapped?)")),
    "E015.same_group": _m("E015", "pair {pair}: both sides are {group!r}: the pair does not vary {axis}",
                          N_("pair {pair}: both sides are “{group}”, so the pair does not vary {axis}")),
    "E015.other_axis": _m("E015", "pair {pair}: sides also differ on {axis} ({a} vs {b}): a pair varies one variable",
                          N_("pair {pair}: the sides also differ on {axis} ({a} / {b}); a pair varies one variable")),
    "E014.variants": _m("E014", "sides use different template variants ({a} vs {b})",
                        N_("the two sides use different variants of the template ({a} / {b}): a pair may differ only "
                           "in the person")),
    "E014.features": _m("E014", "slot {slot!r} realised with different features: {diffs} ({a!r} vs {b!r})",
                        N_("the slot {slot} has different features on the two sides ({diffs}: “{a}” / “{b}”): a pair may "
                           "differ only in the person")),
    "E014.differs": _m("E014", "slot {slot!r} differs ({a!r} vs {b!r}) though it does not agree with the variable",
                       N_("the slot {slot} differs between the two sides (“{a}” / “{b}”) though it does not agree with "
                          "the variable")),
    "W110.length": _m("W110", "sides differ in length beyond the person term: {a!r} vs {b!r}",
                      N_("the two sides differ in more than the person term: “{a}” / “{b}”")),
    "W111.one_side": _m("W111", "pair {pair}: {have!r} has a sentence, {lack!r} has none (see its own findings)",
                        N_("only one side of a pair has a sentence in template {template}: the pair is skipped")),
    # -- grammar rules (engine.corpus.check.grammar) --------------------------------------------------
    "E016.describes_other": _m("E016", "the emotion word describes {who_text} ({what} the one who feels), yet agrees "
                                       "with the person in {features}: {fix}",
                               N_("the emotion word describes someone other than the person ({who}), yet agrees with "
                                  "the person in {features}: hold its features fixed for the one who feels")),
    "E016.speaker_gender": _m("E016", "the speaker feels here, but the emotion word is gender={gender} while the "
                                      "corpus's speaker is gender={speaker}: use gender={speaker}",
                              N_("the speaker feels here, but the emotion word has gender={gender} and the corpus's "
                                 "speaker gender={speaker}: use gender={speaker}")),
    "E016.fixed_gender": _m("E016", "declared to describe the person, but the emotion word has a fixed "
                                    "gender={gender}: make it agree (gender=person.gender)",
                            N_("declared to describe the person, but the emotion word has the fixed gender={gender}: "
                               "make it agree (gender=person.gender)")),
    "E017.bare": _m("E017", "bare adjective after a verb of feeling (شعر, أحسّ, انفعل): write بـ + noun (يشعر بالحزن) "
                            "or the accusative (حزينًا)",
                    N_("bare adjective after a verb of feeling (شعر, أحسّ, انفعل): write بـ + noun (يشعر بالحزن) or "
                       "the accusative (حزينًا)")),
    "E018.pronoun": _m("E018", "the word before the person already carries an object pronoun (-{pronoun}) and the "
                               "person follows as its noun object: drop the pronoun (e.g. {stem})",
                       N_("the word before the person already carries an object pronoun ({pronoun}) and the person "
                          "follows as its object: drop the pronoun (e.g. {stem})")),
    "E019.two_objects": _m("E019", "two を objects in one clause (…を…を with only a noun between): mark the causee "
                                   "with に or choose a verb with one object",
                           N_("two を objects in one clause: mark the causee with に or choose a verb with one object")),
    "E020.na": _m("E020", "na-adjective {word!r} before a noun without な: write {fix}",
                  N_("the na-adjective “{word}” stands before a noun without な: write {fix}")),
    "E021.causee": _m("E021", "causative without a causee (nobody is made to feel): add the person made to feel with "
                              "を, e.g. 私を",
                      N_("causative without a causee (nobody is made to feel): add the person made to feel with を, "
                         "e.g. 私を")),
    "E022.restriction": _m("E022", "{reason} [{error_class}]",
                           N_("“{word}”: word that cannot describe its referent or stand in this frame"), False),
    "E023.restriction": _m("E023", "{reason} [{error_class}]",
                           N_("“{word}”: form that does not exist in the language, or a false friend"), False),
    "E024.restriction": _m("E024", "{reason} [{error_class}]",
                           N_("“{word}”: construction with the wrong reading (a calque, a trait for a feeling)"), False),
    "E025.punctuation": _m("E025", "the sentence does not end with the standard punctuation of {language} ({ends}): "
                                   "end the template with it",
                           N_("the sentence does not end with the standard punctuation of {language} ({ends}): end "
                              "the template with it")),
    "W112.shape": _m("W112", "slot {slot!r} asks for {feature}={value} but realises {text!r}, which does not match "
                             "{pattern!r}",
                     N_("the slot {slot} asks for {feature}={value}, but “{text}” does not have the expected shape "
                        "({pattern})")),
    # -- spelling (engine.corpus.check.spelling) ------------------------------------------------------
    "W113.unknown": _m("W113", "{word!r} is not in {where} ({sentences} sentence(s), e.g. {example!r}): correct it, "
                               "or add it to [spelling] accept if it is right",
                       N_("“{word}” is not in the spelling dictionary: correct it, or add it to the corpus word list if "
                          "it is right")),
    "W114.no_dictionary": _m("W114", "{reason}",
                             N_("no spelling dictionary for “{language}” on this system: spelling not checked"), False),
}

def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural pair for the translators' catalogs (babel's ``ngettext`` keyword, as N_ marks
    one message); the GUI translates the pair with gettext's ngettext for the count."""
    return singular, plural


#: the tails a finding may carry (how many sentences or combinations it covers, a known defect)
TAILS = {
    "sentences": ("({sentences} sentence(s), e.g. {example!r})",
                  ngettext("({n} sentence, e.g. “{example}”)", "({n} sentences, e.g. “{example}”)")),
    "combinations": ("({combinations} combination(s))",
                     ngettext("(×{n} combination)", "(×{n} combinations)")),
    "known": (" — known defect of the published text: {known}", N_("known defect of the published text")),
}


def said(key: str, **params: Any) -> Said:
    """What a rule found, as data: ``said("E020.na", word="静か", fix="静かな")``."""
    return said_in(MESSAGES, key, params, "engine.corpus.check.messages")  # unknown: a bug in the rule


Plural = Callable[[str, str, int], str]


def finding_text(f: Any, translate: Translate | None = None, plural_of: Plural | None = None,
                 values: Callable[[str, Any], Any] | None = None) -> str:
    """The one rendering of a finding (``f.key``, ``f.params``, ``f.known``): the engine's English
    without ``translate``; the interface's sentence in the language of ``translate`` (gettext's ``_``;
    ``plural_of`` (gettext's ngettext) for the counted tails; ``values(name, value)`` may name a field's value in that
    language, e.g. who feels). A finding without a key keeps its message."""
    msg = MESSAGES.get(getattr(f, "key", "") or "")
    if msg is None:
        return f.message
    params = dict(f.params)
    text = render(MESSAGES, f.key, params, translate, values)
    if translate is None:
        if "sentences" in params and "{sentences}" not in msg.en:
            text += " " + TAILS["sentences"][0].format(**params)
        if "combinations" in params:
            text += " " + TAILS["combinations"][0].format(**params)
        if f.known:
            text += TAILS["known"][0].format(known=f.known)
        return text
    plural = plural_of or (lambda one, many, n: translate(one if n == 1 else many))
    if "sentences" in params:
        one, many = TAILS["sentences"][1]
        text += " " + plural(one, many, int(params["sentences"])).format(n=params["sentences"],
                                                                        example=params.get("example", ""))
    if "combinations" in params:
        one, many = TAILS["combinations"][1]
        text += " " + plural(one, many, int(params["combinations"])).format(n=params["combinations"])
    if f.known:
        text += " — " + translate(TAILS["known"][1])
    return text


def complete(f: Any) -> bool:
    """The interface's sentence says all the English does (no known-defect reason left out)."""
    msg = MESSAGES.get(getattr(f, "key", "") or "")
    return msg is not None and msg.complete and not f.known
