"""Common behaviour of result objects: a tidy table and a readable text summary.

Why: every analysis returns a dataclass that keeps the structured pieces (per fit, per
test) and exposes the same two views as statsmodels results — ``to_frame()`` for saving,
plotting and concatenating, ``summary()`` for reading in a terminal or notebook.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from engine.common.fmt import cell

#: Columns every tidy result row carries, first and in this order.
ID_COLUMNS = ["corpus", "model", "emotion", "test"]


def fmt_num(x, digits: int = 4) -> str:
    """A number for text tables (summaries): engine.common.fmt.cell with '–' for missing."""
    return cell(x, digits, missing="–")


def text_table(frame: pd.DataFrame, columns: Sequence[str], headers: Sequence[str] | None = None,
               digits: int = 4) -> str:
    """A plain fixed-width table (right-aligned numbers) for ``summary()``."""
    headers = list(headers or columns)
    body = [[fmt_num(v, digits) if not isinstance(v, str) else v for v in row]
            for row in frame[list(columns)].itertuples(index=False, name=None)]
    widths = [max([len(h)] + [len(r[i]) for r in body]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(headers, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in body]
    return "\n".join(lines)


def rule(title: str = "", width: int = 78, char: str = "=") -> str:
    if not title:
        return char * width
    return f" {title} ".center(width, char)


def order_columns(frame: pd.DataFrame, first: Iterable[str]) -> pd.DataFrame:
    first = [c for c in first if c in frame.columns]
    return frame[first + [c for c in frame.columns if c not in first]]


class ResultsMixin:
    """``to_frame`` returns a copy of ``self.frame``; ``__str__`` is the summary."""

    frame: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        """The tidy table: one row per test (per coefficient for regressions)."""
        return self.frame.copy()

    def summary(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def __str__(self) -> str:
        return self.summary()

    def __len__(self) -> int:
        return len(self.frame)
