"""A layout that places its items left to right and wraps them onto the next line when the row is
full (as words wrap in a paragraph), so a row of labelled choices never runs past the edge of a
narrow pane: the form editor's "Whole entry: gender: (any)  number: (any)…" at 1280 × 800, with
the longer texts of other interface languages ("(qualquer)", "(qualsiasi)").

Right-to-left layouts mirror: the first item starts at the right edge.
"""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QHBoxLayout, QLayout, QLayoutItem, QStyle, QWidget


class FlowLayout(QLayout):
    """Items in reading order, wrapped at the layout's width; its height follows the width."""

    def __init__(self, parent: QWidget | None = None, spacing: int = -1) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing

    # -- the QLayout interface ---------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt's name
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt's name
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt's name
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """One line with every item (what the row asks for when there is room)."""
        width = sum(i.sizeHint().width() for i in self._items) + self._gap() * max(0, len(self._items) - 1)
        height = max([i.sizeHint().height() for i in self._items] + [0])
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt's name
        """The widest single item: anything narrower wraps."""
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # -- placement ------------------------------------------------------------------------------
    def _gap(self) -> int:
        if self._spacing >= 0:
            return self._spacing
        parent = self.parentWidget()
        if parent is None:
            return 6
        return parent.style().pixelMetric(QStyle.PM_LayoutHorizontalSpacing, None, parent)

    def _arrange(self, rect: QRect, move: bool) -> int:
        """Place (or only measure) the items line by line; returns the height used."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        rtl = self.parentWidget() is not None and self.parentWidget().isRightToLeft()
        gap, x, y, line = self._gap(), 0, area.y(), 0
        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            if x > 0 and x + hint.width() > area.width():
                x, y, line = 0, y + line + gap, 0
            if move:
                left = area.right() + 1 - x - hint.width() if rtl else area.x() + x
                item.setGeometry(QRect(QPoint(left, y), hint))
            x += hint.width() + gap
            line = max(line, hint.height())
        return y + line - rect.y() + m.bottom()


def labelled_pair(label: QWidget, field: QWidget) -> QWidget:
    """A label and its field as one unit of a flow layout: they wrap together, never apart."""
    pair = QWidget()
    row = QHBoxLayout(pair)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(label)
    row.addWidget(field)
    return pair

