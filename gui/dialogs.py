"""Small dialogs: preferences, "new corpus" and "translate into a new language".

Why language names come from babel: a German speaker looks for "Deutsch", an Arabic speaker
for "العربية"; CLDR has every language's own name, so the list needs no translation at all.
"""
from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.common.ids import is_corpus_id
from gui import i18n, settings
from gui.i18n import _, pgettext
from gui.workbench.language_picker import LanguagePicker


def corpus_id_rule_text() -> str:
    """The corpus-id rule (engine.common.ids) as the new-corpus and translate dialogs say it."""
    return _("The corpus id may contain only letters, digits, '-' and '_', at most 100 characters "
             "(it names the file).")


class PreferencesDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Preferences"))
        self.setMinimumWidth(480)
        self.language = QComboBox()
        self.language.addItem(_("System default ({name})").format(name=i18n.language_name(i18n.system_language())), "")
        for name, code in sorted((i18n.language_name(c), c) for c in i18n.available_languages()):
            self.language.addItem(name, code)  # each language in itself, from babel's CLDR data
        self.language.setCurrentIndex(max(0, self.language.findData(settings.get("language") or "")))
        self.translator = QLineEdit(settings.get("translator_id") or "")
        self.translator.setPlaceholderText(_("e.g. your initials; recorded when you mark entries reviewed"))
        self.autosave = QDoubleSpinBox()
        self.autosave.setRange(1, 300)
        self.autosave.setSuffix(" " + pgettext("unit of time: seconds", "s"))
        self.autosave.setValue(float(settings.get("autosave_seconds") or 5))
        form = QFormLayout()
        form.addRow(_("Interface language:"), self.language)
        form.addRow(_("Translator id:"), self.translator)
        form.addRow(_("Autosave every:"), self.autosave)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def apply(self) -> str:
        """Store the choices and switch the UI language now; returns the language in use."""
        code = self.language.currentData() or ""
        settings.put("language", code)
        settings.put("translator_id", self.translator.text().strip())
        settings.put("autosave_seconds", float(self.autosave.value()))
        return i18n.set_language(code or i18n.system_language())


def _entry_text(key: str, e: Any) -> str:
    """What the translator recognises an item by: a template's text, an entry's forms."""
    if key == "templates":
        return " ‖ ".join(v.text for v in e.variants)
    return " / ".join(f.text for f in e.forms)


def _subset_list(key: str, entries: list[Any]) -> QListWidget:
    box = QListWidget()
    for e in entries:
        text = _entry_text(key, e)
        item = QListWidgetItem(f"{e.id} — {text}" if text and text != e.id else e.id)
        item.setData(Qt.UserRole, e.id)
        item.setToolTip(text)
        item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
        item.setCheckState(Qt.Checked)
        box.addItem(item)
    return box


def _checked(box: QListWidget) -> list[str]:
    """The ticked ids; [] when all are ticked (= take everything)."""
    ids = [box.item(i).data(Qt.UserRole) for i in range(box.count()) if box.item(i).checkState() == Qt.Checked]
    return [] if len(ids) == box.count() else ids


