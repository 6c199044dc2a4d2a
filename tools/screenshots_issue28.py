"""Screenshots of issue 28's translator screens, made by the app itself (offscreen, widget.grab()).

    .venv/bin/python tools/screenshots_issue28.py [--lang en ar pt] [--out docs/screenshots]

Per interface language: ``pt-workbench-LANG.png`` (a Portuguese corpus with a race axis, names
tagged, noun-phrase pairs, the Add dialog's line syntax done), ``pt-checks-LANG.png`` (the checks
panel with the E002 advice that names the template fix and its one-click *Fix* button) and
``translate-dialog-LANG.png`` (source picker, template texts beside their ids, "keep only").
``spelling-LANG.png`` (en, ar): a misspelt word underlined in red, right-clicked: the
dictionary's suggestions and "Add “word” to the corpus word list" (a template of the Portuguese
corpus in English; an emotion word of the Arabic corpus in Arabic).
A temporary EEC Studio home keeps personal files out of them.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from screenshots_workbench import _grab, _save, _settle, _setup, _window  # noqa: E402

sys.path.insert(0, str(ROOT))
from testkit.pt_scenario import build_page  # noqa: E402


def shots(app, out: Path, lang: str) -> None:
    from engine.corpus import load_corpus
    from gui import i18n
    from gui.dialogs import TranslateDialog
    from gui.workbench.add_entry import AddEntryDialog

    i18n.set_language(lang, app)
    win = _window(app)
    page = build_page(win)
    page.jump_to("persons", "minha_irma")
    _settle(app, page)
    # the Add dialog over the workbench, with its per-line reading of a batch about to be added
    dlg = AddEntryDialog(page.doc.corpus, "persons", lambda _v: None, page)
    dlg.text.setPlainText("Rosa f negro\nminha tia f ~ meu tio m")
    dlg.show()
    _settle(app)
    _save(win, out / f"pt-workbench-{lang}.png")
    _grab(dlg, app, out / f"pt-add-persons-{lang}.png")
    dlg.close()
    page.side.setCurrentWidget(page.checks)
    page.checks.select_code("E002")
    _settle(app, page)
    _grab(page.side, app, out / f"pt-checks-{lang}.png")
    tr = TranslateDialog("en-kiritchenko2018", win, source=load_corpus("en-kiritchenko2018"))
    tr.language.setEditText({"ar": "البرتغالية", "pt": "português"}.get(lang, "Portuguese"))
    tr.keep("T01, T02, T03")
    tr.resize(900, 620)
    tr.show()
    _settle(app)
    _grab(tr, app, out / f"translate-dialog-{lang}.png")
    tr.close()
    win.close()
    i18n.set_language("en", app)


def _with_menu(win, menu, at) -> "QPixmap":  # noqa: F821
    """The window with the open context menu drawn where it pops up (a popup is its own window)."""
    from PySide6.QtGui import QPainter

    shot = win.grab()
    menu.adjustSize()
    picture = menu.grab()
    painter = QPainter(shot)
    corner = win.mapFromGlobal(at)
    if menu.layoutDirection() == menu.layoutDirection().RightToLeft:
        corner.setX(corner.x() - picture.width())  # a right-to-left menu opens to the left
    painter.drawPixmap(corner, picture)
    painter.end()
    return shot


def _word_point(view, index, menu_for, word: str):
    """A point on ``word`` in the cell ``index`` of ``view`` (where its spelling menu names it)."""
    from PySide6.QtCore import QPoint

    rect = view.visualRect(index)
    for x in range(rect.left(), rect.right(), 2):
        p = QPoint(x + 4, rect.center().y())
        menu = menu_for(p)
        if menu is not None and any(word in a.text() for a in menu.actions()):
            return p, menu
    raise SystemExit(f"no spelling menu for {word!r}: is the dictionary installed?")


def spelling(app, out: Path, lang: str, home: Path) -> None:
    """A misspelt word underlined, its right-click menu open (suggestions, add to the word list)."""
    from gui import i18n
    from screenshots_workbench import _copy

    i18n.set_language(lang, app)
    win = _window(app)
    if lang == "ar":  # the Arabic corpus: a dot missing under one letter of an emotion word
        page = win.open_path(_copy(home, "ar-camara2022"))
        where, item, text, word = "emotion_words", "annoyed", "الانزعاح", "الانزعاح"
    else:  # the Portuguese scenario's corpus, a typo in its first template
        page = build_page(win)
        where, item, text, word = "templates", "T01", "{person} está {emotion kind=state gender=person.gender} desde onten.", "onten"
    tab = page.entry_tabs[where]
    page.tabs.setCurrentWidget(tab)
    row = tab.model.row_of(item)
    tab.model.setData(tab.model.index(row, tab.model.target_column()), text)
    page.jump_to(where, item)
    _settle(app, page)
    tab.view.clearSelection()  # the underline in red on white, as most rows show it
    target = tab.model.target_column()  # the whole text in view, the misspelt word included
    tab.view.setColumnWidth(target, max(tab.view.columnWidth(target), tab.view.fontMetrics().horizontalAdvance(text) + 40))
    tab.view.horizontalScrollBar().setValue(0)
    _settle(app)
    index = tab.proxy.mapFromSource(tab.model.index(row, tab.model.target_column()))
    point, menu = _word_point(tab.view, index, tab.view.spelling_menu, word)
    # opened from the word's lower edge, so the menu leaves the underlined word in view
    point.setY(tab.view.visualRect(index).bottom() - 1)
    at = tab.view.viewport().mapToGlobal(point)
    menu.setLayoutDirection(win.layoutDirection())
    menu.popup(at)
    _settle(app)
    path = out / f"spelling-{lang}.png"
    if not _with_menu(win, menu, at).save(str(path)):
        raise SystemExit(f"could not write {path}")
    print(f"{path}: {win.width()}x{win.height()}")
    menu.close()
    win.close()
    i18n.set_language("en", app)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--lang", nargs="+", default=["en", "ar", "pt"])
    ap.add_argument("--only", choices=["translator", "spelling"], default=None, help="one kind of screenshot")
    args = ap.parse_args(argv)
    home = _setup()
    from gui.app import make_app

    app = make_app()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for lang in args.lang:
        if args.only != "spelling":
            shots(app, out, lang)
        if args.only != "translator" and lang in ("en", "ar"):
            spelling(app, out, lang, home)
    print(f"screenshots written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
