"""Dependency-free SVG plots of an audit's tidy tables (forest plots: estimate and interval per row).

Why hand-written SVG: the product must not pull in a plotting stack for three charts, and
the engine must not import Qt. SVG is plain text, opens in every browser, embeds in the
HTML report and in papers. One chart per statistic:

* paired.svg — Kiritchenko & Mohammad: mean paired difference (a − b) with its CI;
* beta.svg — Câmara et al.: average marginal effect of each term (score units) with its CI;
* counterfactual.svg — Goldfarb-Tarrant et al.: mean pair difference with its CI, and the
  "negligible" band (± band) shaded;
* weat.svg — effect sizes of the association tests (no interval; p-value in the label).
"""
from __future__ import annotations

import math
from html import escape
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from engine.common.fmt import as_float, p_label

ROW_H = 18
LEFT = 160  # minimum width of the label column
PLOT_W = 380
RIGHT = 150
TOP = 46
BOTTOM = 40


def _nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    span = hi - lo
    if span <= 0 or not math.isfinite(span):
        return [lo]
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=raw)
    first = math.ceil(lo / step) * step
    ticks, t = [], first
    while t <= hi + 1e-12 and len(ticks) < 20:
        ticks.append(round(t, 12))
        t += step
    return ticks


def _fmt(v: float) -> str:
    if v == 0:
        return "0"
    a = abs(v)
    return f"{v:.2e}" if a < 1e-3 or a >= 1e4 else f"{v:.3g}"


