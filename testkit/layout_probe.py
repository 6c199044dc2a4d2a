"""Find clipped text in the workbench: labels, buttons, tabs, combo boxes, table headers and table cells whose
text, measured with the widget's own font, does not fit the room the style gives it.

One home for the in-process layout test (100 %) and the 125 % run, which needs a process of its
own because Qt reads ``QT_SCALE_FACTOR`` only before the QApplication exists::

    QT_QPA_PLATFORM=offscreen QT_SCALE_FACTOR=1.25 python -m testkit.layout_probe FOLDER WxH … --lang es …

prints ``{"scale": 1.25, "problems": {"es": [problem, …]}}`` as JSON (a corpus is copied into FOLDER).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QCheckBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionViewItem,
    QTabBar,
    QTableView,
)

ROOT = Path(__file__).resolve().parents[1]
#: free-text columns: a sentence longer than its column is elided by design (the whole text is in
#: the tooltip and in the form editor), unlike a short value (id, kind, status) that must fit
FREE_TEXT = {"text", "forms", "source", "note"}
LISTS = ("templates", "persons", "emotion_words")


def _labels(root: Any) -> list[str]:
    out = []
    for w in root.findChildren(QLabel):
        text = w.text()
        if not w.isVisible() or not text or w.wordWrap() or "<" in text or "\n" in text or not w.pixmap().isNull():
            continue
        need = w.fontMetrics().horizontalAdvance(text)
        have = w.contentsRect().width() - 2 * w.margin() - 2 * w.indent() if w.indent() > 0 else w.contentsRect().width()
        if need > have + 1:
            out.append(f"label {text!r} ({need} > {have})")
    return out


def _buttons(root: Any) -> list[str]:
    out = []
    for w in root.findChildren(QAbstractButton):
        text = w.text().replace("&", "")
        if not w.isVisible() or not text:
            continue
        extra = 24 if isinstance(w, QCheckBox) else 8
        need = w.fontMetrics().horizontalAdvance(text) + extra
        if need > w.width() + 1:
            out.append(f"button {text!r} ({need} > {w.width()})")
    return out


def _tabs(root: Any) -> list[str]:
    out = []
    for bar in root.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for i in range(bar.count()):
            text = bar.tabText(i).replace("&", "")
            need = bar.fontMetrics().horizontalAdvance(text)
            if need > bar.tabRect(i).width() - 8:
                out.append(f"tab {text!r} ({need} > {bar.tabRect(i).width() - 8})")
    return out


def _combos(root: Any) -> list[str]:
    """A combo box whose current text is wider than its edit field (Qt cuts it off)."""
    out = []
    for box in root.findChildren(QComboBox):
        text = box.currentText()
        if not box.isVisible() or not text or box.isEditable():
            continue
        opt = QStyleOptionComboBox()
        box.initStyleOption(opt)
        have = box.style().subControlRect(QStyle.CC_ComboBox, opt, QStyle.SC_ComboBoxEditField, box).width()
        need = box.fontMetrics().horizontalAdvance(text)
        if need > have:
            out.append(f"combo {text!r} ({need} > {have})")
    return out


def _cut_at_edge(root: Any) -> list[str]:
    """A combo box that a scrolled pane shows only in part, its text cut by the pane's left or
    right edge ("(qualque" in a form editor too narrow for its feature columns); one scrolled
    wholly out of view is not shown, hence not cut. In a table whose first column is free text
    (the form editor's Text), a cut combo counts only while that text is wider than the floor
    it yields room down to: with more features than the pane holds even then, the table
    scrolls sideways by design."""
    from gui.workbench.form_editor import TEXT_FLOOR

    out = []
    for box in root.findChildren(QComboBox):
        if not box.isVisible() or not box.currentText():
            continue
        area, parent = None, box.parentWidget()
        while parent is not None and area is None:
            area = parent if isinstance(parent, QAbstractScrollArea) else None
            parent = parent.parentWidget()
        if area is None or (isinstance(area, QTableView) and area.columnWidth(0) <= TEXT_FLOOR):
            continue
        view = area.viewport()
        left = box.mapTo(view, QPoint(0, 0))
        top, bottom, right = left.y(), left.y() + box.height(), left.x() + box.width()
        if bottom <= 0 or top >= view.height() or right <= 0 or left.x() >= view.width():
            continue  # scrolled out of view
        if left.x() < 0 or right > view.width():
            out.append(f"combo {box.currentText()!r} cut at the edge of its pane "
                       f"({left.x()}..{right} of 0..{view.width()})")
    return out


def _headers(root: Any) -> list[str]:
    """A horizontal header section whose title needs more than its width (Qt elides it)."""
    out = []
    for header in root.findChildren(QHeaderView):
        if not header.isVisible() or header.orientation() != Qt.Horizontal or header.model() is None:
            continue
        margin = header.style().pixelMetric(QStyle.PM_HeaderMargin, None, header)
        fm = header.fontMetrics()
        for logical in range(header.count()):
            if header.isSectionHidden(logical) or header.sectionSize(logical) == 0:
                continue
            text = header.model().headerData(logical, Qt.Horizontal, Qt.DisplayRole)
            if not isinstance(text, str) or not text:
                continue
            need = max(fm.horizontalAdvance(line) for line in text.split("\n")) + 2 * margin
            if need > header.sectionSize(logical):
                out.append(f"header {text!r} ({need} > {header.sectionSize(logical)})".replace("\\n", " "))
    return out


def _cells(view: QTableView, skip_columns: set[int]) -> list[str]:
    """Visible cells whose text is wider than the style's text rectangle less its margins (the
    exact test QCommonStyle uses before it elides)."""
    out = []
    model = view.model()
    style = view.style()
    margin = style.pixelMetric(QStyle.PM_FocusFrameHMargin, None, view) + 1
    area = view.viewport().rect()
    first = max(0, view.rowAt(area.top()))
    last = view.rowAt(area.bottom())
    last = model.rowCount() - 1 if last < 0 else last
    for row in range(first, last + 1):
        if view.isRowHidden(row):
            continue
        for col in range(model.columnCount()):
            if col in skip_columns or view.isColumnHidden(col):
                continue
            index = model.index(row, col)
            rect = view.visualRect(index)
            if not rect.intersects(area) or view.indexWidget(index) is not None:
                continue
            opt = QStyleOptionViewItem()
            view.initViewItemOption(opt)
            opt.rect = rect
            view.itemDelegateForIndex(index).initStyleOption(opt, index)
            if not opt.text or "\n" in opt.text:
                continue
            have = style.subElementRect(QStyle.SE_ItemViewItemText, opt, view).width() - 2 * margin
            need = opt.fontMetrics.horizontalAdvance(opt.text)
            if need > have:
                header = model.headerData(col, Qt.Horizontal, Qt.DisplayRole)
                out.append(f"cell {header}: {opt.text!r} ({need} > {have})")
    return out


def clipped(root: Any) -> list[str]:
    """'kind text (needs N px, has M)' for every visible piece of text that does not fit; cells
    are measured in the workbench's entry tables (their short-value columns)."""
    out = _labels(root) + _buttons(root) + _tabs(root) + _combos(root) + _cut_at_edge(root) + _headers(root)
    for view in root.findChildren(QTableView):
        if not view.isVisible() or view.model() is None:
            continue
        columns = getattr(getattr(view.model(), "sourceModel", lambda: None)(), "columns", None)
        if columns is not None:
            out += _cells(view, {i for i, c in enumerate(columns) if c.key in FREE_TEXT})
    return out


