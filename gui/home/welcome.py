"""The first screen's two paths: build or translate a corpus, or audit a system.

Why: a first start used to give no hint which path suits a translator and which a researcher.
Each card says who it is for and its buttons do the thing in one click (New corpus…,
Translate the EEC…, Open the Audit page).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from gui.i18n import _, connect_retranslate


class _Card(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.StyledPanel)
        self.setObjectName("welcomeCard")
        self.setStyleSheet("QFrame#welcomeCard { background: palette(base); border: 1px solid palette(mid); "
                           "border-radius: 6px; }")
        self.title = QLabel()
        self.title.setTextFormat(Qt.RichText)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.buttons = QHBoxLayout()
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.text, 1)
        layout.addLayout(self.buttons)

    def button(self, slot: Any) -> QPushButton:
        b = QPushButton()
        b.clicked.connect(lambda _c=False: slot())
        self.buttons.addWidget(b)
        return b


class WelcomePanel(QWidget):
    """Emits what the user chose: ``new_corpus``, ``translate``, ``audit``."""

    new_corpus = Signal()
    translate = Signal()
    audit = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.corpus_card = _Card()
        self.new_button = self.corpus_card.button(self.new_corpus.emit)
        self.translate_button = self.corpus_card.button(self.translate.emit)
        self.corpus_card.buttons.addStretch(1)
        self.audit_card = _Card()
        self.audit_button = self.audit_card.button(self.audit.emit)
        self.audit_card.buttons.addStretch(1)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.corpus_card, 1)
        row.addWidget(self.audit_card, 1)
        connect_retranslate(self)
        self.retranslate()

    def retranslate(self, *_args: Any) -> None:
        self.corpus_card.title.setText("<b>%s</b>" % _("Build or translate a corpus"))
        self.corpus_card.text.setText(_("For translators and corpus authors: start an empty corpus in your language, "
                                        "or translate the original EEC item by item, with checks, suggestions and "
                                        "progress; export a package, PO/XLIFF or a dataset."))
        self.new_button.setText(_("New corpus…"))
        self.translate_button.setText(_("Translate the EEC…"))
        self.audit_card.title.setText("<b>%s</b>" % _("Audit a system"))
        self.audit_card.text.setText(_("For researchers: score a sentiment or language model on a corpus and "
                                       "measure bias between groups, with statistics and a report."))
        self.audit_button.setText(_("Open the Audit page"))
