"""One tab of the workbench: a filtered, editable table over one corpus list, with add/remove."""
from __future__ import annotations

import copy
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QPushButton, QTableView, QVBoxLayout, QWidget

from engine.corpus import Form, Template, Variant, Word
from engine.corpus.definition.ids import derive_id
from engine.corpus.definition.language_presets import preset_for
from engine.corpus.check.agreement import missing_forms
from engine.corpus.translate.progress import auto_status

from gui.i18n import _, connect_retranslate, isolated, ngettext

from .add_entry import AddEntryDialog, build_entry
from .document import CorpusDocument
from .spelling import cell_menu, marks_for
from .table_model import CellDelegate, EntryTableModel, StatusFilterProxy


def new_entry(doc: CorpusDocument, list_name: str, values: dict[str, Any] | None = None) -> Any:
    """A new entry. Persons and emotion words come from ``values`` (the Add dialog: text, kind,
    groups or emotion, all chosen explicitly); templates and small words get a fresh id and,
    when given, their text. An Arabic (or other variant-preset) template starts with its
    masculine and feminine variants, chosen by the person's gender."""
    values = values or {}
    c = doc.corpus
    if list_name in ("persons", "emotion_words"):
        entry = build_entry(c, list_name, values)
    else:
        ids = {e.id for e in getattr(c, list_name)} | set(values.get("taken", ()))
        text = str(values.get("text", ""))
        if list_name == "templates":
            n = len(ids) + 1
            while f"T{n:02d}" in ids:
                n += 1
            entry = Template(values.get("id") or f"T{n:02d}", [Variant(text)])
            select = preset_for(c.language).variant_select
            if not text and select and all(k in c.features for k in select):
                feat = next(iter(select))
                entry.variants = [Variant("", {feat: v}) for v in c.features[feat]]
                entry.select = dict(select)
        else:
            entry = Word(values.get("id") or derive_id(text, ids, "word"),
                         [Form(text)] if text else [])
    auto_status(list_name, entry, missing_forms(c, list_name, entry))
    return entry


#: the widest a short-value column (id, kind, group, pair, status) grows by itself, in pixels
SHORT_LIMIT = 260


class EntryView(QTableView):
    """The entry table. Typing on a row never edits its id (an id is a key shared across languages;
    *Rename* is its own action): a key typed while the id — or any cell that cannot take text — is
    current goes to the row's translation cell instead."""

    def edit(self, index: Any, trigger: Any = None, event: Any = None) -> bool:  # noqa: A003 - Qt's name
        if trigger is None:
            return super().edit(index)
        if trigger == QAbstractItemView.AnyKeyPressed and index.isValid():
            model = self.model().sourceModel()
            col = model.columns[index.column()]
            if col.key == "id" or not (index.flags() & Qt.ItemIsEditable):
                target = self.model().index(index.row(), model.target_column())
                if target.isValid() and target.flags() & Qt.ItemIsEditable and target.column() != index.column():
                    self.setCurrentIndex(target)
                    return super().edit(target, trigger, event)
                return False
        return super().edit(index, trigger, event)

    def contextMenuEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        """A right-click on an underlined word of a translation: suggestions, add to the word list."""
        menu = self.spelling_menu(event.pos())
        if menu is not None:
            menu.exec(event.globalPos())
            menu.deleteLater()

    def spelling_menu(self, pos: Any) -> Any:
        """The spelling menu for the word at ``pos`` (viewport coordinates), or None."""
        index = self.indexAt(pos)
        if not index.isValid():
            return None
        model = self.model().sourceModel()
        if not model.columns[index.column()].target:
            return None
        source = QPersistentModelIndex(self.model().mapToSource(index))
        if index.flags() & Qt.ItemIsEditable:
            set_text = lambda text: source.isValid() and model.setData(source, text, Qt.EditRole)  # noqa: E731
        elif model.columns[index.column()].key == "forms":
            # several forms, edited in the form editor: a suggestion still replaces the word in its form
            set_text = lambda text: source.isValid() and model.set_forms_display(source.row(), text)  # noqa: E731
        else:
            set_text = None
        return cell_menu(self, index, pos, marks_for(model.doc), model.is_rtl_column(index.column()), set_text)


