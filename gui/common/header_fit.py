"""Header sections never narrower than their titles.

Why: a stretched or evenly shared section (the suggestions' *Translation*, the coverage
matrix's person groups) is squeezed by a narrow panel, and Qt then elides the title
("Traducc…", "weiblich Nominal…"). A minimum section size as wide as the widest title line
keeps every title whole; a panel too narrow for all of them scrolls instead.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QStyle


def fit_header_titles(header: QHeaderView, floor: int = 0) -> None:
    """Set the header's minimum section size to its widest title line plus the style's margins."""
    model = header.model()
    if model is None:
        return
    fm = header.fontMetrics()
    margin = header.style().pixelMetric(QStyle.PM_HeaderMargin, None, header)
    widest = 0
    for section in range(header.count()):
        title = model.headerData(section, header.orientation(), Qt.DisplayRole)
        if isinstance(title, str) and title:
            widest = max(widest, max(fm.horizontalAdvance(line) for line in title.split("\n")))
    header.setMinimumSectionSize(max(floor, widest + 2 * margin + 2))
