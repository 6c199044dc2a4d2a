"""The checks panel (as translators know it from Poedit/Weblate): one line per root cause.

Why grouped by cause: one missing feminine form blocks dozens of combinations; the engine's
``finding_groups`` turns them into one finding about the entry to fix, and this panel shows it
once, with the combinations it blocks as expandable children. Items not translated yet are
progress (the bar above the tables), not problems: they are listed only when *Show untranslated
items* is ticked. A click jumps to the entry; the box below shows the whole finding.
"""
from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.corpus import CODES, Finding
from engine.corpus.check.checker import CheckReport
from engine.corpus.check.finding_groups import FindingGroup, cause_of

from gui.i18n import _, connect_retranslate, isolated, list_separator, ngettext

from .finding_text import finding_message, untranslated_detail

GROUP_ROLE = Qt.UserRole + 10
TARGET_ROLE = Qt.UserRole + 11


def target_of(f: Finding) -> tuple[str, str] | None:
    """The (list, entry id) a finding is about — where a click on it should jump."""
    return cause_of(f)


def describe_cause(cause: tuple[str, str] | None, fallback: str = "") -> str:
    """Where a problem is, in words: "emotion word angry", "template T05"."""
    if cause is None:
        return fallback
    kinds = {"templates": _("template {id}"), "persons": _("person {id}"),
             "emotion_words": _("emotion word {id}"), "words": _("word {id}")}
    return kinds[cause[0]].format(id=isolated(cause[1]))


def fix_label(fix: Any) -> str:
    """The fix button's text in the interface language."""
    a = fix.args
    if fix.kind == "agree":
        return _("Fix: add {feature}={ref} to the slot {slot} of {template}").format(
            feature=a["feature"], ref=a["ref"], slot="{" + a["slot"] + "}", template=a["template"])
    if fix.kind == "speaker":
        return _("Fix: hold the slot {slot} of {template} at the speaker's gender ({feature}={ref})").format(
            feature=a["feature"], ref=a["ref"], slot="{" + a["slot"] + "}", template=a["template"])
    if fix.kind == "mirror":
        return _("Fix: set the pair of {other} to {person}").format(other=a["other"], person=a["person"])
    if fix.kind == "forms":
        return _("Fix: set the forms of {entry} to {forms}").format(entry=a["entry"], forms=a["forms"])
    if fix.kind == "case":
        return _("Fix: add {feature}={value} to the slot {slot} of {template}").format(
            feature=a["feature"], value=a["value"], slot="{" + a["slot"] + "}", template=a["template"])
    if fix.kind == "pair":
        return _("Fix: pair {person} with {other}").format(person=a["person"], other=a["other"])
    return _("Fix")


def _combinations(g: FindingGroup, limit: int = 6) -> str:
    """The first combinations of a group, then "… and N more", in the interface language
    (the engine's ``combination_text`` is English, for the CLI)."""
    shown = [" · ".join(x for x in c if x) for c in g.combinations[:limit]]
    more = len(g.combinations) - limit
    return list_separator().join(shown + ([_("… and {n} more").format(n=more)] if more > 0 else []))


