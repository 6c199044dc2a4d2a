"""Issue 28's Portuguese scenario, driven through the GUI from an empty start to exports, with every
action counted (goal: at most 45, the race axis included, no outside editor).

A Portuguese corpus: 3 templates, 8 names in two race groups (2 per gender × race cell: 6 names
in 4 cells cannot be balanced, and W116 would say so), 2 noun-phrase pairs typed as
``minha mãe f ~ meu pai m``, 8 emotion words with feminine and masculine forms; one template
typed without ``gender=person.gender`` and fixed with the checker's one-click fix; saved in the
corpora folder; every export format in one action; then en-kiritchenko2018 translated into
Portuguese (source picked, "keep only" three templates, language typed by its name) and the
first template translated with the keyboard alone (Ctrl+Shift+Down lands in the text, Ctrl+Enter
commits and moves on).
"""
from __future__ import annotations

import zipfile

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QLineEdit  # noqa: E402

from engine.corpus import load_corpus  # noqa: E402
from test_gui_translator_flow import Actions, _add_templates, press  # noqa: E402
from test_gui_workbench_support import make_window, type_text, wait_idle  # noqa: E402

from testkit.pt_scenario import AXIS as PT_AXIS, NAMES as PT_NAMES, PAIRS as PT_PAIRS  # noqa: E402
from testkit.pt_scenario import TEMPLATES as PT_TEMPLATES, WORDS as PT_WORDS  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _dialog(tab):
    from gui.workbench.add_entry import AddEntryDialog

    return next(d for d in tab.findChildren(AddEntryDialog) if d.isVisible())


