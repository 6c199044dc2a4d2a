"""Issue 39's workbench defects, each driven as the user meets it: the keyboard flow of multi-form
items, the fixes for speaker templates, Recent files, Enter in *Keep only*, the source after
reopening, language names in their own language, a reviewed item edited, partly filled items."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QLineEdit  # noqa: E402

from engine.corpus import load_corpus  # noqa: E402
from engine.corpus.translate.new_language import Subset, translate_from  # noqa: E402
from test_gui_translator_flow import press  # noqa: E402
from test_gui_workbench_support import make_window, type_text, wait_idle  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SUBSET = Subset(templates=["T01", "T04"], persons=["np_my_mother", "np_my_father"], emotion_words=["angry", "happy"])
T01 = "{person} si sente {emotion kind=state gender=person.gender}."


def _italian(win, tmp_path=None):
    src = load_corpus("en-kiritchenko2018")
    page = win.translate_from(src.path, "it", "it-kb", subset=SUBSET)
    page.doc.set(("templates", 0, "variants"), [type(page.doc.corpus.templates[0].variants[0])(T01)], "T01")
    return page


def _focus_line_edit() -> QLineEdit:
    focus = QApplication.focusWidget()
    assert isinstance(focus, QLineEdit), focus
    return focus


def test_next_item_keys_open_the_form_editor_and_tab_enter_move_through_forms(qtbot):
    """Defect 1: Ctrl+Shift+Down landed in the table's Forms cell; the second form needed the mouse."""
    win = make_window(qtbot)
    page = _italian(win)
    page.jump_to("templates", "T01")
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    press(qtbot, win, Qt.Key_Down, Qt.ControlModifier | Qt.ShiftModifier)  # next to translate: T04, one text
    fe = page.form_editor
    assert fe.entry.id == "T04" and page.entry_tabs["templates"].view.isAncestorOf(_focus_line_edit())
    for expected in ("np_my_mother", "np_my_father", "angry"):  # Ctrl+Enter: on to the next one to translate
        press(qtbot, win, Qt.Key_Return, Qt.ControlModifier)
        assert fe.entry.id == expected
    assert fe.entry.id == "angry"
    editor = _focus_line_edit()
    assert fe.table.isAncestorOf(editor)  # in the form editor, not in the table's Forms cell
    assert fe.table.currentRow() == 0 and fe.table.verticalHeaderItem(0).text() == "gender=f"
    type_text(editor, "arrabbiata")
    qtbot.keyClick(editor, Qt.Key_Tab)  # Tab: the next form's text, never the feature column
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit) and QApplication.focusWidget() is not editor)
    editor = _focus_line_edit()
    assert fe.table.isAncestorOf(editor) and fe.table.currentRow() == 1 and fe.table.currentColumn() == 0
    type_text(editor, "arrabbiato")
    qtbot.keyClick(editor, Qt.Key_Return)
    angry = page.doc.corpus.emotion_words[0]
    assert [(f.text, f.features) for f in angry.forms] == [("arrabbiata", {"gender": "f"}), ("arrabbiato", {"gender": "m"})]
    assert angry.review.status == "translated"
    press(qtbot, win, Qt.Key_Return, Qt.ControlModifier)  # Ctrl+Enter: the next item still to translate
    assert fe.entry.id == "happy"
    assert fe.table.isAncestorOf(_focus_line_edit())


def test_partly_filled_item_is_not_translated(qtbot):
    """Defect 12: angry with only its feminine form counted as translated while its status was new."""
    from engine.corpus.translate.progress import corpus_progress

    win = make_window(qtbot)
    page = _italian(win)
    before = corpus_progress(page.doc.corpus).translated
    page.jump_to("emotion_words", "angry")
    page.form_editor.set_form_text(0, "arrabbiata")
    angry = page.doc.corpus.emotion_words[0]
    assert angry.review.status == "new"
    assert corpus_progress(page.doc.corpus).translated == before
    assert "Emotion words 0/2" in page.tabs.tabText(2)
    page.form_editor.set_form_text(1, "arrabbiato")
    angry = page.doc.corpus.emotion_words[0]  # every edit puts a new entry in the document
    assert angry.review.status == "translated" and corpus_progress(page.doc.corpus).translated == before + 1


