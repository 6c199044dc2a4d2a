"""Write generated corpora to CSV / JSONL / Parquet, atomically.

CSV keeps the published EEC layout first (``ID,Sentence,Template,Person,Gender,Race,
Emotion,Emotion word``) so existing analysis scripts read it unchanged.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas loads in about a second: only the functions that build tables import it
    import pandas as pd

FORMATS = ("csv", "jsonl", "parquet")


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write to a temp file in the same folder, fsync, then rename: never a half file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def to_bytes(df: pd.DataFrame, fmt: str) -> bytes:
    if fmt == "csv":
        return df.to_csv(index=False, lineterminator="\n").encode("utf-8")
    if fmt == "jsonl":
        return (df.to_json(orient="records", lines=True, force_ascii=False) or "").encode("utf-8")
    if fmt == "parquet":
        import io

        buf = io.BytesIO()
        df.to_parquet(buf, index=False)
        return buf.getvalue()
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def export_table(df: pd.DataFrame, path: str | os.PathLike, fmt: str | None = None) -> Path:
    path = Path(path)
    fmt = fmt or path.suffix.lstrip(".").lower() or "csv"
    atomic_write_bytes(path, to_bytes(df, fmt))
    return path
