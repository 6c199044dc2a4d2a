"""Any statistic's forest plot, drawn from its registry entry's plot adapter.

Why generic: a statistic added to the registry (engine/stats/entries/<id>.py) must appear on the
Results page with a plot and no GUI code. Its entry's ``plot(frame)`` (engine.stats.registry.PlotSpec:
title, x label, one engine.common.svg.Row per line) is what the audit's plots/<id>.svg and the HTML
report draw; this view draws the same rows with pyqtgraph — estimate, interval, the negligible band,
the p-value note — over the corpus and system chosen above the plot, so it can be clicked, zoomed and
exported. A row without a test is a hollow marker that says "not tested" and why, on the plot itself.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from engine.common.svg import COLOURS, UNTESTED
from engine.results.plots import plot_spec
from engine.stats import registry
from gui.i18n import _

from .plots import GREY, PlotPanel, connect, legend_html, plot_label, text_item, untested_text
from .widgets import fill_combo, relabel_combo

ALL = ""


def _finite(v: Any) -> bool:
    try:
        return v is not None and math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


class ForestView(PlotPanel):
    """The forest plot of one registry statistic (``stat_id``), filtered by corpus and system."""

    def __init__(self, stat_id: str, parent: Any = None) -> None:
        self.stat_id = stat_id
        self.name = stat_id
        super().__init__(parent)
        self.corpus, self.model = QComboBox(), QComboBox()
        self.corpus_label, self.model_label = self.add_control(self.corpus), self.add_control(self.model)
        self.marks: list[dict[str, Any]] = []
        connect(self)

    def title(self) -> str:
        """The tab's title: the entry's label, translated when the catalogs know it (else English)."""
        return _(registry.get(self.stat_id).label) if self.stat_id in registry.ids() else self.stat_id

    def retranslate(self, *_args: Any) -> None:
        self.corpus_label.setText(_("Corpus:"))
        self.model_label.setText(_("System:"))
        relabel_combo(self.corpus, {ALL: _("all corpora")})
        relabel_combo(self.model, {ALL: _("all systems")})
        super().retranslate()

    def hint_text(self) -> str:
        return _("Each line is one row of the statistic's table: the estimate with its 95% interval. Click a "
                 "line to list the table's row behind it.")

    def empty_text(self) -> str:
        return _("No rows of “{name}” to plot in these results.").format(name=self.title())

    def frame(self) -> pd.DataFrame | None:
        return self.data.table(self.stat_id) if self.data is not None else None

    def has_data(self) -> bool:
        return plot_spec(self.stat_id, self.frame()) is not None

    def fill_controls(self) -> None:
        t = self.frame()
        for combo, column, everything in ((self.corpus, "corpus", _("all corpora")),
                                          (self.model, "model", _("all systems"))):
            values = self.data.values(t, column) if t is not None else []
            fill_combo(combo, [(everything, ALL)] + [(v, v) for v in values])
            combo.setVisible(len(values) > 1)
        self.corpus_label.setVisible(self.corpus.isVisibleTo(self))
        self.model_label.setVisible(self.model.isVisibleTo(self))

    def selection(self) -> Any:
        return {"corpus": self.corpus.currentData() or ALL, "model": self.model.currentData() or ALL}

    def prepare(self, data: Any, selection: Any) -> dict[str, Any] | None:
        """The plot's rows for the chosen corpus and system (pool thread), each with the table row
        behind it when the adapter draws one line per row (then also why an untested row is untested)."""
        frame = data.table(self.stat_id)
        if frame is None:
            return None
        for column in ("corpus", "model"):
            if selection[column] and column in frame.columns:
                frame = frame[frame[column].astype(str) == selection[column]]
        spec = plot_spec(self.stat_id, frame)
        if spec is None:
            return None
        aligned = len(spec.rows) == len(frame)
        records = frame.to_dict("records") if aligned else [None] * len(spec.rows)
        rows = [(r, rec) for r, rec in zip(spec.rows, records) if _finite(r.value)]
        return {"title": spec.title, "x_label": spec.x_label, "rows": rows}

    def build(self, prep: dict[str, Any] | None) -> Any:
        if prep is None or not prep["rows"]:
            return
        rows = prep["rows"]
        n = len(rows)
        self.canvas.addLabel(legend_html([(_("p ≤ 0.05"), COLOURS["sig"]), (_("p ≤ 0.10"), COLOURS["weak"]),
                                          (_("not significant"), COLOURS["ns"])],
                                         _("○ not tested (no p-value)")), row=0, col=0)
        plot = self.add_plot(1, 0)
        plot.setTitle(f"<b>{prep['title']}</b>", size="11pt")
        plot.setLabel("bottom", prep["x_label"])
        plot.addLine(x=0, pen=pg.mkPen(GREY, style=Qt.DashLine))
        ys = [n - i for i in range(n)]
        xs = [0.0]
        for (r, _rec), y in zip(rows, ys):
            xs.append(float(r.value))
            xs += [float(v) for v in (r.low, r.high) if _finite(v)]
            if _finite(r.band) and float(r.band) > 0:
                b = float(r.band)
                xs += [-b, b]
                plot.addItem(pg.BarGraphItem(x0=[-b], x1=[b], y=[y], height=0.8, pen=None, brush=pg.mkBrush("#cfe3d4")))
        yield
        for level in ("sig", "weak", "ns", UNTESTED):
            pts = [(r, y) for (r, _rec), y in zip(rows, ys) if (r.level if r.level in COLOURS else "ns") == level]
            if not pts:
                continue
            c = COLOURS[level]
            bars = [(r, y) for r, y in pts if _finite(r.low) and _finite(r.high)]
            if bars:
                x = np.array([float(r.value) for r, _y in bars])
                plot.addItem(pg.ErrorBarItem(x=x, y=np.array([y for _r, y in bars], dtype=float),
                                             left=x - np.array([float(r.low) for r, _y in bars]),
                                             right=np.array([float(r.high) for r, _y in bars]) - x,
                                             beam=0.25, pen=pg.mkPen(c, width=1.6)))
            hollow = level == UNTESTED
            plot.addItem(pg.ScatterPlotItem(x=[float(r.value) for r, _y in pts], y=[y for _r, y in pts], size=9,
                                            symbol="o", pen=pg.mkPen(c, width=1.6),
                                            brush=pg.mkBrush("w" if hollow else c)))
            yield
        x_min, x_max = min(xs), max(xs)
        width = (x_max - x_min) or 1.0
        self.marks = []
        for k, ((r, rec), y) in enumerate(zip(rows, ys)):
            end = float(r.high) if _finite(r.high) else float(r.value)
            if r.level == UNTESTED:  # said in words beside the hollow marker, with the reason when known
                why = untested_text((rec or {}).get("status"), (rec or {}).get("note"), (rec or {}).get("reason"))
                txt = text_item(plot_label(why), COLOURS[UNTESTED], anchor=(0, 0.5), italic=True, tooltip=why)
            else:
                txt = text_item(r.note, COLOURS.get(r.level, COLOURS["ns"]), anchor=(0, 0.5), bold=True) if r.note else None
            if txt is not None:
                txt.setPos(end + width * 0.02, y)
                plot.addItem(txt)
            self.marks.append({"x": float(r.value), "y": y, "row": r, "record": rec})
            if k % 8 == 7:
                yield
        left = plot.getAxis("left")
        ticks = [(y, r.label) for (r, _rec), y in zip(rows, ys)]
        left.setTicks([ticks])
        left.setWidth(min(360, 12 + 7 * max(len(t) for _y, t in ticks)))
        plot.setXRange(x_min - width * 0.05, x_max + width * 0.6, padding=0)
        plot.setYRange(0.4, n + 0.6, padding=0)
        plot.setMouseEnabled(x=True, y=False)
        self.canvas.ci.layout.setRowStretchFactor(1, 1)

    def clear_marks(self) -> None:
        self.marks = []

    def clicked(self, plot: Any, x: float, y: float) -> None:
        best = min(self.marks, key=lambda m: abs(m["y"] - y), default=None)
        if best is None or abs(best["y"] - y) > 0.45:
            return
        self.highlight_point(plot, best["x"], best["y"])
        row, record = best["row"], best["record"]

        def table() -> pd.DataFrame:
            if record is not None:
                return pd.DataFrame([record])
            return pd.DataFrame([{"row": row.label, "estimate": row.value, "ci_low": row.low, "ci_high": row.high,
                                  "note": row.note, "level": row.level}])

        self.drill(row.label, table)
