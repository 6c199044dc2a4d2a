"""Word-to-attribute association: cosine similarity or (negated) Euclidean distance.

Why negate the distance: WEAT's s(w, A, B) reads "more associated with A" as larger.
With f = −‖w − a‖ the statistic, the effect size and the one-sided test keep the same
direction as with cosine, which is how the XWEAT paper can say the two metrics agree
(its footnote 3 flips the tail instead; the two are equivalent).
"""
from __future__ import annotations

from typing import Literal

import numpy as np

from engine.common.errors import UsageError

Metric = Literal["cosine", "euclidean"]
METRICS = ("cosine", "euclidean")


def pairwise(W: np.ndarray, V: np.ndarray, metric: Metric = "cosine") -> np.ndarray:
    """f(w, v) for every row w of W and v of V (len(W) × len(V))."""
    W = np.asarray(W, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64)
    if metric == "cosine":
        wn = np.linalg.norm(W, axis=1, keepdims=True)
        vn = np.linalg.norm(V, axis=1, keepdims=True)
        wn[wn == 0] = 1.0
        vn[vn == 0] = 1.0
        return (W / wn) @ (V / vn).T
    if metric == "euclidean":
        d2 = (W * W).sum(1)[:, None] + (V * V).sum(1)[None, :] - 2.0 * (W @ V.T)
        exact = np.sqrt(np.maximum(d2, 0.0))
        # the expansion loses digits for near-identical vectors; recompute those few directly
        close = d2 < 1e-6 * (1.0 + (W * W).sum(1)[:, None])
        if close.any():
            for i, j in zip(*np.nonzero(close)):
                exact[i, j] = float(np.linalg.norm(W[i] - V[j]))
        return -exact
    raise UsageError(f"unknown metric {metric!r}; use one of {METRICS}", field="metric")


def differential_association(T: np.ndarray, A: np.ndarray, B: np.ndarray, metric: Metric = "cosine") -> np.ndarray:
    """s(t, A, B) = mean_a f(t, a) − mean_b f(t, b) for every row t of T, computed once per word."""
    return pairwise(T, A, metric).mean(axis=1) - pairwise(T, B, metric).mean(axis=1)