class ChecksPanel(QWidget):
    """Shows grouped findings; emits ``jump(list_name, entry_id)`` when one is clicked."""

    jump = Signal(str, str)
    fix_requested = Signal(object)  # an engine.corpus.check.fixes.Fix to apply (one undo step)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report: CheckReport | None = None
        self.fix_for: Any = lambda _finding: None  # finding -> Fix | None (the page knows the corpus)
        self.current_fix: Any = None
        self.groups: list[FindingGroup] = []
        self.untranslated_groups: list[FindingGroup] = []
        self.failure = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.severity = QComboBox()
        # its width follows its items when the language changes live ("Erreurs et avertissements"
        # after English: Qt's default sizes a combo box once, at first show)
        self.severity.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.severity.currentIndexChanged.connect(lambda _i: self._fill())
        top.addWidget(self.summary, 1)
        top.addWidget(self.severity)
        self.show_untranslated = QCheckBox()
        self.show_untranslated.toggled.connect(lambda _on: self._fill())
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
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
        # the mechanical fix of the selected finding (add gender=person.gender, mirror a pair): one click
        self.fix_button = QPushButton()
        self.fix_button.setEnabled(False)
        self.fix_button.clicked.connect(self.apply_fix)
        layout.addLayout(top)
        layout.addWidget(self.show_untranslated)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.detail)
        layout.addWidget(self.fix_button, 0, Qt.AlignLeading)
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
        self.show_untranslated.setText(_("Show untranslated items"))
        self.show_untranslated.setToolTip(_("Items not translated yet count as progress (the bar above the tables); "
                                            "tick this to list them here too"))
        self._fill()

    # -- content ----------------------------------------------------------------
    def show_report(self, report: CheckReport | None, failure: str = "", groups: list[FindingGroup] | None = None,
                    untranslated: list[FindingGroup] | None = None) -> None:
        self.report, self.failure = report, failure
        self.groups = list(groups or [])
        self.untranslated_groups = list(untranslated or [])
        self._fill()

    def counts(self) -> tuple[int, int]:
        """Problems to fix (errors) and warnings, one per root cause; untranslated items are not counted."""
        errors = sum(1 for g in self.groups if g.is_error)
        return errors, len(self.groups) - errors

    def shown_groups(self) -> list[FindingGroup]:
        wanted = self.severity.currentData() or ""
        groups = self.groups + (self.untranslated_groups if self.show_untranslated.isChecked() else [])
        return [g for g in groups if not wanted or g.finding.severity == wanted]

    def _fill(self) -> None:
        self.tree.clear()
        if self.failure:
            self.summary.setText(self.failure)
            return
        if self.report is None:
            self.summary.setText(_("Checking…"))
            return
        errors, warnings = self.counts()
        if not errors and not warnings and not self.report.sentences:
            # an empty corpus has nothing wrong, but nothing right either: no "no problems" tick
            self.summary.setText(_("Nothing to check yet: the corpus generates no sentence. Add a template, "
                                   "persons and emotion words."))
        elif not errors and not warnings:
            self.summary.setText("✔ " + _("No problems found."))
        else:
            self.summary.setText(ngettext("{n} error", "{n} errors", errors).format(n=errors) + list_separator()
                                 + ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings))
        style = QApplication.style()
        err_icon = style.standardIcon(QStyle.SP_MessageBoxCritical)
        warn_icon = style.standardIcon(QStyle.SP_MessageBoxWarning)
        items = []
        for g in self.shown_groups():
            f = g.finding
            message = finding_message(f, g.cause[1] if g.cause else "")
            if g.count > 1:
                message += " " + ngettext("(×{n} combination)", "(×{n} combinations)", g.count).format(n=g.count)
            if f.available and f.code in ("E001", "E002"):
                message += " — " + _("forms available: {forms}").format(forms=", ".join(f.available) or _("none"))
            severity = _("not translated") if g.untranslated else _("error") if f.is_error else _("warning")
            it = QTreeWidgetItem([severity, f.code, describe_cause(g.cause, f.item), message])
            it.setIcon(0, err_icon if f.is_error else warn_icon)
            it.setToolTip(1, _(CODES.get(f.code, ("", ""))[1]))
            it.setToolTip(3, message)
            it.setData(0, GROUP_ROLE, g)
            it.setData(0, TARGET_ROLE, g.cause)
            if len(g.combinations) > 1:
                for template, person, word in g.combinations:
                    child = QTreeWidgetItem(["", "", " · ".join(x for x in (template, person, word) if x), ""])
                    child.setData(0, TARGET_ROLE, ("templates", template))
                    it.addChild(child)
            items.append(it)
        self.tree.addTopLevelItems(items)
        for c in range(3):
            self.tree.resizeColumnToContents(c)
        self.tree.setColumnWidth(2, min(self.tree.columnWidth(2), 240))
        self._describe(self.tree.currentItem())

    def _describe(self, item: QTreeWidgetItem | None) -> None:
        """The whole finding, wrapped, under the list (the Problem column is often too narrow)."""
        g = item.data(0, GROUP_ROLE) if item is not None else None
        self.current_fix = self.fix_for(g.finding) if g is not None else None
        self.fix_button.setEnabled(self.current_fix is not None)
        self.fix_button.setText(fix_label(self.current_fix) if self.current_fix is not None else _("Fix"))
        if g is None:
            hint = _("Click a problem to go to the entry it is about.") if self.tree.topLevelItemCount() else ""
            self.detail.setText(f"<span style='color:#555'>{html.escape(hint)}</span>")
            return
        title = _(CODES.get(g.code, ("", ""))[1])
        parts = [f"<b>{html.escape(g.code)}</b> · {html.escape(item.text(0))} · {html.escape(title)}",
                 html.escape(item.text(3))]
        english = untranslated_detail(g.finding)
        if english:
            parts.append(html.escape(_("Details (in English): {text}").format(text=english)))
        if g.combinations:
            parts.append(html.escape(_("Combinations: {list}").format(list=_combinations(g))))
        self.detail.setText("<br>".join(parts))

    def apply_fix(self) -> bool:
        """Apply the selected finding's mechanical fix (the page makes it one undo step)."""
        if self.current_fix is None:
            return False
        self.fix_requested.emit(self.current_fix)
        return True

    def select_code(self, code: str) -> bool:
        """Select the first finding with ``code`` (tests, keyboard users via the tree)."""
        for i in range(self.tree.topLevelItemCount()):
            if self.tree.topLevelItem(i).text(1) == code:
                self.tree.setCurrentItem(self.tree.topLevelItem(i))
                return True
        return False

    def _activate(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        target = item.data(0, TARGET_ROLE)
        if target:
            self.jump.emit(*target)

    def messages(self) -> list[str]:
        """The shown findings as text (tests and copy to clipboard)."""
        return [" ".join(self.tree.topLevelItem(i).text(c) for c in range(4)) for i in range(self.tree.topLevelItemCount())]
