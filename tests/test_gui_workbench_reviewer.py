"""The reviewer's step in the workbench: the filter "translated, not reviewed" shows the queue the
engine computes, Ctrl+Shift+R marks the selected entries reviewed by the name in Preferences
(one undo step) and they leave the queue; the CLI twin ``corpus mark-reviewed`` does the same to
a file. pytest-qt, offscreen."""
from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from engine.corpus import load_corpus  # noqa: E402
from engine.corpus.translate.reviewing import review_queue  # noqa: E402

from test_gui_workbench_support import copy_corpus, make_window, wait_idle  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def visible_ids(tab) -> list[str]:
    return [tab.proxy.index(r, 0).data(Qt.UserRole + 2) for r in range(tab.proxy.rowCount())]


def test_filter_shows_the_queue_and_the_shortcut_marks_reviewed(qtbot, tmp_path):
    from gui import settings
    from gui.workbench.page_state import TO_REVIEW

    settings.put("translator_id", "MB")
    win = make_window(qtbot)
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    wait_idle(qtbot, page)
    tab = page.entry_tabs["emotion_words"]
    page.tabs.setCurrentWidget(tab)
    queue = [i for name, i in review_queue(page.doc.corpus) if name == "emotion_words"]
    assert queue and len(queue) < len(page.doc.corpus.emotion_words)  # some reviewed, some waiting

    page.status_filter.setCurrentIndex(page.status_filter.findData(TO_REVIEW))
    assert page.status_filter.currentText() == "translated, not reviewed"
    assert visible_ids(tab) == queue

    # select the first two in the queue and press the reviewer's key
    sel = tab.view.selectionModel()
    sel.clearSelection()
    for r in (0, 1):
        sel.select(tab.proxy.index(r, 0), sel.SelectionFlag.Select | sel.SelectionFlag.Rows)
    tab.view.setFocus()
    before = page.doc.undo_stack.count()
    qtbot.keyClick(tab.view, Qt.Key_R, Qt.ControlModifier | Qt.ShiftModifier)
    for item_id in queue[:2]:
        entry = next(e for e in page.doc.corpus.emotion_words if e.id == item_id)
        assert entry.review.status == "reviewed" and entry.review.translator == "MB"
    assert page.doc.undo_stack.count() == before + 1
    assert visible_ids(tab) == queue[2:]  # they left the reviewer's queue
    assert "Ctrl+Shift+R" in page.review_button.toolTip()

    page.doc.undo_stack.undo()
    assert visible_ids(tab) == queue


def test_cli_mark_reviewed_uses_the_same_queue(run, tmp_path):
    path = copy_corpus("es-camara2022", tmp_path, "mine.toml")
    queue = review_queue(load_corpus(path))
    proc = run("corpus", "mark-reviewed", str(path), "--to-review", "--by", "MB", "--dry-run")
    assert proc.returncode == 0 and proc.stdout.splitlines()[:-1] == [f"{n}:{i}" for n, i in queue]
    assert review_queue(load_corpus(path)) == queue  # a dry run changes nothing

    proc = run("corpus", "mark-reviewed", str(path), "T01", "emotion_words:angry", "--by", "AB")
    assert proc.returncode == 0, proc.stderr
    c = load_corpus(path)
    assert [(t.review.status, t.review.translator) for t in c.templates if t.id == "T01"] == [("reviewed", "AB")]
    assert [(e.review.status, e.review.translator) for e in c.emotion_words if e.id == "angry"] == [("reviewed", "AB")]
    assert path.read_text(encoding="utf-8").count("#") >= 1  # the file's comments are kept

    proc = run("corpus", "mark-reviewed", str(path), "--to-review", "--by", "AB")
    assert proc.returncode == 0 and review_queue(load_corpus(path)) == []

    for args, words in ((["nope"], "no item 'nope'"), (["templates:T01", "--to-review"], "not both"),
                        (["other:T01"], "no list 'other'")):
        proc = run("corpus", "mark-reviewed", str(path), *args, "--by", "AB")
        assert proc.returncode == 2 and words in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = run("corpus", "mark-reviewed", "es-camara2022", "T01", "--by", "AB")
    assert proc.returncode == 2 and "built-in corpus" in proc.stderr
