"""The checks panel (as translators know it from Poedit/Weblate): the agreement checker's findings.

Why grouped: one missing feminine form blocks dozens of combinations; the panel lists each
problem once with a count, its severity and stable code, and a click jumps to the entry that
needs fixing. The checker itself runs in the engine (``check_corpus``); this only shows it.
"""
from __future__ import annotations

import dataclasses
import html
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


def describe_item(f: Finding, n: int = 1) -> str:
    """Where a finding is, in words: "emotion word angry", "T05 · ebony · angry".

    A group of combinations (n > 1) spans several persons: naming only the first would
    mislead, so it is "T05 · angry".
    """
    if f.template and f.person:
        parts = [f.template] + ([f.person] if n == 1 else []) + ([f.emotion_word] if f.emotion_word else [])
        return " · ".join(parts)
    target = target_of(f)
    if target is None:
        return f.item or ""
    kinds = {"templates": _("template {id}"), "persons": _("person {id}"),
             "emotion_words": _("emotion word {id}"), "words": _("word {id}")}
    return kinds[target[0]].format(id=target[1])


def _fold_pairs(fs: list[Finding]) -> tuple[Finding, int]:
    """One line for many pair findings of the same code about the same entry."""
    first, n = fs[0], len(fs)
    if n == 1:
        return first, 1
    templates = ", ".join(sorted({f.template for f in fs if f.template}))
    if first.code == "W111":
        message = ngettext("{n} counterfactual pair is skipped: only one of its sentences can be generated "
                           "(templates {templates}); the errors of the other side say why.",
                           "{n} counterfactual pairs are skipped: only one of their sentences can be generated "
                           "(templates {templates}); the errors of the other side say why.", n).format(
                               n=n, templates=templates)
    else:
        message = first.message + " " + ngettext("(and {n} similar pair)", "(and {n} similar pairs)", n - 1).format(n=n - 1)
    # about the emotion word (jump there); a neutral template's pairs stay with their template
    folded = dataclasses.replace(first, message=message, person="", template="" if first.emotion_word else first.template)
    return folded, 1


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
        self.tree.currentItemChanged.connect(lambda item, _prev: self._describe(item))
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.RichText)
        self.detail.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.detail.setMinimumHeight(64)
        self.detail.setAlignment(Qt.AlignTop | Qt.AlignLeading)
        self.detail.setStyleSheet("QLabel { background: palette(base); border: 1px solid palette(mid); padding: 4px; }")
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.detail)
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
        """Errors and warnings as listed (one per problem, however many combinations it blocks)."""
        if self.report is None:
            return 0, 0
        grouped = self.findings()
        errors = sum(1 for f, _n in grouped if f.is_error)
        return errors, len(grouped) - errors

    def findings(self) -> list[tuple[Finding, int]]:
        """The report's findings, identical problems collapsed, errors first.

        Pair findings (person ``a~b``) are consequences: one missing feminine form leaves every
        noun-phrase pair of every template with one side only. They are folded into one line
        per code and entry ("40 pairs are skipped"), so the cause is not buried under them.
        """
        if self.report is None:
            return []
        plain: list[tuple[Finding, int]] = []
        pairs: dict[tuple, list[Finding]] = {}
        for f, n in self.report.grouped():
            if "~" in (f.person or "") and (f.emotion_word or f.template):
                pairs.setdefault((f.code, f.emotion_word or f.template, f.slot, f.item), []).extend([f] * n)
            else:
                plain.append((f, n))
        for fs in pairs.values():
            plain.append(_fold_pairs(fs))
        return sorted(plain, key=lambda x: (not x[0].is_error, x[0].code, x[0].item, x[0].template))

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
            where = describe_item(f, n)
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
        self.tree.setColumnWidth(2, min(self.tree.columnWidth(2), 240))
        self._describe(self.tree.currentItem())

    def _describe(self, item: QTreeWidgetItem | None) -> None:
        """The whole finding, wrapped, under the list (the Problem column is often too narrow)."""
        f = item.data(0, FINDING_ROLE) if item is not None else None
        if f is None:
            hint = _("Click a problem to go to the entry it is about.") if self.tree.topLevelItemCount() else ""
            self.detail.setText(f"<span style='color:#555'>{html.escape(hint)}</span>")
            return
        title = _(CODES.get(f.code, ("", ""))[1])
        parts = [f"<b>{html.escape(f.code)}</b> · {html.escape(item.text(0))} · {html.escape(title)}",
                 html.escape(item.text(3))]
        self.detail.setText("<br>".join(parts))

    def _activate(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        f = item.data(0, FINDING_ROLE)
        target = target_of(f) if f is not None else None
        if target:
            self.jump.emit(*target)

    def messages(self) -> list[str]:
        """The shown findings as text (tests and copy to clipboard)."""
        return [" ".join(self.tree.topLevelItem(i).text(c) for c in range(4)) for i in range(self.tree.topLevelItemCount())]
