"""The launcher (issue 32, part 2): a freedesktop menu entry and icons, installed per user into
$XDG_DATA_HOME by `eec-studio --install-desktop-entry`, removed by `--uninstall-desktop-entry`;
the app's window icon and desktop file name; the wheel carries the entry and every icon."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT
from gui import desktop_entry as de


def _entry(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))


def test_install_and_uninstall_under_xdg_data_home(tmp_path, monkeypatch, run):
    home = tmp_path / "xdg data"  # a space: the Exec line must quote it
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    launcher = tmp_path / "my venv" / "bin" / "eec-studio"
    launcher.parent.mkdir(parents=True)
    launcher.write_text("#!/bin/sh\n", encoding="utf-8")
    launcher.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(launcher)])
    result = run("--install-desktop-entry")
    assert result.returncode == 0, result.stderr
    desktop = home / "applications" / "eec-studio.desktop"
    entry = _entry(desktop.read_text(encoding="utf-8"))
    assert entry["Exec"] == f'"{launcher}"' and entry["TryExec"] == str(launcher)
    assert entry["Icon"] == "eec-studio" and entry["Name"] == "EEC Studio" and entry["Terminal"] == "false"
    assert entry["StartupWMClass"] == "EEC Studio"  # Qt's X11 WM_CLASS is the application name
    assert (home / "icons/hicolor/scalable/apps/eec-studio.svg").is_file()
    for n in de.ICON_SIZES:
        png = home / f"icons/hicolor/{n}x{n}/apps/eec-studio.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (home / "icons/hicolor/icon-theme.cache").exists()  # would hide icons added later
    assert str(desktop) in result.stdout
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(desktop)], capture_output=True, text=True)
        assert check.returncode == 0 and check.stdout == "", check.stdout
    again = run("--install-desktop-entry")  # idempotent
    assert again.returncode == 0
    result = run("--uninstall-desktop-entry")
    assert result.returncode == 0 and f"removed {len(de.ICON_SIZES) + 2} file(s)" in result.stdout
    assert [p for p in home.rglob("*") if p.is_file()] == []
    assert "no menu entry" in run("--uninstall-desktop-entry").stdout


def test_a_checkout_entry_starts_main_py_with_this_interpreter(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "argv", [str(ROOT / "main.py")])
    assert de.launch_command() == [sys.executable, str(ROOT / "main.py")]
    done = de.install(tmp_path)
    exec_line = _entry(done.files[0].read_text(encoding="utf-8"))["Exec"]
    assert exec_line == de.exec_line([sys.executable, str(ROOT / "main.py")])


def test_a_frozen_bundle_entry_starts_the_bundle(monkeypatch, tmp_path):
    exe = tmp_path / "eec-studio"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(exe))
    assert de.launch_command() == [str(exe)]


@pytest.mark.parametrize("argv, line", [
    (["/opt/eec/bin/eec-studio"], "/opt/eec/bin/eec-studio"),
    (["/home/a b/eec-studio"], '"/home/a b/eec-studio"'),
    (['/x/"q"$`\\/eec'], '"/x/\\\\"q\\\\"\\\\$\\\\`\\\\\\\\/eec"'),  # spec: quote, escape, then the string escape
    (["/p/100%/eec"], "/p/100%%/eec"),
])
def test_exec_lines_follow_the_desktop_entry_quoting_rules(argv, line):
    assert de.exec_line(argv) == line


def test_other_systems_are_told_to_use_the_bundle(monkeypatch, run):
    monkeypatch.setattr(sys, "platform", "win32")
    result = run("--install-desktop-entry")
    assert result.returncode == 2 and "freedesktop" in result.stderr and "Traceback" not in result.stderr


def test_the_app_sets_its_icon_and_desktop_file_name(qapp):
    from gui.app import make_app

    app = make_app()
    assert app.desktopFileName() == "eec-studio" and app.applicationName() == "EEC Studio"
    sizes = {s.width() for s in app.windowIcon().availableSizes()}
    assert sizes == set(de.ICON_SIZES)


def test_the_pngs_are_renders_of_the_svg():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "make_icons.py"), "--check"], capture_output=True,
                          text=True, env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_the_wheel_carries_the_entry_and_the_icons(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                           "--no-index", "-q", "-w", str(tmp_path)], capture_output=True, text=True, cwd=tmp_path)
    if proc.returncode != 0 and "setuptools" in proc.stderr:
        pytest.skip("this setuptools cannot build the wheel offline")
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {"resources/desktop/eec-studio.desktop", "resources/desktop/icons/eec-studio.svg", "gui/desktop_entry.py"}
    wanted |= {f"resources/desktop/icons/eec-studio-{n}.png" for n in de.ICON_SIZES}
    assert wanted - names == set()
