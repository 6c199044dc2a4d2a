"""Exchange files in the programs translators use: msgfmt -c, translate-toolkit's checks, XLIFF 2.0 structure.

Why these tools: gettext's ``msgfmt -c`` is what Poedit runs on save, and translate-toolkit's
checks (pofilter) are what Weblate runs. A clean built-in corpus must give them nothing to
say about slots, so that a slot a translator deletes or renames stands out.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from engine.corpus import load_corpus
from engine.corpus.definition.registry import builtin_names
from engine.exchange import export_exchange, merge_exchange
from engine.exchange.api import exchange_bytes

#: Built-in corpora and the corpus their source text comes from (None: a monolingual review file).
EXPORTS = [(n, None) for n in builtin_names()] + [
    ("es-camara2022", "en-camara2022-latino"), ("ar-camara2022", "en-camara2022-arab"),
    ("de-goldfarb2023", "en-goldfarb2023"), ("es-goldfarb2023", "en-goldfarb2023"),
    ("ja-goldfarb2023", "en-goldfarb2023"), ("zh-goldfarb2023", "en-goldfarb2023")]
#: translate-toolkit checks about placeholders (slots) and markup; the caps checks matter for Arabic.
SLOT_CHECKS = ["brackets", "pythonbraceformat", "printf", "xmltags", "variables"]
CASE_CHECKS = ["startcaps", "simplecaps"]


def _po(corpus: str, source: str | None) -> bytes:
    return exchange_bytes(load_corpus(corpus), "po", load_corpus(source) if source else None)[0]


def _findings(data: bytes, language: str, tests: list[str], edit=None) -> dict[str, dict]:
    checks = pytest.importorskip("translate.filters.checks", reason="translate-toolkit is not installed "
                                                                     "(pip install '.[test]')")
    from translate.storage import po

    store = po.pofile.parsestring(data)
    checker = checks.StandardChecker(checkerconfig=checks.CheckerConfig(targetlanguage=language), limitfilters=tests)
    out = {}
    for unit in store.units:
        if unit.isheader() or not unit.target:
            continue
        if edit is not None:
            edit(unit)
        failures = checker.run_filters(unit)
        if failures:
            out[unit.getcontext()] = failures
    return out


# --------------------------------------------------------------------------- msgfmt
@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed (apt-get install gettext)")
@pytest.mark.parametrize("corpus,source", EXPORTS)
def test_msgfmt_check_is_silent(tmp_path, corpus, source):
    po = tmp_path / f"{corpus}.po"
    po.write_bytes(_po(corpus, source))
    res = subprocess.run(["msgfmt", "-c", "-o", str(tmp_path / "out.mo"), str(po)], capture_output=True, text=True)
    assert res.returncode == 0 and res.stderr == "", res.stderr


# --------------------------------------------------------------------------- translate-toolkit
@pytest.mark.parametrize("corpus,source", EXPORTS)
def test_translate_toolkit_finds_nothing_on_clean_corpora(corpus, source):
    language = load_corpus(corpus).language
    found = _findings(_po(corpus, source), language, SLOT_CHECKS)
    if source is not None:
        # a word's source-language gloss may carry a parenthesis the translation rightly drops
        # ("my (younger) brother" -> 我弟弟); templates, where the slots are, must be clean
        found = {k: v for k, v in found.items() if k.startswith("templates/") or set(v) != {"brackets"}}
    assert found == {}


def test_translate_toolkit_catches_a_lost_or_renamed_slot():
    data = _po("ar-camara2022", "en-camara2022-arab")
    assert _findings(data, "ar", SLOT_CHECKS) == {}
    target = "templates/T01#0 gender=m"

    emotion_slot = {}

    def lose(unit):
        if unit.getcontext() == target:
            emotion_slot["text"] = re.search(r"\{emotion[^}]*\}", unit.target).group(0)
            unit.target = unit.target.replace(emotion_slot["text"], "")

    def rename(unit):
        if unit.getcontext() == target:
            unit.target = re.sub(r"\{person\b", "{persona", unit.target)

    lost = _findings(data, "ar", SLOT_CHECKS, lose)
    assert list(lost) == [target] and emotion_slot["text"] in lost[target]["pythonbraceformat"]
    renamed = _findings(data, "ar", SLOT_CHECKS, rename)
    assert list(renamed) == [target] and "{persona" in renamed[target]["pythonbraceformat"]


def test_caps_checks_are_off_for_arabic_and_on_for_unknown_languages():
    """Arabic has no letter case: with the file's language the caps checks stay quiet (Weblate knows the
    language; for pofilter the file's intro says to pass --language). Without it they would fire."""
    data = _po("ar-camara2022", "en-camara2022-arab")
    assert _findings(data, "ar", CASE_CHECKS) == {}
    assert _findings(data, "", CASE_CHECKS)  # the noise the language setting removes
    assert b"pofilter --language=ar " in data


