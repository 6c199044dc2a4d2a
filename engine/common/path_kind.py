"""What a path is, in the words a message needs: "a folder", "a named pipe (FIFO)", …

Why one helper: readers refused everything that is not a regular file as "a folder", so a
FIFO or /dev/zero was called a folder and the user looked for the wrong mistake. Worse, opening
a FIFO to read it blocks until some other program writes to it: an input file must be checked
to be a regular file *before* it is opened. ``stat`` follows symbolic links, as ``open`` does.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def path_kind(path: str | os.PathLike) -> str:
    """'a file', 'a folder', 'a named pipe (FIFO)', 'a character device', 'a block device', 'a socket',
    'a broken link' or 'missing'."""
    p = Path(path)
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        return "a broken link" if p.is_symlink() else "missing"
    except OSError:
        return "missing"
    if stat.S_ISREG(mode):
        return "a file"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def not_a_file(path: str | os.PathLike) -> str | None:
    """None for a regular file (or a missing path: the caller says "not found" its own way), else
    "is a folder, not a file" / "is a named pipe (FIFO), not a file" …, ready for a message."""
    kind = path_kind(path)
    if kind in ("a file", "missing"):
        return None
    return f"is {kind}, not a file"
