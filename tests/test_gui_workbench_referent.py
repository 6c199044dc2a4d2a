"""Whose emotion it is, and how good the corpus is, in the workbench (pytest-qt, offscreen).

The corpus setting "Speaker's grammatical gender" (``speaker_gender``) and a template's
"Experiencer" (``experiencer``: inferred, person, speaker, third party, noun) are edited through
their combo boxes, undone and redone, saved and read back; the native-review line beside the
progress shows the stored review's error rate ("native review: 10 pairs, 1 error, …") for a
corpus with a ``*.reviews.json`` beside it, and "no blind sample rated yet" otherwise.
"""
from __future__ import annotations

import csv
import dataclasses
import io

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from engine.corpus import load_corpus  # noqa: E402
from engine.corpus.translate.review_record import (  # noqa: E402
    draw_sample,
    read_review,
    review_status,
    save_record,
    sheet_text,
)
from test_gui_workbench_support import copy_corpus, make_window, wait_idle  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# A small Spanish corpus: T01 the person feels, T02 the speaker ("me"), T03 a noun (situation),
# T04 no emotion word at all. Two gender pairs, so a review samples pairs.
MINI = """\
format = 1
id = "es-referent-test"
name = "Referent test"
language = "es"
capitalize = true

[features]
gender = ["f", "m"]

[axes.gender]
label = "Género"
groups = ["female", "male"]
reference = "male"
feature = { female = "f", male = "m" }

[[templates]]
id = "T01"
variants = [{ text = "{person} está {emotion kind=state gender=person.gender}." }]

[[templates]]
id = "T02"
variants = [{ text = "{person} me hizo sentir {emotion kind=state gender=m}." }]

[[templates]]
id = "T03"
variants = [{ text = "La conversación con {person} fue {emotion kind=situation gender=f}." }]

[[templates]]
id = "T04"
variants = [{ text = "{person} vive aquí." }]

[[persons]]
id = "np_ella"
kind = "noun_phrase"
gender = "female"
text = "ella"

[[persons]]
id = "np_el"
kind = "noun_phrase"
gender = "male"
text = "él"

[[persons]]
id = "np_mi_madre"
kind = "noun_phrase"
gender = "female"
text = "mi madre"

[[persons]]
id = "np_mi_padre"
kind = "noun_phrase"
gender = "male"
text = "mi padre"

[[pairs]]
id = "gender"
variable = "gender"
privileged = ["np_el", "np_mi_padre"]
minoritised = ["np_ella", "np_mi_madre"]

[[emotion_words]]
id = "enfadado"
emotion = "anger"
kind = "state"
forms = [{ text = "enfadado", gender = "m" }, { text = "enfadada", gender = "f" }]

[[emotion_words]]
id = "triste"
emotion = "sadness"
kind = "state"
forms = [{ text = "triste" }]

[[emotion_words]]
id = "irritante"
emotion = "anger"
kind = "situation"
forms = [{ text = "irritante" }]
"""


@pytest.fixture
def win(qtbot):
    w = make_window(qtbot)
    # the corpora page checks every built-in corpus in the background first: let it finish
    qtbot.waitUntil(lambda: w.corpora.ready, timeout=60000)
    return w


@pytest.fixture
def english_after():
    from gui import i18n

    yield
    i18n.set_language("en")


def _mini(tmp_path, name: str = "es-referent-test.toml"):
    path = tmp_path / name
    path.write_text(MINI, encoding="utf-8")
    return path


def _texts(box) -> list[str]:
    return [box.itemText(i) for i in range(box.count())]


def _choose(box, value: str) -> None:
    """Pick the item whose data is ``value``, as a click in the drop-down does."""
    index = box.findData(value)
    assert index >= 0, (value, _texts(box))
    box.setCurrentIndex(index)


def _template(page, template_id: str):
    return page.doc.corpus.templates[page.doc.index_of("templates", template_id)]


# -- the speaker's grammatical gender ----------------------------------------------------------

def test_speaker_gender_is_set_undone_redone_saved_and_reloaded(qtbot, win, tmp_path):
    path = _mini(tmp_path)
    page = win.open_path(path)
    wait_idle(qtbot, page)
    box = page.settings_tab.speaker_gender
    page.tabs.setCurrentWidget(page.settings_tab)
    assert _texts(box) == ["not set", "f", "m"]
    assert box.isEnabled() and box.currentData() == ""
    runs = page.analysis_runs

    _choose(box, "f")
    assert page.doc.corpus.speaker_gender == "f"
    assert page.doc.modified and page.heading.text().startswith("<b>es-referent-test</b> *")
    assert "speaker" in page.doc.undo_stack.undoText()
    wait_idle(qtbot, page)
    assert page.analysis_runs > runs  # the checks ran again, as for any edit

    page.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: box.currentData() == "")
    assert page.doc.corpus.speaker_gender == "" and not page.doc.modified
    page.doc.undo_stack.redo()
    qtbot.waitUntil(lambda: box.currentData() == "f")
    assert page.doc.corpus.speaker_gender == "f"

    _choose(box, "m")
    wait_idle(qtbot, page)
    page.doc.save()
    assert 'speaker_gender = "m"' in path.read_text(encoding="utf-8")
    assert load_corpus(path).speaker_gender == "m"
    # reopened: the combo shows what the file says
    again = win.open_path(path)
    wait_idle(qtbot, again)
    assert again.settings_tab.speaker_gender.currentData() == "m"


