"""Batch translation (issue 39): one line per item — its id or source text, then its forms — read
against a corpus, previewed (each line's reading, the checker's verdict), applied in one go;
``corpus translate-batch`` is its CLI twin. Also the memory's and exchange's source text."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from engine.corpus import load_corpus
from engine.corpus.translate.batch import plan_summary, read_batch, split_line
from engine.corpus.translate.new_language import Subset, translate_from
from engine.corpus.translate.source_link import translated_from


@pytest.fixture(scope="module")
def source():
    return load_corpus("en-kiritchenko2018")


@pytest.fixture
def italian(source):
    return translate_from(source, "it", "it-test", subset=Subset(
        templates=["T01", "T04"], persons=["np_my_mother", "np_my_father", "ebony"],
        emotion_words=["angry", "happy"]))


def test_lines_are_split_on_tabs_bars_or_a_colon():
    assert split_line("angry\tarrabbiata\tarrabbiato") == ("angry", ["arrabbiata", "arrabbiato"])
    assert split_line("angry: arrabbiata | arrabbiato") == ("angry", ["arrabbiata", "arrabbiato"])
    assert split_line("angry | arrabbiata | arrabbiato") == ("angry", ["arrabbiata", "arrabbiato"])
    assert split_line("T01: {person} si sente {emotion}.") == ("T01", ["{person} si sente {emotion}."])
    assert split_line("angry arrabbiata") is None


def test_a_block_fills_templates_first_then_the_forms_they_need(italian, source):
    plan = read_batch(italian, "angry\tarrabbiata\tarrabbiato\n"
                               "T01\t{person} si sente {emotion kind=state gender=person.gender}.\n"
                               "my mother: mia madre\n"
                               "Ebony | Ebony\n"
                               "happy: felice\n", source=source, translator="MB")
    assert not plan.problems
    after = plan.after
    angry = next(e for e in after.emotion_words if e.id == "angry")
    assert [(f.text, f.features) for f in angry.forms] == [("arrabbiata", {"gender": "f"}), ("arrabbiato", {"gender": "m"})]
    assert (angry.review.status, angry.review.translator) == ("translated", "MB")
    happy = next(e for e in after.emotion_words if e.id == "happy")
    assert [(f.text, f.features) for f in happy.forms] == [("felice", {})]  # one form for both genders
    mother = next(p for p in after.persons if p.id == "np_my_mother")  # found by its English text
    assert [f.text for f in mother.forms] == ["mia madre"] and mother.review.status == "translated"
    assert after.templates[0].variants[0].text.startswith("{person} si sente")
    # the corpus given is untouched until the plan is applied
    assert not any(e.forms for e in italian.emotion_words)
    assert [ln.reading() for ln in plan.lines][0] == "emotion word angry: gender=f arrabbiata · gender=m arrabbiato"
    assert plan.changed == [("templates", 0), ("persons", 0), ("persons", 1), ("emotion_words", 0), ("emotion_words", 1)]


def test_lines_not_understood_say_why_and_change_nothing(italian, source):
    plan = read_batch(italian, "T01\t{person} si sente {emotion kind=state gender=person.gender}.\n"
                               "nonsense: x\n"
                               "angry\ta\tb\tc\n"
                               "no separator here\n"
                               "T04: {person mi ha\n"
                               "my mother: mia madre\n"
                               "np_my_mother: la mia mamma\n", source=source)
    why = {ln.number: ln.problem for ln in plan.problems}
    assert why[2] == "line 2: no item 'nonsense' (neither an id nor a source text of this corpus)"
    assert why[3] == "line 3: emotion word angry needs 2 form(s), in this order: gender=f, gender=m; 3 given"
    assert why[4].startswith("line 4: no forms")
    assert why[5].startswith("line 5: template T04:")
    assert why[7] == "line 7: person np_my_mother is given already on line 6"
    assert [ln.why for ln in plan.problems] == ["unknown", "count", "syntax", "template", "repeated"]
    assert {n for n, _i in plan.changed} == {"templates", "persons"}
    assert "1 line(s) not understood" not in plan_summary(plan) and "5 line(s) not understood" in plan_summary(plan)


def test_an_edited_reviewed_item_is_translated_again(italian, source):
    plan = read_batch(italian, "angry: arrabbiata | arrabbiato", source=source)
    done = plan.after
    angry = next(e for e in done.emotion_words if e.id == "angry")
    angry.review.status, angry.review.translator = "reviewed", "RV"
    again = read_batch(done, "angry: furiosa | furioso", source=source, translator="TR").after
    angry = next(e for e in again.emotion_words if e.id == "angry")
    assert (angry.review.status, angry.review.translator) == ("translated", "TR")
    # the same text again is no edit: the review stands
    same = read_batch(done, "angry: arrabbiata | arrabbiato", source=source)
    assert not same.changed


def test_cli_translate_batch_previews_refuses_then_writes(run, tmp_path):
    out = tmp_path / "it.toml"
    proc = run("corpus", "translate", "en-kiritchenko2018", "--language", "italiano", "--out", str(out),
               "--templates", "T01", "--persons", "np_my_mother,np_my_father", "--emotion-words", "angry")
    assert proc.returncode == 0, proc.stderr
    assert translated_from(load_corpus(out)) == "en-kiritchenko2018"  # the source is kept in the file
    bad = tmp_path / "bad.txt"
    bad.write_text("angry\tarrabbiata\tarrabbiato\nmy sister: mia sorella\n", encoding="utf-8")
    proc = run("corpus", "translate-batch", str(out), str(bad))
    assert proc.returncode == 2
    assert f"{bad}:2: no item 'my sister'" in proc.stdout and "nothing written" in proc.stdout
    assert not load_corpus(out).emotion_words[0].forms
    good = tmp_path / "good.txt"
    good.write_text("T01\t{person} si sente {emotion kind=state gender=person.gender}.\n"
                    "angry\tarrabbiata\tarrabbiato\nmy mother: mia madre\nmy father: mio padre\n", encoding="utf-8")
    assert run("corpus", "translate-batch", str(out), str(good), "--dry-run").returncode == 0
    assert not load_corpus(out).emotion_words[0].forms
    proc = run("corpus", "translate-batch", str(out), str(good))
    assert proc.returncode == 0, proc.stdout
    assert "4 item(s) changed; then: 0 error(s)" in proc.stdout
    c = load_corpus(out)
    assert [f.text for f in c.emotion_words[0].forms] == ["arrabbiata", "arrabbiato"]
    assert translated_from(c) == "en-kiritchenko2018"
    assert run("corpus", "translate-batch", "en-kiritchenko2018", str(good)).returncode == 2  # built-in: read-only


def test_tm_export_has_no_internal_ids_as_source_text(run, tmp_path):
    """Issue 39: de-goldfarb2023's emotion words have no recorded English source; their ids
    (``empoert``) were written as the English side of *empört*."""
    out = tmp_path / "de.tmx"
    proc = run("corpus", "tm-export", str(out), "--corpus", "de-goldfarb2023")
    assert proc.returncode == 0, proc.stderr
    assert "78 translated item(s) have no recorded source text and are left out" in proc.stdout
    corpus = load_corpus("de-goldfarb2023")
    ids = {e.id for name in ("templates", "persons", "emotion_words", "words") for e in getattr(corpus, name)}
    english = [seg.text for tuv in ET.parse(out).getroot().iter("tuv")
               if tuv.get("{http://www.w3.org/XML/1998/namespace}lang") == "en" for seg in tuv.iter("seg")]
    assert english and not ids & set(english)
    assert "empoert" not in out.read_text(encoding="utf-8").replace('"empoert"', "")  # not even as a source seg


def test_translation_takes_the_target_languages_features(source):
    it = translate_from(source, "it")
    assert it.features == {"gender": ["f", "m"], "number": ["sg", "pl"]}  # not English role / initial
    assert it.axes["gender"].feature_values == {"female": "f", "male": "m"}
    ja = translate_from(source, "ja")
    assert "gender" not in ja.features and ja.axes["gender"].feature_values == {}
    assert translated_from(ja) == "en-kiritchenko2018" and ja.extra == {"meta": {"translated_from": "en-kiritchenko2018"}}


def test_w113_names_the_emotion_word_whose_form_is_misspelt(italian, source, monkeypatch):
    """Issue 39, defect 11: W113 named template T01 for a misspelt form of an emotion word."""
    from engine.corpus import check_corpus
    from engine.corpus.check import spelling

    monkeypatch.setattr(spelling.Speller, "dictionary", lambda self: (object(), "the it dictionary"))
    monkeypatch.setattr(spelling.Speller, "unknown", lambda self, words: [w for w in words if w in ("terorizzata", "sentte")])
    c = read_batch(italian, "T01\t{person} si sente {emotion kind=state gender=person.gender}.\n"
                            "T04\t{person} mi ha fatto sentte {emotion kind=state gender=m}.\n"
                            "my mother: mia madre\nmy father: mio padre\nEbony: Ebony\n"
                            "angry: terorizzata | arrabbiato\nhappy: felice", source=source).after
    w113 = {f.item: f for f in check_corpus(c).findings if f.code == "W113"}
    assert set(w113) == {"emotion_words[angry]", "templates[T04]"}  # the word's entry; the template's own typo
    assert "'terorizzata'" in w113["emotion_words[angry]"].message


def test_spelling_suggestions_that_keep_every_typed_letter_come_first():
    """Issue 39, defect 11: the first suggestion for *terorizzata* was *teorizzata*."""
    from engine.corpus.check.spelling import rank_suggestions

    assert rank_suggestions("terorizzata", ["teorizzata", "terrorizzata", "terrorizzate"]) == [
        "terrorizzata", "teorizzata", "terrorizzate"]
    assert rank_suggestions("recieve", ["receive", "relieve"]) == ["receive", "relieve"]  # otherwise Hunspell's order
