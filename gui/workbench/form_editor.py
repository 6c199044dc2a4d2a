"""The form editor: one entry's forms (or a template's variants) with their grammatical features.

Why a separate editor: an entry such as Spanish *enojado/enojada* or English *she/her* has
several forms keyed by features (gender, role, case…). The tables show them joined; here each
form is a row and each declared feature a column with its allowed values, so a translator
never types a feature name by hand (unknown names would be checker errors E005/E006).
"""
from __future__ import annotations

import copy
import dataclasses
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.corpus import Form, Variant
from engine.corpus.generate.compiled import CVariant
from engine.corpus.check.grammar.referent import experiencer
from engine.corpus.definition.model import EXPERIENCERS
from engine.corpus.check.agreement import missing_forms, separator_problem
from engine.corpus.generate.needed_forms import needed_combinations
from engine.corpus.translate.progress import auto_status

from gui.common.flow_layout import FlowLayout, labelled_pair
from gui import settings
from gui.i18n import _, connect_retranslate, isolated, list_separator, pgettext

from .columns import LIST_TITLES
from .document import CorpusDocument
from .markup import has_markup, paint_markup
from .spelling import SpellingMarks, cell_menu, install_line_edit, marks_for
from .table_model import rtl_line_edit, rtl_style, undo_typing_session

ANY = ""  # a form that does not mention a feature fits any value of it
INFERRED = ""  # a template that does not declare who feels its emotion word


def experiencer_label(value: str, long: bool = False) -> str:
    """Who feels the emotion word, in the interface language (the file keeps the English keyword)."""
    if value == "person":
        return pgettext("who feels the emotion word", "person")
    if value == "speaker":
        return pgettext("who feels the emotion word", "speaker")
    if value == "third":
        return pgettext("who feels the emotion word", "third party")
    if value == "noun":
        if long:
            return pgettext("who feels the emotion word", "noun (situation, event…)")
        return pgettext("who feels the emotion word", "noun")
    return value


def inferred_experiencers(template: Any, language: str) -> list[str]:
    """Who feels the emotion word when the template does not say (the engine's inference), per
    distinct answer over its variants; [] when no variant has an emotion slot."""
    from engine.corpus.definition.template_syntax import TemplateSyntaxError, parse_template

    plain = dataclasses.replace(template, experiencer="")
    found: list[str] = []
    for v in template.variants:
        try:
            parsed = parse_template(v.text)
        except TemplateSyntaxError:
            continue
        person = next((s for s in parsed.slots if s.source == "person"), None)
        emotion = next((s for s in parsed.slots if s.source == "emotion"), None)
        if emotion is None:
            continue
        try:
            value, _declared = experiencer(plain, CVariant(v, parsed, [], person, emotion), language)
        except Exception:  # noqa: BLE001 - a language's data that does not load must not break the editor
            continue
        if value and value not in found:
            found.append(value)
    return found


def _combo_text(features: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in features.items())


#: the narrowest the form editor's Text column gets when it yields room to the feature columns
TEXT_FLOOR = 150


