"""Confusion matrix of privileged-side score × minoritised-side score (Goldfarb-Tarrant et al. 2023).

Why: the mean difference hides *how* a model is biased — a few large flips (neutral →
very negative) or many one-step changes. Rows are the privileged sentence's score,
columns the minoritised sentence's score; an unbiased model puts every pair on the
diagonal. Mass *below* the diagonal (privileged scored higher) is bias against the
minoritised group, mass *above* it bias against the privileged group, as the paper shades
its lower and upper triangles. Discrete labels (1–5 stars) are used as they are;
continuous scores need user-set bins.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from engine.stats import _common as C
from engine.stats.results import ID_COLUMNS, rule
from engine.stats.errors import StatisticError

TEST = "confusion_matrix"

MAX_LABELS = 20


@dataclass
class ConfusionMatrix:
    """Counts (``matrix``: privileged rows × minoritised columns) and the mass off the diagonal."""

    matrix: pd.DataFrame
    n: int
    share_below: float  # privileged higher: against the minoritised group
    share_above: float  # minoritised higher: against the privileged group
    share_diagonal: float
    kind: str  # "labels" | "bins"
    settings: dict[str, Any] = field(default_factory=dict)
    corpus: str = ""
    model: str = ""
    emotion: str = ""

    def shares(self) -> pd.DataFrame:
        """The matrix as shares of all pairs."""
        return self.matrix / self.n if self.n else self.matrix.astype(float)

    def to_frame(self) -> pd.DataFrame:
        """Long form: one row per (privileged, minoritised) cell with count, share and position
        ("below" the diagonal: privileged higher), each row labelled with corpus, model, emotion,
        test, n (all pairs) and settings like every other result table."""
        m = self.matrix
        settings = C.settings_json(self.settings)
        rows = []
        for i, r in enumerate(m.index):
            for j, c in enumerate(m.columns):
                cnt = int(m.iat[i, j])
                rows.append({"corpus": self.corpus, "model": self.model, "emotion": self.emotion, "test": TEST,
                             "n": self.n, "privileged": r, "minoritised": c, "count": cnt,
                             "share": cnt / self.n if self.n else float("nan"),
                             "position": "diagonal" if i == j else ("below" if i > j else "above"),
                             "settings": settings})
        return pd.DataFrame(rows, columns=ID_COLUMNS + ["n", "privileged", "minoritised", "count", "share",
                                                        "position", "settings"])

    def summary(self) -> str:
        what = " · ".join(x for x in (self.model, self.emotion, self.corpus) if x)
        lines = [rule("Confusion matrix: privileged (rows) × minoritised (columns)" + (f" · {what}" if what else "")),
                 self.matrix.to_string(),
                 f"n = {self.n}; below diagonal (privileged higher) {self.share_below:.4f}; "
                 f"above (minoritised higher) {self.share_above:.4f}; diagonal {self.share_diagonal:.4f}"]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def confusion_matrix(pairs: pd.DataFrame, priv_col: str, min_col: str, *, labels: Sequence[Any] | None = None,
                     bins: Sequence[float] | int | None = None, score_range: tuple[float, float] | None = None,
                     dropna: bool = False, model: str | None = None, emotion: str = "",
                     corpus: str | None = None) -> ConfusionMatrix:
    """Cross-tabulate the two sides' scores.

    labels : the ordered label set for discrete scores (default: the sorted values present;
        refused above 20 distinct values — pass ``bins``).
    bins : bin edges (increasing) or a number of equal-width bins over ``score_range``
        (default: the observed range). Bins are closed on the right, the first also on the left.
    model, emotion, corpus : labels carried by every row of ``to_frame()`` (model default: the
        common prefix of the two column names; corpus default: the ``corpus`` column's single value).
    """
    C.require_columns(pairs, [priv_col, min_col], "confusion_matrix")
    data, notes = C.refuse_missing(pairs, [priv_col, min_col], dropna, id_col="pair_id")
    a = C.numeric_scores(data, priv_col)
    b = C.numeric_scores(data, min_col)
    settings: dict[str, Any] = {"priv_col": priv_col, "min_col": min_col, "rows": "privileged", "columns": "minoritised",
                                "below_diagonal": "privileged higher", "dropna": dropna}
    if notes:
        settings["notes"] = notes
    if model is None:
        model = C.default_model(priv_col, min_col)
    if corpus is None:
        corpus = str(data["corpus"].iloc[0]) if "corpus" in data.columns and data["corpus"].nunique() == 1 else ""
    if bins is not None:
        if isinstance(bins, (int, np.integer)):
            if bins < 1:
                raise StatisticError("bins must be at least 1")
            both = np.concatenate([a, b])
            lo, hi = score_range if score_range is not None else \
                ((float(both.min()), float(both.max())) if both.size else (0.0, 1.0))
            if hi <= lo:
                hi = lo + 1.0
            edges = np.linspace(float(lo), float(hi), int(bins) + 1)
        else:
            edges = np.asarray(bins, dtype=float)
            if edges.ndim != 1 or len(edges) < 2 or np.any(np.diff(edges) <= 0):
                raise StatisticError("bins must be increasing edges (at least two)")
        outside = (a < edges[0]) | (a > edges[-1]) | (b < edges[0]) | (b > edges[-1])
        if outside.any():
            raise StatisticError(f"{int(outside.sum())} pair(s) have scores outside the bins "
                             f"[{edges[0]:g}, {edges[-1]:g}]; widen the bins")
        names = [f"({edges[i]:g}, {edges[i + 1]:g}]" if i else f"[{edges[i]:g}, {edges[i + 1]:g}]"
                 for i in range(len(edges) - 1)]
        ia = np.clip(np.searchsorted(edges, a, side="left") - 1, 0, len(names) - 1)
        ib = np.clip(np.searchsorted(edges, b, side="left") - 1, 0, len(names) - 1)
        kind = "bins"
        settings["bins"] = edges.tolist()
        if isinstance(bins, (int, np.integer)):
            settings["score_range"] = [float(edges[0]), float(edges[-1])]
    else:
        if labels is None:
            names = sorted(set(a.tolist()) | set(b.tolist()))
            if len(names) > MAX_LABELS:
                raise StatisticError(f"{len(names)} distinct scores: these look continuous; pass bins=[edges] "
                                 "or bins=<number of bins> (and score_range)")
        else:
            names = list(labels)
        index = {float(v): i for i, v in enumerate(names)}
        unknown = sorted({v for v in np.concatenate([a, b]).tolist() if v not in index})
        if unknown:
            raise StatisticError(f"scores not among the labels: {unknown[:10]}")
        ia = np.array([index[v] for v in a.tolist()], dtype=int)
        ib = np.array([index[v] for v in b.tolist()], dtype=int)
        names = [int(v) if float(v).is_integer() else v for v in names]
        kind = "labels"
        settings["labels"] = list(names)
    k = len(names)
    counts = np.zeros((k, k), dtype=int)
    np.add.at(counts, (ia, ib), 1)
    n = int(len(a))
    below = int(np.tril(counts, -1).sum())
    above = int(np.triu(counts, 1).sum())
    mat = pd.DataFrame(counts, index=pd.Index(names, name="privileged"), columns=pd.Index(names, name="minoritised"))
    share = (lambda x: x / n) if n else (lambda x: float("nan"))
    return ConfusionMatrix(mat, n, share(below), share(above), share(n - below - above), kind, settings,
                           str(corpus), str(model), str(emotion))
