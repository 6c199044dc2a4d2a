"""Issue 39's Italian scenario through the GUI at 1280 × 800, every action counted (goal ≤ 45).

en-kiritchenko2018 translated into Italian with both axes (gender and race): 3 templates including
a speaker template (T04, "{person} made me feel {emotion}"), 4 noun phrases, 8 names (2 per
gender × race cell) and 4 emotion words with feminine and masculine forms — typed as one pasted
block in *Translate many…* (previewed with the checker, applied as one undo step), the speaker's
gender set in the Corpus tab, T04's E002 fixed with one click (the Fix holds it at the speaker's
gender, not gender=person.gender, which would raise E016), checker-clean, saved, reopened (the
source corpus survives), and the PO and the package exported. Counted as
tests/test_gui_pt_scenario.py counts: a click, a choice in a list, one typed field (several lines
included), a key press, a menu item or a file-dialog step — one each.
"""
from __future__ import annotations

import zipfile

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from engine.corpus import load_corpus  # noqa: E402
from test_gui_translator_flow import Actions, press  # noqa: E402
from test_gui_workbench_support import make_window, type_text, wait_idle  # noqa: E402

from testkit.it_scenario import BATCH, KEEP, SOURCE  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _translate(act, win, qtbot):
    """Translate dialog (5): the menu item, the source, the language by its own name, Keep only + Enter, OK."""
    from gui.dialogs import TranslateDialog

    act.menu()
    tr = TranslateDialog(SOURCE, win, source=load_corpus(SOURCE))
    tr.show()
    act.n += 1
    tr.source_box.setCurrentIndex(tr.source_box.findText(SOURCE))
    act.n += 1
    tr.language.setEditText("italiano")  # the language's name in itself (issue 39, defect 7)
    # a free id is proposed: it-kiritchenko2018 itself is a built-in corpus since issue 43
    assert tr.language.tag() == "it" and tr.corpus_id.text() == "it-kiritchenko2018-2"
    act.n += 1
    tr.keep_only.setFocus()
    type_text(tr.keep_only, KEEP)
    qtbot.keyClick(tr.keep_only, Qt.Key_Return)
    assert tr.isVisible() and not tr.problem_text()  # Enter kept the ids and did not press OK (defect 4)
    act.menu()  # OK
    page = win.translate_from(tr.source_path(), **tr.values())
    tr.close()
    tr.deleteLater()
    return page


def _batch(act, win, qtbot, page):
    """Translate many… (3): Ctrl+Shift+B, the pasted block, Apply."""
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    act.n += 1
    press(qtbot, win, Qt.Key_B, Qt.ControlModifier | Qt.ShiftModifier)
    dlg = page._batch
    qtbot.waitUntil(dlg.isVisible)
    act.n += 1  # one typed (pasted) field, several lines
    dlg.text.setPlainText("\n".join(BATCH))
    dlg.read()
    qtbot.waitUntil(lambda: dlg.idle, timeout=60000)
    preview = dlg.preview.toPlainText().replace("\u2068", "").replace("\u2069", "")  # bidi isolates aside
    assert "emotion word angry ← gender=f arrabbiata · gender=m arrabbiato" in preview
    assert "person np_my_mother ← mia madre" in preview  # found by its English text
    assert "19 items will change" in dlg.summary.text() and "After applying: 1 error ·" in dlg.summary.text()  # T04: E002
    before = page.doc.undo_stack.count()
    act.click(dlg.apply_button)
    assert page.doc.undo_stack.count() == before + 1  # one undo step
    assert dlg.text.toPlainText() == ""  # every line understood
    dlg.close()


def test_italian_eec_with_both_axes_in_at_most_45_actions(qtbot, tmp_path):
    win = make_window(qtbot)
    win.resize(1280, 800)  # the default window the trial used
    act = Actions(qtbot)

    page = _translate(act, win, qtbot)
    c = page.doc.corpus
    assert (len(c.templates), len(c.persons), len(c.emotion_words)) == (3, 12, 4)
    assert set(c.axes) == {"gender", "race"} and c.axes["race"].groups == ["African-American", "European"]
    assert c.features == {"gender": ["f", "m"], "number": ["sg", "pl"]}  # Italian's, not role/initial (defect 10)
    wait_idle(qtbot, page, 90000)

    # the speaker's gender in the Corpus tab (2): the tab, the choice
    act.n += 1
    page.tabs.setCurrentWidget(page.settings_tab)
    act.choose(page.settings_tab.speaker_gender, "m")
    assert c.speaker_gender == "m"

    _batch(act, win, qtbot, page)
    c = page.doc.corpus
    angry = next(e for e in c.emotion_words if e.id == "angry")
    assert [(f.text, f.features) for f in angry.forms] == [("arrabbiata", {"gender": "f"}), ("arrabbiato", {"gender": "m"})]
    assert angry.review.status == "translated"
    assert page.progress_text().startswith("100% translated")

    # T04's E002 (2): the finding, its Fix — gender=m (the speaker), never gender=person.gender (E016)
    wait_idle(qtbot, page, 90000)
    page.side.setCurrentWidget(page.checks)
    act.n += 1
    assert page.checks.select_code("E002")
    assert page.checks.tree.currentItem().text(2) == "template T04"
    assert "gender=m" in page.checks.fix_button.text() and "person.gender" not in page.checks.fix_button.text()
    act.click(page.checks.fix_button)
    assert c.templates[2].variants[0].text == "{person} mi ha fatto sentire {emotion kind=state gender=m}."
    wait_idle(qtbot, page, 90000)
    assert win.counts_label.text().startswith("0 errors"), page.checks.messages()
    assert not [m for m in page.checks.messages() if "W114" not in m], page.checks.messages()  # W114: no dictionary here

    # Save (2), then reopen (2): the translation still knows its source (defect 5)
    act.menu(2)
    target = page.doc.suggested_path()
    assert win.save_as(target)
    act.menu(2)  # File → Open recent, the file
    page = win.open_path(target)
    assert page.doc.source is not None and page.doc.source.id == SOURCE
    assert f"translated from {SOURCE}" in page.heading.text()

    # PO (3) and package (3): menu item, file name, Save
    act.menu(3)
    assert win.export_to("po", tmp_path / "it.po")
    act.menu(3)
    assert win.export_to("package", tmp_path / "it.eecpkg")

    po = (tmp_path / "it.po").read_text(encoding="utf-8")
    assert '"X-Source-Language: en\\n"' in po
    assert 'msgid "angry"\nmsgstr "arrabbiata"' in po
    assert 'msgid "my mother"\nmsgstr "mia madre"' in po
    assert 'msgid "Amanda"\nmsgstr "Amanda"' in po
    assert 'msgid "mia madre"' not in po and 'msgid "arrabbiata"' not in po  # never the Italian as msgid
    sentences = load_corpus(target)
    from engine.corpus import generate

    df = generate(sentences)
    assert len(df) == 3 * 12 * 4
    assert {"Mia madre si sente arrabbiata.", "Mio padre mi ha fatto sentire arrabbiato.",
            "Mia madre mi ha fatto sentire arrabbiato.",
            "La situazione fa sentire Jamel depresso."} <= set(df.Sentence)
    with zipfile.ZipFile(tmp_path / "it.eecpkg") as z:
        assert "README.md" in z.namelist()

    print(f"GUI actions, Italian translation of {SOURCE} (both axes, 3 templates, 12 persons, 4 words): {act.n}")
    assert act.n <= 45
    assert act.n == 22  # docs/gui.md states this number
