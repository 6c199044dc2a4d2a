"""The corpora list: built-in and the user's own, with language, size and checker status.

Why on the start screen: the first question is "which corpora do I have and are they sound?";
the sentence count and the checker status come from the engine, never from a cached guess.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui import settings
from gui.common.background import Each
# the engine (and pandas, ~1 s) loads in the background checks, not before the first window
from engine.corpus.definition.registry import list_corpora
from gui.common.header_fit import fit_header_titles
from gui.i18n import _, connect_retranslate, isolated, list_separator, ngettext, number

PATH_ROLE = Qt.UserRole + 30


class CorpusList(QWidget):
    """``open_requested(path)``, ``translate_requested(path)``, ``open_file_requested()``."""

    open_requested = Signal(str)
    translate_requested = Signal(str)
    open_file_requested = Signal()
    open_path_requested = Signal(str)  # a recent file
    new_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.RichText)
        self.table = QTableWidget(0, 6)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.doubleClicked.connect(lambda _i: self._emit(self.open_requested))
        self.open_button = QPushButton()
        self.open_button.clicked.connect(lambda: self._emit(self.open_requested))
        self.translate_button = QPushButton()
        self.translate_button.clicked.connect(lambda: self._emit(self.translate_requested))
        self.file_button = QPushButton()
        self.file_button.clicked.connect(self.open_file_requested.emit)
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(self.refresh)
        buttons = QHBoxLayout()
        for b in (self.open_button, self.translate_button, self.file_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.refresh_button)
        self.recent_label = QLabel()
        self.recent = QListWidget()
        self.recent.setMaximumHeight(130)
        # a double-click sends both signals (itemActivated also comes with Enter): each opened the file,
        # and the second read an item the first had deleted, "Something went wrong" (issue 39). Both
        # lead to one deferred open, and a repeat within a double-click interval is the same gesture.
        self.recent.itemActivated.connect(self._recent_activated)
        self.recent.itemDoubleClicked.connect(self._recent_activated)
        self._last_open: tuple[str, float] = ("", 0.0)
        from gui.home.welcome import WelcomePanel

        self.welcome = WelcomePanel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.welcome)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.recent_label)
        layout.addWidget(self.recent)
        self.entries: list[Any] = []
        self._loader = Each(self._row_done, self._row_failed, self)
        connect_retranslate(self)
        self.retranslate()
        self.refresh()

    def retranslate(self, *_args: Any) -> None:
        self.intro.setText("<h2>%s</h2><p>%s</p>" % (
            _("Corpora"),
            _("Built-in equity evaluation corpora and your own definitions. Open one to edit it in the "
              "workbench, or start a new language from it (same templates and persons, empty target forms).")))
        self.table.setHorizontalHeaderLabels([_("Corpus"), _("Language"), _("Sentences"), _("Checker"), _("Name"),
                                              _("Kept in")])
        self.open_button.setText(_("Open in workbench"))
        self.translate_button.setText(_("Translate into a new language…"))
        self.file_button.setText(_("Open file…"))
        self.refresh_button.setText(_("Refresh"))
        self.recent_label.setText("<b>%s</b> — %s" % (_("Recent files"), _("double-click to open")))
        self.refresh_recent()
        if self.entries:
            self.refresh()

    def _recent_activated(self, item: Any) -> None:
        import time

        from PySide6.QtWidgets import QApplication

        path = item.data(PATH_ROLE) if item is not None else None
        if not path:  # the "No recent files yet" line
            return
        now = time.monotonic()
        last, when = self._last_open
        if path == last and now - when < 2 * QApplication.doubleClickInterval() / 1000:
            return
        self._last_open = (path, now)
        QTimer.singleShot(0, lambda: self.open_path_requested.emit(path))  # after this handler: the list outlives it

    def refresh_recent(self) -> None:
        """The definition files opened or saved lately (File → Open recent lists the same)."""
        self.recent.clear()
        files = settings.recent_files()
        for path in files:
            item = QListWidgetItem(f"{Path(path).name}    —    {Path(path).parent}")
            item.setData(PATH_ROLE, path)
            item.setToolTip(path)
            if not Path(path).exists():
                item.setForeground(Qt.gray)
                item.setToolTip(_("{path} (no longer exists)").format(path=isolated(path)))
            self.recent.addItem(item)
        if not files:
            item = QListWidgetItem(_("No recent files yet. Files you open or save appear here."))
            item.setFlags(Qt.NoItemFlags)
            self.recent.addItem(item)

    def refresh(self) -> None:
        """List the corpora now; their size and checker status arrive from background checks."""
        self.entries = list_corpora()
        self.table.setRowCount(len(self.entries))
        for row, entry in enumerate(self.entries):
            self._set_row(row, [entry.id, "", "…", _("checking…"), ""], entry)
        self._fit_columns()
        if self.entries and self.table.currentRow() < 0:
            self.table.selectRow(0)
        self._loader.submit_all([(lambda p=e.path: _summarise(p)) for e in self.entries])

    @property
    def ready(self) -> bool:
        """All rows have their checker status (tests wait for this)."""
        return self._loader.pending == 0

    def _row_done(self, row: int, result: tuple) -> None:
        if row >= len(self.entries):
            return
        c_id, language, sentences, errors, warnings, name = result
        status = _("OK") if not errors else ngettext("{n} error", "{n} errors", errors).format(n=errors)
        if warnings:
            status += list_separator() + ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings)
        self._set_row(row, [c_id, language, number(sentences), status, name], self.entries[row])
        if self.ready:
            self._fit_columns()

    def _fit_columns(self) -> None:
        """Columns as wide as their contents, but a long folder path (Kept in) leaves room for the
        stretched Name, and no title is ever cut (German and Spanish titles are the widest)."""
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(5, min(self.table.columnWidth(5), 320))
        fit_header_titles(self.table.horizontalHeader())

    def _row_failed(self, row: int, exc: BaseException) -> None:
        if row < len(self.entries):
            entry = self.entries[row]
            self._set_row(row, [entry.id, "?", "–", _("cannot read: {why}").format(why=exc), str(entry.path)], entry)

    def _set_row(self, row: int, values: list[str], entry: Any) -> None:
        # built-in corpora and the user's own copies may share an id: say which is which
        values = list(values) + [_("built-in") if entry.builtin else _("your corpora")]
        for col, v in enumerate(values):
            item = QTableWidgetItem(v)
            if col == 2:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            item.setData(PATH_ROLE, str(entry.path))
            if col == 0 and not entry.builtin:
                item.setToolTip(_("Your corpus: {path}").format(path=isolated(entry.path)))
            self.table.setItem(row, col, item)

    def selected_path(self) -> str:
        row = self.table.currentRow()
        item = self.table.item(row, 0) if row >= 0 else None
        return item.data(PATH_ROLE) if item else ""

    def select_id(self, corpus_id: str) -> bool:
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).text() == corpus_id:
                self.table.selectRow(r)
                return True
        return False

    def _emit(self, signal: Any) -> None:
        path = self.selected_path()
        if path:
            signal.emit(path)

    def paths(self) -> list[Path]:
        return [e.path for e in self.entries]


def _summarise(path: Path) -> tuple[str, str, int, int, int, str]:
    """Worker thread: one corpus's numbers, as `corpus list` gives them (the engine's status cache,
    engine/corpus/check/status_cache.py: kept per file content between runs, so a restart, a second
    window or a Refresh does not re-check unchanged files, and a changed file is always checked again)."""
    from engine.corpus.check.status_cache import corpus_status

    st = corpus_status(path)
    return (st.id, st.language, st.sentences, st.errors, st.warnings, st.name)
