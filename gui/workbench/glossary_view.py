"""The corpus glossary, editable: source term, its forms (with features), a note.

Why in the workbench: agreed terms (*furious → furieux / furieuse*) are decisions the next
translator and reviewer must see; they are saved in the definition (``[meta] glossary``), so
packages and PO exports carry them, and the suggestions panel offers them.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from engine.corpus.translate.glossary import GlossaryTerm, forms_label, parse_forms, read_glossary, with_glossary

from gui.i18n import _, connect_retranslate

from .document import CorpusDocument


class GlossaryView(QWidget):
    def __init__(self, doc: CorpusDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self._building = False
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.table = QTableWidget(0, 3)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.table.itemChanged.connect(lambda _i: self._commit())
        self.add_button = QPushButton()
        self.add_button.clicked.connect(self.add_term)
        self.remove_button = QPushButton()
        self.remove_button.clicked.connect(self.remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        doc.changed.connect(lambda path: QTimer.singleShot(0, self.refresh) if path and path[0] == "extra" else None)
        connect_retranslate(self)
        self.retranslate()

    def retranslate(self, *_args: Any) -> None:
        self.intro.setText(_("Agreed translations of recurring terms; saved with the corpus and offered as "
                             "suggestions. Forms: “furieux (gender=m) / furieuse (gender=f)”."))
        self.table.setHorizontalHeaderLabels([_("Term"), _("Forms"), _("Note")])
        self.add_button.setText(_("Add term"))
        self.remove_button.setText(_("Remove"))
        self.refresh()

    def terms(self) -> list[GlossaryTerm]:
        return read_glossary(self.doc.corpus)

    def refresh(self) -> None:
        self._building = True
        try:
            terms = self.terms()
            self.table.setRowCount(len(terms))
            for r, t in enumerate(terms):
                for c, text in enumerate((t.source, forms_label(t.forms), t.note)):
                    item = QTableWidgetItem(text)
                    if c == 1 and self.doc.rtl:
                        item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                    self.table.setItem(r, c, item)
        finally:
            self._building = False

    def _read(self) -> list[GlossaryTerm]:
        out = []
        for r in range(self.table.rowCount()):
            cells = [self.table.item(r, c).text().strip() if self.table.item(r, c) else "" for c in range(3)]
            out.append(GlossaryTerm(cells[0], parse_forms(cells[1]), cells[2]))
        return out

    def set_terms(self, terms: list[GlossaryTerm], text: str) -> None:
        self.doc.set(("extra",), with_glossary(self.doc.corpus.extra, [t for t in terms if t.source]), text)

    def _commit(self) -> None:
        if not self._building:
            self.set_terms(self._read(), _("Edit glossary"))

    def add_term(self, source: str = "", forms: str = "", note: str = "") -> None:
        terms = self.terms() + [GlossaryTerm(source or _("new term"), parse_forms(forms), note)]
        self.set_terms(terms, _("Add glossary term"))

    def remove_selected(self) -> None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        if rows:
            self.set_terms([t for r, t in enumerate(self.terms()) if r not in rows], _("Remove glossary term"))
