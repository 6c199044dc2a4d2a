"""A check box whose text wraps onto further lines instead of widening the window.

Why: a QCheckBox lays its text out on one line, so its minimum width is the whole sentence. The
Audit page's "Allow pickled weights (runs code from the model file: only for files you trust)" made
the window at least 1,732 px wide in French and 1,590 px in Spanish, wider than a 1,366 px laptop
screen. Here the box has no text of its own; a word-wrapped label beside it holds the text, and a
click on the label toggles the box, as a click on a check box's own text does. The box keeps the
text as its accessible name, for screen readers.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSizePolicy, QWidget


class _ToggleLabel(QLabel):
    def __init__(self, box: QCheckBox) -> None:
        super().__init__()
        self.box = box
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Preferred)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.LeftButton and self.box.isEnabled() and self.rect().contains(event.position().toPoint()):
            self.box.toggle()
            self.box.setFocus(Qt.MouseFocusReason)
        super().mouseReleaseEvent(event)


class WrappedCheckBox(QWidget):
    """A QCheckBox's own API for what the pages use: ``setText``/``text``, ``setChecked``/
    ``isChecked``, ``toggled``, ``setToolTip``; ``box`` is the check box itself (keyboard focus,
    Space toggles it)."""

    toggled = Signal(bool)

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = QCheckBox()
        self.label = _ToggleLabel(self.box)
        self.box.toggled.connect(self.toggled)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.box, 0, Qt.AlignTop)
        lay.addWidget(self.label, 1)
        self.setFocusProxy(self.box)
        self.setText(text)

    def setText(self, text: str) -> None:
        self.label.setText(text)
        self.box.setAccessibleName(text)

    def text(self) -> str:
        return self.label.text()

    def setChecked(self, on: bool) -> None:
        self.box.setChecked(on)

    def isChecked(self) -> bool:
        return self.box.isChecked()

    def setToolTip(self, tip: str) -> None:
        super().setToolTip(tip)
        self.box.setToolTip(tip)
        self.label.setToolTip(tip)
