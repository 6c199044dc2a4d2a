"""Large results from a forked worker through a file instead of the pool's pipe.

Why: a pool's pipe holds 64 KiB, and this process's pool thread reads a result in 64 KiB steps,
each waiting for the interpreter lock while this process's own thread computes. A generated corpus
(about 4 MB pickled) took 0.16 s to come back that way while the audit process generated another
(issue 42), and the worker waited meanwhile; written to a file it costs milliseconds on both sides.

Only pickles this process's own workers wrote are read back (a temporary folder private to this
user, made before the fork): no pickle from elsewhere is ever loaded here.
"""
from __future__ import annotations

import os
import pickle
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

_PREFIX = "eec-handoff-"


@contextmanager
def handoff_folder() -> Iterator[Path]:
    """A private folder for hand-overs, named after this process, removed with what is left in it
    when the block ends.

    Folders left by processes that no longer run — a killed audit (the GUI kills one that ignores
    Cancel) cannot remove its own — are removed first, so they do not pile up in the temp folder."""
    _remove_orphans(Path(tempfile.gettempdir()))
    with tempfile.TemporaryDirectory(prefix=f"{_PREFIX}{os.getpid()}-", ignore_cleanup_errors=True) as name:
        yield Path(name)


def _remove_orphans(parent: Path) -> None:
    import shutil

    for folder in parent.glob(f"{_PREFIX}*-*"):
        pid = folder.name[len(_PREFIX):].split("-", 1)[0]
        try:
            if not pid.isdigit() or folder.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)  # raises when no such process runs
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except (OSError, AttributeError):  # another user's process (EPERM), or no getuid (Windows)
            continue


def hand_over(obj: Any, folder: Path) -> Path:
    """In a worker: ``obj`` pickled into a new file in ``folder``; its path goes back instead."""
    fd, name = tempfile.mkstemp(suffix=".pickle", dir=folder)
    with os.fdopen(fd, "wb") as fh:
        pickle.dump(obj, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return Path(name)


def take_over(path: Path) -> Any:
    """Here: the object a worker handed over in ``path`` (the file is removed)."""
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)
    finally:
        Path(path).unlink(missing_ok=True)
