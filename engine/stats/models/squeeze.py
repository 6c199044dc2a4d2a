"""Map scores onto the open interval (0, 1) for Beta regression.

Why: the Beta likelihood is undefined at 0 and 1, yet emotion-intensity systems do return
exact 0s and 1s (clipped regressors, binary classifiers). Smithson & Verkuilen (2006,
"A better lemon squeezer?") shrink every score towards 0.5 by
``y' = (y·(n − 1) + 0.5) / n``. It is linear, so differences on the squeezed scale are
differences on the original scale times (n − 1)/n, which :func:`unsqueeze_factor` undoes.
The squeeze is applied only when needed and every result says whether it was.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Squeezed:
    """Scores on the (0, 1) scale used for the fit, and how they were obtained."""

    values: np.ndarray
    squeezed: bool
    low: float
    high: float
    n: int

    @property
    def scale_back(self) -> float:
        """Factor turning a difference on the fitted scale into one on the original scale."""
        f = (self.high - self.low)
        return f * unsqueeze_factor(self.n) if self.squeezed else f


def smithson_verkuilen(y01: np.ndarray) -> np.ndarray:
    """The squeeze ``(y·(n − 1) + 0.5) / n`` for y in [0, 1]; n = number of scores."""
    y01 = np.asarray(y01, dtype=float)
    n = y01.size
    return (y01 * (n - 1) + 0.5) / n


def unsqueeze_factor(n: int) -> float:
    """n / (n − 1): the slope that undoes the squeeze for differences."""
    return n / (n - 1)


def to_unit_interval(y: np.ndarray, score_range: tuple[float, float] = (0.0, 1.0)) -> Squeezed:
    """Rescale ``y`` from ``score_range`` to [0, 1] and squeeze only if a value is 0 or 1.

    Values outside ``score_range`` must have been refused before (see ``_common.check_range``);
    values a hair outside because of rounding are clipped onto the bound.
    """
    lo, hi = float(score_range[0]), float(score_range[1])
    y01 = np.clip((np.asarray(y, dtype=float) - lo) / (hi - lo), 0.0, 1.0)
    need = bool(np.any(y01 <= 0.0) or np.any(y01 >= 1.0))
    vals = smithson_verkuilen(y01) if need else y01
    return Squeezed(values=vals, squeezed=need, low=lo, high=hi, n=int(y01.size))
