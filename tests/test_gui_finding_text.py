"""Every checker finding reads in the interface language (issue 28 §7, issue 41 part 1): a finding
is a code, a message key and typed fields (engine.corpus.check.messages); the engine's English and
each interface language are rendered from the catalog by one function, ``finding_text``, so no
English body reaches a Spanish, German, Arabic, Portuguese or French translator — and rewording the
engine's English changes no interface language (the GUI no longer reads the English back with
regular expressions). Real findings of the built-in corpora are checked as well."""
from __future__ import annotations

import re
import string

import pytest

pytest.importorskip("PySide6")

from engine.corpus import Finding  # noqa: E402
from engine.corpus.check import messages  # noqa: E402
from engine.corpus.check.findings import CODES  # noqa: E402
from engine.corpus.check.messages import MESSAGES, said  # noqa: E402
from gui import i18n  # noqa: E402
from gui.workbench.finding_text import finding_message, untranslated_detail  # noqa: E402

LANGS = ["es", "de", "ar", "pt", "fr", "it"]
#: fields that count things (plural forms, numbers)
NUMBERS = {"n", "sentences", "combinations", "a_count"}


def _fields(key: str) -> set[str]:
    m = MESSAGES[key]
    return {name for text in (m.en, m.ui) for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def sample(key: str, **extra) -> Finding:
    """A finding of ``key`` with data in every field: tokens no language uses as a word (Qx…)."""
    params = {name: (3 if name in NUMBERS else ["Qm", "Qf"] if name in ("values",) else f"Qx{i}")
              for i, name in enumerate(sorted(_fields(key)))}
    return Finding(MESSAGES[key].code, said(key, **{**params, **extra}), item="x")


# words of an English sentence that none of the five languages uses (case-sensitive: German nouns)
ENGLISH = re.compile(r"\b(?:the|is|has|have|with|does|not|which|yet|but|listed|declared|missing|should|slot|"
                     r"form|forms|word|words|template|pair|sides?|agrees|realised|skipped|checked|spelling|"
                     r"sentence|dictionary|group|nobody|noun|variants?|feature|features|unknown|empty)\b")


def _strip_data(text: str) -> str:
    """The shown text without the sample data (Qx… tokens) and the tokens files keep as they are."""
    for token in ("person.FEATURE", "emotion.FEATURE", "gender=person.gender", "[features]", "(Hunspell, UniDic)"):
        text = text.replace(token, " ")
    return re.sub(r"\S*Q[xmf]\d*\S*|\S*[=~_]\S*|\[[^\]]*\]", " ", text)


@pytest.fixture
def english_after():
    yield
    i18n.set_language("en")


def test_every_code_has_a_message_in_the_catalog():
    assert {m.code for m in MESSAGES.values()} == set(CODES)


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_body_in_any_checker_message(lang, english_after):
    i18n.set_language(lang)
    problems = []
    for key in MESSAGES:
        f = sample(key)
        shown = finding_message(f)
        left = ENGLISH.findall(_strip_data(shown))
        if shown == f.message or left:
            problems.append(f"{key}: {shown!r} (English: {left})")
    assert problems == []


def test_rewording_an_engine_message_changes_no_interface_language(monkeypatch, english_after):
    """The engine's English of W113 and E001 reworded: the English output follows, every interface
    language renders exactly as before, fully translated (before: bare title plus English text)."""
    keys = ("W113.unknown", "E001.no_form", "E016.describes_other")
    before = {}
    for lang in LANGS:
        i18n.set_language(lang)
        before[lang] = [finding_message(sample(k)) for k in keys]
    for k in keys:
        m = MESSAGES[k]
        fields = " ".join("{%s!r}" % name for name in sorted(_fields(k)) if "{" + name in m.en)
        monkeypatch.setitem(messages.MESSAGES, k, messages.Message(m.code, "Reworded: " + fields, m.ui, m.complete))
    assert sample(keys[0]).message.startswith("Reworded: ")
    for lang in LANGS:
        i18n.set_language(lang)
        after = [finding_message(sample(k)) for k in keys]
        assert after == before[lang]
        assert not any("Reworded" in t or ENGLISH.findall(_strip_data(t)) for t in after), after


def test_the_data_and_the_counts_are_kept_and_the_english_detail_only_where_needed(english_after):
    i18n.set_language("de")
    f = Finding("W113", said("W113.unknown", word="ابي", where="the ar dictionary", sentences=130,
                             example="ابي يشعر عصبي"), item="templates[T01]", template="T01")
    shown = finding_message(f)
    assert "ابي" in shown and "130" in shown and "ابي يشعر عصبي" in shown
    assert untranslated_detail(f) == ""  # nothing was lost: no "Details (in English)"
    e23 = Finding("E023", said("E023.restriction", word="destrozante", error_class="lexical",
                               reason="'destrozante' is not in the DLE: use 'desolador(a)'"), item="templates[T01]")
    assert "destrozante" in finding_message(e23)
    assert untranslated_detail(e23) == e23.message  # the rule's own advice is language data: kept, marked English
    known = Finding("E017", said("E017.bare"), known="as published")
    assert known.message.endswith(" — known defect of the published text: as published")
    assert i18n._("known defect of the published text") in finding_message(known)
    i18n.set_language("en")
    assert finding_message(e23) == e23.message  # the English UI shows the engine's own words where they say more


def test_a_finding_without_a_key_shows_its_translated_title_and_its_english_as_detail(english_after):
    f = Finding("W116", "a rule's English, not converted yet", item="axes.race")
    i18n.set_language("es")
    assert finding_message(f) == i18n._(CODES["W116"][1]) and untranslated_detail(f) == f.message
    i18n.set_language("en")
    assert finding_message(f) == f.message


def test_the_engine_english_is_rendered_from_the_catalog():
    f = Finding("E006", said("E006.value", feature="gender", value="x", values=["m", "f"]))
    assert f.message == "gender='x' is not one of ['m', 'f']" and f.params["values"] == ["m", "f"]
    assert str(f).endswith(": gender='x' is not one of ['m', 'f']")


def test_real_findings_of_the_built_in_corpora_read_in_spanish(english_after):
    """Whatever the built-in corpora really produce (grammar rules, spelling, W109, W116…)."""
    from engine.corpus import check_corpus, load_corpus

    i18n.set_language("es")
    problems = []
    for cid in ("ar-camara2022-published", "ja-goldfarb2023-published", "de-goldfarb2023-published"):
        for f in check_corpus(load_corpus(cid)).findings:
            shown = finding_message(f, "")
            quoted = re.findall(r"'((?:[^'\\]|\\.)*)'", f.message)
            text = shown.split(" — ")[0]
            for q in quoted + [str(v) for v in f.params.values()]:
                text = text.replace(q, " ")
            if not f.key or shown == f.message or ENGLISH.findall(_strip_data(text)):
                problems.append(f"{f.code}: {shown!r}")
    assert problems[:5] == []
