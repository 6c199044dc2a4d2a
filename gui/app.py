"""The desktop app's entry: ``run(argv)`` builds the QApplication, the language and the main window.

The GUI never computes statistics; it asks the engine and shows the answer.
``MainWindow`` is re-exported here because scripts and tests import it from ``gui.app``.
"""
from __future__ import annotations

import sys

from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from gui import desktop_entry, i18n, settings
from gui.common.collector import freeze_long_lived
from gui.errors import install_excepthook
from gui.main_window import MainWindow

__all__ = ["MainWindow", "run", "make_app"]


def make_app(argv: list[str] | None = None) -> QApplication:
    """The QApplication with the user's (or the system's) UI language applied."""
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName("EEC Studio")
    app.setOrganizationName("EEC Studio")
    app.setDesktopFileName(desktop_entry.APP_ID)  # Wayland's app id: the task bar matches the menu entry
    app.setWindowIcon(app_icon())
    i18n.set_language(settings.get("language") or i18n.system_language(), app)
    return app


def app_icon() -> QIcon:
    """The window and task-bar icon, in every shipped PNG size (crisp at 16 px as at 512 px)."""
    icon = QIcon()
    for size in desktop_entry.ICON_SIZES:
        path = desktop_entry.ICON_DIR / f"{desktop_entry.ICON_NAME}-{size}.png"
        if path.is_file():
            icon.addFile(str(path), QSize(size, size))
    return icon


def run(argv: list[str] | None = None) -> int:
    app = make_app(argv)
    win = MainWindow()
    install_excepthook(lambda: win)
    win.show()
    freeze_long_lived()  # full garbage collections no longer walk the imported libraries (see there)
    QTimer.singleShot(0, win.offer_recovery)  # after a crash: offer the autosaved work
    return app.exec()
