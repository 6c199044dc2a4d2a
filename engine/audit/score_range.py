"""A declared score range is a promise about every score: checked once, before any statistic.

Why here and not in each statistic: the statistics used to treat a score outside ``--score-range``
each its own way — the Beta regression left the column out, the paired tests used the value, the
counterfactual band fell back to the observed range — so one run reported numbers computed on
different data, and nothing said which score was wrong. A declared range (``--score-range``, or
the scale a scorer declares for a dimension) is now checked on every scored sentence and pair
side before the statistics run, and the first score outside it is refused where it came from:
``file:line [column]`` for a prediction file, the sentence's corpus ID otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.common.errors import UsageError
from engine.models.base import declared_scale
from engine.models.errors import ModelError

TOLERANCE = 1e-9  # share of the range: float noise at a bound is not a violation


def check_declared_ranges(df: pd.DataFrame, pairs: pd.DataFrame | None, score_cols: dict[str, tuple[str, str]],
                          scorers: list[Any], user_range: Any) -> None:
    """Raise (one line: where, the value, the range, the fix) on the first score outside its declared range."""
    by_name = {s.name: s for s in scorers}
    found: list[_Outside] = []
    for col, (sname, dim) in score_cols.items():
        scorer = by_name.get(sname)
        if user_range is not None:
            lo, hi = float(user_range[0]), float(user_range[1])
            source = f"--score-range {lo:g},{hi:g}"
        else:
            declared = declared_scale(scorer, dim) if scorer is not None else None
            if declared is None:
                continue
            (lo, hi), source = declared, f"the scale {sname} declares for {dim}"
        for text, value in _outside(df, pairs, col, lo, hi).items():
            found.append(_Outside(scorer, col, dim, text, value, lo, hi, source))
    if found:
        _refuse(found, df)


@dataclass
class _Outside:
    scorer: Any
    col: str
    dim: str
    text: str
    value: float
    lo: float
    hi: float
    source: str

    def located(self) -> tuple[str, int | None, str] | None:
        """(file, line, column) of a prediction file's row, else None."""
        where = getattr(self.scorer, "where", None)
        return where(self.text, self.dim) if callable(where) else None


def _outside(df: pd.DataFrame, pairs: pd.DataFrame | None, col: str, lo: float, hi: float) -> dict[str, float]:
    """{text: score} of the scores of ``col`` outside [lo, hi], sentences first, then pair sides."""
    tol = TOLERANCE * (hi - lo)
    found: dict[str, float] = {}
    frames = [(df.Sentence, df[col])]
    if pairs is not None:
        frames += [(pairs[side], pairs[f"{col}:{side}"]) for side in ("privileged", "minoritised")
                   if f"{col}:{side}" in pairs.columns]
    for texts, values in frames:
        v = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
        bad = np.flatnonzero(np.isfinite(v) & ((v < lo - tol) | (v > hi + tol)))
        if not len(bad):
            continue  # no text of a million made a Python string to find none (issue 42)
        for text, value in zip(texts.iloc[bad].to_numpy(dtype=object), v[bad]):
            found.setdefault(str(text), float(value))
    return found


def _refuse(found: list[_Outside], df: pd.DataFrame) -> None:
    """The first score outside its range in file order (a prediction file's) or corpus order."""
    lines = [(x, x.located()) for x in found]
    in_file = [(x, loc) for x, loc in lines if loc is not None and loc[1] is not None]
    first, loc = min(in_file, key=lambda item: item[1][1]) if in_file else lines[0]
    n = len(found)
    more = f" (and {n - 1} more score{'s' if n > 2 else ''} outside a declared range)" if n > 1 else ""
    what = f"outside the declared score range [{first.lo:g}, {first.hi:g}] ({first.source}){more}"
    fix = ("correct the scores, or declare the scale they are on (--score-range LOW,HIGH; it applies to every "
           "score column)" if first.source.startswith("--") else "correct the scores, or the scale the model declares")
    if loc is not None:
        file, line, column = loc
        raise ModelError(file, f"score {first.value:g} is {what}", field=column, line=line, fix=fix)
    ids = dict(zip(df.Sentence, df.ID)) if "ID" in df.columns else {}
    who = f"sentence {ids[first.text]}" if first.text in ids else "a pair sentence"
    raise UsageError(f"{first.col}: {who} ({first.text!r}) scored {first.value:g}, {what}", field="--score-range",
                     fix=fix)