# --------------------------------------------------------------------------- headers and languages
def _headers(data: bytes) -> dict[str, str]:
    body = data.decode("utf-8").split("\n\n")[0]
    return dict(re.findall(r'^"([A-Za-z-]+): ([^"]*)\\n"$', body, re.M))


def test_source_language_is_declared_for_any_source(tmp_path):
    assert _headers(_po("de-goldfarb2023", None))["X-Source-Language"] == "de"
    assert _headers(_po("es-camara2022", "en-camara2022-latino"))["X-Source-Language"] == "en"
    assert _headers(_po("es-goldfarb2023", "de-goldfarb2023"))["X-Source-Language"] == "de"
    xlf = tmp_path / "de.xlf"
    export_exchange("de-goldfarb2023", xlf)
    assert ET.parse(xlf).getroot().get("srcLang") == "de"
    export_exchange("es-goldfarb2023", xlf, source="de-goldfarb2023", overwrite=True)
    root = ET.parse(xlf).getroot()
    assert (root.get("srcLang"), root.get("trgLang")) == ("de", "es")
    # a monolingual file shows the corpus's own text as source, in its language
    assert 'msgid "Ich habe {person case=acc} beim Einkaufen gesehen."' in _po("de-goldfarb2023", None).decode()


def test_translator_headers_come_from_the_corpus(tmp_path):
    corpus = load_corpus("es-camara2022")
    for item in corpus.persons[:3]:
        item.review.translator = "Ana Translator <ana@example.org>"
    corpus.persons[3].review.translator = "Bo Reviewer"
    corpus.extra = {**corpus.extra, "meta": {"translators": ["Ana Translator"], "reviewers": ["Rosa Reviewer"]}}
    data = exchange_bytes(corpus, "po")[0]
    head = _headers(data)
    assert head["Last-Translator"] == "Ana Translator <ana@example.org>"  # recorded on most items
    assert head["Language-Team"] == "Ana Translator, Rosa Reviewer"
    assert _headers(_po("es-camara2022", None))["Language-Team"] == "Spanish (es)"  # nobody named
    assert "FULL NAME" not in data.decode()


def test_unchanged_last_translator_credits_nobody_new(tmp_path, monkeypatch):
    """A tool that keeps the exported Last-Translator did not say who edited: changed items keep their own
    translator instead of being credited to whoever the export named."""
    corpus = load_corpus("es-camara2022")
    for item in corpus.emotion_words:
        item.review.translator = "Ana Translator"
    target = next(e for e in corpus.emotion_words if e.forms and e.forms[0].text)
    target.review.translator = "Somebody Else"
    po = tmp_path / "es.po"
    po.write_bytes(exchange_bytes(corpus, "po")[0])
    text = po.read_text("utf-8")
    assert '"Last-Translator: Ana Translator\\n"' in text
    old = target.forms[0].text
    text = text.replace(f'msgstr "{old}"', f'msgstr "{old}x"', 1)
    po.write_text(text, "utf-8")
    res = merge_exchange(po, corpus, allow_errors=True)
    changed = next(e for e in res.corpus.emotion_words if e.id == target.id)
    assert changed.forms[0].text == old + "x" and changed.review.translator == "Somebody Else"


# --------------------------------------------------------------------------- XLIFF 2.0 structure
NS = "{urn:oasis:names:tc:xliff:document:2.0}"
XML_NS = "{http://www.w3.org/XML/1998/namespace}"
_NMTOKEN = re.compile(r"^[\w.:-]+$")
_LANGUAGE = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")  # xs:language


def _children(el, allowed: list[str]) -> None:
    """Children appear only in the schema's order ``allowed`` (each name may repeat)."""
    order = [allowed.index(c.tag[len(NS):]) if c.tag.startswith(NS) and c.tag[len(NS):] in allowed else -1
             for c in el]
    assert -1 not in order, f"<{el.tag}> has an element the core schema does not allow there: {[c.tag for c in el]}"
    assert order == sorted(order), f"<{el.tag}> children out of the schema's order"