def test_speaker_gender_is_disabled_without_a_gender_feature(qtbot, win, tmp_path):
    page = win.open_path(_mini(tmp_path))
    wait_idle(qtbot, page)
    box = page.settings_tab.speaker_gender
    # removing the feature "gender" (a corpus edit) leaves nothing to choose, and says why
    features = dict(page.doc.corpus.features)
    del features["gender"]
    page.doc.set(("features",), features, "remove gender")
    qtbot.waitUntil(lambda: not box.isEnabled())
    assert _texts(box) == ["not set"]
    assert "gender" in box.toolTip() and "Add the feature" in box.toolTip()
    page.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: box.isEnabled())
    assert _texts(box) == ["not set", "f", "m"]


# -- who feels the emotion word ----------------------------------------------------------------

def test_experiencer_shows_the_inferred_referent_and_is_edited_undoably(qtbot, win, tmp_path):
    path = _mini(tmp_path)
    page = win.open_path(path)
    wait_idle(qtbot, page)
    fe = page.form_editor
    box = fe.experiencer_box
    expected = {"T01": "inferred: person", "T02": "inferred: speaker", "T03": "inferred: noun"}
    for template_id, first in expected.items():
        assert page.jump_to("templates", template_id)
        assert fe.experiencer_row.isVisible() and box.isEnabled()
        assert _texts(box) == [first, "person", "speaker", "third party", "noun (situation, event…)"]
        assert box.currentData() == ""
    # no emotion word: nobody feels one, nothing to choose
    page.jump_to("templates", "T04")
    assert not box.isEnabled() and box.itemText(0) == "inferred: –"
    assert "no emotion-word slot" in box.toolTip()
    # not shown for persons or emotion words
    page.jump_to("persons", "np_ella")
    assert not fe.experiencer_row.isVisible()

    page.jump_to("templates", "T02")
    _choose(box, "speaker")
    assert _template(page, "T02").experiencer == "speaker"
    assert page.doc.modified and "T02" in page.doc.undo_stack.undoText()
    qtbot.waitUntil(lambda: fe.experiencer_box.currentData() == "speaker")
    wait_idle(qtbot, page)
    page.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: fe.experiencer_box.currentData() == "")
    assert _template(page, "T02").experiencer == ""
    page.doc.undo_stack.redo()
    qtbot.waitUntil(lambda: fe.experiencer_box.currentData() == "speaker")
    assert _template(page, "T02").experiencer == "speaker"

    # a declared referent other than the inferred one, then back to "inferred"
    page.jump_to("templates", "T03")
    _choose(fe.experiencer_box, "third")
    page.jump_to("templates", "T01")
    _choose(fe.experiencer_box, "person")
    qtbot.waitUntil(lambda: fe.experiencer_box.currentData() == "person")
    _choose(fe.experiencer_box, "")
    assert _template(page, "T01").experiencer == ""
    wait_idle(qtbot, page)
    page.doc.save()
    text = path.read_text(encoding="utf-8")
    assert 'experiencer = "speaker"' in text and 'experiencer = "third"' in text
    reloaded = {t.id: t.experiencer for t in load_corpus(path).templates}
    assert reloaded == {"T01": "", "T02": "speaker", "T03": "third", "T04": ""}
    again = win.open_path(path)
    wait_idle(qtbot, again)
    again.jump_to("templates", "T03")
    assert again.form_editor.experiencer_box.currentData() == "third"


def test_experiencer_and_speaker_gender_reach_the_checker(qtbot, win, tmp_path):
    """A template whose emotion word follows the person while the speaker feels it is E016;
    declaring the speaker's gender other than the word's fixed gender is E016 too."""
    page = win.open_path(_mini(tmp_path))
    wait_idle(qtbot, page)

    def e016() -> bool:
        return any(f.code == "E016" for f in page.report.findings)

    assert not e016()
    _choose(page.settings_tab.speaker_gender, "f")  # T02 holds the word masculine: now a mismatch
    qtbot.waitUntil(lambda: page.idle and page.report is not None and e016(), timeout=15000)
    page.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: page.idle and not e016(), timeout=15000)


