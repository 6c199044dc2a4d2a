"""FISE and GG-FISE (Charlesworth et al. 2024, as adapted by Puttick & Kurpicz-Briki).

Each target word (trait, occupation) gets a bias on two dimensions,
b_d(w) = s(w, A_d, B_d) (e.g. men/women and white/black), which places it in one of
four intersectional quadrants. Reported per quadrant: the share of words, the % with
positive valence and the % ingressive (affect measured as s(w, positive, negative)
> 0, by default with the same vectors; the paper always used fastText, hence
``affect_provider``), and the top-k words by projection on the quadrant's diagonal,
(σ_x b_x + σ_y b_y)/√2. GG-FISE averages the vectors of a term's masculine and
feminine forms (``forms="average"`` in the test file) before anything else.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .coverage import DEFAULT_MIN_COVERAGE, SetCoverage, check_coverage, resolve_set
from .errors import AssocError
from .similarity import Metric, differential_association
from .stimuli import TestSpec


@dataclass
class FiseResult:
    test_id: str
    representation: str
    x_name: str
    y_name: str
    words: pd.DataFrame  # word, b_x, b_y, quadrant, projection, <affect>_score, <affect>_positive
    quadrants: pd.DataFrame  # quadrant, n, share_pct, pct_positive_<affect>, mean_<affect>, top_words
    coverage: list[SetCoverage]
    top_k: int

    def to_frame(self) -> pd.DataFrame:
        return self.quadrants.assign(test=self.test_id, representation=self.representation)

    def coverage_frame(self) -> pd.DataFrame:
        return pd.DataFrame([dict(test=self.test_id, **c.as_row()) for c in self.coverage])

    def summary(self) -> str:
        lines = [f"{self.test_id}: FISE on {self.representation}, {len(self.words)} words "
                 f"({self.x_name} × {self.y_name})"]
        aff = [c for c in self.quadrants.columns if c.startswith("pct_positive_")]
        head = f"  {'quadrant':<24}{'share%':>8}" + "".join(f"{c[13:][:12] + '+%':>15}" for c in aff)
        lines.append(head)
        for _, r in self.quadrants.iterrows():
            vals = "".join(f"{r[c]:>15.1f}" if r[c] == r[c] else f"{'–':>15}" for c in aff)
            lines.append(f"  {r['quadrant']:<24}{r['share_pct']:>8.1f}{vals}")
            if r["top_words"]:
                lines.append(f"      top: {r['top_words']}")
        dropped = [c for c in self.coverage if c.dropped]
        for c in dropped:
            lines.append(f"  {c.key} '{c.name}': {c.found}/{c.listed} found; dropped {', '.join(c.dropped[:10])}"
                         + (" …" if len(c.dropped) > 10 else ""))
        return "\n".join(lines)


def quadrant_labels(x_pos: str, x_neg: str, y_pos: str, y_neg: str, bx: np.ndarray, by: np.ndarray) -> list[str]:
    """Quadrant of each point; a coordinate of exactly 0 goes to the positive side."""
    return [f"{x_pos if a >= 0 else x_neg} {y_pos if b >= 0 else y_neg}" for a, b in zip(bx, by)]


def run_fise(spec: TestSpec, provider: Any, *, affect_provider: Any = None, metric: Metric = "cosine",
             top_k: int = 10, min_coverage: float = DEFAULT_MIN_COVERAGE) -> FiseResult:
    if spec.kind != "fise" or spec.fise is None:
        raise AssocError(f"test is a {spec.kind} test, not FISE", file=spec.id)
    f = spec.fise
    pol = spec.forms
    dims = {
        "x+": resolve_set("x+", f.x_pos, provider, pol), "x-": resolve_set("x-", f.x_neg, provider, pol),
        "y+": resolve_set("y+", f.y_pos, provider, pol), "y-": resolve_set("y-", f.y_neg, provider, pol),
    }
    tgt = resolve_set("targets", f.targets, provider, f.target_forms)
    covs = [d.coverage for d in dims.values()] + [tgt.coverage]
    check_coverage(covs, min_coverage, test_id=spec.id)
    bx = differential_association(tgt.vectors, dims["x+"].vectors, dims["x-"].vectors, metric)
    by = differential_association(tgt.vectors, dims["y+"].vectors, dims["y-"].vectors, metric)
    quad = quadrant_labels(f.x_pos.name, f.x_neg.name, f.y_pos.name, f.y_neg.name, bx, by)
    sx = np.where(bx >= 0, 1.0, -1.0)
    sy = np.where(by >= 0, 1.0, -1.0)
    words = pd.DataFrame({"word": tgt.words, "b_x": bx, "b_y": by, "quadrant": quad,
                          "projection": (sx * bx + sy * by) / math.sqrt(2.0)})
    ap = affect_provider or provider
    aff_tgt = tgt if ap is provider else resolve_set("targets", f.targets, ap, f.target_forms)
    for name, (pos, neg) in f.affect.items():
        rp, rn = resolve_set(f"{name}+", pos, ap, "each"), resolve_set(f"{name}-", neg, ap, "each")
        check_coverage([rp.coverage, rn.coverage], min_coverage, test_id=spec.id)
        covs += [rp.coverage, rn.coverage]
        score = differential_association(aff_tgt.vectors, rp.vectors, rn.vectors, metric)
        by_word = dict(zip(aff_tgt.words, score))
        words[f"{name}_score"] = [by_word.get(w, np.nan) for w in tgt.words]
        words[f"{name}_positive"] = words[f"{name}_score"] > 0
    order = [f"{a} {b}" for a in (f.x_pos.name, f.x_neg.name) for b in (f.y_pos.name, f.y_neg.name)]
    rows = []
    for q in order:
        g = words[words["quadrant"] == q]
        row: dict[str, Any] = {"quadrant": q, "n": len(g), "share_pct": 100.0 * len(g) / len(words)}
        for name in f.affect:
            vals = g[f"{name}_score"].dropna()
            row[f"pct_positive_{name}"] = 100.0 * float((vals > 0).mean()) if len(vals) else float("nan")
            row[f"mean_{name}"] = float(vals.mean()) if len(vals) else float("nan")
        row["top_words"] = ", ".join(g.sort_values("projection", ascending=False)["word"].head(top_k))
        rows.append(row)
    return FiseResult(spec.id, getattr(provider, "name", "vectors"), f.x_name, f.y_name, words,
                      pd.DataFrame(rows), covs, top_k)