def test_portuguese_corpus_from_nothing_to_every_export_and_a_translation(qtbot, tmp_path, monkeypatch):
    import os

    from engine.common.user_dirs import user_corpus_dir
    from gui.dialogs import NewCorpusDialog, TranslateDialog

    win = make_window(qtbot)
    act = Actions(qtbot)

    # 1. New corpus, Portuguese typed by its name (3)
    act.menu()
    dlg = NewCorpusDialog(win)
    act.n += 1
    dlg.language.setEditText("Portuguese")
    assert dlg.language.tag() == "pt" and not dlg.problem_text()
    act.menu()  # OK
    page = win.new_corpus(**dlg.values())
    dlg.deleteLater()
    c = page.doc.corpus
    assert page.progress_text().startswith("0% translated · next: add a template")  # never "100 %" when empty
    wait_idle(qtbot, page)
    assert "Nothing to check yet" in page.checks.summary.text()

    # 2. The race axis in the Corpus tab (2): the tab, one typed line + Enter
    act.n += 1
    page.tabs.setCurrentWidget(page.settings_tab)
    act.n += 1
    page.settings_tab.new_axis.setFocus()
    type_text(page.settings_tab.new_axis, PT_AXIS)
    qtbot.keyClick(page.settings_tab.new_axis, Qt.Key_Return)
    assert (c.axes["race"].groups, c.axes["race"].reference, c.axes["race"].label) == (["branco", "negro"], "branco", "Raça")
    persons_model = page.entry_tabs["persons"].model
    assert persons_model.column_index("axis:race") > 0  # the persons table has its column at once

    # 3. Three templates (6)
    _add_templates(act, page, PT_TEMPLATES)

    # 4. Persons: eight names with gender and race on each line, two noun-phrase pairs (8)
    tab = page.entry_tabs["persons"]
    page.tabs.setCurrentWidget(tab)
    act.click(tab.add_button)
    add = _dialog(tab)
    act.choose(add.boxes["kind"], "name")
    act.type_lines(add.text, PT_NAMES)
    assert "Ana — name · female · branco" in add.preview.text()  # what each line will be, before adding
    act.click(add.add_button)
    act.choose(add.boxes["kind"], "noun_phrase")
    act.type_lines(add.text, PT_PAIRS)
    assert add.boxes["axis:gender"].currentData() == ""  # nothing carried over from the last batch
    act.click(add.add_button)
    act.click(add.buttons.button(add.buttons.StandardButton.Close))
    people = {p.id: p for p in c.persons}
    assert (people["ana"].groups, people["jamal"].groups) == ({"gender": "female", "race": "branco"},
                                                               {"gender": "male", "race": "negro"})
    assert (people["minha_mae"].pair, people["meu_pai"].pair) == ("meu_pai", "minha_mae")
    assert (people["minha_irma"].pair, people["meu_irmao"].pair) == ("meu_irmao", "minha_irma")

    # 5. Emotion words: eight, the emotion before a colon on each line (5)
    tab = page.entry_tabs["emotion_words"]
    page.tabs.setCurrentWidget(tab)
    act.click(tab.add_button)
    add = _dialog(tab)
    act.choose(add.boxes["kind"], "state")
    act.type_lines(add.text, PT_WORDS)
    act.click(add.add_button)
    act.click(add.buttons.button(add.buttons.StandardButton.Close))
    assert len(c.emotion_words) == 8
    angry = c.emotion_words[0]
    assert (angry.emotion, [(f.text, f.features) for f in angry.forms]) == (
        "anger", [("irritada", {"gender": "f"}), ("irritado", {"gender": "m"})])

    # 6. The checker names the fix in the template (not 8 × "add a feature" on the words): one click (2)
    wait_idle(qtbot, page)
    assert win.counts_label.text() == "1 error · 0 warnings"
    page.side.setCurrentWidget(page.checks)
    act.n += 1
    assert page.checks.select_code("E002")
    assert page.checks.tree.currentItem().text(2) == "template T01"
    assert "gender=person.gender" in page.checks.fix_button.text()
    act.click(page.checks.fix_button)
    assert c.templates[0].variants[0].text == "{person} está {emotion kind=state gender=person.gender}."
    wait_idle(qtbot, page)
    assert win.counts_label.text() == "0 errors · 0 warnings"
    assert page.progress_text().startswith("100% translated")

    # 7. Save: into the corpora folder, created on first use (2)
    act.menu(2)  # Ctrl+S, Save in the dialog that opens there
    target = page.doc.suggested_path()
    assert target.parent == user_corpus_dir() and target.parent.is_dir()
    assert win.save_as(target) and target.is_file()

    # 8. Every export format in one go (3): the menu item, the folder, OK
    act.menu(3)
    written = win.export_all_to(tmp_path / "exports")
    assert sorted(p.name for p in written) == sorted(["pt-my-eec.eecpkg", "pt-my-eec.po", "pt-my-eec.xlf", "pt-my-eec.csv",
                                                      "pt-my-eec.jsonl", "pt-my-eec.parquet", "pt-my-eec-hf"])
    import pandas as pd

    sentences = pd.read_csv(tmp_path / "exports" / "pt-my-eec.csv")
    assert len(sentences) == 3 * 12 * 8
    assert "Ana está irritada." in set(sentences.Sentence) and "Meu pai está irritado." in set(sentences.Sentence)
    with zipfile.ZipFile(tmp_path / "exports" / "pt-my-eec.eecpkg") as z:
        assert "README.md" in z.namelist()
    assert (tmp_path / "exports" / "pt-my-eec-hf" / "README.md").is_file()

    # 9. Translate en-kiritchenko2018 into Portuguese (5): menu, source, language, keep only, OK
    act.menu()
    tr = TranslateDialog("pt-my-eec", win, source=load_corpus(target))
    act.n += 1
    tr.source_box.setCurrentIndex(tr.source_box.findText("en-kiritchenko2018"))
    assert tr.source_id == "en-kiritchenko2018"
    assert tr.subset["templates"].item(0).text().startswith("T01 — {person")  # the text beside the id
    act.n += 1
    tr.language.setEditText("Portuguese")
    assert tr.corpus_id.text() == "pt-kiritchenko2018" and not tr.problem_text()
    act.n += 1
    tr.keep_only.setFocus()
    type_text(tr.keep_only, "T01, T02, T03")
    qtbot.keyClick(tr.keep_only, Qt.Key_Return)
    act.menu()  # OK
    page = win.translate_from(tr.source_path(), **tr.values())
    tr.deleteLater()
    c = page.doc.corpus
    assert [t.id for t in c.templates] == ["T01", "T02", "T03"]
    wait_idle(qtbot, page)

    # 10. The keyboard alone (3): next untranslated lands in the text, typing, Ctrl+Enter commits and moves on
    page.jump_to("templates", "T01")
    win.activateWindow()  # keys go to the focused widget of the active window, as on a desktop
    qtbot.waitUntil(win.isActiveWindow)
    act.n += 1
    press(qtbot, win, Qt.Key_Down, Qt.ControlModifier | Qt.ShiftModifier)
    focus = QApplication.focusWidget()
    assert isinstance(focus, QLineEdit) and page.form_editor.entry.id == "T02"
    act.n += 1
    type_text(focus, "{person} sente-se {emotion kind=state gender=person.gender}.")
    act.n += 1
    press(qtbot, win, Qt.Key_Return, Qt.ControlModifier)
    t02 = c.templates[1]
    assert (t02.id, t02.variants[0].text, t02.review.status) == (
        "T02", "{person} sente-se {emotion kind=state gender=person.gender}.", "translated")
    assert page.form_editor.entry.id == "T03"  # moved on

    print(f"GUI actions, Portuguese scenario from nothing to exports and a translation: {act.n}")
    assert act.n <= 45
    assert act.n == 39  # docs/gui.md states this number
    assert os.environ["EEC_STUDIO_HOME"] in str(target)
