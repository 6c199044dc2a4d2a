"""The coverage matrix: rows template × emotion, columns person groups, cells produced/expected.

Why: holes in a corpus bias an audit silently (a group with fewer sentences). Red cells show
where combinations are missing; the tooltip names them; a click filters the preview to it.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from gui.i18n import _, connect_retranslate, ngettext, number

from engine.corpus.check.coverage import NEUTRAL, Coverage

from gui.common.header_fit import fit_header_titles

OK_COLOUR, PART_COLOUR, NONE_COLOUR, EMPTY_COLOUR = "#d9f2dc", "#ffe3b3", "#f8c9c4", "#f2f2f2"
SKIPPED_COLOUR = "#e4e9f2"  # every missing combination is skipped on purpose (untranslatable)


def _wrap(word: str, width: int = 9) -> str:
    """Break a long label at a space or hyphen ('African-American' -> 'African-' / 'American')."""
    if len(word) <= width:
        return word
    for sep in (" ", "-"):
        i = word.find(sep, 3)
        if 0 < i < len(word) - 3:
            return word[: i + (1 if sep == "-" else 0)] + "\n" + word[i + 1:]
    return word


def group_label(group: str) -> str:
    """'female · African-American' as short translated lines, so narrow columns are not cut off."""
    return "\n".join(_wrap(_(part)) for part in group.split(" · "))
CELL_ROLE = Qt.UserRole + 20


class CoverageView(QWidget):
    cell_chosen = Signal(str, str)  # template id, emotion ("" or "-" for neutral)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.coverage: Coverage | None = None
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.cellClicked.connect(self._clicked)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.table.horizontalHeader().setMinimumSectionSize(64)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        connect_retranslate(self)

    def retranslate(self, *_args: Any) -> None:
        self.show_coverage(self.coverage)

    def show_coverage(self, cov: Coverage | None) -> None:
        self.coverage = cov
        self.table.clear()
        if cov is None:
            self.summary.setText(_("Generating…"))
            return
        self.table.setRowCount(len(cov.rows))
        self.table.setColumnCount(len(cov.groups))
        self.table.setHorizontalHeaderLabels([group_label(g) for g in cov.groups])
        fit_header_titles(self.table.horizontalHeader(), floor=64)
        self.table.setVerticalHeaderLabels([f"{t} · {_(e) if e else _('neutral')}" for t, e in cov.rows])
        for r, row in enumerate(cov.rows):
            for c, group in enumerate(cov.groups):
                cell = cov.cell(row, group)
                n_exp, n_prod = len(cell.expected), len(cell.produced & cell.expected)
                item = QTableWidgetItem(f"{n_prod}/{n_exp}" if n_exp else "–")
                item.setTextAlignment(int(Qt.AlignCenter))
                skipped = cov.skipped(cell)
                colour = EMPTY_COLOUR if not n_exp else OK_COLOUR if n_prod == n_exp else NONE_COLOUR if n_prod == 0 else PART_COLOUR
                if n_exp and cell.missing and cell.missing == skipped:
                    colour = SKIPPED_COLOUR
                if row[0] in cov.unusable:
                    colour = NONE_COLOUR
                item.setBackground(QBrush(QColor(colour)))
                item.setForeground(QBrush(QColor("#202020")))
                missing = sorted(cell.missing - skipped)
                tips = []
                if missing:
                    shown = ", ".join(f"{p}+{e}" if e else p for p, e in missing[:12])
                    more = len(missing) - 12
                    tips.append(_("Missing: {items}").format(items=shown) + (f" … (+{more})" if more > 0 else ""))
                if skipped:
                    words = sorted({x for pe in skipped for x in pe if x in cov.untranslatable})
                    tips.append(_("Skipped on purpose (marked untranslatable): {items}").format(items=", ".join(words)))
                if tips:
                    item.setToolTip("\n".join(tips))
                item.setData(CELL_ROLE, row)
                self.table.setItem(r, c, item)
        missing = cov.missing_total
        if cov.unusable:
            text = _("Templates that cannot be read yet, so none of their sentences are produced: {ids}.").format(
                ids=", ".join(sorted(cov.unusable))) + " "
        else:
            text = ""
        skipped = cov.skipped_total
        missing -= skipped
        if cov.unusable and not missing:
            pass  # "nothing missing" would be untrue: the unreadable templates produce nothing
        elif missing:
            text += ngettext("{n} combination is missing (red and orange cells; hover for the list).",
                             "{n} combinations are missing (red and orange cells; hover for the list).", missing).format(n=number(missing))
        elif skipped:
            text += _("No combination is missing by mistake.")
        else:
            text += _("Every template × person group × emotion combination is produced.")
        if skipped:
            text += " " + ngettext("{n} combination is skipped on purpose (blue-grey cells: an entry marked untranslatable).",
                                   "{n} combinations are skipped on purpose (blue-grey cells: entries marked untranslatable).",
                                   skipped).format(n=number(skipped))
        text += " " + _("Click a row to preview its sentences.")
        self.summary.setText(text)

    def _clicked(self, r: int, _c: int) -> None:
        item = self.table.item(r, 0)
        if item is None:
            return
        template, emotion = item.data(CELL_ROLE)
        self.cell_chosen.emit(template, emotion if emotion != NEUTRAL else "-")
