"""Suggestions beside the form editor: translation memory and glossary matches, one click to insert.

Why: the built-in Spanish EEC already says *angry → enojado / enojada*; a translator starting a
new Spanish corpus gets that offered, as Poedit and Weblate offer their memories. The memory
(``engine.corpus.translate.memory``) is built in the background from every corpus on disk in the
corpus language (built-in and the user's own, not the one being edited) plus this corpus's
glossary; matches are exact or fuzzy (rapidfuzz).
"""
from __future__ import annotations

import copy
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.corpus import Form, Variant
from engine.corpus.translate.glossary import forms_label
from engine.corpus.translate.memory import GLOSSARY, Suggestion, TranslationMemory, units_of
from engine.corpus.check.agreement import missing_forms
from engine.corpus.translate.progress import auto_status
from engine.exchange.tmx_format import translation_memory

from gui.common.background import Latest
from gui import settings
from gui.i18n import _, connect_retranslate, isolated, percent

from .document import CorpusDocument
from gui.common.header_fit import fit_header_titles

SUGGESTION_ROLE = Qt.UserRole + 20


def query_text(doc: CorpusDocument, list_name: str, entry: Any) -> str:
    """What to look up: the source text, else the id (EEC ids are the English words)."""
    src = doc.source_entry(list_name, entry.id)
    if src is not None:
        rows = src.variants if list_name == "templates" else src.forms
        if rows:
            return rows[0].text
    return entry.review.source.split(" / ")[0] if entry.review.source else entry.id.replace("_", " ")


class SuggestionsPanel(QWidget):
    """Shows matches for the form editor's entry; ``inserted(list_name, row)`` after an insert."""

    inserted = Signal(str, int)

    def __init__(self, doc: CorpusDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.memory: TranslationMemory | None = None
        self.list_name, self.row = "", -1
        self.title = QLabel()
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SingleSelection)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(1, QHeaderView.Stretch)
        # the score and the corpus a suggestion comes from are read whole ("From" was cut, issue 39)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeToContents)
        self.tree.header().setSectionResizeMode(2, QHeaderView.ResizeToContents)
        self.tree.itemDoubleClicked.connect(lambda item, _c: self.insert(self.tree.indexOfTopLevelItem(item)))
        self.insert_button = QPushButton()
        self.insert_button.clicked.connect(lambda: self.insert(max(0, self.tree.indexOfTopLevelItem(
            self.tree.currentItem())) if self.tree.currentItem() else 0))
        row = QHBoxLayout()
        row.addWidget(self.insert_button)
        row.addStretch(1)
        self.title.setWordWrap(True)
        self.setMinimumWidth(150)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.tree, 1)
        layout.addLayout(row)
        self._loader = Latest(self._loaded, lambda _exc: None, self)
        self.reload()
        connect_retranslate(self)
        self.retranslate()

    def reload(self) -> None:
        """Read the memory again (in the background): after a TMX import it holds new pairs."""
        language, exclude = self.doc.corpus.language, {self.doc.corpus.id}
        self._loader.submit(lambda: translation_memory(language, exclude=exclude))

    @property
    def idle(self) -> bool:
        return self._loader.idle

    def retranslate(self, *_args: Any) -> None:
        self.title.setText(_("Suggestions (translation memory and glossary)"))
        self.tree.setHeaderLabels([_("Match"), _("Translation"), _("From")])
        fit_header_titles(self.tree.header())
        self.insert_button.setText(_("Insert"))
        self.insert_button.setToolTip(_("Use the selected suggestion's forms for this entry (double-click does the same)"))
        self.refresh()

    def _loaded(self, memory: TranslationMemory) -> None:
        self.memory = memory
        self.refresh()

    def show_entry(self, list_name: str, row: int) -> None:
        self.list_name, self.row = list_name, row
        self.refresh()

    @property
    def entry(self) -> Any:
        entries = getattr(self.doc.corpus, self.list_name, []) if self.list_name else []
        return entries[self.row] if 0 <= self.row < len(entries) else None

    def suggestions(self) -> list[Suggestion]:
        e = self.entry
        if e is None or self.memory is None:
            return []
        # this corpus's own glossary counts too (it may have changed since the memory was built)
        memory = TranslationMemory(self.memory.units + [u for u in units_of(self.doc.corpus) if u.list_name == GLOSSARY],
                                   imported=self.memory.imported)
        return memory.suggest(self.list_name, query_text(self.doc, self.list_name, e))

    def refresh(self) -> None:
        self.tree.clear()
        found = self.suggestions()
        for s in found:
            where = _("glossary") if s.unit.list_name == GLOSSARY else s.unit.corpus_id
            score = _("exact") if s.exact else percent(round(s.score) / 100, 0)
            it = QTreeWidgetItem([score, forms_label(s.unit.forms), where])
            it.setToolTip(1, _("Source: {text}").format(text=s.unit.source))
            it.setData(0, SUGGESTION_ROLE, s)
            self.tree.addTopLevelItem(it)
        if found:
            self.tree.setCurrentItem(self.tree.topLevelItem(0))
        self.tree.resizeColumnToContents(0)
        self.insert_button.setEnabled(bool(found))

    def insert(self, index: int) -> bool:
        """Put suggestion ``index``'s forms into the entry (features the corpus does not declare are dropped)."""
        e = self.entry
        item = self.tree.topLevelItem(index) if index >= 0 else None
        if e is None or item is None:
            return False
        s: Suggestion = item.data(0, SUGGESTION_ROLE)
        feats = self.doc.corpus.features
        new = copy.deepcopy(e)

        def keep(f: Form) -> dict[str, str]:
            return {k: v for k, v in f.features.items() if k in feats and v in feats[k]}

        if self.list_name == "templates":
            new.variants = [Variant(f.text, keep(f)) for f in s.unit.forms]
        else:
            new.forms = [Form(f.text, keep(f)) for f in s.unit.forms]
        auto_status(self.list_name, new, [] if self.list_name == "templates" else missing_forms(
            self.doc.corpus, self.list_name, new), translator=settings.get("translator_id") or "")
        self.doc.set((self.list_name, self.row), new, _("Insert suggestion for {item}").format(item=isolated(e.id)))
        self.inserted.emit(self.list_name, self.row)
        return True