class _TextDelegate(QStyledItemDelegate):
    """The form texts: right to left for Arabic, and every keystroke reaches the checker."""

    def __init__(self, editor: "FormEditor") -> None:
        super().__init__(editor.table)
        self.owner = editor
        self._session = 0

    def _is_text(self, index: Any) -> bool:
        return index.column() == 0 or (self.owner.is_template and index.column() == self.owner.published_column)

    def initStyleOption(self, option: Any, index: Any) -> None:  # noqa: N802 - Qt's name
        super().initStyleOption(option, index)
        if self.owner.doc.rtl and self._is_text(index):
            rtl_style(option)
        elif option.direction == Qt.RightToLeft and self._is_text(index):
            option.direction = Qt.LeftToRight  # Arabic interface, left-to-right corpus: see CellDelegate

    def paint(self, painter: Any, option: Any, index: Any) -> None:
        text = index.data(Qt.DisplayRole)
        rtl = self.owner.doc.rtl
        misspelt = index.column() == 0 and isinstance(text, str) and bool(self.marks.spans(text))
        if index.column() == 0 and isinstance(text, str) and (misspelt or (rtl and has_markup(text))):
            opt = QStyleOptionViewItem(option)
            self.initStyleOption(opt, index)
            # slots as chips (readable inside Arabic text), misspelt words underlined
            paint_markup(painter, opt, text, rtl, self.marks.spans if misspelt else None)
            return
        super().paint(painter, option, index)

    @property
    def marks(self) -> SpellingMarks:
        return marks_for(self.owner.doc)

    def createEditor(self, parent: QWidget, option: Any, index: Any) -> QWidget:
        editor = QLineEdit(parent)
        if self.owner.doc.rtl and self._is_text(index):
            rtl_line_edit(editor)
        if index.column() == 0:
            install_line_edit(editor, self.marks)
        if self._is_text(index):
            self._session += 1
            key = ("form-typing", id(self.owner), self._session)
            r, c = index.row(), index.column()
            editor.textEdited.connect(lambda text, r=r, c=c, k=key: self.owner.commit_live(r, c, text, k))
            editor.setProperty("form_row", r)
        return editor

    def eventFilter(self, editor: Any, event: Any) -> bool:  # noqa: N802 - Qt's name
        """A CAT tool's keys in a form's text: Tab / Enter commit it and open the next form's text
        (Shift+Tab the previous one), never the feature column beside it; no mouse needed."""
        if event.type() == QEvent.KeyPress and isinstance(editor, QLineEdit) and editor.property("form_row") is not None:
            key, mods = event.key(), event.modifiers() & ~Qt.KeypadModifier
            step = {Qt.Key_Tab: 1, Qt.Key_Return: 1, Qt.Key_Enter: 1, Qt.Key_Backtab: -1}.get(key)
            if step is not None and mods in (Qt.NoModifier, Qt.ShiftModifier):
                if key == Qt.Key_Tab and mods == Qt.ShiftModifier:
                    step = -1
                r = int(editor.property("form_row"))
                self.commitData.emit(editor)
                self.closeEditor.emit(editor, QAbstractItemDelegate.NoHint)
                QTimer.singleShot(0, lambda: self.owner.edit_next_form(r, step))
                return True
        return super().eventFilter(editor, event)


