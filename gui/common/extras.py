"""Greying out what an optional part (pip extra) would add, with the command that adds it.

Why: a translator's plain `pip install eec-studio` has no torch, no GloVe and no Dask. Options
that need them stay visible (so the user learns they exist) but greyed, and their tooltip and a
note say which extra to install — the GUI form of engine.common.extras.MissingExtra, which the
engine raises if such an option is reached anyway. Which library belongs to which extra is
known only there.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QLabel, QWidget

from engine.common import extras
from gui.i18n import _


def missing_text(extra: str) -> str:
    """'Needs the … extra: pip install …' in the interface language (the command is not translated)."""
    return _("Not installed: this needs the '{extra}' extra. Install it with: {command}").format(
        extra=extra, command=extras.install_command(extra))


def grey_without(extra: str, *widgets: QWidget | QAction, note: QLabel | None = None) -> bool:
    """Disable `widgets` or menu actions (tooltip: the install command) and show `note` when `extra` is missing.

    Returns whether it was missing. Call it after the widgets' texts are set (retranslate), since
    it replaces their tooltips."""
    missing = not extras.available(extra)
    if note is not None:
        note.setVisible(missing)
        if missing:
            note.setText(missing_text(extra))
            note.setTextInteractionFlags(Qt.TextSelectableByMouse)  # the command can be copied
            note.setWordWrap(True)
    if missing:
        for w in widgets:
            w.setEnabled(False)
            w.setToolTip(missing_text(extra))
    return missing


def grey_combo_item(combo: QComboBox, index: int, extra: str) -> bool:
    """Grey one choice of a combo box (it stays listed) when `extra` is missing."""
    if extras.available(extra):
        return False
    item = combo.model().item(index)  # a QStandardItemModel: QComboBox's own
    if item is not None:
        item.setEnabled(False)
    combo.setItemData(index, missing_text(extra), Qt.ToolTipRole)
    return True
