"""The one-folder bundle (issue 32, part 3): dist/eec-studio, built by `make bundle` (PyInstaller).

Started under a real X server (Xvfb) it opens its first window, with the application's name as
its X11 class and its icon; a screenshot of that window is docs/screenshots/bundle-first-window.png
(rewritten with EEC_UPDATE_DOCS=1). Its command line and the `-c` the GUI's audit process needs
work without Python installed. Skipped where the bundle was not built or Xvfb is missing: building
takes minutes (README, "For translators", gives the figures).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

BUNDLE = ROOT / "dist" / "eec-studio"
EXE = BUNDLE / ("eec-studio.exe" if sys.platform == "win32" else "eec-studio")
SCREENSHOT = ROOT / "docs" / "screenshots" / "bundle-first-window.png"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not EXE.is_file(), reason="no bundle: build it with `make bundle` (PyInstaller, minutes)"),
]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "QT_QPA_PLATFORM", "LD_LIBRARY_PATH")}
    home = tmp_path / "home"
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local/share"), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_CACHE_HOME=str(home / ".cache"), EEC_STUDIO_HOME=str(tmp_path / "eec"),
               EEC_STUDIO_CACHE=str(tmp_path / "cache"), **extra)
    return env


def test_the_bundle_runs_the_command_line_and_python_c(tmp_path):
    env = _env(tmp_path)
    listed = subprocess.run([str(EXE), "corpus", "list"], capture_output=True, text=True, env=env, timeout=120)
    assert listed.returncode == 0 and "en-kiritchenko2018" in listed.stdout, listed.stderr[-2000:]
    audit = subprocess.run([str(EXE), "audit", "--corpus", "en-kiritchenko2018", "--model", "vader", "--out",
                            str(tmp_path / "audit")], capture_output=True, text=True, env=env, timeout=600)
    assert audit.returncode == 0, audit.stderr[-2000:]
    assert (tmp_path / "audit" / "stats" / "beta.parquet").is_file()  # pyarrow, trimmed in the spec, still writes
    hf = subprocess.run([str(EXE), "corpus", "hf-export", "en-kiritchenko2018", "--out", str(tmp_path / "hf")],
                        capture_output=True, text=True, env=env, timeout=300)
    assert hf.returncode == 0 and (tmp_path / "hf" / "data" / "test-00000-of-00001.parquet").is_file(), hf.stderr
    missing = subprocess.run([str(EXE), "audit", "--corpus", "en-kiritchenko2018", "--model", f"hf-classifier:{tmp_path}",
                              "--out", str(tmp_path / "a2")], capture_output=True, text=True, env=env, timeout=120)
    assert missing.returncode == 2 and "eec-studio[models]" in missing.stderr, missing.stderr[-2000:]
    # issue 38: the Hunspell dictionaries and reader travel in the bundle (no system Enchant needed)
    checked = subprocess.run([str(EXE), "corpus", "check", "es-camara2022"], capture_output=True, text=True,
                             env={**env, "EEC_STUDIO_SYSTEM_DICTIONARIES": "0"}, timeout=300)
    assert checked.returncode == 0 and "W114" not in checked.stdout, checked.stdout[-2000:] + checked.stderr[-2000:]
    code = "import sys, engine; print(sys.argv, getattr(sys, 'frozen', False))"
    child = subprocess.run([str(EXE), "-c", code, "7", "8"], capture_output=True, text=True, env=env, timeout=60)
    assert child.returncode == 0 and child.stdout.strip() == "['-c', '7', '8'] True", child.stderr[-2000:]


def _start_xvfb(tmp_path: Path) -> tuple[subprocess.Popen, str]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stderr=(tmp_path / "xvfb.log").open("wb"))
    os.close(write)
    with os.fdopen(read) as fh:
        number = fh.readline().strip()
    assert number, (tmp_path / "xvfb.log").read_text()
    return xvfb, f":{number}"


def _window(display: str, title: str) -> str | None:
    tree = subprocess.run(["xwininfo", "-root", "-tree", "-display", display], capture_output=True, text=True).stdout
    for line in tree.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and f'"{title}' in parts[1] and "1x1+" not in parts[1]:
            return parts[0]
    return None


def _grab(display: str, path: Path) -> tuple[int, int, int]:
    """Screenshot of the whole X screen through Qt (xcb) in a helper process: (width, height, colours)."""
    code = ("import sys; from PySide6.QtGui import QGuiApplication; app = QGuiApplication(sys.argv[:1]); "
            "img = app.primaryScreen().grabWindow(0).toImage(); img.save(sys.argv[1]); "
            "small = img.scaled(160, 100); "
            "print(img.width(), img.height(), len({small.pixel(x, y) for x in range(160) for y in range(100)}))")
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    w, h, colours = map(int, out.stdout.split())
    return w, h, colours


@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xwininfo") and shutil.which("xprop")),
                    reason="needs Xvfb, xwininfo and xprop (apt-get install xvfb x11-utils)")
def test_the_bundle_opens_its_first_window_under_a_real_x_server(tmp_path):
    xvfb, display = _start_xvfb(tmp_path)
    app = None
    try:
        started = time.perf_counter()
        app = subprocess.Popen([str(EXE)], env=_env(tmp_path, DISPLAY=display, QT_QPA_PLATFORM="xcb"),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        wid = None
        while wid is None and time.perf_counter() - started < 120 and app.poll() is None:
            time.sleep(0.25)
            wid = _window(display, "EEC Studio")
        first_window_s = time.perf_counter() - started
        assert wid is not None, f"no window; exit {app.poll()}: {app.stdout.read().decode()[-3000:] if app.poll() is not None else ''}"
        props = subprocess.run(["xprop", "-display", display, "-id", wid, "WM_CLASS", "_NET_WM_ICON"],
                               capture_output=True, text=True).stdout
        assert '"EEC Studio"' in props.splitlines()[0], props[:300]  # the task bar's name (StartupWMClass)
        assert "_NET_WM_ICON(CARDINAL)" in props and "not found" not in props.splitlines()[1], props[:300]
        time.sleep(3)  # let the corpus list fill in
        target = SCREENSHOT if os.environ.get("EEC_UPDATE_DOCS") == "1" else tmp_path / SCREENSHOT.name
        target.parent.mkdir(parents=True, exist_ok=True)
        w, h, colours = _grab(display, target)
        print(f"\nfirst window after {first_window_s:.1f} s; screenshot {w}x{h}, {colours} colours -> {target}")
        assert (w, h) == (1280, 800) and colours > 20  # a drawn window, not an empty screen
        assert app.poll() is None, "the app ended on its own"
    finally:
        if app is not None and app.poll() is None:
            app.terminate()
            try:
                app.wait(timeout=20)
            except subprocess.TimeoutExpired:
                app.kill()
        xvfb.terminate()
        xvfb.wait(timeout=20)
