"""No clipped text in the workbench and on the start page, in every interface language, at
100 % and 125 % scale: every visible label, button, check box, tab, table header section and
short table cell (id, kind, group, pair, status) shows its whole text — its width, measured with
the widget's font, fits the room the style gives it — and no combo box is cut by the edge of a
pane too narrow for it ("(qualque" in the form editor, issue 39); testkit/layout_probe.py says how.

Three sessions per language: a built-in corpus opened from its file (every side tab), the
Portuguese one typed in from nothing (testkit/pt_scenario.py), whose tables were sized while
still empty, and the built-in one opened in English with the language switched afterwards, as in
Preferences (widgets sized for English: "Erreurs et avertisser", issue 39).

125 % is Qt's own scaling (``QT_SCALE_FACTOR=1.25``, what a desktop set to 125 % gives a Qt 6
app), not a font 1.25 times larger: every length scales together, so what can clip is what the
fractional device pixels round differently, and the window is smaller in logical pixels. Qt
reads the factor only before the QApplication exists, so that run is a process of its own
(``python -m testkit.layout_probe``) that prints the problems as JSON. Its windows fill the
screens people run at 125 %: 1600×1000 and 1920×1200, i.e. 1280×800 and 1536×960 logical pixels.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from test_gui_workbench_support import ROOT, make_window  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"), pytest.mark.slow]

LANGUAGES = ["en", "es", "de", "ar", "pt", "fr", "it"]


@pytest.fixture
def english_after():
    from gui import i18n

    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_clipped_text_in_the_workbench(qtbot, tmp_path, lang, english_after):
    from PySide6.QtWidgets import QApplication

    from testkit.layout_probe import probe_scenarios

    def wait(ok, timeout):
        try:
            qtbot.waitUntil(ok, timeout=int(timeout * 1000))
        except qtbot.TimeoutError:
            pass  # the probe says what did not happen (a window that cannot take the size)
        QApplication.processEvents()

    problems = probe_scenarios(QApplication.instance(), lambda: make_window(qtbot), tmp_path, lang,
                               [(1280, 800), (1600, 1000)], wait)
    assert not problems, "\n".join(problems)


def test_no_clipped_text_at_125_percent(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": "1.25"}
    # seven languages, three sessions each: about 6 minutes on a loaded 2-core machine
    run = subprocess.run([sys.executable, "-m", "testkit.layout_probe", str(tmp_path), "1280x800", "1536x960",
                          *[a for lang in LANGUAGES for a in ("--lang", lang)]],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["scale"] == 1.25  # the factor took effect
    problems = [f"{lang}: {p}" for lang, found in result["problems"].items() for p in found]
    assert sorted(result["problems"]) == sorted(LANGUAGES)
    assert not problems, "\n".join(problems)
