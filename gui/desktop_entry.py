"""Put EEC Studio in the desktop's application menu (freedesktop.org), and take it out again.

    eec-studio --install-desktop-entry      # ~/.local/share/applications + the icon theme "hicolor"
    eec-studio --uninstall-desktop-entry

Why a command rather than files in the wheel's data: pip and pipx install into a virtual
environment, never into ~/.local/share, and the menu entry must start *this* installation (the
launcher of the environment, a checkout's main.py, or the one-folder bundle), whose path is known
only at run time. Files go under ``$XDG_DATA_HOME`` (default ``~/.local/share``), as the XDG Base
Directory specification says for per-user data; the shipped entry (resources/desktop/) is
copied with its ``Exec`` line pointing at this installation. No Qt here: it runs headless.
No icon cache is written: desktops watch these folders, and a per-user ``icon-theme.cache`` would
hide every icon another program adds there later without refreshing it.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from engine.common.errors import UserError
from engine.common.io import atomic_write_bytes, atomic_write_text

APP_ID = "eec-studio"  # the .desktop file's name, the icon's name and Qt's desktopFileName
ICON_NAME = APP_ID
RESOURCES = Path(__file__).resolve().parents[1] / "resources" / "desktop"
DESKTOP_FILE = RESOURCES / f"{APP_ID}.desktop"
ICON_DIR = RESOURCES / "icons"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


class DesktopEntryError(UserError):
    """The menu entry cannot be installed here (not a freedesktop desktop, files missing)."""


@dataclass
class DesktopInstall:
    """What an install or uninstall did: the files, and the launcher the entry starts."""

    files: list[Path] = field(default_factory=list)
    command: str = ""


def data_home() -> Path:
    """$XDG_DATA_HOME, or ~/.local/share when it is unset or not absolute (as the spec says)."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if value and os.path.isabs(value) else Path.home() / ".local" / "share"


def launch_command() -> list[str]:
    """The command that starts this installation, as absolute paths.

    A PyInstaller bundle: its executable. A checkout (``python main.py``): the interpreter and main.py.
    An installed package: the ``eec-studio`` launcher pip wrote beside the interpreter (found through
    argv[0], else next to sys.executable, else on PATH)."""
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).resolve())]
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name == "main.py" and argv0.is_file():
        return [sys.executable, str(argv0.resolve())]
    candidates = [argv0] if argv0 is not None and argv0.name.startswith(APP_ID) else []
    candidates.append(Path(sys.executable).parent / APP_ID)
    on_path = shutil.which(APP_ID)
    if on_path:
        candidates.append(Path(on_path))
    for c in candidates:
        if c is not None and c.is_file() and os.access(c, os.X_OK):
            return [str(c.absolute())]  # absolute, not resolved: a venv's bin/ link must stay the venv's
    main_py = Path(__file__).resolve().parents[1] / "main.py"
    return [sys.executable, str(main_py)]


def exec_line(argv: list[str]) -> str:
    """An Exec value: arguments quoted as the Desktop Entry spec asks (double quotes, \\ " ` $ escaped)."""
    def quote(arg: str) -> str:
        if arg and not any(c in arg for c in ' \t\n"\'\\><~|&;$*?#()`='):
            return arg
        return '"' + "".join("\\" + c if c in '"`$\\' else c for c in arg) + '"'

    # the string-value escape (a backslash doubled) applies on top of the quoting, and % is a field code
    return " ".join(quote(a).replace("\\", "\\\\").replace("%", "%%") for a in argv)


def _targets(home: Path) -> list[tuple[Path, Path]]:
    """(shipped file, installed path) for the icons."""
    icons = home / "icons" / "hicolor"
    pairs = [(ICON_DIR / f"{ICON_NAME}.svg", icons / "scalable" / "apps" / f"{ICON_NAME}.svg")]
    pairs += [(ICON_DIR / f"{ICON_NAME}-{n}.png", icons / f"{n}x{n}" / "apps" / f"{ICON_NAME}.png") for n in ICON_SIZES]
    return pairs


def _check_platform() -> None:
    if sys.platform.startswith(("win", "darwin", "cygwin")):
        raise DesktopEntryError("the menu entry is for Linux and BSD desktops (freedesktop.org)",
                                fix="on Windows and macOS start EEC Studio from the one-folder bundle (README, "
                                    "'For translators')")


def install(home: Path | None = None) -> DesktopInstall:
    """Write the menu entry and the icons for the current user; returns what was written."""
    _check_platform()
    home = home or data_home()
    missing = [p for p in [DESKTOP_FILE] + [src for src, _dst in _targets(home)] if not p.is_file()]
    if missing:
        raise DesktopEntryError("a file of the menu entry is missing from this installation", file=str(missing[0]),
                                fix="reinstall EEC Studio")
    argv = launch_command()
    lines = []
    for line in DESKTOP_FILE.read_text(encoding="utf-8").splitlines():
        if line.startswith("Exec="):
            line = "Exec=" + exec_line(argv)
        elif line.startswith("TryExec="):
            continue
        lines.append(line)
    lines.insert(lines.index("[Desktop Entry]") + 1, "TryExec=" + argv[0])  # the menu hides it if that goes away
    done = DesktopInstall(command=shlex.join(argv))
    entry = home / "applications" / f"{APP_ID}.desktop"
    # all or nothing (a full disk left half the icons): the icons first, the menu entry last, and on
    # any failure the files this run created are removed again
    created: list[Path] = []
    try:
        for src, dst in _targets(home):
            dst.parent.mkdir(parents=True, exist_ok=True)
            if not dst.exists():
                created.append(dst)
            atomic_write_bytes(dst, src.read_bytes())
            done.files.append(dst)
        entry.parent.mkdir(parents=True, exist_ok=True)
        if not entry.exists():
            created.append(entry)
        atomic_write_text(entry, "\n".join(lines) + "\n")
    except OSError as exc:
        for path in created:
            path.unlink(missing_ok=True)
        raise DesktopEntryError(f"cannot write {exc.filename or home} ({(exc.strerror or str(exc)).lower()}); "
                                "nothing was installed", file=str(home),
                                fix="free some space (or make the folder writable) and run it again") from None
    done.files.insert(0, entry)
    return done


def uninstall(home: Path | None = None) -> DesktopInstall:
    """Remove what `install` wrote (files that are not there are skipped); returns what was removed."""
    _check_platform()
    home = home or data_home()
    done = DesktopInstall()
    for path in [home / "applications" / f"{APP_ID}.desktop"] + [dst for _src, dst in _targets(home)]:
        if path.is_file() or path.is_symlink():
            path.unlink()
            done.files.append(path)
    return done


def run(action: str) -> int:
    """The CLI's `--install-desktop-entry` / `--uninstall-desktop-entry`: one line per outcome."""
    if action == "install":
        done = install()
        print(f"EEC Studio is in the application menu ({done.files[0]}); it starts: {done.command}")
        print(f"icons: {done.files[1].parents[2]} (scalable and {len(ICON_SIZES)} PNG sizes)")
    else:
        done = uninstall()
        print(f"removed {len(done.files)} file(s) of the menu entry" if done.files
              else f"no menu entry of EEC Studio under {data_home()}")
    return 0
