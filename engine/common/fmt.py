"""One formatter for numbers, p-values and significance stars, used by every table, plot,
report and screen.

Why one: five formatters once gave three renderings of p < .001 ("<0.001", "1.0e-04",
"p=1.0e-04"); a reader comparing the GUI with the report or a paper's table must see the same
text. Missing values (None, NaN, non-numbers) render as an en dash.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

MISSING = "–"
#: Câmara et al.'s thresholds: *** p ≤ .01, ** p ≤ .05, * p ≤ .10
STAR_LEVELS = ((0.01, "***"), (0.05, "**"), (0.10, "*"))


def as_float(x: Any) -> float | None:
    """``x`` as a finite float, else None (bools are not numbers here)."""
    if x is None or isinstance(x, bool):
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def to_float(x: Any) -> float:
    """``x`` as a float for arithmetic and plotting: NaN when missing or not a finite number."""
    f = as_float(x)
    return float("nan") if f is None else f


def number(x: Any, digits: int = 3, *, signed: bool = False) -> str:
    """Fixed decimals, an en dash for missing, no negative zero ('-0.000' -> '0.000')."""
    f = as_float(x)
    if f is None:
        if isinstance(x, str) and x.strip():
            return x
        return MISSING
    s = f"{f:+.{digits}f}" if signed else f"{f:.{digits}f}"
    if float(s) == 0.0:
        s = f"{0.0:.{digits}f}"
    return s


def p_value(p: Any, digits: int = 3) -> str:
    """'<0.001' below the shown precision, else fixed decimals ('0.042'); en dash if missing."""
    f = as_float(p)
    if f is None:
        return MISSING
    floor = 10.0 ** -digits
    return f"<{floor:.{digits}f}" if f < floor else f"{f:.{digits}f}"


def p_label(p: Any, digits: int = 3) -> str:
    """'p<0.001' / 'p=0.042' for plot notes and log lines; '' if missing."""
    text = p_value(p, digits)
    if text == MISSING:
        return ""
    return f"p{text}" if text.startswith("<") else f"p={text}"


def p_phrase(p: Any, digits: int = 3) -> str:
    """'p < 0.001' / 'p = 0.042' for sentences on screen; '' if missing."""
    text = p_value(p, digits)
    if text == MISSING:
        return ""
    return f"p < {text[1:]}" if text.startswith("<") else f"p = {text}"


def stars(p: Any) -> str:
    """Significance stars as in Câmara et al.'s tables: *** p ≤ .01, ** p ≤ .05, * p ≤ .10."""
    f = as_float(p)
    if f is None:
        return ""
    for level, mark in STAR_LEVELS:
        if f <= level:
            return mark
    return ""


def cell(value: Any, digits: int = 4, *, missing: str = "") -> str:
    """A value in a generic table cell (GUI tables, text summaries): text as it is, yes/no for
    booleans, integers whole, floats with ``digits`` decimals (tiny non-zero ones in scientific
    notation so they do not read as 0, no negative zero), ``missing`` for None/NaN."""
    if value is None:
        return missing
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        f = float(value)
        if math.isnan(f):
            return missing
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        if f != 0 and abs(f) < 10.0 ** -digits:
            return f"{f:.2e}"
        return number(f, digits)
    return str(value)


def percent(share: float) -> str:
    """A share as a percentage: two significant digits below 1 % (0.03), else one decimal."""
    p = 100 * share
    if p == 0:
        return "0.0"
    if p < 1:
        return f"{p:.2g}" if p >= 0.01 else "<0.01"
    return f"{p:.1f}"
