"""Multiple-comparison corrections over a family of tests (Holm, Benjamini–Hochberg, Bonferroni).

Why: an audit runs many tests (models × emotions × terms × subsets); at α = .05 some come
out "significant" by chance. Corrections are off by default (the seed papers report raw
p-values, and Kiritchenko & Mohammad applied Bonferroni themselves) and, when asked for,
are added *beside* the raw p-value so both stay visible. Computation is delegated to
statsmodels' ``multipletests``; missing p-values (tests that could not be run) are not
members of the family and stay missing.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from engine.stats.errors import StatisticError

#: Accepted names -> statsmodels method names.
METHODS = {"holm": "holm", "bh": "fdr_bh", "fdr_bh": "fdr_bh", "benjamini-hochberg": "fdr_bh",
           "bonferroni": "bonferroni"}
#: The method's short name, as the ``correction`` setting records it.
SUFFIX = {"holm": "holm", "fdr_bh": "bh", "bonferroni": "bonferroni"}


def _method(method: str) -> str:
    key = str(method).lower()
    if key not in METHODS:
        raise StatisticError(f"unknown correction {method!r}; use one of 'holm', 'bh', 'bonferroni'")
    return METHODS[key]


def adjusted_column(p_col: str = "p_value") -> str:
    """The column of adjusted p-values beside ``p_col``: ``p_value`` -> ``p_adjusted``,
    ``t_p_value`` -> ``t_p_adjusted`` (one convention for every table: ``p_value``, ``p_adjusted``
    and prefixed alternatives; the method is in the row's ``settings``, key ``correction``)."""
    if p_col.endswith("p_value"):
        return p_col[: -len("value")] + "adjusted"
    return f"{p_col}_adjusted"


def adjust(pvalues, method: str = "holm") -> np.ndarray:
    """Adjusted p-values for one family; NaNs are left out of the family and stay NaN."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        if (p[ok] < 0).any() or (p[ok] > 1).any():
            raise StatisticError("p-values must lie in [0, 1]")
        out[ok] = multipletests(p[ok], method=_method(method))[1]
    return out


def correct_pvalues(p, method: str = "holm", *, p_col: str = "p_value",
                    family: Sequence[str] | None = None, mask=None):
    """Correct p-values for multiple comparisons.

    * array-like ``p``: returns the adjusted array (same shape).
    * DataFrame (or a result object with ``to_frame()``): returns a copy with a column
      ``p_adjusted`` (for ``p_col="t_p_value"``: ``t_p_adjusted``) inserted right after ``p_col``. ``family``
      names columns whose values define separate families (default: the whole table is one
      family); ``mask`` (boolean array/Series) restricts the family to some rows, the others
      get NaN (used to keep regression intercepts out of the family).
    """
    if hasattr(p, "to_frame") and not isinstance(p, (pd.DataFrame, pd.Series)):
        p = p.to_frame()
    if not isinstance(p, pd.DataFrame):
        return adjust(p, method)
    frame = p.copy()
    if p_col not in frame.columns:
        raise StatisticError(f"no p-value column {p_col!r} in the table; columns: {list(frame.columns)}")
    vals = frame[p_col].to_numpy(dtype=float).copy()
    if mask is not None:
        vals[~np.asarray(mask, dtype=bool)] = np.nan
    adj = np.full(len(frame), np.nan)
    if family:
        keys = frame[list(family)].astype(str).agg("\x1f".join, axis=1).to_numpy()
        for k in pd.unique(keys):
            sel = keys == k
            adj[sel] = adjust(vals[sel], method)
    else:
        adj = adjust(vals, method)
    name = adjusted_column(p_col)
    if name in frame.columns:
        frame = frame.drop(columns=[name])
    frame.insert(frame.columns.get_loc(p_col) + 1, name, adj)
    return frame


def correction_name(frame: pd.DataFrame, column: str) -> str:
    """The method behind an adjusted-p ``column``: the rows' ``settings`` (key ``correction``), or the
    method in the column's name in folders written before the one convention (``t_p_holm``)."""
    import json

    if "settings" in frame.columns:
        for raw in frame["settings"].dropna():
            try:
                method = json.loads(raw).get("correction") if isinstance(raw, str) else None
            except (ValueError, AttributeError):
                method = None
            if method:
                return str(method)
    tail = column.rsplit("_", 1)[-1]
    return tail if tail in SUFFIX.values() else "corrected"
