"""Regenerate the workbench screenshots of the README, made by the app itself (offscreen).

    .venv/bin/python tools/screenshots_workbench.py            # docs/screenshots/workbench.png, checks.png
    .venv/bin/python tools/screenshots_workbench.py --out /tmp/shots --extra   # + Arabic, coverage, translation
    .venv/bin/python tools/screenshots_workbench.py --lang it    # the workbench in Italian, 1280 x 800

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


def _grab(widget, app, path: Path) -> None:
    widget.show()
    _settle(app)
    _save(widget, path)


def translator(app, home: Path, out: Path, lang: str) -> None:
    """The translator's screens (issue 18), in the interface language ``lang``: welcome, new
    corpus, adding persons, a new French corpus with its labelled form rows, a translation with
    progress, grouped checks and memory suggestions, the import preview, Arabic template chips."""
    from gui import i18n
    from gui.dialogs import NewCorpusDialog
    from gui.workbench.add_entry import AddEntryDialog
    from gui.workbench.exporting import ImportPreview, merge_returned

    i18n.set_language(lang, app)
    sfx = "" if lang == "en" else f"-{lang}"
    win = _window(app)
    win.show_page("corpora")
    deadline = time.monotonic() + 60
    while not win.corpora.ready and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    _settle(app)
    _save(win, out / f"welcome{sfx}.png")

    dlg = NewCorpusDialog(win)
    dlg.language.setEditText(dlg.language.itemText(dlg.language.findData("fr")))
    _grab(dlg, app, out / f"new-corpus{sfx}.png")
    values = dlg.values()
    dlg.close()
    page = win.new_corpus(**values)
    t = page.entry_tabs["templates"]
    for text in ("{person} est {emotion kind=state gender=person.gender}.",
                 "Je trouve {person} {emotion kind=state gender=person.gender}."):
        t.add_entries([{"text": text}])
    p = page.entry_tabs["persons"]
    page.tabs.setCurrentWidget(p)
    add = AddEntryDialog(page.doc.corpus, "persons", p.add_entries, win)
    add.boxes["kind"].setCurrentIndex(add.boxes["kind"].findData("noun_phrase"))
    add.boxes["axis:gender"].setCurrentIndex(add.boxes["axis:gender"].findData("female"))
    add.text.setPlainText("ma mère\nma sœur")
    _grab(add, app, out / f"add-persons{sfx}.png")
    add.add()
    add.boxes["axis:gender"].setCurrentIndex(add.boxes["axis:gender"].findData("male"))
    add.text.setPlainText("mon père\nmon frère")
    add.add()
    add.close()
    e = page.entry_tabs["emotion_words"]
    e.add_entries([{"text": "furieuse / furieux", "emotion": "anger", "kind": "state"},
                   {"text": "effrayé", "emotion": "fear", "kind": "state"}])
    page.tabs.setCurrentWidget(e)
    page.jump_to("emotion_words", "effraye")
    page.side.setCurrentWidget(page.checks)
    _settle(app, page)
    _save(win, out / f"new-corpus-workbench{sfx}.png")

    source = next((ROOT / "templates").glob("*/en-kiritchenko2018.toml"))
    page = win.translate_from(source, "es", "es-mine", "EEC (español)")
    page.entry_tabs["templates"].model.setData(
        page.entry_tabs["templates"].model.index(0, page.entry_tabs["templates"].model.column_index("text")),
        "{person} está {emotion kind=state gender=person.gender}.")
    from engine.corpus import Form

    doc = page.doc
    for pid, text in (("np_my_mother", "mi madre"), ("np_my_father", "mi padre")):
        doc.set(("persons", doc.index_of("persons", pid), "forms"), [Form(text)], "form")
    doc.set(("emotion_words", doc.index_of("emotion_words", "angry"), "forms"), [Form("enojado", {"gender": "m"})], "f")
    _settle(app, page)
    page.jump_to("emotion_words", "annoyed")
    _settle(app, page)
    page.suggestions.insert(0)
    page.jump_to("emotion_words", "angry")
    _settle(app, page)
    tree = page.checks.tree
    if tree.topLevelItemCount():
        tree.setCurrentItem(tree.topLevelItem(0))
        tree.topLevelItem(0).setExpanded(True)
    _settle(app, page)
    _save(win, out / f"translate-progress{sfx}.png")

    po = home / "es-mine.po"
    win.export_to("po", po)
    text = po.read_text(encoding="utf-8")
    ctx = 'msgctxt "persons/np_my_sister#0"'
    head, tail = text.split(ctx, 1)
    msgid, rest = tail.split('msgstr ""', 1)
    po.write_text(head + ctx + msgid + 'msgstr "mi hermana"' + rest, encoding="utf-8")
    preview = ImportPreview(merge_returned(page.doc, po), po.name, win)
    _grab(preview, app, out / f"import-preview{sfx}.png")
    preview.close()

    page = win.open_path(_copy(home, "ar-camara2022"))
    page.jump_to("templates", "T03")
    _settle(app, page)
    _save(win, out / f"arabic-templates{sfx}.png")
    win.close()
    i18n.set_language("en", app)


def interface(app, home: Path, out: Path, lang: str) -> None:
    """The workbench in the interface language ``lang`` (issue 39: the Italian interface): the
    Spanish EEC with an emotion word's forms and its checks, and the English EEC being translated
    into ``lang`` with the form editor on a two-form word; both at the 1280 × 800 of a laptop."""
    from engine.corpus import Form
    from gui import i18n

    i18n.set_language(lang, app)
    win = _window(app)
    win.resize(1280, 800)
    page = win.open_path(_copy(home, "es-camara2022"))
    page.jump_to("emotion_words", "angry")
    page.side.setCurrentWidget(page.checks)
    _settle(app, page)
    _save(win, out / f"workbench-{lang}.png")
    page.side.setCurrentWidget(page.preview)
    page.preview.set_filter(template="T05", emotion="anger")
    _settle(app, page)
    _save(win, out / f"preview-{lang}.png")
    source = next((ROOT / "templates").glob("*/en-kiritchenko2018.toml"))
    page = win.translate_from(source, lang, f"{lang}-mine", "EEC")
    doc = page.doc
    doc.set(("emotion_words", doc.index_of("emotion_words", "angry"), "forms"),
            [Form("arrabbiata", {"gender": "f"})], "f")
    page.jump_to("emotion_words", "angry")
    page.side.setCurrentWidget(page.checks)
    _settle(app, page)
    _save(win, out / f"translate-{lang}.png")
    win.close()
    i18n.set_language("en", app)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--extra", action="store_true", help="also Arabic, coverage, translation, corpora (for review)")
    parser.add_argument("--translator", action="store_true",
                        help="only the translator's screens (welcome, new corpus, progress, import), English and Arabic")
    parser.add_argument("--lang", action="append", default=[],
                        help="only the workbench in this interface language (repeatable): workbench-LANG.png, "
                             "preview-LANG.png, translate-LANG.png")
    args = parser.parse_args(argv)
    home = _setup()
    try:
        from gui.app import make_app

        app = make_app()
        if args.lang:
            for lang in args.lang:
                interface(app, home, args.out, lang)
            return 0
        if args.translator:
            for lang in ("en", "ar"):
                translator(app, home, args.out, lang)
            return 0
        workbench(app, home, args.out)
        checks(app, home, args.out)
        if args.extra:
            extra(app, home, args.out)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
