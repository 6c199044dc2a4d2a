"""Keep a widget as tall as its wrapped contents need at its present width.

Why: a form whose long rows wrap (a field under its label, ``QFormLayout.WrapLongRows``) needs more
height the narrower it is, but Qt asks a group box inside a splitter for one height whatever its
width; the Audit page's settings, narrowed in French at 1280 px, were squeezed, their spin boxes
half their height. Here, at every change of width, the widget's minimum height is set to what its
layout needs at that width (``QLayout.totalHeightForWidth``), so the space comes from its neighbours
(the association tests' list gives way) instead.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class _Follow(QObject):
    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.widget = widget

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget and event.type() in (QEvent.Resize, QEvent.LayoutRequest):
            self.update()
        return False

    def update(self) -> None:
        layout = self.widget.layout()
        if layout is None or not layout.hasHeightForWidth():
            return
        need = layout.totalHeightForWidth(self.widget.width())
        if need > 0 and need != self.widget.minimumHeight():
            self.widget.setMinimumHeight(need)


def keep_wrapped_height(widget: QWidget) -> None:
    """From now on ``widget`` is never shorter than its layout needs at its width."""
    follow = _Follow(widget)
    widget.installEventFilter(follow)
