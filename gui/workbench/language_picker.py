"""Choosing a language by its name ("French", "Französisch", "الفرنسية"), not by its tag.

Why: a translator knows their language's name, not that it is ``fr``; babel's CLDR data names
every language in the interface language, and a typed tag (``es-MX``) is accepted too.
"""
from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QCompleter, QWidget

from engine.common.languages import COMMON_ENDONYMS, language_choices, language_tag

from gui import i18n


def _fold(text: str) -> str:
    """Case- and accent-blind form of a name: "Portugués" and "portugues" are the same language."""
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFD", text.strip().casefold()) if not unicodedata.combining(ch))


def _common_endonyms() -> dict[str, str]:
    return {_fold(name): code for code, name in COMMON_ENDONYMS.items()}


class LanguagePicker(QComboBox):
    """An editable combo of language names; ``tag()`` is the chosen BCP-47 tag ('' if unknown)."""

    tag_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.NoInsert)
        self.setMaxVisibleItems(20)
        ui = i18n.current_language() or "en"
        self._by_name: dict[str, str] = {}
        for name, code in language_choices(ui):
            self.addItem(f"{name} ({code})", code)
            self._by_name.setdefault(_fold(name), code)
        if ui.split("-")[0] != "en":  # the English name works in every interface language
            for name, code in language_choices("en"):
                self._by_name.setdefault(_fold(name), code)
        self.setCurrentIndex(-1)
        self.completer().setCompletionMode(QCompleter.PopupCompletion)
        self.completer().setFilterMode(Qt.MatchContains)
        self.completer().setCaseSensitivity(Qt.CaseInsensitive)
        self.currentTextChanged.connect(lambda _t: self.tag_changed.emit(self.tag()))

    def tag(self) -> str:
        text = self.currentText().strip()
        i = self.findText(text)
        if i >= 0:
            return self.itemData(i)
        code = self._by_name.get(_fold(text))
        if code:  # a whole name typed, in the interface language or in English ("Portuguese", "portugués")
            return code
        code = _common_endonyms().get(_fold(text))
        if code:  # the language's name in itself: italiano, español, Deutsch, 日本語, العربية
            return code
        if text.endswith(")") and "(" in text:  # "French (fr)" typed by hand
            text = text[text.rindex("(") + 1:-1]
        if not re.fullmatch(r"[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*", text):
            return ""  # (a name not in the list: the slow search over every endonym is for the CLI)
        try:
            return language_tag(text, i18n.current_language() or "en")
        except ValueError:
            return ""

    def set_tag(self, tag: str) -> None:
        i = self.findData(tag)
        if i >= 0:
            self.setCurrentIndex(i)
        else:
            self.setEditText(tag)
