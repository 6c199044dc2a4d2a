"""An editable Qt table over one list of the corpus (templates, persons, emotion words, words).

Why a model, not a QTableWidget: the rows *are* the CorpusDefinition's entries; the model
reads them on demand, writes through undoable document edits, and refreshes on the
document's ``changed`` signal, so undo in one place updates every view.
"""
from __future__ import annotations

import copy
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from engine.corpus.check.agreement import missing_forms, separator_problem
from engine.corpus.definition.paths import assign
from engine.corpus.translate.progress import auto_status

from gui import settings
from gui.i18n import _, isolated, ngettext

from .columns import COLUMNS_FOR, Column, cell_text, shown_value
from .document import CorpusDocument
from .markup import has_markup, paint_markup
from .page_state import EntryFilter
from .spelling import install_line_edit, marks_for

STATUS_ROLE = Qt.UserRole + 1
ID_ROLE = Qt.UserRole + 2
#: setData role for a keystroke while a cell editor is open: value is (text, typing-session key)
LIVE_EDIT_ROLE = Qt.UserRole + 3
_STATUS_COLOURS = {"new": "#fde2e1", "machine-translated": "#fff1cc", "translated": "#e3f0ff",
                   "reviewed": "#dff5e1", "untranslatable": "#eeeeee"}


def undo_typing_session(doc: Any, where: tuple, key: Any) -> None:
    """Put back what an item held before the typing session ``key`` (merged keystrokes,
    ``SetValue.merge_key``) when the typed text is refused as a whole; only that session's own undo
    step, when it is the last one."""
    stack = doc.undo_stack
    top = stack.command(stack.index() - 1) if stack.index() > 0 else None
    if key is not None and getattr(top, "merge_key", None) == key and tuple(getattr(top, "path", ()))[: len(where)] == where:
        doc.set(top.path, top.old, top.text(), merge_key=top.merge_key)  # merged back: no undo step left


