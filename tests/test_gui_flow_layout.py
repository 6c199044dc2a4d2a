"""gui.common.flow_layout: labelled choices wrap onto the next line instead of running past the
edge of a narrow pane (the form editor's entry row at 1280 × 800, issue 39), and mirror in a
right-to-left interface."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QWidget  # noqa: E402

from gui.common.flow_layout import FlowLayout, labelled_pair  # noqa: E402


def _row(qtbot, n: int = 4) -> tuple[QWidget, list[QWidget]]:
    host = QWidget()
    qtbot.addWidget(host)
    layout = FlowLayout(host, spacing=6)
    layout.setContentsMargins(0, 0, 0, 0)
    pairs = []
    for i in range(n):
        box = QComboBox()
        box.addItem("(qualquer)")
        pairs.append(labelled_pair(QLabel(f"feature{i}:"), box))
        layout.addWidget(pairs[-1])
    return host, pairs


def test_items_wrap_at_the_width_and_never_leave_it(qtbot):
    host, pairs = _row(qtbot)
    one_line = host.layout().sizeHint().width()
    host.resize(one_line, 200)
    host.show()
    QApplication.processEvents()
    assert len({p.y() for p in pairs}) == 1  # room for all: one line
    narrow = one_line // 2
    host.resize(narrow, 200)
    QApplication.processEvents()
    assert len({p.y() for p in pairs}) >= 2  # wrapped
    assert all(0 <= p.x() and p.x() + p.width() <= narrow for p in pairs)  # nothing past the edge
    assert host.layout().heightForWidth(narrow) > host.layout().heightForWidth(one_line)
    # a label stays with its combo box: each pair is one item
    assert all(p.findChild(QLabel).geometry().right() < p.findChild(QComboBox).geometry().left() for p in pairs)


def test_a_right_to_left_row_starts_at_the_right(qtbot):
    host, pairs = _row(qtbot, 2)
    host.setLayoutDirection(Qt.RightToLeft)
    host.resize(host.layout().sizeHint().width() + 100, 100)
    host.show()
    QApplication.processEvents()
    assert pairs[0].x() > pairs[1].x()
    assert pairs[0].x() + pairs[0].width() == host.width()