class TranslateDialog(QDialog):
    """Asks for the source corpus, the new corpus's language (by name), id and name, and which items
    to take (ticked in lists that show each template's text, or typed: "keep only T01, T04")."""

    def __init__(self, source_id: str, parent: QWidget | None = None, source: Any = None) -> None:
        super().__init__(parent)
        from engine.corpus.definition.registry import list_corpora

        self.source_id = source_id
        self.source = source
        self.entries = list_corpora()
        self.taken_ids = {e.id for e in self.entries}
        self.source_box = QComboBox()
        for e in self.entries:
            self.source_box.addItem(e.id, str(e.path))
        self.source_box.setCurrentIndex(max(0, self.source_box.findText(source_id)))
        self.source_box.currentIndexChanged.connect(lambda _i: self._source_chosen())
        self.language = LanguagePicker()
        self.corpus_id = QLineEdit()
        self.name = QLineEdit()
        self.language.tag_changed.connect(self._suggest)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("QLabel { color: #b00020; }")
        self.keep_only = QLineEdit()
        self.keep_only.setPlaceholderText(_("e.g. T01, T04, T05 — only these are ticked (Enter)"))
        # Enter keeps the typed ids and stays in the dialog: it must not also press OK (a typo such as
        # "T3" was dropped without a word, and the corpus got 2 templates instead of 3 — issue 39)
        self.keep_only.installEventFilter(self)
        form = QFormLayout()
        for text, widget in ((_("&Source corpus:"), self.source_box), (_("&Language:"), self.language),
                             (_("Corpus &id:"), self.corpus_id), (_("&Name:"), self.name),
                             (_("&Keep only:"), self.keep_only)):
            label = QLabel(text)
            label.setBuddy(widget)
            form.addRow(label, widget)
        # a subset: untick what the new corpus does not need (3 templates of 11, say)
        self.subset: dict[str, QListWidget] = {}
        self.subset_row = QHBoxLayout()
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.corpus_id.textChanged.connect(lambda _t: self._validate())
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(form)
        self.subset_label = QLabel(_("Take only the ticked items (everything is ticked at first):"))
        self.subset_label.setWordWrap(True)
        layout.addWidget(self.subset_label)
        layout.addLayout(self.subset_row)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(640)
        self._show_source(source)
        self._validate()

    def _source_chosen(self) -> None:
        from engine.corpus import load_corpus

        path = self.source_box.currentData()
        try:
            source = load_corpus(path)
        except Exception as exc:  # noqa: BLE001 - shown in the dialog, the choice stays open
            self.problem.setText(_("{corpus} cannot be read: {why}").format(corpus=self.source_box.currentText(), why=exc))
            return
        self._show_source(source)
        self._suggest(self.language.tag())

    def _show_source(self, source: Any) -> None:
        self.source = source
        if source is not None:
            self.source_id = source.id
        self.setWindowTitle(_("Translate from {corpus}").format(corpus=self.source_id))
        self.intro.setText(_("The new corpus keeps the template, person and emotion-word ids of {corpus}; every "
                             "target form starts empty with the source text shown beside it.").format(corpus=self.source_id))
        while self.subset_row.count():
            item = self.subset_row.takeAt(0)
            lay = item.layout()
            while lay is not None and lay.count():
                w = lay.takeAt(0).widget()
                if w is not None:
                    w.deleteLater()
        self.subset = {}
        if source is None:
            return
        for key, title in (("templates", _("Templates")), ("persons", _("Persons")),
                           ("emotion_words", _("Emotion words"))):
            col = QVBoxLayout()
            col.addWidget(QLabel(title))
            self.subset[key] = _subset_list(key, getattr(source, key))
            # the items are in the source corpus's language: its direction, whatever the interface's
            self.subset[key].setLayoutDirection(Qt.RightToLeft if source.direction == "rtl" else Qt.LeftToRight)
            self.subset[key].setMinimumHeight(150)
            col.addWidget(self.subset[key])
            self.subset_row.addLayout(col, 2 if key == "templates" else 1)

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 - Qt's name
        from PySide6.QtCore import QEvent

        if (watched is self.keep_only and event.type() == QEvent.KeyPress
                and event.key() in (Qt.Key_Return, Qt.Key_Enter)):
            self.keep(self.keep_only.text())
            return True  # consumed: the dialog's default button is not pressed
        return super().eventFilter(watched, event)

    def keep(self, text: str) -> int:
        """Tick only the typed ids (comma- or space-separated) in each list that has any of them;
        says which ids are unknown. Returns how many items stay ticked."""
        wanted = {w for w in re.split(r"[,\s]+", text) if w}
        found: set[str] = set()
        for box in self.subset.values():
            ids = {box.item(i).data(Qt.UserRole) for i in range(box.count())}
            hit = wanted & ids
            if not hit:
                continue
            found |= hit
            for i in range(box.count()):
                box.item(i).setCheckState(Qt.Checked if box.item(i).data(Qt.UserRole) in hit else Qt.Unchecked)
        self.unknown_ids = sorted(wanted - found)
        self._validate()
        if self.unknown_ids:  # shown even before a language is chosen; OK waits until it is corrected
            self.problem.setText(self._unknown_text())
        return sum(box.item(i).checkState() == Qt.Checked for box in self.subset.values() for i in range(box.count()))

    def _suggest(self, lang: str) -> None:
        """Propose an id the user can keep: the language and the source's tail, numbered when taken
        (it-kiritchenko2018 is a built-in corpus since issue 43: it-kiritchenko2018-2)."""
        tail = self.source_id.split("-", 1)[1] if "-" in self.source_id else self.source_id
        new_id, n = f"{lang}-{tail}" if lang else "", 2
        while new_id and new_id in self.taken_ids:
            new_id, n = f"{lang}-{tail}-{n}", n + 1
        self.corpus_id.setText(new_id)
        self._validate()

    def _unknown_text(self) -> str:
        return _("Not in {corpus}: {ids}").format(corpus=self.source_id, ids=", ".join(self.unknown_ids))

    def problem_text(self) -> str:
        """Why the values cannot be used yet ('' when they can)."""
        if getattr(self, "unknown_ids", None):
            return self._unknown_text()
        typed = self.language.currentText().strip()
        if not typed:
            return _("Choose the language of the new corpus, e.g. French, or type a tag such as es-MX.")
        if not self.language.tag():
            return _("“{tag}” is not a language name or tag: choose one from the list or type a tag such as "
                     "es-MX or zh-Hant.").format(tag=typed)
        new_id = self.corpus_id.text().strip()
        if new_id and not is_corpus_id(new_id):
            return corpus_id_rule_text()
        if new_id in self.taken_ids:
            # refused before anything is written: two corpora with one id would shadow each other
            return _("A corpus with the id “{id}” exists already: choose another id (e.g. {id}-2).").format(id=new_id)
        return ""

    def _validate(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem if self.language.currentText().strip() else "")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(not problem)

    def values(self) -> dict[str, Any]:
        from engine.corpus.translate.new_language import Subset

        out: dict[str, Any] = {"language": self.language.tag(), "new_id": self.corpus_id.text().strip(),
                               "name": self.name.text().strip()}
        if self.subset:
            out["subset"] = Subset(**{k: _checked(box) for k, box in self.subset.items()})
        return out

    def source_path(self) -> str:
        return self.source_box.currentData() or ""


