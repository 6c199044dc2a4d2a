"""No clipped text in the workbench and on the start page, in the four interface languages, at
1280×800 and 1600×1000: every visible label, button, check box and tab shows its whole text
(its text's width, measured with the widget's font, fits the widget)."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QAbstractButton, QCheckBox, QLabel, QTabBar  # noqa: E402

from test_gui_workbench_support import copy_corpus, make_window, wait_idle  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]


def _clipped(root) -> list[str]:
    """'widget: text (needs N px, has M)' for every visible widget whose text does not fit."""
    out = []
    for w in root.findChildren(QLabel):
        text = w.text()
        if not w.isVisible() or not text or w.wordWrap() or "<" in text or "\n" in text or not w.pixmap().isNull():
            continue
        need = w.fontMetrics().horizontalAdvance(text)
        have = w.contentsRect().width() - 2 * w.margin() - 2 * w.indent() if w.indent() > 0 else w.contentsRect().width()
        if need > have + 1:
            out.append(f"label {text!r} ({need} > {have})")
    for w in root.findChildren(QAbstractButton):
        text = w.text().replace("&", "")
        if not w.isVisible() or not text:
            continue
        extra = 24 if isinstance(w, QCheckBox) else 8
        need = w.fontMetrics().horizontalAdvance(text) + extra
        if need > w.width() + 1:
            out.append(f"button {text!r} ({need} > {w.width()})")
    for bar in root.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for i in range(bar.count()):
            text = bar.tabText(i).replace("&", "")
            need = bar.fontMetrics().horizontalAdvance(text)
            if need > bar.tabRect(i).width() - 8:
                out.append(f"tab {text!r} ({need} > {bar.tabRect(i).width() - 8})")
    return out


@pytest.fixture
def english_after():
    from gui import i18n

    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "es", "de", "ar"])
def test_no_clipped_text_in_the_workbench(qtbot, tmp_path, lang, english_after):
    from PySide6.QtWidgets import QApplication

    from gui import i18n

    win = make_window(qtbot)
    i18n.set_language(lang, QApplication.instance())
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    wait_idle(qtbot, page)
    page.jump_to("emotion_words", "angry")
    problems = []
    # nothing forces the window wider than the smaller screen (an entry with three features is shown)
    assert win.minimumSizeHint().width() <= 1280
    for size in ((1280, 800), (1600, 1000)):
        win.resize(*size)
        qtbot.waitUntil(lambda s=size: (win.width(), win.height()) == s, timeout=3000)
        for tab in range(page.side.count()):
            page.side.setCurrentIndex(tab)
            wait_idle(qtbot, page)
            QApplication.processEvents()
            problems += [f"{size} side tab {tab}: {p}" for p in _clipped(win)]
        win.show_page("corpora")
        QApplication.processEvents()
        problems += [f"{size} start page: {p}" for p in _clipped(win)]
        win.show_page("workbench")
    assert not sorted(set(problems)), "\n".join(sorted(set(problems)))