class FormEditor(QWidget):
    """Edits ``doc.corpus.<list_name>[row]``'s forms; every change is one undoable edit."""

    edited = Signal()
    notice = Signal(str)  # for the status bar: an edit refused (two forms typed as one)

    def __init__(self, doc: CorpusDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.list_name = ""
        self.row = -1
        self._building = False
        self._committing = False
        self._skip_rebuild = False
        self._typing_key: Any = None  # the open cell editor's typing session (commit_live)
        self.placeholder = False  # showing one blank row for an entry without forms
        # per table row: ("real", index into the entry's forms) or ("ghost", features) — a labelled
        # blank row for a feature combination the templates need and no form covers yet
        self.row_kinds: list[tuple[str, Any]] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self._build_heading_rows()
        self._build_table()
        buttons = self._build_buttons()
        self._build_entry_features_row()
        self._lay_out(layout, buttons)
        doc.changed.connect(self._on_doc_changed)
        doc.structure_changed.connect(self._on_structure)
        connect_retranslate(self)
        self.retranslate()
        self.show_entry("", -1)

    # -- building (called once, in this order: it sets the widget tree and the focus chain) -------
    def _build_heading_rows(self) -> None:
        """The entry's title and source text, the select row, and (templates) who feels the emotion."""
        self.title = QLabel()
        self.title.setTextFormat(Qt.RichText)
        self.title.setWordWrap(True)
        self.source = QLabel()
        self.source.setWordWrap(True)
        self.source.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.select_row = QWidget()
        sel = QHBoxLayout(self.select_row)
        sel.setContentsMargins(0, 0, 0, 0)
        self.select_label = QLabel()
        self.select_edit = QLineEdit()
        self.select_edit.editingFinished.connect(self._commit_select)
        sel.addWidget(self.select_label)
        sel.addWidget(self.select_edit, 1)
        # templates: who feels the emotion word (E016: the word agrees with that referent)
        self.experiencer_row = QWidget()
        exp = QHBoxLayout(self.experiencer_row)
        exp.setContentsMargins(0, 0, 0, 0)
        self.experiencer_label = QLabel()
        self.experiencer_box = QComboBox()
        self.experiencer_box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.experiencer_box.currentIndexChanged.connect(lambda _i: self._commit_experiencer())
        exp.addWidget(self.experiencer_label)
        exp.addWidget(self.experiencer_box)
        exp.addStretch(1)
        # room for glyphs that reach past their advance (the first letter of Arabic "مَن", "يُختار"):
        # this editor has no margins, and a label clips its own painting at the pane's edge
        for label in (self.title, self.source, self.select_label, self.experiencer_label):
            label.setContentsMargins(3, 0, 3, 0)

    def _build_table(self) -> None:
        """One row per form: its text, then a combo per feature; spelling marks repaint it."""
        self.table = QTableWidget(0, 1)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.itemChanged.connect(self._commit_text)
        self.table.setItemDelegate(_TextDelegate(self))
        self.table.setContextMenuPolicy(Qt.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        marks_for(self.doc).changed.connect(self.table.viewport().update)
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.viewport().installEventFilter(self)  # the Text column re-fits when the pane narrows

    def _build_buttons(self) -> QHBoxLayout:
        """Add form, remove form."""
        buttons = QHBoxLayout()
        self.add_button = QPushButton()
        self.add_button.clicked.connect(self.add_form)
        self.remove_button = QPushButton()
        self.remove_button.clicked.connect(self.remove_form)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        return buttons

    def _build_entry_features_row(self) -> None:
        """Entry-level features (German "das Mädchen": female person, grammatically neuter);
        _build_entry_row fills it for each entry shown."""
        self.entry_row = QWidget()
        # wraps onto a second line where the pane is narrow (German: five features; "(qualquer)")
        self.entry_layout = FlowLayout(self.entry_row)
        self.entry_layout.setContentsMargins(0, 0, 0, 0)
        self.entry_label = QLabel()
        self.entry_boxes: dict[str, QComboBox] = {}

    def _lay_out(self, layout: QVBoxLayout, buttons: QHBoxLayout) -> None:
        """Top to bottom: heading rows, entry features (wrapping), the forms, the buttons."""
        layout.addWidget(self.title)
        layout.addWidget(self.source)
        layout.addWidget(self.select_row)
        layout.addWidget(self.experiencer_row)
        # a flow of "feature: value" pairs: an entry with many features (German: five) takes a
        # second line instead of making the window wider than the screen or hiding a choice
        # beyond the pane's edge (tests/test_gui_workbench_layout.py, 1280 pixels)
        layout.addWidget(self.entry_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)

    # -- what is shown ----------------------------------------------------------
    @property
    def entry(self) -> Any:
        if not self.list_name or self.row < 0:
            return None
        entries = getattr(self.doc.corpus, self.list_name)
        return entries[self.row] if self.row < len(entries) else None

    @property
    def is_template(self) -> bool:
        return self.list_name == "templates"

    def features(self) -> list[str]:
        return list(self.doc.corpus.features)

    @property
    def published_column(self) -> int:
        """Templates only: the column of the published (paper) text, after the features."""
        return 1 + len(self.features())

    def rows(self) -> list[Any]:
        e = self.entry
        if e is None:
            return []
        return e.variants if self.is_template else e.forms

    def needed(self) -> list[dict[str, str]]:
        """The feature combinations the templates (or the source, or the language) need."""
        e = self.entry
        if e is None or self.is_template:
            return [{}]
        return needed_combinations(self.doc.corpus, self.list_name, e, self.doc.source_entry(self.list_name, e.id))

    def missing(self) -> list[dict[str, str]]:
        e = self.entry
        if e is None or self.is_template:
            return []
        return missing_forms(self.doc.corpus, self.list_name, e, self.doc.source_entry(self.list_name, e.id))

    def _row_label(self, r: int, item: Any) -> str:
        kind, what = self.row_kinds[r]
        feats = what if kind == "ghost" else item.features
        return _combo_text(feats) or str(r + 1)

    def retranslate(self, *_args: Any) -> None:
        self.add_button.setText(_("Add variant") if self.is_template else _("Add form"))
        self.remove_button.setText(_("Remove selected"))
        self.select_label.setText(_("Variant chosen by:"))
        self.entry_label.setText(_("Whole entry:"))
        self.entry_label.setMinimumWidth(self.entry_label.sizeHint().width())  # never squeezed (Spanish, German)
        self.entry_label.setToolTip(_("Features of the entry itself, for every form: e.g. German “das Mädchen” is "
                                      "a female person but grammatically neuter (gender = n)"))
        self.select_edit.setPlaceholderText(_("e.g. gender=person.gender"))
        self.experiencer_label.setText(_("Experiencer:"))
        self.experiencer_label.setMinimumWidth(self.experiencer_label.sizeHint().width())
        self.show_entry(self.list_name, self.row)

    def show_entry(self, list_name: str, row: int) -> None:
        self.list_name, self.row = list_name, row
        e = self.entry
        self._building = True
        try:
            self.table.clear()
            enabled = e is not None
            for w in (self.table, self.add_button, self.remove_button):
                w.setEnabled(enabled)
            self.select_row.setVisible(enabled and self.is_template)
            self.experiencer_row.setVisible(enabled and self.is_template)
            self._build_entry_row(e)
            self._fill_experiencer(e)
            if e is None:
                self.title.setText("<b>%s</b>" % _("Form editor"))
                self.source.setText(_("Select an entry in the table above to edit its forms and grammatical features."))
                self.table.setRowCount(0)
                self.table.setColumnCount(0)
                return
            self.add_button.setText(_("Add variant") if self.is_template else _("Add form"))
            self.title.setText("<b>%s › %s</b>" % (_(LIST_TITLES[list_name]), e.id))
            self.source.setText(self._source_text(e))
            feats = self.features()
            # features right after the text, so "which form is feminine" is visible without scrolling
            headers = [_("Text")] + feats + ([_("Published text")] if self.is_template else [])
            self.table.setColumnCount(len(headers))
            self.table.setHorizontalHeaderLabels(headers)
            rows = list(self.rows())
            self.row_kinds = [("real", i) for i in range(len(rows))]
            # one labelled blank row per feature combination still needed (gender=f, gender=m):
            # the translator types, never clicks "Add form" and picks features first
            ghosts = self.missing()
            self.placeholder = not rows
            if self.is_template and not rows:
                ghosts = [{}]
            for combo in ghosts:
                rows.append(Variant("", dict(combo)) if self.is_template else Form("", dict(combo)))
                self.row_kinds.append(("ghost", combo))
            self.table.setRowCount(len(rows))
            self.table.setVerticalHeaderLabels([self._row_label(r, item) for r, item in enumerate(rows)])
            for r, item in enumerate(rows):
                self._fill_row(r, item, feats)
            self._size_columns()
            self.table.horizontalScrollBar().setValue(0)  # the Text column in view, never a left-over offset
            if self.is_template:
                self.select_edit.setText(", ".join(f"{k}={v}" for k, v in e.select.items()))
        finally:
            self._building = False

    def _fill_row(self, r: int, item: Any, feats: list[str]) -> None:
        """Row ``r``: the form's text (a ghost row says what to type), the published template, a combo per feature."""
        text = QTableWidgetItem(item.text)
        ghost = self.row_kinds[r][0] == "ghost"
        if ghost:
            combo = self.row_kinds[r][1]
            text.setToolTip(_("Type the form with {features} here").format(features=_combo_text(combo))
                            if combo else _("Type the form here; add more forms for other genders, cases…"))
        self.table.setItem(r, 0, text)
        offset = 1
        if self.is_template:
            published = QTableWidgetItem(item.published)
            published.setToolTip(_("The template as printed in the paper (for reference; not used to generate)"))
            self.table.setItem(r, self.published_column, published)
        for c, feat in enumerate(feats):
            box = QComboBox()
            box.addItem(_("(any)"), ANY)
            for value in self.doc.corpus.features.get(feat, []):
                box.addItem(value, value)
            current = item.features.get(feat, ANY)
            if box.findData(current) < 0:  # an undeclared value: show it so it can be fixed
                box.addItem(f"{current} ⚠", current)
            box.setCurrentIndex(box.findData(current))
            box.setEnabled(not ghost)  # a needed combination's features are its label
            box.currentIndexChanged.connect(lambda _i, r=r, f=feat, b=box: self._commit_feature(r, f, b.currentData()))
            self.table.setCellWidget(r, c + offset, box)

    def _size_columns(self) -> None:
        """Room for the text and every combo box; right-to-left text keeps its start in view."""
        self.table.resizeColumnsToContents()
        # no feature column narrower than its combo box's text, the stretched last one included
        boxes = [self.table.cellWidget(r, c) for r in range(self.table.rowCount())
                 for c in range(self.table.columnCount()) if isinstance(self.table.cellWidget(r, c), QComboBox)]
        self.table.horizontalHeader().setMinimumSectionSize(max([b.sizeHint().width() for b in boxes] + [40]))
        self._text_width = max(220, min(self.table.columnWidth(0) + 16, 460))
        if self.is_template:
            self.table.setColumnWidth(self.published_column,
                                      max(120, min(self.table.columnWidth(self.published_column) + 16, 300)))
        self._fit_text_column()

    def _fit_text_column(self) -> None:
        """The Text column takes the width its forms want, less what the feature columns beside it
        need to stay in view (down to TEXT_FLOOR): in the narrow pane of a 1280 × 800 window the
        combo of every feature ("(any)", "(qualquer)", "(qualsiasi)") is whole, not cut off at the
        pane's edge. Right-to-left text keeps its start (the right end) in view as well."""
        width = getattr(self, "_text_width", 0)
        if not width or self.table.columnCount() < 1:
            return
        view = self.table.viewport().width()
        grid = 1 if self.table.showGrid() else 0  # a section is its combo box and the grid line
        features = len(self.features()) * (self.table.horizontalHeader().minimumSectionSize() + grid)
        width = max(TEXT_FLOOR, min(width, view - features))
        if self.doc.rtl:  # the sentence starts at the right: keep that end inside the visible area
            width = max(TEXT_FLOOR, min(width, view - 160))
        self.table.setColumnWidth(0, width)

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 - Qt's name
        if watched is self.table.viewport() and event.type() == QEvent.Resize \
                and event.size().width() != event.oldSize().width():
            self._fit_text_column()  # the splitter or the window changed the pane's width
        return super().eventFilter(watched, event)

    def _fill_experiencer(self, e: Any) -> None:
        """"inferred: <value>" and the four referents; enabled only where there is an emotion word."""
        box = self.experiencer_box
        box.clear()
        if e is None or not self.is_template:
            return
        inferred = inferred_experiencers(e, self.doc.corpus.language)
        shown = list_separator().join(experiencer_label(v) for v in inferred) or "–"
        box.addItem(_("inferred: {value}").format(value=shown), INFERRED)
        for value in EXPERIENCERS:
            box.addItem(experiencer_label(value, long=True), value)
        if e.experiencer and box.findData(e.experiencer) < 0:  # not a known referent: show it so it can be fixed
            box.addItem(f"{e.experiencer} ⚠", e.experiencer)
        box.setCurrentIndex(max(0, box.findData(e.experiencer)))
        has_slot = bool(inferred)
        box.setEnabled(has_slot or bool(e.experiencer))
        what = _("Who feels the emotion word: the person, the speaker (“… made me feel furious”), a third party, "
                 "or a noun the word describes (“a furious situation”). The emotion word agrees with the one who "
                 "feels it (checker E016). Inferred: read from the sentence when not chosen.")
        if not has_slot:
            what = _("This template has no emotion-word slot: nobody feels an emotion word here.")
        box.setToolTip(what)
        self.experiencer_label.setToolTip(what)

    def _commit_experiencer(self) -> None:
        e = self.entry
        if self._building or e is None or not self.is_template:
            return
        value = self.experiencer_box.currentData() or INFERRED
        self._committing = True  # the rebuild waits for the next event-loop turn: the combo outlives its signal
        try:
            self.doc.set((self.list_name, self.row, "experiencer"), value,
                         _("Set who feels the emotion word in {item}").format(item=isolated(e.id)))
        finally:
            self._committing = False

    def _build_entry_row(self, e: Any) -> None:
        """One combo per feature for the entry as a whole (persons and emotion words only)."""
        while self.entry_layout.count():
            w = self.entry_layout.takeAt(0).widget()
            if w is not None and w is not self.entry_label:
                w.hide()  # gone from the screen now, not at the next event-loop turn
                w.setParent(None)
                w.deleteLater()
        self.entry_boxes = {}
        show = e is not None and hasattr(e, "features") and self.list_name in ("persons", "emotion_words")
        self.entry_row.setVisible(bool(show))
        if not show:
            return
        self.entry_layout.addWidget(self.entry_label)
        for feat in self.features():
            name = QLabel(f"{feat}:")
            name.setMinimumWidth(name.sizeHint().width())
            box = QComboBox()
            box.addItem(_("(from the group)") if feat == "gender" and self.list_name == "persons" else _("(any)"), ANY)
            for value in self.doc.corpus.features.get(feat, []):
                box.addItem(value, value)
            current = e.features.get(feat, ANY)
            if box.findData(current) < 0:
                box.addItem(f"{current} ⚠", current)
            box.setCurrentIndex(box.findData(current))
            # its whole text always ("(from the group)"): where room is short (German has five
            # features) the row scrolls in its scroll area, and the window still fits 1280 pixels
            box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
            box.setMinimumWidth(box.sizeHint().width())
            box.currentIndexChanged.connect(lambda _i, f=feat, b=box: self._commit_entry_feature(f, b.currentData()))
            self.entry_layout.addWidget(labelled_pair(name, box))
            self.entry_boxes[feat] = box
        self.entry_layout.activate()

    def _commit_entry_feature(self, feat: str, value: str) -> None:
        e = self.entry
        if self._building or e is None:
            return
        feats = dict(e.features)
        if value:
            feats[feat] = value
        else:
            feats.pop(feat, None)
        self._committing = True
        try:
            self.doc.set((self.list_name, self.row, "features"), feats,
                         _("Set {feature} of {item}").format(feature=feat, item=isolated(e.id)))
        finally:
            self._committing = False

    def _source_text(self, e: Any) -> str:
        src = self.doc.source_entry(self.list_name, e.id)
        if src is not None:
            if self.is_template:
                text = "  ‖  ".join(v.text for v in src.variants)
            else:
                text = " / ".join(f"{f.text}" + (f" ({', '.join(f'{k}={v}' for k, v in f.features.items())})"
                                                  if f.features else "") for f in src.forms)
            return _("Source ({corpus}): {text}").format(corpus=isolated(self.doc.source.id), text=text)
        if e.review.source:
            return _("Source: {text}").format(text=e.review.source)
        return ""

    # -- edits ------------------------------------------------------------------
    def _path(self) -> tuple:
        return (self.list_name, self.row, "variants" if self.is_template else "forms")

    def _edit(self, new_rows: list[Any], text: str, merge_key: Any = None, rebuild: bool = True) -> None:
        # The edit rebuilds this editor; the cell or combo that sent the signal must outlive
        # its own handler, so the rebuild is deferred to the next event-loop turn. A text typed
        # in this editor is already on screen: no rebuild, so the open cell editor stays open.
        self._committing, self._skip_rebuild = True, not rebuild
        entry = copy.deepcopy(self.entry)
        if self.is_template:
            entry.variants = new_rows
        else:
            entry.forms = new_rows
        # the status follows the work: translated once every needed form is there, new again if emptied
        auto_status(self.list_name, entry, [] if self.is_template else missing_forms(
            self.doc.corpus, self.list_name, entry, self.doc.source_entry(self.list_name, entry.id)),
            translator=settings.get("translator_id") or "")
        try:
            self.doc.set((self.list_name, self.row), entry, text, merge_key=merge_key)
        finally:
            self._committing, self._skip_rebuild = False, False
        self.edited.emit()

    def _editable_rows(self) -> list[Any]:
        rows = copy.deepcopy(self.rows())
        if not rows and self.placeholder and self.is_template:
            rows = [Variant("")]
        return rows

    def _with_text(self, r: int, c: int, text: str, final: bool = False) -> list[Any] | None:
        rows = self._editable_rows()
        if r >= len(self.row_kinds) or not (c == 0 or (self.is_template and c == self.published_column)):
            return None
        kind, what = self.row_kinds[r]
        if kind == "ghost" and not self.is_template:
            # the form typed into a needed combination's row: found again by its features
            i = next((k for k, f in enumerate(rows) if f.features == what and not f.absent), -1)
            if i < 0:
                if not text:
                    return None
                rows.append(Form("", dict(what)))
                i = len(rows) - 1
        else:
            i = what if kind == "real" else 0
        if i >= len(rows):
            return None
        if c == 0:
            rows[i].text = text
        else:
            rows[i].published = text
        if not self.is_template and not text and (kind == "ghost" or final) and not rows[i].absent:
            del rows[i]  # emptied: the combination is needed again (a blank row), not an "empty form"
        return rows

    def commit_live(self, r: int, c: int, text: str, key: Any) -> None:
        """One keystroke in a form's text: an edit (merged into one undo step per cell editor)."""
        if self._building or self.entry is None:
            return
        self._typing_key = key  # this cell editor's session (undo_typing_session)
        rows = None if self._two_forms(c, text, final=False) else self._with_text(r, c, text)
        if rows is not None:
            self._edit(rows, _("Edit form of {item}").format(item=isolated(self.entry.id)), merge_key=key, rebuild=False)

    def _commit_text(self, item: QTableWidgetItem) -> None:
        if self._building or self.entry is None:
            return
        if self._two_forms(item.column(), item.text(), final=True):
            undo_typing_session(self.doc, (self.list_name, self.row), self._typing_key)
            QTimer.singleShot(0, lambda: self.show_entry(self.list_name, self.row))  # the cell shows what is stored
            return
        rows = self._with_text(item.row(), item.column(), item.text(), final=True)
        if rows is not None:
            self._edit(rows, _("Edit form of {item}").format(item=isolated(self.entry.id)), rebuild=False)

    def _two_forms(self, c: int, text: str, final: bool) -> bool:
        """A form's text holding two forms ("arrabbiata / arrabbiato", checker E027) is not stored;
        when the cell closes the status bar says how to enter them, one row each."""
        problem = "" if self.is_template or c != 0 else separator_problem(text, self.doc.corpus.language)
        if problem and final:
            self.notice.emit(_("Not stored: {problem}").format(problem=problem))
        return bool(problem)

    def _commit_feature(self, r: int, feat: str, value: str) -> None:
        if self._building or self.entry is None:
            return
        rows = self._editable_rows()
        if r >= len(self.row_kinds) or self.row_kinds[r][0] != "real":
            return
        r = self.row_kinds[r][1]
        if value:
            rows[r].features[feat] = value
        else:
            rows[r].features.pop(feat, None)
        self._edit(rows, _("Set {feature} of {item}").format(feature=feat, item=isolated(self.entry.id)))

    def spelling_menu(self, pos: Any) -> Any:
        """The spelling menu for the word at ``pos`` in a form's text (viewport coordinates), or None."""
        index = self.table.indexAt(pos)
        if not index.isValid() or index.column() != 0 or self.entry is None:
            return None
        r = index.row()
        return cell_menu(self.table, index, pos, marks_for(self.doc), self.doc.rtl,
                         lambda text: self.set_form_text(r, text))

    def _context_menu(self, pos: Any) -> None:
        menu = self.spelling_menu(pos)
        if menu is not None:
            menu.exec(self.table.viewport().mapToGlobal(pos))
            menu.deleteLater()

    def set_form_text(self, r: int, text: str) -> None:
        """Programmatic edit of one form's text (used by tests and by paste)."""
        self.table.item(r, 0).setText(text)

    def edit_first_empty(self) -> bool:
        """Open the first empty text row (else the first row) for typing: where a jump to an item
        still to translate puts the cursor when its forms are edited here."""
        if self.entry is None or not self.table.rowCount():
            return False
        rows = range(self.table.rowCount())
        r = next((r for r in rows if not (self.table.item(r, 0) and self.table.item(r, 0).text().strip())), 0)
        index = self.table.model().index(r, 0)
        self.table.setFocus()
        self.table.setCurrentIndex(index)
        self.table.edit(index)
        return True

    def edit_row(self, r: int) -> bool:
        """Open form ``r``'s text for typing."""
        if self.entry is None or not 0 <= r < self.table.rowCount():
            return False
        index = self.table.model().index(r, 0)
        self.table.setFocus()
        self.table.setCurrentIndex(index)
        self.table.edit(index)
        return True

    def edit_next_form(self, r: int, step: int = 1) -> bool:
        """After Tab / Enter in form ``r``: the next (previous) form's text; past the last form, the
        first one still empty, if any (else the cursor stays in the table, ready for Ctrl+Enter)."""
        if self.edit_row(r + step):
            return True
        empty = [k for k in range(self.table.rowCount())
                 if not (self.table.item(k, 0) and self.table.item(k, 0).text().strip())]
        if empty and empty[0] != r:
            return self.edit_row(empty[0])
        self.table.setFocus()
        return False

    def feature_box(self, r: int, feature: str) -> QComboBox | None:
        """The combo box choosing ``feature`` for form (or variant) ``r``."""
        feats = self.features()
        if feature not in feats:
            return None
        w = self.table.cellWidget(r, 1 + feats.index(feature))
        return w if isinstance(w, QComboBox) else None

    def add_form(self) -> None:
        if self.entry is None:
            return
        rows = self._editable_rows()
        rows.append(Variant("") if self.is_template else Form(""))
        self._edit(rows, _("Add form to {item}").format(item=isolated(self.entry.id)))

    def remove_form(self) -> None:
        if self.entry is None:
            return
        picked = sorted({self.row_kinds[i.row()][1] for i in self.table.selectedIndexes()
                         if i.row() < len(self.row_kinds) and self.row_kinds[i.row()][0] == "real"}, reverse=True)
        if not picked:
            return
        rows = copy.deepcopy(self.rows())
        for r in picked:
            if r < len(rows):
                del rows[r]
        self._edit(rows, _("Remove form from {item}").format(item=isolated(self.entry.id)))

    def _commit_select(self) -> None:
        e = self.entry
        if self._building or e is None or not self.is_template:
            return
        select: dict[str, str] = {}
        for part in self.select_edit.text().split(","):
            if "=" in part:
                k, v = part.split("=", 1)
                if k.strip():
                    select[k.strip()] = v.strip()
        self.doc.set((self.list_name, self.row, "select"), select, _("Edit variant selection of {item}").format(item=isolated(e.id)))

    def _on_structure(self, _list_name: str) -> None:
        self.show_entry(self.list_name, self.row)

    def _on_doc_changed(self, path: tuple) -> None:
        mine = len(path) >= 2 and path[0] == self.list_name and path[1] == self.row
        if mine or len(path) == 1 or (path and path[0] == "features"):
            if self._committing and self._skip_rebuild:
                return
            if self._committing:
                QTimer.singleShot(0, lambda: self.show_entry(self.list_name, self.row))
            else:
                self.show_entry(self.list_name, self.row)
