"""gui/common/wrapped_check.py: a check box whose long text wraps instead of widening the window."""
from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from gui.common.wrapped_check import WrappedCheckBox  # noqa: E402

LONG = "Autoriser les poids sérialisés par pickle (exécute du code du fichier de modèle : uniquement pour des fichiers de confiance)"


def test_the_text_wraps_and_a_click_on_it_toggles_the_box(qtbot):
    box = WrappedCheckBox(LONG)
    qtbot.addWidget(box)
    box.resize(300, 80)
    box.show()
    qtbot.waitExposed(box)
    seen = []
    box.toggled.connect(seen.append)
    assert box.minimumSizeHint().width() < 300 and box.label.height() > box.box.height()  # two lines or more
    qtbot.mouseClick(box.label, Qt.LeftButton)
    assert box.isChecked() and seen == [True]
    qtbot.mouseClick(box.label, Qt.LeftButton)
    assert not box.isChecked() and seen == [True, False]
    assert box.text() == LONG and box.box.accessibleName() == LONG  # what a screen reader says


def test_a_disabled_box_is_not_toggled_by_its_text(qtbot):
    box = WrappedCheckBox("Allow pickled weights")
    qtbot.addWidget(box)
    box.setEnabled(False)
    box.show()
    qtbot.mouseClick(box.label, Qt.LeftButton)
    assert not box.isChecked()
