"""The statistics' settings on the Audit page: one row per declared setting, built from the registry.

Why generated: each statistic declares its settings once (engine.stats.settings: type, default,
range, choices, GUI label); the command line, the sweep plan file and this form all follow that one
declaration, so a statistic added with a setting gets its row here without GUI code, and the form
cannot drift from the CLI. A choice becomes a combo box, a whole number a spin box, a number a
decimal spin box, a LOW,HIGH range a line edit (read by ``AuditSetup.to_plan``).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QFormLayout, QLabel, QLineEdit, QSpinBox, QWidget

from gui.i18n import _

from .setup_model import AuditSetup, statistic_settings


class SettingsForm(QFormLayout):
    """Rows of setting widgets bound to ``setup.settings``; ``widgets[key]`` and ``labels[key]``."""

    def __init__(self, setup: AuditSetup) -> None:
        super().__init__()
        # a row whose label and field do not fit side by side puts its field under the label: the
        # Italian, French and Portuguese labels are long, and squeezed beside them the choices showed
        # cut ("persone, modelli di" for "persone, modelli di frase e parole")
        self.setRowWrapPolicy(QFormLayout.WrapLongRows)
        self.setup = setup
        self.settings = statistic_settings()
        self.widgets: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel] = {}
        self._syncing = False
        for s in self.settings:
            widget = self._widget(s)
            self.widgets[s.key] = widget
            self.labels[s.key] = QLabel()
            self.addRow(self.labels[s.key], widget)

    def _widget(self, s: Any) -> QWidget:
        def put(value: Any) -> None:
            if not self._syncing:
                self.setup.set_option(s.key, value)

        if s.kind == "choice":
            box = QComboBox()
            box.setSizeAdjustPolicy(QComboBox.AdjustToContents)  # its size hint follows its choices (retranslate)
            for value in ((None,) if s.optional else ()) + tuple(s.choices):
                box.addItem("", "" if value is None else value)
            box.currentIndexChanged.connect(lambda _i: put(box.currentData() or (None if s.optional else s.default)))
            return box
        if s.kind == "range":
            edit = QLineEdit()
            edit.textChanged.connect(put)
            return edit
        spin: QSpinBox | QDoubleSpinBox
        if s.kind == "int":
            spin = QSpinBox()
            spin.setRange(int(_first(s.gui_low, s.low, 0)), int(_first(s.gui_high, s.high, 2**31 - 1)))
            spin.valueChanged.connect(lambda v: put(int(v)))
        else:
            spin = QDoubleSpinBox()
            spin.setDecimals(s.decimals)
            spin.setRange(float(_first(s.gui_low, s.low, -1e9)), float(_first(s.gui_high, s.high, 1e9)))
            spin.valueChanged.connect(lambda v: put(float(v)))
        spin.setSingleStep(s.step)
        return spin

    def refresh(self) -> None:
        """Show the setup's values (after a change the form did not make)."""
        self._syncing = True
        try:
            for s in self.settings:
                value, widget = self.setup.settings.get(s.key, s.default), self.widgets[s.key]
                if isinstance(widget, QComboBox):
                    widget.setCurrentIndex(max(0, widget.findData("" if value is None else value)))
                elif isinstance(widget, QLineEdit):
                    text = "" if value is None else value if isinstance(value, str) else ",".join(f"{v:g}" for v in value)
                    if widget.text() != text:
                        widget.setText(text)
                elif value is not None:
                    widget.setValue(value)
        finally:
            self._syncing = False

    def retranslate(self) -> None:
        for s in self.settings:
            self.labels[s.key].setText(_(s.label))
            widget = self.widgets[s.key]
            if s.tooltip:
                widget.setToolTip("\n".join(_(line) for line in s.tooltip))
            if isinstance(widget, QComboBox):
                names = ((s.none_label,) if s.optional else ()) + tuple(s.choice_labels)
                for i, name in enumerate(names):
                    widget.setItemText(i, _(name) if name else str(widget.itemData(i)))
                # never narrower than its longest choice in this language: in Italian and French the
                # longer labels squeezed the field column, and "persone, modelli di frase e parole"
                # showed as "persone, modelli di" (where label and choice do not fit side by side, the
                # choice goes under its label: WrapLongRows above)
                widget.setMinimumWidth(0)
                widget.setMinimumWidth(widget.sizeHint().width())
            elif isinstance(widget, QLineEdit) and s.kind == "range":
                widget.setPlaceholderText(_("e.g. 0,1 (empty: declared)"))


def _first(*values: Any) -> Any:
    return next(v for v in values if v is not None)