# -- the native-speaker review -----------------------------------------------------------------

def _review(corpus_path, n: int = 10, errors: int = 1) -> str:
    """Store a filled-in review of ``n`` items (``errors`` of them errors) beside the corpus."""
    corpus = load_corpus(corpus_path)
    sample = draw_sample(corpus, n, seed=7)
    rows = list(csv.DictReader(io.StringIO(sheet_text(sample))))
    for k, row in enumerate(rows):
        if k < errors:
            row.update(verdict="error", error_class="agreement", correction="(corrected)")
        else:
            row["verdict"] = "ok"
    sheet = corpus_path.with_suffix(".sheet.csv")
    with sheet.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    save_record(corpus, read_review(corpus, sheet, "a native speaker", "2026-01-02"))
    return review_status(corpus).text()


def test_review_line_shows_the_stored_review(qtbot, win, tmp_path):
    path = _mini(tmp_path)
    expected = _review(path, n=6, errors=1)
    assert expected.startswith("native review: 6 pairs, 1 error, ")
    page = win.open_path(path)
    wait_idle(qtbot, page)
    qtbot.waitUntil(lambda: page.review_line() == expected)
    tip = page.native_review.toolTip()
    assert "Clopper–Pearson" in tip and "review-sample" in tip and "review-import" in tip
    assert "a native speaker" in tip
    # it sits beside the progress caption
    assert page.native_review.isVisible()
    assert page.native_review.parentWidget() is page.progress.parentWidget()

    # an edit that changes a reviewed sentence: the line says how many reviewed items differ now
    row = page.doc.index_of("persons", "np_ella")
    forms = [dataclasses.replace(f, text="ella misma") for f in page.doc.corpus.persons[row].forms]
    page.doc.set(("persons", row, "forms"), forms, "edit ella")
    wait_idle(qtbot, page)
    qtbot.waitUntil(lambda: "text changed since" in page.review_line())
    assert page.review_line() == review_status(dataclasses.replace(page.doc.snapshot(), path=str(path))).text()
    page.doc.undo_stack.undo()
    wait_idle(qtbot, page)
    qtbot.waitUntil(lambda: page.review_line() == expected)


def test_review_line_for_a_corpus_without_a_review(qtbot, win, tmp_path):
    page = win.open_path(_mini(tmp_path))
    wait_idle(qtbot, page)
    assert page.review_line() == "native review: no blind sample rated yet"
    assert "Clopper–Pearson" in page.native_review.toolTip()
    # a built-in corpus's copy without its record is not reviewed either
    other = win.open_path(copy_corpus("en-kiritchenko2018", tmp_path))
    wait_idle(qtbot, other)
    assert other.review_line().endswith("no blind sample rated yet")


def test_review_line_follows_save_as(qtbot, win, tmp_path):
    """The record lives beside the file: Save As into a folder with a record shows that one."""
    folder = tmp_path / "reviewed"
    folder.mkdir()
    reviewed = _mini(folder)
    expected = _review(reviewed, n=4, errors=0)
    page = win.open_path(_mini(tmp_path, "elsewhere.toml"))
    wait_idle(qtbot, page)
    assert page.review_line() == "native review: no blind sample rated yet"
    page.doc.save(reviewed)
    qtbot.waitUntil(lambda: page.idle and page.review_line() == expected)


def test_review_line_in_the_interface_language(qtbot, win, tmp_path, english_after):
    from PySide6.QtWidgets import QApplication

    from gui import i18n

    path = _mini(tmp_path)
    _review(path, n=6, errors=2)
    page = win.open_path(path)
    wait_idle(qtbot, page)
    i18n.set_language("de", QApplication.instance())
    assert page.review_line().startswith("muttersprachliche Prüfung: 6 Paare, 2 Fehler, ")
    assert page.settings_tab.labels["speaker_gender"].text() == "Genus der sprechenden Person:"
    page.jump_to("templates", "T02")
    assert page.form_editor.experiencer_box.itemText(0) == "erschlossen: sprechende Person"


def test_review_line_names_a_mixed_sample_as_the_engine_does():
    """A sample of pairs and the single sentences no pair covers (the Câmara corpora) reads
    "100 items (17 pairs, 83 sentences)" — once it read "100 sentences"."""
    from engine.corpus import load_corpus
    from engine.corpus.translate.review_record import review_status
    from gui import i18n
    from gui.workbench.native_review import review_text

    i18n.set_language("en")
    for name in ("es-camara2022", "zh-goldfarb2023"):  # items, pairs
        status = review_status(load_corpus(name), check_stale=False)
        assert review_text(status) == status.text()
    assert "items (" in review_text(review_status(load_corpus("es-camara2022"), check_stale=False))
