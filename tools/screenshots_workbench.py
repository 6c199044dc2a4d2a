"""Regenerate the workbench screenshots of the README, made by the app itself (offscreen).

    .venv/bin/python tools/screenshots_workbench.py            # docs/screenshots/workbench.png, checks.png
    .venv/bin/python tools/screenshots_workbench.py --out /tmp/shots --extra   # + Arabic, coverage, translation

Each picture is a real session: the Spanish EEC opened from a copy, the translator's own
edits made through the widgets, the background checker and generator waited for, then
``QWidget.grab()``. A fresh, temporary EEC Studio home keeps personal files out of them.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZE = (1360, 820)


def _setup() -> Path:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = Path(tempfile.mkdtemp(prefix="eec_shot_"))
    os.environ["EEC_STUDIO_HOME"] = str(home)
    sys.path.insert(0, str(ROOT))
    return home


def _settle(app, page=None, seconds: float = 60.0) -> None:
    """Run the event loop until the page's checks and preview are done (never a fixed sleep only)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        app.processEvents()
        if page is None or page.idle:
            break
        time.sleep(0.02)
    for _ in range(10):  # let layouts and repaints catch up
        app.processEvents()
        time.sleep(0.01)


def _window(app):
    from PySide6.QtWidgets import QMessageBox

    from gui.app import MainWindow

    win = MainWindow()
    win.auto_answer = QMessageBox.Discard
    win.resize(*SIZE)
    win.show()
    return win


def _copy(home: Path, corpus_id: str) -> Path:
    """A user copy of a built-in corpus in the (temporary) user corpora folder."""
    src = next((ROOT / "templates").glob(f"*/{corpus_id}.toml"))
    target = home / "corpora" / f"{corpus_id}.toml"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, target)
    return target


def _save(win, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not win.grab().save(str(path)):
        sys.exit(f"could not write {path}")
    print(f"{path}: {win.width()}x{win.height()}")


def workbench(app, home: Path, out: Path) -> None:
    """Spanish: a word with four agreeing forms in the form editor, its sentences in the preview."""
    win = _window(app)
    page = win.open_path(_copy(home, "es-camara2022"))
    page.jump_to("emotion_words", "annoying")
    page.side.setCurrentWidget(page.preview)
    _settle(app, page)
    page.preview.set_filter(template="T05", emotion="anger")
    page.preview.table.view.selectRow(1)
    _settle(app, page)
    _save(win, out / "workbench.png")
    win.close()


def checks(app, home: Path, out: Path) -> None:
    """A problem found while editing: the feminine form of 'angry' removed, the checker says where."""
    win = _window(app)
    page = win.open_path(_copy(home, "es-camara2022"))
    page.jump_to("emotion_words", "angry")
    page.form_editor.table.selectRow(1)
    page.form_editor.remove_form()
    _settle(app, page)
    tree = page.checks.tree
    for i in range(tree.topLevelItemCount()):
        if tree.topLevelItem(i).text(1) == "E001":
            tree.setCurrentItem(tree.topLevelItem(i))
            break
    page.jump_to("emotion_words", "angry")
    _settle(app, page)
    _save(win, out / "checks.png")
    win.close()


def extra(app, home: Path, out: Path) -> None:
    """For reviewing the layout: Arabic variants (right to left), coverage, a new translation."""
    win = _window(app)
    page = win.open_path(_copy(home, "ar-camara2022"))
    page.jump_to("templates", "T05")
    page.side.setCurrentWidget(page.preview)
    _settle(app, page)
    page.preview.set_filter(template="T05")
    _settle(app, page)
    _save(win, out / "workbench-arabic.png")
    page.side.setCurrentWidget(page.coverage)
    _settle(app, page)
    _save(win, out / "coverage.png")
    source = next((ROOT / "templates").glob("*/en-kiritchenko2018.toml"))
    page = win.translate_from(source, "de", "de-kiritchenko2018", "EEC (Deutsch)")
    page.jump_to("persons", "ebony")
    _settle(app, page)
    _save(win, out / "translate.png")
    win.show_page("corpora")
    _settle(app)
    deadline = time.monotonic() + 60
    while not win.corpora.ready and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    _save(win, out / "corpora.png")
    win.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--extra", action="store_true", help="also Arabic, coverage, translation, corpora (for review)")
    args = parser.parse_args(argv)
    home = _setup()
    try:
        from gui.app import make_app

        app = make_app()
        workbench(app, home, args.out)
        checks(app, home, args.out)
        if args.extra:
            extra(app, home, args.out)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