def _validate_xliff_core_2_0(root) -> int:
    """The content model and attribute types of the OASIS XLIFF 2.0 core schema (xliff_core_2.0.xsd),
    for the elements we write: what the schema would check, without shipping it."""
    assert root.tag == NS + "xliff" and root.get("version") == "2.0"
    assert _LANGUAGE.match(root.get("srcLang", "")) and _LANGUAGE.match(root.get("trgLang", ""))
    assert set(root.attrib) <= {"version", "srcLang", "trgLang", XML_NS + "space"}
    files = list(root)
    assert files and all(f.tag == NS + "file" for f in files)
    units = 0
    for f in files:
        assert _NMTOKEN.match(f.get("id", "")) and set(f.attrib) <= {
            "id", "canResegment", "original", "translate", "srcDir", "trgDir", XML_NS + "space"}
        assert f.get("canResegment", "yes") in ("yes", "no") and f.get("trgDir", "auto") in ("ltr", "rtl", "auto")
        assert f.get(XML_NS + "space", "preserve") in ("default", "preserve")
        kids = [c.tag[len(NS):] for c in f]
        assert kids and kids[0] in ("notes", "unit", "group") and "notes" not in kids[1:]
        assert any(k in ("unit", "group") for k in kids)
        ids = {"group": set(), "unit": set()}
        for el in f.iter():
            tag = el.tag[len(NS):]
            if tag == "notes":
                assert len(el) >= 1 and all(c.tag == NS + "note" for c in el)
            elif tag == "note":
                assert len(el) == 0 and set(el.attrib) <= {"id", "appliesTo", "category", "priority"}
                assert el.get("appliesTo", "source") in ("source", "target")
            elif tag == "group":
                _children(el, ["notes", "unit", "group"])
                assert _NMTOKEN.match(el.get("id", "")) and el.get("id") not in ids["group"]
                ids["group"].add(el.get("id"))
            elif tag == "unit":
                units += 1
                _children(el, ["notes", "segment"])
                assert _NMTOKEN.match(el.get("id", "")) and el.get("id") not in ids["unit"]
                ids["unit"].add(el.get("id"))
                assert any(c.tag == NS + "segment" for c in el)
            elif tag == "segment":
                assert [c.tag[len(NS):] for c in el] in (["source"], ["source", "target"])
                assert el.get("state", "initial") in ("initial", "translated", "reviewed", "final")
                assert set(el.attrib) <= {"id", "canResegment", "state", "subState"}
                # the core spec: subState needs a state, and is a prefixed value
                assert "subState" not in el.attrib or ("state" in el.attrib and ":" in el.get("subState"))
            elif tag in ("source", "target"):
                assert len(el) == 0  # plain text: no inline codes written
            elif tag not in ("file",):
                raise AssertionError(f"unexpected element <{tag}>")
    return units


@pytest.mark.parametrize("corpus,source", [("ar-camara2022", "en-camara2022-arab"), ("de-goldfarb2023", None),
                                           ("es-goldfarb2023", "en-goldfarb2023")])
def test_xliff_has_the_core_schema_structure(corpus, source):
    data, n = exchange_bytes(load_corpus(corpus), "xliff", load_corpus(source) if source else None)
    assert _validate_xliff_core_2_0(ET.fromstring(data)) == n


@pytest.mark.parametrize("breakage", [
    lambda t: t.replace('state="reviewed"', 'state="done"', 1),            # not a stateType value
    lambda t: t.replace('<unit id="u2"', '<unit id="u1"', 1),               # duplicate unit id
    lambda t: t.replace('srcLang="en"', 'srcLang="English (US)"', 1),       # not an xs:language
    lambda t: re.sub(r"(<segment[^>]*>)(\s*)(<source>.*?</source>)(\s*)(<target>.*?</target>)",
                     r"\1\2\5\4\3", t, count=1, flags=re.S),                 # target before source
    lambda t: t.replace("<notes>", "<notes><bogus/>", 1),                  # element the schema lacks
])
def test_xliff_structure_check_catches_schema_violations(breakage):
    data, _n = exchange_bytes(load_corpus("es-camara2022"), "xliff", load_corpus("en-camara2022-latino"))
    broken = breakage(data.decode("utf-8"))
    assert broken != data.decode("utf-8")
    with pytest.raises(AssertionError):
        _validate_xliff_core_2_0(ET.fromstring(broken.encode("utf-8")))


# --------------------------------------------------------------------------- slot alignment
@pytest.mark.parametrize("source,target,shown", [
    # published angle placeholders take the form's slots
    ("<person subject> feels <emotion word>.", "{person case=nom} ist {emotion kind=state}.",
     "{person case=nom} feels {emotion kind=state}."),
    # a source corpus's slots with other features take the form's
    ("I made {person role=object} feel {emotion kind=state}", "Hice que {person} se sintiera {emotion kind=state}",
     "I made {person} feel {emotion kind=state}"),
    # a slot only the form has (a clitic) opens the text when it opens the form, else precedes the next slot
    ("I saw <person object> in the market.", "{cl gender=person.gender} vi a {person} en el mercado.",
     "{cl gender=person.gender} I saw {person} in the market."),
    ("I saw <person object> there.", "vi {cl} a {person} allí.", "I saw {cl} {person} there."),
    # source slots the form does not use become plain words; the form's order may differ
    ("{person} found {self gender=person.gender} in {a initial=next.initial} {emotion kind=situation} situation",
     "{person} se encontró en una situación {emotion kind=situation gender=f}",
     "{person} found self in a {emotion kind=situation gender=f} situation"),
    ("<person> feels <emotional state word>", "", "{person} feels {emotion}"),  # nothing translated yet
    ("angry", "enojado", "angry"),
])
def test_source_text_carries_the_forms_slots(source, target, shown):
    from engine.exchange.slots import brace_slots, with_target_slots

    assert with_target_slots(source, target) == shown
    if target:
        assert sorted(s.text for s in brace_slots(shown)) == sorted(s.text for s in brace_slots(target))