def test_an_edited_reviewed_item_goes_back_to_translated(qtbot):
    """Defect 9: editing a reviewed item kept *reviewed* and the reviewer's initials."""
    from gui import settings

    win = make_window(qtbot)
    page = _italian(win)
    page.jump_to("persons", "np_my_mother")
    page.form_editor.set_form_text(0, "mia madre")
    assert page.mark_reviewed("RV") == 1
    mother = next(p for p in page.doc.corpus.persons if p.id == "np_my_mother")
    assert (mother.review.status, mother.review.translator) == ("reviewed", "RV")
    settings.put("translator_id", "TR")
    page.form_editor.set_form_text(0, "mia mamma")
    mother = next(p for p in page.doc.corpus.persons if p.id == "np_my_mother")
    assert (mother.review.status, mother.review.translator) == ("translated", "TR")


def test_speaker_template_fixes(qtbot):
    """Defect 2: E002's Fix added gender=person.gender to T04 (the speaker feels), raising E016 at once;
    E016 had no Fix even with the speaker's gender declared."""
    from engine.corpus import check_corpus
    from engine.corpus.check.fixes import fix_for

    src = load_corpus("en-kiritchenko2018")
    c = translate_from(src, "it", "it-fix", subset=SUBSET)
    c.templates[0].variants[0].text = T01
    c.templates[1].variants[0].text = "{person} mi ha fatto sentire {emotion kind=state}."
    from engine.corpus import Form

    c.emotion_words[0].forms = [Form("arrabbiata", {"gender": "f"}), Form("arrabbiato", {"gender": "m"})]
    c.emotion_words[1].forms = [Form("felice")]
    c.persons[0].forms, c.persons[1].forms = [Form("mia madre")], [Form("mio padre")]
    e002 = next(f for f in check_corpus(c).errors if f.code == "E002" and f.template == "T04")
    assert fix_for(c, e002) is None  # the speaker's gender is not declared: a decision, not a guess
    assert "declare the speaker's grammatical gender" in e002.message and "person.gender" not in e002.message
    c.speaker_gender = "m"
    e002 = next(f for f in check_corpus(c).errors if f.code == "E002" and f.template == "T04")
    assert e002.wanted == {"gender": "m"} and "add gender=m to the slot" in e002.message
    fix = fix_for(c, e002)
    assert fix.args["ref"] == "m" and fix.edits[0][1][0].text == "{person} mi ha fatto sentire {emotion kind=state gender=m}."
    c.templates[1].variants = fix.edits[0][1]
    assert not check_corpus(c).errors
    # typed agreeing with the person: E016, and now its Fix
    c.templates[1].variants[0].text = "{person} mi ha fatto sentire {emotion kind=state gender=person.gender}."
    e016 = next(f for f in check_corpus(c).errors if f.code == "E016")
    fix = fix_for(c, e016)
    assert fix.kind == "speaker" and fix.edits[0][1][0].text.endswith("{emotion kind=state gender=m}.")
    c.speaker_gender = ""
    assert fix_for(c, e016) is None  # not declared: no fix


def test_recent_file_double_click_opens_it_once(qtbot, tmp_path):
    """Defect 3: itemActivated and itemDoubleClicked both opened it; the second read a deleted item."""
    from gui import settings
    from test_gui_workbench_support import copy_corpus

    path = copy_corpus("es-camara2022", tmp_path, "mine.toml")
    settings.add_recent(path)
    win = make_window(qtbot)
    win.corpora.refresh_recent()
    opened = []
    win.corpora.open_path_requested.connect(opened.append)
    lst = win.corpora.recent
    item = lst.item(0)
    rect = lst.visualItemRect(item)
    qtbot.mouseClick(lst.viewport(), Qt.LeftButton, pos=rect.center())  # a double-click as a mouse sends it
    qtbot.mouseDClick(lst.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: win.doc is not None)
    qtbot.wait(50)
    assert opened == [str(path)] and win.doc.path == path


def test_enter_in_keep_only_does_not_press_ok(qtbot):
    """Defect 4: a typo ("T3") was dropped without a word and the corpus got 2 templates, not 3."""
    from gui.dialogs import TranslateDialog

    win = make_window(qtbot)
    tr = TranslateDialog("en-kiritchenko2018", win, source=load_corpus("en-kiritchenko2018"))
    tr.show()
    tr.language.setEditText("Catalan")  # no built-in corpus of that id (it-kiritchenko2018 exists now)
    tr.keep_only.setFocus()
    type_text(tr.keep_only, "T01, T3, T04")
    qtbot.keyClick(tr.keep_only, Qt.Key_Return)
    assert tr.isVisible() and tr.result() == 0
    assert "T3" in tr.problem.text() and not tr.buttons.button(tr.buttons.StandardButton.Ok).isEnabled()
    tr.keep_only.selectAll()
    type_text(tr.keep_only, "T01, T03, T04")
    qtbot.keyClick(tr.keep_only, Qt.Key_Return)
    assert tr.isVisible() and tr.buttons.button(tr.buttons.StandardButton.Ok).isEnabled()
    assert tr.values()["subset"].templates == ["T01", "T03", "T04"]
    tr.close()


