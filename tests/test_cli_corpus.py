"""The headless CLI: list, check, export, preview; the GUI entry without a display.

Most commands run in-process through ``main.main`` (same parser, same error handling, no
interpreter start-up per call); the no-display and no-traceback guarantees are checked in a
real subprocess.
"""
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from conftest import ROOT
from testkit.corpus_fixtures import mini


def subprocess_run(*args, env=None):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


def test_list_shows_builtins_and_user_corpora(run, tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "corpora").mkdir(parents=True)
    (home / "corpora" / "mini.toml").write_text(mini(), encoding="utf-8")
    monkeypatch.setenv("EEC_STUDIO_HOME", str(home))
    proc = run("corpus", "list")
    assert proc.returncode == 0, proc.stderr
    lines = {l.split()[0]: l for l in proc.stdout.splitlines()[1:]}
    assert "8,640" in lines["en-kiritchenko2018"] and " en " in lines["en-kiritchenko2018"]
    assert "8,460" in lines["es-camara2022"]
    assert "8,040" in lines["ar-camara2022"]
    assert "ok" in lines["en-kiritchenko2018"]
    for name in ("de-goldfarb2023", "es-goldfarb2023", "ja-goldfarb2023", "zh-goldfarb2023", "en-goldfarb2023",
                 "ar-camara2022", "es-camara2022", "ar-camara2022-published", "ja-goldfarb2023-published"):
        assert " ok" in lines[name], lines[name]
    assert " 20 " in lines["mini"] and str(home) in lines["mini"]


def test_check_exit_codes(run, tmp_path):
    assert run("corpus", "check", "en-kiritchenko2018").returncode == 0
    bad = tmp_path / "bad.toml"
    bad.write_text(mini().replace('{ text = "her", role = "object" }', '{ text = "her", role = "subject" }'), encoding="utf-8")
    proc = run("corpus", "check", str(bad))
    assert proc.returncode == 1
    assert "E002" in proc.stdout and "T1" in proc.stdout


def test_check_published_text_shows_its_defects_as_warnings(run):
    proc = run("corpus", "check", "ja-goldfarb2023-published")
    assert proc.returncode == 0, proc.stdout  # known defects do not fail the check
    assert proc.stdout.startswith("ja-goldfarb2023-published: 0 error(s)")
    for code in ("E019", "E020", "E021"):
        assert f"WARNING {code} " in proc.stdout and "known defect of the published text" in proc.stdout
    proc = run("corpus", "check", "ja-goldfarb2023")
    assert proc.returncode == 0 and not any(f" {c} " in proc.stdout for c in ("E019", "E020", "E021"))


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_export_formats(run, fmt, tmp_path):
    out = tmp_path / f"eec.{fmt}"
    proc = run("corpus", "export", "en-kiritchenko2018", "--format", fmt, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    if fmt == "csv":
        df = pd.read_csv(out, keep_default_na=False)
        header = out.read_text(encoding="utf-8").splitlines()[0]
        assert header.startswith("ID,Sentence,Template,Person,Gender,Race,Emotion,Emotion word,")
    elif fmt == "jsonl":
        df = pd.DataFrame([json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()])
    else:
        df = pd.read_parquet(out)
    assert len(df) == 8640
    assert {"template_id", "language", "features"} <= set(df.columns)


def test_export_all(run, tmp_path):
    proc = run("corpus", "export", "--all", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    sizes = {p.stem: len(pd.read_csv(p)) for p in tmp_path.glob("*.csv")}
    assert sizes == {"en-kiritchenko2018": 8640, "en-camara2022-latino": 8640, "en-camara2022-arab": 8640,
                     "es-camara2022": 8460, "ar-camara2022": 8040, "de-goldfarb2023": 8640,
                     "es-goldfarb2023": 10600, "ja-goldfarb2023": 5070, "zh-goldfarb2023": 4928,
                     "en-goldfarb2023": 8640, "es-camara2022-published": 8460, "ar-camara2022-published": 8040,
                     "ja-goldfarb2023-published": 5010, "zh-goldfarb2023-published": 4928,
                     "de-goldfarb2023-published": 8640, "es-goldfarb2023-published": 10600,
                     "en-camara2022-latino-published": 8640, "en-camara2022-arab-published": 8640,
                     "it-kiritchenko2018": 8640, "fr-kiritchenko2018": 8640, "pt-BR-kiritchenko2018": 8640}


def test_export_arabic_utf8_roundtrip(run, tmp_path):
    out = tmp_path / "ar.csv"
    assert run("corpus", "export", "ar-camara2022", "--out", str(out)).returncode == 0
    df = pd.read_csv(out, encoding="utf-8", keep_default_na=False)
    assert "مريم تشعر بالسعادة." in set(df.Sentence)


def test_preview_filters(run):
    proc = run("corpus", "preview", "en-kiritchenko2018", "--template", "T05", "--person", "np_she", "-n", "3")
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "20 sentence(s)"
    assert "She found herself in an annoying situation." in proc.stdout


def test_no_display_prints_one_line_and_fails():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    proc = subprocess_run(env=env)
    assert proc.returncode != 0
    lines = [l for l in (proc.stderr + proc.stdout).splitlines() if l.strip()]
    assert len(lines) == 1 and "corpus list" in lines[0]
    assert "Aborted" not in proc.stderr


def test_unknown_name_is_clean(run):
    proc = run("corpus", "check", "no-such-corpus")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "en-kiritchenko2018" in proc.stderr


def test_main_window_lists_builtins(qtbot):
    from gui.app import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.corpora.ready, timeout=30_000)  # sizes arrive from background checks
    ids = [win.table.item(r, 0).text() for r in range(win.table.rowCount())]
    assert {"en-kiritchenko2018", "es-camara2022", "ar-camara2022"} <= set(ids)
    row = ids.index("es-camara2022")
    assert win.table.item(row, 2).text() == "8,460"
