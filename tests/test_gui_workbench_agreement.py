"""Issue 38, the Italian cases in the workbench (pytest-qt, offscreen): one form typed for a gendered
emotion word, the forms swapped, a translation-memory insert that replaces two forms with one,
and "arrabbiata / arrabbiato" typed as one form — each gives a finding (or is refused with the
way to enter two forms), the item is not counted as translated, and the one-click fix repairs it.
"""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from engine.corpus.definition.model import Form  # noqa: E402
from engine.corpus.translate.memory import MemoryUnit, TranslationMemory  # noqa: E402
from test_gui_workbench_support import (close_editor, codes_for, make_window, open_editor,  # noqa: E402
                                        open_view_editor, type_replace, type_text, wait_idle)
from test_inflection import definition, pair  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def win(qtbot):
    return make_window(qtbot)


def _open(qtbot, win, tmp_path, forms: str, status: str = ""):
    path = tmp_path / "it-t.toml"
    path.write_text(definition("it", forms + (f'\nstatus = "{status}"' if status else "")), encoding="utf-8")
    page = win.open_path(path)
    wait_idle(qtbot, page, 90000)
    return page


def _forms(page) -> list[tuple[str, dict]]:
    return [(f.text, dict(f.features)) for f in page.doc.corpus.emotion_words[0].forms]


def _apply_fix(qtbot, page, code: str) -> str:
    page.side.setCurrentWidget(page.checks)
    assert page.checks.select_code(code)
    label = page.checks.fix_button.text()
    assert page.checks.fix_button.isEnabled(), label
    qtbot.mouseClick(page.checks.fix_button, Qt.LeftButton)
    wait_idle(qtbot, page, 90000)
    return label


def _translation_cell(qtbot, page):
    page.jump_to("emotion_words", "w")
    tab = page.entry_tabs["emotion_words"]
    col = next(i for i, c in enumerate(tab.model.columns) if c.target)
    index = tab.proxy.mapFromSource(tab.model.index(tab.model.row_of("w"), col))
    return tab, open_view_editor(qtbot, tab.view, index)


def test_one_form_typed_for_a_gendered_word(qtbot, win, tmp_path):
    page = _open(qtbot, win, tmp_path, "")
    tab, editor = _translation_cell(qtbot, page)
    type_text(editor, "furioso")
    close_editor(qtbot, tab.view, editor)
    wait_idle(qtbot, page, 90000)
    entry = page.doc.corpus.emotion_words[0]
    assert _forms(page) == [("furioso", {})]
    assert entry.review.status == "new"  # not "translated": the feminine form is missing
    assert "E026" in codes_for(page, "emotion word w")
    assert not page.progress_text().startswith("100%")
    # the form editor offers the missing feminine form as an empty row of its own
    assert ("ghost", {"gender": "f"}) in page.form_editor.row_kinds
    label = _apply_fix(qtbot, page, "E026")
    assert "furiosa" in label
    assert sorted(_forms(page)) == [("furiosa", {"gender": "f"}), ("furioso", {"gender": "m"})]
    assert "E026" not in codes_for(page, "emotion word w")
    assert page.progress_text().startswith("100% translated")
    assert page.doc.corpus.emotion_words[0].review.status == "translated"  # the status follows the forms
    win.undo()  # the fix is one undo step
    assert _forms(page) == [("furioso", {})] and page.doc.corpus.emotion_words[0].review.status == "new"


def test_swapped_forms(qtbot, win, tmp_path):
    page = _open(qtbot, win, tmp_path, pair("furioso", "furiosa"))
    assert "E028" in codes_for(page, "emotion word w")
    assert win.counts_label.text().startswith("1 error")
    _apply_fix(qtbot, page, "E028")
    assert sorted(_forms(page)) == [("furiosa", {"gender": "f"}), ("furioso", {"gender": "m"})]
    assert win.counts_label.text().startswith("0 errors")


def test_a_memory_insert_that_replaces_two_forms_with_one(qtbot, win, tmp_path):
    page = _open(qtbot, win, tmp_path, pair("arrabbiata", "arrabbiato") + '\nsource = "angry"', status="translated")
    assert not codes_for(page, "emotion word w") & {"E026", "E028"}
    page.jump_to("emotion_words", "w")
    qtbot.waitUntil(lambda: page.suggestions.idle, timeout=10000)
    page.suggestions.memory = TranslationMemory([MemoryUnit("emotion_words", "angry", [Form("arrabbiato")], "other")])
    page.suggestions.refresh()
    assert page.suggestions.tree.topLevelItemCount() >= 1
    assert page.suggestions.insert(0)
    wait_idle(qtbot, page, 90000)
    assert _forms(page) == [("arrabbiato", {})]
    assert page.doc.corpus.emotion_words[0].review.status == "new"
    assert "E026" in codes_for(page, "emotion word w")
    _apply_fix(qtbot, page, "E026")
    assert sorted(_forms(page)) == [("arrabbiata", {"gender": "f"}), ("arrabbiato", {"gender": "m"})]


def test_two_forms_typed_as_one_are_refused_with_how_to_enter_them(qtbot, win, tmp_path):
    page = _open(qtbot, win, tmp_path, "")
    tab, editor = _translation_cell(qtbot, page)
    steps = page.doc.undo_stack.count()
    type_text(editor, "arrabbiata / arrabbiato")
    close_editor(qtbot, tab.view, editor)
    wait_idle(qtbot, page, 90000)
    message = win.statusBar().currentMessage()
    assert "Not stored" in message and "own row" in message and "gender=f: 'arrabbiata'" in message
    assert _forms(page) == [] and page.doc.undo_stack.count() == steps  # the typing left nothing behind


def test_a_stored_slash_form_is_a_finding_with_a_split_fix(qtbot, win, tmp_path):
    page = _open(qtbot, win, tmp_path, 'text = "arrabbiata / arrabbiato"')
    assert "E027" in codes_for(page, "emotion word w")
    _apply_fix(qtbot, page, "E027")
    assert sorted(_forms(page)) == [("arrabbiata", {"gender": "f"}), ("arrabbiato", {"gender": "m"})]
    assert "E027" not in codes_for(page, "emotion word w")


def test_two_forms_typed_into_a_form_row_are_refused(qtbot, win, tmp_path):
    page = _open(qtbot, win, tmp_path, pair("arrabbiata", "arrabbiato"))
    page.jump_to("emotion_words", "w")
    fe = page.form_editor
    editor = open_editor(qtbot, fe.table, 0, 0)
    type_replace(qtbot, editor, "arrabbiata / arrabbiato")
    close_editor(qtbot, fe.table, editor)
    wait_idle(qtbot, page, 90000)
    assert "Not stored" in win.statusBar().currentMessage()
    assert _forms(page) == [("arrabbiata", {"gender": "f"}), ("arrabbiato", {"gender": "m"})]
    qtbot.waitUntil(lambda: fe.table.item(0, 0).text() == "arrabbiata")  # the row shows what is stored
