"""FISE quadrant scatter (Charlesworth et al. 2024; Puttick & Kurpicz-Briki): every target word
placed by its association with two identity dimensions (x: gender, y: race), top words labelled.

Why a scatter with quadrant labels: FISE's question is *intersectional* — which words sit with
"white men" vs "black women" — so the four quadrants, their share of words and their most
typical words (largest projection on the quadrant's diagonal, as the engine ranks them) are the
result. A click on a point lists that quadrant's words with their coordinates and affect.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QComboBox, QSpinBox

from gui.i18n import _, decimal, ngettext, number, percent

from .plots import GREY, PlotPanel, colour, connect, is_number, legend_html, text_item
from .widgets import fill_combo


def split_names(quadrants: list[str]) -> tuple[str, str, str, str]:
    """(x+, x−, y+, y−) names from the engine's quadrant order: x+y+, x+y−, x−y+, x−y−."""
    if len(quadrants) < 4:
        return ("x+", "x−", "y+", "y−")
    a, b, c = (q.split(" ") for q in quadrants[:3])
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1  # words x+ shares between "x+ y+" and "x+ y−"
    x_pos = " ".join(a[:k]) or a[0]
    y_pos = " ".join(a[len(x_pos.split(" ")):])
    x_neg = " ".join(c[: len(c) - len(y_pos.split(" "))]) if y_pos else c[0]
    y_neg = " ".join(b[len(x_pos.split(" ")):])
    return x_pos, x_neg, y_pos, y_neg