class NewCorpusDialog(QDialog):
    """An empty corpus: its language by name, the grammatical features its language family needs
    (preset, editable: one feature per row, values comma-separated), its id and name."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("New corpus"))
        self.language = LanguagePicker()
        self.language.tag_changed.connect(self._language_chosen)
        self.family = QLabel()
        self.family.setWordWrap(True)
        self.features = QTableWidget(0, 2)
        self.features.setHorizontalHeaderLabels([_("Feature"), _("Values")])
        self.features.horizontalHeader().setStretchLastSection(True)
        self.features.verticalHeader().setVisible(False)
        self.add_feature = QPushButton(_("Add feature"))
        self.add_feature.clicked.connect(lambda: self.features.insertRow(self.features.rowCount()))
        self.corpus_id = QLineEdit()
        self.name = QLineEdit()
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("QLabel { color: #b00020; }")
        form = QFormLayout()
        form.addRow(_("Language:"), self.language)
        form.addRow("", self.family)
        form.addRow(_("Grammatical features:"), self.features)
        form.addRow("", self.add_feature)
        form.addRow(_("Corpus id:"), self.corpus_id)
        form.addRow(_("Name:"), self.name)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.corpus_id.textChanged.connect(lambda _t: self._validate())
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(520)
        self._validate()

    def _language_chosen(self, tag: str) -> None:
        from engine.corpus.definition.language_presets import preset_for

        if tag:
            preset = preset_for(tag)
            self.features.setRowCount(0)
            for name, values in preset.features.items():
                r = self.features.rowCount()
                self.features.insertRow(r)
                self.features.setItem(r, 0, QTableWidgetItem(name))
                self.features.setItem(r, 1, QTableWidgetItem(", ".join(values)))
            notes = {"semitic": _("Templates get masculine and feminine variants, chosen by the person's gender.")}
            self.family.setText(notes.get(preset.family, ""))
            self.corpus_id.setText(f"{tag}-my-eec")
        self._validate()

    def feature_values(self) -> dict[str, list[str]]:
        feats: dict[str, list[str]] = {}
        for r in range(self.features.rowCount()):
            name = self.features.item(r, 0).text().strip() if self.features.item(r, 0) else ""
            values = self.features.item(r, 1).text() if self.features.item(r, 1) else ""
            if name:
                feats[name] = [v.strip() for v in values.split(",") if v.strip()]
        return feats

    def problem_text(self) -> str:
        if not self.language.tag():
            return _("Choose the language of the new corpus, e.g. French, or type a tag such as es-MX.")
        if not is_corpus_id(self.corpus_id.text().strip()):
            return corpus_id_rule_text()
        return ""

    def _validate(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem if self.language.currentText().strip() else "")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(not problem)

    def values(self) -> dict[str, Any]:
        """For MainWindow.new_corpus: the preset's features replaced by the table's (all of them)."""
        from engine.corpus.definition.language_presets import preset_for

        table = self.feature_values()
        dropped = {k: [] for k in preset_for(self.language.tag()).features if k not in table}
        return {"language": self.language.tag(), "corpus_id": self.corpus_id.text().strip(),
                "name": self.name.text().strip(), "features": {**dropped, **table}}