def probe(win: Any, page: Any, settle: Callable[[], None], sizes: list[tuple[int, int]],
          resized: Callable[[tuple[int, int]], None], side_tabs: bool = True) -> list[str]:
    """Every side tab with the Emotion-words table shown (``side_tabs``), then every entry table,
    the Corpus tab and the start page, at each size."""
    problems: list[str] = []
    for size in sizes:
        win.resize(*size)
        resized(size)
        if (win.width(), win.height()) != size:
            problems.append(f"{size}: the window stays {win.width()}x{win.height()}")
            continue
        page.tabs.setCurrentWidget(page.entry_tabs["emotion_words"])
        for tab in range(page.side.count() if side_tabs else 0):
            page.side.setCurrentIndex(tab)
            settle()
            problems += [f"{size} side tab {tab}: {p}" for p in clipped(win)]
        page.side.setCurrentIndex(0)
        for name in LISTS:
            page.tabs.setCurrentWidget(page.entry_tabs[name])
            settle()
            problems += [f"{size} {name}: {p}" for p in clipped(win)]
        page.tabs.setCurrentWidget(page.settings_tab)
        settle()
        problems += [f"{size} corpus tab: {p}" for p in clipped(win)]
        if side_tabs:
            win.show_page("corpora")
            QApplication.processEvents()
            problems += [f"{size} start page: {p}" for p in clipped(win)]
            win.show_page("workbench")
    return sorted(set(problems))


