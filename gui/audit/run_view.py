"""The Audit page's lower half: where the results go, Run / Cancel / Export report, progress with
phase, elapsed time and ETA, an error banner that says what to do, and the log."""
from __future__ import annotations

import datetime as _dt
import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gui.common.extras import grey_combo_item
from gui.errors import FriendlyError
from gui.i18n import _, connect_retranslate, isolated, number

from .setup_model import AuditSetup


#: an address, not a sentence: the same in every language
SCHEDULER_EXAMPLE = "tcp://HOST:8786"


def format_eta(seconds: float | None) -> str:
    """'about 2 min 5 s left' (translated); '' when unknown."""
    if seconds is None or seconds != seconds or seconds < 0:
        return ""
    s = int(round(seconds))
    if s < 60:
        return _("about {s} s left").format(s=s)
    if s < 3600:
        return _("about {m} min {s} s left").format(m=s // 60, s=s % 60)
    return _("about {h} h {m} min left").format(h=s // 3600, m=(s % 3600) // 60)


def format_elapsed(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{(s % 3600) // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class AuditRunView(QWidget):
    """Widgets only; the page decides what they say (state lives in the page and the worker)."""

    def __init__(self, setup: AuditSetup, default_out_root: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setup = setup
        self.default_out_root = default_out_root
        self.out_label = QLabel()
        self.out_dir = QLineEdit(setup.out_dir)
        self.out_dir.textChanged.connect(lambda t: setup.set_option("out_dir", t))
        self.out_button = QPushButton()
        self.out_button.clicked.connect(self.ask_out_dir)
        self.run_button = QPushButton()
        self.run_button.setDefault(True)
        bold = QFont(self.run_button.font())
        bold.setBold(True)
        self.run_button.setFont(bold)
        self.cancel_button = QPushButton()
        self.report_button = QPushButton()
        self.run_on_label = QLabel()
        self.run_on = QComboBox()
        self.run_on.addItem("", "local")
        self.run_on.addItem("", "dask")
        self.run_on.setCurrentIndex(max(0, self.run_on.findData(setup.run_on)))
        self.scheduler = QLineEdit(setup.scheduler)
        self.scheduler.setPlaceholderText(SCHEDULER_EXAMPLE)
        self.scheduler.textChanged.connect(lambda t: setup.set_option("scheduler", t))
        self.run_on.currentIndexChanged.connect(self._run_on_changed)
        self._run_on_changed()
        out_row = QHBoxLayout()
        out_row.addWidget(self.run_on_label)
        out_row.addWidget(self.run_on)
        out_row.addWidget(self.scheduler, 1)
        out_row.addSpacing(16)
        out_row.addWidget(self.out_label)
        out_row.addWidget(self.out_dir, 1)
        out_row.addWidget(self.out_button)
        out_row.addSpacing(16)
        out_row.addWidget(self.run_button)
        out_row.addWidget(self.cancel_button)
        out_row.addWidget(self.report_button)

        self.phase_label = QLabel()
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.eta_label = QLabel()
        self.eta_label.setMinimumWidth(220)
        prog_row = QHBoxLayout()
        prog_row.addWidget(self.phase_label)
        prog_row.addWidget(self.progress, 1)
        prog_row.addWidget(self.eta_label)

        self.error_banner = QLabel()
        self.error_banner.setWordWrap(True)
        self.error_banner.setTextFormat(Qt.RichText)
        self.error_banner.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.error_banner.setFrameShape(QFrame.StyledPanel)
        self.error_banner.setStyleSheet("QLabel { background: #fdecea; color: #611a15; border: 1px solid #f5c6cb;"
                                        " border-radius: 4px; padding: 8px; }")
        self.error_banner.hide()
        self.log_label = QLabel()
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        self.log.setFont(QFont("monospace"))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(out_row)
        lay.addLayout(prog_row)
        lay.addWidget(self.error_banner)
        lay.addWidget(self.log_label)
        lay.addWidget(self.log, 1)
        connect_retranslate(self)
        self.retranslate()

    def retranslate(self, *_args: Any) -> None:
        self.run_on_label.setText(_("Run on:"))
        self.run_on.setItemText(0, _("this computer"))
        self.run_on.setItemText(1, _("a Dask scheduler at"))
        self.run_on.setToolTip(_("A Dask cluster scores the corpora on its workers (docs/sweep.md); the statistics "
                                 "are computed here, exactly as for a local audit"))
        grey_combo_item(self.run_on, 1, "cluster")  # without the 'cluster' extra: listed, greyed, with the command
        self.out_label.setText(_("Results folder:"))
        self.out_dir.setPlaceholderText(_("a new folder under {path}").format(path=isolated(self.default_out_root())))
        self.out_button.setText(_("Choose…"))
        self.run_button.setText(_("Run audit"))
        self.cancel_button.setText(_("Cancel"))
        self.report_button.setText(_("Export report…"))
        self.report_button.setToolTip(_("Write an HTML report of the last finished audit"))
        self.log_label.setText(_("Log"))

    def _run_on_changed(self, *_args: Any) -> None:
        where = self.run_on.currentData() or "local"
        self.setup.set_option("run_on", where)
        self.scheduler.setVisible(where == "dask")

    def ask_out_dir(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose the results folder"), str(self.default_out_root()))
        if folder:
            self.out_dir.setText(folder)

    # -- what the page shows ---------------------------------------------------------------
    def append(self, line: str) -> None:
        self.log.appendPlainText(f"[{_dt.datetime.now().strftime('%H:%M:%S')}] {line}")

    def show_counts(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        # a left-to-right isolate: in Arabic the counts would otherwise read "total / done"
        self.progress.setFormat(f"\u2066{number(done)} / {number(total)}\u2069  (%p%)")

    def show_busy(self) -> None:
        self.progress.setRange(0, 0)

    def show_error(self, info: FriendlyError) -> None:
        body = html.escape(info.text).replace("\n", "<br>")
        extra = info.as_text()[len(info.text):].strip()
        tip = f"<br><br><b>{html.escape(_('What to do:'))}</b> {html.escape(extra).replace(chr(10), '<br>')}" if extra else ""
        self.error_banner.setText(f"<b>{html.escape(info.title)}</b><br>{body}{tip}")
        self.error_banner.show()

    def clear_error(self) -> None:
        self.error_banner.hide()
        self.error_banner.clear()