class EntryTableModel(QAbstractTableModel):
    #: an edit that cannot be taken, with the reason in words (shown in the status bar)
    notice = Signal(str)  # for the status bar: an edit refused, or what a rename also changed

    def __init__(self, doc: CorpusDocument, list_name: str) -> None:
        super().__init__(doc)
        self.doc = doc
        self.list_name = list_name
        self.columns: list[Column] = COLUMNS_FOR[list_name](doc.corpus)
        self.problems: dict[str, str] = {}  # entry id -> "error" | "warning"
        self._typing_key: Any = None  # the open cell editor's typing session (LIVE_EDIT_ROLE)
        doc.changed.connect(self._on_changed)
        doc.structure_changed.connect(self._on_structure)

    # -- reading ----------------------------------------------------------------
    @property
    def entries(self) -> list[Any]:
        return getattr(self.doc.corpus, self.list_name)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def column_index(self, key: str) -> int:
        return next((i for i, c in enumerate(self.columns) if c.key == key), -1)

    def target_column(self) -> int:
        """The column holding the text being written (forms, template text)."""
        return next((i for i, c in enumerate(self.columns) if c.target), 0)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole) -> Any:
        if orientation == Qt.Horizontal and 0 <= section < len(self.columns):
            col = self.columns[section]
            if role == Qt.DisplayRole:
                return _(col.header)
            if role == Qt.ToolTipRole and col.tip:
                return _(col.tip)
        if orientation == Qt.Vertical and role == Qt.DisplayRole:
            return section + 1
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.entries):
            return None
        entry = self.entries[index.row()]
        col = self.columns[index.column()]
        if role == Qt.DisplayRole:
            return cell_text(col, entry)  # status, kind, emotion, gender… in the interface language
        if role == Qt.EditRole:
            return col.get(entry)
        if role == STATUS_ROLE:
            return entry.review.status
        if role == ID_ROLE:
            return entry.id
        if role == Qt.ForegroundRole and col.source:
            return QBrush(QColor("#5a5a5a"))
        if role == Qt.FontRole and col.source:
            f = QFont()
            f.setItalic(True)
            return f
        if role == Qt.BackgroundRole and col.key == "status":
            return QBrush(QColor(_STATUS_COLOURS.get(entry.review.status, "#ffffff")))
        if role == Qt.DecorationRole and index.column() == 0 and entry.id in self.problems:
            icon = QStyle.SP_MessageBoxCritical if self.problems[entry.id] == "error" else QStyle.SP_MessageBoxWarning
            return QApplication.style().standardIcon(icon)
        if role == Qt.ToolTipRole:
            if col.editable and not col.editable_if(entry):
                return _("Edit this entry's forms in the form editor below.")
            if col.source and self.doc.source is not None:
                return _("Source ({corpus}): {text}").format(corpus=isolated(self.doc.source.id), text=col.get(entry))
            return col.get(entry) or None
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlags:
        if not index.isValid():
            return Qt.NoItemFlags
        base = Qt.ItemIsSelectable | Qt.ItemIsEnabled
        col = self.columns[index.column()]
        if col.editable and col.editable_if(self.entries[index.row()]):
            base |= Qt.ItemIsEditable
        return base

    # -- writing ----------------------------------------------------------------
    def setData(self, index: QModelIndex | QPersistentModelIndex, value: Any, role: int = Qt.EditRole) -> bool:
        if role not in (Qt.EditRole, LIVE_EDIT_ROLE) or not index.isValid() or index.row() >= len(self.entries):
            return False
        key = None
        if role == LIVE_EDIT_ROLE:
            value, key = value
            self._typing_key = key  # the open cell editor's session (undo_typing_session)
        entry = self.entries[index.row()]
        col = self.columns[index.column()]
        if not col.editable or not col.editable_if(entry):
            return False
        if col.key == "id":
            problem = self._id_problem(str(value).strip(), index.row())
            if problem:
                self.notice.emit(problem)
                return False
            value = str(value).strip()
        if col.target and self.list_name != "templates" and self._two_forms(str(value), index.row(), role):
            return False
        new = col.convert(str(value), entry)
        path = (self.list_name, index.row()) + tuple(col.path(entry))
        if col.key == "id":
            return self._rename(index.row(), entry.id, new, path)
        if col.key == "pair":
            return self.set_pair(entry.id, str(value))
        label = _("Edit {column} of {item}").format(column=_(col.header), item=isolated(entry.id))
        if col.target:
            # the text being translated: the review status follows it (new <-> translated), one undo step
            updated = copy.deepcopy(entry)
            assign(updated, tuple(col.path(entry)), new)
            auto_status(self.list_name, updated, missing_forms(self.doc.corpus, self.list_name, updated,
                                                               self.doc.source_entry(self.list_name, entry.id))
                        if self.list_name != "templates" else [],
                        translator=settings.get("translator_id") or "")
            self.doc.set((self.list_name, index.row()), updated, label, merge_key=key)
            return True
        self.doc.set(path, new, label, merge_key=key)
        return True

    def _two_forms(self, text: str, row: int, role: int) -> bool:
        """Refuse "arrabbiata / arrabbiato" as one form (checker E027): while typing the text is not
        stored; when the cell closes the cell gets back what it held before and the status bar says
        how to enter two forms."""
        problem = separator_problem(text, self.doc.corpus.language)
        if not problem:
            return False
        if role != LIVE_EDIT_ROLE:
            undo_typing_session(self.doc, (self.list_name, row), self._typing_key)
            self.notice.emit(_("Not stored: {problem}").format(problem=problem))
        return True

    def set_forms_display(self, row: int, text: str) -> bool:
        """Replace the texts of a several-form entry from its Forms cell as drawn ("terrorizzata /
        terrorizzato"): each part goes to its form, features kept — how a spelling suggestion picked in
        the table reaches an entry whose forms are otherwise edited in the form editor (one undo step)."""
        from .columns import FORM_SEP

        entry = self.entries[row] if 0 <= row < len(self.entries) else None
        parts = text.split(FORM_SEP)
        if entry is None or not hasattr(entry, "forms") or len(parts) != len(entry.forms):
            return False
        updated = copy.deepcopy(entry)
        for form, part in zip(updated.forms, parts):
            form.text = part
        auto_status(self.list_name, updated, missing_forms(self.doc.corpus, self.list_name, updated,
                                                           self.doc.source_entry(self.list_name, entry.id)),
                    translator=settings.get("translator_id") or "")
        return self.doc.set((self.list_name, row), updated, _("Edit form of {item}").format(item=isolated(entry.id)))

    def set_pair(self, person_id: str, other_id: str) -> bool:
        """Pair two noun phrases both ways (and release their former partners) as one undo step."""
        from engine.corpus.check.fixes import pair_edits

        if other_id and self.doc.index_of("persons", other_id) < 0:
            return False
        edits = pair_edits(self.doc.corpus, person_id, other_id)
        if not edits:
            return False
        label = (_("Pair {a} with {b}").format(a=person_id, b=other_id) if other_id
                 else _("Unpair {a}").format(a=person_id))
        self.doc.undo_stack.beginMacro(label)
        for path, value in edits:
            self.doc.set(path, value, label)
        self.doc.undo_stack.endMacro()
        return True

    def _rename(self, row: int, old: str, new: str, path: tuple) -> bool:
        """Rename an entry and every reference to it (pair partners, declared pairs, template
        slots that take a small word) as one undo step."""
        from engine.corpus.definition.rename import reference_edits

        if old == new:
            return True
        edits = reference_edits(self.doc.corpus, self.list_name, old, new)
        stack = self.doc.undo_stack
        stack.beginMacro(_("Rename {old} to {new}").format(old=isolated(old), new=isolated(new)))
        try:
            self.doc.set(path, new, _("Rename {old} to {new}").format(old=isolated(old), new=isolated(new)))
            for e in edits:
                self.doc.set(e.path, e.value, e.where)
        finally:
            stack.endMacro()
        if edits:
            self.notice.emit(ngettext("Renamed {old} to {new} and updated {n} reference to it.",
                                        "Renamed {old} to {new} and updated {n} references to it.",
                                        len(edits)).format(old=old, new=new, n=len(edits)))
        return True

    def _id_problem(self, new_id: str, row: int) -> str:
        """Why ``new_id`` cannot name entry ``row`` ('' when it can): ids are keys across languages."""
        if not new_id:
            return _("An id cannot be empty; the previous id was kept.")
        if any(e.id == new_id for i, e in enumerate(self.entries) if i != row):
            return _("The id “{id}” is already used by another entry; ids must be unique.").format(id=isolated(new_id))
        if any(ch.isspace() for ch in new_id):
            return _("An id cannot contain spaces (“{id}”); use _ or - instead.").format(id=isolated(new_id))
        return ""

    def is_rtl_column(self, column: int) -> bool:
        """Text in the corpus language of a right-to-left corpus (Arabic): laid out right to left."""
        return self.doc.rtl and 0 <= column < len(self.columns) and self.columns[column].target

    def has_source(self) -> bool:
        """Whether any entry carries a source text (otherwise the Source column is hidden)."""
        return any(e.review.source for e in self.entries)

    def set_problems(self, problems: dict[str, str]) -> None:
        if problems != self.problems:
            self.problems = problems
            if self.entries:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self.entries) - 1, 0), [Qt.DecorationRole])

    def row_of(self, item_id: str) -> int:
        return next((i for i, e in enumerate(self.entries) if e.id == item_id), -1)

    # -- document signals -------------------------------------------------------
    def _on_changed(self, path: tuple) -> None:
        if path and path[0] == "axes" and self.list_name == "persons":
            # an axis added, renamed or removed: one column per axis
            self.beginResetModel()
            self.columns = COLUMNS_FOR[self.list_name](self.doc.corpus)
            self.endResetModel()
            return
        if not path or path[0] != self.list_name:
            return
        if len(path) >= 2 and isinstance(path[1], int) and path[1] < len(self.entries):
            row = path[1]
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.columns) - 1))
        else:
            self.beginResetModel()
            self.endResetModel()

    def _on_structure(self, list_name: str) -> None:
        if list_name == self.list_name:
            self.beginResetModel()
            self.endResetModel()

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Horizontal, 0, max(0, len(self.columns) - 1))
        if self.entries:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.entries) - 1, len(self.columns) - 1))


