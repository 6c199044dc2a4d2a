"""Every checker code reads in the interface language (issue 28 §7): the GUI words each finding
again from the fields of the engine's English message, so no English body reaches a Spanish,
German, Arabic, Portuguese, French or Italian translator. The messages below are written exactly as the
engine writes them (engine/corpus/check/checker.py, compiled.py, pairing.py, pair_checks.py, axes.py,
expect.py, spelling.py, grammar/); real ones from the built-in corpora are checked as well."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("PySide6")

from engine.corpus import Finding  # noqa: E402
from engine.corpus.check.findings import CODES  # noqa: E402
from gui import i18n  # noqa: E402
from gui.workbench.finding_text import finding_message, untranslated_detail  # noqa: E402

LANGS = ["es", "de", "ar", "pt", "fr", "it"]

# code -> messages as the engine writes them (several variants where the engine has several)
ENGINE_MESSAGES: dict[str, list[str]] = {
    "E001": ["slot 'person': 'p1' has no form with gender=f",
             "slot 'emotion' agrees on gender with person.gender, but the form chosen for 'person' has no "
             "'gender' feature"],
    "E002": ["slot 'emotion': several forms of 'irritada' fit gender=f; add a feature to tell them apart",
             "slot 'emotion' does not ask for gender, and its words have one form per gender: add "
             "gender=person.gender to the slot (Fix: add gender=person.gender)"],
    "E003": ["template has no {person} slot"],
    "E004": ["slot 'obj' names no word 'thing' (known: person, emotion)", "slot 'obj': no word with id 'thing'"],
    "E005": ["feature 'case' is not declared in [features] (declared: gender, number)",
             "slot 'emotion' agrees on undeclared feature 'case'",
             "shared feature 'case' is not declared in [features]"],
    "E006": ["gender='x' is not one of ['m', 'f']", "derived value 'x' is not one of ['m', 'f']"],
    "E007": ["has no emotion", "emotion 'rage' is not one of ['anger', 'fear', 'joy', 'sadness']", "has no kind",
             "kind 'mood' is not one of ['state', 'situation']"],
    "E008": ["empty form"],
    "E009": ["2 variants of template 'T01' fit gender=f"],
    "E010": ["select gender='gender': refer to person.FEATURE or emotion.FEATURE",
             "template text: unclosed '{' at column 4"],
    "E011": ["kind 'thing' is not one of ['name', 'noun_phrase', 'identity_term']", "person term has no gender",
             "given name has no race group", "noun phrase tagged with race; noun phrases carry gender only",
             "race='green' is not one of ['white', 'black']", "feature mapping names unknown group 'green'"],
    "E012": ["no forms: this person term yields no sentences", "template not translated yet: it yields no sentences"],
    "E013": ["pair a~b (gender) is declared twice", "variable 'age' is not an axis (axes: gender, race)",
             "no person with id 'zed'", "zip needs lists of equal length (privileged 2, minoritised 3)",
             "cross yields no pair: no privileged and minoritised terms agree on the other axes",
             "person 'ana' on both sides"],
    "E014": ["sides use different template variants (gender=m vs gender=f)",
             "slot 'emotion' realised with different features: gender ('furioso' vs 'furiosa')",
             "slot 'emotion' differs ('furioso' vs 'furiosa') though it does not agree with the variable"],
    "E015": ["pair ana~bea: minoritised side 'bea' has no race group (only the privileged side may be unmarked)",
             "pair ana~bea: minoritised side 'bea' is in the reference group 'white' of race — privileged and "
             "minoritised swapped?",
             "pair ana~bea: both sides are 'white': the pair does not vary race",
             "pair ana~bea: sides also differ on gender (f vs m): a pair varies one variable"],
    "E016": ["the adjective describes 'me' (the experiencer), not the person, yet agrees with the person in gender: "
             "hold it fixed, e.g. gender=m for the speaker",
             "the adjective describes the person ('se' is the person) but has a fixed gender=m: make it agree "
             "(gender=person.gender)",
             "the speaker feels here, but the emotion word is gender=f while the corpus's speaker is gender=m: use "
             "gender=m",
             "declared to describe the person, but the emotion word has a fixed gender=f: make it agree "
             "(gender=person.gender)",
             "the emotion word describes the speaker (the sentence makes the one who feels), yet agrees with the "
             "person in gender, number: hold its features fixed for that referent"],
    "E017": ["bare adjective after a verb of feeling (شعر, أحسّ, انفعل): write بـ + noun (يشعر بالحزن) or the "
             "accusative (حزينًا) (1140 sentence(s), e.g. 'إيلين تشعر عصبيه')"],
    "E018": ["the word before the person already carries an object pronoun (-ها) and the person follows as its noun "
             "object: drop the pronoun (e.g. جعل) (570 sentence(s), e.g. 'الموقف جعلها إيلين تشعر عصبيه')"],
    "E019": ["two を objects in one clause (…を…を with only a noun between): mark the causee with に or choose a verb "
             "with one object"],
    "E020": ["na-adjective '幸せ' before a noun without な: write 幸せな (30 sentence(s), e.g. '彼女は幸せ状況に陥った。')"],
    "E021": ["causative without a causee (nobody is made to feel): add the person made to feel with を, e.g. 私を"],
    "E022": ["'موقف مغضب' is not idiomatic: 'موقف مثير للغضب' or 'موقف مزعج' [lexical]"],
    "E023": ["'destrozante' is not in the DLE: use 'desolador(a)' or 'lúgubre' [lexical] (60 sentence(s), e.g. "
             "'Jessica se encontró en una situación destrozante')"],
    "E024": ["participle after 'machen' is a calque of English 'made me annoyed': use the verb itself "
             "('hat mich erbost') [lexical]"],
    "E025": ["the sentence does not end with the standard punctuation of ar (. ! ؟ …): end the template with it"],
    "W101": ["forms 'محبط', 'محبطه' listed for discouraged, depressed", "form 'traurig' listed for traurig, traurig_sit"],
    "W102": ["form 'Ana ': leading or trailing whitespace"],
    "W103": ["sentence starts lower-case: 'ana feels angry.'"],
    "W104": ["name 'ana' does not start with a capital letter"],
    "W105": ["template text '{person}  feels {emotion}.' has doubled, leading or trailing spaces"],
    "W106": ["pair 'zed' is missing or of the same gender",
             "pair not mirrored: 'np_he''s pair is empty; set it to 'np_she' (Fix: pair np_he with np_she)",
             "noun phrase has no pair: choose its counterpart of the other gender in the Pair column"],
    "W107": ["status 'done' is not one of ['new', 'machine-translated', 'translated', 'reviewed', 'untranslatable']"],
    "W108": ["marked untranslatable and has no forms: its sentences are not generated"],
    "W109": ["slot 'emotion': 'irritante_sit' has no form with gender=m, number=pl (no plural in the published word "
             "list); combination skipped (50 combination(s))"],
    "W110": ["sides differ in length beyond the person term: 'my mother feels sad' vs 'my dad feels sad'"],
    "W111": ["pair a~b: 'a' has a sentence, 'b' has none (see its own findings)"],
    "W112": ["slot 'person' asks for case=acc but realises 'der Mann', which does not match '^(den|einen) '"],
    "E026": ["no form with gender=f for slot {emotion} of T1 (it agrees on gender): enter 'furiosa' in its own row",
             "no form with gender=f for slot {emotion} of T1: enter it in its own row"],
    "E027": ["form 'arrabbiata / arrabbiato' holds two forms joined by '/': enter each form in its own row with its "
             "features (gender=m: 'arrabbiato', gender=f: 'arrabbiata')"],
    "E028": ["forms tagged gender=m ('furiosa') and gender=f ('furioso') are swapped: the data reads 'furiosa' as "
             "gender=f", "the same form 'furioso' for gender=m and gender=f: the gender=f form is 'furiosa'",
             "form 'furioso' is tagged gender=f but reads as gender=m: expected 'furiosa'"],
    "E029": ["name in slot {person} of T1, which asks for case=acc, has no declension: declare one of triptote, "
             "diptote (features = { declension = \"...\" })",
             "declension 'triptoe' is not one the ar data knows: use one of triptote, diptote"],
    "E030": ["the person in slot {person} takes case=acc here (the object of جعل، رأى): write {person case=acc}"],
    "W113": ["'ابي' is not in the ar dictionary (130 sentence(s), e.g. 'ابي يشعر عصبي'): correct it, or add it to "
             "[spelling] accept if it is right"],
    "W114": ["spelling not checked: EEC Studio knows no spelling dictionary for 'zh'"],
    "W115": ["group 'black' of axis 'race' has no names: tag a name with it or remove the group"],
    "W116": ["unbalanced design: names per gender × race: female · white 8, male · black 7; give each cell 8 names "
             "so that no group's mean rests on fewer sentences"],
}
FIELDS = {"E001": dict(wanted={"gender": "f"}), "E002": dict(wanted={"gender": "f"}), "W111": dict(template="T01")}
ENTRY = {"E001": "p1", "E002": "irritada", "W104": "ana"}

# words of an English sentence that none of the five languages uses (case-sensitive: German nouns)
ENGLISH = re.compile(r"\b(?:the|is|has|have|with|does|not|which|yet|but|listed|declared|missing|should|slot|"
                     r"form|forms|word|words|template|pair|sides?|agrees|realised|skipped|checked|spelling|"
                     r"sentence|dictionary|group|nobody|noun|variants?|feature|features|unknown|empty)\b")


def _strip_data(text: str, message: str) -> str:
    """The shown text without the data it quotes (ids, forms, feature names, example sentences)."""
    for quoted in re.findall(r"'((?:[^'\\]|\\.)*)'", message):
        text = text.replace(quoted, " ")
    for aside in re.findall(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)", message):  # (the author's reason, …)
        if len(aside) > 8:
            text = text.replace(aside, " ")
    for token in ("person.FEATURE", "emotion.FEATURE", "gender=person.gender", "[features]", "(Hunspell, UniDic)"):
        text = text.replace(token, " ")
    return re.sub(r"\S*[=~_]\S*|\[[^\]]*\]", " ", text)


@pytest.fixture
def english_after():
    yield
    i18n.set_language("en")


def test_every_code_has_engine_messages_to_check():
    assert set(ENGINE_MESSAGES) == set(CODES)


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_body_in_any_checker_message(lang, english_after):
    i18n.set_language(lang)
    problems = []
    for code, messages in ENGINE_MESSAGES.items():
        for message in messages:
            f = Finding(code=code, message=message, item="x", **FIELDS.get(code, {}))
            shown = finding_message(f, ENTRY.get(code, ""))
            left = ENGLISH.findall(_strip_data(shown, message))
            if shown == message or left:
                problems.append(f"{code}: {shown!r} (English: {left})")
    assert problems == []


def test_composed_messages_keep_the_data_and_drop_the_english_detail(english_after):
    i18n.set_language("de")
    f = Finding(code="W113", message=ENGINE_MESSAGES["W113"][0], item="templates[T01]", template="T01")
    shown = finding_message(f)
    assert "ابي" in shown and "130" in shown and "ابي يشعر عصبي" in shown
    assert untranslated_detail(f) == ""  # nothing was lost: no "Details (in English)"
    f = Finding(code="E023", message=ENGINE_MESSAGES["E023"][0], item="templates[T01]")
    assert "destrozante" in finding_message(f)
    assert untranslated_detail(f) == f.message  # the rule's own advice is language data: kept, marked English
    known = Finding(code="E017", message=ENGINE_MESSAGES["E017"][0] + " — known defect of the published text: "
                    "as published", known="as published")
    assert i18n._("known defect of the published text") in finding_message(known)
    i18n.set_language("en")
    assert finding_message(f) == f.message  # the English UI shows the engine's own words


def test_real_findings_of_the_built_in_corpora_read_in_spanish(english_after):
    """Whatever the built-in corpora really produce (grammar rules, spelling, W109, W116…)."""
    from engine.corpus import check_corpus, load_corpus

    i18n.set_language("es")
    problems = []
    for cid in ("ar-camara2022-published", "ja-goldfarb2023-published", "de-goldfarb2023-published"):
        for f in check_corpus(load_corpus(cid)).findings:
            shown = finding_message(f, "")
            if shown == f.message or ENGLISH.findall(_strip_data(shown.split(" — ")[0], f.message)):
                problems.append(f"{f.code}: {shown!r}")
    assert problems[:5] == []
