"""Misspelt words underlined in the workbench (the checker's W113 words), with a right-click menu:
the dictionary's suggestions replace the word, "Add “word” to the corpus word list" adds it to
``[spelling] accept`` as one undo step; the finding goes, the saved file has the word.
pytest-qt, offscreen; skipped where the es_ES Hunspell dictionary is missing."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint  # noqa: E402
from PySide6.QtGui import QTextCharFormat  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from engine.corpus import load_corpus  # noqa: E402

from test_grammar_data import _has_dictionary  # noqa: E402
from test_gui_workbench_support import (  # noqa: E402
    close_editor,
    codes_for,
    copy_corpus,
    finding_rows,
    make_window,
    open_editor,
    open_view_editor,
    type_replace,
    type_text,
    wait_idle,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def page(qtbot, tmp_path):
    if not _has_dictionary("es_ES"):
        pytest.skip("no es_ES Hunspell dictionary here (Debian: apt install hunspell-es)")
    win = make_window(qtbot)
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    wait_idle(qtbot, page)
    page.win = win
    return page


def red_pixels(widget, rect) -> int:
    """Pixels of the spell-check red inside ``rect`` of ``widget``, as drawn (on a selected row
    the line blends into the highlight: red still dominates)."""
    image = widget.grab(rect).toImage()
    return sum(1 for x in range(image.width()) for y in range(image.height())
               if (c := image.pixelColor(x, y)).red() > 120 and c.red() > c.green() + 60 and c.red() > c.blue() + 40)


def word_pos(view, index, menu_for) -> dict[str, QPoint]:
    """Where in the cell each misspelt word is: the first point whose right-click menu names it."""
    rect = view.visualRect(index)
    found: dict[str, QPoint] = {}
    for x in range(rect.left(), rect.right(), 2):
        menu = menu_for(QPoint(x, rect.center().y()))
        if menu is not None:
            word = next(a.text() for a in menu.actions() if a.text().startswith("Add “")).split("“")[1].split("”")[0]
            found.setdefault(word, QPoint(x + 3, rect.center().y()))
    return found


def w113(page) -> set[str]:
    """The words W113 names, as the list shows them: the interface quotes a word “so”."""
    return {re.match(r"[“'](.+?)[”']", msg).group(1)
            for _sev, code, _item, msg in finding_rows(page) if code == "W113"}


def test_misspelt_template_words_are_underlined_and_go_to_the_word_list(qtbot, page, tmp_path):
    from gui.workbench.markup import markup_document
    from gui.workbench.spelling import marks_for

    tab = page.entry_tabs["templates"]
    page.tabs.setCurrentWidget(tab)
    model, view = tab.model, tab.view
    row = model.row_of("T09")
    index = tab.proxy.mapFromSource(model.index(row, model.target_column()))
    view.setColumnHidden(model.column_index("source"), True)  # the translation cell in full view
    view.setColumnWidth(model.target_column(), 330)

    # typed in the cell editor: the open editor underlines as the translator types
    editor = open_view_editor(qtbot, view, index)
    type_replace(qtbot, editor, "")
    type_text(editor, "Hablé con {person} aier y con Kasachin.")
    qtbot.waitUntil(lambda: editor.property("spelling_words") == ["aier", "Kasachin"])
    close_editor(qtbot, view, editor)
    wait_idle(qtbot, page)
    assert w113(page) == {"aier", "Kasachin"} and "W113" in codes_for(page, "T09")

    # the drawn cell: the highlighter gives both words the spell-check underline, and it is red
    text = model.index(row, model.target_column()).data()
    doc = markup_document(text, False, view.font(), marks_for(page.doc).spans)
    ranges = doc.firstBlock().layout().formats()
    assert {text[f.start:f.start + f.length]: f.format.underlineStyle() for f in ranges} == {
        "aier": QTextCharFormat.SpellCheckUnderline, "Kasachin": QTextCharFormat.SpellCheckUnderline}
    view.horizontalScrollBar().setValue(0)
    assert view.viewport().rect().contains(view.visualRect(index))
    assert red_pixels(view.viewport(), view.visualRect(index)) > 10

    # right-click on "aier": suggestions from the dictionary; choosing "ayer" replaces the word
    where = word_pos(view, index, view.spelling_menu)
    assert set(where) == {"aier", "Kasachin"}
    menu = view.spelling_menu(where["aier"])
    texts = [a.text() for a in menu.actions()]
    assert "ayer" in texts and texts[-1] == "Add “aier” to the corpus word list" and len(texts) <= 6
    next(a for a in menu.actions() if a.text() == "ayer").trigger()
    assert page.doc.corpus.templates[row].variants[0].text == "Hablé con {person} ayer y con Kasachin."

    # right-click on "Kasachin": add it to the corpus word list, one undo step
    wait_idle(qtbot, page)
    where = word_pos(view, index, view.spelling_menu)
    menu = view.spelling_menu(where["Kasachin"])
    before = page.doc.undo_stack.count()
    next(a for a in menu.actions() if a.text() == "Add “Kasachin” to the corpus word list").trigger()
    assert "Kasachin" in page.doc.corpus.spelling_accept and page.doc.undo_stack.count() == before + 1
    wait_idle(qtbot, page)
    assert w113(page) == set() and "W113" not in codes_for(page, "T09")
    QApplication.processEvents()  # the repaint, before pixels are read
    assert red_pixels(view.viewport(), view.visualRect(index)) == 0
    assert view.spelling_menu(where["Kasachin"]) is None

    # undo brings the word (and its finding) back, redo takes it away again
    page.doc.undo_stack.undo()
    wait_idle(qtbot, page)
    assert "Kasachin" not in page.doc.corpus.spelling_accept and w113(page) == {"Kasachin"}
    page.doc.undo_stack.redo()
    wait_idle(qtbot, page)
    assert w113(page) == set()

    # saved: the file's word list has it, with the file's comment about the list kept
    assert page.win.save()
    saved = page.doc.path.read_text(encoding="utf-8")
    assert "# DLE words the es_ES Hunspell dictionary lacks" in saved
    assert load_corpus(page.doc.path).spelling_accept == ["indignante", "indignantes", "Kasachin"]


def test_form_editor_texts_are_underlined_with_the_same_menu(qtbot, page):
    from gui.workbench.spelling import marks_for

    page.jump_to("emotion_words", "angry")
    editor_widget = page.form_editor
    table = editor_widget.table
    editor = open_editor(qtbot, table, 0, 0)
    type_replace(qtbot, editor, "enojadoo")
    qtbot.waitUntil(lambda: editor.property("spelling_words") == ["enojadoo"])
    close_editor(qtbot, table, editor)
    wait_idle(qtbot, page)
    assert "enojadoo" in w113(page)
    index = table.model().index(0, 0)
    assert red_pixels(table.viewport(), table.visualRect(index)) > 5
    where = word_pos(table, index, editor_widget.spelling_menu)
    menu = editor_widget.spelling_menu(where["enojadoo"])
    assert "enojado" in [a.text() for a in menu.actions()]
    next(a for a in menu.actions() if a.text() == "enojado").trigger()
    assert table.item(0, 0).text() == "enojado" and marks_for(page.doc).spans("enojado") == []
    wait_idle(qtbot, page)
    assert "enojadoo" not in w113(page)


def test_the_corpus_tab_shows_the_word_list_to_read_and_prune(qtbot, page):
    settings = page.settings_tab
    assert settings.word_list.text() == "indignante, indignantes"
    before = page.doc.undo_stack.count()
    settings.word_list.setText("indignante, indignantes, Kasachin")
    assert settings._commit_word_list()
    assert page.doc.corpus.spelling_accept == ["indignante", "indignantes", "Kasachin"]
    assert page.doc.undo_stack.count() == before + 1
    # the menu's additions show up here
    from gui.workbench.spelling import marks_for

    marks_for(page.doc).add_words(["Xylomir"])
    qtbot.waitUntil(lambda: settings.word_list.text().endswith("Kasachin, Xylomir"))
    # a phrase is refused with the reason, and nothing changes
    settings.word_list.setText("indignante, dos palabras")
    assert not settings._commit_word_list()
    assert "“dos palabras” is not one word" in settings.word_problem.text()
    assert page.doc.corpus.spelling_accept == ["indignante", "indignantes", "Kasachin", "Xylomir"]
    # pruned: the word is reported again
    settings.word_list.setText("indignante")
    assert settings._commit_word_list() and settings.word_problem.text() == ""
    wait_idle(qtbot, page)
    assert "indignantes" not in page.doc.corpus.spelling_accept and "indignantes" in w113(page)
