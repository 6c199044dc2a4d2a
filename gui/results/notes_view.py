"""The Notes tab: the run's facts and problems in the interface's language, then the engine's summary.

Why a rich-text view with a direction per paragraph: the page's own lines ("Folder: …", the notes
from the run) are sentences in the interface's language, so in Arabic they read right to left and
stand at the right edge; the summary (summary.txt) is the engine's English text tables, which stay
left to right, left-aligned, column under column. A plain-text view has one direction for the
whole text: with the interface in Arabic its Arabic lines stood at the left edge, and a line that
begins with a corpus ID ("• ar-camara2022: vader …") was laid out left to right, its clauses in the
wrong order. Both parts keep the system's fixed-pitch font, in which the summary's tables line up.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextBlockFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit


class NotesView(QTextEdit):
    """Read-only: ``show_notes(own_lines, summary)``; ``toPlainText()`` gives the lines back."""

    def __init__(self) -> None:
        super().__init__()
        self.setReadOnly(True)
        self.setAcceptRichText(False)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.FixedFont))

    def show_notes(self, own_lines: list[str], summary: str = "") -> None:
        """``own_lines`` in the interface's direction (right to left in Arabic, at the right edge),
        then, after an empty line, ``summary``'s lines left to right at the left edge."""
        interface = QGuiApplication.layoutDirection()
        lines = [(line, interface) for line in own_lines]
        if summary:
            lines += [("", interface)] + [(line, Qt.LeftToRight) for line in summary.splitlines()]
        doc = self.document()
        doc.clear()
        cursor = QTextCursor(doc)
        cursor.beginEditBlock()
        for i, (text, direction) in enumerate(lines):
            if i:
                cursor.insertBlock()
            fmt = QTextBlockFormat()
            fmt.setLayoutDirection(direction)
            # leading edge: the right one in a right-to-left paragraph; the summary always at the left
            fmt.setAlignment(Qt.AlignLeft if direction == Qt.RightToLeft else Qt.AlignLeft | Qt.AlignAbsolute)
            cursor.setBlockFormat(fmt)
            cursor.insertText(text)
        cursor.endEditBlock()
        self.moveCursor(QTextCursor.Start)
