"""The desktop app's entry: a main window listing corpora (the full workbench is built on it).

The GUI never computes statistics; it asks the engine and shows the answer.
"""
from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QHeaderView,
    QLabel,
    QMainWindow,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.corpus import check_corpus, list_corpora, load_corpus


class MainWindow(QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("EEC Studio")
        self.resize(900, 420)
        central = QWidget()
        layout = QVBoxLayout(central)
        title = QLabel("<h2>Corpora</h2><p>Built-in equity evaluation corpora and your own definitions.</p>")
        layout.addWidget(title)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["Corpus", "Language", "Sentences", "Checker", "Name"])
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.Stretch)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        layout.addWidget(self.table)
        self.setCentralWidget(central)
        self.refresh()

    def refresh(self) -> None:
        entries = list_corpora()
        self.table.setRowCount(len(entries))
        for row, entry in enumerate(entries):
            try:
                c = load_corpus(entry.path)
                rep = check_corpus(c)
                status = "OK" if rep.ok else f"{len(rep.errors)} errors"
                if rep.warnings:
                    status += f", {len(rep.warnings)} warnings"
                values = [c.id, c.language, f"{rep.sentences:,}", status, c.name]
            except Exception as exc:  # show the problem in the row, never crash the window
                values = [entry.id, "?", "-", f"cannot read: {exc}", str(entry.path)]
            for col, v in enumerate(values):
                item = QTableWidgetItem(v)
                if col == 2:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        self.statusBar().showMessage(f"{len(entries)} corpora")


def run(argv: list[str] | None = None) -> int:
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName("EEC Studio")
    win = MainWindow()
    win.show()
    return app.exec()
