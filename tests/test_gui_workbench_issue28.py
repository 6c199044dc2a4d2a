"""Issue 28 in the workbench: a pair chosen in the table is mirrored, typing on the ID column goes to
the translation, an external change of the open file is offered for reload without losing edits,
the translate dialog refuses an existing id and reads a typed language name, and the corpora list
includes files opened from elsewhere."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from engine.corpus import load_corpus  # noqa: E402
from test_gui_workbench_support import copy_corpus, make_window, wait_idle  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_pair_chosen_in_the_table_is_mirrored_in_one_undo_step(qtbot, tmp_path):
    win = make_window(qtbot)
    page = win.open_path(copy_corpus("en-kiritchenko2018", tmp_path))
    wait_idle(qtbot, page)
    model = page.entry_tabs["persons"].model
    row = model.row_of("np_she")
    steps = page.doc.undo_stack.count()
    assert model.setData(model.index(row, model.column_index("pair")), "np_my_father")
    people = {p.id: p for p in page.doc.corpus.persons}
    assert people["np_she"].pair == "np_my_father" and people["np_my_father"].pair == "np_she"
    assert people["np_he"].pair == "" and people["np_my_mother"].pair == ""  # former partners released
    assert page.doc.undo_stack.count() == steps + 1
    page.doc.undo_stack.undo()
    people = {p.id: p for p in page.doc.corpus.persons}
    assert (people["np_she"].pair, people["np_he"].pair) == ("np_he", "np_she")


def test_a_key_typed_on_the_id_column_edits_the_translation_not_the_id(qtbot, tmp_path):
    win = make_window(qtbot)
    page = win.translate_from(load_corpus("en-kiritchenko2018").path, "pt")
    wait_idle(qtbot, page)
    tab = page.entry_tabs["persons"]
    page.tabs.setCurrentWidget(tab)
    first = tab.model.entries[0].id
    tab.view.setCurrentIndex(tab.proxy.index(0, tab.model.column_index("id")))
    tab.view.setFocus()
    qtbot.keyClicks(tab.view, "E")
    assert tab.view.currentIndex().column() == tab.model.target_column()
    assert tab.model.entries[0].id == first  # never renamed by typing


def test_external_change_is_offered_for_reload_and_unsaved_edits_stay_one_undo_away(qtbot, tmp_path):
    win = make_window(qtbot)
    path = copy_corpus("es-camara2022", tmp_path)
    page = win.open_path(path)
    wait_idle(qtbot, page)
    assert not page.check_disk()
    page.doc.set(("name",), "mine", "edit")
    path.write_text(path.read_text(encoding="utf-8").replace('name = "', 'name = "theirs ', 1), encoding="utf-8")
    assert page.check_disk() and page.disk_banner.isVisibleTo(page)
    assert "unsaved edits" in page.disk_text.text()
    assert page.reload_from_disk()
    assert page.doc.corpus.name.startswith("theirs") and not page.doc.modified
    page.doc.undo_stack.undo()
    assert page.doc.corpus.name == "mine"  # the edits were not thrown away


def test_translate_dialog_refuses_an_existing_id_and_reads_a_typed_name(qtbot, tmp_path):
    from gui.dialogs import TranslateDialog

    win = make_window(qtbot)
    dlg = TranslateDialog("en-kiritchenko2018", win, source=load_corpus("en-kiritchenko2018"))
    dlg.language.setEditText("spanish")
    assert dlg.language.tag() == "es"
    dlg.corpus_id.setText("es-camara2022")
    assert "exists already" in dlg.problem_text()
    assert not dlg.buttons.button(dlg.buttons.StandardButton.Ok).isEnabled()
    dlg.keep("T01 T99")
    assert dlg.values()["subset"].templates == ["T01"] and "T99" in dlg.problem.text()
    assert dlg.values()["subset"].persons == []  # lists without a typed id keep everything


def test_a_corpus_opened_from_elsewhere_is_listed_with_the_others(qtbot, tmp_path):
    from engine.corpus.definition.registry import list_corpora

    win = make_window(qtbot)
    path = copy_corpus("es-camara2022", tmp_path, "elsewhere.toml")
    assert win.open_path(path) is not None
    assert any(e.elsewhere and e.path == path.resolve() for e in list_corpora())
    win.corpora.refresh()
    assert win.corpora.select_id("elsewhere")