def test_reopened_translation_keeps_its_source_and_exports_english_msgids(qtbot, tmp_path):
    """Defect 5: after save and reopen the header lost "translated from …" and the PO had Italian msgids."""
    win = make_window(qtbot)
    page = _italian(win)
    page.jump_to("emotion_words", "angry")
    page.form_editor.set_form_text(0, "arrabbiata")
    target = tmp_path / "it-kb.toml"
    assert win.save_as(target)
    page = win.open_path(target)
    assert "translated from en-kiritchenko2018" in page.heading.text()
    assert page.doc.source_entry("emotion_words", "angry").forms[0].text == "angry"
    assert win.export_to("po", tmp_path / "it.po") and win.export_to("xliff", tmp_path / "it.xlf")
    po = (tmp_path / "it.po").read_text(encoding="utf-8")
    assert '"X-Source-Language: en\\n"' in po and 'msgid "angry"\nmsgstr "arrabbiata"' in po
    assert 'msgid "arrabbiata"' not in po
    xlf = (tmp_path / "it.xlf").read_text(encoding="utf-8")
    assert 'srcLang="en"' in xlf and "<source>angry</source>" in xlf


def test_language_names_in_their_own_language(qtbot):
    """Defect 7: "italiano" was refused while the header shows "Italiano (it)"."""
    from babel import Locale

    from engine.common.languages import COMMON_ENDONYMS, language_tag
    from gui.workbench.language_picker import LanguagePicker

    make_window(qtbot)
    picker = LanguagePicker()
    for name, tag in (("italiano", "it"), ("español", "es"), ("Deutsch", "de"), ("日本語", "ja"), ("العربية", "ar"),
                      ("Italiano", "it"), ("português", "pt"), ("français", "fr")):
        picker.setEditText(name)
        assert picker.tag() == tag, name
        assert language_tag(name) == tag
    for code, name in COMMON_ENDONYMS.items():  # the table is CLDR's, as babel reads it
        assert Locale.parse(code).get_display_name(code) == name, code


def test_tables_open_on_their_id_and_source_columns_at_1280_by_800(qtbot):
    """Defect 8: the translation tables opened scrolled with ID and Source off-screen (4 clicks to find
    them); after Ctrl+Enter the Source column showed only its tail; the Suggestions' From was cut."""
    from PySide6.QtWidgets import QHeaderView

    win = make_window(qtbot)
    win.resize(1280, 800)
    page = win.translate_from(load_corpus("en-kiritchenko2018").path, "it", "it-layout")
    qtbot.wait(50)

    def ids_in_view():
        for name, tab in page.entry_tabs.items():
            v, m = tab.view, tab.model
            assert v.horizontalScrollBar().value() == 0, name
            assert v.columnViewportPosition(m.column_index("id")) == 0, name
            assert v.columnViewportPosition(m.column_index("source")) >= 0, name
    for name in ("templates", "persons", "emotion_words", "words"):
        page.tabs.setCurrentWidget(page.entry_tabs[name])
        qtbot.wait(10)
    ids_in_view()
    page.tabs.setCurrentWidget(page.entry_tabs["templates"])
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    for _ in range(3):
        press(qtbot, win, Qt.Key_Return, Qt.ControlModifier)
    ids_in_view()
    assert page.form_editor.table.horizontalScrollBar().value() == 0
    header = page.suggestions.tree.header()
    assert header.sectionResizeMode(2) == QHeaderView.ResizeToContents


