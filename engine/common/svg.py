"""The one SVG chart renderer: forest plots (estimate and interval per row) in pure Python.

Used for the audit's plots/<stat>.svg files (``standalone=True``: with the SVG namespace, so
browsers open them as files) and inlined into the HTML report.

Why not matplotlib or pyqtgraph: the report must build headless, fast and without another
dependency, and the plots it needs are simple: estimates with confidence intervals (a
"forest plot") and group means. Inline SVG is an embedded image that stays sharp when
zoomed or printed and needs nothing from the network (no ``xmlns`` URL either: HTML5 knows
``<svg>``). Every text is escaped; the charts are deterministic for the same numbers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"
COLOURS = {"sig": "#b3261e", "weak": "#e8a33d", "ns": "#5f6b7a", "bar": "#3b6ea8", "untested": "#5f6b7a"}
#: The level of a row without a p-value: no test exists (a constant scorer, too few pairs...).
UNTESTED = "untested"


@dataclass
class Row:
    """One line of a forest plot: an estimate, its interval and how to colour it."""

    label: str
    value: float
    low: float | None = None
    high: float | None = None
    note: str = ""  # printed right of the plot (e.g. "0.049***")
    level: str = "ns"  # sig | weak | ns | untested (no p-value: a hollow marker labelled "not tested")
    band: float | None = None  # half-width of a shaded "negligible" zone around 0 on this row


def _finite(x) -> bool:
    try:
        return x is not None and math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About ``n`` round tick values covering [lo, hi]."""
    if not (_finite(lo) and _finite(hi)) or hi <= lo:
        span = abs(lo) if _finite(lo) and lo else 1.0
        lo, hi = (lo if _finite(lo) else 0.0) - span, (lo if _finite(lo) else 0.0) + span
    raw = (hi - lo) / max(n, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks, t = [], start
    while t <= hi + step * 1e-9:
        ticks.append(0.0 if abs(t) < step * 1e-9 else t)
        t += step
    if ticks[-1] < hi:
        ticks.append(ticks[-1] + step)
    return ticks


def _fmt_tick(t: float, step: float) -> str:
    digits = max(0, -math.floor(math.log10(step)) + (1 if step / 10 ** math.floor(math.log10(step)) == 2.5 else 0))
    return f"{t:.{digits}f}" if digits < 8 else f"{t:.1e}"


def forest(rows: list[Row], *, title: str = "", x_label: str = "", zero: float | None = 0.0,
           width: int = 760, label_width: int | None = 260, note_width: int = 110, standalone: bool = False) -> str:
    """Horizontal dot-and-whisker chart; a vertical reference line at ``zero`` (None: none).

    ``label_width=None`` sizes the label column to the longest label (160–640 px) and widens
    the chart by as much; ``standalone`` adds the SVG namespace for a .svg file of its own."""
    rows = [r for r in rows if _finite(r.value)]
    if not rows:
        return ""
    if label_width is None:  # about 7 px per character at 12 px
        label_width = min(640, max(160, 7 * max(len(r.label) for r in rows) + 20))
        width += label_width - 260
    row_h, top, bottom = 22, 34 if title else 12, 42
    height = top + row_h * len(rows) + bottom
    vals = [r.value for r in rows] + [v for r in rows for v in (r.low, r.high) if _finite(v)]
    vals += [s * float(r.band) for r in rows if _finite(r.band) for s in (-1, 1)]
    if zero is not None:
        vals.append(zero)
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.06 or (abs(hi) * 0.1 or 1.0)
    ticks = nice_ticks(lo - pad, hi + pad)
    x0, x1 = label_width, width - note_width
    t0, t1 = ticks[0], ticks[-1]

    def X(v: float) -> float:
        return x0 + (v - t0) / (t1 - t0) * (x1 - x0)

    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    out = [f'<svg{ns} class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'font-family="{escape(FONT)}" font-size="12">',
           f"<title>{escape(title or x_label or 'chart')}</title>",
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    if title:
        out.append(f'<text x="8" y="20" font-size="14" font-weight="600" fill="#1d2733">{escape(title)}</text>')
    plot_bottom = top + row_h * len(rows)
    for t in ticks:
        x = X(t)
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{plot_bottom}" stroke="#e3e7ec"/>')
        out.append(f'<text x="{x:.1f}" y="{plot_bottom + 16}" text-anchor="middle" fill="#4a5564">'
                   f"{escape(_fmt_tick(t, step))}</text>")
    if zero is not None and t0 <= zero <= t1:
        out.append(f'<line x1="{X(zero):.1f}" y1="{top - 4}" x2="{X(zero):.1f}" y2="{plot_bottom}" '
                   'stroke="#1d2733" stroke-width="1.2"/>')
    if x_label:
        out.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{plot_bottom + 34}" text-anchor="middle" fill="#1d2733">'
                   f"{escape(x_label)}</text>")
    for i, r in enumerate(rows):
        y = top + row_h * i + row_h / 2
        colour = COLOURS.get(r.level, COLOURS["ns"])
        if i % 2:
            out.append(f'<rect x="0" y="{y - row_h / 2:.1f}" width="{width}" height="{row_h}" fill="#f6f8fa" '
                       'fill-opacity="0.6"/>')
        if _finite(r.band) and float(r.band) > 0:
            b = float(r.band)
            out.append(f'<rect x="{X(-b):.1f}" y="{y - row_h / 2 + 2:.1f}" width="{X(b) - X(-b):.1f}" '
                       f'height="{row_h - 4}" fill="#cfe3d4" fill-opacity="0.7"/>')
        chars = max(12, (label_width - 16) // 7)
        label = r.label if len(r.label) <= chars else r.label[:chars - 1] + "…"
        out.append(f'<text x="{x0 - 10}" y="{y + 4:.1f}" text-anchor="end" fill="#1d2733">{escape(label)}</text>')
        if _finite(r.low) and _finite(r.high):
            out.append(f'<line x1="{X(float(r.low)):.1f}" y1="{y:.1f}" x2="{X(float(r.high)):.1f}" y2="{y:.1f}" '
                       f'stroke="{colour}" stroke-width="2"/>')
            for v in (float(r.low), float(r.high)):
                out.append(f'<line x1="{X(v):.1f}" y1="{y - 5:.1f}" x2="{X(v):.1f}" y2="{y + 5:.1f}" '
                           f'stroke="{colour}" stroke-width="1.5"/>')
        if r.level == UNTESTED:  # never a grey "not significant" dot: hollow, and said in words
            out.append(f'<circle cx="{X(r.value):.1f}" cy="{y:.1f}" r="4.5" fill="#ffffff" stroke="{colour}" '
                       'stroke-width="1.6"/>')
            out.append(f'<text x="{x1 + 10}" y="{y + 4:.1f}" fill="{colour}" font-style="italic">not tested</text>')
            continue
        out.append(f'<circle cx="{X(r.value):.1f}" cy="{y:.1f}" r="4.5" fill="{colour}"/>')
        if r.note:
            out.append(f'<text x="{x1 + 10}" y="{y + 4:.1f}" fill="{colour}" font-weight="600">{escape(r.note)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def legend_html() -> str:
    return ('<p class="legend"><span style="color:' + COLOURS["sig"] + '">●</span> p ≤ 0.05 '
            '<span style="color:' + COLOURS["weak"] + '">●</span> p ≤ 0.10 '
            '<span style="color:' + COLOURS["ns"] + '">●</span> not significant '
            '<span style="color:' + COLOURS["untested"] + '">○</span> not tested (no p-value); '
            "lines are 95% confidence intervals.</p>")


def level_of(p) -> str:
    """sig (p ≤ 0.05), weak (p ≤ 0.10), ns, or untested when there is no p-value (no test exists)."""
    if not _finite(p):
        return UNTESTED
    p = float(p)
    return "sig" if p <= 0.05 else "weak" if p <= 0.10 else "ns"
