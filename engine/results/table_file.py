"""Reading one file of an audit folder: a UTF-8 text file or a CSV table, within size limits, with
an AuditError that names the file and what is wrong with it.

Why a module of its own: the folder's reader (``reader``) reads every table through it, and so does
a result whose large frames wait on disk while the audit runs (``result.Frames``), which the reader
itself imports — one way to read a table, no circle.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import AuditError

if TYPE_CHECKING:
    import pandas as pd

MAX_TABLE = 256 * 1024 * 1024


def read_text_file(path: Path, limit: int = MAX_TABLE) -> str:
    """A UTF-8 file of at most `limit` bytes, or an AuditError that says what is wrong with it."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise AuditError(str(path), f"file is {size:,} bytes, over the {limit:,}-byte limit",
                             "is this really an audit output folder?")
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AuditError(str(path), f"not UTF-8 text (byte {exc.start})", "run the audit again") from None
    except OSError as exc:
        raise AuditError(str(path), f"cannot read file ({exc.strerror or exc})") from None


def read_table(path: Path, needed: list[str] | None = None, usecols: Any = None) -> pd.DataFrame:
    """A CSV table of an audit folder; an empty file is an empty table, a broken one an AuditError."""
    import pandas as pd

    try:
        if path.stat().st_size > MAX_TABLE:
            raise AuditError(str(path), "table is too large to read", "is this an audit output folder?")
        frame = pd.read_csv(path, usecols=usecols, keep_default_na=True, low_memory=False)
    except AuditError:
        raise
    except pd.errors.EmptyDataError:
        frame = pd.DataFrame()
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError, OSError) as exc:
        raise AuditError(str(path), f"not a readable CSV table ({type(exc).__name__}: {str(exc)[:160]})"
                         .replace("\n", " "), "run the audit again, or restore the file from a backup") from None
    from engine.common.csv_cells import unescape_frame

    frame = unescape_frame(frame)  # the text as the audit wrote it, before formula-safe escaping
    missing = [c for c in needed or [] if c not in frame.columns]
    if missing and len(frame.columns):
        raise AuditError(str(path), f"the table lacks column {missing[0]!r}",
                         "it was not written by this version's audit; run the audit again")
    return frame
