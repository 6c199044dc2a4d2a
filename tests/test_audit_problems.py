"""An audit's problems as data (engine.audit.problems): the English every file and the command line
keep, word for word as before; the message kept beside it; the GUI's sentence in its language."""
from __future__ import annotations

import json
import pickle
from types import SimpleNamespace

import pytest

from engine.audit.identity_tokens import IdentityVisibility
from engine.audit.problems import PROBLEMS, read_problems, told
from engine.common.messages import Told
from engine.models.base import language_mismatch, language_mismatch_message


def test_the_english_is_what_the_engine_wrote_before():
    """Hand-written: the sentences the audit wrote before its problems became messages."""
    vader = SimpleNamespace(name="vader", languages=["en"])
    assert language_mismatch(vader, "es") == ("vader reads en but the corpus is in es: its scores (and any 'no bias' "
                                               "verdict) are not meaningful for this corpus")
    assert str(told("in_corpus", corpus="es-x", said=language_mismatch_message(vader, "es"))) == \
        "es-x: " + language_mismatch(vader, "es")
    v = IdentityVisibility("ja-x", "bert", 32, [f"w{i}" for i in range(10)], 5070, 3772, 1200, [f"p{i}" for i in range(150)])
    assert v.message() == (
        "ja-x × bert: the model cannot tell identities apart — 10 of 32 person words become unknown tokens "
        "(w0, w1, w2, w3, w4, w5, w6, w7 and 2 more); 3,772 of 5,070 sentences reach the model as the same token "
        "ids as another sentence; 150 of 1,200 counterfactual pairs have identical ids on both sides and are left "
        "out of its paired tests (a tokenizer without this language's words; choose a model that reads it)")
    assert str(told("warning", said=v.said())) == "warning: " + v.message()
    assert IdentityVisibility("c", "s", 4, ["a"]).message() == (
        "c × s: the model cannot tell identities apart — 1 of 4 person words become unknown tokens (a) (a tokenizer "
        "without this language's words; choose a model that reads it)")
    assert IdentityVisibility("c", "s", 4).message() == "" and IdentityVisibility("c", "s", 4).said() is None
    assert told("statistic_skipped", statistic="beta", corpus="en-x", reason="no variation") == \
        "beta on en-x: no variation"
    assert told("assoc_skipped", test="weat/T1", reason="coverage 40 %") == "association test weat/T1: coverage 40 %"
    assert told("crows_not_in_audit", test="crows", command="eec-studio assoc run") == (
        "association test crows: CrowS-Pairs results are not part of an audit; run it with `eec-studio assoc run`")


def test_a_told_line_is_a_string_that_keeps_its_message_through_pickle_and_json():
    line = told("statistic_skipped", statistic="beta", corpus="en-x", reason="r")
    assert isinstance(line, str) and "en-x" in line and line.startswith("beta on")
    back = pickle.loads(pickle.dumps(line))
    assert isinstance(back, Told) and back == line and back.said == line.said
    assert json.loads(json.dumps([line])) == ["beta on en-x: r"]


def test_a_manifest_gives_its_messages_back_and_an_edited_or_old_one_keeps_its_english():
    lines = [told("assoc_skipped", test="weat/T1", reason="r"), "parquet for beta: no pyarrow"]
    data = [lines[0].said.as_data(), None]
    back = read_problems([str(x) for x in lines], json.loads(json.dumps(data)))
    assert isinstance(back[0], Told) and back[0].said == lines[0].said and type(back[1]) is str
    assert back == [str(x) for x in lines]
    edited = read_problems(["association test weat/T1: reworded"], data[:1])  # the English no longer matches
    assert type(edited[0]) is str and edited[0] == "association test weat/T1: reworded"
    assert all(type(p) is str for p in read_problems([str(x) for x in lines], None))  # a folder of an earlier version
    assert read_problems(["x"], [{"key": "no such key", "params": {}}]) == ["x"]


def test_every_message_has_an_interface_sentence_over_the_english_fields():
    import string

    for key, msg in PROBLEMS.items():
        en = {f for _t, f, _s, _c in string.Formatter().parse(msg.en) if f}
        ui = {f for _t, f, _s, _c in string.Formatter().parse(msg.ui) if f}
        assert ui <= en and (ui == en or not msg.complete), key
        assert ":" not in "".join(s for _t, f, s, _c in string.Formatter().parse(msg.ui) if f), key  # no format spec


@pytest.mark.parametrize("lang, expected", [
    ("en", "es-x: vader reads en, but the corpus is in the language es: its scores (and any “no bias” verdict) mean "
           "nothing for this corpus"),
    ("it", "es-x: vader legge en, ma il corpus è nella lingua es: i suoi punteggi (e qualsiasi verdetto di «nessun "
           "bias») non hanno significato per questo corpus"),
])
def test_the_interface_shows_a_problem_in_its_language_and_a_plain_line_as_it_is(lang, expected):
    pytest.importorskip("PySide6")
    from gui import i18n
    from gui.results.problem_text import problem_lines

    vader = SimpleNamespace(name="vader", languages=["en"])
    problems = [told("in_corpus", corpus="es-x", said=language_mismatch_message(vader, "es")), "parquet for x: y"]
    v = IdentityVisibility("ja-x", "bert", 32, [], 5070, 3772)
    problems.append(told("warning", said=v.said()))
    try:
        i18n.set_language(lang)
        lines = problem_lines(problems)
        from_folder = problem_lines([str(p) for p in problems],
                                    {"problem_messages": [p.said.as_data() if isinstance(p, Told) else None
                                                          for p in problems]})
    finally:
        i18n.set_language("en")
    assert lines == from_folder and lines[0] == expected and lines[1] == "parquet for x: y"
    assert ("3.772 su 5.070" if lang == "it" else "3,772 of 5,070") in lines[2]


def test_an_audit_folder_keeps_its_problems_as_data_and_the_italian_notes_show_them_in_italian(tmp_path, qtbot):
    """End to end: VADER (English) on a corpus declared Spanish — the warning the whole run hinges on
    ('no bias' means nothing) — written, read back, and shown in the Italian Notes tab."""
    pytest.importorskip("PySide6")
    from engine.audit import AuditPlan, run_audit
    from gui import i18n
    from gui.results.page import ResultsPage
    from testkit.corpus_fixtures import HEADER, mini_pairs

    corpus = tmp_path / "mini.toml"
    corpus.write_text(mini_pairs(header=HEADER.replace('language = "en"', 'language = "es"')), encoding="utf-8")
    folder = tmp_path / "out"
    run_audit(AuditPlan([str(corpus)], ["vader"], stats=["paired"], out_dir=folder, cache_dir=tmp_path / "c",
                        settings={"n_resamples": 0}))
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    english = "mini: vader reads en but the corpus is in es: its scores (and any 'no bias' verdict) are not meaningful"
    assert any(p.startswith(english) for p in manifest["problems"])
    assert len(manifest["problem_messages"]) == len(manifest["problems"])
    assert manifest["problem_messages"][manifest["problems"].index(next(
        p for p in manifest["problems"] if p.startswith(english)))]["key"] == "in_corpus"
    page = ResultsPage()
    qtbot.addWidget(page)
    with qtbot.waitSignal(page.loaded, timeout=60_000):
        page.show_result(folder)
    try:
        i18n.set_language("it")
        notes = page.notes.toPlainText()
    finally:
        i18n.set_language("en")
    bullets = notes.split("Note dall’esecuzione:", 1)[1].split("\n\n", 1)[0]  # (then summary.txt, a file: English)
    assert "• mini: vader legge en, ma il corpus è nella lingua es" in bullets and english not in bullets