def test_gui_export_names_the_units_without_a_source_text(qtbot, tmp_path):
    """Item 4: a unit without a source-language text is left out and named, never written with its
    Italian text under the English header (a person the translator added, with no English side)."""
    from engine.corpus import Form, PersonTerm

    win = make_window(qtbot)
    page = _italian(win)
    page.doc.insert("persons", len(page.doc.corpus.persons),
                    PersonTerm("giulia", "name", {"gender": "female"}, [Form("Giulia")]), "add Giulia")
    assert win.export_to("po", tmp_path / "it.po")
    po = (tmp_path / "it.po").read_text(encoding="utf-8")
    assert "Giulia" not in po
    assert "1 unit has no en source text and is left out: persons[giulia]" in win.statusBar().currentMessage()


class _FakeMarks:
    """A dictionary that knows every word but "terorizzata" (the machine may have no Hunspell)."""

    def spans(self, text):
        from engine.corpus.check.spelling import Misspelling

        i = text.find("terorizzata")
        return [Misspelling(i, i + len("terorizzata"), "terorizzata")] if i >= 0 else []

    def suggestions(self, word):
        return ["terrorizzata", "teorizzata"]

    def add_words(self, words):
        pass


def test_a_spelling_suggestion_in_the_table_reaches_a_several_form_entry(qtbot, monkeypatch):
    """Defect 11: the table cell's spelling menu had no suggestions for an entry with several forms
    (the form editor's had)."""
    from PySide6.QtCore import QPoint

    import gui.workbench.entry_tab as entry_tab

    win = make_window(qtbot)
    page = _italian(win)
    page.jump_to("emotion_words", "angry")
    page.form_editor.set_form_text(0, "terorizzata")
    page.form_editor.set_form_text(1, "terrorizzato")
    monkeypatch.setattr(entry_tab, "marks_for", lambda _doc: _FakeMarks())
    tab = page.entry_tabs["emotion_words"]
    view, model = tab.view, tab.model
    index = tab.proxy.mapFromSource(model.index(0, model.column_index("forms")))
    assert not index.flags() & Qt.ItemIsEditable  # two forms: edited in the form editor
    rect = view.visualRect(index)
    menu = next(m for x in range(rect.left(), rect.right(), 3)
                if (m := view.spelling_menu(QPoint(x, rect.center().y()))) is not None)
    first = next(a for a in menu.actions() if a.text() == "terrorizzata")
    assert first.isEnabled()
    first.trigger()
    angry = page.doc.corpus.emotion_words[0]
    assert [(f.text, f.features) for f in angry.forms] == [("terrorizzata", {"gender": "f"}), ("terrorizzato", {"gender": "m"})]
    assert page.doc.undo_stack.undoText().startswith("Edit form of angry")


def test_checks_filter_keeps_its_whole_text_after_a_language_switch(qtbot):
    """Defect 8: French "Erreurs et avertisser" was clipped (the box kept its English width)."""
    from gui import i18n

    win = make_window(qtbot)
    win.resize(1280, 800)
    page = _italian(win)
    page.side.setCurrentWidget(page.checks)
    qtbot.wait(20)
    try:
        i18n.set_language("fr")
        box = page.checks.severity
        qtbot.waitUntil(lambda: box.currentText().startswith("Erreurs"))
        qtbot.wait(50)
        text = box.currentText()
        assert text.startswith("Erreurs et avertissements")
        assert box.sizeHint().width() >= box.fontMetrics().horizontalAdvance(text) + 20
        assert box.width() >= box.fontMetrics().horizontalAdvance(text) + 20
    finally:
        i18n.set_language("en")


def test_a_reviewed_text_typed_back_to_itself_stays_reviewed(qtbot):
    """A review is of a text: edited, the item is translated again; typed back to the reviewed text
    in the same editing session, the review stands and nothing is left to undo."""
    from test_gui_workbench_support import close_editor, open_editor, type_replace

    win = make_window(qtbot)
    page = _italian(win)
    page.jump_to("persons", "np_my_mother")
    page.form_editor.set_form_text(0, "mia madre")
    page.mark_reviewed("RV")
    steps = page.doc.undo_stack.count()
    editor = open_editor(qtbot, page.form_editor.table, 0, 0)
    type_replace(qtbot, editor, "mia mamma")
    mother = next(p for p in page.doc.corpus.persons if p.id == "np_my_mother")
    assert mother.review.status == "translated"
    type_replace(qtbot, editor, "mia madre")
    close_editor(qtbot, page.form_editor.table, editor)
    mother = next(p for p in page.doc.corpus.persons if p.id == "np_my_mother")
    assert (mother.review.status, mother.review.translator) == ("reviewed", "RV")
    assert page.doc.undo_stack.count() == steps
