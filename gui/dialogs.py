"""Small dialogs: preferences (language, translator id, autosave) and "translate into a new language".

Why language names come from babel: a German speaker looks for "Deutsch", an Arabic speaker
for "العربية"; CLDR has every language's own name, so the list needs no translation at all.
"""
from __future__ import annotations

import re
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from gui import i18n, settings
from gui.i18n import _, pgettext


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


class TranslateDialog(QDialog):
    """Asks for the new corpus's language tag, id and name."""

    def __init__(self, source_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Translate from {corpus}").format(corpus=source_id))
        self.source_id = source_id
        self.language = QLineEdit()
        self.language.setPlaceholderText("de, es-MX, ar, ja …")
        self.corpus_id = QLineEdit()
        self.name = QLineEdit()
        self.language.textChanged.connect(self._suggest)
        intro = QLabel(_("The new corpus keeps the template, person and emotion-word ids of {corpus}; every "
                         "target form starts empty with the source text shown beside it.").format(corpus=source_id))
        intro.setWordWrap(True)
        self.language_name = QLabel()
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("QLabel { color: #b00020; }")
        form = QFormLayout()
        form.addRow(_("Language (BCP-47):"), self.language)
        form.addRow("", self.language_name)
        form.addRow(_("Corpus id:"), self.corpus_id)
        form.addRow(_("Name:"), self.name)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.corpus_id.textChanged.connect(lambda _t: self._validate())
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)
        self._validate()

    def _suggest(self, lang: str) -> None:
        tail = self.source_id.split("-", 1)[1] if "-" in self.source_id else self.source_id
        self.corpus_id.setText(f"{lang.strip()}-{tail}" if lang.strip() else "")
        self._validate()

    def problem_text(self) -> str:
        """Why the values cannot be used yet ('' when they can)."""
        lang = self.language.text().strip()
        if not lang:
            return _("Enter the language of the new corpus, e.g. de, es-MX or ar.")
        if not re.fullmatch(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*", lang):
            return _("“{tag}” is not a language tag: use two or three letters, optionally with a region "
                     "(es-MX) or script (zh-Hant).").format(tag=lang)
        new_id = self.corpus_id.text().strip()
        if new_id and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", new_id):
            return _("The corpus id may contain only letters, digits, '-', '_' and '.' (it names the file).")
        return ""

    def _validate(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem if self.language.text().strip() else "")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(not problem)
        lang = self.language.text().strip()
        name = i18n.language_name(lang) if lang and not problem else ""
        self.language_name.setText(name if name and name != lang else "")

    def values(self) -> dict[str, Any]:
        return {"language": self.language.text().strip(), "new_id": self.corpus_id.text().strip(),
                "name": self.name.text().strip()}