def forest_svg(title: str, labels: Sequence[str], est: Sequence[float], lo: Sequence[float | None] | None = None,
               hi: Sequence[float | None] | None = None, *, xlabel: str = "", notes: Sequence[str] | None = None,
               band: Sequence[float | None] | None = None, highlight: Sequence[bool] | None = None) -> str:
    """An SVG forest plot: one row per label, a dot at the estimate, a line over [lo, hi].

    `band`: per-row half-width of a shaded "negligible" zone around 0; `highlight`: rows drawn
    in the accent colour (e.g. significant); `notes`: right-hand text per row.
    """
    n = len(labels)
    lo = list(lo) if lo is not None else [None] * n
    hi = list(hi) if hi is not None else [None] * n
    notes = list(notes) if notes is not None else [""] * n
    band = list(band) if band is not None else [None] * n
    highlight = list(highlight) if highlight is not None else [False] * n
    vals = [v for v in list(est) + lo + hi + [b for b in band if b] + [-(b or 0) for b in band] + [0.0]
            if v is not None and math.isfinite(v)]
    xmin, xmax = (min(vals), max(vals)) if vals else (-1.0, 1.0)
    if xmax - xmin < 1e-12:
        xmin, xmax = xmin - 1.0, xmax + 1.0
    pad = (xmax - xmin) * 0.05
    xmin, xmax = xmin - pad, xmax + pad

    # the label column grows with the longest label (about 6.3 px per character at 11 px)
    left = min(640, max(LEFT, int(6.3 * max((len(str(lab)) for lab in labels), default=0)) + 20))

    def x(v: float) -> float:
        return left + (v - xmin) / (xmax - xmin) * PLOT_W

    height = TOP + n * ROW_H + BOTTOM
    width = left + PLOT_W + RIGHT
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="20" font-size="14" font-weight="bold">{escape(title)}</text>']
    for t in _nice_ticks(xmin, xmax):
        out.append(f'<line x1="{x(t):.1f}" y1="{TOP - 6}" x2="{x(t):.1f}" y2="{TOP + n * ROW_H}" stroke="#eee"/>')
        out.append(f'<text x="{x(t):.1f}" y="{TOP + n * ROW_H + 14}" text-anchor="middle" fill="#555">{_fmt(t)}</text>')
    out.append(f'<line x1="{x(0):.1f}" y1="{TOP - 6}" x2="{x(0):.1f}" y2="{TOP + n * ROW_H}" stroke="#888"/>')
    if xlabel:
        out.append(f'<text x="{left + PLOT_W / 2:.1f}" y="{height - 8}" text-anchor="middle">{escape(xlabel)}</text>')
    for i in range(n):
        y = TOP + i * ROW_H + ROW_H / 2
        if i % 2:
            out.append(f'<rect x="0" y="{y - ROW_H / 2:.1f}" width="{width}" height="{ROW_H}" fill="#f7f7f7"/>')
        b = band[i]
        if b is not None and math.isfinite(b) and b > 0:
            out.append(f'<rect x="{x(-b):.1f}" y="{y - ROW_H / 2 + 2:.1f}" width="{x(b) - x(-b):.1f}" '
                       f'height="{ROW_H - 4}" fill="#dfeedd"/>')
        out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{escape(str(labels[i]))}</text>')
        colour = "#c0392b" if highlight[i] else "#2c3e50"
        e = est[i]
        if lo[i] is not None and hi[i] is not None and math.isfinite(lo[i]) and math.isfinite(hi[i]):
            out.append(f'<line x1="{x(lo[i]):.1f}" y1="{y:.1f}" x2="{x(hi[i]):.1f}" y2="{y:.1f}" '
                       f'stroke="{colour}" stroke-width="1.5"/>')
        if e is not None and math.isfinite(e):
            out.append(f'<circle cx="{x(e):.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>')
        if notes[i]:
            out.append(f'<text x="{left + PLOT_W + 8}" y="{y + 4:.1f}" fill="#555">{escape(notes[i])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


_num = as_float
_p = p_label


def paired_svg(df: pd.DataFrame) -> str:
    rows = df[df.get("status", "ok").astype(str) != "error"] if "status" in df else df
    labels = [f"{r.corpus} · {r.model}:{r.emotion} · {r.label_a}−{r.label_b} ({r.subset})" for r in rows.itertuples()]
    return forest_svg("Paired differences (Kiritchenko & Mohammad)", labels, [_num(v) for v in rows.mean_delta],
                      [_num(v) for v in rows.ci_low], [_num(v) for v in rows.ci_high],
                      xlabel="mean score difference a − b (95% CI)",
                      notes=[_p(v) for v in rows.p_value], highlight=[bool(v) for v in rows.significant])


def beta_svg(df: pd.DataFrame) -> str:
    rows = df[df.term != "intercept"]
    labels = [f"{r.corpus} · {r.model}:{r.emotion} · {r.term} ({r.subset})" for r in rows.itertuples()]
    pvals = [_num(v) for v in rows.p_value]
    return forest_svg("Beta regression: average marginal effects (Câmara et al.)", labels,
                      [_num(v) for v in rows.ame], [_num(v) for v in rows.ame_ci_low], [_num(v) for v in rows.ame_ci_high],
                      xlabel="AME on the score scale (95% CI)", notes=[_p(v) for v in rows.p_value],
                      highlight=[p is not None and p < 0.05 for p in pvals])


def counterfactual_svg(df: pd.DataFrame) -> str:
    labels = [f"{r.corpus} · {r.model}:{r.emotion} · {r.variable}" for r in df.itertuples()]
    return forest_svg("Counterfactual pairs (Goldfarb-Tarrant et al.)", labels, [_num(v) for v in df.mean_diff],
                      [_num(v) for v in df.ci_low], [_num(v) for v in df.ci_high],
                      xlabel="mean R(privileged) − R(minoritised) (95% CI); shaded: ± negligible band",
                      notes=[f"changed {100 * (_num(v) or 0):.0f}%" for v in df.share_changed],
                      band=[_num(v) for v in df.band], highlight=[bool(v) for v in df.exceeds_band])


def weat_svg(df: pd.DataFrame) -> str:
    ok = df[df.status == "ok"] if "status" in df else df
    labels = [f"{r.test} {r.title}" if getattr(r, "title", "") else str(r.test) for r in ok.itertuples()]
    return forest_svg("WEAT effect sizes (GloVe 6B 50d)", labels, [_num(v) for v in ok.effect_size],
                      xlabel="effect size d", notes=[_p(v) for v in ok.p_value],
                      highlight=[(_num(v) or 1) < 0.05 for v in ok.p_value])


PLOTTERS = {"paired": paired_svg, "beta": beta_svg, "counterfactual": counterfactual_svg, "weat": weat_svg}


def write_plots(tables: dict[str, pd.DataFrame], out_dir: str | Path) -> list[Path]:
    """One SVG per known table that has rows; returns the files written."""
    from engine.common.io import atomic_write_bytes

    out = Path(out_dir)
    written = []
    for name, fn in PLOTTERS.items():
        df = tables.get(name)
        if df is None or not len(df):
            continue
        try:
            svg = fn(df)
        except (AttributeError, KeyError, TypeError, ValueError):
            continue  # a table from another version of the statistics: no plot rather than no audit
        path = out / f"{name}.svg"
        atomic_write_bytes(path, svg.encode("utf-8"))
        written.append(path)
    return written
