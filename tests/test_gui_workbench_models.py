"""pytest-qt's model tester over every item model of the workbench, on real corpora in a real page.

Why: a table model that breaks Qt's contract (an index past the end, a row count that disagrees
with the signals it sent, a reset announced too late) crashes or corrupts views only now and
then; the model tester (Qt's own QAbstractItemModelTester, and pytest-qt's Python port, which
raises at the first broken rule) checks every rule on every change. Each model gets its own
tester (one tester watches one model) while the page is edited the ways a translator edits it:
typing a cell, adding and removing entries, undo and redo, a new axis (new columns), the status
filter and the search, a language switch, the checks, preview and coverage panels refilling.
"""
from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from pytestqt.modeltest import ModelTester  # noqa: E402 - the class behind the qtmodeltester fixture

from engine.corpus import load_corpus  # noqa: E402
from test_gui_workbench_support import copy_corpus, make_window, wait_idle  # noqa: E402


@pytest.fixture
def win(qtbot):
    return make_window(qtbot)


class Watch:
    """Model testers attached to the page's models (kept alive for the whole test)."""

    def __init__(self, qtmodeltester: ModelTester, config: pytest.Config) -> None:
        self.first, self.config, self.testers = qtmodeltester, config, []
        self.names: list[str] = []

    def attach(self, name: str, model, python: bool = True) -> None:
        """Qt's C++ tester (reports through qWarning "FAIL! …") and, unless the model is large, the
        Python tester (asserts at once, and again on every signal the model sends)."""
        cpp = self.first if not self.testers else ModelTester(self.config)
        cpp.check(model)
        self.testers.append(cpp)
        if python:
            py = ModelTester(self.config)
            py.check(model, force_py=True)
            self.testers.append(py)
        self.names.append(name)


def _attach_page_models(watch: Watch, page) -> None:
    for name, tab in page.entry_tabs.items():
        watch.attach(f"{name} table", tab.model)
        watch.attach(f"{name} filter", tab.proxy)
    watch.attach("status filter choices", page.status_filter.model())
    # not the checks tree: QTreeWidget's own model (Qt's QTreeModel) gives an item's every column the
    # children of its first, which both testers refuse (rule "the second column has no children of the
    # first"): a trait of Qt's class, the same for every QTreeWidget with nested items
    watch.attach("suggestions", page.suggestions.tree.model())
    watch.attach("form editor", page.form_editor.table.model())
    watch.attach("glossary", page.glossary.table.model())
    watch.attach("coverage", page.coverage.table.model())
    watch.attach("corpus features", page.settings_tab.features.model())
    watch.attach("corpus axes", page.settings_tab.axes.model())
    for combo in (page.preview.template, page.preview.person, page.preview.emotion):
        watch.attach("preview choice", combo.model())
    # thousands of sentences: Qt's tester only (the Python one walks every cell on every signal)
    watch.attach("preview sentences", page.preview.table.model, python=False)


def _no_qt_tester_failures(qtlog) -> None:
    failures = [r.message for r in qtlog.records if "FAIL!" in r.message]
    assert not failures, failures


def _edit_the_ways_a_translator_does(qtbot, page) -> None:
    from PySide6.QtCore import Qt

    doc = page.doc
    page.side.setCurrentWidget(page.coverage)  # generation: preview and coverage refill
    wait_idle(qtbot, page)
    page.side.setCurrentWidget(page.preview)
    page.preview.set_filter(template="T01")
    # a typed cell (one row changes), then undone and redone
    persons = page.entry_tabs["persons"]
    row = next(r for r, p in enumerate(doc.corpus.persons) if len(p.forms) <= 1)
    index = persons.model.index(row, persons.model.target_column())
    assert persons.model.setData(index, "nuevo texto", Qt.EditRole)
    doc.undo_stack.undo()
    doc.undo_stack.redo()
    # an entry added and removed (the list changes length), each undone
    templates = page.entry_tabs["templates"]
    templates.add_entry({"text": "{person} siente {emotion}."})
    doc.undo_stack.undo()
    doc.undo_stack.redo()
    templates.view.selectRow(templates.proxy.rowCount() - 1)
    templates.remove_selected()
    doc.undo_stack.undo()
    # a new axis: the persons table gains a column
    columns = persons.model.columnCount()
    page.settings_tab.new_axis.setText("edad=joven*,mayor")
    assert page.settings_tab.add_axis_from_text()
    assert persons.model.columnCount() == columns + 1
    doc.undo_stack.undo()
    # the filter and the search hide and show rows
    page.search.setText("a")
    page.status_filter.setCurrentIndex(page.status_filter.findData("reviewed"))
    page.status_filter.setCurrentIndex(0)
    page.search.setText("zzz-nothing-matches")
    page.search.clear()
    # the form editor and the suggestions follow the entry shown; the checks refill after the edits
    page.jump_to("emotion_words", doc.corpus.emotion_words[0].id)
    page.form_editor.add_form()
    doc.undo_stack.undo()
    page.retranslate()
    for tab in page.entry_tabs.values():
        tab.retranslate()
    wait_idle(qtbot, page)


def test_every_workbench_model_keeps_qt_s_rules_on_an_original_corpus(qtbot, qtlog, qtmodeltester, pytestconfig,
                                                                      win, tmp_path):
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    wait_idle(qtbot, page)
    watch = Watch(qtmodeltester, pytestconfig)
    _attach_page_models(watch, page)
    _edit_the_ways_a_translator_does(qtbot, page)
    assert page.preview.table.model.rowCount() > 0 and page.coverage.table.model().rowCount() > 0
    _no_qt_tester_failures(qtlog)


def test_every_workbench_model_keeps_qt_s_rules_on_a_translation_in_progress(qtbot, qtlog, qtmodeltester,
                                                                             pytestconfig, win):
    from engine.corpus.translate.progress import corpus_progress

    page = win.translate_from(load_corpus("en-kiritchenko2018").path, "fr")
    wait_idle(qtbot, page)
    watch = Watch(qtmodeltester, pytestconfig)
    _attach_page_models(watch, page)
    templates = page.entry_tabs["templates"]
    assert templates.source_visible()  # the Source column: the English each item comes from
    # translated, then the reviewer's queue shows exactly that one
    from PySide6.QtCore import Qt

    from gui.workbench.page_state import TO_REVIEW

    index = templates.model.index(0, templates.model.target_column())
    assert templates.model.setData(index, "{person} se sent {emotion kind=state gender=person.gender}.", Qt.EditRole)
    page.status_filter.setCurrentIndex(page.status_filter.findData(TO_REVIEW))
    assert templates.proxy.rowCount() == 1 and page.state.visible_ids("templates") == ["T01"]
    page.status_filter.setCurrentIndex(0)
    page.go_untranslated(1)
    wait_idle(qtbot, page)
    assert corpus_progress(page.doc.corpus).translated == 1
    _no_qt_tester_failures(qtlog)
