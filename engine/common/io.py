"""Atomic file writes that honour the umask, and a terminal y/N prompt.

Why atomic: a crash, a full disk or a Cancel must never leave half a file where a reader (the
report, the GUI, a colleague's script) would take it for a whole one. Why the umask: files the
user asks for are the user's files; ``mkstemp`` creates them 0600, which hid exports from a
group share. A file that already exists keeps its own mode, as an editor's save would.
"""
from __future__ import annotations

import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Callable, Optional

_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process umask (reading it means setting it, so briefly and under a lock)."""
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write to a temp file in the same folder, fsync, then rename: never a half file.

    The result has the mode a plain ``open(path, "wb")`` would give it: the existing file's
    mode when it replaces one, else 0666 minus the umask.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~current_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and not getattr(exc, "filename", None):  # a failed write() names no file
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def tty_confirm() -> Optional[Callable[[str], bool]]:
    """A y/N prompt when a person is at the terminal; None (so: refuse) in scripts and pipes."""
    if not (sys.stdin and sys.stdin.isatty()):
        return None

    def ask(question: str) -> bool:
        try:
            answer = input(f"{question} [y/N] ")
        except EOFError:
            return False
        return answer.strip().lower() in ("y", "yes")

    return ask
