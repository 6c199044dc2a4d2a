"""Large results from a forked worker through a file instead of the pool's pipe.

Why: a pool's pipe holds 64 KiB, and this process's pool thread reads a result in 64 KiB steps,
each waiting for the interpreter lock while this process's own thread computes. A generated corpus
(about 4 MB pickled) took 0.16 s to come back that way while the audit process generated another
(issue 42), and the worker waited meanwhile; written to a file it costs milliseconds on both sides.

Only pickles this process's own workers wrote are read back (a folder ``mkdtemp`` made private to
this user, created before the fork): no pickle from elsewhere is ever loaded here.
"""
from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path
from typing import Any


def handoff_folder() -> Path:
    """A private folder for hand-overs (the caller removes it when done)."""
    return Path(tempfile.mkdtemp(prefix="eec-handoff-"))


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
