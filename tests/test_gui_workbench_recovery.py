"""Autosave and crash recovery: kill -9 loses at most the last autosave interval.

The app runs in a child process (offscreen) with a short autosave interval; it opens a
corpus, the translator's edit is typed, we wait for the autosave and kill the process with
SIGKILL — no chance to clean up. The next start finds the recovery file, offers it, and the
restored document holds the edit, unsaved, belonging to the original file.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QMessageBox  # noqa: E402

from test_gui_workbench_support import ROOT, copy_corpus, make_window, wait_idle  # noqa: E402

AUTOSAVE_S = 0.5

CHILD = r"""
import sys, time
sys.path.insert(0, {root!r})
from PySide6.QtCore import QTimer
from gui.app import MainWindow, make_app

app = make_app()
win = MainWindow()
win.show()
page = win.open_path({path!r})

def edit(text, tag):
    page.jump_to("emotion_words", "angry")
    page.form_editor.set_form_text(1, text)   # the feminine form, as typed in the form editor
    print(tag, time.time(), flush=True)

QTimer.singleShot(200, lambda: edit("enfadadísima", "EDITED"))
app.exec()
"""


def _recovery_files(home: Path) -> list[Path]:
    return sorted((home / "recovery").glob("*.toml"))


def _wait_for(predicate, timeout: float) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_kill_9_then_next_start_recovers_the_edit(qtbot, tmp_path):
    home = Path(os.environ["EEC_STUDIO_HOME"])  # the isolated home of this test (conftest)
    path = copy_corpus("es-camara2022", tmp_path, "mine.toml")
    original_bytes = path.read_bytes()
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(root=str(ROOT), path=str(path)), encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", EEC_AUTOSAVE_SECONDS=str(AUTOSAVE_S), EEC_STUDIO_HOME=str(home))
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, env=env)
    try:
        line = child.stdout.readline()  # blocks until the edit is made (startup takes a few seconds)
        assert line.startswith("EDITED"), line
        edited_at = float(line.split()[1])

        def autosaved() -> bool:
            return any("enfadadísima" in p.read_text("utf-8") for p in _recovery_files(home)
                       if p.with_suffix(".json").exists())
        assert _wait_for(autosaved, timeout=15), "no autosave with the edit"
        saved_at = max(json.loads(p.with_suffix(".json").read_text("utf-8"))["saved_at"] for p in _recovery_files(home))
        # the edit reached the recovery file within one autosave interval (plus scheduling slack)
        assert saved_at - edited_at <= AUTOSAVE_S + 2.5
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    assert path.read_bytes() == original_bytes  # autosave never touches the user's own file
    assert len(_recovery_files(home)) == 1

    # next start: the window offers the autosaved work and restores it
    win = make_window(qtbot)
    win.auto_answer = QMessageBox.Yes
    page = win.offer_recovery()
    assert page is not None
    # read at once: the message stays 10 s, and the check waited for below can take longer under load
    assert "Recovered" in win.statusBar().currentMessage()
    wait_idle(qtbot, page)
    angry = next(e for e in page.doc.corpus.emotion_words if e.id == "angry")
    assert [f.text for f in angry.forms] == ["enojado", "enfadadísima"]
    assert page.doc.modified and page.doc.path == path  # unsaved, and Save goes to the original file
    # the dead process's file is consumed; the restored state is protected again by this process
    files = _recovery_files(home)
    assert len(files) == 1 and "enfadadísima" in files[0].read_text("utf-8")
    meta = json.loads(files[0].with_suffix(".json").read_text("utf-8"))
    assert meta["pid"] == os.getpid() and meta["original"] == str(path)

    assert win.save()
    assert not _recovery_files(home)
    assert "enfadadísima" in path.read_text("utf-8")
    # nothing left to offer at the following start
    assert make_window(qtbot).offer_recovery() is None


def test_autosave_timer_writes_and_discard_removes(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("EEC_AUTOSAVE_SECONDS", "0.2")
    home = Path(os.environ["EEC_STUDIO_HOME"])
    win = make_window(qtbot)
    page = win.open_path(copy_corpus("es-camara2022", tmp_path))
    wait_idle(qtbot, page)
    assert not _recovery_files(home)  # nothing changed: nothing to autosave
    page.entry_tabs["templates"].add_entry()
    qtbot.waitUntil(lambda: bool(_recovery_files(home)), timeout=5000)
    # closing without saving (the user said Discard): no recovery is offered later
    win.auto_answer = QMessageBox.Discard
    win.close()
    assert not _recovery_files(home)
    win2 = make_window(qtbot)
    assert win2.offer_recovery() is None