class StatusFilterProxy(QSortFilterProxyModel):
    """Filter rows by review status and by a search text (in any column), as ``EntryFilter`` decides.

    Each table keeps its own copy of the page's filter: showing a hidden entry clears this one only."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.filter = EntryFilter()

    def set_filter(self, wanted: EntryFilter) -> None:
        self.filter = EntryFilter(wanted.status, wanted.text)
        self.invalidateFilter()

    def set_status(self, status: str) -> None:
        self.filter.status = status
        self.invalidateFilter()

    def set_text(self, text: str) -> None:
        self.filter.text = text
        self.invalidateFilter()

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:
        model = self.sourceModel()
        status = model.index(row, 0, parent).data(STATUS_ROLE)
        return self.filter.accepts(status, (model.index(row, c, parent).data(Qt.DisplayRole)
                                            for c in range(model.columnCount())))


def rtl_line_edit(editor: QLineEdit) -> QLineEdit:
    """Make a line editor lay out and move its cursor right to left (Arabic)."""
    editor.setLayoutDirection(Qt.RightToLeft)
    editor.setAlignment(Qt.AlignLeading | Qt.AlignVCenter)  # leading = right in a right-to-left widget
    return editor


def rtl_style(option: Any) -> None:
    """Draw a cell's text as a right-to-left paragraph, starting at the right edge.

    Why not only right alignment: a template such as ``{person} وجد نفسه …`` starts with Latin
    letters, so the bidi algorithm would take it for a left-to-right paragraph and put the
    words in the wrong order; the paragraph direction must be set explicitly.
    """
    option.direction = Qt.RightToLeft
    option.displayAlignment = Qt.AlignLeading | Qt.AlignVCenter


class CellDelegate(QStyledItemDelegate):
    """Combo boxes for closed choices (status, kind, group); right-to-left cells and editors for
    Arabic text; text cells send every keystroke to the document so the checks follow typing."""

    LIVE_KEYS = ("text", "forms", "note", "translator")

    def __init__(self, model: EntryTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._session = 0
        self.marks = marks_for(model.doc)
        if parent is not None:  # a word added to the list: its underlines go at once
            self.marks.changed.connect(parent.viewport().update)

    def _column(self, index: QModelIndex) -> Column:
        return self.model.columns[index.column()]

    def initStyleOption(self, option: Any, index: QModelIndex) -> None:  # noqa: N802 - Qt's name
        super().initStyleOption(option, index)
        if self.model.is_rtl_column(index.column()):
            rtl_style(option)
        elif option.direction == Qt.RightToLeft and self._column(index).choices is None:
            # Arabic interface, left-to-right corpus text (English source, ids, templates that
            # start with "<" or "{"): lay the cell out left to right, or the bidi algorithm
            # moves the leading punctuation to the other end and the text reads mirrored.
            option.direction = Qt.LeftToRight

    def paint(self, painter: Any, option: Any, index: QModelIndex) -> None:
        """Templates of a right-to-left corpus: slots drawn as chips (gui/workbench/markup.py);
        misspelt words of the translation underlined (gui/workbench/spelling.py)."""
        text = index.data(Qt.DisplayRole)
        rtl = self.model.is_rtl_column(index.column())
        misspelt = isinstance(text, str) and self._column(index).target and bool(self.marks.spans(text))
        if isinstance(text, str) and (misspelt or (rtl and has_markup(text))):
            opt = QStyleOptionViewItem(option)
            self.initStyleOption(opt, index)
            paint_markup(painter, opt, text, rtl, self.marks.spans if misspelt else None)
            return
        super().paint(painter, option, index)

    def createEditor(self, parent: QWidget, option: Any, index: QModelIndex) -> QWidget:
        col = self._column(index)
        if col.choices is not None:
            box = QComboBox(parent)
            for value in col.choices(self.model.doc.corpus):
                box.addItem(shown_value(col, value), value)
            return box
        editor = QLineEdit(parent)
        if self.model.is_rtl_column(index.column()):
            rtl_line_edit(editor)
        if col.target:
            install_line_edit(editor, self.marks)
        if col.key in self.LIVE_KEYS:
            self._session += 1
            key = ("typing", id(self), self._session)
            where = QPersistentModelIndex(index)
            editor.textEdited.connect(
                lambda text, w=where, k=key: w.isValid() and w.model().setData(w, (text, k), LIVE_EDIT_ROLE))
        return editor

    def setEditorData(self, editor: QWidget, index: QModelIndex) -> None:
        value = index.data(Qt.EditRole)
        if isinstance(editor, QComboBox):
            i = editor.findData(value)
            editor.setCurrentIndex(max(i, 0))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: Any, index: QModelIndex) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.EditRole)
        else:
            super().setModelData(editor, model, index)
