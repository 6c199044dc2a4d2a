"""Translator exchange (PO, XLIFF 2.0): what goes out, round trips that equal a direct edit, bad files."""
from __future__ import annotations

import copy
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from engine.corpus import load_corpus, parse_definition
from engine.corpus.definition.writer import to_toml
from engine.exchange import ExchangeError, export_exchange, import_exchange, merge_exchange
from engine.package import PackageError
from engine.common.overwrite import OverwriteError

MINI_ES_TOML = '''format = 1
id = "mini-es"
language = "es"
name = "Mini Spanish EEC"
description = "A small Spanish corpus for exchange and package tests."
source = "Invented for tests"
licence = "CC0-1.0"
cite = "Nobody (2024). Mini EEC."
capitalize = true

[meta]
translators = ["Ana Translator"]
reviewers = ["Rosa Reviewer"]
limitations = ["Only two names per group."]

[features]
gender = ["f", "m"]

[axes.gender]
groups = ["female", "male"]
reference = "male"
feature = { female = "f", male = "m" }

[axes.race]
groups = ["Latino", "Anglo"]
reference = "Anglo"

[[persons]]
id = "maria"
kind = "name"
gender = "female"
race = "Latino"
text = "María"
status = "reviewed"
translator = "Ana Translator"

[[persons]]
id = "jessica"
kind = "name"
gender = "female"
race = "Anglo"
text = "Jessica"
status = "reviewed"

[[persons]]
id = "jose"
kind = "name"
gender = "male"
race = "Latino"
text = "José"
status = "translated"
translator = "Ana Translator"

[[persons]]
id = "michael"
kind = "name"
gender = "male"
race = "Anglo"
text = "Michael"
status = "reviewed"

[[emotion_words]]
id = "angry"
emotion = "anger"
kind = "state"
forms = [{ text = "enojado", gender = "m" }, { text = "enojada", gender = "f" }]
status = "machine-translated"
source = "angry"
note = "Mexican Spanish; Spain would say enfadado."

[[emotion_words]]
id = "happy"
emotion = "joy"
kind = "state"
text = "feliz"
status = "new"

[[emotion_words]]
id = "sad"
emotion = "sadness"
kind = "state"
forms = [{ text = "triste" }]
status = "reviewed"
translator = "Ana Translator"

[[templates]]
id = "T01"
text = "{person} se siente {emotion kind=state gender=person.gender}."
published = "<person> se siente <emotion word>."
status = "reviewed"
source = "<person subject> feels <emotion word>."

[[templates]]
id = "T02"
text = "Vi a {person} en el mercado."
status = "translated"
note = "Neutral template."
'''


@pytest.fixture
def mini(tmp_path) -> Path:
    p = tmp_path / "mini-es.toml"
    p.write_text(MINI_ES_TOML, encoding="utf-8")
    return p


def item(corpus, section, entry):
    return next(i for i in getattr(corpus, section) if i.id == entry)


def same(a, b) -> bool:
    a, b = copy.deepcopy(a), copy.deepcopy(b)
    a.path = b.path = ""
    return a == b and to_toml(a) == to_toml(b)


def po_entry(text: str, ctxt: str) -> tuple[int, int]:
    """(start, end) of the PO entry whose msgctxt is ``ctxt`` (comments included)."""
    blocks = text.split("\n\n")
    pos = 0
    for b in blocks:
        if f'msgctxt "{ctxt}"' in b:
            return pos, pos + len(b)
        pos += len(b) + 2
    raise KeyError(ctxt)


def edit_entry(text: str, ctxt: str, fn) -> str:
    s, e = po_entry(text, ctxt)
    return text[:s] + fn(text[s:e]) + text[e:]


