"""Screenshots of issue 28's translator screens, made by the app itself (offscreen, widget.grab()).

    .venv/bin/python tools/screenshots_issue28.py [--lang en ar pt] [--out docs/screenshots]

Per interface language: ``pt-workbench-LANG.png`` (a Portuguese corpus with a race axis, names
tagged, noun-phrase pairs, the Add dialog's line syntax done), ``pt-checks-LANG.png`` (the checks
panel with the E002 advice that names the template fix and its one-click *Fix* button) and
``translate-dialog-LANG.png`` (source picker, template texts beside their ids, "keep only").
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
from testkit.pt_scenario import AXIS, NAMES, PAIRS, TEMPLATES, WORDS  # noqa: E402


def build(win):
    """The scenario's corpus, typed through the same widgets a translator uses."""
    from engine.corpus.definition.axes import parse_axis_option, with_axis

    page = win.new_corpus("Portuguese")
    doc = page.doc
    doc.set(("axes",), with_axis(doc.corpus, parse_axis_option(AXIS)), "axis")
    tab = page.entry_tabs["templates"]
    for text in TEMPLATES:
        tab.add_entries([{"text": text}])
    for list_name, kind, lines in (("persons", "name", NAMES), ("persons", "noun_phrase", PAIRS),
                                   ("emotion_words", "state", WORDS)):
        from gui.workbench.add_entry import AddEntryDialog

        dlg = AddEntryDialog(doc.corpus, list_name, page.entry_tabs[list_name].add_entries, page)
        dlg.boxes["kind"].setCurrentIndex(dlg.boxes["kind"].findData(kind))
        dlg.text.setPlainText("\n".join(lines))
        dlg.add()
        dlg.deleteLater()
    return page


def shots(app, out: Path, lang: str) -> None:
    from engine.corpus import load_corpus
    from gui import i18n
    from gui.dialogs import TranslateDialog
    from gui.workbench.add_entry import AddEntryDialog

    i18n.set_language(lang, app)
    win = _window(app)
    page = build(win)
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--lang", nargs="+", default=["en", "ar", "pt"])
    args = ap.parse_args(argv)
    _setup()
    from gui.app import make_app

    app = make_app()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for lang in args.lang:
        shots(app, out, lang)
    print(f"screenshots written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
