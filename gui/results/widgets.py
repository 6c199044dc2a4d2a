"""Small helpers for the results views' selectors."""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox


def fill_combo(combo: QComboBox, items: list[tuple[str, Any]]) -> None:
    """Replace the items (label, data), keeping the current choice when it is still offered;
    emits one change at most (signals blocked while refilling)."""
    current = combo.currentData()
    combo.setSizeAdjustPolicy(QComboBox.AdjustToContents)
    combo.blockSignals(True)
    combo.clear()
    for text, data in items:
        combo.addItem(text, data)
    idx = combo.findData(current) if current is not None else -1
    combo.setCurrentIndex(idx if idx >= 0 else (0 if items else -1))
    combo.blockSignals(False)


def relabel_combo(combo: QComboBox, labels: dict[Any, str]) -> None:
    """Set new display texts (after a language switch) without changing the choice."""
    for i in range(combo.count()):
        data = combo.itemData(i)
        if data in labels:
            combo.setItemText(i, labels[data])