# --------------------------------------------------------------------------- what goes out
def test_po_has_one_entry_per_form_with_features_notes_status(tmp_path):
    out = tmp_path / "es.po"
    res = export_exchange("es-camara2022", out, source="en-camara2022-latino")
    corpus = load_corpus("es-camara2022")
    # the Spanish clitic word "cl" has no English source text: left out and named, never written with
    # its Spanish text as msgid under the English header (issue 39)
    forms = (sum(max(1, len(t.variants)) for t in corpus.templates)
             + sum(max(1, len(x.forms)) for sec in ("persons", "emotion_words", "words") for x in getattr(corpus, sec)
                   if x.id != "cl"))
    text = out.read_text(encoding="utf-8")
    assert res.units == forms == text.count("\nmsgctxt ")
    assert any("left out: words[cl]" in w for w in res.warnings)
    assert 'msgctxt "emotion_words/angry#1 gender=f"\nmsgid "angry"\nmsgstr "enojada"' in text
    assert "python-brace-format" not in text  # slots are not Python format strings; msgfmt -c must not check them
    assert "# No Spanish translation (Câmara et al. Table 11 leaves it empty;" in text  # the note, unwrapped
    assert "#. Status at export: untranslatable." in text
    assert '"Project-Id-Version: es-camara2022 eec-exchange-1\\n"' in text and '"Language: es\\n"' in text
    # a standard PO reader agrees on every entry
    from babel.messages.pofile import read_po

    cat = read_po(out.open("rb"))
    assert len([m for m in cat if m.id]) == forms
    assert cat.get("angry", context="emotion_words/angry#1 gender=f").string == "enojada"


