"""The Qt binding must not leak references to None (PySide6 6.12.0 does; see pyproject.toml).

Why a test: on Python 3.11 None is not immortal, so a binding that drops one reference per call of a
void base method (every ``super().paintEvent``, every delegate ``initStyleOption``) aborts the app
after a few thousand repaints — a crash that loses the translator's unsaved edits.
"""
import sys

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QLineEdit, QStyledItemDelegate, QStyleOptionViewItem


class _Line(QLineEdit):
    def paintEvent(self, event):  # noqa: N802 - Qt's name
        super().paintEvent(event)


def test_void_base_calls_keep_none_alive(qtbot):
    w = _Line()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    delegate = QStyledItemDelegate()
    model = QStandardItemModel()
    model.appendRow(QStandardItem("x"))
    option = QStyleOptionViewItem()
    before = sys.getrefcount(None)
    for _ in range(300):
        w.repaint()
        QStyledItemDelegate.initStyleOption(delegate, option, model.index(0, 0))
    # A leaking binding loses >= 300 (one per call); allow noise from the interpreter's own work.
    assert sys.getrefcount(None) - before > -100
