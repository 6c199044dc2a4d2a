"""The translator workbench, driven as a translator uses it (pytest-qt, offscreen).

Open a built-in corpus or a file (menu, recent files, drag and drop), start a new language
from en-kiritchenko2018, edit forms (Spanish m/f, German cases, Arabic variants, right to
left), watch checks appear and disappear while typing, preview and coverage, review status,
undo/redo of every kind of edit, atomic save and reopen. The crash-recovery test (kill -9)
is in test_gui_workbench_recovery.py.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDragEnterEvent, QDropEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox, QStyleOptionViewItem  # noqa: E402

from engine.corpus import load_corpus, parse_definition  # noqa: E402
from engine.corpus.definition.writer import to_toml  # noqa: E402
from test_gui_workbench_support import (  # noqa: E402
    click_finding,
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
def win(qtbot):
    return make_window(qtbot)


def _status_counts(win) -> str:
    return win.counts_label.text()


def _forms(corpus, list_name: str, item_id: str) -> list[tuple[str, dict]]:
    entry = next(e for e in getattr(corpus, list_name) if e.id == item_id)
    rows = entry.variants if list_name == "templates" else entry.forms
    return [(r.text, dict(r.features)) for r in rows]


# -- opening --------------------------------------------------------------------------------------

def test_open_builtin_corpus_from_the_corpora_page(qtbot, win):
    qtbot.waitUntil(lambda: win.corpora.ready, timeout=30000)
    # the start page lists every built-in corpus with the engine's sentence count and status
    rows = {win.table.item(r, 0).text(): r for r in range(win.table.rowCount())}
    assert "en-kiritchenko2018" in rows and "ar-camara2022" in rows
    r = rows["en-kiritchenko2018"]
    assert win.table.item(r, 2).text() == "8,640"
    assert win.table.item(r, 3).text() == "OK"

    win.corpora.select_id("en-kiritchenko2018")
    qtbot.mouseClick(win.corpora.open_button, Qt.LeftButton)
    page = win.workbench
    assert page is not None and win.stack.currentWidget() is win.workbench_holder
    wait_idle(qtbot, page)
    assert page.entry_tabs["templates"].model.rowCount() == 11
    assert page.entry_tabs["persons"].model.rowCount() == 60
    assert page.entry_tabs["emotion_words"].model.rowCount() == 40
    # an original corpus has no source texts: no empty Source column taking room
    assert not page.entry_tabs["templates"].source_visible()
    # the form editor starts on the first entry, never blank
    assert page.form_editor.entry is not None and page.form_editor.entry.id == "T01"
    assert page.checks.summary.text().endswith("No problems found.")
    assert _status_counts(win) == "0 errors · 0 warnings"
    assert "en-kiritchenko2018" in win.windowTitle() and "*" not in win.windowTitle()


def test_open_file_recent_files_and_bad_file(qtbot, win, tmp_path):
    from gui import errors, settings

    path = copy_corpus("es-camara2022", tmp_path, "mi-corpus.toml")
    page = win.open_path(path)
    assert page is not None and page.doc.path == path
    wait_idle(qtbot, page)
    assert settings.recent_files()[0] == str(path.resolve())
    # the Corpora page shows it under "Recent files"; a double-click opens it again
    assert win.corpora.recent.count() == 1
    assert win.corpora.recent.item(0).data(Qt.UserRole + 30) == str(path.resolve())
    # File → Open recent lists it too
    win._fill_recent()
    actions = [a for a in win.recent_menu.actions() if a.text() == str(path.resolve())]
    assert actions
    win.open_path(builtin := copy_corpus("en-kiritchenko2018", tmp_path))
    assert win.doc.path == builtin
    actions[0].trigger()
    assert win.doc.path.resolve() == path.resolve()

    item = win.corpora.recent.item(0)
    assert Path(item.data(Qt.UserRole + 30)).name == "mi-corpus.toml"  # most recent first

    # a broken file: one readable message naming the file and line; the open document stays
    bad = tmp_path / "broken.toml"
    bad.write_text('format = 1\nid = "x"\nlanguage = "es"\n[[persons]\n', encoding="utf-8")
    before = win.doc
    assert win.open_path(bad) is None
    message = errors.last_errors[-1]
    assert "broken.toml" in message.text and "Traceback" not in message.as_text()
    assert "broken.toml:4" in message.text and message.fix  # the line, and what to do
    assert win.doc is before


def test_drag_and_drop_a_definition_file(qtbot, win, tmp_path):
    path = copy_corpus("es-camara2022", tmp_path, "dropped.toml")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(QPoint(400, 300), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(win, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(400, 300), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(win, drop)
    qtbot.waitUntil(lambda: win.doc is not None and win.doc.path == path)
    assert win.workbench.entry_tabs["emotion_words"].model.rowCount() == 40

    # something that is not a definition: refused with a message in the status bar
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    mime2 = QMimeData()
    mime2.setUrls([QUrl.fromLocalFile(str(other))])
    QApplication.sendEvent(win, QDragEnterEvent(QPoint(400, 300), Qt.CopyAction, mime2, Qt.LeftButton, Qt.NoModifier))
    QApplication.sendEvent(win, QDropEvent(QPointF(400, 300), Qt.CopyAction, mime2, Qt.LeftButton, Qt.NoModifier))
    qtbot.wait(20)
    assert win.doc.path == path
    assert "notes.txt is not a corpus definition" in win.statusBar().currentMessage()


# -- translating ----------------------------------------------------------------------------------

def test_translate_from_kiritchenko_keeps_ids_and_shows_the_source(qtbot, win):
    from gui.dialogs import TranslateDialog

    source = load_corpus("en-kiritchenko2018")
    dlg = TranslateDialog("en-kiritchenko2018", win, source=source)
    ok = dlg.buttons.button(dlg.buttons.StandardButton.Ok)
    assert not ok.isEnabled()  # no language yet
    dlg.language.setEditText("es 1")
    assert not ok.isEnabled() and "not a language name or tag" in dlg.problem.text()
    dlg.language.setEditText("Spanish (es)")  # chosen by name from the list
    assert ok.isEnabled() and dlg.corpus_id.text() == "es-kiritchenko2018"
    values = dlg.values()
    assert values["language"] == "es" and values["subset"].empty  # everything ticked: no subset
    dlg.deleteLater()

    page = win.translate_from(source.path, **values)
    wait_idle(qtbot, page)
    c = page.doc.corpus
    assert c.id == "es-kiritchenko2018" and c.language == "es" and page.doc.modified
    for name in ("templates", "persons", "emotion_words", "words"):
        assert [e.id for e in getattr(c, name)] == [e.id for e in getattr(source, name)]
    assert all(not v.text for t in c.templates for v in t.variants)
    assert all(not e.forms for e in c.persons + c.emotion_words)
    assert all(e.review.status == "new" for e in c.templates + c.persons + c.emotion_words)

    # the source text sits beside each item, in the table and in the form editor
    tab = page.entry_tabs["emotion_words"]
    assert tab.source_visible()
    row = tab.model.row_of("angry")
    assert tab.model.index(row, tab.model.column_index("source")).data() == "angry"
    assert tab.model.index(row, tab.model.column_index("forms")).data() == ""
    page.jump_to("templates", "T05")
    assert "found {self gender=person.gender}" in page.form_editor.source.text()
    assert "en-kiritchenko2018" in page.form_editor.source.text()
    # untranslated entries are progress, not errors: listed only on request
    assert codes_for(page, "emotion word angry") == set() and win.counts_label.text().startswith("0 errors")
    assert page.progress_text().startswith("0% translated")
    page.checks.show_untranslated.setChecked(True)
    assert "E012" in codes_for(page, "emotion word angry")
    assert "translated from en-kiritchenko2018" in page.heading.text()

    # an untranslated entry offers one labelled blank row per gender (Spanish declares gender f/m):
    # type the forms straight away, no "Add form" and no feature to pick
    page.jump_to("emotion_words", "angry")
    fe = page.form_editor
    assert [fe.table.verticalHeaderItem(r).text() for r in range(fe.table.rowCount())] == ["gender=f", "gender=m"]
    editor = open_editor(qtbot, fe.table, 1, 0)
    type_text(editor, "enojado")
    wait_idle(qtbot, page)
    assert _forms(c, "emotion_words", "angry") == [("enojado", {"gender": "m"})]
    assert "E012" not in codes_for(page, "emotion word angry")
    close_editor(qtbot, fe.table, editor)
    assert page.doc.undo_stack.count() == 1  # one typing session, one undo step


# -- editing forms, live checks -------------------------------------------------------------------

def test_spanish_feminine_form_check_appears_while_typing_and_disappears(qtbot, win, tmp_path):
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    wait_idle(qtbot, page)
    assert _status_counts(win) == "0 errors · 1 warning"
    page.jump_to("emotion_words", "angry")
    fe = page.form_editor
    assert fe.entry.id == "angry"
    assert [fe.table.item(r, 0).text() for r in range(fe.table.rowCount())] == ["enojado", "enojada"]
    assert fe.feature_box(0, "gender").currentData() == "m"
    assert fe.feature_box(1, "gender").currentData() == "f"

    # delete the feminine form's text: while the editor is still open the check reports it
    editor = open_editor(qtbot, fe.table, 1, 0)
    type_replace(qtbot, editor, "")
    assert not page.idle  # debounced: nothing checked on the keystroke itself
    wait_idle(qtbot, page)
    assert editor.isVisible()  # typing was not interrupted by the check
    assert "E008" in codes_for(page, "emotion word angry")
    assert _status_counts(win).startswith("1 error")
    sev = next(r for r in finding_rows(page) if r[1] == "E008")
    assert sev[0] == "error"
    # the table row carries the error mark too
    tab = page.entry_tabs["emotion_words"]
    assert tab.model.problems.get("angry") == "error"

    # type the fix: the finding disappears, still without leaving the cell; a burst of
    # keystrokes is checked once, after typing pauses (debounced)
    runs = page.analysis_runs
    type_text(editor, "enojada")
    wait_idle(qtbot, page)
    assert page.analysis_runs == runs + 1
    assert "E008" not in codes_for(page, "emotion word angry")
    assert _status_counts(win) == "0 errors · 1 warning"
    close_editor(qtbot, fe.table, editor)
    # delete-and-retype of the same text leaves nothing to undo
    assert not page.doc.modified

    # remove the feminine form: every female combination of 'angry' now fails (E001)
    fe.table.selectRow(1)
    qtbot.mouseClick(fe.remove_button, Qt.LeftButton)
    wait_idle(qtbot, page)
    assert _forms(page.doc.corpus, "emotion_words", "angry") == [("enojado", {"gender": "m"})]
    e001 = [r for r in finding_rows(page) if r[1] == "E001"]
    assert e001 and all("angry" in r[2] for r in e001)
    assert "combinations" in e001[0][3] and "enojado" in e001[0][3]
    # click-to-jump: go elsewhere, click the finding, land on the entry
    page.jump_to("persons", page.doc.corpus.persons[3].id)
    click_finding(qtbot, page, "E001", "angry")
    assert page.tabs.currentWidget() is tab
    assert tab.selected_rows() == [tab.model.row_of("angry")] and fe.entry.id == "angry"
    assert "E001" in page.checks.detail.text()

    win.undo()
    wait_idle(qtbot, page)
    assert not [r for r in finding_rows(page) if r[0] == "error"]
    assert _forms(page.doc.corpus, "emotion_words", "angry")[1] == ("enojada", {"gender": "f"})


def test_german_case_form_wrong_case_then_undo(qtbot, win, tmp_path):
    page = win.open_path(copy_corpus("de-goldfarb2023", tmp_path))
    wait_idle(qtbot, page)
    page.jump_to("persons", "np_er")
    fe = page.form_editor
    texts = {fe.table.item(r, 0).text(): fe.feature_box(r, "case").currentData() for r in range(fe.table.rowCount())}
    assert texts == {"er": "nom", "ihn": "acc", "ihm": "dat"}
    errors_before = win.workbench.checks.counts()[0]
    assert errors_before == 0

    # "ihm" marked accusative by mistake: accusative is ambiguous, dative has no form
    row = [fe.table.item(r, 0).text() for r in range(fe.table.rowCount())].index("ihm")
    box = fe.feature_box(row, "case")
    box.setCurrentIndex(box.findData("acc"))
    wait_idle(qtbot, page)
    codes = codes_for(page, "np_er")
    assert {"E001", "E002"} <= codes, finding_rows(page)
    assert win.workbench.checks.counts()[0] >= 2
    assert "Set case of np_er" in win.act_undo.text()

    win.undo()
    wait_idle(qtbot, page)
    assert not codes_for(page, "np_er")
    assert fe.feature_box(row, "case").currentData() == "dat"
    win.redo()
    wait_idle(qtbot, page)
    assert {"E001", "E002"} <= codes_for(page, "np_er")
    win.undo()

    # "das Mädchen": a female person whose forms are grammatically neuter (entry-level feature)
    page.jump_to("persons", "np_dieses_maedchen")
    assert fe.entry_row.isVisibleTo(fe) and fe.entry_boxes["gender"].currentData() == "n"
    fe.entry_boxes["gender"].setCurrentIndex(0)  # "(from the group)": feminine, like "die Frau"
    wait_idle(qtbot, page)
    girl = next(p for p in page.doc.corpus.persons if p.id == "np_dieses_maedchen")
    assert girl.features == {}
    win.undo()
    assert girl.features == {"gender": "n"}
    qtbot.waitUntil(lambda: fe.entry_boxes.get("gender") is not None and fe.entry_boxes["gender"].currentData() == "n")


def test_arabic_variants_right_to_left(qtbot, win, tmp_path):
    page = win.open_path(copy_corpus("ar-camara2022", tmp_path))
    wait_idle(qtbot, page)
    assert page.doc.rtl
    page.jump_to("templates", "T05")
    fe = page.form_editor
    assert fe.select_row.isVisibleTo(fe) and fe.select_edit.text() == "gender=person.gender"
    assert fe.table.rowCount() == 2
    assert [fe.feature_box(r, "gender").currentData() for r in range(2)] == ["m", "f"]
    assert "وجدت نفسها" in fe.table.item(1, 0).text()

    # the text cells and their editors are laid out right to left
    option = QStyleOptionViewItem()
    fe.table.itemDelegate().initStyleOption(option, fe.table.model().index(0, 0))
    assert option.direction == Qt.RightToLeft
    tab = page.entry_tabs["persons"]
    option = QStyleOptionViewItem()
    tab.view.itemDelegate().initStyleOption(option, tab.proxy.index(0, tab.model.column_index("forms")))
    assert option.direction == Qt.RightToLeft
    option = QStyleOptionViewItem()
    tab.view.itemDelegate().initStyleOption(option, tab.proxy.index(0, tab.model.column_index("id")))
    assert option.direction != Qt.RightToLeft  # ids stay left to right

    editor = open_editor(qtbot, fe.table, 1, 0)
    assert editor.layoutDirection() == Qt.RightToLeft
    # Arabic typed into the feminine variant lands in the definition as typed
    type_replace(qtbot, editor, "{person role=subject} وجدت نفسها في موقف {emotion kind=situation gender=m}.")
    close_editor(qtbot, fe.table, editor)
    wait_idle(qtbot, page)
    assert page.doc.corpus.templates[4].variants[1].text == "{person role=subject} وجدت نفسها في موقف {emotion kind=situation gender=m}."

    # both variants marked masculine: female persons find no variant (E009)
    box = fe.feature_box(1, "gender")
    box.setCurrentIndex(box.findData("m"))
    wait_idle(qtbot, page)
    assert "E009" in {r[1] for r in finding_rows(page)} or "E002" in {r[1] for r in finding_rows(page)}
    win.undo()
    wait_idle(qtbot, page)
    assert not [r for r in finding_rows(page) if r[0] == "error"]

    # an Arabic person's name typed into the table cell (right-to-left editor)
    row = tab.model.row_of(page.doc.corpus.persons[0].id)
    page.jump_to("persons", page.doc.corpus.persons[0].id)
    index = tab.proxy.mapFromSource(tab.model.index(row, tab.model.column_index("forms")))
    cell = open_view_editor(qtbot, tab.view, index)
    assert cell.layoutDirection() == Qt.RightToLeft
    type_replace(qtbot, cell, "إيلين")
    close_editor(qtbot, tab.view, cell)
    assert page.doc.corpus.persons[0].forms[0].text == "إيلين"


# -- preview and coverage -------------------------------------------------------------------------

def test_preview_filters_and_counts(qtbot, win):
    from engine.corpus.pairs.tables import generate_pairs

    page = win.open_path("en-kiritchenko2018")
    page.side.setCurrentWidget(page.preview)
    wait_idle(qtbot, page)
    pv = page.preview
    pairs = len(generate_pairs(page.doc.corpus))
    assert f"produces 8,640 sentences and {pairs:,} counterfactual pairs" in pv.counts.text()
    assert pv.table.model.rowCount() == 8640

    pv.set_filter(template="T01", person="ebony", emotion="anger")
    model = pv.table.model
    assert model.rowCount() == 5  # five anger words of the emotional-state kind
    sentences = {model.index(r, 0).data() for r in range(model.rowCount())}
    assert "Ebony feels angry." in sentences
    assert "Showing 5 of them" in pv.counts.text()
    header = [model.headerData(c, Qt.Horizontal) for c in range(model.columnCount())]
    assert header[:2] == ["Sentence", "Template"]

    # neutral templates: 'no emotion' filter
    pv.set_filter(template="T08", emotion="-")
    assert model.rowCount() == 60

    # the preview follows edits: after the debounce the new form is in the sentences
    page.jump_to("emotion_words", "angry")
    fe = page.form_editor
    editor = open_editor(qtbot, fe.table, 0, 0)
    type_replace(qtbot, editor, "cross")
    close_editor(qtbot, fe.table, editor)
    pv.set_filter(template="T01", person="ebony", emotion="anger")
    wait_idle(qtbot, page)
    sentences = {model.index(r, 0).data() for r in range(model.rowCount())}
    assert "Ebony feels cross." in sentences and "Ebony feels angry." not in sentences


def test_coverage_matrix_shows_missing_combinations(qtbot, win, tmp_path):
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    page.side.setCurrentWidget(page.coverage)
    wait_idle(qtbot, page)
    cov = page.coverage
    # heartbreaking is marked untranslatable: skipped on purpose, not "missing"
    assert "No combination is missing by mistake" in cov.summary.text()
    assert "180 combinations are skipped on purpose" in cov.summary.text()

    page.jump_to("emotion_words", "angry")
    page.form_editor.table.selectRow(1)
    page.form_editor.remove_form()  # no feminine 'angry' any more
    wait_idle(qtbot, page)
    table = cov.table
    rows = [table.verticalHeaderItem(r).text() for r in range(table.rowCount())]
    cols = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    r = rows.index("T01 · anger")
    female = [c for c, label in enumerate(cols) if label.startswith("female")]
    male = [c for c, label in enumerate(cols) if label.startswith("male")]
    assert female and male
    for c in female:
        text = table.item(r, c).text()
        produced, expected = map(int, text.split("/"))
        assert produced < expected, (cols[c], text)
        assert "angry" in table.item(r, c).toolTip()
    for c in male:
        produced, expected = map(int, table.item(r, c).text().split("/"))
        assert produced == expected
    assert "combinations are missing" in cov.summary.text()

    # a click on the row shows its sentences in the preview
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=table.visualItemRect(table.item(r, female[0])).center())
    assert page.side.currentWidget() is page.preview
    assert page.preview.template.currentData() == "T01" and page.preview.emotion.currentData() == "anger"


# -- review workflow ------------------------------------------------------------------------------

def test_review_status_translator_note_and_filter(qtbot, win, tmp_path):
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    wait_idle(qtbot, page)
    page.tabs.setCurrentWidget(page.entry_tabs["persons"])
    tab = page.entry_tabs["persons"]
    model = tab.model
    status_col, note_col = model.column_index("status"), model.column_index("note")
    before = page.review_counts()

    # select three persons, mark them reviewed: one undo step, translator recorded
    ids = [p.id for p in page.doc.corpus.persons[:3]]
    sel = tab.view.selectionModel()
    for pid in ids:
        index = tab.proxy.mapFromSource(model.index(model.row_of(pid), 0))
        sel.select(index, sel.SelectionFlag.Select | sel.SelectionFlag.Rows)
    assert page.mark_reviewed(translator="MB") == 3
    for pid in ids:
        p = next(x for x in page.doc.corpus.persons if x.id == pid)
        assert p.review.status == "reviewed" and p.review.translator == "MB"
    assert page.doc.undo_stack.count() == 1

    # a status chosen in the table's combo box, and a note typed in the cell
    row = model.row_of(page.doc.corpus.persons[5].id)
    model.setData(model.index(row, status_col), "machine-translated")
    index = tab.proxy.mapFromSource(model.index(row, note_col))
    editor = open_view_editor(qtbot, tab.view, index)
    type_text(editor, "check the accent")
    close_editor(qtbot, tab.view, editor)
    p5 = page.doc.corpus.persons[5]
    assert p5.review.status == "machine-translated" and p5.review.note == "check the accent"
    assert model.index(row, status_col).data() == "machine-translated"

    # filter by status: only the machine-translated one remains visible
    page.status_filter.setCurrentIndex(page.status_filter.findData("machine-translated"))
    assert tab.proxy.rowCount() == 1
    assert tab.proxy.index(0, 0).data() == p5.id
    # ...across all tabs at once
    assert page.entry_tabs["templates"].proxy.rowCount() == sum(
        1 for t in page.doc.corpus.templates if t.review.status == "machine-translated")
    page.status_filter.setCurrentIndex(page.status_filter.findData("reviewed"))
    assert tab.proxy.rowCount() == sum(1 for p in page.doc.corpus.persons if p.review.status == "reviewed")
    page.status_filter.setCurrentIndex(0)
    assert tab.proxy.rowCount() == len(page.doc.corpus.persons)

    after = page.review_counts()
    assert after["machine-translated"] == before["machine-translated"] + 1
    assert f"{after['reviewed']} of {sum(after.values())} reviewed" in page.progress.text()

    # ids are keys shared across languages: a duplicate or empty id is refused, with the reason
    id_col = model.column_index("id")
    steps = page.doc.undo_stack.count()
    assert not model.setData(model.index(0, id_col), page.doc.corpus.persons[1].id)
    assert "already used" in win.statusBar().currentMessage()
    assert not model.setData(model.index(0, id_col), "  ")
    assert "cannot be empty" in win.statusBar().currentMessage()
    assert page.doc.undo_stack.count() == steps

    # undo the three edits one by one
    for _ in range(3):
        win.undo()
    assert page.review_counts() == before
    assert not page.doc.modified


def test_renaming_an_id_updates_its_references_in_one_undo_step(qtbot, win, tmp_path):
    page = win.open_path(copy_corpus("en-kiritchenko2018", tmp_path))
    wait_idle(qtbot, page)
    tab = page.entry_tabs["persons"]
    row = tab.model.row_of("np_he")
    index = tab.proxy.mapFromSource(tab.model.index(row, tab.model.column_index("id")))
    steps = page.doc.undo_stack.count()
    page.tabs.setCurrentWidget(tab)
    tab.view.scrollTo(index)
    cell = open_view_editor(qtbot, tab.view, index)
    type_replace(qtbot, cell, "np_him")
    close_editor(qtbot, tab.view, cell)
    persons = {p.id: p for p in page.doc.corpus.persons}
    assert "np_him" in persons and "np_he" not in persons
    assert persons["np_she"].pair == "np_him"  # her partner follows the rename
    assert "updated 1 reference" in win.statusBar().currentMessage()
    wait_idle(qtbot, page)
    assert not [r for r in finding_rows(page) if r[0].lower().startswith("e")]  # nothing dangles
    assert page.doc.undo_stack.count() == steps + 1  # one step: the id and its references
    win.undo()
    persons = {p.id: p for p in page.doc.corpus.persons}
    assert "np_he" in persons and persons["np_she"].pair == "np_he"


# -- undo/redo, save, reopen ----------------------------------------------------------------------

def test_every_kind_of_edit_undoes_and_redoes(qtbot, win, tmp_path):
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    wait_idle(qtbot, page)
    doc = page.doc
    original = to_toml(doc.corpus)
    steps = []

    def step(name, fn):
        n = doc.undo_stack.count()
        fn()
        assert doc.undo_stack.count() == n + 1, f"{name} did not make exactly one undo step"
        steps.append(name)

    t = page.entry_tabs["templates"]
    step("template cell", lambda: t.model.setData(t.model.index(8, t.model.column_index("text")), "Hablé con {person} en la feria"))
    page.jump_to("emotion_words", "angry")
    fe = page.form_editor

    def type_form():
        editor = open_editor(qtbot, fe.table, 1, 0)
        type_replace(qtbot, editor, "enfadada")
        close_editor(qtbot, fe.table, editor)
    step("form text", type_form)
    step("feature", lambda: fe.feature_box(0, "number").setCurrentIndex(fe.feature_box(0, "number").findData("sg")))
    step("add form", fe.add_form)
    fe.table.selectRow(2)
    step("remove form", fe.remove_form)
    e = page.entry_tabs["emotion_words"]
    step("add entry", lambda: e.add_entry({"text": "furiosa", "emotion": "anger", "kind": "state"}))
    e.select_id("annoyed")
    step("remove entry", e.remove_selected)
    p = page.entry_tabs["persons"]
    step("status", lambda: p.model.setData(p.model.index(0, p.model.column_index("status")), "translated"))
    step("group", lambda: p.model.setData(p.model.index(0, p.model.column_index("axis:race")), "Latino"))
    page.tabs.setCurrentWidget(p)
    p.select_id(doc.corpus.persons[1].id)
    step("mark reviewed", lambda: page.mark_reviewed(translator="AB"))
    settings_tab = page.settings_tab

    def rename():
        settings_tab.fields["name"].setText("Mi corpus")
        settings_tab.fields["name"].editingFinished.emit()
    step("corpus name", rename)
    step("add feature", settings_tab._add_feature)
    page.jump_to("templates", "T05")

    def select():
        fe.select_edit.setText("gender=person.gender")
        fe.select_edit.editingFinished.emit()
    step("variant selection", select)
    step("add variant", fe.add_form)
    final = to_toml(doc.corpus)
    assert final != original and doc.modified and "*" in win.windowTitle()

    assert win.act_undo.isEnabled() and win.act_undo.text().startswith("&Undo Add form to T05")
    for _ in steps:
        win.undo()
    assert to_toml(doc.corpus) == original
    assert not doc.modified and not win.act_undo.isEnabled()
    for _ in steps:
        win.redo()
    assert to_toml(doc.corpus) == final
    assert not win.act_redo.isEnabled()
    qtbot.wait(10)  # deferred editor rebuilds run without errors


def test_save_is_atomic_and_reopen_gives_what_was_saved(qtbot, win, tmp_path, monkeypatch):
    from gui import errors
    from gui.workbench.recovery import recovery_dir

    path = copy_corpus("es-camara2022", tmp_path, "mine.toml")
    page = win.open_path(path)
    wait_idle(qtbot, page)
    page.jump_to("emotion_words", "angry")
    editor = open_editor(qtbot, page.form_editor.table, 1, 0)
    type_replace(qtbot, editor, "enfadada")
    close_editor(qtbot, page.form_editor.table, editor)
    assert page.autosave() and list(recovery_dir().glob("*.toml"))

    # a failing disk: the file on disk is untouched, no temp file is left, the edit stays
    on_disk = path.read_bytes()
    real_replace = os.replace

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", failing_replace)
    assert not win.save()
    monkeypatch.setattr(os, "replace", real_replace)
    assert path.read_bytes() == on_disk
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.toml"]
    assert page.doc.modified and "space" in errors.last_errors[-1].text.lower()

    # a corpus name still being typed when Ctrl+S is pressed is saved too
    page.tabs.setCurrentWidget(page.settings_tab)
    field = page.settings_tab.fields["name"]
    win.activateWindow()
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.selectAll()
    type_text(field, "Mi corpus")
    assert win.save()
    assert load_corpus(path).name == "Mi corpus"
    assert not page.doc.modified and "*" not in win.windowTitle()
    assert not list(recovery_dir().glob("*.toml"))  # a saved document needs no recovery file
    saved = to_toml(page.doc.corpus)
    text = path.read_text("utf-8")
    assert parse_definition(text, str(path)) == parse_definition(saved, str(path))
    # the file's own notes survive the save (a TOML writer alone would drop every comment)
    notes = [l for l in on_disk.decode("utf-8").splitlines() if l.startswith("#")]
    assert len(notes) >= 3 and all(n in text.splitlines() for n in notes)

    win.open_path(path)
    reopened = win.doc.corpus
    assert to_toml(reopened) == saved
    assert _forms(reopened, "emotion_words", "angry")[1] == ("enfadada", {"gender": "f"})

    # Save As on a built-in corpus writes a copy (the built-in file never changes)
    builtin = win.open_path("es-camara2022")
    assert builtin.doc.is_builtin and builtin.doc.suggested_path().parent.name == "corpora"
    copy = tmp_path / "copy.toml"
    assert win.save_as(copy) and win.doc.path == copy and not win.doc.is_builtin


def test_unsaved_changes_are_not_lost_when_opening_another(qtbot, win, tmp_path):
    path = copy_corpus("es-camara2022", tmp_path)
    page = win.open_path(path)
    wait_idle(qtbot, page)
    page.entry_tabs["templates"].add_entry()
    win.auto_answer = QMessageBox.Cancel
    assert win.open_path("en-kiritchenko2018") is None
    assert win.doc is page.doc and page.doc.modified
    win.auto_answer = QMessageBox.Save
    assert win.open_path("en-kiritchenko2018") is not None
    assert len(load_corpus(path).templates) == 12  # saved before switching


def test_arabic_interface_keeps_english_corpus_text_left_to_right(qtbot, win, tmp_path):
    """In the Arabic UI an English template such as "{person} feels …" must not read mirrored."""
    page = win.open_path(copy_corpus("en-kiritchenko2018", tmp_path))
    wait_idle(qtbot, page)
    page.jump_to("templates", "T01")
    tab = page.entry_tabs["templates"]
    fe = page.form_editor
    for widget in (tab.view, fe.table):
        widget.setLayoutDirection(Qt.RightToLeft)  # what switching the UI to Arabic does to every widget
    option = QStyleOptionViewItem()
    option.direction = Qt.RightToLeft
    tab.view.itemDelegate().initStyleOption(option, tab.proxy.index(0, tab.model.column_index("id")))
    assert option.direction == Qt.LeftToRight
    option = QStyleOptionViewItem()
    option.direction = Qt.RightToLeft
    fe.table.itemDelegate().initStyleOption(option, fe.table.model().index(0, 0))
    assert option.direction == Qt.LeftToRight