def probe_scenarios(app: Any, make_window: Callable[[], Any], folder: Path, lang: str, sizes: list[tuple[int, int]],
                    wait: Callable[[Callable[[], bool], float], None]) -> list[str]:
    """The interface in ``lang``: a built-in corpus opened (es-camara2022, every side tab), a
    corpus typed in from nothing (the Portuguese scenario of testkit.pt_scenario: its columns
    were sized while the tables were still empty), and the built-in corpus opened in English
    with ``lang`` chosen afterwards in Preferences (widgets sized for English, retranslated in
    place: Qt sizes a combo box once, at first show)."""
    from gui import i18n
    from testkit.pt_scenario import build_page

    i18n.set_language(lang, app)
    problems = []
    for scenario in ("es-camara2022", "pt") + (("live",) if lang != i18n.SOURCE_LANGUAGE else ()):
        if scenario == "live":
            i18n.set_language(i18n.SOURCE_LANGUAGE, app)
        win = make_window()
        win.resize(*sizes[0])
        if scenario == "pt":
            page = build_page(win)
            page.jump_to("persons", "minha_irma")
        else:
            path = folder / f"{lang}-{scenario}.toml"
            shutil.copyfile(next((ROOT / "templates").glob("*/es-camara2022.toml")), path)
            page = win.open_path(path)
            wait(lambda: page.idle, 20.0)
            page.jump_to("emotion_words", "angry")
            if scenario == "live":
                i18n.set_language(lang, app)
        # nothing forces the window wider or taller than the smaller size
        need = win.minimumSizeHint()
        if need.width() > sizes[0][0] or need.height() > sizes[0][1]:
            problems.append(f"{scenario}: the window needs {need.width()}x{need.height()} px")
        settle = lambda: wait(lambda: page.idle and not page.preview.table.sizing, 20.0)  # noqa: E731
        problems += [f"{scenario} {p}" for p in probe(
            win, page, settle, sizes,
            lambda s: wait(lambda: (win.width(), win.height()) == s, 3.0), side_tabs=scenario != "pt")]
        win.close()
    return problems


def _main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("sizes", nargs="+", help="window sizes in logical pixels, e.g. 1280x800")
    ap.add_argument("--lang", action="append", required=True)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QMessageBox

    from gui import i18n
    from gui.app import MainWindow, make_app

    app = make_app()
    sizes = [tuple(int(x) for x in s.lower().split("x")) for s in args.sizes]

    def wait(ok: Callable[[], bool], timeout: float) -> None:
        end = time.monotonic() + timeout
        while not ok() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)
        app.processEvents()

    def make_window() -> Any:
        win = MainWindow()
        win.auto_answer = QMessageBox.Discard  # closing never waits on a dialog
        win.show()
        return win

    result = {lang: probe_scenarios(app, make_window, args.folder, lang, sizes, wait) for lang in args.lang}
    i18n.set_language("en", app)
    print(json.dumps({"scale": app.primaryScreen().devicePixelRatio(), "problems": result}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