def test_xliff_is_2_0_with_state_and_notes(tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "ar.xlf"
    export_exchange("ar-camara2022", out, source="en-camara2022-arab")
    root = ET.parse(out).getroot()
    ns = {"x": "urn:oasis:names:tc:xliff:document:2.0"}
    assert root.get("version") == "2.0" and root.get("trgLang") == "ar" and root.get("srcLang") == "en"
    assert root.find("x:file", ns).get("trgDir") == "rtl"
    units = root.findall(".//x:unit", ns)
    corpus = load_corpus("ar-camara2022")
    assert len(units) == sum(max(1, len(t.variants)) for t in corpus.templates) + sum(
        max(1, len(x.forms)) for s in ("persons", "emotion_words", "words") for x in getattr(corpus, s))
    names = [u.get("name") for u in units]
    assert any(re.fullmatch(r"templates/T\d+#1 gender=f", n) for n in names)  # template variants keep features
    seg = units[0].find("x:segment", ns)
    assert seg.get("state") in ("initial", "translated", "reviewed") and seg.get("subState", "").startswith("eec:")


# --------------------------------------------------------------------------- round trips
def test_unchanged_files_change_nothing(tmp_path):
    for fmt in ("po", "xlf"):
        out = tmp_path / f"es.{fmt}"
        export_exchange("es-camara2022", out, source="en-camara2022-latino")
        res = merge_exchange(out, "es-camara2022")
        assert res.changes == [] and same(res.corpus, load_corpus("es-camara2022"))


def test_po_edit_equals_direct_edit(tmp_path, mini):
    po = tmp_path / "mini.po"
    export_exchange(mini, po)
    text = po.read_text(encoding="utf-8")
    assert '"Last-Translator: Ana Translator\\n"' in text  # the translator the corpus records
    # Poedit names the person who saved the file
    text = re.sub(r'"Last-Translator: [^"]*"', lambda m: '"Last-Translator: Eva Editor <eva@example.org>\\n"', text)
    # Poedit: fix both forms of a machine translation and clear "fuzzy"
    text = edit_entry(text, "emotion_words/angry#0 gender=m",
                      lambda b: b.replace("#, fuzzy\n", "").replace('msgstr "enojado"', 'msgstr "enfadado"'))
    text = edit_entry(text, "emotion_words/angry#1 gender=f",
                      lambda b: b.replace("#, fuzzy\n", "").replace('msgstr "enojada"', 'msgstr "enfadada"'))
    # confirm a "new" item as it is: clear fuzzy only
    text = edit_entry(text, "emotion_words/happy#0", lambda b: b.replace("#, fuzzy\n", ""))
    # a reviewer flags a reviewed name as needing work
    text = edit_entry(text, "persons/jessica#0", lambda b: b.replace("msgctxt", "#, fuzzy\nmsgctxt"))
    # a translator comment added to a template's note; Poedit wraps long strings over lines
    text = edit_entry(text, "templates/T02#0", lambda b: b.replace("# Neutral template.\n",
                                                                   "# Neutral template.\n# Checked by Eva.\n"))
    text = edit_entry(text, "templates/T01#0", lambda b: b.replace(
        'msgstr "{person} se siente {emotion kind=state gender=person.gender}."',
        'msgstr ""\n"{person} se siente "\n"{emotion kind=state gender=person.gender}."'))
    po.write_text(text, encoding="utf-8")

    # a maintainer's note in the definition goes into the merged file too
    mini.write_text(mini.read_text("utf-8").replace('[[emotion_words]]\nid = "angry"',
                                                    '# dialect chosen with the client\n[[emotion_words]]\nid = "angry"'),
                    encoding="utf-8")
    out = tmp_path / "out.toml"
    res = import_exchange(po, mini, out)
    assert '# dialect chosen with the client\n[[emotion_words]]\nid = "angry"' in out.read_text("utf-8")

    expected = load_corpus(str(mini))
    angry = item(expected, "emotion_words", "angry")
    angry.forms[0].text, angry.forms[1].text = "enfadado", "enfadada"
    angry.review.status, angry.review.translator = "translated", "Eva Editor <eva@example.org>"
    happy = item(expected, "emotion_words", "happy")
    happy.review.status, happy.review.translator = "translated", "Eva Editor <eva@example.org>"
    jessica = item(expected, "persons", "jessica")
    jessica.review.status, jessica.review.translator = "new", "Eva Editor <eva@example.org>"
    item(expected, "templates", "T02").review.note = "Neutral template.\nChecked by Eva."

    assert same(res.corpus, expected)
    assert same(parse_definition(out.read_bytes(), str(out)), expected)  # saved, and the file says the same
    assert sorted(c.item for c in res.changes) == ["emotion_words[angry]", "emotion_words[happy]", "persons[jessica]",
                                                   "templates[T02]"]
    # features survive: the feminine form is still the feminine one
    assert [(f.text, f.features) for f in item(res.corpus, "emotion_words", "angry").forms] == [
        ("enfadado", {"gender": "m"}), ("enfadada", {"gender": "f"})]


def test_xliff_edit_equals_direct_edit(tmp_path, mini):
    xlf = tmp_path / "mini.xlf"
    export_exchange(mini, xlf)
    text = xlf.read_text(encoding="utf-8")

    def unit(name: str, fn) -> None:
        nonlocal text
        m = re.search(rf'<unit id="u\d+" name="{re.escape(name)}">.*?</unit>', text, re.S)
        text = text[:m.start()] + fn(m.group(0)) + text[m.end():]

    unit("emotion_words/angry#0 gender=m", lambda u: u.replace('state="initial"', 'state="translated"')
         .replace("<target>enojado</target>", "<target>enfadado</target>"))
    unit("emotion_words/angry#1 gender=f", lambda u: u.replace('state="initial"', 'state="translated"')
         .replace("<target>enojada</target>", "<target>enfadada</target>"))
    unit("emotion_words/sad#0", lambda u: u.replace("<target>triste</target>", "<target>infeliz</target>"))
    unit("emotion_words/happy#0", lambda u: u.replace('subState="eec:new"', 'subState="eec:machine-translated"'))
    unit("templates/T01#0", lambda u: u.replace("</notes>", " <note>Word order checked.</note>\n    </notes>"))
    xlf.write_text(text, encoding="utf-8")

    res = merge_exchange(xlf, mini, translator="Eva")
    expected = load_corpus(str(mini))
    angry = item(expected, "emotion_words", "angry")
    angry.forms[0].text, angry.forms[1].text = "enfadado", "enfadada"
    angry.review.status, angry.review.translator = "translated", "Eva"
    sad = item(expected, "emotion_words", "sad")
    sad.forms[0].text, sad.review.status, sad.review.translator = "infeliz", "translated", "Eva"
    happy = item(expected, "emotion_words", "happy")
    happy.review.status, happy.review.translator = "machine-translated", "Eva"
    item(expected, "templates", "T01").review.note = "Word order checked."
    assert same(res.corpus, expected)


def test_tools_rewrapping_notes_is_not_an_edit(tmp_path):
    po = tmp_path / "es.po"
    export_exchange("es-camara2022", po)
    text = po.read_text(encoding="utf-8")
    text = text.replace("# No Spanish translation (Câmara et al. Table 11 leaves it empty; translator: ",
                        "# No Spanish translation (Câmara et al. Table 11 leaves it empty;\n# translator: ")
    po.write_text(text, encoding="utf-8")
    assert merge_exchange(po, "es-camara2022").changes == []
    # another tool re-saves the file: strings and comments wrapped at 40 columns, Windows line ends
    import io

    from babel.messages.pofile import read_po, write_po

    buf = io.BytesIO()
    write_po(buf, read_po(po.open("rb")), width=40)
    po.write_bytes(buf.getvalue().replace(b"\n", b"\r\n"))
    assert b'msgstr ""\r\n"' in po.read_bytes()  # really wrapped
    assert merge_exchange(po, "es-camara2022").changes == []


def test_untranslatable_comes_back(tmp_path, mini):
    po = tmp_path / "m.po"
    export_exchange(mini, po)
    text = edit_entry(po.read_text(encoding="utf-8"), "emotion_words/sad#0",
                      lambda b: "# No word for this in our dialect.\n" + b.replace('msgstr "triste"', 'msgstr ""'))
    po.write_text(text, encoding="utf-8")
    res = merge_exchange(po, mini)
    sad = item(res.corpus, "emotion_words", "sad")
    assert sad.forms == [] and sad.review.status == "untranslatable" and sad.review.note == "No word for this in our dialect."
    assert res.report.errors == [] and res.report.sentences == 12  # its 4 sentences are skipped, no error


# --------------------------------------------------------------------------- bad files
@pytest.mark.parametrize("edit, match", [
    (lambda t: t.replace('msgctxt "emotion_words/angry#1 gender=f"', 'msgctxt "emotion_words/angry#1 gender=m"'),
     r"\[line \d+\]: emotion_words/angry#1 gender=m does not match the corpus \(form 1 now: gender=f\)"),
    (lambda t: t.replace('msgctxt "persons/jose#0"', 'msgctxt "persons/pepe#0"'), r"persons\[pepe\] is not in corpus mini-es"),
    (lambda t: t.replace('msgctxt "persons/jose#0"', 'msgctxt "persons/maria#0"'), r"persons/maria#0 appears twice"),
    (lambda t: t.replace("mini-es eec-exchange-1", "es-camara2022 eec-exchange-1"),
     r"was exported from corpus 'es-camara2022', not 'mini-es'"),
    (lambda t: t.replace('msgstr "{person} se siente {emotion kind=state gender=person.gender}."',
                         'msgstr "{person} se siente {emotion kind=state gender=person.genre}."'),
     r"changes the options of \{emotion kind=state gender=person.gender\} to \{emotion kind=state gender=person.genre\}"),
    (lambda t: t.replace('msgstr "José"', 'msgstr "Jo"sé"'), r"\[line \d+\]: unescaped double quote"),
    (lambda t: t.replace('msgctxt "persons/jose#0"\n', ""), r"has no EEC Studio context \(msgctxt\)"),
    (lambda t: t + '\nmsgctxt "persons/jose#0"\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] ""\n', r"plural entries"),
    (lambda t: "\ufeff" + t.replace("msgstr", "msgstr\x00"), r"NUL bytes"),
])
def test_po_problems_are_one_clear_message(tmp_path, mini, edit, match):
    po = tmp_path / "m.po"
    export_exchange(mini, po)
    po.write_text(edit(po.read_text(encoding="utf-8")), encoding="utf-8")
    before = mini.read_bytes()
    with pytest.raises(ExchangeError, match=match) as ei:
        import_exchange(po, mini, mini, overwrite=True)
    assert str(ei.value).startswith(str(po)) and " — " in str(ei.value)
    assert mini.read_bytes() == before


def test_new_checker_errors_allowed_on_request(tmp_path, mini):
    po = tmp_path / "m.po"
    export_exchange(mini, po)
    po.write_text(po.read_text(encoding="utf-8").replace("person.gender}.", "person.genre}."), encoding="utf-8")
    res = merge_exchange(po, mini, allow_errors=True, allow_slot_changes=True)
    assert res.new_errors and res.report.errors


def test_a_translation_that_loses_a_slot_is_refused(tmp_path, mini, run):
    """Issue 29: 'Hice que {person} se sintiera mal' (the {emotion} slot lost) used to import with exit 0,
    and the corpus shrank from 8,460 to 7,320 sentences without a word."""
    po = tmp_path / "m.po"
    export_exchange(mini, po)
    text = po.read_text(encoding="utf-8")
    lost = text.replace('msgstr "{person} se siente {emotion kind=state gender=person.gender}."',
                        'msgstr "{person} se siente mal."')
    assert lost != text
    po.write_text(lost, encoding="utf-8")
    with pytest.raises(ExchangeError, match=r"drops \{emotion kind=state gender=person.gender\}") as e:
        merge_exchange(po, mini)
    assert "--allow-slot-changes" in str(e.value) and "\n" not in str(e.value)
    # a deliberate change goes through on request
    res = merge_exchange(po, mini, allow_errors=True, allow_slot_changes=True)
    assert any("se siente mal." in str(c) for c in res.changes)
    added = text.replace('msgstr "{person} se siente {emotion kind=state gender=person.gender}."',
                         'msgstr "{person} se siente {emotion kind=state gender=person.gender} {person}."')
    po.write_text(added, encoding="utf-8")
    with pytest.raises(ExchangeError, match=r"adds \{person\}"):
        merge_exchange(po, mini)


@pytest.mark.parametrize("edit, match", [
    (lambda t: t.replace("<?xml version='1.0' encoding='utf-8'?>",
                         "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'aaaa'>]>"), r"declares a DTD or entities"),
    (lambda t: t.replace('version="2.0"', 'version="1.2"'), r"not an XLIFF 2 document"),
    (lambda t: t.replace("</xliff>", ""), r"not well-formed XML"),
    (lambda t: t.replace('name="persons/jose#0"', 'name="jose"'), r"unit name 'jose' is not an EEC Studio key"),
    (lambda t: t.replace("encoding='utf-8'", "encoding='latin-1'"), r"declared encoding 'latin-1'"),
])
def test_xliff_problems_are_one_clear_message(tmp_path, mini, edit, match):
    xlf = tmp_path / "m.xlf"
    export_exchange(mini, xlf)
    xlf.write_text(edit(xlf.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(ExchangeError, match=match):
        merge_exchange(xlf, mini)


def test_mutated_files_only_raise_exchange_errors(tmp_path, mini):
    rng = random.Random(8)
    ok = errors = 0
    for fmt in ("po", "xlf"):
        src = tmp_path / f"m.{fmt}"
        export_exchange(mini, src)
        raw = src.read_bytes()
        for i in range(60):
            b = bytearray(raw)
            kind = i % 3
            if kind == 0:
                for _ in range(rng.randint(1, 6)):
                    b[rng.randrange(len(b))] = rng.randrange(256)
            elif kind == 1:
                del b[rng.randrange(len(b)):]
            else:
                s = rng.randrange(len(b))
                b[s:s] = rng.choice([b'"', b"\\", b"\n", b"#, fuzzy\n", b"msgstr ", b"<", b"&", b"{", b"\xff"])
            p = tmp_path / f"mut{i}.{fmt}"
            p.write_bytes(bytes(b))
            try:
                merge_exchange(p, mini, allow_errors=True)
                ok += 1
            except (ExchangeError, PackageError):
                errors += 1
    assert ok + errors == 120 and errors > 20


def test_import_never_replaces_out_unasked(tmp_path, mini):
    po = tmp_path / "m.po"
    export_exchange(mini, po)
    with pytest.raises(OverwriteError, match="already exists; nothing was changed — pass --overwrite"):
        import_exchange(po, mini, mini)
    with pytest.raises(OverwriteError, match="already exists"):
        export_exchange(mini, po)


# --------------------------------------------------------------------------- CLI
def test_cli_export_edit_import(tmp_path, mini, capsys):
    from main import main

    def cli(*args):
        rc = main(["exchange", *args])
        out, err = capsys.readouterr()
        return rc, out, err

    po = tmp_path / "m.po"
    rc, out, err = cli("export", str(mini), "--out", str(po))
    assert rc == 0 and "10 translation units (po)" in out, err
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Michael"', 'msgstr "Miguel"'), encoding="utf-8")
    rc, out, err = cli("import", str(po), "--into", str(mini), "--dry-run")
    assert rc == 0 and "persons[michael]: form 0: 'Michael' -> 'Miguel'" in out
    rc, out, err = cli("import", str(po), "--into", str(mini), "--out", str(mini))
    assert rc == 2 and "already exists" in err
    rc, out, err = cli("import", str(po), "--into", str(mini), "--out", str(mini), "--yes")
    assert rc == 0, err
    assert item(load_corpus(str(mini)), "persons", "michael").forms[0].text == "Miguel"


def test_cli_bad_file_is_one_line_without_traceback(tmp_path, mini):
    po = tmp_path / "m.po"
    po.write_bytes(b"msgid \"x\"\nthis is not PO\n")
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "exchange", "import", str(po), "--into", str(mini),
                        "--dry-run"], capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL,
                       env={**os.environ})
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: {po} [line 2]: unexpected text 'this is not PO'")
