"""One tab of the workbench: a filtered, editable table over one corpus list, with add/remove."""
from __future__ import annotations

import copy
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QPushButton, QTableView, QVBoxLayout, QWidget

from engine.corpus import EmotionWord, PersonTerm, Template, Variant, Word

from gui.i18n import _, connect_retranslate, ngettext

from .document import CorpusDocument
from .table_model import CellDelegate, EntryTableModel, StatusFilterProxy


def new_entry(doc: CorpusDocument, list_name: str) -> Any:
    """A blank entry with a fresh id (the checker then says what it still needs)."""
    prefix = {"templates": "T", "persons": "person", "emotion_words": "word", "words": "word"}[list_name]
    ids = {e.id for e in getattr(doc.corpus, list_name)}
    n = len(ids) + 1
    while f"{prefix}{n:02d}" in ids:
        n += 1
    new_id = f"{prefix}{n:02d}"
    c = doc.corpus
    if list_name == "templates":
        return Template(new_id, [Variant("")])
    if list_name == "persons":
        gender = c.axes["gender"].groups[0] if "gender" in c.axes and c.axes["gender"].groups else "female"
        return PersonTerm(new_id, "noun_phrase", {"gender": gender}, [])
    if list_name == "emotion_words":
        return EmotionWord(new_id, "anger", "state", [])
    return Word(new_id, [])


class EntryTab(QWidget):
    """Table of one list; emits ``current(list_name, row)`` when the selected entry changes."""

    current = Signal(str, int)

    def __init__(self, doc: CorpusDocument, list_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.list_name = list_name
        self.model = EntryTableModel(doc, list_name)
        self.proxy = StatusFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setItemDelegate(CellDelegate(self.model, self.view))
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed
                                  | QAbstractItemView.AnyKeyPressed)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setDefaultSectionSize(24)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Interactive)
        header.setStretchLastSection(True)
        self.view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.add_button = QPushButton()
        self.add_button.clicked.connect(self.add_entry)
        self.remove_button = QPushButton()
        self.remove_button.clicked.connect(self.remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        connect_retranslate(self)
        self.retranslate()
        self._size_columns()

    def retranslate(self, *_args: Any) -> None:
        self.add_button.setText(_("Add"))
        self.remove_button.setText(_("Remove"))
        self.model.retranslate()

    def _size_columns(self) -> None:
        """Fit columns to their content within limits, so the text being translated stays on screen.

        The source column is hidden when no entry has a source text (an original corpus).
        """
        source_col = self.model.column_index("source")
        if source_col >= 0:
            self.view.setColumnHidden(source_col, not self.model.has_source())
        self.view.resizeColumnsToContents()
        for c, col in enumerate(self.model.columns):
            width = self.view.columnWidth(c)
            limit = 340 if col.target else 230 if col.source else 150 if col.key == "id" else 130
            self.view.setColumnWidth(c, max(60, min(width + 12, limit)))
            if col.target:
                self.view.setColumnWidth(c, max(self.view.columnWidth(c), 200))

    def source_visible(self) -> bool:
        c = self.model.column_index("source")
        return c >= 0 and not self.view.isColumnHidden(c)

    # -- selection --------------------------------------------------------------
    def _row_changed(self, current, _previous) -> None:
        src = self.proxy.mapToSource(current)
        self.current.emit(self.list_name, src.row() if src.isValid() else -1)

    def selected_rows(self) -> list[int]:
        rows = {self.proxy.mapToSource(i).row() for i in self.view.selectionModel().selectedRows()}
        return sorted(r for r in rows if r >= 0)

    def select_id(self, item_id: str) -> bool:
        row = self.model.row_of(item_id)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():  # hidden by the status filter: clear the filter to show it
            self.proxy.set_status("")
            self.proxy.set_text("")
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.view.selectionModel().setCurrentIndex(index, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
        self.view.scrollTo(index, QAbstractItemView.PositionAtCenter)
        self.current.emit(self.list_name, row)
        return True

    # -- edits ------------------------------------------------------------------
    def add_entry(self) -> None:
        entry = new_entry(self.doc, self.list_name)
        rows = self.selected_rows()
        index = rows[-1] + 1 if rows else len(getattr(self.doc.corpus, self.list_name))
        self.doc.insert(self.list_name, index, entry, _("Add {item}").format(item=entry.id))
        self.select_id(entry.id)

    def remove_selected(self) -> None:
        rows = self.selected_rows()
        if not rows:
            return
        self.doc.undo_stack.beginMacro(
            ngettext("Remove {n} entry", "Remove {n} entries", len(rows)).format(n=len(rows)))
        for r in reversed(rows):
            self.doc.remove(self.list_name, r, _("Remove entry"))
        self.doc.undo_stack.endMacro()

    def set_review(self, status: str, translator: str) -> int:
        """Set the review status (and translator id) of the selected entries as one undo step."""
        rows = self.selected_rows()
        if not rows:
            return 0
        self.doc.undo_stack.beginMacro(ngettext("Mark {n} entry as {status}", "Mark {n} entries as {status}",
                                                len(rows)).format(n=len(rows), status=status))
        for r in rows:
            review = copy.deepcopy(getattr(self.doc.corpus, self.list_name)[r].review)
            review.status = status
            if translator:
                review.translator = translator
            self.doc.set((self.list_name, r, "review"), review, _("Set review status"))
        self.doc.undo_stack.endMacro()
        return len(rows)
