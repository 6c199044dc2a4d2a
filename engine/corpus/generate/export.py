"""Write generated corpora to CSV / JSONL / Parquet, atomically.

CSV keeps the published EEC layout first (``ID,Sentence,Template,Person,Gender,Race,
Emotion,Emotion word``) so existing analysis scripts read it unchanged.
"""
from __future__ import annotations

import os
from pathlib import Path

from typing import TYPE_CHECKING

from engine.common.io import atomic_write_bytes

if TYPE_CHECKING:  # pandas loads in about a second: only the functions that build tables import it
    import pandas as pd

FORMATS = ("csv", "jsonl", "parquet")


def to_bytes(df: pd.DataFrame, fmt: str) -> bytes:
    if fmt == "csv":
        from engine.common.csv_cells import csv_text  # formula-safe: a spreadsheet shows text, runs nothing

        return csv_text(df, lineterminator="\n").encode("utf-8")
    if fmt == "jsonl":
        return (df.to_json(orient="records", lines=True, force_ascii=False) or "").encode("utf-8")
    if fmt == "parquet":
        import io

        from engine.common.extras import require

        require("parquet files", "pyarrow")  # the 'parquet' extra: one line naming it, exit 2
        buf = io.BytesIO()
        df.to_parquet(buf, index=False)
        return buf.getvalue()
    from engine.common.errors import UsageError

    raise UsageError(f"unknown format {fmt!r}", field="--format", fix=f"choose one of {', '.join(FORMATS)}")


def export_table(df: pd.DataFrame, path: str | os.PathLike, fmt: str | None = None) -> Path:
    path = Path(path)
    fmt = fmt or path.suffix.lstrip(".").lower() or "csv"
    atomic_write_bytes(path, to_bytes(df, fmt))
    return path
