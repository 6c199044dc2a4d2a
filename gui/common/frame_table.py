"""A read-only table over a pandas DataFrame that copies to the clipboard and saves as CSV.

Why one widget: every table in the app (preview sentences, result tables, drill-down pairs)
must offer the same two exits — paste into a spreadsheet, save a CSV — so they live here once.
The model formats cells lazily, so a 45,000-row corpus table opens instantly; its columns are
turned into plain lists when first shown, and sized a few per event-loop turn (``gui.common.steps``),
so a wide table never holds the window while it is measured.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Iterator

from engine.common import fmt

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from gui.common.steps import Steps
from gui.i18n import _, connect_retranslate, isolated


def _fmt(value: Any) -> str:
    return fmt.cell(value)


# Roles and alignment as plain ints: ``data()`` runs for every cell a view sizes or paints, and
# comparing an int with PySide6's enum members costs microseconds each (a 60-row column sizing
# of a wide table took 0.3 s on the UI thread).
_DISPLAY, _TOOLTIP, _USER, _ALIGN = (int(r.value) for r in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole,
                                                             Qt.ItemDataRole.UserRole,
                                                             Qt.ItemDataRole.TextAlignmentRole))
_HORIZONTAL = Qt.Orientation.Horizontal
_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)
_ANSWERED = frozenset((_DISPLAY, _TOOLTIP, _USER, _ALIGN))


class FrameModel(QAbstractTableModel):
    """Rows of a DataFrame for a view. Cells are read from plain Python column lists made once
    per frame: ``DataFrame.iat`` costs microseconds per call (much more on Arrow strings), and
    a view asks for tens of thousands of cells when it sizes its columns. Each list is made when
    its column is first asked for (1–2 ms per column of 14,000 rows, not 25 ms for all at once)."""

    def __init__(self, frame: Any = None, parent: Any = None) -> None:
        super().__init__(parent)
        self.frame = frame
        self.rtl_columns: set[str] = set()
        self._columns: list[list[Any] | None] = []
        self._names: list[str] = []
        self._rows = 0
        self._load(frame)

    def _load(self, frame: Any) -> None:
        if frame is None:
            self._columns, self._names, self._rows = [], [], 0
            return
        self._names = [str(c) for c in frame.columns]
        self._columns = [None] * len(frame.columns)
        self._rows = len(frame)

    def _column(self, i: int) -> list[Any]:
        col = self._columns[i]
        if col is None:
            col = self._columns[i] = self.frame.iloc[:, i].tolist()
        return col

    def set_frame(self, frame: Any) -> None:
        self.beginResetModel()
        self.frame = frame
        self._load(frame)
        self.endResetModel()

    # rowCount/headerData answer from what _load kept: a view calls them thousands of times while
    # it sizes columns, and len(DataFrame) or an Arrow-backed column index cost microseconds each
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.DisplayRole) -> Any:
        role = int(role) if role.__class__ is not int else role
        if role not in _ANSWERED or not index.isValid() or self.frame is None:
            return None  # font, colour, decoration, check state…: asked for every cell, answered by none
        col = self._columns[index.column()]
        value = (col if col is not None else self._column(index.column()))[index.row()]
        if role == _DISPLAY or role == _TOOLTIP:
            return _fmt(value)
        if role == _USER:
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _RIGHT
        if self._names[index.column()] in self.rtl_columns:
            return _RIGHT
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole) -> Any:
        if (int(role) if role.__class__ is not int else role) != _DISPLAY or self.frame is None:
            return None
        if orientation == _HORIZONTAL:
            return self._names[section]
        return section + 1


class FrameTable(QWidget):
    """A table with 'Copy' and 'Save CSV…' buttons (and Ctrl+C on a selection)."""

    saved = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, title: str = "", name: str = "table") -> None:
        super().__init__(parent)
        self.name = name
        self.model = FrameModel(parent=self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setAlternatingRowColors(True)
        self.view.setSortingEnabled(False)
        self.view.verticalHeader().setDefaultSectionSize(22)
        # column widths from the first rows only: a 45,000-row table must not be measured whole
        self.view.horizontalHeader().setResizeContentsPrecision(200)
        self.title = QLabel(title)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy_to_clipboard)
        self.csv_button = QPushButton()
        self.csv_button.clicked.connect(self.ask_save_csv)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.copy_button)
        top.addWidget(self.csv_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        QShortcut(QKeySequence.Copy, self.view, activated=self.copy_to_clipboard)
        self._sizing = Steps(self)
        connect_retranslate(self)
        self.retranslate()

    def retranslate(self, *_args: Any) -> None:
        self.copy_button.setText(_("Copy"))
        self.copy_button.setToolTip(_("Copy the selected rows (or the whole table) for a spreadsheet"))
        self.csv_button.setText(_("Save CSV…"))

    def set_frame(self, frame: Any, *, rtl_columns: set[str] | None = None) -> None:
        self.model.rtl_columns = set(rtl_columns or ())
        self.model.set_frame(frame)
        # the previous table stays on screen until every column has its width (no jumping columns)
        self.view.setUpdatesEnabled(False)
        self._sizing.start(self._size_columns(), self._sized)

    def _size_columns(self) -> Iterator[None]:
        """Each column as wide as its header and first rows (at most 420 px), one at a time."""
        for c in range(self.model.columnCount()):
            self.view.resizeColumnToContents(c)
            if self.view.columnWidth(c) > 420:
                self.view.setColumnWidth(c, 420)
            yield

    def _sized(self) -> None:
        self.view.setUpdatesEnabled(True)

    @property
    def sizing(self) -> bool:
        """True while the columns of a new frame are still being sized."""
        return self._sizing.running

    def finish_sizing(self) -> None:
        self._sizing.finish()

    @property
    def frame(self) -> Any:
        return self.model.frame

    def selected_frame(self) -> Any:
        frame = self.model.frame
        if frame is None:
            return None
        rows = sorted({i.row() for i in self.view.selectionModel().selectedIndexes()}) if self.view.selectionModel() else []
        return frame.iloc[rows] if rows else frame

    def copy_to_clipboard(self) -> str:
        """Tab-separated with a header row: pastes straight into a spreadsheet."""
        part = self.selected_frame()
        if part is None:
            return ""
        from engine.common.csv_cells import csv_text

        text = csv_text(part, sep="\t")  # a pasted "=…" cell stays text
        QGuiApplication.clipboard().setText(text)
        return text

    def save_csv(self, path: str | Path) -> Path:
        from engine.common.io import atomic_write_bytes

        path = Path(path)
        from engine.common.csv_cells import csv_text

        atomic_write_bytes(path, csv_text(self.model.frame).encode("utf-8"))
        self.saved.emit(str(path))
        return path

    def ask_save_csv(self) -> None:
        if self.model.frame is None:
            return
        path, _filter = QFileDialog.getSaveFileName(self, _("Save table as CSV"), f"{self.name}.csv", _("CSV files (*.csv)"))
        if path:
            from gui.errors import show_error

            try:
                self.save_csv(path)
            except Exception as exc:  # shown, never raised into Qt
                show_error(self, exc, context=_("Saving {path}").format(path=isolated(path)))