class EntryTab(QWidget):
    """Table of one list; emits ``current(list_name, row)`` when the selected entry changes."""

    current = Signal(str, int)

    def __init__(self, doc: CorpusDocument, list_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown_once = False
        self.doc = doc
        self.list_name = list_name
        self.model = EntryTableModel(doc, list_name)
        self.proxy = StatusFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.view = EntryView()
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
        self.add_button.clicked.connect(lambda _checked=False: self.add_entry())
        self.remove_button = QPushButton()
        self.remove_button.clicked.connect(self.remove_selected)
        self.rename_button = QPushButton()  # ids change only here (F2 on the id, or a double-click)
        self.rename_button.clicked.connect(lambda _checked=False: self.rename_selected())
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.rename_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        connect_retranslate(self)
        self.retranslate()
        self._size_columns()
        # a list that starts empty (a new corpus) is sized again once it has rows
        self._sized_empty = self.model.rowCount() == 0
        self.model.modelReset.connect(self._size_if_first_rows)
        # short values (ids, kinds, groups, status) stay whole as rows are added, values change or
        # the interface language changes the titles: one pass after a burst of edits
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self.fit_short_columns)
        for sig in (self.model.rowsInserted, self.model.dataChanged, self.model.modelReset,
                    self.model.headerDataChanged):
            sig.connect(lambda *_args: self._fit_timer.start())

    def _size_if_first_rows(self) -> None:
        if self._sized_empty and self.model.rowCount():
            self._sized_empty = False
            self._size_columns()

    def fit_short_columns(self) -> None:
        """Widen (never narrow) every short-value column to its title and its longest visible value,
        up to SHORT_LIMIT: such a value elided ("sintag…", "minha…") cannot be read at all, while a
        sentence in a text column stays readable from its start and whole in its tooltip."""
        header = self.view.horizontalHeader()
        for c, col in enumerate(self.model.columns):
            if col.target or col.source or col.stretch or self.view.isColumnHidden(c):
                continue
            need = min(max(self.view.sizeHintForColumn(c), header.sectionSizeHint(c)), SHORT_LIMIT)
            if need > self.view.columnWidth(c):
                self.view.setColumnWidth(c, need)

    def retranslate(self, *_args: Any) -> None:
        self.add_button.setText(_("Add"))
        self.remove_button.setText(_("Remove"))
        self.rename_button.setText(_("Rename id…"))
        self.rename_button.setToolTip(_("Change the selected entry's id (every reference to it follows). Typing "
                                        "on a row edits its translation, never its id."))
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
        self.fit_short_columns()
        self.view.horizontalScrollBar().setValue(0)  # opened on the ID and Source columns, not scrolled past them

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        """The first look at a table starts at its ID column (the current cell was scrolled to while the
        table was still too narrow to show it beside the ID and Source columns)."""
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            self.view.horizontalScrollBar().setValue(0)

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
        # the current cell is the translation, so what the translator types next lands there
        target = self.proxy.index(index.row(), max(0, self.model.target_column()))
        # the row in the middle, scrolled sideways to its ID column: the ID and Source columns stay in
        # view (they opened scrolled off at 1280 × 800, issue 39); the translation beside them is
        # brought into view only if it does not fit
        self.view.selectionModel().setCurrentIndex(target, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
        self.view.scrollTo(self.proxy.index(index.row(), 0), QAbstractItemView.PositionAtCenter)
        self.current.emit(self.list_name, row)
        return True

    def edit_translation(self) -> bool:
        """Open the current row's translation cell for typing (False: its forms are edited in the
        form editor, or there is no row)."""
        rows = self.selected_rows()
        if not rows:
            return False
        index = self.proxy.mapFromSource(self.model.index(rows[0], max(0, self.model.target_column())))
        if not index.isValid() or not index.flags() & Qt.ItemIsEditable:
            return False
        self.view.setFocus()
        self.view.setCurrentIndex(index)
        self.view.edit(index)
        return True

    def rename_selected(self) -> bool:
        """Rename: open the id cell of the selected row (the only way an id changes in the tables)."""
        rows = self.selected_rows()
        if not rows:
            return False
        index = self.proxy.mapFromSource(self.model.index(rows[0], self.model.column_index("id")))
        self.view.setFocus()
        self.view.setCurrentIndex(index)
        self.view.edit(index)
        return True

    # -- edits ------------------------------------------------------------------
    def add_entry(self, values: dict[str, Any] | None = None) -> Any:
        """Add one entry after the selection. Persons and emotion words without ``values`` open
        the Add dialog (several at a time, each classified explicitly)."""
        if values is None and self.list_name in ("persons", "emotion_words"):
            self.add_dialog()
            return None
        added = self.add_entries([values or {}])
        return added[0] if added else None

    def add_dialog(self) -> "AddEntryDialog | None":
        from gui.errors import _headless

        dlg = AddEntryDialog(self.doc.corpus, self.list_name, self.add_entries, self)
        if _headless():  # tests drive the dialog themselves
            dlg.show()
            return dlg
        dlg.exec()
        return None

    def add_entries(self, values: list[dict[str, Any]]) -> list[Any]:
        """Insert entries after the selection as one undo step and select the last."""
        rows = self.selected_rows()
        index = rows[-1] + 1 if rows else len(getattr(self.doc.corpus, self.list_name))
        entries = []
        taken: set[str] = set()
        for v in values:
            entry = new_entry(self.doc, self.list_name, {**v, "taken": taken})
            taken.add(entry.id)
            entries.append(entry)
        if not entries:
            return []
        for v, entry in zip(values, entries):  # "X ~ Y" typed on one line: paired both ways from the start
            k = v.get("pair_index", -1)
            if self.list_name == "persons" and 0 <= k < len(entries):
                entry.pair = entries[k].id
        stack = self.doc.undo_stack
        if len(entries) > 1:
            stack.beginMacro(ngettext("Add {n} entry", "Add {n} entries", len(entries)).format(n=len(entries)))
        for k, entry in enumerate(entries):
            self.doc.insert(self.list_name, index + k, entry, _("Add {item}").format(item=isolated(entry.id)))
        if len(entries) > 1:
            stack.endMacro()
        self.select_id(entries[-1].id)
        return entries

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