class FiseView(PlotPanel):
    name = "fise_quadrants"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.test = QComboBox()
        self.test.setMinimumContentsLength(24)
        self.top = QSpinBox()
        self.top.setRange(0, 30)
        self.top.setValue(5)
        self.test_label, self.top_label = self.add_control(self.test), self.add_control(self.top)
        self.points: Any = None
        self.words: Any = None
        connect(self)

    def retranslate(self, *_args: Any) -> None:
        self.test_label.setText(_("Test:"))
        self.top_label.setText(_("Words labelled per quadrant:"))
        super().retranslate()

    def hint_text(self) -> str:
        return _("Each point is a target word: x is its association with the gender dimension, y with the race "
                 "dimension. Labelled words are each quadrant's most typical. Click a point to list its quadrant.")

    def empty_text(self) -> str:
        return _("No FISE test in these results. Tick a FISE test under “Association tests” on the Audit page.")

    def has_data(self) -> bool:
        return self.data is not None and self.data.table("fise_words") is not None

    def fill_controls(self) -> None:
        words = self.data.table("fise_words")
        fill_combo(self.test, [(t, t) for t in self.data.values(words, "test")])

    def draw(self) -> None:
        test = self.test.currentData()
        words = self.data.table("fise_words")
        words = words[words["test"].astype(str) == str(test)].reset_index(drop=True)
        quads = self.data.table("fise_quadrants")
        quads = quads[quads["test"].astype(str) == str(test)] if quads is not None else None
        order = list(quads["quadrant"].astype(str)) if quads is not None and len(quads) else \
            list(dict.fromkeys(words["quadrant"].astype(str)))
        x_pos, x_neg, y_pos, y_neg = split_names(order)
        x_name = str(words["x_name"].iloc[0]) if "x_name" in words.columns and len(words) else "x"
        y_name = str(words["y_name"].iloc[0]) if "y_name" in words.columns and len(words) else "y"
        colours = {q: colour(i) for i, q in enumerate(order)}
        share = {}
        if quads is not None:
            for _i, q in quads.iterrows():
                share[str(q["quadrant"])] = q
        legend = [(f"{q} ({percent(float(share[q]['share_pct']) / 100, 0)})" if q in share else q, colours[q])
                  for q in order]
        self.canvas.addLabel(legend_html(legend), row=0, col=0)
        plot = self.add_plot(1, 0)
        plot.showGrid(x=True, y=True, alpha=0.12)
        rep = str(words["representation"].iloc[0]) if "representation" in words.columns and len(words) else ""
        plot.setTitle(ngettext("{test} on {representation}: {n} word", "{test} on {representation}: {n} words",
                               len(words)).format(test=test, representation=rep, n=number(len(words))), size="11pt")
        plot.setLabel("bottom", _("{dimension}: ← {neg} · {pos} →").format(dimension=x_name, neg=x_neg, pos=x_pos))
        plot.setLabel("left", _("{dimension}: ← {neg} · {pos} →").format(dimension=y_name, neg=y_neg, pos=y_pos))
        plot.addLine(x=0, pen=pg.mkPen(GREY, width=1.2))
        plot.addLine(y=0, pen=pg.mkPen(GREY, width=1.2))
        brushes = [pg.mkBrush(pg.mkColor(colours.get(str(q), GREY))) for q in words["quadrant"]]
        bx, by = words["b_x"].to_numpy(dtype=float), words["b_y"].to_numpy(dtype=float)
        scatter = pg.ScatterPlotItem(x=bx, y=by, size=7, pen=pg.mkPen("w", width=0.5), brush=brushes)
        plot.addItem(scatter)
        self.points, self.words = np.column_stack([bx, by]) if len(words) else np.zeros((0, 2)), words
        span_x = max(np.abs(bx).max() if len(bx) else 0.1, 1e-6) * 1.35
        span_y = max(np.abs(by).max() if len(by) else 0.1, 1e-6) * 1.25
        k = self.top.value()
        if quads is not None and k:
            self._label_words(plot, quads, words, bx, by, colours, k, span_x, span_y)
        plot.setXRange(-span_x, span_x, padding=0)
        plot.setYRange(-span_y, span_y, padding=0)
        for q in order:
            parts = q.split(" ")
            sx = 1 if q.startswith(x_pos + " ") or q == x_pos else -1
            sy = 1 if q.endswith(" " + y_pos) else -1
            row = share.get(q)
            extra = ""
            if row is not None:
                extra = f"\n{percent(float(row['share_pct']) / 100, 0)} " + _("of words")
                aff = [c for c in row.index if str(c).startswith("pct_positive_") and is_number(row[c])]
                for c in aff[:1]:
                    extra += "\n" + _("{pct}% positive {affect}").format(pct=number(round(float(row[c]))), affect=c[13:])
            txt = text_item(" ".join(parts) + extra, colours[q], anchor=(1 if sx > 0 else 0, 0 if sy > 0 else 1),
                            bold=True)
            txt.setPos(sx * span_x * 0.98, sy * span_y * 0.97)
            plot.addItem(txt)
        plot.setAspectLocked(False)
        self.canvas.ci.layout.setRowStretchFactor(1, 1)

    def _label_words(self, plot: Any, quads: Any, words: Any, bx: Any, by: Any, colours: dict, k: int,
                     span_x: float, span_y: float) -> None:
        """Label each quadrant's top-k words (the engine's ranking), skipping a label that would
        cover one already placed (estimated from the canvas size), then trying it below the point."""
        pos = {w: (x, y) for w, x, y in zip(words["word"].astype(str), bx, by)}
        px_w = max(self.canvas.width() - 160, 300) / (2 * span_x)  # pixels per data unit
        px_h = max(self.canvas.height() - 120, 200) / (2 * span_y)
        placed: list[tuple[float, float, float, float]] = []
        for _i, q in quads.iterrows():
            tops = [w.strip() for w in str(q.get("top_words", "") or "").split(",") if w.strip()][:k]
            col = pg.mkColor(colours.get(str(q["quadrant"]), GREY)).darker(140).name()
            for w in tops:
                if w not in pos:
                    continue
                x, y = pos[w]
                wd, ht = (7.0 * len(w) + 6) / px_w, 16.0 / px_h
                ax = 0 if x >= 0 else 1
                x0 = x if ax == 0 else x - wd
                for ay in ((1, 0) if y >= 0 else (0, 1)):
                    y0 = y if ay == 1 else y - ht
                    box = (x0, y0, x0 + wd, y0 + ht)
                    if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed):
                        placed.append(box)
                        txt = text_item(w, col, anchor=(ax, ay), size=9)
                        txt.setPos(x, y)
                        plot.addItem(txt)
                        break

    def clicked(self, plot: Any, x: float, y: float) -> None:
        if self.points is None or not len(self.points):
            return
        (x0, x1), (y0, y1) = plot.vb.viewRange()
        d = ((self.points[:, 0] - x) / (x1 - x0)) ** 2 + ((self.points[:, 1] - y) / (y1 - y0)) ** 2
        i = int(np.argmin(d))
        if d[i] > 0.0009:
            return
        self.highlight_point(plot, float(self.points[i, 0]), float(self.points[i, 1]))
        self.drill_word(i)

    def drill_word(self, i: int) -> None:
        words = self.words
        w = words.iloc[i]
        q = str(w["quadrant"])
        title = _("{word} ({x}, {y}) — quadrant {quadrant}").format(word=w["word"], x=decimal(w["b_x"], 3, signed=True),
                                                                    y=decimal(w["b_y"], 3, signed=True), quadrant=q)
        keep = [c for c in words.columns if c not in ("test", "x_name", "y_name", "representation")]

        def rows() -> Any:
            sel = words[words["quadrant"].astype(str) == q]
            return sel[keep].sort_values("projection", ascending=False).reset_index(drop=True)

        self.drill(title, rows)
