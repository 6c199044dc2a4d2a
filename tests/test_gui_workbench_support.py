"""Shared helpers for the workbench GUI tests (pytest-qt, offscreen). No tests in this file.

Why helpers: every test drives the real main window, waits for the background checker with
``qtbot.waitUntil(page.idle)`` (never a sleep), and reads what the user would read: table
cells, the checks list, the status bar.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"


def builtin_file(corpus_id: str) -> Path:
    return next(TEMPLATES.glob(f"*/{corpus_id}.toml"))


def copy_corpus(corpus_id: str, folder: Path, name: str | None = None) -> Path:
    """A writable copy of a built-in definition (tests never write into templates/)."""
    target = folder / (name or f"{corpus_id}.toml")
    shutil.copyfile(builtin_file(corpus_id), target)
    return target


def make_window(qtbot):
    from gui.app import MainWindow, make_app

    make_app()
    win = MainWindow()
    win.auto_answer = QMessageBox.Discard  # closing at teardown must never wait on a dialog
    qtbot.addWidget(win)
    win.resize(1400, 860)
    win.show()
    return win


def wait_idle(qtbot, page, timeout: int = 60000) -> None:
    """Wait until the debounced check (and preview generation, if shown) has finished."""
    qtbot.waitUntil(lambda: page.idle, timeout=timeout)


def _open_line_edit(view) -> QLineEdit | None:
    for editor in view.viewport().findChildren(QLineEdit):
        if editor.isVisible():
            return editor
    return None


def open_editor(qtbot, table, row: int, column: int) -> QLineEdit:
    """Open a form editor cell the way a double-click does and return its line edit."""
    item = table.item(row, column)
    table.setCurrentItem(item)
    table.editItem(item)
    qtbot.waitUntil(lambda: _open_line_edit(table) is not None)
    return _open_line_edit(table)


def open_view_editor(qtbot, view, index) -> QLineEdit:
    """Open the editor of one cell of an entry table (a QTableView over a proxy)."""
    view.setCurrentIndex(index)
    view.edit(index)
    qtbot.waitUntil(lambda: _open_line_edit(view) is not None)
    return _open_line_edit(view)


def type_text(editor, text: str) -> None:
    """Type ``text`` one key event per character, as a keyboard layout delivers it.

    (QTest.keyClicks only knows ASCII keys and aborts on Arabic letters; a key event that
    carries its text is what an Arabic or German keyboard sends.)
    """
    for ch in text:
        for kind in (QEvent.KeyPress, QEvent.KeyRelease):
            QApplication.sendEvent(editor, QKeyEvent(kind, Qt.Key_unknown, Qt.NoModifier, ch))


def type_replace(qtbot, editor: QLineEdit, text: str) -> None:
    """Select everything in the editor and type ``text`` key by key (empty: delete it)."""
    qtbot.keyClick(editor, Qt.Key_A, Qt.ControlModifier)
    if text:
        type_text(editor, text)
    else:
        qtbot.keyClick(editor, Qt.Key_Backspace)


def close_editor(qtbot, view, editor: QLineEdit) -> None:
    """Press Enter: the editor commits and closes, as when the translator finishes a cell."""
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.waitUntil(lambda: _open_line_edit(view) is None)


def finding_rows(page) -> list[tuple[str, str, str, str]]:
    """The checks list as the user reads it: (severity, code, item, problem)."""
    tree = page.checks.tree
    return [tuple(tree.topLevelItem(i).text(c) for c in range(4)) for i in range(tree.topLevelItemCount())]


def codes_for(page, item_text: str) -> set[str]:
    return {code for _sev, code, item, _msg in finding_rows(page) if item_text in item}


def click_finding(qtbot, page, code: str, item_text: str) -> None:
    tree = page.checks.tree
    for i in range(tree.topLevelItemCount()):
        it = tree.topLevelItem(i)
        if it.text(1) == code and item_text in it.text(2):
            rect = tree.visualItemRect(it)
            qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=rect.center())
            return
    raise AssertionError(f"no finding {code} for {item_text}: {finding_rows(page)}")
