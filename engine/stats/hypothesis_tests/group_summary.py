"""Mean score per person group, with a normal-approximation 95% interval.

Why in engine.stats: it is a statistic of the scored corpus (the report's "Scores by group"
section and any notebook use it); the report only renders it.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd


def group_means(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Mean, 95% CI and n of every score column ("scorer:dim") per person group (race × gender;
    noun phrases apart). Returns (tidy table: group, score, n, mean, low, high; score columns)."""
    cols = [c for c in frame.columns if ":" in c and pd.api.types.is_numeric_dtype(frame[c])]
    if not cols:
        return pd.DataFrame(), []
    race = frame["Race"].fillna("").astype(str) if "Race" in frame.columns else pd.Series("", index=frame.index)
    kind = frame["person_kind"].fillna("").astype(str) if "person_kind" in frame.columns else pd.Series("", index=frame.index)
    group = np.where(race != "", race, np.where(kind == "name", "", "noun phrase"))
    frame = frame.assign(_group=[(f"{g} · {s}" if g else str(s)) for g, s in zip(group, frame["Gender"].fillna(""))])
    rows = []
    for g, part in frame.groupby("_group", sort=True):
        for c in cols:
            v = part[c].astype(float)
            v = v[np.isfinite(v)]
            n = len(v)
            mean = float(v.mean()) if n else float("nan")
            half = 1.96 * float(v.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
            rows.append({"group": g, "score": c, "n": n, "mean": mean, "low": mean - half, "high": mean + half})
    return pd.DataFrame(rows), cols
