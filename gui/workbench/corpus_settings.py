"""Corpus-level settings: id, name, language, writing direction, the speaker's grammatical
gender, the corpus word list (spelling) and the declared features.

Why editable here: a translator starting Spanish from English must declare ``gender = [m, f]``
before forms can carry it; features not declared are checker errors (E005/E006). The speaker's
gender (``speaker_gender``) is one value for the whole corpus: where the speaker feels the
emotion (*me hizo sentir furioso*), the word keeps that gender on both sides of every pair (E016).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.i18n import _, connect_retranslate, isolated

from .document import CorpusDocument


class CorpusSettings(QWidget):
    def __init__(self, doc: CorpusDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self._building = False
        self.fields: dict[str, QLineEdit] = {}
        form = QFormLayout()
        self.labels: dict[str, QLabel] = {}
        for key in ("id", "name", "language", "description"):
            edit = QLineEdit()
            edit.editingFinished.connect(lambda k=key, e=edit: self._commit(k, e.text()))
            self.fields[key] = edit
            self.labels[key] = QLabel()
            form.addRow(self.labels[key], edit)
        self.direction = QComboBox()
        self.direction.addItem("", "ltr")
        self.direction.addItem("", "rtl")
        self.direction.currentIndexChanged.connect(lambda _i: self._commit("direction", self.direction.currentData()))
        self.labels["direction"] = QLabel()
        form.addRow(self.labels["direction"], self.direction)
        self.speaker_gender = QComboBox()
        self.speaker_gender.currentIndexChanged.connect(lambda _i: self._commit_speaker_gender())
        self.labels["speaker_gender"] = QLabel()
        form.addRow(self.labels["speaker_gender"], self.speaker_gender)
        # the corpus word list ([spelling] accept): what the spelling check (W113) accepts besides the
        # dictionary and the names; the editors' right-click adds to it, here it can be read and pruned
        self.word_list = QLineEdit()
        self.word_list.editingFinished.connect(self._commit_word_list)
        self.labels["spelling_accept"] = QLabel()
        form.addRow(self.labels["spelling_accept"], self.word_list)
        self.word_problem = QLabel()
        self.word_problem.setWordWrap(True)
        self.word_problem.setStyleSheet("QLabel { color: #b00020; }")
        self.word_problem.hide()  # shown with a refused list only: the tab is short of height at 800 pixels
        form.addRow("", self.word_problem)
        self.features_label = QLabel()
        self.features = QTableWidget(0, 2)
        self.features.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.features.itemChanged.connect(self._commit_features)
        self.add_feature = QPushButton()
        self.add_feature.clicked.connect(self._add_feature)
        # the social axes: the groups compared (gender, race, religion…) and each one's reference group
        self.axes_label = QLabel()
        self.axes_label.setWordWrap(True)
        self.axes = QTableWidget(0, 4)
        self.axes.horizontalHeader().setSectionResizeMode(2, QHeaderView.Stretch)
        self.axes.verticalHeader().setVisible(False)
        self.axes.itemChanged.connect(self._commit_axis)
        self.new_axis = QLineEdit()
        self.new_axis.returnPressed.connect(self.add_axis_from_text)
        self.add_axis_button = QPushButton()
        self.add_axis_button.clicked.connect(self.add_axis_from_text)
        self.axis_problem = QLabel()
        self.axis_problem.setWordWrap(True)
        self.axis_problem.setStyleSheet("QLabel { color: #b00020; }")
        axis_row = QHBoxLayout()
        axis_row.addWidget(self.new_axis, 1)
        axis_row.addWidget(self.add_axis_button)
        # in a scroll area: the tab's height must not set the window's minimum (800 pixels high screens)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        scroll = QScrollArea()
        scroll.setWidget(inner)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        layout.addLayout(form)
        layout.addWidget(self.features_label)
        layout.addWidget(self.features, 1)
        layout.addWidget(self.add_feature, 0, Qt.AlignLeft)
        layout.addWidget(self.axes_label)
        layout.addWidget(self.axes, 1)
        layout.addLayout(axis_row)
        layout.addWidget(self.axis_problem)
        # deferred: the edit may come from a cell of this very table, which must outlive its signal
        doc.changed.connect(self._on_doc_changed)
        connect_retranslate(self)
        self.retranslate()

    def retranslate(self, *_args: Any) -> None:
        names = {"id": _("Corpus id:"), "name": _("Name:"), "language": _("Language (BCP-47):"),
                 "description": _("Description:"), "direction": _("Writing direction:"),
                 "speaker_gender": _("Speaker's grammatical gender:"), "spelling_accept": _("Corpus word list:")}
        for key, label in self.labels.items():
            label.setText(names[key])
        self.features_label.setText(_("Grammatical features and their values (comma-separated):"))
        self.direction.setItemText(0, _("left to right"))
        self.direction.setItemText(1, _("right to left (Arabic, Hebrew…)"))
        self.features.setHorizontalHeaderLabels([_("Feature"), _("Values")])
        self.add_feature.setText(_("Add feature"))
        self.axes_label.setText(_("Social axes: the groups the audit compares, and each axis's reference group "
                                  "(edit a cell to rename; persons tagged with a renamed group follow):"))
        self.axes.setHorizontalHeaderLabels([_("Axis"), _("Title"), _("Groups"), _("Reference group")])
        self.new_axis.setPlaceholderText(_("New axis, e.g. race=white*,black (* marks the reference group)"))
        self.add_axis_button.setText(_("Add axis"))
        self.word_list.setPlaceholderText(_("words the spelling check accepts, comma-separated"))
        self.word_list.setToolTip(_("Correct words the dictionary lacks (names are accepted already); a right-click "
                                    "on an underlined word adds it here ([spelling] accept in the file)"))
        self.refresh()

    def refresh(self) -> None:
        c = self.doc.corpus
        self._building = True
        try:
            for key, edit in self.fields.items():
                if not edit.hasFocus():
                    edit.setText(str(getattr(c, key)))
            self.direction.setCurrentIndex(max(0, self.direction.findData(c.direction)))
            if not self.word_list.hasFocus():
                self.word_list.setText(", ".join(c.spelling_accept))
            self._fill_speaker_gender()
            self.features.setRowCount(len(c.features))
            for r, (name, values) in enumerate(c.features.items()):
                self.features.setItem(r, 0, QTableWidgetItem(name))
                self.features.setItem(r, 1, QTableWidgetItem(", ".join(values)))
            self.axes.setRowCount(len(c.axes))
            for r, (name, axis) in enumerate(c.axes.items()):
                name_item = QTableWidgetItem(name)
                name_item.setFlags(name_item.flags() & ~Qt.ItemIsEditable)  # the key persons are tagged with
                self.axes.setItem(r, 0, name_item)
                self.axes.setItem(r, 1, QTableWidgetItem(axis.label))
                self.axes.setItem(r, 2, QTableWidgetItem(", ".join(axis.groups)))
                self.axes.setItem(r, 3, QTableWidgetItem(axis.reference))
            # titles and short values whole ("Grupo de referencia"); the groups column stretches
            for c in (0, 1, 3):
                self.axes.resizeColumnToContents(c)
            self.features.resizeColumnToContents(0)
        finally:
            self._building = False

    # -- social axes ------------------------------------------------------------
    def add_axis_from_text(self) -> bool:
        """Add the axis typed as NAME[:Title]=GROUP*,GROUP (one undo step); says why when it cannot."""
        from engine.corpus.definition.axes import AxisError, parse_axis_option, with_axis

        text = self.new_axis.text().strip()
        if not text:
            self.axis_problem.setText(_("Type the axis first, e.g. race=white*,black."))
            return False
        try:
            axis = parse_axis_option(text)
            if axis.name in self.doc.corpus.axes:
                raise AxisError(f"axis {axis.name!r} exists already: edit its groups in the table")
        except AxisError as exc:
            self.axis_problem.setText(str(exc).removeprefix("--axis "))
            return False
        self.axis_problem.setText("")
        self.doc.set(("axes",), with_axis(self.doc.corpus, axis), _("Add axis {axis}").format(axis=axis.name))
        self.new_axis.clear()
        return True

    def _commit_axis(self, item: QTableWidgetItem) -> None:
        """A cell of the axes table: title, groups (a changed name is a rename) or reference group."""
        import copy

        from engine.corpus.definition.axes import AxisError, make_axis

        if self._building:
            return
        c = self.doc.corpus
        name = self.axes.item(item.row(), 0).text()
        axis = c.axes.get(name)
        if axis is None:
            return
        text = item.text().strip()
        try:
            if item.column() == 1:
                new = copy.deepcopy(axis)
                new.label = text
                self.doc.set(("axes", name), new, _("Edit the title of axis {axis}").format(axis=name))
            elif item.column() == 3:
                new = make_axis(name, axis.groups, text, axis.label)
                new.feature_values = dict(axis.feature_values)
                self.doc.set(("axes", name), new, _("Set the reference group of {axis}").format(axis=name))
            elif item.column() == 2:
                self._commit_groups(name, [g.strip() for g in text.split(",") if g.strip()])
            self.axis_problem.setText("")
        except AxisError as exc:
            self.axis_problem.setText(str(exc))
            QTimer.singleShot(0, self.refresh)

    def _commit_groups(self, name: str, groups: list[str]) -> None:
        """Same number of groups with one name changed: a rename (persons follow); else the new list."""
        from engine.corpus.definition.axes import make_axis, renamed_group

        c = self.doc.corpus
        axis = c.axes[name]
        changed = [(a, b) for a, b in zip(axis.groups, groups) if a != b]
        stack = self.doc.undo_stack
        if len(groups) == len(axis.groups) and len(changed) == 1:
            old, new = changed[0]
            new_axis, persons = renamed_group(c, name, old, new)
            stack.beginMacro(_("Rename group {old} to {new}").format(old=isolated(old), new=isolated(new)))
            self.doc.set(("axes", name), new_axis, _("Rename group {old} to {new}").format(old=isolated(old), new=isolated(new)))
            for i, person_groups in persons.items():
                self.doc.set(("persons", i, "groups"), person_groups, _("Rename group {old} to {new}").format(old=isolated(old), new=isolated(new)))
            stack.endMacro()
            return
        reference = axis.reference if axis.reference in groups else groups[0] if groups else ""
        new_axis = make_axis(name, groups, reference, axis.label)
        new_axis.feature_values = {g: v for g, v in axis.feature_values.items() if g in groups}
        self.doc.set(("axes", name), new_axis, _("Edit the groups of axis {axis}").format(axis=name))

    def _fill_speaker_gender(self) -> None:
        """"not set" and the corpus's gender values; disabled (and why) without a gender feature."""
        c = self.doc.corpus
        box = self.speaker_gender
        values = list(c.features.get("gender", []))
        box.clear()
        box.addItem(_("not set"), "")
        for value in values:
            box.addItem(value, value)
        if c.speaker_gender and box.findData(c.speaker_gender) < 0:  # not a gender value (any more): show it
            box.addItem(f"{c.speaker_gender} ⚠", c.speaker_gender)
        box.setCurrentIndex(max(0, box.findData(c.speaker_gender)))
        box.setEnabled(bool(values) or bool(c.speaker_gender))
        if values:
            tip = _("Where the speaker is the one who feels the emotion (“… made me feel furious”), the emotion "
                    "word takes this gender in every template and on both sides of every pair, so a pair differs "
                    "only in the person. Not set: the checker does not compare the emotion words' gender with the speaker's.")
        else:
            tip = _("This corpus has no grammatical feature “gender”, so its words do not change with the "
                    "speaker's gender. Add the feature below to set it.")
        if c.speaker_gender and c.speaker_gender not in values:
            tip = _("“{value}” is not a value of the feature “gender”: choose one of its values or “not set”.").format(
                value=c.speaker_gender)
        box.setToolTip(tip)
        self.labels["speaker_gender"].setToolTip(tip)

    def _commit_speaker_gender(self) -> None:
        if self._building:
            return
        value = self.speaker_gender.currentData() or ""
        self.doc.set(("speaker_gender",), value, _("Set the speaker's grammatical gender"))

    def _on_doc_changed(self, path: tuple) -> None:
        if len(path) == 1 or path[0] == "axes":
            QTimer.singleShot(0, self.refresh)

    def _commit_word_list(self) -> bool:
        """The list as typed (one undo step); a phrase or a number is refused with the reason."""
        from engine.corpus.check.spelling import accept_words
        from engine.corpus.definition.errors import DefinitionError

        if self._building:
            return False
        typed = [w for w in self.word_list.text().split(",") if w.strip()]
        words: list[str] = []
        for w in typed:  # the engine's test of a word, one by one, to name the one refused
            try:
                words, _added = accept_words(words, [w])
            except DefinitionError:
                self.word_problem.setText(_("“{word}” is not one word: separate the words with commas.").format(
                    word=w.strip()))
                self.word_problem.show()
                return False
        self.word_problem.setText("")
        self.word_problem.hide()
        self.doc.set(("spelling_accept",), words, _("Edit the corpus word list"))
        return True

    def _commit(self, key: str, value: str) -> None:
        if self._building:
            return
        self.doc.set((key,), value.strip(), _("Edit corpus {field}").format(field=key))

    def _read_features(self) -> dict[str, list[str]]:
        feats: dict[str, list[str]] = {}
        for r in range(self.features.rowCount()):
            name_item, values_item = self.features.item(r, 0), self.features.item(r, 1)
            name = name_item.text().strip() if name_item else ""
            if name:
                feats[name] = [v.strip() for v in (values_item.text() if values_item else "").split(",") if v.strip()]
        return feats

    def _commit_features(self, _item: QTableWidgetItem) -> None:
        if self._building:
            return
        self.doc.set(("features",), self._read_features(), _("Edit grammatical features"))

    def _add_feature(self) -> None:
        feats = dict(self.doc.corpus.features)
        n = 1
        while f"feature{n}" in feats:
            n += 1
        feats[f"feature{n}"] = []
        self.doc.set(("features",), feats, _("Add grammatical feature"))
