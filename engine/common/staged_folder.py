"""Write a whole folder beside its destination, then rename it into place.

Why: an output folder (an audit's results, an imported corpus) is read as one thing — the report,
the GUI and a colleague's script take every file in it as part of the same run. Written in place,
a re-run would leave the previous run's files beside the new ones (a stats table of a statistic
this run did not compute) and a failure would leave half of a folder. Here the new folder is
written under a hidden name in the same parent, and only when it is complete does it replace the
old one: the old folder is renamed aside, the new one renamed in, the old one removed. A failure
or a Ctrl+C at any point removes the staging folder and leaves the old folder as it was.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .io import current_umask


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)


@contextmanager
def staged_folder(out: str | os.PathLike, *, tag: str = "writing") -> Iterator[Path]:
    """Yield an empty folder beside ``out``; when the block ends normally it becomes ``out``.

    ``out`` may exist (it is replaced as a whole: the caller decides beforehand whether that is
    allowed, e.g. with ``engine.common.overwrite.may_replace``). The staging folder gets the mode a
    plain ``mkdir`` would give (``mkdtemp`` makes it 0700, which hid results from a group share).
    """
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.{tag}-", dir=out.parent))
    os.chmod(staging, 0o777 & ~current_umask())
    backup: Path | None = None
    try:
        yield staging
        if out.exists() or out.is_symlink():
            backup = out.parent / f".{out.name}.old-{uuid.uuid4().hex[:8]}"
            os.rename(out, backup)
        os.rename(staging, out)
    except BaseException:
        _remove(staging)
        if backup is not None and not (out.exists() or out.is_symlink()):
            os.rename(backup, out)
            backup = None
        raise
    if backup is not None:
        _remove(backup)
