"""The checks panel (as translators know it from Poedit/Weblate): the agreement checker's findings.

Why grouped: one missing feminine form blocks dozens of combinations; the panel lists each
problem once with a count, its severity and stable code, and a click jumps to the entry that
needs fixing. The checker itself runs in the engine (``check_corpus``); this only shows it.
"""
from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.corpus import CODES, Finding
from engine.corpus.checker import CheckReport

from gui.i18n import _, connect_retranslate, ngettext

_ITEM_RX = re.compile(r"^(templates|persons|emotion_words|words)\[(.+)\]$")
FINDING_ROLE = Qt.UserRole + 10


def target_of(f: Finding) -> tuple[str, str] | None:
    """The (list, entry id) a finding is about — where a click on it should jump."""
    m = _ITEM_RX.match(f.item or "")
    if m:
        return m.group(1), m.group(2)
    if f.code in ("E001", "E002") and f.slot:
        if f.slot == "person" and f.person:
            return "persons", f.person
        if f.slot.startswith("emotion") and f.emotion_word:
            return "emotion_words", f.emotion_word
    if f.template:
        return "templates", f.template
    if f.person:
        return "persons", f.person
    if f.emotion_word:
        return "emotion_words", f.emotion_word
    return None


class ChecksPanel(QWidget):
    """Shows a CheckReport; emits ``jump(list_name, entry_id)`` when a finding is clicked."""

    jump = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report: CheckReport | None = None
        self.failure = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.summary = QLabel()
        self.severity = QComboBox()
        self.severity.currentIndexChanged.connect(lambda _i: self._fill())
        top.addWidget(self.summary, 1)
        top.addWidget(self.severity)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.header().setSectionResizeMode(3, QHeaderView.Stretch)
        self.tree.itemActivated.connect(self._activate)
        self.tree.itemClicked.connect(self._activate)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        connect_retranslate(self)
        self.retranslate()

    def retranslate(self, *_args: Any) -> None:
        self.tree.setHeaderLabels([_("Severity"), _("Code"), _("Item"), _("Problem")])
        current = self.severity.currentIndex()
        self.severity.blockSignals(True)
        self.severity.clear()
        self.severity.addItem(_("Errors and warnings"), "")
        self.severity.addItem(_("Errors only"), "error")
        self.severity.addItem(_("Warnings only"), "warning")
        self.severity.setCurrentIndex(max(current, 0))
        self.severity.blockSignals(False)
        self._fill()

    # -- content ----------------------------------------------------------------
    def show_report(self, report: CheckReport | None, failure: str = "") -> None:
        self.report, self.failure = report, failure
        self._fill()

    def counts(self) -> tuple[int, int]:
        if self.report is None:
            return 0, 0
        return len(self.report.errors), len(self.report.warnings)

    def findings(self) -> list[tuple[Finding, int]]:
        if self.report is None:
            return []
        return sorted(self.report.grouped(), key=lambda x: (not x[0].is_error, x[0].code, x[0].item))

    def _fill(self) -> None:
        self.tree.clear()
        if self.failure:
            self.summary.setText(self.failure)
            return
        if self.report is None:
            self.summary.setText(_("Checking…"))
            return
        errors, warnings = self.counts()
        if not errors and not warnings:
            self.summary.setText("✔ " + _("No problems found."))
        else:
            self.summary.setText(ngettext("{n} error", "{n} errors", errors).format(n=errors) + ", "
                                 + ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings))
        wanted = self.severity.currentData() or ""
        style = QApplication.style()
        err_icon = style.standardIcon(QStyle.SP_MessageBoxCritical)
        warn_icon = style.standardIcon(QStyle.SP_MessageBoxWarning)
        items = []
        for f, n in self.findings():
            if wanted and f.severity != wanted:
                continue
            target = target_of(f)
            where = f"{target[0]}[{target[1]}]" if target else (f.item or "")
            if f.template and f.person:
                where = f"{f.template} · {f.person}" + (f" · {f.emotion_word}" if f.emotion_word else "")
            message = f.message + (" " + ngettext("(×{n} combination)", "(×{n} combinations)", n).format(n=n) if n > 1 else "")
            if f.available and f.code in ("E001", "E002"):
                message += " — " + _("forms available: {forms}").format(forms=", ".join(f.available) or _("none"))
            it = QTreeWidgetItem([_("error") if f.is_error else _("warning"), f.code, where, message])
            it.setIcon(0, err_icon if f.is_error else warn_icon)
            it.setToolTip(1, _(CODES.get(f.code, ("", ""))[1]))
            it.setToolTip(3, message)
            it.setData(0, FINDING_ROLE, f)
            items.append(it)
        self.tree.addTopLevelItems(items)
        for c in range(3):
            self.tree.resizeColumnToContents(c)

    def _activate(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        f = item.data(0, FINDING_ROLE)
        target = target_of(f) if f is not None else None
        if target:
            self.jump.emit(*target)

    def messages(self) -> list[str]:
        """The shown findings as text (tests and copy to clipboard)."""
        return [" ".join(self.tree.topLevelItem(i).text(c) for c in range(4)) for i in range(self.tree.topLevelItemCount())]
