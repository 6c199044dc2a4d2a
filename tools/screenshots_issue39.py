"""Screenshots of issue 39's translator screens, made by the app itself (offscreen, widget.grab()).

    .venv/bin/python tools/screenshots_issue39.py [--lang en ar] [--out docs/screenshots]

Per interface language, at the 1280 × 800 window of the issue's trial: ``batch-translate-LANG.png``
(en-kiritchenko2018 being translated into Italian: *Translate many…* with the scenario's pasted
block, each line's reading and the checker's verdict before anything is applied) and
``form-editor-flow-LANG.png`` (Ctrl+Shift+Down landed on *terrified* in the form editor, its first
form typed, Tab moved to the second one's text). A temporary EEC Studio home keeps personal files
out of them.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from screenshots_workbench import _grab, _save, _settle, _setup  # noqa: E402

sys.path.insert(0, str(ROOT))


def _page(app, win):
    from engine.corpus import load_corpus
    from engine.corpus.translate.new_language import Subset
    from testkit.it_scenario import KEEP, SOURCE

    ids = [w.strip() for w in KEEP.split(",")]
    src = load_corpus(SOURCE)
    subset = Subset(**{name: [i for i in ids if any(e.id == i for e in getattr(src, name))]
                       for name in ("templates", "persons", "emotion_words")})
    page = win.translate_from(src.path, "it", "it-kiritchenko2018", subset=subset)
    page.doc.set(("speaker_gender",), "m", "speaker")
    _settle(app, page)
    return page


def shots(app, out: Path, lang: str) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMessageBox

    from gui import i18n
    from gui.app import MainWindow
    from testkit.it_scenario import BATCH

    i18n.set_language(lang, app)
    win = MainWindow()
    win.auto_answer = QMessageBox.Discard
    win.resize(1280, 800)
    win.show()
    page = _page(app, win)
    dlg = page.batch_dialog()
    dlg.text.setPlainText("\n".join(BATCH[:-2] + ["depressed: depressa", "scared: spaventata | spaventato"]))
    dlg.read()
    _settle(app)
    while not dlg.idle:
        _settle(app)
    _grab(dlg, app, out / f"batch-translate-{lang}.png")
    # apply everything but the last two emotion words, then the keyboard flow on one of them
    dlg.text.setPlainText("\n".join(BATCH[:-2]))
    dlg.apply()
    dlg.close()
    page.jump_to("templates", "T01")
    win.activateWindow()
    _settle(app, page)
    QTest.keyClick(win.windowHandle(), Qt.Key_Down, Qt.ControlModifier | Qt.ShiftModifier)
    _settle(app)
    editor = QApplication.focusWidget()
    for ch in "emozionata":
        QTest.keyClick(editor, ch)
    QTest.keyClick(editor, Qt.Key_Tab)
    _settle(app)
    editor = QApplication.focusWidget()
    for ch in "emoziona":
        QTest.keyClick(editor, ch)
    _settle(app, page)
    _save(win, out / f"form-editor-flow-{lang}.png")
    win.close()
    i18n.set_language("en", app)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--lang", nargs="+", default=["en", "ar"])
    args = ap.parse_args(argv)
    _setup()
    from gui.app import make_app

    app = make_app()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for lang in args.lang:
        shots(app, out, lang)
    return 0


if __name__ == "__main__":
    sys.exit(main())
